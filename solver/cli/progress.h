// progress.h: the progress line of `dctwin run` and `dctwin sweep` on standard error. On a
// terminal a one-line bar redrawn at most ~5 times a second; otherwise one line every 10 %;
// nothing with --quiet. The formatting functions are pure (tests/solver/progress_test.cpp).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace dctwin::cli {

// "42s", "3m05s", "1h02m", "2d03h"; "--" for a negative or non-finite value
std::string formatSpan(double seconds);
// "[##########..........]" for a fraction in [0, 1]
std::string progressBar(double fraction, int width = 20);
// a run: t of duration simulated in wall seconds, e.g.
//   "[########............]  40%  t 24m00s/1h00m  x310 real time  ETA 5s"   (bar = true)
//   "40%  t 24m00s/1h00m  x310 real time  ETA 5s"                            (bar = false)
std::string runProgressLine(double t, double duration, double wall, bool bar);
// a sweep: k of n cases finished (failed of them) in wall seconds, e.g.
//   "[####................]  20%  3/15 cases  2.1 cases/min  ETA 5m40s"
std::string sweepProgressLine(int k, int n, int failed, double wall, bool bar);

// where the lines go and when: terminal (redrawn in place, at most every min_interval seconds,
// always at 100 %) or plain (a line each time the fraction passes another 10 %)
class ProgressReporter {
 public:
  ProgressReporter(std::FILE* out, bool terminal, bool quiet, std::string prefix,
                   double min_interval = 0.2);
  // fraction done in [0, 1]; `line(bar)` is called only when a line is written
  template <class F>
  void update(double fraction, F&& line) {
    if (due(fraction)) write(line(terminal_));
  }
  // print a line of its own (a failed case) without breaking the bar
  void note(const std::string& text);
  // ends the bar's line on a terminal
  void finish();
  double elapsed() const;
  bool terminal() const { return terminal_; }

 private:
  bool due(double fraction);
  void write(const std::string& text);
  std::FILE* out_;
  bool terminal_, quiet_;
  std::string prefix_;
  double min_interval_;
  std::chrono::steady_clock::time_point t0_, last_;
  int decile_ = 0;
  bool drawn_ = false, any_ = false;
};

// true when the stream is a terminal (isatty) and TERM is not "dumb"
bool isTerminal(std::FILE* f);

}  // namespace dctwin::cli
