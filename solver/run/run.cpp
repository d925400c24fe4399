// run.cpp: the one run path (see run.h)
#include "solver/run/run.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/output/observe.h"

namespace dctwin {

std::string signalName(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal " + std::to_string(sig);
  }
}

RunLayout describeFacility(const FacilitySpec& spec) {
  return describeModel(compileFacility(spec));
}

SolverSettings solverSettings(const FacilitySpec& spec, const Scenario& scenario,
                              const RunSettings& settings) {
  const SolverOptions defaults;
  const double duration = settings.duration > 0 ? settings.duration : scenario.duration;
  const double interval =
      settings.output_interval > 0 ? settings.output_interval : scenario.output_interval;
  SolverSettings s;
  s.rtol = scenario.rtol;
  s.atol_T = defaults.atol_T;
  s.atol_ctrl = defaults.atol_ctrl;
  s.max_step = defaults.max_step;
  s.output_interval = std::min(interval, duration);
  s.gpu_step = spec.gpu_step;
  s.coupling_step = spec.coupling_step;
  s.annual = scenario.annual;
  s.annual.enabled = scenario.annual.enabled || settings.annual;
  return s;
}

RunReport runFacility(const FacilitySpec& spec, const Scenario& scenario,
                      const RunSettings& settings, std::span<RunSink* const> sinks,
                      const RunControl& control) {
  // 1. the scenario onto a copy of the spec; settings over the scenario's values
  FacilitySpec s = spec;
  applyScenario(scenario, s);
  const double duration = settings.duration > 0 ? settings.duration : scenario.duration;
  if (!settings.allow_large) {
    const double interval =
        settings.output_interval > 0 ? settings.output_interval : scenario.output_interval;
    checkRunSize(duration, std::min(interval, duration));
  }
  // an event after the end would be dropped without a word: after the scenario's own duration
  // it is an error (one per event); after a shorter duration the caller asked for, a warning
  std::vector<std::string> warnings;
  {
    std::vector<LoadError> late;
    char b[200];
    for (const ScenarioEvent& e : scenario.events) {
      if (e.time > scenario.duration + 1e-9) {
        std::snprintf(b, sizeof b,
                      "event at t = %g s is after the end of the scenario (duration %g s): "
                      "lengthen the duration or move the event",
                      e.time, scenario.duration);
        late.push_back(
            {e.loc.file.empty() ? SourceLoc{scenario.file, 0, 0, "events"} : e.loc, e.kind, b});
      } else if (e.time > duration + 1e-9) {
        std::snprintf(b, sizeof b, "%s event at t = %g s is after the end of this run (%g s)",
                      e.kind.c_str(), e.time, duration);
        warnings.push_back(b);
      }
    }
    if (!late.empty()) throw LoadFailure(std::move(late));
  }

  // 2. compile; solver options from the scenario and the settings
  FacilityModel model = compileFacility(s);
  const SolverSettings solver = solverSettings(s, scenario, settings);
  model.options.rtol = solver.rtol;
  model.options.atol_T = solver.atol_T;
  model.options.atol_ctrl = solver.atol_ctrl;
  model.options.max_step = solver.max_step;
  model.options.output_interval = solver.output_interval;
  model.options.threads = std::max(1, settings.threads);
  model.options.gpu_blocks = settings.gpu_blocks;
  model.options.annual = solver.annual;

  // 3. the state: a cold start at the scenario's temperature, or the facility water's at t = 0
  State st = makeState(model, scenario.has_T_init ? scenario.T_init : model.fws_T.eval(0.0));

  // 4. the sinks, the summary always among them, fed from the output table
  SummarySink summary;
  // the summary reads the meter's fast rows where another sink asks for them (the grid metrics)
  double fast = 0;
  for (RunSink* k : sinks)
    if (k->fastInterval() > 0 && (fast == 0 || k->fastInterval() < fast)) fast = k->fastInterval();
  summary.setFastInterval(fast);
  std::vector<RunSink*> all{&summary};
  all.insert(all.end(), sinks.begin(), sinks.end());
  std::function<void(double)> progress;
  if (control.progress) progress = [&](double t) { control.progress(t, duration); };
  FrameFeed feed(model, all, scenario.text, progress, duration);

  // 5. simulate
  RunOptions ro;
  ro.duration = duration;
  ro.cancel = control.cancel;
  RunReport report;
  report.warnings = std::move(warnings);
  try {
    report.result = simulate(model, st, ro, &feed);
  } catch (const std::exception& e) {
    // a sink could not write (a full disk): end every sink as failed, then pass the error on
    RunResult failed;
    failed.ok = false;
    failed.error = e.what();
    failed.t_end = st.time;
    failed.events = st.events;
    try {
      feed.end(failed);
    } catch (const std::exception&) {  // the sink that failed may fail again on closing
    }
    throw;
  }
  if (report.result.cancelled && control.signal) {
    const int sig = control.signal->load();
    if (sig != 0) report.result.interrupted = signalName(sig);
  }

  // 6. end every sink with the outcome
  feed.end(report.result);
  report.layout = feed.layout();
  report.summary = std::move(summary.summary);
  return report;
}

}  // namespace dctwin
