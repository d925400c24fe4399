#include "solver/common/units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

namespace dctwin {

namespace {
struct UnitDef {
  const char* name;
  Dim dim;
  double scale;  // SI = value * scale + offset
  double offset;
};

constexpr double kPsi = 6894.757293168;
constexpr double kGal = 3.785411784e-3;  // US gallon
constexpr std::array kUnits{
    UnitDef{"degC", Dim::Temperature, 1.0, 273.15},
    UnitDef{"°C", Dim::Temperature, 1.0, 273.15},
    UnitDef{"C", Dim::Temperature, 1.0, 273.15},
    UnitDef{"K", Dim::Temperature, 1.0, 0.0},
    UnitDef{"W", Dim::Power, 1.0, 0},
    UnitDef{"kW", Dim::Power, 1e3, 0},
    UnitDef{"MW", Dim::Power, 1e6, 0},
    UnitDef{"L/min", Dim::VolumeFlow, 1.0 / 60000.0, 0},
    UnitDef{"LPM", Dim::VolumeFlow, 1.0 / 60000.0, 0},
    UnitDef{"L/s", Dim::VolumeFlow, 1e-3, 0},
    UnitDef{"m3/s", Dim::VolumeFlow, 1.0, 0},
    UnitDef{"m3/h", Dim::VolumeFlow, 1.0 / 3600.0, 0},
    UnitDef{"gpm", Dim::VolumeFlow, kGal / 60.0, 0},
    UnitDef{"kg/s", Dim::MassFlow, 1.0, 0},
    UnitDef{"kg/h", Dim::MassFlow, 1.0 / 3600.0, 0},
    UnitDef{"Pa", Dim::Pressure, 1.0, 0},
    UnitDef{"kPa", Dim::Pressure, 1e3, 0},
    UnitDef{"MPa", Dim::Pressure, 1e6, 0},
    UnitDef{"bar", Dim::Pressure, 1e5, 0},
    UnitDef{"psi", Dim::Pressure, kPsi, 0},
    UnitDef{"psid", Dim::Pressure, kPsi, 0},
    UnitDef{"m", Dim::Length, 1.0, 0},
    UnitDef{"mm", Dim::Length, 1e-3, 0},
    UnitDef{"cm", Dim::Length, 1e-2, 0},
    UnitDef{"ft", Dim::Length, 0.3048, 0},
    UnitDef{"in", Dim::Length, 0.0254, 0},
    UnitDef{"mL", Dim::Volume, 1e-6, 0},
    UnitDef{"L", Dim::Volume, 1e-3, 0},
    UnitDef{"mm2", Dim::Area, 1e-6, 0},
    UnitDef{"cm2", Dim::Area, 1e-4, 0},
    UnitDef{"m2", Dim::Area, 1.0, 0},
    UnitDef{"g", Dim::Mass, 1e-3, 0},
    UnitDef{"kg", Dim::Mass, 1.0, 0},
    UnitDef{"m3", Dim::Volume, 1.0, 0},
    UnitDef{"gal", Dim::Volume, kGal, 0},
    UnitDef{"s", Dim::Time, 1.0, 0},
    UnitDef{"ms", Dim::Time, 1e-3, 0},
    UnitDef{"us", Dim::Time, 1e-6, 0},  // memory and link latencies
    UnitDef{"ns", Dim::Time, 1e-9, 0},
    UnitDef{"min", Dim::Time, 60.0, 0},
    UnitDef{"h", Dim::Time, 3600.0, 0},
    UnitDef{"d", Dim::Time, 86400.0, 0},
    UnitDef{"K/W", Dim::ThermalResistance, 1.0, 0},
    UnitDef{"J/K", Dim::HeatCapacity, 1.0, 0},
    UnitDef{"kJ/K", Dim::HeatCapacity, 1e3, 0},
    UnitDef{"W/K", Dim::Conductance, 1.0, 0},
    UnitDef{"kW/K", Dim::Conductance, 1e3, 0},
    UnitDef{"J", Dim::Energy, 1.0, 0},
    UnitDef{"kJ", Dim::Energy, 1e3, 0},
    UnitDef{"MJ", Dim::Energy, 1e6, 0},
    UnitDef{"kWh", Dim::Energy, 3.6e6, 0},
    UnitDef{"MWh", Dim::Energy, 3.6e9, 0},
    UnitDef{"W/(m K)", Dim::LinearConductance, 1.0, 0},
    UnitDef{"W/m/K", Dim::LinearConductance, 1.0, 0},
    UnitDef{"Hz", Dim::Frequency, 1.0, 0},
    UnitDef{"kHz", Dim::Frequency, 1e3, 0},
    UnitDef{"MHz", Dim::Frequency, 1e6, 0},
    UnitDef{"GHz", Dim::Frequency, 1e9, 0},
    UnitDef{"B", Dim::DataSize, 1.0, 0},
    UnitDef{"kB", Dim::DataSize, 1e3, 0},
    UnitDef{"MB", Dim::DataSize, 1e6, 0},
    UnitDef{"GB", Dim::DataSize, 1e9, 0},
    UnitDef{"TB", Dim::DataSize, 1e12, 0},
    UnitDef{"B/s", Dim::Bandwidth, 1.0, 0},
    UnitDef{"MB/s", Dim::Bandwidth, 1e6, 0},
    UnitDef{"GB/s", Dim::Bandwidth, 1e9, 0},
    UnitDef{"TB/s", Dim::Bandwidth, 1e12, 0},
    UnitDef{"W/s", Dim::PowerRate, 1.0, 0},
    UnitDef{"kW/s", Dim::PowerRate, 1e3, 0},
    UnitDef{"MW/s", Dim::PowerRate, 1e6, 0},
};

bool accepts(Dim want, Dim have) {
  if (want == have) return true;
  if (want == Dim::Flow) return have == Dim::VolumeFlow || have == Dim::MassFlow;
  if (want == Dim::TemperatureDiff) return have == Dim::Temperature;  // K or degC as a difference
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
}  // namespace

//---------------------------------------------------------------------------------------------
std::vector<std::string> unitNames(Dim dim) {
  std::vector<std::string> names;
  if (dim == Dim::None) return names;
  for (const auto& u : kUnits)
    if (accepts(dim, u.dim)) names.emplace_back(u.name);
  return names;
}

std::string describe(Dim dim) {
  switch (dim) {
    case Dim::None:
      return "a plain number";
    case Dim::Temperature:
      return "a temperature with its unit (e.g. '32 degC' or '305.15 K')";
    case Dim::TemperatureDiff:
      return "a temperature difference with its unit (e.g. '4 K')";
    case Dim::Power:
      return "a power with its unit (W, kW, MW; e.g. '120 kW')";
    case Dim::VolumeFlow:
      return "a volume flow with its unit (L/min, L/s, m3/h, m3/s, gpm)";
    case Dim::MassFlow:
      return "a mass flow with its unit (kg/s, kg/h)";
    case Dim::Flow:
      return "a flow with its unit (L/min, L/s, m3/h, m3/s, gpm or kg/s)";
    case Dim::Pressure:
      return "a pressure with its unit (Pa, kPa, MPa, bar, psi)";
    case Dim::Length:
      return "a length with its unit (m, mm, cm, ft, in)";
    case Dim::Volume:
      return "a volume with its unit (L, m3, gal)";
    case Dim::Time:
      return "a time with its unit (s, ms, min, h, d; e.g. '30 s')";
    case Dim::ThermalResistance:
      return "a thermal resistance with its unit (K/W)";
    case Dim::HeatCapacity:
      return "a heat capacity with its unit (J/K, kJ/K)";
    case Dim::Conductance:
      return "a thermal conductance with its unit (W/K, kW/K)";
    case Dim::Energy:
      return "an energy with its unit (J, kJ, MJ, kWh, MWh)";
    case Dim::LinearConductance:
      return "a heat-loss coefficient per metre with its unit (W/(m K))";
    case Dim::Frequency:
      return "a frequency with its unit (Hz, kHz, MHz, GHz)";
    case Dim::DataSize:
      return "a data size with its unit (B, kB, MB, GB, TB; decimal)";
    case Dim::Bandwidth:
      return "a bandwidth with its unit (B/s, MB/s, GB/s, TB/s; decimal)";
    case Dim::PowerRate:
      return "a power ramp rate with its unit (W/s, kW/s, MW/s)";
    case Dim::Area:
      return "an area with its unit (mm2, cm2, m2)";
    case Dim::Mass:
      return "a mass with its unit (g, kg)";
  }
  return "a value";
}

std::optional<Quantity> parseQuantity(std::string_view text, Dim dim, std::string* why) {
  auto fail = [&](std::string msg) -> std::optional<Quantity> {
    if (why) *why = std::move(msg);
    return std::nullopt;
  };
  std::string_view s = trim(text);
  if (s.empty()) return fail("expected " + describe(dim) + ", got an empty value");
  // number: from_chars accepts no leading '+'
  if (s.front() == '+') s.remove_prefix(1);
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    return fail("the number is out of range; expected " + describe(dim));
  if (ec != std::errc() || ptr == s.data()) return fail("expected " + describe(dim));
  if (!std::isfinite(v)) return fail("the number is not finite; expected " + describe(dim));
  std::string_view unit = trim(std::string_view(ptr, s.data() + s.size() - ptr));
  if (unit.empty()) {
    if (dim == Dim::None) return Quantity{v, Dim::None};
    return fail("the unit is missing; expected " + describe(dim));
  }
  if (dim == Dim::None) return fail("expected a plain number without a unit");
  for (const auto& u : kUnits) {
    if (unit != u.name) continue;
    if (!accepts(dim, u.dim)) continue;
    double si = v * u.scale;
    // a temperature difference in degC is a difference: no offset
    if (!(dim == Dim::TemperatureDiff)) si += u.offset;
    if (!std::isfinite(si)) return fail("the value overflows; expected " + describe(dim));
    Dim have = u.dim;
    if (dim == Dim::TemperatureDiff) have = Dim::TemperatureDiff;
    return Quantity{si, have};
  }
  return fail("unknown or wrong unit '" + std::string(unit) + "'; expected " + describe(dim));
}

}  // namespace dctwin
