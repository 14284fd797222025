//===- FakeCudaTensorMaps.cpp - the fake driver's TMA tensor maps ---------===//
//
// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col of the fake driver
// (FakeCuda.cpp): they check the documented rules the runtime's choices
// touch and write a FakeTensorMap (FakeCuda.h) that tests and fake kernels
// read back. The copy built with FAKE_CUDA_WITHOUT_TENSOR_MAPS has neither.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaState.h"

#include <cstring>

#ifndef FAKE_CUDA_WITHOUT_TENSOR_MAPS

using namespace fake_cuda;

namespace {

/// Checks the rules of the driver's documentation that both encoders share
/// and the runtime's choices touch, so that a runtime bug the driver would
/// refuse fails here too, and fills what they share into `m`. `inner` is the
/// innermost extent of one copy in elements: box[0], or channelsPerPixel.
CUresult checkCommon(FakeTensorMap &m, CUtensorMap *tensorMap,
                     CUtensorMapDataType type, cuuint32_t rank, void *address,
                     const cuuint64_t *dims, const cuuint64_t *strides,
                     const cuuint32_t *elementStrides, uint32_t inner,
                     CUtensorMapInterleave interleave,
                     CUtensorMapSwizzle swizzle,
                     CUtensorMapL2promotion l2Promotion,
                     CUtensorMapFloatOOBfill oobFill) {
  ++stats.tensorMapEncodes;
  if (long e = env("FAKE_CUDA_TENSOR_MAP_ERROR", 0))
    return CUresult(e);
  static const uint64_t sizes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2};
  if (uintptr_t(tensorMap) % 64 || unsigned(type) >= 10 || rank == 0 ||
      rank > 5 || !address || uintptr_t(address) % 16 ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE ||
      swizzle > CU_TENSOR_MAP_SWIZZLE_128B ||
      l2Promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B ||
      oobFill > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t row = inner * sizes[type];
  if (row % 16 || (swizzle && row > (16u << swizzle)))
    return CUDA_ERROR_INVALID_VALUE;
  m.address = uint64_t(uintptr_t(address));
  for (cuuint32_t d = 0; d < rank; ++d) {
    if (!dims[d] || dims[d] > (uint64_t(1) << 32) || !elementStrides[d] ||
        elementStrides[d] > 8)
      return CUDA_ERROR_INVALID_VALUE;
    if (d + 1 < rank && (strides[d] % 16 || strides[d] >= (uint64_t(1) << 40)))
      return CUDA_ERROR_INVALID_VALUE;
    m.dims[d] = dims[d];
    m.elementStrides[d] = uint8_t(elementStrides[d]);
    if (d + 1 < rank)
      m.strides[d] = strides[d];
  }
  m.dataType = uint8_t(type);
  m.rank = uint8_t(rank);
  m.interleave = uint8_t(interleave);
  m.swizzle = uint8_t(swizzle);
  m.l2Promotion = uint8_t(l2Promotion);
  m.oobFill = uint8_t(oobFill);
  return CUDA_SUCCESS;
}

void store(CUtensorMap *tensorMap, const FakeTensorMap &m) {
  std::memset(tensorMap, 0, sizeof(*tensorMap));
  std::memcpy(tensorMap, &m, sizeof(m));
}

} // namespace

extern "C" {

CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType type, cuuint32_t rank,
    void *address, const cuuint64_t *dims, const cuuint64_t *strides,
    const cuuint32_t *box, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  FAKE_GUARD();
  FakeTensorMap m = {};
  if (CUresult r = checkCommon(m, tensorMap, type, rank, address, dims, strides,
                               elementStrides, rank ? box[0] : 0, interleave,
                               swizzle, l2Promotion, oobFill))
    return r;
  for (cuuint32_t d = 0; d < rank; ++d) {
    if (!box[d] || box[d] > 256)
      return CUDA_ERROR_INVALID_VALUE;
    m.box[d] = box[d];
  }
  store(tensorMap, m);
  return CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeIm2col(
    CUtensorMap *tensorMap, CUtensorMapDataType type, cuuint32_t rank,
    void *address, const cuuint64_t *dims, const cuuint64_t *strides,
    const int *lowerCorner, const int *upperCorner, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  FAKE_GUARD();
  if (rank < 3)
    return CUDA_ERROR_INVALID_VALUE;
  FakeTensorMap m = {};
  if (CUresult r = checkCommon(m, tensorMap, type, rank, address, dims, strides,
                               elementStrides, channelsPerPixel, interleave,
                               swizzle, l2Promotion, oobFill))
    return r;
  if (!channelsPerPixel || channelsPerPixel > 256 || !pixelsPerColumn ||
      pixelsPerColumn > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  // Fewer bits per corner offset as the rank grows; the bounding box of the
  // spatial dims must not be empty.
  int limit = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
  for (cuuint32_t d = 0; d + 2 < rank; ++d) {
    if (lowerCorner[d] < -limit || lowerCorner[d] >= limit ||
        upperCorner[d] < -limit || upperCorner[d] >= limit ||
        int64_t(dims[d + 1]) + upperCorner[d] - lowerCorner[d] < 1)
      return CUDA_ERROR_INVALID_VALUE;
    m.lowerCorner[d] = int16_t(lowerCorner[d]);
    m.upperCorner[d] = int16_t(upperCorner[d]);
  }
  m.channelsPerPixel = uint16_t(channelsPerPixel);
  m.pixelsPerColumn = uint16_t(pixelsPerColumn);
  m.mode = 1;
  store(tensorMap, m);
  return CUDA_SUCCESS;
}

} // extern "C"

#endif // FAKE_CUDA_WITHOUT_TENSOR_MAPS
