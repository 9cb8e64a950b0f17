//===- WorkgroupBudget.cpp - how much work a workgroup takes --------------===//

#include "Analysis/WorkgroupBudget.h"

#include <algorithm>

namespace mlir::kiln {

int64_t getWorkgroupOutputBudget(int64_t reduction) {
  return std::clamp<int64_t>(
      (int64_t(1) << 22) / std::max<int64_t>(reduction, 1), 1024, 16384);
}

int64_t getStaticElementCount(ShapedType type) {
  int64_t elements = 1;
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      elements *= size;
  return elements;
}

} // namespace mlir::kiln
