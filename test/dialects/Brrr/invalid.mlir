// RUN: brrr-opt %s -split-input-file -verify-diagnostics
// One case per verifier and type-inference error of the brrr dialect.

func.func @binary_element_types_differ(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{operand element types differ: 'f32' vs 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.add %a, %b : tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @binary_not_broadcastable(%a: tensor<4x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+2 {{are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.mul %a, %b : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @binary_wrong_result_type(%a: tensor<4x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @float_op_on_integers(%a: tensor<4xi32>) {
  // expected-error @+1 {{must be statically or symbolically shaped tensor of floating-point values}}
  %0 = brrr.exp %a : tensor<4xi32>
  return
}

// -----

func.func @dynamic_shapes_are_rejected(%a: tensor<?xf32>) {
  // expected-error @+1 {{must be statically or symbolically shaped tensor}}
  %0 = brrr.relu %a : tensor<?xf32>
  return
}

// -----

func.func @logic_on_floats(%a: tensor<4xf32>) {
  // expected-error @+1 {{must be statically or symbolically shaped tensor of 1-bit signless integer values}}
  %0 = brrr.and %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @clip_min_above_max(%a: tensor<4xf32>) {
  // expected-error @+1 {{min 2.000000e+00 is greater than max 1.000000e+00}}
  %0 = brrr.clip %a {min = 2.0 : f64, max = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @cast_changes_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = brrr.cast %a : tensor<4xf32> -> tensor<2xf16>
  return
}

// -----

func.func @compare_not_broadcastable(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.compare eq %a, %b : tensor<4xf32>, tensor<3xf32> -> tensor<4xi1>
  return
}

// -----

func.func @where_branch_types_differ(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{branch element types differ: 'f32' vs 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.where %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @where_condition_not_broadcastable(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+2 {{are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.where %c, %a, %a : tensor<3xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @matmul_element_types_differ(%a: tensor<4x8xf32>, %b: tensor<8x2xf16>) {
  // expected-error @+2 {{operand element types differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.matmul %a, %b : tensor<4x8xf32>, tensor<8x2xf16> -> tensor<4x2xf32>
  return
}

// -----

func.func @matmul_rank_one(%a: tensor<8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+2 {{operands must have rank >= 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.matmul %a, %b : tensor<8xf32>, tensor<8x2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @matmul_contraction_mismatch(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) {
  // expected-error @+2 {{contraction sizes differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.matmul %a, %b : tensor<4x8xf32>, tensor<7x2xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<3x4x8xf32>, %b: tensor<2x8x2xf32>) {
  // expected-error @+2 {{batch dimensions of}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.matmul %a, %b : tensor<3x4x8xf32>, tensor<2x8x2xf32> -> tensor<3x4x2xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{expected rank-4 NCHW input and OIHW weight}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+2 {{input and weight element types differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_attribute_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'pads' has 2 entries, expected 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error @+2 {{groups = 2 must divide input channels 3 and output channels 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{weight expects 3 input channels, input has 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{bias must be a vector of 4 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{strides and dilations must be positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_window_too_large(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{kernel window of 3 does not fit padded dimension 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{expected an NCHW input of rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.max_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<3x8x8xf32> -> tensor<3x4x4xf32>
  return
}

// -----

func.func @pool_attribute_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'kernel' has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.avg_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_zero_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{kernel, strides and dilations must be positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.avg_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 0, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_negative_pads(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{pads must be non-negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.avg_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: -1, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_window_too_large(%x: tensor<1x3x2x2xf32>) {
  // expected-error @+2 {{window of 3 does not fit padded dimension 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.max_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x3x2x2xf32> -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<4xf32>, %p: tensor<4xf32>) {
  // expected-error @+2 {{input must have rank >= 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @batch_norm_parameter_shape(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %q: tensor<3xf32>) {
  // expected-error @+2 {{per-channel parameters must be vectors of 4 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.batch_norm %x, %p, %p, %q, %p {epsilon = 1.0e-05 : f64} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.layer_norm %x, %g {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @layer_norm_scale_shape(%x: tensor<2x8xf32>, %g: tensor<2x8xf32>) {
  // expected-error @+2 {{scale and bias must have the normalized shape}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.layer_norm %x, %g {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a tensor of rank 2}}
  %0 = brrr.softmax %x {axis = 2 : i64} : tensor<2x8xf32>
  return
}

// -----

func.func @reduce_axis(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{axis 3 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.reduce sum %x {axes = array<i64: 3>, keepdims = false} : tensor<2x8xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axes_unsorted(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{axes must be sorted and unique}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.reduce max %x {axes = array<i64: 1, 0>, keepdims = false} : tensor<2x8xf32> -> tensor<f32>
  return
}

// -----

func.func @concat_no_operands() {
  // expected-error @+2 {{expected at least one operand}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.concat {axis = 0 : i64} : () -> tensor<0xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+2 {{operands must share rank and element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_shape_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{differ outside axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @expand_element_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'f16'}}
  %0 = brrr.expand %a : tensor<3xf32> -> tensor<2x3xf16>
  return
}

// -----

func.func @expand_to_lower_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot broadcast rank 2 to the lower rank 1}}
  %0 = brrr.expand %a : tensor<2x3xf32> -> tensor<6xf32>
  return
}

// -----

func.func @expand_incompatible(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{operand dimension 0 of size 2 cannot broadcast to size 4}}
  %0 = brrr.expand %a : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_axis(%a: tensor<2x3xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{axis 2 is out of range}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather %a, %i {axis = 2 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_float_indices(%a: tensor<2x3xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{must be statically or symbolically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = brrr.gather %a, %i {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_elements_rank(%a: tensor<2x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{indices have rank 1 but the input has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_elements %a, %i {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_axis(%a: tensor<2x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+2 {{axis 2 is out of range}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_elements %a, %i {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_elements_too_large(%a: tensor<2x3xf32>, %i: tensor<2x4xi64>) {
  // expected-error @+2 {{indices dimension 1 of size 4 exceeds the input's 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_elements %a, %i {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_nd_scalar_indices(%a: tensor<2x3xf32>, %i: tensor<i64>) {
  // expected-error @+2 {{indices must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_nd %a, %i {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_nd_batch_dims(%a: tensor<2x3xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+2 {{batch_dims 2 must be below both ranks (2, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_nd %a, %i {batch_dims = 2 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_tuple_length(%a: tensor<2x3xf32>, %i: tensor<4x3xi64>) {
  // expected-error @+2 {{index tuples of length 3 do not fit an input of rank 2 with 0 batch dimensions}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_nd %a, %i {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_nd_batch_mismatch(%a: tensor<2x3xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+2 {{batch dimension 0 differs: 3 vs 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.gather_nd %a, %i {batch_dims = 1 : i64} : (tensor<2x3xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @scatter_elements_updates(%a: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+2 {{must have the indices' shape and the input's element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.scatter_elements none %a, %i, %u {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @scatter_nd_updates(%a: tensor<4x5xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) {
  // expected-error @+2 {{must be 'tensor<2x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.scatter_nd none %a, %i, %u : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @pad_attribute_size(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'low' has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.pad constant %a {high = array<i64: 0, 0>, low = array<i64: 1>, value = 0.0 : f64} : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @pad_negative_size(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{padding dimension 0 by (-2, -1) leaves a negative size}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.pad constant %a {high = array<i64: -1, 0>, low = array<i64: -2, 0>, value = 0.0 : f64} : tensor<2x3xf32> -> tensor<0x3xf32>
  return
}

// -----

func.func @pad_overflowing_size(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{padding dimension 0 by (9223372036854775805, 2) overflows a 64-bit size}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.pad constant %a {high = array<i64: 2, 0>, low = array<i64: 9223372036854775805, 0>, value = 0.0 : f64} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_reflect_too_wide(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{reflect padding of dimension 0 must be smaller than its size 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.pad reflect %a {high = array<i64: 0, 0>, low = array<i64: 2, 0>, value = 0.0 : f64} : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @pad_edge_of_empty(%a: tensor<0x3xf32>) {
  // expected-error @+2 {{edge padding of empty dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.pad edge %a {high = array<i64: 1, 0>, low = array<i64: 0, 0>, value = 0.0 : f64} : tensor<0x3xf32> -> tensor<1x3xf32>
  return
}

// -----

func.func @reshape_element_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{operand has 6 elements but the result has 8}}
  %0 = brrr.reshape %a : tensor<2x3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'i32'}}
  %0 = brrr.reshape %a : tensor<2x3xf32> -> tensor<6xi32>
  return
}

// -----

func.func @resize_element_type(%a: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'f16'}}
  %0 = brrr.resize nearest %a asymmetric floor : tensor<1x2x4x4xf32> -> tensor<1x2x8x8xf16>
  return
}

// -----

func.func @resize_rank(%a: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{rank changes from 4 to 3}}
  %0 = brrr.resize nearest %a asymmetric floor : tensor<1x2x4x4xf32> -> tensor<2x8x8xf32>
  return
}

// -----

func.func @resize_empty_dimension(%a: tensor<1x0x4x4xf32>) {
  // expected-error @+1 {{cannot resize empty dimension 1}}
  %0 = brrr.resize linear %a half_pixel floor : tensor<1x0x4x4xf32> -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @slice_attribute_size(%a: tensor<4x9xf32>) {
  // expected-error @+2 {{'steps' has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.slice %a {sizes = array<i64: 2, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1>} : tensor<4x9xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @slice_zero_step(%a: tensor<4x9xf32>) {
  // expected-error @+2 {{step of dimension 1 is zero}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.slice %a {sizes = array<i64: 2, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1, 0>} : tensor<4x9xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @slice_negative_size(%a: tensor<4x9xf32>) {
  // expected-error @+2 {{size of dimension 0 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.slice %a {sizes = array<i64: -1, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : tensor<4x9xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @slice_out_of_bounds(%a: tensor<4x9xf32>) {
  // expected-error @+2 {{slice of dimension 1 reads [1, 10] outside [0, 9)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.slice %a {sizes = array<i64: 2, 4>, starts = array<i64: 0, 1>, steps = array<i64: 1, 3>} : tensor<4x9xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @transpose_perm_size(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'perm' has 3 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.transpose %a {perm = array<i64: 0, 1, 2>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_not_a_permutation(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{perm is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.transpose %a {perm = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @fusion_of_unknown_family(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown kernel family 'reduction' (pointwise, row, reduce, movement, matmul, conv, pool or attention)}}
  %0 = brrr.fusion reduction(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    brrr.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @fusion_config_of_another_family(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{has a row kernel config but is a 'pointwise' fusion}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128>} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    %1 = brrr.exp %a : tensor<8xf32>
    brrr.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @memory_not_one_per_result(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.memory must hold one #brrr.placement per result}}
  %0 = brrr.fusion pointwise(%x) {brrr.memory = [#brrr.placement<storage = arena, offset = 0, bytes = 16>, #brrr.placement<storage = arena, offset = 16, bytes = 16>]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @memory_of_dictionaries(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.memory must hold one #brrr.placement per result}}
  %0 = brrr.fusion pointwise(%x) {brrr.memory = [{bytes = 16 : i64, offset = 0 : i64, storage = "arena"}]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{an output lies at offset 0 of its buffer, not 64}}
func.func @placement_output_offset() attributes {p = #brrr.placement<storage = output, offset = 64, bytes = 16>} { return }

// -----

// expected-error @+1 {{a placement needs a non-negative offset and size}}
func.func @placement_negative() attributes {p = #brrr.placement<storage = arena, offset = -16, bytes = 16>} { return }

// -----

func.func @variants_not_an_array(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.variants must be an array of {rows, config} dictionaries, got 3 : i64}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, brrr.variants = 3 : i64} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @variants_without_config(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.variants needs a brrr.config for the rows above its last range}}
  %0 = brrr.fusion pointwise(%x) {brrr.variants = [{config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, rows = 8 : i64}]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @variants_entry_without_rows(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.variants entries are {rows = <i64>, config = #brrr.kernel<...>}}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, brrr.variants = [{config = #brrr.kernel<family = pointwise, body = simt, threads = 256>}]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @variants_rows_unsigned(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.variants entries are {rows = <i64>, config = #brrr.kernel<...>}}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, brrr.variants = [{config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, rows = 8 : ui64}]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @variants_rows_descending(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.variants rows must ascend from 1, got 4 after 8}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, brrr.variants = [{config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, rows = 8 : i64}, {config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, rows = 4 : i64}]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @variants_of_another_family(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{brrr.variants holds a row kernel config but is a 'pointwise' fusion}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256>, brrr.variants = [{config = #brrr.kernel<family = row, body = simt, threads = 128>, rows = 8 : i64}]} : (tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %1 = brrr.exp %a : tensor<8xf16>
    brrr.yield %1 : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}

// -----

func.func @fusion_config_not_a_kernel(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{brrr.config must be a #brrr.kernel, got 3 : i64}}
  %0 = brrr.fusion pointwise(%x) {brrr.config = 3} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    %1 = brrr.exp %a : tensor<8xf32>
    brrr.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{threads must be a multiple of 32 in [32, 1024], got 48}}
func.func @kernel_threads_not_whole_warps() attributes {c = #brrr.kernel<family = row, body = simt, threads = 48>} { return }

// -----

// expected-error @+1 {{vector and cluster must be positive and stages, persistent and epilogue non-negative}}
func.func @kernel_zero_vector() attributes {c = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 0>} { return }

// -----

// expected-error @+1 {{only the wgmma body runs a persistent grid, stages its epilogue in column chunks or runs a ping-pong schedule}}
func.func @kernel_persistent_mma_sync() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, persistent = 132, epilogue = 32>} { return }

// -----

// expected-error @+1 {{only the wgmma body multicasts, to a pair of blocks (multicast = 2) whose tiles are not split over a cluster}}
func.func @kernel_multicast_mma_sync() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, multicast = 2>} { return }

// -----

// expected-error @+1 {{only the wgmma body multicasts, to a pair of blocks (multicast = 2) whose tiles are not split over a cluster}}
func.func @kernel_multicast_four() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, multicast = 4>} { return }

// -----

// expected-error @+1 {{only the wgmma body multicasts, to a pair of blocks (multicast = 2) whose tiles are not split over a cluster}}
func.func @kernel_multicast_split() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, cluster = 2, multicast = 2>} { return }

// -----

// expected-error @+1 {{only the wgmma body runs a persistent grid, stages its epilogue in column chunks or runs a ping-pong schedule}}
func.func @kernel_pingpong_mma_sync() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, schedule = pingpong>} { return }

// -----

// expected-error @+1 {{a ping-pong wgmma kernel is persistent and its tile holds at most 128 x 128 outputs (one warpgroup's accumulators), not 128x256}}
func.func @kernel_pingpong_wide() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, persistent = 132, epilogue = 64, schedule = pingpong>} { return }

// -----

// expected-error @+1 {{a ping-pong wgmma kernel is persistent and its tile holds at most 128 x 128 outputs (one warpgroup's accumulators), not 128x128}}
func.func @kernel_pingpong_not_persistent() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, schedule = pingpong>} { return }

// -----

// expected-error @+1 {{an overlapped wgmma kernel is persistent and stages its whole tile (epilogue = 256), not 128 columns}}
func.func @kernel_overlapped_chunked() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, schedule = overlapped>} { return }

// -----

// expected-error @+1 {{an overlapped wgmma kernel is persistent and stages its whole tile (epilogue = 128), not 0 columns}}
func.func @kernel_overlapped_not_persistent() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, schedule = overlapped>} { return }

// -----

// expected-error @+1 {{only the wgmma and mma_sync bodies split a tile over a cluster}}
func.func @kernel_cluster_untiled() attributes {c = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, cluster = 2>} { return }

// -----

// expected-error @+1 {{an mma_sync tile is split over 1, 2, 4 or 8 blocks of a cluster, not 16}}
func.func @kernel_cluster_16() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 256, tile = [128, 128, 32], stages = 3, cluster = 16>} { return }

// -----

// expected-error @+1 {{a wgmma tile is split over 1, 2, 4 or 8 blocks of a cluster, not 3}}
func.func @kernel_cluster_of_three() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, cluster = 3>} { return }

// -----

// expected-error @+1 {{a wgmma tile is split over 1, 2, 4 or 8 blocks of a cluster, not 16}}
func.func @kernel_cluster_of_sixteen() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, cluster = 16>} { return }

// -----

// expected-error @+1 {{a tile split over a cluster is not persistent and stages its whole tile}}
func.func @kernel_cluster_persistent() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, cluster = 2, persistent = 132, epilogue = 64>} { return }

// -----

// expected-error @+1 {{a wgmma epilogue stages a multiple of 32 columns that divides the tile's 256, not 96}}
func.func @kernel_epilogue_chunk_ragged() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, persistent = 132, epilogue = 96>} { return }

// -----

// expected-error @+1 {{a persistent wgmma kernel stages its epilogue in a buffer of its own (epilogue = columns)}}
func.func @kernel_persistent_epilogue_over_stages() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, persistent = 132>} { return }

// -----

// expected-error @+1 {{vector and cluster must be positive and stages, persistent and epilogue non-negative}}
func.func @kernel_negative_persistent() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, persistent = -1, epilogue = 32>} { return }

// -----

// expected-error @+1 {{only matmul, conv and attention kernels run Tensor Core bodies, not row}}
func.func @kernel_row_on_tensor_cores() attributes {c = #brrr.kernel<family = row, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4>} { return }

// -----

// expected-error @+1 {{a simt kernel has no tile or stages}}
func.func @kernel_simt_with_tile() attributes {c = #brrr.kernel<family = row, body = simt, threads = 256, stages = 2>} { return }

// -----

// expected-error @+1 {{a pointwise kernel's tile is [2 or 4 vectors a thread]}}
func.func @kernel_pointwise_matmul_tile() attributes {c = #brrr.kernel<family = pointwise, body = simt, threads = 256, tile = [128, 128, 64]>} { return }

// -----

// expected-error @+1 {{a movement kernel's tile is [1, 2 or 4 vectors a thread], or [32, 8] for a transpose through 32 x 32 shared tiles of 256 threads}}
func.func @kernel_movement_three_vectors() attributes {c = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [3], vector = 8>} { return }

// -----

// expected-error @+1 {{a movement kernel's tile is [1, 2 or 4 vectors a thread], or [32, 8] for a transpose through 32 x 32 shared tiles of 256 threads}}
func.func @kernel_transpose_tile_threads() attributes {c = #brrr.kernel<family = movement, body = simt, threads = 128, tile = [32, 8]>} { return }

// -----

// expected-error @+1 {{a cooperative reduce kernel's tile is [threads] (the block, a power of two, reduces one output)}}
func.func @kernel_reduce_tile_not_the_block() attributes {c = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [128]>} { return }

// -----

// expected-error @+1 {{a cooperative reduce kernel's tile is [threads] (the block, a power of two, reduces one output)}}
func.func @kernel_reduce_block_not_power_of_two() attributes {c = #brrr.kernel<family = reduce, body = simt, threads = 96, tile = [96]>} { return }

// -----

// expected-error @+1 {{a split-rows reduce kernel's tile is [lanes, groups], whose product fills the block's last warp}}
func.func @kernel_reduce_split_rows_over_the_block() attributes {c = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [32, 16]>} { return }

// -----

// expected-error @+1 {{a split-rows reduce kernel's tile is [lanes, groups], whose product fills the block's last warp}}
func.func @kernel_reduce_split_rows_idle_warp() attributes {c = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [4, 40]>} { return }

// -----

// expected-error @+1 {{its rows split over 1, 2, 4 or 8 blocks of a cluster}}
func.func @kernel_reduce_split_rows_cluster_of_three() attributes {c = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [8, 32], cluster = 3>} { return }

// -----

// expected-error @+1 {{only the wgmma and mma_sync bodies split a tile over a cluster, and split-rows reductions their rows}}
func.func @kernel_reduce_cooperative_cluster() attributes {c = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [256], cluster = 2>} { return }

// -----

// expected-error @+1 {{a packed row kernel's tile is [rows a block, lanes a row] with a power of two of lanes up to 32 and rows x lanes = threads}}
func.func @kernel_row_packed_lanes_not_power_of_two() attributes {c = #brrr.kernel<family = row, body = simt, threads = 128, tile = [16, 12]>} { return }

// -----

// expected-error @+1 {{a packed row kernel's tile is [rows a block, lanes a row] with a power of two of lanes up to 32 and rows x lanes = threads}}
func.func @kernel_row_packed_rows_times_lanes() attributes {c = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 16]>} { return }

// -----

// expected-error @+1 {{a packed row kernel's tile is [rows a block, lanes a row] with a power of two of lanes up to 32 and rows x lanes = threads}}
func.func @kernel_row_packed_lanes_past_a_warp() attributes {c = #brrr.kernel<family = row, body = simt, threads = 128, tile = [2, 64]>} { return }

// -----

// expected-error @+1 {{a warp_mma kernel runs one warp per block, not 64 threads}}
func.func @kernel_warp_mma_two_warps() attributes {c = #brrr.kernel<family = matmul, body = warp_mma, threads = 64>} { return }

// -----

// expected-error @+1 {{a Tensor Core body needs a tile [m, n, k]}}
func.func @kernel_tiled_without_tile() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, stages = 3>} { return }

// -----

// expected-error @+1 {{tile m and n must be multiples of 64 up to 256}}
func.func @kernel_tile_not_64() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 96, 64], stages = 4>} { return }

// -----

// expected-error @+1 {{a Tensor Core body streams through 2 or more stages, got 1}}
func.func @kernel_one_stage() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 1>} { return }

// -----

// expected-error @+1 {{an mma_sync tile's k must be a multiple of 16}}
func.func @kernel_mma_sync_k() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 24], stages = 3>} { return }

// -----

// expected-error @+1 {{an mma_sync 128x128 tile runs one warp per 64x64, 64x32 or 32x32, 128, 256 or 512 threads, not 64}}
func.func @kernel_mma_sync_threads() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 64, tile = [128, 128, 32], stages = 3>} { return }

// -----

// expected-error @+1 {{a wgmma tile's k is one 128-byte swizzled row: 64 (16-bit operands) or 128 (8-bit), got 32}}
func.func @kernel_wgmma_k() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 32], stages = 4>} { return }

// -----

// expected-error @+1 {{a wgmma 128-row tile runs a producer and 2 consumer warpgroups, 384 threads (overlapped, with a drain warpgroup: 512), not 256}}
func.func @kernel_wgmma_threads() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 256, tile = [128, 256, 64], stages = 4>} { return }

// -----

// A drain warpgroup's consumers hold at most 64 x 192 accumulators.
// expected-error @+1 {{an overlapped wgmma tile with a drain warpgroup is at most 192 wide, not 256}}
func.func @kernel_wgmma_drain_wide() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 512, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 256, schedule = overlapped>} { return }

// -----

// Only the overlapped schedule runs a drain warpgroup.
// expected-error @+1 {{a wgmma 128-row tile runs a producer and 2 consumer warpgroups, 384 threads (overlapped, with a drain warpgroup: 512), not 512}}
func.func @kernel_wgmma_drain_cooperative() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 512, tile = [128, 256, 64], stages = 4, persistent = 132, epilogue = 64>} { return }

// -----

// expected-error @+1 {{a wgmma tile has 128 rows (two consumer warpgroups, whose registers the body splits), got 64}}
func.func @kernel_wgmma_rows() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 256, tile = [64, 256, 64], stages = 4>} { return }

// -----

// expected-error @+1 {{only the mma_sync body multiplies f32 operands, so only it runs tf32, not warp_mma}}
func.func @kernel_tf32_untiled() attributes {c = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, precision = tf32>} { return }

// -----

// expected-error @+1 {{only the wgmma body multiplies float8 operands, so only it sums them promoted, not mma_sync}}
func.func @kernel_promoted_mma_sync() attributes {c = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, precision = promoted>} { return }

// -----

// expected-error @+1 {{a wgmma tile that promotes its float8 sums holds them beside its accumulators: at most 64 x 192 outputs a consumer warpgroup cooperative, not 128x256}}
func.func @kernel_promoted_wide() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, precision = promoted>} { return }

// -----

// expected-error @+1 {{a wgmma tile that promotes its float8 sums holds them beside its accumulators: at most 64 x 192 outputs a consumer warpgroup pingpong, not 128x128}}
func.func @kernel_promoted_pingpong() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 128, schedule = pingpong>} { return }

// -----

// expected-error @+1 {{a wgmma tile that promotes its float8 sums holds them beside its accumulators: at most 64 x 128 outputs a consumer warpgroup overlapped, not 128x192}}
func.func @kernel_promoted_overlapped_wide() attributes {c = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 128], stages = 3, precision = promoted, persistent = 132, epilogue = 192, schedule = overlapped>} { return }

// -----

func.func @attention_rank(%q: tensor<4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x12x64xf16>) {
  // expected-error @+1 {{query must have rank 4 (batch, heads, sequence, head size), got 'tensor<4x10x64xf16>'}}
  %0 = brrr.attention %q, %k, %v {scale = 1.0 : f64} : tensor<4x10x64xf16>, tensor<2x4x12x64xf16>, tensor<2x4x12x64xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_element_types(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xbf16>, %v: tensor<2x4x12x64xf16>) {
  // expected-error @+1 {{query, key and value must have one element type}}
  %0 = brrr.attention %q, %k, %v {scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x4x12x64xbf16>, tensor<2x4x12x64xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_heads(%q: tensor<2x4x10x64xf16>, %k: tensor<2x3x12x64xf16>, %v: tensor<2x3x12x64xf16>) {
  // expected-error @+1 {{key and value heads (3, 3) must be equal and divide the query's 4}}
  %0 = brrr.attention %q, %k, %v {scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x3x12x64xf16>, tensor<2x3x12x64xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_key_width(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x32xf16>, %v: tensor<2x4x12x64xf16>) {
  // expected-error @+1 {{key head size 32 differs from the query's 64}}
  %0 = brrr.attention %q, %k, %v {scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x4x12x32xf16>, tensor<2x4x12x64xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_value_positions(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x11x64xf16>) {
  // expected-error @+1 {{value has 11 positions, key has 12}}
  %0 = brrr.attention %q, %k, %v {scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x4x12x64xf16>, tensor<2x4x11x64xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_result(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x12x32xf16>) {
  // expected-error @+1 {{result must be 2x4x10x32, got 'tensor<2x4x10x64xf16>'}}
  %0 = brrr.attention %q, %k, %v {scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x4x12x64xf16>, tensor<2x4x12x32xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_bias(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x12x64xf16>, %m: tensor<2x1x10x10xf32>) {
  // expected-error @+1 {{bias 'tensor<2x1x10x10xf32>' does not broadcast to the scores 2x4x10x12}}
  %0 = brrr.attention %q, %k, %v bias %m {scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x4x12x64xf16>, tensor<2x4x12x64xf16>, tensor<2x1x10x10xf32> -> tensor<2x4x10x64xf16>
  return
}

// -----

func.func @attention_window_period(%q: tensor<6x4x10x64xf16>, %k: tensor<6x4x12x64xf16>, %v: tensor<6x4x12x64xf16>, %m: tensor<1x4x4x10x12xf16>) {
  // expected-error @+1 {{bias 'tensor<1x4x4x10x12xf16>' splits the batch of 6 by 4, which does not divide it}}
  %0 = brrr.attention %q, %k, %v bias %m {scale = 1.0 : f64} : tensor<6x4x10x64xf16>, tensor<6x4x12x64xf16>, tensor<6x4x12x64xf16>, tensor<1x4x4x10x12xf16> -> tensor<6x4x10x64xf16>
  return
}

// -----

func.func @attention_window_heads(%q: tensor<8x4x10x64xf16>, %k: tensor<8x4x12x64xf16>, %v: tensor<8x4x12x64xf16>, %m: tensor<1x4x3x10x12xf16>) {
  // expected-error @+1 {{bias 'tensor<1x4x3x10x12xf16>' does not broadcast to the scores 8x4x10x12}}
  %0 = brrr.attention %q, %k, %v bias %m {scale = 1.0 : f64} : tensor<8x4x10x64xf16>, tensor<8x4x12x64xf16>, tensor<8x4x12x64xf16>, tensor<1x4x3x10x12xf16> -> tensor<8x4x10x64xf16>
  return
}

// -----

func.func @attention_scale(%q: tensor<2x4x10x64xf16>, %k: tensor<2x4x12x64xf16>, %v: tensor<2x4x12x64xf16>) {
  // expected-error @+1 {{scale must be finite}}
  %0 = brrr.attention %q, %k, %v {scale = 0x7FF0000000000000 : f64} : tensor<2x4x10x64xf16>, tensor<2x4x12x64xf16>, tensor<2x4x12x64xf16> -> tensor<2x4x10x64xf16>
  return
}

// -----

// expected-error @+1 {{an attention kernel runs mma_sync with tile [1, 2 or 4 x 16 query rows per warp, a multiple of 16 up to 128 keys] and 2 or more stages}}
func.func @kernel_attention_rows() attributes {c = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [96, 64], stages = 2>} { return }

// -----

// expected-error @+1 {{an attention kernel runs mma_sync with tile [1, 2 or 4 x 16 query rows per warp, a multiple of 16 up to 128 keys] and 2 or more stages}}
func.func @kernel_attention_keys() attributes {c = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 40], stages = 2>} { return }

// -----

// expected-error @+1 {{an attention kernel runs the mma_sync or wgmma body, not warp_mma}}
func.func @kernel_attention_body() attributes {c = #brrr.kernel<family = attention, body = warp_mma, threads = 128, tile = [64, 64], stages = 2>} { return }

// -----

// A warpgroup takes 64 query rows on the wgmma body.
// expected-error @+1 {{an attention kernel runs wgmma with 128 or 256 threads, tile [64 query rows a warpgroup, a multiple of 16 up to 128 keys] and 2 or more stages}}
func.func @kernel_attention_wgmma_rows() attributes {c = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [128, 64], stages = 2>} { return }

// -----

// expected-error @+1 {{an attention kernel runs wgmma with 128 or 256 threads, tile [64 query rows a warpgroup, a multiple of 16 up to 128 keys] and 2 or more stages}}
func.func @kernel_attention_wgmma_warps() attributes {c = #brrr.kernel<family = attention, body = wgmma, threads = 64, tile = [32, 64], stages = 2>} { return }

// -----

// Overlapped, a block's values are read while the next block's keys are:
// two buffers are not enough.
// expected-error @+1 {{an attention kernel on wgmma runs the cooperative schedule, or the overlapped one with 3 or more stages}}
func.func @kernel_attention_overlapped_stages() attributes {c = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 2, schedule = overlapped>} { return }

// -----

// expected-error @+1 {{an attention kernel on wgmma runs the cooperative schedule, or the overlapped one with 3 or more stages}}
func.func @kernel_attention_pingpong() attributes {c = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 2, schedule = pingpong>} { return }

// -----

// The mma_sync body has no overlapped schedule.
// expected-error @+1 {{only the wgmma body runs a persistent grid, stages its epilogue in column chunks or runs a ping-pong schedule}}
func.func @kernel_attention_mma_overlapped() attributes {c = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 3, schedule = overlapped>} { return }

// -----

func.func @rms_norm_bias(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{an RMS norm takes no bias}}
  %0 = brrr.layer_norm %x, %g, %g {axis = 1 : i64, epsilon = 1.0e-5 : f64, rms} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// expected-error @+1 {{a direct convolution's tile is [2 to 8 output pixels a thread], over vectors of channels}}
func.func @kernel_direct_conv_pixels_scalar() attributes {c = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4]>} { return }

// -----

// expected-error @+1 {{a direct convolution's tile is [2 to 8 output pixels a thread], over vectors of channels}}
func.func @kernel_direct_conv_pixels_many() attributes {c = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [16], vector = 8>} { return }

// -----

// expected-error @+1 {{a one-pixel convolution's tile is [rows, channels a block], a warp a channel}}
func.func @kernel_one_pixel_conv_threads() attributes {c = #brrr.kernel<family = conv, body = simt, threads = 128, tile = [1, 8], vector = 8>} { return }

// -----

// expected-error @+1 {{a few-rows matmul's tile is [rows, columns a block], a warp a column}}
func.func @kernel_few_rows_matmul_threads() attributes {c = #brrr.kernel<family = matmul, body = simt, threads = 128, tile = [2, 8], vector = 8>} { return }

// -----

// expected-error @+1 {{a few-rows matmul's tile is [rows, columns a block], a warp a column}}
func.func @kernel_few_rows_matmul_rank() attributes {c = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [8]>} { return }

// -----

// expected-error @+1 {{a few-rows Tensor Core matmul's tile is [rows, columns a block] in groups of 8 and 16, whole warps and 8-element vectors}}
func.func @kernel_few_rows_mma_rows() attributes {c = #brrr.kernel<family = matmul, body = warp_mma, threads = 256, tile = [12, 16], vector = 8>} { return }

// -----

// expected-error @+1 {{a few-rows Tensor Core matmul's tile is [rows, columns a block] in groups of 8 and 16, whole warps and 8-element vectors}}
func.func @kernel_few_rows_mma_vector() attributes {c = #brrr.kernel<family = matmul, body = warp_mma, threads = 256, tile = [16, 16], vector = 4>} { return }

// -----

// expected-error @+1 {{a few-rows Tensor Core matmul's tile is [rows, columns a block] in groups of 8 and 16, whole warps and 8-element vectors}}
func.func @kernel_few_rows_mma_columns() attributes {c = #brrr.kernel<family = matmul, body = warp_mma, threads = 256, tile = [16, 24], vector = 8>} { return }

// -----

// expected-error @+1 {{wgmma Tensor Cores need capability 90 or more, got 80}}
func.func @target_wgmma_before_hopper() attributes {t = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = wgmma>} { return }

// -----

// expected-error @+1 {{a target needs a non-negative capability, at least one multiprocessor and 1 to shared_per_multiprocessor bytes of shared memory per block}}
func.func @target_block_shares_more_than_multiprocessor() attributes {t = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 200000, shared_per_multiprocessor = 167936, tensor_cores = mma_sync>} { return }

// -----

// expected-error @+1 {{a target needs a non-negative capability, at least one multiprocessor and 1 to shared_per_multiprocessor bytes of shared memory per block}}
func.func @target_without_multiprocessors() attributes {t = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 0, shared_per_block = 1024, shared_per_multiprocessor = 167936, tensor_cores = mma_sync>} { return }

// -----

// expected-error @+2 {{unknown target feature 'warp_shuffle'}}
// expected-error @+1 {{failed to parse Brrr_TargetAttr parameter 'features'}}
func.func @target_unknown_feature() attributes {t = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 1024, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = [warp_shuffle]>} { return }

// -----

// expected-error @+1 {{a shared buffer needs a non-negative index and offset and at least one byte}}
func.func @shared_buffer_empty() attributes {s = #brrr.buffer<role = a, offset = 0, bytes = 0>} { return }

// -----

// expected-error @+1 {{a shared plan holds #brrr.buffer attributes, got 3 : i64}}
func.func @shared_plan_of_integers() attributes {s = #brrr.shared<buffers = [3], bytes = 16>} { return }

// -----

// expected-error @+1 {{buffer key 1 ends at byte 96, past the plan's 64}}
func.func @shared_buffer_past_the_plan() attributes {s = #brrr.shared<buffers = [#brrr.buffer<role = key, index = 1, offset = 32, bytes = 64>], bytes = 64>} { return }

// -----

// expected-error @+1 {{two buffers are a 0}}
func.func @shared_buffer_twice() attributes {s = #brrr.shared<buffers = [#brrr.buffer<role = a, offset = 0, bytes = 16>, #brrr.buffer<role = a, offset = 16, bytes = 16>], bytes = 32>} { return }

// -----

// expected-error @+1 {{an index check's id must lie in [0, 2^31), got -1}}
func.func @index_check_negative_id() attributes {c = #brrr.index_check<id = -1, node = "n", op = "Gather">} { return }

// -----

// expected-error @+1 {{an index check names its node and op}}
func.func @index_check_without_op() attributes {c = #brrr.index_check<id = 0, node = "n", op = "">} { return }

// -----

func.func @quantize_scale_type_differs(%x: tensor<4x8xf16>, %s: tensor<f32>, %z: tensor<i8>) {
  // expected-error @+2 {{scale element type 'f32' differs from the input's 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.quantize %x, %s, %z : tensor<4x8xf16>, tensor<f32>, tensor<i8> -> tensor<4x8xi8>
  return
}

// -----

func.func @quantize_scale_does_not_broadcast(%x: tensor<4x8xf32>, %s: tensor<4x1x8xf32>, %z: tensor<i8>) {
  // expected-error @+2 {{parameter 'tensor<4x1x8xf32>' does not broadcast to the quantized tensor 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.quantize %x, %s, %z : tensor<4x8xf32>, tensor<4x1x8xf32>, tensor<i8> -> tensor<4x8xi8>
  return
}

// -----

func.func @quantize_to_i16(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i16>) {
  // expected-error @+1 {{operand #2 must be statically shaped tensor of 8-bit signless integer or 8-bit unsigned integer or f8E4M3FN type values}}
  %0 = brrr.quantize %x, %s, %z : tensor<4xf32>, tensor<f32>, tensor<i16> -> tensor<4xi16>
  return
}

// -----

func.func @dequantize_zero_point_type_differs(%x: tensor<4x8xi8>, %s: tensor<1x8xf32>, %z: tensor<1x8xui8>) {
  // expected-error @+2 {{zero point element type 'ui8' differs from the input's 'i8'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = brrr.dequantize %x, %s, %z : tensor<4x8xi8>, tensor<1x8xf32>, tensor<1x8xui8> -> tensor<4x8xf32>
  return
}

// -----

// expected-error @+1 {{a launch grid is [x, y, z] blocks, x below 2^31 and y and z below 2^16}}
func.func @kernel_grid_of_two() attributes {c = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [4, 1]>} { return }

// -----

// expected-error @+1 {{a launch grid is [x, y, z] blocks, x below 2^31 and y and z below 2^16}}
func.func @kernel_grid_y_too_large() attributes {c = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [4, 65536, 1]>} { return }

// -----

// expected-error @+1 {{grid_extents maps the module's symbols to the grid's (x, y, z), beside the grid at the largest shape}}
func.func @kernel_extents_without_grid() attributes {c = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid_extents = affine_map<()[s0] -> (s0, 1, 1)>>} { return }

// -----

func.func @resize_linear_four_dims(%x: tensor<2x2x2x2xf32>) -> tensor<4x4x4x4xf32> {
  // expected-error @+1 {{linear resize interpolates at most 3 dimensions, not 4}}
  %0 = brrr.resize linear %x half_pixel round_prefer_floor : tensor<2x2x2x2xf32> -> tensor<4x4x4x4xf32>
  return %0 : tensor<4x4x4x4xf32>
}

// -----

func.func @resize_zero_scale(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{scale 0.000000e+00 is not positive and finite}}
  %0 = brrr.resize nearest %x asymmetric floor {scales = array<f64: 1.0, 0.0>} : tensor<3x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @resize_scales_rank(%x: tensor<3x5xf32>) -> tensor<3x10xf32> {
  // expected-error @+1 {{has 1 scales for rank 2}}
  %0 = brrr.resize nearest %x asymmetric floor {scales = array<f64: 2.0>} : tensor<3x5xf32> -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// -----

func.func @l2_norm_bias(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{an L2 normalization takes no bias and is no RMS norm}}
  %0 = brrr.layer_norm %x, %g, %g {axis = 1 : i64, epsilon = 0.0 : f64, l2} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}
