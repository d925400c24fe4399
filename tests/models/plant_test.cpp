#include <catch2/catch.hpp>

#include <cmath>

#include "models/plant.h"
#include "models/plant_control.h"
#include "models/psychro.h"

using namespace dctwin;

namespace {
constexpr double cp = 4180;
AirState air(double T_db, double T_wb, double p = psychro::kPatm) {
  AirState a;
  a.T_db = T_db, a.T_wb = T_wb, a.p = p;
  // the humidity ratio of that wet bulb (psychrometric balance)
  const double t = T_db - 273.15, ts = T_wb - 273.15;
  const double Ws = psychro::saturationHumidityRatio(T_wb, p);
  a.W = ((2501 - 2.326 * ts) * Ws - 1.006 * (t - ts)) / (2501 + 1.86 * t - 4.186 * ts);
  return a;
}
}  // namespace

TEST_CASE("dry cooler reproduces its rated point (BAC Trillium record)", "[plant][dry_cooler]") {
  DryCoolerParams d;  // defaults: BAC TDFS1238N-C60ET40B, Modelica Buildings record
  sizeDryCooler(d, cp);
  const RejectPoint r = dryCoolerAt(d, 1, d.T_in_nom, d.m_nom, cp, 1.0, 0.0, air(308.15, 295));
  CHECK(r.T_out == Approx(d.T_out_nom).margin(1e-3));
  CHECK(r.Q == Approx(2931e3).epsilon(1e-4));
  CHECK(r.P_fan == Approx(117.68e3));
  // energy balance of the fluid, exact
  CHECK(r.Q == Approx(d.m_nom * cp * (d.T_in_nom - r.T_out)).epsilon(1e-12));
  // at fixed flows capacity is proportional to the initial temperature difference
  const RejectPoint r2 =
      dryCoolerAt(d, 1, 308.15 + 2 * 11.11, d.m_nom, cp, 1.0, 0.0, air(308.15, 295));
  CHECK(r2.Q == Approx(2 * r.Q).epsilon(1e-3));
  // no ITD, no heat; fan laws P ~ y^3
  CHECK(dryCoolerAt(d, 1, 308.15, d.m_nom, cp, 1.0, 0.0, air(308.15, 295)).Q ==
        Approx(0).margin(1e-6));
  CHECK(dryCoolerAt(d, 1, d.T_in_nom, d.m_nom, cp, 0.5, 0.0, air(308.15, 295)).P_fan ==
        Approx(117.68e3 / 8));
  // more air, more heat; two units carry twice the flow at the same outlet
  double Q_prev = 0;
  for (double y : {0.1, 0.3, 0.6, 1.0}) {
    const double Q = dryCoolerAt(d, 1, d.T_in_nom, d.m_nom, cp, y, 0.0, air(308.15, 295)).Q;
    CHECK(Q > Q_prev);
    Q_prev = Q;
  }
  CHECK(dryCoolerAt(d, 2, d.T_in_nom, 2 * d.m_nom, cp, 1.0, 0.0, air(308.15, 295)).T_out ==
        Approx(r.T_out));
}

TEST_CASE("adiabatic pre-cooling: colder coil air and the water it evaporates",
          "[plant][dry_cooler]") {
  DryCoolerParams d;
  d.adiabatic = true;
  d.pad_effectiveness = 0.8;
  d.cycles = 3;
  sizeDryCooler(d, cp);
  const AirState a = air(308.15, 293.15);
  const RejectPoint dry = dryCoolerAt(d, 1, d.T_in_nom, d.m_nom, cp, 1.0, 0.0, a);
  const RejectPoint wet = dryCoolerAt(d, 1, d.T_in_nom, d.m_nom, cp, 1.0, 1.0, a);
  CHECK(wet.T_out < dry.T_out);
  // ITD grows by the pad depression eps (T_db - T_wb) = 12 K: heat grows in proportion
  CHECK(wet.Q / dry.Q ==
        Approx((d.T_in_nom - (308.15 - 12)) / (d.T_in_nom - 308.15)).epsilon(1e-6));
  // water: the sensible cooling of the air over the latent heat, bleed by cycles of concentration
  const double h_fg = (2501.0 - 2.326 * 20) * 1e3;
  CHECK(wet.evaporation == Approx(d.C_air * 12.0 / h_fg));
  CHECK(wet.blowdown == Approx(wet.evaporation / 2));
  CHECK(dry.evaporation == 0);
}

TEST_CASE("Merkel cooling tower: nominal point, limits and water balance", "[plant][tower]") {
  TowerParams t;  // EnergyPlus nominal conditions 35 -> 29.44 degC at 25.56 degC wet bulb
  t.m_nom = 50;
  sizeTower(t, cp);
  const AirState nominal = air(308.15, 298.71);
  const RejectPoint r = towerAt(t, 1, t.T_in_nom, t.m_nom, cp, 1.0, nominal);
  CHECK(r.T_out == Approx(t.T_out_nom).margin(0.01));
  CHECK(r.Q == Approx(t.m_nom * cp * (t.T_in_nom - r.T_out)).epsilon(1e-12));
  CHECK(r.P_fan == Approx(275 / 0.15 * 50));
  // the outlet never goes below the wet bulb; a colder wet bulb cools more, half air cools less
  for (double Twb : {278.15, 288.15, 298.15}) {
    const RejectPoint x = towerAt(t, 1, t.T_in_nom, t.m_nom, cp, 1.0, air(Twb + 8, Twb));
    CHECK(x.T_out > Twb);
    CHECK(x.T_out < t.T_in_nom);
  }
  CHECK(towerAt(t, 1, t.T_in_nom, t.m_nom, cp, 0.5, nominal).T_out > r.T_out);
  // water inlet at the wet bulb: nothing to reject
  CHECK(towerAt(t, 1, 298.71, t.m_nom, cp, 1.0, nominal).Q == Approx(0).margin(1e-3));
  // water per kWh rejected: near the latent limit 3600/h_fg ~ 1.47 L/kWh; above it here because
  // the 35 degC inlet air leaves saturated at a lower temperature, its sensible heat evaporating
  // water too. The moist air's energy balance closes: m_a (h_out - h_in) = Q
  const double L_per_kWh = r.evaporation / r.Q * 3.6e6;
  CHECK(L_per_kWh > 1.3);
  CHECK(L_per_kWh < 1.7);
  const double m_a = t.m_nom / t.water_air_ratio;
  const double W_out = nominal.W + r.evaporation / m_a;
  const double h_out = psychro::enthalpy(
      psychro::saturationTemperature(psychro::enthalpy(308.15, nominal.W) + r.Q / m_a, nominal.p),
      W_out);
  CHECK(m_a * (h_out - psychro::enthalpy(308.15, nominal.W)) == Approx(r.Q).epsilon(1e-3));
  CHECK(r.drift == Approx(8e-5 * 50));
  CHECK(r.blowdown == Approx(r.evaporation / 2 - r.drift));
}

TEST_CASE("electric EIR chiller: York YT record against its published COP points",
          "[plant][chiller]") {
  ChillerParams c;  // York YT 1055 kW, COP 5.96 (EnergyPlus Chillers.idf via Modelica Buildings)
  // COP at full load, leaving chilled water 6.67 degC, over entering condenser water (table in
  // docs/models/plant.md): 12.8/18/24/29.4/35 degC -> 9.6/8.1/6.8/5.9/5.2
  const double Tc[] = {12.8, 18, 24, 29.44, 35}, cop[] = {9.6, 8.1, 6.8, 5.9, 5.2};
  for (int i = 0; i < 5; ++i) {
    const double Q_avail = chillerAt(c, 1, 1e9, 279.82, Tc[i] + 273.15).Q_avail;
    const ChillerPoint p = chillerAt(c, 1, Q_avail, 279.82, Tc[i] + 273.15);  // PLR 1
    CHECK(p.PLR == Approx(1.0));
    CHECK(p.Q_evap / p.P == Approx(cop[i]).margin(0.06));
    CHECK(p.Q_cond == Approx(p.Q_evap + p.P));  // condenser balance (motor in the refrigerant)
  }
  // reference point: capacity within 1 % of the rating (the curves equal ~1 there)
  const ChillerPoint ref = chillerAt(c, 1, 1e9, 279.82, 302.59);
  CHECK(ref.Q_avail == Approx(1055e3 * 1.05 / 1.05).epsilon(0.015));
  // part load: 25/50/75 % -> COP 4.2/5.9/6.2 (docs/models/plant.md)
  const double plr[] = {0.25, 0.5, 0.75}, cop_pl[] = {4.2, 5.9, 6.2};
  for (int i = 0; i < 3; ++i) {
    const ChillerPoint p = chillerAt(c, 1, plr[i] * ref.Q_avail, 279.82, 302.59);
    CHECK(p.PLR == Approx(plr[i]));
    CHECK(p.Q_evap / p.P == Approx(cop_pl[i]).margin(0.1));
  }
  // two chillers share the load: each at half
  CHECK(chillerAt(c, 2, ref.Q_avail, 279.82, 302.59).PLR == Approx(0.5));
  CHECK(chillerAt(c, 0, 1e6, 279.82, 302.59).P == 0);
}

TEST_CASE("primary pumps: rated point, speed on the dp set point, failure", "[plant][pump]") {
  PlantPumpParams p;
  p.count = 2, p.running = 2;
  p.rated_flow = 0.05, p.rated_head = 250e3, p.shutoff_ratio = 1.3;
  p.header_dp = 50e3, p.design_flow = 0.1, p.dp_set = 200e3;
  // at design flow the set point needs exactly the rated head: full speed
  const PlantPumpPoint d = plantPumpPoint(p, 2, 0.1);
  CHECK(d.speed == Approx(1.0));
  CHECK(d.head == Approx(250e3));
  CHECK(d.dp_cdu == Approx(200e3));
  CHECK(d.P == Approx(0.1 * 250e3 / 0.7));
  // half the flow: the speed drops and the dp held (affinity laws)
  const PlantPumpPoint h = plantPumpPoint(p, 2, 0.05);
  CHECK(h.speed < 1.0);
  CHECK(h.dp_cdu == Approx(200e3));
  // one pump failed: the other cannot hold the set point at design flow
  const PlantPumpPoint f = plantPumpPoint(p, 1, 0.1);
  CHECK(f.speed == Approx(1.0));
  CHECK(f.dp_cdu < 200e3);
  CHECK(plantPumpPoint(p, 0, 0.1).dp_cdu == 0);
}

namespace {
PlantParams dryPlant(bool chiller) {
  PlantParams p;
  p.rejection = PlantParams::Rejection::DryCooler;
  p.dry.count = 1;
  p.dry.Q_nom = 1e6, p.dry.P_fan_nom = 40e3;
  p.has_chiller = chiller;
  p.chiller.count = 2;
  p.chiller.Q_ref = 600e3;
  p.T_set = 305.15;
  p.pump.dp_set = 150e3;
  sizePlant(p, cp);
  return p;
}
double closure(const PlantState& s) {
  // heat from the facility water + compressor work = heat to the air
  const double Q_in = s.m * cp * (s.T_return - s.T_supply);
  return (Q_in + s.P_chiller - s.Q_rejected) / s.Q_rejected;
}
}  // namespace

TEST_CASE("plant step: modes, energy balance to 0.1 %, set point held", "[plant][control]") {
  PlantParams p = dryPlant(true);
  const double m = 25, V = m / 995;  // 1 MW at 10 K range
  // cold day: free cooling on the set point, no chiller
  PlantState s;
  plantStep(p, s, 0, 315.15, m, V, cp, air(283.15, 278.15));
  CHECK(s.mode == PlantMode::Free);
  CHECK(s.T_supply == Approx(305.15).margin(0.01));
  CHECK(s.P_chiller == 0);
  CHECK(std::abs(closure(s)) < 1e-3);
  // hot day: the dry coolers cannot reach 32 degC; the chiller trims (partial mechanical)
  PlantState h;
  plantStep(p, h, 0, 315.15, m, V, cp, air(303.15, 293.15));
  CHECK(h.mode == PlantMode::Partial);
  CHECK(h.chillers_on >= 1);
  CHECK(h.T_supply == Approx(305.15).margin(0.01));
  CHECK(h.P_chiller > 0);
  CHECK(std::abs(closure(h)) < 1e-3);
  // hotter than the return: the economizer is useless, full mechanical with the fans off
  PlantState x;
  plantStep(p, x, 0, 315.15, m, V, cp, air(318.15, 298.15));
  CHECK(x.mode == PlantMode::Mechanical);
  CHECK(x.P_fan == 0);
  CHECK(std::abs(closure(x)) < 1e-3);
}

TEST_CASE("plant step: dead band and minimum run time, chiller trip, no chiller",
          "[plant][control]") {
  PlantParams p = dryPlant(true);
  const double m = 25, V = m / 995;
  PlantState s;
  plantStep(p, s, 0, 315.15, m, V, cp, air(303.15, 293.15));
  REQUIRE(s.chillers_on >= 1);
  // the weather cools at once: the chiller stays on for min_run, then goes off
  plantStep(p, s, 60, 315.15, m, V, cp, air(283.15, 278.15));
  CHECK(s.chillers_on >= 1);
  plantStep(p, s, 60 + p.min_run, 315.15, m, V, cp, air(283.15, 278.15));
  CHECK(s.chillers_on == 0);
  CHECK(s.mode == PlantMode::Free);
  // a chiller trip with both tripped: the supply rises above the set point
  PlantState t;
  t.chillers_tripped = 2;
  plantStep(p, t, 0, 315.15, m, V, cp, air(303.15, 293.15));
  CHECK(t.chillers_on == 0);
  CHECK(t.T_supply > 306.0);
  CHECK(std::abs(closure(t)) < 1e-3);
  // a plant without chillers does the same
  PlantParams q = dryPlant(false);
  PlantState u;
  plantStep(q, u, 0, 315.15, m, V, cp, air(303.15, 293.15));
  CHECK(u.T_supply == Approx(t.T_supply));
}

TEST_CASE("plant step: towers, water use and the loss of make-up water", "[plant][control]") {
  PlantParams p;
  p.rejection = PlantParams::Rejection::Tower;
  p.tower.count = 2, p.tower.m_nom = 25;
  p.hx_approach = 2;
  p.T_set = 305.15;
  sizePlant(p, cp);
  const double m = 25, V = m / 995;
  PlantState s;
  plantStep(p, s, 0, 315.15, m, V, cp, air(303.15, 293.15));
  CHECK(s.T_supply == Approx(305.15).margin(0.01));
  CHECK(s.evaporation > 0);
  CHECK(std::abs(closure(s)) < 1e-3);
  // site water per kWh rejected, evaporation + drift + blowdown at 3 cycles: about 2 L/kWh
  const double L = (s.evaporation + s.drift + s.blowdown) / s.Q_rejected * 3.6e6;
  CHECK(L > 1.5);
  CHECK(L < 2.6);
  // no make-up water: the towers stop, nothing is rejected, the supply is the return
  PlantState d;
  d.makeup_lost = true;
  plantStep(p, d, 0, 315.15, m, V, cp, air(303.15, 293.15));
  CHECK(d.Q_rejected == Approx(0).margin(1e-6));
  CHECK(d.T_supply == Approx(315.15));
  CHECK(d.evaporation == 0);
}

TEST_CASE("plant step: supply reset on the outdoor temperature", "[plant][control]") {
  PlantParams p = dryPlant(false);
  p.reset = true;
  p.reset_offset = 8;
  p.T_set_min = 300.15, p.T_set_max = 318.15;
  PlantState s;
  plantStep(p, s, 0, 320.15, 25, 25 / 995.0, cp, air(298.15, 290.15));
  CHECK(s.T_set == Approx(306.15));
  plantStep(p, s, 0, 320.15, 25, 25 / 995.0, cp, air(278.15, 273.15));
  CHECK(s.T_set == Approx(300.15));
}
