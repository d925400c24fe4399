// psychro.h: moist-air psychrometrics (SI, ASHRAE Handbook--Fundamentals 2017 ch. 1)
//
//   saturation pressure over water (T >= 273.15 K) and ice (below), Hyland-Wexler:
//     ln p_ws = C8/T + C9 + C10 T + C11 T^2 + C12 T^3 + C13 ln T            (water, eq. 6)
//     ln p_ws = C1/T + C2 + C3 T + C4 T^2 + C5 T^3 + C6 T^4 + C7 ln T       (ice, eq. 5)
//   humidity ratio      W = 0.621945 p_w / (p - p_w)                           (eq. 20)
//   moist-air enthalpy  h = 1006 t + W (2501000 + 1860 t)      (J/kg dry air, t in degC, eq. 30)
//   wet bulb t*: the root of the psychrometric balance (eq. 33, ice: eq. 35)
//     W = [(2501 - 2.326 t*) W_s* - 1.006 (t - t*)] / (2501 + 1.86 t - 4.186 t*)
//   solved by bisection between the dew point and the dry bulb, as PsychroLib does.
//   standard atmosphere  p = 101325 (1 - 2.25577e-5 Z)^5.2559                 (eq. 3)
// Sources: docs/references.md [P21]; docs/models/weather.md.
#pragma once

namespace dctwin::psychro {

constexpr double kPatm = 101325.0;  // standard sea-level pressure                         (Pa)
constexpr double kCpAir =
    1006.0;  // dry air                                              (J/(kg K))
constexpr double kCpVap =
    1860.0;  // water vapour                                         (J/(kg K))
constexpr double kHfg0 = 2501000.0;  // latent heat of vaporization at 0 degC              (J/kg)

// saturation vapour pressure at T (K), over water at or above 273.15 K, over ice below     (Pa)
double saturationPressure(double T);
// dew point (K) of vapour pressure p_w (Pa): the inverse of saturationPressure
double dewPoint(double p_w);
// humidity ratio of vapour pressure p_w at total pressure p                      (kg/kg dry air)
double humidityRatio(double p_w, double p);
// vapour pressure of humidity ratio W at total pressure p                                  (Pa)
double vaporPressure(double W, double p);
// saturated humidity ratio at T (K) and p (Pa)                                     (kg/kg dry air)
double saturationHumidityRatio(double T, double p);
// moist-air enthalpy at dry bulb T (K) and humidity ratio W                    (J/kg dry air)
double enthalpy(double T, double W);
// enthalpy of saturated air at T (K) and p (Pa)                                  (J/kg dry air)
double saturationEnthalpy(double T, double p);
// temperature (K) of saturated air of enthalpy h at p (inverse of saturationEnthalpy)
double saturationTemperature(double h, double p);
// thermodynamic wet bulb (K) of air at dry bulb T (K), humidity ratio W and pressure p (Pa)
double wetBulb(double T, double W, double p);
// the same from relative humidity phi (0..1)
double wetBulbFromRH(double T, double phi, double p);
// relative humidity (0..1) of air at T with dew point T_dp
double relativeHumidity(double T, double T_dp);
// standard-atmosphere pressure at elevation Z (m)                                          (Pa)
double pressureAtElevation(double Z);
// Stull (2011) closed-form wet bulb at sea level (degC in, degC out; RH in %), for comparison
double wetBulbStull(double t_degC, double rh_percent);

}  // namespace dctwin::psychro
