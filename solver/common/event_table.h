// event_table.h: the event table, one row per kind of event in a run's event log (EventRecord,
// /events in the results file, the CLI summary)
//
// DCTWIN_EVENTS: its id (EventKind), the kind as the results file writes it (/events/kind), its
// severity (the one it has, or what it depends on), what raises it, and when. The docs' event
// table (docs/scenario-format.md "Detection and the event log", `dctwin outputs --table events`)
// is generated from it; the results file carries the table's kinds as the attribute `kinds` of
// /events/kind, so a reader maps each event's kind to its row (EventKind), and the Python module
// has it as dctwin.EventKind. The engine's log calls name a row (EventKind::LowFlow), never a
// string; scripts/docs_tables.py fails on a kind logged by a string that has no row. The
// pattern is the output table's (solver/output/observables.h); the faults' own events are named
// by their rows of the fault table (solver/common/fault_table.h).
//
// Adding a kind of event: one row here, and the log call that raises it.
#pragma once

#include <string>
#include <string_view>

namespace dctwin {

// X(Id, kind, severity, raised by, raised when)
// clang-format off
#define DCTWIN_EVENTS(X)                                                                           \
  /* the faults themselves (solver/common/fault_table.h) */                                        \
  X(PumpFailure, "pump_failure", "warning, critical", "fault",                                     \
    "duty pumps of a CDU fail (`pump_failure`); warning while a standby takes over")               \
  X(PumpSwitchover, "pump_switchover", "info", "fault",                                            \
    "standby pumps running, `pump_switchover` after a pump failure")                               \
  X(CduFailure, "cdu_failure", "critical", "fault", "every pump of a CDU stops (`cdu_failure`)")   \
  X(ValveStuck, "valve_stuck", "warning", "fault", "a CDU's facility-water valve sticks")          \
  X(FilterClogging, "filter_clogging", "warning", "fault",                                         \
    "a CDU strainer starts clogging")                                                              \
  X(SensorFault, "sensor_fault", "warning", "fault", "a CDU sensor reads off, or sticks")          \
  X(Setpoint, "setpoint", "info", "fault",                                                         \
    "a CDU controller's set point changes (`supply_temperature_setpoint`, `dp_setpoint`, "         \
    "`flow_setpoint`)")                                                                            \
  X(PowerCap, "power_cap", "info", "fault", "a job's GPUs get a power limit (`power_cap`)")        \
  X(FacilityWaterFlow, "facility_water_flow", "info, critical", "fault",                           \
    "facility-water flow changes (critical below its design)")                                     \
  X(PlantTrip, "plant_trip", "critical", "fault",                                                  \
    "facility-water flow at 0 (`facility_water_flow: 0`)")                                         \
  X(UtilityLost, "utility_lost", "critical", "fault", "the utility feed is lost")                  \
  X(UtilityRestored, "utility_restored", "info", "fault", "the utility feed is back")              \
  X(PsuFailure, "psu_failure", "warning", "fault", "PSUs of a rack's power shelves fail")          \
  X(LeakStart, "leak_start", "critical", "fault", "a leak opens")                                  \
  X(PlateDegradation, "plate_degradation", "warning", "fault",                                     \
    "a rack part's cold plates degrade")                                                           \
  X(ChillerTrip, "chiller_trip", "critical", "fault", "chillers of the plant trip")                \
  X(HeatRejectionFailure, "heat_rejection_failure", "critical", "fault",                           \
    "dry-cooler units or tower cells lose their fans")                                             \
  X(MakeupWaterLoss, "makeup_water_loss", "critical", "fault",                                     \
    "the plant's make-up water is lost")                                                           \
  X(PlantPumpFailure, "plant_pump_failure", "critical", "fault",                                   \
    "primary pumps of the plant stop")                                                             \
  X(LinkDegraded, "link_degraded", "warning", "fault", "a GPU's scale-out link at a fraction")     \
  X(LinkDown, "link_down", "warning", "fault", "a GPU's scale-out link or NIC down")               \
  X(LinkRestored, "link_restored", "info", "fault", "a GPU's scale-out link back")                 \
  X(LinkFlapping, "link_flapping", "warning", "fault", "a GPU's scale-out link flaps")             \
  X(NvlinkTrayLost, "nvlink_tray_lost", "critical", "fault",                                       \
    "an NVLink switch tray of a rack lost")                                                        \
  X(NvlinkTrayRestored, "nvlink_tray_restored", "info", "fault", "an NVLink switch tray back")     \
  X(SwitchFailed, "switch_failed", "critical", "fault",                                            \
    "a scale-out switch of a switch rack fails")                                                   \
  X(SwitchRestored, "switch_restored", "info", "fault", "a scale-out switch back")                 \
  /* the power chain */                                                                            \
  X(GeneratorOnline, "generator_online", "info", "power",                                          \
    "the transfer switch puts the standby generator on, `generator_start_delay` after a utility "  \
    "loss")                                                                                        \
  X(GeneratorFailToStart, "generator_fail_to_start", "critical", "power",                          \
    "after a `generator_failure` event: the generator does not take the load "                     \
    "(docs/models/protection.md)")                                                                 \
  X(GeneratorTrip, "generator_trip", "critical", "power",                                          \
    "after a `generator_failure` event: the running generator drops the load")                     \
  X(CoolingPowerLost, "cooling_power_lost", "critical", "power",                                   \
    "cooling loads off the UPS lose their feed")                                                   \
  X(CoolingPowerRestored, "cooling_power_restored", "info", "power",                               \
    "cooling loads off the UPS regain their feed")                                                 \
  X(PowerBrake, "power_brake", "warning", "power", "a rack's working PSUs cannot carry its load")  \
  X(RackPowerLost, "rack_power_lost", "critical", "power",                                         \
    "a rack without a working shelf, feeder or UPS; an air-cooled rack (`air rack <name>`) whose " \
    "busway breaker tripped, whose UPS dropped, or that lost the utility without a UPS or at the " \
    "meter (the reason in the message; docs/models/air_rack.md)")                                  \
  X(BreakerTrip, "breaker_trip", "critical", "power", "a busway feeder breaker trips")             \
  X(ContinuousOverload, "continuous_overload", "warning", "power",                                 \
    "a busway above `continuous_load_ratio` of its rating for `continuous_load_time`")             \
  X(UpsOnBattery, "ups_on_battery", "critical", "power", "the UPS runs from its battery")          \
  /* the CDUs' detectors and the protection layers (docs/models/protection.md) */                  \
  X(LowFlow, "low_flow", "critical", "detector",                                                   \
    "CDU secondary flow below `low_flow_fraction` of its flow set point (its racks' design flow "  \
    "under dp control) for `low_flow_delay`")                                                      \
  X(LowFlowCleared, "low_flow_cleared", "info", "detector", "CDU secondary flow back")             \
  X(SupplyHighTemperature, "supply_high_temperature", "warning", "protection",                     \
    "CDU supply above its set point by the protection's offset for its delay (after "              \
    "`startup_inhibit`)")                                                                          \
  X(SupplyLowTemperature, "supply_low_temperature", "warning", "protection",                       \
    "CDU supply below its set point by the protection's offset for its delay")                     \
  X(ReturnHighTemperature, "return_high_temperature", "warning", "protection",                     \
    "CDU return above the supply set point by `return_high_offset` for its delay")                 \
  X(EmergencyPowerOff, "emergency_power_off", "critical", "protection",                            \
    "CDU flow below `epo_flow_fraction` of its set point for `epo_delay`")                         \
  X(RackPowerOff, "rack_power_off", "critical", "protection",                                      \
    "a rack powered off by an emergency power-off of its CDU")                                     \
  X(InletOverTemperature, "inlet_over_temperature", "critical", "protection",                      \
    "rack inlet above its type's `supply_temperature_max` for `inlet_cap_delay`: the rack's GPUs " \
    "capped at `inlet_cap_fraction`")                                                              \
  X(InletOverTemperatureShutdown, "inlet_over_temperature_shutdown", "critical", "protection",     \
    "rack inlet `inlet_shutdown_margin` above its maximum for `inlet_shutdown_delay`, or still "   \
    "above it `inlet_cap_hold` after the cap: rack powered off")                                   \
  X(CoolantOverTemperature, "coolant_over_temperature", "critical", "protection",                  \
    "rack coolant within `coolant_limit_margin` of the fluid's use range or of boiling at the "    \
    "loop pressure: rack powered off")                                                             \
  X(PartOverTemperature, "part_over_temperature", "critical", "protection",                        \
    "a rack part at its shutdown temperature: rack powered off (docs/models/rack_parts.md)")       \
  X(RackOverPressure, "rack_over_pressure", "critical", "protection",                              \
    "pump discharge above a rack's `max_working_pressure`")                                        \
  X(ReliefValveOpen, "relief_valve_open", "critical", "protection",                                \
    "pump discharge at the CDU's relief set point")                                                \
  X(FillPumpStart, "fill_pump_start", "warning", "protection",                                     \
    "the CDU's make-up pump starts on low suction pressure")                                       \
  X(FillPumpStop, "fill_pump_stop", "info", "protection",                                          \
    "the make-up pump stops back at the fill pressure")                                            \
  X(FillTimeout, "fill_timeout", "warning", "protection",                                          \
    "the make-up pump ran `fill_timeout` without restoring the pressure: no more auto-fill")       \
  X(FillTankEmpty, "fill_tank_empty", "critical", "protection",                                    \
    "the make-up pump's fill tank is empty: no more auto-fill")                                    \
  X(OverPressure, "over_pressure", "critical", "detector",                                         \
    "pump discharge (tank + pump head) above 90 % of the CDU's `limits.secondary_pressure_max` "   \
    "(relief set point less 10 % [K58])")                                                          \
  X(FilterDpHigh, "filter_dp_high", "warning", "detector",                                         \
    "a CDU strainer's dp at the present flow reaches its dp switch's set point "                   \
    "(`filter.alarm_dp`, else `dp_clogged`; latched; docs/models/filter.md)")                      \
  /* leaks (docs/models/leak.md) */                                                                \
  X(LeakDetected, "leak_detected", "critical", "detector", "the leak's sensor is wet")             \
  X(LiquidIsolation, "liquid_isolation", "warning", "detector",                                    \
    "the rack's isolation valves start closing")                                                   \
  X(Isolated, "isolated", "info", "detector", "the rack's isolation valves are shut")              \
  X(ElectricalIsolation, "electrical_isolation", "warning", "detector",                            \
    "the leaking rack is powered off")                                                             \
  X(LowPressure, "low_pressure", "warning", "detector",                                            \
    "the tank pressure fell `pressure_drop` below its fill pressure")                              \
  X(LowLevel, "low_level", "critical", "detector",                                                 \
    "the expansion tank is nearly empty (and the pumps stop, by default)")                         \
  X(LowLevelCleared, "low_level_cleared", "info", "detector",                                      \
    "the expansion tank is back above the level switch (the pumps it stopped restart)")            \
  X(FlowImbalance, "flow_imbalance", "warning", "detector",                                        \
    "supply - return above `imbalance_fraction` of the flow for `imbalance_delay`")                \
  /* GPUs and jobs */                                                                              \
  X(GpuThermalThrottle, "gpu_thermal_throttle", "warning", "detector",                             \
    "the first GPU of a rack with SW or HW thermal slowdown")                                      \
  X(GpuShutdown, "gpu_shutdown", "critical", "detector",                                           \
    "the first GPU of a rack at its shutdown temperature")                                         \
  X(HbmOverTemperature, "hbm_over_temperature", "warning", "detector",                             \
    "the first GPU of a rack with its HBM at or above its type's maximum operating temperature "   \
    "(`T_hbm_max`, data/catalog/gpus)")                                                            \
  X(JobStalled, "job_stalled", "critical", "detector",                                             \
    "a GPU of a synchronous job is off: the others wait at its barrier")                           \
  X(JobFailed, "job_failed", "critical", "detector",                                               \
    "a training job with `on_failure: restart` lost a GPU or was interrupted: it restarts from "   \
    "its last checkpoint (docs/models/checkpoint.md)")                                             \
  /* the failure process and stragglers (docs/models/failures.md) */                               \
  X(ComponentFailure, "component_failure", "warning", "failures",                                  \
    "the failure process (`failures:`) took a GPU, a host's GPUs or interrupted a job")            \
  X(ComponentRepaired, "component_repaired", "info", "failures",                                   \
    "the taken GPU is back after `repair_time`")                                                   \
  X(StragglerDetected, "straggler_detected", "warning", "stragglers",                              \
    "a GPU's mean clock over the `stragglers.window` below `(1 - threshold)` x its job's median")  \
  X(StragglerDrained, "straggler_drained", "warning", "stragglers",                                \
    "a straggler taken out of its job, its rank on a hot spare")                                   \
  X(StragglerPending, "straggler_pending", "warning", "stragglers",                                \
    "a drain or an exclusion scheduled for the job's checkpoint (`stragglers.act_at`)")            \
  X(StragglerExcluded, "straggler_excluded", "warning", "stragglers",                              \
    "a straggler's data-parallel replica taken out of its job")                                    \
  X(StragglerKept, "straggler_kept", "warning", "stragglers",                                      \
    "a straggler kept (no spare, or no replica, left)")                                            \
  X(StragglerRebalanced, "straggler_rebalanced", "info", "stragglers",                             \
    "policy rebalance: the straggler's power cap raised, the job's other GPUs' lowered")           \
  X(ReplicaRejoinPending, "replica_rejoin_pending", "info", "stragglers",                          \
    "an excluded replica's straggler GPU replaced (`stragglers.repair_time`): its rejoin "         \
    "scheduled")                                                                                   \
  X(ReplicaRejoined, "replica_rejoined", "info", "stragglers",                                     \
    "an excluded replica rejoined its job at a restart after a checkpoint")                        \
  /* grid disturbances and the equipment's ride-through (docs/models/ride_through.md) */           \
  X(VoltageSag, "voltage_sag", "warning", "fault",                                                 \
    "the site's voltage drops (`voltage_sag`): what rides through and what does not")              \
  X(FrequencyExcursion, "frequency_excursion", "warning", "fault",                                 \
    "the site's frequency is off nominal (`frequency_excursion`)")                                 \
  X(UpsRetransfer, "ups_retransfer", "info", "power",                                              \
    "the UPS back on the utility, `ups_retransfer_delay` after a disturbance that sent it to "     \
    "battery ended")                                                                               \
  X(DriveTrip, "drive_trip", "critical", "power",                                                  \
    "the drives of the pumps, fans and chillers off the UPS trip on undervoltage "                 \
    "(`drive_trip_voltage` for `drive_ride_through`)")                                             \
  X(DriveRestart, "drive_restart", "info", "power",                                                \
    "the tripped drives restart, `drive_restart_delay` after the voltage is back")                 \
  X(RackPowerRestored, "rack_power_restored", "info", "power",                                     \
    "the racks a disturbance dropped are back, `rack_restart_time` after the voltage is back")
// clang-format on

enum class EventKind {
#define DCTWIN_EVENT_ENUM(Id, ...) Id,
  DCTWIN_EVENTS(DCTWIN_EVENT_ENUM)
#undef DCTWIN_EVENT_ENUM
};

struct EventInfo {
  EventKind id;
  const char* kind;      // as /events/kind writes it
  const char* severity;  // info, warning, critical, or the ones it takes
  const char* source;    // fault, power, detector, protection, failures, stragglers
  const char* docs;      // raised when
};

inline constexpr EventInfo kEventTable[] = {
#define DCTWIN_EVENT_INFO(Id, kind, severity, source, docs) \
  EventInfo{EventKind::Id, kind, severity, source, docs},
    DCTWIN_EVENTS(DCTWIN_EVENT_INFO)
#undef DCTWIN_EVENT_INFO
};
inline constexpr int kEventKinds = int(sizeof(kEventTable) / sizeof(kEventTable[0]));

inline constexpr const EventInfo& eventInfo(EventKind k) {
  return kEventTable[int(k)];
}
// the row of an event kind as the results file writes it; nullptr for none
inline const EventInfo* eventByKind(std::string_view kind) {
  for (const EventInfo& e : kEventTable)
    if (kind == e.kind) return &e;
  return nullptr;
}

// the table as markdown (`dctwin outputs --table events`, docs/scenario-format.md)
inline std::string eventTableMarkdown() {
  std::string out = "| kind | severity | raised by | raised when |\n|---|---|---|---|\n";
  for (const EventInfo& e : kEventTable)
    out += std::string("| `") + std::string(e.kind) + "` | " + e.severity + " | " + e.source +
           " | " + e.docs + " |\n";
  return out;
}
// the kinds in table order, comma-separated (the attribute `kinds` of /events/kind)
inline std::string eventKindList() {
  std::string out;
  for (const EventInfo& e : kEventTable) {
    if (!out.empty()) out += ',';
    out += e.kind;
  }
  return out;
}

}  // namespace dctwin
