// bottleneck_map_test.cpp: the bottleneck maps of the default pod's job in the bundled scenarios
// (docs/models/job.md, "The default pod's bottleneck maps"): W32, W45, one degraded scale-out
// link, one NVLink switch tray lost, a rack leak followed by a restart from checkpoint. Each map
// adds up to wall time within 0.1 %, and the part each scenario is about grows by the amount
// the model gives. The bundled files run for an hour (the maps in the docs); here they run time-
// compressed: the events earlier, checkpoints every 5 min, a 2 min restart.
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

std::string replaced(std::string s, const std::string& a, const std::string& b) {
  const auto p = s.find(a);
  REQUIRE(p != std::string::npos);
  return s.replace(p, a.size(), b);
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

// the facility and scenario texts as bundled, with the given replacements; runs `duration`
void run(Run& o, const std::string& facility, std::string scenario, double duration,
         const std::string& facility_from = "", const std::string& facility_to = "") {
  std::string ftext = fileText(facility);
  if (!facility_from.empty()) ftext = replaced(ftext, facility_from, facility_to);
  FacilitySpec spec = loadFacilityFromString(ftext, facility);
  applyScenario(loadScenarioFromString(scenario, "scenario.yaml"), spec);
  o.m = compileFacility(spec);
  o.m.options.output_interval = 60;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
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

constexpr double kDuration = 900;  // 15 min: the job runs from 5 min, the faults from 7 min

}  // namespace

TEST_CASE(
    "bottleneck maps of the bundled scenarios: W32, W45, a degraded link, a lost NVLink tray "
    "add up to wall time and grow the part they are about",
    "[bottleneck][jobs][solver]") {
  const std::string pod = "data/facilities/pod_gb200.yaml";
  const std::string base = fileText("data/scenarios/pod_baseline.yaml");
  Run w32, w45, link, tray;
  run(w32, pod, base, kDuration);
  run(w45, "data/facilities/pod_gb200_w45.yaml", base, kDuration);
  run(link, pod,
      replaced(fileText("data/scenarios/pod_degraded_link.yaml"), "time: 10 min", "time: 7 min"),
      kDuration);
  run(tray, pod,
      replaced(fileText("data/scenarios/pod_nvlink_tray_lost.yaml"), "time: 10 min", "time: 7 min"),
      kDuration);
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
  const long n_after = jl.iterations - long(std::floor(120.0 / jl.last_iteration_time)) - 1;
  CHECK(jl.time(k0)[kTimeFabricDegraded] >= double(n_after) * x_link);
  CHECK(jl.time(k0)[kTimeFabricDegraded] <= double(jl.iterations) * x_link * (1 + 1e-9));
  CHECK(link.wait[kTimeFabricDegraded - kLossFirst] > 0.5 * double(n_after) * x_link);
  CHECK(link.part(kTimeFabricDegraded) > 0);
  CHECK(link.part(kTimeBarrierWait) > w32.part(kTimeBarrierWait));
  double caused = 0;
  const int top = jobTopStraggler(jl, &caused);
  REQUIRE(top >= 0);
  CHECK(m.group_gpuadr[m.job_groups[0][std::size_t(top)]] == m.rack_gpuadr[0]);  // A01 GPU 0
  CHECK(caused > 0.5 * double(n_after) * x_link);

  // a lost NVLink tray (A02, 8 of 9 left): A02's TP collectives stretch by beta_tp / 8 per
  // iteration, and the other racks' wait for it is booked to fabric_degraded
  const double x_tray = phase(tray.m, "tp_comm").comm_beta * (9.0 / 8.0 - 1);
  const JobState& jt = tray.st.gl.job[0];
  const std::size_t k2 = entryOf(tray.m, tray.m.rack_gpuadr[1]);
  const long t_after = jt.iterations - long(std::floor(120.0 / jt.last_iteration_time)) - 1;
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
  // time-compressed: checkpoints every 5 min (the first ends ~10.3 min), the leak at 12 min,
  // a 2 min restart
  std::string sc = fileText("data/scenarios/pod_rack_leak_restart.yaml");
  sc = replaced(sc, "time: 50 min", "time: 12 min");
  Run leak, base;
  const std::string pod = "data/facilities/pod_gb200.yaml";
  const std::string from =
      "    checkpoint_interval: 30 min\n    on_failure: restart          "
      "# from the last checkpoint after restart_time (checkpoint.md)\n"
      "    restart_time: 10 min";
  const std::string to =
      "    checkpoint_interval: 5 min\n    on_failure: restart\n"
      "    restart_time: 2 min";
  run(leak, pod, sc, 1200, from, to);
  run(base, pod, fileText("data/scenarios/pod_baseline.yaml"), 1200, from, to);
  const JobState& j = leak.st.gl.job[0];
  CHECK(leak.m.job_spec[0].hot_spares == 72);  // from the scenario
  CHECK(j.failures == 1);
  CHECK(leak.sum() == Approx(leak.wall).epsilon(1e-3));
  CHECK(base.sum() == Approx(base.wall).epsilon(1e-3));
  CHECK(leak.part(kTimeRestart) == Approx(120.0).epsilon(1e-6));
  // the work since the checkpoint is lost: between the leak's detection and isolation (~12 min
  // plus seconds) and the checkpoint (~10.3 min); under one checkpoint interval in any case
  CHECK(leak.part(kTimeLostWork) > 60.0);
  CHECK(leak.part(kTimeLostWork) < 300.0 + 20.0);
  CHECK(base.part(kTimeLostWork) == 0.0);
  CHECK(base.part(kTimeRestart) == 0.0);
  // goodput falls by about (restart + lost work) / wall
  const double g_leak = jobGoodput(leak.m.job_spec[0], j, 1200),
               g_base = jobGoodput(base.m.job_spec[0], base.st.gl.job[0], 1200);
  const double expected = (leak.part(kTimeRestart) + leak.part(kTimeLostWork)) / leak.wall;
  CHECK(g_base - g_leak == Approx(expected).margin(0.03));
}
