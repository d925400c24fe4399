// provenance_test.cpp: every results file says how it was made (docs/results.md, Root
// attributes): version, git revision, command line, host, creation time, data folder, solver
// settings, facility and scenario text; run files (Hdf5Sink) and sweep files (writeSweepResults)
// alike. Also the data-folder lookup of an uninstalled build (solver/common/paths.h).
#include "solver/common/provenance.h"

#include <H5Cpp.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/common/paths.h"
#include "solver/input/loader.h"
#include "solver/output/results_reader.h"
#include "solver/run/run.h"
#include "solver/run/sweep.h"

using namespace dctwin;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(DCTWIN_SOURCE_DIR) + "/data";
const std::string kFacility = kData + "/facilities/two_cdu_mixed.yaml";

fs::path tempPath(const std::string& tag) {
  return fs::temp_directory_path() /
         ("dctwin_provenance_" + std::to_string(::getpid()) + "_" + tag + ".h5");
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// root attributes of any HDF5 file (a sweep file has no /time, so readResults refuses it)
struct RootAttributes {
  H5::H5File file;
  explicit RootAttributes(const std::string& path) : file(path, H5F_ACC_RDONLY) {}
  std::string text(const std::string& name) {
    H5::Attribute a = file.openAttribute(name);
    std::string v;
    a.read(a.getStrType(), v);
    return v;
  }
  double number(const std::string& name) {
    H5::Attribute a = file.openAttribute(name);
    double v = 0;
    a.read(H5::PredType::NATIVE_DOUBLE, &v);
    return v;
  }
};

// "2026-12-01T09:14:03Z": UTC, ISO 8601, to the second (no std::regex: GCC 12 warns in it under
// the sanitizer build)
bool isIsoUtc(const std::string& t) {
  const std::string form = "dddd-dd-ddTdd:dd:ddZ";
  if (t.size() != form.size()) return false;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (form[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(t[i])) : t[i] != form[i])
      return false;
  return true;
}

}  // namespace

TEST_CASE("provenance: version, revision, command line, host and time", "[provenance]") {
  CHECK(std::string(version()) == DCTWIN_VERSION);
  CHECK(!std::string(gitRevision()).empty());
  CHECK(versionText() == std::string(version()) + " (git " + gitRevision() + ")");
  const char* argv[] = {"dctwin", "run", "my facility.yaml", "-o", "it's.h5"};
  setCommandLine(5, argv);
  CHECK(commandLine() == "dctwin run 'my facility.yaml' -o 'it'\\''s.h5'");
  const Provenance p = provenance();
  CHECK(p.command_line == commandLine());
  CHECK(!p.host.empty());
  CHECK(isIsoUtc(p.created));
  CHECK(p.data_dir == dataDir());
}

TEST_CASE("paths: an uninstalled build finds the source tree's data and scripts", "[provenance]") {
  // the test program lies in the build tree; $DCTWIN_DATA (if the caller set one) comes first
  if (const char* env = std::getenv("DCTWIN_DATA"); env && *env) {
    CHECK(dataDir() == env);
  } else {
    CHECK(fs::equivalent(dataDir(), kData));
    CHECK(fs::equivalent(dataDirs().front(), kData));
  }
  CHECK(fs::exists(fs::path(scriptsDir()) / "report.py"));
  CHECK(fs::exists(fs::path(docDir()) / "results.md"));
  CHECK(fs::path(dataFile("facilities/pod_gb200.yaml")).filename() == "pod_gb200.yaml");
  CHECK(!imagePath().empty());
}

TEST_CASE("provenance: a run file records it at the root", "[provenance][results]") {
  setCommandLine("dctwin run two_cdu_mixed.yaml --duration 2min");
  const fs::path out = tempPath("run");
  const FacilitySpec spec = loadFacility(kFacility);
  const std::string scenario_text =
      "duration: 2 min\noutput_interval: 20 s\nsolver: {rtol: 1e-5}\n";
  const Scenario sc = loadScenarioFromString(scenario_text, "s.yaml");
  Hdf5Sink h5(out.string());
  RunSink* sinks[] = {&h5};
  const RunReport report = runFacility(spec, sc, RunSettings{}, sinks);
  REQUIRE(report.result.ok);

  const ResultsData d = readResults(out.string());
  const auto& s = d.text_attributes;
  const auto& n = d.number_attributes;
  CHECK(s.at("dctwin_version") == version());
  CHECK(s.at("git_revision") == gitRevision());
  CHECK(s.at("command_line") == "dctwin run two_cdu_mixed.yaml --duration 2min");
  CHECK(!s.at("host").empty());
  CHECK(isIsoUtc(s.at("created")));
  CHECK(s.at("data_dir") == dataDir());
  CHECK(s.at("facility_text") == slurp(kFacility));
  CHECK(s.at("scenario_text") == scenario_text);
  CHECK(n.at("solver_rtol") == Approx(1e-5));
  CHECK(n.at("output_interval") == Approx(20.0));
  CHECK(n.at("gpu_step") == Approx(spec.gpu_step));
  CHECK(n.at("coupling_step") == Approx(spec.coupling_step));
  CHECK(n.at("solver_atol_temperature") > 0);
  CHECK(n.at("solver_atol_control") > 0);
  CHECK(n.at("solver_max_step") > 0);
  // what the layout says the run used is what the file says
  CHECK(report.layout.solver.rtol == Approx(n.at("solver_rtol")));
  CHECK(report.layout.solver.max_step == Approx(n.at("solver_max_step")));
  fs::remove(out);
}

TEST_CASE("provenance: a sweep file records it at the root", "[provenance][sweep]") {
  setCommandLine("dctwin sweep s.yaml -j 2");
  const fs::path dir =
      fs::temp_directory_path() / ("dctwin_provenance_sweep_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(kFacility, dir / "f.yaml", fs::copy_options::overwrite_existing);
  { std::ofstream(dir / "sc.yaml") << "duration: 10 min\nsolver: {rtol: 2e-6}\n"; }
  const std::string sweep_text =
      "dctwin_sweep: 1\nname: p\nfacility: f.yaml\nscenario: sc.yaml\noutput_interval: 30 s\n"
      "sampling: list\nparameters:\n  - path: facility.facility_water.supply_temperature\n"
      "    values: [\"30 degC\", \"35 degC\"]\n";
  const SweepSpec s = loadSweepFromString(sweep_text, (dir / "s.yaml").string(), dir.string());
  const std::vector<SweepCase> cases = expandCases(s);
  std::vector<CaseResult> results;
  for (const auto& c : cases) {
    CaseResult r;
    r.index = c.index;
    r.ok = true;
    for (const auto& [name, unit] : sweepMetrics()) r.metrics[name] = 1.0;
    results.push_back(r);
  }
  const fs::path out = dir / "sweep.h5";
  writeSweepResults(out.string(), s, cases, results);

  RootAttributes a(out.string());
  CHECK(a.text("dctwin_version") == version());
  CHECK(a.text("git_revision") == gitRevision());
  CHECK(a.text("command_line") == "dctwin sweep s.yaml -j 2");
  CHECK(!a.text("host").empty());
  CHECK(isIsoUtc(a.text("created")));
  CHECK(!isIsoUtc("2026-12-01 09:14:03"));
  CHECK(a.text("data_dir") == dataDir());
  CHECK(a.text("facility_text") == slurp(kFacility));
  CHECK(a.text("scenario_text") == "duration: 10 min\nsolver: {rtol: 2e-6}\n");
  CHECK(a.text("sweep_text") == sweep_text);
  CHECK(a.number("solver_rtol") == Approx(2e-6));
  CHECK(a.number("output_interval") == Approx(30.0));
  const FacilitySpec spec = loadFacility(kFacility);
  CHECK(a.number("gpu_step") == Approx(spec.gpu_step));
  CHECK(a.number("coupling_step") == Approx(spec.coupling_step));
  CHECK(a.number("solver_max_step") > 0);
  a.file.close();
  fs::remove_all(dir);
}
