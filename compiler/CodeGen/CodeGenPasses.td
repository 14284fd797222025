//===- CodeGenPasses.td - brrr code generation passes ---------*- tablegen -*-===//

#ifndef BRRR_CODEGEN_PASSES_TD
#define BRRR_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def BrrrOutlineKernels : Pass<"brrr-outline-kernels", "ModuleOp"> {
  let summary = "Generate a gpu.func for every distinct brrr.fusion";
  let description = [{
    Creates the `gpu.module @brrr_kernels` of the module and, for every
    `brrr.fusion` of `@main` in program order, a kernel from the fusion's
    kernel family. The fusion records what the launch plan needs:
    `brrr.kernel` (the gpu.func name), `brrr.grid` and `brrr.block`
    (x, y, z), and the roofline data `brrr.flops` and `brrr.bytes`.
    A kernel over symbolic extents counts those at the largest shape and
    also records `brrr.roofline_extents`, a map of the module's symbols to
    (flops, bytes) at any shape (KernelCost.h), which `brrrc --report
    --shape` and the runtime evaluate.
    A fusion whose family has no generator is an error on that fusion.
    Kernels that are the same code, attributes included, but for their
    names (a model's repeated layers) are kept once: the later ones are
    erased and their fusions' `brrr.kernel` names the first, so that LLVM
    and ptxas compile each distinct kernel once.

    On a module whose `#brrr.target` has `grid_dependency` (sm_90a; with
    `programmatic-launch`, the default), kernels may overlap the kernel
    ahead of them. Every kernel
    begins with `nvvm.griddepcontrol launch_dependents`: the next kernel
    may launch once every block of this one has started. A kernel whose
    blocks each take a whole multiprocessor (the wgmma body's registers,
    or over half its shared memory), of one wave, after a kernel of one
    wave, also waits there, `nvvm.griddepcontrol wait`, until the kernel
    ahead has finished and its writes are visible, and its fusion records
    `brrr.programmatic`: the runtime launches it as a programmatic
    dependent, its blocks placed during the previous kernel's last wave
    instead of after it. Other kernels launch normally: placed early, a
    kernel that stacks several blocks on a multiprocessor crowds onto the
    ones the running kernel leaves idle.

    `prefetch-weights` (auto by default) has a kernel that launches early
    and loads constant weights before anything an earlier kernel wrote
    (KernelInfo::independentThrough: the few-rows bodies' first weight
    vectors; the wgmma body, whose fusion is marked
    `brrr.weights_before_wait` while it is emitted where it may launch
    early, copies B of its first k-slices before their A) wait after those
    loads instead of at its start, so that they overlap the kernel ahead.
    With `always`, few-rows products of one wave after a kernel of one
    wave launch early too; with `never`, every kernel waits at its start.

    With `early-fitting`, a kernel whose blocks may share a
    multiprocessor (a row or pointwise kernel, attention) launches early
    too, waiting at its start, where it and the kernel before it are one
    wave and the two grids' blocks together are no more than the
    multiprocessors: there is a multiprocessor the kernel ahead leaves idle
    for each of its blocks. A grid read at run time is marked
    `brrr.programmatic_fitting` instead, and the runtime applies that rule
    at each shape.
  }];
  let options = [
    Option<"programmaticLaunch", "programmatic-launch", "bool", "true",
           "On sm_90a, launch kernels as programmatic dependents of the "
           "kernel before them where that pays (griddepcontrol)">,
    Option<"prefetchWeights", "prefetch-weights", "std::string",
           /*default=*/"\"auto\"",
           "With programmatic-launch, where kernels load constant weights "
           "before they wait for the kernel ahead: auto (a kernel launched "
           "early waits after its first weight loads, and Hopper products "
           "that may launch early copy their first slices' weights first), "
           "always (also launch few-rows products of one wave after a "
           "kernel of one wave early, their blocks stacking or not) or never">,
    Option<"earlyFitting", "early-fitting", "bool", "true",
           "With programmatic-launch, also launch early a kernel whose "
           "blocks may share a multiprocessor, of one wave after a kernel "
           "of one wave, where the two grids' blocks together fit the "
           "multiprocessors">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect"
  ];
}

#endif // BRRR_CODEGEN_PASSES_TD
