// consumer: a program built against an installed dctwin (find_package(dctwin), dctwin::solver).
// Loads the default pod from the installed data folder and prints its rack count and the library
// it was built with:
//   racks: 8
//   dctwin 0.1.0 (git ...)
#include <cstdio>
#include <exception>

#include "solver/common/provenance.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

int main() {
  try {
    dctwin::LoadOptions options;
    options.data_dirs = {CONSUMER_DATA_DIR};  // dctwin_DATA_DIR from dctwinConfig.cmake
    const dctwin::FacilitySpec spec = dctwin::loadFacility(
        std::string(CONSUMER_DATA_DIR) + "/facilities/pod_gb200.yaml", options);
    const dctwin::RunLayout layout = dctwin::describeFacility(spec);
    std::printf("racks: %d\n", layout.nrack);
    std::printf("dctwin %s\n", dctwin::versionText().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
