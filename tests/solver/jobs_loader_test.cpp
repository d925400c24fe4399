// jobs_loader_test.cpp: facility keys for resolved GPUs and training jobs
#include <catch2/catch.hpp>

#include <string>

#include "solver/input/loader.h"

using namespace dctwin;

namespace {
std::string facility(const std::string& jobs, const std::string& rack2 = "") {
  return R"(dctwin: 1
name: j
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2)" +
         rack2 + R"(}
)" + jobs;
}
std::string errorsOf(const std::string& text) {
  try {
    loadFacilityFromString(text, "f.yaml");
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("jobs: racks, phases, caps and the GPU catalog load", "[loader][jobs]") {
  FacilitySpec s = loadFacilityFromString(facility(R"(jobs:
  - name: train
    racks: [A01, A02]
    start: 1 min
    stop: 2 h
    gpu_power_cap: 1000 W
    checkpoint_interval: 10 min
    checkpoint_duration: 15 s
    phases:
      - {name: fwd, duration: 1 s, bound: compute, sm: 0.9, hbm: 0.3}
      - {name: ar, duration: 250 ms, bound: communication, sm: 0.08, nvlink: 0.6, network: 0.8, barrier: true}
)"),
                                          "f.yaml");
  REQUIRE(s.jobs.size() == 1);
  const JobSpec& j = s.jobs[0];
  CHECK(j.racks == std::vector<std::string>{"A01", "A02"});
  CHECK(j.training.start == 60);
  CHECK(j.training.stop == 7200);
  CHECK(j.gpu_power_cap == 1000);
  REQUIRE(j.training.phases.size() == 2);
  CHECK(j.training.phases[1].barrier);
  CHECK(j.training.phases[1].bound == PhaseSpec::Bound::Communication);
  CHECK(j.training.phases[1].duration == Approx(0.25));
  REQUIRE(s.gpus.count("gb200_blackwell"));
  CHECK(s.gpus.at("gb200_blackwell").P_tdp == 1200);
  CHECK(s.gpus.at("gb200_blackwell").f_max == Approx(1965e6));
  // racks: all, and the default phases
  FacilitySpec d = loadFacilityFromString(
      facility("jobs:\n  - {name: t, racks: all, phases: default}\n"), "f.yaml");
  CHECK(d.jobs[0].racks.size() == 2);
  CHECK(d.jobs[0].training.phases.size() == defaultTrainingJob().phases.size());
}

TEST_CASE("jobs: clear errors for bad references and values", "[loader][jobs]") {
  std::string e = errorsOf(facility("jobs:\n  - {name: t, racks: [A1]}\n"));
  CHECK(e.find("unknown rack") != std::string::npos);
  CHECK(e.find("did you mean 'A01'") != std::string::npos);
  e = errorsOf(facility("jobs:\n  - {name: t, racks: [A02]}\n", ", heat_load: 100 kW"));
  CHECK(e.find("has a heat_load profile") != std::string::npos);
  e = errorsOf(facility(
      "jobs:\n  - {name: t, racks: all, phases: [{name: x, duration: 1 s, bound: computer}]}\n"));
  CHECK(e.find("did you mean 'compute'") != std::string::npos);
  e = errorsOf(facility("jobs:\n  - {name: t, racks: all, gpu_power_cap: -5 W}\n"));
  CHECK(e.find("gpu_power_cap") != std::string::npos);
  e = errorsOf(facility("jobs:\n  - {name: t, racks: [A01]}\n  - {name: u, racks: [A01]}\n"));
  CHECK(e.find("already in job 't'") != std::string::npos);
  e = errorsOf(facility("", ", coldplate_degradation: [{gpu: 72, factor: 2}]"));
  CHECK(e.find("slot out of range") != std::string::npos);
}

TEST_CASE("jobs: power caps must lie in the GPU's settable power-limit range", "[loader][jobs]") {
  // gb200_blackwell: 200 W ... 1200 W
  std::string e = errorsOf(facility("jobs:\n  - {name: t, racks: all, gpu_power_cap: 1500 W}\n"));
  CHECK(e.find("f.yaml:15:") != std::string::npos);
  CHECK(e.find("jobs[0].gpu_power_cap") != std::string::npos);
  CHECK(e.find("settable power-limit range of GPU 'gb200_blackwell' (200 W ... 1200 W)") !=
        std::string::npos);
  CHECK(e.find("(got '1500 W')") != std::string::npos);
  e = errorsOf(facility("", ", gpu_power_cap: 150 W"));
  CHECK(e.find("racks[1].gpu_power_cap") != std::string::npos);
  CHECK(e.find("(200 W ... 1200 W)") != std::string::npos);
  CHECK(errorsOf(facility("jobs:\n  - {name: t, racks: all, gpu_power_cap: 900 W}\n",
                          ", gpu_power_cap: 1200 W"))
            .empty());
}

TEST_CASE("jobs: booleans are true or false, never yes/no read as false", "[loader][jobs]") {
  std::string e = errorsOf(
      facility("jobs:\n  - {name: r, kind: trace, racks: all, trace: {csv: x.csv, loop: yes}}\n"));
  CHECK(e.find("jobs[0].trace.loop: expected true or false ('yes' is not read as a boolean: "
               "write true)") != std::string::npos);
  e = errorsOf(facility(
      "jobs:\n  - {name: t, racks: all, phases: [{name: x, duration: 1 s, bound: idle, barrier: "
      "off}]}\n"));
  CHECK(e.find("barrier: expected true or false ('off'") != std::string::npos);
  e = errorsOf(facility("gpu_layer: {group_identical: 1}\n"));
  CHECK(e.find("gpu_layer.group_identical: expected true or false (got '1')") != std::string::npos);
}
