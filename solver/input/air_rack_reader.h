// air_rack_reader.h: the facility file's air_racks list (keys in
// solver/input/facility_keys.cpp, model in docs/models/air_rack.md)
#pragma once

#include <string>

#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin::airracks {

// one entry of air_racks into spec.air_racks (errors into the file's session)
void read(reader::File& f, const YAML::Node& n, const std::string& path, FacilitySpec& spec);

// each air rack's busway is one of the power section's (after the whole file is read)
void checkBusways(reader::File& f, const FacilitySpec& spec);

}  // namespace dctwin::airracks
