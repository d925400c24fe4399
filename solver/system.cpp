// system.cpp: the facility's right-hand side
//
// evalRhs runs, per CDU loop, in order:
//   1. hydraulics   primary flow from the valve; secondary flows from the pump curve, the series
//                   resistances and the parallel rack branches (nested monotone solves)
//   2. thermal      reservoir, plate HX (eps-NTU), supply header, racks, return header
//   3. controls     supply-temperature PI -> valve, flow/dp PI -> pump speed, actuator lags
// and sums the energy flows that the integrator accumulates as quadratures.
#include <algorithm>
#include <cmath>

#include "models/pipe.h"
#include "models/valve.h"
#include "solver/model.h"

namespace dctwin {

namespace {

// flow m >= 0 through a branch (balancing valve + rack manifold in series) at pressure drop dp;
// safeguarded Newton on the strictly increasing g(m) = dp_valve(m) + dp_manifold(m)
double branchFlow(const PowerLaw& valve, const PowerLaw& man, double dp, double* dgdm, bool* ok) {
  if (dp <= 0) {
    *dgdm = valve.ddp_dm(0) + man.ddp_dm(0);
    return 0.0;
  }
  auto g = [&](double x) { return valve.dp(x) + man.dp(x); };
  // deterministic start: a quadratic law through the manifold's nominal point (m_small = 1 %)
  const double m_nom = 100.0 * man.m_small;
  const double k2 = valve.k + man.dp(m_nom) / (m_nom * m_nom);
  double x = std::sqrt(dp / k2);
  double lo = 0.0, hi = x;
  while (g(hi) < dp) hi *= 2.0;
  for (int it = 0; it < 100; ++it) {
    double r = g(x) - dp;
    if (r > 0)
      hi = std::min(hi, x);
    else
      lo = std::max(lo, x);
    double d = valve.ddp_dm(x) + man.ddp_dm(x);
    double xn = x - r / d;
    if (!(xn > lo && xn < hi)) xn = 0.5 * (lo + hi);
    double step = std::abs(xn - x);
    x = xn;
    if (step <= 1e-15 * x || hi - lo <= 1e-15 * hi) {
      *dgdm = valve.ddp_dm(x) + man.ddp_dm(x);
      return x;
    }
  }
  *ok = false;
  *dgdm = valve.ddp_dm(x) + man.ddp_dm(x);
  return x;
}

// secondary loop operating point of CDU c: fills sig.m_rack, sig.m_sec, sig.dp_bank, sig.dp_pump
void solveSecondary(const FacilityModel& m, Signals& sig, int c, int nrun, double N, double T_ref) {
  const Fluid& f = m.fluids[m.cdu_fluid[c]];
  const double rho = f.rho_ref(), mu = f.mu(T_ref);
  const PumpParams& pp = m.cdu_pump[c];
  const int r0 = m.cdu_rackadr[c], nr = m.cdu_racknum[c];
  const double H0 = pumpHead(pp, nrun, N, 0.0);
  if (nr == 0 || H0 <= 0) {
    for (int k = 0; k < nr; ++k) sig.m_rack[r0 + k] = sig.dp_rack[r0 + k] = 0;
    sig.m_sec[c] = sig.dp_bank[c] = sig.dp_pump[c] = 0;
    return;
  }
  auto series = [&](double mf) {
    return m.cdu_hex_sec_dp[c].dp(mf) + m.cdu_pipe_sup[c].dp(mf, rho, mu) +
           m.cdu_pipe_ret[c].dp(mf, rho, mu);
  };
  auto seriesSlope = [&](double mf) {
    return m.cdu_hex_sec_dp[c].ddp_dm(mf) + m.cdu_pipe_sup[c].ddp_dm(mf, rho, mu) +
           m.cdu_pipe_ret[c].ddp_dm(mf, rho, mu);
  };
  bool ok = true;
  // bank flow Q(dp_b) and dQ/ddp_b
  auto bank = [&](double dpb, double* dQ) {
    double Q = 0, s = 0;
    for (int k = 0; k < nr; ++k) {
      int r = r0 + k;
      double d;
      double q = branchFlow(m.rack_valve[r], m.rack_manifold[r], dpb, &d, &ok);
      sig.m_rack[r] = q;
      Q += q;
      s += 1.0 / d;
    }
    *dQ = s;
    return Q;
  };
  // residual r(dp_b) = H(N, Q) - dp_b - dp_series(Q), strictly decreasing on [0, H0]
  double lo = 0.0, hi = H0, x = 0.5 * H0;
  double Q = 0;
  for (int it = 0; it < 100; ++it) {
    double dQ;
    Q = bank(x, &dQ);
    double V = Q / rho;
    double r = pumpHead(pp, nrun, N, V) - x - series(Q);
    if (r > 0)
      lo = x;
    else
      hi = x;
    double dr = (pumpHeadSlope(pp, nrun, N, V) / rho - seriesSlope(Q)) * dQ - 1.0;
    double xn = x - r / dr;
    if (!(xn > lo && xn < hi)) xn = 0.5 * (lo + hi);
    double step = std::abs(xn - x);
    x = xn;
    if (step <= 1e-14 * H0 || hi - lo <= 1e-14 * H0) break;
    if (it == 99) ok = false;
  }
  double dQ;
  Q = bank(x, &dQ);  // flows consistent with the final dp_b: mass balance holds exactly
  for (int k = 0; k < nr; ++k) sig.dp_rack[r0 + k] = x;
  sig.m_sec[c] = Q;
  sig.dp_bank[c] = x;
  sig.dp_pump[c] = x + series(Q);
  if (!ok) ++sig.hydraulic_failures;
}

}  // namespace

//---------------------------------------------------------------------------------------------
State makeState(const FacilityModel& m, double T_init) {
  State st;
  st.y.assign(m.nstate, T_init);
  if (m.room_state >= 0) st.y[m.room_state] = m.room_supply_T;
  st.scratch.assign(m.nstate, 0.0);
  initGpuLayer(m, st, T_init);
  initPowerLayer(m, st);
  st.fscratch.assign(m.nstate, 0.0);
  Signals& s = st.sig;
  for (auto* v : {&s.m_sec, &s.m_prim, &s.dp_pump, &s.dp_bank, &s.P_pump, &s.Q_pump_fluid, &s.Q_hex,
                  &s.T_fws, &s.N_cmd, &s.y_cmd, &s.Q_loss})
    v->assign(m.ncdu, 0.0);
  for (auto* v : {&s.m_rack, &s.dp_rack, &s.P_rack, &s.Q_liquid, &s.Q_air, &s.Q_cp, &s.R_cp})
    v->assign(m.nrack, 0.0);
  for (int c = 0; c < m.ncdu; ++c) {
    // valve half open, pump at half speed; integrators set so the PI outputs match (bumpless)
    const double y0 = 0.5, N0 = 0.5;
    st.y[m.stateAdr(c, kYValve)] = y0;
    st.y[m.stateAdr(c, kNPump)] = N0;
    st.y[m.stateAdr(c, kXTemp)] = piStateFor(m.cdu_pi_temp[c], y0, T_init - m.cdu_T_set[c]);
  }
  // pump integrators: bumpless for the actual initial flow (or dp) error
  std::vector<double> ydot(m.nstate);
  for (int c = 0; c < m.ncdu; ++c)
    st.y[m.stateAdr(c, kXPump)] = piStateFor(m.cdu_pi_pump[c], 0.5, 0.0);
  evalRhs(m, st, 0.0, st.y.data(), ydot.data());
  for (int c = 0; c < m.ncdu; ++c) {
    const double V = st.sig.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    const double e = m.cdu_pump_mode[c] == 0
                         ? (m.cdu_flow_set[c] - V) / m.cdu_flow_set[c]
                         : (m.cdu_dp_set[c] - st.sig.dp_bank[c]) / m.cdu_dp_set[c];
    st.y[m.stateAdr(c, kXPump)] = piStateFor(m.cdu_pi_pump[c], st.y[m.stateAdr(c, kNPump)], e);
  }
  st.sig.hydraulic_failures = 0;
  st.y0 = st.y;
  return st;
}

//---------------------------------------------------------------------------------------------
int evalRhs(const FacilityModel& m, State& st, double t, const double* y, double* ydot) {
  Signals& sig = st.sig;
  sig.heat_in = sig.heat_out_fws = sig.heat_loss = 0.0;
  sig.range_state = -1;
  double worst_excess = 0.0;
  const Fluid& fp = m.fluids[m.fws_fluid];
  const double T_fws = m.fws_T.eval(t);
  int status = 0;

  for (int c = 0; c < m.ncdu; ++c) {
    const Fluid& f = m.fluids[m.cdu_fluid[c]];
    const double rho = f.rho_ref();
    const int o = m.cdu_stateadr[c];
    const double T_hs = y[o + kTHexSec], T_hp = y[o + kTHexPrim], T_res = y[o + kTRes];
    // faults: a stuck valve holds its opening, failed pumps are out of the bank
    const FaultState& fs = st.faults;
    const bool faulted = !fs.pumps_out.empty();
    const double y_valve = faulted && fs.valve_stuck[c] >= 0 ? fs.valve_stuck[c]
                                                             : std::clamp(y[o + kYValve], 0.0, 1.0);
    const double N = std::clamp(y[o + kNPump], 0.0, 1.0);
    const int nrun = m.cdu_pump_running[c] - (faulted ? fs.pumps_out[c] : 0);
    // coolant temperatures far outside the fluid's table (frozen, boiling): ask for a smaller
    // step, and remember the worst offender for the failure message. Cold-plate case nodes are
    // metal and are not checked against the coolant's range.
    for (int i = o; i < o + m.cdu_statenum[c]; ++i) {
      const int off = i - o;
      if (off == kXTemp || off == kYValve || off == kXPump || off == kNPump) continue;
      if (m.isCaseState(i)) continue;
      const Fluid& fl = off == kTHexPrim ? fp : f;
      double excess = std::max(fl.T_min() - 20.0 - y[i], y[i] - fl.T_max() - 20.0);
      if (!(excess <= worst_excess)) {  // also catches NaN
        status = 1;
        worst_excess = std::isnan(excess) ? 1e300 : excess;
        sig.range_state = i;
        sig.range_value = y[i];
      }
    }

    // 1. hydraulics
    solveSecondary(m, sig, c, nrun, N, T_res);
    const double m_sec = sig.m_sec[c], V_sec = m_sec / rho;
    const double c_valve = valveQuadraticCoefficient(
        m.cdu_valve_kv[c] * equalPercentage(y_valve, m.cdu_valve_R[c], m.cdu_valve_leak[c]),
        fp.rho_ref());
    const double m_p = (faulted ? fs.fws_flow : 1.0) *
                       std::sqrt(m.cdu_fws_dp[c] / (m.cdu_prim_c_hex[c] + c_valve));
    sig.m_prim[c] = m_p;
    sig.T_fws[c] = T_fws;
    const PumpParams& pp = m.cdu_pump[c];
    sig.P_pump[c] = pumpPowerElectric(pp, V_sec, sig.dp_pump[c]);
    sig.Q_pump_fluid[c] = pumpHeatToFluid(pp, V_sec, sig.dp_pump[c]);

    // 2. thermal: reservoir (pump heat), plate HX, primary outlet
    const int sup0 = m.supSegAdr(c), ns = m.cdu_nseg_sup[c];
    const int ret0 = m.retSegAdr(c), nret = m.cdu_nseg_ret[c];
    const double UA = hexUA(m.cdu_hex[c], m_sec, m_p);
    const double Q_hex = hexHeatFlow(UA, m_sec * f.cp(T_res), m_p * fp.cp(T_fws), T_res, T_fws);
    sig.Q_hex[c] = Q_hex;
    const double h_res = f.h(T_res);
    ydot[o + kTRes] = (m_sec * (f.h(y[ret0 + nret - 1]) - h_res) + sig.Q_pump_fluid[c]) /
                      (m.cdu_M_res[c] * f.cp(T_res));
    ydot[o + kTHexSec] = (m_sec * (h_res - f.h(T_hs)) - Q_hex) / (m.cdu_M_hex_sec[c] * f.cp(T_hs));
    const double q_fws = m_p * (fp.h(T_hp) - fp.h(T_fws));
    ydot[o + kTHexPrim] = (Q_hex - q_fws) / (m.cdu_M_hex_prim[c] * fp.cp(T_hp));

    // supply header
    double loss = pipeSegmentsRhs(f, m_sec, m.cdu_M_seg_sup[c], m.cdu_UA_seg_sup[c], m.T_ambient,
                                  T_hs, y + sup0, ydot + sup0, ns);

    // racks: cold-plate case node and rack coolant node
    const double T_in = y[sup0 + ns - 1], h_in = f.h(T_in);
    const double h_ret0 = f.h(y[ret0]);
    double mix = 0.0;  // sum of m_r (h_r - h_ret0): enthalpy the racks bring to the return header
    double heat_racks = 0.0;
    for (int k = 0; k < m.cdu_racknum[c]; ++k) {
      const int r = m.cdu_rackadr[c] + k, a = m.rackAdr(r);
      const double T_cool = y[a], T_case = y[a + 1];
      // a heat-load profile, or the GPU layer's window means (resolved GPUs)
      const bool resolved = m.rack_resolved[r] != 0;
      const double powered = m.has_power && !st.pl.rack_powered[r] ? 0.0 : 1.0;
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

    // return header: the first segment mixes the rack outlets
    const double q_loss0 = m.cdu_UA_seg_ret[c] * (y[ret0] - m.T_ambient);
    ydot[ret0] = (mix - q_loss0) / (m.cdu_M_seg_ret[c] * f.cp(y[ret0]));
    loss += q_loss0;
    loss += pipeSegmentsRhs(f, m_sec, m.cdu_M_seg_ret[c], m.cdu_UA_seg_ret[c], m.T_ambient, y[ret0],
                            y + ret0 + 1, ydot + ret0 + 1, nret - 1);
    sig.Q_loss[c] = loss;

    // 3. controls
    const PIParams& pt = m.cdu_pi_temp[c];
    const double e_T = T_hs - m.cdu_T_set[c];
    sig.y_cmd[c] = piOutput(pt, e_T, y[o + kXTemp]);
    ydot[o + kXTemp] = piStateDerivative(pt, e_T, y[o + kXTemp]);
    ydot[o + kYValve] = (sig.y_cmd[c] - y[o + kYValve]) / m.cdu_valve_tau[c];
    const PIParams& pu = m.cdu_pi_pump[c];
    const double e_P = m.cdu_pump_mode[c] == 0
                           ? (m.cdu_flow_set[c] - V_sec) / m.cdu_flow_set[c]
                           : (m.cdu_dp_set[c] - sig.dp_bank[c]) / m.cdu_dp_set[c];
    sig.N_cmd[c] = piOutput(pu, e_P, y[o + kXPump]);
    ydot[o + kXPump] = piStateDerivative(pu, e_P, y[o + kXPump]);
    ydot[o + kNPump] = (sig.N_cmd[c] - y[o + kNPump]) / m.cdu_pump_tau[c];

    sig.heat_in += heat_racks + sig.Q_pump_fluid[c];
    sig.heat_out_fws += q_fws;
    sig.heat_loss += loss;
  }
  // room air: the racks' air-side heat in, the air handlers' supply air out
  sig.air_in = 0;
  for (int r = 0; r < m.nrack; ++r) sig.air_in += sig.Q_air[r];
  if (m.has_power) {  // shelf and busway losses are in the hall (last fast step)
    for (int r = 0; r < m.nrack; ++r) sig.air_in += st.pl.rack_psu_loss[r];
    for (double l : st.pl.bus_loss) sig.air_in += l;
  }
  sig.air_removed = 0;
  if (m.room_state >= 0) {
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
