//===- SharedBuffers.h - shared buffers kernels declare ---------*- C++ -*-===//
//
// The shared-memory buffers each kernel's config declares (its family's
// rules, passes/Config/Families/) and the planner that packs them.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_SHAREDBUFFERS_H
#define BRRR_PASSES_CONFIG_SHAREDBUFFERS_H

#include "passes/Analysis.h"

namespace mlir::brrr {

/// One buffer of a kernel's shared memory (what it holds: `role`, and
/// which of that role's buffers: `index`), alive from phase `firstUse` to
/// `lastUse` (inclusive): buffers whose phases do not overlap may share
/// bytes.
struct SharedBuffer {
  SharedRole role = SharedRole::a;
  int64_t index = 0;
  int64_t bytes = 0, align = 16, firstUse = 0, lastUse = 0;
  int64_t offset = -1; ///< set by placeSharedBuffers
};
/// The shared buffers `fusion`'s kernel needs as its config has it, in the
/// order the plan records them, or failure with a diagnostic. `slack`:
/// bytes the kernel adds to align its own base beyond the 16 bytes the
/// block's dynamic shared memory is declared with.
FailureOr<SmallVector<SharedBuffer>> sharedBuffersOf(FusionOp fusion,
                                                     int64_t &slack);
/// Places `buffers` (largest first, first fit at each buffer's alignment,
/// apart from every buffer alive at the same time); returns the bytes the
/// kernel needs.
int64_t placeSharedBuffers(MutableArrayRef<SharedBuffer> buffers);
/// `fusion`'s shared memory plan under its config (sharedBuffersOf,
/// placeSharedBuffers), or an error naming the budget it exceeds.
FailureOr<SharedPlanAttr> planSharedMemory(FusionOp fusion);

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_SHAREDBUFFERS_H
