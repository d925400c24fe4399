// yaml_reader.h: the one YAML reader of facility, catalog, scenario and sweep files
//
//   Session      every error of one load (LoadFailure lists them all), the visit budget
//   File         one input file: locations (file:line:col) of its nodes
//   parseDocument size, UTF-8 and YAML checks before anything is read; all exceptions caught
//   read*        typed reading of single nodes, each problem one LoadError
//   MapIn        the keys of one map against its key table (solver/input/keys.h): unknown keys
//                with did-you-mean, duplicates, required keys, and each value read with the
//                type, unit and range of its table entry
//   readSeries   time series: a value, steps, series or csv
//
// errors read "file:line:col: key.path: message (got 'value')" (LoadError::format)
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "solver/common/units.h"
#include "solver/input/keys.h"
#include "solver/input/loader.h"
#include "solver/input/spec.h"

namespace dctwin::reader {

using keys::Range;

//---------------------------------------------------------------------------------------------
// limits

constexpr std::size_t kMaxFileBytes = 16u * 1024u * 1024u;  // facility, catalog and CSV files
constexpr std::size_t kMaxListLength = 1000000;             // entries of any one list
constexpr std::size_t kMaxYamlValues = 1000000;             // scalars, lists, maps in a file
constexpr std::size_t kMaxCommas = 500000;                  // bounds flow collections
constexpr std::size_t kMaxVisits = 4000000;                 // values visited in one load
constexpr std::size_t kMaxErrors = 100;                     // errors kept; the rest are counted
constexpr std::size_t kMaxNameLength = 64;

//---------------------------------------------------------------------------------------------
// small helpers

std::string sub(const std::string& path, std::string_view key);  // "a.b"
std::string item(const std::string& path, std::size_t i);        // "a[3]"
// a value as shown in a message: control characters replaced, cut at 60 bytes
std::string clip(std::string_view s);
std::string trimmed(std::string_view s);
std::string lower(std::string_view s);
const char* noun(Dim dim);                // "a temperature"
const char* kindOf(const YAML::Node& n);  // "a map", "a list", "a single value", "nothing"
bool validName(std::string_view s);
extern const char* const kNameRule;
std::string fmt(double x);  // %g
// " (known: a, b, c)" for a short list of names
std::string knownList(const std::vector<std::string>& names);
// "; did you mean 'x'?" (loader.h): the one did-you-mean of all input files
using dctwin::didYouMean;
// "a, b or c"
std::string alternatives(const std::vector<std::string>& words);

//---------------------------------------------------------------------------------------------
// Session: what one load shares

struct Abort {};  // thrown to stop the walk (visit budget spent); the errors are kept

class Session {
 public:
  explicit Session(const LoadOptions& o = {});

  // `always`: kept even past the cap (the reason the walk stopped)
  void add(SourceLoc loc, std::string value, std::string message, bool always = false);
  // the number of errors so far, dropped ones included (to tell whether a step added any)
  std::size_t count() const { return count_; }
  // true once further errors are only counted: skip building costly messages
  bool full() const { return errors_.size() >= kMaxErrors; }
  // count one visited value; past the budget, report at `where()` and stop the walk
  template <class Where>
  void visit(Where&& where) {
    if (++visits_ <= kMaxVisits) return;
    tooLarge(where());
  }
  // the unread-key check: the keys of one map of a file (its `id`: file:line:col, the same for
  // every MapIn built on that node, a probe's too), and each key read from it. A key of the
  // map's table that no MapIn read would be ignored silently: it is an error of the load when
  // the load has no other (a reader that stops at an error does not read the rest)
  void mapKeys(const std::string& id, const keys::Section& section,
               std::vector<std::pair<std::string, SourceLoc>> keys);
  void keyRead(const std::string& id, std::string_view key);
  // the errors in reading order (files by first appearance, then line and column)
  std::vector<LoadError> finish(const std::string& file);
  // the load has errors to report (finish): errors, or keys nothing read
  bool failed() const;

  std::vector<std::string> dirs;  // data folders (catalog lookup)
  // every file the load read beside the one it was given (catalog entries, CSV series, weather,
  // traces), in reading order: the outputs of a run must not replace any of them
  std::vector<std::string> files;

 private:
  [[noreturn]] void tooLarge(SourceLoc at);
  std::vector<LoadError> errors_;
  struct MapUse {
    const keys::Section* section = nullptr;  // the first closed section it was read with
    std::vector<std::pair<std::string, SourceLoc>> keys;
    std::set<std::string> read;
  };
  std::map<std::string, MapUse> maps_;
  std::vector<LoadError> unread() const;
  std::size_t count_ = 0, dropped_ = 0, visits_ = 0;
};

// one input file (the facility, a catalog entry, a scenario or a sweep)
struct File {
  File(Session& session, std::string file, std::string folder)
      : s(session), name(std::move(file)), dir(std::move(folder)) {}

  Session& s;
  std::string name;  // as shown in messages
  std::string dir;   // folder for relative paths (CSV files)

  SourceLoc loc(const YAML::Node& n, const std::string& path) const;
  void error(const YAML::Node& n, const std::string& path, std::string value, std::string msg) {
    s.add(loc(n, path), std::move(value), std::move(msg));
  }
  void visit(const YAML::Node& n, const std::string& path) {
    s.visit([&] { return loc(n, path); });
  }
  // remember the key of an empty value (the first few: only used for messages)
  void nullValue(const YAML::Node& value, const YAML::Node& key) {
    if (nulls_.size() < 64) nulls_.emplace_back(value, key);
  }

 private:
  std::vector<std::pair<YAML::Node, YAML::Node>> nulls_;
};

//---------------------------------------------------------------------------------------------
// documents

// parse one YAML document; false (with errors added) when there is none to read
bool parseDocument(Session& s, const std::string& file, const std::string& text, YAML::Node& out);
// a YAML error met while a document is walked, as an error of the session at its line:column
void addYamlError(Session& s, const std::string& file, const YAML::Exception& e);
// parse `text` and hand its root to `read`: the visit budget spent (Abort, already recorded) and
// a YAML error while reading end the walk as errors of the session, as every loader needs
template <class Fn>
void readDocument(Session& s, const std::string& file, const std::string& text, Fn&& read) {
  try {
    YAML::Node root;
    if (parseDocument(s, file, text, root)) read(root);
  } catch (const Abort&) {
    // the budget error is recorded
  } catch (const YAML::Exception& e) {
    addYamlError(s, file, e);
  }
}
// read a whole file of at most kMaxFileBytes; nullopt with *why on failure
std::optional<std::string> readTextFile(const std::string& path, std::string* why);

//---------------------------------------------------------------------------------------------
// value readers on single nodes

std::optional<double> readQuantity(File& f, const YAML::Node& n, const std::string& path, Dim dim,
                                   const Range& r, bool per_kelvin = false);
std::optional<FlowValue> readFlow(File& f, const YAML::Node& n, const std::string& path);
std::optional<long long> readInteger(File& f, const YAML::Node& n, const std::string& path,
                                     long long lo, long long hi);
std::optional<std::string> readText(File& f, const YAML::Node& n, const std::string& path,
                                    const char* what);
std::optional<std::string> readName(File& f, const YAML::Node& n, const std::string& path);
// only true or false (YAML 1.2 core schema); yes/no/on/off are refused, never read as false
std::optional<bool> readBool(File& f, const YAML::Node& n, const std::string& path);
// one of `values`, with a did-you-mean; `expect`: what the error says is expected ("": the values)
std::optional<std::string> readChoice(File& f, const YAML::Node& n, const std::string& path,
                                      const std::vector<const char*>& values,
                                      const char* expect = "");
// a list node, checked for type and length; false (with an error) otherwise
bool checkList(File& f, const YAML::Node& n, const std::string& path, std::size_t min_len,
               const char* what);
std::optional<std::vector<double>> readNumbers(File& f, const YAML::Node& n,
                                               const std::string& path, const Range& r,
                                               std::size_t min_len);
// a time series of `dim`: a value, or a map with steps, series or csv (docs/facility-format.md)
std::optional<TimeSeries> readSeries(File& f, const YAML::Node& n, const std::string& path, Dim dim,
                                     const Range& r);

// for each entry of a list
template <class Fn>
void forEachItem(File& f, const YAML::Node& n, const std::string& path, std::size_t min_len,
                 const char* what, Fn&& fn) {
  if (!checkList(f, n, path, min_len, what)) return;
  std::size_t i = 0;
  for (auto it = n.begin(); it != n.end(); ++it, ++i) fn(*it, item(path, i), i);
}

//---------------------------------------------------------------------------------------------
// MapIn: the keys of one map, checked against its section's table

// where each key of an entity (CDU, rack type) was set, relative dotted key -> location; lets the
// checks after a catalog merge point at the line that set a value, in whichever file
struct Set {
  SourceLoc loc;
  bool ok = true;  // false: the value was present but invalid (already reported)
};
using Provided = std::map<std::string, Set>;

class MapIn {
 public:
  // `section.open`: any key is accepted (maps keyed by names, electrical catalog entries)
  MapIn(File& f, const YAML::Node& node, std::string path, const keys::Section& section,
        Provided* prov = nullptr, std::string rel = "");

  bool valid() const { return valid_; }
  File& file() const { return f_; }
  File& f() const { return f_; }
  const keys::Section& section() const { return *section_; }
  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  Provided* provided() const { return prov_; }
  SourceLoc loc() const { return f_.loc(node_, path_); }
  const std::vector<std::string>& keys() const { return order_; }
  std::string sub(std::string_view key) const { return reader::sub(path_, key); }

  const YAML::Node* get(std::string_view key) const;
  const YAML::Node* keyNode(std::string_view key) const;
  SourceLoc locOf(std::string_view key) const;
  // "missing required key 'k'" at this map, unless a did-you-mean already named k
  void missing(std::string_view key, const std::string& extra = "") const;
  // a key named by a did-you-mean of an unknown key
  bool suggested(const std::string& key) const { return suggested_.count(key) > 0; }
  // the value of a required key, or nullptr (with an error)
  const YAML::Node* require(std::string_view key) const;
  // record where `key` was set (merged entities)
  void note(std::string_view key, bool ok) const;

  // the table entry of a key; a key the table lacks is a programming error (std::logic_error)
  const keys::Key& def(std::string_view key) const;

  // table-driven readers: true when the key is present and valid (then `out` is set); `out` is
  // left as it was when the key is absent (its default or the catalog's value) or invalid. The
  // type, unit, range and whether the key is required come from the key's table entry.
  bool read(std::string_view key, double& out);               // Quantity, PerKelvin
  bool read(std::string_view key, FlowValue& out);            // Flow
  bool read(std::string_view key, int& out);                  // Integer
  bool read(std::string_view key, long long& out);            // Integer
  bool read(std::string_view key, bool& out);                 // Bool
  bool read(std::string_view key, std::string& out);          // Name, Text, Enum
  bool read(std::string_view key, std::vector<double>& out);  // Numbers
  std::optional<TimeSeries> series(std::string_view key);     // Series
  std::optional<MapIn> map(std::string_view key);             // Map
  // a List's entries; an empty value is an empty list; false when absent or not a list. A word
  // of the key's orWords() is handed to `word` instead
  template <class Fn>
  bool list(std::string_view key, Fn&& fn) {
    const keys::Key& k = def(key);
    const YAML::Node* v = required(k) ? require(key) : get(key);
    if (!v || (v->IsNull() && !required(k))) return false;
    forEachItem(f_, *v, sub(key), k.min_len, k.noun, fn);
    return v->IsSequence();
  }
  // explicit readers for open sections (no table entry)
  bool quantity(std::string_view key, Dim dim, const Range& r, double& out, bool req = false);
  bool integer(std::string_view key, long long lo, long long hi, int& out, bool req = false);
  bool name(std::string_view key, std::string& out, bool req = false);
  bool numbers(std::string_view key, const Range& r, std::size_t min_len, std::vector<double>& out,
               bool req = false);
  std::optional<MapIn> map(std::string_view key, const keys::Section& s, bool req);

 private:
  bool required(const keys::Key& k) const { return k.required && (!section_->merged || k.here); }
  const YAML::Node* value(const keys::Key& k) const {
    return required(k) ? require(k.name) : get(k.name);
  }

  File& f_;
  YAML::Node node_;
  std::string path_;
  const keys::Section* section_;
  Provided* prov_;
  std::string rel_;
  bool valid_ = false;
  std::map<std::string, std::pair<YAML::Node, YAML::Node>> entries_;
  std::vector<std::string> order_;
  std::set<std::string> suggested_;
  std::string id_;  // the map's node in its file (Session::mapKeys)
};

// an open section: any key (names as keys, electrical entries)
const keys::Section& openSection();

// which kind of file a text is, by its top-level keys: the version key (dctwin, dctwin_scenario,
// dctwin_sweep) if any, else the kind with the most keys of its own; nullopt (with *why) when
// it cannot be told
// loc (may be null): where the reason lies (line and column of a YAML syntax error; 0 when the
// file as a whole is at fault)
std::optional<keys::FileKind> detectFileKind(const std::string& text, std::string* why,
                                             SourceLoc* loc = nullptr);

}  // namespace dctwin::reader
