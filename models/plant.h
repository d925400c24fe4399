// plant.h: the heat-rejection plant on the facility water, as quasi-steady components
// (docs/models/plant.md has the equations, sources, assumptions and validation tests)
//
//   primary pumps      H = N^2 H_0 - k (V/n)^2 per pump, P = V H / eta; speed held on a dp set
//                      point at the CDUs (affinity laws)
//   dry cooler         cross-flow eps-NTU (both fluids unmixed, EnergyPlus form), UA from the
//                      rated point, film conductances scaling with flow, fans P = P_nom y^3;
//                      optional adiabatic pre-cooling T_air = T_db - eps_pad (T_db - T_wb)
//   cooling tower      Merkel, counter-flow eps-NTU with the air as an equivalent fluid
//                      c_pe = dh_sat/dT, UA corrections of Modelica Buildings; water =
//                      evaporation (saturated exit air) + drift + blowdown by cycles of
//                      concentration
//   chiller            EnergyPlus Chiller:Electric:EIR (DOE-2): CAPFT, EIRFT biquadratic in
//                      leaving chilled-water and entering condenser temperature, EIRFPLR quadratic
// Everything SI; temperatures in K inside, the curves take degC as their sources define them.
// Sources (docs/references.md): primary pumps (a); dry cooler and its default rating, the BAC
// Trillium record of Modelica Buildings [P5, P8]; pads [P10]; Merkel tower, its UA corrections,
// water/air ratio and fan power [P4, P8], water defaults [P8, P13]; EIR chiller and the York YT
// record [P6, P9].
#pragma once

namespace dctwin {

// outdoor air at the plant
struct AirState {
  double T_db = 298.15;  // dry bulb                                              (K)
  double T_wb = 291.15;  // thermodynamic wet bulb                                (K)
  double W = 0.01;       // humidity ratio                                        (kg/kg dry air)
  double p = 101325;     // station pressure                                      (Pa)
};

// ---------------------------------------------------------------------------------------------
// primary (facility-water) pumps, identical, in parallel

struct PlantPumpParams {
  int count = 2, running = 2;
  double rated_flow = 0.05;    // per pump                                     (m3/s)
  double rated_head = 250e3;   // per pump at rated flow and full speed        (Pa)
  double shutoff_ratio = 1.3;  // shut-off head / rated head                   (1)
  double efficiency = 0.7;     // wire to water at every point (a)             (1)
  double min_speed = 0.3;      // (1)
  double header_dp = 50e3;     // headers and pipes at the design flow         (Pa)
  double design_flow = 0.1;    // total design flow (headers)                  (m3/s)
  double dp_set = 150e3;       // held across each CDU                          (Pa)
};

struct PlantPumpPoint {
  double speed = 0;   // (1)
  double head = 0;    // (Pa)
  double dp_cdu = 0;  // differential pressure left at the CDUs                   (Pa)
  double P = 0;       // electrical power, all pumps                               (W)
};

// the operating point at total flow V (m3/s) with `running` pumps, speed on the dp set point
PlantPumpPoint plantPumpPoint(const PlantPumpParams& p, int running, double V);

// ---------------------------------------------------------------------------------------------
// dry coolers (identical units in parallel, fans at one speed)

struct DryCoolerParams {
  int count = 1;
  // rated point of one unit
  double Q_nom = 2931e3;               // (W)
  double T_air_nom = 308.15;           // dry bulb                                     (K)
  double T_in_nom = 319.26;            // fluid in                                     (K)
  double T_out_nom = 313.70;           // fluid out                                    (K)
  double P_fan_nom = 117.68e3;         // (W)
  double min_speed = 0.1;              // below: the fans cycle                        (1)
  double n_water = 0.85, n_air = 0.8;  // film-conductance flow exponents (a)      (1)
  // adiabatic pre-cooling
  bool adiabatic = false;
  double pad_effectiveness = 0.8;  // saturation effectiveness                     (1)
  double cycles = 3;               // pad water cycles of concentration            (1)
  // derived by sizeDryCooler (per unit)
  double m_nom = 0;   // fluid flow at the rated point                          (kg/s)
  double C_air = 0;   // air capacity rate at full fan (= C_fluid at rating)    (W/K)
  double UA_nom = 0;  // (W/K)
};

// per-unit UA and flows from the rated point, fluid heat capacity cp (J/(kg K))
void sizeDryCooler(DryCoolerParams& d, double cp);

double effectivenessCrossflowUnmixed(double NTU, double Cr);

struct RejectPoint {
  double T_out = 0;  // fluid out                                  (K)
  double Q = 0;      // heat rejected                              (W)
  double P_fan = 0;  // (W)
  double evaporation = 0, drift = 0, blowdown = 0;  // water, all units                (kg/s)
  double speed = 0;                                 // fan speed (1); duty below min_speed
  double wet = 0;                                   // share of the pads wetted (1)
};

// all `units` at fan speed y (0..1) with total fluid flow m (kg/s) entering at T_in; `wet`: the
// share of the pads wetted (0 dry ... 1 all), which scales the pads' depression and water
RejectPoint dryCoolerAt(const DryCoolerParams& d, int units, double T_in, double m, double cp,
                        double y, double wet, const AirState& air);

// ---------------------------------------------------------------------------------------------
// cooling towers (Merkel), identical cells

struct TowerParams {
  int count = 1;
  double T_wb_nom = 298.71;                // EnergyPlus nominal 25.56 degC                  (K)
  double T_in_nom = 308.15;                // 35 degC                                        (K)
  double T_out_nom = 302.59;               // 29.44 degC                                     (K)
  double m_nom = 50;                       // water per cell at the nominal point           (kg/s)
  double water_air_ratio = 1.2;            // at the nominal point                           (1)
  double fan_power_per_flow = 275 / 0.15;  // P_fan,nom / m_water,nom              (W/(kg/s))
  double min_speed = 0.2;                  // air-flow fraction below which the fans cycle   (1)
  double drift = 8e-5;                     // of the nominal water flow, at full air flow   (1)
  double cycles = 3;                       // of concentration                               (1)
  double UA_nom = 0;                       // derived by sizeTower                           (W/K)
};

void sizeTower(TowerParams& t, double cp);

// all `cells` at air-flow fraction y with total water flow m entering at T_in
RejectPoint towerAt(const TowerParams& t, int cells, double T_in, double m, double cp, double y,
                    const AirState& air);

// ---------------------------------------------------------------------------------------------
// electric chillers (EnergyPlus Chiller:Electric:EIR)

struct ChillerParams {
  int count = 1;
  double Q_ref = 1055e3;  // reference capacity                                 (W)
  double COP_ref = 5.96;  // (1)
  double T_chw_ref = 279.82, T_cond_ref = 302.59;  // 6.67 / 29.44 degC          (K)
  double capFT[6] = {1.785912E-01, -5.900023E-02, -5.946963E-04,
                     9.297889E-02, -2.841024E-03, 4.974221E-03};
  double eirFT[6] = {5.245110E-01, -2.850126E-02, 8.034720E-04,
                     1.893133E-02, 1.151629E-04,  -9.340642E-05};
  double eirFPLR[3] = {2.619878E-01, 2.393605E-01, 4.988306E-01};
  double PLR_min = 0.1, PLR_min_unload = 0.1, PLR_max = 1.05;  // (1)
  double T_chw_min = 277.59, T_chw_max = 282.04;               // curve range 4.44 ... 8.89 degC (K)
  double T_cond_min = 285.93, T_cond_max = 308.15;             // 12.78 ... 35 degC            (K)
  double eta_motor = 1.0;         // share of the compressor power that enters the refrigerant (1)
  double cond_approach = 3.9;     // condenser water over wet bulb (tower) or dry bulb (dry) (K)
  double cond_fan_ratio = 0.026;  // condenser fans per heat rejected (a)          (1)
};

struct ChillerPoint {
  double Q_evap = 0;   // heat taken from the chilled water                       (W)
  double P = 0;        // electrical power                                         (W)
  double Q_cond = 0;   // heat to the condenser                                    (W)
  double PLR = 0;      // (1)
  double Q_avail = 0;  // capacity at these temperatures                          (W)
};

// `n` chillers sharing load Q (W) at leaving chilled water T_chw and entering condenser T_cond
ChillerPoint chillerAt(const ChillerParams& c, int n, double Q, double T_chw, double T_cond);

}  // namespace dctwin
