// state.h: the mutable state of one run (one per run; a sweep is one model and many states).
// Sized by makeState (solver/engine/engine.h); only the engine and the output table
// (solver/output/observables.cpp) read its layout.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/gpu_batch.h"
#include "models/reliability.h"
#include "solver/common/report.h"
#include "solver/compile/model.h"

namespace dctwin {

// values derived from the state at one time; filled by evalRhs, read by outputs
struct Signals {
  // per cdu
  std::vector<double> m_sec, m_prim;         // (kg/s)
  std::vector<double> dp_pump, dp_bank;      // (Pa)
  std::vector<double> P_pump, Q_pump_fluid;  // (W)
  std::vector<double> Q_hex;                 // (W)
  std::vector<double> T_fws;                 // (K)
  std::vector<double> N_cmd, y_cmd;          // (1)
  std::vector<double> Q_loss;                // to ambient                            (W)
  std::vector<double> m_relief;              // through the relief valve               (kg/s)
  std::vector<double> N_solved;  // the pump speed of the last hydraulic solve (its warm start)
  // per rack
  std::vector<double> m_rack, dp_rack;                // (kg/s), (Pa)
  std::vector<double> P_rack, Q_liquid, Q_air, Q_cp;  // (W)
  std::vector<double> R_cp;         // whole-rack plate resistance            (K/W)
  std::vector<double> p_tank;       // tank (pump suction) gauge pressure    (Pa)
  std::vector<double> head_factor;  // pump head left with air in the loop   (1)
  std::vector<double> filter_dp;    // strainer/filter pressure drop (Pa)
  std::vector<double> leak_flow;    // per leak: liquid out                  (m3/s)
  std::vector<double> leak_air;     // per leak: air in                      (m3/s)
  std::vector<double> leak_p;       // per leak: local gauge pressure        (Pa)
  // per air-cooled rack: IT power, fan power (W), airflow (m3/s), fan speed (1),
  // air inlet and outlet (K)
  std::vector<double> air_P, air_P_fan, air_V, air_N, air_T_in, air_T_out;
  // per switch rack (docs/models/switch_rack.md): power, of it optics, heat to the
  // coolant and to the room air (W); per CDU: the liquid-cooled switch racks' heat (W)
  std::vector<double> sw_P, sw_P_optics, sw_Q_liquid, sw_Q_air, cdu_Q_switch;
  // totals
  double heat_in = 0, heat_out_fws = 0, heat_loss = 0;  // (W)
  double air_in = 0, air_removed = 0;  // room air: rack air-side heat in, air handlers out (W)
  // air handlers (docs/models/air_handler.md): fan speed ratio, fan and chiller power (W), heat
  // into the facility water (coil duty + chiller) (W), supply air (K), chiller part load (1)
  double ah_speed = 0, ah_P_fan = 0, ah_P_chiller = 0, ah_Q_water = 0, ah_T_supply = 0, ah_plr = 0;
  int hydraulic_failures = 0;  // nested solves that did not converge (counted, never thrown)
  int range_state = -1;        // the state furthest outside its fluid's range at the last
  double range_value = 0;      // evaluation (-1: none), and its value (K)
};

// mutable state of the GPU layer
struct GpuLayerState {
  std::vector<GpuState> gpu;                    // thermal nodes and latches
  std::vector<GpuOperatingPoint> op;            // last fast step
  std::vector<PowerSmoothingState> smooth;      // power floor / ramp limiter per GPU
  std::vector<double> filler_energy;            // burnt by the power floor, cumulative    (J)
  std::vector<Utilization> util;                // last fast step
  std::vector<double> P_sum, Tj_max, Thbm_max;  // over the current output interval
  std::vector<double> throttled_time;           // thermal or brake throttling, cumulative  (s)
  // the computation, one entry per GPU group (FacilityModel::ngroup); the per-GPU arrays above
  // are its view, refreshed by syncGpuView at every output and at the end of a run
  // the computation is a structure of arrays (models/gpu_batch.h): one array per quantity
  struct Groups {
    std::vector<double> T_j, T_hbm, T_plate;  // thermal nodes                            (K)
    std::vector<std::uint64_t> latches;       // kLatchHwSlowdown | kLatchShutDown
    // the operating point of the last step: f / f_max (1), power and its HBM share (W),
    // GpuThrottle bits
    std::vector<double> clock_ratio, P, P_hbm;
    std::vector<std::uint64_t> reasons;
    std::vector<PowerSmoothingState> smooth;
    std::vector<double> filler_energy;
    // the utilizations of the step, one array per field (the job step writes them, the kernel
    // reads them in place; no compute_bound: nothing in the layer reads it)
    std::vector<double> a_sm, a_hbm, a_nvl, a_net, mem_bound;
    Utilization util(std::size_t q) const {
      return Utilization{a_sm[q], a_hbm[q], a_nvl[q], a_net[q], 0.0, mem_bound[q]};
    }
    void setUtil(std::size_t q, const Utilization& u) {
      a_sm[q] = u.a_sm;
      a_hbm[q] = u.a_hbm;
      a_nvl[q] = u.a_nvlink;
      a_net[q] = u.a_network;
      mem_bound[q] = u.memory_bound;
    }
    std::vector<double> P_sum, Tj_max, Thbm_max, throttled_time;
    // per-group parameters of the SIMD kernel (GpuBatchParams), from the model at initGpuLayer
    std::vector<float> P_base, P_leak, P_sm, P_clk;  // (GpuBatchParams: single precision)
    std::vector<double> g_jc, g_hbm, C_plate, w;
    // and of the gather before it (the group's first GPU's values, contiguous)
    std::vector<double> cap, R_factor;  // power limit (W), plate degradation (1)
    std::vector<int> type, rack, job;   // GPU type, rack, job (-1: none)
    std::vector<double> Q_coolant;  // heat into the coolant at the last fast step, per group (W)
    // the plate's coolant boundary over the window (startWindow, its first GPU's): local inlet
    // and plate conductance 1 / R_cp with its degradation (the thermal pass's division saved)
    //                                                                                (K), (W/K)
    std::vector<double> T_in, G_cp;
    std::vector<unsigned char> cause;  // TimeCat of a clock held down at the last step (job.md)
  } grp;
  // per job + 1 (entry 0: no job), set by stepJobs each step: kBatchHeld, and kJobSlowPath when
  // its GPUs need the scalar path around the kernel (power smoothing, a power trace, a cap event)
  std::vector<std::uint64_t> job_flags;
  // this fast step (a window's last) stores each group's Q_coolant and, on the kernel's path,
  // its P, P_hbm and reasons (between, they stay in the step's block)
  bool keep_Q = true;
  // every group is one GPU (a distinct fleet): the kernel reads no w
  bool unit_weights = true;
  std::vector<double> rack_cap;         // per rack: its GPUs' one power limit, NaN: they differ (W)
  std::vector<char> rack_uniform;       // per rack: its GPUs run one job on one GPU type (1)
  std::vector<char> rack_powered_seen;  // per rack: rack_powered when its GPUs were last stepped
  std::vector<GpuBatchType> batch_types;  // per FacilityModel::gpu_types
  // jobs run over groups: job[j].gpu[k] is group job_groups[j][k]
  std::vector<JobState> job;
  std::vector<std::vector<double>> job_speed_c, job_speed_m;  // scratch per job
  std::vector<std::vector<char>> job_alive;
  std::vector<std::vector<Utilization>> job_util;
  std::vector<std::vector<double>> job_bw_nvl, job_bw_net, job_weight;  // per job and group
  std::vector<std::vector<unsigned char>> job_cause;
  // the fast step's fixed partition (docs/performance.md, "the job step in chunks"): chunks of
  // about 16 racks, the unit of the parallel rack loop and of the training jobs' passes, the same
  // whatever the thread count. A training job whose groups are one contiguous run (every job that
  // fills its racks) is stepped per chunk inside the rack loop (job_fused); its sums are taken
  // per chunk (job_parts) and merged in chunk order.
  struct JobRun {
    int job, slot0, slot1;  // a fused job's slots [slot0, slot1) in one chunk
  };
  int nchunk = 1;
  std::vector<int> chunk_runadr;  // nchunk + 1: the chunk's runs in job_runs
  std::vector<JobRun> job_runs;
  std::vector<JobStepPart> job_parts;  // per job run, this step
  std::vector<char> job_fused;         // per job
  std::vector<JobStepCtx> job_ctx;     // per job, this step
  std::vector<JobStepExtras> job_ex;   // per job, this step (views of the vectors above)
  std::vector<JobStepIo> job_io;       // per job, this step
  std::vector<char> run_done;          // this step: the run's finish is done
  std::vector<char> chunk_wait;        // this step: the chunk waits for its jobs' barrier decision
  std::vector<int> deferred;           // the chunks with pending racks, in order (scratch)
  // the window as one block of steps (docs/models/gpu_layer.md "Steps in blocks"): where nothing
  // couples the chunks within a step but a job's barrier release, each chunk runs several steps
  // while its racks stay in its core's cache; what the serial part of a step reads is kept per
  // step (below) and replayed in step order. Allocated at initGpuLayer, never in a step.
  static constexpr int kRackHist = 9;  // per rack and step: what sumRacks, powerFeedStep and the
                                       // fast outputs read (blockRecord)
  int blk_steps_max = 0;               // the steps of the longest window (coupling_dt)
  bool blk_layout = false;             // every chunk holds at most one job's run
  std::vector<int> chunk_job;          // nchunk: the job of the chunk's run, -1: none
  std::vector<JobStepCtx> blk_ctx;     // blk_steps_max x njob
  std::vector<JobStepPart> blk_parts;  // blk_steps_max x job_runs
  std::vector<double> blk_rack;        // blk_steps_max x nrack x kRackHist
  std::vector<double> blk_utility;     // blk_steps_max: the meter's feed after each step's
                                       // replay, for the fast outputs (docs/models/grid.md)  (W)
  std::vector<int> blk_cursor;         // nchunk: the chunk's next step in the block
  std::vector<char> blk_pending;       // nchunk: the cursor's pass 1 is done, its finish not
  std::vector<int> blk_norel;          // njob: no barrier release before this step (known)
  std::vector<char> rack_safe;  // nrack, per window: no GPU of the rack can reach its shutdown
  std::vector<double> rack_P_dc_max;  // nrack: an upper bound of the rack's DC draw        (W)
  std::vector<double> blk_bus_P;      // per busway: scratch of the window's test           (W)
  // windows run as blocks, their steps, and the blocks taken back (a GPU shut down) (statistics)
  long blk_windows = 0, blk_steps = 0, blk_undone = 0;
  // each fused job's runs (indices into job_runs, in chunk order: its slots in order), and one
  // part of its barrier release per run (models/workload.h, the release in parts)
  std::vector<int> job_runlist_adr, job_runlist;  // njob + 1; the runs
  std::vector<JobReleasePart> release_parts;      // as job_runlist
  std::vector<double> job_throttled;              // GPU-seconds of thermal/brake throttling   (s)
  std::vector<double> job_capped;  // GPU-seconds under the power cap (0x4), cumulative (s)
  double capped_total = 0;         // the same over every GPU                          (s)
  // per job, at the last output row: iterations and their summed time (the interval's share)
  std::vector<long> job_iterations_row;
  std::vector<double> job_iteration_time_row;
  // window means handed to the coolant (nrack)
  std::vector<double> rack_Q_liquid;       // heat into the rack coolant                (W)
  std::vector<double> rack_P;              // rack electrical power                     (W)
  std::vector<double> rack_Q_air;          // (W)
  std::vector<double> rack_P_now;          // rack power at the last fast step          (W)
  std::vector<double> rack_gpu_P_now;      // its GPU part                              (W)
  std::vector<double> rack_gpu_Q_now;      // GPU heat into the coolant, last fast step (W)
  std::vector<double> rack_throttled_now;  // GPU-seconds throttled in the last fast step (s)
  std::vector<double> rack_capped_now;     // GPU-seconds power-capped in the last fast step
  // GPU-seconds over the current output interval, per rack, with each throttle reason: SW power
  // cap (0x4), HW slowdown (0x8), SW or HW thermal (0x20 | 0x40), HW power brake (0x80) (s)
  std::vector<double> rack_iv_capped, rack_iv_slowdown, rack_iv_thermal, rack_iv_brake;
  std::vector<double> rack_iv_throttled;    // thermal or power brake (the union)            (s)
  std::vector<double> rack_T_in;            // over the window: rack inlet (K)
  std::vector<PartActivity> rack_part_act;  // last fast step: what drives the rack's parts
  // the coolant boundary of each GPU's plate over the window (docs/models/flow_distribution.md):
  // local inlet (the rack inlet plus the pickup of the plates upstream in series) and the plate
  // resistance at the GPU's own flow
  std::vector<double> gpu_T_in, gpu_R_path;  // (K), (K/W)
  double interval_time = 0;                  // time accumulated in P_sum                 (s)
  // energy of the GPU layer since t = 0 (J)
  double E_electric = 0, E_to_coolant = 0, E_stored0 = 0;
};

// why an air-cooled rack lost its feed (solver/engine/air_rack_feed.cpp)
enum class AirRackCut : char { None, Breaker, Ups, Utility, Meter };

// mutable state of the power chain
struct PowerLayerState {
  std::vector<BreakerState> shelf_brk;  // nrack x shelves_per_rack
  std::vector<BreakerState> bus_brk;    // per busway
  std::vector<double> T_bus;            // conductor temperature                        (K)
  UpsState ups;
  std::vector<char> rack_powered;  // 0: no working shelf, feeder or UPS
  std::vector<char> rack_brake;    // 1: the working shelves cannot carry the load
  // last step (W, A)
  std::vector<double> rack_P_in, rack_psu_loss, bus_I, bus_loss, bus_P;
  std::vector<StorageState> storage;  // per rack
  std::vector<double> rack_P_grid;    // after the rack storage                     (W)
  std::vector<double> rack_P_dc;      // DC power of a powered rack (0 when cut)     (W)
  double E_storage0 = 0;              // stored energy at t = 0                      (J)
  // the site battery at the meter: its store, the power it gives the site (> 0 discharging) and
  // its conversion loss at the last fast step, their interval sums and the cumulative loss
  StorageState bess;
  double P_bess = 0, P_bess_loss = 0, iv_bess = 0, iv_bess_loss = 0, E_bess_loss = 0;
  double P_ups_in = 0, P_ups_out = 0, P_ups_loss = 0, P_tx_loss = 0, P_utility = 0;  // all units
  // cumulative energies (J)
  double E_it = 0, E_psu = 0, E_bus = 0, E_ups = 0, E_tx = 0, E_utility = 0, E_battery = 0;
  // over the current output interval: energies (J) and their time (s), for the interval means
  double iv_time = 0, iv_utility = 0, iv_ups_in = 0, iv_ups_out = 0, iv_ups_loss = 0;
  std::vector<double> iv_rack_P_in, iv_rack_psu_loss, iv_bus_loss;
  // at the last output row: its time (s) and the CDU pump energy (J)
  double t_row = 0, E_pump_row = 0;
  // energy stores (UPS batteries, rack storage): what they held at the last fast step, and the net
  // energy drawn from them since the start and over the output interval; PUE credits it (J)
  double E_stored_last = 0, E_storage_drawn = 0, iv_storage = 0;
  // air-cooled racks (docs/models/air_rack.md): IT + fan power, fed directly at the
  // utility meter (not on a busway); last fast step (W) and over the output interval (J)
  double P_air_it = 0, iv_air_it = 0;
  // per air-cooled rack: 0 once its feed is lost (latched, as rack_powered), and why (AirRackCut)
  std::vector<char> air_powered, air_cut;
  // switch racks (docs/models/switch_rack.md): their power, on their busways or at the
  // utility meter; last fast step (W) and over the output interval (J)
  double P_sw_it = 0, iv_sw_it = 0;
};

// the plant between its steps (solver/engine/plant_layer.cpp, docs/models/plant.md)
struct PlantLayerState {
  PlantState s;       // the components' operating point, held until the next step
  double next = 0;    // time of the next plant step                               (s)
  double t_last = 0;  // time of the last step                                     (s)
  // facility powers held over the step (W): IT as PUE counts it, power-chain losses, CDU pumps
  // and the air handlers' fans and chiller (docs/models/air_handler.md)
  double P_it = 0, P_chain_loss = 0, P_cdu_pumps = 0, P_air_handlers = 0;
  // cumulative from t = 0: energies (J), water (kg), cost (currency), CO2 (kg), time per mode (s)
  double E_it = 0, E_chain_loss = 0, E_cdu_pumps = 0, E_air_handlers = 0;
  double E_air_water = 0;  // heat the air handlers put into the facility water (coils + chiller)
  double Q_air_water = 0;  // that heat flow, held over the step                    (W)
  double E_pump = 0, E_fan = 0, E_chiller = 0, E_cond_fan = 0;
  double E_load = 0, E_rejected = 0;  // heat from the facility water, heat to the air
  double water_evap = 0, water_drift = 0, water_blowdown = 0;
  double cost = 0, co2 = 0;
  double mode_time[3] = {0, 0, 0};
  double plantPower() const { return s.P_pump + s.P_fan + s.P_chiller + s.P_cond_fan; }
  double plantEnergy() const { return E_pump + E_fan + E_chiller + E_cond_fan; }
  double water() const { return water_evap + water_drift + water_blowdown; }
  double facilityEnergy() const {
    return E_it + E_chain_loss + E_cdu_pumps + E_air_handlers + plantEnergy();
  }
};

// the multi-rate annual mode between its windows (solver/engine/annual.cpp,
// docs/models/annual.md): the registry of every quantity the fast layers accumulate per fast step,
// its sums over the current window, and the window's means that drive the slow segment after it
struct AnnualState {
  bool slow = false;        // in a slow segment (else in a full-resolution window)
  double window_start = 0;  // start of the current (or last) window                (s)
  double window_end = 0;    // its planned end                                      (s)
  double window_time = 0;   // time measured in it so far                           (s)
  double measure_from = 0;  // its means are taken from here (after a settling time) (s)
  double T_supply_ref = 0, T_wb_ref = 0;  // facility supply and wet bulb at its end      (K)
  // every accumulator of the GPU layer, the jobs and the power chain (sums over fast steps):
  // address, value before the current GPU-layer call, sum of its increments over the window
  std::vector<double*> acc;
  std::vector<double> acc_before, acc_sum;
  std::vector<long*> count;  // integer counters (iterations, checkpoints): with a carry
  std::vector<double> count_before, count_sum, count_carry;
  std::vector<double*> shift;  // absolute times that move on with the jobs (last iteration end)
  // levels set at each checkpoint (the iterations and the maps at the last checkpoint), with
  // the counter each belongs to and its job: in the slow segments the jobs' checkpoint cycles run
  // on in their own time (annualSlowAdvance), so a level moves only where a checkpoint falls
  std::vector<std::pair<long*, long*>> follow;  // (level, its counter)
  std::vector<long> follow_before;
  std::vector<std::pair<double*, double*>> follow_acc;  // (level, its accumulator)
  std::vector<double> follow_acc_before;
  std::vector<int> follow_job, follow_acc_job;
  std::vector<double>
      job_phi;  // per job: time since its last checkpoint at the segment's end, or -1
  std::vector<double> job_ckpt_own;  // per job: its last checkpoint's end in its own time (s)
  // per job: where its map (map_sum; time_map, category-major, -1 if none) and its iteration
  // time are in acc, and its iteration and checkpoint counters in count: a slow segment gives
  // the checkpoints their share of the job's cycle, not the share the window happened to see
  std::vector<int> job_map_off, job_tmap_off, job_iter_time_off, job_iter_count, job_ckpt_count;
  std::vector<double> job_iter_scale, job_share, count_scale;  // annualSlowAdvance's scratch
  // offsets into acc of the power layer's interval energies whose means replace its instants
  int off_rack_P_in = -1, off_rack_psu_loss = -1, off_bus_loss = -1, off_utility = -1;
  int off_ups_in = -1, off_ups_out = -1, off_ups_loss = -1, off_air_it = -1, off_iv_time = -1;
  int off_bess = -1, off_bess_loss = -1;  // the site battery's interval sums
  // per rack: heat to the liquid, electrical power, heat to air over the window (J), and the
  // rack inlet at its end (K); per GPU group: the window's largest die and HBM temperatures (K)
  std::vector<double> E_Q_liquid, E_P, E_Q_air, T_in_ref;
  std::vector<double> Tj_max, Thbm_max;
  std::vector<double> job_times;  // job starts and stops: a window never straddles one (s)
  // statistics: windows run, time at full resolution and in slow segments (s)
  long windows = 0;
  double window_seconds = 0, slow_seconds = 0;
};

// what the faults have done so far, and the detectors' memory
// the protection layers' timers and latches (solver/engine/protection.cpp)
struct ProtectionState {
  // per CDU: when each condition began (-1: not now) and whether its alarm/action is latched
  std::vector<double> sup_high_since, sup_low_since, ret_high_since, epo_since;
  std::vector<char> sup_high, sup_low, ret_high, epo;
  // per rack: inlet above its maximum since, above max + margin since, cap applied at (-1)
  std::vector<double> inlet_high_since, inlet_trip_since, inlet_capped_at;
  std::vector<char> inlet_alarm, coolant_trip, rack_over_pressure, relief;
  std::vector<double> gpu_cap_factor;  // per rack: protective GPU cap, share of the limit (1)
  // per CDU make-up from the fill tank: low pressure since (-1), fill pump started at (-1: off),
  // volume delivered by earlier runs of the pump (m3), stopped for good (timeout, tank empty)
  std::vector<double> fill_low_since, fill_on_at, fill_delivered;
  std::vector<char> fill_locked;
  std::vector<char> part_trip;  // per rack: a part's temperature powered it off (tray shutdown)
};

struct FaultState {
  std::size_t next = 0;        // next entry of m.fault_events
  std::vector<int> pumps_out;  // per CDU: pumps not running because of faults
  // per CDU: the last pumps stopped at coast_t0 (-1: none), coast_n of them, coasting down
  std::vector<double> coast_t0;
  std::vector<int> coast_n;
  std::vector<char> cdu_failed;     // per CDU: failed as a whole (no switch-over)
  std::vector<double> valve_stuck;  // per CDU: stuck opening, -1: free
  double fws_flow = 1.0;            // facility-water flow fraction
  bool utility_ok = true;
  bool generator_failed = false;  // a generator_failure event: it cannot start (or trips)
  bool generator_on = false;      // the transfer switch has the standby generator on
  double utility_lost_at = -1;    // the utility loss a generator start answers (s)
  // grid disturbances (docs/models/ride_through.md): the UPS on battery until its re-transfer,
  // not before ups_hold_until (a later disturbance of a sequence extends it); the drives off the
  // UPS tripped; the racks a disturbance dropped, back at their restart
  bool ups_input_lost = false;
  double ups_lost_at = -1, ups_hold_until = -1;  // (s)
  bool drives_tripped = false;
  double drives_tripped_at = -1, drives_hold_until = -1, racks_hold_until = -1;  // (s)
  std::vector<char> rack_sag_dropped, air_sag_dropped;  // per rack, per air-cooled rack
  std::vector<int> rack_psu_failed;                     // per rack
  // per rack x part (stride partStride): the part's plate resistance factor (plate_degradation)
  std::vector<double> part_R_factor;
  // detectors
  double next_poll = 0;
  std::vector<double> low_flow_since;  // per CDU; -1: flow fine
  std::vector<char> low_flow_alarm;
  std::vector<double> bus_high_since;  // per busway; -1: below the continuous-load ratio
  std::vector<char> bus_alarm, bus_trip_logged;
  std::vector<char> rack_lost_logged, rack_throttle_logged, rack_shutdown_logged, rack_brake_logged;
  std::vector<char> rack_hbm_logged;  // per rack: HBM over-temperature logged
  std::vector<char> air_lost_logged;  // per air-cooled rack: its power loss logged
  std::vector<char> filter_alarm;     // per CDU: the filter's dp switch has made
  bool ups_battery_logged = false;
  // leaks and the response to them
  bool changed = false;                // a policy acted: the integrator restarts
  std::vector<double> leak_on_sensor;  // per leak: coolant on its rack's sensor (m3)
  std::vector<double> leak_detected;   // per leak: detection time; -1: not yet
  std::vector<double> rack_isolation;  // per rack: isolation command time; -1: none
  std::vector<char> rack_isolated_logged;
  std::vector<char> rack_power_off;             // per rack: electrically isolated
  std::vector<char> low_level, pressure_alarm;  // per CDU
  // per CDU: pumps the level switch stopped (restarted when it makes again), and whether the
  // CDU had failed as a whole before
  std::vector<int> level_stopped;
  std::vector<char> level_cdu_failed;
  std::vector<double> imbalance_since;  // per CDU; -1: balanced
  std::vector<char> imbalance_alarm;
  std::vector<char> over_pressure;  // per CDU
  double last_poll = -1;
  std::vector<char> job_stalled_logged;   // per job
  std::vector<long> job_failures_logged;  // per job: failures already logged
  // strainer clogging per CDU: dp at design flow rising linearly from t0 over `time` to `dp`
  std::vector<double> filter_dp, filter_t0, filter_time;
  // sensor faults per CDU: offsets, and stuck readings (NaN: free)
  std::vector<double> sensor_T_offset, sensor_T_stuck, sensor_flow_offset, sensor_flow_stuck;
  std::vector<double> job_cap;  // per job: power limit set by an event; 0: the facility's (W)
  // the fabric (docs/models/fabric.md): per GPU x NIC link bandwidth fraction, per rack x tray
  // lost; and what the jobs read: per GPU scale-out fraction and "no link left", per rack
  // NVLink fraction and "partition down"
  std::vector<double> nic_bw;
  std::vector<char> tray_lost;
  std::vector<double> gpu_bw_net, rack_bw_nvl;
  std::vector<char> gpu_net_dead, rack_nvl_dead;
  bool fabric_faulted = false;  // a fabric event has happened (until then the GPU layer skips it)
  // scale-out switches (docs/models/switch_rack.md): per switch rack x switch failed;
  // per GPU x NIC how many failed leaves cut the link; per GPU the spine's bandwidth fraction
  std::vector<std::vector<char>> sw_failed;
  std::vector<int> sw_up;  // switches running per switch rack
  std::vector<char> link_cut;
  std::vector<double> gpu_spine;
  // set points changed by events per CDU (NaN: the facility's): supply T (K), dp (Pa), flow (m3/s)
  std::vector<double> set_T, set_dp, set_flow;
  // failures as a seeded process (solver/engine/failure_process.cpp, docs/models/failures.md):
  // the generator, each class's next failure, per GPU the time it is back (0: not taken), the
  // GPUs taken now (capacity reserved for every GPU), per rack how many, the next repair, and
  // the failures drawn per class
  FailureRng fp_rng;
  double fp_next[kFailClasses] = {};
  std::vector<double> gpu_down_until;
  std::vector<int> gpu_down;
  std::vector<int> rack_down;
  double fp_next_repair = 0;
  long fp_count[kFailClasses] = {};
  // straggler detection (docs/models/failures.md "Stragglers"): per GPU group the clock ratio's
  // time integral over the current window, from sg_t0, last added at sg_tprev; a buffer for the
  // job's median; per group logged; stragglers detected and drained so far
  std::vector<double> sg_acc, sg_buf;
  std::vector<char> sg_logged;
  std::vector<char> sg_clean;  // per job: running on all its ranks for the whole window so far
  double sg_t0 = 0, sg_tprev = 0;
  long sg_detected = 0, sg_drained = 0;
  // policy exclude: GPU groups excluded with their replicas (the stragglers and the replicas'
  // other groups); policy rebalance: stragglers whose caps were raised, and the job's power cap
  // moved to them in all (W)
  long sg_excluded = 0, sg_excluded_gpus = 0, sg_rebalanced = 0;
  double sg_cap_moved = 0;
  // actions that wait for a checkpoint (act_at checkpoint, checkpoint_now: docs/models/failures.md
  // "When drain and exclude act"): per job, per entry 1 drain or 2 exclude pending (empty: none
  // ever), whether any is, and the job's checkpoints when they were scheduled (the action is
  // due once a later one has ended); rare, so allocated when first needed
  std::vector<std::vector<char>> sg_pending;
  std::vector<char> sg_any_pending;
  std::vector<long> sg_ckpt_seen;
  // policy exclude with a repair time: the units excluded together (a replica, or the replicas
  // an entry of several GPUs spans): job, entries, replicas, when their stragglers' GPUs are
  // replaced, and whether the rejoin is scheduled
  struct SgOut {
    int job = 0;
    std::vector<std::size_t> entries;
    long replicas = 0;
    double t_back = 0;
    bool scheduled = false;
  };
  std::vector<SgOut> sg_out;
  long sg_rejoined = 0;  // units back in their jobs
  ProtectionState prot;  // protection layers (solver/engine/protection.cpp)
};

// one CDU loop's share of a right-hand side evaluation's sums (evalRhs)
struct CduRhsPart {
  double heat_in = 0, heat_out_fws = 0, heat_loss = 0;  // (W)
  double worst_excess = 0;  // furthest outside the fluid's range (K), with its state and value
  int range_state = -1;
  double range_value = 0;
  int status = 0;
  long hydraulic_failures = 0;
};

class WorkerPool;
struct State {
  std::vector<double> y;         // state vector
  std::vector<double> y0;        // initial state (for stored energy)
  std::vector<double> scratch;   // perturbed state for difference quotients
  std::vector<double> fscratch;  // perturbed rhs
  Signals sig;
  GpuLayerState gl;
  PowerLayerState pl;
  FaultState faults;
  PlantLayerState plant;
  AnnualState annual;  // the multi-rate annual mode (docs/models/annual.md)
  std::vector<EventRecord> events;
  double time = 0;
  SolverStats stats;
  std::vector<CduRhsPart> cdu_part;  // evalRhs's per-loop sums (sized by makeState)
  // the GPU and power layers at the start of a window run as a block where the bound does not
  // show that no GPU can shut down in it (docs/models/gpu_layer.md "Steps in blocks"): if one
  // does, the window is taken back and run step by step (empty until first needed)
  GpuLayerState gl_undo;
  PowerLayerState pl_undo;
  WorkerPool* pool = nullptr;  // set by simulate() while it runs (the CDU loops in parallel)
};

}  // namespace dctwin
