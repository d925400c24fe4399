// cold_plate.h: direct-to-chip cold plate thermal resistance vs coolant flow
//
// R = (T_case - T_inlet) / Q, the OCP definition [K39], referenced to the plate inlet; law
//   R(V) = R_inf + a V^-b,   V in L/min per flow path, a in K/W
// fitted to published tables (data/catalog/coldplates). Below 1 % of 1 L/min the flow is
// regularized, V -> sqrt(V^2 + V_s^2), so that R stays finite (and large) at zero flow.
#pragma once

namespace dctwin {

struct ColdPlateLaw {
  double R_inf = 0;  // resistance at infinite flow                     (K/W)
  double a = 0;      // coefficient                                      (K/W at 1 L/min)
  double b = 1;      // exponent                                         (1)
  double R(double V_flow_per_path) const;  // V in m3/s                  (K/W)
};

}  // namespace dctwin
