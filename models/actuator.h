// actuator.h: valve actuators and variable-speed drives (docs/models/actuator.md)
//
// two kinds, chosen per actuator by the facility file (primary_valve.actuator, pumps.actuator):
//   lag    first-order lag  dy/dt = (u - y) / tau,   tau = stroke_time / 5 (valve.h,
//          actuatorTimeConstant): the position reaches 99 % of a full step in the stroke time
//   rate   rate-limited     dy/dt = clamp((u - y) / T_f, -r, r),   r = 1 / stroke_time
//          a full stroke (0 -> 1) takes the stated stroke (or rise) time, as a datasheet states
//          it; T_f is the optional first-order filter (filter_time). Without one, T_f = 1e-3 /
//          r regularizes the switch at u = y: the position follows the exact ramp until it is
//          within 1e-3 of the command, then closes that last 1e-3 exponentially with T_f
// u is the command and y the position, both in [0, 1] (valve opening or pump speed ratio).
#pragma once

#include <algorithm>

namespace dctwin {

struct ActuatorParams {
  enum class Kind { Lag, Rate };
  Kind kind = Kind::Lag;
  double tau = 1;     // lag: time constant                                    (s)
  double rate = 1;    // rate: full strokes per second, 1 / stroke_time        (1/s)
  double filter = 0;  // rate: first-order filter time; 0 = the regularization (s)
};

// regularization of the rate limiter without a filter: T_f = kRateSmoothing / rate
constexpr double kRateSmoothing = 1e-3;

// the actuator from its datasheet times: stroke (or rise) time, kind, optional filter
inline ActuatorParams makeActuator(bool rate_limited, double stroke_time, double filter_time) {
  ActuatorParams a;
  a.kind = rate_limited ? ActuatorParams::Kind::Rate : ActuatorParams::Kind::Lag;
  a.tau = stroke_time / 5.0;
  a.rate = 1.0 / stroke_time;
  a.filter = filter_time;
  return a;
}

// position rate dy/dt for command u at position y                             (1/s)
inline double actuatorRate(const ActuatorParams& a, double u, double y) {
  if (a.kind == ActuatorParams::Kind::Lag) return (u - y) / a.tau;
  const double Tf = a.filter > 0 ? a.filter : kRateSmoothing / a.rate;
  return std::clamp((u - y) / Tf, -a.rate, a.rate);
}

}  // namespace dctwin
