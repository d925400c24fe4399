// performance_test.cpp: the fast paths of docs/performance.md agree with the reference path
//
// GPU groups (identical GPUs of a rack computed once) against every GPU computed on its own, on the
// default pod with and without a GPU that stands out (a degraded cold plate splits its rack's
// group); worker threads against one thread on the hall. Speed itself is measured by
// tests/bench (scripts/bench.sh), never here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "solver/common/parallel.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"

using namespace dctwin;

namespace {

std::string dataFile(const std::string& name) {
  return std::string(DCTWIN_DATA_DIR) + "/facilities/" + name;
}

// every output row: the state vector, rack heat and the per-GPU view
struct Rows : OutputSink {
  std::vector<std::vector<double>> y, Tj_max, P;
  std::vector<EnergyTotals> e;
  void sample(const FacilityModel& m, const State& st, const double* yy, double,
              const EnergyTotals& ee) override {
    y.emplace_back(yy, yy + m.nstate);
    Tj_max.push_back(st.gl.Tj_max);
    P.push_back(st.gl.P_sum);
    e.push_back(ee);
  }
};

struct Outcome {
  Rows rows;
  State st;
  RunResult r;
  int ngroup = 0;
};

Outcome runPod(bool grouped, const std::string& rack_extra, double duration, int threads = 1,
               const std::string& file = "pod_gb200.yaml", double job_start = -1) {
  FacilitySpec spec = loadFacility(dataFile(file));
  spec.gpu_group_identical = grouped;
  // identical GPUs (variation: none): groups exist only where nothing tells GPUs apart
  // (docs/models/gpu_variation.md); thread independence with every GPU distinct is
  // tests/solver/variation_test.cpp's
  spec.variation.on = false;
  if (!rack_extra.empty()) spec.racks[2].coldplate_degradation = {{17, 2.5}};
  if (job_start >= 0)
    for (auto& j : spec.jobs) j.training.start = job_start;
  // the pod's described job (docs/models/job.md). (The fabric's first version saw 8.9 J per
  // GPU-interval between the paths with it and the degraded plate, from the scalar group step
  // that the batch kernel replaced; measured now: 0.31 J)
  FacilityModel m = compileFacility(spec);
  m.options.threads = threads;
  Outcome o;
  o.ngroup = m.ngroup;
  o.st = makeState(m, m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  o.r = simulate(m, o.st, ro, &o.rows);
  return o;
}

double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

}  // namespace

TEST_CASE("GPU groups agree with every GPU computed on its own", "[performance]") {
  // 15 min: 5 min idle, then 10 min of the synchronous training job (~165 iterations)
  const bool degraded = GENERATE(false, true);
  const std::string extra = degraded ? "degraded" : "";
  Outcome fast = runPod(true, extra, 900), ref = runPod(false, extra, 900);
  REQUIRE(fast.r.ok);
  REQUIRE(ref.r.ok);
  // the pod's 576 GPUs are 144 groups (one per tray: the trays' flows differ by their position on
  // the rack manifold, docs/models/flow_distribution.md), 146 with the degraded plate (its tray
  // before it, it, after it)
  CHECK(fast.ngroup == (degraded ? 146 : 144));
  CHECK(ref.ngroup == 576);
  REQUIRE(fast.rows.y.size() == ref.rows.y.size());
  // stated tolerance (docs/performance.md): the same equations summed in another order; the
  // round-off difference then steers CVODES's adaptive steps a little differently, so the paths
  // agree within the integrator's tolerance. Per kind of state: 0.05 K on every temperature
  // (measured 0.010 K, 0.014 K in the ASan build); the controllers' states (a PI integral winds up
  // to ~700 K s at W45) within 2e-3 of their size (measured 3e-5 in the Release build, 4e-4 in the
  // ASan one); 0.05 K on the junction maxima, as on every temperature (0.0005 K with the
  // step model's phases before 2026-12, 0.016 K since: a phase boundary lands one step apart on
  // the two paths); 20 J of the ~60 kJ per GPU and interval (5 J before the pipeline in time of
  // 2026-12-06: each stage's three bubble phases add boundaries that can land a step apart;
  // measured 14.4 J)
  const FacilityModel km = compileFacility(loadFacility(dataFile("pod_gb200.yaml")));
  double dT = 0, dctrl = 0, dtj = 0, dp = 0;
  for (std::size_t k = 0; k < fast.rows.y.size(); ++k) {
    const std::vector<double>&a = fast.rows.y[k], &b = ref.rows.y[k];
    REQUIRE(a.size() == km.state_kind.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double d = std::abs(a[i] - b[i]);
      switch (km.state_kind[i]) {
        case StateKind::Control:
          dctrl = std::max(dctrl, d / std::max(1.0, std::abs(b[i])));
          break;
        case StateKind::Volume:
          CHECK(d < 1e-9);  // m3: nothing leaks
          break;
        default:
          dT = std::max(dT, d);
      }
    }
    dtj = std::max(dtj, maxAbsDiff(fast.rows.Tj_max[k], ref.rows.Tj_max[k]));
    dp = std::max(dp, maxAbsDiff(fast.rows.P[k], ref.rows.P[k]));
  }
  INFO("max |dT| " << dT << " K, control states " << dctrl << ", max |dTj_max| " << dtj
                   << " K, max |dP_sum| " << dp << " J");
  CHECK(dT < 0.05);
  CHECK(dctrl < 2e-3);
  CHECK(dtj < 0.05);
  CHECK(dp < 20.0);
  const EnergyTotals &a = fast.r.energy, &b = ref.r.energy;
  INFO("heat_in " << a.heat_in << " / " << b.heat_in << ", stored " << a.stored << " / " << b.stored
                  << ", fws " << a.heat_out_fws << " / " << b.heat_out_fws << ", coolant "
                  << a.gpu_to_coolant << " / " << b.gpu_to_coolant);
  // what the grouping computes, the GPU layer's energy: within 1e-5 (measured 1e-8 in the Release
  // build, 1.4e-6 in the ASan (-O2) build, whose round-off moves a throttle threshold crossing by
  // a step)
  CHECK(a.gpu_electric == Approx(b.gpu_electric).epsilon(1e-5));
  CHECK(a.gpu_to_coolant == Approx(b.gpu_to_coolant).epsilon(1e-5));
  // the facility's energy integrals are outside CVODES's error test (integrator.cpp): at the
  // default rtol 1e-6 the pod's heat_in lies 1.5e-4 below its converged value (rtol 1e-9), so
  // two paths whose steps differ agree only to that: measured 1.3e-5 (2.2e-5 degraded) in the
  // Release build, 1.2e-4 in the ASan build when they were CVODES quadratures. The balance of
  // each closes far tighter (the energy tests of tests/solver/system_test.cpp)
  CHECK(a.heat_in == Approx(b.heat_in).epsilon(5e-4));
  CHECK(a.heat_out_fws == Approx(b.heat_out_fws).epsilon(5e-4));
  CHECK(std::abs(a.balanceError()) < 1e-5 * a.heat_in);
  CHECK(std::abs(b.balanceError()) < 1e-5 * b.heat_in);
  // the job: the same iterations, the same pace
  REQUIRE(fast.st.gl.job.size() == 1);
  CHECK(fast.st.gl.job[0].iterations == ref.st.gl.job[0].iterations);
  // (~3.6 s iterations over 10 min; the degraded plate's GPU throttles and slows the job)
  CHECK(fast.st.gl.job[0].iterations > (degraded ? 100 : 140));
  CHECK(throughputRatio(fast.st.gl.job[0]) ==
        Approx(throughputRatio(ref.st.gl.job[0])).epsilon(1e-6));
  CHECK(fast.st.gl.job_throttled[0] ==
        Approx(ref.st.gl.job_throttled[0]).epsilon(1e-3).margin(1.0));  // GPU-seconds
  if (degraded) {
    // the degraded GPU is the hottest in both, and its group is only itself
    const auto hottest = [](const State& st) {
      return std::max_element(st.gl.Tj_max.begin(), st.gl.Tj_max.end()) - st.gl.Tj_max.begin();
    };
    CHECK(hottest(fast.st) == hottest(ref.st));
    CHECK(hottest(fast.st) == 2 * 72 + 17);
  }
}

TEST_CASE("a hall's results do not depend on the number of threads", "[performance]") {
  // the 768-rack hall of scripts/make_facilities.py, with the job from 30 s, for 2 min
  Outcome one = runPod(true, "", 120, 1, "hall_gb300.yaml", 30);
  Outcome two = runPod(true, "", 120, 2, "hall_gb300.yaml", 30);
  REQUIRE(one.r.ok);
  REQUIRE(two.r.ok);
  CHECK(one.ngroup == 768 * 18);  // one per tray
  REQUIRE(one.rows.y.size() == two.rows.y.size());
  for (std::size_t k = 0; k < one.rows.y.size(); ++k) {
    REQUIRE(one.rows.y[k] == two.rows.y[k]);  // bit for bit
    REQUIRE(one.rows.Tj_max[k] == two.rows.Tj_max[k]);
  }
  CHECK(one.r.energy.gpu_electric == two.r.energy.gpu_electric);
  CHECK(one.st.pl.E_utility == two.st.pl.E_utility);
  CHECK(one.st.gl.job[0].iterations == two.st.gl.job[0].iterations);
  CHECK(one.st.gl.job[0].iterations > 20);
  // 55,296 GPUs training at the end: the hall's IT power swings ~26-98 MW over its 2.4 s step
  // (docs/models/job.md, "The pipeline in time"), above the ~12 MW it idles at
  double P_it = 0;
  for (double P : one.st.pl.rack_P_in) P_it += P;
  CHECK(P_it > 20e6);
  CHECK(P_it < 130e6);
}

namespace {

// a run with every GPU distinct (the facility's own variation), its job from job_start, in
// blocks of steps or step by step (SolverOptions::gpu_blocks); degrade: one GPU of the pod's
// third rack behind a cold plate of that many times its resistance
struct BlockRun {
  Rows rows;
  State st;
  RunResult r;
  FacilityModel m;
};
BlockRun runBlocks(const std::string& file, bool blocks, double duration, double job_start,
                   int threads = 1, double degrade = 0, double coupling = 0) {
  FacilitySpec spec = loadFacility(dataFile(file));
  for (auto& j : spec.jobs) j.training.start = job_start;
  if (coupling > 0) spec.coupling_step = coupling;
  if (degrade > 0) spec.racks[2].coldplate_degradation = {{17, degrade}};
  BlockRun o;
  o.m = compileFacility(spec);
  o.m.options.threads = threads;
  o.m.options.gpu_blocks = blocks;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  o.r = simulate(o.m, o.st, ro, &o.rows);
  return o;
}

// the two runs agree bit for bit but for the jobs' map sums, which a block sums in another order
// in the steps where the step-by-step path knew from its hint (runs_on) that no GPU of the job
// waits for a release (round-off)
void checkSameRun(const BlockRun& a, const BlockRun& b) {
  REQUIRE(a.r.ok);
  REQUIRE(b.r.ok);
  REQUIRE(a.rows.y.size() == b.rows.y.size());
  for (std::size_t k = 0; k < a.rows.y.size(); ++k) {
    REQUIRE(a.rows.y[k] == b.rows.y[k]);
    REQUIRE(a.rows.Tj_max[k] == b.rows.Tj_max[k]);
    REQUIRE(a.rows.P[k] == b.rows.P[k]);
  }
  const GpuLayerState &ga = a.st.gl, &gb = b.st.gl;
  CHECK(ga.grp.T_j == gb.grp.T_j);
  CHECK(ga.grp.T_plate == gb.grp.T_plate);
  CHECK(ga.grp.latches == gb.grp.latches);
  CHECK(ga.grp.throttled_time == gb.grp.throttled_time);
  CHECK(ga.rack_P_now == gb.rack_P_now);
  CHECK(a.r.energy.gpu_electric == b.r.energy.gpu_electric);
  CHECK(a.r.energy.heat_in == b.r.energy.heat_in);
  CHECK(a.st.pl.E_utility == b.st.pl.E_utility);
  CHECK(a.st.pl.T_bus == b.st.pl.T_bus);
  REQUIRE(ga.job.size() == gb.job.size());
  for (std::size_t j = 0; j < ga.job.size(); ++j) {
    const JobState &ja = ga.job[j], &jb = gb.job[j];
    CHECK(ja.iterations == jb.iterations);
    CHECK(ja.checkpoints == jb.checkpoints);
    CHECK(ja.phase_now == jb.phase_now);
    CHECK(ja.sum_iteration_time == jb.sum_iteration_time);
    CHECK(ja.stalled_time == jb.stalled_time);
    for (int c = 0; c < kTimeCats; ++c)
      CHECK(ja.map_sum[c] == Approx(jb.map_sum[c]).epsilon(1e-12).margin(1e-9));
  }
}

}  // namespace

TEST_CASE("a window in blocks of steps gives the step-by-step results", "[performance][blocks]") {
  // the hall: 48 chunks of 16 racks, one job over all of them (its barriers are what the blocks
  // wait on), every GPU distinct; on 1 and 2 threads
  const int threads = GENERATE(1, 2);
  const BlockRun blk = runBlocks("hall_gb300.yaml", true, 30, 5, threads);
  const BlockRun ref = runBlocks("hall_gb300.yaml", false, 30, 5, threads);
  checkSameRun(blk, ref);
  CHECK(blk.st.gl.job[0].iterations >= 6);
  // every window in one block (the first ends at the job's start), none undone (the bound holds:
  // rackSafe), and the step-by-step run took none
  CHECK(blk.st.gl.blk_windows == 6);
  CHECK(blk.st.gl.blk_undone == 0);
  CHECK(ref.st.gl.blk_windows == 0);
}

TEST_CASE("a long window runs in several blocks", "[performance][blocks]") {
  // the pod with 20 s coupling windows: 400 steps each, more than a block's 256 (their rows are
  // kept), so each window runs in two blocks where no GPU can shut down (rackSafe); all but the
  // first, in which the job starts
  const BlockRun blk = runBlocks("pod_gb200.yaml", true, 120, 5, 1, 0, 20);
  const BlockRun ref = runBlocks("pod_gb200.yaml", false, 120, 5, 1, 0, 20);
  checkSameRun(blk, ref);
  CHECK(blk.st.gl.blk_steps_max == 256);
  CHECK(blk.st.gl.blk_windows == 5);
  CHECK(blk.st.gl.blk_steps == 5 * 400);
}

TEST_CASE("a GPU that shuts down within a block takes the window back", "[performance][blocks]") {
  // the pod, one GPU behind a plate of 40 times its resistance: it overheats through its
  // throttles to its shutdown, which the bound of the window cannot rule out, so that window
  // runs from a copy of the layers, is taken back, and runs step by step; and then every window
  // after, since its job has lost a GPU. The results are the step-by-step run's
  const BlockRun blk = runBlocks("pod_gb200.yaml", true, 120, 5, 1, 40);
  const BlockRun ref = runBlocks("pod_gb200.yaml", false, 120, 5, 1, 40);
  checkSameRun(blk, ref);
  const GpuLayerState& g = blk.st.gl;
  const int q = blk.m.gpu_group[2 * 72 + 17];
  CHECK((g.grp.latches[std::size_t(q)] & kLatchShutDown) != 0);
  CHECK(g.blk_undone == 1);
  CHECK(g.blk_windows >= 1);
}

TEST_CASE("the worker pool runs every chunk once", "[performance]") {
  const int threads = GENERATE(1, 2, 3);
  WorkerPool pool(threads);
  CHECK(pool.size() == threads);
  std::vector<std::atomic<int>> hits(1000);
  // many short rounds (as the 20 Hz GPU steps), with more chunks than threads, fewer, or one
  for (int round = 0; round < 2000; ++round) {
    const int nk = 1 + round % 37;
    // (every third one of chunks of uneven cost, as the GPU layer's blocks: not a probe of the
    // workers' worth, never run on the caller alone for it)
    pool.run(
        nk,
        [&](int k) {
          int b, e;
          WorkerPool::chunk(int(hits.size()), nk, k, &b, &e);
          for (int i = b; i < e; ++i) ++hits[i];
        },
        round % 3 != 0);
  }
  for (const auto& h : hits) REQUIRE(h == 2000);
  pool.run(0, [&](int) { FAIL("no chunk to run"); });
}

TEST_CASE("the committed hall and campus are what scripts/make_facilities.py writes",
          "[performance]") {
  const std::string cmd = "/usr/bin/python3 " + std::string(DCTWIN_SOURCE_DIR) +
                          "/scripts/make_facilities.py --check > /dev/null";
  CHECK(std::system(cmd.c_str()) == 0);
  // and the campus loads and compiles: 4 halls, 221,184 GPUs, every one distinct (variation on
  // by default); with variation: none, 55,296 groups (one per tray: the trays' flow shares differ)
  FacilitySpec spec = loadFacility(dataFile("campus_gb300.yaml"));
  FacilityModel m = compileFacility(spec);
  CHECK(m.ncdu == 256);
  CHECK(m.nrack == 3072);
  CHECK(m.ngpu == 221184);
  CHECK(m.ngroup == m.ngpu);
  spec.variation.on = false;
  CHECK(compileFacility(spec).ngroup == 3072 * 18);
  CHECK(m.njob == 4);
}
