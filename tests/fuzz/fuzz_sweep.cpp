// fuzz_sweep.cpp: libFuzzer target for sweep files (reading them and expanding their cases)
//
// any input must either load or throw LoadFailure; a crash, a sanitizer report, a hang or any
// other exception type is a bug. Cases are expanded only for small sweeps (the grid of a valid
// file may be huge by design).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "solver/input/loader.h"
#include "solver/input/sweep_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const dctwin::SweepSpec s = dctwin::loadSweepFromString(text, "fuzz.yaml", ".");
    if (s.params.empty()) {
      std::fprintf(stderr, "a sweep without parameters loaded\n");
      std::abort();
    }
  } catch (const dctwin::LoadFailure& e) {
    if (e.errors().empty()) {
      std::fprintf(stderr, "LoadFailure without errors\n");
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception escaped the sweep reader: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "unexpected non-std exception escaped the sweep reader\n");
    std::abort();
  }
  return 0;
}
