//===- TensorMaps.cpp - encode a context's TMA tensor maps ----------------===//
//
// See TensorMaps.h. The artifact's maps were validated when the model was
// opened (mode, rank, extents, strides, box or im2col corners, element
// strides, swizzle and the map's reach inside its tensor), so encoding only
// adds the address and the choices the artifact format fixes: no
// interleave, 256-byte L2 promotion, and zeros for elements outside the map
// (which is also what an im2col map reads in a convolution's padding).
//
//===----------------------------------------------------------------------===//

#include "runtime/TensorMaps.h"

#include <cstdio>
#include <optional>

namespace brrr::runtime {
namespace {

using artifact::Artifact;
using artifact::Storage;

/// The driver's requirement on a tensor map's global address.
constexpr uint64_t kMapAddressAlignment = 16;
constexpr size_t kMaxRank = 5;

CUtensorMapSwizzle swizzleOf(uint32_t bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/// "tensor map 1 of kernel 'fusion_3' (launch 2)".
std::string mapLabel(const Artifact &a, size_t launch, size_t map) {
  return "tensor map " + std::to_string(map) + " of kernel '" +
         a.kernels[a.launches[launch].kernel].name + "' (launch " +
         std::to_string(launch) + ")";
}

/// Encodes map `index` of launch `launch` with element 0 at `address`.
brrr_status encode(brrr_context &c, size_t launch, size_t index,
                   CUdeviceptr address) {
  const Artifact &a = c.model->art;
  const artifact::TensorMap &m = a.launches[launch].maps[index];
  const CudaDriver &cu = *c.cuda;
  cuuint64_t dims[kMaxRank], strides[kMaxRank];
  cuuint32_t box[kMaxRank], elementStrides[kMaxRank];
  cuuint32_t rank = cuuint32_t(m.dims.size());
  for (cuuint32_t d = 0; d < rank; ++d) {
    // A symbolic extent at the bound shapes (encodeShapedTensorMaps checked
    // it).
    dims[d] = m.dimExprs.empty() || m.dimExprs[d] == -1
                  ? m.dims[d]
                  : uint64_t(c.exprValues[size_t(m.dimExprs[d])]);
    elementStrides[d] = m.elementStrides.empty() ? 1 : m.elementStrides[d];
    if (d + 1 < rank)
      strides[d] = m.strides[d];
  }
  CUtensorMap *map = &c.maps[c.firstMap[launch] + index];
  CUtensorMapDataType type = tensorMapDataType(a.tensors[m.tensor].dtype);
  void *base = reinterpret_cast<void *>(uintptr_t(address));
  if (m.mode == artifact::TensorMapMode::Im2col) {
    int lower[kMaxRank], upper[kMaxRank];
    for (size_t d = 0; d < m.lowerCorner.size(); ++d) {
      lower[d] = m.lowerCorner[d];
      upper[d] = m.upperCorner[d];
    }
    BRRR_CU(cu,
            cu.cuTensorMapEncodeIm2col(
                map, type, rank, base, dims, strides, lower, upper,
                m.channelsPerPixel, m.pixelsPerColumn, elementStrides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, swizzleOf(m.swizzle),
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            "encoding " + mapLabel(a, launch, index));
    return BRRR_OK;
  }
  for (cuuint32_t d = 0; d < rank; ++d)
    box[d] = m.box[d];
  BRRR_CU(cu,
          cu.cuTensorMapEncodeTiled(
              map, type, rank, base, dims, strides, box, elementStrides,
              CU_TENSOR_MAP_INTERLEAVE_NONE, swizzleOf(m.swizzle),
              CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "encoding " + mapLabel(a, launch, index));
  return BRRR_OK;
}

/// The address of element 0 of map `m` where it lies in the weights or the
/// arena, fixed for the context's life; nullopt for a map over a caller's
/// buffer.
std::optional<CUdeviceptr> fixedAddress(const brrr_context &c,
                                        const artifact::TensorMap &m) {
  const artifact::Tensor &t = c.model->art.tensors[m.tensor];
  if (t.storage == Storage::Weight)
    return c.model->weights + t.offset + m.offset;
  if (t.storage == Storage::Arena)
    return c.arena + t.offset + m.offset;
  return std::nullopt;
}

std::string hexAddress(const void *p) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%p", p);
  return buf;
}

} // namespace

CUtensorMapDataType tensorMapDataType(artifact::DType t) {
  using artifact::DType;
  switch (t) {
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case DType::U32:
    return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  case DType::U64:
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  case DType::I16:
  case DType::U16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

brrr_status checkTensorMapSupport(const brrr_model &m) {
  const CudaDriver &cu = *m.cuda;
  for (const artifact::Launch &l : m.art.launches)
    for (const artifact::TensorMap &map : l.maps) {
      bool im2col = map.mode == artifact::TensorMapMode::Im2col;
      if (im2col ? bool(cu.cuTensorMapEncodeIm2col)
                 : bool(cu.cuTensorMapEncodeTiled))
        continue;
      return fail(
          BRRR_ERROR_NO_DRIVER,
          "kernel '" + m.art.kernels[l.kernel].name +
              "' reads its operands through TMA " + (im2col ? "im2col " : "") +
              "tensor maps, but the CUDA driver '" + cu.path + "' (version " +
              std::to_string(cu.version / 1000) + "." +
              std::to_string(cu.version % 1000 / 10) + ") lacks " +
              (im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled") +
              "; a CUDA 12.0 or newer driver is needed");
    }
  return BRRR_OK;
}

void resolveTensorMaps(brrr_context &c) {
  const Artifact &a = c.model->art;
  size_t total = 0;
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const artifact::Launch &l = a.launches[i];
    c.firstMap.push_back(total);
    for (size_t k = 0; k < l.maps.size(); ++k) {
      const artifact::Tensor &t = a.tensors[l.maps[k].tensor];
      if (t.storage == Storage::Input || t.storage == Storage::Output)
        c.mapPatches.push_back({uint32_t(i), uint32_t(k),
                                t.storage == Storage::Output, uint32_t(t.index),
                                t.offset + l.maps[k].offset, 0});
    }
    total += l.maps.size();
  }
  c.maps.resize(total);
}

brrr_status encodeFixedTensorMaps(brrr_context &c) {
  const Artifact &a = c.model->art;
  for (size_t i = 0; i < a.launches.size(); ++i)
    for (size_t k = 0; k < a.launches[i].maps.size(); ++k) {
      const artifact::TensorMap &m = a.launches[i].maps[k];
      std::optional<CUdeviceptr> address = fixedAddress(c, m);
      // A symbolic map is encoded at each shape.
      if (!m.dimExprs.empty() || !address)
        continue;
      if (brrr_status s = encode(c, i, k, *address))
        return s;
    }
  return BRRR_OK;
}

brrr_status encodeShapedTensorMaps(brrr_context &c, const char *fn) {
  const Artifact &a = c.model->art;
  for (size_t i = 0; i < a.launches.size(); ++i)
    for (size_t k = 0; k < a.launches[i].maps.size(); ++k) {
      const artifact::TensorMap &m = a.launches[i].maps[k];
      if (m.dimExprs.empty())
        continue;
      // validate() checked the largest extents; a shape's lie between 1
      // and them, or the artifact is wrong.
      for (size_t d = 0; d < m.dimExprs.size(); ++d) {
        if (m.dimExprs[d] == -1)
          continue;
        int64_t v = c.exprValues[size_t(m.dimExprs[d])];
        if (v < 1 || uint64_t(v) > m.dims[d])
          return fail(BRRR_ERROR_CORRUPT_ARTIFACT,
                      std::string(fn) + ": " + mapLabel(a, i, k) + " has " +
                          std::to_string(v) + " elements in dimension " +
                          std::to_string(d) + " at these shapes, outside 1.." +
                          std::to_string(m.dims[d]));
      }
      if (std::optional<CUdeviceptr> address = fixedAddress(c, m)) {
        if (brrr_status s = encode(c, i, k, *address))
          return s;
        continue;
      }
      // Over a caller's buffer: encoded by the next bindTensorMaps.
      for (brrr_context::MapPatch &p : c.mapPatches)
        if (p.launch == i && p.index == k)
          p.encodedFor = 0;
    }
  return BRRR_OK;
}

brrr_status bindTensorMaps(brrr_context &c, const void *const *inputs,
                           void *const *outputs) {
  const Artifact &a = c.model->art;
  for (brrr_context::MapPatch &p : c.mapPatches) {
    const void *buffer = p.output ? outputs[p.buffer] : inputs[p.buffer];
    CUdeviceptr address = CUdeviceptr(uintptr_t(buffer)) + p.offset;
    if (address == p.encodedFor)
      continue;
    if (address % kMapAddressAlignment) {
      const brrr_tensor_info &info =
          p.output ? c.model->outputs[p.buffer] : c.model->inputs[p.buffer];
      return fail(BRRR_ERROR_INVALID_ARGUMENT,
                  std::string(p.output ? "output " : "input ") +
                      std::to_string(p.buffer) + " ('" + info.name + "') at " +
                      hexAddress(buffer) + " is not " +
                      std::to_string(kMapAddressAlignment) +
                      "-byte aligned, which " + mapLabel(a, p.launch, p.index) +
                      " needs");
    }
    // Forgotten before encoding: a failed encode leaves the map undefined.
    p.encodedFor = 0;
    if (brrr_status s = encode(c, p.launch, p.index, address))
      return s;
    p.encodedFor = address;
  }
  return BRRR_OK;
}

} // namespace brrr::runtime
