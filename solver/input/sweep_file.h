// sweep_file.h: sweep files (docs/sweep-format.md): the base facility and scenario, the
// parameters by path and how cases are sampled. Running the cases: solver/run/sweep.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/input/loader.h"

namespace dctwin {

struct SweepParam {
  std::string name;    // column name (default: the path)
  std::string target;  // "facility", "scenario", or "facility_file" (values are facility files)
  std::string path;    // e.g. facility_water.supply_temperature, cdus[cdu1].control.flow_setpoint
  std::vector<std::string> values;  // YAML scalars as written ("32 degC"); grid and list
  double lo = 0, hi = 0;            // Latin hypercube: range in `unit`
  std::string unit;                 // "degC", "kW", ... ("" for plain numbers)
  SourceLoc loc;
};

struct SweepSpec {
  std::string file, text;
  std::string name;
  std::string facility_path, scenario_path;  // resolved against the sweep file's folder
  std::string base_dir;                      // the sweep file's folder
  enum class Mode { Grid, List, Lhs } mode = Mode::Grid;
  int samples = 0;         // Latin hypercube
  std::uint64_t seed = 1;  // Latin hypercube
  double duration = 0;     // overrides the scenario's (s); 0: the scenario's
  double output_interval = 0;
  double metrics_from = -1;  // metrics over [metrics_from, end] (s); -1: from the first
                             // training job's first steady iteration (docs/sweep-format.md)
  bool series = false;       // keep every case's run file (time series, compressed)
  std::vector<SweepParam> params;
};

SweepSpec loadSweep(const std::string& path);  // throws LoadFailure
SweepSpec loadSweepFromString(const std::string& text, const std::string& name,
                              const std::string& base_dir);

}  // namespace dctwin
