// actuator_test.cpp: rate-limited and lagged actuators against their exact solutions
// (docs/models/actuator.md)
#include <catch2/catch.hpp>

#include <cmath>

#include "models/actuator.h"

using namespace dctwin;

namespace {
// classical RK4 of dy/dt = actuatorRate(a, u, y) from y0 over [0, t_end]
double integrate(const ActuatorParams& a, double u, double y0, double t_end, double dt) {
  double y = y0;
  const int n = int(std::lround(t_end / dt));
  for (int i = 0; i < n; ++i) {
    const double k1 = actuatorRate(a, u, y), k2 = actuatorRate(a, u, y + 0.5 * dt * k1),
                 k3 = actuatorRate(a, u, y + 0.5 * dt * k2), k4 = actuatorRate(a, u, y + dt * k3);
    y += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return y;
}
// exact: the ramp y0 + r t until u - y = r T_f, then u - r T_f exp(-(t - t_k) / T_f)
double exactRate(double u, double y0, double r, double Tf, double t) {
  const double t_k = (u - y0 - r * Tf) / r;
  return t <= t_k ? y0 + r * t : u - r * Tf * std::exp(-(t - t_k) / Tf);
}
}  // namespace

TEST_CASE("rate-limited actuator follows its exact ramp", "[actuator]") {
  // a 120 s stroke without a filter: full stroke 0 -> 1 at 1/120 per second; the regularization
  // T_f = 1e-3 stroke takes over only in the last 1e-3 of the stroke
  const ActuatorParams a = makeActuator(true, 120.0, 0.0);
  const double Tf = kRateSmoothing * 120.0;
  for (double t : {10.0, 60.0, 119.0, 119.88, 120.0, 121.0}) {
    INFO("t = " << t);
    CHECK(integrate(a, 1.0, 0.0, t, 1e-3) ==
          Approx(exactRate(1.0, 0.0, 1.0 / 120, Tf, t)).margin(1e-7));
  }
  // half-way at half the stroke time, 99.9 % at the stroke time, exactly
  CHECK(integrate(a, 1.0, 0.0, 60.0, 1e-3) == Approx(0.5).margin(1e-12));
  CHECK(integrate(a, 1.0, 0.0, 120.0, 1e-3) == Approx(1.0 - 1e-3 * std::exp(-1.0)).margin(1e-7));
  // closing runs at the same rate
  CHECK(integrate(a, 0.0, 1.0, 30.0, 1e-3) == Approx(0.75).margin(1e-12));
}

TEST_CASE("rate-limited actuator with a first-order filter", "[actuator]") {
  // 60 s stroke, 5 s filter: the ramp until u - y = 5/60, then first order with 5 s
  const ActuatorParams a = makeActuator(true, 60.0, 5.0);
  for (double t : {5.0, 30.0, 50.0, 55.0, 60.0, 80.0}) {
    INFO("t = " << t);
    CHECK(integrate(a, 0.9, 0.1, t, 1e-3) ==
          Approx(exactRate(0.9, 0.1, 1.0 / 60, 5.0, t)).margin(1e-8));
  }
  // a small step stays inside the rate limit: pure first order
  CHECK(integrate(a, 0.52, 0.5, 5.0, 1e-3) == Approx(0.52 - 0.02 * std::exp(-1.0)).margin(1e-9));
}

TEST_CASE("lagged actuator: tau = stroke / 5, 99.3 % of a step in the stroke time", "[actuator]") {
  const ActuatorParams a = makeActuator(false, 120.0, 0.0);
  CHECK(a.tau == Approx(24.0));
  CHECK(integrate(a, 1.0, 0.0, 120.0, 1e-3) == Approx(1.0 - std::exp(-5.0)).margin(1e-9));
}
