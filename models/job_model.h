// job_model.h: the work a training job does, from what it is (docs/models/job.md)
//
// A job described by its model (parameters N, layers L, hidden size h, sequence length s), its
// batch (tokens per iteration T, micro-batch size b) and its parallelism (tensor TP, pipeline PP,
// data DP, expert EP) becomes one iteration of phases with durations at the reference clocks:
//   compute    F + B = 6 N T / (n_gpu P_peak eta_c), F : B = 1 : 2          [WL18]
//              (8 N T with full activation recompute: one more forward)      [F28]
//   memory     roofline: bytes / (eta_hbm B_hbm): element-wise activation traffic
//              c_act h/TP bytes per token and layer (forward once, backward twice (a)) and the
//              optimizer update, 28 B per local parameter (fp32 master, m, v read + written,
//              gradient read, bf16 weight written (d) [F39])
//   TP         4 all-reduces of s b h 2 B per layer and micro-batch        [F27]
//   EP         4 all-to-alls of s b h 2 k / TP B per layer and micro-batch (dispatch, combine)
//   PP         2 send/recv of s b h 2 / TP B per micro-batch                 [WL18]
//   DP         one all-reduce of the bf16 gradients, 2 N / (TP PP) B, the iteration's barrier
//   bubble     (PP - 1) / m of the compute, m = T / (s b DP) micro-batches (1F1B) [WL18]
// each collective by the alpha-beta model of its fabric level (models/fabric.h); only the exposed
// part (1 - overlap) is a phase, and the whole collective's bandwidth part is carried as
// comm_beta, so a degraded link stretches the phase by comm_beta (1/f - 1). Memory per GPU:
//   4 N/(TP PP) (bf16 weights + gradients) + 12 N/(TP PP DP) (fp32 master, m, v; distributed
//   optimizer) + activations c_act s b h L / TP (selective recompute, 1F1B holds PP micro-batches
//   on the first stage [F28]); if that does not fit, full recompute keeps 2 s b h L/TP,
//   else the job does not fit. Checkpoint: 14 N bytes (no gradients (d) [F39]) written at the
//   storage bandwidth (synchronous), or staged to host memory at the staging bandwidth per GPU and
//   written in the background (asynchronous).
#pragma once

#include <stdexcept>
#include <string>

#include "models/fabric.h"
#include "models/host_memory.h"
#include "models/workload.h"

namespace dctwin {

struct ModelWorkloadSpec {
  double parameters = 0;               // N: all parameters                                  (1)
  double active_parameters = 0;        // per token (MoE); 0 = parameters                    (1)
  int layers = 0;                      // L                                                  (1)
  double hidden = 0;                   // h                                                  (1)
  double sequence_length = 0;          // s (tokens)                                         (1)
  double tokens_per_iteration = 0;     // T: global batch                                 (1)
  int micro_batch_size = 1;            // b (sequences)                                    (1)
  int tp = 1, pp = 1, dp = 0, ep = 1;  // dp 0: n_gpu / (tp pp)
  int moe_top_k = 2;                   // experts per token (ep > 1)                    (1)
  double compute_efficiency = 0.5;     // model FLOPs / peak in forward+backward (a)   (1)
  double hbm_efficiency = 0.8;         // achieved / peak HBM bandwidth (a)            (1)
  double activation_bytes = 34;        // c_act: bytes per token, hidden unit, layer [F28]
  double tp_overlap = 0.5, pp_overlap = 0.5, dp_overlap = 0.8, ep_overlap = 0.0;  // (a), < 1
  CollectiveAlgorithm tp_algorithm = CollectiveAlgorithm::Ring;
  CollectiveAlgorithm dp_algorithm = CollectiveAlgorithm::Ring;
  bool distributed_optimizer = true;
  enum class Recompute { Auto, Selective, Full } recompute = Recompute::Auto;
  // checkpoints
  double checkpoint_bytes_per_parameter = 14;  // (B)
  double storage_bandwidth =
      0;  // aggregate write bandwidth; 0 = checkpoint_duration as given (B/s)
  bool checkpoint_async = false;
  double staging_bandwidth = 50e9;  // per GPU to host memory, async (a)                (B/s)
  // host memory (models/host_memory.h): data loading, optimizer / activation offload
  double data_bytes_per_token = 4;   // int32 token ids (d); more for images, video        (B)
  bool offload_optimizer = false;    // optimizer state (12 B / local parameter) in host memory
  bool offload_activations = false;  // all but one micro-batch's activations in host memory
  double activation_offload_overlap = 0.5;  // of the activation transfers hidden (a)    (1)
  HostTier offload_tier = HostTier::Auto;   // Auto: the local tier if it fits, else CXL
};

// what the job needs of its GPU type
struct GpuCapability {
  double peak_flops = 0;     // dense BF16                                          (FLOP/s)
  double hbm_bandwidth = 0;  // (B/s)
  double hbm_capacity = 0;   // (B)
};

// a described job that cannot be: the key that is wrong and why
struct JobModelError : std::invalid_argument {
  std::string key;
  JobModelError(std::string k, const std::string& what)
      : std::invalid_argument(what), key(std::move(k)) {}
};

struct DescribedJob {
  TrainingJobSpec job;  // the phases, and checkpoint_duration when storage_bandwidth is given
  int dp = 0, micro_batches = 0;
  bool full_recompute = false;
  double flops = 0;  // per iteration, all GPUs      (FLOP)
  double mem_weights = 0, mem_optimizer = 0, mem_activations = 0;  // per GPU      (B)
  double checkpoint_bytes = 0;                                     // (B)
  int tp_level = 0, pp_level = 0, dp_level = 0, ep_level = 0;      // 1 NVLink, 2 scale-out
  CollectiveTime tp, pp, dp_comm, ep;  // per iteration, whole collectives (before overlap) (s)
  // host memory: what went where, and the transfer times per iteration (before overlap)  (s)
  HostMemoryUse host;
  double t_data = 0, t_optimizer_host = 0, t_activations_host = 0, t_staging = 0;
};

// base: start, stop, checkpoint interval/duration, restart policy and utilizations are kept;
// the phases are replaced. gpus_per_domain: GPUs of one NVLink domain (the rack). Ranks are laid
// out TP innermost, then PP, then DP, in the job's GPU order (rack order). host: the host-memory
// tiers behind the GPUs. Throws JobModelError.
DescribedJob describeTrainingJob(const ModelWorkloadSpec& w, const GpuCapability& gpu,
                                 const FabricSpec& fabric, int n_gpu, int gpus_per_domain,
                                 const TrainingJobSpec& base,
                                 const HostMemorySpec& host = HostMemorySpec{});

}  // namespace dctwin
