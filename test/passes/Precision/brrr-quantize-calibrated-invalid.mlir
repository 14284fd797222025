// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-quantize-calibrated))' 2>&1 | FileCheck %s
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-quantize-calibrated{precision=fp4}))' 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: error: brrr-quantize-calibrated: unknown precision 'fp4' (supported: fp8, int8)

// A product the table has no entry for: the table was measured on another
// model (or an older one).
module attributes {brrr.calibration = {other = 1.0 : f64}, brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @MissingKey(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %w = brrr.constant dense<0.5> : tensor<16x16xf32>
    // CHECK: error: {{.*}}product 'fc' has no entry in the calibration table: it was measured on another model
    %y = brrr.matmul %x, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("fc")
    return %y : tensor<2x16xf32>
  }
}

// -----

// NaN, infinite and negative ranges are errors that name the node; none
// becomes a scale.
module attributes {brrr.calibration = {a = 0x7FF8000000000000 : f64, b = 0x7FF0000000000000 : f64, c = -2.0 : f64}, brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @BadRanges(%x: tensor<2x16xf32>, %y: tensor<2x16xf32>, %z: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>) {
    %w = brrr.constant dense<0.5> : tensor<16x16xf32>
    // CHECK: error: {{.*}}calibration gives product 'a' an activation range of NaN; it needs a finite largest magnitude >= 0
    %a = brrr.matmul %x, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("a")
    // CHECK: error: {{.*}}calibration gives product 'b' an activation range of infinity; it needs a finite largest magnitude >= 0
    %b = brrr.matmul %y, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("b")
    // CHECK: error: {{.*}}calibration gives product 'c' an activation range of -2; it needs a finite largest magnitude >= 0
    %c = brrr.matmul %z, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("c")
    return %a, %b, %c : tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>
  }
}

// -----

// No table at all.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  // CHECK: error: 8-bit products need the calibration table (module attribute 'brrr.calibration'; brrrc --calibrate or --calibration-cache)
  func.func @NoTable(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %w = brrr.constant dense<0.5> : tensor<16x16xf32>
    %y = brrr.matmul %x, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("fc")
    return %y : tensor<2x16xf32>
  }
}

// -----

// A target without the 8-bit wgmma keeps every product in float, and warns.
module attributes {brrr.calibration = {fc = 1.0 : f64}, brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  // CHECK: warning: target sm_80 has no 8-bit wgmma: every product stays in float
  func.func @NoWgmma(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %w = brrr.constant dense<0.5> : tensor<16x16xf32>
    %y = brrr.matmul %x, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("fc")
    return %y : tensor<2x16xf32>
  }
}
