// power_smoothing.cpp: see power_smoothing.h and docs/models/power_smoothing.md
#include "models/power_smoothing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dctwin {

SmoothedPower smoothPower(const PowerSmoothingParams& p, double P_work, double dt,
                          PowerSmoothingState& s, bool active) {
  const double target = (p.enabled && active) ? std::max(p.floor, P_work) : P_work;
  double P = target;
  if (!p.enabled || !s.primed) {
    s.hold = 0;
    s.primed = true;
  } else if (target >= s.P_out) {
    s.hold = 0;
    if (p.ramp_up > 0) P = std::min(target, s.P_out + p.ramp_up * dt);
  } else {
    s.hold += dt;
    // the hold timer is a sum of steps: allow a round-off margin so that a hysteresis of n steps
    // holds exactly n steps
    const double t_ramp = std::min(dt, s.hold - p.hysteresis);
    if (t_ramp <= 1e-9 * dt)
      P = s.P_out;
    else if (p.ramp_down > 0)
      P = std::max(target, s.P_out - p.ramp_down * t_ramp);
  }
  s.P_out = P;
  SmoothedPower r;
  r.P = P;
  r.filler = std::max(0.0, P - P_work);
  r.work_fraction = (P_work > 0 && P < P_work) ? P / P_work : 1.0;
  return r;
}

double powerSmoothingCeiling(const PowerSmoothingParams& p, const PowerSmoothingState& s,
                             double dt) {
  if (!p.enabled || !s.primed || p.ramp_up <= 0) return std::numeric_limits<double>::infinity();
  return s.P_out + p.ramp_up * dt;
}

SwingMetrics swingMetrics(std::span<const double> P, double dt) {
  SwingMetrics m;
  if (P.empty()) return m;
  double sum = 0;
  m.min = m.max = P[0];
  for (std::size_t k = 0; k < P.size(); ++k) {
    sum += P[k];
    m.min = std::min(m.min, P[k]);
    m.max = std::max(m.max, P[k]);
    if (k > 0 && dt > 0) {
      const double d = (P[k] - P[k - 1]) / dt;
      m.max_ramp_up = std::max(m.max_ramp_up, d);
      m.max_ramp_down = std::max(m.max_ramp_down, -d);
    }
  }
  m.mean = sum / double(P.size());
  double var = 0;
  for (double x : P) var += (x - m.mean) * (x - m.mean);
  m.rms_ripple = std::sqrt(var / double(P.size()));
  m.peak_to_peak = m.max - m.min;
  return m;
}

namespace {

// a store's control, shared by the rack store and the site battery: the moving average of the
// demand P it sees (implicit, time constant tau) and the draw it holds the grid at: the fixed
// target or the average, pulled toward half charge over soc_tau
double storeTarget(const StorageParams& p, double P, double dt, StorageState& s) {
  if (!s.primed) {
    s.avg = P;
    s.primed = true;
  } else if (p.tau > 0) {
    const double a = dt / p.tau;
    s.avg = (s.avg + a * P) / (1 + a);
  } else {
    s.avg = P;
  }
  double target = p.target_W > 0 ? p.target_W : s.avg;
  if (p.soc_tau > 0) target += (0.5 * p.capacity_J - s.soc_J) / p.soc_tau;
  return target;
}

}  // namespace

double gridPower(const StorageParams& p, double P_rack, double dt, StorageState& s) {
  double P_s = P_rack - storeTarget(p, P_rack, dt, s);  // > 0: discharge
  if (p.P_max_W > 0) P_s = std::clamp(P_s, -p.P_max_W, p.P_max_W);
  if (dt <= 0) return P_rack;
  const double P_dis = std::max(0.0, s.soc_J) / dt;                 // empties the store
  const double P_chg = std::max(0.0, p.capacity_J - s.soc_J) / dt;  // fills it
  if (P_s >= P_dis) {
    P_s = P_dis;
    s.soc_J = 0;
  } else if (P_s <= -P_chg) {
    P_s = -P_chg;
    s.soc_J = p.capacity_J;
  } else {
    s.soc_J -= P_s * dt;
  }
  return P_rack - P_s;
}

double siteBatteryPower(const StorageParams& p, double eta_rt, double P_site, double dt,
                        StorageState& s, double& P_out, double& loss) {
  P_out = loss = 0;
  const double target = storeTarget(p, P_site, dt, s);
  if (dt <= 0) return P_site;
  double P_s = P_site - target;  // > 0: discharge
  if (p.P_max_W > 0) P_s = std::clamp(P_s, -p.P_max_W, p.P_max_W);
  const double eta = std::sqrt(std::clamp(eta_rt, 1e-6, 1.0));  // each way
  if (P_s > 0) {                                                // the cells give P_s / eta
    P_s = std::min(P_s, std::max(0.0, s.soc_J) * eta / dt);
    s.soc_J = std::max(0.0, s.soc_J - P_s / eta * dt);
    loss = P_s / eta - P_s;
  } else if (P_s < 0) {  // the cells take eta |P_s|
    P_s = -std::min(-P_s, std::max(0.0, p.capacity_J - s.soc_J) / (eta * dt));
    s.soc_J = std::min(p.capacity_J, s.soc_J - eta * P_s * dt);
    loss = -P_s * (1 - eta);
  }
  P_out = P_s;
  return P_site - P_s;
}

}  // namespace dctwin
