// results_reader_test.cpp: readResults gives back what Hdf5Sink wrote (series, names, units,
// events), and refuses missing, non-HDF5, truncated and non-run files with a message naming them
#include "solver/output/results_reader.h"
#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/output/observe.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "solver/input/loader.h"
#include "solver/output/results.h"
#include "solver/run/run.h"

using namespace dctwin;
namespace fs = std::filesystem;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

fs::path tempPath(const std::string& tag) {
  return fs::temp_directory_path() /
         ("dctwin_reader_" + std::to_string(::getpid()) + "_" + tag + ".h5");
}

// records the rack return temperatures and GPU junction maxima at each output
struct Rec : OutputSink {
  std::vector<double> t, T_ret_A03, Tj_gpu0;
  void sample(const FacilityModel& m, const State& st, const double* y, double tt,
              const EnergyTotals&) override {
    t.push_back(tt);
    T_ret_A03.push_back(y[m.rackAdr(2)]);
    Tj_gpu0.push_back(st.gl.Tj_max.empty() ? NAN : st.gl.Tj_max[0]);
  }
};

std::string expectFailure(const std::string& path) {
  try {
    readResults(path);
  } catch (const ResultsError& e) {
    return e.what();
  }
  FAIL("no ResultsError for " << path);
  return "";
}

}  // namespace

TEST_CASE("results reader: a leak run reads back as written", "[results][reader]") {
  const fs::path out = tempPath("leak");
  FacilitySpec spec = loadFacility(kPod);
  Scenario sc = loadScenarioFromString(
      "duration: 90 s\noutput_interval: 10 s\n"
      "events:\n  - {time: 20 s, rack: A03, leak: {diameter: 4 mm}}\n",
      "s.yaml");
  applyScenario(sc, spec);
  FacilityModel m = compileFacility(spec);
  m.options.output_interval = sc.output_interval;
  State st = makeState(m, m.fws_T.eval(0.0));
  Rec rec;
  RunResult res;
  {
    Hdf5Sink h5(out.string());
    FrameFeed feed(m, {&h5}, sc.text);
    TeeSink tee({&rec, &feed});
    RunOptions ro;
    ro.duration = sc.duration;
    res = simulate(m, st, ro, &tee);
    feed.end(res);
  }
  REQUIRE(res.ok);
  const ResultsData d = readResults(out.string());
  REQUIRE(d.rows() == rec.t.size());
  CHECK(d.strings.at("/rack/names") == m.rack_name);
  CHECK(d.strings.at("/cdu/names") == m.cdu_name);
  CHECK(d.integers.at("/rack/index").size() == std::size_t(m.nrack));
  CHECK(d.integers.at("/gpu/tray").size() == std::size_t(m.ngpu));
  CHECK(d.text_attributes.at("status") == "completed");
  CHECK(d.text_attributes.at("scenario_text") == sc.text);
  CHECK(d.number_attributes.at("schema_version") == kResultsSchemaVersion);
  const ResultsSeries& Tret = d.series.at("/rack/T_return");
  CHECK(Tret.units == "K");
  CHECK(Tret.width == std::size_t(m.nrack));
  const ResultsSeries& Tj = d.series.at("/gpu/T_junction");
  for (std::size_t k = 0; k < rec.t.size(); ++k) {
    CHECK(d.find("/time")->at(k) == rec.t[k]);
    CHECK(Tret.at(k, 2) == rec.T_ret_A03[k]);
    CHECK(Tj.at(k, 0) == rec.Tj_gpu0[k]);
  }
  REQUIRE(d.events.size() == res.events.size());
  bool detected = false;
  for (std::size_t i = 0; i < d.events.size(); ++i) {
    CHECK(d.events[i].time == res.events[i].time);
    CHECK(d.events[i].kind == res.events[i].kind);
    CHECK(d.events[i].component == res.events[i].component);
    CHECK(d.events[i].severity == res.events[i].severity);
    detected |= d.events[i].kind == "leak_detected" && d.events[i].component == "rack A03";
  }
  CHECK(detected);

  SECTION("a filter skips series but keeps names and events") {
    ResultsReadOptions o;
    o.want = [](const std::string& p) { return p.rfind("/rack/", 0) == 0; };
    const ResultsData f = readResults(out.string(), o);
    CHECK(f.find("/gpu/T_junction") == nullptr);
    CHECK(f.find("/rack/T_return") != nullptr);
    CHECK(f.rows() == rec.t.size());
    CHECK(f.events.size() == res.events.size());
  }
  SECTION("a truncated copy is refused with the file's name") {
    const fs::path cut = tempPath("cut");
    const auto size = fs::file_size(out);
    {
      std::ifstream in(out, std::ios::binary);
      std::vector<char> buf(size / 2);
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      std::ofstream o(cut, std::ios::binary);
      o.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    }
    const std::string msg = expectFailure(cut.string());
    CHECK(msg.find(cut.string()) != std::string::npos);
    CHECK((msg.find("truncated") != std::string::npos || msg.find("damaged") != std::string::npos));
    fs::remove(cut);
  }
  fs::remove(out);
}

TEST_CASE("results reader: missing, non-HDF5 and non-run files", "[results][reader]") {
  const fs::path missing = tempPath("missing");
  CHECK(expectFailure(missing.string()).find("no such file") != std::string::npos);

  const fs::path text = tempPath("text");
  std::ofstream(text) << "name: pod\nracks: []\n";
  const std::string m1 = expectFailure(text.string());
  CHECK(m1.find(text.string()) != std::string::npos);
  CHECK(m1.find("not an HDF5 file") != std::string::npos);
  fs::remove(text);

  const fs::path other = tempPath("other");
  {
    ResultsFile f(other.string());
    const double v[2] = {1, 2};
    f.writeVector("/x", v, "1", "something else");
  }
  CHECK(expectFailure(other.string()).find("not a dctwin run results file") != std::string::npos);
  fs::remove(other);
}

TEST_CASE("results reader: a newer or older schema version is refused naming both versions",
          "[results][reader]") {
  auto write = [](const fs::path& p, long long schema) {
    ResultsFile f(p.string());
    f.setAttribute("/", "schema_version", schema);
    f.setAttribute("/", "dctwin_version", std::string("9.9.9"));
    f.writeStrings("/rack/names", {"A01"}, "rack names");
    f.writeStrings("/cdu/names", {"CDU-1"}, "CDU names");
    const int t = f.addSeries("/time", 0, "s", "time");
    const double row[1] = {0};
    f.appendRow(t, row);
    f.close();
  };
  const fs::path newer = tempPath("schema_newer");
  write(newer, kResultsSchemaVersion + 1);
  const std::string m = expectFailure(newer.string());
  CHECK_THAT(m,
             Catch::Contains("results schema version " + std::to_string(kResultsSchemaVersion + 1) +
                             " (written by dctwin 9.9.9) is newer") &&
                 Catch::Contains("schema version " +
                                 (kResultsOldestSchema == kResultsSchemaVersion
                                      ? std::to_string(kResultsSchemaVersion)
                                      : std::to_string(kResultsOldestSchema) + " to " +
                                            std::to_string(kResultsSchemaVersion)) +
                                 ")"));
  fs::remove(newer);
  const fs::path older = tempPath("schema_older");
  write(older, kResultsOldestSchema - 1);
  CHECK_THAT(
      expectFailure(older.string()),
      Catch::Contains("results schema version " + std::to_string(kResultsOldestSchema - 1)) &&
          Catch::Contains("is older"));
  fs::remove(older);
  const fs::path same = tempPath("schema_same");
  write(same, kResultsSchemaVersion);
  CHECK(readResults(same.string()).rows() == 1);
  fs::remove(same);
}
