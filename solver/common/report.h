// report.h: what a run reports besides its series: the event log, the solver statistics, the
// energy totals and the run's outcome. Plain data, no state or model: fronts include it freely.
#pragma once

#include <string>
#include <vector>

namespace dctwin {

// one entry of the event log (/events in the results)
struct EventRecord {
  double time = 0;        // (s)
  std::string component;  // "cdu1", "rack A03", "busway A", "ups", "facility water"
  std::string kind;       // "pump_failure", "low_flow", "gpu_shutdown", ...
  std::string severity;   // "info", "warning", "critical"
  std::string message;
};

struct SolverStats {
  long steps = 0, rhs_evals = 0, jac_evals = 0, lin_setups = 0, nonlin_iters = 0;
  long nonlin_conv_fails = 0, err_test_fails = 0, rhs_evals_jac = 0;
  double last_step = 0;
  long hydraulic_failures = 0;
  double gpu_layer_seconds = 0;  // wall time spent in the GPU layer and power chain (s)
  // the multi-rate annual mode (docs/models/annual.md): full-resolution windows run, simulated
  // time in them and in the slow segments (s)
  long annual_windows = 0;
  double annual_window_time = 0, annual_slow_time = 0;
};

// cumulative energy since t = 0 (J)
struct EnergyTotals {
  double heat_in = 0;       // rack heat to liquid + pump heat to fluid
  double heat_out_fws = 0;  // carried away by the facility water
  double heat_loss = 0;     // lost from the piping to ambient
  double stored = 0;        // change of the energy held in fluid and cold plates
  // the GPU layer (resolved accelerators), its own balance: electric = to_coolant + stored
  double gpu_electric = 0;    // electrical energy into the GPUs
  double gpu_to_coolant = 0;  // heat from the GPU cold plates into the coolant
  double gpu_stored = 0;      // change of the energy held in the GPU die, HBM and plate nodes
  // the room-air node (when the facility has one): air_in = air_removed + air_stored
  double air_in = 0;       // rack air-side heat into the room air
  double air_removed = 0;  // removed by the air handlers
  double air_stored = 0;   // change of the energy held in the room air
  // air handlers (docs/models/air_handler.md): their fans' heat is in the room air too, so
  // air_in + ah_fans = air_removed + air_stored; the facility water takes air_removed + ah_chiller
  double ah_fans = 0;        // air-handler fan electrical energy
  double ah_chiller = 0;     // chilled-water chiller electrical energy
  double pump_electric = 0;  // CDU pump electrical energy
  double air_racks = 0;      // air-cooled racks' IT + fan energy (docs/models/air_rack.md)
  double balanceError() const { return heat_in - heat_out_fws - heat_loss - stored; }
};

struct RunResult {
  bool ok = true;
  bool cancelled = false;   // stopped by RunOptions::cancel (ok stays true)
  std::string interrupted;  // "SIGINT", "SIGTERM": the cancel came from that signal (status
                            // `interrupted` in the results file)
  std::string error;        // "at t = 1234.5 s: CVODE ... (largest local error: rack A03 case)"
  double t_end = 0;         // last time reached (s)
  SolverStats stats;
  EnergyTotals energy;
  double wall_seconds = 0;
  std::vector<EventRecord> events;  // the event log (faults, alarms), in time order
};

}  // namespace dctwin
