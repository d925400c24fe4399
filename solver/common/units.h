// units.h: quantities with units in input files ("32 degC", "1200 L/min", "84 kPa")
//
// dctwin computes in SI (K, Pa, m3/s, kg/s, W, m, s); input files name their units and
// parseQuantity converts. A dimensional key without a unit is an error, never a silent default.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dctwin {

enum class Dim {
  None,               // dimensionless
  Temperature,        // degC or K (absolute)                       -> K
  TemperatureDiff,    // K (or degC as a difference)                -> K
  Power,              // W kW MW                                    -> W
  VolumeFlow,         // L/min LPM m3/s m3/h gpm                    -> m3/s
  MassFlow,           // kg/s kg/h                                  -> kg/s
  Flow,               // either of the two above (see Quantity::dim)
  Pressure,           // Pa kPa MPa bar psi                         -> Pa
  Length,             // m mm cm ft in                              -> m
  Volume,             // L m3 gal                                   -> m3
  Time,               // s ms min h d                               -> s
  ThermalResistance,  // K/W                                        -> K/W
  HeatCapacity,       // J/K kJ/K                                   -> J/K
  Conductance,        // W/K kW/K                                   -> W/K
  Energy,             // J kJ MJ kWh MWh                            -> J
  LinearConductance,  // W/(m K), per metre of pipe                 -> W/(m K)
  Frequency,          // Hz kHz MHz GHz                             -> Hz
  DataSize,           // B kB MB GB TB (decimal)                    -> B
  Bandwidth,          // B/s GB/s TB/s (decimal)                    -> B/s
  PowerRate,          // W/s kW/s MW/s                              -> W/s
  Area,               // mm2 cm2 m2                                 -> m2
  Mass,               // g kg                                       -> kg
};

struct Quantity {
  double value = 0;  // SI
  Dim dim = Dim::None;
};

// parse "value unit"; on failure returns nullopt and fills *why with what was expected
std::optional<Quantity> parseQuantity(std::string_view text, Dim dim, std::string* why);
// the unit names parseQuantity accepts for a dimension, in table order (none for Dim::None)
std::vector<std::string> unitNames(Dim dim);
// human description of a dimension and its accepted units, e.g. "a pressure (Pa, kPa, bar, psi)"
std::string describe(Dim dim);

// conversions for people (CLI, reports)
inline double toCelsius(double T) {
  return T - 273.15;
}
inline double fromCelsius(double T_c) {
  return T_c + 273.15;
}
inline double toLitersPerMinute(double V) {
  return V * 60000.0;
}

}  // namespace dctwin
