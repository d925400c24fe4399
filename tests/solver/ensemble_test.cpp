// ensemble_test.cpp: ensemble sweeps (replicates: variation seeds and uncertain inputs): the cases
// they expand to, their errors, the intervals of /ensemble against hand-computed ones, and the
// table the same for any thread count (docs/sweep-format.md "Ensembles")
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>

#include <sys/wait.h>

#include "solver/run/sweep.h"

using namespace dctwin;

namespace {

const std::string kFacilities = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities";

SweepSpec load(const std::string& text) {
  return loadSweepFromString(text, "e.yaml", kFacilities);
}

std::string errorsOf(const std::string& text) {
  try {
    SweepSpec s = load(text);
    validateSweep(s);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

std::pair<int, std::string> sh(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  const int rc = p ? pclose(p) : -1;
  return {WEXITSTATUS(rc), out};
}

const std::string kEnsemble = R"(facility: pod_gb200_r4.yaml
duration: 9 min
output_interval: 60 s
metrics_from: 6 min
replicates: 3
seed: 7
parameters:
  - name: fws
    path: facility.facility_water.supply_temperature
    values: ["30 degC", "40 degC"]
  - name: cdu_flow
    path: facility.cdus[cdu1].control.flow_setpoint
    range: ["700 L/min", "900 L/min"]
    uncertain: true
)";

}  // namespace

TEST_CASE("ensemble sweep: every design point runs its replicates with the same seeds and draws",
          "[sweep][ensemble]") {
  const SweepSpec s = load(kEnsemble);
  REQUIRE(s.replicates == 3);
  REQUIRE(s.params.size() == 3);  // fws, cdu_flow (uncertain), variation_seed (appended)
  CHECK(s.params[2].name == "variation_seed");
  CHECK(s.params[2].replicate_seed);
  CHECK(caseCount(s) == 6);
  CHECK(sweepReplicates(s) == 3);
  const auto cases = expandCases(s);
  REQUIRE(cases.size() == 6);
  std::set<std::string> seeds, flows;
  for (int k = 0; k < 6; ++k) {
    CHECK(cases[k].index == k);
    CHECK(cases[k].values[0] == (k < 3 ? "30 degC" : "40 degC"));  // replicates follow each other
    // common random numbers: replicate r has the same seed and draw at every design point
    CHECK(cases[k].values[1] == cases[k % 3].values[1]);
    CHECK(cases[k].values[2] == cases[k % 3].values[2]);
    CHECK(cases[k].values[2] == std::to_string(replicateSeed(7, k % 3)));
    seeds.insert(cases[k].values[2]);
    flows.insert(cases[k].values[1]);
    const double f = sweepValueSI(cases[k].values[1]) * 60000.0;  // L/min
    CHECK(f >= 700);
    CHECK(f <= 900);
  }
  CHECK(seeds.size() == 3);
  CHECK(flows.size() == 3);
  // stratified: one draw in each third of the range
  std::set<int> strata;
  for (const auto& v : flows) strata.insert(int((sweepValueSI(v) * 60000.0 - 700) / (200.0 / 3)));
  CHECK(strata == std::set<int>{0, 1, 2});
  // the seed reaches the facility (a variation section is created where the file has none)
  std::ifstream pod(kFacilities + "/pod_gb200_r4.yaml");
  const std::string text((std::istreambuf_iterator<char>(pod)), std::istreambuf_iterator<char>());
  REQUIRE(text.find("variation:") == std::string::npos);
  const CaseInputs in = caseInputs(s, cases[1], text, "");
  CHECK(getYamlPath(in.facility_text, "variation.seed") == cases[1].values[2]);
  // seeds below 2^53 (facility.variation.seed's range), different from each other and from r
  for (int r = 0; r < 100; ++r) CHECK(replicateSeed(1, r) < (1ULL << 53));
  CHECK(replicateSeed(1, 0) != replicateSeed(1, 1));
  CHECK(replicateSeed(1, 0) != replicateSeed(2, 0));
  CHECK(errorsOf(kEnsemble).empty());
}

TEST_CASE(
    "ensemble sweep: one replicate, uncertain inputs without replicates and variation: none "
    "are clear errors",
    "[sweep][ensemble]") {
  const std::string head = "facility: pod_gb200_r4.yaml\nduration: 4 min\n";
  const std::string fws =
      "  - {name: fws, path: facility.facility_water.supply_temperature, values: [\"30 degC\"]}\n";
  // one replicate: an interval needs two
  std::string e = errorsOf(head + "replicates: 1\nparameters:\n" + fws);
  CHECK_THAT(e, Catch::Contains("e.yaml:3") && Catch::Contains("replicates") &&
                    Catch::Contains("'1'") && Catch::Contains("2 or more replicates"));
  // an uncertain parameter needs replicates, and a range alone
  e = errorsOf(head + "parameters:\n" + fws +
               "  - {path: \"facility.cdus[cdu1].control.flow_setpoint\", uncertain: true, range: "
               "[\"700 L/min\", \"900 L/min\"]}\n");
  CHECK_THAT(e, Catch::Contains("e.yaml:5") && Catch::Contains("needs 'replicates'"));
  e = errorsOf(head + "replicates: 4\nparameters:\n" + fws +
               "  - {path: \"facility.cdus[cdu1].control.flow_setpoint\", uncertain: true, values: "
               "[\"700 L/min\"]}\n");
  CHECK_THAT(e, Catch::Contains("e.yaml:6") && Catch::Contains("a 'range' alone"));
  // only uncertain parameters: nothing to compare
  e = errorsOf(head +
               "replicates: 4\nparameters:\n"
               "  - {path: \"facility.cdus[cdu1].control.flow_setpoint\", uncertain: true, range: "
               "[\"700 L/min\", \"900 L/min\"]}\n");
  CHECK_THAT(e, Catch::Contains("at least one design parameter"));
  // a facility without GPU-to-GPU variation has no seed to vary: said at the replicates' line
  const std::string dir =
      (std::filesystem::temp_directory_path() / "dctwin_ensemble_novariation").string();
  std::filesystem::create_directories(dir);
  {
    std::ifstream in(kFacilities + "/pod_gb200_r4.yaml");
    std::ofstream out(dir + "/f.yaml");
    out << in.rdbuf() << "\nvariation: none\n";
  }
  try {
    SweepSpec s = loadSweepFromString(
        "facility: f.yaml\nduration: 4 min\nreplicates: 2\nparameters:\n" + fws, "e.yaml", dir);
    validateSweep(s);
    FAIL("no error");
  } catch (const LoadFailure& x) {
    CHECK_THAT(x.what(), Catch::Contains("e.yaml:3") && Catch::Contains("variation: none") &&
                             Catch::Contains("replicates"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("ensemble intervals: mean, std and numpy's percentiles over the completed replicates",
          "[sweep][ensemble]") {
  CHECK(sortedQuantile({1, 2, 3, 4}, 0.05) == Approx(1.15));
  CHECK(sortedQuantile({1, 2, 3, 4}, 0.95) == Approx(3.85));
  CHECK(sortedQuantile({5}, 0.5) == 5);
  CHECK(std::isnan(sortedQuantile({}, 0.5)));
  SweepSpec s = load(R"(facility: pod_gb200_r4.yaml
replicates: 4
parameters:
  - {name: fws, path: facility.facility_water.supply_temperature, values: ["30 degC", "40 degC"]}
)");
  const auto cases = expandCases(s);
  REQUIRE(cases.size() == 8);
  std::vector<CaseResult> rs(8);
  const double tj[8] = {340, 342, 341, 345, 350, 352, 330, 351};
  for (int k = 0; k < 8; ++k) {
    rs[k].index = k;
    rs[k].ok = true;
    rs[k].status = "completed";
    for (const auto& [m, unit] : sweepMetrics()) rs[k].metrics[m] = std::nan("");
    rs[k].metrics["T_junction_max"] = tj[k];
  }
  rs[6].status = "protection_acted";  // shed: counted, never averaged (its 330 K is not cool)
  const EnsembleTable T = ensembleTable(s, cases, rs);
  REQUIRE(T.point.size() == 2);
  CHECK(T.param_names == std::vector<std::string>{"fws"});
  CHECK(T.values[0] == std::vector<std::string>{"30 degC", "40 degC"});
  CHECK(T.completed == std::vector<long long>{4, 3});
  CHECK(T.outcome[1] == "3 of 4 completed, 1 protection_acted");
  const auto& m = T.stats.at("mean").at("T_junction_max");
  CHECK(m[0] == Approx(342.0));
  CHECK(m[1] == Approx(351.0));
  CHECK(T.stats.at("std").at("T_junction_max")[0] == Approx(std::sqrt(14.0 / 3.0)));
  CHECK(T.stats.at("p5").at("T_junction_max")[0] == Approx(340.15));  // 340 341 342 345
  CHECK(T.stats.at("p95").at("T_junction_max")[0] == Approx(344.55));
  CHECK(T.stats.at("p5").at("T_junction_max")[1] == Approx(350.1));  // 350 351 352
  CHECK(std::isnan(T.stats.at("mean").at("PUE")[0]));                // no values: NaN
  const std::string text = ensembleText(T);
  CHECK_THAT(text, Catch::Contains("2 design point(s) x 4 replicates") &&
                       Catch::Contains("68.9 [67.0, 71.4]") && Catch::Contains("3/4"));
  // the results must be the cases in order
  rs.pop_back();
  CHECK_THROWS(ensembleTable(s, cases, rs));
}

TEST_CASE(
    "dctwin sweep with replicates: the seeds spread the pod, /ensemble the same on 1 and 3 "
    "threads",
    "[sweep][ensemble][cli]") {
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_ensemble").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir + "/e.yaml");
    std::string t = kEnsemble;
    t.replace(t.find("pod_gb200_r4.yaml"), 17, kFacilities + "/pod_gb200_r4.yaml");
    out << t;
  }
  const std::string cli = std::string(DCTWIN_CLI) + " sweep " + dir + "/e.yaml -o ";
  auto [rc1, out1] = sh(cli + dir + "/j1.h5 -j 1");
  INFO(out1);
  REQUIRE(rc1 == 0);
  CHECK_THAT(out1, Catch::Contains("ensemble: 2 design point(s) x 3 replicates"));
  auto [rc3, out3] = sh(cli + dir + "/j3.h5 -j 3");
  REQUIRE(rc3 == 0);
  const std::string cols =
      " -d /ensemble/mean/T_junction_max -d /ensemble/p5/T_junction_max -d "
      "/ensemble/p95/T_junction_max -d /ensemble/std/E_it -d /ensemble/outcome -d "
      "/cases/parameters/variation_seed ";
  // and as two shards (Slurm array tasks; MPI ranks share the same gather) merged
  const std::string dctwin = std::string(DCTWIN_CLI);
  for (int k = 1; k <= 2; ++k)
    REQUIRE(sh(dctwin + " sweep " + dir + "/e.yaml -q --shard " + std::to_string(k) + "/2 -o " +
               dir + "/s" + std::to_string(k) + ".h5")
                .first == 0);
  REQUIRE(sh(dctwin + " merge " + dir + "/e.yaml " + dir + "/s1.h5.journal " + dir +
             "/s2.h5.journal -q -o " + dir + "/m.h5")
              .first == 0);
  const auto a = sh("h5dump" + cols + dir + "/j1.h5 | tail -n +2").second;
  const auto b = sh("h5dump" + cols + dir + "/j3.h5 | tail -n +2").second;
  const auto m = sh("h5dump" + cols + dir + "/m.h5 | tail -n +2").second;
  CHECK(a == b);
  CHECK(a == m);
  // dctwin export --ensemble: the table as CSV, one row per design point; a run file or a sweep
  // without replicates is refused, naming why
  auto [rce, csv] = sh(dctwin + " export " + dir + "/j1.h5 --ensemble");
  REQUIRE(rce == 0);
  CHECK_THAT(csv, Catch::StartsWith("point,replicates,completed,outcome,parameters/fws,") &&
                      Catch::Contains("p95/T_junction_max (K)") &&
                      Catch::Contains("\n1,3,3,3 of 3 completed,40 degC,"));
  auto [rcn, none] = sh(dctwin + " export " + dir + "/j1.h5 --ensemble --long");
  CHECK(rcn != 0);
  CHECK_THAT(a, Catch::Contains("3 of 3 completed"));
  // every /ensemble dataset says what it is
  auto [rca, attrs] = sh("h5dump -A -d /ensemble/p95/T_junction_max " + dir + "/j1.h5");
  CHECK_THAT(attrs, Catch::Contains("units") && Catch::Contains("\"K\"") &&
                        Catch::Contains("description") && Catch::Contains("95th percentile") &&
                        Catch::Contains("ensemble 95th percentile of window max"));
  // the replicates differ (their GPUs were drawn from other seeds), and the interval holds the
  // mean
  ResultsReadOptions ro;
  ro.sweep = true;
  const ResultsData d = readResults(dir + "/j1.h5", ro);
  const auto& tj = d.series.at("/cases/T_junction_max").data;
  REQUIRE(tj.size() == 6);
  CHECK(tj[0] != tj[1]);
  CHECK(tj[1] != tj[2]);
  const auto& mean = d.series.at("/ensemble/mean/T_junction_max").data;
  const auto& p5 = d.series.at("/ensemble/p5/T_junction_max").data;
  const auto& p95 = d.series.at("/ensemble/p95/T_junction_max").data;
  REQUIRE(mean.size() == 2);
  for (int p = 0; p < 2; ++p) {
    CHECK(p5[p] < mean[p]);
    CHECK(mean[p] < p95[p]);
  }
  CHECK(mean[1] > mean[0]);  // warmer water, hotter GPUs
  const auto ens = ensembleColumns(d);
  REQUIRE(!ens.empty());
  CHECK(ens[0].name == "point");
  bool has = false;
  for (const auto& c : ens) has = has || (c.name == "p95/E_it" && c.unit == "J");
  CHECK(has);
  std::filesystem::remove_all(dir);
}
