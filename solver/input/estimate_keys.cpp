// estimate_keys.cpp: the key tables of estimate files (dctwin estimate, docs/models/job.md):
// training jobs on given hardware, no facility; also the validation suite of published runs
// (tests/validation/training_runs.yaml)
#include "solver/input/keys.h"

namespace dctwin::keys {

// built on first use: the cases take the facility's workload, gpu_memory and fabric sections
// (facility_keys.cpp), which another file's statics may not have constructed yet
const Section& estimateFile() {
  static const Section kCase{
      "estimate.cases",
      "one training job on a GPU type, without a facility",
      {name("id").req().docs("unique among the cases"),
       text("source").docs("where the configuration and the measurement come from"),
       text("url").forPeople().docs("the source's address, for people (not read)"),
       text("notes").forPeople().docs("for people (not read)"),
       name("gpu").req().docs("GPU type of data/catalog/gpus"),
       integer("gpus", 1, 10000000).req().docs("GPUs of the job"),
       integer("nvlink_domain", 1, 100000)
           .dflt("the GPU type's nvlink_domain")
           .docs("GPUs of one NVLink domain"),
       map("workload", workloadSection()).req().docs("as a facility job's workload"),
       map("gpu_memory", gpuMemorySection())
           .dflt("the GPU type's")
           .docs("the GPUs' HBM capacity and bandwidth"),
       map("fabric", fabricSection())
           .dflt("the facility defaults, NVLink bandwidth from the GPU type"),
       quantity("gpu_power_cap", Dim::Power, kGpuPower)
           .dflt("the GPU's tdp")
           .docs("per-GPU limit, within the GPU's power_limit_min ... power_limit_max: the "
                 "compute kernels run at the clock the GPU holds there (docs/models/job.md "
                 "\"Power limit\")"),
       quantity("measured_step_time", Dim::Time, {0, 1e6, true, false, "> 0 s"})
           .docs("published measured (or derived) step time: compared with the estimate"),
       text("measured_as").docs("what was published and how the step time follows from it"),
       choice("confidence", {"high", "medium", "low"}).docs("of the measurement's reading"),
       list("tags", nullptr, "tags", 0).docs("e.g. weak_scaling groups")}};
  static const Section kFile{
      "estimate",
      "dctwin estimate FILE: training jobs estimated on given hardware (docs/models/job.md)",
      {integer("dctwin_estimate", 1, 1).req().docs("format version"),
       text("description").forPeople().docs("free text, not read"),
       list("cases", &kCase, "cases", 1).req()}};
  return kFile;
}

}  // namespace dctwin::keys
