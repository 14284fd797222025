// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s

// A checked gather takes the error record after its output. Each index it
// loads (i32 here, sign-extended for the record) is normalized and compared
// unsigned against the extent: below -extent the normalized index is still
// negative, so it fails too. The first failing thread claims the record by
// a compare-and-swap from 0 (clear) to 1 (writing), writes its check id,
// axis, value and extent, and then stores 2 (written) with release
// ordering; later failures leave the record alone. The read is clamped
// either way.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %[[REC:.+]]: !llvm.ptr<1>) kernel
// CHECK: %[[RAW:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: %[[K:.+]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK: %[[N:.+]] = arith.select %{{.+}}, %{{.+}}, %[[K]] : index
// CHECK: %[[EXTENT:.+]] = arith.constant 6 : index
// CHECK: %[[BAD:.+]] = arith.cmpi uge, %[[N]], %[[EXTENT]] : index
// CHECK: scf.if %[[BAD]] {
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[STATE:.+]] = llvm.getelementptr %[[REC]][%c0_i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[CLAIM:.+]] = llvm.cmpxchg %[[STATE]], %[[ZERO]], %[[ONE]] monotonic monotonic : !llvm.ptr<1>, i32
// CHECK: %[[WON:.+]] = llvm.extractvalue %[[CLAIM]][1] : !llvm.struct<(i32, i1)>
// CHECK: scf.if %[[WON]] {
// CHECK: %[[VALUE:.+]] = arith.extsi %[[RAW]] : i32 to i64
// CHECK: %[[AT_CHECK:.+]] = llvm.getelementptr %[[REC]][%c4_i64]
// CHECK: llvm.store %c7_i32, %[[AT_CHECK]] : i32, !llvm.ptr<1>
// CHECK: %[[AT_AXIS:.+]] = llvm.getelementptr %[[REC]][%c8_i64]
// CHECK: llvm.store %{{.+}}, %[[AT_AXIS]] : i32, !llvm.ptr<1>
// CHECK: %[[AT_VALUE:.+]] = llvm.getelementptr %[[REC]][%c16_i64]
// CHECK: llvm.store %[[VALUE]], %[[AT_VALUE]] : i64, !llvm.ptr<1>
// CHECK: %[[AT_EXTENT:.+]] = llvm.getelementptr %[[REC]][%c24_i64]
// CHECK: llvm.store %c6_i64, %[[AT_EXTENT]] : i64, !llvm.ptr<1>
// CHECK: %[[AT_STATE:.+]] = llvm.getelementptr %[[REC]]
// CHECK: llvm.store %c2_i32, %[[AT_STATE]] atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: arith.maxsi
// CHECK: arith.minsi
// An unchecked gather takes no record and has no check.
// CHECK: gpu.func @fusion_1(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel
// CHECK-NOT: llvm.cmpxchg
// CHECK: gpu.return
func.func @main(%arg0: tensor<6xf32>, %arg1: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = brrr.fusion movement(%arg0, %arg1) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>, brrr.index_check = #brrr.index_check<id = 7, node = "g", op = "Gather">} : (tensor<6xf32>, tensor<3xi32>) -> tensor<3xf32> {
  ^bb0(%arg2: tensor<6xf32>, %arg3: tensor<3xi32>):
    %2 = brrr.gather %arg2, %arg3 {axis = 0 : i64} : (tensor<6xf32>, tensor<3xi32>) -> tensor<3xf32>
    brrr.yield %2 : tensor<3xf32>
  }
  %1 = brrr.fusion movement(%arg0, %arg1) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<6xf32>, tensor<3xi32>) -> tensor<3xf32> {
  ^bb0(%arg2: tensor<6xf32>, %arg3: tensor<3xi32>):
    %2 = brrr.gather %arg2, %arg3 {axis = 0 : i64} : (tensor<6xf32>, tensor<3xi32>) -> tensor<3xf32>
    brrr.yield %2 : tensor<3xf32>
  }
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// gather_nd checks each tuple entry against the dimension it indexes
// (axis 1 of extent 5 for the second); the scatters check every index of
// their walk (scatter_nd: the output's dimension 0 of extent 7).
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel
// CHECK: arith.cmpi uge, %{{.+}}, %c4{{.*}} : index
// CHECK: llvm.cmpxchg
// CHECK: llvm.store %c0_i32{{.*}}, %{{.+}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %c4_i64{{.*}}, %{{.+}} : i64, !llvm.ptr<1>
// CHECK: arith.cmpi uge, %{{.+}}, %c5{{.*}} : index
// CHECK: llvm.cmpxchg
// CHECK: llvm.store %c1_i32{{.*}}, %{{.+}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %c5_i64
// CHECK: gpu.func @fusion_1(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel
// CHECK: scf.for
// CHECK: arith.cmpi uge, %{{.+}}, %c7{{.*}} : index
// CHECK: llvm.cmpxchg
// CHECK: llvm.store %c7_i64
// CHECK: gpu.func @fusion_2(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel
// CHECK: scf.for
// CHECK: arith.cmpi uge, %{{.+}}, %c3{{.*}} : index
// CHECK: llvm.cmpxchg
func.func @main(%arg0: tensor<4x5x6xf16>, %arg1: tensor<3x2xi32>, %arg2: tensor<7x3xf32>, %arg3: tensor<4x1xi64>, %arg4: tensor<4x3xf32>, %arg5: tensor<3x5xi64>, %arg6: tensor<2x5xi64>) -> (tensor<3x6xf16>, tensor<7x3xf32>, tensor<3x5xi64>) {
  %0 = brrr.fusion movement(%arg0, %arg1) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>, brrr.index_check = #brrr.index_check<id = 0, node = "gnd", op = "GatherND">} : (tensor<4x5x6xf16>, tensor<3x2xi32>) -> tensor<3x6xf16> {
  ^bb0(%arg7: tensor<4x5x6xf16>, %arg8: tensor<3x2xi32>):
    %3 = brrr.gather_nd %arg7, %arg8 {batch_dims = 0 : i64} : (tensor<4x5x6xf16>, tensor<3x2xi32>) -> tensor<3x6xf16>
    brrr.yield %3 : tensor<3x6xf16>
  }
  %1 = brrr.fusion movement(%arg2, %arg3, %arg4) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>, brrr.index_check = #brrr.index_check<id = 1, node = "snd", op = "ScatterND">} : (tensor<7x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<7x3xf32> {
  ^bb0(%arg7: tensor<7x3xf32>, %arg8: tensor<4x1xi64>, %arg9: tensor<4x3xf32>):
    %3 = brrr.scatter_nd add %arg7, %arg8, %arg9 : (tensor<7x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<7x3xf32>
    brrr.yield %3 : tensor<7x3xf32>
  }
  %2 = brrr.fusion movement(%arg5, %arg6) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>, brrr.index_check = #brrr.index_check<id = 2, node = "se", op = "ScatterElements">} : (tensor<3x5xi64>, tensor<2x5xi64>) -> tensor<3x5xi64> {
  ^bb0(%arg7: tensor<3x5xi64>, %arg8: tensor<2x5xi64>):
    %3 = brrr.scatter_elements max %arg7, %arg8, %arg8 {axis = 0 : i64} : (tensor<3x5xi64>, tensor<2x5xi64>, tensor<2x5xi64>) -> tensor<3x5xi64>
    brrr.yield %3 : tensor<3x5xi64>
  }
  return %0, %1, %2 : tensor<3x6xf16>, tensor<7x3xf32>, tensor<3x5xi64>
}
