#include "models/workload.h"

#include "models/job_fast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace dctwin {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument(what);
}

bool isFraction(double a) {
  return std::isfinite(a) && a >= 0.0 && a <= 1.0;
}

void checkUtil(const std::string& where, double a_sm, double a_hbm, double a_nvlink,
               double a_network) {
  const double a[4] = {a_sm, a_hbm, a_nvlink, a_network};
  const char* names[4] = {"a_sm", "a_hbm", "a_nvlink", "a_network"};
  for (int i = 0; i < 4; ++i)
    if (!isFraction(a[i]))
      fail(where + ": " + names[i] + " = " + std::to_string(a[i]) + " is outside [0, 1]");
}

double sumDurations(const TrainingJobSpec& job) {
  double D = 0;
  for (const PhaseSpec& p : job.phases) D += p.duration;
  return D - job.stage_skip_total;
}

// the work a GPU has done on entering phase p: what its pipeline stage skips of it
inline double entryWork(const TrainingJobSpec& job, const GpuProgress& s, int p) {
  const std::size_t n = job.phases.size();
  if (job.stage_skip.empty() || std::size_t(p) >= n) return 0.0;
  return job.stage_skip[std::size_t(s.stage) * n + std::size_t(p)];
}

// relative tolerance of the checkpoint due test (the same in the run and in T_ref)
constexpr double kCheckpointTol = 1e-9;
// (kWorkTol, the share of a phase's work below which it counts as done: workload.h)

// iterations between checkpoints in the reference run (all rates 1)
long checkpointEvery(const TrainingJobSpec& job, double D) {
  double k = std::ceil(job.checkpoint_interval * (1.0 - kCheckpointTol) / D);
  return std::max(1L, static_cast<long>(k));
}

bool checkpointsOn(const TrainingJobSpec& job) {
  return job.checkpoint_interval > 0 && job.checkpoint_duration > 0;
}

// linear interpolation in (x, y), held at the end values; x strictly increasing, size >= 1
double interpHold(const std::vector<double>& x, const std::vector<double>& y, double t) {
  if (t <= x.front()) return y.front();
  if (t >= x.back()) return y.back();
  auto it = std::upper_bound(x.begin(), x.end(), t);
  std::size_t i = static_cast<std::size_t>(it - x.begin());  // x[i-1] <= t < x[i]
  double w = (t - x[i - 1]) / (x[i] - x[i - 1]);
  return y[i - 1] + w * (y[i] - y[i - 1]);
}

void checkSeries(const std::string& where, const std::vector<double>& t) {
  if (t.empty()) fail(where + ": no samples");
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isfinite(t[i])) fail(where + ": non-finite time");
    if (i > 0 && !(t[i] > t[i - 1])) fail(where + ": times must be strictly increasing");
  }
}

void addScaled(Utilization& acc, const Utilization& u, double w) {
  acc.a_sm += w * u.a_sm;
  acc.a_hbm += w * u.a_hbm;
  acc.a_nvlink += w * u.a_nvlink;
  acc.a_network += w * u.a_network;
  acc.compute_bound += w * u.compute_bound;
  acc.memory_bound += w * u.memory_bound;
}

// a GPU's utilization in the step's output, as a record or in the arrays (JobStepIo)
[[gnu::always_inline]] inline Utilization loadU(const JobStepIo& io, std::size_t g) {
  const UtilArrays& a = io.arrays;
  if (!a.a_sm) return io.out[g];
  return Utilization{a.a_sm[g], a.a_hbm[g], a.a_nvlink[g], a.a_network[g], 0.0, a.memory_bound[g]};
}
[[gnu::always_inline]] inline void storeU(const JobStepIo& io, std::size_t g,
                                          const Utilization& u) {
  const UtilArrays& a = io.arrays;
  if (!a.a_sm) {
    io.out[g] = u;
    return;
  }
  a.a_sm[g] = u.a_sm;
  a.a_hbm[g] = u.a_hbm;
  a.a_nvlink[g] = u.a_nvlink;
  a.a_network[g] = u.a_network;
  a.memory_bound[g] = u.memory_bound;
}
void addU(const JobStepIo& io, std::size_t g, const Utilization& idle, double w) {
  Utilization u = loadU(io, g);
  addScaled(u, idle, w);
  storeU(io, g, u);
}

}  // namespace

//---------------------------------------------------------------------------------------------
Utilization utilizationOf(const PhaseSpec& p) {
  Utilization u{p.a_sm, p.a_hbm, p.a_nvlink, p.a_network, 0.0, 0.0};
  if (p.bound == PhaseSpec::Bound::Compute) u.compute_bound = 1.0;
  if (p.bound == PhaseSpec::Bound::Memory) u.memory_bound = 1.0;
  return u;
}

void validateTrainingJob(const TrainingJobSpec& job) {
  if (job.phases.empty()) fail("training job: no phases");
  for (std::size_t i = 0; i < job.phases.size(); ++i) {
    const PhaseSpec& p = job.phases[i];
    std::string where = "training job phase " + std::to_string(i) + " '" + p.name + "'";
    if (!std::isfinite(p.duration) || p.duration < 0)
      fail(where + ": duration = " + std::to_string(p.duration) + " must be finite and >= 0");
    checkUtil(where, p.a_sm, p.a_hbm, p.a_nvlink, p.a_network);
  }
  if (!(sumDurations(job) > 0)) fail("training job: the phases add up to a zero iteration time");
  checkUtil("training job idle", job.idle.a_sm, job.idle.a_hbm, job.idle.a_nvlink,
            job.idle.a_network);
  const Utilization& c = job.checkpoint_util;
  checkUtil("training job checkpoint_util", c.a_sm, c.a_hbm, c.a_nvlink, c.a_network);
  if (!std::isfinite(job.start)) fail("training job: start must be finite");
  if (std::isnan(job.stop) || job.stop < job.start) fail("training job: stop < start");
  if (!std::isfinite(job.checkpoint_interval) || job.checkpoint_interval < 0)
    fail("training job: checkpoint_interval must be finite and >= 0");
  if (!std::isfinite(job.checkpoint_duration) || job.checkpoint_duration < 0)
    fail("training job: checkpoint_duration must be finite and >= 0");
  if (!std::isfinite(job.restart_time) || job.restart_time < 0)
    fail("training job: restart_time must be finite and >= 0");
  if (job.hot_spares < 0) fail("training job: hot_spares must be >= 0");
  for (const PhaseSpec& p : job.phases)
    if (p.level < 0 || p.level > 3 || !(p.comm_beta >= 0) || !std::isfinite(p.comm_beta))
      fail("training job phase '" + p.name + "': level must be 0..3 and comm_beta >= 0");
  if (job.stages < 1 || job.stages > 0xffff) fail("training job: stages must be 1..65535");
  const std::size_t n = job.phases.size();
  if (!job.stage_skip.empty()) {
    if (job.stage_skip.size() != std::size_t(job.stages) * n)
      fail("training job: stage_skip needs stages x phases entries");
    for (int k = 0; k < job.stages; ++k) {
      double sum = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const double x = job.stage_skip[std::size_t(k) * n + i];
        if (!(x >= 0) || x > job.phases[i].duration)
          fail("training job phase '" + job.phases[i].name + "': stage " + std::to_string(k) +
               " skips " + std::to_string(x) + " s of it, outside [0, its duration]");
        sum += x;
      }
      if (std::abs(sum - job.stage_skip_total) > 1e-9 * std::max(1.0, sumDurations(job)))
        fail("training job: stage " + std::to_string(k) + " skips " + std::to_string(sum) +
             " s in all, not stage_skip_total");
    }
  } else if (job.stage_skip_total != 0) {
    fail("training job: stage_skip_total without stage_skip");
  }
}

JobState makeJobState(const TrainingJobSpec& job, int n_gpu, bool per_gpu_map) {
  validateTrainingJob(job);
  if (n_gpu < 1) fail("training job: needs at least one GPU, got " + std::to_string(n_gpu));
  JobState st;
  st.gpu.assign(static_cast<std::size_t>(n_gpu), GpuProgress{});
  // the stages in contiguous blocks of the job's GPUs (entries), each starting its first phase
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    st.gpu[g].stage = std::uint16_t(g * std::size_t(job.stages) / st.gpu.size());  // (one GPU each)
    st.gpu[g].work = entryWork(job, st.gpu[g], 0);
  }
  st.per_gpu_map = per_gpu_map;
  if (job.phases.size() + 2 > 0xffff) fail("training job: more than 65,533 phases");
  st.phase_now.assign(static_cast<std::size_t>(n_gpu), 0);
  if (per_gpu_map) {  // each GPU's map and the barrier-wait attribution that reads it
    st.time_map.assign(static_cast<std::size_t>(n_gpu) * kTimeCats, 0.0);
    st.wait_map.assign(static_cast<std::size_t>(n_gpu) * kWaitCats, 0.0);
    st.caused.assign(static_cast<std::size_t>(n_gpu), 0.0);
    st.loss_mark.assign(static_cast<std::size_t>(n_gpu) * (kLossCats + 1), 0.0);
    if (job.restart_on_failure) {  // what a failure rolls back to: only a job that restarts
      st.time_ckpt.assign(st.time_map.size(), 0.0);
      st.wait_ckpt = st.wait_map;
      st.caused_ckpt = st.caused;
    }
  }
  st.t_last_iteration_end = job.start;
  st.t_last_checkpoint_end = job.start;
  st.reference_iteration_time = referenceIterationTime(job);
  return st;
}

void setJobStages(const TrainingJobSpec& job, JobState& st, std::span<const double> weight) {
  if (weight.size() != st.gpu.size()) fail("setJobStages: one weight per GPU entry");
  double total = 0;
  for (double w : weight) total += w;
  double before = 0;
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    const double k = std::floor(before * double(job.stages) / total + 1e-9);
    st.gpu[g].stage = std::uint16_t(std::clamp(k, 0.0, double(job.stages - 1)));
    st.gpu[g].work = entryWork(job, st.gpu[g], st.gpu[g].phase);
    before += weight[g];
  }
}

double referenceIterationTime(const TrainingJobSpec& job) {
  double D = sumDurations(job);
  if (!checkpointsOn(job) || !(D > 0)) return D;
  return D + job.checkpoint_duration / static_cast<double>(checkpointEvery(job, D));
}

double meanIterationTime(const JobState& st) {
  return st.iterations > 0 ? st.sum_iteration_time / static_cast<double>(st.iterations) : 0.0;
}

double throughputRatio(const JobState& st) {
  double m = meanIterationTime(st);
  return m > 0 ? st.reference_iteration_time / m : 0.0;
}

const std::string& currentPhaseName(const TrainingJobSpec& job, const JobState& st, int g) {
  static const std::string kEnd = "iteration_end", kCheckpoint = "checkpoint";
  int n = static_cast<int>(job.phases.size());
  int p = st.gpu.at(static_cast<std::size_t>(g)).phase;
  if (p == n) return kEnd;
  if (p == n + 1) return kCheckpoint;
  return job.phases[static_cast<std::size_t>(p)].name;
}

PhaseSpec::Bound currentPhaseBound(const TrainingJobSpec& job, const JobState& st, int g) {
  int n = static_cast<int>(job.phases.size());
  const GpuProgress& s = st.gpu.at(static_cast<std::size_t>(g));
  if (s.waiting || s.phase >= n) return PhaseSpec::Bound::Idle;
  return job.phases[static_cast<std::size_t>(s.phase)].bound;
}

//---------------------------------------------------------------------------------------------
namespace {

// what one GPU sees this step beyond its clocks
struct GpuInputs {
  double v_compute = 1, v_memory = 1;  // speeds of Compute and Memory phases       (1)
  double f_nvlink = 1, f_network = 1;  // bandwidth fractions of the fabric levels  (1)
  int cause = kTimeClockOther;         // TimeCat of a clock below the reference
};

// where one GPU's seconds go: the job's weighted sum, and the GPU's own map if it keeps one
struct MapAcc {
  double* job;         // JobState::map_sum
  GpuMap<double> gpu;  // JobState::time(g), or p null
  double w;            // the GPU's weight (group size)
  [[gnu::always_inline]] void add(int cat, double dt) const {
    job[cat] += w * dt;
    if (gpu.p) gpu[cat] += dt;
  }
};

// GPU g's map, or none (p null) where the job keeps no per-GPU maps
GpuMap<double> gpuMapOf(JobState& st, std::size_t g) {
  return st.per_gpu_map ? st.time(g) : GpuMap<double>{};
}

MapAcc mapOf(JobState& st, std::size_t g, double w) {
  return MapAcc{st.map_sum, gpuMapOf(st, g), w};
}

// a segment of dt seconds at progress rate `rate` in a phase: its useful part to the phase's
// category, the rest to its loss category (the bottleneck map)
[[gnu::always_inline]] inline void account(const MapAcc& tm, int useful_cat, int loss_cat,
                                           double dt, double rate) {
  const double useful = dt * std::clamp(rate, 0.0, 1.0);
  tm.add(useful_cat, useful);
  tm.add(loss_cat, dt - useful);
}

// the map category of a Communication phase's useful time: its fabric level's
int commCategory(const PhaseSpec& p) {
  return p.level == 1   ? kTimeCommNvlink
         : p.level == 2 ? kTimeCommNetwork
         : p.level == 3 ? kTimeHostMemory
                        : kTimeCommOther;
}

// progress rate of a collective at bandwidth fraction f: d / (d + beta (1/f - 1))
double commRate(const PhaseSpec& p, const GpuInputs& in) {
  const double f = p.level == 1 ? in.f_nvlink : p.level == 2 ? in.f_network : 1.0;
  if (f >= 1.0 || p.comm_beta <= 0) return 1.0;
  if (!(f > 0)) return 0.0;
  const double stretched = p.duration + p.comm_beta * (1.0 / f - 1.0);
  return stretched > 0 ? p.duration / stretched : 1.0;
}

// advance one live GPU from s.t_local towards tb until it reaches a barrier (waiting, t_local =
// arrival time) or tb; accumulates utilization x time into acc and its time into the map.
// Inlined, so that acc stays in registers: out of line, the caller's scalar stores of acc and
// runGpu's paired loads of it missed the store-to-load forwarding (18 % of runGpu's time)
[[gnu::always_inline]] inline void runGpu(const TrainingJobSpec& job, GpuProgress& s,
                                          const MapAcc& tm, double tb, const GpuInputs& in,
                                          Utilization& acc) {
  const int n = static_cast<int>(job.phases.size());
  while (!s.waiting) {
    double dur, rate;
    int useful_cat, loss_cat;
    Utilization u;
    if (s.phase == n + 1) {  // checkpoint
      dur = job.checkpoint_duration;
      rate = 1.0;
      u = job.checkpoint_util;
      u.compute_bound = u.memory_bound = 0.0;
      useful_cat = loss_cat = kTimeCheckpoint;
    } else {
      const PhaseSpec& p = job.phases[static_cast<std::size_t>(s.phase)];
      dur = p.duration;
      switch (p.bound) {
        case PhaseSpec::Bound::Compute:
          rate = in.v_compute, useful_cat = kTimeCompute, loss_cat = in.cause;
          break;
        case PhaseSpec::Bound::Memory:
          rate = in.v_memory, useful_cat = kTimeMemory, loss_cat = kTimeHbmThrottle;
          break;
        case PhaseSpec::Bound::Communication:
          rate = commRate(p, in);
          useful_cat = commCategory(p);
          loss_cat = kTimeFabricDegraded;
          break;
        default:
          rate = 1.0, useful_cat = loss_cat = kTimeBubble;
          break;
      }
      u = utilizationOf(p);
    }
    double remaining = dur - s.work;
    if (remaining > kWorkTol * dur) {
      if (!(rate > 0)) {  // no progress at all: runs (stuck) to the end of the step
        addScaled(acc, u, tb - s.t_local);
        account(tm, useful_cat, loss_cat, tb - s.t_local, 0.0);
        s.t_local = tb;
        return;
      }
      double tf = s.t_local + remaining / rate;
      if (tf > tb) {  // the phase goes on past the step
        addScaled(acc, u, tb - s.t_local);
        account(tm, useful_cat, loss_cat, tb - s.t_local, rate);
        s.work += rate * (tb - s.t_local);
        s.t_local = tb;
        return;
      }
      addScaled(acc, u, tf - s.t_local);
      account(tm, useful_cat, loss_cat, tf - s.t_local, rate);
      s.t_local = tf;
    }
    // the phase is done at s.t_local: move on
    s.work = 0;
    if (s.phase == n + 1) {  // after a checkpoint all start the next iteration together
      s.phase = 0;
      s.waiting = true;
    } else {
      s.phase += 1;
      if (s.phase == n || job.phases[static_cast<std::size_t>(s.phase)].barrier) s.waiting = true;
      s.work = entryWork(job, s, s.phase);
    }
  }
}

// the map at the end of a checkpoint (or a restart): what a failure rolls back to
void snapshotMap(JobState& st) {
  if (st.time_ckpt.size() == st.time_map.size()) {  // (kept only for a job that restarts)
    std::copy(st.time_map.begin(), st.time_map.end(), st.time_ckpt.begin());
    std::copy(st.wait_map.begin(), st.wait_map.end(), st.wait_ckpt.begin());
    std::copy(st.caused.begin(), st.caused.end(), st.caused_ckpt.begin());
  }
  std::copy(st.map_sum, st.map_sum + kTimeCats, st.map_sum_ckpt);
}

// a failure rolls a map back to its checkpoint: what it gained since is lost work
template <class M, class C>
void rollBackMap(const M& tm, const C& ck) {
  double lost = 0;
  for (int c = 0; c < kTimeCats; ++c) {
    if (c == kTimeLostWork) continue;
    lost += tm[c] - ck[c];
    tm[c] = ck[c];
  }
  tm[kTimeLostWork] += lost;
}

//---------------------------------------------------------------------------------------------
// barrier-wait attribution (docs/models/job.md): the losses of the straggler since the last
// release decide whom the others' waits are booked to

double* lossMark(JobState& st, std::size_t g) {
  return st.loss_mark.data() + g * (kLossCats + 1);
}

// the straggler's loss parts since the last release, as shares (kWaitCats, sum 1)
void stragglerShares(JobState& st, std::size_t gs, double share[kWaitCats]) {
  const GpuMap<const double> tm = std::as_const(st).time(gs);
  const double* mk = lossMark(st, gs);
  double tot = 0;
  for (int c = 0; c < kLossCats; ++c) {
    share[c] = std::max(0.0, tm[kLossFirst + c] - mk[c]);
    tot += share[c];
  }
  share[kLossCats] = 0;
  if (tot > 1e-12) {
    for (int c = 0; c < kLossCats; ++c) share[c] /= tot;
  } else {  // the straggler lost nothing: the others were faster than the reference (imbalance)
    for (int c = 0; c < kLossCats; ++c) share[c] = 0;
    share[kLossCats] = 1;
  }
}

// books GPU g's barrier wait since the last release by the straggler's shares and moves its
// marks to now; returns that wait x the entry's weight (GPU-seconds)
double attributeWait(JobState& st, std::size_t g, const double share[kWaitCats]) {
  const GpuMap<const double> tm = std::as_const(st).time(g);
  double* mk = lossMark(st, g);
  const double w = tm[kTimeBarrierWait] - mk[kLossCats];
  if (w > 0) {
    double* wm = st.wait(g);
    for (int c = 0; c < kWaitCats; ++c) wm[c] += w * share[c];
  }
  for (int c = 0; c < kLossCats; ++c) mk[c] = tm[kLossFirst + c];
  mk[kLossCats] = tm[kTimeBarrierWait];
  return w > 0 ? w * (st.weight.size() == st.gpu.size() ? st.weight[g] : 1.0) : 0.0;
}

// every mark to the current map (after a rollback or a restart)
void markAll(JobState& st) {
  if (!st.per_gpu_map) return;  // no per-GPU map, no attribution
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    const GpuMap<const double> tm = std::as_const(st).time(g);
    double* mk = lossMark(st, g);
    for (int c = 0; c < kLossCats; ++c) mk[c] = tm[kLossFirst + c];
    mk[kLossCats] = tm[kTimeBarrierWait];
  }
}

// the compute and memory pace of an excluded rank: it does no work, and arrives at every barrier
// no later than a GPU of the job (its collectives and idle phases at the reference pace, which no
// GPU beats)                                                                                (1)
constexpr double kExcludedPace = 1e6;

// straggler exclusion (docs/models/failures.md "Stragglers", policy exclude), at the restart a
// failJob begins: the entries marked to leave are carried from now on like ranks on a hot spare
// that take no spare (they never wait for the others' GPUs, and their time is the map's
// kTimeExcluded from here: excluded_mark), and the share of the job's work per iteration becomes
// the replicas kept. The iterations' work so far is booked at the old share first.
//
// A replica rejoining (4: on its own GPU, 5: on its replaced GPU) leaves excluded_list: its time
// since its exclusion moves to kTimeExcluded in its own map and the job's (what jobTimeMap did on
// the fly), its waits since then leave its wait attribution, and from here it runs as a rank of
// the job again.
void excludeEntries(JobState& st) {
  bool any = false;
  constexpr std::size_t kMark = kTimeCats + kWaitCats + 1;
  const bool marked = st.per_gpu_map && st.excluded_mark.size() == st.excluded_list.size() * kMark;
  for (std::size_t i = 0; i < st.excluded_list.size();) {
    const std::size_t g = st.excluded_list[i];
    if (st.excluded[g] != 4 && st.excluded[g] != 5) {
      ++i;
      continue;
    }
    any = true;
    if (marked) {
      const double* mk = st.excluded_mark.data() + i * kMark;
      const GpuMap<double> tm = st.time(g);
      const double wg = st.weight.size() == st.gpu.size() ? st.weight[g] : 1.0;
      for (int c = 0; c < kTimeCats; ++c) {
        if (c == kTimeExcluded) continue;
        const double d = tm[c] - mk[c];
        tm[c] -= d;
        tm[kTimeExcluded] += d;
        st.map_sum[c] -= wg * d;
        st.map_sum[kTimeExcluded] += wg * d;
      }
      std::copy_n(mk + kTimeCats, kWaitCats, st.wait(g));
      st.caused[g] = mk[kTimeCats + kWaitCats];
      st.excluded_mark.erase(st.excluded_mark.begin() + long(i * kMark),
                             st.excluded_mark.begin() + long((i + 1) * kMark));
    }
    st.excluded_list.erase(st.excluded_list.begin() + long(i));
    // on its own GPU: a rank like the others; on its replaced GPU: carried like a rank on a spare
    st.gpu[g].on_spare = st.excluded[g] == 5;
    st.excluded[g] = st.excluded[g] == 5 ? 3 : 0;
  }
  if (any) markAll(st);
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    if (st.excluded[g] != 1) continue;
    any = true;
    st.excluded[g] = 2;
    st.gpu[g].on_spare = true;
    st.excluded_list.push_back(g);
    if (st.per_gpu_map) {
      const GpuMap<const double> tm = std::as_const(st).time(g);
      for (int c = 0; c < kTimeCats; ++c) st.excluded_mark.push_back(tm[c]);
      const double* wm = st.wait(g);
      st.excluded_mark.insert(st.excluded_mark.end(), wm, wm + kWaitCats);
      st.excluded_mark.push_back(st.caused[g]);
    }
  }
  if (!any) return;
  const double kept = double(st.iterations) - st.lost_iterations, done = double(st.iterations);
  st.work_kept_base += st.work_share * (kept - st.it_kept_base);
  st.work_done_base += st.work_share * (done - st.it_done_base);
  st.it_kept_base = kept;
  st.it_done_base = done;
  st.work_share = st.work_share_next;
}

// a GPU of the job died: the work since the last checkpoint is lost, every rank starts over
// from phase 0 once the restart is done; failed GPUs move to hot spares while there are any
void failJob(const TrainingJobSpec& job, JobState& st, std::span<const char> alive) {
  st.failures += 1;
  st.interrupt = false;
  // the iterations since the checkpoint are lost (they stay counted as completed: the throughput
  // ratio measures the pace of the iterations that ran)
  st.lost_iterations += double(st.iterations - st.iterations_at_checkpoint);
  st.iterations_at_checkpoint = st.iterations;
  // (an entry excluded, or leaving now, takes no spare: exclusion below)
  const bool excl = !st.excluded.empty();
  int dead = 0, spares_used = 0;
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    if (excl && st.excluded[g]) continue;
    if (st.gpu[g].on_spare)
      ++spares_used;
    else if (!alive[g])
      ++dead;
  }
  const bool spare = dead <= job.hot_spares - spares_used;
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    GpuProgress& s = st.gpu[g];
    if (st.per_gpu_map) {
      rollBackMap(st.time(g), std::as_const(st).timeCkpt(g));
      // the wait attribution subdivides the barrier wait that just became lost work
      std::copy_n(st.wait_ckpt.data() + g * kWaitCats, kWaitCats, st.wait(g));
      st.caused[g] = st.caused_ckpt[g];
    }
    s.phase = 0;
    s.work = entryWork(job, s, 0);
    s.waiting = false;
    if (spare && !alive[g] && !s.on_spare && !(excl && st.excluded[g])) {
      s.on_spare = true;
      ++st.on_spares;
    }
  }
  rollBackMap(&st.map_sum[0], &st.map_sum_ckpt[0]);
  markAll(st);
  if (excl) excludeEntries(st);
  st.mode = spare ? 2 : 1;
  st.restart_left = job.restart_time;
}

bool jobGpuOk(const JobState& st, std::span<const char> alive, std::size_t g) {
  return alive[g] || st.gpu[g].on_spare;
}

// every rank of the job has a GPU (alive, or on a hot spare); the common case, all alive, is one
// scan of the byte flags without touching the progress records
bool allGpusOk(const JobState& st, std::span<const char> alive) {
  if (alive.empty() || std::memchr(alive.data(), 0, alive.size()) == nullptr) return true;
  for (std::size_t g = 0; g < alive.size(); ++g)
    if (!jobGpuOk(st, alive, g)) return false;
  return true;
}

// failure handling at the start of the active part [ta, tb] of a step; returns the time from
// which the job runs normally (tb: not in this step)
double handleFailures(const TrainingJobSpec& job, JobState& st, std::span<const char> alive,
                      double ta, double tb, const JobStepIo& io, const Utilization& idle,
                      std::span<const double> w) {
  const std::size_t ng = st.gpu.size();
  bool all_ok = true;
  for (std::size_t g = 0; g < ng; ++g) all_ok = all_ok && jobGpuOk(st, alive, g);
  if (st.mode == 0 && (!all_ok || st.interrupt)) failJob(job, st, alive);
  if (st.mode == 1) {
    all_ok = true;
    for (std::size_t g = 0; g < ng; ++g) all_ok = all_ok && jobGpuOk(st, alive, g);
    if (!all_ok) {  // waiting for the failed GPUs to come back
      for (std::size_t g = 0; g < ng; ++g) {
        mapOf(st, g, w.empty() ? 1.0 : w[g]).add(kTimeStalled, tb - ta);
        if (alive[g]) addU(io, g, idle, tb - ta);
      }
      st.stalled_time += tb - ta;
      return tb;
    }
    st.mode = 2;
  }
  if (st.mode != 2) return ta;
  const double r = std::min(st.restart_left, tb - ta);
  for (std::size_t g = 0; g < ng; ++g) {
    mapOf(st, g, w.empty() ? 1.0 : w[g]).add(kTimeRestart, r);
    if (alive[g]) addU(io, g, idle, r);
  }
  st.restart_left -= r;
  if (st.restart_left > 1e-12) return tb;
  // restarted from the checkpoint: the next iteration and the next checkpoint count from here
  const double t0 = ta + r;
  st.mode = 0;
  st.restart_left = 0;
  st.t_last_iteration_end = t0;
  st.t_last_checkpoint_end = t0;
  snapshotMap(st);
  markAll(st);
  return t0;
}

}  // namespace

const char* timeCatName(int c) {
  static const char* names[kTimeCats] = {
      "compute",         "memory",      "comm_nvlink", "comm_network", "comm_other",
      "host_memory",     "bubble",      "checkpoint",  "barrier_wait", "thermal",
      "power_cap",       "power_brake", "smoothing",   "clock_other",  "hbm_throttle",
      "fabric_degraded", "stalled",     "restart",     "lost_work",    "excluded"};
  return c >= 0 && c < kTimeCats ? names[c] : "?";
}

const char* waitCauseName(int w) {
  if (w == kLossCats) return "imbalance";
  return w >= 0 && w < kLossCats ? timeCatName(kLossFirst + w) : "?";
}

namespace {

double weightOf(const JobStepIo& io, std::size_t ng, std::size_t g) {
  return io.extras && io.extras->weight.size() == ng ? io.extras->weight[g] : 1.0;
}

// one live GPU (or its rank on a hot spare) from s.t_local to the step end or its next barrier;
// its map adds go to `sum` (the job's map_sum, or a chunk's share of it)
[[gnu::always_inline]] inline void advanceGpu(const TrainingJobSpec& job, JobState& st,
                                              const JobStepCtx& c, const JobStepIo& io,
                                              std::size_t g, double* sum, Utilization& u) {
  const std::size_t ng = st.gpu.size();
  // what the GPU sees this step beyond its clocks; a rank on a hot spare runs at the reference
  // speeds (its heat is elsewhere) and its utilization goes nowhere
  GpuInputs in;
  const JobStepExtras* ex = io.extras;
  if (io.alive[g]) {
    in.v_compute = io.speed_compute[g];
    in.v_memory = io.speed_memory[g];
    if (ex && ex->bw_nvlink.size() == ng) in.f_nvlink = ex->bw_nvlink[g];
    if (ex && ex->bw_network.size() == ng) in.f_network = ex->bw_network[g];
    if (ex && ex->clock_cause.size() == ng) in.cause = ex->clock_cause[g];
  } else if (!st.excluded.empty() && st.excluded[g] == 2) {
    in.v_compute = in.v_memory = kExcludedPace;  // an excluded rank holds no barrier
  }
  Utilization spare_util;
  const MapAcc tm{sum, gpuMapOf(st, g), weightOf(io, ng, g)};
  runGpu(job, st.gpu[g], tm, c.tb, in, io.alive[g] ? u : spare_util);
}

}  // namespace

namespace {

// the fast path's rate for GPU g in phase f: its compute or memory speed, 1, or the collective's
// at its links' bandwidth fractions (bw_* null: full)
[[gnu::always_inline]] inline double fastRate(const JobStepCtx::FastPhase& f, std::size_t g,
                                              const double* speed_c, const double* speed_m,
                                              const double* bw_nvl, const double* bw_net) {
  switch (f.kind) {
    case JobStepCtx::kFastCompute:
      return speed_c[g];
    case JobStepCtx::kFastMemory:
      return speed_m[g];
    case JobStepCtx::kFastComm: {
      GpuInputs in;
      if (bw_nvl) in.f_nvlink = bw_nvl[g];
      if (bw_net) in.f_network = bw_net[g];
      return commRate(*f.spec, in);
    }
    default:
      return 1.0;
  }
}

// the fast path's test that a GPU with `work` done of phase f runs on past the step end at
// `rate`: the general path's t_run + remaining / rate > tb without its division; d_fast is the
// step's run time plus a margin of 8 ulp of its end (fastSpan), which leaves the near ties to the
// general path, so that every GPU taken is one the general path would take the same way
[[gnu::always_inline]] inline bool fastRunsOn(const JobStepCtx::FastPhase& f, double work,
                                              double rate, double d_fast) {
  const double remaining = f.dur - work;
  return remaining > kWorkTol * f.dur && rate > 0 && remaining > rate * d_fast;
}
inline double fastSpan(double t_run, double tb) {
  return (tb - t_run) + 8 * std::numeric_limits<double>::epsilon() * std::abs(tb);
}

}  // namespace

JobStepCtx trainingStepBegin(const TrainingJobSpec& job, JobState& st, double t, double dt,
                             const JobStepIo& io) {
  const std::size_t ng = st.gpu.size();
  if (io.speed_compute.size() != ng || io.speed_memory.size() != ng || io.alive.size() != ng ||
      (io.out.size() != ng && !io.arrays.a_sm))
    fail("stepTrainingJob: span sizes differ from the number of GPUs of the job");
  if (!(dt > 0)) fail("stepTrainingJob: dt must be > 0");
  JobStepCtx c;
  c.t = t;
  c.dt = dt;
  c.idle = utilizationOf(job.idle);
  const double t1 = t + dt;
  c.ta = std::max(t, job.start);
  c.tb = std::min(t1, job.stop);
  const bool window = c.tb > c.ta;
  c.outside = window ? (c.ta - t) + (t1 - c.tb) : dt;  // before the start, after the stop
  // a rank on a hot spare whose own GPU is back (repaired: docs/models/failures.md) returns to it
  // and the spare goes back to the pool
  // (an excluded entry, or one rejoining, is carried without a spare: failJob's exclusion)
  if (st.on_spares > 0)
    for (std::size_t g = 0; g < ng; ++g)
      if (st.gpu[g].on_spare && io.alive[g] && (st.excluded.empty() || !st.excluded[g])) {
        st.gpu[g].on_spare = false;
        --st.on_spares;
      }
  // failures and restarts (rare): handled before the per-GPU passes, which then start at t_run
  c.all_ok = allGpusOk(st, io.alive);
  c.t_run = c.ta;
  if (window && job.restart_on_failure && (st.mode != 0 || !c.all_ok || st.interrupt)) {
    for (std::size_t g = 0; g < ng; ++g) {
      Utilization u{};
      if (io.alive[g]) addScaled(u, c.idle, c.outside);
      storeU(io, g, u);
    }
    c.zeroed = true;
    const std::span<const double> w =
        io.extras && io.extras->weight.size() == ng ? io.extras->weight : std::span<const double>();
    c.t_run = handleFailures(job, st, io.alive, c.ta, c.tb, io, c.idle, w);
    c.all_ok = allGpusOk(st, io.alive);  // ranks may have moved to hot spares
  }
  c.run = c.tb > c.t_run;
  c.t_block = c.t_run;
  // the fast path's phase table: what runGpu and the finish do for a GPU that stays in its phase
  // over the whole step, in the same operations (so its results are the general path's, bit for
  // bit)
  const std::size_t np = job.phases.size();
  if (c.run && !c.zeroed && np <= std::size_t(JobStepCtx::kFastPhases)) {
    const double d = c.tb - c.t_run, inv = 1.0 / dt;
    const JobStepExtras* ex = io.extras;
    const bool bw_nvl = ex && ex->bw_nvlink.size() == ng,
               bw_net = ex && ex->bw_network.size() == ng;
    for (std::size_t k = 0; k < np; ++k) {
      const PhaseSpec& p = job.phases[k];
      JobStepCtx::FastPhase& f = c.fast[k];
      f = JobStepCtx::FastPhase{};
      f.spec = &p;
      f.dur = p.duration;
      switch (p.bound) {
        case PhaseSpec::Bound::Compute:
          f.kind = JobStepCtx::kFastCompute, f.uc = kTimeCompute, f.lc = -1;
          break;
        case PhaseSpec::Bound::Memory:
          f.kind = JobStepCtx::kFastMemory, f.uc = kTimeMemory, f.lc = kTimeHbmThrottle;
          break;
        case PhaseSpec::Bound::Communication:
          f.kind = p.comm_beta > 0 && ((p.level == 1 && bw_nvl) || (p.level == 2 && bw_net))
                       ? JobStepCtx::kFastComm
                       : JobStepCtx::kFastOne;
          f.uc = commCategory(p);
          f.lc = kTimeFabricDegraded;
          break;
        default:
          f.kind = JobStepCtx::kFastOne, f.uc = f.lc = kTimeBubble;
          break;
      }
      // what the general path accumulates for such a GPU, then its finish's mean
      Utilization u{};
      addScaled(u, c.idle, c.outside);
      addScaled(u, utilizationOf(p), d);
      f.a_sm = u.a_sm * inv;
      f.a_hbm = u.a_hbm * inv;
      f.a_nvl = u.a_nvlink * inv;
      f.a_net = u.a_network * inv;
      f.mem = u.memory_bound * inv;
    }
    c.nfast = int(np);
    // a live GPU that waits at the barrier from the step's start to its end (the general path's
    // idle outside the window, the wait, its finish's mean)
    Utilization u{};
    addScaled(u, c.idle, c.outside);
    addScaled(u, c.idle, d);
    c.wait_util[0] = u.a_sm * inv;
    c.wait_util[1] = u.a_hbm * inv;
    c.wait_util[2] = u.a_nvlink * inv;
    c.wait_util[3] = u.a_network * inv;
    c.wait_util[4] = u.memory_bound * inv;
    // the last step's running GPUs: if one passes the fast path's test now, the job cannot
    // release in this step
    c.runs_on = trainingStepRunsOn(st, c, io, st.run_hints, st.nhints);
  }
  return c;
}

bool trainingStepRunsOn(const JobState& st, const JobStepCtx& c, const JobStepIo& io,
                        const std::size_t* hints, int n) {
  if (!c.run || c.zeroed || c.nfast == 0 || !c.all_ok) return false;
  const std::size_t ng = st.gpu.size();
  const JobStepExtras* ex = io.extras;
  const bool bw_nvl = ex && ex->bw_nvlink.size() == ng, bw_net = ex && ex->bw_network.size() == ng;
  // (pass 1's test, on the same inputs: a GPU the general path also runs on past the step end)
  for (int i = 0; i < n; ++i) {
    const std::size_t h = hints[i];
    if (h >= ng || !io.alive[h]) continue;
    const GpuProgress& s = st.gpu[h];
    if (!s.waiting && s.phase < c.nfast) {
      const JobStepCtx::FastPhase& f = c.fast[s.phase];
      const double rate = fastRate(f, h, io.speed_compute.data(), io.speed_memory.data(),
                                   bw_nvl ? ex->bw_nvlink.data() : nullptr,
                                   bw_net ? ex->bw_network.data() : nullptr);
      if (fastRunsOn(f, s.work, rate, fastSpan(c.t_run, c.tb))) return true;
    }
  }
  return false;
}

// pass 1 over [g0, g1): idle outside the job's window, then each GPU to the step end or its next
// barrier (three passes over the GPUs at most, one more per barrier passed within the step, each
// fusing what the straightforward form does in separate loops, so that a job of 10^5 GPUs streams
// its state through the cache as few times as possible)
void trainingStepRun(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                     const JobStepIo& io, std::size_t g0, std::size_t g1, JobStepPart& part) {
  const std::size_t ng = st.gpu.size();
  bool all_waiting = true;
  for (std::size_t g = g0; g < g1; ++g) {
    GpuProgress& s = st.gpu[g];
    Utilization u{};
    if (c.zeroed)
      u = loadU(io, g);
    else if (io.alive[g])
      addScaled(u, c.idle, c.outside);
    if (c.run) {
      s.t_local = c.t_run;
      if (jobGpuOk(st, io.alive, g)) advanceGpu(job, st, c, io, g, part.map1, u);
    }
    storeU(io, g, u);
    if (!c.run) continue;
    if (!jobGpuOk(st, io.alive, g))
      MapAcc{part.map1, gpuMapOf(st, g), weightOf(io, ng, g)}.add(kTimeStalled, c.tb - c.t_run);
    all_waiting = all_waiting && s.waiting;
  }
  part.all_waiting = part.all_waiting && all_waiting;
}

void trainingStepMerge1(JobState& st, JobStepCtx& c, const JobStepPart& part) {
  for (int k = 0; k < kTimeCats; ++k) st.map_sum[k] += part.map1[k];
  c.all_waiting = c.all_waiting && part.all_waiting;
}

// the barrier release in parts (workload.h): the parts' reductions are merged in part order, so
// for a fixed partition the results do not depend on which thread ran which part
void trainingReleaseScan(const JobState& st, std::size_t g0, std::size_t g1, JobReleasePart& part) {
  // the barrier releases at the latest arrival; the straggler the others' waits are attributed
  // to is the GPU that waited least since the last release (all started together then), which
  // is the latest arrival also when arrivals tie at a step boundary (the attribution reads the
  // per-GPU maps: a job without them, per_gpu_map false, skips it)
  double tr = part.tr, least = part.least;
  std::size_t gs = part.gs;
  for (std::size_t g = g0; g < g1; ++g) {
    const GpuProgress& s = st.gpu[g];
    tr = std::max(tr, s.t_local);
    if (!st.per_gpu_map) continue;
    const double w =
        st.time(g)[kTimeBarrierWait] - st.loss_mark[g * (kLossCats + 1) + kLossCats] - s.t_local;
    if (w < least) least = w, gs = g;
  }
  part.tr = tr, part.least = least, part.gs = gs;
}

JobRelease trainingReleaseDecide(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                                 std::span<JobReleasePart> parts) {
  JobRelease r;
  r.tr = c.t_run;
  double least = std::numeric_limits<double>::infinity();
  for (const JobReleasePart& p : parts) {  // in part order: the first of equal waits
    r.tr = std::max(r.tr, p.tr);
    if (p.least < least) least = p.least, r.gs = p.gs;
  }
  r.attribute = st.per_gpu_map && r.gs < st.gpu.size();
  if (r.attribute) stragglerShares(st, r.gs, r.share);
  // the job's side of the release (releaseBarrier): an iteration or a checkpoint ends at tr; the
  // phase every GPU starts next
  const int n = static_cast<int>(job.phases.size());
  const int p = st.gpu.front().phase;
  r.next = p;
  if (p == n) {  // iteration end
    const double T = r.tr - st.t_last_iteration_end;
    st.iterations += 1;
    st.last_iteration_time = T;
    st.sum_iteration_time += T;
    st.min_iteration_time = std::min(st.min_iteration_time, T);
    st.max_iteration_time = std::max(st.max_iteration_time, T);
    st.t_last_iteration_end = r.tr;
    const bool due = checkpointsOn(job) && (st.checkpoint_request ||
                                            r.tr - st.t_last_checkpoint_end >=
                                                job.checkpoint_interval * (1.0 - kCheckpointTol));
    r.next = due ? n + 1 : 0;
  } else if (p == 0) {  // waiting in front of phase 0 only happens after a checkpoint
    st.checkpoints += 1;
    st.checkpoint_request = false;
    st.t_last_checkpoint_end = r.tr;
    st.iterations_at_checkpoint = st.iterations;
    r.snapshot = true;  // the maps with the waits booked, before the GPUs move on
  }
  for (JobReleasePart& q : parts) {
    for (double& v : q.map) v = 0;
    q.caused = 0;
    q.all_waiting = true;
  }
  return r;
}

void trainingReleaseBook(JobState& st, const JobStepCtx& c, const JobStepIo& io,
                         const JobRelease& r, std::size_t g0, std::size_t g1,
                         JobReleasePart& part) {
  const std::size_t ng = st.gpu.size();
  for (std::size_t g = g0; g < g1; ++g) {
    GpuProgress& s = st.gpu[g];
    s.wait_time += r.tr - s.t_local;
    MapAcc{part.map, gpuMapOf(st, g), weightOf(io, ng, g)}.add(kTimeBarrierWait, r.tr - s.t_local);
    if (io.alive[g]) addU(io, g, c.idle, r.tr - s.t_local);
    s.t_local = r.tr;
    if (r.attribute) part.caused += attributeWait(st, g, r.share);
  }
}

void trainingReleaseAdvance(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                            const JobStepIo& io, const JobRelease& r, std::size_t g0,
                            std::size_t g1, JobReleasePart& part) {
  bool all_waiting = part.all_waiting;
  for (std::size_t g = g0; g < g1; ++g) {
    GpuProgress& s = st.gpu[g];
    s.phase = r.next;
    s.work = entryWork(job, s, r.next);
    s.waiting = false;
    if (jobGpuOk(st, io.alive, g)) {
      Utilization u = loadU(io, g);
      advanceGpu(job, st, c, io, g, part.map, u);
      storeU(io, g, u);
    }
    all_waiting = all_waiting && s.waiting;
  }
  part.all_waiting = all_waiting;
}

namespace {
// the parts' map sums and caused waits so far into the job's, in part order (the parts' go to 0)
void mergeReleaseSums(JobState& st, const JobRelease& r, std::span<JobReleasePart> parts) {
  double caused = 0;
  for (JobReleasePart& p : parts) {
    for (int k = 0; k < kTimeCats; ++k) st.map_sum[k] += p.map[k], p.map[k] = 0;
    caused += p.caused;
    p.caused = 0;
  }
  if (r.attribute) st.caused[r.gs] += caused;
}
}  // namespace

void trainingReleaseMergeBook(JobState& st, const JobRelease& r, std::span<JobReleasePart> parts) {
  mergeReleaseSums(st, r, parts);
  if (r.snapshot) snapshotMap(st);
}

void trainingReleaseMerge(JobState& st, JobStepCtx& c, const JobRelease& r,
                          std::span<JobReleasePart> parts) {
  mergeReleaseSums(st, r, parts);
  bool all_waiting = true;
  for (JobReleasePart& p : parts) {
    all_waiting = all_waiting && p.all_waiting;
    p = JobReleasePart{};  // (the next release's scan starts from here)
  }
  c.all_waiting = all_waiting;
}

bool trainingStepRelease(const TrainingJobSpec& job, JobState& st, JobStepCtx& c,
                         const JobStepIo& io) {
  const std::size_t ng = st.gpu.size();
  bool released = false;
  JobReleasePart part;
  const std::span<JobReleasePart> one(&part, 1);
  while (trainingReleaseDue(c)) {
    part = JobReleasePart{};
    trainingReleaseScan(st, 0, ng, part);
    const JobRelease r = trainingReleaseDecide(job, st, c, one);
    trainingReleaseBook(st, c, io, r, 0, ng, part);
    trainingReleaseMergeBook(st, r, one);
    trainingReleaseAdvance(job, st, c, io, r, 0, ng, part);
    trainingReleaseMerge(st, c, r, one);
    released = true;
  }
  return released;
}

// the job cannot pass the barrier within this step: the ones still waiting wait to the step end
// (or stall, a live GPU waiting on a dead one), and the sums become means
namespace {

// the finish of one GPU (trainingStepFinish); running, t_block: the part's reductions
[[gnu::always_inline]] inline void finishGpu(JobState& st, const JobStepCtx& c, const JobStepIo& io,
                                             std::size_t g, double inv, double* map3, bool& running,
                                             double& t_block, Utilization& u) {
  GpuProgress& s = st.gpu[g];
  if (c.run && jobGpuOk(st, io.alive, g)) {
    if (!s.waiting) {
      running = true;
    } else {
      t_block = std::max(t_block, s.t_local);
      s.wait_time += c.tb - s.t_local;
      MapAcc{map3, gpuMapOf(st, g), weightOf(io, st.gpu.size(), g)}.add(
          c.all_ok ? kTimeBarrierWait : kTimeStalled, c.tb - s.t_local);
      if (io.alive[g]) addScaled(u, c.idle, c.tb - s.t_local);
      s.t_local = c.tb;
    }
  }
  st.phase_now[g] = static_cast<std::uint16_t>(s.phase);
  u.a_sm *= inv;
  u.a_hbm *= inv;
  u.a_nvlink *= inv;
  u.a_network *= inv;
  u.compute_bound *= inv;
  u.memory_bound *= inv;
}

}  // namespace

void trainingStepFinish(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                        const JobStepIo& io, std::size_t g0, std::size_t g1, JobStepPart& part) {
  (void)job;
  const double inv = 1.0 / c.dt;
  bool running = false;
  double t_block = part.t_block;
  std::size_t run_gpu = std::numeric_limits<std::size_t>::max(), run_last = run_gpu;
  for (std::size_t g = g0; g < g1; ++g) {
    Utilization u = loadU(io, g);
    const bool was = running;
    finishGpu(st, c, io, g, inv, part.map3, running, t_block, u);
    if (running && !was) run_gpu = g;
    if (c.run && jobGpuOk(st, io.alive, g) && !st.gpu[g].waiting) run_last = g;
    storeU(io, g, u);
  }
  if (part.running_gpu == std::numeric_limits<std::size_t>::max()) part.running_gpu = run_gpu;
  // (the GPUs before the part's first finished in pass 1: its last stays)
  if (part.running_last == std::numeric_limits<std::size_t>::max()) part.running_last = run_last;
  part.running = part.running || running;
  part.t_block = t_block;
}

std::size_t trainingStepRunFinish(const TrainingJobSpec& job, JobState& st, const JobStepCtx& c,
                                  const JobStepIo& io, std::size_t g0, std::size_t g1,
                                  JobStepPart& part, bool runs_on) {
  // everything the loop reads, in locals: the GPU's accumulation escapes into runGpu, so members
  // read through references would be reloaded after every call
  const std::size_t ng = st.gpu.size();
  const double inv = 1.0 / c.dt, tb = c.tb, t_run = c.t_run, outside = c.outside;
  const bool zeroed = c.zeroed, run = c.run, all_ok = c.all_ok;
  const Utilization idle = c.idle;
  const JobStepExtras* ex = io.extras;
  const double* bw_nvl = ex && ex->bw_nvlink.size() == ng ? ex->bw_nvlink.data() : nullptr;
  const double* bw_net = ex && ex->bw_network.size() == ng ? ex->bw_network.data() : nullptr;
  const unsigned char* cause =
      ex && ex->clock_cause.size() == ng ? ex->clock_cause.data() : nullptr;
  const double* weight = ex && ex->weight.size() == ng ? ex->weight.data() : nullptr;
  const double* speed_c = io.speed_compute.data();
  const double* speed_m = io.speed_memory.data();
  const char* alive = io.alive.data();
  GpuProgress* gpu = st.gpu.data();
  double* time_map = st.per_gpu_map ? st.time_map.data() : nullptr;
  std::uint16_t* phase_now = st.phase_now.data();
  double* map1 = part.map1;
  double* map3 = part.map3;
  bool all_waiting = part.all_waiting, running = false;
  double t_block = part.t_block;
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::size_t run_gpu = kNone;               // the part's first GPU running on past the step end
  std::size_t run_last = part.running_last;  // and its last
  // the job cannot release in this step once one GPU of the part runs on (or never), or when a
  // GPU is known to run on from the step's start (c.runs_on, or the part's own: runs_on)
  bool known = !(run && all_ok && all_waiting) || c.runs_on || runs_on;
  std::size_t first = g1;
  const int nfast = c.nfast;
  const JobStepCtx::FastPhase* fast = c.fast;
  const double d_run = tb - t_run;
  const double d_fast = fastSpan(t_run, tb);
  double *const out_sm = io.arrays.a_sm, *const out_hbm = io.arrays.a_hbm,
                *const out_nvl = io.arrays.a_nvlink, *const out_net = io.arrays.a_network,
                *const out_mem = io.arrays.memory_bound;
  const bool arrays = out_sm != nullptr;
  // the job does not run in this step (before its start, after its stop): each GPU's idle
  // utilization for the step (the general path's values, computed once) or 0 where it is off,
  // and its phase; nothing to book. In one tight pass: the general path per GPU cost as much as a
  // training step (an idle hall: 29 % of its time in this function)
  if (!run && !zeroed && arrays) {
    Utilization v{};
    addScaled(v, idle, outside);
    v.a_sm *= inv;
    v.a_hbm *= inv;
    v.a_nvlink *= inv;
    v.a_network *= inv;
    v.memory_bound *= inv;
    for (std::size_t g = g0; g < g1; ++g) {
      const bool on = alive[g] != 0;
      out_sm[g] = on ? v.a_sm : 0.0;
      out_hbm[g] = on ? v.a_hbm : 0.0;
      out_nvl[g] = on ? v.a_nvlink : 0.0;
      out_net[g] = on ? v.a_network : 0.0;
      out_mem[g] = on ? v.memory_bound : 0.0;
      phase_now[g] = static_cast<std::uint16_t>(gpu[g].phase);
    }
    return g0;  // (the part's reductions stay as they are: nothing runs, waits or is booked)
  }
  // the fast paths a whole vector at a time (models/job_fast.h); after a vector it does not
  // take, the scalar path takes the next kFastRetry GPUs. Both add the part's map sums of the
  // GPUs they take in four slots by position (JobFastArgs::sums1), so that the sums do not
  // depend on which path took which GPU
  constexpr std::size_t kFastRetry = 16;
  const bool vec = arrays && nfast > 0;
  // a waiting GPU finishes on the fast path once the part is known (c.wait_util)
  const bool wait_ok = vec && all_ok;
  alignas(64) double sums1[4 * kTimeCats] = {};
  alignas(32) double sums3_wait[4] = {};
  const JobFastArgs fa{gpu,        alive,   speed_c,     speed_m, cause,   weight, time_map,
                       ng,         fast,    nfast,       d_run,   d_fast,  tb,     phase_now,
                       out_sm,     out_hbm, out_nvl,     out_net, out_mem, g0,     sums1,
                       sums3_wait, wait_ok, c.wait_util, bw_nvl,  bw_net};
  bool waited = false;
  std::size_t next_vec = g0;
  for (std::size_t g = g0; g < g1; ++g) {
    if (vec && g >= next_vec) {
      JobFastState fs;
      fs.known = known;
      const std::size_t k = jobFastRun(fa, g, g1, fs);
      if (k > 0) {
        if (first == g1) first = g;  // (a waiting GPU is taken only once the part is known)
        if (fs.running) {
          all_waiting = false;
          known = running = true;
          if (run_gpu == kNone) run_gpu = fs.run_gpu;
          run_last = fs.run_last;
        }
        waited = waited || fs.waited;
        g += k;
        if (g >= g1) break;
      }
      next_vec = g0 + ((g - g0 + kFastRetry + 3) & ~std::size_t(3));  // on the slots' grid
    }
    // the scalar paths: the fast ones (the vector paths' operations, GPU by GPU), or the general
    // one (runGpu and the finish)
    GpuProgress& s = gpu[g];
    const bool on = alive[g] != 0;
    const std::size_t slot = (g - g0) & 3;
    if (arrays && on) {
      // the fast path: a live GPU that runs its phase on past the step end (most GPUs in most
      // steps); the general path's operations for that case, without its branches
      if (!s.waiting && s.phase < nfast) {
        const JobStepCtx::FastPhase& f = fast[s.phase];
        const double rate = fastRate(f, g, speed_c, speed_m, bw_nvl, bw_net);
        if (fastRunsOn(f, s.work, rate, d_fast)) {
          const int lc = f.lc >= 0 ? f.lc : cause ? int(cause[g]) : int(kTimeClockOther);
          const double w = weight ? weight[g] : 1.0;
          const double useful = d_run * std::clamp(rate, 0.0, 1.0), loss = d_run - useful;
          sums1[4 * f.uc + slot] += w * useful;
          sums1[4 * lc + slot] += w * loss;
          if (time_map) {
            time_map[std::size_t(f.uc) * ng + g] += useful;
            time_map[std::size_t(lc) * ng + g] += loss;
          }
          s.work += rate * d_run;
          s.t_local = tb;
          all_waiting = false;
          known = true;
          if (first == g1) first = g;
          running = true;
          if (run_gpu == kNone) run_gpu = g;
          run_last = g;
          phase_now[g] = static_cast<std::uint16_t>(s.phase);
          out_sm[g] = f.a_sm;
          out_hbm[g] = f.a_hbm;
          out_nvl[g] = f.a_nvl;
          out_net[g] = f.a_net;
          out_mem[g] = f.mem;
          continue;
        }
      } else if (s.waiting && known && wait_ok) {
        // the waiting fast path: at the barrier from the step's start to its end
        s.wait_time += d_run;
        sums3_wait[slot] += (weight ? weight[g] : 1.0) * d_run;
        if (time_map) time_map[kTimeBarrierWait * ng + g] += d_run;
        s.t_local = tb;
        waited = true;
        if (first == g1) first = g;
        phase_now[g] = static_cast<std::uint16_t>(s.phase);
        out_sm[g] = c.wait_util[0];
        out_hbm[g] = c.wait_util[1];
        out_nvl[g] = c.wait_util[2];
        out_net[g] = c.wait_util[3];
        out_mem[g] = c.wait_util[4];
        continue;
      }
    }
    const MapAcc tm{map1, time_map ? GpuMap<double>{time_map + g, ng} : GpuMap<double>{},
                    weight ? weight[g] : 1.0};
    Utilization u{};
    if (zeroed)
      u = loadU(io, g);
    else if (on)
      addScaled(u, idle, outside);
    if (run) {
      s.t_local = t_run;
      if (on || s.on_spare) {  // jobGpuOk
        // what the GPU sees this step beyond its clocks; a rank on a hot spare runs at the
        // reference speeds (its heat is elsewhere) and its utilization goes nowhere
        GpuInputs in;
        if (on) {
          in.v_compute = speed_c[g];
          in.v_memory = speed_m[g];
          if (bw_nvl) in.f_nvlink = bw_nvl[g];
          if (bw_net) in.f_network = bw_net[g];
          if (cause) in.cause = cause[g];
        } else if (!st.excluded.empty() && st.excluded[g] == 2) {
          in.v_compute = in.v_memory = kExcludedPace;  // an excluded rank holds no barrier
        }
        // (a spare's utilization is dropped: no reference that selects between two records,
        // which would keep u in memory)
        const Utilization u0 = u;
        runGpu(job, s, tm, tb, in, u);
        if (!on) u = u0;
      } else {
        tm.add(kTimeStalled, tb - t_run);
      }
      all_waiting = all_waiting && s.waiting;
      known = known || !all_waiting;
    }
    if (known) {  // the finish (finishGpu)
      if (first == g1) first = g;
      if (run && (on || s.on_spare)) {
        if (!s.waiting) {
          running = true;
          if (run_gpu == kNone) run_gpu = g;
          run_last = g;
        } else {
          t_block = std::max(t_block, s.t_local);
          s.wait_time += tb - s.t_local;
          const MapAcc tm3{map3, tm.gpu, tm.w};
          tm3.add(all_ok ? kTimeBarrierWait : kTimeStalled, tb - s.t_local);
          if (on) addScaled(u, idle, tb - s.t_local);
          s.t_local = tb;
        }
      }
      phase_now[g] = static_cast<std::uint16_t>(s.phase);
      u.a_sm *= inv;
      u.a_hbm *= inv;
      u.a_nvlink *= inv;
      u.a_network *= inv;
      u.compute_bound *= inv;
      u.memory_bound *= inv;
    }
    storeU(io, g, u);
  }
  jobFastSlots(sums1, map1, kTimeCats);
  jobFastSlots(sums3_wait, map3 + kTimeBarrierWait, 1);
  if (waited) t_block = std::max(t_block, t_run);
  part.all_waiting = all_waiting;
  part.running = part.running || running;
  part.t_block = t_block;
  if (part.running_gpu == kNone) part.running_gpu = run_gpu;
  part.running_last = run_last;
  return first;
}

void trainingStepMerge3(JobState& st, JobStepCtx& c, const JobStepPart& part) {
  for (int k = 0; k < kTimeCats; ++k) st.map_sum[k] += part.map3[k];
  c.running = c.running || part.running;
  if (c.run_gpu == std::numeric_limits<std::size_t>::max()) c.run_gpu = part.running_gpu;
  for (const std::size_t h : {part.running_gpu, part.running_last})
    if (h != std::numeric_limits<std::size_t>::max() && c.nhints < JobState::kRunHints &&
        (c.nhints == 0 || c.hints[c.nhints - 1] != h))
      c.hints[c.nhints++] = h;
  c.t_block = std::max(c.t_block, part.t_block);
}

void trainingStepEnd(JobState& st, const JobStepCtx& c) {
  std::copy_n(c.hints, c.nhints, st.run_hints);
  st.nhints = c.nhints;
  // every live GPU waits on a dead one: the job stalls from the latest arrival
  const bool blocked = !c.all_ok && !c.running;
  if (c.run && blocked) st.stalled_time += c.tb - c.t_block;
}

void stepTrainingJob(const TrainingJobSpec& job, JobState& st, double t, double dt,
                     std::span<const double> speed_compute, std::span<const double> speed_memory,
                     std::span<const char> alive, std::span<Utilization> out,
                     const JobStepExtras* extras) {
  const JobStepIo io{speed_compute, speed_memory, alive, out, extras};
  JobStepCtx c = trainingStepBegin(job, st, t, dt, io);
  const std::size_t ng = st.gpu.size();
  JobStepPart part;
  trainingStepRun(job, st, c, io, 0, ng, part);
  trainingStepMerge1(st, c, part);
  trainingStepRelease(job, st, c, io);
  trainingStepFinish(job, st, c, io, 0, ng, part);
  trainingStepMerge3(st, c, part);
  trainingStepEnd(st, c);
}

namespace {
// what an excluded entry's map (k = 0), wait attribution (1) or caused wait (2) gained since its
// exclusion: entry i of excluded_list, category c
double excludedGain(const JobState& st, std::size_t i, int k, int c) {
  const std::size_t g = st.excluded_list[i];
  const double* mk = st.excluded_mark.data() + i * (kTimeCats + kWaitCats + 1);
  if (k == 0) return std::as_const(st).time(g)[c] - mk[c];
  if (k == 1) return st.wait(g)[c] - mk[kTimeCats + c];
  return st.caused[g] - mk[kTimeCats + kWaitCats];
}
bool excludedMarked(const JobState& st) {
  return st.per_gpu_map && !st.excluded_list.empty() &&
         st.excluded_mark.size() == st.excluded_list.size() * (kTimeCats + kWaitCats + 1);
}
}  // namespace

void jobTimeMap(const JobState& st, std::span<const double> w, double out[kTimeCats]) {
  double W = 0;
  for (std::size_t g = 0; g < st.gpu.size(); ++g) W += w.size() == st.gpu.size() ? w[g] : 1.0;
  for (int c = 0; c < kTimeCats; ++c) out[c] = W > 0 ? st.map_sum[c] / W : 0.0;
  // the excluded entries' time since their exclusion, whatever their carried rank booked it to,
  // is kTimeExcluded (docs/models/failures.md "Stragglers")
  if (!excludedMarked(st) || !(W > 0)) return;
  for (std::size_t i = 0; i < st.excluded_list.size(); ++i) {
    const std::size_t g = st.excluded_list[i];
    const double wg = w.size() == st.gpu.size() ? w[g] : 1.0;
    for (int c = 0; c < kTimeCats; ++c) {
      if (c == kTimeExcluded) continue;
      const double d = wg * excludedGain(st, i, 0, c) / W;
      out[c] -= d;
      out[kTimeExcluded] += d;
    }
  }
}

double jobWorkIterations(const JobState& st, bool kept) {
  const double n = kept ? double(st.iterations) - st.lost_iterations : double(st.iterations);
  return (kept ? st.work_kept_base : st.work_done_base) +
         st.work_share * (n - (kept ? st.it_kept_base : st.it_done_base));
}

void jobWaitMap(const JobState& st, std::span<const double> w, double out[kWaitCats]) {
  if (!st.per_gpu_map) {  // not attributed (a job of more GPU groups than the per-GPU maps keep)
    for (int c = 0; c < kWaitCats; ++c) out[c] = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  for (int c = 0; c < kWaitCats; ++c) out[c] = 0;
  double W = 0;
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    const double wg = w.size() == st.gpu.size() ? w[g] : 1.0;
    W += wg;
    const double* wm = st.wait(g);
    for (int c = 0; c < kWaitCats; ++c) out[c] += wg * wm[c];
  }
  if (excludedMarked(st))  // an excluded entry's waits since its exclusion are kTimeExcluded
    for (std::size_t i = 0; i < st.excluded_list.size(); ++i) {
      const std::size_t g = st.excluded_list[i];
      const double wg = w.size() == st.gpu.size() ? w[g] : 1.0;
      for (int c = 0; c < kWaitCats; ++c) out[c] -= wg * excludedGain(st, i, 1, c);
    }
  if (W > 0)
    for (int c = 0; c < kWaitCats; ++c) out[c] /= W;
}

int jobTopStraggler(const JobState& st, double* caused) {
  if (!st.per_gpu_map) {  // not attributed (as jobWaitMap)
    if (caused) *caused = std::numeric_limits<double>::quiet_NaN();
    return -1;
  }
  int best = -1;
  double top = 0, W = 0;
  for (std::size_t g = 0; g < st.gpu.size(); ++g) {
    W += st.weight.size() == st.gpu.size() ? st.weight[g] : 1.0;
    if (st.caused[g] > top) top = st.caused[g], best = int(g);
  }
  if (caused) *caused = W > 0 ? top / W : 0.0;
  return best;
}

double jobGoodput(const TrainingJobSpec& job, const JobState& st, double t) {
  const double wall = std::min(t, job.stop) - job.start;
  if (!(wall > 0)) return 0.0;
  return jobWorkIterations(st, true) * sumDurations(job) / wall;
}
//---------------------------------------------------------------------------------------------
TrainingJobSpec defaultTrainingJob() {
  using B = PhaseSpec::Bound;
  TrainingJobSpec job;
  // proposed dctwin defaults (a) [WL5][WL21]: F/B near TDP with B = 2 F, exposed DP all-reduce
  // 0.25-0.4 TDP with NVLink/NIC busy, HBM-bound optimizer 0.4-0.6 TDP, bubble idle + eps (1F1B
  // (p-1)/(m+p-1) = 3/35 of the pipelined time, p = 4, m = 32: ~0.2 s); period 3.0 s (production
  // 1-10 s). a_sm is the activity factor of the GPU power model: with the GB200 catalog entry these
  // give 1.0 / 1.0 / 0.19 / 0.32 / 0.48 TDP (docs/models/workload.md)
  // clang-format off
  //             name         dur (s) bound              a_sm  a_hbm a_nvl a_net barrier
  job.phases = {{"forward",   0.80,   B::Compute,        0.90, 0.35, 0.30, 0.10, false},
                {"backward",  1.60,   B::Compute,        0.90, 0.35, 0.30, 0.10, false},
                {"bubble",    0.20,   B::Idle,           0.03, 0.05, 0.00, 0.00, false},
                {"allreduce", 0.25,   B::Communication,  0.08, 0.20, 0.60, 0.80, true},
                {"optimizer", 0.15,   B::Memory,         0.15, 0.90, 0.00, 0.00, false}};
  // clang-format on
  job.idle = {"idle", 0.0, B::Idle, 0.0, 0.0, 0.0, 0.0, false};
  job.checkpoint_util = {0.03, 0.10, 0.00, 0.50, 0.0, 0.0};
  return job;
}

//---------------------------------------------------------------------------------------------
void validateInference(const InferenceSpec& s) {
  checkSeries("inference load profile", s.t);
  if (s.load.size() != s.t.size()) fail("inference load profile: t and load differ in length");
  for (double L : s.load)
    if (!isFraction(L))
      fail("inference load profile: load " + std::to_string(L) + " outside [0, 1]");
  checkUtil("inference at full load", s.a_sm_at_full, s.a_hbm_at_full, s.a_nvlink_at_full,
            s.a_network_at_full);
  checkUtil("inference idle", s.idle.a_sm, s.idle.a_hbm, s.idle.a_nvlink, s.idle.a_network);
  if (!isFraction(s.memory_bound_share)) fail("inference: memory_bound_share outside [0, 1]");
}

Utilization inferenceUtilization(const InferenceSpec& s, double t) {
  double L = s.t.empty() ? 0.0 : interpHold(s.t, s.load, t);
  Utilization u;
  u.a_sm = s.idle.a_sm + L * (s.a_sm_at_full - s.idle.a_sm);
  u.a_hbm = s.idle.a_hbm + L * (s.a_hbm_at_full - s.idle.a_hbm);
  u.a_nvlink = s.idle.a_nvlink + L * (s.a_nvlink_at_full - s.idle.a_nvlink);
  u.a_network = s.idle.a_network + L * (s.a_network_at_full - s.idle.a_network);
  u.memory_bound = s.memory_bound_share;
  u.compute_bound = 0.0;
  return u;
}

InferenceSpec defaultInference(double load) {
  InferenceSpec s;
  s.t = {0.0};
  s.load = {load};
  return s;
}

//---------------------------------------------------------------------------------------------
void validateTrace(const TraceSpec& s) {
  if (!std::isfinite(s.t_offset)) fail("trace: t_offset must be finite");
  for (std::size_t g = 0; g < s.gpus.size(); ++g) {
    const TraceSeries& r = s.gpus[g];
    std::string where = "trace GPU " + std::to_string(g);
    checkSeries(where, r.t);
    const std::vector<double>* a[4] = {&r.a_sm, &r.a_hbm, &r.a_nvlink, &r.a_network};
    const char* names[4] = {"a_sm", "a_hbm", "a_nvlink", "a_network"};
    for (int k = 0; k < 4; ++k) {
      if (a[k]->empty()) continue;
      if (a[k]->size() != r.t.size()) fail(where + ": " + names[k] + " differs in length from t");
      for (double v : *a[k])
        if (!isFraction(v)) fail(where + ": " + names[k] + " sample outside [0, 1]");
    }
    if (!r.P.empty()) {
      if (r.P.size() != r.t.size()) fail(where + ": P differs in length from t");
      for (double v : r.P)
        if (!std::isfinite(v) || v < 0) fail(where + ": P sample must be finite and >= 0");
    }
  }
}

namespace {
const TraceSeries& series(const TraceSpec& s, int gpu) {
  if (gpu < 0 || static_cast<std::size_t>(gpu) >= s.gpus.size())
    fail("trace: no series for GPU " + std::to_string(gpu));
  return s.gpus[static_cast<std::size_t>(gpu)];
}
// trace time of simulation time t
double traceTime(const TraceSpec& s, const TraceSeries& r, double t) {
  double x = t - s.t_offset;
  double period = r.t.back() - r.t.front();
  if (s.loop && period > 0) {
    double u = x - r.t.front();
    x = r.t.front() + (u - period * std::floor(u / period));
  }
  return x;
}
double channel(const TraceSeries& r, const std::vector<double>& y, double x) {
  return y.empty() ? 0.0 : interpHold(r.t, y, x);
}
}  // namespace

Utilization traceUtilization(const TraceSpec& s, int gpu, double t) {
  const TraceSeries& r = series(s, gpu);
  double x = traceTime(s, r, t);
  Utilization u;
  u.a_sm = channel(r, r.a_sm, x);
  u.a_hbm = channel(r, r.a_hbm, x);
  u.a_nvlink = channel(r, r.a_nvlink, x);
  u.a_network = channel(r, r.a_network, x);
  return u;
}

bool traceHasPower(const TraceSpec& s, int gpu) {
  return !series(s, gpu).P.empty();
}

double tracePower(const TraceSpec& s, int gpu, double t) {
  const TraceSeries& r = series(s, gpu);
  return channel(r, r.P, traceTime(s, r, t));
}

}  // namespace dctwin
