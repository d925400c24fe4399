// system.cpp: the facility's right-hand side
//
// evalRhs runs, per CDU loop (cduRhs: the steps of CduLoopRhs), in order:
//   1. hydraulics   primary flow from the valve; secondary flows from the pump curve, the series
//                   resistances and the parallel rack branches (one Newton on the row with
//                   direct return, else nested monotone solves; docs/models/flow_distribution.md)
//   2. thermal      reservoir, plate HX (eps-NTU), supply header, racks, return header
//   3. controls     supply-temperature PI -> valve, flow/dp PI -> pump speed, actuator lags
// and sums the energy flows that the integrator accumulates (its energy integrals).
#include <algorithm>
#include <cmath>
#include <limits>

#include "models/manifold.h"
#include "models/pipe.h"
#include "models/valve.h"
#include "solver/common/parallel.h"
#include "solver/engine/engine.h"

namespace dctwin {

namespace {

// flow m >= 0 through a branch (balancing valve + rack manifold in series) at pressure drop dp;
// safeguarded Newton on the strictly increasing g(m) = dp_valve(m) + dp_manifold(m)
// x0 > 0: start there (the branch's last flow: the solution moves little between calls);
// else a quadratic law through the manifold's nominal point
double branchFlow(const PowerLaw& valve, const PowerLaw& man, double dp, double x0, double* dgdm,
                  bool* ok) {
  if (dp <= 0) {
    *dgdm = valve.ddp_dm(0) + man.ddp_dm(0);
    return 0.0;
  }
  // g(x) - dp and g'(x), g = dp_valve + dp_manifold
  auto residual = [&](double x, double* d) {
    double dv, dm;
    const double g = valve.dpSlope(x, &dv) + man.dpSlope(x, &dm);
    *d = dv + dm;
    return g - dp;
  };
  double x = x0;
  if (!(x0 > 0)) {
    const double m_nom = 100.0 * man.m_small;  // (m_small = 1 % of nominal)
    x = std::sqrt(dp / (valve.k + man.dp(m_nom) / (m_nom * m_nom)));
  }
  // safeguarded Newton: [lo, hi] brackets the root once a residual of each sign was seen
  double lo = 0.0, hi = std::numeric_limits<double>::infinity();
  for (int it = 0; it < 200; ++it) {
    double d;
    const double r = residual(x, &d);
    if (r > 0)
      hi = std::min(hi, x);
    else
      lo = std::max(lo, x);
    // converged: the residual is at its round-off level (1e-13 of dp), or the step or bracket is
    // (without this the last ulps are chased by bisection for another 5-10 iterations)
    if (std::abs(r) <= 1e-13 * dp) {
      *dgdm = d;
      return x;
    }
    double xn = x - r / d;
    if (!(xn > lo && xn < hi)) xn = std::isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * x;
    const double step = std::abs(xn - x);
    x = xn;
    if (step <= 1e-15 * x || (std::isfinite(hi) && hi - lo <= 1e-15 * hi)) {
      residual(x, dgdm);
      return x;
    }
  }
  *ok = false;
  residual(x, dgdm);
  return x;
}

constexpr double kPatm = 101325.0, kRhoAir = 1.2;  // (Pa), (kg/m3)
constexpr double kAlphaRef = 0.03;  // air share of the loop that halves the pump head (a)

}  // namespace

// closing fraction of rack r's isolation valves at t (0 open, 1 shut)
double rackIsolation(const FacilityModel& m, const State& st, int r, double t) {
  if (st.faults.rack_isolation.empty() || st.faults.rack_isolation[r] < 0) return 0.0;
  return std::clamp((t - st.faults.rack_isolation[r]) / m.detection.isolation_valve_stroke, 0.0,
                    1.0);
}

// tank (pump suction) gauge pressure after losing V_lost of liquid: isothermal gas cushion
// p_abs V_gas = const from the fill state. Once the tank is drained the loop is a stiff closed
// volume: the pressure collapses with the loop's effective bulk modulus (K_eff below) down to the
// coolant's vapour pressure, and the lost liquid leaves a void (docs/models/leak.md)
double tankPressure(const FacilityModel& m, int c, double V_lost, bool* drained) {
  constexpr double K_eff = 1e9;  // liquid + pipe compliance (a)                       (Pa)
  constexpr double p_vap = 5e3;  // vapour pressure of water/PG25 near 35 degC         (Pa)
  if (drained) *drained = false;
  if (m.cdu_vacuum[c] < 0) return m.cdu_vacuum[c];
  const double V_tank = m.cdu_V_tank[c];
  if (V_tank <= 0) return m.cdu_p_fill[c];
  const double pre = m.cdu_p_pre[c] + kPatm, fill = m.cdu_p_fill[c] + kPatm;
  const double V_liquid0 = V_tank * (1.0 - pre / fill);  // liquid in the tank at the fill
  const double V = std::max(V_lost, 0.0);
  if (V < V_liquid0) return pre * V_tank / (V_tank - V_liquid0 + V) - kPatm;
  if (drained) *drained = true;
  return std::max(m.cdu_p_pre[c] - K_eff * (V - V_liquid0) / m.cdu_V_loop[c], p_vap - kPatm);
}

// liquid left in the expansion tank as a share of its volume (< 0 once drained); 0 without a tank
// or on a negative-pressure loop
double tankLiquidFraction(const FacilityModel& m, int c, double V_lost) {
  if (m.cdu_vacuum[c] < 0 || m.cdu_V_tank[c] <= 0) return 0.0;
  const double pre = m.cdu_p_pre[c] + kPatm, fill = m.cdu_p_fill[c] + kPatm;
  return 1.0 - pre / fill - V_lost / m.cdu_V_tank[c];
}

// pump head left with air in the loop (void fraction alpha = V_air / V_loop) (a)
double pumpHeadFactor(const FacilityModel& m, int c, double V_air) {
  const double a = std::max(V_air, 0.0) / m.cdu_V_loop[c] / kAlphaRef;
  return 1.0 / (1.0 + a * a * a * a);
}

// orifice flow C_d A sqrt(2 |dp| / rho), regularized below 100 Pa so that it stays smooth
double orificeFlow(double CdA, double dp, double rho) {
  constexpr double dp_s = 100.0;
  return CdA * std::sqrt(2.0 / rho) * std::abs(dp) / std::pow(dp * dp + dp_s * dp_s, 0.25);
}

namespace {

// secondary loop operating point of CDU c: fills sig.m_rack, sig.m_sec, sig.dp_bank, sig.dp_pump
void solveSecondary(const FacilityModel& m, const State& st, Signals& sig, int c, int nrun,
                    double N, double T_ref, double phi, double k_filter, double t, double p_tank,
                    long* failures) {
  const Fluid& f = m.fluids[m.cdu_fluid[c]];
  const double rho = f.rho_ref(), mu = f.mu(T_ref);
  const PumpParams& pp = m.cdu_pump[c];
  const int r0 = m.cdu_rackadr[c], nr = m.cdu_racknum[c];
  const double H0 = phi * pumpHead(pp, nrun, N, 0.0);
  if (nr == 0 || (H0 <= 0 && !(m.cdu_presc_m_sec[c] > 0))) {
    for (int k = 0; k < nr; ++k) sig.m_rack[r0 + k] = sig.dp_rack[r0 + k] = 0;
    sig.m_sec[c] = sig.dp_bank[c] = sig.dp_pump[c] = sig.m_relief[c] = 0;
    return;
  }
  auto series = [&](double mf) {
    return m.cdu_hex_sec_dp[c].dp(mf) + m.cdu_pipe_sup[c].dp(mf, rho, mu) +
           m.cdu_pipe_ret[c].dp(mf, rho, mu) + k_filter * mf * mf;
  };
  auto seriesSlope = [&](double mf) {
    return m.cdu_hex_sec_dp[c].ddp_dm(mf) + m.cdu_pipe_sup[c].ddp_dm(mf, rho, mu) +
           m.cdu_pipe_ret[c].ddp_dm(mf, rho, mu) + 2.0 * k_filter * mf;
  };
  bool ok = true;
  // the row (docs/models/flow_distribution.md): the racks tap the supply and return headers in
  // model order, one header segment between two taps; each rack a branch of balancing valve and
  // rack manifold (its isolation valves closing over their stroke: Kv (1 - s))
  auto branch = [&](int k, double dp, double* dq) {
    const int r = r0 + k;
    const double s_iso = rackIsolation(m, st, r, t);
    PowerLaw valve = m.rack_valve[r];
    if (s_iso > 0) valve.k /= std::pow(std::max(1.0 - s_iso, 1e-4), 2);
    double d;
    const double q = branchFlow(valve, m.rack_manifold[r], dp, sig.m_rack[r], &d, &ok);
    *dq = 1.0 / d;
    return q;
  };
  const PipeFriction &tap_s = m.cdu_tap_sup[c], &tap_r = m.cdu_tap_ret[c];
  auto sup = [&](int, double mf, double* d) { return tap_s.dpSlope(mf, rho, mu, d); };
  auto ret = [&](int, double mf, double* d) { return tap_r.dpSlope(mf, rho, mu, d); };
  const Arrangement arr = m.cdu_reverse_return[c] ? Arrangement::Z : Arrangement::U;
  double* q = sig.m_rack.data() + r0;
  double* dpr = sig.dp_rack.data() + r0;
  auto row = [&](double Qm) {
    LadderPoint p = ladderAtFlow(arr, nr, Qm, branch, sup, ret, q, dpr);
    if (!p.ok) ok = false;
    return p;
  };
  // a prescribed secondary flow (an ideal flow source, docs/models/cdu.md): the row at that flow
  if (m.cdu_presc_m_sec[c] > 0) {
    const double Qp = m.cdu_presc_m_sec[c];
    LadderPoint lp = row(Qp);
    sig.m_sec[c] = Qp;
    sig.dp_bank[c] = lp.dp;
    sig.dp_pump[c] = lp.dp + series(Qp);
    if (!ok) ++*failures;
    return;
  }
  // the relief valve (docs/models/protection.md "Relief valve"): from the pump discharge back to
  // its suction, opening linearly at its set point p_set to its capacity at 1.1 p_set:
  // m_rv = G (p_tank + H - p_set)+, so the pump passes Qp = Q_row + m_rv
  const double p_set = m.cdu_p_max[c], cap = m.detection.protection.relief_capacity;
  const double G_rv =
      p_set > 0 && cap > 0 ? cap * m.cdu_design_flow[c] * rho / (0.1 * p_set) : 0.0;  // kg/s/Pa
  double m_rv = 0.0;
  // residual r(Qp) = H(N, Qp) - dp_row(Q) - dp_series(Q), Q = Qp - m_rv(H(Qp)) (Q = Qp without
  // relief), strictly decreasing in the pump flow Qp; safeguarded Newton from the last operating
  // point (the solution moves little between calls)
  double lo = 0.0, hi = std::numeric_limits<double>::infinity();
  // (the last operating point moved with the pump speed as the affinity laws move it, Q ~ N)
  double Qp = sig.m_sec[c] > 0 ? sig.m_sec[c] + sig.m_relief[c]
                               : std::max(m.cdu_design_flow[c] * rho * N, 1e-3);
  const double speed_ratio =
      sig.m_sec[c] > 0 && sig.N_solved[c] > 0 && N > 0 ? N / sig.N_solved[c] : 1.0;
  Qp *= speed_ratio;
  sig.N_solved[c] = N;
  // the operating point from the last march's flows (mass balance at every tap holds by
  // construction) and the row's drop
  auto store = [&](double m_relief, double dp_row) {
    double Qs = 0;
    for (int k = 0; k < nr; ++k) Qs += q[k];
    sig.m_relief[c] = m_relief;
    sig.m_sec[c] = Qs;
    sig.dp_bank[c] = dp_row;
    sig.dp_pump[c] = dp_row + series(Qs);
  };
  // direct return (U) without the relief valve open: one Newton on the far rack's drop x alone.
  // A march from x gives the row's flow Q = S(x) (mass balance exact) and its drop dp_0(x), so
  // the residual r(x) = H(Q) - dp_0(x) - dp_series(Q) decreases in x and each iteration is one
  // march (the nested solve below takes ~5: a ladder solve per pump-flow iterate). Started from
  // the last solution's x moved with the pump speed (dp ~ N^2); whatever leaves this path's
  // assumptions (a step to x <= 0, a slope of the wrong sign, the relief valve opening, a branch
  // that does not converge, 8 iterations) falls back to the nested solve
  if (arr == Arrangement::U && dpr[nr - 1] > 0 && std::isfinite(dpr[nr - 1])) {
    double x = dpr[nr - 1] * speed_ratio * speed_ratio;
    for (int it = 0; it < 8 && ok; ++it) {
      double dS = 0, dT = 0;
      const double Qx = detail::marchU(nr, x, branch, sup, ret, q, dpr, &dS, &dT);
      const double V = Qx / rho;
      const double H = phi * pumpHead(pp, nrun, N, V);
      if (!ok || (G_rv > 0 && p_tank + H - p_set > 0)) break;  // (the relief valve opens)
      const double r = H - dpr[0] - series(Qx);
      if (std::abs(r) <= 1e-11 * H0) {
        store(0.0, dpr[0]);
        return;
      }
      const double dr = (phi * pumpHeadSlope(pp, nrun, N, V) / rho - seriesSlope(Qx)) * dS - dT;
      const double xn = dr < 0 ? x - r / dr : -1.0;
      if (!(xn > 0) || !std::isfinite(xn)) break;
      x = xn;
    }
    ok = true;  // (the nested solve starts over)
  }
  double Q = Qp;
  LadderPoint p;
  for (int it = 0; it < 100; ++it) {
    const double V = Qp / rho;
    const double H = phi * pumpHead(pp, nrun, N, V);
    const double x = p_tank + H - p_set;
    m_rv = G_rv > 0 && x > 0 ? std::min(G_rv * x, Qp) : 0.0;
    Q = Qp - m_rv;
    p = row(Q);
    const double r = H - p.dp - series(Q);
    // converged: 1e-11 of the head is what the row's flows carry (ladderAtFlow solves them to
    // 1e-12 of the flow, and the row's drop goes as its square); asking less of the residual
    // chases the ladder's own error through more Newton steps
    if (std::abs(r) <= 1e-11 * H0) break;
    if (r > 0)
      lo = Qp;
    else
      hi = Qp;
    const double dH = phi * pumpHeadSlope(pp, nrun, N, V) / rho;
    // dQ/dQp = 1 - G dH/dQp while the relief passes flow (dH < 0: > 1)
    const double dQ = m_rv > 0 && m_rv < Qp ? 1.0 - G_rv * dH : 1.0;
    const double dr =
        m_rv > 0 ? dH - (seriesSlope(Q) + p.ddp_dQ) * dQ : dH - seriesSlope(Q) - p.ddp_dQ;
    double Qn = dr < 0 ? Qp - r / dr : std::numeric_limits<double>::quiet_NaN();
    if (!(Qn > lo && Qn < hi)) Qn = std::isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * Qp;
    const double step = std::abs(Qn - Qp);
    Qp = Qn;
    if (step <= 1e-15 * Qp || (std::isfinite(hi) && hi - lo <= 1e-15 * hi)) {
      const double x_n = p_tank + phi * pumpHead(pp, nrun, N, Qp / rho) - p_set;
      m_rv = G_rv > 0 && x_n > 0 ? std::min(G_rv * x_n, Qp) : 0.0;
      p = row(Qp - m_rv);
      break;
    }
    if (it == 99) ok = false;
  }
  store(m_rv, p.dp);
  if (!ok) ++*failures;
}

}  // namespace

//---------------------------------------------------------------------------------------------
State makeState(const FacilityModel& m, double T_init) {
  State st;
  st.y.assign(m.nstate, T_init);
  if (m.room_state >= 0) st.y[m.room_state] = m.room_T0;
  if (m.ah_state >= 0) st.y[m.ah_state] = 0.0;  // integral 0: the fans start at min speed [P1]
  st.scratch.assign(m.nstate, 0.0);
  st.cdu_part.assign(m.ncdu, CduRhsPart{});
  initGpuLayer(m, st, T_init);
  initPowerLayer(m, st);
  initPlantLayer(m, st);
  st.fscratch.assign(m.nstate, 0.0);
  Signals& s = st.sig;
  for (auto* v : {&s.m_sec, &s.m_prim, &s.dp_pump, &s.dp_bank, &s.P_pump, &s.Q_pump_fluid, &s.Q_hex,
                  &s.T_fws, &s.N_cmd, &s.y_cmd, &s.Q_loss, &s.m_relief, &s.N_solved})
    v->assign(m.ncdu, 0.0);
  s.p_tank.assign(m.ncdu, 0.0);
  s.filter_dp.assign(m.ncdu, 0.0);
  s.head_factor.assign(m.ncdu, 1.0);
  for (auto* v : {&s.leak_flow, &s.leak_air, &s.leak_p}) v->assign(m.leaks.size(), 0.0);
  for (auto* v : {&s.m_rack, &s.dp_rack, &s.P_rack, &s.Q_liquid, &s.Q_air, &s.Q_cp, &s.R_cp})
    v->assign(m.nrack, 0.0);
  for (auto* v : {&s.air_P, &s.air_P_fan, &s.air_V, &s.air_N, &s.air_T_in, &s.air_T_out})
    v->assign(m.nair, 0.0);
  for (auto* v : {&s.sw_P, &s.sw_P_optics, &s.sw_Q_liquid, &s.sw_Q_air}) v->assign(m.nsw, 0.0);
  s.cdu_Q_switch.assign(m.ncdu, 0.0);
  for (int c = 0; c < m.ncdu; ++c) {
    // valve and pump where the facility puts them (primary_valve.initial_position,
    // pumps.initial_speed; half open, half speed by default); integrators set so the PI outputs
    // are their initial_output at the initial error (bumpless by default)
    const double y0 = m.cdu_valve_y0[c], N0 = m.cdu_pump_N0[c];
    st.y[m.stateAdr(c, kYValve)] = y0;
    st.y[m.stateAdr(c, kNPump)] = N0;
    st.y[m.stateAdr(c, kVLost)] = st.y[m.stateAdr(c, kVAir)] = 0.0;
    st.y[m.stateAdr(c, kXTemp)] = std::isnan(m.cdu_temp_uI0[c])
                                      ? piStateFor(m.cdu_pi_temp[c], m.cdu_temp_u0[c],
                                                   m.cdu_temp_sign[c] * (T_init - m.cdu_T_set[c]))
                                      : piStateForIntegral(m.cdu_pi_temp[c], m.cdu_temp_uI0[c]);
  }
  // pump integrators: bumpless for the actual initial flow (or dp) error
  std::vector<double> ydot(m.nstate);
  for (int c = 0; c < m.ncdu; ++c)
    st.y[m.stateAdr(c, kXPump)] = std::isnan(m.cdu_pump_uI0[c])
                                      ? piStateFor(m.cdu_pi_pump[c], m.cdu_pump_u0[c], 0.0)
                                      : piStateForIntegral(m.cdu_pi_pump[c], m.cdu_pump_uI0[c]);
  evalRhs(m, st, 0.0, st.y.data(), ydot.data());
  for (int c = 0; c < m.ncdu; ++c) {
    const double V = st.sig.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    // a lagged pump sensor starts at the actual reading (the temperature sensor at T_init)
    if (const int s = m.cdu_sensP_adr[c]; s >= 0)
      st.y[s] =
          m.cdu_pump_mode[c] == 0 ? V / m.cdu_flow_set[c] : st.sig.dp_bank[c] / m.cdu_dp_set[c];
    const double e =
        -m.cdu_pump_sign[c] * (m.cdu_pump_mode[c] == 0
                                   ? (m.cdu_flow_set[c] - V) / m.cdu_flow_set[c]
                                   : (m.cdu_dp_set[c] - st.sig.dp_bank[c]) / m.cdu_dp_set[c]);
    if (std::isnan(m.cdu_pump_uI0[c]))
      st.y[m.stateAdr(c, kXPump)] = piStateFor(m.cdu_pi_pump[c], m.cdu_pump_u0[c], e);
  }
  st.sig.hydraulic_failures = 0;
  st.y0 = st.y;
  return st;
}

//---------------------------------------------------------------------------------------------
namespace {

// CDU loop c's right-hand side: what its steps share. A stack object made per call, holding
// references and scalars only (the right-hand side never allocates); each step writes only loop
// c's slots of ydot and of the signals (loops may run in parallel) and its share of the sums in
// `part`. The steps run in the order of cduRhs.
struct CduLoopRhs {
  const FacilityModel& m;
  const State& st;
  Signals& sig;
  const FaultState& fs;
  const int c;
  const double t, T_fws;
  const double* y;
  double* ydot;
  CduRhsPart& part;
  const Fluid& f;      // secondary coolant
  const Fluid& fp;     // facility water
  const double rho;    // secondary reference density                            (kg/m3)
  const int o;         // first state of the loop
  const bool faulted;  // the run has faults: the per-CDU fault arrays are sized
  // set by the steps, in order
  double m_sec = 0, V_sec = 0;  // secondary flow                            (kg/s), (m3/s)
  double m_p = 0;               // primary (facility-water) flow                     (kg/s)
  double q_fws = 0;             // heat to the facility water                          (W)
  double loss = 0;              // header heat to ambient                              (W)
  double mix = 0;  // sum of m_r (h_r - h_ret0): enthalpy the racks bring to the return header
  double heat_racks = 0;  // liquid-side heat of the racks                              (W)

  CduLoopRhs(const FacilityModel& m_, State& st_, int c_, double t_, double T_fws_,
             const double* y_, double* ydot_, CduRhsPart& part_)
      : m(m_),
        st(st_),
        sig(st_.sig),
        fs(st_.faults),
        c(c_),
        t(t_),
        T_fws(T_fws_),
        y(y_),
        ydot(ydot_),
        part(part_),
        f(m_.fluids[m_.cdu_fluid[c_]]),
        fp(m_.fluids[m_.fws_fluid]),
        rho(f.rho_ref()),
        o(m_.cdu_stateadr[c_]),
        faulted(!st_.faults.pumps_out.empty()) {}

  // coolant temperatures far outside the fluid's table (frozen, boiling): ask for a smaller
  // step, and remember the worst offender for the failure message. Cold-plate case nodes are
  // metal and are not checked against the coolant's range.
  void checkFluidRange() {
    double& worst_excess = part.worst_excess;
    for (int i = o; i < o + m.cdu_statenum[c]; ++i) {
      const StateKind kind = m.state_kind[i];
      if (kind != StateKind::Coolant && kind != StateKind::FacilityWater) continue;
      const Fluid& fl = kind == StateKind::FacilityWater ? fp : f;
      double excess = std::max(fl.T_min() - 20.0 - y[i], y[i] - fl.T_max() - 20.0);
      if (!(excess <= worst_excess)) {  // also catches NaN
        part.status = 1;
        worst_excess = std::isnan(excess) ? 1e300 : excess;
        part.range_state = i;
        part.range_value = y[i];
      }
    }
  }

  // 1a. secondary operating point from the pump curve (failed pumps out of the bank, head
  // derated by air in the loop), the series losses (a clogging strainer among them) and the
  // parallel rack branches; the pumps' power and their heat to the coolant
  void secondaryFlow() {
    const double N = std::clamp(y[o + kNPump], 0.0, 1.0);
    // pumps off the UPS stop while neither utility nor generator feeds the facility, or while
    // their drives are tripped after a sag (docs/models/ride_through.md)
    const bool unfed = m.has_power && ((!m.power.cdu_pumps_on_ups && !facilityFed(st)) ||
                                       drivesTripped(m, st, false));
    int nrun = unfed ? 0 : m.cdu_pump_running[c] - (faulted ? fs.pumps_out[c] : 0);
    double N_eff = N;
    bool coasting = false;
    // the last pumps that stopped coast down on their rotors' inertia (a failure, the level switch)
    const double tau = m.detection.pump_coast_down;
    if (nrun == 0 && faulted && !unfed && tau > 0 && fs.coast_t0[c] >= 0 &&
        t - fs.coast_t0[c] < 20 * tau) {
      nrun = fs.coast_n[c];
      coasting = true;
      N_eff = N * std::exp(-(std::max(t - fs.coast_t0[c], 0.0)) / tau);
    }
    const double V_air = y[o + kVAir];
    const double phi = m.cdu_vacuum[c] < 0 ? 1.0 : pumpHeadFactor(m, c, V_air);
    sig.head_factor[c] = phi;
    // the strainer (docs/models/filter.md): dp = k m^2 through its rated point (the racks'
    // design flow unless stated); a clogging event moves its dp there linearly to the event's
    double dp_filter = m.cdu_filter_dp0[c];
    if (faulted && fs.filter_dp[c] > 0) {
      const double grow = fs.filter_time[c] > 0
                              ? std::clamp((t - fs.filter_t0[c]) / fs.filter_time[c], 0.0, 1.0)
                              : 1.0;
      dp_filter += grow * (fs.filter_dp[c] - dp_filter);
    }
    const double m_filter = m.cdu_filter_V_rated[c] * rho;
    const double k_filter = dp_filter > 0 ? dp_filter / (m_filter * m_filter) : 0.0;
    solveSecondary(m, st, sig, c, nrun, N_eff, y[o + kTRes], phi, k_filter, t,
                   tankPressure(m, c, y[o + kVLost]), &part.hydraulic_failures);
    m_sec = sig.m_sec[c];
    V_sec = m_sec / rho;
    const PumpParams& pp = m.cdu_pump[c];
    // the pumps pass the loop's flow and the relief valve's
    const double V_pump = sig.m_relief[c] > 0 ? (m_sec + sig.m_relief[c]) / rho : V_sec;
    // a coasting pump draws no power; its rotor's kinetic energy (a few kJ) is not tracked (a)
    sig.P_pump[c] = coasting ? 0.0 : pumpPowerElectric(pp, V_pump, sig.dp_pump[c]);
    sig.Q_pump_fluid[c] =
        coasting || !m.cdu_pump_heat[c] ? 0.0 : pumpHeatToFluid(pp, V_pump, sig.dp_pump[c]);
    sig.filter_dp[c] = k_filter * m_sec * m_sec;
  }

  // 1b. leaks: orifice flows from the local gauge pressures, the tank's gas cushion, air in the
  // loop
  void leakFlows() {
    const double V_lost = y[o + kVLost], V_air = y[o + kVAir];
    bool drained = false;
    const double p_t = tankPressure(m, c, V_lost, &drained);
    sig.p_tank[c] = p_t;
    double q_liq = 0, q_air = 0;
    if (m.cdu_has_leak[c]) {
      const double mu = f.mu(y[o + kTRes]);
      const double dp_ret = m.cdu_pipe_ret[c].dp(m_sec, rho, mu);
      const double dp_hex = m.cdu_hex_sec_dp[c].dp(m_sec);
      for (std::size_t k = 0; k < m.leaks.size(); ++k) {
        const auto& L = m.leaks[k];
        if (L.cdu != c) continue;  // (another CDU's leak: its signals are that CDU's to set)
        sig.leak_flow[k] = sig.leak_air[k] = sig.leak_p[k] = 0;
        if (t < L.time) continue;
        // local gauge pressure. Positive-pressure loop: the pump lifts the coolant from the tank
        // (its suction) through the HX and supply header into the racks. A negative-pressure loop
        // pulls it through the racks into its vacuum tank, (a): the racks and headers sit below
        // the tank's pressure by the drops between them and the tank. An isolated rack drains.
        const bool vac = m.cdu_vacuum[c] < 0;
        const double sgn = vac ? -1.0 : 1.0;
        double p = p_t;                 // Where::Cdu: the tank
        if (L.where == LeakSite::Rack)  // mid-rack: manifolds, trays
          p = (1.0 - rackIsolation(m, st, L.rack, t)) *
              (p_t + sgn * (dp_ret + 0.5 * sig.dp_bank[c]));
        else if (L.where == LeakSite::SupplyHeader)  // at the CDU outlet
          p = vac ? p_t - dp_ret - sig.dp_bank[c] : p_t + sig.dp_pump[c] - dp_hex;
        else if (L.where == LeakSite::ReturnHeader)  // at the racks' end
          p = p_t + sgn * dp_ret;
        const double grow =
            L.growth_time > 0 ? std::clamp((t - L.time) / L.growth_time, 0.0, 1.0) : 1.0;
        const double CdA = L.Cd * (L.area + (L.area_final - L.area) * grow);
        sig.leak_p[k] = p;
        if (p > 0)
          sig.leak_flow[k] = orificeFlow(CdA, p, rho);
        else
          sig.leak_air[k] = orificeFlow(CdA, p, kRhoAir);
        q_liq += sig.leak_flow[k];
        q_air += sig.leak_air[k];
      }
    }
    // make-up from the fill tank (protection.cpp) enters at the reservoir's temperature (a)
    const double q_fill = fillFlow(m, st, c, t);
    ydot[o + kVLost] = q_liq - q_fill;
    // (vacuum loops: the vacuum pump removes the air it separates; kVAir then counts the air
    // drawn in, cumulative, and the pump head is not derated)
    // a drained tank no longer makes up the loss: air takes the lost liquid's place
    // air drawn in stops when it fills the loop (the loop is then at atmospheric pressure) (a)
    const double room = std::clamp(1.0 - V_air / m.cdu_V_loop[c], 0.0, 1.0);
    // (make-up into a drained loop first replaces the air)
    ydot[o + kVAir] =
        q_air * room + (drained && (V_air > 0 || q_liq > q_fill) ? q_liq - q_fill : 0.0);
  }

  // 1c. primary flow through the plate HX and the valve (a stuck valve holds its opening)
  void primaryFlow() {
    const double y_valve = faulted && fs.valve_stuck[c] >= 0 ? fs.valve_stuck[c]
                                                             : std::clamp(y[o + kYValve], 0.0, 1.0);
    const double c_valve = valveQuadraticCoefficient(
        m.cdu_valve_kv[c] * equalPercentage(y_valve, m.cdu_valve_R[c], m.cdu_valve_leak[c]),
        fp.rho_ref());
    const bool plant_unfed =
        m.has_power && ((!m.power.plant_on_ups && !facilityFed(st)) || drivesTripped(m, st, true));
    m_p = (faulted ? fs.fws_flow : 1.0) * (plant_unfed ? 0.0 : 1.0) *
          std::sqrt((m.has_plant ? st.plant.s.dp_cdu : m.cdu_fws_dp[c]) /
                    (m.cdu_prim_c_hex[c] + c_valve));
    if (m.cdu_presc_m_prim[c] > 0) m_p = m.cdu_presc_m_prim[c];  // an ideal flow source
    sig.m_prim[c] = m_p;
    sig.T_fws[c] = T_fws;
  }

  // 2a. reservoir (pump heat), plate HX (eps-NTU), primary outlet
  void cduNodes() {
    const double T_hs = y[o + kTHexSec], T_hp = y[o + kTHexPrim], T_res = y[o + kTRes];
    const int ret0 = m.retSegAdr(c), nret = m.cdu_nseg_ret[c];
    const double UA = hexUA(m.cdu_hex[c], m_sec, m_p);
    // a prescribed supply temperature: the HX takes what brings its outlet there (its hold-up
    // relaxes to it with M/m), the heat to the facility water (docs/models/cdu.md)
    const double Q_hex =
        m.cdu_presc_T_supply[c] > 0
            ? m_sec * (f.h(T_res) - f.h(m.cdu_presc_T_supply[c]))
            : hexHeatFlow(UA, m_sec * f.cp(T_res), m_p * fp.cp(T_fws), T_res, T_fws);
    sig.Q_hex[c] = Q_hex;
    const double h_res = f.h(T_res);
    // the pumps' heat where they sit: upstream of the HX it enters the reservoir (pump suction)
    // and passes the HX; downstream it enters the HX's secondary outlet, the supply
    const double Q_up = m.cdu_pump_downstream[c] ? 0.0 : sig.Q_pump_fluid[c];
    const double Q_down = sig.Q_pump_fluid[c] - Q_up;
    ydot[o + kTRes] =
        (m_sec * (f.h(y[ret0 + nret - 1]) - h_res) + Q_up) / (m.cdu_M_res[c] * f.cp(T_res));
    ydot[o + kTHexSec] =
        (m_sec * (h_res - f.h(T_hs)) - Q_hex + Q_down) / (m.cdu_M_hex_sec[c] * f.cp(T_hs));
    q_fws = m_p * (fp.h(T_hp) - fp.h(T_fws));
    ydot[o + kTHexPrim] = (Q_hex - q_fws) / (m.cdu_M_hex_prim[c] * fp.cp(T_hp));
  }

  // 2b. supply header: finite volumes from the HX secondary outlet to the racks' inlet
  void supplyHeader() {
    const int sup0 = m.supSegAdr(c);
    loss = pipeSegmentsRhs(f, m_sec, m.cdu_M_seg_sup[c], m.cdu_UA_seg_sup[c], m.T_ambient,
                           y[o + kTHexSec], y + sup0, ydot + sup0, m.cdu_nseg_sup[c]);
  }

  // 2c. racks: cold-plate case node and rack coolant node; the heat of a heat-load profile, or
  // the GPU layer's window means (resolved GPUs)
  void racks() {
    const int sup0 = m.supSegAdr(c), ns = m.cdu_nseg_sup[c];
    const int ret0 = m.retSegAdr(c);
    const double T_in = y[sup0 + ns - 1], h_in = f.h(T_in);
    const double h_ret0 = f.h(y[ret0]);
    for (int k = 0; k < m.cdu_racknum[c]; ++k) {
      const int r = m.cdu_rackadr[c] + k, a = m.rackAdr(r);
      const double T_cool = y[a], T_case = y[a + 1];
      const bool resolved = m.rack_resolved[r] != 0;
      const bool off = (m.has_power && !st.pl.rack_powered[r]) ||
                       (!st.faults.rack_power_off.empty() && st.faults.rack_power_off[r]);
      const double powered = off ? 0.0 : 1.0;
      const double P = resolved ? st.gl.rack_P[r] : powered * m.rack_load[r].eval(t);
      const double Q_liq = resolved ? st.gl.rack_Q_liquid[r] : m.rack_liquid_frac[r] * P;
      const double Q_gpu = resolved ? 0.0 : m.rack_gpu_frac[r] * P;
      const double m_r = sig.m_rack[r];
      const double paths = m.rack_paths[r];
      const double R = m.rack_coldplate[r].R(m_r / rho / paths) / paths;
      const double Q_cp = (T_case - T_in) / R;
      const double h_cool = f.h(T_cool);
      ydot[a + 1] = (Q_gpu - Q_cp) / m.rack_C_case[r];
      ydot[a] =
          (m_r * (h_in - h_cool) + Q_cp + (Q_liq - Q_gpu)) / (m.rack_M_cool[r] * f.cp(T_cool));
      mix += m_r * (h_cool - h_ret0);
      heat_racks += Q_liq;
      sig.P_rack[r] = P;
      sig.Q_liquid[r] = Q_liq;
      sig.Q_air[r] = resolved ? st.gl.rack_Q_air[r] : P - Q_liq;
      sig.Q_cp[r] = Q_cp;
      sig.R_cp[r] = R;
    }
  }

  // 2d. return header: the first segment mixes the rack outlets
  void returnHeader() {
    const int ret0 = m.retSegAdr(c), nret = m.cdu_nseg_ret[c];
    const double q_loss0 = m.cdu_UA_seg_ret[c] * (y[ret0] - m.T_ambient);
    // liquid-cooled switch racks on this loop: their cold plates' heat into the return header
    // (docs/models/switch_rack.md: a branch of negligible flow, lumped into the mix)
    const double Q_sw = sig.cdu_Q_switch[c];
    mix += Q_sw;
    heat_racks += Q_sw;
    ydot[ret0] = (mix - q_loss0) / (m.cdu_M_seg_ret[c] * f.cp(y[ret0]));
    loss += q_loss0;
    loss += pipeSegmentsRhs(f, m_sec, m.cdu_M_seg_ret[c], m.cdu_UA_seg_ret[c], m.T_ambient, y[ret0],
                            y + ret0 + 1, ydot + ret0 + 1, nret - 1);
    sig.Q_loss[c] = loss;
  }

  // 3. controls: supply-temperature PI -> valve, flow/dp PI -> pump speed, actuator lags; the
  // controllers see what the sensors tell them (sensor faults: offset or stuck)
  void controls() {
    const double T_hs = y[o + kTHexSec];
    const PIParams& pt = m.cdu_pi_temp[c];
    const double T_meas = !faulted                            ? T_hs
                          : !std::isnan(fs.sensor_T_stuck[c]) ? fs.sensor_T_stuck[c]
                                                              : T_hs + fs.sensor_T_offset[c];
    const double V_meas = !faulted ? V_sec
                          : !std::isnan(fs.sensor_flow_stuck[c])
                              ? fs.sensor_flow_stuck[c]
                              : V_sec * (1 + fs.sensor_flow_offset[c]);
    // set points: the facility's, or the last set-point event's
    auto set = [&](const std::vector<double>& ev, double dflt) {
      return faulted && !std::isnan(ev[c]) ? ev[c] : dflt;
    };
    const double T_set = set(fs.set_T, m.cdu_T_set[c]);
    const double flow_set = set(fs.set_flow, m.cdu_flow_set[c]);
    const double dp_set = set(fs.set_dp, m.cdu_dp_set[c]);
    // errors by the controllers' action: direct e = measurement - set point, reverse the opposite
    // sensor lags (sensor_time_constant): the controllers read the lagged measurement
    double T_read = T_meas;
    if (const int s = m.cdu_sensT_adr[c]; s >= 0) {
      ydot[s] = (T_meas - y[s]) / m.cdu_sensT_tau[c];
      T_read = y[s];
    }
    const double e_T = m.cdu_temp_sign[c] * (T_read - T_set);
    sig.y_cmd[c] = piOutput(pt, e_T, y[o + kXTemp]);
    ydot[o + kXTemp] = piStateDerivative(pt, e_T, y[o + kXTemp]);
    ydot[o + kYValve] = actuatorRate(m.cdu_valve_act[c], sig.y_cmd[c], y[o + kYValve]);
    const PIParams& pu = m.cdu_pi_pump[c];
    double V_read = V_meas, dp_read = sig.dp_bank[c];
    if (const int s = m.cdu_sensP_adr[c]; s >= 0) {  // measured over the facility's set point
      const bool flow = m.cdu_pump_mode[c] == 0;
      const double scale = flow ? m.cdu_flow_set[c] : m.cdu_dp_set[c];
      ydot[s] = ((flow ? V_meas : dp_read) / scale - y[s]) / m.cdu_sensP_tau[c];
      (flow ? V_read : dp_read) = y[s] * scale;
    }
    const double e_P =
        m.cdu_pump_sign[c] *
        (m.cdu_pump_mode[c] == 0 ? (V_read - flow_set) / flow_set : (dp_read - dp_set) / dp_set);
    sig.N_cmd[c] = piOutput(pu, e_P, y[o + kXPump]);
    ydot[o + kXPump] = piStateDerivative(pu, e_P, y[o + kXPump]);
    ydot[o + kNPump] = actuatorRate(m.cdu_pump_act[c], sig.N_cmd[c], y[o + kNPump]);
  }

  // the loop's share of the energy flows that the integrator accumulates
  void energySums() {
    part.heat_in = heat_racks + sig.Q_pump_fluid[c];
    part.heat_out_fws = q_fws;
    part.heat_loss = loss;
  }
};

// CDU loop c: its part of ydot and of the signals (only its own slots: loops may run in
// parallel), and its share of the sums in `part`
void cduRhs(const FacilityModel& m, State& st, int c, double t, double T_fws, const double* y,
            double* ydot, CduRhsPart& part) {
  part = CduRhsPart{};
  CduLoopRhs loop(m, st, c, t, T_fws, y, ydot, part);
  loop.checkFluidRange();
  // 1. hydraulics
  loop.secondaryFlow();
  loop.leakFlows();
  loop.primaryFlow();
  // 2. thermal
  loop.cduNodes();
  loop.supplyHeader();
  loop.racks();
  loop.returnHeader();
  // 3. controls
  loop.controls();
  loop.energySums();
}

// the switch racks' power and heat with the switches running now (docs/models/switch_rack.md)
void switchRackHeat(const FacilityModel& m, State& st) {
  Signals& sig = st.sig;
  if (m.nsw == 0) return;
  std::fill(sig.cdu_Q_switch.begin(), sig.cdu_Q_switch.end(), 0.0);
  const std::vector<int>& up = st.faults.sw_up;
  for (int k = 0; k < m.nsw; ++k) {
    const int n = up.empty() ? m.sw_params[k].switches : up[k];
    const SwitchRackPower p = switchRackPower(m.sw_params[k], n);
    sig.sw_P[k] = p.P;
    sig.sw_P_optics[k] = p.P_optics;
    sig.sw_Q_liquid[k] = m.sw_cdu[k] >= 0 ? p.Q_liquid : 0.0;
    sig.sw_Q_air[k] = p.P - sig.sw_Q_liquid[k];
    if (m.sw_cdu[k] >= 0) sig.cdu_Q_switch[m.sw_cdu[k]] += sig.sw_Q_liquid[k];
  }
}

}  // namespace

//---------------------------------------------------------------------------------------------
int evalRhs(const FacilityModel& m, State& st, double t, const double* y, double* ydot) {
  Signals& sig = st.sig;
  const double T_fws = fwsSupplyTemperature(m, st, t);
  switchRackHeat(m, st);  // before the loops: a liquid-cooled switch rack heats its CDU's return
  std::vector<CduRhsPart>& parts = st.cdu_part;
  // the CDU loops are independent: in parallel chunks when the run has worker threads
  if (st.pool && st.pool->size() > 1 && m.ncdu >= 2 * st.pool->size()) {
    const int nk = std::min(m.ncdu, 4 * st.pool->size());
    st.pool->run(nk, [&](int k) {
      int c0, c1;
      WorkerPool::chunk(m.ncdu, nk, k, &c0, &c1);
      for (int c = c0; c < c1; ++c) cduRhs(m, st, c, t, T_fws, y, ydot, parts[c]);
    });
  } else {
    for (int c = 0; c < m.ncdu; ++c) cduRhs(m, st, c, t, T_fws, y, ydot, parts[c]);
  }
  // sums in CDU order (the same whatever the number of threads); the state furthest outside its
  // fluid's range: the first of the largest excess
  sig.heat_in = sig.heat_out_fws = sig.heat_loss = 0.0;
  sig.range_state = -1;
  double worst_excess = 0.0;
  int status = 0;
  for (int c = 0; c < m.ncdu; ++c) {
    const CduRhsPart& q = parts[c];
    sig.heat_in += q.heat_in;
    sig.heat_out_fws += q.heat_out_fws;
    sig.heat_loss += q.heat_loss;
    sig.hydraulic_failures += q.hydraulic_failures;
    if (q.status && !(q.worst_excess <= worst_excess)) {
      status = 1;
      worst_excess = q.worst_excess;
      sig.range_state = q.range_state;
      sig.range_value = q.range_value;
    }
  }
  // room air: the racks' air-side heat in, the air handlers' supply air out
  sig.air_in = 0;
  for (int r = 0; r < m.nrack; ++r) sig.air_in += sig.Q_air[r];
  if (m.has_power) {  // shelf and busway losses are in the hall (last fast step)
    for (int r = 0; r < m.nrack; ++r) sig.air_in += st.pl.rack_psu_loss[r];
    for (double l : st.pl.bus_loss) sig.air_in += l;
  }
  // switch racks: their air-side heat into the room air
  for (int k = 0; k < m.nsw; ++k) sig.air_in += sig.sw_Q_air[k];
  // air-cooled racks: their fans' operating point; IT and fan power into the room air (none
  // once their feed is lost: air_rack_feed.cpp)
  for (int k = 0; k < m.nair; ++k) {
    const double T_in = m.room_state >= 0 ? y[m.room_state] : m.T_ambient;
    double P = 0;
    const FanPoint fp = airRackPoint(m, st, k, t, &P);
    sig.air_P[k] = P;
    sig.air_P_fan[k] = fp.P_fan;
    sig.air_V[k] = fp.V;
    sig.air_N[k] = fp.N;
    sig.air_T_in[k] = T_in;
    sig.air_T_out[k] = T_in + fp.dT;
    sig.air_in += P + fp.P_fan;
  }
  sig.air_removed = 0;
  if (m.ah_state >= 0) {
    // air handlers (docs/models/air_handler.md): fan speed by the PI on the room air, the
    // coils' duty at that speed, the fans' heat into the air; the chiller of the chilled water
    // on the facility water's supply
    const double T_room = y[m.room_state], x = y[m.ah_state];
    const double e = T_room - m.ah.T_set;
    const AirHandlerPoint ap = airHandlerAt(m.ah, piOutput(m.ah.pi, e, x), T_room, m.air_rho_cp);
    const AirHandlerWater aw = airHandlerWater(m.ah, ap.Q_coil, fwsSupplyTemperature(m, st, t));
    sig.air_removed = ap.Q_coil;
    sig.ah_speed = ap.y;
    sig.ah_P_fan = ap.P_fan;
    sig.ah_T_supply = ap.T_supply_air;
    sig.ah_P_chiller = aw.P_chiller;
    sig.ah_Q_water = aw.Q_water;
    sig.ah_plr = aw.PLR;
    ydot[m.room_state] = (sig.air_in + ap.P_fan - ap.Q_coil) / m.room_C;
    ydot[m.ah_state] = piStateDerivative(m.ah.pi, e, x);
  } else if (m.room_state >= 0) {
    const double T_room = y[m.room_state];
    sig.air_removed = m.room_G * (T_room - m.room_supply_T);
    ydot[m.room_state] = (sig.air_in - sig.air_removed) / m.room_C;
  }
  for (int i = 0; i < m.nstate; ++i)
    if (!std::isfinite(ydot[i])) return -1;
  return status;
}

//---------------------------------------------------------------------------------------------
double storedEnergy(const FacilityModel& m, const double* y, const double* y0) {
  const Fluid& fp = m.fluids[m.fws_fluid];
  double E = 0.0;  // coolant side only; the room air has its own balance (roomAirEnergy)
  for (int c = 0; c < m.ncdu; ++c) {
    const Fluid& f = m.fluids[m.cdu_fluid[c]];
    const int o = m.cdu_stateadr[c];
    auto dh = [&](const Fluid& fl, int i) { return fl.h(y[i]) - fl.h(y0[i]); };
    E += m.cdu_M_res[c] * dh(f, o + kTRes);
    E += m.cdu_M_hex_sec[c] * dh(f, o + kTHexSec);
    E += m.cdu_M_hex_prim[c] * dh(fp, o + kTHexPrim);
    for (int i = 0; i < m.cdu_nseg_sup[c]; ++i) E += m.cdu_M_seg_sup[c] * dh(f, m.supSegAdr(c) + i);
    for (int i = 0; i < m.cdu_nseg_ret[c]; ++i) E += m.cdu_M_seg_ret[c] * dh(f, m.retSegAdr(c) + i);
    for (int k = 0; k < m.cdu_racknum[c]; ++k) {
      int r = m.cdu_rackadr[c] + k, a = m.rackAdr(r);
      E += m.rack_M_cool[r] * dh(f, a);
      E += m.rack_C_case[r] * (y[a + 1] - y0[a + 1]);
    }
  }
  return E;
}

}  // namespace dctwin
