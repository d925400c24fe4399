// run.cpp: the summary sink (CLI report) and the HDF5 sink (results file)
#include "solver/run/run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "solver/input/loader.h"
#include "solver/output/results.h"
#include "solver/common/units.h"

namespace dctwin {

//---------------------------------------------------------------------------------------------
// summary
void SummarySink::sample(const FacilityModel& m, const State& st, const double* y, double t,
                         const EnergyTotals& e) {
  RunSummary& s = summary;
  const Signals& g = st.sig;
  s.heat_liquid = s.heat_air = s.heat_fws = s.P_pump = s.cdu_flow_total = 0;
  s.coolant_lost = s.air_volume = 0;
  for (int c = 0; c < m.ncdu; ++c) {
    s.coolant_lost += y[m.stateAdr(c, kVLost)];
    s.air_volume += y[m.stateAdr(c, kVAir)];
  }
  for (int r = 0; r < m.nrack; ++r) {
    const int a = m.rackAdr(r);
    const double V = g.m_rack[r] / m.fluids[m.cdu_fluid[m.rack_cdu[r]]].rho_ref();
    // the rack case node means something only for heat-load racks (resolved GPUs: /gpu/*)
    if (!m.rack_resolved[r] && y[a + 1] > s.T_case_max)
      s.T_case_max = y[a + 1], s.T_case_max_rack = m.rack_name[r], s.T_case_max_time = t;
    if (y[a] > s.T_return_max) s.T_return_max = y[a], s.T_return_max_rack = m.rack_name[r];
    if (t > 0) {  // flows at t = 0 are those of the initial pump speed
      s.rack_flow_min = std::min(s.rack_flow_min, V);
      s.rack_flow_max = std::max(s.rack_flow_max, V);
    }
    s.heat_liquid += g.Q_liquid[r];
    s.heat_air += g.Q_air[r];
  }
  for (int c = 0; c < m.ncdu; ++c) {
    s.T_supply_max = std::max(s.T_supply_max, y[m.stateAdr(c, kTHexSec)]);
    s.cdu_flow_total += g.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref();
    s.P_pump += g.P_pump[c];
  }
  s.heat_fws = g.heat_out_fws;
  if (m.room_state >= 0) s.T_room_max = std::max(s.T_room_max, y[m.room_state]);
  s.E_pump = e.pump_electric;
  if (m.has_power) {
    const PowerLayerState& pl = st.pl;
    s.E_utility = pl.E_utility;
    s.E_it_dc = pl.E_it;
    s.E_psu = pl.E_psu;
    s.E_bus = pl.E_bus;
    s.E_ups = pl.E_ups;
    s.E_tx = pl.E_tx;
    for (std::size_t b = 0; b < pl.bus_I.size(); ++b)
      s.bus_load_max = std::max(s.bus_load_max, pl.bus_I[b] / m.power.busways[b].params.I_rated);
    s.racks_unpowered = 0;
    for (char p : pl.rack_powered) s.racks_unpowered += p ? 0 : 1;
  }
  s.energy = e;
  s.t_end = t;
  // GPUs and jobs
  const GpuLayerState& gl = st.gl;
  s.P_IT = 0;
  for (int r = 0; r < m.nrack; ++r) s.P_IT += g.P_rack[r];
  s.gpu_seconds_throttled = 0;
  s.gpus_shut_down = 0;
  for (int i = 0; i < m.ngpu; ++i) {
    if (gl.Tj_max[i] > s.T_j_max) {
      s.T_j_max = gl.Tj_max[i];
      s.T_j_max_gpu =
          "rack " + m.rack_name[m.gpu_rack[i]] + " GPU " + std::to_string(m.gpu_slot[i]);
    }
    s.T_hbm_max = std::max(s.T_hbm_max, gl.Thbm_max[i]);
    s.gpu_seconds_throttled += gl.throttled_time[i];
    s.gpus_shut_down += gl.gpu[i].shut_down ? 1 : 0;
  }
  s.jobs.resize(m.njob);
  for (int j = 0; j < m.njob; ++j) {
    RunSummary::Job& J = s.jobs[j];
    const JobState& js = gl.job[j];
    J.name = m.job_name[j];
    J.iterations = js.iterations;
    J.iteration_time = meanIterationTime(js);
    J.reference_time = js.reference_iteration_time;
    J.throughput_ratio = throughputRatio(js);
    J.throttled_gpu_seconds = gl.job_throttled[j];
    J.stalled_time = js.stalled_time;
    // progress against the reference pace since the job started (stalls and throttling count)
    const double t0 = m.job_spec[j].start, t1 = std::min(t, m.job_spec[j].stop);
    J.progress_ratio = t1 > t0 && js.reference_iteration_time > 0
                           ? js.iterations * js.reference_iteration_time / (t1 - t0)
                           : 0.0;
    J.gpus = int(m.job_gpus[j].size());
    J.kind = m.job_kind[j];
  }
}

namespace {
std::string fmtS(double seconds) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f s", seconds);
  return b;
}
}  // namespace

std::string formatSummary(const FacilityModel& m, const RunSummary& s, const RunResult& r) {
  char buf[512];
  std::string out;
  auto line = [&](const char* fmt, auto... args) {
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
    out += '\n';
  };
  line("dctwin run: %s  (%d CDU, %d racks, %d states)", m.name.c_str(), m.ncdu, m.nrack, m.nstate);
  line("  status              %s at t = %.0f s (%.2f h simulated in %.2f s wall, %.0fx real time)",
       !r.ok         ? "FAILED"
       : r.cancelled ? "cancelled"
                     : "completed",
       r.t_end, r.t_end / 3600.0, r.wall_seconds,
       r.wall_seconds > 0 ? r.t_end / r.wall_seconds : 0.0);
  if (!r.ok) line("  error               %s", r.error.c_str());
  if (!s.T_case_max_rack.empty())
    line("  peak case temp      %.1f degC  (rack %s, t = %.0f s; racks with a heat-load profile)",
         toCelsius(s.T_case_max), s.T_case_max_rack.c_str(), s.T_case_max_time);
  line("  peak rack outlet    %.1f degC  (rack %s)", toCelsius(s.T_return_max),
       s.T_return_max_rack.c_str());
  line("  peak CDU supply     %.1f degC", toCelsius(s.T_supply_max));
  line("  rack flows          %.1f .. %.1f L/min", toLitersPerMinute(s.rack_flow_min),
       toLitersPerMinute(s.rack_flow_max));
  line("  CDU flow (end)      %.0f L/min total", toLitersPerMinute(s.cdu_flow_total));
  line("  heat (end)          %.1f kW to liquid, %.1f kW to air, %.1f kW to facility water",
       s.heat_liquid / 1e3, s.heat_air / 1e3, s.heat_fws / 1e3);
  line("  pump power (end)    %.2f kW", s.P_pump / 1e3);
  if (m.has_power && s.E_utility > 0 && s.t_end > 0) {
    const double T = s.t_end, it_ac = s.E_it_dc + s.E_psu;
    line("  power chain (mean)  utility %.1f kW; IT %.1f kW at the racks' AC input (%.1f kW DC)",
         s.E_utility / T / 1e3, it_ac / T / 1e3, s.E_it_dc / T / 1e3);
    line("  losses by stage     shelves %.2f kW, busways %.2f kW, UPS %.2f kW, transformer %.2f kW",
         s.E_psu / T / 1e3, s.E_bus / T / 1e3, s.E_ups / T / 1e3, s.E_tx / T / 1e3);
    line("  PUE                 %.4f  ((utility + CDU pumps) / IT AC energy; ExaDigiT form %.4f)",
         (s.E_utility + s.E_pump) / it_ac, (it_ac + s.E_pump) / it_ac);
    line(
        "  busways             peak load %.0f %% of rating at an output time%s; %d racks unpowered",
        100 * s.bus_load_max, s.bus_load_max > 0.8 ? " (above the 80 % continuous rule)" : "",
        s.racks_unpowered);
  }
  if (m.room_state >= 0)
    line("  room air            %.1f degC peak, %.1f kW from the racks' air side (end)",
         toCelsius(s.T_room_max), s.heat_air / 1e3);
  if (m.ngpu > 0) {
    line("  GPUs                %d resolved; peak junction %.1f degC (%s), peak HBM %.1f degC",
         m.ngpu, toCelsius(s.T_j_max), s.T_j_max_gpu.c_str(), toCelsius(s.T_hbm_max));
    line("  GPU throttling      %.0f GPU-s thermal or brake throttled, %d GPUs shut down",
         s.gpu_seconds_throttled, s.gpus_shut_down);
    line("  IT power (end)      %.1f kW (mean of the last output interval)", s.P_IT / 1e3);
    for (const auto& J : s.jobs)
      if (J.kind != 0)
        line("  job %-15s %d GPUs, %s", J.name.c_str(), J.gpus,
             J.kind == 1 ? "inference (load profile)" : "trace replay");
      else
        line(
            "  job %-15s %d GPUs, %ld iterations, iteration %.3f s (reference %.3f s), "
            "throughput ratio %.4f, %.0f GPU-s throttled",
            J.name.c_str(), J.gpus, J.iterations, J.iteration_time, J.reference_time,
            J.throughput_ratio, J.throttled_gpu_seconds);
    for (const auto& J : s.jobs)
      if (J.stalled_time > 0)
        line(
            "  job %-15s stalled %.0f s: a GPU was off and the others waited at its barrier; "
            "progress %.3f of the reference pace since its start",
            J.name.c_str(), J.stalled_time, J.progress_ratio);
  }
  if (!m.leaks.empty()) {
    line("  coolant lost        %.2f L through leaks; %.2f L of air in the loop (end)",
         s.coolant_lost * 1e3, s.air_volume * 1e3);
    // per leak: time from the leak to its detection and to the rack's isolation
    for (const auto& start : r.events) {
      if (start.kind != "leak_start") continue;
      double t_det = -1, t_iso = -1;
      for (const auto& ev : r.events) {
        if (ev.component != start.component || ev.time < start.time) continue;
        if (ev.kind == "leak_detected" && t_det < 0) t_det = ev.time;
        if (ev.kind == "isolated" && t_iso < 0) t_iso = ev.time;
      }
      std::string det = t_det < 0 ? "not detected" : "detected after " + fmtS(t_det - start.time);
      std::string iso = t_iso < 0 ? "not isolated" : "isolated after " + fmtS(t_iso - start.time);
      // the neighbours: the other racks on the same CDU, throttled or shut down after the leak
      std::string nb;
      for (int k = 0; k < m.nrack; ++k) {
        if ("rack " + m.rack_name[k] != start.component) continue;
        int hit = 0, total = 0;
        for (int q = 0; q < m.nrack; ++q) {
          if (q == k || m.rack_cdu[q] != m.rack_cdu[k]) continue;
          ++total;
          for (const auto& ev : r.events)
            if (ev.component == "rack " + m.rack_name[q] && ev.time >= start.time &&
                (ev.kind == "gpu_thermal_throttle" || ev.kind == "gpu_shutdown")) {
              ++hit;
              break;
            }
        }
        nb = "; " + std::to_string(hit) + " of " + std::to_string(total) +
             " neighbouring racks throttled";
      }
      line("  leak %-14s at %.0f s: %s, %s%s", start.component.c_str(), start.time, det.c_str(),
           iso.c_str(), nb.c_str());
    }
  }
  if (!r.events.empty()) {
    line("  events              %zu (faults and alarms; /events in the results)", r.events.size());
    const std::size_t shown = std::min<std::size_t>(r.events.size(), 20);
    for (std::size_t k = 0; k < shown; ++k) {
      const EventRecord& ev = r.events[k];
      line("    %9.1f s  %-8s %-16s %-22s %s", ev.time, ev.severity.c_str(), ev.component.c_str(),
           ev.kind.c_str(), ev.message.c_str());
    }
    if (shown < r.events.size()) line("    ... %zu more", r.events.size() - shown);
  }
  const EnergyTotals& e = s.energy;
  double rel = e.heat_in > 0 ? e.balanceError() / e.heat_in : 0.0;
  line(
      "  energy balance      in %.3f MWh = to facility water %.3f + to ambient %.3f + stored %.3f "
      "MWh",
      e.heat_in / 3.6e9, e.heat_out_fws / 3.6e9, e.heat_loss / 3.6e9, e.stored / 3.6e9);
  line("                      residual %.3g kWh (%.2e of heat in)", e.balanceError() / 3.6e6, rel);
  line(
      "  solver              %ld steps, %ld rhs (+%ld for jacobians), %ld jacobians, %ld "
      "error-test fails, %ld nonlinear fails",
      r.stats.steps, r.stats.rhs_evals, r.stats.rhs_evals_jac, r.stats.jac_evals,
      r.stats.err_test_fails, r.stats.nonlin_conv_fails);
  return out;
}

//---------------------------------------------------------------------------------------------
// hdf5
struct Hdf5Sink::Impl {
  ResultsFile file;
  int flush_every;
  int count = 0;
  int s_time;
  int r_Tsup, r_Tret, r_Tcase, r_V, r_dp, r_Qliq, r_Qair, r_P;
  int c_Tss, c_Tsr, c_Tps, c_Tpr, c_Vs, c_Vp, c_N, c_Pp, c_y, c_Q, c_dpb;
  int c_pt, c_lost, c_air, c_level, r_iso, r_leak;
  int e_in, e_out, e_loss, e_stored, e_err;
  int e_gel = -1, e_gco = -1, e_gst = -1;
  int g_Tj = -1, g_Thbm, g_P, g_clk, g_thr, g_asm, g_ahbm, g_anvl;
  int j_it, j_last, j_ratio, j_thr, j_n;
  int f_PIT = -1;
  int room_T = -1, e_ain, e_arem, e_ast;
  int b_I = -1, b_ratio, b_T, b_loss, b_brk, r_Pin, r_psu, u_P, u_Pin, u_soc, u_loss, f_Ptot,
      f_Pcool, f_pue, f_pue_x;
  int e_util, e_it, e_chain;
  int p_time = -1, p_PIT, p_rack;
  int power_every = 0, fast_count = 0;
  std::vector<double> row;
  Impl(const std::string& path, int fe) : file(path), flush_every(fe) {}
};

Hdf5Sink::Hdf5Sink(const std::string& path, const FacilityModel& m,
                   const std::string& scenario_text, int flush_every, double power_interval)
    : impl_(std::make_unique<Impl>(path, flush_every)) {
  ResultsFile& f = impl_->file;
  f.setAttribute("/", "dctwin_version", std::string(DCTWIN_VERSION));
  f.setAttribute("/", "schema_version", 1LL);
  f.setAttribute("/", "facility_name", m.name);
  f.setAttribute("/", "facility_text", m.facility_text);
  f.setAttribute("/", "scenario_text", scenario_text);
  f.setAttribute("/", "status", std::string("running"));
  f.setAttribute("/", "n_states", static_cast<long long>(m.nstate));
  std::size_t nr = m.nrack, nc = m.ncdu;
  f.writeStrings("/rack/names", m.rack_name, "rack names, column labels of /rack/*");
  f.writeStrings("/rack/row", m.rack_row, "hall row of each rack");
  std::vector<long long> idx(m.rack_index.begin(), m.rack_index.end());
  f.writeIntVector("/rack/index", idx, "position of each rack in its row");
  std::vector<long long> rc(m.rack_cdu.begin(), m.rack_cdu.end());
  f.writeIntVector("/rack/cdu", rc, "index into /cdu/names of the CDU feeding each rack");
  f.writeStrings("/rack/type", m.rack_type, "rack type of each rack");
  f.writeStrings("/cdu/names", m.cdu_name, "CDU names, column labels of /cdu/*");
  Impl& I = *impl_;
  I.s_time = f.addSeries("/time", 0, "s", "simulation time of each row");
  I.r_Tsup = f.addSeries("/rack/T_supply", nr, "K", "coolant temperature at the rack inlet");
  I.r_Tret = f.addSeries("/rack/T_return", nr, "K", "coolant temperature at the rack outlet");
  I.r_Tcase = f.addSeries("/rack/T_case", nr, "K", "cold-plate case temperature (rack mean plate)");
  I.r_V = f.addSeries("/rack/V_flow", nr, "m3/s", "coolant volume flow through the rack");
  I.r_dp =
      f.addSeries("/rack/dp", nr, "Pa", "pressure drop across the rack branch (valve + manifold)");
  I.r_Qliq = f.addSeries("/rack/Q_liquid", nr, "W", "heat from the rack into the coolant");
  I.r_Qair = f.addSeries("/rack/Q_air", nr, "W", "heat from the rack into the room air");
  I.r_P = f.addSeries("/rack/P", nr, "W", "rack electrical power");
  I.c_Tss = f.addSeries("/cdu/T_sec_supply", nc, "K", "secondary (TCS) supply temperature");
  I.c_Tsr =
      f.addSeries("/cdu/T_sec_return", nc, "K", "secondary (TCS) return temperature at the CDU");
  I.c_Tps = f.addSeries("/cdu/T_prim_supply", nc, "K", "facility-water supply temperature");
  I.c_Tpr = f.addSeries("/cdu/T_prim_return", nc, "K", "facility-water return temperature");
  I.c_Vs = f.addSeries("/cdu/V_flow_sec", nc, "m3/s", "secondary volume flow");
  I.c_Vp = f.addSeries("/cdu/V_flow_prim", nc, "m3/s", "primary (facility-water) volume flow");
  I.c_N = f.addSeries("/cdu/pump_speed", nc, "1", "pump speed ratio N/N_rated");
  I.c_Pp = f.addSeries("/cdu/P_pump", nc, "W", "pump electrical power");
  I.c_y = f.addSeries("/cdu/valve_position", nc, "1", "primary control valve position");
  I.c_Q = f.addSeries("/cdu/Q_hex", nc, "W",
                      "heat through the plate heat exchanger, secondary to primary");
  I.c_dpb = f.addSeries("/cdu/dp_bank", nc, "Pa", "differential pressure across the rack bank");
  I.c_pt = f.addSeries("/cdu/p_tank", nc, "Pa",
                       "expansion-tank (pump suction) gauge pressure; vacuum loops: negative");
  I.c_lost = f.addSeries("/cdu/coolant_lost", nc, "m3", "coolant lost through leaks, cumulative");
  I.c_air = f.addSeries("/cdu/air_volume", nc, "m3", "air in the loop (drained tank, air in-leak)");
  I.c_level = f.addSeries("/cdu/tank_level", nc, "1", "liquid share of the expansion tank");
  I.r_iso = f.addSeries("/rack/isolation", nr, "1",
                        "isolation valves closing fraction (0 open, 1 shut); leak response");
  I.r_leak = f.addSeries("/rack/leak_flow", nr, "m3/s", "liquid leaving the rack through leaks");
  I.e_in =
      f.addSeries("/energy/heat_in", 0, "J", "cumulative heat into the coolant (racks + pumps)");
  I.e_out = f.addSeries("/energy/heat_to_facility_water", 0, "J",
                        "cumulative heat to the facility water");
  I.e_loss = f.addSeries("/energy/heat_loss_ambient", 0, "J",
                         "cumulative heat lost from piping to ambient");
  I.e_stored =
      f.addSeries("/energy/stored", 0, "J", "change of energy held in coolant and cold plates");
  I.e_err = f.addSeries("/energy/balance_error", 0, "J",
                        "heat_in - heat_to_facility_water - heat_loss_ambient - stored");
  I.f_PIT = f.addSeries("/facility/P_IT", 0, "W",
                        "IT power: sum of rack power (interval mean for resolved GPUs)");
  if (m.ngpu > 0) {
    const std::size_t ng = m.ngpu;
    std::vector<long long> gr(m.gpu_rack.begin(), m.gpu_rack.end());
    std::vector<long long> gs(m.gpu_slot.begin(), m.gpu_slot.end()), gt(ng);
    std::vector<long long> gj(m.gpu_job.begin(), m.gpu_job.end());
    for (std::size_t i = 0; i < ng; ++i) gt[i] = m.gpu_slot[i] / m.rack_tray_gpus[m.gpu_rack[i]];
    f.writeIntVector("/gpu/rack", gr, "index into /rack/names of each GPU's rack");
    f.writeIntVector("/gpu/tray", gt, "compute tray of each GPU within its rack (0-based)");
    f.writeIntVector("/gpu/slot", gs, "GPU slot within its rack (0-based)");
    f.writeIntVector("/gpu/job", gj, "index into /job/names of each GPU's job (-1: none)");
    std::vector<std::string> types(ng);
    for (std::size_t i = 0; i < ng; ++i) types[i] = m.gpu_types[m.gpu_type[i]].name;
    f.writeStrings("/gpu/type", types, "GPU model of each GPU (data/catalog/gpus)");
    I.g_Tj = f.addSeries("/gpu/T_junction", ng, "K",
                         "GPU junction temperature, maximum over the output interval");
    I.g_Thbm =
        f.addSeries("/gpu/T_hbm", ng, "K", "HBM temperature, maximum over the output interval");
    I.g_P = f.addSeries("/gpu/P", ng, "W", "GPU board power, mean over the output interval");
    I.g_clk = f.addSeries("/gpu/clock_ratio", ng, "1", "SM clock / boost clock at the output time");
    I.g_thr = f.addSeries("/gpu/throttle_reasons", ng, "1",
                          "NVML clocks_event_reasons bitmask at the output time (0x1 idle, 0x4 SW "
                          "power cap, 0x8 HW slowdown, 0x20 SW thermal, 0x40 HW thermal, 0x80 HW "
                          "power brake)");
    I.g_asm = f.addSeries("/gpu/utilization_sm", ng, "1", "SM activity at the output time");
    I.g_ahbm = f.addSeries("/gpu/utilization_hbm", ng, "1",
                           "HBM bandwidth utilization at the output time");
    I.g_anvl =
        f.addSeries("/gpu/utilization_nvlink", ng, "1", "NVLink utilization at the output time");
    I.e_gel = f.addSeries("/energy/gpu_electric", 0, "J",
                          "cumulative electrical energy into the resolved GPUs");
    I.e_gco = f.addSeries("/energy/gpu_to_coolant", 0, "J",
                          "cumulative heat from the GPU cold plates into the coolant");
    I.e_gst = f.addSeries("/energy/gpu_stored", 0, "J",
                          "change of the energy held in GPU die, HBM and plate nodes");
  }
  if (m.njob > 0) {
    const std::size_t nj = m.njob;
    f.writeStrings("/job/names", m.job_name, "job names, column labels of /job/*");
    I.j_it = f.addSeries("/job/iteration_time", nj, "s", "mean iteration time so far");
    I.j_last =
        f.addSeries("/job/last_iteration_time", nj, "s", "time of the last completed iteration");
    I.j_ratio = f.addSeries("/job/throughput_ratio", nj, "1",
                            "reference iteration time / mean iteration time (reference: the same "
                            "job without thermal limits at its reference junction temperature)");
    I.j_thr = f.addSeries("/job/throttled_gpu_seconds", nj, "s",
                          "cumulative GPU-seconds with thermal or power-brake throttling");
    I.j_n = f.addSeries("/job/iterations", nj, "1", "completed iterations");
  }
  if (m.room_state >= 0) {
    I.room_T = f.addSeries("/room/T_air", 0, "K", "room air temperature (mixed room-air node)");
    I.e_ain =
        f.addSeries("/energy/air_in", 0, "J", "cumulative rack air-side heat into the room air");
    I.e_arem =
        f.addSeries("/energy/air_removed", 0, "J", "cumulative heat removed by the air handlers");
    I.e_ast =
        f.addSeries("/energy/air_stored", 0, "J", "change of the energy held in the room air");
  }
  if (m.has_power) {
    const std::size_t nb = m.busway_name.size();
    f.writeStrings("/busway/names", m.busway_name, "busway names, column labels of /busway/*");
    std::vector<long long> rb(m.rack_busway.begin(), m.rack_busway.end());
    f.writeIntVector("/rack/busway", rb,
                     "index into /busway/names of the busway feeding each rack");
    I.b_I = f.addSeries("/busway/I", nb, "A", "line current");
    I.b_ratio = f.addSeries("/busway/load_ratio", nb, "1", "line current / rated current");
    I.b_T = f.addSeries("/busway/T_conductor", nb, "K", "conductor temperature");
    I.b_loss = f.addSeries("/busway/P_loss", nb, "W", "I^2 R(T) loss (to the hall air)");
    I.b_brk = f.addSeries("/busway/breaker_state", nb, "1", "feeder breaker: 0 closed, 1 tripped");
    I.r_Pin = f.addSeries("/rack/P_in", nr, "W", "AC input power of the rack's power shelves");
    I.r_psu =
        f.addSeries("/rack/P_psu_loss", nr, "W", "conversion loss of the rack's power shelves");
    I.u_P = f.addSeries("/ups/P", 0, "W", "UPS output power");
    I.u_Pin = f.addSeries("/ups/P_in", 0, "W", "UPS input power");
    I.u_soc = f.addSeries("/ups/SOC", 0, "1", "battery state of charge");
    I.u_loss = f.addSeries("/ups/P_loss", 0, "W", "UPS conversion, standby and charging loss");
    I.f_Ptot = f.addSeries("/facility/P_total", 0, "W",
                           "utility power (IT + power-chain losses + CDU pumps)");
    I.f_Pcool = f.addSeries("/facility/P_cooling", 0, "W",
                            "cooling power: CDU pumps (plant pumps and towers: not modelled yet)");
    I.f_pue = f.addSeries("/facility/PUE", 0, "1",
                          "P_total / IT power (IT: AC input of the racks' power shelves)");
    I.f_pue_x = f.addSeries("/facility/PUE_exadigit", 0, "1",
                            "(IT heat + CDU pumps + plant) / IT heat, as ExaDigiT/RAPS defines it");
    I.e_util = f.addSeries("/energy/utility", 0, "J", "cumulative utility energy");
    I.e_it = f.addSeries("/energy/it", 0, "J", "cumulative DC energy delivered to the racks");
    I.e_chain = f.addSeries("/energy/power_chain_loss", 0, "J",
                            "cumulative shelf + busway + UPS + transformer losses");
  }
  if (m.ngpu > 0 && power_interval > 0) {
    I.power_every = std::max(1, int(std::lround(power_interval / m.gpu_dt)));
    I.p_time = f.addSeries("/power/time", 0, "s", "time of each fast power row");
    I.p_PIT = f.addSeries("/power/P_IT", 0, "W", "IT power at the GPU step (sub-second swings)");
    I.p_rack = f.addSeries("/power/rack_P", nr, "W", "rack power at the GPU step");
  }
  I.row.resize(std::max({nr, nc, std::size_t(m.ngpu), std::size_t(m.njob)}));
}

Hdf5Sink::~Hdf5Sink() = default;

void Hdf5Sink::sample(const FacilityModel& m, const State& st, const double* y, double t,
                      const EnergyTotals& e) {
  Impl& I = *impl_;
  ResultsFile& f = I.file;
  const Signals& g = st.sig;
  double tt = t;
  f.appendRow(I.s_time, std::span<const double>(&tt, 1));
  std::span<double> rr(I.row.data(), m.nrack);
  auto put = [&](int series, auto fn, int n) {
    for (int i = 0; i < n; ++i) I.row[i] = fn(i);
    f.appendRow(series, std::span<const double>(I.row.data(), n));
  };
  (void)rr;
  const double* ys = y;
  put(
      I.r_Tsup,
      [&](int r) {
        int c = m.rack_cdu[r];
        return ys[m.supSegAdr(c) + m.cdu_nseg_sup[c] - 1];
      },
      m.nrack);
  put(
      I.r_Tret, [&](int r) { return ys[m.rackAdr(r)]; }, m.nrack);
  put(
      I.r_Tcase, [&](int r) { return ys[m.rackAdr(r) + 1]; }, m.nrack);
  put(
      I.r_V, [&](int r) { return g.m_rack[r] / m.fluids[m.cdu_fluid[m.rack_cdu[r]]].rho_ref(); },
      m.nrack);
  put(
      I.r_dp, [&](int r) { return g.dp_rack[r]; }, m.nrack);
  put(
      I.r_Qliq, [&](int r) { return g.Q_liquid[r]; }, m.nrack);
  put(
      I.r_Qair, [&](int r) { return g.Q_air[r]; }, m.nrack);
  put(
      I.r_P, [&](int r) { return g.P_rack[r]; }, m.nrack);
  put(
      I.c_Tss, [&](int c) { return ys[m.stateAdr(c, kTHexSec)]; }, m.ncdu);
  put(
      I.c_Tsr, [&](int c) { return ys[m.retSegAdr(c) + m.cdu_nseg_ret[c] - 1]; }, m.ncdu);
  put(
      I.c_Tps, [&](int c) { return g.T_fws[c]; }, m.ncdu);
  put(
      I.c_Tpr, [&](int c) { return ys[m.stateAdr(c, kTHexPrim)]; }, m.ncdu);
  put(
      I.c_Vs, [&](int c) { return g.m_sec[c] / m.fluids[m.cdu_fluid[c]].rho_ref(); }, m.ncdu);
  put(
      I.c_Vp, [&](int c) { return g.m_prim[c] / m.fluids[m.fws_fluid].rho_ref(); }, m.ncdu);
  put(
      I.c_N, [&](int c) { return ys[m.stateAdr(c, kNPump)]; }, m.ncdu);
  put(
      I.c_Pp, [&](int c) { return g.P_pump[c]; }, m.ncdu);
  put(
      I.c_y, [&](int c) { return ys[m.stateAdr(c, kYValve)]; }, m.ncdu);
  put(
      I.c_Q, [&](int c) { return g.Q_hex[c]; }, m.ncdu);
  put(
      I.c_dpb, [&](int c) { return g.dp_bank[c]; }, m.ncdu);
  put(
      I.c_pt, [&](int c) { return g.p_tank[c]; }, m.ncdu);
  put(
      I.c_lost, [&](int c) { return ys[m.stateAdr(c, kVLost)]; }, m.ncdu);
  put(
      I.c_air, [&](int c) { return ys[m.stateAdr(c, kVAir)]; }, m.ncdu);
  put(
      I.c_level,
      [&](int c) { return std::max(tankLiquidFraction(m, c, ys[m.stateAdr(c, kVLost)]), 0.0); },
      m.ncdu);
  put(
      I.r_iso, [&](int r) { return rackIsolation(m, st, r, t); }, m.nrack);
  put(
      I.r_leak,
      [&](int r) {
        double q = 0;
        for (std::size_t k = 0; k < m.leaks.size(); ++k)
          if (m.leaks[k].rack == r) q += g.leak_flow[k];
        return q;
      },
      m.nrack);
  double P_IT = 0;
  for (int r = 0; r < m.nrack; ++r) P_IT += g.P_rack[r];
  f.appendRow(I.f_PIT, std::span<const double>(&P_IT, 1));
  if (I.b_I >= 0) {
    const PowerLayerState& pl = st.pl;
    const int nb = int(m.busway_name.size());
    put(
        I.b_I, [&](int b) { return pl.bus_I[b]; }, nb);
    put(
        I.b_ratio, [&](int b) { return pl.bus_I[b] / m.power.busways[b].params.I_rated; }, nb);
    put(
        I.b_T, [&](int b) { return pl.T_bus[b]; }, nb);
    put(
        I.b_loss, [&](int b) { return pl.bus_loss[b]; }, nb);
    put(
        I.b_brk, [&](int b) { return pl.bus_brk[b].tripped ? 1.0 : 0.0; }, nb);
    put(
        I.r_Pin, [&](int r) { return pl.rack_P_in[r]; }, m.nrack);
    put(
        I.r_psu, [&](int r) { return pl.rack_psu_loss[r]; }, m.nrack);
    double P_pumps = 0;
    for (int c = 0; c < m.ncdu; ++c) P_pumps += g.P_pump[c];
    double P_it = 0;
    for (int r = 0; r < m.nrack; ++r) P_it += pl.rack_P_in[r];  // IT = rack AC input (as metered)
    const double soc = m.power.ups.battery_J > 0 ? pl.ups.soc_J / m.power.ups.battery_J : 0.0;
    const double P_total = pl.P_utility + P_pumps;
    PueComponents pc;
    pc.Q_it = P_it;
    pc.W_cdu_pumps = P_pumps;
    double v[12] = {pl.P_ups_out,
                    pl.P_ups_in,
                    soc,
                    pl.P_ups_loss,
                    P_total,
                    P_pumps,
                    P_it > 0 ? P_total / P_it : std::numeric_limits<double>::quiet_NaN(),
                    P_it > 0 ? pueExaDigiT(pc) : std::numeric_limits<double>::quiet_NaN(),
                    pl.E_utility,
                    pl.E_it,
                    pl.E_psu + pl.E_bus + pl.E_ups + pl.E_tx,
                    0};
    int ids[11] = {I.u_P,   I.u_Pin,   I.u_soc,  I.u_loss, I.f_Ptot, I.f_Pcool,
                   I.f_pue, I.f_pue_x, I.e_util, I.e_it,   I.e_chain};
    for (int k = 0; k < 11; ++k) f.appendRow(ids[k], std::span<const double>(&v[k], 1));
  }
  if (I.room_T >= 0) {
    double v[4] = {y[m.room_state], e.air_in, e.air_removed, e.air_stored};
    int ids[4] = {I.room_T, I.e_ain, I.e_arem, I.e_ast};
    for (int k = 0; k < 4; ++k) f.appendRow(ids[k], std::span<const double>(&v[k], 1));
  }
  if (I.g_Tj >= 0) {
    const GpuLayerState& gl = st.gl;
    const double span_t = gl.interval_time > 0 ? gl.interval_time : 1.0;
    put(
        I.g_Tj, [&](int i) { return gl.Tj_max[i]; }, m.ngpu);
    put(
        I.g_Thbm, [&](int i) { return gl.Thbm_max[i]; }, m.ngpu);
    put(
        I.g_P, [&](int i) { return gl.interval_time > 0 ? gl.P_sum[i] / span_t : gl.op[i].P; },
        m.ngpu);
    put(
        I.g_clk, [&](int i) { return gl.op[i].clock_ratio; }, m.ngpu);
    put(
        I.g_thr, [&](int i) { return double(gl.op[i].reasons); }, m.ngpu);
    put(
        I.g_asm, [&](int i) { return gl.util[i].a_sm; }, m.ngpu);
    put(
        I.g_ahbm, [&](int i) { return gl.util[i].a_hbm; }, m.ngpu);
    put(
        I.g_anvl, [&](int i) { return gl.util[i].a_nvlink; }, m.ngpu);
    double gev[3] = {e.gpu_electric, e.gpu_to_coolant, e.gpu_stored};
    int ges[3] = {I.e_gel, I.e_gco, I.e_gst};
    for (int k = 0; k < 3; ++k) f.appendRow(ges[k], std::span<const double>(&gev[k], 1));
  }
  if (m.njob > 0) {
    const GpuLayerState& gl = st.gl;
    // iteration metrics exist for training jobs only (NaN for inference and trace replay)
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto tr = [&](int j) { return m.job_kind[j] == 0; };
    put(
        I.j_it, [&](int j) { return tr(j) ? meanIterationTime(gl.job[j]) : nan; }, m.njob);
    put(
        I.j_last, [&](int j) { return tr(j) ? gl.job[j].last_iteration_time : nan; }, m.njob);
    put(
        I.j_ratio, [&](int j) { return tr(j) ? throughputRatio(gl.job[j]) : nan; }, m.njob);
    put(
        I.j_thr, [&](int j) { return gl.job_throttled[j]; }, m.njob);
    put(
        I.j_n, [&](int j) { return double(gl.job[j].iterations); }, m.njob);
  }
  double ev[5] = {e.heat_in, e.heat_out_fws, e.heat_loss, e.stored, e.balanceError()};
  int es[5] = {I.e_in, I.e_out, I.e_loss, I.e_stored, I.e_err};
  for (int k = 0; k < 5; ++k) f.appendRow(es[k], std::span<const double>(&ev[k], 1));
  if (++I.count % I.flush_every == 0) f.flush();
}

void Hdf5Sink::fast(const FacilityModel& m, const State& st, double t) {
  Impl& I = *impl_;
  if (I.p_time < 0 || (++I.fast_count % I.power_every) != 0) return;
  ResultsFile& f = I.file;
  double P = 0;
  for (int r = 0; r < m.nrack; ++r) {
    I.row[r] = m.rack_resolved[r] ? st.gl.rack_P_now[r] : m.rack_load[r].eval(t);
    P += I.row[r];
  }
  f.appendRow(I.p_time, std::span<const double>(&t, 1));
  f.appendRow(I.p_PIT, std::span<const double>(&P, 1));
  f.appendRow(I.p_rack, std::span<const double>(I.row.data(), m.nrack));
}

void Hdf5Sink::finish(const RunResult& r) {
  ResultsFile& f = impl_->file;
  f.setAttribute("/", "status",
                 std::string(!r.ok         ? "failed"
                             : r.cancelled ? "cancelled"
                                           : "completed"));
  f.setAttribute("/", "error", r.error);
  f.setAttribute("/", "t_end", r.t_end);
  f.setAttribute("/", "wall_seconds", r.wall_seconds);
  f.setAttribute(
      "/", "solver",
      std::string("CVODE BDF, Newton, KLU sparse direct, colored difference-quotient jacobian"));
  f.setAttribute("/", "solver_steps", static_cast<long long>(r.stats.steps));
  f.setAttribute("/", "solver_rhs_evals", static_cast<long long>(r.stats.rhs_evals));
  f.setAttribute("/", "solver_rhs_evals_jacobian", static_cast<long long>(r.stats.rhs_evals_jac));
  f.setAttribute("/", "solver_jacobian_evals", static_cast<long long>(r.stats.jac_evals));
  f.setAttribute("/", "solver_linear_setups", static_cast<long long>(r.stats.lin_setups));
  f.setAttribute("/", "solver_nonlinear_iterations", static_cast<long long>(r.stats.nonlin_iters));
  f.setAttribute("/", "solver_nonlinear_failures",
                 static_cast<long long>(r.stats.nonlin_conv_fails));
  f.setAttribute("/", "solver_error_test_failures", static_cast<long long>(r.stats.err_test_fails));
  f.setAttribute("/", "solver_last_step", r.stats.last_step);
  f.setAttribute("/", "hydraulic_solve_failures",
                 static_cast<long long>(r.stats.hydraulic_failures));
  // the event log, one entry per row across the datasets of /events
  std::vector<double> time;
  std::vector<std::string> component, kind, severity, message;
  for (const EventRecord& ev : r.events) {
    time.push_back(ev.time);
    component.push_back(ev.component);
    kind.push_back(ev.kind);
    severity.push_back(ev.severity);
    message.push_back(ev.message);
  }
  f.writeVector("/events/time", time, "s", "time of each event");
  f.writeStrings("/events/component", component, "component the event is about");
  f.writeStrings("/events/kind", kind, "event kind (docs/results.md)");
  f.writeStrings("/events/severity", severity, "info, warning or critical");
  f.writeStrings("/events/message", message, "what happened, in words");
  f.close();
}

}  // namespace dctwin
