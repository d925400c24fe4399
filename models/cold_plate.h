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

// the coolant temperature a cold plate sees (docs/models/cold_plate.md "Zero and reverse flow"):
// its inlet while the coolant flows, the local coolant around it (the rack's coolant node) when
// the flow stops or reverses, blended linearly in between, below blend_ratio of the design flow:
//   w = clamp(flow_ratio / blend_ratio, 0, 1),  T = w T_inlet + (1 - w) T_local
// flow_ratio is the flow over its design value (negative: reversed). One function, so that a
// per-GPU inlet (flow distribution) and the rack's see the same law.
double plateCoolantTemperature(double T_inlet, double T_local, double flow_ratio,
                               double blend_ratio = 0.1);

}  // namespace dctwin
