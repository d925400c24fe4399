#include <catch2/catch.hpp>

#include <cmath>

#include "models/psychro.h"

using namespace dctwin;
using namespace dctwin::psychro;

TEST_CASE("saturation pressure matches the ASHRAE 2017 table", "[psychro]") {
  // ASHRAE Handbook--Fundamentals 2017 ch. 1 table 3: 20 degC 2.3392 kPa, 40 degC 7.3851 kPa,
  // 0.01 degC 0.61165 kPa (water), -10 degC 0.25987 kPa (ice)
  CHECK(saturationPressure(293.15) == Approx(2339.2).epsilon(5e-4));
  CHECK(saturationPressure(313.15) == Approx(7385.1).epsilon(5e-4));
  CHECK(saturationPressure(273.16) == Approx(611.65).epsilon(5e-4));
  CHECK(saturationPressure(263.15) == Approx(259.87).epsilon(1e-3));
  for (double T : {250.0, 280.0, 300.0, 330.0})
    CHECK(dewPoint(saturationPressure(T)) == Approx(T).margin(1e-6));
}

TEST_CASE("wet bulb: ASHRAE example, saturation limit and the balance it solves", "[psychro]") {
  // ASHRAE 2017 ch. 1, example 2: 30 degC dry bulb, 20 degC wet bulb, 101.325 kPa -> W = 0.01065;
  // the tables include the enhancement factor (~1.004) that these relations (and PsychroLib)
  // leave out, worth ~0.1 K here
  CHECK(wetBulb(303.15, 0.01065, kPatm) == Approx(293.15).margin(0.15));
  // saturated air: wet bulb = dry bulb = dew point
  for (double T : {278.15, 298.15, 313.15})
    CHECK(wetBulbFromRH(T, 1.0, kPatm) == Approx(T).margin(1e-4));
  // dry air lies below, and the wet bulb rises with humidity
  CHECK(wetBulbFromRH(308.15, 0.2, kPatm) < wetBulbFromRH(308.15, 0.5, kPatm));
  // lower pressure (altitude) lowers the wet bulb of the same RH
  CHECK(wetBulbFromRH(308.15, 0.3, pressureAtElevation(1600)) < wetBulbFromRH(308.15, 0.3, kPatm));
}

TEST_CASE("wet bulb agrees with Stull (2011) within its stated error", "[psychro]") {
  // Stull: -1 ... +0.65 K over 5-99 % RH and -20 ... 50 degC at sea level (mean |e| < 0.3 K)
  double sum = 0;
  int n = 0;
  for (double t = 10; t <= 45; t += 5)
    for (double rh = 10; rh <= 99; rh += 10) {
      const double exact = wetBulbFromRH(t + 273.15, rh / 100, kPatm) - 273.15;
      const double e = wetBulbStull(t, rh) - exact;
      CHECK(e > -1.05);
      CHECK(e < 1.05);
      sum += std::abs(e), ++n;
    }
  CHECK(sum / n < 0.4);
}

TEST_CASE("enthalpy, humidity ratio and the standard atmosphere", "[psychro]") {
  // dry air at 0 degC: h = 0; W of saturated air at 20 degC, sea level: 0.014758 (ASHRAE table 2,
  // with the enhancement factor; without it 0.4 % less)
  CHECK(enthalpy(273.15, 0.0) == Approx(0.0).margin(1e-9));
  CHECK(saturationHumidityRatio(293.15, kPatm) == Approx(0.014758).epsilon(6e-3));
  CHECK(vaporPressure(humidityRatio(1500, kPatm), kPatm) == Approx(1500));
  CHECK(saturationTemperature(saturationEnthalpy(300.0, kPatm), kPatm) ==
        Approx(300.0).margin(1e-6));
  // ASHRAE 2017 ch. 1 table 1: 1000 m -> 89.875 kPa
  CHECK(pressureAtElevation(1000) == Approx(89875).epsilon(5e-4));
  CHECK(pressureAtElevation(0) == Approx(kPatm));
}
