// bench_run: wall time, real-time factor, memory and solver cost of simulating facilities
//
//   bench_run [--hours H] FACILITY.yaml...
// prints one markdown table row per facility (scripts/bench.sh adds the header and the machine).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "solver/integrator.h"
#include "solver/loader.h"
#include "solver/model.h"

int main(int argc, char** argv) {
  double hours = 24;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--hours") && i + 1 < argc)
      hours = std::atof(argv[++i]);
    else
      files.push_back(argv[i]);
  }
  std::printf(
      "| facility | CDUs | racks | states | jac nnz / colors | simulated | wall (s) | "
      "wall per sim. hour (s) | real-time factor | steps | rhs (+jac) | err-test fails | "
      "peak RSS (MiB) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& file : files) {
    try {
      auto t0 = std::chrono::steady_clock::now();
      dctwin::FacilityModel m = dctwin::compileFacility(dctwin::loadFacility(file));
      double t_compile =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      dctwin::State st = dctwin::makeState(m, m.fws_T.eval(0.0));
      dctwin::RunOptions ro;
      ro.duration = hours * 3600;
      m.options.output_interval = 60;
      dctwin::RunResult r = dctwin::simulate(m, st, ro, nullptr);
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      std::printf(
          "| %s | %d | %d | %d | %zu / %d | %.0f h | %.3f | %.4f | %.0f | %ld | %ld (+%ld) | %ld | "
          "%.1f |%s\n",
          m.name.c_str(), m.ncdu, m.nrack, m.nstate, m.jac_rowind.size(), m.jac_ncolor, hours,
          r.wall_seconds + t_compile, (r.wall_seconds + t_compile) / hours,
          ro.duration / r.wall_seconds, r.stats.steps, r.stats.rhs_evals, r.stats.rhs_evals_jac,
          r.stats.err_test_fails, ru.ru_maxrss / 1024.0,
          r.ok ? "" : (" FAILED: " + r.error).c_str());
    } catch (const std::exception& e) {
      std::printf("| %s | error: %s |\n", file.c_str(), e.what());
      return 1;
    }
  }
  return 0;
}
