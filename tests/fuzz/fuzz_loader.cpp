// fuzz_loader.cpp: libFuzzer target for the facility loader
//
// any input must either load or throw LoadFailure; a crash, a sanitizer report, a hang or any other
// exception type escaping the loader is a bug. Catalog references resolve against DCTWIN_DATA_DIR,
// and relative CSV paths against a folder that does not exist.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "solver/input/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    dctwin::FacilitySpec spec =
        dctwin::loadFacilityFromString(text, "fuzz.yaml", "/nonexistent-dctwin-fuzz");
    // a loaded spec must evaluate its series without trouble
    for (const auto& r : spec.racks) {
      std::vector<double> bp;
      r.heat_load.breakpoints(bp);
      (void)r.heat_load.eval(bp.empty() ? 0.0 : bp.back());
    }
  } catch (const dctwin::LoadFailure& e) {
    if (e.errors().empty()) {
      std::fprintf(stderr, "LoadFailure without errors\n");
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception escaped the loader: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "unexpected non-std exception escaped the loader\n");
    std::abort();
  }
  return 0;
}
