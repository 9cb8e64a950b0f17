//===- check.cc - IREE's check ops: evaluation and failures ---------------===//
//
// The semantics are described in kiln/check.h.
//
//===----------------------------------------------------------------------===//

#include "kiln/check.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "base/float_convert.h"
#include "kiln/tensor_io.h"

namespace kiln {

namespace {

bool IsZero(const uint8_t* p, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

double LoadFloat(ElementType type, const uint8_t* p) {
  switch (type) {
    case ElementType::kF32: {
      float v;
      std::memcpy(&v, p, sizeof(v));
      return v;
    }
    case ElementType::kF64: {
      double v;
      std::memcpy(&v, p, sizeof(v));
      return v;
    }
    default:
      if (const FloatFormat* format = NarrowFloatFormat(type)) {
        return format->ToDouble(format->Load(p));
      }
      return 0;  // integers never reach here (verified)
  }
}

bool AlmostEqual(double lhs, double rhs, double atol, double rtol) {
  if (std::isnan(lhs) || std::isnan(rhs)) {
    return std::isnan(lhs) && std::isnan(rhs);
  }
  if (lhs == rhs) return true;  // also equal infinities
  if (std::isinf(lhs) || std::isinf(rhs)) return false;
  return std::fabs(lhs - rhs) <= atol + rtol * std::fabs(rhs);
}

// The shortest text that reads back as `value`, in %g style (so 0.0001
// prints as "0.0001", not "1e-04").
template <typename T>
std::string Shortest(T value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value,
                              std::chars_format::general);
  return std::string(buffer, result.ptr);
}

// "expected <rhs>, got <lhs>".
std::string ExpectedGot(const Tensor& lhs, const Tensor& rhs) {
  return StrCat("expected ", FormatTensor(rhs, kCheckPrintedElements), ", got ",
                FormatTensor(lhs, kCheckPrintedElements));
}

// "; first difference at [i, j]: expected <rhs[i, j]>, got <lhs[i, j]>"
// (nothing for 0-d tensors: the values above say it all).
std::string FirstDifference(const Tensor& lhs, const Tensor& rhs,
                            int64_t index) {
  if (lhs.rank() == 0) return std::string();
  const size_t size = ElementTypeByteSize(lhs.element_type());
  return StrCat(
      "; first difference at ", FormatIndex(lhs.shape(), index), ": expected ",
      FormatElement(rhs.element_type(), rhs.data_as<uint8_t>() + index * size),
      ", got ",
      FormatElement(lhs.element_type(), lhs.data_as<uint8_t>() + index * size));
}

bool CheckEqual(const Tensor& lhs, const Tensor& rhs, std::string* message) {
  if (std::memcmp(lhs.data(), rhs.data(), lhs.byte_size()) == 0) return true;
  const size_t size = ElementTypeByteSize(lhs.element_type());
  const auto* l = lhs.data_as<uint8_t>();
  const auto* r = rhs.data_as<uint8_t>();
  int64_t first = 0;
  while (first < lhs.element_count() &&
         std::memcmp(l + first * size, r + first * size, size) == 0) {
    ++first;
  }
  *message = ExpectedGot(lhs, rhs) + FirstDifference(lhs, rhs, first);
  return false;
}

bool CheckAlmostEqual(const Tensor& lhs, const Tensor& rhs, float atol,
                      float rtol, std::string* message) {
  const ElementType type = lhs.element_type();
  const size_t size = ElementTypeByteSize(type);
  const auto* l = lhs.data_as<uint8_t>();
  const auto* r = rhs.data_as<uint8_t>();
  int64_t first = -1;
  double max_difference = 0;
  bool nan_difference = false;
  for (int64_t i = 0; i < lhs.element_count(); ++i) {
    const double a = LoadFloat(type, l + i * size);
    const double b = LoadFloat(type, r + i * size);
    if (AlmostEqual(a, b, atol, rtol)) continue;
    if (first < 0) first = i;
    const double difference = std::fabs(a - b);  // NaN when either is
    if (std::isnan(difference)) {
      nan_difference = true;
    } else if (difference > max_difference) {
      max_difference = difference;
    }
  }
  if (first < 0) return true;
  // The difference in the precision of the operands (values of the float
  // types narrower than f32 are exact in f32).
  std::string difference;
  if (nan_difference) {
    difference = "nan";
  } else if (type == ElementType::kF64) {
    difference = Shortest(max_difference);
  } else {
    difference = Shortest(static_cast<float>(max_difference));
  }
  *message = StrCat(ExpectedGot(lhs, rhs), FirstDifference(lhs, rhs, first),
                    "; max absolute difference ", difference, " (atol ",
                    Shortest(atol), ", rtol ", Shortest(rtol), ")");
  return false;
}

}  // namespace

std::string CheckFailure::ToString() const {
  return StrCat("check failed at ",
                location.empty() ? StrCat("function '", function,
                                          "' instruction ", instruction)
                                 : location,
                ": ", message);
}

std::string FormatIndex(const Shape& shape, int64_t linear) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] > 0) {
      index[d] = linear % shape[d];
      linear /= shape[d];
    }
  }
  std::string out = "[";
  for (size_t d = 0; d < index.size(); ++d) {
    if (d) out.append(", ");
    out.append(StrCat(index[d]));
  }
  out.push_back(']');
  return out;
}

bool EvaluateCheck(const CheckCall& call, std::string* message) {
  const Tensor& lhs = *call.lhs;
  const size_t size = ElementTypeByteSize(lhs.element_type());
  switch (call.kind) {
    case CheckKind::kTrue:
      if (!IsZero(lhs.data_as<uint8_t>(), size)) return true;
      *message = StrCat("expected a nonzero value, got ", FormatTensor(lhs));
      return false;
    case CheckKind::kFalse:
      if (IsZero(lhs.data_as<uint8_t>(), size)) return true;
      *message = StrCat("expected zero, got ", FormatTensor(lhs));
      return false;
    case CheckKind::kAllTrue: {
      const auto* p = lhs.data_as<uint8_t>();
      for (int64_t i = 0; i < lhs.element_count(); ++i) {
        if (!IsZero(p + i * size, size)) continue;
        *message = StrCat("expected all elements nonzero, got ",
                          FormatTensor(lhs, kCheckPrintedElements));
        if (lhs.rank() != 0) {
          message->append(
              StrCat("; first zero at ", FormatIndex(lhs.shape(), i)));
        }
        return false;
      }
      return true;
    }
    case CheckKind::kEqual:
      return CheckEqual(lhs, *call.rhs, message);
    case CheckKind::kAlmostEqual:
      return CheckAlmostEqual(lhs, *call.rhs, call.atol, call.rtol, message);
  }
  *message = StrCat("unknown check kind ", static_cast<int>(call.kind));
  return false;
}

Status CheckRecorder::Check(const CheckCall& call) {
  std::string message;
  if (EvaluateCheck(call, &message)) return OkStatus();
  ++failure_count_;
  if (failures_.size() >= kMaxRecordedFailures) return OkStatus();
  CheckFailure failure;
  failure.function = std::string(call.function);
  failure.instruction = call.instruction;
  failure.kind = call.kind;
  failure.location = std::string(call.location);
  failure.message = std::move(message);
  failures_.push_back(std::move(failure));
  return OkStatus();
}

}  // namespace kiln
