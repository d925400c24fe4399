#include "solver/run/estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "solver/compile/model.h"
#include "solver/input/keys.h"
#include "solver/input/workload_reader.h"
#include "solver/input/yaml_reader.h"

namespace dctwin {

namespace {
using namespace reader;

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

}  // namespace

std::vector<EstimateCase> loadEstimateFromString(const std::string& text, const std::string& name,
                                                 const LoadOptions& options) {
  std::vector<EstimateCase> out;
  Session session(options);
  File f{session, name, std::filesystem::path(name).parent_path().string()};
  readDocument(session, name, text, [&](const YAML::Node& root) {
    MapIn top(f, root, "", keys::estimateFile());
    if (!top.valid()) return;
    int version = 1;
    top.read("dctwin_estimate", version);
    std::set<std::string> ids;
    top.list("cases", [&](const YAML::Node& n, const std::string& path, std::size_t) {
      MapIn m(f, n, path, *top.def("cases").section);
      if (!m.valid()) return;
      EstimateCase c;
      c.loc = m.loc();
      m.read("id", c.id);
      if (!c.id.empty() && !ids.insert(c.id).second)
        f.s.add(m.locOf("id"), c.id, "a case of that id is already in the file");
      m.read("source", c.source);
      m.read("measured_as", c.measured_as);
      m.read("confidence", c.confidence);
      m.read("gpu", c.gpu_name);
      m.read("gpus", c.gpus);
      m.read("nvlink_domain", c.nvlink_domain);
      readGpuMemory(m, c.hbm_capacity, c.hbm_bandwidth);
      m.read("gpu_power_cap", c.gpu_power_cap);
      c.gpu_power_cap_loc = m.locOf("gpu_power_cap");
      m.read("measured_step_time", c.measured_step_time);
      m.list("tags", [&](const YAML::Node& t, const std::string&, std::size_t) {
        if (t.IsScalar()) c.tags.push_back(t.as<std::string>());
      });
      if (auto w = m.map("workload")) readWorkload(*w, c.job);
      if (auto fb = m.map("fabric")) {
        // the facility defaults first; the NVLink bandwidth follows the GPU type at estimate
        // unless the file gives it
        if (auto nv = fb->map("nvlink"); nv && nv->get("link_bandwidth"))
          c.nvlink_bandwidth_given = true;
        readFabric(*fb, c.fabric);
      }
      c.job.name = c.id;
      c.job.loc = c.loc;
      out.push_back(std::move(c));
    });
  });
  if (session.failed()) throw LoadFailure(session.finish(name));
  return out;
}

std::vector<EstimateCase> loadEstimateFile(const std::string& path, const LoadOptions& options) {
  std::string why;
  const auto text = readTextFile(path, &why);
  if (!text) throw LoadFailure({LoadError{SourceLoc{path, 0, 0, ""}, "", "cannot read: " + why}});
  return loadEstimateFromString(*text, path, options);
}

EstimateResult estimate(const EstimateCase& c, const LoadOptions& options) {
  EstimateResult r;
  r.c = c;
  try {
    r.gpu = loadCatalogGpu(c.gpu_name, c.loc, options);
  } catch (const LoadFailure& e) {
    r.error = e.what();
    return r;
  }
  // a power cap within the GPU's settable range (nvidia-smi -pl refuses others), as on a facility's
  // job
  const GpuParams& g = r.gpu;
  if (c.gpu_power_cap > 0 &&
      (c.gpu_power_cap < g.P_limit_min - 1e-9 || c.gpu_power_cap > g.P_limit_max + 1e-9)) {
    const SourceLoc& at = c.gpu_power_cap_loc;
    r.error = at.file + ":" + std::to_string(at.line) + ": case '" + c.id + "': gpu_power_cap " +
              fmt("%g", c.gpu_power_cap) +
              " W: expected a power cap within the settable range of GPU '" + c.gpu_name + "' (" +
              fmt("%g", g.P_limit_min) + " W ... " + fmt("%g", g.P_limit_max) + " W)";
    return r;
  }
  if (c.hbm_capacity > 0) r.gpu.hbm_capacity = c.hbm_capacity;
  if (c.hbm_bandwidth > 0) r.gpu.hbm_bandwidth = c.hbm_bandwidth;
  FabricSpec fab = c.fabric;
  if (!c.nvlink_bandwidth_given && r.gpu.nvlink_bandwidth > 0)
    fab.nvlink_link_bandwidth = r.gpu.nvlink_bandwidth / 2.0 / fab.nvlink_links_per_gpu;
  const int domain = c.nvlink_domain > 0 ? c.nvlink_domain : std::max(1, r.gpu.nvlink_domain);
  try {
    const double limit = gpuPowerLimit(r.gpu, 0.0, c.gpu_power_cap);
    r.d = describeTrainingJob(c.job.workload, gpuCapability(r.gpu, r.gpu.name, limit, c.job.T_ref),
                              fab, c.gpus, domain, TrainingJobSpec{});
  } catch (const std::invalid_argument& e) {
    const auto* je = dynamic_cast<const JobModelError*>(&e);
    auto it = je ? c.job.workload_loc.find(je->key) : c.job.workload_loc.end();
    const SourceLoc at = it != c.job.workload_loc.end() ? it->second : c.loc;
    r.error = at.file + ":" + std::to_string(at.line) + ": case '" + c.id + "': " + e.what();
  }
  return r;
}

EstimateStats estimateStats(const std::vector<EstimateResult>& rs) {
  EstimateStats st;
  double sum = 0;
  for (const auto& r : rs) {
    if (!r.error.empty()) {
      ++st.failed;
      continue;
    }
    if (r.c.measured_step_time > 0) {
      sum += std::abs(r.delta()), st.max_abs = std::max(st.max_abs, std::abs(r.delta()));
      ++st.measured;
    }
  }
  st.mean_abs = st.measured > 0 ? sum / st.measured : 0.0;
  return st;
}

std::vector<ScalingSeries> scalingSeries(const std::vector<EstimateResult>& rs) {
  std::map<std::string, std::vector<const EstimateResult*>> by_tag;
  for (const auto& r : rs)
    if (r.error.empty() && r.c.measured_step_time > 0 && r.d.step_time > 0)
      for (const auto& tag : r.c.tags)
        if (tag.find("scaling") != std::string::npos) by_tag[tag].push_back(&r);
  std::vector<ScalingSeries> out;
  for (auto& [tag, v] : by_tag) {
    if (v.size() < 2) continue;
    std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->c.gpus < b->c.gpus; });
    auto mfu = [](const EstimateResult& r, double step) {
      return r.d.mfu * r.d.step_time / step;  // the same FLOPs over the other step
    };
    ScalingSeries s;
    s.tag = tag;
    s.cases = int(v.size());
    s.gpus_first = v.front()->c.gpus, s.gpus_last = v.back()->c.gpus;
    s.measured_first = mfu(*v.front(), v.front()->c.measured_step_time);
    s.measured_last = mfu(*v.back(), v.back()->c.measured_step_time);
    s.estimated_first = v.front()->d.mfu, s.estimated_last = v.back()->d.mfu;
    out.push_back(s);
  }
  return out;
}

std::string estimateTable(const std::vector<EstimateResult>& rs, bool detail) {
  std::string o;
  char line[512];
  std::snprintf(line, sizeof line, "%-44s %-10s %6s %5s %9s %9s %7s %6s %8s %-9s %s\n", "case",
                "gpu", "gpus", "prec", "step (s)", "measured", "delta", "MFU", "GB/GPU",
                "recompute", "tokens/s");
  o += line;
  for (const auto& r : rs) {
    if (!r.error.empty()) {
      o += r.c.id + ": " + r.error + "\n";
      continue;
    }
    const double dl = r.delta();
    std::string meas =
        r.c.measured_step_time > 0 ? fmt("%9.3f", r.c.measured_step_time) : "        -";
    std::string delta = r.c.measured_step_time > 0 ? fmt("%+6.1f%%", 100 * dl) : "      -";
    std::snprintf(line, sizeof line, "%-44s %-10s %6d %5s %9.3f %s %s %5.1f%% %8.1f %-9s %.4g\n",
                  r.c.id.substr(0, 44).c_str(), r.c.gpu_name.substr(0, 10).c_str(), r.c.gpus,
                  precisionName(r.c.job.workload.precision), r.d.step_time, meas.c_str(),
                  delta.c_str(), 100 * r.d.mfu, r.d.memory_per_gpu / 1e9,
                  recomputeName(r.d.recompute), r.d.tokens_per_second);
    o += line;
    if (detail) {
      const DescribedJob& d = r.d;
      std::snprintf(line, sizeof line,
                    "    dp %d, vp %d, micro-batches %d, stage of %d layers: micro-batch %.4f s "
                    "(gemm %.4f, attention %.4f, memory %.4f, tp %.4f, cp %.4f, ep %.4f, "
                    "recompute %.4f)\n",
                    d.dp, d.vp, d.micro_batches, d.stage_layers_max, d.t_stage,
                    d.fwd.gemm + d.bwd.gemm, d.fwd.attention + d.bwd.attention,
                    d.fwd.memory + d.bwd.memory, d.fwd.tp_exposed + d.bwd.tp_exposed,
                    d.fwd.cp_exposed + d.bwd.cp_exposed, d.fwd.ep_exposed + d.bwd.ep_exposed,
                    d.bwd.recompute);
      o += line;
      if (r.c.gpu_power_cap > 0) {  // the cap's cost ("Power limit", docs/models/job.md)
        const double limit = gpuPowerLimit(r.gpu, 0.0, r.c.gpu_power_cap);
        const double scale = gpuCapability(r.gpu, r.gpu.name, limit, r.c.job.T_ref).rate_scale;
        o += fmt("    power limit %.0f W", limit) + fmt(" (default %.0f W)", r.gpu.P_tdp) +
             fmt(": compute kernels at %.3f of their rate at the default\n", scale);
      }
      o += "    phases:";
      for (const auto& p : d.job.phases) o += " " + p.name + fmt(" %.4f", p.duration);
      if (d.job.stages > 1)  // the bubble phases are the longest stage's; each stage skips some
        o += fmt("  (%.0f pipeline stages in time, each skipping", double(d.job.stages)) +
             fmt(" %.4f s of the bubble phases)", d.job.stage_skip_total);
      o += fmt("  (parameters %.4g", d.parameters) + fmt(", weights %.1f GB", d.mem_weights / 1e9) +
           fmt(", gradients %.1f GB", d.mem_gradients / 1e9) +
           fmt(", optimizer %.1f GB", d.mem_optimizer / 1e9) +
           fmt(", activations %.1f GB)\n", d.mem_activations / 1e9);
    }
  }
  const EstimateStats st = estimateStats(rs);
  if (st.measured > 0) {
    std::snprintf(line, sizeof line,
                  "%d cases with a measured step time: mean |delta| %.2f %%, max |delta| %.2f %%\n",
                  st.measured, 100 * st.mean_abs, 100 * st.max_abs);
    o += line;
  }
  for (const ScalingSeries& s : scalingSeries(rs)) {
    std::snprintf(line, sizeof line,
                  "series %s (%d cases, %d to %d GPUs): MFU measured %.1f -> %.1f %% (%+.1f "
                  "points), estimated %.1f -> %.1f %% (%+.1f points): growth off by %+.1f points\n",
                  s.tag.c_str(), s.cases, s.gpus_first, s.gpus_last, 100 * s.measured_first,
                  100 * s.measured_last, 100 * (s.measured_last - s.measured_first),
                  100 * s.estimated_first, 100 * s.estimated_last,
                  100 * (s.estimated_last - s.estimated_first), 100 * s.growthError());
    o += line;
  }
  if (st.failed > 0) o += std::to_string(st.failed) + " case(s) could not be estimated\n";
  return o;
}

}  // namespace dctwin
