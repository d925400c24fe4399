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
    if (top.read("power_interval", s_.power_interval))
      s_.power_interval_loc = top.locOf("power_interval");
    if (const YAML::Node* r = top.get("replicates")) {
      s_.replicates_loc = f_.loc(*r, "replicates");
      if (r->IsScalar() && (r->Scalar() == "1" || r->Scalar() == "0"))
        f_.error(*r, "replicates", r->Scalar(),
                 "an ensemble needs 2 or more replicates to give an interval (mean, p5-p95); "
                 "without replicates, leave the key out");
      else
        top.read("replicates", s_.replicates);
    }
    top.list("parameters", [&](const YAML::Node& p, const std::string& path, std::size_t) {
      readParam(p, path);
    });
    if (s_.mode == SweepSpec::Mode::List)
      for (const auto& sp : s_.params)
        if (sp.values.size() != s_.params[0].values.size())
          f_.s.add(sp.loc, sp.name,
                   "sampling: list needs the same number of values for every parameter (" +
                       std::to_string(s_.params[0].values.size()) + " for the first)");
    checkEnsemble(root);
  }

 private:
  std::string resolve(const std::string& p) const {
    if (p.empty() || std::filesystem::path(p).is_absolute()) return p;
    return (std::filesystem::path(s_.base_dir) / p).lexically_normal().string();
  }

  // replicates and uncertain parameters (docs/sweep-format.md "Ensembles"): an uncertain
  // parameter needs replicates and a range alone; at least one design parameter; the sweep
  // appends the variation seeds' column itself
  void checkEnsemble(const YAML::Node& root) {
    int design = 0;
    for (const auto& sp : s_.params) design += sp.uncertain ? 0 : 1;
    if (s_.replicates == 0) {
      for (const auto& sp : s_.params)
        if (sp.uncertain)
          f_.s.add(sp.loc, "uncertain: true",
                   "an uncertain parameter is drawn per replicate: the sweep needs 'replicates' "
                   "(2 or more)");
      return;
    }
    if (design == 0 && !s_.params.empty())
      f_.error(root, "parameters", "",
               "an ensemble needs at least one design parameter (not uncertain) to compare");
    addReplicateSeeds(s_);
  }

  // facility.<path> or scenario.<path> (or facility alone: whole files) into sp; false with an
  // error when it is neither
  bool readPath(MapIn& p, SweepParam& sp, bool whole_files) {
    std::string path;
    if (!p.read("path", path)) return false;
    const auto dot = path.find('.');
    sp.target = path.substr(0, dot);
    sp.path = dot == std::string::npos ? "" : path.substr(dot + 1);
    if (whole_files && path == "facility")
      sp.target = "facility_file", sp.path = "facility";  // whole files
    if ((sp.target != "facility" && sp.target != "scenario" && sp.target != "facility_file") ||
        sp.path.empty()) {
      f_.error(*p.get("path"), p.sub("path"), path,
               "expected facility.<path> or scenario.<path>, e.g. "
               "facility.facility_water.supply_temperature");
      return false;
    }
    sp.file_valued = sp.target != "facility_file" && sweepPathNamesFile(sp.path);
    return true;
  }

  void readParam(const YAML::Node& n, const std::string& pp) {
    MapIn p(f_, n, pp, *keys::sweepFile().find("parameters")->section);
    if (!p.valid()) return;
    SweepParam sp;
    sp.loc = f_.loc(n, sub(pp, "path"));
    if (!readPath(p, sp, true)) return;
    sp.name = sp.path;
    p.read("name", sp.name);
    p.read("uncertain", sp.uncertain);
    if (sp.uncertain) {  // drawn from its range per replicate: a range alone
      if (!p.get("range") || p.get("values") || p.get("steps") || p.get("linked") ||
          sp.target == "facility_file" || sp.file_valued)
        f_.error(n, p.sub("uncertain"), "true",
                 "an uncertain parameter takes a 'range' alone ([low, high], drawn per "
                 "replicate), no values, steps, links or files");
      readRange(p, sp);
      s_.params.push_back(sp);
      return;
    }
    readValues(p, sp);
    readRange(p, sp);
    if (s_.mode == SweepSpec::Mode::Lhs && !p.get("range"))
      f_.error(n, p.sub("range"), "", "latin_hypercube parameters need a 'range'");
    if (s_.mode != SweepSpec::Mode::Lhs && sp.values.empty() && !p.get("values") && !p.get("range"))
      f_.error(n, p.sub("values"), "", "a parameter needs 'values' (or 'range' and 'steps')");
    p.list("linked",
           [&](const YAML::Node& l, const std::string& lp, std::size_t) { readLinked(l, lp, sp); });
    if (!sp.linked.empty()) checkDistinct(p, sp);
    s_.params.push_back(sp);
  }

  // one parameter set with `main`: a path and as many values (or a range with as many steps)
  void readLinked(const YAML::Node& n, const std::string& lp, SweepParam& main) {
    MapIn p(f_, n, lp, *keys::sweepFile().find("parameters")->section->find("linked")->section);
    if (!p.valid()) return;
    SweepParam sp;
    sp.loc = f_.loc(n, sub(lp, "path"));
    if (!readPath(p, sp, false)) return;
    sp.name = main.name;
    if (s_.mode == SweepSpec::Mode::Lhs) {
      f_.error(n, lp, "",
               "latin_hypercube: linked parameters are not supported (use grid or list)");
      return;
    }
    readValues(p, sp);
    readRange(p, sp);
    if (!p.get("values") && !p.get("range")) {
      f_.error(n, p.sub("values"), "",
               "a linked parameter needs 'values' (or 'range' and 'steps')");
      return;
    }
    if (sp.values.size() != main.values.size()) {
      f_.error(n, p.sub("values"), std::to_string(sp.values.size()) + " values",
               "a linked parameter needs as many values as its parameter '" + main.name + "' (" +
                   std::to_string(main.values.size()) + ")");
      return;
    }
    main.linked.push_back(sp);
  }

  // a linked value is found by its parameter's value: those must differ
  void checkDistinct(MapIn& p, const SweepParam& sp) {
    for (std::size_t a = 0; a < sp.values.size(); ++a)
      for (std::size_t b = 0; b < a; ++b)
        if (sp.values[a] == sp.values[b])
          f_.s.add(sp.value_locs.size() > a ? sp.value_locs[a] : p.loc(), sp.values[a],
                   "a parameter with linked parameters needs distinct values ('" + sp.values[a] +
                       "' twice)");
  }

  // a file value: relative to the sweep file's folder; it must exist
  void checkFile(const SweepParam& sp, const std::string& v, const SourceLoc& at) {
    if (!sp.file_valued) return;
    std::error_code ec;
    const std::string full = resolve(v);
    if (!std::filesystem::is_regular_file(full, ec))
      f_.s.add(
          at, v,
          "no such file: '" + full + "' (a file value is relative to the sweep file's folder)");
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
                  if (!x.IsScalar()) {
                    f_.error(x, path, "", "expected a value such as \"35 degC\"");
                    return;
                  }
                  sp.values.push_back(x.Scalar());
                  sp.value_locs.push_back(f_.loc(x, path));
                  checkFile(sp, x.Scalar(), sp.value_locs.back());
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
    if (sp.file_valued) {
      f_.error(*r, p.sub("range"), "", "a file key takes 'values' (file names), not a range");
      return;
    }
    sp.lo = a, sp.hi = b, sp.unit = ua;
    int n = 0;
    if (p.read("steps", n))
      for (int k = 0; k < n; ++k) {
        sp.values.push_back(fmt(a + (b - a) * k / (n - 1)) + (ua.empty() ? "" : " " + ua));
        sp.value_locs.push_back(f_.loc(*r, p.sub("range")));
      }
  }

  File& f_;
  SweepSpec& s_;
};

}  // namespace

std::uint64_t replicateSeed(std::uint64_t seed, int r) {
  // SplitMix64 (Steele, Lea, Flood 2014) of the seed and the replicate: every replicate's seed
  // differs, and the seeds do not follow each other as seed + r would
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(r + 1) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return z >> 11;  // below 2^53: facility.variation.seed's range, exact in a double
}

void addReplicateSeeds(SweepSpec& s) {
  SweepParam seed;
  seed.name = "variation_seed";
  seed.target = "facility";
  seed.path = "variation.seed";
  seed.loc = s.replicates_loc;
  seed.replicate_seed = true;
  for (int r = 0; r < s.replicates; ++r) {
    seed.values.push_back(std::to_string(replicateSeed(s.seed, r)));
    seed.value_locs.push_back(s.replicates_loc);
  }
  s.params.push_back(seed);
}

bool sweepPathNamesFile(const std::string& path) {
  const auto dot = path.rfind('.');
  const std::string leaf = dot == std::string::npos ? path : path.substr(dot + 1);
  return leaf == "epw" || leaf == "csv";
}

SweepSpec loadSweepFromString(const std::string& text, const std::string& name,
                              const std::string& base_dir) {
  SweepSpec s;
  s.file = name;
  s.text = text;
  s.base_dir = base_dir;
  Session session;
  File f{session, name, base_dir};
  readDocument(session, name, text, [&](const YAML::Node& root) { SweepReader(f, s).read(root); });
  if (session.failed()) throw LoadFailure(session.finish(name));
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
