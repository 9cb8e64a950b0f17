//===- ReleaseUnusedResources.cpp - free the bytes of dead constants ------===//

#include "GlobalOpt/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_RELEASEUNUSEDRESOURCESPASS
#include "GlobalOpt/Passes.h.inc"

namespace {

struct ReleaseUnusedResourcesPass
    : impl::ReleaseUnusedResourcesPassBase<ReleaseUnusedResourcesPass> {
  void runOnOperation() override {
    llvm::StringSet<> referenced;
    getOperation()->walk([&](Operation *op) {
      op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
        referenced.insert(attr.getRawHandle().getKey());
      });
    });
    DialectResourceBlobManager &manager =
        DenseResourceElementsHandle::getManagerInterface(&getContext())
            .getBlobManager();
    SmallVector<std::string> unused;
    manager.getBlobMap([&](const llvm::StringMap<
                           DialectResourceBlobManager::BlobEntry> &blobs) {
      for (const auto &entry : blobs)
        if (entry.getValue().getBlob() && !referenced.contains(entry.getKey()))
          unused.push_back(entry.getKey().str());
    });
    // An empty blob runs the old one's deleter.
    for (const std::string &name : unused)
      manager.update(name, AsmResourceBlob());
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::kiln
