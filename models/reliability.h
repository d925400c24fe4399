// reliability.h: failures as a seeded process (docs/models/failures.md)
//
// Components fail at constant rates (exponential lifetimes), per class, from a published fleet's
// interruption table: Meta's Llama 3 405B pre-training, 419 unexpected interruptions in 54 days on
// 16,384 H100 [F5]. A class's mean time between failures is given per GPU (the rate a GPU's share
// of the fleet contributes), so it scales with the number of GPUs of any facility:
//   MTBF_c = G T / n_c        (G = 16,384 GPUs, T = 54 d, n_c = the class's interruptions)
// A failure of a GPU-unit class takes one GPU, a host-unit class takes the GPUs of one host, a
// job-unit class (software) interrupts one job without taking hardware. Taken GPUs come back
// after the repair time. The classes and their counts are one table (DCTWIN_FAILURE_CLASSES).
//
// The checkpoint interval that minimises the lost time for a job whose interruptions arrive with
// mean time M and whose checkpoint blocks for delta: Young's first-order sqrt(2 delta M) and
// Daly's higher-order estimate [F40].
#pragma once

#include <cstdint>

namespace dctwin {

// what a failure of the class takes
enum class FailureUnit : std::uint8_t { Gpu, Host, Job };

// X(id, key, unit, interruptions of 419 in [F5], what they are)
#define DCTWIN_FAILURE_CLASSES(X)                                                           \
  X(Gpu, "gpu", FailureUnit::Gpu, 196,                                                      \
    "GPU: faulty GPU 148, GPU SRAM 19, GPU system processor 17, silent data corruption 6, " \
    "thermal interface and sensor 6")                                                       \
  X(Hbm, "hbm", FailureUnit::Gpu, 72, "GPU HBM 72")                                         \
  X(Network, "network", FailureUnit::Gpu, 42,                                               \
    "a GPU's scale-out path: network switch or cable 35, NIC 7")                            \
  X(Host, "host", FailureUnit::Host, 43,                                                    \
    "the host: host maintenance 32, SSD 3, server chassis 2, IO expansion board 2, CPU 2, " \
    "system memory 2")                                                                      \
  X(Software, "software", FailureUnit::Job, 63,                                             \
    "the job's software: software bug 54, NCCL watchdog timeouts 7, dependency 2")

enum FailureClass : int {
#define DCTWIN_FAILURE_ENUM(id, key, unit, n, text) kFail##id,
  DCTWIN_FAILURE_CLASSES(DCTWIN_FAILURE_ENUM)
#undef DCTWIN_FAILURE_ENUM
      kFailClasses
};

struct FailureClassInfo {
  const char* key;
  FailureUnit unit;
  int interruptions;  // of the 419 unexpected ones in [F5]
  const char* description;
};

const FailureClassInfo& failureClassInfo(int c);
int failureClassByKey(const char* key);  // -1: none

// the published fleet [F5]: 16,384 GPUs for 54 days, 419 unexpected interruptions (3 of them power
// supplies, which are in no class here: a rack's power shelves are redundant and their failures
// are scenario events, docs/models/power.md)
inline constexpr double kFleetGpus = 16384;
inline constexpr double kFleetSeconds = 54.0 * 86400.0;
inline constexpr int kFleetInterruptions = 419;
double publishedMtbfPerGpu(int c);  // G T / n_c (s)

struct FailureProcessParams {
  bool enabled = false;
  unsigned long long seed = 1;
  double scale = 1;           // every rate times this (a what-if; 1: the published rates)
  double repair_time = 0;     // a taken GPU or host is back after this (s)
  int gpus_per_host = 4;      // the GPUs one host failure takes
  double mtbf[kFailClasses];  // per GPU (s); set from publishedMtbfPerGpu by default
  FailureProcessParams();
};

// straggler operations (docs/models/failures.md "Stragglers"): a GPU whose mean clock over a
// detection window is below (1 - threshold) x its job's median is a straggler; `detect` logs it,
// `drain` also takes it out of the job for good, its rank moving to a hot spare at the restart
// from the last checkpoint this costs (while a spare is left; else it is only logged); `exclude`
// takes the straggler's data-parallel replica out at such a restart and the job continues with
// fewer replicas, no spare used; `rebalance` raises the straggler's power cap and lowers the job's
// other GPUs' caps by as much in all, without a restart
enum class StragglerPolicy : std::uint8_t { Detect, Drain, Exclude, Rebalance };

// when drain and exclude act (docs/models/failures.md "When drain and exclude act"): at once, at
// the detection round's end (a restart from the last checkpoint: the work since is lost); at the
// job's next scheduled checkpoint; or at a checkpoint the job writes on demand at its next
// iteration end (cold migration [F103]); the last two restart right after that checkpoint, so
// no work is lost
enum class StragglerActAt : std::uint8_t { Detection, Checkpoint, CheckpointNow };

struct StragglerParams {
  bool enabled = false;
  StragglerPolicy policy = StragglerPolicy::Detect;
  StragglerActAt act_at = StragglerActAt::CheckpointNow;
  double threshold = 0;  // slower than the job's median by this share of it (1)
  double window = 0;     // detection window: the clocks' means over it (s)
  // an excluded straggler's GPU is replaced after this, and its replica rejoins the job at the
  // next action time (act_at); < 0: failures.repair_time with a failures: section, else never (s)
  double repair_time = -1;
};

// interruptions per GPU and second of all classes together (1/(GPU s))
double failureRatePerGpu(const FailureProcessParams& p);

// the optimum checkpoint interval (time between checkpoints, s) for a job with mean time between
// interruptions M (s) and a blocking checkpoint delta (s): Young sqrt(2 delta M); Daly
// sqrt(2 delta M) (1 + sqrt(delta / 2M) / 3 + (delta / 2M) / 9) - delta for delta < 2M, else M
double youngInterval(double delta, double M);
double dalyInterval(double delta, double M);

// the expected share of wall time lost to checkpoints, lost work and restarts at interval tau
// (first order): delta / tau + (tau + delta) / (2 M) + R / M
double expectedLostFraction(double tau, double delta, double M, double R);

// a small deterministic generator (splitmix64): the process draws from it serially, so the
// sequence depends on the seed alone, whatever the thread count
struct FailureRng {
  std::uint64_t s = 0;
  std::uint64_t next();
  double uniform();                      // in (0, 1)
  double exponential(double mean);       // mean * -ln(u)
  std::uint64_t below(std::uint64_t n);  // uniform in [0, n)
};

}  // namespace dctwin
