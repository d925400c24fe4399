// protection_reader.h: the `protection` section of facility and scenario files (one reader for
// both; the key table is keys::protectionKeys()). The facility's settings are the site's; a
// scenario overrides them key by key (docs/models/protection.md)
#pragma once

#include <string>
#include <vector>

#include "solver/common/params.h"

namespace dctwin {
namespace reader {
class MapIn;
}

// reads the keys present into p; returns their names
std::vector<std::string> readProtectionSection(reader::MapIn& d, ProtectionParams& p);
// copies the keys named in `keys` from `from` to `to`
void overlayProtection(const ProtectionParams& from, const std::vector<std::string>& keys,
                       ProtectionParams& to);

}  // namespace dctwin
