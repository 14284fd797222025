// RUN: brrr-opt %s -split-input-file -verify-diagnostics
// Every way a symbolic extent can be malformed or misused is a diagnostic:
// the encoding against its type, the module's list of dimensions, extents
// that cannot broadcast or contract, and ops that take static shapes only.

// expected-error @+1 {{one result per tensor dimension (2)}}
func.func @extents_rank(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0)>>) {
  return
}

// -----

// expected-error @+1 {{dimension 1 of the tensor is 16 but its #brrr.extents says s0}}
func.func @static_dim_symbolic_extent(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, s0)>>) {
  return
}

// -----

// expected-error @+1 {{dimension 0 of the tensor is ? but its #brrr.extents says 4}}
func.func @symbolic_dim_constant_extent(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (4, 16)>>) {
  return
}

// -----

// expected-error @+1 {{symbolic dimension 'batch' has range 0..8}}
module attributes {brrr.dims = [#brrr.dim<"batch", 0, 8>]} {}

// -----

// expected-error @+1 {{symbolic dimension 'batch' is declared twice}}
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"batch", 1, 8>]} {}

// -----

// expected-error @+1 {{'brrr.dims' is a module's list of #brrr.dim}}
module attributes {brrr.dims = ["batch"]} {}

// -----

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>]} {
  // expected-error @+1 {{names symbol s1 but 'brrr.dims' declares 1}}
  func.func @undeclared_symbol(%x: tensor<?x16xf32, #brrr.extents<()[s0, s1] -> (s1, 16)>>) {
    return
  }
}

// -----

// A symbolic extent broadcasts against 1 or itself only.
func.func @symbolic_not_broadcastable(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, %y: tensor<4x16xf32>) {
  // expected-error @+2 {{a symbolic extent broadcasts only against 1 or itself}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.add %x, %y : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @contraction_differs(%x: tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>, %w: tensor<16x8xf32>) {
  // expected-error @+2 {{contraction sizes differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.matmul %x, %w : tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>, tensor<16x8xf32> -> tensor<4x8xf32>
  return
}

// -----

// A window needs static spatial extents.
func.func @conv_symbolic_height(%x: tensor<1x4x?x9xf32, #brrr.extents<()[s0] -> (1, 4, s0, 9)>>, %k: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{is symbolic in dimension 2; only its batch dimension may be}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %k {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x?x9xf32, #brrr.extents<()[s0] -> (1, 4, s0, 9)>>, tensor<8x4x3x3xf32>) -> tensor<1x8x?x7xf32, #brrr.extents<()[s0] -> (1, 8, s0 - 2, 7)>>
  return
}

// -----

func.func @reshape_counts_differ(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>) {
  // expected-error @+1 {{are not provably equal}}
  %0 = brrr.reshape %x : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> -> tensor<?x8xf32, #brrr.extents<()[s0] -> (s0, 8)>>
  return
}

// -----

func.func @cast_changes_extents(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>) {
  // expected-error @+1 {{extents change from}}
  %0 = brrr.cast %x : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> -> tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 2, 16)>>
  return
}

// -----

// Ops whose type inference does not carry symbolic extents refuse them.
func.func @static_only_op(%x: tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{must be statically shaped tensor}}
  %0 = brrr.scatter_elements add %x, %i, %u {axis = 0 : i64} : (tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>
  return
}

// -----

// A pad carries a symbolic dimension through but never pads it.
func.func @pad_symbolic(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>) {
  // expected-error @+2 {{dimension 0 is symbolic and cannot be padded}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.pad reflect %x {high = array<i64: 1, 1>, low = array<i64: 0, 1>, value = 0.0 : f64} : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> -> tensor<?x18xf32, #brrr.extents<()[s0] -> (s0, 18)>>
  return
}

// -----

// A `?` dimension needs its extent.
func.func @dynamic_without_extents(%x: tensor<?x16xf32>) {
  // expected-error @+1 {{must be statically or symbolically shaped tensor}}
  %0 = brrr.relu %x : tensor<?x16xf32>
  return
}

// -----

func.func @symbolic_constant_count() {
  // expected-error @+1 {{needs one extent per element of 'tensor<3xi64>', got 2}}
  %0 = brrr.symbolic_constant <()[s0, s1] -> (s0, s1)> -> tensor<3xi64>
  return
}

// -----

// A slice must stay inside its input at every extent in range.
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 32>]} {
  func.func @slice_past_the_end(%x: tensor<1x16xf32>) {
    // expected-error @+1 {{slice of dimension 1 (start 0, size seq, step 1) may read outside the input's extent 16}}
    %0 = brrr.slice %x {extents = #brrr.extents<()[s0] -> (1, s0)>, sizes = array<i64: 1, -9223372036854775808>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<1x16xf32> -> tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0)>>
    return
  }
}

// -----

// A slice one element too long: its last index, seq, is past the end.
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 32>]} {
  func.func @slice_one_past(%x: tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0)>>) {
    // expected-error @+1 {{slice of dimension 1 (start 1, size seq, step 1) may read outside the input's extent seq}}
    %0 = brrr.slice %x {extents = #brrr.extents<()[s0] -> (1, s0)>, sizes = array<i64: 1, -9223372036854775808>, starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0)>> -> tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0)>>
    return
  }
}

// -----

module attributes {brrr.dims = [#brrr.dim<"seq", 1, 32>]} {
  func.func @gather_elements_past_the_end(%x: tensor<4x16xf32>, %i: tensor<4x?xi64, #brrr.extents<()[s0] -> (4, s0)>>) {
    // expected-error @+1 {{indices dimension 1 (seq) may exceed the input's 16}}
    %0 = brrr.gather_elements %x, %i {axis = 0 : i64} : (tensor<4x16xf32>, tensor<4x?xi64, #brrr.extents<()[s0] -> (4, s0)>>) -> tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>
    return
  }
}

// -----

// Attention's batch may be symbolic; the operands must share it.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>]} {
  func.func @attention_batches_differ(%q: tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>, %k: tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0 * 2, 2, 16, 16)>>) {
    // expected-error @+1 {{key and value must have the query's batch batch}}
    %0 = brrr.attention %q, %k, %k {scale = 1.0 : f64} : tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>, tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0 * 2, 2, 16, 16)>>, tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0 * 2, 2, 16, 16)>> -> tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>
    return
  }
}

// -----

// Heads and head sizes are fixed.
module attributes {brrr.dims = [#brrr.dim<"heads", 1, 8>]} {
  func.func @attention_symbolic_heads(%q: tensor<1x?x16x16xf16, #brrr.extents<()[s0] -> (1, s0, 16, 16)>>) {
    // expected-error @+1 {{query heads and head size must be fixed}}
    %0 = brrr.attention %q, %q, %q {scale = 1.0 : f64} : tensor<1x?x16x16xf16, #brrr.extents<()[s0] -> (1, s0, 16, 16)>>, tensor<1x?x16x16xf16, #brrr.extents<()[s0] -> (1, s0, 16, 16)>>, tensor<1x?x16x16xf16, #brrr.extents<()[s0] -> (1, s0, 16, 16)>> -> tensor<1x?x16x16xf16, #brrr.extents<()[s0] -> (1, s0, 16, 16)>>
    return
  }
}

// -----

// A bias must broadcast to the scores, batch included.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>]} {
  func.func @attention_bias_batch(%q: tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>, %m: tensor<8x1x16x16xf32>) {
    // expected-error @+1 {{does not broadcast to the scores batchx2x16x16}}
    %0 = brrr.attention %q, %q, %q bias %m {scale = 1.0 : f64} : tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>, tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>, tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>, tensor<8x1x16x16xf32> -> tensor<?x2x16x16xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 16)>>
    return
  }
}

// -----

// A quantization's parameters are static: one per row of a symbolic axis
// cannot broadcast to it.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>]} {
  func.func @quantize_symbolic_axis(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, %s: tensor<8x1xf32>, %z: tensor<8x1xi8>) {
    // expected-error @+2 {{does not broadcast to the quantized tensor}}
    // expected-error @+1 {{failed to infer returned types}}
    %q = brrr.quantize %x, %s, %z : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<8x1xf32>, tensor<8x1xi8> -> tensor<?x16xi8, #brrr.extents<()[s0] -> (s0, 16)>>
    return
  }
}

// -----

// A resize keeps a symbolic extent, at scale 1: it may not change it.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>]} {
  func.func @resize_symbolic_batch(%x: tensor<?x2x4x4xf32, #brrr.extents<()[s0] -> (s0, 2, 4, 4)>>) {
    // expected-error @+1 {{resizes symbolic dimension 0; a symbolic extent is kept, at scale 1}}
    %y = brrr.resize nearest %x asymmetric floor {scales = array<f64: 2.0, 1.0, 2.0, 2.0>} : tensor<?x2x4x4xf32, #brrr.extents<()[s0] -> (s0, 2, 4, 4)>> -> tensor<?x2x8x8xf32, #brrr.extents<()[s0] -> (s0, 2, 8, 8)>>
    return
  }
}
