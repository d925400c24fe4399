// air_handler.cpp: air handlers of the room air (docs/models/air_handler.md)
#include "models/air_handler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace dctwin {

double coilEffectiveness(double eps_rated, double y) {
  if (!(eps_rated > 0 && eps_rated < 1))
    throw std::invalid_argument("coil effectiveness must lie in (0, 1), got " +
                                std::to_string(eps_rated));
  if (!(y > 0)) return 1.0;  // no airflow: the air leaves at the water temperature (Q = 0)
  const double ntu = -std::log1p(-eps_rated) * std::pow(y, -0.2);
  return -std::expm1(-ntu);
}

AirHandlerPoint airHandlerAt(const AirHandlerParams& p, double y, double T_room, double rho_cp) {
  AirHandlerPoint pt;
  pt.y = std::clamp(y, 0.0, 1.0);
  pt.V = p.count * p.V_rated * pt.y;
  pt.P_fan = p.count * p.P_rated * pt.y * pt.y * pt.y;
  pt.eps = pt.y > 0 ? coilEffectiveness(p.eps_rated, pt.y) : 0.0;
  const double dT = std::max(T_room - p.T_chw, 0.0);  // a coil cools, never heats
  pt.Q_coil = rho_cp * pt.V * pt.eps * dT;
  pt.T_supply_air = T_room - pt.eps * dT;
  return pt;
}

AirHandlerWater airHandlerWater(const AirHandlerParams& p, double Q_coil, double T_fws) {
  AirHandlerWater w;
  w.Q_water = std::max(Q_coil, 0.0);
  if (Q_coil <= 0 || T_fws <= p.T_chw) return w;  // economizer: the facility water cools the coil
  const ChillerPoint c = chillerAt(p.chiller, 1, Q_coil, p.T_chw, T_fws);
  w.PLR = c.PLR;
  // above its capacity the chiller still takes the whole duty at PLR_max's efficiency (the
  // chilled water is held at its set point; the summary flags PLR > 1)
  w.P_chiller = c.Q_evap > 0 ? c.P * Q_coil / c.Q_evap : 0.0;
  w.Q_water += p.chiller.eta_motor * w.P_chiller;
  return w;
}

void checkAirHandler(const AirHandlerParams& p) {
  auto bad = [](const std::string& what, double v) {
    throw std::invalid_argument(what + " (got " + std::to_string(v) + ")");
  };
  if (p.count < 1) bad("air handlers: count must be at least 1", p.count);
  if (!(p.V_rated > 0)) bad("air handlers: rated airflow must be > 0", p.V_rated);
  if (!(p.P_rated >= 0)) bad("air handlers: rated fan power must be >= 0", p.P_rated);
  if (!(p.eps_rated > 0 && p.eps_rated < 1))
    bad("air handlers: coil effectiveness must lie in (0, 1)", p.eps_rated);
  if (!(p.T_set > p.T_chw + 1.0))
    bad("air handlers: the room set point must lie above the chilled water by more than 1 K",
        p.T_set);
  if (!(p.pi.u_min >= 0 && p.pi.u_min < 1))
    bad("air handlers: min_speed must lie in [0, 1)", p.pi.u_min);
  if (!(p.pi.k > 0 && p.pi.Ti > 0))
    bad("air handlers: controller gain and integral time must be > 0", p.pi.k);
}

}  // namespace dctwin
