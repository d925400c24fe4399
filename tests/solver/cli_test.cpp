// cli_test.cpp: the dctwin command line, end to end (runs the built executable)
#include <catch2/catch.hpp>

#include <H5Cpp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/output/results_reader.h"

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
const std::string kSrc = DCTWIN_SOURCE_DIR;

// unique per process: other test runs (other build trees) may use the same temp folder at once,
// and a results file that another process writes is refused
std::string tmpPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("dctwin_cli_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

}  // namespace

TEST_CASE("help is complete for the program and each subcommand", "[cli]") {
  Result top = sh(kCli + " --help");
  CHECK(top.code == 0);
  for (const char* s : {"run", "check", "--version"}) CHECK(top.out.find(s) != std::string::npos);
  Result run = sh(kCli + " run --help");
  CHECK(run.code == 0);
  for (const char* s :
       {"--scenario", "--duration", "--output", "--output-interval", "--quiet", "facility"})
    CHECK(run.out.find(s) != std::string::npos);
  CHECK(sh(kCli + " check --help").code == 0);
  Result v = sh(kCli + " --version");
  CHECK(v.out.find("dctwin ") != std::string::npos);
  CHECK(sh(kCli).code != 0);  // a subcommand is required
}

TEST_CASE("dctwin run writes results with units and prints a summary", "[cli]") {
  std::string out = tmpPath("pod.h5");
  Result r = sh(kCli + " run " + kSrc +
                "/data/facilities/pod_gb200.yaml --duration 20min -i 30s -p 0.5s -o " + out);
  INFO(r.out);
  REQUIRE(r.code == 0);
  for (const char* s :
       {"peak junction", "rack flows", "energy balance", "solver", "degC", "L/min", "kW",
        "576 resolved", "peak junction", "job llm_training", "throughput ratio"})
    CHECK(r.out.find(s) != std::string::npos);
  // every dataset carries a units attribute; the time axis has 41 rows (0..1200 s every 30 s)
  H5::H5File f(out, H5F_ACC_RDONLY);
  H5::DataSet t = f.openDataSet("/time");
  hsize_t dims[2];
  t.getSpace().getSimpleExtentDims(dims);
  CHECK(dims[0] == 41);
  for (const char* path : {"/rack/T_supply",
                           "/rack/T_return",
                           "/rack/V_flow",
                           "/rack/dp",
                           "/rack/Q_liquid",
                           "/cdu/T_sec_supply",
                           "/cdu/T_sec_return",
                           "/cdu/T_prim_supply",
                           "/cdu/T_prim_return",
                           "/cdu/V_flow_sec",
                           "/cdu/V_flow_prim",
                           "/cdu/pump_speed",
                           "/cdu/P_pump",
                           "/cdu/valve_position",
                           "/cdu/Q_hex",
                           "/energy/balance_error",
                           "/gpu/T_junction",
                           "/gpu/T_hbm",
                           "/gpu/P",
                           "/gpu/clock_ratio",
                           "/gpu/throttle_reasons",
                           "/gpu/utilization_sm",
                           "/job/iteration_time",
                           "/job/throughput_ratio",
                           "/job/throttled_gpu_seconds",
                           "/facility/P_IT"}) {
    INFO(path);
    H5::DataSet d = f.openDataSet(path);
    REQUIRE(d.attrExists("units"));
    d.getSpace().getSimpleExtentDims(dims);
    CHECK(dims[0] == 41);
  }
  CHECK(f.openDataSet("/rack/names").attrExists("description"));
  for (const char* path : {"/gpu/rack", "/gpu/tray", "/gpu/slot"}) {
    f.openDataSet(path).getSpace().getSimpleExtentDims(dims);
    CHECK(dims[0] == 576);
  }
  // sub-second power: 20 min every 0.5 s
  f.openDataSet("/power/P_IT").getSpace().getSimpleExtentDims(dims);
  CHECK(dims[0] == 2400);
  CHECK(f.openDataSet("/power/P_IT").attrExists("units"));
  for (const char* a :
       {"dctwin_version", "facility_text", "scenario_text", "solver_steps", "status"})
    CHECK(f.attrExists(a));
  f.close();
  if (std::filesystem::exists("/usr/bin/h5dump")) {
    Result d = sh("/usr/bin/h5dump -A " + out);
    CHECK(d.code == 0);
    CHECK(d.out.find("\"units\"") != std::string::npos);
  }
  std::filesystem::remove(out);
}

TEST_CASE("dctwin run with a scenario, and check", "[cli]") {
  Result r = sh(kCli + " run " + kSrc + "/data/facilities/two_cdu_mixed.yaml --scenario " + kSrc +
                "/data/scenarios/load_step_excursion.yaml --duration 40min -q");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  Result c = sh(kCli + " check " + kSrc + "/data/facilities/two_cdu_mixed.yaml");
  CHECK(c.code == 0);
  CHECK(c.out.find("2 CDU, 14 racks") != std::string::npos);
}

TEST_CASE("bad input gives a clear error and a non-zero exit, never a crash", "[cli]") {
  std::string bad = tmpPath("bad.yaml");
  std::ofstream(bad) << "dctwin: 1\nname: x\nsite: {ambient_temperature: 25 degF}\n";
  Result r = sh(kCli + " check " + bad);
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(r.out.find(bad + ":3:") != std::string::npos);
  CHECK(r.out.find("degF") != std::string::npos);
  Result d = sh(kCli + " run " + kSrc + "/data/facilities/pod_gb200.yaml --duration 2 fortnights");
  CHECK(d.code != 0);
  Result o = sh(kCli + " run " + kSrc +
                "/data/facilities/pod_gb200.yaml --duration 1min -o /nonexistent/dir/x.h5");
  CHECK(o.code == 2);
  CHECK(o.out.find("/nonexistent/dir") != std::string::npos);
  std::filesystem::remove(bad);
}

TEST_CASE(
    "hostile inputs: late events, a non-positive power interval, a clamped power cap, a "
    "report of a file that is not HDF5",
    "[cli][inputs]") {
  const std::string pod = kSrc + "/data/facilities/pod_gb200.yaml";
  // an event after the end of the run is an error naming the event, not dropped
  const std::string late = tmpPath("late.yaml");
  {
    std::ofstream o(late);
    o << "duration: 10 min\nevents:\n  - {time: 20 min, facility_water_temperature: 35 degC}\n";
  }
  Result r = sh(kCli + " run " + pod + " -s " + late + " -q");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("late.yaml:3:") &&
                        Catch::Contains("after the end of the scenario (duration 600 s)"));
  // after a --duration that cuts the scenario short: a warning, and the run goes on
  r = sh(kCli + " run " + pod + " -s " + late + " -q -d 5min");
  CHECK(r.code == 2);  // still after the scenario's own end
  const std::string cut = tmpPath("cut.yaml");
  {
    std::ofstream o(cut);
    o << "duration: 30 min\nevents:\n  - {time: 20 min, facility_water_temperature: 35 degC}\n";
  }
  r = sh(kCli + " run " + pod + " -s " + cut + " -d 5min");  // -q would keep it quiet
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("warning: facility_water_temperature event at t = 1200 s is "
                                    "after the end of this run (300 s)"));
  // --power-interval must be positive
  for (const char* p : {"0s", "-1s"}) {
    r = sh(kCli + " run " + pod + " -d 1min -q -p " + p + " -o " + tmpPath("p.h5"));
    CHECK(r.code != 0);
    CHECK_THAT(r.out, Catch::Contains("--power-interval: must be positive"));
  }
  // a power cap below the GPU's settable range is logged as what the GPUs apply
  const std::string cap = tmpPath("cap.yaml");
  {
    std::ofstream o(cap);
    o << "duration: 2 min\nevents:\n  - {time: 1 min, job: llm_training, power_cap: 1 W}\n";
  }
  const std::string h5 = tmpPath("cap.h5");
  r = sh(kCli + " run " + pod + " -s " + cap + " -q -o " + h5);
  REQUIRE(r.code == 0);
  const dctwin::ResultsData d = dctwin::readResults(h5);
  bool found = false;
  for (const dctwin::EventRecord& e : d.events)
    if (e.kind == "power_cap") {
      found = true;
      CHECK_THAT(e.message, Catch::Contains("asked for 1 W") && !Catch::Contains("set to 1 W"));
    }
  CHECK(found);
  // a CSV path to a file that is not a CSV: said once per reference, its content never shown
  const std::string fac = tmpPath("csv_facility.yaml");
  {
    std::ifstream in(kSrc + "/data/facilities/two_cdu_mixed.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const std::string from = "index: 1, heat_load: 110 kW}";
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(),
                 "index: 1, heat_load: {csv: /etc/passwd, unit: kW}}");
    std::ofstream o(fac);
    o << text;
  }
  r = sh("cd " + kSrc + "/data/facilities && " + kCli + " check " + fac);
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("/etc/passwd:1:1:") && Catch::Contains("not a CSV") &&
                        !Catch::Contains("root:") && !Catch::Contains("nologin"));
  // dctwin report on a file that is not HDF5: a message, no traceback
  const std::string txt = tmpPath("not.h5");
  {
    std::ofstream o(txt);
    o << "root:x:0:0:root:/root:/bin/bash\n";
  }
  r = sh(kCli + " report " + txt + " -o " + tmpPath("rep"));
  CHECK(r.code == 6);
  CHECK_THAT(r.out, Catch::Contains("cannot read the results file") &&
                        !Catch::Contains("Traceback") && !Catch::Contains("root:x"));
}

// a program copied out of its build tree finds no catalog; the error names the data
// folders it searched and DCTWIN_DATA, not only "unknown fluid (none are defined)"
TEST_CASE("dctwin outside its tree: the error names the data folders searched", "[cli][paths]") {
  const std::string dir = tmpPath("lonely");
  std::filesystem::create_directories(dir);
  const std::string copy = dir + "/dctwin";
  std::filesystem::copy_file(kCli, copy, std::filesystem::copy_options::overwrite_existing);
  const Result r =
      sh("env -u DCTWIN_DATA " + copy + " check " + kSrc + "/data/facilities/pod_gb200.yaml");
  INFO(r.out);
  if (r.out.find("the install prefix") == std::string::npos && r.code == 0) {
    SUCCEED("an installed dctwin's catalog was found under the install prefix");
  } else {
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("none are defined: no catalog/ folder in the data folders "
                                      "searched: ") &&
                          Catch::Contains(dir) && Catch::Contains("(next to the program)") &&
                          Catch::Contains("(the install prefix)") &&
                          Catch::Contains("set DCTWIN_DATA"));
  }
  std::filesystem::remove_all(dir);
}

// an option typo gets the nearest option of its command
TEST_CASE("dctwin: an unknown option gets a did-you-mean", "[cli]") {
  const Result r = sh(kCli + " run " + kSrc + "/data/facilities/pod_gb200.yaml --duratoin 1min");
  INFO(r.out);
  CHECK(r.code != 0);
  CHECK_THAT(r.out, Catch::Contains("'--duratoin' is not an option of dctwin run; did you mean "
                                    "'--duration'?"));
  const Result s = sh(kCli + " sweep " + kSrc + "/data/sweeps/pod_fws_racks.yaml --outptu o.h5");
  CHECK_THAT(s.out, Catch::Contains("did you mean '--output'?"));
}
