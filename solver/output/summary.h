// summary.h: running extremes and end values of a run, read from its output frames, and the
// CLI's text summary
#pragma once

#include <string>
#include <vector>

#include "solver/output/grid_meter.h"
#include "solver/output/monthly.h"
#include "solver/output/sinks.h"

namespace dctwin {

struct RunSummary {
  double T_case_max = -1e300;  // (K)
  std::string T_case_max_rack;
  double T_case_max_time = 0;    // (s)
  double T_return_max = -1e300;  // rack outlet (K)
  std::string T_return_max_rack;
  double T_supply_max = -1e300;                                    // CDU supply (K)
  double rack_flow_min = 1e300, rack_flow_max = -1e300;            // (m3/s)
  double cdu_flow_total = 0;                                       // at the end (m3/s)
  double heat_liquid = 0, heat_air = 0, heat_fws = 0, P_pump = 0;  // at the end (W)
  double heat_air_racks = 0;  // air-cooled racks' IT + fan heat at the end (W)
  EnergyTotals energy;        // at the end (J)
  double t_end = 0;
  // resolved GPUs and jobs
  double T_j_max = -1e300, T_hbm_max = -1e300;  // (K)
  std::string T_j_max_gpu;                      // "rack A03 GPU 17"
  double P_IT = 0;                              // at the end, window mean (W)
  struct Job {
    std::string name;
    long iterations = 0;
    double iteration_time = 0, reference_time = 0, throughput_ratio = 0;  // (s), (s), (1)
    double throttled_gpu_seconds = 0;                                     // (s)
    double capped_gpu_seconds = 0;  // clock held down by the power cap (s)
    double stalled_time = 0;        // the live GPUs waited on one that is off    (s)
    double progress_ratio = 0;      // iterations x reference / time since start (1)
    int gpus = 0;
    int kind = 0;  // 0 training, 1 inference, 2 trace replay
    // the bottleneck map (docs/models/job.md): mean seconds per GPU by /job/time/<part>
    std::vector<std::pair<std::string, double>> time_map;
    // its barrier wait by the straggler's cause (/job/wait/<cause>) and the GPU that caused the
    // most of it ("rack A01 GPU 0", empty: none), with that wait, mean per GPU          (s)
    std::vector<std::pair<std::string, double>> wait_map;
    std::string straggler;
    double straggler_wait = 0;
    double goodput = 0;  // (1)
    long failures = 0;
    // the failure process (docs/models/failures.md): the job's expected mean time between
    // failures and Daly's optimum checkpoint interval; NaN without a failures: section  (s)
    double mtbf = 0, checkpoint_interval_optimal = 0;
    // achieved by the step model's count (/job/tokens_per_second, /job/mfu); NaN where the job
    // is not a described training job or no iteration completed                (1/s), (1)
    double tokens_per_second = 0, mfu = 0;
  };
  std::vector<Job> jobs;
  double gpu_seconds_throttled = 0;  // all GPUs (s)
  double gpu_seconds_capped = 0;     // all GPUs, under the power cap (s)
  int gpus_shut_down = 0;
  // GPU-to-GPU spread (docs/models/gpu_variation.md) at the output row of the widest junction
  // spread
  double Tj_spread_max = 0, Tj_p99_max = -1e300;  // junction max - min, p99            (K)
  double P_spread_max = 0;                        // GPU power max - min               (W)
  double clock_spread_max = 0;                    // clock ratio max - min, job GPUs   (1)
  struct HotGpu {
    std::string gpu;  // "rack A03 GPU 17"
    double T_j = 0;   // (K)
    int cause = 0;    // /gpu/hot_cause: 0 inlet, 1 flow, 2 silicon, 3 TIM
  };
  std::vector<HotGpu> hottest;               // at the row of the peak junction, hottest first
  double first_throttle_time = -1;           // first output row with a thermally throttled GPU
  std::vector<std::string> first_throttled;  // the GPUs throttled by then, longest first
  double T_room_max = -1e300;                // (K)
  // air handlers (docs/models/air_handler.md): fan and chiller energy (J); coil duty and fan
  // speed at the end (W, 1)
  double E_ah_fans = 0, E_ah_chiller = 0, Q_coil = 0, ah_speed = 0;
  // power chain, cumulative (J)
  double E_storage = 0;  // net energy drawn from the UPS batteries and rack stores (J)
  double E_utility = 0, E_it_dc = 0, E_psu = 0, E_bus = 0, E_ups = 0, E_tx = 0, E_pump = 0;
  double E_bess = 0;  // the site battery's conversion loss (J)
  // the plant (docs/models/plant.md): energies (J), site water (kg), cost, CO2 (kg), mode times (s)
  struct Plant {
    double E_facility = 0, E_it = 0, E_pumps = 0, E_fans = 0, E_chillers = 0, E_cond_fans = 0;
    double pue = 0, ppue_cooling = 0, wue = 0, water = 0, evaporation = 0, cost = 0, co2 = 0;
    double t_free = 0, t_partial = 0, t_mechanical = 0;
    double T_supply_min = 1e300, T_supply_max = -1e300;
  } plant;
  std::vector<MonthTotals> months;  // per calendar month (a plant section; solver/output/monthly.h)
  GridReport grid;                  // the meter's metrics (fast rows; solver/output/grid_meter.h)
  double bus_load_max = 0;          // highest busway current / rating seen at an output (1)
  int racks_unpowered = 0;
  // leaks, at the end
  double coolant_lost = 0, air_volume = 0;  // all CDUs (m3)
};

class SummarySink : public RunSink {
 public:
  void begin(const RunLayout& L, const FrameLayout& F) override;
  void row(const OutputFrame& f) override;
  // the meter's fast rows, every `dt` (the run path sets the shortest of its other sinks', so
  // that the summary reads the series the results file holds); 0: none
  void setFastInterval(double dt) { fast_interval_ = dt; }
  double fastInterval() const override { return fast_interval_; }
  void fastRow(const OutputFrame& f) override { grid_.fastRow(f); }
  void end(const RunResult& r) override;
  RunSummary summary;

 private:
  const RunLayout* L_ = nullptr;  // valid from begin to the end of the run
  MonthlyTotals monthly_;
  GridMeter grid_;
  double fast_interval_ = 0;
};

std::string formatSummary(const RunLayout& L, const RunSummary& s, const RunResult& r);

}  // namespace dctwin
