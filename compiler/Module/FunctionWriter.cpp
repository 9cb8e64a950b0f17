//===- FunctionWriter.cpp - host functions as slot programs ---------------===//

#include "Module/FunctionWriter.h"

#include "Capture/InputFiles.h"
#include "Dialect/Host/IR/HostOps.h"
#include "Dialect/Kiln/IR/InputOps.h"
#include "kiln/module_format.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::kiln {

namespace {

namespace fb = ::kiln::fb;

/// Writes one host function as its host ops say: every tensor value a
/// slot, numbered in order of definition; the buffers in the order of
/// their host.buffer ops; each block's ops in order, a host.br's operands
/// viewed by its destination's arguments (one after the other: host.br
/// passes no argument of its destination) before the branch.
class FunctionWriter {
public:
  FunctionWriter(func::FuncOp funcOp, ModuleTables &tables,
                 flatbuffers::FlatBufferBuilder &builder)
      : tables(tables), builder(builder), funcOp(funcOp) {}

  FailureOr<flatbuffers::Offset<fb::Function>> write() {
    for (Block &block : funcOp.getBody()) {
      for (BlockArgument arg : block.getArguments())
        if (failed(newSlot(funcOp.getLoc(), arg)))
          return failure();
      for (Operation &op : block)
        for (Value result : op.getResults()) {
          if (result.getType().isIndex())
            registers[result] = registerCount++;
          else if (!isa<host::BufferType>(result.getType()) &&
                   failed(newSlot(op.getLoc(), result)))
            return failure();
        }
    }
    std::vector<uint32_t> arguments;
    for (BlockArgument arg : funcOp.getArguments())
      arguments.push_back(slots.lookup(arg));
    for (auto bufferOp : funcOp.getBody().front().getOps<host::BufferOp>()) {
      bufferIndices[bufferOp] = bufferSizes.size();
      bufferSizes.push_back(bufferOp.getSize());
    }
    for (Block &block : funcOp.getBody()) {
      blockStarts[&block] = instructions.size();
      for (Operation &op : block)
        if (failed(writeOp(&op)))
          return failure();
    }

    std::vector<fb::Op> bodyTypes;
    std::vector<flatbuffers::Offset<void>> bodyOffsets;
    for (const Instruction &instruction : instructions) {
      bodyTypes.push_back(instruction.type);
      if (instruction.type == fb::Op::BranchOp)
        bodyOffsets.push_back(
            fb::CreateBranchOp(builder, blockStarts[instruction.target])
                .Union());
      else if (instruction.type == fb::Op::CondBranchOp)
        bodyOffsets.push_back(
            fb::CreateCondBranchOp(builder, instruction.condition,
                                   blockStarts[instruction.target],
                                   blockStarts[instruction.falseTarget])
                .Union());
      else
        bodyOffsets.push_back(instruction.offset);
    }
    std::vector<flatbuffers::Offset<fb::TensorType>> resultTypes;
    for (Type type : funcOp.getResultTypes()) {
      FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
          tables.serializeType(funcOp.getLoc(), type);
      if (failed(serialized))
        return failure();
      resultTypes.push_back(*serialized);
    }
    return fb::CreateFunction(
        builder, builder.CreateString(funcOp.getName().str()),
        builder.CreateVector(slotTypes), builder.CreateVector(arguments),
        builder.CreateVector(resultTypes), builder.CreateVector(bodyTypes),
        builder.CreateVector(bodyOffsets), builder.CreateVector(bufferSizes),
        registerCount,
        serializeNames(funcOp.getNumArguments(),
                       [&](unsigned i) {
                         return funcOp.getArgAttrOfType<StringAttr>(
                             i, kValueNameAttrName);
                       }),
        serializeNames(funcOp.getNumResults(), [&](unsigned i) {
          return funcOp.getResultAttrOfType<StringAttr>(i, kValueNameAttrName);
        }));
  }

private:
  /// The names `nameOf` gives the function's arguments or results, or no
  /// vector when it names none.
  flatbuffers::Offset<
      flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>>
  serializeNames(unsigned count, function_ref<StringAttr(unsigned)> nameOf) {
    std::vector<std::string> names;
    bool any = false;
    for (unsigned i = 0; i < count; ++i) {
      StringAttr name = nameOf(i);
      any |= name != nullptr;
      names.push_back(name ? name.str() : "");
    }
    if (!any)
      return 0;
    return builder.CreateVectorOfStrings(names);
  }

  /// One instruction; branches are built once every block's first
  /// instruction is known.
  struct Instruction {
    fb::Op type;
    flatbuffers::Offset<void> offset;
    Block *target = nullptr, *falseTarget = nullptr;
    uint32_t condition = 0;
  };

  LogicalResult newSlot(Location loc, Value value) {
    FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
        tables.serializeType(loc, value.getType());
    if (failed(serialized))
      return failure();
    slots[value] = slotTypes.size();
    slotTypes.push_back(*serialized);
    return success();
  }

  /// The registers of `values` as a vector, or no vector for none.
  flatbuffers::Offset<flatbuffers::Vector<uint32_t>>
  createRegisterVector(ValueRange values) {
    if (values.empty())
      return 0;
    std::vector<uint32_t> result;
    for (Value value : values)
      result.push_back(registers.lookup(value));
    return builder.CreateVector(result);
  }

  /// The IndexOp kind of an arith op on indices, if it has one.
  static std::optional<fb::IndexKind> getIndexKind(Operation *op) {
    return llvm::TypeSwitch<Operation *, std::optional<fb::IndexKind>>(op)
        .Case([](arith::AddIOp) { return fb::IndexKind::Add; })
        .Case([](arith::SubIOp) { return fb::IndexKind::Sub; })
        .Case([](arith::MulIOp) { return fb::IndexKind::Mul; })
        .Case([](arith::FloorDivSIOp) { return fb::IndexKind::FloorDiv; })
        .Case([](arith::CeilDivSIOp) { return fb::IndexKind::CeilDiv; })
        .Case([](arith::RemSIOp) { return fb::IndexKind::Rem; })
        .Case([](arith::MinSIOp) { return fb::IndexKind::Min; })
        .Case([](arith::MaxSIOp) { return fb::IndexKind::Max; })
        .Case([](arith::DivSIOp) { return fb::IndexKind::Div; })
        .Case([](arith::DivUIOp) { return fb::IndexKind::DivU; })
        .Case([](arith::CeilDivUIOp) { return fb::IndexKind::CeilDivU; })
        .Case([](arith::RemUIOp) { return fb::IndexKind::RemU; })
        .Default([](Operation *) { return std::nullopt; });
  }

  std::vector<uint32_t> slotsOf(ValueRange values) {
    std::vector<uint32_t> result;
    for (Value value : values)
      result.push_back(slots.lookup(value));
    return result;
  }

  /// Appends the instruction `offset` points to.
  template <typename OpT>
  void emit(flatbuffers::Offset<OpT> offset) {
    instructions.push_back({fb::OpTraits<OpT>::enum_value, offset.Union()});
  }

  std::string locationString(Location loc) {
    std::optional<FileLineColLoc> fileLoc = findFileLoc(loc);
    if (!fileLoc)
      return "";
    return (getStoredPath(fileLoc->getFilename()) + ":" +
            Twine(fileLoc->getLine()) + ":" + Twine(fileLoc->getColumn()))
        .str();
  }

  /// Writes `op` as the instructions it stands for.
  LogicalResult writeOp(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<host::BufferOp, host::AllocateOp>(
            [](Operation *) { return success(); })
        .Case<host::ConstantOp, host::DispatchOp>(
            [&](auto typedOp) { return write(typedOp); })
        .Case<host::ReshapeOp, host::DimOp, host::ExtractOp,
              arith::ConstantIndexOp, host::CheckOp, host::BranchOp,
              host::CondBranchOp, host::ReturnOp>([&](auto typedOp) {
          write(typedOp);
          return success();
        })
        .Default([&](Operation *op) { return writeIndexArithmetic(op); });
  }

  LogicalResult write(host::ConstantOp constantOp) {
    FailureOr<uint32_t> constant =
        tables.getConstant(constantOp->getLoc(), constantOp.getValue());
    if (failed(constant))
      return failure();
    emit(fb::CreateConstantOp(builder, slots.lookup(constantOp.getResult()),
                              *constant));
    return success();
  }

  LogicalResult write(host::DispatchOp dispatchOp) {
    std::optional<std::pair<uint32_t, uint32_t>> indices =
        tables.lookupExport(dispatchOp.getExecutableName().getValue(),
                            dispatchOp.getExportName().getValue());
    if (!indices)
      return dispatchOp.emitError("dispatch of an unknown export");
    std::vector<uint32_t> resultBuffers;
    for (Value buffer : dispatchOp.getBuffers()) {
      auto bufferOp = buffer.getDefiningOp<host::BufferOp>();
      resultBuffers.push_back(bufferOp ? bufferIndices.lookup(bufferOp)
                                       : KILN_NEW_BUFFER);
    }
    emit(fb::CreateDispatchOp(
        builder, indices->first, indices->second,
        builder.CreateVector(slotsOf(dispatchOp.getArguments())),
        builder.CreateVector(slotsOf(dispatchOp.getResults())),
        builder.CreateVector(resultBuffers),
        createRegisterVector(dispatchOp.getResultDims()),
        createRegisterVector(dispatchOp.getConstants())));
    return success();
  }

  void write(host::ReshapeOp reshapeOp) {
    emit(fb::CreateReshapeOp(builder, slots.lookup(reshapeOp.getResult()),
                             slots.lookup(reshapeOp.getSource()),
                             createRegisterVector(reshapeOp.getResultDims())));
  }

  void write(host::DimOp dimOp) {
    emit(fb::CreateDimOp(builder, registers.lookup(dimOp.getResult()),
                         slots.lookup(dimOp.getSource()),
                         dimOp.getDimension().getZExtValue()));
  }

  void write(host::ExtractOp extractOp) {
    emit(fb::CreateExtractOp(builder, registers.lookup(extractOp.getResult()),
                             slots.lookup(extractOp.getSource()),
                             extractOp.getElement().getZExtValue(),
                             extractOp.getIsUnsigned()));
  }

  void write(arith::ConstantIndexOp constantOp) {
    emit(fb::CreateIndexOp(builder, fb::IndexKind::Constant,
                           registers.lookup(constantOp.getResult()), 0, 0,
                           constantOp.value()));
  }

  void write(host::CheckOp checkOp) {
    auto toFloat = [](std::optional<APFloat> value, float otherwise) {
      return value ? value->convertToFloat() : otherwise;
    };
    emit(fb::CreateCheckOp(
        builder, static_cast<fb::CheckKind>(checkOp.getKind()),
        slots.lookup(checkOp.getLhs()),
        checkOp.getRhs() ? slots.lookup(checkOp.getRhs()) : 0,
        toFloat(checkOp.getAtol(), 0), toFloat(checkOp.getRtol(), 0),
        builder.CreateString(locationString(checkOp->getLoc()))));
  }

  void write(host::BranchOp branchOp) {
    for (auto [arg, operand] : llvm::zip(branchOp.getDest()->getArguments(),
                                         branchOp.getDestOperands())) {
      // A dynamic argument takes the operand's dimensions, read into
      // registers of their own.
      std::vector<uint32_t> dims;
      auto type = cast<RankedTensorType>(arg.getType());
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d))
          continue;
        dims.push_back(registerCount++);
        emit(fb::CreateDimOp(builder, dims.back(), slots.lookup(operand), d));
      }
      emit(fb::CreateReshapeOp(builder, slots.lookup(arg),
                               slots.lookup(operand),
                               dims.empty() ? 0 : builder.CreateVector(dims)));
    }
    instructions.push_back({fb::Op::BranchOp, {}, branchOp.getDest()});
  }

  void write(host::CondBranchOp condBranchOp) {
    instructions.push_back({fb::Op::CondBranchOp,
                            {},
                            condBranchOp.getTrueDest(),
                            condBranchOp.getFalseDest(),
                            slots.lookup(condBranchOp.getCondition())});
  }

  void write(host::ReturnOp returnOp) {
    emit(fb::CreateReturnOp(
        builder, builder.CreateVector(slotsOf(returnOp.getOperands()))));
  }

  /// An arith op on indices; any other op is not a host op.
  LogicalResult writeIndexArithmetic(Operation *op) {
    std::optional<fb::IndexKind> kind = getIndexKind(op);
    if (!kind || !op->getResult(0).getType().isIndex())
      return op->emitError() << "'" << op->getName()
                             << "' is not a host op (kiln-convert-to-host "
                                "lowers host functions to them)";
    emit(fb::CreateIndexOp(builder, *kind, registers.lookup(op->getResult(0)),
                           registers.lookup(op->getOperand(0)),
                           registers.lookup(op->getOperand(1))));
    return success();
  }

  ModuleTables &tables;
  flatbuffers::FlatBufferBuilder &builder;
  func::FuncOp funcOp;
  DenseMap<Value, uint32_t> slots;
  // Index registers: each index value, then the dimensions branches read.
  DenseMap<Value, uint32_t> registers;
  uint32_t registerCount = 0;
  std::vector<flatbuffers::Offset<fb::TensorType>> slotTypes;
  DenseMap<Operation *, uint32_t> bufferIndices;
  std::vector<uint64_t> bufferSizes;
  std::vector<Instruction> instructions;
  /// Index of each block's first instruction.
  DenseMap<Block *, uint32_t> blockStarts;
};

} // namespace

FailureOr<flatbuffers::Offset<fb::Function>>
writeFunction(func::FuncOp funcOp, ModuleTables &tables,
              flatbuffers::FlatBufferBuilder &builder) {
  return FunctionWriter(funcOp, tables, builder).write();
}

} // namespace mlir::kiln
