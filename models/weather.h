// weather.h: outdoor air for the plant, hourly over a 365-day year (docs/models/weather.md)
//
// from an EnergyPlus weather file (solver/input/weather_reader.h), a constant condition or an
// ASHRAE-style design day (dry bulb swinging by a daily range around its mean, peak at 15:00,
// with the humidity ratio of the coincident wet bulb held). Wet bulb from dry bulb, humidity and
// pressure by the ASHRAE psychrometric relations (models/psychro.h).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "models/plant.h"

namespace dctwin {

struct WeatherSeries {
  std::string source;                                 // file path, "constant" or "design day"
  std::string location;                               // EPW LOCATION city, region, country
  double latitude = 0, longitude = 0, elevation = 0;  // (deg, deg, m)
  int start_weekday = 0;                              // 0 Sunday ... 6 Saturday (EPW DATA PERIODS)
  // the offset of the file's local standard time from UTC (EPW LOCATION, hours east; Phoenix
  // -7), in s; NaN where not known (constant and design-day weather without plant.weather's
  // time_zone)
  double utc_offset = std::numeric_limits<double>::quiet_NaN();
  bool synthetic = false;  // the header says SYNTHETIC (generated from monthly means)
  // hourly values, hour h covering [h, h+1) h of the year (EPW hour 1 = 00:00-01:00); one entry for
  // a constant condition, 24 for a design day (repeated)
  std::vector<double> T_db, T_dp, RH, p, T_wb, W;  // K, K, 1, Pa, K, kg/kg
  bool periodic_day = false;                       // design day: the 24 hours repeat

  int hours() const { return static_cast<int>(T_db.size()); }
  // the air at time t (s) from the start of the year, linear between hourly values (EnergyPlus
  // interpolates the same way), wrapping at the end of the year
  AirState at(double t_year) const;
};

// a constant condition: dry bulb and wet bulb (K), pressure (Pa)
WeatherSeries constantWeather(double T_db, double T_wb, double p);
// a design day: peak dry bulb at 15:00, daily range (K), coincident wet bulb held (K), pressure
WeatherSeries designDayWeather(double T_db_max, double range, double T_wb, double p);

// calendar (non-leap 365-day year): seconds from 1 January 00:00 of month (1-12), day and hour
double secondsOfYear(int month, int day, int hour);
// the calendar month (1-12) of a time in seconds from 1 January 00:00, the year wrapping
int monthOfYear(double t_year);
// a UTC offset (s east) as people write it: "UTC-07:00", "UTC+05:30", "UTC+00:00"; "unknown" for
// NaN
std::string utcOffsetText(double seconds);
// a time of the non-leap year (s from 1 January 00:00, wrapping) as "MM-DD hh:mm"
std::string calendarText(double t_year);

}  // namespace dctwin
