#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "models/pump.h"

using namespace dctwin;

namespace {
PumpParams quadraticPump() {
  // head ratio 1.5 - 0.5 v^2 sampled finely: the pchip reproduces the parabola closely
  std::vector<double> x, y;
  for (int i = 0; i <= 40; ++i) {
    double v = i / 20.0;
    x.push_back(v);
    y.push_back(1.5 - 0.5 * v * v);
  }
  PumpParams p;
  p.V_rated = 0.01;
  p.dp_rated = 300e3;
  p.curve = Pchip(x, y);
  return p;
}
}  // namespace

TEST_CASE("pump curve against a quadratic system curve: analytic operating point", "[pump]") {
  PumpParams p = quadraticPump();
  // system dp = k V^2 ; pump dp = dp_r (1.5 N^2 - 0.5 (V/(n Vr))^2)
  // => V = N sqrt(1.5 dp_r / (k + 0.5 dp_r / (n Vr)^2))
  const double k = 3e9;
  for (int n : {1, 2, 3})
    for (double N : {0.4, 0.7, 1.0}) {
      double q = n * p.V_rated;
      double V_exact = N * std::sqrt(1.5 * p.dp_rated / (k + 0.5 * p.dp_rated / (q * q)));
      double lo = 0, hi = 1;  // bisection on head - system
      for (int it = 0; it < 200; ++it) {
        double V = 0.5 * (lo + hi);
        (pumpHead(p, n, N, V) - k * V * V > 0 ? lo : hi) = V;
      }
      CHECK(0.5 * (lo + hi) == Approx(V_exact).epsilon(1e-4));
    }
}

TEST_CASE("affinity laws: flow with speed, head with its square, power with its cube", "[pump]") {
  PumpParams p = quadraticPump();
  double V1 = 0.009, dp1 = pumpHead(p, 1, 1.0, V1);
  for (double N : {0.3, 0.6, 0.9}) {
    CHECK(pumpHead(p, 1, N, N * V1) == Approx(N * N * dp1).epsilon(1e-12));
    CHECK(pumpPowerElectric(p, N * V1, N * N * dp1) ==
          Approx(std::pow(N, 3) * pumpPowerElectric(p, V1, dp1)));
  }
  CHECK(pumpHead(p, 1, 0.0, 0.01) == 0.0);
  CHECK(pumpHead(p, 0, 1.0, 0.01) == 0.0);
  // electrical power = V dp / (eta_hyd eta_mot); heat to fluid = V dp / eta_hyd
  CHECK(pumpPowerElectric(p, 0.01, 1e5) == Approx(1e3 / 0.49));
  CHECK(pumpHeatToFluid(p, 0.01, 1e5) == Approx(1e3 / 0.7));
  // slope matches a difference quotient, and the head keeps falling past the curve
  double h = 1e-7;
  CHECK(pumpHeadSlope(p, 2, 0.8, 0.012) ==
        Approx((pumpHead(p, 2, 0.8, 0.012 + h) - pumpHead(p, 2, 0.8, 0.012 - h)) / (2 * h))
            .epsilon(1e-5));
  CHECK(pumpHead(p, 1, 1.0, 0.03) < 0.0);
}
