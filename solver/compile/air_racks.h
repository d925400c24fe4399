// air_racks.h: compiling the air-cooled racks and devices of a facility (
// docs/models/air_rack.md); called by compileFacility
#pragma once

#include "solver/compile/model.h"
#include "solver/input/spec.h"

namespace dctwin {

// names, positions, loads (with their breakpoints) and fans of spec.air_racks into m
void compileAirRacks(const FacilitySpec& spec, FacilityModel& m);

}  // namespace dctwin
