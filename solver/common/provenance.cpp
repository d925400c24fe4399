// provenance.cpp: version, revision, command line, host and time (see provenance.h); the git
// revision is defined in the file generated at build time (cmake/dctwin_revision.cmake)
#include "solver/common/provenance.h"

#include <unistd.h>

#include <array>
#include <cctype>
#include <chrono>
#include <ctime>
#include <string_view>

#include "solver/common/paths.h"

#ifndef DCTWIN_VERSION
#define DCTWIN_VERSION "unknown"
#endif

namespace dctwin {
namespace {

std::string& storedCommandLine() {
  static std::string line;
  return line;
}

// single-quotes an argument when it holds anything but [A-Za-z0-9_./=:,+@%^-]
std::string shellQuote(const std::string& a) {
  bool plain = !a.empty();
  for (unsigned char ch : a)
    if (!(std::isalnum(ch) || std::string_view("_./=:,+@%^-").find(char(ch)) != std::string::npos))
      plain = false;
  if (plain) return a;
  std::string q = "'";
  for (char ch : a) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

}  // namespace

const char* version() {
  return DCTWIN_VERSION;
}

std::string versionText() {
  return std::string(version()) + " (git " + gitRevision() + ")";
}

void setCommandLine(int argc, const char* const* argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) line += ' ';
    line += shellQuote(argv[i] ? argv[i] : "");
  }
  storedCommandLine() = std::move(line);
}

void setCommandLine(std::string text) {
  storedCommandLine() = std::move(text);
}

const std::string& commandLine() {
  return storedCommandLine();
}

std::string utcTimestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

Provenance provenance() {
  Provenance p;
  p.version = version();
  p.git_revision = gitRevision();
  p.command_line = commandLine();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  p.created = utcTimestamp();
  p.data_dir = dataDir();
  return p;
}

}  // namespace dctwin
