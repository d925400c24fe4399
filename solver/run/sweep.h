// sweep.h: design sweeps: one base facility and scenario, parameters addressed by path into their
// YAML, cases from a grid, a list or a Latin hypercube, run in parallel, one metrics row per case
// (docs/sweep-format.md)
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/input/loader.h"
#include "solver/input/sweep_file.h"
#include "solver/output/results_reader.h"

namespace dctwin {

// one case: a value (YAML scalar text) per parameter
struct SweepCase {
  int index = 0;
  std::vector<std::string> values;
};

struct CaseResult {
  int index = 0;
  bool ok = false;  // the run finished (status completed, protection_acted or job_failed)
  // what happened (caseStatuses): completed; protection_acted (racks powered off, an EPO, GPUs
  // shut down); job_failed (the first training job failed or stalled); solver_failed;
  // input_failed (the case did not load). "" until run
  std::string status;
  std::string error;
  double wall_seconds = 0;
  std::map<std::string, double> metrics;  // SI; NaN where not applicable
  // every job of the case's facility, in its order: its name and its metrics (sweepJobMetrics
  // order, SI, NaN where not applicable); empty for a case that did not run
  std::vector<std::string> job_names;
  std::vector<std::vector<double>> job_metrics;
  // stopped part-way by the sweep's cancel (a signal, a journal that cannot be written): not a
  // result, never journaled; the case runs again when the sweep resumes
  bool cancelled = false;
};

// metric name -> unit, in column order (docs/sweep-format.md)
const std::vector<std::pair<std::string, std::string>>& sweepMetrics();
// one line on what a metric is and over which part of the run (the /cases/<name> description)
const std::string& sweepMetricDescription(const std::string& name);
// over which part of a case's run a metric is taken ("window total", "window mean", "window max",
// "window total per iteration", "end of run", "whole run", ...; the /cases/<name> basis)
const std::string& sweepMetricBasis(const std::string& name);
// the bottleneck-map metrics among them: the output table's /job/time/<part> (metric
// map_<part>) and /job/wait/<cause> (map_wait_<cause>), in column order
struct SweepMapMetric {
  std::string path, name;
  bool wait = false;  // a /job/wait cause (a share of barrier_wait), not a part of the time
};
const std::vector<SweepMapMetric>& sweepMapMetrics();
// the per-job metrics of each case, one row per case and job (the /case_jobs table,
// docs/sweep-format.md): name -> unit in column order; the job's kind (0 training, 1 inference,
// 2 trace replay) and GPUs, its throughput and described-job rates over the window, its map
const std::vector<std::pair<std::string, std::string>>& sweepJobMetrics();
const std::string& sweepJobMetricDescription(const std::string& name);
const std::string& sweepJobMetricBasis(const std::string& name);
// the words of a job's kind number (the /case_jobs/kind column)
const char* jobKindName(double kind);
// the status words of a case, in order (docs/sweep-format.md "Outcomes")
const std::vector<std::string>& caseStatuses();
// a case that ran to its end with its whole load: only these are ranked, fronted and plotted
// alongside each other (a case whose load was shed would look cool and frugal)
bool caseComparable(const CaseResult& r);
// one sentence on a case's outcome: "completed", or what protection did and why its metrics are
// not comparable, or why it failed (the /cases/outcome column)
std::string caseOutcome(const CaseResult& r);
// the metrics window's default start when the sweep file sets no metrics_from: the same settle
// time for every case of the same duration, min(20 min, half the run) (docs/sweep-format.md)
double defaultMetricsFrom(double duration);

// at most this many cases per sweep file (expandCases throws LoadFailure beyond it)
constexpr std::size_t kMaxSweepCases = 1000000;
std::size_t caseCount(const SweepSpec& s);  // without expanding; kMaxSweepCases + 1 when beyond

// a parameter value as written ("35 degC", "1100 L/min", "0.5") in SI; NaN when not a number
double sweepValueSI(const std::string& text);

// the YAML text with `value` (a scalar as written) at `path` ("facility_water.supply_temperature",
// "cdus[cdu1].control.flow_setpoint", "racks[0].heat_load": list entries by name or index; the
// last key is created), as a sweep writes its cases. The result is re-emitted (comments are lost).
// Throws std::runtime_error naming the part of the path that does not resolve (with a
// did-you-mean), or YAML::Exception for text that is not YAML.
std::string setYamlPath(const std::string& yaml_text, const std::string& path,
                        const std::string& value);
// the value at `path` as written (a scalar), or the YAML text of a mapping or list; throws like
// setYamlPath
std::string getYamlPath(const std::string& yaml_text, const std::string& path);

std::vector<SweepCase> expandCases(const SweepSpec& s);

// the facility and scenario texts of a case; throws LoadFailure naming the parameter's line
struct CaseInputs {
  std::string facility_text, scenario_text;
  std::string facility_path;  // the base facility file of this case
};
CaseInputs caseInputs(const SweepSpec& s, const SweepCase& c, const std::string& facility_text,
                      const std::string& scenario_text);

// checks that every case loads (values and paths), reporting errors against the sweep file
void validateSweep(const SweepSpec& s);

// runs one case (loads, compiles, simulates); never throws: a failure is in the result.
// series_path: also write the case's run file there (docs/results.md); "" for none. cancel (may
// be null): stops the run at its next coupling window (CaseResult::cancelled)
CaseResult runCase(const SweepSpec& s, const SweepCase& c, const std::string& facility_text,
                   const std::string& scenario_text, const std::string& series_path = "",
                   const std::atomic<bool>* cancel = nullptr);

// where a case's run file goes when the sweep keeps its series: OUTPUT.cases/case_NNNNNN.h5
std::string caseSeriesPath(const std::string& output, int index);

// runs the cases not in `done` on `threads` threads, calling `finished` (serialized) after each;
// `max_new` > 0 stops after that many new cases. Returns every result (done + new), by index.
// `only` (if not empty) restricts the run to those case indices (an MPI rank's share).
std::vector<CaseResult> runSweep(const SweepSpec& s, const std::vector<SweepCase>& cases,
                                 std::vector<CaseResult> done, int threads, int max_new,
                                 const std::function<void(const CaseResult&, int, int)>& finished,
                                 const std::vector<int>& only = {},
                                 const std::string& series_output = "");

// the base facility and scenario texts the cases are written into
struct SweepBase {
  std::string facility_text, scenario_text;
};
// read from s.facility_path and s.scenario_path; throws LoadFailure when a file cannot be read
SweepBase readSweepBase(const SweepSpec& s);
// the same over base texts already in memory (an edited facility: the Python module); relative
// paths inside them resolve against s.facility_path's folder. Setting `cancel` stops the threads
// from taking new cases (the running ones finish); the cases never started are not in the result.
std::vector<CaseResult> runSweep(const SweepSpec& s, const SweepBase& base,
                                 const std::vector<SweepCase>& cases, std::vector<CaseResult> done,
                                 int threads, int max_new,
                                 const std::function<void(const CaseResult&, int, int)>& finished,
                                 const std::vector<int>& only = {},
                                 const std::string& series_output = "",
                                 const std::atomic<bool>* cancel = nullptr);

// journal of finished cases (one checksummed line each) for resuming an interrupted sweep
// (docs/sweep-format.md "Journal"). readJournal throws LoadFailure for a journal of another
// sweep (its fingerprint covers the contents of the sweep file, the base facility and scenario
// and the facility files a parameter names, not their paths) or of another case count, saying
// what to do and never to delete it; a line that is cut short, changed, or names a case outside
// 0 .. ncases-1 is skipped with a warning (the case runs again). An empty or missing journal is
// one with nothing done. Journals are read through the bounded opener (regular files of at most
// kMaxJournalBytes).
std::vector<CaseResult> readJournal(const std::string& path, const SweepSpec& s, std::size_t ncases,
                                    std::vector<std::string>* warnings);
std::vector<CaseResult> readJournal(const std::string& path, const SweepSpec& s);  // no warnings
// the header, if the file is missing or empty; throws LoadFailure when it cannot be written
void startJournal(const std::string& path, const SweepSpec& s, std::size_t ncases);
void startJournal(const std::string& path, const SweepSpec& s);
// a journal write that failed (a full disk, a file-size limit, a removed folder): the line is not
// in the journal, and the sweep should stop (its finished cases stay resumable)
class JournalWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// appends the case's line in one write; throws JournalWriteError when any of it fails
void appendJournal(const std::string& path, const CaseResult& r);
// one result as a journal line (no newline) and back; used to gather results over MPI. why (may
// be null): why a line was refused
std::string journalLine(const CaseResult& r);
bool parseJournalLine(const std::string& line, CaseResult& r, std::string* why);
bool parseJournalLine(const std::string& line, CaseResult& r);

// a column of a sweep's /cases table read back (readResults with ResultsReadOptions::sweep): the
// dataset's name under /cases ("parameters/fws", "T_junction_max"), its unit and basis, and
// its values (numbers, or text for status, outcome, error and the parameters as written)
struct SweepColumn {
  std::string name, unit, basis;
  std::vector<double> numbers;
  std::vector<std::string> text;
  bool is_text = false;
};
// the columns in table order: index, status, outcome, error, wall_seconds, the parameters as
// written and in SI, the metrics of sweepMetrics(), then any other /cases dataset (a newer
// dctwin's columns), each of one value per case; throws ResultsError for a ragged table
std::vector<SweepColumn> sweepColumns(const ResultsData& d);
// the /case_jobs table, one row per case and job: case, job, kind, then the metrics of
// sweepJobMetrics() (empty for a sweep file written before it); throws ResultsError when ragged
std::vector<SweepColumn> sweepJobColumns(const ResultsData& d);
// the same table from results in memory (what the file's /case_jobs holds, before writing)
std::vector<SweepColumn> caseJobColumns(const std::vector<CaseResult>& results);
// the columns of one table group of a sweep file (`group` "/cases/" or "/ensemble/"): the `first`
// columns in order (none found: not such a table, empty), the parameters as written and in SI,
// the `middle` columns, then every other dataset of the group; throws ResultsError for a ragged
// table. sweepColumns and ensembleColumns are this with their own columns.
std::vector<SweepColumn> tableColumns(const ResultsData& d, const std::string& group,
                                      const std::vector<std::string>& first,
                                      const std::vector<std::string>& middle);
// the table as CSV, one row per case: a header of "name (unit)" labels, then the values
// (numbers at full precision, text quoted where it must be)
void writeSweepCsv(const ResultsData& d, std::ostream& out);
// the same for any columns (an ensemble's: ensembleColumns)
void writeColumnsCsv(const std::vector<SweepColumn>& cols, std::ostream& out);

// runs per design point: the sweep's replicates, 1 without an ensemble. Case k is replicate
// k % R of design point k / R
int sweepReplicates(const SweepSpec& s);

// an ensemble's intervals (docs/sweep-format.md "Ensembles"): per design point, each metric's
// mean, standard deviation, 5th and 95th percentile over the point's completed replicates (the
// cases that ran with their whole load: a replicate whose load was shed is counted, not
// averaged). Percentiles interpolate linearly between the order statistics (numpy's default);
// NaN where fewer than 2 completed replicates have a finite value. Computed from the results
// in case order, so the same whatever the threads or ranks that ran them.
struct EnsembleTable {
  std::vector<std::string> param_names;          // the design parameters
  std::vector<std::vector<std::string>> values;  // [design parameter][point] as written
  std::vector<long long> point, replicates, completed;
  std::vector<std::string> outcome;  // "8 of 8 completed", "6 of 8 completed, 2 protection_acted"
  // statistic (ensembleStatistics) -> metric (sweepMetrics) -> one value per point
  std::map<std::string, std::map<std::string, std::vector<double>>> stats;
};
// a table for people (dctwin sweep prints it): per design point its parameters, completed
// replicates and mean [p5, p95] of the hottest junction (degC), throughput lost (%), utility
// power (kW) and IT energy per iteration (kJ)
std::string ensembleText(const EnsembleTable& T);
// mean, std, p5, p95, in that order
const std::vector<std::string>& ensembleStatistics();
// the basis and description of /ensemble/<statistic>/<metric>
std::string ensembleBasis(const std::string& statistic, const std::string& metric);
std::string ensembleDescription(const std::string& statistic, const std::string& metric);
// throws std::invalid_argument when the results are not the sweep's cases in order
EnsembleTable ensembleTable(const SweepSpec& s, const std::vector<SweepCase>& cases,
                            const std::vector<CaseResult>& results);
// the q-quantile (0..1) of values sorted ascending, linearly interpolated (numpy's default);
// NaN for none
double sortedQuantile(const std::vector<double>& sorted, double q);
// an ensemble table read back from a sweep file (readResults with ResultsReadOptions::sweep):
// the /ensemble columns, point, replicates, completed, outcome, parameters/<name>, then
// <statistic>/<metric>; empty for a sweep without replicates
std::vector<SweepColumn> ensembleColumns(const ResultsData& d);
// the same columns from a table in memory (the Python module's SweepResult.ensemble())
std::vector<SweepColumn> ensembleColumns(const EnsembleTable& T);

// the /cases table and the sweep's provenance into an HDF5 file
void writeSweepResults(const std::string& path, const SweepSpec& s,
                       const std::vector<SweepCase>& cases, const std::vector<CaseResult>& results);

}  // namespace dctwin
