#include "models/valve.h"

#include <algorithm>
#include <cmath>

namespace dctwin {

double equalPercentage(double y, double R, double l) {
  constexpr double y_lin = 0.02;
  y = std::clamp(y, 0.0, 1.0);
  if (y >= y_lin) return std::pow(R, y - 1.0);
  double phi_lin = std::pow(R, y_lin - 1.0);
  return l + (phi_lin - l) * (y / y_lin);
}

double kvFromNominal(double V_nominal, double dp_nominal, double rho) {
  // V[m3/h] = Kv sqrt(dp[bar] / SG)
  return V_nominal * 3600.0 / std::sqrt(dp_nominal / 1e5 / (rho / 1000.0));
}

double valveQuadraticCoefficient(double Kv_eff, double rho) {
  // dp[Pa] = 1e5 SG (V[m3/h] / Kv)^2,  V[m3/h] = 3600 m / rho
  double a = 3600.0 / (rho * Kv_eff);
  return 1e5 * (rho / 1000.0) * a * a;
}

}  // namespace dctwin
