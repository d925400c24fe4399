// compile.cpp: FacilitySpec -> FacilityModel (flat arrays, state layout, jacobian sparsity)
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "models/valve.h"
#include "solver/common/units.h"
#include "solver/compile/compile.h"

#include "solver/compile/air_racks.h"
#include "solver/compile/switch_racks.h"
#include "solver/input/loader.h"

namespace dctwin {

namespace {

constexpr double kRhoWater = 1000.0;

// collects compile errors so that all of them are reported together
struct Errors {
  std::vector<LoadError> list;
  void add(const SourceLoc& loc, std::string value, std::string msg) {
    list.push_back(LoadError{loc, std::move(value), std::move(msg)});
  }
};

int fluidIndex(FacilityModel& m, std::map<std::string, int>& index, const FacilitySpec& spec,
               const std::string& name, const SourceLoc& loc, Errors& err) {
  auto it = index.find(name);
  if (it != index.end()) return it->second;
  auto f = spec.fluids.find(name);
  if (f == spec.fluids.end()) {
    err.add(loc, name, "unknown fluid");
    return -1;
  }
  try {
    m.fluids.emplace_back(f->second);
  } catch (const std::exception& e) {
    err.add(loc, name, e.what());
    return -1;
  }
  index[name] = static_cast<int>(m.fluids.size()) - 1;
  return index[name];
}

// rows of the jacobian: for each state, the states its derivative depends on
void addDeps(std::vector<std::vector<int>>& rows, int row, std::initializer_list<int> cols) {
  for (int c : cols) rows[row].push_back(c);
}

void buildSparsity(FacilityModel& m) {
  std::vector<std::vector<int>> rows(m.nstate);
  for (int c = 0; c < m.ncdu; ++c) {
    const int o = m.cdu_stateadr[c];
    const int Tres = o + kTRes, N = o + kNPump, y = o + kYValve;
    const int sup0 = m.supSegAdr(c), ns = m.cdu_nseg_sup[c];
    const int ret0 = m.retSegAdr(c), nr = m.cdu_nseg_ret[c];
    const int T_in = sup0 + ns - 1;  // rack inlet = last supply segment
    // flows depend on pump speed and on T_res (fluid properties of the hydraulic solve)
    for (int i = o; i < o + m.cdu_statenum[c]; ++i) addDeps(rows, i, {i, Tres, N, o + kVAir});
    // leaks: the flows depend on the local pressures (tank from the lost volume, pump head)
    addDeps(rows, o + kVLost, {o + kVLost, o + kVAir, o + kXPump});
    addDeps(rows, o + kVAir, {o + kVLost, o + kVAir, o + kXPump});
    addDeps(rows, Tres, {ret0 + nr - 1});
    addDeps(rows, o + kTHexSec, {y});
    addDeps(rows, o + kTHexPrim, {y});
    addDeps(rows, o + kXTemp, {o + kTHexSec});
    addDeps(rows, y, {o + kTHexSec, o + kXTemp});
    addDeps(rows, N, {o + kXPump});
    for (int i = 0; i < ns; ++i) addDeps(rows, sup0 + i, {i == 0 ? o + kTHexSec : sup0 + i - 1});
    for (int k = 0; k < m.cdu_racknum[c]; ++k) {
      int r = m.cdu_rackadr[c] + k, a = m.rackAdr(r);
      addDeps(rows, a, {a + 1, T_in});
      addDeps(rows, a + 1, {a, T_in});
      addDeps(rows, ret0, {a});
    }
    for (int i = 1; i < nr; ++i) addDeps(rows, ret0 + i, {ret0 + i - 1});
    // measurement lags: the sensor follows its signal; the PI and its actuator read the sensor
    if (const int s = m.cdu_sensT_adr[c]; s >= 0) {
      addDeps(rows, s, {s, o + kTHexSec});
      addDeps(rows, o + kXTemp, {s});
      addDeps(rows, y, {s});
    }
    if (const int s = m.cdu_sensP_adr[c]; s >= 0) {
      addDeps(rows, s, {s});
      addDeps(rows, o + kXPump, {s});
      addDeps(rows, N, {s});
    }
  }
  if (m.room_state >= 0) addDeps(rows, m.room_state, {m.room_state});
  if (m.ah_state >= 0) {  // the fans' speed from the PI on the room air; the PI on its error
    addDeps(rows, m.room_state, {m.ah_state});
    addDeps(rows, m.ah_state, {m.room_state, m.ah_state});
  }
  // transpose to CSC
  std::vector<std::vector<int>> cols(m.nstate);
  for (int i = 0; i < m.nstate; ++i) {
    auto& r = rows[i];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    for (int j : r) cols[j].push_back(i);
  }
  m.jac_colptr.assign(m.nstate + 1, 0);
  m.jac_rowind.clear();
  for (int j = 0; j < m.nstate; ++j) {
    for (int i : cols[j]) m.jac_rowind.push_back(i);
    m.jac_colptr[j + 1] = static_cast<long long>(m.jac_rowind.size());
  }
  // greedy coloring: columns sharing a row get different colors
  m.jac_color.assign(m.nstate, -1);
  m.jac_ncolor = 0;
  std::vector<int> mark;
  for (int j = 0; j < m.nstate; ++j) {
    mark.assign(m.jac_ncolor + 1, 0);
    for (int i : cols[j])
      for (int k : rows[i])
        if (m.jac_color[k] >= 0) mark[m.jac_color[k]] = 1;
    int color = 0;
    while (mark[color]) ++color;
    m.jac_color[j] = color;
    m.jac_ncolor = std::max(m.jac_ncolor, color + 1);
  }
}

// the trays' shares of a rack's flow: the rack's law split between its manifolds (friction
// between tray taps, U or Z) and its trays (docs/models/flow_distribution.md); an error where
// the manifolds alone would take the rack's whole drop at its nominal flow
void compileTrayShares(const RackTypeSpec& rt, const Fluid& f, double T_ref,
                       std::vector<double>& share, Errors& err) {
  share.assign(rt.trays, 1.0 / rt.trays);
  if (rt.manifold_header_length <= 0 || rt.trays < 2 || rt.manifold_dp_nominal <= 0) return;
  const double rho = f.rho_ref(), mu = f.mu(T_ref);
  const PipeFriction seg{rt.manifold_header_length / (rt.trays - 1), rt.manifold_header_diameter,
                         rt.manifold_header_roughness};
  double header_dp = 0;
  const Arrangement arr = rt.manifold_z ? Arrangement::Z : Arrangement::U;
  // the racks of a type share their shares: the solve once per distinct input (a campus has
  // thousands of racks of one type; per thread, so that sweeps compile in parallel)
  struct Memo {
    std::array<double, 10> key;
    std::vector<double> share;
    double header_dp;
    bool ok;
  };
  thread_local std::vector<Memo> memo;
  const std::array<double, 10> key{double(arr),
                                   double(rt.trays),
                                   rt.manifold_dp_nominal,
                                   rt.manifold_flow_nominal,
                                   rt.manifold_exponent,
                                   seg.length,
                                   seg.diameter,
                                   seg.roughness,
                                   rho,
                                   mu};
  bool ok = false;
  auto hit = std::find_if(memo.begin(), memo.end(), [&](const Memo& e) { return e.key == key; });
  if (hit != memo.end()) {
    share = hit->share;
    header_dp = hit->header_dp;
    ok = hit->ok;
  } else {
    ok = trayFlowShares(arr, rt.trays, rt.manifold_dp_nominal, rt.manifold_flow_nominal * rho,
                        rt.manifold_exponent, seg, rho, mu, share, &header_dp);
    if (memo.size() >= 64) memo.clear();
    memo.push_back(Memo{key, share, header_dp, ok});
  }
  if (!ok) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "manifold of rack type '%s' cannot carry its flow: the supply and return "
                  "manifolds alone (%.3g m, %.3g mm) drop %.3g kPa at %.4g L/min, the rack's law "
                  "%.3g kPa; expected a wider or shorter manifold",
                  rt.name.c_str(), rt.manifold_header_length, 1e3 * rt.manifold_header_diameter,
                  1e-3 * header_dp, toLitersPerMinute(rt.manifold_flow_nominal),
                  1e-3 * rt.manifold_dp_nominal);
    err.add(rt.manifold_loc.line > 0 ? rt.manifold_loc : rt.loc,
            std::to_string(rt.manifold_header_diameter), buf);
  }
}

// a GPU type's spreads with the facility's overrides (docs/models/gpu_variation.md)
GpuSpread effectiveSpread(const GpuSpread& type, const VariationSpec& v) {
  GpuSpread s = type;
  const GpuSpread& o = v.spread_override;
  auto set = [](double& x, double y) {
    if (y >= 0) x = y;
  };
  set(s.leakage, o.leakage);
  set(s.leakage_tray, o.leakage_tray);
  set(s.idle, o.idle);
  set(s.vf, o.vf);
  set(s.tim, o.tim);
  set(s.hbm, o.hbm);
  set(s.bad_mount_fraction, o.bad_mount_fraction);
  set(s.bad_mount_factor, o.bad_mount_factor);
  return s;
}

// the GPUs of a rack without a heat-load profile (the GPU layer resolves them)
// one cold plate's heat capacity (J/K; docs/models/cold_plate.md "Heat capacity"): from its
// copper mass and coolant hold-up where the plate gives them, C = m c_cu + V rho c_p (copper
// c_p = 385 J/(kg K) at 300 K [K133]); else from its time constant at design flow, C = tau / R
double plateCapacity(const ColdPlateSpec& cp, double R_design, const Fluid& f, double T_ref) {
  constexpr double c_copper = 385.0;  // (J/(kg K)) [K133]
  if (cp.mass > 0 || cp.holdup_volume > 0)
    return cp.mass * c_copper + cp.holdup_volume * f.rho(T_ref) * f.cp(T_ref);
  return cp.time_constant / R_design;
}

void compileRackGpus(const FacilitySpec& spec, const RackSpec& rs, const RackTypeSpec& rt,
                     const ColdPlateSpec& cp, const Fluid& f, double T_ref, FacilityModel& m,
                     Errors& err) {
  const int n = rt.trays * rt.gpus_per_tray;
  m.rack_gpuadr.push_back(m.ngpu);
  m.rack_tray_gpus.push_back(rt.gpus_per_tray);
  m.rack_power_cap.push_back(rs.power_cap);
  m.rack_gpu_power_cap.push_back(rs.gpu_power_cap);
  m.rack_has_storage.push_back(rt.has_storage ? 1 : 0);
  m.rack_storage.push_back(rt.storage);
  // a lumped block of N racks: N stores, each one rack's; the store's law is
  // homogeneous in power and energy, so one store N times the size is the N of them exactly
  StorageParams& sp = m.rack_storage.back();
  sp.capacity_J *= rs.multiplier;
  sp.P_max_W *= rs.multiplier;
  sp.target_W *= rs.multiplier;
  // non-GPU parts: one resolved set per rack type, shared by its racks
  int partset = -1;
  if (!rs.has_heat_load && !rt.parts.empty()) {
    for (std::size_t k = 0; k < m.part_set_type.size(); ++k)
      if (m.part_set_type[k] == rt.name) partset = int(k);
    if (partset < 0) {
      RackParts rp;
      for (const auto& [pname, count] : rt.parts) {
        auto it = spec.parts.find(pname);
        if (it == spec.parts.end()) {
          err.add(rt.loc, pname, "unknown rack part in rack type '" + rt.name + "'");
          continue;
        }
        rp.parts.emplace_back(it->second, count);
      }
      m.part_sets.push_back(std::move(rp));
      m.part_set_type.push_back(rt.name);
      partset = int(m.part_sets.size()) - 1;
    }
  }
  m.rack_partset.push_back(partset);
  const bool resolved = !rs.has_heat_load && !rt.gpu.empty();
  m.rack_resolved.push_back(resolved ? 1 : 0);
  if (!resolved) {
    m.rack_gpunum.push_back(0);
    m.rack_other_idle.push_back(0);
    m.rack_other_max.push_back(0);
    m.rack_other_liquid.push_back(0);
    return;
  }
  auto g = spec.gpus.find(rt.gpu);
  if (g == spec.gpus.end()) {
    err.add(rt.loc, rt.gpu, "unknown GPU in rack type '" + rt.name + "'");
    m.rack_gpunum.push_back(0);
    m.rack_other_idle.push_back(0);
    m.rack_other_max.push_back(0);
    m.rack_other_liquid.push_back(0);
    return;
  }
  int type = -1;
  for (std::size_t k = 0; k < m.gpu_types.size(); ++k)
    if (m.gpu_types[k].name == g->second.name) type = int(k);
  if (type < 0) {
    m.gpu_types.push_back(g->second);
    type = int(m.gpu_types.size()) - 1;
  }
  const GpuParams& gp = m.gpu_types[type];
  // non-GPU power (CPUs, switch trays, NICs, fans): the type's, or what the nominal power leaves
  // beyond the GPUs' TDP, idling at 30 % of it (a)
  double other_max = rt.other_max_power, other_idle = rt.other_idle_power;
  if (other_max <= 0) {
    other_max = std::max(rt.nominal_power - n * gp.P_tdp, 0.0);
    other_idle = 0.3 * other_max;
  }
  // the non-GPU liquid share that keeps the type's liquid fraction at nominal power
  double other_liq = rt.liquid_fraction;
  if (rt.nominal_power > n * gp.P_tdp)
    other_liq = std::clamp(
        (rt.liquid_fraction * rt.nominal_power - n * gp.P_tdp) / (rt.nominal_power - n * gp.P_tdp),
        0.0, 1.0);
  m.rack_gpunum.push_back(n);
  m.rack_other_idle.push_back(other_idle);
  m.rack_other_max.push_back(other_max);
  m.rack_other_liquid.push_back(other_liq);
  const int r = m.nrack;  // this rack's model index (pushed by the caller)
  const ColdPlateLaw& law = m.rack_coldplate.back();
  const double R_design = law.R(rt.design_flow / rt.coldplate_paths);
  std::vector<double> factor(n, 1.0);
  for (const auto& [slot, fac] : rs.coldplate_degradation)
    if (slot >= 0 && slot < n) factor[slot] = fac;
  // the trays' shares of the rack's flow (manifold positions), then the GPUs' within a tray:
  // coldplate_series plates in series on each of gpus_per_tray / coldplate_series paths
  std::vector<double> tray_share;
  const int S = rt.coldplate_series, G = rt.gpus_per_tray;
  if (G % S != 0)
    err.add(rt.loc, std::to_string(S),
            "coldplate_series must divide gpus_per_tray (" + std::to_string(G) + ")");
  compileTrayShares(rt, f, T_ref, tray_share, err);
  const GpuSpread spread = effectiveSpread(gp.variation, spec.variation);
  const double ageing = 1.0 + spec.variation.tim_ageing * spec.variation.age;
  for (int k = 0; k < n; ++k) {
    // variation: from the seed and the GPU's identity only (rack name, tray, slot in the tray)
    GpuFactors vf;
    if (spec.variation.on)
      vf = drawGpuFactors(spread, spec.variation.seed, rs.name, k / rt.gpus_per_tray,
                          k % rt.gpus_per_tray, ageing);
    m.gpu_leak_factor.push_back(vf.leak);
    m.gpu_idle_factor.push_back(vf.idle);
    m.gpu_dyn_factor.push_back(vf.dyn);
    m.gpu_Rjc_factor.push_back(vf.Rjc);
    m.gpu_Rhbm_factor.push_back(vf.Rhbm);
    m.gpu_bad_mount.push_back(vf.bad_mount ? 1 : 0);
    m.gpu_type.push_back(type);
    m.gpu_rack.push_back(r);
    m.gpu_slot.push_back(k);
    m.gpu_cap.push_back(gpuPowerLimit(gp, rs.gpu_power_cap, 0.0));  // a job joins later
    m.gpu_R_factor.push_back(factor[k]);
    m.gpu_C_plate.push_back(plateCapacity(cp, R_design, f, T_ref));
    m.gpu_job.push_back(-1);
    m.gpu_jobslot.push_back(-1);
    const int slot = k % G, paths = std::max(G / S, 1);
    m.gpu_flow_share.push_back(tray_share[k / G] / paths);
    m.gpu_upstream.push_back(S > 1 && slot % S > 0 ? m.ngpu + k - 1 : -1);
  }
  m.ngpu += n;
}

// a described training job (docs/models/job.md): phases from the model, its GPU type and the
// fabric; the job's first rack is its NVLink domain size. Errors name the key that is wrong.
void describeJob(const FacilitySpec& spec, const JobSpec& js, FacilityModel& m, int j,
                 Errors& err) {
  m.job_described.emplace_back();
  if (!js.described || js.kind != JobSpec::Kind::Training || m.job_gpus[j].empty()) return;
  const int g0 = m.job_gpus[j].front();
  const GpuParams& gp = m.gpu_types[m.gpu_type[g0]];
  const int per_domain = m.rack_gpunum[m.gpu_rack[g0]];
  try {
    DescribedJob d = describeTrainingJob(
        js.workload, gpuCapability(gp, gp.name, gpuPowerLimit(gp, 0.0, js.gpu_power_cap), js.T_ref),
        spec.fabric, int(m.job_gpus[j].size()), per_domain, js.training, spec.host_memory);
    m.job_spec[j] = d.job;
    m.job_described.back() = std::move(d);
  } catch (const std::invalid_argument& e) {
    const auto* je = dynamic_cast<const JobModelError*>(&e);
    auto it = je ? js.workload_loc.find(je->key) : js.workload_loc.end();
    const bool host = je && je->key == "host_memory" && it == js.workload_loc.end();
    err.add(host                          ? spec.host_memory_loc
            : it != js.workload_loc.end() ? it->second
                                          : js.loc,
            "", "job '" + js.name + "': " + e.what());
  }
}

// jobs: their GPUs (with their power limits) and the reference clocks of each phase
void compileJobs(const FacilitySpec& spec, FacilityModel& m, Errors& err) {
  std::map<std::string, int> rack_of;
  for (int r = 0; r < m.nrack; ++r) rack_of[m.rack_name[r]] = r;
  for (const JobSpec& js : spec.jobs) {
    const int j = m.njob++;
    m.job_name.push_back(js.name);
    m.job_spec.push_back(js.training);
    m.job_kind.push_back(int(js.kind));
    m.job_inference.push_back(js.inference);
    m.job_trace.push_back(js.trace);
    m.job_smoothing.push_back(js.smoothing);
    m.job_gpus.emplace_back();
    for (const auto& rn : js.racks) {
      auto it = rack_of.find(rn);
      if (it == rack_of.end() || !m.rack_resolved[it->second]) {
        err.add(js.loc, rn, "job '" + js.name + "': rack has no resolved GPUs");
        continue;
      }
      const int r = it->second;
      for (int k = 0; k < m.rack_gpunum[r]; ++k) {
        const int gi = m.rack_gpuadr[r] + k;
        m.gpu_job[gi] = j;
        m.gpu_jobslot[gi] = int(m.job_gpus[j].size());
        m.job_gpus[j].push_back(gi);
        m.gpu_cap[gi] =
            gpuPowerLimit(m.gpu_types[m.gpu_type[gi]], m.rack_gpu_power_cap[r], js.gpu_power_cap);
      }
    }
    // a described job: its phases from the model, the GPU type and the fabric (job.md)
    describeJob(spec, js, m, j, err);
    // reference: each phase on a GPU at T_ref, without thermal limits, at the job's cap
    const TrainingJobSpec& training = m.job_spec[j];
    const int nph = int(training.phases.size());
    // (two more entries per type, 1: the iteration end and the checkpoint have no reference
    // clock)
    std::vector<double> xref(m.gpu_types.size() * (nph + 2), 1.0);
    for (std::size_t t = 0; t < m.gpu_types.size(); ++t) {
      const GpuParams& gp = m.gpu_types[t];
      const double cap = gpuPowerLimit(gp, 0.0, js.gpu_power_cap);
      for (int k = 0; k < nph; ++k) {
        const PhaseSpec& ph = training.phases[k];
        GpuLoad load{ph.a_sm, ph.a_hbm, ph.a_nvlink, ph.bound == PhaseSpec::Bound::Memory, false};
        const double x = gpuReferenceClock(gp, cap, load, js.T_ref);
        xref[t * (nph + 2) + k] = x > 0 ? x : 1.0;
      }
    }
    // (and their reciprocals: the jobs' speeds are the clock times these, a multiply per GPU and
    // step instead of a division, within an ulp of the quotient)
    std::vector<double> xref_inv(xref.size());
    for (std::size_t i = 0; i < xref.size(); ++i) xref_inv[i] = 1.0 / xref[i];
    m.job_xref.push_back(std::move(xref));
    m.job_xref_inv.push_back(std::move(xref_inv));
    bool stall = false;
    for (const int gi : m.job_gpus[j]) stall |= m.gpu_types[m.gpu_type[gi]].eff_gemm_stall > 0;
    m.job_stall.push_back(stall ? 1 : 0);
    if (js.kind == JobSpec::Kind::Trace && js.trace.gpus.size() > m.job_gpus[j].size())
      err.add(js.loc, std::to_string(js.trace.gpus.size()),
              "job '" + js.name + "': the trace has more GPUs than the job's racks hold (" +
                  std::to_string(m.job_gpus[j].size()) + ")");
  }
}

// the variation factors of GPU i
GpuFactors gpuFactors(const FacilityModel& m, int i) {
  GpuFactors f;
  f.leak = m.gpu_leak_factor[i];
  f.idle = m.gpu_idle_factor[i];
  f.dyn = m.gpu_dyn_factor[i];
  f.Rjc = m.gpu_Rjc_factor[i];
  f.Rhbm = m.gpu_Rhbm_factor[i];
  return f;
}

// GPUs h and i have exactly the same factors (only then may they share a group)
bool sameVariation(const FacilityModel& m, int h, int i) {
  return m.gpu_leak_factor[h] == m.gpu_leak_factor[i] &&
         m.gpu_idle_factor[h] == m.gpu_idle_factor[i] &&
         m.gpu_dyn_factor[h] == m.gpu_dyn_factor[i] && m.gpu_Rjc_factor[h] == m.gpu_Rjc_factor[i] &&
         m.gpu_Rhbm_factor[h] == m.gpu_Rhbm_factor[i];
}

// GPU groups (model.h): runs of GPUs in a rack that nothing tells apart
void compileGroups(const FacilitySpec& spec, FacilityModel& m) {
  m.gpu_group.assign(m.ngpu, -1);
  // a GPU that a fabric fault names is a group of its own (its link differs from its neighbours')
  std::vector<char> own(m.ngpu, 0);
  for (const FaultSpec& f : spec.faults) {
    if (f.kind == FaultKind::Fabric && isSwitchFault(f.fabric)) {
      // a failed leaf: the GPUs cabled to it differ from their rack neighbours (a spine reaches
      // whole racks alike, and groups never cross racks; docs/models/switch_rack.md)
      for (int k = 0; k < m.nsw; ++k) {
        if (m.sw_name[k] != f.target || m.sw_params[k].role != SwitchRole::Leaf) continue;
        if (f.tray < 0 || f.tray >= m.sw_params[k].switches) continue;
        const int nics = std::max(1, m.fabric.nics_per_gpu);
        for (int x : switchReach(m, k, f.tray)) own[x / nics] = 1;
      }
      continue;
    }
    if (f.kind != FaultKind::Fabric || f.gpu < 0) continue;
    for (int r = 0; r < m.nrack; ++r)
      if (m.rack_name[r] == f.target && f.gpu < m.rack_gpunum[r]) own[m.rack_gpuadr[r] + f.gpu] = 1;
  }
  m.job_groups.assign(m.njob, {});
  for (int r = 0; r < m.nrack; ++r) {
    m.rack_groupadr.push_back(m.ngroup);
    for (int k = 0; k < m.rack_gpunum[r]; ++k) {
      const int i = m.rack_gpuadr[r] + k;
      const int j = m.gpu_job[i];
      bool join = spec.gpu_group_identical && k > 0 && (j < 0 || m.job_kind[j] != 2);
      if (join) {
        const int h = i - 1;  // the previous GPU of the rack, the last of the current group
        join = m.gpu_type[h] == m.gpu_type[i] && m.gpu_cap[h] == m.gpu_cap[i] &&
               m.gpu_R_factor[h] == m.gpu_R_factor[i] && m.gpu_C_plate[h] == m.gpu_C_plate[i] &&
               m.gpu_flow_share[h] == m.gpu_flow_share[i] && m.gpu_upstream[h] < 0 &&
               m.gpu_upstream[i] < 0 && m.gpu_job[h] == j && sameVariation(m, h, i) && !own[h] &&
               !own[i];
      }
      if (join) {
        ++m.group_gpunum.back();
      } else {
        m.group_gpuadr.push_back(i);
        m.group_params.push_back(variedGpu(m.gpu_types[m.gpu_type[i]], gpuFactors(m, i)));
        m.group_gpunum.push_back(1);
        m.group_jobslot.push_back(j >= 0 ? int(m.job_groups[j].size()) : -1);
        if (j >= 0) m.job_groups[j].push_back(m.ngroup);
        ++m.ngroup;
      }
      m.gpu_group[i] = m.ngroup - 1;
    }
    m.rack_groupnum.push_back(m.ngroup - m.rack_groupadr[r]);
  }
}

}  // namespace

// a switch fault: the switch rack by name, the switch in range, what it carries
static bool compileSwitchFault(const FacilityModel& m, const FaultSpec& f,
                               FacilityModel::FaultEvent& e, Errors& err) {
  for (int k = 0; k < m.nsw; ++k) {
    if (m.sw_name[k] != f.target) continue;
    const int n = m.sw_params[k].switches;
    if (f.tray < 0 || f.tray >= n) {
      err.add(f.loc, std::to_string(f.tray),
              "a switch that does not exist: switch rack " + f.target + " has " +
                  std::to_string(n) + " switch(es) (0 ... " + std::to_string(n - 1) + ")");
      return false;
    }
    e.index = k;
    e.fabric = f.fabric;
    e.tray = f.tray;
    e.reach = switchReach(m, k, f.tray);
    e.label = "switch rack " + f.target + " " + switchRoleName(m.sw_params[k].role) + " " +
              std::to_string(f.tray);
    return true;
  }
  err.add(f.loc, f.target, "no switch rack of that name");
  return false;
}

//---------------------------------------------------------------------------------------------
// scenario faults -> model events (names to indices); a failed pump is replaced by a standby
// pump, if the CDU has one left, detection.pump_switchover later (scheduled here, so that every
// event time is a known solver breakpoint)
// a grid disturbance, or a sequence of them (docs/models/ride_through.md): each start is a fault
// event (value: residual voltage or frequency deviation, time2: duration); what the equipment does
// is known from its tolerances, so the recoveries are scheduled here: the drives' trip and
// restart, the UPS's re-transfer, the dropped racks' restart and the generator's transfer
static void compileDisturbance(FacilityModel& m, const FaultSpec& f) {
  using K = FaultKind;
  const bool sag = f.kind == K::VoltageSag;
  const RideThroughParams& p = m.power.ride;
  const int n = std::max(f.repeat, 1);
  auto add = [&m](double t, K kind, double value, const char* label) {
    FacilityModel::FaultEvent e{t, kind, -1, value, label};
    m.fault_events.push_back(e);
    m.breakpoints.push_back(t);
  };
  for (int k = 0; k < n; ++k) {
    const double t0 = f.time + k * f.interval;
    FacilityModel::FaultEvent e{t0, f.kind, -1, f.value, "grid"};
    e.time2 = f.duration;
    m.fault_events.push_back(e);
    m.breakpoints.push_back(t0);  // its end needs none: what follows it is scheduled below
    const GridDisturbance d{t0, f.duration, sag ? f.value : 1.0, sag ? 0.0 : f.value};
    const RideThroughOutcome o = rideThroughOutcome(p, d, m.power.generator_start_delay);
    if (o.ups_transfer && m.power.has_ups) add(o.ups_back_at, K::UpsRetransfer, 0, "ups");
    if (o.drives_trip) {
      add(o.drives_trip_at, K::DriveTrip, 0, "drives");
      add(o.drives_back_at, K::DriveRestart, 0, "drives");
    }
    if (o.psu_drop) add(t0 + f.duration + p.rack_restart_time, K::RackRestart, 0, "racks");
    // the generator answers a disturbance that holds the UPS on battery (without a UPS the
    // racks have dropped at once: not modelled)
    if (o.generator && m.power.has_ups) add(o.generator_at, K::GeneratorOnline, 1.0, "generator");
  }
}

void compileFaults(const FacilitySpec& spec, FacilityModel& m, Errors& err) {
  using K = FaultSpec::Kind;
  m.detection = spec.detection;
  m.failures = spec.failures;
  m.stragglers = spec.stragglers;
  auto cduIndex = [&](const FaultSpec& f) {
    for (int c = 0; c < m.ncdu; ++c)
      if (m.cdu_name[c] == f.target) return c;
    err.add(f.loc, f.target, "no CDU of that name");
    return -1;
  };
  auto rackIndex = [&](const FaultSpec& f) {
    for (int r = 0; r < m.nrack; ++r)
      if (m.rack_name[r] == f.target) return r;
    err.add(f.loc, f.target, "no rack of that name");
    return -1;
  };
  std::vector<int> standby(m.ncdu);
  std::vector<char> cdu_dead(m.ncdu, 0);
  for (int c = 0; c < m.ncdu; ++c) standby[c] = m.cdu_pump_count[c] - m.cdu_pump_running[c];
  for (const FaultSpec& f : spec.faults) {
    FacilityModel::FaultEvent e{f.time, f.kind, -1, f.value, ""};
    switch (f.kind) {
      case K::PumpFailure:
      case K::CduFailure:
      case K::ValveStuck:
        e.index = cduIndex(f);
        if (e.index < 0) continue;
        e.label = m.cdu_name[e.index];
        break;
      case K::PsuFailure:
        e.index = rackIndex(f);
        if (e.index < 0) continue;
        e.label = "rack " + m.rack_name[e.index];
        if (!m.has_power) {
          err.add(f.loc, f.target, "psu_failure needs the facility's power section");
          continue;
        }
        break;
      case K::Utility:
      case K::GeneratorFailure:
        e.label = f.kind == K::Utility ? "utility" : "generator";
        if (!m.has_power) {
          err.add(f.loc, "", "utility and generator events need the facility's power section");
          continue;
        }
        break;
      case K::FacilityWaterFlow:
        e.label = "facility water";
        break;
      case K::ChillerTrip:
      case K::HeatRejectionFailure:
      case K::MakeupWaterLoss:
      case K::PlantPumpFailure:
        e.label = "plant";
        if (!spec.has_plant) {
          err.add(f.loc, "", "plant events need the facility's plant section");
          continue;
        }
        break;
      case K::FilterClogging:
      case K::SensorFault:
      case K::Setpoint:
        e.index = cduIndex(f);
        if (e.index < 0) continue;
        e.label = m.cdu_name[e.index];
        e.time2 = f.growth_time;
        e.sensor = f.sensor;
        e.stuck = f.stuck;
        e.setpoint = f.setpoint;
        if (f.kind == K::FilterClogging && f.growth_time > 0)
          m.breakpoints.push_back(f.time + f.growth_time);
        break;
      case K::GeneratorOnline:  // scheduled below, never written in a scenario
      case K::UpsRetransfer:    // scheduled with their disturbance, never in a scenario
      case K::DriveTrip:
      case K::DriveRestart:
      case K::RackRestart:
        continue;
      case K::VoltageSag:
      case K::FrequencyExcursion:
        if (!m.has_power) {
          err.add(f.loc, "", "grid disturbances need the facility's power section");
          continue;
        }
        compileDisturbance(m, f);
        continue;
      case K::Fabric: {  // docs/models/fabric.md: a GPU's NIC link, or an NVLink switch tray
        if (isSwitchFault(f.fabric)) {  // a scale-out switch (docs/models/switch_rack.md)
          if (!compileSwitchFault(m, f, e, err)) continue;
          break;
        }
        e.index = rackIndex(f);
        if (e.index < 0) continue;
        e.label = "rack " + m.rack_name[e.index];
        e.fabric = f.fabric;
        e.nic = f.nic;
        e.tray = f.tray;
        const bool link =
            f.fabric == FabricFault::LinkDegraded || f.fabric == FabricFault::LinkFlapping ||
            f.fabric == FabricFault::LinkDown || f.fabric == FabricFault::LinkRestored;
        const int ng = m.rack_gpunum[e.index];
        if (link && (f.gpu < 0 || f.gpu >= ng)) {
          err.add(f.loc, std::to_string(f.gpu),
                  "rack " + m.rack_name[e.index] + " has no GPU slot " + std::to_string(f.gpu) +
                      " (expected 0 ... " + std::to_string(ng - 1) + ")");
          continue;
        }
        if (link && f.nic >= spec.fabric.nics_per_gpu) {
          err.add(f.loc, std::to_string(f.nic),
                  "a link to a NIC that does not exist: each GPU has " +
                      std::to_string(spec.fabric.nics_per_gpu) + " NIC(s) (fabric.scale_out)");
          continue;
        }
        if (!link && f.tray >= spec.fabric.nvlink_switch_trays) {
          err.add(f.loc, std::to_string(f.tray),
                  "a switch that does not exist: rack " + m.rack_name[e.index] + " has " +
                      std::to_string(spec.fabric.nvlink_switch_trays) +
                      " NVLink switch trays (0 ... " +
                      std::to_string(spec.fabric.nvlink_switch_trays - 1) + ")");
          continue;
        }
        if (link) e.gpu = m.rack_gpuadr[e.index] + f.gpu;
        if (link)
          e.label += " GPU " + std::to_string(f.gpu) + " NIC " + std::to_string(f.nic);
        else
          e.label += " NVLink tray " + std::to_string(f.tray);
        break;
      }
      case K::PlateDegradation: {  // docs/models/rack_parts.md "Part temperature and shutdown"
        e.index = rackIndex(f);
        if (e.index < 0) continue;
        const int ps = m.rack_partset[e.index];
        std::vector<std::string> names;
        if (ps >= 0)
          for (std::size_t k = 0; k < m.part_sets[ps].parts.size(); ++k) {
            names.push_back(m.part_sets[ps].parts[k].first.name);
            if (names.back() == f.part) e.part = int(k);
          }
        if (e.part < 0) {
          err.add(f.loc, f.part,
                  "rack " + m.rack_name[e.index] + " has no part of that name" +
                      (names.empty() ? std::string(" (its rack type lists no parts)")
                                     : didYouMean(f.part, names)));
          continue;
        }
        e.label = "rack " + m.rack_name[e.index] + " " + f.part;
        break;
      }
      case K::PowerCap: {
        for (int j = 0; j < m.njob; ++j)
          if (m.job_name[j] == f.target) e.index = j;
        if (e.index < 0) {
          err.add(f.loc, f.target, "no job of that name");
          continue;
        }
        e.label = "job " + f.target;
        break;
      }
      case K::Leak: {
        FacilityModel::Leak L;
        L.time = f.time;
        L.where = f.where;
        L.area = f.area;
        L.area_final = f.area_final > 0 ? f.area_final : f.area;
        L.growth_time = f.growth_time;
        L.Cd = f.Cd;
        if (f.where == FaultSpec::Where::Rack) {
          L.rack = rackIndex(f);
          if (L.rack < 0) continue;
          L.cdu = m.rack_cdu[L.rack];
          L.label = "rack " + m.rack_name[L.rack];
        } else {
          L.cdu = cduIndex(f);
          if (L.cdu < 0) continue;
          L.label =
              m.cdu_name[L.cdu] + (f.where == FaultSpec::Where::Cdu            ? ""
                                   : f.where == FaultSpec::Where::SupplyHeader ? " supply header"
                                                                               : " return header");
        }
        if (m.cdu_V_tank[L.cdu] <= 0 && m.cdu_vacuum[L.cdu] >= 0)
          err.add(f.loc, f.target, "a leak needs the CDU's expansion_tank (volume, precharge)");
        m.cdu_has_leak[L.cdu] = 1;
        e.index = static_cast<int>(m.leaks.size());
        e.label = L.label;
        m.leaks.push_back(L);
        break;
      }
    }
    if (f.kind == K::Leak) {  // acts through m.leaks; logged when it opens
      m.fault_events.push_back(e);
      m.breakpoints.push_back(f.time);
      if (f.growth_time > 0) m.breakpoints.push_back(f.time + f.growth_time);
      continue;
    }
    const int c = e.index;
    int take = 0;
    if (f.kind == K::CduFailure) cdu_dead[c] = 1;
    if (f.kind == K::PumpFailure && !cdu_dead[c]) take = std::min(standby[c], int(f.value));
    e.covered = take >= int(f.value);
    m.fault_events.push_back(e);
    m.breakpoints.push_back(f.time);
    // a utility loss starts the standby generator: the transfer switch connects it later
    if (f.kind == K::Utility && f.value < 0.5 && m.power.generator_start_delay > 0) {
      FacilityModel::FaultEvent gen{f.time + m.power.generator_start_delay, K::GeneratorOnline, -1,
                                    1.0, "generator"};
      m.fault_events.push_back(gen);
      m.breakpoints.push_back(gen.time);
    }
    if (f.kind == K::PumpFailure) {
      if (take > 0) {
        standby[c] -= take;
        FacilityModel::FaultEvent sw{f.time + spec.detection.pump_switchover,
                                     K::PumpFailure,
                                     c,
                                     -static_cast<double>(take),
                                     m.cdu_name[c],
                                     true};
        m.fault_events.push_back(sw);
        m.breakpoints.push_back(sw.time);
      }
    }
  }
  std::stable_sort(m.fault_events.begin(), m.fault_events.end(),
                   [](const auto& a, const auto& b) { return a.time < b.time; });
}

namespace {

// 1. facility water: its fluid and supply temperature
void compileFacilityWater(const FacilitySpec& spec, std::map<std::string, int>& fluid_index,
                          FacilityModel& m, Errors& err) {
  SourceLoc fws_loc{spec.file, 0, 0, "facility_water"};
  m.fws_fluid = fluidIndex(m, fluid_index, spec, spec.facility_water.fluid, fws_loc, err);
  m.fws_T = spec.facility_water.T_supply;
  m.fws_T.breakpoints(m.breakpoints);
  // the plant (docs/models/plant.md): sized once from its rated points with the facility water's
  // heat capacity at the set point
  if (spec.has_plant && m.fws_fluid >= 0) {
    m.has_plant = true;
    m.plant = spec.plant.params;
    sizePlant(m.plant, m.fluids[m.fws_fluid].cp(m.plant.T_set));
    m.weather = spec.plant.weather;
    m.plant_start = spec.plant.start;
    m.tariff = spec.plant.tariff;
    m.currency = spec.plant.currency;
    m.grid_co2 = spec.plant.grid_co2;
  }
}

// 2. racks grouped by CDU, in file order within each CDU (spec indices)
std::vector<std::vector<int>> racksByCdu(const FacilitySpec& spec, Errors& err) {
  std::map<std::string, int> cdu_index;
  for (std::size_t c = 0; c < spec.cdus.size(); ++c) cdu_index[spec.cdus[c].name] = int(c);
  std::vector<std::vector<int>> racks_of(spec.cdus.size());
  for (std::size_t r = 0; r < spec.racks.size(); ++r) {
    auto it = cdu_index.find(spec.racks[r].cdu);
    if (it == cdu_index.end()) {
      err.add(spec.racks[r].loc, spec.racks[r].cdu, "unknown CDU");
      continue;
    }
    racks_of[it->second].push_back(int(r));
  }
  return racks_of;
}

// 3a'. heat exchanger beyond the rated point (docs/models/heat_exchanger.md): a given
// UA at the rated flows, split by the rated point's film ratio; the rating of an approach at a
// load and a pair of flows (its own film ratio); a vendor table of UA over the secondary flow
HexParams sizeHexBeyondRated(const CduSpec& cs, const Fluid& fs, const Fluid& fp,
                             const HexRating& rated, double n) {
  using S = CduSpec::HexSizing;
  if (cs.hex_sizing == S::Ua)
    return splitCounterflowUA(cs.hex_ua, rated.r_nominal, rated.m_hot, rated.m_cold, n);
  if (cs.hex_sizing == S::Table) {
    HexParams p = sizeCounterflow(rated, n);  // the film split for the primary flow's effect
    std::vector<double> m_hot(cs.hex_table_flow.size());
    for (std::size_t i = 0; i < m_hot.size(); ++i) m_hot[i] = cs.hex_table_flow[i] * fs.rho_ref();
    setUaTable(p, m_hot, cs.hex_table_ua);
    return p;
  }
  // the approach point, rated as the rated point is (enthalpy drop, specific heats at the inlets)
  HexRating r;
  r.Q = cs.hex_ap_load;
  r.approach = cs.hex_ap_approach;
  r.T_cold_in = cs.hex_ap_T_primary;
  r.m_hot = cs.hex_ap_flow_secondary.massFlow(fs.rho_ref());
  r.m_cold = cs.hex_ap_flow_primary.massFlow(fp.rho_ref());
  const double T_hot_out = r.T_cold_in + r.approach;
  r.T_hot_in = fs.T_of_h(fs.h(T_hot_out) + r.Q / r.m_hot);
  r.cp_hot = fs.cp(r.T_hot_in);
  r.cp_cold = fp.cp(r.T_cold_in);
  const double T_hot_mean = 0.5 * (r.T_hot_in + T_hot_out);
  const double T_cold_mean = r.T_cold_in + 0.5 * r.Q / (r.m_cold * r.cp_cold);
  auto film = [&](const Fluid& f, double mf, double T) {
    return f.k(T) * std::pow(mf / f.mu(T), n) * std::cbrt(f.Pr(T));
  };
  r.r_nominal = film(fp, r.m_cold, T_cold_mean) / film(fs, r.m_hot, T_hot_mean);
  return sizeCounterflow(r, n);
}

// 3a. plate heat exchanger sized from the rated point, with each fluid's properties there; node
// masses, pressure drops
void compileCduHex(const CduSpec& cs, const Fluid& fs, const Fluid& fp, FacilityModel& m,
                   Errors& err) {
  const double rho_s = fs.rho_ref(), rho_p = fp.rho_ref();
  const double m_sec_r = cs.hex_flow_secondary.massFlow(rho_s);
  const double m_prim_r = cs.hex_flow_primary.massFlow(rho_p);
  HexRating rating;
  rating.Q = cs.hex_capacity;
  rating.approach = cs.hex_approach;
  rating.T_cold_in = cs.hex_T_primary_rated;
  rating.m_hot = m_sec_r;
  rating.m_cold = m_prim_r;
  // the rated hot inlet from the enthalpy drop (as the HX outlet node balances it), specific
  // heats at the inlets (as the eps-NTU evaluation at run time takes them)
  const double T_hot_out = cs.hex_T_primary_rated + cs.hex_approach;
  const double T_hot_in = fs.T_of_h(fs.h(T_hot_out) + cs.hex_capacity / m_sec_r);
  rating.T_hot_in = T_hot_in;
  rating.cp_hot = fs.cp(T_hot_in);
  rating.cp_cold = fp.cp(cs.hex_T_primary_rated);
  const double T_hot_mean = 0.5 * (T_hot_in + T_hot_out);
  const double T_cold_mean =
      cs.hex_T_primary_rated + 0.5 * cs.hex_capacity / (m_prim_r * rating.cp_cold);
  // r = hA_cold/hA_hot from k (m/mu)^n Pr^(1/3) of each side (same plate geometry) [K45]
  const double n = cs.hex_flow_exponent;
  auto film = [&](const Fluid& f, double mf, double T) {
    return f.k(T) * std::pow(mf / f.mu(T), n) * std::cbrt(f.Pr(T));
  };
  rating.r_nominal = film(fp, m_prim_r, T_cold_mean) / film(fs, m_sec_r, T_hot_mean);
  try {
    m.cdu_hex.push_back(cs.hex_sizing == CduSpec::HexSizing::Rated
                            ? sizeCounterflow(rating, n)
                            : sizeHexBeyondRated(cs, fs, fp, rating, n));
  } catch (const std::exception& e) {
    err.add(cs.loc, "", std::string("heat exchanger: ") + e.what());
    m.cdu_hex.push_back(HexParams{});
  }
  m.cdu_M_hex_sec.push_back(rho_s * cs.hex_holdup_secondary);
  m.cdu_M_hex_prim.push_back(rho_p * cs.hex_holdup_primary);
  m.cdu_M_res.push_back(rho_s * (cs.internal_volume + 0.5 * cs.tank_volume));
  m.cdu_hex_sec_dp.push_back(PowerLaw::fromNominal(cs.hex_dp_secondary, m_sec_r, 2.0));
  m.cdu_prim_c_hex.push_back(cs.hex_dp_primary / (m_prim_r * m_prim_r));
}

// 3b. primary valve (Kv from its rated point), and the facility water's dp across HX + valve
void compileCduPrimary(const FacilitySpec& spec, const CduSpec& cs, const Fluid& fp,
                       FacilityModel& m, Errors& err) {
  const double rho_p = fp.rho_ref();
  const double m_prim_r = cs.hex_flow_primary.massFlow(rho_p);
  // a datasheet Kv, else the Kv that passes the rated primary flow at dp_nominal fully open
  m.cdu_valve_kv.push_back(
      cs.valve_kv > 0 ? cs.valve_kv : kvFromNominal(m_prim_r / rho_p, cs.valve_dp_nominal, rho_p));
  m.cdu_valve_R.push_back(cs.valve_rangeability);
  // the characteristic is monotone only if the leakage lies below its linear segment's end
  if (!(cs.valve_leakage < equalPercentage(0.02, cs.valve_rangeability, 0.0)))
    err.add(cs.loc, std::to_string(cs.valve_leakage),
            "primary_valve.leakage must be below rangeability^-0.98 = " +
                std::to_string(equalPercentage(0.02, cs.valve_rangeability, 0.0)));
  m.cdu_valve_leak.push_back(cs.valve_leakage);
  m.cdu_valve_tau.push_back(actuatorTimeConstant(cs.valve_stroke_time));
  // facility water: a fixed available dp, or the dp that gives the stated flow fully open
  if (spec.facility_water.mode == FacilityWaterSpec::Mode::Pressure) {
    m.cdu_fws_dp.push_back(spec.facility_water.dp);
  } else {
    double mf = spec.facility_water.flow.massFlow(rho_p);
    double c_valve = valveQuadraticCoefficient(m.cdu_valve_kv.back(), rho_p);
    m.cdu_fws_dp.push_back((m.cdu_prim_c_hex.back() + c_valve) * mf * mf);
  }
}

// 3c. pumps: curve, efficiencies, running and standby count, speed lag
void compileCduPumps(const CduSpec& cs, FacilityModel& m, Errors& err) {
  PumpParams pp;
  pp.V_rated = cs.pump_rated_flow;
  pp.dp_rated = cs.pump_rated_head;
  pp.eta_hyd = cs.pump_eta_hyd;
  pp.eta_mot = cs.pump_eta_mot;
  try {
    pp.curve = Pchip(cs.pump_curve_flow, cs.pump_curve_head);
    if (!(pp.curve.slope(pp.curve.xMax()) < 0))
      err.add(cs.loc, "", "pump curve must fall at its last point");
  } catch (const std::exception& e) {
    err.add(cs.loc, "", std::string("pump curve: ") + e.what());
  }
  m.cdu_pump.push_back(pp);
  m.cdu_pump_running.push_back(cs.pump_running);
  m.cdu_pump_count.push_back(cs.pump_count);
  m.cdu_pump_tau.push_back(actuatorTimeConstant(cs.pump_rise_time));
  m.cdu_pump_min_speed.push_back(cs.pump_min_speed);
}

// 3d. secondary piping: finite volumes
void compileCduPiping(const CduSpec& cs, double rho_s, FacilityModel& m) {
  auto pipe = [](const PipeSpec& p) { return PipeFriction{p.length, p.diameter, p.roughness}; };
  m.cdu_pipe_sup.push_back(pipe(cs.supply_pipe));
  m.cdu_pipe_ret.push_back(pipe(cs.return_pipe));
  m.cdu_tap_sup.push_back(
      PipeFriction{cs.rack_spacing, cs.supply_pipe.diameter, cs.supply_pipe.roughness});
  m.cdu_tap_ret.push_back(
      PipeFriction{cs.rack_spacing, cs.return_pipe.diameter, cs.return_pipe.roughness});
  m.cdu_reverse_return.push_back(cs.reverse_return ? 1 : 0);
  m.cdu_nseg_sup.push_back(cs.supply_pipe.segments);
  m.cdu_nseg_ret.push_back(cs.return_pipe.segments);
  m.cdu_M_seg_sup.push_back(rho_s * m.cdu_pipe_sup.back().area() * cs.supply_pipe.length /
                            cs.supply_pipe.segments);
  m.cdu_M_seg_ret.push_back(rho_s * m.cdu_pipe_ret.back().area() * cs.return_pipe.length /
                            cs.return_pipe.segments);
  m.cdu_UA_seg_sup.push_back(cs.supply_pipe.ua_per_length * cs.supply_pipe.length /
                             cs.supply_pipe.segments);
  m.cdu_UA_seg_ret.push_back(cs.return_pipe.ua_per_length * cs.return_pipe.length /
                             cs.return_pipe.segments);
}

// 3e. controls: valve opens (direct action) when the supply runs warm; pump speeds up on a
// shortfall of flow (or dp), both errors scaled as documented in docs/models/cdu.md
void compileCduControls(const CduSpec& cs, FacilityModel& m) {
  m.cdu_T_set.push_back(cs.T_supply_set);
  m.cdu_pump_mode.push_back(cs.pump_mode == CduSpec::PumpMode::Dp ? 1 : 0);
  m.cdu_flow_set.push_back(cs.flow_set);
  m.cdu_dp_set.push_back(cs.dp_set);
  m.cdu_pi_temp.push_back(PIParams{cs.temp_k, cs.temp_Ti, 0.0, 0.0, 1.0});
  m.cdu_pi_pump.push_back(PIParams{cs.pump_k, cs.pump_Ti, 0.0, cs.pump_min_speed, 1.0});
}

// 3e'. datasheet keys: actuator kinds, initial positions, PI tracking time, output
// limits, action and initial outputs (docs/models/actuator.md, docs/models/controller.md)
void compileCduDatasheet(const CduSpec& cs, FacilityModel& m) {
  m.cdu_valve_act.push_back(
      makeActuator(cs.valve_rate_limited, cs.valve_stroke_time, cs.valve_filter_time));
  m.cdu_pump_act.push_back(
      makeActuator(cs.pump_rate_limited, cs.pump_rise_time, cs.pump_filter_time));
  m.cdu_valve_y0.push_back(cs.valve_initial);
  m.cdu_pump_N0.push_back(cs.pump_initial);
  auto extra = [](const CduSpec::PiExtra& x, PIParams& p) {
    p.Tt = x.Tt;
    if (!std::isnan(x.u_min)) p.u_min = x.u_min;
    if (!std::isnan(x.u_max)) p.u_max = x.u_max;
  };
  extra(cs.temp_pi, m.cdu_pi_temp.back());
  extra(cs.pump_pi, m.cdu_pi_pump.back());
  m.cdu_temp_u0.push_back(std::isnan(cs.temp_pi.u0) ? cs.valve_initial : cs.temp_pi.u0);
  m.cdu_pump_u0.push_back(std::isnan(cs.pump_pi.u0) ? cs.pump_initial : cs.pump_pi.u0);
  m.cdu_temp_uI0.push_back(cs.temp_pi.u_int0);
  m.cdu_pump_uI0.push_back(cs.pump_pi.u_int0);
  m.cdu_temp_sign.push_back(cs.temp_pi.reverse ? -1.0 : 1.0);
  m.cdu_pump_sign.push_back(cs.pump_pi.reverse ? -1.0 : 1.0);
}

// 3f. rack rs on CDU c: manifold, balancing valve, cold plate, capacities, load, and its GPUs;
// false (with the error recorded) when its type, cold plate or the plate's law for the CDU's
// fluid is unknown
bool compileRack(const FacilitySpec& spec, const CduSpec& cs, int c, const RackSpec& rs,
                 double rho_s, FacilityModel& m, Errors& err) {
  auto tt = spec.rack_types.find(rs.type);
  if (tt == spec.rack_types.end()) {
    err.add(rs.loc, rs.type, "unknown rack type");
    return false;
  }
  const RackTypeSpec& rt = tt->second;
  auto cp = spec.coldplates.find(rt.coldplate);
  if (cp == spec.coldplates.end()) {
    err.add(rt.loc, rt.coldplate, "unknown cold plate in rack type '" + rt.name + "'");
    return false;
  }
  auto law = cp->second.laws.find(cs.fluid);
  if (law == cp->second.laws.end()) {
    err.add(rs.loc, cs.fluid,
            "cold plate '" + rt.coldplate + "' of rack type '" + rt.name +
                "' has no thermal-resistance data for the CDU's fluid");
    return false;
  }
  m.rack_name.push_back(rs.name);
  m.rack_row.push_back(rs.row);
  m.rack_hall.push_back(rs.hall);
  m.rack_index.push_back(rs.index);
  m.rack_type.push_back(rs.type);
  m.rack_cdu.push_back(c);
  // the published table where the plate says to use it (resistance.<fluid>.use), else the fit
  if (law->second.use_table) {
    try {
      m.rack_coldplate.push_back(coldPlateTable(law->second.table_flow, law->second.table_R));
    } catch (const std::exception& e) {
      err.add(cp->second.loc, rt.coldplate, e.what());
      m.rack_coldplate.push_back(ColdPlateLaw{});
    }
  } else {
    m.rack_coldplate.push_back(coldPlateFit(law->second.R_inf, law->second.a, law->second.b));
  }
  // a lumped block of N identical racks in parallel (multiplier): N times the paths,
  // flows, volumes and heat; the same dp at N times the flow (docs/models/rack.md)
  // With a power section each of the N racks has its own shelves and shelf breakers: the block
  // draws N times one rack's AC input on its busway (docs/models/rack.md "Lumped blocks")
  const double N = rs.multiplier;
  if (N != 1.0 && !rs.has_heat_load)
    err.add(rs.loc, rs.name,
            "a rack multiplier needs a heat_load profile: a rack with resolved GPUs (no "
            "heat_load) runs its own GPUs, jobs and throttling, which identical copies cannot "
            "share; give the block a heat_load (one rack's), or list its racks one by one");
  m.rack_mult.push_back(N);
  m.rack_paths.push_back(rt.coldplate_paths * N);
  m.rack_liquid_frac.push_back(rt.liquid_fraction);
  m.rack_gpu_frac.push_back(rt.gpu_heat_fraction);
  m.rack_design_flow.push_back(rt.design_flow * N);
  const double m_man = rt.manifold_flow_nominal * rho_s * N;
  m.rack_manifold.push_back(
      PowerLaw::fromNominal(rt.manifold_dp_nominal, m_man, rt.manifold_exponent));
  const double kv = (rs.valve_kv > 0 ? rs.valve_kv : rt.balancing_valve_kv) * N *
                    std::max(rs.valve_opening, 1e-6);  // 0: closed (Kv 1e-6 of full)
  PowerLaw valve;
  valve.n = 2.0;
  valve.k = valveQuadraticCoefficient(kv, rho_s);
  valve.m_small = 0.01 * m_man;
  m.rack_valve.push_back(valve);
  // case capacity of the whole rack: its paths' plates in parallel (plateCapacity per plate)
  const double R_plate = m.rack_coldplate.back().R(rt.design_flow / rt.coldplate_paths);
  const Fluid& fl = m.fluids[m.cdu_fluid[c]];
  m.rack_C_case.push_back(m.rack_paths.back() * plateCapacity(cp->second, R_plate, fl, 298.15));
  m.rack_M_cool.push_back(rho_s * rt.coolant_volume * N);
  m.rack_T_in_max.push_back(rt.supply_temperature_max);
  m.rack_p_max.push_back(rt.max_working_pressure);
  m.rack_load.push_back(rs.heat_load);
  for (double& v : m.rack_load.back().v) v *= N;  // heat_load is one rack's
  rs.heat_load.breakpoints(m.breakpoints);
  compileRackGpus(spec, rs, rt, cp->second, m.fluids[m.cdu_fluid[c]], cs.T_supply_set, m, err);
  return true;
}

// 3g. coolant inventory: the liquid outside the tank; the tank's gas sets the loop pressure
void compileCduInventory(const FacilitySpec& spec, const CduSpec& cs, int c, double rho_s,
                         FacilityModel& m, Errors& err) {
  double design = 0;
  for (const auto& rs : spec.racks)
    if (rs.cdu == cs.name) {
      auto rt = spec.rack_types.find(rs.type);
      if (rt != spec.rack_types.end()) design += rt->second.design_flow * rs.multiplier;
    }
  m.cdu_design_flow.push_back(design);
  // the strainer/filter through its rated point, clean or partly clogged
  m.cdu_filter_V_rated.push_back(cs.filter_rated_flow > 0 ? cs.filter_rated_flow : design);
  m.cdu_filter_dp0.push_back(cs.filter_dp_clean +
                             cs.filter_clogging * (cs.filter_dp_clogged - cs.filter_dp_clean));
  // its differential-pressure switch: alarm_dp, else the clogged dp (0: none)
  m.cdu_filter_alarm_dp.push_back(cs.filter_alarm_dp > 0 ? cs.filter_alarm_dp
                                  : cs.filter_dp_clean > 0 && cs.filter_dp_clogged > 0
                                      ? cs.filter_dp_clogged
                                      : 0.0);
  m.cdu_pump_downstream.push_back(cs.pump_downstream ? 1 : 0);
  m.cdu_pump_heat.push_back(cs.pump_heat_to_coolant ? 1 : 0);
  m.cdu_presc_m_sec.push_back(cs.prescribed_secondary_flow.massFlow(rho_s));
  m.cdu_presc_m_prim.push_back(cs.prescribed_primary_flow.massFlow(
      m.fws_fluid >= 0 && m.fws_fluid < int(m.fluids.size()) ? m.fluids[m.fws_fluid].rho_ref()
                                                             : 1000.0));
  m.cdu_presc_T_supply.push_back(cs.prescribed_supply_T);
  double V_loop = cs.internal_volume + cs.hex_holdup_secondary +
                  m.cdu_pipe_sup[c].area() * cs.supply_pipe.length +
                  m.cdu_pipe_ret[c].area() * cs.return_pipe.length;
  for (int k = 0; k < m.cdu_racknum[c]; ++k) V_loop += m.rack_M_cool[m.cdu_rackadr[c] + k] / rho_s;
  m.cdu_V_loop.push_back(V_loop);
  m.cdu_V_tank.push_back(cs.tank_volume);
  m.cdu_p_pre.push_back(cs.tank_precharge);
  m.cdu_p_fill.push_back(cs.tank_fill > 0 ? cs.tank_fill : cs.tank_precharge + 50e3);
  if (cs.tank_fill > 0 && cs.tank_fill < cs.tank_precharge)
    err.add(cs.loc, cs.name,
            "expansion_tank.fill_pressure is below the precharge: the tank would start empty");
  m.cdu_vacuum.push_back(cs.vacuum);
  m.cdu_p_max.push_back(cs.p_secondary_max);
  m.cdu_has_leak.push_back(0);
}

// 3h. the row headers between the rack taps must leave the pumps head for the racks: the drop
// along them at the racks' design flow (split evenly) below the pumps' rated head
void checkRowHeaders(const CduSpec& cs, int c, const Fluid& f, FacilityModel& m, Errors& err) {
  const int nr = m.cdu_racknum[c];
  if (nr < 2 || cs.rack_spacing <= 0) return;
  const double rho = f.rho_ref(), mu = f.mu(cs.T_supply_set);
  const double Q = m.cdu_design_flow[c] * rho;
  double dp = 0;
  for (int k = 0; k + 1 < nr; ++k) {
    const double F = Q * double(nr - 1 - k) / nr;  // beyond tap k (direct return)
    dp += m.cdu_tap_sup[c].dp(F, rho, mu) + m.cdu_tap_ret[c].dp(F, rho, mu);
  }
  if (dp >= cs.pump_rated_head) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "the row headers cannot carry the racks' design flow: %d racks %.3g m apart "
                  "on %.3g mm headers drop %.3g kPa at %.4g L/min, the pumps' rated head is "
                  "%.3g kPa; expected a wider header or a shorter rack spacing",
                  nr, cs.rack_spacing, 1e3 * cs.supply_pipe.diameter, 1e-3 * dp,
                  toLitersPerMinute(m.cdu_design_flow[c]), 1e-3 * cs.pump_rated_head);
    err.add(cs.piping_loc.line > 0 ? cs.piping_loc : cs.loc, std::to_string(cs.rack_spacing), buf);
  }
}

// 3. CDU loop c and its racks; its states from `state` on (advanced past them)
void compileCdu(const FacilitySpec& spec, int c, const std::vector<int>& racks,
                std::map<std::string, int>& fluid_index, FacilityModel& m, Errors& err,
                int& state) {
  const CduSpec& cs = spec.cdus[c];
  const int fi = fluidIndex(m, fluid_index, spec, cs.fluid, cs.loc, err);
  if (fi < 0 || m.fws_fluid < 0) return;
  const Fluid& fs = m.fluids[fi];
  const Fluid& fp = m.fluids[m.fws_fluid];
  const double rho_s = fs.rho_ref();
  m.cdu_name.push_back(cs.name);
  m.cdu_fluid.push_back(fi);
  // 3a. plate heat exchanger
  compileCduHex(cs, fs, fp, m, err);
  // 3b. primary valve and facility water
  compileCduPrimary(spec, cs, fp, m, err);
  // 3c. pumps
  compileCduPumps(cs, m, err);
  // 3d. secondary piping
  compileCduPiping(cs, rho_s, m);
  // 3e. controls
  compileCduControls(cs, m);
  compileCduDatasheet(cs, m);
  // 3f. racks of this cdu
  m.cdu_rackadr.push_back(m.nrack);
  m.cdu_racknum.push_back(int(racks.size()));
  if (racks.empty()) err.add(cs.loc, cs.name, "CDU feeds no racks");
  for (int r : racks)
    if (compileRack(spec, cs, c, spec.racks[r], rho_s, m, err)) ++m.nrack;
  m.cdu_racknum.back() = m.nrack - m.cdu_rackadr.back();
  // 3g. coolant inventory
  compileCduInventory(spec, cs, c, rho_s, m, err);
  checkRowHeaders(cs, c, fs, m, err);
  // 3h. state layout (model.h)
  m.cdu_stateadr.push_back(state);
  int n_states = kCduFixedStates + cs.supply_pipe.segments + 2 * m.cdu_racknum.back() +
                 cs.return_pipe.segments;
  // measurement lags after the return header (none: the layout of before)
  m.cdu_sensT_tau.push_back(cs.temp_pi.sensor_tau);
  m.cdu_sensP_tau.push_back(cs.pump_pi.sensor_tau);
  m.cdu_sensT_adr.push_back(cs.temp_pi.sensor_tau > 0 ? state + n_states++ : -1);
  m.cdu_sensP_adr.push_back(cs.pump_pi.sensor_tau > 0 ? state + n_states++ : -1);
  m.cdu_statenum.push_back(n_states);
  state += n_states;
}

// 4. power chain: each rack on its busway
void compilePowerChain(const FacilitySpec& spec, FacilityModel& m, Errors& err) {
  m.grid = spec.grid;  // the utility's limits at the meter (docs/models/grid.md)
  if (!spec.power.present) return;
  m.has_power = true;
  m.power = spec.power;
  std::map<std::string, int> bus_of;
  for (std::size_t b = 0; b < spec.power.busways.size(); ++b) {
    m.busway_name.push_back(spec.power.busways[b].name);
    for (const auto& rn : spec.power.busways[b].racks) bus_of[rn] = int(b);
  }
  for (int r = 0; r < m.nrack; ++r) {
    auto it = bus_of.find(m.rack_name[r]);
    if (it == bus_of.end())
      err.add(SourceLoc{spec.file, 0, 0, "power.busways"}, m.rack_name[r], "rack on no busway");
    m.rack_busway.push_back(it == bus_of.end() ? 0 : it->second);
  }
  // shelf losses are computed by the chain: drop a lumped shelf-loss part from the rack parts
  for (auto& set : m.part_sets)
    std::erase_if(set.parts,
                  [](const auto& p) { return p.first.name.rfind("power_shelf", 0) == 0; });
}

// 6. room air (optional): one node after every CDU's block
void compileRoomAir(const FacilitySpec& spec, FacilityModel& m, int& state, Errors& err) {
  if (!spec.has_room_air) return;
  m.room_state = state++;
  m.room_C = kAirRho * spec.room_volume * kAirCp;
  m.room_G = kAirRho * spec.room_airflow * kAirCp;
  m.room_supply_T = spec.room_supply_T;
  m.air_rho_cp = kAirRho * kAirCp;
  m.room_T0 = spec.room_supply_T;
  if (!spec.has_air_handlers) return;
  // the air handlers: the room starts at their set point, their controller's integral after it
  m.ah_state = state++;
  m.ah = spec.air_handlers;
  try {
    checkAirHandler(m.ah);
  } catch (const std::invalid_argument& e) {
    err.add(SourceLoc{spec.file, 0, 0, "site.room_air.air_handlers"}, "", e.what());
  }
  m.room_T0 = m.ah.T_set;
  if (!spec.air_chiller_capacity_given) {  // the coils' duty at full speed and the set point
    const AirHandlerPoint full = airHandlerAt(m.ah, 1.0, m.ah.T_set, m.air_rho_cp);
    m.ah.chiller.Q_ref = std::max(full.Q_coil, 1.0);
  }
}

// what each state is (model.h StateKind), from the layout of each CDU's block
void classifyStates(FacilityModel& m) {
  m.state_kind.assign(m.nstate, StateKind::Coolant);
  for (int c = 0; c < m.ncdu; ++c) {
    const int o = m.cdu_stateadr[c];
    m.state_kind[o + kTHexPrim] = StateKind::FacilityWater;
    for (int off : {kXTemp, kYValve, kXPump, kNPump}) m.state_kind[o + off] = StateKind::Control;
    m.state_kind[o + kVLost] = m.state_kind[o + kVAir] = StateKind::Volume;
    for (int k = 0; k < m.cdu_racknum[c]; ++k)
      m.state_kind[m.rackAdr(m.cdu_rackadr[c] + k) + 1] = StateKind::Case;
    for (int s : {m.cdu_sensT_adr[c], m.cdu_sensP_adr[c]})
      if (s >= 0) m.state_kind[s] = StateKind::Control;
  }
  if (m.room_state >= 0) m.state_kind[m.room_state] = StateKind::RoomAir;
  if (m.ah_state >= 0) m.state_kind[m.ah_state] = StateKind::Control;
}

// 8. the state count and kinds, the input discontinuities sorted and unique, the jacobian's
// pattern
void finishLayout(FacilityModel& m, int state) {
  m.nstate = state;
  classifyStates(m);
  std::sort(m.breakpoints.begin(), m.breakpoints.end());
  m.breakpoints.erase(std::unique(m.breakpoints.begin(), m.breakpoints.end()), m.breakpoints.end());
  buildSparsity(m);
}

}  // namespace

FacilityModel compileFacility(const FacilitySpec& spec) {
  FacilityModel m;
  Errors err;
  std::map<std::string, int> fluid_index;
  m.name = spec.name;
  m.facility_text = spec.text;
  m.T_ambient = spec.T_ambient;
  // 1. facility water
  compileFacilityWater(spec, fluid_index, m, err);
  // 2. racks grouped by CDU
  const std::vector<std::vector<int>> racks_of = racksByCdu(spec, err);
  // 3. CDU loops with their racks, in file order; the state vector laid out loop by loop
  m.ncdu = int(spec.cdus.size());
  int state = 0;
  for (int c = 0; c < m.ncdu; ++c) compileCdu(spec, c, racks_of[c], fluid_index, m, err, state);
  // 4. power chain
  compilePowerChain(spec, m, err);
  // 5. GPU layer: jobs, then the GPU groups (once the model is known to be complete)
  m.gpu_dt = spec.gpu_step;
  m.fabric = spec.fabric;
  m.coupling_dt = spec.coupling_step;
  compileJobs(spec, m, err);
  compileSwitchRacks(spec, m, err.list);  // scale-out switch racks
  if (!err.list.empty()) throw LoadFailure(std::move(err.list));
  m.variation_on = spec.variation.on;
  m.variation_seed = spec.variation.seed;
  compileGroups(spec, m);
  // 6. room air; air-cooled racks (no states)
  compileRoomAir(spec, m, state, err);
  compileAirRacks(spec, m);
  // 7. faults
  compileFaults(spec, m, err);
  if (!err.list.empty()) throw LoadFailure(std::move(err.list));
  // 8. state count and kinds, breakpoints, jacobian sparsity
  finishLayout(m, state);
  return m;
}

}  // namespace dctwin
