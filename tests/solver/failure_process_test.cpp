// failure_process_test.cpp: failures as a seeded process on the default pod
// (docs/models/failures.md): failures drawn at the published rates (scaled up so that a short run
// sees several), GPUs lost to the job until repaired, restarts from the last checkpoint on hot
// spares, the same failures whatever the thread count, the job's map still adding up to wall time
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"

using namespace dctwin;

namespace {

std::string podText() {
  std::ifstream f(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Out {
  FacilityModel m;
  State st;
  RunResult res;
};

void run(Out& o, const std::string& scenario, double duration, int threads = 1) {
  FacilitySpec spec = loadFacilityFromString(podText(), "pod.yaml");
  applyScenario(loadScenarioFromString(scenario, "s.yaml"), spec);
  o.m = compileFacility(spec);
  o.m.options.output_interval = 300;
  o.m.options.threads = threads;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, nullptr);
  REQUIRE(o.res.ok);
}

std::string errorOf(const std::string& scenario) {
  try {
    loadScenarioFromString(scenario, "bad.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("failure process: scenario keys and their errors", "[failures][scenario]") {
  const Scenario sc = loadScenarioFromString(
      "failures: {repair_time: 4 h, seed: 9, scale: 2, gpus_per_host: 8, mtbf: {hbm: 1000 d}}\n",
      "f.yaml");
  CHECK(sc.failures.enabled);
  CHECK(sc.failures.repair_time == Approx(4 * 3600));
  CHECK(sc.failures.seed == 9);
  CHECK(sc.failures.scale == Approx(2));
  CHECK(sc.failures.gpus_per_host == 8);
  CHECK(sc.failures.mtbf[kFailHbm] == Approx(1000 * 86400.0));
  CHECK(sc.failures.mtbf[kFailGpu] == Approx(publishedMtbfPerGpu(kFailGpu)));
  CHECK_FALSE(loadScenarioFromString("duration: 1 h\n", "g.yaml").failures.enabled);
  // the repair time has no published default: required
  CHECK_THAT(errorOf("failures: {seed: 2}\n"),
             Catch::Contains("bad.yaml:1") && Catch::Contains("repair_time"));
  CHECK_THAT(errorOf("failures: {repair_time: 1 h, scale: -1}\n"), Catch::Contains("scale"));
  CHECK_THAT(errorOf("failures: {repair_time: 1 h, gpus_per_host: 0}\n"),
             Catch::Contains("gpus_per_host"));
  CHECK_THAT(errorOf("failures: {repair_time: 1 h, mtbf: {psu: 10 d}}\n"), Catch::Contains("psu"));
}

// the pod (576 GPUs, a 30 min checkpoint cycle, restart 10 min) for 2 h with every rate x 300:
// the pod's mean time between failures 12.3 min... the job's expected failures ~ 7
TEST_CASE("failure process: the pod's job restarts on spares, repaired GPUs come back",
          "[failures][checkpoint]") {
  const std::string sc =
      "duration: 2 h\nhot_spares: 16\n"
      "failures: {repair_time: 30 min, seed: 3, scale: 300}\n";
  Out a, b;
  run(a, sc, 7200, 1);
  run(b, sc, 7200, 2);
  const FaultState& f = a.st.faults;
  long drawn = 0;
  for (int c = 0; c < kFailClasses; ++c) drawn += f.fp_count[c];
  // the expected number: 576 GPUs x 300 / MTBF per GPU x 2 h (Poisson: within 4 sigma)
  const double expected = 576 * failureRatePerGpu(a.m.failures) * 7200;
  INFO("failures drawn " << drawn << ", expected " << expected);
  CHECK(std::abs(double(drawn) - expected) < 4 * std::sqrt(expected));
  REQUIRE(drawn >= 2);
  // every failure is an event; every taken GPU's repair comes exactly repair_time later
  std::map<std::string, double> taken;
  long fail_events = 0, repairs = 0;
  for (const EventRecord& e : a.st.events) {
    if (e.kind == "component_failure") ++fail_events;
    if (e.kind == "component_failure" && e.component.find(" GPU ") != std::string::npos)
      taken[e.component] = e.time;
    if (e.kind == "component_repaired") {
      ++repairs;
      if (taken.count(e.component)) CHECK(e.time - taken[e.component] >= 1800 - 1e-6);
    }
  }
  CHECK(fail_events == drawn);
  // the same failures, GPUs and restarts whatever the thread count
  REQUIRE(a.st.events.size() == b.st.events.size());
  for (std::size_t k = 0; k < a.st.events.size(); ++k) {
    CHECK(a.st.events[k].time == b.st.events[k].time);
    CHECK(a.st.events[k].component == b.st.events[k].component);
  }
  const JobState& j = a.st.gl.job[0];
  CHECK(j.failures == b.st.gl.job[0].failures);
  CHECK(j.iterations == b.st.gl.job[0].iterations);
  // the job failed and restarted; the work since its checkpoints was lost
  CHECK(j.failures >= 1);
  CHECK(j.failures <= drawn);
  CHECK(j.lost_iterations > 0);
  double map[kTimeCats];
  jobTimeMap(j, a.st.gl.job_weight[0], map);
  double sum = 0;
  for (double v : map) sum += v;
  const double wall = 7200 - a.m.job_spec[0].start;
  CHECK(sum == Approx(wall).epsilon(1e-3));
  // restarts of 10 min each (a failure inside a restart starts it over)
  CHECK(map[kTimeRestart] >= 600 - 1);
  CHECK(map[kTimeRestart] <= double(j.failures) * 600 + 1);
  CHECK(map[kTimeLostWork] > 0);
  // a rank on a spare only while its GPU is taken; repaired GPUs are out of the taken list
  for (std::size_t k = 0; k < j.gpu.size(); ++k)
    if (j.gpu[k].on_spare) {
      const int q = a.m.job_groups[0][k];
      CHECK(f.gpu_down_until[std::size_t(a.m.group_gpuadr[q])] > 7200 - 1800 - 1e-6);
    }
  for (int i : f.gpu_down) CHECK(f.gpu_down_until[std::size_t(i)] > 7200 - 1e-6);
  // the expected mean time between failures and Daly's interval, from the rates
  const double M = jobMeanTimeBetweenFailures(a.m, 0);
  CHECK(M == Approx(1.0 / (576 * failureRatePerGpu(a.m.failures))).epsilon(1e-9));
}

TEST_CASE("failure process: the seed decides the failures", "[failures]") {
  auto first = [](unsigned long long seed) {
    FacilitySpec spec = loadFacilityFromString(podText(), "pod.yaml");
    applyScenario(
        loadScenarioFromString("failures: {repair_time: 1 h, seed: " + std::to_string(seed) + "}\n",
                               "s.yaml"),
        spec);
    const FacilityModel m = compileFacility(spec);
    State st = makeState(m, 300);
    initFailureProcess(m, st, 0);
    return nextFailureEvent(m, st);
  };
  CHECK(first(5) == first(5));
  CHECK(first(5) != first(6));
  // without the section: no process
  FacilitySpec spec = loadFacilityFromString(podText(), "pod.yaml");
  const FacilityModel m = compileFacility(spec);
  State st = makeState(m, 300);
  initFailureProcess(m, st, 0);
  CHECK(std::isinf(nextFailureEvent(m, st)));
  CHECK(std::isnan(jobMeanTimeBetweenFailures(m, 0)));
}

// stragglers (docs/models/failures.md "Stragglers"): the default pod at W45 with the bad-mount
// what-if at 1 % (about 6 GPUs on a poorly seated plate throttle): detected at the end of the
// first window after the job's start; drained onto hot spares, the job restarts once and runs
// faster afterwards than with detection only
TEST_CASE("stragglers: detected against the job's median, drained onto hot spares",
          "[failures][stragglers]") {
  auto text = [] {
    std::ifstream f(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200_w45.yaml");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str() + "variation: {seed: 1, bad_mount_fraction: 0.01, bad_mount_factor: 2.5}\n";
  }();
  auto runWith = [&](const std::string& policy, Out& o, bool blocks = true) {
    FacilitySpec spec = loadFacilityFromString(text, "pod_w45.yaml");
    applyScenario(loadScenarioFromString("duration: 2 h\nhot_spares: 16\nstragglers: {policy: " +
                                             policy + ", threshold: 0.1, window: 10 min}\n",
                                         "s.yaml"),
                  spec);
    o.m = compileFacility(spec);
    o.m.options.output_interval = 300;
    o.m.options.gpu_blocks = blocks;
    o.st = makeState(o.m, o.m.fws_T.eval(0.0));
    RunOptions ro;
    ro.duration = 7200;
    o.res = simulate(o.m, o.st, ro, nullptr);
    REQUIRE(o.res.ok);
  };
  Out det, dr;
  runWith("detect", det);
  runWith("drain", dr);
  const FaultState& fd = det.st.faults;
  const FaultState& fr = dr.st.faults;
  // detected: the job starts at 5 min, so its first whole window ends at 20 min
  REQUIRE(fd.sg_detected >= 3);
  CHECK(fd.sg_drained == 0);
  double first = 1e300;
  for (const EventRecord& e : det.st.events)
    if (e.kind == "straggler_detected") first = std::min(first, e.time);
  CHECK(first == Approx(1200));
  CHECK(det.st.gl.job[0].failures == 0);
  // drained: each detected group's rank on a spare, one restart per detection round
  REQUIRE(fr.sg_drained >= 3);
  const JobState& j = dr.st.gl.job[0];
  CHECK(j.on_spares == int(fr.sg_drained));
  CHECK(j.failures >= 1);
  CHECK(j.failures <= 3);
  long drained_events = 0;
  for (const EventRecord& e : dr.st.events) drained_events += e.kind == "straggler_drained";
  CHECK(drained_events == fr.sg_drained);
  // the iterations after the drain run faster: the mean iteration time over the run is shorter
  // than with the stragglers kept, though the restart and the lost work cost goodput in 2 h
  CHECK(meanIterationTime(j) < 0.9 * meanIterationTime(det.st.gl.job[0]));
  double map[kTimeCats];
  jobTimeMap(j, dr.st.gl.job_weight[0], map);
  CHECK(map[kTimeRestart] >= 600 - 1);
  CHECK(map[kTimeLostWork] > 0);
  // ranks on spares step in blocks as they step one by one (docs/models/gpu_layer.md "Steps in
  // blocks"): the same iterations and map but for round-off
  Out steps;
  runWith("drain", steps, false);
  CHECK(steps.st.gl.job[0].iterations == j.iterations);
  CHECK(steps.st.gl.job[0].on_spares == j.on_spares);
  double map1[kTimeCats];
  jobTimeMap(steps.st.gl.job[0], steps.st.gl.job_weight[0], map1);
  for (int c = 0; c < kTimeCats; ++c) CHECK(map1[c] == Approx(map[c]).margin(1e-6).epsilon(1e-9));
  CHECK(dr.st.gl.blk_windows > steps.st.gl.blk_windows);
  // bad input: the site's settings are required
  CHECK_THAT(errorOf("stragglers: {policy: drain, window: 10 min}\n"),
             Catch::Contains("threshold"));
  CHECK_THAT(errorOf("stragglers: {policy: evict, threshold: 0.1, window: 10 min}\n"),
             Catch::Contains("policy"));
  CHECK_THAT(errorOf("stragglers: {policy: drain, threshold: 1.5, window: 10 min}\n"),
             Catch::Contains("threshold"));
}
