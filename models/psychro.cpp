#include "models/psychro.h"

#include <algorithm>
#include <cmath>

namespace dctwin::psychro {

namespace {
constexpr double kT0 = 273.15;
constexpr double kRatio = 0.621945;  // M_water / M_dry-air
}  // namespace

double saturationPressure(double T) {
  if (T >= kT0) {
    constexpr double C8 = -5.8002206e3, C9 = 1.3914993, C10 = -4.8640239e-2, C11 = 4.1764768e-5,
                     C12 = -1.4452093e-8, C13 = 6.5459673;
    return std::exp(C8 / T + C9 + T * (C10 + T * (C11 + T * C12)) + C13 * std::log(T));
  }
  constexpr double C1 = -5.6745359e3, C2 = 6.3925247, C3 = -9.677843e-3, C4 = 6.2215701e-7,
                   C5 = 2.0747825e-9, C6 = -9.484024e-13, C7 = 4.1635019;
  return std::exp(C1 / T + C2 + T * (C3 + T * (C4 + T * (C5 + T * C6))) + C7 * std::log(T));
}

double dewPoint(double p_w) {
  // bisection on the monotonic saturation curve, -100 ... 200 degC
  double lo = 173.15, hi = 473.15;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (saturationPressure(mid) < p_w ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double humidityRatio(double p_w, double p) {
  return kRatio * p_w / std::max(p - p_w, 1.0);
}

double vaporPressure(double W, double p) {
  return p * W / (kRatio + W);
}

double saturationHumidityRatio(double T, double p) {
  return humidityRatio(saturationPressure(T), p);
}

double enthalpy(double T, double W) {
  const double t = T - kT0;
  return kCpAir * t + W * (kHfg0 + kCpVap * t);
}

double saturationEnthalpy(double T, double p) {
  return enthalpy(T, saturationHumidityRatio(T, p));
}

double saturationTemperature(double h, double p) {
  double lo = 173.15, hi = 373.15;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (saturationEnthalpy(mid, p) < h ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

namespace {
// humidity ratio that a wet bulb t* implies for dry bulb t (degC), eq. 33 / 35
double balanceW(double t, double ts, double p) {
  const double Ws = saturationHumidityRatio(ts + kT0, p);
  if (ts >= 0)
    return ((2501.0 - 2.326 * ts) * Ws - 1.006 * (t - ts)) / (2501.0 + 1.86 * t - 4.186 * ts);
  return ((2830.0 - 0.24 * ts) * Ws - 1.006 * (t - ts)) / (2830.0 + 1.86 * t - 2.1 * ts);
}
}  // namespace

double wetBulb(double T, double W, double p) {
  const double t = T - kT0;
  double lo = dewPoint(vaporPressure(W, p)) - kT0, hi = t;
  lo = std::min(lo, hi);
  for (int i = 0; i < 80 && hi - lo > 1e-9; ++i) {
    const double mid = 0.5 * (lo + hi);
    (balanceW(t, mid, p) > W ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi) + kT0;
}

double wetBulbFromRH(double T, double phi, double p) {
  return wetBulb(T, humidityRatio(phi * saturationPressure(T), p), p);
}

double relativeHumidity(double T, double T_dp) {
  return saturationPressure(std::min(T_dp, T)) / saturationPressure(T);
}

double pressureAtElevation(double Z) {
  return kPatm * std::pow(1.0 - 2.25577e-5 * Z, 5.2559);
}

double wetBulbStull(double t, double rh) {
  return t * std::atan(0.151977 * std::sqrt(rh + 8.313659)) + std::atan(t + rh) -
         std::atan(rh - 1.676331) + 0.00391838 * std::pow(rh, 1.5) * std::atan(0.023101 * rh) -
         4.686035;
}

}  // namespace dctwin::psychro
