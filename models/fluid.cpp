#include "models/fluid.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dctwin {

//---------------------------------------------------------------------------------------------
Fluid::Fluid(FluidData data) : d_(std::move(data)) {
  const std::size_t n = d_.T.size();
  if (n < 2) throw std::invalid_argument("fluid '" + d_.name + "': needs at least 2 table rows");
  if (d_.rho.size() != n || d_.cp.size() != n || d_.mu.size() != n || d_.k.size() != n)
    throw std::invalid_argument("fluid '" + d_.name + "': table columns differ in length");
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && !(d_.T[i] > d_.T[i - 1]))
      throw std::invalid_argument("fluid '" + d_.name + "': temperatures must increase");
    if (!(d_.rho[i] > 0 && d_.cp[i] > 0 && d_.mu[i] > 0 && d_.k[i] > 0))
      throw std::invalid_argument("fluid '" + d_.name + "': properties must be positive");
  }
  h_knot_.assign(n, 0.0);
  lnmu_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    lnmu_[i] = std::log(d_.mu[i]);
    if (i > 0)
      h_knot_[i] = h_knot_[i - 1] + 0.5 * (d_.cp[i] + d_.cp[i - 1]) * (d_.T[i] - d_.T[i - 1]);
  }
  rho_ref_ = rho(298.15);
}

// segment [T_i, T_i+1] holding T, clamped to the end segments (linear extrapolation)
std::size_t Fluid::segment(double T) const {
  auto it = std::upper_bound(d_.T.begin() + 1, d_.T.end() - 1, T);
  return static_cast<std::size_t>(it - d_.T.begin()) - 1;
}

namespace {
inline double lerp(const std::vector<double>& x, const std::vector<double>& y, std::size_t i,
                   double t) {
  return y[i] + (y[i + 1] - y[i]) / (x[i + 1] - x[i]) * (t - x[i]);
}
}  // namespace

double Fluid::rho(double T) const {
  return lerp(d_.T, d_.rho, segment(T), T);
}
double Fluid::cp(double T) const {
  return lerp(d_.T, d_.cp, segment(T), T);
}
double Fluid::k(double T) const {
  return lerp(d_.T, d_.k, segment(T), T);
}
double Fluid::mu(double T) const {
  return std::exp(lerp(d_.T, lnmu_, segment(T), T));
}

double Fluid::h(double T) const {
  std::size_t i = segment(T);
  double dT = T - d_.T[i];
  double slope = (d_.cp[i + 1] - d_.cp[i]) / (d_.T[i + 1] - d_.T[i]);
  return h_knot_[i] + d_.cp[i] * dT + 0.5 * slope * dT * dT;
}

double Fluid::T_of_h(double hh) const {
  // start from the linear estimate, then Newton (h is strictly increasing where cp > 0)
  double T = d_.T[0] + hh / d_.cp[0];
  for (int it = 0; it < 50; ++it) {
    double c = cp(T);
    if (!(c > 0)) break;
    double dT = (hh - h(T)) / c;
    T += dT;
    if (std::abs(dT) < 1e-12 * (1.0 + std::abs(T))) break;
  }
  return T;
}

}  // namespace dctwin
