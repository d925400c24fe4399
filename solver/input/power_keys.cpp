// power_keys.cpp: the key table of a facility's power chain: busways, the site battery, the
// ride-through tolerances and the power section itself (docs/facility-format.md "power",
// docs/models/power_chain.md, docs/models/ride_through.md)
#include "solver/input/keys.h"

namespace dctwin::keys {

namespace {

const Range kLength{0, 1e5, true, true, "> 0 m and < 100 km"};
const Range kPhaseDuration{0, 3600, false, false, ">= 0 s and <= 1 h"};

const Section kBusway{
    "facility.power.busways",
    "a busway feeding racks",
    {name("name").req(), name("model").req().docs("a busway of data/catalog/electrical"),
     quantity("length", Dim::Length, kLength).req(),
     name("breaker").docs("its breaker, data/catalog/electrical"),
     list("racks", nullptr, "racks", 1)
         .orWords({"all"})
         .req()
         .docs("rack names, or all racks not yet on a busway")}};

// a battery at the point of interconnection (docs/models/grid.md "Mitigations")
const Section kSiteBattery{
    "facility.power.site_battery",
    "a site battery at the point of interconnection: the meter follows a moving average of the "
    "site's demand, the battery gives or takes the rest within its power and energy "
    "(docs/models/grid.md \"Mitigations\")",
    {quantity("capacity", Dim::Energy, {0, 1e15, true, false, "> 0 J"}).req(),
     quantity("max_power", Dim::Power, {0, 1e10, true, false, "> 0 W"})
         .req()
         .docs("charge and discharge limit at the site's bus"),
     quantity("time_constant", Dim::Time, kPhaseDuration)
         .req()
         .docs("the meter follows a moving average of the site's demand over this"),
     quantity("recovery_time", Dim::Time, kPhaseDuration)
         .docs("state of charge pulled back to half with this time constant; none: not pulled"),
     quantity("efficiency", Dim::None, {0, 1, true, true, "> 0 and <= 1"})
         .dflt("0.82")
         .docs("round-trip efficiency (the US utility-scale battery fleet's 2019 mean [K137])")}};

// what the equipment tolerates of a grid disturbance (docs/models/ride_through.md)
const Section kRideThrough{
    "facility.power.ride_through",
    "what the equipment tolerates of a scenario's voltage_sag or frequency_excursion "
    "(docs/models/ride_through.md)",
    {quantity("psu_holdup", Dim::Time, {0, 1, false, false, "0 ... 1 s"})
         .dflt("20 ms")
         .docs("the power shelves' PSUs carry their load this long with no input (the ITIC "
               "curve's 0 V for 20 ms [K143]; an ORv3 shelf PSU at full load [K144])"),
     quantity("psu_min_voltage", Dim::None, {0, 1, false, false, "0 ... 1 (of nominal)"})
         .dflt("0.7")
         .docs("the PSUs run on at or above this share of nominal voltage (ITIC's 70 % [K143])"),
     quantity("ups_min_voltage", Dim::None, {0, 1, false, false, "0 ... 1 (of nominal)"})
         .dflt("0.7")
         .docs("the UPS's input window, low end: below it the UPS transfers to battery (a "
               "double-conversion UPS's 161 V at 230 V [K146])"),
     quantity("ups_frequency_tolerance", Dim::Frequency, {0, 20, true, false, "> 0 ... 20 Hz"})
         .dflt("3 Hz")
         .docs("the UPS's input window, +/- about nominal [K146]"),
     quantity("ups_retransfer_delay", Dim::Time, {0, 86400, false, false, "0 ... 1 d"})
         .dflt("10 s")
         .docs("the UPS returns to the utility once its input has been back this long (a)"),
     quantity("drive_trip_voltage", Dim::None, {0, 1, false, false, "0 ... 1 (of nominal)"})
         .dflt("0.6")
         .docs("the drives of pumps, fans and chillers off the UPS trip on undervoltage below "
               "this share of nominal [K147]"),
     quantity("drive_ride_through", Dim::Time, {0, 60, false, false, "0 ... 60 s"})
         .dflt("50 ms")
         .docs("they trip after this long below it (a)"),
     quantity("drive_restart_delay", Dim::Time, {0, 3600, false, false, "0 ... 1 h"})
         .dflt("4 s")
         .docs("a tripped drive restarts this long after the voltage is back [K149]"),
     quantity("rack_restart_time", Dim::Time, {0, 86400, false, false, "0 ... 1 d"})
         .dflt("10 min")
         .docs("a rack that lost power in a disturbance is back (servers booted) this long after "
               "the voltage is back (a)")}};

}  // namespace

const Section& powerSection() {
  // (built on first use, as plantSection: the facility table takes its address at start-up)
  static const Section s{
      "facility.power",
      "the power chain from the utility to the racks (docs/models/power_chain.md); every rack "
      "hangs on exactly one busway",
      {quantity("line_voltage_V", Dim::None, {100, 50000, false, false, "100 ... 50000 V"})
           .dflt("415")
           .docs("line to line, in V"),
       quantity("power_factor", Dim::None, {0.5, 1, false, false, "0.5 ... 1"}).dflt("0.95"),
       name("transformer").docs("data/catalog/electrical"),
       integer("transformer_count", 1, 100000)
           .dflt("1")
           .docs("identical transformers in parallel, each carrying 1/N of the load"),
       name("ups").docs("data/catalog/electrical"),
       integer("ups_count", 1, 100000).dflt("1").docs("identical UPS modules in parallel"),
       name("shelf").req().docs("rack power shelves, data/catalog/electrical"),
       name("shelf_breaker").docs("breaker of each shelf's feed"),
       list("busways", &kBusway, "busways", 1).req(),
       quantity("generator_start_delay", Dim::Time, {0, 3600, false, false, "0 ... 1 h"})
           .dflt("0 s (no generator)")
           .docs("a standby generator carries the load this long after a utility loss (start and "
                 "transfer; NFPA 110 Type 10: 10 s [K111])"),
       boolean("cdu_pumps_on_ups")
           .dflt("true")
           .docs("the CDU pumps are fed from the UPS; false: they stop while utility and "
                 "generator are off"),
       boolean("plant_on_ups")
           .dflt("true")
           .docs("the facility-water plant's pumps are fed from the UPS; false: no facility-water "
                 "flow while utility and generator are off"),
       map("site_battery", kSiteBattery), map("ride_through", kRideThrough)}};
  return s;
}

}  // namespace dctwin::keys
