#include "models/electrical.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dctwin {

namespace {
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kT20 = 293.15;  // reference temperature of R20 (K)
constexpr double kInf = std::numeric_limits<double>::infinity();

// loss per unit of rated power at load fraction x >= 0: x (1/eta - 1) at and outside the end
// points, linear in x between the points
double lossFraction(const std::vector<double>& load, const std::vector<double>& eta, double x) {
  const std::size_t n = load.size();
  if (x <= load.front()) return x * (1.0 / eta.front() - 1.0);
  if (x >= load[n - 1]) return x * (1.0 / eta[n - 1] - 1.0);
  std::size_t i = 1;
  while (load[i] < x) ++i;  // load[i-1] < x <= load[i]
  const double l0 = load[i - 1] * (1.0 / eta[i - 1] - 1.0), l1 = load[i] * (1.0 / eta[i] - 1.0);
  return l0 + (x - load[i - 1]) / (load[i] - load[i - 1]) * (l1 - l0);
}

// P_out + l(x) P_rated + P_standby max(0, 1 - x/x0): the input of a converter with a curve
double curveInput(double P_rated, const std::vector<double>& load, const std::vector<double>& eta,
                  double P_standby, double P_out) {
  if (P_out <= 0) return P_standby;
  const double x = P_out / P_rated;
  const double fade = std::max(0.0, 1.0 - x / load.front());
  return P_out + lossFraction(load, eta, x) * P_rated + P_standby * fade;
}

// (1 - exp(-a dt))/a, dt as a -> 0; exact for any sign of a
double relaxFactor(double a, double dt) {
  if (a == 0.0) return dt;
  return -std::expm1(-a * dt) / a;
}
}  // namespace

//---------------------------------------------------------------------------------------------
void checkEfficiencyCurve(const std::vector<double>& load, const std::vector<double>& eta,
                          const char* what) {
  const std::string w = what;
  if (load.empty() || load.size() != eta.size())
    throw std::invalid_argument(
        w + ": efficiency curve needs load and eta of the same length >= 1 (" +
        std::to_string(load.size()) + " loads, " + std::to_string(eta.size()) + " etas)");
  for (std::size_t i = 0; i < load.size(); ++i) {
    if (!std::isfinite(load[i]) || load[i] <= 0 || (i > 0 && load[i] <= load[i - 1]))
      throw std::invalid_argument(w +
                                  ": efficiency curve loads must be > 0 and strictly increasing");
    if (!std::isfinite(eta[i]) || eta[i] <= 0 || eta[i] > 1)
      throw std::invalid_argument(w + ": efficiency " + std::to_string(eta[i]) + " outside (0, 1]");
  }
}

double efficiencyAt(const std::vector<double>& load, const std::vector<double>& eta, double x) {
  if (x <= load.front()) return eta.front();
  if (x >= load.back()) return eta.back();
  return x / (x + lossFraction(load, eta, x));
}

//---------------------------------------------------------------------------------------------
double psuInputPower(const PsuParams& p, double P_out) {
  return curveInput(p.P_rated, p.load, p.eta, p.P_standby, P_out);
}

double shelfRatedPower(const ShelfParams& s) {
  return (s.psu_count - s.psu_redundant) * s.psu.P_rated;
}

double shelfInputPower(const ShelfParams& s, double P_out, int failed, bool* overload, bool* lost) {
  return shelvesInputPower(s, 1, P_out, failed, overload, lost);
}

double shelvesInputPower(const ShelfParams& s, int shelves, double P_out, int failed,
                         bool* overload, bool* lost) {
  if (overload) *overload = false;
  if (lost) *lost = false;
  const int count = s.psu_count * shelves;
  const int working = count - std::clamp(failed, 0, count);
  if (working <= 0) {
    if (lost) *lost = true;
    return 0.0;
  }
  if (overload && P_out > working * s.psu.P_rated) *overload = true;
  return working * psuInputPower(s.psu, P_out / working);
}

//---------------------------------------------------------------------------------------------
double buswayResistance(const BuswayParams& b, double T_cond) {
  return b.R20_per_m * (1.0 + b.alpha * (T_cond - kT20));
}

double buswayLoss(const BuswayParams& b, double I, double T_cond) {
  return 3.0 * I * I * buswayResistance(b, T_cond) * b.length;
}

double buswayVoltageDrop(const BuswayParams& b, double I, double T_cond) {
  const double c = std::clamp(b.pf, 0.0, 1.0);
  const double sn = std::sqrt(1.0 - c * c);
  return kSqrt3 * std::abs(I) * b.length * (buswayResistance(b, T_cond) * c + b.X_per_m * sn);
}

double buswayCurrent(const BuswayParams& b, double P_load, double V_LL) {
  return P_load / (kSqrt3 * V_LL * b.pf);
}

double buswayTapLossFactor(int n) {
  if (n <= 1) return 1.0;
  const double m = n;
  return (m + 1.0) * (2.0 * m + 1.0) / (6.0 * m * m);
}

double buswayTapDropFactor(int n) {
  if (n <= 1) return 1.0;
  const double m = n;
  return (m + 1.0) / (2.0 * m);
}

double buswayThermalResistance(const BuswayParams& b) {
  return b.dT_rated / buswayLoss(b, b.I_rated, b.T_amb_rated + b.dT_rated);
}

// in u = T - 20 degC: tau du/dt = G (1 + alpha u) - (u - u_amb),  G = 3 I^2 L R20 R_th
double buswaySteadyTemperature(const BuswayParams& b, double I, double T_amb) {
  const double G = 3.0 * I * I * b.length * b.R20_per_m * buswayThermalResistance(b);
  const double a = 1.0 - G * b.alpha;
  if (a <= 0) return kInf;
  return kT20 + (T_amb - kT20 + G) / a;
}

double buswayThermalStep(const BuswayParams& b, double I, double T_amb, double dt, double T_cond) {
  if (b.tau_thermal <= 0) return buswaySteadyTemperature(b, I, T_amb);
  const double G = 3.0 * I * I * b.length * b.R20_per_m * buswayThermalResistance(b);
  const double a = (1.0 - G * b.alpha) / b.tau_thermal;  // 1/tau_eff
  const double rhs0 = (G + (T_amb - kT20)) / b.tau_thermal;
  const double u = T_cond - kT20;
  return kT20 + u + (rhs0 - a * u) * relaxFactor(a, dt);
}

//---------------------------------------------------------------------------------------------
void breakerStep(const BreakerParams& b, double I, double t, double dt, BreakerState& s) {
  breakerStep(b, I, t, dt, breakerDecay(b, dt), s);
}

double breakerDecay(const BreakerParams& b, double dt) {
  return b.tau > 0 ? std::exp(-dt / b.tau) : 0.0;
}

void breakerStep(const BreakerParams& b, double I, double t, double dt, double decay,
                 BreakerState& s) {
  if (s.tripped) return;
  const double Ia = std::abs(I);
  const double k2 = b.k_trip * b.k_trip;
  if ((b.magnetic_multiple > 0 && Ia >= b.magnetic_multiple * b.I_n) || s.theta >= k2) {
    s.tripped = true;
    s.t_trip = t;
    return;
  }
  const double r = (Ia / b.I_n) * (Ia / b.I_n);
  const double theta1 = b.tau > 0 ? r + (s.theta - r) * decay : r;
  if (theta1 >= k2) {  // crossing inside the step; r > k2 > theta here
    const double x = b.tau > 0 ? b.tau * std::log((r - s.theta) / (r - k2)) : 0.0;
    s.tripped = true;
    s.t_trip = t + std::min(x, dt);
    s.theta = k2;
    return;
  }
  s.theta = theta1;
}

double breakerTripTime(const BreakerParams& b, double I, double theta0) {
  const double Ia = std::abs(I);
  const double k2 = b.k_trip * b.k_trip;
  if ((b.magnetic_multiple > 0 && Ia >= b.magnetic_multiple * b.I_n) || theta0 >= k2) return 0.0;
  const double r = (Ia / b.I_n) * (Ia / b.I_n);
  if (r <= k2) return kInf;
  return b.tau * std::log((r - theta0) / (r - k2));
}

BreakerTauBand breakerTauBand(double k_trip, double hold_multiple, double trip_multiple,
                              double t_conv) {
  const double k2 = k_trip * k_trip;
  const double h = hold_multiple * hold_multiple, p = trip_multiple * trip_multiple;
  BreakerTauBand band;
  // trip: tau ln(p/(p - k2)) <= t_conv
  if (p <= k2) return {kInf, 0.0};
  band.tau_max = t_conv / std::log(p / (p - k2));
  // hold: tau ln(h/(h - k2)) >= t_conv, or never trips when h <= k2
  band.tau_min = h <= k2 ? 0.0 : t_conv / std::log(h / (h - k2));
  return band;
}

double breakerTauIec60898(double k_trip, double I_n) {
  const double t_conv = I_n <= 63 ? 3600.0 : 7200.0;
  BreakerTauBand band = breakerTauBand(k_trip, 1.13, 1.45, t_conv);
  // 2.55 I_n from cold: 1 s <= tau ln(r/(r - k2)) <= 60 s (I_n <= 32 A) / 120 s
  const double r = 2.55 * 2.55, k2 = k_trip * k_trip;
  if (r > k2) {
    const double L = std::log(r / (r - k2));
    band.tau_min = std::max(band.tau_min, 1.0 / L);
    band.tau_max = std::min(band.tau_max, (I_n <= 32 ? 60.0 : 120.0) / L);
  }
  if (!(band.tau_min <= band.tau_max) || band.tau_max <= 0)
    throw std::invalid_argument(
        "IEC 60898-1 breaker: no thermal time constant meets the bands "
        "with k_trip = " +
        std::to_string(k_trip));
  return band.tau_min > 0 ? std::sqrt(band.tau_min * band.tau_max) : band.tau_max;
}

double breakerTauIec60947(double k_trip) {
  const double t_conv = 3600.0;
  const BreakerTauBand band = breakerTauBand(k_trip, 1.05, 1.30, t_conv);
  const double p = 1.30 * 1.30, k2 = k_trip * k_trip;
  const double tau = p > k2 ? 0.5 * t_conv / std::log(p / (p - k2)) : 0.0;
  if (!(tau > 0) || tau < band.tau_min || tau > band.tau_max)
    throw std::invalid_argument(
        "IEC 60947-2 breaker: no thermal time constant meets the bands "
        "with k_trip = " +
        std::to_string(k_trip));
  return tau;
}

//---------------------------------------------------------------------------------------------
double upsConversionLoss(const UpsParams& u, double P_out) {
  const double P = std::max(P_out, 0.0);
  return curveInput(u.P_rated, u.load, u.eta, u.P_standby, P) - P;
}

double upsStep(const UpsParams& u, double P_out, bool utility_ok, double dt, UpsState& s,
               bool* dropped) {
  if (dropped) *dropped = false;
  const double P = std::max(P_out, 0.0);
  const double loss = upsConversionLoss(u, P);
  s.P_charge = 0;
  if (utility_ok) {
    // online: rectifier + inverter; recharge what is missing at up to P_charge_max
    s.on_battery = false;
    if (u.P_charge_max > 0 && u.eta_charge > 0 && s.soc_J < u.battery_J && dt > 0)
      s.P_charge = std::min(u.P_charge_max, (u.battery_J - s.soc_J) / (u.eta_charge * dt));
    const double stored = u.eta_charge * s.P_charge;
    s.soc_J = std::min(u.battery_J, s.soc_J + stored * dt);
    s.P_battery = -stored;
    s.P_loss = loss + (s.P_charge - stored);
    return P + loss + s.P_charge;
  }
  // battery mode: the battery carries output and conversion loss
  s.on_battery = true;
  const double need = (P + loss) * dt;
  if (need > s.soc_J) {
    if (dropped) *dropped = true;
    s.P_battery = 0;
    s.P_loss = 0;
    return 0.0;
  }
  s.soc_J -= need;
  s.P_battery = P + loss;
  s.P_loss = loss;
  return 0.0;
}

//---------------------------------------------------------------------------------------------
double transformerLoss(const TransformerParams& t, double P, double pf) {
  const double c = pf > 0 ? std::min(pf, 1.0) : 1.0;
  const double S = std::abs(P) / c;
  const double x = S / t.S_rated;
  return t.P_no_load + t.P_load_rated * x * x;
}

//---------------------------------------------------------------------------------------------
double pueExaDigiT(const PueComponents& c) {
  if (!(c.Q_it > 0)) return std::numeric_limits<double>::quiet_NaN();
  return (c.Q_it + c.W_cdu_pumps + c.W_plant_pumps + c.W_towers) / c.Q_it;
}

double pueTotal(const PueComponents& c) {
  if (!(c.Q_it > 0)) return std::numeric_limits<double>::quiet_NaN();
  return (c.Q_it + c.W_cdu_pumps + c.W_plant_pumps + c.W_towers + c.P_dist_losses + c.P_other) /
         c.Q_it;
}

}  // namespace dctwin
