// scenario.h: scenario files (docs/scenario-format.md) and how their events reach a facility
#pragma once

#include <string>
#include <vector>

#include "solver/input/spec.h"

namespace dctwin {

// a scenario: how long to run, what to record, and the input changes along the way
// (docs/scenario-format.md). Events are applied to the spec before it is compiled.
struct ScenarioEvent : FaultArgs {
  double time = 0;     // (s)
  std::string kind;    // "heat_load", "facility_water_temperature", "job_start", "job_stop" or a
                       // fault's key (solver/common/fault_table.h; "setpoint" for set points)
  std::string target;  // rack or CDU name, or "*" for every rack
  double value = 0;    // SI
  SourceLoc loc;
};

struct Scenario {
  std::string file;
  std::string text;
  std::vector<std::string> input_files;  // the other files it read (CSV series)
  double duration = 3600;                // (s)
  double output_interval = 60;           // (s)
  double rtol = 1e-6;
  int hot_spares = -1;  // spare GPUs for every training job; -1: the facility's (checkpoint.md)
  bool has_T_init = false;
  double T_init = 0;  // initial fluid temperature; default: facility water at t=0 (K)
  std::vector<ScenarioEvent> events;
  DetectionSpec detection;
  std::vector<std::string> protection_keys;  // the `protection` keys the file sets
  AnnualParams annual;  // `mode: annual` and its `annual:` section (docs/models/annual.md)
  FailureProcessParams failures;  // the `failures:` section (docs/models/failures.md)
  StragglerParams stragglers;     // the `stragglers:` section (the same page)
};

// throws LoadFailure
Scenario loadScenario(const std::string& path);
Scenario loadScenarioFromString(const std::string& text, const std::string& name);
// throws LoadFailure for unknown targets (with did-you-mean)
void applyScenario(const Scenario& sc, FacilitySpec& spec);

}  // namespace dctwin
