#include "models/weather.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/psychro.h"

namespace dctwin {

namespace {
constexpr int kDaysInMonth[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
}  // namespace

double secondsOfYear(int month, int day, int hour) {
  int d = 0;
  for (int k = 0; k < month - 1; ++k) d += kDaysInMonth[k];
  return ((d + day - 1) * 24.0 + hour) * 3600.0;
}

std::string utcOffsetText(double seconds) {
  if (std::isnan(seconds)) return "unknown";
  const int m = static_cast<int>(std::lround(std::min(std::abs(seconds), 86400.0) / 60.0));
  char b[32];
  std::snprintf(b, sizeof b, "UTC%c%02d:%02d", seconds < 0 ? '-' : '+', m / 60, m % 60);
  return b;
}

std::string calendarText(double t_year) {
  const double year = 365.0 * 86400.0;
  double t = std::fmod(t_year, year);
  if (t < 0) t += year;
  const long long s = std::llround(t);
  long long day = (s / 86400) % 365;
  int month = 0;
  while (month < 11 && day >= kDaysInMonth[month]) day -= kDaysInMonth[month++];
  char b[32];
  std::snprintf(b, sizeof b, "%02d-%02lld %02lld:%02lld", month + 1, day + 1, (s / 3600) % 24,
                (s / 60) % 60);
  return b;
}

int monthOfYear(double t_year) {
  const double year = 365.0 * 86400.0;
  double t = std::fmod(t_year, year);
  if (t < 0) t += year;
  double end = 0;
  for (int k = 0; k < 12; ++k) {
    end += kDaysInMonth[k] * 86400.0;
    if (t < end) return k + 1;
  }
  return 12;
}

AirState WeatherSeries::at(double t) const {
  AirState a;
  const int n = hours();
  if (n == 0) return a;
  if (n == 1) return AirState{T_db[0], T_wb[0], W[0], p[0]};
  const double period = n * 3600.0;
  double tt = std::fmod(t, period);
  if (tt < 0) tt += period;
  // the hourly value stands for the end of its hour (EPW hour 1 = 00:00-01:00: value at 01:00,
  // as EnergyPlus reads it); interpolate between neighbours
  const double x = tt / 3600.0 - 1.0;
  int i0 = static_cast<int>(std::floor(x));
  const double f = x - i0;
  const int a0 = ((i0 % n) + n) % n, a1 = (a0 + 1) % n;
  auto lerp = [&](const std::vector<double>& v) { return v[a0] + f * (v[a1] - v[a0]); };
  a.T_db = lerp(T_db);
  a.W = lerp(W);
  a.p = lerp(p);
  a.T_wb = psychro::wetBulb(a.T_db, a.W, a.p);
  return a;
}

WeatherSeries constantWeather(double T_db, double T_wb, double p) {
  WeatherSeries w;
  w.source = "constant";
  w.T_db = {T_db};
  w.p = {p};
  w.T_wb = {T_wb};
  // the humidity ratio of that wet bulb (psychrometric balance at t*)
  const double t = T_db - 273.15, ts = T_wb - 273.15;
  const double Ws = psychro::saturationHumidityRatio(T_wb, p);
  const double W =
      ((2501.0 - 2.326 * ts) * Ws - 1.006 * (t - ts)) / (2501.0 + 1.86 * t - 4.186 * ts);
  w.W = {std::max(W, 0.0)};
  w.T_dp = {psychro::dewPoint(psychro::vaporPressure(w.W[0], p))};
  w.RH = {psychro::relativeHumidity(T_db, w.T_dp[0])};
  return w;
}

WeatherSeries designDayWeather(double T_max, double range, double T_wb, double p) {
  WeatherSeries one = constantWeather(T_max, T_wb, p);
  WeatherSeries w;
  w.source = "design day";
  w.periodic_day = true;
  for (int h = 1; h <= 24; ++h) {
    // peak at 15:00, minimum at 03:00 (a cosine; ASHRAE tabulates a similar daily profile)
    const double T = T_max - range * 0.5 * (1 - std::cos(2 * M_PI * (h - 15) / 24.0));
    w.T_db.push_back(T);
    w.p.push_back(p);
    // the humidity ratio of the coincident wet bulb at the peak, held (at most saturation)
    const double W = std::min(one.W[0], psychro::saturationHumidityRatio(T, p));
    w.W.push_back(W);
    const double Tdp = psychro::dewPoint(psychro::vaporPressure(W, p));
    w.T_dp.push_back(std::min(Tdp, T));
    w.RH.push_back(psychro::relativeHumidity(T, Tdp));
    w.T_wb.push_back(psychro::wetBulb(T, W, p));
  }
  return w;
}

}  // namespace dctwin
