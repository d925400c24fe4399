// fluid_reader.h: the facility file's fluids list: glycol-water mixtures by mass or
// volume fraction and constant-property fluids (keys in solver/input/facility_keys.cpp, model in
// docs/models/fluid.md). Each entry becomes a fluid table in spec.fluids under its name, found
// before the catalog when a CDU or the facility water names it.
#pragma once

#include <string>

#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin::filefluids {

void read(reader::File& f, const YAML::Node& n, const std::string& path, FacilitySpec& spec);

}  // namespace dctwin::filefluids
