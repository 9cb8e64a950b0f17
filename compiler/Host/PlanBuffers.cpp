//===- PlanBuffers.cpp - dispatch results into reused buffers -------------===//
//
// A dispatch result's storage is needed for as long as a value that may
// view it is live: the result itself, its reshapes, and the block
// arguments it reaches through branches (and their reshapes, and so on).
// Writing another result into the same storage is safe where none of those
// is live. Liveness is MLIR's, over the function's control flow graph, so
// loops and joins are accounted for: a value carried around a loop is live
// across the loop's back edge.
//
//===----------------------------------------------------------------------===//

#include "Host/Passes.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/IR/PatternMatch.h"

#include <deque>

namespace mlir::kiln {
#define GEN_PASS_DEF_PLANBUFFERSPASS
#include "Host/Passes.h.inc"

namespace {

/// A dispatch result that is written into new storage today.
struct Result {
  host::DispatchOp dispatchOp;
  unsigned index;
  host::AllocateOp allocateOp;
  int64_t bytes;
  /// Every value that may view the result's storage, the result first.
  SmallVector<Value> views;
  /// Whether a view may be returned (the caller owns what it gets).
  bool returned = false;
};

/// The values that may view `result`'s storage, and whether one of them is
/// returned.
void collectViews(Result &result) {
  Value value = result.dispatchOp.getResult(result.index);
  SetVector<Value> views;
  views.insert(value);
  for (unsigned i = 0; i < views.size(); ++i) {
    for (OpOperand &use : views[i].getUses()) {
      Operation *user = use.getOwner();
      if (auto reshapeOp = dyn_cast<host::ReshapeOp>(user))
        views.insert(reshapeOp.getResult());
      else if (auto branchOp = dyn_cast<host::BranchOp>(user))
        views.insert(branchOp.getDest()->getArgument(use.getOperandNumber()));
      else if (isa<host::ReturnOp>(user))
        result.returned = true;
    }
  }
  result.views = views.takeVector();
}

class BufferPlanner {
public:
  explicit BufferPlanner(func::FuncOp funcOp)
      : funcOp(funcOp), liveness(funcOp) {}

  void run() {
    SmallVector<Result> results;
    funcOp.walk([&](host::DispatchOp dispatchOp) {
      for (auto [index, buffer] : llvm::enumerate(dispatchOp.getBuffers())) {
        auto allocateOp = buffer.getDefiningOp<host::AllocateOp>();
        if (!allocateOp)
          continue;
        auto type = cast<ShapedType>(dispatchOp.getResult(index).getType());
        // Sized only as the program runs: new storage each time.
        if (!type.hasStaticShape())
          continue;
        results.push_back({dispatchOp,
                           static_cast<unsigned>(index),
                           allocateOp,
                           host::getStorageByteSize(type),
                           {}});
      }
    });
    for (Result &result : results) {
      collectViews(result);
      if (result.returned || isCarriedOver(result))
        continue;
      place(result);
    }
    rewrite();
  }

private:
  /// A buffer and the results written into it.
  struct Buffer {
    int64_t size = 0;
    SmallVector<Result *> results;
  };

  /// Whether `value` is live where `op` runs: read by it, or defined before
  /// it (or on entry to its block) and read later on some path.
  bool isLiveAt(Value value, Operation *op) {
    Block *block = op->getBlock();
    const LivenessBlockInfo *info = liveness.getLiveness(block);
    bool definedBefore = (info && info->isLiveIn(value)) ||
                         (value.getParentBlock() == block &&
                          (isa<BlockArgument>(value) ||
                           value.getDefiningOp()->isBeforeInBlock(op)));
    if (!definedBefore)
      return false;
    if (info && info->isLiveOut(value))
      return true;
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      return user->getBlock() == block &&
             (user == op || op->isBeforeInBlock(user));
    });
  }

  /// Whether a view of `result` other than itself may still be needed when
  /// its dispatch writes it: a value carried around a loop, which one
  /// storage cannot hold (the dispatch would overwrite what it reads).
  bool isCarriedOver(const Result &result) {
    return llvm::any_of(ArrayRef(result.views).drop_front(), [&](Value view) {
      return isLiveAt(view, result.dispatchOp);
    });
  }

  /// Whether `a` and `b` cannot share storage: written by one dispatch, or
  /// one's storage still needed where the other is written.
  bool interfere(const Result &a, const Result &b) {
    if (a.dispatchOp == b.dispatchOp)
      return true;
    auto neededAt = [&](const Result &viewed, const Result &written) {
      return llvm::any_of(viewed.views, [&](Value view) {
        return isLiveAt(view, written.dispatchOp);
      });
    };
    return neededAt(a, b) || neededAt(b, a);
  }

  /// Puts `result` into the buffer closest to its size that it may share,
  /// else into a new one.
  void place(Result &result) {
    Buffer *best = nullptr;
    // Equal sizes first, then the smallest larger buffer, then the largest
    // smaller one (which grows to the result).
    auto rank = [&](const Buffer &buffer) {
      if (buffer.size == result.bytes)
        return std::make_tuple(0, int64_t(0));
      if (buffer.size > result.bytes)
        return std::make_tuple(1, buffer.size);
      return std::make_tuple(2, -buffer.size);
    };
    for (Buffer &buffer : buffers) {
      if (llvm::any_of(buffer.results, [&](Result *other) {
            return interfere(result, *other);
          }))
        continue;
      if (!best || rank(buffer) < rank(*best))
        best = &buffer;
    }
    if (!best) {
      buffers.emplace_back();
      best = &buffers.back();
    }
    best->size = std::max(best->size, result.bytes);
    best->results.push_back(&result);
  }

  /// Makes the buffers at the top of the function and writes their results
  /// into them.
  void rewrite() {
    IRRewriter rewriter(funcOp.getContext());
    rewriter.setInsertionPointToStart(&funcOp.getBody().front());
    for (const Buffer &buffer : buffers) {
      Value value = host::BufferOp::create(rewriter, funcOp.getLoc(),
                                           rewriter.getType<host::BufferType>(),
                                           buffer.size);
      for (Result *result : buffer.results) {
        rewriter.modifyOpInPlace(result->dispatchOp, [&] {
          result->dispatchOp.getBuffersMutable()[result->index].set(value);
        });
        rewriter.eraseOp(result->allocateOp);
      }
    }
  }

  func::FuncOp funcOp;
  Liveness liveness;
  std::deque<Buffer> buffers;
};

struct PlanBuffersPass : impl::PlanBuffersPassBase<PlanBuffersPass> {
  void runOnOperation() override {
    if (getOperation().isExternal())
      return;
    BufferPlanner(getOperation()).run();
  }
};

} // namespace

} // namespace mlir::kiln
