// faults.cpp: scenario faults applied at their times, and the detectors that raise alarms
//
// Faults change inputs of the right-hand side (pumps running, valve opening, facility-water flow,
// strainer resistance, sensor readings, leaks) and of the GPU and power layers (power caps,
// utility, PSUs). They act between solver steps: every fault time is a breakpoint, where the
// integrator restarts; a policy that acts (isolation, pump stop) restarts it too. The detectors
// poll the state every detection.poll_interval when the scenario has faults (else at every coupling
// window and output) and append to the event log: leak sensors, CDU pressure, level, flow balance,
// over-pressure and low flow, GPU thermal throttling and shutdown per rack, stalled jobs, rack
// power lost, power brake, busway continuous load (the 80 % rule), breaker trips, UPS on battery.
// applyFaults dispatches each fault by its domain in the fault table (solver/common/fault_table.h:
// CDU, leak, power, plant, fabric, rack), one function per domain; a fault's own event (kind and
// severity) comes from its row (logFault), every other kind of event is a row of the event table
// (solver/common/event_table.h).
// See docs/scenario-format.md "Faults", docs/models/leak.md and docs/results.md "/events".
#include <algorithm>
#include <cmath>
#include <sstream>

#include "solver/common/event_table.h"
#include "solver/common/units.h"
#include "solver/engine/engine.h"

namespace dctwin {

namespace {

void record(State& st, double t, const std::string& component, const char* kind,
            const char* severity, const std::string& message) {
  st.events.push_back(EventRecord{t, component, kind, severity, message});
}

// an event of the event table (solver/common/event_table.h), written by its kind's name
void log(State& st, double t, const std::string& component, EventKind kind, const char* severity,
         const std::string& message) {
  record(st, t, component, eventInfo(kind).kind, severity, message);
}

// a fault's own event: the kind and severity of its row of the fault table
void logFault(State& st, const FacilityModel::FaultEvent& e, const std::string& message) {
  const FaultInfo& fi = faultInfo(e.kind);
  record(st, e.time, e.label, fi.event, fi.severity, message);
}

std::string fmt(double v, int prec = 3) {
  std::ostringstream os;
  os.precision(prec);
  os << v;
  return os.str();
}

void initFaultState(const FacilityModel& m, State& st) {
  FaultState& f = st.faults;
  if (!f.pumps_out.empty() || m.ncdu == 0) return;
  f.pumps_out.assign(m.ncdu, 0);
  f.coast_t0.assign(m.ncdu, -1.0);
  f.coast_n.assign(m.ncdu, 0);
  f.cdu_failed.assign(m.ncdu, 0);
  f.valve_stuck.assign(m.ncdu, -1.0);
  f.rack_psu_failed.assign(m.nrack, 0);
  f.part_R_factor.assign(std::size_t(m.nrack) * partStride(m), 1.0);
  f.low_flow_since.assign(m.ncdu, -1.0);
  f.low_flow_alarm.assign(m.ncdu, 0);
  const std::size_t nb = m.has_power ? m.power.busways.size() : 0;
  f.bus_high_since.assign(nb, -1.0);
  f.bus_alarm.assign(nb, 0);
  f.bus_trip_logged.assign(nb, 0);
  for (auto* v :
       {&f.rack_lost_logged, &f.rack_throttle_logged, &f.rack_shutdown_logged, &f.rack_hbm_logged,
        &f.rack_brake_logged, &f.rack_isolated_logged, &f.rack_power_off})
    v->assign(m.nrack, 0);
  f.air_lost_logged.assign(m.nair, 0);
  f.rack_sag_dropped.assign(m.nrack, 0);
  f.air_sag_dropped.assign(m.nair, 0);
  f.filter_alarm.assign(m.ncdu, 0);
  f.leak_on_sensor.assign(m.leaks.size(), 0.0);
  f.leak_detected.assign(m.leaks.size(), -1.0);
  f.rack_isolation.assign(m.nrack, -1.0);
  f.low_level.assign(m.ncdu, 0);
  f.level_stopped.assign(m.ncdu, 0);
  f.level_cdu_failed.assign(m.ncdu, 0);
  f.pressure_alarm.assign(m.ncdu, 0);
  f.imbalance_since.assign(m.ncdu, -1.0);
  f.imbalance_alarm.assign(m.ncdu, 0);
  f.over_pressure.assign(m.ncdu, 0);
  f.job_stalled_logged.assign(m.njob, 0);
  f.job_failures_logged.assign(m.njob, 0);
  for (auto* v :
       {&f.filter_dp, &f.filter_t0, &f.filter_time, &f.sensor_T_offset, &f.sensor_flow_offset})
    v->assign(m.ncdu, 0.0);
  f.sensor_T_stuck.assign(m.ncdu, NAN);
  f.sensor_flow_stuck.assign(m.ncdu, NAN);
  f.job_cap.assign(m.njob, 0.0);
  for (auto* v : {&f.set_T, &f.set_dp, &f.set_flow}) v->assign(m.ncdu, NAN);
  const int nics = std::max(1, m.fabric.nics_per_gpu),
            trays = std::max(1, m.fabric.nvlink_switch_trays);
  f.nic_bw.assign(std::size_t(m.ngpu) * nics, 1.0);
  f.tray_lost.assign(std::size_t(m.nrack) * trays, 0);
  f.gpu_bw_net.assign(m.ngpu, 1.0);
  f.gpu_net_dead.assign(m.ngpu, 0);
  f.rack_bw_nvl.assign(m.nrack, 1.0);
  f.rack_nvl_dead.assign(m.nrack, 0);
  f.fabric_faulted = false;
  // scale-out switches: all running
  f.sw_failed.assign(m.nsw, {});
  f.sw_up.assign(m.nsw, 0);
  for (int k = 0; k < m.nsw; ++k) {
    f.sw_failed[k].assign(m.sw_params[k].switches, 0);
    f.sw_up[k] = m.sw_params[k].switches;
  }
  f.link_cut.assign(m.nsw > 0 ? std::size_t(m.ngpu) * nics : 0, 0);
  f.gpu_spine.assign(m.nsw > 0 ? m.ngpu : 0, 1.0);
}

// GPU g's scale-out bandwidth: the mean of its NICs' link fractions (a link a failed leaf cuts
// carries nothing), times what the spines leave; no NIC left: lost to its job
static void updateGpuNet(const FacilityModel& m, FaultState& f, int g) {
  const int nics = std::max(1, m.fabric.nics_per_gpu);
  double sum = 0;
  for (int k = 0; k < nics; ++k) {
    const std::size_t l = std::size_t(g) * nics + k;
    if (f.link_cut.empty() || !f.link_cut[l]) sum += f.nic_bw[l];
  }
  f.gpu_bw_net[g] = sum / nics * (f.gpu_spine.empty() ? 1.0 : f.gpu_spine[g]);
  f.gpu_net_dead[g] = !(sum > 0);
}

// a scale-out switch fails or comes back (docs/models/switch_rack.md): a leaf cuts the links
// cabled to it; a spine takes its share of the uplinks of its racks' leaves
static void applySwitchFault(const FacilityModel& m, State& st,
                             const FacilityModel::FaultEvent& e) {
  FaultState& f = st.faults;
  const int k = e.index;
  const bool fail = e.fabric == FabricFault::SwitchFailed;
  char& state = f.sw_failed[k][e.tray];
  const bool changed = bool(state) != fail;
  state = fail;
  f.sw_up[k] = 0;
  for (char x : f.sw_failed[k]) f.sw_up[k] += !x;
  const SwitchRackParams& p = m.sw_params[k];
  const int nics = std::max(1, m.fabric.nics_per_gpu);
  int dead = 0;
  double frac = 1;
  if (p.role == SwitchRole::Leaf) {
    if (changed)
      for (int l : e.reach) f.link_cut[l] = char(f.link_cut[l] + (fail ? 1 : -1));
    int last = -1;  // a GPU's links are consecutive in the reach
    for (int l : e.reach) {
      const int g = l / nics;
      if (g == last) continue;
      last = g;
      updateGpuNet(m, f, g);
      dead += f.gpu_net_dead[g];
    }
  } else {
    frac = spineBandwidthFraction(p.switches, p.switches - f.sw_up[k],
                                  m.fabric.spine_oversubscription);
    for (int g : e.reach) {
      f.gpu_spine[g] = frac;
      updateGpuNet(m, f, g);
    }
  }
  std::string msg = fail ? "switch failed" : "switch back";
  if (p.role == SwitchRole::Leaf)
    msg +=
        ": " + std::to_string(e.reach.size()) + " NIC link(s) " + (fail ? "cut" : "restored") +
        (dead > 0 ? ", " + std::to_string(dead) + " GPU(s) without a scale-out path: the job fails"
                  : std::string());
  else
    msg += ": scale-out bandwidth of " + std::to_string(e.reach.size()) + " GPU(s) at " +
           fmt(100 * frac) + " %";
  log(st, e.time, e.label, fail ? EventKind::SwitchFailed : EventKind::SwitchRestored,
      fail ? "critical" : "info", msg);
}

// a fabric event (docs/models/fabric.md): a GPU's scale-out bandwidth is the mean of its NICs'
// link fractions (the collective's traffic spreads over the NICs that are left); no NIC left:
// the GPU is lost to its job. A rack's NVLink bandwidth is (trays - lost) / trays with adaptive
// bandwidth; without it, a lost tray takes the partition down.
void applyFabricFault(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e) {
  st.faults.fabric_faulted = true;
  FaultState& f = st.faults;
  const int nics = std::max(1, m.fabric.nics_per_gpu),
            trays = std::max(1, m.fabric.nvlink_switch_trays);
  using F = FabricFault;
  if (e.fabric == F::NvlinkTrayLost || e.fabric == F::NvlinkTrayRestored) {
    f.tray_lost[std::size_t(e.index) * trays + e.tray] = e.fabric == F::NvlinkTrayLost;
    int lost = 0;
    for (int k = 0; k < trays; ++k) lost += f.tray_lost[std::size_t(e.index) * trays + k];
    f.rack_bw_nvl[e.index] = double(trays - lost) / trays;
    f.rack_nvl_dead[e.index] = lost > 0 && (!m.fabric.nvlink_adaptive_bandwidth || lost == trays);
    log(st, e.time, e.label,
        e.fabric == F::NvlinkTrayLost ? EventKind::NvlinkTrayLost : EventKind::NvlinkTrayRestored,
        e.fabric == F::NvlinkTrayLost ? "critical" : "info",
        f.rack_nvl_dead[e.index]
            ? std::string("NVLink partition down: its job fails")
            : "NVLink bandwidth at " + fmt(100 * f.rack_bw_nvl[e.index]) + " %");
    return;
  }
  if (isSwitchFault(e.fabric)) {
    applySwitchFault(m, st, e);
    return;
  }
  f.nic_bw[std::size_t(e.gpu) * nics + e.nic] = e.value;
  updateGpuNet(m, f, e.gpu);
  const EventKind kind = e.fabric == F::LinkDown       ? EventKind::LinkDown
                         : e.fabric == F::LinkRestored ? EventKind::LinkRestored
                         : e.fabric == F::LinkFlapping ? EventKind::LinkFlapping
                                                       : EventKind::LinkDegraded;
  log(st, e.time, e.label, kind, e.fabric == F::LinkRestored ? "info" : "warning",
      f.gpu_net_dead[e.gpu]
          ? std::string("no scale-out link left: the GPU's job fails")
          : "scale-out bandwidth of the GPU at " + fmt(100 * f.gpu_bw_net[e.gpu]) + " %");
}

// the cooling loads off the UPS lose or regain their feed
void logCoolingPower(const FacilityModel& m, State& st, double t, bool was_fed) {
  const bool fed = facilityFed(st);
  if (fed == was_fed) return;
  const PowerChainParams& p = m.power;
  std::string what;
  if (!p.cdu_pumps_on_ups) what = "CDU pumps";
  if (!p.plant_on_ups) what += std::string(what.empty() ? "" : " and ") + "facility-water plant";
  if (what.empty()) return;
  log(st, t, "power", fed ? EventKind::CoolingPowerRestored : EventKind::CoolingPowerLost,
      fed ? "info" : "critical",
      what + (fed ? " powered again" : " without power (not on the UPS)"));
}

}  // namespace

void startCoastDown(const FacilityModel& m, State& st, int c, double t, int n_before) {
  FaultState& f = st.faults;
  if (c < 0 || c >= m.ncdu || f.coast_t0.empty() || n_before <= 0) return;
  f.coast_t0[c] = t;
  f.coast_n[c] = n_before;
}

// the level switch makes again (the make-up refilled the tank): the pumps it stopped restart;
// the racks an EPO powered off stay off (latched)
static void releaseLevelSwitch(const FacilityModel& m, State& st, int c, double t, double level) {
  FaultState& f = st.faults;
  constexpr double kDeadband = 0.05;  // the switch's deadband, share of the tank (a)
  if (level < m.detection.low_level_fraction + kDeadband) return;
  f.low_level[c] = 0;
  const int n = f.level_stopped[c];
  if (n > 0) {
    f.pumps_out[c] = std::max(f.pumps_out[c] - n, 0);
    f.cdu_failed[c] = f.level_cdu_failed[c];
    f.coast_t0[c] = -1;
    f.level_stopped[c] = 0;
    f.changed = true;
  }
  log(st, t, m.cdu_name[c], EventKind::LowLevelCleared, "info",
      "expansion tank back at " + fmt(100 * level) + " % liquid: level switch made" +
          (n > 0 ? ", " + std::to_string(n) + " pump(s) restart" : std::string()));
}

bool facilityFed(const State& st) {
  return st.faults.utility_ok || st.faults.generator_on;
}

bool upsInputOk(const State& st) {
  const FaultState& f = st.faults;
  return f.generator_on || (f.utility_ok && !f.ups_input_lost);
}

bool drivesTripped(const FacilityModel& m, const State& st, bool plant) {
  const PowerChainParams& p = m.power;
  return st.faults.drives_tripped && (!p.has_ups || !(plant ? p.plant_on_ups : p.cdu_pumps_on_ups));
}

namespace {

// a CDU: its pumps, the whole CDU, its facility-water valve, strainer, sensors, set points
void applyCduFault(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e,
                   const double* y) {
  using K = FaultKind;
  FaultState& f = st.faults;
  const int i = e.index;
  switch (e.kind) {
    case K::PumpFailure: {
      const int n = static_cast<int>(e.value);
      if (n < 0 && f.cdu_failed[i]) break;  // the CDU failed meanwhile: nothing starts
      if (n < 0) {                          // standby pumps taking over
        f.pumps_out[i] = std::max(f.pumps_out[i] + n, 0);
        log(st, e.time, e.label, EventKind::PumpSwitchover, "info",
            std::to_string(-n) + " standby pump(s) running; " +
                std::to_string(m.cdu_pump_running[i] - f.pumps_out[i]) + " of " +
                std::to_string(m.cdu_pump_running[i]) + " duty pumps available");
      } else {
        const int before = m.cdu_pump_running[i] - f.pumps_out[i];
        f.pumps_out[i] = std::min(f.pumps_out[i] + n, m.cdu_pump_running[i]);
        if (f.pumps_out[i] == m.cdu_pump_running[i]) startCoastDown(m, st, i, e.time, before);
        log(st, e.time, e.label, EventKind::PumpFailure, e.covered ? "warning" : "critical",
            std::to_string(n) + " pump(s) failed; " +
                std::to_string(m.cdu_pump_running[i] - f.pumps_out[i]) + " of " +
                std::to_string(m.cdu_pump_running[i]) + " duty pumps running" +
                (e.covered ? "; standby switching over" : "; no standby left"));
      }
      break;
    }
    case K::CduFailure:
      startCoastDown(m, st, i, e.time, m.cdu_pump_running[i] - f.pumps_out[i]);
      f.pumps_out[i] = m.cdu_pump_running[i];
      f.cdu_failed[i] = 1;
      logFault(st, e, "CDU failed: every pump stopped");
      break;
    case K::ValveStuck:
      f.valve_stuck[i] = e.value >= 0 ? e.value : std::clamp(y[m.stateAdr(i, kYValve)], 0.0, 1.0);
      logFault(st, e, "facility-water valve stuck at " + fmt(100 * f.valve_stuck[i]) + " % open");
      break;
    case K::FilterClogging:
      f.filter_dp[i] = e.value;
      f.filter_t0[i] = e.time;
      f.filter_time[i] = e.time2;
      logFault(st, e,
               "strainer clogging: pressure drop at design flow rising to " + fmt(e.value / 1e3) +
                   " kPa over " + fmt(e.time2) + " s");
      break;
    case K::SensorFault: {
      const bool T = e.sensor == SensorKind::SupplyTemperature;
      const double reading =
          T ? y[m.stateAdr(i, kTHexSec)] : st.sig.m_sec[i] / m.fluids[m.cdu_fluid[i]].rho_ref();
      if (T) {
        f.sensor_T_stuck[i] = e.stuck ? reading : NAN;
        f.sensor_T_offset[i] = e.stuck ? 0.0 : e.value;
      } else {
        f.sensor_flow_stuck[i] = e.stuck ? reading : NAN;
        f.sensor_flow_offset[i] = e.stuck ? 0.0 : e.value;
      }
      logFault(st, e,
               std::string(T ? "supply-temperature" : "flow") + " sensor " +
                   (e.stuck ? "stuck at " + (T ? fmt(toCelsius(reading)) + " degC"
                                               : fmt(toLitersPerMinute(reading)) + " L/min")
                            : "off by " + (T ? fmt(e.value) + " K" : fmt(100 * e.value) + " %")));
      break;
    }
    case K::Setpoint: {
      const bool T = e.setpoint == SetpointKind::SupplyTemperature;
      const bool dp = e.setpoint == SetpointKind::Dp;
      (T ? f.set_T : dp ? f.set_dp : f.set_flow)[i] = e.value;
      logFault(st, e,
               std::string(T    ? "supply-temperature"
                           : dp ? "dp"
                                : "flow") +
                   " set point " +
                   (T    ? fmt(toCelsius(e.value)) + " degC"
                    : dp ? fmt(e.value / 1e3) + " kPa"
                         : fmt(toLitersPerMinute(e.value)) + " L/min"));
      break;
    }
    default:
      break;
  }
}

// the racks whose PSUs a disturbance outlasts: every rack where there is no UPS, and the
// air-cooled racks not behind it (at the meter); they drop (latched until their restart)
int dropUnbackedRacks(const FacilityModel& m, State& st) {
  FaultState& f = st.faults;
  PowerLayerState& p = st.pl;
  int n = 0;
  if (!m.power.has_ups)
    for (int r = 0; r < m.nrack && r < int(p.rack_powered.size()); ++r)
      if (p.rack_powered[r]) {
        p.rack_powered[r] = 0;
        f.rack_sag_dropped[r] = 1;
        ++n;
      }
  for (int k = 0; k < m.nair && k < int(p.air_powered.size()); ++k)
    if (p.air_powered[k] && (m.air_busway[k] < 0 || !m.power.has_ups)) {
      p.air_powered[k] = 0;
      p.air_cut[k] =
          static_cast<char>(m.air_busway[k] < 0 ? AirRackCut::Meter : AirRackCut::Utility);
      f.air_sag_dropped[k] = 1;
      ++n;
    }
  return n;
}

// which drives sit off the UPS, for the messages
std::string drivesOffUps(const FacilityModel& m) {
  const PowerChainParams& p = m.power;
  std::string what;
  if (!p.has_ups || !p.cdu_pumps_on_ups) what = "CDU pumps";
  if (!p.has_ups || !p.plant_on_ups)
    what += std::string(what.empty() ? "" : " and ") + "facility-water plant";
  return what;
}

// a voltage sag or a frequency excursion starts (docs/models/ride_through.md): what rides
// through, what drops; the recoveries were scheduled by the compiler
void applyDisturbance(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e) {
  FaultState& f = st.faults;
  const RideThroughParams& p = m.power.ride;
  const bool sag = e.kind == FaultKind::VoltageSag;
  const GridDisturbance d{e.time, e.time2, sag ? e.value : 1.0, sag ? 0.0 : e.value};
  const RideThroughOutcome o = rideThroughOutcome(p, d, m.power.generator_start_delay);
  std::string msg =
      sag ? "voltage at " + fmt(100 * e.value) + " % of nominal for " + fmt(1e3 * e.time2) + " ms"
          : "frequency off by " + fmt(e.value) + " Hz for " + fmt(e.time2) + " s";
  if (sag) {
    if (!o.psu_drop) {
      msg += "; PSUs ride through (hold-up " + fmt(1e3 * p.psu_holdup) + " ms, run down to " +
             fmt(100 * p.psu_V_min) + " %)";
    } else {
      const int n = dropUnbackedRacks(m, st);
      f.racks_hold_until = std::max(f.racks_hold_until, e.time + e.time2 + p.rack_restart_time);
      msg += n > 0 ? "; " + std::to_string(n) + " rack(s) not behind a UPS drop (PSU hold-up " +
                         fmt(1e3 * p.psu_holdup) + " ms exceeded), back " +
                         fmt(p.rack_restart_time) + " s after the sag"
             : m.power.has_ups ? "; the racks are behind the UPS"
                               : "; the racks are down already";
      if (n > 0) f.changed = true;
    }
  }
  if (o.ups_transfer && m.power.has_ups) {
    if (!f.ups_input_lost) f.ups_lost_at = e.time;
    f.ups_input_lost = true;
    f.ups_hold_until = std::max(f.ups_hold_until, o.ups_back_at);
    f.changed = true;
    msg += "; UPS input out of its window: on battery, re-transfer " + fmt(p.ups_retransfer_delay) +
           " s after the input is back";
  } else if (m.power.has_ups) {
    msg += "; UPS input inside its window";
  }
  if (o.drives_trip) {
    f.drives_hold_until = std::max(f.drives_hold_until, o.drives_back_at);
    const std::string off = drivesOffUps(m);
    msg += off.empty() ? "; the drives are behind the UPS" : "; drives of the " + off + " trip";
  }
  if (o.ups_transfer && m.power.has_ups && m.power.generator_start_delay > 0)
    msg += o.generator ? "; standby generator starts" : "; too short to start the generator";
  logFault(st, e, msg);
}

// the power chain: utility, standby generator, PSUs; a job's power cap
void applyPowerFault(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e) {
  using K = FaultKind;
  FaultState& f = st.faults;
  const int i = e.index;
  switch (e.kind) {
    case K::PowerCap: {
      f.job_cap[i] = e.value;
      // the limit the GPUs apply: within the GPU's settable range and the rack's own cap
      double applied = e.value;
      if (i >= 0 && i < int(m.job_gpus.size()) && !m.job_gpus[i].empty()) {
        const int g = m.job_gpus[i][0];
        applied =
            gpuPowerLimit(m.gpu_types[m.gpu_type[g]], m.rack_gpu_power_cap[m.gpu_rack[g]], e.value);
      }
      logFault(st, e,
               "GPU power limit set to " + fmt(applied) + " W" +
                   (std::abs(applied - e.value) > 1e-9 * std::max(1.0, e.value)
                        ? " (asked for " + fmt(e.value) + " W: clamped to the GPU's settable range)"
                        : std::string()));
      break;
    }
    case K::Utility: {
      const bool was_fed = facilityFed(st);
      f.utility_ok = e.value > 0.5;
      if (f.utility_ok) f.generator_on = false;  // the transfer switch goes back to the utility
      if (!f.utility_ok) f.utility_lost_at = e.time;
      log(st, e.time, e.label, f.utility_ok ? EventKind::UtilityRestored : EventKind::UtilityLost,
          f.utility_ok ? "info" : "critical",
          f.utility_ok ? "utility feed restored"
                       : std::string("utility feed lost") +
                             (m.power.generator_start_delay > 0
                                  ? "; standby generator starting (" +
                                        fmt(m.power.generator_start_delay) + " s to transfer)"
                                  : "; no standby generator"));
      logCoolingPower(m, st, e.time, was_fed);
      f.changed = true;
      break;
    }
    case K::GeneratorFailure: {
      const bool was_fed = facilityFed(st);
      f.generator_failed = true;
      if (f.generator_on) {
        f.generator_on = false;
        log(st, e.time, e.label, EventKind::GeneratorTrip, "critical",
            "standby generator tripped: the UPS carries the load");
        logCoolingPower(m, st, e.time, was_fed);
        f.changed = true;
      }
      break;
    }
    case K::VoltageSag:
    case K::FrequencyExcursion:
      applyDisturbance(m, st, e);
      break;
    case K::UpsRetransfer: {
      // a later disturbance of a sequence holds it on battery
      if (!f.ups_input_lost || e.time + 1e-9 < f.ups_hold_until) break;
      f.ups_input_lost = false;
      f.changed = true;
      const bool gen = f.generator_on && f.utility_ok;
      if (gen) f.generator_on = false;  // the transfer switch goes back to the utility
      log(st, e.time, e.label, EventKind::UpsRetransfer, "info",
          "UPS back on the utility after " + fmt(e.time - f.ups_lost_at) + " s" +
              (gen ? "; transfer switch back from the generator" : ""));
      break;
    }
    case K::DriveTrip: {
      const std::string off = drivesOffUps(m);
      if (off.empty() || f.drives_tripped) break;  // behind the UPS, or tripped already
      f.drives_tripped = true;
      f.drives_tripped_at = e.time;
      f.changed = true;
      log(st, e.time, e.label, EventKind::DriveTrip, "critical",
          "drives of the " + off + " tripped on undervoltage (below " +
              fmt(100 * m.power.ride.drive_V_trip) + " % for " +
              fmt(1e3 * m.power.ride.drive_ride_through) + " ms)");
      break;
    }
    case K::DriveRestart: {
      if (!f.drives_tripped || e.time + 1e-9 < f.drives_hold_until) break;
      f.drives_tripped = false;
      f.changed = true;
      log(st, e.time, e.label, EventKind::DriveRestart, "info",
          "drives of the " + drivesOffUps(m) + " restarted " + fmt(e.time - f.drives_tripped_at) +
              " s after their trip");
      break;
    }
    case K::RackRestart: {
      if (e.time + 1e-9 < f.racks_hold_until) break;
      int n = 0;
      for (int r = 0; r < m.nrack; ++r)
        if (f.rack_sag_dropped[r]) {
          f.rack_sag_dropped[r] = 0;
          st.pl.rack_powered[r] = 1;
          f.rack_lost_logged[r] = 0;
          ++n;
        }
      for (int k = 0; k < m.nair; ++k)
        if (f.air_sag_dropped[k]) {
          f.air_sag_dropped[k] = 0;
          st.pl.air_powered[k] = 1;
          st.pl.air_cut[k] = static_cast<char>(AirRackCut::None);
          f.air_lost_logged[k] = 0;
          ++n;
        }
      if (n == 0) break;
      f.changed = true;
      log(st, e.time, e.label, EventKind::RackPowerRestored, "info",
          std::to_string(n) + " rack(s) dropped by the disturbance powered again (" +
              fmt(m.power.ride.rack_restart_time) + " s after it)");
      break;
    }
    case K::GeneratorOnline: {
      // the utility came back first (a utility loss), or the disturbance ended
      if ((f.utility_ok && !f.ups_input_lost) || f.generator_on) break;
      if (f.generator_failed) {
        log(st, e.time, "generator", EventKind::GeneratorFailToStart, "critical",
            "standby generator failed to start " + fmt(e.time - f.utility_lost_at) +
                " s after the utility loss: the UPS carries the load until its battery is "
                "empty");
        break;
      }
      const bool was_fed = facilityFed(st);
      f.generator_on = true;
      const bool sag = f.utility_ok;  // a disturbance took the UPS's input, not a utility loss
      log(st, e.time, "generator", EventKind::GeneratorOnline, "info",
          "transfer switch on the standby generator " +
              fmt(e.time - (sag ? f.ups_lost_at : f.utility_lost_at)) + " s after the " +
              (sag ? "disturbance began" : "utility loss"));
      logCoolingPower(m, st, e.time, was_fed);
      f.changed = true;
      break;
    }
    case K::PsuFailure:
      f.rack_psu_failed[i] += static_cast<int>(e.value);
      logFault(st, e,
               std::to_string(static_cast<int>(e.value)) + " PSU(s) failed; " +
                   std::to_string(f.rack_psu_failed[i]) + " out of " +
                   std::to_string(m.power.shelves_per_rack * m.power.shelf.psu_count));
      break;
    default:
      break;
  }
}

// the facility water and the heat-rejection plant (acts at the plant's next step)
void applyPlantFault(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e) {
  using K = FaultKind;
  FaultState& f = st.faults;
  switch (e.kind) {
    case K::ChillerTrip:
      st.plant.s.chillers_tripped += static_cast<int>(e.value);
      logFault(st, e,
               fmt(e.value) + " chiller(s) tripped; " +
                   fmt(std::max(m.plant.chiller.count - st.plant.s.chillers_tripped, 0)) +
                   " available");
      break;
    case K::HeatRejectionFailure:
      st.plant.s.units_failed += static_cast<int>(e.value);
      logFault(st, e, fmt(e.value) + " heat-rejection unit(s) lost their fans");
      break;
    case K::MakeupWaterLoss:
      st.plant.s.makeup_lost = true;
      logFault(st, e, "make-up water lost: towers and adiabatic pads run dry");
      break;
    case K::PlantPumpFailure:
      st.plant.s.pumps_failed += static_cast<int>(e.value);
      logFault(st, e, fmt(e.value) + " primary pump(s) stopped");
      break;
    case K::FacilityWaterFlow:
      f.fws_flow = e.value;
      log(st, e.time, e.label, e.value <= 0 ? EventKind::PlantTrip : EventKind::FacilityWaterFlow,
          e.value < 1 ? "critical" : "info",
          "facility-water flow at " + fmt(100 * e.value) + " % of its design");
      break;
    default:
      break;
  }
}

// a leak opens (it acts through the model's leaks; logged here)
void applyLeakFault(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e) {
  const auto& L = m.leaks[e.index];
  logFault(st, e,
           "leak opens: orifice " + fmt(L.area * 1e6) + " mm2" +
               (L.growth_time > 0 ? " growing to " + fmt(L.area_final * 1e6) + " mm2 over " +
                                        fmt(L.growth_time) + " s"
                                  : std::string()));
}

// a rack's parts: its cold plates degrade
void applyRackFault(const FacilityModel& m, State& st, const FacilityModel::FaultEvent& e) {
  using K = FaultKind;
  FaultState& f = st.faults;
  const int i = e.index;
  switch (e.kind) {
    case K::PlateDegradation:
      f.part_R_factor[std::size_t(i) * partStride(m) + e.part] = e.value;
      logFault(st, e, "cold plates degraded: plate resistance x " + fmt(e.value));
      break;
    default:
      break;
  }
}

}  // namespace

void applyFaults(const FacilityModel& m, State& st, double t, const double* y) {
  initFaultState(m, st);
  FaultState& f = st.faults;
  while (f.next < m.fault_events.size() && m.fault_events[f.next].time <= t + 1e-9) {
    const auto& e = m.fault_events[f.next++];
    switch (faultInfo(e.kind).domain) {  // the fault table's domain (solver/common/fault_table.h)
      case FaultDomain::Cdu:
        applyCduFault(m, st, e, y);
        break;
      case FaultDomain::Leak:
        applyLeakFault(m, st, e);
        break;
      case FaultDomain::Power:
        applyPowerFault(m, st, e);
        break;
      case FaultDomain::Plant:
        applyPlantFault(m, st, e);
        break;
      case FaultDomain::Fabric:
        applyFabricFault(m, st, e);
        break;
      case FaultDomain::Rack:
        applyRackFault(m, st, e);
        break;
    }
  }
}

namespace {

// leak sensors under racks and headers, CDU level, pressure and flow balance, and the response
// policies (rack liquid and electrical isolation, pump stop on low level)
void pollLeaks(const FacilityModel& m, State& st, double t, double dt, const double* y) {
  FaultState& f = st.faults;
  const DetectionParams& d = m.detection;
  if (m.leaks.empty()) return;
  for (std::size_t k = 0; k < m.leaks.size(); ++k) {
    const auto& L = m.leaks[k];
    // liquid reaching the sensor since the last poll (explicit): the share that flows its way,
    // from leak_sensor_transit after the leak opened at L.time (the sensor's placement)
    const double t_wet = L.time + d.leak_sensor_transit;
    if (t < t_wet) continue;
    f.leak_on_sensor[k] += d.leak_sensor_fraction * st.sig.leak_flow[k] * std::min(dt, t - t_wet);
    if (f.leak_detected[k] >= 0 || f.leak_on_sensor[k] < d.leak_sensor_volume) continue;
    f.leak_detected[k] = t;
    log(st, t, L.label, EventKind::LeakDetected, "critical",
        "leak sensor wet (" + fmt(f.leak_on_sensor[k] * 1e6) + " mL), " + fmt(t - L.time) +
            " s after the leak opened");
    if (L.rack < 0) continue;
    const int r = L.rack;
    const std::string who = "rack " + m.rack_name[r];
    if (d.rack_liquid_isolation && f.rack_isolation[r] < 0) {
      f.rack_isolation[r] = t;
      f.changed = true;
      log(st, t, who, EventKind::LiquidIsolation, "warning",
          "isolation valves closing (" + fmt(d.isolation_valve_stroke) + " s stroke)");
    }
    if (d.rack_electrical_isolation && !f.rack_power_off[r]) {
      f.rack_power_off[r] = 1;
      f.changed = true;
      log(st, t, who, EventKind::ElectricalIsolation, "warning", "rack powered off");
    }
  }
  for (int r = 0; r < m.nrack; ++r)
    if (f.rack_isolation[r] >= 0 && !f.rack_isolated_logged[r] &&
        rackIsolation(m, st, r, t) >= 1.0) {
      f.rack_isolated_logged[r] = 1;
      log(st, t, "rack " + m.rack_name[r], EventKind::Isolated, "info",
          "isolation valves shut " + fmt(t - f.rack_isolation[r]) + " s after the command");
    }
  for (int c = 0; c < m.ncdu; ++c) {
    if (!m.cdu_has_leak[c]) continue;
    const int o = m.cdu_stateadr[c];
    const double V_lost = y[o + kVLost];
    const double p = tankPressure(m, c, V_lost);
    if (!f.pressure_alarm[c] && m.cdu_vacuum[c] >= 0 && p < m.cdu_p_fill[c] - d.pressure_drop) {
      f.pressure_alarm[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::LowPressure, "warning",
          "loop pressure " + fmt(p / 1e3) + " kPa(g), fill " + fmt(m.cdu_p_fill[c] / 1e3) +
              " kPa(g): pressure decay");
    }
    // tank level: the liquid left in the expansion tank
    if (m.cdu_vacuum[c] >= 0 && m.cdu_V_tank[c] > 0 && !f.low_level[c]) {
      const double level = tankLiquidFraction(m, c, V_lost);
      if (level < d.low_level_fraction) {
        f.low_level[c] = 1;
        log(st, t, m.cdu_name[c], EventKind::LowLevel, "critical",
            "expansion tank at " + fmt(100 * std::max(level, 0.0)) + " % liquid" +
                (d.low_level_pump_stop ? ": level switch stops the pumps" : ""));
        if (d.low_level_pump_stop) {
          f.level_stopped[c] = m.cdu_pump_running[c] - f.pumps_out[c];
          f.level_cdu_failed[c] = f.cdu_failed[c];
          startCoastDown(m, st, c, t, f.level_stopped[c]);
          f.pumps_out[c] = m.cdu_pump_running[c];
          f.cdu_failed[c] = 1;
          f.changed = true;
        }
      }
    } else if (f.low_level[c] && d.low_level_auto_release) {
      releaseLevelSwitch(m, st, c, t, tankLiquidFraction(m, c, V_lost));
    }
    // flow balance: supply - return = the leaks' flow
    double q = 0;
    for (std::size_t k = 0; k < m.leaks.size(); ++k)
      if (m.leaks[k].cdu == c) q += st.sig.leak_flow[k];
    const double V = st.sig.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    if (V > 0 && q > d.imbalance_fraction * V) {
      if (f.imbalance_since[c] < 0) f.imbalance_since[c] = t;
      if (!f.imbalance_alarm[c] && t - f.imbalance_since[c] >= d.imbalance_delay - 1e-9) {
        f.imbalance_alarm[c] = 1;
        log(st, t, m.cdu_name[c], EventKind::FlowImbalance, "warning",
            "supply - return " + fmt(toLitersPerMinute(q)) + " L/min (" + fmt(100 * q / V) +
                " % of flow)");
      }
    } else {
      f.imbalance_since[c] = -1;
    }
  }
}

}  // namespace

void pollDetectors(const FacilityModel& m, State& st, double t, const double* y) {
  initFaultState(m, st);
  FaultState& f = st.faults;
  const DetectionParams& d = m.detection;
  const double dt = f.last_poll < 0 ? 0.0 : t - f.last_poll;
  f.last_poll = t;
  pollLeaks(m, st, t, dt, y);
  pollFilterSwitch(m, st, t);  // the strainers' dp switches
  // CDU low flow: secondary flow below a share of its set point (its racks' design flow under
  // dp control), held for a delay [K58]
  for (int c = 0; c < m.ncdu; ++c) {
    const double V = st.sig.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    const double V_set = cduFlowSetPoint(m, c);
    const bool low = V_set > 0 && V < d.low_flow_fraction * V_set;
    if (!low) {
      if (f.low_flow_alarm[c])
        log(st, t, m.cdu_name[c], EventKind::LowFlowCleared, "info",
            "secondary flow back to " + fmt(toLitersPerMinute(V)) + " L/min");
      f.low_flow_since[c] = -1, f.low_flow_alarm[c] = 0;
      continue;
    }
    if (f.low_flow_since[c] < 0) f.low_flow_since[c] = t;
    if (!f.low_flow_alarm[c] && t - f.low_flow_since[c] >= d.low_flow_delay - 1e-9) {
      f.low_flow_alarm[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::LowFlow, "critical",
          "secondary flow " + fmt(toLitersPerMinute(V)) + " L/min < " +
              fmt(100 * d.low_flow_fraction) + " % of its set point " +
              fmt(toLitersPerMinute(V_set)) + " L/min for " + fmt(d.low_flow_delay) + " s");
    }
  }
  // CDU over-pressure: pump discharge above 90 % of the secondary's maximum working pressure (the
  // relief valve's set point less 10 % [K58])
  for (int c = 0; c < m.ncdu; ++c) {
    if (m.cdu_p_max[c] <= 0 || f.over_pressure[c]) continue;
    const double p_dis = st.sig.p_tank[c] + st.sig.dp_pump[c];
    if (p_dis > 0.9 * m.cdu_p_max[c]) {
      f.over_pressure[c] = 1;
      log(st, t, m.cdu_name[c], EventKind::OverPressure, "critical",
          "pump discharge " + fmt(p_dis / 1e5) + " bar(g) above 90 % of the " +
              fmt(m.cdu_p_max[c] / 1e5) + " bar(g) maximum");
    }
  }
  pollProtection(m, st, t, y);
  // GPUs, per rack: the first thermal throttling and the first shutdown
  for (int r = 0; r < m.nrack; ++r) {
    if (!m.rack_resolved[r] || st.gl.grp.reasons.empty()) continue;
    int throttled = 0, down = 0, hbm_hot = 0;
    double T_hbm_hot = -1e300;
    for (int q = m.rack_groupadr[r]; q < m.rack_groupadr[r] + m.rack_groupnum[r]; ++q) {
      if (st.gl.grp.reasons[q] & (kThrottleSwThermal | kThrottleHwThermal))
        throttled += m.group_gpunum[q];
      if (st.gl.grp.latches[q] & kLatchShutDown) down += m.group_gpunum[q];
      const double T_hbm = st.gl.grp.T_hbm[q];
      if (T_hbm >= m.gpu_types[m.gpu_type[m.group_gpuadr[q]]].T_hbm_max) {
        hbm_hot += m.group_gpunum[q];
        T_hbm_hot = std::max(T_hbm_hot, T_hbm);
      }
    }
    const std::string who = "rack " + m.rack_name[r];
    if (throttled && !f.rack_throttle_logged[r]) {
      f.rack_throttle_logged[r] = 1;
      log(st, t, who, EventKind::GpuThermalThrottle, "warning",
          std::to_string(throttled) + " GPU(s) thermally throttled");
    }
    // HBM at or above its maximum operating temperature (the GPU type's T_hbm_max)
    if (hbm_hot && !f.rack_hbm_logged[r]) {
      f.rack_hbm_logged[r] = 1;
      log(st, t, who, EventKind::HbmOverTemperature, "warning",
          std::to_string(hbm_hot) + " GPU(s) with HBM at or above its maximum operating " +
              "temperature (hottest " + fmt(toCelsius(T_hbm_hot)) + " degC)");
    }
    if (down && !f.rack_shutdown_logged[r]) {
      f.rack_shutdown_logged[r] = 1;
      log(st, t, who, EventKind::GpuShutdown, "critical",
          std::to_string(down) + " GPU(s) at their shutdown temperature: powered off");
    }
  }
  // a synchronous job whose GPUs wait on one that is off makes no progress
  for (int j = 0; j < m.njob && j < static_cast<int>(st.gl.job.size()); ++j)
    if (m.job_kind[j] == 0 && st.gl.job[j].stalled_time > 0 && !f.job_stalled_logged[j]) {
      f.job_stalled_logged[j] = 1;
      log(st, t, "job " + m.job_name[j], EventKind::JobStalled, "critical",
          "a GPU of the job is off: the others wait at the next barrier (no progress)");
    }
  // a job that failed restarts from its last checkpoint (docs/models/checkpoint.md)
  for (int j = 0; j < m.njob && j < static_cast<int>(st.gl.job.size()); ++j)
    if (st.gl.job[j].failures > f.job_failures_logged[j]) {
      f.job_failures_logged[j] = st.gl.job[j].failures;
      log(st, t, "job " + m.job_name[j], EventKind::JobFailed, "critical",
          "a GPU of the job was lost, or the job was interrupted: restart from the last "
          "checkpoint after " +
              fmt(m.job_spec[j].restart_time) + " s (" + fmt(st.gl.job[j].lost_iterations) +
              " iterations lost so far)");
    }
  if (!m.has_power || st.pl.rack_powered.empty()) return;
  const PowerLayerState& p = st.pl;
  for (int r = 0; r < m.nrack; ++r) {
    const std::string who = "rack " + m.rack_name[r];
    if (!p.rack_powered[r] && !f.rack_lost_logged[r]) {
      f.rack_lost_logged[r] = 1;
      log(st, t, who, EventKind::RackPowerLost, "critical", "rack without power: its GPUs are off");
    }
    if (p.rack_brake[r] && !f.rack_brake_logged[r]) {
      f.rack_brake_logged[r] = 1;
      log(st, t, who, EventKind::PowerBrake, "warning",
          "working PSUs cannot carry the load: power brake asserted");
    }
  }
  // air-cooled racks (air_rack_feed.cpp): the same event as a liquid-cooled rack's
  for (int k = 0; k < m.nair && k < int(p.air_powered.size()); ++k)
    if (!p.air_powered[k] && !f.air_lost_logged[k]) {
      f.air_lost_logged[k] = 1;
      log(st, t, "air rack " + m.air_name[k], EventKind::RackPowerLost, "critical",
          std::string("rack without power (") + airRackCutReason(AirRackCut(p.air_cut[k])) +
              "): its IT load and fans are off");
    }
  for (std::size_t b = 0; b < m.power.busways.size(); ++b) {
    const std::string who = "busway " + m.busway_name[b];
    if (p.bus_brk[b].tripped && !f.bus_trip_logged[b]) {
      f.bus_trip_logged[b] = 1;
      log(st, t, who, EventKind::BreakerTrip, "critical",
          "feeder breaker tripped: its racks lose power");
    }
    const double ratio = p.bus_I[b] / m.power.busways[b].params.I_rated;
    if (ratio < d.continuous_load_ratio) {
      f.bus_high_since[b] = -1;
      continue;
    }
    if (f.bus_high_since[b] < 0) f.bus_high_since[b] = t;
    if (!f.bus_alarm[b] && t - f.bus_high_since[b] >= d.continuous_load_time - 1e-9) {
      f.bus_alarm[b] = 1;
      log(st, t, who, EventKind::ContinuousOverload, "warning",
          "current at " + fmt(100 * ratio) + " % of the rating for " +
              fmt(d.continuous_load_time / 3600) + " h (continuous-load limit " +
              fmt(100 * d.continuous_load_ratio) + " %)");
    }
  }
  if (m.power.has_ups && p.ups.on_battery && !f.ups_battery_logged) {
    f.ups_battery_logged = true;
    log(st, t, "ups", EventKind::UpsOnBattery, "critical",
        "UPS on battery, " + fmt(m.power.ups_count * p.ups.soc_J / 3.6e6) + " kWh left");
  }
  if (m.power.has_ups && !p.ups.on_battery) f.ups_battery_logged = false;
}

}  // namespace dctwin
