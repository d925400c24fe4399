// switch_reader.cpp: scale-out switch racks (solver/input/switch_reader.h)
#include "solver/input/switch_reader.h"

#include <algorithm>
#include <vector>

#include "solver/input/keys.h"

namespace dctwin::switchracks {

using reader::MapIn;

void read(reader::File& f, const YAML::Node& n, const std::string& path, FacilitySpec& spec) {
  const keys::Section& section = *keys::facilityFile().find("switch_racks")->section;
  MapIn m(f, n, path, section);
  if (!m.valid()) return;
  SwitchRackSpec s;
  SwitchRackParams& p = s.params;
  s.loc = m.loc();
  const bool named = m.read("name", s.name);
  m.read("row", s.row);
  m.read("index", s.index);
  if (std::string role; m.read("role", role))
    p.role = role == "spine" ? SwitchRole::Spine : SwitchRole::Leaf;
  if (m.get("racks")) {
    s.racks_loc = m.locOf("racks");
    m.list("racks", [&](const YAML::Node& y, const std::string& q, std::size_t) {
      if (auto nm = reader::readName(f, y, q)) s.racks.push_back(*nm);
    });
  }
  s.switches_given = m.read("switches", p.switches);
  m.read("cages", p.cages);
  p.cages_used = p.cages;
  s.cages_used_given = m.read("cages_used", p.cages_used);
  if (s.cages_used_given && p.cages_used > p.cages)
    f.s.add(m.locOf("cages_used"), std::to_string(p.cages_used),
            "cages_used is more than the " + std::to_string(p.cages) + " cages of a switch");
  m.read("cage_bandwidth", p.cage_bandwidth);
  m.read("asic_power", p.P_asic);
  m.read("base_power", p.P_base);
  if (std::string o; m.read("optics", o))
    p.optics = o == "cpo"      ? OpticsKind::Cpo
               : o == "copper" ? OpticsKind::Copper
                               : OpticsKind::Pluggable;
  p.P_port = defaultPortPower(p.optics);
  s.port_power_given = m.read("port_power", p.P_port);
  if (std::string c; m.read("cooling", c))
    p.cooling = c == "liquid" ? SwitchCooling::Liquid : SwitchCooling::Air;
  m.read("liquid_fraction", p.liquid_fraction);
  if (m.read("cdu", s.cdu)) s.cdu_loc = m.locOf("cdu");
  if (m.read("busway", s.busway)) s.busway_loc = m.locOf("busway");
  if (p.cooling == SwitchCooling::Liquid && !m.get("cdu"))
    m.missing("cdu", " (cooling is liquid: the CDU loop of its cold plates)");
  if (p.cooling == SwitchCooling::Air && m.get("cdu"))
    f.s.add(m.locOf("cdu"), s.cdu, "a cdu needs cooling: liquid");
  if (!s.switches_given && s.racks.empty() && !m.get("racks"))
    m.missing("switches", " (or racks, to count the switches from the fabric)");
  if (!named) return;
  spec.switch_racks.push_back(std::move(s));
}

namespace {

std::vector<std::string> names(const auto& v) {
  std::vector<std::string> out;
  for (const auto& x : v) out.push_back(x.name);
  return out;
}

bool known(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

void resolve(reader::File& f, FacilitySpec& spec) {
  const auto racks = names(spec.racks), air = names(spec.air_racks), cdus = names(spec.cdus),
             busways = names(spec.power.busways);
  std::vector<std::string> seen;
  for (const SwitchRackSpec& s : spec.switch_racks) {
    if (known(racks, s.name) || known(air, s.name) || known(seen, s.name))
      f.s.add(s.loc, s.name,
              "switch rack '" + s.name +
                  "': duplicate name (racks, air_racks, "
                  "switch_racks share names)");
    seen.push_back(s.name);
    for (const std::string& r : s.racks)
      if (!known(racks, r))
        f.s.add(s.racks_loc, r,
                "switch rack '" + s.name + "': unknown rack" + didYouMean(r, racks));
    if (!s.cdu.empty() && !known(cdus, s.cdu))
      f.s.add(s.cdu_loc, s.cdu,
              "switch rack '" + s.name + "': unknown CDU" + didYouMean(s.cdu, cdus));
    if (!s.busway.empty() && !spec.power.present)
      f.s.add(s.busway_loc, s.busway,
              "switch rack '" + s.name + "': a busway needs the power section");
    else if (!s.busway.empty() && !known(busways, s.busway))
      f.s.add(s.busway_loc, s.busway,
              "switch rack '" + s.name + "': unknown busway" + didYouMean(s.busway, busways));
  }
}

}  // namespace dctwin::switchracks
