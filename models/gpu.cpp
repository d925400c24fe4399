#include "models/gpu.h"

#include <algorithm>
#include <cmath>

namespace dctwin {

double gpuVoltageRatio(const GpuParams& p, double x) {
  return std::max(p.v_floor, p.v0 + (1.0 - p.v0) * x);
}

namespace {
// x v(x)^2 and its derivative; the floor makes it linear below the knee, convex above
double clockVoltage(const GpuParams& p, double x, double* d = nullptr) {
  const double lin = p.v0 + (1.0 - p.v0) * x;
  const double v = std::max(p.v_floor, lin);
  if (d) *d = lin >= p.v_floor ? v * v + 2.0 * x * v * (1.0 - p.v0) : v * v;
  return x * v * v;
}
}  // namespace

double gpuStaticPower(const GpuParams& p, double T_j) {
  return (p.P_idle - p.P_leak_ref) + p.P_leak_ref * std::exp(p.beta * (T_j - p.T_leak_ref));
}

double gpuPower(const GpuParams& p, double x, double T_j, const GpuLoad& a, double* P_hbm) {
  const double hbm = p.P_hbm_idle + p.P_hbm_max * a.a_hbm;
  if (P_hbm) *P_hbm = hbm;
  const double g = clockVoltage(p, x), g_idle = clockVoltage(p, p.f_idle / p.f_max);
  return gpuStaticPower(p, T_j) + p.P_sm_max * a.a_sm * g + p.P_clk * (g - g_idle) +
         p.P_hbm_max * a.a_hbm + p.P_nvl_max * a.a_nvlink;
}

double gpuReferenceClock(const GpuParams& p, double P_cap, const GpuLoad& a, double T_ref) {
  GpuParams ref = p;
  ref.T_maxop = ref.T_slowdown = ref.T_shutdown = ref.T_hbm_max = 1e9;
  GpuState s;
  s.T_j = s.T_hbm = s.T_plate = T_ref;
  return gpuOperatingPoint(ref, P_cap, a, s).clock_ratio;
}

//---------------------------------------------------------------------------------------------
GpuOperatingPoint gpuOperatingPoint(const GpuParams& p, double P_cap, const GpuLoad& a,
                                    GpuState& s) {
  GpuOperatingPoint op;
  // shutdown: latched, the board is off
  if (s.T_j >= p.T_shutdown) s.shut_down = true;
  if (s.shut_down) return op;

  const double x_idle = p.f_idle / p.f_max;
  const bool idle = a.a_sm <= 0.0 && a.a_hbm <= 0.0 && a.a_nvlink <= 0.0;
  double x = idle ? (a.held ? 1.0 : x_idle) : (a.memory_bound ? p.f_membound / p.f_max : 1.0);
  if (idle && !a.held) op.reasons |= kThrottleIdle;

  // power cap: P(x) = B + A x v(x)^2 is increasing and convex in x (the voltage floor only adds a
  // kink that raises the slope), so Newton from the target clock approaches the root from above,
  // monotonically
  const double A = p.P_sm_max * a.a_sm + p.P_clk;
  const double B = gpuStaticPower(p, s.T_j) + p.P_hbm_max * a.a_hbm + p.P_nvl_max * a.a_nvlink -
                   p.P_clk * clockVoltage(p, x_idle);
  auto f = [&](double z) { return B + A * clockVoltage(p, z); };
  if (f(x) > P_cap && x > x_idle) {
    if (f(x_idle) >= P_cap || A <= 0) {
      x = x_idle;  // even the idle clock exceeds the cap: the lowest clock is all it can do
    } else {
      for (int it = 0; it < 50; ++it) {
        double dg = 0;
        clockVoltage(p, x, &dg);
        const double df = A * dg;
        const double step = (f(x) - P_cap) / df;
        x = std::max(x - step, x_idle);
        if (std::abs(step) < 1e-12) break;
      }
    }
    op.reasons |= kThrottleSwPowerCap;
  }
  // SW thermal slowdown: clock walks down between T_maxop and T_slowdown
  if ((!idle || a.held) && s.T_j > p.T_maxop) {
    double frac = std::clamp((s.T_j - p.T_maxop) / (p.T_slowdown - p.T_maxop), 0.0, 1.0);
    double x_sw = 1.0 - frac * (1.0 - x_idle);
    if (x_sw < x) {
      x = x_sw;
      op.reasons |= kThrottleSwThermal;
    }
  }
  // HW thermal slowdown (die or HBM), latched with a release band
  if (s.T_j >= p.T_slowdown || s.T_hbm >= p.T_hbm_max) s.hw_slowdown = true;
  if (s.hw_slowdown && s.T_j < p.T_slowdown - kGpuHwReleaseBand &&
      s.T_hbm < p.T_hbm_max - kGpuHwReleaseBand)
    s.hw_slowdown = false;
  if (s.hw_slowdown) {
    x = std::max(0.5 * x, x_idle);
    op.reasons |= kThrottleHwThermal | kThrottleHwSlowdown;
  }
  if (a.brake) {
    x = std::max(0.5 * x, x_idle);
    op.reasons |= kThrottlePowerBrake | kThrottleHwSlowdown;
  }
  op.clock_ratio = x;
  op.P = f(x);  // = gpuPower(p, x, T_j, a), with the leakage term evaluated once
  op.P_hbm = p.P_hbm_idle + p.P_hbm_max * a.a_hbm;
  return op;
}

//---------------------------------------------------------------------------------------------
double gpuThermalStep(const GpuParams& p, const GpuPlate& pl, double T_in,
                      const GpuOperatingPoint& op, double dt, GpuState& s) {
  // backward Euler: eliminate the die and HBM nodes, solve the plate node, back-substitute
  const double gj = 1.0 / p.R_jc, gh = 1.0 / p.R_hbm, gc = 1.0 / pl.R_cp;
  const double cj = p.C_die / dt, ch = p.C_hbm / dt, cp = pl.C_plate / dt;
  const double P_die = op.P - op.P_hbm;
  // T_j = aj + bj T_p,  T_hbm = ah + bh T_p
  const double aj = (cj * s.T_j + P_die) / (cj + gj), bj = gj / (cj + gj);
  const double ah = (ch * s.T_hbm + op.P_hbm) / (ch + gh), bh = gh / (ch + gh);
  // plate: cp (T_p - T_p_old) = gj (T_j - T_p) + gh (T_hbm - T_p) - gc (T_p - T_in)
  const double Tp = (cp * s.T_plate + gj * aj + gh * ah + gc * T_in) /
                    (cp + gj * (1.0 - bj) + gh * (1.0 - bh) + gc);
  s.T_plate = Tp;
  s.T_j = aj + bj * Tp;
  s.T_hbm = ah + bh * Tp;
  return gc * (Tp - T_in);
}

}  // namespace dctwin
