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

std::string gpuName(const FacilityModel& m, int i) {
  return "rack " + m.rack_name[m.gpu_rack[i]] + " GPU " + std::to_string(m.gpu_slot[i]);
}

void logEvent(State& st, double t, const std::string& who, const char* kind, const char* severity,
              const std::string& message) {
  st.events.push_back(EventRecord{t, who, kind, severity, message});
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
      logEvent(st, t, "job " + m.job_name[j], "component_failure", "warning",
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
    logEvent(st, t, gpuName(m, i), "component_failure", "warning",
             std::string(info.key) + " failure (" + info.description + "): lost to its job for " +
                 std::to_string(long(m.failures.repair_time)) + " s");
    return;
  }
  // the host: gpus_per_host consecutive slots of the rack
  const int r = m.gpu_rack[i], h = m.gpu_slot[i] / m.failures.gpus_per_host;
  const int a = m.rack_gpuadr[r] + h * m.failures.gpus_per_host;
  const int b = std::min(a + m.failures.gpus_per_host, m.rack_gpuadr[r] + m.rack_gpunum[r]);
  for (int k = a; k < b; ++k) takeGpu(m, st, k, t_back);
  logEvent(st, t, "rack " + m.rack_name[r] + " host " + std::to_string(h), "component_failure",
           "warning",
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
    logEvent(st, t, gpuName(m, i), "component_repaired", "info", "back in service");
  }
  f.gpu_down.resize(w);
  f.fp_next_repair = next;
  // (a rank that ran on a hot spare returns to its GPU at the job's next step: trainingStepBegin)
}

}  // namespace

void initFailureProcess(const FacilityModel& m, State& st, double t0) {
  FaultState& f = st.faults;
  if (!m.failures.enabled) return;
  f.gpu_down_until.assign(std::size_t(m.ngpu), 0.0);
  f.gpu_down.clear();
  f.gpu_down.reserve(std::size_t(m.ngpu));
  f.rack_down.assign(std::size_t(m.nrack), 0);
  f.fp_next_repair = kInf;
  f.fp_rng.s = m.failures.seed;
  for (int c = 0; c < kFailClasses; ++c) {
    f.fp_count[c] = 0;
    const double mean = classMean(m, c);
    f.fp_next[c] = std::isfinite(mean) ? t0 + f.fp_rng.exponential(mean) : kInf;
  }
}

double nextFailureEvent(const FacilityModel& m, const State& st) {
  if (!m.failures.enabled) return kInf;
  const FaultState& f = st.faults;
  double t = f.fp_next_repair;
  for (int c = 0; c < kFailClasses; ++c) t = std::min(t, f.fp_next[c]);
  return t;
}

void stepFailureProcess(const FacilityModel& m, State& st, double t) {
  if (!m.failures.enabled || m.ngpu == 0) return;
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

double jobMeanTimeBetweenFailures(const FacilityModel& m, int j) {
  if (!m.failures.enabled || j < 0 || j >= m.njob || m.job_kind[j] != 0) return NAN;
  double n = 0;
  for (int i = 0; i < m.ngpu; ++i) n += m.gpu_job[i] == j ? 1 : 0;
  const double rate = n * failureRatePerGpu(m.failures);
  return rate > 0 ? 1.0 / rate : kInf;
}

}  // namespace dctwin
