//===- ConvTranspose.cpp - ONNX ConvTranspose ------------------------------===//
//
// ConvTranspose as a stride-1 convolution: the image with stride - 1 zeros
// inserted between its elements and padded by the filter's extent less the
// pads, the filter flipped along its spatial dimensions and its channels
// swapped. 2-D ones of one group, or of one group per channel, become the
// named channels-last convolutions kiln's kernels are fast in (as Conv's);
// the others a generic convolution per group in ONNX's layout. Constant
// filters are flipped while importing.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"
#include "Import/ONNX/Ops/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

namespace mlir::kiln::onnx_import {

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

/// `scale * size + offset`, folded where `size` is static.
OpFoldResult getScaledSize(OpBuilder &b, Location loc, OpFoldResult size,
                           int64_t scale, int64_t offset) {
  if (std::optional<int64_t> value = getConstantIntValue(size))
    return b.getIndexAttr(scale * *value + offset);
  Value result = getIndexValue(b, loc, size);
  if (scale != 1)
    result = arith::MulIOp::create(
        b, loc, result, arith::ConstantIndexOp::create(b, loc, scale));
  if (offset != 0)
    result = arith::AddIOp::create(
        b, loc, result, arith::ConstantIndexOp::create(b, loc, offset));
  return result;
}

//===----------------------------------------------------------------------===//
// The window
//===----------------------------------------------------------------------===//

/// ConvTranspose's spatial attributes resolved: along each spatial
/// dimension, output o sums x[i] * w[k] over i * stride + k * dilation =
/// o + begin, for o below stride * (in - 1) + extra. begin and extra are
/// static: only the input's size may be known at run time alone.
struct TransposedWindow {
  SmallVector<int64_t> kernel, strides, dilations, begin, extra;
};

FailureOr<TransposedWindow> getTransposedWindow(NodeContext &ctx,
                                                ArrayRef<int64_t> input,
                                                ArrayRef<int64_t> kernel) {
  size_t spatial = input.size();
  auto readInts = [&](StringRef name, size_t size,
                      int64_t defaultValue) -> FailureOr<SmallVector<int64_t>> {
    if (!ctx.hasAttribute(name))
      return SmallVector<int64_t>(size, defaultValue);
    SmallVector<int64_t> values = ctx.getInts(name);
    if (values.size() != size)
      return ctx.fail(name + " has " + Twine(values.size()) + " values, not " +
                      Twine(size));
    return values;
  };
  TransposedWindow window;
  window.kernel.assign(kernel.begin(), kernel.end());
  if (ctx.hasAttribute("kernel_shape") &&
      ArrayRef(ctx.getInts("kernel_shape")) != kernel)
    return ctx.fail("kernel_shape differs from the filter's spatial sizes");
  FailureOr<SmallVector<int64_t>> strides = readInts("strides", spatial, 1);
  FailureOr<SmallVector<int64_t>> dilations = readInts("dilations", spatial, 1);
  FailureOr<SmallVector<int64_t>> pads = readInts("pads", 2 * spatial, 0);
  FailureOr<SmallVector<int64_t>> outputPadding =
      readInts("output_padding", spatial, 0);
  if (failed(strides) || failed(dilations) || failed(pads) ||
      failed(outputPadding))
    return failure();
  if (llvm::any_of(*strides, [](int64_t s) { return s <= 0; }) ||
      llvm::any_of(*dilations, [](int64_t d) { return d <= 0; }))
    return ctx.fail("strides and dilations must be positive");
  if (llvm::any_of(*pads, [](int64_t p) { return p < 0; }) ||
      llvm::any_of(*outputPadding, [](int64_t p) { return p < 0; }))
    return ctx.fail("pads and output_padding must not be negative");
  window.strides = *strides;
  window.dilations = *dilations;

  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return ctx.fail(
        "auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '" +
        autoPad + "'");
  if (autoPad != "NOTSET" && ctx.hasAttribute("pads"))
    return ctx.fail("pads cannot go with auto_pad " + autoPad);
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  bool upper = autoPad == "SAME_UPPER";
  SmallVector<int64_t> outputShape = ctx.getInts("output_shape");
  if (!outputShape.empty() && outputShape.size() != spatial)
    return ctx.fail("output_shape has " + Twine(outputShape.size()) +
                    " values, not one per spatial dimension (" +
                    Twine(spatial) + ")");

  for (size_t d = 0; d < spatial; ++d) {
    int64_t stride = window.strides[d];
    int64_t extent = (kernel[d] - 1) * window.dilations[d] + 1;
    // The output without pads is stride * (in - 1) + fullExtra long.
    int64_t fullExtra = (*outputPadding)[d] + extent;
    int64_t padBegin = (*pads)[d], padEnd = (*pads)[d + spatial];
    // A total padding split as SAME_UPPER or SAME_LOWER do (floor division,
    // as the reference does, when output_shape makes it negative).
    auto splitBegin = [&](int64_t total) {
      int64_t half = llvm::divideFloorSigned(total, 2);
      return upper ? half : total - half;
    };
    if (!outputShape.empty()) {
      if (ShapedType::isDynamic(input[d]))
        return ctx.fail("output_shape needs static spatial sizes");
      int64_t total = stride * (input[d] - 1) + fullExtra - outputShape[d];
      int64_t begin;
      if (same) {
        begin = splitBegin(total);
      } else {
        // The spec derives the pads from output_shape, the larger half
        // first (an output longer than the full one is zeros at its end);
        // the reference uses the pads given (zeros without). Both are kept
        // only where they agree.
        begin = total <= 0 ? 0 : total - total / 2;
        if (begin != padBegin && total > 0)
          return ctx.fail("output_shape crops " + Twine(total) +
                          " elements, where the spec's pads and the "
                          "reference's disagree");
        if (begin != padBegin)
          return ctx.fail("output_shape with pads, which the spec ignores "
                          "and the reference uses");
      }
      window.begin.push_back(begin);
      window.extra.push_back(outputShape[d] - stride * (input[d] - 1));
    } else if (same) {
      // The reference makes the output in * stride long; ONNX's shape
      // inference ignores output_padding and does not pad negatively.
      if ((*outputPadding)[d] != 0 || extent < stride)
        return ctx.fail("auto_pad " + autoPad +
                        " with output_padding or a filter extent below the "
                        "stride, where ONNX's reference and shape inference "
                        "disagree");
      window.begin.push_back(splitBegin(fullExtra - stride));
      window.extra.push_back(stride);
    } else {
      // NOTSET and VALID (which has no pads).
      window.begin.push_back(padBegin);
      window.extra.push_back(fullExtra - padBegin - padEnd);
    }
  }
  return window;
}

/// How one spatial dimension of the input becomes the image the stride-1
/// convolution reads: the elements no output reads dropped (`skipBegin`,
/// `skipEnd`), `stride - 1` zeros between the others, `low` zeros before
/// them and `high` after.
struct Placement {
  int64_t skipBegin, skipEnd, low, high, stride;
};

/// The stride-1 convolution reads image[o + k * dilation] with the filter
/// flipped, for o below the output's size: x[i] sits at extent - 1 - begin
/// + i * stride in an image the output's size plus extent - 1 long.
Placement getPlacement(const TransposedWindow &window, int64_t d) {
  int64_t stride = window.strides[d], begin = window.begin[d];
  int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
  int64_t first = extent - 1 - begin;
  Placement p;
  p.stride = stride;
  p.skipBegin = first >= 0 ? 0 : llvm::divideCeilSigned(-first, stride);
  p.low = first + p.skipBegin * stride;
  // The last element inside the image is (in - 1) + floor((extra - 1 +
  // begin) / stride).
  p.skipEnd = std::max<int64_t>(
      0, -llvm::divideFloorSigned(window.extra[d] - 1 + begin, stride));
  p.high = window.extra[d] + begin + stride * p.skipEnd - 1;
  return p;
}

/// `input` with each dimension `dims[j]` laid out as `placements[j]` says;
/// `counts` are the sizes of the elements kept.
Value placeInput(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> dims, ArrayRef<Placement> placements,
                 ArrayRef<OpFoldResult> counts, Value zero) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> kept = sizes;
  SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
  bool sliced = false, strided = false;
  for (auto [d, p, count] : llvm::zip(dims, placements, counts)) {
    sliced |= p.skipBegin != 0 || p.skipEnd != 0;
    strided |= p.stride != 1;
    offsets[d] = b.getIndexAttr(p.skipBegin);
    kept[d] = count;
  }
  if (sliced)
    input = tensor::ExtractSliceOp::create(b, loc, input, offsets, kept,
                                           unitStrides);
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (auto [d, p] : llvm::zip(dims, placements)) {
    low[d] = p.low;
    high[d] = p.high;
  }
  if (!strided)
    return padWith(b, loc, input, low, high, zero);
  // Zeros between the elements: each strided dimension [n] expanded to
  // [n, 1], padded to [n, stride] and collapsed to [n * stride], which
  // ends in stride - 1 zeros. (kiln's workgroups cannot distribute a
  // strided insert_slice.)
  SmallVector<OpFoldResult> expandedSizes, collapsedSizes = kept;
  SmallVector<int64_t> interleaveLow, interleaveHigh;
  for (int64_t d = 0; d < rank; ++d) {
    expandedSizes.push_back(kept[d]);
    interleaveLow.push_back(0);
    interleaveHigh.push_back(0);
    const auto *it = llvm::find(dims, d);
    if (it == dims.end() || placements[it - dims.begin()].stride == 1)
      continue;
    int64_t stride = placements[it - dims.begin()].stride;
    expandedSizes.push_back(b.getIndexAttr(1));
    interleaveLow.push_back(0);
    interleaveHigh.push_back(stride - 1);
    collapsedSizes[d] = getScaledSize(b, loc, kept[d], stride, 0);
    high[d] -= stride - 1;
  }
  Value expanded = reshape(b, loc, input, expandedSizes);
  Value interleaved =
      padWith(b, loc, expanded, interleaveLow, interleaveHigh, zero);
  Value image = reshape(b, loc, interleaved, collapsedSizes);
  // Where fewer zeros follow the last element than the interleaving left.
  if (llvm::any_of(high, [](int64_t h) { return h < 0; })) {
    SmallVector<OpFoldResult> trimmed = collapsedSizes;
    for (int64_t d = 0; d < rank; ++d)
      if (high[d] < 0) {
        trimmed[d] = getScaledSize(b, loc, collapsedSizes[d], 1, high[d]);
        high[d] = 0;
      }
    image = tensor::ExtractSliceOp::create(
        b, loc, image, SmallVector<OpFoldResult>(rank, b.getIndexAttr(0)),
        trimmed, unitStrides);
  }
  return padWith(b, loc, image, low, high, zero);
}

//===----------------------------------------------------------------------===//
// The filter
//===----------------------------------------------------------------------===//

/// `filter` transposed (result dim r is dim `permutation[r]`), reversed
/// along the result dims `flips` marks and reshaped to `shape` (the same
/// elements in row-major order): while importing for a constant, else a
/// gathering linalg.generic and a reshape.
Value flipFilter(OpBuilder &b, Location loc, Value filter,
                 ArrayRef<int64_t> permutation, ArrayRef<bool> flips,
                 ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(filter.getType());
  Type elementType = type.getElementType();
  int64_t rank = type.getRank();
  ArrayRef<int64_t> sourceShape = type.getShape();
  SmallVector<int64_t> permuted;
  for (int64_t dim : permutation)
    permuted.push_back(sourceShape[dim]);
  auto resultType = RankedTensorType::get(shape, elementType);
  auto constant = filter.getDefiningOp<arith::ConstantOp>();
  if (constant)
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        dense && dense.isSplat())
      return arith::ConstantOp::create(b, loc, dense.reshape(resultType));
  if (std::optional<ArrayRef<char>> bytes = getConstantBytes(filter)) {
    int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
    SmallVector<int64_t> strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * sourceShape[d + 1];
    int64_t count = type.getNumElements();
    auto blob = HeapAsmResourceBlob::allocate(count * elementBytes,
                                              /*align=*/64,
                                              /*dataIsMutable=*/true);
    MutableArrayRef<char> output = blob.getMutableData();
    SmallVector<int64_t> index(rank, 0);
    for (int64_t linear = 0; linear < count; ++linear) {
      int64_t offset = 0;
      for (int64_t r = 0; r < rank; ++r) {
        int64_t i = flips[r] ? permuted[r] - 1 - index[r] : index[r];
        offset += i * strides[permutation[r]];
      }
      std::memcpy(output.data() + linear * elementBytes,
                  bytes->data() + offset * elementBytes, elementBytes);
      for (int64_t r = rank - 1; r >= 0; --r) {
        if (++index[r] < permuted[r])
          break;
        index[r] = 0;
      }
    }
    Attribute attr;
    if (auto resource =
            dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
      attr = DenseResourceElementsAttr::get(
          resultType, (resource.getRawHandle().getKey() + ".flip").str(),
          std::move(blob));
    else
      attr = DenseElementsAttr::getFromRawBuffer(resultType, blob.getData());
    return arith::ConstantOp::create(b, loc, cast<TypedAttr>(attr));
  }
  // A gather: kiln's tiling keeps maps of plain dims, strides and
  // dilations, not mirrored ones.
  SmallVector<OpFoldResult> permutedSizes;
  for (int64_t size : permuted)
    permutedSizes.push_back(b.getIndexAttr(size));
  Value init = createEmpty(b, loc, permutedSizes, elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{}, init,
      AffineMap::getMultiDimIdentityMap(rank, b.getContext()), iterators,
      [&](OpBuilder &nb, Location nl, ValueRange) {
        SmallVector<Value> indices(rank);
        for (int64_t r = 0; r < rank; ++r) {
          Value i = linalg::IndexOp::create(nb, nl, r);
          if (flips[r])
            i = arith::SubIOp::create(
                nb, nl, arith::ConstantIndexOp::create(nb, nl, permuted[r] - 1),
                i);
          indices[permutation[r]] = i;
        }
        Value element = tensor::ExtractOp::create(nb, nl, filter, indices);
        linalg::YieldOp::create(nb, nl, element);
      });
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : shape)
    sizes.push_back(b.getIndexAttr(size));
  return reshape(b, loc, generic.getResult(0), sizes);
}

//===----------------------------------------------------------------------===//
// The convolutions
//===----------------------------------------------------------------------===//

/// A stride-1 convolution per group in ONNX's layout, on the image and the
/// flipped filter ([C, M/G, k...]) split by group:
/// out[n, g, m, o...] += image[n, g, c, o + k*d...] * filter[g, c, m, k...],
/// then merged back to [N, M, O...].
Value buildGroupedConv(OpBuilder &b, Location loc, Value image, Value filter,
                       ArrayRef<int64_t> dilations, int64_t groups,
                       ArrayRef<OpFoldResult> outputSpatial, Type resultType) {
  MLIRContext *context = b.getContext();
  auto filterType = cast<RankedTensorType>(filter.getType());
  SmallVector<OpFoldResult> imageSizes = getSizes(b, loc, image);
  SmallVector<OpFoldResult> filterSizes = getSizes(b, loc, filter);
  int64_t spatial = dilations.size();
  int64_t channelsPerGroup = filterType.getDimSize(0) / groups;
  int64_t outputsPerGroup = filterType.getDimSize(1);
  OpFoldResult g = b.getIndexAttr(groups);
  OpFoldResult cg = b.getIndexAttr(channelsPerGroup);
  OpFoldResult mg = b.getIndexAttr(outputsPerGroup);
  SmallVector<OpFoldResult> groupedImageSizes = {imageSizes[0], g, cg};
  groupedImageSizes.append(imageSizes.begin() + 2, imageSizes.end());
  SmallVector<OpFoldResult> groupedFilterSizes = {g, cg, mg};
  groupedFilterSizes.append(filterSizes.begin() + 2, filterSizes.end());
  Value groupedImage = reshape(b, loc, image, groupedImageSizes);
  Value groupedFilter = reshape(b, loc, filter, groupedFilterSizes);
  // Loops: n, g, m, o..., c, k...
  int64_t loops = 3 + 2 * spatial + 1;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> imageExprs = {dim(0), dim(1), dim(3 + spatial)};
  SmallVector<AffineExpr> filterExprs = {dim(1), dim(3 + spatial), dim(2)};
  SmallVector<AffineExpr> outputExprs = {dim(0), dim(1), dim(2)};
  SmallVector<OpFoldResult> outputSizes = {imageSizes[0], g, mg};
  for (int64_t d = 0; d < spatial; ++d) {
    AffineExpr o = dim(3 + d), k = dim(4 + spatial + d);
    imageExprs.push_back(o + k * dilations[d]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
    outputSizes.push_back(outputSpatial[d]);
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(loops, 0, imageExprs, context),
      AffineMap::get(loops, 0, filterExprs, context),
      AffineMap::get(loops, 0, outputExprs, context)};
  SmallVector<utils::IteratorType> iterators(3 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  Value init = createZeros(b, loc, outputSizes, resultType);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{groupedImage, groupedFilter}, init,
      maps, iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value product = arith::MulFOp::create(nb, nl, args[0], args[1]);
        Value sum = arith::AddFOp::create(nb, nl, product, args[2]);
        linalg::YieldOp::create(nb, nl, sum);
      });
  SmallVector<OpFoldResult> resultSizes = {
      outputSizes[0], b.getIndexAttr(groups * outputsPerGroup)};
  resultSizes.append(outputSizes.begin() + 3, outputSizes.end());
  return reshape(b, loc, generic.getResult(0), resultSizes);
}

/// A 2-D stride-1 convolution channels last, on an NHWC image: the filter
/// ([C, M/G, kh, kw]) flipped to [kh, kw, C, M] for one group, to
/// [kh, kw, C, M/C] (depthwise) for one group per channel. The result is
/// NHWC.
Value buildChannelsLastConv2D(OpBuilder &b, Location loc, Value image,
                              Value filter, ArrayRef<int64_t> dilations,
                              int64_t groups,
                              ArrayRef<OpFoldResult> outputSpatial,
                              Type resultType) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t channels = filterType.getDimSize(0);
  int64_t multiplier = filterType.getDimSize(1);
  int64_t kh = filterType.getDimSize(2), kw = filterType.getDimSize(3);
  SmallVector<OpFoldResult> outputSizes = {getSizes(b, loc, image)[0],
                                           outputSpatial[0], outputSpatial[1]};
  auto strides = b.getI64TensorAttr({1, 1});
  auto dilationsAttr = b.getI64TensorAttr(dilations);
  SmallVector<bool> flips = {true, true, false, false};
  if (groups == 1 || multiplier != 1) {
    // [C, M/G, kh, kw] -> [kh, kw, C, M/G], the filter of Conv2DNhwcHwcf
    // (G = 1) or DepthwiseConv2DNhwcHwcm (G = C).
    Value flipped = flipFilter(b, loc, filter, {2, 3, 0, 1}, flips,
                               {kh, kw, channels, multiplier});
    if (groups == 1) {
      outputSizes.push_back(b.getIndexAttr(multiplier));
      Value init = createZeros(b, loc, outputSizes, resultType);
      return linalg::Conv2DNhwcHwcfOp::create(b, loc, init.getType(),
                                              ValueRange{image, flipped}, init,
                                              strides, dilationsAttr)
          .getResult(0);
    }
    // Output channel c * m + j is ONNX's g * M/G + j with g = c.
    SmallVector<OpFoldResult> wideSizes = outputSizes;
    wideSizes.push_back(b.getIndexAttr(channels));
    wideSizes.push_back(b.getIndexAttr(multiplier));
    Value init = createZeros(b, loc, wideSizes, resultType);
    Value wide = linalg::DepthwiseConv2DNhwcHwcmOp::create(
                     b, loc, init.getType(), ValueRange{image, flipped}, init,
                     strides, dilationsAttr)
                     .getResult(0);
    outputSizes.push_back(b.getIndexAttr(channels * multiplier));
    return reshape(b, loc, wide, outputSizes);
  }
  // [C, 1, kh, kw] -> [kh, kw, C]
  Value flipped =
      flipFilter(b, loc, filter, {2, 3, 0, 1}, flips, {kh, kw, channels});
  outputSizes.push_back(b.getIndexAttr(channels));
  Value init = createZeros(b, loc, outputSizes, resultType);
  return linalg::DepthwiseConv2DNhwcHwcOp::create(b, loc, init.getType(),
                                                  ValueRange{image, flipped},
                                                  init, strides, dilationsAttr)
      .getResult(0);
}

LogicalResult convertConvTranspose(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0), filter = ctx.getInput(1);
  RankedTensorType inputType = ctx.getInputType(0);
  RankedTensorType filterType = ctx.getInputType(1);
  int64_t rank = inputType.getRank();
  if (rank < 3 || filterType.getRank() != rank || !filterType.hasStaticShape())
    return ctx.fail("needs an input of rank 3 or more and a filter of the "
                    "same rank with static sizes");
  Type resultType = ctx.getOutputElementMLIRType(0);
  if (!isFloat(resultType) || inputType.getElementType() != resultType ||
      filterType.getElementType() != resultType)
    return ctx.fail("needs floating-point input, filter and output of one "
                    "type");
  int64_t spatial = rank - 2;
  int64_t groups = ctx.getInt("group", 1);
  int64_t channels = filterType.getDimSize(0);
  int64_t outputsPerGroup = filterType.getDimSize(1);
  if (groups <= 0 || channels % groups != 0)
    return ctx.fail("group " + Twine(groups) + " does not divide the " +
                    Twine(channels) + " input channels");
  if (!inputType.isDynamicDim(1) && inputType.getDimSize(1) != channels)
    return ctx.fail("the input has " + Twine(inputType.getDimSize(1)) +
                    " channels, the filter " + Twine(channels));
  FailureOr<TransposedWindow> window =
      getTransposedWindow(ctx, inputType.getShape().drop_front(2),
                          filterType.getShape().drop_front(2));
  if (failed(window))
    return failure();

  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> outputSpatial, counts;
  SmallVector<Placement> placements;
  // Whether some output reads some input element.
  bool reached = true;
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t stride = window->strides[d];
    OpFoldResult size = getScaledSize(b, loc, inputSizes[2 + d], stride,
                                      window->extra[d] - stride);
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    if (staticSize && *staticSize <= 0)
      return ctx.fail("the output's spatial dimension " + Twine(d) +
                      " would have size " + Twine(*staticSize));
    outputSpatial.push_back(size);
    Placement p = getPlacement(*window, d);
    placements.push_back(p);
    OpFoldResult count =
        getScaledSize(b, loc, inputSizes[2 + d], 1, -p.skipBegin - p.skipEnd);
    std::optional<int64_t> staticCount = getConstantIntValue(count);
    reached &= !staticCount || *staticCount > 0;
    counts.push_back(count);
  }
  // Sizes shape inference would disagree with are refused, not cast.
  RankedTensorType inferred = ctx.getOutputType(0);
  SmallVector<OpFoldResult> outputSizes = {
      inputSizes[0], b.getIndexAttr(groups * outputsPerGroup)};
  llvm::append_range(outputSizes, outputSpatial);
  if (inferred && inferred.getRank() == rank)
    for (auto [size, want] : llvm::zip(outputSizes, inferred.getShape())) {
      std::optional<int64_t> have = getConstantIntValue(size);
      if (have && !ShapedType::isDynamic(want) && *have != want)
        return ctx.fail("computes an output dimension of " + Twine(*have) +
                        " where ONNX's shape inference says " + Twine(want));
    }

  Value result;
  Value zero = createScalar(b, loc, resultType, 0);
  if (!reached) {
    // The pads crop away every element the input reaches.
    result = createZeros(b, loc, outputSizes, resultType);
    if (ctx.hasInput(2))
      result = addAlongDimension(b, loc, result, ctx.getInput(2), 1);
  } else if (spatial == 2 && (groups == 1 || groups == channels)) {
    // NCHW -> NHWC, zeros inserted and padded there.
    Value nhwc = transpose(b, loc, input, {0, 2, 3, 1});
    Value image = placeInput(b, loc, nhwc, {1, 2}, placements, counts, zero);
    Value conv =
        buildChannelsLastConv2D(b, loc, image, filter, window->dilations,
                                groups, outputSpatial, resultType);
    if (ctx.hasInput(2))
      conv = addAlongDimension(b, loc, conv, ctx.getInput(2), 3);
    result = transpose(b, loc, conv, {0, 3, 1, 2});
  } else {
    SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(2, rank));
    Value image = placeInput(b, loc, input, dims, placements, counts, zero);
    SmallVector<int64_t> identity =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    SmallVector<bool> flips(rank, true);
    flips[0] = flips[1] = false;
    Value flipped =
        flipFilter(b, loc, filter, identity, flips, filterType.getShape());
    result = buildGroupedConv(b, loc, image, flipped, window->dilations, groups,
                              outputSpatial, resultType);
    if (ctx.hasInput(2))
      result = addAlongDimension(b, loc, result, ctx.getInput(2), 1);
  }
  ctx.setOutput(0, result);
  return success();
}

} // namespace

void registerConvTransposeConverters(ConverterTable &table) {
  table["ConvTranspose"] = convertConvTranspose;
}

} // namespace mlir::kiln::onnx_import
