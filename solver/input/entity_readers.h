// entity_readers.h: the readers of the entities a catalog file and a facility file share (fluid,
// cold plate, rack type, GPU, rack part, CDU body), their cross-key checks, and the helpers that
// place a cross-key error (solver/input/loader.cpp uses them for both kinds of file). What each
// accepts is declared in the key tables (solver/input/facility_keys.cpp).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "solver/input/keys.h"
#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin::entities {

using reader::File;
using reader::MapIn;
using reader::Provided;

// the table of a facility-file section by its key path from the top ({"jobs", "phases"})
const keys::Section& section(std::initializer_list<const char*> path);

// missing required keys (paths after the catalog merge), one error per innermost section
void requireKeys(File& f, const SourceLoc& site, const Provided& prov,
                 const std::vector<std::string>& keys, const std::string& extra);

// a check across keys: whether `key` read without error, and where its error goes
bool good(const Provided& prov, const std::string& key);
SourceLoc where(const Provided& prov, const std::string& key, const SourceLoc& site);
// the first of `keys` set in the file being read, else the first set at all, else `site`
SourceLoc where(const Provided& prov, std::initializer_list<const char*> keys,
                const SourceLoc& site);

void readFluid(MapIn& m, FluidData& d);
void readColdPlate(MapIn& m, ColdPlateSpec& cp);
void readRackType(MapIn& m, RackTypeSpec& r);
void readPart(MapIn& m, PartParams& p);
void readSpread(MapIn& m, GpuSpread& s);
void readGpu(MapIn& m, GpuParams& g);
const std::vector<std::string>& rackTypeRequired();
void checkRackType(File& f, const RackTypeSpec& r, const Provided& prov, const SourceLoc& site,
                   const std::string& extra);
void readPipe(MapIn& m, const char* key, PipeSpec& p);
void readCduBody(MapIn& m, CduSpec& c);
const std::vector<std::string>& cduRequired();
void checkCdu(File& f, const CduSpec& c, const Provided& prov, const SourceLoc& site,
              const std::string& extra);

}  // namespace dctwin::entities
