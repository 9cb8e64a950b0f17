//===- guard_pages.h - Tensors that end where memory ends ---------*- C++ -*-===//
//
// kiln-run --guard-pages: every tensor a call reads or makes ends where an
// inaccessible page begins, so that a kernel reading or writing past the
// end of a binding faults at that access (SIGSEGV) instead of reading
// whatever lies beyond, which it would otherwise do unnoticed: kernels are
// generated code, which no sanitizer instruments.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_GUARD_PAGES_H_
#define KILN_TOOLS_SUPPORT_GUARD_PAGES_H_

#include <memory>
#include <vector>

#include "kiln/allocator.h"
#include "kiln/status.h"
#include "kiln/tensor.h"

namespace kiln::tools {

/// An Allocator whose every allocation is a mapping of its own followed by
/// an inaccessible page, and ends at most kTensorAlignment - 1 bytes before
/// it (its start stays aligned). Slow: for finding faults, not for speed.
std::shared_ptr<Allocator> GuardPageAllocator();

/// Replaces each of `tensors` by a copy in storage from `allocator`.
Status MoveTensorsInto(const std::shared_ptr<Allocator>& allocator,
                       std::vector<Tensor>* tensors);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_GUARD_PAGES_H_
