#include "models/job_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace dctwin {

namespace {

using R = ModelWorkloadSpec::Recompute;

[[noreturn]] void fail(const std::string& key, const std::string& what) {
  throw JobModelError(key, key + ": " + what);
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string gb(double bytes) {
  return num(bytes / 1e9) + " GB";
}

std::string str(int v) {
  return std::to_string(v);
}

// members of a group of `size` ranks `stride` apart inside one NVLink domain of `per_domain`
int membersPerDomain(int size, int stride, int per_domain) {
  return stride >= per_domain ? 1 : std::max(1, std::min(size, per_domain / stride));
}

// the network level as a ring collective over a group with k members in each NVLink domain sees
// it: NCCL runs a ring channel through each member's NIC, so each network hop carries 1/k of the
// data while every NVLink hop carries all of it; the bus bandwidth is the smaller of k NICs and
// NVLink [F96]
FabricLevel spreadOver(const FabricLevel& net, const FabricLevel& nvl, int k) {
  if (k <= 1) return net;
  return {std::min(k * net.bandwidth * net.efficiency, nvl.bandwidth * nvl.efficiency), 1.0,
          net.latency};
}

// 1 if every group of `size` ranks with `stride` lies inside one NVLink domain, else 2
int levelOf(int n, int size, int stride, int per_domain) {
  if (size <= 1) return 1;
  for (int base = 0; base < n; ++base) {
    if ((base / stride) % size != 0) continue;  // not the first member of its group
    const int first = base, last = base + (size - 1) * stride;
    if (first / per_domain != last / per_domain) return 2;
  }
  return 1;
}

// the utilizations of the step's compute phases (forward, backward): the load whose clock under
// the power limit the engine stretches from, and at which the step model's kernels run
constexpr double kComputeSm = 0.90, kComputeHbm = 0.35, kComputeNvlink = 0.30, kComputeNet = 0.10;

PhaseSpec phase(const char* name, double d, PhaseSpec::Bound b, double sm, double hbm, double nvl,
                double net, bool barrier = false, int level = 0, double beta = 0) {
  PhaseSpec p;
  p.name = name;
  p.duration = d;
  p.bound = b;
  p.a_sm = sm, p.a_hbm = hbm, p.a_nvlink = nvl, p.a_network = net;
  p.barrier = barrier;
  p.level = level;
  p.comm_beta = beta;
  return p;
}

CollectiveTime scaled(CollectiveTime t, double k) {
  return {t.alpha * k, t.beta * k};
}

CollectiveTime plus(CollectiveTime a, CollectiveTime b) {
  return {a.alpha + b.alpha, a.beta + b.beta};
}

// the architecture's derived sizes
struct Arch {
  double h = 0, f = 0, fe = 0, dh = 0, qkv = 0, V = 0, s = 0;  // qkv: output width of QKV
  int a = 0, g = 0;
  bool moe = false;
};

Arch archOf(const ModelWorkloadSpec& w) {
  Arch x;
  x.h = w.hidden;
  x.f = w.ffn_hidden > 0 ? w.ffn_hidden : 4.0 * w.hidden;
  x.fe = w.moe_ffn_hidden > 0 ? w.moe_ffn_hidden : x.f;
  x.a = w.heads;
  x.g = w.kv_heads > 0 ? w.kv_heads : w.heads;
  x.dh = w.heads > 0 ? w.hidden / w.heads : 0;
  x.qkv = x.h + 2.0 * x.g * x.dh;
  x.V = w.vocab;
  x.s = w.sequence_length;
  x.moe = w.experts > 0;
  return x;
}

void checkInputs(const ModelWorkloadSpec& w, const GpuCapability& g, int n_gpu, int per_domain) {
  if (w.layers < 1) fail("layers", "must be >= 1");
  if (!(w.hidden > 0)) fail("hidden", "must be > 0");
  if (w.heads < 1) fail("heads", "must be >= 1");
  if (std::fmod(w.hidden, w.heads) != 0)
    fail("heads", str(w.heads) + " heads do not divide hidden = " + num(w.hidden));
  if (w.kv_heads < 0 || (w.kv_heads > 0 && w.heads % w.kv_heads != 0))
    fail("kv_heads", "must divide heads = " + str(w.heads) + ", got " + str(w.kv_heads));
  if (!(w.ffn_hidden >= 0)) fail("ffn_hidden", "must be >= 0 (0: 4 hidden)");
  if (!(w.vocab > 0)) fail("vocab", "must be > 0");
  if (!(w.sequence_length > 0)) fail("sequence_length", "must be > 0");
  if (w.experts < 0) fail("experts", "must be >= 0 (0: dense)");
  if (w.experts > 0 && (w.moe_top_k < 1 || w.moe_top_k > w.experts))
    fail("moe_top_k", "must be between 1 and experts = " + str(w.experts));
  if (w.micro_batch_size < 1) fail("micro_batch_size", "must be >= 1");
  if (w.tp < 1 || w.pp < 1 || w.vp < 0 || w.cp < 1 || w.ep < 1 || w.dp < 0)
    fail("parallelism", "tp, pp, cp, ep >= 1, vp >= 1 (0: auto), dp >= 0");
  if (!(g.peak_bf16 > 0))
    fail("parameters", "GPU type '" + g.name + "' has no dense_bf16_flops (data/catalog/gpus)");
  if (!(g.peak(w.precision) > 0))
    fail("precision", "GPU type '" + g.name + "' has no dense " + precisionName(w.precision) +
                          " peak (data/catalog/gpus): use a precision it has");
  if (!(g.hbm_bandwidth > 0) || !(g.hbm_capacity > 0))
    fail("parameters", "GPU type '" + g.name + "' has no HBM bandwidth or capacity");
  if (!(w.gemm_efficiency > 0 || g.gemmEfficiency(w.precision) > 0))
    fail("precision", "GPU type '" + g.name + "' has no kernel_efficiency.gemm_" +
                          precisionName(w.precision) + " (data/catalog/gpus)");
  if (!(g.eff.attention_forward > 0 && g.eff.attention_backward > 0))
    fail("parameters",
         "GPU type '" + g.name +
             "' has no kernel_efficiency.attention_forward/backward (data/catalog/gpus)");
  if (!(w.hbm_efficiency > 0 || g.eff.hbm > 0))
    fail("parameters",
         "GPU type '" + g.name + "' has no kernel_efficiency.hbm (data/catalog/gpus)");
  for (double e : {w.gemm_efficiency, w.attention_efficiency, w.hbm_efficiency})
    if (!(e >= 0 && e <= 1)) fail("efficiency", "every efficiency override must be in [0, 1]");
  if (n_gpu < 1) fail("parallelism", "the job has no GPUs");
  if (per_domain < 1) fail("parallelism", "the NVLink domain has no GPUs");
}

// compute beside an overlapped collective runs this much slower (average over A100 / H100
// workloads [WL23])                                                                       (1)
constexpr double kOverlapSlowdown = 0.189;

// a GEMM's time: the dense peak of its precision at the GPU type's large-GEMM efficiency, its
// output tiles in waves over the SMs (tile and wave quantization [F94]), and at least the time
// to stream its operands through HBM (roofline)
// Every output tile also pays a fixed time beside its K loop (filling the operand pipeline, the
// epilogue writing the tile): 1.24 us, so that a 4096 x 4096 x 1024 BF16 GEMM on H100 reaches
// 69.3 % of peak against 78.9 % at K = 4096 [F66]; the same time gives B200 BF16 at K = 256 and
// 1024 within 4 points of [F66] and H800 FP8 at K = 1024 within 5 points of [F68] (d)
constexpr double kTileFixedTime = 1.24e-6;

struct GemmTimer {
  double peak = 0, eff = 0, bw = 0, elem = 2;
  int sms = 0;
  double rate = 1;  // the rate over the one the efficiency was measured at (the tile time too)
  // `count` GEMMs of one shape run as one batched (grouped) kernel: their output tiles share the
  // waves. The tile: 128 rows by 256 columns, narrower (128, 64) for a narrow output, as the
  // CUTLASS / cuBLAS heuristics pick (a) [F94]
  double time(const GemmShape& x) const {
    if (x.M <= 0 || x.N <= 0 || x.K <= 0 || x.count <= 0) return 0;
    double q = 1, t_fixed = 0;
    if (sms > 0) {
      const double tm = x.M >= 128 ? 128.0 : 64.0;
      const double tn = x.N >= 256 ? 256.0 : x.N >= 128 ? 128.0 : 64.0;
      const double tiles = x.count * std::ceil(x.M / tm) * std::ceil(x.N / tn);
      const double waves = std::ceil(tiles / sms);
      q = x.count * x.M * x.N / (tm * tn * waves * sms);
      t_fixed = waves * kTileFixedTime / x.count;  // (the batch shares the waves)
    }
    const double t_c = (2.0 * x.M * x.N * x.K / (peak * eff * std::min(1.0, q)) + t_fixed) / rate;
    const double t_m = elem * (x.M * x.K + x.K * x.N + x.M * x.N) / bw;
    return x.count * std::max(t_c, t_m);
  }
};

}  // namespace

const char* precisionName(Precision p) {
  return p == Precision::FP8 ? "fp8" : p == Precision::FP4 ? "fp4" : "bf16";
}

const char* recomputeName(ModelWorkloadSpec::Recompute r) {
  switch (r) {
    case R::None:
      return "none";
    case R::Selective:
      return "selective";
    case R::Full:
      return "full";
    case R::Auto:
      break;
  }
  return "auto";
}

GpuCapability gpuCapability(const GpuParams& g, const std::string& name, double P_limit,
                            double T_ref) {
  GpuCapability c;
  c.name = name;
  c.peak_bf16 = g.peak_flops, c.peak_fp8 = g.peak_fp8, c.peak_fp4 = g.peak_fp4;
  c.hbm_bandwidth = g.hbm_bandwidth, c.hbm_capacity = g.hbm_capacity;
  c.sm_count = g.sm_count;
  c.eff = {g.eff_gemm_bf16,     g.eff_gemm_fp8,      g.eff_gemm_fp4,
           g.eff_attention_fwd, g.eff_attention_bwd, g.eff_hbm};
  // the kernel efficiencies are measured at the default limit: under another limit the compute
  // kernels run at the clock the power model gives there (a type without a power model: 1)
  const GpuLoad compute{kComputeSm, kComputeHbm, kComputeNvlink, false, false};
  const double x_limit = gpuReferenceClock(g, P_limit, compute, T_ref);
  const double x_default = gpuReferenceClock(g, g.P_tdp, compute, T_ref);
  // (the default limit itself: exactly 1, whatever the stall share's rounding)
  if (P_limit > 0 && g.P_tdp > 0 && x_limit > 0 && x_default > 0 && x_limit != x_default) {
    const double stall = std::clamp(g.eff_gemm_stall, 0.0, 1.0);
    c.rate_scale = 1.0 / ((1.0 - stall) * x_default / x_limit + stall);
  }
  return c;
}

ParameterCount countParameters(const ModelWorkloadSpec& w) {
  const Arch x = archOf(w);
  const double attn = x.h * x.qkv + x.h * x.h + 2.0 * x.h;  // QKV, projection, two norms
  const double mats = w.gated_mlp ? 3.0 : 2.0;
  ParameterCount c;
  c.embedding = x.V * x.h * (w.tied_embeddings ? 1.0 : 2.0) + x.h;  // + final norm
  if (x.moe) {
    const double expert = mats * x.h * x.fe;
    c.per_layer = attn + w.experts * expert + x.h * w.experts;  // + router
    c.active = w.layers * (attn + w.moe_top_k * expert + x.h * w.experts) + c.embedding;
  } else {
    c.per_layer = attn + mats * x.h * x.f;
    c.active = w.layers * c.per_layer + c.embedding;
  }
  c.total = w.layers * c.per_layer + c.embedding;
  return c;
}

namespace {

DescribedJob describeOnce(const ModelWorkloadSpec& w, const GpuCapability& gpu,
                          const FabricSpec& fabric, int n, int per_domain,
                          const TrainingJobSpec& base, const HostMemorySpec& host) {
  using B = PhaseSpec::Bound;
  checkInputs(w, gpu, n, per_domain);
  validateFabric(fabric);
  try {
    validateHostMemory(host);
  } catch (const std::invalid_argument& e) {
    fail("host_memory", e.what());
  }
  if (!(w.data_bytes_per_token >= 0)) fail("data_bytes_per_token", "must be >= 0");
  if (!(w.activation_offload_overlap >= 0 && w.activation_offload_overlap < 1))
    fail("offload", "activation_overlap must be in [0, 1)");
  const Arch x = archOf(w);
  DescribedJob d;
  d.vp = w.vp;

  // 1. the parallel layout: TP innermost, then CP, PP, DP
  const int tp = w.tp, cp = w.cp, pp = w.pp, vp = w.vp, ep = w.ep, mp = tp * cp * pp;
  if (n % mp != 0)
    fail("parallelism", "tp x cp x pp = " + str(tp) + " x " + str(cp) + " x " + str(pp) + " = " +
                            str(mp) + " does not divide the job's " + str(n) + " GPUs");
  d.dp = w.dp > 0 ? w.dp : n / mp;
  if (mp * d.dp != n)
    fail("parallelism", "tp x cp x pp x dp = " + str(mp * d.dp) + " differs from the job's " +
                            str(n) + " GPUs (dp = " + str(n / mp) + " would fit)");
  if (tp > per_domain || per_domain % tp != 0)
    fail("parallelism",
         "tp = " + str(tp) + " must divide the NVLink domain's " + str(per_domain) + " GPUs");
  if (x.a % tp != 0 || x.g % tp != 0)
    fail("parallelism", "tp = " + str(tp) + " must divide the heads (" + str(x.a) +
                            ") and the query groups (" + str(x.g) + ")");
  if (std::fmod(x.s, 2.0 * cp) != 0 && cp > 1)
    fail("parallelism", "cp = " + str(cp) + ": sequence_length " + num(x.s) +
                            " must be a multiple of 2 cp (causal load balancing)");
  if (x.moe && w.experts % ep != 0)
    fail("parallelism", "ep = " + str(ep) + " must divide the " + str(w.experts) + " experts");
  if (!x.moe && ep > 1) fail("parallelism", "ep > 1 needs experts > 0");
  if (ep > 1 && (d.dp * cp) % ep != 0)
    fail("parallelism", "ep = " + str(ep) + " must divide dp x cp = " + str(d.dp * cp));
  // stages: uneven first / last stages, the rest even; each stage's layers split into vp chunks
  std::vector<int> stage(pp, 0);
  {
    const int Lf = w.first_stage_layers, Ll = w.last_stage_layers;
    if (Lf < 0 || Ll < 0) fail("parallelism", "first_stage_layers, last_stage_layers must be >= 0");
    if ((Lf > 0 || Ll > 0) && pp < 2) fail("parallelism", "uneven stages need pp >= 2");
    int rest = w.layers, mid = pp;
    if (Lf > 0) rest -= Lf, --mid;
    if (Ll > 0) rest -= Ll, --mid;
    if (rest < 0 || (mid == 0 && rest != 0) || (mid > 0 && (rest % mid != 0 || rest / mid < 1)))
      fail("parallelism",
           "pp = " + str(pp) + " stages do not split the " + str(w.layers) + " layers" +
               (Lf > 0 || Ll > 0
                    ? " with first_stage_layers " + str(Lf) + " and last_stage_layers " + str(Ll)
                    : std::string("")) +
               " evenly: give first_stage_layers / last_stage_layers, or a pp that divides them");
    for (int p = 0; p < pp; ++p) stage[p] = mid > 0 ? rest / mid : 0;
    if (Lf > 0) stage[0] = Lf;
    if (Ll > 0) stage[pp - 1] = Ll;
    for (int p = Lf > 0 ? 1 : 0; p < (Ll > 0 ? pp - 1 : pp); ++p)  // uneven ends: uneven chunks
      if (stage[p] % vp != 0)
        fail("parallelism", "vp = " + str(vp) + " must divide every stage's layers (stage " +
                                str(p) + " has " + str(stage[p]) + ")");
  }
  if (vp > 1 && pp < 2) fail("parallelism", "vp > 1 (interleaved 1F1B) needs pp >= 2");
  const bool sp = w.sequence_parallel && tp > 1;
  double seqs = w.global_batch;
  if (seqs > 0 && w.tokens_per_iteration > 0 &&
      std::abs(seqs * x.s - w.tokens_per_iteration) > 1e-9 * w.tokens_per_iteration)
    fail("tokens_per_iteration", "global_batch x sequence_length = " + num(seqs * x.s) +
                                     " differs from tokens_per_iteration " +
                                     num(w.tokens_per_iteration) + ": give one of them");
  if (!(seqs > 0)) seqs = w.tokens_per_iteration / x.s;
  if (!(seqs > 0)) fail("global_batch", "give global_batch (sequences) or tokens_per_iteration");
  const double m = seqs / (w.micro_batch_size * double(d.dp));
  if (std::abs(m - std::round(m)) > 1e-9 * m || std::round(m) < 1)
    fail("global_batch", num(seqs) + " sequences are " + num(m) +
                             " micro-batches per pipeline (global_batch / (micro_batch_size dp "
                             "= " +
                             str(w.micro_batch_size * d.dp) + ")): expected a whole number >= 1");
  d.micro_batches = int(std::round(m));
  if (vp > 1 && d.micro_batches % pp != 0)
    fail("global_batch", "the interleaved schedule (vp > 1) needs the " + str(d.micro_batches) +
                             " micro-batches per pipeline to be a multiple of pp = " + str(pp));
  d.tp_level = 1;
  d.cp_level = levelOf(n, cp, tp, per_domain);
  d.pp_level = levelOf(n, pp, tp * cp, per_domain);
  d.dp_level = levelOf(n, d.dp, mp, per_domain);
  d.ep_level = levelOf(n, ep, mp, per_domain);

  // 2. parameters
  const ParameterCount pc = countParameters(w);
  d.parameters = pc.total;
  d.active_parameters = pc.active;
  auto checkCount = [&](const char* key, double given, double computed) {
    if (given > 0 && std::abs(given - computed) > 0.05 * computed)
      fail(key, num(given) + " differs by more than 5 % from the " + num(computed) +
                    " the architecture gives (layers, hidden, ffn_hidden, heads, kv_heads, vocab, "
                    "experts): correct the architecture, or leave " +
                    key + " out");
  };
  checkCount("parameters", w.parameters, pc.total);
  checkCount("active_parameters", w.active_parameters, pc.active);

  // 3. one micro-batch on one GPU: tokens, the GEMMs of a layer, attention, memory-bound bytes
  const double b = w.micro_batch_size;
  const double T = b * x.s / cp;                // tokens of a micro-batch on this rank
  const double Tsp = sp ? T / tp : T;           // in the sequence-parallel regions
  const double mats = w.gated_mlp ? 2.0 : 1.0;  // FC1 outputs per FFN column
  const double peak = gpu.peak(w.precision);
  const double eff_gemm =
      w.gemm_efficiency > 0 ? w.gemm_efficiency : gpu.gemmEfficiency(w.precision);
  const double eff_hbm = w.hbm_efficiency > 0 ? w.hbm_efficiency : gpu.eff.hbm;
  const double attn_scale = w.attention_efficiency > 0 ? w.attention_efficiency : 1.0;
  const double B_hbm = eff_hbm * gpu.hbm_bandwidth;
  const double elem = w.precision == Precision::BF16  ? 2.0
                      : w.precision == Precision::FP8 ? 1.0
                                                      : 0.5;
  const GemmTimer gemm{peak, eff_gemm, B_hbm, elem, gpu.sm_count, gpu.rate_scale};
  // BF16 whatever the precision: the output layer (Megatron's ColumnParallelLinear outside
  // Transformer Engine's FP8 / FP4 autocast [F92]) and unfused attention's score GEMMs
  const GemmTimer bf16{gpu.peak_bf16, gpu.eff.gemm_bf16 > 0 ? gpu.eff.gemm_bf16 : eff_gemm,
                       B_hbm,         2.0,
                       gpu.sm_count,  gpu.rate_scale};
  std::vector<GemmShape> layer_gemms = {{T, x.qkv / tp, x.h}, {T, x.h, x.h / tp}};
  if (x.moe) {  // k of E experts per token, E / ep per rank, each of T k ep / E tokens
    const double tok = T * w.moe_top_k * ep / w.experts;
    layer_gemms.push_back({tok, mats * x.fe / tp, x.h, double(w.experts) / ep});
    layer_gemms.push_back({tok, x.h, x.fe / tp, double(w.experts) / ep});
  } else {
    layer_gemms.push_back({T, mats * x.f / tp, x.h});
    layer_gemms.push_back({T, x.h, x.f / tp});
  }
  // backward: the data gradient (T x K, contracting N) and the weight gradient (K x N,
  // contracting the tokens) of each forward GEMM (T x N, contracting K)
  double t_gemm_f = 0, t_gemm_b = 0;
  for (const GemmShape& s : layer_gemms) {
    t_gemm_f += gemm.time(s);
    t_gemm_b += gemm.time({s.M, s.K, s.N, s.count}) + gemm.time({s.K, s.N, s.M, s.count});
  }
  // attention core. Flash (causal: half of the s x s scores): 4 b s_q s_kv h / tp FLOPs forward,
  // 2.5 x that backward (five matrix products against two) [F69][F90]. Unfused (Megatron-LM
  // before flash attention): the scores as batched GEMMs over every head (QK^T: s x s x dh, PV:
  // s x dh x s, all s^2 computed), the masked softmax and dropout streaming each score through
  // HBM (a 2 B read and a 2 B write, a 1 B mask, the 2 B dropout output), backward twice
  const bool unfused = w.attention == ModelWorkloadSpec::Attention::Unfused;
  const double heads_local = double(x.a) / tp;
  const double attn_flops_f = 4.0 * b * (x.s / cp) * (x.s / 2.0) * x.h / tp;
  double t_attn_f, t_attn_b;
  if (unfused) {
    const double nb = b * heads_local;
    const double t_mm = bf16.time({x.s / cp, x.s, x.dh, nb}) + bf16.time({x.s / cp, x.dh, x.s, nb});
    const double scores = nb * (x.s / cp) * x.s;
    t_attn_f = t_mm + 7.0 * scores / B_hbm;
    t_attn_b = 2.0 * t_mm + 2.0 * 7.0 * scores / B_hbm;
  } else {
    const double attn_rate = gpu.peak_bf16 * attn_scale * gpu.rate_scale;
    t_attn_f = attn_flops_f / (attn_rate * gpu.eff.attention_forward);
    t_attn_b = 2.5 * attn_flops_f / (attn_rate * gpu.eff.attention_backward);
  }
  // memory-bound kernels (bytes): two norms (read + write h), two residual adds (2 reads, a
  // write), the MLP activation (GeLU: f in, f out; SwiGLU 2 f in, f out), the rotary embedding
  // of q and k; backward twice
  const double fw = x.moe ? w.moe_top_k * x.fe : x.f;
  const double bytes_f = 2.0 * (Tsp * (4.0 * x.h + 6.0 * x.h) + T * (mats + 1.0) * fw / tp +
                                T * 2.0 * (x.h + x.g * x.dh) / tp);
  // FP8 / FP4 quantization (Transformer Engine [F99]): the forward quantizes the four GEMM inputs,
  // the backward the gradients of their four outputs, each into a row-wise copy and a
  // column-wise (transposed) one for the weight gradient. Per element the BF16 tensor is read
  // once (delayed scaling: the scale from the amax history; mxfp8: the block amax inside the
  // cast), twice (tensorwise "current" scaling: the amax first, then the cast), or four times
  // (NVFP4: the tensor's amax and the cast, and both again for the column-wise copy after its
  // 16 x 16 random Hadamard transform); each copy is written at e bytes an element plus its
  // scales. (The weights are quantized once per step and cached over the micro-batches.)
  double q_f = 0, q_b = 0;
  // bytes per element of a quantized copy (with its scales); BF16: 2
  const double e_q =
      w.precision == Precision::FP4 ? 0.5 + 1.0 / 16
      : w.precision == Precision::BF16
          ? 2.0
          : (w.fp8_recipe == ModelWorkloadSpec::Fp8Recipe::Mxfp8 ? 1.0 + 1.0 / 32 : 1.0);
  if (w.precision != Precision::BF16) {
    using FR = ModelWorkloadSpec::Fp8Recipe;
    const bool fp4 = w.precision == Precision::FP4;
    const double reads = fp4 ? 4.0 : w.fp8_recipe == FR::Tensorwise ? 2.0 : 1.0;
    const double e = e_q;
    const double per = 2.0 * reads + 2.0 * e;
    q_f = per * T * (2.0 * x.h + (x.h + fw) / tp);              // QKV, proj, FC1, FC2 in
    q_b = per * T * (x.qkv / tp + x.h + mats * fw / tp + x.h);  // their outputs' gradients
  }
  double t_mem_f = (bytes_f + q_f) / B_hbm, t_mem_b = (2.0 * bytes_f + q_b) / B_hbm;
  // the last stage's logits and loss: Megatron's vocabulary-parallel cross-entropy in FP32 [F99]
  // reads and writes each logit in passes of its own: the cast to FP32 (2 B read, 4 B write), the
  // max (4), the subtraction of the max (8), exp (8), the sum (4), the division by it (8): 38 B
  // forward; the backward's product with the loss gradient (8) and the cast back to BF16 (6): 14 B
  const GemmShape logits{T, x.V / tp, x.h};
  double t_logits_f = bf16.time(logits), t_loss_f = 38.0 * T * x.V / tp / B_hbm;
  double t_logits_b = bf16.time({T, x.h, x.V / tp}) + bf16.time({x.h, x.V / tp, T}),
         t_loss_b = 14.0 * T * x.V / tp / B_hbm;
  // calibration (c): the kernels of a training step take kKernelCalibration times what their
  // benchmarks give
  for (double* t : {&t_gemm_f, &t_gemm_b, &t_attn_f, &t_attn_b, &t_mem_f, &t_mem_b, &t_logits_f,
                    &t_logits_b, &t_loss_f, &t_loss_b})
    *t *= kKernelCalibration;

  // 4. collectives of a micro-batch and layer (whole collectives, alpha-beta, models/fabric.h)
  const FabricLevel nvl = fabric.nvlinkLevel(), net = fabric.networkLevel();
  auto lvl = [&](int l) { return l == 1 ? nvl : net; };
  const double act_bytes = 2.0 * T * x.h;  // one layer's activations of the micro-batch
  CollectiveTime tp_layer_f, cp_layer_f, ep_layer_f;
  if (tp > 1) {  // two all-reduces (sp: two all-gathers and two reduce-scatters) per pass [F27]
    tp_layer_f =
        sp ? scaled(plus(collectiveTime(Collective::AllGather, w.tp_algorithm, tp, act_bytes, nvl),
                         collectiveTime(Collective::ReduceScatter, w.tp_algorithm, tp, act_bytes,
                                        nvl)),
                    2.0)
           : scaled(collectiveTime(Collective::AllReduce, w.tp_algorithm, tp, act_bytes, nvl), 2.0);
  }
  if (cp > 1)  // K and V of the other cp - 1 chunks, passed around the ring
    cp_layer_f = scaled(collectiveTime(Collective::SendRecv, CollectiveAlgorithm::Ring, 2,
                                       2.0 * 2.0 * T * x.g * x.dh / tp, lvl(d.cp_level)),
                        cp - 1.0);
  if (x.moe && ep > 1)  // dispatch and combine of k copies of each token
    ep_layer_f = scaled(collectiveTime(Collective::AllToAll, CollectiveAlgorithm::Ring, ep,
                                       2.0 * Tsp * x.h * w.moe_top_k, lvl(d.ep_level)),
                        2.0);
  // exposed: TP in full unless pipelined with its GEMMs (then what the GEMMs cannot cover, and
  // the first of tp chunks [F27]); CP behind the attention blocks; EP in full
  auto tpExposed = [&](double t_comm, double t_cover) {
    if (!w.tp_comm_overlap) return t_comm;
    return std::max(0.0, t_comm - t_cover) + t_comm / tp;
  };
  auto cpExposed = [&](double t_comm, double t_attn) {
    return std::max(0.0, t_comm - t_attn * (cp - 1.0) / cp);
  };

  // 5. recompute and memory per GPU
  const double L_first = stage[0];
  // activations of one layer and micro-batch (bytes), generalising [F28]'s 34 s b h:
  //   attention: QKV input 2, Q 2, K and V 4 g dh / h, output 2 (s b h units); MLP: FC1 input
  //   2, activation input 2 f (x2 gated) / h, FC2 input 2 f / h; norms 4; the replicated parts
  //   (QKV and FC1 inputs, norms) divided by tp with sequence parallelism.
  //   In FP8 / FP4 a GEMM keeps its input quantized (Transformer Engine saves the quantized
  //   copy the weight gradient reads, `module/linear.py` [F99]): the QKV, FC1 and FC2 inputs at
  //   e_q bytes, and the projection its own quantized copy of the attention output (in BF16
  //   one tensor serves both)
  const bool quantized = w.precision != Precision::BF16;
  const double act_repl = Tsp * (e_q + e_q + 4.0) * x.h;
  const double act_shard =
      T * (2.0 * x.h + 4.0 * x.g * x.dh + 2.0 * x.h + (quantized ? e_q * x.h : 0.0)) / tp +
      T * (2.0 * mats * fw + e_q * fw) / tp;
  // unfused attention also keeps the scores: softmax output 2, dropout mask 1, its output 2 (B
  // per score) [F28]
  const double act_scores = unfused ? 5.0 * b * heads_local * (x.s / cp) * x.s : 0.0;
  const double act_none = act_repl + act_shard + act_scores;
  // selective: the attention core recomputed, its output (and the scores) not kept
  const double act_selective = act_none - act_scores - (unfused ? 0.0 : 2.0 * T * x.h / tp);
  const double act_full = 2.0 * Tsp * x.h;  // the layer's input only
  // 1F1B holds min(pp, m) micro-batches on the first stage; interleaving adds (pp-1)/(pp vp)
  const double inflight =
      std::min<double>(pp, d.micro_batches) * (vp > 1 ? 1.0 + (pp - 1.0) / (double(pp) * vp) : 1.0);
  // parameters per GPU of the most loaded stage: its layers (experts over ep) and embeddings
  const double dense_layer = pc.per_layer - (x.moe ? w.experts * (mats + 1.0) * x.h * x.fe : 0.0);
  const double expert_layer = x.moe ? w.experts * (mats + 1.0) * x.h * x.fe : 0.0;
  auto stageParams = [&](int p) {
    double v = stage[p] * (dense_layer / tp + expert_layer / (tp * double(ep)));
    if (p == 0) v += x.V * x.h / tp;
    if (p == pp - 1 && !w.tied_embeddings) v += x.V * x.h / tp;
    if (p == pp - 1 && w.tied_embeddings && pp > 1) v += x.V * x.h / tp;
    return v;
  };
  double P_local = 0;
  for (int p = 0; p < pp; ++p) P_local = std::max(P_local, stageParams(p));
  using S = ModelWorkloadSpec::Sharding;
  const S sharding = w.distributed_optimizer && w.sharding == S::None ? S::Optim : w.sharding;
  const double shards = sharding != S::None ? double(d.dp) * cp : 1.0;
  const bool shard_grads = sharding == S::OptimGrads || sharding == S::OptimGradsParams;
  const bool shard_params = sharding == S::OptimGradsParams;
  // one layer's parameters on this rank (the FSDP working set: the layer computing and the one
  // being gathered, in bf16)
  const double layer_local = dense_layer / tp + expert_layer / (tp * double(ep));
  d.mem_weights = shard_params ? 2.0 * P_local / shards + 2.0 * 2.0 * layer_local
                               : 2.0 * P_local;  // bf16 parameters
  const double grad_bytes = w.grad_reduce_bf16 ? 2.0 : 4.0;
  d.mem_gradients = grad_bytes * P_local / (shard_grads ? shards : 1.0);  // main gradients [F92]
  d.mem_optimizer = 12.0 * P_local / shards;  // fp32 master, m, v [F39][F92]
  const double fixed =
      d.mem_weights + d.mem_gradients + (w.offload_optimizer ? 0.0 : d.mem_optimizer);
  // activation offload: whole micro-batches (all but one in flight), or layer by layer: N layers
  // of each micro-batch written to host memory after their forward and read back before their
  // backward, one layer in transit beside the resident ones (Megatron / Transformer Engine's CPU
  // offloading, which needs pp = 1 [F77][F99])
  const int n_off = w.offload_activations ? w.offload_activation_layers : 0;
  if (w.offload_activation_layers < 0) fail("offload", "activation_layers must be >= 0");
  if (w.offload_activation_layers > 0 && !w.offload_activations)
    fail("offload", "activation_layers = " + str(w.offload_activation_layers) +
                        " offloads activations: give activations: true with it");
  if (n_off > 0 && pp > 1)
    fail("offload", "activation_layers = " + str(n_off) +
                        " offloads layer by layer, which runs with pp = 1 only (pp = " + str(pp) +
                        "): leave it out to offload whole micro-batches");
  if (n_off > 0 && n_off >= stage[0])
    fail("offload", "activation_layers = " + str(n_off) + " must be fewer than the " +
                        str(stage[0]) + " layers");
  const double act_keep = w.offload_activations && n_off == 0 ? 1.0 / std::max(1.0, inflight) : 1.0;
  auto kept = [&](double layers) { return n_off > 0 ? layers - n_off + 1.0 : layers; };
  const double logits_mem = 4.0 * T * x.V / tp;  // fp32 logits of the micro-batch (last stage)
  auto actMem = [&](double per_layer) {
    const double first = per_layer * kept(L_first) * inflight * act_keep;
    const double last =
        per_layer * kept(stage[pp - 1]) * (pp > 1 ? 1.0 : inflight) * act_keep + logits_mem;
    return std::max(first, last);
  };
  const double cap = gpu.hbm_capacity;
  R rc = w.recompute;
  if (rc == R::Auto) {
    rc = fixed + actMem(act_none) <= cap        ? R::None
         : fixed + actMem(act_selective) <= cap ? R::Selective
                                                : R::Full;
  }
  d.recompute = rc;
  d.full_recompute = rc == R::Full;
  const double act_layer = rc == R::Full        ? act_full
                           : rc == R::Selective ? act_selective
                                                : act_none;  // per layer and micro-batch (B)
  d.mem_activations = actMem(act_layer);
  d.memory_per_gpu = fixed + d.mem_activations;
  if (d.memory_per_gpu > cap) {
    // what would fit: more pipeline or tensor parallelism at full recompute
    std::string hint;
    for (int k : {2, 4, 8}) {
      if ((fixed + actMem(act_full)) / k <= cap) {
        hint =
            " (about " + str(k) + "x more model parallelism (tp x pp) would fit at full recompute)";
        break;
      }
    }
    if (hint.empty()) hint = " (offload: {optimizer, activations}, or more tp x pp)";
    fail("parameters",
         "the model does not fit the GPU memory with recompute " + std::string(recomputeName(rc)) +
             ": " + gb(d.memory_per_gpu) + " per GPU (weights " + gb(d.mem_weights) +
             ", gradients " + gb(d.mem_gradients) + ", optimizer " +
             (w.offload_optimizer ? "offloaded" : gb(d.mem_optimizer)) + ", activations " +
             gb(d.mem_activations) + ") > " + gb(cap) + " of HBM" + hint);
  }

  // 6. the stages' micro-batch times; the slowest sets the pace
  StageTime lf, lb;  // per layer
  lf.gemm = t_gemm_f, lf.attention = t_attn_f, lf.memory = t_mem_f;
  lb.gemm = t_gemm_b, lb.attention = t_attn_b, lb.memory = t_mem_b;
  lf.tp_total = tp_layer_f.total(), lb.tp_total = tp_layer_f.total();
  lf.cp_total = cp_layer_f.total(), lb.cp_total = 2.0 * cp_layer_f.total();  // K, V and dK, dV
  lf.ep_total = ep_layer_f.total(), lb.ep_total = ep_layer_f.total();
  lf.tp_exposed = tpExposed(lf.tp_total, t_gemm_f);
  lb.tp_exposed = tpExposed(lb.tp_total, t_gemm_b);
  lf.cp_exposed = cpExposed(lf.cp_total, t_attn_f);
  lb.cp_exposed = cpExposed(lb.cp_total, t_attn_b);
  lf.ep_exposed = lf.ep_total, lb.ep_exposed = lb.ep_total;
  // compute that runs beside a collective is slower: the collective's kernels take SMs and memory
  // bandwidth (18.9 % on average on A100 / H100 [WL23]); the hidden part of each collective
  // stretches the compute it hides behind by that share
  lf.gemm += kOverlapSlowdown * std::min(t_gemm_f, lf.tp_total - lf.tp_exposed);
  lb.gemm += kOverlapSlowdown * std::min(t_gemm_b, lb.tp_total - lb.tp_exposed);
  lf.attention += kOverlapSlowdown * std::min(t_attn_f, lf.cp_total - lf.cp_exposed);
  lb.attention += kOverlapSlowdown * std::min(t_attn_b, lb.cp_total - lb.cp_exposed);
  // recompute in the backward pass: the attention forward (selective), the layer's forward
  // (full, with its TP collectives) [F28]
  if (rc == R::Selective) lb.recompute = t_attn_f;
  if (rc == R::Full) lb.recompute = lf.total();
  auto stageTime = [&](int p, StageTime& f, StageTime& bw) {
    const double Lp = stage[p];
    auto add = [&](StageTime& o, const StageTime& l) {
      o.gemm = Lp * l.gemm, o.attention = Lp * l.attention, o.memory = Lp * l.memory;
      o.tp_exposed = Lp * l.tp_exposed, o.cp_exposed = Lp * l.cp_exposed;
      o.ep_exposed = Lp * l.ep_exposed, o.recompute = Lp * l.recompute;
      o.tp_total = Lp * l.tp_total, o.cp_total = Lp * l.cp_total, o.ep_total = Lp * l.ep_total;
    };
    add(f, lf);
    add(bw, lb);
    if (p == pp - 1) {
      f.gemm += t_logits_f;
      bw.gemm += t_logits_b;
      f.gemm += t_loss_f;
      bw.gemm += t_loss_b;
    }
    return f.total() + bw.total();
  };
  double t_sum = 0;
  int p_max = 0;
  for (int p = 0; p < pp; ++p) {
    StageTime f, bw;
    const double t = stageTime(p, f, bw);
    t_sum += t;
    if (t > d.t_stage) d.t_stage = t, d.fwd = f, d.bwd = bw, p_max = p;
  }
  d.stage_layers_max = stage[p_max];
  const double M = d.micro_batches;
  // interleaved 1F1B: the bubble is (pp - 1) / vp of a stage's micro-batch time [WL18][F27]
  d.t_bubble = (pp - 1.0) / vp * (t_sum / pp);
  // pipeline sends: every micro-batch crosses each chunk boundary forward and backward; the
  // interleaved schedule overlaps them with compute but for the fill and drain
  if (pp > 1) {
    const CollectiveTime one = collectiveTime(Collective::SendRecv, CollectiveAlgorithm::Ring, 2,
                                              (sp ? act_bytes / tp : act_bytes), lvl(d.pp_level));
    d.pp = scaled(one, 2.0 * M * vp);
    d.t_pp_exposed = (vp > 1 ? 2.0 * (pp - 1.0) : 2.0 * (M + pp - 1.0)) * one.total();
  }
  // 7. data parallel: fp32 (or bf16) gradients reduce-scattered (all-reduced without the
  // distributed optimizer) over dp x cp ranks, bf16 parameters all-gathered; in buckets behind the
  // last micro-batch's backward and the first one's forward [F92]
  const int dpc = d.dp * cp;
  double t_dp_exposed = 0;
  if (dpc > 1) {
    const double bucket = w.bucket_parameters > 0 ? w.bucket_parameters : std::max(40e6, 1e6 * dpc);
    const double n_buckets = std::max(1.0, std::ceil(P_local / bucket));
    const int dpl = cp > 1 ? std::max(d.dp_level, d.cp_level) : d.dp_level;
    const int k =
        std::min(std::max(1, per_domain / tp),
                 membersPerDomain(cp, tp, per_domain) * membersPerDomain(d.dp, mp, per_domain));
    const FabricLevel dp_lvl = dpl == 1 ? nvl : spreadOver(net, nvl, k);
    CollectiveTime rs, ag;
    if (shard_grads) {
      // sharded gradients are reduce-scattered after every micro-batch's backward; sharded
      // parameters are all-gathered layer by layer for its forward and again for its backward.
      // Prefetched one layer ahead, they hide behind the micro-batch's compute but for the first
      // layer's gather and the last one's reduce-scatter (Megatron-FSDP, PyTorch FSDP2 [F98])
      const CollectiveTime rs1 = collectiveTime(Collective::ReduceScatter, w.dp_algorithm, dpc,
                                                grad_bytes * P_local, dp_lvl);
      const CollectiveTime ag1 = shard_params
                                     ? scaled(collectiveTime(Collective::AllGather, w.dp_algorithm,
                                                             dpc, 2.0 * P_local, dp_lvl),
                                              2.0)
                                     : CollectiveTime{};
      const double Mb = d.micro_batches, Ls = std::max(1, d.stage_layers_max);
      const double comm = rs1.total() + ag1.total();
      const double window = d.fwd.total() + d.bwd.total();  // one micro-batch on the stage
      const double exposed_mb = std::max(0.0, comm - window) + comm / Ls;
      rs = scaled(rs1, Mb);
      ag = scaled(ag1, Mb);
      if (!shard_params)  // the updated parameters gathered once, as the distributed optimizer
        ag = plus(
            ag, collectiveTime(Collective::AllGather, w.dp_algorithm, dpc, 2.0 * P_local, dp_lvl));
      d.dp_comm = plus(rs, ag);
      t_dp_exposed = Mb * exposed_mb;
      if (!shard_params) {
        const double t_ag = ag.total() - scaled(ag1, Mb).total();
        const double W_f = d.fwd.total() / d.stage_layers_max * stage[0];
        t_dp_exposed += w.overlap_param_gather ? std::max(t_ag / n_buckets, t_ag - W_f) : t_ag;
      }
      t_dp_exposed +=
          kOverlapSlowdown * std::clamp(d.dp_comm.total() - t_dp_exposed, 0.0, Mb * window);
    } else if (sharding != S::None) {
      rs = collectiveTime(Collective::ReduceScatter, w.dp_algorithm, dpc, grad_bytes * P_local,
                          dp_lvl);
      ag = collectiveTime(Collective::AllGather, w.dp_algorithm, dpc, 2.0 * P_local, dp_lvl);
    } else {
      rs = collectiveTime(Collective::AllReduce, w.dp_algorithm, dpc, grad_bytes * P_local, dp_lvl);
    }
    if (!shard_grads) {
      d.dp_comm = plus(rs, ag);
      const double W_b = d.bwd.total() / d.stage_layers_max * stage[0];  // first stage's backward
      const double W_f = d.fwd.total() / d.stage_layers_max * stage[0];
      auto exposed = [&](double t, bool overlap, double window) {
        if (t <= 0) return 0.0;
        return overlap ? std::max(t / n_buckets, t - window) : t;
      };
      t_dp_exposed = exposed(rs.total(), w.overlap_grad_reduce, W_b) +
                     exposed(ag.total(), w.overlap_param_gather, W_f);
      // (the hidden part slows the compute it hides behind [WL23])
      t_dp_exposed +=
          kOverlapSlowdown * std::min(W_b + W_f, rs.total() + ag.total() - t_dp_exposed);
    }
  }
  d.t_dp_exposed = t_dp_exposed;
  // 8. the optimizer step per local parameter of its shard: fp32 master, m, v read and written
  // (24 B), the main gradient read (4 B, bf16: 2 B) (d) [F39]
  d.t_optimizer = (24.0 + grad_bytes) * P_local / shards / B_hbm;

  // 8b. host memory (models/host_memory.h): offloaded state and staging placed per host
  const double g_host = host.gpus_per_host;
  auto place = [&](const char* key, const char* what, double bytes_per_gpu, HostTier want) {
    const HostTier t = placeHost(host, d.host, g_host * bytes_per_gpu, want);
    if (t == HostTier::Auto)
      fail(key,
           std::string("the ") + what +
               " does not fit the host memory: " + gb(g_host * bytes_per_gpu) + " per host (" +
               std::to_string(host.gpus_per_host) + " GPUs) with " + gb(d.host.lpddr_bytes) +
               " of " + gb(host.lpddr.capacity) + " LPDDR and " + gb(d.host.cxl_bytes) + " of " +
               gb(host.cxl.capacity) + " CXL already used" +
               (want == HostTier::Auto ? "" : std::string(" (tier: ") + hostTierName(want) + ")"));
    return t;
  };
  const double local_params = P_local / shards;
  if (w.offload_optimizer) {
    d.host.optimizer_tier =
        place("offload", "offloaded optimizer state", d.mem_optimizer, w.offload_tier);
    d.t_optimizer_host = hostTransferTime(host, d.host.optimizer_tier, 28.0 * local_params);
  }
  double t_act_exposed = 0;
  if (w.offload_activations && n_off > 0) {
    // each offloaded layer's write runs beside the next layer's forward, its read beside the
    // backward of the layer after it: what a transfer takes beyond that compute is exposed
    d.host.activation_tier =
        place("offload", "offloaded activations", act_layer * n_off * inflight, w.offload_tier);
    const double t_x = hostTransferTime(host, d.host.activation_tier, act_layer);
    const double Ls = std::max(1, d.stage_layers_max);
    const double t_f = d.fwd.total() / Ls, t_b = d.bwd.total() / Ls;
    d.t_activations_host = M * 2.0 * n_off * t_x;
    t_act_exposed = M * n_off * (std::max(0.0, t_x - t_f) + std::max(0.0, t_x - t_b));
  } else if (w.offload_activations) {
    const double resident = d.mem_activations;
    d.host.activation_tier = place("offload", "offloaded activations",
                                   resident * std::max(0.0, inflight - 1.0), w.offload_tier);
    d.t_activations_host = hostTransferTime(host, d.host.activation_tier, 2.0 * resident * M);
    t_act_exposed = (1 - w.activation_offload_overlap) * d.t_activations_host;
  }
  const double F = M * (d.fwd.gemm + d.fwd.attention);
  const double Bw = M * (d.bwd.gemm + d.bwd.attention + d.bwd.recompute);
  const double tokens_replica = seqs * x.s / d.dp;
  d.t_data = hostTransferTime(host, HostTier::Lpddr, 2.0 * tokens_replica * w.data_bytes_per_token);
  const double t_data_exposed = std::max(0.0, d.t_data - (F + Bw));  // prefetched behind compute

  // whole collectives per iteration (the fabric state stretches their bandwidth part)
  d.tp = scaled(tp_layer_f, (2.0 + (rc == R::Full ? 1.0 : 0.0)) * M * d.stage_layers_max);
  d.cp = scaled(cp_layer_f, 3.0 * M * d.stage_layers_max);
  d.ep = scaled(ep_layer_f, 2.0 * M * d.stage_layers_max);

  // 9. model FLOPs by PaLM's convention, 6 N + 12 L h s per token (non-causal attention, no
  // recompute) [F95], N the active parameters that multiply: an untied input embedding is a
  // lookup and is left out (PaLM's embeddings are tied: its N counts them once, as the output
  // layer)
  const double tokens = seqs * x.s;
  const double n_matmul = pc.active - (w.tied_embeddings ? 0.0 : x.V * x.h);
  d.flops = (6.0 * n_matmul + 12.0 * w.layers * x.h * x.s) * tokens;

  // 10. the iteration (utilizations (a) as defaultTrainingJob(), docs/models/job.md)
  d.job = base;
  d.job.stages = 1;
  d.job.stage_skip.clear();
  d.job.stage_skip_total = 0;
  auto& ph = d.job.phases;
  ph.clear();
  if (t_data_exposed > 0)
    ph.push_back(
        phase("data_load", t_data_exposed, B::Communication, 0.03, 0.05, 0.0, 0.0, false, 3));
  // the pipeline in time: in 1F1B stage k of p waits k forward chunks for its first input, idles
  // (p - 1 - k) forward + backward chunks between its warm-up forwards and its first backward,
  // and k backward chunks after its last one; interleaving divides them by v [F27]. The bubble
  // is split the same way (x = k / (p - 1)): head x B phi, middle (1 - x) B, tail x B (1 - phi),
  // phi = F / (F + B_w); each phase is as long as its longest stage's and the others skip the rest
  const bool staggered =
      pp > 1 && d.t_bubble > 0 && w.pipeline_timing == ModelWorkloadSpec::PipelineTiming::Staggered;
  const double phi = F + Bw > 0 ? F / (F + Bw) : 0.5;
  std::size_t i_head = 0, i_mid = 0, i_tail = 0;
  if (staggered) {
    i_head = ph.size();
    ph.push_back(phase("bubble_head", d.t_bubble * phi, B::Idle, 0.03, 0.05, 0.0, 0.0));
  }
  ph.push_back(
      phase("forward", F, B::Compute, kComputeSm, kComputeHbm, kComputeNvlink, kComputeNet));
  if (staggered) {
    i_mid = ph.size();
    ph.push_back(phase("bubble_mid", d.t_bubble, B::Idle, 0.03, 0.05, 0.0, 0.0));
  }
  ph.push_back(
      phase("backward", Bw, B::Compute, kComputeSm, kComputeHbm, kComputeNvlink, kComputeNet));
  const double tp_exp = M * (d.fwd.tp_exposed + d.bwd.tp_exposed);
  if (tp > 1 && tp_exp > 0)
    ph.push_back(phase("tp_comm", tp_exp, B::Communication, 0.08, 0.20, 0.60, 0.0, false, 1,
                       d.tp.beta * std::min(1.0, tp_exp / std::max(d.tp.total(), 1e-30))));
  const double cp_exp = M * (d.fwd.cp_exposed + d.bwd.cp_exposed);
  if (cp > 1 && cp_exp > 0)
    ph.push_back(phase("cp_comm", cp_exp, B::Communication, 0.08, 0.20, d.cp_level == 1 ? 0.6 : 0.1,
                       d.cp_level == 2 ? 0.8 : 0.0, false, d.cp_level,
                       d.cp.beta * std::min(1.0, cp_exp / std::max(d.cp.total(), 1e-30))));
  const double ep_exp = M * (d.fwd.ep_exposed + d.bwd.ep_exposed);
  if (ep > 1 && ep_exp > 0)
    ph.push_back(phase("ep_alltoall", ep_exp, B::Communication, 0.08, 0.20,
                       d.ep_level == 1 ? 0.6 : 0.1, d.ep_level == 2 ? 0.8 : 0.0, false, d.ep_level,
                       d.ep.beta));
  if (pp > 1)
    ph.push_back(phase("pp_p2p", d.t_pp_exposed, B::Communication, 0.05, 0.10,
                       d.pp_level == 1 ? 0.3 : 0.0, d.pp_level == 2 ? 0.5 : 0.0, false, d.pp_level,
                       d.pp.beta * std::min(1.0, d.t_pp_exposed / std::max(d.pp.total(), 1e-30))));
  if (w.offload_activations)
    ph.push_back(phase("activation_offload", t_act_exposed, B::Communication, 0.05, 0.20, 0.0, 0.0,
                       false, 3));
  ph.push_back(
      phase("elementwise", M * (d.fwd.memory + d.bwd.memory), B::Memory, 0.15, 0.90, 0.0, 0.0));
  if (staggered) {
    i_tail = ph.size();
    ph.push_back(phase("bubble_tail", d.t_bubble * (1 - phi), B::Idle, 0.03, 0.05, 0.0, 0.0));
  } else if (pp > 1) {
    ph.push_back(phase("bubble", d.t_bubble, B::Idle, 0.03, 0.05, 0.0, 0.0));
  }
  if (dpc > 1)
    ph.push_back(
        phase("dp_allreduce", d.t_dp_exposed, B::Communication, 0.08, 0.20,
              d.dp_level == 1 ? 0.6 : 0.1, d.dp_level == 2 ? 0.8 : 0.0, true, d.dp_level,
              d.dp_comm.beta * std::min(1.0, d.t_dp_exposed / std::max(d.dp_comm.total(), 1e-30))));
  if (w.offload_optimizer)  // the update streams its state through host memory
    ph.push_back(phase("optimizer_offload", d.t_optimizer_host, B::Communication, 0.05, 0.20, 0.0,
                       0.0, false, 3));
  else
    ph.push_back(phase("optimizer", d.t_optimizer, B::Memory, 0.15, 0.90, 0.0, 0.0));
  d.step_time = 0;
  for (const PhaseSpec& p : ph) d.step_time += p.duration;
  if (staggered) {  // what each stage skips of the longest stage's phases
    auto& job = d.job;
    job.stages = pp;
    job.stage_skip.assign(std::size_t(pp) * ph.size(), 0.0);
    for (int k = 0; k < pp; ++k) {
      const double x = double(k) / double(pp - 1);
      double* skip = job.stage_skip.data() + std::size_t(k) * ph.size();
      skip[i_head] = d.t_bubble * phi * (1 - x);
      skip[i_mid] = d.t_bubble * x;
      skip[i_tail] = d.t_bubble * (1 - phi) * (1 - x);
    }
    job.stage_skip_total = d.t_bubble;
    d.step_time -= d.t_bubble;
  }
  d.tokens_per_second = tokens / d.step_time;
  d.mfu = d.flops / (d.step_time * n * gpu.peak_bf16);

  // 11. checkpoints: 14 N bytes at the storage bandwidth (sync) or staged per GPU (async)
  d.checkpoint_bytes = w.checkpoint_bytes_per_parameter * pc.total;
  const double shard_bytes = d.checkpoint_bytes / double(n);
  if (w.storage_bandwidth > 0 && w.checkpoint_async) {
    d.host.staging_tier =
        place("checkpoint_async", "checkpoint staging copy", shard_bytes, HostTier::Auto);
    const double bw = std::min(w.staging_bandwidth, hostTierBandwidth(host, d.host.staging_tier));
    d.t_staging = hostTier(host, d.host.staging_tier).latency + shard_bytes / bw;
    d.job.checkpoint_duration = d.t_staging;
  } else if (w.storage_bandwidth > 0) {
    d.t_staging = hostTransferTime(host, HostTier::Lpddr, shard_bytes);
    d.job.checkpoint_duration = std::max(d.checkpoint_bytes / w.storage_bandwidth, d.t_staging);
  }
  validateTrainingJob(d.job);
  return d;
}

}  // namespace

DescribedJob describeTrainingJob(const ModelWorkloadSpec& w, const GpuCapability& gpu,
                                 const FabricSpec& fabric, int n, int per_domain,
                                 const TrainingJobSpec& base, const HostMemorySpec& host) {
  if (w.vp != 0) return describeOnce(w, gpu, fabric, n, per_domain, base, host);
  // vp: auto, as a user tunes the interleaved schedule: of the virtual stages the schedule
  // allows (dividing every stage's layers, micro-batches a multiple of pp), the fastest that fits
  // the memory; ties go to fewer virtual stages. vp = 1's error when none fits.
  ModelWorkloadSpec t = w;
  t.vp = 1;
  std::optional<DescribedJob> best;
  std::optional<JobModelError> first_error;
  const int most = w.pp > 1 ? std::max(1, w.layers / w.pp) : 1;
  for (int v = 1; v <= most; ++v) {
    t.vp = v;
    try {
      DescribedJob d = describeOnce(t, gpu, fabric, n, per_domain, base, host);
      if (!best || d.step_time < best->step_time * (1 - 1e-9)) best = std::move(d);
    } catch (const JobModelError& e) {
      if (v == 1) first_error = e;
    }
  }
  if (best) return *best;
  throw *first_error;
}

}  // namespace dctwin
