//===- LibraryABI.cpp - The export table of executable_library.h ---------===//

#include "Target/CPU/LibraryABI.h"

#include "Target/CPU/ElementType.h"
#include "kiln/executable_library.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

#include <limits>

namespace mlir::kiln {

FailureOr<ExportDescriptor> getExportDescriptor(ExecutableExportOp exportOp) {
  ExportDescriptor descriptor;
  if (auto count = exportOp.getWorkgroupCountAttr()) {
    if (count.size() > 3)
      return exportOp.emitError("workgroup count has more than 3 entries");
    for (auto [i, value] : llvm::enumerate(count.asArrayRef())) {
      if (value < 1 || value > std::numeric_limits<uint32_t>::max())
        return exportOp.emitError("workgroup count ")
               << value << " is outside [1, 2^32)";
      descriptor.workgroupCount[i] = static_cast<uint32_t>(value);
    }
  }
  uint64_t bindingCount = exportOp.getBindings().getZExtValue();
  ArrayAttr types = exportOp.getBindingTypesAttr();
  if (!types || types.size() != bindingCount)
    return exportOp.emitError("export needs one binding type per binding (")
           << bindingCount << ") for the library to describe it";
  std::optional<uint64_t> outputs;
  if (auto attr = exportOp.getOutputsAttr())
    outputs = attr.getValue().getZExtValue();
  if (!outputs || *outputs > bindingCount)
    return exportOp.emitError("export needs `outputs` (at most ")
           << bindingCount << ", the bindings its code writes, last)";
  for (auto [i, attr] : llvm::enumerate(types)) {
    auto type = dyn_cast<RankedTensorType>(cast<TypeAttr>(attr).getValue());
    if (!type)
      return exportOp.emitError("binding ")
             << i << " type is not a ranked tensor";
    FailureOr<::kiln::fb::ElementType> elementType =
        getModuleElementType(exportOp.getLoc(), type.getElementType());
    if (failed(elementType))
      return failure();
    uint8_t access = i + *outputs >= bindingCount ? KILN_BINDING_ACCESS_WRITE
                                                  : KILN_BINDING_ACCESS_READ;
    // A dynamic extent is KILN_DIMENSION_ANY: the dispatch's constants say
    // what it is.
    std::vector<int64_t> shape = getModuleShape(type);
    descriptor.bindings.push_back(
        {*elementType, access,
         SmallVector<int64_t>(shape.begin(), shape.end())});
  }
  if (IntegerAttr count = exportOp.getIndexConstantsAttr())
    descriptor.indexConstantCount = static_cast<uint32_t>(count.getInt());
  // Along a dimension its tiles scale, the grid is any size: the code
  // bounds its work by the dispatch's count.
  if (auto tiles = exportOp.getWorkgroupTilesAttr())
    for (int64_t i = 0; i + 2 < tiles.size(); i += 3)
      if (tiles[i] >= 0 && tiles[i] < 3)
        descriptor.workgroupCount[tiles[i]] = 0;
  return descriptor;
}

void addLibraryTable(llvm::Module &module, ArrayRef<llvm::Function *> functions,
                     ArrayRef<std::string> names,
                     ArrayRef<ExportDescriptor> descriptors,
                     StringRef libraryName) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *ptrType = llvm::PointerType::get(context, 0);
  auto *i8 = builder.getInt8Ty();
  auto *i16 = builder.getInt16Ty();
  auto *i32 = builder.getInt32Ty();
  auto privateConstant = [&](llvm::Constant *init, StringRef name) {
    return new llvm::GlobalVariable(
        module, init->getType(), /*isConstant=*/true,
        llvm::GlobalValue::PrivateLinkage, init, name);
  };
  auto stringConstant = [&](StringRef text, StringRef name) {
    return privateConstant(llvm::ConstantDataArray::getString(context, text),
                           name);
  };

  // kiln_binding_descriptor_v1_t and kiln_export_descriptor_v1_t.
  auto *bindingType =
      llvm::StructType::get(context, {i8, i8, i16, i32, ptrType});
  auto *descriptorType = llvm::StructType::get(
      context, {llvm::ArrayType::get(i32, 3), i32, ptrType, i32, i32});
  auto *nullPtr = llvm::ConstantPointerNull::get(ptrType);
  SmallVector<llvm::Constant *> namePtrs, fnPtrs, descriptorValues;
  for (auto [i, fn] : llvm::enumerate(functions)) {
    namePtrs.push_back(stringConstant(names[i], "__kiln_export_name"));
    fnPtrs.push_back(fn);
    const ExportDescriptor &descriptor = descriptors[i];
    SmallVector<llvm::Constant *> bindings;
    for (const ExportDescriptor::Binding &binding : descriptor.bindings) {
      llvm::Constant *shape =
          binding.shape.empty()
              ? static_cast<llvm::Constant *>(nullPtr)
              : privateConstant(
                    llvm::ConstantDataArray::get(
                        context,
                        ArrayRef<uint64_t>(reinterpret_cast<const uint64_t *>(
                                               binding.shape.data()),
                                           binding.shape.size())),
                    "__kiln_binding_shape");
      bindings.push_back(llvm::ConstantStruct::get(
          bindingType,
          {builder.getInt8(static_cast<uint8_t>(binding.elementType)),
           builder.getInt8(binding.access),
           builder.getInt16(binding.shape.size()), builder.getInt32(0),
           shape}));
    }
    llvm::Constant *bindingsPtr =
        bindings.empty()
            ? static_cast<llvm::Constant *>(nullPtr)
            : privateConstant(
                  llvm::ConstantArray::get(
                      llvm::ArrayType::get(bindingType, bindings.size()),
                      bindings),
                  "__kiln_export_bindings");
    descriptorValues.push_back(llvm::ConstantStruct::get(
        descriptorType,
        {llvm::ConstantDataArray::get(
             context, ArrayRef<uint32_t>(descriptor.workgroupCount)),
         builder.getInt32(bindings.size()), bindingsPtr,
         builder.getInt32(descriptor.indexConstantCount), builder.getInt32(0)}));
  }
  auto ptrArray = llvm::ArrayType::get(ptrType, functions.size());
  auto *namesGlobal = privateConstant(
      llvm::ConstantArray::get(ptrArray, namePtrs), "__kiln_export_names");
  auto *ptrsGlobal = privateConstant(llvm::ConstantArray::get(ptrArray, fnPtrs),
                                     "__kiln_export_ptrs");
  auto *descriptorsGlobal = privateConstant(
      llvm::ConstantArray::get(
          llvm::ArrayType::get(descriptorType, functions.size()),
          descriptorValues),
      "__kiln_export_descriptors");

  // kiln_executable_library_header_t
  auto *headerType = llvm::StructType::get(context, {i32, i32, ptrType});
  auto *header = privateConstant(
      llvm::ConstantStruct::get(
          headerType, {builder.getInt32(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST),
                       builder.getInt32(0),
                       stringConstant(libraryName, "__kiln_library_name")}),
      "__kiln_library_header");
  // kiln_executable_library_v1_t { header*, kiln_export_table_v1_t }
  auto *tableType =
      llvm::StructType::get(context, {i32, i32, ptrType, ptrType, ptrType});
  auto *libraryType = llvm::StructType::get(context, {ptrType, tableType});
  auto *library = privateConstant(
      llvm::ConstantStruct::get(
          libraryType,
          {header, llvm::ConstantStruct::get(
                       tableType,
                       {builder.getInt32(functions.size()), builder.getInt32(0),
                        ptrsGlobal, namesGlobal, descriptorsGlobal})}),
      "__kiln_library");

  // const header_t **kiln_executable_library_query(uint32_t, const void *)
  auto *queryType = llvm::FunctionType::get(ptrType, {i32, ptrType}, false);
  auto *query =
      llvm::Function::Create(queryType, llvm::GlobalValue::ExternalLinkage,
                             KILN_EXECUTABLE_LIBRARY_QUERY_NAME, module);
  query->setVisibility(llvm::GlobalValue::DefaultVisibility);
  auto *entry = llvm::BasicBlock::Create(context, "entry", query);
  auto *serve = llvm::BasicBlock::Create(context, "serve", query);
  auto *refuse = llvm::BasicBlock::Create(context, "refuse", query);
  builder.SetInsertPoint(entry);
  // The version its code keeps (CheckDispatchConstants) is the oldest it
  // serves.
  builder.CreateCondBr(
      builder.CreateICmpULT(
          query->getArg(0),
          builder.getInt32(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST)),
      refuse, serve);
  builder.SetInsertPoint(serve);
  builder.CreateRet(library);
  builder.SetInsertPoint(refuse);
  builder.CreateRet(nullPtr);
}

} // namespace mlir::kiln
