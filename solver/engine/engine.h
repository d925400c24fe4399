// engine.h: the engine's entry points on a compiled model and a run's state: the right-hand side,
// the GPU layer, the power chain, faults and detectors (solver/engine/*.cpp)
#pragma once

#include "solver/compile/model.h"
#include "solver/engine/state.h"

namespace dctwin {

// a state sized for the model, initialized to a cold start: every fluid node and case at
// T_init (K), valves and pumps at their initial positions, PI integrators bumpless
State makeState(const FacilityModel& m, double T_init);

// CDU c's last n_before running pumps stop at t: they coast down (FaultState::coast_t0)
void startCoastDown(const FacilityModel& m, State& st, int c, double t, int n_before);
// the facility's feed: the utility, or the standby generator the transfer switch put on
bool facilityFed(const State& st);
// the UPS's input is in its window: fed (utility or generator) and no disturbance sent it to
// battery (docs/models/ride_through.md)
bool upsInputOk(const State& st);
// the drives of the CDU pumps (plant: the plant's) tripped in a disturbance: off the UPS (or no
// UPS) and tripped
bool drivesTripped(const FacilityModel& m, const State& st, bool plant);
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
// failures as a seeded process (solver/engine/failure_process.cpp, docs/models/failures.md): the
// first failure of each class drawn from t0; the failures and repairs due by t applied (between
// the GPU layer's windows); the time of the next one (inf: none); a training job's expected mean
// time between failures from the rates (s; NaN without the process)
void initFailureProcess(const FacilityModel& m, State& st, double t0);
void stepFailureProcess(const FacilityModel& m, State& st, double t);
double nextFailureEvent(const FacilityModel& m, const State& st);
double jobMeanTimeBetweenFailures(const FacilityModel& m, int j);
// straggler detection and its policy (the same file and page), between the GPU layer's windows
void stepStragglers(const FacilityModel& m, State& st, double t);
// the end (plus 1 ms) of the checkpoint a job with an action waiting for it is writing now: a stop
// of the GPU layer's window, so that the action follows the checkpoint (inf: none)
double nextStragglerStop(const FacilityModel& m, const State& st, double t);
// the strainers' dp switches (solver/engine/filter_switch.cpp): polled by pollDetectors
void pollFilterSwitch(const FacilityModel& m, State& st, double t);

// protection layers (solver/engine/protection.cpp, docs/models/protection.md): CDU temperature
// warnings, emergency power-off on loss of flow, rack inlet cap and shutdown, coolant limit,
// pressure; polled by pollDetectors
void pollProtection(const FacilityModel& m, State& st, double t, const double* y);
// the flow a CDU's alarms compare with: its flow set point, or its racks' design flow (m3/s)
double cduFlowSetPoint(const FacilityModel& m, int c);
// saturation temperature of water at absolute pressure p_abs (Pa) (K)
double waterSaturationTemperature(double p_abs);
// the protective GPU cap of rack r as a share of the GPUs' limit (1: none)
double rackGpuCapFactor(const State& st, int r);
// entries per rack in FaultState::part_R_factor: the largest part set
int partStride(const FacilityModel& m);
// make-up from CDU c's fill tank at time t: the fill pump's flow into the loop (m3/s) and the
// volume it has delivered (m3); 0 without auto-fill
double fillFlow(const FacilityModel& m, const State& st, int c, double t);
double fillDelivered(const FacilityModel& m, const State& st, int c, double t);

// right-hand side dy/dt at (t, y); fills st.sig. Returns 0, or > 0 for a recoverable problem
// (a property lookup outside its range), as SUNDIALS expects. Never allocates.
int evalRhs(const FacilityModel& m, State& st, double t, const double* y, double* ydot);

// energy held in the model at y relative to y0 (J)
double storedEnergy(const FacilityModel& m, const double* y, const double* y0);

// GPU layer (solver/engine/gpu_layer.cpp)
// sizes st.gl and puts every GPU node at T_init; called by makeState
void initGpuLayer(const FacilityModel& m, State& st, double T_init);
// the power chain for one fast step of length dt with the racks' DC power at its end
// (solver/engine/power_layer.cpp)
void initPowerLayer(const FacilityModel& m, State& st);
// rack r's shelves and breakers (touches only rack r's slots: racks may run in parallel)
void powerRackStep(const FacilityModel& m, State& st, int r, double t, double dt);
// busways, UPS, transformer and the sums over the racks (after every powerRackStep)
void powerFeedStep(const FacilityModel& m, State& st, double t, double dt);
// air-cooled racks and their feed (solver/engine/air_rack_feed.cpp): whether air rack
// k is powered; its IT power (*P_it) and fans' operating point at t (zero when not powered); its
// IT + fan draw; the feed's latches before the busway sums and after a UPS drop; a cut's reason
bool airRackPowered(const FacilityModel& m, const State& st, int k);
FanPoint airRackPoint(const FacilityModel& m, const State& st, int k, double t, double* P_it);
double airRackDraw(const FacilityModel& m, const State& st, int k, double t);
void airRackFeedStep(const FacilityModel& m, State& st);
void airRackUpsDropped(const FacilityModel& m, State& st);
const char* airRackCutReason(AirRackCut c);
// advance the GPUs and jobs from t0 to t1 in steps of m.gpu_dt, with the rack inlet temperatures
// and flows of the coolant state y; leaves the window means in
// st.gl.rack_Q_liquid/rack_P/rack_Q_air for evalRhs. `fast` (may be null) is called after every
// fast step with t and st.
using FastCallback = void (*)(void* user, const FacilityModel& m, const State& st, double t);
// `pool` (may be null) runs the racks in parallel chunks; the results do not depend on it
void advanceGpuLayer(const FacilityModel& m, State& st, const double* y, double t0, double t1,
                     FastCallback fast = nullptr, void* user = nullptr, WorkerPool* pool = nullptr);
// the plant (solver/engine/plant_layer.cpp): its state at the facility water's initial supply
void initPlantLayer(const FacilityModel& m, State& st);
// a plant step at t with the coolant state y (st.sig evaluated at t): sums the energies, water,
// cost and CO2 since the last step, then steps the plant; true when its outputs to the coolant
// (supply temperature, dp at the CDUs) changed, so the integrator restarts
bool plantLayerStep(const FacilityModel& m, State& st, double t, const double* y);
// the facility water's supply temperature and dp at CDU c at time t (plant or boundary)
double fwsSupplyTemperature(const FacilityModel& m, const State& st, double t);

// energy held in the GPU nodes relative to T_ref (J)
double gpuLayerEnergy(const FacilityModel& m, const State& st, double T_ref);
// copies the group computation into the per-GPU arrays of st.gl (gpu, op, util, P_sum, ...)
void syncGpuView(const FacilityModel& m, State& st);
// starts a new output interval: P_sum = 0, Tj_max/Thbm_max = the current temperatures
void resetGpuInterval(const FacilityModel& m, State& st);

}  // namespace dctwin
