// fault_table_test.cpp: the fault table (solver/common/fault_table.h) drives the scenario reader's
// keys, ranges and errors, applyScenario's targets and sections, and the docs' fault table; the
// event table (solver/common/event_table.h) has every event a fault logs
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "solver/common/event_table.h"
#include "solver/common/fault_table.h"
#include "solver/input/keys.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"

using namespace dctwin;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

std::string loadErrors(const std::string& text) {
  try {
    loadScenarioFromString(text, "s.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

// the SI unit a value of the dimension is written in here
std::string siUnit(Dim d) {
  switch (d) {
    case Dim::Power:
      return " W";
    case Dim::Temperature:
    case Dim::TemperatureDiff:
      return " K";
    case Dim::Length:
      return " m";
    case Dim::Pressure:
      return " Pa";
    case Dim::Frequency:
      return " Hz";
    default:
      return "";
  }
}

// the event's target keys for a row
std::string targetOf(const FaultInfo& f) {
  switch (f.target) {
    case FaultTarget::Cdu:
    case FaultTarget::RackOrCdu:
      return ", cdu: cdu1";
    case FaultTarget::Rack:
    case FaultTarget::RackOrSwitchRack:
      return ", rack: A01";
    case FaultTarget::Job:
      return ", job: llm_training";
    case FaultTarget::Facility:
      return "";
  }
  return "";
}

// left + s + right, appended in turn (GCC 12's -Wrestrict misreads "literal" + std::string)
std::string wrapped(const char* left, const char* s, const char* right) {
  std::string out = left;
  out += s;
  out += right;
  return out;
}

}  // namespace

TEST_CASE("fault table: one row per kind, keys unique, each key in the scenario's key table",
          "[faults][fault_table]") {
  std::set<std::string> keys;
  const keys::Section& events = *keys::scenarioFile().find("events")->section;
  for (int k = 0; k < kFaultKinds; ++k) {
    const FaultInfo& f = kFaultTable[k];
    INFO(f.key);
    CHECK(int(f.id) == k);
    CHECK(*f.event);
    CHECK((std::string(f.severity) == "info" || std::string(f.severity) == "warning" ||
           std::string(f.severity) == "critical"));
    CHECK(*f.docs);
    if (f.value.type == FaultValue::None) continue;  // compiled, never in a file
    CHECK(keys.insert(f.key).second);
    CHECK(faultByKey(f.key) == &f);
    // the event key (set points: its supply-temperature key) is in the key table with its docs
    const keys::Key* key = events.find(f.id == FaultKind::Setpoint ? f.value.key : f.key);
    REQUIRE(key);
    if (f.id != FaultKind::Setpoint) CHECK(std::string(key->doc) == f.docs);
    // a section's value key is in that section with the table's range
    if (f.value.type == FaultValue::Section) {
      REQUIRE(key->section);
      const keys::Key* v = key->section->find(f.value.key);
      REQUIRE(v);
      if (std::isfinite(f.value.hi) && f.value.hi < 1e300) CHECK(v->range.hi == f.value.hi);
    }
    // every kind a scenario names has a GUI form entry whose default is in the range
    REQUIRE(*f.form.label);
    if (f.value.type != FaultValue::Flag && f.value.type != FaultValue::Choice)
      CHECK(f.value.contains((f.form.def - f.form.offset) / f.form.scale));
  }
  CHECK(faultByKey("heat_load") == nullptr);
  CHECK(faultByKey("") == nullptr);
}

TEST_CASE("fault table: a value out of its range names file, line, key, value and range",
          "[faults][fault_table][scenario][errors]") {
  for (const FaultInfo& f : kFaultTable) {
    const FaultRange& v = f.value;
    if (v.type != FaultValue::Integer && v.type != FaultValue::Quantity &&
        v.type != FaultValue::Special && v.type != FaultValue::Section)
      continue;
    if (!(v.hi < 1e300)) continue;  // unbounded (a sensor's offset)
    // just above the range, in SI
    const double bad = v.type == FaultValue::Integer ? v.hi + 1 : v.hi * 2 + 1;
    char num[64];
    std::snprintf(num, sizeof num, "%.10g", bad);
    const std::string value = num + siUnit(v.dim);
    // a section's other required keys
    const std::string others =
        f.id == FaultKind::Fabric             ? "fault: link_degraded, gpu: 0, "
        : f.id == FaultKind::PlateDegradation ? "part: grace_cpu, "
        : f.id == FaultKind::VoltageSag || f.id == FaultKind::FrequencyExcursion ? "duration: 1 s, "
                                                                                 : "";
    const std::string action = v.type == FaultValue::Section ? std::string(f.key) + ": {" + others +
                                                                   v.key + ": " + value + "}"
                                                             : std::string(v.key) + ": " + value;
    const std::string text = "events:\n  - {time: 1 min" + targetOf(f) + ", " + action + "}\n";
    INFO(text);
    const std::string err = loadErrors(text);
    CHECK_THAT(err, Catch::Contains("s.yaml:2:"));      // file and line
    CHECK_THAT(err, Catch::Contains(v.key));            // the key
    CHECK_THAT(err, Catch::Contains("got '" + value));  // the value
    if (v.type == FaultValue::Integer)                  // the range
      CHECK_THAT(err, Catch::Contains("between " + std::to_string(int(v.lo)) + " and " +
                                      std::to_string(int(v.hi))));
    else
      CHECK_THAT(err, Catch::Contains(v.text));
  }
}

TEST_CASE("fault table: the target and the section a kind needs come from its row",
          "[faults][fault_table][scenario][errors]") {
  for (const FaultInfo& f : kFaultTable) {
    if (f.value.type != FaultValue::Integer && f.value.type != FaultValue::Flag) continue;
    const std::string action =
        std::string(f.key) + ": " +
        (f.value.type == FaultValue::Flag ? std::string("true") : std::to_string(int(f.value.lo)));
    INFO(f.key);
    // a CDU, rack or job fault without its target key
    if (f.target == FaultTarget::Cdu || f.target == FaultTarget::Rack ||
        f.target == FaultTarget::Job) {
      const std::string who = f.target == FaultTarget::Cdu    ? "cdu"
                              : f.target == FaultTarget::Rack ? "rack"
                                                              : "job";
      CHECK_THAT(loadErrors("events:\n  - {time: 1 min, " + action + "}\n"),
                 Catch::Contains(std::string("'") + std::string(f.key) + "' needs '" + who + "'"));
    }
    // a plant fault on a facility without a plant section
    if (f.needs == FaultNeeds::Plant) {
      FacilitySpec spec = loadFacility(kPod);
      const Scenario sc =
          loadScenarioFromString("events:\n  - {time: 1 min, " + action + "}\n", "s.yaml");
      try {
        applyScenario(sc, spec);
        FAIL("no error");
      } catch (const LoadFailure& e) {
        CHECK_THAT(e.what(), Catch::Contains("needs a facility with a plant section"));
      }
    }
  }
}

TEST_CASE("fault table: the docs' table has one row per kind", "[faults][fault_table][docs]") {
  const std::string md = keys::faultTableMarkdown();
  for (const FaultInfo& f : kFaultTable) {
    INFO(f.key);
    CHECK_THAT(md, Catch::Contains(*f.key ? wrapped("| `", f.key, "` |") : "(compiled)"));
    CHECK_THAT(md, Catch::Contains(wrapped("`", f.event, "`")));
  }
}

TEST_CASE("event table: unique kinds, and every event a fault logs is a row",
          "[faults][events][event_table]") {
  std::set<std::string> kinds;
  for (int k = 0; k < kEventKinds; ++k) {
    const EventInfo& e = kEventTable[k];
    INFO(e.kind);
    CHECK(int(e.id) == k);
    CHECK(kinds.insert(e.kind).second);
    CHECK(eventByKind(e.kind) == &e);
    CHECK(*e.docs);
    const std::string sev = e.severity;
    CHECK((sev == "info" || sev == "warning" || sev == "critical" || sev == "warning, critical" ||
           sev == "info, critical"));
  }
  for (const FaultInfo& f : kFaultTable) {
    INFO(f.key);
    const EventInfo* e = eventByKind(f.event);
    REQUIRE(e);
    CHECK_THAT(e->severity, Catch::Contains(f.severity));
  }
  CHECK(eventByKind("no_such_event") == nullptr);
  // the docs' table and the results file's list of kinds, in table order
  const std::string md = eventTableMarkdown(), list = eventKindList();
  for (const EventInfo& e : kEventTable)
    CHECK_THAT(md, Catch::Contains(wrapped("| `", e.kind, "` |")));
  CHECK(list.rfind(std::string(kEventTable[0].kind) + ",", 0) == 0);
}
