// map_scale_test.cpp: the bottleneck map of a job of more than 4,096 GPU groups
// (docs/models/job.md, "attribution at scale"): its barrier wait attributed to causes, and the
// per-GPU and per-rack map outputs (/gpu/lost_time, /gpu/caused_wait, /rack/gpu_wait_mean,
// /rack/gpu_lost_mean, /rack/caused_wait) consistent with the job's rows. Formerly a job of
// more than 4,096 groups had NaN in /job/wait/* and -1 in /job/straggler/gpu.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/input/loader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

// 5 generic 2 MW CDUs x 12 GB300 NVL72 = 60 racks, 4,320 distinct GPUs (every GPU its own group),
// one synchronous job from 60 s; a warm TCS (44 degC) and the bad-mount what-if at 1 % so that
// some GPUs throttle thermally and become stragglers
std::string facility() {
  std::string s = R"(dctwin: 1
name: map_scale
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 40 degC, differential_pressure: 200 kPa}
variation: {seed: 3, bad_mount_fraction: 0.01}
cdus:
)";
  for (int c = 1; c <= 5; ++c) {
    s += "  - {name: C";
    s += std::to_string(c);
    s += ", model: generic_2mw, fluid: pg25, control: {supply_temperature: 44 degC, "
         "flow_setpoint: 1860 L/min}, piping: {supply: {length: 20 m, diameter: 154 mm, "
         "segments: 4}, return: {length: 20 m, diameter: 154 mm, segments: 4}}}\n";
  }
  std::string racks, names;
  for (int c = 1; c <= 5; ++c)
    for (int k = 1; k <= 12; ++k) {
      std::string n = "R";
      n += std::to_string(c);
      n += "_";
      n += std::to_string(k);
      if (!names.empty()) names += ", ";
      names += n;
      racks += "  - {name: ";
      racks += n;
      racks += ", cdu: C";
      racks += std::to_string(c);
      racks += ", type: gb300_nvl72, row: R";
      racks += std::to_string(c);
      racks += ", index: ";
      racks += std::to_string(k);
      racks += "}\n";
    }
  s += "jobs:\n  - {name: train, start: 60 s, phases: default, racks: [";
  s += names;
  s += "]}\nracks:\n";
  s += racks;
  return s;
}

// the last frame of a run
struct Last : RunSink {
  RunLayout L;
  FrameLayout F;
  OutputFrame last;
  void begin(const RunLayout& l, const FrameLayout& f) override { L = l, F = f; }
  void row(const OutputFrame& f) override {
    last = f;
    last.layout = &F;
    last.events = nullptr;
  }
};

}  // namespace

TEST_CASE(
    "map at scale: a job of more than 4,096 GPU groups has its waits attributed and its "
    "per-GPU and per-rack maps",
    "[attribution][map_scale]") {
  FacilitySpec spec = loadFacilityFromString(facility(), "map_scale.yaml");
  spec.detection.protection.enabled = false;  // the GPUs' own throttling is what is measured
  Scenario sc;
  sc.duration = 600;
  sc.output_interval = 120;
  RunSettings set;
  set.threads = 2;
  Last out;
  std::vector<RunSink*> sinks{&out};
  const RunReport rep = runFacility(spec, sc, set, sinks);
  REQUIRE(rep.result.ok);
  const RunLayout& L = out.L;
  const OutputFrame& f = out.last;
  REQUIRE(L.ngpu == 4320);
  REQUIRE(L.ngroup > 4096);  // every GPU its own group: above the former limit
  REQUIRE(L.njob == 1);
  // every cause column is a number, and together they are the job's barrier wait (a barrier
  // still pending at the end is not attributed yet: within one iteration's wait)
  const double barrier = f.get(Obs::JobTimeBarrierWait)[0];
  REQUIRE(barrier > 1.0);
  double attributed = 0;
  for (Obs o : {Obs::JobWaitThermal, Obs::JobWaitPowerCap, Obs::JobWaitPowerBrake,
                Obs::JobWaitSmoothing, Obs::JobWaitClockOther, Obs::JobWaitHbmThrottle,
                Obs::JobWaitFabricDegraded, Obs::JobWaitImbalance}) {
    const double v = f.get(o)[0];
    REQUIRE(std::isfinite(v));
    CHECK(v >= 0);
    attributed += v;
  }
  CHECK(attributed == Approx(barrier).epsilon(0.05));
  // the bad mounts throttle: thermal is a cause of the wait, and the top straggler is a GPU
  CHECK(f.get(Obs::JobWaitThermal)[0] > 0);
  const double top = f.get(Obs::JobStragglerGpu)[0];
  CHECK(top >= 0);
  CHECK(top < L.ngpu);
  CHECK(std::isfinite(f.get(Obs::JobStragglerWait)[0]));
  // per GPU: the waits caused add up to the attributed wait; the GPUs' own lost time and waits
  // averaged per rack are the racks' rows; the racks' caused waits add up to the GPUs'
  const auto caused = f.get(Obs::GpuCausedWait), lost = f.get(Obs::GpuLostTime);
  const auto wait = f.get(Obs::GpuWaitTime);
  double caused_sum = 0;
  for (int i = 0; i < L.ngpu; ++i) {
    REQUIRE(std::isfinite(caused[i]));
    REQUIRE(std::isfinite(lost[i]));
    CHECK(caused[i] >= 0);
    caused_sum += caused[i];
  }
  CHECK(caused_sum == Approx(attributed).epsilon(1e-9));
  // the top straggler caused the most
  CHECK(caused[std::size_t(top)] == *std::max_element(caused.begin(), caused.end()));
  double rack_caused = 0;
  for (int r = 0; r < L.nrack; ++r) {
    double w = 0, l = 0, c = 0;
    for (int q = 0; q < L.rack_gpunum[r]; ++q) {
      w += wait[L.rack_gpuadr[r] + q];
      l += lost[L.rack_gpuadr[r] + q];
      c += caused[L.rack_gpuadr[r] + q];
    }
    CHECK(f.get(Obs::RackGpuWaitMean)[r] == Approx(w / L.rack_gpunum[r]).epsilon(1e-12));
    CHECK(f.get(Obs::RackGpuLostMean)[r] == Approx(l / L.rack_gpunum[r]).epsilon(1e-12));
    CHECK(f.get(Obs::RackCausedWait)[r] == Approx(c).epsilon(1e-12));
    rack_caused += f.get(Obs::RackCausedWait)[r];
  }
  CHECK(rack_caused == Approx(caused_sum).epsilon(1e-9));
}
