// interp.h: one-dimensional interpolation used by catalog curves and property tables
#pragma once

#include <span>
#include <vector>

namespace dctwin {

// monotone piecewise-cubic Hermite interpolant (Fritsch-Carlson), linear past the ends
//   keeps a monotone data set monotone, which pump curves and property tables need so that
//   the hydraulic solver sees a strictly decreasing head and a strictly increasing resistance
class Pchip {
 public:
  Pchip() = default;
  // throws std::invalid_argument unless x is strictly increasing and x.size() == y.size() >= 2
  Pchip(std::span<const double> x, std::span<const double> y);

  double operator()(double x) const;  // value
  double slope(double x) const;       // first derivative
  double xMin() const { return x_.front(); }
  double xMax() const { return x_.back(); }
  bool empty() const { return x_.empty(); }

 private:
  std::size_t segment(double x) const;
  std::vector<double> x_, y_, d_;  // knots, values, knot slopes
};

// piecewise-linear table with linear extrapolation; same preconditions as Pchip
class LinearTable {
 public:
  LinearTable() = default;
  LinearTable(std::span<const double> x, std::span<const double> y);
  double operator()(double x) const;
  double slope(double x) const;
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }

 private:
  std::size_t segment(double x) const;
  std::vector<double> x_, y_;
};

}  // namespace dctwin
