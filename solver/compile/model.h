// model.h: the compiled facility (immutable); the per-run state is solver/engine/state.h
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

#include <algorithm>
#include <string>
#include <vector>

#include "models/actuator.h"
#include "models/air_handler.h"
#include "models/cold_plate.h"
#include "models/controller.h"
#include "models/fan.h"
#include "models/fluid.h"
#include "models/gpu.h"
#include "models/heat_exchanger.h"
#include "models/hydraulics.h"
#include "models/job_model.h"
#include "models/manifold.h"
#include "models/plant_control.h"
#include "models/power_smoothing.h"
#include "models/pump.h"
#include "models/rack_parts.h"
#include "models/reliability.h"
#include "models/switch_rack.h"
#include "models/weather.h"
#include "models/workload.h"
#include "solver/common/params.h"

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

// what a state is (FacilityModel::state_kind): the right-hand side checks coolant temperatures
// against their fluid's table without searching the layout
enum class StateKind : char {
  Coolant,        // secondary coolant temperature: HX outlet, reservoir, headers, rack coolant (K)
  FacilityWater,  // facility-water temperature: the HX primary outlet                       (K)
  Case,           // cold-plate case, metal (not checked against the coolant's range)         (K)
  Control,        // PI integral, valve position, pump speed
  Volume,         // coolant lost, air in the loop                                          (m3)
  RoomAir,        // room-air node                                                           (K)
};

struct SolverOptions {
  double rtol = 1e-6;           // relative tolerance                                 (1)
  double atol_T = 1e-4;         // absolute tolerance on temperatures                 (K)
  double atol_ctrl = 1e-6;      // on valve/pump positions and PI states              (1)
  double max_step = 60;         // (s)
  double output_interval = 60;  // (s)
  int threads = 1;              // worker threads of one run (GPU layer, rhs); results do not
                                // depend on it (docs/performance.md)
  AnnualParams annual;          // the multi-rate annual mode (docs/models/annual.md)
  // the GPU layer's windows in blocks of steps where only the jobs' barriers couple its chunks
  // (docs/models/gpu_layer.md "Steps in blocks"); false: step by step, the path the tests hold
  // the blocks to (the same results but for round-off in the jobs' map sums)
  bool gpu_blocks = true;
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
  // the heat-rejection plant (docs/models/plant.md), stepped every plant.step between solver
  // steps; it sets the facility-water supply temperature and the dp at the CDUs. Without it
  // (has_plant false) fws_T and cdu_fws_dp are the fixed boundary
  bool has_plant = false;
  PlantParams plant;
  WeatherSeries weather;
  double plant_start = 0;      // t = 0 in the weather year                      (s)
  std::vector<double> tariff;  // price per kWh: flat (1) or by hour of day (24)
  std::string currency;
  double grid_co2 = 0;  // (kg/kWh)
  // room-air node (optional): the last state, after every CDU's block
  int room_state = -1;       // state index; -1: no room-air node
  double room_C = 0;         // air heat capacity rho V c_p                         (J/K)
  double room_G = 0;         // air-handler conductance rho V_dot c_p               (W/K)
  double room_supply_T = 0;  // (K)
  double room_T0 = 0;  // the room air at t = 0: the supply, or the air handlers' set point (K)
  // air handlers (docs/models/air_handler.md): their fan-speed controller's integral is the
  // state after the room air; -1: none (the fixed supply above)
  int ah_state = -1;
  AirHandlerParams ah;    // chiller Q_ref sized in compile when not given
  double air_rho_cp = 0;  // rho_a c_a of the room air                               (J/(m3 K))
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
  std::vector<PipeFriction> cdu_pipe_sup, cdu_pipe_ret;  // CDU to the row's first rack tap
  // the row: racks tap the headers in model order, one header segment between two taps
  // (docs/models/flow_distribution.md)
  std::vector<PipeFriction> cdu_tap_sup, cdu_tap_ret;
  std::vector<char> cdu_reverse_return;  // 1: the return leaves at the row's far end (Z)
  std::vector<double> cdu_M_seg_sup, cdu_M_seg_ret;    // (kg)
  std::vector<double> cdu_UA_seg_sup, cdu_UA_seg_ret;  // (W/K)
  std::vector<double> cdu_T_set;                       // (K)
  std::vector<int> cdu_pump_mode;                      // 0 flow, 1 dp
  std::vector<double> cdu_flow_set, cdu_dp_set;        // (m3/s), (Pa)
  std::vector<PIParams> cdu_pi_temp, cdu_pi_pump;
  // --- datasheet keys: actuators (docs/models/actuator.md), initial positions, PI
  // initial outputs and actions (docs/models/controller.md)
  std::vector<ActuatorParams> cdu_valve_act, cdu_pump_act;
  std::vector<double> cdu_valve_y0, cdu_pump_N0;  // positions at t = 0                   (1)
  std::vector<double> cdu_temp_u0, cdu_pump_u0;   // PI outputs at t = 0                  (1)
  // the PIs' integral parts at t = 0 (k x0 / Ti); NaN: bumpless from the outputs above      (1)
  std::vector<double> cdu_temp_uI0, cdu_pump_uI0;
  std::vector<double> cdu_temp_sign, cdu_pump_sign;  // +1 direct, -1 reverse action
  // measurement lags: a state after the loop's return header where a PI's sensor has a time
  // constant (-1: ideal sensor). Temperature sensor: the measured supply (K); pump sensor: the
  // measured flow (or dp) over the facility's set point (1)
  std::vector<int> cdu_sensT_adr, cdu_sensP_adr;
  std::vector<double> cdu_sensT_tau, cdu_sensP_tau;  // (s)
  // --- end datasheet keys
  // --- datasheet keys, round 2: the strainer/filter (docs/models/filter.md): dp =
  // k m^2 with k = dp / (rho V_rated)^2; dp at the rated flow at t = 0 (0: no filter), which a
  // filter_clogging event moves towards its dp. Pump position (docs/models/cdu.md).
  std::vector<double> cdu_filter_V_rated;   // rated flow; the racks' design flow by default (m3/s)
  std::vector<double> cdu_filter_dp0;       // dp at the rated flow at t = 0                 (Pa)
  std::vector<double> cdu_filter_alarm_dp;  // dp switch set point; 0: no switch             (Pa)
  std::vector<char> cdu_pump_downstream;    // 1: pumps after the HX (heat into the supply)
  std::vector<char> cdu_pump_heat;          // 1: the pumps' losses heat the coolant
  // prescribed boundaries (docs/models/cdu.md): 0 = none
  std::vector<double> cdu_presc_m_sec, cdu_presc_m_prim;  // (kg/s)
  std::vector<double> cdu_presc_T_supply;                 // (K)
  // --- end datasheet keys, round 2

  // racks (nrack, model order)
  std::vector<std::string> rack_name, rack_row, rack_type;
  std::vector<std::string> rack_hall;  // campus level, display only ("" = the one hall)
  std::vector<int> rack_index, rack_cdu;
  std::vector<ColdPlateLaw> rack_coldplate;
  std::vector<double> rack_paths;  // parallel cold-plate paths               (1)
  std::vector<double> rack_mult;   // racks lumped in this entry (multiplier) (1)
  std::vector<double> rack_liquid_frac, rack_gpu_frac;
  std::vector<double> rack_design_flow;  // (m3/s)
  std::vector<PowerLaw> rack_manifold;   // vs rack mass flow
  std::vector<PowerLaw> rack_valve;      // balancing valve, quadratic, vs mass flow
  std::vector<double> rack_C_case;       // cold-plate case capacity, whole rack    (J/K)
  std::vector<double> rack_M_cool;       // rack coolant mass                       (kg)
  // the rack type's limits, checked by the protection layers (docs/models/protection.md)
  std::vector<double> rack_T_in_max;  // supply_temperature_max; 0: none           (K)
  std::vector<double> rack_p_max;     // max_working_pressure, gauge; 0: none      (Pa)
  std::vector<TimeSeries> rack_load;  // rack power                              (W)

  // racks with resolved GPUs (nrack): the GPU layer supplies their heat and power
  std::vector<char> rack_resolved;                      // 1: GPUs resolved, 0: heat_load profile
  std::vector<int> rack_gpuadr, rack_gpunum;            // first GPU, count
  std::vector<double> rack_other_idle, rack_other_max;  // non-GPU power                 (W)
  std::vector<double> rack_other_liquid;   // liquid share of the non-GPU heat         (1)
  std::vector<int> rack_tray_gpus;         // GPUs per tray                            (1)
  std::vector<double> rack_power_cap;      // whole-rack limit; 0 = none               (W)
  std::vector<double> rack_gpu_power_cap;  // per-GPU limit stated for the rack; 0 = none (W)
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
  std::vector<double> gpu_cap;       // power limit                                       (W)
  std::vector<double> gpu_R_factor;  // cold-plate degradation factor                     (1)
  std::vector<double> gpu_C_plate;   // plate capacity                                    (J/K)
  // GPU-to-GPU variation (docs/models/gpu_variation.md): factors on the type's parameters, drawn
  // at compile from the seed and each GPU's identity; all 1 with `variation: none`
  std::vector<double> gpu_leak_factor;  // x P_leak_ref (leakage)                              (1)
  std::vector<double> gpu_idle_factor;  // x (P_idle - P_leak_ref) (non-leakage static)        (1)
  std::vector<double> gpu_dyn_factor;   // x P_sm_max, P_clk (V-f curve: clock at the cap)     (1)
  std::vector<double> gpu_Rjc_factor;   // x R_jc (TIM, seating, ageing)                       (1)
  std::vector<double> gpu_Rhbm_factor;  // x R_hbm                                             (1)
  std::vector<char> gpu_bad_mount;      // 1: a poorly seated plate (in gpu_Rjc_factor)
  bool variation_on = false;            // the facility's variation section
  unsigned long long variation_seed = 0;
  std::vector<int> gpu_job, gpu_jobslot;  // job index (-1: idle) and rank in it
  // coolant distribution over the plates (docs/models/flow_distribution.md), filled at compile
  // from the rack manifold (trays in parallel, each at its position on the supply and return
  // manifolds) and the tray's plate topology
  std::vector<double> gpu_flow_share;  // share of its rack's coolant flow through its plate   (1)
  std::vector<int> gpu_upstream;       // GPU whose plate is upstream in series; -1: none
  // GPU groups: consecutive GPUs of one rack with the same type, limit, plate, flow share and job
  // (not a trace replay, no plate upstream) see the same inlet, flow and load, so their
  // trajectories are identical: the GPU layer computes each group once and weighs it by its size
  // (docs/performance.md). Without gpu_layer.group_identical every GPU is its own group (the
  // reference path).
  int ngroup = 0;
  std::vector<int> group_gpuadr, group_gpunum;  // first GPU, count
  std::vector<int> group_jobslot;               // index in job_groups of its job (-1: no job)
  std::vector<int> gpu_group;                   // group of each GPU
  std::vector<int> rack_groupadr, rack_groupnum;
  std::vector<std::vector<int>> job_groups;  // groups of each job, in the rank order of their GPUs
  // each group's parameters: its type's with its (shared) variation factors applied
  std::vector<GpuParams> group_params;

  // jobs
  int njob = 0;
  std::vector<std::string> job_name;
  std::vector<TrainingJobSpec> job_spec;
  std::vector<DescribedJob> job_described;  // per job; phases empty unless described (job.md)
  FabricSpec fabric;                        // NVLink domains, scale-out (fabric.md)
  std::vector<int> job_kind;                // 0 training, 1 inference, 2 trace
  std::vector<InferenceSpec> job_inference;
  std::vector<TraceSpec> job_trace;
  std::vector<PowerSmoothingParams> job_smoothing;
  std::vector<std::vector<int>> job_gpus;  // GPU indices of each job (rank order)
  // clock ratio of each phase in the unthrottled reference run: [job][type * (nphase + 2) +
  // phase], 1 for the iteration end and the checkpoint (phases nphase and nphase + 1)
  std::vector<std::vector<double>> job_xref;
  std::vector<std::vector<double>> job_xref_inv;  // 1 / job_xref, entry by entry
  // per job: 1 where one of its GPU types has a GEMM stall share (GpuParams::eff_gemm_stall): its
  // compute speed is then 1 / ((1 - s) / c + s) of the clock ratio c, not c (docs/models/job.md
  // "Power limit"); 0 keeps the clock ratio as it is computed (every type without one)
  std::vector<char> job_stall;

  // power chain (docs/models/power_chain.md); stepped with the GPU layer's fast clock
  bool has_power = false;
  PowerChainParams power;        // resolved parameters
  GridParams grid;               // the utility's limits at the meter (docs/models/grid.md)
  std::vector<int> rack_busway;  // busway feeding each rack (model order)
  std::vector<char> rack_has_storage;
  std::vector<StorageParams> rack_storage;  // rack energy storage (GB300-style)
  std::vector<std::string> busway_name;

  // air-cooled racks and devices (docs/models/air_rack.md): algebraic, their heat and
  // fan power into the room air node (or, without one, drawing the site ambient air)
  int nair = 0;
  std::vector<std::string> air_name, air_row;
  std::vector<int> air_index;
  std::vector<TimeSeries> air_load;  // IT power                                     (W)
  std::vector<FanParams> air_fans;
  std::vector<int> air_busway;  // power chain: the feeding busway; -1: at the utility meter

  // scale-out switch racks (docs/models/switch_rack.md): algebraic; their power is IT
  // load on their busway, their heat to the room air and (liquid) their CDU loop's return
  int nsw = 0;
  std::vector<std::string> sw_name, sw_row;
  std::vector<int> sw_index;
  std::vector<SwitchRackParams> sw_params;  // switch counts resolved
  std::vector<int> sw_busway;               // the feeding busway; -1: at the utility meter
  std::vector<int> sw_cdu;                  // liquid: the CDU loop; -1: air
  std::vector<std::vector<int>> sw_racks;   // the compute racks it serves (model indices)

  std::vector<StateKind> state_kind;  // what each state is (nstate)

  // jacobian sparsity (CSC) and column coloring for difference quotients
  std::vector<long long> jac_colptr;  // (nstate+1)
  std::vector<long long> jac_rowind;  // (nnz)
  std::vector<int> jac_color;         // color of each column
  int jac_ncolor = 0;

  // faults and detection (docs/scenario-format.md "Faults"): events in time order, with the
  // pump switch-overs they cause already scheduled
  struct FaultEvent {
    double time = 0;
    FaultKind kind = FaultKind::PumpFailure;
    int index = -1;        // CDU or rack
    double value = 0;      // pumps (negative: standby pumps taking over), opening, fraction, PSUs
    std::string label;     // component name for the event log
    bool covered = false;  // pump failure with a standby switch-over scheduled
    double time2 = 0;      // filter clogging: growth time (s)
    SensorKind sensor = SensorKind::SupplyTemperature;
    bool stuck = false;
    FabricFault fabric = FabricFault::LinkDegraded;  // Fabric: what, GPU (model index), NIC, tray
    int gpu = -1, nic = 0, tray = 0;
    std::vector<int> reach{};  // switch faults: the links (leaf) or GPUs (spine) the switch carries
    SetpointKind setpoint = SetpointKind::SupplyTemperature;  // set-point events
    int part = -1;  // plate degradation: index into the rack's part set
  };
  std::vector<FaultEvent> fault_events;
  DetectionParams detection;
  // failures as a seeded process (docs/models/failures.md); off unless a scenario has `failures:`
  FailureProcessParams failures;
  StragglerParams stragglers;           // straggler detection and its policy (the same page)
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
    LeakSite where = LeakSite::Rack;
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
  bool isCaseState(int i) const { return state_kind[i] == StateKind::Case; }
  int retSegAdr(int c) const { return supSegAdr(c) + cdu_nseg_sup[c] + 2 * cdu_racknum[c]; }
};

// a GPU's power limit (docs/facility-format.md "racks"): the smallest of the caps stated for it,
// its rack's gpu_power_cap and its job's gpu_power_cap (or the power-cap event that replaced the
// job's), each 0 where not stated, held within the GPU's settable range [power_limit_min,
// power_limit_max]; its TDP where neither states one
inline double gpuPowerLimit(const GpuParams& gp, double rack_cap, double job_cap) {
  double cap = 0;
  if (rack_cap > 0 && job_cap > 0)
    cap = std::min(rack_cap, job_cap);
  else if (rack_cap > 0 || job_cap > 0)
    cap = std::max(rack_cap, job_cap);
  else
    return gp.P_tdp;
  return std::clamp(cap, gp.P_limit_min, gp.P_limit_max);
}

}  // namespace dctwin
