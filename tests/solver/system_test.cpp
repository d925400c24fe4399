// system_test.cpp: whole-facility checks of the coupled solver (tests/README: analytic and
// published-data validation of the assembled loop; see docs/models/loop.md)
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "models/valve.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/output/observe.h"
#include "solver/output/results_reader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

// the default pod (one XDU1350, 8 GB200 NVL72) with a configurable heat load and rack lines
std::string podYaml(const std::string& heat_load, const std::string& extra_rack = "",
                    const std::string& cdu_extra = "", const std::string& fws_T = "32 degC",
                    int nrack = 8) {
  std::string s = R"(dctwin: 1
name: test_pod
site: {ambient_temperature: 25 degC}
facility_water: {fluid: water, supply_temperature: )" +
                  fws_T + R"(, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    fluid: pg25
    control: {supply_temperature: 36 degC, flow_setpoint: 1100 L/min}
)" + cdu_extra + R"(    piping:
      supply: {length: 30 m, diameter: 154 mm, segments: 10}
      return: {length: 30 m, diameter: 154 mm, segments: 10}
racks:
)";
  for (int i = 1; i <= nrack; ++i)
    s += "  - {name: A0" + std::to_string(i) +
         ", cdu: cdu1, type: gb200_nvl72, row: A, index: " + std::to_string(i) +
         ", heat_load: " + heat_load + extra_rack + "}\n";
  return s;
}

FacilityModel compileText(const std::string& text) {
  return compileFacility(loadFacilityFromString(text, "test.yaml"));
}

// records every output row
struct Recorder : OutputSink {
  std::vector<double> t;
  std::vector<std::vector<double>> y;
  std::vector<Signals> sig;
  std::vector<EnergyTotals> e;
  void sample(const FacilityModel& m, const State& st, const double* yy, double tt,
              const EnergyTotals& ee) override {
    t.push_back(tt);
    y.emplace_back(yy, yy + m.nstate);
    sig.push_back(st.sig);
    e.push_back(ee);
  }
};

RunResult run(const FacilityModel& m, Recorder& rec, double duration, double T_init = 305.15) {
  State st = makeState(m, T_init);
  RunOptions ro;
  ro.duration = duration;
  return simulate(m, st, ro, &rec);
}

}  // namespace

TEST_CASE("cold start reaches steady state", "[system]") {
  FacilityModel m = compileText(podYaml("120 kW"));
  m.options.output_interval = 60;
  Recorder rec;
  RunResult r = run(m, rec, 7200);
  REQUIRE(r.ok);
  INFO(r.error);
  // at the end every derivative has died out and heat out = heat in
  State st = makeState(m, 305.15);
  std::vector<double> ydot(m.nstate);
  REQUIRE(evalRhs(m, st, r.t_end, rec.y.back().data(), ydot.data()) == 0);
  double maxrate = 0;
  for (double d : ydot) maxrate = std::max(maxrate, std::abs(d));
  CHECK(maxrate < 1e-5);  // K/s (and 1/s for positions)
  CHECK(st.sig.heat_out_fws == Approx(st.sig.heat_in).epsilon(1e-5));
  // the supply temperature sits at its set point; the flow at its set point
  CHECK(rec.y.back()[m.stateAdr(0, kTHexSec)] == Approx(273.15 + 36).margin(0.01));
  CHECK(st.sig.m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref() * 60000 == Approx(1100).epsilon(1e-3));
  // the steady rack outlet follows Q = m cp dT for the liquid share of 120 kW
  const Fluid& f = m.fluids[m.cdu_fluid[0]];
  int a = m.rackAdr(0);
  double T_in = rec.y.back()[m.supSegAdr(0) + m.cdu_nseg_sup[0] - 1];
  double dh = f.h(rec.y.back()[a]) - f.h(T_in);
  CHECK(st.sig.m_rack[0] * dh == Approx(0.85 * 120e3).epsilon(1e-4));
}

TEST_CASE("energy balance closes within 0.1 %", "[system]") {
  // load steps and a facility-water course: heat in = heat to facility water + stored (+ loss)
  // (uninsulated headers: 8 W/(m K) of heat loss to the 25 degC site ambient)
  std::string text = podYaml("{steps: [[0 s, 30 kW], [5 min, 120 kW], [40 min, 70 kW]]}", "", "",
                             "{series: [[0 s, 30 degC], [1 h, 33 degC]]}");
  for (std::size_t p; (p = text.find("segments: 10}")) != std::string::npos;)
    text.replace(p, 13, "segments: 10, heat_loss_coefficient: 8 W/(m K)}");
  FacilityModel m = compileText(text);
  Recorder rec;
  RunResult r = run(m, rec, 5400);
  REQUIRE(r.ok);
  // the loss is there and of the expected size: 60 m x 8 W/(m K) x (T_pipe - 25 degC)
  CHECK(rec.sig.back().heat_loss > 60 * 8 * 10.0);
  CHECK(rec.sig.back().heat_loss < 60 * 8 * 25.0);
  for (const auto& e : rec.e)
    REQUIRE(std::abs(e.balanceError()) <= 1e-3 * std::max(e.heat_in, 1.0));
  const EnergyTotals& e = rec.e.back();
  CHECK(std::abs(e.balanceError()) / e.heat_in < 1e-4);
  CHECK(e.heat_in > 0.5 * 8 * 0.85 * 70e3 * 5400 * 0.5);  // sanity: the loads are in there
}

TEST_CASE("mass is conserved at every junction", "[system]") {
  FacilityModel m = compileText(podYaml("{steps: [[0 s, 30 kW], [5 min, 120 kW]]}"));
  Recorder rec;
  REQUIRE(run(m, rec, 1800).ok);
  for (const Signals& s : rec.sig) {
    double sum = 0;
    for (int r = 0; r < m.nrack; ++r) {
      REQUIRE(s.m_rack[r] >= 0);
      sum += s.m_rack[r];
    }
    // supply header split = sum of the branches = return header merge = pump = heat exchanger
    REQUIRE(sum == Approx(s.m_sec[0]).epsilon(1e-13));
    REQUIRE(s.hydraulic_failures == 0);
  }
}

TEST_CASE("load step settles under the PI controls", "[system]") {
  FacilityModel m = compileText(podYaml("{steps: [[0 s, 60 kW], [1 h, 120 kW]]}"));
  m.options.output_interval = 5;
  Recorder rec;
  REQUIRE(run(m, rec, 3 * 3600).ok);
  const double T_set = 273.15 + 36;
  auto dev = [&](std::size_t i) { return rec.y[i][m.stateAdr(0, kTHexSec)] - T_set; };
  // before the step: settled
  std::size_t i_step = 3600 / 5;
  CHECK(std::abs(dev(i_step)) < 0.01);
  // after the step: a bounded excursion whose envelope decays, back within 0.05 K in 30 min
  double peak1 = 0, peak2 = 0, last = 0;
  for (std::size_t i = i_step; i < rec.t.size(); ++i) {
    double tt = rec.t[i] - 3600;
    if (tt < 1200)
      peak1 = std::max(peak1, std::abs(dev(i)));
    else if (tt < 2400)
      peak2 = std::max(peak2, std::abs(dev(i)));
    else
      last = std::max(last, std::abs(dev(i)));
  }
  CHECK(peak1 > 0.2);  // the step is felt
  CHECK(peak1 < 5.0);  // but bounded
  CHECK(peak2 < 0.5 * peak1);
  CHECK(last < 0.05);  // no sustained oscillation
  // pump flow also back at its set point
  CHECK(rec.sig.back().m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref() * 60000 ==
        Approx(1100).epsilon(2e-3));
}

TEST_CASE("parallel branches split flow as the analytic solution", "[system]") {
  // quadratic manifold (exponent 2) and different balancing-valve openings: each branch is
  // dp = (c_valve,i + k_man) m_i^2 at one common dp, so m_i = sqrt(dp / (c_valve,i + k_man))
  std::string text = podYaml("100 kW");
  text.replace(text.find("cdus:"), 0, R"(rack_types:
  - {name: quad, base: gb200_nvl72, manifold: {dp_nominal: 60 kPa, flow_nominal: 130 L/min, exponent: 2.0}}
)");
  const double openings[8] = {1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3};
  for (int i = 0; i < 8; ++i) {
    std::string from = "type: gb200_nvl72, row: A, index: " + std::to_string(i + 1) + ",";
    std::string to = "type: quad, row: A, index: " + std::to_string(i + 1) +
                     ", balancing_valve: {opening: " + std::to_string(openings[i]) + "},";
    text.replace(text.find(from), from.size(), to);
  }
  FacilityModel m = compileText(text);
  State st = makeState(m, 310.0);
  std::vector<double> ydot(m.nstate);
  REQUIRE(evalRhs(m, st, 0.0, st.y.data(), ydot.data()) == 0);
  const Signals& s = st.sig;
  const double dp = s.dp_bank[0];  // the row's: at its first tap (direct return)
  CHECK(s.dp_rack[0] == Approx(dp).epsilon(1e-12));
  double sum = 0;
  for (int r = 0; r < m.nrack; ++r) {
    // at the rack's own tap (the header drops between taps: flow_distribution_test.cpp)
    double k = m.rack_valve[r].k + m.rack_manifold[r].k;
    CHECK(s.m_rack[r] == Approx(std::sqrt(s.dp_rack[r] / k)).epsilon(1e-3));  // reg. < 0.01 %
    sum += s.m_rack[r];
  }
  CHECK(sum == Approx(s.m_sec[0]).epsilon(1e-12));
  // and the pump meets the loop: head = bank dp + series losses at the operating point
  const Fluid& f = m.fluids[m.cdu_fluid[0]];
  double mf = s.m_sec[0], mu = f.mu(st.y[m.stateAdr(0, kTRes)]);
  double series = m.cdu_hex_sec_dp[0].dp(mf) + m.cdu_pipe_sup[0].dp(mf, f.rho_ref(), mu) +
                  m.cdu_pipe_ret[0].dp(mf, f.rho_ref(), mu);
  double head =
      pumpHead(m.cdu_pump[0], m.cdu_pump_running[0], st.y[m.stateAdr(0, kNPump)], mf / f.rho_ref());
  CHECK(head == Approx(dp + series).epsilon(1e-10));
  CHECK(s.dp_pump[0] == Approx(head).epsilon(1e-10));
}

TEST_CASE("XDU1350 rated point at rated flows", "[system]") {
  // the compiled CDU passes 1368 kW at a 4 K approach with 20.6 kg/s on both sides, 28 degC in
  FacilityModel m = compileText(podYaml("100 kW"));
  const Fluid& fs = m.fluids[m.cdu_fluid[0]];
  const Fluid& fp = m.fluids[m.fws_fluid];
  const double m_r = 20.6, T_cold = 273.15 + 28;
  double UA = hexUA(m.cdu_hex[0], m_r, m_r);
  // hot inlet such that the hot outlet sits 4 K above the cold inlet: solve by bisection
  double lo = T_cold + 4, hi = T_cold + 60;
  for (int i = 0; i < 200; ++i) {
    double T_hot = 0.5 * (lo + hi);
    double Q = hexHeatFlow(UA, m_r * fs.cp(T_hot), m_r * fp.cp(T_cold), T_hot, T_cold);
    double T_out = fs.T_of_h(fs.h(T_hot) - Q / m_r);
    (T_out - T_cold > 4.0 ? hi : lo) = T_hot;
  }
  double T_hot = 0.5 * (lo + hi);
  double Q = hexHeatFlow(UA, m_r * fs.cp(T_hot), m_r * fp.cp(T_cold), T_hot, T_cold);
  CHECK(Q == Approx(1368e3).epsilon(1e-6));  // datasheet rating [K45]
}

TEST_CASE("cold plate R against the OCP table", "[system]") {
  FacilitySpec spec = loadFacilityFromString(podYaml("100 kW"), "test.yaml");
  const ColdPlateSpec& cp = spec.coldplates.at("ocp_1kw_oam");
  for (const char* fluid : {"pg25", "water"}) {
    const auto& law = cp.laws.at(fluid);
    ColdPlateLaw l = coldPlateFit(law.R_inf, law.a, law.b);
    REQUIRE(law.table_flow.size() >= 4);
    for (std::size_t i = 0; i < law.table_flow.size(); ++i) {
      INFO(fluid << " at " << law.table_flow[i] * 60000 << " L/min");
      CHECK(std::abs(l.R(law.table_flow[i]) / law.table_R[i] - 1.0) < 0.03);  // OCP [K39, K40]
    }
  }
}

TEST_CASE("facility-water step reaches the racks with the loop delay", "[system]") {
  // a 3 K facility-water step at 1 h: it passes the HX at once and reaches the rack inlets one
  // supply-header transit later (plug flow V/V_flow), damped by the supply-temperature control
  FacilityModel m =
      compileText(podYaml("100 kW", "", "", "{steps: [[0 s, 30 degC], [1 h, 33 degC]]}"));
  m.options.output_interval = 1;
  Recorder rec;
  REQUIRE(run(m, rec, 3600 + 900).ok);
  const int hs = m.stateAdr(0, kTHexSec), rin = m.supSegAdr(0) + m.cdu_nseg_sup[0] - 1;
  std::size_t i0 = 3600;
  double base_hs = rec.y[i0][hs], base_in = rec.y[i0][rin];
  double peak_hs = 0, peak_in = 0;
  std::size_t i_peak_hs = i0, i_peak_in = i0;
  for (std::size_t i = i0; i < rec.t.size(); ++i) {
    if (rec.y[i][hs] - base_hs > peak_hs) peak_hs = rec.y[i][hs] - base_hs, i_peak_hs = i;
    if (rec.y[i][rin] - base_in > peak_in) peak_in = rec.y[i][rin] - base_in, i_peak_in = i;
  }
  // the step is damped: the controlled supply rises by well under the 3 K of the facility water
  CHECK(peak_hs > 0.1);
  CHECK(peak_hs < 3.0);
  CHECK(peak_in <= peak_hs + 1e-6);
  // lag between the CDU outlet and the rack inlets: the header transit time
  double V_pipe = m.cdu_pipe_sup[0].area() * m.cdu_pipe_sup[0].length;
  double tau = V_pipe / (rec.sig[i0].m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref());
  auto cross = [&](int idx, double base, double peak) {
    for (std::size_t i = i0; i < rec.t.size(); ++i)
      if (rec.y[i][idx] - base >= 0.5 * peak) return rec.t[i];
    return -1.0;
  };
  double lag = cross(rin, base_in, peak_in) - cross(hs, base_hs, peak_hs);
  INFO("transit " << tau << " s, measured lag " << lag << " s");
  CHECK(lag == Approx(tau).epsilon(0.25));
  CHECK(rec.t[i_peak_in] >= rec.t[i_peak_hs]);
  // and the control brings the supply back to its set point
  CHECK(rec.y.back()[hs] == Approx(273.15 + 36).margin(0.05));
}

TEST_CASE("first-order RC step of the cold-plate case", "[system]") {
  // rack A01 steps 60 -> 120 kW at 1 h; the rack inlet and flow do not change for the first
  // seconds, so T_case - T_in = (Q0 + dQ (1 - exp(-t/tau))) R with tau = C R
  FacilityModel m = compileText(podYaml("60 kW"));
  // only rack A01 steps
  FacilitySpec spec = loadFacilityFromString(podYaml("60 kW"), "test.yaml");
  spec.racks[0].heat_load.kind = TimeSeries::Kind::Steps;
  spec.racks[0].heat_load.t = {0.0, 3600.0};
  spec.racks[0].heat_load.v = {60e3, 120e3};
  m = compileFacility(spec);
  m.options.output_interval = 0.25;
  m.options.rtol = 1e-8;
  Recorder rec;
  REQUIRE(run(m, rec, 3600 + 12).ok);
  const int a = m.rackAdr(0), rin = m.supSegAdr(0) + m.cdu_nseg_sup[0] - 1;
  std::size_t i0 = std::size_t(3600 / 0.25);
  const double R = rec.sig[i0].R_cp[0], C = m.rack_C_case[0], tau = R * C;
  const double Qg0 = m.rack_gpu_frac[0] * 60e3, dQ = m.rack_gpu_frac[0] * 60e3;
  CHECK(tau == Approx(2.0).epsilon(0.15));  // the plate time constant at ~design flow [K25]
  for (std::size_t i = i0 + 1; i < rec.t.size(); ++i) {
    double tt = rec.t[i] - 3600;
    double expect = (Qg0 + dQ * (1 - std::exp(-tt / tau))) * R;
    double got = rec.y[i][a + 1] - rec.y[i][rin];
    INFO("t = " << tt);
    CHECK(got == Approx(expect).epsilon(2e-3));
  }
}

TEST_CASE("a solver failure names the component and keeps the results so far", "[system]") {
  // 50 MW into one rack: the coolant leaves the fluid's range and the step keeps failing
  FacilitySpec spec = loadFacilityFromString(podYaml("100 kW"), "test.yaml");
  spec.racks[2].heat_load.kind = TimeSeries::Kind::Steps;
  spec.racks[2].heat_load.t = {0.0, 600.0};
  spec.racks[2].heat_load.v = {100e3, 9.9e6};
  FacilityModel m = compileFacility(spec);
  Recorder rec;
  RunResult r = run(m, rec, 3600);
  REQUIRE_FALSE(r.ok);
  INFO(r.error);
  CHECK(r.error.find("t = ") != std::string::npos);
  CHECK(r.error.find("A03") != std::string::npos);
  CHECK(r.t_end >= 600);
  CHECK(rec.t.size() >= 10);  // the rows before the failure were delivered
}

TEST_CASE("runs are deterministic", "[system]") {
  FacilityModel m = compileText(podYaml("{steps: [[0 s, 30 kW], [5 min, 120 kW]]}"));
  Recorder a, b;
  REQUIRE(run(m, a, 1200).ok);
  REQUIRE(run(m, b, 1200).ok);
  REQUIRE(a.y.size() == b.y.size());
  for (std::size_t i = 0; i < a.y.size(); ++i) REQUIRE(a.y[i] == b.y[i]);
}

TEST_CASE("a cancelled run stops early and keeps its results", "[system]") {
  // the GUI cancels from another thread; here the sink raises the flag at t = 10 min
  FacilityModel m = compileText(podYaml("120 kW"));
  std::atomic<bool> cancel{false};
  struct Canceller : Recorder {
    std::atomic<bool>* flag = nullptr;
    void sample(const FacilityModel& mm, const State& st, const double* yy, double tt,
                const EnergyTotals& ee) override {
      Recorder::sample(mm, st, yy, tt, ee);
      if (tt >= 600) flag->store(true);
    }
  } rec;
  rec.flag = &cancel;
  State st = makeState(m, m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = 3600;
  ro.cancel = &cancel;
  const std::string h5 = "cancelled_run_test.h5";
  RunResult r;
  {
    Hdf5Sink file(h5);
    FrameFeed feed(m, {&file});
    TeeSink tee({&rec, &feed});
    r = simulate(m, st, ro, &tee);
    feed.end(r);
  }
  CHECK(r.ok);
  CHECK(r.cancelled);
  CHECK(r.t_end == Approx(600).margin(1e-6));
  CHECK(rec.t.back() == Approx(600).margin(1e-6));
  // the results file says so, and keeps the rows up to the cancel
  const ResultsData d = readResults(h5);
  CHECK(d.text_attributes.at("status") == "cancelled");
  CHECK(d.series.at("/time").data.back() == Approx(600).margin(1e-6));
  std::remove(h5.c_str());
}

TEST_CASE("every state has its kind, and the range check skips the cold-plate cases", "[system]") {
  // the hall: 64 CDU loops and a room-air node; describeState names each state independently
  const std::string hall = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/hall_gb300.yaml";
  FacilityModel m = compileFacility(loadFacility(hall));
  REQUIRE(m.ncdu == 64);
  REQUIRE(m.room_state >= 0);
  REQUIRE(int(m.state_kind.size()) == m.nstate);
  auto has = [](const std::string& s, const char* what) { return s.find(what) != s.npos; };
  int ncase = 0;
  for (int i = 0; i < m.nstate; ++i) {
    const std::string d = describeState(m, i);
    INFO("state " << i << ": " << d);
    const StateKind k = m.state_kind[i];
    CHECK(m.isCaseState(i) == has(d, "cold-plate case"));
    CHECK((k == StateKind::FacilityWater) == has(d, "facility-water return"));
    CHECK((k == StateKind::RoomAir) == has(d, "room air"));
    CHECK((k == StateKind::Volume) == (has(d, "coolant lost") || has(d, "air in the loop")));
    CHECK((k == StateKind::Control) ==
          (has(d, "controller") || has(d, "valve position") || has(d, "pump speed")));
    ncase += m.isCaseState(i);
  }
  CHECK(ncase == m.nrack);

  // a case node far above the coolant's table is metal and passes; a coolant node does not
  State st = makeState(m, m.fws_T.eval(0.0));
  std::vector<double> ydot(m.nstate);
  const int r = m.nrack - 1, a = m.rackAdr(r);
  const double hot = m.fluids[m.cdu_fluid[m.rack_cdu[r]]].T_max() + 100.0;
  std::vector<double> y = st.y;
  y[a + 1] = hot;
  CHECK(evalRhs(m, st, 0.0, y.data(), ydot.data()) == 0);
  y[a] = hot;
  CHECK(evalRhs(m, st, 0.0, y.data(), ydot.data()) == 1);
  CHECK(st.sig.range_state == a);
}
