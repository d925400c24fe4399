// hdf5_sink.cpp: the results file (docs/results.md) from the output table: one dataset per
// observable of the run, labelled with its unit, description and basis (see sinks.h)
#include <algorithm>
#include <optional>

#include "solver/output/results.h"
#include "solver/output/results_reader.h"
#include "solver/output/series_filter.h"
#include "solver/output/sinks.h"

namespace dctwin {

struct Hdf5Sink::Impl {
  std::optional<ResultsFile> file;
  std::vector<int> handle;  // per Obs: series handle, -1 when not recorded
  int count = 0;
  std::vector<std::string> record;  // globs of the series written; empty: all
};

Hdf5Sink::Hdf5Sink(std::string path, int flush_every, double power_interval)
    : impl_(std::make_unique<Impl>()),
      path_(std::move(path)),
      flush_every_(std::max(1, flush_every)),
      power_interval_(power_interval) {}

Hdf5Sink::~Hdf5Sink() = default;

void Hdf5Sink::record(std::vector<std::string> patterns) {
  impl_->record = std::move(patterns);
}

void Hdf5Sink::begin(const RunLayout& L, const FrameLayout& F) {
  Impl& I = *impl_;
  if (!I.record.empty()) {
    std::vector<std::string> paths;
    for (const ObservableInfo& o : observableTable()) paths.push_back(o.path);
    const std::string bad = unmatchedPatternError(I.record, paths, "--record");
    if (!bad.empty()) throw ResultsError(bad);
  }
  I.file.emplace(path_);
  ResultsFile& f = *I.file;
  // 1. provenance: program, revision, command line, host, time, solver settings, inputs
  writeProvenance(f, provenance(), L.solver);
  f.setAttribute("/", "schema_version", static_cast<long long>(kResultsSchemaVersion));
  f.setAttribute("/", "facility_name", L.name);
  f.setAttribute("/", "facility_text", L.facility_text);
  f.setAttribute("/", "scenario_text", L.scenario_text);
  f.setAttribute("/", "status", std::string("running"));
  f.setAttribute("/", "n_states", static_cast<long long>(L.nstate));
  // 2. static layout: names and indices
  auto ints = [](const std::vector<int>& v) { return std::vector<long long>(v.begin(), v.end()); };
  f.writeStrings("/rack/names", L.rack_name, "rack names, column labels of /rack/*");
  f.writeStrings("/rack/row", L.rack_row, "hall row of each rack");
  f.writeIntVector("/rack/index", ints(L.rack_index), "position of each rack in its row");
  f.writeIntVector("/rack/cdu", ints(L.rack_cdu),
                   "index into /cdu/names of the CDU feeding each rack");
  f.writeStrings("/rack/type", L.rack_type, "rack type of each rack");
  f.writeStrings("/cdu/names", L.cdu_name, "CDU names, column labels of /cdu/*");
  if (L.ngpu > 0) {
    f.writeIntVector("/gpu/rack", ints(L.gpu_rack), "index into /rack/names of each GPU's rack");
    f.writeIntVector("/gpu/tray", ints(L.gpu_tray),
                     "compute tray of each GPU within its rack (0-based)");
    f.writeIntVector("/gpu/slot", ints(L.gpu_slot), "GPU slot within its rack (0-based)");
    f.writeIntVector("/gpu/job", ints(L.gpu_job),
                     "index into /job/names of each GPU's job (-1: none)");
    f.writeStrings("/gpu/type", L.gpu_type, "GPU model of each GPU (data/catalog/gpus)");
  }
  if (L.njob > 0) f.writeStrings("/job/names", L.job_name, "job names, column labels of /job/*");
  if (L.has_power) {
    f.writeStrings("/busway/names", L.busway_name, "busway names, column labels of /busway/*");
    f.writeIntVector("/rack/busway", ints(L.rack_busway),
                     "index into /busway/names of the busway feeding each rack");
  }
  // 3. one series per observable of the run (the fast ones only when asked for)
  I.handle.assign(kObservableCount, -1);
  for (const ObservableInfo& o : observableTable()) {
    if (!F.has(o.id) || (o.rate == Rate::Fast && power_interval_ <= 0)) continue;
    // the time axes always (/power/time with any /power series)
    const bool axis = o.id == Obs::Time ||
                      (o.id == Obs::PowerTime && anyGlobMatch(I.record, "/power/P_IT")) ||
                      (o.id == Obs::PowerTime && anyGlobMatch(I.record, "/power/rack_P"));
    if (!axis && !anyGlobMatch(I.record, o.path)) continue;
    I.handle[int(o.id)] = f.addSeries(o.path, L.width(o.shape), o.unit, o.description);
    f.setAttribute(o.path, "basis", std::string(basisName(o.basis)));
  }
}

void Hdf5Sink::row(const OutputFrame& fr) {
  Impl& I = *impl_;
  ResultsFile& f = *I.file;
  for (const ObservableInfo& o : observableTable())
    if (o.rate == Rate::Output && I.handle[int(o.id)] >= 0)
      f.appendRow(I.handle[int(o.id)], fr.get(o.id));
  if (++I.count % flush_every_ == 0) f.flush();
}

void Hdf5Sink::fastRow(const OutputFrame& fr) {
  Impl& I = *impl_;
  for (const ObservableInfo& o : observableTable())
    if (o.rate == Rate::Fast && I.handle[int(o.id)] >= 0)
      I.file->appendRow(I.handle[int(o.id)], fr.get(o.id));
}

void Hdf5Sink::end(const RunResult& r) {
  if (!impl_->file) return;
  ResultsFile& f = *impl_->file;
  f.setAttribute("/", "status",
                 std::string(!r.ok         ? "failed"
                             : r.cancelled ? "cancelled"
                                           : "completed"));
  f.setAttribute("/", "error", r.error);
  f.setAttribute("/", "t_end", r.t_end);
  f.setAttribute("/", "wall_seconds", r.wall_seconds);
  f.setAttribute(
      "/", "solver",
      std::string("CVODE BDF, Newton, KLU sparse direct, colored difference-quotient jacobian"));
  f.setAttribute("/", "solver_steps", static_cast<long long>(r.stats.steps));
  f.setAttribute("/", "solver_rhs_evals", static_cast<long long>(r.stats.rhs_evals));
  f.setAttribute("/", "solver_rhs_evals_jacobian", static_cast<long long>(r.stats.rhs_evals_jac));
  f.setAttribute("/", "solver_jacobian_evals", static_cast<long long>(r.stats.jac_evals));
  f.setAttribute("/", "solver_linear_setups", static_cast<long long>(r.stats.lin_setups));
  f.setAttribute("/", "solver_nonlinear_iterations", static_cast<long long>(r.stats.nonlin_iters));
  f.setAttribute("/", "solver_nonlinear_failures",
                 static_cast<long long>(r.stats.nonlin_conv_fails));
  f.setAttribute("/", "solver_error_test_failures", static_cast<long long>(r.stats.err_test_fails));
  f.setAttribute("/", "solver_last_step", r.stats.last_step);
  f.setAttribute("/", "hydraulic_solve_failures",
                 static_cast<long long>(r.stats.hydraulic_failures));
  // the event log, one entry per row across the datasets of /events
  std::vector<double> time;
  std::vector<std::string> component, kind, severity, message;
  for (const EventRecord& ev : r.events) {
    time.push_back(ev.time);
    component.push_back(ev.component);
    kind.push_back(ev.kind);
    severity.push_back(ev.severity);
    message.push_back(ev.message);
  }
  f.writeVector("/events/time", time, "s", "time of each event");
  f.writeStrings("/events/component", component, "component the event is about");
  f.writeStrings("/events/kind", kind, "event kind (docs/results.md)");
  f.writeStrings("/events/severity", severity, "info, warning or critical");
  f.writeStrings("/events/message", message, "what happened, in words");
  f.close();
  impl_->file.reset();
}

}  // namespace dctwin
