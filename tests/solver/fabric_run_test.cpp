// fabric_run_test.cpp: described jobs, fabric faults, restarts and the bottleneck map on the
// default pod (docs/models/job.md, fabric.md, checkpoint.md)
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

std::string podText() {
  std::ifstream f(kPod);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string replaced(std::string s, const std::string& a, const std::string& b) {
  const auto p = s.find(a);
  REQUIRE(p != std::string::npos);
  return s.replace(p, a.size(), b);
}

struct Out {
  FacilityModel m;
  State st;
  RunResult res;
};

void run(Out& o, const std::string& events, double duration, const std::string& text = "") {
  FacilitySpec spec = loadFacilityFromString(text.empty() ? podText() : text, "pod.yaml");
  Scenario sc = loadScenarioFromString("dctwin_scenario: 1\nevents:\n" + events, "s.yaml");
  applyScenario(sc, spec);
  o.m = compileFacility(spec);
  o.m.options.output_interval = 60;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, nullptr);
  REQUIRE(o.res.ok);
}

double mapSum(const Out& o, double* map) {
  jobTimeMap(o.st.gl.job[0], o.st.gl.job_weight[0], map);
  double s = 0;
  for (int c = 0; c < kTimeCats; ++c) s += map[c];
  return s;
}

const PhaseSpec& phase(const FacilityModel& m, const std::string& name) {
  for (const PhaseSpec& p : m.job_spec[0].phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return m.job_spec[0].phases[0];
}

std::string compileErrors(const std::string& text, const std::string& scenario = "") {
  try {
    FacilitySpec spec = loadFacilityFromString(text, "pod.yaml");
    if (!scenario.empty()) applyScenario(loadScenarioFromString(scenario, "s.yaml"), spec);
    compileFacility(spec);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(
    "default pod: the described job, its map sums to wall time, a degraded scale-out link "
    "and a lost NVLink tray slow the iteration by the formula's amount",
    "[fabric][jobs][solver]") {
  Out h, d, t;
  run(h, "  []\n", 600);
  run(d, "  - {time: 0 s, rack: A01, fabric: {fault: link_degraded, gpu: 0, fraction: 0.1}}\n",
      600);
  run(t, "  - {time: 0 s, rack: A02, fabric: {fault: nvlink_tray_lost, tray: 3}}\n", 600);
  const FacilityModel& m = h.m;
  REQUIRE(m.job_described.size() == 1);
  CHECK(m.job_described[0].dp == 18);
  CHECK(m.job_described[0].micro_batches == 32);
  // the parts add up to wall time (the job starts at 5 min), within 0.1 %
  double map[kTimeCats];
  for (const Out* o : {&h, &d, &t}) CHECK(mapSum(*o, map) == Approx(300.0).epsilon(1e-3));
  // a degraded NIC: its GPU's collectives take (beta_dp + beta_pp) (1/0.1 - 1) longer in every
  // iteration, exactly; the job's iteration by about that (the others wait at the barrier, and
  // run slightly cooler, hence a little faster: a 5 % margin)
  const double beta_net = phase(m, "dp_allreduce").comm_beta + phase(m, "pp_p2p").comm_beta;
  const double x_link = 9 * beta_net;
  const JobState& jd = d.st.gl.job[0];
  int k0 = 0;
  while (d.m.job_groups[0][k0] != d.m.gpu_group[d.m.rack_gpuadr[0]]) ++k0;
  const auto slow = jd.time(std::size_t(k0));
  CHECK(d.m.group_gpunum[d.m.gpu_group[d.m.rack_gpuadr[0]]] == 1);  // a group of its own
  CHECK(slow[kTimeFabricDegraded] >= jd.iterations * x_link * (1 - 1e-9));
  CHECK(slow[kTimeFabricDegraded] <= (jd.iterations + 1) * x_link);
  // with GPU variation the healthy job's iteration is its slowest GPU's: the degraded GPU had
  // a slack (its mean barrier wait per iteration in the healthy run) that absorbs part of x_link,
  // so the iteration stretches by between x_link - slack and x_link (5 % margins)
  const JobState& jh = h.st.gl.job[0];
  auto slack = [&](int k) {
    return jh.time(std::size_t(k))[kTimeBarrierWait] / double(jh.iterations);
  };
  REQUIRE(h.m.job_groups[0] == d.m.job_groups[0]);
  REQUIRE(h.m.job_groups[0] == t.m.job_groups[0]);
  const double Th = jh.last_iteration_time, Td = jd.last_iteration_time;
  CHECK(Td - Th <= 1.05 * x_link);
  CHECK(Td - Th >= 0.95 * (x_link - slack(k0)));
  CHECK(x_link - slack(k0) > 0.5 * x_link);  // (the slack does not hide the degraded link)
  mapSum(d, map);
  CHECK(map[kTimeFabricDegraded] > 0);
  CHECK(map[kTimeBarrierWait] > 0);
  // a lost tray of 9 (adaptive bandwidth): rack A02's TP collectives at 8/9 of the bandwidth,
  // + beta_tp / 8 per iteration on its GPUs, exactly; the iteration by about that (A02 runs
  // cooler while it communicates longer, and its slack is its least-loaded GPU's: a 35 % margin,
  // 25 % before the pipeline in time, whose stages shift which GPU of the job is the slowest at
  // the barrier in a single iteration; measured 31 %)
  const double x_tray = phase(m, "tp_comm").comm_beta * (9.0 / 8 - 1);
  const JobState& jt = t.st.gl.job[0];
  const int q = t.m.gpu_group[t.m.rack_gpuadr[1]];
  int k = 0;
  while (t.m.job_groups[0][k] != q) ++k;
  CHECK(jt.time(std::size_t(k))[kTimeFabricDegraded] >= jt.iterations * x_tray * (1 - 1e-9));
  CHECK(jt.time(std::size_t(k))[kTimeFabricDegraded] <= (jt.iterations + 1) * x_tray);
  // (the stretch of A02's GPU with the least slack)
  double slack_a02 = 1e300;
  for (std::size_t kk = 0; kk < t.m.job_groups[0].size(); ++kk)
    if (t.m.gpu_rack[t.m.group_gpuadr[t.m.job_groups[0][kk]]] == 1)
      slack_a02 = std::min(slack_a02, slack(int(kk)));
  CHECK(jt.last_iteration_time - Th == Approx(std::max(x_tray - slack_a02, 0.0)).epsilon(0.35));
}

TEST_CASE(
    "default pod: a rack leak fails the job, it restarts on hot spares from its last "
    "checkpoint and loses the work since",
    "[fabric][jobs][solver]") {
  std::string text =
      replaced(podText(), "restart_time: 10 min", "restart_time: 2 min\n    hot_spares: 72");
  text = replaced(text, "checkpoint_interval: 30 min", "checkpoint_interval: 2 min");
  Out o;
  run(o,
      "  - {time: 10 min, rack: A03, leak: {diameter: 2 mm, diameter_final: 4 mm, growth_time: "
      "2 min}}\n",
      1200, text);
  const JobState& js = o.st.gl.job[0];
  CHECK(js.failures == 1);
  double map[kTimeCats];
  CHECK(mapSum(o, map) == Approx(900.0).epsilon(1e-3));
  CHECK(map[kTimeRestart] == Approx(120.0).epsilon(1e-3));
  CHECK(map[kTimeLostWork] > 0);
  CHECK(map[kTimeLostWork] < 120.0 + 25.0);  // at most a checkpoint interval (+ the checkpoint)
  CHECK(map[kTimeCheckpoint] > 0);
  CHECK(js.iterations > js.iterations_at_checkpoint);  // it runs again after the restart
  CHECK(js.lost_iterations > 0);
}

TEST_CASE("described jobs and fabric faults: bad input is a file:line error", "[fabric][jobs]") {
  const std::string pod = podText();
  std::string e =
      compileErrors(replaced(pod, "parallelism: {tp: 8, pp: 4,", "parallelism: {tp: 8, pp: 5,"));
  CHECK(e.find("pod.yaml:") == 0);
  CHECK(e.find("tp x cp x pp = 8 x 1 x 5 = 40 does not divide the job's 576 GPUs") !=
        std::string::npos);
  // 4,000 layers of Llama 3 70B's width (3.5e12 parameters): fits no GPU
  e = compileErrors(replaced(replaced(pod, "parameters: 70e9", "parameters: 3.5e12"), "layers: 80",
                             "layers: 4000"));
  CHECK(e.find("does not fit the GPU memory") != std::string::npos);
  CHECK(e.find("pod.yaml:") == 0);
  e = compileErrors(pod,
                    "dctwin_scenario: 1\nevents:\n  - {time: 1 s, rack: A01, fabric: {fault: "
                    "nvlink_tray_lost, tray: 9}}\n");
  CHECK(e.find("s.yaml:3:") == 0);
  CHECK(e.find("a switch that does not exist: rack A01 has 9 NVLink switch trays") !=
        std::string::npos);
  e = compileErrors(pod,
                    "dctwin_scenario: 1\nevents:\n  - {time: 1 s, rack: A01, fabric: {fault: "
                    "link_down, gpu: 0, nic: 1}}\n");
  CHECK(e.find("a link to a NIC that does not exist") != std::string::npos);
  e = compileErrors(pod,
                    "dctwin_scenario: 1\nevents:\n  - {time: 1 s, rack: A01, fabric: {fault: "
                    "link_down, gpu: 72}}\n");
  CHECK(e.find("rack A01 has no GPU slot 72") != std::string::npos);
}

TEST_CASE(
    "default pod: HBM fitted differently in a rack type (gpu_memory) gives its GPUs a type of "
    "their own, and the described job its bandwidth and capacity",
    "[fabric][jobs][solver]") {
  // every rack of the pod as a rack type with HBM at half the bandwidth and 144 GB
  std::string t = podText();
  for (std::size_t p; (p = t.find("type: gb200_nvl72,")) != std::string::npos;)
    t.replace(p, 18, "type: gb200_half,");
  t += "rack_types:\n  - name: gb200_half\n    base: gb200_nvl72\n"
       "    gpu_memory: {bandwidth: 4 TB/s, capacity: 144 GB}\n";
  const FacilityModel base = compileFacility(loadFacilityFromString(podText(), "pod.yaml"));
  const FacilityModel half = compileFacility(loadFacilityFromString(t, "pod.yaml"));
  const GpuParams& g0 = base.gpu_types[base.gpu_type[0]];
  const GpuParams& g1 = half.gpu_types[half.gpu_type[0]];
  CHECK(g1.name == "gb200_blackwell@gb200_half");
  CHECK(g1.hbm_bandwidth == Approx(4e12));
  CHECK(g1.hbm_capacity == Approx(144e9));
  CHECK(g1.P_tdp == g0.P_tdp);
  // the memory-bound work at half the bandwidth takes twice as long; the GEMMs are unchanged
  const DescribedJob& a = base.job_described[0];
  const DescribedJob& b = half.job_described[0];
  CHECK(b.fwd.memory == Approx(2 * a.fwd.memory).epsilon(1e-12));
  // (but for the last stage's loss: Megatron's FP32 cross-entropy streams 38 B per logit of the
  // 8192 tokens x 128256 / 8 logits through HBM, counted with the logits' GEMM)
  const double loss = kKernelCalibration * 38.0 * 8192 * 128256 / 8 / g0.eff_hbm;
  CHECK(b.fwd.gemm - a.fwd.gemm ==
        Approx(loss / g1.hbm_bandwidth - loss / g0.hbm_bandwidth).epsilon(1e-6));
  CHECK(b.step_time > a.step_time);
  // a capacity the job does not fit in: the loader's file:line error for the job
  std::string small = t;
  small = replaced(small, "capacity: 144 GB", "capacity: 10 GB");
  CHECK(compileErrors(small).find("does not fit the GPU memory") != std::string::npos);
  CHECK(compileErrors(replaced(t, "bandwidth: 4 TB/s", "bandwidth: -4 TB/s"))
            .find("gpu_memory.bandwidth") != std::string::npos);
}
