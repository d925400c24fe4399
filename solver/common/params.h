// params.h: parameter types shared by the facility spec (solver/input) and the compiled model
// (solver/compile): the compiled model includes this header, never the spec's.
#pragma once

#include <string>
#include <vector>

#include "models/electrical.h"

namespace dctwin {

// where a value came from, for error messages
struct SourceLoc {
  std::string file;
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based
  std::string path;  // key path, e.g. "cdus[0].pumps.count"
};

// a scalar input over time (heat load, facility-water temperature)
struct TimeSeries {
  enum class Kind { Constant, Steps, Linear };
  Kind kind = Kind::Constant;
  std::vector<double> t;  // knot times, increasing                          (s)
  std::vector<double> v;  // values at the knots, SI                         (SI)
  double eval(double time) const;
  // times at which the series has a kink or jump, for the integrator to stop at
  void breakpoints(std::vector<double>& out) const;
};

// the power chain: utility -> transformer -> UPS -> busways per row -> shelf breakers -> rack
// power shelves (docs/models/power_chain.md); every rack of a facility with a power section hangs
// on exactly one busway
struct PowerChainParams {
  bool present = false;
  double V_LL = 415;  // line-to-line voltage of the busways            (V)
  double pf = 0.95;   // load power factor                              (1)
  bool has_transformer = false;
  TransformerParams transformer;
  bool has_ups = false;
  UpsParams ups;
  // identical units in parallel, sharing the load equally (a hall's transformers and UPS modules
  // are lumped this way: each carries 1/count of the load; losses and battery scale with count)
  int transformer_count = 1;
  int ups_count = 1;
  ShelfParams shelf;  // rack power shelf
  int shelves_per_rack = 0;
  bool has_shelf_breaker = false;
  BreakerParams shelf_breaker;  // the breaker of each shelf's AC feed
  struct Busway {
    std::string name;
    BuswayParams params;
    bool has_breaker = false;
    BreakerParams breaker;  // the feeder breaker of the busway
    std::vector<std::string> racks;
    SourceLoc loc;
  };
  std::vector<Busway> busways;
};

// a fault or operating event (docs/scenario-format.md "Faults")
enum class FaultKind {
  PumpFailure,        // `value` pumps of CDU `target` fail; standby pumps take over
  CduFailure,         // every pump of CDU `target` stops, no switch-over
  ValveStuck,         // CDU `target`'s facility-water valve sticks at opening `value`
  FacilityWaterFlow,  // facility-water flow to every CDU at fraction `value` (0: plant trip)
  Utility,            // utility feed lost (value 0) or restored (1): the UPS carries the load
  PsuFailure,         // `value` PSUs of rack `target` fail
  Leak,               // an orifice opens at `location` of rack or CDU `target`
  FilterClogging,  // CDU `target`'s strainer: dp at design flow rises to `value` over growth_time
  SensorFault,     // CDU `target`'s `sensor` reads `value` off, or sticks (stuck)
  PowerCap,        // job `target`'s GPUs get the power limit `value`
  Setpoint,        // CDU `target`'s `setpoint` changes to `value` (issue 19)
  Fabric           // a fabric fault of rack `target` (FabricFault; docs/models/fabric.md)
};

// what a fabric event does (scenario `fabric:`)
enum class FabricFault {
  LinkDegraded,       // NIC `nic` of GPU `gpu`: its link at bandwidth fraction `value`
  LinkDown,           // NIC `nic` of GPU `gpu` down (its other NICs carry on, or the job fails)
  LinkRestored,       // NIC `nic` of GPU `gpu` back at full bandwidth
  NvlinkTrayLost,     // NVLink switch tray `tray` of the rack lost
  NvlinkTrayRestored  // ... back
};

// where a leak opens
enum class LeakSite { Rack, Cdu, SupplyHeader, ReturnHeader };
// which CDU sensor a sensor fault affects
enum class SensorKind { SupplyTemperature, Flow };
// which CDU set point a set-point event changes
enum class SetpointKind { SupplyTemperature, Dp, Flow };

// detection and response policies (docs/scenario-format.md "detection"); defaults (a) unless noted
struct DetectionParams {
  double poll_interval = 1.0;           // sensors polled (openBMC leak manager: 1 s [K86]) (s)
  double pump_switchover = 5.0;         // failed pump -> standby running                   (s)
  double low_flow_fraction = 0.5;       // CDU flow below this share of the racks' design  (1)
  double low_flow_delay = 10.0;         // ... for this long raises the low-flow alarm      (s)
  double continuous_load_ratio = 0.8;   // busway current / rating: the 80 % rule           (1)
  double continuous_load_time = 10800;  // ... held this long is "continuous" (NEC: 3 h)    (s)
  // leaks (physics.md 7): rope/point sensors under each rack, CDU level and pressure, flow balance
  double leak_sensor_volume = 20e-6;      // coolant on the sensor that trips it (a)          (m3)
  bool rack_liquid_isolation = true;      // close the rack's isolation valves on a leak [K88]
  bool rack_electrical_isolation = true;  // power the rack off on a leak [K86, K88]
  double isolation_valve_stroke = 30;     // valve closing time (seconds to 120 s, physics.md 7) (s)
  double low_level_fraction = 0.1;        // tank liquid below this share of its volume       (1)
  bool low_level_pump_stop = true;        // the level switch blocks the pumps [K58, K61]
  double pressure_drop = 30e3;            // tank pressure below its fill pressure by this    (Pa)
  double imbalance_fraction = 0.01;       // supply - return above this share of the flow ... (1)
  double imbalance_delay = 10;            // ... for this long                                (s)
};

}  // namespace dctwin
