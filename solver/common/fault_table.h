// fault_table.h: the fault table, one row per kind of scenario fault (docs/scenario-format.md
// "Faults")
//
// DCTWIN_FAULTS: its id (FaultKind), the scenario's event key (also the event's kind in a
// Scenario), what it targets (CDU, rack, job, the facility), the engine's domain that applies it,
// the facility section it needs, its value (how written, its key, unit and range), the event it
// logs in the results file's /events and that event's severity, the GUI what-if form's entry
// (label, YAML, unit and default) and its docs text. The scenario reader and its errors (the keys'
// ranges, the targets, the sections a fault needs), applyScenario, the engine's dispatch
// (engine/faults.cpp: one function per domain), the GUI's what-if form and the docs' fault table
// (`dctwin outputs --table faults`) all read it. The pattern is the output table's
// (solver/output/observables.h).
//
// Adding a kind of fault: one row here, its keys in solver/input/scenario_keys.cpp (the row gives
// type, range and docs), and its physics in its domain's function in solver/engine/faults.cpp.
#pragma once

#include <string_view>

#include "solver/common/units.h"

namespace dctwin {

// what a fault names
enum class FaultTarget {
  Facility,          // nothing: the whole facility (facility water, utility, plant)
  Cdu,               // `cdu`
  Rack,              // `rack`
  Job,               // `job`
  RackOrCdu,         // leaks: `rack`, or `cdu` for the CDU and its headers
  RackOrSwitchRack,  // fabric: `rack`, or the switch rack inside the fabric section
};
// which part of the engine applies it (engine/faults.cpp)
enum class FaultDomain {
  Cdu,     // a CDU's pumps, valve, strainer, sensors and set points
  Leak,    // a leak opening
  Power,   // utility, generator, PSUs, power caps
  Plant,   // facility water and the heat-rejection plant
  Fabric,  // scale-out links, NVLink trays, scale-out switches
  Rack,    // a rack's parts (cold plates)
};
// the facility section a fault needs
enum class FaultNeeds { Nothing, Power, Plant };
// how the event key's value is written
enum class FaultValue {
  None,      // not in scenario files (scheduled by the compiler)
  Flag,      // `true`
  Integer,   // a count within [lo, hi]
  Quantity,  // a number with the unit of `dim`, within the range
  Choice,    // a word (utility: lost, restored)
  Section,   // a map of its own; the range is of its key `value_key`
  Special,   // a number within the range, or a word (valve_stuck: current)
};

// the GUI what-if form's entry (label empty: not in the form). `yaml` is the event's action with
// %1 for the value in the form's unit, %2 for the SI value (a fraction the form shows in %);
// value in the form = SI value x scale + offset.
struct FaultForm {
  const char* label = "";
  const char* yaml = "";
  const char* unit = "";
  double scale = 1, offset = 0;
  double def = 0;  // default, in the form's unit
};

struct FaultRange {
  FaultValue type = FaultValue::None;
  const char* key = "";  // the value's key: the event key, or a key of its section
  Dim dim = Dim::None;
  double lo = 0, hi = 0;
  bool lo_open = false, hi_open = false;
  const char* text = "";  // as errors and docs show it
  bool contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
};

// X(Id, .key = ..., .target = ..., .domain = ..., .needs = ..., .value = {...}, .event = ...,
//   .severity = ..., .form = {...}, .docs = ...): the fields of FaultInfo after its id, in order
// clang-format off
#define DCTWIN_FAULTS(X)                                                                           \
  X(PumpFailure, .key = "pump_failure", .target = FaultTarget::Cdu, .domain = FaultDomain::Cdu,    \
    .value = {FaultValue::Integer, "pump_failure", Dim::None, 1, 64, false, false, "1 ... 64"},    \
    .event = "pump_failure", .severity = "critical",                                               \
    .form = {"Pump failure (pumps)", "pump_failure: %1", "pumps", 1, 0, 1},                        \
    .docs = "N duty pumps stop (needs cdu); standbys take over (pump_switchover; warning while "   \
            "one is left)")                                                                        \
  X(CduFailure, .key = "cdu_failure", .target = FaultTarget::Cdu, .domain = FaultDomain::Cdu,      \
    .value = {FaultValue::Flag, "cdu_failure"}, .event = "cdu_failure", .severity = "critical",    \
    .form = {"CDU failure (every pump)", "cdu_failure: true"},                                     \
    .docs = "true: every pump stops, no switch-over (needs cdu)")                                  \
  X(ValveStuck, .key = "valve_stuck", .target = FaultTarget::Cdu, .domain = FaultDomain::Cdu,      \
    .value = {FaultValue::Special, "valve_stuck", Dim::None, 0, 1, false, false,                   \
              "a fraction 0 ... 1, or current"},                                                   \
    .event = "valve_stuck", .severity = "warning",                                                 \
    .form = {"Facility-water valve stuck (opening)", "valve_stuck: %2", "%", 100, 0, 30},          \
    .docs = "0 ... 1: the facility-water valve holds this opening, or current (needs cdu)")        \
  X(FacilityWaterFlow, .key = "facility_water_flow", .target = FaultTarget::Facility,              \
    .domain = FaultDomain::Plant,                                                                  \
    .value = {FaultValue::Quantity, "facility_water_flow", Dim::None, 0, 1, false, false,          \
              "a fraction 0 ... 1"},                                                               \
    .event = "facility_water_flow", .severity = "critical",                                        \
    .form = {"Facility-water flow (0 % = plant trip)", "facility_water_flow: %2", "%", 100, 0, 0}, \
    .docs = "primary flow of every CDU times this (0: plant trip, logged as plant_trip)")           \
  X(Utility, .key = "utility", .target = FaultTarget::Facility, .domain = FaultDomain::Power,      \
    .needs = FaultNeeds::Power, .value = {FaultValue::Choice, "utility"},                          \
    .event = "utility_lost", .severity = "critical",                                               \
    .form = {"Utility feed lost", "utility: lost"},                                                \
    .docs = "lost or restored: the UPS carries the load, the standby generator starts (needs a "   \
            "power section)")                                                                      \
  X(PsuFailure, .key = "psu_failure", .target = FaultTarget::Rack, .domain = FaultDomain::Power,   \
    .needs = FaultNeeds::Power,                                                                    \
    .value = {FaultValue::Integer, "psu_failure", Dim::None, 1, 256, false, false, "1 ... 256"},   \
    .event = "psu_failure", .severity = "warning",                                                 \
    .form = {"PSU failures in a rack", "psu_failure: %1", "PSUs", 1, 0, 6},                        \
    .docs = "N PSUs of the rack fail (needs rack and a power section)")                            \
  X(Leak, .key = "leak", .target = FaultTarget::RackOrCdu, .domain = FaultDomain::Leak,            \
    .value = {FaultValue::Section, "diameter", Dim::Length, 0, 0.2, true, false,                   \
              "0 < diameter <= 200 mm"},                                                           \
    .event = "leak_start", .severity = "critical",                                                 \
    .form = {"Leak (hole diameter)", "leak: {diameter: %1 mm}", "mm", 1e3, 0, 2},                  \
    .docs = "an orifice opens at the rack, or at the CDU or its headers (needs rack, or cdu)")     \
  X(FilterClogging, .key = "filter_clogging", .target = FaultTarget::Cdu,                          \
    .domain = FaultDomain::Cdu,                                                                    \
    .value = {FaultValue::Section, "dp", Dim::Pressure, 0, 1e6, true, false,                       \
              "0 < dp <= 10 bar"},                                                                 \
    .event = "filter_clogging", .severity = "warning",                                             \
    .form = {"Strainer clogging (dp at rated flow)", "filter_clogging: {dp: %1 kPa}", "kPa",       \
             1e-3, 0, 50},                                                                         \
    .docs = "the strainer's pressure drop rises to dp (needs cdu)")                                \
  X(SensorFault, .key = "sensor_fault", .target = FaultTarget::Cdu, .domain = FaultDomain::Cdu,    \
    .value = {FaultValue::Section, "offset", Dim::TemperatureDiff, -1e300, 1e300, false, false,    \
              "any temperature difference (supply_temperature)"},                                  \
    .event = "sensor_fault", .severity = "warning",                                                \
    .form = {"Supply-temperature sensor offset", "sensor_fault: {sensor: supply_temperature, "     \
             "offset: %1 K}", "K", 1, 0, 2},                                                       \
    .docs = "a supply-temperature or flow sensor reads off, or sticks (needs cdu)")                \
  X(PowerCap, .key = "power_cap", .target = FaultTarget::Job, .domain = FaultDomain::Power,        \
    .value = {FaultValue::Quantity, "power_cap", Dim::Power, 0, 1e4, true, false,                  \
              "0 < power_cap <= 10 kW"},                                                           \
    .event = "power_cap", .severity = "info",                                                      \
    .form = {"Power cap for a job (per GPU)", "power_cap: %1 W", "W", 1, 0, 900},                  \
    .docs = "the job's GPUs get this power limit, clamped to their settable range (needs job)")    \
  X(Setpoint, .key = "setpoint", .target = FaultTarget::Cdu, .domain = FaultDomain::Cdu,           \
    .value = {FaultValue::Quantity, "supply_temperature_setpoint", Dim::Temperature, 223.15,       \
              473.15, false, false, "between -50 degC and 200 degC"},                              \
    .event = "setpoint", .severity = "info",                                                       \
    .form = {"Supply-temperature set point", "supply_temperature_setpoint: %1 degC", "°C", 1,      \
             -273.15, 30},                                                                         \
    .docs = "a CDU controller's set point changes: supply_temperature_setpoint, dp_setpoint or "   \
            "flow_setpoint (needs cdu)")                                                           \
  X(ChillerTrip, .key = "chiller_trip", .target = FaultTarget::Facility,                           \
    .domain = FaultDomain::Plant, .needs = FaultNeeds::Plant,                                      \
    .value = {FaultValue::Integer, "chiller_trip", Dim::None, 1, 100, false, false, "1 ... 100"},  \
    .event = "chiller_trip", .severity = "critical",                                               \
    .form = {"Chiller trip (chillers)", "chiller_trip: %1", "chillers", 1, 0, 1},                  \
    .docs = "N chillers of the plant trip (needs a plant section)")                                \
  X(HeatRejectionFailure, .key = "heat_rejection_failure", .target = FaultTarget::Facility,        \
    .domain = FaultDomain::Plant, .needs = FaultNeeds::Plant,                                      \
    .value = {FaultValue::Integer, "heat_rejection_failure", Dim::None, 1, 1000, false, false,     \
              "1 ... 1000"},                                                                       \
    .event = "heat_rejection_failure", .severity = "critical",                                     \
    .form = {"Heat-rejection units lose their fans", "heat_rejection_failure: %1", "units", 1, 0,  \
             1},                                                                                   \
    .docs = "N dry-cooler units or tower cells lose their fans (needs a plant section)")           \
  X(MakeupWaterLoss, .key = "makeup_water_loss", .target = FaultTarget::Facility,                  \
    .domain = FaultDomain::Plant, .needs = FaultNeeds::Plant,                                      \
    .value = {FaultValue::Flag, "makeup_water_loss"}, .event = "makeup_water_loss",                \
    .severity = "critical", .form = {"Make-up water lost", "makeup_water_loss: true"},             \
    .docs = "true: the plant's make-up water is lost (towers, pads; needs a plant section)")       \
  X(PlantPumpFailure, .key = "plant_pump_failure", .target = FaultTarget::Facility,                \
    .domain = FaultDomain::Plant, .needs = FaultNeeds::Plant,                                      \
    .value = {FaultValue::Integer, "plant_pump_failure", Dim::None, 1, 100, false, false,          \
              "1 ... 100"},                                                                        \
    .event = "plant_pump_failure", .severity = "critical",                                         \
    .form = {"Plant pump failure (pumps)", "plant_pump_failure: %1", "pumps", 1, 0, 1},            \
    .docs = "N primary pumps of the plant stop (needs a plant section)")                           \
  X(GeneratorOnline, .key = "", .target = FaultTarget::Facility, .domain = FaultDomain::Power,     \
    .needs = FaultNeeds::Power, .event = "generator_online", .severity = "info",                   \
    .docs = "the transfer switch puts the standby generator on (scheduled at compile, "            \
            "generator_start_delay after a utility loss)")                                         \
  X(GeneratorFailure, .key = "generator_failure", .target = FaultTarget::Facility,                 \
    .domain = FaultDomain::Power, .needs = FaultNeeds::Power,                                      \
    .value = {FaultValue::Flag, "generator_failure"}, .event = "generator_trip",                   \
    .severity = "critical", .form = {"Standby generator fails", "generator_failure: true"},        \
    .docs = "true: from then on the standby generator fails to start, or trips if it runs "        \
            "(needs a power section)")                                                             \
  X(PlateDegradation, .key = "plate_degradation", .target = FaultTarget::Rack,                     \
    .domain = FaultDomain::Rack,                                                                   \
    .value = {FaultValue::Section, "factor", Dim::None, 1, 1000, false, false,                     \
              "between 1 and 1000"},                                                               \
    .event = "plate_degradation", .severity = "warning",                                           \
    .form = {"Cold plates of the CPUs degrade (resistance x)",                                     \
             "plate_degradation: {part: grace_cpu, factor: %1}", "x", 1, 0, 2},                    \
    .docs = "a part's cold plates degrade: plate resistance times factor (needs rack)")            \
  X(Fabric, .key = "fabric", .target = FaultTarget::RackOrSwitchRack,                              \
    .domain = FaultDomain::Fabric,                                                                 \
    .value = {FaultValue::Section, "fraction", Dim::None, 0, 1, true, true, "> 0 and < 1"},        \
    .event = "link_degraded", .severity = "warning",                                               \
    .form = {"Scale-out link of GPU 0 degraded (bandwidth)",                                       \
             "fabric: {fault: link_degraded, gpu: 0, fraction: %2}", "%", 100, 0, 50},             \
    .docs = "a fabric fault: a GPU's link or NIC, an NVLink tray (needs rack), or a scale-out "    \
            "switch (switch_rack inside)")                                                         \
  X(VoltageSag, .key = "voltage_sag", .target = FaultTarget::Facility,                             \
    .domain = FaultDomain::Power, .needs = FaultNeeds::Power,                                      \
    .value = {FaultValue::Section, "residual", Dim::None, 0, 1, false, true,                       \
              "0 <= residual < 1 (of nominal)"},                                                   \
    .event = "voltage_sag", .severity = "warning",                                                 \
    .form = {"Voltage sag (residual voltage, 200 ms)",                                             \
             "voltage_sag: {residual: %2, duration: 200 ms}", "%", 100, 0, 50},                    \
    .docs = "the site's voltage drops to residual of nominal for duration (repeat: a sequence): "  \
            "PSU hold-up, UPS transfer, drive trips, generator (needs a power section)")           \
  X(FrequencyExcursion, .key = "frequency_excursion", .target = FaultTarget::Facility,             \
    .domain = FaultDomain::Power, .needs = FaultNeeds::Power,                                      \
    .value = {FaultValue::Section, "deviation", Dim::Frequency, -10, 10, false, false,             \
              "-10 Hz ... 10 Hz, not 0"},                                                          \
    .event = "frequency_excursion", .severity = "warning",                                         \
    .form = {"Frequency excursion (deviation, 10 s)",                                              \
             "frequency_excursion: {deviation: %1 Hz, duration: 10 s}", "Hz", 1, 0, -1},           \
    .docs = "the site's frequency is off nominal by deviation for duration: the UPS transfers "    \
            "outside its window (needs a power section)")                                          \
  X(UpsRetransfer, .key = "", .target = FaultTarget::Facility, .domain = FaultDomain::Power,       \
    .needs = FaultNeeds::Power, .event = "ups_retransfer", .severity = "info",                     \
    .docs = "the UPS returns to the utility (scheduled at compile, ups_retransfer_delay after a "  \
            "disturbance that sent it to battery)")                                                \
  X(DriveTrip, .key = "", .target = FaultTarget::Facility, .domain = FaultDomain::Power,           \
    .needs = FaultNeeds::Power, .event = "drive_trip", .severity = "critical",                     \
    .docs = "the drives off the UPS trip (scheduled at compile, drive_ride_through into a sag "    \
            "below drive_trip_voltage)")                                                           \
  X(DriveRestart, .key = "", .target = FaultTarget::Facility, .domain = FaultDomain::Power,        \
    .needs = FaultNeeds::Power, .event = "drive_restart", .severity = "info",                      \
    .docs = "the tripped drives restart (scheduled at compile, drive_restart_delay after the "     \
            "sag)")                                                                                \
  X(RackRestart, .key = "", .target = FaultTarget::Facility, .domain = FaultDomain::Power,         \
    .needs = FaultNeeds::Power, .event = "rack_power_restored", .severity = "info",                \
    .docs = "the racks a disturbance dropped are back (scheduled at compile, rack_restart_time "   \
            "after the sag)")
// clang-format on

// a fault or operating event (docs/scenario-format.md "Faults"): one per row of DCTWIN_FAULTS
enum class FaultKind {
#define DCTWIN_FAULT_ENUM(Id, ...) Id,
  DCTWIN_FAULTS(DCTWIN_FAULT_ENUM)
#undef DCTWIN_FAULT_ENUM
};

struct FaultInfo {
  FaultKind id;
  const char* key = "";  // the scenario's event key; "" for none (GeneratorOnline)
  FaultTarget target = FaultTarget::Facility;
  FaultDomain domain = FaultDomain::Cdu;
  FaultNeeds needs = FaultNeeds::Nothing;
  FaultRange value = {};
  const char* event = "";     // the event it logs (/events kind)
  const char* severity = "";  // info, warning or critical
  FaultForm form = {};
  const char* docs = "";
};

inline constexpr FaultInfo kFaultTable[] = {
#define DCTWIN_FAULT_INFO(Id, ...) FaultInfo{.id = FaultKind::Id, __VA_ARGS__},
    DCTWIN_FAULTS(DCTWIN_FAULT_INFO)
#undef DCTWIN_FAULT_INFO
};
inline constexpr int kFaultKinds = int(sizeof(kFaultTable) / sizeof(kFaultTable[0]));

inline constexpr const FaultInfo& faultInfo(FaultKind k) {
  return kFaultTable[int(k)];
}
// the row of a scenario event kind ("pump_failure", "setpoint"); nullptr for none
inline const FaultInfo* faultByKey(std::string_view key) {
  if (key.empty()) return nullptr;
  for (const FaultInfo& f : kFaultTable)
    if (key == f.key) return &f;
  return nullptr;
}

// as the docs' fault table shows them
inline constexpr const char* faultTargetName(FaultTarget t) {
  switch (t) {
    case FaultTarget::Facility:
      return "facility";
    case FaultTarget::Cdu:
      return "cdu";
    case FaultTarget::Rack:
      return "rack";
    case FaultTarget::Job:
      return "job";
    case FaultTarget::RackOrCdu:
      return "rack or cdu";
    case FaultTarget::RackOrSwitchRack:
      return "rack or switch_rack";
  }
  return "";
}
inline constexpr const char* faultDomainName(FaultDomain d) {
  switch (d) {
    case FaultDomain::Cdu:
      return "cdu";
    case FaultDomain::Leak:
      return "leak";
    case FaultDomain::Power:
      return "power";
    case FaultDomain::Plant:
      return "plant";
    case FaultDomain::Fabric:
      return "fabric";
    case FaultDomain::Rack:
      return "rack";
  }
  return "";
}

}  // namespace dctwin
