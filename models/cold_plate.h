// cold_plate.h: direct-to-chip cold plate thermal resistance vs coolant flow
//
// R = (T_case - T_inlet) / Q, the OCP definition [K39], referenced to the plate inlet; either the
// law
//   R(V) = R_inf + a V^-b,   V in L/min per flow path, a in K/W
// fitted to published tables (data/catalog/coldplates), or the published table itself (issue 19):
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

}  // namespace dctwin
