// dctwin: command-line front end. It only parses arguments and calls the library.
//
//   dctwin run FACILITY.yaml [--scenario S.yaml] [--duration 2h] [--output out.h5]
//   dctwin check FACILITY.yaml
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "solver/integrator.h"
#include "solver/loader.h"
#include "solver/model.h"
#include "solver/results.h"
#include "solver/run.h"
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

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run)
      return runCommand(facility, scenario, duration, output, interval, power_interval, quiet);
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
