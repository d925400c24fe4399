// sweep_file.cpp: sweep files, read through the key tables (solver/input/sweep_keys.cpp) and the
// one YAML reader, every error of the file together (docs/sweep-format.md)
#include "solver/input/sweep_file.h"

#include <filesystem>
#include <sstream>

#include "solver/input/keys.h"
#include "solver/input/yaml_reader.h"

namespace dctwin {

namespace {
using namespace reader;

// "25 degC" -> 25, "degC"; "0.5" -> 0.5, ""
bool splitQuantity(const std::string& text, double& v, std::string& unit) {
  std::istringstream is(text);
  if (!(is >> v)) return false;
  unit.clear();
  is >> unit;
  std::string rest;
  return !(is >> rest);
}

class SweepReader {
 public:
  SweepReader(File& f, SweepSpec& s) : f_(f), s_(s) {}

  // 1. the base files; 2. sampling; 3. time overrides; 4. parameters; 5. checks across them
  void read(const YAML::Node& root) {
    MapIn top(f_, root, "", keys::sweepFile());
    if (!top.valid()) return;
    int version = 1;
    top.read("dctwin_sweep", version);
    std::string text;
    top.read("description", text);
    top.read("name", s_.name);
    if (top.read("facility", text)) s_.facility_path = resolve(text);
    if (top.read("scenario", text)) s_.scenario_path = resolve(text);
    top.read("series", s_.series);
    std::string mode = "grid";
    if (top.read("sampling", mode))
      s_.mode = mode == "list"              ? SweepSpec::Mode::List
                : mode == "latin_hypercube" ? SweepSpec::Mode::Lhs
                                            : SweepSpec::Mode::Grid;
    top.read("samples", s_.samples);
    long long seed = 1;
    if (top.read("seed", seed)) s_.seed = static_cast<std::uint64_t>(seed);
    if (s_.mode == SweepSpec::Mode::Lhs && s_.samples == 0 && !top.get("samples"))
      f_.error(root, "samples", "", "latin_hypercube needs 'samples'");
    top.read("duration", s_.duration);
    top.read("output_interval", s_.output_interval);
    top.read("metrics_from", s_.metrics_from);
    top.list("parameters", [&](const YAML::Node& p, const std::string& path, std::size_t) {
      readParam(p, path);
    });
    if (s_.mode == SweepSpec::Mode::List)
      for (const auto& sp : s_.params)
        if (sp.values.size() != s_.params[0].values.size())
          f_.s.add(sp.loc, sp.name,
                   "sampling: list needs the same number of values for every parameter (" +
                       std::to_string(s_.params[0].values.size()) + " for the first)");
  }

 private:
  std::string resolve(const std::string& p) const {
    if (p.empty() || std::filesystem::path(p).is_absolute()) return p;
    return (std::filesystem::path(s_.base_dir) / p).lexically_normal().string();
  }

  void readParam(const YAML::Node& n, const std::string& pp) {
    MapIn p(f_, n, pp, *keys::sweepFile().find("parameters")->section);
    if (!p.valid()) return;
    SweepParam sp;
    sp.loc = f_.loc(n, sub(pp, "path"));
    std::string path;
    if (!p.read("path", path)) return;
    const auto dot = path.find('.');
    sp.target = path.substr(0, dot);
    sp.path = dot == std::string::npos ? "" : path.substr(dot + 1);
    if (path == "facility") sp.target = "facility_file", sp.path = "facility";  // whole files
    if ((sp.target != "facility" && sp.target != "scenario" && sp.target != "facility_file") ||
        sp.path.empty()) {
      f_.error(*p.get("path"), p.sub("path"), path,
               "expected facility.<path> or scenario.<path>, e.g. "
               "facility.facility_water.supply_temperature");
      return;
    }
    sp.name = sp.path;
    p.read("name", sp.name);
    readValues(p, sp);
    readRange(p, sp);
    if (s_.mode == SweepSpec::Mode::Lhs && !p.get("range"))
      f_.error(n, p.sub("range"), "", "latin_hypercube parameters need a 'range'");
    if (s_.mode != SweepSpec::Mode::Lhs && sp.values.empty() && !p.get("values") && !p.get("range"))
      f_.error(n, p.sub("values"), "", "a parameter needs 'values' (or 'range' and 'steps')");
    s_.params.push_back(sp);
  }

  void readValues(MapIn& p, SweepParam& sp) {
    const YAML::Node* v = p.get("values");
    if (!v) return;
    if (!v->IsSequence() || v->size() == 0) {
      f_.error(*v, p.sub("values"), "", "expected a list of values");
      return;
    }
    forEachItem(f_, *v, p.sub("values"), 1, "values",
                [&](const YAML::Node& x, const std::string& path, std::size_t) {
                  if (!x.IsScalar())
                    f_.error(x, path, "", "expected a value such as \"35 degC\"");
                  else
                    sp.values.push_back(x.Scalar());
                });
  }

  // [low, high] in one unit; with steps, a grid over it
  void readRange(MapIn& p, SweepParam& sp) {
    const YAML::Node* r = p.get("range");
    if (!r) return;
    double a = 0, b = 0;
    std::string ua, ub;
    if (!r->IsSequence() || r->size() != 2 || !(*r)[0].IsScalar() || !(*r)[1].IsScalar() ||
        !splitQuantity((*r)[0].Scalar(), a, ua) || !splitQuantity((*r)[1].Scalar(), b, ub) ||
        ua != ub || !(b > a)) {
      f_.error(*r, p.sub("range"), "",
               "expected [low, high] in one unit with low < high, e.g. [\"25 degC\", \"45 degC\"]");
      return;
    }
    sp.lo = a, sp.hi = b, sp.unit = ua;
    int n = 0;
    if (p.read("steps", n))
      for (int k = 0; k < n; ++k)
        sp.values.push_back(fmt(a + (b - a) * k / (n - 1)) + (ua.empty() ? "" : " " + ua));
  }

  File& f_;
  SweepSpec& s_;
};

}  // namespace

SweepSpec loadSweepFromString(const std::string& text, const std::string& name,
                              const std::string& base_dir) {
  SweepSpec s;
  s.file = name;
  s.text = text;
  s.base_dir = base_dir;
  Session session;
  File f{session, name, base_dir};
  try {
    YAML::Node root;
    if (parseDocument(session, name, text, root)) SweepReader(f, s).read(root);
  } catch (const Abort&) {
    // the budget error is recorded
  } catch (const YAML::Exception& e) {
    SourceLoc l{name, 0, 0, ""};
    if (!e.mark.is_null() && e.mark.line >= 0)
      l.line = e.mark.line + 1, l.column = e.mark.column + 1;
    session.add(l, "", "YAML error: " + e.msg);
  }
  if (session.count() > 0) throw LoadFailure(session.finish(name));
  return s;
}

SweepSpec loadSweep(const std::string& path) {
  std::string why;
  const auto text = reader::readTextFile(path, &why);
  if (!text)
    throw LoadFailure({LoadError{SourceLoc{path, 0, 0, ""}, path, "cannot open the file: " + why}});
  return loadSweepFromString(*text, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace dctwin
