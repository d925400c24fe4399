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
#include <vector>

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

// a facility's text with a scenario's, run for `duration` at one output every 300 s
void runText(Out& o, const std::string& facility, const std::string& scenario, double duration,
             int threads = 1) {
  FacilitySpec spec = loadFacilityFromString(facility, "pod.yaml");
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

void run(Out& o, const std::string& scenario, double duration, int threads = 1) {
  runText(o, podText(), scenario, duration, threads);
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
    applyScenario(
        loadScenarioFromString("duration: 2 h\nhot_spares: 16\nstragglers: {policy: " + policy +
                                   ", act_at: detection, threshold: 0.1, window: "
                                   "10 min}\n",
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

namespace {

// the default pod at W45 with the bad-mount what-if at 1 % (the straggler test's), with a
// scenario's stragglers: section of `policy`; extra: more facility text (a job's power cap)
std::string badMountPod(const std::string& job_extra = "") {
  std::ifstream f(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200_w45.yaml");
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  if (!job_extra.empty()) {
    const std::string at = "    checkpoint_interval: 30 min\n";
    const std::size_t p = text.find(at);
    REQUIRE(p != std::string::npos);
    text.insert(p, job_extra);
  }
  return text + "variation: {seed: 1, bad_mount_fraction: 0.01, bad_mount_factor: 2.5}\n";
}

// act: the stragglers: section's act_at and more, empty: none (the tests of the policies as they
// act at once give act_at: detection)
void runPolicy(Out& o, const std::string& facility, const std::string& policy, int spares,
               int threads = 1, double duration = 7200,
               const std::string& act = "act_at: detection") {
  runText(o, facility,
          "hot_spares: " + std::to_string(spares) + "\nstragglers: {policy: " + policy + ", " +
              (act.empty() ? "" : act + ", ") + "threshold: 0.1, window: 10 min}\n",
          duration, threads);
}

double jobCapSum(const Out& o) {
  double s = 0;
  for (const int q : o.m.job_groups[0]) s += o.m.group_gpunum[q] * o.st.gl.grp.cap[std::size_t(q)];
  return s;
}

}  // namespace

// policy exclude (docs/models/failures.md "Stragglers"): the stragglers' data-parallel replicas
// (tp 8 x pp 4 = 32 GPUs each of the pod's dp 18) leave the job at one restart from the last
// checkpoint, no hot spare used; the job goes on with fewer replicas, each iteration worth the
// share kept, and nobody waits behind an excluded GPU afterwards
TEST_CASE("stragglers: policy exclude re-shards onto the replicas kept", "[failures][stragglers]") {
  const std::string text = badMountPod();
  Out det, ex;
  runPolicy(det, text, "detect", 0);
  runPolicy(ex, text, "exclude", 0);
  const FaultState& f = ex.st.faults;
  const JobState& j = ex.st.gl.job[0];
  REQUIRE(f.sg_excluded >= 1);
  CHECK(f.sg_drained == 0);
  CHECK(j.on_spares == 0);  // no spare used
  CHECK(j.failures >= 1);   // the restart
  // whole replicas of 32 GPUs, and the share of the work per iteration is the replicas kept
  REQUIRE(f.sg_excluded_gpus % 32 == 0);
  const long out = f.sg_excluded_gpus / 32;
  REQUIRE(out < 18);
  CHECK(j.work_share == Approx(double(18 - out) / 18).epsilon(1e-12));
  CHECK(jobWorkIterations(j, false) < double(j.iterations));
  // the work after the exclusion counts at the share kept: goodput from the weighted iterations
  const double wall = 7200 - ex.m.job_spec[0].start;
  double D = -ex.m.job_spec[0].stage_skip_total;  // an iteration's reference work
  for (const PhaseSpec& p : ex.m.job_spec[0].phases) D += p.duration;
  CHECK(jobGoodput(ex.m.job_spec[0], j, 7200) == Approx(jobWorkIterations(j, true) * D / wall));
  CHECK(jobWorkIterations(j, true) < double(j.iterations) - j.lost_iterations);
  long excluded_events = 0;
  for (const EventRecord& e : ex.st.events) excluded_events += e.kind == "straggler_excluded";
  CHECK(excluded_events == f.sg_excluded);
  // nobody waits behind an excluded GPU after its exclusion: the waits it caused stay as they
  // were, and every excluded GPU is idle, its time the map's `excluded` part
  REQUIRE(!j.excluded_list.empty());
  CHECK(long(j.excluded_list.size()) * 1 == f.sg_excluded_gpus);  // (every GPU its own group)
  constexpr std::size_t kMark = kTimeCats + kWaitCats + 1;
  for (std::size_t i = 0; i < j.excluded_list.size(); ++i)
    CHECK(j.caused[j.excluded_list[i]] == j.excluded_mark[i * kMark + kMark - 1]);
  double map[kTimeCats], tot = 0;
  jobTimeMap(j, ex.st.gl.job_weight[0], map);
  for (int c = 0; c < kTimeCats; ++c) tot += map[c];
  CHECK(tot == Approx(wall).epsilon(1e-9));
  CHECK(map[kTimeExcluded] > 0);
  // (the restart: 600 s for the GPUs kept; the excluded GPUs' share of it is `excluded`)
  CHECK(map[kTimeRestart] >= 600 * double(576 - f.sg_excluded_gpus) / 576 - 1);
  // the excluded share of the job's GPU time: its GPUs' share of the job from the exclusion on
  CHECK(map[kTimeExcluded] < double(f.sg_excluded_gpus) / 576 * wall);
  // the iterations after the exclusion run faster than with the stragglers kept
  CHECK(meanIterationTime(j) < 0.9 * meanIterationTime(det.st.gl.job[0]));
  // the same on 2 threads
  Out ex2;
  runPolicy(ex2, text, "exclude", 0, 2);
  CHECK(ex2.st.gl.job[0].iterations == j.iterations);
  CHECK(ex2.st.faults.sg_excluded_gpus == f.sg_excluded_gpus);
  double map2[kTimeCats];
  jobTimeMap(ex2.st.gl.job[0], ex2.st.gl.job_weight[0], map2);
  for (int c = 0; c < kTimeCats; ++c) CHECK(map2[c] == Approx(map[c]).margin(1e-9));
  REQUIRE(ex2.st.events.size() == ex.st.events.size());
  for (std::size_t i = 0; i < ex.st.events.size(); ++i)
    CHECK(ex2.st.events[i].kind == ex.st.events[i].kind);
}

// policy rebalance: the stragglers' power caps raised, the job's others lowered, the sum of the
// job's caps unchanged, no restart; with the job capped below the GPU's largest limit a
// straggler held down by its cap (a hot, leaky die draws more at a given clock) gains clock
TEST_CASE("stragglers: policy rebalance moves the job's power cap to its stragglers",
          "[failures][stragglers]") {
  const std::string text = badMountPod("    gpu_power_cap: 1000 W\n");
  Out det, rb;
  runPolicy(det, text, "detect", 0);
  runPolicy(rb, text, "rebalance", 0);
  const FaultState& f = rb.st.faults;
  REQUIRE(f.sg_rebalanced >= 1);
  CHECK(rb.st.gl.job[0].failures == 0);  // no restart
  CHECK(jobCapSum(rb) == Approx(jobCapSum(det)).epsilon(1e-12));
  CHECK(f.sg_cap_moved > 0);
  // each straggler's cap raised, up to the GPU's largest settable limit; at the end its clock is
  // held by its temperature, within a few per cent of detection's (the extra watts heated it: it
  // runs into its thermal limit instead of its cap, which the wait map below books; 0.5-1.4 % in
  // the Release build, 2.0 % in the sanitizer build, whose steps differ at the last instant)
  int raised = 0;
  for (const int q : rb.m.job_groups[0]) {
    if (!f.sg_logged[std::size_t(q)]) continue;
    const double cap = rb.st.gl.grp.cap[std::size_t(q)];
    CHECK(cap <= rb.m.gpu_types[std::size_t(rb.st.gl.grp.type[std::size_t(q)])].P_limit_max);
    raised += cap > det.st.gl.grp.cap[std::size_t(q)] ? 1 : 0;
    CHECK(rb.st.gl.grp.clock_ratio[std::size_t(q)] ==
          Approx(det.st.gl.grp.clock_ratio[std::size_t(q)]).epsilon(0.05));
  }
  CHECK(raised == f.sg_rebalanced);
  // the gain is bounded by the straggler's cause: with its cap raised the straggler is held by
  // its temperature instead, and the others' wait moves from its power cap to its thermal
  // throttling (the job gains next to nothing on the pod: docs/models/failures.md)
  double wd[kWaitCats], wr[kWaitCats];
  jobWaitMap(det.st.gl.job[0], det.st.gl.job_weight[0], wd);
  jobWaitMap(rb.st.gl.job[0], rb.st.gl.job_weight[0], wr);
  constexpr int kCap = kTimePowerCap - kLossFirst, kThermal = kTimeThermal - kLossFirst;
  CHECK(wr[kCap] < 0.5 * wd[kCap]);
  CHECK(wr[kThermal] > wd[kThermal]);
  // the same on 2 threads
  Out rb2;
  runPolicy(rb2, text, "rebalance", 0, 2);
  CHECK(rb2.st.gl.job[0].iterations == rb.st.gl.job[0].iterations);
  CHECK(rb2.st.faults.sg_cap_moved == f.sg_cap_moved);
}

// drain with no hot spare left: an event per straggler kept, the job runs on (no stall)
TEST_CASE("stragglers: drain with no spare left is an event, not a stall",
          "[failures][stragglers]") {
  Out o;
  runPolicy(o, badMountPod(), "drain", 0, 1, 3600);
  const FaultState& f = o.st.faults;
  CHECK(f.sg_drained == 0);
  REQUIRE(f.sg_detected >= 1);
  long kept = 0;
  for (const EventRecord& e : o.st.events)
    if (e.kind == "straggler_kept") {
      ++kept;
      CHECK_THAT(e.message, Catch::Contains("no hot spare left"));
    }
  CHECK(kept == f.sg_detected);
  CHECK(o.st.gl.job[0].mode == 0);
  CHECK(o.st.gl.job[0].failures == 0);
  CHECK(o.st.gl.job[0].stalled_time == 0);
  // bad input names the key
  CHECK_THAT(errorOf("stragglers: {policy: reshard, threshold: 0.1, window: 10 min}\n"),
             Catch::Contains("policy"));
  CHECK_THAT(errorOf("stragglers: {policy: exclude, threshold: 0, window: 10 min}\n"),
             Catch::Contains("threshold"));
  CHECK_THAT(errorOf("stragglers: {policy: rebalance, threshold: 0.1, window: 1 s}\n"),
             Catch::Contains("window"));
}

namespace {

// the events of a kind, in time order
std::vector<EventRecord> eventsOf(const Out& o, const std::string& kind) {
  std::vector<EventRecord> v;
  for (const EventRecord& e : o.st.events)
    if (e.kind == kind) v.push_back(e);
  return v;
}

// the end of the checkpoint an action followed, from its event ("... ended at t = X s ...")
double checkpointEndOf(const EventRecord& e) {
  const std::string at = "ended at t = ";
  const std::size_t p = e.message.find(at);
  REQUIRE(p != std::string::npos);
  return std::stod(e.message.substr(p + at.size()));
}

double mapPart(const Out& o, int c) {
  double map[kTimeCats];
  jobTimeMap(o.st.gl.job[0], o.st.gl.job_weight[0], map);
  return map[c];
}

double mapTotal(const Out& o) {
  double map[kTimeCats], tot = 0;
  jobTimeMap(o.st.gl.job[0], o.st.gl.job_weight[0], map);
  for (int c = 0; c < kTimeCats; ++c) tot += map[c];
  return tot;
}

}  // namespace

// act_at (docs/models/failures.md "When drain and exclude act"): drain waits for a checkpoint —
// the job's next scheduled one, or one it writes on demand at its next iteration end — and the
// restart that swaps the stragglers for spares follows it at once: no work lost, goodput higher
// than acting at detection (which restarts from the last checkpoint and loses the work since)
TEST_CASE("stragglers: act_at checkpoint drains after a checkpoint, no work lost",
          "[failures][stragglers]") {
  const std::string text = badMountPod();
  Out det, ck, now;
  runPolicy(det, text, "drain", 16);
  runPolicy(ck, text, "drain", 16, 1, 7200, "act_at: checkpoint");
  runPolicy(now, text, "drain", 16, 1, 7200, "");  // the default: checkpoint_now
  const double wall = 7200 - ck.m.job_spec[0].start;
  for (const Out* o : {&ck, &now}) {
    const JobState& j = o->st.gl.job[0];
    const FaultState& f = o->st.faults;
    REQUIRE(f.sg_drained >= 1);
    CHECK(j.on_spares == int(f.sg_drained));
    // scheduled at detection, carried out after the checkpoint: one event each
    const auto pend = eventsOf(*o, "straggler_pending"), done = eventsOf(*o, "straggler_drained");
    CHECK(long(done.size()) == f.sg_drained);
    CHECK(pend.size() >= done.size());
    REQUIRE(!pend.empty());
    CHECK(pend.front().time == Approx(1200));  // (the first whole window after the start)
    for (const EventRecord& e : done) {
      const double t_ck = checkpointEndOf(e);
      CHECK(t_ck >= pend.front().time);
      CHECK(e.time >= t_ck);
      CHECK(e.time <= t_ck + 1.01e-3);  // at the window stop 1 ms after the checkpoint's end
    }
    // no work lost: no iteration, and at most the 1 ms after each checkpoint per restart
    CHECK(j.lost_iterations == 0);
    CHECK(mapPart(*o, kTimeLostWork) <= 1.01e-3 * double(j.failures));
    CHECK(j.failures >= 1);
    CHECK(mapPart(*o, kTimeRestart) >= 600 - 1);
    CHECK(mapTotal(*o) == Approx(wall).epsilon(1e-9));
    // goodput above acting at detection on the same case
    CHECK(jobGoodput(o->m.job_spec[0], j, 7200) >
          jobGoodput(det.m.job_spec[0], det.st.gl.job[0], 7200));
  }
  CHECK(mapPart(det, kTimeLostWork) > 60);
  // the scheduled checkpoint comes at the first iteration end 30 min after the job's start;
  // on demand, at the first iteration end after the detection
  const double first_ck = checkpointEndOf(eventsOf(ck, "straggler_drained").front());
  const double first_now = checkpointEndOf(eventsOf(now, "straggler_drained").front());
  CHECK(first_ck >= ck.m.job_spec[0].start + 1800);
  CHECK(first_now < first_ck);
  CHECK(first_now < 1200 + 60);
  // the same on 2 threads
  Out ck2;
  runPolicy(ck2, text, "drain", 16, 2, 7200, "act_at: checkpoint");
  CHECK(ck2.st.gl.job[0].iterations == ck.st.gl.job[0].iterations);
  CHECK(ck2.st.faults.sg_drained == ck.st.faults.sg_drained);
  for (int c = 0; c < kTimeCats; ++c) CHECK(mapPart(ck2, c) == Approx(mapPart(ck, c)).margin(1e-9));
  REQUIRE(ck2.st.events.size() == ck.st.events.size());
  for (std::size_t i = 0; i < ck.st.events.size(); ++i) {
    CHECK(ck2.st.events[i].kind == ck.st.events[i].kind);
    CHECK(ck2.st.events[i].time == ck.st.events[i].time);
  }
  // bad input names the key and its line
  const std::string err = errorOf(
      "duration: 1 h\nstragglers: {policy: drain, act_at: soon, threshold: 0.1, "
      "window: 10 min}\n");
  CHECK_THAT(err, Catch::Contains("act_at"));
  CHECK_THAT(err, Catch::Contains("bad.yaml:2"));
}

// an excluded replica rejoins once its straggler's GPU is replaced (stragglers.repair_time), at
// the next checkpoint: the straggler's rank on the replaced GPU, the others on their own, the
// global batch (the work share per iteration) restored
TEST_CASE("stragglers: an excluded replica rejoins after the repair", "[failures][stragglers]") {
  const std::string text = badMountPod();
  Out ex, back;
  runPolicy(ex, text, "exclude", 0, 1, 7200, "act_at: checkpoint_now");
  runPolicy(back, text, "exclude", 0, 1, 7200, "repair_time: 15 min");
  const FaultState& f = back.st.faults;
  const JobState& j = back.st.gl.job[0];
  REQUIRE(f.sg_excluded >= 1);
  REQUIRE(f.sg_rejoined >= 1);
  const auto excl = eventsOf(back, "straggler_excluded");
  const auto pend = eventsOf(back, "replica_rejoin_pending");
  const auto rej = eventsOf(back, "replica_rejoined");
  CHECK(long(rej.size()) == f.sg_rejoined);
  REQUIRE(!excl.empty());
  REQUIRE(!pend.empty());
  // the rejoin is scheduled once the GPU is replaced (15 min after the exclusion, at the next
  // window stop) and carried out after the next checkpoint, with no work lost
  CHECK(pend.front().time >= excl.front().time + 900);
  CHECK(pend.front().time <= excl.front().time + 900 + 5 + 1e-6);
  CHECK(rej.front().time >= pend.front().time);
  CHECK(rej.front().time <= checkpointEndOf(rej.front()) + 1.01e-3);
  CHECK(j.lost_iterations == 0);
  // the work share back up: more than without the repair, each iteration worth more
  CHECK(j.work_share > ex.st.gl.job[0].work_share);
  CHECK(jobWorkIterations(j, true) > jobWorkIterations(ex.st.gl.job[0], true));
  // the stragglers' ranks on their replaced GPUs (taken for good), taking no spare; their
  // replicas' other GPUs back in service
  int replaced = 0;
  for (std::size_t k = 0; k < j.excluded.size(); ++k) {
    const int q = back.m.job_groups[0][k];
    if (j.excluded[k] == 3) {
      ++replaced;
      CHECK(back.st.faults.sg_logged[std::size_t(q)]);
      CHECK(j.gpu[k].on_spare);
    }
    if (j.excluded[k] == 0) CHECK(back.st.gl.job_alive[0][k]);
  }
  CHECK(replaced >= 1);
  CHECK(j.on_spares == 0);
  CHECK(mapTotal(back) == Approx(7200 - back.m.job_spec[0].start).epsilon(1e-9));
  CHECK(mapPart(back, kTimeExcluded) > 0);
  CHECK(mapPart(back, kTimeExcluded) < mapPart(ex, kTimeExcluded));
  // the same on 2 threads
  Out back2;
  runPolicy(back2, text, "exclude", 0, 2, 7200, "repair_time: 15 min");
  CHECK(back2.st.gl.job[0].iterations == j.iterations);
  CHECK(back2.st.gl.job[0].work_share == j.work_share);
  for (int c = 0; c < kTimeCats; ++c)
    CHECK(mapPart(back2, c) == Approx(mapPart(back, c)).margin(1e-9));
  REQUIRE(back2.st.events.size() == back.st.events.size());
  for (std::size_t i = 0; i < back.st.events.size(); ++i)
    CHECK(back2.st.events[i].kind == back.st.events[i].kind);
}
