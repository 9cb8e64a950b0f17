//===- CheckDispatchConstants.cpp - a kernel checks its own constants -----===//

#include "Codegen/CPU/Passes.h"

#include "Codegen/CPU/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CHECKDISPATCHCONSTANTSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

using Predicate = arith::CmpIPredicate;

struct CheckDispatchConstantsPass
    : impl::CheckDispatchConstantsPassBase<CheckDispatchConstantsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    ExecutableExportOp exportOp = getExportOf(funcOp);
    if (!exportOp || funcOp.getBody().empty())
      return;
    OpBuilder builder = OpBuilder::atBlockBegin(&funcOp.getBody().front());
    Location loc = funcOp.getLoc();
    Value all;
    auto require = [&](Value condition) {
      all =
          all ? arith::AndIOp::create(builder, loc, all, condition) : condition;
    };
    auto constant = [&](int64_t index) -> Value {
      return DispatchConstantOp::create(builder, loc, builder.getIndexType(),
                                        builder.getIndexAttr(index));
    };
    auto number = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    auto cmp = [&](Predicate predicate, Value a, Value b) -> Value {
      return arith::CmpIOp::create(builder, loc, predicate, a, b);
    };
    // Values are made one statement at a time, so that the stage texts do
    // not depend on the order a compiler evaluates arguments in.
    auto both = [&](Value a, Value b) -> Value {
      return arith::AndIOp::create(builder, loc, a, b);
    };
    // Extents the kernel runs one loop over.
    if (auto pairs = exportOp.getEqualConstantsAttr())
      for (int64_t i = 0; i + 1 < pairs.size(); i += 2) {
        Value a = constant(pairs[i]);
        Value b = constant(pairs[i + 1]);
        require(cmp(Predicate::eq, a, b));
      }
    // Tiles that must cover an extent: extent <= tiles * tile, with tiles
    // at least 0 (the product cannot overflow: extents are tensor sizes).
    if (auto triples = exportOp.getCoveringTilesAttr())
      for (int64_t i = 0; i + 2 < triples.size(); i += 3) {
        Value tiles = constant(triples[i]);
        Value extent = constant(triples[i + 1]);
        Value tile = number(triples[i + 2]);
        Value covered = arith::MulIOp::create(builder, loc, tiles, tile);
        Value zero = number(0);
        Value counted = cmp(Predicate::sge, tiles, zero);
        Value fits = cmp(Predicate::sle, extent, covered);
        require(both(counted, fits));
      }
    // At most the grid the dispatch's extents need along each dimension its
    // tiles scale: a larger one would give workgroups tiles past the data.
    if (auto tiles = exportOp.getWorkgroupTilesAttr()) {
      SmallVector<int64_t> fixed = {1, 1, 1};
      if (auto count = exportOp.getWorkgroupCountAttr())
        for (auto [d, value] : llvm::enumerate(count.asArrayRef()))
          if (d < 3)
            fixed[d] = value;
      SmallVector<Value> grid(3);
      for (int64_t i = 0; i + 2 < tiles.size(); i += 3) {
        int64_t dim = tiles[i];
        if (dim < 0 || dim >= 3)
          continue;
        Value extent = constant(tiles[i + 1]);
        Value zero = number(0);
        Value counted = arith::MaxSIOp::create(builder, loc, extent, zero);
        Value tile = number(tiles[i + 2]);
        Value count = arith::CeilDivSIOp::create(builder, loc, counted, tile);
        grid[dim] = grid[dim]
                        ? arith::MulIOp::create(builder, loc, grid[dim], count)
                        : count;
      }
      for (int64_t dim = 0; dim < 3; ++dim) {
        if (!grid[dim])
          continue;
        Value times = number(fixed[dim]);
        Value expected = arith::MulIOp::create(builder, loc, grid[dim], times);
        Value one = number(1);
        Value most = arith::MaxSIOp::create(builder, loc, expected, one);
        Value launched =
            WorkgroupCountOp::create(builder, loc, builder.getIndexAttr(dim));
        require(cmp(Predicate::ule, launched, most));
      }
    }
    if (all)
      cf::AssertOp::create(builder, loc, all,
                           "dispatch constants as the kernel was built for");
  }
};

} // namespace
} // namespace mlir::kiln
