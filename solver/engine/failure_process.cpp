// failure_process.cpp: failures as a seeded process (docs/models/failures.md)
//
// Each class c fails at the constant rate n_c scale / MTBF_c, n_c the GPUs it is drawn over (every
// resolved GPU of the facility; for the software class the GPUs of training jobs). The times are
// drawn one after the other (exponential gaps) from one generator seeded by `failures.seed`,
// serially between the GPU layer's windows, so the sequence depends on the seed alone. A failure
// picks its GPU uniformly; a host failure takes the GPUs of that GPU's host (gpus_per_host
// consecutive slots of its rack); a software failure interrupts that GPU's training job. Taken
// GPUs are lost to their jobs (powered, idle) until the repair time has passed; a job whose rank
// ran on a hot spare meanwhile gets its GPU back and the spare returns to the pool.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "solver/common/event_table.h"
#include "solver/engine/engine.h"

namespace dctwin {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// the number of GPUs class c is drawn over
double classGpus(const FacilityModel& m, int c) {
  if (failureClassInfo(c).unit != FailureUnit::Job) return double(m.ngpu);
  double n = 0;
  for (int i = 0; i < m.ngpu; ++i) {
    const int j = m.gpu_job[i];
    if (j >= 0 && m.job_kind[j] == 0) n += 1;
  }
  return n;
}

double classMean(const FacilityModel& m, int c) {
  const double n = classGpus(m, c);
  const FailureProcessParams& p = m.failures;
  return n > 0 && p.scale > 0 ? p.mtbf[c] / (n * p.scale) : kInf;
}

// policy exclude: an excluded straggler's GPU is replaced after this (inf: never)
double stragglerRepairTime(const FacilityModel& m) {
  const StragglerParams& sp = m.stragglers;
  if (sp.repair_time >= 0) return sp.repair_time;
  return m.failures.enabled ? m.failures.repair_time : kInf;
}

std::string gpuName(const FacilityModel& m, int i) {
  return "rack " + m.rack_name[m.gpu_rack[i]] + " GPU " + std::to_string(m.gpu_slot[i]);
}

// an event of the event table (solver/common/event_table.h), written by its kind's name
void logEvent(State& st, double t, const std::string& who, EventKind kind, const char* severity,
              const std::string& message) {
  st.events.push_back(EventRecord{t, who, eventInfo(kind).kind, severity, message});
}

// GPU i is taken until t_back
void takeGpu(const FacilityModel& m, State& st, int i, double t_back) {
  FaultState& f = st.faults;
  if (f.gpu_down_until[i] <= 0) {
    f.gpu_down.push_back(i);  // (capacity: every GPU)
    ++f.rack_down[m.gpu_rack[i]];
  }
  f.gpu_down_until[i] = std::max(f.gpu_down_until[i], t_back);
  f.fp_next_repair = std::min(f.fp_next_repair, f.gpu_down_until[i]);
}

// one failure of class c at t
void failOnce(const FacilityModel& m, State& st, int c, double t) {
  FaultState& f = st.faults;
  const FailureClassInfo& info = failureClassInfo(c);
  ++f.fp_count[c];
  const double t_back = t + m.failures.repair_time;
  if (info.unit == FailureUnit::Job) {
    // a GPU of a training job, uniformly: its job is interrupted
    const double n = classGpus(m, c);
    long k = long(f.fp_rng.below(std::uint64_t(n)));
    for (int i = 0; i < m.ngpu; ++i) {
      const int j = m.gpu_job[i];
      if (j < 0 || m.job_kind[j] != 0 || k-- > 0) continue;
      JobState& js = st.gl.job[std::size_t(j)];
      const bool running = t >= m.job_spec[j].start && t < m.job_spec[j].stop;
      if (m.job_spec[j].restart_on_failure && running) js.interrupt = true;
      logEvent(st, t, "job " + m.job_name[j], EventKind::ComponentFailure, "warning",
               std::string(info.key) + " failure (" + info.description + ")" +
                   (js.interrupt ? ": the job restarts from its last checkpoint"
                                 : ": no effect (the job is not running, or on_failure: stall)"));
      return;
    }
    return;
  }
  const int i = int(f.fp_rng.below(std::uint64_t(m.ngpu)));
  if (info.unit == FailureUnit::Gpu) {
    takeGpu(m, st, i, t_back);
    logEvent(st, t, gpuName(m, i), EventKind::ComponentFailure, "warning",
             std::string(info.key) + " failure (" + info.description + "): lost to its job for " +
                 std::to_string(long(m.failures.repair_time)) + " s");
    return;
  }
  // the host: gpus_per_host consecutive slots of the rack
  const int r = m.gpu_rack[i], h = m.gpu_slot[i] / m.failures.gpus_per_host;
  const int a = m.rack_gpuadr[r] + h * m.failures.gpus_per_host;
  const int b = std::min(a + m.failures.gpus_per_host, m.rack_gpuadr[r] + m.rack_gpunum[r]);
  for (int k = a; k < b; ++k) takeGpu(m, st, k, t_back);
  logEvent(st, t, "rack " + m.rack_name[r] + " host " + std::to_string(h),
           EventKind::ComponentFailure, "warning",
           std::string(info.key) + " failure (" + info.description + "): " + std::to_string(b - a) +
               " GPU(s) lost to their job for " + std::to_string(long(m.failures.repair_time)) +
               " s");
}

// the GPUs whose repair is done by t come back
void repairDue(const FacilityModel& m, State& st, double t) {
  FaultState& f = st.faults;
  if (t < f.fp_next_repair - 1e-9) return;
  double next = kInf;
  std::size_t w = 0;
  for (const int i : f.gpu_down) {
    if (f.gpu_down_until[i] > t + 1e-9) {
      f.gpu_down[w++] = i;
      next = std::min(next, f.gpu_down_until[i]);
      continue;
    }
    f.gpu_down_until[i] = 0;
    --f.rack_down[m.gpu_rack[i]];
    logEvent(st, t, gpuName(m, i), EventKind::ComponentRepaired, "info", "back in service");
  }
  f.gpu_down.resize(w);
  f.fp_next_repair = next;
  // (a rank that ran on a hot spare returns to its GPU at the job's next step: trainingStepBegin)
}

}  // namespace

void initFailureProcess(const FacilityModel& m, State& st, double t0) {
  FaultState& f = st.faults;
  if (m.stragglers.enabled) {
    f.sg_acc.assign(std::size_t(m.ngroup), 0.0);
    f.sg_logged.assign(std::size_t(m.ngroup), 0);
    std::size_t most = 0;
    for (const auto& groups : m.job_groups) most = std::max(most, groups.size());
    f.sg_buf.assign(most, 0.0);
    f.sg_clean.assign(std::size_t(m.njob), 1);
    f.sg_t0 = f.sg_tprev = t0;
    f.sg_pending.clear();
    f.sg_any_pending.clear();
    f.sg_ckpt_seen.clear();
    f.sg_out.clear();
    f.sg_rejoined = 0;
  }
  if (m.stragglers.enabled && m.stragglers.policy == StragglerPolicy::Exclude)
    for (int j = 0; j < m.njob; ++j)
      if (m.job_kind[j] == 0) {
        JobState& js = st.gl.job[std::size_t(j)];
        js.excluded.assign(js.gpu.size(), 0);
        js.excluded_list.clear();
        js.excluded_mark.clear();
      }
  if (!m.failures.enabled && !m.stragglers.enabled) return;
  f.gpu_down_until.assign(std::size_t(m.ngpu), 0.0);
  f.gpu_down.clear();
  f.gpu_down.reserve(std::size_t(m.ngpu));
  f.rack_down.assign(std::size_t(m.nrack), 0);
  f.fp_next_repair = kInf;
  f.fp_rng.s = m.failures.seed;
  for (int c = 0; c < kFailClasses; ++c) {
    f.fp_count[c] = 0;
    const double mean = m.failures.enabled ? classMean(m, c) : kInf;
    f.fp_next[c] = std::isfinite(mean) ? t0 + f.fp_rng.exponential(mean) : kInf;
  }
}

double nextFailureEvent(const FacilityModel& m, const State& st) {
  if (!m.failures.enabled && !m.stragglers.enabled) return kInf;
  const FaultState& f = st.faults;
  double t = f.fp_next_repair;
  for (int c = 0; c < kFailClasses; ++c) t = std::min(t, f.fp_next[c]);
  return t;
}

void stepFailureProcess(const FacilityModel& m, State& st, double t) {
  if ((!m.failures.enabled && !m.stragglers.enabled) || m.ngpu == 0) return;
  FaultState& f = st.faults;
  repairDue(m, st, t);
  for (;;) {  // the failures due by t, in time order
    int c_min = -1;
    for (int c = 0; c < kFailClasses; ++c)
      if (f.fp_next[c] <= t + 1e-9 && (c_min < 0 || f.fp_next[c] < f.fp_next[c_min])) c_min = c;
    if (c_min < 0) break;
    const double tf = f.fp_next[c_min];
    failOnce(m, st, c_min, tf);
    f.fp_next[c_min] = tf + f.fp_rng.exponential(classMean(m, c_min));
  }
}

namespace {

// policy exclude: the data-parallel replicas of job j's ranks (docs/models/failures.md
// "Stragglers"). A described job's n GPUs are pp stages of dp replicas of n / (pp dp) GPUs each,
// in Megatron's rank order (tp innermost, pp outermost): rank r is in replica (r mod n/pp) /
// (n / (pp dp)). A job with phases given has no parallelism: each GPU is a replica of its own.
struct Replicas {
  long n = 0, block = 1, inner = 1, dp = 1;
  long of(long r) const { return (r % block) / inner; }
};
Replicas jobReplicas(const FacilityModel& m, int j, long n) {
  Replicas rp;
  rp.n = n;
  rp.dp = n;
  rp.block = n;
  rp.inner = 1;
  const long pp = std::max(1, m.job_spec[j].stages);
  const long dp = j < int(m.job_described.size()) ? long(m.job_described[j].dp) : 0;
  if (dp > 0 && n % (pp * dp) == 0) {
    rp.dp = dp;
    rp.block = n / pp;
    rp.inner = n / (pp * dp);
  }
  return rp;
}

// takes the replicas of job j's entry k out at the restart this causes: every entry with a rank
// in one of them is marked to leave (JobState::excluded = 1; an entry of several identical GPUs
// that spans replicas takes them all, and the entries in those), its GPUs taken for good.
// Returns the GPUs taken, 0 where no replica would be left (nothing done).
// an entry out of its job, or leaving it at the next restart (not one back on its replaced GPU,
// nor one rejoining)
bool entryOut(char v) {
  return v == 1 || v == 2;
}

// the replicas of job j out of it (policy exclude)
long replicasOut(const FacilityModel& m, const State& st, int j) {
  const JobState& js = st.gl.job[std::size_t(j)];
  const auto& groups = m.job_groups[j];
  long n = 0;
  for (const int q : groups) n += m.group_gpunum[q];
  const Replicas rp = jobReplicas(m, j, n);
  std::vector<char> rep(std::size_t(rp.dp), 0);
  long r = 0;
  for (std::size_t e = 0; e < groups.size(); ++e) {
    const long r1 = r + m.group_gpunum[groups[e]];
    if (entryOut(js.excluded[e]))
      for (; r < r1; ++r) rep[std::size_t(rp.of(r))] = 1;
    r = r1;
  }
  return long(std::count(rep.begin(), rep.end(), char(1)));
}

long excludeReplicas(const FacilityModel& m, State& st, int j, std::size_t k,
                     std::vector<char>& out, double t) {
  JobState& js = st.gl.job[std::size_t(j)];
  const auto& groups = m.job_groups[j];
  std::vector<long> r0(groups.size() + 1, 0);
  for (std::size_t e = 0; e < groups.size(); ++e) r0[e + 1] = r0[e] + m.group_gpunum[groups[e]];
  const Replicas rp = jobReplicas(m, j, r0.back());
  std::vector<char> rep(std::size_t(rp.dp), 0), take(groups.size(), 0);
  for (std::size_t e = 0; e < groups.size(); ++e)
    if (entryOut(js.excluded[e]))
      for (long r = r0[e]; r < r0[e + 1]; ++r) rep[std::size_t(rp.of(r))] = 1;
  const long before = long(std::count(rep.begin(), rep.end(), char(1)));
  for (long r = r0[k]; r < r0[k + 1]; ++r) rep[std::size_t(rp.of(r))] = 1;
  take[k] = 1;
  for (bool grew = true; grew;) {  // the closure over entries that span replicas
    grew = false;
    for (std::size_t e = 0; e < groups.size(); ++e) {
      if (take[e] || entryOut(js.excluded[e])) continue;
      bool in = false;
      for (long r = r0[e]; r < r0[e + 1] && !in; ++r) in = rep[std::size_t(rp.of(r))] != 0;
      if (!in) continue;
      take[e] = 1;
      grew = true;
      for (long r = r0[e]; r < r0[e + 1]; ++r) rep[std::size_t(rp.of(r))] = 1;
    }
  }
  const long outn = long(std::count(rep.begin(), rep.end(), char(1)));
  const long left = rp.dp - outn;
  if (left < 1) return 0;
  long gpus = 0;
  const double repair = stragglerRepairTime(m);
  FaultState::SgOut unit;
  unit.job = j;
  unit.replicas = outn - before;
  unit.t_back = t + repair;
  for (std::size_t e = 0; e < groups.size(); ++e) {
    if (!take[e]) continue;
    // (an entry back on its replaced GPU leaves again: its GPU is already taken)
    const bool replaced = js.excluded[e] == 3;
    js.excluded[e] = 1;
    out[e] = 1;
    const int q = groups[e];
    if (!replaced)
      for (int i = m.group_gpuadr[q]; i < m.group_gpuadr[q] + m.group_gpunum[q]; ++i)
        takeGpu(m, st, i, kInf);
    gpus += m.group_gpunum[q];
    unit.entries.push_back(e);
  }
  js.work_share_next = double(left) / double(rp.dp);
  if (std::isfinite(repair)) st.faults.sg_out.push_back(std::move(unit));
  return gpus;
}

// policy rebalance: the job's power cap moved to its stragglers of this round (flag[k]): each
// raised to the most it may draw (its GPU's largest settable limit, and its share of its rack's
// power limit), the job's other GPUs lowered in proportion to their headroom above the GPU's
// smallest settable limit, so that the sum of the job's GPUs' caps stays what it was. Returns the
// watts moved.
double rebalanceCaps(const FacilityModel& m, State& st, int j, const std::vector<char>& flag) {
  GpuLayerState& g = st.gl;
  GpuLayerState::Groups& G = g.grp;
  const auto& groups = m.job_groups[j];
  const auto& alive = g.job_alive[std::size_t(j)];
  double need = 0, avail = 0;
  auto capHi = [&](int q) {
    const GpuParams& gp = m.gpu_types[std::size_t(G.type[std::size_t(q)])];
    double hi = gp.P_limit_max;
    const int r = m.gpu_rack[m.group_gpuadr[q]];
    if (m.rack_power_cap[r] > 0 && m.rack_gpunum[r] > 0)
      hi = std::min(hi, m.rack_power_cap[r] / m.rack_gpunum[r]);
    return hi;
  };
  auto capLo = [&](int q) { return m.gpu_types[std::size_t(G.type[std::size_t(q)])].P_limit_min; };
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const int q = groups[k];
    const double w = m.group_gpunum[q], cap = G.cap[std::size_t(q)];
    if (flag[k])
      need += w * std::max(0.0, capHi(q) - cap);
    else if (alive[k] && !st.faults.sg_logged[std::size_t(q)])
      avail += w * std::max(0.0, cap - capLo(q));
  }
  if (!(need > 0) || !(avail > 0)) return 0;
  const double moved = std::min(need, avail);
  const double up = moved / need, down = moved / avail;
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const int q = groups[k];
    double& cap = G.cap[std::size_t(q)];
    double nc = cap;
    if (flag[k])
      nc = cap + up * std::max(0.0, capHi(q) - cap);
    else if (alive[k] && !st.faults.sg_logged[std::size_t(q)])
      nc = cap - down * std::max(0.0, cap - capLo(q));
    if (nc == cap) continue;
    cap = nc;
    g.rack_cap[std::size_t(G.rack[std::size_t(q)])] = std::nan("");  // the caps differ now
  }
  return moved;
}

bool writesCheckpoints(const TrainingJobSpec& spec) {
  return spec.checkpoint_interval > 0 && spec.checkpoint_duration > 0;
}

// drain and exclude wait for a checkpoint (act_at checkpoint, checkpoint_now) in a job that
// writes them; else they act at once
bool actsAtCheckpoint(const FacilityModel& m, int j) {
  return m.stragglers.act_at != StragglerActAt::Detection && writesCheckpoints(m.job_spec[j]);
}

// the pending actions' arrays of job j (allocated when first needed: rare)
void ensurePending(const FacilityModel& m, FaultState& f, int j) {
  if (f.sg_pending.empty()) {
    f.sg_pending.resize(std::size_t(m.njob));
    f.sg_any_pending.assign(std::size_t(m.njob), 0);
    f.sg_ckpt_seen.assign(std::size_t(m.njob), 0);
  }
  if (f.sg_pending[std::size_t(j)].empty())
    f.sg_pending[std::size_t(j)].assign(m.job_groups[j].size(), 0);
}

// an action of job j scheduled now for its next checkpoint (on demand: act_at checkpoint_now)
void schedule(const FacilityModel& m, State& st, int j) {
  FaultState& f = st.faults;
  JobState& js = st.gl.job[std::size_t(j)];
  if (!f.sg_any_pending[std::size_t(j)]) f.sg_ckpt_seen[std::size_t(j)] = js.checkpoints;
  f.sg_any_pending[std::size_t(j)] = 1;
  if (m.stragglers.act_at == StragglerActAt::CheckpointNow) js.checkpoint_request = true;
}

const char* whenText(const FacilityModel& m) {
  switch (m.stragglers.act_at) {
    case StragglerActAt::CheckpointNow:
      return "after the checkpoint the job writes at its next iteration end (act_at: "
             "checkpoint_now)";
    case StragglerActAt::Checkpoint:
      return "after the job's next scheduled checkpoint (act_at: checkpoint)";
    default:
      return "at once (act_at: detection)";
  }
}

// GPU i back in service now (an excluded replica's GPU that was not the straggler's)
void untakeGpu(const FacilityModel& m, State& st, int i) {
  FaultState& f = st.faults;
  if (!(f.gpu_down_until[i] > 0)) return;
  f.gpu_down_until[i] = 0;
  --f.rack_down[m.gpu_rack[i]];
  f.gpu_down.erase(std::find(f.gpu_down.begin(), f.gpu_down.end(), i));
}

// the actions due at t (docs/models/failures.md "When drain and exclude act"): the rejoins of the
// replicas whose stragglers' GPUs are replaced by now scheduled; then, for a job running on
// whose checkpoint scheduled for them has ended (act_at checkpoint, checkpoint_now; at once for
// act_at detection), the drains, exclusions and rejoins carried out at one restart, which starts
// right after that checkpoint and so loses no work. A job restarting, or interrupted, meanwhile
// waits for its next checkpoint.
void actPending(const FacilityModel& m, State& st, double t) {
  FaultState& f = st.faults;
  for (FaultState::SgOut& u : f.sg_out) {
    if (u.scheduled || t < u.t_back - 1e-9) continue;
    u.scheduled = true;
    ensurePending(m, f, u.job);
    schedule(m, st, u.job);
    long gpus = 0;
    for (const std::size_t e : u.entries) gpus += m.group_gpunum[m.job_groups[u.job][e]];
    std::ostringstream msg;
    msg << "the straggler's GPU(s) replaced: its replica (" << u.replicas << " replica(s), " << gpus
        << " GPU(s)) rejoins the job " << whenText(m);
    logEvent(st, t, "job " + m.job_name[u.job], EventKind::ReplicaRejoinPending, "info", msg.str());
  }
  if (f.sg_any_pending.empty()) return;
  for (int j = 0; j < m.njob; ++j) {
    if (!f.sg_any_pending[std::size_t(j)]) continue;
    const TrainingJobSpec& spec = m.job_spec[j];
    JobState& js = st.gl.job[std::size_t(j)];
    if (js.mode != 0 || js.interrupt || t < spec.start || t > spec.stop) {
      f.sg_ckpt_seen[std::size_t(j)] = js.checkpoints;  // (its next checkpoint, after the restart)
      continue;
    }
    if (actsAtCheckpoint(m, j) && js.checkpoints <= f.sg_ckpt_seen[std::size_t(j)]) continue;
    // (a checkpoint that ended more than a coupling window ago was one of the annual mode's slow
    // segments, in no window: the action waits for the next one, written in a window)
    if (actsAtCheckpoint(m, j) && t - js.t_last_checkpoint_end > m.coupling_dt + 1e-6) {
      f.sg_ckpt_seen[std::size_t(j)] = js.checkpoints;
      continue;
    }
    const auto& groups = m.job_groups[j];
    std::vector<char>& pend = f.sg_pending[std::size_t(j)];
    std::vector<char> round(groups.size(), 0);
    int spares = spec.hot_spares - js.on_spares;
    bool restart = false;
    std::ostringstream at;
    at.setf(std::ios::fixed);
    at.precision(6);
    if (actsAtCheckpoint(m, j))
      at << " at the checkpoint that ended at t = " << js.t_last_checkpoint_end
         << " s (no work lost)";
    for (std::size_t k = 0; k < groups.size(); ++k) {
      const char p = pend[k];
      if (!p) continue;
      pend[k] = 0;
      const int q = groups[k], i0 = m.group_gpuadr[q], ni = m.group_gpunum[q];
      std::ostringstream msg;
      EventKind kind = EventKind::StragglerKept;
      if (p == 1 && spares >= ni) {
        for (int i = i0; i < i0 + ni; ++i) takeGpu(m, st, i, kInf);
        spares -= ni;
        ++f.sg_drained;
        restart = true;
        kind = EventKind::StragglerDrained;
        msg << "drained" << at.str() << ": its rank moves to a hot spare at the restart";
      } else if (p == 1) {
        msg << "not drained, the job keeps waiting for it (no hot spare left: " << spares
            << " left, " << ni << " needed)";
      } else if (entryOut(js.excluded[k])) {  // in a replica another straggler takes out
        ++f.sg_excluded;
        restart = true;
        kind = EventKind::StragglerExcluded;
        msg << "its replica is excluded with another straggler's" << at.str();
      } else if (const long gpus = excludeReplicas(m, st, j, k, round, t); gpus > 0) {
        ++f.sg_excluded;
        f.sg_excluded_gpus += gpus;
        restart = true;
        kind = EventKind::StragglerExcluded;
        msg << "excluded with its data-parallel replica (" << gpus << " GPU(s) idle from now)"
            << at.str() << "; the job goes on with " << js.work_share_next << " of its replicas";
      } else {
        msg << "not excluded, the job keeps waiting for it (no replica would be left)";
      }
      logEvent(st, t, gpuName(m, i0), kind, "warning", msg.str());
    }
    // the replicas whose stragglers' GPUs are replaced: back in the job at this restart, the
    // stragglers' ranks on their replaced GPUs, the others on their own
    for (std::size_t w = 0; w < f.sg_out.size();) {
      FaultState::SgOut& u = f.sg_out[w];
      if (u.job != j || !u.scheduled) {
        ++w;
        continue;
      }
      long gpus = 0;
      for (const std::size_t e : u.entries) {
        if (js.excluded[e] != 2) continue;
        const int q = groups[e];
        gpus += m.group_gpunum[q];
        if (f.sg_logged[std::size_t(q)]) {
          js.excluded[e] = 5;
        } else {
          js.excluded[e] = 4;
          for (int i = m.group_gpuadr[q]; i < m.group_gpuadr[q] + m.group_gpunum[q]; ++i)
            untakeGpu(m, st, i);
        }
      }
      ++f.sg_rejoined;
      restart = true;
      std::ostringstream msg;
      msg << "replica back (" << u.replicas << " replica(s), " << gpus << " GPU(s))" << at.str()
          << ": the global batch restored at the restart";
      logEvent(st, t, "job " + m.job_name[j], EventKind::ReplicaRejoined, "info", msg.str());
      f.sg_out.erase(f.sg_out.begin() + long(w));
    }
    if (restart && spec.restart_on_failure) {
      // the GPUs taken now are off for the job's next step already (the GPU layer set its
      // liveness at its last step, before they were taken), so that their ranks move to spares
      // at the restart, which starts at once: one restart for every action of the round
      std::vector<char>& alive = st.gl.job_alive[std::size_t(j)];
      for (std::size_t k = 0; k < groups.size(); ++k)
        if (f.gpu_down_until[m.group_gpuadr[groups[k]]] > 0 &&
            (js.excluded.empty() || js.excluded[k] != 3))
          alive[k] = 0;
      js.interrupt = true;
      if (!js.excluded.empty()) {
        long total = 0;
        for (const int q : groups) total += m.group_gpunum[q];
        const Replicas rp = jobReplicas(m, j, total);
        js.work_share_next = double(rp.dp - replicasOut(m, st, j)) / double(rp.dp);
      }
    }
    f.sg_any_pending[std::size_t(j)] = 0;
  }
}

}  // namespace

double nextStragglerStop(const FacilityModel& m, const State& st, double t) {
  const FaultState& f = st.faults;
  if (f.sg_any_pending.empty()) return kInf;
  double best = kInf;
  for (int j = 0; j < m.njob; ++j) {
    if (!f.sg_any_pending[std::size_t(j)] || !actsAtCheckpoint(m, j)) continue;
    const JobState& js = st.gl.job[std::size_t(j)];
    const int n = int(m.job_spec[j].phases.size());
    if (js.mode != 0 || js.gpu.empty() || js.gpu.front().phase != n + 1) continue;
    // (every rank writes the checkpoint at rate 1 from the iteration end)
    const double end = js.t_last_iteration_end + m.job_spec[j].checkpoint_duration + 1e-3;
    if (end > t + 1e-9) best = std::min(best, end);
  }
  return best;
}

// stragglers: each training job's GPU groups' clock ratios integrated over the window; at its end
// the groups whose mean is below (1 - threshold) x the job's median are stragglers: logged, and
// with policy drain taken out of the job for good (their ranks move to hot spares at the restart
// this causes) while the job has a spare left. Only a running job with every rank on a GPU is
// judged (a restart or a stall in the window would make every clock look alike).
void stepStragglers(const FacilityModel& m, State& st, double t) {
  const StragglerParams& sp = m.stragglers;
  if (!sp.enabled || m.ngroup == 0) return;
  FaultState& f = st.faults;
  const GpuLayerState& g = st.gl;
  const double dt = t - f.sg_tprev;
  if (dt > 0)
    for (int q = 0; q < m.ngroup; ++q) f.sg_acc[std::size_t(q)] += g.grp.clock_ratio[q] * dt;
  f.sg_tprev = t;
  if (sp.policy == StragglerPolicy::Drain || sp.policy == StragglerPolicy::Exclude)
    actPending(m, st, t);
  // a job restarting, stalled or not running at any call of the window is not judged at its end
  for (int j = 0; j < m.njob; ++j) {
    const TrainingJobSpec& spec = m.job_spec[j];
    const JobState& js = st.gl.job[std::size_t(j)];
    if (m.job_kind[j] != 0 || js.mode != 0 || js.interrupt || f.sg_t0 < spec.start || t > spec.stop)
      f.sg_clean[std::size_t(j)] = 0;
  }
  if (t < f.sg_t0 + sp.window - 1e-9) return;
  const double w = t - f.sg_t0;
  for (int j = 0; j < m.njob; ++j) {
    const TrainingJobSpec& spec = m.job_spec[j];
    JobState& js = st.gl.job[std::size_t(j)];
    if (!f.sg_clean[std::size_t(j)]) continue;
    const auto& groups = m.job_groups[j];
    const auto& alive = g.job_alive[std::size_t(j)];
    std::size_t n = 0;
    for (std::size_t k = 0; k < groups.size(); ++k)
      if (alive[k]) f.sg_buf[n++] = f.sg_acc[std::size_t(groups[k])] / w;
    if (n < 2) continue;
    std::nth_element(f.sg_buf.begin(), f.sg_buf.begin() + long(n / 2), f.sg_buf.begin() + long(n));
    const double median = f.sg_buf[n / 2];
    int spares = spec.hot_spares - js.on_spares;
    if (!f.sg_pending.empty() && !f.sg_pending[std::size_t(j)].empty())
      for (std::size_t k = 0; k < groups.size(); ++k)  // (the drains pending take theirs)
        if (f.sg_pending[std::size_t(j)][k] == 1) spares -= m.group_gpunum[groups[k]];
    // (rare: the rounds that find a straggler; the flags of this round's entries)
    std::vector<char> round;
    for (std::size_t k = 0; k < groups.size(); ++k) {
      const int q = groups[k];
      const double mean = f.sg_acc[std::size_t(q)] / w;
      if (!alive[k] || !(mean < (1 - sp.threshold) * median)) continue;
      if (round.empty()) round.assign(groups.size(), 0);
      const int i0 = m.group_gpuadr[q], ni = m.group_gpunum[q];
      const bool first = !f.sg_logged[std::size_t(q)];
      if ((sp.policy == StragglerPolicy::Drain || sp.policy == StragglerPolicy::Exclude) &&
          spec.restart_on_failure && actsAtCheckpoint(m, j)) {
        // the action waits for the job's checkpoint (act_at): scheduled now, logged once
        if (!first) continue;
        f.sg_logged[std::size_t(q)] = 1;
        ++f.sg_detected;
        std::ostringstream msg;
        msg.precision(3);
        msg << "mean clock " << mean << " of the job's median " << median << " over " << w << " s";
        const bool drain_it = sp.policy == StragglerPolicy::Drain;
        if (drain_it && spares < ni) {
          msg << ": not drained, the job keeps waiting for it (no hot spare left: " << spares
              << " left, " << ni << " needed)";
          logEvent(st, t, gpuName(m, i0), EventKind::StragglerKept, "warning", msg.str());
          continue;
        }
        ensurePending(m, f, j);
        f.sg_pending[std::size_t(j)][k] = drain_it ? 1 : 2;
        if (drain_it) spares -= ni;
        schedule(m, st, j);
        msg << ": " << (drain_it ? "drain" : "exclusion with its replica") << " pending, "
            << whenText(m);
        logEvent(st, t, gpuName(m, i0), EventKind::StragglerPending, "warning", msg.str());
        continue;
      }
      const bool drain =
          sp.policy == StragglerPolicy::Drain && spec.restart_on_failure && spares >= ni;
      long excluded = 0;
      const bool already = sp.policy == StragglerPolicy::Exclude && entryOut(js.excluded[k]);
      if (sp.policy == StragglerPolicy::Exclude && spec.restart_on_failure && !already)
        excluded = excludeReplicas(m, st, j, k, round, t);
      std::ostringstream msg;
      msg.precision(3);
      msg << "mean clock " << mean << " of the job's median " << median << " over " << w << " s";
      EventKind kind = EventKind::StragglerDetected;
      if (drain) {
        for (int i = i0; i < i0 + ni; ++i) takeGpu(m, st, i, kInf);
        spares -= ni;
        ++f.sg_drained;
        kind = EventKind::StragglerDrained;
        msg << ": drained, its rank moves to a hot spare at the restart from the last checkpoint";
      } else if (sp.policy == StragglerPolicy::Drain) {
        kind = EventKind::StragglerKept;
        msg << ": not drained, the job keeps waiting for it ("
            << (spec.restart_on_failure ? "no hot spare left: " + std::to_string(spares) +
                                              " left, " + std::to_string(ni) + " needed"
                                        : std::string("on_failure: stall"))
            << ")";
      } else if (already) {  // in a replica another straggler of this round takes out
        ++f.sg_excluded;
        kind = EventKind::StragglerExcluded;
        msg << ": its replica is excluded with another straggler's at the coming restart";
      } else if (excluded > 0) {
        ++f.sg_excluded;
        f.sg_excluded_gpus += excluded;
        kind = EventKind::StragglerExcluded;
        msg << ": excluded with its data-parallel replica (" << excluded
            << " GPU(s) idle from now) at the restart from the last checkpoint; the job goes on "
               "with "
            << js.work_share_next << " of its replicas";
      } else if (sp.policy == StragglerPolicy::Exclude) {
        kind = EventKind::StragglerKept;
        msg << ": not excluded, the job keeps waiting for it ("
            << (spec.restart_on_failure ? "no replica would be left" : "on_failure: stall") << ")";
      } else if (sp.policy == StragglerPolicy::Rebalance && first) {
        round[k] = 1;  // its cap is raised below, with the round's others
        msg << ": its power cap raised, the job's others lowered (power-cap rebalancing)";
      }
      if (!drain && excluded == 0 && !already && !first) continue;  // a kept one: logged once
      f.sg_logged[std::size_t(q)] = 1;
      if (first) ++f.sg_detected;
      logEvent(st, t, gpuName(m, i0), kind, "warning", msg.str());
    }
    if (sp.policy == StragglerPolicy::Rebalance && !round.empty()) {
      long nr = 0;
      for (const char c : round) nr += c;
      // (this round's stragglers are logged now: rebalanceCaps takes no cap from them)
      const double moved = nr > 0 ? rebalanceCaps(m, st, j, round) : 0.0;
      if (nr > 0) {
        f.sg_rebalanced += nr;
        f.sg_cap_moved += moved;
        std::ostringstream msg;
        msg.precision(4);
        msg << nr << " straggler(s): " << moved << " W of the job's power cap moved to them"
            << (moved > 0 ? "" : " (none: no headroom, their caps at the most they may draw)");
        logEvent(st, t, "job " + m.job_name[j], EventKind::StragglerRebalanced, "info", msg.str());
      }
    }
  }
  std::fill(f.sg_acc.begin(), f.sg_acc.end(), 0.0);
  std::fill(f.sg_clean.begin(), f.sg_clean.end(), char(1));
  f.sg_t0 = t;
}

double jobMeanTimeBetweenFailures(const FacilityModel& m, int j) {
  if (!m.failures.enabled || j < 0 || j >= m.njob || m.job_kind[j] != 0) return NAN;
  double n = 0;
  for (int i = 0; i < m.ngpu; ++i) n += m.gpu_job[i] == j ? 1 : 0;
  const double rate = n * failureRatePerGpu(m.failures);
  return rate > 0 ? 1.0 / rate : kInf;
}

}  // namespace dctwin
