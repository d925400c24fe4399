#include <catch2/catch.hpp>

#include <string>

#include "solver/input/loader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {
const char* kFacility = R"(dctwin: 1
name: s
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
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2, heat_load: 100 kW}
)";
}

TEST_CASE("scenario events become steps of the rack and facility-water profiles", "[scenario]") {
  Scenario sc = loadScenarioFromString(R"(dctwin_scenario: 1
duration: 2 h
output_interval: 10 s
initial_temperature: 30 degC
events:
  - {time: 30 min, heat_load: 120 kW}
  - {time: 10 min, rack: A02, heat_load: 50 kW}
  - {time: 1 h, facility_water_temperature: 34 degC}
)",
                                       "s.yaml");
  CHECK(sc.duration == 7200);
  CHECK(sc.output_interval == 10);
  CHECK(sc.T_init == Approx(303.15));
  REQUIRE(sc.events.size() == 3);
  CHECK(sc.events[0].time == 600);  // sorted by time
  FacilitySpec spec = loadFacilityFromString(kFacility, "f.yaml");
  applyScenario(sc, spec);
  CHECK(spec.racks[0].heat_load.eval(0) == 100e3);
  CHECK(spec.racks[0].heat_load.eval(1799) == 100e3);
  CHECK(spec.racks[0].heat_load.eval(1800) == 120e3);
  CHECK(spec.racks[1].heat_load.eval(601) == 50e3);
  CHECK(spec.racks[1].heat_load.eval(1801) == 120e3);
  CHECK(spec.facility_water.T_supply.eval(3599) == Approx(305.15));
  CHECK(spec.facility_water.T_supply.eval(3601) == Approx(307.15));
  std::vector<double> bp;
  spec.racks[1].heat_load.breakpoints(bp);
  CHECK(bp == std::vector<double>{600, 1800});
}

TEST_CASE("scenario errors name file, line, key and value", "[scenario]") {
  try {
    loadScenarioFromString(
        "duration: 2 parsecs\noutput_intervall: 10 s\nevents:\n  - {time: 1 h}\n", "bad.yaml");
    FAIL("expected a LoadFailure");
  } catch (const LoadFailure& e) {
    std::string what = e.what();
    INFO(what);
    CHECK(e.errors().size() == 3);
    CHECK(what.find("bad.yaml:1:") != std::string::npos);
    CHECK(what.find("parsecs") != std::string::npos);
    CHECK(what.find("did you mean 'output_interval'") != std::string::npos);
    CHECK(what.find("needs one of") != std::string::npos);
  }
  Scenario sc =
      loadScenarioFromString("events:\n  - {time: 1 h, rack: A1, heat_load: 1 kW}\n", "s.yaml");
  FacilitySpec spec = loadFacilityFromString(kFacility, "f.yaml");
  try {
    applyScenario(sc, spec);
    FAIL("expected a LoadFailure");
  } catch (const LoadFailure& e) {
    CHECK(std::string(e.what()).find("did you mean 'A01'") != std::string::npos);
  }
}

TEST_CASE("the bundled scenario applies to heat-load racks, never to resolved GPUs", "[scenario]") {
  FacilitySpec spec =
      loadFacility(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/two_cdu_mixed.yaml");
  Scenario sc =
      loadScenario(std::string(DCTWIN_SOURCE_DIR) + "/data/scenarios/load_step_excursion.yaml");
  applyScenario(sc, spec);
  CHECK(spec.racks[2].heat_load.eval(7000) == 90e3);
  CHECK(spec.racks[3].heat_load.eval(7000) == 120e3);
  // the default pod's GPUs are resolved: a heat_load event naming one of its racks is an error,
  // and rack-less events leave them alone
  FacilitySpec pod =
      loadFacility(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml");
  Scenario bad =
      loadScenarioFromString("events:\n  - {time: 1 h, rack: A03, heat_load: 1 kW}\n", "s.yaml");
  CHECK_THROWS_AS(applyScenario(bad, pod), LoadFailure);
  Scenario all = loadScenarioFromString("events:\n  - {time: 1 h, heat_load: 1 kW}\n", "s.yaml");
  try {
    applyScenario(all, pod);
    FAIL("expected a LoadFailure");
  } catch (const LoadFailure& e) {
    CHECK(std::string(e.what()).find("no rack has a heat_load profile") != std::string::npos);
  }
  CHECK_FALSE(pod.racks[0].has_heat_load);
}
