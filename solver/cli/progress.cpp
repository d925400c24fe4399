// progress.cpp: see progress.h
#include "solver/cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace dctwin::cli {

std::string formatSpan(double s) {
  if (!std::isfinite(s) || s < 0) return "--";
  char buf[32];
  const long long n = std::llround(s);
  if (n < 60)
    std::snprintf(buf, sizeof buf, "%llds", n);
  else if (n < 3600)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", n / 60, n % 60);
  else if (n < 86400)
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", n / 3600, n % 3600 / 60);
  else
    std::snprintf(buf, sizeof buf, "%lldd%02lldh", n / 86400, n % 86400 / 3600);
  return buf;
}

std::string progressBar(double fraction, int width) {
  const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  const int w = std::max(1, width);
  const int full = std::clamp(static_cast<int>(std::floor(f * w + 1e-9)), 0, w);
  std::string s(static_cast<std::size_t>(w) + 2, '.');
  s.front() = '[';
  s.back() = ']';
  for (int i = 0; i < full; ++i) s[static_cast<std::size_t>(i) + 1] = '#';
  return s;
}

namespace {
std::string percent(double f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%3d%%",
                static_cast<int>(std::floor(100 * std::clamp(f, 0.0, 1.0) + 1e-9)));
  return buf;
}
}  // namespace

std::string runProgressLine(double t, double duration, double wall, bool bar) {
  const double f = duration > 0 ? t / duration : 1.0;
  std::string s = bar ? progressBar(f) + " " : "";
  s += percent(f) + "  t " + formatSpan(t) + "/" + formatSpan(duration);
  char buf[64];
  if (wall > 0 && t > 0) {
    const double rate = t / wall;
    std::snprintf(buf, sizeof buf, rate >= 100 ? "  x%.0f real time" : "  x%.3g real time", rate);
    s += buf;
    s += "  ETA " + formatSpan((duration - t) / rate);
  } else {
    s += "  ETA --";
  }
  return s;
}

std::string sweepProgressLine(int k, int n, int failed, double wall, bool bar) {
  const double f = n > 0 ? double(k) / n : 1.0;
  std::string s = bar ? progressBar(f) + " " : "";
  s += percent(f) + "  " + std::to_string(k) + "/" + std::to_string(n) + " cases";
  if (failed > 0) s += " (" + std::to_string(failed) + " failed)";
  char buf[64];
  if (wall > 0 && k > 0) {
    const double per_min = 60.0 * k / wall;
    std::snprintf(buf, sizeof buf, per_min >= 100 ? "  %.0f cases/min" : "  %.3g cases/min",
                  per_min);
    s += buf;
    s += "  ETA " + formatSpan(wall / k * (n - k));
  } else {
    s += "  ETA --";
  }
  return s;
}

ProgressReporter::ProgressReporter(std::FILE* out, bool terminal, bool quiet, std::string prefix,
                                   double min_interval)
    : out_(out),
      terminal_(terminal),
      quiet_(quiet),
      prefix_(std::move(prefix)),
      min_interval_(min_interval),
      t0_(std::chrono::steady_clock::now()),
      last_(t0_) {}

double ProgressReporter::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

bool ProgressReporter::due(double fraction) {
  if (quiet_) return false;
  if (terminal_) {
    if (fraction >= 1.0 && decile_ == 10) return false;  // 100 % once
    if (fraction >= 1.0) decile_ = 10;
    const auto now = std::chrono::steady_clock::now();
    if (fraction < 1.0 && any_ &&
        std::chrono::duration<double>(now - last_).count() < min_interval_)
      return false;
    last_ = now;
    any_ = true;
    return true;
  }
  const int d = static_cast<int>(std::floor(10 * std::clamp(fraction, 0.0, 1.0) + 1e-9));
  if (d <= decile_) return false;
  decile_ = d;
  return true;
}

void ProgressReporter::write(const std::string& text) {
  if (terminal_) {
    std::fprintf(out_, "\r%s%s\x1b[K", prefix_.c_str(), text.c_str());
    drawn_ = true;
  } else {
    std::fprintf(out_, "%s%s\n", prefix_.c_str(), text.c_str());
  }
  std::fflush(out_);
}

void ProgressReporter::note(const std::string& text) {
  if (quiet_) return;
  if (terminal_ && drawn_) std::fprintf(out_, "\r\x1b[K");
  std::fprintf(out_, "%s\n", text.c_str());
  any_ = false;  // redraw the bar at the next update
  std::fflush(out_);
}

void ProgressReporter::finish() {
  if (terminal_ && drawn_) std::fprintf(out_, "\n");
  drawn_ = false;
  std::fflush(out_);
}

bool isTerminal(std::FILE* f) {
  const char* term = std::getenv("TERM");
  return ::isatty(::fileno(f)) == 1 && !(term && std::strcmp(term, "dumb") == 0);
}

}  // namespace dctwin::cli
