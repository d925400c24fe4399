// protection_test.cpp: the protection layers (docs/models/protection.md) end faults as a site's
// protection would, on the default pod: every protective action in a scenario, the fluid's limit
// as an event instead of a solver failure, the standby generator with the CDU pumps off the UPS,
// PUE crediting the energy drawn from the stores, and the energy balance at zero flow
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "models/cold_plate.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/output/observe.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

struct Outcome {
  FacilityModel m;
  State st;
  RunResult res;
  std::vector<double> t, flow, T_in, T_ret, T_cool_max, P_racks, pue, balance;
};

class Recorder : public OutputSink {
 public:
  explicit Recorder(Outcome& o) : o_(o) {}
  void sample(const FacilityModel& m, const State& st, const double* y, double t,
              const EnergyTotals& e) override {
    if (!feed_) feed_ = std::make_unique<FrameFeed>(m, std::vector<RunSink*>{});
    feed_->sample(m, st, y, t, e);
    o_.t.push_back(t);
    o_.flow.push_back(st.sig.m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref());
    o_.T_in.push_back(y[m.supSegAdr(0) + m.cdu_nseg_sup[0] - 1]);
    o_.T_ret.push_back(y[m.retSegAdr(0) + m.cdu_nseg_ret[0] - 1]);
    double Tc = -1e300, P = 0;
    for (int r = 0; r < m.nrack; ++r) {
      Tc = std::max(Tc, y[m.rackAdr(r)]);
      P += st.gl.rack_P_now[r];
    }
    o_.T_cool_max.push_back(Tc);
    o_.P_racks.push_back(P);
    const double E_it = st.pl.E_it + st.pl.E_psu;
    o_.pue.push_back(E_it > 0 ? (st.pl.E_utility + st.pl.E_storage_drawn + e.pump_electric) / E_it
                              : NAN);
    // the coolant's balance and the GPU layer's, relative to the heat that came in
    const double scale = std::max(std::abs(e.heat_in), 1.0);
    o_.balance.push_back(std::max(std::abs(e.balanceError()),
                                  std::abs(e.gpu_electric - e.gpu_to_coolant - e.gpu_stored)) /
                         scale);
  }
  std::unique_ptr<FrameFeed> feed_;

 private:
  Outcome& o_;
};

Outcome run(const std::string& scenario, double duration, void (*edit)(FacilitySpec&) = nullptr,
            const std::string& facility = kPod) {
  FacilitySpec spec = loadFacility(facility);
  if (edit) edit(spec);
  Scenario sc = loadScenarioFromString(scenario, "s.yaml");
  applyScenario(sc, spec);
  Outcome o{compileFacility(spec), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  o.m.options.output_interval = 5.0;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  Recorder rec(o);
  RunOptions ro;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, &rec);
  REQUIRE(o.res.ok);  // a physical limit is an event, never a solver failure
  return o;
}

const EventRecord* find(const RunResult& r, const std::string& kind, const std::string& who = "") {
  for (const auto& e : r.events)
    if (e.kind == kind && (who.empty() || e.component == who)) return &e;
  return nullptr;
}

int count(const RunResult& r, const std::string& kind) {
  return int(std::count_if(r.events.begin(), r.events.end(),
                           [&](const EventRecord& e) { return e.kind == kind; }));
}

double at(const Outcome& o, const std::vector<double>& v, double t) {
  auto it = std::lower_bound(o.t.begin(), o.t.end(), t - 1e-9);
  REQUIRE(it != o.t.end());
  return v[std::size_t(it - o.t.begin())];
}

double maxOver(const Outcome& o, const std::vector<double>& v, double t0, double t1) {
  double x = -1e300;
  for (std::size_t k = 0; k < o.t.size(); ++k)
    if (o.t[k] >= t0 - 1e-9 && o.t[k] <= t1 + 1e-9) x = std::max(x, v[k]);
  return x;
}

const char* kHead = "dctwin_scenario: 1\nname: p\nduration: 1 h\noutput_interval: 5 s\n";

}  // namespace

TEST_CASE("loss of flow: emergency power-off of the loop's racks, then nothing heats the coolant",
          "[protection][faults]") {
  const Outcome o =
      run(std::string(kHead) + "events:\n  - {time: 10 min, cdu: cdu1, cdu_failure: true}\n", 3600);
  const EventRecord* epo = find(o.res, "emergency_power_off", "cdu1");
  REQUIRE(epo);
  // the pumps coast down (2 s: below 10 % of the flow after 2 ln 10 = 4.6 s), then the 10 s EPO
  // delay (polled every second)
  CHECK(epo->time == Approx(600 + 2 * std::log(10.0) + 10).margin(1.5));
  // the coast-down: 5 s after the failure exp(-5/2) = 8 % of the flow before is left
  CHECK(at(o, o.flow, 605) < 0.15 * at(o, o.flow, 595));
  CHECK(at(o, o.flow, 605) > 0.02 * at(o, o.flow, 595));
  CHECK(count(o.res, "rack_power_off") == o.m.nrack);
  CHECK(at(o, o.P_racks, 700) == Approx(0).margin(1e-6));
  // the stagnant coolant stays far below its limit: the run completes without a coolant trip
  CHECK(maxOver(o, o.T_cool_max, 600, 3600) < 90 + 273.15);
  CHECK(!find(o.res, "coolant_over_temperature"));
}

TEST_CASE("without the EPO the coolant's limit becomes a protective power-off, not a failure",
          "[protection][faults]") {
  const Outcome o = run(std::string(kHead) +
                            "events:\n  - {time: 10 min, cdu: cdu1, cdu_failure: true}\n"
                            "protection: {epo_flow_fraction: 0}\n",
                        3600);
  CHECK(!find(o.res, "emergency_power_off"));
  const EventRecord* trip = find(o.res, "coolant_over_temperature");
  REQUIRE(trip);
  CHECK(trip->time > 700);
  // PG25's use range ends at 90 degC; the trip acts 5 K below it and the coolant stays in range
  CHECK(maxOver(o, o.T_cool_max, 0, 3600) < 90 + 273.15 + 2);
  CHECK(at(o, o.P_racks, 3500) == Approx(0).margin(1e-6));
}

TEST_CASE("low flow alarm at 90 % of the set point after 100 s (Vertiv CDU defaults)",
          "[protection][faults]") {
  const Outcome o =
      run(std::string(kHead) + "events:\n  - {time: 10 min, cdu: cdu1, pump_failure: 2}\n", 1200);
  const EventRecord* low = find(o.res, "low_flow", "cdu1");
  REQUIRE(low);
  CHECK(low->time >= 600 + 100 - 1e-6);
  CHECK(low->time <= 600 + 100 + 6);
}

TEST_CASE("rack inlet above its maximum: GPU power cap, then shutdown, CDU supply warnings",
          "[protection][faults]") {
  const Outcome o =
      run(std::string(kHead) + "events:\n  - {time: 10 min, cdu: cdu1, valve_stuck: 0.3}\n", 3600);
  const EventRecord* cap = find(o.res, "inlet_over_temperature", "rack A01");
  const EventRecord* off = find(o.res, "inlet_over_temperature_shutdown", "rack A01");
  REQUIRE(cap);
  REQUIRE(off);
  CHECK(cap->time > 600);
  CHECK(off->time > cap->time);
  // the cap is on: the rack's GPUs run at most at half their limit until the shutdown
  CHECK(o.st.faults.prot.gpu_cap_factor[0] == Approx(0.5));
  // the inlet exceeded the 45 degC maximum when the cap acted
  CHECK(at(o, o.T_in, cap->time) > 45 + 273.15);
  // after the start-up inhibit the CDU reports its supply far above its set point
  const EventRecord* high = find(o.res, "supply_high_temperature", "cdu1");
  REQUIRE(high);
  CHECK(high->time >= 1200 - 1e-6);
  CHECK(at(o, o.P_racks, 3000) == Approx(0).margin(1e-6));
  // with the racks off and the valve stuck at 30 % the supply falls below its set point
  const EventRecord* low = find(o.res, "supply_low_temperature", "cdu1");
  REQUIRE(low);
  CHECK(low->time > high->time);
  CHECK(at(o, o.T_in, low->time) < 36 - 2 + 273.15 + 0.5);
}

TEST_CASE("pressure: pump discharge above the racks' maximum working pressure, relief set point",
          "[protection][faults]") {
  // four racks on the pod's CDU at its 1100 L/min set point: the pumps push the discharge past
  // the racks' 5 bar(g) and up to the CDU's 6 bar(g) relief setting
  const std::string r4 = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200_r4.yaml";
  const Outcome o = run(kHead, 300, nullptr, r4);
  const EventRecord* rack = find(o.res, "rack_over_pressure", "rack A01");
  const EventRecord* relief = find(o.res, "relief_valve_open", "cdu1");
  REQUIRE(rack);
  REQUIRE(relief);
  const double p_dis = o.st.sig.p_tank[0] + o.st.sig.dp_pump[0];
  CHECK(p_dis >= o.m.rack_p_max[0]);
  CHECK(relief->time >= rack->time);
  // the default pod stays below both
  const Outcome pod = run(kHead, 300);
  CHECK(!find(pod.res, "rack_over_pressure"));
  CHECK(!find(pod.res, "relief_valve_open"));
  CHECK(pod.st.sig.m_relief[0] == 0.0);
}

TEST_CASE(
    "relief valve: opens at its set point and passes flow, holding the discharge below "
    "10 % over it",
    "[protection][faults]") {
  const std::string r4 = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200_r4.yaml";
  const Outcome o = run(kHead, 600, nullptr, r4);
  REQUIRE(find(o.res, "relief_valve_open", "cdu1"));
  const double p_set = o.m.cdu_p_max[0];
  const double p_dis = o.st.sig.p_tank[0] + o.st.sig.dp_pump[0];
  const double m_rv = o.st.sig.m_relief[0];
  CHECK(m_rv > 0);
  CHECK(p_dis > p_set);
  CHECK(p_dis < 1.1 * p_set);
  // the valve's law: relief_capacity x design flow at 10 % over the set point, linear from 0
  const double rho = o.m.fluids[o.m.cdu_fluid[0]].rho_ref();
  const double G =
      o.m.detection.protection.relief_capacity * o.m.cdu_design_flow[0] * rho / (0.1 * p_set);
  CHECK(m_rv == Approx(G * (p_dis - p_set)).epsilon(1e-6));
  // without relief flow (alarm only) the discharge climbs higher
  const Outcome alarm =
      run(std::string(kHead) + "protection: {relief_capacity: 0}\n", 600, nullptr, r4);
  CHECK(alarm.st.sig.m_relief[0] == 0.0);
  CHECK(alarm.st.sig.p_tank[0] + alarm.st.sig.dp_pump[0] > p_dis);
  // the racks get less flow with the relief open: part of the pumps' flow goes around them
  CHECK(o.st.sig.m_sec[0] < alarm.st.sig.m_sec[0]);
}

TEST_CASE("protection can be switched off: the stuck valve runs hot without an action",
          "[protection][faults]") {
  const Outcome o = run(std::string(kHead) +
                            "events:\n  - {time: 10 min, cdu: cdu1, valve_stuck: 0.3}\n"
                            "protection: {enabled: false}\n",
                        1800);
  CHECK(!find(o.res, "inlet_over_temperature"));
  CHECK(at(o, o.P_racks, 1700) > 100e3);
}

TEST_CASE("return high warning after the start-up inhibit", "[protection][faults]") {
  const Outcome o = run(std::string(kHead) +
                            "events:\n  - {time: 10 min, cdu: cdu1, pump_failure: 2}\n"
                            "protection: {return_high_offset: 5 K, startup_inhibit: 0 s}\n",
                        1800);
  const EventRecord* ret = find(o.res, "return_high_temperature", "cdu1");
  REQUIRE(ret);
  CHECK(at(o, o.T_ret, ret->time) > 36 + 5 + 273.15 - 0.5);
}

namespace {
void pumpsOffUps(FacilitySpec& s) {
  s.power.cdu_pumps_on_ups = false;
  s.power.generator_start_delay = 10;
}
void noGenerator(FacilitySpec& s) {
  s.power.generator_start_delay = 0;
}
void pumpsOnUpsGenerator(FacilitySpec& s) {
  s.power.generator_start_delay = 10;
}
}  // namespace

TEST_CASE("utility loss, CDU pumps off the UPS, generator after 10 s: the coolant rises",
          "[protection][power]") {
  const std::string sc = std::string(kHead) +
                         "events:\n  - {time: 10 min, utility: lost}\n"
                         "  - {time: 20 min, utility: restored}\n";
  const Outcome off = run(sc, 1500, pumpsOffUps);
  const Outcome on = run(sc, 1500, pumpsOnUpsGenerator);
  REQUIRE(find(off.res, "cooling_power_lost"));
  const EventRecord* gen = find(off.res, "generator_online");
  REQUIRE(gen);
  CHECK(gen->time == Approx(610));
  CHECK(find(off.res, "cooling_power_restored"));
  // no flow while utility and generator are off; flow back once the generator carries the pumps
  CHECK(at(off, off.flow, 605) < 1e-3 * at(off, off.flow, 595));
  CHECK(at(off, off.flow, 700) > 0.9 * at(off, off.flow, 595));
  // the rack coolant rises during the gap; with the pumps on the UPS it does not
  const double rise_off = maxOver(off, off.T_cool_max, 600, 630) - at(off, off.T_cool_max, 595);
  const double rise_on = maxOver(on, on.T_cool_max, 600, 630) - at(on, on.T_cool_max, 595);
  INFO("rack coolant rise: pumps off the UPS " << rise_off << " K, on it " << rise_on << " K");
  CHECK(rise_off > 1.0);
  CHECK(rise_on < 0.5 * rise_off);
  // ... and the GPUs throttle in the gap (ride-through) only without flow
  const EventRecord* thr = find(off.res, "gpu_thermal_throttle");
  REQUIRE(thr);
  CHECK(thr->time < 610);
  CHECK(!find(on.res, "gpu_thermal_throttle"));
  CHECK(!find(on.res, "cooling_power_lost"));
  // the generator ends the battery discharge: the UPS draws little from the battery after 610 s
  CHECK(on.st.pl.E_storage_drawn < 0.2 * 3.6e6 * 100);
}

TEST_CASE("PUE credits the energy drawn from the UPS battery: never below 1",
          "[protection][power]") {
  const Outcome o = run(std::string(kHead) +
                            "events:\n  - {time: 5 min, utility: lost}\n"
                            "  - {time: 7 min, utility: restored}\n",
                        900, noGenerator);
  for (std::size_t k = 0; k < o.t.size(); ++k)
    if (std::isfinite(o.pue[k])) CHECK(o.pue[k] >= 1.0);
  CHECK(o.st.pl.E_storage_drawn > 0);  // the battery is not yet fully recharged at 15 min
  // (no generator here: the battery carries the whole 2 min)
}

TEST_CASE("zero flow: the plate sees the stagnant coolant, energy still closes",
          "[protection][physics]") {
  // the blending law itself
  CHECK(plateCoolantTemperature(300, 350, 1.0) == Approx(300));
  CHECK(plateCoolantTemperature(300, 350, 0.1) == Approx(300));
  CHECK(plateCoolantTemperature(300, 350, 0.05) == Approx(325));
  CHECK(plateCoolantTemperature(300, 350, 0.0) == Approx(350));
  CHECK(plateCoolantTemperature(300, 350, -0.5) == Approx(350));  // reversed: the outlet side
  // every pump stops, nothing protects (EPO and coolant trip off, protection disabled): the
  // coolant heats under the non-GPU parts, the energy balance still closes
  const Outcome o = run(std::string(kHead) +
                            "events:\n  - {time: 10 min, cdu: cdu1, cdu_failure: true}\n"
                            "protection: {enabled: false}\n",
                        1200);
  CHECK(at(o, o.flow, 900) < 1e-6);
  for (std::size_t k = 0; k < o.t.size(); ++k) CHECK(o.balance[k] < 1e-3);
  // after their shutdown the GPUs sit near the stagnant rack coolant, not near the 36 degC inlet
  double Tj_min = 1e300;
  for (double T_j : o.st.gl.grp.T_j) Tj_min = std::min(Tj_min, T_j);
  CHECK(Tj_min > at(o, o.T_in, 1195) + 10);
}

TEST_CASE("water boils at 100 degC at one atmosphere and higher under the loop's pressure",
          "[protection][physics]") {
  CHECK(waterSaturationTemperature(101325) == Approx(373.15).margin(0.6));
  CHECK(waterSaturationTemperature(2e5) - 273.15 == Approx(120.2).margin(1.5));
  CHECK(waterSaturationTemperature(3e5) - 273.15 == Approx(133.5).margin(2.0));
}

TEST_CASE("leak sensor placement: the liquid needs time to reach the sensor, and only a share",
          "[protection][leak]") {
  const std::string ev = "events:\n  - {time: 10 min, rack: A03, leak: {diameter: 1 mm}}\n";
  const Outcome at_leak = run(std::string(kHead) + ev, 900);
  const Outcome placed =
      run(std::string(kHead) + ev +
              "detection: {leak_sensor_transit: 20 s, leak_sensor_fraction: 0.2}\n",
          900);
  const EventRecord* a = find(at_leak.res, "leak_detected");
  const EventRecord* b = find(placed.res, "leak_detected");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->time < 620);
  CHECK(b->time >= 600 + 20);
  CHECK(b->time > a->time + 20 - 1e-6);
  // the isolation follows the detection
  const EventRecord* iso = find(placed.res, "liquid_isolation", "rack A03");
  REQUIRE(iso);
  CHECK(iso->time == Approx(b->time));
}

TEST_CASE("make-up: a small leak is ridden through on the fill tank until it runs dry",
          "[protection][leak]") {
  // a 1.5 mm weep at the CDU, no valve to isolate it; the pod's 25 L fill tank and 10 L/min pump
  const std::string sc = std::string(kHead) +
                         "events:\n  - {time: 10 min, cdu: cdu1, leak: {location: cdu, diameter: "
                         "1.5 mm}}\n";
  const Outcome o = run(sc, 2400);
  const EventRecord* start = find(o.res, "fill_pump_start");
  const EventRecord* stop = find(o.res, "fill_pump_stop");
  const EventRecord* empty = find(o.res, "fill_tank_empty");
  const EventRecord* low = find(o.res, "low_level");
  const EventRecord* epo = find(o.res, "emergency_power_off");
  REQUIRE(start);
  REQUIRE(stop);
  REQUIRE(empty);
  REQUIRE(low);
  REQUIRE(epo);
  // the pump cycles: on at low pressure, off back at the fill pressure, many times
  CHECK(stop->time > start->time);
  CHECK(count(o.res, "fill_pump_start") >= 10);
  CHECK(count(o.res, "fill_timeout") == 0);
  // ridden through for some 20 minutes: the level switch trips only after the fill tank is empty
  CHECK(empty->time > 1500);
  CHECK(low->time > empty->time);
  CHECK(epo->time > low->time);
  // every litre of the fill tank went in
  CHECK(fillDelivered(o.m, o.st, 0, 2400) == Approx(0.025).epsilon(1e-9));
  CHECK(fillFlow(o.m, o.st, 0, 2400) == 0.0);
  // while it was ridden through the racks kept running: powered racks, not off (an instant of the
  // job may fall in a communication phase at ~0.46 of the compute phase's power, not below 0.3)
  CHECK(at(o, o.P_racks, 1500) > 0.3 * at(o, o.P_racks, 590));

  // the same leak without auto-fill: the level switch trips within a few minutes
  const Outcome n =
      run(sc, 1200, [](FacilitySpec& s) { s.detection.protection.fill_tank_volume = 0; });
  const EventRecord* low_n = find(n.res, "low_level");
  REQUIRE(low_n);
  CHECK(low_n->time < 700);
  CHECK(!find(n.res, "fill_pump_start"));
}

TEST_CASE("make-up cannot hold a header leak: the fill tank empties, the EPO still acts",
          "[protection][leak]") {
  const std::string sc = std::string(kHead) +
                         "events:\n  - {time: 10 min, cdu: cdu1, leak: {location: supply_header, "
                         "diameter: 6 mm}}\n";
  const Outcome o = run(sc, 900);
  const EventRecord* epo = find(o.res, "emergency_power_off");
  const EventRecord* empty = find(o.res, "fill_tank_empty");
  REQUIRE(epo);
  REQUIRE(empty);
  CHECK(epo->time < 630);
  CHECK(empty->time > epo->time);
}

TEST_CASE("a fill pump that cannot restore the pressure stops after its timeout",
          "[protection][leak]") {
  // a large fill tank and a weak pump against a 3 mm leak at the CDU
  const std::string sc = std::string(kHead) +
                         "protection: {fill_tank_volume: 500 L, fill_pump_flow: 1 L/min}\n"
                         "detection: {low_level_pump_stop: false}\n"
                         "events:\n  - {time: 10 min, cdu: cdu1, leak: {location: cdu, diameter: "
                         "3 mm}}\n";
  const Outcome o = run(sc, 1200);
  const EventRecord* start = find(o.res, "fill_pump_start");
  const EventRecord* to = find(o.res, "fill_timeout");
  REQUIRE(start);
  REQUIRE(to);
  CHECK(to->time == Approx(start->time + 180).margin(1.01));
  CHECK(count(o.res, "fill_pump_start") == 1);  // latched: no restart
  CHECK(fillDelivered(o.m, o.st, 0, 1200) == Approx(3e-3).margin(2e-5));
}

TEST_CASE("protection settings: the facility file's, overridden key by key by the scenario's",
          "[protection][input]") {
  FacilitySpec spec = loadFacility(kPod);
  CHECK(spec.detection.protection.fill_tank_volume == Approx(0.025));
  CHECK(spec.detection.protection.fill_start_drop == Approx(10e3));
  {
    FacilitySpec s = spec;
    applyScenario(
        loadScenarioFromString(
            std::string(kHead) + "protection: {fill_pump_flow: 5 L/min, epo_delay: 30 s}\n",
            "s.yaml"),
        s);
    CHECK(s.detection.protection.fill_pump_flow == Approx(5.0 / 60000));  // the scenario's
    CHECK(s.detection.protection.epo_delay == Approx(30));
    CHECK(s.detection.protection.fill_tank_volume == Approx(0.025));  // the facility's
    CHECK(s.detection.protection.fill_start_drop == Approx(10e3));
    CHECK(s.detection.protection.fill_timeout == Approx(180));  // the default
  }
  {
    FacilitySpec s = spec;
    applyScenario(loadScenarioFromString(std::string(kHead), "s.yaml"), s);
    CHECK(s.detection.protection.fill_pump_flow == Approx(10.0 / 60000));
  }
  // a bad value in the facility's section is an error naming the key
  const std::string bad = "dctwin: 1\nname: x\nprotection: {fill_tank_volume: -3 L}\n";
  try {
    loadFacilityFromString(bad, "f.yaml");
    FAIL("no error");
  } catch (const LoadFailure& e) {
    CHECK(std::string(e.what()).find("fill_tank_volume") != std::string::npos);
  }
}

TEST_CASE("generator failure: it fails to start, or trips while it runs, the UPS carries on",
          "[protection][power]") {
  const std::string tail =
      "  - {time: 10 min, utility: lost}\n  - {time: 15 min, utility: restored}\n";
  const Outcome ok = run(std::string(kHead) + "events:\n" + tail, 1000, pumpsOnUpsGenerator);
  const Outcome fail =
      run(std::string(kHead) + "events:\n  - {time: 1 min, generator_failure: true}\n" + tail, 1000,
          pumpsOnUpsGenerator);
  const EventRecord* fts = find(fail.res, "generator_fail_to_start");
  REQUIRE(fts);
  CHECK(fts->time == Approx(610));
  CHECK(!find(fail.res, "generator_online"));
  CHECK(find(ok.res, "generator_online"));
  // the battery carries the whole 5 min instead of 10 s: it gives far more energy
  CHECK(fail.st.pl.E_storage_drawn > 5 * ok.st.pl.E_storage_drawn);

  // a trip after the transfer: the generator drops out, and with the CDU pumps off the UPS the
  // cooling stops with it
  const Outcome trip =
      run(std::string(kHead) + "events:\n" + tail + "  - {time: 11 min, generator_failure: true}\n",
          1000, pumpsOffUps);
  const EventRecord* tr = find(trip.res, "generator_trip");
  REQUIRE(tr);
  CHECK(tr->time == Approx(660));
  CHECK(count(trip.res, "cooling_power_lost") == 2);  // at the utility loss and at the trip
  CHECK(at(trip, trip.flow, 680) < 0.1 * at(trip, trip.flow, 590));
}

TEST_CASE("a generator failure needs a power section", "[protection][power][input]") {
  FacilitySpec spec = loadFacility(kPod);
  spec.power.present = false;
  // applyScenario refuses it (the fault table's row needs a power section), at the event's line
  CHECK_THROWS_WITH(applyScenario(loadScenarioFromString(
                                      std::string(kHead) +
                                          "events:\n  - {time: 1 min, generator_failure: true}\n",
                                      "s.yaml"),
                                  spec),
                    Catch::Contains("s.yaml:") && Catch::Contains("power section"));
}

// tray-level shutdown by part (docs/models/rack_parts.md "Part temperature and shutdown")
TEST_CASE("a Grace cold plate that degrades shuts down its tray (rack) alone",
          "[protection][rack_parts]") {
  const Outcome o = run(std::string(kHead) +
                            "events:\n  - {time: 5 min, rack: A03, plate_degradation: "
                            "{part: grace_cpu, factor: 5}}\n",
                        900);
  const EventRecord* deg = find(o.res, "plate_degradation");
  REQUIRE(deg);
  CHECK(deg->time == Approx(300));
  const EventRecord* trip = find(o.res, "part_over_temperature");
  REQUIRE(trip);
  CHECK(trip->component == "rack A03");
  CHECK_THAT(trip->message, Catch::Contains("grace_cpu") && Catch::Contains("102 degC"));
  // within seconds (the firmware acts on the sensor, polled every second; the die crosses its
  // limit within its thermal time constant, 2 s after the step when the tray's stage is idle)
  CHECK(trip->time == Approx(300).margin(3.01));
  CHECK(count(o.res, "part_over_temperature") == 1);
  CHECK(o.st.faults.rack_power_off[2]);
  // the other seven racks run on; no EPO, no inlet trip
  for (int r = 0; r < o.m.nrack; ++r)
    if (r != 2) CHECK(!o.st.faults.rack_power_off[r]);
  CHECK(o.st.gl.rack_P_now[2] == Approx(0).margin(1e-9));
  // (the synchronous job fails with A03: the others idle, powered)
  CHECK(o.st.gl.rack_P_now[0] > 10e3);
  CHECK(!find(o.res, "emergency_power_off"));
  // the healthy Grace: 270 W x 0.1 K/W = 27 K above its coolant, far below 102 degC
  const RackParts& rp = o.m.part_sets[o.m.rack_partset[0]];
  const auto grace = std::find_if(rp.parts.begin(), rp.parts.end(),
                                  [](const auto& p) { return p.first.name == "grace_cpu"; });
  REQUIRE(grace != rp.parts.end());
  const double T_c = o.st.gl.rack_T_in[0];
  const double T_full = partTemperature(grace->first, PartActivity{1, 1, 1, true}, T_c);
  CHECK(T_full == Approx(T_c + 0.1 * 0.9 * 300).epsilon(1e-12));
  CHECK(T_full < grace->first.T_max - 20);
  // degraded x 5 at full load: 135 K above the coolant, past the limit
  CHECK(partTemperature(grace->first, PartActivity{1, 1, 1, true}, T_c, 5.0) > grace->first.T_max);
}

TEST_CASE("a mildly degraded plate is ridden through, protection off leaves it running",
          "[protection][rack_parts]") {
  const std::string ev =
      "events:\n  - {time: 5 min, rack: A03, plate_degradation: {part: grace_cpu, factor: 1.5}}\n";
  const Outcome mild = run(std::string(kHead) + ev, 600);
  CHECK(find(mild.res, "plate_degradation"));
  CHECK(!find(mild.res, "part_over_temperature"));
  const Outcome off = run(std::string(kHead) + "protection: {enabled: false}\n" +
                              "events:\n  - {time: 5 min, rack: A03, plate_degradation: "
                              "{part: grace_cpu, factor: 5}}\n",
                          600);
  CHECK(!find(off.res, "part_over_temperature"));
  CHECK(!off.st.faults.rack_power_off[2]);
}

TEST_CASE("plate degradation input errors name the part and the key", "[protection][input]") {
  FacilitySpec spec = loadFacility(kPod);
  applyScenario(loadScenarioFromString(std::string(kHead) +
                                           "events:\n  - {time: 1 min, rack: A01, "
                                           "plate_degradation: {part: grace_cp, factor: 3}}\n",
                                       "s.yaml"),
                spec);
  CHECK_THROWS_WITH(compileFacility(spec),
                    Catch::Contains("grace_cp") && Catch::Contains("grace_cpu"));
  CHECK_THROWS_WITH(loadScenarioFromString(
                        std::string(kHead) + "events:\n  - {time: 1 min, rack: A01, "
                                             "plate_degradation: {part: grace_cpu, factor: 0.5}}\n",
                        "s.yaml"),
                    Catch::Contains("factor"));
  CHECK_THROWS_WITH(loadScenarioFromString(std::string(kHead) +
                                               "events:\n  - {time: 1 min, "
                                               "plate_degradation: {part: grace_cpu, factor: 2}}\n",
                                           "s.yaml"),
                    Catch::Contains("rack"));
}

TEST_CASE(
    "level switch: the pumps restart when the make-up restores the level, unless an "
    "operator must clear it",
    "[protection][leak]") {
  // a 1.5 mm weep at the CDU; the fill pump waits 5 min, so the level switch trips first
  const std::string ev =
      "events:\n  - {time: 10 min, cdu: cdu1, leak: {location: cdu, diameter: 1.5 mm}}\n";
  const std::string slow_fill = "protection: {fill_start_delay: 5 min}\n";
  const Outcome o = run(std::string(kHead) + slow_fill + ev, 1500);
  const EventRecord* low = find(o.res, "low_level");
  const EventRecord* fill = find(o.res, "fill_pump_start");
  const EventRecord* clear = find(o.res, "low_level_cleared");
  REQUIRE(low);
  REQUIRE(fill);
  REQUIRE(clear);
  CHECK(low->time < fill->time);
  CHECK(clear->time > fill->time);
  CHECK_THAT(clear->message, Catch::Contains("restart"));
  // the pumps run again until the weep drains the tank to the switch once more (the slow fill
  // makes it cycle); the racks an EPO took off stay off (latched)
  CHECK(at(o, o.flow, clear->time + 20) > 0.5 * at(o, o.flow, 590));
  CHECK(count(o.res, "low_level") >= 2);
  CHECK(find(o.res, "emergency_power_off"));
  // operator release: the pumps stay blocked
  const Outcome op =
      run(std::string(kHead) + slow_fill + "detection: {low_level_release: operator}\n" + ev, 1500);
  REQUIRE(find(op.res, "low_level"));
  CHECK(!find(op.res, "low_level_cleared"));
  CHECK(at(op, op.flow, 1500) < 0.1 * at(op, op.flow, 590));
}

TEST_CASE("cold-plate heat capacity: from copper mass and hold-up, else from the time constant",
          "[cold_plate][compile]") {
  FacilitySpec spec = loadFacility(kPod);
  const FacilityModel m0 = compileFacility(spec);
  // the catalog plate gives no mass: C = tau / R at design flow (2 s [K25])
  const RackTypeSpec& rt = spec.rack_types.at(spec.racks[0].type);
  ColdPlateSpec& cp = spec.coldplates.at(rt.coldplate);
  REQUIRE(cp.mass == 0);
  const double C_tau = m0.gpu_C_plate[0];
  CHECK(C_tau > 0);
  cp.mass = 0.5;             // kg of copper
  cp.holdup_volume = 40e-6;  // 40 mL of coolant
  const FacilityModel m1 = compileFacility(spec);
  const double C_plate = m1.gpu_C_plate[0];
  CHECK(C_plate > 0.5 * 385 + 40e-6 * 1000 * 3500);
  CHECK(C_plate < 0.5 * 385 + 40e-6 * 1070 * 4200);
  // the rack's case node: its paths' plates in parallel
  CHECK(m1.rack_C_case[0] / m0.rack_C_case[0] == Approx(C_plate / C_tau).epsilon(0.02));
}
