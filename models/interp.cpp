#include "models/interp.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dctwin {

namespace {
void checkKnots(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) throw std::invalid_argument("interpolation: x and y differ in length");
  if (x.size() < 2) throw std::invalid_argument("interpolation: needs at least 2 points");
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
      throw std::invalid_argument("interpolation: non-finite point");
    if (i > 0 && !(x[i] > x[i - 1]))
      throw std::invalid_argument("interpolation: x must be strictly increasing");
  }
}

// index i of the segment [x_i, x_{i+1}] holding x, clamped to the end segments
std::size_t findSegment(const std::vector<double>& xs, double x) {
  auto it = std::upper_bound(xs.begin() + 1, xs.end() - 1, x);
  return static_cast<std::size_t>(it - xs.begin()) - 1;
}
}  // namespace

//---------------------------------------------------------------------------------------------
Pchip::Pchip(std::span<const double> x, std::span<const double> y)
    : x_(x.begin(), x.end()), y_(y.begin(), y.end()) {
  checkKnots(x, y);
  const std::size_t n = x_.size();
  std::vector<double> h(n - 1), delta(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    h[i] = x_[i + 1] - x_[i];
    delta[i] = (y_[i + 1] - y_[i]) / h[i];
  }
  d_.assign(n, 0.0);
  if (n == 2) {
    d_[0] = d_[1] = delta[0];
    return;
  }
  // interior slopes: weighted harmonic mean, zero at local extrema (Fritsch-Carlson)
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (delta[i - 1] * delta[i] <= 0.0) {
      d_[i] = 0.0;
    } else {
      double w1 = 2.0 * h[i] + h[i - 1], w2 = h[i] + 2.0 * h[i - 1];
      d_[i] = (w1 + w2) / (w1 / delta[i - 1] + w2 / delta[i]);
    }
  }
  // end slopes: one-sided three-point estimate, limited to keep monotonicity
  auto endSlope = [](double h0, double h1, double d0, double d1) {
    double d = ((2.0 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (d * d0 <= 0.0) return 0.0;
    if (d0 * d1 <= 0.0 && std::abs(d) > std::abs(3.0 * d0)) return 3.0 * d0;
    return d;
  };
  d_[0] = endSlope(h[0], h[1], delta[0], delta[1]);
  d_[n - 1] = endSlope(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3]);
}

std::size_t Pchip::segment(double x) const {
  return findSegment(x_, x);
}

double Pchip::operator()(double x) const {
  if (x <= x_.front()) return y_.front() + d_.front() * (x - x_.front());
  if (x >= x_.back()) return y_.back() + d_.back() * (x - x_.back());
  std::size_t i = segment(x);
  double h = x_[i + 1] - x_[i], t = (x - x_[i]) / h;
  double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * y_[i] + (t3 - 2 * t2 + t) * h * d_[i] +
         (-2 * t3 + 3 * t2) * y_[i + 1] + (t3 - t2) * h * d_[i + 1];
}

double Pchip::slope(double x) const {
  if (x <= x_.front()) return d_.front();
  if (x >= x_.back()) return d_.back();
  std::size_t i = segment(x);
  double h = x_[i + 1] - x_[i], t = (x - x_[i]) / h;
  double t2 = t * t;
  return (6 * t2 - 6 * t) / h * y_[i] + (3 * t2 - 4 * t + 1) * d_[i] +
         (-6 * t2 + 6 * t) / h * y_[i + 1] + (3 * t2 - 2 * t) * d_[i + 1];
}

//---------------------------------------------------------------------------------------------
LinearTable::LinearTable(std::span<const double> x, std::span<const double> y)
    : x_(x.begin(), x.end()), y_(y.begin(), y.end()) {
  checkKnots(x, y);
}

std::size_t LinearTable::segment(double x) const {
  return findSegment(x_, x);
}

double LinearTable::operator()(double x) const {
  std::size_t i = segment(x);
  return y_[i] + (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]) * (x - x_[i]);
}

double LinearTable::slope(double x) const {
  std::size_t i = segment(x);
  return (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]);
}

}  // namespace dctwin
