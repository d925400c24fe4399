// ride_through.h: what the site's equipment does in a grid disturbance
// (docs/models/ride_through.md)
//
// A disturbance is a rectangular profile at the site's bus: from t0 for `duration` the voltage is
// `residual` of nominal (a sag; 1: none) and the frequency off by `df` (Hz; 0: none). Each piece
// of equipment answers from its tolerance:
//   power-shelf PSUs (racks not behind a UPS): ride through when residual >= psu_V_min (inside
//     their input range) or duration <= psu_holdup (the bulk capacitor's hold-up; the ITIC curve's
//     0 V for 20 ms [K143], an ORv3 shelf PSU's 20 ms at full load [K144]); else the rack drops
//     (at t0 + psu_holdup);
//   a double-conversion UPS: stays on its rectifier while residual >= ups_V_min and |df| <=
//     ups_f_tol (its input window [K146]); else it transfers to battery at t0 and re-transfers
//     ups_retransfer_delay after the input is back (t0 + duration + delay), so the meter loses the
//     UPS-fed load over that span [K140];
//   variable-frequency drives of pumps, fans and chillers off the UPS: trip when residual <
//     drive_V_trip for longer than drive_ride_through (the DC link falls below its undervoltage
//     level [K147]), and restart drive_restart_delay after the voltage is back [K149];
//   the standby generator: started only when the supply is out of the UPS's window for at least
//     generator_start_delay (its transfer then comes at t0 + generator_start_delay).
#pragma once

namespace dctwin {

struct RideThroughParams {
  double psu_holdup = 0.020;          // PSU hold-up at full load [K143, K144]          (s)
  double psu_V_min = 0.70;            // lowest input voltage the PSU runs on, of nominal (1)
  double ups_V_min = 0.70;            // UPS input window, low end, of nominal [K146]   (1)
  double ups_f_tol = 3.0;             // UPS input frequency window, +/- [K146]         (Hz)
  double ups_retransfer_delay = 10;   // input stable this long before re-transfer (a)  (s)
  double drive_V_trip = 0.60;         // drive undervoltage trip, of nominal [K147]     (1)
  double drive_ride_through = 0.050;  // drive ride-through below the trip level (a)   (s)
  double drive_restart_delay = 4;     // automatic restart after the voltage returns [K149] (s)
  double rack_restart_time = 600;     // a dropped rack's servers back (boot, health check) (a) (s)
};

// one disturbance of the profile
struct GridDisturbance {
  double t0 = 0;        // start                                              (s)
  double duration = 0;  // how long                                           (s)
  double residual = 1;  // voltage during it, of nominal; 1: no sag           (1)
  double df = 0;        // frequency deviation during it                      (Hz)
};

// what the equipment does in one disturbance; times are absolute (s), NaN-free: a `false` flag
// leaves its times at -1
struct RideThroughOutcome {
  bool psu_drop = false;  // PSUs of racks not behind a UPS run out of hold-up
  double psu_drop_at = -1;
  bool ups_transfer = false;  // the UPS input leaves its window: on battery
  double ups_back_at = -1;    // re-transfer to the utility
  bool drives_trip = false;   // drives off the UPS trip on undervoltage
  double drives_trip_at = -1, drives_back_at = -1;
  bool generator = false;  // the disturbance outlasts the generator's start criterion
  double generator_at = -1;
};

// does a PSU ride through (residual, duration)?
bool psuRidesThrough(const RideThroughParams& p, double residual, double duration);
// is the UPS's input inside its window?
bool upsInputInWindow(const RideThroughParams& p, double residual, double df);
// does a drive trip?
bool driveTrips(const RideThroughParams& p, double residual, double duration);
// the outcome of one disturbance; generator_start_delay <= 0: no generator
RideThroughOutcome rideThroughOutcome(const RideThroughParams& p, const GridDisturbance& d,
                                      double generator_start_delay);

}  // namespace dctwin
