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
  j.described = true;
  ModelWorkloadSpec& s = j.workload;
  j.workload_loc["workload"] = w->loc();
  j.workload_loc["parameters"] = j.workload_loc["tokens_per_iteration"] =
      j.workload_loc["parallelism"] = j.workload_loc["overlap"] = w->loc();
  readAt(*w, "parameters", s.parameters, j);
  readAt(*w, "active_parameters", s.active_parameters, j);
  readAt(*w, "layers", s.layers, j);
  readAt(*w, "hidden", s.hidden, j);
  readAt(*w, "sequence_length", s.sequence_length, j);
  readAt(*w, "tokens_per_iteration", s.tokens_per_iteration, j);
  readAt(*w, "micro_batch_size", s.micro_batch_size, j);
  if (auto p = w->map("parallelism")) {
    j.workload_loc["parallelism"] = p->loc();
    p->read("tp", s.tp);
    p->read("pp", s.pp);
    p->read("dp", s.dp);
    p->read("ep", s.ep);
  }
  readAt(*w, "moe_top_k", s.moe_top_k, j);
  readAt(*w, "compute_efficiency", s.compute_efficiency, j);
  readAt(*w, "hbm_efficiency", s.hbm_efficiency, j);
  readAt(*w, "activation_bytes", s.activation_bytes, j);
  if (auto o = w->map("overlap")) {
    j.workload_loc["overlap"] = o->loc();
    o->read("tp", s.tp_overlap);
    o->read("pp", s.pp_overlap);
    o->read("dp", s.dp_overlap);
    o->read("ep", s.ep_overlap);
  }
  std::string a;
  if (w->read("tp_algorithm", a)) s.tp_algorithm = algorithmOf(a);
  if (w->read("dp_algorithm", a)) s.dp_algorithm = algorithmOf(a);
  w->read("distributed_optimizer", s.distributed_optimizer);
  std::string rc;
  if (w->read("recompute", rc))
    s.recompute = rc == "full"        ? ModelWorkloadSpec::Recompute::Full
                  : rc == "selective" ? ModelWorkloadSpec::Recompute::Selective
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
    o->read("activation_overlap", s.activation_offload_overlap);
    std::string t;
    if (o->read("tier", t))
      s.offload_tier = t == "lpddr" ? HostTier::Lpddr : t == "cxl" ? HostTier::Cxl : HostTier::Auto;
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
