// layout_table.cpp: the run layout's static datasets (DCTWIN_LAYOUT, observables.h), their lookups
// and the table as Markdown; no engine, so the results reader and its fuzz targets link it alone
// (with observable_table.cpp for the names of shapes and conditions)
#include <iterator>
#include <sstream>

#include "solver/output/observables.h"

namespace dctwin {

namespace {

using Strings = std::vector<std::string> RunLayout::*;
using Ints = std::vector<int> RunLayout::*;

// a row's values: the member's type says the dataset's
constexpr LayoutInfo row(Layout id, const char* path, Shape dim, Needs needs, Strings m,
                         const char* d) {
  return {id, path, dim, needs, m, nullptr, d};
}
constexpr LayoutInfo row(Layout id, const char* path, Shape dim, Needs needs, Ints m,
                         const char* d) {
  return {id, path, dim, needs, nullptr, m, d};
}

constexpr LayoutInfo kLayout[] = {
#define DCTWIN_LAYOUT_ROW(id, path, dim, needs, member, desc) \
  row(Layout::id, path, Shape::dim, Needs::needs, &RunLayout::member, desc),
    DCTWIN_LAYOUT(DCTWIN_LAYOUT_ROW)
#undef DCTWIN_LAYOUT_ROW
};

constexpr bool idsInOrder() {
  for (std::size_t k = 0; k < std::size(kLayout); ++k)
    if (int(kLayout[k].id) != int(k)) return false;
  return true;
}
static_assert(idsInOrder());

}  // namespace

std::span<const LayoutInfo> layoutTable() {
  return std::span<const LayoutInfo>(kLayout, std::size(kLayout));
}

const LayoutInfo& layoutRow(Layout id) {
  return kLayout[int(id)];
}

const char* layoutPath(Layout id) {
  return kLayout[int(id)].path;
}

const LayoutInfo* findLayout(const std::string& path) {
  for (const LayoutInfo& r : kLayout)
    if (path == r.path) return &r;
  return nullptr;
}

const LayoutInfo* layoutNames(Shape s) {
  switch (s) {
    case Shape::Rack:
      return &layoutRow(Layout::RackNames);
    case Shape::Cdu:
      return &layoutRow(Layout::CduNames);
    case Shape::Job:
      return &layoutRow(Layout::JobNames);
    case Shape::Busway:
      return &layoutRow(Layout::BuswayNames);
    case Shape::AirRack:
      return &layoutRow(Layout::AirRackNames);
    case Shape::SwitchRack:
      return &layoutRow(Layout::SwitchRackNames);
    case Shape::Facility:
    case Shape::Gpu:
      return nullptr;
  }
  return nullptr;
}

std::string layoutMarkdown() {
  static const char* dims[] = {"[1]", "[C]", "[R]", "[G]", "[J]", "[B]", "[A]", "[S]"};
  std::ostringstream os;
  os << "| Path | Shape | Units | Exists with | Content |\n"
     << "|------|-------|-------|-------------|---------|\n";
  for (const LayoutInfo& r : kLayout) {
    const std::string needs = needsName(r.needs);
    os << "| `" << r.path << "` | `" << dims[int(r.dim)] << "` " << (r.ints ? "int64" : "string")
       << " | " << (r.ints ? "1" : "—") << " | " << (needs.empty() ? "always" : needs) << " | "
       << r.description << " |\n";
  }
  return os.str();
}

}  // namespace dctwin
