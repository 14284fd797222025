//===- AttentionKernel.h - the attention kernel, shared by its parts ---===//
//
// The emitter of the attention family's kernel (AttentionKernel.cpp: its
// copies, key-block loop and online softmax) and of the store of its
// normalized rows (AttentionStore.cpp). Private to the family.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_ATTENTION_ATTENTIONKERNEL_H
#define BRRR_COMPILER_CODEGEN_ATTENTION_ATTENTIONKERNEL_H

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "passes/Config/Attention.h"
#include "passes/Config/Products.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::brrr::attention {

/// Index and f32 arithmetic plus the NVVM pieces the kernel uses.
struct AttentionBuilder : StagedMath {
  using StagedMath::minu;
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32Type(),
                                     b.getF32FloatAttr(v));
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fmax(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  /// ex2.approx.ftz: one instruction, where math.exp2's ex2.approx.f32
  /// takes a subnormal path. The softmax's exponents are at most 0, and a
  /// weight below 2^-126 of the row's largest adds nothing its sum or the
  /// 16-bit values could hold.
  Value exp2(Value x) {
    return pointwise::approxFtz(b, loc, "llvm.nvvm.ex2.approx.ftz.f", x);
  }
  Value feq(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  }
  Value fle(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, y);
  }
  Value ugt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, x, y);
  }
  Value uge(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, x, idx(c));
  }
  /// `v` combined with its values in the lanes `offset` away (xor).
  Value shuffleXor(Value v, int32_t offset) {
    return gpu::ShuffleOp::create(b, loc, v, offset, 32, gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
};

/// A size or stride of the kernel: a constant, or over symbolic sequences
/// one of the kernel's i64 parameters (`scalar`, an index into
/// KernelInfo::scalars), which the runtime evaluates at each shape.
struct Extent {
  int64_t value = 0;
  int scalar = -1;
  bool isStatic() const { return scalar < 0; }
};

/// The geometry of an attention over symbolic sequences, read from the
/// symbolic types before they are narrowed to the largest shape: the
/// extents, and the strides and offsets the operands are read and the
/// output written through.
struct SymbolicGeometry {
  AffineExpr batch, sq, sk;
  SymbolicLayout q, k, v;
  /// The bias's strides as biasStrides orders them (0 where it broadcasts).
  SmallVector<ExtentProduct> bias;
  /// The output's strides per attention dimension (PlainStore::strides).
  SmallVector<ExtentProduct> out;
};

/// How an attention kernel whose epilogue only rounds and permutes its
/// output stores it: the float types it casts through, in order, the
/// quantize to 8 bits by constants it ends with, if any, and the element
/// strides of its one output per attention dimension (the head kept
/// contiguous).
struct PlainStore {
  SmallVector<Type> casts;
  QuantizeOp quantize;
  SmallVector<int64_t> strides;
};

/// The plain store of `fusion` around `att`, or none: after the attention
/// only float casts, then at most a quantize by a constant scale and zero
/// point (a product's 8-bit input), then at most a yielded transpose that
/// keeps the head innermost, and one output.
std::optional<PlainStore> plainStoreOf(FusionOp fusion, AttentionOp att);

/// One attention kernel being emitted. The state its parts share lives
/// here, and each part is a function of its own, in the order the kernel
/// runs them: the queries' and first key blocks' copies, the key-block
/// loop (scores, masks, the online softmax, the product with the values)
/// and the store of the normalized rows. The parts create their IR in that
/// order too.
class AttentionKernel {
public:
  AttentionKernel(FusionOp fusion, AttentionOp att, OpBuilder &moduleBuilder,
                  const SymbolicGeometry *symbolic)
      : fusion(fusion), att(att), moduleBuilder(moduleBuilder),
        loc(fusion.getLoc()), b(fusion.getContext()), e{{b, loc}},
        symbolic(symbolic) {}

  FailureOr<KernelInfo> emit(StringRef name);

private:
  /// Checks the fusion, its config and plan against what the kernel
  /// supports, and reads the geometry.
  LogicalResult readConfig();
  /// The kernel function and the values every part uses: thread, block and
  /// head ids, and the heads' bases in global memory.
  void createFunction(StringRef name);
  /// One past the last key block this query block visits: all, or with
  /// `causal` those holding a key j <= i + sk - sq for its last query i.
  Value keyBlocksEnd();
  /// The queries' copy and the first `stages` - 1 key and value blocks' (of
  /// `blocks` over the whole sequence).
  void copyFirstBlocks(Value blocks);
  /// One 16-byte cp.async per chunk; chunks past the sequence read nothing
  /// (source size 0) and leave zeros, from a clamped in-bounds address.
  void copyRows(Value dst, Value base, int64_t count, int64_t width, Value r0,
                Extent limit, Extent rowStride);
  /// `p` as an Extent: its value, or the kernel parameter that holds it.
  Extent extentOf(const ExtentProduct &p);
  /// The value of `x` in the kernel.
  Value valueOf(Extent x) {
    return x.isStatic() ? e.idx(x.value) : params[x.scalar];
  }
  /// v * x (v itself for a static 1).
  Value mul(Value v, Extent x) {
    return x.isStatic() ? e.mul(v, x.value)
                        : Value(arith::MulIOp::create(b, loc, v, valueOf(x)));
  }
  /// v < x, unsigned.
  Value ult(Value v, Extent x) {
    return x.isStatic()
               ? e.ult(v, x.value)
               : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             v, valueOf(x)));
  }
  /// min(v, x - 1), unsigned.
  Value below(Value v, Extent x) {
    return x.isStatic()
               ? e.minu(v, x.value - 1)
               : e.minu(v, arith::SubIOp::create(b, loc, valueOf(x), e.idx(1)));
  }
  void loadKeys(Value stage, Value block);
  Value stageAt(ArrayRef<int64_t> offsets, Value s) {
    return e.gep(smem, i8, e.stageOffset(offsets, s));
  }
  /// Query fragments of m-tile `mi`, k-step `ks` (of f32 operands: four
  /// big tf32 halves, then the four small ones, splitTf32).
  SmallVector<Value> loadQuery(int64_t mi, int64_t ks);
  /// An f32 element of a staged tile, split into its two tf32 halves.
  std::pair<Value, Value> loadSplit(Value tile, int64_t width, Value row,
                                    Value col);
  /// The row pitch (elements) of staged rows of `width` operand elements.
  int64_t pitchOf(int64_t width) const {
    return AttentionTile::pitch(width, bytes);
  }
  /// Strides of the bias (before the function is made: they may be
  /// parameters).
  void readBiasStrides();
  /// The bias's offset for the block's (batch, head).
  void readBias();
  /// The loop over key blocks `[0, end)`; its results are the output
  /// accumulators, then the rows' maxima and sums.
  scf::ForOp keyBlockLoop(Value end);
  /// That state before any key block: per m-tile the output accumulators
  /// (zero), then the two rows' running maxima (-inf) and sums (zero).
  SmallVector<Value> initialState() {
    SmallVector<Value> state(mTiles * oRegs, zero);
    state.append(2 * mTiles, negInf);
    state.append(2 * mTiles, zero);
    return state;
  }
  /// The accumulators, maxima and sums at the front of `state` (what
  /// follows them is left).
  void splitState(ValueRange state, SmallVectorImpl<Value> &o,
                  SmallVectorImpl<Value> &m, SmallVectorImpl<Value> &l) {
    o.assign(state.begin(), state.begin() + mTiles * oRegs);
    ValueRange rest = state.drop_front(mTiles * oRegs);
    m.assign(rest.begin(), rest.begin() + 2 * mTiles);
    l.assign(rest.begin() + 2 * mTiles, rest.begin() + 4 * mTiles);
  }
  /// The scores of the warp's queries against the key block in `kStage`.
  void scores(Value kStage, SmallVectorImpl<Value> &s);
  /// The same for f32 operands: three tf32 products a step.
  void scoresF32(Value kStage, SmallVectorImpl<Value> &s);
  /// The same on the wgmma body (AttentionWgmma.cpp): the warpgroup's 64
  /// queries x `keys` keys, each warp's 16 rows left in `s` as mma.sync's
  /// 16 x 8 tiles.
  void scoresWgmma(Value kStage, SmallVectorImpl<Value> &s);
  /// The scores' chain of wgmmas against the keys in `kStage`, issued (the
  /// caller fences before and commits after); its accumulators.
  Value issueScoresWgmma(Value kStage);
  /// The scores of a waited-for chain's accumulators `acc` into `s`.
  void extractScores(Value acc, SmallVectorImpl<Value> &s);
  /// The probabilities in `s` rounded to the operand type, packed two to a
  /// register: keys/16 groups of wgmma's four A registers.
  SmallVector<Value> packProbabilities(SmallVectorImpl<Value> &s);
  /// The chain of wgmmas adding the probabilities `a` (packed) times the
  /// values in `vStage` to `o`, issued (the caller fences before, commits
  /// after and waits before reading `o`).
  void issueValuesWgmma(Value vStage, ArrayRef<Value> a,
                        SmallVectorImpl<Value> &o);
  /// Registers a wgmma wrote, tied through an empty asm after the wait for
  /// it, so that nothing reading them moves above the wait.
  void fenceOperands(SmallVectorImpl<Value> &regs);
  /// The overlapped schedule's key blocks (AttentionTile::overlapped):
  /// block 0's scores and softmax, then for each next block j its scores
  /// issued, block j - 1's values issued, the scores waited for and their
  /// softmax run while the values' product runs, the output rescaled once
  /// that is done; then the last block's values. The results are
  /// keyBlockLoop's (the initial state where no block is visited).
  SmallVector<Value> overlappedKeyBlocks(Value end);
  /// The byte offset, in a wgmma operand's buffer of `count` rows of
  /// `width` elements, of row `row`'s 16-byte chunk `ch`: swizzled boxes
  /// (AttentionTile::swizzleOf), each box's rows one after the other.
  Value swizzledAt(Value row, Value ch, int64_t count, int64_t width);
  /// A wgmma descriptor of the slice of a swizzled buffer at `ptr` that
  /// step `step` (16 elements deep) reads: of `count` rows of `width`
  /// read along the rows (queries, keys), or, `transposed`, of `count`
  /// rows read down them (values, `count` keys deep).
  Value operandDescriptor(Value ptr, int64_t count, int64_t width, int64_t step,
                          bool transposed);
  /// Into the log2 domain, with the bias and the masks.
  void scaleAndMask(Value j, SmallVectorImpl<Value> &s);
  /// Online softmax: each row's new maximum (over the quad of lanes that
  /// share it), the factor that rescales what came before, and the
  /// probabilities. With `alphas`, the factors (row r of m-tile mi at
  /// 2 mi + r) are left there and `o` is left as it is.
  void onlineSoftmax(SmallVectorImpl<Value> &s, SmallVectorImpl<Value> &o,
                     SmallVectorImpl<Value> &m, SmallVectorImpl<Value> &l,
                     SmallVectorImpl<Value> *alphas = nullptr);
  /// Output += P V: score tiles 2kk and 2kk + 1 are the A fragment of keys
  /// kk*16 .. kk*16 + 15.
  void accumulateValues(Value vStage, SmallVectorImpl<Value> &s,
                        SmallVectorImpl<Value> &o);
  /// The same on the wgmma body: the probabilities, rounded, as A from
  /// registers (wgmma's A fragments are mma.sync's, warp by warp).
  void accumulateValuesWgmma(Value vStage, SmallVectorImpl<Value> &s,
                             SmallVectorImpl<Value> &o);
  /// The same for f32 operands, the probabilities unrounded: score tile kk
  /// is the A fragment of keys kk*8 .. kk*8 + 7, its columns 2t and 2t + 1
  /// (each lane's own accumulators) taken as A's columns t and t + 4, and
  /// the value rows read in that order.
  void accumulateValuesF32(Value vStage, SmallVectorImpl<Value> &s,
                           SmallVectorImpl<Value> &o);
  /// Each row divided by its sum, through the fusion's epilogue, from the
  /// key blocks' `results` (keyBlockLoop's).
  LogicalResult storeRows(ValueRange results);
  /// The general epilogue, one element at a time.
  LogicalResult
  storeElements(function_ref<Value(int64_t, int64_t, int64_t)> finalValue);
  /// A plain store: rounded through the kernel's casts into the warp's rows
  /// of the staging buffer (over the key and value buffers: every warp must
  /// be done with them), then stored as 16-byte chunks along the head.
  LogicalResult
  storeStaged(const PlainStore &plain,
              function_ref<Value(int64_t, int64_t, int64_t)> finalValue);

  MutableArrayRef<Value> sTile(SmallVectorImpl<Value> &s, int64_t mi,
                               int64_t nt) {
    return MutableArrayRef<Value>(s.data() + (mi * nTiles + nt) * 4, 4);
  }
  Value operand(Value reg) { return e.mmaOperand(reg, et); }
  /// Two probabilities rounded to a register as mma.sync takes it.
  Value pack(Value lo, Value hi);
  void mma(ArrayRef<Value> a, ArrayRef<Value> bRegs, MutableArrayRef<Value> c) {
    e.mma16816(a, bRegs, c, et);
  }
  /// Accumulator i of a 16 x 8 tile sits at row g (+8 for i >= 2), column
  /// 2t (+1 for odd i): the thread's rows in m-tile mi are g and g + 8.
  Value rowOf(int64_t mi, int64_t r) {
    return e.add(q0, e.add(warpRow0, e.add(g, e.idx(mi * 16 + r * 8))));
  }
  Value arg(Value v) { return kernelArgument(*entry, v); }

  FusionOp fusion;
  AttentionOp att;
  OpBuilder &moduleBuilder;
  Location loc;
  OpBuilder b;
  AttentionBuilder e;

  // The geometry, from the config and the attention's shapes.
  std::optional<AttentionTile> tile;
  Type et;
  /// The operands' element bytes, and their elements a 16-byte chunk.
  int64_t bytes = 2, chunk = 8;
  OperandLayout ql, kl, vl;
  /// Each operand's offset and strides (batch, head, row), and the output's
  /// strides per dimension, as Extents.
  struct Read {
    Extent offset;
    SmallVector<Extent, 3> strides;
  } qr, kr, vr;
  SmallVector<Extent> outStrides;
  int64_t batch = 0, heads = 0, d = 0, kvHeads = 0, dv = 0;
  /// The sequences: the largest shape's, with their extents (equal to them
  /// when static).
  int64_t sqMax = 0, skMax = 0;
  Extent sq, sk;
  int64_t rows = 0, keys = 0, stages = 0, threads = 0;
  /// Each warp takes `mTiles` tiles of 16 queries, so that one key or value
  /// fragment read from shared memory feeds mTiles products.
  int64_t mTiles = 0, warpRows = 0;
  int64_t nTiles = 0, oTiles = 0, oRegs = 0;
  /// Query fragments stay in registers when they take at most 32 of them,
  /// else they are read again at each use (the mma_sync body).
  bool queryInRegisters = false;
  /// The wgmma body: each warpgroup's products by wgmma from swizzled
  /// shared rows.
  bool wgmma = false;
  /// The overlapped schedule, and how many key blocks ahead a block is
  /// copied (AttentionTile::lead).
  bool overlapped = false;
  int64_t lead = 1;
  unsigned numInputs = 0;
  int64_t qOffset = 0;
  SmallVector<int64_t> kOffsets, vOffsets;
  /// Strides of [batch / period, batch % period, head, row, column] in the
  /// bias (0 where it broadcasts); a bias of rank 5 has a period.
  SmallVector<Extent> biasStrides;
  int64_t period = 1;
  const SymbolicGeometry *symbolic;
  /// The expressions of the kernel's i64 parameters, in order, and their
  /// values in the kernel.
  SmallVector<AffineExpr> scalars;
  SmallVector<Value> params;

  // Values of the kernel being built.
  Block *entry = nullptr;
  Type i8, i32, f32;
  Value smem, tid, lane, warp, g, t2, q0, h, bz, hk, qBase, kBase, vBase;
  Value qSmem;
  Value laneRow, laneHalf, warpRow0;
  Value scaleLog2, negInf, zero, biasHead;
  SmallVector<SmallVector<SmallVector<Value>>> qFrag;
};

inline constexpr double kLog2e = 1.4426950408889634;
/// The lowest score, in the log2 domain, that a finite bias leaves: far
/// below any score (exp2 of its difference from one is 0), far above f32's
/// overflow.
inline constexpr double kMaskFloor = -1e30;

} // namespace mlir::brrr::attention

#endif // BRRR_COMPILER_CODEGEN_ATTENTION_ATTENTIONKERNEL_H
