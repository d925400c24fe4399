// spec.h: the editable facility specification, one-to-one with the facility YAML format
//
// FacilitySpec is what loadFacility() reads (docs/facility-format.md) and what compileFacility()
// turns into an immutable FacilityModel. Values are SI; catalog entries (CDU models, rack types,
// cold plates, fluids) are resolved into the spec by the loader, so a spec is self-contained.
#pragma once

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/air_handler.h"
#include "models/electrical.h"
#include "models/fan.h"
#include "models/fluid.h"
#include "models/gpu.h"
#include "models/job_model.h"
#include "models/plant_control.h"
#include "models/power_smoothing.h"
#include "models/rack_parts.h"
#include "models/reliability.h"
#include "models/switch_rack.h"
#include "models/weather.h"
#include "models/workload.h"
#include "solver/common/params.h"

namespace dctwin {

struct FlowValue {
  double value = 0;   // m3/s or kg/s
  bool mass = false;  // true: kg/s
  double massFlow(double rho) const { return mass ? value : value * rho; }
  double volumeFlow(double rho) const { return mass ? value / rho : value; }
};

struct ColdPlateSpec {
  std::string name;
  double time_constant = 2.0;  // case/plate first-order lag at design flow      (s)
  // heat capacity from masses (cold_plate.md "Heat capacity"); both 0: from time_constant
  double mass = 0;            // copper mass of one plate                        (kg)
  double holdup_volume = 0;   // coolant held in one plate                       (m3)
  double dp_nominal = 0;      // plate pressure drop at flow_nominal            (Pa)
  double flow_nominal = 0;    // (m3/s)
  double dp_exponent = 1.85;  // (1)
  struct Law {
    double R_inf = 0, a = 0, b = 1;  // R = R_inf + a V^-b, V in L/min                  (K/W)
    std::vector<double> table_flow;  // published points                             (m3/s)
    std::vector<double> table_R;     // (K/W)
    bool use_table = false;          // R(V) from the table (monotone interpolation), else the fit
  };
  std::map<std::string, Law> laws;  // by fluid name
  SourceLoc loc;
};

struct RackTypeSpec {
  std::string name;
  double nominal_power = 0;      // (W)
  double liquid_fraction = 0.8;  // heat captured by the liquid                    (1)
  double gpu_heat_fraction = 0;  // rack power dissipated in the GPU cold plates   (1)
  int trays = 1;
  int gpus_per_tray = 1;
  std::string coldplate;             // ColdPlateSpec name
  int coldplate_paths = 1;           // parallel cold-plate flow paths                 (1)
  double design_flow = 0;            // (m3/s)
  double manifold_dp_nominal = 0;    // whole-rack pressure drop at manifold_flow_nominal (Pa)
  double manifold_flow_nominal = 0;  // (m3/s)
  double manifold_exponent = 2.0;    // (1)
  // the rack manifolds feeding the trays in parallel (docs/models/flow_distribution.md)
  bool manifold_z = false;                    // Z: return at the far end; U: at the supply's end
  double manifold_header_length = 0;          // over the trays; 0: no header losses          (m)
  double manifold_header_diameter = 0.04;     // inner diameter                               (m)
  double manifold_header_roughness = 4.5e-5;  // (m)
  int coldplate_series = 1;                   // GPU plates in series on one path in a tray  (1)
  SourceLoc manifold_loc;                     // the manifold map (its errors)
  double coolant_volume = 0;          // liquid inside the rack                          (m3)
  double balancing_valve_kv = 0;      // fully open, m3/h/sqrt(bar)                    (Kv)
  double max_working_pressure = 0;    // gauge                                          (Pa)
  double supply_temperature_max = 0;  // (K)
  // resolved accelerators (racks without a heat_load profile)
  std::string gpu;  // GpuParams name (catalog/gpus); "" = none
  // the GPUs' HBM in this rack type (gpu_memory); 0: the GPU type's. The loader gives such a type
  // a GPU type of its own, "<gpu>@<rack type>"                                      (B, B/s)
  double gpu_hbm_capacity = 0, gpu_hbm_bandwidth = 0;
  double other_idle_power = 0;  // CPUs, switches, NICs, fans at idle               (W)
  double other_max_power = 0;   // the same under full load                          (W)
  std::vector<std::pair<std::string, int>> parts;  // non-GPU parts (catalog/parts) and counts
  bool has_storage = false;  // GB300-style rack energy storage behind the shelves
  StorageParams storage;     // (used with a power section)
  SourceLoc loc;
};

struct PipeSpec {
  double length = 0;          // (m)
  double diameter = 0;        // inner diameter                                    (m)
  double roughness = 4.5e-5;  // commercial steel                                 (m)
  int segments = 10;          // finite volumes for the transport delay            (1)
  double ua_per_length = 0;   // heat loss to ambient per metre                    (W/(m K))
};

struct CduSpec {
  std::string name;
  std::string model;  // catalog entry it was built from ("" = explicit values)
  std::string fluid = "pg25";
  // plate heat exchanger, rated point
  double hex_capacity = 0;          // (W)
  double hex_approach = 0;          // T_sec,supply - T_prim,supply at the rated point (K)
  double hex_T_primary_rated = 0;   // rated facility-water inlet                   (K)
  FlowValue hex_flow_secondary;     // rated
  FlowValue hex_flow_primary;       // rated
  double hex_dp_primary = 0;        // at rated primary flow                        (Pa)
  double hex_dp_secondary = 0;      // at rated secondary flow                      (Pa)
  double hex_holdup_primary = 0;    // (m3)
  double hex_holdup_secondary = 0;  // (m3)
  double hex_flow_exponent = 0.8;   // (1)
  // pumps
  int pump_count = 1;
  int pump_running = 1;
  double pump_rated_flow = 0;           // per pump                                     (m3/s)
  double pump_rated_head = 0;           // per pump, total                              (Pa)
  std::vector<double> pump_curve_flow;  // flow ratio                                 (1)
  std::vector<double> pump_curve_head;  // head ratio                                 (1)
  double pump_eta_hyd = 0.7;
  double pump_eta_mot = 0.7;
  double pump_rise_time = 30;    // (s)
  double pump_min_speed = 0.15;  // (1)
  // primary control valve
  double valve_rangeability = 50;
  double valve_leakage = 1e-4;
  double valve_dp_nominal = 0;     // fully open at rated primary flow             (Pa)
  double valve_stroke_time = 120;  // (s)
  // expansion tank and internal volume
  double tank_volume = 0;      // (m3)
  double tank_precharge = 0;   // gauge                                        (Pa)
  double internal_volume = 0;  // reservoir and internal piping                (m3)
  double tank_fill = 0;  // static fill pressure at the tank, gauge; 0: precharge + 50 kPa (Pa)
  double vacuum = 0;     // negative-pressure loop: tank held at this gauge pressure (< 0) (Pa)
  // controls
  double T_supply_set = 0;  // secondary supply set point                   (K)
  enum class PumpMode { Flow, Dp } pump_mode = PumpMode::Flow;
  double flow_set = 0;   // (m3/s)
  double dp_set = 0;     // across the rack bank                         (Pa)
  double temp_k = 0.1;   // valve fraction per kelvin                    (1/K)
  double temp_Ti = 120;  // (s)
  double pump_k = 0.5;   // speed per unit relative error                (1)
  double pump_Ti = 15;   // (s)
  // limits
  double T_supply_min = 0, T_supply_max = 0;      // (K)
  double p_secondary_max = 0, p_primary_max = 0;  // gauge (Pa)
  // secondary (TCS) piping between CDU and racks
  PipeSpec supply_pipe, return_pipe;
  double rack_spacing = 0.6;    // header length between two rack taps (rack pitch)    (m)
  bool reverse_return = false;  // the return header leaves at the row's far end (Z)
  SourceLoc piping_loc;
  // --- datasheet keys (solver/input/datasheet_reader.cpp, docs/models/actuator.md)
  double valve_kv = 0;  // fully open flow coefficient; 0: from dp_nominal at the rated flow (Kv)
  bool valve_rate_limited = false;  // actuator: rate (full stroke in stroke_time), else lag
  double valve_filter_time = 0;     // rate-limited actuator's first-order filter; 0: none (s)
  double valve_initial = 0.5;       // position at t = 0                                (1)
  bool pump_rate_limited = false;   // drive: rate (0 -> full speed in rise_time), else lag
  double pump_filter_time = 0;      // (s)
  double pump_initial = 0.5;        // speed ratio at t = 0                             (1)
  // PI controllers beyond k and Ti: anti-windup tracking time (0: Ti), output limits (NaN: the
  // actuator's range), action (reverse: error = set point - measurement), initial output (NaN:
  // the actuator's initial position; sets the integrator state bumplessly)
  struct PiExtra {
    double Tt = 0;
    double u_min = NAN, u_max = NAN;
    bool reverse = false;
    double u0 = NAN;
    double sensor_tau = 0;  // first-order lag of the measurement; 0: ideal sensor (s)
    // the integral part of the output at t = 0, k x0 / Ti (may lie outside the output limits: a
    // wound-up start); NaN: set from u0 (output units)
    double u_int0 = NAN;
  };
  PiExtra temp_pi{};                           // direct: the valve opens when warm
  PiExtra pump_pi{0, NAN, NAN, true, NAN, 0};  // reverse: speeds up on a shortfall
  // --- end datasheet keys
  // --- datasheet keys, round 2 (docs/models/filter.md, cdu.md, heat_exchanger.md)
  // strainer/filter in the secondary loop: dp = k m^2 through a rated point; clean, clogged
  double filter_dp_clean = 0;        // at the rated flow, clean; 0: no filter              (Pa)
  double filter_dp_clogged = 0;      // at the rated flow, clogged (change-out); 0: none    (Pa)
  double filter_rated_flow = 0;      // 0: the racks' design flow                           (m3/s)
  double filter_clogging = 0;        // state at t = 0 between clean (0) and clogged (1)    (1)
  double filter_alarm_dp = 0;        // the dp switch's set point; 0: dp_clogged  (Pa)
  bool pump_downstream = false;      // pumps.position: downstream of the HX (heat into the supply)
  bool pump_heat_to_coolant = true;  // pumps.heat_to_coolant: false leaves the pump's heat out
  // heat exchanger beyond the rated point: sizing rated | ua | approach | table
  enum class HexSizing { Rated, Ua, Approach, Table } hex_sizing = HexSizing::Rated;
  double hex_ua = 0;  // overall conductance at the rated flows (sizing ua)             (W/K)
  // approach at a flow (sizing approach): this approach at this load, these flows, this inlet
  double hex_ap_approach = 0, hex_ap_load = 0, hex_ap_T_primary = 0;  // (K), (W), (K)
  FlowValue hex_ap_flow_secondary, hex_ap_flow_primary;
  // vendor table (sizing table): UA over the secondary flow at the rated primary flow
  std::vector<double> hex_table_flow, hex_table_ua;  // (m3/s), (W/K)
  // prescribed boundaries (facility CDUs only): 0 = none
  FlowValue prescribed_secondary_flow, prescribed_primary_flow;
  double prescribed_supply_T = 0;  // (K)
  // --- end datasheet keys, round 2
  SourceLoc loc;
};

struct RackSpec {
  std::string name;
  std::string cdu;   // CduSpec name
  std::string type;  // RackTypeSpec name
  std::string row;   // hall position, for display
  std::string hall;  // the hall (building) on a campus, for display; "" = the one hall
  int index = 0;
  double valve_opening = 1.0;  // balancing valve opening                         (1)
  double valve_kv = 0;         // fully open Kv; 0 = the rack type's                (Kv)
  TimeSeries heat_load;        // rack electrical power = heat                     (W)
  bool has_heat_load = false;  // false: the rack's GPUs are resolved (type.gpu)
  double gpu_power_cap = 0;    // per-GPU power limit; 0 = the job's or the GPU's TDP (W)
  double power_cap = 0;        // whole-rack power limit shared by its GPUs; 0 = none  (W)
  // cold plates that conduct worse than the type's law: (GPU slot in the rack, R factor)
  std::vector<std::pair<int, double>> coldplate_degradation;
  // a lumped block of this many identical racks in parallel; may be non-integer (1)
  double multiplier = 1;
  SourceLoc loc;
};

// an air-cooled rack or device with fans: switch racks, storage, air-cooled servers (
// docs/models/air_rack.md). Its power and its fans' power are heat in the room air.
struct AirRackSpec {
  std::string name;
  std::string row;  // hall position, for display
  int index = 0;
  TimeSeries heat_load;  // IT power = heat                                       (W)
  FanParams fans;
  SourceLoc loc;
  std::string busway;  // power section: the busway feeding it; empty: at the utility meter
  SourceLoc busway_loc;
};

// a scale-out switch rack (leaf or spine) with its switches, optics and cooling (
// docs/models/switch_rack.md; reader solver/input/switch_reader.cpp)
struct SwitchRackSpec {
  std::string name;
  std::string row;  // hall position, for display
  int index = 0;
  SwitchRackParams params;
  bool switches_given = false, cages_used_given = false, port_power_given = false;
  std::vector<std::string> racks;  // the compute racks it serves (leaf: cabled to; spine: via
                                   // their leaves); empty with switches given
  std::string busway, cdu;         // power section busway (empty: utility meter); liquid: CDU
  SourceLoc loc, busway_loc, cdu_loc, racks_loc;
};

// a synchronous training job on a set of racks (every GPU of those racks)
struct JobSpec {
  enum class Kind { Training, Inference, Trace };
  Kind kind = Kind::Training;
  InferenceSpec inference;         // Kind::Inference: load profile
  TraceSpec trace;                 // Kind::Trace: per-GPU samples (rank order)
  PowerSmoothingParams smoothing;  // GB200-style power floor and ramp limits per GPU
  std::string name;
  std::vector<std::string> racks;  // rack names; empty = every rack with resolved GPUs
  TrainingJobSpec training;        // phases, start, stop, checkpoints
  double gpu_power_cap = 0;        // per GPU; 0 = each GPU's TDP                         (W)
  double T_ref = 318.15;           // junction temperature of the unthrottled reference  (K)
  // a described job (docs/models/job.md): its phases follow at compile from the GPU and fabric
  bool described = false;
  ModelWorkloadSpec workload;
  std::map<std::string, SourceLoc> workload_loc;  // where each key of `workload` was set
  SourceLoc loc;
};

struct FacilityWaterSpec {
  std::string fluid = "water";
  TimeSeries T_supply;  // (K)
  enum class Mode { Pressure, Flow } mode = Mode::Pressure;
  double dp = 0;   // available differential pressure at each CDU           (Pa)
  FlowValue flow;  // flow at a fully open valve, per CDU
};

// a fault or operating event from a scenario (docs/scenario-format.md "Faults"), applied at its
// time
// what a fault says beyond its kind, time, target and value: a scenario event carries it and its
// fault (FaultSpec) takes it whole
struct FaultArgs {
  // leaks: where, orifice area (growing linearly to area_final over growth_time), discharge
  // coefficient (sharp-edged orifice 0.61-0.62 (a))
  using Where = LeakSite;
  Where where = Where::Rack;
  double area = 0, area_final = 0, growth_time = 0;  // (m2), (m2), (s)
  double Cd = 0.62;
  // sensor faults: which sensor, stuck at its reading or offset by `value` (K, or a fraction of
  // the flow)
  using Sensor = SensorKind;
  Sensor sensor = Sensor::SupplyTemperature;
  bool stuck = false;
  // fabric faults: what, which GPU (slot in the rack), NIC and NVLink switch tray
  FabricFault fabric = FabricFault::LinkDegraded;
  int gpu = -1, nic = 0, tray = 0;  // switch faults: `tray` is the switch, target the switch rack
  SetpointKind setpoint = SetpointKind::SupplyTemperature;  // set-point events
  std::string part = {};  // plate degradation: the rack part (catalog name) whose plates degrade
  // grid disturbances (voltage_sag, frequency_excursion): each lasts `duration`; `repeat` of
  // them start `interval` apart (a line's reclosing onto a standing fault)
  double duration = 0;  // (s)
  int repeat = 1;
  double interval = 0;  // (s)
};

// a fault of the run (its kind's row: solver/common/fault_table.h)
struct FaultSpec : FaultArgs {
  using Kind = FaultKind;
  double time = 0;  // (s)
  Kind kind = Kind::PumpFailure;
  std::string target;  // CDU or rack name
  double value = 0;
  SourceLoc loc;
};

// the heat-rejection plant on the facility water and its weather (docs/models/plant.md,
// docs/models/weather.md); without one the facility water is the fixed boundary above
struct PlantSpec {
  PlantParams params;
  WeatherSeries weather;
  double start = 0;            // the run's t = 0 in the weather year               (s)
  std::vector<double> tariff;  // price per kWh: one (flat) or 24 (hour of day)
  std::string currency = "EUR";
  double grid_co2 = 0;  // grid emission factor                               (kg/kWh)
};

// the power chain and the detection policies are read as they are compiled (solver/common/params.h)
using PowerSpec = PowerChainParams;
using DetectionSpec = DetectionParams;

// GPU-to-GPU variation (docs/models/gpu_variation.md): the facility's `variation` section. A
// spread set here overrides every GPU type's catalog spread; NaN: the type's own
struct VariationSpec {
  bool on = true;               // `variation: none` switches it off
  unsigned long long seed = 1;  // documented default seed
  GpuSpread spread_override{kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset};
  double tim_ageing = 0;                // R_jc growth per year of TIM age                 (1/yr)
  double age = 0;                       // the TIM's age at the start of the run           (yr)
  static constexpr double kUnset = -1;  // (< 0: not set)
};

struct FacilitySpec {
  std::string name;
  std::string description;
  std::string file;  // path it was loaded from
  std::string text;  // the file's text, kept for provenance in results
  // the other files the load read (catalog entries, CSV series, weather, traces): a run's
  // outputs must replace none of them
  std::vector<std::string> input_files;
  double T_ambient = 298.15;  // (K)
  // the room air that takes the racks' air-side heat (optional): a mixed air volume cooled by
  // air handlers supplying air at a fixed temperature and flow
  bool has_room_air = false;
  double room_volume = 0;    // air volume of the hall                              (m3)
  double room_supply_T = 0;  // air-handler supply temperature                      (K)
  double room_airflow = 0;   // air-handler volume flow                             (m3/s)
  // air handlers with chilled-water coils (room_air.air_handlers): the room air temperature on
  // their fan speed, their fans and chiller in PUE (docs/models/air_handler.md); without them
  // the fixed supply temperature and airflow above
  bool has_air_handlers = false;
  AirHandlerParams air_handlers;
  bool air_chiller_capacity_given = false;  // else sized from the coils' duty
  FacilityWaterSpec facility_water;
  bool has_plant = false;  // a plant: section (the facility water's supply is then its output)
  PlantSpec plant;
  std::map<std::string, FluidData> fluids;  // resolved from the catalog
  std::set<std::string> file_fluids;        // those defined in the file
  std::map<std::string, ColdPlateSpec> coldplates;
  std::map<std::string, RackTypeSpec> rack_types;
  std::map<std::string, GpuParams> gpus;    // resolved from the catalog
  std::map<std::string, PartParams> parts;  // resolved from the catalog
  std::vector<CduSpec> cdus;
  std::vector<RackSpec> racks;
  std::vector<AirRackSpec> air_racks;        // air-cooled racks and devices
  std::vector<SwitchRackSpec> switch_racks;  // scale-out switch racks
  std::vector<JobSpec> jobs;
  FabricSpec fabric;  // NVLink domains and scale-out network (docs/models/fabric.md)
  // host-memory tiers behind the GPUs (models/host_memory.h, docs/models/job.md) and where the
  // section was given (errors a described job finds with it)
  HostMemorySpec host_memory;
  SourceLoc host_memory_loc;
  PowerSpec power;
  GridParams grid;             // the utility's limits at the meter (docs/models/grid.md)
  double gpu_step = 0.05;      // fast step of the GPU layer            (s)
  double coupling_step = 5.0;  // GPU layer <-> coolant exchange interval (s)
  // compute identical GPUs of a rack once (docs/performance.md); false: the reference path
  bool gpu_group_identical = true;
  VariationSpec variation;
  std::vector<FaultSpec> faults;  // from a scenario, in time order
  // failures as a seeded process, from a scenario's `failures:` (docs/models/failures.md)
  FailureProcessParams failures;
  StragglerParams stragglers;  // straggler detection and its policy (the same page)
  DetectionSpec detection;
};

}  // namespace dctwin
