// variation_test.cpp: GPU-to-GPU variation (docs/models/gpu_variation.md): seeded, reproducible,
// identity-keyed draws; bad input; which GPUs throttle first; the slowest GPU sets the pace
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/gpu_variation.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/sweep_file.h"
#include "solver/run/sweep.h"

using namespace dctwin;

namespace {

// GB200 NVL72 racks on one XDU1350 with a training job on all of them; `variation` is the
// section's body ("" = the default: on, seed 1)
std::string facility(const std::vector<std::string>& racks, const std::string& variation = "",
                     const std::string& fws = "32 degC", const std::string& tcs = "36 degC",
                     const std::string& flow = "275 L/min") {
  std::string s = R"(dctwin: 1
name: var
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: )" +
                  fws + R"(, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    fluid: pg25
    control: {supply_temperature: )" +
                  tcs + ", flow_setpoint: " + flow + R"(}
    piping:
      supply: {length: 10 m, diameter: 80 mm, segments: 5}
      return: {length: 10 m, diameter: 80 mm, segments: 5}
jobs:
  - {name: train, start: 0 s, racks: [)";
  for (std::size_t k = 0; k < racks.size(); ++k) {
    if (k) s += ", ";
    s += racks[k];
  }
  s += "]}\nracks:\n";
  for (std::size_t k = 0; k < racks.size(); ++k) {
    s += "  - {name: ";
    s += racks[k];
    s += ", cdu: cdu1, type: gb200_nvl72, row: A, index: ";
    s += std::to_string(k + 1);
    s += "}\n";
  }
  if (!variation.empty()) {
    s += "variation: ";
    s += variation;
    s += "\n";
  }
  return s;
}

FacilityModel compileText(const std::string& text) {
  FacilitySpec spec = loadFacilityFromString(text, "var.yaml");
  // the warm cases run a 50 degC supply, above the racks' 45 degC supply_temperature_max: a
  // site's protection would cap the racks (protection_test.cpp); here the GPUs' own throttling
  // is what is measured
  spec.detection.protection.enabled = false;
  return compileFacility(spec);
}

// the factors of the GPU in slot k of rack `name`
GpuFactors factorsOf(const FacilityModel& m, const std::string& name, int k) {
  for (int r = 0; r < m.nrack; ++r)
    if (m.rack_name[r] == name) {
      const int i = m.rack_gpuadr[r] + k;
      GpuFactors f;
      f.leak = m.gpu_leak_factor[i];
      f.idle = m.gpu_idle_factor[i];
      f.dyn = m.gpu_dyn_factor[i];
      f.Rjc = m.gpu_Rjc_factor[i];
      f.Rhbm = m.gpu_Rhbm_factor[i];
      return f;
    }
  FAIL("no rack " << name);
  return {};
}

bool same(const GpuFactors& a, const GpuFactors& b) {
  return a.leak == b.leak && a.idle == b.idle && a.dyn == b.dyn && a.Rjc == b.Rjc &&
         a.Rhbm == b.Rhbm;
}

std::string loadError(const std::string& text) {
  try {
    loadFacilityFromString(text, "bad.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

RunResult runFor(const FacilityModel& m, State& st, double duration, OutputSink* sink = nullptr) {
  RunOptions ro;
  ro.duration = duration;
  return simulate(m, st, ro, sink);
}

// every GPU of the model made the same as GPU `like` (its factors and its group's parameters)
void makeAllLike(FacilityModel& m, int like) {
  for (int i = 0; i < m.ngpu; ++i) {
    m.gpu_leak_factor[i] = m.gpu_leak_factor[like];
    m.gpu_idle_factor[i] = m.gpu_idle_factor[like];
    m.gpu_dyn_factor[i] = m.gpu_dyn_factor[like];
    m.gpu_Rjc_factor[i] = m.gpu_Rjc_factor[like];
    m.gpu_Rhbm_factor[i] = m.gpu_Rhbm_factor[like];
  }
  const GpuParams p = m.group_params[m.gpu_group[like]];
  for (auto& g : m.group_params) g = p;
}

// when each GPU first throttles thermally (SW or HW thermal; -1: never)
struct FirstThrottle : OutputSink {
  std::vector<double> t_first;
  double t_min = -1;
  std::vector<double> T_in, R_path;  // the GPUs' coolant side when the first one throttled
  void sample(const FacilityModel&, const State&, const double*, double,
              const EnergyTotals&) override {}
  void fast(const FacilityModel& m, const State& st, double t) override {
    if (t_first.empty()) t_first.assign(std::size_t(m.ngpu), -1.0);
    for (int i = 0; i < m.ngpu; ++i) {
      if (t_first[std::size_t(i)] >= 0) continue;
      if (!(st.gl.grp.reasons[m.gpu_group[i]] & (kThrottleSwThermal | kThrottleHwThermal)))
        continue;
      if (t_min < 0) t_min = t, T_in = st.gl.gpu_T_in, R_path = st.gl.gpu_R_path;
      t_first[std::size_t(i)] = t;
    }
  }
  // the GPUs that throttled at the earliest time
  std::vector<int> first() const {
    std::vector<int> v;
    for (std::size_t i = 0; i < t_first.size(); ++i)
      if (t_min >= 0 && t_first[i] == t_min) v.push_back(int(i));
    return v;
  }
  int count() const {
    return int(std::count_if(t_first.begin(), t_first.end(), [](double x) { return x >= 0; }));
  }
};

}  // namespace

TEST_CASE("variation: same seed, same GPUs, a GPU's draw depends only on seed and identity",
          "[variation]") {
  const FacilityModel a = compileText(facility({"A01", "A02"}));
  const FacilityModel b = compileText(facility({"A01", "A02"}));
  REQUIRE(a.ngpu == 144);
  REQUIRE(a.gpu_leak_factor == b.gpu_leak_factor);
  REQUIRE(a.gpu_dyn_factor == b.gpu_dyn_factor);
  REQUIRE(a.gpu_Rjc_factor == b.gpu_Rjc_factor);
  // the GPUs differ (variation is on by default) and each is its own group
  const auto [lo, hi] = std::minmax_element(a.gpu_Rjc_factor.begin(), a.gpu_Rjc_factor.end());
  CHECK(*hi / *lo > 1.2);
  CHECK(a.ngroup == a.ngpu);
  // adding a rack (in front of the others) reshuffles nobody: A01 and A02 keep their GPUs, as a
  // rank holding only A02 draws them
  const FacilityModel c = compileText(facility({"B07", "A01", "A02"}));
  const FacilityModel shard = compileText(facility({"A02"}));
  for (int k = 0; k < 72; ++k) {
    CHECK(same(factorsOf(c, "A01", k), factorsOf(a, "A01", k)));
    CHECK(same(factorsOf(c, "A02", k), factorsOf(a, "A02", k)));
    CHECK(same(factorsOf(shard, "A02", k), factorsOf(a, "A02", k)));
  }
  // another seed, other GPUs; two racks of one seed differ from each other
  const FacilityModel d = compileText(facility({"A01", "A02"}, "{seed: 2}"));
  int differ = 0, racks_differ = 0;
  for (int k = 0; k < 72; ++k) {
    differ += same(factorsOf(d, "A01", k), factorsOf(a, "A01", k)) ? 0 : 1;
    racks_differ += same(factorsOf(a, "A01", k), factorsOf(a, "A02", k)) ? 0 : 1;
  }
  CHECK(differ == 72);
  CHECK(racks_differ == 72);
}

TEST_CASE("variation: none makes the GPUs identical and groups them again", "[variation]") {
  const FacilityModel m = compileText(facility({"A01", "A02"}, "none"));
  for (int i = 0; i < m.ngpu; ++i) {
    REQUIRE(m.gpu_leak_factor[i] == 1.0);
    REQUIRE(m.gpu_dyn_factor[i] == 1.0);
    REQUIRE(m.gpu_Rjc_factor[i] == 1.0);
  }
  // one group per tray: the trays of a rack differ by their place on its manifold
  // (docs/models/flow_distribution.md), 18 trays of 4 GPUs per NVL72 rack
  CHECK(m.ngroup == 2 * m.rack_gpunum[0] / m.rack_tray_gpus[0]);
  // spreads of 0 do the same; a single spread leaves the other factors at 1
  const FacilityModel z = compileText(facility(
      {"A01"},
      "{leakage: 0, leakage_tray: 0, idle: 0, vf: 0, tim: 0, hbm: 0, bad_mount_fraction: 0}"));
  CHECK(z.ngroup == z.rack_gpunum[0] / z.rack_tray_gpus[0]);
  const FacilityModel t = compileText(facility(
      {"A01"}, "{leakage: 0, leakage_tray: 0, idle: 0, vf: 0, hbm: 0, bad_mount_fraction: 0}"));
  CHECK(t.ngroup == 72);
  for (int i = 0; i < t.ngpu; ++i) CHECK(t.gpu_leak_factor[i] == 1.0);
}

TEST_CASE("variation: the draws have the documented distributions and limits", "[variation]") {
  GpuSpread s;  // the defaults, with the bad-mount what-if turned on at its documented value
  REQUIRE(s.bad_mount_fraction == 0.0);  // a what-if without public data: off by default
  s.bad_mount_fraction = 0.001;
  const int n = 20000;
  double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0};
  int bad = 0;
  double max_dev = 0;
  for (int k = 0; k < n; ++k) {
    // one GPU per tray so that the tray lot term averages out too
    std::string rack = "R";
    rack += std::to_string(k / 18);
    const GpuFactors f = drawGpuFactors(s, 7, rack, k % 18, 0);
    const double x[3] = {std::log(f.leak), std::log(f.dyn),
                         std::log(f.bad_mount ? f.Rjc / s.bad_mount_factor : f.Rjc)};
    for (int q = 0; q < 3; ++q) sum[q] += x[q], sum2[q] += x[q] * x[q];
    bad += f.bad_mount ? 1 : 0;
    max_dev = std::max(max_dev, std::fabs(x[1]) / s.vf);
  }
  auto sd = [&](int q) { return std::sqrt(sum2[q] / n - (sum[q] / n) * (sum[q] / n)); };
  // a normal truncated at 3 sigma has sigma 0.9866 of the untruncated one
  const double trunc = 0.9866;
  CHECK(sd(0) == Approx(trunc * std::hypot(s.leakage, s.leakage_tray)).epsilon(0.03));
  CHECK(sd(1) == Approx(trunc * s.vf).epsilon(0.03));
  CHECK(sd(2) == Approx(trunc * s.tim).epsilon(0.03));
  for (int q = 0; q < 3; ++q) CHECK(std::fabs(sum[q] / n) < 0.004);  // medians 1
  CHECK(max_dev <= 3.0);                                             // truncated at 3 sigma
  CHECK(bad > 5);
  CHECK(bad < 45);  // 0.1 % of 20000 = 20
  // off (the default): no GPU of the 20,000 is a bad mount
  int bad_off = 0;
  for (int k = 0; k < n; ++k) {
    std::string rack = "R";
    rack += std::to_string(k / 18);
    bad_off += drawGpuFactors(GpuSpread{}, 7, rack, k % 18, 0).bad_mount;
  }
  CHECK(bad_off == 0);
  // TIM ageing multiplies R_jc only
  const GpuFactors f0 = drawGpuFactors(s, 7, "A01", 3, 2);
  const GpuFactors f1 = drawGpuFactors(s, 7, "A01", 3, 2, 1.1);
  CHECK(f1.Rjc == Approx(1.1 * f0.Rjc));
  CHECK(f1.leak == f0.leak);
  const FacilityModel young = compileText(facility({"A01"}));
  const FacilityModel old = compileText(facility({"A01"}, "{tim_ageing: 0.02, age: 5}"));
  for (int i = 0; i < young.ngpu; ++i) {
    CHECK(old.gpu_Rjc_factor[i] == Approx(1.1 * young.gpu_Rjc_factor[i]));
    CHECK(old.gpu_dyn_factor[i] == young.gpu_dyn_factor[i]);
  }
}

TEST_CASE("variation: the bad-mount what-if is off by default and a sweep path turns it on",
          "[variation][whatif]") {
  // off: 10 racks (720 GPUs) of the default spreads have no bad mount
  std::vector<std::string> racks;
  for (int k = 1; k <= 10; ++k) {
    std::string r = "A";
    r += std::to_string(10 + k);
    racks.push_back(r);
  }
  const std::string text = facility(racks, "{seed: 1}");
  const FacilityModel off = compileText(text);
  CHECK(std::count(off.gpu_bad_mount.begin(), off.gpu_bad_mount.end(), 1) == 0);
  // on through the path a sweep writes: about 1 % of them, each at 2.5x its R_jc draw
  const FacilityModel on = compileText(setYamlPath(text, "variation.bad_mount_fraction", "0.01"));
  const auto n_on = std::count(on.gpu_bad_mount.begin(), on.gpu_bad_mount.end(), 1);
  CHECK(n_on >= 2);
  CHECK(n_on <= 20);
  for (int i = 0; i < on.ngpu; ++i) {
    CHECK(on.gpu_leak_factor[i] == off.gpu_leak_factor[i]);  // nothing else moves
    CHECK(on.gpu_Rjc_factor[i] ==
          Approx(off.gpu_Rjc_factor[i] * (on.gpu_bad_mount[i] ? 2.5 : 1.0)).epsilon(1e-12));
  }
  // the bundled what-if sweep on the hall: its path resolves in every case
  const SweepSpec sw =
      loadSweep(std::string(DCTWIN_SOURCE_DIR) + "/data/sweeps/hall_bad_mount_whatif.yaml");
  REQUIRE(expandCases(sw).size() == 2);
  CHECK_NOTHROW(validateSweep(sw));
}

TEST_CASE("variation: bad input is a file:line error naming the key and the value",
          "[variation][loader]") {
  const std::string e1 = loadError(facility({"A01"}, "{seed: 1.5}"));
  CHECK_THAT(e1, Catch::Contains("bad.yaml:") && Catch::Contains("variation.seed") &&
                     Catch::Contains("1.5"));
  const std::string e2 = loadError(facility({"A01"}, "{leakage: -0.1}"));
  CHECK_THAT(e2, Catch::Contains("variation.leakage") && Catch::Contains("-0.1") &&
                     Catch::Contains("between 0 and 0.5"));
  const std::string e3 = loadError(facility({"A01"}, "{tim: 3}"));
  CHECK_THAT(e3, Catch::Contains("variation.tim") && Catch::Contains("between 0 and 0.5"));
  const std::string e4 = loadError(facility({"A01"}, "sometimes"));
  CHECK_THAT(
      e4, Catch::Contains("variation") && Catch::Contains("sometimes") && Catch::Contains("none"));
  const std::string e5 = loadError(facility({"A01"}, "{seeds: 3}"));
  CHECK_THAT(e5, Catch::Contains("seeds") && Catch::Contains("seed"));
  const std::string e6 = loadError(facility({"A01"}, "{bad_mount_factor: 0.5}"));
  CHECK_THAT(e6,
             Catch::Contains("variation.bad_mount_factor") && Catch::Contains("between 1 and 10"));
  const std::string e7 = loadError(facility({"A01"}, "{seed: -4}"));
  CHECK_THAT(e7, Catch::Contains("variation.seed"));
}

TEST_CASE("variation: the results do not depend on the thread count", "[variation][threads]") {
  std::vector<std::string> racks;
  for (int k = 1; k <= 32; ++k) {
    std::string name = "A";
    name += std::to_string(100 + k);
    racks.push_back(name);
  }
  FacilityModel m1 = compileText(facility(racks, "", "32 degC", "36 degC", "3000 L/min"));
  FacilityModel m2 = m1;
  m2.options.threads = 2;
  State s1 = makeState(m1, 305.15), s2 = makeState(m2, 305.15);
  REQUIRE(runFor(m1, s1, 30).ok);
  REQUIRE(runFor(m2, s2, 30).ok);
  syncGpuView(m1, s1);
  syncGpuView(m2, s2);
  double spread = 0;
  for (int i = 0; i < m1.ngpu; ++i) {
    REQUIRE(s1.gl.gpu[i].T_j == s2.gl.gpu[i].T_j);
    REQUIRE(s1.gl.op[i].P == s2.gl.op[i].P);
    spread = std::max(spread, std::fabs(s1.gl.gpu[i].T_j - s1.gl.gpu[0].T_j));
  }
  CHECK(spread > 0.5);  // and the GPUs do differ
  // the jobs too: iterations, each GPU's phase and bottleneck map, the job's map (bit for bit)
  REQUIRE(s1.gl.job.size() == 1);
  const JobState &j1 = s1.gl.job[0], &j2 = s2.gl.job[0];
  CHECK(j1.iterations >= 1);
  CHECK(j1.iterations == j2.iterations);
  CHECK(j1.phase_now == j2.phase_now);
  CHECK(j1.time_map == j2.time_map);
  for (int c = 0; c < kTimeCats; ++c) REQUIRE(j1.map_sum[c] == j2.map_sum[c]);
}

TEST_CASE("variation: the first GPUs to throttle are those with the worst die-to-plate path",
          "[variation][gpu_layer]") {
  // W45-class coolant; only the TIM varies: under the power cap every GPU draws the same power,
  // so the junction order is the order of R_jc (same rack inlet and plate)
  FacilityModel m = compileText(
      facility({"A01", "A02"}, "{leakage: 0, leakage_tray: 0, idle: 0, vf: 0, hbm: 0, tim: 0.15}",
               "45 degC", "50 degC"));
  State st = makeState(m, 323.15);
  FirstThrottle ft;
  REQUIRE(runFor(m, st, 600, &ft).ok);
  REQUIRE(ft.t_min >= 0);
  std::vector<int> by_R(std::size_t(m.ngpu));
  for (int i = 0; i < m.ngpu; ++i) by_R[std::size_t(i)] = i;
  std::sort(by_R.begin(), by_R.end(),
            [&](int a, int b) { return m.gpu_Rjc_factor[a] > m.gpu_Rjc_factor[b]; });
  const std::vector<int> first = ft.first();
  INFO("first step " << ft.t_min << " s: " << first.size() << " GPUs; " << ft.count()
                     << " throttle at some time");
  // the worst TIM throttles first (in the first fast step with a throttled GPU), and every GPU
  // of that step is among the worst tenth
  CHECK(std::find(first.begin(), first.end(), by_R[0]) != first.end());
  const auto worst_tenth = by_R.begin() + m.ngpu / 10;
  for (int i : first) CHECK(std::find(by_R.begin(), worst_tenth, i) != worst_tenth);
  // a GPU throttles no earlier than any GPU with a worse TIM (up to one fast step)
  for (int k = 0; k + 1 < m.ngpu; ++k) {
    const double ta = ft.t_first[std::size_t(by_R[k])], tb = ft.t_first[std::size_t(by_R[k + 1])];
    if (tb >= 0) CHECK((ta >= 0 && ta <= tb + m.gpu_dt + 1e-9));
  }
  // not every GPU throttles: the typical ones stay below T_maxop
  CHECK(ft.count() < m.ngpu / 2);
}

TEST_CASE("variation: with every quantity varying, the first to throttle is the physics' hottest",
          "[variation][gpu_layer]") {
  // all spreads at their defaults; the predicted junction of GPU i under its cap is
  // T_in + P R_cp + (P - P_hbm) R_jc,i: the GPUs that throttle first are those it puts highest
  // (within the 0.5 K a fast step and the leakage's pull on the clock can reorder)
  FacilityModel m = compileText(facility({"A01", "A02"}, "", "45 degC", "50 degC"));
  State st = makeState(m, 323.15);
  FirstThrottle ft;
  REQUIRE(runFor(m, st, 600, &ft).ok);
  REQUIRE(ft.t_min >= 0);
  syncGpuView(m, st);
  auto predicted = [&](int i) {
    const GpuParams& p = m.group_params[m.gpu_group[i]];
    const double P = m.gpu_cap[i], P_hbm = st.gl.op[i].P_hbm;
    return ft.T_in[i] + P * ft.R_path[i] * m.gpu_R_factor[i] + (P - P_hbm) * p.R_jc;
  };
  double best = -1e300;
  int arg = -1;
  for (int i = 0; i < m.ngpu; ++i)
    if (predicted(i) > best) best = predicted(i), arg = i;
  const std::vector<int> first = ft.first();
  CHECK(std::find(first.begin(), first.end(), arg) != first.end());
  for (int i : first) CHECK(predicted(i) > best - 0.5);
}

TEST_CASE("variation: a synchronous job's iteration is set by its slowest GPU",
          "[variation][gpu_layer]") {
  // W32: no thermal throttling; only the V-f curve varies, so GPUs reach different clocks at the
  // power cap
  const std::string text =
      facility({"A01", "A02"},
               "{leakage: 0, leakage_tray: 0, idle: 0, tim: 0, hbm: 0, bad_mount_fraction: 0, "
               "vf: 0.05}");
  FacilityModel varied = compileText(text);
  // the slowest GPU burns the most dynamic power per clock; the fastest the least
  const auto dyn = varied.gpu_dyn_factor;
  const int slowest = int(std::max_element(dyn.begin(), dyn.end()) - dyn.begin());
  const int fastest = int(std::min_element(dyn.begin(), dyn.end()) - dyn.begin());
  FacilityModel all_slow = varied, all_fast = varied;
  makeAllLike(all_slow, slowest);
  makeAllLike(all_fast, fastest);
  auto iteration = [](const FacilityModel& m, State& st) {
    REQUIRE(runFor(m, st, 600).ok);
    REQUIRE(st.gl.job[0].iterations > 100);
    return meanIterationTime(st.gl.job[0]);
  };
  State sv = makeState(varied, 305.15), ss = makeState(all_slow, 305.15),
        sf = makeState(all_fast, 305.15);
  const double T_varied = iteration(varied, sv), T_slow = iteration(all_slow, ss),
               T_fast = iteration(all_fast, sf);
  // the mixed job runs at the pace of a job of slowest GPUs, clearly behind one of fastest GPUs
  CHECK(T_varied == Approx(T_slow).epsilon(0.002));
  CHECK(T_fast < T_slow * 0.99);
  // the slowest GPU never waits for the others at a barrier; the fastest waits the longest
  const JobState& js = sv.gl.job[0];
  const auto slot = [&](int i) { return std::size_t(varied.group_jobslot[varied.gpu_group[i]]); };
  double max_wait = 0;
  for (const auto& g : js.gpu) max_wait = std::max(max_wait, g.wait_time);
  CHECK(js.gpu[slot(slowest)].wait_time < 1e-9 + 0.01 * max_wait);
  CHECK(js.gpu[slot(fastest)].wait_time > 0.95 * max_wait);
}
