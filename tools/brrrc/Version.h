//===- Version.h - brrrc's version ----------------------------------------===//
//
// The release number and the commit the build was made from, as a PEP 440
// version ("0.1.0+g1a2b3c4"): what `brrrc --version` prints, what the wheel
// is named after and part of the key of Python's compile cache.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TOOLS_BRRRC_VERSION_H
#define BRRR_TOOLS_BRRRC_VERSION_H

namespace brrr {
const char *version();
} // namespace brrr

#endif // BRRR_TOOLS_BRRRC_VERSION_H
