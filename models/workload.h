// workload.h: GPU utilizations of synchronous training jobs, inference serving and trace replay
//
// training (bulk-synchronous, docs/models/workload.md [WL2][WL21]): one iteration is a sequence of
// phases i with reference durations d_i (at the reference clocks); GPU g does the work of phase i
// at the rate
//   r_g = speed_compute_g (Compute-bound) | speed_memory_g (Memory-bound) | 1 (Communication, Idle)
// so that it spends d_i / r_g in the phase. A barrier phase (collective) starts only when every GPU
// has finished all earlier phases; the end of an iteration is always a barrier:
//   t_start(barrier phase) = max_g t_arrive,g,     waiting_g += t_start - t_arrive,g
// hence with one barrier before phase b the iteration time of a healthy job is
//   T_iter = max_g sum_{i<b} d_i / r_g,i + max_g sum_{i>=b} d_i / r_g,i   (straggler effect [WL21])
// and the reference iteration time (all rates 1) with checkpoints of duration d_ck, taken at the
// first iteration end at least checkpoint_interval after the end of the previous one,
//   T_ref = D + d_ck / k,   D = sum_i d_i,   k = max(1, ceil(checkpoint_interval / D))
//   throughput ratio = T_ref / mean(measured iteration times)
// a GPU that is not alive makes no progress and blocks the next barrier (the job stalls).
// Utilizations of a step are the time-weighted averages over [t, t + dt]; phase boundaries inside
// a step are located exactly (the result does not depend on dt beyond rounding).
//
// inference: linear in the interpolated load L(t) in [0, 1]:  a = a_idle + L (a_full - a_idle)
// trace replay: per-GPU samples, linear interpolation, held at the end values (or looped)
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace dctwin {

// activity of one GPU during a step (time-weighted averages over the step)
struct Utilization {
  double a_sm = 0;           // SM activity                                          (1)
  double a_hbm = 0;          // HBM bandwidth utilization                            (1)
  double a_nvlink = 0;       // NVLink utilization                                   (1)
  double a_network = 0;      // scale-out NIC (IB/RoCE) utilization                  (1)
  double compute_bound = 0;  // fraction of the step in Compute-bound phases         (1)
  double memory_bound = 0;   // fraction of the step in Memory-bound phases          (1)
};

// one phase of a training iteration
struct PhaseSpec {
  enum class Bound { Compute, Memory, Communication, Idle };
  std::string name;           // "forward", "backward", "allreduce", "optimizer", "bubble", ...
  double duration = 0;        // at the reference clocks                            (s)
  Bound bound = Bound::Idle;  // what sets the GPU's progress rate
  double a_sm = 0, a_hbm = 0, a_nvlink = 0, a_network = 0;  // while the phase runs  (1)
  bool barrier = false;  // starts only when all GPUs finished every earlier phase
  // collectives (Communication phases, docs/models/job.md): the fabric level they run on and the
  // bandwidth part of the whole collective at full bandwidth (alpha-beta model, models/fabric.h);
  // at a bandwidth fraction f of that level the exposed phase lasts duration + comm_beta (1/f - 1)
  int level = 0;         // 0: none (rate 1), 1: NVLink domain, 2: scale-out network, 3: host memory
                         // (a transfer to or from a host-memory tier, rate 1: models/host_memory.h)
  double comm_beta = 0;  // (s)
};

// where a training job's wall time goes (the bottleneck map, docs/models/job.md): every second
// of every GPU from the job's start to its stop lands in exactly one of these
enum TimeCat : int {
  kTimeCompute,         // Compute phases at the reference clock's pace
  kTimeMemory,          // Memory phases at the reference HBM bandwidth's pace
  kTimeCommNvlink,      // exposed collectives on the NVLink domain at full bandwidth
  kTimeCommNetwork,     // exposed collectives on the scale-out network at full bandwidth
  kTimeCommOther,       // Communication phases with no fabric level (given phase times)
  kTimeHostMemory,      // exposed transfers to / from host memory (offload, data loading)
  kTimeBubble,          // Idle phases (pipeline bubble)
  kTimeCheckpoint,      // writing checkpoints (blocking part)
  kTimeBarrierWait,     // waiting at a barrier for a slower GPU (straggler)
  kTimeThermal,         // compute stretched by thermal throttling (SW/HW thermal, HW slowdown)
  kTimePowerCap,        // compute stretched by a power cap below the reference's
  kTimePowerBrake,      // compute stretched by the power brake
  kTimeSmoothing,       // compute stretched by power-smoothing ramp limits
  kTimeClockOther,      // compute stretched by a lower clock with no throttle reason
  kTimeHbmThrottle,     // memory phases stretched by HBM throttling
  kTimeFabricDegraded,  // collectives stretched by degraded links / lost switch trays
  kTimeStalled,         // no progress: a GPU of the job is down and the job waits for it
  kTimeRestart,         // restarting after a failure (detect, reschedule, reload)
  kTimeLostWork,        // work done since the last checkpoint, lost at a failure
  kTimeExcluded,        // excluded with its replica (straggler policy exclude): idle, no work
  kTimeCats
};
const char* timeCatName(int c);  // "compute", "memory", "comm_nvlink", ...

// who made the others wait (docs/models/job.md, "attribution"): at each barrier release the
// wait of every GPU is split in proportion to the losses the slowest GPU (the straggler)
// accumulated since the previous release, by loss category; a straggler with no loss of its own
// (e.g. more work) books it to "imbalance". The columns add up to kTimeBarrierWait.
constexpr int kLossFirst = kTimeThermal, kLossLast = kTimeFabricDegraded;  // contiguous
constexpr int kLossCats = kLossLast - kLossFirst + 1;
constexpr int kWaitCats = kLossCats + 1;  // + imbalance
const char* waitCauseName(int w);         // "thermal", ..., "fabric_degraded", "imbalance"

struct TrainingJobSpec {
  std::vector<PhaseSpec> phases;  // one iteration; the iteration end is always a barrier
  double start = 0;               // job start                                        (s)
  double stop = std::numeric_limits<double>::infinity();  // job end                  (s)
  double checkpoint_interval = 0;  // min. time from one checkpoint's end to the next; 0 = none (s)
  double checkpoint_duration = 0;  // Idle-bound checkpoint at an iteration end        (s)
  PhaseSpec idle;                  // utilizations while waiting, before start, after stop
  Utilization checkpoint_util{0.03, 0.1, 0.0, 0.5};  // while writing a checkpoint (a)   (1)
  // failures (docs/models/checkpoint.md): false = a dead GPU stalls the job until it returns;
  // true = the job fails, restarts from its last checkpoint after restart_time (once its GPUs
  // are back, or at once on a hot spare) and loses the work since that checkpoint
  bool restart_on_failure = false;
  double restart_time = 0;  // detect + reschedule + reload                           (s)
  int hot_spares = 0;       // spare GPUs that take a failed GPU's rank               (1)
  // pipelines in time (docs/models/job.md, "The pipeline in time"): the job's GPUs in `stages`
  // contiguous blocks (Megatron's rank order, PP outermost), and the reference seconds of each
  // phase that stage s skips on entering it, stage_skip[s * phases.size() + p] (empty: none, every
  // GPU runs every phase in full). Every stage skips `stage_skip_total` in all, so each stage's
  // iteration is sumDurations(job) long and the stages reach the barriers together
  int stages = 1;
  std::vector<double> stage_skip;
  double stage_skip_total = 0;  //                                                   (s)
};

// a phase is done once its remaining work is below this share of its duration        (1)
inline constexpr double kWorkTol = 1e-12;

// per-GPU progress
struct GpuProgress {
  int phase = 0;            // index into phases; n = iteration end; n + 1 = checkpoint
  bool waiting = false;     // at the barrier in front of `phase`
  bool on_spare = false;    // its rank runs on a hot spare since a failure
  std::uint16_t stage = 0;  // its pipeline stage (TrainingJobSpec::stages)
  double work = 0;          // reference seconds done in the current phase             (s)
  double wait_time = 0;     // total time spent at barriers (incl. stalls)              (s)
  double t_local = 0;       // scratch: time up to which this GPU is accounted in a step (s)
  // (its bottleneck map lives in JobState::time: the passes over the GPUs, and the GPU layer's
  // read of `phase` per GPU and step, stream 32 bytes per GPU instead of 330; the small fields
  // share the first word)
};
static_assert(sizeof(GpuProgress) == 32);

// one GPU's entries of a category-major per-GPU map (JobState::time_map): entry c at p[c stride]
template <class T>
struct GpuMap {
  T* p = nullptr;
  std::size_t stride = 0;
  T& operator[](int c) const { return p[std::size_t(c) * stride]; }
};

// job state and metrics; made once by makeJobState, never resized while stepping
struct JobState {
  std::vector<GpuProgress> gpu;  // size n_gpu
  // the job's bottleneck map, what the outputs read (jobTimeMap): per TimeCat the sum over its
  // GPUs of weight (group size, JobStepExtras::weight) x seconds, and the same at the end of the
  // last checkpoint (or restart)                                                     (s)
  double map_sum[kTimeCats] = {}, map_sum_ckpt[kTimeCats] = {};
  // the bottleneck map of each GPU (TimeCat), and the same at the end of the last checkpoint (or
  // restart; time_ckpt, wait_ckpt and caused_ckpt only for a job with restart_on_failure, empty
  // otherwise): kTimeCats x n_gpu, category-major (GPU g's entry of category c at c n_gpu + g,
  // read through time(g)), only if per_gpu_map (makeJobState; the GPU layer keeps them for every
  // job up to 2^20 GPU groups, docs/models/job.md "attribution at scale").
  // Category-major, so that a step's additions of a vector of GPUs in one phase are one vector's
  // load, add and store per category instead of a read-modify-write per GPU, each in its own
  // 152-byte row (the default pod: the map cost 6-8 % of its time GPU-major)              (s)
  bool per_gpu_map = true;
  std::vector<double> time_map, time_ckpt;
  // each GPU's phase at the end of the last step (= gpu[g].phase), 2 bytes: what the GPU layer
  // reads per GPU and step (its reference clock), instead of a 48-byte GpuProgress
  std::vector<std::uint16_t> phase_now;
  GpuMap<double> time(std::size_t g) { return {time_map.data() + g, gpu.size()}; }
  GpuMap<const double> time(std::size_t g) const { return {time_map.data() + g, gpu.size()}; }
  GpuMap<const double> timeCkpt(std::size_t g) const { return {time_ckpt.data() + g, gpu.size()}; }
  // barrier-wait attribution (kWaitCats per GPU, sums to its kTimeBarrierWait) and the wait each
  // GPU caused as the straggler (GPU-seconds of the others, weighted by `weight`), with their
  // values at the last checkpoint; loss_mark: the GPU's loss parts and barrier wait at the last
  // release (kLossCats + 1 per GPU); like time_map only if per_gpu_map (empty otherwise: the
  // step then attributes nothing, jobWaitMap gives NaN and jobTopStraggler -1)               (s)
  std::vector<double> wait_map, wait_ckpt, caused, caused_ckpt, loss_mark;
  std::vector<double> weight;  // GPUs each entry stands for (groups); empty: 1 each
  double* wait(std::size_t g) { return wait_map.data() + g * kWaitCats; }
  const double* wait(std::size_t g) const { return wait_map.data() + g * kWaitCats; }
  long iterations = 0;               // completed iterations
  long checkpoints = 0;              // completed checkpoints
  double t_last_iteration_end = 0;   // (s), job start before the first iteration
  double t_last_checkpoint_end = 0;  // (s), job start before the first checkpoint
  double last_iteration_time = 0;    // (s)
  double sum_iteration_time = 0;     // (s)
  double min_iteration_time = std::numeric_limits<double>::infinity();  // (s)
  double max_iteration_time = 0;                                        // (s)
  double stalled_time = 0;              // time every live GPU waited on a dead one (s)
  double reference_iteration_time = 0;  // referenceIterationTime(job)                (s)
  // failures and restarts (restart_on_failure)
  int mode = 0;                       // 0 running, 1 failed: waiting for GPUs, 2 restarting
  double restart_left = 0;            // of the restart in progress                       (s)
  long iterations_at_checkpoint = 0;  // iterations completed at the last checkpoint (or failure)
  long failures = 0;                  // failures (restarts begun)
  // an interruption without a lost GPU (the job's software, docs/models/failures.md): the job
  // fails at its next step and restarts from its last checkpoint (restart_on_failure only)
  bool interrupt = false;
  // a checkpoint asked for on demand (straggler act_at checkpoint_now): written at the next
  // iteration end whatever the interval, then cleared
  bool checkpoint_request = false;
  int on_spares = 0;           // ranks running on hot spares now
  double lost_iterations = 0;  // completed iterations lost at failures (kept = iterations - lost)
  // straggler exclusion (docs/models/failures.md "Stragglers", policy exclude): per entry 0 in the
  // job, 1 to leave it at the next restart (failJob), 2 excluded (its rank carried like a rank on
  // a hot spare that takes no spare, its GPUs idle); a replica rejoining (stragglers.repair_time):
  // 4 back on its own GPU at the next restart, 5 back on its replaced GPU at the next restart, 3
  // back on its replaced GPU (carried like a rank on a spare, at the reference speeds, taking no
  // spare; the replacement's heat is not modelled in its slot); empty: none ever. excluded_list:
  // the excluded entries in order, excluded_mark their map (kTimeCats) and wait attribution
  // (kWaitCats) and caused wait at their exclusion, what jobTimeMap and jobWaitMap move to
  // kTimeExcluded
  std::vector<char> excluded;
  std::vector<std::size_t> excluded_list;
  std::vector<double> excluded_mark;
  // the share of the job's work each iteration does now (the replicas kept), and after the
  // exclusion pending; the iterations' work (in whole iterations) kept and done up to the last
  // change of the share, and the iterations kept and done then (jobWorkIterations)         (1)
  double work_share = 1, work_share_next = 1;
  double work_kept_base = 0, work_done_base = 0, it_kept_base = 0, it_done_base = 0;
  // GPUs that ran on past the last step's end (each chunk's first and last, in chunk order, up
  // to kRunHints): the next step tests whether one of them runs on past its end too
  // (trainingStepBegin, JobStepCtx::runs_on; several, so that the ones ending their phase leave
  // others)
  static constexpr int kRunHints = 64;
  std::size_t run_hints[kRunHints] = {};
  int nhints = 0;
};

// per-GPU inputs of a step beyond the clocks (empty spans: all 1 / no cause)
struct JobStepExtras {
  std::span<const double> bw_nvlink;   // fraction of the NVLink bandwidth available      (1)
  std::span<const double> bw_network;  // fraction of the scale-out bandwidth available   (1)
  std::span<const unsigned char> clock_cause;  // TimeCat of a clock below the reference
  std::span<const double> weight;  // GPUs each entry stands for (group sizes), in map_sum (1)
};

// throws std::invalid_argument naming the bad field (no phases, negative or non-finite durations,
// zero iteration length, utilizations outside [0, 1], stop < start, negative checkpoint values)
void validateTrainingJob(const TrainingJobSpec& job);
// validated state for n_gpu GPUs, all at the start of phase 0; per_gpu_map: keep each GPU's
// bottleneck map besides the job's (JobState::time); throws std::invalid_argument
JobState makeJobState(const TrainingJobSpec& job, int n_gpu, bool per_gpu_map = true);

// T_ref = sum of phase durations + checkpoint amortization d_ck / k               (s)
double referenceIterationTime(const TrainingJobSpec& job);
// each entry's pipeline stage from its place among the job's GPUs, when entries are GPU groups of
// `weight` GPUs each (makeJobState assumes one GPU each): the stage of the entry's first GPU, so
// that grouped and per-GPU runs agree; before the job's first step
void setJobStages(const TrainingJobSpec& job, JobState& st, std::span<const double> weight);
// T_ref / mean measured iteration time; 0 before the first completed iteration     (1)
double throughputRatio(const JobState& st);
// mean measured iteration time; 0 before the first completed iteration             (s)
double meanIterationTime(const JobState& st);

// advance the job from t to t + dt. Spans have one entry per GPU (size of st.gpu):
//   speed_compute  f / f_ref, SM clock ratio vs the reference run                  (1)
//   speed_memory   HBM throughput ratio vs the reference run                       (1)
//   alive          0 = GPU off: no progress, zero utilization, the job stalls at the next barrier
//   out            utilizations of each GPU averaged over the step
// no allocation; throws std::invalid_argument on span size mismatch or dt <= 0
void stepTrainingJob(const TrainingJobSpec& job, JobState& st, double t, double dt,
                     std::span<const double> speed_compute, std::span<const double> speed_memory,
                     std::span<const char> alive, std::span<Utilization> out,
                     const JobStepExtras* extras = nullptr);

// the same step in parts, for a caller that runs the GPUs in fixed chunks on several threads (the
// GPU layer's rack loop, docs/models/job.md "the step in chunks"); stepTrainingJob is these parts
// with one chunk. Per step:
//   c = trainingStepBegin(...)                      serial: checks, failures and restarts
//   trainingStepRun(c, g0, g1, part)                per chunk [g0, g1): pass 1, each GPU to the
//                                                   step end or its barrier
//   trainingStepMerge1(c, part)                     serial, in chunk order
//   trainingStepRelease(c)                          serial: the barrier releases if every GPU
//                                                   waits (rare: once per iteration)
//   trainingStepFinish(c, g0, g1, part)             per chunk: the ones waiting wait to the step
//                                                   end, the sums become means
//   trainingStepMerge3(c, part); trainingStepEnd(c) serial, in chunk order
// The job-level sums (map_sum, stalled time) are taken per chunk and merged in chunk order, so
// for a fixed partition the results do not depend on which thread ran which chunk. A chunk whose
// GPUs do not all wait after pass 1 (canRelease false) may finish at once: the job cannot
// release in this step.
// the utilizations as separate arrays (one per field, size of the job; no compute_bound): what
// the GPU layer's kernel reads directly, instead of the 48-byte Utilization per GPU
struct UtilArrays {
  double *a_sm = nullptr, *a_hbm = nullptr, *a_nvlink = nullptr, *a_network = nullptr;
  double* memory_bound = nullptr;
};
struct JobStepIo {
  std::span<const double> speed_compute, speed_memory;
  std::span<const char> alive;
  std::span<Utilization> out;  // or, if arrays.a_sm is set, arrays (out is then not used)
  const JobStepExtras* extras = nullptr;
  UtilArrays arrays{};
};
struct JobStepCtx {  // what the whole job decides for the step
  double t = 0, dt = 0, ta = 0, tb = 0, t_run = 0, outside = 0;
  bool run = false, all_ok = true, zeroed = false;
  Utilization idle;
  // reductions over the chunks: every GPU waits after pass 1; some live GPU is not waiting at
  // the end (the job is not blocked); the latest arrival of those waiting at the end   (s)
  bool all_waiting = true, running = false;
  double t_block = 0;
  // the fast path of pass 1 (trainingStepRunFinish): a live GPU whose phase goes on past the
  // step end. Per phase (up to kFastPhases; nfast = 0: none): its reference duration, what sets
  // its rate (FastPhase kinds), its map categories (lc < 0: the GPU's clock cause) and the
  // utilizations the step leaves, the same operations the general path does per GPU
  static constexpr int kFastPhases = 16;
  // the rate: the compute or the memory speed, 1, or the collective's (commRate at the GPU's
  // bandwidth fractions)
  enum FastKind : int { kFastNone, kFastCompute, kFastMemory, kFastOne, kFastComm };
  struct FastPhase {
    const PhaseSpec* spec = nullptr;
    double dur = 0;  // (s)
    int kind = kFastNone, uc = 0, lc = 0;
    double a_sm = 0, a_hbm = 0, a_nvl = 0, a_net = 0, mem = 0;  // (1) (in this order: job_fast)
  };
  int nfast = 0;
  FastPhase fast[kFastPhases];
  // the utilizations a live GPU leaves that waits at the barrier over the whole step: a_sm,
  // a_hbm, a_nvlink, a_network, memory_bound (the waiting fast path; set with the phases) (1)
  double wait_util[5] = {};
  // known at the start: a GPU of the job (JobState::run_hints) takes the fast path in this step,
  // so it runs on past the step end and the job cannot release its barrier in this step; every
  // chunk then finishes its GPUs in pass 1 (none waits for the release decision)
  bool runs_on = false;
  // the first GPU found running on past the step end, in chunk order (trainingStepMerge3), or
  // npos; and each chunk's first and last (the next step's JobState::run_hints)
  std::size_t run_gpu = std::numeric_limits<std::size_t>::max();
  std::size_t hints[JobState::kRunHints] = {};
  int nhints = 0;
};
struct JobStepPart {                                  // one chunk's share of the reductions
  double map1[kTimeCats] = {}, map3[kTimeCats] = {};  // pass 1's and finish's map sums  (s)
  bool all_waiting = true, running = false;
  double t_block = -std::numeric_limits<double>::infinity();
  std::size_t running_gpu = std::numeric_limits<std::size_t>::max();   // the part's first (npos)
  std::size_t running_last = std::numeric_limits<std::size_t>::max();  // and its last
};
JobStepCtx trainingStepBegin(const TrainingJobSpec& job, JobState& st, double t, double dt,
                             const JobStepIo& io);
void trainingStepRun(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                     const JobStepIo& io, std::size_t g0, std::size_t g1, JobStepPart& part);
// after trainingStepRun: whether the chunk must wait for the others before it finishes (every
// GPU of the chunk waits, so the job may release in this step)
inline bool trainingStepCanRelease(const JobStepCtx& c, const JobStepPart& part) {
  return c.run && c.all_ok && part.all_waiting && !c.runs_on;
}
void trainingStepMerge1(JobState& st, JobStepCtx& c, const JobStepPart& part);
// the barrier release(s) within the step if every GPU waits; returns whether it released
bool trainingStepRelease(const TrainingJobSpec& job, JobState& st, JobStepCtx& c,
                         const JobStepIo& io);
// the same release in parts of the job's GPUs, for a caller that runs them on several threads
// (the GPU layer's stepChunks); trainingStepRelease is these with one part. While
// trainingReleaseDue(c):
//   parts[k] = {}; trainingReleaseScan(st, g0, g1, parts[k])   per part: latest arrival,
//                                                               straggler candidate
//   r = trainingReleaseDecide(job, st, c, parts)    serial: the release time, the straggler's
//                                                   shares, the iteration or checkpoint it ends
//   trainingReleaseBook(st, c, io, r, g0, g1, parts[k])  per part: each GPU's wait to the release
//   [if r.snapshot: trainingReleaseMergeBook(st, r, parts)  serial: the sums so far, the
//                                                           checkpoint's copy of the maps]
//   trainingReleaseAdvance(job, st, c, io, r, g0, g1, parts[k])  per part: each GPU into the
//                                                  next phase, on to the step end or a barrier
//   trainingReleaseMerge(st, c, r, parts)          serial: the sums in part order, all waiting?
// (without a snapshot, a part may book and advance in one pass.) The job's map sums and the
// straggler's caused wait are summed per part and merged in part order: for a fixed partition
// the results do not depend on the thread count.
struct JobReleasePart {
  double tr = -std::numeric_limits<double>::infinity();      // latest arrival      (s)
  double least = std::numeric_limits<double>::infinity();    // least wait since the last release
  std::size_t gs = std::numeric_limits<std::size_t>::max();  // and its GPU
  double map[kTimeCats] = {};  // the part's additions to the job's map sums                (s)
  double caused = 0;           // the others' waits booked to the straggler (GPU-seconds)  (s)
  bool all_waiting = true;     // every GPU of the part at a barrier again
};
struct JobRelease {
  double tr = 0;                                             // the release time (s)
  std::size_t gs = std::numeric_limits<std::size_t>::max();  // the straggler
  double share[kWaitCats] = {};  // its losses as shares (per-GPU maps only)           (1)
  bool attribute = false;        // per-GPU maps: the waits are attributed
  bool snapshot = false;         // a checkpoint ends: its copy of the maps after the waits
  int next = 0;                  // the phase every GPU starts
};
inline bool trainingReleaseDue(const JobStepCtx& c) {
  return c.run && c.all_waiting && c.all_ok;
}
void trainingReleaseScan(const JobState& st, std::size_t g0, std::size_t g1, JobReleasePart& part);
JobRelease trainingReleaseDecide(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                                 std::span<JobReleasePart> parts);
void trainingReleaseBook(JobState& st, const JobStepCtx& c, const JobStepIo& io,
                         const JobRelease& r, std::size_t g0, std::size_t g1, JobReleasePart& part);
void trainingReleaseMergeBook(JobState& st, const JobRelease& r, std::span<JobReleasePart> parts);
void trainingReleaseAdvance(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                            const JobStepIo& io, const JobRelease& r, std::size_t g0,
                            std::size_t g1, JobReleasePart& part);
void trainingReleaseMerge(JobState& st, JobStepCtx& c, const JobRelease& r,
                          std::span<JobReleasePart> parts);
void trainingStepFinish(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                        const JobStepIo& io, std::size_t g0, std::size_t g1, JobStepPart& part);
// pass 1 and, for every GPU from the first after which the part is known not to release
// (trainingStepCanRelease false: some GPU of the part runs on), the finish at once, in one pass
// over the GPUs' state; returns that first GPU (g1: none). The caller finishes [g0, first) once
// the part is known, or after the release decision. The same results as trainingStepRun and then
// trainingStepFinish, up to the order of the sums in part.map3.
// runs_on: a GPU of the part is known to run on past the step end (trainingStepRunsOn on the
// part's own hints), as c.runs_on is for the whole job
std::size_t trainingStepRunFinish(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                                  const JobStepIo& io, std::size_t g0, std::size_t g1,
                                  JobStepPart& part, bool runs_on = false);
// whether one of the GPUs hints[0, n) (past the end: none) runs on past the end of the step of
// c on the fast path, so that it cannot wait at a barrier in the step: the job cannot release in
// it (trainingStepBegin's c.runs_on from the last step's JobState::run_hints; a part's own last
// running GPUs, JobStepPart::running_gpu and running_last, for a caller that runs its parts
// several steps ahead, the GPU layer's blocks)
bool trainingStepRunsOn(const JobState& st, const JobStepCtx& c, const JobStepIo& io,
                        const std::size_t* hints, int n);
void trainingStepMerge3(JobState& st, JobStepCtx& c, const JobStepPart& part);
void trainingStepEnd(JobState& st, const JobStepCtx& c);

// the job's bottleneck map: the mean over its GPUs weighted by w (group sizes; empty: 1), from
// JobState::map_sum, which the steps accumulate with the same weights                (s)
void jobTimeMap(const JobState& st, std::span<const double> w, double out[kTimeCats]);
// the barrier-wait attribution of the job: mean over its GPUs (weights as jobTimeMap); NaN
// without per-GPU maps (per_gpu_map false: the attribution reads them)                 (s)
void jobWaitMap(const JobState& st, std::span<const double> w, double out[kWaitCats]);
// the entry (GPU or group) whose slowness made the others wait longest, -1 if none (or without
// per-GPU maps); caused: that wait, GPU-seconds of the others / the job's GPUs (mean per GPU),
// NaN without per-GPU maps                                                                  (s)
int jobTopStraggler(const JobState& st, double* caused);
// useful work / possible work: iterations kept (completed - lost) x the iteration's reference
// work D (sum of the phase durations) / wall time since the start (t clipped to [start, stop]);
// 0 before the start                                                                     (1)
double jobGoodput(const TrainingJobSpec& job, const JobState& st, double t);
// the iterations' work in whole iterations of the full job: each iteration counted by the share of
// the job's replicas that ran it (1 unless replicas were excluded); kept: without the lost ones (1)
double jobWorkIterations(const JobState& st, bool kept);

// phase GPU g is in (or waits in front of); the name of the pseudo phases: "iteration_end",
// "checkpoint"
const std::string& currentPhaseName(const TrainingJobSpec& job, const JobState& st, int g);
PhaseSpec::Bound currentPhaseBound(const TrainingJobSpec& job, const JobState& st, int g);

Utilization utilizationOf(const PhaseSpec& p);

// default GB200-class LLM training iteration (docs/models/workload.md "Default job", (a)), 3.0 s:
//   forward 0.80 s Compute | backward 1.60 s Compute | bubble 0.20 s Idle |
//   allreduce 0.25 s Communication, barrier | optimizer 0.15 s Memory
TrainingJobSpec defaultTrainingJob();

//---------------------------------------------------------------------------------------------
// inference serving: utilization follows a load profile (memory-bound decode [WL36])
struct InferenceSpec {
  std::vector<double> t;     // profile times, strictly increasing                    (s)
  std::vector<double> load;  // offered load at t, 0..1; held constant outside         (1)
  // (a) memory-bound decode, calibrated with the B200 catalog entry of the GPU power model at the
  // 1597 MHz memory-bound clock: full load 436 W (B200 LLM serving at util >= 90 %: 387-458 W),
  // zero load 251 W (util < 10 %: ~250 W) [K4]; about half the activity of a
  // bandwidth-saturating kernel (a_sm 0.15, a_hbm 1 -> 650 W)
  double a_sm_at_full = 0.08;       // (1)
  double a_hbm_at_full = 0.50;      // (1)
  double a_nvlink_at_full = 0.15;   // tensor-parallel all-reduce per token            (1)
  double a_network_at_full = 0.05;  // request traffic, KV transfer                   (1)
  Utilization idle{0.04, 0.0, 0.0, 0.0, 0.0, 0.0};  // at zero load: server up, clocks up (1)
  double memory_bound_share = 1.0;  // fraction of busy time in memory-bound kernels  (1)
};
// throws std::invalid_argument on malformed profiles or values outside [0, 1]
void validateInference(const InferenceSpec& s);
// a = idle + L(t) (a_full - idle), L linearly interpolated; memory_bound = memory_bound_share
Utilization inferenceUtilization(const InferenceSpec& s, double t);
// constant-load profile
InferenceSpec defaultInference(double load = 1.0);

//---------------------------------------------------------------------------------------------
// trace replay: per-GPU samples of utilizations or of board power
struct TraceSeries {
  std::vector<double> t;                                 // sample times, increasing (s)
  std::vector<double> a_sm, a_hbm, a_nvlink, a_network;  // each empty or size of t  (1)
  std::vector<double> P;                                 // board power; empty or size of t (W)
};
struct TraceSpec {
  std::vector<TraceSeries> gpus;  // one series per GPU
  double t_offset = 0;            // simulation time of trace time 0                 (s)
  bool loop = false;              // repeat with period t.back() - t.front() (else hold ends)
};
// throws std::invalid_argument naming the GPU and field
void validateTrace(const TraceSpec& s);
Utilization traceUtilization(const TraceSpec& s, int gpu, double t);
bool traceHasPower(const TraceSpec& s, int gpu);
double tracePower(const TraceSpec& s, int gpu, double t);  // (W); 0 if the series has none

}  // namespace dctwin
