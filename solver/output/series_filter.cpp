// series_filter.cpp: see series_filter.h
#include "solver/output/series_filter.h"

#include <fnmatch.h>

#include <algorithm>
#include <numeric>

namespace dctwin {

bool globMatch(const std::string& pattern, const std::string& path) {
  return ::fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
}

bool anyGlobMatch(const std::vector<std::string>& patterns, const std::string& path) {
  if (patterns.empty()) return true;
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return globMatch(p, path); });
}

namespace {
// edit distance between the pattern without its wildcards and a path
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string unmatchedPatternError(const std::vector<std::string>& patterns,
                                  const std::vector<std::string>& paths, const std::string& what) {
  for (const std::string& p : patterns) {
    if (std::any_of(paths.begin(), paths.end(),
                    [&](const std::string& x) { return globMatch(p, x); }))
      continue;
    std::string bare;
    for (char c : p)
      if (c != '*' && c != '?' && c != '[' && c != ']') bare += c;
    // the paths of the pattern's group first ('/rack/...'), then by edit distance
    const std::string group = bare.substr(0, bare.find('/', 1) + 1);
    std::vector<std::pair<std::size_t, std::string>> near;
    for (const std::string& x : paths) {
      std::size_t d = distance(bare, x.substr(0, std::max(bare.size(), std::size_t(1))));
      if (group.size() > 1 && x.rfind(group, 0) != 0) d += 100;
      near.emplace_back(d, x);
    }
    std::sort(near.begin(), near.end());
    std::string msg = what + " '" + p + "': matches no series";
    for (std::size_t i = 0; i < near.size() && i < 5; ++i)
      msg += (i == 0 ? "; near: " : ", ") + near[i].second;
    return msg + " ('dctwin outputs' lists them)";
  }
  return "";
}

}  // namespace dctwin
