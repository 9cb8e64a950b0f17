//===- module_test.cc - Module loading, verification and execution tests --===//

#include "kiln/module.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "base/allocation_counter.h"
#include "gtest/gtest.h"
#include "kiln/context.h"
#include "kiln/tensor_io.h"
#include "module/elf_image.h"
#include "module/module_impl.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using namespace kiln::testing;

std::vector<uint8_t> FloatBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

const std::vector<uint8_t>& LibraryBytes(int variant) {
  static const std::vector<uint8_t> libraries[] = {
      ReadBinaryFile(KILN_TEST_LIBRARY_1), ReadBinaryFile(KILN_TEST_LIBRARY_2),
      ReadBinaryFile(KILN_TEST_LIBRARY_3), ReadBinaryFile(KILN_TEST_LIBRARY_4)};
  return libraries[variant - 1];
}

// The module most tests start from (slot numbers matter to the messages):
//   main(a: 8xf32, b: 8xf32) -> (8xf32, 2x4xf32):
//     %2 = constant 0; %3 = add(%0, %1) into buffer 0 (32 bytes);
//     %4 = add(%3, %2) into new storage
//     release %0 %1 %2 %3; %5 = reshape %4; return %4, %5
//   identity(a: 8xf32) -> (8xf32, 2x4xf32): returns a and a reshape of it
//   constant() -> (8xf32): returns constant 0
//   fail(a: 8xf32) -> (8xf32): dispatches an export that returns 7
//   ids() -> (3x2x4xi32): every workgroup writes its id
fb::ModuleT GoodSpec() {
  fb::ModuleT spec = NewModule("good");
  spec.libraries.push_back(Library(LibraryBytes(1)));
  Executables(spec).push_back(Executable(
      "ex", 0,
      {Export("add_f32", 0, 3, {4, 1, 1}), Export("fail", 1, 1, {1, 1, 1}),
       Export("workgroup_ids", 2, 1, {4, 2, 3})}));
  spec.constants.push_back(ConstantData(
      Type(F32, {8}), FloatBytes({10, 11, 12, 13, 14, 15, 16, 17})));
  fb::TensorTypeT v8 = Type(F32, {8}), m24 = Type(F32, {2, 4});
  spec.functions.push_back(
      Function("main", {v8, v8, v8, v8, v8, m24}, {0, 1}, {v8, m24},
               {Constant(2, 0), DispatchInto(0, 0, {0, 1}, {3}, {0}),
                Dispatch(0, 0, {3, 2}, {4}), Release({0, 1, 2, 3}),
                Reshape(5, 4), Return({4, 5})},
               {32}));
  spec.functions.push_back(Function("identity", {v8, m24}, {0}, {v8, m24},
                                    {Reshape(1, 0), Return({0, 1})}));
  spec.functions.push_back(
      Function("constant", {v8}, {}, {v8}, {Constant(0, 0), Return({0})}));
  spec.functions.push_back(Function("fail", {v8, v8}, {0}, {v8},
                                    {Dispatch(0, 1, {}, {1}), Return({1})}));
  spec.functions.push_back(
      Function("ids", {Type(I32, {24}), Type(I32, {3, 2, 4})}, {},
               {Type(I32, {3, 2, 4})},
               {Dispatch(0, 2, {}, {0}), Reshape(1, 0), Return({1})}));
  return spec;
}

Tensor F32Tensor(Shape shape, const std::vector<float>& values) {
  StatusOr<Tensor> tensor = Tensor::Allocate(ElementType::kF32, shape);
  EXPECT_TRUE(tensor.ok());
  EXPECT_EQ(tensor->element_count(), static_cast<int64_t>(values.size()));
  std::memcpy(tensor->mutable_data(), values.data(), tensor->byte_size());
  return *tensor;
}

std::vector<float> FloatValues(const Tensor& tensor) {
  const float* p = tensor.data_as<float>();
  return std::vector<float>(p, p + tensor.element_count());
}

//===----------------------------------------------------------------------===//
// Loading and running
//===----------------------------------------------------------------------===//

class ModuleRunTest : public ::testing::TestWithParam<int> {};

TEST_P(ModuleRunTest, ComputesMain) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(GetParam());
  Context context(*module, &pool);
  Tensor a = F32Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor b = F32Tensor({8}, {100, 200, 300, 400, 500, 600, 700, 800});
  const std::vector<float> expected = {110, 212, 314, 416, 518, 620, 722, 824};
  for (int call = 0; call < 50; ++call) {
    std::vector<Tensor> outputs;
    Status status = context.Call("main", {a, b}, &outputs);
    ASSERT_TRUE(status.ok()) << status.ToString();
    ASSERT_EQ(outputs.size(), 2u);
    EXPECT_EQ(outputs[0].type().ToString(), "8xf32");
    EXPECT_EQ(FloatValues(outputs[0]), expected);
    EXPECT_EQ(outputs[1].type().ToString(), "2x4xf32");
    EXPECT_EQ(FloatValues(outputs[1]), expected);
    EXPECT_FALSE(outputs[0].is_borrowed());
  }
  // The inputs are untouched.
  EXPECT_EQ(FloatValues(a), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_P(ModuleRunTest, WorkgroupIdsReachTheKernel) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(GetParam());
  Context context(*module, &pool);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(context.Call("ids", {}, &outputs).ok());
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].type().ToString(), "3x2x4xi32");
  const int32_t* ids = outputs[0].data_as<int32_t>();
  for (int z = 0; z < 3; ++z) {
    for (int y = 0; y < 2; ++y) {
      for (int x = 0; x < 4; ++x) {
        EXPECT_EQ(ids[x + 4 * (y + 2 * z)], x | (y << 8) | (z << 16));
      }
    }
  }
}

TEST_P(ModuleRunTest, DispatchFailureIsAnError) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(GetParam());
  Context context(*module, &pool);
  std::vector<Tensor> outputs = {Tensor()};
  Status status = context.Call(
      "fail", {F32Tensor({8}, std::vector<float>(8, 1))}, &outputs);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "function 'fail' instruction 0: dispatch 'fail' failed: workgroup "
            "(0, 0, 0) returned 7");
  EXPECT_TRUE(outputs.empty());
  // The context stays usable.
  ASSERT_TRUE(context.Call("constant", {}, &outputs).ok());
}

INSTANTIATE_TEST_SUITE_P(Threads, ModuleRunTest, ::testing::Values(1, 4));

TEST(ModuleTest, Signatures) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->name(), "good");
  const auto& functions = (*module)->functions();
  ASSERT_EQ(functions.size(), 5u);
  EXPECT_EQ(functions[0].ToString(), "main(8xf32, 8xf32) -> (8xf32, 2x4xf32)");
  EXPECT_EQ(functions[2].ToString(), "constant() -> (8xf32)");
  EXPECT_EQ(*(*module)->FindFunction("fail"), 3u);
  StatusOr<size_t> missing = (*module)->FindFunction("nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "no function 'nope' (available: main, identity, constant, fail, "
            "ids)");
  EXPECT_EQ((*module)->flatbuffer().version(), kModuleVersion);
}

TEST(ModuleTest, ResultsAliasingArgumentsOrConstantsAreCopied) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(2);
  auto context = std::make_unique<Context>(*module, &pool);
  Tensor a = F32Tensor({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  std::vector<Tensor> outputs;
  ASSERT_TRUE(context->Call("identity", {a}, &outputs).ok());
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_FALSE(outputs[0].SharesStorageWith(a));
  EXPECT_FALSE(outputs[1].SharesStorageWith(a));
  EXPECT_EQ(FloatValues(outputs[1]), FloatValues(a));
  EXPECT_EQ(outputs[1].type().ToString(), "2x4xf32");

  // A returned constant is owned by the caller and outlives the module.
  ASSERT_TRUE(context->Call("constant", {}, &outputs).ok());
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_FALSE(outputs[0].is_borrowed());
  const uint8_t* begin = (*module)->data();
  const uint8_t* end = begin + (*module)->size();
  const auto* data = outputs[0].data_as<uint8_t>();
  EXPECT_TRUE(data < begin || data >= end);
  context.reset();
  module->reset();
  EXPECT_EQ(FloatValues(outputs[0]),
            (std::vector<float>{10, 11, 12, 13, 14, 15, 16, 17}));
}

TEST(ModuleTest, InputErrors) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(1);
  Context context(*module, &pool);
  Tensor v8 = F32Tensor({8}, std::vector<float>(8, 0));
  std::vector<Tensor> outputs;
  EXPECT_EQ(context.Call("main", {v8}, &outputs).message(),
            "main(8xf32, 8xf32) -> (8xf32, 2x4xf32) takes 2 inputs, got 1");
  EXPECT_EQ(
      context.Call("main", {F32Tensor({2, 2}, {1, 2, 3, 4}), v8}, &outputs)
          .message(),
      "input 0: expected 8xf32, got 2x2xf32");
  StatusOr<Tensor> ints = ParseTensor("8xi32=1");
  ASSERT_TRUE(ints.ok());
  EXPECT_EQ(context.Call("main", {v8, *ints}, &outputs).message(),
            "input 1: expected 8xf32, got 8xi32");
  EXPECT_EQ(context.Call("main", {v8, Tensor()}, &outputs).message(),
            "input 1: empty tensor");
  EXPECT_EQ(context.Call("nope", {}, &outputs).message(),
            "no function 'nope' (available: main, identity, constant, fail, "
            "ids)");
}

TEST(ModuleTest, CheckInputsWithoutCalling) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const FunctionSignature& main = (*module)->functions()[0];
  Tensor v8 = F32Tensor({8}, std::vector<float>(8, 0));
  EXPECT_TRUE(CheckInputs(main, {v8, v8}).ok());
  EXPECT_EQ(CheckInputs(main, {v8}).message(),
            "main(8xf32, 8xf32) -> (8xf32, 2x4xf32) takes 2 inputs, got 1");
  EXPECT_EQ(CheckInputs(main, {v8, F32Tensor({2, 2}, {1, 2, 3, 4})}).message(),
            "input 1: expected 8xf32, got 2x2xf32");
}

TEST(ModuleTest, ContextsOnSeveralThreadsShareOneModule) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool shared_pool(2);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Context context(*module, &shared_pool);
      Tensor a = F32Tensor({8}, std::vector<float>(8, float(t)));
      Tensor b = F32Tensor({8}, std::vector<float>(8, 1));
      for (int call = 0; call < 100; ++call) {
        std::vector<Tensor> outputs;
        if (!context.Call("main", {a, b}, &outputs).ok() ||
            outputs[0].data_as<float>()[7] != float(t) + 1 + 17) {
          failures.fetch_add(1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

// Calls in the steady state: after warm-up, each of 10,000 calls of a
// function with two dispatches makes exactly as many allocations as the
// first, and heap use does not grow. Nothing accumulates per call.
//
// What a call of `main` allocates, in operator new calls: the returned
// dispatch result's storage owner (its bytes come from the allocator, which
// the counter does not see) and the shapes of the two results handed out.
// Arguments, the constant, the intermediate (in buffer 0, kept by the
// Context) and the reshape allocate nothing. (Before buffers were planned a
// call made 10: slots held tensors with shapes of their own, and every
// dispatch result was new storage.)
TEST(ModuleTest, CallsInTheSteadyStateAllocateNoMoreThanTheFirst) {
  constexpr size_t kAllocationsPerCall = 3;
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(2);
  Context context(*module, &pool);
  const std::vector<Tensor> inputs = {F32Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7}),
                                      F32Tensor({8}, std::vector<float>(8, 1))};
  std::vector<Tensor> outputs;
  for (int call = 0; call < 10; ++call) {
    ASSERT_TRUE(context.Call("main", inputs, &outputs).ok());
  }
  // Enough calls that a byte kept per call outgrows what a worker sets up
  // once when it first takes a workgroup, which on a loaded machine may be
  // during the measured calls rather than the warm-up.
  constexpr int kCalls = 10000;
  constexpr int64_t kOnceBytes = 4096;
  std::vector<size_t> counts;
  counts.reserve(kCalls);
  const int64_t heap_after_warm_up = HeapBytesInUse();
  for (int call = 0; call < kCalls; ++call) {
    AllocationCounter counter;
    const Status status = context.Call("main", inputs, &outputs);
    counts.push_back(counter.count());
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  EXPECT_EQ(counts.front(), kAllocationsPerCall);
  EXPECT_EQ(std::count(counts.begin(), counts.end(), counts.front()),
            static_cast<std::ptrdiff_t>(counts.size()))
      << "calls allocated from "
      << *std::min_element(counts.begin(), counts.end()) << " to "
      << *std::max_element(counts.begin(), counts.end()) << " times";
  if (kHeapStatsAreReliable) {
    // The last call's results are held, as after the warm-up: a byte kept
    // per call would add up to kCalls.
    EXPECT_LT(HeapBytesInUse() - heap_after_warm_up, kOnceBytes)
        << "heap use grew over " << kCalls << " calls";
  }
}

// An Allocator that counts what it hands out and gets back.
class CountingAllocator : public Allocator {
 public:
  void* Allocate(uint64_t byte_size) override {
    ++allocations;
    bytes_in_use += byte_size;
    return Allocator::Default()->Allocate(byte_size);
  }
  void Free(void* data, uint64_t byte_size) override {
    ++frees;
    bytes_in_use -= byte_size;
    Allocator::Default()->Free(data, byte_size);
  }
  std::atomic<int64_t> allocations = 0, frees = 0, bytes_in_use = 0;
};

// Everything a Context allocates comes from the allocator it was given: the
// function's buffer once, on the first call, and per call only the storage
// of the result it returns, which the caller frees by dropping it. Results
// keep the allocator alive past the Context.
TEST(ModuleTest, ContextAllocatesFromItsAllocator) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(2);
  auto allocator = std::make_shared<CountingAllocator>();
  const std::vector<Tensor> inputs = {F32Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7}),
                                      F32Tensor({8}, std::vector<float>(8, 1))};
  std::vector<Tensor> outputs;
  {
    Context context(*module, &pool, allocator);
    ASSERT_TRUE(context.Call("main", inputs, &outputs).ok());
    // Buffer 0 (32 bytes) and the returned result's storage.
    EXPECT_EQ(allocator->allocations, 2);
    EXPECT_EQ(allocator->frees, 0);
    EXPECT_EQ(allocator->bytes_in_use, 64);
    for (int call = 0; call < 1000; ++call) {
      ASSERT_TRUE(context.Call("main", inputs, &outputs).ok());
    }
    // One result's storage per call, the previous call's freed as its
    // results were replaced.
    EXPECT_EQ(allocator->allocations, 1002);
    EXPECT_EQ(allocator->frees, 1000);
    EXPECT_EQ(allocator->bytes_in_use, 64);
    EXPECT_EQ(FloatValues(outputs[0]),
              std::vector<float>({11, 13, 15, 17, 19, 21, 23, 25}));
  }
  // The buffer went with the Context; the result lives on.
  EXPECT_EQ(allocator->frees, 1001);
  EXPECT_EQ(allocator->bytes_in_use, 32);
  std::weak_ptr<Allocator> weak = allocator;
  allocator.reset();
  EXPECT_FALSE(weak.expired()) << "the result no longer holds its allocator";
  outputs.clear();
  EXPECT_TRUE(weak.expired());
}

// A caller may keep results across calls: the next call writes its
// buffers, never what an earlier call returned, whether the result was new
// storage or (in a module that returns a buffer's value) copied out.
TEST(ModuleTest, ResultsKeptAcrossCallsAreNotOverwritten) {
  fb::ModuleT spec = GoodSpec();
  fb::TensorTypeT v8 = Type(F32, {8});
  // %2 = add(%0, %1) into buffer 0; return %2 (copied out).
  spec.functions.push_back(
      Function("returns_buffer", {v8, v8, v8}, {0, 1}, {v8},
               {DispatchInto(0, 0, {0, 1}, {2}, {0}), Return({2})}, {32}));
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(2);
  Context context(*module, &pool);
  const Tensor ones = F32Tensor({8}, std::vector<float>(8, 1));
  for (std::string_view function : {"main", "returns_buffer"}) {
    std::vector<Tensor> first, second;
    ASSERT_TRUE(context
                    .Call(function,
                          {F32Tensor({8}, std::vector<float>(8, 0)), ones},
                          &first)
                    .ok());
    const std::vector<float> kept = FloatValues(first[0]);
    ASSERT_TRUE(context
                    .Call(function,
                          {F32Tensor({8}, std::vector<float>(8, 100)), ones},
                          &second)
                    .ok());
    EXPECT_EQ(FloatValues(first[0]), kept) << function;
    EXPECT_NE(FloatValues(second[0]), kept) << function;
    EXPECT_FALSE(first[0].SharesStorageWith(second[0])) << function;
  }
}

// The names the dynamic loader records for kiln's loaded libraries (their
// /proc/PID/fd paths).
std::vector<std::string> LoadedKilnLibraryNames() {
  struct Found {
    std::string prefix = "/proc/" + std::to_string(getpid()) + "/fd/";
    std::vector<std::string> names;
  } found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        Found& found = *static_cast<Found*>(out);
        if (info->dlpi_name &&
            std::string_view(info->dlpi_name).rfind(found.prefix, 0) == 0)
          found.names.push_back(info->dlpi_name);
        return 0;
      },
      &found);
  return found.names;
}

// Pins every library loaded from a /proc/PID/fd path (an extra dlopen
// reference), as a profiler that makes dlclose a no-op (Tracy) does.
std::vector<void*> PinLoadedKilnLibraries() {
  std::vector<void*> handles;
  for (const std::string& name : LoadedKilnLibraryNames())
    if (void* handle = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD))
      handles.push_back(handle);
  return handles;
}

// The spec of a module whose one function subtracts with library code 2,
// where GoodSpec's adds with library code 1.
fb::ModuleT SubtractingSpec() {
  fb::ModuleT spec = NewModule();
  spec.libraries.push_back(Library(LibraryBytes(2)));
  Executables(spec).push_back(
      Executable("ex", 0, {Export("sub_f32", 0, 3, {2, 1, 1})}));
  fb::TensorTypeT v4 = Type(F32, {4});
  spec.functions.push_back(
      Function("sub", {v4, v4, v4}, {0, 1}, {v4},
               {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
  return spec;
}

void ExpectSubtracts(const std::shared_ptr<const Module>& module) {
  ThreadPool pool(1);
  Context context(module, &pool);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(context
                  .Call("sub",
                        {F32Tensor({4}, {10, 20, 30, 40}),
                         F32Tensor({4}, {1, 2, 3, 4})},
                        &outputs)
                  .ok());
  EXPECT_EQ(FloatValues(outputs[0]), (std::vector<float>{9, 18, 27, 36}));
}

// A library that outlives its module's unload keeps its path in the dynamic
// loader; the next module, whose memfd may get the same fd number, must
// still load its own code (library 2: a - b), not the pinned library 1.
TEST(ModuleTest, LibrariesThatOutliveTheirModuleAreNeverReturnedAgain) {
  std::vector<void*> pinned;
  for (int round = 0; round < 20; ++round) {
    {
      StatusOr<std::shared_ptr<const Module>> first = LoadSpec(GoodSpec());
      ASSERT_TRUE(first.ok()) << first.status().ToString();
      std::vector<void*> handles = PinLoadedKilnLibraries();
      ASSERT_FALSE(handles.empty());
      pinned.insert(pinned.end(), handles.begin(), handles.end());
    }  // unloaded: dlclose leaves the pinned library mapped
    StatusOr<std::shared_ptr<const Module>> second =
        LoadSpec(SubtractingSpec());
    ASSERT_TRUE(second.ok())
        << "round " << round << ": " << second.status().ToString();
    ExpectSubtracts(*second);
  }
  for (void* handle : pinned) dlclose(handle);
}

// A sampling profiler that symbolizes frames when its viewer asks, after
// the module may be gone.
class LateResolvingTracer final : public Tracer {
 public:
  LateResolvingTracer() : Tracer(/*enabled=*/false, TraceOptions()) {}
  void PublishSources(const PublishedSources&) override {}
  void UnpublishSources(const PublishedSources&) override {}
  uint64_t BeginZone(const TraceSite&) override { return 0; }
  void EndZone(const TraceSite&, uint64_t) override {}
  Status Flush() override { return OkStatus(); }
  bool ResolvesCodeLate() const override { return true; }
};

// Under such a tracer an unloaded module's libraries stay mapped and their
// files readable at the names the loader records, so frames in them can
// still be symbolized; later modules still run their own code.
TEST(ModuleTest, LibrariesStayMappedForATracerThatResolvesCodeLate) {
  LateResolvingTracer tracer;
  SetTracer(&tracer);
  std::vector<std::string> names;
  {
    StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    names = LoadedKilnLibraryNames();
  }
  SetTracer(nullptr);
  ASSERT_FALSE(names.empty());
  const std::vector<std::string> after = LoadedKilnLibraryNames();
  for (const std::string& name : names) {
    EXPECT_NE(std::find(after.begin(), after.end(), name), after.end())
        << name << " was unmapped";
    std::ifstream file(name, std::ios::binary);
    char magic[SELFMAG] = {};
    file.read(magic, SELFMAG);
    EXPECT_TRUE(file && std::memcmp(magic, ELFMAG, SELFMAG) == 0)
        << name << " cannot be read";
  }
  StatusOr<std::shared_ptr<const Module>> next = LoadSpec(SubtractingSpec());
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  ExpectSubtracts(*next);
}

TEST(ModuleTest, TwoLibrariesLoadedAtOnceStayDistinct) {
  // Library 2 exports sub_f32. If dlopen handed back library 1 for the second
  // /proc/PID/fd/N path, export resolution would fail or compute a + b.
  StatusOr<std::shared_ptr<const Module>> first = LoadSpec(GoodSpec());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  std::vector<std::shared_ptr<const Module>> keep;
  for (int i = 0; i < 5; ++i) {
    StatusOr<std::shared_ptr<const Module>> second =
        LoadSpec(SubtractingSpec());
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    ExpectSubtracts(*second);
    if (i % 2) keep.push_back(*second);  // some stay loaded, some unload
  }
}

// A directory below TEST_TMPDIR, removed with the fixture; KILN_PERF_DIR
// names it while the test runs.
class PerfLibraryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    std::string name = std::string(tmp ? tmp : "/tmp") + "/kiln_perf_XXXXXX";
    ASSERT_NE(::mkdtemp(name.data()), nullptr);
    dir_ = name;
    ::setenv("KILN_PERF_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("KILN_PERF_DIR");
    ::unsetenv("KILN_PERF");
    std::filesystem::remove_all(dir_);
  }
  // The file GoodSpec's library is kept in for perf.
  std::string LibraryFile() const {
    const std::vector<uint8_t> bytes = LibraryBytes(1);
    return dir_ + "/" +
           FormatHash(HashSource(bytes.data(), bytes.size())).substr(2) + ".so";
  }
  // Runs GoodSpec's main once; the loaded code must compute it.
  static void ExpectRuns(const std::shared_ptr<const Module>& module) {
    ThreadPool pool(1);
    Context context(module, &pool);
    std::vector<Tensor> outputs;
    ASSERT_TRUE(context
                    .Call("main",
                          {F32Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7}),
                           F32Tensor({8}, {1, 1, 1, 1, 1, 1, 1, 1})},
                          &outputs)
                    .ok());
    EXPECT_EQ(FloatValues(outputs[0]),
              (std::vector<float>{11, 13, 15, 17, 19, 21, 23, 25}));
  }
  std::string dir_;
};

TEST_F(PerfLibraryTest, OffByDefaultNothingIsWritten) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(GoodSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

TEST_F(PerfLibraryTest, LibraryIsLoadedFromItsFileWhichIsReused) {
  ModuleLoadOptions options;
  options.perf_visible_libraries = true;
  StatusOr<std::shared_ptr<const Module>> first = LoadSpec(GoodSpec(), options);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  struct stat before;
  ASSERT_EQ(::stat(LibraryFile().c_str(), &before), 0);
  ExpectRuns(*first);
  // The mapping perf records names the file.
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  EXPECT_NE(text.str().find(LibraryFile()), std::string::npos);

  ::setenv("KILN_PERF", "1", 1);
  StatusOr<std::shared_ptr<const Module>> second = LoadSpec(GoodSpec());
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  struct stat after;
  ASSERT_EQ(::stat(LibraryFile().c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);
  ExpectRuns(*second);
}

TEST_F(PerfLibraryTest, FileWithOtherBytesIsReplaced) {
  // A truncated copy, as a damaged cache would hold.
  {
    std::ofstream(LibraryFile()) << "\x7f"
                                    "ELF";
  }
  ModuleLoadOptions options;
  options.perf_visible_libraries = true;
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(GoodSpec(), options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ(std::filesystem::file_size(LibraryFile()), LibraryBytes(1).size());
  ExpectRuns(*module);
}

TEST_F(PerfLibraryTest, FileOthersMayWriteIsRefused) {
  const std::vector<uint8_t> bytes = LibraryBytes(1);
  {
    std::ofstream out(LibraryFile(), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  ASSERT_EQ(::chmod(LibraryFile().c_str(), 0666), 0);
  ModuleLoadOptions options;
  options.perf_visible_libraries = true;
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(GoodSpec(), options);
  ASSERT_FALSE(module.ok());
  EXPECT_NE(module.status().message().find("writable only by it"),
            std::string::npos)
      << module.status().ToString();
}

// Under a umask that lets the group write (002, many distributions'
// default), the file the runtime writes is still writable by this user
// alone, so it loads.
TEST_F(PerfLibraryTest, FileWrittenUnderGroupWritableUmaskLoads) {
  const mode_t previous = ::umask(002);
  ModuleLoadOptions options;
  options.perf_visible_libraries = true;
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(GoodSpec(), options);
  ::umask(previous);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  struct stat info;
  ASSERT_EQ(::stat(LibraryFile().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
  ExpectRuns(*module);
}

TEST_F(PerfLibraryTest, SymlinkIsNotFollowed) {
  const std::string target = dir_ + "/elsewhere.so";
  const std::vector<uint8_t> bytes = LibraryBytes(1);
  {
    std::ofstream out(target, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  ASSERT_EQ(::symlink(target.c_str(), LibraryFile().c_str()), 0);
  ModuleLoadOptions options;
  options.perf_visible_libraries = true;
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(GoodSpec(), options);
  EXPECT_FALSE(module.ok());
}

TEST(ModuleTest, LoadFromFile) {
  const std::vector<uint8_t> bytes = BuildModule(GoodSpec());
  const std::string path = StrCat("/tmp/kiln_module_test_", getpid(), ".kiln");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  StatusOr<std::shared_ptr<const Module>> module = Module::Load(path);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->functions().size(), 5u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*module)->data()) % 4096, 0u);
  std::remove(path.c_str());
  // The module stays valid after the file is gone.
  ThreadPool pool(1);
  Context context(*module, &pool);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(context.Call("constant", {}, &outputs).ok());
  EXPECT_EQ(outputs[0].data_as<float>()[0], 10.0f);

  StatusOr<std::shared_ptr<const Module>> missing =
      Module::Load("/nonexistent/m.kiln");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "cannot open '/nonexistent/m.kiln': No such file or directory");
  StatusOr<std::shared_ptr<const Module>> directory = Module::Load("/tmp");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().message(),
            "cannot load '/tmp': not a regular file");
}

// The module is read, not mapped: truncating or rewriting its file while it
// runs leaves what was verified intact (with a mapping, the constant read
// below would fault with SIGBUS).
TEST(ModuleTest, FileChangedAfterLoadDoesNotAffectTheModule) {
  const std::vector<uint8_t> bytes = BuildModule(GoodSpec());
  const std::string path =
      StrCat("/tmp/kiln_module_test_truncated_", getpid(), ".kiln");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  StatusOr<std::shared_ptr<const Module>> module = Module::Load(path);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  ThreadPool pool(2);
  Context context(*module, &pool);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(context.Call("constant", {}, &outputs).ok());
  EXPECT_EQ(FloatValues(outputs[0]),
            (std::vector<float>{10, 11, 12, 13, 14, 15, 16, 17}));
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(bytes.size(), '\xff');
  }
  Tensor a = F32Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7});
  ASSERT_TRUE(context.Call("main", {a, a}, &outputs).ok());
  EXPECT_EQ(outputs[0].data_as<float>()[7], 7.0f + 7.0f + 17.0f);
  EXPECT_EQ((*module)->name(), "good");
  std::remove(path.c_str());
}

// A FIFO is refused without waiting for a writer.
TEST(ModuleTest, FifoIsRefusedWithoutBlocking) {
  const std::string path = StrCat("/tmp/kiln_module_test_fifo_", getpid());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  StatusOr<std::shared_ptr<const Module>> module = Module::Load(path);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().message(),
            StrCat("cannot load '", path, "': not a regular file"));
  std::remove(path.c_str());
}

TEST(ModuleTest, BorrowedBytesAreUsedInPlace) {
  std::vector<uint8_t> bytes = BuildModule(GoodSpec());
  // Copy into 64-byte aligned memory, as the API asks of borrowed bytes.
  std::unique_ptr<void, decltype(&std::free)> aligned(
      std::aligned_alloc(64, (bytes.size() + 63) & ~size_t{63}), &std::free);
  std::memcpy(aligned.get(), bytes.data(), bytes.size());
  StatusOr<std::shared_ptr<const Module>> module = Module::LoadFromMemory(
      aligned.get(), bytes.size(), Module::MemoryMode::kBorrow);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->data(), aligned.get());

  StatusOr<std::shared_ptr<const Module>> misaligned =
      Module::LoadFromMemory(static_cast<uint8_t*>(aligned.get()) + 8,
                             bytes.size() - 8, Module::MemoryMode::kBorrow);
  ASSERT_FALSE(misaligned.ok());
  EXPECT_EQ(misaligned.status().message(),
            "borrowed module bytes must be 64-byte aligned (use "
            "MemoryMode::kCopy)");
}

//===----------------------------------------------------------------------===//
// Verification failures
//===----------------------------------------------------------------------===//

TEST(ModuleVerifyTest, FileLevel) {
  fb::ModuleT spec = GoodSpec();
  spec.version = 1;
  EXPECT_EQ(LoadError(spec),
            StrCat("unsupported module version 1 (this runtime reads "
                   "version ",
                   KILN_MODULE_VERSION, ")"));
  EXPECT_EQ(LoadError(BuildModule(GoodSpec(), "XXXX")),
            "not a kiln module: file identifier is 'XXXX', expected 'KILN'");
  const uint8_t tiny[] = {1, 2, 3};
  StatusOr<std::shared_ptr<const Module>> module =
      Module::LoadFromMemory(tiny, sizeof(tiny), Module::MemoryMode::kCopy);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().message(),
            "not a kiln module: file is too small (3 bytes)");
}

TEST(ModuleVerifyTest, SlotIndices) {
  fb::ModuleT spec = GoodSpec();
  spec.functions[0]->body[1] = Dispatch(0, 0, {0, 17}, {3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: operand slot 17 out of range (6 "
            "slots)");
  spec = GoodSpec();
  spec.functions[0]->body[0] = Constant(6, 0);
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 0: result slot 6 out of range (6 "
            "slots)");
  spec = GoodSpec();
  spec.functions[0]->arguments = {0, 9};
  EXPECT_EQ(LoadError(spec),
            "function 'main' argument 1: argument slot 9 out of range (6 "
            "slots)");
  spec = GoodSpec();
  spec.functions[0]->body[3] = Release({0, 1, 2, 3, 99});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 3: released slot 99 out of range (6 "
            "slots)");
}

TEST(ModuleVerifyTest, SlotDefinitionOrder) {
  fb::ModuleT spec = GoodSpec();
  std::swap(spec.functions[0]->body[1], spec.functions[0]->body[2]);
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: operand slot 3 is read before it "
            "is written");
  spec = GoodSpec();
  spec.functions[0]->body[2] = Dispatch(0, 0, {3, 2}, {3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 2: result slot 3 is written more "
            "than once");
  spec = GoodSpec();
  spec.functions[0]->arguments = {0, 0};
  EXPECT_EQ(LoadError(spec),
            "function 'main' argument 1: argument slot 0 is written more than "
            "once");
  spec = GoodSpec();
  spec.functions[0]->body[3] = Release({0, 1, 2, 3, 4});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 4: source slot 4 is read after it "
            "was released");
  spec = GoodSpec();
  spec.functions[0]->body[3] = Release({0, 0});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 3: released slot 0 is read after it "
            "was released");
  spec = GoodSpec();
  spec.functions[0]->body.back() = Return({4, 3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 5: returned slot 3 is read after it "
            "was released");
}

TEST(ModuleVerifyTest, ExecutableAndExportIndices) {
  fb::ModuleT spec = GoodSpec();
  spec.functions[0]->body[1] = Dispatch(5, 0, {0, 1}, {3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: executable 5 out of range (1 "
            "executables)");
  spec = GoodSpec();
  spec.functions[0]->body[1] = Dispatch(0, 3, {0, 1}, {3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: export 3 out of range (executable "
            "'ex' has 3 exports)");
  spec = GoodSpec();
  Executables(spec)[0]->library = 1;
  EXPECT_EQ(LoadError(spec),
            "executable 0 'ex': library 1 out of range (1 libraries)");
}

TEST(ModuleVerifyTest, BindingCounts) {
  fb::ModuleT spec = GoodSpec();
  spec.functions[0]->body[1] = Dispatch(0, 0, {0}, {3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: dispatch of 'add_f32' has 2 "
            "bindings (1 operands + 1 results) but the export has 3");
  // The module agrees with itself but not with the library.
  spec = GoodSpec();
  Executables(spec)[0]->exports[1]->binding_count = 2;
  spec.functions[3]->body[0] = Dispatch(0, 1, {0}, {1});
  EXPECT_EQ(LoadError(spec),
            "executable 'ex' export 'fail': module declares 2 bindings but "
            "the library export has 1");
}

TEST(ModuleVerifyTest, WorkgroupCounts) {
  fb::ModuleT spec = GoodSpec();
  Executables(spec)[0]->exports[0]->workgroup_count = {4, 0, 1};
  EXPECT_EQ(LoadError(spec),
            "executable 0 'ex' export 'add_f32': workgroup count 4x0x1 has a "
            "zero entry");
  Executables(spec)[0]->exports[0]->workgroup_count = {4, 1};
  EXPECT_EQ(LoadError(spec),
            "executable 0 'ex' export 'add_f32': workgroup count has 2 "
            "entries (expected 3)");
  Executables(spec)[0]->exports[0]->workgroup_count = {65536, 65536, 2};
  EXPECT_EQ(LoadError(spec),
            "executable 0 'ex' export 'add_f32': workgroup count "
            "65536x65536x2 exceeds the limit of 4294967296 workgroups");
}

TEST(ModuleVerifyTest, Constants) {
  fb::ModuleT spec = GoodSpec();
  spec.constants[0]->data.resize(28);
  EXPECT_EQ(LoadError(spec),
            "constant 0: data is 28 bytes, but 8xf32 needs 32");
  spec = GoodSpec();
  spec.functions[0]->body[0] = Constant(2, 1);
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 0: constant 1 out of range (1 "
            "constants)");
  spec = GoodSpec();
  *spec.functions[0]->slot_types[2] = Type(F32, {2, 4});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 0: slot 2 has type 2x4xf32 but "
            "constant 0 is 8xf32");
  spec = GoodSpec();
  spec.constants[0]->type->shape = {-8};
  EXPECT_EQ(LoadError(spec), "constant 0: dimension 0 is negative (-8)");
}

TEST(ModuleVerifyTest, ConstantAlignment) {
  // Built by hand: the object API aligns constant data as the schema's
  // force_align: 64 demands. Without it the data lands 4-byte aligned; add
  // 1-byte constants in front until constant 0 is not 64-byte aligned.
  for (int extra = 0; extra < 32; ++extra) {
    flatbuffers::FlatBufferBuilder fbb;
    const std::vector<int64_t> shape = {8}, pad_shape = {1};
    std::vector<flatbuffers::Offset<fb::Constant>> constants = {
        fb::CreateConstant(
            fbb, fb::CreateTensorTypeDirect(fbb, F32, &shape),
            fbb.CreateVector(FloatBytes({1, 2, 3, 4, 5, 6, 7, 8})))};
    for (int i = 0; i < extra; ++i) {
      constants.push_back(fb::CreateConstant(
          fbb, fb::CreateTensorTypeDirect(fbb, fb::ElementType::I8, &pad_shape),
          fbb.CreateVector(std::vector<uint8_t>{0})));
    }
    const auto constants_vector = fbb.CreateVector(constants);
    const auto variants =
        fbb.CreateVector({fb::CreateCodeVariantDirect(fbb, "cpu")});
    fbb.Finish(fb::CreateModule(fbb, KILN_MODULE_VERSION, 0, 0, 0,
                                constants_vector, 0, 0, 0, 0, 0, 0, variants),
               fb::ModuleIdentifier());
    const std::vector<uint8_t> bytes(fbb.GetBufferPointer(),
                                     fbb.GetBufferPointer() + fbb.GetSize());
    const size_t offset =
        fb::GetModule(bytes.data())->constants()->Get(0)->data()->data() -
        bytes.data();
    if (offset % 64 == 0) continue;
    EXPECT_EQ(LoadError(bytes), StrCat("constant 0: data at offset ", offset,
                                       " is not 64-byte aligned"));
    return;
  }
  FAIL() << "could not build a misaligned constant";
}

TEST(ModuleVerifyTest, TypesAndReshapes) {
  fb::ModuleT spec = GoodSpec();
  *spec.functions[0]->slot_types[5] = Type(I32, {2, 4});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 4: reshape changes the element type "
            "(8xf32 to 2x4xi32)");
  spec = GoodSpec();
  *spec.functions[0]->slot_types[5] = Type(F32, {2, 3});
  *spec.functions[0]->result_types[1] = Type(F32, {2, 3});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 4: reshape changes the size (8xf32 "
            "to 2x3xf32)");
  spec = GoodSpec();
  spec.functions[0]->slot_types[0]->element_type =
      static_cast<fb::ElementType>(42);
  EXPECT_EQ(LoadError(spec), "function 'main' slot 0: invalid element type 42");
  spec = GoodSpec();
  spec.functions[0]->slot_types[1]->shape = {int64_t{1} << 40, 8};
  EXPECT_EQ(LoadError(spec),
            "function 'main' slot 1: size of 1099511627776x8xf32 exceeds the "
            "limit of 1099511627776 bytes");
}

// A module that needs more memory than allowed is refused at load, before
// anything is allocated.
TEST(ModuleVerifyTest, BufferLimit) {
  fb::ModuleT spec = GoodSpec();
  std::vector<uint8_t> bytes = BuildModule(spec);
  ModuleLoadOptions options;
  options.max_buffer_bytes = 96;  // the largest value: ids' 24xi32
  EXPECT_TRUE(Module::LoadFromMemory(bytes.data(), bytes.size(),
                                     Module::MemoryMode::kCopy, options)
                  .ok());
  options.max_buffer_bytes = 95;
  StatusOr<std::shared_ptr<const Module>> module = Module::LoadFromMemory(
      bytes.data(), bytes.size(), Module::MemoryMode::kCopy, options);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(module.status().message(),
            "function 'ids' slot 0: 24xi32 needs 96 bytes, more than the "
            "buffer limit of 95 bytes (ModuleLoadOptions::max_buffer_bytes; "
            "default: physical memory)");
  // By default the limit is this machine's memory: 1 TiB is refused.
  spec.functions[0]->slot_types[1]->shape = {int64_t{1} << 38};
  EXPECT_EQ(LoadError(spec).rfind(
                "function 'main' slot 1: 274877906944xf32 needs "
                "1099511627776 bytes, more than the buffer limit of ",
                0),
            0u);
}

// Where a dispatch writes its results: each buffer index in range, each
// buffer large enough for its result (a kernel writes its whole binding),
// each within the buffer limit, no two results of one dispatch in one
// buffer.
TEST(ModuleVerifyTest, ResultBuffers) {
  fb::ModuleT spec = GoodSpec();
  spec.functions[0]->body[1] = DispatchInto(0, 0, {0, 1}, {3}, {1});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: result 0 buffer 1 out of range (1 "
            "buffers)");
  spec = GoodSpec();
  spec.functions[0]->buffer_sizes = {31};
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: result 0 (slot 3, 8xf32, 32 "
            "bytes) is written into buffer 0 of 31 bytes");
  spec = GoodSpec();
  spec.functions[0]->body[1] = DispatchInto(0, 0, {0, 1}, {3}, {0, 0});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: dispatch has 1 results but 2 "
            "result buffers");
  spec = GoodSpec();
  spec.functions[0]->buffer_sizes = {32, 32};
  spec.functions[0]->body[1] = DispatchInto(0, 0, {0}, {3, 4}, {1, 1});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: results 0 and 1 are written into "
            "one buffer (1)");
  spec = GoodSpec();
  spec.functions[0]->buffer_sizes = {uint64_t{1} << 40};
  ModuleLoadOptions options;
  options.max_buffer_bytes = 1 << 20;
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec, options);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(module.status().message(),
            "function 'main' buffer 0 is 1099511627776 bytes, more than the "
            "buffer limit of 1048576 bytes (ModuleLoadOptions::"
            "max_buffer_bytes; default: physical memory)");
  // Each buffer within the limit, all of them not.
  spec = GoodSpec();
  spec.functions[0]->buffer_sizes = {32, 600 << 10, 600 << 10};
  module = LoadSpec(spec, options);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(module.status().message(),
            "function 'main' buffers 0 to 2 add up to more than the buffer "
            "limit of 1048576 bytes (ModuleLoadOptions::max_buffer_bytes; "
            "default: physical memory)");
  spec.functions[0]->buffer_sizes = {32, 500 << 10, 500 << 10};
  EXPECT_TRUE(LoadSpec(spec, options).ok());
}

// In a function without branches, a value whose buffer a later dispatch
// writes is dead from then on: reading it (through any view), or binding it
// as an operand of the dispatch that writes its buffer, is refused at load.
TEST(ModuleVerifyTest, ValuesSharingABufferAreNeverLiveAtOnce) {
  fb::ModuleT spec = GoodSpec();
  // %4 = add(%3, %2) into the buffer %3 is in: the kernel would read what
  // it writes.
  spec.functions[0]->body[2] = DispatchInto(0, 0, {3, 2}, {4}, {0});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 2: operand 0 (slot 3) views buffer "
            "0, which result 0 is written into");
  // reuse(a: 8xf32) -> (8xf32, 8xf32):
  //   %1 = constant 0; %2 = add(%0, %1) into buffer 0; %5 = reshape %2
  //   %3 = add(%0, %1) into buffer 0; %4 = add(%2, %3); return %3, %5
  // reads %2 (instruction 4) and its view %5 (5) after %3 took the buffer.
  const fb::TensorTypeT v8 = Type(F32, {8});
  auto reuse = [&](fb::OpUnion fourth, fb::OpUnion fifth) {
    fb::ModuleT reuse_spec = GoodSpec();
    reuse_spec.functions.clear();
    reuse_spec.functions.push_back(Function(
        "reuse", {v8, v8, v8, v8, v8, v8}, {0}, {v8, v8},
        {Constant(1, 0), DispatchInto(0, 0, {0, 1}, {2}, {0}), Reshape(5, 2),
         DispatchInto(0, 0, {0, 1}, {3}, {0}), fourth, fifth},
        {32}));
    return reuse_spec;
  };
  EXPECT_EQ(LoadError(reuse(Dispatch(0, 0, {2, 3}, {4}), Return({3, 4}))),
            "function 'reuse' instruction 4: operand slot 2 is read after "
            "buffer 0, which it views, was written again (by the dispatch at "
            "instruction 3): two values live at once must not share a "
            "buffer");
  EXPECT_EQ(LoadError(reuse(Dispatch(0, 0, {0, 3}, {4}), Return({3, 5}))),
            "function 'reuse' instruction 5: returned slot 5 is read after "
            "buffer 0, which it views, was written again (by the dispatch at "
            "instruction 3): two values live at once must not share a "
            "buffer");
  // Once %2 and %5 are dead, %3 may take their buffer.
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(reuse(Dispatch(0, 0, {0, 3}, {4}), Return({3, 4})));
  EXPECT_TRUE(module.ok()) << module.status().ToString();
}

// A corrupted library image is caught by its hash before any parser (ours
// or the dynamic loader's) reads it.
TEST(ModuleVerifyTest, LibraryHash) {
  fb::ModuleT spec = GoodSpec();
  spec.libraries[0]->data[100] ^= 0x40;
  spec.libraries[0]->hash = XXH3_64bits(GoodSpec().libraries[0]->data.data(),
                                        GoodSpec().libraries[0]->data.size());
  const std::string error = LoadError(spec);
  EXPECT_EQ(error.rfind("library 0: content hash mismatch (stored 0x", 0), 0u)
      << error;
  EXPECT_NE(error.find("): the library image is corrupted"), std::string::npos)
      << error;
}

// A dispatch's slots must have the types its export was compiled for.
TEST(ModuleVerifyTest, DispatchSlotsMatchBindingTypes) {
  fb::ModuleT spec = GoodSpec();
  const fb::TensorTypeT v8 = Type(F32, {8});
  Executables(spec)[0]->exports[0]->binding_types = Owned({v8, v8, v8});
  EXPECT_TRUE(LoadSpec(spec).ok());
  Executables(spec)[0]->exports[0]->binding_types =
      Owned({v8, v8, Type(F32, {4})});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 1: dispatch of 'add_f32' binding 2 "
            "is slot 3 of type 8xf32 but the export takes 4xf32");
}

// Tables referenced from many places cannot make verification run (or
// allocate) far beyond the module's size.
TEST(ModuleVerifyTest, WorkIsBoundedByTheModuleSize) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<int64_t> dims(64, 1);
  auto shared = fb::CreateTensorTypeDirect(fbb, fb::ElementType::F32, &dims);
  // 1M slots, all one rank-64 type: 4 MB of offsets, each copying 64 dims.
  std::vector<flatbuffers::Offset<fb::TensorType>> slots(1 << 20, shared);
  auto slot_types = fbb.CreateVector(slots);
  std::vector<uint32_t> operands = {0};
  auto ret = fb::CreateReturnOpDirect(fbb, &operands);
  std::vector<fb::Op> body_types = {fb::Op::ReturnOp};
  std::vector<flatbuffers::Offset<void>> body = {ret.Union()};
  std::vector<flatbuffers::Offset<fb::TensorType>> results = {shared};
  auto function = fb::CreateFunction(
      fbb, fbb.CreateString("f"), slot_types,
      fbb.CreateVector(std::vector<uint32_t>{0}), fbb.CreateVector(results),
      fbb.CreateVector(body_types), fbb.CreateVector(body));
  std::vector<flatbuffers::Offset<fb::Function>> functions;
  functions.push_back(function);
  const auto function_vector = fbb.CreateVector(functions);
  const auto variants =
      fbb.CreateVector({fb::CreateCodeVariantDirect(fbb, "cpu")});
  auto module = fb::CreateModule(fbb, KILN_MODULE_VERSION, 0, function_vector,
                                 0, 0, 0, 0, 0, 0, 0, 0, variants);
  fbb.Finish(module, KILN_MODULE_IDENTIFIER);
  StatusOr<std::shared_ptr<const Module>> loaded = Module::LoadFromMemory(
      fbb.GetBufferPointer(), fbb.GetSize(), Module::MemoryMode::kCopy);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(loaded.status().message().find(
                "module refers to its tables too many times for its size"),
            std::string::npos)
      << loaded.status().message();
}

// A library records the instruction-set features its code may use; loading
// it on a CPU without one is refused (instead of dying on an illegal
// instruction).
TEST(CpuFeatureTest, MissingAndUncheckableFeaturesAreNamed) {
  auto has = [](std::string_view name) -> std::optional<bool> {
    if (name == "avx2" || name == "fma") return true;
    if (name == "avx512f" || name == "avx512bw") return false;
    return std::nullopt;  // cannot tell
  };
  EXPECT_TRUE(CheckCpuFeatures("x86-64-v3", {"avx2", "fma"}, has).ok());
  Status status = CheckCpuFeatures("skylake-avx512",
                                   {"avx2", "avx512f", "fma", "avx512bw"}, has);
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_EQ(status.message(),
            "compiled for CPU 'skylake-avx512' with instructions this machine "
            "lacks: avx512f, avx512bw");
  // What cannot be checked may be missing: refused as well, not run.
  EXPECT_EQ(CheckCpuFeatures("future", {"avx2", "newext"}, has).message(),
            "compiled for CPU 'future' with instructions this runtime cannot "
            "check: newext");
  EXPECT_EQ(
      CheckCpuFeatures("future", {"newext", "avx512f", "other"}, has).message(),
      "compiled for CPU 'future' with instructions this machine lacks: "
      "avx512f (and ones this runtime cannot check: newext, other)");
}

// A library that names a feature this runtime does not know is refused at
// load, before its code can run; known features this machine has pass.
TEST(CpuFeatureTest, LoadRefusesLibrariesNeedingUncheckableFeatures) {
  fb::ModuleT spec = GoodSpec();
  spec.libraries[0]->cpu_features = {"sse2", "cx8"};
  EXPECT_TRUE(LoadSpec(spec).ok());
  spec.libraries[0]->cpu = "future";
  spec.libraries[0]->cpu_features = {"sse2", "newext"};
  EXPECT_EQ(LoadError(spec),
            "library 0: compiled for CPU 'future' with instructions this "
            "runtime cannot check: newext");
}

// Every feature LLVM 22 lists for some x86 CPU (X86::getFeaturesForCPU over
// all CPU names): the runtime can say for each whether this machine has it.
TEST(CpuFeatureTest, KnowsEveryFeatureLlvmListsForACpu) {
  for (std::string_view name : {
           "adx",
           "aes",
           "amx-avx512",
           "amx-bf16",
           "amx-complex",
           "amx-fp16",
           "amx-fp8",
           "amx-int8",
           "amx-movrs",
           "amx-tf32",
           "amx-tile",
           "avx",
           "avx10.2",
           "avx2",
           "avx512bf16",
           "avx512bitalg",
           "avx512bw",
           "avx512cd",
           "avx512dq",
           "avx512f",
           "avx512fp16",
           "avx512ifma",
           "avx512vbmi",
           "avx512vbmi2",
           "avx512vl",
           "avx512vnni",
           "avx512vp2intersect",
           "avx512vpopcntdq",
           "avxifma",
           "avxneconvert",
           "avxvnni",
           "avxvnniint16",
           "avxvnniint8",
           "bmi",
           "bmi2",
           "ccmp",
           "cldemote",
           "clflushopt",
           "clwb",
           "clzero",
           "cmov",
           "cmpccxadd",
           "crc32",
           "cx16",
           "cx8",
           "egpr",
           "enqcmd",
           "f16c",
           "fma",
           "fma4",
           "fsgsbase",
           "fxsr",
           "gfni",
           "hreset",
           "invpcid",
           "kl",
           "lwp",
           "lzcnt",
           "mmx",
           "movbe",
           "movdir64b",
           "movdiri",
           "movrs",
           "mwaitx",
           "ndd",
           "nf",
           "pclmul",
           "pconfig",
           "pku",
           "popcnt",
           "ppx",
           "prefetchi",
           "prfchw",
           "ptwrite",
           "push2pop2",
           "rdpid",
           "rdpru",
           "rdrnd",
           "rdseed",
           "sahf",
           "serialize",
           "sgx",
           "sha",
           "sha512",
           "shstk",
           "sm3",
           "sm4",
           "sse",
           "sse2",
           "sse3",
           "sse4.1",
           "sse4.2",
           "sse4a",
           "ssse3",
           "tbm",
           "tsxldtrk",
           "uintr",
           "usermsr",
           "vaes",
           "vpclmulqdq",
           "waitpkg",
           "wbnoinvd",
           "widekl",
           "x87",
           "xop",
           "xsave",
           "xsavec",
           "xsaveopt",
           "xsaves",
           "zu",
       }) {
    EXPECT_NE(HostHasCpuFeature(name), std::nullopt) << name;
  }
  EXPECT_EQ(HostHasCpuFeature("no-such-feature"), std::nullopt);
  EXPECT_EQ(HostHasCpuFeature("avx10.9"), std::nullopt);
}

// CPUID as the kernel reports it: the flags of /proc/cpuinfo, under Linux's
// names, for the features both name. The kernel also clears the flags of
// register state it does not save.
TEST(CpuFeatureTest, HostFeaturesAgreeWithProcCpuinfo) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  std::set<std::string> flags;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string word; words >> word;) flags.insert(word);
    break;
  }
  ASSERT_FALSE(flags.empty()) << "no flags line in /proc/cpuinfo";
  const std::pair<const char*, const char*> kLinuxNames[] = {
      {"x87", "fpu"},
      {"cx8", "cx8"},
      {"cmov", "cmov"},
      {"mmx", "mmx"},
      {"fxsr", "fxsr"},
      {"sse", "sse"},
      {"sse2", "sse2"},
      {"sse3", "pni"},
      {"pclmul", "pclmulqdq"},
      {"ssse3", "ssse3"},
      {"fma", "fma"},
      {"cx16", "cx16"},
      {"sse4.1", "sse4_1"},
      {"sse4.2", "sse4_2"},
      {"movbe", "movbe"},
      {"popcnt", "popcnt"},
      {"aes", "aes"},
      {"xsave", "xsave"},
      {"avx", "avx"},
      {"f16c", "f16c"},
      {"rdrnd", "rdrand"},
      {"sahf", "lahf_lm"},
      {"lzcnt", "abm"},
      {"sse4a", "sse4a"},
      {"prfchw", "3dnowprefetch"},
      {"xop", "xop"},
      {"fma4", "fma4"},
      {"tbm", "tbm"},
      {"64bit", "lm"},
      {"fsgsbase", "fsgsbase"},
      {"bmi", "bmi1"},
      {"avx2", "avx2"},
      {"bmi2", "bmi2"},
      {"avx512f", "avx512f"},
      {"avx512dq", "avx512dq"},
      {"rdseed", "rdseed"},
      {"adx", "adx"},
      {"avx512ifma", "avx512ifma"},
      {"clflushopt", "clflushopt"},
      {"clwb", "clwb"},
      {"avx512cd", "avx512cd"},
      {"sha", "sha_ni"},
      {"avx512bw", "avx512bw"},
      {"avx512vl", "avx512vl"},
      {"avx512vbmi", "avx512vbmi"},
      {"avx512vbmi2", "avx512_vbmi2"},
      {"gfni", "gfni"},
      {"vaes", "vaes"},
      {"vpclmulqdq", "vpclmulqdq"},
      {"avx512vnni", "avx512_vnni"},
      {"avx512bitalg", "avx512_bitalg"},
      {"avx512vpopcntdq", "avx512_vpopcntdq"},
      {"avx512fp16", "avx512_fp16"},
      {"avx512bf16", "avx512_bf16"},
      {"avxvnni", "avx_vnni"},
      {"xsaveopt", "xsaveopt"},
      {"xsavec", "xsavec"},
      {"amx-tile", "amx_tile"},
  };
  // Flags the kernel clears for an erratum although CPUID sets them and the
  // instruction runs: Linux hides RDSEED on AMD Zen 5, whose 16- and 32-bit
  // forms may return 0 as a success. A module built for such a CPU still
  // names the feature and must still load there, so kiln follows CPUID; the
  // two agree in one direction only.
  const std::set<std::string> kClearedForErrata = {"rdseed"};
  for (const auto& [llvm_name, linux_name] : kLinuxNames) {
    const bool kernel_has = flags.count(linux_name) > 0;
    if (!kernel_has && kClearedForErrata.count(linux_name) > 0) continue;
    EXPECT_EQ(HostHasCpuFeature(llvm_name), std::optional<bool>(kernel_has))
        << llvm_name << " (" << linux_name << " in /proc/cpuinfo)";
  }
  // The x86-64 baseline.
  for (const char* name :
       {"x87", "cmov", "cx8", "fxsr", "mmx", "sse", "sse2", "64bit"}) {
    EXPECT_EQ(HostHasCpuFeature(name), std::optional<bool>(true)) << name;
  }
}

TEST(ModuleVerifyTest, Returns) {
  fb::ModuleT spec = GoodSpec();
  spec.functions[0]->body.back() = Return({4});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 5: return has 1 operands but the "
            "function has 2 results");
  spec = GoodSpec();
  spec.functions[0]->body.back() = Return({5, 4});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 5: slot 5 has type 2x4xf32 but "
            "result 0 is 8xf32");
  spec = GoodSpec();
  spec.functions[0]->body.pop_back();
  EXPECT_EQ(LoadError(spec),
            "function 'main': body does not end with a return");
  spec = GoodSpec();
  spec.functions[0]->body.push_back(Release({4}));
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 6: instruction after the return");
  spec = GoodSpec();
  spec.functions[0]->body.insert(spec.functions[0]->body.begin(),
                                 fb::OpUnion{});
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 0: unknown instruction type 0");
  spec = GoodSpec();
  spec.functions[0]->body[0] = UnknownOp(99);
  EXPECT_EQ(LoadError(spec),
            "function 'main' instruction 0: unknown instruction type 99");
}

TEST(ModuleVerifyTest, FunctionNames) {
  fb::ModuleT spec = GoodSpec();
  spec.functions[1]->name = "main";
  EXPECT_EQ(LoadError(spec), "function 'main' is defined twice");
  spec.functions[1]->name = "";
  EXPECT_EQ(LoadError(spec), "function 1: missing name");
}

TEST(ModuleVerifyTest, Libraries) {
  fb::ModuleT spec = GoodSpec();
  Executables(spec)[0]->exports[0]->name = "add";
  EXPECT_EQ(LoadError(spec),
            "executable 'ex' export 'add': library 0 export 0 is named "
            "'add_f32'");
  spec = GoodSpec();
  Executables(spec)[0]->exports[0]->library_ordinal = 9;
  EXPECT_EQ(LoadError(spec),
            "executable 'ex' export 'add_f32': library ordinal 9 out of range "
            "(library 0 has 8 exports)");
  spec = GoodSpec();
  spec.libraries[0]->data.assign({'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o'});
  EXPECT_EQ(LoadError(spec), "library 0: not an ELF file");
  spec = GoodSpec();
  spec.libraries[0]->data.resize(spec.libraries[0]->data.size() / 2);
  EXPECT_NE(LoadError(spec).find("library 0: truncated ELF: segment"),
            std::string::npos);
  spec = GoodSpec();
  spec.libraries[0]->data.clear();
  EXPECT_EQ(LoadError(spec), "library 0: no data");
  spec = GoodSpec();
  spec.libraries[0]->format = "elf-aarch64";
  EXPECT_EQ(LoadError(spec),
            "library 0: unsupported format 'elf-aarch64' (expected "
            "'elf-x86_64')");
  spec = GoodSpec();
  spec.libraries[0]->data = LibraryBytes(3);
  EXPECT_EQ(LoadError(spec),
            "library 0: library answered with ABI version 99 (this runtime "
            "supports version 2)");
}

//===----------------------------------------------------------------------===//
// Code variants
//===----------------------------------------------------------------------===//

// GoodSpec compiled for two CPUs, each variant with a copy of test library
// 1: "x86-64-v4" (library 0), whose library also needs `v4_feature` when
// given and whose workgroup_ids runs over a 24x1x1 grid, then "x86-64"
// (library 1) with GoodSpec's 4x2x3. The functions are GoodSpec's: add_f32
// computes the same in both, ids tells them apart.
fb::ModuleT TwoVariantSpec(std::string v4_feature = "") {
  fb::ModuleT spec = GoodSpec();
  spec.libraries[0]->cpu = "x86-64-v4";
  if (!v4_feature.empty()) spec.libraries[0]->cpu_features = {v4_feature};
  spec.libraries.push_back(Library(LibraryBytes(1)));
  spec.variants[0]->name = "x86-64-v4";
  spec.variants.push_back(Variant("x86-64"));
  for (const auto& executable : spec.variants[0]->executables) {
    spec.variants[1]->executables.push_back(
        std::make_unique<fb::ExecutableT>(*executable));
  }
  spec.variants[1]->executables[0]->library = 1;
  spec.variants[0]->executables[0]->exports[2]->workgroup_count = {24, 1, 1};
  return spec;
}

// What ids() returns, 3x2x4 values as FormatTensor prints them: each
// workgroup's linear id over a 24x1x1 grid, its x | y << 8 | z << 16 over
// a 4x2x3 one.
std::string IdsText(bool grid_4x2x3) {
  std::string text = "3x2x4xi32=";
  for (int i = 0; i < 24; ++i) {
    const int x = i % 4, y = i / 4 % 2, z = i / 8;
    text += i % 8 == 0 ? "[[" : i % 4 == 0 ? "][" : " ";
    text += StrCat(grid_4x2x3 ? x | y << 8 | z << 16 : i);
    if (i % 8 == 7) text += "]]";
  }
  return text;
}
std::string Ids24x1x1() { return IdsText(false); }
std::string Ids4x2x3() { return IdsText(true); }

std::string CallIds(const std::shared_ptr<const Module>& module) {
  ThreadPool pool(2);
  Context context(module, &pool);
  return CallForText(context, "ids", {});
}

std::vector<float> CallMain(const std::shared_ptr<const Module>& module) {
  ThreadPool pool(2);
  Context context(module, &pool);
  std::vector<Tensor> outputs;
  const Status status =
      context.Call("main",
                   {F32Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7}),
                    F32Tensor({8}, {100, 200, 300, 400, 500, 600, 700, 800})},
                   &outputs);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return status.ok() ? FloatValues(outputs[0]) : std::vector<float>();
}

// A first variant whose library needs what this machine lacks is skipped:
// the second runs, its own exports (its grid), and only its library is
// loaded.
TEST(CodeVariantTest, TheFirstVariantThisMachineRunsIsChosen) {
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(TwoVariantSpec("newext"));
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->variant_index(), 1u);
  EXPECT_EQ((*module)->variant_name(), "x86-64");
  const std::vector<CodeVariantInfo>& variants = (*module)->variants();
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0].name, "x86-64-v4");
  EXPECT_EQ(variants[0].cpu, "x86-64-v4");
  EXPECT_EQ(variants[0].libraries, std::vector<uint32_t>{0});
  EXPECT_EQ(variants[0].cpu_features, std::vector<std::string_view>{"newext"});
  EXPECT_FALSE(variants[0].supported());
  EXPECT_EQ(variants[0].unsupported,
            "library 0: compiled for CPU 'x86-64-v4' with instructions this "
            "runtime cannot check: newext");
  EXPECT_EQ(variants[1].name, "x86-64");
  EXPECT_EQ(variants[1].cpu, "x86-64");
  EXPECT_EQ(variants[1].libraries, std::vector<uint32_t>{1});
  EXPECT_TRUE(variants[1].cpu_features.empty());
  EXPECT_TRUE(variants[1].supported());
  EXPECT_EQ(CallIds(*module), Ids4x2x3());
  EXPECT_EQ(CallMain(*module),
            std::vector<float>({110, 212, 314, 416, 518, 620, 722, 824}));
  StatusOr<ExportView> ids = (*module)->FindExport("workgroup_ids");
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids->workgroup_count(), (std::array<uint32_t, 3>{4, 2, 3}));
  // The skipped variant's library is never loaded: one that would fail to
  // load (its ABI version) is checked as an image only.
  fb::ModuleT spec = TwoVariantSpec("newext");
  spec.libraries[0]->data = LibraryBytes(3);
  module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ(CallIds(*module), Ids4x2x3());
  // ... but checked as an image all the same, loaded or not.
  spec.libraries[0]->data = LibraryBytes(4);
  EXPECT_EQ(LoadError(spec),
            "library 0: library has initializers or finalizers (dynamic tag "
            "25): the dynamic loader would run its code at load or unload");
}

// Each variant can be asked for by name: where the libraries agree the
// results are the same; what differs between them (the grid) follows the
// variant.
TEST(CodeVariantTest, ForcedVariantsRun) {
  const fb::ModuleT spec = TwoVariantSpec();
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->variant_name(), "x86-64-v4");
  EXPECT_EQ(CallIds(*module), Ids24x1x1());
  const std::vector<float> expected = CallMain(*module);
  for (const std::string name : {"x86-64-v4", "x86-64"}) {
    ModuleLoadOptions options;
    options.variant = name;
    module = LoadSpec(spec, options);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    EXPECT_EQ((*module)->variant_name(), name);
    EXPECT_EQ(CallMain(*module), expected) << name;
    EXPECT_EQ(CallIds(*module), name == "x86-64" ? Ids4x2x3() : Ids24x1x1());
  }
}

TEST(CodeVariantTest, UnknownVariantsAreErrors) {
  for (const bool load_libraries : {true, false}) {
    ModuleLoadOptions options;
    options.variant = "x86-64-v3";
    options.load_libraries = load_libraries;
    StatusOr<std::shared_ptr<const Module>> module =
        LoadSpec(TwoVariantSpec(), options);
    ASSERT_FALSE(module.ok());
    EXPECT_EQ(module.status().code(), StatusCode::kNotFound);
    EXPECT_EQ(module.status().message(),
              "no code variant 'x86-64-v3' (available: x86-64-v4, x86-64)");
  }
}

// A variant this machine cannot run is refused to run, named with what it
// lacks, but may be inspected.
TEST(CodeVariantTest, UnsupportedVariantsAreRefusedToRun) {
  ModuleLoadOptions options;
  options.variant = "x86-64-v4";
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(TwoVariantSpec("newext"), options);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(module.status().message(),
            "code variant 'x86-64-v4': library 0: compiled for CPU "
            "'x86-64-v4' with instructions this runtime cannot check: newext");
  options.load_libraries = false;
  module = LoadSpec(TwoVariantSpec("newext"), options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->variant_index(), 0u);
  EXPECT_FALSE((*module)->libraries_loaded());

  // None runs here: each is named with what it lacks.
  fb::ModuleT spec = TwoVariantSpec("newext");
  spec.libraries[1]->cpu_features = {"avx512f", "otherext"};
  module = LoadSpec(spec);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kUnimplemented);
  const std::string v4 =
      "code variant 'x86-64-v4': library 0: compiled for CPU 'x86-64-v4' "
      "with instructions this runtime cannot check: newext";
  const std::string message = module.status().message();
  EXPECT_EQ(message.rfind(
                "no code variant of the module runs on this machine: " + v4 +
                    "; code variant 'x86-64': library 1: compiled for CPU "
                    "'x86-64' with instructions this ",
                0),
            0u)
      << message;
  EXPECT_NE(message.find("otherext"), std::string::npos) << message;
  // Inspected, the first is shown.
  options = {};
  options.load_libraries = false;
  module = LoadSpec(spec, options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->variant_index(), 0u);
  EXPECT_FALSE((*module)->variants()[1].supported());
  // Inspected, the first this machine runs is shown.
  module = LoadSpec(TwoVariantSpec("newext"), options);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->variant_index(), 1u);
}

TEST(CodeVariantTest, VariantsAreNamedUniquely) {
  fb::ModuleT spec = TwoVariantSpec();
  spec.variants.clear();
  EXPECT_EQ(LoadError(spec),
            "the module has no code variants (it needs at least one)");
  spec = TwoVariantSpec();
  spec.variants[1]->name = "";
  EXPECT_EQ(LoadError(spec), "code variant 1: missing name");
  spec = TwoVariantSpec();
  spec.variants[1]->name = "x86-64-v4";
  EXPECT_EQ(LoadError(spec), "code variant 'x86-64-v4' is defined twice");
}

// Host functions run with any variant: every one has the same executables
// and exports, as a dispatch sees them.
TEST(CodeVariantTest, VariantsShareTheirInterface) {
  const std::string there = " in code variant 'x86-64-v4'";
  fb::ModuleT spec = TwoVariantSpec();
  spec.variants[1]->executables.push_back(Executable("ex2", 1, {}));
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64': 2 executables but 1" + there);
  spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->name = "ex2";
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0: named 'ex2' but 'ex'" + there);
  spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->exports.pop_back();
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex': 2 exports but 3" + there);
  spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->exports[1]->name = "fail2";
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex' export 1: named 'fail2' "
            "but 'fail'" +
                there);
  spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->exports[1]->binding_count = 2;
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex' export 'fail': 2 "
            "bindings but 1" +
                there);
  const fb::TensorTypeT v8 = Type(F32, {8});
  spec = TwoVariantSpec();
  spec.variants[0]->executables[0]->exports[0]->binding_types =
      Owned({v8, v8, v8});
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex' export 'add_f32': 0 "
            "binding types but 3" +
                there);
  spec.variants[1]->executables[0]->exports[0]->binding_types =
      Owned({v8, v8, Type(F32, {-1})});
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex' export 'add_f32': "
            "binding 2 is ?xf32 but 8xf32" +
                there);
  spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->exports[0]->index_constant_count = 1;
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex' export 'add_f32': 1 "
            "index constants but 0" +
                there);
  // What code generation chose may differ.
  spec = TwoVariantSpec();
  fb::ExportT& add = *spec.variants[1]->executables[0]->exports[0];
  add.workgroup_count = {2, 1, 1};
  add.location = Location("model.mlir", 2, 8);
  EXPECT_TRUE(LoadSpec(spec).ok());
}

// Each library belongs to one variant (the only one that loads it).
TEST(CodeVariantTest, EachLibraryBelongsToOneVariant) {
  fb::ModuleT spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->library = 0;
  EXPECT_EQ(LoadError(spec),
            "library 0 is used by code variants 'x86-64-v4' and 'x86-64' "
            "(each library belongs to one variant)");
  spec = TwoVariantSpec();
  spec.variants[1]->executables[0]->library = 2;
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64' executable 0 'ex': library 2 out of range "
            "(2 libraries)");
  spec = TwoVariantSpec();
  spec.libraries.push_back(Library(LibraryBytes(2)));
  EXPECT_EQ(LoadError(spec), "library 2 is used by no code variant");
}

// Every variant is verified as the one that runs is, the others included.
TEST(CodeVariantTest, EveryVariantIsVerified) {
  fb::ModuleT spec = TwoVariantSpec("newext");
  spec.variants[0]->executables[0]->exports[0]->workgroup_count = {4, 0, 1};
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64-v4' executable 0 'ex' export 'add_f32': "
            "workgroup count 4x0x1 has a zero entry");
  spec = TwoVariantSpec("newext");
  spec.variants[0]->executables[0]->exports[0]->stage_locations =
      Owned({StageLocation(0, 0, 1)});
  EXPECT_EQ(LoadError(spec),
            "code variant 'x86-64-v4' executable 0 'ex' export 'add_f32': "
            "stage location 0: stage 0 out of range (0 capture stages)");
  spec = TwoVariantSpec("newext");
  spec.libraries[0]->data.clear();
  EXPECT_EQ(LoadError(spec), "library 0: no data");
}

//===----------------------------------------------------------------------===//
// The module's metadata against the library's description of its code
//===----------------------------------------------------------------------===//

// copy(a: 2x4xf32) -> 2x4xf32 through copy_rows_2x4_f32, which is built for
// a 2x1x1 grid and 2x4xf32 bindings and checks neither, as compiled code.
fb::ModuleT CopyRowsSpec() {
  fb::ModuleT spec = NewModule();
  spec.libraries.push_back(Library(LibraryBytes(1)));
  const fb::TensorTypeT m24 = Type(F32, {2, 4});
  fb::ExportT copy = Export("copy_rows_2x4_f32", 5, 2, {2, 1, 1});
  copy.binding_types = Owned({m24, m24});
  Executables(spec).push_back(Executable("ex", 0, {copy}));
  spec.functions.push_back(Function("copy", {m24, m24}, {0}, {m24},
                                    {Dispatch(0, 0, {0}, {1}), Return({1})}));
  return spec;
}

TEST(LibraryDescriptionTest, AgreeingModuleRuns) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(CopyRowsSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(2);
  Context context(*module, &pool);
  std::vector<Tensor> outputs;
  const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(context.Call("copy", {F32Tensor({2, 4}, values)}, &outputs).ok());
  EXPECT_EQ(FloatValues(outputs[0]), values);
}

// A larger grid would run workgroups past the buffers, a smaller one would
// leave rows unwritten: either is refused before anything runs.
TEST(LibraryDescriptionTest, WorkgroupCountMustBeTheBuiltOne) {
  for (std::vector<uint32_t> count :
       {std::vector<uint32_t>{3, 1, 1}, std::vector<uint32_t>{1, 1, 1},
        std::vector<uint32_t>{2, 2, 1}, std::vector<uint32_t>{2, 1, 1 << 20}}) {
    fb::ModuleT spec = CopyRowsSpec();
    Executables(spec)[0]->exports[0]->workgroup_count = count;
    EXPECT_EQ(LoadError(spec),
              StrCat("executable 'ex' export 'copy_rows_2x4_f32': module "
                     "declares workgroup count ",
                     count[0], "x", count[1], "x", count[2],
                     " but the library export was built for 2x1x1 (0: any "
                     "count; the module is corrupt or was changed)"));
  }
}

// A consistent change of shapes (export and slots agree) still disagrees
// with the code: the kernel would write past a smaller buffer.
TEST(LibraryDescriptionTest, BindingTypesMustBeTheBuiltOnes) {
  fb::ModuleT spec = CopyRowsSpec();
  const fb::TensorTypeT m14 = Type(F32, {1, 4});
  Executables(spec)[0]->exports[0]->binding_types = Owned({m14, m14});
  spec.functions[0]->slot_types = Owned({m14, m14});
  spec.functions[0]->result_types = Owned({m14});
  EXPECT_EQ(LoadError(spec),
            "executable 'ex' export 'copy_rows_2x4_f32': module declares "
            "binding 0 as 1x4xf32 but the library export takes 2x4xf32 "
            "(read)");
  // Without binding types in the export, the dispatch's slots are checked.
  Executables(spec)[0]->exports[0]->binding_types.clear();
  EXPECT_EQ(LoadError(spec),
            "function 'copy' instruction 0: dispatch of 'copy_rows_2x4_f32' "
            "binds operand slot 0 of type 1x4xf32 at binding 0 but the "
            "library export takes 2x4xf32 (read)");
  spec = CopyRowsSpec();
  const fb::TensorTypeT i24 = Type(I32, {2, 4});
  Executables(spec)[0]->exports[0]->binding_types = Owned({i24, i24});
  spec.functions[0]->slot_types = Owned({i24, i24});
  spec.functions[0]->result_types = Owned({i24});
  EXPECT_EQ(LoadError(spec),
            "executable 'ex' export 'copy_rows_2x4_f32': module declares "
            "binding 0 as 2x4xi32 but the library export takes 2x4xf32 "
            "(read)");
}

// Which bindings are results decides what the kernel may write: an output
// bound as an operand would be written in module memory or the caller's
// input; an input bound as a result would be handed out never written.
TEST(LibraryDescriptionTest, WrittenBindingsMustBeTheResults) {
  fb::ModuleT spec = CopyRowsSpec();
  spec.functions[0]->body = {Dispatch(0, 0, {0, 1}, {}), Return({1})};
  spec.functions[0]->arguments = {0, 1};
  spec.functions[0]->slot_types = Owned({Type(F32, {2, 4}), Type(F32, {2, 4})});
  EXPECT_EQ(LoadError(spec),
            "function 'copy' instruction 0: dispatch of 'copy_rows_2x4_f32' "
            "binds operand slot 1 of type 2x4xf32 at binding 1 but the "
            "library export takes 2x4xf32 (written)");
  spec = CopyRowsSpec();
  spec.functions[0]->arguments = {};
  spec.functions[0]->body = {Dispatch(0, 0, {}, {0, 1}), Return({1})};
  EXPECT_EQ(LoadError(spec),
            "function 'copy' instruction 0: dispatch of 'copy_rows_2x4_f32' "
            "binds result slot 0 of type 2x4xf32 at binding 0 but the "
            "library export takes 2x4xf32 (read)");
}

TEST(LibraryDescriptionTest, AnyExtentAndCountIsForCodeThatBoundsItself) {
  // add_f32 takes any length and grid: GoodSpec runs it over 4x1x1 and 8
  // elements, kiln-run's tests over 2x1x1.
  fb::ModuleT spec = GoodSpec();
  Executables(spec)[0]->exports[0]->workgroup_count = {7, 1, 1};
  EXPECT_TRUE(LoadSpec(spec).ok());
  // Its element type and rank are fixed all the same.
  spec = GoodSpec();
  const fb::TensorTypeT m24 = Type(F32, {2, 4});
  Executables(spec)[0]->exports[0]->binding_types = Owned({m24, m24, m24});
  spec.functions.clear();
  spec.functions.push_back(
      Function("add", {m24, m24, m24}, {0, 1}, {m24},
               {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
  EXPECT_EQ(LoadError(spec),
            "executable 'ex' export 'add_f32': module declares binding 0 as "
            "2x4xf32 but the library export takes ?xf32 (read)");
}

//===----------------------------------------------------------------------===//
// Library images: nothing of theirs runs at load
//===----------------------------------------------------------------------===//

// Changes the flags of the first program header of type `type`; false when
// there is none.
bool SetSegmentFlags(std::vector<uint8_t>* image, uint32_t type, uint32_t flags,
                     uint32_t only_if_flag = 0) {
  Elf64_Ehdr header;
  std::memcpy(&header, image->data(), sizeof(header));
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    uint8_t* at = image->data() + header.e_phoff + i * sizeof(segment);
    std::memcpy(&segment, at, sizeof(segment));
    if (segment.p_type != type ||
        (only_if_flag && !(segment.p_flags & only_if_flag))) {
      continue;
    }
    segment.p_flags = flags;
    std::memcpy(at, &segment, sizeof(segment));
    return true;
  }
  return false;
}

std::string ImageError(std::vector<uint8_t> image) {
  Status status = CheckElfImage(image.data(), image.size());
  EXPECT_FALSE(status.ok()) << "image accepted";
  return status.message();
}

TEST(LibraryImageTest, TestLibrariesAreAccepted) {
  for (int variant : {1, 2, 3}) {
    const std::vector<uint8_t>& image = LibraryBytes(variant);
    EXPECT_TRUE(CheckElfImage(image.data(), image.size()).ok())
        << "variant " << variant;
  }
}

TEST(LibraryImageTest, ConstructorsAreRefusedBeforeTheyRun) {
  // Built from C with a constructor: refused by verification, so the
  // constructor never runs, loaded or not.
  fb::ModuleT spec = GoodSpec();
  spec.libraries[0]->data = LibraryBytes(4);
  Executables(spec)[0]->exports = Owned({Export("sub_f32", 0, 3, {2, 1, 1})});
  spec.functions.clear();
  const std::string error = LoadError(spec);
  EXPECT_NE(error.find("library 0: library has initializers or finalizers"),
            std::string::npos)
      << error;
  ModuleLoadOptions inspect;
  inspect.load_libraries = false;
  EXPECT_FALSE(LoadSpec(spec, inspect).ok());
  // Had the constructor run, it would have trapped this process.
}

TEST(LibraryImageTest, MutatedDynamicSectionsAreRefused) {
  const std::vector<uint8_t>& good = LibraryBytes(1);
  // Some entry every image has, turned into what must not be there.
  for (int64_t tag :
       {DT_INIT, DT_INIT_ARRAY, DT_PREINIT_ARRAY, DT_FINI, DT_FINI_ARRAY}) {
    std::vector<uint8_t> image = good;
    ASSERT_TRUE(RetagDynamicEntry(&image, DT_HASH, tag, 0) ||
                RetagDynamicEntry(&image, DT_GNU_HASH, tag, 0));
    EXPECT_EQ(
        ImageError(image),
        StrCat("library has initializers or finalizers (dynamic tag ", tag,
               "): the dynamic loader would run its code at load "
               "or unload"));
  }
  std::vector<uint8_t> image = good;
  ASSERT_TRUE(RetagDynamicEntry(&image, DT_GNU_HASH, DT_NEEDED, 1) ||
              RetagDynamicEntry(&image, DT_HASH, DT_NEEDED, 1));
  EXPECT_EQ(ImageError(image),
            "library depends on other libraries (dynamic tag 1): kiln "
            "libraries are self-contained");
  image = good;
  ASSERT_TRUE(RetagDynamicEntry(&image, DT_GNU_HASH, DT_TEXTREL, 0) ||
              RetagDynamicEntry(&image, DT_HASH, DT_TEXTREL, 0));
  EXPECT_EQ(ImageError(image),
            "library has text relocations: the loader would make its code "
            "writable");
  // A relocation table pointing outside the image.
  image = good;
  ASSERT_TRUE(RetagDynamicEntry(&image, DT_RELA, DT_RELA, 1u << 30));
  EXPECT_NE(ImageError(image).find("relocation table at address 1073741824"),
            std::string::npos);
}

// The program headers of an ELF image, read to find its dynamic entries and
// the bytes at a virtual address.
class ImageLayout {
 public:
  explicit ImageLayout(std::vector<uint8_t>* image) : image_(*image) {
    Elf64_Ehdr header;
    std::memcpy(&header, image_.data(), sizeof(header));
    segments_.resize(header.e_phnum);
    std::memcpy(segments_.data(), image_.data() + header.e_phoff,
                header.e_phnum * sizeof(Elf64_Phdr));
  }

  /// The value of the dynamic entry tagged `tag`, or 0 when there is none.
  uint64_t Dynamic(int64_t tag) const {
    for (const Elf64_Phdr& segment : segments_) {
      if (segment.p_type != PT_DYNAMIC) continue;
      for (uint64_t at = 0; at < segment.p_filesz; at += sizeof(Elf64_Dyn)) {
        Elf64_Dyn entry;
        std::memcpy(&entry, image_.data() + segment.p_offset + at,
                    sizeof(entry));
        if (entry.d_tag == tag) return entry.d_un.d_val;
      }
    }
    return 0;
  }

  /// The image's bytes at virtual `address`, or null outside every loaded
  /// segment.
  uint8_t* At(uint64_t address) const {
    for (const Elf64_Phdr& segment : segments_) {
      if (segment.p_type == PT_LOAD && address >= segment.p_vaddr &&
          address < segment.p_vaddr + segment.p_filesz) {
        return image_.data() + segment.p_offset + (address - segment.p_vaddr);
      }
    }
    return nullptr;
  }

 private:
  std::vector<uint8_t>& image_;
  std::vector<Elf64_Phdr> segments_;
};

// An IRELATIVE relocation would call a resolver of the library at load.
TEST(LibraryImageTest, IfuncRelocationsAreRefused) {
  std::vector<uint8_t> image = LibraryBytes(1);
  const ImageLayout layout(&image);
  const uint64_t rela = layout.Dynamic(DT_RELA);
  ASSERT_NE(rela, 0u) << "the test library has no relocations";
  ASSERT_TRUE(layout.At(rela));
  Elf64_Rela relocation;
  std::memcpy(&relocation, layout.At(rela), sizeof(relocation));
  relocation.r_info = ELF64_R_INFO(0, R_X86_64_IRELATIVE);
  std::memcpy(layout.At(rela), &relocation, sizeof(relocation));
  EXPECT_EQ(ImageError(image),
            "library has IFUNC relocations: the loader would run its "
            "resolvers at load");
}

// A relocation bound to an IFUNC symbol of the library would call its
// resolver at load just the same.
TEST(LibraryImageTest, RelocationsToIfuncSymbolsAreRefused) {
  std::vector<uint8_t> image = LibraryBytes(1);
  const ImageLayout layout(&image);
  const uint64_t rela = layout.Dynamic(DT_RELA);
  const uint64_t symtab = layout.Dynamic(DT_SYMTAB);
  ASSERT_NE(rela, 0u) << "the test library has no relocations";
  ASSERT_NE(symtab, 0u) << "the test library has no symbols";
  uint8_t* const relocation_at = layout.At(rela);
  uint8_t* const symbol_at = layout.At(symtab + sizeof(Elf64_Sym));
  ASSERT_TRUE(relocation_at && symbol_at);
  // Relocation 0 becomes a GOT entry of symbol 1 (the query function).
  Elf64_Rela relocation;
  std::memcpy(&relocation, relocation_at, sizeof(relocation));
  relocation.r_info = ELF64_R_INFO(1, R_X86_64_GLOB_DAT);
  std::memcpy(relocation_at, &relocation, sizeof(relocation));
  // Still a plain function: accepted as before.
  EXPECT_TRUE(CheckElfImage(image.data(), image.size()).ok());
  Elf64_Sym symbol;
  std::memcpy(&symbol, symbol_at, sizeof(symbol));
  symbol.st_info = ELF64_ST_INFO(ELF64_ST_BIND(symbol.st_info), STT_GNU_IFUNC);
  std::memcpy(symbol_at, &symbol, sizeof(symbol));
  EXPECT_EQ(ImageError(image),
            "library binds a relocation to its IFUNC symbol 1: the loader "
            "would run its resolver at load");
  // A symbol index past the image.
  relocation.r_info = ELF64_R_INFO(1u << 28, R_X86_64_GLOB_DAT);
  std::memcpy(relocation_at, &relocation, sizeof(relocation));
  EXPECT_EQ(ImageError(image),
            "relocation names symbol 268435456, which lies outside the "
            "symbol table (2 symbols)");
}

TEST(LibraryImageTest, WritableCodeAndExecutableStacksAreRefused) {
  std::vector<uint8_t> image = LibraryBytes(1);
  ASSERT_TRUE(SetSegmentFlags(&image, PT_LOAD, PF_R | PF_W | PF_X, PF_X));
  EXPECT_NE(ImageError(image).find("is both writable and executable"),
            std::string::npos);
  image = LibraryBytes(1);
  ASSERT_TRUE(SetSegmentFlags(&image, PT_GNU_STACK, PF_R | PF_W | PF_X));
  EXPECT_EQ(ImageError(image),
            "library asks for an executable stack: the loader would make "
            "every thread's stack executable");
  // No stack header: the loader's default is an executable stack.
  image = LibraryBytes(1);
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof(header));
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    uint8_t* at = image.data() + header.e_phoff + i * sizeof(segment);
    std::memcpy(&segment, at, sizeof(segment));
    if (segment.p_type == PT_GNU_STACK) segment.p_type = PT_NULL;
    std::memcpy(at, &segment, sizeof(segment));
  }
  EXPECT_EQ(ImageError(image),
            "library has no PT_GNU_STACK header: the loader would make every "
            "thread's stack executable");
}

// Every table the dynamic loader reads through its dynamic section lies in
// the image's loaded segments, whole; else the loader itself would fault.
TEST(LibraryImageTest, DynamicTablesOutsideTheLoadedSegmentsAreRefused) {
  const std::vector<uint8_t>& good = LibraryBytes(1);
  std::vector<uint8_t> image = good;
  const ImageLayout layout(&image);
  const uint64_t strtab = layout.Dynamic(DT_STRTAB);
  const uint64_t string_size = layout.Dynamic(DT_STRSZ);
  ASSERT_NE(strtab, 0u);
  ASSERT_NE(string_size, 0u);
  const auto error_with = [&](int64_t tag, int64_t new_tag, uint64_t value) {
    std::vector<uint8_t> mutated = good;
    EXPECT_TRUE(RetagDynamicEntry(&mutated, tag, new_tag, value)) << tag;
    return ImageError(std::move(mutated));
  };
  EXPECT_EQ(error_with(DT_STRTAB, DT_STRTAB, 1u << 30),
            StrCat("string table at address 1073741824 (", string_size,
                   " bytes) lies outside the image's loaded segments"));
  EXPECT_EQ(error_with(DT_STRSZ, DT_STRSZ, 1u << 20),
            StrCat("string table at address ", strtab,
                   " (1048576 bytes) lies outside the image's loaded "
                   "segments"));
  EXPECT_EQ(error_with(DT_SONAME, DT_SONAME, 1u << 20),
            StrCat("dynamic tag 14 names string 1048576, past the ",
                   string_size, "-byte string table"));
  EXPECT_EQ(error_with(DT_SYMTAB, DT_SYMTAB, 1u << 30)
                .find("symbol table at address 1073741824 ("),
            0u);
  EXPECT_EQ(error_with(DT_GNU_HASH, DT_GNU_HASH, 1u << 30),
            "DT_GNU_HASH table at address 1073741824 (16 bytes) lies outside "
            "the image's loaded segments");
  EXPECT_EQ(error_with(DT_SONAME, DT_HASH, 1u << 30),
            "DT_HASH table at address 1073741824 (8 bytes) lies outside the "
            "image's loaded segments");
  EXPECT_EQ(error_with(DT_SONAME, DT_PLTGOT, 0),
            "the GOT at address 0 lies outside the image's writable segments");
  EXPECT_EQ(error_with(DT_STRSZ, DT_NULL, 0),
            "library's dynamic section lacks a string table (DT_STRTAB, "
            "DT_STRSZ), a symbol table (DT_SYMTAB) or a hash table (DT_HASH, "
            "DT_GNU_HASH)");
  // The loader asserts on DT_RELA without DT_RELAENT.
  EXPECT_EQ(error_with(DT_RELAENT, DT_RELACOUNT, 0),
            "library's relocations are 0 bytes each (DT_RELAENT), not 24");
  // Tables kiln libraries never have are refused rather than followed.
  for (int64_t tag : {DT_VERSYM, DT_VERDEF, DT_VERNEED}) {
    EXPECT_EQ(error_with(DT_SONAME, tag, 1u << 30),
              StrCat("library has symbol versions (dynamic tag ", tag,
                     "): kiln libraries have none"));
  }
  EXPECT_EQ(error_with(DT_SONAME, DT_RELR, 1u << 30),
            "library has packed relative relocations (DT_RELR): kiln "
            "libraries use RELA");
}

// What the tables hold must stay inside them too: symbol names inside the
// string table, hash chains inside the symbol table, relocations writing
// inside writable segments.
TEST(LibraryImageTest, DynamicTableContentsAreChecked) {
  const std::vector<uint8_t>& good = LibraryBytes(1);
  std::vector<uint8_t> copy = good;
  const uint64_t string_size = ImageLayout(&copy).Dynamic(DT_STRSZ);
  {
    std::vector<uint8_t> image = good;
    const ImageLayout layout(&image);
    uint8_t* const symbol_at = layout.At(layout.Dynamic(DT_SYMTAB));
    ASSERT_TRUE(symbol_at);
    Elf64_Sym symbol;
    std::memcpy(&symbol, symbol_at + sizeof(symbol), sizeof(symbol));
    symbol.st_name = 1000;
    std::memcpy(symbol_at + sizeof(symbol), &symbol, sizeof(symbol));
    EXPECT_EQ(ImageError(image), StrCat("symbol 1 names string 1000, past the ",
                                        string_size, "-byte string table"));
  }
  {
    std::vector<uint8_t> image = good;
    const ImageLayout layout(&image);
    uint8_t* const strings = layout.At(layout.Dynamic(DT_STRTAB));
    ASSERT_TRUE(strings);
    strings[string_size - 1] = 'x';
    EXPECT_EQ(ImageError(image),
              "the string table does not end with a NUL byte");
  }
  {
    // The loader masks Bloom filter indices with their count less 1.
    std::vector<uint8_t> image = good;
    const ImageLayout layout(&image);
    uint8_t* const gnu_hash = layout.At(layout.Dynamic(DT_GNU_HASH));
    ASSERT_TRUE(gnu_hash);
    const uint32_t three = 3;
    std::memcpy(gnu_hash + 8, &three, sizeof(three));
    EXPECT_EQ(ImageError(image).find("DT_GNU_HASH table has "), 0u);
  }
  {
    // A bucket whose chain never ends.
    std::vector<uint8_t> image = good;
    const ImageLayout layout(&image);
    const uint64_t gnu_hash = layout.Dynamic(DT_GNU_HASH);
    ASSERT_TRUE(layout.At(gnu_hash));
    uint32_t bloom_words;
    std::memcpy(&bloom_words, layout.At(gnu_hash + 8), sizeof(bloom_words));
    uint8_t* const buckets =
        layout.At(gnu_hash + 16 + uint64_t{bloom_words} * 8);
    ASSERT_TRUE(buckets);
    const uint32_t far = 1u << 30;
    std::memcpy(buckets, &far, sizeof(far));
    EXPECT_EQ(ImageError(image),
              "DT_GNU_HASH table: the chain of symbol 1073741824 does not end "
              "inside the image's loaded segments");
  }
  {
    // A relocation writing into the read-only first segment.
    std::vector<uint8_t> image = good;
    const ImageLayout layout(&image);
    uint8_t* const relocation_at = layout.At(layout.Dynamic(DT_RELA));
    ASSERT_TRUE(relocation_at);
    Elf64_Rela relocation;
    std::memcpy(&relocation, relocation_at, sizeof(relocation));
    relocation.r_offset = 16;
    std::memcpy(relocation_at, &relocation, sizeof(relocation));
    EXPECT_EQ(ImageError(image),
              "relocation at address 16 writes outside the image's writable "
              "segments");
  }
}

// The loader reads the dynamic section from memory and maps each segment
// over the pages of those before: what it reads must be what was checked.
TEST(LibraryImageTest, SegmentsMapWhatWasChecked) {
  const std::vector<uint8_t>& good = LibraryBytes(1);
  Elf64_Ehdr header;
  std::memcpy(&header, good.data(), sizeof(header));
  // Moves the first segment of type `type` (the second one: `skip` 1) by
  // `delta` in memory.
  const auto move = [&](uint32_t type, int skip, int64_t delta) {
    std::vector<uint8_t> image = good;
    for (uint32_t i = 0; i < header.e_phnum; ++i) {
      Elf64_Phdr segment;
      uint8_t* at = image.data() + header.e_phoff + i * sizeof(segment);
      std::memcpy(&segment, at, sizeof(segment));
      if (segment.p_type != type || skip-- > 0) continue;
      segment.p_vaddr += delta;
      std::memcpy(at, &segment, sizeof(segment));
      break;
    }
    return ImageError(std::move(image));
  };
  EXPECT_EQ(move(PT_DYNAMIC, 0, 16),
            "the dynamic section is not mapped from its own file bytes");
  EXPECT_EQ(move(PT_DYNAMIC, 0, 1 << 30),
            "the dynamic section is not mapped from its own file bytes");
  EXPECT_EQ(move(PT_LOAD, 1, -16).find("ELF segment "), 0u);
  EXPECT_NE(
      move(PT_LOAD, 1, -16)
          .find(" shares a page with a loadable segment before it, or comes "
                "before one"),
      std::string::npos);
  // File bytes past a segment's memory size are mapped all the same.
  std::vector<uint8_t> image = good;
  for (uint32_t i = 0; i < header.e_phnum; ++i) {
    uint8_t* at = image.data() + header.e_phoff + i * sizeof(Elf64_Phdr);
    Elf64_Phdr first;
    std::memcpy(&first, at, sizeof(first));
    if (first.p_type != PT_LOAD) continue;
    first.p_filesz = 0x1800;
    ASSERT_LE(first.p_offset + first.p_filesz, image.size());
    std::memcpy(at, &first, sizeof(first));
    break;
  }
  EXPECT_NE(ImageError(image).find(
                " shares a page with a loadable segment before it"),
            std::string::npos);
}

// Verification refuses such a library, so kiln-dump and --list-functions
// never hand it on, and loading never reaches the dynamic loader.
TEST(LibraryImageTest, ModulesWithDynamicTablesOutsideTheImageAreRefused) {
  fb::ModuleT spec = GoodSpec();
  ASSERT_TRUE(RetagDynamicEntry(&spec.libraries[0]->data, DT_STRTAB, DT_STRTAB,
                                uint64_t{1} << 40));
  ModuleLoadOptions inspect;
  inspect.load_libraries = false;
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec, inspect);
  ASSERT_FALSE(module.ok());
  EXPECT_NE(module.status().message().find(
                "library 0: string table at address 1099511627776"),
            std::string::npos)
      << module.status().message();
  EXPECT_NE(
      LoadError(spec).find("library 0: string table at address 1099511627776"),
      std::string::npos);
}

//===----------------------------------------------------------------------===//
// Damaged files never crash
//===----------------------------------------------------------------------===//

// A 64-byte aligned copy of `bytes` (as borrowed module bytes must be),
// allocated with as little slack as alignment allows so that sanitizers
// catch reads past the end.
std::unique_ptr<uint8_t, decltype(&std::free)> AlignedCopy(const uint8_t* bytes,
                                                           size_t size) {
  std::unique_ptr<uint8_t, decltype(&std::free)> copy(
      static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) & ~size_t{63})),
      &std::free);
  if (size) std::memcpy(copy.get(), bytes, size);
  return copy;
}

TEST(ModuleFuzzTest, EveryTruncationIsRejected) {
  // Pack writes the module's name first, at the end of the buffer: a name
  // of 3 bytes (4 with its NUL) leaves no padding there, which a truncation
  // could drop unnoticed.
  fb::ModuleT spec = GoodSpec();
  spec.name = "gd!";
  const std::vector<uint8_t> bytes = BuildModule(spec);
  for (size_t size = 0; size < bytes.size(); ++size) {
    auto prefix = AlignedCopy(bytes.data(), size);
    StatusOr<std::shared_ptr<const Module>> module =
        Module::LoadFromMemory(prefix.get(), size, Module::MemoryMode::kBorrow);
    ASSERT_FALSE(module.ok()) << "prefix of " << size << " bytes loaded";
  }
}

// Runs every function of a module that loaded despite corruption, with zero
// inputs of the declared types. Whatever the outcome, nothing may crash.
// Corrupted sizes stay within the verifier's limits but may still ask for
// gigabytes or billions of workgroups; such modules are only loaded.
void ExerciseModule(const std::shared_ptr<const Module>& module,
                    ThreadPool* pool) {
  // Optional fields may have vanished: a null vector reads as empty.
  const fb::Module& root = module->flatbuffer();
  for (uint32_t e = 0; e < module->executable_count(); ++e) {
    for (uint32_t x = 0; x < module->export_count(e); ++x) {
      uint64_t total = 1;
      for (uint32_t count : module->GetExport(e, x)->workgroup_count()) {
        total *= count;
      }
      if (total > 4096) return;
    }
  }
  if (root.functions()) {
    for (const auto* function : *root.functions()) {
      if (!function->slot_types()) continue;
      for (const auto* type : *function->slot_types()) {
        Shape shape;
        if (type->shape())
          shape.assign(type->shape()->begin(), type->shape()->end());
        uint64_t byte_size = 0;
        if (!ComputeTensorSize(static_cast<ElementType>(type->element_type()),
                               shape, nullptr, &byte_size)
                 .ok() ||
            byte_size > (1 << 20)) {
          return;
        }
      }
    }
  }
  Context context(module, pool);
  for (size_t f = 0; f < module->functions().size(); ++f) {
    const FunctionSignature& signature = module->functions()[f];
    // A corrupted branch may loop forever, and loops are legal (the runtime
    // sets no step limit): run only functions whose branches go forward.
    const fb::Function& function = *root.functions()->Get(f);
    bool loops = false;
    for (uint32_t pc = 0; pc < function.body()->size(); ++pc) {
      const void* op = function.body()->Get(pc);
      switch (function.body_type()->GetEnum<fb::Op>(pc)) {
        case fb::Op::BranchOp:
          loops |= static_cast<const fb::BranchOp*>(op)->target() <= pc;
          break;
        case fb::Op::CondBranchOp:
          loops |=
              static_cast<const fb::CondBranchOp*>(op)->true_target() <= pc ||
              static_cast<const fb::CondBranchOp*>(op)->false_target() <= pc;
          break;
        default:
          break;
      }
    }
    if (loops) continue;
    std::vector<Tensor> inputs;
    for (const TensorType& type : signature.arguments) {
      StatusOr<Tensor> input =
          Tensor::AllocateZeroed(type.element_type, type.shape);
      if (!input.ok()) return;
      inputs.push_back(*input);
    }
    std::vector<Tensor> outputs;
    (void)context.Call(signature.name, inputs, &outputs);
  }
}

TEST(ModuleFuzzTest, SingleByteCorruptionsNeverCrash) {
  const std::vector<uint8_t> bytes = BuildModule(GoodSpec());
  // Every byte, the library image's too: its hash must catch those.
  StatusOr<std::shared_ptr<const Module>> good = Module::LoadFromMemory(
      bytes.data(), bytes.size(), Module::MemoryMode::kCopy);
  ASSERT_TRUE(good.ok());
  const auto* library_data = (*good)->flatbuffer().libraries()->Get(0)->data();
  const size_t library_begin = library_data->data() - (*good)->data();
  const size_t library_end = library_begin + library_data->size();
  good->reset();

  ThreadPool pool(2);
  std::mt19937 rng(42);
  int loaded = 0, rejected = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    const bool in_library = at >= library_begin && at < library_end;
    for (uint8_t value :
         {uint8_t(bytes[at] ^ 0xff), uint8_t(bytes[at] + 1), uint8_t(rng())}) {
      if (value == bytes[at]) continue;
      auto corrupted = AlignedCopy(bytes.data(), bytes.size());
      corrupted.get()[at] = value;
      StatusOr<std::shared_ptr<const Module>> module = Module::LoadFromMemory(
          corrupted.get(), bytes.size(), Module::MemoryMode::kBorrow);
      if (!module.ok()) {
        EXPECT_FALSE(module.status().message().empty());
        ++rejected;
        continue;
      }
      EXPECT_FALSE(in_library) << "corrupted library byte " << at << " loaded";
      ++loaded;
      ExerciseModule(*module, &pool);
    }
  }
  RecordProperty("loaded", loaded);
  RecordProperty("rejected", rejected);
  // Both outcomes must occur, or the test exercises nothing.
  EXPECT_GT(loaded, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace kiln
