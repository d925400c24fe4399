// The described job's model table (/job/model/*): names, units and descriptions, in a file of its
// own so that the results reader links it without the engine (tests/fuzz builds the reader alone)
#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

#include "solver/output/observables.h"

namespace dctwin {

namespace {
constexpr JobModelInfo kJobTable[] = {
#define DCTWIN_JOB_COL_ROW(id, name, unit, desc) {JobCol::id, name, unit, desc},
    DCTWIN_JOB_MODEL(DCTWIN_JOB_COL_ROW)
#undef DCTWIN_JOB_COL_ROW
};
static_assert(std::size(kJobTable) == std::size_t(kJobModelCount));
}  // namespace

std::span<const JobModelInfo> jobModelTable() {
  return std::span<const JobModelInfo>(kJobTable, std::size(kJobTable));
}

const JobModelInfo& jobModelColumn(JobCol c) {
  return kJobTable[int(c)];
}

std::string jobModelPath(JobCol c) {
  return std::string("/job/model/") + kJobTable[int(c)].name;
}

const char* jobRecomputeName(double code) {
  if (std::isnan(code)) return "";
  static const char* const names[] = {"none", "selective", "full"};
  return names[std::clamp(int(code), 0, 2)];
}

std::string jobModelMarkdown() {
  std::ostringstream os;
  os << "| Path | Shape | Units | Content |\n"
     << "|------|-------|-------|---------|\n";
  for (const JobModelInfo& c : kJobTable)
    os << "| `/job/model/" << c.name << "` | `[J]` | " << c.unit << " | " << c.description
       << " |\n";
  os << "| `/job/model/recompute_name` | `[J]` string | — | the recompute mode in words: `none`, "
        "`selective`, `full`; empty for a job that is not described |\n";
  return os.str();
}

}  // namespace dctwin
