// run.cpp: the one run path (see run.h)
#include "solver/run/run.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/output/observe.h"

namespace dctwin {

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
  return s;
}

RunReport runFacility(const FacilitySpec& spec, const Scenario& scenario,
                      const RunSettings& settings, std::span<RunSink* const> sinks,
                      const RunControl& control) {
  // 1. the scenario onto a copy of the spec; settings over the scenario's values
  FacilitySpec s = spec;
  applyScenario(scenario, s);
  const double duration = settings.duration > 0 ? settings.duration : scenario.duration;

  // 2. compile; solver options from the scenario and the settings
  FacilityModel model = compileFacility(s);
  const SolverSettings solver = solverSettings(s, scenario, settings);
  model.options.rtol = solver.rtol;
  model.options.atol_T = solver.atol_T;
  model.options.atol_ctrl = solver.atol_ctrl;
  model.options.max_step = solver.max_step;
  model.options.output_interval = solver.output_interval;
  model.options.threads = std::max(1, settings.threads);

  // 3. the state: a cold start at the scenario's temperature, or the facility water's at t = 0
  State st = makeState(model, scenario.has_T_init ? scenario.T_init : model.fws_T.eval(0.0));

  // 4. the sinks, the summary always among them, fed from the output table
  SummarySink summary;
  std::vector<RunSink*> all{&summary};
  all.insert(all.end(), sinks.begin(), sinks.end());
  std::function<void(double)> progress;
  if (control.progress) progress = [&](double t) { control.progress(t, duration); };
  FrameFeed feed(model, all, scenario.text, progress);

  // 5. simulate
  RunOptions ro;
  ro.duration = duration;
  ro.cancel = control.cancel;
  RunReport report;
  report.result = simulate(model, st, ro, &feed);

  // 6. end every sink with the outcome
  feed.end(report.result);
  report.layout = feed.layout();
  report.summary = std::move(summary.summary);
  return report;
}

}  // namespace dctwin
