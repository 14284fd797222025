// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config))' | FileCheck %s

// A config pinned without its launch grid is given the grid its decisions
// give. A persistent product launches its config's blocks, or one a tile
// where the tiles are fewer: 6 batches of 6 x 4 tiles of 128 x 256 (144)
// against 160 blocks, and 2 batches of 1 x 4 tiles (8) against 132.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<6x700x136xf16>, %arg1: tensor<6x136x1024xf16>, %arg2: tensor<2x100x136xf16>, %arg3: tensor<2x136x1024xf16>) -> (tensor<6x700x1024xf16>, tensor<2x100x1024xf16>) {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 160, epilogue = 128>} : (tensor<6x700x136xf16>, tensor<6x136x1024xf16>) -> tensor<6x700x1024xf16> {
    ^bb0(%a: tensor<6x700x136xf16>, %b: tensor<6x136x1024xf16>):
      %1 = brrr.matmul %a, %b : tensor<6x700x136xf16>, tensor<6x136x1024xf16> -> tensor<6x700x1024xf16>
      brrr.yield %1 : tensor<6x700x1024xf16>
    }
    %2 = brrr.fusion matmul(%arg2, %arg3) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128>} : (tensor<2x100x136xf16>, tensor<2x136x1024xf16>) -> tensor<2x100x1024xf16> {
    ^bb0(%a: tensor<2x100x136xf16>, %b: tensor<2x136x1024xf16>):
      %3 = brrr.matmul %a, %b : tensor<2x100x136xf16>, tensor<2x136x1024xf16> -> tensor<2x100x1024xf16>
      brrr.yield %3 : tensor<2x100x1024xf16>
    }
    return %0, %2 : tensor<6x700x1024xf16>, tensor<2x100x1024xf16>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 160, epilogue = 128, grid = [144, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [8, 1, 1]>

// -----

// A pinned config that records its grid is kept as it is, even a wrong one
// (code generation refuses it: brrr-outline-kernels-invalid.mlir).
func.func @main(%arg0: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [32, 1, 1]>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%arg1: tensor<64x4096xf16>):
    %1 = brrr.softmax %arg1 {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [32, 1, 1]>
