// plant_control.h: the plant on the facility water and its controls, stepped quasi-steadily
// (docs/models/plant.md "Plant and controls")
//
// topology (integrated water-side economizer, as Modelica Buildings' ChillerCooled plants):
//   FWS return -> heat rejection (dry coolers directly on the facility water, or cooling towers
//   through a plate HX of fixed approach) -> chillers in series trim to the set point -> FWS supply
// modes: free cooling (FC: rejection alone, fans on the set point), partial mechanical (PMC:
// rejection at full fan, chillers trim), full mechanical (FMC: economizer off because it no
// longer cools, chillers take the whole load). Chillers and the wet mode stage with dead bands and
// minimum run times; the set point may be reset on the outdoor temperature. Modes, staging
// thresholds and the mode wait follow Modelica Buildings' ChillerCooled controls [P1].
#pragma once

#include "models/plant.h"

namespace dctwin {

enum class PlantMode : int { Free = 0, Partial = 1, Mechanical = 2 };

struct PlantParams {
  enum class Rejection { DryCooler, Tower } rejection = Rejection::DryCooler;
  DryCoolerParams dry;
  TowerParams tower;
  double hx_approach = 0;  // plate HX between tower water and facility water        (K)
  bool has_chiller = false;
  ChillerParams chiller;
  PlantPumpParams pump;
  // controls
  double T_set = 305.15;    // facility-water supply set point                     (K)
  bool reset = false;       // set point = clamp(T_outdoor + reset_offset, min, max)
  double reset_offset = 6;  // over the wet bulb (tower) or dry bulb (dry coolers)  (K)
  double T_set_min = 291.15, T_set_max = 318.15;  // (K)
  double deadband = 0.5;  // chiller on above T_set + deadband, off below T_set   (K)
  double min_run = 1200;  // minimum on and off time of chillers and the wet mode (s)
  double wet_above = 0;   // adiabatic pads allowed above this dry bulb; 0: when needed (K)
  double step = 60;       // plant time step                                       (s)
};

// what the plant step leaves for the next step and the outputs
struct PlantState {
  double T_supply = 0;  // facility-water supply, held until the next step        (K)
  double dp_cdu = 0;    // differential pressure at the CDUs                     (Pa)
  double T_set = 0;     // effective set point after the reset                    (K)
  double T_return = 0;  // mixed return at the step                               (K)
  double m = 0;         // facility-water flow                                    (kg/s)
  PlantMode mode = PlantMode::Free;
  int chillers_on = 0;
  bool wet = false;
  double mode_since = -1e30, wet_since = -1e30, chiller_since = -1e30;  // (s)
  // powers (W) and water (kg/s) held over the step
  double P_pump = 0, P_fan = 0, P_chiller = 0, P_cond_fan = 0;
  double Q_load = 0, Q_rejected = 0;  // heat in from the FWS, heat out to the air (W)
  double evaporation = 0, drift = 0, blowdown = 0;
  double fan_speed = 0, pump_speed = 0, chiller_plr = 0;
  // availability (faults)
  int chillers_tripped = 0, units_failed = 0, pumps_failed = 0;
  bool makeup_lost = false;
};

// the plant's sizes (dry cooler / tower UA) from the rated points; cp of the facility water
void sizePlant(PlantParams& p, double cp);

// one plant step at time t: facility-water return T_ret (K) at total flow m (kg/s, volume V
// m3/s), outdoor air; updates s (supply temperature for the next step, powers, water, mode)
void plantStep(const PlantParams& p, PlantState& s, double t, double T_ret, double m, double V,
               double cp, const AirState& air);

}  // namespace dctwin
