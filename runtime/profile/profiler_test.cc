//===- profiler_test.cc - Sampler, address -> line lookup, aggregation ----===//

#include "kiln/profiler.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "module/module_impl.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using testing::DebugModuleSpec;
using testing::LoadSpec;

// Burns `seconds` of this thread's CPU time.
void Spin(double seconds) {
  timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  std::atomic<uint64_t> sink{0};
  do {
    for (int i = 0; i < 10000; ++i)
      sink.fetch_add(1, std::memory_order_relaxed);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) + 1e-9 * (now.tv_nsec - start.tv_nsec) <
           seconds);
}

// Burns `seconds` of this thread's CPU time in user space running through
// 4096 distinct instructions between two reads of the clock, so that
// interrupts land on thousands of different PCs: two consecutive samples
// at one PC are then one interrupt counted twice, not two interrupts.
void SpinThroughNops(double seconds) {
  timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  do {
    for (int i = 0; i < 64; ++i) asm volatile(".rept 4096\n\tnop\n\t.endr");
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) + 1e-9 * (now.tv_nsec - start.tv_nsec) <
           seconds);
}

// The share of samples at the same PC as the sample before them.
double RepeatedShare(const std::vector<uintptr_t>& samples) {
  size_t repeated = 0;
  for (size_t i = 1; i < samples.size(); ++i) {
    repeated += samples[i] == samples[i - 1];
  }
  return samples.empty() ? 0.0 : static_cast<double>(repeated) / samples.size();
}

// Starts a profiler of the caller on `clock` at `hz`.
StatusOr<std::unique_ptr<Profiler>> StartOn(ProfileClock clock, uint32_t hz) {
  ProfilerOptions options;
  options.hz = hz;
  options.clock = clock;
  return Profiler::Start(nullptr, options);
}

// Whether the kernel refused the cpu-clock event (perf_event_paranoid above
// 2, seccomp): the tests of that clock are skipped there.
bool Refused(const Status& status) {
  return status.code() == StatusCode::kFailedPrecondition;
}

TEST(LibraryLinesTest, FindsTheRowWhoseRangeHoldsAnOffset) {
  const std::vector<LibraryLineRow> lines = {
      {0x100, 0, 2, 120},
      {0x110, 0, 2, 7},
      {0x120, KILN_LIBRARY_LINE_OUTSIDE_EXPORTS, 0, 0},
      {0x200, 1, 0, 0},
      {0x240, KILN_LIBRARY_LINE_OUTSIDE_EXPORTS, 0, 0}};
  EXPECT_EQ(FindLibraryLine(lines, 0), nullptr);
  EXPECT_EQ(FindLibraryLine(lines, 0xff), nullptr);
  EXPECT_EQ(FindLibraryLine(lines, 0x100)->line, 120u);
  EXPECT_EQ(FindLibraryLine(lines, 0x10f)->line, 120u);
  EXPECT_EQ(FindLibraryLine(lines, 0x110)->line, 7u);
  EXPECT_EQ(FindLibraryLine(lines, 0x11f)->source, 2u);
  EXPECT_EQ(FindLibraryLine(lines, 0x120), nullptr);  // between exports
  EXPECT_EQ(FindLibraryLine(lines, 0x1ff), nullptr);
  EXPECT_EQ(FindLibraryLine(lines, 0x200)->export_ordinal, 1u);
  EXPECT_EQ(FindLibraryLine(lines, 0x23f)->line, 0u);
  EXPECT_EQ(FindLibraryLine(lines, 0x240), nullptr);  // past the last export
  EXPECT_EQ(FindLibraryLine(lines, ~uint64_t{0}), nullptr);
  EXPECT_EQ(FindLibraryLine({}, 0x100), nullptr);
}

TEST(ProfilerTest, SamplesTheCallerAndEveryWorkerByCpuTime) {
  ThreadPool pool(3);
  ASSERT_TRUE(pool.status().ok());
  ProfilerOptions options;
  options.hz = 1000;
  StatusOr<std::unique_ptr<Profiler>> profiler =
      Profiler::Start(&pool, options);
  ASSERT_TRUE(profiler.ok()) << profiler.status().ToString();
  // Each index waits for the others, so each runs on its own thread, which
  // then spins 0.1 s of its CPU time: about 100 samples per thread, and
  // no more than about 100 if only the caller were sampled.
  std::atomic<int> started{0};
  std::atomic<uint32_t> workers{0};
  pool.ParallelFor(3, [&](int64_t, uint32_t worker_id) {
    workers.fetch_or(1u << worker_id);
    ++started;
    while (started.load() < 3) {
    }
    Spin(0.1);
  });
  std::vector<uintptr_t> samples = (*profiler)->TakeSamples();
  const ProfileSampling sampling = (*profiler)->sampling();
  EXPECT_EQ(workers.load(), 7u);
  EXPECT_EQ(sampling.threads, 3u);  // the caller is one of the pool's
  EXPECT_GE(sampling.cpu_seconds, 0.3);
  if (sampling.clock == ProfileClock::kCpuClockEvent) {
    EXPECT_GE(samples.size(), 250u);
    EXPECT_LE(samples.size(), 450u);
  } else {
    // CPU-time timers: one sample per kernel tick (100 to 1000 Hz).
    EXPECT_EQ(sampling.clock, ProfileClock::kCpuTimeTimer);
    EXPECT_GE(samples.size(), 20u);
    EXPECT_LE(samples.size(), 450u);
  }
  EXPECT_EQ((*profiler)->dropped_samples(), 0u);
  // Stopped: sampling no more, and the CPU time stays what it was.
  Spin(0.05);
  EXPECT_EQ((*profiler)->TakeSamples().size(), samples.size());
  EXPECT_EQ((*profiler)->sampling().cpu_seconds, sampling.cpu_seconds);
}

TEST(ProfilerTest, CpuClockEventSamplesAtTheRateAsked) {
  StatusOr<std::unique_ptr<Profiler>> started =
      StartOn(ProfileClock::kCpuClockEvent, 1000);
  if (Refused(started.status())) GTEST_SKIP() << started.status().ToString();
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  std::unique_ptr<Profiler> profiler = std::move(started).value();
  SpinThroughNops(1.0);
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const std::vector<uintptr_t> samples = profiler->TakeSamples();
  const StatusOr<Profile> resolved = profiler->Resolve(**module);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  const Profile& profile = *resolved;
  // A second of CPU time at 1 kHz: 1000 interrupts, each one sample.
  EXPECT_GE(samples.size(), 900u);
  EXPECT_LE(samples.size(), 1100u);
  EXPECT_LT(RepeatedShare(samples), 0.1);
  EXPECT_EQ(profile.samples, samples.size());
  ASSERT_TRUE(profile.sampling.has_value());
  EXPECT_EQ(profile.sampling->clock, ProfileClock::kCpuClockEvent);
  EXPECT_EQ(profile.sampling->hz, 1000u);
  EXPECT_EQ(profile.sampling->threads, 1u);
  EXPECT_GE(profile.sampling->cpu_seconds, 1.0);
  EXPECT_LT(profile.sampling->cpu_seconds, 1.2);
  EXPECT_GE(profile.hz_reached(), 900.0);
  EXPECT_LE(profile.hz_reached(), 1100.0);
}

TEST(ProfilerTest, EachSampleIsOneInterruptWellAboveTheKernelTick) {
  // 10 kHz: 40 periods per tick of a 250 Hz kernel.
  ProfilerOptions options;
  options.hz = 10000;
  std::unique_ptr<Profiler> profiler =
      Profiler::Start(nullptr, options).value();
  SpinThroughNops(0.3);
  const std::vector<uintptr_t> samples = profiler->TakeSamples();
  const ProfileSampling sampling = profiler->sampling();
  EXPECT_LT(RepeatedShare(samples), 0.1);
  const double hz = samples.size() / sampling.cpu_seconds;
  if (sampling.clock == ProfileClock::kCpuClockEvent) {
    EXPECT_GE(hz, 9000.0) << samples.size() << " samples";
    EXPECT_LE(hz, 11000.0) << samples.size() << " samples";
  } else {
    EXPECT_LE(hz, 1100.0) << samples.size() << " samples";
  }
}

TEST(ProfilerTest, CpuTimeTimersCountOneSamplePerInterrupt) {
  // Forced, as where perf_event_open is refused: the timers fire at the
  // kernel's tick (100 to 1000 Hz), whatever the rate asked, and the
  // profile says what they reached.
  StatusOr<std::unique_ptr<Profiler>> started =
      StartOn(ProfileClock::kCpuTimeTimer, 10000);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  std::unique_ptr<Profiler> profiler = std::move(started).value();
  SpinThroughNops(0.4);
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const std::vector<uintptr_t> samples = profiler->TakeSamples();
  const StatusOr<Profile> resolved = profiler->Resolve(**module);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  const Profile& profile = *resolved;
  ASSERT_TRUE(profile.sampling.has_value());
  EXPECT_EQ(profile.sampling->clock, ProfileClock::kCpuTimeTimer);
  EXPECT_EQ(profile.sampling->hz, 10000u);
  EXPECT_GE(profile.sampling->cpu_seconds, 0.4);
  // At most 1000 Hz: interrupts, not timer periods (4000); at least 50 Hz
  // (a 250 Hz tick that finds the thread running a fifth of the time, as
  // when other tests share the two cores).
  EXPECT_GE(samples.size(), 20u);
  EXPECT_LE(samples.size(), 450u);
  EXPECT_LT(RepeatedShare(samples), 0.1);
  EXPECT_DOUBLE_EQ(profile.hz_reached(),
                   samples.size() / profile.sampling->cpu_seconds);
}

TEST(ProfilerTest, ShortCallsGetTheirShareOfSamples) {
  // As a caller profiling each call on its own: 40 calls of 2.5 ms of CPU
  // time at 1 kHz get two samples each, where a tick-driven clock would
  // miss most of them.
  constexpr int kCalls = 40;
  size_t samples = 0;
  for (int call = 0; call < kCalls; ++call) {
    StatusOr<std::unique_ptr<Profiler>> profiler =
        StartOn(ProfileClock::kCpuClockEvent, 1000);
    if (Refused(profiler.status())) {
      GTEST_SKIP() << profiler.status().ToString();
    }
    ASSERT_TRUE(profiler.ok()) << profiler.status().ToString();
    SpinThroughNops(0.0025);
    samples += (*profiler)->TakeSamples().size();
  }
  EXPECT_GE(samples, kCalls * 2 * 9 / 10);
  EXPECT_LE(samples, kCalls * 3u);
}

TEST(ProfilerTest, KilnProfileClockChoosesTheClock) {
  setenv("KILN_PROFILE_CLOCK", "timer", 1);
  StatusOr<std::unique_ptr<Profiler>> profiler = Profiler::Start(nullptr);
  ASSERT_TRUE(profiler.ok()) << profiler.status().ToString();
  EXPECT_EQ((*profiler)->sampling().clock, ProfileClock::kCpuTimeTimer);
  profiler->reset();
  setenv("KILN_PROFILE_CLOCK", "hpet", 1);
  EXPECT_EQ(Profiler::Start(nullptr).status().message(),
            "KILN_PROFILE_CLOCK is 'hpet'; expected auto, cpu-clock or timer");
  // The options' own choice goes first.
  ProfilerOptions options;
  options.clock = ProfileClock::kCpuTimeTimer;
  profiler = Profiler::Start(nullptr, options);
  ASSERT_TRUE(profiler.ok()) << profiler.status().ToString();
  EXPECT_EQ((*profiler)->sampling().clock, ProfileClock::kCpuTimeTimer);
  unsetenv("KILN_PROFILE_CLOCK");
}

TEST(ProfilerTest, OneProfilerAtATime) {
  StatusOr<std::unique_ptr<Profiler>> first = Profiler::Start(nullptr);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  StatusOr<std::unique_ptr<Profiler>> second = Profiler::Start(nullptr);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(),
            "another profiler is sampling this process");
  first->reset();
  EXPECT_TRUE(Profiler::Start(nullptr).ok());
}

TEST(ProfilerTest, FullBufferDropsAndCounts) {
  ProfilerOptions options;
  options.hz = 1000;
  options.max_samples = 10;
  StatusOr<std::unique_ptr<Profiler>> profiler =
      Profiler::Start(nullptr, options);
  ASSERT_TRUE(profiler.ok()) << profiler.status().ToString();
  // 50 ms of CPU time is 50 periods, but a loaded machine may deliver fewer
  // timer signals: spin until one is dropped (up to 5 s of CPU time).
  for (int i = 0; i < 100 && (*profiler)->dropped_samples() == 0; ++i) {
    Spin(0.05);
  }
  EXPECT_GT((*profiler)->dropped_samples(), 0u);
  EXPECT_EQ((*profiler)->TakeSamples().size(), 10u);
}

TEST(ProfilerTest, IgnoresTimerSignalsOfAnotherProfiler) {
  // One sample per second of CPU time: the profiler's own timers stay quiet
  // through the test's few milliseconds of it, even under a sanitizer.
  ProfilerOptions options;
  options.hz = 1;
  std::unique_ptr<Profiler> profiler =
      Profiler::Start(nullptr, options).value();
  // A timer signal such as a stopped profiler's, queued before its timer
  // was deleted: SI_TIMER to this thread, with another generation.
  struct sigevent event = {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = ::gettid();
  event.sigev_value.sival_int = -1;
  timer_t timer;
  ASSERT_EQ(timer_create(CLOCK_MONOTONIC, &event, &timer), 0);
  struct itimerspec once = {};
  once.it_value.tv_nsec = 1000000;
  ASSERT_EQ(timer_settime(timer, 0, &once, nullptr), 0);
  timespec pause = {0, 50000000};
  while (nanosleep(&pause, &pause) != 0) {
  }
  timer_delete(timer);
  EXPECT_EQ(profiler->TakeSamples().size(), 0u);
}

TEST(ProfilerTest, RefusesBadOptions) {
  ProfilerOptions options;
  options.hz = 0;
  EXPECT_EQ(Profiler::Start(nullptr, options).status().message(),
            "sampling rate 0 Hz is outside [1, 100000]");
  options.hz = 1000;
  options.max_samples = 0;
  EXPECT_EQ(Profiler::Start(nullptr, options).status().message(),
            "a profile needs room for samples");
}

TEST(ProfileTest, CodeOutsideTheModulesKernelsIsHostTime) {
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  // This test's own code, and a module without an address -> line table.
  const std::vector<uintptr_t> pcs = {
      reinterpret_cast<uintptr_t>(&Spin),
      reinterpret_cast<uintptr_t>(&ResolveProfile)};
  const StatusOr<Profile> resolved = ResolveProfile(**module, pcs, 3);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  const Profile& profile = *resolved;
  EXPECT_EQ(profile.samples, 2u);
  EXPECT_EQ(profile.host_samples, 2u);
  EXPECT_EQ(profile.dropped_samples, 3u);
  EXPECT_TRUE(profile.exports.empty());
}

// What the roll-up leaves of an export's lines: (path, line, samples).
using RolledLines = std::vector<std::tuple<std::string, uint32_t, uint64_t>>;
RolledLines LinesOf(const ProfileExport& ex) {
  RolledLines out;
  for (const ProfileLine& line : ex.lines) {
    out.emplace_back(std::string(line.path), line.line, line.samples);
  }
  return out;
}

TEST(RollUpProfileTest, FollowsLinesBackThroughEveryStage) {
  // See DebugModuleSpec for the line maps.
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(DebugModuleSpec(KILN_TEST_LIBRARY_1), {.load_libraries = false});
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const uint32_t stage2 = testing::kStage2File;
  Profile profile;
  profile.samples = 20;
  profile.host_samples = 4;
  ProfileExport& add = profile.exports.emplace_back();
  add.export_view = (*module)->GetExport(0, 0).value();
  add.samples = 21;
  const std::string_view path = (*module)->sources().file(stage2).path;
  add.lines = {{stage2, 121, 10, path},
               {stage2, 122, 3, path},
               {stage2, 130, 2, path},
               {kNoSource, 0, 1, {}},
               // As a line table of level 1 or 2 points: into the input.
               {testing::kModelFile, 2, 5, "model.mlir"}};
  ProfileExport& fail = profile.exports.emplace_back();
  fail.export_view = (*module)->GetExport(0, 1).value();
  fail.samples = 4;
  fail.lines = {{stage2, 121, 4, path}};

  StatusOr<Profile> configured =
      RollUpProfile(**module, profile, "1.configured");
  ASSERT_TRUE(configured.ok()) << configured.status().ToString();
  EXPECT_EQ(configured->samples, 20u);
  EXPECT_EQ(configured->host_samples, 4u);
  // 121 splits 5 / 5 between 14 and 15; 130, line 0 and the input line
  // have no line there.
  EXPECT_EQ(LinesOf(configured->exports[0]),
            (RolledLines{{"", 0, 8},
                         {"dbg_ex_cpu.1.configured.mlir", 15, 8},
                         {"dbg_ex_cpu.1.configured.mlir", 14, 5}}));
  EXPECT_EQ(configured->exports[0].samples, 21u);
  // `fail` has no 1.configured text of its own.
  EXPECT_EQ(LinesOf(configured->exports[1]), (RolledLines{{"", 0, 4}}));

  // 15 splits again (9 and 10, the first taking the remainder); equal
  // counts are in path order.
  StatusOr<Profile> source = RollUpProfile(**module, profile, "0.source");
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ(LinesOf(source->exports[0]),
            (RolledLines{{"dbg_ex_cpu.0.source.mlir", 9, 10},
                         {"", 0, 8},
                         {"dbg_ex_cpu.0.source.mlir", 10, 3}}));
  EXPECT_EQ(source->exports[0].lines[0].source, testing::kStage0File);

  // Straight to the input program; model.mlir is embedded, so its lines
  // have their text. A line already in the input stays as it is.
  StatusOr<Profile> input = RollUpProfile(**module, profile, kInputStage);
  ASSERT_TRUE(input.ok()) << input.status().ToString();
  EXPECT_EQ(LinesOf(input->exports[0]),
            (RolledLines{{"model.mlir", 2, 18}, {"", 0, 3}}));
  EXPECT_EQ(input->exports[0].lines[0].source, testing::kModelFile);
  EXPECT_EQ(LinesOf(input->exports[1]), (RolledLines{{"model.mlir", 2, 4}}));

  // The line table's own stage leaves the lines as they are.
  StatusOr<Profile> same = RollUpProfile(**module, profile, "2.translated");
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(LinesOf(same->exports[0]).size(),
            4u);  // the input line: "(no line)"

  // A line of an input file the module does not embed (line tables at
  // levels 1 and 2) is the input's already, and no stage text's.
  ProfileExport& plain = profile.exports.emplace_back();
  plain.export_view = (*module)->GetExport(0, 1).value();
  plain.samples = 6;
  plain.lines = {{kNoSource, 7, 6, "input.mlir"}};
  StatusOr<Profile> plain_input = RollUpProfile(**module, profile, kInputStage);
  ASSERT_TRUE(plain_input.ok());
  EXPECT_EQ(LinesOf(plain_input->exports[2]),
            (RolledLines{{"input.mlir", 7, 6}}));
  EXPECT_EQ(plain_input->exports[2].lines[0].source, kNoSource);
  StatusOr<Profile> plain_source = RollUpProfile(**module, profile, "0.source");
  ASSERT_TRUE(plain_source.ok());
  EXPECT_EQ(LinesOf(plain_source->exports[2]), (RolledLines{{"", 0, 6}}));

  EXPECT_EQ(RollUpProfile(**module, profile, "3.bogus").status().message(),
            "the module has no stage '3.bogus'; it has 0.source, "
            "1.configured, 2.translated, input");
}

}  // namespace
}  // namespace kiln
