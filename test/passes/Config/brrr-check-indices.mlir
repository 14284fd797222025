// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-check-indices))' | FileCheck %s

// Every movement kernel that reads indices gets a check, numbered in program
// order and named after the ONNX node its op came from (the importer's
// NameLoc, also found inside a fused location); kernels that read no
// indices, and index ops outside movement kernels, get none.
// CHECK-LABEL: func.func @IndexKernelsAreChecked
// CHECK: brrr.fusion movement{{.*}}brrr.index_check = #brrr.index_check<id = 0, node = "/embeddings/word_embeddings/Gather", op = "Gather">
// CHECK: brrr.fusion movement{{.*}}brrr.index_check = #brrr.index_check<id = 1, node = "ge", op = "GatherElements">
// CHECK: brrr.fusion movement{{.*}}brrr.index_check = #brrr.index_check<id = 2, node = "", op = "GatherND">
// CHECK: brrr.fusion movement{{.*}}brrr.index_check = #brrr.index_check<id = 3, node = "se", op = "ScatterElements">
// CHECK: brrr.fusion movement{{.*}}brrr.index_check = #brrr.index_check<id = 4, node = "snd", op = "ScatterND">
// CHECK: brrr.fusion movement(
// CHECK-NOT: brrr.index_check
// CHECK: return
func.func @IndexKernelsAreChecked(%x: tensor<4x6xf32>, %ids: tensor<4x2xi64>, %u: tensor<4x2xf32>, %t: tensor<3x1xi64>, %v: tensor<3x6xf32>, %row: tensor<3xi32>)
    -> (tensor<3x6xf32>, tensor<4x2xf32>, tensor<3x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<6x4xf32>) {
  %0 = brrr.fusion movement(%x, %row) : (tensor<4x6xf32>, tensor<3xi32>) -> tensor<3x6xf32> {
  ^bb0(%a: tensor<4x6xf32>, %b: tensor<3xi32>):
    %r = brrr.gather %a, %b {axis = 0 : i64} : (tensor<4x6xf32>, tensor<3xi32>) -> tensor<3x6xf32> loc("/embeddings/word_embeddings/Gather"("model.onnx":0:0))
    brrr.yield %r : tensor<3x6xf32>
  }
  %1 = brrr.fusion movement(%x, %ids) : (tensor<4x6xf32>, tensor<4x2xi64>) -> tensor<4x2xf32> {
  ^bb0(%a: tensor<4x6xf32>, %b: tensor<4x2xi64>):
    %r = brrr.gather_elements %a, %b {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>) -> tensor<4x2xf32> loc(fused["model.onnx":0:0, "ge"("model.onnx":0:0)])
    brrr.yield %r : tensor<4x2xf32>
  }
  %2 = brrr.fusion movement(%x, %t) : (tensor<4x6xf32>, tensor<3x1xi64>) -> tensor<3x6xf32> {
  ^bb0(%a: tensor<4x6xf32>, %b: tensor<3x1xi64>):
    %r = brrr.gather_nd %a, %b {batch_dims = 0 : i64} : (tensor<4x6xf32>, tensor<3x1xi64>) -> tensor<3x6xf32>
    brrr.yield %r : tensor<3x6xf32>
  }
  %3 = brrr.fusion movement(%x, %ids, %u) : (tensor<4x6xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x6xf32>, %b: tensor<4x2xi64>, %c: tensor<4x2xf32>):
    %r = brrr.scatter_elements add %a, %b, %c {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x6xf32> loc("se")
    brrr.yield %r : tensor<4x6xf32>
  }
  %4 = brrr.fusion movement(%x, %t, %v) : (tensor<4x6xf32>, tensor<3x1xi64>, tensor<3x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x6xf32>, %b: tensor<3x1xi64>, %c: tensor<3x6xf32>):
    %r = brrr.scatter_nd none %a, %b, %c : (tensor<4x6xf32>, tensor<3x1xi64>, tensor<3x6xf32>) -> tensor<4x6xf32> loc("snd")
    brrr.yield %r : tensor<4x6xf32>
  }
  %5 = brrr.fusion movement(%x) : (tensor<4x6xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<4x6xf32>):
    %r = brrr.transpose %a {perm = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
    brrr.yield %r : tensor<6x4xf32>
  }
  return %0, %1, %2, %3, %4, %5 : tensor<3x6xf32>, tensor<4x2xf32>, tensor<3x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<6x4xf32>
}

