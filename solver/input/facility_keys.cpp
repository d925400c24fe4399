// facility_keys.cpp: the key tables of facility files and catalog entries
// (docs/facility-format.md shows them, generated between its keys markers)
//
// each section lists its keys in the order the docs show them; ranges are SI with the words of
// the error messages. Sections shared by the facility and the catalog (a CDU's body, a rack
// type's body) are one table each.
#include "solver/input/keys.h"

namespace dctwin::keys {

const Range kVolumeFlow{0, 100, true, true, "> 0 and < 100 m3/s"};
const Range kMassFlow{0, 1e5, true, true, "> 0 and < 100000 kg/s"};
const Range kSeriesTime{0, 1e9, false, false, ">= 0 s and <= 1e9 s"};
const Range kGpuPower{0, 1e5, true, true, "> 0 W and < 100 kW"};

namespace {

constexpr long long kMaxCount = 10000;

// ranges shared by several keys
const Range kTemperature{223.15, 473.15, false, false, "between -50 degC and 200 degC"};
const Range kTempDiff{0, 100, true, false, "> 0 K and <= 100 K"};
const Range kPower{0, 1e9, true, true, "> 0 W and < 1 GW"};
const Range kRackPower{0, 1e7, true, false, "> 0 W and <= 10 MW"};
const Range kHeatLoad{0, 1e7, false, false, ">= 0 W and <= 10 MW"};
const Range kPressure{0, 1e7, true, true, "> 0 and < 100 bar"};
const Range kPressureGauge{0, 1e7, false, true, ">= 0 and < 100 bar"};
const Range kLength{0, 1e5, true, true, "> 0 m and < 100 km"};
const Range kVolume{0, 1e4, true, true, "> 0 and < 10000 m3"};
const Range kJobTime{0, 366 * 86400.0, false, false, ">= 0 s and <= 366 d"};
const Range kPhaseDuration{0, 3600, false, false, ">= 0 s and <= 1 h"};
const Range kDuration{0, 86400, true, false, "> 0 s and <= 1 d"};
const Range kFraction{0, 1, false, false, "between 0 and 1"};
const Range kEfficiency{0, 1, true, false, "> 0 and <= 1"};
const Range kLawExponent{1, 3, false, false, "between 1 and 3"};
const Range kKv{0, 1e4, true, true, "> 0 and < 10000"};
const Range kGain{0, 100, true, false, "> 0 and <= 100"};
const Range kGpuPowerOrZero{0, 1e5, false, true, ">= 0 W and < 100 kW"};
const Range kClock{0, 1e11, true, true, "> 0 and < 100 GHz"};
const Range kBytes{0, 1e16, true, true, "> 0"};
const Range kGpuR{0, 10, true, false, "> 0 and <= 10 K/W"};
const Range kGpuC{0, 1e6, true, false, "> 0 and <= 1 MJ/K"};
const Range kV0{0, 1, false, false, "between 0 and 1"};

Key desc() {
  return text("description").forPeople().docs("free text, not read");
}

std::vector<Key> cat(std::vector<Key> a, std::vector<Key> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
Key sources() {
  return any("sources").typeShown("any").forPeople().docs(
      "citations for people (docs/catalog.md), not read");
}

//---------------------------------------------------------------------------------------------
// time series (the map form)

const Section kSeries{
    "series",
    "a time series as a map: one of steps, series or csv (docs/facility-format.md, Time series)",
    {any("steps")
         .typeShown("list of [time, value]")
         .docs("[[time, value], ...]: each value holds from its knot to the next"),
     any("series")
         .typeShown("list of [time, value]")
         .docs("[[time, value], ...]: interpolated linearly between knots"),
     text("csv").docs("a CSV file (header, then time in s, value in `unit`), relative to the file"),
     text("unit").docs("the unit of the CSV's value column (with `csv` only)")}};

//---------------------------------------------------------------------------------------------
// site and facility water

const Section kAirHandlers{
    "facility.site.room_air.air_handlers",
    "CRAH units or fan-wall modules with chilled-water coils that cool the room air, their fan "
    "speed on the room (return) air temperature; their fans and the chiller of their chilled water "
    "count in PUE (docs/models/air_handler.md)",
    {integer("count", 1, 100000).req().docs("identical units (or fan-wall fan modules)"),
     quantity("rated_airflow", Dim::VolumeFlow, {0, 1000, true, true, "> 0 and < 1000 m3/s"})
         .dflt("18600 m3/h")
         .docs("airflow of one unit at full speed (630 mm EC plug fan [K136])"),
     quantity("rated_fan_power", Dim::Power, {0, 1e6, false, true, ">= 0 W and < 1 MW"})
         .dflt("2.7 kW")
         .docs("fan input power of one unit at full speed [K136]"),
     quantity("coil_effectiveness", Dim::None, {0, 1, true, true, "> 0 and < 1"})
         .dflt("0.41")
         .docs("sensible coil effectiveness at the rated airflow ((d) [P1]: air 25 -> 18 degC on 8 "
               "degC water)"),
     quantity("chilled_water_temperature", Dim::Temperature, kTemperature)
         .dflt("8 degC")
         .docs("chilled-water supply to the coils [P1]"),
     quantity("room_temperature", Dim::Temperature, kTemperature)
         .dflt("25 degC")
         .docs("room (return) air set point of the fan speed [P1]"),
     quantity("min_speed", Dim::None, {0, 1, false, true, ">= 0 and < 1"})
         .dflt("0.2")
         .docs("lowest fan speed ratio [P1]"),
     perKelvin("k", kGain).dflt("0.1").docs("fan speed per kelvin of room air error [P1]"),
     quantity("Ti", Dim::Time, {0, 86400, true, false, "> 0 s and <= 1 d"})
         .dflt("240 s")
         .docs("integral time of the fan-speed controller [P1]"),
     quantity("chiller_cop", Dim::None, {0, 20, true, false, "> 0 and <= 20"})
         .dflt("5.96")
         .docs("rated COP of the chilled-water chiller (York YT curves [P6])"),
     quantity("chiller_capacity", Dim::Power, kPower)
         .dflt("the coils' duty at full speed and the set point")
         .docs("rated capacity of the chilled-water chiller")}};

const Section kRoomAir{
    "facility.site.room_air",
    "a mixed room-air node that takes the racks' air-side heat (docs/models/room_air.md); cooled "
    "by air_handlers, or (without them) by a fixed supply temperature and airflow outside PUE",
    {quantity("volume", Dim::Volume, {0, 1e7, true, true, "> 0 and < 10^7 m3"})
         .req()
         .docs("air volume of the hall (or the pod's share)"),
     quantity("supply_temperature", Dim::Temperature, kTemperature)
         .docs("fixed air-handler supply air (required without air_handlers, refused with them)"),
     quantity("airflow", Dim::VolumeFlow, {0, 1e5, true, true, "> 0 and < 100000 m3/s"})
         .docs("fixed air-handler flow (required without air_handlers, refused with them)"),
     map("air_handlers", kAirHandlers).docs("the air handlers (docs/models/air_handler.md)")}};

const Section kSite{"facility.site",
                    "where the facility stands",
                    {quantity("ambient_temperature", Dim::Temperature, kTemperature)
                         .req()
                         .shown("25 degC")
                         .docs("air around pipes and CDUs"),
                     map("room_air", kRoomAir).docs("optional room air")}};

const Section kWater{
    "facility.facility_water",
    "the facility water (primary side) at every CDU; exactly one of differential_pressure and flow",
    {name("fluid").dflt("water").docs("primary (facility-water) coolant, a catalog fluid"),
     series("supply_temperature", Dim::Temperature, kTemperature)
         .req()
         .docs("facility-water supply to every CDU; within the fluid's T_min ... T_max"),
     quantity("differential_pressure", Dim::Pressure, kPressure)
         .docs("available supply-to-return dp at each CDU (pressure mode)"),
     flow("flow").docs("flow to each CDU with its primary valve fully open (flow mode)")}};

//---------------------------------------------------------------------------------------------
// CDUs (facility entries and catalog/cdus)

// heat exchanger beyond the rated point (docs/models/heat_exchanger.md)
const Section kHexApproach{
    "cdu.heat_exchanger.approach_point",
    "a measured or published approach at a load and a pair of flows (sizing approach)",
    {quantity("approach", Dim::TemperatureDiff, kTempDiff)
         .req()
         .docs("T_sec,out - T_prim,in at this point"),
     quantity("load", Dim::Power, kPower).req(), flow("flow_secondary").req(),
     flow("flow_primary").req(),
     quantity("primary_supply_temperature", Dim::Temperature, kTemperature).req()}};

const Section kHexTable{
    "cdu.heat_exchanger.table",
    "a vendor table of UA over the secondary flow at the rated primary flow (sizing table)",
    {numbers("flow_L_min", {0, 1e6, true, false, "> 0 and <= 1e6 (L/min)"}, 2)
         .req()
         .docs("secondary flow, strictly increasing, >= 2 points"),
     numbers("ua_W_K", {0, 1e9, true, false, "> 0 and <= 1e9 (W/K)"}, 2)
         .req()
         .docs("UA at each flow, not falling with flow; as many as flow_L_min")}};

// strainer/filter in the secondary loop (docs/models/filter.md)
const Section kFilter{
    "cdu.filter",
    "strainer/filter in the secondary loop: dp = k m^2 through its rated point",
    {quantity("dp_clean", Dim::Pressure, kPressure).req().docs("clean, at rated_flow"),
     quantity("dp_clogged", Dim::Pressure, kPressure)
         .docs("clogged (the change-out dp), at rated_flow; above dp_clean; needed by "
               "initial_clogging > 0"),
     quantity("rated_flow", Dim::VolumeFlow, kVolumeFlow)
         .dflt("the racks' design flow")
         .docs("the flow dp_clean and dp_clogged are stated at"),
     quantity("initial_clogging", Dim::None, kFraction)
         .dflt("0")
         .docs("state at t = 0: 0 clean, 1 clogged (k between the two)"),
     quantity("alarm_dp", Dim::Pressure, kPressure)
         .dflt("dp_clogged; none without it")
         .docs("set point of the strainer's differential-pressure switch: a filter_dp_high "
               "alarm (latched) when the dp at the present flow reaches it; above dp_clean")}};

const Section kHex{
    "cdu.heat_exchanger",
    "plate heat exchanger, rated point",
    {quantity("rated_capacity", Dim::Power, kPower).req(),
     quantity("rated_approach", Dim::TemperatureDiff, kTempDiff)
         .req()
         .docs("T_sec,supply - T_prim,supply at the rated point"),
     quantity("rated_primary_supply_temperature", Dim::Temperature, kTemperature).req(),
     flow("rated_flow_secondary").req(), flow("rated_flow_primary").req(),
     quantity("dp_primary", Dim::Pressure, kPressure).req(),
     quantity("dp_secondary", Dim::Pressure, kPressure).req(),
     quantity("holdup_primary", Dim::Volume, kVolume).req(),
     quantity("holdup_secondary", Dim::Volume, kVolume).req(),
     quantity("flow_exponent", Dim::None, {0, 2, true, false, "> 0 and <= 2"}).dflt("0.8"),
     // beyond the rated point (docs/models/heat_exchanger.md)
     choice("sizing", {"rated", "ua", "approach", "table"})
         .dflt("rated")
         .docs("how UA is found: the rated point; ua; approach_point; table (the rated flows "
               "remain the flows UA scales from and the dp laws' rated point)"),
     quantity("ua", Dim::Conductance, {0, 1e9, true, true, "> 0 W/K and < 1 GW/K"})
         .docs("sizing ua: overall conductance at the rated flows"),
     map("approach_point", kHexApproach).docs("sizing approach"),
     map("table", kHexTable).docs("sizing table")},
    true};

const Section kCurve{
    "cdu.pumps.curve",
    "pump curve: head ratio over flow ratio, from shut-off (0) to at least the rated point (1)",
    {numbers("flow_ratio", {0, 10, false, false, "between 0 and 10"})
         .req()
         .docs("starts at 0, strictly increasing, reaches >= 1"),
     numbers("head_ratio", {0, 10, false, false, "between 0 and 10"})
         .req()
         .docs("strictly decreasing; as many as flow_ratio, >= 2")},
    true};

const Section kPumps{
    "cdu.pumps",
    "identical pumps in parallel",
    {integer("count", 1, kMaxCount).dflt("1"),
     integer("running", 1, kMaxCount).dflt("1").docs("at most count"),
     quantity("rated_flow", Dim::VolumeFlow, kVolumeFlow).req().docs("per pump"),
     quantity("rated_head", Dim::Pressure, kPressure).req().docs("per pump, total"),
     map("curve", kCurve), quantity("efficiency_hydraulic", Dim::None, kEfficiency).dflt("0.7"),
     quantity("efficiency_motor", Dim::None, kEfficiency).dflt("0.7"),
     quantity("rise_time", Dim::Time, {0, 86400, false, false, ">= 0 s and <= 1 d"}).dflt("30 s"),
     quantity("min_speed", Dim::None, {0, 1, false, true, ">= 0 and < 1"}).dflt("0.15"),
     // datasheet keys (docs/models/actuator.md)
     choice("actuator", {"lag", "rate"})
         .dflt("lag")
         .docs("drive: lag (tau = rise_time / 5) or rate (0 -> full speed in rise_time)"),
     quantity("filter_time", Dim::Time, {0, 3600, false, false, ">= 0 s and <= 1 h"})
         .dflt("0 s")
         .docs("rate: first-order filter on the speed (0: none)"),
     quantity("initial_speed", Dim::None, kFraction)
         .dflt("0.5")
         .docs("speed ratio at t = 0 (the former fixed start)"),
     choice("position", {"upstream", "downstream"})
         .dflt("upstream")
         .docs("of the heat exchanger: upstream (return -> pump -> HX; its heat passes the HX, "
               "the former layout) or downstream (HX -> pump; its heat enters the supply)"),
     boolean("heat_to_coolant")
         .dflt("true")
         .docs("the pumps' hydraulic losses heat the coolant; false leaves them out, as a "
               "reference model without pump heat does (Modelica Buildings movers' "
               "addPowerToMedium = false [K63])")},
    true};

const Section kValve{
    "cdu.primary_valve",
    "equal-percentage control valve on the facility-water side",
    {quantity("rangeability", Dim::None, {1, 1000, true, false, "> 1 and <= 1000"}).dflt("50"),
     quantity("leakage", Dim::None, {0, 0.1, false, false, "between 0 and 0.1"}).dflt("1e-4"),
     quantity("dp_nominal", Dim::Pressure, kPressure)
         .docs("fully open at rated primary flow; this or kv is required"),
     quantity("stroke_time", Dim::Time, kDuration).dflt("120 s"),
     // datasheet keys (docs/models/actuator.md)
     quantity("kv", Dim::None, kKv)
         .docs("fully open flow coefficient, m3/h at 1 bar (IEC 60534); replaces dp_nominal"),
     choice("actuator", {"lag", "rate"})
         .dflt("lag")
         .docs("lag (tau = stroke_time / 5) or rate (a full stroke in stroke_time)"),
     quantity("filter_time", Dim::Time, {0, 3600, false, false, ">= 0 s and <= 1 h"})
         .dflt("0 s")
         .docs("rate: first-order filter on the position (0: none)"),
     quantity("initial_position", Dim::None, kFraction)
         .dflt("0.5")
         .docs("opening at t = 0 (the former fixed start)")},
    true};

const Section kTank{"cdu.expansion_tank",
                    "expansion tank",
                    {quantity("volume", Dim::Volume, kVolume).req(),
                     quantity("precharge", Dim::Pressure, kPressureGauge).req().docs("gauge"),
                     quantity("fill_pressure", Dim::Pressure, kPressureGauge)
                         .dflt("precharge + 50 kPa")
                         .docs("gauge; the static pressure at the tank when filled; sets the "
                               "tank's liquid reserve (docs/models/leak.md)")},
                    true};

const Section kVacuum{
    "cdu.vacuum_tank",
    "negative-pressure loop [K92]: a vacuum pump holds the tank below atmosphere",
    {quantity("pressure", Dim::Pressure, {-0.9e5, -1e3, true, true, "-90 kPa ... -1 kPa (gauge)"})
         .req()
         .docs("gauge; leaks draw air in")}};

// PI keys beyond k and Ti (docs/models/controller.md)
std::vector<Key> piExtra(const char* action_default, const char* limits) {
  return {quantity("tracking_time", Dim::Time, kDuration)
              .dflt("Ti")
              .docs("anti-windup back-calculation time Tt"),
          quantity("output_min", Dim::None, kFraction).dflt(limits).docs("lower output limit"),
          quantity("output_max", Dim::None, kFraction).dflt("1").docs("upper output limit"),
          choice("action", {"direct", "reverse"})
              .dflt(action_default)
              .docs("direct: error = measurement - set point; reverse: the opposite"),
          quantity("initial_output", Dim::None, kFraction)
              .dflt("the actuator's initial position")
              .docs("output at t = 0: sets the integrator state (bumpless)"),
          quantity("initial_integral", Dim::None, {-10, 10, false, false, "-10 ... 10"})
              .dflt("from initial_output")
              .docs("the integral part of the output at t = 0 (k x0 / Ti, Modelica Buildings "
                    "LimPID's k xi_start [K63]); may lie outside the output limits (a wound-up "
                    "start); not with initial_output"),
          quantity("sensor_time_constant", Dim::Time, {0, 3600, false, false, ">= 0 s and <= 1 h"})
              .dflt("0 s")
              .docs("first-order lag of the measured signal (0: an ideal sensor)")};
}

const Section kTempPi{"cdu.control.temperature_pi",
                      "supply-temperature PI controller acting on the primary valve",
                      cat({perKelvin("k", kGain).dflt("0.1").docs("valve fraction per kelvin"),
                           quantity("Ti", Dim::Time, kDuration).dflt("120 s")},
                          piExtra("direct", "0")),
                      true};

const Section kPumpPi{
    "cdu.control.pump_pi", "flow or dp PI controller acting on the pump speed",
    cat({quantity("k", Dim::None, kGain).dflt("0.5").docs("speed per unit relative error"),
         quantity("Ti", Dim::Time, kDuration).dflt("15 s")},
        piExtra("reverse", "pumps.min_speed")),
    true};

const Section kControl{
    "cdu.control",
    "set points and controllers",
    {quantity("supply_temperature", Dim::Temperature, kTemperature)
         .req()
         .docs("secondary supply set point; within limits and the fluid's range"),
     choice("pump_mode", {"flow", "dp"}).dflt("flow"),
     quantity("flow_setpoint", Dim::VolumeFlow, kVolumeFlow)
         .docs("required when pump_mode is flow"),
     quantity("dp_setpoint", Dim::Pressure, kPressure)
         .docs("across the rack bank; required when pump_mode is dp"),
     map("temperature_pi", kTempPi), map("pump_pi", kPumpPi)},
    true};

const Section kLimits{
    "cdu.limits",
    "alarm limits",
    {quantity("supply_temperature_min", Dim::Temperature, kTemperature).req(),
     quantity("supply_temperature_max", Dim::Temperature, kTemperature)
         .req()
         .docs("above supply_temperature_min"),
     quantity("secondary_pressure_max", Dim::Pressure, kPressure).req().docs("gauge"),
     quantity("primary_pressure_max", Dim::Pressure, kPressure).req().docs("gauge")},
    true};

const Section kPipe{
    "pipe",
    "one pipe of the secondary headers",
    {quantity("length", Dim::Length, kLength).req(),
     quantity("diameter", Dim::Length, {0, 10, true, true, "> 0 m and < 10 m"})
         .req()
         .docs("inner diameter"),
     quantity("roughness", Dim::Length, {0, 0.01, false, false, ">= 0 and <= 10 mm"})
         .dflt("0.045 mm")
         .docs("commercial steel"),
     integer("segments", 1, 200).dflt("10").docs("finite volumes for the transport delay"),
     quantity("heat_loss_coefficient", Dim::LinearConductance,
              {0, 1e4, false, true, ">= 0 and < 10000 W/(m K)"})
         .dflt("0 W/(m K)")
         .docs("heat loss to the site ambient per metre of pipe and kelvin; bare "
               "steel DN150 in still air is roughly 5-10 W/(m K), insulated "
               "0.3-1 W/(m K)")}};

const Section kPiping{
    "facility.cdus.piping",
    "secondary (TCS) headers between the CDU and its racks",
    {map("supply", kPipe).req(), map("return", kPipe).req(),
     quantity("rack_spacing", Dim::Length, {0, 100, false, true, ">= 0 m and < 100 m"})
         .dflt("0.6 m")
         .docs("header length between two rack taps along the row (the rack pitch: "
               "a 600 mm wide rack [K26]); the racks tap the headers in file order "
               "(docs/models/flow_distribution.md)"),
     choice("return_arrangement", {"direct", "reverse"})
         .dflt("direct")
         .docs("direct: the return header leaves the row at the end the supply "
               "enters (the first rack has the shortest path); reverse: at the far "
               "end (every rack the same path length)")}};

// the keys of a CDU body, shared by facility entries and catalog/cdus files
std::vector<Key> cduBody() {
  return {map("heat_exchanger", kHex),
          map("pumps", kPumps),
          map("primary_valve", kValve).req(),
          map("expansion_tank", kTank),
          quantity("internal_volume", Dim::Volume, {0, 1e4, false, true, ">= 0 and < 10000 m3"})
              .dflt("0 m3")
              .docs("reservoir and internal piping"),
          map("control", kControl),
          map("limits", kLimits),
          map("vacuum_tank", kVacuum).docs("none: a vented loop"),
          map("filter", kFilter).docs("none: no strainer (a filter_clogging event then adds one)")};
}

// prescribed boundaries (docs/models/cdu.md "Prescribed boundaries")
const Section kPrescribed{
    "facility.cdus.prescribed",
    "boundary conditions that replace a part of the CDU, to test one component: an ideal flow "
    "source for the pumps or the facility-water valve, an ideal supply temperature for the HX",
    {flow("secondary_flow")
         .docs("the secondary flow, whatever the pump curve (the pumps' power "
               "at the head the loop needs; the pump PI no longer acts)"),
     flow("primary_flow")
         .docs("the facility-water flow through the HX, whatever the valve (the "
               "temperature PI no longer acts)"),
     quantity("supply_temperature", Dim::Temperature, kTemperature)
         .docs("the HX holds the secondary supply here (its hold-up's lag M/m); the heat it "
               "takes goes to the facility water")}};

const Section kCdu{
    "facility.cdus",
    "a CDU with its secondary loop; with `model` it starts from data/catalog/cdus/<model>.yaml "
    "and the other keys override it key by key (nested maps merge); required keys may come from "
    "the catalog entry",
    cat({name("name").reqHere().docs("unique among CDUs"),
         name("model").docs("a catalog CDU: the starting point"), desc(),
         name("fluid").dflt("pg25").docs("secondary (TCS) coolant, a catalog fluid"),
         map("piping", kPiping).reqHere(),
         map("prescribed", kPrescribed)
             .docs("boundaries that replace a part of the CDU, to test one component")},
        cduBody()),
    true};

//---------------------------------------------------------------------------------------------
// rack types (facility entries and catalog/racks)

// the GPUs' HBM as fitted in this rack type (or estimate case), instead of the GPU type's: "HBM3
// against HBM3E" without a catalog file of its own (docs/models/job.md)
const Section kGpuMemory{
    "rack.gpu_memory",
    "the GPUs' HBM, overriding the GPU type's (data/catalog/gpus hbm_capacity, hbm_bandwidth)",
    {quantity("capacity", Dim::DataSize, kBytes).docs("HBM per GPU; absent: the GPU type's"),
     quantity("bandwidth", Dim::Bandwidth, kBytes)
         .docs("HBM bandwidth per GPU; absent: the GPU type's")}};

const Section kManifold{
    "rack.manifold",
    "the whole rack's pressure drop law, dp = dp_nominal (V / flow_nominal)^exponent",
    {quantity("dp_nominal", Dim::Pressure, kPressure).req(),
     quantity("flow_nominal", Dim::VolumeFlow, kVolumeFlow).req(),
     quantity("exponent", Dim::None, kLawExponent).dflt("2"),
     choice("arrangement", {"U", "Z"})
         .dflt("U")
         .docs("U: supply and return connected at the same end of the rack; Z: at opposite "
               "ends (docs/models/flow_distribution.md)"),
     quantity("header_length", Dim::Length, {0, 100, false, true, ">= 0 m and < 100 m"})
         .dflt("0 m")
         .docs("supply (and return) manifold length over the trays, taps evenly spaced; 0: "
               "every tray sees the same drop"),
     quantity("header_diameter", Dim::Length, {0, 1, true, false, "> 0 m and <= 1 m"})
         .dflt("40 mm")
         .docs("manifold inner diameter"),
     quantity("header_roughness", Dim::Length, {0, 0.01, false, false, ">= 0 and <= 10 mm"})
         .dflt("0.045 mm")
         .docs("absolute roughness of the manifold")},
    true};

const Section kStorage{
    "rack.energy_storage",
    "GB300-style rack energy storage behind the shelves (docs/models/power_smoothing.md); used "
    "with a power section",
    {quantity("capacity", Dim::Energy, {0, 1e12, true, false, "> 0 J"}).req(),
     quantity("max_power", Dim::Power, kHeatLoad).req(),
     quantity("time_constant", Dim::Time, kPhaseDuration)
         .req()
         .docs("the grid draw follows a moving average of the rack power"),
     quantity("recovery_time", Dim::Time, kPhaseDuration)
         .docs("state of charge pulled back to half")}};

const Section kRackPart{"rack.parts",
                        "a non-GPU part of the rack and how many",
                        {name("part").req().docs("data/catalog/parts/<name>.yaml"),
                         integer("count", 0, kMaxCount).req()}};

std::vector<Key> rackBody() {
  return {quantity("nominal_power", Dim::Power, kRackPower).req(),
          quantity("liquid_fraction", Dim::None, kFraction)
              .dflt("0.8")
              .docs("heat captured by the liquid"),
          quantity("gpu_heat_fraction", Dim::None, kFraction)
              .dflt("0")
              .docs("rack power dissipated in the GPU cold plates; at most liquid_fraction"),
          integer("trays", 1, kMaxCount).dflt("1"),
          integer("gpus_per_tray", 1, kMaxCount).dflt("1"),
          name("coldplate")
              .req()
              .docs("a cold plate of this file, else data/catalog/coldplates/<name>.yaml"),
          integer("coldplate_paths", 1, kMaxCount).dflt("1").docs("parallel cold-plate flow paths"),
          integer("coldplate_series", 1, 64)
              .dflt("1")
              .docs("GPU plates in series on one flow path of a tray (1: each GPU plate fed from "
                    "the tray inlet); divides gpus_per_tray"),
          quantity("design_flow", Dim::VolumeFlow, kVolumeFlow).req(),
          map("manifold", kManifold),
          quantity("coolant_volume", Dim::Volume, kVolume).req().docs("liquid inside the rack"),
          quantity("balancing_valve_kv", Dim::None, kKv).req().docs("fully open, m3/h/sqrt(bar)"),
          quantity("max_working_pressure", Dim::Pressure, kPressure).req().docs("gauge"),
          quantity("supply_temperature_max", Dim::Temperature, kTemperature).req(),
          name("gpu").docs("the GPU model (data/catalog/gpus); racks of this type without "
                           "heat_load resolve their trays x gpus_per_tray GPUs"),
          map("gpu_memory", kGpuMemory)
              .dflt("the GPU type's")
              .docs("the GPUs' HBM capacity and bandwidth in this rack type"),
          quantity("other_idle_power", Dim::Power, kHeatLoad)
              .dflt("30 % of other_max_power")
              .docs("CPUs, switch trays, NICs, fans at idle"),
          quantity("other_max_power", Dim::Power, kHeatLoad)
              .dflt("nominal_power - GPUs x tdp")
              .docs("the same under full load"),
          list("parts", &kRackPart, "parts")
              .docs("non-GPU parts (docs/models/rack_parts.md); without it the lumped "
                    "other_*_power is used"),
          map("energy_storage", kStorage)};
}

const Section kRackType{
    "facility.rack_types",
    "a new rack type, or a catalog type with changes: with `base` it starts from "
    "data/catalog/racks/<base>.yaml and the other keys override it",
    cat({name("name").reqHere().docs("unique among rack_types"),
         name("base").docs("a catalog rack type"), desc()},
        rackBody()),
    true};

//---------------------------------------------------------------------------------------------
// cold plates (facility entries and catalog/coldplates)

const Section kPlateDp{"coldplate.pressure_drop",
                       "dp = dp_nominal (V / flow_nominal)^exponent",
                       {quantity("dp_nominal", Dim::Pressure, kPressure).req(),
                        quantity("flow_nominal", Dim::VolumeFlow, kVolumeFlow).req(),
                        quantity("exponent", Dim::None, kLawExponent).dflt("1.85")}};

const Section kFit{
    "coldplate.law.fit",
    "R = R_inf + a V^-b with V in L/min per flow path",
    {quantity("R_inf", Dim::ThermalResistance, {0, 10, false, false, ">= 0 K/W and <= 10 K/W"})
         .req(),
     quantity("a", Dim::None, {0, 100, false, false, "between 0 and 100"})
         .req()
         .docs("K/W at 1 L/min"),
     quantity("b", Dim::None, {0, 5, true, false, "> 0 and <= 5"}).req()}};

const Section kPlateTable{
    "coldplate.law.table",
    "the published points",
    {numbers("flow_L_min", {0, 1e4, true, false, "> 0 and <= 10000 (L/min)"}, 2)
         .req()
         .docs("L/min per plate, strictly increasing"),
     numbers("R_K_W", {0, 10, true, false, "> 0 and <= 10 (K/W)"}, 2)
         .req()
         .docs("K/W, as many as flows, not rising with flow")}};

const Section kLaw{"coldplate.law",
                   "the resistance law of one fluid",
                   {map("fit", kFit).docs("the fitted law; this or table is required"),
                    map("table", kPlateTable).docs("the published points"),
                    choice("use", {"fit", "table"})
                        .dflt("fit; table when there is no fit")
                        .docs("which one R(V) follows (docs/models/cold_plate.md)")}};

std::vector<Key> plateBody() {
  return {quantity("time_constant", Dim::Time, kDuration)
              .dflt("2 s")
              .docs("case/plate first-order lag at design flow; used without mass and "
                    "holdup_volume"),
          // part heat capacities from masses (docs/models/cold_plate.md "Heat capacity")
          quantity("mass", Dim::Mass, {0, 100, false, false, "between 0 and 100 kg"})
              .docs("copper mass of one plate: C = mass c_cu + holdup_volume rho c_p replaces "
                    "time_constant / R"),
          quantity("holdup_volume", Dim::Volume, {0, 0.01, false, false, "between 0 and 10 L"})
              .docs("coolant held in one plate (with mass)"),
          map("pressure_drop", kPlateDp).req(),
          nameMap("resistance", kLaw).req().docs("fluid name -> law, at least one")};
}

const Section kColdPlate{"facility.coldplates",
                         "a cold plate defined in the file (rare); hides a catalog plate of the "
                         "same name",
                         cat({name("name").req().docs("unique"), desc()}, plateBody())};

//---------------------------------------------------------------------------------------------
// racks

const Section kBalancing{"facility.racks.balancing_valve",
                         "the rack's balancing valve",
                         {quantity("opening", Dim::None, kFraction).dflt("1"),
                          quantity("kv", Dim::None, kKv)
                              .dflt("the rack type's balancing_valve_kv")
                              .docs("fully open Kv, m3/h/sqrt(bar)")}};

const Section kDegrade{
    "facility.racks.coldplate_degradation",
    "a GPU whose cold plate conducts `factor` times worse than the type's law",
    {integer("gpu", 0, kMaxCount).req().docs("GPU slot, 0 ... GPUs in the rack - 1"),
     quantity("factor", Dim::None,
              {0, 1000, true, false, "> 0 and <= 1000 (1 = as the rack type's law)"})
         .req()}};

const Section kRack{
    "facility.racks",
    "a rack on a CDU loop",
    {name("name").req().docs("unique among racks"),
     name("cdu").req().docs("the loop it hangs on, a CDU of this file"),
     name("type").req().docs("a rack type of this file, else data/catalog/racks/<type>.yaml"),
     text("row").req().docs("hall position, for display"),
     text("hall").docs(
         "the hall (building) of a campus the rack stands in, for display: the GUI's floor plan "
         "draws each hall as its own block (campus -> hall -> row); omitted: the one hall"),
     integer("index", 0, 1000000).req().docs("position in the row; (row, index) unique"),
     map("balancing_valve", kBalancing),
     series("heat_load", Dim::Power, kHeatLoad)
         .docs("rack electrical power = heat; required unless the rack type has a gpu. Without "
               "one, every GPU of the rack is resolved and idles unless a job runs on it"),
     quantity("gpu_power_cap", Dim::Power, kGpuPower)
         .dflt("the job's cap, else the GPU's tdp")
         .docs("per-GPU power limit on this rack, within the GPU's power_limit_min ... "
               "power_limit_max. A GPU's limit is the smallest of its rack's and its job's "
               "gpu_power_cap, each where stated; its tdp where neither states one"),
     list("coldplate_degradation", &kDegrade, "degraded cold plates"),
     quantity("power_cap", Dim::Power, kRackPower)
         .docs("whole-rack limit, shared equally by the rack's GPUs after the non-GPU parts' "
               "draw"),
     quantity("multiplier", Dim::None, {0, 1e5, true, false, "> 0 and <= 100000"})
         .dflt("1")
         .docs("a lumped block of this many identical racks (may be non-integer): paths, flows, "
               "volumes and heat times it; heat_load is one rack's; heat-load racks only")}};

//---------------------------------------------------------------------------------------------
// air-cooled racks and devices (docs/models/air_rack.md)

const Section kFans{
    "facility.air_racks.fans",
    "the rack's fans: airflow held by the air temperature rise or by a pressure difference; "
    "flow, pressure and power by the fan laws",
    {choice("control", {"delta_t", "pressure"})
         .dflt("delta_t")
         .docs("delta_t: the fans hold the air temperature rise; pressure: a pressure difference"),
     quantity("rated_airflow", Dim::VolumeFlow, {0, 1e3, true, true, "> 0 and < 1000 m3/s"})
         .req()
         .docs("airflow at full speed"),
     quantity("rated_power", Dim::Power, kPower).req().docs("fan electrical power at full speed"),
     quantity("delta_t", Dim::TemperatureDiff, kTempDiff)
         .docs("air temperature rise held (control delta_t; required there)"),
     quantity("rated_pressure", Dim::Pressure, {0, 1e5, true, true, "> 0 and < 1 bar"})
         .docs("the rack's air-side pressure drop at the rated airflow (control pressure)"),
     quantity("pressure_setpoint", Dim::Pressure, {0, 1e5, true, true, "> 0 and < 1 bar"})
         .docs("pressure difference held (control pressure)"),
     quantity("min_speed", Dim::None, {0, 1, true, false, "> 0 and <= 1"})
         .dflt("0.2 (a)")
         .docs("lowest fan speed ratio")}};

const Section kAirRack{
    "facility.air_racks",
    "an air-cooled rack or device (switch rack, storage, air-cooled servers): its power and its "
    "fans' power are heat in the room air (site.room_air; without it, it draws site ambient air)",
    {name("name").req().docs("unique among racks and air_racks"),
     text("row").req().docs("hall position, for display"),
     integer("index", 0, 1000000).req().docs("position in the row"),
     series("heat_load", Dim::Power, kHeatLoad).req().docs("IT power = heat"),
     map("fans", kFans).req(),
     text("busway").docs(
         "power section only: the busway that feeds it (its IT and fan power are on that busway's "
         "current, loss, the UPS and transformer); without it, fed directly at the utility "
         "meter")}};

//---------------------------------------------------------------------------------------------
// scale-out switch racks (docs/models/switch_rack.md; reader switch_reader.cpp)

const Section kSwitchRack{
    "facility.switch_racks",
    "a scale-out switch rack (leaf or spine): its switches, their ASIC, optics per port and "
    "cooling; its power is IT load on its busway, its heat goes to the room air or a CDU loop",
    {name("name").req().docs("unique among racks, air_racks and switch_racks"),
     text("row").dflt("\"\"").docs("hall position, for display"),
     integer("index", 0, 1000000).dflt("0").docs("position in the row"),
     choice("role", {"leaf", "spine"})
         .req()
         .docs("leaf: the NICs of its racks are cabled to it; spine: the uplinks of its racks' "
               "leaves"),
     list("racks", nullptr, "racks")
         .docs("the compute racks it serves: counts the switches from the fabric (scale_out) "
               "when switches is not given, and names the GPUs a switch failure reaches"),
     integer("switches", 1, 100000)
         .docs("switches in the rack; default: what the racks' GPUs need (switch_rack.md)"),
     integer("cages", 1, 4096)
         .dflt("72")
         .docs("front-panel ports (cages) per switch (Quantum-X800 Q3400: 72 x 1.6T OSFP) [F21]"),
     integer("cages_used", 0, 4096).dflt("cages").docs("cages with optics in use, per switch"),
     quantity("cage_bandwidth", Dim::Bandwidth, {0, 1e14, true, false, "> 0 and <= 100 TB/s"})
         .dflt("200 GB/s")
         .docs("per cage and direction (1.6 Tb/s = 200 GB/s)"),
     quantity("asic_power", Dim::Power, kPower)
         .dflt("900 W (a)")
         .docs("switch ASIC with its SerDes, per switch (Tomahawk 5 ~500 W at 51.2 Tb/s [F44] "
               "scaled to 115.2 Tb/s)"),
     quantity("base_power", Dim::Power, {0, 1e9, false, true, ">= 0 W and < 1 GW"})
         .dflt("250 W (a)")
         .docs("fans, CPU, board and PSU losses per switch"),
     choice("optics", {"pluggable", "cpo", "copper"})
         .dflt("pluggable")
         .docs("pluggable transceivers, co-packaged optics, or passive copper"),
     quantity("port_power", Dim::Power, {0, 1e4, false, true, ">= 0 W and < 10 kW"})
         .dflt("30 W pluggable, 9 W cpo, 0 copper")
         .docs("optics power per cage: 1.6T pluggable ~30 W vs co-packaged ~9 W [WL64]"),
     choice("cooling", {"air", "liquid"})
         .dflt("air")
         .docs("air: all heat to the room air; liquid: the ASIC (and CPO) on a cold plate"),
     name("cdu").docs("cooling liquid: the CDU loop its cold plates are on (required there)"),
     quantity("liquid_fraction", Dim::None, kFraction)
         .dflt("0.9 (a)")
         .docs("cooling liquid: share of the ASIC (and CPO) heat the cold plate takes"),
     text("busway").docs(
         "power section only: the busway that feeds it; without it, at the utility meter")}};

//---------------------------------------------------------------------------------------------
// coolants defined in the file (docs/models/fluid.md)

const Section kFluidMixture{
    "facility.fluids.mixture",
    "a glycol-water mixture from the Melinder (2010) correlations the catalog's pg25 is computed "
    "from [K50]; tabulated every 10 K from its freeze point to 100 degC",
    {choice("glycol", {"propylene_glycol", "ethylene_glycol"}).req().docs("the antifreeze"),
     quantity("mass_fraction", Dim::None, kFraction)
         .docs("glycol mass fraction, <= 0.6 (the correlations' range); this or volume_fraction"),
     quantity("volume_fraction", Dim::None, kFraction)
         .docs("glycol volume fraction, converted at 20 degC (a) as [K50] does")}};

const Section kFluidConstant{
    "facility.fluids.constant",
    "a constant-property fluid (for comparisons with references that use one)",
    {quantity("rho_kg_m3", Dim::None, {0, 1e5, true, true, "> 0 and < 100000 (kg/m3)"}).req(),
     quantity("cp_J_kgK", Dim::None, {0, 1e5, true, true, "> 0 and < 100000 (J/(kg K))"}).req(),
     quantity("mu_Pa_s", Dim::None, {0, 10, true, true, "> 0 and < 10 (Pa s)"}).req(),
     quantity("k_W_mK", Dim::None, {0, 1e3, true, true, "> 0 and < 1000 (W/(m K))"}).req(),
     quantity("T_min", Dim::Temperature, kTemperature)
         .dflt("0 degC (a)")
         .docs("lower end of its use range"),
     quantity("T_max", Dim::Temperature, kTemperature)
         .dflt("100 degC (a)")
         .docs("upper end of its use range; above T_min")}};

const Section kFileFluid{
    "facility.fluids",
    "a coolant defined in the file: used by name as fluid: of a CDU or the facility water "
    "(replacing a catalog fluid of that name in this file); cold plates need a resistance law "
    "under its name",
    {name("name").req().docs("unique among the file's fluids"),
     map("mixture", kFluidMixture).docs("this or constant"),
     map("constant", kFluidConstant).docs("this or mixture")}};

// described training jobs and the fabric (docs/models/job.md, fabric.md, checkpoint.md)

const Range kModelCount{0, 1e16, true, true, "> 0"};
const Range kOverlap{0, 1, false, true, ">= 0 and < 1"};
const Range kLatency{0, 1e-2, false, false, ">= 0 s and <= 10 ms"};
const Range kLinkBandwidth{0, 1e14, true, false, "> 0 and <= 100 TB/s"};
const Range kBytesPerParam{0, 64, true, false, "> 0 and <= 64"};
const Range kStorageBandwidth{0, 1e15, false, false, ">= 0 (0: checkpoint_duration as given)"};
const Range kOversub{0, 1, true, false, "> 0 and <= 1"};

const Range kEfficiencyOverride{0, 1, false, false, "between 0 and 1 (0: the GPU type's)"};

const Section kWorkloadParallelism{
    "facility.jobs.workload.parallelism",
    "ranks laid out TP innermost, then CP, then PP, then DP, in the job's GPU order (Megatron-LM "
    "names)",
    {integer("tp", 1, 1024).dflt("1").docs("tensor parallel: inside the NVLink domain"),
     integer("pp", 1, 1024).dflt("1").docs("pipeline stages (1F1B)"),
     integer("vp", 1, 1024)
         .orWords({"auto"})
         .dflt("1")
         .docs("virtual stages per pipeline stage (interleaved 1F1B); divides each stage's "
               "layers; auto: the fastest that fits"),
     integer("cp", 1, 1024).dflt("1").docs("context parallel: the sequence split over cp ranks"),
     integer("dp", 0, 1000000).dflt("0").docs("data parallel; 0 = GPUs / (tp cp pp)"),
     integer("ep", 1, 1024).dflt("1").docs("expert parallel, carved from dp x cp"),
     boolean("sequence_parallel")
         .dflt("true")
         .docs("norms and dropout split over the tp ranks (all-gather + reduce-scatter)"),
     integer("first_stage_layers", 0, 100000)
         .dflt("0")
         .docs("layers of the first stage (uneven stages); 0 = even"),
     integer("last_stage_layers", 0, 100000)
         .dflt("0")
         .docs("layers of the last stage (uneven stages); 0 = even"),
     boolean("tp_comm_overlap")
         .dflt("false")
         .docs("TP collectives pipelined with their GEMMs (Megatron-LM's default: off)"),
     boolean("overlap_grad_reduce")
         .dflt("false")
         .docs("DP gradient reduce-scatter in buckets behind the backward pass"),
     boolean("overlap_param_gather")
         .dflt("false")
         .docs("DP parameter all-gather in buckets behind the forward pass"),
     quantity("bucket_parameters", Dim::None, {0, 1e13, false, false, ">= 0"})
         .dflt("0")
         .docs("DP bucket size in parameters; 0 = max(40e6, 1e6 dp) (Megatron-LM)")}};

const Section kWorkloadEfficiency{
    "facility.jobs.workload.efficiency",
    "what-if overrides of the GPU type's sourced kernel efficiencies (data/catalog/gpus "
    "kernel_efficiency)",
    {quantity("gemm", Dim::None, kEfficiencyOverride)
         .dflt("0")
         .docs("large-GEMM achieved / dense peak of the precision"),
     quantity("attention", Dim::None, kEfficiencyOverride)
         .dflt("0")
         .docs("multiplies the flash-attention efficiencies"),
     quantity("hbm", Dim::None, kEfficiencyOverride)
         .dflt("0")
         .docs("achieved / nominal HBM bandwidth")}};

const Section kWorkloadOffload{
    "facility.jobs.workload.offload",
    "state kept in host memory instead of HBM (models/host_memory.h, docs/models/job.md)",
    {boolean("optimizer")
         .dflt("false")
         .docs("optimizer state (12 B per local parameter) in host memory; the update streams "
               "28 B per local parameter through the tier"),
     boolean("activations")
         .dflt("false")
         .docs("activations in host memory: all but one micro-batch's, or with activation_layers "
               "those of that many layers"),
     integer("activation_layers", 0, 100000)
         .dflt("0")
         .docs("with activations: this many layers of each micro-batch offload their activations "
               "after their forward and reload them for their backward, the transfers beside the "
               "next layer's compute (Megatron's cpu_offloading_num_layers; pp = 1, fewer than the "
               "layers); 0: whole micro-batches"),
     quantity("activation_overlap", Dim::None, kOverlap)
         .dflt("0.5")
         .docs("share of the whole micro-batches' activation transfers hidden behind compute (a)"),
     choice("tier", {"auto", "lpddr", "cxl"})
         .dflt("auto")
         .docs("auto: the local tier if it fits, else the CXL tier")}};

const Section kWorkload{
    "facility.jobs.workload",
    "a training job described by its model, batch and parallelism; replaces 'phases' "
    "(docs/models/job.md)",
    {integer("layers", 1, 100000).req().docs("L [--num-layers]"),
     quantity("hidden", Dim::None, kModelCount).req().docs("hidden size h [--hidden-size]"),
     quantity("ffn_hidden", Dim::None, {0, 1e16, false, true, ">= 0 (0: 4 hidden)"})
         .dflt("4 hidden")
         .docs("FFN size [--ffn-hidden-size]"),
     boolean("gated_mlp").dflt("false").docs("SwiGLU / GeGLU: three FFN matrices [--swiglu]"),
     integer("heads", 1, 100000).req().docs("attention heads [--num-attention-heads]"),
     integer("kv_heads", 0, 100000)
         .dflt("heads")
         .docs("key/value heads, GQA query groups [--num-query-groups]"),
     quantity("vocab", Dim::None, kModelCount).req().docs("padded vocabulary [--vocab-size]"),
     quantity("sequence_length", Dim::None, kModelCount).req().docs("tokens per sequence"),
     boolean("tied_embeddings").dflt("false").docs("input and output embedding shared"),
     integer("experts", 0, 100000)
         .dflt("0")
         .docs("mixture of experts: experts per layer; 0 = dense"),
     integer("moe_top_k", 1, 64).dflt("2").docs("experts per token [--moe-router-topk]"),
     quantity("moe_ffn_hidden", Dim::None, {0, 1e16, false, true, ">= 0"})
         .dflt("ffn_hidden")
         .docs("FFN size of one expert"),
     quantity("parameters", Dim::None, kModelCount)
         .dflt("from the architecture")
         .docs("N, all parameters: checked against the architecture (within 5 %)"),
     quantity("active_parameters", Dim::None, kModelCount)
         .dflt("from the architecture")
         .docs("per token (mixture of experts): checked against the architecture"),
     quantity("global_batch", Dim::None, kModelCount)
         .docs("sequences per iteration [--global-batch-size]; this or tokens_per_iteration"),
     quantity("tokens_per_iteration", Dim::None, kModelCount)
         .docs("global batch in tokens; this or global_batch"),
     integer("micro_batch_size", 1, 100000).dflt("1").docs("sequences per micro-batch"),
     map("parallelism", kWorkloadParallelism).req(),
     choice("precision", {"bf16", "fp8", "fp4"})
         .dflt("bf16")
         .docs("of the GEMMs (attention and the rest in BF16); the GPU type needs its peak"),
     choice("fp8_recipe", {"delayed", "tensorwise", "mxfp8"})
         .dflt("delayed")
         .docs("Transformer Engine's FP8 scaling [--fp8-recipe]: delayed (amax history, "
               "Megatron-LM's default), tensorwise (current scaling: each tensor read twice), "
               "mxfp8 (32-element blocks) [F99]"),
     map("efficiency", kWorkloadEfficiency).dflt("the GPU type's"),
     choice("attention", {"flash", "unfused"})
         .dflt("flash")
         .docs("flash / fused attention, or unfused (scores through HBM: Megatron-LM before "
               "flash attention)"),
     choice("tp_algorithm", {"ring", "tree", "in_switch"}).dflt("ring"),
     choice("dp_algorithm", {"ring", "tree", "in_switch"}).dflt("ring"),
     boolean("distributed_optimizer")
         .dflt("false")
         .docs("optimizer state sharded over dp x cp (Megatron Core's default: off [F92])"),
     choice("sharding", {"none", "optim", "optim_grads", "optim_grads_params"})
         .dflt("none (optim with distributed_optimizer)")
         .docs("what the dp x cp ranks shard (Megatron-FSDP's names): the optimizer state, also "
               "the gradients (reduce-scattered every micro-batch), also the parameters (FSDP / "
               "ZeRO-3: all-gathered layer by layer for the forward and the backward)"),
     choice("grad_reduce", {"fp32", "bf16"})
         .dflt("fp32")
         .docs("main gradients kept and reduced in fp32 (Megatron-LM's default for bf16 [F92]) "
               "or bf16 [--grad-reduce-in-bf16] (NeMo's performance recipes [F97])"),
     choice("recompute", {"auto", "none", "selective", "full"})
         .dflt("auto")
         .docs("auto: none if the activations fit, else selective, else full"),
     choice("pipeline_timing", {"staggered", "lockstep"})
         .dflt("staggered")
         .docs("staggered: each pipeline stage idles where the 1F1B schedule puts its bubble "
               "(head, middle, tail); lockstep: every GPU in one bubble at once (a what-if: the "
               "fleet's power swings in phase)"),
     quantity("checkpoint_bytes_per_parameter", Dim::None, kBytesPerParam).dflt("14"),
     quantity("storage_bandwidth", Dim::Bandwidth, kStorageBandwidth)
         .dflt("0")
         .docs("aggregate checkpoint write bandwidth; sets checkpoint_duration = size / bandwidth"),
     boolean("checkpoint_async")
         .dflt("false")
         .docs("true: the blocking part is staging to host memory"),
     quantity("staging_bandwidth", Dim::Bandwidth, kLinkBandwidth)
         .dflt("50 GB/s")
         .docs("per GPU to host memory (async checkpoints)"),
     quantity("data_bytes_per_token", Dim::DataSize, {0, 1e12, false, false, ">= 0"})
         .dflt("4 B")
         .docs("input bytes per token through host memory (int32 ids; more for images)"),
     map("offload", kWorkloadOffload).dflt("none")}};

const Section kFabricNvlink{
    "facility.fabric.nvlink",
    "the NVLink domain of each rack (every GPU of the rack, through its switch trays)",
    {integer("links_per_gpu", 1, 1024).dflt("18"),
     quantity("link_bandwidth", Dim::Bandwidth, kLinkBandwidth)
         .dflt("50 GB/s")
         .docs("per link and direction"),
     integer("switch_trays", 1, 1024).dflt("9"),
     quantity("efficiency", Dim::None, kEfficiency).dflt("0.94"),
     quantity("latency", Dim::Time, kLatency).dflt("0.001 ms").docs("per algorithm step"),
     boolean("adaptive_bandwidth")
         .dflt("true")
         .docs("true: a lost switch tray leaves the partition running at reduced bandwidth; "
               "false: the job fails")}};

const Section kFabricScaleOut{
    "facility.fabric.scale_out",
    "the scale-out network: NICs per GPU (rails) to leaf switches, leaves to spines",
    {integer("nics_per_gpu", 1, 64).dflt("1"),
     quantity("nic_bandwidth", Dim::Bandwidth, kLinkBandwidth)
         .dflt("50 GB/s")
         .docs("per NIC and direction (400 Gb/s = 50 GB/s)"),
     quantity("efficiency", Dim::None, kEfficiency).dflt("0.9"),
     quantity("latency", Dim::Time, kLatency).dflt("0.005 ms").docs("per algorithm step"),
     boolean("rail_optimized").dflt("true"),
     integer("leaf_switches", 0, 100000).dflt("0").docs("0: not modelled as equipment"),
     quantity("spine_oversubscription", Dim::None, kOversub)
         .dflt("1")
         .docs("leaf uplink / downlink capacity (1: non-blocking)")}};

const Range kHostBytes{0, 1e16, false, false, ">= 0 (0: no such tier)"};

const Section kHostTierLpddr{
    "facility.host_memory.lpddr",
    "the host's local memory (Grace LPDDR5X), per host",
    {quantity("bandwidth", Dim::Bandwidth, kLinkBandwidth)
         .dflt("315 GB/s")
         .docs("sustained (STREAM TRIAD 288-342 GB/s, 480 GB Grace [F37])"),
     quantity("latency", Dim::Time, kLatency).dflt("100 ns").docs("[F38]"),
     quantity("capacity", Dim::DataSize, kHostBytes).dflt("480 GB").docs("[F37]")}};

const Section kHostTierCxl{
    "facility.host_memory.cxl",
    "a CXL memory-expander tier, per host",
    {quantity("bandwidth", Dim::Bandwidth, kLinkBandwidth)
         .dflt("36 GB/s")
         .docs("one PCIe 5 x8 module (Micron CZ120 [F60])"),
     quantity("latency", Dim::Time, kLatency).dflt("180 ns").docs("local + 70-90 ns [F38]"),
     quantity("capacity", Dim::DataSize, kHostBytes)
         .dflt("0 B")
         .docs("0: none; a CZ120 module holds 128 or 256 GB [F60]")}};

const Section kHostMemory{
    "facility.host_memory",
    "the host-memory tiers behind the GPUs: data loading, offload, checkpoint staging "
    "(models/host_memory.h, docs/models/job.md)",
    {integer("gpus_per_host", 1, 64).dflt("2").docs("GB200: one Grace per two GPUs [K15]"),
     quantity("link_bandwidth", Dim::Bandwidth, kLinkBandwidth)
         .dflt("450 GB/s")
         .docs("GPU-host link per host and direction (NVLink-C2C 900 GB/s both ways [K15])"),
     map("lpddr", kHostTierLpddr), map("cxl", kHostTierCxl)}};

const Section kFabric{"facility.fabric",
                      "the NVLink domains and the scale-out network (docs/models/fabric.md)",
                      {map("nvlink", kFabricNvlink), map("scale_out", kFabricScaleOut)}};

//---------------------------------------------------------------------------------------------
// jobs

const Section kSmoothing{
    "facility.jobs.power_smoothing",
    "GB200-style power smoothing per GPU (docs/models/power_smoothing.md): the floor is held "
    "while the job runs, the ramp-up limit acts as a power cap, ramp-downs start after the "
    "hysteresis",
    {quantity("floor", Dim::Power, kGpuPowerOrZero),
     quantity("ramp_up", Dim::PowerRate, {0, 1e9, false, false, ">= 0 W/s (0: unlimited)"}),
     quantity("ramp_down", Dim::PowerRate, {0, 1e9, false, false, ">= 0 W/s (0: unlimited)"}),
     quantity("hysteresis", Dim::Time, kPhaseDuration)}};

const Section kTrace{
    "facility.jobs.trace",
    "a measured trace to replay (kind: trace)",
    {text("csv").req().docs(
         "CSV with the header time_s,gpu, then any of power_W, sm, hbm, nvlink, network; one row "
         "per sample and GPU (gpu = rank in the job, 0-based)"),
     quantity("offset", Dim::Time, kJobTime).dflt("0 s").docs("simulation time of trace time 0"),
     boolean("loop").dflt("false").docs("true: repeat the trace; false: hold the ends")}};

const Section kPhase{
    "facility.jobs.phases",
    "one phase of a training iteration",
    {name("name").req(), quantity("duration", Dim::Time, kPhaseDuration).req(),
     choice("bound", {"compute", "memory", "communication", "idle"})
         .req()
         .docs("compute phases stretch with the SM clock, memory phases with HBM throttling"),
     quantity("sm", Dim::None, kFraction).dflt("0").docs("utilization"),
     quantity("hbm", Dim::None, kFraction).dflt("0").docs("utilization"),
     quantity("nvlink", Dim::None, kFraction).dflt("0").docs("utilization"),
     quantity("network", Dim::None, kFraction).dflt("0").docs("utilization"),
     boolean("barrier").dflt("false").docs(
         "starts only when every GPU of the job has finished the phases before it")}};

const Section kJob{
    "facility.jobs",
    "a job on every GPU of its racks (docs/models/workload.md); a rack is in one job only",
    {name("name").req().docs("unique among jobs"),
     choice("kind", {"training", "inference", "trace"}).dflt("training"),
     list("racks", nullptr, "racks", 1)
         .orWords({"all"})
         .req()
         .docs("racks without heat_load, or all of them; the job's GPUs in rack order"),
     quantity("start", Dim::Time, kJobTime).dflt("0 s"),
     quantity("stop", Dim::Time, kJobTime).dflt("never"),
     list("phases", &kPhase, "phases", 1)
         .orWords({"default"})
         .dflt("default")
         .docs("one iteration; default is the GB200-class LLM iteration of defaultTrainingJob()"),
     quantity("checkpoint_interval", Dim::Time, kJobTime)
         .dflt("0 s")
         .docs("a checkpoint at the first iteration end at least this long after the previous"),
     quantity("checkpoint_duration", Dim::Time, kPhaseDuration).dflt("0 s"),
     quantity("gpu_power_cap", Dim::Power, kGpuPower)
         .dflt("the GPU's tdp")
         .docs("per-GPU limit, within the GPU's power_limit_min ... power_limit_max; a rack's "
               "own lower gpu_power_cap wins (the smallest applies)"),
     quantity("reference_junction_temperature", Dim::Temperature, kTemperature)
         .dflt("45 degC")
         .docs("the throughput ratio's reference (docs/models/gpu_layer.md)"),
     series("load", Dim::None, kFraction)
         .dflt("1")
         .docs("inference: offered load, a number or a series/csv time series (linear)"),
     map("trace", kTrace).docs("trace: the trace to replay"),
     map("power_smoothing", kSmoothing).dflt("off"),
     map("workload", kWorkload).docs("a described training job (docs/models/job.md)"),
     choice("on_failure", {"stall", "restart"})
         .dflt("restart")
         .docs("restart: from the last checkpoint after restart_time (docs/models/checkpoint.md); "
               "stall: wait for the GPU"),
     quantity("restart_time", Dim::Time, kJobTime)
         .dflt("10 min")
         .docs("detect + reschedule + reload after a failure"),
     integer("hot_spares", 0, 1000000).dflt("0").docs("spare GPUs that take failed ranks")}};

//---------------------------------------------------------------------------------------------
// GPU-to-GPU variation (docs/models/gpu_variation.md): spreads per catalog GPU type, overridden by
// a facility's `variation` section

const Range kSigmaLn{0, 0.5, false, false, "between 0 and 0.5 (sigma of ln factor)"};

// the spreads; `facility`: overrides whose default is the GPU type's, else the catalog's defaults
// (models/gpu_variation.h GpuSpread)
std::vector<Key> spreadKeys(bool facility) {
  auto d = [facility](const char* catalog) { return facility ? "the GPU type's" : catalog; };
  return {quantity("leakage", Dim::None, kSigmaLn)
              .dflt(d("0.10"))
              .docs("sigma of ln(leakage factor) per GPU (lognormal, truncated at 3 sigma)"),
          quantity("leakage_tray", Dim::None, kSigmaLn)
              .dflt(d("0.05"))
              .docs("sigma of ln(leakage factor) shared by the GPUs of a tray (lot term)"),
          quantity("idle", Dim::None, kSigmaLn)
              .dflt(d("0.02"))
              .docs("sigma of ln(factor) on the non-leakage static power"),
          quantity("vf", Dim::None, kSigmaLn)
              .dflt(d("0.025"))
              .docs("sigma of ln(factor) on the dynamic power (V-f curve: clock at the cap)"),
          quantity("tim", Dim::None, kSigmaLn)
              .dflt(d("0.10"))
              .docs("sigma of ln(factor) on R_junction_plate (TIM and seating)"),
          quantity("hbm", Dim::None, kSigmaLn)
              .dflt(d("0.10"))
              .docs("sigma of ln(factor) on R_hbm_plate"),
          quantity("bad_mount_fraction", Dim::None, {0, 0.1, false, false, "between 0 and 0.1"})
              .dflt(d("0"))
              .docs("share of GPUs with a poorly seated plate: a what-if with no public data, off "
                    "by default (0.001 turns it on)"),
          quantity("bad_mount_factor", Dim::None, {1, 10, false, false, "between 1 and 10"})
              .dflt(d("2.5"))
              .docs("their R_junction_plate multiplier (a what-if, with bad_mount_fraction)")};
}

const Section kGpuVariation{
    "catalog.gpus.variation",
    "GPU-to-GPU spreads of this type (docs/models/gpu_variation.md); absent keys: the defaults "
    "there",
    spreadKeys(false)};

const Section kVariation{
    "facility.variation",
    "GPU-to-GPU variation (docs/models/gpu_variation.md); on by default with seed 1; "
    "`variation: none` makes every GPU its type's typical part",
    cat({integer("seed", 0, 9007199254740992LL)
             .dflt("1")
             .docs("same seed, same GPUs; each GPU's draw depends only on the seed and its rack, "
                   "tray and slot"),
         quantity("tim_ageing", Dim::None, {0, 1, false, false, "between 0 and 1 per year"})
             .dflt("0")
             .docs(
                 "R_junction_plate growth per year of TIM age (fraction per year): a what-if with "
                 "no public data, off by default"),
         quantity("age", Dim::None, {0, 30, false, false, "between 0 and 30 years"})
             .dflt("0")
             .docs("TIM age at the start of the run, in years")},
        spreadKeys(true))};

const Section kGpuLayer{
    "facility.gpu_layer",
    "the GPU layer's clocks (docs/models/gpu_layer.md)",
    {quantity("step", Dim::Time, {0, 1, true, false, "> 0 s and <= 1 s"})
         .dflt("50 ms")
         .docs("GPU time step"),
     quantity("coupling", Dim::Time, {0, 600, true, false, "> 0 s and <= 10 min"})
         .dflt("5 s")
         .docs("heat exchange with the coolant; not shorter than step"),
     boolean("group_identical")
         .dflt("true")
         .docs("true: identical GPUs of a rack are computed once (docs/performance.md); false: "
               "every GPU on its own, the reference path")}};

// the utility's limits at the point of interconnection (docs/models/grid.md): no defaults, the
// utility's own numbers
const Range kGridFrequency{0, 1e6, false, true, ">= 0 Hz"};
const Range kGridLimitW{0, 1e12, false, false, ">= 0 W"};
const Section kGridBand{
    "facility.grid.bands",
    "a frequency band of the meter's spectrum and the oscillation the utility allows in it",
    {quantity("f_low", Dim::Frequency, kGridFrequency).req().docs("lower edge, included"),
     quantity("f_high", Dim::Frequency, {0, 1e6, true, true, "> 0 Hz"})
         .req()
         .docs("upper edge, excluded; above f_low"),
     quantity("limit", Dim::Power, kGridLimitW)
         .docs("the RMS of the meter power's oscillation allowed in the band (a sine of peak "
               "amplitude A has RMS A/sqrt(2)); none: reported, not checked")}};

const Section kGrid{
    "facility.grid",
    "the site's demand as the grid sees it: the meter's ramp, swing and spectrum metrics, "
    "and the utility's limits they are checked against (docs/models/grid.md); needs a power "
    "section and `dctwin run --power-interval`",
    {quantity("ramp_limit", Dim::PowerRate, {0, 1e15, false, false, ">= 0 W/s"})
         .docs("the largest rise or fall of the meter power over ramp_window the utility "
               "allows, as a rate; none: reported, not checked"),
     quantity("ramp_window", Dim::Time, {0, 86400, true, false, "> 0 s and <= 1 day"})
         .dflt("1 s")
         .docs("the span the windowed ramp is taken over"),
     quantity("psd_segment", Dim::Time, {0, 86400, true, false, "> 0 s and <= 1 day"})
         .dflt("60 s")
         .docs("Welch segment length of the spectrum: its resolution is 1/psd_segment"),
     quantity("start", Dim::Time, {0, 1e10, false, false, ">= 0 s"})
         .dflt("0 s")
         .docs("the metrics read the meter from this time on (after a job's start, say)"),
     list("bands", &kGridBand, "bands")
         .docs("frequency bands of the spectrum, each with its limit")}};

//---------------------------------------------------------------------------------------------
// the facility file

// protection layers a site owns (docs/models/protection.md); a scenario overrides them key by key
const Section kFacilityProtection{"facility.protection",
                                  "protection layers of the CDUs and racks (docs/models/"
                                  "protection.md); every key optional, every action latched",
                                  protectionKeys()};

const Section kFacility{
    "facility",
    "a dctwin facility file (docs/facility-format.md)",
    {integer("dctwin", 1, 1).req().docs("format version; must be 1"),
     name("name").req().docs("the facility's name (used in results)"),
     desc(),
     map("site", kSite).req(),
     map("facility_water", kWater).req(),
     list("rack_types", &kRackType, "rack types").docs("new or derived rack types"),
     list("coldplates", &kColdPlate, "cold plates").docs("cold plates defined in the file (rare)"),
     list("cdus", &kCdu, "CDUs", 1).req(),
     list("racks", &kRack, "racks", 1).req(),
     list("air_racks", &kAirRack, "air-cooled racks")
         .docs("air-cooled racks and devices with fans (docs/models/air_rack.md)"),
     list("switch_racks", &kSwitchRack, "switch racks")
         .docs("scale-out leaf/spine switch racks (docs/models/switch_rack.md)"),
     list("fluids", &kFileFluid, "fluids")
         .docs("coolants defined in the file: glycol mixtures, constant properties "
               "(docs/models/fluid.md)"),
     list("jobs", &kJob, "jobs").docs("jobs on racks with resolved GPUs"),
     map("gpu_layer", kGpuLayer),
     map("power", powerSection()),
     map("grid", kGrid).docs("the utility's ramp and oscillation limits at the meter"),
     map("variation", kVariation).orWords({"none"}),
     map("plant", plantSection()),
     map("protection", kFacilityProtection),
     map("fabric", kFabric).docs("NVLink domains and scale-out network"),
     map("host_memory", kHostMemory).docs("host-memory tiers (Grace LPDDR5X, CXL)")}};

//---------------------------------------------------------------------------------------------
// catalog entries

std::vector<Key> catalogHead() {
  return {name("name").reqHere().docs("the file's stem"), desc(), sources()};
}

const Section kCatalogCdu{"catalog.cdus", "data/catalog/cdus/<name>.yaml",
                          cat(catalogHead(), cduBody()), true};
const Section kCatalogRack{"catalog.racks", "data/catalog/racks/<name>.yaml",
                           cat(catalogHead(), rackBody()), true};
const Section kCatalogPlate{"catalog.coldplates", "data/catalog/coldplates/<name>.yaml",
                            cat(catalogHead(), plateBody())};

const Section kFluidTable{
    "catalog.fluids.table",
    "property table",
    {any("columns").req().docs("exactly T_degC, rho_kg_m3, cp_J_kgK, mu_Pa_s, k_W_mK, any order"),
     any("rows").req().docs("at least 2 rows of bare numbers")}};

const Section kFluid{"catalog.fluids", "data/catalog/fluids/<name>.yaml",
                     cat(catalogHead(), {quantity("T_min", Dim::Temperature, kTemperature).req(),
                                         quantity("T_max", Dim::Temperature, kTemperature).req(),
                                         quantity("freeze_point", Dim::Temperature, kTemperature),
                                         map("table", kFluidTable).req()})};

const Section kGpuPowerModel{
    "catalog.gpus.power_model",
    "GPU power model (docs/models/gpu.md)",
    {quantity("sm_max", Dim::Power, kGpuPowerOrZero).req(),
     quantity("hbm_max", Dim::Power, kGpuPowerOrZero).req(),
     quantity("nvlink_max", Dim::Power, kGpuPowerOrZero).req(),
     quantity("voltage_v0", Dim::None, kV0).req(), quantity("voltage_floor", Dim::None, kV0),
     quantity("clock_power", Dim::Power, kGpuPowerOrZero),
     quantity("leakage_ref", Dim::Power, kGpuPowerOrZero).req(),
     quantity("leakage_beta", Dim::None, {0, 0.2, false, false, "between 0 and 0.2 per K"}).req()}};

const Section kGpuThermal{"catalog.gpus.thermal",
                          "GPU thermal nodes and limits",
                          {quantity("maxop", Dim::Temperature, kTemperature).req(),
                           quantity("slowdown", Dim::Temperature, kTemperature).req(),
                           quantity("shutdown", Dim::Temperature, kTemperature).req(),
                           quantity("hbm_max", Dim::Temperature, kTemperature).req(),
                           quantity("R_junction_plate", Dim::ThermalResistance, kGpuR).req(),
                           quantity("C_die", Dim::HeatCapacity, kGpuC).req(),
                           quantity("R_hbm_plate", Dim::ThermalResistance, kGpuR).req(),
                           quantity("C_hbm", Dim::HeatCapacity, kGpuC).req()}};

const Range kPeakFlops{0, 1e18, true, false, "> 0 FLOP/s"};

const Section kGpuKernelEfficiency{
    "catalog.gpus.kernel_efficiency",
    "achieved fractions of the peaks, from published kernel measurements (docs/models/job.md)",
    {quantity("gemm_bf16", Dim::None, kEfficiency).docs("large BF16 GEMM / dense BF16 peak"),
     quantity("gemm_fp8", Dim::None, kEfficiency).docs("large FP8 GEMM / dense FP8 peak"),
     quantity("gemm_fp4", Dim::None, kEfficiency).docs("large FP4 GEMM / dense FP4 peak"),
     quantity("attention_forward", Dim::None, kEfficiency)
         .docs("flash attention forward / dense BF16 peak"),
     quantity("attention_backward", Dim::None, kEfficiency)
         .docs("flash attention backward / dense BF16 peak"),
     quantity("hbm", Dim::None, kEfficiency).docs("memory-bound kernels / nominal bandwidth"),
     quantity("gemm_stall_share", Dim::None, {0, 1, true, false, "0 to below 1"})
         .dflt("0: a kernel's time follows the clock alone")
         .docs("share of a large GEMM's time at the default power limit that does not shrink with "
               "the clock (1 - achieved / (flop per cycle x clock)); sets how a lower limit slows "
               "the step's compute kernels")}};

const Section kGpu{
    "catalog.gpus", "data/catalog/gpus/<name>.yaml",
    cat(catalogHead(),
        {quantity("tdp", Dim::Power, kGpuPower).req(),
         quantity("power_limit_min", Dim::Power, kGpuPower).req(),
         quantity("power_limit_max", Dim::Power, kGpuPower).req(),
         quantity("idle_power", Dim::Power, kGpuPower).req(),
         quantity("hbm_idle_power", Dim::Power, kGpuPowerOrZero).req(),
         quantity("hbm_capacity", Dim::DataSize, kBytes).req(),
         quantity("hbm_bandwidth", Dim::Bandwidth, kBytes).req(),
         quantity("nvlink_bandwidth", Dim::Bandwidth, kBytes).req(),
         quantity("dense_bf16_flops", Dim::None, kPeakFlops)
             .docs("dense BF16 peak (FLOP/s); needed by described jobs"),
         quantity("dense_fp8_flops", Dim::None, kPeakFlops)
             .docs("dense FP8 peak (FLOP/s); absent: no FP8"),
         quantity("dense_fp4_flops", Dim::None, kPeakFlops)
             .docs("dense FP4 peak (FLOP/s); absent: no FP4"),
         integer("sm_count", 1, 100000).docs("streaming multiprocessors (GEMM wave quantization)"),
         integer("nvlink_domain", 1, 100000).docs("GPUs of one NVLink domain (8: HGX, 72: NVL72)"),
         map("kernel_efficiency", kGpuKernelEfficiency),
         quantity("clock_max", Dim::Frequency, kClock).req(),
         quantity("clock_idle", Dim::Frequency, kClock).req(),
         quantity("clock_memory_bound", Dim::Frequency, kClock).req(),
         map("power_model", kGpuPowerModel).req(),
         map("thermal", kGpuThermal).req(),
         map("variation", kGpuVariation)})};

const Section kPart{
    "catalog.parts", "data/catalog/parts/<name>.yaml",
    cat(catalogHead(),
        {choice("kind", {"cpu", "nvswitch_tray", "nic", "switch_optics", "fan", "other"}).req(),
         quantity("idle_power", Dim::Power, kHeatLoad).req(),
         quantity("max_power", Dim::Power, kHeatLoad).req(),
         quantity("liquid_fraction", Dim::None, kFraction).req(), integer("ports", 0, kMaxCount),
         quantity("port_active_power", Dim::Power, kHeatLoad),
         quantity("port_idle_power", Dim::Power, kHeatLoad),
         quantity("port_lpm_power", Dim::Power, kHeatLoad),
         // tray-level protection (docs/models/rack_parts.md "Part temperature and shutdown")
         quantity("temperature_max", Dim::Temperature, kTemperature)
             .docs("the part's shutdown temperature: above it the tray, here the rack, is "
                   "powered off (cold-plated parts; needs plate_resistance)"),
         quantity("plate_resistance", Dim::ThermalResistance, kGpuR)
             .docs("part sensor to local coolant, per unit: T = T_coolant + R liquid_fraction "
                   "P_unit")})};

//---------------------------------------------------------------------------------------------
// electrical catalog entries: typed keys of each kind; other keys document their standards and
// are accepted (open sections)

const Range kFractionOf{0, 1, false, false, "between 0 and 1"};

Section electrical(const char* id, const char* title, std::vector<Key> keys) {
  Section s{
      id, title,
      cat({name("name").reqHere(), desc(), sources(), name("kind").reqHere()}, std::move(keys))};
  s.open = true;
  return s;
}

const Section kEfficiencyCurve{
    "catalog.electrical.efficiency",
    "efficiency curve over the load fraction",
    {numbers("load", kFractionOf, 2).req(), numbers("eta", kFractionOf, 2).req()}};

const Section kElectricalAny =
    electrical("catalog.electrical", "data/catalog/electrical/<name>.yaml", {});
const Section kBreaker = electrical(
    "catalog.electrical.breaker", "a breaker",
    {quantity("rated_current_A", Dim::None, {0.1, 1e5, false, false, "between 0.1 and 100000"})
         .req(),
     quantity("k_trip", Dim::None, {1, 3, false, false, "between 1 and 3"}).req(),
     quantity("magnetic_multiple", Dim::None, {1, 100, false, false, "between 1 and 100"}).req(),
     quantity("thermal_time_constant", Dim::Time, kJobTime).req()});
const Section kTransformer = electrical(
    "catalog.electrical.transformer", "a transformer",
    {quantity("rated_power_kVA", Dim::None, {1, 1e7, false, false, "between 1 and 10000000"}).req(),
     quantity("no_load_loss", Dim::Power, kHeatLoad).req(),
     quantity("load_loss", Dim::Power, kHeatLoad).req()});
const Section kUps = electrical(
    "catalog.electrical.ups", "a UPS module",
    {quantity("rated_power", Dim::Power, kPower).req(), map("efficiency", kEfficiencyCurve).req(),
     quantity("standby_power", Dim::Power, kHeatLoad).req(),
     quantity("battery_energy_kWh", Dim::None, {0, 1e7, false, false, "between 0 and 10000000"})
         .req(),
     quantity("recharge_power", Dim::Power, kHeatLoad),
     quantity("charge_efficiency", Dim::None, {0.1, 1, false, false, "between 0.1 and 1"})});
const Section kShelf =
    electrical("catalog.electrical.shelf", "a rack power shelf",
               {integer("psu_count", 1, 1000).req(), integer("psu_redundant", 0, 1000).req(),
                integer("shelves_per_rack", 1, 1000).req(), name("psu").req()});
const Section kPsu = electrical(
    "catalog.electrical.psu", "a power supply unit",
    {quantity("rated_power", Dim::Power, kPower).req(), map("efficiency", kEfficiencyCurve).req(),
     quantity("standby_power", Dim::Power, kHeatLoad).req()});
const Section kBuswayModel = electrical(
    "catalog.electrical.busway", "a busway model",
    {quantity("rated_current_A", Dim::None, {1, 1e5, false, false, "between 1 and 100000"}).req(),
     quantity("R_mohm_per_100ft", Dim::None, {0, 1e3, false, false, "between 0 and 1000"}).req(),
     quantity("X_mohm_per_100ft", Dim::None, {0, 1e3, false, false, "between 0 and 1000"}).req(),
     quantity("temperature_coefficient_per_K", Dim::None,
              {0, 0.01, false, false, "between 0 and 0.01"}),
     quantity("rated_ambient", Dim::Temperature, kTemperature),
     quantity("rated_rise", Dim::TemperatureDiff, kTempDiff),
     quantity("thermal_time_constant", Dim::Time, kJobTime).req()});

}  // namespace

const Section& seriesSection() {
  return kSeries;
}
const Section& facilityFile() {
  return kFacility;
}

// the sections an estimate file's cases share with a facility's jobs (estimate_keys.cpp)
const Section& workloadSection() {
  return kWorkload;
}
const Section& gpuMemorySection() {
  return kGpuMemory;
}
const Section& fabricSection() {
  return kFabric;
}

const Section& catalogSection(std::string_view kind) {
  if (kind == "fluids") return kFluid;
  if (kind == "coldplates") return kCatalogPlate;
  if (kind == "gpus") return kGpu;
  if (kind == "parts") return kPart;
  if (kind == "racks") return kCatalogRack;
  if (kind == "cdus") return kCatalogCdu;
  if (kind == "electrical.breaker") return kBreaker;
  if (kind == "electrical.transformer") return kTransformer;
  if (kind == "electrical.ups") return kUps;
  if (kind == "electrical.shelf") return kShelf;
  if (kind == "electrical.psu") return kPsu;
  if (kind == "electrical.busway") return kBuswayModel;
  return kElectricalAny;
}

}  // namespace dctwin::keys
