#include "models/cold_plate.h"

#include <cmath>

namespace dctwin {

double ColdPlateLaw::R(double V) const {
  double v = V * 60000.0;  // L/min
  constexpr double v_small = 0.01;
  v = std::sqrt(v * v + v_small * v_small);
  return R_inf + a * std::pow(v, -b);
}

}  // namespace dctwin
