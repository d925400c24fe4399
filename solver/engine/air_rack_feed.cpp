// air_rack_feed.cpp: an air-cooled rack's operating point and its power feed (
// docs/models/air_rack.md "Power feed")
//
// An air-cooled rack runs while its feed does: the busway it is on (its feeder breaker, the UPS
// behind it, the utility where there is no UPS) or, without a busway, the utility meter. Once its
// feed is lost the rack is off, its IT load, fans and heat at zero, latched until the run ends as
// a liquid-cooled rack is (powerRackStep: no automatic re-close; restarting is the site's manual
// decision). Without a power section nothing cuts it, as nothing cuts a liquid-cooled rack.
#include "solver/engine/engine.h"

namespace dctwin {

bool airRackPowered(const FacilityModel& m, const State& st, int k) {
  return !m.has_power || st.pl.air_powered.empty() || st.pl.air_powered[k];
}

FanPoint airRackPoint(const FacilityModel& m, const State& st, int k, double t, double* P_it) {
  if (!airRackPowered(m, st, k)) {
    *P_it = 0;
    return FanPoint{};  // no IT load, fans stopped: no airflow, no rise
  }
  *P_it = m.air_load[k].eval(t);
  return fanOperatingPoint(m.air_fans[k], *P_it, kAirRho, kAirCp);
}

double airRackDraw(const FacilityModel& m, const State& st, int k, double t) {
  double P_it = 0;
  const FanPoint fp = airRackPoint(m, st, k, t, &P_it);
  return P_it + fp.P_fan;
}

// the feed of every powered air rack before the busways' sums: a tripped feeder cuts the racks on
// it; a utility loss cuts the racks at the meter, and every rack where there is no UPS
void airRackFeedStep(const FacilityModel& m, State& st) {
  PowerLayerState& p = st.pl;
  const bool fed = facilityFed(st);
  for (int k = 0; k < m.nair; ++k) {
    if (!p.air_powered[k]) continue;
    const int b = m.air_busway[k];
    const AirRackCut cut = b >= 0 && p.bus_brk[b].tripped ? AirRackCut::Breaker
                           : b < 0 && !fed                ? AirRackCut::Meter
                           : !m.power.has_ups && !fed     ? AirRackCut::Utility
                                                          : AirRackCut::None;
    if (cut == AirRackCut::None) continue;
    p.air_powered[k] = 0;
    p.air_cut[k] = static_cast<char>(cut);
  }
}

// the UPS dropped its load: every air rack on a busway (the meter-fed ones are not behind it)
void airRackUpsDropped(const FacilityModel& m, State& st) {
  PowerLayerState& p = st.pl;
  for (int k = 0; k < m.nair; ++k)
    if (p.air_powered[k] && m.air_busway[k] >= 0) {
      p.air_powered[k] = 0;
      p.air_cut[k] = static_cast<char>(AirRackCut::Ups);
    }
}

const char* airRackCutReason(AirRackCut c) {
  switch (c) {
    case AirRackCut::Breaker:
      return "its busway's feeder breaker tripped";
    case AirRackCut::Ups:
      return "the UPS dropped its load";
    case AirRackCut::Utility:
      return "utility lost and no UPS";
    case AirRackCut::Meter:
      return "utility lost (fed at the utility meter, not behind the UPS)";
    case AirRackCut::None:
      break;
  }
  return "";
}

}  // namespace dctwin
