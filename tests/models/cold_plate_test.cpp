#include <catch2/catch.hpp>

#include <cmath>

#include "models/cold_plate.h"

using namespace dctwin;

TEST_CASE("cold-plate law: R_inf + a V^-b with a finite zero-flow limit", "[cold_plate]") {
  ColdPlateLaw law{0.0179, 0.00653, 1.23};
  CHECK(law.R(1.0 / 60000) == Approx(0.0179 + 0.00653).epsilon(1e-4));
  CHECK(law.R(2.0 / 60000) == Approx(0.0179 + 0.00653 * std::pow(2.0, -1.23)).epsilon(1e-4));
  CHECK(std::isfinite(law.R(0.0)));
  CHECK(law.R(0.0) > 50 * law.R(1.0 / 60000));
}
