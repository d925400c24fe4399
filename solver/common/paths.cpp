// paths.cpp: the data, scripts and documentation folders (see paths.h)
//
// Build-time facts come as definitions on this file only (solver/CMakeLists.txt):
//   DCTWIN_SHARE_FROM_BIN    share/dctwin relative to the installed bin folder ("../share/dctwin")
//   DCTWIN_DOC_FROM_BIN      the documentation relative to it ("../share/doc/dctwin/docs")
//   DCTWIN_PREFIX_SHARE_DIR  <prefix>/share/dctwin as configured (the last fallback)
//   DCTWIN_PREFIX_DOC_DIR    <prefix>/share/doc/dctwin/docs as configured
//   DCTWIN_BUILD_DIR         the build tree: a binary inside it uses the source folders
//   DCTWIN_DATA_DIR, DCTWIN_SOURCE_SCRIPTS_DIR, DCTWIN_SOURCE_DOC_DIR: the source folders
// Any of them may be missing (the fuzz targets compile this file alone); that place is then not
// searched, and without DCTWIN_BUILD_DIR every binary counts as in the build tree.
#include "solver/common/paths.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>

// a missing definition is an empty string: that place is not searched
#ifndef DCTWIN_SHARE_FROM_BIN
#define DCTWIN_SHARE_FROM_BIN ""
#endif
#ifndef DCTWIN_DOC_FROM_BIN
#define DCTWIN_DOC_FROM_BIN ""
#endif
#ifndef DCTWIN_PREFIX_SHARE_DIR
#define DCTWIN_PREFIX_SHARE_DIR ""
#endif
#ifndef DCTWIN_PREFIX_DOC_DIR
#define DCTWIN_PREFIX_DOC_DIR ""
#endif
#ifndef DCTWIN_BUILD_DIR
#define DCTWIN_BUILD_DIR ""
#endif
#ifndef DCTWIN_DATA_DIR
#define DCTWIN_DATA_DIR ""
#endif
#ifndef DCTWIN_SOURCE_SCRIPTS_DIR
#define DCTWIN_SOURCE_SCRIPTS_DIR ""
#endif
#ifndef DCTWIN_SOURCE_DOC_DIR
#define DCTWIN_SOURCE_DOC_DIR ""
#endif

namespace dctwin {
namespace {
namespace fs = std::filesystem;

bool isDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : std::string();
}

std::string normal(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return (ec ? p.lexically_normal() : c).string();
}

// `relative` (from the bin folder) applied to the image's folder and up to three of its parents:
// the first that `ok` accepts
std::string installed(const std::string& relative, bool (*ok)(const fs::path&)) {
  const std::string image = imagePath();
  if (relative.empty() || image.empty()) return {};
  fs::path dir = fs::path(image).parent_path();
  for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
    const fs::path p = dir / relative;
    if (ok(p)) return normal(p);
    if (dir == dir.root_path()) break;
  }
  return {};
}

// whether the binary holding this code lies in the build tree it was built in
bool inBuildTree() {
  if (std::string_view(DCTWIN_BUILD_DIR).empty()) return true;  // the fuzz targets
  const std::string image = imagePath();
  if (image.empty()) return false;
  const fs::path build = normal(DCTWIN_BUILD_DIR);
  const fs::path img = normal(image);
  auto b = build.begin();
  auto i = img.begin();
  for (; b != build.end() && i != img.end(); ++b, ++i)
    if (*b != *i) return false;
  return b == build.end();
}

// `dir` when it is set and `ok` accepts it
std::string accept(const char* dir, bool (*ok)(const fs::path&)) {
  return *dir && ok(dir) ? normal(dir) : std::string();
}

bool hasCatalog(const fs::path& p) {
  return isDir(p / "catalog");
}
bool hasReport(const fs::path& p) {
  return isFile(p / "report.py");
}
bool hasDocs(const fs::path& p) {
  return isFile(p / "results.md");
}

// the candidates after the environment, in order: installed, build tree, prefix
std::vector<std::string> candidates(const char* from_bin, const char* source, const char* prefix,
                                    bool (*ok)(const fs::path&)) {
  std::vector<std::string> c;
  if (auto p = installed(from_bin, ok); !p.empty()) c.push_back(p);
  if (inBuildTree())
    if (auto p = accept(source, ok); !p.empty()) c.push_back(p);
  if (auto p = accept(prefix, ok); !p.empty()) c.push_back(p);
  return c;
}

std::string join(const char* a, const char* b) {
  return *a ? std::string(a) + "/" + b : std::string();
}

std::vector<std::string> dataCandidates() {
  static const std::string from_bin = join(DCTWIN_SHARE_FROM_BIN, "data");
  static const std::string prefix = join(DCTWIN_PREFIX_SHARE_DIR, "data");
  return candidates(from_bin.c_str(), DCTWIN_DATA_DIR, prefix.c_str(), hasCatalog);
}

std::string first(const std::vector<std::string>& c) {
  return c.empty() ? std::string() : c[0];
}

}  // namespace

std::string imagePath() {
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&imagePath), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) != 0 &&
      map && map->l_name && map->l_name[0] != '\0')
    return normal(map->l_name);  // a shared module (e.g. a Python extension)
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // the program itself
  return ec ? std::string() : exe.string();
}

std::string dataDir() {
  if (auto e = env("DCTWIN_DATA"); !e.empty()) return e;
  return first(dataCandidates());
}

std::vector<std::string> dataDirs() {
  std::vector<std::string> dirs;
  if (auto e = env("DCTWIN_DATA"); !e.empty()) dirs.push_back(e);
  for (const auto& c : dataCandidates())
    if (std::find(dirs.begin(), dirs.end(), c) == dirs.end()) dirs.push_back(c);
  return dirs;
}

std::string catalogNotFoundNote() {
  for (const auto& d : dataDirs())
    if (hasCatalog(d)) return {};
  // every place looked in, in order, whether or not it exists
  std::vector<std::string> searched;
  auto add = [&](const std::string& d, const char* what) {
    if (!d.empty()) searched.push_back(d + " (" + what + ")");
  };
  add(env("DCTWIN_DATA"), "DCTWIN_DATA");
  const std::string image = imagePath();
  if (const std::string rel = join(DCTWIN_SHARE_FROM_BIN, "data"); !rel.empty() && !image.empty())
    add(normal(fs::path(image).parent_path() / rel) + " and up to 3 folders higher",
        "next to the program");
  if (inBuildTree()) add(DCTWIN_DATA_DIR, "the build's source tree");
  add(join(DCTWIN_PREFIX_SHARE_DIR, "data"), "the install prefix");
  std::string list;
  for (const auto& d : searched) list += (list.empty() ? "" : ", ") + d;
  return "no catalog/ folder in the data folders searched: " + list +
         "; set DCTWIN_DATA to the data folder, e.g. <prefix>/share/dctwin/data";
}

std::string scriptsDir() {
  if (auto e = env("DCTWIN_SCRIPTS"); !e.empty()) return e;
  static const std::string from_bin = join(DCTWIN_SHARE_FROM_BIN, "scripts");
  static const std::string prefix = join(DCTWIN_PREFIX_SHARE_DIR, "scripts");
  return first(candidates(from_bin.c_str(), DCTWIN_SOURCE_SCRIPTS_DIR, prefix.c_str(), hasReport));
}

std::string docDir() {
  return first(
      candidates(DCTWIN_DOC_FROM_BIN, DCTWIN_SOURCE_DOC_DIR, DCTWIN_PREFIX_DOC_DIR, hasDocs));
}

std::string dataFile(const std::string& relative) {
  const std::string d = dataDir();
  return d.empty() ? std::string() : (fs::path(d) / relative).string();
}

}  // namespace dctwin
