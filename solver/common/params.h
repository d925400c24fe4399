// params.h: parameter types shared by the facility spec (solver/input) and the compiled model
// (solver/compile): the compiled model includes this header, never the spec's.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "models/electrical.h"
#include "models/ride_through.h"
#include "solver/common/fault_table.h"

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
  // resilience (docs/models/power_chain.md "Utility loss, generator and cooling"): a standby
  // generator that the transfer switch connects start_delay after a utility loss (0: none), and
  // which cooling loads sit behind the UPS (else they stop until the generator or utility is back)
  double generator_start_delay = 0;  // start + transfer, NFPA 110 Type 10: <= 10 s [K111] (s)
  bool cdu_pumps_on_ups = true;      // CDU pumps on the UPS output
  bool plant_on_ups = true;          // facility-water plant pumps on the UPS output
  // what the equipment tolerates of a grid disturbance, a scenario's voltage_sag or
  // frequency_excursion (`power.ride_through`, docs/models/ride_through.md)
  RideThroughParams ride;
  // a site battery at the point of interconnection (docs/models/grid.md "Mitigations"): the meter
  // follows a moving average of the site's demand, the battery gives or takes the rest
  struct SiteBattery {
    bool present = false;
    double capacity_J = 0;  // usable energy                                          (J)
    double P_max_W = 0;     // charge / discharge limit                               (W)
    double eta_rt = 0.82;   // round-trip efficiency, the US fleet's 2019 mean [K137]  (1)
    double tau = 60;        // moving-average time constant                           (s)
    double soc_tau = 0;     // SOC pulled back to half with this time constant; 0: off (s)
  } battery;
};

// the utility's limits on the site's demand at the point of interconnection, and how the meter's
// metrics are taken (the facility file's `grid:` section, docs/models/grid.md). No limit has a
// default: they are the utility's own numbers; a NaN limit is not checked.
struct GridBand {
  double f_low = 0;   // lower edge, included                              (Hz)
  double f_high = 0;  // upper edge, excluded                              (Hz)
  double limit = std::numeric_limits<double>::quiet_NaN();  // band RMS allowed (W); NaN: none
  SourceLoc loc;
};
struct GridParams {
  bool present = false;      // a grid: section
  double ramp_window = 1.0;  // span the windowed ramp is taken over                     (s)
  double ramp_limit = std::numeric_limits<double>::quiet_NaN();  // over ramp_window (W/s)
  double psd_segment = 60.0;  // Welch segment length                                    (s)
  double start = 0;           // the metrics read the meter from this time on            (s)
  std::vector<GridBand> bands;
  SourceLoc loc;
};

// what a fabric event does (scenario `fabric:`)
enum class FabricFault {
  LinkDegraded,        // NIC `nic` of GPU `gpu`: its link at bandwidth fraction `value`
  LinkDown,            // NIC `nic` of GPU `gpu` down (its other NICs carry on, or the job fails)
  LinkRestored,        // NIC `nic` of GPU `gpu` back at full bandwidth
  NvlinkTrayLost,      // NVLink switch tray `tray` of the rack lost
  NvlinkTrayRestored,  // ... back
  // scale-out switches and flapping links (switch racks, docs/models/switch_rack.md)
  LinkFlapping,   // NIC `nic` of GPU `gpu` flaps: its link at the mean fraction `value`
  SwitchFailed,   // switch `tray` of switch rack `target` fails (leaf: its links lost;
                  // spine: the leaves' uplinks through it)
  SwitchRestored  // ... back
};
inline bool isSwitchFault(FabricFault f) {
  return f == FabricFault::SwitchFailed || f == FabricFault::SwitchRestored;
}

// where a leak opens
enum class LeakSite { Rack, Cdu, SupplyHeader, ReturnHeader };
// which CDU sensor a sensor fault affects
enum class SensorKind { SupplyTemperature, Flow };
// which CDU set point a set-point event changes
enum class SetpointKind { SupplyTemperature, Dp, Flow };

// protection layers a site sets on its CDUs and racks (docs/models/protection.md, scenario key
// section `protection`); each threshold with its delay, every action latched until the end of the
// run (a site restarts by hand)
struct ProtectionParams {
  bool enabled = true;
  double startup_inhibit = 1200;  // temperature alarms ignored after start [K59, K61]       (s)
  // CDU secondary supply temperature off its set point [K61]: warnings
  double supply_high_offset = 2, supply_low_offset = 2;  // (K)
  double supply_alarm_delay = 120;                       // (s)
  // CDU return (rack outlet mix) above the supply set point by this (a) ... for the delay
  double return_high_offset = 15;   // (K)
  double return_alarm_delay = 120;  // (s)
  // emergency power-off: CDU flow below this share of its set point for the delay -> every
  // rack of the loop powered off (a)
  double epo_flow_fraction = 0.1;  // (1)
  double epo_delay = 10;           // (s)
  // rack inlet above the rack type's supply_temperature_max for cap_delay: the rack's GPUs
  // capped at cap_fraction of their limit; at max + shutdown_margin for shutdown_delay, or still
  // above max cap_hold after the cap: the rack is powered off (a)
  double inlet_cap_delay = 30;       // (s)
  double inlet_cap_fraction = 0.5;   // (1)
  double inlet_cap_hold = 300;       // (s)
  double inlet_shutdown_margin = 5;  // (K)
  double inlet_shutdown_delay = 10;  // (s)
  // rack coolant within this of its limit (the fluid's use range or boiling at the loop pressure,
  // whichever is lower): the rack is powered off at once (a)
  double coolant_limit_margin = 5;  // (K)
  // make-up (auto-fill) from a fill tank [K61]: the fill pump starts when the tank (pump
  // suction) pressure has been fill_start_drop below the fill pressure for fill_start_delay and
  // stops when it is back within fill_stop_drop of it; running longer than fill_timeout without
  // getting there stops it for good ("water make-up empty"); the fill tank running dry stops it.
  // fill_tank_volume 0: no auto-fill. Tank volume and pump flow have no published default (a)
  double fill_tank_volume = 0;    // (m3)
  double fill_pump_flow = 0;      // (m3/s)
  double fill_start_drop = 20e3;  // [K61]: start at 0.3 bar, stop at 0.5 bar (Pa)
  double fill_stop_drop = 0;      // (Pa)
  double fill_start_delay = 10;   // [K61] (s)
  double fill_timeout = 180;      // [K61] (s)
  // the CDU's relief valve (docs/models/protection.md "Relief valve"): from the pump discharge
  // back to its suction, opening at limits.secondary_pressure_max and passing relief_capacity
  // times the CDU's design flow at 10 % over it (ASME BPVC VIII overpressure [K134]); 0: an
  // alarm only. It acts whether or not the protection layers are enabled (a mechanical valve)
  double relief_capacity = 1.0;  // (a) (1)
};

// detection and response policies (docs/scenario-format.md "detection"); defaults (a) unless noted
struct DetectionParams {
  double poll_interval = 1.0;    // sensors polled (openBMC leak manager: 1 s [K86]) (s)
  double pump_switchover = 5.0;  // failed pump -> standby running                   (s)
  // the last pumps of a CDU that stop coast down on their inertia: speed N exp(-t / tau) (a)
  double pump_coast_down = 2.0;         // (s)
  double low_flow_fraction = 0.9;       // CDU flow below this share of its set point [K58] (1)
  double low_flow_delay = 100.0;        // ... for this long raises the low-flow alarm [K58](s)
  double continuous_load_ratio = 0.8;   // busway current / rating: the 80 % rule           (1)
  double continuous_load_time = 10800;  // ... held this long is "continuous" (NEC: 3 h)    (s)
  // leaks (docs/models/leak.md [K86, K88, K90, K91]): rope/point sensors under each rack, CDU level
  // and pressure, flow balance
  double leak_sensor_volume = 20e-6;  // coolant on the sensor that trips it (a)          (m3)
  // where the sensor sits relative to the leak: the liquid needs this long to reach it, and only
  // this share of it arrives (drip tray, floor slope); 0 s and 1: a sensor at the leak itself
  double leak_sensor_transit = 0;         // (s)
  double leak_sensor_fraction = 1;        // (1)
  bool rack_liquid_isolation = true;      // close the rack's isolation valves on a leak [K88]
  bool rack_electrical_isolation = true;  // power the rack off on a leak [K86, K88]
  double isolation_valve_stroke = 30;     // valve closing time (a): no published figure     (s)
  double low_level_fraction = 0.1;        // tank liquid below this share of its volume       (1)
  bool low_level_pump_stop = true;        // the level switch blocks the pumps [K58, K61]
  // the level switch makes again when the tank is back above low_level_fraction + 0.05 (a):
  // true, the pumps restart; false, they stay blocked until an operator clears the alarm (as
  // Coolcentric's controller [K61]; no operator acts during a run)
  bool low_level_auto_release = true;
  double pressure_drop = 30e3;       // tank pressure below its fill pressure by this    (Pa)
  double imbalance_fraction = 0.01;  // supply - return above this share of the flow ... (1)
  double imbalance_delay = 10;       // ... for this long                                (s)
  ProtectionParams protection;       // (scenario section `protection`)
};

// the multi-rate annual mode (docs/models/annual.md): short full-resolution windows of the GPU
// layer alternate with slow segments in which the coolant and the plant run on the window's
// periodic means. Set by a scenario's `mode: annual` (its `annual:` section) or `run --annual`.
struct AnnualParams {
  bool enabled = false;
  double window = 600;         // full-resolution window                                (s)
  double settle = 1800;        // at full resolution first after the start and a job start (s)
  double period = 6 * 3600.0;  // a new window at least this often                      (s)
  double slow_step = 900;      // largest coolant step in the slow segments              (s)
  double dT_supply = 0.5;      // a new window when the facility supply moved this much  (K)
  double dT_wet_bulb = 5;      // ... or the outdoor wet bulb                            (K)
};

}  // namespace dctwin
