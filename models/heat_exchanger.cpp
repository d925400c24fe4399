#include "models/heat_exchanger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace dctwin {

//---------------------------------------------------------------------------------------------
double effectivenessCounterflow(double NTU, double Z) {
  if (NTU <= 0) return 0.0;
  if (std::abs(1.0 - Z) < 1e-6) return NTU / (1.0 + NTU);
  double e = std::exp(-NTU * (1.0 - Z));
  return (1.0 - e) / (1.0 - Z * e);
}

double ntuCounterflow(double eps, double Z) {
  if (std::abs(1.0 - Z) < 1e-6) return eps / (1.0 - eps);
  return std::log((1.0 - eps * Z) / (1.0 - eps)) / (1.0 - Z);
}

//---------------------------------------------------------------------------------------------
namespace {
// secondary flow regularized below 1 % of nominal flow (the table's abscissa)   (kg/s)
double regularized(double m, double m_nom) {
  return std::sqrt(m * m + 1e-4 * m_nom * m_nom);
}
double filmUA(const HexParams& p, double m_hot, double m_cold) {
  // (m/m_nom)^n, regularized below 1 % of nominal flow and exact at the nominal flow
  auto ratio = [&](double m, double m_nom) {
    double x = m / m_nom, s2 = 1e-4;
    return std::pow((x * x + s2) / (1.0 + s2), 0.5 * p.n);
  };
  double hA_h = p.hA_hot_nominal * ratio(m_hot, p.m_hot_nominal);
  double hA_c = p.hA_cold_nominal * ratio(m_cold, p.m_cold_nominal);
  return 1.0 / (1.0 / hA_h + 1.0 / hA_c);
}
}  // namespace

double hexUA(const HexParams& p, double m_hot, double m_cold) {
  if (p.ua_table.empty()) return filmUA(p, m_hot, m_cold);
  // the table at the rated primary flow, the primary flow's effect by the film law's ratio
  const double UA_t = std::exp(p.ua_table(std::log(regularized(m_hot, p.m_hot_nominal))));
  return UA_t * filmUA(p, m_hot, m_cold) / filmUA(p, m_hot, p.m_cold_nominal);
}

HexParams splitCounterflowUA(double UA, double r, double m_hot, double m_cold, double n) {
  if (!(UA > 0 && r > 0 && m_hot > 0 && m_cold > 0))
    throw std::invalid_argument("heat exchanger: UA, flows and the film ratio must be > 0");
  HexParams p;
  p.n = n;
  p.m_hot_nominal = m_hot;
  p.m_cold_nominal = m_cold;
  // 1/UA = 1/hA_hot + 1/hA_cold with hA_cold = r hA_hot  =>  hA_hot = UA (1 + r)/r
  p.hA_hot_nominal = UA * (1.0 + r) / r;
  p.hA_cold_nominal = UA * (1.0 + r);
  return p;
}

void setUaTable(HexParams& p, std::span<const double> m_hot, std::span<const double> UA) {
  if (m_hot.size() != UA.size() || m_hot.size() < 2)
    throw std::invalid_argument("heat exchanger table: needs >= 2 (flow, UA) pairs");
  std::vector<double> x(m_hot.size()), y(UA.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(m_hot[i] > 0 && UA[i] > 0))
      throw std::invalid_argument("heat exchanger table: flows and UA must be > 0");
    // knots at the regularized flow, so that hexUA at a table flow returns its UA exactly
    x[i] = std::log(regularized(m_hot[i], p.m_hot_nominal));
    y[i] = std::log(UA[i]);
  }
  p.ua_table = Pchip(x, y);  // throws unless the flows increase strictly
}

double hexHeatFlow(double UA, double C_hot, double C_cold, double T_hot_in, double T_cold_in) {
  C_hot = std::max(C_hot, 0.0);
  C_cold = std::max(C_cold, 0.0);
  double C_min = std::min(C_hot, C_cold), C_max = std::max(C_hot, C_cold);
  if (C_min <= 0.0) return 0.0;
  double eps = effectivenessCounterflow(UA / C_min, C_min / C_max);
  return eps * C_min * (T_hot_in - T_cold_in);
}

//---------------------------------------------------------------------------------------------
HexParams sizeCounterflow(const HexRating& r, double n) {
  double C_hot = r.m_hot * r.cp_hot, C_cold = r.m_cold * r.cp_cold;
  if (!(r.Q > 0 && r.approach > 0 && C_hot > 0 && C_cold > 0))
    throw std::invalid_argument("heat exchanger rating: capacity, approach and flows must be > 0");
  // rated temperatures: the hot stream leaves at T_cold_in + approach
  double T_hot_out = r.T_cold_in + r.approach;
  double T_hot_in = r.T_hot_in > 0 ? r.T_hot_in : T_hot_out + r.Q / C_hot;
  double C_min = std::min(C_hot, C_cold), C_max = std::max(C_hot, C_cold);
  double eps = r.Q / (C_min * (T_hot_in - r.T_cold_in));
  if (!(eps < 1.0))
    throw std::invalid_argument("heat exchanger rating is infeasible: effectiveness " +
                                std::to_string(eps) + " >= 1");
  double UA = ntuCounterflow(eps, C_min / C_max) * C_min;
  return splitCounterflowUA(UA, r.r_nominal, r.m_hot, r.m_cold, n);
}

}  // namespace dctwin
