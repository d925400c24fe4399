// fluid.h: single-phase coolant properties vs temperature (water, propylene-glycol mixtures)
//
// properties come from a catalog table (data/catalog/fluids/*.yaml) of rho, cp, mu, k at
// temperature knots; between knots
//   rho, k   piecewise linear
//   cp       piecewise linear, so that the specific enthalpy h(T) = integral of cp dT is an exact
//            piecewise quadratic: energy balances built on h close to round-off
//   ln(mu)   piecewise linear (viscosity falls roughly exponentially with temperature)
// past the table ends all are extrapolated linearly; callers check T_min/T_max themselves.
#pragma once

#include <string>
#include <vector>

namespace dctwin {

struct FluidData {
  std::string name;
  std::vector<double> T;    // temperature knots                                   (K)
  std::vector<double> rho;  // density                                            (kg/m3)
  std::vector<double> cp;   // specific heat capacity                             (J/(kg K))
  std::vector<double> mu;   // dynamic viscosity                                  (Pa s)
  std::vector<double> k;    // thermal conductivity                               (W/(m K))
  double T_min = 0;         // lower end of the use range                         (K)
  double T_max = 0;         // upper end of the use range                         (K)
};

class Fluid {
 public:
  Fluid() = default;
  // throws std::invalid_argument on a malformed table (fewer than 2 knots, unsorted, non-positive)
  explicit Fluid(FluidData data);

  const std::string& name() const { return d_.name; }
  double rho(double T) const;  // density                  (kg/m3)
  double cp(double T) const;   // specific heat            (J/(kg K))
  double mu(double T) const;   // dynamic viscosity        (Pa s)
  double k(double T) const;    // thermal conductivity     (W/(m K))
  double Pr(double T) const { return cp(T) * mu(T) / k(T); }
  // specific enthalpy relative to the first knot, h = integral of cp dT  (J/kg)
  double h(double T) const;
  // inverse of h(T) by Newton on the monotone quadratic                  (K)
  double T_of_h(double h) const;
  double rho_ref() const { return rho_ref_; }  // density at 25 degC, used for volume <-> mass
  double T_min() const { return d_.T_min; }
  double T_max() const { return d_.T_max; }
  const FluidData& data() const { return d_; }

 private:
  std::size_t segment(double T) const;
  FluidData d_;
  std::vector<double> h_knot_;  // h at each knot                    (J/kg)
  std::vector<double> lnmu_;    // ln(mu) at each knot
  double rho_ref_ = 1000.0;
};

}  // namespace dctwin
