//===- OutOfMemory.cpp - running out of memory in a compile ---------------===//

#include "API/OutOfMemory.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unistd.h>
#include <utility>

namespace mlir::kiln {
namespace {

/// A compile running under runReportingOutOfMemory.
struct CompileState {
  StringRef toolName;
  /// Its tasks queued or running on the worker threads.
  std::atomic<int> tasksInFlight{0};
};

/// The compile this thread works for, and whether it does so as a worker.
thread_local std::shared_ptr<CompileState> currentCompile;
thread_local bool onWorkerThread = false;

/// LLVM's thread pool, counting each compile's tasks in flight: its calling
/// thread may unwind only when none are.
class CountingThreadPool final : public llvm::ThreadPoolInterface {
public:
  void wait() override { pool.wait(); }
  void wait(llvm::ThreadPoolTaskGroup &group) override { pool.wait(group); }
  unsigned getMaxConcurrency() const override {
    return pool.getMaxConcurrency();
  }

private:
  void asyncEnqueue(llvm::unique_function<void()> task,
                    llvm::ThreadPoolTaskGroup *group) override {
    std::shared_ptr<CompileState> compile = currentCompile;
    if (compile)
      ++compile->tasksInFlight;
    auto run = [compile, task = std::move(task)]() mutable {
      std::shared_ptr<CompileState> outerCompile =
          std::exchange(currentCompile, compile);
      bool outerWorker = std::exchange(onWorkerThread, true);
      task();
      onWorkerThread = outerWorker;
      currentCompile = std::move(outerCompile);
      if (compile)
        --compile->tasksInFlight;
    };
    if (group)
      (void)pool.async(*group, std::move(run));
    else
      (void)pool.async(std::move(run));
  }

  llvm::StdThreadPool pool;
};

/// What LLVM's handlers and operator new call when memory runs out.
[[noreturn]] void handleOutOfMemory(void *, const char *, bool) {
  CompileState *compile = currentCompile.get();
  if (!compile || (!onWorkerThread && compile->tasksInFlight == 0))
    throw std::bad_alloc();
  // Said once, without allocating; LLVM's report would call it a crash.
  static std::atomic<bool> ending{false};
  if (ending.exchange(true))
    for (;;)
      ::pause();
  auto say = [](StringRef text) {
    (void)!::write(STDERR_FILENO, text.data(), text.size());
  };
  say(compile->toolName);
  say(": error: out of memory on a compiler thread, where the compile "
      "cannot be stopped; ending the process\n");
  std::_Exit(EXIT_FAILURE);
}

} // namespace

void prepareForOutOfMemory(MLIRContext &context) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    llvm::install_bad_alloc_error_handler(handleOutOfMemory);
    // operator new's failures take the same way (LLVM's handler reports
    // them to the one above).
    llvm::install_out_of_memory_new_handler();
  });
  if (!context.isMultithreadingEnabled())
    return;
  // Never destroyed: its threads outlive every context.
  static auto *pool = new CountingThreadPool();
  context.disableMultithreading();
  context.setThreadPool(*pool);
}

LogicalResult
runReportingOutOfMemory(std::unique_ptr<MLIRContext> &context,
                        llvm::function_ref<LogicalResult()> compile,
                        raw_ostream &errors, StringRef toolName) {
  auto compileState = std::make_shared<CompileState>();
  compileState->toolName = toolName;
  std::shared_ptr<CompileState> outerCompile =
      std::exchange(currentCompile, std::move(compileState));
  try {
    LogicalResult result = compile();
    currentCompile = std::move(outerCompile);
    return result;
  } catch (const std::bad_alloc &) {
    currentCompile = std::move(outerCompile);
    // Its code held what it was building as it was: freeing it is not safe.
    (void)context.release();
    errors << toolName << ": error: out of memory\n";
    return failure();
  }
}

} // namespace mlir::kiln
