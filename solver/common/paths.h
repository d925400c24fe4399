// paths.h: where the program finds its data (catalog, facilities, scenarios, sweeps, telemetry),
// its scripts (report.py) and its documentation, installed or not. The one place that knows.
//
// Installed (`cmake --install`, the .deb), the tree is relocatable: the folders are found next to
// the binary that holds the library (the program, or a shared module linking it), at
// <image>/../share/dctwin/{data,scripts} or up to three folders higher (a Python module under
// lib/python3/dist-packages), and <image>/../share/doc/dctwin/docs for the documentation. An
// uninstalled build (the binary lies in the build tree) uses the source tree's folders. The
// install prefix compiled in comes last. $DCTWIN_DATA (and $DCTWIN_SCRIPTS) override all of it.
#pragma once

#include <string>
#include <vector>

namespace dctwin {

// the file holding this library's code: the executable, or the shared module that links it;
// "" when it cannot be told
std::string imagePath();

// the data folder (catalog/, facilities/, scenarios/, ...): $DCTWIN_DATA if set, else the first
// of the installed, build-tree and install-prefix folders that exists; "" when none does
std::string dataDir();

// the folders searched for catalog/<kind>/<name>.yaml, in order: $DCTWIN_DATA (if set), then
// dataDir()'s fallbacks, each once (the loader's default, solver/input/loader.h)
std::vector<std::string> dataDirs();

// "" when some folder of dataDirs() holds a catalog/; otherwise a sentence naming every folder
// searched for one (DCTWIN_DATA, next to the program, the build's source tree, the install
// prefix) and what to do, for the error of a name the catalog should have defined
std::string catalogNotFoundNote();

// the folder holding report.py: $DCTWIN_SCRIPTS if set, else installed, build tree, prefix
std::string scriptsDir();

// the documentation (gui.md, results.md, ...): installed share/doc/dctwin or the source docs/
std::string docDir();

// a file of the data folder, e.g. dataFile("facilities/pod_gb200.yaml"); "" without a data folder
std::string dataFile(const std::string& relative);

}  // namespace dctwin
