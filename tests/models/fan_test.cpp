// fan_test.cpp: air-cooled rack fans against the energy balance and the fan laws
// (docs/models/air_rack.md)
#include <catch2/catch.hpp>

#include <cmath>

#include "models/fan.h"

using namespace dctwin;

namespace {
constexpr double kRho = 1.184, kCp = 1006.0;  // air at 25 degC (docs/models/room_air.md)
FanParams switchRack() {
  FanParams f;
  f.V_rated = 1.5;   // m3/s at full speed
  f.P_rated = 900;   // W at full speed
  f.dp_rated = 250;  // Pa at 1.5 m3/s
  f.dT_set = 12;     // K
  f.dp_set = 100;    // Pa
  f.N_min = 0.2;
  return f;
}
}  // namespace

TEST_CASE("fans, delta_t control: energy balance and the fan laws", "[fan]") {
  const FanParams f = switchRack();
  const double P_it = 15e3;
  const FanPoint p = fanOperatingPoint(f, P_it, kRho, kCp);
  // the rise is held, and the air carries IT + fan power exactly
  CHECK(p.dT == Approx(12.0).epsilon(1e-12));
  CHECK(kRho * kCp * p.V * p.dT == Approx(P_it + p.P_fan).epsilon(1e-12));
  // fan laws: airflow with N, power with N^3
  CHECK(p.V == Approx(p.N * f.V_rated).epsilon(1e-14));
  CHECK(p.P_fan == Approx(f.P_rated * std::pow(p.N, 3)).epsilon(1e-14));
  // closed form check: N solves a N = P + P_r N^3 (a = rho cp V_r dT)
  const double a = kRho * kCp * f.V_rated * f.dT_set;
  CHECK(a * p.N == Approx(P_it + f.P_rated * std::pow(p.N, 3)).epsilon(1e-12));
  CHECK(p.N > 0.65);
  CHECK(p.N < 0.75);
  // more heat: faster fans, power up with the cube
  const FanPoint q = fanOperatingPoint(f, 18e3, kRho, kCp);
  CHECK(q.N > p.N);
  CHECK(q.P_fan / p.P_fan == Approx(std::pow(q.N / p.N, 3)).epsilon(1e-12));
  // too much heat for the fans: full speed, the rise above its set point, balance still closes
  const FanPoint r = fanOperatingPoint(f, 40e3, kRho, kCp);
  CHECK(r.N == 1.0);
  CHECK(r.P_fan == Approx(f.P_rated));
  CHECK(r.dT > 12.0);
  CHECK(kRho * kCp * r.V * r.dT == Approx(40e3 + f.P_rated).epsilon(1e-12));
  // idle: minimum speed, a smaller rise
  const FanPoint s = fanOperatingPoint(f, 1e3, kRho, kCp);
  CHECK(s.N == Approx(0.2));
  CHECK(s.dT < 12.0);
}

TEST_CASE("fans, pressure control: speed from the system curve, power by the cube", "[fan]") {
  FanParams f = switchRack();
  f.control = FanParams::Control::Pressure;
  const FanPoint p = fanOperatingPoint(f, 15e3, kRho, kCp);
  // dp = dp_rated N^2 = dp_set
  CHECK(f.dp_rated * p.N * p.N == Approx(f.dp_set).epsilon(1e-14));
  CHECK(p.V == Approx(f.V_rated * std::sqrt(100.0 / 250.0)).epsilon(1e-14));
  CHECK(p.P_fan == Approx(900 * std::pow(100.0 / 250.0, 1.5)).epsilon(1e-12));
  CHECK(kRho * kCp * p.V * p.dT == Approx(15e3 + p.P_fan).epsilon(1e-12));
  // the airflow does not depend on the heat
  CHECK(fanOperatingPoint(f, 5e3, kRho, kCp).V == Approx(p.V));
}
