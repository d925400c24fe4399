// bench_run: wall time, real-time factor, memory and solver cost of simulating one facility
//
//   bench_run [--hours H] [--threads N] [--reference] [--identical] [--simd ISA] [--header]
//             FACILITY.yaml
//   bench_run --annual [--days D] [--threads N] FACILITY.yaml
//   bench_run --stream
// prints one markdown table row (scripts/bench.sh runs one process per facility and thread count,
// so that the peak RSS is the facility's own, and adds the header and the machine).
//   --reference  compile without the fast paths (every GPU computed on its own,
//   docs/performance.md)
//   --no-blocks  the GPU layer step by step, never in blocks of steps (docs/models/gpu_layer.md)
//   --identical  `variation: none`: GPUs that nothing tells apart are computed once per group (the
//                old headline; not the figure for a real fleet)
//   --annual     the multi-rate annual mode (docs/models/annual.md), D days (default 365) with
//                hourly rows: one line with the wall and CPU time, the windows and their share
//   --simd ISA   the vector kernels pinned to instruction set ISA or an older one (AVX2, SSE4,
//                ...; gpuBatchPinTarget), to measure what the vector width buys on this machine
//   --stream     the machine's memory bandwidth (a STREAM triad over 3 x 128 MiB, one thread)
//                and the instruction set the GPU kernel dispatches to
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "models/gpu_batch.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

namespace {

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// STREAM triad a = b + s c (McCalpin): bytes moved per second, counting the write-allocate of a
// as the STREAM convention does not (3 arrays: 24 bytes per element)
double triadBandwidth() {
  const std::size_t n = std::size_t(16) << 20;  // 16 Mi doubles = 128 MiB per array
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  double best = 0;
  for (int rep = 0; rep < 8; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
    const double s = seconds(t0);
    best = std::max(best, 24.0 * double(n) / s);
    std::swap(a, b);
  }
  if (a[n / 2] < 0) std::printf("?");  // keep the loop
  return best;
}

// the annual mode's row: wall and CPU time of the whole process, the windows, the results
int annualRow(const dctwin::RunReport& report, double wall, double days, int threads) {
  const dctwin::RunResult& r = report.result;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double cpu = ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec + ru.ru_stime.tv_sec +
                     1e-6 * ru.ru_stime.tv_usec;
  const double load = [] {
    double l = -1;
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
      if (std::fscanf(f, "%lf", &l) != 1) l = -1;
      std::fclose(f);
    }
    return l;
  }();
  const dctwin::RunSummary& s = report.summary;
  std::printf(
      "| %s (annual) | %d | %d | %.0f d | %.1f | %.1f | %ld | %.2f %% | %.4f | %.3f | %.0f | %.4f "
      "| %.1f | %s |\n",
      report.layout.name.c_str(), report.layout.ngpu, threads, days, wall, cpu,
      r.stats.annual_windows,
      100 * r.stats.annual_window_time /
          std::max(r.stats.annual_window_time + r.stats.annual_slow_time, 1e-9),
      s.plant.pue, s.plant.wue, s.plant.cost,
      s.jobs.empty() ? 0.0 : 1.0 - s.jobs[0].throughput_ratio, load, r.ok ? "ok" : r.error.c_str());
  return r.ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  double hours = 1;
  int threads = 1;
  bool reference = false, header = false, identical = false, annual = false, blocks = true,
       simd = false;
  double days = 365;
  std::string file;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--hours") && i + 1 < argc)
      hours = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reference"))
      reference = true;
    else if (!std::strcmp(argv[i], "--header"))
      header = true;
    else if (!std::strcmp(argv[i], "--identical"))
      identical = true;
    else if (!std::strcmp(argv[i], "--no-blocks"))
      blocks = false;
    else if (!std::strcmp(argv[i], "--annual"))
      annual = true;
    else if (!std::strcmp(argv[i], "--simd") && i + 1 < argc) {
      simd = true;
      if (!dctwin::gpuBatchPinTarget(argv[++i])) {
        std::fprintf(stderr, "bench_run: --simd %s: no such instruction set compiled in\n",
                     argv[i]);
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--days") && i + 1 < argc)
      days = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--stream")) {
      std::printf("memory bandwidth (STREAM triad, 1 thread): %.1f GB/s; GPU kernel: %s\n",
                  triadBandwidth() / 1e9, dctwin::gpuBatchTarget());
      return 0;
    } else
      file = argv[i];
  }
  if (header) {
    std::printf(
        "| facility | GPUs | GPU groups | states | threads | simulated (h) | load + compile (s) | "
        "wall (s) | wall per sim. hour (s) | real-time factor | GPU layer share | CVODE steps | "
        "rhs (+jac) | jac evals | conv. / err. fails | solver failures | peak RSS (MiB) | "
        "ns per GPU-step (wall) | CPU ns per GPU-step |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    if (file.empty()) return 0;
  }
  if (file.empty()) {
    std::fprintf(stderr, "usage: bench_run [--hours H] [--threads N] [--reference] FACILITY\n");
    return 2;
  }
  try {
    auto t0 = std::chrono::steady_clock::now();
    dctwin::FacilitySpec spec = dctwin::loadFacility(file);
    if (reference) spec.gpu_group_identical = false;
    if (identical) spec.variation.on = false;
    // the one run path (solver/run/run.h), as the CLI runs it, without a results file
    dctwin::Scenario sc;
    sc.duration = annual ? days * 86400 : hours * 3600;
    sc.output_interval = annual ? 3600 : 60;
    dctwin::RunSettings settings;
    settings.threads = threads;
    settings.annual = annual;
    settings.gpu_blocks = blocks;
    const dctwin::RunReport report = dctwin::runFacility(spec, sc, settings, {});
    if (annual) return annualRow(report, seconds(t0), days, threads);
    const dctwin::RunResult& r = report.result;
    const dctwin::RunLayout& m = report.layout;
    // load + compile + state: everything but the simulation itself
    const double t_compile = seconds(t0) - r.wall_seconds;
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double wall = r.wall_seconds + t_compile;
    // GPU-steps: every GPU, every fast step (the simulation's wall time only; CPU time of every
    // thread of the process, load and compile included)
    const double gpu_steps = double(m.ngpu) * sc.duration / spec.gpu_step;
    const double cpu = ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec + ru.ru_stime.tv_sec +
                       1e-6 * ru.ru_stime.tv_usec;
    std::printf(
        "| %s%s%s%s | %d | %d | %d | %d | %.2f | %.2f | %.1f | %.1f | %.0f | %.0f %% | %ld | %ld "
        "(+%ld) | "
        "%ld | %ld / %ld | %s | %.0f | %.1f | %.1f |\n",
        m.name.c_str(), reference ? " (reference)" : "", identical ? " (grouped)" : "",
        simd ? (std::string(" (") + dctwin::gpuBatchTarget() + ")").c_str() : "", m.ngpu, m.ngroup,
        m.nstate, threads, hours, t_compile, wall, wall / hours, sc.duration / wall,
        100.0 * r.stats.gpu_layer_seconds / std::max(r.wall_seconds, 1e-9), r.stats.steps,
        r.stats.rhs_evals, r.stats.rhs_evals_jac, r.stats.jac_evals, r.stats.nonlin_conv_fails,
        r.stats.err_test_fails, r.ok ? "0" : ("1: " + r.error).c_str(), ru.ru_maxrss / 1024.0,
        1e9 * r.wall_seconds / std::max(gpu_steps, 1.0), 1e9 * cpu / std::max(gpu_steps, 1.0));
    return r.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("| %s | error: %s |\n", file.c_str(), e.what());
    return 1;
  }
}
