#include "models/hydraulics.h"

#include <cmath>
#include <numbers>

namespace dctwin {

//---------------------------------------------------------------------------------------------
PowerLaw PowerLaw::fromNominal(double dp_nominal, double m_nominal, double n,
                               double small_fraction) {
  PowerLaw law;
  law.n = n;
  law.k = dp_nominal / std::pow(m_nominal, n);
  law.m_small = small_fraction * m_nominal;
  return law;
}

double PowerLaw::dp(double m) const {
  return k * m * std::pow(m * m + m_small * m_small, 0.5 * (n - 1.0));
}

double PowerLaw::dpSlope(double m, double* ddp) const {
  const double s = m * m + m_small * m_small;
  const double a = 0.5 * (n - 1.0);
  // s^(a-1): n = 2 (valves, quadratic laws) needs only a square root
  const double p = n == 2.0 ? 1.0 / std::sqrt(s) : std::pow(s, a - 1.0);
  *ddp = k * p * (s + 2.0 * a * m * m);
  return k * m * p * s;
}

double PowerLaw::ddp_dm(double m) const {
  double s = m * m + m_small * m_small;
  // d/dm [m s^a] = s^a + 2 a m^2 s^(a-1),  a = (n-1)/2
  double a = 0.5 * (n - 1.0);
  return k * std::pow(s, a - 1.0) * (s + 2.0 * a * m * m);
}

//---------------------------------------------------------------------------------------------
namespace {
double swameeJain(double Re, double rr) {
  double l = std::log10(rr / 3.7 + 5.74 / std::pow(Re, 0.9));
  return 0.25 / (l * l);
}
}  // namespace

double darcyFriction(double Re, double rr) {
  return darcyFrictionSlope(Re, rr, nullptr);
}

double darcyFrictionSlope(double Re, double rr, double* dfdlnRe) {
  constexpr double Re_lam = 2300.0, Re_turb = 4000.0;
  if (Re <= Re_lam) {
    const double f = 64.0 / std::max(Re, 1e-12);
    if (dfdlnRe) *dfdlnRe = -f;
    return f;
  }
  if (Re >= Re_turb) {
    // Swamee-Jain: f = 0.25 / l^2, l = log10(u), u = rr/3.7 + 5.74 Re^-0.9
    const double c = 5.74 / std::pow(Re, 0.9), u = rr / 3.7 + c;
    const double l = std::log10(u);
    if (dfdlnRe) *dfdlnRe = 0.45 * c / (l * l * l * u * std::numbers::ln10);
    return 0.25 / (l * l);
  }
  // cubic Hermite in x = ln Re between the laminar and turbulent laws, matching value and slope
  double x0 = std::log(Re_lam), x1 = std::log(Re_turb), x = std::log(Re);
  double f0 = 64.0 / Re_lam, d0 = -f0;  // d f / d ln Re of 64/Re
  double f1 = swameeJain(Re_turb, rr);
  double eps = 1e-4;
  double d1 = (swameeJain(Re_turb * std::exp(eps), rr) - f1) / eps;
  double h = x1 - x0, t = (x - x0) / h, t2 = t * t, t3 = t2 * t;
  if (dfdlnRe)
    *dfdlnRe = ((6 * t2 - 6 * t) * f0 + (3 * t2 - 4 * t + 1) * h * d0 + (-6 * t2 + 6 * t) * f1 +
                (3 * t2 - 2 * t) * h * d1) /
               h;
  return (2 * t3 - 3 * t2 + 1) * f0 + (t3 - 2 * t2 + t) * h * d0 + (-2 * t3 + 3 * t2) * f1 +
         (t3 - t2) * h * d1;
}

//---------------------------------------------------------------------------------------------
double PipeFriction::area() const {
  return 0.25 * std::numbers::pi * diameter * diameter;
}

double PipeFriction::dp(double m, double rho, double mu) const {
  double A = area();
  double Re = std::abs(m) * diameter / (A * mu);
  // written as f Re so that the laminar limit (f Re = 64) stays exact and finite at m = 0
  double fRe = Re > 1e-9 ? darcyFriction(Re, roughness / diameter) * Re : 64.0;
  // dp = f L/D m|m|/(2 rho A^2) = (f Re) L mu m / (2 rho A D^2)
  return fRe * length * mu * m / (2.0 * rho * A * diameter * diameter);
}

double PipeFriction::ddp_dm(double m, double rho, double mu) const {
  double d;
  dpSlope(m, rho, mu, &d);
  return d;
}

// dp = K (f Re) m with K = L mu / (2 rho A D^2) and Re = |m| D / (A mu), so
// d dp / dm = K (f Re + Re d(f Re)/dRe) = K Re (2 f + df/dln Re), and 64 K in the laminar limit
double PipeFriction::dpSlope(double m, double rho, double mu, double* ddp) const {
  const double A = area();
  const double Re = std::abs(m) * diameter / (A * mu);
  const double K = length * mu / (2.0 * rho * A * diameter * diameter);
  if (!(Re > 1e-9)) {
    *ddp = 64.0 * K;
    return 64.0 * K * m;
  }
  double dlnf;
  const double f = darcyFrictionSlope(Re, roughness / diameter, &dlnf);
  *ddp = K * Re * (2.0 * f + dlnf);
  return f * Re * length * mu * m / (2.0 * rho * A * diameter * diameter);
}

}  // namespace dctwin
