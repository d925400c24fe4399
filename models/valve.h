// valve.h: two-way control and balancing valves
//
// flow coefficient Kv (m3/h at 1 bar for water, IEC 60534) scaled by the opening characteristic
//   V = Kv phi(y) sqrt(dp / SG),   SG = rho / 1000
// equal-percentage characteristic with rangeability R and leakage l (Modelica Buildings
// TwoWayEqualPercentage [K62]): phi(y) = R^(y-1) for y >= y_lin; below y_lin it falls linearly to
// l at y = 0, so that a closed valve still passes l of its full-open flow and phi stays monotone.
#pragma once

namespace dctwin {

double equalPercentage(double y, double R, double leakage);  // phi(y)             (1)

// Kv (m3/h/sqrt(bar)) of a valve passing V_nominal (m3/s) at dp_nominal (Pa) fully open
double kvFromNominal(double V_nominal, double dp_nominal, double rho);

// coefficient c of the quadratic law dp = c m |m| for an effective flow coefficient Kv_eff
// (m3/h/sqrt(bar)) and density rho: c in Pa/(kg/s)^2
double valveQuadraticCoefficient(double Kv_eff, double rho);

// first-order actuator: time constant tau = t_stroke / 5 (the cut-off of Modelica Buildings'
// actuator filter, 5 / (2 pi t_stroke)); the position reaches 99 % of a full step in t_stroke
inline double actuatorTimeConstant(double stroke_time) {
  return stroke_time / 5.0;
}

}  // namespace dctwin
