#include "models/fan.h"

#include <algorithm>
#include <cmath>

namespace dctwin {

FanPoint fanOperatingPoint(const FanParams& f, double P_it, double rho, double cp) {
  const double P = std::max(P_it, 0.0);
  double N = 1.0;
  if (f.control == FanParams::Control::DeltaT) {
    // N = (P + P_rated N^3) / a: from N = 0 the iterates rise monotonically to the smallest
    // root, or pass 1 when there is none (the fans cannot hold the rise)
    const double a = rho * cp * f.V_rated * f.dT_set;
    double n = 0.0;
    for (int it = 0; it < 200; ++it) {
      const double next = (P + f.P_rated * n * n * n) / a;
      if (next >= 1.0) {
        n = 1.0;
        break;
      }
      const bool done = std::abs(next - n) <= 1e-15;
      n = next;
      if (done) break;
    }
    N = n;
  } else {
    N = std::sqrt(f.dp_set / f.dp_rated);
  }
  FanPoint p;
  p.N = std::clamp(N, f.N_min, 1.0);
  p.V = p.N * f.V_rated;
  p.P_fan = f.P_rated * p.N * p.N * p.N;
  p.dT = (P + p.P_fan) / (rho * cp * p.V);
  return p;
}

}  // namespace dctwin
