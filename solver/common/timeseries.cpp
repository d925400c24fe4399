// timeseries.cpp: evaluation of the scalar input series of a facility (heat loads, water
// temperature)
#include <algorithm>

#include "solver/common/params.h"

namespace dctwin {

//---------------------------------------------------------------------------------------------
double TimeSeries::eval(double time) const {
  if (v.empty()) return 0.0;
  const std::size_t n = std::min(t.size(), v.size());
  if (kind == Kind::Constant || n < 2 || !(time > t[0])) return v[0];
  if (time >= t[n - 1]) return v[n - 1];
  // first knot strictly after `time`; the segment is [i - 1, i]
  const auto it = std::upper_bound(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n), time);
  const std::size_t i = static_cast<std::size_t>(it - t.begin());
  if (kind == Kind::Steps) return v[i - 1];
  const double w = (time - t[i - 1]) / (t[i] - t[i - 1]);
  return v[i - 1] + w * (v[i] - v[i - 1]);
}

void TimeSeries::breakpoints(std::vector<double>& out) const {
  if (kind == Kind::Constant) return;
  // steps jump and linear series kink at every knot (the end knots included: the series is held
  // constant outside them); t = 0 is the start of every run and needs no stop
  for (double ti : t)
    if (ti > 0) out.push_back(ti);
}

}  // namespace dctwin
