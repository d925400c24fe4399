// air_handler_test.cpp: air handlers of the room air against the fan laws, the coil's
// effectiveness law and the chiller curves (docs/models/air_handler.md)
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "models/air_handler.h"

using namespace dctwin;

namespace {
constexpr double kRhoCp = 1.184 * 1006.0;  // air at 25 degC (docs/models/room_air.md)
AirHandlerParams fanWall() {
  AirHandlerParams p;
  p.count = 3;
  p.V_rated = 18600.0 / 3600.0;  // [K136]
  p.P_rated = 2700;              // [K136]
  p.eps_rated = 0.41;
  p.T_chw = 281.15;
  p.T_set = 309.15;
  return p;
}
}  // namespace

TEST_CASE("air handlers at full speed: the rated airflow, the rated fan power, the rated coil",
          "[air_handler]") {
  const AirHandlerParams p = fanWall();
  const AirHandlerPoint a = airHandlerAt(p, 1.0, 309.15, kRhoCp);
  CHECK(a.V == Approx(3 * 18600.0 / 3600.0).epsilon(1e-14));
  CHECK(a.P_fan == Approx(3 * 2700.0).epsilon(1e-14));
  CHECK(a.eps == Approx(0.41).epsilon(1e-12));
  // Q = rho c_p V eps (T_room - T_chw); the supply air leaves eps of the way to the water
  CHECK(a.Q_coil == Approx(kRhoCp * a.V * 0.41 * 28.0).epsilon(1e-12));
  CHECK(a.T_supply_air == Approx(309.15 - 0.41 * 28.0).epsilon(1e-12));
  // the air's own balance: what the coil takes is the air's temperature drop
  CHECK(kRhoCp * a.V * (309.15 - a.T_supply_air) == Approx(a.Q_coil).epsilon(1e-12));
}

TEST_CASE(
    "air handlers at part speed: fan power by the cube of the speed, a slower air stream "
    "cooled closer to the water",
    "[air_handler]") {
  const AirHandlerParams p = fanWall();
  const AirHandlerPoint h = airHandlerAt(p, 0.5, 309.15, kRhoCp);
  CHECK(h.V == Approx(0.5 * 3 * p.V_rated).epsilon(1e-14));
  CHECK(h.P_fan == Approx(3 * 2700.0 / 8).epsilon(1e-14));  // fan laws [K63]
  // NTU ~ y^-0.2: eps(0.5) = 1 - (1 - 0.41)^(0.5^-0.2)
  CHECK(h.eps == Approx(1 - std::pow(0.59, std::pow(0.5, -0.2))).epsilon(1e-12));
  CHECK(h.eps > 0.41);
  CHECK(h.eps < 1);
  // duty rises with speed, less than in proportion
  const AirHandlerPoint f = airHandlerAt(p, 1.0, 309.15, kRhoCp);
  CHECK(h.Q_coil < f.Q_coil);
  CHECK(h.Q_coil > 0.5 * f.Q_coil);
  // a coil cools, never heats; no air, no heat
  CHECK(airHandlerAt(p, 1.0, 280.0, kRhoCp).Q_coil == 0);
  CHECK(airHandlerAt(p, 0.0, 309.15, kRhoCp).Q_coil == 0);
  CHECK(airHandlerAt(p, 0.0, 309.15, kRhoCp).P_fan == 0);
}

TEST_CASE(
    "the chilled water: the chiller's EIR power at the coil duty, its condenser heat into "
    "the facility water, none where the facility water is cold enough",
    "[air_handler]") {
  AirHandlerParams p = fanWall();
  p.chiller.Q_ref = 200e3;
  const double Q = 120e3, T_fws = 305.15;  // W32
  const AirHandlerWater w = airHandlerWater(p, Q, T_fws);
  const ChillerPoint c = chillerAt(p.chiller, 1, Q, p.T_chw, T_fws);
  CHECK(w.P_chiller == Approx(c.P).epsilon(1e-12));
  CHECK(w.PLR == Approx(c.PLR).epsilon(1e-12));
  CHECK(w.Q_water == Approx(Q + c.P).epsilon(1e-12));  // the facility water takes it all
  const double cop = Q / w.P_chiller;
  CHECK(cop > 3);
  CHECK(cop < 8);
  // a colder condenser: a better COP
  CHECK(airHandlerWater(p, Q, 295.15).P_chiller < w.P_chiller);
  // facility water at or below the chilled water: the coil takes it directly, no chiller
  const AirHandlerWater e = airHandlerWater(p, Q, p.T_chw - 1);
  CHECK(e.P_chiller == 0);
  CHECK(e.Q_water == Q);
}

TEST_CASE("air handlers: bad parameters are refused with the value", "[air_handler]") {
  AirHandlerParams p = fanWall();
  CHECK_NOTHROW(checkAirHandler(p));
  p.count = 0;
  CHECK_THROWS_WITH(checkAirHandler(p), Catch::Contains("count"));
  p = fanWall();
  p.eps_rated = 1.0;
  CHECK_THROWS_AS(checkAirHandler(p), std::invalid_argument);
  CHECK_THROWS_AS(coilEffectiveness(1.2, 0.5), std::invalid_argument);
  p = fanWall();
  p.T_set = p.T_chw + 0.5;
  CHECK_THROWS_WITH(checkAirHandler(p), Catch::Contains("chilled water"));
}
