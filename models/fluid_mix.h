// fluid_mix.h: coolants defined in a facility file (docs/models/fluid.md)
//
// glycol-water mixtures from the Melinder (2010) polynomials that the catalog's pg25 table is
// computed from (coefficients as implemented in lbl-srg/modelica-buildings
// Buildings/Media/Antifreeze/Functions/{Propylene,Ethylene}GlycolWater.mo [K50]):
//   f(x, T) = sum_i sum_j a_n (100 (x - x_ref))^i (T - T_ref)^j,   nT = {4, 4, 4, 3, 2, 1}
//   rho, cp, k = f;  mu = 1e-3 exp(f) (Pa s);  freeze point = f (degC, solved in T)
// x the glycol MASS fraction, valid 0 ... 0.6; a volume fraction phi is converted at 20 degC as
// Modelica's volumeToMassFraction does: x = phi rho_g / (phi rho_g + (1 - phi) rho_w), rho_w =
// rho(0, T), rho_g = rho(0.6, T) extrapolated linearly to x = 1.
// The mixture is tabulated at 10 K knots from its freeze point to 100 degC (the medium's T_max in
// [K50]) and then behaves as any catalog fluid (models/fluid.h). A constant-property fluid is a
// two-knot table with equal rows: h = cp (T - T_min) exactly.
#pragma once

#include <string>

#include "models/fluid.h"

namespace dctwin {

enum class Glycol { Propylene, Ethylene };

constexpr double kGlycolMassFractionMax = 0.6;  // the correlations' upper end [K50]

// the mixture's properties at glycol mass fraction x (0 ... 0.6) and temperature T (K)
struct MixtureProps {
  double rho, cp, mu, k;
};
MixtureProps glycolProps(Glycol g, double x, double T);
double glycolFreezePoint(Glycol g, double x);                       // (K)
double glycolVolumeToMassFraction(Glycol g, double phi, double T);  // (1)

// a fluid table for the mixture (throws std::invalid_argument outside 0 <= x <= 0.6)
FluidData glycolMixture(const std::string& name, Glycol g, double x_mass);
// a constant-property fluid valid from T_min to T_max (K)
FluidData constantFluid(const std::string& name, double rho, double cp, double mu, double k,
                        double T_min, double T_max);

}  // namespace dctwin
