// switch_racks.h: compiling the scale-out switch racks of a facility and the reach of a switch
// failure (docs/models/switch_rack.md); called by compileFacility
#pragma once

#include <string>
#include <vector>

#include "solver/compile/model.h"
#include "solver/input/loader.h"
#include "solver/input/spec.h"

namespace dctwin {

// names, parameters (switch counts from the fabric where not given), busway, CDU and served racks
// of spec.switch_racks into m; errors into `errors`
void compileSwitchRacks(const FacilitySpec& spec, FacilityModel& m, std::vector<LoadError>& errors);

// what switch `sw` of switch rack `k` carries: leaf: the links (GPU x nics + NIC, model GPU
// indices) cabled to it; spine: the GPUs whose leaves' uplinks it carries (then `links` holds GPU
// indices). Needs the racks compiled (rack_gpuadr, rack_gpunum).
std::vector<int> switchReach(const FacilityModel& m, int k, int sw);

}  // namespace dctwin
