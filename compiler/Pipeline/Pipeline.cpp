//===- Pipeline.cpp - the brrrc compilation pipeline ---------------------===//

#include "compiler/Pipeline/Pipeline.h"

#include "compiler/Artifact/ArtifactWriter.h"
#include "compiler/CodeGen/CodeGen.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

LogicalResult mlir::brrr::runCompilePipeline(ModuleOp module,
                                             const CompileOptions &options,
                                             TimingScope *timing) {
  PassManager graph(module.getContext());
  TimingScope graphTiming, codegenTiming;
  if (timing) {
    graphTiming = timing->nest("graph passes");
    graph.enableTiming(graphTiming);
  }
  // A float model's products quantized by calibration, or its activations
  // returned to be measured, on the graph as imported.
  if (options.calibrationOutputs)
    graph.nest<func::FuncOp>().addPass(createBrrrCalibrationOutputs());
  if (!options.quantize.empty()) {
    BrrrQuantizeCalibratedOptions quantize;
    quantize.precision = options.quantize;
    quantize.residuals = options.quantizeResiduals;
    graph.nest<func::FuncOp>().addPass(createBrrrQuantizeCalibrated(quantize));
  }
  // Products of dequantized operands first, as the importer wrote them;
  // the dequantizations no product claims become constants there.
  graph.nest<func::FuncOp>().addPass(createBrrrQuantizedProducts());
  graph.addPass(createCanonicalizerPass());
  // Tables computed from constants (a rotary embedding's) become constants.
  graph.nest<func::FuncOp>().addPass(createBrrrEvaluateConstants());
  graph.nest<func::FuncOp>().addPass(createBrrrDecomposeBatchNorm());
  graph.nest<func::FuncOp>().addPass(createBrrrLowerPrecision());
  graph.nest<func::FuncOp>().addPass(createBrrrPatchifyConvs());
  // After precision lowering: f32 convolutions run in f16 by then.
  BrrrPackConvGroupsOptions packGroups;
  packGroups.maxGroups = options.maxPackedGroups;
  graph.nest<func::FuncOp>().addPass(createBrrrPackConvGroups(packGroups));
  graph.nest<func::FuncOp>().addPass(createBrrrChannelsLast());
  graph.nest<func::FuncOp>().addPass(createBrrrSplitReductions());
  // One cast of a value however many products it feeds.
  graph.nest<func::FuncOp>().addPass(createCSEPass());
  // Attention is recognized before the pointwise groups split its chain.
  graph.nest<func::FuncOp>().addPass(createBrrrFuseAttention());
  // One bias for the attentions that sum the same masks (every layer of
  // MPNet adds one position bias and one padding mask).
  graph.nest<func::FuncOp>().addPass(createCSEPass());
  // Rows too long for a row kernel, outside attention, as reductions (which
  // split where they are few and huge).
  BrrrSplitReductionsOptions longRows;
  longRows.decomposeRows = true;
  graph.nest<func::FuncOp>().addPass(createBrrrSplitReductions(longRows));
  // After CSE (sibling products share one operand value) and attention
  // (what reads their slices in place).
  graph.nest<func::FuncOp>().addPass(createBrrrMergeProducts());
  // After MergeProducts (which stacks weights as they are stored) and
  // before the pointwise groups, which then see the pads it adds.
  BrrrAlignProductsOptions align;
  align.fewRowsMma = options.fewRowsMma;
  graph.nest<func::FuncOp>().addPass(createBrrrAlignProducts(align));
  graph.nest<func::FuncOp>().addPass(createBrrrFuseElementwise());
  // Products take their epilogues first: that saves the product's round
  // trip through memory, at least what a row prologue would save.
  graph.nest<func::FuncOp>().addPass(createBrrrFuseMatmul());
  graph.nest<func::FuncOp>().addPass(createBrrrFuseConv());
  graph.nest<func::FuncOp>().addPass(createBrrrFuseRows());
  graph.nest<func::FuncOp>().addPass(createBrrrFuseMovement());
  if (failed(graph.run(module)))
    return failure();
  if (failed(checkCodeGenSupport(module)))
    return failure();
  graphTiming.stop();
  PassManager codegen(module.getContext());
  if (timing) {
    codegenTiming = timing->nest("kernel passes");
    codegen.enableTiming(codegenTiming);
  }
  BrrrSelectKernelConfigOptions config;
  config.matmulTile.assign(options.matmulTile.begin(),
                           options.matmulTile.end());
  config.attentionTile.assign(options.attentionTile.begin(),
                              options.attentionTile.end());
  config.persistent = options.persistent;
  config.pingpong = options.pingpong;
  config.overlap = options.overlap;
  config.drainWarpgroup = options.drainWarpgroup;
  config.multicast = options.multicast;
  config.streamK = options.streamK;
  config.hopperAttention = options.hopperAttention;
  config.overlapAttention = options.overlapAttention;
  config.fp8FastAccumulation = options.fp8FastAccumulation;
  config.fewRowsMma = options.fewRowsMma;
  codegen.nest<func::FuncOp>().addPass(createBrrrSelectKernelConfig(config));
  codegen.nest<func::FuncOp>().addPass(createBrrrPlanSharedMemory());
  codegen.nest<func::FuncOp>().addPass(createBrrrPlanGlobalMemory());
  if (options.indexChecks)
    codegen.nest<func::FuncOp>().addPass(createBrrrCheckIndices());
  BrrrOutlineKernelsOptions outline;
  outline.programmaticLaunch = options.programmaticLaunch;
  outline.prefetchWeights = options.prefetchWeights;
  outline.earlyFitting = options.earlyFitting;
  codegen.addPass(createBrrrOutlineKernels(outline));
  return codegen.run(module);
}
