// integrator.h: time integration of a compiled facility with CVODES (BDF, Newton, KLU)
//
// the jacobian is sparse (FacilityModel::jac_colptr/jac_rowind) and filled by column-grouped
// difference quotients, one right-hand side per color, so its cost does not grow with the number
// of racks. Input discontinuities (load steps) are integrated up to exactly and the integrator is
// restarted there. A failure names the component and the time, and the results so far stay.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "solver/engine/engine.h"

namespace dctwin {

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
  double air_in = 0;         // rack air-side heat into the room air
  double air_removed = 0;    // removed by the air handlers
  double air_stored = 0;     // change of the energy held in the room air
  double pump_electric = 0;  // CDU pump electrical energy
  double balanceError() const { return heat_in - heat_out_fws - heat_loss - stored; }
};

// receives the state at t = 0 and at every output time
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // y: the state vector at t; st.sig holds the signals evaluated there
  virtual void sample(const FacilityModel& m, const State& st, const double* y, double t,
                      const EnergyTotals& e) = 0;
  // after every fast (GPU-layer) step, for sub-second power; st.gl holds the GPU layer
  virtual void fast(const FacilityModel& m, const State& st, double t) {
    (void)m, (void)st, (void)t;
  }
};

struct RunOptions {
  double duration = 3600;  // (s)
  // output interval and tolerances come from model.options
  // set from another thread to stop the run at the next coupling window (GUI cancel); the
  // results so far stay, RunResult::cancelled is set
  const std::atomic<bool>* cancel = nullptr;
};

struct RunResult {
  bool ok = true;
  bool cancelled = false;  // stopped by RunOptions::cancel (ok stays true)
  std::string error;       // "at t = 1234.5 s: CVODE ... (largest local error: rack A03 case)"
  double t_end = 0;        // last time reached (s)
  SolverStats stats;
  EnergyTotals energy;
  double wall_seconds = 0;
  std::vector<EventRecord> events;  // the event log (faults, alarms), in time order
};

RunResult simulate(const FacilityModel& m, State& st, const RunOptions& opt, OutputSink* sink);

// name of state i for messages, e.g. "rack 'A03' cold-plate case temperature"
std::string describeState(const FacilityModel& m, int i);

}  // namespace dctwin
