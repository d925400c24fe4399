// air_rack_reader.cpp: air-cooled racks and devices (solver/input/air_rack_reader.h)
#include "solver/input/air_rack_reader.h"

#include <algorithm>
#include <vector>

#include "solver/input/keys.h"

namespace dctwin::airracks {

using reader::MapIn;

void read(reader::File& f, const YAML::Node& n, const std::string& path, FacilitySpec& spec) {
  const keys::Section& section = *keys::facilityFile().find("air_racks")->section;
  MapIn m(f, n, path, section);
  if (!m.valid()) return;
  AirRackSpec a;
  const bool named = m.read("name", a.name);
  m.read("row", a.row);
  m.read("index", a.index);
  if (auto ts = m.series("heat_load")) a.heat_load = std::move(*ts);
  a.loc = m.loc();
  if (m.read("busway", a.busway)) a.busway_loc = m.locOf("busway");
  if (auto fm = m.map("fans")) {
    FanParams& fp = a.fans;
    if (std::string c; fm->read("control", c))
      fp.control = c == "pressure" ? FanParams::Control::Pressure : FanParams::Control::DeltaT;
    fm->read("rated_airflow", fp.V_rated);
    fm->read("rated_power", fp.P_rated);
    fm->read("min_speed", fp.N_min);
    // what each control needs
    const bool dT = fp.control == FanParams::Control::DeltaT;
    if (dT && !fm->read("delta_t", fp.dT_set) && !fm->get("delta_t"))
      fm->missing("delta_t", " (control is delta_t)");
    if (!dT) {
      const bool has_r = fm->read("rated_pressure", fp.dp_rated) || fm->get("rated_pressure");
      const bool has_s = fm->read("pressure_setpoint", fp.dp_set) || fm->get("pressure_setpoint");
      if (!has_r) fm->missing("rated_pressure", " (control is pressure)");
      if (!has_s) fm->missing("pressure_setpoint", " (control is pressure)");
    }
  }
  if (!named) return;
  for (const auto& other : spec.air_racks)
    if (other.name == a.name)
      f.s.add(
          m.locOf("name"), a.name,
          "duplicate air-cooled rack name (first at line " + std::to_string(other.loc.line) + ")");
  for (const auto& r : spec.racks)
    if (r.name == a.name)
      f.s.add(m.locOf("name"), a.name,
              "an air-cooled rack needs a name no liquid-cooled rack has (line " +
                  std::to_string(r.loc.line) + ")");
  spec.air_racks.push_back(std::move(a));
}

void checkBusways(reader::File& f, const FacilitySpec& spec) {
  std::vector<std::string> known;
  for (const auto& b : spec.power.busways) known.push_back(b.name);
  for (const auto& a : spec.air_racks) {
    if (a.busway.empty()) continue;
    if (!spec.power.present)
      f.s.add(a.busway_loc, a.busway,
              "air-cooled rack '" + a.name + "': a busway needs the power section");
    else if (std::find(known.begin(), known.end(), a.busway) == known.end())
      f.s.add(a.busway_loc, a.busway,
              "air-cooled rack '" + a.name + "': unknown busway" + didYouMean(a.busway, known));
  }
}

}  // namespace dctwin::airracks
