#include <catch2/catch.hpp>

#include <cmath>

#include "models/controller.h"

using namespace dctwin;

TEST_CASE("PI on a first-order plant: closed-loop response matches the analytic solution",
          "[controller]") {
  // plant tau dx/dt = u - x, PI with Ti = tau cancels the pole: x(t) = r (1 - exp(-k t / tau))
  const double tau = 20, k = 0.5, r = 0.6;
  PIParams p{k, tau, 0, -10, 10};
  double x = 0, I = 0, t = 0, dt = 1e-3;
  while (t < 60) {
    double e = r - x;
    double u = piOutput(p, e, I);
    // RK2 (midpoint) on the two states
    double dx1 = (u - x) / tau, dI1 = piStateDerivative(p, e, I);
    double xm = x + 0.5 * dt * dx1, Im = I + 0.5 * dt * dI1, em = r - xm;
    double um = piOutput(p, em, Im);
    x += dt * (um - xm) / tau;
    I += dt * piStateDerivative(p, em, Im);
    t += dt;
    if (std::abs(t - 20) < dt / 2 || std::abs(t - 50) < dt / 2)
      CHECK(x == Approx(r * (1 - std::exp(-k * t / tau))).epsilon(1e-4));
  }
}

TEST_CASE("PI anti-windup: the integrator stops at saturation and recovers at once",
          "[controller]") {
  PIParams p{0.5, 15, 0, 0.15, 1.0};
  double I = 0;
  // a large error held for a long time: without anti-windup I would grow to 1e4
  for (int i = 0; i < 10000; ++i) I += 0.1 * piStateDerivative(p, 1.0, I);
  CHECK(piOutput(p, 1.0, I) == Approx(1.0));
  // back-calculation equilibrium: u - u_max = k Tt e / Ti
  CHECK(piOutputUnsat(p, 1.0, I) - 1.0 == Approx(0.5).epsilon(1e-3));
  // when the error flips sign the output leaves saturation within about one Ti
  double t = 0;
  while (piOutput(p, -0.2, I) >= 1.0 && t < 1000)
    I += 0.1 * piStateDerivative(p, -0.2, I), t += 0.1;
  CHECK(t < 30);
  CHECK(piStateFor(p, 0.4, 0.1) == Approx((0.4 / 0.5 - 0.1) * 15));
}
