#include <catch2/catch.hpp>

#include <cmath>

#include "models/gpu.h"

using namespace dctwin;

namespace {
// B200 as calibrated in data/catalog/gpus/b200.yaml against the measured envelope [K4]
GpuParams b200() {
  GpuParams p;
  p.name = "b200";
  p.P_tdp = 1000;
  p.P_limit_min = 200;
  p.P_limit_max = 1000;
  p.P_idle = 195;
  p.P_hbm_idle = 27;
  p.f_max = 1965e6;
  p.f_idle = 120e6;
  p.f_membound = 1597e6;
  p.P_sm_max = 1590;
  p.P_hbm_max = 250;
  p.P_nvl_max = 60;
  p.v0 = 0.65;
  p.P_leak_ref = 60;
  p.beta = 0.02;
  p.T_maxop = 273.15 + 87;
  p.T_slowdown = 273.15 + 90;
  p.T_shutdown = 273.15 + 92;
  p.T_hbm_max = 273.15 + 95;
  p.R_jc = 0.012;
  p.C_die = 40;
  p.R_hbm = 0.15;
  p.C_hbm = 12;
  return p;
}
GpuState at(double T_c) {
  GpuState s;
  s.T_j = s.T_hbm = s.T_plate = 273.15 + T_c;
  return s;
}
}  // namespace

TEST_CASE("B200 published points: idle, power-capped GEMM, memory-bound plateau", "[gpu]") {
  GpuParams p = b200();
  GpuState s = at(35);
  GpuOperatingPoint idle = gpuOperatingPoint(p, 1000, GpuLoad{}, s);
  CHECK(idle.P == Approx(195).margin(9));  // 187-204 W at 120 MHz [K4]
  CHECK(idle.clock_ratio * p.f_max == Approx(120e6));
  CHECK(idle.reasons == kThrottleIdle);

  s = at(65);  // a working junction
  GpuOperatingPoint gemm = gpuOperatingPoint(p, 1000, GpuLoad{1.0, 0.3, 0.0}, s);
  CHECK(gemm.P == Approx(1000).margin(1e-6));  // at the cap (988 W measured)
  CHECK(gemm.clock_ratio >= 0.55);             // 55-62 % of the 1965 MHz boost [K4]
  CHECK(gemm.clock_ratio <= 0.62);
  CHECK((gemm.reasons & kThrottleSwPowerCap) != 0);

  GpuLoad mem{0.15, 1.0, 0.0, true};
  GpuOperatingPoint mb = gpuOperatingPoint(p, 1000, mem, s);
  CHECK(mb.clock_ratio * p.f_max == Approx(1597e6));  // parked at 1597 MHz [K4]
  CHECK(mb.P >= 628);                                 // 628-686 W [K4]
  CHECK(mb.P <= 686);
  CHECK((mb.reasons & kThrottleSwPowerCap) == 0);  // the cap never bites [WL36]
  // a lower cap moves the GEMM clock down, never the power above the cap
  GpuOperatingPoint capped = gpuOperatingPoint(p, 700, GpuLoad{1.0, 0.3, 0.0}, s);
  CHECK(capped.P == Approx(700).margin(1e-6));
  CHECK(capped.clock_ratio < gemm.clock_ratio);
}

TEST_CASE("leakage rises exponentially with junction temperature", "[gpu]") {
  GpuParams p = b200();
  double P35 = gpuStaticPower(p, 308.15), P70 = gpuStaticPower(p, 343.15);
  CHECK(P35 == Approx(p.P_idle));
  CHECK(P70 - (p.P_idle - p.P_leak_ref) == Approx(p.P_leak_ref * std::exp(0.02 * 35)));
  // hotter GPU at the same cap runs a lower clock (the MI300X observation [K4])
  GpuState cool = at(50), hot = at(80);
  GpuLoad gemm{1.0, 0.3, 0.0};
  CHECK(gpuOperatingPoint(p, 1000, gemm, hot).clock_ratio <
        gpuOperatingPoint(p, 1000, gemm, cool).clock_ratio);
}

TEST_CASE("throttle thresholds: SW thermal, HW slowdown with release, latched shutdown", "[gpu]") {
  GpuParams p = b200();
  GpuLoad load{0.6, 0.3, 0.0};
  GpuState s = at(86.9);
  GpuOperatingPoint op = gpuOperatingPoint(p, 2000, load, s);
  CHECK((op.reasons & kThrottleSwThermal) == 0);
  CHECK(op.clock_ratio == Approx(1.0));
  s = at(88.5);  // between max-op and slowdown: SW thermal walks the clock down
  op = gpuOperatingPoint(p, 2000, load, s);
  CHECK((op.reasons & kThrottleSwThermal) != 0);
  CHECK(op.clock_ratio < 0.6);
  CHECK(op.clock_ratio > 0.4);
  s = at(90.0);  // HW slowdown: at least a factor 2 [K4]
  op = gpuOperatingPoint(p, 2000, load, s);
  CHECK((op.reasons & (kThrottleHwThermal | kThrottleHwSlowdown)) ==
        (kThrottleHwThermal | kThrottleHwSlowdown));
  CHECK(s.hw_slowdown);
  s.T_j = 273.15 + 88.5;  // still inside the 2 K release band
  op = gpuOperatingPoint(p, 2000, load, s);
  CHECK(s.hw_slowdown);
  s.T_j = 273.15 + 87.5;
  op = gpuOperatingPoint(p, 2000, load, s);
  CHECK_FALSE(s.hw_slowdown);
  // HBM over-temperature alone also triggers the HW slowdown
  s = at(60);
  s.T_hbm = 273.15 + 95.5;
  op = gpuOperatingPoint(p, 2000, load, s);
  CHECK((op.reasons & kThrottleHwThermal) != 0);
  // power brake halves the clock
  s = at(60);
  GpuLoad braked = load;
  braked.brake = true;
  op = gpuOperatingPoint(p, 2000, braked, s);
  CHECK(op.clock_ratio == Approx(0.5));
  CHECK((op.reasons & kThrottlePowerBrake) != 0);
  // shutdown at 92 degC: off and latched even after cooling
  s = at(92.0);
  op = gpuOperatingPoint(p, 2000, load, s);
  CHECK(op.P == 0.0);
  CHECK(s.shut_down);
  s = at(40);
  s.shut_down = true;
  CHECK(gpuOperatingPoint(p, 2000, load, s).P == 0.0);
}

TEST_CASE("GPU thermal step: steady state, plate RC response, energy and convergence", "[gpu]") {
  GpuParams p = b200();
  GpuPlate plate{0.021, 95.0};
  GpuOperatingPoint op;
  op.P = 1000;
  op.P_hbm = 100;
  const double T_in = 273.15 + 36;
  // steady state: T_p = T_in + P R_cp, T_j = T_p + P_die R_jc, T_hbm = T_p + P_hbm R_hbm
  GpuState s = at(36);
  for (int i = 0; i < 20000; ++i) gpuThermalStep(p, plate, T_in, op, 0.05, s);
  CHECK(s.T_plate == Approx(T_in + 1000 * 0.021).margin(1e-6));
  CHECK(s.T_j == Approx(s.T_plate + 900 * 0.012).margin(1e-6));
  CHECK(s.T_hbm == Approx(s.T_plate + 100 * 0.15).margin(1e-6));

  // energy: sum of C dT = P dt - heat to coolant, exactly, step by step
  GpuState e = at(36);
  double in = 0, out = 0;
  for (int i = 0; i < 300; ++i) {
    out += 0.01 * gpuThermalStep(p, plate, T_in, op, 0.01, e);
    in += 0.01 * op.P;
  }
  CHECK(gpuStoredEnergy(p, plate, e, T_in) == Approx(in - out).epsilon(1e-12));

  // with negligible die and HBM capacities the plate is one RC node: T_p = T_in + PR(1 - e^-t/RC)
  GpuParams q = p;
  q.C_die = q.C_hbm = 1e-9;
  auto errAt = [&](double dt) {
    GpuState r = at(36);
    double t = 0;
    while (t < 2.0 - 1e-12) gpuThermalStep(q, plate, T_in, op, dt, r), t += dt;
    double exact = T_in + 1000 * 0.021 * (1 - std::exp(-2.0 / (0.021 * 95.0)));
    return std::abs(r.T_plate - exact);
  };
  double e1 = errAt(0.02), e2 = errAt(0.01);
  CHECK(e1 < 0.1);
  CHECK(std::log2(e1 / e2) == Approx(1.0).margin(0.1));  // backward Euler: first order
}

TEST_CASE("voltage floor, clock power and a held GPU", "[gpu]") {
  GpuParams p = b200();
  p.v0 = 0.02;
  p.v_floor = 0.68;
  p.P_clk = 44;
  // below the knee the voltage sits on the floor: x v^2 is linear in x
  const double knee = (p.v_floor - p.v0) / (1 - p.v0);
  CHECK(gpuVoltageRatio(p, 0.5 * knee) == Approx(p.v_floor));
  CHECK(gpuVoltageRatio(p, 1.0) == Approx(1.0));
  GpuLoad work{1.0, 0.3, 0.0};
  const double T = 273.15 + 50;
  const double p1 = gpuPower(p, 0.2, T, work), p2 = gpuPower(p, 0.4, T, work),
               p3 = gpuPower(p, 0.6, T, work);
  CHECK(p3 - p2 == Approx(p2 - p1));
  // the clock power vanishes at the idle clock, so P_idle keeps its meaning
  GpuState s = at(35);
  GpuOperatingPoint free = gpuOperatingPoint(p, 1000, GpuLoad{}, s);
  CHECK(free.P == Approx(p.P_idle));
  CHECK(free.reasons == kThrottleIdle);
  // held: boost clock, no idle bit, P_idle + P_clk (1 - x_i v_i^2)
  GpuLoad held;
  held.held = true;
  GpuOperatingPoint h = gpuOperatingPoint(p, 1000, held, s);
  CHECK(h.clock_ratio == 1.0);
  CHECK(h.reasons == 0u);
  const double xi = p.f_idle / p.f_max;
  CHECK(h.P == Approx(p.P_idle + p.P_clk * (1 - xi * std::pow(p.v_floor, 2))));
  // the cap is met exactly on either side of the knee
  for (double cap : {400.0, 700.0, 1000.0}) {
    s = at(60);
    GpuOperatingPoint op = gpuOperatingPoint(p, cap, work, s);
    CHECK(op.P == Approx(cap).margin(1e-6));
    CHECK(op.reasons == kThrottleSwPowerCap);
  }
}
