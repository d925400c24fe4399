// sweep_test.cpp: design sweeps: the sweep file, case expansion (grid, list, Latin hypercube),
// errors, parallel runs with results independent of the thread count, failed cases, resume,
// and the /cases table (docs/sweep-format.md)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include <sys/wait.h>

#include "solver/compile/compile.h"
#include "solver/run/sweep.h"

using namespace dctwin;

namespace {

const std::string kFacilities = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities";

// a sweep over the two-CDU heat-load example (fast: no resolved GPUs)
std::string sweepText(const std::string& body) {
  return "dctwin_sweep: 1\nfacility: two_cdu_mixed.yaml\nduration: 10 min\noutput_interval: 60 "
         "s\n" +
         body;
}

SweepSpec load(const std::string& body) {
  return loadSweepFromString(sweepText(body), "s.yaml", kFacilities);
}

std::string errorsOf(const std::string& body) {
  try {
    SweepSpec s = load(body);
    validateSweep(s);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

const std::string kGrid = R"(parameters:
  - name: fws
    path: facility.facility_water.supply_temperature
    values: ["30 degC", "36 degC"]
  - name: load
    path: facility.racks[A01].heat_load
    range: ["60 kW", "120 kW"]
    steps: 3
)";

// a shell command's exit status and output (stdout and stderr)
std::pair<int, std::string> sh(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  const int rc = p ? pclose(p) : -1;
  return {WEXITSTATUS(rc), out};
}

// a fresh temporary folder holding s.yaml: the kGrid sweep on the two-CDU example, 5 min per case
std::string gridSweepDir(const std::string& name) {
  const std::string dir = (std::filesystem::temp_directory_path() / name).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream out(dir + "/s.yaml");
  out << "facility: " << kFacilities << "/two_cdu_mixed.yaml\nduration: 5 min\n" << kGrid;
  return dir;
}

}  // namespace

TEST_CASE("sweep file: grid, list and Latin-hypercube cases", "[sweep]") {
  SweepSpec g = load(kGrid);
  std::vector<SweepCase> c = expandCases(g);
  REQUIRE(c.size() == 6);
  CHECK(c[0].values == std::vector<std::string>{"30 degC", "60 kW"});
  CHECK(c[1].values == std::vector<std::string>{"30 degC", "90 kW"});  // last varies fastest
  CHECK(c[5].values == std::vector<std::string>{"36 degC", "120 kW"});
  SweepSpec l = load(R"(sampling: list
parameters:
  - {path: facility.facility_water.supply_temperature, values: ["30 degC", "34 degC"]}
  - {path: "facility.racks[A01].heat_load", values: ["80 kW", "100 kW"]}
)");
  REQUIRE(expandCases(l).size() == 2);
  CHECK(expandCases(l)[1].values == std::vector<std::string>{"34 degC", "100 kW"});
  const std::string lhs = R"(sampling: latin_hypercube
samples: 10
seed: 7
parameters:
  - {path: facility.facility_water.supply_temperature, range: ["25 degC", "45 degC"]}
  - {path: "facility.racks[A01].heat_load", range: ["50 kW", "130 kW"]}
)";
  std::vector<SweepCase> a = expandCases(load(lhs)), b = expandCases(load(lhs));
  REQUIRE(a.size() == 10);
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k].values == b[k].values);  // seeded
  // one sample in each of the 10 strata of every parameter
  std::set<int> strata_T, strata_P;
  for (const auto& s : a) {
    strata_T.insert(static_cast<int>((std::stod(s.values[0]) - 25) / 2.0));
    strata_P.insert(static_cast<int>((std::stod(s.values[1]) - 50) / 8.0));
  }
  CHECK(strata_T.size() == 10);
  CHECK(strata_P.size() == 10);
  std::vector<SweepCase> other =
      expandCases(load(std::string(lhs).replace(lhs.find("seed: 7"), 7, "seed: 8")));
  CHECK(other[0].values != a[0].values);
}

TEST_CASE("sweep file: errors name the sweep file, the parameter and the case", "[sweep]") {
  CHECK_THAT(errorsOf("samplng: grid\n" + kGrid), Catch::Contains("did you mean 'sampling'"));
  CHECK_THAT(errorsOf(R"(parameters:
  - {path: facility.facility_watr.supply_temperature, values: ["30 degC"]}
)"),
             Catch::Contains("s.yaml:6") && Catch::Contains("no key 'facility_watr'") &&
                 Catch::Contains("did you mean 'facility_water'"));
  CHECK_THAT(errorsOf(R"(parameters:
  - {path: "facility.racks[Z99].heat_load", values: ["30 kW"]}
)"),
             Catch::Contains("no entry 'Z99' in 'racks'"));
  // a value the facility loader rejects: the loader's message, for that case and value
  CHECK_THAT(errorsOf(R"(parameters:
  - {name: fws, path: facility.facility_water.supply_temperature, values: ["30 degC", "30 kW"]}
)"),
             Catch::Contains("case 1 (fws = 30 kW)") && Catch::Contains("supply_temperature"));
  CHECK_THAT(errorsOf(R"(sampling: list
parameters:
  - {path: facility.facility_water.supply_temperature, values: ["30 degC", "31 degC"]}
  - {path: "facility.racks[A01].heat_load", values: ["80 kW"]}
)"),
             Catch::Contains("same number of values"));
  CHECK_THAT(errorsOf("parameters:\n  - {path: nowhere.x, values: [1]}\n"),
             Catch::Contains("expected facility.<path> or scenario.<path>"));
}

TEST_CASE("sweep runs: identical results on 1 and 3 threads, a failed case does not stop it",
          "[sweep]") {
  SweepSpec s = load(kGrid);
  const auto cases = expandCases(s);
  const auto r1 = runSweep(s, cases, {}, 1, 0, nullptr);
  const auto r3 = runSweep(s, cases, {}, 3, 0, nullptr);
  REQUIRE(r1.size() == 6);
  REQUIRE(r3.size() == 6);
  for (std::size_t k = 0; k < r1.size(); ++k) {
    CHECK(r1[k].ok);
    CHECK(r1[k].index == static_cast<int>(k));
    for (const auto& [name, unit] : sweepMetrics()) {
      const double a = r1[k].metrics.at(name), b = r3[k].metrics.at(name);
      CHECK(((std::isnan(a) && std::isnan(b)) || a == b));
    }
  }
  // the parameter reached the case: more load on A01 is more IT energy
  CHECK(r1[2].metrics.at("E_it") > r1[0].metrics.at("E_it"));
  // every metric that applies to a heat-load facility without a power chain is a number
  for (const char* name : {"T_case_max", "T_supply_max", "E_it", "E_cooling", "P_pump_mean",
                           "flow_margin_min", "coolant_lost", "energy_balance_error"}) {
    INFO(name);
    CHECK(std::isfinite(r1[0].metrics.at(name)));
  }
  CHECK(r1[0].metrics.at("flow_margin_min") > 0.5);
  CHECK(r1[0].metrics.at("flow_margin_min") < 2.0);
  CHECK(std::isnan(r1[0].metrics.at("PUE")));  // no power chain
  for (const char* name :
       {"step_time_model", "step_time", "tokens_per_second", "mfu", "memory_per_gpu"})
    CHECK(std::isnan(r1[0].metrics.at(name)));  // no training job: no step model
  CHECK(std::abs(r1[0].metrics.at("energy_balance_error")) < 1e-4);
  // a case that fails at run time (the coolant boils) is marked, the others run
  SweepSpec f = load(R"(parameters:
  - {path: "facility.racks[A01].heat_load", values: ["100 kW", "9 MW"]}
)");
  const auto rf = runSweep(f, expandCases(f), {}, 2, 0, nullptr);
  REQUIRE(rf.size() == 2);
  CHECK(rf[0].ok);
  CHECK_FALSE(rf[1].ok);
  CHECK_THAT(rf[1].error, Catch::Contains("solver failure") || Catch::Contains("range"));
}

TEST_CASE("an interrupted sweep resumes from its journal without redoing cases", "[sweep]") {
  SweepSpec s = load(kGrid);
  const auto cases = expandCases(s);
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_sweep_test").string();
  std::filesystem::create_directories(dir);
  const std::string journal = dir + "/sweep.h5.journal";
  std::filesystem::remove(journal);
  startJournal(journal, s);
  int ran = 0;
  auto log = [&](const CaseResult& r, int, int) {
    appendJournal(journal, r);
    ++ran;
  };
  auto part = runSweep(s, cases, {}, 2, 2, log);  // stops after 2 new cases
  CHECK(part.size() == 2);
  CHECK(ran == 2);
  auto done = readJournal(journal, s);
  REQUIRE(done.size() == 2);
  ran = 0;
  auto all = runSweep(s, cases, done, 2, 0, log);
  CHECK(ran == 4);  // only the rest
  REQUIRE(all.size() == 6);
  const auto fresh = runSweep(s, cases, {}, 1, 0, nullptr);
  for (std::size_t k = 0; k < 6; ++k)
    for (const auto& [name, unit] : sweepMetrics()) {
      const double a = all[k].metrics.at(name), b = fresh[k].metrics.at(name);
      CHECK(((std::isnan(a) && std::isnan(b)) || a == b));  // %.17g round trip
    }
  // a journal of another sweep is refused
  SweepSpec other = load(kGrid +
                         "  - {path: facility.facility_water.differential_pressure, "
                         "values: [\"200 kPa\"]}\n");
  CHECK_THROWS_AS(readJournal(journal, other), LoadFailure);
  // the /cases table
  writeSweepResults(dir + "/sweep.h5", s, cases, all);
  const std::string dump = [&] {
    const std::string cmd =
        "h5dump -d /cases/status -d /cases/parameters/fws -a /schema " + dir + "/sweep.h5 2>&1";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) out += buf;
    if (p) pclose(p);
    return out;
  }();
  CHECK_THAT(dump, Catch::Contains("dctwin-sweep 1") && Catch::Contains("\"36 degC\"") &&
                       Catch::Contains("\"completed\""));
  std::filesystem::remove_all(dir);
}

TEST_CASE("dctwin sweep: stops after --max-cases, resumes, and writes /cases", "[sweep][cli]") {
  const std::string dir = gridSweepDir("dctwin_sweep_cli");
  const std::string cli = std::string(DCTWIN_CLI) + " sweep " + dir + "/s.yaml -o " + dir + "/o.h5";
  auto [rc1, out1] = sh(cli + " -j 2 --max-cases 4");
  CHECK(rc1 == 0);
  CHECK_THAT(out1, Catch::Contains("4 of 6 cases done") && Catch::Contains("resume"));
  CHECK_FALSE(std::filesystem::exists(dir + "/o.h5"));
  auto [rc2, out2] = sh(cli + " -j 2");
  CHECK(rc2 == 0);
  CHECK_THAT(out2, Catch::Contains("resuming: 4 done") &&
                       Catch::Contains("6 cases (6 completed, 0 not comparable"));
  // not a terminal: a progress line every 10 % of the cases still to run
  CHECK_THAT(out2, Catch::Contains("dctwin sweep:  50%  1/2 cases") &&
                       Catch::Contains("dctwin sweep: 100%  2/2 cases") &&
                       Catch::Contains("cases/min  ETA"));
  CHECK(std::filesystem::exists(dir + "/o.h5"));
  CHECK_FALSE(std::filesystem::exists(dir + "/o.h5.journal"));
  auto [rc3, out3] = sh("h5dump -d /cases/T_supply_max " + dir + "/o.h5");
  CHECK(rc3 == 0);
  CHECK_THAT(out3, Catch::Contains("( 6 )") && Catch::Contains("\"K\""));
  std::filesystem::remove_all(dir);
}

TEST_CASE("mpirun -np 2 dctwin sweep gives the same /cases as threads", "[sweep][cli][mpi]") {
  if (std::system("command -v mpirun > /dev/null 2>&1") != 0) {
    WARN("mpirun not found: the MPI sweep is not tested");
    return;
  }
  const std::string dir = gridSweepDir("dctwin_sweep_mpi");
  // root in CI containers: OpenMPI refuses root unless told; OpenMPI's own allocations are not
  // ours to report (LeakSanitizer in the sanitizer build)
  const std::string env =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 ";
  const std::string sweep = std::string(DCTWIN_CLI) + " sweep " + dir + "/s.yaml -q -o ";
  auto [rc1, out1] =
      sh(env + "timeout 300 mpirun -np 2 --oversubscribe " + sweep + dir + "/mpi.h5");
  INFO(out1);
  REQUIRE(rc1 == 0);
  auto [rc2, out2] = sh(env + sweep + dir + "/thr.h5 -j 2");
  REQUIRE(rc2 == 0);
  const std::string cols = " -d /cases/status -d /cases/T_supply_max -d /cases/E_it -d /cases/PUE ";
  auto [a, da] = sh("h5dump" + cols + dir + "/mpi.h5 | tail -n +2");
  auto [b, db] = sh("h5dump" + cols + dir + "/thr.h5 | tail -n +2");
  CHECK(da == db);
  CHECK_THAT(da, Catch::Contains("( 6 )"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("sweep shards (Slurm array tasks) merge into the same /cases", "[sweep][cli]") {
  const std::string dir = gridSweepDir("dctwin_sweep_shards");
  const std::string cli = std::string(DCTWIN_CLI);
  for (int k = 1; k <= 4; ++k)  // 6 cases over 4 shards: shards of 2, 2, 1 and 1 cases
    REQUIRE(sh(cli + " sweep " + dir + "/s.yaml -q --shard " + std::to_string(k) + "/4 -o " + dir +
               "/part" + std::to_string(k) + ".h5")
                .first == 0);
  auto [rc_bad, out_bad] =
      sh(cli + " merge " + dir + "/s.yaml " + dir + "/part1.h5.journal -o " + dir + "/m.h5");
  CHECK(rc_bad == 5);
  CHECK_THAT(out_bad, Catch::Contains("4 of 6 cases missing"));
  std::string parts;
  for (int k = 1; k <= 4; ++k) parts += " " + dir + "/part" + std::to_string(k) + ".h5.journal";
  auto [rc, out] = sh(cli + " merge " + dir + "/s.yaml" + parts + " -o " + dir + "/m.h5");
  REQUIRE(rc == 0);
  REQUIRE(sh(cli + " sweep " + dir + "/s.yaml -q -j 2 -o " + dir + "/all.h5").first == 0);
  const std::string cols = " -d /cases/status -d /cases/T_supply_max -d /cases/E_it ";
  CHECK(sh("h5dump" + cols + dir + "/m.h5 | tail -n +2").second ==
        sh("h5dump" + cols + dir + "/all.h5 | tail -n +2").second);
  CHECK_THAT(sh(cli + " sweep bad --shard 5/4").second,
             Catch::Contains("shard") || Catch::Contains("sweep"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("dctwin report: an HTML page with non-empty plots for a run and a sweep",
          "[report][cli]") {
  if (std::system("/usr/bin/python3 -c 'import h5py, matplotlib' > /dev/null 2>&1") != 0) {
    WARN("/usr/bin/python3 with h5py and matplotlib not available: the report is not tested");
    return;
  }
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_report").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string cli = std::string(DCTWIN_CLI);
  {
    std::ofstream out(dir + "/s.yaml");
    out << "facility: " << kFacilities << "/two_cdu_mixed.yaml\nduration: 5 min\n" << kGrid;
  }
  REQUIRE(std::system(
              (cli + " sweep " + dir + "/s.yaml -q -j 2 -o " + dir + "/sweep.h5").c_str()) == 0);
  REQUIRE(std::system((cli + " run " + kFacilities + "/two_cdu_mixed.yaml --duration 20min -q -o " +
                       dir + "/run.h5")
                          .c_str()) == 0);
  auto html = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  REQUIRE(std::system((cli + " report " + dir + "/run.h5 -o " + dir + "/r > /dev/null").c_str()) ==
          0);
  const std::string run_page = html(dir + "/r/index.html");
  // one self-contained page (every plot embedded) and a PDF; the plots also as PNG files
  auto embedded = [](const std::string& page) {
    std::size_t n = 0;
    for (std::size_t k = page.find("data:image/png;base64,"); k != std::string::npos;
         k = page.find("data:image/png;base64,", k + 1))
      ++n;
    return n;
  };
  CHECK(embedded(run_page) >= 5);
  CHECK(std::filesystem::file_size(dir + "/r/report.pdf") > 5000);
  CHECK_THAT(run_page, Catch::Contains("<h2>Summary</h2>"));
  for (const char* png : {"temperatures.png", "flows.png", "power.png", "floor_0.png"}) {
    INFO(png);
    CHECK(std::filesystem::file_size(dir + "/r/" + png) > 5000);
  }
  REQUIRE(std::system(
              (cli + " report " + dir + "/sweep.h5 -o " + dir + "/s > /dev/null").c_str()) == 0);
  const std::string sweep_page = html(dir + "/s/index.html");
  CHECK(embedded(sweep_page) >= 3);
  for (const char* png : {"metrics_fws.png", "metrics_load.png", "pareto.png"}) {
    INFO(png);
    CHECK(std::filesystem::file_size(dir + "/s/" + png) > 5000);
  }
  CHECK_THAT(sweep_page, Catch::Contains("<td>36 degC</td>"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a sweep with series: true keeps every case's run file", "[sweep][cli]") {
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_sweep_series").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir + "/s.yaml");
    out << "facility: " << kFacilities << "/two_cdu_mixed.yaml\nduration: 5 min\nseries: true\n"
        << "parameters:\n  - {path: facility.facility_water.supply_temperature, "
           "values: [\"30 degC\", \"34 degC\"]}\n";
  }
  REQUIRE(std::system(
              (std::string(DCTWIN_CLI) + " sweep " + dir + "/s.yaml -q -j 2 -o " + dir + "/o.h5")
                  .c_str()) == 0);
  for (int k = 0; k < 2; ++k) {
    const std::string f = caseSeriesPath(dir + "/o.h5", k);
    INFO(f);
    REQUIRE(std::filesystem::exists(f));
    CHECK(std::system(("h5dump -d /cdu/T_sec_supply " + f + " > /dev/null").c_str()) == 0);
  }
  std::filesystem::remove_all(dir);
}

// the sweep's power_interval: every case samples the meter and /cases carries its grid metrics
// (docs/models/grid.md); the ramp limit a parameter: exceeded at 1 kW/s, met at 100 MW/s, the
// same swing in both; without power_interval the columns are NaN
TEST_CASE("sweep power_interval: the grid metrics of each case in /cases", "[sweep][grid]") {
  // the pod with a grid section (a sweep path must name a key of the base file)
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_sweep_grid").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ifstream in(kFacilities + "/pod_gb200.yaml");
    std::ofstream out(dir + "/pod_grid.yaml");
    out << in.rdbuf() << "\ngrid: {ramp_limit: 1 kW/s, start: 290 s}\n";
  }
  const std::string body = R"(facility: pod_grid.yaml
duration: 7 min
output_interval: 60 s
power_interval: 0.1 s
sampling: list
parameters:
  - path: facility.grid.ramp_limit
    values: ["1 kW/s", "100 MW/s"]
)";
  SweepSpec s = loadSweepFromString(body, "s.yaml", dir);
  CHECK(s.power_interval == 0.1);
  const auto r = runSweep(s, expandCases(s), {}, 2, 0, nullptr);
  REQUIRE(r.size() == 2);
  for (const auto& c : r) {
    INFO(c.status << ": " << c.error);
    REQUIRE(c.ok);
  }
  const auto& a = r[0].metrics;
  const auto& b = r[1].metrics;
  CHECK(a.at("grid_ramp_met") == 0);
  CHECK(b.at("grid_ramp_met") == 1);
  // the pod's swing: its job's compute against its bubbles and collectives, a few hundred kW at a
  // period of its ~3.9 s iteration
  CHECK(a.at("grid_peak_to_peak") > 3e5);
  CHECK(a.at("grid_peak_to_peak") == b.at("grid_peak_to_peak"));
  CHECK(a.at("grid_swing_fraction") > 0.3);
  CHECK(a.at("grid_swing_fraction") < 1);
  CHECK(a.at("grid_max_rise_window") > 1e3);
  CHECK(a.at("grid_peak_frequency") == Approx(1 / 3.9).epsilon(0.1));
  CHECK(a.at("grid_peak_amplitude") > 0);
  CHECK(std::isnan(a.at("grid_bands_met")));  // the default bands carry no limit
  CHECK(std::isnan(a.at("grid_band_worst")));
  CHECK(sweepMetricBasis("grid_peak_to_peak") == "grid span");
  // without power_interval: no meter, NaN
  std::string slow = body;
  slow.replace(slow.find("power_interval: 0.1 s\n"), 22, "");
  SweepSpec s2 = loadSweepFromString(slow, "s.yaml", dir);
  CHECK(s2.power_interval == 0);
  const auto r2 = runSweep(s2, expandCases(s2), {}, 1, 0, nullptr);
  REQUIRE(r2.size() == 2);
  REQUIRE(r2[0].ok);
  CHECK(std::isnan(r2[0].metrics.at("grid_peak_to_peak")));
  CHECK(std::isnan(r2[0].metrics.at("grid_ramp_met")));
  std::filesystem::remove_all(dir);
  // a facility without a power section has no meter: power_interval is an error at its line,
  // not a column of NaN
  SweepSpec bare = load("power_interval: 0.1 s\n" + kGrid);
  CHECK(bare.power_interval == 0.1);
  try {
    validateSweep(bare);
    FAIL("power_interval on a facility without power was accepted");
  } catch (const LoadFailure& e) {
    const std::string what = e.what();
    CHECK(what.find("s.yaml:5:") != std::string::npos);
    CHECK(what.find("has no power section") != std::string::npos);
  }
}

TEST_CASE("sweep metrics skip the start-up, each has its own description", "[sweep]") {
  const std::string body = R"(facility: pod_gb200.yaml
duration: 20 min
output_interval: 30 s
sampling: list
parameters:
  - path: facility.facility_water.supply_temperature
    values: ["25 degC", "40 degC"]
)";
  SweepSpec s = loadSweepFromString(body, "s.yaml", kFacilities);
  REQUIRE(s.metrics_from < 0);  // default: min(20 min, half the run), the same for every case
  CHECK(defaultMetricsFrom(1200) == 600);
  CHECK(defaultMetricsFrom(86400) == 1200);
  const auto cases = expandCases(s);
  const auto r = runSweep(s, cases, {}, 2, 0, nullptr);
  REQUIRE(r.size() == 2);
  for (const auto& c : r) {
    REQUIRE(c.ok);
    CHECK(c.status == "completed");
    CHECK(c.metrics.at("metrics_from") == 600);
    CHECK(c.metrics.at("metrics_window") == 600);
    // the job starts at 5 min; its first steady iteration a little later, before the window
    CHECK(c.metrics.at("settled_at") > 300);
    CHECK(c.metrics.at("settled_at") <= 600);
  }
  // in steady operation colder facility water gives cooler GPUs
  CHECK(r[0].metrics.at("T_junction_max") < r[1].metrics.at("T_junction_max"));
  // the described job's step model: nominal step and memory as the model gives them,
  // achieved over the window: tokens/s x step = the tokens of an iteration, MFU x step the same
  // for both cases (the model's FLOPs), and the achieved step at least the nominal's
  const FacilityModel pm = compileFacility(loadFacility(kFacilities + "/pod_gb200.yaml"));
  const DescribedJob& dj = pm.job_described.at(0);
  for (const auto& c : r) {
    const auto& x = c.metrics;
    CHECK(x.at("step_time_model") == dj.step_time);
    CHECK(x.at("memory_per_gpu") == dj.memory_per_gpu);
    CHECK(x.at("step_time") > dj.step_time);
    CHECK(x.at("step_time") < 1.2 * dj.step_time);
    CHECK(x.at("tokens_per_second") * x.at("step_time") == Approx(4718592.0).epsilon(1e-12));
    CHECK(x.at("mfu") * x.at("step_time") == Approx(dj.mfu * dj.step_time).epsilon(1e-12));
    // throughput_ratio's window: the same iterations
    CHECK(x.at("throughput_ratio") > 0);
    // the bottleneck map over the window: the parts add up to the GPUs' time, the wait causes
    // to the barrier wait (less a barrier still pending at the end); the pod's job computes
    // most of the time, its pipeline idles in its bubbles
    double parts = 0, waits = 0;
    for (const SweepMapMetric& m : sweepMapMetrics()) {
      INFO(m.name);
      REQUIRE(x.count(m.name));
      CHECK(x.at(m.name) >= 0);
      (m.wait ? waits : parts) += x.at(m.name);
    }
    CHECK(parts == Approx(1.0).epsilon(1e-9));
    CHECK(waits <= x.at("map_barrier_wait") + 1e-12);
    CHECK(waits >= x.at("map_barrier_wait") - 0.01);
    CHECK(x.at("map_compute") > 0.4);
    CHECK(x.at("map_bubble") > 0.01);
    CHECK(x.at("map_lost_work") == 0);
  }
  CHECK(sweepMapMetrics().size() >= 20);
  CHECK(sweepMapMetrics().front().name == "map_compute");
  CHECK(sweepMetricBasis("map_compute") == "window ratio");
  // metrics_from: 0 s is the whole run (the PUE then includes the idle start)
  SweepSpec all = loadSweepFromString(body + "metrics_from: 0 s\n", "s.yaml", kFacilities);
  CHECK(all.metrics_from == 0);
  const auto w = runSweep(all, cases, {}, 2, 0, nullptr);
  CHECK(w[0].metrics.at("metrics_from") == 0);
  CHECK(w[0].metrics.at("E_it") > r[0].metrics.at("E_it"));
  // every metric has a description and a basis of its own
  std::set<std::string> seen;
  for (const auto& [name, unit] : sweepMetrics()) {
    INFO(name);
    const std::string& d = sweepMetricDescription(name);
    CHECK(d.find("docs/sweep-format.md") == std::string::npos);
    CHECK(seen.insert(d).second);
    CHECK(!sweepMetricBasis(name).empty());
  }
  CHECK(sweepMetricBasis("E_utility") == "window total");
  CHECK(sweepMetricBasis("P_utility_mean") == "window mean");
  CHECK(sweepMetricBasis("E_it_per_iteration") == "window total per iteration");
  CHECK(sweepMetricBasis("racks_powered_off") == "end of run");
}

// equal windows: the five-case facility-water sweep whose windows started at 480 or 420 s (its
// own first steady iteration each) had E_utility spread 7.9 % while the cases' mean utility power
// differs by 0.06 %: the window's length, not physics. One window for all cases
TEST_CASE("sweep cases share one metrics window: energies spread as their rates do",
          "[sweep][window]") {
  const std::string body = R"(facility: pod_gb200.yaml
duration: 20 min
output_interval: 60 s
sampling: list
parameters:
  - name: fws_temperature
    path: facility.facility_water.supply_temperature
    values: ["25 degC", "27.5 degC", "30 degC", "32.5 degC", "35 degC"]
)";
  SweepSpec s = loadSweepFromString(body, "s.yaml", kFacilities);
  const auto r = runSweep(s, expandCases(s), {}, 2, 0, nullptr);
  REQUIRE(r.size() == 5);
  auto spread = [&](const char* name) {
    double lo = 1e300, hi = -1e300, sum = 0;
    for (const auto& c : r) {
      const double v = c.metrics.at(name);
      lo = std::min(lo, v), hi = std::max(hi, v), sum += v;
    }
    return (hi - lo) / (sum / double(r.size()));
  };
  std::set<double> settled;
  for (const auto& c : r) {
    INFO("case " << c.index);
    REQUIRE(c.status == "completed");
    CHECK(c.metrics.at("metrics_from") == r[0].metrics.at("metrics_from"));
    CHECK(c.metrics.at("metrics_window") == r[0].metrics.at("metrics_window"));
    CHECK(c.metrics.at("metrics_window") == 600);
    CHECK(c.metrics.at("settled_at") <= c.metrics.at("metrics_from"));
    settled.insert(c.metrics.at("settled_at"));
    // a mean power is its energy over the window; per iteration, its energy over the iterations
    CHECK(c.metrics.at("P_utility_mean") == Approx(c.metrics.at("E_utility") / 600).epsilon(1e-12));
    CHECK(c.metrics.at("iterations") > 0);
    CHECK(c.metrics.at("E_it_per_iteration") ==
          Approx(c.metrics.at("E_it") / c.metrics.at("iterations")).epsilon(1e-12));
  }
  // the cases settle at different times (which the old per-case windows followed)...
  CHECK(settled.size() > 1);
  // ...yet the energies now spread exactly as the mean powers, which differ by well under 1 %
  CHECK(spread("E_utility") == Approx(spread("P_utility_mean")).epsilon(1e-9));
  CHECK(spread("E_utility") < 0.005);
  CHECK(spread("E_it") < 0.005);
}

// a shed case: the 45 degC case of data/sweeps/pod_fws_racks.yaml (8 racks on one CDU): every
// rack's inlet over its limit, protection powers all 8 off at 335 s. It was reported `ok`, 0 GPUs
// shut down, the coolest case; now its status says protection acted and it is not comparable
TEST_CASE("a sweep case whose load protection shed is flagged, never taken for a result",
          "[sweep][outcome]") {
  const std::string body = R"(facility: pod_gb200_r8.yaml
duration: 7 min
output_interval: 60 s
sampling: list
parameters:
  - name: fws_temperature
    path: facility.facility_water.supply_temperature
    values: ["35 degC", "45 degC"]
)";
  SweepSpec s = loadSweepFromString(body, "s.yaml", kFacilities);
  const auto cases = expandCases(s);
  const auto r = runSweep(s, cases, {}, 2, 0, nullptr);
  REQUIRE(r.size() == 2);
  CHECK(r[0].status == "completed");
  CHECK(caseComparable(r[0]));
  CHECK(r[0].metrics.at("racks_powered_off") == 0);
  CHECK(caseOutcome(r[0]) == "completed");
  CHECK(r[1].ok);  // the run itself finished
  CHECK(r[1].status == "protection_acted");
  CHECK_FALSE(caseComparable(r[1]));
  CHECK(r[1].metrics.at("racks_powered_off") == 8);
  CHECK(r[1].metrics.at("critical_events") >= 8);
  CHECK_THAT(caseOutcome(r[1]), Catch::Contains("protection acted: 8 rack(s) powered off") &&
                                    Catch::Contains("not comparable"));
  // the journal keeps the status
  CaseResult back;
  REQUIRE(parseJournalLine(journalLine(r[1]), back));
  CHECK(back.status == "protection_acted");
  CHECK(back.ok);
  // and so does /cases
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_sweep_shed.h5").string();
  writeSweepResults(out, s, cases, r);
  auto [rc, dump] = sh("h5dump -d /cases/status -d /cases/outcome -a /not_comparable_cases " + out);
  CHECK(rc == 0);
  CHECK_THAT(dump, Catch::Contains("\"completed\"") && Catch::Contains("\"protection_acted\"") &&
                       Catch::Contains("8 rack(s) powered off"));
  auto [rc2, basis] =
      sh("h5dump -a /cases/E_utility/basis -a /cases/racks_powered_off/basis " + out);
  CHECK_THAT(basis, Catch::Contains("window total") && Catch::Contains("end of run"));
  std::filesystem::remove(out);
}

TEST_CASE("the journal cannot lie: checksums, case numbers, cut lines, fingerprints",
          "[sweep][journal]") {
  SweepSpec s = load(kGrid);
  const auto cases = expandCases(s);
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_journal_test").string();
  std::filesystem::create_directories(dir);
  const std::string journal = dir + "/sweep.h5.journal";
  std::filesystem::remove(journal);
  startJournal(journal, s, cases.size());
  const auto part = runSweep(s, cases, {}, 2, 2, nullptr);
  REQUIRE(part.size() == 2);
  for (const auto& r : part) appendJournal(journal, r);
  auto append = [&](const std::string& text) {
    std::ofstream o(journal, std::ios::app | std::ios::binary);
    o << text;
  };
  // a line for case 999 and one for -1 (valid checksums: written by journalLine)
  CaseResult bad = part[0];
  bad.index = 999;
  append(journalLine(bad) + "\n");
  bad.index = -1;
  append(journalLine(bad) + "\n");
  // a line cut inside its last metric (4.57e-07 -> 4.57), then a line cut without a newline
  std::string line = journalLine(part[1]);
  line.replace(line.rfind('\t'), std::string::npos, "\t#00000000");
  append(line + "\n");
  append(journalLine(part[1]).substr(0, 40));
  std::vector<std::string> warnings;
  const auto done = readJournal(journal, s, cases.size(), &warnings);
  REQUIRE(done.size() == 2);  // only the two good lines
  CHECK(done[0].index == part[0].index);
  REQUIRE(warnings.size() == 4);
  CHECK_THAT(warnings[0], Catch::Contains("case 999 is not a case of this sweep"));
  CHECK_THAT(warnings[1], Catch::Contains("case -1"));
  CHECK_THAT(warnings[2], Catch::Contains("checksum"));
  CHECK_THAT(warnings[3], Catch::Contains("runs again"));
  // the results can be written (no case outside the table)
  const auto all = runSweep(s, cases, done, 2, 0, nullptr);
  CHECK(all.size() == cases.size());
  // an empty journal is one with nothing done; startJournal gives it a header
  { std::ofstream o(journal, std::ios::trunc); }
  CHECK(readJournal(journal, s, cases.size(), nullptr).empty());
  startJournal(journal, s, cases.size());
  appendJournal(journal, part[0]);
  CHECK(readJournal(journal, s, cases.size(), nullptr).size() == 1);
  // a journal written for another case count, or whose facility changed, is refused with what
  // to do
  CHECK_THROWS_WITH(readJournal(journal, s, cases.size() + 1, nullptr),
                    Catch::Contains("another number of cases") && !Catch::Contains("delete"));
  const std::string fac_copy = dir + "/facility.yaml";
  std::filesystem::copy_file(s.facility_path, fac_copy,
                             std::filesystem::copy_options::overwrite_existing);
  SweepSpec moved = s;
  moved.facility_path = fac_copy;
  std::filesystem::remove(journal);
  startJournal(journal, moved, cases.size());
  CHECK(readJournal(journal, moved, cases.size(), nullptr).empty());
  append("");
  {
    std::ofstream o(fac_copy, std::ios::app);
    o << "# edited while the sweep ran\n";
  }
  CHECK_THROWS_WITH(readJournal(journal, moved, cases.size(), nullptr),
                    Catch::Contains("computes something else") &&
                        Catch::Contains("kept as they are") && !Catch::Contains("delete"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("sweep limits: case count and parameter names checked before any case runs",
          "[sweep][journal]") {
  // a grid of 10^12 cases is refused without expanding it
  std::string big = "sampling: grid\nparameters:\n";
  for (int k = 0; k < 4; ++k)
    big += "  - {name: p" + std::to_string(k) +
           ", path: facility.facility_water.supply_temperature, range: [\"20 degC\", \"40 degC\"], "
           "steps: 1000}\n";
  SweepSpec g = load(big);
  CHECK(caseCount(g) > kMaxSweepCases);
  CHECK_THROWS_WITH(expandCases(g), Catch::Contains("more than 1000000 cases"));
  // two parameters with one name: one /cases column
  SweepSpec d = load(
      "sampling: grid\nparameters:\n"
      "  - {name: x, path: facility.facility_water.supply_temperature, values: [\"30 degC\"]}\n"
      "  - {name: x, path: facility.facility_water.differential_pressure, values: [\"200 "
      "kPa\"]}\n");
  CHECK_THROWS_WITH(validateSweep(d), Catch::Contains("two parameters named 'x'"));
}

TEST_CASE("dctwin sweep: a missing output folder is found before the first case",
          "[sweep][journal][cli]") {
  const std::string sweep_file = std::string(DCTWIN_SOURCE_DIR) + "/data/sweeps/pod_fws_racks.yaml";
  const std::string cmd = std::string(DCTWIN_CLI) + " sweep " + sweep_file +
                          " -q -o /nonexistent_dctwin_dir/sweep.h5 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  const int st = p ? pclose(p) : -1;
  CHECK(WEXITSTATUS(st) == 2);
  CHECK_THAT(out, Catch::Contains("does not exist"));
  CHECK_THAT(out, !Catch::Contains("case 0"));
}

TEST_CASE("sweep: every job's metrics in /case_jobs, the first training job's also in /cases",
          "[sweep][jobs]") {
  // the pod as two jobs: the described Llama 3 70B on racks A01-A04 (dp 9) and a fixed-phase
  // training job on A05-A08
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_sweep_jobs").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ifstream in(kFacilities + "/pod_gb200.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const auto a = text.find("    racks: all\n");
    REQUIRE(a != std::string::npos);
    text.replace(a, 15, "    racks: [A01, A02, A03, A04]\n");
    const auto b = text.find("\nracks:\n");
    REQUIRE(b != std::string::npos);
    text.insert(b,
                "\n  - {name: fixed_phase, racks: [A05, A06, A07, A08], start: 5 min, phases: "
                "default}\n");
    std::ofstream out(dir + "/pod_two_jobs.yaml");
    out << text;
  }
  const std::string body = R"(facility: pod_two_jobs.yaml
duration: 12 min
output_interval: 30 s
metrics_from: 8 min
sampling: list
parameters:
  - path: facility.facility_water.supply_temperature
    values: ["25 degC", "40 degC"]
)";
  SweepSpec s = loadSweepFromString(body, "s.yaml", dir);
  const auto r = runSweep(s, expandCases(s), {}, 2, 0, nullptr);
  REQUIRE(r.size() == 2);
  const auto& cols = sweepJobMetrics();
  auto at = [&](const CaseResult& c, int j, const std::string& name) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      if (cols[i].first == name) return c.job_metrics.at(std::size_t(j)).at(i);
    FAIL("no per-job metric " << name);
    return 0.0;
  };
  for (const auto& c : r) {
    INFO(c.status << ": " << c.error);
    REQUIRE(c.ok);
    REQUIRE(c.job_names == std::vector<std::string>{"llm_training", "fixed_phase"});
    // both train; the described one has its step model's rates, the fixed-phase one none
    CHECK(at(c, 0, "kind") == 0);
    CHECK(at(c, 0, "gpus") == 288);
    CHECK(at(c, 1, "gpus") == 288);
    CHECK(at(c, 0, "iterations") > 10);
    CHECK(at(c, 1, "iterations") > 10);
    CHECK(at(c, 0, "step_time") > at(c, 0, "step_time_model"));
    CHECK(at(c, 0, "tokens_per_second") * at(c, 0, "step_time") ==
          Approx(4718592.0).epsilon(1e-12));
    CHECK(std::isnan(at(c, 1, "step_time")));
    CHECK(std::isnan(at(c, 1, "mfu")));
    for (int j = 0; j < 2; ++j) {
      CHECK(at(c, j, "throughput_ratio") > 0.5);
      CHECK(at(c, j, "throughput_ratio") <= 1.0 + 1e-9);
      CHECK(at(c, j, "throughput_lost") == Approx(1 - at(c, j, "throughput_ratio")));
      double parts = 0;
      for (const SweepMapMetric& m : sweepMapMetrics())
        if (!m.wait) parts += at(c, j, m.name);
      CHECK(parts == Approx(1.0).epsilon(1e-9));
    }
    // the /cases columns are the first training job's row
    for (const char* name :
         {"throughput_ratio", "step_time", "tokens_per_second", "mfu", "map_compute", "map_bubble"})
      CHECK(c.metrics.at(name) == at(c, 0, name));
    CHECK(c.metrics.at("iterations") == at(c, 0, "iterations"));
  }
  // the per-job rows survive the journal, and the file's /case_jobs reads back as written
  CaseResult back;
  REQUIRE(parseJournalLine(journalLine(r[1]), back));
  CHECK(back.job_names == r[1].job_names);
  REQUIRE(back.job_metrics.size() == 2);
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const double x = r[1].job_metrics[0][i], y = back.job_metrics[0][i];
    CHECK((x == y || (std::isnan(x) && std::isnan(y))));
  }
  const std::string out = dir + "/out.h5";
  writeSweepResults(out, s, expandCases(s), r);
  ResultsReadOptions ro;
  ro.sweep = true;
  const auto jobs = sweepJobColumns(readResults(out, ro));
  REQUIRE(jobs.size() == cols.size() + 2);  // case, job, kind as its word, the others
  CHECK(jobs[0].name == "case");
  CHECK(jobs[0].numbers == std::vector<double>{0, 0, 1, 1});
  CHECK(jobs[1].text ==
        std::vector<std::string>{"llm_training", "fixed_phase", "llm_training", "fixed_phase"});
  CHECK(jobs[2].text[1] == "training");
  for (const auto& c : jobs)
    if (c.name == "step_time") {
      CHECK(c.unit == "s");
      CHECK(c.numbers[2] == at(r[1], 0, "step_time"));
    }
  // a job name with the journal's separators round-trips
  CaseResult odd = r[0];
  odd.job_names[1] = "a;b=c,d%e";
  REQUIRE(parseJournalLine(journalLine(odd), back));
  CHECK(back.job_names[1] == "a;b=c,d%e");
  std::filesystem::remove_all(dir);
}
