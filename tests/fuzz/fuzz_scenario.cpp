// fuzz_scenario.cpp: libFuzzer target for scenario files (parsing and applying them to a facility)
//
// any input must either load and apply to the default pod or throw LoadFailure; a crash, a
// sanitizer report, a hang or any other exception type is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "solver/input/loader.h"
#include "solver/input/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const dctwin::FacilitySpec pod =
      dctwin::loadFacility(std::string(DCTWIN_DATA_DIR) + "/facilities/pod_gb200.yaml");
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    dctwin::Scenario sc = dctwin::loadScenarioFromString(text, "fuzz.yaml");
    dctwin::FacilitySpec spec = pod;
    dctwin::applyScenario(sc, spec);
  } catch (const dctwin::LoadFailure& e) {
    if (e.errors().empty()) {
      std::fprintf(stderr, "LoadFailure without errors\n");
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception escaped the scenario loader: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "unexpected non-std exception escaped the scenario loader\n");
    std::abort();
  }
  return 0;
}
