// air_handler.h: air handlers of the room air, CRAH units or fan-wall modules with a chilled-water
// coil (docs/models/air_handler.md)
//
// n identical units at one fan speed ratio y in [y_min, 1] (fan laws [K63]):
//   V = n V_rated y,   P_fan = n P_rated y^3          (all of P_fan ends as heat in the air)
// the coil, sensible only, effectiveness with the air the smaller capacity rate (C_r -> 0):
//   NTU(y) = NTU_rated y^-0.2,  NTU_rated = -ln(1 - eps_rated)   (air film, h ~ V^0.8 (a))
//   eps(y) = 1 - exp(-NTU(y))
//   Q_coil = rho c_p V eps (T_room - T_chw) >= 0,  T_supply_air = T_room - eps (T_room - T_chw)
// the chilled water comes from a water-cooled chiller (EnergyPlus Chiller:Electric:EIR curves,
// plant.h) whose condenser is on the facility water: P_chiller = chillerAt(Q_coil, T_chw, T_fws);
// the facility water takes Q_coil + P_chiller. Where the facility water is no warmer than the
// chilled water (T_fws <= T_chw) the coil takes it directly (water-side economizer): no chiller.
#pragma once

#include "models/controller.h"
#include "models/plant.h"

namespace dctwin {

struct AirHandlerParams {
  int count = 1;            // units (CRAHs or fan-wall modules)                          (1)
  double V_rated = 0;       // airflow of one unit at full speed                         (m3/s)
  double P_rated = 0;       // fan electrical power of one unit at full speed            (W)
  double eps_rated = 0.41;  // coil effectiveness at V_rated                             (1)
  double T_chw = 281.15;    // chilled-water supply to the coils                         (K)
  double T_set = 298.15;    // room (return) air set point of the fan-speed controller  (K)
  PIParams pi{0.1, 240, 0, 0.2, 1};  // fan speed on e = T_room - T_set (k in 1/K)
  ChillerParams chiller;             // the chilled-water chiller (Q_ref, COP_ref; curves)
};

struct AirHandlerPoint {
  double y = 0;             // fan speed ratio                                           (1)
  double V = 0;             // airflow of all units                                      (m3/s)
  double eps = 0;           // coil effectiveness                                        (1)
  double Q_coil = 0;        // heat the coils take from the air                          (W)
  double P_fan = 0;         // fan electrical power of all units                         (W)
  double T_supply_air = 0;  // air leaving the coils                                     (K)
};

struct AirHandlerWater {
  double P_chiller = 0;  // chiller electrical power                                     (W)
  double Q_water = 0;    // heat into the facility water: Q_coil + P_chiller             (W)
  double PLR = 0;        // chiller part-load ratio (1)
};

// coil effectiveness at speed ratio y (> 0). Throws std::invalid_argument on eps_rated outside (0,
// 1)
double coilEffectiveness(double eps_rated, double y);

// the units' operating point at fan speed y (clamped to [0, 1]) and room air T_room; air rho_cp
// = rho c_p (J/(m3 K))
AirHandlerPoint airHandlerAt(const AirHandlerParams& p, double y, double T_room, double rho_cp);

// the chilled water's cost: chiller power at coil duty Q_coil with the condenser on facility water
// at T_fws; none where the facility water itself is cold enough
AirHandlerWater airHandlerWater(const AirHandlerParams& p, double Q_coil, double T_fws);

// checks a parameter set; throws std::invalid_argument naming the bad value
void checkAirHandler(const AirHandlerParams& p);

}  // namespace dctwin
