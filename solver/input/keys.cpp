// keys.cpp: key constructors, and what is generated from the tables: JSON Schema, docs tables
//
// the tables themselves: facility_keys.cpp (facility and catalog files), scenario_keys.cpp,
// sweep_keys.cpp
#include "solver/input/keys.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <stdexcept>

namespace dctwin::keys {

//---------------------------------------------------------------------------------------------
// sections and keys

const Key* Section::find(std::string_view n) const {
  for (const Key& k : keys)
    if (n == k.name) return &k;
  return nullptr;
}

std::vector<std::string> Section::names() const {
  std::vector<std::string> r;
  r.reserve(keys.size());
  for (const Key& k : keys) r.emplace_back(k.name);
  return r;
}

namespace {
Key make(const char* name, Type t) {
  Key k;
  k.name = name;
  k.type = t;
  return k;
}
}  // namespace

Key quantity(const char* n, Dim dim, const Range& r) {
  Key k = make(n, Type::Quantity);
  k.dim = dim;
  k.range = r;
  return k;
}
Key perKelvin(const char* n, const Range& r) {
  Key k = make(n, Type::PerKelvin);
  k.range = r;
  return k;
}
Key flow(const char* n) {
  Key k = make(n, Type::Flow);
  k.dim = Dim::Flow;
  k.range = Range{0, 100, true, true, "> 0 and < 100 m3/s, or > 0 and < 100000 kg/s"};
  return k;
}
Key integer(const char* n, long long lo, long long hi) {
  Key k = make(n, Type::Integer);
  k.ilo = lo;
  k.ihi = hi;
  return k;
}
Key boolean(const char* n) {
  return make(n, Type::Bool);
}
Key name(const char* n) {
  return make(n, Type::Name);
}
Key text(const char* n) {
  return make(n, Type::Text);
}
Key choice(const char* n, std::vector<const char*> values) {
  Key k = make(n, Type::Enum);
  k.values = std::move(values);
  return k;
}
Key numbers(const char* n, const Range& r, std::size_t min_len) {
  Key k = make(n, Type::Numbers);
  k.range = r;
  k.min_len = min_len;
  return k;
}
Key series(const char* n, Dim dim, const Range& r) {
  Key k = make(n, Type::Series);
  k.dim = dim;
  k.range = r;
  return k;
}
Key map(const char* n, const Section& s) {
  Key k = make(n, Type::Map);
  k.section = &s;
  return k;
}
Key list(const char* n, const Section* s, const char* noun, std::size_t min_len) {
  Key k = make(n, Type::List);
  k.section = s;
  k.noun = noun;
  k.min_len = min_len;
  return k;
}
Key nameMap(const char* n, const Section& s) {
  Key k = make(n, Type::NameMap);
  k.section = &s;
  return k;
}
Key any(const char* n) {
  return make(n, Type::Any);
}

std::vector<std::string> requiredPaths(const Section& s) {
  std::vector<std::string> out;
  std::function<void(const Section&, const std::string&)> walk = [&](const Section& sec,
                                                                     const std::string& prefix) {
    for (const Key& k : sec.keys) {
      if (k.here) continue;  // checked as the map is read
      const std::string path = prefix + k.name;
      if (k.type == Type::Map && k.section && k.section->merged) {
        // a map holding required keys is itself required through them
        const std::size_t before = out.size();
        walk(*k.section, path + ".");
        if (out.size() == before && k.required) out.push_back(path);
      } else if (k.required) {
        out.push_back(path);
      }
    }
  };
  walk(s, "");
  return out;
}

const char* fileKindName(FileKind k) {
  switch (k) {
    case FileKind::Facility:
      return "facility";
    case FileKind::Scenario:
      return "scenario";
    case FileKind::Sweep:
      return "sweep";
  }
  return "";
}

const Section& fileSection(FileKind k) {
  switch (k) {
    case FileKind::Scenario:
      return scenarioFile();
    case FileKind::Sweep:
      return sweepFile();
    case FileKind::Facility:
      break;
  }
  return facilityFile();
}

std::vector<const Section*> sectionsOf(const Section& top) {
  std::vector<const Section*> out;
  std::set<const Section*> seen;
  std::function<void(const Section&)> walk = [&](const Section& s) {
    if (!seen.insert(&s).second) return;
    out.push_back(&s);
    for (const Key& k : s.keys)
      if (k.section) walk(*k.section);
  };
  walk(top);
  return out;
}

//---------------------------------------------------------------------------------------------
// JSON Schema

namespace {

std::string jsonString(std::string_view s) {
  std::string r = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        r += "\\\"";
        break;
      case '\\':
        r += "\\\\";
        break;
      case '\n':
        r += "\\n";
        break;
      case '\t':
        r += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          r += b;
        } else {
          r += c;
        }
    }
  }
  return r + "\"";
}

std::string jsonNumber(double x) {
  char b[40];
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::snprintf(b, sizeof b, "%.0f", x);
    return b;
  }
  std::snprintf(b, sizeof b, "%.17g", x);
  // shortest form that reads back the same
  for (int p = 1; p <= 17; ++p) {
    char c[40];
    std::snprintf(c, sizeof c, "%.*g", p, x);
    if (std::strtod(c, nullptr) == x) return c;
  }
  return b;
}

// a small JSON writer: objects as ordered key/value lists, indented by two spaces
struct Json {
  std::string kind;  // "raw", "obj", "arr"
  std::string raw;
  std::vector<std::string> names;  // object members: names[i] -> values[i]
  std::vector<Json> values;
  std::vector<Json> items;

  static Json str(std::string_view s) { return Json{"raw", jsonString(s), {}, {}, {}}; }
  static Json num(double x) { return Json{"raw", jsonNumber(x), {}, {}, {}}; }
  static Json lit(const char* s) { return Json{"raw", s, {}, {}, {}}; }
  static Json obj() { return Json{"obj", "", {}, {}, {}}; }
  static Json arr() { return Json{"arr", "", {}, {}, {}}; }
  Json& set(const std::string& k, Json v) {
    names.push_back(k);
    values.push_back(std::move(v));
    return *this;
  }
  Json& push(Json v) {
    items.push_back(std::move(v));
    return *this;
  }
  void write(std::string& out, int indent) const {
    const std::string pad(static_cast<std::size_t>(indent) + 2, ' ');
    if (kind == "raw") {
      out += raw;
    } else if (kind == "obj") {
      if (names.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      for (std::size_t i = 0; i < names.size(); ++i) {
        out += pad + jsonString(names[i]) + ": ";
        values[i].write(out, indent + 2);
        out += i + 1 < names.size() ? ",\n" : "\n";
      }
      out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
    } else {
      // short arrays of scalars on one line
      bool flat = items.size() <= 12 && std::all_of(items.begin(), items.end(),
                                                    [](const Json& j) { return j.kind == "raw"; });
      if (items.empty()) {
        out += "[]";
        return;
      }
      if (flat) {
        out += "[";
        for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i].raw;
        out += "]";
        return;
      }
      out += "[\n";
      for (std::size_t i = 0; i < items.size(); ++i) {
        out += pad;
        items[i].write(out, indent + 2);
        out += i + 1 < items.size() ? ",\n" : "\n";
      }
      out += std::string(static_cast<std::size_t>(indent), ' ') + "]";
    }
  }
};

const char* dimNoun(Dim d) {
  switch (d) {
    case Dim::None:
      return "number";
    case Dim::Temperature:
      return "temperature";
    case Dim::TemperatureDiff:
      return "temperature difference";
    case Dim::Power:
      return "power";
    case Dim::VolumeFlow:
      return "volume flow";
    case Dim::MassFlow:
      return "mass flow";
    case Dim::Flow:
      return "flow (volume or mass)";
    case Dim::Pressure:
      return "pressure";
    case Dim::Length:
      return "length";
    case Dim::Volume:
      return "volume";
    case Dim::Time:
      return "time";
    case Dim::ThermalResistance:
      return "thermal resistance";
    case Dim::HeatCapacity:
      return "heat capacity";
    case Dim::Conductance:
      return "thermal conductance";
    case Dim::Energy:
      return "energy";
    case Dim::LinearConductance:
      return "heat-loss coefficient per metre";
    case Dim::Frequency:
      return "frequency";
    case Dim::DataSize:
      return "data size";
    case Dim::Bandwidth:
      return "bandwidth";
    case Dim::PowerRate:
      return "power ramp rate";
    case Dim::Area:
      return "area";
    case Dim::Mass:
      return "mass";
  }
  return "value";
}

// "temperature", "integer", "list of numbers", ... for the docs' type column
std::string typeWords(const Key& k) {
  if (*k.shown_type) return k.shown_type;
  switch (k.type) {
    case Type::Quantity:
      return dimNoun(k.dim);
    case Type::PerKelvin:
      return "number, 1/K (`0.1` or `0.1 1/K`)";
    case Type::Flow:
      return "flow (volume or mass)";
    case Type::Integer: {
      std::string r = "integer";
      for (const char* w : k.values) r += std::string(" or `") + w + "`";
      return r;
    }
    case Type::Bool:
      return "`true` or `false`";
    case Type::Name:
      return "name";
    case Type::Text:
      return "text";
    case Type::Enum: {
      std::string r;
      for (std::size_t i = 0; i < k.values.size(); ++i)
        r += std::string(i == 0                     ? ""
                         : i + 1 == k.values.size() ? " or "
                                                    : ", ") +
             "`" + k.values[i] + "`";
      return r;
    }
    case Type::Numbers:
      return "list of numbers";
    case Type::Series:
      return std::string("time series of ") + dimNoun(k.dim);
    case Type::Map: {
      std::string r;
      for (const char* w : k.values) r += std::string("`") + w + "` or ";
      return r + "map";
    }
    case Type::List: {
      std::string r;
      for (const char* w : k.values) r += std::string("`") + w + "` or ";
      return r + (k.section ? "list of maps" : "list of names");
    }
    case Type::NameMap:
      return "map: name → map";
    case Type::Any:
      return "any";
  }
  return "";
}

std::string rangeWords(const Key& k) {
  switch (k.type) {
    case Type::Quantity:
    case Type::PerKelvin:
    case Type::Flow:
    case Type::Numbers:
    case Type::Series:
      return k.range.text;
    case Type::Integer:
      if (k.ihi >= (1LL << 40)) return ">= " + std::to_string(k.ilo);
      return std::to_string(k.ilo) + " … " + std::to_string(k.ihi);
    case Type::List:
      return k.min_len > 0 ? "at least " + std::to_string(k.min_len) : "";
    default:
      return "";
  }
}

// a documented default as a JSON value of the key's type, or "" when it is prose
std::string defaultJson(const Key& k) {
  const std::string d = k.def;
  if (d.empty()) return "";
  auto number = [&](double& v) {
    char* end = nullptr;
    v = std::strtod(d.c_str(), &end);
    return end && *end == '\0' && end != d.c_str();
  };
  double v = 0;
  switch (k.type) {
    case Type::Bool:
      return d == "true" || d == "false" ? d : "";
    case Type::Integer:
      return number(v) && v == std::floor(v) ? jsonNumber(v) : "";
    case Type::Quantity:
      if (k.dim == Dim::None) return number(v) ? jsonNumber(v) : "";
      return parseQuantity(d, k.dim, nullptr) ? jsonString(d) : "";
    case Type::PerKelvin:
      return number(v) ? jsonNumber(v) : "";
    case Type::Name:
    case Type::Text:
      return jsonString(d);
    case Type::Enum:
      return std::find_if(k.values.begin(), k.values.end(),
                          [&](const char* x) { return d == x; }) != k.values.end()
                 ? jsonString(d)
                 : "";
    default:
      return "";
  }
}

std::string describeKey(const Key& k) {
  std::string r = k.doc;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    if (!r.empty()) r += r.back() == '.' ? " " : ". ";
    r += s;
  };
  if (k.type == Type::Quantity && k.dim != Dim::None)
    add(std::string("A ") + describe(k.dim).substr(2));
  if (k.type == Type::Flow) add(std::string("A ") + describe(Dim::Flow).substr(2));
  if (k.type == Type::Series) add(std::string("A time series of ") + describe(k.dim).substr(2));
  const std::string range = rangeWords(k);
  if (!range.empty() && k.type != Type::Integer && k.type != Type::List) add("Range: " + range);
  if (!std::string(k.def).empty() && defaultJson(k).empty()) add(std::string("Default: ") + k.def);
  return r;
}

const char* kQuantityPattern = "^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*\\S.*$";
const char* kNamePattern = "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$";

}  // namespace

// a quantity of one dimension: a number and one of the units parseQuantity accepts for it, so
// that a validator refuses "40 kW" for a temperature as the loader does
std::string quantityPattern(Dim dim) {
  std::string alt;
  for (const std::string& u : unitNames(dim)) {
    alt += alt.empty() ? "" : "|";
    for (char ch : u) {
      if (std::string_view("\\^$.|?*+()[]{}/").find(ch) != std::string_view::npos) alt += '\\';
      alt += ch;
    }
  }
  if (alt.empty()) return kQuantityPattern;
  return "^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*(" + alt + ")\\s*$";
}

namespace {

std::string defName(const Section& s) {
  return s.id;
}

Json ref(const Section& s) {
  return Json::obj().set("$ref", Json::str("#/definitions/" + defName(s)));
}

// numeric bounds of a range, for plain numbers
void bounds(Json& j, const Range& r) {
  if (std::isfinite(r.lo)) j.set(r.lo_open ? "exclusiveMinimum" : "minimum", Json::num(r.lo));
  if (std::isfinite(r.hi)) j.set(r.hi_open ? "exclusiveMaximum" : "maximum", Json::num(r.hi));
}

Json keySchema(const Key& k) {
  Json j = Json::obj();
  const std::string desc = describeKey(k);
  switch (k.type) {
    case Type::Quantity:
      if (k.dim == Dim::None) {
        j.set("type", Json::str("number"));
        bounds(j, k.range);
      } else {
        j.set("type", Json::str("string"));
        j.set("pattern", Json::str(quantityPattern(k.dim)));
      }
      break;
    case Type::PerKelvin:
      j.set("type", Json::arr().push(Json::str("number")).push(Json::str("string")));
      bounds(j, k.range);
      break;
    case Type::Flow:
      j.set("type", Json::str("string"));
      j.set("pattern", Json::str(quantityPattern(Dim::Flow)));
      break;
    case Type::Integer:
      j.set("type", Json::str("integer"));
      j.set("minimum", Json::num(static_cast<double>(k.ilo)));
      if (k.ihi < (1LL << 40)) j.set("maximum", Json::num(static_cast<double>(k.ihi)));
      if (!k.values.empty()) {  // or one of its words
        Json e = Json::arr();
        for (const char* w : k.values) e.push(Json::str(w));
        j = Json::obj().set("anyOf", Json::arr().push(Json::obj().set("enum", e)).push(j));
      }
      break;
    case Type::Bool:
      j.set("type", Json::str("boolean"));
      break;
    case Type::Name:
      j.set("type", Json::str("string"));
      j.set("pattern", Json::str(kNamePattern));
      break;
    case Type::Text:
      // any scalar is read as its text
      j.set(
          "type",
          Json::arr().push(Json::str("string")).push(Json::str("number")).push(Json::str("null")));
      break;
    case Type::Enum: {
      Json e = Json::arr();
      for (const char* v : k.values) e.push(Json::str(v));
      j.set("enum", e);
      break;
    }
    case Type::Numbers: {
      Json it = Json::obj().set("type", Json::str("number"));
      bounds(it, k.range);
      j.set("type", Json::str("array"));
      j.set("items", it);
      if (k.min_len > 0) j.set("minItems", Json::num(static_cast<double>(k.min_len)));
      break;
    }
    case Type::Series: {
      Json value = Json::obj();
      if (k.dim == Dim::None) {
        value.set("type", Json::str("number"));
        bounds(value, k.range);
      } else {
        value.set("type", Json::str("string"));
        value.set("pattern", Json::str(quantityPattern(k.dim)));
      }
      j.set("anyOf", Json::arr().push(value).push(ref(seriesSection())));
      break;
    }
    case Type::Map:
      j = ref(*k.section);
      if (!k.values.empty()) {  // a word instead of the map (`variation: none`)
        Json e = Json::arr();
        for (const char* w : k.values) e.push(Json::str(w));
        j = Json::obj().set("anyOf", Json::arr().push(Json::obj().set("enum", e)).push(j));
      }
      break;
    case Type::List: {
      Json items = k.section ? ref(*k.section)
                             : Json::obj()
                                   .set("type", Json::str("string"))
                                   .set("pattern", Json::str(kNamePattern));
      // an empty value is an empty list where the list is optional
      Json a = Json::obj().set(
          "type", k.required ? Json::str("array")
                             : Json::arr().push(Json::str("array")).push(Json::str("null")));
      a.set("items", items);
      if (k.min_len > 0) a.set("minItems", Json::num(static_cast<double>(k.min_len)));
      if (k.values.empty()) {
        j = a;
      } else {
        Json e = Json::arr();
        for (const char* w : k.values) e.push(Json::str(w));
        j.set("anyOf", Json::arr().push(Json::obj().set("enum", e)).push(a));
      }
      break;
    }
    case Type::NameMap:
      j.set("type", Json::str("object"));
      j.set("propertyNames", Json::obj().set("pattern", Json::str(kNamePattern)));
      j.set("additionalProperties", ref(*k.section));
      break;
    case Type::Any:
      break;
  }
  if (!desc.empty()) {
    // a $ref ignores its siblings in draft-07: wrap it
    if (k.type == Type::Map) j = Json::obj().set("allOf", Json::arr().push(j));
    j.set("description", Json::str(desc));
  }
  if (const std::string d = defaultJson(k); !d.empty()) j.set("default", Json::lit(d.c_str()));
  return j;
}

Json sectionSchema(const Section& s) {
  Json j = Json::obj();
  j.set("type", Json::str("object"));
  if (*s.title) j.set("description", Json::str(s.title));
  if (s.open) return j;
  Json props = Json::obj();
  Json req = Json::arr();
  for (const Key& k : s.keys) {
    props.set(k.name, keySchema(k));
    if (k.required && (!s.merged || k.here)) req.push(Json::str(k.name));
  }
  j.set("properties", props);
  if (!req.items.empty()) j.set("required", req);
  j.set("patternProperties", Json::obj().set("^x-", Json::obj()));
  j.set("additionalProperties", Json::lit("false"));
  return j;
}

}  // namespace

std::string jsonSchema(FileKind kind) {
  const Section& top = fileSection(kind);
  Json root = sectionSchema(top);
  Json head = Json::obj();
  head.set("$schema", Json::str("http://json-schema.org/draft-07/schema#"));
  head.set("$id", Json::str(std::string("https://dctwin.dev/schema/") + fileKindName(kind) +
                            ".schema.json"));
  head.set("title", Json::str(std::string("dctwin ") + fileKindName(kind) + " file"));
  head.set("$comment",
           Json::str("generated by `dctwin schema --file " + std::string(fileKindName(kind)) +
                     "` from the key tables (solver/input/*_keys.cpp); do not edit"));
  for (std::size_t i = 0; i < root.names.size(); ++i)
    head.set(root.names[i], std::move(root.values[i]));
  Json defs = Json::obj();
  std::vector<const Section*> secs = sectionsOf(top);
  for (const Section* s : secs)
    if (s != &top) defs.set(defName(*s), sectionSchema(*s));
  // the series map is reached from series keys, not through a section pointer
  bool has_series = false;
  for (const Section* s : secs)
    for (const Key& k : s->keys) has_series = has_series || k.type == Type::Series;
  if (has_series) defs.set(defName(seriesSection()), sectionSchema(seriesSection()));
  head.set("definitions", defs);
  std::string out;
  head.write(out, 0);
  return out + "\n";
}

//---------------------------------------------------------------------------------------------
// markdown

namespace {
std::string cell(std::string s) {
  std::string r;
  for (char c : s) r += c == '|' ? std::string("\\|") : std::string(1, c);
  return r;
}
}  // namespace

std::string markdownTable(const Section& s) {
  std::string out = "`" + std::string(s.id) + "`" + (*s.title ? ": " + std::string(s.title) : "") +
                    "\n\n| key | type | range | default | meaning |\n|---|---|---|---|---|\n";
  for (const Key& k : s.keys) {
    std::string def = k.def;
    if (!def.empty() && !defaultJson(k).empty()) def = "`" + def + "`";  // a value, not prose
    if (k.required)
      def = s.merged && !k.here ? "required (here or in the catalog entry)" : "required";
    if (def.empty()) def = "—";
    std::string type = typeWords(k);
    if (k.type == Type::Quantity && !std::string(k.unit).empty())
      type += std::string(" (e.g. `") + k.unit + "`)";
    std::string doc = k.doc;
    if (k.section && k.type != Type::Any)
      doc += std::string(doc.empty() ? "" : "; ") + "keys: `" + k.section->id + "`";
    out += "| `" + std::string(k.name) + "` | " + cell(type) + " | " + cell(rangeWords(k)) + " | " +
           cell(def) + " | " + cell(doc) + " |\n";
  }
  return out;
}

std::string markdownTables(FileKind kind) {
  std::string out;
  for (const Section* s : sectionsOf(fileSection(kind))) {
    out += std::string("<!-- keys:") + s->id + " begin -->\n" + markdownTable(*s) +
           "<!-- keys:" + s->id + " end -->\n\n";
  }
  return out;
}

std::string updateMarkedTables(const std::string& doc, FileKind kind,
                               std::vector<std::string>* unknown) {
  std::string out;
  std::size_t pos = 0;
  const std::string open = "<!-- keys:";
  const auto secs = sectionsOf(fileSection(kind));
  while (true) {
    const std::size_t b = doc.find(open, pos);
    if (b == std::string::npos) break;
    const std::size_t idEnd = doc.find(" begin -->", b);
    const std::size_t lineEnd = doc.find('\n', b);
    if (idEnd == std::string::npos || idEnd > lineEnd) {
      // an end marker or something else: copy through
      out += doc.substr(pos, lineEnd == std::string::npos ? std::string::npos : lineEnd + 1 - pos);
      if (lineEnd == std::string::npos) return out;
      pos = lineEnd + 1;
      continue;
    }
    const std::string id = doc.substr(b + open.size(), idEnd - b - open.size());
    const std::string endMarker = open + id + " end -->";
    const std::size_t e = doc.find(endMarker, idEnd);
    out += doc.substr(pos, lineEnd + 1 - pos);
    const Section* sec = nullptr;
    for (const Section* s : secs)
      if (id == s->id) sec = s;
    if (!sec || e == std::string::npos) {
      if (unknown) unknown->push_back(id);
      pos = lineEnd + 1;
      continue;
    }
    out += markdownTable(*sec);
    pos = e;
  }
  out += doc.substr(pos);
  return out;
}

}  // namespace dctwin::keys
