#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "models/pipe.h"

using namespace dctwin;

namespace {
Fluid constantFluid() {
  FluidData d;
  d.name = "const";
  d.T = {250, 400};
  d.rho = {1000, 1000};
  d.cp = {4000, 4000};
  d.mu = {1e-3, 1e-3};
  d.k = {0.6, 0.6};
  d.T_min = 250;
  d.T_max = 400;
  return Fluid(d);
}
}  // namespace

TEST_CASE("transport delay: a step through n volumes is the tanks-in-series response", "[pipe]") {
  Fluid f = constantFluid();
  const int n = 20;
  const double V = 0.5, Vdot = 0.01, rho = 1000, tau = V / Vdot;  // 50 s
  const double m = rho * Vdot, M_seg = rho * V / n;
  std::vector<double> T(n, 300.0), k1(n), k2(n), k3(n), k4(n), tmp(n);
  const double T_in = 310.0, dt = 0.01;
  double t = 0;
  auto rhs = [&](const std::vector<double>& x, std::vector<double>& d) {
    pipeSegmentsRhs(f, m, M_seg, 0.0, 298.15, T_in, x.data(), d.data(), n);
  };
  double t_half = -1;
  while (t < 3 * tau) {
    rhs(T, k1);
    for (int i = 0; i < n; ++i) tmp[i] = T[i] + 0.5 * dt * k1[i];
    rhs(tmp, k2);
    for (int i = 0; i < n; ++i) tmp[i] = T[i] + 0.5 * dt * k2[i];
    rhs(tmp, k3);
    for (int i = 0; i < n; ++i) tmp[i] = T[i] + dt * k3[i];
    rhs(tmp, k4);
    for (int i = 0; i < n; ++i) T[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    t += dt;
    if (t_half < 0 && T[n - 1] >= 305.0) t_half = t;
    if (std::abs(std::fmod(t, 10.0)) < dt / 2 || std::abs(std::fmod(t, 10.0) - 10.0) < dt / 2) {
      // Erlang CDF: 1 - exp(-x) sum_{k<n} x^k/k!,  x = n t / tau
      double x = n * t / tau, term = 1, sum = 0;
      for (int k = 0; k < n; ++k) sum += term, term *= x / (k + 1);
      double analytic = 300.0 + 10.0 * (1.0 - std::exp(-x) * sum);
      CHECK(T[n - 1] == Approx(analytic).margin(1e-6));
    }
  }
  // the outlet crosses half the step near the plug-flow delay V/Vdot (median of Erlang(n))
  CHECK(t_half == Approx(tau * (n - 1.0 / 3.0) / n).epsilon(0.01));
}

TEST_CASE("pipe heat loss to ambient is reported and cools the flow", "[pipe]") {
  Fluid f = constantFluid();
  double T[3] = {320, 320, 320}, d[3];
  double loss = pipeSegmentsRhs(f, 1.0, 10.0, 5.0, 300.0, 320.0, T, d, 3);
  CHECK(loss == Approx(3 * 5.0 * 20.0));
  for (double v : d) CHECK(v == Approx(-5.0 * 20.0 / (10.0 * 4000)));
}
