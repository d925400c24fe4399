// annual.cpp: the multi-rate annual mode (see annual.h, docs/models/annual.md)
#include "solver/engine/annual.h"

#include "solver/engine/engine.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dctwin {

namespace {

// the registry: what the fast layers add to at every fast step. A quantity missing here would
// stand still in the slow segments (its series would show it); one listed that is not an
// accumulator would drift.
struct Registry {
  AnnualState& a;
  int add(double& v) {
    a.acc.push_back(&v);
    return int(a.acc.size()) - 1;
  }
  int add(std::vector<double>& v) {
    const int off = int(a.acc.size());
    for (double& x : v) a.acc.push_back(&x);
    return off;
  }
  void count(long& v) { a.count.push_back(&v); }
};

// the supply header's end: the racks' inlet (K)
double rackInlet(const FacilityModel& m, const double* y, int r) {
  const int c = m.rack_cdu[r];
  return y[m.supSegAdr(c) + m.cdu_nseg_sup[c] - 1];
}

}  // namespace

void annualInit(const FacilityModel& m, State& st) {
  AnnualState& a = st.annual;
  a = AnnualState{};
  Registry reg{a};
  // the GPU layer: per group, per job, per rack, totals
  GpuLayerState& g = st.gl;
  reg.add(g.grp.P_sum);
  reg.add(g.grp.throttled_time);
  reg.add(g.grp.filler_energy);
  reg.add(g.job_throttled);
  reg.add(g.job_capped);
  reg.add(g.capped_total);
  for (auto* v : {&g.rack_iv_capped, &g.rack_iv_slowdown, &g.rack_iv_thermal, &g.rack_iv_brake,
                  &g.rack_iv_throttled})
    reg.add(*v);
  reg.add(g.interval_time);
  reg.add(g.E_electric);
  reg.add(g.E_to_coolant);
  // the jobs: iterations and their time, waits, stalls, the bottleneck maps; their clocks
  for (std::size_t jx = 0; jx < g.job.size(); ++jx) {
    JobState& j = g.job[jx];
    a.job_tmap_off.push_back(j.time_map.empty() ? -1 : int(a.acc.size()));
    reg.add(j.time_map);
    // the maps at the last checkpoint are levels (a failure moves the map's growth since them to
    // lost work), set where the slow segment's checkpoints fall
    if (j.time_ckpt.size() == j.time_map.size())
      for (std::size_t k = 0; k < j.time_map.size(); ++k) {
        a.follow_acc.emplace_back(&j.time_ckpt[k], &j.time_map[k]);
        a.follow_acc_job.push_back(int(jx));
      }
    // the job-level map the outputs read (its per-GPU form above is kept only for small jobs);
    // the barrier-wait attribution is booked at each release from the map's growth since the
    // last one, so the slow segments' waits are attributed at the first release after them
    a.job_map_off.push_back(int(a.acc.size()));
    for (double& x : j.map_sum) reg.add(x);
    for (int k = 0; k < kTimeCats; ++k) {
      a.follow_acc.emplace_back(&j.map_sum_ckpt[k], &j.map_sum[k]);
      a.follow_acc_job.push_back(int(jx));
    }
    a.job_iter_time_off.push_back(reg.add(j.sum_iteration_time));
    reg.add(j.stalled_time);
    reg.add(j.lost_iterations);
    for (GpuProgress& p : j.gpu) reg.add(p.wait_time);
    a.job_iter_count.push_back(int(a.count.size()));
    reg.count(j.iterations);
    a.job_ckpt_count.push_back(int(a.count.size()));
    reg.count(j.checkpoints);
    // a level, set to the iterations at each checkpoint, not a rate: summed as a counter it
    // would grow by every iteration since the last checkpoint, window after window
    a.follow.emplace_back(&j.iterations_at_checkpoint, &j.iterations);
    a.follow_job.push_back(int(jx));
    a.shift.push_back(&j.t_last_iteration_end);
    a.shift.push_back(&j.t_last_checkpoint_end);
  }
  // the power chain: cumulative and interval energies
  PowerLayerState& p = st.pl;
  for (double* v : {&p.E_it, &p.E_psu, &p.E_bus, &p.E_ups, &p.E_tx, &p.E_utility, &p.E_battery,
                    &p.E_storage_drawn, &p.iv_storage, &p.E_bess_loss})
    reg.add(*v);
  a.off_iv_time = reg.add(p.iv_time);
  a.off_utility = reg.add(p.iv_utility);
  a.off_bess = reg.add(p.iv_bess);
  a.off_bess_loss = reg.add(p.iv_bess_loss);
  a.off_ups_in = reg.add(p.iv_ups_in);
  a.off_ups_out = reg.add(p.iv_ups_out);
  a.off_ups_loss = reg.add(p.iv_ups_loss);
  a.off_air_it = reg.add(p.iv_air_it);
  a.off_rack_P_in = reg.add(p.iv_rack_P_in);
  a.off_rack_psu_loss = reg.add(p.iv_rack_psu_loss);
  a.off_bus_loss = reg.add(p.iv_bus_loss);
  a.acc_before.assign(a.acc.size(), 0.0);
  a.acc_sum.assign(a.acc.size(), 0.0);
  a.count_before.assign(a.count.size(), 0.0);
  a.count_sum.assign(a.count.size(), 0.0);
  a.count_carry.assign(a.count.size(), 0.0);
  a.count_scale.assign(a.count.size(), 1.0);
  a.job_iter_scale.assign(g.job.size(), 1.0);
  a.job_share.assign(g.job.size(), -1.0);
  a.follow_before.assign(a.follow.size(), 0);
  a.follow_acc_before.assign(a.follow_acc.size(), 0.0);
  a.job_phi.assign(g.job.size(), -1.0);
  a.job_ckpt_own.assign(g.job.size(), 0.0);
  for (auto* v : {&a.E_Q_liquid, &a.E_P, &a.E_Q_air, &a.T_in_ref}) v->assign(m.nrack, 0.0);
  a.Tj_max.assign(m.ngroup, 0.0);
  a.Thbm_max.assign(m.ngroup, 0.0);
  for (int j = 0; j < m.njob; ++j) {
    if (m.job_kind[j] != 0) continue;  // inference and traces have no start/stop
    a.job_times.push_back(m.job_spec[j].start);
    if (std::isfinite(m.job_spec[j].stop)) a.job_times.push_back(m.job_spec[j].stop);
  }
  std::sort(a.job_times.begin(), a.job_times.end());
}

namespace {

double nextJobTime(const AnnualState& a, double t) {
  auto it = std::upper_bound(a.job_times.begin(), a.job_times.end(), t + 1e-9);
  return it == a.job_times.end() ? std::numeric_limits<double>::infinity() : *it;
}

}  // namespace

void annualBeginWindow(const FacilityModel& m, State& st, double t) {
  AnnualState& a = st.annual;
  a.slow = false;
  a.window_start = t;
  // after the start of the run or a job's start or stop, the transients (the coolant heating up,
  // the GPUs' first throttling as the job's power steps up) settle at full resolution before the
  // window's means are taken
  const bool at_job_time = std::any_of(a.job_times.begin(), a.job_times.end(),
                                       [t](double tj) { return std::abs(tj - t) < 1e-6; });
  // a failure or repair of the failure process (docs/models/failures.md) due now: the restart
  // and the jobs' recovery run at full resolution, and the window's means are taken after them;
  // a window never straddles the next one
  const double t_fail = nextFailureEvent(m, st);
  const bool at_failure = std::abs(t_fail - t) < 1e-6;
  const bool settle = a.windows == 0 || at_job_time || at_failure;
  a.measure_from = t + (settle ? m.options.annual.settle : 0.0);
  a.window_end = std::min(a.measure_from + m.options.annual.window, nextJobTime(a, t));
  a.window_time = 0;
  std::fill(a.acc_sum.begin(), a.acc_sum.end(), 0.0);
  std::fill(a.count_sum.begin(), a.count_sum.end(), 0.0);
  for (auto* v : {&a.E_Q_liquid, &a.E_P, &a.E_Q_air}) std::fill(v->begin(), v->end(), 0.0);
  // the window's maxima start here (the output row that began in the slow segment before keeps
  // only the window's part: the held maxima were the last window's anyway)
  GpuLayerState::Groups& G = st.gl.grp;
  std::copy(G.T_j.begin(), G.T_j.end(), a.Tj_max.begin());
  std::copy(G.T_hbm.begin(), G.T_hbm.end(), a.Thbm_max.begin());
  std::copy(G.T_j.begin(), G.T_j.end(), G.Tj_max.begin());
  std::copy(G.T_hbm.begin(), G.T_hbm.end(), G.Thbm_max.begin());
  // the plant steps on its own clock again from here
  if (m.has_plant) st.plant.next = std::min(st.plant.next, t + m.plant.step);
  ++a.windows;
}

void annualBeforeGpu(State& st) {
  AnnualState& a = st.annual;
  for (std::size_t k = 0; k < a.acc.size(); ++k) a.acc_before[k] = *a.acc[k];
  for (std::size_t k = 0; k < a.count.size(); ++k) a.count_before[k] = double(*a.count[k]);
}

void annualAfterGpu(const FacilityModel& m, State& st, double t0, double t1) {
  AnnualState& a = st.annual;
  const double dt = t1 - t0;
  a.window_seconds += dt;
  if (t0 < a.measure_from - 1e-9) return;  // still settling
  for (std::size_t k = 0; k < a.acc.size(); ++k) a.acc_sum[k] += *a.acc[k] - a.acc_before[k];
  for (std::size_t k = 0; k < a.count.size(); ++k)
    a.count_sum[k] += double(*a.count[k]) - a.count_before[k];
  const GpuLayerState& g = st.gl;
  for (int r = 0; r < m.nrack; ++r) {
    a.E_Q_liquid[r] += g.rack_Q_liquid[r] * dt;
    a.E_P[r] += g.rack_P[r] * dt;
    a.E_Q_air[r] += g.rack_Q_air[r] * dt;
  }
  const GpuLayerState::Groups& G = g.grp;
  for (int q = 0; q < m.ngroup; ++q) {
    a.Tj_max[q] = std::max(a.Tj_max[q], G.Tj_max[q]);
    a.Thbm_max[q] = std::max(a.Thbm_max[q], G.Thbm_max[q]);
  }
  a.window_time += dt;
}

void annualBeginSlow(const FacilityModel& m, State& st, double t, const double* y) {
  AnnualState& a = st.annual;
  a.slow = true;
  const double w = a.window_time;
  if (!(w > 0)) return;
  // the coolant's heat and power: the window's means (energies over the window, not powers)
  GpuLayerState& g = st.gl;
  for (int r = 0; r < m.nrack; ++r) {
    g.rack_Q_liquid[r] = a.E_Q_liquid[r] / w;
    g.rack_P[r] = a.E_P[r] / w;
    g.rack_Q_air[r] = a.E_Q_air[r] / w;
    a.T_in_ref[r] = rackInlet(m, y, r);
  }
  // the power chain's instants, which the plant and the outputs read: the window's means
  if (m.has_power) {
    PowerLayerState& p = st.pl;
    const double* s = a.acc_sum.data();
    for (int r = 0; r < m.nrack; ++r) {
      p.rack_P_in[r] = s[a.off_rack_P_in + r] / w;
      p.rack_psu_loss[r] = s[a.off_rack_psu_loss + r] / w;
    }
    for (std::size_t b = 0; b < p.bus_loss.size(); ++b) p.bus_loss[b] = s[a.off_bus_loss + b] / w;
    p.P_utility = s[a.off_utility] / w;
    p.P_bess = s[a.off_bess] / w;  // the site battery's window means
    p.P_bess_loss = s[a.off_bess_loss] / w;
    p.P_ups_in = s[a.off_ups_in] / w;
    p.P_ups_out = s[a.off_ups_out] / w;
    p.P_ups_loss = s[a.off_ups_loss] / w;
    p.P_air_it = s[a.off_air_it] / w;
  }
  // the jobs' checkpoint cycles in their own time start from the window's last checkpoints
  for (std::size_t j = 0; j < a.job_ckpt_own.size(); ++j)
    a.job_ckpt_own[j] = g.job[j].t_last_checkpoint_end;
  a.T_supply_ref = fwsSupplyTemperature(m, st, t);
  a.T_wb_ref = m.has_plant ? m.weather.at(m.plant_start + t).T_wb : 0.0;
}

namespace {

// the share of a slow segment [t0, t1] that job j spends writing checkpoints: the blocking write
// d of each cycle of interval + d + half an iteration (a checkpoint waits for the first iteration
// end past its interval), the window's mean iteration; -1 where nothing is to be moved (no
// checkpoints, not a running training job over the whole segment, or no iteration measured)
double checkpointShare(const FacilityModel& m, const State& st, int j, double t0, double t1) {
  const TrainingJobSpec& js = m.job_spec[j];
  const JobState& J = st.gl.job[j];
  const AnnualState& a = st.annual;
  if (m.job_kind[j] != 0 || !(js.checkpoint_interval > 0) || !(js.checkpoint_duration > 0))
    return -1;
  if (J.mode != 0 || t0 < js.start || t1 > js.stop) return -1;
  const double n = a.count_sum[std::size_t(a.job_iter_count[std::size_t(j)])];
  const double T = a.acc_sum[std::size_t(a.job_iter_time_off[std::size_t(j)])];
  if (!(n > 0) || !(T > 0)) return -1;
  return js.checkpoint_duration / (js.checkpoint_interval + js.checkpoint_duration + 0.5 * T / n);
}

}  // namespace

void annualSlowAdvance(const FacilityModel& m, State& st, double t0, double t1) {
  AnnualState& a = st.annual;
  const double dt = t1 - t0;
  if (!(dt > 0) || !(a.window_time > 0)) return;
  const double f = dt / a.window_time;
  // the jobs' checkpoint cycles in their own time, for the work a failure loses: a job that
  // reaches its checkpoint interval inside the segment took its last checkpoint phi before t1
  // (phi: the time past the last whole cycle), else it is further from its last one. The clock
  // that schedules the next checkpoint moves with the segment instead (a.shift), so that
  // successive windows sample the cycle; without this one every failure after a segment would
  // lose the share of the cycle the last window ended at.
  for (std::size_t j = 0; j < a.job_phi.size(); ++j) {
    a.job_phi[j] = -1.0;
    const TrainingJobSpec& js = m.job_spec[j];
    JobState& J = st.gl.job[j];
    const double C = js.checkpoint_interval + js.checkpoint_duration;
    if (m.job_kind[int(j)] != 0 || !(js.checkpoint_interval > 0) || J.mode != 0) continue;
    if (t1 <= js.start || t0 >= js.stop) continue;
    const double phi1 = t1 - a.job_ckpt_own[j];
    if (phi1 < C) continue;
    a.job_phi[j] = std::fmod(phi1, C);
    a.job_ckpt_own[j] = t1 - a.job_phi[j];
  }
  for (std::size_t k = 0; k < a.follow_acc.size(); ++k)
    a.follow_acc_before[k] = *a.follow_acc[k].second;
  for (std::size_t k = 0; k < a.acc.size(); ++k) *a.acc[k] += a.acc_sum[k] * f;
  // a window that saw a checkpoint (or none) would give the whole segment its share of
  // checkpoint time: each job's maps and iterations are moved to the share of its cycle instead
  std::vector<double>& iter_scale = a.job_iter_scale;
  for (std::size_t j = 0; j < a.job_map_off.size(); ++j) {
    iter_scale[j] = 1.0;
    const double s_c = a.job_share[j] = checkpointShare(m, st, int(j), t0, t1);
    if (s_c < 0) continue;
    const auto rescale = [&](int off, std::size_t stride) {
      double tot = 0;
      for (int c = 0; c < kTimeCats; ++c) tot += a.acc_sum[std::size_t(off) + c * stride];
      const double ck = a.acc_sum[std::size_t(off) + kTimeCheckpoint * stride];
      if (!(tot > 0) || !(tot - ck > 0)) return 1.0;
      const double k_other = (1 - s_c) * tot / (tot - ck);
      for (int c = 0; c < kTimeCats; ++c) {
        const std::size_t i = std::size_t(off) + c * stride;
        *a.acc[i] += (c == kTimeCheckpoint ? s_c * tot - ck : (k_other - 1) * a.acc_sum[i]) * f;
      }
      return k_other;
    };
    iter_scale[j] = rescale(a.job_map_off[j], 1);
    if (a.job_tmap_off[j] >= 0) {
      const std::size_t n = st.gl.job[j].gpu.size();
      for (std::size_t g = 0; g < n; ++g) rescale(a.job_tmap_off[j] + int(g), n);
    }
  }
  // the levels at the last checkpoint: the counter's value phi earlier at the segment's rate
  for (std::size_t k = 0; k < a.follow_acc.size(); ++k) {
    const double phi = a.job_phi[std::size_t(a.follow_acc_job[k])];
    if (phi < 0) continue;
    const double now = *a.follow_acc[k].second;
    *a.follow_acc[k].first = now - (now - a.follow_acc_before[k]) / dt * phi;
  }
  for (std::size_t k = 0; k < a.follow.size(); ++k) a.follow_before[k] = *a.follow[k].second;
  // counters: whole counts, the fractions carried (deterministic: no rounding of a sum)
  // iterations in the segment's time outside checkpoints; checkpoints as the cycle gives them
  std::fill(a.count_scale.begin(), a.count_scale.end(), 1.0);
  for (std::size_t j = 0; j < a.job_iter_count.size(); ++j) {
    if (a.job_share[j] < 0) continue;
    a.count_scale[std::size_t(a.job_iter_count[j])] = iter_scale[j];
    const std::size_t kc = std::size_t(a.job_ckpt_count[j]);
    a.count_scale[kc] = 0.0;
    a.count_carry[kc] += a.job_share[j] * dt / m.job_spec[j].checkpoint_duration;
  }
  for (std::size_t k = 0; k < a.count.size(); ++k) {
    a.count_carry[k] += a.count_sum[k] * f * a.count_scale[k];
    const double whole = std::floor(a.count_carry[k]);
    *a.count[k] += long(whole);
    a.count_carry[k] -= whole;
  }
  for (std::size_t k = 0; k < a.follow.size(); ++k) {
    const double phi = a.job_phi[std::size_t(a.follow_job[k])];
    if (phi < 0) continue;
    const long now = *a.follow[k].second;
    const double rate = double(now - a.follow_before[k]) / dt;
    *a.follow[k].first = std::max(*a.follow[k].first, now - std::lround(rate * phi));
  }
  for (double* v : a.shift) *v += dt;
  a.slow_seconds += dt;
}

bool annualRefreshDue(const FacilityModel& m, const State& st, double t, bool at_break) {
  const AnnualState& a = st.annual;
  const AnnualParams& p = m.options.annual;
  if (at_break || t >= a.window_start + p.period - 1e-9) return true;
  if (!a.job_times.empty() && nextJobTime(a, a.window_start) <= t + 1e-9) return true;
  if (nextFailureEvent(m, st) <= t + 1e-9) return true;
  if (std::abs(fwsSupplyTemperature(m, st, t) - a.T_supply_ref) > p.dT_supply) return true;
  if (m.has_plant && std::abs(m.weather.at(m.plant_start + t).T_wb - a.T_wb_ref) > p.dT_wet_bulb)
    return true;
  return false;
}

double annualNextStop(const FacilityModel& m, const State& st, double t) {
  const AnnualState& a = st.annual;
  if (!a.slow)
    return std::min(t < a.measure_from - 1e-9 ? a.measure_from : a.window_end,
                    nextFailureEvent(m, st));
  (void)t;
  return std::min({a.window_start + m.options.annual.period, nextJobTime(a, a.window_start),
                   nextFailureEvent(m, st)});
}

void annualHoldMaxima(const FacilityModel& m, State& st, const double* y) {
  const AnnualState& a = st.annual;
  GpuLayerState::Groups& G = st.gl.grp;
  for (int r = 0; r < m.nrack; ++r) {
    if (!m.rack_resolved[r]) continue;
    const double dT = rackInlet(m, y, r) - a.T_in_ref[r];
    for (int q = m.rack_groupadr[r]; q < m.rack_groupadr[r] + m.rack_groupnum[r]; ++q) {
      G.Tj_max[q] = a.Tj_max[q] + dT;
      G.Thbm_max[q] = a.Thbm_max[q] + dT;
    }
  }
}

double annualPlantStep(const FacilityModel& m, const State& st) {
  return st.annual.slow ? std::max(m.plant.step, m.options.annual.slow_step) : m.plant.step;
}

}  // namespace dctwin
