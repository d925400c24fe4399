// heat_exchanger.h: counterflow plate heat exchanger by the epsilon-NTU method
//
//   C_min = min(C1, C2), Z = C_min/C_max, NTU = UA/C_min
//   eps = (1 - exp(-NTU(1-Z))) / (1 - Z exp(-NTU(1-Z)))       (Z -> 1: eps = NTU/(1+NTU))
//   Q = eps C_min (T_hot,in - T_cold,in)                        (Q > 0 from hot to cold)
// UA from the two film conductances, each scaling with its own flow [K45, K62]:
//   1/UA = 1/hA_hot + 1/hA_cold,   hA_i = hA_i,nominal (m_i/m_i,nominal)^n,  n = 0.8
// sized once from a rated point (capacity, approach, flows): see sizeCounterflow().
// beyond the rated point (docs/models/heat_exchanger.md): a given UA at the rated flows
// (splitCounterflowUA), an approach at a load and a pair of flows (sizeCounterflow on that
// point), or a vendor table of UA over the secondary flow at the rated primary flow (ua_table,
// PCHIP in log-log; the primary flow's effect by the film law's ratio)
#pragma once

#include <span>

#include "models/interp.h"

namespace dctwin {

double effectivenessCounterflow(double NTU, double Z);  // (1)
double ntuCounterflow(double eps, double Z);            // inverse of the above (1)

struct HexParams {
  double hA_hot_nominal = 0;   // film conductance, hot (secondary) side        (W/K)
  double hA_cold_nominal = 0;  // film conductance, cold (primary) side         (W/K)
  double m_hot_nominal = 0;    // (kg/s)
  double m_cold_nominal = 0;   // (kg/s)
  double n = 0.8;              // flow exponent of the film conductances        (1)
  // vendor table (a datasheet's UA at part load): ln UA over ln of the regularized secondary flow;
  // empty: the film law
  Pchip ua_table;
};

// film conductances that split a given UA at the rated flows by r = hA_cold/hA_hot
// (docs/models/heat_exchanger.md)
HexParams splitCounterflowUA(double UA, double r_nominal, double m_hot, double m_cold,
                             double n = 0.8);
// attach a vendor table of UA (W/K) over the secondary mass flow (kg/s, strictly increasing,
// > 0) at the rated primary flow; the table points are reproduced exactly. Throws
// std::invalid_argument on a malformed table.
void setUaTable(HexParams& p, std::span<const double> m_hot, std::span<const double> UA);

// overall conductance at the given mass flows, regularized below 1 % of nominal flow  (W/K)
double hexUA(const HexParams& p, double m_hot, double m_cold);

// heat flow from hot to cold for capacity rates C = m cp and inlet temperatures       (W)
double hexHeatFlow(double UA, double C_hot, double C_cold, double T_hot_in, double T_cold_in);

// rated point of a liquid-to-liquid CDU heat exchanger
struct HexRating {
  double Q = 0;          // rated capacity                                 (W)
  double approach = 0;   // T_hot,out - T_cold,in at the rated point        (K)
  double T_cold_in = 0;  // rated facility-water inlet                      (K)
  double m_hot = 0;      // (kg/s)
  double m_cold = 0;     // (kg/s)
  double cp_hot = 0;     // (J/(kg K))
  double cp_cold = 0;    // (J/(kg K))
  double r_nominal = 1;  // hA_cold/hA_hot at the rated point              (1)
  double T_hot_in = 0;   // hot inlet at the rated point; 0: approach + Q/(m_hot cp_hot) (K)
};

// UA and film conductances that reproduce the rating exactly; throws std::invalid_argument when the
// rating is infeasible (eps >= 1, e.g. an approach too small for the capacity and flows)
HexParams sizeCounterflow(const HexRating& r, double n = 0.8);

}  // namespace dctwin
