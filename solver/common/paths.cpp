// paths.cpp: the data, scripts and documentation folders (see paths.h)
//
// Build-time facts come as definitions on this file only (solver/CMakeLists.txt):
//   DCTWIN_SHARE_FROM_BIN    share/dctwin relative to the installed bin folder ("../share/dctwin")
//   DCTWIN_DOC_FROM_BIN      the documentation relative to it ("../share/doc/dctwin/docs")
//   DCTWIN_PREFIX_SHARE_DIR  <prefix>/share/dctwin as configured (the last fallback)
//   DCTWIN_PREFIX_DOC_DIR    <prefix>/share/doc/dctwin/docs as configured
//   DCTWIN_BUILD_DIR         the build tree: a binary inside it uses the source folders
//   DCTWIN_DATA_DIR, DCTWIN_SOURCE_SCRIPTS_DIR, DCTWIN_SOURCE_DOC_DIR: the source folders
// Any of them may be missing (the fuzz targets compile this file alone); the lookup then skips it.
#include "solver/common/paths.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

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
std::string installed(const char* relative, bool (*ok)(const fs::path&)) {
  const std::string image = imagePath();
  if (image.empty()) return {};
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
#ifdef DCTWIN_BUILD_DIR
  const std::string image = imagePath();
  if (image.empty()) return false;
  const fs::path build = normal(DCTWIN_BUILD_DIR);
  const fs::path img = normal(image);
  auto b = build.begin();
  auto i = img.begin();
  for (; b != build.end() && i != img.end(); ++b, ++i)
    if (*b != *i) return false;
  return b == build.end();
#else
  return true;  // compiled without a build tree (fuzz targets): the source folders
#endif
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

// the candidates after the environment, in order
std::vector<std::string> dataCandidates() {
  std::vector<std::string> c;
#ifdef DCTWIN_SHARE_FROM_BIN
  if (auto p = installed(DCTWIN_SHARE_FROM_BIN "/data", hasCatalog); !p.empty()) c.push_back(p);
#endif
#ifdef DCTWIN_DATA_DIR
  if (inBuildTree() && hasCatalog(DCTWIN_DATA_DIR)) c.push_back(normal(DCTWIN_DATA_DIR));
#endif
#ifdef DCTWIN_PREFIX_SHARE_DIR
  if (hasCatalog(DCTWIN_PREFIX_SHARE_DIR "/data"))
    c.push_back(normal(DCTWIN_PREFIX_SHARE_DIR "/data"));
#endif
  return c;
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
  const auto c = dataCandidates();
  return c.empty() ? std::string() : c.front();
}

std::vector<std::string> dataDirs() {
  std::vector<std::string> dirs;
  if (auto e = env("DCTWIN_DATA"); !e.empty()) dirs.push_back(e);
  for (const auto& c : dataCandidates())
    if (dirs.empty() || dirs.back() != c) dirs.push_back(c);
  return dirs;
}

std::string scriptsDir() {
  if (auto e = env("DCTWIN_SCRIPTS"); !e.empty()) return e;
#ifdef DCTWIN_SHARE_FROM_BIN
  if (auto p = installed(DCTWIN_SHARE_FROM_BIN "/scripts", hasReport); !p.empty()) return p;
#endif
#ifdef DCTWIN_SOURCE_SCRIPTS_DIR
  if (inBuildTree() && hasReport(DCTWIN_SOURCE_SCRIPTS_DIR)) return DCTWIN_SOURCE_SCRIPTS_DIR;
#endif
#ifdef DCTWIN_PREFIX_SHARE_DIR
  if (hasReport(DCTWIN_PREFIX_SHARE_DIR "/scripts")) return DCTWIN_PREFIX_SHARE_DIR "/scripts";
#endif
  return {};
}

std::string docDir() {
#ifdef DCTWIN_DOC_FROM_BIN
  if (auto p = installed(DCTWIN_DOC_FROM_BIN, hasDocs); !p.empty()) return p;
#endif
#ifdef DCTWIN_SOURCE_DOC_DIR
  if (inBuildTree() && hasDocs(DCTWIN_SOURCE_DOC_DIR)) return DCTWIN_SOURCE_DOC_DIR;
#endif
#ifdef DCTWIN_PREFIX_DOC_DIR
  if (hasDocs(DCTWIN_PREFIX_DOC_DIR)) return DCTWIN_PREFIX_DOC_DIR;
#endif
  return {};
}

std::string dataFile(const std::string& relative) {
  const std::string d = dataDir();
  return d.empty() ? std::string() : (fs::path(d) / relative).string();
}

}  // namespace dctwin
