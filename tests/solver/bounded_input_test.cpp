// bounded_input_test.cpp: every door bounded (docs/results.md "Bad inputs"): the bounded opener
// on FIFOs, devices, folders and large files for every reader, errors that never echo a file that
// is not YAML, outputs that never replace inputs, journals matched by content, journal writes
// checked, run size limits, results files that never claim rows they do not hold
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "solver/common/bounded_file.h"
#include "solver/common/run_limits.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/input/sweep_file.h"
#include "solver/output/results.h"
#include "solver/output/results_reader.h"
#include "solver/run/check.h"
#include "solver/run/sweep.h"

using namespace dctwin;
namespace fs = std::filesystem;

namespace {

const std::string kCli = DCTWIN_CLI;
const std::string kFacilities = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities";

struct Sh {
  int code;
  std::string out;
};

// a shell command's exit status and output (stdout and stderr)
Sh sh(const std::string& cmd) {
  Sh r{-1, {}};
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// a fresh folder per test case and process
std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string freshDir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("dctwin_bounded_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// the kinds of bad input every reader is given: a FIFO without a writer, /dev/zero, a folder,
// a sparse 60 MB file
struct BadInputs {
  std::string fifo, zero = "/dev/zero", folder, large;
  explicit BadInputs(const std::string& dir) : fifo(dir + "/fifo"), folder(dir + "/folder") {
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    fs::create_directories(folder);
    large = dir + "/large.yaml";
    write(large, "dctwin: 1\n");
    REQUIRE(::truncate(large.c_str(), 60 << 20) == 0);
  }
  std::array<std::string, 4> all() const { return {fifo, zero, folder, large}; }
};

// the time a call takes (s)
template <class F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const char* kPasswd =
    "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";

}  // namespace

TEST_CASE("the bounded opener refuses FIFOs, devices, folders and large files at once",
          "[bounded]") {
  const std::string dir = freshDir("opener");
  const BadInputs bad(dir);
  for (const std::string& p : bad.all()) {
    INFO(p);
    FileRefusal why;
    std::optional<std::string> text;
    CHECK(timed([&] { text = readBoundedFile(p, kMaxInputFileBytes, &why); }) < 2.0);
    CHECK_FALSE(text);
    CHECK_FALSE(why.reason.empty());
  }
  FileRefusal why;
  CHECK_FALSE(readBoundedFile(bad.fifo, kMaxInputFileBytes, &why));
  CHECK_THAT(why.reason, Catch::Contains("FIFO"));
  CHECK_FALSE(readBoundedFile(bad.zero, kMaxInputFileBytes, &why));
  CHECK_THAT(why.reason, Catch::Contains("character device"));
  CHECK_FALSE(readBoundedFile(bad.large, kMaxInputFileBytes, &why));
  CHECK_THAT(why.reason, Catch::Contains("too large (60 MiB; at most 16 MiB)"));
  CHECK(why.err == EFBIG);
  write(dir + "/ok.txt", "hello");
  CHECK(readBoundedFile(dir + "/ok.txt", 5, &why) == std::string("hello"));
  CHECK_FALSE(readBoundedFile(dir + "/ok.txt", 4, &why));
  CHECK_FALSE(readBoundedFile(dir + "/missing", 4, &why));
  CHECK(why.err == ENOENT);
  fs::remove_all(dir);
}

TEST_CASE("every loader and reader refuses bad files at once with a clear error", "[bounded]") {
  const std::string dir = freshDir("loaders");
  const BadInputs bad(dir);
  for (const std::string& p : bad.all()) {
    INFO(p);
    CHECK(timed([&] { CHECK_THROWS_AS(loadFacility(p), LoadFailure); }) < 2.0);
    CHECK(timed([&] { CHECK_THROWS_AS(loadScenario(p), LoadFailure); }) < 2.0);
    CHECK(timed([&] { CHECK_THROWS_AS(loadSweep(p), LoadFailure); }) < 2.0);
    CHECK(timed([&] { CHECK_THROWS_AS(readResults(p), ResultsError); }) < 2.0);
    CHECK(timed([&] { CHECK_THROWS(checkFile(p, "")); }) < 2.0);
  }
  CHECK_THROWS_WITH(readResults(bad.fifo), Catch::Contains("FIFO"));
  CHECK_THROWS_WITH(loadScenario(bad.zero), Catch::Contains("not a regular file"));
  fs::remove_all(dir);
}

TEST_CASE("files a sweep names are read through the bounded opener", "[bounded][sweep]") {
  const std::string dir = freshDir("sweep_names");
  const BadInputs bad(dir);
  // a 52 MB scenario (past the 16 MiB limit), /dev/zero and a FIFO as the sweep's scenario
  const std::string big = dir + "/big.yaml";
  write(big, "dctwin_scenario: 1\n");
  REQUIRE(::truncate(big.c_str(), 52 << 20) == 0);
  for (const std::string& sc : {big, bad.zero, bad.fifo}) {
    INFO(sc);
    const std::string text = "dctwin_sweep: 1\nfacility: " + kFacilities +
                             "/two_cdu_mixed.yaml\nscenario: " + sc +
                             "\nduration: 5 min\nparameters:\n  - name: fws\n    path: "
                             "facility.facility_water.supply_temperature\n    values: [\"30 "
                             "degC\"]\n";
    write(dir + "/s.yaml", text);
    const double t = timed([&] {
      try {
        const SweepSpec s = loadSweep(dir + "/s.yaml");
        validateSweep(s);
        (void)readSweepBase(s);
        FAIL("accepted");
      } catch (const LoadFailure& e) {
        CHECK_THAT(std::string(e.what()),
                   Catch::Contains("too large") || Catch::Contains("not a regular file"));
      }
    });
    CHECK(t < 5.0);
    // the command line: a clear error, no hang
    const Sh r = sh("timeout 20 " + kCli + " sweep " + dir + "/s.yaml -o " + dir + "/o.h5");
    CHECK((r.code == 2 || r.code == 1));
    CHECK_THAT(r.out, Catch::Contains("too large") || Catch::Contains("not a regular file"));
    CHECK(sh("timeout 20 " + kCli + " check " + dir + "/s.yaml").code != 124);
  }
  fs::remove_all(dir);
}

TEST_CASE("errors never echo a file that is not YAML, nor a value whole", "[bounded]") {
  const std::string dir = freshDir("echo");
  write(dir + "/passwd", kPasswd);
  for (auto load : {+[](const std::string& p) { (void)loadScenario(p); },
                    +[](const std::string& p) { (void)loadFacility(p); },
                    +[](const std::string& p) { (void)loadSweep(p); }}) {
    try {
      load(dir + "/passwd");
      FAIL("accepted");
    } catch (const LoadFailure& e) {
      CHECK_THAT(std::string(e.what()), !Catch::Contains("root:x") && !Catch::Contains("daemon") &&
                                            Catch::Contains("not a map of keys"));
    }
  }
  const Sh r = sh(kCli + " check " + dir + "/passwd");
  CHECK(r.code != 0);
  CHECK_THAT(r.out, !Catch::Contains("root:x"));
  // a megabyte-long value in a sweep: quoted at most clipped
  const std::string huge(1 << 20, 'x');
  write(dir + "/s.yaml", "dctwin_sweep: 1\nfacility: " + kFacilities +
                             "/two_cdu_mixed.yaml\nduration: 5 min\nparameters:\n  - name: a\n"
                             "    path: facility." +
                             huge + "\n    values: [1]\n");
  try {
    const SweepSpec s = loadSweep(dir + "/s.yaml");
    validateSweep(s);
    FAIL("accepted");
  } catch (const LoadFailure& e) {
    CHECK(std::string(e.what()).size() < 4000);
  }
  fs::remove_all(dir);
}

TEST_CASE("check keeps the line and column of a YAML syntax error", "[bounded][cli]") {
  const std::string dir = freshDir("syntax");
  write(dir + "/bad.yaml", "dctwin: 1\nname: x\nracks: [a, b\n");
  try {
    (void)checkFile(dir + "/bad.yaml", "");
    FAIL("accepted");
  } catch (const LoadFailure& e) {
    REQUIRE(e.errors().size() == 1);
    CHECK(e.errors()[0].loc.line > 0);
    CHECK(e.errors()[0].loc.column > 0);
    CHECK_THAT(std::string(e.what()),
               Catch::Contains("bad.yaml:") && Catch::Contains("YAML syntax error"));
  }
  const Sh r = sh(kCli + " check " + dir + "/bad.yaml");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("bad.yaml:4:1: YAML syntax error"));
  fs::remove_all(dir);
}

TEST_CASE("outputs never replace inputs, through links too", "[bounded][cli]") {
  const std::string dir = freshDir("outputs");
  const std::string fac = kFacilities + "/two_cdu_mixed.yaml";
  const std::string h5 = dir + "/x.h5";
  REQUIRE(sh(kCli + " run " + fac + " -q -d 2min -o " + h5).code == 0);
  const auto size = fs::file_size(h5);
  fs::create_symlink(h5, dir + "/link.h5");
  for (const std::string& out : {h5, dir + "/link.h5", dir + "/./x.h5"}) {
    INFO(out);
    const Sh r = sh(kCli + " export " + h5 + " -o " + out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("is the input file"));
    CHECK(fs::file_size(h5) == size);
  }
  CHECK(readResults(h5).rows() > 0);
  // run: the output is the facility (through a link)
  fs::copy_file(fac, dir + "/f.yaml");
  fs::create_symlink(dir + "/f.yaml", dir + "/f_link.yaml");
  const Sh r = sh(kCli + " run " + dir + "/f.yaml -q -d 1min -o " + dir + "/f_link.yaml");
  CHECK(r.code == 2);
  CHECK(loadFacility(dir + "/f.yaml").racks.size() > 0);
  CHECK(sameFile(dir + "/f.yaml", dir + "/f_link.yaml"));
  CHECK(sameFile(dir + "/f.yaml", dir + "/../" + fs::path(dir).filename().string() + "/f.yaml"));
  CHECK_FALSE(sameFile(dir + "/f.yaml", h5));
  fs::remove_all(dir);
}

TEST_CASE("outputs never replace the files an input names: CSV series, catalog entries",
          "[bounded][cli]") {
  const std::string dir = freshDir("outputs_named");
  std::ofstream(dir + "/a01.csv") << "time_s,value\n0,100\n3600,120\n";
  std::string text = readAll(kFacilities + "/two_cdu_mixed.yaml");
  const std::string from = "index: 1, heat_load: 110 kW}";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "index: 1, heat_load: {csv: a01.csv, unit: kW}}");
  std::ofstream(dir + "/f.yaml") << text;
  const FacilitySpec spec = loadFacility(dir + "/f.yaml");
  // the load lists what it read beside the facility: the CSV and the catalog entries
  CHECK(std::count(spec.input_files.begin(), spec.input_files.end(), dir + "/a01.csv") == 1);
  CHECK(std::any_of(spec.input_files.begin(), spec.input_files.end(),
                    [](const std::string& f) { return f.find("catalog") != std::string::npos; }));
  fs::create_symlink(dir + "/a01.csv", dir + "/csv_link.h5");
  const auto before = readAll(dir + "/a01.csv");
  for (const std::string& out : {dir + "/a01.csv", dir + "/csv_link.h5"}) {
    INFO(out);
    const Sh r = sh(kCli + " run " + dir + "/f.yaml -q -d 1min -o " + out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("is the input file") && Catch::Contains("a01.csv"));
    CHECK(readAll(dir + "/a01.csv") == before);
  }
  fs::remove_all(dir);
}

TEST_CASE("a journal is matched by content: another spelling of the paths resumes it",
          "[bounded][sweep][journal]") {
  const std::string dir = freshDir("journal_spelling");
  fs::copy_file(kFacilities + "/two_cdu_mixed.yaml", dir + "/f.yaml");
  const std::string body =
      "dctwin_sweep: 1\nfacility: f.yaml\nduration: 2 min\nparameters:\n  - name: fws\n    path: "
      "facility.facility_water.supply_temperature\n    values: [\"30 degC\", \"32 degC\", \"34 "
      "degC\"]\n";
  write(dir + "/s.yaml", body);
  fs::create_directories(dir + "/sub");
  fs::create_symlink(dir, dir + "/sub/link");
  const SweepSpec a = loadSweep(dir + "/s.yaml");
  const SweepSpec b = loadSweep(dir + "/sub/../sub/link/./s.yaml");
  REQUIRE(a.facility_path != b.facility_path);  // spelled otherwise
  const std::string journal = dir + "/o.h5.journal";
  startJournal(journal, a, 3);
  CaseResult r;
  r.index = 1;
  r.ok = true;
  for (const auto& [name, unit] : sweepMetrics()) r.metrics[name] = 1.0;
  appendJournal(journal, r);
  CHECK(readJournal(journal, b, 3, nullptr).size() == 1);
  // the command line from another folder with another spelling resumes it (2 cases to run)
  const Sh out = sh("cd " + dir + "/sub && " + kCli + " sweep link/s.yaml -o ../o.h5");
  CHECK(out.code == 0);
  CHECK_THAT(out.out, Catch::Contains("resuming: 1 done") && !Catch::Contains("delete"));
  fs::remove_all(dir);
}

TEST_CASE("a journal write that fails is reported at once and the sweep stops resumable",
          "[bounded][sweep][journal]") {
  CaseResult r;
  r.index = 0;
  for (const auto& [name, unit] : sweepMetrics()) r.metrics[name] = 1.0;
  if (fs::exists("/dev/full")) CHECK_THROWS_AS(appendJournal("/dev/full", r), JournalWriteError);
  CHECK_THROWS_AS(appendJournal("/nonexistent-folder/j", r), JournalWriteError);
  // a full disk as a (soft) file-size limit: the header and a case's line fit, the second line
  // or the table does not
  const std::string dir = freshDir("journal_full");
  write(dir + "/s.yaml",
        "dctwin_sweep: 1\nfacility: " + kFacilities +
            "/two_cdu_mixed.yaml\nduration: 2 min\nparameters:\n  - name: fws\n    path: "
            "facility.facility_water.supply_temperature\n    range: [\"30 degC\", \"36 degC\"]\n"
            "    steps: 8\n");
  const std::string cmd = kCli + " sweep " + dir + "/s.yaml -o " + dir + "/o.h5";
  const Sh full = sh("bash -c \"trap '' XFSZ; ulimit -S -f 1; exec " + cmd + "\"");
  CHECK(full.code == 7);
  CHECK_THAT(full.out, Catch::Contains("cannot write the sweep journal") &&
                           Catch::Contains("run the same command again to resume") &&
                           !Catch::Contains("delete"));
  CHECK_FALSE(fs::exists(dir + "/o.h5"));
  // room again: the same command resumes and finishes every case
  const Sh again = sh(cmd);
  CHECK(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains("resuming: "));
  CHECK(fs::exists(dir + "/o.h5"));
  fs::remove_all(dir);
}

TEST_CASE(
    "under MPI a journal that cannot be written on one rank stops the sweep: every rank "
    "exits 7, the finished cases resume",
    "[bounded][sweep][journal][mpi]") {
  if (std::system("command -v mpirun > /dev/null 2>&1") != 0) {
    WARN("mpirun not found: the MPI sweep's stop is not tested");
    return;
  }
  const std::string dir = freshDir("journal_full_mpi");
  write(dir + "/s.yaml",
        "dctwin_sweep: 1\nfacility: " + kFacilities +
            "/two_cdu_mixed.yaml\nduration: 2 min\nparameters:\n  - name: fws\n    path: "
            "facility.facility_water.supply_temperature\n    range: [\"30 degC\", \"36 degC\"]\n"
            "    steps: 8\n");
  const std::string env =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 ";
  const std::string cmd = kCli + " sweep " + dir + "/s.yaml -o " + dir + "/o.h5";
  // rank 1's disk is full (a 1 kB file-size limit on its process): its first case line fails
  const std::string rank1_full =
      "bash -c 'if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then trap \"\" XFSZ; ulimit -S -f 1; "
      "fi; exec " +
      cmd + "'";
  const Sh stopped = sh(env + "timeout 300 mpirun -np 2 --oversubscribe " + rank1_full);
  INFO(stopped.out);
  CHECK(stopped.code == 7);
  CHECK_THAT(stopped.out, Catch::Contains("a failed journal write on rank 1") &&
                              Catch::Contains("run the same command again to resume") &&
                              !Catch::Contains("delete"));
  CHECK_FALSE(fs::exists(dir + "/o.h5"));
  // room again: the same command resumes the kept cases and finishes every case
  const Sh again = sh(env + "timeout 300 mpirun -np 2 --oversubscribe " + cmd);
  INFO(again.out);
  CHECK(again.code == 0);
  CHECK(fs::exists(dir + "/o.h5"));
  fs::remove_all(dir);
}

TEST_CASE("a sweep stops on SIGTERM, SIGINT and SIGHUP with its finished cases journaled",
          "[bounded][sweep][signals]") {
  const std::string dir = freshDir("sweep_signal");
  write(dir + "/s.yaml",
        "dctwin_sweep: 1\nfacility: " + kFacilities +
            "/two_cdu_mixed.yaml\nduration: 10 d\nparameters:\n  - name: fws\n    path: "
            "facility.facility_water.supply_temperature\n    range: [\"30 degC\", \"36 degC\"]\n"
            "    steps: 40\n");
  const std::string cmd = kCli + " sweep " + dir + "/s.yaml -o " + dir + "/o.h5";
  const std::string log = dir + "/log";
  for (const char* sig : {"TERM", "INT", "HUP"}) {
    INFO(sig);
    // the signal is sent once the sweep has said how many cases it runs (its handlers are
    // installed right after), not after a fixed delay that a sanitizer's start-up can outlast;
    // the sweep ends itself within a coupling window
    const Sh r = sh("bash -c '" + cmd + " 2>" + log + " & p=$!; for i in $(seq 1200); do grep -q " +
                    "\" cases, \" " + log + " && break; sleep 0.1; done; sleep 1; kill -" + sig +
                    " $p; wait $p; rc=$?; cat " + log + "; exit $rc'");
    const int num = std::string(sig) == "TERM"  ? SIGTERM
                    : std::string(sig) == "INT" ? SIGINT
                                                : SIGHUP;
    CHECK(r.code == 128 + num);
    CHECK_THAT(r.out, Catch::Contains("stopped by SIG") &&
                          Catch::Contains("run the same command again to resume"));
    CHECK(fs::exists(dir + "/o.h5.journal"));
    CHECK_FALSE(fs::exists(dir + "/o.h5"));
  }
  const SweepSpec s = loadSweep(dir + "/s.yaml");
  std::vector<std::string> warnings;
  (void)readJournal(dir + "/o.h5.journal", s, 40, &warnings);
  CHECK(warnings.empty());  // no line cut or damaged
  fs::remove_all(dir);
}

TEST_CASE("run size limits: rows, durations and file sizes, unless --allow-large",
          "[bounded][limits]") {
  CHECK_NOTHROW(checkRunSize(86400 * 30, 60));
  CHECK_THROWS_AS(checkRunSize(3600, 1e-9), RunSizeError);
  CHECK_THROWS_WITH(checkRunSize(3600, 1e-9),
                    Catch::Contains("3.6e+12 rows") && Catch::Contains("--allow-large"));
  CHECK_THROWS_WITH(checkRunSize(1e9 * 86400, 60), Catch::Contains("longer than"));
  CHECK_THROWS_WITH(checkRunSize(1e300, 60), Catch::Contains("longer than"));
  CHECK_THROWS_WITH(checkRunSize(86400 * 365, 3600, 0.001, 1e3, 1e3),
                    Catch::Contains("/power rows"));
  CHECK_THROWS_WITH(checkRunSize(86400 * 365, 10, 0, 1e6),
                    Catch::Contains("results file of up to"));
  const std::string fac = kFacilities + "/two_cdu_mixed.yaml";
  const Sh r = sh(kCli + " run " + fac + " -q -i 1e-9s -d 1h");
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("rows") && Catch::Contains("--allow-large"));
  const std::string dir = freshDir("limits");
  write(dir + "/s.yaml", "dctwin_sweep: 1\nfacility: " + fac +
                             "\nduration: 1e9 d\nparameters:\n  - name: fws\n    path: "
                             "facility.facility_water.supply_temperature\n    values: [\"30 "
                             "degC\"]\n");
  const Sh sw = sh(kCli + " sweep " + dir + "/s.yaml -o " + dir + "/o.h5");
  CHECK(sw.code != 0);
  CHECK_THAT(sw.out, Catch::Contains("longer than") || Catch::Contains("1e9 d") ||
                         Catch::Contains("at most"));
  CHECK_FALSE(fs::exists(dir + "/o.h5.journal"));
  fs::remove_all(dir);
}

TEST_CASE("a results file's rows past its durable end are dropped by the readers",
          "[bounded][results]") {
  const std::string dir = freshDir("durable");
  const std::string path = dir + "/r.h5";
  {
    // what a kill during the close left before status and rows_complete came last: `completed`
    // with rows_complete 6 of the 10 rows /time holds
    ResultsFile f(path, 4);
    f.setAttribute("/", "status", std::string("completed"));
    f.setAttribute("/", "rows_complete", 6LL);
    f.writeStrings("/rack/names", {"A01"}, "racks");
    f.writeStrings("/cdu/names", {"c"}, "cdus");
    const int t = f.addSeries("/time", 0, "s", "time");
    const int T = f.addSeries("/rack/T_return", 1, "K", "outlet");
    const int pt = f.addSeries("/power/time", 0, "s", "power time");
    for (int k = 0; k < 10; ++k) {
      const double tt = 10.0 * k, v = 300.0 + k;
      f.appendRow(t, std::span<const double>(&tt, 1));
      f.appendRow(T, std::span<const double>(&v, 1));
      for (int j = 0; j < 2; ++j) {
        const double p = tt + 5.0 * j;
        f.appendRow(pt, std::span<const double>(&p, 1));
      }
    }
    f.close();
  }
  const ResultsData d = readResults(path);
  CHECK(d.rows() == 6);
  CHECK(d.rows_beyond_durable_end == 4);
  CHECK(d.find("/rack/T_return")->rows == 6);
  CHECK(d.find("/power/time")->rows == 11);  // up to t = 50 s, the last durable row
  // export: the durable rows only
  const Sh r = sh(kCli + " export " + path);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, !Catch::Contains("60"));
  fs::remove_all(dir);
}

TEST_CASE("the results file takes its name only after a flush with rows", "[bounded][results]") {
  const std::string dir = freshDir("publish");
  const std::string path = dir + "/r.h5";
  {
    ResultsFile f(path, 4);
    const int t = f.addSeries("/time", 0, "s", "time");
    f.flush(false);  // the layout only
    CHECK_FALSE(fs::exists(path));
    CHECK(fs::exists(path + ".partial"));
    for (int k = 0; k < 4; ++k) {
      const double tt = k;
      f.appendRow(t, std::span<const double>(&tt, 1));
    }
    f.flush(false);
    CHECK(fs::exists(path));
    CHECK_FALSE(fs::exists(path + ".partial"));
  }
  fs::remove_all(dir);
}

TEST_CASE("every subcommand refuses bad files at once under a memory limit", "[bounded][cli]") {
  const std::string dir = freshDir("cli_memory");
  const BadInputs bad(dir);
  const std::string fac = kFacilities + "/two_cdu_mixed.yaml";
  write(dir + "/s.yaml", "dctwin_sweep: 1\nfacility: " + fac +
                             "\nduration: 2 min\nparameters:\n  - name: fws\n    path: "
                             "facility.facility_water.supply_temperature\n    values: [\"30 "
                             "degC\"]\n");
  for (const std::string& p : bad.all()) {
    for (const std::string& args : {"check " + p, "run " + p + " -q", "run " + fac + " -q -s " + p,
                                    "export " + p, "sweep " + p + " -o " + dir + "/o.h5",
                                    "merge " + dir + "/s.yaml " + p + " -o " + dir + "/m.h5",
                                    "report " + p + " -o " + dir + "/report"}) {
      INFO(args);
      // 2 GiB of address space, 30 s: a read of /dev/zero or a blocked open fails the test
      const Sh r =
          sh("bash -c 'ulimit -v 2097152; exec timeout -k 5 30 " + kCli + " " + args + "'");
      CHECK(r.code != 0);
      CHECK(r.code != 124);
      CHECK(r.code != 137);
      CHECK_FALSE(r.out.empty());
      CHECK_THAT(r.out, !Catch::Contains("Traceback") && !Catch::Contains("std::bad_alloc"));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("the headroom check is sized by what is written: a sweep table on 2 MiB free",
          "[bounded][sweep][full-disk]") {
  // a real small file system (tmpfs); needs the right to mount (root in a container may not
  // have it: then the case says so and checks nothing)
  const std::string dir = freshDir("small_disk");
  if (sh("mount -t tmpfs -o size=2m tmpfs " + dir).code != 0) {
    WARN("cannot mount a tmpfs here; the 2 MiB case is not checked");
    fs::remove_all(dir);
    return;
  }
  write(dir + "/s.yaml",
        "dctwin_sweep: 1\nfacility: " + kFacilities +
            "/two_cdu_mixed.yaml\nduration: 2 min\nparameters:\n  - name: fws\n    path: "
            "facility.facility_water.supply_temperature\n    range: [\"30 degC\", \"36 degC\"]\n"
            "    steps: 20\n");
  const Sh r = sh(kCli + " sweep " + dir + "/s.yaml -q -o " + dir + "/o.h5");
  CHECK(r.code == 0);
  CHECK(fs::exists(dir + "/o.h5"));
  CHECK_FALSE(fs::exists(dir + "/o.h5.journal"));
  // a run that does not fit: refused at a flush, the file as of its last flush, no crash
  const Sh run =
      sh(kCli + " run " + kFacilities + "/pod_gb200.yaml -q -d 2h -i 1s -o " + dir + "/run.h5");
  CHECK(run.code == 2);
  CHECK_THAT(run.out, Catch::Contains("disk full") || Catch::Contains("No space left"));
  if (fs::exists(dir + "/run.h5")) {
    const ResultsData d = readResults(dir + "/run.h5");
    CHECK(d.text_attributes.at("status") == "running");
  }
  sh("umount " + dir);
  fs::remove_all(dir);
}

TEST_CASE("a run stops on SIGHUP as on SIGTERM: its file interrupted, flushed, marked",
          "[bounded][signals]") {
  const std::string dir = freshDir("run_hup");
  const std::string h5 = dir + "/r.h5";
  // the signal is sent once the run has flushed rows (the file takes its name then), not after a
  // fixed delay: under a sanitizer, start-up alone can outlast a 2 s timer, and a signal before
  // the handlers are installed kills the process with no message
  const Sh r = sh("bash -c '" + kCli + " run " + kFacilities + "/pod_gb200.yaml -q -d 24h -o " +
                  h5 + " & p=$!; for i in $(seq 1200); do [ -e " + h5 +
                  " ] && break; sleep 0.1; done; kill -HUP $p; wait $p'");
  CHECK(r.code == 128 + SIGHUP);
  CHECK_THAT(r.out, Catch::Contains("interrupted by SIGHUP"));
  const ResultsData d = readResults(h5);
  CHECK(d.text_attributes.at("status") == "interrupted");
  CHECK(d.text_attributes.at("signal") == "SIGHUP");
  CHECK(d.rows_beyond_durable_end == 0);
  CHECK(d.rows() > 0);
  fs::remove_all(dir);
}
