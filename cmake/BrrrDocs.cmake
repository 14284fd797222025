# The dialect's and passes' reference, generated from ODS and Passes.td by
# mlir-tblgen in every build, so that it never drifts from the code:
# build/docs/reference/NAME.md. Linked from docs/README.md.
add_custom_target(brrr-reference-docs ALL)

# brrr_reference_doc(NAME GENERATOR [ARGS...]): NAME.md from the current
# LLVM_TARGET_DEFINITIONS with mlir-tblgen GENERATOR.
function(brrr_reference_doc name generator)
  tablegen(MLIR ${name}.md ${generator} ${ARGN})
  set(out ${PROJECT_BINARY_DIR}/docs/reference/${name}.md)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E copy
            ${CMAKE_CURRENT_BINARY_DIR}/${name}.md ${out}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${name}.md)
  add_custom_target(${name}ReferenceDoc DEPENDS ${out})
  add_dependencies(brrr-reference-docs ${name}ReferenceDoc)
endfunction()
