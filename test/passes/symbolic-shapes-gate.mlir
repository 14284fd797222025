// RUN: not brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise))' 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-channels-last))' 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config))' 2>&1 | FileCheck %s --check-prefix=CONFIG
// RUN: not brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-global-memory))' 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: brrr-opt %s --canonicalize | FileCheck %s --check-prefix=CANON
// Symbolic extents import and canonicalize, but the fusion, layout,
// configuration and memory passes take static shapes so far: each refuses
// a symbolic module with an error naming itself and the value, instead of
// reading its `?` dimensions as sizes.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>]} {
  func.func @main(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> {
    %0 = brrr.relu %x : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    %1 = brrr.exp %0 : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    return %1 : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
  }
}
// FUSE: error: 'brrr-fuse-elementwise' takes static shapes; this value has symbolic extents [batch, 16] (batch in 1..64)
// LAYOUT: error: 'brrr-channels-last' takes static shapes; this value has symbolic extents [batch, 16] (batch in 1..64)
// CONFIG: error: 'brrr-select-kernel-config' takes static shapes
// MEMORY: error: 'brrr-plan-global-memory' takes static shapes
// CANON: brrr.exp {{.+}} : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
