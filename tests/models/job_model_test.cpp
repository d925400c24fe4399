// job_model_test.cpp: the transformer step model (models/job_model.h, docs/models/job.md):
// parameter counts, the layout and its errors, memory per GPU and the recompute choice, the
// pipeline schedule, precision, overlap, the HBM coupling and the checkpoint
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "models/job_model.h"
#include "tests/models/job_fixtures.h"

using namespace dctwin;
using namespace dctwin::test;

namespace {

DescribedJob describe(const ModelWorkloadSpec& w, const GpuCapability& g = kGb200, int n = 576,
                      int dom = 72) {
  return describeTrainingJob(w, g, FabricSpec{}, n, dom, TrainingJobSpec{});
}

std::string errorKey(const ModelWorkloadSpec& w, const GpuCapability& g = kGb200, int n = 576,
                     int dom = 72) {
  try {
    describe(w, g, n, dom);
  } catch (const JobModelError& e) {
    return e.key + " | " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("step model: parameter counts of published architectures", "[job_model]") {
  // Llama 3 70B: 70.6e9 (model card); GPT-3 175B: 174.6e9 (Narayanan et al. [F73] formula)
  CHECK(countParameters(llama70b()).total == Approx(70.55e9).epsilon(0.005));
  ModelWorkloadSpec g;
  g.layers = 96, g.hidden = 12288, g.heads = 96, g.vocab = 51200, g.sequence_length = 2048;
  g.tied_embeddings = true;
  const double h = 12288, l = 96, V = 51200;
  CHECK(countParameters(g).total ==
        Approx(12 * l * h * h * (1 + 13 / (12 * h)) + V * h).epsilon(0.001));
  // a mixture of experts: 8 experts, top 2 (Mixtral 8x7B: 46.7e9 total, 12.9e9 active)
  ModelWorkloadSpec m;
  m.layers = 32, m.hidden = 4096, m.ffn_hidden = 14336, m.gated_mlp = true, m.heads = 32;
  m.kv_heads = 8, m.vocab = 32000, m.sequence_length = 4096, m.experts = 8, m.moe_top_k = 2;
  CHECK(countParameters(m).total == Approx(46.7e9).epsilon(0.01));
  CHECK(countParameters(m).active == Approx(12.9e9).epsilon(0.01));
}

TEST_CASE("step model: the iteration is its phases, tokens/s and MFU follow from it",
          "[job_model]") {
  const DescribedJob d = describe(llama70b());
  CHECK(d.dp == 18);
  CHECK(d.micro_batches == 32);
  double sum = 0;
  for (const auto& p : d.job.phases) sum += p.duration;
  CHECK(d.step_time == Approx(sum - d.job.stage_skip_total).epsilon(1e-12));
  CHECK(d.tokens_per_second == Approx(576 * 8192 / d.step_time).epsilon(1e-12));
  // PaLM convention: (6 N + 12 L h s) per token, N without the untied input embedding (a lookup)
  const double N = countParameters(llama70b()).active - 128256.0 * 8192;
  CHECK(d.flops == Approx((6 * N + 12 * 80 * 8192 * 8192.0) * 576 * 8192).epsilon(1e-12));
  CHECK(d.mfu == Approx(d.flops / (d.step_time * 576 * 2.5e15)).epsilon(1e-12));
  CHECK(d.mfu > 0.3);
  CHECK(d.mfu < 0.7);
  // levels: TP inside the rack; PP groups (stride 8, 4 ranks: 32 GPUs) straddle the 72-GPU
  // racks, DP (stride 32) across them
  CHECK(d.tp_level == 1);
  CHECK(d.pp_level == 2);
  CHECK(d.dp_level == 2);
}

TEST_CASE(
    "step model: memory per GPU as Megatron's distributed optimizer keeps it, recompute "
    "chosen by what fits; a job that fits nowhere is refused",
    "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  DescribedJob d = describe(w);
  const double P = d.mem_weights / 2;  // bf16 parameters of the most loaded stage
  CHECK(d.mem_gradients == Approx(4 * P).epsilon(1e-12));
  CHECK(d.mem_optimizer == Approx(12 * P / 18).epsilon(1e-12));  // sharded over dp
  CHECK(d.recompute == ModelWorkloadSpec::Recompute::None);
  // a smaller HBM: selective, then full recompute, then refused with the key and what would fit
  GpuCapability small = kGb200;
  small.hbm_capacity = d.memory_per_gpu * 0.97;
  d = describe(w, small);
  CHECK(d.recompute != ModelWorkloadSpec::Recompute::None);
  small.hbm_capacity = 20e9;
  d = describe(w, small);
  CHECK(d.recompute == ModelWorkloadSpec::Recompute::Full);
  CHECK(d.full_recompute);
  // full recompute costs a forward pass again in the backward phase
  const DescribedJob none = describe(w);
  CHECK(phaseNamed(d.job, "backward")->duration >
        phaseNamed(none.job, "backward")->duration +
            0.8 * phaseNamed(none.job, "forward")->duration);
  small.hbm_capacity = 5e9;
  const std::string e = errorKey(w, small);
  CHECK(e.find("parameters | ") == 0);
  CHECK(e.find("does not fit") != std::string::npos);
  CHECK(e.find("model parallelism") != std::string::npos);
}

TEST_CASE(
    "step model: interleaving divides the bubble by the virtual stages, uneven stages "
    "let a pipeline split 126 layers",
    "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  const DescribedJob a = describe(w);
  w.vp = 2;
  const DescribedJob b = describe(w);
  CHECK(b.t_bubble == Approx(a.t_bubble / 2).epsilon(1e-9));
  CHECK(b.step_time < a.step_time);
  // 126 layers on 16 stages: refused evenly, accepted with 7 on the first and last stage
  ModelWorkloadSpec u = llama70b();
  u.layers = 126, u.pp = 16, u.tp = 4, u.global_batch = 9 * 16;
  CHECK(errorKey(u).find("first_stage_layers") != std::string::npos);
  u.first_stage_layers = u.last_stage_layers = 7;
  CHECK(errorKey(u).empty());
  // the slowest stage: the last one's 7 layers and the logits of a 128k vocabulary (more than a
  // layer's work) outweigh a middle stage's 8 layers
  CHECK(describe(u).stage_layers_max == 7);
}

TEST_CASE("step model: layout and precision errors name the key and say what would fit",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  CHECK(errorKey(w, kGb200, 500).find("parallelism | ") == 0);
  w.tp = 16;  // beyond an 8-GPU domain
  CHECK(errorKey(w, kGb200, 576, 8).find("parallelism | ") == 0);
  w = llama70b();
  w.tp = 3;  // does not divide the heads
  CHECK(errorKey(w, kGb200, 576 * 3 / 8).find("heads") != std::string::npos);
  w = llama70b();
  w.global_batch = 100;  // not a whole number of micro-batches per pipeline
  CHECK(errorKey(w).find("global_batch | ") == 0);
  w = llama70b();
  w.parameters = 5e12;  // a count that contradicts the architecture
  CHECK(errorKey(w).find("parameters | ") == 0);
  w = llama70b();
  w.precision = Precision::FP8;
  GpuCapability a100 = kGb200;
  a100.peak_fp8 = 0;
  CHECK(errorKey(w, a100).find("precision | ") == 0);
  CHECK(errorKey(w, GpuCapability{}).find("dense_bf16_flops") != std::string::npos);
}

TEST_CASE(
    "step model: FP8 GEMMs, HBM bandwidth and TP overlap move the step as the hardware "
    "would",
    "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  const DescribedJob bf = describe(w);
  w.precision = Precision::FP8;
  const DescribedJob f8 = describe(w);
  CHECK(f8.fwd.gemm < 0.75 * bf.fwd.gemm);  // twice the peak at a similar efficiency
  CHECK(f8.fwd.attention == Approx(bf.fwd.attention).epsilon(1e-12));  // attention in BF16
  // HBM3 (3.35 TB/s) vs HBM3E (4.8 TB/s): memory-bound phases in the ratio, compute unchanged
  GpuCapability h100 = kGb200, h200 = kGb200;
  h100.hbm_bandwidth = 3.35e12, h200.hbm_bandwidth = 4.8e12;
  const DescribedJob a = describe(llama70b(), h100), b = describe(llama70b(), h200);
  CHECK(phaseNamed(a.job, "optimizer")->duration / phaseNamed(b.job, "optimizer")->duration ==
        Approx(4.8 / 3.35).epsilon(1e-9));
  CHECK(phaseNamed(a.job, "elementwise")->duration / phaseNamed(b.job, "elementwise")->duration ==
        Approx(4.8 / 3.35).epsilon(1e-9));
  // TP collectives pipelined with their GEMMs: less exposed time
  w = llama70b();
  w.tp_comm_overlap = true;
  CHECK(describe(w).fwd.tp_exposed < bf.fwd.tp_exposed);
  // DP overlap: the reduce-scatter hides behind the backward pass
  w = llama70b();
  w.overlap_grad_reduce = w.overlap_param_gather = false;
  const DescribedJob exposed = describe(w);
  w.overlap_grad_reduce = w.overlap_param_gather = true;
  CHECK(describe(w).t_dp_exposed < exposed.t_dp_exposed);
}

TEST_CASE("step model: checkpoint size from the model, written at the storage bandwidth",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  w.storage_bandwidth = 50e9;
  auto d = describe(w);
  CHECK(d.checkpoint_bytes == Approx(14 * d.parameters));
  CHECK(d.job.checkpoint_duration == Approx(14 * d.parameters / 50e9));
  w.checkpoint_async = true;  // staged to host memory at 50 GB/s per GPU
  d = describe(w);
  CHECK(d.job.checkpoint_duration == Approx(100e-9 + 14 * d.parameters / (576 * 50e9)));
}

TEST_CASE("step model: vp auto takes the fastest interleaving that fits", "[job_model]") {
  ModelWorkloadSpec w = llama70b();  // 20 layers per stage, 32 micro-batches
  double best = 1e300;
  int best_v = 0;
  for (int v : {1, 2, 4, 5, 10, 20}) {
    w.vp = v;
    const DescribedJob d = describe(w);
    if (d.step_time < best * (1 - 1e-9)) best = d.step_time, best_v = v;
  }
  w.vp = 0;  // auto
  const DescribedJob a = describe(w);
  CHECK(a.vp == best_v);
  CHECK(a.step_time == Approx(best).epsilon(1e-12));
  CHECK(a.vp > 1);  // the bubble shrinks more than the sends grow
  // one stage: nothing to interleave
  w.pp = 1, w.tp = 8, w.global_batch = 576;
  w.recompute = ModelWorkloadSpec::Recompute::Full;
  CHECK(describe(w, kGb200, 576, 72).vp == 1);
  // nothing fits: vp = 1's error, naming the key
  ModelWorkloadSpec big = llama70b();
  big.vp = 0, big.tp = 1, big.pp = 1, big.global_batch = 576;
  CHECK(errorKey(big).find("parameters | parameters: the model does not fit") == 0);
}

TEST_CASE("step model: a DP ring across NVLink domains runs through each member's NIC",
          "[job_model]") {
  // Llama 3 70B, TP 8 PP 1 on 4 domains of 8 (H100-like): DP 4, one member per domain; on
  // domains of 32: 4 members per domain share the ring's network hops
  ModelWorkloadSpec w = llama70b();
  w.pp = 1, w.global_batch = 32, w.recompute = ModelWorkloadSpec::Recompute::Full;
  FabricSpec f;
  const DescribedJob k1 = describeTrainingJob(w, kGb200, f, 32, 8, TrainingJobSpec{});
  const DescribedJob k4 = describeTrainingJob(w, kGb200, f, 64, 32, TrainingJobSpec{});
  REQUIRE(k1.dp == 4);
  REQUIRE(k4.dp == 8);
  CHECK(k1.dp_level == 2);
  CHECK(k4.dp_level == 2);
  // bandwidth parts per byte: (n-1)/n S / B; k1 at one NIC, k4 at 4 NICs (below NVLink's 846 GB/s)
  const double B_net = f.nic_bandwidth * f.network_efficiency;
  const double S = 4.0 * (k1.mem_gradients / 4.0);  // fp32 gradients of the local parameters
  const double rs1 = 3.0 / 4 * S / B_net, rs4 = 7.0 / 8 * S / (4 * B_net);
  const double ag1 = 3.0 / 4 * S / 2 / B_net, ag4 = 7.0 / 8 * S / 2 / (4 * B_net);
  CHECK(k1.dp_comm.beta == Approx(rs1 + ag1).epsilon(1e-9));
  CHECK(k4.dp_comm.beta == Approx(rs4 + ag4).epsilon(1e-9));
}

TEST_CASE("step model: BF16 gradients halve the gradient memory and the DP reduce-scatter",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  const DescribedJob a = describe(w);
  w.grad_reduce_bf16 = true;
  const DescribedJob b = describe(w);
  CHECK(b.mem_gradients == Approx(a.mem_gradients / 2).epsilon(1e-12));
  CHECK(b.memory_per_gpu == Approx(a.memory_per_gpu - a.mem_gradients / 2).epsilon(1e-12));
  // reduce-scatter of 4 B or 2 B per parameter, all-gather of 2 B: beta 6 -> 4 units
  CHECK(b.dp_comm.beta == Approx(a.dp_comm.beta * 4.0 / 6.0).epsilon(1e-9));
  CHECK(b.step_time <= a.step_time);
}

TEST_CASE("step model: the output layer stays BF16 under FP8, short-K GEMMs pay the tile time",
          "[job_model]") {
  // one stage and layer-free arithmetic: the last stage's logits are the same GEMMs in BF16 and
  // FP8, so FP8 shortens only the layers' GEMMs
  ModelWorkloadSpec w = llama70b();
  w.pp = 1, w.layers = 80, w.recompute = ModelWorkloadSpec::Recompute::Full;
  const DescribedJob bf = describe(w);
  w.precision = Precision::FP8;
  const DescribedJob f8 = describe(w);
  w.vocab = 256;  // nearly no logits
  const DescribedJob f8s = describe(w);
  w.precision = Precision::BF16;
  const DescribedJob bfs = describe(w);
  const double logits_bf = (bf.fwd.gemm + bf.bwd.gemm) - (bfs.fwd.gemm + bfs.bwd.gemm);
  const double logits_f8 = (f8.fwd.gemm + f8.bwd.gemm) - (f8s.fwd.gemm + f8s.bwd.gemm);
  CHECK(logits_f8 == Approx(logits_bf).epsilon(1e-6));
  CHECK(f8s.fwd.gemm < 0.8 * bfs.fwd.gemm);
  // the FP8 layers are less than the peak ratio faster: short-K GEMMs (the projection's h/t =
  // 1024) pay a fixed time per output tile that FP8 does not halve
  CHECK(f8s.fwd.gemm > bfs.fwd.gemm * (0.729 / 0.581) / 2);
}

TEST_CASE("step model: sharding the gradients and the parameters over the DP ranks (FSDP)",
          "[job_model]") {
  // Llama 3 70B, TP 8 x PP 4 x DP 18 on the pod: the distributed optimizer is sharding: optim
  ModelWorkloadSpec w = llama70b();
  const DescribedJob zero1 = describe(w);
  w.distributed_optimizer = false;
  w.sharding = ModelWorkloadSpec::Sharding::Optim;
  const DescribedJob optim = describe(w);
  CHECK(optim.step_time == zero1.step_time);
  CHECK(optim.memory_per_gpu == zero1.memory_per_gpu);
  // gradients sharded too: their memory over the 18 ranks, a reduce-scatter every micro-batch
  w.sharding = ModelWorkloadSpec::Sharding::OptimGrads;
  const DescribedJob grads = describe(w);
  CHECK(grads.mem_gradients == Approx(zero1.mem_gradients / 18).epsilon(1e-12));
  CHECK(grads.mem_weights == zero1.mem_weights);
  CHECK(grads.dp_comm.beta > 16 * zero1.dp_comm.beta * 4.0 / 6.0);  // 32 RS + 1 AG vs 1 + 1
  // parameters sharded too: 2 B / 18 per parameter plus two layers gathered, and the gathers
  // (forward and backward) every micro-batch; the model fits with less memory
  w.sharding = ModelWorkloadSpec::Sharding::OptimGradsParams;
  const DescribedJob full = describe(w);
  const double P_layer = countParameters(llama70b()).per_layer / 8;
  CHECK(full.mem_weights ==
        Approx(zero1.mem_weights / 18 + 4 * P_layer).epsilon(1e-3));  // (+ embeddings / 18)
  CHECK(full.memory_per_gpu < grads.memory_per_gpu);
  CHECK(full.dp_comm.total() > grads.dp_comm.total());
  // what a micro-batch's compute cannot hide is exposed: slower than the optimizer-only sharding
  CHECK(full.t_dp_exposed > 0);
  CHECK(full.step_time >= grads.step_time);
}

TEST_CASE("step model: the pipeline in time splits each stage's bubble where 1F1B puts it",
          "[job_model][pipeline]") {
  const DescribedJob d = describe(llama70b());  // pp 4
  ModelWorkloadSpec lw = llama70b();
  lw.pipeline_timing = ModelWorkloadSpec::PipelineTiming::Lockstep;
  const DescribedJob l = describe(lw);
  // the same step, tokens/s and bubble; only where the stages idle differs
  CHECK(d.step_time == Approx(l.step_time).epsilon(1e-12));
  CHECK(d.t_bubble == Approx(l.t_bubble).epsilon(1e-12));
  CHECK(l.job.stages == 1);
  CHECK(l.job.stage_skip.empty());
  REQUIRE(d.job.stages == 4);
  const std::size_t n = d.job.phases.size();
  REQUIRE(d.job.stage_skip.size() == 4 * n);
  int head = -1, mid = -1, tail = -1, fwd = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& name = d.job.phases[i].name;
    if (name == "bubble_head") head = int(i);
    if (name == "bubble_mid") mid = int(i);
    if (name == "bubble_tail") tail = int(i);
    if (name == "forward") fwd = int(i);
  }
  REQUIRE(head >= 0);
  REQUIRE(mid > head);
  REQUIRE(tail > mid);
  CHECK(fwd == head + 1);
  const double B = d.t_bubble;
  const double phi =
      d.job.phases[std::size_t(fwd)].duration /
      (d.job.phases[std::size_t(fwd)].duration + d.job.phases[std::size_t(mid) + 1].duration);
  for (int k = 0; k < 4; ++k) {
    const double* s = d.job.stage_skip.data() + std::size_t(k) * n;
    const double x = k / 3.0;
    // what stage k idles: x B phi before its forward, (1 - x) B before its backward, x B (1 - phi)
    // after it
    CHECK(d.job.phases[std::size_t(head)].duration - s[head] == Approx(x * B * phi).margin(1e-12));
    CHECK(d.job.phases[std::size_t(mid)].duration - s[mid] == Approx((1 - x) * B).margin(1e-12));
    CHECK(d.job.phases[std::size_t(tail)].duration - s[tail] ==
          Approx(x * B * (1 - phi)).margin(1e-12));
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += s[i];
    CHECK(sum == Approx(B).epsilon(1e-12));
  }
  // one stage: nothing to stagger
  ModelWorkloadSpec one = llama70b();
  one.pp = 1;
  one.tp = 8;
  CHECK(describe(one, kGb200, 576).job.stages == 1);
}

TEST_CASE(
    "step model: FP8 and FP4 quantization passes over HBM as Transformer Engine's recipes "
    "read and write the tensors",
    "[job_model]") {
  // per element of the four GEMM inputs (forward) and of their outputs' gradients (backward):
  // delayed scaling reads the BF16 tensor once, tensorwise (current) scaling twice, NVFP4 four
  // times; each writes a row-wise and a column-wise copy (FP8 1 B, NVFP4 0.5 B + a scale per 16)
  ModelWorkloadSpec w = llama70b();
  const DescribedJob bf = describe(w);
  w.precision = Precision::FP8;
  const DescribedJob delayed = describe(w);
  w.fp8_recipe = ModelWorkloadSpec::Fp8Recipe::Tensorwise;
  const DescribedJob tensorwise = describe(w);
  w.precision = Precision::FP4;
  const DescribedJob nvfp4 = describe(w);
  const double q_f = delayed.fwd.memory - bf.fwd.memory, q_b = delayed.bwd.memory - bf.bwd.memory;
  REQUIRE(q_f > 0);
  REQUIRE(q_b > 0);
  CHECK(tensorwise.fwd.memory - delayed.fwd.memory == Approx(0.5 * q_f).epsilon(1e-9));  // 6 / 4
  CHECK(tensorwise.bwd.memory - delayed.bwd.memory == Approx(0.5 * q_b).epsilon(1e-9));
  CHECK(nvfp4.fwd.memory - bf.fwd.memory == Approx(q_f * (8.0 + 2 * (0.5 + 1.0 / 16)) / 4.0));
  // the backward quantizes the outputs' gradients: QKV, projection, FC1 (gated: 2 f) and FC2
  // outputs against their inputs h, h/t, h and f/t (t = 8, h = 8192, f = 28672, 8 query groups)
  const double h = 8192, f = 28672, t = 8, qkv = h + 2 * 8 * 128;
  CHECK(q_b / q_f == Approx((qkv / t + h + 2 * f / t + h) / (2 * h + (h + f) / t)).epsilon(1e-9));
}

TEST_CASE("step model: activations offloaded layer by layer (pp = 1) and FP8's quantized copies",
          "[job_model]") {
  // Llama 3 70B on 64 GB200 with FSDP, TP 1 x PP 1, two sequences per micro-batch (the Megatron
  // Bridge recipe's layout)
  ModelWorkloadSpec w = llama70b();
  w.tp = 1, w.pp = 1, w.global_batch = 256, w.micro_batch_size = 2;
  w.sharding = ModelWorkloadSpec::Sharding::OptimGradsParams;
  w.precision = Precision::FP8;
  w.grad_reduce_bf16 = true;
  w.recompute = ModelWorkloadSpec::Recompute::Full;  // fits without offload: the reference
  GpuCapability g = kGb200;
  g.hbm_capacity = 288e9;  // GB300's HBM: every variant below fits
  const DescribedJob full = describe(w, g, 64, 72);
  // FP8 keeps the QKV, FC1 and FC2 inputs at 1 B: less activation memory than BF16 at the same
  // layout, and the same at full recompute (the layer input stays BF16)
  w.recompute = ModelWorkloadSpec::Recompute::None;
  w.offload_activations = true;
  w.offload_activation_layers = 40;
  const DescribedJob off40 = describe(w, g, 64, 72);
  auto perLayer = [&](Precision p) {  // from the resident memory at 30 and 40 layers offloaded
    ModelWorkloadSpec x = w;
    x.precision = p;
    x.offload_activation_layers = 30;
    const double m30 = describe(x, g, 64, 72).mem_activations;
    x.offload_activation_layers = 40;
    return (m30 - describe(x, g, 64, 72).mem_activations) / 10.0;
  };
  CHECK(perLayer(Precision::FP8) < 0.9 * perLayer(Precision::BF16));
  // resident: 80 - 40 layers and one in transit, of the micro-batch's per-layer activations
  ModelWorkloadSpec w20 = w;
  w20.offload_activation_layers = 20;
  const DescribedJob off20 = describe(w20, g, 64, 72);
  const double logits = 4.0 * 2 * 8192 * 128256;
  const double per_layer = (off20.mem_activations - off40.mem_activations) / 20.0;
  CHECK(off40.mem_activations == Approx(41 * per_layer + logits).epsilon(1e-9));
  // the transfers: every offloaded layer written and read once per micro-batch, over the Grace
  // LPDDR shared by two GPUs; what exceeds the next layer's compute is the exposed phase
  CHECK(off40.host.activation_tier == HostTier::Lpddr);
  const HostMemorySpec host;
  const double t_x = hostTransferTime(host, HostTier::Lpddr, per_layer);
  CHECK(off40.t_activations_host == Approx(2.0 * 2 * 40 * t_x).epsilon(1e-9));
  const PhaseSpec* ph = phaseNamed(off40.job, "activation_offload");
  REQUIRE(ph != nullptr);
  const double t_f = off40.fwd.total() / 80, t_b = off40.bwd.total() / 80;
  CHECK(ph->duration ==
        Approx(2 * 40 * (std::max(0.0, t_x - t_f) + std::max(0.0, t_x - t_b))).epsilon(1e-9));
  CHECK(ph->duration < off40.t_activations_host);
  // no recompute is faster than full recompute when the transfers hide mostly
  CHECK(off40.step_time < full.step_time);
  // bad input: more layers than the stage has, or a pipeline
  ModelWorkloadSpec bad = w;
  bad.offload_activation_layers = 80;
  CHECK(errorKey(bad, g, 64, 72).rfind("offload | ", 0) == 0);
  bad = llama70b();
  bad.offload_activations = true;
  bad.offload_activation_layers = 4;
  const std::string e = errorKey(bad);
  CHECK(e.rfind("offload | ", 0) == 0);
  CHECK(e.find("pp = 4") != std::string::npos);
  bad = w;  // layers without activations: not silently ignored
  bad.offload_activations = false;
  CHECK(errorKey(bad, g, 64, 72).find("activations: true") != std::string::npos);
}
