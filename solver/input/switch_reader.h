// switch_reader.h: the facility file's switch_racks list (keys in
// solver/input/facility_keys.cpp, model in docs/models/switch_rack.md)
#pragma once

#include <string>

#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin::switchracks {

// one entry of switch_racks into spec.switch_racks (errors into the file's session)
void read(reader::File& f, const YAML::Node& n, const std::string& path, FacilitySpec& spec);

// after the whole file is read: names unique among all racks, the served racks, busway and CDU
// exist; the switch count from the fabric where it is not given
void resolve(reader::File& f, FacilitySpec& spec);

}  // namespace dctwin::switchracks
