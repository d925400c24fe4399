// plant_reader.h: the facility file's plant: section (solver/input/plant_keys.cpp) into the spec
#pragma once

#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin {

// reads plant: (weather file included) into spec.plant and sets spec.has_plant; errors go to the
// file's session with their file, line and key
void readPlant(reader::MapIn& pl, FacilitySpec& spec);

}  // namespace dctwin
