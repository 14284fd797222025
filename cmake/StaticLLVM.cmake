# Links brrr's binaries against LLVM's static component libraries instead of
# Debian's libLLVM.so (about 120 MB), for the relocatable bundle
# (scripts/package.sh): only the objects brrrc references get linked.
#
# MLIR's exported static libraries name their LLVM dependency as the single
# imported target `LLVM`; this points that target at the static components
# brrr needs. Their own system dependencies (zlib, zstd, z3) stay shared and
# are linked --as-needed, so only those actually referenced are kept.

set(BRRR_LLVM_COMPONENTS
  Analysis AsmParser BinaryFormat BitReader BitWriter CodeGen Core
  FrontendOffloading FrontendOpenMP IPO IRPrinter IRReader Instrumentation
  Linker MC NVPTXCodeGen NVPTXDesc NVPTXInfo Object Passes Support Target
  TargetParser TransformUtils)
llvm_map_components_to_libnames(brrr_llvm_static_libs ${BRRR_LLVM_COMPONENTS})

# LLVMSupport's link interface names these targets; Debian's runtime
# libraries suffice (no -dev packages).
if(NOT TARGET ZLIB::ZLIB)
  find_package(ZLIB REQUIRED)
endif()
if(NOT TARGET zstd::libzstd_shared)
  find_library(BRRR_ZSTD_LIBRARY NAMES zstd libzstd.so.1 REQUIRED)
  add_library(zstd::libzstd_shared SHARED IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES
                        IMPORTED_LOCATION "${BRRR_ZSTD_LIBRARY}")
endif()

foreach(config IN ITEMS "" _RELEASE _RELWITHDEBINFO _DEBUG _MINSIZEREL)
  set_property(TARGET LLVM PROPERTY IMPORTED_LOCATION${config}
               "${LLVM_LIBRARY_DIR}/libLLVMSupport.a")
  set_property(TARGET LLVM PROPERTY IMPORTED_SONAME${config} "")
endforeach()
set_property(TARGET LLVM PROPERTY INTERFACE_LINK_LIBRARIES
             ${brrr_llvm_static_libs})
add_link_options(LINKER:--as-needed)
message(STATUS "Linking LLVM statically: ${BRRR_LLVM_COMPONENTS}")
