// keys.h: the keys of every input-file section, declared once
//
// A Section lists its keys with name, type, unit, range, required, default and docs text, like
// F3D's options.json. The readers (MapIn, solver/input/yaml_reader.h) take the key list, the
// required check, the unit and range of each value and the unknown-key did-you-mean from here;
// `dctwin schema` writes a JSON Schema for editors and the key tables of docs/*-format.md from the
// same tables (tests/solver/keys_test.cpp checks that the committed ones are current).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "solver/common/fault_table.h"
#include "solver/common/units.h"

namespace dctwin::keys {

// a closed or open interval of SI values, with the words used in messages
struct Range {
  double lo = 0, hi = 0;
  bool lo_open = false, hi_open = false;
  const char* text = "";
  bool contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
};

enum class Type {
  Quantity,   // a number with the unit of `dim` ("32 degC"); Dim::None: a plain number
  PerKelvin,  // a plain number, optionally written with "1/K"
  Flow,       // a volume or a mass flow
  Integer,    // whole number in [ilo, ihi]
  Bool,       // true or false
  Name,       // letters, digits, '_', '-', '.'
  Text,       // any text
  Enum,       // one of `values`
  Numbers,    // a list of plain numbers in `range`
  Series,     // a time series of `dim` (a value, or steps/series/csv)
  Map,        // a nested section
  List,       // a list of `section` maps (or of names when section is null)
  NameMap,    // a map from names to `section` maps
  Any,        // read by its own code (described by `doc`)
};

struct Section;

struct Key {
  const char* name = "";
  Type type = Type::Any;
  Dim dim = Dim::None;
  Range range;
  long long ilo = 0, ihi = 0;        // Integer
  bool required = false;             // see Section::merged
  bool here = false;                 // required in the file itself even in a merged section
  const char* def = "";              // the documented default ("" = none)
  const char* doc = "";              // one line for the docs and the schema
  const Section* section = nullptr;  // Map, List and NameMap entries
  std::vector<const char*> values;   // Enum; List: words accepted instead ("all", "default")
  std::size_t min_len = 0;           // List and Numbers
  const char* noun = "";             // List: its entries ("CDUs"), for messages
  const char* unit = "";             // the unit shown in the docs ("degC", "kW")
  const char* expect = "";           // Enum: what an error says is expected ("" = the values)
  const char* shown_type = "";       // the docs' type column ("" = from the type)
  // a key for people (citations, notes): accepted and documented, never read by the code. Every
  // other key present in a file must be read (MapIn reports one that nothing asked for)
  bool for_people = false;

  // fluent setters for the tables
  Key& req() { return required = true, *this; }
  Key& reqHere() { return required = here = true, *this; }
  Key& dflt(const char* d) { return def = d, *this; }
  Key& docs(const char* d) { return doc = d, *this; }
  Key& shown(const char* u) { return unit = u, *this; }
  Key& atLeast(std::size_t n) { return min_len = n, *this; }
  Key& orWords(std::vector<const char*> w) { return values = std::move(w), *this; }
  Key& expecting(const char* e) { return expect = e, *this; }
  Key& typeShown(const char* t) { return shown_type = t, *this; }
  Key& forPeople() { return for_people = true, *this; }
};

struct Section {
  const char* id = "";     // "facility.cdus": the docs marker and the schema definition
  const char* title = "";  // what the section is, for the schema
  std::vector<Key> keys;
  // true: a catalog entry may provide the required keys (except those marked `here`); they are
  // checked after the merge (requiredPaths) instead of as each map is read
  bool merged = false;
  // true: any key is accepted (maps keyed by names, electrical catalog entries)
  bool open = false;

  const Key* find(std::string_view name) const;
  std::vector<std::string> names() const;
};

// ranges the reader itself applies: flows (by kind) and series times; and a GPU's power cap
// (facility jobs and racks, estimate cases)
extern const Range kVolumeFlow, kMassFlow, kSeriesTime, kGpuPower;
// the map form of a time series (steps, series, csv, unit)
const Section& seriesSection();
// a facility job's workload, a rack type's gpu_memory and the fabric section: an estimate file's
// cases take them as they are (estimate_keys.cpp)
const Section& workloadSection();
const Section& gpuMemorySection();
const Section& fabricSection();
// the facility's heat-rejection plant (plant_keys.cpp)
const Section& plantSection();
// the facility's power section (power_keys.cpp)
const Section& powerSection();

// key constructors
Key quantity(const char* name, Dim dim, const Range& r);
Key perKelvin(const char* name, const Range& r);
Key flow(const char* name);
Key integer(const char* name, long long lo, long long hi);
Key boolean(const char* name);
Key name(const char* name);
Key text(const char* name);
Key choice(const char* name, std::vector<const char*> values);
Key numbers(const char* name, const Range& r, std::size_t min_len = 0);
Key series(const char* name, Dim dim, const Range& r);
Key map(const char* name, const Section& s);
Key list(const char* name, const Section* s, const char* noun, std::size_t min_len = 0);
Key nameMap(const char* name, const Section& s);
Key any(const char* name);
// a fault's range (its value key's), and its event key made from its row of the fault table
// (solver/common/fault_table.h: type, range, docs)
Range faultRange(FaultKind k);
Key faultKey(FaultKind k);
// the fault table as markdown (docs/scenario-format.md "Faults"; `dctwin outputs --table faults`)
std::string faultTableMarkdown();

// "a.b.c" paths of the required keys of a merged section and its maps, for the check after the
// catalog merge
std::vector<std::string> requiredPaths(const Section& s);

// the file kinds and their top sections
enum class FileKind { Facility, Scenario, Sweep };
// the keys of a `protection` section (facility and scenario files)
std::vector<Key> protectionKeys();
const Section& facilityFile();
const Section& scenarioFile();
const Section& sweepFile();
const Section& estimateFile();
const Section& fileSection(FileKind k);
const char* fileKindName(FileKind k);  // "facility", "scenario", "sweep"
// every section reachable from a top section, depth first, each once
std::vector<const Section*> sectionsOf(const Section& top);

// catalog entries (data/catalog/<kind>/): fluids, cold plates, CDUs, racks, GPUs, parts
const Section& catalogSection(std::string_view kind);

// a JSON Schema (draft-07) of a file kind, for editors (yaml-language-server)
std::string jsonSchema(FileKind k);
// the schema's pattern of a quantity of one dimension: a number and one of the units the loader
// accepts for it ("32 degC" for a temperature, never "40 kW")
std::string quantityPattern(Dim dim);
// the key table of one section as markdown, as between the docs markers
std::string markdownTable(const Section& s);
// every section's table of a file kind, each between its markers
std::string markdownTables(FileKind k);
// `doc` with the text between each "<!-- keys:ID begin -->" and "<!-- keys:ID end -->" replaced by
// the current table of ID; *unknown gets the ids of markers that name no section
std::string updateMarkedTables(const std::string& doc, FileKind k,
                               std::vector<std::string>* unknown = nullptr);

}  // namespace dctwin::keys
