// model.h: the compiled facility (immutable) and the per-run state (mutable)
//
// compileFacility() turns a FacilitySpec into a FacilityModel of flat, indexed arrays; a run owns
// a State. The right-hand side evalRhs(model, state, t, y, ydot) never allocates. A sweep is one
// model and many states. Racks are stored grouped by CDU (cdu_rackadr/cdu_racknum).
//
// state vector, per CDU c at cdu_stateadr[c] (offsets in StateOffset):
//   T_hex_sec   secondary outlet of the plate HX = CDU supply                    (K)
//   T_hex_prim  primary outlet of the plate HX                                   (K)
//   T_res       CDU reservoir/expansion tank and internal volume, pump inlet      (K)
//   x_temp      supply-temperature PI integral                                   (K s)
//   y_valve     primary valve position                                           (1)
//   x_pump      pump flow/dp PI integral                                         (s)
//   N_pump      pump speed ratio                                                 (1)
//   supply header segments [nseg_sup]                                            (K)
//   per rack: T_cool (rack coolant, outlet), T_case (cold-plate case)            (K)
//   return header segments [nseg_ret]                                            (K)
#pragma once

#include <string>
#include <vector>

#include "models/cold_plate.h"
#include "models/controller.h"
#include "models/fluid.h"
#include "models/heat_exchanger.h"
#include "models/hydraulics.h"
#include "models/power_smoothing.h"
#include "models/pump.h"
#include "models/rack_parts.h"
#include "models/workload.h"
#include "solver/spec.h"

namespace dctwin {

// air at 25 degC and sea level, for the room-air node (a)
constexpr double kAirRho = 1.184, kAirCp = 1006.0;

enum StateOffset : int {
  kTHexSec = 0,
  kTHexPrim,
  kTRes,
  kXTemp,
  kYValve,
  kXPump,
  kNPump,
  kVLost,          // coolant lost through leaks                                   (m3)
  kVAir,           // air in the loop (drained tank, air in-leak)                  (m3)
  kCduFixedStates  // first supply segment
};

struct SolverOptions {
  double rtol = 1e-6;           // relative tolerance                                 (1)
  double atol_T = 1e-4;         // absolute tolerance on temperatures                 (K)
  double atol_ctrl = 1e-6;      // on valve/pump positions and PI states              (1)
  double max_step = 60;         // (s)
  double output_interval = 60;  // (s)
  int threads = 1;              // worker threads of one run (GPU layer, rhs); results do not
                                // depend on it (docs/performance.md)
};

struct FacilityModel {
  std::string name;
  std::string facility_text;  // provenance

  // sizes
  int ncdu = 0;
  int nrack = 0;
  int nstate = 0;

  // fluids
  std::vector<Fluid> fluids;
  int fws_fluid = 0;          // facility-water fluid index
  TimeSeries fws_T;           // facility-water supply temperature             (K)
  double T_ambient = 298.15;  // (K)
  // room-air node (optional): the last state, after every CDU's block
  int room_state = -1;              // state index; -1: no room-air node
  double room_C = 0;                // air heat capacity rho V c_p                         (J/K)
  double room_G = 0;                // air-handler conductance rho V_dot c_p               (W/K)
  double room_supply_T = 0;         // (K)
  std::vector<double> breakpoints;  // input discontinuities, sorted                 (s)

  // cdus (ncdu)
  std::vector<std::string> cdu_name;
  std::vector<int> cdu_fluid;     // secondary fluid index
  std::vector<int> cdu_stateadr;  // first state
  std::vector<int> cdu_statenum;
  std::vector<int> cdu_rackadr;  // first rack (model order)
  std::vector<int> cdu_racknum;
  std::vector<int> cdu_nseg_sup, cdu_nseg_ret;
  std::vector<HexParams> cdu_hex;
  std::vector<double> cdu_M_hex_sec, cdu_M_hex_prim, cdu_M_res;  // node masses       (kg)
  std::vector<PowerLaw> cdu_hex_sec_dp;  // HX secondary pressure drop vs mass flow
  std::vector<double> cdu_prim_c_hex;    // primary HX dp = c m^2                        (Pa s2/kg2)
  std::vector<double> cdu_fws_dp;        // facility-water dp available across HX + valve (Pa)
  std::vector<double> cdu_valve_kv, cdu_valve_R, cdu_valve_leak, cdu_valve_tau;
  std::vector<PumpParams> cdu_pump;
  std::vector<int> cdu_pump_running, cdu_pump_count;
  std::vector<double> cdu_pump_tau, cdu_pump_min_speed;
  std::vector<PipeFriction> cdu_pipe_sup, cdu_pipe_ret;
  std::vector<double> cdu_M_seg_sup, cdu_M_seg_ret;    // (kg)
  std::vector<double> cdu_UA_seg_sup, cdu_UA_seg_ret;  // (W/K)
  std::vector<double> cdu_T_set;                       // (K)
  std::vector<int> cdu_pump_mode;                      // 0 flow, 1 dp
  std::vector<double> cdu_flow_set, cdu_dp_set;        // (m3/s), (Pa)
  std::vector<PIParams> cdu_pi_temp, cdu_pi_pump;

  // racks (nrack, model order)
  std::vector<std::string> rack_name, rack_row, rack_type;
  std::vector<int> rack_index, rack_cdu;
  std::vector<ColdPlateLaw> rack_coldplate;
  std::vector<double> rack_paths;  // parallel cold-plate paths               (1)
  std::vector<double> rack_liquid_frac, rack_gpu_frac;
  std::vector<double> rack_design_flow;  // (m3/s)
  std::vector<PowerLaw> rack_manifold;   // vs rack mass flow
  std::vector<PowerLaw> rack_valve;      // balancing valve, quadratic, vs mass flow
  std::vector<double> rack_C_case;       // cold-plate case capacity, whole rack    (J/K)
  std::vector<double> rack_M_cool;       // rack coolant mass                       (kg)
  std::vector<TimeSeries> rack_load;     // rack power                              (W)

  // racks with resolved GPUs (nrack): the GPU layer supplies their heat and power
  std::vector<char> rack_resolved;                      // 1: GPUs resolved, 0: heat_load profile
  std::vector<int> rack_gpuadr, rack_gpunum;            // first GPU, count
  std::vector<double> rack_other_idle, rack_other_max;  // non-GPU power                 (W)
  std::vector<double> rack_other_liquid;   // liquid share of the non-GPU heat         (1)
  std::vector<int> rack_tray_gpus;         // GPUs per tray                            (1)
  std::vector<double> rack_power_cap;      // whole-rack limit; 0 = none               (W)
  std::vector<int> rack_partset;           // index into part_sets; -1: lumped other power
  std::vector<RackParts> part_sets;        // resolved non-GPU parts, one per rack type
  std::vector<std::string> part_set_type;  // the rack type of each set

  // GPU layer (ngpu): explicit fixed step gpu_dt, exchanging heat with the coolant every
  // coupling_dt (docs/models/gpu_layer.md)
  int ngpu = 0;
  double gpu_dt = 0.05;      // (s)
  double coupling_dt = 5.0;  // (s)
  std::vector<GpuParams> gpu_types;
  std::vector<int> gpu_type, gpu_rack, gpu_slot;
  std::vector<double> gpu_cap;            // power limit                                       (W)
  std::vector<double> gpu_R_factor;       // cold-plate degradation factor                     (1)
  std::vector<double> gpu_C_plate;        // plate capacity                                    (J/K)
  std::vector<int> gpu_job, gpu_jobslot;  // job index (-1: idle) and rank in it
  // GPU groups: consecutive GPUs of one rack with the same type, limit, plate and job (not a trace
  // replay) see the same inlet, flow and load, so their trajectories are identical: the GPU layer
  // computes each group once and weighs it by its size (docs/performance.md). Without
  // gpu_layer.group_identical every GPU is its own group (the reference path).
  int ngroup = 0;
  std::vector<int> group_gpuadr, group_gpunum;  // first GPU, count
  std::vector<int> group_jobslot;               // index in job_groups of its job (-1: no job)
  std::vector<int> gpu_group;                   // group of each GPU
  std::vector<int> rack_groupadr, rack_groupnum;
  std::vector<std::vector<int>> job_groups;  // groups of each job, in the rank order of their GPUs

  // jobs
  int njob = 0;
  std::vector<std::string> job_name;
  std::vector<TrainingJobSpec> job_spec;
  std::vector<int> job_kind;  // 0 training, 1 inference, 2 trace
  std::vector<InferenceSpec> job_inference;
  std::vector<TraceSpec> job_trace;
  std::vector<PowerSmoothingParams> job_smoothing;
  std::vector<std::vector<int>> job_gpus;  // GPU indices of each job (rank order)
  // clock ratio of each phase in the unthrottled reference run: [job][type * nphase + phase]
  std::vector<std::vector<double>> job_xref;

  // power chain (docs/models/power_chain.md); stepped with the GPU layer's fast clock
  bool has_power = false;
  PowerSpec power;               // resolved parameters
  std::vector<int> rack_busway;  // busway feeding each rack (model order)
  std::vector<char> rack_has_storage;
  std::vector<StorageParams> rack_storage;  // rack energy storage (GB300-style)
  std::vector<std::string> busway_name;

  // jacobian sparsity (CSC) and column coloring for difference quotients
  std::vector<long long> jac_colptr;  // (nstate+1)
  std::vector<long long> jac_rowind;  // (nnz)
  std::vector<int> jac_color;         // color of each column
  int jac_ncolor = 0;

  // faults and detection (docs/scenario-format.md "Faults"): events in time order, with the
  // pump switch-overs they cause already scheduled
  struct FaultEvent {
    double time = 0;
    FaultSpec::Kind kind = FaultSpec::Kind::PumpFailure;
    int index = -1;        // CDU or rack
    double value = 0;      // pumps (negative: standby pumps taking over), opening, fraction, PSUs
    std::string label;     // component name for the event log
    bool covered = false;  // pump failure with a standby switch-over scheduled
    double time2 = 0;      // filter clogging: growth time (s)
    FaultSpec::Sensor sensor = FaultSpec::Sensor::SupplyTemperature;
    bool stuck = false;
  };
  std::vector<FaultEvent> fault_events;
  DetectionSpec detection;
  std::vector<double> cdu_design_flow;  // sum of its racks' design flows            (m3/s)
  // coolant inventory and loop pressure (docs/models/leak.md)
  std::vector<double> cdu_V_loop;  // liquid volume outside the tank                  (m3)
  std::vector<double> cdu_V_tank, cdu_p_pre, cdu_p_fill;  // tank volume, precharge, fill (gauge)
  std::vector<double> cdu_vacuum;  // < 0: negative-pressure loop held at this gauge  (Pa)
  std::vector<double> cdu_p_max;   // secondary maximum working pressure, gauge; 0: none (Pa)
  std::vector<char> cdu_has_leak;
  struct Leak {
    double time = 0;  // (s)
    int cdu = -1, rack = -1;
    FaultSpec::Where where = FaultSpec::Where::Rack;
    double area = 0, area_final = 0, growth_time = 0, Cd = 0.62;  // (m2), (m2), (s), (1)
    std::string label;
  };
  std::vector<Leak> leaks;

  SolverOptions options;

  int stateAdr(int cdu, int offset) const { return cdu_stateadr[cdu] + offset; }
  int supSegAdr(int c) const { return cdu_stateadr[c] + kCduFixedStates; }
  int rackAdr(int r) const {  // T_cool; T_case at +1
    int c = rack_cdu[r];
    return supSegAdr(c) + cdu_nseg_sup[c] + 2 * (r - cdu_rackadr[c]);
  }
  bool isCaseState(int i) const {  // cold-plate case node?
    for (int c = 0; c < ncdu; ++c) {
      int a = supSegAdr(c) + cdu_nseg_sup[c];
      if (i >= a && i < a + 2 * cdu_racknum[c]) return (i - a) % 2 == 1;
    }
    return false;
  }
  int retSegAdr(int c) const { return supSegAdr(c) + cdu_nseg_sup[c] + 2 * cdu_racknum[c]; }
};

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
  // per rack
  std::vector<double> m_rack, dp_rack;                // (kg/s), (Pa)
  std::vector<double> P_rack, Q_liquid, Q_air, Q_cp;  // (W)
  std::vector<double> R_cp;         // whole-rack plate resistance            (K/W)
  std::vector<double> p_tank;       // tank (pump suction) gauge pressure    (Pa)
  std::vector<double> head_factor;  // pump head left with air in the loop   (1)
  std::vector<double> leak_flow;    // per leak: liquid out                  (m3/s)
  std::vector<double> leak_air;     // per leak: air in                      (m3/s)
  std::vector<double> leak_p;       // per leak: local gauge pressure        (Pa)
  // totals
  double heat_in = 0, heat_out_fws = 0, heat_loss = 0;  // (W)
  double air_in = 0, air_removed = 0;  // room air: rack air-side heat in, air handlers out (W)
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
  struct Groups {
    std::vector<GpuState> gpu;
    std::vector<GpuOperatingPoint> op;
    std::vector<PowerSmoothingState> smooth;
    std::vector<double> filler_energy;
    std::vector<Utilization> util;
    std::vector<double> P_sum, Tj_max, Thbm_max, throttled_time;
    // what the jobs read of the last step: op.clock_ratio, and hw_slowdown | shut_down << 1
    std::vector<double> clock_ratio;
    std::vector<char> latches;
  } grp;
  // jobs run over groups: job[j].gpu[k] is group job_groups[j][k]
  std::vector<JobState> job;
  std::vector<std::vector<double>> job_speed_c, job_speed_m;  // scratch per job
  std::vector<std::vector<char>> job_alive;
  std::vector<std::vector<Utilization>> job_util;
  std::vector<double> job_throttled;  // GPU-seconds of thermal/brake throttling   (s)
  // window means handed to the coolant (nrack)
  std::vector<double> rack_Q_liquid;           // heat into the rack coolant                (W)
  std::vector<double> rack_P;                  // rack electrical power                     (W)
  std::vector<double> rack_Q_air;              // (W)
  std::vector<double> rack_P_now;              // rack power at the last fast step          (W)
  std::vector<double> rack_gpu_P_now;          // its GPU part                              (W)
  std::vector<double> rack_gpu_Q_now;          // GPU heat into the coolant, last fast step (W)
  std::vector<double> rack_throttled_now;      // GPU-seconds throttled in the last fast step (s)
  std::vector<double> rack_T_in, rack_R_path;  // over the window: inlet (K), plate R (K/W)
  double interval_time = 0;                    // time accumulated in P_sum                 (s)
  // energy of the GPU layer since t = 0 (J)
  double E_electric = 0, E_to_coolant = 0, E_stored0 = 0;
};

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
  double P_ups_in = 0, P_ups_out = 0, P_ups_loss = 0, P_tx_loss = 0, P_utility = 0;  // all units
  // cumulative energies (J)
  double E_it = 0, E_psu = 0, E_bus = 0, E_ups = 0, E_tx = 0, E_utility = 0, E_battery = 0;
};

// one entry of the event log (/events in the results)
struct EventRecord {
  double time = 0;        // (s)
  std::string component;  // "cdu1", "rack A03", "busway A", "ups", "facility water"
  std::string kind;       // "pump_failure", "low_flow", "gpu_shutdown", ...
  std::string severity;   // "info", "warning", "critical"
  std::string message;
};

// what the faults have done so far, and the detectors' memory
struct FaultState {
  std::size_t next = 0;             // next entry of m.fault_events
  std::vector<int> pumps_out;       // per CDU: pumps not running because of faults
  std::vector<char> cdu_failed;     // per CDU: failed as a whole (no switch-over)
  std::vector<double> valve_stuck;  // per CDU: stuck opening, -1: free
  double fws_flow = 1.0;            // facility-water flow fraction
  bool utility_ok = true;
  std::vector<int> rack_psu_failed;  // per rack
  // detectors
  double next_poll = 0;
  std::vector<double> low_flow_since;  // per CDU; -1: flow fine
  std::vector<char> low_flow_alarm;
  std::vector<double> bus_high_since;  // per busway; -1: below the continuous-load ratio
  std::vector<char> bus_alarm, bus_trip_logged;
  std::vector<char> rack_lost_logged, rack_throttle_logged, rack_shutdown_logged, rack_brake_logged;
  bool ups_battery_logged = false;
  // leaks and the response to them
  bool changed = false;                // a policy acted: the integrator restarts
  std::vector<double> leak_on_sensor;  // per leak: coolant on its rack's sensor (m3)
  std::vector<double> leak_detected;   // per leak: detection time; -1: not yet
  std::vector<double> rack_isolation;  // per rack: isolation command time; -1: none
  std::vector<char> rack_isolated_logged;
  std::vector<char> rack_power_off;             // per rack: electrically isolated
  std::vector<char> low_level, pressure_alarm;  // per CDU
  std::vector<double> imbalance_since;          // per CDU; -1: balanced
  std::vector<char> imbalance_alarm;
  std::vector<char> over_pressure;  // per CDU
  double last_poll = -1;
  std::vector<char> job_stalled_logged;  // per job
  // strainer clogging per CDU: dp at design flow rising linearly from t0 over `time` to `dp`
  std::vector<double> filter_dp, filter_t0, filter_time;
  // sensor faults per CDU: offsets, and stuck readings (NaN: free)
  std::vector<double> sensor_T_offset, sensor_T_stuck, sensor_flow_offset, sensor_flow_stuck;
  std::vector<double> job_cap;  // per job: power limit set by an event; 0: the facility's (W)
};

struct SolverStats {
  long steps = 0, rhs_evals = 0, jac_evals = 0, lin_setups = 0, nonlin_iters = 0;
  long nonlin_conv_fails = 0, err_test_fails = 0, rhs_evals_jac = 0;
  double last_step = 0;
  long hydraulic_failures = 0;
  double gpu_layer_seconds = 0;  // wall time spent in the GPU layer and power chain (s)
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
  std::vector<EventRecord> events;
  double time = 0;
  SolverStats stats;
  std::vector<CduRhsPart> cdu_part;  // evalRhs's per-loop sums (sized by makeState)
  WorkerPool* pool = nullptr;        // set by simulate() while it runs (the CDU loops in parallel)
};

// throws LoadFailure (loader.h) naming the component when the spec cannot be compiled
FacilityModel compileFacility(const FacilitySpec& spec);

// a state sized for the model, initialized to a cold start: every fluid node and case at
// T_init (K), valves and pumps at their initial positions, PI integrators bumpless
State makeState(const FacilityModel& m, double T_init);

// faults: apply the events due at t (logs them); poll the detectors (logs alarms). Both run
// between solver steps, never inside the right-hand side.
void applyFaults(const FacilityModel& m, State& st, double t, const double* y);
// leaks (docs/models/leak.md): tank gauge pressure after losing V_lost (m3), pump head factor for
// V_air (m3) of air in the loop, a rack's isolation-valve closing fraction at t, orifice flow
double tankPressure(const FacilityModel& m, int c, double V_lost, bool* drained = nullptr);
double pumpHeadFactor(const FacilityModel& m, int c, double V_air);
double tankLiquidFraction(const FacilityModel& m, int c, double V_lost);
double rackIsolation(const FacilityModel& m, const State& st, int r, double t);
double orificeFlow(double CdA, double dp, double rho);
void pollDetectors(const FacilityModel& m, State& st, double t, const double* y);

// right-hand side dy/dt at (t, y); fills st.sig. Returns 0, or > 0 for a recoverable problem
// (a property lookup outside its range), as SUNDIALS expects. Never allocates.
int evalRhs(const FacilityModel& m, State& st, double t, const double* y, double* ydot);

// energy held in the model at y relative to y0 (J)
double storedEnergy(const FacilityModel& m, const double* y, const double* y0);

// GPU layer (solver/gpu_layer.cpp)
// sizes st.gl and puts every GPU node at T_init; called by makeState
void initGpuLayer(const FacilityModel& m, State& st, double T_init);
// the power chain for one fast step of length dt with the racks' DC power at its end
// (solver/power_layer.cpp)
void initPowerLayer(const FacilityModel& m, State& st);
// rack r's shelves and breakers (touches only rack r's slots: racks may run in parallel)
void powerRackStep(const FacilityModel& m, State& st, int r, double t, double dt);
// busways, UPS, transformer and the sums over the racks (after every powerRackStep)
void powerFeedStep(const FacilityModel& m, State& st, double t, double dt);
// advance the GPUs and jobs from t0 to t1 in steps of m.gpu_dt, with the rack inlet temperatures
// and flows of the coolant state y; leaves the window means in
// st.gl.rack_Q_liquid/rack_P/rack_Q_air for evalRhs. `fast` (may be null) is called after every
// fast step with t and st.
using FastCallback = void (*)(void* user, const FacilityModel& m, const State& st, double t);
// `pool` (may be null) runs the racks in parallel chunks; the results do not depend on it
void advanceGpuLayer(const FacilityModel& m, State& st, const double* y, double t0, double t1,
                     FastCallback fast = nullptr, void* user = nullptr, WorkerPool* pool = nullptr);
// energy held in the GPU nodes relative to T_ref (J)
double gpuLayerEnergy(const FacilityModel& m, const State& st, double T_ref);
// copies the group computation into the per-GPU arrays of st.gl (gpu, op, util, P_sum, ...)
void syncGpuView(const FacilityModel& m, State& st);
// starts a new output interval: P_sum = 0, Tj_max/Thbm_max = the current temperatures
void resetGpuInterval(const FacilityModel& m, State& st);

}  // namespace dctwin
