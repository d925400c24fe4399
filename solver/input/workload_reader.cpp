#include "solver/input/workload_reader.h"

namespace dctwin {

using reader::MapIn;

namespace {

CollectiveAlgorithm algorithmOf(const std::string& s) {
  return s == "tree"        ? CollectiveAlgorithm::Tree
         : s == "in_switch" ? CollectiveAlgorithm::InSwitch
                            : CollectiveAlgorithm::Ring;
}

// reads `key` into out and notes where it was set (for errors found at compile)
template <class T>
void readAt(MapIn& m, const char* key, T& out, JobSpec& j, const std::string& as = "") {
  if (m.read(key, out)) j.workload_loc[as.empty() ? key : as] = m.locOf(key);
}

}  // namespace

void readJobWorkload(MapIn& m, JobSpec& j) {
  std::string fail_mode = "restart";
  m.read("on_failure", fail_mode);
  j.training.restart_on_failure = fail_mode == "restart";
  j.training.restart_time = 600.0;  // 10 min (a): detect + reschedule + reload
  m.read("restart_time", j.training.restart_time);
  m.read("hot_spares", j.training.hot_spares);
  auto w = m.map("workload");
  if (!w) return;
  if (m.get("phases"))
    m.f().s.add(m.locOf("phases"), "", "give either 'phases' or 'workload', not both");
  readWorkload(*w, j);
}

void readWorkload(reader::MapIn& wm, JobSpec& j) {
  j.described = true;
  MapIn* w = &wm;
  ModelWorkloadSpec& s = j.workload;
  j.workload_loc["workload"] = w->loc();
  for (const char* k : {"parameters", "global_batch", "tokens_per_iteration", "parallelism",
                        "precision", "efficiency", "heads", "kv_heads", "vocab", "experts",
                        "moe_top_k", "layers", "hidden", "ffn_hidden", "sequence_length"})
    j.workload_loc[k] = w->loc();
  readAt(*w, "layers", s.layers, j);
  readAt(*w, "hidden", s.hidden, j);
  readAt(*w, "ffn_hidden", s.ffn_hidden, j);
  w->read("gated_mlp", s.gated_mlp);
  readAt(*w, "heads", s.heads, j);
  readAt(*w, "kv_heads", s.kv_heads, j);
  readAt(*w, "vocab", s.vocab, j);
  readAt(*w, "sequence_length", s.sequence_length, j);
  w->read("tied_embeddings", s.tied_embeddings);
  readAt(*w, "experts", s.experts, j);
  readAt(*w, "moe_top_k", s.moe_top_k, j);
  readAt(*w, "moe_ffn_hidden", s.moe_ffn_hidden, j);
  readAt(*w, "parameters", s.parameters, j);
  readAt(*w, "active_parameters", s.active_parameters, j);
  readAt(*w, "tokens_per_iteration", s.tokens_per_iteration, j);
  if (w->read("global_batch", s.global_batch))  // (errors of the batch name either key)
    j.workload_loc["global_batch"] = j.workload_loc["tokens_per_iteration"] =
        w->locOf("global_batch");
  else
    j.workload_loc["global_batch"] = j.workload_loc["tokens_per_iteration"];
  readAt(*w, "micro_batch_size", s.micro_batch_size, j);
  if (auto p = w->map("parallelism")) {
    j.workload_loc["parallelism"] = p->loc();
    p->read("tp", s.tp);
    p->read("pp", s.pp);
    p->read("vp", s.vp);
    p->read("cp", s.cp);
    p->read("dp", s.dp);
    p->read("ep", s.ep);
    p->read("sequence_parallel", s.sequence_parallel);
    p->read("first_stage_layers", s.first_stage_layers);
    p->read("last_stage_layers", s.last_stage_layers);
    p->read("tp_comm_overlap", s.tp_comm_overlap);
    p->read("overlap_grad_reduce", s.overlap_grad_reduce);
    p->read("overlap_param_gather", s.overlap_param_gather);
    p->read("bucket_parameters", s.bucket_parameters);
  }
  std::string prec;
  if (w->read("precision", prec)) j.workload_loc["precision"] = w->locOf("precision");
  if (!prec.empty())
    s.precision = prec == "fp8" ? Precision::FP8 : prec == "fp4" ? Precision::FP4 : Precision::BF16;
  std::string recipe;
  if (w->read("fp8_recipe", recipe))
    s.fp8_recipe = recipe == "tensorwise" ? ModelWorkloadSpec::Fp8Recipe::Tensorwise
                   : recipe == "mxfp8"    ? ModelWorkloadSpec::Fp8Recipe::Mxfp8
                                          : ModelWorkloadSpec::Fp8Recipe::Delayed;
  if (auto e = w->map("efficiency")) {
    j.workload_loc["efficiency"] = e->loc();
    e->read("gemm", s.gemm_efficiency);
    e->read("attention", s.attention_efficiency);
    e->read("hbm", s.hbm_efficiency);
  }
  std::string a;
  if (w->read("attention", a))
    s.attention = a == "unfused" ? ModelWorkloadSpec::Attention::Unfused
                                 : ModelWorkloadSpec::Attention::Flash;
  if (w->read("tp_algorithm", a)) s.tp_algorithm = algorithmOf(a);
  if (w->read("dp_algorithm", a)) s.dp_algorithm = algorithmOf(a);
  w->read("distributed_optimizer", s.distributed_optimizer);
  std::string gr;
  if (w->read("grad_reduce", gr)) s.grad_reduce_bf16 = gr == "bf16";
  if (w->read("sharding", gr)) {
    j.workload_loc["sharding"] = w->locOf("sharding");
    s.sharding = gr == "optim"                ? ModelWorkloadSpec::Sharding::Optim
                 : gr == "optim_grads"        ? ModelWorkloadSpec::Sharding::OptimGrads
                 : gr == "optim_grads_params" ? ModelWorkloadSpec::Sharding::OptimGradsParams
                                              : ModelWorkloadSpec::Sharding::None;
  }
  std::string pt;
  if (w->read("pipeline_timing", pt))
    s.pipeline_timing = pt == "lockstep" ? ModelWorkloadSpec::PipelineTiming::Lockstep
                                         : ModelWorkloadSpec::PipelineTiming::Staggered;
  std::string rc;
  if (w->read("recompute", rc))
    s.recompute = rc == "full"        ? ModelWorkloadSpec::Recompute::Full
                  : rc == "selective" ? ModelWorkloadSpec::Recompute::Selective
                  : rc == "none"      ? ModelWorkloadSpec::Recompute::None
                                      : ModelWorkloadSpec::Recompute::Auto;
  readAt(*w, "checkpoint_bytes_per_parameter", s.checkpoint_bytes_per_parameter, j);
  readAt(*w, "storage_bandwidth", s.storage_bandwidth, j);
  if (w->read("checkpoint_async", s.checkpoint_async))
    j.workload_loc["checkpoint_async"] = w->locOf("checkpoint_async");
  readAt(*w, "staging_bandwidth", s.staging_bandwidth, j);
  // host memory: data loading and offload (models/host_memory.h)
  readAt(*w, "data_bytes_per_token", s.data_bytes_per_token, j);
  if (auto o = w->map("offload")) {
    j.workload_loc["offload"] = o->loc();
    o->read("optimizer", s.offload_optimizer);
    o->read("activations", s.offload_activations);
    o->read("activation_layers", s.offload_activation_layers);
    o->read("activation_overlap", s.activation_offload_overlap);
    std::string t;
    if (o->read("tier", t))
      s.offload_tier = t == "lpddr" ? HostTier::Lpddr : t == "cxl" ? HostTier::Cxl : HostTier::Auto;
  }
}

void readGpuMemory(MapIn& parent, double& capacity, double& bandwidth) {
  if (auto gm = parent.map("gpu_memory")) {
    gm->read("capacity", capacity);
    gm->read("bandwidth", bandwidth);
  }
}

void readHostMemory(MapIn& m, HostMemorySpec& h) {
  m.read("gpus_per_host", h.gpus_per_host);
  m.read("link_bandwidth", h.link_bandwidth);
  auto tier = [&](const char* key, HostMemoryTier& t) {
    if (auto x = m.map(key)) {
      x->read("bandwidth", t.bandwidth);
      x->read("latency", t.latency);
      x->read("capacity", t.capacity);
    }
  };
  tier("lpddr", h.lpddr);
  tier("cxl", h.cxl);
}

void readFabric(MapIn& m, FabricSpec& f) {
  if (auto n = m.map("nvlink")) {
    n->read("links_per_gpu", f.nvlink_links_per_gpu);
    n->read("link_bandwidth", f.nvlink_link_bandwidth);
    n->read("switch_trays", f.nvlink_switch_trays);
    n->read("efficiency", f.nvlink_efficiency);
    n->read("latency", f.nvlink_latency);
    n->read("adaptive_bandwidth", f.nvlink_adaptive_bandwidth);
  }
  if (auto s = m.map("scale_out")) {
    s->read("nics_per_gpu", f.nics_per_gpu);
    s->read("nic_bandwidth", f.nic_bandwidth);
    s->read("efficiency", f.network_efficiency);
    s->read("latency", f.network_latency);
    s->read("rail_optimized", f.rail_optimized);
    s->read("leaf_switches", f.leaf_switches);
    s->read("spine_oversubscription", f.spine_oversubscription);
  }
}

}  // namespace dctwin
