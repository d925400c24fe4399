// observables.cpp: the output table's rows (observables.h) and how each is computed from a run's
// state (observe.h)
#include "solver/output/observables.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>

#include "solver/common/parallel.h"
#include "solver/engine/engine.h"
#include "solver/output/observe.h"

namespace dctwin {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double RunLayout::jobModel(int job, JobCol c) const {
  const std::size_t k = std::size_t(job) * kJobModelCount + std::size_t(c);
  return job >= 0 && k < job_model.size() ? job_model[k] : kNaN;
}

bool RunLayout::jobDescribed(int job) const {
  return jobModel(job, JobCol::StepTime) > 0;
}

std::size_t RunLayout::width(Shape s) const {
  switch (s) {
    case Shape::Facility:
      return 0;
    case Shape::Cdu:
      return std::size_t(ncdu);
    case Shape::Rack:
      return std::size_t(nrack);
    case Shape::Gpu:
      return std::size_t(ngpu);
    case Shape::Job:
      return std::size_t(njob);
    case Shape::Busway:
      return std::size_t(nbusway);
    case Shape::AirRack:
      return std::size_t(nair);
    case Shape::SwitchRack:
      return std::size_t(nsw);
  }
  return 0;
}

bool RunLayout::has(Needs n) const {
  switch (n) {
    case Needs::Always:
      return true;
    case Needs::Gpus:
      return ngpu > 0;
    case Needs::Jobs:
      return njob > 0;
    case Needs::Power:
      return has_power;
    case Needs::Room:
      return has_room;
    case Needs::AirHandlers:
      return has_air_handlers;
    case Needs::AirRacks:
      return nair > 0;
    case Needs::SwitchRacks:
      return nsw > 0;
    case Needs::Plant:
      return has_plant;
    case Needs::GpusPower:
      return ngpu > 0 && has_power;
    case Needs::Halls:
      return std::any_of(rack_hall.begin(), rack_hall.end(),
                         [](const std::string& h) { return !h.empty(); });
  }
  return false;
}

bool layoutPresent(const LayoutInfo& row, const RunLayout& L) {
  return L.has(row.needs);
}

FrameLayout FrameLayout::make(const RunLayout& L) {
  FrameLayout f;
  f.offset.assign(kObservableCount, -1);
  f.width.assign(kObservableCount, 0);
  for (const ObservableInfo& o : observableTable()) {
    if (!L.has(o.needs)) continue;
    const int w = std::max<int>(1, int(L.width(o.shape)));
    std::size_t& n = o.rate == Rate::Fast ? f.fast_size : f.size;
    f.offset[int(o.id)] = int(n);
    f.width[int(o.id)] = w;
    n += std::size_t(w);
  }
  return f;
}

//---------------------------------------------------------------------------------------------
RunLayout describeModel(const FacilityModel& m) {
  RunLayout L;
  L.name = m.name;
  L.facility_text = m.facility_text;
  L.solver.rtol = m.options.rtol;
  L.solver.atol_T = m.options.atol_T;
  L.solver.atol_ctrl = m.options.atol_ctrl;
  L.solver.max_step = m.options.max_step;
  L.solver.output_interval = m.options.output_interval;
  L.solver.gpu_step = m.gpu_dt;
  L.solver.coupling_step = m.coupling_dt;
  L.solver.annual = m.options.annual;
  L.ncdu = m.ncdu;
  L.nrack = m.nrack;
  L.nstate = m.nstate;
  L.ngpu = m.ngpu;
  L.njob = m.njob;
  L.ngroup = m.ngroup;
  L.threads = std::max(1, m.options.threads);
  L.nbusway = m.has_power ? int(m.busway_name.size()) : 0;
  L.nleak = int(m.leaks.size());
  L.has_power = m.has_power;
  L.grid = m.grid;
  L.has_room = m.room_state >= 0;
  L.has_air_handlers = m.ah_state >= 0;
  L.has_plant = m.has_plant;
  L.plant_towers = m.has_plant && m.plant.rejection == PlantParams::Rejection::Tower;
  L.currency = m.currency;
  L.year_start = m.has_plant ? m.plant_start : 0.0;
  if (m.has_plant) L.utc_offset = m.weather.utc_offset;
  L.annual = m.options.annual.enabled;
  L.cdu_name = m.cdu_name;
  L.rack_name = m.rack_name;
  L.rack_row = m.rack_row;
  L.rack_hall = m.rack_hall;
  L.rack_type = m.rack_type;
  L.job_name = m.job_name;
  L.busway_name = m.busway_name;
  L.nair = m.nair;
  L.air_name = m.air_name;
  L.air_row = m.air_row;
  L.air_index = m.air_index;
  L.nsw = m.nsw;
  L.sw_name = m.sw_name;
  L.rack_index = m.rack_index;
  L.rack_cdu = m.rack_cdu;
  if (m.has_power && m.rack_busway.size() == m.rack_name.size())
    L.rack_busway = m.rack_busway;
  else
    L.rack_busway.assign(m.nrack, -1);
  L.rack_resolved = m.rack_resolved;
  L.rack_gpuadr = m.rack_gpuadr;
  L.rack_gpunum = m.rack_gpunum;
  L.rack_tray_gpus = m.rack_tray_gpus;
  L.rack_design_flow = m.rack_design_flow;
  L.gpu_rack = m.gpu_rack;
  L.gpu_slot = m.gpu_slot;
  L.gpu_job = m.gpu_job;
  L.gpu_tray.resize(m.ngpu);
  L.gpu_type.resize(m.ngpu);
  L.gpu_T_hbm_max.resize(m.ngpu);
  L.gpu_T_slowdown.resize(m.ngpu);
  for (int i = 0; i < m.ngpu; ++i) {
    L.gpu_tray[i] = m.gpu_slot[i] / std::max(1, m.rack_tray_gpus[m.gpu_rack[i]]);
    const GpuParams& p = m.gpu_types[m.gpu_type[i]];
    L.gpu_type[i] = p.name;
    L.gpu_T_hbm_max[i] = p.T_hbm_max;
    L.gpu_T_slowdown[i] = p.T_slowdown;
  }
  L.job_kind = m.job_kind;
  L.job_gpus.resize(m.njob);
  for (int j = 0; j < m.njob; ++j) L.job_gpus[j] = int(m.job_gpus[j].size());
  // the step model of each described job (models/job_model.h), as it computed it
  L.job_model.assign(std::size_t(m.njob) * kJobModelCount, kNaN);
  for (int j = 0; j < m.njob && j < int(m.job_described.size()); ++j) {
    const DescribedJob& d = m.job_described[j];
    if (!(d.step_time > 0)) continue;
    double* row = L.job_model.data() + std::size_t(j) * kJobModelCount;
    auto set = [&](JobCol c, double v) { row[int(c)] = v; };
    set(JobCol::StepTime, d.step_time);
    set(JobCol::TokensPerSecond, d.tokens_per_second);
    set(JobCol::Mfu, d.mfu);
    set(JobCol::Flops, d.flops);
    set(JobCol::Parameters, d.parameters);
    set(JobCol::ActiveParameters, d.active_parameters);
    set(JobCol::MemoryPerGpu, d.memory_per_gpu);
    set(JobCol::MemoryWeights, d.mem_weights);
    set(JobCol::MemoryGradients, d.mem_gradients);
    set(JobCol::MemoryOptimizer, d.mem_optimizer);
    set(JobCol::MemoryActivations, d.mem_activations);
    if (!m.job_gpus[j].empty())
      set(JobCol::HbmCapacity, m.gpu_types[m.gpu_type[m.job_gpus[j].front()]].hbm_capacity);
    set(JobCol::MicroBatches, d.micro_batches);
    set(JobCol::DataParallel, d.dp);
    using R = ModelWorkloadSpec::Recompute;
    set(JobCol::Recompute, d.recompute == R::Full ? 2.0 : d.recompute == R::Selective ? 1.0 : 0.0);
  }
  return L;
}

//---------------------------------------------------------------------------------------------
// how each row of the table is computed. Every case writes width(id) values at out; the switch
// covers every Obs (a missing one is a -Wswitch error in the strict build).
namespace {

struct Ctx {
  const FacilityModel& m;
  const State& st;
  const double* y;
  double t;
  const EnergyTotals& e;
};

double rho(const FacilityModel& m, int c) {
  return m.fluids[m.cdu_fluid[c]].rho_ref();
}

// over the GPUs of rack r: fold fn(i) with combine from init; NaN for a rack without GPUs
template <class F, class C>
double overRack(const FacilityModel& m, int r, F fn, C combine, double init) {
  if (m.rack_gpunum[r] == 0) return kNaN;
  double v = init;
  for (int q = 0; q < m.rack_gpunum[r]; ++q) v = combine(v, fn(m.rack_gpuadr[r] + q));
  return v;
}

// a rack's power at the fast step t: resolved racks' last step; a heat-load rack's profile
// while it has power, 0 once powered off (as /rack/P)
double fastRackPower(const FacilityModel& m, const State& st, int r, double t) {
  if (m.rack_resolved[r]) return st.gl.rack_P_now[r];
  const bool off = (m.has_power && !st.pl.rack_powered.empty() && !st.pl.rack_powered[r]) ||
                   (!st.faults.rack_power_off.empty() && st.faults.rack_power_off[r]);
  return off ? 0.0 : m.rack_load[r].eval(t);
}

//--- GPU-to-GPU spread (docs/models/gpu_variation.md) ------------------------------------------

// the q-quantile of v (linear interpolation between order statistics, as numpy's default); v is
// reordered; NaN when empty
double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return kNaN;
  const double pos = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(pos);
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(lo), v.end());
  const double a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + std::ptrdiff_t(lo) + 1, v.end());
  return a + (pos - double(lo)) * (b - a);
}

// fn(i) over the GPUs of rack r (all resolved GPUs: r < 0)
template <class F>
std::vector<double> gpuValues(const FacilityModel& m, int r, F fn) {
  std::vector<double> v;
  const int i0 = r < 0 ? 0 : m.rack_gpuadr[r], n = r < 0 ? m.ngpu : m.rack_gpunum[r];
  v.reserve(std::size_t(std::max(n, 0)));
  for (int i = i0; i < i0 + n; ++i) v.push_back(fn(i));
  return v;
}

double spreadOf(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo;
}

double meanOf(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

// what most raises GPU i's junction above the facility's typical GPU (docs/models/gpu_variation.md
// "Hot-GPU cause"): with T_j ~ T_in + P R_cp + (P - P_hbm) R_jc, the four terms against the mean
// inlet, the mean plate resistance, the mean power and the type's R_jc
int hotCause(const FacilityModel& m, const GpuLayerState& gl, int i, double T_in_mean,
             double R_cp_mean, double P_mean) {
  const GpuParams& type = m.gpu_types[m.gpu_type[i]];
  const GpuParams& p = m.group_params[m.gpu_group[i]];
  const double P = gl.op[i].P, P_die = P - gl.op[i].P_hbm;
  // the plate's own inlet and resistance at its own flow (docs/models/flow_distribution.md)
  const double R_cp = gl.gpu_R_path[i] * m.gpu_R_factor[i];
  const double terms[4] = {gl.gpu_T_in[i] - T_in_mean, P * (R_cp - R_cp_mean),
                           (P - P_mean) * (R_cp_mean + type.R_jc), P_die * (p.R_jc - type.R_jc)};
  return int(std::max_element(terms, terms + 4) - terms);
}

// the GPUs of each job (its groups' sizes)
std::vector<double> jobGpuCounts(const FacilityModel& m) {
  std::vector<double> n(m.job_groups.size(), 0.0);
  for (std::size_t j = 0; j < n.size(); ++j)
    for (int q : m.job_groups[j]) n[j] += m.group_gpunum[std::size_t(q)];
  return n;
}

// GPU i's barrier wait (its job's progress record); 0 without a training job
double gpuWaitTime(const FacilityModel& m, const GpuLayerState& gl, int i) {
  const int j = m.gpu_job[i];
  if (j < 0 || m.job_kind[j] != 0 || j >= int(gl.job.size())) return 0.0;
  return gl.job[j].gpu[std::size_t(m.group_jobslot[m.gpu_group[i]])].wait_time;
}

// GPU i's entry of its training job's per-GPU map (docs/models/job.md, "maps per GPU and rack"):
// caused false: its own lost time (the loss categories); true: the barrier wait it caused as the
// straggler, GPU-seconds of the others per GPU of the job, its group's share split evenly over the
// group's GPUs. 0 without a training job, NaN where the job keeps no per-GPU map
double gpuMapEntry(const FacilityModel& m, const GpuLayerState& gl, int i, bool caused,
                   const std::vector<double>& job_gpus) {
  const int j = m.gpu_job[i];
  if (j < 0 || m.job_kind[j] != 0 || j >= int(gl.job.size())) return 0.0;
  const JobState& js = gl.job[std::size_t(j)];
  if (!js.per_gpu_map) return kNaN;
  const int q = m.gpu_group[i];
  const std::size_t k = std::size_t(m.group_jobslot[q]);
  if (caused) {
    const double n_job = job_gpus[std::size_t(j)];
    return n_job > 0 ? js.caused[k] / n_job / double(m.group_gpunum[q]) : 0.0;
  }
  const GpuMap<const double> tm = js.time(k);
  double lost = 0;
  for (int c = kLossFirst; c <= kLossLast; ++c) lost += tm[c];
  return lost;
}

void evalOne(Obs id, const Ctx& c, double* out) {
  const FacilityModel& m = c.m;
  const State& st = c.st;
  const Signals& g = st.sig;
  const GpuLayerState& gl = st.gl;
  const PowerLayerState& pl = st.pl;
  const double* y = c.y;
  const EnergyTotals& e = c.e;
  const int nr = m.nrack, nc = m.ncdu, ng = m.ngpu, nj = m.njob;
  const int nb = int(m.busway_name.size());
  auto each = [out](int n, auto fn) {
    for (int i = 0; i < n; ++i) out[i] = fn(i);
  };
  auto one = [out](double v) { out[0] = v; };
  auto training = [&](int j) { return m.job_kind[j] == 0; };
  auto P_it_ac = [&] {  // IT = rack AC input (as metered)
    double P = 0;
    for (int r = 0; r < nr; ++r) P += pl.rack_P_in[r];
    return P + pl.P_air_it + pl.P_sw_it;  // + air-cooled racks, switch racks
  };
  // cooling power drawn besides the plant: CDU pumps and the air handlers' fans and chiller
  auto P_pumps = [&] {
    double P = g.ah_P_fan + g.ah_P_chiller;
    for (int k = 0; k < nc; ++k) P += g.P_pump[k];
    return P;
  };
  // interval means of the power chain: energy over the output interval / its length; the row at
  // t = 0 (no interval yet) holds the instant
  auto ivMean = [&](double energy, double now) {
    return pl.iv_time > 0 ? energy / pl.iv_time : now;
  };
  auto P_pumps_mean = [&] {
    const double span = c.t - pl.t_row;
    return span > 0 ? (e.pump_electric + e.ah_fans + e.ah_chiller - pl.E_pump_row) / span
                    : P_pumps();
  };
  auto P_it_ac_mean = [&] {
    if (!(pl.iv_time > 0)) return P_it_ac();
    double E = 0;
    for (int r = 0; r < nr; ++r) E += pl.iv_rack_P_in[r];
    return (E + pl.iv_air_it + pl.iv_sw_it) / pl.iv_time;  // + air racks, switch racks
  };
  auto P_total_mean = [&] { return ivMean(pl.iv_utility, pl.P_utility) + P_pumps_mean(); };
  // fraction of rack r's GPU-time in the output interval spent with a throttle reason
  auto rackShare = [&](const std::vector<double>& gpu_seconds, int r) {
    if (m.rack_gpunum[r] == 0) return kNaN;
    const double span = gl.interval_time * m.rack_gpunum[r];
    return span > 0 ? gpu_seconds[r] / span : 0.0;
  };
  switch (id) {
    case Obs::Time:
      return one(c.t);
    case Obs::RackTSupply:
      return each(nr, [&](int r) {
        const int k = m.rack_cdu[r];
        return y[m.supSegAdr(k) + m.cdu_nseg_sup[k] - 1];
      });
    case Obs::RackTReturn:
      return each(nr, [&](int r) { return y[m.rackAdr(r)]; });
    case Obs::RackTCase:  // resolved GPUs have their own plates: the rack node means nothing
      return each(nr, [&](int r) { return m.rack_resolved[r] ? kNaN : y[m.rackAdr(r) + 1]; });
    case Obs::RackVFlow:
      return each(nr, [&](int r) { return g.m_rack[r] / rho(m, m.rack_cdu[r]); });
    case Obs::RackDp:
      return each(nr, [&](int r) { return g.dp_rack[r]; });
    case Obs::RackQLiquid:
      return each(nr, [&](int r) { return g.Q_liquid[r]; });
    case Obs::RackQAir:
      return each(nr, [&](int r) { return g.Q_air[r]; });
    case Obs::RackP:
      return each(nr, [&](int r) { return g.P_rack[r]; });
    case Obs::CduTSecSupply:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kTHexSec)]; });
    case Obs::CduTSecReturn:
      return each(nc, [&](int k) { return y[m.retSegAdr(k) + m.cdu_nseg_ret[k] - 1]; });
    case Obs::CduTPrimSupply:
      return each(nc, [&](int k) { return g.T_fws[k]; });
    case Obs::CduTPrimReturn:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kTHexPrim)]; });
    case Obs::CduVFlowSec:
      return each(nc, [&](int k) { return g.m_sec[k] / rho(m, k); });
    case Obs::CduVFlowPrim:
      return each(nc, [&](int k) { return g.m_prim[k] / m.fluids[m.fws_fluid].rho_ref(); });
    case Obs::CduPumpSpeed:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kNPump)]; });
    case Obs::CduPPump:
      return each(nc, [&](int k) { return g.P_pump[k]; });
    case Obs::CduValvePosition:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kYValve)]; });
    case Obs::CduQHex:
      return each(nc, [&](int k) { return g.Q_hex[k]; });
    case Obs::CduDpBank:
      return each(nc, [&](int k) { return g.dp_bank[k]; });
    case Obs::CduPTank:
      return each(nc, [&](int k) { return g.p_tank[k]; });
    case Obs::CduCoolantLost:  // the state is the net loss: leaks less the make-up
      return each(nc,
                  [&](int k) { return y[m.stateAdr(k, kVLost)] + fillDelivered(m, st, k, c.t); });
    case Obs::CduMakeup:
      return each(nc, [&](int k) { return fillDelivered(m, st, k, c.t); });
    case Obs::CduAirVolume:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kVAir)]; });
    case Obs::CduTankLevel:
      return each(nc, [&](int k) {
        return std::max(tankLiquidFraction(m, k, y[m.stateAdr(k, kVLost)]), 0.0);
      });
    // datasheet outputs
    case Obs::CduValveCommand:
      return each(nc, [&](int k) { return g.y_cmd[k]; });
    case Obs::CduPumpSpeedCommand:
      return each(nc, [&](int k) { return g.N_cmd[k]; });
    case Obs::CduPumpHead:
      return each(nc, [&](int k) { return g.dp_pump[k]; });
    case Obs::CduHexDpPrimary:
      return each(nc, [&](int k) { return m.cdu_prim_c_hex[k] * g.m_prim[k] * g.m_prim[k]; });
    case Obs::CduHexDpSecondary:
      return each(nc, [&](int k) { return m.cdu_hex_sec_dp[k].dp(g.m_sec[k]); });
    case Obs::CduFilterDp:
      return each(nc, [&](int k) { return g.filter_dp[k]; });
    case Obs::CduTempPiIntegral:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kXTemp)]; });
    case Obs::CduPumpPiIntegral:
      return each(nc, [&](int k) { return y[m.stateAdr(k, kXPump)]; });
    // air-cooled racks
    case Obs::AirRackP:
      return each(m.nair, [&](int k) { return g.air_P[k]; });
    case Obs::AirRackPFan:
      return each(m.nair, [&](int k) { return g.air_P_fan[k]; });
    case Obs::AirRackVAir:
      return each(m.nair, [&](int k) { return g.air_V[k]; });
    case Obs::AirRackFanSpeed:
      return each(m.nair, [&](int k) { return g.air_N[k]; });
    case Obs::AirRackTIn:
      return each(m.nair, [&](int k) { return g.air_T_in[k]; });
    case Obs::AirRackTOut:
      return each(m.nair, [&](int k) { return g.air_T_out[k]; });
    case Obs::AirRackPowered:
      return each(m.nair, [&](int k) { return airRackPowered(m, st, k) ? 1.0 : 0.0; });
    case Obs::EnergyAirRacks:
      return one(e.air_racks);
    // switch racks
    case Obs::SwitchRackP:
      return each(m.nsw, [&](int k) { return g.sw_P[k]; });
    case Obs::SwitchRackPOptics:
      return each(m.nsw, [&](int k) { return g.sw_P_optics[k]; });
    case Obs::SwitchRackQLiquid:
      return each(m.nsw, [&](int k) { return g.sw_Q_liquid[k]; });
    case Obs::SwitchRackQAir:
      return each(m.nsw, [&](int k) { return g.sw_Q_air[k]; });
    case Obs::SwitchRackUp:
      return each(m.nsw, [&](int k) {
        return double(st.faults.sw_up.empty() ? m.sw_params[k].switches : st.faults.sw_up[k]);
      });
    case Obs::FacilityPFabric:
      return one(std::accumulate(g.sw_P.begin(), g.sw_P.end(), 0.0));
    case Obs::FacilityPFabricOptics:
      return one(std::accumulate(g.sw_P_optics.begin(), g.sw_P_optics.end(), 0.0));
    case Obs::RackIsolation:
      return each(nr, [&](int r) { return rackIsolation(m, st, r, c.t); });
    case Obs::RackLeakFlow:
      return each(nr, [&](int r) {
        double q = 0;
        for (std::size_t k = 0; k < m.leaks.size(); ++k)
          if (m.leaks[k].rack == r) q += g.leak_flow[k];
        return q;
      });
    case Obs::EnergyHeatIn:
      return one(e.heat_in);
    case Obs::EnergyHeatToFacilityWater:
      return one(e.heat_out_fws);
    case Obs::EnergyHeatLossAmbient:
      return one(e.heat_loss);
    case Obs::EnergyStored:
      return one(e.stored);
    case Obs::EnergyBalanceError:
      return one(e.balanceError());
    case Obs::FacilityPIT: {
      double P = 0;
      for (int r = 0; r < nr; ++r) P += g.P_rack[r];
      // air-cooled racks: IT + their own fans (IT load, The Green Grid [P22])
      for (int k = 0; k < m.nair; ++k) P += g.air_P[k] + g.air_P_fan[k];
      for (int k = 0; k < m.nsw; ++k) P += g.sw_P[k];  // switch racks
      return one(P);
    }
    case Obs::GpuTJunction:
      return each(ng, [&](int i) { return gl.Tj_max[i]; });
    case Obs::GpuTHbm:
      return each(ng, [&](int i) { return gl.Thbm_max[i]; });
    case Obs::GpuP: {
      const double span = gl.interval_time > 0 ? gl.interval_time : 1.0;
      return each(ng,
                  [&](int i) { return gl.interval_time > 0 ? gl.P_sum[i] / span : gl.op[i].P; });
    }
    case Obs::GpuClockRatio:
      return each(ng, [&](int i) { return gl.op[i].clock_ratio; });
    case Obs::GpuThrottleReasons:
      return each(ng, [&](int i) { return double(gl.op[i].reasons); });
    case Obs::GpuUtilizationSm:
      return each(ng, [&](int i) { return gl.util[i].a_sm; });
    case Obs::GpuVFlow:
      return each(ng, [&](int i) {
        const int r = m.gpu_rack[i];
        return g.m_rack[r] * m.gpu_flow_share[i] / rho(m, m.rack_cdu[r]);
      });
    case Obs::GpuTInlet:
      return each(ng, [&](int i) { return gl.gpu_T_in[i]; });
    case Obs::GpuUtilizationHbm:
      return each(ng, [&](int i) { return gl.util[i].a_hbm; });
    case Obs::GpuUtilizationNvlink:
      return each(ng, [&](int i) { return gl.util[i].a_nvlink; });
    case Obs::EnergyGpuElectric:
      return one(e.gpu_electric);
    case Obs::EnergyGpuToCoolant:
      return one(e.gpu_to_coolant);
    case Obs::EnergyGpuStored:
      return one(e.gpu_stored);
    // iteration metrics exist for training jobs only (NaN for inference and trace replay)
    case Obs::JobIterationTime:
      return each(nj, [&](int j) { return training(j) ? meanIterationTime(gl.job[j]) : kNaN; });
    case Obs::JobLastIterationTime:
      return each(nj, [&](int j) { return training(j) ? gl.job[j].last_iteration_time : kNaN; });
    case Obs::JobThroughputRatio:
      return each(nj, [&](int j) { return training(j) ? throughputRatio(gl.job[j]) : kNaN; });
    case Obs::JobThroughputRatioInterval:
      return each(nj, [&](int j) {
        const JobState& js = gl.job[j];
        const long n = js.iterations - gl.job_iterations_row[j];
        const double T = js.sum_iteration_time - gl.job_iteration_time_row[j];
        return training(j) && n > 0 && T > 0 ? js.reference_iteration_time * double(n) / T : kNaN;
      });
    case Obs::JobThrottledGpuSeconds:
      return each(nj, [&](int j) { return gl.job_throttled[j]; });
    case Obs::JobPowerCappedGpuSeconds:
      return each(nj, [&](int j) { return gl.job_capped[j]; });
    case Obs::JobIterations:
      return each(nj, [&](int j) { return double(gl.job[j].iterations); });
    // achieved: the step model's nominal value x its step time / the mean iteration time so far
    case Obs::JobTokensPerSecond:
    case Obs::JobMfu:
      return each(nj, [&](int j) {
        if (!training(j) || j >= int(m.job_described.size())) return kNaN;
        const DescribedJob& d = m.job_described[j];
        const double T = meanIterationTime(gl.job[j]);
        if (!(d.step_time > 0) || !(T > 0)) return kNaN;
        // (the iterations' work: a job that excluded replicas does less per iteration)
        const JobState& js = gl.job[j];
        const double share = js.iterations > 0 ? jobWorkIterations(js, false) / js.iterations : 1;
        return (id == Obs::JobMfu ? d.mfu : d.tokens_per_second) * d.step_time / T * share;
      });
    case Obs::RoomTAir:
      return one(y[m.room_state]);
    case Obs::RoomAirHandlerSpeed:
      return one(g.ah_speed);
    case Obs::RoomTSupplyAir:
      return one(g.ah_T_supply);
    case Obs::RoomQCoil:
      return one(g.air_removed);
    case Obs::RoomPAirHandlerFans:
      return one(g.ah_P_fan);
    case Obs::RoomPAirHandlerChiller:
      return one(g.ah_P_chiller);
    case Obs::RoomQToWater:
      return one(g.ah_Q_water);
    case Obs::EnergyAirHandlerFans:
      return one(e.ah_fans);
    case Obs::EnergyAirHandlerChiller:
      return one(e.ah_chiller);
    case Obs::EnergyAirIn:
      return one(e.air_in);
    case Obs::EnergyAirRemoved:
      return one(e.air_removed);
    case Obs::EnergyAirStored:
      return one(e.air_stored);
    case Obs::BuswayI:
      return each(nb, [&](int b) { return pl.bus_I[b]; });
    case Obs::BuswayLoadRatio:
      return each(nb, [&](int b) { return pl.bus_I[b] / m.power.busways[b].params.I_rated; });
    case Obs::BuswayTConductor:
      return each(nb, [&](int b) { return pl.T_bus[b]; });
    case Obs::BuswayPLoss:
      return each(nb, [&](int b) { return ivMean(pl.iv_bus_loss[b], pl.bus_loss[b]); });
    case Obs::BuswayBreakerState:
      return each(nb, [&](int b) { return pl.bus_brk[b].tripped ? 1.0 : 0.0; });
    case Obs::RackPIn:
      return each(nr, [&](int r) { return ivMean(pl.iv_rack_P_in[r], pl.rack_P_in[r]); });
    case Obs::RackPPsuLoss:
      return each(nr, [&](int r) { return ivMean(pl.iv_rack_psu_loss[r], pl.rack_psu_loss[r]); });
    case Obs::UpsP:
      return one(ivMean(pl.iv_ups_out, pl.P_ups_out));
    case Obs::UpsPIn:
      return one(ivMean(pl.iv_ups_in, pl.P_ups_in));
    case Obs::UpsSoc:
      return one(m.power.ups.battery_J > 0 ? pl.ups.soc_J / m.power.ups.battery_J : 0.0);
    case Obs::UpsPLoss:
      return one(ivMean(pl.iv_ups_loss, pl.P_ups_loss));
    case Obs::SiteBatteryP:
      return one(ivMean(pl.iv_bess, pl.P_bess));
    case Obs::SiteBatterySoc:
      return one(m.power.battery.present && m.power.battery.capacity_J > 0
                     ? pl.bess.soc_J / m.power.battery.capacity_J
                     : 0.0);
    case Obs::FacilityPTotal:
      return one(P_total_mean());
    case Obs::FacilityPTotalNow:
      return one(pl.P_utility + P_pumps());
    case Obs::FacilityPITIn:
      return one(P_it_ac_mean());
    case Obs::FacilityPCooling:
      return one(P_pumps_mean());
    case Obs::FacilityPUE: {  // energy drawn from the stores counts as input (never PUE < 1)
      const double P_it = P_it_ac_mean();
      return one(P_it > 0 ? (P_total_mean() + ivMean(pl.iv_storage, 0.0)) / P_it : kNaN);
    }
    case Obs::FacilityPUEExadigit: {
      PueComponents pc;
      pc.Q_it = P_it_ac_mean();
      pc.W_cdu_pumps = P_pumps_mean();
      return one(pc.Q_it > 0 ? pueExaDigiT(pc) : kNaN);
    }
    case Obs::EnergyUtility:
      return one(pl.E_utility);
    case Obs::EnergyStorageDrawn:
      return one(pl.E_storage_drawn);
    case Obs::EnergyIt:
      return one(pl.E_it);
    case Obs::EnergyPowerChainLoss:
      return one(pl.E_psu + pl.E_bus + pl.E_ups + pl.E_tx + pl.E_bess_loss);
    case Obs::EnergyPsuLoss:
      return one(pl.E_psu);
    case Obs::EnergyBuswayLoss:
      return one(pl.E_bus);
    case Obs::EnergyUpsLoss:
      return one(pl.E_ups);
    case Obs::EnergyTransformerLoss:
      return one(pl.E_tx);
    case Obs::EnergySiteBatteryLoss:
      return one(pl.E_bess_loss);
    case Obs::EnergyPumpElectric:
      return one(e.pump_electric);
    case Obs::FacilityQFacilityWater:
      return one(g.heat_out_fws);
    case Obs::RackPowered:
      return each(nr, [&](int r) {
        const bool off = (m.has_power && !pl.rack_powered.empty() && !pl.rack_powered[r]) ||
                         (!st.faults.rack_power_off.empty() && st.faults.rack_power_off[r]);
        return off ? 0.0 : 1.0;
      });
    case Obs::RackGpuTJunctionMax:
      return each(nr, [&](int r) {
        return overRack(
            m, r, [&](int i) { return gl.Tj_max[i]; },
            [](double a, double b) { return std::max(a, b); }, -1e300);
      });
    case Obs::RackGpuTHbmMax:
      return each(nr, [&](int r) {
        return overRack(
            m, r, [&](int i) { return gl.Thbm_max[i]; },
            [](double a, double b) { return std::max(a, b); }, -1e300);
      });
    case Obs::RackGpuClockMean:
      return each(nr, [&](int r) {
        return overRack(
                   m, r, [&](int i) { return gl.op[i].clock_ratio; },
                   [](double a, double b) { return a + b; }, 0.0) /
               std::max(1, m.rack_gpunum[r]);
      });
    case Obs::RackGpuThrottledShare:
      return each(nr, [&](int r) { return rackShare(gl.rack_iv_throttled, r); });
    case Obs::RackThrottlePowerCap:
      return each(nr, [&](int r) { return rackShare(gl.rack_iv_capped, r); });
    case Obs::RackThrottleThermal:
      return each(nr, [&](int r) { return rackShare(gl.rack_iv_thermal, r); });
    case Obs::RackThrottlePowerBrake:
      return each(nr, [&](int r) { return rackShare(gl.rack_iv_brake, r); });
    case Obs::RackThrottleHwSlowdown:
      return each(nr, [&](int r) { return rackShare(gl.rack_iv_slowdown, r); });
    case Obs::FacilityGpusShutDown: {
      int n = 0;
      for (int i = 0; i < ng; ++i) n += gl.gpu[i].shut_down ? 1 : 0;
      return one(n);
    }
    case Obs::FacilityGpuSecondsThrottled: {
      double s = 0;
      for (int i = 0; i < ng; ++i) s += gl.throttled_time[i];
      return one(s);
    }
    case Obs::FacilityGpuSecondsPowerCapped: {
      return one(gl.capped_total);
    }
    // GPU-to-GPU spread (docs/models/gpu_variation.md)
    case Obs::RackGpuTJunctionMin:
      return each(nr, [&](int r) {
        return overRack(
            m, r, [&](int i) { return gl.Tj_max[i]; },
            [](double a, double b) { return std::min(a, b); }, 1e300);
      });
    case Obs::RackGpuTJunctionMean:
      return each(
          nr, [&](int r) { return meanOf(gpuValues(m, r, [&](int i) { return gl.Tj_max[i]; })); });
    case Obs::RackGpuTJunctionP99:
      return each(nr, [&](int r) {
        auto v = gpuValues(m, r, [&](int i) { return gl.Tj_max[i]; });
        return quantile(v, 0.99);
      });
    case Obs::RackGpuTHbmMin:
      return each(nr, [&](int r) {
        return overRack(
            m, r, [&](int i) { return gl.Thbm_max[i]; },
            [](double a, double b) { return std::min(a, b); }, 1e300);
      });
    case Obs::RackGpuTHbmMean:
      return each(nr, [&](int r) {
        return meanOf(gpuValues(m, r, [&](int i) { return gl.Thbm_max[i]; }));
      });
    case Obs::RackGpuTHbmP99:
      return each(nr, [&](int r) {
        auto v = gpuValues(m, r, [&](int i) { return gl.Thbm_max[i]; });
        return quantile(v, 0.99);
      });
    case Obs::RackGpuClockMin:
      return each(nr, [&](int r) {
        return overRack(
            m, r, [&](int i) { return gl.op[i].clock_ratio; },
            [](double a, double b) { return std::min(a, b); }, 1e300);
      });
    case Obs::RackGpuClockMax:
      return each(nr, [&](int r) {
        return overRack(
            m, r, [&](int i) { return gl.op[i].clock_ratio; },
            [](double a, double b) { return std::max(a, b); }, -1e300);
      });
    case Obs::RackGpuClockP99:
      return each(nr, [&](int r) {
        auto v = gpuValues(m, r, [&](int i) { return gl.op[i].clock_ratio; });
        return quantile(v, 0.99);
      });
    case Obs::FacilityGpuTJunctionSpread:
      return one(spreadOf(gpuValues(m, -1, [&](int i) { return gl.Tj_max[i]; })));
    case Obs::FacilityGpuTJunctionP99: {
      auto v = gpuValues(m, -1, [&](int i) { return gl.Tj_max[i]; });
      return one(quantile(v, 0.99));
    }
    case Obs::FacilityGpuPSpread: {
      const double span = gl.interval_time > 0 ? gl.interval_time : 1.0;
      return one(spreadOf(gpuValues(
          m, -1, [&](int i) { return gl.interval_time > 0 ? gl.P_sum[i] / span : gl.op[i].P; })));
    }
    case Obs::FacilityGpuClockSpread: {
      // the clock reached at the power cap for the same work: the GPUs held by their cap and
      // nothing else, in the (job, phase) that most of them are in at the output time
      auto capped = [&](int i) {
        const unsigned r = gl.op[i].reasons;
        return (r & kThrottleSwPowerCap) && !(r & (kThrottleSwThermal | kThrottleHwThermal |
                                                   kThrottleHwSlowdown | kThrottlePowerBrake));
      };
      auto phaseKey = [&](int i) {
        const int j = m.gpu_job[i];
        if (j < 0 || m.job_kind[j] != 0 || j >= int(gl.job.size())) return -1L;
        const int k = m.group_jobslot[m.gpu_group[i]];
        return long(j) * 1024 + gl.job[j].gpu[std::size_t(k)].phase;
      };
      std::vector<long> keys;
      for (int i = 0; i < ng; ++i)
        if (capped(i) && phaseKey(i) >= 0) keys.push_back(phaseKey(i));
      std::sort(keys.begin(), keys.end());
      long best = -1;
      std::size_t run = 0, best_run = 0;
      for (std::size_t k = 0; k < keys.size(); ++k) {
        run = k > 0 && keys[k] == keys[k - 1] ? run + 1 : 1;
        if (run > best_run) best_run = run, best = keys[k];
      }
      std::vector<double> v;
      for (int i = 0; i < ng; ++i)
        if (best >= 0 && capped(i) && phaseKey(i) == best) v.push_back(gl.op[i].clock_ratio);
      return one(spreadOf(v));
    }
    case Obs::GpuWaitTime:
      return each(ng, [&](int i) { return gpuWaitTime(m, gl, i); });
    case Obs::GpuLostTime:
    case Obs::GpuCausedWait: {
      const std::vector<double> n_job = jobGpuCounts(m);
      const bool caused = id == Obs::GpuCausedWait;
      return each(ng, [&](int i) { return gpuMapEntry(m, gl, i, caused, n_job); });
    }
    case Obs::RackGpuWaitMean:
      return each(nr, [&](int r) {
        const double s = overRack(
            m, r, [&](int i) { return gpuWaitTime(m, gl, i); }, std::plus<>(), 0.0);
        return s / double(std::max(1, m.rack_gpunum[r]));
      });
    case Obs::RackGpuLostMean:
    case Obs::RackCausedWait: {
      const std::vector<double> n_job = jobGpuCounts(m);
      const bool caused = id == Obs::RackCausedWait;
      return each(nr, [&](int r) {
        const double s = overRack(
            m, r, [&](int i) { return gpuMapEntry(m, gl, i, caused, n_job); }, std::plus<>(), 0.0);
        return caused ? s : s / double(std::max(1, m.rack_gpunum[r]));
      });
    }
    case Obs::GpuThrottledTime:
      return each(ng, [&](int i) { return gl.throttled_time[i]; });
    case Obs::GpuHotCause: {
      // the means over the GPUs of their local inlet (flow distribution), plate resistance at
      // their own flow and power
      double T_in = 0, R_cp = 0, P = 0;
      int nres = 0;
      // means over every resolved GPU's plate (each has its own inlet and flow)
      for (int i = 0; i < ng; ++i)
        if (m.rack_resolved[m.gpu_rack[i]])
          T_in += gl.gpu_T_in[i], R_cp += gl.gpu_R_path[i], ++nres;
      for (int i = 0; i < ng; ++i) P += gl.op[i].P;
      T_in /= std::max(nres, 1), R_cp /= std::max(nres, 1), P /= std::max(ng, 1);
      return each(ng, [&](int i) { return double(hotCause(m, gl, i, T_in, R_cp, P)); });
    }
    case Obs::JobReferenceIterationTime:
      return each(nj,
                  [&](int j) { return training(j) ? gl.job[j].reference_iteration_time : kNaN; });
    case Obs::JobStalledTime:
      return each(nj, [&](int j) { return gl.job[j].stalled_time; });
    case Obs::JobProgressRatio:
      return each(nj, [&](int j) {
        // progress against the reference pace since the job started (stalls and throttling count)
        const JobState& js = gl.job[j];
        const double t0 = m.job_spec[j].start, t1 = std::min(c.t, m.job_spec[j].stop);
        return t1 > t0 && js.reference_iteration_time > 0
                   ? js.iterations * js.reference_iteration_time / (t1 - t0)
                   : 0.0;
      });
    case Obs::JobProgressRatioInterval:
      return each(nj, [&](int j) {
        const JobState& js = gl.job[j];
        const double t0 = std::max(m.job_spec[j].start, pl.t_row);
        const double t1 = std::min(c.t, m.job_spec[j].stop);
        const long n = js.iterations - gl.job_iterations_row[j];
        return training(j) && t1 > t0 && js.reference_iteration_time > 0
                   ? double(n) * js.reference_iteration_time / (t1 - t0)
                   : kNaN;
      });
    case Obs::JobTimeCompute:
    case Obs::JobTimeMemory:
    case Obs::JobTimeCommNvlink:
    case Obs::JobTimeCommNetwork:
    case Obs::JobTimeCommOther:
    case Obs::JobTimeHostMemory:
    case Obs::JobTimeBubble:
    case Obs::JobTimeCheckpoint:
    case Obs::JobTimeBarrierWait:
    case Obs::JobTimeThermal:
    case Obs::JobTimePowerCap:
    case Obs::JobTimePowerBrake:
    case Obs::JobTimeSmoothing:
    case Obs::JobTimeClockOther:
    case Obs::JobTimeHbmThrottle:
    case Obs::JobTimeFabricDegraded:
    case Obs::JobTimeStalled:
    case Obs::JobTimeRestart:
    case Obs::JobTimeLostWork:
    case Obs::JobTimeExcluded:
      return each(nj, [&](int j) {
        double map[kTimeCats];
        jobTimeMap(gl.job[j], gl.job_weight[j], map);
        return map[int(id) - int(Obs::JobTimeCompute)];
      });
    case Obs::JobWaitThermal:
    case Obs::JobWaitPowerCap:
    case Obs::JobWaitPowerBrake:
    case Obs::JobWaitSmoothing:
    case Obs::JobWaitClockOther:
    case Obs::JobWaitHbmThrottle:
    case Obs::JobWaitFabricDegraded:
    case Obs::JobWaitImbalance:
      return each(nj, [&](int j) {
        double w[kWaitCats];
        jobWaitMap(gl.job[j], gl.job_weight[j], w);
        return w[int(id) - int(Obs::JobWaitThermal)];
      });
    case Obs::JobStragglerGpu:
      return each(nj, [&](int j) {
        const int k = jobTopStraggler(gl.job[j], nullptr);
        return k < 0 ? -1.0 : double(m.group_gpuadr[m.job_groups[j][std::size_t(k)]]);
      });
    case Obs::JobStragglerWait:
      return each(nj, [&](int j) {
        double w = 0;
        jobTopStraggler(gl.job[j], &w);
        return w;
      });
    case Obs::JobGoodput:
      return each(nj, [&](int j) {
        return training(j) ? jobGoodput(m.job_spec[j], gl.job[j], c.t) : kNaN;
      });
    case Obs::JobFailures:
      return each(nj, [&](int j) { return double(gl.job[j].failures); });
    case Obs::JobMtbf:
      return each(nj, [&](int j) { return jobMeanTimeBetweenFailures(m, j); });
    case Obs::JobCheckpointIntervalOptimal:
      return each(nj, [&](int j) {
        const double M = jobMeanTimeBetweenFailures(m, j);
        const double d = training(j) ? m.job_spec[j].checkpoint_duration : 0.0;
        return std::isfinite(M) && d > 0 ? dalyInterval(d, M) : kNaN;
      });
    case Obs::PowerTime:
      return one(c.t);
    case Obs::PowerRackP:
      return each(nr, [&](int r) { return fastRackPower(m, st, r, c.t); });
    case Obs::PowerPIT: {
      double P = 0;
      for (int r = 0; r < nr; ++r) P += fastRackPower(m, st, r, c.t);
      // every IT load as /facility/P_IT counts it: air-cooled racks' IT and fans at
      // the step, switch racks
      for (int k = 0; k < m.nair; ++k) P += airRackDraw(m, st, k, c.t);
      for (int k = 0; k < m.nsw; ++k) P += g.sw_P[k];
      return one(P);
    }
    case Obs::PowerPUtility:  // the meter (docs/models/grid.md): as /facility/P_total_now + plant
      return one(st.pl.P_utility + P_pumps() + (m.has_plant ? st.plant.plantPower() : 0.0));
    case Obs::PlantTSupply:
    case Obs::PlantTReturn:
    case Obs::PlantTSetpoint:
    case Obs::PlantMode:
    case Obs::PlantChillersOn:
    case Obs::PlantFanSpeed:
    case Obs::PlantPPumps:
    case Obs::PlantPFans:
    case Obs::PlantPChillers:
    case Obs::PlantPCondenserFans:
    case Obs::PlantQRejected:
    case Obs::PlantWaterRate:
    case Obs::WeatherTDryBulb:
    case Obs::WeatherTWetBulb:
    case Obs::EnergyPlantPumps:
    case Obs::EnergyPlantFans:
    case Obs::EnergyPlantChillers:
    case Obs::EnergyPlantCondenserFans:
    case Obs::EnergyFacility:
    case Obs::EnergyItPue:
    case Obs::WaterSite:
    case Obs::WaterEvaporation:
    case Obs::PlantPUE:
    case Obs::PlantPPUECooling:
    case Obs::PlantWUE:
    case Obs::PlantCost:
    case Obs::PlantCO2:
    case Obs::PlantTimeFree:
    case Obs::PlantTimePartial:
    case Obs::PlantTimeMechanical:
    case Obs::CalendarMonth:
      return one(plantObservable(id, m, st, c.t));  // solver/output/plant_observables.cpp
    case Obs::Count:
      return;
  }
}

}  // namespace

void evaluateObservables(const FacilityModel& m, const State& st, const double* y, double t,
                         const EnergyTotals& e, OutputFrame& f) {
  const Ctx c{m, st, y, t, e};
  const FrameLayout& L = *f.layout;
  f.t = t;
  // each observable into its own slots, on the run's worker pool where it has one (the per-GPU
  // and per-rack arrays and their quantiles: ~15 ms a row on the hall, with the workers asleep);
  // the same values whichever thread computed which
  Obs ids[std::size_t(Obs::Count)];
  int n = 0;
  for (const ObservableInfo& o : observableTable())
    if (o.rate == Rate::Output && L.has(o.id)) ids[n++] = o.id;
  auto eval = [&](int k) { evalOne(ids[k], c, f.values.data() + L.offset[int(ids[k])]); };
  if (st.pool && st.pool->size() > 1)
    st.pool->run(n, eval);
  else
    for (int k = 0; k < n; ++k) eval(k);
}

void evaluateFastObservables(const FacilityModel& m, const State& st, double t, OutputFrame& f) {
  static const EnergyTotals none;
  const Ctx c{m, st, nullptr, t, none};
  const FrameLayout& L = *f.layout;
  f.t = t;
  for (const ObservableInfo& o : observableTable())
    if (o.rate == Rate::Fast && L.has(o.id))
      evalOne(o.id, c, f.values.data() + L.offset[int(o.id)]);
}

//---------------------------------------------------------------------------------------------
FrameFeed::FrameFeed(const FacilityModel& m, std::vector<RunSink*> sinks,
                     const std::string& scenario_text, std::function<void(double t)> progress,
                     double duration)
    : layout_(describeModel(m)),
      sinks_(std::move(sinks)),
      progress_(std::move(progress)),
      wall0_(std::chrono::steady_clock::now()) {
  layout_.scenario_text = scenario_text;
  layout_.duration = duration;
  frames_ = FrameLayout::make(layout_);
  frame_.layout = &frames_;
  frame_.values.assign(frames_.size, 0.0);
  fast_.layout = &frames_;
  fast_.values.assign(frames_.fast_size, 0.0);
  for (RunSink* s : sinks_) {
    const double dt = s->fastInterval();
    every_.push_back(dt > 0 && frames_.fast_size > 0 ? std::max(1, int(std::lround(dt / m.gpu_dt)))
                                                     : 0);
    s->begin(layout_, frames_);
  }
  count_.assign(sinks_.size(), 0);
}

void FrameFeed::sample(const FacilityModel& m, const State& st, const double* y, double t,
                       const EnergyTotals& e) {
  evaluateObservables(m, st, y, t, e, frame_);
  frame_.events = &st.events;
  frame_.stats = &st.stats;
  frame_.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
  for (RunSink* s : sinks_) s->row(frame_);
  if (progress_) progress_(t);
}

void FrameFeed::fast(const FacilityModel& m, const State& st, double t) {
  bool evaluated = false;
  for (std::size_t k = 0; k < sinks_.size(); ++k) {
    if (every_[k] == 0 || ++count_[k] % every_[k] != 0) continue;
    if (!evaluated) evaluateFastObservables(m, st, t, fast_), evaluated = true;
    sinks_[k]->fastRow(fast_);
  }
  if (progress_) progress_(t);
}

void FrameFeed::end(const RunResult& r) {
  for (RunSink* s : sinks_) s->end(r);
}

}  // namespace dctwin
