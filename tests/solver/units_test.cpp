// units_test.cpp: parseQuantity, every unit, wrong dimensions and bad numbers
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "solver/common/units.h"

using namespace dctwin;

namespace {
struct Case {
  const char* text;
  Dim dim;
  double si;
};

// value of a quantity that must parse
double si(const std::string& text, Dim dim) {
  std::string why;
  auto q = parseQuantity(text, dim, &why);
  INFO(text << ": " << why);
  REQUIRE(q.has_value());
  return q->value;
}

// the reason a quantity does not parse
std::string why(const std::string& text, Dim dim) {
  std::string w;
  auto q = parseQuantity(text, dim, &w);
  INFO(text);
  REQUIRE_FALSE(q.has_value());
  CHECK_FALSE(w.empty());
  return w;
}
}  // namespace

TEST_CASE("every unit converts to SI", "[units]") {
  const double gal = 3.785411784e-3, psi = 6894.757293168;
  const std::vector<Case> cases{
      {"32 degC", Dim::Temperature, 305.15},
      {"32 °C", Dim::Temperature, 305.15},
      {"32 C", Dim::Temperature, 305.15},
      {"305.15 K", Dim::Temperature, 305.15},
      {"-40 degC", Dim::Temperature, 233.15},
      {"4 K", Dim::TemperatureDiff, 4.0},
      {"4 degC", Dim::TemperatureDiff, 4.0},  // a difference: no offset
      {"120 W", Dim::Power, 120.0},
      {"120 kW", Dim::Power, 120e3},
      {"1.5 MW", Dim::Power, 1.5e6},
      {"1200 L/min", Dim::VolumeFlow, 0.02},
      {"1200 LPM", Dim::VolumeFlow, 0.02},
      {"2 L/s", Dim::VolumeFlow, 2e-3},
      {"0.5 m3/s", Dim::VolumeFlow, 0.5},
      {"36 m3/h", Dim::VolumeFlow, 0.01},
      {"100 gpm", Dim::VolumeFlow, 100 * gal / 60},
      {"20.6 kg/s", Dim::MassFlow, 20.6},
      {"3600 kg/h", Dim::MassFlow, 1.0},
      {"84 Pa", Dim::Pressure, 84.0},
      {"84 kPa", Dim::Pressure, 84e3},
      {"1.2 MPa", Dim::Pressure, 1.2e6},
      {"2.5 bar", Dim::Pressure, 2.5e5},
      {"10 psi", Dim::Pressure, 10 * psi},
      {"10 psid", Dim::Pressure, 10 * psi},
      {"30 m", Dim::Length, 30.0},
      {"154 mm", Dim::Length, 0.154},
      {"15 cm", Dim::Length, 0.15},
      {"10 ft", Dim::Length, 3.048},
      {"6 in", Dim::Length, 0.1524},
      {"70 L", Dim::Volume, 0.07},
      {"2 m3", Dim::Volume, 2.0},
      {"10 gal", Dim::Volume, 10 * gal},
      {"30 s", Dim::Time, 30.0},
      {"250 ms", Dim::Time, 0.25},
      {"10 min", Dim::Time, 600.0},
      {"2 h", Dim::Time, 7200.0},
      {"1 d", Dim::Time, 86400.0},
      {"0.02 K/W", Dim::ThermalResistance, 0.02},
      {"500 J/K", Dim::HeatCapacity, 500.0},
      {"2 kJ/K", Dim::HeatCapacity, 2000.0},
      {"300 W/K", Dim::Conductance, 300.0},
      {"314 kW/K", Dim::Conductance, 314e3},
      {"5 J", Dim::Energy, 5.0},
      {"5 kJ", Dim::Energy, 5e3},
      {"5 MJ", Dim::Energy, 5e6},
      {"1 kWh", Dim::Energy, 3.6e6},
      {"1 MWh", Dim::Energy, 3.6e9},
      {"0.85", Dim::None, 0.85},
      {"-3", Dim::None, -3.0},
      {"1e-4", Dim::None, 1e-4},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    CHECK(si(c.text, c.dim) == Approx(c.si).epsilon(1e-12));
  }
}

TEST_CASE("units: spacing, signs and the dimension reported", "[units]") {
  CHECK(si("  120kW ", Dim::Power) == Approx(120e3));
  CHECK(si("+5 kW", Dim::Power) == Approx(5e3));
  CHECK(si("1.2e3 W", Dim::Power) == Approx(1200));
  std::string w;
  auto v = parseQuantity("1200 L/min", Dim::Flow, &w);
  REQUIRE(v);
  CHECK(v->dim == Dim::VolumeFlow);
  auto m = parseQuantity("20 kg/s", Dim::Flow, &w);
  REQUIRE(m);
  CHECK(m->dim == Dim::MassFlow);
  CHECK(m->value == Approx(20));
  auto d = parseQuantity("4 K", Dim::TemperatureDiff, &w);
  REQUIRE(d);
  CHECK(d->dim == Dim::TemperatureDiff);
  // the pointer for the reason may be null
  CHECK_FALSE(parseQuantity("x", Dim::Power, nullptr).has_value());
}

TEST_CASE("units: wrong dimension, missing or unknown unit", "[units]") {
  CHECK_THAT(why("32 kW", Dim::Temperature), Catch::Contains("unknown or wrong unit 'kW'"));
  CHECK_THAT(why("20 kg/s", Dim::VolumeFlow), Catch::Contains("unknown or wrong unit"));
  CHECK_THAT(why("1200 L/min", Dim::MassFlow), Catch::Contains("unknown or wrong unit"));
  CHECK_THAT(why("5 bar", Dim::Length), Catch::Contains("a length"));
  CHECK_THAT(why("4 K", Dim::Power), Catch::Contains("a power"));
  CHECK_THAT(why("32", Dim::Temperature), Catch::Contains("the unit is missing"));
  CHECK_THAT(why("150", Dim::Pressure), Catch::Contains("the unit is missing"));
  CHECK_THAT(why("0.5 kW", Dim::None), Catch::Contains("without a unit"));
  CHECK_THAT(why("120 kw", Dim::Power), Catch::Contains("unknown or wrong unit 'kw'"));
  CHECK_THAT(why("120 kW kW", Dim::Power), Catch::Contains("unknown or wrong unit"));
  CHECK_THAT(why("120 furlongs", Dim::Length), Catch::Contains("'furlongs'"));
}

TEST_CASE("units: empty, non-numbers, NaN, infinity and overflow", "[units]") {
  CHECK_THAT(why("", Dim::Power), Catch::Contains("empty"));
  CHECK_THAT(why("   ", Dim::Power), Catch::Contains("empty"));
  CHECK_THAT(why("kW", Dim::Power), Catch::Contains("a power"));
  CHECK_THAT(why("abc kW", Dim::Power), Catch::Contains("a power"));
  CHECK_THAT(why("--5 kW", Dim::Power), Catch::Contains("a power"));
  CHECK_THAT(why("nan kW", Dim::Power), Catch::Contains("not finite"));
  CHECK_THAT(why("NaN", Dim::None), Catch::Contains("not finite"));
  CHECK_THAT(why("inf degC", Dim::Temperature), Catch::Contains("not finite"));
  CHECK_THAT(why("-infinity Pa", Dim::Pressure), Catch::Contains("not finite"));
  CHECK_THAT(why("1e999 kW", Dim::Power), Catch::Contains("out of range"));
  CHECK_THAT(why("-1e999", Dim::None), Catch::Contains("out of range"));
  // finite number, infinite in SI
  CHECK_THAT(why("1e308 MW", Dim::Power), Catch::Contains("overflows"));
  CHECK_THAT(why("1.7e308 kWh", Dim::Energy), Catch::Contains("overflows"));
}

TEST_CASE("units: describe names every dimension and its units", "[units]") {
  for (Dim d : {Dim::None, Dim::Temperature, Dim::TemperatureDiff, Dim::Power, Dim::VolumeFlow,
                Dim::MassFlow, Dim::Flow, Dim::Pressure, Dim::Length, Dim::Volume, Dim::Time,
                Dim::ThermalResistance, Dim::HeatCapacity, Dim::Conductance, Dim::Energy})
    CHECK_FALSE(describe(d).empty());
  CHECK_THAT(describe(Dim::Pressure), Catch::Contains("kPa"));
  CHECK_THAT(describe(Dim::Flow), Catch::Contains("kg/s"));
  CHECK(toCelsius(305.15) == Approx(32.0));
  CHECK(toLitersPerMinute(0.02) == Approx(1200.0));
}
