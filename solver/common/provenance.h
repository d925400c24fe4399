// provenance.h: what every results file says about how it was made: the program's version and
// git revision, the command line, the host, the creation time and the data folder
// (docs/results.md, root attributes; docs/sweep-format.md)
//
// The command line is the process's: main() (the CLI, the GUI, a Python module) sets it once with
// setCommandLine before any run starts; the library only reads it. Everything else is found when
// provenance() is called.
#pragma once

#include <string>

#include "solver/common/params.h"

namespace dctwin {

// the release, e.g. "0.1.0" (CMake's project version)
const char* version();
// `git describe --always --dirty` of the source tree when the library was built, e.g.
// "7389f92-dirty"; "unknown" when it was built outside git
const char* gitRevision();
// "0.1.0 (git 7389f92)", as `dctwin --version` prints it after the program's name
std::string versionText();

// sets the command line recorded in results files; arguments are quoted where the shell needs it
void setCommandLine(int argc, const char* const* argv);
void setCommandLine(std::string text);
const std::string& commandLine();  // "" until set

struct Provenance {
  std::string version, git_revision;
  std::string command_line;  // "" when the front set none
  std::string host;          // gethostname()
  std::string created;       // UTC, ISO 8601: "2026-12-01T09:14:03Z"
  std::string data_dir;      // the data folder the run used (paths.h); "" when none was found
};

// the provenance of a file written now
Provenance provenance();

// the settings a run was integrated with, recorded next to the provenance
struct SolverSettings {
  double rtol = 0;             // CVODES relative tolerance                                  (1)
  double atol_T = 0;           // absolute tolerance on temperatures                         (K)
  double atol_ctrl = 0;        // on valve/pump positions and PI states                      (1)
  double max_step = 0;         // largest CVODES step                                        (s)
  double output_interval = 0;  // time between result rows                                   (s)
  double gpu_step = 0;         // the GPU layer's fixed step (docs/models/gpu_layer.md)      (s)
  double coupling_step = 0;    // GPU layer <-> coolant coupling window                      (s)
  AnnualParams annual;         // the multi-rate annual mode (docs/models/annual.md)
};

// "2026-12-01T09:14:03Z" for now
std::string utcTimestamp();

}  // namespace dctwin
