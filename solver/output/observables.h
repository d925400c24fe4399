// observables.h: the one table of outputs. Every quantity a run reports is one row of
// DCTWIN_OBSERVABLES: its results-file path, SI unit, basis (what instant or span a value
// stands for), shape (one value per facility, CDU, rack, GPU, job or busway), when it exists,
// a description and how it is computed. The library evaluates the table once per output row
// (solver/output/observables.cpp) into an OutputFrame; the HDF5 file, the ParaView export, the
// CLI summary, the sweep metrics and the GUI stream all read frames, never the state.
// docs/results.md's table of series is generated from it (`dctwin outputs --markdown`) and a test
// checks that the two agree. The pattern is MuJoCo's mjxmacro.h.
//
// No state or model type appears in this header: fronts include it freely.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "solver/common/params.h"
#include "solver/common/provenance.h"
#include "solver/common/report.h"

namespace dctwin {

// what one value of a series stands for
enum class Basis {
  Instant,       // the value at the output time
  WindowMean,    // resolved-GPU racks: mean over the GPU layer's coupling window ending at the
                 // output time (docs/models/gpu_layer.md); heat-load racks: the instant value
  IntervalMean,  // mean over the output interval ending at the output time
  IntervalMax,   // maximum over the output interval ending at the output time
  RunMean,       // mean from the start of the run (or of the job) to the output time
  Cumulative     // accumulated from t = 0 to the output time
};

// one value per ...
enum class Shape { Facility, Cdu, Rack, Gpu, Job, Busway, AirRack, SwitchRack };

// when a series exists in a run
enum class Needs {
  Always,
  Gpus,         // resolved GPUs (racks without a heat_load)
  Jobs,         // jobs
  Power,        // a power: section
  Room,         // site.room_air
  AirHandlers,  // site.room_air.air_handlers
  AirRacks,     // air_racks
  SwitchRacks,  // switch_racks
  Plant,        // a plant: section
  GpusPower,    // resolved GPUs and a power: section (the meter at the GPU step)
  Halls         // racks named by hall (racks[].hall: a campus)
};

// how often a series is recorded: every output row, or every fast (GPU) step when asked for
// (`dctwin run --power-interval`)
enum class Rate { Output, Fast };

// the units of the output table's rows and how people see them (docs/results.md "Units"): the SI
// unit the files and Python carry, what it measures, and the display unit of the fronts (GUI,
// ParaView export, CLI, report, CSV export with --units display): shown = SI * scale + offset.
// An absolute temperature and a temperature difference are both K in SI and in the files (with
// CF's units_metadata attribute saying which), and only the absolute one is shown in degC.
// X(id, SI unit, what it measures, display unit, scale, offset)
#define DCTWIN_UNITS(X)                                             \
  X(K, "K", "absolute temperature", "°C", 1.0, -273.15)             \
  X(dK, "K", "temperature difference", "K", 1.0, 0.0)               \
  X(W, "W", "power", "kW", 1e-3, 0.0)                               \
  X(J, "J", "energy", "kWh", 1.0 / 3.6e6, 0.0)                      \
  X(Pa, "Pa", "pressure", "kPa", 1e-3, 0.0)                         \
  X(m3_s, "m3/s", "volume flow", "L/min", 6e4, 0.0)                 \
  X(m3, "m3", "volume", "L", 1e3, 0.0)                              \
  X(kg, "kg", "mass", "kg", 1.0, 0.0)                               \
  X(kg_s, "kg/s", "mass flow", "kg/s", 1.0, 0.0)                    \
  X(s, "s", "time", "s", 1.0, 0.0)                                  \
  X(one, "1", "ratio, count or index", "1", 1.0, 0.0)               \
  X(L_kWh, "L/kWh", "water per energy (WUE)", "L/kWh", 1.0, 0.0)    \
  X(K_s, "K s", "integral of a temperature error", "K s", 1.0, 0.0) \
  X(A, "A", "current", "A", 1.0, 0.0)                               \
  X(per_s, "1/s", "rate", "1/s", 1.0, 0.0)

enum class Unit {
#define DCTWIN_UNIT_ID(id, si, what, display, scale, offset) id,
  DCTWIN_UNITS(DCTWIN_UNIT_ID)
#undef DCTWIN_UNIT_ID
};
struct UnitInfo {
  Unit id;
  const char* si;       // as the files write it: "K", "m3/s"
  const char* what;     // "absolute temperature", "temperature difference", ...
  const char* display;  // "°C", "L/min"
  double scale, offset;
};
constexpr UnitInfo kUnitTable[] = {
#define DCTWIN_UNIT_ROW(id, si, what, display, scale, offset) \
  {Unit::id, si, what, display, scale, offset},
    DCTWIN_UNITS(DCTWIN_UNIT_ROW)
#undef DCTWIN_UNIT_ROW
};
constexpr const UnitInfo& unitInfo(Unit u) {
  return kUnitTable[int(u)];
}
// a value in SI as people see it (unitInfo(u).display)
constexpr double toDisplay(Unit u, double si) {
  return si * unitInfo(u).scale + unitInfo(u).offset;
}
// CF 1.11's units_metadata for a temperature ("temperature: on_scale" or "temperature:
// difference"); nullptr for any other quantity
const char* unitsMetadata(Unit u);
// the table as markdown (docs/results.md, between its "outputs --table units" markers)
std::string unitsMarkdown();

// X(id, path, unit (a Unit), basis, shape, needs, rate, description, how computed)
#define DCTWIN_OBSERVABLES(X)                                                                      \
  X(Time, "/time", s, Instant, Facility, Always, Output, "simulation time of each row",            \
    "the output time")                                                                             \
  X(RackTSupply, "/rack/T_supply", K, Instant, Rack, Always, Output,                               \
    "coolant temperature at the rack inlet", "last segment of the CDU's supply header")            \
  X(RackTReturn, "/rack/T_return", K, Instant, Rack, Always, Output,                               \
    "coolant temperature at the rack outlet", "the rack coolant node (state)")                     \
  X(RackTCase, "/rack/T_case", K, Instant, Rack, Always, Output,                                   \
    "cold-plate case temperature (rack mean plate) of a heat-load rack; NaN for racks with "       \
    "resolved GPUs (their plates: /gpu/T_junction, /rack/gpu_T_junction_max)",                     \
    "the rack case node (state)")                                                                  \
  X(RackVFlow, "/rack/V_flow", m3_s, Instant, Rack, Always, Output,                                \
    "coolant volume flow through the rack",                                                        \
    "rack mass flow / reference density of the CDU's fluid")                                       \
  X(RackDp, "/rack/dp", Pa, Instant, Rack, Always, Output,                                         \
    "pressure drop across the rack branch (valve + manifold)", "hydraulic operating point")        \
  X(RackQLiquid, "/rack/Q_liquid", W, WindowMean, Rack, Always, Output,                            \
    "heat from the rack into the coolant",                                                         \
    "resolved GPUs: the GPU layer's window-mean heat; heat-load racks: liquid share of the load")  \
  X(RackQAir, "/rack/Q_air", W, WindowMean, Rack, Always, Output,                                  \
    "heat from the rack into the room air", "rack power - heat into the coolant")                  \
  X(RackP, "/rack/P", W, WindowMean, Rack, Always, Output, "rack electrical power",                \
    "resolved GPUs: GPUs + other parts, coupling-window mean; heat-load racks: the load profile")  \
  X(CduTSecSupply, "/cdu/T_sec_supply", K, Instant, Cdu, Always, Output,                           \
    "secondary (TCS) supply temperature", "plate-HX secondary outlet node (state)")                \
  X(CduTSecReturn, "/cdu/T_sec_return", K, Instant, Cdu, Always, Output,                           \
    "secondary (TCS) return temperature at the CDU", "last segment of the return header")          \
  X(CduTPrimSupply, "/cdu/T_prim_supply", K, Instant, Cdu, Always, Output,                         \
    "facility-water supply temperature", "the facility-water boundary at the output time")         \
  X(CduTPrimReturn, "/cdu/T_prim_return", K, Instant, Cdu, Always, Output,                         \
    "facility-water return temperature", "plate-HX primary outlet node (state)")                   \
  X(CduVFlowSec, "/cdu/V_flow_sec", m3_s, Instant, Cdu, Always, Output, "secondary volume flow",   \
    "secondary mass flow / reference density")                                                     \
  X(CduVFlowPrim, "/cdu/V_flow_prim", m3_s, Instant, Cdu, Always, Output,                          \
    "primary (facility-water) volume flow",                                                        \
    "primary mass flow / facility-water reference density")                                        \
  X(CduPumpSpeed, "/cdu/pump_speed", one, Instant, Cdu, Always, Output,                            \
    "pump speed ratio N/N_rated", "pump speed state")                                              \
  X(CduPPump, "/cdu/P_pump", W, Instant, Cdu, Always, Output, "pump electrical power",             \
    "pump curve, efficiency and motor/drive losses at the operating point")                        \
  X(CduValvePosition, "/cdu/valve_position", one, Instant, Cdu, Always, Output,                    \
    "primary control valve position", "valve position state (0 closed, 1 open)")                   \
  X(CduQHex, "/cdu/Q_hex", W, Instant, Cdu, Always, Output,                                        \
    "heat through the plate heat exchanger, secondary to primary",                                 \
    "eps-NTU at the node temperatures")                                                            \
  X(CduDpBank, "/cdu/dp_bank", Pa, Instant, Cdu, Always, Output,                                   \
    "differential pressure across the rack bank", "hydraulic operating point")                     \
  X(CduPTank, "/cdu/p_tank", Pa, Instant, Cdu, Always, Output,                                     \
    "expansion-tank (pump suction) gauge pressure; vacuum loops: negative",                        \
    "tank gas cushion after the coolant lost (docs/models/leak.md)")                               \
  X(CduCoolantLost, "/cdu/coolant_lost", m3, Cumulative, Cdu, Always, Output,                      \
    "coolant lost through leaks, cumulative", "integral of the leak flows (state + make-up)")      \
  X(CduMakeup, "/cdu/makeup_volume", m3, Cumulative, Cdu, Always, Output,                          \
    "coolant made up from the fill tank, cumulative",                                              \
    "fill pump flow times its running time (docs/models/protection.md)")                           \
  X(CduAirVolume, "/cdu/air_volume", m3, Instant, Cdu, Always, Output,                             \
    "air in the loop (drained tank, air in-leak)", "air volume state")                             \
  X(CduTankLevel, "/cdu/tank_level", one, Instant, Cdu, Always, Output,                            \
    "liquid share of the expansion tank", "tank volume - coolant lost, over the tank volume")      \
  /* datasheet outputs */                                                                          \
  X(CduValveCommand, "/cdu/valve_command", one, Instant, Cdu, Always, Output,                      \
    "primary valve command (the temperature PI's output)",                                         \
    "PI output, limited (docs/models/controller.md)")                                              \
  X(CduPumpSpeedCommand, "/cdu/pump_speed_command", one, Instant, Cdu, Always, Output,             \
    "pump speed command (the flow or dp PI's output)", "PI output, limited")                       \
  X(CduPumpHead, "/cdu/pump_head", Pa, Instant, Cdu, Always, Output,                               \
    "pump head (pressure rise across the pump bank)", "hydraulic operating point")                 \
  X(CduHexDpPrimary, "/cdu/hex_dp_primary", Pa, Instant, Cdu, Always, Output,                      \
    "heat-exchanger pressure drop, facility-water side", "rated dp (m_prim / m_rated)^2")          \
  X(CduHexDpSecondary, "/cdu/hex_dp_secondary", Pa, Instant, Cdu, Always, Output,                  \
    "heat-exchanger pressure drop, secondary side", "rated dp law at the secondary flow")          \
  X(CduFilterDp, "/cdu/filter_dp", Pa, Instant, Cdu, Always, Output,                               \
    "strainer/filter pressure drop (0: no filter)",                                                \
    "k m^2 through the rated point, clogging events (docs/models/filter.md)")                      \
  X(CduTempPiIntegral, "/cdu/temperature_pi_integral", K_s, Instant, Cdu, Always, Output,          \
    "supply-temperature PI integrator state", "the integrator state x (u = k (e + x / Ti))")       \
  X(CduPumpPiIntegral, "/cdu/pump_pi_integral", s, Instant, Cdu, Always, Output,                   \
    "pump PI integrator state (relative error times time)",                                        \
    "the integrator state x (u = k (e + x / Ti))")                                                 \
  /* air-cooled racks */                                                                           \
  X(AirRackP, "/air_rack/P", W, Instant, AirRack, AirRacks, Output,                                \
    "IT power of the air-cooled rack (heat into the room air)", "the heat_load profile")           \
  X(AirRackPFan, "/air_rack/P_fan", W, Instant, AirRack, AirRacks, Output,                         \
    "fan electrical power (heat into the room air)",                                               \
    "fan laws: P_rated N^3 (docs/models/air_rack.md)")                                             \
  X(AirRackVAir, "/air_rack/V_air", m3_s, Instant, AirRack, AirRacks, Output,                      \
    "airflow through the rack", "fan laws: N V_rated")                                             \
  X(AirRackFanSpeed, "/air_rack/fan_speed", one, Instant, AirRack, AirRacks, Output,               \
    "fan speed ratio", "delta_t or pressure control, within [min_speed, 1]")                       \
  X(AirRackTIn, "/air_rack/T_in", K, Instant, AirRack, AirRacks, Output, "air inlet temperature",  \
    "the room-air node, else the site ambient")                                                    \
  X(AirRackTOut, "/air_rack/T_out", K, Instant, AirRack, AirRacks, Output,                         \
    "air outlet temperature", "T_in + (P + P_fan) / (rho c_p V_air)")                              \
  X(AirRackPowered, "/air_rack/powered", one, Instant, AirRack, AirRacks, Output,                  \
    "1 while the air-cooled rack has power; 0 once its feed is lost (latched)",                    \
    "busway breaker, UPS drop, utility loss (docs/models/air_rack.md)")                            \
  X(EnergyAirRacks, "/energy/air_racks", J, Cumulative, Facility, AirRacks, Output,                \
    "cumulative IT + fan energy of the air-cooled racks (with or without a power chain)",          \
    "BDF integral with the states")                                                                \
  /* scale-out switch racks (docs/models/switch_rack.md) */                                        \
  X(SwitchRackP, "/switch_rack/P", W, Instant, SwitchRack, SwitchRacks, Output,                    \
    "electrical power of the switch rack (IT load): switches' ASIC, base and optics",              \
    "N_up (P_asic + P_base) + N_up cages_used P_port")                                             \
  X(SwitchRackPOptics, "/switch_rack/P_optics", W, Instant, SwitchRack, SwitchRacks, Output,       \
    "of it, the optics (pluggable transceivers or co-packaged optics)", "N_up cages_used P_port")  \
  X(SwitchRackQLiquid, "/switch_rack/Q_liquid", W, Instant, SwitchRack, SwitchRacks, Output,       \
    "heat into its CDU loop (liquid cooling: the ASIC and co-packaged optics on cold plates)",     \
    "liquid_fraction (N_up P_asic [+ P_optics if cpo])")                                           \
  X(SwitchRackQAir, "/switch_rack/Q_air", W, Instant, SwitchRack, SwitchRacks, Output,             \
    "heat into the room air", "P - Q_liquid")                                                      \
  X(SwitchRackUp, "/switch_rack/switches_up", one, Instant, SwitchRack, SwitchRacks, Output,       \
    "switches running (a failed switch draws nothing)", "switches - failed (scenario fabric)")     \
  X(FacilityPFabric, "/facility/P_fabric", W, Instant, Facility, SwitchRacks, Output,              \
    "scale-out fabric power: all switch racks", "sum of /switch_rack/P")                           \
  X(FacilityPFabricOptics, "/facility/P_fabric_optics", W, Instant, Facility, SwitchRacks, Output, \
    "of it, the switches' optics", "sum of /switch_rack/P_optics")                                 \
  X(RackIsolation, "/rack/isolation", one, Instant, Rack, Always, Output,                          \
    "isolation valves closing fraction (0 open, 1 shut); leak response",                           \
    "linear stroke from the isolation command")                                                    \
  X(RackLeakFlow, "/rack/leak_flow", m3_s, Instant, Rack, Always, Output,                          \
    "liquid leaving the rack through leaks", "sum of the rack's orifice flows")                    \
  X(EnergyHeatIn, "/energy/heat_in", J, Cumulative, Facility, Always, Output,                      \
    "cumulative heat into the coolant (racks + pumps)", "BDF integral with the states")            \
  X(EnergyHeatToFacilityWater, "/energy/heat_to_facility_water", J, Cumulative, Facility, Always,  \
    Output, "cumulative heat to the facility water", "BDF integral with the states")               \
  X(EnergyHeatLossAmbient, "/energy/heat_loss_ambient", J, Cumulative, Facility, Always, Output,   \
    "cumulative heat lost from piping to ambient", "BDF integral with the states")                 \
  X(EnergyStored, "/energy/stored", J, Cumulative, Facility, Always, Output,                       \
    "change of energy held in coolant and cold plates", "node enthalpies now - at t = 0")          \
  X(EnergyBalanceError, "/energy/balance_error", J, Cumulative, Facility, Always, Output,          \
    "heat_in - heat_to_facility_water - heat_loss_ambient - stored", "the balance's residual")     \
  X(FacilityPIT, "/facility/P_IT", W, WindowMean, Facility, Always, Output,                        \
    "IT power: sum of rack power (DC, as the racks draw it; PUE's IT power is /facility/P_IT_in)"  \
    " + air-cooled racks' IT and fan power + switch racks' power",                                 \
    "sum of /rack/P + /air_rack/P + /air_rack/P_fan + /switch_rack/P")                             \
  X(GpuTJunction, "/gpu/T_junction", K, IntervalMax, Gpu, Gpus, Output,                            \
    "GPU junction temperature, maximum over the output interval", "max over the fast steps")       \
  X(GpuTHbm, "/gpu/T_hbm", K, IntervalMax, Gpu, Gpus, Output,                                      \
    "HBM temperature, maximum over the output interval", "max over the fast steps")                \
  X(GpuP, "/gpu/P", W, IntervalMean, Gpu, Gpus, Output,                                            \
    "GPU board power, mean over the output interval", "energy over the interval / its length")     \
  X(GpuClockRatio, "/gpu/clock_ratio", one, Instant, Gpu, Gpus, Output,                            \
    "SM clock / boost clock at the output time", "DVFS operating point of the last fast step")     \
  X(GpuThrottleReasons, "/gpu/throttle_reasons", one, Instant, Gpu, Gpus, Output,                  \
    "NVML clocks_event_reasons bitmask at the output time (0x1 idle, 0x4 SW power cap, 0x8 HW "    \
    "slowdown, 0x20 SW thermal, 0x40 HW thermal, 0x80 HW power brake)",                            \
    "operating point of the last fast step, stored as float64")                                    \
  X(GpuUtilizationSm, "/gpu/utilization_sm", one, Instant, Gpu, Gpus, Output,                      \
    "SM activity at the output time", "the job phase of the last fast step")                       \
  X(GpuUtilizationHbm, "/gpu/utilization_hbm", one, Instant, Gpu, Gpus, Output,                    \
    "HBM bandwidth utilization at the output time", "the job phase of the last fast step")         \
  X(GpuUtilizationNvlink, "/gpu/utilization_nvlink", one, Instant, Gpu, Gpus, Output,              \
    "NVLink utilization at the output time", "the job phase of the last fast step")                \
  X(GpuVFlow, "/gpu/V_flow", m3_s, Instant, Gpu, Gpus, Output,                                     \
    "coolant volume flow through the GPU's cold plate: its share of the rack's flow (tray "        \
    "position on the rack manifolds, plates in series) (docs/models/flow_distribution.md)",        \
    "rack mass flow x gpu_flow_share / reference density of the CDU's fluid")                      \
  X(GpuTInlet, "/gpu/T_inlet", K, Instant, Gpu, Gpus, Output,                                      \
    "coolant temperature at the GPU's plate inlet over the current coupling window (rack inlet "   \
    "plus the heat of the plates upstream in series)",                                             \
    "set at the window start (docs/models/flow_distribution.md)")                                  \
  X(EnergyGpuElectric, "/energy/gpu_electric", J, Cumulative, Facility, Gpus, Output,              \
    "cumulative electrical energy into the resolved GPUs", "sum over the fast steps")              \
  X(EnergyGpuToCoolant, "/energy/gpu_to_coolant", J, Cumulative, Facility, Gpus, Output,           \
    "cumulative heat from the GPU cold plates into the coolant", "sum over the fast steps")        \
  X(EnergyGpuStored, "/energy/gpu_stored", J, Cumulative, Facility, Gpus, Output,                  \
    "change of the energy held in GPU die, HBM and plate nodes", "node energies now - at t = 0")   \
  X(JobIterationTime, "/job/iteration_time", s, RunMean, Job, Jobs, Output,                        \
    "mean iteration time so far", "time of the completed iterations / their number (training)")    \
  X(JobLastIterationTime, "/job/last_iteration_time", s, Instant, Job, Jobs, Output,               \
    "time of the last completed iteration", "barrier to barrier (training)")                       \
  X(JobThroughputRatio, "/job/throughput_ratio", one, RunMean, Job, Jobs, Output,                  \
    "cumulative: reference iteration time / mean time of the iterations completed since the job "  \
    "started (reference: the same job without thermal limits); a stall counts once its "           \
    "iteration completes (current: /job/throughput_ratio_interval)",                               \
    "training jobs; NaN otherwise")                                                                \
  X(JobThroughputRatioInterval, "/job/throughput_ratio_interval", one, IntervalMean, Job, Jobs,    \
    Output,                                                                                        \
    "current: reference iteration time / mean time of the iterations completed in the output "     \
    "interval (NaN: none completed)",                                                              \
    "training jobs; NaN otherwise")                                                                \
  X(JobThrottledGpuSeconds, "/job/throttled_gpu_seconds", s, Cumulative, Job, Jobs, Output,        \
    "cumulative GPU-seconds with thermal or power-brake throttling", "sum over the fast steps")    \
  X(JobPowerCappedGpuSeconds, "/job/power_capped_gpu_seconds", s, Cumulative, Job, Jobs, Output,   \
    "cumulative GPU-seconds with the clock held down by the power cap (reason 0x4)",               \
    "sum over the fast steps")                                                                     \
  X(JobIterations, "/job/iterations", one, Cumulative, Job, Jobs, Output, "completed iterations",  \
    "count of barriers passed")                                                                    \
  X(RoomTAir, "/room/T_air", K, Instant, Facility, Room, Output,                                   \
    "room air temperature (mixed room-air node)", "room-air node (state)")                         \
  X(RoomAirHandlerSpeed, "/room/air_handler_speed", one, Instant, Facility, AirHandlers, Output,   \
    "air handlers' fan speed ratio (docs/models/air_handler.md)",                                  \
    "PI on the room air temperature (state), within [min_speed, 1]")                               \
  X(RoomTSupplyAir, "/room/T_supply_air", K, Instant, Facility, AirHandlers, Output,               \
    "air leaving the air handlers' coils", "T_room - eps (T_room - T_chw)")                        \
  X(RoomQCoil, "/room/Q_coil", W, Instant, Facility, AirHandlers, Output,                          \
    "heat the air handlers' coils take from the room air (coil duty)",                             \
    "rho c_p V eps (T_room - T_chw)")                                                              \
  X(RoomPAirHandlerFans, "/room/P_fans", W, Instant, Facility, AirHandlers, Output,                \
    "air handlers' fan electrical power (its heat is in the room air)", "n P_rated y^3")           \
  X(RoomPAirHandlerChiller, "/room/P_chiller", W, Instant, Facility, AirHandlers, Output,          \
    "electrical power of the chiller that makes the air handlers' chilled water",                  \
    "EIR curves at the coil duty, condenser on the facility-water supply")                         \
  X(RoomQToWater, "/room/Q_to_water", W, Instant, Facility, AirHandlers, Output,                   \
    "heat the air side hands to the facility water: coil duty + chiller power",                    \
    "with a plant, it joins the return the plant rejects")                                         \
  X(EnergyAirHandlerFans, "/energy/air_handler_fans", J, Cumulative, Facility, AirHandlers,        \
    Output, "cumulative air-handler fan electrical energy (in PUE)",                               \
    "BDF integral with the states")                                                                \
  X(EnergyAirHandlerChiller, "/energy/air_handler_chiller", J, Cumulative, Facility, AirHandlers,  \
    Output, "cumulative electrical energy of the air handlers' chilled-water chiller (in PUE)",    \
    "BDF integral with the states")                                                                \
  X(EnergyAirIn, "/energy/air_in", J, Cumulative, Facility, Room, Output,                          \
    "cumulative rack air-side heat into the room air", "BDF integral with the states")             \
  X(EnergyAirRemoved, "/energy/air_removed", J, Cumulative, Facility, Room, Output,                \
    "cumulative heat removed by the air handlers (their coils, or the fixed supply)",              \
    "BDF integral with the states")                                                                \
  X(EnergyAirStored, "/energy/air_stored", J, Cumulative, Facility, Room, Output,                  \
    "change of the energy held in the room air", "node energy now - at t = 0")                     \
  X(BuswayI, "/busway/I", A, Instant, Busway, Power, Output, "line current",                       \
    "power chain at the last fast step")                                                           \
  X(BuswayLoadRatio, "/busway/load_ratio", one, Instant, Busway, Power, Output,                    \
    "line current / rated current", "power chain at the last fast step")                           \
  X(BuswayTConductor, "/busway/T_conductor", K, Instant, Busway, Power, Output,                    \
    "conductor temperature", "busway thermal node")                                                \
  X(BuswayPLoss, "/busway/P_loss", W, IntervalMean, Busway, Power, Output,                         \
    "I^2 R(T) loss (to the hall air), mean over the output interval",                              \
    "loss energy over the interval / its length")                                                  \
  X(BuswayBreakerState, "/busway/breaker_state", one, Instant, Busway, Power, Output,              \
    "feeder breaker: 0 closed, 1 tripped", "breaker latch")                                        \
  X(RackPIn, "/rack/P_in", W, IntervalMean, Rack, Power, Output,                                   \
    "AC input power of the rack's power shelves, mean over the output interval",                   \
    "energy over the interval / its length (t = 0: the instant)")                                  \
  X(RackPPsuLoss, "/rack/P_psu_loss", W, IntervalMean, Rack, Power, Output,                        \
    "conversion loss of the rack's power shelves, mean over the output interval",                  \
    "shelf efficiency curve at the load; energy over the interval / its length")                   \
  X(UpsP, "/ups/P", W, IntervalMean, Facility, Power, Output,                                      \
    "UPS output power, mean over the output interval", "all modules together")                     \
  X(UpsPIn, "/ups/P_in", W, IntervalMean, Facility, Power, Output,                                 \
    "UPS input power, mean over the output interval", "all modules together")                      \
  X(UpsSoc, "/ups/SOC", one, Instant, Facility, Power, Output, "battery state of charge",          \
    "stored energy / capacity")                                                                    \
  X(UpsPLoss, "/ups/P_loss", W, IntervalMean, Facility, Power, Output,                             \
    "UPS conversion, standby and charging loss, mean over the output interval",                    \
    "all modules together")                                                                        \
  X(SiteBatteryP, "/site_battery/P", W, IntervalMean, Facility, Power, Output,                     \
    "power the site battery gives the site's bus (> 0 discharging, < 0 charging), mean over the "  \
    "output interval; 0 without a site battery",                                                   \
    "energy over the interval / its length (docs/models/grid.md \"Mitigations\")")                 \
  X(SiteBatterySoc, "/site_battery/SOC", one, Instant, Facility, Power, Output,                    \
    "site battery state of charge; 0 without a site battery", "stored energy / capacity")          \
  X(FacilityPTotal, "/facility/P_total", W, IntervalMean, Facility, Power, Output,                 \
    "utility power (IT + power-chain losses + CDU pumps + air handlers), mean over the output "    \
    "interval",                                                                                    \
    "utility energy + CDU pump and air-handler energy over the interval / its length")             \
  X(FacilityPTotalNow, "/facility/P_total_now", W, Instant, Facility, Power, Output,               \
    "utility power (IT + power-chain losses + CDU pumps + air handlers) at the output time",       \
    "utility feed at the last fast step + CDU pumps + air handlers")                               \
  X(FacilityPITIn, "/facility/P_IT_in", W, IntervalMean, Facility, Power, Output,                  \
    "IT power as PUE counts it: AC input of the racks' power shelves, mean over the output "       \
    "interval",                                                                                    \
    "sum of /rack/P_in + /air_rack/P + /air_rack/P_fan + /switch_rack/P (no power shelf of "       \
    "their own)")                                                                                  \
  X(FacilityPCooling, "/facility/P_cooling", W, IntervalMean, Facility, Power, Output,             \
    "cooling power besides a plant: CDU pumps and the air handlers' fans and chiller, mean over "  \
    "the output interval",                                                                         \
    "CDU pump and air-handler energy over the interval / its length")                              \
  X(FacilityPUE, "/facility/PUE", one, IntervalMean, Facility, Power, Output,                      \
    "(P_total + energy drawn from the stores) / P_IT_in over the output interval (energy ratio)",  \
    "NaN without IT power")                                                                        \
  X(FacilityPUEExadigit, "/facility/PUE_exadigit", one, IntervalMean, Facility, Power, Output,     \
    "(IT heat + CDU pumps + plant) / IT heat over the output interval, as ExaDigiT/RAPS defines "  \
    "it",                                                                                          \
    "models/electrical, from the interval means")                                                  \
  X(EnergyUtility, "/energy/utility", J, Cumulative, Facility, Power, Output,                      \
    "cumulative utility energy", "sum over the fast steps")                                        \
  X(EnergyIt, "/energy/it", J, Cumulative, Facility, Power, Output,                                \
    "cumulative DC energy delivered to the racks (+ air-cooled racks' IT and fan energy)",         \
    "sum over the fast steps")                                                                     \
  X(EnergyPowerChainLoss, "/energy/power_chain_loss", J, Cumulative, Facility, Power, Output,      \
    "cumulative shelf + busway + UPS + transformer (+ site battery) losses",                       \
    "sum of the stages below")                                                                     \
  X(EnergyPsuLoss, "/energy/psu_loss", J, Cumulative, Facility, Power, Output,                     \
    "cumulative conversion loss of the rack power shelves", "sum over the fast steps")             \
  X(EnergyBuswayLoss, "/energy/busway_loss", J, Cumulative, Facility, Power, Output,               \
    "cumulative busway I^2 R loss", "sum over the fast steps")                                     \
  X(EnergyUpsLoss, "/energy/ups_loss", J, Cumulative, Facility, Power, Output,                     \
    "cumulative UPS loss", "sum over the fast steps")                                              \
  X(EnergyTransformerLoss, "/energy/transformer_loss", J, Cumulative, Facility, Power, Output,     \
    "cumulative transformer loss", "sum over the fast steps")                                      \
  X(EnergySiteBatteryLoss, "/energy/site_battery_loss", J, Cumulative, Facility, Power, Output,    \
    "cumulative conversion loss of the site battery (0 without one)",                              \
    "sum over the fast steps of its charge and discharge losses")                                  \
  X(EnergyStorageDrawn, "/energy/storage_drawn", J, Cumulative, Facility, Power, Output,           \
    "cumulative net energy drawn from the UPS batteries, rack stores and the site battery "        \
    "(recharge counts "                                                                            \
    "negative); PUE credits it",                                                                   \
    "stored energy at t = 0 less now, summed over the fast steps")                                 \
  X(EnergyPumpElectric, "/energy/pump_electric", J, Cumulative, Facility, Always, Output,          \
    "cumulative CDU pump electrical energy", "BDF integral with the states")                       \
  X(FacilityQFacilityWater, "/facility/Q_facility_water", W, Instant, Facility, Always, Output,    \
    "heat carried away by the facility water, all CDUs", "primary-side heat of the plate HXs")     \
  X(RackPowered, "/rack/powered", one, Instant, Rack, Always, Output,                              \
    "1 while the rack has power, 0 when a breaker, shelf, UPS or a leak response cut it",          \
    "power chain and electrical isolation")                                                        \
  X(RackGpuTJunctionMax, "/rack/gpu_T_junction_max", K, IntervalMax, Rack, Gpus, Output,           \
    "hottest GPU junction of the rack over the output interval (NaN: no resolved GPUs)",           \
    "max of /gpu/T_junction over the rack's GPUs")                                                 \
  X(RackGpuTHbmMax, "/rack/gpu_T_hbm_max", K, IntervalMax, Rack, Gpus, Output,                     \
    "hottest HBM of the rack over the output interval (NaN: no resolved GPUs)",                    \
    "max of /gpu/T_hbm over the rack's GPUs")                                                      \
  X(RackGpuClockMean, "/rack/gpu_clock_mean", one, Instant, Rack, Gpus, Output,                    \
    "mean SM clock ratio of the rack's GPUs at the output time (NaN: no resolved GPUs)",           \
    "mean of /gpu/clock_ratio over the rack's GPUs")                                               \
  X(RackGpuThrottledShare, "/rack/gpu_throttled_share", one, IntervalMean, Rack, Gpus, Output,     \
    "fraction of the rack's GPU-time in the output interval with a thermal or power-brake "        \
    "throttle reason (0x20 | 0x40 | 0x80)",                                                        \
    "GPU-seconds with the reason over the fast steps / (GPUs x interval)")                         \
  X(RackThrottlePowerCap, "/rack/throttle_power_cap", one, IntervalMean, Rack, Gpus, Output,       \
    "fraction of the rack's GPU-time in the output interval with the clock held down by the "      \
    "power cap (SW power cap, 0x4)",                                                               \
    "GPU-seconds with the reason over the fast steps / (GPUs x interval)")                         \
  X(RackThrottleThermal, "/rack/throttle_thermal", one, IntervalMean, Rack, Gpus, Output,          \
    "fraction of the rack's GPU-time in the output interval with thermal throttling (SW or HW "    \
    "thermal, 0x20 | 0x40)",                                                                       \
    "GPU-seconds with the reason over the fast steps / (GPUs x interval)")                         \
  X(RackThrottlePowerBrake, "/rack/throttle_power_brake", one, IntervalMean, Rack, Gpus, Output,   \
    "fraction of the rack's GPU-time in the output interval with the HW power brake (0x80)",       \
    "GPU-seconds with the reason over the fast steps / (GPUs x interval)")                         \
  X(RackThrottleHwSlowdown, "/rack/throttle_hw_slowdown", one, IntervalMean, Rack, Gpus, Output,   \
    "fraction of the rack's GPU-time in the output interval with HW slowdown (0x8)",               \
    "GPU-seconds with the reason over the fast steps / (GPUs x interval)")                         \
  X(FacilityGpusShutDown, "/facility/gpus_shut_down", one, Instant, Facility, Gpus, Output,        \
    "GPUs shut down by their thermal protection", "count of shut-down latches")                    \
  X(FacilityGpuSecondsThrottled, "/facility/gpu_seconds_throttled", s, Cumulative, Facility, Gpus, \
    Output, "GPU-seconds with thermal or power-brake throttling, all GPUs",                        \
    "sum over the fast steps")                                                                     \
  X(FacilityGpuSecondsPowerCapped, "/facility/gpu_seconds_power_capped", s, Cumulative, Facility,  \
    Gpus, Output, "GPU-seconds with the clock held down by the power cap, all GPUs",               \
    "sum over the fast steps")                                                                     \
  X(RackGpuTJunctionMin, "/rack/gpu_T_junction_min", K, IntervalMax, Rack, Gpus, Output,           \
    "coolest GPU junction of the rack (each GPU's maximum over the output interval; NaN: no "      \
    "resolved GPUs)",                                                                              \
    "min of /gpu/T_junction over the rack's GPUs")                                                 \
  X(RackGpuTJunctionMean, "/rack/gpu_T_junction_mean", K, IntervalMax, Rack, Gpus, Output,         \
    "mean GPU junction of the rack (each GPU's maximum over the output interval)",                 \
    "mean of /gpu/T_junction over the rack's GPUs")                                                \
  X(RackGpuTJunctionP99, "/rack/gpu_T_junction_p99", K, IntervalMax, Rack, Gpus, Output,           \
    "99th percentile of the rack's GPU junctions (each GPU's maximum over the output interval)",   \
    "linear-interpolated percentile of /gpu/T_junction over the rack's GPUs")                      \
  X(RackGpuTHbmMin, "/rack/gpu_T_hbm_min", K, IntervalMax, Rack, Gpus, Output,                     \
    "coolest HBM of the rack (each GPU's maximum over the output interval)",                       \
    "min of /gpu/T_hbm over the rack's GPUs")                                                      \
  X(RackGpuTHbmMean, "/rack/gpu_T_hbm_mean", K, IntervalMax, Rack, Gpus, Output,                   \
    "mean HBM temperature of the rack (each GPU's maximum over the output interval)",              \
    "mean of /gpu/T_hbm over the rack's GPUs")                                                     \
  X(RackGpuTHbmP99, "/rack/gpu_T_hbm_p99", K, IntervalMax, Rack, Gpus, Output,                     \
    "99th percentile of the rack's HBM temperatures (each GPU's maximum over the output "          \
    "interval)",                                                                                   \
    "linear-interpolated percentile of /gpu/T_hbm over the rack's GPUs")                           \
  X(RackGpuClockMin, "/rack/gpu_clock_min", one, Instant, Rack, Gpus, Output,                      \
    "slowest SM clock ratio of the rack's GPUs at the output time",                                \
    "min of /gpu/clock_ratio over the rack's GPUs")                                                \
  X(RackGpuClockMax, "/rack/gpu_clock_max", one, Instant, Rack, Gpus, Output,                      \
    "fastest SM clock ratio of the rack's GPUs at the output time",                                \
    "max of /gpu/clock_ratio over the rack's GPUs")                                                \
  X(RackGpuClockP99, "/rack/gpu_clock_p99", one, Instant, Rack, Gpus, Output,                      \
    "99th percentile of the rack's SM clock ratios at the output time",                            \
    "linear-interpolated percentile of /gpu/clock_ratio over the rack's GPUs")                     \
  X(FacilityGpuTJunctionSpread, "/facility/gpu_T_junction_spread", dK, IntervalMax, Facility,      \
    Gpus, Output,                                                                                  \
    "GPU-to-GPU junction spread: max - min of /gpu/T_junction over every resolved GPU",            \
    "docs/models/gpu_variation.md")                                                                \
  X(FacilityGpuTJunctionP99, "/facility/gpu_T_junction_p99", K, IntervalMax, Facility, Gpus,       \
    Output, "99th percentile of /gpu/T_junction over every resolved GPU",                          \
    "linear-interpolated percentile")                                                              \
  X(FacilityGpuPSpread, "/facility/gpu_P_spread", W, IntervalMean, Facility, Gpus, Output,         \
    "GPU-to-GPU power spread: max - min of /gpu/P over every resolved GPU",                        \
    "docs/models/gpu_variation.md")                                                                \
  X(FacilityGpuClockSpread, "/facility/gpu_clock_spread", one, Instant, Facility, Gpus, Output,    \
    "GPU-to-GPU spread of the clock reached at the power cap for the same work: max - min of "     \
    "/gpu/clock_ratio over the GPUs held by their cap (0x4) and nothing else, in the training "    \
    "phase most of them are in at the output time",                                                \
    "NaN when no GPU is at its cap")                                                               \
  X(GpuWaitTime, "/gpu/wait_time", s, Cumulative, Gpu, Gpus, Output,                               \
    "time the GPU spent waiting at its training job's barriers for slower GPUs",                   \
    "sum over the fast steps; 0 without a training job")                                           \
  X(GpuLostTime, "/gpu/lost_time", s, Cumulative, Gpu, Gpus, Output,                               \
    "time the GPU's own phases ran slower than the reference (its bottleneck map's thermal, "      \
    "power cap, power brake, smoothing, clock_other, hbm_throttle and fabric_degraded)",           \
    "sum of those categories of its training job's per-GPU map (docs/models/job.md); 0 without "   \
    "a training job")                                                                              \
  X(GpuCausedWait, "/gpu/caused_wait", s, Cumulative, Gpu, Gpus, Output,                           \
    "barrier wait the GPU caused as its job's straggler: GPU-seconds of the job's others at the "  \
    "barriers it released, per GPU of the job (summed over the job's GPUs: its mean barrier "      \
    "wait)",                                                                                       \
    "the job's per-GPU attribution (docs/models/job.md), a group's share split evenly over its "   \
    "GPUs; 0 without a training job")                                                              \
  X(RackGpuWaitMean, "/rack/gpu_wait_mean", s, Cumulative, Rack, Gpus, Output,                     \
    "mean over the rack's GPUs of /gpu/wait_time (waiting at barriers for slower GPUs)",           \
    "NaN for a rack without resolved GPUs")                                                        \
  X(RackGpuLostMean, "/rack/gpu_lost_mean", s, Cumulative, Rack, Gpus, Output,                     \
    "mean over the rack's GPUs of /gpu/lost_time (their own phases slowed: thermal, power cap, "   \
    "...)",                                                                                        \
    "NaN for a rack without resolved GPUs")                                                        \
  X(RackCausedWait, "/rack/caused_wait", s, Cumulative, Rack, Gpus, Output,                        \
    "barrier wait the rack's GPUs caused as stragglers: sum over them of /gpu/caused_wait",        \
    "NaN for a rack without resolved GPUs")                                                        \
  X(GpuThrottledTime, "/gpu/throttled_time", s, Cumulative, Gpu, Gpus, Output,                     \
    "time the GPU spent thermally or power-brake throttled (0x20 | 0x40 | 0x80)",                  \
    "sum over the fast steps")                                                                     \
  X(GpuHotCause, "/gpu/hot_cause", one, Instant, Gpu, Gpus, Output,                                \
    "what most raises the GPU's junction above the facility's typical GPU: 0 inlet, 1 flow or "    \
    "plate, 2 silicon (power), 3 TIM or seating",                                                  \
    "largest of the four terms of docs/models/gpu_variation.md (Hot-GPU cause) at the last fast "  \
    "step")                                                                                        \
  X(JobReferenceIterationTime, "/job/reference_iteration_time", s, Instant, Job, Jobs, Output,     \
    "iteration time of the job without thermal limits", "training jobs; NaN otherwise")            \
  X(JobStalledTime, "/job/stalled_time", s, Cumulative, Job, Jobs, Output,                         \
    "time the live GPUs waited at a barrier on a GPU that is off", "sum over the fast steps")      \
  X(JobProgressRatio, "/job/progress_ratio", one, RunMean, Job, Jobs, Output,                      \
    "cumulative progress: work done / work possible = iterations x reference iteration time / "    \
    "time since the job started (stalls and throttling count)",                                    \
    "training jobs; 0 before the start")                                                           \
  X(JobProgressRatioInterval, "/job/progress_ratio_interval", one, IntervalMean, Job, Jobs,        \
    Output,                                                                                        \
    "current progress: iterations completed in the output interval x reference iteration time / "  \
    "the interval (quantized by whole iterations; 0 during a stall)",                              \
    "training jobs; NaN otherwise and before the job's start")                                     \
  X(PlantTSupply, "/plant/T_supply", K, Instant, Facility, Plant, Output,                          \
    "facility-water supply temperature the plant delivers (held over the plant step)",             \
    "rejection outlet, chillers' trim (docs/models/plant.md)")                                     \
  X(PlantTReturn, "/plant/T_return", K, Instant, Facility, Plant, Output,                          \
    "mixed facility-water return of the CDUs at the last plant step", "flow-weighted")             \
  X(PlantTSetpoint, "/plant/T_setpoint", K, Instant, Facility, Plant, Output,                      \
    "facility-water supply set point after the reset", "plant controls")                           \
  X(PlantMode, "/plant/mode", one, Instant, Facility, Plant, Output,                               \
    "0 free cooling, 1 partial mechanical, 2 full mechanical", "plant controls")                   \
  X(PlantChillersOn, "/plant/chillers_on", one, Instant, Facility, Plant, Output,                  \
    "chillers running", "staging with dead band and minimum run time")                             \
  X(PlantFanSpeed, "/plant/fan_speed", one, Instant, Facility, Plant, Output,                      \
    "dry-cooler or tower fan speed (duty-weighted below the minimum)", "on the set point")         \
  X(PlantPPumps, "/plant/P_pumps", W, Instant, Facility, Plant, Output,                            \
    "primary (facility-water) pump power", "pump curve at the dp set point")                       \
  X(PlantPFans, "/plant/P_fans", W, Instant, Facility, Plant, Output,                              \
    "dry-cooler or cooling-tower fan power", "fan law P_nom y^3")                                  \
  X(PlantPChillers, "/plant/P_chillers", W, Instant, Facility, Plant, Output,                      \
    "chiller compressor power", "EIR curves")                                                      \
  X(PlantPCondenserFans, "/plant/P_condenser_fans", W, Instant, Facility, Plant, Output,           \
    "fans rejecting the chillers' condenser heat", "condenser_fan_ratio x condenser heat")         \
  X(PlantQRejected, "/plant/Q_rejected", W, Instant, Facility, Plant, Output,                      \
    "heat the plant rejects to the outdoor air", "economizer + condensers")                        \
  X(PlantWaterRate, "/plant/water_rate", kg_s, Instant, Facility, Plant, Output,                   \
    "site water use: evaporation + drift + blowdown", "towers or adiabatic pads")                  \
  X(WeatherTDryBulb, "/weather/T_dry_bulb", K, Instant, Facility, Plant, Output,                   \
    "outdoor dry bulb at the plant", "weather, linear between hours")                              \
  X(WeatherTWetBulb, "/weather/T_wet_bulb", K, Instant, Facility, Plant, Output,                   \
    "outdoor thermodynamic wet bulb", "ASHRAE psychrometrics")                                     \
  X(EnergyPlantPumps, "/energy/plant_pumps", J, Cumulative, Facility, Plant, Output,               \
    "cumulative primary pump energy", "held power x plant step")                                   \
  X(EnergyPlantFans, "/energy/plant_fans", J, Cumulative, Facility, Plant, Output,                 \
    "cumulative dry-cooler or tower fan energy", "held power x plant step")                        \
  X(EnergyPlantChillers, "/energy/plant_chillers", J, Cumulative, Facility, Plant, Output,         \
    "cumulative chiller energy", "held power x plant step")                                        \
  X(EnergyPlantCondenserFans, "/energy/plant_condenser_fans", J, Cumulative, Facility, Plant,      \
    Output, "cumulative condenser fan energy", "held power x plant step")                          \
  X(EnergyFacility, "/energy/facility", J, Cumulative, Facility, Plant, Output,                    \
    "cumulative facility energy E_DC: IT + power-chain losses + CDU pumps + air handlers + "       \
    "plant",                                                                                       \
    "The Green Grid's PUE numerator")                                                              \
  X(EnergyItPue, "/energy/it_pue", J, Cumulative, Facility, Plant, Output,                         \
    "cumulative IT energy as PUE counts it (racks' AC input; rack power without a power chain; "   \
    "+ air-cooled racks' IT and fan energy)",                                                      \
    "held power x plant step")                                                                     \
  X(WaterSite, "/water/site", kg, Cumulative, Facility, Plant, Output,                             \
    "cumulative site water: evaporation + drift + blowdown", "held rates x plant step")            \
  X(WaterEvaporation, "/water/evaporation", kg, Cumulative, Facility, Plant, Output,               \
    "cumulative evaporation (towers, pads)", "held rates x plant step")                            \
  X(PlantPUE, "/plant/PUE", one, RunMean, Facility, Plant, Output,                                 \
    "PUE from t = 0 (energy ratio, The Green Grid): /energy/facility / /energy/it_pue",            \
    "NaN without IT energy")                                                                       \
  X(PlantPPUECooling, "/plant/pPUE_cooling", one, RunMean, Facility, Plant, Output,                \
    "partial PUE of the cooling from t = 0: (IT + CDU pumps + air handlers + plant) / IT",         \
    "energy ratio")                                                                                \
  X(PlantWUE, "/plant/WUE", L_kWh, RunMean, Facility, Plant, Output,                               \
    "site WUE from t = 0: site water (L) / IT energy (kWh)", "water at 1 kg/L")                    \
  X(PlantCost, "/plant/cost", one, Cumulative, Facility, Plant, Output,                            \
    "cumulative electricity cost of E_DC in the tariff's currency", "price by hour x energy")      \
  X(PlantCO2, "/plant/CO2", kg, Cumulative, Facility, Plant, Output, "cumulative CO2 of E_DC",     \
    "grid_co2 x energy")                                                                           \
  X(PlantTimeFree, "/plant/time_free", s, Cumulative, Facility, Plant, Output,                     \
    "time in free cooling", "plant steps in mode 0")                                               \
  X(PlantTimePartial, "/plant/time_partial", s, Cumulative, Facility, Plant, Output,               \
    "time in partial mechanical cooling", "plant steps in mode 1")                                 \
  X(PlantTimeMechanical, "/plant/time_mechanical", s, Cumulative, Facility, Plant, Output,         \
    "time in full mechanical cooling", "plant steps in mode 2")                                    \
  X(CalendarMonth, "/calendar/month", one, Instant, Facility, Plant, Output,                       \
    "calendar month (1 January ... 12 December) the output interval ending at this time lies in "  \
    "(365-day weather year; monthly totals: docs/results.md)",                                     \
    "month of plant.weather start + t - 1 ms")                                                     \
  X(JobTimeCompute, "/job/time/compute", s, Cumulative, Job, Jobs, Output,                         \
    "bottleneck map: Compute phases at the reference clock's pace",                                \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeMemory, "/job/time/memory", s, Cumulative, Job, Jobs, Output,                           \
    "bottleneck map: memory-bound phases at the reference HBM bandwidth's pace",                   \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeCommNvlink, "/job/time/comm_nvlink", s, Cumulative, Job, Jobs, Output,                  \
    "bottleneck map: exposed collectives on the NVLink domain at full bandwidth",                  \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeCommNetwork, "/job/time/comm_network", s, Cumulative, Job, Jobs, Output,                \
    "bottleneck map: exposed collectives on the scale-out network at full bandwidth",              \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeCommOther, "/job/time/comm_other", s, Cumulative, Job, Jobs, Output,                    \
    "bottleneck map: communication phases with no fabric level (given phase times)",               \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeHostMemory, "/job/time/host_memory", s, Cumulative, Job, Jobs, Output,                  \
    "bottleneck map: exposed transfers to and from host memory (offload, data loading)",           \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeBubble, "/job/time/bubble", s, Cumulative, Job, Jobs, Output,                           \
    "bottleneck map: idle phases (pipeline bubble)",                                               \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeCheckpoint, "/job/time/checkpoint", s, Cumulative, Job, Jobs, Output,                   \
    "bottleneck map: writing checkpoints (blocking part)",                                         \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeBarrierWait, "/job/time/barrier_wait", s, Cumulative, Job, Jobs, Output,                \
    "bottleneck map: waiting at barriers for slower GPUs (stragglers)",                            \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeThermal, "/job/time/thermal", s, Cumulative, Job, Jobs, Output,                         \
    "bottleneck map: compute stretched by thermal throttling",                                     \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimePowerCap, "/job/time/power_cap", s, Cumulative, Job, Jobs, Output,                      \
    "bottleneck map: compute stretched by the power cap",                                          \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimePowerBrake, "/job/time/power_brake", s, Cumulative, Job, Jobs, Output,                  \
    "bottleneck map: compute stretched by the power brake",                                        \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeSmoothing, "/job/time/smoothing", s, Cumulative, Job, Jobs, Output,                     \
    "bottleneck map: compute stretched by power-smoothing ramp limits",                            \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeClockOther, "/job/time/clock_other", s, Cumulative, Job, Jobs, Output,                  \
    "bottleneck map: compute stretched by a lower clock with no throttle reason",                  \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeHbmThrottle, "/job/time/hbm_throttle", s, Cumulative, Job, Jobs, Output,                \
    "bottleneck map: memory phases stretched by HBM throttling",                                   \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeFabricDegraded, "/job/time/fabric_degraded", s, Cumulative, Job, Jobs, Output,          \
    "bottleneck map: collectives stretched by degraded links or lost switch trays",                \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeStalled, "/job/time/stalled", s, Cumulative, Job, Jobs, Output,                         \
    "bottleneck map: no progress: a GPU of the job is down and the job waits for it",              \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeRestart, "/job/time/restart", s, Cumulative, Job, Jobs, Output,                         \
    "bottleneck map: restarting after a failure", "mean over the job's GPUs (docs/models/job.md)") \
  X(JobTimeLostWork, "/job/time/lost_work", s, Cumulative, Job, Jobs, Output,                      \
    "bottleneck map: work since the last checkpoint, lost at failures",                            \
    "mean over the job's GPUs (docs/models/job.md)")                                               \
  X(JobTimeExcluded, "/job/time/excluded", s, Cumulative, Job, Jobs, Output,                       \
    "bottleneck map: idle, excluded with a straggler's data-parallel replica (straggler policy "   \
    "exclude)",                                                                                    \
    "mean over the job's GPUs (docs/models/failures.md)")                                          \
  X(JobWaitThermal, "/job/wait/thermal", s, Cumulative, Job, Jobs, Output,                         \
    "barrier wait attributed to the straggler's thermal throttling",                               \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitPowerCap, "/job/wait/power_cap", s, Cumulative, Job, Jobs, Output,                      \
    "barrier wait attributed to the straggler's the power cap",                                    \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitPowerBrake, "/job/wait/power_brake", s, Cumulative, Job, Jobs, Output,                  \
    "barrier wait attributed to the straggler's the power brake",                                  \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitSmoothing, "/job/wait/smoothing", s, Cumulative, Job, Jobs, Output,                     \
    "barrier wait attributed to the straggler's power-smoothing ramps",                            \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitClockOther, "/job/wait/clock_other", s, Cumulative, Job, Jobs, Output,                  \
    "barrier wait attributed to the straggler's a lower clock with no throttle reason",            \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitHbmThrottle, "/job/wait/hbm_throttle", s, Cumulative, Job, Jobs, Output,                \
    "barrier wait attributed to the straggler's HBM throttling",                                   \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitFabricDegraded, "/job/wait/fabric_degraded", s, Cumulative, Job, Jobs, Output,          \
    "barrier wait attributed to the straggler's a degraded link or lost switch tray",              \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobWaitImbalance, "/job/wait/imbalance", s, Cumulative, Job, Jobs, Output,                     \
    "barrier wait behind a straggler with no loss of its own (imbalance: more work, faster "       \
    "others)",                                                                                     \
    "mean over the job's GPUs: each release splits the waits by the slowest GPU's losses since "   \
    "the previous one (any job size; a job of more than 2^20 GPU groups: NaN) "                    \
    "(docs/models/job.md)")                                                                        \
  X(JobStragglerGpu, "/job/straggler/gpu", one, Instant, Job, Jobs, Output,                        \
    "the GPU whose slowness made the others wait longest (facility GPU index; first GPU of its "   \
    "group)",                                                                                      \
    "largest caused wait; -1: none, or not kept (a job of more than 2^20 GPU groups)")             \
  X(JobStragglerWait, "/job/straggler/wait", s, Cumulative, Job, Jobs, Output,                     \
    "the wait that GPU caused: GPU-seconds of the others at barriers it released, per job GPU",    \
    "mean per GPU; NaN for a job of more than 2^20 GPU groups "                                    \
    "(docs/models/job.md)")                                                                        \
  X(JobGoodput, "/job/goodput", one, RunMean, Job, Jobs, Output,                                   \
    "useful work / possible work: iterations kept (lost ones excluded) x the reference work of "   \
    "an "                                                                                          \
    "iteration (no checkpoints) / time since the job started",                                     \
    "training jobs; 0 before the start")                                                           \
  X(JobFailures, "/job/failures", one, Cumulative, Job, Jobs, Output,                              \
    "failures that restarted the job from its last checkpoint", "count (on_failure: restart)")     \
  X(JobMtbf, "/job/mtbf", s, Instant, Job, Jobs, Output,                                           \
    "the job's expected mean time between failures: 1 / (its GPUs x the failure process's rate "   \
    "per GPU, every class)",                                                                       \
    "training jobs with a scenario's failures: section (docs/models/failures.md); NaN otherwise")  \
  X(JobCheckpointIntervalOptimal, "/job/checkpoint_interval_optimal", s, Instant, Job, Jobs,       \
    Output,                                                                                        \
    "the checkpoint interval that loses the least time at /job/mtbf and the job's blocking "       \
    "checkpoint time: Daly's higher-order optimum [F40]",                                          \
    "training jobs with checkpoints and a scenario's failures: section; NaN otherwise")            \
  /* the step model's throughput achieved in the run (nominal in /job/model) */                    \
  X(JobTokensPerSecond, "/job/tokens_per_second", per_s, RunMean, Job, Jobs, Output,               \
    "tokens per second achieved so far, whole job: the step model's tokens per iteration / "       \
    "/job/iteration_time",                                                                         \
    "described training jobs (docs/models/job.md); NaN otherwise and before the first iteration")  \
  X(JobMfu, "/job/mfu", one, RunMean, Job, Jobs, Output,                                           \
    "model FLOPs utilisation achieved so far: the step model's FLOPs per iteration ((6 N + 12 L "  \
    "h s) T, PaLM's) / (/job/iteration_time x the job's GPUs x dense BF16 peak)",                  \
    "described training jobs (docs/models/job.md); NaN otherwise and before the first iteration")  \
  X(PowerTime, "/power/time", s, Instant, Facility, Gpus, Fast, "time of each fast power row",     \
    "the GPU step")                                                                                \
  X(PowerPIT, "/power/P_IT", W, Instant, Facility, Gpus, Fast,                                     \
    "IT power at the GPU step (sub-second swings)",                                                \
    "sum of /power/rack_P + air-cooled racks' IT and fan power + switch racks' power")             \
  X(PowerRackP, "/power/rack_P", W, Instant, Rack, Gpus, Fast, "rack power at the GPU step",       \
    "resolved racks: power at the last fast step; heat-load racks: the load profile (0 when "      \
    "powered off)")                                                                                \
  X(PowerPUtility, "/power/P_utility", W, Instant, Facility, GpusPower, Fast,                      \
    "the site's active power at the meter (point of interconnection) at the GPU step: the "        \
    "utility feed through every stage of the chain (GPU smoothing and floors, rack storage, "      \
    "shelves, busways, UPS, transformer) + CDU pumps + air handlers + the plant's pumps, fans "    \
    "and "                                                                                         \
    "chillers",                                                                                    \
    "the power chain's utility feed at the last fast step + the CDU pumps at the solver's last "   \
    "state + the plant's motors at its last (slow) step; its sum x the step is /energy/utility "   \
    "+ /energy/pump_electric (+ the plant's energies) (docs/models/grid.md)")

// one identifier per row, in table order
enum class Obs : int {
#define DCTWIN_OBS_ENUM(id, ...) id,
  DCTWIN_OBSERVABLES(DCTWIN_OBS_ENUM)
#undef DCTWIN_OBS_ENUM
      Count
};
constexpr int kObservableCount = int(Obs::Count);

struct ObservableInfo {
  Obs id;
  const char* path;  // results-file path, "/rack/T_supply"
  const char* unit;  // SI: "K", "m3/s", "W", "1", ... (unitInfo(quantity).si)
  Unit quantity;     // what it measures and how people see it (DCTWIN_UNITS)
  Basis basis;
  Shape shape;
  Needs needs;
  Rate rate;
  const char* description;  // one line, the HDF5 `description` attribute
  const char* computed;     // how it is computed, in words
};

// every row, in table order (index = int(Obs))
std::span<const ObservableInfo> observableTable();
const ObservableInfo& observable(Obs id);
// a series' value as people see it and its display unit (its quantity's row of DCTWIN_UNITS):
// degC for an absolute temperature, K for a difference, kW, L/min, kPa, ...
inline double shown(Obs id, double si) {
  return toDisplay(observable(id).quantity, si);
}
inline const char* shownUnit(Obs id) {
  return unitInfo(observable(id).quantity).display;
}
inline const char* obsPath(Obs id) {
  return observable(id).path;
}  // "/rack/T_supply"
const ObservableInfo* findObservable(const std::string& path);  // nullptr when unknown
const char* basisName(Basis b);  // "instant", "window mean", "interval mean", ...
const char* shapeName(Shape s);  // "facility", "CDU", "rack", "GPU", "job", "busway", "air rack"
const char* needsName(Needs n);  // "", "resolved GPUs", "jobs", "power section", "room air"
// the table as markdown (docs/results.md, between its "observables" markers)
std::string observablesMarkdown();
// the table as CSV (path,unit,basis,shape,exists_with,rate,description,computed)
std::string observablesCsv();

// The described training jobs' step model (models/job_model.h, docs/models/job.md): what it gives
// for each job, once, at the reference clocks (nominal). One value per job, NaN for a job that is
// not described. The results file's /job/model/<name> datasets (basis "nominal"), RunLayout's
// job_model, the CLI summary, the report, the GUI's Jobs view and the sweep's /cases read this
// table; what the run achieves is in /job/iteration_time, /job/tokens_per_second and /job/mfu.
// X(id, name, unit, description)
#define DCTWIN_JOB_MODEL(X)                                                                      \
  X(StepTime, "step_time", "s",                                                                  \
    "nominal step time: one iteration at the reference clocks, no checkpoint")                   \
  X(TokensPerSecond, "tokens_per_second", "1/s",                                                 \
    "nominal tokens per second, whole job: tokens per iteration / step_time")                    \
  X(Mfu, "mfu", "1",                                                                             \
    "nominal model FLOPs utilisation: flops / (step_time x the job's GPUs x dense BF16 peak)")   \
  X(Flops, "flops", "FLOP",                                                                      \
    "model FLOPs per iteration, all GPUs: (6 N + 12 L h s) T, N the active parameters that "     \
    "multiply, 12 L h s non-causal attention (PaLM's convention, docs/models/job.md)")           \
  X(Parameters, "parameters", "1", "parameters of the architecture")                             \
  X(ActiveParameters, "active_parameters", "1",                                                  \
    "parameters active per token (MoE: top-k experts)")                                          \
  X(MemoryPerGpu, "memory_per_gpu", "B",                                                         \
    "memory per GPU of the most loaded pipeline stage: weights + gradients + optimizer state + " \
    "activations")                                                                               \
  X(MemoryWeights, "memory_weights", "B", "of it, the weights")                                  \
  X(MemoryGradients, "memory_gradients", "B", "of it, the gradients")                            \
  X(MemoryOptimizer, "memory_optimizer", "B",                                                    \
    "of it, the optimizer state (offloaded to host memory: not in memory_per_gpu)")              \
  X(MemoryActivations, "memory_activations", "B",                                                \
    "of it, the activations kept under the recompute mode")                                      \
  X(HbmCapacity, "hbm_capacity", "B", "HBM capacity of the job's GPU type")                      \
  X(MicroBatches, "micro_batches", "1", "micro-batches per iteration in each pipeline")          \
  X(DataParallel, "dp", "1", "data-parallel replicas")                                           \
  X(Recompute, "recompute", "1",                                                                 \
    "activation recompute, given or chosen where not given: 0 none, 1 selective, 2 full "        \
    "(/job/model/recompute_name)")

enum class JobCol : int {
#define DCTWIN_JOB_COL_ENUM(id, ...) id,
  DCTWIN_JOB_MODEL(DCTWIN_JOB_COL_ENUM)
#undef DCTWIN_JOB_COL_ENUM
      Count
};
constexpr int kJobModelCount = int(JobCol::Count);

struct JobModelInfo {
  JobCol id;
  const char* name;  // "step_time": the dataset /job/model/step_time
  const char* unit;
  const char* description;
};
std::span<const JobModelInfo> jobModelTable();
const JobModelInfo& jobModelColumn(JobCol c);
// "/job/model/step_time"
std::string jobModelPath(JobCol c);
// the recompute code of the table: "none", "selective", "full"; "" for NaN (not described)
const char* jobRecomputeName(double code);
// the table as markdown (docs/results.md, between its "outputs --table jobs" markers)
std::string jobModelMarkdown();

// the static description of a run that fronts need (names, indices, limits) without seeing the
// compiled model; filled by describeRun (solver/run/run.h) or from a results file
struct RunLayout {
  std::string name, facility_text, scenario_text;
  SolverSettings solver;  // the run's tolerances and steps (provenance, docs/results.md)
  int ncdu = 0, nrack = 0, nstate = 0, ngpu = 0, njob = 0, nbusway = 0, nleak = 0;
  int ngroup = 0;   // GPU groups computed (docs/performance.md)
  int threads = 1;  // the run's worker threads (the results files compress on them too)
  int nair = 0;     // air-cooled racks
  std::vector<std::string> air_name;
  std::vector<std::string> air_row;  // their hall row and position in it (floor plans)
  std::vector<int> air_index;
  int nsw = 0;  // switch racks
  std::vector<std::string> sw_name;
  bool has_power = false, has_room = false;
  bool has_air_handlers = false;  // site.room_air.air_handlers (docs/models/air_handler.md)
  GridParams grid;                // the utility's limits at the meter and how its metrics are taken
  bool has_plant = false;         // a plant: section
  bool plant_towers = false;      // its heat rejection: cooling towers (else dry coolers)
  std::string currency;           // the plant tariff's
  double year_start = 0;  // t = 0 in the calendar year: the plant's weather start, else 0 (s)
  // the calendar's time zone: the weather's local standard time, seconds east of UTC; NaN where
  // not known (no plant, or weather without one)
  double utc_offset = std::numeric_limits<double>::quiet_NaN();
  bool annual = false;  // the multi-rate annual mode (docs/models/annual.md)
  double duration = 0;  // the simulated time the run asks for; 0: not known (s)
  std::vector<std::string> cdu_name, rack_name, rack_row, rack_type, job_name, busway_name;
  std::vector<std::string> rack_hall;  // the hall of each rack on a campus; "" = the one hall
  std::vector<int> rack_index, rack_cdu, rack_busway;  // rack_busway: -1 without a power section
  std::vector<char> rack_resolved;                     // 1: resolved GPUs, 0: heat_load profile
  std::vector<int> rack_gpuadr, rack_gpunum, rack_tray_gpus;
  std::vector<double> rack_design_flow;  // (m3/s)
  std::vector<int> gpu_rack, gpu_slot, gpu_tray, gpu_job;
  std::vector<std::string> gpu_type;
  std::vector<double> gpu_T_hbm_max, gpu_T_slowdown;  // limits of each GPU's type (K)
  std::vector<int> job_kind;                          // 0 training, 1 inference, 2 trace replay
  std::vector<int> job_gpus;                          // GPUs in each job
  // the step model of each job (DCTWIN_JOB_MODEL): njob x kJobModelCount, row-major; NaN for a
  // job that is not described
  std::vector<double> job_model;
  double jobModel(int job, JobCol c) const;  // NaN when absent
  bool jobDescribed(int job) const;          // a described training job (its step time is known)
  // number of columns of each shape (0 for a facility scalar, as in the results file)
  std::size_t width(Shape s) const;
  bool has(Needs n) const;
};

// the run layout's static datasets (docs/results.md "Static datasets"): one row each, which the
// HDF5 writer, the results reader, the GUI's run data, Python's layout and the docs read
// X(id, path, dimension (its length), when present, the RunLayout member holding the values,
//   description: the dataset's attribute and the docs' text)
// A member of type std::vector<std::string> is a string dataset, std::vector<int> an int64 one
// (units "1"). The order is the writer's.
#define DCTWIN_LAYOUT(X)                                                                          \
  X(RackNames, "/rack/names", Rack, Always, rack_name, "rack names, column labels of /rack/*")    \
  X(RackRow, "/rack/row", Rack, Always, rack_row, "hall row of each rack")                        \
  X(RackHall, "/rack/hall", Rack, Halls, rack_hall, "hall (building) of each rack on a campus")   \
  X(RackIndex, "/rack/index", Rack, Always, rack_index, "position of each rack in its row")       \
  X(RackCdu, "/rack/cdu", Rack, Always, rack_cdu,                                                 \
    "index into /cdu/names of the CDU feeding each rack")                                         \
  X(RackType, "/rack/type", Rack, Always, rack_type, "rack type of each rack")                    \
  X(CduNames, "/cdu/names", Cdu, Always, cdu_name, "CDU names, column labels of /cdu/*")          \
  X(GpuRack, "/gpu/rack", Gpu, Gpus, gpu_rack, "index into /rack/names of each GPU's rack")       \
  X(GpuTray, "/gpu/tray", Gpu, Gpus, gpu_tray,                                                    \
    "compute tray of each GPU within its rack (0-based)")                                         \
  X(GpuSlot, "/gpu/slot", Gpu, Gpus, gpu_slot, "GPU slot within its rack (0-based)")              \
  X(GpuJob, "/gpu/job", Gpu, Gpus, gpu_job, "index into /job/names of each GPU's job (-1: none)") \
  X(GpuType, "/gpu/type", Gpu, Gpus, gpu_type, "GPU model of each GPU (data/catalog/gpus)")       \
  X(JobNames, "/job/names", Job, Jobs, job_name, "job names, column labels of /job/*")            \
  X(AirRackNames, "/air_rack/names", AirRack, AirRacks, air_name,                                 \
    "air-cooled rack names, column labels of /air_rack/*")                                        \
  X(AirRackRow, "/air_rack/row", AirRack, AirRacks, air_row, "hall row of each air-cooled rack")  \
  X(AirRackIndex, "/air_rack/index", AirRack, AirRacks, air_index,                                \
    "position of each air-cooled rack in its row")                                                \
  X(SwitchRackNames, "/switch_rack/names", SwitchRack, SwitchRacks, sw_name,                      \
    "switch rack names, column labels of /switch_rack/*")                                         \
  X(BuswayNames, "/busway/names", Busway, Power, busway_name,                                     \
    "busway names, column labels of /busway/*")                                                   \
  X(RackBusway, "/rack/busway", Rack, Power, rack_busway,                                         \
    "index into /busway/names of the busway feeding each rack")

enum class Layout {
#define DCTWIN_LAYOUT_ID(id, path, dim, needs, member, desc) id,
  DCTWIN_LAYOUT(DCTWIN_LAYOUT_ID)
#undef DCTWIN_LAYOUT_ID
};
struct LayoutInfo {
  Layout id;
  const char* path;  // "/rack/names"
  Shape dim;         // its length: the racks, CDUs, GPUs, ...
  Needs needs;       // when the file has it
  // the values: one of the two is set (strings: a string dataset; ints: int64, units "1")
  std::vector<std::string> RunLayout::*strings;
  std::vector<int> RunLayout::*ints;
  const char* description;
};
std::span<const LayoutInfo> layoutTable();
const LayoutInfo& layoutRow(Layout id);
const char* layoutPath(Layout id);
const LayoutInfo* findLayout(const std::string& path);  // nullptr: not a static dataset
// the dataset that labels the columns of a shape's series ("/rack/names"), or nullptr (the
// facility's one column; the GPUs, labelled by /gpu/rack and /gpu/slot)
const LayoutInfo* layoutNames(Shape s);
// whether a run of this layout writes the dataset
bool layoutPresent(const LayoutInfo& row, const RunLayout& L);
// the table as markdown (docs/results.md, between its "outputs --table layout" markers)
std::string layoutMarkdown();

// where each observable sits in an OutputFrame; built once per run from the layout
struct FrameLayout {
  std::vector<int> offset;  // per Obs; -1 when the series does not exist in this run
  std::vector<int> width;   // per Obs: values per row (1 for a facility scalar)
  std::size_t size = 0;     // values per output row
  std::size_t fast_size = 0;
  static FrameLayout make(const RunLayout& L);
  bool has(Obs id) const { return offset[int(id)] >= 0; }
};

// one row: every existing observable's values, in SI
struct OutputFrame {
  double t = 0;
  const FrameLayout* layout = nullptr;
  std::vector<double> values;
  const std::vector<EventRecord>* events = nullptr;  // the event log so far (output rows)
  const SolverStats* stats = nullptr;                // solver statistics so far (output rows)
  double wall_seconds = 0;                           // wall time of the run so far (s)
  bool has(Obs id) const { return layout->has(id); }
  std::span<const double> get(Obs id) const {
    const int o = layout->offset[int(id)];
    return o < 0 ? std::span<const double>()
                 : std::span<const double>(values.data() + o, std::size_t(layout->width[int(id)]));
  }
  double scalar(Obs id) const {
    auto s = get(id);
    return s.empty() ? 0.0 : s[0];
  }
};

}  // namespace dctwin
