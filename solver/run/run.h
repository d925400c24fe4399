// run.h: the one run path. A facility spec and a scenario go in; the scenario's events are
// applied to a copy of the spec, it is compiled, a state is made, and the run is simulated with
// every sink fed from the output table (solver/output/observables.h). The CLI (`dctwin run`),
// the GUI's worker thread, every sweep case and the benchmarks call runFacility; none of them
// sees the model or the state.
#pragma once

#include <atomic>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "solver/common/run_limits.h"
#include "solver/input/scenario.h"
#include "solver/input/spec.h"
#include "solver/output/sinks.h"
#include "solver/output/summary.h"

namespace dctwin {

// what the caller may set over the scenario's values
struct RunSettings {
  double duration = 0;         // 0: the scenario's (s)
  double output_interval = 0;  // 0: the scenario's (s)
  int threads = 1;             // worker threads of the run (results do not depend on it)
  // the multi-rate annual mode (docs/models/annual.md) with the scenario's `annual:` windows
  // (or their defaults), whatever the scenario's `mode`; `dctwin run --annual`
  bool annual = false;
  // the GPU layer's windows in blocks of steps where they may (SolverOptions::gpu_blocks); false:
  // step by step (the benchmark's A/B, the tests' reference)
  bool gpu_blocks = true;
  // past the limits of checkRunSize (a very long run, very many rows, a very large results file):
  // run anyway (`--allow-large`)
  bool allow_large = false;
};

// the bounds a run keeps unless allow_large: solver/common/run_limits.h (checkRunSize)

struct RunControl {
  // set from another thread (or a signal handler) to stop the run at the next coupling window;
  // the results so far stay
  const std::atomic<bool>* cancel = nullptr;
  // set by a signal handler to the signal's number together with cancel: the run ends as
  // interrupted (RunResult::interrupted = "SIGINT", status `interrupted` in the results file)
  const std::atomic<int>* signal = nullptr;
  // called at every output row and after every GPU-layer step with the simulated time and the
  // run's duration (s); from the thread that runs the simulation
  std::function<void(double t, double duration)> progress;
};

struct RunReport {
  RunResult result;
  // what the run did not do that the inputs asked for (scenario events after a --duration that
  // cut the scenario short)
  std::vector<std::string> warnings;
  RunLayout layout;
  RunSummary summary;
  std::string text() const { return formatSummary(layout, summary, result); }
};

// the whole recipe. Throws LoadFailure when the scenario names unknown targets, has an event after
// its own duration, or the facility does not compile, ResultsError when a sink cannot create its
// file or cannot write (a full disk; the sinks are ended as failed first); a solver failure, a
// cancel or a signal is in the report (the sinks have the rows so far and have been ended).
RunReport runFacility(const FacilitySpec& spec, const Scenario& scenario,
                      const RunSettings& settings, std::span<RunSink* const> sinks,
                      const RunControl& control = {});

// the tolerances and steps runFacility integrates a run with (the scenario's rtol and output
// interval under the settings' overrides, the library's absolute tolerances and largest step, the
// facility's GPU step and coupling window); results files record them (docs/results.md)
SolverSettings solverSettings(const FacilitySpec& spec, const Scenario& scenario,
                              const RunSettings& settings);

// the layout of a facility as fronts see it (names, indices, GPU limits) without running it;
// throws LoadFailure like compileFacility
RunLayout describeFacility(const FacilitySpec& spec);

// "SIGINT", "SIGTERM", ... ("signal N" for others)
std::string signalName(int sig);

}  // namespace dctwin
