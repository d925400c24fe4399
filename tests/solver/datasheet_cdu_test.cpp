// datasheet_cdu_test.cpp: a CDU configured from its datasheet (rated point, pump curve points,
// valve Kv and rangeability, stroke and rise times with rate-limited actuators, PI gains),
// checked in steady state and after a load step against an independent numerical solution of
// the same lumped system written here (docs/models/cdu.md "Datasheet CDU test").
//
// The reference is the lumped ODE of docs/models/cdu.md and docs/models/actuator.md written out
// again from the datasheet numbers below, with its own hydraulic solve (bisection), valve law,
// eps-NTU and PI/actuator equations, integrated by classical RK4 at 5 ms. It takes from the
// compiled model only the fluids' property functions, the heat exchanger's two film conductances
// (checked here against the rated capacity with the reference's own eps-NTU) and the rack case
// capacity tau / R_design. The headers are 0.2 m of 0.5 m pipe: their friction (< 0.1 Pa) is
// left out of the reference (1e-6 of the pump head).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/interp.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"

using namespace dctwin;

namespace {

constexpr double kC = 273.15, kLmin = 1.0 / 60000.0;

// the datasheet (SI), and the same numbers as a facility file
struct Sheet {
  double Q_rated = 500e3, approach = 3, T_prim_rated = 27 + kC;
  double V_sec_rated = 720 * kLmin, V_prim_rated = 600 * kLmin;
  double dp_hex_prim = 50e3, dp_hex_sec = 60e3, holdup = 0.040;
  double V_pump = 720 * kLmin, H_pump = 2.5e5, eta_hyd = 0.7, eta_mot = 0.9;
  std::vector<double> curve_q{0, 0.5, 1.0, 1.25}, curve_h{1.3, 1.22, 1.0, 0.82};
  double rise = 20, pump_filter = 1.0, N0 = 0.6, N_min = 0.2;
  double Kv = 60, R_valve = 50, leak = 1e-4, stroke = 60, valve_filter = 1.0, y0 = 0.3;
  double tank = 0.040, internal = 0.100;
  double T_set = 32 + kC, V_set = 600 * kLmin;
  double kT = 0.08, TiT = 60, TtT = 30, kP = 0.4, TiP = 10;
  double T_fws = 26 + kC, dp_fws = 150e3;
  double pipe_L = 0.2, pipe_D = 0.5;
  // the lumped rack block
  double lf = 0.95, gf = 0.5, paths = 100, R_inf = 0.02, a = 0.005, b = 1.1;
  double V_design = 600 * kLmin, dp_man = 80e3, n_man = 1.9, V_rack = 0.2, Kv_bal = 150;
  double tau_plate = 2.0;
  double P0 = 250e3, P1 = 450e3, t_step = 1800;
  double T_init = 30 + kC;
};

const char* kFacility = R"(dctwin: 1
name: datasheet_cdu
site: {ambient_temperature: 25 degC}
facility_water: {fluid: water, supply_temperature: 26 degC, differential_pressure: 150 kPa}
coldplates:
  - name: block_plate
    time_constant: 2 s
    pressure_drop: {dp_nominal: 30 kPa, flow_nominal: 6 L/min}
    resistance:
      pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}}
rack_types:
  - name: block
    nominal_power: 500 kW
    liquid_fraction: 0.95
    gpu_heat_fraction: 0.5
    coldplate: block_plate
    coldplate_paths: 100
    design_flow: 600 L/min
    manifold: {dp_nominal: 80 kPa, flow_nominal: 600 L/min, exponent: 1.9}
    coolant_volume: 200 L
    balancing_valve_kv: 150
    max_working_pressure: 6 bar
    supply_temperature_max: 45 degC
cdus:
  - name: cdu1
    fluid: pg25
    heat_exchanger:
      rated_capacity: 500 kW
      rated_approach: 3 K
      rated_primary_supply_temperature: 27 degC
      rated_flow_secondary: 720 L/min
      rated_flow_primary: 600 L/min
      dp_primary: 50 kPa
      dp_secondary: 60 kPa
      holdup_primary: 40 L
      holdup_secondary: 40 L
    pumps:
      count: 2
      running: 1
      rated_flow: 720 L/min
      rated_head: 2.5 bar
      curve: {flow_ratio: [0, 0.5, 1.0, 1.25], head_ratio: [1.3, 1.22, 1.0, 0.82]}
      efficiency_hydraulic: 0.7
      efficiency_motor: 0.9
      rise_time: 20 s
      min_speed: 0.2
      actuator: rate
      filter_time: 1 s
      initial_speed: 0.6
    primary_valve: {kv: 60, rangeability: 50, leakage: 1e-4, stroke_time: 60 s, actuator: rate,
                    filter_time: 1 s, initial_position: 0.3}
    expansion_tank: {volume: 40 L, precharge: 1 bar}
    internal_volume: 100 L
    control:
      supply_temperature: 32 degC
      flow_setpoint: 600 L/min
      temperature_pi: {k: 0.08 1/K, Ti: 60 s, tracking_time: 30 s}
      pump_pi: {k: 0.4, Ti: 10 s}
    limits: {supply_temperature_min: 15 degC, supply_temperature_max: 45 degC,
             secondary_pressure_max: 6 bar, primary_pressure_max: 10 bar}
    piping:
      supply: {length: 0.2 m, diameter: 0.5 m, segments: 1}
      return: {length: 0.2 m, diameter: 0.5 m, segments: 1}
racks:
  - {name: B1, cdu: cdu1, type: block, row: A, index: 1,
     heat_load: {steps: [[0 s, 250 kW], [1800 s, 450 kW]]}}
)";

// counterflow effectiveness (the reference's own)
double effectiveness(double NTU, double Z) {
  if (std::abs(1 - Z) < 1e-9) return NTU / (1 + NTU);
  const double e = std::exp(-NTU * (1 - Z));
  return (1 - e) / (1 - Z * e);
}

// the reference: 11 states
//   0 T_hex_sec  1 T_hex_prim  2 T_res  3 x_T  4 y_valve  5 x_P  6 N  7 T_sup  8 T_cool
//   9 T_case  10 T_ret
//   11 T_sensor (with a lag)  12 flow sensor / set point (with a lag)
using Y = std::array<double, 13>;

struct Reference {
  Sheet s;
  const Fluid& f;   // PG25
  const Fluid& fp;  // water
  double hA_hot, hA_cold, C_case;
  Pchip curve;
  double rho, rho_p, m_sec_r, m_prim_r, M_res, M_hs, M_hp, M_pipe, M_cool;
  double k_hs, ms_hs, k_man, ms_man, k_bal, ms_bal, c_hex_p;
  mutable double m_last = 0, dp_pump = 0, m_p = 0, Q_hex = 0;
  double tau_T = 0, tau_P = 0;  // sensor time constants (0: ideal)

  Reference(const Fluid& f_, const Fluid& fp_, double hA_h, double hA_c, double C)
      : f(f_), fp(fp_), hA_hot(hA_h), hA_cold(hA_c), C_case(C), curve(s.curve_q, s.curve_h) {
    rho = f.rho_ref();
    rho_p = fp.rho_ref();
    m_sec_r = s.V_sec_rated * rho;
    m_prim_r = s.V_prim_rated * rho_p;
    M_res = rho * (s.internal + 0.5 * s.tank);
    M_hs = rho * s.holdup;
    M_hp = rho_p * s.holdup;
    M_pipe = rho * M_PI / 4 * s.pipe_D * s.pipe_D * s.pipe_L;
    M_cool = rho * s.V_rack;
    // pressure-drop laws k m (m^2 + m_s^2)^((n-1)/2), m_s = 1 % of the nominal flow
    k_hs = s.dp_hex_sec / (m_sec_r * m_sec_r);
    ms_hs = 0.01 * m_sec_r;
    const double m_man = s.V_design * rho;
    k_man = s.dp_man / std::pow(m_man, s.n_man);
    ms_man = 0.01 * m_man;
    // balancing valve dp = 1e5 SG (V[m3/h] / Kv)^2
    k_bal = 1e5 * (rho / 1000) * std::pow(3600 / (rho * s.Kv_bal), 2);
    ms_bal = 0.01 * m_man;
    c_hex_p = s.dp_hex_prim / (m_prim_r * m_prim_r);
  }
  static double law(double k, double n, double ms, double m) {
    return k * m * std::pow(m * m + ms * ms, 0.5 * (n - 1));
  }
  double head(double N, double V) const {
    return N <= 0 ? 0.0 : s.H_pump * N * N * curve(V / s.V_pump / N);
  }
  // secondary flow at speed N: head = HX + balancing valve + manifold (bisection)
  double flow(double N) const {
    auto g = [&](double m) {
      return head(N, m / rho) -
             (law(k_hs, 2, ms_hs, m) + law(k_bal, 2, ms_bal, m) + law(k_man, s.n_man, ms_man, m));
    };
    double lo = 0, hi = m_sec_r;
    while (g(hi) > 0) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
      const double mid = 0.5 * (lo + hi);
      (g(mid) > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }
  double valvePhi(double y) const {
    y = std::clamp(y, 0.0, 1.0);
    const double y_lin = 0.02;
    if (y >= y_lin) return std::pow(s.R_valve, y - 1);
    const double phi_lin = std::pow(s.R_valve, y_lin - 1);
    return s.leak + (phi_lin - s.leak) * y / y_lin;
  }
  double UA(double m_h, double m_c) const {
    auto ratio = [](double m, double m0) {
      const double x = m / m0;
      return std::pow((x * x + 1e-4) / (1 + 1e-4), 0.4);
    };
    return 1 / (1 / (hA_hot * ratio(m_h, m_sec_r)) + 1 / (hA_cold * ratio(m_c, m_prim_r)));
  }
  double heatFlow(double m_h, double m_c, double T_h, double T_c) const {
    const double Ch = m_h * f.cp(T_h), Cc = m_c * fp.cp(T_c);
    const double Cmin = std::min(Ch, Cc), Cmax = std::max(Ch, Cc);
    return effectiveness(UA(m_h, m_c) / Cmin, Cmin / Cmax) * Cmin * (T_h - T_c);
  }
  static double rateLimit(double u, double y, double Tf, double T_full) {
    return std::clamp((u - y) / Tf, -1 / T_full, 1 / T_full);
  }
  // the load over the current RK4 step (steps end on the load step: the load of the step's
  // middle holds over every stage, as the solver restarts at the step)
  mutable double t_mid = 0;
  double load(double) const { return t_mid < s.t_step ? s.P0 : s.P1; }

  void rhs(double t, const Y& y, Y& d) const {
    const double N = std::clamp(y[6], 0.0, 1.0);
    const double m = flow(N), V = m / rho;
    dp_pump = head(N, V);
    const double Q_pump = V * dp_pump / s.eta_hyd;
    const double phi = valvePhi(y[4]);
    const double c_valve = 1e5 * (rho_p / 1000) * std::pow(3600 / (rho_p * s.Kv * phi), 2);
    m_p = std::sqrt(s.dp_fws / (c_hex_p + c_valve));
    const double T_hs = y[0], T_hp = y[1], T_res = y[2];
    Q_hex = heatFlow(m, m_p, T_res, s.T_fws);
    d[2] = (m * (f.h(y[10]) - f.h(T_res)) + Q_pump) / (M_res * f.cp(T_res));
    d[0] = (m * (f.h(T_res) - f.h(T_hs)) - Q_hex) / (M_hs * f.cp(T_hs));
    d[1] = (Q_hex - m_p * (fp.h(T_hp) - fp.h(s.T_fws))) / (M_hp * fp.cp(T_hp));
    d[7] = m * (f.h(T_hs) - f.h(y[7])) / (M_pipe * f.cp(y[7]));
    // rack block: plate R(V) per path, case node, coolant node
    const double P = load(t), Q_liq = s.lf * P, Q_gpu = s.gf * P;
    double v = V / s.paths * 60000;
    v = std::sqrt(v * v + 1e-4);
    const double R = (s.R_inf + s.a * std::pow(v, -s.b)) / s.paths;
    const double Q_cp = (y[9] - y[7]) / R;
    d[9] = (Q_gpu - Q_cp) / C_case;
    d[8] = (m * (f.h(y[7]) - f.h(y[8])) + Q_cp + Q_liq - Q_gpu) / (M_cool * f.cp(y[8]));
    d[10] = m * (f.h(y[8]) - f.h(y[10])) / (M_pipe * f.cp(y[10]));
    // supply-temperature PI (direct) -> rate-limited valve; flow PI (reverse) -> pump speed
    // sensors: first-order lags of the supply temperature and of the flow over its set point
    d[11] = tau_T > 0 ? (T_hs - y[11]) / tau_T : 0.0;
    d[12] = tau_P > 0 ? (V / s.V_set - y[12]) / tau_P : 0.0;
    const double T_read = tau_T > 0 ? y[11] : T_hs, V_read = tau_P > 0 ? y[12] * s.V_set : V;
    const double eT = T_read - s.T_set;
    const double uT = s.kT * (eT + y[3] / s.TiT), uTs = std::clamp(uT, 0.0, 1.0);
    d[3] = eT + s.TiT / (s.kT * s.TtT) * (uTs - uT);
    d[4] = rateLimit(uTs, y[4], s.valve_filter, s.stroke);
    const double eP = (s.V_set - V_read) / s.V_set;
    const double uP = s.kP * (eP + y[5] / s.TiP), uPs = std::clamp(uP, s.N_min, 1.0);
    d[5] = eP + (uPs - uP) / s.kP;
    d[6] = rateLimit(uPs, y[6], s.pump_filter, s.rise);
    m_last = m;
  }
  Y initial() const {
    Y y;
    y.fill(s.T_init);
    y[4] = s.y0;
    y[6] = s.N0;
    y[3] = (s.y0 / s.kT - (s.T_init - s.T_set)) * s.TiT;  // bumpless: output y0 at t = 0
    const double V0 = flow(s.N0) / rho;
    y[5] = (s.N0 / s.kP - (s.V_set - V0) / s.V_set) * s.TiP;
    y[12] = V0 / s.V_set;  // the flow sensor starts at the reading; T_sensor at T_init
    return y;
  }
  // classical RK4 from t0 to t1 (t1 - t0 a multiple of dt)
  void advance(Y& y, double t0, double t1, double dt) const {
    const int n = int(std::lround((t1 - t0) / dt));
    Y k1, k2, k3, k4, w;
    for (int i = 0; i < n; ++i) {
      const double t = t0 + i * dt;
      t_mid = t + 0.5 * dt;
      rhs(t, y, k1);
      for (int j = 0; j < 13; ++j) w[j] = y[j] + 0.5 * dt * k1[j];
      rhs(t + 0.5 * dt, w, k2);
      for (int j = 0; j < 13; ++j) w[j] = y[j] + 0.5 * dt * k2[j];
      rhs(t + 0.5 * dt, w, k3);
      for (int j = 0; j < 13; ++j) w[j] = y[j] + dt * k3[j];
      rhs(t + dt, w, k4);
      for (int j = 0; j < 13; ++j) y[j] += dt / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
  }
};

struct Rows : OutputSink {
  std::vector<double> t;
  std::vector<std::vector<double>> y;
  std::vector<double> m_sec;
  void sample(const FacilityModel& m, const State& st, const double* yy, double tt,
              const EnergyTotals&) override {
    t.push_back(tt);
    y.emplace_back(yy, yy + m.nstate);
    m_sec.push_back(st.sig.m_sec[0]);
  }
};

}  // namespace

namespace {

// the datasheet CDU of `text` (sensor time constants tau_T, tau_P as in it) against the reference
void againstReference(const std::string& text, double tau_T, double tau_P) {
  FacilityModel m = compileFacility(loadFacilityFromString(text, "datasheet.yaml"));
  m.options.rtol = 1e-9;
  m.options.atol_T = 1e-7;
  m.options.atol_ctrl = 1e-9;
  m.options.max_step = 2;
  m.options.output_interval = 10;
  const Sheet s;
  const Fluid& f = m.fluids[m.cdu_fluid[0]];
  const Fluid& fp = m.fluids[m.fws_fluid];
  const HexParams& hx = m.cdu_hex[0];
  Reference ref(f, fp, hx.hA_hot_nominal, hx.hA_cold_nominal, m.rack_C_case[0]);
  ref.tau_T = tau_T;
  ref.tau_P = tau_P;
  CHECK((m.cdu_sensT_adr[0] >= 0) == (tau_T > 0));
  CHECK((m.cdu_sensP_adr[0] >= 0) == (tau_P > 0));

  // the sized heat exchanger delivers the rated capacity at the rated point (reference eps-NTU;
  // the rated hot inlet from the enthalpy balance of the rated secondary flow)
  const double T_hot_out = s.T_prim_rated + s.approach;
  const double T_hot_in = f.T_of_h(f.h(T_hot_out) + s.Q_rated / ref.m_sec_r);
  CHECK(ref.heatFlow(ref.m_sec_r, ref.m_prim_r, T_hot_in, s.T_prim_rated) ==
        Approx(s.Q_rated).epsilon(1e-9));
  // the valve's Kv is the datasheet's
  CHECK(m.cdu_valve_kv[0] == Approx(s.Kv));
  CHECK(m.cdu_valve_act[0].kind == ActuatorParams::Kind::Rate);

  State st = makeState(m, s.T_init);
  // initial positions and bumpless integrators as stated
  CHECK(st.y[m.stateAdr(0, kYValve)] == Approx(s.y0));
  CHECK(st.y[m.stateAdr(0, kNPump)] == Approx(s.N0));
  const Y y_ref0 = ref.initial();
  CHECK(st.y[m.stateAdr(0, kXTemp)] == Approx(y_ref0[3]).epsilon(1e-9));
  CHECK(st.y[m.stateAdr(0, kXPump)] == Approx(y_ref0[5]).epsilon(1e-6));
  Rows rows;
  RunOptions ro;
  ro.duration = 3600;
  REQUIRE(simulate(m, st, ro, &rows).ok);

  const int sup = m.supSegAdr(0), rack = m.rackAdr(0), ret = m.retSegAdr(0);
  const int map[11] = {m.stateAdr(0, kTHexSec),
                       m.stateAdr(0, kTHexPrim),
                       m.stateAdr(0, kTRes),
                       m.stateAdr(0, kXTemp),
                       m.stateAdr(0, kYValve),
                       m.stateAdr(0, kXPump),
                       m.stateAdr(0, kNPump),
                       sup,
                       rack,
                       rack + 1,
                       ret};
  Y y = y_ref0;
  double t = 0;
  // worst deviations: temperatures (K), valve and pump positions (1), flow (relative)
  double ss_T = 0, ss_pos = 0, ss_flow = 0, step_T = 0, step_pos = 0, step_flow = 0;
  double start_T = 0;
  for (std::size_t k = 0; k < rows.t.size(); ++k) {
    ref.advance(y, t, rows.t[k], 0.005);
    t = rows.t[k];
    Y d;
    ref.rhs(t, y, d);  // (the reference's flow at this state)
    const auto& ym = rows.y[k];
    double dT = 0;
    for (int j : {0, 1, 2, 7, 8, 9, 10}) {
      if (std::abs(ym[map[j]] - y[j]) > dT && t >= s.t_step && std::getenv("DCTWIN_DEBUG_REF"))
        std::printf("t %g state %d model %.9f ref %.9f\n", t, j, ym[map[j]], y[j]);
      dT = std::max(dT, std::abs(ym[map[j]] - y[j]));
    }
    const double dpos = std::max(std::abs(ym[map[4]] - y[4]), std::abs(ym[map[6]] - y[6]));
    const double dflow = std::abs(rows.m_sec[k] - ref.m_last) / ref.m_last;
    if (t <= 600) start_T = std::max(start_T, dT);
    if (t >= 1200 && t < s.t_step) {  // settled at the first load
      ss_T = std::max(ss_T, dT);
      ss_pos = std::max(ss_pos, dpos);
      ss_flow = std::max(ss_flow, dflow);
    } else if (t >= s.t_step) {
      step_T = std::max(step_T, dT);
      step_pos = std::max(step_pos, dpos);
      step_flow = std::max(step_flow, dflow);
    }
  }
  std::printf(
      "datasheet CDU (sensor lags %g s, %g s) vs reference ODE: start-up max |dT| %.2e K; steady "
      "state max |dT| %.2e K, "
      "|d position| %.2e, flow %.2e; after the load step max |dT| %.2e K, |d position| %.2e, "
      "flow %.2e\n",
      tau_T, tau_P, start_T, ss_T, ss_pos, ss_flow, step_T, step_pos, step_flow);
  // measured: start-up 2.7e-6 K; steady state 1.0e-8 K, 5.7e-8, 4e-13; after the step 2.7e-6 K,
  // 5.7e-8, 5.7e-10 (the solver's rtol 1e-9 against RK4 at 5 ms)
  CHECK(start_T < 1e-4);
  CHECK(ss_T < 1e-6);
  CHECK(ss_pos < 1e-6);
  CHECK(ss_flow < 1e-8);
  CHECK(step_T < 1e-4);
  CHECK(step_pos < 1e-6);
  CHECK(step_flow < 1e-8);
  // and the controllers did their job: supply at its set point before the step and at the end
  const auto at = [&](double tt) {
    for (std::size_t k = 0; k < rows.t.size(); ++k)
      if (std::abs(rows.t[k] - tt) < 1e-6) return k;
    return rows.t.size() - 1;
  };
  CHECK(rows.y[at(1790)][map[0]] == Approx(s.T_set).margin(0.01));
  CHECK(rows.y.back()[map[0]] == Approx(s.T_set).margin(0.01));
  CHECK(rows.m_sec.back() / f.rho_ref() == Approx(s.V_set).epsilon(1e-4));
}

}  // namespace

TEST_CASE("datasheet CDU: steady state and load step against an independent ODE",
          "[system][datasheet]") {
  againstReference(kFacility, 0, 0);
}

TEST_CASE("datasheet CDU with sensor lags: against the independent ODE", "[system][datasheet]") {
  // a 10 s supply-temperature sensor and a 3 s flow meter (sensor_time_constant)
  std::string text = kFacility;
  const std::string pt = "tracking_time: 30 s}", pp = "pump_pi: {k: 0.4, Ti: 10 s}";
  text.replace(text.find(pt), pt.size(), "tracking_time: 30 s, sensor_time_constant: 10 s}");
  text.replace(text.find(pp), pp.size(), "pump_pi: {k: 0.4, Ti: 10 s, sensor_time_constant: 3 s}");
  againstReference(text, 10, 3);
}

TEST_CASE("datasheet CDU: a rate-limited valve strokes at its rate from its initial position",
          "[system][datasheet]") {
  // a far set point keeps the temperature PI saturated at 1 from t = 0: the valve ramps from 0.3 at
  // 1 / 60 s through its 1 s filter: exactly y0 + t / stroke until it is within rate x filter
  // (1/60) of the command, then first order with the filter time
  std::string text = kFacility;
  const std::string from = "supply_temperature: 32 degC";
  text.replace(text.find(from), from.size(), "supply_temperature: 15 degC");
  // ... with the controller starting saturated (its initial output, an integrator state)
  const std::string pi = "tracking_time: 30 s}";
  text.replace(text.find(pi), pi.size(), "tracking_time: 30 s, initial_output: 1}");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "ramp.yaml"));
  m.options.rtol = 1e-9;
  m.options.atol_ctrl = 1e-10;
  m.options.output_interval = 1;
  State st = makeState(m, 30 + kC);
  Rows rows;
  RunOptions ro;
  ro.duration = 60;
  REQUIRE(simulate(m, st, ro, &rows).ok);
  const Sheet s;
  const double t_knee = (1.0 - s.y0 - s.valve_filter / s.stroke) * s.stroke;  // 41 s
  for (std::size_t k = 0; k < rows.t.size(); ++k) {
    const double tt = rows.t[k], yv = rows.y[k][m.stateAdr(0, kYValve)];
    const double exact =
        tt <= t_knee ? s.y0 + tt / s.stroke
                     : 1.0 - s.valve_filter / s.stroke * std::exp(-(tt - t_knee) / s.valve_filter);
    INFO("t = " << tt);
    CHECK(yv == Approx(exact).margin(1e-6));
  }
}

TEST_CASE("a PI's integral part at t = 0: a wound-up start stays saturated until it unwinds",
          "[system][datasheet]") {
  // Modelica Buildings' LimPID starts its integrator at xi_start, wherever the output is [K63]:
  // initial_integral u_i = k xi_start sets x0 = u_i Ti / k. Beyond the upper limit the output is
  // saturated at t = 0, and the back-calculation unwinds x toward the limit with time Tt
  const std::string pi = "tracking_time: 30 s}";
  auto model = [&](const std::string& tail) {
    std::string text = kFacility;
    text.replace(text.find(pi), pi.size(), "tracking_time: 30 s, " + tail + "}");
    FacilityModel m = compileFacility(loadFacilityFromString(text, "wound.yaml"));
    m.options.rtol = 1e-9;
    m.options.atol_ctrl = 1e-10;
    m.options.output_interval = 1;
    return m;
  };
  const FacilityModel m = model("initial_integral: 3");
  REQUIRE(m.cdu_temp_uI0[0] == 3.0);
  State st = makeState(m, 32 + kC);  // at the set point: e0 = 0, so the output is clamp(u_i)
  const PIParams& p = m.cdu_pi_temp[0];
  const double x0 = st.y[m.stateAdr(0, kXTemp)];
  CHECK(p.k * x0 / p.Ti == Approx(3.0).epsilon(1e-12));
  CHECK(piOutput(p, 0.0, x0) == 1.0);
  // the same start from initial_output: 1 is saturated only at the limit, not beyond it
  const FacilityModel m1 = model("initial_output: 1");
  State st1 = makeState(m1, 32 + kC);
  CHECK(p.k * st1.y[m1.stateAdr(0, kXTemp)] / p.Ti == Approx(1.0).epsilon(1e-12));
  // the wound-up integrator keeps the valve command at 1 longer: after 20 s it is still there
  Rows rows, rows1;
  RunOptions ro;
  ro.duration = 20;
  REQUIRE(simulate(m, st, ro, &rows).ok);
  REQUIRE(simulate(m1, st1, ro, &rows1).ok);
  const double x_end = rows.y.back()[m.stateAdr(0, kXTemp)];
  const double x1_end = rows1.y.back()[m1.stateAdr(0, kXTemp)];
  CHECK(p.k * x_end / p.Ti > 1.5);  // unwinding with Tt = 30 s, not yet at the limit
  CHECK(x_end > x1_end);
  // both keys at once: one error naming the second
  CHECK_THROWS_WITH(compileFacility(loadFacilityFromString(
                        [&] {
                          std::string text = kFacility;
                          text.replace(
                              text.find(pi), pi.size(),
                              "tracking_time: 30 s, initial_output: 1, initial_integral: 2}");
                          return text;
                        }(),
                        "both.yaml")),
                    Catch::Contains("not both"));
}

TEST_CASE("set-point events change the CDU's supply temperature and flow set points",
          "[system][datasheet]") {
  FacilitySpec spec = loadFacilityFromString(kFacility, "setpoint.yaml");
  Scenario sc = loadScenarioFromString(R"(duration: 1 h
events:
  - {time: 1200 s, cdu: cdu1, supply_temperature_setpoint: 34 degC}
  - {time: 1200 s, cdu: cdu1, flow_setpoint: 650 L/min}
)",
                                       "s.yaml");
  applyScenario(sc, spec);
  FacilityModel m = compileFacility(spec);
  m.options.output_interval = 60;
  State st = makeState(m, 30 + kC);
  Rows rows;
  RunOptions ro;
  ro.duration = 3600;
  REQUIRE(simulate(m, st, ro, &rows).ok);
  const Fluid& f = m.fluids[m.cdu_fluid[0]];
  std::size_t k1 = 0;
  while (rows.t[k1] < 1140) ++k1;
  CHECK(rows.y[k1][m.stateAdr(0, kTHexSec)] == Approx(32 + kC).margin(0.01));
  CHECK(rows.m_sec[k1] / f.rho_ref() == Approx(600 * kLmin).epsilon(1e-3));
  CHECK(rows.y.back()[m.stateAdr(0, kTHexSec)] == Approx(34 + kC).margin(0.01));
  CHECK(rows.m_sec.back() / f.rho_ref() == Approx(650 * kLmin).epsilon(1e-3));
  bool logged = false;
  for (const auto& e : st.events) logged = logged || e.kind == "setpoint";
  CHECK(logged);
}

namespace {

// `text` with `from` (exactly once) replaced by `to`
std::string patched(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  REQUIRE(text.find(from, pos + 1) == std::string::npos);
  return text.replace(pos, from.size(), to);
}
// 1-based line of the first occurrence of `fragment`
int lineOf(const std::string& text, const std::string& fragment) {
  const auto pos = text.find(fragment);
  REQUIRE(pos != std::string::npos);
  return 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
}
// loading `text` fails with one error at `line` whose text holds `fragment`
void expectOneError(const std::string& text, int line, const std::string& fragment) {
  std::vector<LoadError> errors;
  try {
    loadFacilityFromString(text, "sheet.yaml");
  } catch (const LoadFailure& e) {
    errors = e.errors();
  }
  std::string all;
  for (const auto& e : errors) all += e.format() + "\n";
  INFO(all);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].loc.line == line);
  CHECK(errors[0].format().find("sheet.yaml:" + std::to_string(line)) != std::string::npos);
  CHECK(all.find(fragment) != std::string::npos);
}

const std::string kFit = "pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}}";

}  // namespace

TEST_CASE("datasheet keys: a cold plate from a table is used where the file says so",
          "[loader][datasheet]") {
  const std::string table = "table: {flow_L_min: [1, 2, 4, 8], R_K_W: [0.03, 0.024, 0.021, 0.02]}";
  for (const std::string& law :
       {"pg25: {" + table + "}",
        "pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}, use: table, " + table + "}"}) {
    const FacilityModel m =
        compileFacility(loadFacilityFromString(patched(kFacility, kFit, law), "t.yaml"));
    REQUIRE(!m.rack_coldplate[0].table.empty());
    CHECK(m.rack_coldplate[0].R(2 * kLmin) == Approx(0.024).epsilon(1e-12));
    CHECK(m.rack_coldplate[0].R(8 * kLmin) == Approx(0.020).epsilon(1e-12));
  }
  // a fit and a table without `use`: the fit (the bundled plates keep their results)
  const FacilityModel m = compileFacility(loadFacilityFromString(
      patched(kFacility, kFit, "pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}, " + table + "}"),
      "t.yaml"));
  CHECK(m.rack_coldplate[0].table.empty());
  CHECK(m.rack_coldplate[0].R(1 * kLmin) == Approx(0.025).epsilon(1e-4));
}

TEST_CASE("datasheet keys: bad tables, limits and actuators are file:line errors",
          "[loader][datasheet]") {
  const int plate = lineOf(kFacility, kFit);
  SECTION("resistance rising with flow") {
    expectOneError(patched(kFacility, kFit,
                           "pg25: {table: {flow_L_min: [1, 2, 3], R_K_W: [0.03, 0.02, 0.025]}}"),
                   plate, "must not rise with flow");
  }
  SECTION("too few points") {
    expectOneError(
        patched(kFacility, kFit, "pg25: {table: {flow_L_min: [1], R_K_W: [0.03, 0.02]}}"), plate,
        "at least 2");
  }
  SECTION("negative flows") {
    expectOneError(
        patched(kFacility, kFit, "pg25: {table: {flow_L_min: [-1, 2], R_K_W: [0.03, 0.02]}}"),
        plate, "> 0");
  }
  SECTION("flows not increasing") {
    expectOneError(
        patched(kFacility, kFit, "pg25: {table: {flow_L_min: [2, 1], R_K_W: [0.03, 0.02]}}"), plate,
        "increase strictly");
  }
  SECTION("use: table without a table") {
    expectOneError(
        patched(kFacility, kFit, "pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}, use: table}"),
        plate, "needs a table");
  }
  SECTION("output limits the wrong way round") {
    const std::string pi = "temperature_pi: {k: 0.08 1/K, Ti: 60 s, tracking_time: 30 s}";
    expectOneError(patched(kFacility, pi,
                           "temperature_pi: {k: 0.08 1/K, Ti: 60 s, output_min: 0.6, "
                           "output_max: 0.4}"),
                   lineOf(kFacility, pi), "output_max must be above output_min");
  }
  SECTION("an initial output outside the limits") {
    const std::string pi = "pump_pi: {k: 0.4, Ti: 10 s}";
    expectOneError(patched(kFacility, pi, "pump_pi: {k: 0.4, Ti: 10 s, initial_output: 0.1}"),
                   lineOf(kFacility, pi), "within the output limits");
  }
  SECTION("a valve with neither kv nor dp_nominal") {
    expectOneError(patched(kFacility, "kv: 60, ", ""), lineOf(kFacility, "primary_valve:"),
                   "'dp_nominal' (or 'kv')");
  }
  SECTION("an unknown actuator kind") {
    expectOneError(patched(kFacility, "actuator: rate,", "actuator: fast,"),
                   lineOf(kFacility, "primary_valve:"), "lag");
  }
  SECTION("a fraction outside 0 ... 1") {
    expectOneError(patched(kFacility, "initial_position: 0.3", "initial_position: 1.3"),
                   lineOf(kFacility, "initial_position: 0.3"), "between 0 and 1");
  }
}

TEST_CASE("datasheet keys: a set-point event needs its CDU", "[loader][datasheet]") {
  std::vector<LoadError> errors;
  try {
    loadScenarioFromString("events:\n  - {time: 10 s, supply_temperature_setpoint: 30 degC}\n",
                           "s.yaml");
  } catch (const LoadFailure& e) {
    errors = e.errors();
  }
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].loc.line == 2);
  CHECK(errors[0].format().find("needs 'cdu'") != std::string::npos);
}

TEST_CASE("rack multiplier: a lumped block of N racks runs as N separate racks",
          "[system][datasheet]") {
  // four entries of the block type with 62.5 kW each against one entry with multiplier 4
  const std::string rack_line =
      "  - {name: B1, cdu: cdu1, type: block, row: A, index: 1,\n"
      "     heat_load: {steps: [[0 s, 250 kW], [1800 s, 450 kW]]}}\n";
  std::string four, one;
  for (int i = 1; i <= 4; ++i)
    four += "  - {name: B" + std::to_string(i) +
            ", cdu: cdu1, type: block, row: A, index: " + std::to_string(i) +
            ", heat_load: 62.5 kW}\n";
  one =
      "  - {name: B1, cdu: cdu1, type: block, row: A, index: 1, multiplier: 4, "
      "heat_load: 62.5 kW}\n";
  auto runOf = [&](const std::string& racks, Rows& rows) {
    FacilityModel m =
        compileFacility(loadFacilityFromString(patched(kFacility, rack_line, racks), "n.yaml"));
    m.options.rtol = 1e-9;
    m.options.atol_T = 1e-7;
    m.options.atol_ctrl = 1e-9;
    m.options.output_interval = 300;
    State st = makeState(m, 30 + kC);
    RunOptions ro;
    ro.duration = 1800;
    REQUIRE(simulate(m, st, ro, &rows).ok);
    return m;
  };
  Rows r4, r1;
  const FacilityModel m4 = runOf(four, r4), m1 = runOf(one, r1);
  REQUIRE(m1.nrack == 1);
  CHECK(m1.rack_paths[0] == Approx(400));
  CHECK(m1.rack_M_cool[0] == Approx(4 * m4.rack_M_cool[0]));
  for (std::size_t k = 0; k < r1.t.size(); ++k) {
    INFO("t = " << r1.t[k]);
    for (int off : {int(kTHexSec), int(kTRes), int(kYValve), int(kNPump)})
      CHECK(r1.y[k][m1.stateAdr(0, off)] == Approx(r4.y[k][m4.stateAdr(0, off)]).margin(1e-6));
    // four separate racks tap the row headers 0.6 m apart (docs/models/flow_distribution.md), the
    // block at one tap: the header friction between the taps moves the loop flow by ~3e-7
    CHECK(r1.m_sec[k] == Approx(r4.m_sec[k]).epsilon(2e-6));
    // the block's coolant and case temperatures are those of each of its racks
    CHECK(r1.y[k][m1.rackAdr(0)] == Approx(r4.y[k][m4.rackAdr(3)]).margin(1e-6));
    CHECK(r1.y[k][m1.rackAdr(0) + 1] == Approx(r4.y[k][m4.rackAdr(3) + 1]).margin(1e-6));
  }
  // a non-integer block: 2.5 racks
  const FacilityModel mh = compileFacility(loadFacilityFromString(
      patched(kFacility, rack_line,
              "  - {name: B1, cdu: cdu1, type: block, row: A, index: 1, multiplier: 2.5, "
              "heat_load: 100 kW}\n"),
      "h.yaml"));
  CHECK(mh.rack_paths[0] == Approx(250));
  CHECK(mh.rack_load[0].eval(0) == Approx(250e3));
  CHECK(mh.cdu_design_flow[0] == Approx(2.5 * 600 * kLmin));
}

TEST_CASE("air-cooled switch rack in the room air: outlet and fan power from the balance",
          "[system][datasheet]") {
  std::string text = patched(kFacility, "site: {ambient_temperature: 25 degC}",
                             "site:\n  ambient_temperature: 25 degC\n  room_air: {volume: 2000 m3, "
                             "supply_temperature: 24 degC, airflow: 10 m3/s}");
  text += R"(air_racks:
  - name: SW1
    row: A
    index: 2
    heat_load: {steps: [[0 s, 12 kW], [600 s, 18 kW]]}
    fans: {control: delta_t, rated_airflow: 1.5 m3/s, rated_power: 900 W, delta_t: 12 K}
  - name: ST1
    row: A
    index: 3
    heat_load: 8 kW
    fans: {control: pressure, rated_airflow: 1.0 m3/s, rated_power: 500 W, rated_pressure: 250 Pa,
           pressure_setpoint: 100 Pa}
)";
  FacilityModel m = compileFacility(loadFacilityFromString(text, "air.yaml"));
  REQUIRE(m.nair == 2);
  m.options.output_interval = 60;
  State st = makeState(m, 30 + kC);
  struct Air : OutputSink {
    std::vector<Signals> sig;
    std::vector<double> T_room;
    std::vector<EnergyTotals> e;
    void sample(const FacilityModel& mm, const State& s, const double* yy, double,
                const EnergyTotals& ee) override {
      sig.push_back(s.sig);
      T_room.push_back(yy[mm.room_state]);
      e.push_back(ee);
    }
  } rec;
  RunOptions ro;
  ro.duration = 3600;
  REQUIRE(simulate(m, st, ro, &rec).ok);
  const double rho = kAirRho, cp = kAirCp;
  const Signals& g = rec.sig.back();
  // the switch rack holds its 12 K rise with fan power by the cube of the speed
  CHECK(g.air_T_out[0] - g.air_T_in[0] == Approx(12.0).epsilon(1e-9));
  CHECK(g.air_P_fan[0] == Approx(900 * std::pow(g.air_N[0], 3)).epsilon(1e-12));
  CHECK(rho * cp * g.air_V[0] * (g.air_T_out[0] - g.air_T_in[0]) ==
        Approx(18e3 + g.air_P_fan[0]).epsilon(1e-9));
  // the storage rack's fans hold 100 Pa: fixed airflow and fan power
  CHECK(g.air_V[1] == Approx(std::sqrt(0.4)).epsilon(1e-12));
  CHECK(g.air_P_fan[1] == Approx(500 * std::pow(0.4, 1.5)).epsilon(1e-12));
  CHECK(rho * cp * g.air_V[1] * (g.air_T_out[1] - g.air_T_in[1]) ==
        Approx(8e3 + g.air_P_fan[1]).epsilon(1e-9));
  // both draw the room air, and their heat is in the room's balance
  CHECK(g.air_T_in[0] == Approx(rec.T_room.back()));
  double rack_air = 0;
  for (int r = 0; r < m.nrack; ++r) rack_air += g.Q_air[r];
  CHECK(g.air_in == Approx(rack_air + 18e3 + g.air_P_fan[0] + 8e3 + g.air_P_fan[1]));
  // steady room: the air handlers remove it all
  CHECK(g.air_removed == Approx(g.air_in).epsilon(1e-4));
  const EnergyTotals& e = rec.e.back();
  CHECK(std::abs(e.air_in - e.air_removed - e.air_stored) < 1e-4 * e.air_in);
  CHECK(e.air_stored == Approx(rho * 2000 * cp * (rec.T_room.back() - 24 - kC)).epsilon(1e-9));
}
