// pump.h: variable-speed centrifugal pump bank (identical pumps in parallel)
//
// head from a normalized catalog curve and the affinity laws (V_flow ~ N, dp ~ N^2):
//   dp(N, V) = dp_rated N^2 f(v / N),   v = V / (n_running V_rated)
// f is a monotone cubic through the catalog points, extended linearly past the last point so that
// the head keeps falling (and turns negative) at flows beyond the curve. Electrical power
//   P_ele = V dp / (eta_hyd eta_mot);   heat into the fluid = V dp / eta_hyd
// (the hydraulic losses and the useful work both end as heat in the coolant; motor losses go to
// air)
#pragma once

#include "models/interp.h"

namespace dctwin {

struct PumpParams {
  double V_rated = 0;    // flow of one pump at the rated point                (m3/s)
  double dp_rated = 0;   // total head of one pump at the rated point          (Pa)
  Pchip curve;           // head ratio vs flow ratio, f(1) = 1                  (1)
  double eta_hyd = 0.7;  // hydraulic efficiency                               (1)
  double eta_mot = 0.7;  // motor (and drive) efficiency                       (1)
};

// head of n_running identical pumps in parallel at speed ratio N and total flow V   (Pa)
double pumpHead(const PumpParams& p, int n_running, double N, double V);
// derivative of pumpHead with respect to V                                          (Pa s/m3)
double pumpHeadSlope(const PumpParams& p, int n_running, double N, double V);
// electrical power of the bank                                                     (W)
double pumpPowerElectric(const PumpParams& p, double V, double dp);
// heat added to the coolant by the bank                                            (W)
double pumpHeatToFluid(const PumpParams& p, double V, double dp);

}  // namespace dctwin
