#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "models/gpu.h"
#include "models/power_smoothing.h"

using namespace dctwin;

namespace {
constexpr double kTdp = 1200;  // GB200-class TDP (W)
constexpr double kDt = 0.02;   // GPU-layer step (s)
constexpr int kPeriod = 150;   // 3 s square-wave period in steps: 75 high, 75 low
constexpr double kHigh = 1.0 * kTdp, kLow = 0.3 * kTdp;

// work power of a synchronous training step: compute phase at TDP, communication phase at 0.3 TDP
double squareWave(int k) {
  return (k % kPeriod) < kPeriod / 2 ? kHigh : kLow;
}

struct Run {
  std::vector<double> P, P_work, filler, frac;
  double E_filler = 0, E_deficit = 0, mean_frac = 0;
};
Run runSquare(const PowerSmoothingParams& p, int periods) {
  Run r;
  PowerSmoothingState s;
  const int n = periods * kPeriod;
  for (int k = 0; k < n; ++k) {
    const double Pw = squareWave(k);
    SmoothedPower sp = smoothPower(p, Pw, kDt, s);
    r.P.push_back(sp.P);
    r.P_work.push_back(Pw);
    r.filler.push_back(sp.filler);
    r.frac.push_back(sp.work_fraction);
    r.E_filler += sp.filler * kDt;
    r.E_deficit += std::max(0.0, Pw - sp.P) * kDt;
    r.mean_frac += sp.work_fraction;
  }
  r.mean_frac /= n;
  return r;
}
}  // namespace

TEST_CASE("power floor: swing cut to TDP - floor, filler energy exact", "[power_smoothing]") {
  PowerSmoothingParams p;
  p.enabled = true;
  p.floor = 0.9 * kTdp;
  const int periods = 10;
  Run r = runSquare(p, periods);
  SwingMetrics m = swingMetrics(r.P, kDt);
  CHECK(m.peak_to_peak == Approx(0.1 * kTdp));  // 10 % of TDP instead of 70 %
  CHECK(m.min == Approx(p.floor));
  CHECK(m.max == Approx(kTdp));
  double E_expected = 0, E_in = 0, E_work = 0;
  for (std::size_t k = 0; k < r.P.size(); ++k) {
    E_expected += std::max(0.0, p.floor - r.P_work[k]) * kDt;
    E_in += r.P[k] * kDt;
    E_work += r.P_work[k] * kDt;
    CHECK(r.frac[k] == 1.0);
    CHECK(r.P[k] >= p.floor);
  }
  CHECK(r.E_filler == Approx(E_expected).epsilon(1e-14));
  CHECK(r.E_filler == Approx(periods * (0.9 - 0.3) * kTdp * 1.5).epsilon(1e-12));
  CHECK(E_in == Approx(E_work + r.E_filler).epsilon(1e-13));  // filler is drawn power, all heat
  CHECK(r.E_deficit == 0.0);

  // disabled: the request passes unchanged; enabled but no job running: no floor
  p.enabled = false;
  Run off = runSquare(p, 1);
  CHECK(off.P == off.P_work);
  p.enabled = true;
  PowerSmoothingState s;
  CHECK(smoothPower(p, 200, kDt, s, false).P == 200);
  CHECK(smoothPower(p, 200, kDt, s, true).P == Approx(p.floor));
  CHECK(smoothPower(p, 200, kDt, s, true).filler == Approx(p.floor - 200));
}

TEST_CASE("ramp limits: measured ramps within limits, work slowed only by a slow up-ramp",
          "[power_smoothing]") {
  const double dP = kHigh - kLow;  // 840 W
  PowerSmoothingParams p;
  p.enabled = true;
  p.ramp_down = 2000;  // 40 W per step: a fall takes 21 steps

  SECTION("fast up-ramp: the work never waits, the down-ramp burns filler") {
    p.ramp_up = 1e5;  // 2000 W per step > 840 W
    Run r = runSquare(p, 10);
    SwingMetrics m = swingMetrics(r.P, kDt);
    CHECK(m.max_ramp_up <= p.ramp_up * (1 + 1e-12));
    CHECK(m.max_ramp_down <= p.ramp_down * (1 + 1e-12));
    CHECK(m.max_ramp_down == Approx(p.ramp_down));
    CHECK(r.mean_frac == 1.0);
    CHECK(r.E_deficit == 0.0);
    // filler of one fall: sum_{k=1}^{n} (dP - r dt k) dt = dP^2/(2 r) - dP dt/2 with n = dP/(r dt)
    const double per_fall = dP * dP / (2 * p.ramp_down) - dP * kDt / 2;  // 168 J
    CHECK(per_fall == Approx(168));
    CHECK(r.E_filler == Approx(10 * per_fall).epsilon(1e-12));
    p.ramp_up = 0;  // unlimited
    Run u = runSquare(p, 10);
    CHECK(u.mean_frac == 1.0);
    CHECK(u.E_filler == Approx(10 * per_fall).epsilon(1e-12));
  }
  SECTION("slow up-ramp: power-limited work") {
    p.ramp_up = 4000;  // 80 W per step: a rise takes 10.5 steps
    Run r = runSquare(p, 10);
    SwingMetrics m = swingMetrics(r.P, kDt);
    CHECK(m.max_ramp_up <= p.ramp_up * (1 + 1e-12));
    CHECK(m.max_ramp_up == Approx(p.ramp_up));
    CHECK(m.max_ramp_down <= p.ramp_down * (1 + 1e-12));
    CHECK(r.mean_frac < 1.0);
    CHECK(r.mean_frac > 0.95);
    // deficit of one rise (the first period starts primed at the high level): 10 steps short
    const double per_rise = (10 * dP - 80 * 55) * kDt;  // 80 J
    CHECK(r.E_deficit == Approx(9 * per_rise).epsilon(1e-12));
    for (std::size_t k = 0; k < r.P.size(); ++k) {
      CHECK(r.frac[k] == Approx(std::min(1.0, r.P[k] / r.P_work[k])));
      CHECK(r.filler[k] * (1.0 - r.frac[k]) == 0.0);  // never both
    }
  }
  SECTION("ceiling: the most the next step may draw") {
    PowerSmoothingState s;
    p.ramp_up = 4000;
    CHECK(std::isinf(powerSmoothingCeiling(p, s, kDt)));  // not primed
    smoothPower(p, kLow, kDt, s);
    CHECK(powerSmoothingCeiling(p, s, kDt) == Approx(kLow + 80));
    SmoothedPower sp = smoothPower(p, kHigh, kDt, s);
    CHECK(sp.P == Approx(kLow + 80));
    CHECK(sp.work_fraction == Approx((kLow + 80) / kHigh));
    p.ramp_up = 0;
    CHECK(std::isinf(powerSmoothingCeiling(p, s, kDt)));
  }
}

TEST_CASE("ramp-down hysteresis holds the level for the set time", "[power_smoothing]") {
  PowerSmoothingParams p;
  p.enabled = true;
  p.ramp_down = 2000;
  p.hysteresis = 0.5;  // 25 steps
  Run r = runSquare(p, 4);
  for (int c = 0; c < 4; ++c) {
    const int k0 = c * kPeriod + kPeriod / 2;  // the work drops here
    for (int j = 0; j < 25; ++j) CHECK(r.P[k0 + j] == kHigh);
    for (int j = 1; j <= 21; ++j) CHECK(r.P[k0 + 24 + j] == Approx(kHigh - 40 * j));
    CHECK(r.P[k0 + 46] == Approx(kLow));
    CHECK(r.P[k0 - 1 + kPeriod / 2] == Approx(kLow));
  }
  // filler per fall: the held 0.5 s plus the ramp
  CHECK(r.E_filler == Approx(4 * (0.5 * 840 + 168)).epsilon(1e-12));

  // dips shorter than the hysteresis never reach the grid, and every rise restarts the timer
  PowerSmoothingState s;
  smoothPower(p, kHigh, kDt, s);
  for (int dip = 0; dip < 5; ++dip) {
    for (int j = 0; j < 20; ++j) CHECK(smoothPower(p, kLow, kDt, s).P == kHigh);  // 0.4 s
    CHECK(smoothPower(p, kHigh, kDt, s).P == kHigh);
    CHECK(s.hold == 0.0);
  }
  // a hysteresis that is no multiple of the step: the fall starts inside the step it expires in
  p.hysteresis = 0.51;
  for (int j = 0; j < 25; ++j) CHECK(smoothPower(p, kLow, kDt, s).P == kHigh);
  CHECK(smoothPower(p, kLow, kDt, s).P == Approx(kHigh - 2000 * 0.01));
  CHECK(smoothPower(p, kLow, kDt, s).P == Approx(kHigh - 2000 * 0.03));
}

TEST_CASE("ramp limiter as a power cap: the GPU clock yields, not the work", "[power_smoothing]") {
  GpuParams g;  // B200 as in gpu_test.cpp
  g.P_tdp = 1000;
  g.P_idle = 195;
  g.P_hbm_idle = 27;
  g.f_max = 1965e6;
  g.f_idle = 120e6;
  g.f_membound = 1597e6;
  g.P_sm_max = 1590;
  g.P_hbm_max = 250;
  g.P_nvl_max = 60;
  g.P_leak_ref = 60;
  g.T_maxop = 273.15 + 87;
  g.T_slowdown = 273.15 + 90;
  g.T_shutdown = 273.15 + 92;
  g.T_hbm_max = 273.15 + 95;
  GpuState gs;
  gs.T_j = gs.T_hbm = gs.T_plate = 273.15 + 60;
  PowerSmoothingParams p;
  p.enabled = true;
  p.floor = 0.6 * g.P_tdp;
  p.ramp_up = 5000;  // 100 W per step
  PowerSmoothingState s;
  GpuLoad comm{0.1, 0.2, 0.8}, gemm{1.0, 0.3, 0.0};
  double prev = 0;
  for (int k = 0; k < 40; ++k) {
    const GpuLoad& load = k < 10 ? comm : gemm;
    const double cap = std::min(g.P_tdp, powerSmoothingCeiling(p, s, kDt));
    GpuOperatingPoint op = gpuOperatingPoint(g, cap, load, gs);
    SmoothedPower sp = smoothPower(p, op.P, kDt, s);
    CHECK(sp.work_fraction == Approx(1.0));
    CHECK(sp.P >= p.floor);
    if (k > 0) CHECK(sp.P - prev <= p.ramp_up * kDt + 1e-9);
    if (k == 10) {
      CHECK(op.clock_ratio < 0.5);  // the ramp caps the first GEMM step's clock
      CHECK((op.reasons & kThrottleSwPowerCap) != 0);
    }
    if (k == 39) CHECK(sp.P == Approx(g.P_tdp).margin(1e-6));  // ramp complete, TDP cap again
    prev = sp.P;
  }
}

TEST_CASE("rack storage: peak grid power cut, energy conserved, SOC in bounds",
          "[power_smoothing]") {
  const double P_hi = 100e3, P_lo = 30e3;  // rack square wave 0.3 <-> 1.0 (W)
  auto rack = [&](int k) { return (k % kPeriod) < kPeriod / 2 ? P_hi : P_lo; };

  SECTION("fixed target: analytic shave") {
    StorageParams p;
    p.capacity_J = 100e3;
    p.P_max_W = 25e3;
    p.target_W = 75e3;
    StorageState s;
    s.soc_J = 50e3;
    double E_rack = 0, E_grid = 0, soc_min = 1e300, soc_max = -1;
    std::vector<double> grid;
    for (int k = 0; k < 20 * kPeriod; ++k) {
      const double Pg = gridPower(p, rack(k), kDt, s);
      grid.push_back(Pg);
      E_rack += rack(k) * kDt;
      E_grid += Pg * kDt;
      soc_min = std::min(soc_min, s.soc_J);
      soc_max = std::max(soc_max, s.soc_J);
    }
    SwingMetrics m = swingMetrics(grid, kDt);
    CHECK(m.max == Approx(75e3));  // 25 % lower peak
    CHECK(m.min == Approx(55e3));  // charging at P_max during the low phase
    CHECK(soc_min == Approx(50e3 - 25e3 * 1.5));
    CHECK(soc_max == Approx(50e3));
    CHECK(E_grid == Approx(E_rack + (s.soc_J - 50e3)).epsilon(1e-14));
  }
  SECTION("too small a store empties and the peak returns, within bounds") {
    StorageParams p;
    p.capacity_J = 30e3;
    p.P_max_W = 25e3;
    p.target_W = 75e3;
    StorageState s;
    s.soc_J = 15e3;
    double E_rack = 0, E_grid = 0, peak = 0;
    for (int k = 0; k < 20 * kPeriod; ++k) {
      const double soc0 = s.soc_J;
      const double Pg = gridPower(p, rack(k), kDt, s);
      CHECK(s.soc_J >= 0.0);
      CHECK(s.soc_J <= p.capacity_J);
      CHECK(Pg * kDt == Approx(rack(k) * kDt + (s.soc_J - soc0)).margin(1e-9));
      E_rack += rack(k) * kDt;
      E_grid += Pg * kDt;
      peak = std::max(peak, Pg);
    }
    CHECK(peak == Approx(P_hi));
    CHECK(E_grid == Approx(E_rack + (s.soc_J - 15e3)).epsilon(1e-14));
  }
  SECTION("moving-average target with SOC recovery: GB300-like shave of >= 30 %") {
    StorageParams p;
    p.capacity_J = 200e3;
    p.P_max_W = 40e3;
    p.target_W = 0;
    p.tau = 10;
    p.soc_tau = 60;
    StorageState s;
    s.soc_J = 100e3;
    const int n = 100 * kPeriod;
    double E_rack = 0, E_grid = 0, soc_last = 0;
    std::vector<double> last;
    for (int k = 0; k < n; ++k) {
      const double Pg = gridPower(p, rack(k), kDt, s);
      CHECK(s.soc_J >= 0.0);
      CHECK(s.soc_J <= p.capacity_J);
      E_rack += rack(k) * kDt;
      E_grid += Pg * kDt;
      if (k >= n - kPeriod) {
        last.push_back(Pg);
        soc_last += s.soc_J / kPeriod;
      }
    }
    SwingMetrics m = swingMetrics(last, kDt);
    CHECK(m.max <= 0.7 * P_hi);  // peak demand cut >= 30 % [WL6]
    CHECK(m.mean == Approx(0.5 * (P_hi + P_lo)).epsilon(0.01));
    CHECK(soc_last == Approx(0.5 * p.capacity_J).epsilon(0.1));  // recovered to half
    CHECK(E_grid == Approx(E_rack + (s.soc_J - 100e3)).epsilon(1e-13));
  }
}

TEST_CASE("swing metrics of analytic signals", "[power_smoothing]") {
  const double dt = 0.01;
  SwingMetrics z = swingMetrics(std::span<const double>{}, dt);
  CHECK(z.mean == 0);
  CHECK(z.peak_to_peak == 0);

  std::array<double, 5> c{7, 7, 7, 7, 7};
  SwingMetrics mc = swingMetrics(c, dt);
  CHECK(mc.mean == 7);
  CHECK(mc.peak_to_peak == 0);
  CHECK(mc.rms_ripple == 0);
  CHECK(mc.max_ramp_up == 0);
  CHECK(mc.max_ramp_down == 0);

  // linear ramp P = 100 + 50 t, n samples: rms = b dt sqrt((n^2 - 1)/12)
  const int n = 101;
  std::vector<double> lin(n);
  for (int k = 0; k < n; ++k) lin[k] = 100 + 50 * k * dt;
  SwingMetrics ml = swingMetrics(lin, dt);
  CHECK(ml.mean == Approx(100 + 50 * 0.5));
  CHECK(ml.peak_to_peak == Approx(50));
  CHECK(ml.max_ramp_up == Approx(50));
  CHECK(ml.max_ramp_down == 0);
  CHECK(ml.rms_ripple == Approx(50 * dt * std::sqrt((n * n - 1) / 12.0)));

  // square wave between a and b, equal halves: rms = (b - a)/2, ramps (b - a)/dt
  std::vector<double> sq(400);
  for (int k = 0; k < 400; ++k) sq[k] = (k % 100) < 50 ? 1000 : 300;
  SwingMetrics ms = swingMetrics(sq, dt);
  CHECK(ms.mean == Approx(650));
  CHECK(ms.rms_ripple == Approx(350));
  CHECK(ms.peak_to_peak == Approx(700));
  CHECK(ms.max_ramp_up == Approx(700 / dt));
  CHECK(ms.max_ramp_down == Approx(700 / dt));

  // sine with N samples per period at mid-step phases: rms = A/sqrt 2,
  // max ramp = 2 A sin(w dt/2)/dt
  const int N = 64;
  const double A = 200, w = 2 * std::numbers::pi / (N * dt);
  std::vector<double> si(4 * N);
  for (int k = 0; k < 4 * N; ++k) si[k] = 500 + A * std::sin(w * (k + 0.5) * dt);
  SwingMetrics mw = swingMetrics(si, dt);
  CHECK(mw.mean == Approx(500));
  CHECK(mw.rms_ripple == Approx(A / std::sqrt(2.0)));
  CHECK(mw.max_ramp_up == Approx(2 * A * std::sin(w * dt / 2) / dt));
  CHECK(mw.max_ramp_down == Approx(2 * A * std::sin(w * dt / 2) / dt));
  CHECK(mw.peak_to_peak ==
        Approx(2 * A * std::cos(std::numbers::pi / N)));  // samples straddle the peaks
}
