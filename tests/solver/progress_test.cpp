// progress_test.cpp: the progress line of dctwin run and sweep (solver/cli/progress.h)
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "solver/cli/progress.h"

using namespace dctwin::cli;

TEST_CASE("progress spans, bars and lines", "[cli][progress]") {
  CHECK(formatSpan(42) == "42s");
  CHECK(formatSpan(185) == "3m05s");
  CHECK(formatSpan(3720) == "1h02m");
  CHECK(formatSpan(2 * 86400 + 3 * 3600) == "2d03h");
  CHECK(formatSpan(-1) == "--");
  CHECK(progressBar(0.4) == "[########............]");
  CHECK(progressBar(1.5, 4) == "[####]");
  CHECK(progressBar(0, 4) == "[....]");
  // 24 min of 1 h simulated in 4.645 s: x310 real time, 36 min left -> 7 s
  CHECK(runProgressLine(1440, 3600, 4.645, true) ==
        "[########............]  40%  t 24m00s/1h00m  x310 real time  ETA 7s");
  CHECK(runProgressLine(1440, 3600, 4.645, false) ==
        " 40%  t 24m00s/1h00m  x310 real time  ETA 7s");
  CHECK(runProgressLine(0, 3600, 0, false) == "  0%  t 0s/1h00m  ETA --");
  CHECK(runProgressLine(30, 60, 20, false) == " 50%  t 30s/1m00s  x1.5 real time  ETA 20s");
  CHECK(sweepProgressLine(3, 15, 1, 60, true) ==
        "[####................]  20%  3/15 cases (1 failed)  3 cases/min  ETA 4m00s");
  CHECK(sweepProgressLine(4, 4, 0, 0.068, false) == "100%  4/4 cases  3529 cases/min  ETA 0s");
}

TEST_CASE("progress reporter: a line every 10 % when not a terminal, nothing when quiet",
          "[cli][progress]") {
  auto collect = [](bool terminal, bool quiet) {
    std::FILE* f = std::tmpfile();
    ProgressReporter p(f, terminal, quiet, "run: ", 0.0);
    for (int i = 0; i <= 100; ++i)
      p.update(i / 100.0, [&](bool bar) {
        std::string s = std::to_string(i);
        if (bar) s.insert(s.begin(), 'B');
        return s;
      });
    p.finish();
    std::rewind(f);
    std::string s;
    for (int c; (c = std::fgetc(f)) != EOF;) s += char(c);
    std::fclose(f);
    return s;
  };
  CHECK(collect(false, false) ==
        "run: 10\nrun: 20\nrun: 30\nrun: 40\nrun: 50\nrun: 60\nrun: 70\nrun: 80\nrun: 90\nrun: "
        "100\n");
  CHECK(collect(false, true).empty());
  const std::string tty = collect(true, false);
  CHECK(tty.find("\rrun: B100\x1b[K\n") != std::string::npos);
  CHECK(tty.back() == '\n');
}
