//===- npy.h - .npy files for the C++ GPU check harnesses --------*- C++ -*-===//
//
// Reading the raw data of the .npy inputs run_checks.py writes, and writing
// outputs as .npy in the dtype the model declares (bfloat16 as raw bits:
// .npy cannot name it). Shared by cpp_run.cpp and cpp_raii_run.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_GPU_NPY_H
#define BRRR_TEST_GPU_NPY_H

#include "brrr_runtime.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace npy {

inline const char *npyDescr(brrr_dtype t) {
  switch (t) {
  case BRRR_DTYPE_F32:
    return "<f4";
  case BRRR_DTYPE_F16:
    return "<f2";
  case BRRR_DTYPE_BF16:
    return "<u2"; // raw bits; the checker reinterprets
  case BRRR_DTYPE_F64:
    return "<f8";
  case BRRR_DTYPE_I8:
    return "|i1";
  case BRRR_DTYPE_I16:
    return "<i2";
  case BRRR_DTYPE_I32:
    return "<i4";
  case BRRR_DTYPE_I64:
    return "<i8";
  case BRRR_DTYPE_U8:
    return "|u1";
  case BRRR_DTYPE_U16:
    return "<u2";
  case BRRR_DTYPE_U32:
    return "<u4";
  case BRRR_DTYPE_U64:
    return "<u8";
  case BRRR_DTYPE_BOOL:
    return "|b1";
  }
  return "?";
}

/// The raw data of a C-order .npy file (the header is trusted: our files).
inline bool readNpy(const std::string &path, std::vector<char> &data) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::string all((std::istreambuf_iterator<char>(f)),
                  std::istreambuf_iterator<char>());
  if (all.size() < 10 || all.compare(0, 6, "\x93NUMPY") != 0)
    return false;
  size_t headerLen = all[6] == 1 ? (uint8_t)all[8] | ((uint8_t)all[9] << 8) : 0;
  size_t start = all[6] == 1 ? 10 + headerLen : 0;
  if (all[6] != 1) {
    uint32_t len;
    std::memcpy(&len, all.data() + 8, 4);
    start = 12 + len;
  }
  data.assign(all.begin() + start, all.end());
  return true;
}

inline void writeNpy(const std::string &path, const brrr_tensor_info &info,
              const std::vector<char> &data) {
  std::ostringstream shape;
  shape << "(";
  for (int i = 0; i < info.rank; ++i)
    shape << info.dims[i] << (info.rank == 1 || i + 1 < info.rank ? "," : "");
  shape << ")";
  std::string header = std::string("{'descr': '") + npyDescr(info.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape.str() +
                       ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = header.size();
  f.write(reinterpret_cast<const char *>(&len), 2);
  f << header;
  f.write(data.data(), data.size());
}


/// Writes output `info` to BASE.npy, and BASE.dtype naming its element
/// type where .npy cannot (bfloat16).
inline void writeOutput(const std::string &base, const brrr_tensor_info &info,
                        const std::vector<char> &data) {
  writeNpy(base + ".npy", info, data);
  std::ofstream(base + ".dtype")
      << (info.dtype == BRRR_DTYPE_BF16 ? "bfloat16" : "");
}

} // namespace npy

#endif // BRRR_TEST_GPU_NPY_H
