// protection.cpp: the protection layers of a site, polled with the detectors (pollDetectors)
//
// what a CDU controller and the racks' management do when a limit is reached, so that a fault
// ends as a site would end it and a physical limit (the coolant's use range, boiling at the loop
// pressure) becomes an event and a protective action, never a solver failure:
//   1. CDU supply high/low and return high temperature warnings, after a start-up inhibit
//   2. emergency power-off (EPO) of every rack of a loop that lost its flow
//   3. rack inlet above the rack type's supply_temperature_max: GPU power cap, then power-off
//   4. rack coolant near its limit (fluid use range, boiling): the rack is powered off at once
//   5. pump discharge above the racks' max_working_pressure, and the relief valve's set point
//   6. make-up (auto-fill) of a CDU's expansion tank from its fill tank on low suction pressure
//   7. tray shutdown by part: a cold-plated part (Grace, NVLink switch, NIC) above its catalog
//      temperature_max powers its tray off; the parts are lumped per rack, so the rack is
//      powered off
// Every action is latched until the end of the run (restarting is a site's manual decision).
// Defaults and their sources: docs/models/protection.md; keys: scenario section `protection`.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "solver/common/event_table.h"
#include "solver/common/units.h"
#include "solver/engine/engine.h"

namespace dctwin {

namespace {

std::string fmt(double v, int prec = 3) {
  std::ostringstream os;
  os.precision(prec);
  os << v;
  return os.str();
}

// an event of the event table (solver/common/event_table.h), written by its kind's name
void log(State& st, double t, const std::string& who, EventKind kind, const char* severity,
         const std::string& message) {
  st.events.push_back(EventRecord{t, who, eventInfo(kind).kind, severity, message});
}

// a condition held since `since` (set on its first true poll, cleared when false); true once it
// has held for `delay`
bool held(bool cond, double t, double delay, double& since) {
  if (!cond) {
    since = -1;
    return false;
  }
  if (since < 0) since = t;
  return t - since >= delay - 1e-9;
}

void initProtection(const FacilityModel& m, ProtectionState& p) {
  if (p.gpu_cap_factor.size() == std::size_t(m.nrack) && p.sup_high.size() == std::size_t(m.ncdu))
    return;
  for (auto* v : {&p.sup_high_since, &p.sup_low_since, &p.ret_high_since, &p.epo_since})
    v->assign(m.ncdu, -1.0);
  for (auto* v : {&p.sup_high, &p.sup_low, &p.ret_high, &p.epo}) v->assign(m.ncdu, 0);
  for (auto* v : {&p.inlet_high_since, &p.inlet_trip_since, &p.inlet_capped_at})
    v->assign(m.nrack, -1.0);
  for (auto* v : {&p.inlet_alarm, &p.coolant_trip, &p.rack_over_pressure, &p.relief})
    v->assign(m.nrack, 0);
  p.gpu_cap_factor.assign(m.nrack, 1.0);
  for (auto* v : {&p.fill_low_since, &p.fill_on_at}) v->assign(m.ncdu, -1.0);
  p.fill_delivered.assign(m.ncdu, 0.0);
  p.fill_locked.assign(m.ncdu, 0);
  p.part_trip.assign(m.nrack, 0);
}

// powers rack r off (latched); logs it once with the reason
void powerOff(const FacilityModel& m, State& st, int r, double t, EventKind kind,
              const std::string& why) {
  FaultState& f = st.faults;
  if (f.rack_power_off[r]) return;
  f.rack_power_off[r] = 1;
  f.changed = true;
  log(st, t, "rack " + m.rack_name[r], kind, "critical", why + ": rack powered off");
}

// 1. CDU supply and return temperature warnings
void pollCduTemperatures(const FacilityModel& m, State& st, double t, const double* y) {
  const ProtectionParams& P = m.detection.protection;
  ProtectionState& p = st.faults.prot;
  if (t < P.startup_inhibit - 1e-9) return;
  for (int c = 0; c < m.ncdu; ++c) {
    const double T_sup = y[m.stateAdr(c, kTHexSec)];
    const double T_ret = y[m.retSegAdr(c) + m.cdu_nseg_ret[c] - 1];
    const double T_set = m.cdu_T_set[c];
    if (held(T_sup > T_set + P.supply_high_offset, t, P.supply_alarm_delay, p.sup_high_since[c]) &&
        !p.sup_high[c]) {
      p.sup_high[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::SupplyHighTemperature, "warning",
          "secondary supply " + fmt(toCelsius(T_sup)) + " degC, more than " +
              fmt(P.supply_high_offset) + " K above its " + fmt(toCelsius(T_set)) +
              " degC set point for " + fmt(P.supply_alarm_delay) + " s");
    }
    if (held(T_sup < T_set - P.supply_low_offset, t, P.supply_alarm_delay, p.sup_low_since[c]) &&
        !p.sup_low[c]) {
      p.sup_low[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::SupplyLowTemperature, "warning",
          "secondary supply " + fmt(toCelsius(T_sup)) + " degC, more than " +
              fmt(P.supply_low_offset) + " K below its set point for " + fmt(P.supply_alarm_delay) +
              " s");
    }
    if (held(T_ret > T_set + P.return_high_offset, t, P.return_alarm_delay, p.ret_high_since[c]) &&
        !p.ret_high[c]) {
      p.ret_high[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::ReturnHighTemperature, "warning",
          "secondary return " + fmt(toCelsius(T_ret)) + " degC, more than " +
              fmt(P.return_high_offset) + " K above the supply set point for " +
              fmt(P.return_alarm_delay) + " s");
    }
  }
}

// 2. emergency power-off of the racks of a loop without flow
void pollEpo(const FacilityModel& m, State& st, double t) {
  const ProtectionParams& P = m.detection.protection;
  ProtectionState& p = st.faults.prot;
  for (int c = 0; c < m.ncdu; ++c) {
    const double V = st.sig.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    const double V_set = cduFlowSetPoint(m, c);
    if (p.epo[c] || V_set <= 0) continue;
    if (!held(V < P.epo_flow_fraction * V_set, t, P.epo_delay, p.epo_since[c])) continue;
    p.epo[c] = 1;
    log(st, t, m.cdu_name[c], EventKind::EmergencyPowerOff, "critical",
        "secondary flow " + fmt(toLitersPerMinute(V)) + " L/min < " +
            fmt(100 * P.epo_flow_fraction) + " % of its set point for " + fmt(P.epo_delay) +
            " s: its racks are powered off");
    for (int r = m.cdu_rackadr[c]; r < m.cdu_rackadr[c] + m.cdu_racknum[c]; ++r)
      powerOff(m, st, r, t, EventKind::RackPowerOff, "emergency power-off of " + m.cdu_name[c]);
  }
}

// the coolant's upper limit at a loop's gauge pressure: the fluid's use range, or boiling
// (water's saturation line, conservative for glycol mixtures), whichever is lower
double coolantLimit(const FacilityModel& m, int c, double p_gauge) {
  return std::min(m.fluids[m.cdu_fluid[c]].T_max(), waterSaturationTemperature(p_gauge + 101325.0));
}

// 3. and 4. rack inlet over-temperature (cap, then power-off); coolant at its limit
void pollRacks(const FacilityModel& m, State& st, double t, const double* y) {
  const ProtectionParams& P = m.detection.protection;
  FaultState& f = st.faults;
  ProtectionState& p = f.prot;
  for (int r = 0; r < m.nrack; ++r) {
    if (f.rack_power_off[r]) continue;
    const int c = m.rack_cdu[r];
    const double T_cool = y[m.rackAdr(r)];
    const double T_lim = coolantLimit(m, c, st.sig.p_tank[c]);
    if (T_cool > T_lim - P.coolant_limit_margin) {
      p.coolant_trip[r] = 1;
      powerOff(m, st, r, t, EventKind::CoolantOverTemperature,
               "rack coolant " + fmt(toCelsius(T_cool)) + " degC within " +
                   fmt(P.coolant_limit_margin) + " K of its limit " + fmt(toCelsius(T_lim)) +
                   " degC (fluid use range or boiling at the loop pressure)");
      continue;
    }
    const double T_max = m.rack_T_in_max[r];
    if (T_max <= 0) continue;
    const double T_in = y[m.supSegAdr(c) + m.cdu_nseg_sup[c] - 1];
    if (held(T_in > T_max, t, P.inlet_cap_delay, p.inlet_high_since[r]) && !p.inlet_alarm[r]) {
      p.inlet_alarm[r] = 1;
      p.inlet_capped_at[r] = t;
      p.gpu_cap_factor[r] = P.inlet_cap_fraction;
      f.changed = true;
      log(st, t, "rack " + m.rack_name[r], EventKind::InletOverTemperature, "critical",
          "rack inlet " + fmt(toCelsius(T_in)) + " degC above its " + fmt(toCelsius(T_max)) +
              " degC maximum for " + fmt(P.inlet_cap_delay) + " s: GPUs capped at " +
              fmt(100 * P.inlet_cap_fraction) + " % of their power limit");
    }
    const bool hot = held(T_in > T_max + P.inlet_shutdown_margin, t, P.inlet_shutdown_delay,
                          p.inlet_trip_since[r]);
    const bool cap_failed = p.inlet_capped_at[r] >= 0 && T_in > T_max &&
                            t - p.inlet_capped_at[r] >= P.inlet_cap_hold - 1e-9;
    if (hot || cap_failed)
      powerOff(
          m, st, r, t, EventKind::InletOverTemperatureShutdown,
          "rack inlet " + fmt(toCelsius(T_in)) + " degC" +
              (hot ? " above its maximum + " + fmt(P.inlet_shutdown_margin) + " K"
                   : " still above its maximum " + fmt(P.inlet_cap_hold) + " s after the cap"));
  }
}

// 5. pump discharge against the racks' maximum working pressure and the relief valve
void pollPressure(const FacilityModel& m, State& st, double t) {
  ProtectionState& p = st.faults.prot;
  for (int r = 0; r < m.nrack; ++r) {
    const int c = m.rack_cdu[r];
    const double p_dis = st.sig.p_tank[c] + st.sig.dp_pump[c];
    if (m.rack_p_max[r] > 0 && p_dis > m.rack_p_max[r] && !p.rack_over_pressure[r]) {
      p.rack_over_pressure[r] = 1;
      log(st, t, "rack " + m.rack_name[r], EventKind::RackOverPressure, "critical",
          "loop pressure up to " + fmt(p_dis / 1e5) + " bar(g), above the rack's " +
              fmt(m.rack_p_max[r] / 1e5) + " bar(g) maximum working pressure");
    }
    if (m.cdu_p_max[c] > 0 && p_dis >= m.cdu_p_max[c] && !p.relief[r] && r == m.cdu_rackadr[c]) {
      p.relief[r] = 1;
      log(st, t, m.cdu_name[c], EventKind::ReliefValveOpen, "critical",
          "pump discharge " + fmt(p_dis / 1e5) + " bar(g) at the relief valve's " +
              fmt(m.cdu_p_max[c] / 1e5) + " bar(g) set point" +
              (m.detection.protection.relief_capacity > 0
                   ? std::string(": it opens and passes flow back to the pump suction")
                   : std::string(" (alarm only: relief_capacity 0)")));
    }
  }
}

// 6. make-up from the fill tank (Coolcentric's logic [K61]): the fill pump starts after the
// suction pressure has been low for the start delay and stops at the stop pressure; a run longer
// than the timeout, or the fill tank running dry, stops it for good (latched warnings)
void stopFill(State& st, int c, double V_run) {
  ProtectionState& p = st.faults.prot;
  p.fill_delivered[c] += V_run;
  p.fill_on_at[c] = -1;
  p.fill_low_since[c] = -1;
  st.faults.changed = true;
}

void pollFill(const FacilityModel& m, State& st, double t) {
  const ProtectionParams& P = m.detection.protection;
  ProtectionState& p = st.faults.prot;
  if (P.fill_tank_volume <= 0 || P.fill_pump_flow <= 0) return;
  for (int c = 0; c < m.ncdu; ++c) {
    if (m.cdu_vacuum[c] < 0 || m.cdu_V_tank[c] <= 0 || p.fill_locked[c]) continue;
    const double p_t = st.sig.p_tank[c], p_fill = m.cdu_p_fill[c];
    if (p.fill_on_at[c] < 0) {
      if (!held(p_t < p_fill - P.fill_start_drop, t, P.fill_start_delay, p.fill_low_since[c]))
        continue;
      p.fill_on_at[c] = t;
      st.faults.changed = true;
      log(st, t, m.cdu_name[c], EventKind::FillPumpStart, "warning",
          "suction pressure " + fmt(p_t / 1e3) + " kPa(g), more than " +
              fmt(P.fill_start_drop / 1e3) + " kPa below its " + fmt(p_fill / 1e3) +
              " kPa(g) fill for " + fmt(P.fill_start_delay) +
              " s: fill pump on (check the water make-up level)");
      continue;
    }
    const double run = t - p.fill_on_at[c];
    const double V_run = std::min(P.fill_pump_flow * run, P.fill_tank_volume - p.fill_delivered[c]);
    if (p.fill_delivered[c] + V_run >= P.fill_tank_volume * (1 - 1e-9)) {
      stopFill(st, c, V_run);
      p.fill_locked[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::FillTankEmpty, "critical",
          "fill tank empty after " + fmt(P.fill_tank_volume * 1e3) +
              " L of make-up: no more auto-fill");
    } else if (p_t >= p_fill - P.fill_stop_drop) {
      stopFill(st, c, V_run);
      log(st, t, m.cdu_name[c], EventKind::FillPumpStop, "info",
          "suction pressure back at " + fmt(p_t / 1e3) + " kPa(g) after " + fmt(V_run * 1e3) +
              " L in " + fmt(run) + " s: fill pump off");
    } else if (run >= P.fill_timeout - 1e-9) {
      stopFill(st, c, V_run);
      p.fill_locked[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::FillTimeout, "warning",
          "fill pump ran " + fmt(run) + " s without restoring the pressure (" + fmt(p_t / 1e3) +
              " kPa(g)): stopped, water make-up empty (latched)");
    }
  }
}

// 7. tray shutdown by part (docs/models/rack_parts.md "Part temperature and shutdown"): each
// cold-plated part with a limit, at the rack's activity of the last fast step, in the coolant
// its plates see (the inlet while it flows, the stagnant rack coolant when it stops)
void pollParts(const FacilityModel& m, State& st, double t) {
  FaultState& f = st.faults;
  const GpuLayerState& g = st.gl;
  if (g.rack_part_act.size() != std::size_t(m.nrack) || m.part_sets.empty()) return;
  const int stride = partStride(m);
  for (int r = 0; r < m.nrack; ++r) {
    if (f.rack_power_off[r] || m.rack_partset[r] < 0 || !m.rack_resolved[r]) continue;
    const RackParts& rp = m.part_sets[m.rack_partset[r]];
    for (std::size_t k = 0; k < rp.parts.size(); ++k) {
      const PartParams& part = rp.parts[k].first;
      if (!partTemperatureChecked(part) || rp.parts[k].second <= 0) continue;
      const double R_factor = f.part_R_factor[std::size_t(r) * stride + k];
      const double T = partTemperature(part, g.rack_part_act[r], g.rack_T_in[r], R_factor);
      if (T < part.T_max) continue;
      f.prot.part_trip[r] = 1;
      powerOff(m, st, r, t, EventKind::PartOverTemperature,
               part.name + " at " + fmt(toCelsius(T)) + " degC, at its " +
                   fmt(toCelsius(part.T_max)) + " degC shutdown temperature (coolant " +
                   fmt(toCelsius(g.rack_T_in[r])) + " degC" +
                   (R_factor != 1 ? ", plates degraded x " + fmt(R_factor) : std::string()) +
                   "): tray shutdown (the rack's parts are lumped)");
      break;
    }
  }
}

}  // namespace

int partStride(const FacilityModel& m) {
  std::size_t n = 0;
  for (const RackParts& rp : m.part_sets) n = std::max(n, rp.parts.size());
  return int(std::max<std::size_t>(n, 1));
}

double fillFlow(const FacilityModel& m, const State& st, int c, double t) {
  const ProtectionParams& P = m.detection.protection;
  const ProtectionState& p = st.faults.prot;
  if (p.fill_on_at.empty() || p.fill_on_at[c] < 0 || t < p.fill_on_at[c]) return 0.0;
  // the pump runs until the tank is empty (exact, not at the next poll)
  return p.fill_delivered[c] + P.fill_pump_flow * (t - p.fill_on_at[c]) < P.fill_tank_volume
             ? P.fill_pump_flow
             : 0.0;
}

double fillDelivered(const FacilityModel& m, const State& st, int c, double t) {
  const ProtectionParams& P = m.detection.protection;
  const ProtectionState& p = st.faults.prot;
  if (p.fill_delivered.empty()) return 0.0;
  const double run = p.fill_on_at[c] < 0 ? 0.0 : std::max(t - p.fill_on_at[c], 0.0);
  return std::min(p.fill_delivered[c] + P.fill_pump_flow * run, P.fill_tank_volume);
}

double waterSaturationTemperature(double p_abs) {
  // Antoine equation log10(p / bar) = A - B / (T + C) for water, NIST Chemistry WebBook (Stull
  // 1947, 255.9-373 K) [K110]; extrapolated above 1 atm it stays within 2 K of the steam tables
  // to 3 bar (121.4 degC at 2 bar against 120.2, 135.3 at 3 bar against 133.5): continuous, and
  // only used against a margin
  const double lg = std::log10(std::max(p_abs, 1e3) / 1e5);
  return 1435.264 / (4.6543 - lg) + 64.848;
}

double cduFlowSetPoint(const FacilityModel& m, int c) {
  return m.cdu_pump_mode[c] == 0 && m.cdu_flow_set[c] > 0 ? m.cdu_flow_set[c]
                                                          : m.cdu_design_flow[c];
}

double rackGpuCapFactor(const State& st, int r) {
  const auto& v = st.faults.prot.gpu_cap_factor;
  return v.empty() ? 1.0 : v[r];
}

void pollProtection(const FacilityModel& m, State& st, double t, const double* y) {
  if (!m.detection.protection.enabled || m.ncdu == 0) return;
  initProtection(m, st.faults.prot);
  pollCduTemperatures(m, st, t, y);
  pollEpo(m, st, t);
  pollRacks(m, st, t, y);
  pollPressure(m, st, t);
  pollFill(m, st, t);
  pollParts(m, st, t);
}

}  // namespace dctwin
