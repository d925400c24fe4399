// scenario.h: scenario files (docs/scenario-format.md) and how their events reach a facility
#pragma once

#include <string>
#include <vector>

#include "solver/input/spec.h"

namespace dctwin {

// a scenario: how long to run, what to record, and the input changes along the way
// (docs/scenario-format.md). Events are applied to the spec before it is compiled.
struct ScenarioEvent {
  double time = 0;     // (s)
  std::string kind;    // "heat_load", "facility_water_temperature" or a fault (FaultSpec)
  std::string target;  // rack or CDU name, or "*" for every rack
  double value = 0;    // SI
  SourceLoc loc;       // leaks
  FaultSpec::Where where = FaultSpec::Where::Rack;
  double area = 0, area_final = 0, growth_time = 0, Cd = 0.62;
  // sensor faults
  FaultSpec::Sensor sensor = FaultSpec::Sensor::SupplyTemperature;
  bool stuck = false;
  // fabric faults
  FabricFault fabric = FabricFault::LinkDegraded;
  int gpu = -1, nic = 0, tray = 0;
  SetpointKind setpoint = SetpointKind::SupplyTemperature;  // set-point events
  std::string part = {};                                    // plate degradation: the rack part
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
