// controller.h: PI controller with output limits and back-calculation anti-windup
//
//   u = k (e + x / Ti),   u_sat = clamp(u, u_min, u_max)
//   dx/dt = e + (Ti / (k Tt)) (u_sat - u)        (Tt = tracking time constant, default Ti)
// e is the control error in the controller's own units (e.g. K, or a fraction of a set point);
// the sign is chosen by the caller (direct or reverse action). At saturation the integrator
// stops winding: x settles where u - u_sat = k Tt e / Ti.
#pragma once

#include <algorithm>

namespace dctwin {

struct PIParams {
  double k = 1;      // proportional gain              (output per unit error)
  double Ti = 60;    // integral time                  (s)
  double Tt = 0;     // tracking time; 0 means Ti      (s)
  double u_min = 0;  // (output units)
  double u_max = 1;
};

inline double piOutputUnsat(const PIParams& p, double e, double x) {
  return p.k * (e + x / p.Ti);
}
inline double piOutput(const PIParams& p, double e, double x) {
  return std::clamp(piOutputUnsat(p, e, x), p.u_min, p.u_max);
}
inline double piStateDerivative(const PIParams& p, double e, double x) {
  double u = piOutputUnsat(p, e, x);
  double Tt = p.Tt > 0 ? p.Tt : p.Ti;
  return e + (p.Ti / (p.k * Tt)) * (std::clamp(u, p.u_min, p.u_max) - u);
}
// integrator state that makes the output equal u0 at error e (bumpless start)
inline double piStateFor(const PIParams& p, double u0, double e) {
  return (u0 / p.k - e) * p.Ti;
}
// integrator state whose integral part of the output, k x / Ti, is u_i (Modelica Buildings
// LimPID's k xi_start): the output at t = 0 is then clamp(k e0 + u_i), wound up where u_i lies
// outside the limits
inline double piStateForIntegral(const PIParams& p, double u_i) {
  return u_i * p.Ti / p.k;
}

}  // namespace dctwin
