#include "models/plant.h"

#include <algorithm>
#include <cmath>

#include "models/heat_exchanger.h"
#include "models/psychro.h"

namespace dctwin {

// ---------------------------------------------------------------------------------------------
PlantPumpPoint plantPumpPoint(const PlantPumpParams& p, int running, double V) {
  PlantPumpPoint pt;
  const double c_hdr = p.header_dp / (p.design_flow * p.design_flow);
  const double dp_hdr = c_hdr * V * V;
  if (running <= 0) {
    pt.dp_cdu = 0;
    return pt;
  }
  const double H0 = p.shutoff_ratio * p.rated_head;
  const double k = (H0 - p.rated_head) / (p.rated_flow * p.rated_flow);
  const double v = V / running;  // per pump
  // speed that holds dp_set at the CDUs: N^2 H0 - k v^2 = dp_set + dp_hdr
  const double N2 = (p.dp_set + dp_hdr + k * v * v) / H0;
  pt.speed = std::clamp(std::sqrt(std::max(N2, 0.0)), p.min_speed, 1.0);
  pt.head = std::max(pt.speed * pt.speed * H0 - k * v * v, 0.0);
  pt.dp_cdu = std::max(pt.head - dp_hdr, 0.0);
  pt.P = V * pt.head / p.efficiency;
  return pt;
}

// ---------------------------------------------------------------------------------------------
double effectivenessCrossflowUnmixed(double NTU, double Cr) {
  if (NTU <= 0) return 0;
  if (Cr < 1e-9) return 1 - std::exp(-NTU);
  return 1 - std::exp((std::pow(NTU, 0.22) / Cr) * (std::exp(-Cr * std::pow(NTU, 0.78)) - 1));
}

namespace {
// a unit's conductance off its rated flows: two film resistances, half each at the rating (a)
double dryUA(const DryCoolerParams& d, double x_w, double y) {
  const double xw = std::max(x_w, 0.01), ya = std::max(y, 0.01);
  return d.UA_nom / (0.5 / std::pow(xw, d.n_water) + 0.5 / std::pow(ya, d.n_air));
}
}  // namespace

void sizeDryCooler(DryCoolerParams& d, double cp) {
  const double range = d.T_in_nom - d.T_out_nom, itd = d.T_in_nom - d.T_air_nom;
  d.m_nom = d.Q_nom / (cp * range);
  d.C_air = d.m_nom * cp;  // Modelica's default: C_air = C_fluid at the rating
  const double eps = range / itd;
  double lo = 1e-6, hi = 50;  // NTU
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (effectivenessCrossflowUnmixed(mid, 1.0) < eps ? lo : hi) = mid;
  }
  d.UA_nom = 0.5 * (lo + hi) * d.C_air;
}

RejectPoint dryCoolerAt(const DryCoolerParams& d, int units, double T_in, double m, double cp,
                        double y, double wet, const AirState& air) {
  RejectPoint r;
  r.speed = y;
  r.T_out = T_in;
  if (units <= 0 || m <= 0) return r;
  const double w = d.adiabatic ? std::clamp(wet, 0.0, 1.0) : 0.0;
  const bool pads = w > 0;
  const double T_air = air.T_db - w * d.pad_effectiveness * (air.T_db - air.T_wb);
  const double m_u = m / units;
  const double C_w = m_u * cp, C_a = std::max(y, 0.0) * d.C_air;
  double Q_u = 0;
  if (C_a > 0) {
    const double Cmin = std::min(C_w, C_a), Cmax = std::max(C_w, C_a);
    const double eps =
        effectivenessCrossflowUnmixed(dryUA(d, m_u / d.m_nom, y) / Cmin, Cmin / Cmax);
    Q_u = eps * Cmin * (T_in - T_air);
  }
  r.Q = Q_u * units;
  r.T_out = T_in - Q_u / C_w;
  r.P_fan = units * d.P_fan_nom * y * y * y;
  r.wet = w;
  if (pads && C_a > 0) {
    // evaporation that cools the air stream from T_db to T_air (constant wet bulb), plus bleed
    const double h_fg = (2501.0 - 2.326 * (air.T_wb - 273.15)) * 1e3;
    r.evaporation = units * C_a * (air.T_db - T_air) / h_fg;
    r.blowdown = r.evaporation / std::max(d.cycles - 1, 1e-3);
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
namespace {
double poly2(double a, double b, double c, double x) {
  return a + x * (b + x * c);
}
// Merkel UA corrections (Modelica Buildings CoolingTowers.Data.UAMerkel defaults)
double towerUA(const TowerParams& t, double T_wb, double y, double x_w) {
  const double f_wb = poly2(1, 0.0081, 0, t.T_wb_nom - T_wb);
  const double f_air = poly2(0, 1.3, -0.3, std::clamp(y, 0.2, 1.0));
  const double f_w = poly2(0.1082, 1.667, -0.7713, std::clamp(x_w, 0.3, 1.0));
  return t.UA_nom * std::max(f_wb, 0.0) * f_air * f_w;
}
// one cell: heat rejected (W) and the air's equivalent capacity; water in at T_in
double towerCellQ(double UA, double T_in, double m_w, double cp, double m_a, const AirState& air) {
  const double dT = T_in - air.T_wb;
  if (std::abs(dT) < 1e-6 || m_a <= 0) return 0;
  const double cpe =
      (psychro::saturationEnthalpy(T_in, air.p) - psychro::saturationEnthalpy(air.T_wb, air.p)) /
      dT;
  const double C_a = m_a * cpe, C_w = m_w * cp;
  const double Cmin = std::min(C_a, C_w), Cmax = std::max(C_a, C_w);
  return effectivenessCounterflow(UA / Cmin, Cmin / Cmax) * Cmin * dT;
}
}  // namespace

void sizeTower(TowerParams& t, double cp) {
  const double Q = t.m_nom * cp * (t.T_in_nom - t.T_out_nom);
  AirState air;
  air.T_wb = t.T_wb_nom;
  air.p = psychro::kPatm;
  const double m_a = t.m_nom / t.water_air_ratio;
  double lo = 1, hi = 1e9;
  t.UA_nom = 1;
  for (int i = 0; i < 200; ++i) {
    const double mid = std::sqrt(lo * hi);
    (towerCellQ(mid, t.T_in_nom, t.m_nom, cp, m_a, air) < Q ? lo : hi) = mid;
  }
  t.UA_nom = std::sqrt(lo * hi);
}

RejectPoint towerAt(const TowerParams& t, int cells, double T_in, double m, double cp, double y,
                    const AirState& air) {
  RejectPoint r;
  r.speed = y;
  r.T_out = T_in;
  if (cells <= 0 || m <= 0 || y <= 0) return r;
  const double m_w = m / cells, m_a = y * t.m_nom / t.water_air_ratio;
  const double Q_u = towerCellQ(towerUA(t, air.T_wb, y, m_w / t.m_nom), T_in, m_w, cp, m_a, air);
  r.Q = Q_u * cells;
  r.T_out = T_in - Q_u / (m_w * cp);
  r.P_fan = cells * t.fan_power_per_flow * t.m_nom * y * y * y;
  r.wet = 1;
  // the exit air saturated at the enthalpy the heat gave it
  const double h_out = psychro::enthalpy(air.T_db, air.W) + Q_u / m_a;
  const double W_out =
      psychro::saturationHumidityRatio(psychro::saturationTemperature(h_out, air.p), air.p);
  r.evaporation = cells * m_a * std::max(W_out - air.W, 0.0);
  r.drift = cells * t.drift * t.m_nom * y;
  r.blowdown = std::max(r.evaporation / std::max(t.cycles - 1, 1e-3) - r.drift, 0.0);
  return r;
}

// ---------------------------------------------------------------------------------------------
namespace {
double biquad(const double* a, double x, double y) {
  return a[0] + a[1] * x + a[2] * x * x + a[3] * y + a[4] * y * y + a[5] * x * y;
}
}  // namespace

ChillerPoint chillerAt(const ChillerParams& c, int n, double Q, double T_chw, double T_cond) {
  ChillerPoint pt;
  if (n <= 0 || Q <= 0) return pt;
  // EnergyPlus holds the curve inputs within their stated ranges
  const double x = std::clamp(T_chw, c.T_chw_min, c.T_chw_max) - 273.15;
  const double z = std::clamp(T_cond, c.T_cond_min, c.T_cond_max) - 273.15;
  const double capft = std::max(biquad(c.capFT, x, z), 0.0);
  const double eirft = std::max(biquad(c.eirFT, x, z), 0.0);
  const double Q_avail = c.Q_ref * capft;  // per chiller
  pt.Q_avail = n * Q_avail;
  const double PLR = std::min(Q / pt.Q_avail, c.PLR_max);
  pt.PLR = PLR;
  pt.Q_evap = PLR * pt.Q_avail;
  const double plr_u = std::max(PLR, c.PLR_min_unload);
  const double eirfplr = poly2(c.eirFPLR[0], c.eirFPLR[1], c.eirFPLR[2], plr_u);
  const double CR = std::min(PLR / c.PLR_min, 1.0);  // cycling below the minimum PLR
  pt.P = n * (Q_avail / c.COP_ref) * eirft * eirfplr * CR;
  pt.Q_cond = pt.Q_evap + c.eta_motor * pt.P;
  return pt;
}

}  // namespace dctwin
