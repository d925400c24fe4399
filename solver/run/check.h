// check.h: `dctwin check FILE`: load a facility, scenario or sweep file (told apart by its
// content) and report every problem in it
#pragma once

#include <string>

namespace dctwin {

// checks `path` and returns the one-line verdict ("FILE: ok: ..."). A facility is loaded and
// compiled; a scenario is read alone, and applied to `facility` and compiled when one is given;
// a sweep is read and every case's facility and scenario are loaded (validateSweep). Throws
// LoadFailure with every error, std::runtime_error when the kind cannot be told.
std::string checkFile(const std::string& path, const std::string& facility = "");

}  // namespace dctwin
