// job_fast.h: the job step's fast path (trainingStepRunFinish, docs/models/job_fast.md) over whole
// vectors of GPUs: a live GPU that runs its phase on past the step end, for a run of GPUs that
// are all in the same phase with the same loss category (most of a synchronous job in most
// steps). The same operations as the scalar fast path in the same order (the map sums lane by
// lane), compiled without FMA contraction: its results are the scalar path's bit for bit
// (tests/models/job_fast_test.cpp). Highway picks the instruction set at run time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/workload.h"

namespace dctwin {

struct JobFastArgs {
  GpuProgress* gpu;   // the job's progress records
  const char* alive;  // 0: the GPU is off
  const double *speed_c, *speed_m;
  const unsigned char* cause;  // TimeCat of a clock below the reference, or null
  const double* weight;        // GPUs each entry stands for, or null (1 each)
  double* time_map;            // the per-GPU maps (JobState::time_map, kTimeCats per GPU), or null
  const JobStepCtx::FastPhase* fast;
  int nfast;
  double d_run, d_fast, tb;  // the step's run time, the test's margin, its end       (s)
  double* map1;              // the part's map sums (JobStepPart::map1)
  std::uint16_t* phase_now;
  double *out_sm, *out_hbm, *out_nvl, *out_net, *out_mem;  // the utilization arrays
};

// GPUs [g, g1) from g on, a whole vector at a time, until the first vector with a GPU it does not
// take (another phase, another loss category, a collective with degraded links, a barrier, the
// phase's end within the step, a GPU that is off); returns how many it took (a multiple of the
// vector length, possibly 0). The caller takes the rest on the scalar path.
std::size_t jobFastRun(const JobFastArgs& a, std::size_t g, std::size_t g1);

}  // namespace dctwin
