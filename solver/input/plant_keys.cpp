// plant_keys.cpp: the key table of a facility's heat-rejection plant and its weather
// (docs/facility-format.md "plant", docs/models/plant.md, docs/models/weather.md)
#include "solver/input/keys.h"

namespace dctwin::keys {

namespace {

const Range kT{223.15, 373.15, false, false, "between -50 degC and 100 degC"};
const Range kDT{0, 50, true, false, "> 0 K and <= 50 K"};
const Range kDT0{0, 50, false, false, ">= 0 K and <= 50 K"};
const Range kP{0, 1e9, true, true, "> 0 W and < 1 GW"};
const Range kFrac{0, 1, true, false, "> 0 and <= 1"};
const Range kFrac0{0, 1, false, false, "between 0 and 1"};
const Range kDp{0, 1e7, true, true, "> 0 and < 100 bar"};
const Range kFlowV{0, 100, true, true, "> 0 and < 100 m3/s"};
const Range kCycles{1.5, 20, false, false, "between 1.5 and 20"};

const Section kWeatherConstant{
    "facility.plant.weather.constant",
    "a constant outdoor condition",
    {quantity("dry_bulb", Dim::Temperature, kT).req(),
     quantity("wet_bulb", Dim::Temperature, kT).req().docs("at most the dry bulb"),
     quantity("pressure", Dim::Pressure, {31000, 120000, false, false, "31 ... 120 kPa"})
         .dflt("101.325 kPa")}};

const Section kWeatherDesignDay{
    "facility.plant.weather.design_day",
    "an ASHRAE-style design day: dry bulb peaking at 15:00, coincident wet bulb's humidity held",
    {quantity("dry_bulb_max", Dim::Temperature, kT).req().docs("e.g. the 0.4 % design dry bulb"),
     quantity("daily_range", Dim::TemperatureDiff, kDT0).req(),
     quantity("wet_bulb", Dim::Temperature, kT).req().docs("mean coincident wet bulb at the peak"),
     quantity("pressure", Dim::Pressure, {31000, 120000, false, false, "31 ... 120 kPa"})
         .dflt("101.325 kPa")}};

const Section kWeather{
    "facility.plant.weather",
    "the outdoor air at the plant: exactly one of epw, constant and design_day",
    {text("epw").docs("an EnergyPlus weather file, relative to the facility file"),
     map("constant", kWeatherConstant), map("design_day", kWeatherDesignDay),
     integer("start_month", 1, 12).dflt("1").docs("the run's t = 0 in the weather year"),
     integer("start_day", 1, 31).dflt("1"), integer("start_hour", 0, 23).dflt("0"),
     quantity("time_zone", Dim::Time, {-12 * 3600.0, 14 * 3600.0, false, false, "-12 h ... 14 h"})
         .dflt("the EPW file's")
         .docs("the weather's local standard time as an offset from UTC, e.g. \"-7 h\" "
               "(Phoenix); an EPW file gives its own (LOCATION), which this must equal; "
               "constant and design-day weather have none unless given")}};

const Section kPlantPumps{
    "facility.plant.pumps",
    "primary (facility-water) pumps in parallel, speed on a dp set point at the CDUs",
    {integer("count", 1, 100).dflt("2"), integer("running", 0, 100).dflt("2").docs("at most count"),
     quantity("rated_flow", Dim::VolumeFlow, kFlowV).req().docs("per pump"),
     quantity("rated_head", Dim::Pressure, kDp).req().docs("per pump at rated flow"),
     quantity("shutoff_ratio", Dim::None, {1, 3, true, false, "> 1 and <= 3"})
         .dflt("1.3")
         .docs("shut-off head / rated head"),
     quantity("efficiency", Dim::None, kFrac).dflt("0.7").docs("wire to water"),
     quantity("min_speed", Dim::None, kFrac).dflt("0.3"),
     quantity("header_dp", Dim::Pressure, kDp).req().docs("headers and pipes at design_flow"),
     quantity("design_flow", Dim::VolumeFlow, kFlowV).req().docs("total"),
     quantity("dp_setpoint", Dim::Pressure, kDp).req().docs("held across each CDU")}};

const Section kDryCoolers{
    "facility.plant.dry_coolers",
    "dry coolers directly on the facility water; rated point of one unit (default: BAC Trillium "
    "TDFS1238N-C60ET40B)",
    {integer("count", 1, 1000).dflt("1"),
     quantity("rated_capacity", Dim::Power, kP).dflt("2931 kW"),
     quantity("rated_air_temperature", Dim::Temperature, kT).dflt("35 degC"),
     quantity("rated_inlet", Dim::Temperature, kT).dflt("46.11 degC"),
     quantity("rated_outlet", Dim::Temperature, kT).dflt("40.55 degC"),
     quantity("rated_fan_power", Dim::Power, kP).dflt("117.68 kW"),
     quantity("min_speed", Dim::None, kFrac).dflt("0.1").docs("the fans cycle below"),
     boolean("adiabatic")
         .dflt("false")
         .docs("pre-cooling pads wetted when the fans at full "
               "speed miss the set point"),
     quantity("pad_effectiveness", Dim::None, kFrac).dflt("0.8"),
     quantity("cycles", Dim::None, kCycles).dflt("3").docs("pad water cycles of concentration"),
     quantity("wet_above", Dim::Temperature, kT).docs("pads only above this dry bulb")}};

const Section kTowers{
    "facility.plant.cooling_towers",
    "open cooling towers (Merkel) through a plate HX; nominal point of one cell (default: "
    "EnergyPlus's 35 -> 29.44 degC at 25.56 degC wet bulb)",
    {integer("count", 1, 1000).dflt("1"),
     quantity("nominal_flow", Dim::MassFlow, {0, 1e4, true, true, "> 0 and < 10000 kg/s"})
         .req()
         .docs("water per cell"),
     quantity("nominal_wet_bulb", Dim::Temperature, kT).dflt("25.56 degC"),
     quantity("nominal_inlet", Dim::Temperature, kT).dflt("35 degC"),
     quantity("nominal_outlet", Dim::Temperature, kT).dflt("29.44 degC"),
     quantity("water_air_ratio", Dim::None, {0.1, 10, false, false, "0.1 ... 10"}).dflt("1.2"),
     quantity("fan_power_per_flow", Dim::None, {0, 1e5, true, false, "> 0 W per kg/s"})
         .dflt("1833")
         .docs("nominal fan power / nominal water flow, W per kg/s"),
     quantity("min_speed", Dim::None, kFrac).dflt("0.2"),
     quantity("drift", Dim::None, kFrac0).dflt("8e-5").docs("of the nominal flow at full fan"),
     quantity("cycles", Dim::None, kCycles).dflt("3").docs("cycles of concentration"),
     quantity("hx_approach", Dim::TemperatureDiff, kDT0).dflt("2 K").docs("plate HX")}};

const Section kChillers{
    "facility.plant.chillers",
    "electric chillers in series after the economizer (EnergyPlus EIR curves of the York YT "
    "1055 kW record, scaled to the rating)",
    {integer("count", 0, 100).dflt("1"), quantity("rated_capacity", Dim::Power, kP).req(),
     quantity("rated_cop", Dim::None, {1, 20, false, false, "between 1 and 20"}).dflt("5.96"),
     quantity("condenser_approach", Dim::TemperatureDiff, kDT)
         .dflt("3.9 K")
         .docs("entering condenser water over the wet bulb (towers) or dry bulb (dry coolers)"),
     quantity("condenser_fan_ratio", Dim::None, kFrac0)
         .dflt("0.026")
         .docs("condenser fan power per heat rejected")}};

const Section kReset{
    "facility.plant.reset",
    "supply set point reset: clamp(outdoor + offset, min, max), outdoor = wet bulb (towers) or "
    "dry bulb (dry coolers)",
    {quantity("offset", Dim::TemperatureDiff, {-30, 50, false, false, "-30 ... 50 K"}).req(),
     quantity("min", Dim::Temperature, kT).req(), quantity("max", Dim::Temperature, kT).req()}};

const Section kTariff{
    "facility.plant.tariff",
    "electricity price: flat, or one price per hour of the day",
    {quantity("price", Dim::None, {0, 1e3, false, false, ">= 0"}).dflt("0").docs("per kWh (flat)"),
     numbers("time_of_use", {0, 1e3, false, false, ">= 0"}, 24)
         .docs("24 prices per kWh, hour 0 ... 23 (replaces price)"),
     name("currency").dflt("EUR")}};

}  // namespace

const Section& plantSection() {
  static const Section s{
      "facility.plant",
      "the heat-rejection plant on the facility water (docs/models/plant.md); without it the "
      "facility water is the fixed boundary of facility_water",
      {quantity("supply_setpoint", Dim::Temperature, kT).req().docs("facility-water supply"),
       map("reset", kReset), quantity("deadband", Dim::TemperatureDiff, kDT).dflt("0.5 K"),
       quantity("min_run_time", Dim::Time, {0, 86400, false, false, "0 ... 1 d"}).dflt("20 min"),
       quantity("step", Dim::Time, {1, 3600, false, false, "1 s ... 1 h"}).dflt("60 s"),
       map("weather", kWeather).req(), map("pumps", kPlantPumps).req(),
       map("dry_coolers", kDryCoolers), map("cooling_towers", kTowers), map("chillers", kChillers),
       map("tariff", kTariff),
       quantity("grid_co2", Dim::None, {0, 5, false, false, "0 ... 5 kg/kWh"})
           .dflt("0")
           .docs("grid emission factor, kg CO2 per kWh")}};
  return s;
}

}  // namespace dctwin::keys
