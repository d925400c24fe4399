// bottleneck_map_test.cpp: the bottleneck maps of the default pod's job in the bundled scenarios
// (docs/models/job.md, "The default pod's bottleneck maps"): W32, W45, one degraded scale-out
// link, one NVLink switch tray lost, a rack leak followed by a restart from checkpoint. Each map
// adds up to wall time within 0.1 %, and the part each scenario is about grows by the amount
// the model gives. The bundled files run as they are (1 h; the leak 90 min): the maps in
// docs/models/job.md are these runs' (`dctwin run FACILITY -s SCENARIO`).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

std::string fileText(const std::string& rel) {
  std::ifstream f(std::string(DCTWIN_SOURCE_DIR) + "/" + rel);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Run {
  FacilityModel m;
  State st;
  RunResult res;
  double map[kTimeCats] = {};
  double wait[kWaitCats] = {};
  double wall = 0;
  double part(int c) const { return map[c]; }
  double sum() const {
    double s = 0;
    for (double v : map) s += v;
    return s;
  }
};

// a bundled facility with a bundled scenario, for the scenario's duration
void run(Run& o, const std::string& facility, const std::string& scenario) {
  FacilitySpec spec = loadFacilityFromString(fileText(facility), facility);
  const Scenario sc = loadScenarioFromString(fileText(scenario), scenario);
  applyScenario(sc, spec);
  o.m = compileFacility(spec);
  o.m.options.output_interval = sc.output_interval;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
  const double duration = sc.duration;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, nullptr);
  REQUIRE(o.res.ok);
  jobTimeMap(o.st.gl.job[0], o.st.gl.job_weight[0], o.map);
  jobWaitMap(o.st.gl.job[0], o.st.gl.job_weight[0], o.wait);
  o.wall = duration - o.m.job_spec[0].start;
}

const PhaseSpec& phase(const FacilityModel& m, const std::string& name) {
  for (const PhaseSpec& p : m.job_spec[0].phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return m.job_spec[0].phases[0];
}

// the entry of the job's GPU group holding facility GPU i
std::size_t entryOf(const FacilityModel& m, int i) {
  std::size_t k = 0;
  while (m.job_groups[0][k] != m.gpu_group[i]) ++k;
  return k;
}

// iterations after a fault at `t_fault` (the job from 5 min), those before it at the healthy
// run's pace (rounded up, and one more for the iteration the fault hits)
long iterationsAfter(const JobState& j, const JobState& healthy, double t_fault) {
  return j.iterations - long(std::ceil((t_fault - 300.0) / meanIterationTime(healthy))) - 1;
}

}  // namespace

TEST_CASE(
    "bottleneck maps of the bundled scenarios: W32, W45, a degraded link, a lost NVLink tray "
    "add up to wall time and grow the part they are about",
    "[bottleneck][jobs][solver]") {
  const std::string pod = "data/facilities/pod_gb200.yaml";
  const std::string base = "data/scenarios/pod_baseline.yaml";
  Run w32, w45, link, tray;
  run(w32, pod, base);
  run(w45, "data/facilities/pod_gb200_w45.yaml", base);
  run(link, pod, "data/scenarios/pod_degraded_link.yaml");
  run(tray, pod, "data/scenarios/pod_nvlink_tray_lost.yaml");
  for (const Run* r : {&w32, &w45, &link, &tray}) {
    CHECK(r->sum() == Approx(r->wall).epsilon(1e-3));
    // the attribution splits the barrier wait (up to a barrier pending at the end)
    double ws = 0;
    for (double v : r->wait) ws += v;
    CHECK(ws <= r->part(kTimeBarrierWait) * (1 + 1e-9));
    CHECK(ws >= r->part(kTimeBarrierWait) - 4.0);  // < one iteration pending
  }
  // W45: hotter silicon leaks more under the same power cap: the cap costs more
  CHECK(w45.part(kTimePowerCap) > 1.2 * w32.part(kTimePowerCap));
  CHECK(w45.st.gl.job[0].iterations < w32.st.gl.job[0].iterations);

  // a degraded NIC (A01 GPU 0 at 50 %): its collectives stretch by (beta_dp + beta_pp)(1/f - 1)
  // per iteration, exactly, and the others' wait for it is booked to fabric_degraded
  const FacilityModel& m = link.m;
  const double x_link =
      (phase(m, "dp_allreduce").comm_beta + phase(m, "pp_p2p").comm_beta) * (1 / 0.5 - 1);
  const JobState& jl = link.st.gl.job[0];
  const std::size_t k0 = entryOf(m, m.rack_gpuadr[0]);
  const long n_after = iterationsAfter(jl, w32.st.gl.job[0], 600);
  CHECK(jl.time(k0)[kTimeFabricDegraded] >= double(n_after) * x_link);
  CHECK(jl.time(k0)[kTimeFabricDegraded] <= double(jl.iterations) * x_link * (1 + 1e-9));
  CHECK(link.wait[kTimeFabricDegraded - kLossFirst] > 0.5 * double(n_after) * x_link);
  CHECK(link.part(kTimeFabricDegraded) > 0);
  CHECK(link.part(kTimeBarrierWait) > w32.part(kTimeBarrierWait));
  // the component: A01 GPU 0 is the straggler of the iteration end (its DP collectives stretch
  // by beta_dp (1/f - 1)): the waiting it causes grows by about the stretch over the healthy
  // run's. (Whether it also outdoes the GPU most held down by the power cap depends on how much
  // DP time is exposed: the DP ring spread over the 9 NICs of each NVL72 domain [F96] leaves
  // little, so it need not be the top straggler.)
  CHECK(jl.caused[k0] / 576.0 > 0.5 * double(n_after) * x_link);
  CHECK(jl.caused[k0] / 576.0 == Approx(link.wait[kTimeFabricDegraded - kLossFirst]).epsilon(0.15));
  CHECK(jl.caused[k0] > w32.st.gl.job[0].caused[k0] + 0.5 * 576.0 * double(n_after) * x_link);

  // a lost NVLink tray (A02, 8 of 9 left): A02's TP collectives stretch by beta_tp / 8 per
  // iteration, and the other racks' wait for it is booked to fabric_degraded
  const double x_tray = phase(tray.m, "tp_comm").comm_beta * (9.0 / 8.0 - 1);
  const JobState& jt = tray.st.gl.job[0];
  const std::size_t k2 = entryOf(tray.m, tray.m.rack_gpuadr[1]);
  const long t_after = iterationsAfter(jt, w32.st.gl.job[0], 600);
  CHECK(jt.time(k2)[kTimeFabricDegraded] >= double(t_after) * x_tray);
  CHECK(jt.time(k2)[kTimeFabricDegraded] <= double(jt.iterations) * x_tray * (1 + 1e-9));
  // (whether an A02 GPU is the slowest of all depends on the GPU-to-GPU variation: its slack
  // can hide part of beta_tp / 8, so only the direction is checked)
  CHECK(tray.wait[kTimeFabricDegraded - kLossFirst] > 0);
  CHECK(tray.part(kTimeFabricDegraded) > 0);
}

TEST_CASE(
    "bottleneck map of the bundled rack leak with restart: the job loses exactly the work "
    "since its checkpoint and the restart time, on hot spares",
    "[bottleneck][jobs][solver][checkpoint]") {
  const std::string pod = "data/facilities/pod_gb200.yaml";
  Run leak, base;
  run(leak, pod, "data/scenarios/pod_rack_leak_restart.yaml");  // 90 min, leak at 50 min
  run(base, pod, "data/scenarios/pod_baseline.yaml");           // 1 h, no fault
  const JobState& j = leak.st.gl.job[0];
  CHECK(leak.m.job_spec[0].hot_spares == 72);  // from the scenario
  CHECK(j.failures == 1);
  CHECK(leak.sum() == Approx(leak.wall).epsilon(1e-3));
  CHECK(leak.part(kTimeRestart) == Approx(600.0).epsilon(1e-6));
  // the failure (the rack powered off at the leak's detection) and the last checkpoint before it
  double t_fail = -1;
  for (const auto& e : leak.res.events)
    if (e.kind == "job_failed" && t_fail < 0) t_fail = e.time;
  REQUIRE(t_fail > 3000.0);
  REQUIRE(t_fail < 3100.0);
  // every GPU loses exactly the time since the end of the checkpoint (~35 min): the same in
  // the fault-free run, whose first checkpoint ends at the same time
  const double t_ck = base.st.gl.job[0].t_last_checkpoint_end;
  REQUIRE(t_ck > 2100.0);
  REQUIRE(t_ck < t_fail);
  CHECK(leak.part(kTimeLostWork) == Approx(t_fail - t_ck).margin(5.0));
  CHECK(base.part(kTimeLostWork) == 0.0);
  CHECK(base.part(kTimeRestart) == 0.0);
  // goodput: the restart and the lost work are gone from the useful time
  const double g_leak = jobGoodput(leak.m.job_spec[0], j, 5400);
  const double g_base = jobGoodput(base.m.job_spec[0], base.st.gl.job[0], 3600);
  const double expected = (leak.part(kTimeRestart) + leak.part(kTimeLostWork)) / leak.wall;
  CHECK(g_base - g_leak == Approx(expected).margin(0.03));
}
