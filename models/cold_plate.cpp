#include "models/cold_plate.h"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace dctwin {

double ColdPlateLaw::R(double V) const {
  double v = V * 60000.0;           // L/min
  constexpr double v_small = 0.01;  // (coldPlateTable's points sit at the same regularized flow)
  v = std::sqrt(v * v + v_small * v_small);
  if (!table.empty()) return std::exp(table(std::log(v)));
  return R_inf + a * std::pow(v, -b);
}

ColdPlateLaw coldPlateFit(double R_inf, double a, double b) {
  ColdPlateLaw law;
  law.R_inf = R_inf;
  law.a = a;
  law.b = b;
  return law;
}

ColdPlateLaw coldPlateTable(std::span<const double> flow, std::span<const double> R) {
  if (flow.size() != R.size() || flow.size() < 2)
    throw std::invalid_argument("cold-plate table: needs at least 2 points, as many R as flows");
  std::vector<double> x(flow.size()), y(R.size());
  for (std::size_t i = 0; i < flow.size(); ++i) {
    if (!(flow[i] > 0) || !(R[i] > 0))
      throw std::invalid_argument("cold-plate table: flows and resistances must be > 0");
    if (i > 0 && !(flow[i] > flow[i - 1]))
      throw std::invalid_argument("cold-plate table: flows must increase strictly");
    if (i > 0 && R[i] > R[i - 1])
      throw std::invalid_argument("cold-plate table: resistance must not rise with flow");
    // at the regularized flow of R(), so that the table points are reproduced exactly
    const double v = flow[i] * 60000.0;
    x[i] = std::log(std::sqrt(v * v + 1e-4));
    y[i] = std::log(R[i]);
  }
  ColdPlateLaw law;
  law.table = Pchip(x, y);
  return law;
}

}  // namespace dctwin
