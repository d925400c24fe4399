#include "models/fluid_mix.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace dctwin {

namespace {

constexpr double kC = 273.15;
using Coef = std::array<double, 18>;
constexpr std::array<int, 6> kNT{4, 4, 4, 3, 2, 1};

// Melinder (2010) coefficients, as in lbl-srg/modelica-buildings [K50]
struct Set {
  double x_ref, T_ref;  // (1), (degC)
  Coef d, eta, Tf, cp, lambda;
};

const Set kPropylene{
    0.307031,
    32.7083,
    {1.018e3, -5.406e-1, -2.666e-3, 1.347e-5, 7.604e-1, -9.450e-3, 5.541e-5, -1.343e-7, -2.498e-3,
     2.700e-5, -4.018e-7, 3.376e-9, -1.550e-4, 2.829e-6, -7.175e-9, -1.131e-6, -2.221e-8, 2.342e-8},
    {6.837e-1, -3.045e-2, 2.525e-4, -1.399e-6, 3.328e-2, -3.984e-4, 4.332e-6, -1.860e-8, 5.453e-5,
     -8.600e-8, -1.593e-8, -4.465e-11, -3.900e-6, 1.054e-7, -1.589e-9, -1.587e-8, 4.475e-10,
     3.564e-9},
    {-1.325e1, -3.820e-5, 7.865e-7, -1.733e-9, -6.631e-1, 6.774e-6, -6.242e-8, -7.819e-10,
     -1.094e-2, 5.332e-8, -4.169e-9, 3.288e-11, -2.283e-4, -1.131e-8, 1.918e-10, -3.409e-6,
     8.035e-11, 1.465e-8},
    {3.882e3, 2.699e0, -1.659e-3, -1.032e-5, -1.304e1, 5.070e-2, -4.752e-5, 1.522e-6, -1.598e-1,
     9.534e-5, 1.167e-5, -4.870e-8, 3.539e-4, 3.102e-5, -2.950e-7, 5.000e-5, -7.135e-7, -4.959e-7},
    {4.513e-1, 7.955e-4, 3.482e-8, -5.966e-9, -4.795e-3, -1.678e-5, 8.941e-8, 1.493e-10, 2.076e-5,
     1.563e-7, -4.615e-9, 9.897e-12, -9.083e-8, -2.518e-9, 6.543e-11, -5.952e-10, -3.605e-11,
     2.104e-11}};

const Set kEthylene{
    0.308462,
    31.728,
    {1.034e3, -4.781e-1, -2.692e-3, 4.725e-6, 1.311e0, -6.876e-3, 4.805e-5, 1.690e-8, 7.490e-5,
     7.855e-5, -3.995e-7, 4.982e-9, -1.062e-4, 1.229e-6, -1.153e-8, -9.623e-7, -7.221e-8, 4.891e-8},
    {4.705e-1, -2.550e-2, 1.782e-4, -7.669e-7, 2.471e-2, -1.171e-4, 1.052e-6, -1.634e-8, 3.328e-6,
     -1.086e-6, -1.051e-8, -6.475e-10, 1.695e-6, 3.157e-9, 4.063e-10, 3.089e-8, 1.831e-10,
     -1.865e-9},
    {-1.525e1, -1.566e-6, -2.278e-7, 2.169e-9, -8.080e-1, -1.339e-6, 2.047e-08, -2.717e-11,
     -1.334e-2, 6.332e-8, 2.373e-10, -2.183e-12, -7.293e-5, -1.764e-9, -2.442e-11, 1.006e-6,
     -7.662e-11, 1.140e-9},
    {3.737e3, 2.930e0, -4.675e-3, -1.389e-5, -1.799e1, 1.046e-1, -4.147e-4, 1.847e-7, -9.933e-2,
     3.516e-4, 5.109e-6, -7.138e-8, 2.610e-3, -1.189e-6, -1.643e-7, 1.537e-5, -4.272e-7, -1.618e-6},
    {4.720e-1, 8.903e-4, -1.058e-6, -2.789e-9, -4.286e-3, -1.473e-5, 1.059e-7, -1.142e-10, 1.747e-5,
     6.814e-8, -3.612e-9, 2.365e-12, 3.017e-8, -2.412e-9, 4.004e-11, -1.322e-09, 2.555e-11,
     2.678e-11}};

const Set& set(Glycol g) {
  return g == Glycol::Ethylene ? kEthylene : kPropylene;
}

double poly(const Set& s, const Coef& a, double x, double T_degC) {
  const double dx = 100.0 * (x - s.x_ref), dy = T_degC - s.T_ref;
  double f = 0, px = 1;
  int n = 0;
  for (int i = 0; i < 6; ++i, px *= dx) {
    double py = 1;
    for (int j = 0; j < kNT[i]; ++j, py *= dy) f += a[n++] * px * py;
  }
  return f;
}

}  // namespace

MixtureProps glycolProps(Glycol g, double x, double T) {
  const Set& s = set(g);
  const double t = T - kC;
  return {poly(s, s.d, x, t), poly(s, s.cp, x, t), 1e-3 * std::exp(poly(s, s.eta, x, t)),
          poly(s, s.lambda, x, t)};
}

double glycolFreezePoint(Glycol g, double x) {
  // the polynomial has a weak temperature argument: fixed point from -10 degC
  const Set& s = set(g);
  double tf = -10.0;
  for (int it = 0; it < 50; ++it) tf = poly(s, s.Tf, x, tf);
  return tf + kC;
}

double glycolVolumeToMassFraction(Glycol g, double phi, double T) {
  const double xm = kGlycolMassFractionMax, delta = 0.01;
  const double d_w = glycolProps(g, 0.0, T).rho;
  const double d_m = glycolProps(g, xm, T).rho;
  const double d_g = d_m + (1.0 - xm) * (d_m - glycolProps(g, xm - delta, T).rho) / delta;
  return phi * d_g / (phi * d_g + (1.0 - phi) * d_w);
}

FluidData glycolMixture(const std::string& name, Glycol g, double x) {
  if (!(x >= 0 && x <= kGlycolMassFractionMax))
    throw std::invalid_argument("glycol mass fraction must lie between 0 and 0.6");
  FluidData d;
  d.name = name;
  d.T_min = glycolFreezePoint(g, x);
  d.T_max = 100.0 + kC;
  // knots every 10 K from the 10 K multiple at or below the freeze point to 100 degC
  const double t0 = 10.0 * std::floor((d.T_min - kC) / 10.0 + 1e-9);
  for (double t = t0; t <= 100.0 + 1e-9; t += 10.0) {
    const MixtureProps p = glycolProps(g, x, t + kC);
    d.T.push_back(t + kC);
    d.rho.push_back(p.rho);
    d.cp.push_back(p.cp);
    d.mu.push_back(p.mu);
    d.k.push_back(p.k);
  }
  return d;
}

FluidData constantFluid(const std::string& name, double rho, double cp, double mu, double k,
                        double T_min, double T_max) {
  FluidData d;
  d.name = name;
  d.T = {T_min, T_max};
  d.rho = {rho, rho};
  d.cp = {cp, cp};
  d.mu = {mu, mu};
  d.k = {k, k};
  d.T_min = T_min;
  d.T_max = T_max;
  return d;
}

}  // namespace dctwin
