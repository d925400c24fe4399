#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "models/electrical.h"

using namespace dctwin;

namespace {
constexpr double kFt = 0.3048;  // m
constexpr double kSqrt3 = 1.7320508075688772;
double degC(double t) {
  return 273.15 + t;
}

// Eaton Pow-R-Way III 800 A Cu: R/X 2.30/1.20 mOhm per 100 ft L-N [K67], as in
// data/catalog/electrical/eaton_powrway3_cu_800a.yaml; 100 ft run
BuswayParams powrway800(double length = 100 * kFt) {
  BuswayParams b;
  b.R20_per_m = 2.30e-3 / (100 * kFt);
  b.X_per_m = 1.20e-3 / (100 * kFt);
  b.length = length;
  b.I_rated = 800;
  b.tau_thermal = 1800;
  b.V_LL = 415;
  b.pf = 1.0;
  return b;
}

// 80 PLUS Titanium 230 V internal redundant [K77, K78], 5.5 kW [K30]: psu_5p5kw_titanium.yaml
PsuParams titanium5500() {
  PsuParams p;
  p.P_rated = 5500;
  p.load = {0.10, 0.20, 0.50, 1.00};
  p.eta = {0.90, 0.94, 0.96, 0.91};
  p.P_standby = 25;
  return p;
}
ShelfParams gb200Shelf() {
  return ShelfParams{6, 3, titanium5500()};
}

// ups_double_conversion_1mw.yaml
UpsParams ups1mw() {
  UpsParams u;
  u.P_rated = 1e6;
  u.load = {0.10, 0.25, 0.50, 0.75, 1.00};
  u.eta = {0.90, 0.94, 0.96, 0.965, 0.96};
  u.battery_J = 100 * 3.6e6;  // 100 kWh
  u.P_standby = 8000;
  u.P_charge_max = 100e3;
  u.eta_charge = 0.95;
  return u;
}

// transformer_2500kva.yaml
TransformerParams tx2500() {
  return TransformerParams{2500e3, 1900, 16000};
}

// RK4 of C dT/dt = 3 I^2 L R(T) - (T - T_amb)/R_th, a check independent of the exact step
double buswayRk4(const BuswayParams& b, double I, double T_amb, double t_end, int n, double T) {
  const double R_th = buswayThermalResistance(b), C = b.tau_thermal / R_th;
  auto f = [&](double x) { return (buswayLoss(b, I, x) - (x - T_amb) / R_th) / C; };
  const double h = t_end / n;
  for (int i = 0; i < n; ++i) {
    const double k1 = f(T), k2 = f(T + 0.5 * h * k1), k3 = f(T + 0.5 * h * k2), k4 = f(T + h * k3);
    T += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return T;
}

// step a breaker at constant current until it trips or t_end; returns the trip time or -1
double stepUntilTrip(const BreakerParams& b, double I, double dt, double t_end) {
  BreakerState s;
  for (long k = 0; k * dt < t_end && !s.tripped; ++k) breakerStep(b, I, k * dt, dt, s);
  return s.tripped ? s.t_trip : -1;
}
}  // namespace

//---------------------------------------------------------------------------------------------
TEST_CASE("busway: 800 A Cu Pow-R-Way 100 ft worked example", "[electrical]") {
  BuswayParams b = powrway800();
  // a worked example (d): 4.4 kW loss and ~3.2 V drop; the example uses the tabulated R as is (20
  // degC here) and unity power factor
  const double P = buswayLoss(b, 800, degC(20));
  const double dV = buswayVoltageDrop(b, 800, degC(20));
  CHECK(P == Approx(4400).epsilon(0.05));
  CHECK(P == Approx(3 * 800.0 * 800.0 * 2.30e-3).epsilon(1e-12));  // 4416 W
  CHECK(dV == Approx(3.2).epsilon(0.05));
  CHECK(dV == Approx(kSqrt3 * 800 * 2.30e-3).epsilon(1e-12));  // 3.187 V
  // at pf 0.95 the reactance adds: sqrt3 800 (2.30 0.95 + 1.20 0.312) mOhm = 3.55 V
  b.pf = 0.95;
  CHECK(buswayVoltageDrop(b, 800, degC(20)) ==
        Approx(kSqrt3 * 800 * (2.30e-3 * 0.95 + 1.20e-3 * std::sqrt(1 - 0.95 * 0.95))));
  CHECK(buswayVoltageDrop(b, 800, degC(20)) == Approx(3.547).epsilon(1e-3));
  // I = P/(sqrt3 V pf): 569 kW at 415 V, pf 0.99 is the 800 A rating
  b.pf = 0.99;
  CHECK(buswayCurrent(b, 569.3e3, 415) == Approx(800).epsilon(1e-3));
  // the drop is odd-insensitive: reverse current gives the same magnitude
  CHECK(buswayVoltageDrop(b, -800, degC(20)) == Approx(buswayVoltageDrop(b, 800, degC(20))));
}

TEST_CASE("busway: copper resistance temperature coefficient", "[electrical]") {
  BuswayParams b = powrway800();
  CHECK(buswayResistance(b, degC(20)) == Approx(b.R20_per_m).epsilon(1e-15));
  // IEC 60028: R(T) = R20 [1 + 0.00393 (T - 20)]
  CHECK(buswayResistance(b, degC(95)) / b.R20_per_m == Approx(1 + 0.00393 * 75).epsilon(1e-14));
  CHECK(buswayResistance(b, degC(0)) / b.R20_per_m == Approx(1 - 0.00393 * 20).epsilon(1e-14));
  // at the 95 degC rated conductor temperature the 800 A loss is 29.5 % above the 20 degC value
  CHECK(buswayLoss(b, 800, degC(95)) == Approx(4416 * 1.29475).epsilon(1e-12));
}

TEST_CASE("busway: rated current gives the 55 K rise, thermal step exact", "[electrical]") {
  BuswayParams b = powrway800();
  // UL 857: rated current, 40 degC ambient -> 55 K rise [K67, K71]
  CHECK(buswaySteadyTemperature(b, 800, degC(40)) == Approx(degC(95)).epsilon(1e-14));
  CHECK(buswaySteadyTemperature(b, 0, degC(30)) == Approx(degC(30)).epsilon(1e-14));
  // half current: rise about a quarter, a little more than that because R(T) is lower when cooler
  const double T_half = buswaySteadyTemperature(b, 400, degC(40));
  CHECK(T_half - degC(40) > 55.0 / 4 * 0.8);
  CHECK(T_half - degC(40) < 55.0 / 4);
  // runaway beyond ~2.4 I_rated (G alpha >= 1)
  CHECK(std::isinf(buswaySteadyTemperature(b, 2000, degC(40))));

  SECTION("one long step equals many short steps, the closed form and RK4") {
    const double T0 = degC(40), Tamb = degC(40);
    const double one = buswayThermalStep(b, 800, Tamb, 3600, T0);
    double many = T0;
    for (int i = 0; i < 3600; ++i) many = buswayThermalStep(b, 800, Tamb, 1.0, many);
    CHECK(many == Approx(one).epsilon(1e-12));
    // closed form: tau_eff = tau/(1 - G alpha), G = 3 I^2 L R20 R_th
    const double G = 3 * 800.0 * 800.0 * b.length * b.R20_per_m * buswayThermalResistance(b);
    const double tau_eff = b.tau_thermal / (1 - G * b.alpha);
    const double Tss = buswaySteadyTemperature(b, 800, Tamb);
    CHECK(one == Approx(Tss + (T0 - Tss) * std::exp(-3600 / tau_eff)).epsilon(1e-13));
    CHECK(one == Approx(buswayRk4(b, 800, Tamb, 3600, 20000, T0)).epsilon(1e-10));
    // cooling down after the load is removed, from the hot state
    const double cool = buswayThermalStep(b, 0, Tamb, 1800, degC(95));
    CHECK(cool == Approx(Tamb + 55 * std::exp(-1.0)).epsilon(1e-13));
    // past runaway the same formula grows exponentially and agrees with RK4
    const double hot = buswayThermalStep(b, 2000, Tamb, 600, T0);
    CHECK(hot == Approx(buswayRk4(b, 2000, Tamb, 600, 20000, T0)).epsilon(1e-9));
  }
}

TEST_CASE("busway: evenly tapped loads", "[electrical]") {
  // n equal taps: loss factor sum_{k=1..n} (k/n)^2 / n, drop factor sum (k/n)/n
  for (int n : {1, 2, 4, 8, 20}) {
    double fl = 0, fd = 0;
    for (int k = 1; k <= n; ++k) {
      fl += (double(k) / n) * (double(k) / n) / n;
      fd += double(k) / n / n;
    }
    CHECK(buswayTapLossFactor(n) == Approx(fl).epsilon(1e-14));
    CHECK(buswayTapDropFactor(n) == Approx(fd).epsilon(1e-14));
  }
  CHECK(buswayTapLossFactor(1000) == Approx(1.0 / 3).epsilon(2e-3));  // distributed load
}

//---------------------------------------------------------------------------------------------
TEST_CASE("breaker: IEC 60898-1 conventional currents and the thermal element", "[electrical]") {
  BreakerParams mcb{63, breakerTauIec60898(1.3, 63), 1.3, 10};  // 63 A C curve
  REQUIRE(mcb.tau == Approx(std::sqrt(120.0) / std::log(6.5025 / (6.5025 - 1.69))));
  // 1.13 I_n holds for the conventional hour (stepped at 0.1 s); analytic: never
  CHECK(stepUntilTrip(mcb, 1.13 * 63, 0.1, 3600) < 0);
  CHECK(std::isinf(breakerTripTime(mcb, 1.13 * 63)));
  // 1.45 I_n trips within the hour, from cold (the stricter start)
  const double t145 = stepUntilTrip(mcb, 1.45 * 63, 0.1, 3600);
  CHECK(t145 > 0);
  CHECK(t145 < 3600);
  CHECK(t145 == Approx(59.3).epsilon(2e-3));
  // 2.55 I_n within 1-120 s (> 32 A) [K72-K74]
  const double t255 = breakerTripTime(mcb, 2.55 * 63);
  CHECK(t255 == Approx(std::sqrt(120.0)).epsilon(1e-12));
  // a 32 A breaker uses the 1-60 s band
  CHECK(breakerTripTime(BreakerParams{32, breakerTauIec60898(1.3, 32)}, 2.55 * 32) ==
        Approx(std::sqrt(60.0)).epsilon(1e-12));

  SECTION("analytic trip time against stepping at dt = 0.1 s") {
    for (double m : {1.35, 1.45, 2.0, 3.0, 5.0, 9.0}) {
      const double ta = breakerTripTime(mcb, m * 63);
      const double ts = stepUntilTrip(mcb, m * 63, 0.1, 7200);
      CHECK(ts == Approx(ta).epsilon(0.01));
      CHECK(std::abs(ts - ta) < 1e-9 * ta + 1e-12);  // the crossing inside the step is exact
    }
    // the tau ln form: 2 I_n trips at tau ln(4/(4 - 1.69))
    CHECK(breakerTripTime(mcb, 2 * 63) == Approx(mcb.tau * std::log(4 / 2.31)));
    // warm start shortens it
    CHECK(breakerTripTime(mcb, 2 * 63, 1.0) < breakerTripTime(mcb, 2 * 63));
  }
  SECTION("magnetic trip is instantaneous at the multiple") {
    BreakerState s;
    breakerStep(mcb, 10 * 63, 5.0, 0.1, s);
    CHECK(s.tripped);
    CHECK(s.t_trip == 5.0);
    CHECK(breakerTripTime(mcb, 10 * 63) == 0.0);
    BreakerState below;
    breakerStep(mcb, 9.9 * 63, 5.0, 0.1, below);  // thermal only: 0.63 s
    CHECK_FALSE(below.tripped);
    CHECK(breakerTripTime(mcb, 9.9 * 63) == Approx(0.633).epsilon(2e-3));
    // latched until reset
    breakerStep(mcb, 0, 5.1, 0.1, s);
    CHECK(s.tripped);
    breakerReset(s);
    CHECK_FALSE(s.tripped);
    CHECK(s.theta == 0);
  }
  SECTION("theta relaxes to (I/I_n)^2") {
    BreakerState s;
    breakerStep(mcb, 63, 0, 1e4, s);
    CHECK(s.theta == Approx(1.0).epsilon(1e-12));
    CHECK_FALSE(s.tripped);
  }
}

TEST_CASE("breaker: time-constant bands (IEC 60898-1, IEC 60947-2)", "[electrical]") {
  // band from the conventional pair alone
  BreakerTauBand band = breakerTauBand(1.3, 1.13, 1.45, 3600);
  CHECK(band.tau_min == 0);
  CHECK(band.tau_max == Approx(3600 / std::log(2.1025 / (2.1025 - 1.69))));
  band = breakerTauBand(1.10, 1.13, 1.45, 3600);  // k below the hold multiple: a lower bound
  CHECK(band.tau_min == Approx(3600 / std::log(1.2769 / (1.2769 - 1.21))));
  CHECK(band.tau_min < band.tau_max);
  band = breakerTauBand(1.5, 1.13, 1.45, 3600);  // never trips at 1.45 I_n: empty
  CHECK(band.tau_min > band.tau_max);
  CHECK_THROWS_AS(breakerTauIec60898(1.5, 63), std::invalid_argument);

  // every tau the helper returns meets the pair when stepped
  for (double k : {1.15, 1.25, 1.3, 1.4}) {
    BreakerParams b{63, breakerTauIec60898(k, 63), k, 10};
    CHECK(stepUntilTrip(b, 1.13 * 63, 0.5, 3600) < 0);
    const double t = breakerTripTime(b, 1.45 * 63);
    CHECK(t < 3600);
    CHECK(breakerTripTime(b, 2.55 * 63) >= 1.0);
    CHECK(breakerTripTime(b, 2.55 * 63) <= 120.0);
  }
  // IEC 60947-2 MCCB, 800 A, k = 1.2: 1.05 I_n holds, 1.30 I_n trips at 30 min
  BreakerParams mccb{800, breakerTauIec60947(1.2), 1.2, 10};
  CHECK(mccb.tau == Approx(1800 / std::log(1.69 / 0.25)));
  CHECK(stepUntilTrip(mccb, 1.05 * 800, 1.0, 3600) < 0);
  CHECK(stepUntilTrip(mccb, 1.30 * 800, 0.1, 3600) == Approx(1800).epsilon(1e-9));
  CHECK_THROWS_AS(breakerTauIec60947(1.3), std::invalid_argument);
}

//---------------------------------------------------------------------------------------------
TEST_CASE("PSU: 80 PLUS Titanium points, standby, shelf load sharing", "[electrical]") {
  const PsuParams p = titanium5500();
  REQUIRE_NOTHROW(checkEfficiencyCurve(p.load, p.eta, "psu"));
  // the published points are reproduced exactly [K77, K78]
  for (std::size_t i = 0; i < p.load.size(); ++i) {
    const double P_out = p.load[i] * p.P_rated;
    CHECK(psuInputPower(p, P_out) == Approx(P_out / p.eta[i]).epsilon(1e-14));
  }
  // the loss is linear between points: 35 % is halfway between the 20 % and 50 % losses
  const double l20 = 0.2 * (1 / 0.94 - 1), l50 = 0.5 * (1 / 0.96 - 1), l100 = 1 / 0.91 - 1;
  CHECK(efficiencyAt(p.load, p.eta, 0.35) ==
        Approx(0.35 / (0.35 + 0.5 * (l20 + l50))).epsilon(1e-14));
  CHECK(efficiencyAt(p.load, p.eta, 0.35) == Approx(0.9542).epsilon(1e-4));
  // held at the ends; below 10 % the standby term fades in: 5 % -> P/0.90 + 25 W / 2
  CHECK(efficiencyAt(p.load, p.eta, 1.2) == 0.91);
  CHECK(psuInputPower(p, 275) == Approx(275 / 0.90 + 12.5).epsilon(1e-14));
  CHECK(psuInputPower(p, 0) == 25);
  // continuous at 10 % and the loss keeps rising with load
  CHECK(psuInputPower(p, 550 * (1 - 1e-9)) == Approx(psuInputPower(p, 550)).epsilon(1e-8));
  double prev = -1;
  for (double x = 0; x <= 1.0; x += 0.01) {
    const double loss = psuInputPower(p, x * p.P_rated) - x * p.P_rated;
    CHECK(loss > prev);
    prev = loss;
  }

  const ShelfParams s = gb200Shelf();
  CHECK(shelfRatedPower(s) == Approx(16.5e3));  // N of N+N
  bool over = true, lost = true;
  // 50 % load on all six PSUs: P/0.96
  CHECK(shelfInputPower(s, 16.5e3, 0, &over, &lost) == Approx(16.5e3 / 0.96).epsilon(1e-14));
  CHECK_FALSE(over);
  CHECK_FALSE(lost);
  // two failed: four PSUs at 75 %, loss halfway between the 50 % and 100 % losses (eta 92.6 %)
  const double P2 = shelfInputPower(s, 16.5e3, 2, &over);
  CHECK(P2 == Approx(16.5e3 + 4 * 5500 * 0.5 * (l50 + l100)).epsilon(1e-14));
  CHECK(16.5e3 / P2 == Approx(0.926).epsilon(1e-3));
  CHECK_FALSE(over);
  // three failed (N+N limit): three at 100 %
  CHECK(shelfInputPower(s, 16.5e3, 3, &over) == Approx(16.5e3 / 0.91).epsilon(1e-14));
  CHECK_FALSE(over);
  // four failed: 11 kW of PSUs for 16.5 kW -> overload flagged
  shelfInputPower(s, 16.5e3, 4, &over, &lost);
  CHECK(over);
  CHECK_FALSE(lost);
  // all failed: nothing delivered
  CHECK(shelfInputPower(s, 16.5e3, 6, &over, &lost) == 0);
  CHECK(lost);
  // idle shelf: six standby draws
  CHECK(shelfInputPower(s, 0, 0) == Approx(6 * 25));

  CHECK_THROWS_AS(checkEfficiencyCurve({0.5, 0.2}, {0.9, 0.9}, "psu"), std::invalid_argument);
  CHECK_THROWS_AS(checkEfficiencyCurve({0.2, 0.5}, {0.9, 1.1}, "psu"), std::invalid_argument);
  CHECK_THROWS_AS(checkEfficiencyCurve({0.2, 0.5}, {0.9}, "psu"), std::invalid_argument);
}

//---------------------------------------------------------------------------------------------
TEST_CASE("UPS: efficiency curve, battery discharge and recharge", "[electrical]") {
  const UpsParams u = ups1mw();
  REQUIRE_NOTHROW(checkEfficiencyCurve(u.load, u.eta, "ups"));
  UpsState s;
  s.soc_J = u.battery_J;
  bool dropped = true;
  // online at 50 %: P/0.96 from utility, full battery stays full
  CHECK(upsStep(u, 500e3, true, 1.0, s, &dropped) == Approx(500e3 / 0.96).epsilon(1e-14));
  CHECK_FALSE(dropped);
  CHECK_FALSE(s.on_battery);
  CHECK(s.P_loss == Approx(500e3 / 0.96 - 500e3));
  CHECK(s.soc_J == u.battery_J);
  // light load: 25 % -> 94 %; 10 % -> 90 %; no load -> standby
  CHECK(upsStep(u, 250e3, true, 1.0, s) == Approx(250e3 / 0.94).epsilon(1e-14));
  CHECK(upsStep(u, 100e3, true, 1.0, s) == Approx(100e3 / 0.90).epsilon(1e-14));
  CHECK(upsStep(u, 0, true, 1.0, s) == Approx(8000));

  SECTION("utility lost: the battery carries output + conversion loss until empty") {
    const double draw = 500e3 / 0.96;  // W from the battery
    double P_in = upsStep(u, 500e3, false, 1.0, s, &dropped);
    CHECK(P_in == 0);
    CHECK(s.on_battery);
    CHECK(s.P_battery == Approx(draw).epsilon(1e-14));
    CHECK(u.battery_J - s.soc_J == Approx(draw * 1.0).epsilon(1e-12));
    // runtime: 360 MJ / 520.8 kW = 691.2 s; the step that cannot be carried drops the load
    int steps = 1;
    while (true) {
      upsStep(u, 500e3, false, 1.0, s, &dropped);
      if (dropped) break;
      ++steps;
    }
    CHECK(steps == static_cast<int>(u.battery_J / draw));
    CHECK(s.soc_J >= 0);
    CHECK(s.soc_J < draw);
    CHECK(s.P_battery == 0);
    // utility back: online, recharging at 100 kW of which 95 % is stored
    const double soc0 = s.soc_J;
    P_in = upsStep(u, 500e3, true, 10.0, s, &dropped);
    CHECK_FALSE(dropped);
    CHECK(P_in == Approx(draw + 100e3).epsilon(1e-14));
    CHECK(s.soc_J - soc0 == Approx(0.95 * 100e3 * 10).epsilon(1e-12));
    CHECK(s.P_loss == Approx(draw - 500e3 + 5e3).epsilon(1e-12));
    // recharge stops exactly at full
    for (int i = 0; i < 400; ++i) upsStep(u, 500e3, true, 10.0, s);
    CHECK(s.soc_J == Approx(u.battery_J).epsilon(1e-15));
    CHECK(upsStep(u, 500e3, true, 10.0, s) == Approx(draw).epsilon(1e-14));
  }
}

TEST_CASE("transformer losses and PUE", "[electrical]") {
  const TransformerParams t = tx2500();
  CHECK(transformerLoss(t, 2500e3, 1.0) == Approx(1900 + 16000));
  CHECK(transformerLoss(t, 0, 1.0) == Approx(1900));
  // 50 % load, pf 1: 99.53 %, the assumed DOE 2016 level for a 2500 kVA liquid-immersed unit
  const double P = 1250e3;
  CHECK(P / (P + transformerLoss(t, P, 1.0)) == Approx(0.9953).epsilon(1e-4));
  // the load loss follows the apparent power: 1/pf^2
  CHECK(transformerLoss(t, P, 0.9) - 1900 == Approx(4000 / 0.81).epsilon(1e-14));

  PueComponents c;
  c.Q_it = 1e6;
  c.W_cdu_pumps = 20e3;
  c.W_plant_pumps = 30e3;
  c.W_towers = 10e3;
  c.P_dist_losses = 40e3;
  CHECK(pueExaDigiT(c) == Approx(1.06));
  CHECK(pueTotal(c) == Approx(1.10));
  c.Q_it = 0;
  CHECK(std::isnan(pueExaDigiT(c)));
}

//---------------------------------------------------------------------------------------------
TEST_CASE("power chain: utility = load + every loss, online and on battery", "[electrical]") {
  // one row: 4 GB200 NVL72 racks, 8 shelves each, on one 800 A busway at 415 V (tap-offs evenly
  // spaced over 30 m) -> UPS 1 MW -> transformer 2500 kVA; 63 A MCBs per shelf, 800 A MCCB feeder
  const ShelfParams shelf = gb200Shelf();
  BuswayParams bus = powrway800(30.0);
  bus.pf = 0.99;
  const UpsParams ups = ups1mw();
  const TransformerParams tx = tx2500();
  BreakerParams mcb{63, breakerTauIec60898(1.3, 63), 1.3, 10};
  BreakerParams mccb{800, breakerTauIec60947(1.2), 1.2, 10};
  const double P_dc[4] = {125e3, 118e3, 60e3, 131e3};  // rack DC loads (W)
  const int failed[4] = {0, 1, 0, 3};                  // failed PSUs in shelf 0 of each rack

  UpsState us;
  us.soc_J = ups.battery_J;
  BreakerState mcb_s[4][8], mccb_s;
  double T_bus = degC(40);
  const double dt = 0.1;
  for (bool utility_ok : {true, false}) {
    double P_load = 0, P_racks_in = 0, shelf_loss = 0;
    for (int r = 0; r < 4; ++r) {
      P_load += P_dc[r];
      for (int k = 0; k < 8; ++k) {
        const double P_sh = P_dc[r] / 8;
        const double P_in = shelfInputPower(shelf, P_sh, k == 0 ? failed[r] : 0);
        shelf_loss += P_in - P_sh;
        P_racks_in += P_in;
        breakerStep(mcb, buswayCurrent(bus, P_in, bus.V_LL), 0, dt, mcb_s[r][k]);
        CHECK_FALSE(mcb_s[r][k].tripped);  // ~23 A per shelf
      }
    }
    const double I_bus = buswayCurrent(bus, P_racks_in, bus.V_LL);
    const double P_bus = buswayLoss(bus, I_bus, T_bus) * buswayTapLossFactor(4);
    T_bus = buswayThermalStep(bus, I_bus * std::sqrt(buswayTapLossFactor(4)), degC(40), dt, T_bus);
    breakerStep(mccb, I_bus, 0, dt, mccb_s);
    CHECK_FALSE(mccb_s.tripped);
    CHECK(I_bus < 800);
    const double P_ups_out = P_racks_in + P_bus;
    const double P_ups_in = upsStep(ups, P_ups_out, utility_ok, dt, us);
    const double P_utility = utility_ok ? P_ups_in + transformerLoss(tx, P_ups_in, 0.99) : 0.0;
    const double P_tx = utility_ok ? transformerLoss(tx, P_ups_in, 0.99) : 0.0;
    // utility + battery discharge = DC load + shelf + busway + UPS + transformer losses
    const double sources = P_utility + us.P_battery;
    const double sinks = P_load + shelf_loss + P_bus + us.P_loss + P_tx;
    CHECK(std::abs(sources - sinks) <= 1e-12 * sinks);
    // the chain losses are a few percent of the load
    CHECK((sinks - P_load) / P_load > 0.03);
    CHECK((sinks - P_load) / P_load < 0.12);
  }
}
