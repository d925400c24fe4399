// observe.h: the library side of the output table: the layout of a compiled model and the
// evaluation of every observable from a run's state. Only the run path (solver/run) and engine
// tests include this header; sinks and fronts read OutputFrame (solver/output/observables.h).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "solver/engine/integrator.h"
#include "solver/output/observables.h"
#include "solver/output/sinks.h"

namespace dctwin {

// names, indices and limits of a compiled model, as fronts see them
RunLayout describeModel(const FacilityModel& m);

// fills f.values (sized by f.layout) with every existing Rate::Output observable at output time t.
// Never allocates once f.values has its size.
void evaluateObservables(const FacilityModel& m, const State& st, const double* y, double t,
                         const EnergyTotals& e, OutputFrame& f);

// the Rate::Fast observables after a fast step (the /power series) into f.values[0 ..
// f.layout->fast_size): time, P_IT, rack power
// the plant's rows of the output table (solver/output/plant_observables.cpp), one value each
double plantObservable(Obs id, const FacilityModel& m, const State& st, double t);
void evaluateFastObservables(const FacilityModel& m, const State& st, double t, OutputFrame& f);

// the engine's output hook (OutputSink) that feeds RunSinks: the layout is described and every
// sink begun at construction; each output row evaluates the table once and hands the frame to
// every sink; fast rows go only to the sinks that asked for them, each at its own interval;
// end() ends every sink with the outcome. progress (may be empty) is called at every output row
// and fast step with the simulated time. duration: the run's simulated time (RunLayout::duration;
// the results file sizes its chunk index by it), 0 where not known.
class FrameFeed : public OutputSink {
 public:
  FrameFeed(const FacilityModel& m, std::vector<RunSink*> sinks,
            const std::string& scenario_text = "", std::function<void(double t)> progress = nullptr,
            double duration = 0);
  void sample(const FacilityModel& m, const State& st, const double* y, double t,
              const EnergyTotals& e) override;
  void fast(const FacilityModel& m, const State& st, double t) override;
  void end(const RunResult& r);
  const RunLayout& layout() const { return layout_; }

 private:
  RunLayout layout_;
  FrameLayout frames_;
  std::vector<RunSink*> sinks_;
  std::function<void(double)> progress_;
  OutputFrame frame_, fast_;
  std::vector<int> every_;
  std::vector<long> count_;
  std::chrono::steady_clock::time_point wall0_;
};

}  // namespace dctwin
