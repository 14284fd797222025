// The README's C++ quickstart, whole: runs the model linked into this
// program once on inputs of ones and prints each output's first values.
//
//   brrrc examples/cnn_block.onnx -o model.so
//   g++ -std=c++17 -I"$(python3 -c 'import brrr; print(brrr.include_dir())')" \
//       examples/quickstart.cpp model.so -Wl,-rpath,"$PWD" -o quickstart
//   ./quickstart
#include "brrr_runtime.hpp"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

int main() {
  auto model = brrr::Model::open(/*device=*/0); // the model linked in
  if (!model) {
    std::cerr << model.error().message << "\n";
    return 1;
  }
  auto ctx = model->createContext(); // the first run captures a CUDA graph
  if (!ctx) {
    std::cerr << ctx.error().message << "\n";
    return 1;
  }
  // Host buffers of each tensor's size; f32 inputs of ones, other types 0.
  std::vector<std::vector<uint8_t>> ins, outs;
  for (const brrr_tensor_info &t : model->inputs()) {
    ins.emplace_back(t.size_bytes, 0);
    if (t.dtype == BRRR_DTYPE_F32) {
      const float one = 1.0f;
      for (uint64_t i = 0; i + sizeof one <= t.size_bytes; i += sizeof one)
        std::memcpy(ins.back().data() + i, &one, sizeof one);
    }
  }
  for (const brrr_tensor_info &t : model->outputs())
    outs.emplace_back(t.size_bytes, 0);
  std::vector<const void *> in;
  std::vector<void *> out;
  for (auto &b : ins)
    in.push_back(b.data());
  for (auto &b : outs)
    out.push_back(b.data());
  if (brrr::Error e = ctx->runHost(in, out)) {
    std::cerr << e.message << "\n";
    return 1;
  }
  std::vector<brrr_tensor_info> outputs = model->outputs();
  for (size_t k = 0; k < outputs.size(); ++k) {
    std::cout << outputs[k].name << ":";
    if (outputs[k].dtype == BRRR_DTYPE_F32) {
      const float *y = reinterpret_cast<const float *>(outs[k].data());
      for (uint64_t i = 0; i < 4 && i < outputs[k].size_bytes / 4; ++i)
        std::cout << " " << y[i];
    }
    std::cout << "\n";
  }
  return 0;
}
