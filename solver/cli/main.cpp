// dctwin: command-line front end. It only parses arguments and calls the library.
//
//   dctwin run FACILITY.yaml [--scenario S.yaml] [--duration 2h] [--output out.h5] [--annual]
//   dctwin check FILE.yaml [--facility FACILITY.yaml]   (a facility, scenario or sweep file)
//   dctwin schema [--format json|markdown] [--file facility|scenario|sweep] [-o FILE]
//   dctwin sweep SWEEP.yaml [-j N] [-o sweep.h5] [--max-cases K] [--shard K/N]
//   dctwin merge SWEEP.yaml JOURNAL... -o sweep.h5
//   dctwin report RESULTS.h5 -o DIR
//   dctwin outputs [--format markdown|csv] [--table series|layout|units|jobs|grid|faults|events]
//   dctwin export RESULTS.h5 --series PATTERN... -o out.csv [--long]
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#ifdef DCTWIN_WITH_MPI
#include <mpi.h>
#endif
#ifdef DCTWIN_WITH_VTK
#include "solver/output/vtk/vtk_export.h"
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "solver/cli/cli_docs.h"
#include "solver/cli/progress.h"
#include "solver/common/bounded_file.h"
#include "solver/common/event_table.h"
#include "solver/common/paths.h"
#include "solver/common/provenance.h"
#include "solver/common/units.h"
#include "solver/input/keys.h"
#include "solver/input/loader.h"
#include "solver/output/csv_export.h"
#include "solver/output/grid_meter.h"
#include "solver/output/observables.h"
#include "solver/output/results.h"
#include "solver/output/series_filter.h"
#include "solver/run/check.h"
#include "solver/run/estimate.h"
#include "solver/run/run.h"
#include "solver/run/sweep.h"

namespace {

// "2h", "90 min", "3600" (seconds) -> seconds
double parseDuration(const std::string& text) {
  std::string why;
  if (auto q = dctwin::parseQuantity(text, dctwin::Dim::Time, &why)) return q->value;
  // allow "2h" without a space
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' ||
                             text[i] == 'e' || text[i] == '-'))
    ++i;
  if (i > 0 && i < text.size())
    if (auto q = dctwin::parseQuantity(text.substr(0, i) + " " + text.substr(i), dctwin::Dim::Time,
                                       &why))
      return q->value;
  if (auto q = dctwin::parseQuantity(text + " s", dctwin::Dim::Time, &why)) return q->value;
  throw CLI::ValidationError("--duration", "expected a duration such as 2h, 90min or 3600s");
}

// SIGINT, SIGTERM and SIGHUP (a batch system's stop, Ctrl-C, a closed terminal) stop a run or a
// sweep at its next step: a run's results file is closed with status `interrupted`, a sweep's
// journal keeps every finished case. The handler resets itself: a second signal ends the program
// at once.
std::atomic<bool> g_cancel{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void onStopSignal(int sig) {
  g_signal.store(sig);
  g_cancel.store(true);
}

void installStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
}

int runCommand(const std::string& facility, const std::string& scenario_path,
               const std::string& duration, const std::string& output, const std::string& interval,
               const std::string& power_interval, bool quiet, const std::string& vtk_dir,
               int threads, const std::vector<std::string>& record, bool annual, bool allow_large) {
  using namespace dctwin;
  installStopHandlers();  // a signal while loading stops the run before its first step
  FacilitySpec spec = loadFacility(facility);
  Scenario sc;
  if (!scenario_path.empty()) sc = loadScenario(scenario_path);
  // the scenario keeps its own duration (its events are checked against it); the options
  // override it for this run
  const double run_duration = duration.empty() ? sc.duration : parseDuration(duration);
  const double run_interval = interval.empty() ? sc.output_interval : parseDuration(interval);
  if (!(run_duration > 0)) throw CLI::ValidationError("--duration", "must be positive");
  if (!(run_interval > 0)) throw CLI::ValidationError("--output-interval", "must be positive");
  RunSettings settings;
  settings.duration = run_duration;
  settings.output_interval = run_interval;
  settings.threads = threads;
  settings.annual = annual;
  settings.allow_large = allow_large;
  // every file the run read: the facility, the scenario and the files they name (catalog
  // entries, CSV series, weather); no output may replace one, through any link
  std::vector<std::string> inputs{facility, scenario_path};
  inputs.insert(inputs.end(), spec.input_files.begin(), spec.input_files.end());
  inputs.insert(inputs.end(), sc.input_files.begin(), sc.input_files.end());
  std::vector<RunSink*> sinks;
  std::unique_ptr<Hdf5Sink> h5;
  if (!output.empty()) {
    const double pi = power_interval.empty() ? 0.0 : parseDuration(power_interval);
    if (!power_interval.empty() && !(pi > 0))
      throw CLI::ValidationError("--power-interval", "must be positive, e.g. 0.1s");
    checkOutputPath(output, inputs);
    h5 = std::make_unique<Hdf5Sink>(output, 10, pi);
    h5->record(record);
    h5->allowLarge(allow_large);
    sinks.push_back(h5.get());
  }
#ifdef DCTWIN_WITH_VTK
  std::unique_ptr<VtkSink> vtk;
  if (!vtk_dir.empty()) {
    std::vector<std::string> vtk_inputs = inputs;
    vtk_inputs.push_back(output);  // the results file too
    checkVtkOutput(vtk_dir, vtk_inputs);
    vtk = std::make_unique<VtkSink>(vtk_dir);
    sinks.push_back(vtk.get());
  }
#else
  if (!vtk_dir.empty())
    throw CLI::ValidationError("--vtk", "this dctwin was built without VTK (libvtk9-dev)");
#endif
  if (!record.empty() && output.empty())
    throw CLI::ValidationError("--record",
                               "needs --output (the series it chooses are written there)");
  cli::ProgressReporter bar(stderr, cli::isTerminal(stderr), quiet, "dctwin run: ");
  RunControl control;
  control.cancel = &g_cancel;
  control.signal = &g_signal;
  control.progress = [&](double t, double d) {
    bar.update(d > 0 ? t / d : 1.0,
               [&](bool b) { return cli::runProgressLine(t, d, bar.elapsed(), b); });
  };
  const RunReport report = runFacility(spec, sc, settings, sinks, control);
  bar.finish();
  const RunResult& res = report.result;
  if (!quiet)
    for (const std::string& w : report.warnings) std::cerr << "dctwin: warning: " << w << "\n";
  if (!quiet) std::cout << report.text();
  if (!output.empty() && !quiet) std::cout << "  results             " << output << "\n";
  if (!res.interrupted.empty()) {
    std::cerr << "dctwin: interrupted by " << res.interrupted << " at t = " << res.t_end << " s"
              << (output.empty() ? ""
                                 : "; results up to then in " + output + " (status interrupted)")
              << "\n";
    return 128 + g_signal.load();
  }
  if (!res.ok) {
    std::cerr << "dctwin: " << res.error << "\n";
    if (!output.empty()) std::cerr << "dctwin: results up to the failure are in " << output << "\n";
    return dctwin::cli::kExitRunFailed;
  }
  return 0;
}

}  // namespace

// a sweep's output, checked before its first case runs: its folder exists and is writable, it is
// none of the sweep's inputs, and an existing file there is HDF5 (throws ResultsError)
void checkSweepOutput(const std::string& output, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  dctwin::checkOutputPath(output, inputs);
  std::error_code ec;
  fs::path dir = fs::path(output).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    throw dctwin::ResultsError("'" + output + "': the folder '" + dir.string() +
                               "' does not exist (create it first)");
  if (::access(dir.c_str(), W_OK) != 0)
    throw dctwin::ResultsError("'" + output + "': the folder '" + dir.string() +
                               "' is not writable");
  if (fs::exists(output, ec)) {
    // the bounded opener: a FIFO or a device there is refused without blocking on it
    dctwin::FileRefusal why;
    std::uint64_t size = 0;
    char head[8] = {};
    bool hdf5 = dctwin::checkRegularFile(output, ~std::uint64_t{0}, &why, &size);
    if (hdf5 && size > 0) {
      const int fd = ::open(output.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      hdf5 = fd >= 0 && ::pread(fd, head, 8, 0) == 8 && std::string(head, 8) == "\x89HDF\r\n\x1a\n";
      if (fd >= 0) ::close(fd);
    }
    if (!hdf5)
      throw dctwin::ResultsError("'" + output +
                                 "' exists and is not an HDF5 file; not overwritten (choose "
                                 "another --output)");
  }
}

// MPI (when built with it and launched by mpirun): rank and size, 0 and 1 otherwise
struct Ranks {
  int rank = 0, size = 1;
};

Ranks startMpi(int* argc, char*** argv) {
  Ranks r;
#ifdef DCTWIN_WITH_MPI
  const char* ws = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (ws && std::atoi(ws) > 1) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  }
#else
  (void)argc, (void)argv;
#endif
  return r;
}

// rank 0 receives every rank's journal lines (one string per rank, '\n'-separated)
std::string gatherLines(const Ranks& rk, const std::string& mine) {
#ifdef DCTWIN_WITH_MPI
  if (rk.size > 1) {
    int n = static_cast<int>(mine.size());
    std::vector<int> sizes(rk.size), offsets(rk.size);
    MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < rk.size; ++r) offsets[r] = total, total += sizes[r];
    std::string all(rk.rank == 0 ? total : 0, '\0');
    MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    return all;
  }
#else
  (void)rk;
#endif
  return mine;
}

// every rank's `v` combined: the largest (op 0) or the sum (op 1); v itself without MPI
long long overRanks(const Ranks& rk, long long v, int op) {
#ifdef DCTWIN_WITH_MPI
  if (rk.size > 1) {
    long long out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_LONG_LONG, op == 0 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    return out;
  }
#else
  (void)rk, (void)op;
#endif
  return v;
}

// "K/N" -> shard K of N (1-based); {0, 0} for none
std::pair<int, int> parseShard(const std::string& text) {
  if (text.empty()) return {0, 0};
  int k = 0, n = 0;
  char slash = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &k, &slash, &n, &extra) != 3 || slash != '/' || n < 1 ||
      k < 1 || k > n)
    throw CLI::ValidationError("--shard", "expected K/N with 1 <= K <= N, e.g. 3/8");
  return {k, n};
}

int sweepCommand(const std::string& file, int threads, const std::string& output, int max_cases,
                 bool quiet, const Ranks& rk, const std::string& shard_text, bool allow_large) {
  const auto [shard_k, shard_n] = parseShard(shard_text);
  using namespace dctwin;
  SweepSpec s = loadSweep(file);
  s.allow_large = allow_large;
  // every case runs this long: refused before the first one (a typo such as `duration: 1e9 d`)
  if (!allow_large && s.duration > 0)
    checkRunSize(s.duration,
                 s.output_interval > 0 ? std::min(s.output_interval, s.duration) : s.duration);
  // before the first case: the output (directory, not an input, not another kind of file), the
  // parameter names (validateSweep) and the number of cases (expandCases)
  checkSweepOutput(output, {file, s.facility_path, s.scenario_path});
  validateSweep(s);
  const std::vector<SweepCase> cases = expandCases(s);
  // journals: rank 0 writes OUTPUT.journal, rank r > 0 OUTPUT.journal.r; a resume reads them all
  const std::string journal0 = output + ".journal";
  const std::string journal = rk.rank == 0 ? journal0 : journal0 + "." + std::to_string(rk.rank);
  std::vector<std::string> warnings;
  std::vector<CaseResult> done = readJournal(journal0, s, cases.size(), &warnings);
  for (int r = 1; r < 1024; ++r) {
    const std::string jr = journal0 + "." + std::to_string(r);
    if (!std::filesystem::exists(jr)) continue;
    for (const auto& x : readJournal(jr, s, cases.size(), &warnings)) done.push_back(x);
  }
  if (rk.rank == 0)
    for (const auto& w : warnings) std::cerr << "dctwin sweep: " << w << "\n";
  std::sort(done.begin(), done.end(),
            [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
  done.erase(
      std::unique(done.begin(), done.end(),
                  [](const CaseResult& a, const CaseResult& b) { return a.index == b.index; }),
      done.end());
  // a Slurm array task's share: every N-th case from the K-th (the journal is its result)
  std::vector<int> only;
  if (shard_n > 0) {
    for (const auto& c : cases)
      if (c.index % shard_n == shard_k - 1) only.push_back(c.index);
    if (only.empty()) only.push_back(-1);
    std::vector<CaseResult> mine_done;
    for (const auto& d : done)
      if (d.index % shard_n == shard_k - 1) mine_done.push_back(d);
    done = mine_done;
  }
#ifdef DCTWIN_WITH_MPI
  // every rank has read the journals before any rank starts writing its own
  if (rk.size > 1) MPI_Barrier(MPI_COMM_WORLD);
#endif
  // this rank's share: every size-th of the cases still to run
  if (rk.size > 1 && shard_n == 0) {
    std::vector<char> have(cases.size(), 0);
    for (const auto& d : done) have[d.index] = 1;
    int k = 0;
    for (const auto& c : cases)
      if (!have[c.index] && k++ % rk.size == rk.rank) only.push_back(c.index);
    if (only.empty()) only.push_back(-1);  // nothing for this rank (not "everything")
  }
  if (!quiet && rk.rank == 0)
    std::cerr << "dctwin sweep: " << cases.size() << " cases, " << rk.size << " rank(s) x "
              << threads << " case(s) at once (-j)"
              << (done.empty() ? "" : ", resuming: " + std::to_string(done.size()) + " done")
              << "\n";
  installStopHandlers();  // a signal stops the cases in flight; the finished ones stay journaled
  startJournal(journal, s, cases.size());
  // one sweep at a time per journal (and so per output): a second one stops here
  const int journal_fd = ::open(journal.c_str(), O_RDWR | O_CLOEXEC);
  if (journal_fd < 0 || ::flock(journal_fd, LOCK_EX | LOCK_NB) != 0)
    throw ResultsError("'" + journal +
                       "' is in use by another dctwin sweep on the same output; wait for it or "
                       "choose another --output");
  struct CloseFd {
    int fd;
    ~CloseFd() { ::close(fd); }
  } journal_lock{journal_fd};
  const auto t0 = std::chrono::steady_clock::now();
  const std::string who = rk.size > 1 ? "rank " + std::to_string(rk.rank) + " " : "";
  cli::ProgressReporter bar(stderr, cli::isTerminal(stderr), quiet, "dctwin sweep: " + who);
  int n_failed = 0;
  std::string journal_error;  // the first journal write that failed (a full disk)
  int journaled = 0;
  auto progress = [&](const CaseResult& r, int k, int n) {
    if (!journal_error.empty()) return;  // stopping: the cases in flight are not kept
    try {
      appendJournal(journal, r);
      ++journaled;
    } catch (const JournalWriteError& e) {
      // reported at once; the sweep stops (the cases in flight end at their next step) and
      // every case journaled before stays resumable
      journal_error = e.what();
      bar.note("dctwin sweep: " + who + journal_error + "; stopping");
      g_cancel.store(true);
      return;
    }
    if (!r.ok) {
      ++n_failed;
      bar.note("dctwin sweep: " + who + "case " + std::to_string(r.index) +
               " FAILED: " + r.error.substr(0, 200));
    } else if (!caseComparable(
                   r)) {  // ran, but its load was shed: said at once, not only in /cases
      bar.note("dctwin sweep: " + who + "case " + std::to_string(r.index) + ": " + caseOutcome(r));
    }
    bar.update(n > 0 ? double(k) / n : 1.0,
               [&](bool b) { return cli::sweepProgressLine(k, n, n_failed, bar.elapsed(), b); });
  };
  std::vector<CaseResult> all = runSweep(s, readSweepBase(s), cases, done, threads, max_cases,
                                         progress, only, output, &g_cancel);
  bar.finish();
  if (g_cancel.load() && rk.size == 1) {
    // stopped: by a signal or a journal that could not be written. The journal is on disk line
    // by line; its finished cases resume with the same command (under MPI every rank goes on
    // to the gather below, so that none waits for another: the sweep is then reported
    // unfinished)
    const int sig = g_signal.load();
    const int kept = int(done.size()) + journaled;
    std::cerr << "dctwin sweep: " << who << "stopped by "
              << (journal_error.empty() ? signalName(sig)
                                        : "a failed journal write (" + journal_error + ")")
              << ": " << kept << " of " << cases.size() << " cases done and kept in " << journal
              << "; " << (journal_error.empty() ? "" : "free space, then ")
              << "run the same command again to resume\n";
    return journal_error.empty() ? 128 + sig : dctwin::cli::kExitWrite;
  }
  // gather the ranks' new results on rank 0
  std::string mine;
  for (const auto& r : all)
    if (!std::binary_search(
            done.begin(), done.end(), r,
            [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; }))
      mine += journalLine(r) + "\n";
  const std::string gathered = gatherLines(rk, mine);
  // under MPI a stop on any rank (a signal, a journal write that failed) stops the sweep: every
  // rank exits with the stop's status, rank 0 says what stopped it and how many cases are kept
  // (journaled: a rank's cases that ended after its stop are not, and run again on resume)
  const long long my_stop = !g_cancel.load()        ? 0
                            : journal_error.empty() ? 128 + g_signal.load()
                                                    : dctwin::cli::kExitWrite;
  const long long stop = overRanks(rk, my_stop, 0);
  const long long failed_write = overRanks(rk, journal_error.empty() ? 0 : rk.rank + 1, 0);
  const long long journaled_all = overRanks(rk, journaled, 1);
  if (stop != 0) {
    if (rk.rank == 0)
      std::cerr << "dctwin sweep: stopped by "
                << (failed_write > 0
                        ? "a failed journal write on rank " + std::to_string(failed_write - 1)
                        : std::string("a signal"))
                << ": " << done.size() + journaled_all << " of " << cases.size()
                << " cases done and kept in " << journal0 << " and its rank journals; "
                << (failed_write > 0 ? "free space, then " : "")
                << "run the same command again to resume\n";
    return int(stop);
  }
  if (rk.rank != 0) return 0;
  if (rk.size > 1) {
    all = done;
    std::stringstream ss(gathered);
    std::string line;
    CaseResult r;
    while (std::getline(ss, line))
      if (parseJournalLine(line, r)) all.push_back(r);
    std::sort(all.begin(), all.end(),
              [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int failed = 0;
  for (const auto& r : all) failed += r.ok ? 0 : 1;
  if (shard_n > 0) {
    const std::size_t share = only.size() == 1 && only[0] < 0 ? 0 : only.size();
    if (!quiet)
      std::cerr << "dctwin sweep: shard " << shard_k << "/" << shard_n << ": " << all.size()
                << " of its " << share << " cases done (" << failed << " failed) in " << wall
                << " s; combine the shards with: dctwin merge " << file << " " << journal0
                << " ... -o sweep.h5\n";
    return 0;
  }
  if (all.size() < cases.size()) {
    std::cerr << "dctwin sweep: " << all.size() << " of " << cases.size()
              << " cases done; run the same command again to resume (" << journal0 << ")\n";
    return 0;
  }
  try {
    writeSweepResults(output, s, cases, all);
  } catch (const ResultsError& e) {
    // the journal stays: every case is in it, and the same command writes the table again
    std::cerr << "dctwin sweep: results file: " << e.what() << "\ndctwin sweep: all "
              << cases.size() << " cases are kept in " << journal0
              << "; free space, then run the same command again to write the table\n";
    return dctwin::cli::kExitWrite;
  }
  for (int r = 0; r < 1024; ++r)
    std::filesystem::remove(r == 0 ? journal0 : journal0 + "." + std::to_string(r));
  if (!quiet) {
    int shed = 0;
    for (const auto& r : all) shed += r.ok && !caseComparable(r) ? 1 : 0;
    std::printf(
        "dctwin sweep: %zu cases (%d completed, %d not comparable: protection acted or the job "
        "failed, %d failed) in %.1f s wall, %.1f cases per minute; /cases in %s\n",
        cases.size(), int(cases.size()) - shed - failed, shed, failed, wall,
        wall > 0 ? 60.0 * (all.size() - done.size()) / wall : 0.0, output.c_str());
    if (s.replicates > 0) std::printf("%s", ensembleText(ensembleTable(s, cases, all)).c_str());
  }
  return failed > 0 ? dctwin::cli::kExitCasesFailed : 0;
}

int mergeCommand(const std::string& file, const std::vector<std::string>& journals,
                 const std::string& output, bool quiet) {
  using namespace dctwin;
  const SweepSpec s = loadSweep(file);
  std::vector<std::string> inputs{file, s.facility_path, s.scenario_path};
  inputs.insert(inputs.end(), journals.begin(), journals.end());
  checkSweepOutput(output, inputs);
  const std::vector<SweepCase> cases = expandCases(s);
  std::vector<CaseResult> all;
  std::vector<std::string> warnings;
  for (const auto& j : journals) {
    if (!std::filesystem::exists(j))
      throw LoadFailure({LoadError{SourceLoc{j, 0, 0, ""}, j, "no such journal"}});
    for (const auto& r : readJournal(j, s, cases.size(), &warnings)) all.push_back(r);
  }
  for (const auto& w : warnings) std::cerr << "dctwin merge: " << w << "\n";
  std::sort(all.begin(), all.end(),
            [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
  all.erase(
      std::unique(all.begin(), all.end(),
                  [](const CaseResult& a, const CaseResult& b) { return a.index == b.index; }),
      all.end());
  if (all.size() < cases.size()) {
    std::string missing;
    std::vector<char> have(cases.size(), 0);
    for (const auto& r : all) have[r.index] = 1;
    int shown = 0;
    for (const auto& c : cases)
      if (!have[c.index] && shown++ < 20) missing += " " + std::to_string(c.index);
    std::cerr << "dctwin merge: " << cases.size() - all.size() << " of " << cases.size()
              << " cases missing:" << missing << (shown > 20 ? " ..." : "") << "\n";
    return dctwin::cli::kExitCasesMissing;
  }
  writeSweepResults(output, s, cases, all);
  int failed = 0, shed = 0;
  for (const auto& r : all) {
    failed += r.ok ? 0 : 1;
    shed += r.ok && !caseComparable(r) ? 1 : 0;
  }
  if (!quiet)
    std::printf(
        "dctwin merge: %zu cases (%d completed, %d not comparable, %d failed) from %zu "
        "journal(s); /cases in %s\n",
        cases.size(), int(cases.size()) - shed - failed, shed, failed, journals.size(),
        output.c_str());
  return 0;
}

// dctwin schema: the key tables as a JSON Schema or markdown (solver/input/keys.h)
int schemaCommand(const std::string& format, const std::string& kind_name,
                  const std::string& out_path, const std::string& update) {
  using dctwin::keys::FileKind;
  const FileKind kind = kind_name == "scenario" ? FileKind::Scenario
                        : kind_name == "sweep"  ? FileKind::Sweep
                                                : FileKind::Facility;
  if (!update.empty()) {
    dctwin::FileRefusal why;
    const auto text = dctwin::readBoundedFile(update, dctwin::kMaxInputFileBytes, &why);
    if (!text) throw std::runtime_error("cannot read " + update + ": " + why.reason);
    std::vector<std::string> unknown;
    const std::string doc = dctwin::keys::updateMarkedTables(*text, kind, &unknown);
    for (const auto& id : unknown)
      std::cerr << "dctwin schema: " << update << ": no table '" << id << "' in the " << kind_name
                << " keys\n";
    std::ofstream(update, std::ios::binary) << doc;
    return unknown.empty() ? 0 : dctwin::cli::kExitInput;
  }
  const std::string text =
      format == "markdown" ? dctwin::keys::markdownTables(kind) : dctwin::keys::jsonSchema(kind);
  if (out_path.empty()) {
    std::cout << text;
  } else {
    std::ofstream out(out_path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + out_path);
  }
  return 0;
}

// "'--duratoin' is not an option of dctwin run; did you mean '--duration'?" for the first
// --option on the command line that the chosen command does not know, or ""
std::string optionHint(CLI::App& app, int argc, char** argv) {
  CLI::App* cmd = &app;
  for (CLI::App* sub : app.get_subcommands()) cmd = sub;  // the command that was chosen
  std::vector<std::string> names;
  for (const CLI::App* a : {static_cast<const CLI::App*>(&app), static_cast<const CLI::App*>(cmd)})
    for (const CLI::Option* o : a->get_options())
      for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") break;
    if (a.rfind("--", 0) != 0) continue;
    a = a.substr(0, a.find('='));
    if (std::find(names.begin(), names.end(), a) != names.end()) continue;
    const std::string hint = dctwin::didYouMean(a, names);
    return "'" + a + "' is not an option of " +
           (cmd == &app ? std::string("dctwin") : "dctwin " + cmd->get_name()) +
           (hint.empty() ? "; 'dctwin " + (cmd == &app ? std::string() : cmd->get_name() + " ") +
                               "--help' lists them"
                         : hint);
  }
  return {};
}

int main(int argc, char** argv) {
  CLI::App app{
      "dctwin: digital twin of liquid-cooled AI data centers (coolant loops, CDUs, "
      "facility water)"};
  // recorded in every results file (solver/common/provenance.h)
  dctwin::setCommandLine(argc, argv);
  app.set_version_flag("--version", "dctwin " + dctwin::versionText());
  app.require_subcommand(1);

  std::string facility, scenario, duration, output, interval, power_interval;
  bool quiet = false;
  CLI::App* run = app.add_subcommand(
      "run",
      "Simulate a facility and write HDF5 results; prints a summary (peak temperatures, "
      "flows, heat, energy balance, solver statistics)");
  run->add_option("facility", facility, "Facility file (YAML, docs/facility-format.md)")
      ->type_name("YAML")
      ->required()
      ->check(CLI::ExistingFile);
  run->add_option("--scenario,-s", scenario,
                  "Scenario file (YAML, docs/scenario-format.md): duration, output interval, "
                  "initial temperature, load and facility-water events")
      ->type_name("YAML")
      ->check(CLI::ExistingFile);
  run->add_option("--duration,-d", duration,
                  "Simulated time, e.g. 2h, 90min, 3600s (overrides the scenario; default 1 h)");
  run->add_option("--output-interval,-i", interval,
                  "Time between result rows, e.g. 10s (overrides the scenario; default 60 s)");
  run->add_option("--output,-o", output, "HDF5 results file to write (docs/results.md)")
      ->type_name("H5");
  run->add_option("--power-interval,-p", power_interval,
                  "Also record rack and IT power every this often (e.g. 0.1s, rounded to the GPU "
                  "step) under /power, to see the sub-second swings of synchronous training");
  std::string vtk_dir;
  run->add_option("--vtk", vtk_dir,
                  "Also write the facility geometry with its fields at every output time for "
                  "ParaView: DIR/facility.pvd and DIR/facility_NNNNNN.vtu (docs/results.md)")
      ->type_name("DIR");
  int run_threads = 1, run_threads_old = 0;
  run->add_option("--threads,-t", run_threads,
                  "Worker threads for the racks (halls and campuses; the results do not depend "
                  "on it, docs/performance.md)")
      ->check(CLI::Range(1, 256));
  // before 0.2 `run -j N` meant threads; -j is now `sweep --jobs` (cases at once)
  run->add_option("-j", run_threads_old, "Deprecated: use --threads/-t")
      ->check(CLI::Range(1, 256))
      ->group("");
  std::vector<std::string> record;
  run->add_option("--record", record,
                  "Write only the series whose paths match these glob patterns, e.g. '/rack/*' "
                  "'/facility/*' (/time always; 'dctwin outputs' lists the paths)")
      ->type_name("PATTERN")
      ->expected(1, -1);
  run->add_flag("--quiet,-q", quiet, "Print nothing but errors");
  bool allow_large = false;
  run->add_flag("--allow-large", allow_large,
                "Run past the size limits (10 years of simulated time, 1e7 rows, 1e8 /power "
                "rows, a 64 GiB results file; docs/results.md)");
  bool run_annual = false;
  run->add_flag("--annual", run_annual,
                "Multi-rate annual mode: short full-resolution windows drive the coolant and the "
                "plant on slow steps (the scenario's annual: windows or their defaults; "
                "docs/models/annual.md)");

  std::string check_file, check_facility;
  CLI::App* check = app.add_subcommand(
      "check",
      "Check a facility, scenario or sweep file (told apart by its keys) and report every "
      "problem in it, or its size");
  check->add_option("file", check_file, "Facility, scenario or sweep file (YAML)")
      ->type_name("YAML")
      ->required()
      ->check(CLI::ExistingFile);
  check
      ->add_option("--facility,-f", check_facility,
                   "For a scenario: the facility to apply it to and compile")
      ->type_name("YAML")
      ->check(CLI::ExistingFile);

  std::string schema_format = "json", schema_kind = "facility", schema_out, schema_update;
  CLI::App* schema = app.add_subcommand(
      "schema",
      "Write the JSON Schema of a file kind for editors (yaml-language-server), or its key "
      "tables as markdown, from the key tables the loaders read with");
  schema->add_option("--format", schema_format, "json (default) or markdown")
      ->check(CLI::IsMember({"json", "markdown"}));
  schema->add_option("--file", schema_kind, "facility (default), scenario or sweep")
      ->check(CLI::IsMember({"facility", "scenario", "sweep"}));
  schema->add_option("--output,-o", schema_out, "Write to this file instead of stdout")
      ->type_name("FILE");
  schema
      ->add_option("--update", schema_update,
                   "Rewrite the key tables between the keys markers of this markdown file "
                   "(docs/*-format.md) in place")
      ->type_name("FILE");

  std::string sweep_file, sweep_out = "sweep.h5";
  int sweep_threads = 1, sweep_max = 0;
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Run a design sweep (docs/sweep-format.md): cases in parallel, one metrics row per case in "
      "/cases; an interrupted sweep resumes from its journal");
  sweep->add_option("sweep", sweep_file, "Sweep file (YAML)")
      ->type_name("YAML")
      ->required()
      ->check(CLI::ExistingFile);
  sweep->add_option("-j,--jobs", sweep_threads, "Cases run at once (threads)")
      ->check(CLI::Range(1, 1024));
  sweep->add_option("--output,-o", sweep_out, "HDF5 file for the /cases table (default sweep.h5)")
      ->type_name("H5");
  sweep
      ->add_option("--max-cases", sweep_max,
                   "Run at most this many new cases, then stop (resume later with the same "
                   "command; for time-limited batch jobs)")
      ->check(CLI::Range(0, 1000000));
  std::string sweep_shard;
  sweep->add_option("--shard", sweep_shard,
                    "Run only shard K of N (K/N; cases K-1, K-1+N, ...), e.g. a Slurm array task "
                    "with --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT; its journal "
                    "OUTPUT.journal is its result, combined by 'dctwin merge'");
  sweep->add_flag("--quiet,-q", quiet, "Print nothing but errors");
  sweep->add_flag("--allow-large", allow_large,
                  "Run cases past the size limits (as run --allow-large)");

  std::string merge_file, merge_out = "sweep.h5";
  std::vector<std::string> merge_journals;
  CLI::App* merge = app.add_subcommand(
      "merge", "Combine the journals of sweep shards into one /cases table (docs/sweep-format.md)");
  merge->add_option("sweep", merge_file, "The sweep file the shards ran")
      ->type_name("YAML")
      ->required()
      ->check(CLI::ExistingFile);
  merge->add_option("journals", merge_journals, "The shards' journals (OUTPUT.journal)")
      ->type_name("JOURNAL")
      ->required();
  merge->add_option("--output,-o", merge_out, "HDF5 file for the /cases table")->type_name("H5");
  merge->add_flag("--quiet,-q", quiet, "Print nothing but errors");

  std::string report_file, report_dir;
  CLI::App* report = app.add_subcommand(
      "report",
      "Write a review report of a run or sweep results file: one self-contained HTML page "
      "(index.html, plots embedded) and report.pdf (runs scripts/report.py with /usr/bin/python3: "
      "python3-h5py, python3-matplotlib)");
  report->add_option("results", report_file, "Results file (dctwin run -o or dctwin sweep -o)")
      ->type_name("H5")
      ->required()
      ->check(CLI::ExistingFile);
  report->add_option("--output,-o", report_dir, "Folder for index.html, report.pdf and the plots")
      ->type_name("DIR")
      ->required();
  std::vector<double> report_at;
  double report_threshold = std::nan("");
  int report_top = 10;
  report->add_option("--at", report_at,
                     "Times (min) for the GPU distributions, top-N lists and hotspot maps "
                     "(default: the peak junction and the end)");
  report->add_option("--threshold", report_threshold,
                     "Temperature (degC) of the time-above-threshold map (default: 5 K below "
                     "the run's peak)");
  report->add_option("--top", report_top, "Hottest GPUs and racks listed (default 10)")
      ->check(CLI::Range(1, 1000));

  std::string outputs_format = "markdown";
  CLI::App* outputs = app.add_subcommand(
      "outputs",
      "List every output series of a run (the output table: path, unit, basis, shape, "
      "description, how computed); docs/results.md is generated from it");
  outputs->add_option("--format,-f", outputs_format, "markdown or csv")
      ->check(CLI::IsMember({"markdown", "csv"}));
  std::string outputs_table = "series";
  outputs
      ->add_option(
          "--table", outputs_table,
          "series (the output table), layout (the static datasets: names and indices; "
          "markdown), units (the series' units and how they are shown; markdown), jobs (the step "
          "model's values per described job, /job/model/*; "
          "markdown), grid (the meter's metrics, /grid/*; markdown) or faults (the scenario's "
          "fault kinds; markdown) or events (the event log's kinds; markdown)")
      ->check(CLI::IsMember({"series", "layout", "units", "jobs", "grid", "faults", "events"}));

  std::string export_file, export_out;
  std::vector<std::string> export_series;
  bool export_long = false, export_full = false, export_ensemble = false, export_jobs = false;
  std::string export_units = "si";
  CLI::App* exporter = app.add_subcommand(
      "export",
      "Write series of a run's results file, or a sweep's /cases table, as CSV for spreadsheets "
      "(docs/results.md)");
  exporter
      ->add_option("results", export_file,
                   "Results file (dctwin run -o) or sweep file (dctwin sweep -o)")
      ->type_name("H5")
      ->required()
      ->check(CLI::ExistingFile);
  exporter
      ->add_option("--series", export_series,
                   "Glob patterns of the series paths, e.g. '/rack/T_return' '/facility/*' "
                   "(default: every series on /time; 'dctwin outputs' lists the paths)")
      ->type_name("PATTERN")
      ->expected(1, -1);
  exporter->add_option("--output,-o", export_out, "CSV file to write (default: standard output)")
      ->type_name("FILE");
  exporter->add_flag("--long", export_long,
                     "Tidy long format: one row per value, time,path,column,value,unit");
  exporter->add_flag("--ensemble", export_ensemble,
                     "A sweep file's /ensemble table (replicates: mean, std, p5, p95 of every "
                     "metric per design point) instead of its /cases table");
  exporter
      ->add_flag("--jobs", export_jobs,
                 "A sweep file's /case_jobs table (each job's step time, tokens/s, MFU, "
                 "throughput and map shares, one row per case and job) instead of its /cases "
                 "table")
      ->excludes("--ensemble");
  exporter
      ->add_option("--units", export_units,
                   "si (as in the file, the default) or display: degC for absolute temperatures, "
                   "K for differences, kW, kWh, L/min, kPa, L, as the GUI shows them "
                   "('dctwin outputs --table units')")
      ->check(CLI::IsMember({"si", "display"}));
  exporter->add_flag("--full-width", export_full,
                     "Every selected column in the wide table, past the 16384 columns a "
                     "spreadsheet opens (default: the series that fit, with a warning)");

  std::string estimate_file;
  bool estimate_detail = false;
  std::vector<double> estimate_tolerance;
  CLI::App* estimator = app.add_subcommand(
      "estimate",
      "Estimate training jobs on given hardware without a facility: step time, tokens/s, MFU, "
      "memory per GPU, recompute and where the step goes; with measured step times, the errors "
      "(docs/models/job.md; the published runs in tests/validation/training_runs.yaml)");
  estimator->add_option("file", estimate_file, "Estimate file (dctwin_estimate: 1, cases: [...])")
      ->type_name("YAML")
      ->required();
  estimator->add_flag("--detail,-d", estimate_detail, "Print each case's breakdown and phases");
  estimator
      ->add_option("--tolerance", estimate_tolerance,
                   "MEAN MAX: exit 3 when the mean or the largest |delta| of the measured cases "
                   "exceeds them (percent), or a case cannot be estimated")
      ->expected(2);

  // the completion and the man page, from these definitions (solver/cli/cli_docs.h): hidden
  // commands the build runs (cmake/install.cmake)
  std::string docs_shell = "bash", docs_out;
  CLI::App* completion = app.add_subcommand(
      "completion", "Print the bash completion script, generated from these option definitions");
  completion->group("");
  completion->add_option("shell", docs_shell, "bash")->check(CLI::IsMember({"bash"}));
  completion->add_option("--output,-o", docs_out, "Write to this file instead of stdout");
  CLI::App* man = app.add_subcommand(
      "man", "Print the man page dctwin(1) in roff, generated from these option definitions");
  man->group("");
  man->add_option("--output,-o", docs_out, "Write to this file instead of stdout");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // an option that no command knows: the nearest of the command's options (did you mean?)
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr)
      if (const std::string hint = optionHint(app, argc, argv); !hint.empty())
        std::cerr << "dctwin: " << hint << "\n";
    return app.exit(e);
  }
  try {
    if (*completion || *man) {
      const std::string text =
          *man ? dctwin::cli::manPage(app, dctwin::version()) : dctwin::cli::bashCompletion(app);
      if (docs_out.empty()) {
        std::cout << text;
        return 0;
      }
      std::ofstream out(docs_out, std::ios::binary);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + docs_out);
      return 0;
    }
    if (*estimator) {
      const auto cases = dctwin::loadEstimateFile(estimate_file);
      std::vector<dctwin::EstimateResult> rs;
      for (const auto& c : cases) rs.push_back(dctwin::estimate(c));
      std::cout << dctwin::estimateTable(rs, estimate_detail);
      const dctwin::EstimateStats st = dctwin::estimateStats(rs);
      if (estimate_tolerance.size() == 2 &&
          (st.failed > 0 || 100 * st.mean_abs > estimate_tolerance[0] ||
           100 * st.max_abs > estimate_tolerance[1])) {
        std::cerr << "dctwin: outside the tolerance: mean |delta| " << 100 * st.mean_abs
                  << " % (limit " << estimate_tolerance[0] << " %), max " << 100 * st.max_abs
                  << " % (limit " << estimate_tolerance[1] << " %), " << st.failed
                  << " case(s) not estimated\n";
        return dctwin::cli::kExitRunFailed;
      }
      if (st.failed > 0) return dctwin::cli::kExitInput;
      return 0;
    }
    if (*run) {
      if (run_threads_old > 0) {
        std::cerr << "dctwin: run -j is deprecated, use --threads/-t (sweep -j is cases at once)\n";
        run_threads = run_threads_old;
      }
      return runCommand(facility, scenario, duration, output, interval, power_interval, quiet,
                        vtk_dir, run_threads, record, run_annual, allow_large);
    }
    if (*outputs) {
      if (outputs_table == "units") {
        std::cout << dctwin::unitsMarkdown();
        return 0;
      }
      if (outputs_table == "layout") {
        std::cout << dctwin::layoutMarkdown();
        return 0;
      }
      if (outputs_table == "jobs") {
        std::cout << dctwin::jobModelMarkdown();
        return 0;
      }
      if (outputs_table == "events") {
        std::cout << dctwin::eventTableMarkdown();
        return 0;
      }
      if (outputs_table == "faults") {
        std::cout << dctwin::keys::faultTableMarkdown();
        return 0;
      }
      if (outputs_table == "grid") {
        std::cout << dctwin::gridMetricsMarkdown();
        return 0;
      }
      std::cout << (outputs_format == "csv" ? dctwin::observablesCsv()
                                            : dctwin::observablesMarkdown());
      return 0;
    }
    if (*exporter) {
      dctwin::ResultsReadOptions ro;
      ro.want = [&](const std::string& p) {
        return p == "/time" || p == "/power/time" || dctwin::anyGlobMatch(export_series, p);
      };
      ro.sweep = true;  // a sweep's /cases table too
      // the CSV never replaces the results file it is read from (through a link, too)
      dctwin::checkOutputPath(export_out, {export_file});
      const dctwin::ResultsData d = dctwin::readResults(export_file, ro);
      if (d.sweep) {  // one row per case: the whole table (docs/sweep-format.md)
        if (!export_series.empty() || export_long)
          throw CLI::ValidationError("--series/--long",
                                     export_file +
                                         " is a sweep's /cases file: its table is written whole, "
                                         "one row per case (--series and --long are for runs)");
        const auto ensemble =
            export_ensemble ? dctwin::ensembleColumns(d) : std::vector<dctwin::SweepColumn>{};
        if (export_ensemble && ensemble.empty())
          throw CLI::ValidationError("--ensemble", export_file +
                                                       " has no /ensemble table: its sweep has no "
                                                       "replicates (docs/sweep-format.md)");
        const auto jobs =
            export_jobs ? dctwin::sweepJobColumns(d) : std::vector<dctwin::SweepColumn>{};
        if (export_jobs && jobs.empty())
          throw CLI::ValidationError("--jobs", export_file +
                                                   " has no /case_jobs table: a sweep file from "
                                                   "a dctwin before the per-job metrics");
        std::ofstream file;
        if (!export_out.empty()) {
          file.open(export_out, std::ios::binary);
          if (!file) throw std::runtime_error("cannot write " + export_out);
        }
        if (export_ensemble) {
          dctwin::writeColumnsCsv(ensemble, export_out.empty() ? std::cout : file);
        } else if (export_jobs) {
          dctwin::writeColumnsCsv(jobs, export_out.empty() ? std::cout : file);
        } else {
          dctwin::writeSweepCsv(d, export_out.empty() ? std::cout : file);
        }
        if (!export_out.empty() && !file) throw std::runtime_error("cannot write " + export_out);
        return 0;
      }
      if (export_jobs)
        throw CLI::ValidationError("--jobs", export_file +
                                                 " is a run's results file: --jobs is for a "
                                                 "sweep file (a run's jobs are its /job series)");
      if (export_ensemble)
        throw CLI::ValidationError("--ensemble", export_file +
                                                     " is a run's results file: --ensemble is for "
                                                     "a sweep file with replicates");
      auto paths = dctwin::selectSeries(d, export_series);
      if (!export_long && !export_full) {  // a table a spreadsheet opens
        std::vector<std::string> left;
        paths = dctwin::fitWidth(d, paths, dctwin::kSpreadsheetColumns, &left);
        if (!left.empty()) {
          std::size_t cols = 0;
          for (const auto& p : left) cols += d.series.at(p).columns();
          std::cerr << "dctwin export: warning: " << left.size() << " series (" << cols
                    << " columns, from " << left.front()
                    << ") left out: a spreadsheet opens at most " << dctwin::kSpreadsheetColumns
                    << " columns; choose series with --series, or write them all with "
                       "--full-width or --long\n";
        }
      }
      std::ofstream file;
      if (!export_out.empty()) {
        file.open(export_out, std::ios::binary);
        if (!file) throw std::runtime_error("cannot write " + export_out);
      }
      dctwin::writeCsv(d, paths, export_long, export_out.empty() ? std::cout : file,
                       export_units == "display");
      if (!export_out.empty() && !file) throw std::runtime_error("cannot write " + export_out);
      return 0;
    }
    if (*merge) return mergeCommand(merge_file, merge_journals, merge_out, quiet);
    if (*report) {
      auto quote = [](const std::string& x) {
        std::string q = "'";
        for (char ch : x) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        return q + "'";
      };
      const std::string scripts = dctwin::scriptsDir();
      if (scripts.empty()) {
        std::cerr << "dctwin: report.py not found (installed share/dctwin/scripts, or set "
                     "DCTWIN_SCRIPTS)\n";
        return dctwin::cli::kExitReport;
      }
      std::string cmd = "/usr/bin/python3 " + quote(scripts + "/report.py") + " " +
                        quote(report_file) + " -o " + quote(report_dir);
      if (!report_at.empty()) {
        cmd += " --at";
        for (double m : report_at) cmd += " " + std::to_string(m);
      }
      if (!std::isnan(report_threshold)) cmd += " --threshold " + std::to_string(report_threshold);
      cmd += " --top " + std::to_string(report_top);
      const int rc = std::system(cmd.c_str());
      return rc == 0 ? 0 : dctwin::cli::kExitReport;
    }
    if (*sweep) {
      const Ranks rk = startMpi(&argc, &argv);
      const int rc = sweepCommand(sweep_file, sweep_threads, sweep_out, sweep_max, quiet, rk,
                                  sweep_shard, allow_large);
#ifdef DCTWIN_WITH_MPI
      if (rk.size > 1) MPI_Finalize();
#endif
      return rc;
    }
    if (*check) {
      std::cout << dctwin::checkFile(check_file, check_facility) << "\n";
      return 0;
    }
    if (*schema) return schemaCommand(schema_format, schema_kind, schema_out, schema_update);
  } catch (const dctwin::LoadFailure& e) {
    std::cerr << e.what();
    if (std::string(e.what()).back() != '\n') std::cerr << '\n';
    std::cerr << "dctwin: " << e.errors().size() << " error(s)\n";
    if (dctwin::dataDirs().empty())
      std::cerr << "dctwin: no data folder (catalog/) found next to this program ("
                << dctwin::imagePath()
                << "): set DCTWIN_DATA to one, e.g. <prefix>/share/dctwin/data\n";
    return dctwin::cli::kExitInput;
  } catch (const dctwin::ResultsError& e) {
    std::cerr << "dctwin: results file: " << e.what() << "\n";
    return dctwin::cli::kExitInput;
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "dctwin: " << e.what() << "\n";
    return dctwin::cli::kExitError;
  }
  return 0;
}
