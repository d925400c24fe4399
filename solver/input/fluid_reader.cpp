// fluid_reader.cpp: coolants defined in a facility file (solver/input/fluid_reader.h)
#include "solver/input/fluid_reader.h"

#include <set>

#include "models/fluid_mix.h"
#include "solver/common/units.h"
#include "solver/input/keys.h"

namespace dctwin::filefluids {

using reader::fmt;
using reader::MapIn;

namespace {
// the mixture's table; errors at the fraction's line
bool mixture(reader::File& f, MapIn& mx, const std::string& name, FluidData& out) {
  std::string g;
  mx.read("glycol", g);
  const Glycol glycol = g == "ethylene_glycol" ? Glycol::Ethylene : Glycol::Propylene;
  double x = -1, phi = -1;
  const bool has_x = mx.read("mass_fraction", x), has_phi = mx.read("volume_fraction", phi);
  const bool given_x = has_x || mx.get("mass_fraction"),
             given_phi = has_phi || mx.get("volume_fraction");
  if (given_x && given_phi) {
    f.s.add(mx.locOf("volume_fraction"), "", "give mass_fraction or volume_fraction, not both");
    return false;
  }
  if (!given_x && !given_phi) {
    mx.missing("mass_fraction", " (or volume_fraction)");
    return false;
  }
  if (!has_x && !has_phi) return false;  // the bad value was reported
  // a volume fraction at 20 degC (a), as Modelica Buildings' volumeToMassFraction [K50]
  if (has_phi) x = glycolVolumeToMassFraction(glycol, phi, 293.15);
  if (x > kGlycolMassFractionMax) {
    f.s.add(mx.locOf(has_phi ? "volume_fraction" : "mass_fraction"), fmt(has_phi ? phi : x),
            "expected a glycol mass fraction of at most 0.6 (the correlations' range [K50])" +
                std::string(has_phi ? "; this volume fraction is mass fraction " + fmt(x) : ""));
    return false;
  }
  out = glycolMixture(name, glycol, x);
  return true;
}

bool constant(reader::File& f, MapIn& cs, const std::string& name, FluidData& out) {
  double rho = 0, cp = 0, mu = 0, k = 0, T_min = 273.15, T_max = 373.15;
  // every key read (each missing one reported), then whether all were there
  const bool has_rho = cs.read("rho_kg_m3", rho), has_cp = cs.read("cp_J_kgK", cp);
  const bool has_mu = cs.read("mu_Pa_s", mu), has_k = cs.read("k_W_mK", k);
  bool ok = has_rho && has_cp && has_mu && has_k;
  cs.read("T_min", T_min);
  cs.read("T_max", T_max);
  if (!(T_max > T_min)) {
    f.s.add(cs.get("T_max") ? cs.locOf("T_max") : cs.loc(), fmt(toCelsius(T_max)) + " degC",
            "expected T_max above T_min (" + fmt(toCelsius(T_min)) + " degC)");
    return false;
  }
  if (!ok) return false;
  out = constantFluid(name, rho, cp, mu, k, T_min, T_max);
  return true;
}
}  // namespace

void read(reader::File& f, const YAML::Node& n, const std::string& path, FacilitySpec& spec) {
  const keys::Section& section = *keys::facilityFile().find("fluids")->section;
  MapIn m(f, n, path, section);
  if (!m.valid()) return;
  std::string name;
  const bool named = m.read("name", name);
  auto mx = m.map("mixture");
  auto cs = m.map("constant");
  const bool has_mx = m.get("mixture") != nullptr, has_cs = m.get("constant") != nullptr;
  if (has_mx == has_cs) {
    f.s.add(m.loc(), name,
            has_mx ? "a fluid is a mixture or constant, not both"
                   : "expected a mixture or constant section");
    return;
  }
  FluidData d;
  const bool ok = mx ? mixture(f, *mx, name, d) : cs ? constant(f, *cs, name, d) : false;
  if (!named || !ok) return;
  if (spec.file_fluids.count(name)) {
    f.s.add(m.locOf("name"), name, "duplicate fluid name in this file");
    return;
  }
  spec.file_fluids.insert(name);
  spec.fluids[name] = std::move(d);
}

}  // namespace dctwin::filefluids
