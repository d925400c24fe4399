// ride_through.cpp: the equipment's answer to a grid disturbance (docs/models/ride_through.md)
#include "models/ride_through.h"

#include <cmath>

namespace dctwin {

bool psuRidesThrough(const RideThroughParams& p, double residual, double duration) {
  return residual >= p.psu_V_min || duration <= p.psu_holdup;
}

bool upsInputInWindow(const RideThroughParams& p, double residual, double df) {
  return residual >= p.ups_V_min && std::abs(df) <= p.ups_f_tol;
}

bool driveTrips(const RideThroughParams& p, double residual, double duration) {
  return residual < p.drive_V_trip && duration > p.drive_ride_through;
}

RideThroughOutcome rideThroughOutcome(const RideThroughParams& p, const GridDisturbance& d,
                                      double generator_start_delay) {
  RideThroughOutcome o;
  const double t_end = d.t0 + d.duration;
  if (!psuRidesThrough(p, d.residual, d.duration)) {
    o.psu_drop = true;
    o.psu_drop_at = d.t0 + p.psu_holdup;
  }
  if (!upsInputInWindow(p, d.residual, d.df)) {
    o.ups_transfer = true;
    o.ups_back_at = t_end + p.ups_retransfer_delay;
    // the transfer switch starts the generator on the same loss of supply
    if (generator_start_delay > 0 && d.duration >= generator_start_delay) {
      o.generator = true;
      o.generator_at = d.t0 + generator_start_delay;
    }
  }
  if (driveTrips(p, d.residual, d.duration)) {
    o.drives_trip = true;
    o.drives_trip_at = d.t0 + p.drive_ride_through;
    o.drives_back_at = t_end + p.drive_restart_delay;
  }
  return o;
}

}  // namespace dctwin
