#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "models/cold_plate.h"

using namespace dctwin;

TEST_CASE("cold-plate law: R_inf + a V^-b with a finite zero-flow limit", "[cold_plate]") {
  ColdPlateLaw law = coldPlateFit(0.0179, 0.00653, 1.23);
  CHECK(law.R(1.0 / 60000) == Approx(0.0179 + 0.00653).epsilon(1e-4));
  CHECK(law.R(2.0 / 60000) == Approx(0.0179 + 0.00653 * std::pow(2.0, -1.23)).epsilon(1e-4));
  CHECK(std::isfinite(law.R(0.0)));
  CHECK(law.R(0.0) > 50 * law.R(1.0 / 60000));
}

TEST_CASE("cold plate from a table reproduces the table points, monotone between them",
          "[cold_plate]") {
  // the OCP 1 kW OAM plate with PG25, Fig. 7 [K39] (data/catalog/coldplates/ocp_1kw_oam.yaml)
  const std::vector<double> Lmin{0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
                                 1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4};
  const std::vector<double> R{0.0389, 0.0325, 0.0300, 0.0280, 0.0265, 0.0255, 0.0245,
                              0.0230, 0.0220, 0.0214, 0.0209, 0.0204, 0.0200, 0.0197};
  std::vector<double> V;
  for (double v : Lmin) V.push_back(v / 60000);
  const ColdPlateLaw law = coldPlateTable(V, R);
  // every point, to round-off
  for (std::size_t i = 0; i < V.size(); ++i) CHECK(law.R(V[i]) == Approx(R[i]).epsilon(1e-12));
  // monotone between the points and beyond them: R falls as the flow rises
  double last = law.R(0.05 / 60000);
  for (double v = 0.06; v < 5.0; v += 0.01) {
    const double r = law.R(v / 60000);
    REQUIRE(r <= last + 1e-15);
    last = r;
  }
  // beyond the ends a power law from the end slope: finite and positive, and large at no flow
  CHECK(law.R(10.0 / 60000) > 0);
  CHECK(law.R(10.0 / 60000) < R.back());
  CHECK(std::isfinite(law.R(0.0)));
  CHECK(law.R(0.0) > 10 * R.front());
  // what a table must be
  CHECK_THROWS(coldPlateTable(std::vector<double>{1e-5}, std::vector<double>{0.02}));
  CHECK_THROWS(coldPlateTable(std::vector<double>{2e-5, 1e-5}, std::vector<double>{0.02, 0.03}));
  CHECK_THROWS(coldPlateTable(std::vector<double>{1e-5, 2e-5}, std::vector<double>{0.02, 0.03}));
  CHECK_THROWS(coldPlateTable(std::vector<double>{-1e-5, 2e-5}, std::vector<double>{0.03, 0.02}));
}
