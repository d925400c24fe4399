// faults_test.cpp: scenario faults (pumps, valve, facility water, utility, PSUs), detection and the
// event log, on the default pod (docs/scenario-format.md "Faults")
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/output/observe.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

struct Outcome {
  FacilityModel m;
  State st;
  RunResult res;
  RunSummary sum;
  std::vector<double> t, flow;           // CDU secondary flow at every output (m3/s)
  std::vector<double> T_sup, T_rack_in;  // CDU supply and rack inlet (end of the header) (K)
};

class FlowSink : public OutputSink {
 public:
  explicit FlowSink(Outcome& o) : o_(o) {}
  void sample(const FacilityModel& m, const State& st, const double* y, double t,
              const EnergyTotals& e) override {
    if (!feed_) feed_ = std::make_unique<FrameFeed>(m, std::vector<RunSink*>{&summary_});
    feed_->sample(m, st, y, t, e);
    o_.t.push_back(t);
    o_.flow.push_back(st.sig.m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref());
    o_.T_sup.push_back(y[m.stateAdr(0, kTHexSec)]);
    o_.T_rack_in.push_back(y[m.supSegAdr(0) + m.cdu_nseg_sup[0] - 1]);
  }
  SummarySink summary_;
  std::unique_ptr<FrameFeed> feed_;

 private:
  Outcome& o_;
};

Outcome run(const std::string& scenario, double duration) {
  FacilitySpec spec = loadFacility(kPod);
  Scenario sc = loadScenarioFromString(scenario, "s.yaml");
  applyScenario(sc, spec);
  Outcome o{compileFacility(spec), {}, {}, {}, {}, {}, {}, {}};
  o.m.options.output_interval = 1.0;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  FlowSink sink(o);
  RunOptions ro;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, &sink);
  o.sum = sink.summary_.summary;
  REQUIRE(o.res.ok);
  return o;
}

const EventRecord* find(const RunResult& r, const std::string& kind, const std::string& who = "") {
  for (const auto& e : r.events)
    if (e.kind == kind && (who.empty() || e.component == who)) return &e;
  return nullptr;
}

double flowAt(const Outcome& o, double t) {
  auto it = std::lower_bound(o.t.begin(), o.t.end(), t - 1e-9);
  REQUIRE(it != o.t.end());
  return o.flow[static_cast<std::size_t>(it - o.t.begin())];
}

std::string errorsOf(const std::string& scenario) {
  try {
    FacilitySpec spec = loadFacility(kPod);
    Scenario sc = loadScenarioFromString(scenario, "s.yaml");
    applyScenario(sc, spec);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("fault events: bad input is reported with file, key and a did-you-mean",
          "[faults][scenario]") {
  CHECK_THAT(errorsOf("events:\n  - {time: 1 min, cdu: cdu2, pump_failure: 1}\n"),
             Catch::Contains("s.yaml:2") && Catch::Contains("unknown CDU") &&
                 Catch::Contains("did you mean 'cdu1'"));
  CHECK_THAT(errorsOf("events:\n  - {time: 1 min, pump_failure: 1}\n"),
             Catch::Contains("'pump_failure' needs 'cdu'"));
  CHECK_THAT(errorsOf("events:\n  - {time: 1 min, utility: gone}\n"),
             Catch::Contains("utility") && Catch::Contains("expected 'lost' or 'restored'"));
  CHECK_THAT(errorsOf("events:\n  - {time: 1 min, cdu: cdu1, valve_stuck: 1.5}\n"),
             Catch::Contains("valve_stuck") && Catch::Contains("fraction"));
  CHECK_THAT(errorsOf("events:\n  - {time: 1 min, cdu: cdu1, pump_failure: 1, "
                      "facility_water_flow: 0}\n"),
             Catch::Contains("exactly one action"));
  CHECK_THAT(errorsOf("events:\n  - {time: 1 min, rack: A09, psu_failure: 2}\n"),
             Catch::Contains("unknown rack") && Catch::Contains("A09"));
  CHECK_THAT(errorsOf("detection: {low_flow_delay: -3 s}\nevents: []\n"),
             Catch::Contains("detection.low_flow_delay"));
}

TEST_CASE("pump failure with N+1 redundancy: the standby takes over, nothing throttles",
          "[faults][cdu]") {
  Outcome o = run(
      "detection: {pump_switchover: 5 s}\nevents:\n  - {time: 310 s, cdu: cdu1, pump_failure: 1}\n",
      420);
  const double before = flowAt(o, 309);
  CHECK(flowAt(o, 312) < 0.9 * before);                   // one of two duty pumps: the flow dips
  CHECK(flowAt(o, 410) == Approx(before).epsilon(0.01));  // the standby restored it
  const EventRecord* f = find(o.res, "pump_failure");
  const EventRecord* s = find(o.res, "pump_switchover");
  REQUIRE(f);
  REQUIRE(s);
  CHECK(f->time == Approx(310));
  CHECK(f->severity == "warning");
  CHECK(s->time == Approx(315));
  CHECK_FALSE(find(o.res, "low_flow"));
  CHECK_FALSE(find(o.res, "gpu_thermal_throttle"));
  CHECK(o.sum.gpu_seconds_throttled == 0);
}

TEST_CASE("pump failures beyond the redundancy: low flow, throttling, then shutdown",
          "[faults][cdu]") {
  // three failures on a 2 duty + 1 standby CDU: the standby covers the first, then no flow
  // (low flow at half the set point: the 90 % default would see the pumps' start-up ramp)
  Outcome o = run(R"(detection: {pump_switchover: 5 s, low_flow_fraction: 0.5, low_flow_delay: 10 s}
events:
  - {time: 310 s, cdu: cdu1, pump_failure: 1}
  - {time: 330 s, cdu: cdu1, pump_failure: 1}
  - {time: 350 s, cdu: cdu1, pump_failure: 1}
)",
                  390);
  // (the pod's job starts at 5 min: the failures hit a training job at full power)
  CHECK(flowAt(o, 345) < 0.9 * flowAt(o, 309));  // one pump left
  // none: the last pump coasts down (2 s time constant), so 5 s later 8 % of its flow is left
  CHECK(flowAt(o, 355) < 0.1 * flowAt(o, 345));
  CHECK(flowAt(o, 365) < 1e-3 * flowAt(o, 309));
  const EventRecord* lf = find(o.res, "low_flow", "cdu1");
  REQUIRE(lf);
  CHECK(lf->time >= 360 - 1e-6);  // delay 10 s after the flow collapsed at 350 s
  CHECK(lf->time <= 362);         // ... detected within a 1 s poll
  const EventRecord* th = find(o.res, "gpu_thermal_throttle");
  const EventRecord* sd = find(o.res, "gpu_shutdown");
  REQUIRE(th);
  REQUIRE(sd);
  CHECK(th->time > 350);
  CHECK(sd->time >= th->time);
  // the GPUs that shut down reached the shutdown temperature, and none ran above it
  const double T_shut = o.m.gpu_types[0].T_shutdown;
  CHECK(o.sum.gpus_shut_down > 0);
  CHECK(o.sum.T_j_max >= T_shut - 0.5);
  CHECK(o.sum.T_j_max <= T_shut + 5.0);
  // energy still balances through the faults
  CHECK(std::abs(o.res.energy.balanceError()) < 1e-4 * o.res.energy.heat_in);
}

TEST_CASE("facility-water faults: a plant trip heats the loop, a stuck valve holds its opening",
          "[faults][plant]") {
  Outcome trip = run("events:\n  - {time: 30 s, facility_water_flow: 0}\n", 120);
  REQUIRE(find(trip.res, "plant_trip"));
  CHECK(trip.st.sig.m_prim[0] == 0.0);
  CHECK(trip.st.sig.Q_hex[0] == Approx(0).margin(1e-9));
  Outcome stuck = run("events:\n  - {time: 30 s, cdu: cdu1, valve_stuck: 0.3}\n", 120);
  REQUIRE(find(stuck.res, "valve_stuck"));
  // the primary flow is the one of a 30 % open valve, whatever the controller asks
  FacilitySpec spec = loadFacility(kPod);
  FacilityModel m = compileFacility(spec);
  State s = makeState(m, m.fws_T.eval(0.0));
  s.faults = stuck.st.faults;  // same fault, different valve state
  s.y[m.stateAdr(0, kYValve)] = 0.9;
  std::vector<double> ydot(m.nstate);
  evalRhs(m, s, 0.0, s.y.data(), ydot.data());
  CHECK(s.sig.m_prim[0] == Approx(stuck.st.sig.m_prim[0]).epsilon(1e-6));
}

TEST_CASE("utility loss: the UPS carries the pod from its battery, then recharges",
          "[faults][power]") {
  Outcome o = run(R"(events:
  - {time: 310 s, utility: lost}
  - {time: 370 s, utility: restored}
)",
                  380);
  REQUIRE(find(o.res, "utility_lost"));
  REQUIRE(find(o.res, "ups_on_battery"));
  REQUIRE(find(o.res, "utility_restored"));
  CHECK(o.sum.racks_unpowered == 0);
  // the battery delivered the UPS output + loss until the standby generator took over (the pod
  // draws 274-902 kW through a training iteration), less the recharge from the generator after
  const double gap = o.m.power.generator_start_delay > 0 ? o.m.power.generator_start_delay : 60;
  REQUIRE(find(o.res, "generator_online"));
  CHECK(o.st.pl.E_battery > gap * 274e3 - (70 - gap) * o.m.power.ups.P_charge_max);
  CHECK(o.st.pl.E_battery < gap * 1000e3);
  CHECK(o.st.pl.ups.soc_J < o.m.power.ups.battery_J);
  CHECK_FALSE(o.st.pl.ups.on_battery);
}

TEST_CASE("PSU failures consume the N+N redundancy before they brake the GPUs", "[faults][power]") {
  Outcome some = run("events:\n  - {time: 305 s, rack: A01, psu_failure: 12}\n", 330);
  CHECK_FALSE(find(some.res, "power_brake"));
  CHECK(some.sum.racks_unpowered == 0);
  Outcome many = run("events:\n  - {time: 305 s, rack: A01, psu_failure: 32}\n", 330);
  const EventRecord* b = find(many.res, "power_brake", "rack A01");
  REQUIRE(b);
  CHECK(b->time > 305);
  CHECK_FALSE(find(many.res, "power_brake", "rack A02"));
  Outcome all = run("events:\n  - {time: 10 s, rack: A01, psu_failure: 48}\n", 30);
  REQUIRE(find(all.res, "rack_power_lost", "rack A01"));
  CHECK(all.sum.racks_unpowered == 1);
}

TEST_CASE("every bundled scenario runs", "[faults][scenario][data]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(DCTWIN_SOURCE_DIR) / "data" / "scenarios";
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().filename().string();
    INFO(name);
    // the facility the header names ("for data/facilities/X.yaml", as scripts/scenarios_check.py
    // reads it); else pod_* scenarios are for the default pod, the others for the two-CDU example
    std::string named;
    {
      std::ifstream in(entry.path());
      std::string line;
      const std::string key = "for data/facilities/";
      while (named.empty() && std::getline(in, line) && line.rfind("#", 0) == 0)
        if (const auto p = line.find(key); p != std::string::npos) {
          const auto q = line.find(".yaml", p);
          if (q != std::string::npos) named = line.substr(p + key.size(), q + 5 - p - key.size());
        }
    }
    const std::string facility = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/" +
                                 (!named.empty()               ? named
                                  : name.rfind("pod_", 0) == 0 ? "pod_gb200.yaml"
                                                               : "two_cdu_mixed.yaml");
    FacilitySpec spec = loadFacility(facility);
    Scenario sc = loadScenario(entry.path().string());
    applyScenario(sc, spec);
    FacilityModel m = compileFacility(spec);
    m.options.output_interval = std::min(sc.output_interval, sc.duration);
    State st = makeState(m, sc.has_T_init ? sc.T_init : m.fws_T.eval(0.0));
    RunOptions ro;
    // every event of the bundled files, and 2 min after the last one
    double t_last = 0;
    for (const auto& e : sc.events) t_last = std::max(t_last, e.time);
    ro.duration = std::min(sc.duration, std::max(16 * 60.0, t_last + 120.0));
    RunResult r = simulate(m, st, ro, nullptr);
    CHECK(r.ok);
    CHECK(std::abs(r.energy.balanceError()) < 1e-4 * r.energy.heat_in);
    if (!m.fault_events.empty()) CHECK_FALSE(r.events.empty());
    ++n;
  }
  CHECK(n >= 7);
}

TEST_CASE("a CDU failure stops every pump, and a pending switch-over does not restart one",
          "[faults][cdu]") {
  Outcome o = run(R"(detection: {pump_switchover: 5 s}
events:
  - {time: 310 s, cdu: cdu1, pump_failure: 1}
  - {time: 312 s, cdu: cdu1, cdu_failure: true}
)",
                  330);
  REQUIRE(find(o.res, "cdu_failure"));
  CHECK_FALSE(find(o.res, "pump_switchover"));
  CHECK(flowAt(o, 325) < 1e-3 * flowAt(o, 309));
}

TEST_CASE("a clogging strainer raises the loop's pressure drop until the pumps run out of head",
          "[faults][cdu]") {
  Outcome o = run(R"(events:
  - {time: 310 s, cdu: cdu1, filter_clogging: {dp: 800 kPa, growth_time: 60 s}}
)",
                  420);
  REQUIRE(find(o.res, "filter_clogging"));
  // the flow controller speeds the pumps up; with 3 bar more at design flow they saturate and
  // the flow falls short of its set point
  CHECK(o.st.y[o.m.stateAdr(0, kNPump)] > 0.99);
  CHECK(flowAt(o, 415) < 0.95 * flowAt(o, 305));
  // the pumps at full speed against the clogged strainer: discharge near the 6 bar maximum
  REQUIRE(find(o.res, "over_pressure"));
  CHECK(find(o.res, "over_pressure")->time > 310);
}

TEST_CASE("sensor faults mislead the controllers", "[faults][cdu]") {
  // the supply-temperature sensor reads 2 K low: the loop settles 2 K warmer than its set point
  Outcome off = run(R"(events:
  - {time: 60 s, cdu: cdu1, sensor_fault: {sensor: supply_temperature, offset: -2 K}}
)",
                    1500);
  REQUIRE(find(off.res, "sensor_fault"));
  const double T_sup = off.st.y[off.m.stateAdr(0, kTHexSec)];
  CHECK(T_sup == Approx(off.m.cdu_T_set[0] + 2.0).margin(0.3));
  // a flow meter stuck low: the pump controller drives the pumps to full speed
  Outcome stuck = run(R"(events:
  - {time: 30 s, cdu: cdu1, sensor_fault: {sensor: flow, stuck: true}}
)",
                      200);
  CHECK(stuck.st.y[stuck.m.stateAdr(0, kNPump)] > 0.99);
}

TEST_CASE("job events: a power cap lowers the GPUs' power, a stop ends the job", "[faults][jobs]") {
  Outcome o = run(R"(events:
  - {time: 330 s, job: llm_training, power_cap: 800 W}
  - {time: 400 s, job: llm_training, job_stop: true}
)",
                  420);
  REQUIRE(find(o.res, "power_cap"));
  const double P_end = o.sum.P_IT;  // after the stop: idle GPUs
  CHECK(P_end < 400e3);
  CHECK_THAT(errorsOf("events:\n  - {time: 1 s, job: llm_trainin, job_stop: true}\n"),
             Catch::Contains("unknown job") && Catch::Contains("did you mean 'llm_training'"));
  CHECK_THAT(errorsOf("events:\n  - {time: 1 s, power_cap: 800 W}\n"),
             Catch::Contains("'power_cap' needs 'job'"));
}

TEST_CASE("a power-cap event replaces the job's cap, a rack's own lower cap still holds",
          "[faults][jobs]") {
  // rack A01 states 700 W per GPU; the job (on every rack, from 5 min) is capped at 900 W at
  // 310 s: A01's GPUs stay at or below 700 W, the others reach 900 W and no more
  FacilitySpec spec = loadFacility(kPod);
  spec.racks[0].gpu_power_cap = 700;
  applyScenario(loadScenarioFromString("events:\n  - {time: 310 s, job: llm_training, power_cap: "
                                       "900 W}\n",
                                       "s.yaml"),
                spec);
  const FacilityModel m = compileFacility(spec);
  REQUIRE(m.rack_name[0] == "A01");
  CHECK(m.gpu_cap[m.rack_gpuadr[0]] == 700);
  CHECK(m.gpu_cap[m.rack_gpuadr[1]] == m.gpu_types[m.gpu_type[0]].P_tdp);
  struct PeakSink : OutputSink {
    std::vector<double> peak;  // per rack, after the event: the largest GPU power   (W)
    void sample(const FacilityModel&, const State&, const double*, double,
                const EnergyTotals&) override {}
    void fast(const FacilityModel& mm, const State& st, double t) override {
      peak.resize(mm.nrack, 0.0);
      if (t < 311) return;
      for (int r = 0; r < mm.nrack; ++r)
        for (int q = mm.rack_groupadr[r]; q < mm.rack_groupadr[r] + mm.rack_groupnum[r]; ++q)
          peak[r] = std::max(peak[r], st.gl.grp.P[q]);
    }
  } sink;
  State st = makeState(m, m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = 360;
  REQUIRE(simulate(m, st, ro, &sink).ok);
  REQUIRE(sink.peak.size() == std::size_t(m.nrack));
  CHECK(sink.peak[0] <= 700 + 1e-6);
  CHECK(sink.peak[0] > 600);
  for (int r = 1; r < m.nrack; ++r) {
    INFO("rack " << m.rack_name[r]);
    CHECK(sink.peak[r] <= 900 + 1e-6);
    CHECK(sink.peak[r] > 850);
  }
}

TEST_CASE("a facility-water excursion reaches the racks late and damped", "[faults][plant]") {
  // the valve is held where it is, so the controller cannot compensate: the step in facility
  // water passes through the HX (damped by its effectiveness and the reservoir), then the supply
  // header (delayed by its transport time) to the racks
  Outcome o = run(R"(events:
  - {time: 600 s, cdu: cdu1, valve_stuck: current}
  - {time: 601 s, facility_water_temperature: 36 degC}
)",
                  1500);
  // (the facility water was 32 degC: a 4 K step)
  REQUIRE(find(o.res, "valve_stuck"));
  const FacilityModel& m = o.m;
  const double V_header =
      m.cdu_M_seg_sup[0] * m.cdu_nseg_sup[0] / m.fluids[m.cdu_fluid[0]].rho_ref();
  const double tau = V_header / flowAt(o, 600);  // transport time of the supply header
  REQUIRE(tau > 5);
  auto at = [&](const std::vector<double>& v, double t) {
    auto it = std::lower_bound(o.t.begin(), o.t.end(), t - 1e-9);
    return v[static_cast<std::size_t>(it - o.t.begin())];
  };
  const double sup0 = at(o.T_sup, 600), in0 = at(o.T_rack_in, 600);
  const double d_sup = o.T_sup.back() - sup0, d_in = o.T_rack_in.back() - in0;
  // damped: the loop passes on part of the 4 K, never more
  CHECK(d_sup > 0.3 * 4.0);
  CHECK(d_sup < 4.0);
  CHECK(d_in == Approx(d_sup).epsilon(0.1));
  // delayed: half the header's transport time after the step the racks have seen almost nothing
  CHECK(at(o.T_rack_in, 601 + 0.5 * tau) - in0 < 0.05 * d_in);
  // and they reach half of the rise about one transport time after the CDU supply does
  auto half = [&](const std::vector<double>& v, double v0, double dv) {
    for (std::size_t k = 0; k < o.t.size(); ++k)
      if (o.t[k] > 601 && v[k] - v0 >= 0.5 * dv) return o.t[k];
    return 1e30;
  };
  const double lag = half(o.T_rack_in, in0, d_in) - half(o.T_sup, sup0, d_sup);
  CHECK(lag == Approx(tau).epsilon(0.5));
}
