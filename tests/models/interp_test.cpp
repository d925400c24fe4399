#include <catch2/catch.hpp>

#include <vector>

#include "models/interp.h"

using dctwin::LinearTable;
using dctwin::Pchip;

TEST_CASE("pchip passes through its knots and keeps monotone data monotone", "[interp]") {
  std::vector<double> x{0, 0.25, 0.5, 0.75, 1.0};
  std::vector<double> y{3.846, 3.676, 3.231, 2.538, 1.0};
  Pchip p(x, y);
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(p(x[i]) == Approx(y[i]).epsilon(1e-14));
  double prev = p(-0.1);
  for (double v = -0.1; v <= 1.5; v += 0.001) {
    REQUIRE(p(v) <= prev + 1e-12);
    REQUIRE(p.slope(v) <= 0.0);
    prev = p(v);
  }
  // linear beyond the last knot with the end slope
  CHECK(p(1.2) == Approx(1.0 + 0.2 * p.slope(1.0)));
}

TEST_CASE("pchip slope agrees with a difference quotient", "[interp]") {
  std::vector<double> x{0, 1, 2, 4};
  std::vector<double> y{0, 1, 4, 16};
  Pchip p(x, y);
  for (double v : {0.3, 1.5, 2.7, 3.9}) {
    double h = 1e-6;
    CHECK(p.slope(v) == Approx((p(v + h) - p(v - h)) / (2 * h)).epsilon(1e-6));
  }
}

TEST_CASE("interpolants reject malformed knots", "[interp]") {
  std::vector<double> x{0, 1, 1}, y{0, 1, 2};
  CHECK_THROWS_AS(Pchip(x, y), std::invalid_argument);
  CHECK_THROWS_AS(LinearTable(std::vector<double>{0}, std::vector<double>{1}),
                  std::invalid_argument);
  LinearTable t(std::vector<double>{0, 2}, std::vector<double>{1, 5});
  CHECK(t(1) == Approx(3));
  CHECK(t(3) == Approx(7));
}
