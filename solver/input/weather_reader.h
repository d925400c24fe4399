// weather_reader.h: outdoor air for the plant (docs/models/weather.md)
//
// three sources: an EnergyPlus weather file (EPW: 8 header lines, then 8760 or 8784 hourly rows
// of 35 fields), a constant condition, or an ASHRAE-style design day (dry bulb swinging by a
// daily range around its mean, with a constant coincident wet bulb). Wet bulb comes from dry bulb,
// humidity and pressure by the ASHRAE psychrometric relations (models/psychro.h). Errors are
// file:line errors naming the column; nothing is defaulted silently.
#pragma once

#include <string>

#include "models/weather.h"
#include "solver/input/loader.h"

namespace dctwin {

// reads an EPW file; throws LoadFailure with file:line errors naming the column
WeatherSeries readEpw(const std::string& path);
// the same from text (tests; `name` shows in the errors)
WeatherSeries parseEpw(const std::string& text, const std::string& name);

}  // namespace dctwin
