// job_fast.h: the job step's fast paths (trainingStepRunFinish, docs/models/job_fast.md) over
// whole vectors of GPUs: a live GPU that runs its phase on past the step end, for a run of GPUs
// that are all in the same phase with the same loss category (most of a synchronous job in most
// steps), and a live GPU that waits at the barrier to the step end (the early arrivals, once the
// part is known not to release). The same operations as the scalar fast paths per GPU, compiled
// without FMA contraction: each GPU's state, utilizations and map are the scalar path's bit for
// bit, and the part's map sums the same on every instruction set (tests/models/workload_test.cpp
// "the job step's vector fast paths agree ..."). Highway picks the instruction set at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "models/workload.h"

namespace dctwin {

struct JobFastArgs {
  GpuProgress* gpu;   // the job's progress records
  const char* alive;  // 0: the GPU is off
  const double *speed_c, *speed_m;
  const unsigned char* cause;  // TimeCat of a clock below the reference, or null
  const double* weight;        // GPUs each entry stands for, or null (1 each)
  double* time_map;            // the per-GPU maps (JobState::time_map, category-major), or null
  std::size_t ngpu;            // the job's GPUs: time_map's stride between categories
  const JobStepCtx::FastPhase* fast;
  int nfast;
  double d_run, d_fast, tb;  // the step's run time, the test's margin, its end       (s)
  std::uint16_t* phase_now;
  double *out_sm, *out_hbm, *out_nvl, *out_net, *out_mem;  // the utilization arrays
  // the part's sums of the GPUs the fast paths take, four slots a category: GPU g adds to slot
  // (g - g0) % 4, whichever path (vector of any length, or scalar) takes it, so the sums do not
  // depend on the instruction set (jobFastSlots)                                        (s)
  std::size_t g0;
  double* sums1;       // pass 1's map, [kTimeCats][4]
  double* sums3_wait;  // the finish's barrier wait, [4]
  // a live GPU waiting at the barrier once the part is known not to release (JobFastState
  // known): it waits to the step end; its utilizations (JobStepCtx::wait_util); only if the job
  // runs from the step's start with every GPU ok (the waiting time is then kTimeBarrierWait)
  bool wait_ok;
  const double* wait_util;  // a_sm, a_hbm, a_nvlink, a_network, memory_bound            (1)
  // the bandwidth fractions of each GPU's NVLink and scale-out links, or null (full): a
  // collective (JobStepCtx::kFastComm) whose GPUs all have their level's links at full bandwidth
  // runs at rate 1 (commRate), and takes the vector path                                 (1)
  const double* bw_nvl = nullptr;
  const double* bw_net = nullptr;
};

// what a run of the fast path changes of the part's reductions
struct JobFastState {
  bool known = false;  // the part cannot release (some GPU runs on): waiting GPUs may finish
  bool running = false, waited = false;  // it took a GPU that runs on; one that waits
  std::size_t run_gpu = std::numeric_limits<std::size_t>::max();   // the first that runs on
  std::size_t run_last = std::numeric_limits<std::size_t>::max();  // and the last
};

// GPUs [g, g1) from g on (g - g0 a multiple of 4), a whole vector at a time, until the first
// vector with a GPU it does not take: another phase, another loss category, a collective with a
// GPU at degraded links, the phase's end within the step, a GPU that is off, a mix of running and
// waiting GPUs, waiting GPUs while the part is not known (s.known). Returns how many it took (a
// multiple of the vector length, possibly 0). The caller takes the rest on the scalar paths,
// which add to the same slots (jobFastSlots).
std::size_t jobFastRun(const JobFastArgs& a, std::size_t g, std::size_t g1, JobFastState& s);

// the slot sums into the part's map: sum[c] += (s[c][0] + s[c][1]) + (s[c][2] + s[c][3])
inline void jobFastSlots(const double* slots, double* sum, int ncat) {
  for (int c = 0; c < ncat; ++c)
    sum[c] += (slots[4 * c] + slots[4 * c + 1]) + (slots[4 * c + 2] + slots[4 * c + 3]);
}

}  // namespace dctwin
