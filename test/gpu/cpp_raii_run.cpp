//===- cpp_raii_run.cpp - run a linked model.so through brrr_runtime.hpp -===//
//
// The C++ path a user takes: link the model library, include the RAII
// header, open the embedded model. Same command line and files as cpp_run
// (run_checks.py runs it where a case directory holds one), so the bundled
// examples are checked through brrr::Model / brrr::Context too.
//
// Build: g++ -O2 -std=c++17 -I runtime -I test/gpu cpp_raii_run.cpp \
//          DIR/model.so -Wl,-rpath,DIR -o DIR/raii_run
// Usage: raii_run MODEL.so OUT_DIR IN_0.npy ...   (MODEL.so: the linked one)
//
//===----------------------------------------------------------------------===//

#include "brrr_runtime.hpp"
#include "npy.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: raii_run MODEL.so OUT_DIR IN.npy...\n");
    return 2;
  }
  brrr::Result<brrr::Model> model = brrr::Model::open(/*device=*/0);
  if (!model) {
    std::fprintf(stderr, "open: %s\n", model.error().message.c_str());
    return 1;
  }
  brrr::Result<brrr::Context> ctx = model->createContext();
  if (!ctx) {
    std::fprintf(stderr, "context: %s\n", ctx.error().message.c_str());
    return 1;
  }
  std::vector<brrr_tensor_info> inputs = model->inputs();
  std::vector<brrr_tensor_info> outputs = model->outputs();
  std::vector<std::vector<char>> inData(inputs.size()), outData(outputs.size());
  std::vector<const void *> ins;
  std::vector<void *> outs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (3 + i >= size_t(argc) || !npy::readNpy(argv[3 + i], inData[i]) ||
        inData[i].size() != inputs[i].size_bytes) {
      std::fprintf(stderr, "input %zu (%s): bad or missing .npy\n", i,
                   inputs[i].name);
      return 1;
    }
    ins.push_back(inData[i].data());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    outData[i].assign(outputs[i].size_bytes, static_cast<char>(0xff));
    outs.push_back(outData[i].data());
  }
  // Twice: the first run captures the CUDA graph, the second replays it
  // into freshly poisoned outputs.
  for (int run = 0; run < 2; ++run) {
    for (std::vector<char> &o : outData)
      std::fill(o.begin(), o.end(), static_cast<char>(0xff));
    if (brrr::Error e = ctx->runHost(ins, outs)) {
      std::fprintf(stderr, "run: %s\n", e.message.c_str());
      return 1;
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    npy::writeOutput(std::string(argv[2]) + "/out_" + std::to_string(i),
                     outputs[i], outData[i]);
  return 0;
}
