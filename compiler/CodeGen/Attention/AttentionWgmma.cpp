//===- AttentionWgmma.cpp - the attention kernel's Hopper products -------===//
//
// The attention kernel's products on the wgmma body (AttentionKernel.h, a
// config whose body is `wgmma`): each warpgroup of 4 warps multiplies its
// 64 queries. The queries, keys and values sit in shared memory as
// swizzled boxes of 32, 64 or 128 bytes a row (AttentionTile::swizzleOf),
// each box's rows one after the other, where the block's cp.async copies
// put each 16-byte chunk. The scores are one chain of m64 x keys x 16
// wgmmas, the queries (A) and keys (B, read along the head) from shared
// memory; the probabilities, rounded to the operand type, are A straight
// from registers (warp by warp, wgmma's A fragments are mma.sync's, and so
// are its accumulators) for the m64 x dv x 16 wgmmas with the values (B
// read down the keys, transposed). Each warp's 16 rows of a warpgroup's
// accumulators sit as mma.sync's 16 x 8 tiles, so the masks, the online
// softmax and the store are the mma_sync body's.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Attention/AttentionKernel.h"
#include "compiler/CodeGen/Products/WgmmaBody.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention;

Value AttentionKernel::swizzledAt(Value row, Value ch, int64_t count,
                                  int64_t width) {
  int64_t sw = AttentionTile::swizzleOf(width, bytes);
  int64_t perBox = sw / 16;
  Value box = e.div(ch, perBox), inBox = e.rem(ch, perBox);
  // The swizzle XORs a row's chunk index with the bits of its offset from
  // 128 bytes up (every row for 128-byte rows, every 2nd for 64, 4th for
  // 32), within each 8-row atom.
  Value phase = e.rem(e.div(e.mul(row, sw), 128), perBox);
  Value swizzled = arith::XOrIOp::create(b, loc, inBox, phase);
  return e.add(e.mul(box, count * sw),
               e.add(e.mul(row, sw), e.mul(swizzled, 16)));
}

Value AttentionKernel::operandDescriptor(Value ptr, int64_t count,
                                         int64_t width, int64_t step,
                                         bool transposed) {
  wgmma::WgmmaBuilder w{{b, loc}};
  int64_t sw = AttentionTile::swizzleOf(width, bytes);
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  return transposed ? wgmma::mnMajorDescriptor(w, addr, count, sw, step)
                    : wgmma::kMajorDescriptor(w, addr, count, sw, step);
}

void AttentionKernel::scoresWgmma(Value kStage, SmallVectorImpl<Value> &s) {
  MLIRContext *ctx = b.getContext();
  NVVM::WGMMATypes type =
      et.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto accType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(keys / 2, f32));
  // The warpgroup's 64 queries start 64 rows into each box.
  int64_t sw = AttentionTile::swizzleOf(d, bytes);
  Value group = e.div(warp, 4);
  Value qGroup = e.gep(qSmem, i8, e.mul(group, 64 * sw));
  Value acc = LLVM::ZeroOp::create(b, loc, accType);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t ks = 0; ks < d / 16; ++ks)
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, accType, acc,
        operandDescriptor(qGroup, rows, d, ks, /*transposed=*/false),
        operandDescriptor(kStage, keys, d, ks, /*transposed=*/false),
        NVVM::MMAShapeAttr::get(ctx, 64, keys, 16), type, type,
        NVVM::WGMMATypes::f32,
        ks == 0 ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
        NVVM::MMALayout::col, nullptr);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  for (int64_t i = 0; i < keys / 2; ++i)
    s[i] = LLVM::ExtractValueOp::create(b, loc, acc, i);
}

void AttentionKernel::accumulateValuesWgmma(Value vStage,
                                            SmallVectorImpl<Value> &s,
                                            SmallVectorImpl<Value> &o) {
  MLIRContext *ctx = b.getContext();
  int64_t n = dv / 2;
  auto accType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n, f32));
  // wgmma with A from registers (the NVVM op takes A from shared memory
  // only): D, A's four registers, B's descriptor and scale-d as operands,
  // the accumulators tied to the results.
  StringRef t = et.isBF16() ? "bf16" : "f16";
  std::string text =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(2 * n + 5) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(dv) +
      "k16.f32." + t.str() + "." + t.str() + " {";
  SmallVector<std::string> names, constraints;
  for (int64_t i = 0; i < n; ++i) {
    names.push_back("$" + std::to_string(i));
    constraints.push_back("=f");
  }
  text += llvm::join(names, ", ") + "}, {$" + std::to_string(2 * n) + ", $" +
          std::to_string(2 * n + 1) + ", $" + std::to_string(2 * n + 2) +
          ", $" + std::to_string(2 * n + 3) + "}, $" +
          std::to_string(2 * n + 4) + ", p, 1, 1, 1;\n}";
  for (int64_t i = 0; i < n; ++i)
    constraints.push_back(std::to_string(i));
  llvm::append_range(constraints,
                     SmallVector<std::string>{"r", "r", "r", "r", "l", "r"});
  std::string constraintText = llvm::join(constraints, ",");
  auto asI32 = [&](Value pair) {
    return pair.getType() == i32
               ? pair
               : Value(LLVM::BitcastOp::create(b, loc, i32, pair));
  };
  // Every A register is written before the fence: one written between
  // two wgmmas of the chain makes ptxas wait for the first.
  SmallVector<Value> a;
  for (int64_t kk = 0; kk < keys / 16; ++kk) {
    MutableArrayRef<Value> lo = sTile(s, 0, 2 * kk),
                           hi = sTile(s, 0, 2 * kk + 1);
    for (Value pair : {pack(lo[0], lo[1]), pack(lo[2], lo[3]),
                       pack(hi[0], hi[1]), pack(hi[2], hi[3])})
      a.push_back(asI32(pair));
  }
  SmallVector<Value> acc(o.begin(), o.begin() + n);
  Value one = arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t kk = 0; kk < keys / 16; ++kk) {
    SmallVector<Value> operands(acc);
    llvm::append_range(operands, ArrayRef<Value>(a).slice(4 * kk, 4));
    operands.push_back(
        operandDescriptor(vStage, keys, dv, kk, /*transposed=*/true));
    operands.push_back(one);
    auto mma = LLVM::InlineAsmOp::create(
        b, loc, accType, operands, text, constraintText,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
    for (int64_t i = 0; i < n; ++i)
      acc[i] = LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), i);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  llvm::copy(acc, o.begin());
}
