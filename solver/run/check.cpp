// check.cpp: `dctwin check FILE` (check.h)
#include "solver/run/check.h"

#include <stdexcept>

#include "solver/compile/compile.h"
#include "solver/input/keys.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/input/sweep_file.h"
#include "solver/input/yaml_reader.h"
#include "solver/run/sweep.h"

namespace dctwin {

namespace {
std::string compiled(const FacilitySpec& spec) {
  const FacilityModel m = compileFacility(spec);
  return std::to_string(m.ncdu) + " CDU, " + std::to_string(m.nrack) + " racks, " +
         std::to_string(m.nstate) + " states, " + std::to_string(m.jac_rowind.size()) +
         " jacobian nonzeros in " + std::to_string(m.jac_ncolor) + " colors";
}
}  // namespace

std::string checkFile(const std::string& path, const std::string& facility) {
  std::string why;
  const auto text = reader::readTextFile(path, &why);
  if (!text) throw LoadFailure({LoadError{SourceLoc{path, 0, 0, ""}, "", "cannot read: " + why}});
  SourceLoc where;
  const auto kind = reader::detectFileKind(*text, &why, &where);
  if (!kind) {
    // with the line and column of a YAML syntax error, as the loaders report it
    where.file = path;
    throw LoadFailure({LoadError{where, "", why}});
  }
  switch (*kind) {
    case keys::FileKind::Facility:
      return path + ": ok: " + compiled(loadFacility(path));
    case keys::FileKind::Scenario: {
      const Scenario sc = loadScenario(path);
      std::string verdict = path + ": ok: scenario, " + std::to_string(sc.events.size()) +
                            " events, " + reader::fmt(sc.duration) + " s";
      if (facility.empty()) return verdict + " (give --facility to check it against one)";
      FacilitySpec spec = loadFacility(facility);
      applyScenario(sc, spec);
      return verdict + ", on " + facility + ": " + compiled(spec);
    }
    case keys::FileKind::Sweep: {
      const SweepSpec s = loadSweep(path);
      validateSweep(s);
      return path + ": ok: sweep, " + std::to_string(expandCases(s).size()) + " cases of " +
             std::to_string(s.params.size()) + " parameters";
    }
  }
  return path + ": ok";
}

}  // namespace dctwin
