// loader.h: read a facility YAML file into a FacilitySpec, resolving catalog references
//
// every problem in a file is collected and reported together; each error names the file, line,
// column, key path, the offending value and what was expected. The loader never crashes or hangs on
// any input (malformed YAML, binary data, huge or NaN numbers, deep nesting).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "solver/input/spec.h"

namespace dctwin {

struct LoadError {
  SourceLoc loc;               // file, line, column, key path
  std::string value;           // the offending value as written ("" when missing)
  std::string message;         // what was expected, with a did-you-mean where it helps
  std::string format() const;  // "file:line:col: path: message (got 'value')"
};

// thrown by the loaders; what() holds every error, one per line
class LoadFailure : public std::runtime_error {
 public:
  explicit LoadFailure(std::vector<LoadError> errors);
  const std::vector<LoadError>& errors() const { return errors_; }

 private:
  std::vector<LoadError> errors_;
};

struct LoadOptions {
  // folders searched for catalog/<kind>/<name>.yaml, in order; empty means
  // $DCTWIN_DATA (if set), then the installed or build-tree data folder (dataDirs(), paths.h)
  std::vector<std::string> data_dirs;
};

// throws LoadFailure
FacilitySpec loadFacility(const std::string& path, const LoadOptions& options = {});
// same, from text already in memory; `name` is used as the file name in messages and relative
// CSV paths are resolved against `base_dir`
FacilitySpec loadFacilityFromString(const std::string& text, const std::string& name,
                                    const std::string& base_dir = ".",
                                    const LoadOptions& options = {});

// a GPU type of the catalog (data/catalog/gpus/<name>.yaml); `at` is where it was named. Throws
// LoadFailure (an unknown name with the folders searched and a did-you-mean; a broken file)
GpuParams loadCatalogGpu(const std::string& name, const SourceLoc& at,
                         const LoadOptions& options = {});

// the default data folders (see LoadOptions)
std::vector<std::string> defaultDataDirs();

// Levenshtein distance, used for did-you-mean suggestions
int editDistance(const std::string& a, const std::string& b);
// "; did you mean 'x'?" (edit distance <= 2 or a prefix) or "": the one did-you-mean of every
// input file and reference check
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace dctwin
