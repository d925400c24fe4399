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
#include <cstdint>
#include <limits>
#include <span>

#include "solver/common/parallel.h"
#include "solver/engine/engine.h"

namespace dctwin {

namespace {
// each GPU's bottleneck map, and the barrier-wait attribution that reads it, for every job of up
// to 2^20 GPU groups (the campus's 55,296-GPU jobs: 288 bytes a group, 16 MB a job; 512 with
// restart_on_failure); docs/models/job.md "attribution at scale"
constexpr int kPerGpuMapMaxGroups = 1 << 20;
}  // namespace

namespace {

// the fixed partition of the fast step: chunks of about 16 racks (whatever the thread count), and
// in each the runs of slots of the training jobs stepped in chunks (GpuLayerState::job_fused)
void initChunks(const FacilityModel& m, GpuLayerState& g) {
  g.nchunk = std::max(1, m.nrack / 16);
  g.chunk_runadr.assign(std::size_t(g.nchunk) + 1, 0);
  g.job_runs.clear();
  for (int k = 0; k < g.nchunk; ++k) {
    const int a0 = int(g.job_runs.size());
    g.chunk_runadr[std::size_t(k)] = a0;
    int r0, r1;
    WorkerPool::chunk(m.nrack, g.nchunk, k, &r0, &r1);
    for (int r = r0; r < r1; ++r) {
      const int q0 = m.rack_groupadr[r], q1 = q0 + m.rack_groupnum[r];
      for (int q = q0; q < q1; ++q) {
        const int j = g.grp.job[q];
        if (j < 0 || !g.job_fused[std::size_t(j)]) continue;
        const int slot = q - m.job_groups[std::size_t(j)].front();
        // the job's run in this chunk: one per job, its slots in rack order
        int a = a0;
        while (a < int(g.job_runs.size()) && g.job_runs[std::size_t(a)].job != j) ++a;
        if (a == int(g.job_runs.size())) g.job_runs.push_back({j, slot, slot});
        GpuLayerState::JobRun& run = g.job_runs[std::size_t(a)];
        if (run.slot1 != slot) {  // not in rack order: the job is stepped as a whole
          g.job_fused[std::size_t(j)] = 0;
          initChunks(m, g);
          return;
        }
        run.slot1 = slot + 1;
      }
    }
  }
  g.chunk_runadr[std::size_t(g.nchunk)] = int(g.job_runs.size());
  g.run_done.assign(g.job_runs.size(), 0);
  g.chunk_wait.assign(std::size_t(g.nchunk), 0);
  g.job_parts.assign(g.job_runs.size(), JobStepPart{});
  g.job_ctx.assign(std::size_t(m.njob), JobStepCtx{});
  g.job_ex.assign(std::size_t(m.njob), JobStepExtras{});
  g.job_io.assign(std::size_t(m.njob), JobStepIo{});
  g.deferred.assign(std::size_t(g.nchunk), 0);
  g.job_runlist_adr.assign(std::size_t(m.njob) + 1, 0);
  g.job_runlist.clear();
  for (int j = 0; j < m.njob; ++j) {
    g.job_runlist_adr[std::size_t(j)] = int(g.job_runlist.size());
    for (std::size_t a = 0; a < g.job_runs.size(); ++a)
      if (g.job_runs[a].job == j) g.job_runlist.push_back(int(a));
  }
  g.job_runlist_adr[std::size_t(m.njob)] = int(g.job_runlist.size());
  g.release_parts.assign(g.job_runlist.size(), JobReleasePart{});
  // the window in blocks of steps: each chunk runs at most one job's GPUs (its barrier is then
  // the only thing the chunk waits for within a block)
  g.chunk_job.assign(std::size_t(g.nchunk), -1);
  g.blk_layout = true;
  for (int k = 0; k < g.nchunk; ++k) {
    const int a0 = g.chunk_runadr[std::size_t(k)], a1 = g.chunk_runadr[std::size_t(k) + 1];
    if (a1 - a0 > 1) g.blk_layout = false;
    if (a1 > a0) g.chunk_job[std::size_t(k)] = g.job_runs[std::size_t(a0)].job;
  }
  // (a longer window, gpu_layer.coupling up to 10 min, runs in several blocks where no GPU can
  // shut down in it, else step by step)
  g.blk_steps_max = std::min(int(std::ceil(m.coupling_dt / m.gpu_dt - 1e-6)) + 1, 256);
  const std::size_t K = std::size_t(g.blk_steps_max);
  g.blk_ctx.assign(g.blk_layout ? K * std::size_t(m.njob) : 0, JobStepCtx{});
  g.blk_parts.assign(g.blk_layout ? K * g.job_runs.size() : 0, JobStepPart{});
  g.blk_rack.assign(g.blk_layout ? K * std::size_t(m.nrack) * GpuLayerState::kRackHist : 0, 0.0);
  g.blk_utility.assign(g.blk_layout ? K : 0, 0.0);
  g.blk_cursor.assign(std::size_t(g.nchunk), 0);
  g.blk_pending.assign(std::size_t(g.nchunk), 0);
  g.blk_norel.assign(std::size_t(m.njob), 0);
}

// upper bounds of group q's power at the idle clock, over any step (docs/models/gpu_layer.md
// "Steps in blocks"): every activity at 1 and the leakage at the shutdown temperature (the die
// stays below it while the bounds hold). The board's (hbm true), or the die's, the board's less
// the HBM's (P_hbm = P_hbm_max a_hbm + P_hbm_idle, of which the board's power has the same
// dynamic part)                                                                        (W)
double idleClockPowerBound(const GpuLayerState& g, int q, bool hbm) {
  const GpuLayerState::Groups& G = g.grp;
  const GpuBatchType& t = g.batch_types[std::size_t(G.type[std::size_t(q)])];
  const std::size_t i = std::size_t(q);
  // (a leakage that falls with the temperature has no bound here)
  if (t.beta < 0) return std::numeric_limits<double>::infinity();
  const double leak = G.P_leak[i] * std::exp(t.beta * (t.T_shutdown - t.T_leak_ref));
  const double B = t.P_nvl_max + (hbm ? t.P_hbm_max : -t.P_hbm_idle) + G.P_base[i] + leak;
  const double A = G.P_sm[i] + G.P_clk[i];
  // (with the kernel's rounding: its power in single precision)
  return std::max(A * t.g_idle + B, 0.0) * (1 + kGpuBatchPowerRounding);
}
// and of its board power at any clock: the power cap where the clock can be held to it (with the
// kernel's rounding, which is far above the power-cap Newton's tolerance), else the idle clock's;
// P(x) grows with the clock, and every throttle only lowers it                          (W)
double groupPowerBound(const GpuLayerState& g, int q) {
  return std::max(g.grp.cap[std::size_t(q)] * (1 + kGpuBatchPowerRounding),
                  idleClockPowerBound(g, q, true));
}

}  // namespace

void initGpuLayer(const FacilityModel& m, State& st, double T_init) {
  GpuLayerState& g = st.gl;
  GpuState gs;
  gs.T_j = gs.T_hbm = gs.T_plate = T_init;
  // the per-GPU view
  g.gpu.assign(m.ngpu, gs);
  g.op.assign(m.ngpu, GpuOperatingPoint{});
  g.smooth.assign(m.ngpu, PowerSmoothingState{});
  g.filler_energy.assign(m.ngpu, 0.0);
  g.util.assign(m.ngpu, Utilization{});
  g.P_sum.assign(m.ngpu, 0.0);
  g.Tj_max.assign(m.ngpu, T_init);
  g.Thbm_max.assign(m.ngpu, T_init);
  g.throttled_time.assign(m.ngpu, 0.0);
  // the computation, per group: a structure of arrays
  GpuLayerState::Groups& G = g.grp;
  const std::size_t nq = std::size_t(m.ngroup);
  for (auto* v : {&G.T_j, &G.T_hbm, &G.T_plate, &G.Tj_max, &G.Thbm_max}) v->assign(nq, T_init);
  for (auto* v : {&G.clock_ratio, &G.P, &G.P_hbm, &G.filler_energy, &G.P_sum, &G.throttled_time})
    v->assign(nq, 0.0);
  G.latches.assign(nq, 0);
  G.reasons.assign(nq, 0);
  G.cause.assign(nq, (unsigned char)kTimeClockOther);
  G.smooth.assign(nq, PowerSmoothingState{});
  for (auto* v : {&G.a_sm, &G.a_hbm, &G.a_nvl, &G.a_net, &G.mem_bound}) v->assign(nq, 0.0);
  for (auto* v : {&G.P_base, &G.P_leak, &G.P_sm, &G.P_clk}) v->resize(nq);
  for (auto* v : {&G.g_jc, &G.g_hbm, &G.C_plate, &G.w}) v->resize(nq);
  g.batch_types.clear();
  for (const GpuParams& p : m.gpu_types) g.batch_types.push_back(gpuBatchType(p));
  for (std::size_t q = 0; q < nq; ++q) {
    const int i = m.group_gpuadr[q];
    // the group's parameters carry its variation factors already (compileGroups, variedGpu)
    const GpuBatchEntry e = gpuBatchEntry(m.group_params[q], 1, 1, 1, 1, 1);
    G.P_base[q] = e.P_base;
    G.P_leak[q] = e.P_leak;
    G.P_sm[q] = e.P_sm;
    G.P_clk[q] = e.P_clk;
    G.g_jc[q] = e.g_jc;
    G.g_hbm[q] = e.g_hbm;
    G.C_plate[q] = m.gpu_C_plate[i];
    G.w[q] = m.group_gpunum[q];
  }
  G.cap.resize(nq);
  G.R_factor.resize(nq);
  G.type.resize(nq);
  G.rack.resize(nq);
  G.job.resize(nq);
  for (std::size_t q = 0; q < nq; ++q) {
    const int i = m.group_gpuadr[q];
    G.cap[q] = m.gpu_cap[i];
    G.R_factor[q] = m.gpu_R_factor[i];
    G.type[q] = m.gpu_type[i];
    G.rack[q] = m.gpu_rack[i];
    G.job[q] = m.gpu_job[i];
  }
  g.unit_weights = std::all_of(G.w.begin(), G.w.end(), [](double w) { return w == 1.0; });
  // racks whose GPUs share one power limit (the common case): the kernel reads no cap array
  g.rack_cap.assign(m.nrack, std::nan(""));
  for (int r = 0; r < m.nrack; ++r) {
    const int q0 = m.rack_groupadr[r], q1 = q0 + m.rack_groupnum[r];
    if (q1 > q0 &&
        std::all_of(&G.cap[q0], &G.cap[q0] + (q1 - q0), [&](double c) { return c == G.cap[q0]; }))
      g.rack_cap[r] = G.cap[q0];
  }
  // racks whose GPUs run one job on one GPU type (the common case): no per-GPU test of either
  g.rack_uniform.assign(m.nrack, 0);
  for (int r = 0; r < m.nrack; ++r) {
    const int q0 = m.rack_groupadr[r], q1 = q0 + m.rack_groupnum[r];
    bool same = true;
    for (int q = q0 + 1; q < q1 && same; ++q)
      same = G.job[q] == G.job[q0] && G.type[q] == G.type[q0];
    g.rack_uniform[r] = same ? 1 : 0;
  }
  g.job_flags.assign(std::size_t(m.njob) + 1, 0);
  g.rack_powered_seen.assign(m.nrack, 1);
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
    // each GPU's own bottleneck map (kPerGpuMapMaxGroups); the job-level outputs read the job's
    // weighted sum, which every job keeps
    g.job.push_back(makeJobState(m.job_spec[j], n, n <= kPerGpuMapMaxGroups));
    g.job_bw_nvl.emplace_back(n, 1.0);
    g.job_bw_net.emplace_back(n, 1.0);
    g.job_cause.emplace_back(n, (unsigned char)kTimeClockOther);
    g.job_weight.emplace_back(n, 1.0);
    for (int k = 0; k < n; ++k) g.job_weight[j][k] = m.group_gpunum[m.job_groups[j][k]];
    g.job.back().weight = g.job_weight[j];  // the straggler attribution weighs by group size
    setJobStages(m.job_spec[j], g.job.back(), g.job_weight[j]);  // by GPU, not by group
    g.job_speed_c.emplace_back(n, 1.0);
    g.job_speed_m.emplace_back(n, 1.0);
    g.job_alive.emplace_back(n, 1);
    g.job_util.emplace_back(n);
  }
  g.job_fused.assign(std::size_t(m.njob), 0);
  for (int j = 0; j < m.njob; ++j) {
    const auto& jg = m.job_groups[std::size_t(j)];
    g.job_fused[std::size_t(j)] =
        m.job_kind[j] == 0 && !jg.empty() && jg.back() - jg.front() + 1 == int(jg.size());
  }
  initChunks(m, g);
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
  g.rack_part_act.assign(m.nrack, PartActivity{});
  g.gpu_T_in.assign(m.ngpu, T_init);
  g.gpu_R_path.assign(m.ngpu, 0.0);
  g.grp.Q_coolant.assign(m.ngroup, 0.0);
  g.grp.T_in.assign(m.ngroup, T_init);
  g.grp.G_cp.assign(m.ngroup, 0.0);
  // the bounds of the blocks' test (a rack's DC draw: its GPUs at their power bound, its other
  // parts at full activity)
  g.rack_safe.assign(m.nrack, 0);
  g.rack_P_dc_max.assign(m.nrack, 0.0);
  for (int r = 0; r < m.nrack; ++r) {
    double P = 0;
    for (int q = m.rack_groupadr[r]; q < m.rack_groupadr[r] + m.rack_groupnum[r]; ++q)
      P += G.w[std::size_t(q)] * groupPowerBound(g, q);
    if (m.rack_partset[r] >= 0)
      P += rackPartsPower(m.part_sets[m.rack_partset[r]], PartActivity{1, 1, 1, true}).P;
    else
      P += std::max(m.rack_other_max[r], m.rack_other_idle[r]);
    g.rack_P_dc_max[r] = P;
  }
  g.blk_bus_P.assign(m.power.busways.size(), 0.0);
  g.blk_windows = g.blk_steps = 0;
  g.interval_time = 0;
  g.E_electric = g.E_to_coolant = 0;
  g.E_stored0 = 0;
}

double gpuLayerEnergy(const FacilityModel& m, const State& st, double T_ref) {
  const GpuLayerState::Groups& G = st.gl.grp;
  double E = 0;
  for (int q = 0; q < m.ngroup; ++q) {
    const GpuParams& p = m.gpu_types[m.gpu_type[m.group_gpuadr[q]]];
    E += m.group_gpunum[q] * (p.C_die * (G.T_j[q] - T_ref) + p.C_hbm * (G.T_hbm[q] - T_ref) +
                              G.C_plate[q] * (G.T_plate[q] - T_ref));
  }
  return E;
}

namespace {
// GPUs [i0, i1) of the per-GPU view from their groups
void syncGpuViewRange(const FacilityModel& m, GpuLayerState& g, const GpuLayerState::Groups& q,
                      int i0, int i1) {
  for (int i = i0; i < i1; ++i) {
    const int k = m.gpu_group[i];
    GpuState& s = g.gpu[i];
    s.T_j = q.T_j[k];
    s.T_hbm = q.T_hbm[k];
    s.T_plate = q.T_plate[k];
    s.hw_slowdown = (q.latches[k] & kLatchHwSlowdown) != 0;
    s.shut_down = (q.latches[k] & kLatchShutDown) != 0;
    g.op[i] = GpuOperatingPoint{q.clock_ratio[k], q.P[k], q.P_hbm[k], unsigned(q.reasons[k])};
    g.smooth[i] = q.smooth[k];
    g.filler_energy[i] = q.filler_energy[k];
    g.util[i] = q.util(k);
    g.P_sum[i] = q.P_sum[k];
    g.Tj_max[i] = q.Tj_max[k];
    g.Thbm_max[i] = q.Thbm_max[k];
    g.throttled_time[i] = q.throttled_time[k];
  }
}
}  // namespace

void syncGpuView(const FacilityModel& m, State& st) {
  GpuLayerState& g = st.gl;
  const GpuLayerState::Groups& q = g.grp;
  // in chunks of GPUs on the run's pool where it has one (every slot its own)
  const int nchunk = st.pool && st.pool->size() > 1 ? std::min(64, std::max(1, m.ngpu / 4096)) : 1;
  auto part = [&](int c) {
    int i0, i1;
    WorkerPool::chunk(m.ngpu, nchunk, c, &i0, &i1);
    syncGpuViewRange(m, g, q, i0, i1);
  };
  if (nchunk > 1)
    st.pool->run(nchunk, part);
  else
    part(0);
}

void resetGpuInterval(const FacilityModel& m, State& st) {
  GpuLayerState::Groups& q = st.gl.grp;
  std::fill(q.P_sum.begin(), q.P_sum.end(), 0.0);
  std::copy(q.T_j.begin(), q.T_j.end(), q.Tj_max.begin());
  std::copy(q.T_hbm.begin(), q.T_hbm.end(), q.Thbm_max.begin());
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
  p.iv_time = p.iv_utility = p.iv_ups_in = p.iv_ups_out = p.iv_ups_loss = p.iv_storage = 0;
  p.iv_bess = p.iv_bess_loss = 0;  // the site battery
  p.iv_air_it = 0;                 // air-cooled racks
  p.iv_sw_it = 0;                  // switch racks
  for (auto* v : {&p.iv_rack_P_in, &p.iv_rack_psu_loss, &p.iv_bus_loss})
    std::fill(v->begin(), v->end(), 0.0);
}

//---------------------------------------------------------------------------------------------
namespace {

// GpuLayerState::job_flags: besides kBatchHeld, the job's GPUs take the scalar path around the
// kernel
constexpr std::uint64_t kJobSlowPath = std::uint64_t(1) << 32;

// whether no GPU of groups [q0, q1) can reach its shutdown temperature over the window
// (docs/models/gpu_layer.md "Steps in blocks"). The thermal step is backward Euler on the die,
// HBM and plate nodes, whose matrix is an M-matrix (a nonnegative inverse). (1) With the heat
// into the die at most Pd (the power cap less the HBM's idle power, which a powered board
// always draws, or the idle clock's bound Pl), into the HBM at most Ph, and the plate's inlet and
// conductance fixed over the window, the steady state B of those bounds (B_p = T_in + (Pd + Ph) /
// G_cp, B_j = B_p + Pd / g_jc, B_h = B_p + Ph / g_hbm), raised by the largest excess d of the
// present state over it, is never exceeded at any later step: the plate stays below B_p + d. (2)
// The die's new temperature is (c T_j + heat + g_jc T_p') / (c + g_jc), c = C_die / dt: from below
// the HW slowdown temperature it reaches at most J1 = (c T_slow + Pd + g_jc (B_p + d)) / (c +
// g_jc); from at or above it the SW thermal slowdown holds the clock at the idle clock, where the
// die heat is at most Pl (idleClockPowerBound's, the die's), and it stays below max(T_j, B_p + d +
// Pl / g_jc). So the die never exceeds the largest of its present temperature, J1 and B_p + d + Pl
// / g_jc; where that is under the shutdown temperature (with 1 mK for round-off) no GPU of the
// groups dies within the window. (dt: the longest step.)
bool rackSafe(const GpuLayerState& g, int q0, int q1, double dt) {
  const GpuLayerState::Groups& G = g.grp;
  for (int q = q0; q < q1; ++q) {
    const std::size_t i = std::size_t(q);
    const GpuBatchType& t = g.batch_types[std::size_t(G.type[i])];
    const double Pl = idleClockPowerBound(g, q, false);
    const double Pd = std::max(G.cap[i] * (1 + kGpuBatchPowerRounding) - t.P_hbm_idle, Pl);
    const double Ph = t.P_hbm_max + t.P_hbm_idle;
    const double Bp = G.T_in[i] + (Pd + Ph) / G.G_cp[i];
    const double Bj = Bp + Pd / G.g_jc[i], Bh = Bp + Ph / G.g_hbm[i];
    const double d = std::max({0.0, G.T_j[i] - Bj, G.T_hbm[i] - Bh, G.T_plate[i] - Bp});
    // (J1 lies between T_slow and X = B_p + d + Pd / g_jc; where X is above T_slow it is largest
    // at the smallest c, the longest step; else it is below T_slow)
    const double c = t.C_die / dt, gj = G.g_jc[i];
    const double J1 = Bp + d + Pd / gj > t.T_slowdown
                          ? (c * t.T_slowdown + Pd + gj * (Bp + d)) / (c + gj)
                          : t.T_slowdown;
    const double top = std::max({G.T_j[i], J1, Bp + d + Pl / gj});
    if (!(top < t.T_shutdown - 1e-3)) return false;
  }
  return true;
}

// a new window: its sums restart, and the coolant side of each GPU's plate holds over it
// (docs/models/flow_distribution.md): the plate's flow, its share of the rack's, sets its
// resistance (one power law per GPU and window, not per step); its inlet is the rack inlet, plus,
// for a plate downstream in series, the heat the upstream plate gave the coolant at the last fast
// step (a window late: the error is the change of that heat over one window). Racks [r0, r1):
// a rack's plates read and write only their own rack's slots (startWindow runs them per chunk)
void startWindowRacks(const FacilityModel& m, State& st, const double* y, int r0, int r1) {
  GpuLayerState& g = st.gl;
  for (int r = r0; r < r1; ++r) {
    g.rack_Q_liquid[r] = g.rack_P[r] = g.rack_Q_air[r] = 0;
    g.rack_safe[r] = 1;  // (a rack without resolved GPUs)
  }
  for (int r = r0; r < r1; ++r) {
    if (!m.rack_resolved[r]) continue;
    const int c = m.rack_cdu[r];
    const Fluid& f = m.fluids[m.cdu_fluid[c]];
    const double m_r = st.sig.m_rack[r], rho = f.rho_ref();
    // the inlet while the coolant flows, the stagnant rack coolant when it stops (cold_plate.md)
    const double V_rack = m_r / rho;
    const double flow_ratio = m.rack_design_flow[r] > 0 ? V_rack / m.rack_design_flow[r] : 1.0;
    const double T_in = plateCoolantTemperature(y[m.supSegAdr(c) + m.cdu_nseg_sup[c] - 1],
                                                y[m.rackAdr(r)], flow_ratio);
    g.rack_T_in[r] = T_in;
    const double cp = f.cp(T_in);
    // plates in rack order: an upstream plate always comes before the plates it feeds
    for (int i = m.rack_gpuadr[r]; i < m.rack_gpuadr[r] + m.rack_gpunum[r]; ++i) {
      const double m_i = m_r * m.gpu_flow_share[i];
      g.gpu_R_path[i] = m.rack_coldplate[r].R(m_i / rho);
      const int u = m.gpu_upstream[i];
      const double pickup =
          u >= 0 && m_i > 0 ? std::max(g.grp.Q_coolant[m.gpu_group[u]], 0.0) / (m_i * cp) : 0.0;
      g.gpu_T_in[i] = (u >= 0 ? g.gpu_T_in[u] : T_in) + pickup;
    }
    // and per group, contiguous, what the kernel reads at every fast step (its first GPU's)
    GpuLayerState::Groups& G = g.grp;
    for (int q = m.rack_groupadr[r]; q < m.rack_groupadr[r] + m.rack_groupnum[r]; ++q) {
      const int i = m.group_gpuadr[q];
      G.T_in[q] = g.gpu_T_in[i];
      G.G_cp[q] = 1.0 / (g.gpu_R_path[i] * G.R_factor[q]);
    }
    g.rack_safe[r] =
        rackSafe(g, m.rack_groupadr[r], m.rack_groupadr[r] + m.rack_groupnum[r], m.gpu_dt);
  }
}

// 1. jobs: progress with the clocks of the previous step, utilizations for this step
void stepJobs(const FacilityModel& m, State& st, double t, double dt) {
  GpuLayerState& g = st.gl;
  GpuLayerState::Groups& G = g.grp;
  // racks the facility side of the power chain cut after the rack loop (a UPS drop, a utility
  // loss without UPS): their GPUs stop (once per rack, the rest was set by jobSpeeds)
  if (m.has_power)
    for (int r = 0; r < m.nrack; ++r) {
      if (st.pl.rack_powered[r] == g.rack_powered_seen[r]) continue;
      g.rack_powered_seen[r] = st.pl.rack_powered[r];
      if (st.pl.rack_powered[r]) continue;
      for (int q = m.rack_groupadr[r]; q < m.rack_groupadr[r] + m.rack_groupnum[r]; ++q)
        if (G.job[q] >= 0) g.job_alive[G.job[q]][m.group_jobslot[q]] = 0;
    }
  for (int j = 0; j < m.njob; ++j) {
    // what the rack loop needs of the job this step: a running job's process holds its GPUs (at
    // a barrier or in a bubble the clock stays up); power smoothing, a power trace or a power-cap
    // event take the scalar path around the kernel
    const bool held = m.job_kind[j] != 0 || (t >= m.job_spec[j].start && t < m.job_spec[j].stop);
    const bool slow = m.job_smoothing[j].enabled || m.job_kind[j] == 2 ||
                      (!st.faults.job_cap.empty() && st.faults.job_cap[j] > 0);
    g.job_flags[std::size_t(j) + 1] = (held ? kBatchHeld : 0) | (slow ? kJobSlowPath : 0);
    const auto& groups = m.job_groups[j];
    // (the speeds and liveness of its GPUs were left by the rack loop: jobSpeeds)
    if (m.job_kind[j] == 1) {  // inference: utilizations follow the load profile
      const Utilization u = inferenceUtilization(m.job_inference[j], t + 0.5 * dt);
      for (std::size_t k = 0; k < groups.size(); ++k)
        G.setUtil(groups[k], g.job_alive[j][k] ? u : Utilization{});
      continue;
    }
    if (m.job_kind[j] == 2) {  // trace replay: per-GPU samples (GPUs beyond the trace idle);
      const TraceSpec& tr = m.job_trace[j];  // its groups are single GPUs
      for (std::size_t k = 0; k < groups.size(); ++k) {
        const int rank = m.gpu_jobslot[m.group_gpuadr[groups[k]]];
        G.setUtil(groups[k], rank < int(tr.gpus.size()) ? traceUtilization(tr, rank, t + 0.5 * dt)
                                                        : Utilization{});
      }
      continue;
    }
    // a job's groups are increasing (compileGroups); when they are one contiguous run (every job
    // that fills its racks) the job writes the utilizations in place, without a copy per GPU,
    // reads the clock causes the rack loop left per group, and runs its GPUs per chunk inside the
    // rack loop (stepChunk); here only what it decides for the whole step
    if (g.job_fused[std::size_t(j)]) {
      g.job_ex[std::size_t(j)] = JobStepExtras{
          g.job_bw_nvl[j], g.job_bw_net[j],
          std::span<const unsigned char>(&G.cause[groups.front()], groups.size()),
          // (a fleet of single GPUs: no weights, 1 each, and 8 bytes less per GPU and step)
          g.unit_weights ? std::span<const double>() : std::span<const double>(g.job_weight[j])};
      const std::size_t q0 = std::size_t(groups.front());
      g.job_io[std::size_t(j)] = JobStepIo{
          g.job_speed_c[j],
          g.job_speed_m[j],
          g.job_alive[j],
          {},
          &g.job_ex[std::size_t(j)],
          UtilArrays{&G.a_sm[q0], &G.a_hbm[q0], &G.a_nvl[q0], &G.a_net[q0], &G.mem_bound[q0]}};
      g.job_ctx[std::size_t(j)] =
          trainingStepBegin(m.job_spec[j], g.job[j], t, dt, g.job_io[std::size_t(j)]);
      continue;
    }
    for (std::size_t k = 0; k < groups.size(); ++k) g.job_cause[j][k] = G.cause[groups[k]];
    const JobStepExtras ex{g.job_bw_nvl[j], g.job_bw_net[j], g.job_cause[j], g.job_weight[j]};
    stepTrainingJob(m.job_spec[j], g.job[j], t, dt, g.job_speed_c[j], g.job_speed_m[j],
                    g.job_alive[j], g.job_util[j], &ex);
    for (std::size_t k = 0; k < groups.size(); ++k) G.setUtil(groups[k], g.job_util[j][k]);
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

// 2b'. between the kernel's two passes: power smoothing fills the floor and limits the ramp;
// a replayed power trace sets the board power directly (no cap or thermal feedback)
inline void adjustPower(const FacilityModel& m, State& st, int q0, int n, double t, double dt,
                        bool powered) {
  GpuLayerState::Groups& G = st.gl.grp;
  if (!powered) return;
  for (int q = q0; q < q0 + n; ++q) {
    if (G.latches[q] & kLatchShutDown) continue;
    const int i = m.group_gpuadr[q], j = m.gpu_job[i];
    if (j < 0) continue;
    const PowerSmoothingParams& ps = m.job_smoothing[j];
    if (ps.enabled) {
      const bool held = m.job_kind[j] != 0 || (t >= m.job_spec[j].start && t < m.job_spec[j].stop);
      const SmoothedPower sp = smoothPower(ps, G.P[q], dt, G.smooth[q], held);
      G.P[q] = sp.P;
      G.filler_energy[q] += sp.filler * dt;
    }
    if (m.job_kind[j] == 2) {
      const TraceSpec& tr = m.job_trace[j];
      const int rank = m.gpu_jobslot[i];
      if (rank < int(tr.gpus.size()) && traceHasPower(tr, rank)) {
        G.P[q] = tracePower(tr, rank, t + 0.5 * dt);
        G.P_hbm[q] = std::min(G.P_hbm[q], G.P[q]);
      }
    }
  }
}

// 2b. the GPU groups of rack r, in blocks of at most kBlock: a scalar pass gathers each group's
// load and limit (the GPU's, a power-cap event's, the rack's share, power smoothing), the SIMD
// kernel computes the operating points (models/gpu_batch.h), power smoothing and replayed power
// traces adjust the power of their GPUs, and the kernel advances the thermal nodes and sums the
// rack's power, heat and throttle times
constexpr int kBlock = 128;

// what the kernel reads and writes for one block (on the stack of the thread that owns the rack)
struct GpuBlock {
  alignas(64) double cap[kBlock];
  alignas(64) std::uint64_t flags[kBlock];
  // the operating point's power, HBM power and reasons within a window's step on the kernel's
  // path: only the step that ends the window stores them per group (what the outputs and the
  // detectors read there); between, they live here (24 bytes per GPU and step less to memory)
  alignas(64) double P[kBlock], P_hbm[kBlock];
  alignas(64) std::uint64_t reasons[kBlock];
  unsigned char smoothing[kBlock];  // 1: power smoothing's ramp limit is the group's binding cap
};

inline void stepGpuBlock(const FacilityModel& m, State& st, int r, int q0, int n, double t,
                         double dt, bool keep_Q, double rack_share, RackGpuSums& s) {
  GpuLayerState& g = st.gl;
  GpuLayerState::Groups& G = g.grp;
  GpuBlock b;
  const bool powered = (!m.has_power || st.pl.rack_powered[r]) &&
                       (st.faults.rack_power_off.empty() || !st.faults.rack_power_off[r]);
  const std::uint64_t rack_flags =
      (powered ? kBatchPowered : 0) | (m.has_power && st.pl.rack_brake[r] != 0 ? kBatchBrake : 0);
  bool adjust = false;  // some GPU of the block smooths its power or replays a power trace
  const double prot_cap = rackGpuCapFactor(st, r);  // a protective cap (protection.cpp), 1: none
  const std::uint64_t* job_flags = g.job_flags.data() + 1;  // [-1]: no job
  // the block's GPUs of one job that takes the kernel's path (the common case): the kernel
  // gathers their flags and caps itself (GpuBatchIo::flags null)
  const int j0 = G.job[q0];
  const bool uniform = g.rack_uniform[r] != 0;  // one job and one GPU type
  bool one_job = !(job_flags[j0] & kJobSlowPath);
  for (int k = 1; k < n && one_job && !uniform; ++k) one_job = G.job[q0 + k] == j0;
  for (int k = 0; k < n && !one_job; ++k) {
    const int q = q0 + k;
    const int jj = G.job[q];
    const std::uint64_t jf = job_flags[jj];
    b.flags[k] = rack_flags | (G.mem_bound[q] > 0.5 ? kBatchMemoryBound : 0) | (jf & kBatchHeld);
    b.cap[k] = std::min(G.cap[q], rack_share);
    b.smoothing[k] = 0;
    if (jf & kJobSlowPath) {
      adjust = true;
      // a power-cap event replaces the job's cap (a lower cap of the rack's own still holds;
      // within the GPU's settable range)
      if (!st.faults.job_cap.empty() && st.faults.job_cap[jj] > 0)
        b.cap[k] = std::min(
            gpuPowerLimit(m.gpu_types[G.type[q]], m.rack_gpu_power_cap[r], st.faults.job_cap[jj]),
            rack_share);
      // power smoothing (GB200-style floor and ramp limits): the ramp-up limit acts as a cap,
      // so the clock (and the job) slow down; the floor is filled with dummy work
      if (m.job_smoothing[jj].enabled) {
        const double ceiling = powerSmoothingCeiling(m.job_smoothing[jj], G.smooth[q], dt);
        b.smoothing[k] = ceiling < b.cap[k] ? 1 : 0;
        b.cap[k] = std::min(b.cap[k], ceiling);
      }
    }
    if (prot_cap < 1.0) b.cap[k] = std::min(b.cap[k], prot_cap * G.cap[q]);
  }
  // the step's operating point in the block only (GpuBlock::P): on the kernel's path, except at
  // the window's last step
  const bool local = one_job && !keep_Q;
  const bool uniform_cap = !std::isnan(g.rack_cap[r]);
  // runs of one GPU type (a rack normally has one)
  for (int k0 = 0; k0 < n;) {
    const int type = G.type[q0 + k0];
    int k1 = uniform ? n : k0 + 1;
    while (k1 < n && G.type[q0 + k1] == type) ++k1;
    const int q = q0 + k0;
    const GpuBatchParams p{G.P_base.data() + q,  G.P_leak.data() + q,
                           G.P_sm.data() + q,    G.P_clk.data() + q,
                           G.g_jc.data() + q,    G.g_hbm.data() + q,
                           G.C_plate.data() + q, g.unit_weights ? nullptr : G.w.data() + q};
    GpuBatchIo io{G.a_sm.data() + q,  // the utilizations the job step left
                  G.a_hbm.data() + q,
                  G.a_nvl.data() + q,
                  one_job ? nullptr : b.flags + k0,
                  one_job ? (uniform_cap ? nullptr : G.cap.data() + q) : b.cap + k0,
                  G.T_in.data() + q,  // the coolant boundary, per window (startWindow)
                  nullptr,            // R_cp: the kernel reads G_cp (below)
                  G.T_j.data() + q,
                  G.T_hbm.data() + q,
                  G.T_plate.data() + q,
                  G.latches.data() + q,
                  G.clock_ratio.data() + q,
                  local ? b.P + k0 : G.P.data() + q,
                  local ? b.P_hbm + k0 : G.P_hbm.data() + q,
                  local ? b.reasons + k0 : G.reasons.data() + q,
                  keep_Q ? G.Q_coolant.data() + q : nullptr,
                  G.P_sum.data() + q,
                  G.Tj_max.data() + q,
                  G.Thbm_max.data() + q,
                  G.throttled_time.data() + q};
    if (one_job) {
      io.mem_bound = G.mem_bound.data() + q;
      io.flags_all = rack_flags | (job_flags[j0] & kBatchHeld);
      io.cap_max = rack_share;
      io.cap_scale = prot_cap;
      io.cap_all = g.rack_cap[r];
    }
    io.G_cp = G.G_cp.data() + q;
    io.a_net = G.a_net.data() + q;  // the thermal pass also sums the activities (sums.act)
    io.cause = G.cause.data() + q;  // pass 1 leaves the clock causes the jobs read next
    const GpuBatchType& bt = g.batch_types[std::size_t(type)];
    gpuBatchOperatingPoint(bt, p, io, k1 - k0);
    if (adjust) adjustPower(m, st, q, k1 - k0, t, dt, powered);
    GpuBatchSums sums;
    gpuBatchThermal(bt, p, io, k1 - k0, dt, sums);
    s.P += sums.P;
    s.Q += sums.Q;
    s.throttled += sums.throttled;
    s.capped += sums.capped;
    s.slowdown += sums.slowdown;
    s.thermal += sums.thermal;
    s.brake += sums.brake;
    // the rack's activity sums for its non-GPU parts
    s.a_sm += sums.act[0];
    s.a_nvlink += sums.act[1];
    s.a_net += sums.act[2];
    k0 = k1;
  }
  // the clock causes the jobs read at the next step (pass 1 left them from its reasons;
  // docs/models/job.md): a power cap that is power smoothing's ramp limit is booked to smoothing
  if (!one_job)
    for (int k = 0; k < n; ++k)
      if (b.smoothing[k] && G.cause[q0 + k] == kTimePowerCap) G.cause[q0 + k] = kTimeSmoothing;
}

// 2c. non-GPU parts: the rack type's parts (CPUs follow the mean SM activity, switch trays the
// NVLink, NICs the network utilization), or a lumped power following the SM activity (a)
inline PartPower otherPartsPower(const FacilityModel& m, const State& st, int r,
                                 const RackGpuSums& s, PartActivity& act) {
  const double inv_n = m.rack_gpunum[r] > 0 ? 1.0 / m.rack_gpunum[r] : 0.0;
  PartPower other;
  act = PartActivity{s.a_sm * inv_n, s.a_nvlink * inv_n, s.a_net * inv_n, true};
  if (m.rack_partset[r] >= 0) {
    other = rackPartsPower(m.part_sets[m.rack_partset[r]], act);
  } else {
    other.P = m.rack_other_idle[r] + (m.rack_other_max[r] - m.rack_other_idle[r]) * s.a_sm * inv_n;
    other.Q_liquid = m.rack_other_liquid[r] * other.P;
    other.Q_air = other.P - other.Q_liquid;
  }
  // a rack without power, or powered off by a protection or an isolation, draws nothing
  const bool off = !st.faults.rack_power_off.empty() && st.faults.rack_power_off[r];
  if ((m.has_power && !st.pl.rack_powered[r]) || off) other = PartPower{};
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

// 2f. the rack's GPUs as their jobs see them at the next step: compute speed (clock over the
// phase's reference clock), memory speed (halved by a HW slowdown), alive (powered, not shut
// down); here, in parallel and while the rack's arrays are in this core's cache, instead of a
// serial pass over every GPU in the job step. The phases are those of this step's job step,
// which the next one starts from.
inline void jobSpeeds(const FacilityModel& m, State& st, int r) {
  GpuLayerState& g = st.gl;
  const GpuLayerState::Groups& G = g.grp;
  const bool powered = !m.has_power || st.pl.rack_powered[r];
  if (m.has_power) g.rack_powered_seen[r] = st.pl.rack_powered[r];
  const int q0 = m.rack_groupadr[r], q1 = q0 + m.rack_groupnum[r];
  // runs of groups of one job (a rack normally runs one); plain pointers, since the char stores
  // to alive may alias anything and would reload every vector's data pointer per group
  const bool uniform = g.rack_uniform[r] != 0;  // one job (and one GPU type)
  for (int qa = q0; qa < q1;) {
    const int j = G.job[qa];
    int qb = uniform ? q1 : qa + 1;
    while (qb < q1 && G.job[qb] == j) ++qb;
    if (j >= 0) {
      const int nph = int(m.job_spec[j].phases.size());
      const double* xref_inv = m.job_xref_inv[j].data();
      const std::uint16_t* phase = g.job[j].phase_now.data();
      double* speed_c = g.job_speed_c[j].data();
      double* speed_m = g.job_speed_m[j].data();
      char* alive = g.job_alive[j].data();
      const int* slot = m.group_jobslot.data();
      const int* type = G.type.data();
      const double* clock_ratio = G.clock_ratio.data();
      const std::uint64_t* latches = G.latches.data();
      // a job whose groups are one contiguous run (every job that fills its racks): the slot is
      // the offset, without a load per group
      const auto& jg = m.job_groups[j];
      const bool contiguous = jg.back() - jg.front() + 1 == int(jg.size());
      const int base = jg.front();
      const int stride = nph + 2;  // (job_xref: the iteration end and the checkpoint too)
      if (contiguous) {            // the speeds as a vector pass (models/gpu_batch.h)
        const int k0 = qa - base;
        gpuBatchJobSpeeds(clock_ratio + qa, latches + qa, type + qa, phase + k0, xref_inv, stride,
                          powered, qb - qa, speed_c + k0, speed_m + k0, alive + k0);
      } else {
        for (int q = qa; q < qb; ++q) {
          const int k = slot[q];
          const double inv_ref = xref_inv[std::size_t(type[q]) * std::size_t(stride) + phase[k]];
          const double clock = clock_ratio[q];
          speed_c[k] = clock > 0 ? clock * inv_ref : 1.0;
          speed_m[k] = latches[q] & kLatchHwSlowdown ? 0.5 : 1.0;
          alive[k] = latches[q] & kLatchShutDown || !powered ? 0 : 1;
        }
      }
      // a GPU type whose GEMMs stall for a share s of their time at the reference clock: the
      // compute runs at 1 / ((1 - s) / c + s) of its reference pace at clock ratio c, not at c
      // (docs/models/job.md "Power limit"); jobs without such a type skip this
      if (m.job_stall[j])
        for (int q = qa; q < qb; ++q) {
          const double sh = m.gpu_types[std::size_t(type[q])].eff_gemm_stall;
          const int k = slot[q];
          if (sh > 0 && speed_c[k] > 0) speed_c[k] /= (1.0 - sh) + sh * speed_c[k];
        }
      // the fabric (docs/models/fabric.md), only once a fabric fault has happened: the bandwidth
      // fractions of the GPU's links; a GPU with no link left, or in an NVLink partition that is
      // down, is lost to its job although it is powered
      const FaultState& fs = st.faults;
      if (fs.fabric_faulted) {
        const double bw_nvl = fs.rack_bw_nvl[r];
        const bool nvl_dead = fs.rack_nvl_dead[r] != 0;
        for (int q = qa; q < qb; ++q) {
          const int k = slot[q], i = m.group_gpuadr[q];
          g.job_bw_net[j][k] = fs.gpu_bw_net[i];
          g.job_bw_nvl[j][k] = bw_nvl;
          if (fs.gpu_net_dead[i] || nvl_dead) alive[k] = 0;
        }
      }
      // GPUs a failure of the failure process took (docs/models/failures.md), until repaired
      if (!fs.rack_down.empty() && fs.rack_down[r] > 0)
        for (int q = qa; q < qb; ++q)
          for (int i = m.group_gpuadr[q]; i < m.group_gpuadr[q] + m.group_gpunum[q]; ++i)
            if (fs.gpu_down_until[i] > 0) alive[slot[q]] = 0;
    }
    qa = qb;
  }
}

// 2. rack r (on whichever thread owns it): GPUs (operating point, thermal nodes, heat to the
// rack coolant), non-GPU parts, shelves; writes only its rack's slots
void stepRack(const FacilityModel& m, State& st, int r, double t, double dt, bool keep_Q) {
  if (!m.rack_resolved[r]) {
    if (m.has_power) powerRackStep(m, st, r, t, dt);
    return;
  }
  // 2a. the rack cap's share
  const double rack_share = rackCapShare(m, st.gl, r);
  // 2b. GPU groups
  RackGpuSums s;
  const int q_end = m.rack_groupadr[r] + m.rack_groupnum[r];
  for (int q = m.rack_groupadr[r]; q < q_end; q += kBlock)
    stepGpuBlock(m, st, r, q, std::min(kBlock, q_end - q), t, dt, keep_Q, rack_share, s);
  // 2c. non-GPU parts
  // (the activity is kept for the parts' temperatures, protection.cpp)
  const PartPower other = otherPartsPower(m, st, r, s, st.gl.rack_part_act[r]);
  // 2d. the rack's power and heat
  recordRack(st.gl, r, dt, s, other);
  // 2e. power shelves (docs/models/power_chain.md)
  if (m.has_power) powerRackStep(m, st, r, t, dt);
  // 2f. what the jobs read at the next step
  jobSpeeds(m, st, r);
}

// 2'. chunk k of the fixed partition: the job step of its GPUs of the fused training jobs (pass 1
// and, from the first GPU on after which the job is known not to release its barrier in this
// step, the finish, in one pass over their state), then its racks. While every GPU of a job's
// part so far waits at the barrier, the job may release in this step: then the chunk's racks
// wait for the decision after the loop (finishChunk). Per chunk, not per rack: the long runs over
// each array keep the hardware prefetchers streaming (per rack, the job's arrays and the kernel's
// interleaved in 72-element pieces made the kernel itself 30 % slower).

// what a chunk's step reads and writes beyond the state: the jobs' contexts of the step (per
// job), the parts of their sums (per run), whether the step ends the window, and where its racks
// leave what the serial part of the step reads (a block's row, blockRecord; null: in place only)
struct StepRefs {
  JobStepCtx* ctx;
  JobStepPart* parts;
  bool keep_Q;
  double* hist;
  // the parts of the step before (a block's: the chunk's own GPUs that ran on past its end are
  // its hints, trainingStepRunsOn); null: the job's context has them (c.runs_on)
  const JobStepPart* prev = nullptr;
};

// what sumRacks, powerFeedStep and the fast outputs read of rack r after its step, to a block's
// row (GpuLayerState::kRackHist per rack), and back (blockRestore)
inline void blockRecord(const FacilityModel& m, const State& st, int r, double* h) {
  const GpuLayerState& g = st.gl;
  h[0] = g.rack_P_now[r], h[1] = g.rack_gpu_P_now[r], h[2] = g.rack_gpu_Q_now[r];
  h[3] = g.rack_throttled_now[r], h[4] = g.rack_capped_now[r];
  if (!m.has_power) return;
  const PowerLayerState& p = st.pl;
  h[5] = p.rack_P_grid[r], h[6] = p.rack_P_dc[r], h[7] = p.rack_psu_loss[r], h[8] = p.rack_P_in[r];
}
inline void blockRestore(const FacilityModel& m, State& st, int r, const double* h) {
  GpuLayerState& g = st.gl;
  g.rack_P_now[r] = h[0], g.rack_gpu_P_now[r] = h[1], g.rack_gpu_Q_now[r] = h[2];
  g.rack_throttled_now[r] = h[3], g.rack_capped_now[r] = h[4];
  if (!m.has_power) return;
  PowerLayerState& p = st.pl;
  p.rack_P_grid[r] = h[5], p.rack_P_dc[r] = h[6], p.rack_psu_loss[r] = h[7], p.rack_P_in[r] = h[8];
}

// the rest of the job step of chunk k's runs not finished yet, then its racks
void finishChunk(const FacilityModel& m, State& st, int k, double t, double dt, const StepRefs& x) {
  GpuLayerState& g = st.gl;
  for (int a = g.chunk_runadr[std::size_t(k)]; a < g.chunk_runadr[std::size_t(k) + 1]; ++a) {
    if (g.run_done[std::size_t(a)]) continue;
    const GpuLayerState::JobRun& run = g.job_runs[std::size_t(a)];
    const std::size_t j = std::size_t(run.job);
    trainingStepFinish(m.job_spec[j], g.job[j], x.ctx[j], g.job_io[j], std::size_t(run.slot0),
                       std::size_t(run.slot1), x.parts[std::size_t(a)]);
    g.run_done[std::size_t(a)] = 1;
  }
  int r0, r1;
  WorkerPool::chunk(m.nrack, g.nchunk, k, &r0, &r1);
  for (int r = r0; r < r1; ++r) {
    stepRack(m, st, r, t, dt, x.keep_Q);
    if (x.hist) blockRecord(m, st, r, x.hist + std::size_t(r) * GpuLayerState::kRackHist);
  }
}

// pass 1 of chunk k's runs and, where the chunk is known not to wait for a barrier release (or
// no_release: the caller knows that no job releases in this step), the finish and the racks;
// returns whether the chunk waits for the release decision
bool stepChunk(const FacilityModel& m, State& st, int k, double t, double dt, const StepRefs& x,
               bool no_release = false) {
  GpuLayerState& g = st.gl;
  bool wait = false;
  for (int a = g.chunk_runadr[std::size_t(k)]; a < g.chunk_runadr[std::size_t(k) + 1]; ++a) {
    const GpuLayerState::JobRun& run = g.job_runs[std::size_t(a)];
    const std::size_t j = std::size_t(run.job);
    JobStepPart& part = x.parts[std::size_t(a)];
    // (no release: known from the start, as with a GPU known to run on)
    bool runs_on = no_release;
    if (x.prev && !runs_on) {
      const JobStepPart& p = x.prev[std::size_t(a)];
      const std::size_t hints[2] = {p.running_gpu, p.running_last};
      runs_on = trainingStepRunsOn(g.job[j], x.ctx[j], g.job_io[j], hints, 2);
    }
    part = JobStepPart{};
    // slots from `first` on are finished already; the ones before once the part is known
    const std::size_t first =
        trainingStepRunFinish(m.job_spec[j], g.job[j], x.ctx[j], g.job_io[j],
                              std::size_t(run.slot0), std::size_t(run.slot1), part, runs_on);
    const bool known = runs_on || !trainingStepCanRelease(x.ctx[j], part);
    if (known && first > std::size_t(run.slot0))
      trainingStepFinish(m.job_spec[j], g.job[j], x.ctx[j], g.job_io[j], std::size_t(run.slot0),
                         first, part);
    g.run_done[std::size_t(a)] = known ? 1 : 0;
    wait = wait || !known;
  }
  g.chunk_wait[std::size_t(k)] = wait ? 1 : 0;
  if (!wait) finishChunk(m, st, k, t, dt, x);
  return wait;
}

// runs f(k) for k < n on the pool, or on the caller alone
template <class F>
void forChunks(WorkerPool* pool, int n, F&& f, bool even = true) {
  if (pool && pool->size() > 1 && n > 1)
    pool->run(n, f, even);
  else
    for (int k = 0; k < n; ++k) f(k);
}

// the window's start over the racks, in the chunks of the fast step's partition (each rack's
// slots its own, so the same whatever the thread count)
void startWindow(const FacilityModel& m, State& st, const double* y, WorkerPool* pool) {
  const int nchunk = st.gl.nchunk;
  forChunks(pool, nchunk, [&](int k) {
    int r0, r1;
    WorkerPool::chunk(m.nrack, nchunk, k, &r0, &r1);
    startWindowRacks(m, st, y, r0, r1);
  });
}

// the barrier release(s) of fused job j within the step, over its runs on the pool: one part of
// the release per run (models/workload.h), merged in run order, the same whatever the thread
// count. Two passes over the job's GPUs in parallel (the latest arrival; each GPU's wait and its
// way on into the next phase), a third only where a checkpoint's copy of the maps sits between
// the waits and the next phase; serially, the release's decision and the sums.
void releaseJob(const FacilityModel& m, GpuLayerState& g, int j, JobStepCtx& c, WorkerPool* pool) {
  const TrainingJobSpec& spec = m.job_spec[std::size_t(j)];
  JobState& js = g.job[std::size_t(j)];
  const JobStepIo& io = g.job_io[std::size_t(j)];
  const int a0 = g.job_runlist_adr[std::size_t(j)];
  const int n = g.job_runlist_adr[std::size_t(j) + 1] - a0;
  const std::span<JobReleasePart> parts(g.release_parts.data() + a0, std::size_t(n));
  auto slots = [&](int i) {
    const GpuLayerState::JobRun& run = g.job_runs[std::size_t(g.job_runlist[std::size_t(a0 + i)])];
    return std::pair<std::size_t, std::size_t>(std::size_t(run.slot0), std::size_t(run.slot1));
  };
  while (trainingReleaseDue(c)) {
    forChunks(pool, n, [&](int i) {
      const auto [s0, s1] = slots(i);
      parts[std::size_t(i)] = JobReleasePart{};
      trainingReleaseScan(js, s0, s1, parts[std::size_t(i)]);
    });
    const JobRelease r = trainingReleaseDecide(spec, js, c, parts);
    forChunks(pool, n, [&](int i) {
      const auto [s0, s1] = slots(i);
      trainingReleaseBook(js, c, io, r, s0, s1, parts[std::size_t(i)]);
      if (!r.snapshot) trainingReleaseAdvance(spec, js, c, io, r, s0, s1, parts[std::size_t(i)]);
    });
    if (r.snapshot) {
      trainingReleaseMergeBook(js, r, parts);
      forChunks(pool, n, [&](int i) {
        const auto [s0, s1] = slots(i);
        trainingReleaseAdvance(spec, js, c, io, r, s0, s1, parts[std::size_t(i)]);
      });
    }
    trainingReleaseMerge(js, c, r, parts);
  }
}

// the fused jobs' sums of a step from their runs' parts, in run order: pass 1's
// (trainingStepMerge1), or the rest and the step's end (trainingStepMerge3, trainingStepEnd)
void mergeRuns1(GpuLayerState& g, JobStepCtx* ctx, const JobStepPart* parts) {
  for (std::size_t a = 0; a < g.job_runs.size(); ++a) {
    const std::size_t j = std::size_t(g.job_runs[a].job);
    trainingStepMerge1(g.job[j], ctx[j], parts[a]);
  }
}
void mergeRuns3(const FacilityModel& m, GpuLayerState& g, JobStepCtx* ctx,
                const JobStepPart* parts) {
  for (std::size_t a = 0; a < g.job_runs.size(); ++a) {
    const std::size_t j = std::size_t(g.job_runs[a].job);
    trainingStepMerge3(g.job[j], ctx[j], parts[a]);
  }
  for (int j = 0; j < m.njob; ++j)
    if (g.job_fused[std::size_t(j)]) trainingStepEnd(g.job[j], ctx[std::size_t(j)]);
}

// 2. the racks and the fused jobs: one parallel loop over the chunks; then, serially and in chunk
// order, the jobs' sums of pass 1; their barrier releases (releaseJob); then the chunks that
// waited for them (only in the steps where every GPU of some chunk is at the barrier); then the
// rest of the sums
void stepChunks(const FacilityModel& m, State& st, double t, double dt, WorkerPool* pool) {
  GpuLayerState& g = st.gl;
  const StepRefs x{g.job_ctx.data(), g.job_parts.data(), g.keep_Q, nullptr};
  forChunks(pool, g.nchunk, [&](int k) { stepChunk(m, st, k, t, dt, x); });
  mergeRuns1(g, x.ctx, x.parts);
  int nd = 0;
  for (int k = 0; k < g.nchunk; ++k)
    if (g.chunk_wait[std::size_t(k)]) g.deferred[std::size_t(nd++)] = k;
  if (nd > 0) {
    for (int j = 0; j < m.njob; ++j)
      if (g.job_fused[std::size_t(j)]) releaseJob(m, g, j, g.job_ctx[std::size_t(j)], pool);
    forChunks(pool, nd, [&](int i) { finishChunk(m, st, g.deferred[std::size_t(i)], t, dt, x); });
  }
  mergeRuns3(m, g, x.ctx, x.parts);
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

// 3'. the rest of a step's serial part: the sums over the racks and the facility side of the power
// chain (busways, UPS, transformer)
void finishStep(const FacilityModel& m, State& st, double t, double dt) {
  sumRacks(m, st.gl, dt);
  powerFeedStep(m, st, t, dt);
  st.gl.interval_time += dt;
}

// the window's sums become its means: the heat and power the coolant sees over the window
void windowMeans(const FacilityModel& m, GpuLayerState& g, double window) {
  for (int r = 0; r < m.nrack; ++r) {
    g.rack_Q_liquid[r] /= window;
    g.rack_P[r] /= window;
    g.rack_Q_air[r] /= window;
  }
}

//---------------------------------------------------------------------------------------------
// the window in blocks of steps (docs/models/gpu_layer.md "Steps in blocks")

// a breaker at current I (A) from thermal state theta over any number of steps: never trips
bool breakerSafe(const BreakerParams& b, double I, double theta) {
  const double k2 = b.k_trip * b.k_trip, r = (I / b.I_n) * (I / b.I_n);
  return theta < k2 && r < k2 * (1 - 1e-9) &&
         (b.magnetic_multiple <= 0 || I < b.magnetic_multiple * b.I_n * (1 - 1e-9));
}

// whether the window [t0, t1] may run in blocks: the training jobs are the only thing that couples
// the chunks within a step (each chunk runs one job's GPUs; no inference, trace, smoothing, cap
// or fabric event), and nothing that the serial part of a step decides can change what the racks
// read over the window: every job runs over the whole window or not at all, none has lost a
// GPU, and none can lose one (no GPU can reach its shutdown temperature, rackSafe; the facility
// is fed and no breaker can trip at the racks' bounded draw, breakerSafe; the racks have no
// energy storage). Otherwise the window runs step by step, as it always can.
// every rank of job j has a GPU: its own, alive, or a hot spare (docs/models/checkpoint.md); the
// common case, all alive, is one scan of the byte flags
bool ranksOk(const GpuLayerState& g, int j) {
  const std::vector<char>& alive = g.job_alive[std::size_t(j)];
  if (std::find(alive.begin(), alive.end(), char(0)) == alive.end()) return true;
  const JobState& js = g.job[std::size_t(j)];
  for (std::size_t k = 0; k < alive.size(); ++k)
    if (!alive[k] && !js.gpu[k].on_spare) return false;
  return true;
}

bool blockEligible(const FacilityModel& m, State& st, double t0, double t1) {
  GpuLayerState& g = st.gl;
  if (!m.options.gpu_blocks || !g.blk_layout || m.ngpu == 0) return false;
  const FaultState& fs = st.faults;
  if (fs.fabric_faulted) return false;
  for (int j = 0; j < m.njob; ++j) {
    const TrainingJobSpec& spec = m.job_spec[std::size_t(j)];
    if (!g.job_fused[std::size_t(j)] || m.job_kind[j] != 0 || m.job_smoothing[j].enabled)
      return false;
    if (!fs.job_cap.empty() && fs.job_cap[std::size_t(j)] > 0) return false;
    if ((t0 < spec.start && spec.start < t1) || (t0 < spec.stop && spec.stop < t1)) return false;
    const JobState& js = g.job[std::size_t(j)];
    if (js.mode != 0 || js.interrupt) return false;
    // (a rank on a hot spare steps in blocks as it steps one by one: its GPU stays off)
    if (!ranksOk(g, j)) return false;
  }
  if (m.nair > 0) return false;
  if (!m.has_power) return true;
  const PowerLayerState& p = st.pl;
  const PowerChainParams& ps = m.power;
  const bool storage = std::any_of(m.rack_has_storage.begin(), m.rack_has_storage.end(),
                                   [](char c) { return c != 0; });
  if (!facilityFed(st) || storage) return false;
  std::vector<double>& bus_P = g.blk_bus_P;
  std::fill(bus_P.begin(), bus_P.end(), 0.0);
  const double sqrt3 = std::sqrt(3.0);
  const int ns = ps.shelves_per_rack;
  for (int r = 0; r < m.nrack; ++r) {
    if (!p.rack_powered[r]) continue;  // cut, latched: it draws nothing
    // (a heat-load profile has no bound here; an isolation or a lost shelf set cuts it next)
    if (!m.rack_resolved[r]) return false;
    if (!fs.rack_power_off.empty() && fs.rack_power_off[r]) return false;
    int working = 0;
    for (int k = 0; k < ns; ++k) working += p.shelf_brk[std::size_t(r) * ns + k].tripped ? 0 : 1;
    if (working == 0) return false;
    const int failed = fs.rack_psu_failed.empty() ? 0 : fs.rack_psu_failed[r];
    const double N = m.rack_mult[r];
    bool lost = false;
    // (the PSUs' input grows with their output)
    const double P_in =
        N * shelvesInputPower(ps.shelf, working, g.rack_P_dc_max[r] / N, failed, nullptr, &lost);
    if (lost) return false;
    if (ps.has_shelf_breaker) {
      const double I = P_in / (N * working) / (sqrt3 * ps.V_LL * ps.pf);
      for (int k = 0; k < ns; ++k) {
        const BreakerState& b = p.shelf_brk[std::size_t(r) * ns + k];
        if (!b.tripped && !breakerSafe(ps.shelf_breaker, I, b.theta)) return false;
      }
    }
    bus_P[std::size_t(m.rack_busway[r])] += P_in;
  }
  for (int k = 0; k < m.nsw; ++k)
    if (m.sw_busway[k] >= 0) bus_P[std::size_t(m.sw_busway[k])] += st.sig.sw_P[k];
  for (std::size_t b = 0; b < ps.busways.size(); ++b) {
    if (p.bus_brk[b].tripped) return false;
    const double I = buswayCurrent(ps.busways[b].params, bus_P[b], ps.V_LL);
    if (ps.busways[b].has_breaker && !breakerSafe(ps.busways[b].breaker, I, p.bus_brk[b].theta))
      return false;
  }
  return true;
}

// steps [s0, s1) of the window (t0, step dt, nstep steps) in one block. Each chunk runs its steps
// on (pass 1, finish, racks) until its part of its job may release the barrier (every GPU of the
// part waits after pass 1): it waits there. A job's chunks that wait behind the latest of them
// know that the job does not release before that step (that chunk had a GPU running), so they
// finish their steps up to it and wait there too. At the earliest step where a job's chunks all
// wait, the serial part of every step before it is replayed in step order from the block's rows
// (the jobs' sums, sumRacks, the power feed, the fast outputs), then that step's release and
// the rest of it, as a step of stepChunks; its chunks go on. Every chunk's steps and every serial
// step are the operations of the step-by-step path in its order, so the results are the same
// but for the order of the jobs' map sums in a step the context's hint (runs_on) would have
// finished in one pass (round-off), and the same for any thread count.
void runBlock(const FacilityModel& m, State& st, double t0, double dt, long s0, long s1, long nstep,
              WorkerPool* pool) {
  GpuLayerState& g = st.gl;
  const std::size_t nj = std::size_t(m.njob), na = g.job_runs.size();
  const std::size_t hs = std::size_t(m.nrack) * GpuLayerState::kRackHist;
  auto tOf = [&](long s) { return t0 + double(s) * dt; };
  auto refs = [&](long s) {
    const std::size_t i = std::size_t(s - s0);
    return StepRefs{g.blk_ctx.data() + i * nj, g.blk_parts.data() + i * na, s + 1 == nstep,
                    g.blk_rack.data() + i * hs,
                    s > s0 ? g.blk_parts.data() + (i - 1) * na : nullptr};
  };
  // 1. the jobs' contexts of every step: the first step's as stepJobs makes it; the later ones
  // without the last step's hint (runs_on), which the chunks cannot know
  stepJobs(m, st, tOf(s0), dt);
  for (long s = s0; s < s1; ++s) {
    JobStepCtx* c = refs(s).ctx;
    for (std::size_t j = 0; j < nj; ++j) {
      if (s == s0) {
        c[j] = g.job_ctx[j];
        continue;
      }
      c[j] = trainingStepBegin(m.job_spec[j], g.job[j], tOf(s), dt, g.job_io[j]);
      c[j].runs_on = false;
    }
  }
  std::fill(g.blk_cursor.begin(), g.blk_cursor.end(), int(s0));
  std::fill(g.blk_pending.begin(), g.blk_pending.end(), 0);
  std::fill(g.blk_norel.begin(), g.blk_norel.end(), int(s0));
  // 2. chunk k on from its cursor: its waiting step's finish where its job is known not to
  // release there, then its steps until it waits or the block ends
  auto advance = [&](int k) {
    const int j = g.chunk_job[std::size_t(k)];
    long c = g.blk_cursor[std::size_t(k)];
    if (g.blk_pending[std::size_t(k)]) {
      if (c >= g.blk_norel[std::size_t(j)]) return;
      finishChunk(m, st, k, tOf(c), dt, refs(c));
      g.blk_pending[std::size_t(k)] = 0;
      ++c;
    }
    for (; c < s1; ++c)
      if (stepChunk(m, st, k, tOf(c), dt, refs(c), j >= 0 && c < g.blk_norel[std::size_t(j)])) {
        g.blk_pending[std::size_t(k)] = 1;
        break;
      }
    g.blk_cursor[std::size_t(k)] = int(c);
  };
  // the serial part of step s without a release (as stepChunks, advanceGpuLayer)
  auto replay = [&](long s, bool merge1) {
    const StepRefs x = refs(s);
    if (merge1) mergeRuns1(g, x.ctx, x.parts);
    mergeRuns3(m, g, x.ctx, x.parts);
    for (int r = 0; r < m.nrack; ++r)
      blockRestore(m, st, r, x.hist + std::size_t(r) * GpuLayerState::kRackHist);
    finishStep(m, st, tOf(s), dt);
    g.blk_utility[std::size_t(s - s0)] = st.pl.P_utility;  // the meter at this step (fast rows)
  };
  long R = s0;  // the next step to replay
  for (;;) {
    forChunks(pool, g.nchunk, advance, false);
    // no job releases before the latest step any of its chunks reached
    for (int k = 0; k < g.nchunk; ++k) {
      const int j = g.chunk_job[std::size_t(k)];
      if (j >= 0)
        g.blk_norel[std::size_t(j)] =
            std::max(g.blk_norel[std::size_t(j)], g.blk_cursor[std::size_t(k)]);
    }
    forChunks(pool, g.nchunk, advance, false);
    long S = s1;
    for (std::size_t j = 0; j < nj; ++j) S = std::min(S, long(g.blk_norel[j]));
    for (; R < S; ++R) replay(R, true);
    if (S >= s1) break;
    // 3. step S, where every chunk of some job waits: its releases, then the rest of the step
    const StepRefs x = refs(S);
    mergeRuns1(g, x.ctx, x.parts);
    for (int j = 0; j < m.njob; ++j) releaseJob(m, g, j, x.ctx[j], pool);
    int nd = 0;
    for (int k = 0; k < g.nchunk; ++k)
      if (g.blk_pending[std::size_t(k)] && g.blk_cursor[std::size_t(k)] == S)
        g.deferred[std::size_t(nd++)] = k;
    forChunks(pool, nd, [&](int i) {
      const int k = g.deferred[std::size_t(i)];
      finishChunk(m, st, k, tOf(S), dt, x);
      g.blk_pending[std::size_t(k)] = 0;
      g.blk_cursor[std::size_t(k)] = int(S + 1);
    });
    for (std::size_t j = 0; j < nj; ++j)
      if (g.blk_norel[j] == S) g.blk_norel[j] = int(S + 1);
    replay(S, false);
    R = S + 1;
  }
  g.keep_Q = true;
}

}  // namespace

void advanceGpuLayer(const FacilityModel& m, State& st, const double* y, double t0, double t1,
                     FastCallback fast, void* user, WorkerPool* pool) {
  GpuLayerState& g = st.gl;
  const double window = t1 - t0;
  if ((m.ngpu == 0 && !m.has_power) || window <= 0) return;
  startWindow(m, st, y, pool);
  // uniform steps no longer than gpu_dt that end exactly at t1
  const long nstep = std::max(1L, long(std::ceil(window / m.gpu_dt - 1e-6)));
  const double dt = window / double(nstep);
  // the window as one block of steps where it may (docs/models/gpu_layer.md "Steps in blocks"):
  // where the bound does not show that no GPU can shut down in it (rackSafe), from a copy of the
  // layers that takes it back if one did (the copy is made, and allocated, at the first such
  // window of a run); the fast outputs once it stands, from the block's rows
  const bool safe = std::all_of(g.rack_safe.begin(), g.rack_safe.end(), [](char c) { return c; });
  if ((nstep <= g.blk_steps_max || safe) && blockEligible(m, st, t0, t1)) {
    if (!safe) {
      st.gl_undo = st.gl;
      st.pl_undo = st.pl;
    }
    const std::size_t hs = std::size_t(m.nrack) * GpuLayerState::kRackHist;
    bool died = false;
    for (long s0 = 0; s0 < nstep && !died;) {  // (several blocks only where safe)
      const long s1 = std::min(nstep, s0 + long(g.blk_steps_max));
      runBlock(m, st, t0, dt, s0, s1, nstep, pool);
      for (int j = 0; j < m.njob && !safe && !died; ++j) died = !ranksOk(g, j);
      for (long s = s0; s < s1 && fast && !died; ++s) {
        for (int r = 0; r < m.nrack; ++r)
          blockRestore(m, st, r,
                       g.blk_rack.data() + std::size_t(s - s0) * hs +
                           std::size_t(r) * GpuLayerState::kRackHist);
        // the power chain's feed at this step (the loop ends at the last step's, as the block)
        st.pl.P_utility = g.blk_utility[std::size_t(s - s0)];
        fast(user, m, st, t0 + double(s) * dt + dt);
      }
      s0 = s1;
    }
    if (!died) {
      ++g.blk_windows;
      g.blk_steps += nstep;
      windowMeans(m, g, window);
      return;
    }
    st.gl = st.gl_undo;  // a GPU shut down: the window step by step from its start
    st.pl = st.pl_undo;
    ++g.blk_undone;
  }
  for (long step = 0; step < nstep; ++step) {
    const double t = t0 + double(step) * dt;
    // each plate's heat to the coolant only at the window's last step, where the next window
    // starts from it (startWindow: a downstream plate's inlet), and the operating point's power
    // and reasons, which the outputs and detectors read at the window's end (GpuBlock)
    g.keep_Q = step + 1 == nstep;
    // 1. jobs
    stepJobs(m, st, t, dt);
    // 2. racks and the fused jobs' GPUs, in parallel chunks of about 16 racks
    stepChunks(m, st, t, dt, pool);
    // 3. sums over the racks, the facility side of the power chain
    finishStep(m, st, t, dt);
    if (fast) fast(user, m, st, t + dt);
  }
  windowMeans(m, g, window);
}

}  // namespace dctwin
