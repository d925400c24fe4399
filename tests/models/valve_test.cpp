#include <catch2/catch.hpp>

#include <cmath>

#include "models/valve.h"

using namespace dctwin;

TEST_CASE("equal-percentage characteristic: each 10 % of stroke multiplies flow by R^0.1",
          "[valve]") {
  const double R = 50, l = 1e-4;
  CHECK(equalPercentage(1.0, R, l) == Approx(1.0));
  for (double y = 0.1; y < 0.95; y += 0.1)
    CHECK(equalPercentage(y + 0.1, R, l) / equalPercentage(y, R, l) == Approx(std::pow(R, 0.1)));
  CHECK(equalPercentage(0.0, R, l) == Approx(l));
  double prev = -1;
  for (double y = 0; y <= 1.0; y += 1e-3) {
    REQUIRE(equalPercentage(y, R, l) > prev);
    prev = equalPercentage(y, R, l);
  }
}

TEST_CASE("Kv: IEC 60534 definition and the quadratic law", "[valve]") {
  // 10 m3/h of water at 1 bar -> Kv 10
  CHECK(kvFromNominal(10.0 / 3600, 1e5, 1000.0) == Approx(10.0));
  // dp = c m^2 gives 1 bar at Kv m3/h of water
  double c = valveQuadraticCoefficient(10.0, 1000.0);
  double m = 10.0 / 3600 * 1000.0;
  CHECK(c * m * m == Approx(1e5));
  CHECK(actuatorTimeConstant(120) == Approx(24));
}
