// hdf5_sink.cpp: the results file (docs/results.md) from the output table: one dataset per
// observable of the run, labelled with its unit, description and basis (see sinks.h)
//
// crash safety: every series is chunked by flush_every rows and the file is flushed exactly when
// a block of that many rows is complete, so no chunk is ever rewritten (solver/output/results.h);
// provenance is flushed before the first row, and the event log, the solver statistics and
// `rows_complete` are brought up to date at every flush, `rows_complete` (and at the end `status`)
// in a flush after the one that wrote the rows it counts
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "models/weather.h"
#include "solver/common/event_table.h"
#include "solver/common/run_limits.h"
#include "solver/output/grid_meter.h"
#include "solver/output/monthly.h"
#include "solver/output/results.h"
#include "solver/output/results_reader.h"
#include "solver/output/series_filter.h"
#include "solver/output/sinks.h"

namespace dctwin {

namespace {
// a flush costs a few ms; runs that write many rows per second of wall time flush at most this
// often, so that the file spends little of its time half-flushed
constexpr double kMinFlushSeconds = 0.25;
// the most chunks a series of a long run holds (see begin)
constexpr std::size_t kMaxChunksPerSeries = 512;
}  // namespace

struct Hdf5Sink::Impl {
  std::optional<ResultsFile> file;
  std::vector<int> handle;  // per Obs: series handle, -1 when not recorded
  int count = 0;
  std::vector<std::string> record;  // globs of the series written; empty: all
  int ev_time = -1, ev_component = -1, ev_kind = -1, ev_severity = -1, ev_message = -1;
  std::size_t events_written = 0;
  double last_flush_wall = -1e300;  // wall time of the last flush in row() (s)
  MonthlyTotals monthly;            // /monthly, written at the end (a plant section)
  GridMeter grid;                   // /grid, written at the end (the meter's fast rows)

  // appends the events not yet in the file
  void events(const std::vector<EventRecord>& log) {
    ResultsFile& f = *file;
    for (std::size_t k = events_written; k < log.size(); ++k) {
      const EventRecord& ev = log[k];
      f.appendRow(ev_time, std::span<const double>(&ev.time, 1));
      f.appendString(ev_component, ev.component);
      f.appendString(ev_kind, ev.kind);
      f.appendString(ev_severity, ev.severity);
      f.appendString(ev_message, ev.message);
    }
    events_written = std::max(events_written, log.size());
  }

  void stats(const SolverStats& s, double t, double wall) {
    ResultsFile& f = *file;
    f.setAttribute("/", "t_end", t);
    f.setAttribute("/", "wall_seconds", wall);
    f.setAttribute("/", "solver_steps", static_cast<long long>(s.steps));
    f.setAttribute("/", "solver_rhs_evals", static_cast<long long>(s.rhs_evals));
    f.setAttribute("/", "solver_rhs_evals_jacobian", static_cast<long long>(s.rhs_evals_jac));
    f.setAttribute("/", "solver_jacobian_evals", static_cast<long long>(s.jac_evals));
    f.setAttribute("/", "solver_linear_setups", static_cast<long long>(s.lin_setups));
    f.setAttribute("/", "solver_nonlinear_iterations", static_cast<long long>(s.nonlin_iters));
    f.setAttribute("/", "solver_nonlinear_failures", static_cast<long long>(s.nonlin_conv_fails));
    f.setAttribute("/", "solver_error_test_failures", static_cast<long long>(s.err_test_fails));
    f.setAttribute("/", "solver_last_step", s.last_step);
    f.setAttribute("/", "hydraulic_solve_failures", static_cast<long long>(s.hydraulic_failures));
    f.setAttribute("/", "annual_windows", static_cast<long long>(s.annual_windows));
    f.setAttribute("/", "annual_window_time", s.annual_window_time);
    f.setAttribute("/", "annual_slow_time", s.annual_slow_time);
  }

  // flush the complete blocks, then mark their rows as complete (a second, small flush)
  void flush(std::size_t rows) {
    file->flush(false);
    file->setAttribute("/", "rows_complete", static_cast<long long>(rows));
    file->flush(false);
  }
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
  // the rows the series will hold (a row per output or power interval, and the first) and the
  // widest series, which size the chunk index (ResultsFile)
  std::size_t rows = 0, widest = 1;
  if (L.duration > 0 && L.solver.output_interval > 0)
    rows = std::size_t(std::ceil(L.duration / L.solver.output_interval)) + 2;
  if (L.duration > 0 && power_interval_ > 0)  // the /power series' own rows
    rows = std::max(rows, std::size_t(std::ceil(L.duration / power_interval_)) + 2);
  for (int w : F.width) widest = std::max(widest, std::size_t(std::max(w, 0)));
  // a long run gets chunks (and flushes) of more rows, so that a series holds at most
  // kMaxChunksPerSeries chunks: HDF5 keeps every chunk-index node of the file in memory (the
  // metadata cache never evicts, results.cpp) at ~300 bytes per chunk in memory, which for 10-row
  // chunks grew with the run (a 30-day pod: 4,320 chunks in each of 174 series, ~380 MB)
  if (rows > kMaxChunksPerSeries * std::size_t(flush_every_))
    flush_every_ = int((rows + kMaxChunksPerSeries - 1) / kMaxChunksPerSeries);
  // the size the file would reach, refused past the limit before the file is created
  if (!allow_large_ && L.duration > 0 && L.solver.output_interval > 0) {
    double row_bytes = 0, power_row_bytes = 0;
    for (const ObservableInfo& o : observableTable()) {
      if (!F.has(o.id) || (o.rate == Rate::Fast && power_interval_ <= 0)) continue;
      if (o.id != Obs::Time && o.id != Obs::PowerTime && !anyGlobMatch(I.record, o.path)) continue;
      const double b = 8.0 * double(std::max<std::size_t>(L.width(o.shape), 1));
      (o.rate == Rate::Fast ? power_row_bytes : row_bytes) += b;
    }
    checkRunSize(L.duration, L.solver.output_interval, power_interval_, row_bytes, power_row_bytes);
  }
  I.file.emplace(path_, std::size_t(flush_every_), rows, widest);
  I.file->setThreads(L.threads);
  I.monthly.begin(L);
  I.grid = GridMeter{};
  if (power_interval_ > 0) I.grid.begin(L, F);
  ResultsFile& f = *I.file;
  // 1. provenance: program, revision, command line, host, time, solver settings, inputs
  writeProvenance(f, provenance(), L.solver);
  f.setAttribute("/", "schema_version", static_cast<long long>(kResultsSchemaVersion));
  f.setAttribute("/", "facility_name", L.name);
  f.setAttribute("/", "facility_text", L.facility_text);
  f.setAttribute("/", "scenario_text", L.scenario_text);
  f.setAttribute("/", "status", std::string("running"));
  f.setAttribute("/", "error", std::string());
  f.setAttribute("/", "signal", std::string());
  f.setAttribute("/", "n_states", static_cast<long long>(L.nstate));
  f.setAttribute(
      "/", "solver",
      std::string("CVODE BDF, Newton, KLU sparse direct, colored difference-quotient jacobian"));
  I.stats(SolverStats{}, 0.0, 0.0);
  f.setAttribute("/", "rows_complete", 0LL);
  // calendar time (a plant's weather sets it): t = 0 in the weather's non-leap year, as seconds
  // from 1 January 00:00 and as "MM-DD hh:mm", local standard time of the weather file
  if (L.has_plant) {
    f.setAttribute("/", "calendar_year_start", L.year_start);
    f.setAttribute("/", "calendar_start", calendarText(L.year_start));
    // its time zone (the weather's local standard time): "UTC-07:00", or "unknown" (constant or
    // design-day weather without plant.weather.time_zone); the offset in s, NaN when unknown
    f.setAttribute("/", "calendar_utc_offset", L.utc_offset);
    f.setAttribute("/", "calendar_time_zone", utcOffsetText(L.utc_offset));
  }
  // 2. static layout: names and indices, one dataset per row of the layout table
  for (const LayoutInfo& r : layoutTable()) {
    if (!layoutPresent(r, L)) continue;
    if (r.strings) {
      f.writeStrings(r.path, L.*r.strings, r.description);
    } else {
      const std::vector<int>& v = L.*r.ints;
      f.writeIntVector(r.path, std::vector<long long>(v.begin(), v.end()), r.description);
    }
  }
  // the step model of the described training jobs (DCTWIN_JOB_MODEL): one value per job, nominal
  bool described = false;
  for (int j = 0; j < L.njob; ++j) described = described || L.jobDescribed(j);
  if (described) {
    std::vector<std::string> recompute(L.njob);
    for (int j = 0; j < L.njob; ++j)
      recompute[j] = jobRecomputeName(L.jobModel(j, JobCol::Recompute));
    for (const JobModelInfo& c : jobModelTable()) {
      std::vector<double> v(L.njob);
      for (int j = 0; j < L.njob; ++j) v[j] = L.jobModel(j, c.id);
      const std::string path = jobModelPath(c.id);
      f.writeVector(path, v, c.unit, c.description);
      f.setAttribute(path, "basis", std::string("nominal"));
    }
    f.writeStrings(
        "/job/model/recompute_name", recompute,
        "activation recompute of each job: none, selective or full (\"\": not described)");
  }
  // 3. one series per observable of the run (the fast ones only when asked for)
  I.handle.assign(kObservableCount, -1);
  for (const ObservableInfo& o : observableTable()) {
    if (!F.has(o.id) || (o.rate == Rate::Fast && power_interval_ <= 0)) continue;
    // the time axes always (/power/time with any /power series)
    bool fast_recorded = false;  // any /power series recorded
    for (const ObservableInfo& p : observableTable())
      fast_recorded = fast_recorded || (p.rate == Rate::Fast && p.id != Obs::PowerTime &&
                                        F.has(p.id) && anyGlobMatch(I.record, p.path));
    const bool axis = o.id == Obs::Time || (o.id == Obs::PowerTime && fast_recorded);
    if (!axis && !anyGlobMatch(I.record, o.path)) continue;
    I.handle[int(o.id)] = f.addSeries(o.path, L.width(o.shape), o.unit, o.description);
    f.setAttribute(o.path, "basis", std::string(basisName(o.basis)));
    // an absolute temperature or a difference, both K (CF 1.11): what a converter must know
    if (const char* m = unitsMetadata(o.quantity))
      f.setAttribute(o.path, "units_metadata", std::string(m));
  }
  // 3b. the axes as dimension scales (H5DS), so that netCDF-4 readers (xarray) open the series
  // with their time, rack, CDU, job, busway coordinates, not phony dimensions
  // (the facility has one column; the GPUs' are labelled by /gpu/rack and /gpu/slot)
  auto names = [&](Shape s) -> const char* {
    const LayoutInfo* r = layoutNames(s);
    return r && layoutPresent(*r, L) ? r->path : nullptr;
  };
  for (const ObservableInfo& o : observableTable()) {
    if (I.handle[int(o.id)] < 0 || o.id == Obs::Time || o.id == Obs::PowerTime) continue;
    const bool fast = o.rate == Rate::Fast;
    if (fast && I.handle[int(Obs::PowerTime)] < 0) continue;
    f.attachScale(o.path, 0, fast ? "/power/time" : "/time", fast ? "power_time" : "time");
    if (const char* n = names(o.shape); n != nullptr && L.width(o.shape) > 0)
      f.attachScale(o.path, 1, n, std::string(n).substr(1, std::string(n).find('/', 1) - 1));
  }
  // 4. the event log, appended at every flush
  I.ev_time = f.addSeries("/events/time", 0, "s", "time of each event");
  I.ev_component = f.addStringSeries("/events/component", "component the event is about");
  I.ev_kind = f.addStringSeries("/events/kind", "event kind (docs/results.md)");
  // the event table's kinds in its order (solver/common/event_table.h): a reader maps each kind
  // to its row (EventKind) by its place in this list
  f.setAttribute("/events/kind", "kinds", eventKindList());
  I.ev_severity = f.addStringSeries("/events/severity", "info, warning or critical");
  I.ev_message = f.addStringSeries("/events/message", "what happened, in words");
  // 5. on disk before the first row: a run killed now leaves a file that opens
  I.flush(0);
}

void Hdf5Sink::row(const OutputFrame& fr) {
  Impl& I = *impl_;
  ResultsFile& f = *I.file;
  for (const ObservableInfo& o : observableTable())
    if (o.rate == Rate::Output && I.handle[int(o.id)] >= 0)
      f.appendRow(I.handle[int(o.id)], fr.get(o.id));
  I.monthly.row(fr);
  // at block boundaries only, and not more often than every kMinFlushSeconds of wall time
  if (++I.count % flush_every_ == 0 && fr.wall_seconds >= I.last_flush_wall + kMinFlushSeconds) {
    I.last_flush_wall = fr.wall_seconds;
    if (fr.events) I.events(*fr.events);
    if (fr.stats) I.stats(*fr.stats, fr.t, fr.wall_seconds);
    I.flush(std::size_t(I.count));
  }
}

void Hdf5Sink::fastRow(const OutputFrame& fr) {
  Impl& I = *impl_;
  for (const ObservableInfo& o : observableTable())
    if (o.rate == Rate::Fast && I.handle[int(o.id)] >= 0)
      I.file->appendRow(I.handle[int(o.id)], fr.get(o.id));
  I.grid.fastRow(fr);
}

void Hdf5Sink::end(const RunResult& r) {
  if (!impl_->file) return;
  Impl& I = *impl_;
  ResultsFile& f = *I.file;
  // 1. everything the outcome covers goes to disk first, the file still saying `running` with
  // the rows of its last flush: the last rows (partial blocks, /power's too), the event log, the
  // solver statistics and the monthly totals
  I.stats(r.stats, r.t_end, r.wall_seconds);
  I.events(r.events);
  if (I.monthly.active() && !I.monthly.months().empty())  // totals per calendar month
    for (const MonthlyColumn& c : monthlyColumns())
      f.writeVector(std::string("/monthly/") + c.name, monthlyColumn(I.monthly.months(), c.name),
                    c.unit, c.description);
  if (I.grid.active()) {  // the meter's metrics (grid_meter.h, docs/models/grid.md)
    const GridReport g = I.grid.finish();
    if (g.valid)
      for (const GridMetricInfo& c : gridMetricTable()) {
        f.writeVector(c.path, g.vec(c.id), c.unit, c.description);
        f.setAttribute(c.path, "basis", std::string(gridBasis()));
      }
  }
  f.flush(true);
  // 2. only then the outcome and the row count, in a flush of their own (the close's): a kill
  // before it returns leaves `running` and the last rows_complete, never a status or a count
  // that claims rows not yet on disk
  f.setAttribute("/", "status",
                 std::string(!r.ok                    ? "failed"
                             : !r.interrupted.empty() ? "interrupted"
                             : r.cancelled            ? "cancelled"
                                                      : "completed"));
  f.setAttribute("/", "error", r.error);
  f.setAttribute("/", "signal", r.interrupted);
  f.setAttribute("/", "rows_complete", static_cast<long long>(I.count));
  f.close();
  impl_->file.reset();
}

}  // namespace dctwin
