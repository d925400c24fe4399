// gpu_layer_test.cpp: resolved GPUs and synchronous jobs coupled to the coolant
// (docs/models/gpu_layer.md, docs/models/gpu.md, docs/models/workload.md)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"

using namespace dctwin;

namespace {

// two GB200 NVL72 racks (144 GPUs) on one XDU1350, a training job on both
std::string twoRacks(const std::string& fws = "32 degC", const std::string& tcs = "36 degC",
                     const std::string& rack_extra = "", const std::string& job_extra = "",
                     const std::string& flow = "275 L/min") {
  return R"(dctwin: 1
name: two_racks
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: )" +
         fws + R"(, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    fluid: pg25
    control: {supply_temperature: )" +
         tcs + ", flow_setpoint: " + flow + R"(}
    piping:
      supply: {length: 10 m, diameter: 80 mm, segments: 5}
      return: {length: 10 m, diameter: 80 mm, segments: 5}
jobs:
  - {name: train, racks: [A01, A02], start: 0 s)" +
         job_extra + R"(}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1)" +
         rack_extra + R"(}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2}
)";
}

struct PowerRecorder : OutputSink {
  std::vector<double> t, P_IT;
  std::vector<EnergyTotals> e;
  double t_from = 0;
  void sample(const FacilityModel&, const State&, const double*, double,
              const EnergyTotals& ee) override {
    e.push_back(ee);
  }
  void fast(const FacilityModel& m, const State& st, double tt) override {
    if (tt < t_from) return;
    double P = 0;
    for (int r = 0; r < m.nrack; ++r) P += st.gl.rack_P_now[r];
    t.push_back(tt);
    P_IT.push_back(P);
  }
};

RunResult runFor(const FacilityModel& m, State& st, double duration, OutputSink* sink) {
  RunOptions ro;
  ro.duration = duration;
  return simulate(m, st, ro, sink);
}

}  // namespace

TEST_CASE("resolved GPUs: the job runs, and both energy balances close", "[gpu_layer]") {
  FacilityModel m = compileFacility(loadFacilityFromString(twoRacks(), "t.yaml"));
  REQUIRE(m.ngpu == 144);
  REQUIRE(m.njob == 1);
  State st = makeState(m, 305.15);
  PowerRecorder rec;
  RunResult r = runFor(m, st, 900, &rec);
  REQUIRE(r.ok);
  const JobState& js = st.gl.job[0];
  CHECK(js.iterations > 250);
  // coolant: heat in = to facility water + stored, within 0.1 %; GPU layer: to round-off
  for (const auto& e : rec.e) {
    CHECK(std::abs(e.balanceError()) <= 1e-3 * std::max(e.heat_in, 1.0));
    CHECK(std::abs(e.gpu_electric - e.gpu_to_coolant - e.gpu_stored) <=
          1e-9 * std::max(e.gpu_electric, 1.0));
  }
  // every GPU is at its cap in the compute phases: SW power cap bit, no thermal throttling at W32
  double throttled = 0;
  for (double x : st.gl.throttled_time) throttled += x;
  CHECK(throttled == 0.0);
}

TEST_CASE("straggler: one GPU behind a degraded cold plate slows the whole job", "[gpu_layer]") {
  // the reference path (every GPU its own group), so that each GPU has its own job progress
  auto run = [](const std::string& text, State* out) {
    FacilitySpec spec = loadFacilityFromString(text, "t.yaml");
    spec.gpu_group_identical = false;
    FacilityModel m = compileFacility(spec);
    State st = makeState(m, 305.15);
    REQUIRE(runFor(m, st, 900, nullptr).ok);
    *out = st;
    return m;
  };
  State healthy, degraded;
  run(twoRacks(), &healthy);
  // GPU 5 of rack A01: its plate conducts 2.5x worse (a clogged or badly seated plate)
  FacilityModel m =
      run(twoRacks("32 degC", "36 degC", ", coldplate_degradation: [{gpu: 5, factor: 2.5}]"),
          &degraded);
  const int bad = m.rack_gpuadr[0] + 5;
  CHECK(degraded.gl.throttled_time[bad] > 100.0);     // the hot GPU throttles
  CHECK(degraded.gl.throttled_time[bad + 1] == 0.0);  // its neighbour does not
  const double t_h = meanIterationTime(healthy.gl.job[0]);
  const double t_d = meanIterationTime(degraded.gl.job[0]);
  INFO("iteration healthy " << t_h << " s, degraded " << t_d << " s");
  CHECK(t_d > 1.03 * t_h);  // the whole job runs slower
  CHECK(throughputRatio(degraded.gl.job[0]) < throughputRatio(healthy.gl.job[0]));
  // the healthy GPUs spend the difference waiting at the barriers
  const auto& g = degraded.gl.job[0].gpu;
  double wait_others = 0;
  for (std::size_t k = 0; k < g.size(); ++k)
    if (int(k) != 5) wait_others += g[k].wait_time;
  wait_others /= double(g.size() - 1);
  CHECK(wait_others > healthy.gl.job[0].gpu[7].wait_time + 10.0);
  CHECK(g[5].wait_time < wait_others);
}

TEST_CASE("the synchronous power swing has the period and amplitude of the phases", "[gpu_layer]") {
  FacilityModel m = compileFacility(loadFacilityFromString(twoRacks(), "t.yaml"));
  State st = makeState(m, 305.15);
  PowerRecorder rec;
  rec.t_from = 600;  // settled
  REQUIRE(runFor(m, st, 660, &rec).ok);
  REQUIRE(rec.P_IT.size() > 600);
  const auto [mn, mx] = std::minmax_element(rec.P_IT.begin(), rec.P_IT.end());
  // compute phases: every GPU at its 1200 W cap, the other parts at their 90 %-activity power
  const GpuParams& gp = m.gpu_types[0];
  // (the backward phase: the longest compute phase; docs/models/rack_parts.md)
  const PhaseSpec& bwd = m.job_spec[0].phases[1];
  REQUIRE(m.rack_partset[0] >= 0);
  const double other = rackPartsPower(m.part_sets[m.rack_partset[0]],
                                      PartActivity{bwd.a_sm, bwd.a_nvlink, bwd.a_network, true})
                           .P;
  CHECK(*mx == Approx(2 * (72 * gp.P_tdp + other)).epsilon(0.01));
  // the lowest phase (pipeline bubble / all-reduce) is far below: the swing of synchronous training
  CHECK(*mx - *mn > 0.5 * *mx);
  // period: upward crossings of the mid level are one reference iteration (3.0 s) apart
  const double mid = 0.5 * (*mn + *mx);
  std::vector<double> ups;
  for (std::size_t i = 1; i < rec.P_IT.size(); ++i)
    if (rec.P_IT[i - 1] < mid && rec.P_IT[i] >= mid) ups.push_back(rec.t[i]);
  REQUIRE(ups.size() >= 10);
  const double period = (ups.back() - ups.front()) / double(ups.size() - 1);
  // the swing repeats with the job's measured iteration, up to ~10 % longer than the 3.0 s of the
  // phase specification: warm GPUs clock lower under their cap (leakage), and the job waits for
  // its slowest GPU (docs/models/gpu_variation.md)
  CHECK(period == Approx(meanIterationTime(st.gl.job[0])).margin(m.gpu_dt));
  CHECK(period > referenceIterationTime(m.job_spec[0]));
  CHECK(period < 1.1 * referenceIterationTime(m.job_spec[0]));
}

TEST_CASE("W45 facility water throttles and costs throughput while W32 does not", "[gpu_layer]") {
  // the loop flow a W32 design gives a GB200 tray (4.8 L/min per 4-GPU tray at 32 degC [K22]:
  // 86 L/min per rack); at W45 the same tray asks for 7.0 L/min [K22]
  auto run = [](const std::string& fws, const std::string& tcs, double* ratio, double* throttled) {
    FacilitySpec spec = loadFacilityFromString(twoRacks(fws, tcs, "", "", "173 L/min"), "t.yaml");
    // a 50 degC supply is above the rack's 45 degC supply_temperature_max: a site's protection
    // would cap the racks (protection_test.cpp); here the GPUs' own throttling is measured
    spec.detection.protection.enabled = false;
    FacilityModel m = compileFacility(spec);
    State st = makeState(m, 305.15);
    REQUIRE(runFor(m, st, 1200, nullptr).ok);
    *ratio = throughputRatio(st.gl.job[0]);
    *throttled = st.gl.job_throttled[0];
  };
  double r32, th32, r45, th45;
  run("32 degC", "36 degC", &r32, &th32);  // W32, TCS 36 degC
  run("45 degC", "50 degC", &r45, &th45);  // W45, TCS 50 degC (5 K CDU approach, CHx2000 [K43])
  INFO("W32: ratio " << r32 << ", " << th32 << " GPU-s throttled; W45: ratio " << r45 << ", "
                     << th45);
  CHECK(th32 == 0.0);
  CHECK(th45 > 0.0);
  CHECK(r45 < r32 - 0.01);
}

TEST_CASE("inference and trace-replay jobs drive the GPUs", "[gpu_layer]") {
  const std::string text = std::string(R"(dctwin: 1
name: serve
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 275 L/min}
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
jobs:
  - {name: serving, kind: inference, racks: [A01], load: {series: [[0 s, 0.0], [60 s, 0.0], [61 s, 1.0]]}}
  - {name: replay, kind: trace, racks: [A02], trace: {csv: )") +
                           DCTWIN_TEST_DATA_DIR + R"(/traces/gemm_mem_idle_4gpu.csv, loop: true}}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2}
)";
  FacilityModel m = compileFacility(loadFacilityFromString(text, "t.yaml"));
  REQUIRE(m.njob == 2);
  State st = makeState(m, 305.15);
  struct Probe : OutputSink {
    std::vector<double> t, P_a01_gpu0, P_a02_gpu0, P_a02_gpu5;
    void sample(const FacilityModel&, const State&, const double*, double,
                const EnergyTotals&) override {}
    void fast(const FacilityModel& mm, const State& s, double tt) override {
      t.push_back(tt);
      // the fast callback sees the group computation (the per-GPU view follows at outputs)
      P_a01_gpu0.push_back(s.gl.grp.P[mm.gpu_group[mm.rack_gpuadr[0]]]);
      P_a02_gpu0.push_back(s.gl.grp.P[mm.gpu_group[mm.rack_gpuadr[1]]]);
      P_a02_gpu5.push_back(s.gl.grp.P[mm.gpu_group[mm.rack_gpuadr[1] + 5]]);
    }
  } probe;
  REQUIRE(runFor(m, st, 120, &probe).ok);
  // inference: ~idle-serving power before 60 s, full-load decode power after (B200-class
  // serving draws 387-458 W at high utilization, ~250 W near idle [K4]; GB200 a little less)
  auto at = [&](const std::vector<double>& v, double tt) {
    std::size_t i = std::lower_bound(probe.t.begin(), probe.t.end(), tt) - probe.t.begin();
    return v[std::min(i, v.size() - 1)];
  };
  CHECK(at(probe.P_a01_gpu0, 50) > 180);
  CHECK(at(probe.P_a01_gpu0, 50) < 300);
  CHECK(at(probe.P_a01_gpu0, 100) > 350);
  CHECK(at(probe.P_a01_gpu0, 100) < 480);
  // trace: the board power follows the replayed samples (GEMM 1180 W, memory-bound 650 W, idle
  // 170 W, 2 s each, looping every 30 s); GPUs beyond the trace's 4 idle
  CHECK(at(probe.P_a02_gpu0, 31.0) == Approx(1180));
  CHECK(at(probe.P_a02_gpu0, 33.0) == Approx(650));
  CHECK(at(probe.P_a02_gpu0, 35.0) == Approx(170));
  CHECK(at(probe.P_a02_gpu5, 31.0) < 200);
}

TEST_CASE("a GB200-style power floor and ramp limits shrink the swing by the expected amount",
          "[gpu_layer]") {
  struct Swing : OutputSink {
    double t_from = 300;
    std::vector<double> P_gpu;  // GPU power of both racks at every fast step
    void sample(const FacilityModel&, const State&, const double*, double,
                const EnergyTotals&) override {}
    void fast(const FacilityModel& m, const State& st, double tt) override {
      if (tt < t_from) return;
      double P = 0;
      for (int r = 0; r < m.nrack; ++r) P += st.gl.rack_gpu_P_now[r];
      P_gpu.push_back(P);
    }
  };
  auto run = [](const std::string& job_extra, Swing* sw, double* ratio) {
    FacilityModel m = compileFacility(
        loadFacilityFromString(twoRacks("32 degC", "36 degC", "", job_extra), "t.yaml"));
    State st = makeState(m, 305.15);
    REQUIRE(runFor(m, st, 360, sw).ok);
    *ratio = throughputRatio(st.gl.job[0]);
    return m;
  };
  Swing plain, floored, ramped;
  double r_plain, r_floor, r_ramp;
  FacilityModel m = run("", &plain, &r_plain);
  run(", power_smoothing: {floor: 1000 W}", &floored, &r_floor);
  run(", power_smoothing: {ramp_up: 4000 W/s, ramp_down: 4000 W/s}", &ramped, &r_ramp);
  const double dt = m.gpu_dt;
  const SwingMetrics sp = swingMetrics(plain.P_gpu, dt), sf = swingMetrics(floored.P_gpu, dt),
                     sr = swingMetrics(ramped.P_gpu, dt);
  const int n = m.ngpu;
  INFO("swing plain " << sp.peak_to_peak << " W, floor " << sf.peak_to_peak << " W, ramp "
                      << sr.peak_to_peak << " W; ramps " << sp.max_ramp_up << " / "
                      << sr.max_ramp_up << " W/s; throughput " << r_plain << " / " << r_floor
                      << " / " << r_ramp);
  // the floor: GPUs never below 1000 W while the job runs, the cap still 1200 W -> swing 200 W per
  // GPU
  CHECK(sf.min >= n * 1000.0 - 1e-6);
  CHECK(sf.peak_to_peak <= n * 200.0 + 1e-6);
  CHECK(sf.peak_to_peak < 0.4 * sp.peak_to_peak);
  // filler work costs no iteration time of its own, only a little through the warmer, leakier die
  CHECK(r_floor <= r_plain);
  CHECK(r_floor == Approx(r_plain).margin(0.01));
  // the ramp limits: no faster than n x 4 kW/s, and the job pays for the slower rise
  CHECK(sr.max_ramp_up <= n * 4000.0 * (1 + 1e-9));
  CHECK(sr.max_ramp_down <= n * 4000.0 * (1 + 1e-9));
  CHECK(sp.max_ramp_up > 2 * n * 4000.0);
  CHECK(r_ramp < r_plain);
}

TEST_CASE("the racks' air-side heat warms the room-air node, and its balance closes",
          "[gpu_layer]") {
  std::string text = twoRacks();
  text.replace(
      text.find("site: {ambient_temperature: 25 degC}"), 36,
      "site: {ambient_temperature: 25 degC, room_air: {volume: 500 m3, supply_temperature: "
      "24 degC, airflow: 4 m3/s}}");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "t.yaml"));
  REQUIRE(m.room_state == m.nstate - 1);
  State st = makeState(m, 305.15);
  PowerRecorder rec;
  REQUIRE(runFor(m, st, 1800, &rec).ok);
  // steady: T_room = T_supply + Q_air / (rho V_dot c_p), Q_air the racks' air-side heat
  double Q_air = 0;
  for (int r = 0; r < m.nrack; ++r) Q_air += st.sig.Q_air[r];
  CHECK(Q_air > 0.05 * 2 * 100e3);  // ~13 % of a GB200 rack's heat goes to air [K32]
  CHECK(st.y[m.room_state] == Approx(273.15 + 24 + Q_air / (kAirRho * 4.0 * kAirCp))
                                  .margin(0.3));  // Q_air of the last window
  // the room's energy integrals are solved with the states (integrator.cpp): the balance closes to
  // ~5e-6 of the heat in at every row (it was 1e-3 with CVODES's quadratures, which are not
  // error-controlled, and which a last-bit change of the racks' powers moved 40x)
  for (const auto& e : rec.e)
    CHECK(std::abs(e.air_in - e.air_removed - e.air_stored) <= 1e-4 * std::max(e.air_in, 1.0));
}

namespace {
// the two racks with a room whose air handlers (docs/models/air_handler.md) hold it at 30 degC
// on 10 degC chilled water: one 4 m3/s unit, 2 kW of fans at full speed, 39 kW of coil
std::string twoRacksAirHandlers(const std::string& handlers =
                                    "count: 1, rated_airflow: 4 m3/s, "
                                    "rated_fan_power: 2 kW, "
                                    "chilled_water_temperature: 10 degC, "
                                    "room_temperature: 30 degC") {
  std::string text = twoRacks();
  text.replace(text.find("site: {ambient_temperature: 25 degC}"), 36,
               "site: {ambient_temperature: 25 degC, room_air: {volume: 500 m3, air_handlers: {" +
                   handlers + "}}}");
  return text;
}
// the same racks as steady heat loads (no job): a steady state to compare with
std::string twoLoadsAirHandlers() {
  std::string text = twoRacksAirHandlers();
  text.replace(text.find("jobs:"), text.find("\nracks:") + 1 - text.find("jobs:"), "");
  for (const char* r : {"index: 1}", "index: 2}"}) {
    const std::size_t at = text.find(r) + std::string(r).size() - 1;
    text.insert(at, ", heat_load: 100 kW");
  }
  return text;
}
std::string loadErrorText(const std::string& yaml) {
  try {
    compileFacility(loadFacilityFromString(yaml, "t.yaml"));
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE(
    "air handlers hold the room at their set point: coil duty = air heat + fan heat at the "
    "fan-law speed, the room's balance closes with the fans' heat in it",
    "[gpu_layer][air_handler]") {
  FacilityModel m = compileFacility(loadFacilityFromString(twoLoadsAirHandlers(), "t.yaml"));
  REQUIRE(m.room_state == m.nstate - 2);
  REQUIRE(m.ah_state == m.nstate - 1);
  State st = makeState(m, 305.15);
  CHECK(st.y[m.room_state] == Approx(303.15));  // the room starts at its set point
  PowerRecorder rec;
  REQUIRE(runFor(m, st, 3600, &rec).ok);
  const Signals& g = st.sig;
  double Q_air = 0;
  for (int r = 0; r < m.nrack; ++r) Q_air += g.Q_air[r];
  REQUIRE(Q_air > 0.05 * 2 * 100e3);  // ~13 % of the racks' heat goes to air [K32]
  // the PI's integral takes the room to its set point
  CHECK(st.y[m.room_state] == Approx(303.15).margin(0.05));
  // steady state: the coil takes the racks' air heat and the fans' own heat
  CHECK(g.air_removed == Approx(Q_air + g.ah_P_fan).epsilon(1e-4));
  // the speed is the root of rho c_p V_rated y eps(y) (T_set - T_chw) = Q_air + P_rated y^3
  const double rc = kAirRho * kAirCp;
  auto excess = [&](double y) {
    return rc * 4.0 * y * coilEffectiveness(0.41, y) * 20.0 - Q_air - 2000.0 * y * y * y;
  };
  double lo = 0.2, hi = 1.0;
  REQUIRE(excess(lo) < 0);
  REQUIRE(excess(hi) > 0);
  for (int i = 0; i < 60; ++i) (excess(0.5 * (lo + hi)) > 0 ? hi : lo) = 0.5 * (lo + hi);
  CHECK(g.ah_speed == Approx(0.5 * (lo + hi)).margin(1e-4));
  // fan power at the fan-law point, supply air eps of the way to the water
  CHECK(g.ah_P_fan == Approx(2000.0 * std::pow(g.ah_speed, 3)).epsilon(1e-12));
  CHECK(g.ah_T_supply == Approx(st.y[m.room_state] -
                                coilEffectiveness(0.41, g.ah_speed) * (st.y[m.room_state] - 283.15))
                             .epsilon(1e-12));
  // no plant: the chilled water's chiller on the 32 degC facility water (EIR curves)
  CHECK(g.ah_P_chiller > 0);
  CHECK(g.ah_Q_water == Approx(g.air_removed + g.ah_P_chiller).epsilon(1e-12));
  // the room's balance at every row: rack air heat + fan heat = removed + stored
  for (const auto& e : rec.e)
    CHECK(std::abs(e.air_in + e.ah_fans - e.air_removed - e.air_stored) <=
          1e-4 * std::max(e.air_in, 1.0));
  const EnergyTotals& e = rec.e.back();
  CHECK(e.ah_fans > 0);
  CHECK(e.ah_chiller > 0);
  // steady: the last output interval's fan and chiller energy is the power times its length
  const EnergyTotals& e1 = rec.e[rec.e.size() - 2];
  CHECK(e.ah_fans - e1.ah_fans == Approx(g.ah_P_fan * 60).epsilon(1e-4));
  CHECK(e.ah_chiller - e1.ah_chiller == Approx(g.ah_P_chiller * 60).epsilon(1e-4));
}

TEST_CASE(
    "air handlers: a fixed supply next to them, a set point below the chilled water and a "
    "bad count are refused with file, line and key",
    "[gpu_layer][air_handler][loader]") {
  std::string both = twoRacks();
  both.replace(both.find("site: {ambient_temperature: 25 degC}"), 36,
               "site: {ambient_temperature: 25 degC, room_air: {volume: 500 m3,\n"
               "  supply_temperature: 24 degC, air_handlers: {count: 1}}}");
  const std::string a = loadErrorText(both);
  CHECK_THAT(a, Catch::Contains("t.yaml:4:") && Catch::Contains("supply_temperature") &&
                    Catch::Contains("not used with air_handlers"));
  const std::string b = loadErrorText(twoRacksAirHandlers(
      "count: 1, chilled_water_temperature: 20 degC, room_temperature: 20 degC"));
  CHECK_THAT(b, Catch::Contains("t.yaml:3:") && Catch::Contains("room_temperature") &&
                    Catch::Contains("above the chilled water"));
  const std::string c = loadErrorText(twoRacksAirHandlers("count: 0"));
  CHECK_THAT(c, Catch::Contains("t.yaml:3:") && Catch::Contains("count"));
  std::string neither = twoRacks();
  neither.replace(neither.find("site: {ambient_temperature: 25 degC}"), 36,
                  "site: {ambient_temperature: 25 degC, room_air: {volume: 500 m3}}");
  CHECK_THAT(loadErrorText(neither),
             Catch::Contains("supply_temperature") && Catch::Contains("air_handlers"));
}
