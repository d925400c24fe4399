#include <catch2/catch.hpp>

#include <cmath>

#include "models/fluid.h"

namespace {
dctwin::Fluid waterLike() {
  dctwin::FluidData d;
  d.name = "test";
  d.T = {273.15, 293.15, 313.15, 333.15};
  d.rho = {999.8, 998.2, 992.2, 983.2};
  d.cp = {4219, 4184, 4179, 4185};
  d.mu = {1.79e-3, 1.0e-3, 0.653e-3, 0.467e-3};
  d.k = {0.56, 0.598, 0.628, 0.651};
  d.T_min = 273.15;
  d.T_max = 373.15;
  return dctwin::Fluid(d);
}
}  // namespace

TEST_CASE("enthalpy is the exact integral of the specific heat", "[fluid]") {
  auto f = waterLike();
  // trapezoid with many sub-intervals converges to the piecewise-quadratic h
  double a = 280.0, b = 330.0, sum = 0.0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    double t0 = a + (b - a) * i / n, t1 = a + (b - a) * (i + 1) / n;
    sum += 0.5 * (f.cp(t0) + f.cp(t1)) * (t1 - t0);
  }
  CHECK(f.h(b) - f.h(a) == Approx(sum).epsilon(1e-9));
  for (double T : {275.0, 300.0, 320.5, 345.0}) CHECK(f.T_of_h(f.h(T)) == Approx(T).epsilon(1e-13));
}

TEST_CASE("viscosity interpolates log-linearly and stays positive", "[fluid]") {
  auto f = waterLike();
  CHECK(f.mu(293.15) == Approx(1.0e-3));
  CHECK(f.mu(303.15) == Approx(std::sqrt(1.0e-3 * 0.653e-3)).epsilon(1e-12));
  CHECK(f.mu(400.0) > 0.0);
  CHECK(f.Pr(293.15) == Approx(4184 * 1.0e-3 / 0.598));
}

TEST_CASE("fluid tables are validated", "[fluid]") {
  dctwin::FluidData d;
  d.name = "bad";
  d.T = {300, 290};
  d.rho = d.cp = d.mu = d.k = {1, 1};
  CHECK_THROWS_AS(dctwin::Fluid(d), std::invalid_argument);
}
