// filter_switch.cpp: the strainer's differential-pressure switch (
// docs/models/filter.md "Differential-pressure switch")
//
// A site watches a CDU strainer with a dp switch (or a dp transmitter and a BMS limit) across it:
// when the pressure drop at the flow now passing reaches the set point, a "filter dirty" alarm is
// raised (Vertiv CoolChip CDU 600: a filter alarm at 0.6 bar [K59]). Polled with the detectors;
// latched until the run ends (cleaning or changing the element is a manual action).
#include <sstream>

#include "solver/common/event_table.h"
#include "solver/common/units.h"
#include "solver/engine/engine.h"

namespace dctwin {

void pollFilterSwitch(const FacilityModel& m, State& st, double t) {
  FaultState& f = st.faults;
  if (f.filter_alarm.size() != std::size_t(m.ncdu) || m.cdu_filter_alarm_dp.empty()) return;
  for (int c = 0; c < m.ncdu; ++c) {
    const double set = m.cdu_filter_alarm_dp[c], dp = st.sig.filter_dp[c];
    if (set <= 0 || f.filter_alarm[c] || dp < set) continue;
    f.filter_alarm[c] = 1;
    const double V = st.sig.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    std::ostringstream os;
    os.precision(3);
    os << "strainer dp " << dp / 1e3 << " kPa at " << toLitersPerMinute(V)
       << " L/min, at its dp switch's " << set / 1e3
       << " kPa set point: filter dirty (clean or change the element)";
    st.events.push_back(EventRecord{t, m.cdu_name[c], eventInfo(EventKind::FilterDpHigh).kind,
                                    "warning", os.str()});
  }
}

}  // namespace dctwin
