// cli_habits_test.cpp: progress lines, --record, dctwin export, option names (runs the built
// dctwin; the formatting itself is in progress_test.cpp)
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/output/csv_export.h"
#include "solver/output/results_reader.h"
#include "solver/output/series_filter.h"

using namespace dctwin;

namespace {

struct Result {
  int code;
  std::string out;
};

Result sh(const std::string& cmd) {
  Result r{-1, {}};
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const std::string kCli = DCTWIN_CLI;
const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

std::string tmpPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("dctwin_habits_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("series globs and the near-path message", "[cli][record]") {
  CHECK(globMatch("/rack/*", "/rack/T_return"));
  CHECK_FALSE(globMatch("/rack/*", "/cdu/T_sec_supply"));
  CHECK(globMatch("/cdu/T_*_supply", "/cdu/T_sec_supply"));
  CHECK(anyGlobMatch({}, "/anything"));
  const std::vector<std::string> paths = {"/rack/T_return", "/rack/T_supply", "/cdu/Q_hex"};
  CHECK(unmatchedPatternError({"/rack/*"}, paths, "--record").empty());
  const std::string e = unmatchedPatternError({"/rack/*", "/rack/T_retrun"}, paths, "--record");
  CHECK_THAT(e, Catch::StartsWith("--record '/rack/T_retrun': matches no series; near: "
                                  "/rack/T_return"));
}

TEST_CASE("dctwin run --record, progress lines, export wide and long", "[cli][record][export]") {
  const std::string out = tmpPath("rec.h5");
  // not a terminal: one progress line every 10 %
  Result r = sh(kCli + " run " + kPod + " -d 10min -i 60s -t 2 -o " + out +
                " --record '/rack/*' '/facility/P_IT'");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("dctwin run:  10%  t 1m00s/10m00s") &&
                        Catch::Contains("dctwin run: 100%  t 10m00s/10m00s") &&
                        Catch::Contains("real time") && Catch::Contains("ETA"));
  const ResultsData d = readResults(out);
  CHECK(d.find("/time"));
  CHECK(d.find("/rack/T_return"));
  CHECK(d.find("/facility/P_IT"));
  CHECK_FALSE(d.find("/cdu/Q_hex"));
  CHECK_FALSE(d.find("/gpu/T_junction"));
  CHECK(d.strings.count("/cdu/names"));  // the layout always
  // --quiet: nothing at all
  Result q = sh(kCli + " run " + kPod + " -d 2min -q");
  CHECK(q.code == 0);
  CHECK(q.out.empty());
  // a pattern that matches nothing: an error naming it, with near paths
  Result bad = sh(kCli + " run " + kPod + " -d 2min -q -o " + tmpPath("bad.h5") +
                  " --record '/rack/T_retrun'");
  CHECK(bad.code != 0);
  CHECK_THAT(bad.out, Catch::Contains("'/rack/T_retrun': matches no series") &&
                          Catch::Contains("/rack/T_return"));
  // export: wide
  const std::string csv = tmpPath("wide.csv");
  Result w = sh(kCli + " export " + out + " --series '/rack/T_return' '/facility/P_IT' -o " + csv);
  INFO(w.out);
  REQUIRE(w.code == 0);
  const std::string wide = slurp(csv);
  CHECK_THAT(wide, Catch::StartsWith("time (s),/facility/P_IT (W),/rack/T_return[A01] (K),"));
  std::size_t lines = 0;
  for (char c : wide) lines += c == '\n';
  CHECK(lines == 1 + 11);  // header + 0..600 s every 60 s
  // long
  Result l = sh(kCli + " export " + out + " --series '/rack/T_return' --long");
  REQUIRE(l.code == 0);
  CHECK_THAT(l.out, Catch::StartsWith("time,path,column,value,unit\n0,/rack/T_return,A01,"));
  CHECK_THAT(l.out, Catch::Contains(",K\n"));
  // display units (the unit table): degC for the absolute temperature, kW, the same values
  const std::string shown_csv = tmpPath("shown.csv");
  Result u = sh(kCli + " export " + out + " --series '/rack/T_return' '/facility/P_IT' --units " +
                "display -o " + shown_csv);
  REQUIRE(u.code == 0);
  const std::string shown = slurp(shown_csv);
  CHECK_THAT(shown, Catch::StartsWith("time (s),/facility/P_IT (kW),/rack/T_return[A01] (°C),"));
  {
    // row 2 of both tables: the same numbers, converted
    auto row = [](const std::string& text, int k) {
      std::istringstream is(text);
      std::string line;
      for (int i = 0; i <= k; ++i) std::getline(is, line);
      std::vector<double> v;
      std::istringstream ls(line);
      for (std::string cell; std::getline(ls, cell, ',');) v.push_back(std::stod(cell));
      return v;
    };
    const std::vector<double> si = row(wide, 2), disp = row(shown, 2);
    REQUIRE(si.size() == disp.size());
    CHECK(disp[0] == si[0]);                                 // time stays in s
    CHECK(disp[1] == Approx(si[1] / 1e3).epsilon(1e-9));     // W -> kW
    CHECK(disp[2] == Approx(si[2] - 273.15).epsilon(1e-9));  // K -> degC
  }
  Result ul = sh(kCli + " export " + out + " --series '/rack/T_return' --long --units display");
  REQUIRE(ul.code == 0);
  CHECK_THAT(ul.out, Catch::Contains(",°C\n"));
  CHECK(sh(kCli + " export " + out + " --units kelvin").code != 0);
  std::filesystem::remove(shown_csv);
  // a series the file does not have
  Result no = sh(kCli + " export " + out + " --series '/cdu/*'");
  CHECK(no.code != 0);
  CHECK_THAT(no.out, Catch::Contains("'/cdu/*': matches no series"));
  std::filesystem::remove(out);
  std::filesystem::remove(csv);
}

TEST_CASE("run: --threads/-t, -j still works with a deprecation note", "[cli]") {
  Result t = sh(kCli + " run " + kPod + " -d 2min -q --threads 2");
  CHECK(t.code == 0);
  Result j = sh(kCli + " run " + kPod + " -d 2min -q -j 2");
  CHECK(j.code == 0);
  CHECK_THAT(j.out, Catch::Contains("deprecated") && Catch::Contains("--threads"));
  Result help = sh(kCli + " run --help");
  CHECK_THAT(help.out, Catch::Contains("--threads") && Catch::Contains("--record"));
  Result sweep = sh(kCli + " sweep --help");
  CHECK_THAT(sweep.out, Catch::Contains("-j,--jobs"));
}

// a default wide export is a table a spreadsheet opens (the hall's was 744,787 columns)
TEST_CASE("export: the default wide table fits a spreadsheet", "[cli][export]") {
  ResultsData d;
  d.path = "x.h5";
  auto add = [&](const std::string& p, std::size_t w) {
    ResultsSeries s;
    s.rows = 1, s.width = w, s.data.assign(std::max<std::size_t>(w, 1), 0.0);
    d.series[p] = s;
  };
  add("/facility/P_IT", 0);
  add("/gpu/T_junction", 20000);
  add("/rack/T_return", 768);
  std::vector<std::string> left;
  const auto kept = fitWidth(d, {"/facility/P_IT", "/gpu/T_junction", "/rack/T_return"},
                             kSpreadsheetColumns, &left);
  CHECK(kept == std::vector<std::string>{"/facility/P_IT", "/rack/T_return"});
  CHECK(left == std::vector<std::string>{"/gpu/T_junction"});
  std::size_t cols = 1;
  for (const auto& p : kept) cols += d.series.at(p).columns();
  CHECK(cols <= 16384);
  left.clear();
  CHECK(fitWidth(d, {"/facility/P_IT"}, kSpreadsheetColumns, &left).size() == 1);
  CHECK(left.empty());
}
