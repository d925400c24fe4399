// job_model.h: the step of a transformer training job, from its training configuration
// (docs/models/job.md)
//
// A job is written in Megatron-LM / NeMo vocabulary: the architecture (layers, hidden and FFN
// size, gated MLP, attention heads and query groups, vocabulary, sequence length, experts), the
// batch (global and micro batch), the parallelism (TP with sequence parallelism, PP with virtual
// stages and uneven first/last stages, CP, EP, DP with a distributed optimizer), the precision of
// the GEMMs (BF16, FP8, FP4) and the recompute mode. The model counts, per micro-batch and layer,
// every GEMM (FLOPs and shape), the attention core (causal), the memory-bound operations (bytes)
// and the collectives of each parallel dimension; it times them with the GPU type's sourced
// kernel efficiencies (data/catalog/gpus: a large GEMM's achieved fraction of the dense peak per
// precision, tile and wave quantization on the GPU's SMs, flash attention forward and backward,
// achieved HBM bandwidth), overlaps collectives where the schedule hides them (tensor-parallel
// overlap with its GEMMs, data-parallel buckets behind the backward pass, context-parallel KV
// exchange behind attention), assembles the pipeline (interleaved 1F1B: bubble (pp-1)/vp of a
// stage's micro-batch time, the slowest stage sets the pace) and the optimizer step, and sizes
// the memory per GPU (weights, gradients, optimizer state, activations per recompute mode),
// choosing the recompute where it is not given. The result is one iteration of phases at the
// reference clocks, which the engine stretches with each GPU's clock, HBM state and links
// (models/workload.h); the model runs once per job and hardware, never per GPU and step.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "models/fabric.h"
#include "models/gpu.h"
#include "models/host_memory.h"
#include "models/workload.h"

namespace dctwin {

// Calibration (c), docs/models/job.md "Calibration": every kernel of the step (GEMMs, attention,
// memory-bound kernels, logits and loss) takes this many times its time from the kernel
// benchmarks (kernel_efficiency, the tile time). Fitted, and only fitted, on the A100 runs of the
// Megatron papers [F70][F73] (18 cases: the factor minimising their mean |error|); the Hopper and
// Blackwell runs of the validation suite are held out. What it stands for is not resolved: kernel
// launch and host overheads, clocks held below the benchmarks' by the power limit, kernels of the
// step the model does not list
inline constexpr double kKernelCalibration = 1.06;

enum class Precision { BF16, FP8, FP4 };
const char* precisionName(Precision p);

struct ModelWorkloadSpec {
  // --- architecture (Megatron-LM argument in brackets)
  int layers = 0;                // L [--num-layers]                                       (1)
  double hidden = 0;             // h [--hidden-size]                                      (1)
  double ffn_hidden = 0;         // f [--ffn-hidden-size]; 0 = 4 h                         (1)
  bool gated_mlp = false;        // SwiGLU / GeGLU: three FFN matrices [--swiglu]
  int heads = 0;                 // a [--num-attention-heads]                              (1)
  int kv_heads = 0;              // g [--num-query-groups] (GQA); 0 = heads                (1)
  double vocab = 0;              // V, padded vocabulary [--vocab-size]                    (1)
  double sequence_length = 0;    // s [--seq-length] (tokens)                              (1)
  bool tied_embeddings = false;  // input and output embedding shared
  int experts = 0;               // E [--num-experts]; 0 = dense                           (1)
  int moe_top_k = 2;             // k [--moe-router-topk]                                  (1)
  double moe_ffn_hidden = 0;     // per expert [--moe-ffn-hidden-size]; 0 = ffn_hidden    (1)
  // given parameter counts are checked against the architecture (0 = computed)
  double parameters = 0, active_parameters = 0;  //                                  (1)
  // --- batch
  double global_batch = 0;          // sequences per iteration [--global-batch-size]      (1)
  double tokens_per_iteration = 0;  // or tokens (global_batch s); one of the two         (1)
  int micro_batch_size = 1;         // b [--micro-batch-size] (sequences)                 (1)
  // --- parallelism
  int tp = 1, pp = 1, vp = 1, cp = 1, ep = 1, dp = 0;  // dp 0: n / (tp pp cp); vp 0: auto
  bool sequence_parallel = true;                       // with tp > 1 [--sequence-parallel]
  int first_stage_layers = 0, last_stage_layers = 0;   // uneven stages; 0 = even      (1)
  bool distributed_optimizer = false;                  // [--use-distributed-optimizer]
  bool grad_reduce_bf16 = false;  // main gradients in bf16, not fp32 [--grad-reduce-in-bf16]
  // what the DP ranks shard (Megatron-FSDP's data_parallel_sharding_strategy): nothing, the
  // optimizer state (= the distributed optimizer), also the gradients, also the parameters (FSDP,
  // ZeRO-3: gathered layer by layer for the forward and again for the backward)
  enum class Sharding { None, Optim, OptimGrads, OptimGradsParams } sharding = Sharding::None;
  bool tp_comm_overlap = false;  // TP collectives pipelined with their GEMMs [--tp-comm-overlap]
  bool overlap_grad_reduce = false;   // DP reduce-scatter behind backward [--overlap-grad-reduce]
  bool overlap_param_gather = false;  // DP all-gather behind forward [--overlap-param-gather]
  double bucket_parameters = 0;       // DP bucket; 0 = max(40e6, 1e6 dp) [--ddp-bucket-size] (1)
  CollectiveAlgorithm tp_algorithm = CollectiveAlgorithm::Ring;
  CollectiveAlgorithm dp_algorithm = CollectiveAlgorithm::Ring;
  // --- numerics and memory
  Precision precision = Precision::BF16;  // of the GEMMs; attention and the rest in BF16
  // how Transformer Engine scales the FP8 tensors [--fp8-recipe]: from the amax history (delayed,
  // Megatron-LM's default), from each tensor's own amax (tensorwise, "current scaling": a second
  // read of the tensor), or per 32-element block (mxfp8) [F99]
  enum class Fp8Recipe { Delayed, Tensorwise, Mxfp8 } fp8_recipe = Fp8Recipe::Delayed;
  // attention kernel: flash / fused (no stored scores) or unfused (scores through HBM, Megatron-LM
  // before flash attention) [--use-flash-attn]
  enum class Attention { Flash, Unfused } attention = Attention::Flash;
  enum class Recompute { Auto, None, Selective, Full } recompute = Recompute::Auto;
  // the pipeline in time (docs/models/job.md): each stage's bubble where its schedule puts it
  // (Staggered), or every GPU idle in one bubble at once (Lockstep, the model before 2026-12)
  enum class PipelineTiming { Staggered, Lockstep } pipeline_timing = PipelineTiming::Staggered;
  // efficiency overrides, what-ifs (0: the GPU type's sourced values)
  double gemm_efficiency = 0;       // large-GEMM achieved / dense peak of the precision  (1)
  double attention_efficiency = 0;  // scales the flash-attention efficiencies          (1)
  double hbm_efficiency = 0;        // achieved / nominal HBM bandwidth                   (1)
  // --- checkpoints
  double checkpoint_bytes_per_parameter = 14;  // (B)
  double storage_bandwidth =
      0;  // aggregate write bandwidth; 0 = checkpoint_duration as given (B/s)
  bool checkpoint_async = false;
  double staging_bandwidth = 50e9;  // per GPU to host memory, async (a)                (B/s)
  // --- host memory (models/host_memory.h): data loading, optimizer / activation offload
  double data_bytes_per_token = 4;   // int32 token ids (d); more for images, video        (B)
  bool offload_optimizer = false;    // optimizer state (12 B / local parameter) in host memory
  bool offload_activations = false;  // all but one micro-batch's activations in host memory
  // with offload_activations: this many layers of each micro-batch keep their activations in host
  // memory, written after their forward and read back for their backward beside the next layer's
  // compute (Megatron's cpu_offloading_num_layers; needs pp = 1); 0: whole micro-batches
  int offload_activation_layers = 0;
  double activation_offload_overlap = 0.5;  // of the activation transfers hidden (a)    (1)
  HostTier offload_tier = HostTier::Auto;   // Auto: the local tier if it fits, else CXL
};

// how fast a GPU type runs the kernels of a step, from published measurements (catalog
// `kernel_efficiency`, docs/models/job.md)
struct KernelEfficiency {
  double gemm_bf16 = 0, gemm_fp8 = 0, gemm_fp4 = 0;      // large GEMM / dense peak            (1)
  double attention_forward = 0, attention_backward = 0;  // flash attention / BF16 peak   (1)
  double hbm = 0;  // memory-bound kernels: achieved / nominal bandwidth                    (1)
};

// what the job needs of its GPU type
struct GpuCapability {
  std::string name;          // catalog type (errors)
  double peak_bf16 = 0;      // dense                                               (FLOP/s)
  double peak_fp8 = 0;       // dense; 0 = none                                     (FLOP/s)
  double peak_fp4 = 0;       // dense; 0 = none                                     (FLOP/s)
  double hbm_bandwidth = 0;  // (B/s)
  double hbm_capacity = 0;   // (B)
  int sm_count = 0;          // streaming multiprocessors (wave quantization); 0 = none (1)
  KernelEfficiency eff;
  // the tensor-core kernels' (GEMMs, attention) rate at the job's power limit over their rate at
  // the type's default limit, where the kernel efficiencies hold: from the clock the power model
  // gives on the step's compute load at the reference temperature and the share of a GEMM's time
  // that does not follow the clock (docs/models/job.md "Power limit")                        (1)
  double rate_scale = 1;
  double peak(Precision p) const {
    return p == Precision::FP8 ? peak_fp8 : p == Precision::FP4 ? peak_fp4 : peak_bf16;
  }
  double gemmEfficiency(Precision p) const {
    return p == Precision::FP8 ? eff.gemm_fp8 : p == Precision::FP4 ? eff.gemm_fp4 : eff.gemm_bf16;
  }
};

// a described job that cannot be: the key that is wrong and why
struct JobModelError : std::invalid_argument {
  std::string key;
  JobModelError(std::string k, const std::string& what)
      : std::invalid_argument(what), key(std::move(k)) {}
};

// one GEMM of a micro-batch: C[M x N] = A[M x K] B[K x N], `count` of them
struct GemmShape {
  double M = 0, N = 0, K = 0;
  double count = 1;
};

// where one micro-batch's time goes on the slowest pipeline stage, per pass    (s)
struct StageTime {
  double gemm = 0, attention = 0, memory = 0;             // compute and memory-bound kernels
  double tp_exposed = 0, cp_exposed = 0, ep_exposed = 0;  // collectives not hidden
  double tp_total = 0, cp_total = 0, ep_total = 0;        // whole collectives
  double recompute = 0;                                   // the forward again (backward pass)
  double total() const {
    return gemm + attention + memory + tp_exposed + cp_exposed + ep_exposed + recompute;
  }
};

struct DescribedJob {
  TrainingJobSpec job;  // the phases, and checkpoint_duration when storage_bandwidth is given
  int dp = 0, micro_batches = 0;
  int vp = 1;  // virtual stages per stage: as given, or the fastest that fits (vp: auto)
  ModelWorkloadSpec::Recompute recompute = ModelWorkloadSpec::Recompute::Selective;  // chosen
  bool full_recompute = false;
  double parameters = 0, active_parameters = 0;  // from the architecture                 (1)
  double flops = 0;      // model FLOPs per iteration, all GPUs: (6 N_mm + 12 L h s) T [F95] (FLOP)
  double step_time = 0;  // one iteration at the reference clocks, no checkpoint      (s)
  double tokens_per_second = 0;  // whole job                                            (1/s)
  double mfu = 0;  // flops / (step_time n peak_bf16): model FLOPs utilisation on BF16 peak (1)
  double mem_weights = 0, mem_gradients = 0, mem_optimizer = 0, mem_activations = 0;  // (B)
  double memory_per_gpu = 0;    // the most loaded stage                                    (B)
  double checkpoint_bytes = 0;  // (B)
  int tp_level = 0, pp_level = 0, dp_level = 0, ep_level = 0, cp_level = 0;  // 1 NVLink, 2 out
  int stage_layers_max = 0;  // layers of the slowest stage (all its virtual chunks)     (1)
  StageTime fwd, bwd;        // per micro-batch on the slowest stage                    (s)
  double t_stage = 0;        // the slowest stage's micro-batch (forward + backward)     (s)
  double t_bubble = 0, t_pp_exposed = 0, t_dp_exposed = 0, t_optimizer = 0;  // per iteration (s)
  CollectiveTime tp, pp, dp_comm, ep, cp;  // per iteration, whole collectives (before overlap) (s)
  // host memory: what went where, and the transfer times per iteration (before overlap)  (s)
  HostMemoryUse host;
  double t_data = 0, t_optimizer_host = 0, t_activations_host = 0, t_staging = 0;
};

// the parameter counts of an architecture: all, and active per token
struct ParameterCount {
  double total = 0, active = 0, per_layer = 0, embedding = 0;
};
ParameterCount countParameters(const ModelWorkloadSpec& w);

// base: start, stop, checkpoint interval/duration, restart policy and utilizations are kept;
// the phases are replaced. gpus_per_domain: GPUs of one NVLink domain (the rack). Ranks are laid
// out TP innermost, then CP, then PP, then DP, in the job's GPU order (rack order). host: the
// host-memory tiers behind the GPUs. Throws JobModelError.
DescribedJob describeTrainingJob(const ModelWorkloadSpec& w, const GpuCapability& gpu,
                                 const FabricSpec& fabric, int n_gpu, int gpus_per_domain,
                                 const TrainingJobSpec& base,
                                 const HostMemorySpec& host = HostMemorySpec{});

const char* recomputeName(ModelWorkloadSpec::Recompute r);

// a catalog GPU type's peaks, memory and kernel efficiencies, as the step model takes them
// what the step model needs of GPU type g (named `name` in errors) running under power limit
// P_limit (W) at reference junction temperature T_ref (K): its peaks, kernel efficiencies and the
// clock scale of its compute kernels at that limit
GpuCapability gpuCapability(const GpuParams& g, const std::string& name, double P_limit,
                            double T_ref);

}  // namespace dctwin
