// yaml_reader.cpp: the one YAML reader (yaml_reader.h)
//
// robustness: every YAML exception is caught and reported with its mark; files over 16 MiB and
// non-UTF-8 text are refused before parsing; lists are limited to 1e6 entries and the walk to 4e6
// visited values, so that aliases (which yaml-cpp shares, never copies) cannot make the walk
// exponential; the walk itself follows the key tables, so its depth is bounded whatever the
// nesting.
#include "solver/input/yaml_reader.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "solver/common/bounded_file.h"
#include "solver/common/paths.h"

namespace dctwin {

int editDistance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<int> row(m + 1);
  for (std::size_t j = 0; j <= m; ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    int diag = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= m; ++j) {
      const int up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[m];
}

// "; did you mean 'x'?" by edit distance <= 2 or by prefix, or ""
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > 200) return "";
  std::string best;
  int best_d = 3;
  for (const auto& c : candidates) {
    if (c == word) continue;
    const std::size_t la = word.size(), lb = c.size();
    if ((la > lb ? la - lb : lb - la) > 2) continue;
    const int d = editDistance(reader::lower(word), reader::lower(c));
    if (d < best_d && d < static_cast<int>(std::max(la, lb))) best_d = d, best = c;
  }
  if (best.empty()) {
    for (const auto& c : candidates) {
      if (word.size() >= 2 && c.size() > word.size() && c.compare(0, word.size(), word) == 0) {
        best = c;
        break;
      }
      if (c.size() >= 3 && word.size() > c.size() && word.compare(0, c.size(), c) == 0) {
        best = c;
        break;
      }
    }
  }
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

namespace reader {
namespace fs = std::filesystem;

//---------------------------------------------------------------------------------------------
// small helpers

std::string sub(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
std::string item(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// a value as shown in a message: control characters replaced, cut at 60 bytes on a UTF-8 boundary
std::string clip(std::string_view s) {
  constexpr std::size_t kMax = 60;
  std::size_t n = s.size();
  bool cut = false;
  if (n > kMax) {
    n = kMax;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    cut = true;
  }
  std::string out;
  out.reserve(n + 3);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    out += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
  }
  if (cut) out += "...";
  return out;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return std::string(s);
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

const char* noun(Dim dim) {
  switch (dim) {
    case Dim::None:
      return "a number";
    case Dim::Temperature:
      return "a temperature";
    case Dim::TemperatureDiff:
      return "a temperature difference";
    case Dim::Power:
      return "a power";
    case Dim::VolumeFlow:
      return "a volume flow";
    case Dim::MassFlow:
      return "a mass flow";
    case Dim::Flow:
      return "a flow";
    case Dim::Pressure:
      return "a pressure";
    case Dim::Length:
      return "a length";
    case Dim::Volume:
      return "a volume";
    case Dim::Area:
      return "an area";
    case Dim::Mass:
      return "a mass";
    case Dim::Time:
      return "a time";
    case Dim::ThermalResistance:
      return "a thermal resistance";
    case Dim::HeatCapacity:
      return "a heat capacity";
    case Dim::Conductance:
      return "a thermal conductance";
    case Dim::LinearConductance:
      return "a heat-loss coefficient per metre";
    case Dim::Frequency:
      return "a frequency";
    case Dim::DataSize:
      return "a data size";
    case Dim::Bandwidth:
      return "a bandwidth";
    case Dim::PowerRate:
      return "a power ramp rate";
    case Dim::Energy:
      return "an energy";
  }
  return "a value";
}

const char* kindOf(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "a single value";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return "nothing";
  }
  return "something else";
}

// names of facility objects and catalog entries; catalog names become file names, so no
// separators or leading dots
bool validName(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  };
  if (s.front() == '.' || s.front() == '-') return false;
  return std::all_of(s.begin(), s.end(), ok);
}
const char* const kNameRule =
    "expected a name of letters, digits, '_', '-' and '.' (at most 64 characters, not starting "
    "with '.' or '-')";

// " (known: a, b, c)" for a short list of names
std::string knownList(const std::vector<std::string>& names) {
  if (names.empty()) {
    // nothing defined at all: most often no catalog was found (a program outside its tree)
    const std::string note = catalogNotFoundNote();
    return note.empty() ? " (none are defined)" : " (none are defined: " + note + ")";
  }
  std::string r = " (known: ";
  for (std::size_t i = 0; i < names.size() && i < 12; ++i) r += (i ? ", " : "") + names[i];
  if (names.size() > 12) r += ", ...";
  return r + ")";
}

std::string fmt(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

std::string alternatives(const std::vector<std::string>& words) {
  std::string r;
  for (std::size_t i = 0; i < words.size(); ++i)
    r += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return r;
}

//---------------------------------------------------------------------------------------------
// Session, File

Session::Session(const LoadOptions& o)
    : dirs(o.data_dirs.empty() ? defaultDataDirs() : o.data_dirs) {}

void Session::add(SourceLoc loc, std::string value, std::string message, bool always) {
  ++count_;
  if (errors_.size() >= kMaxErrors && !always) {
    ++dropped_;
    return;
  }
  errors_.push_back(LoadError{std::move(loc), clip(value), std::move(message)});
}

void Session::tooLarge(SourceLoc at) {
  add(std::move(at), "",
      "the document is too large to walk (more than " + std::to_string(kMaxVisits) +
          " values visited); are aliases (*name) used to repeat large parts?",
      true);
  throw Abort{};
}

void Session::mapKeys(const std::string& id, const keys::Section& section,
                      std::vector<std::pair<std::string, SourceLoc>> keys) {
  MapUse& u = maps_[id];
  if (!section.open && !u.section) u.section = &section;
  if (u.keys.empty()) u.keys = std::move(keys);
}

void Session::keyRead(const std::string& id, std::string_view key) {
  if (auto it = maps_.find(id); it != maps_.end()) it->second.read.emplace(key);
}

std::vector<LoadError> Session::unread() const {
  std::vector<LoadError> out;
  for (const auto& [id, u] : maps_) {
    // (an open section accepts any key by design: names as keys, the standards' keys of
    // electrical entries)
    if (!u.section) continue;
    for (const auto& [k, loc] : u.keys) {
      if (u.read.count(k)) continue;
      const keys::Key* d = u.section->find(k);
      if (d && d->for_people) continue;
      out.push_back(LoadError{loc, "",
                              "key '" + k +
                                  "' is accepted but nothing reads it: it would be ignored "
                                  "(a dctwin bug; please report it)"});
      if (out.size() >= kMaxErrors) return out;
    }
  }
  return out;
}

bool Session::failed() const {
  return count_ > 0 || !unread().empty();
}

std::vector<LoadError> Session::finish(const std::string& file) {
  if (count_ == 0)  // (after another error a reader may have stopped before reading the rest)
    for (auto& e : unread()) add(std::move(e.loc), "", std::move(e.message));
  std::map<std::string, std::size_t> rank;
  for (const auto& e : errors_) rank.try_emplace(e.loc.file, rank.size());
  std::stable_sort(errors_.begin(), errors_.end(), [&](const LoadError& a, const LoadError& b) {
    const std::size_t ra = rank[a.loc.file], rb = rank[b.loc.file];
    if (ra != rb) return ra < rb;
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.column < b.loc.column;
  });
  if (dropped_ > 0)
    errors_.push_back(LoadError{SourceLoc{file, 0, 0, ""}, "",
                                std::to_string(dropped_) + " more errors not shown"});
  return std::move(errors_);
}

SourceLoc File::loc(const YAML::Node& n, const std::string& path) const {
  SourceLoc l{name, 0, 0, path};
  if (n.IsDefined()) {
    YAML::Mark m = n.Mark();
    // an empty value ("key:") is marked at the next token; report it at its key
    if (n.IsNull())
      for (const auto& [value, key] : nulls_)
        if (value.is(n)) m = key.Mark();
    if (!m.is_null() && m.line >= 0) l.line = m.line + 1, l.column = m.column + 1;
  }
  return l;
}

//---------------------------------------------------------------------------------------------
// document checks

// position of byte `off` as 1-based line and column
std::pair<int, int> lineColumn(std::string_view text, std::size_t off) {
  int line = 1, col = 1;
  for (std::size_t i = 0; i < off && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      ++col;
  }
  return {line, col};
}

// offset of the first byte that is not valid UTF-8 text (or is a control character other than tab,
// line feed, carriage return), or npos
std::size_t badTextByte(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return i;
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned cp = 0;
    if (c >= 0xC2 && c <= 0xDF)
      len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
      len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
      len = 4, cp = c & 0x07;
    else
      return i;
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // overlong forms, surrogates, beyond U+10FFFF
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return std::string_view::npos;
}

// parse one YAML document; false (with errors added) when there is none to read
void addYamlError(Session& s, const std::string& file, const YAML::Exception& e) {
  SourceLoc l{file, 0, 0, ""};
  if (!e.mark.is_null() && e.mark.line >= 0) l.line = e.mark.line + 1, l.column = e.mark.column + 1;
  s.add(l, "", "YAML error: " + e.msg);
}

bool parseDocument(Session& s, const std::string& file, const std::string& text, YAML::Node& out) {
  if (text.size() > kMaxFileBytes) {
    s.add(SourceLoc{file, 0, 0, ""}, "",
          "the file is too large (" + std::to_string(text.size()) + " bytes; at most 16 MiB)");
    return false;
  }
  if (const std::size_t bad = badTextByte(text); bad != std::string_view::npos) {
    const auto [line, col] = lineColumn(text, bad);
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
    s.add(SourceLoc{file, line, col, ""}, "",
          std::string("the file is not UTF-8 text (byte ") + hex + "); is it a binary file?");
    return false;
  }
  // a first pass over the parser's events, without building nodes: it counts the values (yaml-cpp
  // needs seconds and gigabytes for millions of nodes, so a document is refused before that) and
  // the documents (YAML::LoadAll can loop forever on some malformed input: yaml-cpp 0.7's
  // HandleNextDocument keeps returning true without progress); then the first document is built
  // yaml-cpp scans a whole flow collection ([...], {...}) before it reports its events, so the
  // count below comes too late for a huge one; its entries need commas, which are cheap to count
  const std::string too_many = "the document holds more than " + std::to_string(kMaxYamlValues) +
                               " values; give long series as CSV files";
  if (static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) > kMaxCommas) {
    s.add(SourceLoc{file, 0, 0, ""}, "",
          "the document holds more than " + std::to_string(kMaxCommas) +
              " commas; give long series as CSV files");
    return false;
  }
  struct TooMany {};
  struct Count : YAML::EventHandler {
    std::size_t values = 0;
    void bump() {
      if (++values > kMaxYamlValues) throw TooMany{};
    }
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override { bump(); }
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override { bump(); }
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {
      bump();
    }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
      bump();
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {
      bump();
    }
    void OnMapEnd() override {}
  };
  std::size_t ndocs = 0;
  try {
    Count count;
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (ndocs < 2 && parser.HandleNextDocument(count)) ++ndocs;
    if (ndocs < 2) out = YAML::Load(text);
  } catch (const TooMany&) {
    s.add(SourceLoc{file, 0, 0, ""}, "", too_many);
    return false;
  } catch (const YAML::Exception& e) {
    SourceLoc l{file, 0, 0, ""};
    if (!e.mark.is_null() && e.mark.line >= 0)
      l.line = e.mark.line + 1, l.column = e.mark.column + 1;
    std::string msg = e.msg.empty() ? std::string("malformed YAML") : e.msg;
    // yaml-cpp's depth guard reports "bad file" (its DeepRecursion type is not exported)
    if (e.msg == YAML::ErrorMsg::BAD_FILE)
      msg = "the document nests lists or maps too deeply (yaml-cpp stops at a few hundred levels)";
    s.add(l, "", "YAML syntax error: " + msg);
    return false;
  }
  if (ndocs > 1) {
    s.add(SourceLoc{file, 0, 0, ""}, "",
          "the file holds more than one YAML document ('---' separators); expected one");
    return false;
  }
  if (ndocs == 0 || !out.IsDefined() || out.IsNull()) {
    s.add(SourceLoc{file, 1, 1, ""}, "", "the file is empty");
    return false;
  }
  return true;
}

// read a whole file of at most kMaxFileBytes; nullopt with *why on failure (the bounded opener:
// regular files only, never a blocking open, solver/common/bounded_file.h)
std::optional<std::string> readTextFile(const std::string& path, std::string* why) {
  FileRefusal r;
  auto text = readBoundedFile(path, kMaxFileBytes, &r);
  if (!text) *why = r.reason;
  return text;
}

//---------------------------------------------------------------------------------------------
// value readers on single nodes

// ".nan", ".inf" and friends: YAML's special floats, which from_chars does not know
bool yamlSpecialFloat(std::string_view s) {
  std::string t = lower(trimmed(s));
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.erase(0, 1);
  return t.rfind(".nan", 0) == 0 || t.rfind(".inf", 0) == 0;
}

std::optional<double> readQuantity(File& f, const YAML::Node& n, const std::string& path, Dim dim,
                                   const Range& r, bool per_kelvin) {
  f.visit(n, path);
  if (!n.IsScalar()) {
    f.error(n, path, "", "expected " + describe(dim) + ", got " + kindOf(n));
    return std::nullopt;
  }
  const std::string& text = n.Scalar();
  if (yamlSpecialFloat(text)) {
    f.error(n, path, text,
            std::string("expected a finite number; ") + noun(dim) + " cannot be NaN or infinite");
    return std::nullopt;
  }
  std::string_view body = text;
  std::string stripped;
  if (per_kelvin) {
    // a gain per kelvin may carry its unit
    stripped = trimmed(body);
    for (const char* u : {"1/K", "/K"}) {
      const std::string_view us(u);
      if (stripped.size() > us.size() &&
          stripped.compare(stripped.size() - us.size(), us.size(), us) == 0) {
        stripped.resize(stripped.size() - us.size());
        break;
      }
    }
    body = stripped;
  }
  std::string why;
  const auto q = parseQuantity(body, dim, &why);
  if (!q) {
    f.error(n, path, text, why);
    return std::nullopt;
  }
  if (!r.contains(q->value)) {
    f.error(n, path, text, std::string("expected ") + noun(dim) + " " + r.text);
    return std::nullopt;
  }
  return q->value;
}

std::optional<FlowValue> readFlow(File& f, const YAML::Node& n, const std::string& path) {
  f.visit(n, path);
  if (!n.IsScalar()) {
    f.error(n, path, "", "expected " + describe(Dim::Flow) + ", got " + kindOf(n));
    return std::nullopt;
  }
  const std::string& text = n.Scalar();
  if (yamlSpecialFloat(text)) {
    f.error(n, path, text, "expected a finite number; a flow cannot be NaN or infinite");
    return std::nullopt;
  }
  std::string why;
  const auto q = parseQuantity(text, Dim::Flow, &why);
  if (!q) {
    f.error(n, path, text, why);
    return std::nullopt;
  }
  const bool mass = q->dim == Dim::MassFlow;
  const Range& r = mass ? keys::kMassFlow : keys::kVolumeFlow;
  if (!r.contains(q->value)) {
    f.error(n, path, text,
            std::string("expected ") + (mass ? "a mass flow " : "a volume flow ") + r.text);
    return std::nullopt;
  }
  return FlowValue{q->value, mass};
}

std::optional<long long> readInteger(File& f, const YAML::Node& n, const std::string& path,
                                     long long lo, long long hi) {
  f.visit(n, path);
  auto expected = [&] {
    std::string m = "expected an integer";
    if (hi >= (1LL << 40)) return m + " >= " + std::to_string(lo);
    return m + " between " + std::to_string(lo) + " and " + std::to_string(hi);
  };
  if (!n.IsScalar()) {
    f.error(n, path, "", expected() + ", got " + kindOf(n));
    return std::nullopt;
  }
  const std::string text = trimmed(n.Scalar());
  std::string_view s = text;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || v < lo || v > hi) {
    f.error(n, path, n.Scalar(), expected());
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> readText(File& f, const YAML::Node& n, const std::string& path,
                                    const char* what) {
  f.visit(n, path);
  if (!n.IsScalar()) {
    f.error(n, path, "", std::string("expected ") + what + ", got " + kindOf(n));
    return std::nullopt;
  }
  return n.Scalar();
}

std::optional<std::string> readName(File& f, const YAML::Node& n, const std::string& path) {
  auto t = readText(f, n, path, "a name");
  if (!t) return std::nullopt;
  if (!validName(*t)) {
    f.error(n, path, *t, kNameRule);
    return std::nullopt;
  }
  return t;
}

// a boolean: only true or false (YAML 1.2 core schema); yes/no/on/off are refused, never read
// as false
std::optional<bool> readBool(File& f, const YAML::Node& n, const std::string& path) {
  f.visit(n, path);
  if (n.IsScalar()) {
    const std::string t = trimmed(n.Scalar());
    if (t == "true" || t == "True" || t == "TRUE") return true;
    if (t == "false" || t == "False" || t == "FALSE") return false;
    const std::string l = lower(t);
    if (l == "yes" || l == "no" || l == "on" || l == "off" || l == "y" || l == "n") {
      f.error(n, path, n.Scalar(),
              "expected true or false ('" + clip(t) + "' is not read as a boolean: write " +
                  (l == "yes" || l == "on" || l == "y" ? "true" : "false") + ")");
      return std::nullopt;
    }
    f.error(n, path, n.Scalar(), "expected true or false");
    return std::nullopt;
  }
  f.error(n, path, "", std::string("expected true or false, got ") + kindOf(n));
  return std::nullopt;
}

// a list node, checked for type and length; nullopt (with an error) otherwise
bool checkList(File& f, const YAML::Node& n, const std::string& path, std::size_t min_len,
               const char* what) {
  f.visit(n, path);
  if (!n.IsSequence()) {
    f.error(n, path, n.IsScalar() ? n.Scalar() : "",
            std::string("expected a list of ") + what + ", got " + kindOf(n));
    return false;
  }
  const std::size_t len = n.size();
  if (len > kMaxListLength) {
    f.error(n, path, "",
            "the list is too long (" + std::to_string(len) + " entries; at most 1000000)");
    return false;
  }
  if (len < min_len) {
    f.error(n, path, "",
            "expected at least " + std::to_string(min_len) + " " + what + ", got " +
                std::to_string(len));
    return false;
  }
  return true;
}

std::optional<std::vector<double>> readNumbers(File& f, const YAML::Node& n,
                                               const std::string& path, const Range& r,
                                               std::size_t min_len) {
  if (!checkList(f, n, path, min_len, "numbers")) return std::nullopt;
  std::vector<double> out;
  out.reserve(n.size());
  bool ok = true;
  std::size_t i = 0;
  for (auto it = n.begin(); it != n.end(); ++it, ++i) {
    const auto v = readQuantity(f, *it, item(path, i), Dim::None, r);
    if (v)
      out.push_back(*v);
    else
      ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

//---------------------------------------------------------------------------------------------
// file kinds

std::optional<keys::FileKind> detectFileKind(const std::string& text, std::string* why,
                                             SourceLoc* loc) {
  using keys::FileKind;
  Session s;
  YAML::Node root;
  try {
    if (!parseDocument(s, "", text, root)) {
      // the reader's own reason (too large, not UTF-8, too many values, a YAML error) and where
      const std::vector<LoadError> e = s.finish("");
      *why = e.empty() ? "not a YAML document" : e.front().message;
      if (loc != nullptr && !e.empty()) *loc = e.front().loc;
      return std::nullopt;
    }
    if (!root.IsMap()) {
      *why = "not a YAML map of keys";
      return std::nullopt;
    }
  } catch (const std::exception& e) {
    *why = e.what();
    return std::nullopt;
  }
  std::vector<std::string> top;
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.IsScalar()) top.push_back(it->first.Scalar());
  auto has = [&](const char* k) { return std::find(top.begin(), top.end(), k) != top.end(); };
  if (has("dctwin")) return FileKind::Facility;
  if (has("dctwin_scenario")) return FileKind::Scenario;
  if (has("dctwin_sweep")) return FileKind::Sweep;
  // keys that only one kind has at its top level
  const FileKind kinds[] = {FileKind::Facility, FileKind::Scenario, FileKind::Sweep};
  int score[3] = {0, 0, 0};
  for (const std::string& k : top) {
    int in = -1, n = 0;
    for (int i = 0; i < 3; ++i)
      if (keys::fileSection(kinds[i]).find(k)) in = i, ++n;
    if (n == 1) ++score[in];
  }
  const int best = static_cast<int>(std::max_element(score, score + 3) - score);
  if (score[best] == 0 || std::count(score, score + 3, score[best]) > 1) {
    *why =
        "cannot tell whether it is a facility, scenario or sweep file; start it with "
        "'dctwin: 1', 'dctwin_scenario: 1' or 'dctwin_sweep: 1'";
    return std::nullopt;
  }
  return kinds[best];
}

//---------------------------------------------------------------------------------------------
// choices

std::optional<std::string> readChoice(File& f, const YAML::Node& n, const std::string& path,
                                      const std::vector<const char*>& values, const char* expect) {
  const std::vector<std::string> words(values.begin(), values.end());
  const auto t = readText(f, n, path, ("one of " + alternatives(words)).c_str());
  if (!t) return std::nullopt;
  if (std::find(words.begin(), words.end(), *t) == words.end()) {
    f.error(n, path, *t,
            "expected " + (*expect ? std::string(expect) : alternatives(words)) +
                didYouMean(*t, words));
    return std::nullopt;
  }
  return t;
}

//---------------------------------------------------------------------------------------------
// MapIn

const keys::Section& openSection() {
  static const keys::Section s = [] {
    keys::Section o;
    o.id = "open";
    o.open = true;
    return o;
  }();
  return s;
}

MapIn::MapIn(File& f, const YAML::Node& node, std::string path, const keys::Section& section,
             Provided* prov, std::string rel)
    : f_(f),
      node_(node),
      path_(std::move(path)),
      section_(&section),
      prov_(prov),
      rel_(std::move(rel)) {
  f_.visit(node_, path_);
  if (!node_.IsMap()) {
    // at the top level the file is not one of ours (a text file, /etc/passwd): nothing of it is
    // quoted back
    if (path_.empty())
      f_.error(node_, path_, "",
               std::string("the file is not a map of keys (key: value lines) but ") +
                   kindOf(node_) + "; is it a dctwin YAML file?");
    else
      f_.error(node_, path_, node_.IsScalar() ? node_.Scalar() : "",
               std::string("expected a map (key: value lines), got ") + kindOf(node_));
    return;
  }
  valid_ = true;
  const bool open = section.open;
  const std::vector<std::string> names = open ? std::vector<std::string>{} : section.names();
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    // copies: the iterator's pair is a temporary proxy
    const YAML::Node k = it->first;
    const YAML::Node v = it->second;
    f_.visit(k, path_);
    if (!k.IsScalar()) {
      f_.error(k, path_, "", std::string("expected a plain key name, got ") + kindOf(k));
      continue;
    }
    const std::string& key = k.Scalar();
    // extension keys hold anchors and notes for people; never read
    if (key.size() >= 2 && key[0] == 'x' && key[1] == '-') continue;
    if (v.IsNull()) f_.nullValue(v, k);
    if (!open && std::find(names.begin(), names.end(), key) == names.end()) {
      std::string hint = didYouMean(key, names);
      if (hint.empty()) {
        hint = "; expected one of: ";
        for (std::size_t i = 0; i < names.size(); ++i) hint += (i ? ", " : "") + names[i];
      } else {
        // the misspelt key is not reported missing as well
        suggested_.insert(hint.substr(hint.find('\'') + 1, hint.rfind('\'') - hint.find('\'') - 1));
      }
      f_.error(k, path_, "", "unknown key '" + clip(key) + "'" + hint);
      continue;
    }
    auto [pos, fresh] = entries_.emplace(key, std::make_pair(k, v));
    if (!fresh) {
      const SourceLoc first = f_.loc(pos->second.first, "");
      f_.error(k, sub(clip(key)), key,
               "duplicate key (first given at line " + std::to_string(first.line) + ")");
    } else {
      order_.push_back(key);
    }
  }
  // the keys for the unread check: every MapIn on this node adds what it reads
  const SourceLoc at = f_.loc(node_, path_);
  id_ = f_.name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  std::vector<std::pair<std::string, SourceLoc>> keys;
  keys.reserve(order_.size());
  for (const std::string& k : order_) keys.emplace_back(k, f_.loc(entries_.at(k).first, sub(k)));
  f_.s.mapKeys(id_, section, std::move(keys));
}

const YAML::Node* MapIn::get(std::string_view key) const {
  if (!id_.empty()) f_.s.keyRead(id_, key);
  auto it = entries_.find(std::string(key));
  return it == entries_.end() ? nullptr : &it->second.second;
}
const YAML::Node* MapIn::keyNode(std::string_view key) const {
  auto it = entries_.find(std::string(key));
  return it == entries_.end() ? nullptr : &it->second.first;
}
SourceLoc MapIn::locOf(std::string_view key) const {
  const YAML::Node* v = get(key);
  return v ? f_.loc(*v, sub(key)) : loc();
}
void MapIn::missing(std::string_view key, const std::string& extra) const {
  if (valid_ && !suggested_.count(std::string(key)))
    f_.error(node_, path_, "", "missing required key '" + std::string(key) + "'" + extra);
}
const YAML::Node* MapIn::require(std::string_view key) const {
  const YAML::Node* v = get(key);
  if (!v) missing(key);
  return v;
}
void MapIn::note(std::string_view key, bool ok) const {
  if (!prov_) return;
  const YAML::Node* v = get(key);
  (*prov_)[rel_ + std::string(key)] = Set{v ? f_.loc(*v, sub(key)) : loc(), ok};
}

const keys::Key& MapIn::def(std::string_view key) const {
  const keys::Key* k = section_->find(key);
  if (!k)
    throw std::logic_error("key table '" + std::string(section_->id) + "' has no key '" +
                           std::string(key) + "'");
  return *k;
}

namespace {
[[noreturn]] void wrongType(const keys::Section& s, const keys::Key& k) {
  throw std::logic_error("key '" + std::string(s.id) + "." + k.name +
                         "' is read with a type other than its table's");
}
}  // namespace

bool MapIn::read(std::string_view key, double& out) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Quantity && k.type != keys::Type::PerKelvin) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return false;
  const auto q = readQuantity(f_, *v, sub(key), k.dim, k.range, k.type == keys::Type::PerKelvin);
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::read(std::string_view key, FlowValue& out) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Flow) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return false;
  const auto q = readFlow(f_, *v, sub(key));
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::read(std::string_view key, int& out) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Integer) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return false;
  // an integer key's words (`auto`) read as 0
  if (v->IsScalar())
    for (const char* word : k.values)
      if (v->Scalar() == word) {
        note(key, true);
        out = 0;
        return true;
      }
  const auto q = readInteger(f_, *v, sub(key), k.ilo, k.ihi);
  note(key, q.has_value());
  if (q) out = static_cast<int>(*q);
  return q.has_value();
}

bool MapIn::read(std::string_view key, long long& out) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Integer) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return false;
  const auto q = readInteger(f_, *v, sub(key), k.ilo, k.ihi);
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::read(std::string_view key, bool& out) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Bool) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return false;
  const auto q = readBool(f_, *v, sub(key));
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::read(std::string_view key, std::string& out) {
  const keys::Key& k = def(key);
  const YAML::Node* v = value(k);
  if (!v) return false;
  std::optional<std::string> q;
  switch (k.type) {
    case keys::Type::Name:
      q = readName(f_, *v, sub(key));
      break;
    case keys::Type::Text:
      // an empty optional text ("description:") is no text
      if (v->IsNull() && !required(k)) return false;
      q = readText(f_, *v, sub(key), "a text");
      break;
    case keys::Type::Enum:
      q = readChoice(f_, *v, sub(key), k.values, k.expect);
      break;
    default:
      wrongType(*section_, k);
  }
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::read(std::string_view key, std::vector<double>& out) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Numbers) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return false;
  auto q = readNumbers(f_, *v, sub(key), k.range, k.min_len);
  note(key, q.has_value());
  if (q) out = std::move(*q);
  return q.has_value();
}

std::optional<TimeSeries> MapIn::series(std::string_view key) {
  const keys::Key& k = def(key);
  if (k.type != keys::Type::Series) wrongType(*section_, k);
  const YAML::Node* v = value(k);
  if (!v) return std::nullopt;
  auto ts = readSeries(f_, *v, sub(key), k.dim, k.range);
  note(key, ts.has_value());
  return ts;
}

std::optional<MapIn> MapIn::map(std::string_view key) {
  const keys::Key& k = def(key);
  if ((k.type != keys::Type::Map && k.type != keys::Type::NameMap) || !k.section)
    wrongType(*section_, k);
  return map(key, *k.section, required(k));
}

std::optional<MapIn> MapIn::map(std::string_view key, const keys::Section& s, bool req) {
  const YAML::Node* v = req ? require(key) : get(key);
  if (!v) return std::nullopt;
  std::optional<MapIn> m(std::in_place, f_, *v, sub(key), s, prov_, rel_ + std::string(key) + ".");
  note(key, m->valid());
  if (!m->valid()) return std::nullopt;
  return m;
}

bool MapIn::quantity(std::string_view key, Dim dim, const Range& r, double& out, bool req) {
  const YAML::Node* v = req ? require(key) : get(key);
  if (!v) return false;
  const auto q = readQuantity(f_, *v, sub(key), dim, r);
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::integer(std::string_view key, long long lo, long long hi, int& out, bool req) {
  const YAML::Node* v = req ? require(key) : get(key);
  if (!v) return false;
  const auto q = readInteger(f_, *v, sub(key), lo, hi);
  note(key, q.has_value());
  if (q) out = static_cast<int>(*q);
  return q.has_value();
}

bool MapIn::name(std::string_view key, std::string& out, bool req) {
  const YAML::Node* v = req ? require(key) : get(key);
  if (!v) return false;
  const auto q = readName(f_, *v, sub(key));
  note(key, q.has_value());
  if (q) out = *q;
  return q.has_value();
}

bool MapIn::numbers(std::string_view key, const Range& r, std::size_t min_len,
                    std::vector<double>& out, bool req) {
  const YAML::Node* v = req ? require(key) : get(key);
  if (!v) return false;
  auto q = readNumbers(f_, *v, sub(key), r, min_len);
  note(key, q.has_value());
  if (q) out = std::move(*q);
  return q.has_value();
}

//---------------------------------------------------------------------------------------------
// time series

namespace {
std::optional<TimeSeries> readCsvSeries(File& f, const YAML::Node& at, const std::string& path,
                                        const std::string& csv, const std::string& unit, Dim dim,
                                        const Range& r) {
  // the unit: SI = x * scale + offset
  std::string why;
  const auto q0 = parseQuantity("0 " + unit, dim, &why);
  const auto q1 = parseQuantity("1 " + unit, dim, &why);
  if (!q0 || !q1 || unit.empty()) {
    f.error(at, sub(path, "unit"), unit,
            unit.empty() ? "expected the unit of the CSV's value column; " + describe(dim) : why);
    return std::nullopt;
  }
  const double offset = q0->value, scale = q1->value - q0->value;
  fs::path p(csv);
  if (p.is_relative()) p = fs::path(f.dir.empty() ? "." : f.dir) / p;
  const std::string file = p.lexically_normal().string();
  f.s.files.push_back(file);
  const auto text = readTextFile(file, &why);
  if (!text) {
    f.error(at, sub(path, "csv"), csv, "cannot read the CSV file '" + file + "': " + why);
    return std::nullopt;
  }
  TimeSeries ts;
  ts.kind = TimeSeries::Kind::Linear;
  bool ok = true, header = true;
  int line = 0;
  std::size_t pos = 0;
  // a cell is shown (shortened) in an error, never a whole line: a path to a file that is not a
  // CSV (a password file, a binary) must not have its content echoed
  int errors = 0;
  auto bad = [&](int ln, int col, std::string value, std::string msg) {
    if (value.size() > 24) value = value.substr(0, 24) + "...";
    if (++errors <= 10) f.s.add(SourceLoc{file, ln, col, path}, std::move(value), std::move(msg));
    ok = false;
  };
  auto number = [](std::string_view s, double& v) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && std::isfinite(v);
  };
  while (pos < text->size()) {
    std::size_t end = text->find('\n', pos);
    if (end == std::string::npos) end = text->size();
    const std::string_view raw(text->data() + pos, end - pos);
    pos = end + 1;
    ++line;
    const std::string row = trimmed(raw);
    if (row.empty()) continue;
    if (header) {
      header = false;
      double probe = 0;
      const std::size_t comma = row.find(',');
      if (number(trimmed(std::string_view(row).substr(0, comma)), probe))
        bad(line, 1, "",
            "the first line must be a header naming the columns (e.g. 'time_s,power_kW'), got "
            "numbers");
      else if (comma == std::string::npos || row.find_first_of(":\t;") != std::string::npos ||
               row.size() > 200) {
        bad(line, 1, "",
            "not a CSV time series: the first line is not a header such as 'time_s,power_kW' "
            "(content not shown)");
        break;
      }
      continue;
    }
    if (ts.t.size() >= kMaxListLength) {
      bad(line, 1, "", "the CSV file has too many rows (at most 1000000)");
      break;
    }
    f.s.visit([&] { return SourceLoc{file, line, 1, path}; });
    const std::size_t comma = row.find(',');
    if (comma == std::string::npos) {
      bad(line, 1, "", "expected 'time,value' (two comma-separated columns; line not shown)");
      if (ts.t.empty()) break;  // not a CSV at all: one error for it
      continue;
    }
    const std::size_t comma2 = row.find(',', comma + 1);
    const std::string ct = trimmed(std::string_view(row).substr(0, comma));
    const std::string cv = trimmed(std::string_view(row).substr(
        comma + 1, comma2 == std::string::npos ? std::string::npos : comma2 - comma - 1));
    double t = 0, v = 0;
    if (!number(ct, t) || !keys::kSeriesTime.contains(t)) {
      bad(line, 1, ct, std::string("expected a time in seconds ") + keys::kSeriesTime.text);
      continue;
    }
    if (!number(cv, v) || !std::isfinite(v * scale + offset) || !r.contains(v * scale + offset)) {
      bad(line, static_cast<int>(comma) + 2, cv,
          std::string("expected ") + noun(dim) + " in " + unit + ", " + r.text);
      continue;
    }
    if (!ts.t.empty() && !(t > ts.t.back())) {
      bad(line, 1, ct, "times must increase strictly from row to row");
      continue;
    }
    ts.t.push_back(t);
    ts.v.push_back(v * scale + offset);
  }
  if (errors > 10)
    f.s.add(SourceLoc{file, line, 1, path}, "",
            std::to_string(errors - 10) + " more error(s) in this CSV file not shown");
  if (ok && ts.t.empty()) {
    f.error(at, sub(path, "csv"), csv, "the CSV file '" + file + "' has no data rows");
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return ts;
}

}  // namespace

std::optional<TimeSeries> readSeries(File& f, const YAML::Node& n, const std::string& path, Dim dim,
                                     const Range& r) {
  if (n.IsScalar()) {
    const auto v = readQuantity(f, n, path, dim, r);
    if (!v) return std::nullopt;
    TimeSeries ts;
    ts.kind = TimeSeries::Kind::Constant;
    ts.t = {0.0};
    ts.v = {*v};
    return ts;
  }
  if (!n.IsMap()) {
    f.visit(n, path);
    f.error(n, path, "",
            "expected " + describe(dim) +
                ", or a map with one of 'steps', 'series' or 'csv'; got " + kindOf(n));
    return std::nullopt;
  }
  MapIn m(f, n, path, keys::seriesSection());
  const int forms = (m.get("steps") ? 1 : 0) + (m.get("series") ? 1 : 0) + (m.get("csv") ? 1 : 0);
  if (forms == 0) {
    f.error(n, path, "", "expected one of the keys 'steps', 'series' or 'csv'");
    return std::nullopt;
  }
  if (forms > 1) {
    f.error(n, path, "", "give only one of 'steps', 'series' and 'csv'");
    return std::nullopt;
  }
  if (const YAML::Node* csv = m.get("csv")) {
    const YAML::Node* unit = m.require("unit");
    const auto file = readText(f, *csv, m.sub("csv"), "a CSV file name");
    if (!unit || !file) return std::nullopt;
    const auto u = readText(f, *unit, m.sub("unit"), "a unit");
    if (!u) return std::nullopt;
    if (file->empty()) {
      f.error(*csv, m.sub("csv"), "", "expected a CSV file name");
      return std::nullopt;
    }
    return readCsvSeries(f, n, path, *file, trimmed(*u), dim, r);
  }
  if (const YAML::Node* unit = m.get("unit")) {
    f.error(*m.keyNode("unit"), m.sub("unit"), "", "'unit' is only used with 'csv'");
    (void)unit;
    return std::nullopt;
  }
  const bool steps = m.get("steps") != nullptr;
  const char* key = steps ? "steps" : "series";
  const YAML::Node& list = *m.get(key);
  const std::string lpath = m.sub(key);
  if (!checkList(f, list, lpath, 1, "[time, value] pairs")) return std::nullopt;
  TimeSeries ts;
  ts.kind = steps ? TimeSeries::Kind::Steps : TimeSeries::Kind::Linear;
  ts.t.reserve(list.size());
  ts.v.reserve(list.size());
  bool ok = true;
  std::size_t i = 0;
  for (auto it = list.begin(); it != list.end(); ++it, ++i) {
    const YAML::Node& pair = *it;
    const std::string ipath = item(lpath, i);
    f.visit(pair, ipath);
    if (!pair.IsSequence() || pair.size() != 2) {
      f.error(pair, ipath, pair.IsScalar() ? pair.Scalar() : "",
              "expected a [time, value] pair, e.g. [10 min, 120 kW]");
      ok = false;
      continue;
    }
    const auto t = readQuantity(f, pair[0], ipath + "[0]", Dim::Time, keys::kSeriesTime);
    const auto v = readQuantity(f, pair[1], ipath + "[1]", dim, r);
    if (!t || !v) {
      ok = false;
      continue;
    }
    if (!ts.t.empty() && !(*t > ts.t.back())) {
      f.error(pair[0], ipath + "[0]", pair[0].Scalar(),
              "times must increase strictly from knot to knot");
      ok = false;
      continue;
    }
    ts.t.push_back(*t);
    ts.v.push_back(*v);
  }
  if (!ok) return std::nullopt;
  return ts;
}

}  // namespace reader
}  // namespace dctwin
