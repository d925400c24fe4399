// the multi-rate annual mode against full resolution (docs/models/annual.md)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include "models/weather.h"
#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kFacilities = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/";

RunReport runPod(const std::string& file, double duration, bool annual) {
  const FacilitySpec spec = loadFacility(kFacilities + file);
  Scenario sc;
  sc.duration = duration;
  sc.output_interval = 3600;
  RunSettings rs;
  rs.annual = annual;
  return runFacility(spec, sc, rs, {});
}

double rel(double a, double b) {
  return std::abs(a - b) / std::abs(b);
}

}  // namespace

TEST_CASE("annual mode: scenario keys and their errors", "[annual][scenario]") {
  const Scenario sc = loadScenarioFromString(
      "duration: 2 d\noutput_interval: 1 h\nmode: annual\n"
      "annual: {window: 5 min, period: 12 h, slow_step: 10 min, supply_change: 0.3 K, "
      "wet_bulb_change: 2 K}\n",
      "a.yaml");
  CHECK(sc.annual.enabled);
  CHECK(sc.annual.window == Approx(300));
  CHECK(sc.annual.period == Approx(43200));
  CHECK(sc.annual.slow_step == Approx(600));
  CHECK(sc.annual.dT_supply == Approx(0.3));
  CHECK(sc.annual.dT_wet_bulb == Approx(2));
  CHECK_FALSE(loadScenarioFromString("duration: 1 h\n", "b.yaml").annual.enabled);
  auto err = [](const std::string& text) {
    try {
      loadScenarioFromString(text, "c.yaml");
    } catch (const LoadFailure& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err("mode: yearly\n"), Catch::Contains("c.yaml:1") && Catch::Contains("mode"));
  CHECK_THAT(err("annual: {window: 2 h, period: 1 h}\n"),
             Catch::Contains("c.yaml:1") && Catch::Contains("annual.period"));
  CHECK_THAT(err("annual: {window: 5 s}\n"), Catch::Contains("window"));
}

// one summer day of the pod with its plant at W45 (synthetic Phoenix, 15 July): full resolution
// and the annual mode; the bounds: energy 1 %, peak temperatures 0.5 K, throttled
// GPU-hours 5 %
TEST_CASE("annual mode against full resolution: a summer day of the pod at W45",
          "[annual][plant]") {
  const double day = 86400;
  const RunReport full = runPod("pod_gb200_plant_w45.yaml", day, false);
  const RunReport ann = runPod("pod_gb200_plant_w45.yaml", day, true);
  REQUIRE(full.result.ok);
  REQUIRE(ann.result.ok);
  const RunSummary& F = full.summary;
  const RunSummary& A = ann.summary;
  std::printf(
      "annual vs full (1 day, pod W45): E_facility %.6g / %.6g MJ, E_IT %.6g / %.6g MJ, plant "
      "%.6g / %.6g MJ, PUE %.5f / %.5f, T_j max %.3f / %.3f degC, T_return max %.3f / %.3f degC, "
      "supply max %.3f / %.3f degC, throttled %.1f / %.1f GPU-s, throughput %.5f / %.5f, "
      "windows %ld (%.2f h), wall %.1f / %.1f s\n",
      A.plant.E_facility / 1e6, F.plant.E_facility / 1e6, A.plant.E_it / 1e6, F.plant.E_it / 1e6,
      (A.plant.E_pumps + A.plant.E_fans + A.plant.E_chillers + A.plant.E_cond_fans) / 1e6,
      (F.plant.E_pumps + F.plant.E_fans + F.plant.E_chillers + F.plant.E_cond_fans) / 1e6,
      A.plant.pue, F.plant.pue, A.T_j_max - 273.15, F.T_j_max - 273.15, A.T_return_max - 273.15,
      F.T_return_max - 273.15, A.plant.T_supply_max - 273.15, F.plant.T_supply_max - 273.15,
      A.gpu_seconds_throttled, F.gpu_seconds_throttled, A.jobs[0].throughput_ratio,
      F.jobs[0].throughput_ratio, ann.result.stats.annual_windows,
      ann.result.stats.annual_window_time / 3600, ann.result.wall_seconds,
      full.result.wall_seconds);
  // it ran as the annual mode: a few windows, most of the day in slow segments
  CHECK(ann.result.stats.annual_windows >= 4);
  CHECK(ann.result.stats.annual_window_time < 0.1 * day);
  CHECK(ann.result.stats.annual_slow_time > 0.85 * day);
  CHECK(full.result.stats.annual_windows == 0);
  // energies (means of energy): facility, IT, the plant, the GPUs
  CHECK(rel(A.plant.E_facility, F.plant.E_facility) < 0.01);
  CHECK(rel(A.plant.E_it, F.plant.E_it) < 0.01);
  CHECK(rel(A.energy.gpu_electric, F.energy.gpu_electric) < 0.01);
  CHECK(std::abs(A.plant.pue - F.plant.pue) < 0.01 * (F.plant.pue - 1));
  // peak temperatures
  CHECK(std::abs(A.T_j_max - F.T_j_max) < 0.5);
  CHECK(std::abs(A.T_hbm_max - F.T_hbm_max) < 0.5);
  CHECK(std::abs(A.T_return_max - F.T_return_max) < 0.5);
  CHECK(std::abs(A.plant.T_supply_max - F.plant.T_supply_max) < 0.5);
  // throttled GPU-hours and throughput
  if (F.gpu_seconds_throttled > 100)
    CHECK(rel(A.gpu_seconds_throttled, F.gpu_seconds_throttled) < 0.05);
  else
    CHECK(std::abs(A.gpu_seconds_throttled - F.gpu_seconds_throttled) < 5);
  // training throughput lost within 5 % of itself (the window sees a share of the checkpoint
  // cycle: docs/models/annual.md)
  CHECK(rel(1 - A.jobs[0].throughput_ratio, 1 - F.jobs[0].throughput_ratio) < 0.05);
  // the bottleneck map covers the whole day in the annual mode too: the slow segments move the
  // job-level map on, so both maps add up to the job's time since its start
  double map_A = 0, map_F = 0;
  for (const auto& [part, v] : A.jobs[0].time_map) map_A += v;
  for (const auto& [part, v] : F.jobs[0].time_map) map_F += v;
  CHECK(map_F > 0.9 * day);
  CHECK(map_A == Approx(map_F).epsilon(1e-3));
  // the checkpoints take their share of the job's cycle in the slow segments, not the share the
  // last window happened to see (one 19.6 s write in a 15 min window: twice the cycle's share)
  const auto part = [](const RunSummary& S, const std::string& name) {
    for (const auto& [p, v] : S.jobs[0].time_map)
      if (p == name) return v;
    return -1.0;
  };
  const double ck_A = part(A, "checkpoint"), ck_F = part(F, "checkpoint");
  std::printf("checkpoint time: annual %.1f s, full %.1f s per GPU\n", ck_A, ck_F);
  CHECK(rel(ck_A, ck_F) < 0.05);
  // energy closes in the annual mode too
  CHECK(std::abs(ann.result.energy.balanceError()) < 1e-4 * ann.result.energy.heat_in);
  // the monthly table: one month (15-16 July), 24 h
  REQUIRE(A.months.size() == 1);
  CHECK(A.months[0].month == 7);
  CHECK((A.months[0].t_end - A.months[0].t_start) / 3600 == Approx(24));
  CHECK(A.months[0].gpu_seconds_throttled == Approx(A.gpu_seconds_throttled).margin(1e-6));
}

TEST_CASE("annual mode: the monthly table across a month's end", "[annual][summary]") {
  // pod W32 from 30 June 12:00 for 2 days: June 12 h, July 36 h
  FacilitySpec spec = loadFacility(kFacilities + "pod_gb200_plant_w32.yaml");
  spec.plant.start = secondsOfYear(6, 30, 12);
  Scenario sc;
  sc.duration = 2 * 86400.0;
  sc.output_interval = 3600;
  RunSettings rs;
  rs.annual = true;
  const RunReport r = runFacility(spec, sc, rs, {});
  REQUIRE(r.result.ok);
  REQUIRE(r.summary.months.size() == 2);
  CHECK(r.summary.months[0].month == 6);
  CHECK((r.summary.months[0].t_end - r.summary.months[0].t_start) / 3600 == Approx(12));
  CHECK(r.summary.months[1].month == 7);
  CHECK((r.summary.months[1].t_end - r.summary.months[1].t_start) / 3600 == Approx(36));
  const double E = r.summary.months[0].E_facility + r.summary.months[1].E_facility;
  CHECK(E == Approx(r.summary.plant.E_facility).epsilon(1e-9));
  CHECK_THAT(r.text(), Catch::Contains("annual mode") && Catch::Contains("month  6"));
}

// the iterations at the last checkpoint are a level that follows the iterations, not a rate: a
// checkpoint inside a window once made the slow segments add every iteration since the last one,
// window after window, until the counter overflowed (UBSan, report.annual, 365 d). Over 8 weeks
// of weekly windows, the work a failure would lose stays within one checkpoint interval
TEST_CASE("annual mode: the iterations at the last checkpoint follow the iterations",
          "[annual][checkpoint]") {
  FacilitySpec spec = loadFacility(kFacilities + "pod_gb200_plant_w32.yaml");
  const Scenario sc = loadScenarioFromString(
      "duration: 56 d\noutput_interval: 1 h\nmode: annual\n"
      "annual: {window: 5 min, settle: 30 min, period: 7 d, slow_step: 15 min, "
      "supply_change: 0.5 K, wet_bulb_change: 100 K}\n",
      "weekly.yaml");
  applyScenario(sc, spec);
  FacilityModel m = compileFacility(spec);
  m.options.output_interval = sc.output_interval;
  m.options.annual = sc.annual;
  State st = makeState(m, m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = sc.duration;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  CHECK(st.annual.windows >= 8);
  const JobState& j = st.gl.job[0];
  REQUIRE(j.iterations > 0);
  REQUIRE(j.checkpoints > 0);
  const double per_interval = m.job_spec[0].checkpoint_interval / meanIterationTime(j);
  INFO("iterations " << j.iterations << ", at the last checkpoint " << j.iterations_at_checkpoint
                     << ", per checkpoint interval " << per_interval);
  CHECK(j.iterations_at_checkpoint <= j.iterations);
  CHECK(double(j.iterations - j.iterations_at_checkpoint) <= per_interval + 1);
}
