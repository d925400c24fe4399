// keys_test.cpp: the key tables (solver/input/keys.h) and the one YAML reader: the docs tables and
// the committed JSON Schemas are what the tables generate, strict booleans, did-you-mean and
// range errors from the table, file kinds, and `dctwin schema` / `dctwin check`
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "solver/input/keys.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/input/sweep_file.h"
#include "solver/input/yaml_reader.h"

using namespace dctwin;
using keys::FileKind;

namespace {

const std::string kSrc = DCTWIN_SOURCE_DIR;
const std::string kCli = DCTWIN_CLI;
const FileKind kKinds[] = {FileKind::Facility, FileKind::Scenario, FileKind::Sweep};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::pair<int, std::string> sh(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return {-1, ""};
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string scenarioErrors(const std::string& text) {
  try {
    loadScenarioFromString(text, "s.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

const char* kFacility = R"(dctwin: 1
name: k
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    piping:
      supply: {length: 30 m, diameter: 154 mm}
      return: {length: 30 m, diameter: 154 mm}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1, heat_load: 100 kW}
)";

std::string facilityErrors(const std::string& extra) {
  try {
    loadFacilityFromString(kFacility + extra, "f.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

//---------------------------------------------------------------------------------------------
// generated files are current

TEST_CASE("the docs' key tables are what the key tables generate", "[keys]") {
  for (FileKind k : kKinds) {
    const std::string path = kSrc + "/docs/" + keys::fileKindName(k) + "-format.md";
    const std::string doc = readFile(path);
    INFO(path << " (regenerate: dctwin schema --file " << keys::fileKindName(k) << " --update "
              << path << ")");
    std::vector<std::string> unknown;
    CHECK(keys::updateMarkedTables(doc, k, &unknown) == doc);
    CHECK(unknown.empty());
    // every section of the file kind has its table in the docs
    for (const keys::Section* s : keys::sectionsOf(keys::fileSection(k))) {
      INFO("section " << s->id);
      CHECK(doc.find(std::string("<!-- keys:") + s->id + " begin -->") != std::string::npos);
    }
  }
}

TEST_CASE("the committed JSON Schemas are what dctwin schema writes", "[keys][cli]") {
  for (FileKind k : kKinds) {
    const std::string path = kSrc + "/docs/schema/" + keys::fileKindName(k) + ".schema.json";
    INFO(path << " (regenerate: dctwin schema --file " << keys::fileKindName(k) << " -o " << path
              << ")");
    CHECK(readFile(path) == keys::jsonSchema(k));
    const auto [rc, out] = sh(kCli + " schema --file " + keys::fileKindName(k));
    CHECK(rc == 0);
    CHECK(out == readFile(path));
  }
  const auto [rc, md] = sh(kCli + " schema --format markdown --file scenario");
  CHECK(rc == 0);
  CHECK(md == keys::markdownTables(FileKind::Scenario));
  CHECK(md.find("<!-- keys:scenario.detection begin -->") != std::string::npos);
}

TEST_CASE("the schema carries types, units, ranges, defaults and closed maps", "[keys]") {
  const std::string j = keys::jsonSchema(FileKind::Facility);
  CHECK(j.find("\"$schema\": \"http://json-schema.org/draft-07/schema#\"") != std::string::npos);
  CHECK(j.find("\"additionalProperties\": false") != std::string::npos);
  // an enum, a default, bounds of a plain number, units in a description
  CHECK(j.find("\"enum\": [\"flow\", \"dp\"]") != std::string::npos);
  CHECK(j.find("\"default\": \"120 s\"") != std::string::npos);
  CHECK(j.find("\"exclusiveMinimum\": 1,\n          \"maximum\": 1000") != std::string::npos);
  CHECK(j.find("degC") != std::string::npos);
  CHECK(j.find("\"required\": [\"dctwin\", \"name\", \"site\", \"facility_water\", \"cdus\", "
               "\"racks\"]") != std::string::npos);
}

// the schema types a quantity by its units, as the loader does
TEST_CASE("the schema refuses a quantity of another dimension", "[keys]") {
  const std::regex T(keys::quantityPattern(Dim::Temperature), std::regex::ECMAScript);
  CHECK(std::regex_match("32 degC", T));
  CHECK(std::regex_match("305.15 K", T));
  CHECK(std::regex_match(" 1e1 degC ", T));
  CHECK_FALSE(std::regex_match("40 kW", T));
  CHECK_FALSE(std::regex_match("32", T));
  CHECK_FALSE(std::regex_match("32 degCx", T));
  const std::regex F(keys::quantityPattern(Dim::Flow), std::regex::ECMAScript);
  CHECK(std::regex_match("1200 L/min", F));
  CHECK(std::regex_match("3 kg/s", F));
  CHECK_FALSE(std::regex_match("3 kPa", F));
  // every unit the loader takes for a dimension matches, and the schema carries the pattern
  for (Dim d : {Dim::Temperature, Dim::Power, Dim::Pressure, Dim::Time, Dim::Energy}) {
    const std::regex P(keys::quantityPattern(d), std::regex::ECMAScript);
    for (const std::string& u : unitNames(d)) {
      INFO(u);
      CHECK(std::regex_match("2.5 " + u, P));
      CHECK(parseQuantity("2.5 " + u, d, nullptr).has_value());
    }
  }
  const std::string j = keys::jsonSchema(FileKind::Facility);
  std::string esc;  // as a JSON string
  for (char ch : keys::quantityPattern(Dim::Temperature))
    esc += ch == '\\' ? "\\\\" : std::string(1, ch);
  CHECK(j.find(esc) != std::string::npos);
}

//---------------------------------------------------------------------------------------------
// the tables drive the readers

TEST_CASE("required keys of merged entities come from the tables", "[keys]") {
  const auto cdu = keys::requiredPaths(keys::catalogSection("cdus"));
  CHECK(cdu.front() == "heat_exchanger.rated_capacity");
  CHECK(cdu.back() == "limits.primary_pressure_max");
  CHECK(cdu.size() == 21);
  CHECK(keys::requiredPaths(keys::catalogSection("racks")) ==
        std::vector<std::string>{"nominal_power", "coldplate", "design_flow", "manifold.dp_nominal",
                                 "manifold.flow_nominal", "coolant_volume", "balancing_valve_kv",
                                 "max_working_pressure", "supply_temperature_max"});
}

TEST_CASE("booleans are true or false: yes, no, on, off are refused, never read as false",
          "[keys][reader]") {
  CHECK(facilityErrors("gpu_layer: {group_identical: false}\n").empty());
  CHECK_THAT(facilityErrors("gpu_layer: {group_identical: no}\n"),
             Catch::Contains("f.yaml:13:") &&
                 Catch::Contains("gpu_layer.group_identical: expected true or false ('no' is not "
                                 "read as a boolean: write false) (got 'no')"));
  CHECK_THAT(scenarioErrors("detection: {rack_liquid_isolation: on}\n"),
             Catch::Contains("s.yaml:1:") &&
                 Catch::Contains("detection.rack_liquid_isolation: expected true or false ('on'"));
  CHECK_THAT(scenarioErrors("events:\n  - {time: 1 s, job: j, job_stop: false}\n"),
             Catch::Contains("events[0].job_stop: expected true"));
  const Scenario sc = loadScenarioFromString(
      "detection: {rack_liquid_isolation: false, low_level_pump_stop: True}\n", "s.yaml");
  CHECK_FALSE(sc.detection.rack_liquid_isolation);
  CHECK(sc.detection.low_level_pump_stop);
}

TEST_CASE("unknown keys get a did-you-mean from the table, in every file kind", "[keys][reader]") {
  CHECK_THAT(facilityErrors("gpu_layer: {stepp: 10 ms}\n"),
             Catch::Contains("gpu_layer: unknown key 'stepp'; did you mean 'step'?"));
  CHECK_THAT(scenarioErrors("events:\n  - {time: 1 s, cdu: cdu1, pump_falure: 1}\n"),
             Catch::Contains("s.yaml:2:") &&
                 Catch::Contains("events[0]: unknown key 'pump_falure'; did you mean "
                                 "'pump_failure'?"));
  CHECK_THAT(scenarioErrors("detection: {zzz: 1}\n"),
             Catch::Contains("unknown key 'zzz'; expected one of: poll_interval, pump_switchover"));
  try {
    loadSweepFromString("facility: f.yaml\nparameters:\n  - {path: facility.x, valus: [1]}\n",
                        "w.yaml", ".");
    FAIL("expected a LoadFailure");
  } catch (const LoadFailure& e) {
    CHECK_THAT(std::string(e.what()),
               Catch::Contains("w.yaml:3:") &&
                   Catch::Contains("unknown key 'valus'; did you mean 'values'?"));
  }
  CHECK(didYouMean("utilty", {"utility", "valve_stuck"}) == "; did you mean 'utility'?");
  CHECK(didYouMean("xyz", {"utility"}).empty());
}

TEST_CASE("range errors use the table entry's range", "[keys][reader]") {
  const keys::Key* rtol = keys::scenarioFile().find("solver")->section->find("rtol");
  REQUIRE(rtol);
  CHECK_THAT(scenarioErrors("solver: {rtol: 0.5}\n"),
             Catch::Contains(std::string("solver.rtol: expected a number ") + rtol->range.text +
                             " (got '0.5')"));
  const keys::Key* step = keys::facilityFile().find("gpu_layer")->section->find("step");
  CHECK_THAT(facilityErrors("gpu_layer: {step: 2 s}\n"),
             Catch::Contains(std::string("gpu_layer.step: expected a time ") + step->range.text));
  CHECK_THAT(scenarioErrors("events:\n  - {time: 1 s, cdu: c, pump_failure: 99}\n"),
             Catch::Contains("events[0].pump_failure: expected an integer between 1 and 64"));
  CHECK_THAT(scenarioErrors("events:\n  - {time: 1 s, utility: lots}\n"),
             Catch::Contains("expected 'lost' or 'restored'"));
}

TEST_CASE("a key read with a type other than its table's is a programming error", "[keys]") {
  reader::Session s;
  reader::File f{s, "x.yaml", "."};
  YAML::Node n = YAML::Load("{step: 1 s}");
  reader::MapIn m(f, n, "", *keys::facilityFile().find("gpu_layer")->section);
  int wrong = 0;
  CHECK_THROWS_AS(m.read("step", wrong), std::logic_error);
  double missing = 0;
  CHECK_THROWS_AS(m.read("nope", missing), std::logic_error);
}

TEST_CASE("a key present in a file that no reader asks for is an error, never ignored",
          "[keys][reader]") {
  // the GPU layer's map with two keys, of which the "reader" below reads one: the other would be
  // ignored silently (a reader whose read call was removed), so the load reports it at its line
  const auto load = [](bool read_both) {
    reader::Session s;
    reader::File f{s, "x.yaml", "."};
    YAML::Node n = YAML::Load("step: 10 ms\ncoupling: 5 s\n");
    {
      reader::MapIn m(f, n, "gpu_layer", *keys::facilityFile().find("gpu_layer")->section);
      double step = 0, coupling = 0;
      m.read("step", step);
      if (read_both) m.read("coupling", coupling);
      const reader::MapIn copy = m;  // (the last copy reports, once)
    }
    return s.finish("x.yaml");
  };
  const auto bad = load(false);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].loc.line == 2);
  CHECK(bad[0].loc.path == "gpu_layer.coupling");
  CHECK(bad[0].message.find("key 'coupling' is accepted but nothing reads it") !=
        std::string::npos);
  CHECK(load(true).empty());
  // after another error the rest of a map may go unread: only that error is reported
  reader::Session s;
  reader::File f{s, "x.yaml", "."};
  YAML::Node n = YAML::Load("step: 10 ms\ncoupling: 5 s\n");
  {
    reader::MapIn m(f, n, "gpu_layer", *keys::facilityFile().find("gpu_layer")->section);
    f.error(n, "gpu_layer", "", "another error");
  }
  const auto one = s.finish("x.yaml");
  REQUIRE(one.size() == 1);
  CHECK(one[0].message == "another error");
}

//---------------------------------------------------------------------------------------------
// file kinds and dctwin check

TEST_CASE("file kinds are told apart by their top-level keys", "[keys]") {
  std::string why;
  CHECK(reader::detectFileKind("dctwin: 1\nname: x\n", &why) == FileKind::Facility);
  CHECK(reader::detectFileKind("events: []\nduration: 1 h\n", &why) == FileKind::Scenario);
  CHECK(reader::detectFileKind("facility: f.yaml\nparameters: []\n", &why) == FileKind::Sweep);
  CHECK(reader::detectFileKind("cdus: []\nracks: []\n", &why) == FileKind::Facility);
  CHECK_FALSE(reader::detectFileKind("name: x\n", &why).has_value());
  CHECK_THAT(why, Catch::Contains("dctwin_scenario: 1"));
  CHECK_FALSE(reader::detectFileKind("- a\n- b\n", &why).has_value());
  // a document the reader refuses says why (not "not a map")
  CHECK_FALSE(reader::detectFileKind("a: [1, 2\n", &why).has_value());
  CHECK_THAT(why, Catch::Contains("YAML syntax error"));
  std::string many = "events:\n";
  for (int k = 0; k < 400000; ++k) many += "  - {time: 1 s, heat_load: 1 kW}\n";
  CHECK_FALSE(reader::detectFileKind(many, &why).has_value());
  CHECK_THAT(why, Catch::Contains("values") || Catch::Contains("commas"));
}

TEST_CASE("dctwin check takes facility, scenario and sweep files", "[keys][cli]") {
  const std::string data = kSrc + "/data";
  auto [rc, out] = sh(kCli + " check " + data + "/scenarios/pod_rack_leak.yaml");
  CHECK(rc == 0);
  CHECK_THAT(out, Catch::Contains("ok: scenario, 1 events"));
  std::tie(rc, out) = sh(kCli + " check " + data + "/scenarios/pod_rack_leak.yaml --facility " +
                         data + "/facilities/pod_gb200.yaml");
  CHECK(rc == 0);
  CHECK_THAT(out, Catch::Contains("on " + data + "/facilities/pod_gb200.yaml: 1 CDU, 8 racks"));
  std::tie(rc, out) = sh(kCli + " check " + data + "/sweeps/pod_fws_racks.yaml");
  CHECK(rc == 0);
  CHECK_THAT(out, Catch::Contains("ok: sweep, 40 cases of 2 parameters"));
  // a scenario against a facility that lacks its targets
  std::tie(rc, out) =
      sh(kCli + " check " + data + "/scenarios/pod_pump_failure_redundant.yaml --facility " + data +
         "/facilities/two_cdu_mixed.yaml");
  CHECK(rc == 2);
  CHECK_THAT(out, Catch::Contains("unknown CDU"));
}

TEST_CASE("sweep files: strict booleans, sampling and steps from the table", "[keys][sweep]") {
  auto errors = [](const std::string& text) {
    try {
      loadSweepFromString(text, "w.yaml", ".");
    } catch (const LoadFailure& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string param = "parameters:\n  - {path: facility.x, values: [1, 2]}\n";
  CHECK(errors("facility: f.yaml\n" + param).empty());
  CHECK_THAT(errors("facility: f.yaml\nseries: yes\n" + param),
             Catch::Contains("w.yaml:2:") &&
                 Catch::Contains("series: expected true or false ('yes' is not read as a "
                                 "boolean: write true)"));
  CHECK_THAT(errors("facility: f.yaml\nsampling: gird\n" + param),
             Catch::Contains("expected grid, list or latin_hypercube; did you mean 'grid'?"));
  CHECK_THAT(errors("facility: f.yaml\nparameters:\n  - {path: facility.x, range: [1, 2], "
                    "steps: 1}\n"),
             Catch::Contains("parameters[0].steps: expected an integer between 2 and 10000"));
  CHECK_THAT(errors(param), Catch::Contains("missing required key 'facility'"));
  const SweepSpec s = loadSweepFromString(
      "facility: f.yaml\nparameters:\n  - {path: facility.x, range: [\"1 kW\", \"3 kW\"], steps: "
      "3}\n",
      "w.yaml", "/base");
  CHECK(s.facility_path == "/base/f.yaml");
  CHECK(s.params[0].values == std::vector<std::string>{"1 kW", "2 kW", "3 kW"});
}
