// facility_fixtures.h: helpers the solver tests share for reading a facility's text and its
// errors (one copy instead of one per test file)
#pragma once

#include <string>
#include <vector>

#include "solver/input/loader.h"

namespace dctwin::test {

// the repository's data folder (catalog, facilities, scenarios)
inline std::string dataDir() {
  return std::string(DCTWIN_SOURCE_DIR) + "/data/";
}

// every load error of `text` read as x.yaml beside the bundled facilities; empty when it loads
inline std::vector<LoadError> facilityErrors(const std::string& text) {
  try {
    loadFacilityFromString(text, "x.yaml", dataDir() + "facilities");
  } catch (const LoadFailure& e) {
    return e.errors();
  }
  return {};
}

// true when one of `errs` is at a key path containing `path_part` with a message containing
// `msg_part`
inline bool anyError(const std::vector<LoadError>& errs, const std::string& path_part,
                     const std::string& msg_part) {
  for (const LoadError& e : errs)
    if (e.loc.path.find(path_part) != std::string::npos &&
        e.message.find(msg_part) != std::string::npos)
      return true;
  return false;
}

}  // namespace dctwin::test
