// gpu_layer.cpp: the accelerators and their jobs, stepped on their own fast clock
//
// the coolant runs in CVODES on its own time scale; the GPUs (die, HBM, cold-plate nodes, DVFS,
// throttling) and the jobs (phases, barriers, stragglers) run with a fixed step gpu_dt. Every
// coupling window (coupling_dt, and always at output times and input breakpoints) the GPU layer is
// advanced first with the coolant's rack inlet temperatures and flows at the window start, and
// hands the coolant the window-mean heat of each rack (operator splitting; energy passes exactly).
// See docs/models/gpu_layer.md.
#include <algorithm>
#include <cmath>

#include "solver/common/parallel.h"
#include "solver/engine/engine.h"

namespace dctwin {

void initGpuLayer(const FacilityModel& m, State& st, double T_init) {
  GpuLayerState& g = st.gl;
  GpuState gs;
  gs.T_j = gs.T_hbm = gs.T_plate = T_init;
  // the computation (per group) and its per-GPU view have the same arrays
  auto size = [&](auto& a, int n) {
    a.gpu.assign(n, gs);
    a.op.assign(n, GpuOperatingPoint{});
    a.smooth.assign(n, PowerSmoothingState{});
    a.filler_energy.assign(n, 0.0);
    a.util.assign(n, Utilization{});
    a.P_sum.assign(n, 0.0);
    a.Tj_max.assign(n, T_init);
    a.Thbm_max.assign(n, T_init);
    a.throttled_time.assign(n, 0.0);
  };
  size(g.grp, m.ngroup);
  size(g, m.ngpu);
  g.grp.clock_ratio.assign(m.ngroup, 0.0);
  g.grp.latches.assign(m.ngroup, 0);
  g.grp.cause.assign(m.ngroup, (unsigned char)kTimeClockOther);
  g.job.clear();
  g.job_speed_c.clear();
  g.job_speed_m.clear();
  g.job_alive.clear();
  g.job_util.clear();
  g.job_bw_nvl.clear();
  g.job_bw_net.clear();
  g.job_weight.clear();
  g.job_cause.clear();
  for (int j = 0; j < m.njob; ++j) {
    const int n = int(m.job_groups[j].size());
    g.job.push_back(makeJobState(m.job_spec[j], n));
    g.job_bw_nvl.emplace_back(n, 1.0);
    g.job_bw_net.emplace_back(n, 1.0);
    g.job_cause.emplace_back(n, (unsigned char)kTimeClockOther);
    g.job_weight.emplace_back(n, 1.0);
    for (int k = 0; k < n; ++k) g.job_weight[j][k] = m.group_gpunum[m.job_groups[j][k]];
    g.job_speed_c.emplace_back(n, 1.0);
    g.job_speed_m.emplace_back(n, 1.0);
    g.job_alive.emplace_back(n, 1);
    g.job_util.emplace_back(n);
  }
  g.job_throttled.assign(m.njob, 0.0);
  g.job_capped.assign(m.njob, 0.0);
  g.capped_total = 0;
  g.job_iterations_row.assign(m.njob, 0);
  g.job_iteration_time_row.assign(m.njob, 0.0);
  for (auto* v : {&g.rack_capped_now, &g.rack_iv_capped, &g.rack_iv_slowdown, &g.rack_iv_thermal,
                  &g.rack_iv_brake, &g.rack_iv_throttled})
    v->assign(m.nrack, 0.0);
  g.rack_Q_liquid.assign(m.nrack, 0.0);
  g.rack_P.assign(m.nrack, 0.0);
  g.rack_Q_air.assign(m.nrack, 0.0);
  g.rack_P_now.assign(m.nrack, 0.0);
  g.rack_gpu_P_now.assign(m.nrack, 0.0);
  g.rack_gpu_Q_now.assign(m.nrack, 0.0);
  g.rack_throttled_now.assign(m.nrack, 0.0);
  g.rack_T_in.assign(m.nrack, T_init);
  g.gpu_T_in.assign(m.ngpu, T_init);
  g.gpu_R_path.assign(m.ngpu, 0.0);
  g.grp.Q_coolant.assign(m.ngroup, 0.0);
  g.interval_time = 0;
  g.E_electric = g.E_to_coolant = 0;
  g.E_stored0 = 0;
}

double gpuLayerEnergy(const FacilityModel& m, const State& st, double T_ref) {
  double E = 0;
  for (int q = 0; q < m.ngroup; ++q) {
    const int i = m.group_gpuadr[q];
    const GpuParams& p = m.gpu_types[m.gpu_type[i]];
    GpuPlate plate{1.0, m.gpu_C_plate[i]};
    E += m.group_gpunum[q] * gpuStoredEnergy(p, plate, st.gl.grp.gpu[q], T_ref);
  }
  return E;
}

void syncGpuView(const FacilityModel& m, State& st) {
  GpuLayerState& g = st.gl;
  const GpuLayerState::Groups& q = g.grp;
  for (int i = 0; i < m.ngpu; ++i) {
    const int k = m.gpu_group[i];
    g.gpu[i] = q.gpu[k];
    g.op[i] = q.op[k];
    g.smooth[i] = q.smooth[k];
    g.filler_energy[i] = q.filler_energy[k];
    g.util[i] = q.util[k];
    g.P_sum[i] = q.P_sum[k];
    g.Tj_max[i] = q.Tj_max[k];
    g.Thbm_max[i] = q.Thbm_max[k];
    g.throttled_time[i] = q.throttled_time[k];
  }
}

void resetGpuInterval(const FacilityModel& m, State& st) {
  GpuLayerState::Groups& q = st.gl.grp;
  std::fill(q.P_sum.begin(), q.P_sum.end(), 0.0);
  for (int k = 0; k < m.ngroup; ++k) q.Tj_max[k] = q.gpu[k].T_j, q.Thbm_max[k] = q.gpu[k].T_hbm;
  st.gl.interval_time = 0;
  GpuLayerState& g = st.gl;
  for (auto* v : {&g.rack_iv_capped, &g.rack_iv_slowdown, &g.rack_iv_thermal, &g.rack_iv_brake,
                  &g.rack_iv_throttled})
    std::fill(v->begin(), v->end(), 0.0);
  for (int j = 0; j < m.njob && j < int(g.job.size()); ++j) {
    g.job_iterations_row[j] = g.job[j].iterations;
    g.job_iteration_time_row[j] = g.job[j].sum_iteration_time;
  }
  PowerLayerState& p = st.pl;
  p.iv_time = p.iv_utility = p.iv_ups_in = p.iv_ups_out = p.iv_ups_loss = 0;
  for (auto* v : {&p.iv_rack_P_in, &p.iv_rack_psu_loss, &p.iv_bus_loss})
    std::fill(v->begin(), v->end(), 0.0);
}

//---------------------------------------------------------------------------------------------
namespace {

// a new window: its sums restart, and the coolant side of each GPU's plate holds over it
// (docs/models/flow_distribution.md): the plate's flow, its share of the rack's, sets its
// resistance (one power law per GPU and window, not per step); its inlet is the rack inlet, plus,
// for a plate downstream in series, the heat the upstream plate gave the coolant at the last fast
// step (a window late: the error is the change of that heat over one window)
void startWindow(const FacilityModel& m, State& st, const double* y) {
  GpuLayerState& g = st.gl;
  for (int r = 0; r < m.nrack; ++r) g.rack_Q_liquid[r] = g.rack_P[r] = g.rack_Q_air[r] = 0;
  for (int r = 0; r < m.nrack; ++r) {
    if (!m.rack_resolved[r]) continue;
    const int c = m.rack_cdu[r];
    const Fluid& f = m.fluids[m.cdu_fluid[c]];
    const double T_in = y[m.supSegAdr(c) + m.cdu_nseg_sup[c] - 1];
    g.rack_T_in[r] = T_in;
    const double m_r = st.sig.m_rack[r], rho = f.rho_ref(), cp = f.cp(T_in);
    // plates in rack order: an upstream plate always comes before the plates it feeds
    for (int i = m.rack_gpuadr[r]; i < m.rack_gpuadr[r] + m.rack_gpunum[r]; ++i) {
      const double m_i = m_r * m.gpu_flow_share[i];
      g.gpu_R_path[i] = m.rack_coldplate[r].R(m_i / rho);
      const int u = m.gpu_upstream[i];
      const double pickup =
          u >= 0 && m_i > 0 ? std::max(g.grp.Q_coolant[m.gpu_group[u]], 0.0) / (m_i * cp) : 0.0;
      g.gpu_T_in[i] = (u >= 0 ? g.gpu_T_in[u] : T_in) + pickup;
    }
  }
}

// 1. jobs: progress with the clocks of the previous step, utilizations for this step
void stepJobs(const FacilityModel& m, State& st, double t, double dt) {
  GpuLayerState& g = st.gl;
  GpuLayerState::Groups& G = g.grp;
  for (int j = 0; j < m.njob; ++j) {
    const auto& groups = m.job_groups[j];
    const int nph = int(m.job_spec[j].phases.size());
    for (std::size_t k = 0; k < groups.size(); ++k) {
      const int q = groups[k], i = m.group_gpuadr[q];
      // (from the compact copies of clock and latches that the rack loop leaves, not from the
      // operating points: those stay in the cache of the thread that owns the rack)
      const int ph = g.job[j].gpu[k].phase;
      const double xref = ph < nph ? m.job_xref[j][std::size_t(m.gpu_type[i]) * nph + ph] : 1.0;
      const double clock = G.clock_ratio[q];
      g.job_speed_c[j][k] = clock > 0 ? clock / xref : 1.0;
      g.job_speed_m[j][k] = G.latches[q] & 1 ? 0.5 : 1.0;
      const bool powered = !m.has_power || st.pl.rack_powered[m.gpu_rack[i]];
      g.job_alive[j][k] = G.latches[q] & 2 || !powered ? 0 : 1;
      // the fabric (docs/models/fabric.md): a GPU with no link left, or in an NVLink partition
      // that is down, is lost to its job although it is powered
      const FaultState& fs = st.faults;
      const int r = m.gpu_rack[i];
      if (!fs.gpu_bw_net.empty()) {
        g.job_bw_net[j][k] = fs.gpu_bw_net[i];
        g.job_bw_nvl[j][k] = fs.rack_bw_nvl[r];
        if (fs.gpu_net_dead[i] || fs.rack_nvl_dead[r]) g.job_alive[j][k] = 0;
      }
      g.job_cause[j][k] = G.cause[q];
    }
    if (m.job_kind[j] == 1) {  // inference: utilizations follow the load profile
      const Utilization u = inferenceUtilization(m.job_inference[j], t + 0.5 * dt);
      for (std::size_t k = 0; k < groups.size(); ++k)
        G.util[groups[k]] = g.job_alive[j][k] ? u : Utilization{};
      continue;
    }
    if (m.job_kind[j] == 2) {  // trace replay: per-GPU samples (GPUs beyond the trace idle);
      const TraceSpec& tr = m.job_trace[j];  // its groups are single GPUs
      for (std::size_t k = 0; k < groups.size(); ++k) {
        const int rank = m.gpu_jobslot[m.group_gpuadr[groups[k]]];
        G.util[groups[k]] =
            rank < int(tr.gpus.size()) ? traceUtilization(tr, rank, t + 0.5 * dt) : Utilization{};
      }
      continue;
    }
    const JobStepExtras ex{g.job_bw_nvl[j], g.job_bw_net[j], g.job_cause[j]};
    stepTrainingJob(m.job_spec[j], g.job[j], t, dt, g.job_speed_c[j], g.job_speed_m[j],
                    g.job_alive[j], g.job_util[j], &ex);
    for (std::size_t k = 0; k < groups.size(); ++k) G.util[groups[k]] = g.job_util[j][k];
  }
}

// what a rack's GPU groups add up to in one fast step (weighed by the group sizes)
struct RackGpuSums {
  double P = 0, Q = 0;                       // electric power, heat to the rack coolant   (W)
  double a_sm = 0, a_nvlink = 0, a_net = 0;  // summed SM, NVLink, network activities    (1)
  double throttled = 0;                      // GPU-seconds thermally or brake throttled     (s)
  // GPU-seconds with each reason: SW power cap, HW slowdown, SW/HW thermal, power brake (s)
  double capped = 0, slowdown = 0, thermal = 0, brake = 0;
};

// 2a. a whole-rack cap is shared equally by its GPUs, after the non-GPU parts' last draw (a)
inline double rackCapShare(const FacilityModel& m, const GpuLayerState& g, int r) {
  double rack_share = 1e300;
  if (m.rack_power_cap[r] > 0 && m.rack_gpunum[r] > 0) {
    const double other_prev = std::max(g.rack_P_now[r] - g.rack_gpu_P_now[r], 0.0);
    rack_share = (m.rack_power_cap[r] - other_prev) / m.rack_gpunum[r];
  }
  return rack_share;
}

// 2b. GPU group q of rack r: its limit (the GPU's, a power-cap event's, the rack's share,
// power smoothing), operating point, thermal nodes and heat to the rack coolant; adds it to s
inline void stepGpuGroup(const FacilityModel& m, State& st, int r, int q, double t, double dt,
                         double rack_share, RackGpuSums& s) {
  GpuLayerState& g = st.gl;
  GpuLayerState::Groups& G = g.grp;
  const int i = m.group_gpuadr[q];  // the group's first GPU stands for all of them
  const double T_in = g.gpu_T_in[i], R_path = g.gpu_R_path[i];
  const double n = m.group_gpunum[q];
  const GpuParams& p = m.gpu_types[m.gpu_type[i]];
  const Utilization& u = G.util[q];
  const bool powered = (!m.has_power || st.pl.rack_powered[r]) &&
                       (st.faults.rack_power_off.empty() || !st.faults.rack_power_off[r]);
  const int jj = m.gpu_job[i];
  // a running job's process holds its GPUs: at a barrier or in a bubble the clock stays up
  const bool held =
      jj >= 0 && (m.job_kind[jj] != 0 || (t >= m.job_spec[jj].start && t < m.job_spec[jj].stop));
  GpuLoad load{
      u.a_sm, u.a_hbm, u.a_nvlink, u.memory_bound > 0.5, m.has_power && st.pl.rack_brake[r] != 0,
      held};
  // power smoothing (GB200-style floor and ramp limits): the ramp-up limit acts as a cap,
  // so the clock (and the job) slow down; the floor is filled with dummy work
  const PowerSmoothingParams* ps = jj >= 0 ? &m.job_smoothing[jj] : nullptr;
  // a power-cap event replaces the job's cap (a lower cap of the rack's own still holds; within
  // the GPU's settable range)
  const double event_cap = jj >= 0 && !st.faults.job_cap.empty() && st.faults.job_cap[jj] > 0
                               ? gpuPowerLimit(p, m.rack_gpu_power_cap[r], st.faults.job_cap[jj])
                               : m.gpu_cap[i];
  double cap = std::min(event_cap, rack_share);
  bool smoothing_limits = false;
  if (ps && ps->enabled) {
    const double ceiling = powerSmoothingCeiling(*ps, G.smooth[q], dt);
    smoothing_limits = ceiling < cap;
    cap = std::min(cap, ceiling);
  }
  GpuOperatingPoint op = powered ? gpuOperatingPoint(p, cap, load, G.gpu[q]) : GpuOperatingPoint{};
  if (ps && ps->enabled && powered && !G.gpu[q].shut_down) {
    const SmoothedPower sp = smoothPower(*ps, op.P, dt, G.smooth[q], held);
    op.P = sp.P;
    G.filler_energy[q] += sp.filler * dt;
  }
  // a replayed power trace sets the board power directly (no cap or thermal feedback)
  const int j = m.gpu_job[i];
  if (j >= 0 && m.job_kind[j] == 2 && powered && !G.gpu[q].shut_down) {
    const TraceSpec& tr = m.job_trace[j];
    const int rank = m.gpu_jobslot[i];
    if (rank < int(tr.gpus.size()) && traceHasPower(tr, rank)) {
      op.P = tracePower(tr, rank, t + 0.5 * dt);
      op.P_hbm = std::min(op.P_hbm, op.P);
    }
  }
  GpuPlate plate{R_path * m.gpu_R_factor[i], m.gpu_C_plate[i]};
  const double Q = gpuThermalStep(p, plate, T_in, op, dt, G.gpu[q]);
  G.Q_coolant[q] = Q;
  G.op[q] = op;
  G.clock_ratio[q] = op.clock_ratio;
  G.latches[q] = char((G.gpu[q].hw_slowdown ? 1 : 0) | (G.gpu[q].shut_down ? 2 : 0));
  // what holds the clock down, for the job's bottleneck map (docs/models/job.md)
  const unsigned rs = op.reasons;
  G.cause[q] = (unsigned char)(rs & (kThrottleSwThermal | kThrottleHwThermal | kThrottleHwSlowdown)
                                   ? kTimeThermal
                               : rs & kThrottlePowerBrake                       ? kTimePowerBrake
                               : smoothing_limits && (rs & kThrottleSwPowerCap) ? kTimeSmoothing
                               : rs & kThrottleSwPowerCap                       ? kTimePowerCap
                                                                                : kTimeClockOther);
  s.P += n * op.P;
  s.Q += n * Q;
  s.a_sm += n * u.a_sm;
  s.a_nvlink += n * u.a_nvlink;
  s.a_net += n * u.a_network;
  G.P_sum[q] += op.P * dt;
  G.Tj_max[q] = std::max(G.Tj_max[q], G.gpu[q].T_j);
  G.Thbm_max[q] = std::max(G.Thbm_max[q], G.gpu[q].T_hbm);
  if (op.reasons & (kThrottleSwThermal | kThrottleHwThermal | kThrottlePowerBrake)) {
    G.throttled_time[q] += dt;
    s.throttled += n * dt;
  }
  if (op.reasons & kThrottleSwPowerCap) s.capped += n * dt;
  if (op.reasons & kThrottleHwSlowdown) s.slowdown += n * dt;
  if (op.reasons & (kThrottleSwThermal | kThrottleHwThermal)) s.thermal += n * dt;
  if (op.reasons & kThrottlePowerBrake) s.brake += n * dt;
}

// 2c. non-GPU parts: the rack type's parts (CPUs follow the mean SM activity, switch trays the
// NVLink, NICs the network utilization), or a lumped power following the SM activity (a)
inline PartPower otherPartsPower(const FacilityModel& m, const State& st, int r,
                                 const RackGpuSums& s) {
  const double inv_n = m.rack_gpunum[r] > 0 ? 1.0 / m.rack_gpunum[r] : 0.0;
  PartPower other;
  if (m.rack_partset[r] >= 0) {
    PartActivity act{s.a_sm * inv_n, s.a_nvlink * inv_n, s.a_net * inv_n, true};
    other = rackPartsPower(m.part_sets[m.rack_partset[r]], act);
  } else {
    other.P = m.rack_other_idle[r] + (m.rack_other_max[r] - m.rack_other_idle[r]) * s.a_sm * inv_n;
    other.Q_liquid = m.rack_other_liquid[r] * other.P;
    other.Q_air = other.P - other.Q_liquid;
  }
  if (m.has_power && !st.pl.rack_powered[r]) other = PartPower{};
  return other;
}

// 2d. the rack's power and heat: this step's values and the window sums
inline void recordRack(GpuLayerState& g, int r, double dt, const RackGpuSums& s,
                       const PartPower& other) {
  const double P_rack = s.P + other.P;
  g.rack_P_now[r] = P_rack;
  g.rack_gpu_P_now[r] = s.P;
  g.rack_P[r] += P_rack * dt;
  g.rack_Q_liquid[r] += (s.Q + other.Q_liquid) * dt;
  g.rack_Q_air[r] += other.Q_air * dt;
  g.rack_gpu_Q_now[r] = s.Q;
  g.rack_throttled_now[r] = s.throttled;
  g.rack_capped_now[r] = s.capped;
  g.rack_iv_capped[r] += s.capped;
  g.rack_iv_slowdown[r] += s.slowdown;
  g.rack_iv_thermal[r] += s.thermal;
  g.rack_iv_brake[r] += s.brake;
  g.rack_iv_throttled[r] += s.throttled;
}

// 2. rack r (on whichever thread owns it): GPUs (operating point, thermal nodes, heat to the
// rack coolant), non-GPU parts, shelves; writes only its rack's slots
void stepRack(const FacilityModel& m, State& st, int r, double t, double dt) {
  if (!m.rack_resolved[r]) {
    if (m.has_power) powerRackStep(m, st, r, t, dt);
    return;
  }
  // 2a. the rack cap's share
  const double rack_share = rackCapShare(m, st.gl, r);
  // 2b. GPU groups
  RackGpuSums s;
  for (int q = m.rack_groupadr[r]; q < m.rack_groupadr[r] + m.rack_groupnum[r]; ++q)
    stepGpuGroup(m, st, r, q, t, dt, rack_share, s);
  // 2c. non-GPU parts
  const PartPower other = otherPartsPower(m, st, r, s);
  // 2d. the rack's power and heat
  recordRack(st.gl, r, dt, s, other);
  // 2e. power shelves (docs/models/power_chain.md)
  if (m.has_power) powerRackStep(m, st, r, t, dt);
}

// 3. sums over the racks, in rack order (the same whatever the number of threads)
void sumRacks(const FacilityModel& m, GpuLayerState& g, double dt) {
  for (int r = 0; r < m.nrack; ++r) {
    if (!m.rack_resolved[r]) continue;
    g.E_electric += g.rack_gpu_P_now[r] * dt;
    g.E_to_coolant += g.rack_gpu_Q_now[r] * dt;
    const int j = m.rack_gpunum[r] > 0 ? m.gpu_job[m.rack_gpuadr[r]] : -1;
    if (j >= 0) g.job_throttled[j] += g.rack_throttled_now[r];
    if (j >= 0) g.job_capped[j] += g.rack_capped_now[r];
    g.capped_total += g.rack_capped_now[r];
  }
}

// the window's sums become its means: the heat and power the coolant sees over the window
void windowMeans(const FacilityModel& m, GpuLayerState& g, double window) {
  for (int r = 0; r < m.nrack; ++r) {
    g.rack_Q_liquid[r] /= window;
    g.rack_P[r] /= window;
    g.rack_Q_air[r] /= window;
  }
}

}  // namespace

void advanceGpuLayer(const FacilityModel& m, State& st, const double* y, double t0, double t1,
                     FastCallback fast, void* user, WorkerPool* pool) {
  GpuLayerState& g = st.gl;
  const double window = t1 - t0;
  if ((m.ngpu == 0 && !m.has_power) || window <= 0) return;
  startWindow(m, st, y);
  // uniform steps no longer than gpu_dt that end exactly at t1
  const long nstep = std::max(1L, long(std::ceil(window / m.gpu_dt - 1e-6)));
  const double dt = window / double(nstep);
  for (long step = 0; step < nstep; ++step) {
    const double t = t0 + double(step) * dt;
    // 1. jobs
    stepJobs(m, st, t, dt);
    // 2. racks, in parallel chunks of about 16 racks, claimed one at a time by whichever thread
    // is free
    if (pool && pool->size() > 1) {
      const int nk = std::max(1, m.nrack / 16);
      pool->run(nk, [&](int k) {
        int r0, r1;
        WorkerPool::chunk(m.nrack, nk, k, &r0, &r1);
        for (int r = r0; r < r1; ++r) stepRack(m, st, r, t, dt);
      });
    } else {
      for (int r = 0; r < m.nrack; ++r) stepRack(m, st, r, t, dt);
    }
    // 3. sums over the racks
    sumRacks(m, g, dt);
    // 4. the facility side of the power chain: busways, UPS, transformer
    powerFeedStep(m, st, t, dt);
    g.interval_time += dt;
    if (fast) fast(user, m, st, t + dt);
  }
  windowMeans(m, g, window);
}

}  // namespace dctwin
