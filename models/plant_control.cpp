#include "models/plant_control.h"

#include <algorithm>
#include <cmath>

namespace dctwin {

void sizePlant(PlantParams& p, double cp) {
  sizeDryCooler(p.dry, cp);
  sizeTower(p.tower, cp);
}

namespace {

// the heat-rejection bank at fan speed y on the facility water entering at T_in; T_out is the
// facility-water side (the tower's plate HX adds its approach on both sides)
RejectPoint reject(const PlantParams& p, const PlantState& s, double T_in, double m, double cp,
                   double y, double wet, const AirState& air) {
  if (p.rejection == PlantParams::Rejection::DryCooler) {
    const int units = p.dry.count - s.units_failed;
    return dryCoolerAt(p.dry, units, T_in, m, cp, y, s.makeup_lost ? 0.0 : wet, air);
  }
  // an open tower needs make-up water: without it the basin runs dry and the tower stops (a)
  const int cells = s.makeup_lost ? 0 : p.tower.count - s.units_failed;
  RejectPoint r = towerAt(p.tower, cells, T_in - p.hx_approach, m, cp, y, air);
  r.T_out += p.hx_approach;
  if (r.Q <= 0) r.T_out = T_in, r.Q = 0;
  return r;
}

// fan speed (with duty cycling below the minimum) that brings the rejection outlet to T_target,
// pads wetted in the wet mode. With wet pads the coil air is colder and the fans slow down: at a
// lower air flow both the fan energy (cube law) and the water (air flow x humidity pick-up) fall,
// so modulating the fans rather than the pads spends the least of both (docs/models/plant.md)
RejectPoint rejectTo(const PlantParams& p, const PlantState& s, double T_in, double m, double cp,
                     bool wet_mode, double T_target, const AirState& air) {
  const double wet = wet_mode ? 1.0 : 0.0;
  const double y_min =
      p.rejection == PlantParams::Rejection::DryCooler ? p.dry.min_speed : p.tower.min_speed;
  RejectPoint full = reject(p, s, T_in, m, cp, 1.0, wet, air);
  if (full.T_out >= T_target || full.Q <= 0) return full;
  RejectPoint low = reject(p, s, T_in, m, cp, y_min, wet, air);
  if (low.T_out <= T_target) {
    // the fans cycle at minimum speed: the time share that rejects just enough (mixing bypass)
    const double Q_need = std::max(m * cp * (T_in - T_target), 0.0);
    const double duty = low.Q > 0 ? std::clamp(Q_need / low.Q, 0.0, 1.0) : 0.0;
    RejectPoint r = low;
    r.Q = duty * low.Q;
    r.T_out = T_in - r.Q / (m * cp);
    r.P_fan *= duty;
    r.evaporation *= duty, r.drift *= duty, r.blowdown *= duty;
    r.speed = y_min * duty;
    return r;
  }
  double lo = y_min, hi = 1.0;
  for (int i = 0; i < 40; ++i) {
    const double mid = 0.5 * (lo + hi);
    (reject(p, s, T_in, m, cp, mid, wet, air).T_out > T_target ? lo : hi) = mid;
  }
  return reject(p, s, T_in, m, cp, hi, wet, air);
}

// the condenser water the chillers see: the outdoor reference plus the condenser approach (a)
double condenserTemperature(const PlantParams& p, const AirState& air) {
  const bool tower = p.rejection == PlantParams::Rejection::Tower && true;
  return (tower ? air.T_wb : air.T_db) + p.chiller.cond_approach;
}

}  // namespace

void plantStep(const PlantParams& p, PlantState& s, double t, double T_ret, double m, double V,
               double cp, const AirState& air) {
  s.T_return = T_ret;
  s.m = m;
  // 1. primary pumps on the dp set point
  const int pumps = std::max(p.pump.running - s.pumps_failed, 0);
  const PlantPumpPoint pp = plantPumpPoint(p.pump, pumps, V);
  s.dp_cdu = pp.dp_cdu;
  s.P_pump = pp.P;
  s.pump_speed = pp.speed;
  // 2. set point, with the outdoor reset
  const bool tower = p.rejection == PlantParams::Rejection::Tower;
  s.T_set =
      p.reset ? std::clamp((tower ? air.T_wb : air.T_db) + p.reset_offset, p.T_set_min, p.T_set_max)
              : p.T_set;
  s.Q_load = std::max(m * cp * (T_ret - s.T_set), 0.0);
  if (m <= 1e-9) {
    s.P_fan = s.P_chiller = s.P_cond_fan = s.Q_rejected = 0;
    s.evaporation = s.drift = s.blowdown = 0;
    s.T_supply = T_ret;
    return;
  }
  // 3. the wet mode (adiabatic pads) with its minimum run time: on when dry fans at full speed
  // miss the set point, off when the dry bank alone would meet it
  const bool can_wet = p.rejection == PlantParams::Rejection::DryCooler && p.dry.adiabatic &&
                       !s.makeup_lost && air.T_db > p.wet_above;
  RejectPoint dry_full = reject(p, s, T_ret, m, cp, 1.0, 0.0, air);
  const bool held = t - s.wet_since < p.min_run;
  if (!can_wet) {
    s.wet = false;
  } else if (!s.wet && dry_full.T_out > s.T_set + p.deadband && !held) {
    s.wet = true, s.wet_since = t;
  } else if (s.wet && dry_full.T_out < s.T_set - p.deadband && !held) {
    s.wet = false, s.wet_since = t;
  }
  // 4. economizer (the rejection bank) on the set point
  RejectPoint r = rejectTo(p, s, T_ret, m, cp, s.wet, s.T_set, air);
  double T_after = r.T_out;
  // 5. chillers: on when the economizer leaves the supply above set + deadband, off when it
  // meets the set point; staged on the load; each change held min_run
  const int avail = p.has_chiller ? std::max(p.chiller.count - s.chillers_tripped, 0) : 0;
  const bool chiller_held = t - s.chiller_since < p.min_run;
  int n = std::min(s.chillers_on, avail);
  if (n != s.chillers_on) s.chiller_since = t;  // a trip is not held
  if (avail > 0) {
    if (n == 0 && T_after > s.T_set + p.deadband && !chiller_held) n = 1, s.chiller_since = t;
    if (n > 0 && T_after <= s.T_set && !chiller_held) n = 0, s.chiller_since = t;
  }
  s.chillers_on = n;
  s.P_chiller = s.P_cond_fan = 0;
  s.chiller_plr = 0;
  PlantMode mode = PlantMode::Free;
  double Q_cond = 0;
  if (n > 0) {
    // economizer useless (it would not cool the return by 0.5 K): full mechanical, fans off
    const bool fmc = T_ret - T_after < 0.5;
    if (fmc) {
      r = RejectPoint{};
      r.T_out = T_ret;
      T_after = T_ret;
      mode = PlantMode::Mechanical;
    } else {
      r = reject(p, s, T_ret, m, cp, 1.0, s.wet ? 1.0 : 0.0,
                 air);  // PMC: full fan to maximise free cooling
      T_after = r.T_out;
      mode = PlantMode::Partial;
    }
    const double T_cond = condenserTemperature(p, air);
    const double Q_trim = std::max(m * cp * (T_after - s.T_set), 0.0);
    // staging: one more chiller while the running ones would pass 80 % of their capacity (a
    // fixed rule of Modelica's ChillerStage: 0.55 + 0.25)
    ChillerPoint c = chillerAt(p.chiller, n, Q_trim, s.T_set, T_cond);
    while (n < avail && c.PLR > 0.8 && !chiller_held) {
      ++n;
      s.chiller_since = t;
      c = chillerAt(p.chiller, n, Q_trim, s.T_set, T_cond);
    }
    if (n > 1 && c.PLR < 0.3 && !chiller_held) {
      --n;
      s.chiller_since = t;
      c = chillerAt(p.chiller, n, Q_trim, s.T_set, T_cond);
    }
    s.chillers_on = n;
    s.P_chiller = c.P;
    s.chiller_plr = c.PLR;
    Q_cond = c.Q_cond;
    s.P_cond_fan = p.chiller.cond_fan_ratio * Q_cond;
    T_after -= c.Q_evap / (m * cp);
  }
  s.mode = mode;
  s.T_supply = T_after;
  s.P_fan = r.P_fan;
  s.fan_speed = r.speed;
  s.Q_rejected = r.Q + Q_cond;
  // water: the bank's, plus a tower condenser's at the latent limit with its blowdown (a)
  s.evaporation = r.evaporation, s.drift = r.drift, s.blowdown = r.blowdown;
  if (Q_cond > 0 && tower) {
    const double h_fg = (2501.0 - 2.326 * (air.T_wb - 273.15)) * 1e3;
    const double ev = Q_cond / h_fg;
    s.evaporation += ev;
    s.blowdown += ev / std::max(p.tower.cycles - 1, 1e-3);
  }
}

}  // namespace dctwin
