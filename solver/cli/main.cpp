// dctwin: command-line front end. It only parses arguments and calls the library.
//
//   dctwin run FACILITY.yaml [--scenario S.yaml] [--duration 2h] [--output out.h5]
//   dctwin check FACILITY.yaml
//   dctwin sweep SWEEP.yaml [-j N] [-o sweep.h5] [--max-cases K]
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "solver/integrator.h"
#include "solver/loader.h"
#include "solver/model.h"
#include "solver/results.h"
#include "solver/run.h"
#include "solver/sweep.h"
#include "solver/units.h"

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

int runCommand(const std::string& facility, const std::string& scenario_path,
               const std::string& duration, const std::string& output, const std::string& interval,
               const std::string& power_interval, bool quiet) {
  using namespace dctwin;
  FacilitySpec spec = loadFacility(facility);
  Scenario sc;
  if (!scenario_path.empty()) {
    sc = loadScenario(scenario_path);
    applyScenario(sc, spec);
  }
  if (!duration.empty()) sc.duration = parseDuration(duration);
  if (!interval.empty()) sc.output_interval = parseDuration(interval);
  if (!(sc.duration > 0)) throw CLI::ValidationError("--duration", "must be positive");
  if (!(sc.output_interval > 0))
    throw CLI::ValidationError("--output-interval", "must be positive");
  FacilityModel model = compileFacility(spec);
  model.options.rtol = sc.rtol;
  model.options.output_interval = std::min(sc.output_interval, sc.duration);
  const double T_init = sc.has_T_init ? sc.T_init : model.fws_T.eval(0.0);
  State st = makeState(model, T_init);
  SummarySink summary;
  std::unique_ptr<Hdf5Sink> h5;
  std::vector<OutputSink*> sinks{&summary};
  if (!output.empty()) {
    const double pi = power_interval.empty() ? 0.0 : parseDuration(power_interval);
    h5 = std::make_unique<Hdf5Sink>(output, model, sc.text, 10, pi);
    sinks.push_back(h5.get());
  }
  TeeSink tee(sinks);
  RunOptions ro;
  ro.duration = sc.duration;
  RunResult res = simulate(model, st, ro, &tee);
  if (h5) h5->finish(res);
  if (!quiet) std::cout << formatSummary(model, summary.summary, res);
  if (!output.empty() && !quiet) std::cout << "  results             " << output << "\n";
  if (!res.ok) {
    std::cerr << "dctwin: " << res.error << "\n";
    if (!output.empty()) std::cerr << "dctwin: results up to the failure are in " << output << "\n";
    return 3;
  }
  return 0;
}

}  // namespace

int sweepCommand(const std::string& file, int threads, const std::string& output, int max_cases,
                 bool quiet) {
  using namespace dctwin;
  const SweepSpec s = loadSweep(file);
  validateSweep(s);
  const std::vector<SweepCase> cases = expandCases(s);
  const std::string journal = output + ".journal";
  std::vector<CaseResult> done = readJournal(journal, s);
  if (!quiet)
    std::cerr << "dctwin sweep: " << cases.size() << " cases, " << threads << " thread(s)"
              << (done.empty() ? "" : ", resuming: " + std::to_string(done.size()) + " done")
              << "\n";
  startJournal(journal, s);
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&](const CaseResult& r, int k, int n) {
    appendJournal(journal, r);
    if (quiet) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = el / k * (n - k);
    std::fprintf(stderr, "  [%d/%d] case %d %s in %.1f s; elapsed %.0f s, ETA %.0f s%s%s\n", k, n,
                 r.index, r.ok ? "ok" : "FAILED", r.wall_seconds, el, eta, r.ok ? "" : ": ",
                 r.ok ? "" : r.error.substr(0, 200).c_str());
  };
  const std::vector<CaseResult> all = runSweep(s, cases, done, threads, max_cases, progress);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int failed = 0;
  for (const auto& r : all) failed += r.ok ? 0 : 1;
  if (all.size() < cases.size()) {
    std::cerr << "dctwin sweep: " << all.size() << " of " << cases.size()
              << " cases done; run the same command again to resume (" << journal << ")\n";
    return 0;
  }
  writeSweepResults(output, s, cases, all);
  std::filesystem::remove(journal);
  if (!quiet) {
    std::printf(
        "dctwin sweep: %zu cases (%d failed) in %.1f s wall, %.1f cases per minute; /cases in %s\n",
        cases.size(), failed, wall, wall > 0 ? 60.0 * (all.size() - done.size()) / wall : 0.0,
        output.c_str());
  }
  return failed > 0 ? 4 : 0;
}

int main(int argc, char** argv) {
  CLI::App app{
      "dctwin: digital twin of liquid-cooled AI data centers (coolant loops, CDUs, "
      "facility water)"};
  app.set_version_flag("--version", std::string("dctwin ") + DCTWIN_VERSION);
  app.require_subcommand(1);

  std::string facility, scenario, duration, output, interval, power_interval;
  bool quiet = false;
  CLI::App* run = app.add_subcommand(
      "run",
      "Simulate a facility and write HDF5 results; prints a summary (peak temperatures, "
      "flows, heat, energy balance, solver statistics)");
  run->add_option("facility", facility, "Facility file (YAML, docs/facility-format.md)")
      ->required()
      ->check(CLI::ExistingFile);
  run->add_option("--scenario,-s", scenario,
                  "Scenario file (YAML, docs/scenario-format.md): duration, output interval, "
                  "initial temperature, load and facility-water events")
      ->check(CLI::ExistingFile);
  run->add_option("--duration,-d", duration,
                  "Simulated time, e.g. 2h, 90min, 3600s (overrides the scenario; default 1 h)");
  run->add_option("--output-interval,-i", interval,
                  "Time between result rows, e.g. 10s (overrides the scenario; default 60 s)");
  run->add_option("--output,-o", output, "HDF5 results file to write (docs/results.md)");
  run->add_option("--power-interval,-p", power_interval,
                  "Also record rack and IT power every this often (e.g. 0.1s, rounded to the GPU "
                  "step) under /power, to see the sub-second swings of synchronous training");
  run->add_flag("--quiet,-q", quiet, "Print nothing but errors");

  std::string check_file;
  CLI::App* check = app.add_subcommand(
      "check", "Load and compile a facility file and report every problem in it, or its size");
  check->add_option("facility", check_file, "Facility file (YAML)")
      ->required()
      ->check(CLI::ExistingFile);

  std::string sweep_file, sweep_out = "sweep.h5";
  int sweep_threads = 1, sweep_max = 0;
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Run a design sweep (docs/sweep-format.md): cases in parallel, one metrics row per case in "
      "/cases; an interrupted sweep resumes from its journal");
  sweep->add_option("sweep", sweep_file, "Sweep file (YAML)")->required()->check(CLI::ExistingFile);
  sweep->add_option("-j,--jobs", sweep_threads, "Cases run at once (threads)")
      ->check(CLI::Range(1, 1024));
  sweep->add_option("--output,-o", sweep_out, "HDF5 file for the /cases table (default sweep.h5)");
  sweep
      ->add_option("--max-cases", sweep_max,
                   "Run at most this many new cases, then stop (resume later with the same "
                   "command; for time-limited batch jobs)")
      ->check(CLI::Range(0, 1000000));
  sweep->add_flag("--quiet,-q", quiet, "Print nothing but errors");

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run)
      return runCommand(facility, scenario, duration, output, interval, power_interval, quiet);
    if (*sweep) return sweepCommand(sweep_file, sweep_threads, sweep_out, sweep_max, quiet);
    if (*check) {
      dctwin::FacilitySpec spec = dctwin::loadFacility(check_file);
      dctwin::FacilityModel m = dctwin::compileFacility(spec);
      std::cout << check_file << ": ok: " << m.ncdu << " CDU, " << m.nrack << " racks, " << m.nstate
                << " states, " << m.jac_rowind.size() << " jacobian nonzeros in " << m.jac_ncolor
                << " colors\n";
      return 0;
    }
  } catch (const dctwin::LoadFailure& e) {
    std::cerr << e.what();
    if (std::string(e.what()).back() != '\n') std::cerr << '\n';
    std::cerr << "dctwin: " << e.errors().size() << " error(s)\n";
    return 2;
  } catch (const dctwin::ResultsError& e) {
    std::cerr << "dctwin: results file: " << e.what() << "\n";
    return 2;
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "dctwin: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
