// loader_test.cpp: facility loading, catalog resolution, every error class, hostile input
//
// the small catalog in tests/data/loader/catalog keeps these tests independent of the real
// catalog's numbers; the real catalog and facilities are checked to load, not for values.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "solver/input/loader.h"

using namespace dctwin;
namespace fs = std::filesystem;

namespace {

const std::string kLoaderDir = std::string(DCTWIN_TEST_DATA_DIR) + "/loader";
const std::string kRealData = std::string(DCTWIN_SOURCE_DIR) + "/data";

LoadOptions testOptions() {
  LoadOptions o;
  o.data_dirs = {kLoaderDir};
  return o;
}

// the errors of loading `yaml` as pod.yaml against the test catalog; empty when it loads
std::vector<LoadError> errorsOf(const std::string& yaml) {
  try {
    loadFacilityFromString(yaml, "pod.yaml", kLoaderDir, testOptions());
  } catch (const LoadFailure& e) {
    return e.errors();
  }
  return {};
}

std::string listing(const std::vector<LoadError>& errors) {
  std::string s;
  for (const auto& e : errors) s += e.format() + "\n";
  return s;
}

// `text` with `from` (which must occur exactly once) replaced by `to`
std::string patch(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  REQUIRE(text.find(from, pos + 1) == std::string::npos);
  return text.replace(pos, from.size(), to);
}

// loading `yaml` gives exactly one error, at `line`, whose formatted text holds `fragment`
void expectError(const std::string& yaml, int line, const std::string& fragment) {
  const auto errors = errorsOf(yaml);
  INFO(listing(errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].loc.line == line);
  CHECK_THAT(errors[0].format(), Catch::Contains(fragment));
}

// loading `yaml` gives exactly these errors (line, fragment), in order
void expectErrors(const std::string& yaml, const std::vector<std::pair<int, std::string>>& want) {
  const auto errors = errorsOf(yaml);
  INFO(listing(errors));
  REQUIRE(errors.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(errors[i].loc.line == want[i].first);
    CHECK_THAT(errors[i].format(), Catch::Contains(want[i].second));
  }
}

// loading must fail (never crash) and finish. The time bound is a hang guard only, generous
// enough for sanitizer builds on a loaded 2-core machine; speed goals live in tests/bench
std::vector<LoadError> mustFail(const std::string& text, double max_seconds = 300.0) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<LoadError> errors;
  try {
    loadFacilityFromString(text, "hostile.yaml", kLoaderDir, testOptions());
  } catch (const LoadFailure& e) {
    errors = e.errors();
  }
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(dt < max_seconds);
  CHECK_FALSE(errors.empty());
  return errors;
}

// a valid facility; the line numbers in the comments are used by the tests
const std::string kBase = R"(dctwin: 1
name: pod
site:
  ambient_temperature: 25 degC
facility_water:
  supply_temperature: 30 degC
  differential_pressure: 150 kPa
cdus:
  - name: cdu1
    model: test_cdu
    piping:
      supply: {length: 30 m, diameter: 154 mm}
      return: {length: 30 m, diameter: 154 mm}
racks:
  - name: A01
    cdu: cdu1
    type: test_rack
    row: A
    index: 1
    heat_load: 120 kW
)";
// lines:  1 dctwin, 4 ambient_temperature, 5 facility_water, 6 supply_temperature, 9 cdus[0],
//        10 model, 11 piping, 12 supply, 14 racks, 15 racks[0], 16 cdu, 17 type, 18 row,
//        19 index, 20 heat_load

const std::string kRack2 = R"(  - name: A02
    cdu: cdu1
    type: test_rack
    row: A
    index: 2
    heat_load: 100 kW
)";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

//---------------------------------------------------------------------------------------------
// good files

TEST_CASE("the base test facility loads", "[loader]") {
  const auto errors = errorsOf(kBase);
  INFO(listing(errors));
  CHECK(errors.empty());
}

TEST_CASE("minimal.yaml loads with exact SI values", "[loader]") {
  const std::string path = kLoaderDir + "/minimal.yaml";
  FacilitySpec s;
  try {
    s = loadFacility(path, testOptions());
  } catch (const LoadFailure& e) {
    FAIL(e.what());
  }
  CHECK(s.name == "minimal_pod");
  CHECK(s.description == "three racks on one CDU");
  CHECK(s.file == path);
  CHECK(s.text == readFile(path));
  CHECK(s.T_ambient == Approx(298.15));

  // facility water: a linear series, pressure mode
  const auto& fw = s.facility_water;
  CHECK(fw.fluid == "water");
  CHECK(fw.T_supply.kind == TimeSeries::Kind::Linear);
  CHECK(fw.T_supply.t == std::vector<double>{0.0, 3600.0});
  REQUIRE(fw.T_supply.v.size() == 2);
  CHECK(fw.T_supply.v[0] == Approx(303.15));
  CHECK(fw.T_supply.v[1] == Approx(305.15));
  CHECK(fw.mode == FacilityWaterSpec::Mode::Pressure);
  CHECK(fw.dp == Approx(150e3));

  // fluids: only the ones used; pg25's columns are in another order in its file
  REQUIRE(s.fluids.size() == 2);
  const FluidData& pg = s.fluids.at("pg25");
  CHECK(pg.name == "pg25");
  CHECK(pg.T == std::vector<double>{263.15, 293.15, 353.15});
  CHECK(pg.rho == std::vector<double>{1030, 1020, 990});
  CHECK(pg.cp == std::vector<double>{3800, 3900, 4000});
  CHECK(pg.mu == std::vector<double>{0.008, 0.0025, 0.0008});
  CHECK(pg.k == std::vector<double>{0.45, 0.48, 0.52});
  CHECK(pg.T_min == Approx(263.15));
  CHECK(pg.T_max == Approx(353.15));
  CHECK(s.fluids.at("water").rho[1] == Approx(988));

  // cold plate from the catalog
  REQUIRE(s.coldplates.size() == 1);
  const ColdPlateSpec& cp = s.coldplates.at("test_plate");
  CHECK(cp.name == "test_plate");
  CHECK(cp.time_constant == Approx(3));
  CHECK(cp.dp_nominal == Approx(50e3));
  CHECK(cp.flow_nominal == Approx(10.0 / 60000));
  CHECK(cp.dp_exponent == Approx(1.85));
  REQUIRE(cp.laws.size() == 2);
  const auto& law = cp.laws.at("pg25");
  CHECK(law.R_inf == Approx(0.018));
  CHECK(law.a == Approx(0.0065));
  CHECK(law.b == Approx(1.2));
  REQUIRE(law.table_flow.size() == 3);
  CHECK(law.table_flow[0] == Approx(0.5 / 60000));
  CHECK(law.table_flow[2] == Approx(2.0 / 60000));
  CHECK(law.table_R == std::vector<double>{0.03, 0.025, 0.02});
  CHECK(cp.laws.at("water").table_flow.empty());
  CHECK(cp.laws.at("water").R_inf == Approx(0.014));

  // rack types: the catalog one and a derived one overriding two keys
  REQUIRE(s.rack_types.size() == 2);
  const RackTypeSpec& base = s.rack_types.at("test_rack");
  CHECK(base.nominal_power == Approx(120e3));
  CHECK(base.manifold_exponent == Approx(1.89));
  const RackTypeSpec& t = s.rack_types.at("test_rack_130");
  CHECK(t.name == "test_rack_130");
  CHECK(t.nominal_power == Approx(130e3));
  CHECK(t.manifold_exponent == Approx(2.0));
  CHECK(t.manifold_dp_nominal == Approx(68.9e3));
  CHECK(t.manifold_flow_nominal == Approx(130.0 / 60000));
  CHECK(t.liquid_fraction == Approx(0.85));
  CHECK(t.gpu_heat_fraction == Approx(0.72));
  CHECK(t.trays == 18);
  CHECK(t.gpus_per_tray == 4);
  CHECK(t.coldplate == "test_plate");
  CHECK(t.coldplate_paths == 72);
  CHECK(t.design_flow == Approx(130.0 / 60000));
  CHECK(t.coolant_volume == Approx(0.020));
  CHECK(t.balancing_valve_kv == Approx(25));
  CHECK(t.max_working_pressure == Approx(5e5));
  CHECK(t.supply_temperature_max == Approx(318.15));
  CHECK(t.loc.line == 12);

  // CDU: catalog values, facility overrides merged key by key
  REQUIRE(s.cdus.size() == 1);
  const CduSpec& c = s.cdus[0];
  CHECK(c.name == "cdu1");
  CHECK(c.model == "test_cdu");
  CHECK(c.fluid == "pg25");
  CHECK(c.loc.file == path);
  CHECK(c.loc.line == 17);
  CHECK(c.loc.column == 5);
  CHECK(c.loc.path == "cdus[0]");
  CHECK(c.hex_capacity == Approx(1368e3));
  CHECK(c.hex_approach == Approx(4));
  CHECK(c.hex_T_primary_rated == Approx(301.15));
  CHECK(c.hex_flow_secondary.mass);
  CHECK(c.hex_flow_secondary.value == Approx(20.6));
  CHECK_FALSE(c.hex_flow_primary.mass);
  CHECK(c.hex_flow_primary.value == Approx(0.02));
  CHECK(c.hex_dp_primary == Approx(84e3));
  CHECK(c.hex_dp_secondary == Approx(80e3));
  CHECK(c.hex_holdup_primary == Approx(0.07));
  CHECK(c.hex_holdup_secondary == Approx(0.06));
  CHECK(c.hex_flow_exponent == Approx(0.8));
  CHECK(c.pump_count == 3);
  CHECK(c.pump_running == 3);  // facility override
  CHECK(c.pump_rated_flow == Approx(0.01));
  CHECK(c.pump_rated_head == Approx(334e3));
  CHECK(c.pump_curve_flow == std::vector<double>{0, 0.5, 1.0, 1.2});
  CHECK(c.pump_curve_head == std::vector<double>{1.3, 1.2, 1.0, 0.8});
  CHECK(c.pump_eta_hyd == Approx(0.75));
  CHECK(c.pump_eta_mot == Approx(0.9));
  CHECK(c.pump_rise_time == Approx(20));
  CHECK(c.pump_min_speed == Approx(0.2));
  CHECK(c.valve_rangeability == Approx(50));
  CHECK(c.valve_leakage == Approx(1e-4));
  CHECK(c.valve_dp_nominal == Approx(84e3));
  CHECK(c.valve_stroke_time == Approx(120));
  CHECK(c.tank_volume == Approx(0.024));
  CHECK(c.tank_precharge == Approx(1.5e5));
  CHECK(c.internal_volume == Approx(0.12));
  CHECK(c.T_supply_set == Approx(309.15));  // facility override
  CHECK(c.pump_mode == CduSpec::PumpMode::Flow);
  CHECK(c.flow_set == Approx(1100.0 / 60000));  // facility override
  CHECK(c.dp_set == Approx(250e3));             // same map, kept from the catalog
  CHECK(c.temp_k == Approx(0.1));
  CHECK(c.temp_Ti == Approx(90));
  CHECK(c.pump_k == Approx(0.5));
  CHECK(c.pump_Ti == Approx(15));
  CHECK(c.T_supply_min == Approx(283.15));
  CHECK(c.T_supply_max == Approx(325.15));
  CHECK(c.p_secondary_max == Approx(6e5));
  CHECK(c.p_primary_max == Approx(10e5));
  CHECK(c.supply_pipe.length == Approx(30));
  CHECK(c.supply_pipe.diameter == Approx(0.154));
  CHECK(c.supply_pipe.roughness == Approx(5e-5));
  CHECK(c.supply_pipe.segments == 12);
  CHECK(c.return_pipe.length == Approx(25));
  CHECK(c.return_pipe.diameter == Approx(0.1524));
  CHECK(c.return_pipe.roughness == Approx(4.5e-5));  // default
  CHECK(c.return_pipe.segments == 10);               // default

  // racks: constant, steps and CSV loads; valve defaults from the rack type
  REQUIRE(s.racks.size() == 3);
  const RackSpec& r1 = s.racks[0];
  CHECK(r1.name == "A01");
  CHECK(r1.cdu == "cdu1");
  CHECK(r1.type == "test_rack");
  CHECK(r1.row == "A");
  CHECK(r1.index == 1);
  CHECK(r1.valve_opening == Approx(0.5));
  CHECK(r1.valve_kv == Approx(20));
  CHECK(r1.heat_load.kind == TimeSeries::Kind::Constant);
  CHECK(r1.heat_load.t == std::vector<double>{0.0});
  CHECK(r1.heat_load.v == std::vector<double>{120e3});
  CHECK(r1.loc.line == 26);
  const RackSpec& r2 = s.racks[1];
  CHECK(r2.type == "test_rack_130");
  CHECK(r2.valve_opening == Approx(1.0));
  CHECK(r2.valve_kv == Approx(25));
  CHECK(r2.heat_load.kind == TimeSeries::Kind::Steps);
  CHECK(r2.heat_load.t == std::vector<double>{0.0, 600.0});
  CHECK(r2.heat_load.v == std::vector<double>{60e3, 120e3});
  const RackSpec& r3 = s.racks[2];
  CHECK(r3.index == 3);
  CHECK(r3.heat_load.kind == TimeSeries::Kind::Linear);
  CHECK(r3.heat_load.t == std::vector<double>{0.0, 60.0, 120.0});
  REQUIRE(r3.heat_load.v.size() == 3);
  CHECK(r3.heat_load.v[0] == Approx(50e3));
  CHECK(r3.heat_load.v[1] == Approx(100e3));
  CHECK(r3.heat_load.v[2] == Approx(80.5e3));
}

TEST_CASE("facility cold plates, explicit CDUs, flow mode and time-series forms", "[loader]") {
  const std::string yaml = R"(dctwin: 1
name: explicit
site: {ambient_temperature: 300 K}
facility_water:
  supply_temperature: {steps: [[0 s, 25 degC], [2 h, 30 degC]]}
  flow: 20 kg/s
coldplates:
  - name: my_plate
    pressure_drop: {dp_nominal: 40 kPa, flow_nominal: 2 L/min}
    resistance:
      pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}}
rack_types:
  - name: custom
    nominal_power: 80 kW
    coldplate: my_plate
    design_flow: 90 L/min
    manifold: {dp_nominal: 50 kPa, flow_nominal: 90 L/min}
    coolant_volume: 15 L
    balancing_valve_kv: 20
    max_working_pressure: 5 bar
    supply_temperature_max: 45 degC
cdus:
  - name: c1
    heat_exchanger:
      rated_capacity: 1 MW
      rated_approach: 3 K
      rated_primary_supply_temperature: 27 degC
      rated_flow_secondary: 900 L/min
      rated_flow_primary: 15 kg/s
      dp_primary: 80 kPa
      dp_secondary: 80 kPa
      holdup_primary: 50 L
      holdup_secondary: 50 L
    pumps:
      rated_flow: 900 L/min
      rated_head: 3 bar
      curve: {flow_ratio: [0, 1], head_ratio: [1.3, 1]}
    primary_valve: {dp_nominal: 80 kPa}
    expansion_tank: {volume: 30 L, precharge: 0 bar}
    control: {supply_temperature: 30 degC, pump_mode: dp, dp_setpoint: 2 bar,
              temperature_pi: {k: 0.2 1/K}}
    limits: {supply_temperature_min: 15 degC, supply_temperature_max: 45 degC,
             secondary_pressure_max: 6 bar, primary_pressure_max: 10 bar}
    piping:
      supply: {length: 10 m, diameter: 100 mm, segments: 1}
      return: {length: 10 m, diameter: 100 mm, segments: 200}
racks:
  - {name: R1, cdu: c1, type: custom, row: B, index: 0,
     heat_load: {series: [[0 s, 10 kW], [30 s, 70 kW]]}}
)";
  FacilitySpec s;
  try {
    s = loadFacilityFromString(yaml, "explicit.yaml", kLoaderDir, testOptions());
  } catch (const LoadFailure& e) {
    FAIL(e.what());
  }
  CHECK(s.T_ambient == Approx(300));
  CHECK(s.facility_water.mode == FacilityWaterSpec::Mode::Flow);
  CHECK(s.facility_water.flow.mass);
  CHECK(s.facility_water.flow.value == Approx(20));
  CHECK(s.facility_water.T_supply.kind == TimeSeries::Kind::Steps);
  const CduSpec& c = s.cdus.at(0);
  CHECK(c.model.empty());
  CHECK(c.fluid == "pg25");  // default
  CHECK(c.pump_count == 1);
  CHECK(c.pump_running == 1);
  CHECK(c.pump_eta_hyd == Approx(0.7));  // spec default
  CHECK(c.pump_mode == CduSpec::PumpMode::Dp);
  CHECK(c.dp_set == Approx(2e5));
  CHECK(c.temp_k == Approx(0.2));
  CHECK(c.tank_precharge == 0);
  CHECK(c.supply_pipe.segments == 1);
  CHECK(c.return_pipe.segments == 200);
  CHECK(s.coldplates.at("my_plate").dp_exponent == Approx(1.85));   // default
  CHECK(s.coldplates.at("my_plate").time_constant == Approx(2.0));  // default
  CHECK(s.rack_types.at("custom").liquid_fraction == Approx(0.8));  // default
  CHECK(s.racks.at(0).valve_kv == Approx(20));
  CHECK(s.racks.at(0).heat_load.kind == TimeSeries::Kind::Linear);
  // only the fluids in use are resolved
  CHECK(s.fluids.size() == 2);
}

TEST_CASE("the real catalog entries load", "[loader]") {
  const fs::path cat = fs::path(kRealData) / "catalog";
  auto stems = [&](const char* kind) {
    std::vector<std::string> r;
    std::error_code ec;
    for (fs::directory_iterator it(cat / kind, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".yaml") r.push_back(it->path().stem().string());
    std::sort(r.begin(), r.end());
    return r;
  };
  const auto cdus = stems("cdus"), racks = stems("racks"), fluids = stems("fluids");
  if (cdus.empty() || racks.empty() || fluids.empty()) {
    WARN("the real catalog (data/catalog) is not there yet; skipped");
    return;
  }
  LoadOptions real;
  real.data_dirs = {kRealData};
  // one facility per facility-water fluid, with every CDU model feeding every rack type
  for (const auto& water : fluids) {
    std::string y =
        "dctwin: 1\nname: catalog_check\nsite: {ambient_temperature: 25 degC}\n"
        "facility_water: {fluid: " +
        water + ", supply_temperature: 25 degC, differential_pressure: 1 bar}\ncdus:\n";
    for (const auto& c : cdus)
      y += "  - {name: " + c + ", model: " + c +
           ", piping: {supply: {length: 20 m, diameter: 150 mm}, return: {length: 20 m, "
           "diameter: 150 mm}}}\n";
    y += "racks:\n";
    int i = 0;
    for (const auto& c : cdus)
      for (const auto& r : racks) {
        const std::string n = std::to_string(i++);
        y += "  - {name: R" + n + ", cdu: " + c + ", type: " + r + ", row: A, index: " + n +
             ", heat_load: 50 kW}\n";
      }
    INFO(y);
    try {
      const auto s = loadFacilityFromString(y, "catalog_check.yaml", ".", real);
      CHECK(s.cdus.size() == cdus.size());
      CHECK(s.rack_types.size() == racks.size());
      CHECK(s.fluids.count(water) == 1);
    } catch (const LoadFailure& e) {
      FAIL(e.what());
    }
  }
}

TEST_CASE("the default facilities load", "[loader]") {
  const fs::path dir = fs::path(kRealData) / "facilities";
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".yaml") files.push_back(it->path());
  if (files.empty()) {
    WARN("no facilities in data/facilities yet; skipped");
    return;
  }
  for (const auto& f : files) {
    INFO(f.string());
    try {
      const auto s = loadFacility(f.string());  // default data folders
      CHECK_FALSE(s.cdus.empty());
      CHECK_FALSE(s.racks.empty());
    } catch (const LoadFailure& e) {
      FAIL(e.what());
    }
  }
}

//---------------------------------------------------------------------------------------------
// error classes, one at a time

TEST_CASE("errors: unknown keys, with did-you-mean", "[loader]") {
  // a near miss names the key, and the key it should have been is not reported missing too
  expectError(patch(kBase, "  ambient_temperature:", "  ambient_temprature:"), 4,
              "pod.yaml:4:3: site: unknown key 'ambient_temprature'; did you mean "
              "'ambient_temperature'?");
  // a prefix
  expectError(patch(kBase, "    heat_load: 120 kW", "    heat: 120 kW"), 20,
              "unknown key 'heat'; did you mean 'heat_load'?");
  // nothing close: the allowed keys are listed
  expectError(patch(kBase, "    model: test_cdu\n", "    model: test_cdu\n    colour: red\n"), 11,
              "cdus[0]: unknown key 'colour'; expected one of: name, model");
  // top level
  expectError(kBase + "extra: 1\n", 21, "unknown key 'extra'");
}

TEST_CASE("errors: missing required keys are reported at the parent map", "[loader]") {
  expectError(patch(kBase, "    row: A\n", ""), 15,
              "pod.yaml:15:5: racks[0]: missing required key 'row'");
  expectError(patch(kBase, "site:\n  ambient_temperature: 25 degC\n", ""), 1,
              "missing required key 'site'");
  expectError(patch(kBase, "      supply: {length: 30 m, diameter: 154 mm}",
                    "      supply: {length: 30 m}"),
              12, "cdus[0].piping.supply: missing required key 'diameter'");
  expectError(patch(kBase, "dctwin: 1\n", ""), 1, "missing required key 'dctwin'");
  // an explicit CDU without a model lists what it lacks, one error per section
  const auto errors = errorsOf(patch(kBase, "    model: test_cdu\n", ""));
  INFO(listing(errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].loc.line == 9);
  CHECK_THAT(errors[0].message,
             Catch::Contains("missing required keys 'heat_exchanger', 'pumps', 'primary_valve', "
                             "'expansion_tank', 'control', 'limits'"));
}

TEST_CASE("errors: wrong YAML types", "[loader]") {
  expectError(patch(kBase, "25 degC", "[25 degC]"), 4,
              "site.ambient_temperature: expected a temperature with its unit (e.g. '32 degC' or "
              "'305.15 K'), got a list");
  expectError(patch(kBase, "      supply: {length: 30 m, diameter: 154 mm}",
                    "      supply: [30 m, 154 mm]"),
              12, "cdus[0].piping.supply: expected a map (key: value lines), got a list");
  expectError(
      patch(kBase, "heat_load: 120 kW", "heat_load: {steps: 5}"), 20,
      "racks[0].heat_load.steps: expected a list of [time, value] pairs, got a single value");
  expectError(patch(kBase, "name: pod", "name: {a: 1}"), 2, "name: expected a name, got a map");
  expectError(patch(kBase, "    row: A", "    row:"), 18,
              "racks[0].row: expected a text, got nothing");
  expectErrors(kBase.substr(0, kBase.find("racks:")) + "racks: 7\n",
               {{9, "CDU 'cdu1' feeds no racks"},
                {14, "racks: expected a list of racks, got a single value (got '7')"}});
}

TEST_CASE("errors: unparsable numbers and units", "[loader]") {
  expectError(patch(kBase, "120 kW", "120 kw"), 20,
              "racks[0].heat_load: unknown or wrong unit 'kw'; expected a power");
  expectError(patch(kBase, "120 kW", "lots kW"), 20, "expected a power with its unit");
  expectError(patch(kBase, "120 kW", "120 degC"), 20, "unknown or wrong unit 'degC'");
  expectError(patch(kBase, "120 kW", "120"), 20, "the unit is missing");
  expectError(patch(kBase, "index: 1", "index: 1.5"), 19,
              "racks[0].index: expected an integer between 0 and 1000000 (got '1.5')");
  expectError(patch(kBase, "index: 1", "index: one"), 19, "expected an integer");
}

TEST_CASE("errors: NaN, infinity and huge numbers", "[loader]") {
  expectError(patch(kBase, "120 kW", ".nan"), 20, "expected a finite number");
  expectError(patch(kBase, "120 kW", ".inf kW"), 20, "expected a finite number");
  expectError(patch(kBase, "120 kW", "-.Inf kW"), 20, "expected a finite number");
  expectError(patch(kBase, "120 kW", "nan kW"), 20, "not finite");
  expectError(patch(kBase, "120 kW", "1e999 kW"), 20, "the number is out of range");
  expectError(patch(kBase, "120 kW", "1e300 kW"), 20, "expected a power >= 0 W and <= 10 MW");
  expectError(patch(kBase, "index: 1", "index: 99999999999999999999999"), 19,
              "expected an integer");
}

TEST_CASE("errors: values out of their physical range", "[loader]") {
  expectError(
      patch(kBase, "120 kW", "-5 kW"), 20,
      "pod.yaml:20:16: racks[0].heat_load: expected a power >= 0 W and <= 10 MW (got '-5 kW')");
  expectError(patch(kBase, "supply: {length: 30 m", "supply: {length: -30 m"), 12,
              "cdus[0].piping.supply.length: expected a length > 0 m and < 100 km (got '-30 m')");
  expectError(patch(kBase, "supply: {length: 30 m", "supply: {length: 200000 m"), 12, "< 100 km");
  expectError(patch(kBase, "25 degC", "250 degC"), 4, "between -50 degC and 200 degC");
  expectError(patch(kBase, "150 kPa", "150 bar"), 7, "expected a pressure > 0 and < 100 bar");
  expectError(patch(kBase, "index: 1", "index: -1"), 19, "between 0 and 1000000");
  const std::string cdu = "    model: test_cdu\n";
  expectError(
      patch(kBase, cdu, cdu + "    pumps: {count: -1}\n"), 11,
      "pod.yaml:11:20: cdus[0].pumps.count: expected an integer between 1 and 10000 (got '-1')");
  expectError(patch(kBase, cdu, cdu + "    pumps: {count: 2, running: 3}\n"), 11,
              "cdus[0].pumps.running: expected at most pumps.count (2) running pumps (got '3')");
  expectError(patch(kBase, cdu, cdu + "    pumps: {efficiency_motor: 0}\n"), 11,
              "cdus[0].pumps.efficiency_motor: expected a number > 0 and <= 1");
  expectError(patch(kBase, cdu, cdu + "    pumps: {min_speed: 1}\n"), 11, ">= 0 and < 1");
  expectError(patch(kBase, cdu, cdu + "    piping2: 1\n"), 11, "did you mean 'piping'?");
  expectError(patch(kBase, "diameter: 154 mm}\n      return",
                    "diameter: 154 mm, segments: 201}\n      return"),
              12, "cdus[0].piping.supply.segments: expected an integer between 1 and 200");
  expectError(patch(kBase, cdu, cdu + "    control: {supply_temperature: 60 degC}\n"), 11,
              "the supply temperature set point must lie within the CDU's limits (10 to 52 degC)");
  expectError(patch(kBase, cdu, cdu + "    limits: {supply_temperature_min: 55 degC}\n"), 11,
              "supply_temperature_max must be above limits.supply_temperature_min");
  // the set point also has to be within the fluid's range (test pg25: -10 to 80 degC)
  expectError(patch(kBase, cdu,
                    cdu + "    control: {supply_temperature: 90 degC}\n"
                          "    limits: {supply_temperature_max: 95 degC}\n"),
              11,
              "cdus[0].control.supply_temperature: the supply temperature set point lies outside "
              "the range of the CDU's fluid 'pg25' (-10 to 80 degC) (got '90 degC')");
  expectError(patch(kBase, "30 degC", "130 degC"), 6,
              "the facility-water supply temperature leaves the range of fluid 'water'");
  // balancing valve
  expectError(patch(kBase, "    heat_load: 120 kW",
                    "    balancing_valve: {opening: 1.5}\n    heat_load: 120 kW"),
              20, "racks[0].balancing_valve.opening: expected a number between 0 and 1");
  expectError(
      patch(kBase, "    heat_load: 120 kW", "    balancing_valve: {kv: 0}\n    heat_load: 120 kW"),
      20, "expected a number > 0 and < 10000");
}

TEST_CASE("errors: pump curves", "[loader]") {
  const std::string cdu = "    model: test_cdu\n";
  auto curve = [&](const std::string& c) {
    return patch(kBase, cdu, cdu + "    pumps: {curve: " + c + "}\n");
  };
  expectError(curve("{flow_ratio: [0, 1], head_ratio: [1, 1.2]}"), 11,
              "cdus[0].pumps.curve.head_ratio: the head ratios must decrease strictly");
  expectError(curve("{flow_ratio: [0.1, 1], head_ratio: [1.2, 1]}"), 11,
              "the flow ratios must start at 0 and increase strictly");
  expectError(curve("{flow_ratio: [0, 1, 1], head_ratio: [1.2, 1.1, 1]}"), 11,
              "the flow ratios must start at 0 and increase strictly");
  expectError(curve("{flow_ratio: [0, 0.5], head_ratio: [1.2, 1]}"), 11,
              "the flow ratios must reach the rated point 1");
  expectError(curve("{flow_ratio: [0], head_ratio: [1]}"), 11, "needs at least 2 points");
  expectError(curve("{flow_ratio: [0, 0.5, 1]}"), 11,
              "expected as many head ratios as flow ratios (3), got 4");
  expectError(curve("{flow_ratio: [0, 1], head_ratio: [1.2, -1]}"), 11,
              "pumps.curve.head_ratio[1]: expected a number between 0 and 10");
}

TEST_CASE("errors: rack-type cross checks and exponents", "[loader]") {
  // a derived rack type t, inserted before cdus (lines 8-10, extra keys from line 11)
  auto withType = [&](const std::string& extra) {
    return patch(patch(kBase, "cdus:\n",
                       "rack_types:\n  - name: t\n    base: test_rack\n" + extra + "cdus:\n"),
                 "type: test_rack", "type: t");
  };
  CHECK(errorsOf(withType("")).empty());
  expectError(withType("    gpu_heat_fraction: 0.9\n"), 11,
              "rack_types[0].gpu_heat_fraction: gpu_heat_fraction must not exceed liquid_fraction "
              "(0.85)");
  expectError(withType("    manifold: {exponent: 0.5}\n"), 11,
              "rack_types[0].manifold.exponent: expected a number between 1 and 3 (got '0.5')");
  expectError(withType("    liquid_fraction: 1.2\n"), 11, "expected a number between 0 and 1");
  expectError(withType("    trays: 0\n"), 11,
              "rack_types[0].trays: expected an integer between 1 and 10000");
  expectError(withType("    base2: x\n"), 11, "unknown key 'base2'; did you mean 'base'?");
  // a new type without a base must give everything
  expectError(patch(kBase, "cdus:\n", "rack_types:\n  - name: t\n    nominal_power: 1 kW\ncdus:\n"),
              9,
              "rack_types[0]: missing required keys 'coldplate', 'design_flow', 'manifold', "
              "'coolant_volume', 'balancing_valve_kv', 'max_working_pressure', "
              "'supply_temperature_max'");
}

TEST_CASE("errors: dangling references, with did-you-mean", "[loader]") {
  expectErrors(
      patch(kBase, "    cdu: cdu1", "    cdu: cdu2"),
      {{9, "cdus[0]: CDU 'cdu1' feeds no racks"},
       {16, "racks[0].cdu: unknown CDU; did you mean 'cdu1'? (known: cdu1) (got 'cdu2')"}});
  expectError(patch(kBase, "type: test_rack", "type: test_rak"), 17,
              "racks[0].type: unknown rack type; did you mean 'test_rack'?");
  expectError(patch(kBase, "type: test_rack", "type: zzz"), 17,
              "unknown rack type (known: test_rack) (got 'zzz')");
  expectError(patch(kBase, "model: test_cdu", "model: test_cd"), 10,
              "cdus[0].model: unknown CDU model; did you mean 'test_cdu'? (known: broken_cdu, "
              "test_cdu) (got 'test_cd')");
  expectError(
      patch(
          patch(kBase, "cdus:\n",
                "rack_types:\n  - name: t\n    base: test_rack\n    coldplate: test_plat\ncdus:\n"),
          "type: test_rack", "type: t"),
      11,
      "rack_types[0].coldplate: unknown cold plate in rack type 't'; did you mean 'test_plate'?");
  expectError(
      patch(kBase, "    model: test_cdu\n", "    model: test_cdu\n    fluid: pg52\n"), 11,
      "cdus[0].fluid: unknown fluid; did you mean 'pg25'? (known: pg25, water) (got 'pg52')");
  expectError(patch(kBase, "facility_water:\n", "facility_water:\n  fluid: watr\n"), 6,
              "facility_water.fluid: unknown fluid; did you mean 'water'?");
  // names that would leave the catalog folder are not names
  expectError(patch(kBase, "type: test_rack", "type: ../racks/test_rack"), 17,
              "racks[0].type: expected a name of letters, digits");
  expectError(patch(kBase, "model: test_cdu", "model: /etc/passwd"), 10, "expected a name");
}

TEST_CASE("errors: duplicate names, positions and keys", "[loader]") {
  const std::string cdu2 =
      "  - name: cdu1\n    model: test_cdu\n    piping:\n      supply: {length: 1 m, diameter: 1 "
      "m}\n"
      "      return: {length: 1 m, diameter: 1 m}\n";
  expectError(patch(kBase, "racks:\n", cdu2 + "racks:\n"), 14,
              "pod.yaml:14:11: cdus[1].name: duplicate CDU name (got 'cdu1')");
  expectError(kBase + patch(kRack2, "name: A02", "name: A01"), 21,
              "racks[1].name: duplicate rack name (first at line 15) (got 'A01')");
  expectError(
      patch(kBase, "cdus:\n",
            "rack_types:\n  - {name: t, base: test_rack}\n  - {name: t, base: test_rack}\ncdus:\n"),
      10, "rack_types[1].name: duplicate rack type name (got 't')");
  expectError(kBase + patch(kRack2, "index: 2", "index: 1"), 25,
              "racks[1].index: rack position (row 'A', index 1) is already taken by rack 'A01'");
  // the same index in another row is fine
  CHECK(errorsOf(kBase + patch(patch(kRack2, "index: 2", "index: 1"), "row: A", "row: B")).empty());
  // the campus level: a position is unique within its hall (row A of two halls is two rows)
  CHECK(errorsOf(kBase +
                 patch(patch(kRack2, "index: 2", "index: 1"), "row: A", "row: A\n    hall: H2"))
            .empty());
  expectError(patch(kBase, "    row: A\n", "    row: A\n    hall: H2\n") +
                  patch(patch(kRack2, "index: 2", "index: 1"), "row: A", "row: A\n    hall: H2"),
              27, "rack position (hall 'H2', row 'A', index 1) is already taken by rack 'A01'");
  expectError(patch(kBase, "    row: A\n", "    row: A\n    row: B\n"), 19,
              "racks[0].row: duplicate key (first given at line 18)");
  // a second CDU with no racks
  expectError(patch(kBase, "racks:\n", patch(cdu2, "name: cdu1", "name: cdu2") + "racks:\n"), 14,
              "cdus[1]: CDU 'cdu2' feeds no racks");
}

TEST_CASE("errors: a cold plate without a law for the CDU's fluid", "[loader]") {
  const std::string plate = R"(coldplates:
  - name: wplate
    pressure_drop: {dp_nominal: 40 kPa, flow_nominal: 2 L/min}
    resistance:
      water: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}}
rack_types:
  - name: t
    base: test_rack
    coldplate: wplate
)";
  const std::string yaml =
      patch(patch(kBase, "cdus:\n", plate + "cdus:\n"), "type: test_rack", "type: t");
  expectError(yaml, 26,
              "racks[0].type: cold plate 'wplate' of rack type 't' has no resistance law for fluid "
              "'pg25' of CDU 'cdu1' (it has laws for: water)");
  // with water in the CDU it loads
  CHECK(errorsOf(patch(yaml, "    model: test_cdu\n", "    model: test_cdu\n    fluid: water\n"))
            .empty());
  // cold-plate tables are checked too (with a water CDU, so that the law exists)
  const std::string wyaml =
      patch(yaml, "    model: test_cdu\n", "    model: test_cdu\n    fluid: water\n");
  expectError(patch(wyaml, "fit: {R_inf",
                    "table: {flow_L_min: [1, 2], R_K_W: [0.1, 0.09, 0.08]}, fit: {R_inf"),
              12,
              "coldplates[0].resistance.water.table.R_K_W: expected as many resistances as flows "
              "(2), got 3");
  expectError(
      patch(wyaml, "fit: {R_inf", "table: {flow_L_min: [2, 1], R_K_W: [0.1, 0.2]}, fit: {R_inf"),
      12, "the flows must increase strictly");
  expectError(patch(wyaml, "{fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}}",
                    "{fit: {R_inf: 0.02 K/W, a: 0.005}}"),
              12, "coldplates[0].resistance.water.fit: missing required key 'b'");
}

TEST_CASE("errors: a broken catalog file is named with its lines", "[loader]") {
  const auto errors = errorsOf(patch(kBase, "model: test_cdu", "model: broken_cdu"));
  INFO(listing(errors));
  REQUIRE(errors.size() == 2);
  for (const auto& e : errors)
    CHECK_THAT(e.loc.file, Catch::EndsWith("catalog/cdus/broken_cdu.yaml"));
  CHECK(errors[0].loc.line == 5);
  CHECK_THAT(errors[0].format(),
             Catch::Contains("broken_cdu.yaml:5:3: heat_exchanger: unknown key "
                             "'rated_aproach'; did you mean 'rated_approach'?"));
  CHECK(errors[1].loc.line == 7);
  CHECK_THAT(errors[1].format(),
             Catch::Contains("broken_cdu.yaml:7:10: pumps.count: expected an integer between 1 and "
                             "10000 (got '0')"));
}

TEST_CASE("errors: broken catalog files of every kind", "[loader]") {
  // a private data folder with broken entries
  const fs::path dir =
      fs::temp_directory_path() / ("dctwin_loader_test_" + std::to_string(std::random_device{}()));
  for (const char* k : {"fluids", "racks", "cdus", "coldplates"})
    fs::create_directories(dir / "catalog" / k);
  fs::copy(kLoaderDir + "/catalog", dir / "catalog",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  auto write = [&](const std::string& rel, const std::string& text) {
    std::ofstream(dir / "catalog" / rel) << text;
  };
  write("racks/syntax.yaml", "name: syntax\nnominal_power: [120 kW\n");
  write("fluids/water.yaml",
        "name: water\nT_min: 0 degC\nT_max: 100 degC\ntable:\n  columns: [T_degC, rho_kg_m3, "
        "cp_J_kgK, "
        "mu_Pa_s, k_W_mk]\n  rows:\n    - [0, 1000, 4200, 0.0018, 0.56]\n    - [50, 988, 4181, "
        "0.00055, 0.64]\n");
  write("coldplates/test_plate.yaml",
        "name: other_name\npressure_drop: {dp_nominal: 1 kPa, flow_nominal: 1 L/min}\n"
        "resistance: {pg25: {fit: {R_inf: 0.01 K/W, a: 0, b: 1}}}\n");
  LoadOptions o;
  o.data_dirs = {dir.string()};
  auto errors = [&](const std::string& yaml) {
    try {
      loadFacilityFromString(yaml, "pod.yaml", kLoaderDir, o);
    } catch (const LoadFailure& e) {
      return e.errors();
    }
    return std::vector<LoadError>{};
  };
  // YAML syntax error in a catalog file
  auto e1 = errors(patch(kBase, "type: test_rack", "type: syntax"));
  INFO(listing(e1));
  bool syntax = false;
  for (const auto& e : e1)
    syntax |= e.loc.file.size() > 17 &&
              e.loc.file.substr(e.loc.file.size() - 17) == "racks/syntax.yaml" && e.loc.line == 3 &&
              e.message.find("YAML syntax error") != std::string::npos;
  CHECK(syntax);
  // a misspelt column (the facility water is water)
  bool column = false, name = false;
  for (const auto& e : e1) {
    column |= e.format().find("fluids/water.yaml:5:") != std::string::npos &&
              e.message.find("did you mean 'k_W_mK'?") != std::string::npos;
    name |= e.format().find("coldplates/test_plate.yaml") != std::string::npos;
  }
  CHECK(column);
  // the plate is only reached through a working rack type
  auto e2 = errors(kBase);
  INFO(listing(e2));
  for (const auto& e : e2)
    name |= e.format().find(
                "coldplates/test_plate.yaml:1:7: name: the name differs from the file "
                "name 'test_plate.yaml' (got 'other_name')") != std::string::npos;
  CHECK(name);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("errors: format version and facility water", "[loader]") {
  expectError(patch(kBase, "dctwin: 1", "dctwin: 2"), 1,
              "pod.yaml:1:9: dctwin: unsupported format version; this dctwin reads version 1");
  expectError(patch(kBase, "  differential_pressure: 150 kPa\n",
                    "  differential_pressure: 150 kPa\n  flow: 10 kg/s\n"),
              8, "facility_water.flow: give only one of 'differential_pressure' and 'flow'");
  expectError(patch(kBase, "  differential_pressure: 150 kPa\n", ""), 6,
              "facility_water: missing required key 'differential_pressure' (or 'flow')");
  expectError(patch(kBase, "  differential_pressure: 150 kPa\n", "  flow: 10 kW\n"), 7,
              "facility_water.flow: unknown or wrong unit 'kW'; expected a flow");
  expectError(patch(kBase, "  differential_pressure: 150 kPa\n", "  flow: 0 kg/s\n"), 7,
              "expected a mass flow > 0");
}

TEST_CASE("errors: time series", "[loader]") {
  auto load = [&](const std::string& s) {
    return patch(kBase, "heat_load: 120 kW", "heat_load: " + s);
  };
  expectError(
      load("{steps: [[0 s, 1 kW], [0 s, 2 kW]]}"), 20,
      "racks[0].heat_load.steps[1][0]: times must increase strictly from knot to knot (got '0 s')");
  expectError(load("{steps: [[-1 s, 1 kW]]}"), 20,
              "racks[0].heat_load.steps[0][0]: expected a time >= 0 s and <= 1e9 s");
  expectError(load("{steps: [[1 kW, 1 kW]]}"), 20, "unknown or wrong unit 'kW'; expected a time");
  expectError(load("{steps: []}"), 20, "expected at least 1 [time, value] pairs, got 0");
  expectError(load("{series: [[0 s]]}"), 20,
              "racks[0].heat_load.series[0]: expected a [time, value] pair");
  expectError(load("{series: [5 kW]}"), 20, "expected a [time, value] pair");
  expectError(load("{steps: [[0 s, 1 kW]], series: [[0 s, 1 kW]]}"), 20,
              "give only one of 'steps', 'series' and 'csv'");
  expectError(load("{}"), 20, "expected one of the keys 'steps', 'series' or 'csv'");
  expectError(load("{steps: [[0 s, 1 kW]], unit: kW}"), 20, "'unit' is only used with 'csv'");
  expectError(load("{csv: loads/a03.csv}"), 20, "racks[0].heat_load: missing required key 'unit'");
  expectError(load("{csv: loads/a03.csv, unit: degC}"), 20,
              "racks[0].heat_load.unit: unknown or wrong unit 'degC'");
  expectError(load("{csv: loads/nope.csv, unit: kW}"), 20, "cannot read the CSV file");
  expectError(load("{csv: loads, unit: kW}"), 20, "not a regular file");
  expectError(load("{csv: loads/bad_row.csv, unit: kW}"), 3,
              "loads/bad_row.csv:3:4: racks[0].heat_load: expected a power in kW, >= 0 W and <= 10 "
              "MW (got 'lots')");
  expectError(load("{csv: loads/no_header.csv, unit: kW}"), 1, "the first line must be a header");
  expectError(load("{csv: loads/unsorted.csv, unit: kW}"), 4,
              "unsorted.csv:4:1: racks[0].heat_load: times must increase strictly from row to row");
  // the facility-water temperature is a series too
  expectError(
      patch(kBase, "supply_temperature: 30 degC", "supply_temperature: {series: [[0 s, 30 kW]]}"),
      6, "facility_water.supply_temperature.series[0][1]: unknown or wrong unit 'kW'");
}

TEST_CASE("errors: all the errors of a file are reported together", "[loader]") {
  std::string y = patch(kBase, "25 degC", "hot");
  y = patch(y, "120 kW", "-1 kW");
  y = patch(y, "    model: test_cdu\n", "    model: test_cdu\n    colour: red\n");
  const auto errors = errorsOf(y);
  INFO(listing(errors));
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].loc.line == 4);
  CHECK(errors[1].loc.line == 11);
  CHECK(errors[2].loc.line == 21);
  // what() lists them, one per line
  try {
    loadFacilityFromString(y, "pod.yaml", kLoaderDir, testOptions());
    FAIL("loaded");
  } catch (const LoadFailure& e) {
    const std::string what = e.what();
    CHECK(std::count(what.begin(), what.end(), '\n') == 2);
    CHECK_THAT(what, Catch::StartsWith("pod.yaml:4:24: site.ambient_temperature:"));
  }
}

TEST_CASE("errors: loadFacility on a missing file", "[loader]") {
  try {
    loadFacility(kLoaderDir + "/no_such_facility.yaml", testOptions());
    FAIL("loaded");
  } catch (const LoadFailure& e) {
    REQUIRE(e.errors().size() == 1);
    CHECK_THAT(e.what(), Catch::Contains("no_such_facility.yaml: cannot read: no such file"));
  }
}

//---------------------------------------------------------------------------------------------
// hostile input: always a LoadFailure, never a crash or a hang

TEST_CASE("hostile: malformed YAML, empty files, several documents", "[loader]") {
  auto e = mustFail("dctwin: 1\nname: [unclosed\nracks: {a: 1\n");
  REQUIRE(e.size() == 1);
  CHECK_THAT(e[0].message, Catch::StartsWith("YAML syntax error"));
  CHECK(e[0].loc.line > 0);
  for (const char* empty : {"", "   \n\n", "# only a comment\n", "~\n", "---\n"}) {
    e = mustFail(empty);
    REQUIRE(e.size() == 1);
    CHECK(e[0].message == "the file is empty");
  }
  e = mustFail("a: 1\n---\nb: 2\n");
  REQUIRE(e.size() == 1);
  CHECK_THAT(e[0].message, Catch::Contains("more than one YAML document"));
  // a file that is not a map of keys at all: said so, and nothing of it quoted
  e = mustFail("- a\n- b\n");
  CHECK_THAT(e[0].message, Catch::Contains("not a map of keys") && Catch::Contains("a list"));
  e = mustFail("just a scalar");
  CHECK_THAT(e[0].message, Catch::Contains("not a map of keys") && Catch::Contains("single value"));
  CHECK(e[0].value.empty());
  // input that makes yaml-cpp's LoadAll loop forever
  mustFail(",b7%* *b, *b\n");
  mustFail("? [a, b]\n: 1\n");  // a non-scalar key
  mustFail("*undefined\n");
  mustFail("dctwin: !!binary AAAA\n");
}

TEST_CASE("hostile: binary garbage and invalid UTF-8", "[loader]") {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 50; ++trial) {
    std::string s(1 + rng() % 4096, '\0');
    for (char& c : s) c = static_cast<char>(rng() & 0xFF);
    mustFail(s);
  }
  // printable garbage reaches the YAML parser
  const std::string printable = "abc:[]{}-?,&*!|>'\"%@` \n\t#01.e+";
  for (int trial = 0; trial < 200; ++trial) {
    std::string s(1 + rng() % 512, ' ');
    for (char& c : s) c = printable[rng() % printable.size()];
    mustFail(s);
  }
  auto e = mustFail("dctwin: 1\nname: caf\xE9\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0].loc.line == 2);
  CHECK(e[0].loc.column == 10);
  CHECK_THAT(e[0].message, Catch::Contains("not UTF-8 text (byte 0xE9)"));
  e = mustFail(std::string("dctwin: 1\0\n", 11));
  CHECK_THAT(e[0].message, Catch::Contains("byte 0x00"));
  mustFail(
      "\xFF\xFE"
      "d\0c\0");  // UTF-16 is refused
  // a UTF-8 byte-order mark and non-ASCII text are fine
  CHECK(errorsOf("\xEF\xBB\xBF" + patch(kBase, "name: pod\n",
                                        "name: pod\ndescription: \"K\xC3\xBChlung 25 \xC2\xB0"
                                        "C\"\n"))
            .empty());
}

TEST_CASE("hostile: deep nesting", "[loader]") {
  const int depth = 100000;
  auto e = mustFail(std::string(depth, '['));
  CHECK_THAT(e[0].message, Catch::Contains("YAML syntax error"));
  std::string maps;
  for (int i = 0; i < depth; ++i) maps += "{a: ";
  maps += "1";
  maps += std::string(depth, '}');
  e = mustFail(maps);
  CHECK_THAT(e[0].message, Catch::Contains("nests lists or maps too deeply"));
  std::string block;
  for (int i = 0; i < 3000; ++i) block += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
  mustFail(block);
  std::string seq;
  for (int i = 0; i < 3000; ++i) seq += std::string(static_cast<std::size_t>(i), ' ') + "- \n";
  mustFail(seq);
}

TEST_CASE("hostile: huge files, lists and numbers", "[loader]") {
  auto e = mustFail(std::string(17 * 1024 * 1024, '#'));
  REQUIRE(e.size() == 1);
  CHECK_THAT(e[0].message, Catch::Contains("too large"));
  const std::string zeros(400, '0');
  e = mustFail(patch(kBase, "120 kW", std::string("1").append(zeros).append(" kW")));
  CHECK_THAT(e[0].message, Catch::Contains("out of range"));
  e = mustFail(patch(kBase, "index: 1", std::string("index: 1").append(zeros)));
  CHECK_THAT(e[0].message, Catch::Contains("expected an integer"));
  // millions of values are refused before yaml-cpp builds its nodes
  std::string flat = "[";
  for (int i = 0; i < 600000; ++i) flat += "1,";
  flat += "1]";
  e = mustFail(flat);
  REQUIRE(e.size() == 1);
  CHECK_THAT(e[0].message, Catch::Contains("more than 500000 commas"));
  std::string block;
  for (int i = 0; i < 1100000; ++i) block += "- 1\n";
  e = mustFail(block);
  REQUIRE(e.size() == 1);
  CHECK_THAT(e[0].message, Catch::Contains("more than 1000000 values"));
  // a long but legal series loads
  std::string steps = "{steps: [";
  for (int i = 0; i < 20000; ++i)
    steps.append(i ? ", [" : "[").append(std::to_string(i)).append(" s, 1 kW]");
  steps += "]}";
  CHECK(errorsOf(patch(kBase, "120 kW", steps)).empty());
  // errors are capped: 5000 broken knots give a bounded report
  std::string bad = "{steps: [";
  for (int i = 0; i < 5000; ++i)
    bad.append(i ? ", [" : "[").append(std::to_string(i)).append(" s, -1 kW]");
  bad += "]}";
  e = mustFail(patch(kBase, "120 kW", bad));
  CHECK(e.size() <= 101);
  CHECK_THAT(e.back().message, Catch::Contains("more errors not shown"));
  // a very long key and value are clipped in messages
  e = mustFail(patch(kBase, "name: pod", "name: " + std::string(100000, 'x')));
  CHECK(e[0].format().size() < 400);
  e = mustFail(kBase + std::string(100000, 'k') + ": 1\n");
  CHECK(e[0].format().size() < 2000);
}

TEST_CASE("hostile: aliases cannot make the walk explode", "[loader]") {
  // classic billion laughs, where the loader does not walk
  const std::string laughs =
      "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, "
      "*c]\n"
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, "
      "*e]\n"
      "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, "
      "*g]\n"
      "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
  mustFail(laughs);
  mustFail(laughs + "racks: [*i, *i, *i, *i, *i, *i, *i, *i, *i, *i]\n");
  mustFail(laughs + "name: *i\ndescription: *i\nsite: {ambient_temperature: *i}\n");
  // where the loader does walk: one rack with a long series, repeated by alias
  std::string y = kBase.substr(0, kBase.find("racks:\n")) +
                  "racks:\n  - &r\n    name: A01\n    cdu: cdu1\n    type: test_rack\n    row: A\n"
                  "    index: 1\n    heat_load: {steps: [";
  for (int i = 0; i < 2000; ++i)
    y.append(i ? ", [" : "[").append(std::to_string(i)).append(" s, 1 kW]");
  y += "]}\n";
  for (int i = 0; i < 5000; ++i) y += "  - *r\n";
  const auto e = mustFail(y);
  bool budget = false;
  for (const auto& x : e) budget |= x.message.find("too large to walk") != std::string::npos;
  CHECK(budget);
  // a list that contains itself
  mustFail("dctwin: 1\nracks: &r [*r]\ncdus: &c [{name: x, piping: *c}]\n");
}

//---------------------------------------------------------------------------------------------
// pieces

TEST_CASE("TimeSeries eval and breakpoints", "[loader]") {
  TimeSeries c;
  c.t = {0};
  c.v = {5};
  CHECK(c.eval(-1) == 5);
  CHECK(c.eval(1e9) == 5);
  std::vector<double> bp;
  c.breakpoints(bp);
  CHECK(bp.empty());

  TimeSeries s;
  s.kind = TimeSeries::Kind::Steps;
  s.t = {10, 20, 30};
  s.v = {1, 2, 3};
  CHECK(s.eval(0) == 1);  // held before the first knot
  CHECK(s.eval(10) == 1);
  CHECK(s.eval(19.999) == 1);
  CHECK(s.eval(20) == 2);  // the value holds from its knot
  CHECK(s.eval(29) == 2);
  CHECK(s.eval(30) == 3);
  CHECK(s.eval(1e6) == 3);
  s.breakpoints(bp);
  CHECK(bp == std::vector<double>{10, 20, 30});

  TimeSeries l;
  l.kind = TimeSeries::Kind::Linear;
  l.t = {0, 10, 30};
  l.v = {0, 100, 300};
  CHECK(l.eval(-5) == 0);
  CHECK(l.eval(0) == 0);
  CHECK(l.eval(5) == Approx(50));
  CHECK(l.eval(10) == Approx(100));
  CHECK(l.eval(20) == Approx(200));
  CHECK(l.eval(30) == 300);
  CHECK(l.eval(99) == 300);
  bp.clear();
  l.breakpoints(bp);
  CHECK(bp == std::vector<double>{10, 30});  // t = 0 needs no stop

  TimeSeries one;
  one.kind = TimeSeries::Kind::Linear;
  one.t = {5};
  one.v = {7};
  CHECK(one.eval(0) == 7);
  CHECK(one.eval(10) == 7);
  TimeSeries empty;
  CHECK(empty.eval(1) == 0);
}

TEST_CASE("editDistance and LoadError::format", "[loader]") {
  CHECK(editDistance("kitten", "sitting") == 3);
  CHECK(editDistance("", "abc") == 3);
  CHECK(editDistance("abc", "") == 3);
  CHECK(editDistance("pumps", "pumps") == 0);
  CHECK(editDistance("pupms", "pumps") == 2);
  LoadError e{SourceLoc{"pod.yaml", 12, 5, "cdus[0].pumps.count"}, "-1",
              "expected an integer >= 1"};
  CHECK(e.format() == "pod.yaml:12:5: cdus[0].pumps.count: expected an integer >= 1 (got '-1')");
  e.value.clear();
  e.loc.column = 0;
  CHECK(e.format() == "pod.yaml:12: cdus[0].pumps.count: expected an integer >= 1");
  e.loc.line = 0;
  e.loc.path.clear();
  CHECK(e.format() == "pod.yaml: expected an integer >= 1");
  LoadFailure f({e, e});
  CHECK(f.errors().size() == 2);
  CHECK(std::string(f.what()) == e.format() + "\n" + e.format());
}
