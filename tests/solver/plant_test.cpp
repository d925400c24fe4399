// plant_test.cpp: the EPW reader and its errors, the plant: section, and the plant coupled to a
// run (the facility water no longer a fixed boundary; energy and water sums)
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>

#include "models/psychro.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/input/weather_reader.h"

using namespace dctwin;

namespace {

const std::string kWeather = std::string(DCTWIN_SOURCE_DIR) + "/data/weather/";

std::string header(const std::string& comment = "SYNTHETIC test") {
  return "LOCATION,Test,XX,YYY,src,000000,10.00,20.00,1.0,100.0\n"
         "DESIGN CONDITIONS,0\nTYPICAL/EXTREME PERIODS,0\nGROUND TEMPERATURES,0\n"
         "HOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0\nCOMMENTS 1,\"" +
         comment +
         "\"\nCOMMENTS 2,\"\"\n"
         "DATA PERIODS,1,1,Data,Monday,1/1,12/31\n";
}
const char* kTail =
    "9999,9999,9999,9999,9999,9999,999999,999999,999999,9999,999,999,99,99,9999,99999,9,"
    "999999999,999,.999,999,99,999,999,99";
std::string row(int mo, int dy, int hr, double t, double dp, double rh, double p) {
  std::ostringstream os;
  os << "1999," << mo << "," << dy << "," << hr << ",60,?9?9," << t << "," << dp << "," << rh << ","
     << p << "," << kTail << "\n";
  return os.str();
}
// a whole year at 20 degC, dew point 10 degC, with row k replaced by `bad` (if k >= 0)
std::string year(int k = -1, const std::string& bad = "", int stop = 8760) {
  static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  std::string s = header();
  int n = 0;
  for (int mo = 1; mo <= 12; ++mo)
    for (int dy = 1; dy <= days[mo - 1]; ++dy)
      for (int hr = 1; hr <= 24; ++hr, ++n) {
        if (n >= stop) return s;
        s += n == k ? bad : row(mo, dy, hr, 20, 10, 52, 100000);
      }
  return s;
}
std::string errorsOf(const std::string& text) {
  try {
    parseEpw(text, "site.epw");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("EPW: a year of hourly rows, wet bulb by the psychrometric relations", "[weather]") {
  const WeatherSeries w = parseEpw(year(), "site.epw");
  REQUIRE(w.hours() == 8760);
  CHECK(w.synthetic);
  CHECK(w.start_weekday == 1);
  CHECK(w.elevation == 100.0);
  CHECK(w.T_db[0] == Approx(293.15));
  const double p_w = psychro::saturationPressure(283.15);
  CHECK(w.T_wb[100] == Approx(psychro::wetBulb(293.15, psychro::humidityRatio(p_w, 1e5), 1e5)));
  CHECK(w.T_wb[100] > 283.15);
  CHECK(w.T_wb[100] < 293.15);
  // between hours: linear; a value stands for the end of its hour
  CHECK(w.at(3600).T_db == Approx(293.15));
  CHECK(w.at(1800).T_db == Approx(293.15));
}

TEST_CASE("EPW errors: file:line, naming the column", "[weather]") {
  // truncated
  const std::string trunc = errorsOf(year(-1, "", 5000));
  CHECK(trunc.find("truncated: 5000 data rows") != std::string::npos);
  // wrong column count, at its line (8 header lines + row 11 = line 19)
  const std::string cols = errorsOf(year(10, "1999,1,1,11,60,?9,20,10\n"));
  CHECK(cols.find("site.epw:19") != std::string::npos);
  CHECK(cols.find("expected 35 comma-separated fields") != std::string::npos);
  // a missing hour: the next row is not the expected one
  const std::string gap = errorsOf(year(30, row(1, 2, 8, 20, 10, 52, 100000)));
  CHECK(gap.find("missing hours: expected month 1, day 2, hour 7") != std::string::npos);
  // out of range and missing codes, naming the column
  const std::string range = errorsOf(year(40, row(1, 2, 17, 85, 10, 52, 100000)));
  CHECK(range.find("column 7 (dry bulb temperature (degC))") != std::string::npos);
  CHECK(range.find("out of range") != std::string::npos);
  const std::string miss = errorsOf(year(41, row(1, 2, 18, 20, 10, 999, 100000)));
  CHECK(miss.find("column 9 (relative humidity (%))") != std::string::npos);
  CHECK(miss.find("missing value") != std::string::npos);
  std::string bad_num = row(1, 2, 19, 20, 10, 52, 100000);
  bad_num.replace(bad_num.find(",52,"), 4, ",x2,");
  const std::string num = errorsOf(year(42, bad_num));
  CHECK(num.find("column 9") != std::string::npos);
  CHECK(num.find("expected a number") != std::string::npos);
  // a broken header
  CHECK(errorsOf("LOCATION,a\n").find("truncated") != std::string::npos);
  std::string h = year();
  h.replace(h.find("DESIGN CONDITIONS"), 6, "DESIGX");
  CHECK(errorsOf(h).find("site.epw:2") != std::string::npos);
}

TEST_CASE("the sample weather files: synthetic, a year, their climates", "[weather]") {
  const WeatherSeries phx = readEpw(kWeather + "phoenix_hot_dry_synthetic.epw");
  const WeatherSeries ucc = readEpw(kWeather + "uccle_temperate_synthetic.epw");
  const WeatherSeries sgp = readEpw(kWeather + "singapore_hot_humid_synthetic.epw");
  for (const WeatherSeries* w : {&phx, &ucc, &sgp}) {
    CHECK(w->hours() == 8760);
    CHECK(w->synthetic);
  }
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / v.size() - 273.15;
  };
  // annual mean dry bulb / wet bulb of the typical-year files they follow (docs/models/weather.md):
  // Phoenix 23.8 / 13.2, Uccle 11.1 / 8.7, Singapore 27.5 / 25.1 degC
  CHECK(mean(phx.T_db) == Approx(23.8).margin(0.7));
  CHECK(mean(ucc.T_db) == Approx(11.1).margin(0.7));
  CHECK(mean(sgp.T_db) == Approx(27.5).margin(0.7));
  CHECK(mean(phx.T_wb) == Approx(13.2).margin(0.7));
  CHECK(mean(ucc.T_wb) == Approx(8.7).margin(0.7));
  CHECK(mean(sgp.T_wb) == Approx(25.1).margin(0.7));
}

TEST_CASE("constant and design-day weather", "[weather]") {
  const WeatherSeries c = constantWeather(303.15, 293.15, psychro::kPatm);
  CHECK(c.at(12345).T_wb == Approx(293.15).margin(1e-3));
  const WeatherSeries d = designDayWeather(313.15, 12, 295.15, psychro::kPatm);
  REQUIRE(d.hours() == 24);
  CHECK(d.at(15 * 3600).T_db == Approx(313.15));
  CHECK(d.at(3 * 3600).T_db == Approx(301.15));
  CHECK(d.at(15 * 3600).T_wb == Approx(295.15).margin(0.01));
  CHECK(d.at(86400 + 15 * 3600).T_db == Approx(313.15));  // repeats
  CHECK(secondsOfYear(7, 15, 0) == Approx((181 + 14) * 86400.0));
}

namespace {
std::string pod(const std::string& plant) {
  return R"(dctwin: 1
name: plantpod
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 600 L/min}
    piping:
      supply: {length: 10 m, diameter: 100 mm}
      return: {length: 10 m, diameter: 100 mm}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1, heat_load: 120 kW}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2, heat_load: 120 kW}
  - {name: A03, cdu: cdu1, type: gb200_nvl72, row: A, index: 3, heat_load: 120 kW}
  - {name: A04, cdu: cdu1, type: gb200_nvl72, row: A, index: 4, heat_load: 120 kW}
)" + plant;
}
const char* kDryPlant = R"(plant:
  supply_setpoint: 32 degC
  min_run_time: 10 min
  weather: {constant: {dry_bulb: %DB%, wet_bulb: %WB%}}
  pumps: {rated_flow: 600 L/min, rated_head: 250 kPa, header_dp: 50 kPa,
          design_flow: 1200 L/min, dp_setpoint: 200 kPa}
  dry_coolers: {count: 1, rated_capacity: 600 kW, rated_air_temperature: 35 degC,
                rated_inlet: 50 degC, rated_outlet: 40 degC, rated_fan_power: 24 kW}
  chillers: {count: 1, rated_capacity: 600 kW, condenser_approach: 5.55 K}
  tariff: {price: 0.1}
  grid_co2: 0.4
)";
std::string dryPod(const char* db, const char* wb) {
  std::string p = kDryPlant;
  p.replace(p.find("%DB%"), 4, db);
  p.replace(p.find("%WB%"), 4, wb);
  return pod(p);
}
std::string loadErrors(const std::string& yaml) {
  try {
    loadFacilityFromString(yaml, "pod.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("plant section: loads, and its errors name file, line and key", "[plant][loader]") {
  const FacilitySpec s = loadFacilityFromString(dryPod("20 degC", "15 degC"), "pod.yaml");
  REQUIRE(s.has_plant);
  CHECK(s.plant.params.T_set == Approx(305.15));
  CHECK(s.plant.params.has_chiller);
  CHECK(s.plant.params.dry.Q_nom == Approx(600e3));
  CHECK(s.plant.weather.hours() == 1);
  // both or neither rejection kind
  std::string both = dryPod("20 degC", "15 degC") + "  cooling_towers: {nominal_flow: 20 kg/s}\n";
  CHECK(loadErrors(both).find("exactly one of 'dry_coolers' and 'cooling_towers'") !=
        std::string::npos);
  // a wet bulb above the dry bulb
  CHECK(loadErrors(dryPod("20 degC", "25 degC")).find("wet bulb exceeds the dry bulb") !=
        std::string::npos);
  // a weather file that is not there, and one with an error: its own file:line
  std::string p = dryPod("20 degC", "15 degC");
  p.replace(p.find("{constant: {dry_bulb: 20 degC, wet_bulb: 15 degC}}"), 50,
            "{epw: /nonexistent/x.epw}");
  CHECK(loadErrors(p).find("cannot read the weather file: no such file") != std::string::npos);
  // an unknown key gets the table's did-you-mean
  std::string typo = dryPod("20 degC", "15 degC");
  typo.replace(typo.find("grid_co2"), 8, "grid_c02");
  CHECK(loadErrors(typo).find("grid_c02") != std::string::npos);
}

TEST_CASE("the weather's time zone: from the EPW LOCATION or plant.weather.time_zone",
          "[weather][calendar]") {
  // the EPW header's TimeZone (hours from UTC, field 9): the test header says +1
  CHECK(parseEpw(year(), "site.epw").utc_offset == 3600.0);
  CHECK(readEpw(kWeather + "phoenix_hot_dry_synthetic.epw").utc_offset == -7 * 3600.0);
  CHECK(readEpw(kWeather + "singapore_hot_humid_synthetic.epw").utc_offset == 8 * 3600.0);
  // an impossible zone: file:line, the column and what is expected
  std::string bad = year();
  bad.replace(bad.find(",1.0,100.0"), 10, ",19.0,100.0");
  const std::string e = errorsOf(bad);
  CHECK_THAT(e, Catch::Contains("site.epw:1:9") && Catch::Contains("'19.0'") &&
                    Catch::Contains("-12 ... +14"));
  // constant weather has none, unless given
  CHECK(std::isnan(constantWeather(303.15, 293.15, psychro::kPatm).utc_offset));
  CHECK(utcOffsetText(-7 * 3600.0) == "UTC-07:00");
  CHECK(utcOffsetText(5.5 * 3600.0) == "UTC+05:30");
  CHECK(utcOffsetText(0.0) == "UTC+00:00");
  CHECK(utcOffsetText(std::nan("")) == "unknown");
  std::string p = dryPod("20 degC", "15 degC");
  CHECK(std::isnan(loadFacilityFromString(p, "pod.yaml").plant.weather.utc_offset));
  p.replace(p.find("wet_bulb: 15 degC}}"), 19, "wet_bulb: 15 degC}, time_zone: 5.5 h}");
  CHECK(loadFacilityFromString(p, "pod.yaml").plant.weather.utc_offset == 5.5 * 3600.0);
  // an EPW file's own zone: time_zone may repeat it, never contradict it
  std::string epw = dryPod("20 degC", "15 degC");
  epw.replace(epw.find("{constant: {dry_bulb: 20 degC, wet_bulb: 15 degC}}"), 50,
              "{epw: " + kWeather + "phoenix_hot_dry_synthetic.epw, time_zone: -5 h}");
  CHECK_THAT(loadErrors(epw), Catch::Contains("pod.yaml:") && Catch::Contains("time_zone") &&
                                  Catch::Contains("the weather file says UTC-7"));
  epw.replace(epw.find("time_zone: -5 h"), 15, "time_zone: -7 h");
  CHECK(loadErrors(epw).empty());
}

TEST_CASE("plant coupled to a run: supply on the set point, energy and water sums",
          "[plant][engine]") {
  // a mild day: free cooling holds the set point; the plant's outputs feed the CDU
  FacilityModel m = compileFacility(loadFacilityFromString(dryPod("20 degC", "14 degC"), "p.yaml"));
  REQUIRE(m.has_plant);
  State st = makeState(m, 305.15);
  RunOptions ro;
  ro.duration = 3600;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  const PlantLayerState& pl = st.plant;
  CHECK(pl.s.T_supply == Approx(305.15).margin(0.05));
  CHECK(pl.s.mode == PlantMode::Free);
  CHECK(pl.mode_time[0] == Approx(3600).margin(61));
  CHECK(pl.E_it == Approx(480e3 * 3600).epsilon(0.02));
  CHECK(pl.E_fan > 0);
  CHECK(pl.E_chiller == 0);
  // the plant's heat balance over the run: heat rejected = heat from the water + compressor work
  CHECK(pl.E_rejected == Approx(pl.E_load + pl.E_chiller).epsilon(1e-3));
  // the heat the plant takes from the water matches what the CDUs put in (held values: 1 %)
  CHECK(pl.E_load == Approx(st.sig.heat_out_fws * 3600).epsilon(0.03));
  // PUE numerator: IT + CDU pumps + plant; cost and CO2 follow the facility energy
  const double kWh = pl.facilityEnergy() / 3.6e6;
  CHECK(pl.cost == Approx(0.1 * kWh).epsilon(1e-6));
  CHECK(pl.co2 == Approx(0.4 * kWh).epsilon(1e-6));

  // a hot day: the chiller trims, the supply still on the set point, more energy
  FacilityModel h = compileFacility(loadFacilityFromString(dryPod("38 degC", "22 degC"), "p.yaml"));
  State sh = makeState(h, 305.15);
  REQUIRE(simulate(h, sh, ro, nullptr).ok);
  CHECK(sh.plant.s.T_supply == Approx(305.15).margin(0.05));
  CHECK(sh.plant.E_chiller > 0);
  CHECK(sh.plant.s.mode != PlantMode::Free);
  CHECK(sh.plant.facilityEnergy() > pl.facilityEnergy());
  CHECK(sh.plant.E_rejected == Approx(sh.plant.E_load + sh.plant.E_chiller).epsilon(1e-3));
}

TEST_CASE("without a plant the facility water stays the fixed boundary", "[plant][engine]") {
  FacilityModel m = compileFacility(loadFacilityFromString(pod(""), "p.yaml"));
  CHECK_FALSE(m.has_plant);
  State st = makeState(m, 305.15);
  RunOptions ro;
  ro.duration = 600;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  CHECK(st.sig.T_fws[0] == Approx(305.15));
  CHECK(st.plant.E_it == 0);
}

TEST_CASE("plant faults as scenario events: chiller trip, pump failure, make-up water",
          "[plant][faults]") {
  auto run = [](const std::string& events) {
    FacilitySpec spec = loadFacilityFromString(dryPod("38 degC", "22 degC"), "p.yaml");
    applyScenario(loadScenarioFromString("dctwin_scenario: 1\nevents:\n" + events, "s.yaml"), spec);
    FacilityModel m = compileFacility(spec);
    State st = makeState(m, 305.15);
    RunOptions ro;
    ro.duration = 2400;
    REQUIRE(simulate(m, st, ro, nullptr).ok);
    return st;
  };
  // the chiller trips: the dry cooler alone cannot hold 32 degC on a 38 degC day
  const State trip = run("  - {time: 1200 s, chiller_trip: 1}\n");
  CHECK(trip.plant.s.chillers_on == 0);
  CHECK(trip.plant.s.T_supply > 306.15);
  bool logged = false;
  for (const auto& ev : trip.events) logged |= ev.kind == "chiller_trip";
  CHECK(logged);
  // one of the two primary pumps stops: the other holds the dp at this part flow; both: no flow
  const State one = run("  - {time: 1200 s, plant_pump_failure: 1}\n");
  CHECK(one.plant.s.dp_cdu == Approx(200e3));
  const State base = run("  - {time: 600 s, makeup_water_loss: true}\n");  // no pads: no effect
  CHECK(one.plant.s.pump_speed > base.plant.s.pump_speed + 0.05);          // one pump runs faster
  const State both = run("  - {time: 2330 s, plant_pump_failure: 2}\n");
  CHECK(both.plant.s.dp_cdu == 0);
  CHECK(both.sig.m_prim[0] == Approx(0).margin(1e-9));
  CHECK(base.plant.s.makeup_lost);
  // a plant event on a facility without a plant is refused
  FacilitySpec bare = loadFacilityFromString(pod(""), "p.yaml");
  CHECK_THROWS_AS(
      applyScenario(
          loadScenarioFromString("dctwin_scenario: 1\nevents:\n  - {time: 0 s, chiller_trip: 1}\n",
                                 "s.yaml"),
          bare),
      LoadFailure);
}

TEST_CASE("air handlers on a plant: their heat is in the plant's load, their energy in PUE",
          "[plant][engine][air_handler]") {
  // the pod's racks reject ~13 % of their heat to the room air; two fan-wall modules on chilled
  // water hold it at 36 degC (docs/models/air_handler.md)
  std::string text = dryPod("20 degC", "14 degC");
  text.replace(text.find("site: {ambient_temperature: 25 degC}"), 36,
               "site: {ambient_temperature: 25 degC, room_air: {volume: 400 m3, air_handlers: "
               "{count: 2, room_temperature: 36 degC}}}");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "p.yaml"));
  FacilityModel m0 =
      compileFacility(loadFacilityFromString(dryPod("20 degC", "14 degC"), "p.yaml"));
  State st = makeState(m, 305.15), s0 = makeState(m0, 305.15);
  RunOptions ro;
  ro.duration = 3600;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  REQUIRE(simulate(m0, s0, ro, nullptr).ok);
  const PlantLayerState& pl = st.plant;
  REQUIRE(st.sig.air_removed > 20e3);
  CHECK(st.y[m.room_state] == Approx(309.15).margin(0.1));
  // the air side's heat joins the return: the plant takes the CDUs' heat and the coils' + chiller's
  CHECK(pl.E_air_water == Approx((st.sig.air_removed + st.sig.ah_P_chiller) * 3600).epsilon(0.05));
  CHECK(pl.E_load == Approx(st.sig.heat_out_fws * 3600 + pl.E_air_water).epsilon(0.03));
  CHECK(pl.E_load > s0.plant.E_load + 0.9 * pl.E_air_water);
  CHECK(pl.E_rejected == Approx(pl.E_load + pl.E_chiller).epsilon(1e-3));
  // the air handlers' fans and chiller are in the facility energy, and the plant's own energy rises
  CHECK(pl.E_air_handlers == Approx((st.sig.ah_P_fan + st.sig.ah_P_chiller) * 3600).epsilon(0.05));
  CHECK(pl.facilityEnergy() - s0.plant.facilityEnergy() > pl.E_air_handlers);
  CHECK(pl.plantEnergy() > s0.plant.plantEnergy());
  CHECK(pl.facilityEnergy() / pl.E_it > s0.plant.facilityEnergy() / s0.plant.E_it);
}
