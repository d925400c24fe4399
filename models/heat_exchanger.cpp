#include "models/heat_exchanger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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
double hexUA(const HexParams& p, double m_hot, double m_cold) {
  // (m/m_nom)^n, regularized below 1 % of nominal flow and exact at the nominal flow
  auto ratio = [&](double m, double m_nom) {
    double x = m / m_nom, s2 = 1e-4;
    return std::pow((x * x + s2) / (1.0 + s2), 0.5 * p.n);
  };
  double hA_h = p.hA_hot_nominal * ratio(m_hot, p.m_hot_nominal);
  double hA_c = p.hA_cold_nominal * ratio(m_cold, p.m_cold_nominal);
  return 1.0 / (1.0 / hA_h + 1.0 / hA_c);
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
  HexParams p;
  p.n = n;
  p.m_hot_nominal = r.m_hot;
  p.m_cold_nominal = r.m_cold;
  // 1/UA = 1/hA_hot + 1/hA_cold with hA_cold = r hA_hot  =>  hA_hot = UA (1 + r)/r
  p.hA_hot_nominal = UA * (1.0 + r.r_nominal) / r.r_nominal;
  p.hA_cold_nominal = UA * (1.0 + r.r_nominal);
  return p;
}

}  // namespace dctwin
