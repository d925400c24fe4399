// electrical.h: power distribution from the utility to the rack DC busbar
// (docs/models/electrical.md)
//
// chain, evaluated each GPU step from the racks' DC power outward (all powers are mean rates over
// the step; AC quantities are 3-phase line currents and line-to-line voltages):
//   rack shelves   P_in = P_out/eta at the 80 PLUS points per PSU (curve below), load shared
//                  by the working PSUs                                                 [K77, K78]
//   tap-off breaker (no loss) thermal element theta, magnetic trip                  [K72-K76]
//   busway         I = P/(sqrt3 V pf);  P_loss = 3 I^2 R(T) L;  dV = sqrt3 I L (R cos + X sin)
//   [K67]
//                  R(T) = R20 [1 + alpha (T - 20 degC)]  (Cu alpha = 0.00393 /K)
//                  C_th dT/dt = P_loss(T) - (T - T_amb)/R_th,  R_th: rated I gives the 55 K rise
//                  (a)
//   UPS            double conversion P_in = P_out/eta(load); on battery the same draw comes from
//                  the battery's stored energy                                            [K80-K82]
//   transformer    P_loss = P_no_load + P_load_rated (S/S_rated)^2,  S = P/pf               (a)
// breaker thermal element (a):   tau dtheta/dt = (I/I_n)^2 - theta,  trip at theta >= k^2,
//                                 t_trip = tau ln[(I/I_n)^2 / ((I/I_n)^2 - k^2)] from cold;
//                                 magnetic (instantaneous) trip at I >= m I_n (3-20 I_n per curve)
// efficiency curves: the loss l_i = x_i (1/eta_i - 1) P_rated at the published points, linear in
// the load fraction x = P_out/P_rated between them (losses grow smoothly with load, while eta
// linear in x would make the loss fall between 10 % and 20 % on the 80 PLUS data); outside the
// points eta is held at the end values; below the first point x_0 a standby loss fades in to
// P_standby at zero load:
//   P_in = P_out + l(x) + P_standby max(0, 1 - x/x_0)
// every per-step function is allocation-free; PsuParams/UpsParams own their curves.
#pragma once

#include <vector>

namespace dctwin {

// ----- efficiency curves ---------------------------------------------------------------------

// throws std::invalid_argument (naming `what`) unless load and eta have the same length >= 1,
// load is strictly increasing and > 0, and every eta lies in (0, 1]
void checkEfficiencyCurve(const std::vector<double>& load, const std::vector<double>& eta,
                          const char* what);
// efficiency at load fraction x without the standby term: x/(x + l(x)/P_rated); equal to eta_i at
// the points and to the end values outside them
double efficiencyAt(const std::vector<double>& load, const std::vector<double>& eta, double x);

// ----- PSU and power shelf -------------------------------------------------------------------

struct PsuParams {
  double P_rated = 0;        // rated DC output                                        (W)
  std::vector<double> load;  // load fractions P_out/P_rated of the curve points        (1)
  std::vector<double> eta;   // efficiency P_out/P_in at those points                   (1)
  double P_standby = 0;      // input power at zero output, per PSU (a)                 (W)
};

// AC input power of one PSU delivering P_out (W); P_out <= 0 gives P_standby
double psuInputPower(const PsuParams& p, double P_out);

struct ShelfParams {
  int psu_count = 0;      // PSUs installed                                             (1)
  int psu_redundant = 0;  // PSUs that may fail with the shelf still at its N rating; N+N: count/2
  PsuParams psu;
};

// N rating of the shelf: (psu_count - psu_redundant) P_rated                               (W)
double shelfRatedPower(const ShelfParams& s);

// AC input power (W) of a shelf delivering P_out (W, DC) with `failed` PSUs out; the working PSUs
// share the load equally (active current sharing). Sets *overload when P_out exceeds the working
// PSUs' combined rating (the power is still computed, eta held at its last point), *lost when no
// PSU works (returns 0: nothing is delivered). Failed PSUs draw nothing.
double shelfInputPower(const ShelfParams& s, double P_out, int failed, bool* overload = nullptr,
                       bool* lost = nullptr);
// the same for `shelves` such shelves on one busbar, pooled (their PSUs share the load)
double shelvesInputPower(const ShelfParams& s, int shelves, double P_out, int failed,
                         bool* overload = nullptr, bool* lost = nullptr);

// ----- busway --------------------------------------------------------------------------------

struct BuswayParams {
  double R20_per_m = 0;         // phase resistance at 20 degC, line-to-neutral           (ohm/m)
  double X_per_m = 0;           // phase reactance, line-to-neutral                       (ohm/m)
  double length = 0;            // run length                                             (m)
  double alpha = 0.00393;       // resistance temperature coefficient (Cu, IEC 60028)     (1/K)
  double I_rated = 0;           // rated line current                                     (A)
  double T_amb_rated = 313.15;  // ambient of the rating (40 degC, UL 857)                (K)
  double dT_rated = 55;         // conductor rise over T_amb_rated at I_rated             (K)
  double tau_thermal = 0;       // C_th R_th, the time constant at zero current           (s)
  double V_LL = 415;            // line-to-line voltage                                   (V)
  double pf = 1;                // load power factor cos(phi)                             (1)
};

// phase resistance per metre at conductor temperature T_cond (K)                          (ohm/m)
double buswayResistance(const BuswayParams& b, double T_cond);
// 3 I^2 R(T) L (W)
double buswayLoss(const BuswayParams& b, double I, double T_cond);
// line-to-line drop sqrt3 I L (R(T) cos(phi) + X sin(phi)) with cos(phi) = b.pf (V)
double buswayVoltageDrop(const BuswayParams& b, double I, double T_cond);
// line current for a 3-phase load P_load at V_LL and b.pf: P/(sqrt3 V pf) (A)
double buswayCurrent(const BuswayParams& b, double P_load, double V_LL);

// n equal loads at equal spacing L/n, fed from one end, the last at the far end: the loss is
// 3 I^2 R L f_loss(n) and the far-end drop dV(I) f_drop(n), I the feed current (n <= 1: 1)
//   f_loss = (n+1)(2n+1)/(6 n^2),  f_drop = (n+1)/(2n)
// the same loss as a uniform current I sqrt(f_loss): pass that to the thermal functions
double buswayTapLossFactor(int n);
double buswayTapDropFactor(int n);

// thermal resistance conductor -> ambient that gives dT_rated at I_rated, T_amb_rated   (K/W)
double buswayThermalResistance(const BuswayParams& b);
// steady conductor temperature at constant I and ambient T_amb (K); +infinity past thermal
// runaway (3 I^2 L R20 alpha R_th >= 1, about 2.4 I_rated for Cu at the 55 K rule)
double buswaySteadyTemperature(const BuswayParams& b, double I, double T_amb);
// exact step of C_th dT/dt = 3 I^2 L R(T) - (T - T_amb)/R_th over dt at constant I and T_amb:
// the equation is linear in T, so T -> T_ss + (T - T_ss) exp(-dt/tau_eff) with
// tau_eff = tau_thermal/(1 - 3 I^2 L R20 alpha R_th) (also exact past runaway); returns T (K)
double buswayThermalStep(const BuswayParams& b, double I, double T_amb, double dt, double T_cond);

// ----- breakers ------------------------------------------------------------------------------

struct BreakerParams {
  double I_n = 0;                 // rated current                                       (A)
  double tau = 0;                 // thermal element time constant                       (s)
  double k_trip = 1.3;            // thermal trip at theta >= k_trip^2 (steady I = k I_n) (1)
  double magnetic_multiple = 10;  // instantaneous trip at I >= multiple I_n             (1)
};

struct BreakerState {
  double theta = 0;      // thermal element, (I/I_n)^2 at steady state                   (1)
  bool tripped = false;  // latched until breakerReset
  double t_trip = -1;    // time of the trip (s); -1 while closed
};

// advance the breaker over [t, t + dt] at constant |I| (exact exponential step); a thermal trip
// inside the step records its exact crossing time, a magnetic trip the step start t. A tripped
// breaker stays tripped (the caller then sets the downstream current to zero).
void breakerStep(const BreakerParams& b, double I, double t, double dt, BreakerState& s);
// the same with decay = exp(-dt / b.tau) given (breakers of one kind stepped together share it)
void breakerStep(const BreakerParams& b, double I, double t, double dt, double decay,
                 BreakerState& s);
// exp(-dt / b.tau), 0 without a thermal element
double breakerDecay(const BreakerParams& b, double dt);
// reclose: cold thermal element
inline void breakerReset(BreakerState& s) {
  s = BreakerState{};
}
// analytic trip time at constant I from theta0 (s): 0 at or above the magnetic multiple,
// +infinity when (I/I_n)^2 <= k_trip^2 (never trips), else tau ln[(r - theta0)/(r - k^2)]
double breakerTripTime(const BreakerParams& b, double I, double theta0 = 0);

// time constants for which a thermal element with k_trip meets a conventional pair from cold:
// holds hold_multiple I_n for at least t_conv and trips at trip_multiple I_n within t_conv.
// tau_min = 0 when k_trip > hold_multiple (it never trips there); empty (tau_min > tau_max)
// when k_trip >= trip_multiple
struct BreakerTauBand {
  double tau_min = 0, tau_max = 0;  // (s)
};
BreakerTauBand breakerTauBand(double k_trip, double hold_multiple, double trip_multiple,
                              double t_conv);
// IEC 60898-1 MCB [K72-K74]: 1.13 I_n holds and 1.45 I_n trips within t_conv
// (1 h for I_n <= 63 A, 2 h above), narrowed by the 2.55 I_n band (1-60 s for I_n <= 32 A,
// 1-120 s above); returns the geometric middle of the intersected band (k_trip = 1.3: 2.55 I_n
// trips at sqrt(60) = 7.7 s or sqrt(120) = 11 s, 1.45 I_n at 42 s or 59 s). Throws
// std::invalid_argument when the band is empty (k_trip >= 1.45, or far below 1.13)
double breakerTauIec60898(double k_trip, double I_n);
// IEC 60947-2 MCCB [K72]: 1.05 I_n holds and 1.30 I_n trips within 1 h; returns
// the tau at which 1.30 I_n trips at 30 min, half the conventional time (a).
// Throws std::invalid_argument when that tau is outside the band (k_trip >= 1.30, or far
// below 1.05)
double breakerTauIec60947(double k_trip);

// ----- UPS -----------------------------------------------------------------------------------

struct UpsParams {
  double P_rated = 0;        // rated output                                          (W)
  std::vector<double> load;  // load fractions of the efficiency points               (1)
  std::vector<double> eta;   // double-conversion efficiency at those points          (1)
  double battery_J = 0;      // usable battery energy                                 (J)
  double P_standby = 0;      // input at zero output (fans, control, magnetics) (a)   (W)
  double P_charge_max = 0;   // recharge power drawn from utility; 0: no recharge     (W)
  double eta_charge = 0.95;  // share of the recharge power stored (a)                (1)
};

struct UpsState {
  double soc_J = 0;         // stored battery energy (J); set the initial charge
  bool on_battery = false;  // last step ran from the battery
  // flows of the last step, mean rates (W): P_in = P_out + P_loss - P_battery (P_out: as
  // delivered, 0 when dropped)
  double P_loss = 0;     // conversion + standby + charging loss                    (W)
  double P_battery = 0;  // rate of change of -soc: > 0 discharging, < 0 charging    (W)
  double P_charge = 0;   // utility power drawn for recharging (eta_charge of it stored) (W)
};

// conversion loss at output P_out (W): P_out/eta(x) - P_out plus the standby term
double upsConversionLoss(const UpsParams& u, double P_out);
// one step of length dt at output P_out (W). utility_ok: online double conversion, the battery
// recharges at up to P_charge_max. Utility lost: battery mode, the battery supplies
// P_out + conversion loss (the inverter runs as online; the DC/DC replaces the rectifier (a)),
// so soc falls by (P_out/eta(x) + standby) dt. When the charge left cannot carry the whole step,
// *dropped is set, nothing is delivered (the inverter cuts out at the step start) and the
// remainder stays in soc. Returns the utility input power (W; 0 on battery).
double upsStep(const UpsParams& u, double P_out, bool utility_ok, double dt, UpsState& s,
               bool* dropped = nullptr);

// ----- transformer ---------------------------------------------------------------------------

struct TransformerParams {
  double S_rated = 0;       // rated apparent power                                    (VA)
  double P_no_load = 0;     // core loss at rated voltage, any load                     (W)
  double P_load_rated = 0;  // winding (I^2 R) loss at S_rated                           (W)
};
// loss at output active power P and power factor pf: P_no_load + P_load_rated (P/(pf S_rated))^2
double transformerLoss(const TransformerParams& t, double P, double pf);

// ----- PUE -----------------------------------------------------------------------------------

// facility power by component (W). dctwin computes today: Q_it, W_cdu_pumps, P_dist_losses
// (busway, UPS, transformer; the PSU losses are inside the racks, hence IT). The plant pumps, the
// cooling towers and the other loads come with the central-plant model; they stay 0 until then.
struct PueComponents {
  double Q_it = 0;           // IT power = heat of the IT equipment (rack AC input)      (W)
  double W_cdu_pumps = 0;    // CDU secondary pumps (ExaDigiT W_CDUP)                     (W)
  double W_plant_pumps = 0;  // facility pumps (ExaDigiT W_HTWP + W_CTWP); not modelled yet (W)
  double W_towers = 0;       // cooling tower fans (ExaDigiT W_CT); not modelled yet       (W)
  double P_dist_losses = 0;  // power-chain losses upstream of the racks                  (W)
  double P_other = 0;        // lighting, room-air handling, ...; not modelled yet          (W)
};
// ExaDigiT/RAPS (its PUE definition; no entry in docs/references.md yet): (Q_it + W_CDUP + W_HTWP +
// W_CTWP + W_CT)/Q_it, without the power-chain losses and other loads; NaN when Q_it <= 0
double pueExaDigiT(const PueComponents& c);
// total facility power over IT power (The Green Grid form): adds P_dist_losses and P_other
double pueTotal(const PueComponents& c);

}  // namespace dctwin
