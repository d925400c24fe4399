// ride_through_test.cpp: voltage sags and frequency excursions on a two-rack GB200 site with its
// power chain (docs/models/ride_through.md): what rides through, what drops, what the meter sees
// and what the training job loses
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"

using namespace dctwin;

namespace {

// two GB200 NVL72 racks on one CDU; `ups`: behind a double-conversion UPS (else fed straight from
// the transformer); `pumps_on_ups`: the CDU pumps on the UPS's output
std::string site(bool ups, bool pumps_on_ups) {
  return std::string(R"(dctwin: 1
name: ride
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 275 L/min}
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
power:
  line_voltage_V: 480
  transformer: transformer_2500kva
)") + (ups ? "  ups: ups_double_conversion_1mw\n" : "") +
         "  cdu_pumps_on_ups: " + (pumps_on_ups ? "true" : "false") + R"(
  shelf: shelf_gb200_33kw
  shelf_breaker: breaker_mcb_63a_c
  ride_through: {rack_restart_time: 30 s}
  busways:
    - {name: BW1, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [A01, A02]}
jobs:
  - {name: train, racks: all, start: 0 s, restart_time: 20 s, checkpoint_interval: 10 s,
     checkpoint_duration: 1 s}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2}
)";
}

struct Run {
  FacilityModel m;
  State st;
  RunResult res;
  std::vector<double> t, P_feed;  // every GPU step: the feed at the meter
  std::vector<char> racks_on, on_battery;
  std::vector<double> ts, flow;  // every output (1 s): the CDU's secondary flow
  double balance = 0;            // the coolant's energy balance at the end, relative to the heat in
};

class Recorder : public OutputSink {
 public:
  explicit Recorder(Run& r) : r_(r) {}
  void sample(const FacilityModel& m, const State& st, const double*, double t,
              const EnergyTotals& e) override {
    r_.ts.push_back(t);
    r_.flow.push_back(st.sig.m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref());
    r_.balance = std::abs(e.balanceError()) / std::max(std::abs(e.heat_in), 1.0);
  }
  void fast(const FacilityModel&, const State& st, double t) override {
    r_.t.push_back(t);
    r_.P_feed.push_back(st.pl.P_utility);
    r_.racks_on.push_back(char(st.pl.rack_powered[0] + st.pl.rack_powered[1]));
    r_.on_battery.push_back(char(st.pl.ups.on_battery));
  }

 private:
  Run& r_;
};

Run run(const std::string& facility, const std::string& events, double duration) {
  FacilitySpec spec = loadFacilityFromString(facility, "f.yaml");
  if (!events.empty()) {
    const Scenario sc = loadScenarioFromString(
        "dctwin_scenario: 1\nname: s\nduration: 1 h\noutput_interval: 5 s\nevents:\n" + events,
        "s.yaml");
    applyScenario(sc, spec);
  }
  Run r{compileFacility(spec), {}, {}, {}, {}, {}, {}, {}, {}, 0};
  r.m.options.output_interval = 1.0;
  r.st = makeState(r.m, 305.15);
  Recorder rec(r);
  RunOptions ro;
  ro.duration = duration;
  r.res = simulate(r.m, r.st, ro, &rec);
  REQUIRE(r.res.ok);
  return r;
}

// the value of a per-step series at the first step ending at or after t
template <class T>
double at(const Run& r, const std::vector<T>& v, double t) {
  auto it = std::lower_bound(r.t.begin(), r.t.end(), t - 1e-9);
  REQUIRE(it != r.t.end());
  return double(v[std::size_t(it - r.t.begin())]);
}
double flowAt(const Run& r, double t) {
  auto it = std::lower_bound(r.ts.begin(), r.ts.end(), t - 1e-9);
  REQUIRE(it != r.ts.end());
  return r.flow[std::size_t(it - r.ts.begin())];
}
template <class T>
double maxOver(const Run& r, const std::vector<T>& v, double t0, double t1) {
  double x = -1e300;
  for (std::size_t k = 0; k < r.t.size(); ++k)
    if (r.t[k] >= t0 - 1e-9 && r.t[k] <= t1 + 1e-9) x = std::max(x, double(v[k]));
  return x;
}
std::vector<const EventRecord*> events(const Run& r, const std::string& kind) {
  std::vector<const EventRecord*> out;
  for (const auto& e : r.res.events)
    if (e.kind == kind) out.push_back(&e);
  return out;
}
// the power chain's balance: utility = IT + losses - battery (+ the stores' change)
double chainBalance(const Run& r) {
  const PowerLayerState& p = r.st.pl;
  return std::abs(p.E_utility - (p.E_it + p.E_psu + p.E_bus + p.E_ups + p.E_tx - p.E_battery)) /
         p.E_utility;
}

std::string scenarioError(const std::string& events, const std::string& facility) {
  try {
    const Scenario sc = loadScenarioFromString(
        "dctwin_scenario: 1\nname: s\nduration: 1 h\nevents:\n" + events, "s.yaml");
    FacilitySpec spec = loadFacilityFromString(facility, "f.yaml");
    applyScenario(sc, spec);
    compileFacility(spec);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a sag the equipment tolerates changes nothing: 15 ms at 0 V, no UPS",
          "[ride_through][power]") {
  // shorter than the PSUs' 20 ms hold-up and the drives' 50 ms ride-through
  const Run base = run(site(false, true), "", 40);
  const Run sag =
      run(site(false, true), "  - {time: 20 s, voltage_sag: {residual: 0, duration: 15 ms}}\n", 40);
  REQUIRE(events(sag, "voltage_sag").size() == 1);
  CHECK_THAT(events(sag, "voltage_sag")[0]->message, Catch::Contains("PSUs ride through"));
  for (const char* k : {"rack_power_lost", "drive_trip", "job_failed", "ups_on_battery"})
    CHECK(events(sag, k).empty());
  double dev = 0;
  for (std::size_t k = 0; k < base.t.size(); ++k)
    dev = std::max(dev, std::abs(at(sag, sag.P_feed, base.t[k]) - base.P_feed[k]) / base.P_feed[k]);
  INFO("largest relative difference of the meter feed from the run without the sag: " << dev);
  CHECK(dev < 1e-4);
  CHECK(sag.st.gl.job[0].failures == 0);
  CHECK(sag.st.gl.job[0].iterations == base.st.gl.job[0].iterations);
}

TEST_CASE(
    "a sequence of sags past hold-up on a UPS site: no rack drops, the meter loses the "
    "load from the transfer to the re-transfer",
    "[ride_through][power]") {
  // three 200 ms sags to 50 % five seconds apart (a line reclosing onto a fault): the UPS goes
  // to battery at 20 s and stays there until 10 s after the last one (40.2 s); racks and CDU
  // pumps behind it see nothing
  const Run r =
      run(site(true, true),
          "  - {time: 20 s, voltage_sag: {residual: 0.5, duration: 200 ms, repeat: 3, interval: "
          "5 s}}\n",
          60);
  CHECK(events(r, "voltage_sag").size() == 3);
  for (const char* k : {"rack_power_lost", "job_failed", "drive_trip", "gpu_thermal_throttle"})
    CHECK(events(r, k).empty());
  CHECK(r.st.gl.job[0].failures == 0);
  CHECK(at(r, r.racks_on, 30) == 2);
  // the meter: the UPS-fed load gone from the transfer to the re-transfer
  const double before = at(r, r.P_feed, 19.9);
  INFO("feed before " << before / 1e3 << " kW, on battery " << at(r, r.P_feed, 30) / 1e3
                      << " kW, after " << at(r, r.P_feed, 41) / 1e3 << " kW");
  CHECK(at(r, r.on_battery, 20.05) == 1);
  CHECK(maxOver(r, r.P_feed, 20.05, 40.15) < 0.05 * before);  // the transformer's no-load loss
  CHECK(at(r, r.on_battery, 40.25) == 0);
  CHECK(at(r, r.P_feed, 40.3) > 0.9 * before);  // the load and the battery's recharge
  const auto rt = events(r, "ups_retransfer");
  REQUIRE(rt.size() == 1);
  CHECK(rt[0]->time == Approx(40.2));
  CHECK_THAT(rt[0]->message, Catch::Contains("20.2 s"));
  CHECK(events(r, "generator_online").empty());  // none here
  CHECK(chainBalance(r) < 1e-9);
  CHECK(r.balance < 1e-3);
}

TEST_CASE(
    "a sag trips the drives of CDU pumps off the UPS: no flow until their restart, the "
    "GPUs throttle",
    "[ride_through][power]") {
  // one 200 ms sag to 50 %: the drives trip 50 ms into it and restart 4 s after it
  const Run r = run(site(true, false),
                    "  - {time: 20 s, voltage_sag: {residual: 0.5, duration: 200 ms}}\n", 45);
  const auto trips = events(r, "drive_trip"), restarts = events(r, "drive_restart");
  REQUIRE(trips.size() == 1);
  REQUIRE(restarts.size() == 1);
  CHECK(trips[0]->time == Approx(20.05));
  CHECK(restarts[0]->time == Approx(24.2));
  const double flow0 = flowAt(r, 19);
  INFO("CDU flow before " << flow0 * 6e4 << " L/min, at 22 s " << flowAt(r, 22) * 6e4
                          << " L/min, at 30 s " << flowAt(r, 30) * 6e4 << " L/min");
  CHECK(flowAt(r, 22) < 1e-3 * flow0);
  CHECK(flowAt(r, 30) > 0.9 * flow0);
  // four seconds without flow are enough for the GPUs to throttle; the racks stay powered
  CHECK(!events(r, "gpu_thermal_throttle").empty());
  CHECK(events(r, "rack_power_lost").empty());
  CHECK(r.balance < 1e-3);
}

TEST_CASE(
    "a sag outside the window without a UPS drops the racks, the job fails and restarts "
    "from its checkpoint once they are back",
    "[ride_through][power]") {
  // 100 ms at 30 %: past the hold-up; the racks are back 30 s after the sag (rack_restart_time),
  // the job restarts 20 s after that (restart_time)
  const Run r = run(site(false, true),
                    "  - {time: 25 s, voltage_sag: {residual: 0.3, duration: 100 ms}}\n", 90);
  const auto lost = events(r, "rack_power_lost"), back = events(r, "rack_power_restored");
  REQUIRE(lost.size() == 2);
  REQUIRE(back.size() == 1);
  CHECK(back[0]->time == Approx(55.1));
  CHECK(at(r, r.racks_on, 25.05) == 0);
  CHECK(at(r, r.racks_on, 55.15) == 2);
  CHECK(at(r, r.P_feed, 40) < 0.05 * at(r, r.P_feed, 24.9));
  const auto fail = events(r, "job_failed");
  REQUIRE(fail.size() == 1);
  const JobState& j = r.st.gl.job[0];
  CHECK(j.failures == 1);
  INFO("iterations " << j.iterations << ", lost " << j.lost_iterations << ", checkpoints "
                     << j.checkpoints);
  CHECK(j.lost_iterations >= 0);
  // the job runs again after the racks' restart and its own: iterations complete after 75.1 s
  CHECK(j.t_last_iteration_end > 75.1);
  CHECK(chainBalance(r) < 1e-9);
  CHECK(r.balance < 1e-3);
}

TEST_CASE(
    "a long sag starts the generator, a frequency excursion outside the UPS's window "
    "transfers it, one inside does nothing",
    "[ride_through][power]") {
  // 15 s at 40 %: past the generator's 10 s start; the UPS back on the utility 10 s after the
  // sag, the transfer switch with it
  std::string gen = site(true, true);
  gen.replace(gen.find("  shelf:"), 0, "  generator_start_delay: 10 s\n");
  const Run g = run(gen, "  - {time: 20 s, voltage_sag: {residual: 0.4, duration: 15 s}}\n", 50);
  const auto on = events(g, "generator_online"), rt = events(g, "ups_retransfer");
  REQUIRE(on.size() == 1);
  CHECK(on[0]->time == Approx(30));
  REQUIRE(rt.size() == 1);
  CHECK(rt[0]->time == Approx(45));
  CHECK_THAT(rt[0]->message, Catch::Contains("back from the generator"));
  CHECK(at(g, g.on_battery, 25) == 1);
  CHECK(at(g, g.on_battery, 31) == 0);  // the generator feeds the UPS
  CHECK(events(g, "rack_power_lost").empty());
  // a 4 Hz excursion: outside the +/- 3 Hz window, the UPS to battery and back 10 s after it
  const Run f = run(site(true, true),
                    "  - {time: 20 s, frequency_excursion: {deviation: -4 Hz, duration: 2 s}}\n"
                    "  - {time: 40 s, frequency_excursion: {deviation: 1 Hz, duration: 5 s}}\n",
                    50);
  REQUIRE(events(f, "frequency_excursion").size() == 2);
  const auto frt = events(f, "ups_retransfer");
  REQUIRE(frt.size() == 1);
  CHECK(frt[0]->time == Approx(32));
  CHECK(at(f, f.on_battery, 21) == 1);
  CHECK(at(f, f.on_battery, 42) == 0);  // 1 Hz: inside the window
  CHECK(events(f, "ups_on_battery").size() == 1);
  CHECK(events(f, "drive_trip").empty());
  CHECK(chainBalance(f) < 1e-9);
}

TEST_CASE("grid disturbances: values out of range are errors naming file, line and key",
          "[ride_through][input]") {
  const std::string f = site(true, true);
  auto has = [](const std::string& err, const std::string& what) {
    INFO(err);
    CHECK_THAT(err, Catch::Contains("s.yaml:5:"));
    CHECK_THAT(err, Catch::Contains(what));
  };
  has(scenarioError("  - {time: 1 s, voltage_sag: {residual: 1.2, duration: 100 ms}}\n", f),
      "residual");
  has(scenarioError("  - {time: 1 s, voltage_sag: {residual: 0.5, duration: -1 s}}\n", f),
      "duration");
  has(scenarioError("  - {time: 1 s, voltage_sag: {residual: 0.5, duration: 1 s, repeat: 3}}\n", f),
      "interval");
  has(scenarioError("  - {time: 1 s, voltage_sag: {residual: 0.5, duration: 1 s, repeat: 2, "
                    "interval: 500 ms}}\n",
                    f),
      "longer than the duration");
  has(scenarioError("  - {time: 1 s, frequency_excursion: {deviation: 0 Hz, duration: 1 s}}\n", f),
      "deviation");
  has(scenarioError("  - {time: 1 s, frequency_excursion: {deviation: 12 Hz, duration: 1 s}}\n", f),
      "deviation");
  has(scenarioError("  - {time: 1 s, voltage_sag: {duration: 1 s}}\n", f), "residual");
  // a facility without a power section
  std::string nopower = f;
  nopower.erase(nopower.find("power:\n"), nopower.find("jobs:\n") - nopower.find("power:\n"));
  CHECK_THAT(
      scenarioError("  - {time: 1 s, voltage_sag: {residual: 0.5, duration: 1 s}}\n", nopower),
      Catch::Contains("power section"));
  // the facility's tolerances
  std::string bad = f;
  bad.replace(bad.find("rack_restart_time: 30 s"), 23, "psu_holdup: -5 ms");
  try {
    loadFacilityFromString(bad, "f.yaml");
    FAIL("a negative hold-up accepted");
  } catch (const LoadFailure& e) {
    CHECK_THAT(e.what(), Catch::Contains("psu_holdup"));
    CHECK_THAT(e.what(), Catch::Contains("f.yaml:"));
  }
}
