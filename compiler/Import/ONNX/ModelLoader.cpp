//===- ModelLoader.cpp - ONNX models read, checked and shaped -------------===//

#include "Import/ONNX/ModelLoader.h"

#include "Import/ONNX/ExternalData.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "onnx/checker.h"
#include "onnx/common/ir_pb_converter.h"
#include "onnx/defs/function.h"
#include "onnx/defs/parser.h"
#include "onnx/defs/schema.h"
#include "onnx/inliner/inliner.h"
#include "onnx/proto_utils.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mlir::kiln::onnx_import {

namespace {

/// Initializers and Constant values larger than this leave the proto before
/// the ONNX library copies it; smaller ones stay, so that shape inference
/// sees the contents of shape tensors.
constexpr size_t kInlineTensorBytes = 4096;

/// How many rounds of function expansion a model may need (a function body
/// may use another function op).
constexpr int kMaxExpansionRounds = 8;

/// The default domain's names.
bool isDefaultDomain(StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

/// Whether `text` is ONNX's text format rather than a binary protobuf: a
/// binary model cannot start with '<' (field 7, an end-group tag).
bool isTextFormat(StringRef path, StringRef contents) {
  if (path.ends_with(".onnxtxt"))
    return true;
  StringRef trimmed = contents.ltrim();
  // Leading comments of a text model.
  while (trimmed.starts_with("#")) {
    size_t end = trimmed.find('\n');
    trimmed = end == StringRef::npos ? StringRef() : trimmed.drop_front(end);
    trimmed = trimmed.ltrim();
  }
  return trimmed.starts_with("<");
}

/// The opset of the default domain, or 0.
int64_t getDefaultOpset(const onnx::ModelProto &model) {
  for (const onnx::OperatorSetIdProto &opset : model.opset_import())
    if (isDefaultDomain(opset.domain()))
      return opset.version();
  return 0;
}

} // namespace

size_t getElementBytes(int32_t type) {
  switch (type) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return 4;
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return 8;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return 2;
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::FLOAT8E4M3FN:
  case onnx::TensorProto::FLOAT8E4M3FNUZ:
  case onnx::TensorProto::FLOAT8E5M2:
  case onnx::TensorProto::FLOAT8E5M2FNUZ:
  case onnx::TensorProto::FLOAT8E8M0:
    return 1;
  default:
    return 0;
  }
}

namespace {

/// The number of elements of a tensor proto, or nullopt on overflow or a
/// negative dimension.
std::optional<uint64_t> getElementCount(const onnx::TensorProto &tensor) {
  uint64_t count = 1;
  for (int64_t dim : tensor.dims())
    if (dim < 0 || __builtin_mul_overflow(count, uint64_t(dim), &count))
      return std::nullopt;
  return count;
}

/// Approximate size of a tensor's data held in the proto.
size_t getProtoDataBytes(const onnx::TensorProto &tensor) {
  return tensor.raw_data().size() + tensor.float_data_size() * 4 +
         tensor.int32_data_size() * 4 + tensor.int64_data_size() * 8 +
         tensor.double_data_size() * 8 + tensor.uint64_data_size() * 8;
}

/// Moves the data of `tensor` out into raw little-endian bytes (the layout
/// of raw_data), leaving the proto's data fields empty.
FailureOr<std::string> takeTensorBytes(onnx::TensorProto &tensor,
                                       Location loc) {
  if (tensor.has_raw_data()) {
    std::string bytes = std::move(*tensor.mutable_raw_data());
    tensor.clear_raw_data();
    return bytes;
  }
  FailureOr<std::string> bytes = getTensorBytes(tensor, loc);
  tensor.clear_float_data();
  tensor.clear_double_data();
  tensor.clear_int32_data();
  tensor.clear_int64_data();
  tensor.clear_uint64_data();
  return bytes;
}

/// A graph input standing for a tensor moved out of the proto.
void addWeightInput(onnx::GraphProto &graph, const onnx::TensorProto &tensor) {
  for (const onnx::ValueInfoProto &input : graph.input())
    if (input.name() == tensor.name())
      return;
  onnx::ValueInfoProto *input = graph.add_input();
  input->set_name(tensor.name());
  onnx::TypeProto_Tensor *type = input->mutable_type()->mutable_tensor_type();
  type->set_elem_type(tensor.data_type());
  onnx::TensorShapeProto *shape = type->mutable_shape();
  for (int64_t dim : tensor.dims())
    shape->add_dim()->set_dim_value(dim);
}

class Loader {
public:
  Loader(StringRef path, FileLineColLoc fileLoc, const LoadOptions &options)
      : path(path), fileLoc(fileLoc), options(options),
        result(std::make_unique<LoadedModel>()),
        model(result->model) {}

  FailureOr<std::unique_ptr<LoadedModel>>
  load(std::unique_ptr<llvm::MemoryBuffer> contents) {
    if (failed(parse(std::move(contents))) || failed(checkVersions()) ||
        failed(checkEquations()) || failed(moveWeightsOut()) ||
        failed(check("")) || failed(nameNodes()) ||
        failed(inlineLocalFunctions()) || failed(convert()) ||
        failed(expandFunctions()))
      return failure();
    return std::move(result);
  }

private:
  InFlightDiagnostic error() { return emitError(fileLoc); }

  /// Runs `body`, turning what the ONNX library throws into an error that
  /// starts with `what`.
  template <typename Body>
  LogicalResult guard(StringRef what, Body body) {
    try {
      body();
      return success();
    } catch (const std::exception &exception) {
      StringRef message = StringRef(exception.what()).trim();
      return error() << what << ": " << message;
    }
  }

  LogicalResult parse(std::unique_ptr<llvm::MemoryBuffer> buffer) {
    if (!buffer) {
      FailureOr<std::unique_ptr<llvm::MemoryBuffer>> read =
          readModelFile(path, fileLoc);
      if (failed(read))
        return failure();
      buffer = std::move(*read);
    }
    std::optional<StringRef> contents = buffer->getBuffer();
    if (isTextFormat(path, *contents)) {
      onnx::OnnxParser parser(std::string_view(contents->data(),
                                               contents->size()));
      onnx::Common::Status status;
      // The parser throws on some malformed text (a number out of range).
      if (failed(guard("not a model in ONNX's text format",
                       [&] { status = parser.Parse(model); })))
        return failure();
      if (!status.IsOK())
        return error() << "not a model in ONNX's text format: "
                       << StringRef(status.ErrorMessage()).trim();
      return success();
    }
    if (contents->size() > (size_t(2) << 30) - 1)
      return error() << "the model file is " << contents->size()
                     << " bytes, beyond protobuf's 2 GiB; save its weights "
                        "as external data (onnx.save_model(..., "
                        "save_as_external_data=True))";
    if (!onnx::ParseProtoFromBytes(&model, contents->data(), contents->size()))
      return error() << "not an ONNX model: the file does not parse as an "
                        "ONNX ModelProto (truncated, or another format)";
    return success();
  }

  LogicalResult checkVersions() {
    int64_t irVersion = model.ir_version();
    if (irVersion <= 0)
      return error() << "not an ONNX model: it has no IR version";
    if (irVersion > getNewestIRVersion())
      return error() << "the model's IR version " << irVersion
                     << " is newer than this kiln's ONNX library reads (IR "
                     << getNewestIRVersion() << ", opset "
                     << getNewestOpset() << ")";
    result->originalOpset = getDefaultOpset(model);
    if (result->originalOpset == 0)
      return error() << "the model imports no opset of the default ONNX "
                        "domain";
    if (result->originalOpset > getNewestOpset())
      return error() << "the model's opset " << result->originalOpset
                     << " is newer than this kiln's ONNX library knows ("
                     << getNewestOpset() << ")";
    if (model.graph().node_size() == 0 && model.graph().output_size() == 0)
      return error() << "the model's graph is empty";
    return success();
  }

  /// Refuses an Einsum equation ONNX's shape inference cannot read (it
  /// loops forever on a character other than a letter or an ellipsis in an
  /// operand), in every graph and function of the model; spaces, which
  /// numpy allows, are dropped.
  LogicalResult checkEquations() {
    auto isValid = [](StringRef equation) {
      auto isLabels = [](StringRef labels) {
        return llvm::all_of(labels, [](char c) { return llvm::isAlpha(c); });
      };
      auto isTerm = [&](StringRef term) {
        auto [before, after] = term.split("...");
        return isLabels(before) && isLabels(after);
      };
      auto [inputs, output] = equation.split("->");
      SmallVector<StringRef> terms;
      inputs.split(terms, ',');
      return llvm::all_of(terms, isTerm) && isTerm(output) &&
             !output.contains("->");
    };
    using Nodes = google::protobuf::RepeatedPtrField<onnx::NodeProto>;
    std::function<LogicalResult(Nodes &)> checkNodes =
        [&](Nodes &nodes) -> LogicalResult {
      for (onnx::NodeProto &node : nodes) {
        for (onnx::AttributeProto &attribute : *node.mutable_attribute()) {
          if (attribute.has_g() &&
              failed(checkNodes(*attribute.mutable_g()->mutable_node())))
            return failure();
          for (onnx::GraphProto &graph : *attribute.mutable_graphs())
            if (failed(checkNodes(*graph.mutable_node())))
              return failure();
          if (node.op_type() != "Einsum" || attribute.name() != "equation")
            continue;
          std::string equation = attribute.s();
          llvm::erase_if(equation, [](char c) { return llvm::isSpace(c); });
          if (!isValid(equation))
            return error() << (node.name().empty()
                                   ? "an Einsum node"
                                   : "node '" + node.name() + "' (Einsum)")
                           << ": the equation '" << attribute.s()
                           << "' is not operands of letters (and at most "
                              "one '...' each) joined by ',', with an "
                              "optional '->' and result";
          attribute.set_s(equation);
        }
      }
      return success();
    };
    if (failed(checkNodes(*model.mutable_graph()->mutable_node())))
      return failure();
    for (onnx::FunctionProto &function : *model.mutable_functions())
      if (failed(checkNodes(*function.mutable_node())))
        return failure();
    return success();
  }

  /// Moves external data and large tensors out of the proto.
  LogicalResult moveWeightsOut() {
    onnx::GraphProto &graph = *model.mutable_graph();
    ExternalDataReader external(path, fileLoc);
    auto takeLarge = [&](onnx::TensorProto &tensor) -> LogicalResult {
      TensorData data;
      data.elementType =
          static_cast<onnx::TensorProto_DataType>(tensor.data_type());
      data.dims.assign(tensor.dims().begin(), tensor.dims().end());
      if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
        FailureOr<std::string> bytes = external.read(tensor);
        if (failed(bytes))
          return failure();
        data.bytes = std::make_shared<const std::string>(std::move(*bytes));
      } else {
        FailureOr<std::string> bytes = takeTensorBytes(tensor, fileLoc);
        if (failed(bytes))
          return failure();
        data.bytes = std::make_shared<const std::string>(std::move(*bytes));
      }
      addWeightInput(graph, tensor);
      result->weights[tensor.name()] = std::move(data);
      return success();
    };
    auto isLarge = [](const onnx::TensorProto &tensor) {
      return tensor.data_location() == onnx::TensorProto::EXTERNAL ||
             getProtoDataBytes(tensor) > kInlineTensorBytes;
    };
    // Initializers.
    auto *initializers = graph.mutable_initializer();
    for (int i = 0; i < initializers->size();) {
      onnx::TensorProto &tensor = *initializers->Mutable(i);
      if (tensor.data_type() == onnx::TensorProto::STRING ||
          !isLarge(tensor)) {
        ++i;
        continue;
      }
      if (tensor.name().empty())
        return error() << "an initializer has no name";
      if (failed(takeLarge(tensor)))
        return failure();
      initializers->DeleteSubrange(i, 1);
    }
    // Constant nodes holding a large tensor become such weights too: the
    // node goes, its output is the weight.
    auto *nodes = graph.mutable_node();
    for (int i = 0; i < nodes->size();) {
      onnx::NodeProto &node = *nodes->Mutable(i);
      onnx::AttributeProto *value = nullptr;
      if (node.op_type() == "Constant" && isDefaultDomain(node.domain()) &&
          node.output_size() == 1 && node.attribute_size() == 1 &&
          node.attribute(0).name() == "value" && node.attribute(0).has_t())
        value = node.mutable_attribute(0);
      if (!value || value->t().data_type() == onnx::TensorProto::STRING ||
          !isLarge(value->t())) {
        ++i;
        continue;
      }
      onnx::TensorProto tensor = std::move(*value->mutable_t());
      tensor.set_name(node.output(0));
      if (failed(takeLarge(tensor)))
        return failure();
      nodes->DeleteSubrange(i, 1);
    }
    return success();
  }

  /// ONNX's checker; `when` says at which step.
  LogicalResult check(StringRef when) {
    std::string what = "the model does not pass ONNX's checker";
    if (!when.empty())
      what += (" " + when).str();
    return guard(what, [&] { onnx::checker::check_model(model); });
  }

  /// Gives every unnamed node a name (`<op type>_<index>`) and records the
  /// metadata exporters leave on nodes, which the version converter drops.
  LogicalResult nameNodes() {
    llvm::StringSet<> names;
    for (const onnx::NodeProto &node : model.graph().node())
      if (!node.name().empty())
        names.insert(node.name());
    int index = 0;
    for (onnx::NodeProto &node : *model.mutable_graph()->mutable_node()) {
      if (node.name().empty()) {
        std::string name = node.op_type() + "_" + std::to_string(index);
        for (int suffix = 1; names.contains(name); ++suffix)
          name = node.op_type() + "_" + std::to_string(index) + "_" +
                 std::to_string(suffix);
        names.insert(name);
        node.set_name(name);
      }
      ++index;
      NodeOrigin origin;
      origin.name = node.name();
      origin.opType = node.op_type();
      for (const onnx::StringStringEntryProto &entry : node.metadata_props()) {
        if (entry.key() == "pkg.torch.onnx.name_scopes")
          origin.scope = parseNameScope(entry.value());
        else if (entry.key() == "pkg.torch.onnx.stack_trace")
          origin.source = parseStackTrace(entry.value());
      }
      originsByName[origin.name] = std::move(origin);
    }
    return success();
  }

  /// The innermost module path of PyTorch's `name_scopes`, the repr of a
  /// list of cumulative paths whose last entry is the node's own name:
  /// "['', 'layer1', 'layer1.0', 'layer1.0.conv1', 'conv2d_3']" ->
  /// "layer1.0.conv1".
  static std::string parseNameScope(StringRef repr) {
    SmallVector<std::string> entries;
    for (size_t i = 0; i < repr.size(); ++i) {
      char quote = repr[i];
      if (quote != '\'' && quote != '"')
        continue;
      std::string entry;
      for (++i; i < repr.size() && repr[i] != quote; ++i) {
        if (repr[i] == '\\' && i + 1 < repr.size())
          ++i;
        entry += repr[i];
      }
      entries.push_back(std::move(entry));
    }
    if (entries.size() < 2)
      return "";
    return entries[entries.size() - 2];
  }

  /// `file.py:LINE` of the last frame of PyTorch's `stack_trace` outside
  /// PyTorch itself (the model's own code), else of its last frame.
  static std::string parseStackTrace(StringRef trace) {
    std::string found, last;
    SmallVector<StringRef> lines;
    trace.split(lines, '\n');
    for (StringRef line : lines) {
      line = line.trim();
      if (!line.consume_front("File \""))
        continue;
      size_t close = line.find('"');
      if (close == StringRef::npos)
        continue;
      StringRef file = line.take_front(close);
      StringRef rest = line.drop_front(close + 1);
      if (!rest.consume_front(", line "))
        continue;
      StringRef number = rest.take_while(llvm::isDigit);
      std::string frame =
          (llvm::sys::path::filename(file, llvm::sys::path::Style::posix) +
           ":" + number)
              .str();
      // Windows paths keep their backslashes in the posix style.
      frame = frame.substr(frame.find_last_of('\\') + 1);
      last = frame;
      if (!file.contains("/torch/") && !file.contains("\\torch\\"))
        found = frame;
    }
    return found.empty() ? last : found;
  }

  LogicalResult inlineLocalFunctions() {
    if (model.functions_size() == 0)
      return success();
    return guard("cannot inline the model's local functions", [&] {
      onnx::inliner::InlineLocalFunctions(model, /*convert_version=*/true);
    });
  }

  LogicalResult convert() {
    result->opset = getNewestOpset();
    if (result->originalOpset != result->opset) {
      if (failed(guard(("cannot convert the model from opset " +
                        Twine(result->originalOpset) + " to " +
                        Twine(result->opset) +
                        " (ONNX's version converter)")
                           .str(),
                       [&] {
                         model = onnx::version_conversion::ConvertVersion(
                             model, result->opset);
                       })))
        return failure();
    }
    return check("after its conversion to opset " + Twine(result->opset).str());
  }

  /// ONNX's shape inference, strict, with data propagation.
  LogicalResult inferShapes() {
    result->shapeData.clear();
    model.mutable_graph()->clear_value_info();
    onnx::ShapeInferenceOptions inference(/*check_type=*/true,
                                          /*strict_mode=*/1,
                                          /*data_prop=*/true);
    return guard("ONNX's shape inference fails on the model", [&] {
      onnx::shape_inference::InferShapes(
          model, onnx::OpSchemaRegistry::Instance(), inference,
          &result->shapeData);
    });
  }

  /// The type of each value the graph knows.
  std::map<std::string, const onnx::TypeProto *> getValueTypes() {
    std::map<std::string, const onnx::TypeProto *> types;
    const onnx::GraphProto &graph = model.graph();
    for (const auto *list : {&graph.input(), &graph.value_info(),
                             &graph.output()})
      for (const onnx::ValueInfoProto &info : *list)
        types[info.name()] = &info.type();
    return types;
  }

  /// Replaces every node whose op the importer does not convert but ONNX
  /// defines as a function of other ops by that function's body, until
  /// none is left; the body's nodes stand for the node they replace.
  /// Gives each node of an op ONNX defines as a function the attributes it
  /// leaves out at their defaults: the body reads them (a Constant of
  /// MeanVarianceNormalization's axes), and ONNX's inference through it,
  /// like its expansion, does not fill them in.
  void giveFunctionsTheirDefaults(const onnx::ISchemaRegistry &registry) {
    for (onnx::NodeProto &node : *model.mutable_graph()->mutable_node()) {
      if (!isDefaultDomain(node.domain()))
        continue;
      const onnx::OpSchema *schema =
          registry.GetSchema(node.op_type(), result->opset, "");
      if (!schema ||
          !(schema->HasFunction() || schema->HasContextDependentFunction()))
        continue;
      for (const auto &[name, attribute] : schema->attributes()) {
        if (attribute.default_value.type() == onnx::AttributeProto::UNDEFINED)
          continue;
        if (llvm::none_of(node.attribute(),
                          [&](const onnx::AttributeProto &given) {
                            return given.name() == name;
                          }))
          *node.add_attribute() = attribute.default_value;
      }
    }
  }

  LogicalResult expandFunctions() {
    const onnx::ISchemaRegistry *registry = onnx::OpSchemaRegistry::Instance();
    // Origins of the nodes as converted: by name, else their own.
    std::vector<NodeOrigin> origins;
    for (const onnx::NodeProto &node : model.graph().node()) {
      auto found = originsByName.find(node.name());
      if (found != originsByName.end()) {
        origins.push_back(found->second);
      } else {
        NodeOrigin origin;
        origin.name = node.name();
        origin.opType = node.op_type();
        origins.push_back(std::move(origin));
      }
    }
    for (int round = 0;; ++round) {
      giveFunctionsTheirDefaults(*registry);
      if (failed(inferShapes()))
        return failure();
      if (!options.convertedOps)
        break;
      std::map<std::string, const onnx::TypeProto *> types = getValueTypes();
      onnx::GraphProto expanded;
      std::vector<NodeOrigin> expandedOrigins;
      bool changed = false;
      for (auto entry : llvm::enumerate(model.graph().node())) {
        // Named, not bound: lambdas below capture it.
        size_t index = entry.index();
        const onnx::NodeProto &node = entry.value();
        const onnx::OpSchema *schema =
            isDefaultDomain(node.domain()) &&
                    !options.convertedOps->contains(node.op_type())
                ? registry->GetSchema(node.op_type(), result->opset, "")
                : nullptr;
        onnx::FunctionProto function;
        bool haveFunction = false;
        if (schema && schema->HasContextDependentFunction()) {
          std::vector<onnx::TypeProto> inputTypes;
          for (const std::string &input : node.input()) {
            auto type = types.find(input);
            inputTypes.push_back(type != types.end() ? *type->second
                                                     : onnx::TypeProto());
          }
          onnx::FunctionBodyBuildContextImpl context(node, inputTypes);
          if (failed(guard("cannot expand node '" + node.name() + "' (" +
                               node.op_type() + ")",
                           [&] {
                             haveFunction =
                                 schema->BuildContextDependentFunction(
                                     context, function, result->opset);
                           })))
            return failure();
        } else if (schema && schema->HasFunction()) {
          if (const onnx::FunctionProto *body =
                  schema->GetFunction(result->opset)) {
            function = *body;
            haveFunction = true;
          }
        }
        if (!haveFunction) {
          *expanded.add_node() = node;
          expandedOrigins.push_back(origins[index]);
          continue;
        }
        int before = expanded.node_size();
        if (failed(guard("cannot expand node '" + node.name() + "' (" +
                             node.op_type() + ")",
                         [&] {
                           onnx::FunctionExpandHelper(node, function,
                                                      expanded,
                                                      node.name() + "/");
                         })))
          return failure();
        for (int i = before; i < expanded.node_size(); ++i) {
          onnx::NodeProto &inner = *expanded.mutable_node(i);
          // The helper gives the body an attribute the node left out, and
          // the schema has no default for, as an empty one: a body op
          // would read it as given (NegativeLogLikelihoodLoss's
          // ignore_index as 0).
          auto *attributes = inner.mutable_attribute();
          for (int a = attributes->size() - 1; a >= 0; --a)
            if ((*attributes)[a].type() == onnx::AttributeProto::UNDEFINED)
              attributes->DeleteSubrange(a, 1);
          // It also names an input the body leaves out ('') as a value of
          // its own, which nothing defines: left out again.
          if (expanded.node_size() - before == function.node_size()) {
            const onnx::NodeProto &bodyNode = function.node(i - before);
            for (int j = 0; j < bodyNode.input_size() && j < inner.input_size();
                 ++j)
              if (bodyNode.input(j).empty())
                inner.set_input(j, "");
          }
          inner.set_name(node.name() + "/" + inner.op_type() + "_" +
                         std::to_string(i - before));
          expandedOrigins.push_back(origins[index]);
        }
        changed = true;
      }
      if (!changed)
        break;
      if (round == kMaxExpansionRounds)
        return error() << "function expansion does not end after "
                       << kMaxExpansionRounds << " rounds";
      model.mutable_graph()->mutable_node()->Swap(expanded.mutable_node());
      origins = std::move(expandedOrigins);
    }
    result->origins = std::move(origins);
    return success();
  }

  StringRef path;
  FileLineColLoc fileLoc;
  const LoadOptions &options;
  std::unique_ptr<LoadedModel> result;
  onnx::ModelProto &model;
  std::map<std::string, NodeOrigin> originsByName;
};

} // namespace

int64_t getNewestOpset() {
  return onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
      .Map()
      .at("")
      .second;
}

int64_t getNewestIRVersion() { return onnx::Version::IR_VERSION; }

std::string getElementTypeName(int32_t elementType) {
  if (onnx::TensorProto_DataType_IsValid(elementType))
    return onnx::TensorProto_DataType_Name(elementType);
  return "type " + std::to_string(elementType);
}

FailureOr<std::unique_ptr<llvm::MemoryBuffer>> readModelFile(StringRef path,
                                                             Location loc) {
  if (path == "-") {
    auto buffer = llvm::MemoryBuffer::getSTDIN();
    if (!buffer)
      return emitError(loc) << "cannot read the model from standard input: "
                            << buffer.getError().message();
    return std::move(*buffer);
  }
  std::string pathString = path.str();
  // Non-blocking: opening a FIFO for reading would wait for a writer.
  int fd = ::open(pathString.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return emitError(loc) << "cannot open the model: "
                          << std::strerror(errno);
  struct stat status;
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return emitError(loc) << "not a regular file";
  }
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      llvm::sys::fs::convertFDToNativeFile(fd), path, status.st_size,
      /*RequiresNullTerminator=*/false, /*IsVolatile=*/true);
  ::close(fd);
  if (!buffer)
    return emitError(loc) << "cannot read the model: "
                          << buffer.getError().message();
  return std::move(*buffer);
}

FailureOr<std::string> getTensorBytes(const onnx::TensorProto &tensor,
                                      Location loc) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' is stored as external data";
  if (tensor.has_raw_data())
    return tensor.raw_data();
  std::optional<uint64_t> count = getElementCount(tensor);
  int32_t type = tensor.data_type();
  size_t elementBytes = getElementBytes(type);
  if (!count || elementBytes == 0)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has element type " << getElementTypeName(type)
                          << " or a shape kiln cannot hold";
  std::string bytes(*count * elementBytes, '\0');
  auto store = [&](const auto &values) -> LogicalResult {
    if (static_cast<uint64_t>(values.size()) != *count)
      return emitError(loc)
             << "tensor '" << tensor.name() << "' holds " << values.size()
             << " values for " << *count << " elements";
    // Little-endian: the low bytes of a wider field are the value.
    for (int64_t i = 0, e = values.size(); i < e; ++i) {
      auto value = values.Get(i);
      std::memcpy(bytes.data() + i * elementBytes, &value, elementBytes);
    }
    return success();
  };
  LogicalResult stored = failure();
  switch (type) {
  case onnx::TensorProto::FLOAT:
    stored = store(tensor.float_data());
    break;
  case onnx::TensorProto::DOUBLE:
    stored = store(tensor.double_data());
    break;
  case onnx::TensorProto::INT64:
    stored = store(tensor.int64_data());
    break;
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    stored = store(tensor.uint64_data());
    break;
  default:
    // Every other fixed-size type keeps its bits in int32_data.
    stored = store(tensor.int32_data());
    break;
  }
  if (failed(stored))
    return failure();
  return bytes;
}

FailureOr<std::unique_ptr<LoadedModel>>
loadModel(StringRef path, std::unique_ptr<llvm::MemoryBuffer> contents,
          FileLineColLoc fileLoc, const LoadOptions &options) {
  return Loader(path, fileLoc, options).load(std::move(contents));
}

} // namespace mlir::kiln::onnx_import
