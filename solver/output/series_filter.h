// series_filter.h: choosing series of the output table by glob patterns on their paths
// ('/rack/*', '/facility/T_*', '/cdu/flow_?'); `dctwin run --record` and `dctwin export --series`
#pragma once

#include <string>
#include <vector>

namespace dctwin {

// shell-style glob ('*', '?', '[...]'); '*' also matches '/'
bool globMatch(const std::string& pattern, const std::string& path);
// true when some pattern matches; an empty pattern list matches everything
bool anyGlobMatch(const std::vector<std::string>& patterns, const std::string& path);
// "" when every pattern matches some path; otherwise a message naming the first pattern that
// matches none, with up to 5 of the nearest paths, e.g.
//   "--record '/rack/T_retrun': matches no series; near: /rack/T_return, /rack/T_supply"
std::string unmatchedPatternError(const std::vector<std::string>& patterns,
                                  const std::vector<std::string>& paths, const std::string& what);

}  // namespace dctwin
