#include "models/cold_plate.h"

#include <algorithm>
#include <cmath>

namespace dctwin {

double ColdPlateLaw::R(double V) const {
  double v = V * 60000.0;  // L/min
  constexpr double v_small = 0.01;
  v = std::sqrt(v * v + v_small * v_small);
  return R_inf + a * std::pow(v, -b);
}

double plateCoolantTemperature(double T_inlet, double T_local, double flow_ratio,
                               double blend_ratio) {
  const double w = blend_ratio > 0 ? std::clamp(flow_ratio / blend_ratio, 0.0, 1.0)
                                   : (flow_ratio > 0 ? 1.0 : 0.0);
  return w * T_inlet + (1.0 - w) * T_local;
}

}  // namespace dctwin
