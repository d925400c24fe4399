#include "models/job_model.h"

#include <cmath>

namespace dctwin {

namespace {

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

// 1 if every group of `size` ranks with `stride` lies inside one NVLink domain, else 2
int levelOf(int n, int size, int stride, int per_domain) {
  if (size <= 1) return 1;
  const int block = size * stride;  // ranks of one block of groups
  for (int base = 0; base < n; ++base) {
    if ((base / stride) % size != 0) continue;  // not the first member of its group
    const int first = base, last = base + (size - 1) * stride;
    if (first / per_domain != last / per_domain) return 2;
  }
  (void)block;
  return 1;
}

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

void checkInputs(const ModelWorkloadSpec& w, const GpuCapability& g, int n_gpu, int per_domain) {
  if (!(w.parameters > 0)) fail("parameters", "must be > 0");
  if (w.layers < 1) fail("layers", "must be >= 1");
  if (!(w.hidden > 0)) fail("hidden", "must be > 0");
  if (!(w.sequence_length > 0)) fail("sequence_length", "must be > 0");
  if (!(w.tokens_per_iteration > 0)) fail("tokens_per_iteration", "must be > 0");
  if (w.micro_batch_size < 1) fail("micro_batch_size", "must be >= 1");
  if (w.tp < 1 || w.pp < 1 || w.ep < 1 || w.dp < 0) fail("parallelism", "tp, pp, ep >= 1, dp >= 0");
  if (!(g.peak_flops > 0))
    fail("parameters", "the job's GPU type has no dense_bf16_flops (data/catalog/gpus)");
  if (!(g.hbm_bandwidth > 0) || !(g.hbm_capacity > 0))
    fail("parameters", "the job's GPU type has no HBM bandwidth or capacity");
  for (double o : {w.tp_overlap, w.pp_overlap, w.dp_overlap, w.ep_overlap})
    if (!(o >= 0 && o < 1)) fail("overlap", "every overlap must be in [0, 1)");
  if (n_gpu < 1) fail("parallelism", "the job has no GPUs");
  if (per_domain < 1) fail("parallelism", "the NVLink domain has no GPUs");
}

}  // namespace

DescribedJob describeTrainingJob(const ModelWorkloadSpec& w, const GpuCapability& gpu,
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
  DescribedJob d;
  // 1. the parallel layout
  const int tp = w.tp, pp = w.pp, mp = tp * pp;
  if (n % mp != 0)
    fail("parallelism", "tp x pp = " + std::to_string(tp) + " x " + std::to_string(pp) + " = " +
                            std::to_string(mp) + " does not divide the job's " + std::to_string(n) +
                            " GPUs");
  d.dp = w.dp > 0 ? w.dp : n / mp;
  if (mp * d.dp != n)
    fail("parallelism", "tp x pp x dp = " + std::to_string(mp * d.dp) + " differs from the job's " +
                            std::to_string(n) + " GPUs");
  if (tp > per_domain || per_domain % tp != 0)
    fail("parallelism", "tp = " + std::to_string(tp) + " must divide the NVLink domain's " +
                            std::to_string(per_domain) + " GPUs");
  if (w.layers % pp != 0)
    fail("parallelism", "pp = " + std::to_string(pp) + " does not divide the " +
                            std::to_string(w.layers) + " layers");
  if (w.ep > 1 && d.dp % w.ep != 0)
    fail("parallelism",
         "ep = " + std::to_string(w.ep) + " does not divide dp = " + std::to_string(d.dp));
  const double seqs = w.tokens_per_iteration / w.sequence_length;
  const double m = seqs / (w.micro_batch_size * double(d.dp));
  if (std::abs(m - std::round(m)) > 1e-9 * m || std::round(m) < 1)
    fail("tokens_per_iteration",
         num(w.tokens_per_iteration) + " tokens are " + num(m) +
             " micro-batches per pipeline (tokens / (sequence_length micro_batch_size dp)): "
             "expected a whole number >= 1");
  d.micro_batches = int(std::round(m));
  d.tp_level = 1;
  d.pp_level = levelOf(n, pp, tp, per_domain);
  d.dp_level = levelOf(n, d.dp, mp, per_domain);
  d.ep_level = levelOf(n, w.ep, mp, per_domain);

  // 2. memory per GPU: does it fit, and with which recompute
  const double N = w.parameters, Nact = w.active_parameters > 0 ? w.active_parameters : N;
  const double shard = w.ep > 1 ? double(mp) * w.ep : double(mp);
  d.mem_weights = 4.0 * N / shard;
  d.mem_optimizer = 12.0 * N / shard / (w.distributed_optimizer ? d.dp / std::max(1, w.ep) : 1);
  const double sbh = w.sequence_length * w.micro_batch_size * w.hidden;
  // activations held in HBM: PP micro-batches in flight on the first stage (L/PP layers each),
  // or only the one being computed when the others are offloaded to host memory
  const double act_keep = w.offload_activations ? 1.0 / pp : 1.0;
  const double act_sel = w.activation_bytes * sbh * w.layers / tp * act_keep;
  const double act_full = 2.0 * sbh * w.layers / tp * act_keep;
  const double fixed = d.mem_weights + (w.offload_optimizer ? 0.0 : d.mem_optimizer);
  using R = ModelWorkloadSpec::Recompute;
  if (w.recompute == R::Full || (w.recompute == R::Auto && fixed + act_sel > gpu.hbm_capacity))
    d.full_recompute = true;
  d.mem_activations = d.full_recompute ? act_full : act_sel;
  if (fixed + d.mem_activations > gpu.hbm_capacity)
    fail("parameters", "the model does not fit the GPU memory: " + gb(fixed + d.mem_activations) +
                           " per GPU (weights+gradients " + gb(d.mem_weights) + ", optimizer " +
                           (w.offload_optimizer ? "offloaded" : gb(d.mem_optimizer)) +
                           ", activations " + gb(d.mem_activations) + ") > " +
                           gb(gpu.hbm_capacity) +
                           " of HBM (more parallelism, or offload: {optimizer, activations})");

  // 3. compute: 6 N T model FLOPs (8 N T with full recompute), forward : backward = 1 : 2
  d.flops = 6.0 * Nact * w.tokens_per_iteration;
  const double rate = double(n) * gpu.peak_flops * w.compute_efficiency;
  const double F = 2.0 * Nact * w.tokens_per_iteration / rate;
  const double Bw = 2.0 * F + (d.full_recompute ? F : 0.0);

  // 4. memory-bound: element-wise activation traffic and the optimizer update (roofline)
  const double B_hbm = w.hbm_efficiency * gpu.hbm_bandwidth;
  const double tokens_stage = d.micro_batches * w.micro_batch_size * w.sequence_length;
  const double act_traffic =
      3.0 * w.activation_bytes * w.hidden / tp * tokens_stage * (w.layers / pp);
  const double t_elem = act_traffic / B_hbm;
  const double local_params = N / shard / (w.distributed_optimizer ? d.dp / std::max(1, w.ep) : 1);
  const double t_opt = 28.0 * local_params / B_hbm;

  // 4b. host memory (models/host_memory.h): offloaded state and staging placed per host, the
  // transfers through its tiers
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
  if (w.offload_optimizer) {
    d.host.optimizer_tier =
        place("offload", "offloaded optimizer state", d.mem_optimizer, w.offload_tier);
    d.t_optimizer_host = hostTransferTime(host, d.host.optimizer_tier, 28.0 * local_params);
  }
  if (w.offload_activations) {
    const double resident = d.mem_activations;  // one micro-batch's stage activations
    d.host.activation_tier =
        place("offload", "offloaded activations", resident * (pp - 1.0), w.offload_tier);
    // each micro-batch's activations written in the forward pass, read in the backward pass
    d.t_activations_host =
        hostTransferTime(host, d.host.activation_tier, 2.0 * resident * d.micro_batches);
  }
  const double tokens_replica = w.tokens_per_iteration / d.dp;
  d.t_data = hostTransferTime(host, HostTier::Lpddr, 2.0 * tokens_replica * w.data_bytes_per_token);
  const double t_data_exposed = std::max(0.0, d.t_data - (F + Bw));  // prefetched behind compute

  // 5. collectives per iteration
  const FabricLevel nvl = fabric.nvlinkLevel(), net = fabric.networkLevel();
  auto lvl = [&](int l) { return l == 1 ? nvl : net; };
  const double per_layer_mb = double(w.layers / pp) * d.micro_batches;
  if (tp > 1)
    d.tp = scaled(collectiveTime(Collective::AllReduce, w.tp_algorithm, tp, 2.0 * sbh, nvl),
                  4.0 * per_layer_mb);
  if (w.ep > 1)
    d.ep = scaled(collectiveTime(Collective::AllToAll, CollectiveAlgorithm::Ring, w.ep,
                                 2.0 * sbh * w.moe_top_k / tp, lvl(d.ep_level)),
                  4.0 * per_layer_mb);
  if (pp > 1)
    d.pp = scaled(collectiveTime(Collective::SendRecv, CollectiveAlgorithm::Ring, 2, 2.0 * sbh / tp,
                                 lvl(d.pp_level)),
                  2.0 * d.micro_batches);
  if (d.dp > 1)
    d.dp_comm = collectiveTime(Collective::AllReduce, w.dp_algorithm, d.dp, 2.0 * N / shard,
                               lvl(d.dp_level));

  // 6. the iteration (utilizations (a) as defaultTrainingJob(), docs/models/job.md)
  const double bubble = (pp - 1.0) / d.micro_batches * (F + Bw);
  d.job = base;
  auto& ph = d.job.phases;
  ph.clear();
  if (t_data_exposed > 0)
    ph.push_back(
        phase("data_load", t_data_exposed, B::Communication, 0.03, 0.05, 0.0, 0.0, false, 3));
  ph.push_back(phase("forward", F, B::Compute, 0.90, 0.35, 0.30, 0.10));
  ph.push_back(phase("backward", Bw, B::Compute, 0.90, 0.35, 0.30, 0.10));
  if (tp > 1)
    ph.push_back(phase("tp_comm", (1 - w.tp_overlap) * d.tp.total(), B::Communication, 0.08, 0.20,
                       0.60, 0.0, false, 1, d.tp.beta));
  if (w.ep > 1)
    ph.push_back(phase("ep_alltoall", (1 - w.ep_overlap) * d.ep.total(), B::Communication, 0.08,
                       0.20, d.ep_level == 1 ? 0.6 : 0.1, d.ep_level == 2 ? 0.8 : 0.0, false,
                       d.ep_level, d.ep.beta));
  if (pp > 1)
    ph.push_back(phase("pp_p2p", (1 - w.pp_overlap) * d.pp.total(), B::Communication, 0.05, 0.10,
                       d.pp_level == 1 ? 0.3 : 0.0, d.pp_level == 2 ? 0.5 : 0.0, false, d.pp_level,
                       d.pp.beta));
  if (w.offload_activations)
    ph.push_back(phase("activation_offload",
                       (1 - w.activation_offload_overlap) * d.t_activations_host, B::Communication,
                       0.05, 0.20, 0.0, 0.0, false, 3));
  ph.push_back(phase("elementwise", t_elem, B::Memory, 0.15, 0.90, 0.0, 0.0));
  if (pp > 1) ph.push_back(phase("bubble", bubble, B::Idle, 0.03, 0.05, 0.0, 0.0));
  if (d.dp > 1)
    ph.push_back(phase("dp_allreduce", (1 - w.dp_overlap) * d.dp_comm.total(), B::Communication,
                       0.08, 0.20, d.dp_level == 1 ? 0.6 : 0.1, d.dp_level == 2 ? 0.8 : 0.0, true,
                       d.dp_level, d.dp_comm.beta));
  if (w.offload_optimizer)  // the update streams its state through host memory
    ph.push_back(phase("optimizer_offload", d.t_optimizer_host, B::Communication, 0.05, 0.20, 0.0,
                       0.0, false, 3));
  else
    ph.push_back(phase("optimizer", t_opt, B::Memory, 0.15, 0.90, 0.0, 0.0));

  // 7. checkpoints: 14 N bytes at the storage bandwidth (sync) or staged per GPU (async)
  // (both pass through host memory: async stages the GPU's shard there, sync bounces through it)
  d.checkpoint_bytes = w.checkpoint_bytes_per_parameter * N;
  const double shard_bytes = d.checkpoint_bytes / double(n);
  if (w.storage_bandwidth > 0 && w.checkpoint_async) {
    d.host.staging_tier =
        place("checkpoint_async", "checkpoint staging copy", shard_bytes, HostTier::Auto);
    const double b = std::min(w.staging_bandwidth, hostTierBandwidth(host, d.host.staging_tier));
    d.t_staging = hostTier(host, d.host.staging_tier).latency + shard_bytes / b;
    d.job.checkpoint_duration = d.t_staging;
  } else if (w.storage_bandwidth > 0) {
    d.t_staging = hostTransferTime(host, HostTier::Lpddr, shard_bytes);
    d.job.checkpoint_duration = std::max(d.checkpoint_bytes / w.storage_bandwidth, d.t_staging);
  }
  validateTrainingJob(d.job);
  return d;
}

}  // namespace dctwin
