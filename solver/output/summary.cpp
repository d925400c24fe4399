// summary.cpp: running extremes and end values from the output frames; the CLI's text summary
#include "solver/output/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/weather.h"
#include "solver/common/units.h"

namespace dctwin {

void SummarySink::begin(const RunLayout& L, const FrameLayout& F) {
  L_ = &L;
  summary = RunSummary{};
  monthly_ = MonthlyTotals{};
  monthly_.begin(L);
  grid_ = GridMeter{};
  if (fast_interval_ > 0) grid_.begin(L, F);
}

void SummarySink::end(const RunResult&) {
  if (grid_.active()) summary.grid = grid_.finish();
}

namespace {

constexpr std::size_t kHottest = 5;  // hottest GPUs listed

std::string gpuName(const RunLayout& L, int i) {
  return "rack " + L.rack_name[L.gpu_rack[i]] + " GPU " + std::to_string(L.gpu_slot[i]);
}

// GPU-to-GPU spread, the hottest GPUs and the first to throttle (docs/models/gpu_variation.md)
void gpuSpread(const RunLayout& L, const OutputFrame& f, RunSummary& s) {
  const auto Tj = f.get(Obs::GpuTJunction), cause = f.get(Obs::GpuHotCause);
  // the row with the widest junction spread (training, once the GPUs are hot): its spreads
  const double sp = f.scalar(Obs::FacilityGpuTJunctionSpread);
  if (std::isfinite(sp) && sp >= s.Tj_spread_max) {  // (ties: the later row)
    s.Tj_spread_max = sp;
    s.Tj_p99_max = f.scalar(Obs::FacilityGpuTJunctionP99);
    s.P_spread_max = f.scalar(Obs::FacilityGpuPSpread);
    s.clock_spread_max = f.scalar(Obs::FacilityGpuClockSpread);
  }
  // a new peak junction: the hottest GPUs of this row and their causes
  double peak = -1e300;
  for (int i = 0; i < L.ngpu; ++i) peak = std::max(peak, Tj[i]);
  if (peak > s.T_j_max) {
    std::vector<int> idx(std::size_t(L.ngpu));
    for (int i = 0; i < L.ngpu; ++i) idx[std::size_t(i)] = i;
    const std::size_t n = std::min(kHottest, idx.size());
    std::partial_sort(idx.begin(), idx.begin() + std::ptrdiff_t(n), idx.end(),
                      [&](int a, int b) { return Tj[a] > Tj[b] || (Tj[a] == Tj[b] && a < b); });
    s.hottest.clear();
    for (std::size_t k = 0; k < n; ++k)
      s.hottest.push_back({gpuName(L, idx[k]), Tj[idx[k]], int(cause[idx[k]])});
  }
  // the first output row with a throttled GPU: which ones (the longest throttled first)
  if (s.first_throttle_time < 0) {
    const auto thr = f.get(Obs::GpuThrottledTime);
    std::vector<int> hit;
    for (int i = 0; i < L.ngpu; ++i)
      if (thr[i] > 0) hit.push_back(i);
    if (!hit.empty()) {
      std::stable_sort(hit.begin(), hit.end(), [&](int a, int b) { return thr[a] > thr[b]; });
      s.first_throttle_time = f.t;
      for (std::size_t k = 0; k < std::min(kHottest, hit.size()); ++k)
        s.first_throttled.push_back(gpuName(L, hit[k]));
      if (hit.size() > kHottest)
        s.first_throttled.push_back("and " + std::to_string(hit.size() - kHottest) + " more");
    }
  }
}

}  // namespace

void SummarySink::row(const OutputFrame& f) {
  const RunLayout& L = *L_;
  RunSummary& s = summary;
  const double t = f.t;
  auto col = [&](Obs id) { return f.get(id); };
  auto sum = [&](Obs id) {
    double v = 0;
    for (double x : f.get(id)) v += x;
    return v;
  };
  s.coolant_lost = sum(Obs::CduCoolantLost);
  s.air_volume = sum(Obs::CduAirVolume);
  const auto T_ret = col(Obs::RackTReturn), T_case = col(Obs::RackTCase), V = col(Obs::RackVFlow);
  for (int r = 0; r < L.nrack; ++r) {
    // the rack case node means something only for heat-load racks (resolved GPUs: /gpu/*)
    if (!L.rack_resolved[r] && T_case[r] > s.T_case_max)
      s.T_case_max = T_case[r], s.T_case_max_rack = L.rack_name[r], s.T_case_max_time = t;
    if (T_ret[r] > s.T_return_max) s.T_return_max = T_ret[r], s.T_return_max_rack = L.rack_name[r];
    if (t > 0) {  // flows at t = 0 are those of the initial pump speed
      s.rack_flow_min = std::min(s.rack_flow_min, V[r]);
      s.rack_flow_max = std::max(s.rack_flow_max, V[r]);
    }
  }
  s.heat_liquid = sum(Obs::RackQLiquid);
  s.heat_air = sum(Obs::RackQAir);
  s.heat_air_racks = sum(Obs::AirRackP) + sum(Obs::AirRackPFan);
  for (double T : col(Obs::CduTSecSupply)) s.T_supply_max = std::max(s.T_supply_max, T);
  s.cdu_flow_total = sum(Obs::CduVFlowSec);
  s.P_pump = sum(Obs::CduPPump);
  s.heat_fws = f.scalar(Obs::FacilityQFacilityWater);
  if (L.has_room) s.T_room_max = std::max(s.T_room_max, f.scalar(Obs::RoomTAir));
  s.E_pump = f.scalar(Obs::EnergyPumpElectric);
  if (L.has_air_handlers) {
    s.E_ah_fans = f.scalar(Obs::EnergyAirHandlerFans);
    s.E_ah_chiller = f.scalar(Obs::EnergyAirHandlerChiller);
    s.Q_coil = f.scalar(Obs::RoomQCoil);
    s.ah_speed = f.scalar(Obs::RoomAirHandlerSpeed);
  }
  if (L.has_power) {
    s.E_utility = f.scalar(Obs::EnergyUtility);
    s.E_storage = f.scalar(Obs::EnergyStorageDrawn);
    s.E_it_dc = f.scalar(Obs::EnergyIt);
    s.E_psu = f.scalar(Obs::EnergyPsuLoss);
    s.E_bus = f.scalar(Obs::EnergyBuswayLoss);
    s.E_ups = f.scalar(Obs::EnergyUpsLoss);
    s.E_tx = f.scalar(Obs::EnergyTransformerLoss);
    s.E_bess = f.scalar(Obs::EnergySiteBatteryLoss);
    for (double x : col(Obs::BuswayLoadRatio)) s.bus_load_max = std::max(s.bus_load_max, x);
    s.racks_unpowered = 0;
    for (double p : col(Obs::RackPowered)) s.racks_unpowered += p > 0.5 ? 0 : 1;
  }
  if (L.has_plant) {
    RunSummary::Plant& P = s.plant;
    P.E_facility = f.scalar(Obs::EnergyFacility);
    P.E_it = f.scalar(Obs::EnergyItPue);
    P.E_pumps = f.scalar(Obs::EnergyPlantPumps);
    P.E_fans = f.scalar(Obs::EnergyPlantFans);
    P.E_chillers = f.scalar(Obs::EnergyPlantChillers);
    P.E_cond_fans = f.scalar(Obs::EnergyPlantCondenserFans);
    P.pue = f.scalar(Obs::PlantPUE);
    P.ppue_cooling = f.scalar(Obs::PlantPPUECooling);
    P.wue = f.scalar(Obs::PlantWUE);
    P.water = f.scalar(Obs::WaterSite);
    P.evaporation = f.scalar(Obs::WaterEvaporation);
    P.cost = f.scalar(Obs::PlantCost);
    P.co2 = f.scalar(Obs::PlantCO2);
    P.t_free = f.scalar(Obs::PlantTimeFree);
    P.t_partial = f.scalar(Obs::PlantTimePartial);
    P.t_mechanical = f.scalar(Obs::PlantTimeMechanical);
    monthly_.row(f);
    s.months = monthly_.months();
    const double Ts = f.scalar(Obs::PlantTSupply);
    P.T_supply_min = std::min(P.T_supply_min, Ts);
    P.T_supply_max = std::max(P.T_supply_max, Ts);
  }
  EnergyTotals& e = s.energy;
  e.heat_in = f.scalar(Obs::EnergyHeatIn);
  e.heat_out_fws = f.scalar(Obs::EnergyHeatToFacilityWater);
  e.heat_loss = f.scalar(Obs::EnergyHeatLossAmbient);
  e.stored = f.scalar(Obs::EnergyStored);
  e.pump_electric = s.E_pump;
  if (L.has_room) {
    e.air_in = f.scalar(Obs::EnergyAirIn);
    e.air_removed = f.scalar(Obs::EnergyAirRemoved);
    e.air_stored = f.scalar(Obs::EnergyAirStored);
    e.ah_fans = s.E_ah_fans;
    e.ah_chiller = s.E_ah_chiller;
  }
  if (L.ngpu > 0) {
    e.gpu_electric = f.scalar(Obs::EnergyGpuElectric);
    e.gpu_to_coolant = f.scalar(Obs::EnergyGpuToCoolant);
    e.gpu_stored = f.scalar(Obs::EnergyGpuStored);
  }
  s.t_end = t;
  // GPUs and jobs
  s.P_IT = f.scalar(Obs::FacilityPIT);
  if (L.ngpu > 0) {
    gpuSpread(L, f, s);  // before the peak junction below is updated
    const auto Tj = col(Obs::GpuTJunction), Thbm = col(Obs::GpuTHbm);
    for (int i = 0; i < L.ngpu; ++i) {
      if (Tj[i] > s.T_j_max) {
        s.T_j_max = Tj[i];
        s.T_j_max_gpu =
            "rack " + L.rack_name[L.gpu_rack[i]] + " GPU " + std::to_string(L.gpu_slot[i]);
      }
      s.T_hbm_max = std::max(s.T_hbm_max, Thbm[i]);
    }
    s.gpu_seconds_throttled = f.scalar(Obs::FacilityGpuSecondsThrottled);
    s.gpu_seconds_capped = f.scalar(Obs::FacilityGpuSecondsPowerCapped);
    s.gpus_shut_down = int(f.scalar(Obs::FacilityGpusShutDown));
  }
  s.jobs.resize(L.njob);
  for (int j = 0; j < L.njob; ++j) {
    RunSummary::Job& J = s.jobs[j];
    J.name = L.job_name[j];
    J.iterations = long(col(Obs::JobIterations)[j]);
    J.kind = L.job_kind[j];
    J.gpus = L.job_gpus[j];
    // iteration metrics of training jobs only
    J.iteration_time = J.kind == 0 ? col(Obs::JobIterationTime)[j] : 0.0;
    J.reference_time = J.kind == 0 ? col(Obs::JobReferenceIterationTime)[j] : 0.0;
    J.throughput_ratio = J.kind == 0 ? col(Obs::JobThroughputRatio)[j] : 0.0;
    J.throttled_gpu_seconds = col(Obs::JobThrottledGpuSeconds)[j];
    J.capped_gpu_seconds = col(Obs::JobPowerCappedGpuSeconds)[j];
    J.stalled_time = col(Obs::JobStalledTime)[j];
    J.progress_ratio = col(Obs::JobProgressRatio)[j];
    J.time_map.clear();
    J.tokens_per_second = J.mfu = std::nan("");  // training jobs only (described: the rows')
    if (J.kind == 0) {
      J.goodput = col(Obs::JobGoodput)[j];
      J.failures = long(col(Obs::JobFailures)[j]);
      J.mtbf = col(Obs::JobMtbf)[j];
      J.checkpoint_interval_optimal = col(Obs::JobCheckpointIntervalOptimal)[j];
      for (int c = 0; c <= int(Obs::JobTimeExcluded) - int(Obs::JobTimeCompute); ++c) {
        const Obs o = Obs(int(Obs::JobTimeCompute) + c);
        J.time_map.emplace_back(std::string(obsPath(o)).substr(10), col(o)[j]);
      }
      J.wait_map.clear();
      for (int c = 0; c <= int(Obs::JobWaitImbalance) - int(Obs::JobWaitThermal); ++c) {
        const Obs o = Obs(int(Obs::JobWaitThermal) + c);
        J.wait_map.emplace_back(std::string(obsPath(o)).substr(10), col(o)[j]);
      }
      const double sg = col(Obs::JobStragglerGpu)[j];
      J.straggler = sg >= 0 && int(sg) < int(L.gpu_rack.size()) ? gpuName(L, int(sg)) : "";
      J.straggler_wait = col(Obs::JobStragglerWait)[j];
      J.tokens_per_second = col(Obs::JobTokensPerSecond)[j];
      J.mfu = col(Obs::JobMfu)[j];
    }
  }
}

namespace {
std::string fmtS(double seconds) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f s", seconds);
  return b;
}
}  // namespace

std::string formatSummary(const RunLayout& m, const RunSummary& s, const RunResult& r) {
  char buf[512];
  std::string out;
  auto line = [&](const char* fmt, auto... args) {
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
    out += '\n';
  };
  line("dctwin run: %s  (%d CDU, %d racks, %d states)", m.name.c_str(), m.ncdu, m.nrack, m.nstate);
  line("  status              %s at t = %.0f s (%.2f h simulated in %.2f s wall, %.0fx real time)",
       !r.ok                    ? "FAILED"
       : !r.interrupted.empty() ? ("interrupted by " + r.interrupted).c_str()
       : r.cancelled            ? "cancelled"
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
    char bess[64] = "";
    if (s.E_bess > 0)
      std::snprintf(bess, sizeof bess, ", site battery %.2f kW", s.E_bess / T / 1e3);
    line(
        "  losses by stage     shelves %.2f kW, busways %.2f kW, UPS %.2f kW, transformer %.2f "
        "kW%s",
        s.E_psu / T / 1e3, s.E_bus / T / 1e3, s.E_ups / T / 1e3, s.E_tx / T / 1e3, bess);
    line(
        "  PUE                 %.4f  ((utility + stores drawn + CDU pumps + air handlers) / IT AC "
        "energy; ExaDigiT form %.4f)",
        (s.E_utility + s.E_storage + s.E_pump + s.E_ah_fans + s.E_ah_chiller) / it_ac,
        (it_ac + s.E_pump + s.E_ah_fans + s.E_ah_chiller) / it_ac);
    line(
        "  busways             peak load %.0f %% of rating at an output time%s; %d racks unpowered",
        100 * s.bus_load_max, s.bus_load_max > 0.8 ? " (above the 80 % continuous rule)" : "",
        s.racks_unpowered);
  }
  if (m.has_plant && s.plant.E_it > 0) {
    const RunSummary::Plant& P = s.plant;
    const double h = 3.6e6;  // J per kWh
    line("  plant PUE           %.4f  (E_DC / E_IT from t = 0, The Green Grid); cooling pPUE %.4f",
         P.pue, P.ppue_cooling);
    line(
        "  plant energy        IT %.1f kWh; pumps %.2f, fans %.2f, chillers %.2f, condenser fans "
        "%.2f kWh; CDU pumps %.2f kWh",
        P.E_it / h, P.E_pumps / h, P.E_fans / h, P.E_chillers / h, P.E_cond_fans / h, s.E_pump / h);
    line("  plant water         %.1f L site water (%.1f L evaporated), WUE %.3f L/kWh", P.water,
         P.evaporation, P.wue);
    line("  plant cost, CO2     %.2f %s, %.1f kg CO2", P.cost, m.currency.c_str(), P.co2);
    line(
        "  plant modes         free %.2f h, partial %.2f h, mechanical %.2f h; supply %.1f .. "
        "%.1f degC",
        P.t_free / 3600, P.t_partial / 3600, P.t_mechanical / 3600, toCelsius(P.T_supply_min),
        toCelsius(P.T_supply_max));
    line("  calendar            t = 0 at %s, the weather's local standard time (%s)",
         calendarText(m.year_start).c_str(), utcOffsetText(m.utc_offset).c_str());
    if (s.months.size() > 1)  // a long run: the GPU side and the energy per calendar month
      for (const MonthTotals& mo : s.months)
        line(
            "  month %2d            %.1f GPU-h throttled, throughput lost %.4f, PUE %.4f, "
            "%.1f m3 water, %.2f %s",
            mo.month, mo.gpu_seconds_throttled / 3600, mo.throughputLost(), mo.pue(),
            mo.water / 1000, mo.cost, m.currency.c_str());
  }
  if (r.stats.annual_windows > 0)
    line(
        "  annual mode         %ld full-resolution windows, %.2f h at full resolution (%.2f %%), "
        "%.1f h in slow segments (docs/models/annual.md)",
        r.stats.annual_windows, r.stats.annual_window_time / 3600,
        100 * r.stats.annual_window_time /
            std::max(r.stats.annual_window_time + r.stats.annual_slow_time, 1e-9),
        r.stats.annual_slow_time / 3600);
  if (m.has_room)
    line("  room air            %.1f degC peak, %.1f kW from the racks' air side (end)",
         toCelsius(s.T_room_max), (s.heat_air + s.heat_air_racks) / 1e3);
  if (m.has_air_handlers)
    line(
        "  air handlers        fans %.2f kWh, chilled-water chiller %.2f kWh (in PUE); coils %.1f "
        "kW, "
        "fan speed %.0f %% (end)",
        s.E_ah_fans / 3.6e6, s.E_ah_chiller / 3.6e6, s.Q_coil / 1e3, 100 * s.ah_speed);
  else if (m.has_room)
    line("  air handlers        none given: the room air's fixed supply is outside PUE");
  if (m.ngpu > 0) {
    line("  GPUs                %d resolved; peak junction %.1f degC (%s), peak HBM %.1f degC",
         m.ngpu, toCelsius(s.T_j_max), s.T_j_max_gpu.c_str(), toCelsius(s.T_hbm_max));
    line(
        "  GPU throttling      %.0f GPU-s thermal or brake throttled, %.0f GPU-s under the power "
        "cap, %d GPUs shut down",
        s.gpu_seconds_throttled, s.gpu_seconds_capped, s.gpus_shut_down);
    line(
        "  GPU spread          junction %.1f K max - min (p99 %.1f degC), power %.1f W, clock at "
        "the cap %.1f %% of boost (the row of the widest junction spread; "
        "docs/models/gpu_variation.md)",
        s.Tj_spread_max, toCelsius(s.Tj_p99_max), s.P_spread_max,
        100 * (std::isfinite(s.clock_spread_max) ? s.clock_spread_max : 0.0));
    static const char* const kCause[] = {"inlet", "flow", "silicon", "TIM"};
    std::string hot;
    for (const auto& h : s.hottest) {
      char b[128];
      std::snprintf(b, sizeof b, "%s%s %.1f degC (%s)", hot.empty() ? "" : ", ", h.gpu.c_str(),
                    toCelsius(h.T_j), kCause[std::clamp(h.cause, 0, 3)]);
      hot += b;
    }
    if (!hot.empty()) line("  hottest GPUs        %s", hot.c_str());
    if (s.first_throttle_time >= 0) {
      std::string first;
      for (const auto& g : s.first_throttled) first += (first.empty() ? "" : ", ") + g;
      line("  first throttled     by t = %.0f s: %s", s.first_throttle_time, first.c_str());
    }
    line("  IT power (end)      %.1f kW (mean of the last coupling window)", s.P_IT / 1e3);
    for (const auto& J : s.jobs)
      if (J.kind != 0)
        line("  job %-15s %d GPUs, %s", J.name.c_str(), J.gpus,
             J.kind == 1 ? "inference (load profile)" : "trace replay");
      else
        line(
            "  job %-15s %d GPUs, %ld iterations, iteration %.3f s (reference %.3f s), "
            "throughput ratio %.4f, %.0f GPU-s throttled, %.0f GPU-s under the power cap",
            J.name.c_str(), J.gpus, J.iterations, J.iteration_time, J.reference_time,
            J.throughput_ratio, J.throttled_gpu_seconds, J.capped_gpu_seconds);
    // the step model of each described job (DCTWIN_JOB_MODEL): nominal and achieved
    for (int j = 0; j < int(s.jobs.size()); ++j) {
      if (!m.jobDescribed(j)) continue;
      const auto& J = s.jobs[j];
      auto v = [&](JobCol c) { return m.jobModel(j, c); };
      auto achieved = [](double x, double scale, const char* fmt) {
        char b[32];
        if (std::isfinite(x))
          std::snprintf(b, sizeof b, fmt, x * scale);
        else
          std::snprintf(b, sizeof b, "-");
        return std::string(b);
      };
      line(
          "  job %-15s step model: step %.3f s nominal, %s s achieved; %.3f M tokens/s nominal, "
          "%s M achieved; MFU %.1f %% nominal, %s %% achieved (%.3f EFLOP per iteration: "
          "6 N T + attention, on the dense BF16 peak)",
          J.name.c_str(), v(JobCol::StepTime),
          achieved(J.iteration_time > 0 ? J.iteration_time : std::nan(""), 1, "%.3f").c_str(),
          v(JobCol::TokensPerSecond) / 1e6, achieved(J.tokens_per_second, 1e-6, "%.3f").c_str(),
          100 * v(JobCol::Mfu), achieved(J.mfu, 100, "%.1f").c_str(), v(JobCol::Flops) / 1e18);
      line(
          "  job %-15s memory per GPU %.1f GB of %.1f GB (weights %.1f, gradients %.1f, "
          "optimizer %.1f, activations %.1f GB); %.0f micro-batches, dp %.0f, recompute %s",
          J.name.c_str(), v(JobCol::MemoryPerGpu) / 1e9, v(JobCol::HbmCapacity) / 1e9,
          v(JobCol::MemoryWeights) / 1e9, v(JobCol::MemoryGradients) / 1e9,
          v(JobCol::MemoryOptimizer) / 1e9, v(JobCol::MemoryActivations) / 1e9,
          v(JobCol::MicroBatches), v(JobCol::DataParallel), jobRecomputeName(v(JobCol::Recompute)));
    }
    // the bottleneck map of each training job: where its wall time went (docs/models/job.md)
    for (const auto& J : s.jobs) {
      double wall = 0;
      for (const auto& [n, v] : J.time_map) wall += v;
      if (J.kind != 0 || !(wall > 0)) continue;
      line("  job %-15s where the time went (mean per GPU, %.0f s): goodput %.4f, %ld failures",
           J.name.c_str(), wall, J.goodput, J.failures);
      // the failure process: failures per 1,000 GPU-days against the rate it was drawn at
      if (std::isfinite(J.mtbf) && J.gpus > 0)
        line(
            "      failures as a process: %.3f job failures per 1,000 GPU-days (expected at "
            "most %.3f: one every %.1f h); optimum checkpoint interval %.1f min (Daly)",
            double(J.failures) / (double(J.gpus) * wall / 86400) * 1000,
            1000 * 86400 / (J.mtbf * double(J.gpus)), J.mtbf / 3600,
            J.checkpoint_interval_optimal / 60);
      for (const auto& [n, v] : J.time_map)
        if (v > 0) line("      %-16s %10.1f s %6.2f %%", n.c_str(), v, 100 * v / wall);
      // the barrier wait by the cause of the straggler it waited for (docs/models/job.md); NaN
      // (not kept: a job of more than 2^20 GPU groups) fails the test and the lines are left out
      double bw = 0;
      for (const auto& [n, v] : J.wait_map) bw += v;
      if (bw > 0) {
        line("      barrier wait by the straggler's cause:");
        for (const auto& [n, v] : J.wait_map)
          if (v >= 0.05) line("        %-14s %10.1f s %6.2f %%", n.c_str(), v, 100 * v / wall);
        if (!J.straggler.empty())
          line("      top straggler: %s (the others waited %.1f s per GPU for it)",
               J.straggler.c_str(), J.straggler_wait);
      }
    }
    for (const auto& J : s.jobs)
      if (J.stalled_time > 0)
        line(
            "  job %-15s stalled %.0f s: a GPU was off and the others waited at its barrier; "
            "progress %.3f of the reference pace since its start",
            J.name.c_str(), J.stalled_time, J.progress_ratio);
  }
  if (m.nleak > 0) {
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
  out += formatGridReport(s.grid);  // the meter (docs/models/grid.md), with --power-interval
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

}  // namespace dctwin
