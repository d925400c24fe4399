// hydraulics.h: pressure-drop laws of the coolant network
//
// sign convention: dp > 0 is the pressure drop in the direction of positive mass flow m_flow;
// every law is odd in m_flow and strictly increasing, so that a loop has one operating point.
#pragma once

namespace dctwin {

// lumped resistance dp = dp_nominal (m/m_nominal)^n, regularized near zero flow as
//   dp = k m (m^2 + m_small^2)^((n-1)/2),   k = dp_nominal / m_nominal^n
// which is smooth, odd, strictly increasing, linear for |m| << m_small and within
// (n-1)/2 (m_small/m)^2 of the power law above it (0.05 % at m = 30 m_small, n = 2)
struct PowerLaw {
  double k = 0;        // coefficient                          (Pa / (kg/s)^n)
  double n = 2;        // exponent                             (1)
  double m_small = 0;  // regularization flow                  (kg/s)

  static PowerLaw fromNominal(double dp_nominal, double m_nominal, double n,
                              double small_fraction = 0.01);
  double dp(double m) const;      // pressure drop              (Pa)
  double ddp_dm(double m) const;  // derivative                 (Pa s/kg)
  // both at once, with one power (a square root for n = 2): the hydraulic solver's inner loop
  double dpSlope(double m, double* ddp) const;
};

// Darcy friction factor: laminar 64/Re below Re 2300, Swamee-Jain above Re 4000, a smooth
// (cubic Hermite in log Re) blend between; rel_roughness = roughness / diameter
double darcyFriction(double Re, double rel_roughness);
// the same, and its slope d f / d ln Re where dfdlnRe is not null (analytic on each branch)
double darcyFrictionSlope(double Re, double rel_roughness, double* dfdlnRe);

// straight pipe, Darcy-Weisbach: dp = f(Re) L/D rho v^2/2, with Re from |m|
struct PipeFriction {
  double length = 0;     // (m)
  double diameter = 0;   // inner diameter                     (m)
  double roughness = 0;  // absolute roughness                 (m)

  double area() const;                               // flow area (m2)
  double dp(double m, double rho, double mu) const;  // (Pa)
  double ddp_dm(double m, double rho, double mu) const;  // analytic (Pa s/kg)
  // dp and its slope at once: one friction factor instead of three for dp and a difference
  double dpSlope(double m, double rho, double mu, double* ddp) const;
};

}  // namespace dctwin
