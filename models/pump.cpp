#include "models/pump.h"

#include <algorithm>
#include <cmath>

namespace dctwin {

//---------------------------------------------------------------------------------------------
double pumpHead(const PumpParams& p, int n_running, double N, double V) {
  if (n_running <= 0 || N <= 0) return 0.0;
  double v = V / (n_running * p.V_rated);
  // N^2 f(v/N); past the curve's end f is linear, so N^2 f(v/N) stays finite as N -> 0
  return p.dp_rated * N * N * p.curve(v / N);
}

double pumpHeadSlope(const PumpParams& p, int n_running, double N, double V) {
  if (n_running <= 0 || N <= 0) return 0.0;
  double q = n_running * p.V_rated;
  return p.dp_rated * N * p.curve.slope(V / q / N) / q;
}

double pumpPowerElectric(const PumpParams& p, double V, double dp) {
  return std::max(V * dp, 0.0) / (p.eta_hyd * p.eta_mot);
}

double pumpHeatToFluid(const PumpParams& p, double V, double dp) {
  return std::max(V * dp, 0.0) / p.eta_hyd;
}

}  // namespace dctwin
