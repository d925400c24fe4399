// power_smoothing.h: GPU power smoothing (floor, ramp-rate limiter with ramp-down hysteresis),
// swing metrics of a power series, and rack energy storage that shaves the grid draw
//
// per GPU, stepped with the GPU layer's fixed step dt ([WL3][WL4]); P_work is the power
// the GPU's work asks for, P_prev the board power of the previous step, h the ramp-down hold timer:
//   target   = max(floor, P_work)  while enabled and active;  P_work otherwise
//   rise     (target >= P_prev):  h = 0;  P = min(target, P_prev + r_up dt)
//   fall     (target <  P_prev):  h += dt;  P = P_prev while h <= t_hys,
//                                  then P = max(target, P_prev - r_down min(dt, h - t_hys))
//   filler        = max(0, P - P_work)      dummy work, heat like any other power
//   work_fraction = min(1, P / P_work)      < 1 only while the up-ramp cannot follow the work
// r_up, r_down = 0 mean unlimited. The first call (or any call while disabled) takes P = P_work.
//
// rack energy storage (GB300 NVL72 PSU storage [WL6]; efficiency 1 (a)); P_s > 0 discharges:
//   target   = target_W                                  if target_W > 0
//            = avg,  tau d avg/dt = P_rack - avg         otherwise (backward Euler)
//            + (capacity/2 - soc)/soc_tau                if soc_tau > 0 (SOC recovery)
//   P_s      = clamp(P_rack - target, -P_max, P_max),  then -(capacity - soc)/dt <= P_s <= soc/dt
//   soc     -= P_s dt,   P_grid = P_rack - P_s            (P_grid dt = P_rack dt + delta soc)
#pragma once

#include <span>

namespace dctwin {

struct PowerSmoothingParams {
  bool enabled = false;
  double floor = 0;       // minimum board power while a job runs (W); e.g. 0.6 * TDP
  double ramp_up = 0;     // max rise of the drawn power (W/s); 0 = unlimited
  double ramp_down = 0;   // max fall (W/s); 0 = unlimited
  double hysteresis = 0;  // hold time before a ramp-down may start (s)
};

struct PowerSmoothingState {
  double P_out = 0;     // board power drawn in the last step (W)
  double hold = 0;      // time the request has stayed below P_out (s)
  bool primed = false;  // false: the next call starts at the request (steady start)
};

struct SmoothedPower {
  double P = 0;              // board power drawn during the step (W)
  double filler = 0;         // P - P_work >= 0, burnt by dummy work (W)
  double work_fraction = 1;  // share of the requested work power available (1)
};

// one step of length dt; active = a job runs on the GPU (the floor applies only then; the ramp
// limits always apply while enabled, so a job end ramps down at r_down: the GB300 "burn" [WL6])
SmoothedPower smoothPower(const PowerSmoothingParams& p, double P_work, double dt,
                          PowerSmoothingState& s, bool active = true);

// the most the GPU may draw during the next step of length dt: P_prev + r_up dt, or +infinity
// when the up-ramp is unlimited, smoothing is disabled or the state is not primed yet. Passing
// min(power cap, ceiling) to gpuOperatingPoint makes the GPU lower its clock instead of the work
// being scaled afterwards (then smoothPower returns work_fraction = 1 and only adds filler).
double powerSmoothingCeiling(const PowerSmoothingParams& p, const PowerSmoothingState& s,
                             double dt);

// swing metrics of a uniformly sampled power series (any unit of power; ramps per second)
struct SwingMetrics {
  double mean = 0, min = 0, max = 0;
  double peak_to_peak = 0;   // max - min
  double rms_ripple = 0;     // sqrt(mean((P - mean)^2))
  double max_ramp_up = 0;    // max (P[k] - P[k-1]) / dt, >= 0
  double max_ramp_down = 0;  // max (P[k-1] - P[k]) / dt, >= 0
};
SwingMetrics swingMetrics(std::span<const double> P, double dt);

// rack energy storage between the rack and the grid
struct StorageParams {
  double capacity_J = 0;  // usable energy (J)
  double P_max_W = 0;     // charge/discharge power limit (W); <= 0: unlimited
  double target_W = 0;    // grid draw to hold (W); <= 0: follow a moving average
  double tau = 60;        // moving-average time constant (s); <= 0: no smoothing
  double soc_tau = 0;     // SOC recovery toward half capacity (s); <= 0: off
};
struct StorageState {
  double soc_J = 0;     // stored energy (J); set the initial charge, e.g. capacity/2
  double avg = 0;       // moving average of the rack power (W)
  bool primed = false;  // false: the next call starts the average at P_rack
};
// the grid power (W) for a rack drawing P_rack (W) during a step dt; updates soc and the average
double gridPower(const StorageParams& p, double P_rack, double dt, StorageState& s);

// a site battery at the point of interconnection (docs/models/grid.md "Mitigations"): the same
// control as the rack store (the meter follows a moving average of the site's demand, the SOC
// pulled back to half), with conversion losses: of a round-trip efficiency eta_rt, sqrt(eta_rt)
// each way. Returns the meter power (W) for a site demand P_site (W); `P_out` the power the battery
// gives the site (> 0 discharging, < 0 charging) and `loss` its conversion loss (>= 0), both W.
double siteBatteryPower(const StorageParams& p, double eta_rt, double P_site, double dt,
                        StorageState& s, double& P_out, double& loss);

}  // namespace dctwin
