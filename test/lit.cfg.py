# lit configuration for brrr: dialect and pass tests (.mlir), importer tests
# written in the ONNX text syntax (.onnxtext), and tool/script tests (.test).

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "brrr"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".onnxtext", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.brrr_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["brrr-opt", "brrrc", "brrr-unit-tests", "brrr-test-artifact"],
    [config.brrr_tools_dir])
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%onnx_testdata", config.onnx_testdata_dir))
config.substitutions.append(("%brrr_src", config.brrr_src_root))
config.substitutions.append(("%brrr_obj", config.brrr_obj_root))
config.substitutions.append(
    ("%brrrc_path", os.path.join(config.brrr_tools_dir, "brrrc")))
# The runtime's stand-in model.so and the fake CUDA driver (test/runtime).
config.substitutions.append(
    ("%brrr_test_model",
     os.path.join(config.brrr_obj_root, "lib", "libbrrr-test-model.so")))
config.substitutions.append(
    ("%brrr_test_gather_model",
     os.path.join(config.brrr_obj_root, "lib", "libbrrr-test-gather-model.so")))
config.substitutions.append(
    ("%brrr_test_symbolic_model",
     os.path.join(config.brrr_obj_root, "lib",
                  "libbrrr-test-symbolic-model.so")))
config.substitutions.append(
    ("%brrr_fake_cuda",
     os.path.join(config.brrr_obj_root, "lib", "libbrrr-fake-cuda.so")))

# ptxas from the CUDA toolkit validates emitted PTX.
config.substitutions.append(
    ("%ptxas", os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                            "bin", "ptxas")))
config.substitutions.append(
    ("%cuda_home", os.environ.get("CUDA_HOME", "/usr/local/cuda")))
