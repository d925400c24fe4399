// datasheet_reader.h: the CDU keys a datasheet gives beyond the rated point:
// actuator kinds and filters, initial positions and speeds, a valve's Kv, the PI controllers'
// tracking time, output limits, action and initial output (docs/facility-format.md,
// docs/models/actuator.md, docs/models/controller.md). Called by the CDU body reader in loader.cpp
// on the maps it has opened, so that each map is checked once.
#pragma once

#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin::datasheet {

void readValve(reader::MapIn& v, CduSpec& c);         // primary_valve
void readPumps(reader::MapIn& p, CduSpec& c);         // pumps
void readPi(reader::MapIn& pi, CduSpec::PiExtra& x);  // control.*_pi
void readHex(reader::MapIn& hx, CduSpec& c);          // heat_exchanger: sizing beyond rated
void readFilter(reader::MapIn& fl, CduSpec& c);       // filter
void readPrescribed(reader::MapIn& pr, CduSpec& c);   // prescribed (facility CDUs)
// checks across these keys after the catalog merge: the valve's kv or dp_nominal, output limits,
// the HX sizing's own keys and table, the filter's clean and clogged dp
void check(reader::File& f, const CduSpec& c, const reader::Provided& prov, const SourceLoc& site,
           const std::string& extra);

}  // namespace dctwin::datasheet
