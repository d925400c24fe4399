// estimate.h: a training job's step on given hardware, without a facility (dctwin estimate,
// Python dctwin.estimate; docs/models/job.md). The facility run describes its jobs with the same
// model (models/job_model.h, solver/compile/compile.cpp): one code path.
#pragma once

#include <string>
#include <vector>

#include "models/job_model.h"
#include "solver/input/loader.h"

namespace dctwin {

struct EstimateCase {
  std::string id, source, gpu_name, measured_as, confidence;
  std::vector<std::string> tags;
  int gpus = 0;
  int nvlink_domain = 0;                       // 0: the GPU type's
  double hbm_capacity = 0, hbm_bandwidth = 0;  // gpu_memory; 0: the GPU type's    (B, B/s)
  double gpu_power_cap = 0;                    // 0: the GPU type's tdp                 (W)
  SourceLoc gpu_power_cap_loc;                 // where it was given (range errors)
  bool nvlink_bandwidth_given = false;         // else the GPU type's nvlink_bandwidth
  JobSpec job;                                 // its workload (and where each key was set)
  FabricSpec fabric;              // as given, or the defaults with the GPU type's NVLink bandwidth
  double measured_step_time = 0;  // 0: none                                          (s)
  SourceLoc loc;
};

struct EstimateResult {
  EstimateCase c;
  GpuParams gpu;
  DescribedJob d;
  std::string error;      // file:line: key: why, when the job cannot be
  double delta() const {  // (estimate - measured) / measured
    return c.measured_step_time > 0 && error.empty()
               ? (d.step_time - c.measured_step_time) / c.measured_step_time
               : 0.0;
  }
};

// reads an estimate file (keys: solver/input/facility_keys.cpp kEstimateFile); throws
// LoadFailure with every error of the file
std::vector<EstimateCase> loadEstimateFile(const std::string& path,
                                           const LoadOptions& options = {});
std::vector<EstimateCase> loadEstimateFromString(const std::string& text, const std::string& name,
                                                 const LoadOptions& options = {});

// one case on its GPU type (catalog) at the default power limit; an error is kept in `error`
EstimateResult estimate(const EstimateCase& c, const LoadOptions& options = {});

// the errors of the cases with a measured step time
struct EstimateStats {
  int measured = 0, failed = 0;      // cases compared; cases that could not be estimated
  double mean_abs = 0, max_abs = 0;  // of |delta|                                      (1)
};
EstimateStats estimateStats(const std::vector<EstimateResult>& r);

// a published scaling series: the measured cases sharing a tag that names a scaling series
// ("…scaling…"), from the fewest GPUs to the most. MFU by the step model's FLOP count (PaLM's
// convention, docs/models/job.md) of the measured and the estimated step: how the model follows
// the series' growth, in percentage points from its first case to its last
struct ScalingSeries {
  std::string tag;
  int cases = 0, gpus_first = 0, gpus_last = 0;
  double measured_first = 0, measured_last = 0;    // MFU                              (1)
  double estimated_first = 0, estimated_last = 0;  // MFU                              (1)
  double growthError() const {  // estimated growth - measured growth                (1)
    return (estimated_last - estimated_first) - (measured_last - measured_first);
  }
};
std::vector<ScalingSeries> scalingSeries(const std::vector<EstimateResult>& r);

// the printed table of cases (and, where measured, the errors and their mean and max)
std::string estimateTable(const std::vector<EstimateResult>& r, bool detail);

}  // namespace dctwin
