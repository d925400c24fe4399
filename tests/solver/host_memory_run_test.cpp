// host_memory_run_test.cpp: the facility file's host_memory section and workload.offload on the
// default pod: file:line errors through the key table, and a slow tier stretching the job
// (models/host_memory.h, docs/models/job.md "Host memory")
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

std::string podText() {
  std::ifstream f(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string replaced(std::string s, const std::string& a, const std::string& b) {
  const auto p = s.find(a);
  REQUIRE(p != std::string::npos);
  return s.replace(p, a.size(), b);
}

// the pod with `offload` in its workload and `host` appended at the top level
std::string pod(const std::string& offload, const std::string& host = "") {
  std::string t = podText();
  if (!offload.empty())
    t = replaced(t, "      storage_bandwidth: 50 GB/s",
                 "      offload: " + offload + "\n      storage_bandwidth: 50 GB/s");
  return t + host;
}

std::string errorsOf(const std::string& text) {
  try {
    compileFacility(loadFacilityFromString(text, "pod.yaml"));
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

// the line of the first occurrence of `what` in `text` (1-based)
int lineOf(const std::string& text, const std::string& what) {
  const auto p = text.find(what);
  REQUIRE(p != std::string::npos);
  return 1 + int(std::count(text.begin(), text.begin() + long(p), '\n'));
}

JobState runJob(const std::string& text, double duration, FacilityModel& m) {
  m = compileFacility(loadFacilityFromString(text, "pod.yaml"));
  m.options.output_interval = 60;
  State st = makeState(m, m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  return st.gl.job[0];
}

}  // namespace

TEST_CASE("host memory on the pod: what does not fit is a file:line error", "[host_memory][jobs]") {
  // the offloaded optimizer state (2 x 1.46 GB per host) does not fit a 1 GB LPDDR, no CXL
  std::string t = pod("{optimizer: true}", "host_memory:\n  lpddr: {capacity: 1 GB}\n");
  std::string e = errorsOf(t);
  INFO(e);
  CHECK(e.find("pod.yaml:" + std::to_string(lineOf(t, "offload: {optimizer")) + ":") == 0);
  CHECK(e.find("the offloaded optimizer state does not fit the host memory") != std::string::npos);
  // with a CXL module it fits there
  t = pod("{optimizer: true}",
          "host_memory:\n  lpddr: {capacity: 1 GB}\n  cxl: {capacity: 256 GB}\n");
  CHECK(errorsOf(t).empty());
  // a tier that is named but absent
  t = pod("{optimizer: true, tier: cxl}");
  e = errorsOf(t);
  CHECK(e.find("pod.yaml:" + std::to_string(lineOf(t, "offload: {optimizer")) + ":") == 0);
  CHECK(e.find("(tier: cxl)") != std::string::npos);
  // keys through the key table: a wrong unit, an unknown key, an unknown tier
  t = pod("", "host_memory:\n  lpddr: {bandwidth: 315 GB}\n");
  e = errorsOf(t);
  CHECK(e.find("pod.yaml:" + std::to_string(lineOf(t, "bandwidth: 315 GB")) + ":") == 0);
  t = pod("{optimiser: true}");
  e = errorsOf(t);
  CHECK(e.find("optimiser") != std::string::npos);
  CHECK(e.find("optimizer") != std::string::npos);  // did you mean
  t = pod("{optimizer: true, tier: hbm}");
  CHECK(errorsOf(t).find("hbm") != std::string::npos);
  // a model that fits neither HBM nor with offload
  t = replaced(replaced(pod("{optimizer: true, activations: true}"), "parameters: 70e9",
                        "parameters: 3.5e12"),
               "layers: 80", "layers: 4000");  // 4,000 layers of Llama 3 70B's width
  e = errorsOf(t);
  CHECK(e.find("does not fit the GPU memory") != std::string::npos);
  CHECK(e.find("optimizer offloaded") != std::string::npos);
}

TEST_CASE(
    "host memory on the pod: optimizer offload to a CXL tier stretches every iteration by the "
    "tier's transfer time and lands in the map's host_memory part",
    "[host_memory][jobs][solver]") {
  FacilityModel m0, m1;
  const JobState base = runJob(pod(""), 600, m0);
  const JobState cxl = runJob(
      pod("{optimizer: true, tier: cxl}", "host_memory:\n  cxl: {capacity: 256 GB}\n"), 600, m1);
  const DescribedJob& d = m1.job_described[0];
  CHECK(d.host.optimizer_tier == HostTier::Cxl);
  // 28 B per local parameter of the optimizer shard (the most loaded stage's, ~126 M) at
  // 36 GB/s / 2 GPUs: ~196 ms instead of ~0.5 ms from HBM
  const double t_host = 180e-9 + 28 * (d.mem_optimizer / 12) / 18e9;
  CHECK(d.t_optimizer_host == Approx(t_host).epsilon(1e-9));
  double opt_hbm = 0;
  for (const PhaseSpec& p : m0.job_spec[0].phases)
    if (p.name == "optimizer") opt_hbm = p.duration;
  REQUIRE(opt_hbm > 0);
  // the iteration's work grows by exactly the difference; the measured iteration by about it
  // (the GPUs run cooler while they wait on host memory: a few ms of margin)
  auto work = [](const FacilityModel& m) {
    double D = 0;
    for (const PhaseSpec& p : m.job_spec[0].phases) D += p.duration;
    return D;
  };
  CHECK(work(m1) - work(m0) == Approx(t_host - opt_hbm).epsilon(1e-9));
  CHECK(meanIterationTime(cxl) - meanIterationTime(base) == Approx(t_host - opt_hbm).margin(0.03));
  double map[kTimeCats];
  jobTimeMap(cxl, cxl.weight, map);  // (the group sizes the GPU layer set)
  CHECK(map[kTimeHostMemory] >= double(cxl.iterations) * t_host * (1 - 1e-9));
  CHECK(map[kTimeHostMemory] <= double(cxl.iterations + 1) * t_host);
  double sum = 0;
  for (double v : map) sum += v;
  CHECK(sum == Approx(300.0).epsilon(1e-3));
}
