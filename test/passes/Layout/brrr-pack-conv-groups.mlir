// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-pack-conv-groups))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-pack-conv-groups{max-groups=4}))' | FileCheck %s --check-prefix=MAX4
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-pack-conv-groups,brrr-channels-last))' | FileCheck %s --check-prefix=LAST
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-pack-conv-groups{max-groups=1}))' | FileCheck %s --check-prefix=NONE

// 16 groups of 16 channels, 1 x 1: 8 groups a pack make 128 input and
// output channels, so the convolution has 2 groups and block-diagonal
// weights [256, 128, 1, 1]: output channels 0-15 (group 0) read input
// channels 0-15 of their pack, 16-31 (group 1) channels 16-31, and so on.
// Every weight is 1.0 (0x3C00), so each of the first 16 rows is 16 ones
// then 112 zeros, each of the next 16 rows 16 zeros, 16 ones, 96 zeros.
// CHECK-LABEL: func.func @Narrow
// CHECK: %[[W:.+]] = brrr.constant dense_resource<packed_groups> : tensor<256x128x1x1xf16>
// CHECK: brrr.conv2d %{{.+}}, %[[W]], %{{.+}} {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x256x7x7xf16>, tensor<256x128x1x1xf16>, tensor<256xf16>) -> tensor<2x256x7x7xf16>
// CHECK: packed_groups: "0x08000000{{((003C){16}(0000){112}){16}((0000){16}(003C){16}(0000){96}){16}((0000){32}(003C){16}(0000){80})}}
// At most 4 groups a pack: no pack of 4 makes a 128-wide tile.
// MAX4-LABEL: func.func @Narrow
// MAX4: groups = 16 : i64
// The packed convolution runs channels-last, its weights KH x KW x O x I.
// LAST-LABEL: func.func @Narrow
// LAST: brrr.conv2d {{.+}} {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, {{.+}} : (tensor<2x7x7x256xf16>, tensor<1x1x256x128xf16>, tensor<256xf16>) -> tensor<2x7x7x256xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @Narrow(%x: tensor<2x256x7x7xf16>) -> tensor<2x256x7x7xf16> {
  %w = brrr.constant dense<1.0> : tensor<256x16x1x1xf16>
  %b = brrr.constant dense<0.5> : tensor<256xf16>
  %y = brrr.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 16 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x256x7x7xf16>, tensor<256x16x1x1xf16>, tensor<256xf16>) -> tensor<2x256x7x7xf16>
  return %y : tensor<2x256x7x7xf16>
}
}

// -----

// ResNeXt's last stage: 32 groups of 32 channels, 3 x 3, take 4 a pack
// (128 channels, 8 groups).
// CHECK-LABEL: func.func @ResNeXtStage4
// CHECK: brrr.conv2d {{.+}}groups = 8 : i64{{.+}} : (tensor<1x1024x7x7xf16>, tensor<1024x128x3x3xf16>) -> tensor<1x1024x7x7xf16>
// MAX4-LABEL: func.func @ResNeXtStage4
// MAX4: groups = 8 : i64
// LAST-LABEL: func.func @ResNeXtStage4
// LAST: brrr.conv2d {{.+}}channels_last{{.+}}groups = 8 : i64{{.+}} : (tensor<1x7x7x1024xf16>, tensor<3x3x1024x128xf16>) -> tensor<1x7x7x1024xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @ResNeXtStage4(%x: tensor<1x1024x7x7xf16>) -> tensor<1x1024x7x7xf16> {
  %w = brrr.constant dense<1.0> : tensor<1024x32x3x3xf16>
  %y = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x1024x7x7xf16>, tensor<1024x32x3x3xf16>) -> tensor<1x1024x7x7xf16>
  return %y : tensor<1x1024x7x7xf16>
}
}

// -----

// ResNeXt's first stage: 32 groups of 4 channels, all 32 a pack: one group
// of 128, 32 times the multiply-adds on the Tensor Cores (the direct body
// ran these at 3 TFLOP/s). With at most 4 a pack, left alone.
// CHECK-LABEL: func.func @ResNeXtStage1
// CHECK: brrr.conv2d {{.+}}groups = 1 : i64{{.+}} : (tensor<1x128x56x56xf16>, tensor<128x128x3x3xf16>) -> tensor<1x128x56x56xf16>
// MAX4-LABEL: func.func @ResNeXtStage1
// MAX4: groups = 32 : i64
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @ResNeXtStage1(%x: tensor<1x128x56x56xf16>) -> tensor<1x128x56x56xf16> {
  %w = brrr.constant dense<1.0> : tensor<128x4x3x3xf16>
  %y = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x128x56x56xf16>, tensor<128x4x3x3xf16>) -> tensor<1x128x56x56xf16>
  return %y : tensor<1x128x56x56xf16>
}
}

// -----

// RegNetY's groups of 24 channels: no pack of 2, 3 or 5 makes whole
// 64-channel slices and 128-wide tiles, so all 5 groups make one dense
// convolution of 120 channels, weights block diagonal (5 times the
// multiply-adds), where its tiles fill enough of the card: 3136 output
// pixels are 25 tiles of 128, and 25 x 64 >= 5 x 132. Group 0's first
// output channel reads input channels 0-23 and is zero for the other 96
// (9 taps each); group 4's last reads the last 24. Its channels-last form
// runs on the Hopper body as any dense convolution does. At most 4
// groups a pack bounds packs of whole tiles, not this one; with at most 1,
// nothing packs.
// CHECK-LABEL: func.func @Dense
// CHECK: %[[W:.+]] = brrr.constant dense_resource<packed_groups> : tensor<120x120x3x3xf16>
// CHECK: brrr.conv2d %{{.+}}, %[[W]] {dilations = array<i64: 1, 1>, groups = 1 : i64, {{.+}} : (tensor<16x120x14x14xf16>, tensor<120x120x3x3xf16>) -> tensor<16x120x14x14xf16>
// CHECK: packed_groups: "0x08000000{{((003C){216}((0000){216}){4})}}
// CHECK-SAME: {{(((0000){216}){4}(003C){216})}}"
// MAX4-LABEL: func.func @Dense
// MAX4: brrr.conv2d {{.+}}groups = 1 : i64{{.+}} : (tensor<16x120x14x14xf16>, tensor<120x120x3x3xf16>)
// NONE-LABEL: func.func @Dense
// NONE: brrr.conv2d {{.+}}groups = 5 : i64{{.+}} : (tensor<16x120x14x14xf16>, tensor<120x24x3x3xf16>)
// LAST-LABEL: func.func @Dense
// LAST: brrr.conv2d {{.+}}channels_last{{.+}}groups = 1 : i64{{.+}} : (tensor<16x14x14x120xf16>, tensor<3x3x120x120xf16>) -> tensor<16x14x14x120xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @Dense(%x: tensor<16x120x14x14xf16>) -> tensor<16x120x14x14xf16> {
  %w = brrr.constant dense<1.0> : tensor<120x24x3x3xf16>
  %y = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 5 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<16x120x14x14xf16>, tensor<120x24x3x3xf16>) -> tensor<16x120x14x14xf16>
  return %y : tensor<16x120x14x14xf16>
}
}

// -----

// A dense pack pays where its tiles, up to one per multiprocessor, times
// 64 reach the groups times the multiprocessors. 37 groups of 9 channels
// (333 output channels, 3 tiles wide) on 132 multiprocessors need 77
// tiles: 3201 output pixels make 26 rows of tiles (78 tiles), packed;
// 3200 make 25 (75 tiles), and the same 5 groups as @Dense over 196
// pixels make 2: left alone, `brrr.groups_unpacked` saying why.
// CHECK-LABEL: func.func @DensePays
// CHECK: brrr.conv2d {{.+}}groups = 1 : i64{{.+}} : (tensor<1x333x97x33xf16>, tensor<333x333x1x1xf16>) -> tensor<1x333x97x33xf16>
// CHECK: brrr.conv2d {{.+}}brrr.groups_unpacked = "37 groups of 9 channels stay grouped: one dense convolution would do 37 times the multiply-adds over 75 output tiles of 128 x 128, which pays from 77 on 132 multiprocessors"{{.+}}groups = 37 : i64{{.+}} : (tensor<1x333x40x80xf16>, tensor<333x9x1x1xf16>) -> tensor<1x333x40x80xf16>
// CHECK: brrr.conv2d {{.+}}brrr.groups_unpacked = "5 groups of 24 channels{{.+}}over 2 output tiles{{.+}}groups = 5 : i64{{.+}} : (tensor<1x120x14x14xf16>, tensor<120x24x3x3xf16>) -> tensor<1x120x14x14xf16>
// NONE-LABEL: func.func @DensePays
// NONE: brrr.conv2d {{.+}}groups = 37 : i64{{.+}} : (tensor<1x333x97x33xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @DensePays(%a: tensor<1x333x97x33xf16>, %b: tensor<1x333x40x80xf16>, %c: tensor<1x120x14x14xf16>) -> (tensor<1x333x97x33xf16>, tensor<1x333x40x80xf16>, tensor<1x120x14x14xf16>) {
  %w9 = brrr.constant dense<1.0> : tensor<333x9x1x1xf16>
  %ya = brrr.conv2d %a, %w9 {dilations = array<i64: 1, 1>, groups = 37 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x333x97x33xf16>, tensor<333x9x1x1xf16>) -> tensor<1x333x97x33xf16>
  %yb = brrr.conv2d %b, %w9 {dilations = array<i64: 1, 1>, groups = 37 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x333x40x80xf16>, tensor<333x9x1x1xf16>) -> tensor<1x333x40x80xf16>
  %w24 = brrr.constant dense<1.0> : tensor<120x24x3x3xf16>
  %yc = brrr.conv2d %c, %w24 {dilations = array<i64: 1, 1>, groups = 5 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x120x14x14xf16>, tensor<120x24x3x3xf16>) -> tensor<1x120x14x14xf16>
  return %ya, %yb, %yc : tensor<1x333x97x33xf16>, tensor<1x333x40x80xf16>, tensor<1x120x14x14xf16>
}
}

// -----

// Left alone: groups of 2 channels (a pack of 64, more than 32),
// 37 groups of 24 over 64 pixels (no pack of whole tiles, and too few
// tiles for one dense convolution to pay), f32, computed weights, groups the body takes already, and
// a target without wgmma.
// CHECK-LABEL: func.func @LeftAlone
// CHECK: groups = 64 : i64
// CHECK: groups = 37 : i64
// CHECK: groups = 8 : i64{{.+}}tensor<128x16x3x3xf32>
// CHECK: groups = 8 : i64{{.+}}tensor<128x16x3x3xf16>
// CHECK: groups = 2 : i64{{.+}}tensor<256x64x1x1xf16>
// CHECK-NOT: packed_groups
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @LeftAlone(%a: tensor<1x128x8x8xf16>, %b: tensor<1x888x8x8xf16>, %c: tensor<1x128x8x8xf32>, %wc: tensor<128x16x3x3xf16>, %d: tensor<1x128x8x8xf16>) -> (tensor<1x128x8x8xf16>, tensor<1x888x8x8xf16>, tensor<1x128x8x8xf32>, tensor<1x128x8x8xf16>, tensor<1x256x8x8xf16>) {
  %w2c = brrr.constant dense<1.0> : tensor<128x2x3x3xf16>
  %y0 = brrr.conv2d %a, %w2c {dilations = array<i64: 1, 1>, groups = 64 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x128x8x8xf16>, tensor<128x2x3x3xf16>) -> tensor<1x128x8x8xf16>
  %w37 = brrr.constant dense<1.0> : tensor<888x24x3x3xf16>
  %y1 = brrr.conv2d %b, %w37 {dilations = array<i64: 1, 1>, groups = 37 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x888x8x8xf16>, tensor<888x24x3x3xf16>) -> tensor<1x888x8x8xf16>
  %wf = brrr.constant dense<1.0> : tensor<128x16x3x3xf32>
  %y2 = brrr.conv2d %c, %wf {dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x128x8x8xf32>, tensor<128x16x3x3xf32>) -> tensor<1x128x8x8xf32>
  %y3 = brrr.conv2d %a, %wc {dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x128x8x8xf16>, tensor<128x16x3x3xf16>) -> tensor<1x128x8x8xf16>
  %w2 = brrr.constant dense<1.0> : tensor<256x64x1x1xf16>
  %y4 = brrr.conv2d %d, %w2 {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x128x8x8xf16>, tensor<256x64x1x1xf16>) -> tensor<1x256x8x8xf16>
  return %y0, %y1, %y2, %y3, %y4 : tensor<1x128x8x8xf16>, tensor<1x888x8x8xf16>, tensor<1x128x8x8xf32>, tensor<1x128x8x8xf16>, tensor<1x256x8x8xf16>
}
}

// -----

// Groups the wgmma body pads pack only where the pack's multiply-adds cost
// no more than the padding: RegNetX-8GF's 16 groups of 120 channels would
// pack all 16 into whole tiles, at 16 times the work, where padding each
// group to 128 costs 1.14 times; RegNetY's 37 groups of 24 (of which the
// padding uses 7%) would not pay packed either. ResNeXt's 4 groups of 64
// still pack in pairs (2 times the work, against padding's 2).
// CHECK-LABEL: func.func @PaddedNotPacked
// CHECK: brrr.conv2d {{.+}}brrr.groups_unpacked = "16 groups of 120 channels stay grouped on the wgmma body, which pads them: one dense convolution would do 16 times the multiply-adds, the padding 1.14 times"{{.+}}groups = 16 : i64{{.+}} : (tensor<1x1920x7x7xf16>, tensor<1920x120x3x3xf16>)
// CHECK: brrr.conv2d {{.+}}brrr.groups_unpacked = "37 groups of 24 channels stay grouped on the wgmma body, which pads them: one dense convolution would do 37 times the multiply-adds, the padding 14.22 times"{{.+}}groups = 37 : i64{{.+}} : (tensor<32x888x7x7xf16>, tensor<888x24x3x3xf16>)
// CHECK: brrr.conv2d {{.+}}groups = 2 : i64{{.+}} : (tensor<1x256x14x14xf16>, tensor<256x128x3x3xf16>)
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @PaddedNotPacked(%a: tensor<1x1920x7x7xf16>, %b: tensor<32x888x7x7xf16>, %c: tensor<1x256x14x14xf16>) -> (tensor<1x1920x7x7xf16>, tensor<32x888x7x7xf16>, tensor<1x256x14x14xf16>) {
  %w120 = brrr.constant dense<1.0> : tensor<1920x120x3x3xf16>
  %ya = brrr.conv2d %a, %w120 {dilations = array<i64: 1, 1>, groups = 16 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x1920x7x7xf16>, tensor<1920x120x3x3xf16>) -> tensor<1x1920x7x7xf16>
  %w24 = brrr.constant dense<1.0> : tensor<888x24x3x3xf16>
  %yb = brrr.conv2d %b, %w24 {dilations = array<i64: 1, 1>, groups = 37 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x888x7x7xf16>, tensor<888x24x3x3xf16>) -> tensor<32x888x7x7xf16>
  %w64 = brrr.constant dense<1.0> : tensor<256x64x3x3xf16>
  %yc = brrr.conv2d %c, %w64 {dilations = array<i64: 1, 1>, groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x256x14x14xf16>, tensor<256x64x3x3xf16>) -> tensor<1x256x14x14xf16>
  return %ya, %yb, %yc : tensor<1x1920x7x7xf16>, tensor<32x888x7x7xf16>, tensor<1x256x14x14xf16>
}
}

// -----

// CHECK-LABEL: func.func @NoWgmma
// CHECK: groups = 16 : i64
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
func.func @NoWgmma(%x: tensor<2x256x7x7xf16>) -> tensor<2x256x7x7xf16> {
  %w = brrr.constant dense<1.0> : tensor<256x16x1x1xf16>
  %y = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 16 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x256x7x7xf16>, tensor<256x16x1x1xf16>) -> tensor<2x256x7x7xf16>
  return %y : tensor<2x256x7x7xf16>
}
}
