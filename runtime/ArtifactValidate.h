//===- ArtifactValidate.h - semantic checks of a parsed artifact -*- C++
//-*-===//
//
// deserialize() parses the image and then calls validate(), which checks what
// the byte layout cannot: indices in range, tensors inside their blocks,
// sizes consistent with shapes, a plan that only references what exists. The
// runtime relies on these checks to turn offsets into device addresses
// without further tests on the hot path.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_RUNTIME_ARTIFACTVALIDATE_H
#define BRRR_RUNTIME_ARTIFACTVALIDATE_H

#include "runtime/Artifact.h"

namespace brrr::artifact {

/// True if `a` is consistent; otherwise false with a message in `error`.
bool validate(const Artifact &a, std::string &error);

/// True if the driver (cuTensorMapEncodeTiled, or cuTensorMapEncodeIm2col
/// for an im2col map) accepts `m` with the runtime's choices (no interleave)
/// and the map stays inside its tensor in `a`, whose tensors must be valid;
/// otherwise false with `what` and the
/// reason in `error` ("launches[0].maps[1] has rank 0; ..."). validate()
/// checks every map this way; the compiler checks each map it writes.
bool validateTensorMap(const Artifact &a, const TensorMap &m,
                       const std::string &what, std::string &error);

} // namespace brrr::artifact

#endif // BRRR_RUNTIME_ARTIFACTVALIDATE_H
