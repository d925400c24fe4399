// pipe.h: plug flow with transport delay as a chain of finite volumes (first-order upwind)
//
// segment i of n, each of mass M = rho V/n, enthalpy-conserving:
//   M cp(T_i) dT_i/dt = m (h(T_{i-1}) - h(T_i)) - UA_seg (T_i - T_amb),   T_{-1} = T_in   (m >= 0)
// a step at the inlet leaves the n-th volume as the tanks-in-series (Erlang) response with mean
// delay tau = M_total / m = V/V_flow; numerical dispersion shrinks as 1/sqrt(n).
#pragma once

#include "models/fluid.h"

namespace dctwin {

// writes dT/dt of the n segments T[0..n) for inlet temperature T_in and flow m >= 0; returns the
// heat lost to ambient (W). No allocation.
double pipeSegmentsRhs(const Fluid& f, double m, double M_seg, double UA_seg, double T_amb,
                       double T_in, const double* T, double* dTdt, int n);

}  // namespace dctwin
