// cold_plate.h: direct-to-chip cold plate thermal resistance vs coolant flow
//
// R = (T_case - T_inlet) / Q, the OCP definition [K39], referenced to the plate inlet; either the
// law
//   R(V) = R_inf + a V^-b,   V in L/min per flow path, a in K/W
// fitted to published tables (data/catalog/coldplates), or the published table itself:
//   ln R = p(ln V)   p: monotone piecewise cubic (Fritsch-Carlson, models/interp.h) through the
//                    points (ln V_i, ln R_i), so that R passes through every point and stays
//                    monotone between them; outside the table p continues linearly with its end
//                    slopes, i.e. a power law R ~ V^s from each end (docs/models/cold_plate.md)
// Below 1 % of 1 L/min the flow is regularized, V -> sqrt(V^2 + V_s^2), so that R stays finite
// (and large) at zero flow.
#pragma once

#include <span>

#include "models/interp.h"

namespace dctwin {

struct ColdPlateLaw {
  double R_inf = 0;  // resistance at infinite flow                     (K/W)
  double a = 0;      // coefficient                                      (K/W at 1 L/min)
  double b = 1;      // exponent                                         (1)
  Pchip table;       // ln R (K/W) over ln V (L/min); empty: the law above
  double R(double V_flow_per_path) const;  // V in m3/s                  (K/W)
};

// the law of a published fit
ColdPlateLaw coldPlateFit(double R_inf, double a, double b);
// the law of a published table: flows per path (m3/s) strictly increasing, resistances (K/W) > 0
// and not increasing with flow, at least 2 points; throws std::invalid_argument otherwise
ColdPlateLaw coldPlateTable(std::span<const double> flow, std::span<const double> R);

// the coolant temperature a cold plate sees (docs/models/cold_plate.md "Zero and reverse flow"):
// its inlet while the coolant flows, the local coolant around it (the rack's coolant node) when
// the flow stops or reverses, blended linearly in between, below blend_ratio of the design flow:
//   w = clamp(flow_ratio / blend_ratio, 0, 1),  T = w T_inlet + (1 - w) T_local
// flow_ratio is the flow over its design value (negative: reversed). One function, so that a
// per-GPU inlet (flow distribution) and the rack's see the same law.
double plateCoolantTemperature(double T_inlet, double T_local, double flow_ratio,
                               double blend_ratio = 0.1);

}  // namespace dctwin
