// scenario_keys.cpp: the key tables of scenario files (docs/scenario-format.md shows them,
// generated between its keys markers)
#include "solver/input/keys.h"

namespace dctwin::keys {

Range faultRange(FaultKind k) {
  const FaultRange& v = faultInfo(k).value;
  return Range{v.lo, v.hi, v.lo_open, v.hi_open, v.text};
}

Key faultKey(FaultKind k) {
  const FaultInfo& f = faultInfo(k);
  const FaultRange& v = f.value;
  Key key = v.type == FaultValue::Integer    ? integer(f.key, (long long)v.lo, (long long)v.hi)
            : v.type == FaultValue::Quantity ? quantity(v.key, v.dim, faultRange(k))
            : v.type == FaultValue::Flag     ? boolean(f.key)
                                             : any(f.key);
  return key.docs(f.docs);
}

std::string faultTableMarkdown() {
  std::string out =
      "| key | target | value | event logged | severity | engine domain | needs | what it does "
      "|\n|---|---|---|---|---|---|---|---|\n";
  for (const FaultInfo& f : kFaultTable) {
    const FaultRange& v = f.value;
    std::string value;
    switch (v.type) {
      case FaultValue::None:
        value = "not in scenario files";
        break;
      case FaultValue::Flag:
        value = "`true`";
        break;
      case FaultValue::Integer:
        value = std::string("a count, ") + std::string(v.text);
        break;
      case FaultValue::Quantity:
      case FaultValue::Special:
        value = v.text;
        break;
      case FaultValue::Choice:
        value = "`lost` or `restored`";
        break;
      case FaultValue::Section:
        value = std::string("a section; `") + std::string(v.key) + "`: " + v.text;
        break;
    }
    const std::string key = *f.key ? std::string("`") + std::string(f.key) + "`" : "(compiled)";
    const char* needs = f.needs == FaultNeeds::Power   ? "power section"
                        : f.needs == FaultNeeds::Plant ? "plant section"
                                                       : "";
    out += "| " + key + " | " + faultTargetName(f.target) + " | " + value + " | `" + f.event +
           "` | " + f.severity + " | " + faultDomainName(f.domain) + " | " + needs + " | " +
           f.docs + " |\n";
  }
  return out;
}

namespace {

const Range kFraction{0, 1, false, false, "0 ... 1"};
const Range kHour{0, 3600, false, false, "0 ... 1 h"};

const Section kSolver{"scenario.solver",
                      "integrator settings",
                      {quantity("rtol", Dim::None, {1e-10, 1e-2, false, false, "1e-10 ... 1e-2"})
                           .dflt("1e-6")
                           .docs("relative tolerance")}};

const Section kDetection{
    "scenario.detection",
    "detection policies (docs/models/leak.md); every key optional",
    {quantity("poll_interval", Dim::Time, {0.05, 60, false, false, "0.05 s ... 60 s"})
         .dflt("1 s")
         .docs("detectors poll this often when the scenario has faults [K86]"),
     quantity("pump_switchover", Dim::Time, kHour)
         .dflt("5 s")
         .docs("failed duty pump -> standby running (a)"),
     quantity("pump_coast_down", Dim::Time, {0, 600, false, false, "0 ... 10 min"})
         .dflt("2 s")
         .docs("the last running pumps that stop coast down with this time constant (rotor "
               "inertia); 0: they stop at once (a)"),
     quantity("low_flow_fraction", Dim::None, kFraction)
         .dflt("0.9")
         .docs("CDU flow below this fraction of its flow set point (its racks' design flow under "
               "dp control) ... [K58]"),
     quantity("low_flow_delay", Dim::Time, kHour)
         .dflt("100 s")
         .docs("... for this long: low-flow alarm [K58]"),
     quantity("continuous_load_ratio", Dim::None, {0.1, 2, false, false, "0.1 ... 2"})
         .dflt("0.8")
         .docs("busway current above this share of its rating ... (NEC 80 % rule)"),
     quantity("continuous_load_time", Dim::Time, {0, 30 * 86400.0, false, false, "0 ... 30 d"})
         .dflt("3 h")
         .docs("... for this long: continuous-load alarm"),
     quantity("leak_sensor_volume", Dim::Volume, {0, 0.1, false, false, "0 ... 100 L"})
         .dflt("20 mL")
         .docs("coolant on a leak sensor that trips it (a)"),
     quantity("leak_sensor_transit", Dim::Time, kHour)
         .dflt("0 s")
         .docs("time the leaking liquid needs to reach the sensor (its placement) (a)"),
     quantity("leak_sensor_fraction", Dim::None, {0, 1, true, false, "0 < fraction <= 1"})
         .dflt("1")
         .docs("share of the leaking liquid that reaches the sensor (a)"),
     boolean("rack_liquid_isolation")
         .dflt("true")
         .docs("a detected rack leak closes the rack's isolation valves [K88]"),
     boolean("rack_electrical_isolation")
         .dflt("true")
         .docs("... and powers the rack off [K86, K88]"),
     quantity("isolation_valve_stroke", Dim::Time, {0.1, 600, false, false, "0.1 s ... 10 min"})
         .dflt("30 s")
         .docs("isolation valve closing time (a)"),
     quantity("low_level_fraction", Dim::None, kFraction)
         .dflt("0.1")
         .docs("expansion tank below this liquid fraction: low-level alarm (a)"),
     boolean("low_level_pump_stop")
         .dflt("true")
         .docs("... and the level switch stops the pumps [K58, K61]"),
     choice("low_level_release", {"auto", "operator"})
         .dflt("auto")
         .docs("auto: the pumps restart once the tank is back 5 points above low_level_fraction "
               "(make-up); operator: they stay blocked until an operator clears the alarm "
               "[K61]"),
     quantity("pressure_drop", Dim::Pressure, {0, 1e6, false, false, "0 ... 10 bar"})
         .dflt("30 kPa")
         .docs("tank pressure below its fill pressure by this: pressure decay (a)"),
     quantity("imbalance_fraction", Dim::None, kFraction)
         .dflt("0.01")
         .docs("leak flow above this fraction of the loop flow ... (a)"),
     quantity("imbalance_delay", Dim::Time, kHour)
         .dflt("10 s")
         .docs("... for this long: flow-imbalance alarm (a)")}};

}  // namespace

// protection layers (docs/models/protection.md): thresholds and delays a site sets, in the
// facility file's `protection` section and, overriding it key by key, the scenario's. The ranges
// are local: the facility's table is built from this one during static initialisation
std::vector<Key> protectionKeys() {
  const Range kOffset{0, 50, false, false, "0 ... 50 K"};
  const Range kFraction{0, 1, false, false, "0 ... 1"};
  const Range kHour{0, 3600, false, false, "0 ... 1 h"};
  return {
      boolean("enabled").dflt("true").docs("false: no protection layer acts (alarms only above)"),
      quantity("startup_inhibit", Dim::Time, kHour)
          .dflt("20 min")
          .docs("temperature warnings ignored after start [K59, K61]"),
      quantity("supply_high_offset", Dim::TemperatureDiff, kOffset)
          .dflt("2 K")
          .docs("CDU supply above its set point by this ... [K61]"),
      quantity("supply_low_offset", Dim::TemperatureDiff, kOffset)
          .dflt("2 K")
          .docs("... or below it by this ... [K61]"),
      quantity("supply_alarm_delay", Dim::Time, kHour)
          .dflt("2 min")
          .docs("... for this long: supply high / low warning [K61]"),
      quantity("return_high_offset", Dim::TemperatureDiff, kOffset)
          .dflt("15 K")
          .docs("CDU return above the supply set point by this ... (a)"),
      quantity("return_alarm_delay", Dim::Time, kHour)
          .dflt("2 min")
          .docs("... for this long: return high warning (a)"),
      quantity("epo_flow_fraction", Dim::None, kFraction)
          .dflt("0.1")
          .docs("CDU flow below this share of its set point ... (a)"),
      quantity("epo_delay", Dim::Time, kHour)
          .dflt("10 s")
          .docs("... for this long: emergency power-off of the loop's racks (a)"),
      quantity("inlet_cap_delay", Dim::Time, kHour)
          .dflt("30 s")
          .docs("rack inlet above supply_temperature_max this long: GPU power cap (a)"),
      quantity("inlet_cap_fraction", Dim::None, {0.05, 1, false, false, "0.05 ... 1"})
          .dflt("0.5")
          .docs("the cap, as a share of each GPU's power limit (a)"),
      quantity("inlet_cap_hold", Dim::Time, kHour)
          .dflt("5 min")
          .docs("inlet still above its maximum this long after the cap: rack off (a)"),
      quantity("inlet_shutdown_margin", Dim::TemperatureDiff, kOffset)
          .dflt("5 K")
          .docs("rack inlet above its maximum by this ... (a)"),
      quantity("inlet_shutdown_delay", Dim::Time, kHour)
          .dflt("10 s")
          .docs("... for this long: the rack is powered off (a)"),
      quantity("coolant_limit_margin", Dim::TemperatureDiff, kOffset)
          .dflt("5 K")
          .docs("rack coolant within this of the fluid's use range or of boiling at the loop "
                "pressure: rack off at once (a)"),
      quantity("fill_tank_volume", Dim::Volume, {0, 10, false, false, "0 ... 10 m3"})
          .dflt("0 L")
          .docs("make-up (auto-fill) tank of each CDU; 0: no auto-fill (a)"),
      quantity("fill_pump_flow", Dim::VolumeFlow, {0, 0.01, false, false, "0 ... 600 L/min"})
          .dflt("0 L/min")
          .docs("the fill pump's flow into the expansion tank (a)"),
      quantity("fill_start_drop", Dim::Pressure, {0, 1e6, false, false, "0 ... 10 bar"})
          .dflt("20 kPa")
          .docs("tank (pump suction) pressure below its fill pressure by this ... [K61]"),
      quantity("fill_start_delay", Dim::Time, kHour)
          .dflt("10 s")
          .docs("... for this long: the fill pump starts [K61]"),
      quantity("fill_stop_drop", Dim::Pressure, {0, 1e6, false, false, "0 ... 10 bar"})
          .dflt("0 kPa")
          .docs("it stops when the pressure is back within this of the fill pressure [K61]"),
      quantity("fill_timeout", Dim::Time, kHour)
          .dflt("3 min")
          .docs("a fill pump running this long without getting there stops for good [K61]"),
      quantity("relief_capacity", Dim::None, {0, 10, false, false, "0 ... 10"})
          .dflt("1")
          .docs("the relief valve's flow at 10 % over its set point (limits."
                "secondary_pressure_max), as a share of the CDU's design flow [K134] (a); "
                "0: alarm only")};
}

namespace {

const Section kProtection{"scenario.protection",
                          "protection layers of the CDUs and racks (docs/models/protection.md); "
                          "every key optional, every action latched; overrides the facility "
                          "file's `protection` key by key",
                          protectionKeys()};

const Section kLeak{
    "scenario.events.leak",
    "an orifice that opens (docs/models/leak.md); needs diameter or area",
    {choice("location", {"rack", "manifold", "tray", "cdu", "supply_header", "return_header"})
         .expecting("rack (or manifold, tray), cdu, supply_header or return_header")
         .dflt("rack with `rack`, else cdu")
         .docs("rack (or its aliases manifold, tray; with rack), cdu, supply_header, "
               "return_header (with cdu)"),
     quantity("diameter", Dim::Length, faultRange(FaultKind::Leak)),
     quantity("area", Dim::Area, {0, 0.03, true, false, "0 < area <= 0.03 m2"}),
     quantity("diameter_final", Dim::Length, faultRange(FaultKind::Leak))
         .docs("grows to this over growth_time"),
     quantity("area_final", Dim::Area, {0, 0.03, true, false, "0 < area <= 0.03 m2"})
         .docs("grows to this over growth_time"),
     quantity("growth_time", Dim::Time, {0, 1e300, false, false, "growth_time >= 0"}).dflt("0 s"),
     quantity("discharge_coefficient", Dim::None, {0, 1, true, false, "0 < C_d <= 1"})
         .dflt("0.62")
         .docs("sharp-edged orifice")}};

const Section kClogging{
    "scenario.events.filter_clogging",
    "the CDU strainer's pressure drop at its rated flow moves linearly from its present value "
    "(0 without cdus[].filter) to dp (docs/models/filter.md)",
    {quantity("dp", Dim::Pressure, faultRange(FaultKind::FilterClogging))
         .req()
         .docs("at the filter's rated flow (the racks' design flow unless filter.rated_flow)"),
     quantity("growth_time", Dim::Time, {0, 1e300, false, false, "growth_time >= 0"}).dflt("0 s")}};

const Section kSensor{
    "scenario.events.sensor_fault",
    "a sensor reads wrong (offset) or sticks at its reading (stuck: true); the controllers act on "
    "the reading",
    {choice("sensor", {"supply_temperature", "flow"}).req(),
     any("offset")
         .typeShown("temperature difference, or number")
         .docs("supply_temperature: a temperature difference (K); flow: a fraction, "
               "-1 < offset < 10"),
     boolean("stuck").dflt("false")}};

const Section kFabricEvent{
    "scenario.events.fabric",
    "a fabric fault of the event's rack (docs/models/fabric.md)",
    {choice("fault", {"link_degraded", "link_down", "link_restored", "nvlink_tray_lost",
                      "nvlink_tray_restored", "link_flapping", "nic_down", "nic_restored",
                      "switch_failed", "switch_restored"})
         .req()
         .docs("a GPU's scale-out link or NIC (needs the event's rack), one of the rack's NVLink "
               "switch trays, or a scale-out switch of a switch rack (switch_rack, switch)"),
     integer("gpu", 0, 100000).docs("link faults: the GPU's slot in the rack (0-based)"),
     integer("nic", 0, 63).dflt("0").docs("link faults: which of the GPU's NICs"),
     integer("tray", 0, 1023).dflt("0").docs("tray faults: which NVLink switch tray (0-based)"),
     quantity("fraction", Dim::None, faultRange(FaultKind::Fabric))
         .docs("link_degraded: the link's bandwidth fraction"),
     // flapping links and switches (docs/models/switch_rack.md)
     quantity("period", Dim::Time, {0, 1e9, true, false, "> 0 s"})
         .docs("link_flapping: time from one flap to the next"),
     quantity("down_time", Dim::Time, {0, 1e9, true, false, "> 0 s"})
         .docs("link_flapping: how long the link is down at each flap"),
     quantity("stall", Dim::Time, {0, 1e9, false, false, ">= 0 s"})
         .dflt("0 s")
         .docs("link_flapping: retransmit / reconnect stall after each flap"),
     name("switch_rack").docs("switch faults: the switch rack (facility switch_racks)"),
     integer("switch", 0, 100000).dflt("0").docs("switch faults: which switch of it (0-based)")}};

const Section kPlateDegradation{
    "scenario.events.plate_degradation",
    "the cold plates of one part of the event's rack degrade (docs/models/rack_parts.md)",
    {text("part").req().docs("the rack part (its catalog name), e.g. grace_cpu"),
     quantity("factor", Dim::None, faultRange(FaultKind::PlateDegradation))
         .req()
         .docs("plate_resistance times this from time on (TIM pump-out, a blocked plate)")}};

// grid disturbances (docs/models/ride_through.md)
std::vector<Key> disturbanceKeys(Key value) {
  return {std::move(value),
          quantity("duration", Dim::Time, {0, 86400, true, false, "> 0 s and <= 1 d"})
              .req()
              .docs("how long each disturbance lasts"),
          integer("repeat", 1, 100)
              .dflt("1")
              .docs("disturbances in the sequence, each `interval` after the one before (a "
                    "line's reclosing onto a standing fault: six within 82 s in the NERC "
                    "2025 review [K140, K142])"),
          quantity("interval", Dim::Time, {0, 86400, true, false, "> 0 s and <= 1 d"})
              .docs("start to start, longer than duration (needs repeat > 1)")};
}

const Section kVoltageSag{
    "scenario.events.voltage_sag",
    "the site's voltage drops to `residual` of nominal (all phases) for `duration`, as seen at "
    "the UPS input, the power shelves and the drives (docs/models/ride_through.md)",
    disturbanceKeys(quantity("residual", Dim::None, faultRange(FaultKind::VoltageSag))
                        .req()
                        .docs("the voltage during the sag, of nominal (0: an interruption)"))};

const Section kFrequencyExcursion{
    "scenario.events.frequency_excursion",
    "the site's frequency is off nominal by `deviation` for `duration` "
    "(docs/models/ride_through.md)",
    disturbanceKeys(quantity("deviation", Dim::Frequency, faultRange(FaultKind::FrequencyExcursion))
                        .req()
                        .docs("frequency minus nominal (negative: under-frequency)"))};

const Section kEvent{
    "scenario.events",
    "one event: a time and exactly one action",
    {quantity("time", Dim::Time, {0, 1e300, false, false, "time >= 0"})
         .req()
         .docs("when it happens"),
     name("rack").docs("the rack; omitted: every rack with a heat_load profile"),
     name("cdu").docs("the CDU of a CDU fault"),
     name("job").docs("the job of power_cap, job_start, job_stop"),
     quantity("heat_load", Dim::Power, {-1e300, 1e300, false, false, ""})
         .docs("the rack's power from time on (a step)"),
     quantity("facility_water_temperature", Dim::Temperature, {-1e300, 1e300, false, false, ""})
         .docs("facility-water supply from time on"),
     // faults: type, range and docs from the fault table (solver/common/fault_table.h)
     faultKey(FaultKind::PumpFailure), faultKey(FaultKind::CduFailure),
     faultKey(FaultKind::ValveStuck).typeShown("number or `current`"),
     faultKey(FaultKind::FacilityWaterFlow),
     choice("utility", {"lost", "restored"})
         .expecting("'lost' or 'restored'")
         .docs(faultInfo(FaultKind::Utility).docs),
     faultKey(FaultKind::GeneratorFailure), faultKey(FaultKind::ChillerTrip),
     faultKey(FaultKind::HeatRejectionFailure), faultKey(FaultKind::MakeupWaterLoss),
     faultKey(FaultKind::PlantPumpFailure), faultKey(FaultKind::PsuFailure),
     map("leak", kLeak).docs(faultInfo(FaultKind::Leak).docs),
     map("filter_clogging", kClogging).docs(faultInfo(FaultKind::FilterClogging).docs),
     map("sensor_fault", kSensor).docs(faultInfo(FaultKind::SensorFault).docs),
     faultKey(FaultKind::PowerCap),
     boolean("job_start").docs("true: the training job starts (needs job)"),
     boolean("job_stop").docs("true: the training job stops (needs job)"),
     map("fabric", kFabricEvent).docs(faultInfo(FaultKind::Fabric).docs),
     map("plate_degradation", kPlateDegradation).docs(faultInfo(FaultKind::PlateDegradation).docs),
     map("voltage_sag", kVoltageSag).docs(faultInfo(FaultKind::VoltageSag).docs),
     map("frequency_excursion", kFrequencyExcursion)
         .docs(faultInfo(FaultKind::FrequencyExcursion).docs),
     // set-point changes (docs/models/controller.md)
     quantity("supply_temperature_setpoint", Dim::Temperature, faultRange(FaultKind::Setpoint))
         .docs("the CDU's supply-temperature set point from time on (needs cdu)"),
     quantity("dp_setpoint", Dim::Pressure, {0, 1e7, true, true, "> 0 and < 100 bar"})
         .docs("the CDU's rack-bank dp set point from time on (needs cdu; pump_mode dp)"),
     quantity("flow_setpoint", Dim::VolumeFlow, {0, 100, true, true, "> 0 and < 100 m3/s"})
         .docs("the CDU's flow set point from time on (needs cdu; pump_mode flow)")}};

// the multi-rate annual mode (docs/models/annual.md)
const Section kAnnual{
    "scenario.annual",
    "the multi-rate annual mode's windows (with mode: annual; docs/models/annual.md)",
    {quantity("window", Dim::Time, {60, 86400, false, false, "1 min ... 1 d"})
         .dflt("10 min")
         .docs("length of each full-resolution window (GPU layer, coolant, power chain): its "
               "means drive the slow segment after it; cover several iterations of the jobs"),
     quantity("settle", Dim::Time, {0, 86400, false, false, "0 ... 1 d"})
         .dflt("30 min")
         .docs("at full resolution first after the start of the run and each job start or stop "
               "(the transients settle before a window's means are taken)"),
     quantity("period", Dim::Time, {600, 366 * 86400.0, false, false, "10 min ... 366 d"})
         .dflt("6 h")
         .docs("a new window at least this often (from the start of the last one)"),
     quantity("slow_step", Dim::Time, {1, 3600, false, false, "1 s ... 1 h"})
         .dflt("15 min")
         .docs("largest coolant step between windows, and the plant's step there (at least "
               "plant.step)"),
     quantity("supply_change", Dim::TemperatureDiff, {0.01, 50, false, false, "0.01 K ... 50 K"})
         .dflt("0.5 K")
         .docs("a new window when the facility-water supply moved this much since the last one"),
     quantity("wet_bulb_change", Dim::TemperatureDiff,
              {0.01, 100, false, false, "0.01 K ... 100 K"})
         .dflt("5 K")
         .docs("a new window when the outdoor wet bulb moved this much since the last one")}};

// failures as a seeded process (docs/models/failures.md): the classes' mean times between failures
// per GPU, from the Llama 3 fleet's interruption table [F5]
const Section kFailureMtbf{
    "scenario.failures.mtbf",
    "mean time between failures per GPU, by class (docs/models/failures.md)",
    {quantity("gpu", Dim::Time, {3600, 1e13, false, false, "1 h ... 3e5 yr"})
         .dflt("4,514 d [F5]")
         .docs("the GPU itself (faulty GPU, SRAM, system processor, silent data corruption, "
               "thermal interface and sensor): 196 of Llama 3's 419 interruptions"),
     quantity("hbm", Dim::Time, {3600, 1e13, false, false, "1 h ... 3e5 yr"})
         .dflt("12,288 d [F5]")
         .docs("the GPU's HBM: 72 of 419"),
     quantity("network", Dim::Time, {3600, 1e13, false, false, "1 h ... 3e5 yr"})
         .dflt("21,065 d [F5]")
         .docs("the GPU's scale-out path (switch, cable, NIC): 42 of 419; the GPU is lost to its "
               "job until repaired"),
     quantity("host", Dim::Time, {3600, 1e13, false, false, "1 h ... 3e5 yr"})
         .dflt("20,575 d [F5]")
         .docs("the host (maintenance, SSD, chassis, IO board, CPU, memory): 43 of 419, per GPU; "
               "a failure takes the host's gpus_per_host GPUs"),
     quantity("software", Dim::Time, {3600, 1e13, false, false, "1 h ... 3e5 yr"})
         .dflt("14,044 d [F5]")
         .docs("the job's software (bugs, NCCL watchdog, dependencies): 63 of 419, per GPU of "
               "the job; interrupts the job without taking a GPU")}};

const Section kFailures{
    "scenario.failures",
    "failures as a seeded process: components fail at published rates, are repaired, and "
    "training jobs restart from their last checkpoint (docs/models/failures.md)",
    {quantity("repair_time", Dim::Time, {60, 366 * 86400.0, false, false, "1 min ... 366 d"})
         .req()
         .docs("a taken GPU or host is back after this (required: no published figure; the "
               "site's own)"),
     integer("seed", 0, 9007199254740992LL)
         .dflt("1")
         .docs("same seed, same failures (times, classes, GPUs), whatever the thread count"),
     quantity("scale", Dim::None, {0, 1000, false, false, "0 ... 1000"})
         .dflt("1")
         .docs("every class's rate times this (a what-if: 1 = the published fleet's)"),
     integer("gpus_per_host", 1, 72)
         .dflt("4")
         .docs("GPUs one host failure takes (GB200/GB300 NVL72 compute tray: 4 [K26])"),
     map("mtbf", kFailureMtbf)}};

// straggler operations (docs/models/failures.md "Stragglers"): site policies, no defaults but
// act_at's (sourced)
const Section kStragglers{
    "scenario.stragglers",
    "straggler detection and its policy (docs/models/failures.md, \"Stragglers\")",
    {choice("policy", {"detect", "drain", "exclude", "rebalance"})
         .req()
         .docs("detect: log each straggler; drain: also take it out of its job for good, its "
               "rank moving to a hot spare at a restart (while a spare is left); exclude: take "
               "its data-parallel replica out at such a restart, the job going on with fewer "
               "replicas and no spare (the restart: act_at); rebalance: raise its power cap and "
               "lower the job's other GPUs' caps by as much in all, without a restart"),
     choice("act_at", {"checkpoint_now", "checkpoint", "detection"})
         .dflt("checkpoint_now [F103]")
         .docs("when drain and exclude act: checkpoint_now: the job writes a checkpoint at its "
               "next iteration end, then restarts without the straggler (cold migration: no "
               "work lost, the checkpoint and the restart paid); checkpoint: at the job's next "
               "scheduled checkpoint (the straggler kept until then); detection: at once, a "
               "restart from the last checkpoint that loses the work since (a fail-slow treated "
               "as a fail-stop [WL22])"),
     quantity("repair_time", Dim::Time, {60, 366 * 86400.0, false, false, "1 min ... 366 d"})
         .dflt("failures.repair_time; without failures: never")
         .docs("policy exclude: the straggler's GPU is replaced after this, and its replica "
               "rejoins the job at the next action time (act_at), restoring the global batch "
               "(the site's own setting, as failures.repair_time)"),
     quantity("threshold", Dim::None, {0, 1, true, true, "between 0 and 1, exclusive"})
         .req()
         .docs("a GPU whose mean clock over the window is below (1 - threshold) x its job's "
               "median is a straggler (the site's own setting)"),
     quantity("window", Dim::Time, {10, 86400, false, false, "10 s ... 1 d"})
         .req()
         .docs("detection window: the clocks' means over it, compared at its end (the "
               "detection delay)")}};

const Section kScenario{
    "scenario",
    "a dctwin scenario file (docs/scenario-format.md)",
    {integer("dctwin_scenario", 1, 1).docs("format version (optional)"), text("name"),
     text("description"),
     quantity("duration", Dim::Time, {0, 366 * 86400.0, true, false, "0 < duration <= 366 d"})
         .dflt("1 h")
         .docs("how long to run; --duration overrides it"),
     quantity("output_interval", Dim::Time,
              {0, 366 * 86400.0, true, false, "0 < output_interval <= duration"})
         .dflt("60 s")
         .docs("how often results are recorded"),
     map("solver", kSolver),
     integer("hot_spares", 0, 1000000)
         .dflt("the facility's")
         .docs("spare GPUs for every training job: a failed GPU's rank moves to one and the job "
               "restarts from its checkpoint at once (docs/models/checkpoint.md)"),
     quantity("initial_temperature", Dim::Temperature, {-1e300, 1e300, false, false, ""})
         .dflt("the facility-water supply at t = 0")
         .docs("every coolant node and cold plate at t = 0"),
     list("events", &kEvent, "events").docs("applied in time order"), map("detection", kDetection),
     map("protection", kProtection),
     choice("mode", {"full", "annual"})
         .dflt("full")
         .docs("full: every GPU step resolved; annual: the multi-rate annual mode "
               "(docs/models/annual.md); --annual sets it"),
     map("annual", kAnnual), map("failures", kFailures), map("stragglers", kStragglers)}};

}  // namespace

const Section& scenarioFile() {
  return kScenario;
}

}  // namespace dctwin::keys
