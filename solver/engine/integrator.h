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

// an output hook that forwards to several (engine tests: a recorder beside a FrameFeed)
class TeeSink : public OutputSink {
 public:
  explicit TeeSink(std::vector<OutputSink*> sinks) : sinks_(std::move(sinks)) {}
  void sample(const FacilityModel& m, const State& st, const double* y, double t,
              const EnergyTotals& e) override {
    for (auto* s : sinks_) s->sample(m, st, y, t, e);
  }
  void fast(const FacilityModel& m, const State& st, double t) override {
    for (auto* s : sinks_) s->fast(m, st, t);
  }

 private:
  std::vector<OutputSink*> sinks_;
};

struct RunOptions {
  double duration = 3600;  // (s)
  // output interval and tolerances come from model.options
  // set from another thread to stop the run at the next coupling window (GUI cancel); the
  // results so far stay, RunResult::cancelled is set
  const std::atomic<bool>* cancel = nullptr;
};

RunResult simulate(const FacilityModel& m, State& st, const RunOptions& opt, OutputSink* sink);

// name of state i for messages, e.g. "rack 'A03' cold-plate case temperature"
std::string describeState(const FacilityModel& m, int i);

}  // namespace dctwin
