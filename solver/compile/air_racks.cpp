// air_racks.cpp: the air-cooled racks and devices (solver/compile/air_racks.h)
#include "solver/compile/air_racks.h"

namespace dctwin {

void compileAirRacks(const FacilitySpec& spec, FacilityModel& m) {
  m.nair = int(spec.air_racks.size());
  for (const AirRackSpec& a : spec.air_racks) {
    m.air_name.push_back(a.name);
    m.air_row.push_back(a.row);
    m.air_index.push_back(a.index);
    m.air_load.push_back(a.heat_load);
    a.heat_load.breakpoints(m.breakpoints);
    m.air_fans.push_back(a.fans);
    int b = -1;  // the busway by name (the loader checked it)
    for (std::size_t k = 0; k < spec.power.busways.size(); ++k)
      if (spec.power.busways[k].name == a.busway) b = int(k);
    m.air_busway.push_back(a.busway.empty() ? -1 : b);
  }
}

}  // namespace dctwin
