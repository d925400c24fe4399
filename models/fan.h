// fan.h: the fans of an air-cooled rack or device (switch racks, storage, air-cooled servers)
// (docs/models/air_rack.md)
//
// fan laws (affinity, [K63]): at speed ratio N the fans move V = N V_rated against a system
// (rack) pressure drop dp = dp_rated N^2 and draw P_fan = P_rated N^3. Every watt of the IT load
// and of the fans ends as heat in the air stream:
//   rho c_p V (T_out - T_in) = P_it + P_fan
// two controls:
//   delta_t   the fans hold the air temperature rise at dT_set: the smallest N in [N_min, 1] with
//             rho c_p V_rated dT_set N = P_it + P_rated N^3 (fixed point from N = 0, monotone);
//             none below 1 (too much heat): full speed and a larger rise; N_min: a smaller one
//   pressure  the fans hold the rack's pressure difference at dp_set against the system curve:
//             N = sqrt(dp_set / dp_rated), within [N_min, 1]; the rise follows from the heat
#pragma once

namespace dctwin {

struct FanParams {
  enum class Control { DeltaT, Pressure };
  Control control = Control::DeltaT;
  double V_rated = 0;   // airflow at full speed                                 (m3/s)
  double P_rated = 0;   // fan electrical power at full speed                    (W)
  double dp_rated = 0;  // system pressure drop at V_rated (pressure control)    (Pa)
  double dT_set = 0;    // delta_t control: air temperature rise held           (K)
  double dp_set = 0;    // pressure control: pressure difference held           (Pa)
  double N_min = 0.2;   // lowest fan speed ratio                                (1)
};

struct FanPoint {
  double N = 0;      // speed ratio                                          (1)
  double V = 0;      // airflow                                              (m3/s)
  double P_fan = 0;  // fan electrical power (heat into the air)             (W)
  double dT = 0;     // air temperature rise T_out - T_in                    (K)
};

// operating point for an IT load P_it (W) with air of density rho and specific heat cp
FanPoint fanOperatingPoint(const FanParams& f, double P_it, double rho, double cp);

}  // namespace dctwin
