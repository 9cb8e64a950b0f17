//===- InputNodes.cpp - model nodes the input program's ops stand for -----===//

#include "Dialect/Kiln/IR/InputNodes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::kiln {

namespace {
constexpr StringLiteral kNodeName = "node";
constexpr StringLiteral kOpTypeName = "op_type";
constexpr StringLiteral kScopeName = "scope";
constexpr StringLiteral kSourceName = "source";
} // namespace

Location getInputNodeLoc(const InputNode &node, FileLineColLoc line) {
  MLIRContext *context = line.getContext();
  Builder builder(context);
  SmallVector<NamedAttribute, 4> entries;
  entries.push_back(
      builder.getNamedAttr(kNodeName, builder.getStringAttr(node.name)));
  entries.push_back(
      builder.getNamedAttr(kOpTypeName, builder.getStringAttr(node.opType)));
  if (!node.scope.empty())
    entries.push_back(
        builder.getNamedAttr(kScopeName, builder.getStringAttr(node.scope)));
  if (!node.source.empty())
    entries.push_back(
        builder.getNamedAttr(kSourceName, builder.getStringAttr(node.source)));
  return FusedLoc::get(context, {Location(line)},
                       builder.getDictionaryAttr(entries));
}

std::optional<InputNode> getInputNode(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto entries = fused
                     ? dyn_cast_if_present<DictionaryAttr>(fused.getMetadata())
                     : nullptr;
  auto name = entries ? entries.getAs<StringAttr>(kNodeName) : nullptr;
  auto opType = entries ? entries.getAs<StringAttr>(kOpTypeName) : nullptr;
  if (!name || !opType)
    return std::nullopt;
  InputNode node;
  node.name = name.getValue();
  node.opType = opType.getValue();
  if (auto scope = entries.getAs<StringAttr>(kScopeName))
    node.scope = scope.getValue();
  if (auto source = entries.getAs<StringAttr>(kSourceName))
    node.source = source.getValue();
  return node;
}

std::optional<InputNode> findInputNode(Location loc) {
  std::optional<InputNode> found;
  loc->walk([&](Location nested) {
    found = getInputNode(nested);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

} // namespace mlir::kiln
