/*===- test_library.c - Hand-written executable library for tests ------===//
//
// Implements the ABI of kiln/executable_library.h the way kiln-compile's
// output does. KILN_TEST_LIBRARY_VARIANT selects what it exports:
//   1: add_f32 (3 bindings: out = a + b), fail (1 binding, returns 7),
//      workgroup_ids (1 binding: i32 per workgroup, its encoded id),
//      inc_i32 (2 bindings, 0-d i32: out = a + 1),
//      less_i32 (3 bindings, 0-d i32, i32 -> i1: out = a < b)
//      (the last two drive loops and branches in control-flow tests)
//   2: sub_f32 (3 bindings: out = a - b)
//   3: like 1, but its header claims ABI version 99
//
//===--------------------------------------------------------------------===*/

#include <stdint.h>

#include "kiln/executable_library.h"

#ifndef KILN_TEST_LIBRARY_VARIANT
#define KILN_TEST_LIBRARY_VARIANT 1
#endif

/* Linear workgroup index and total count (x fastest). */
static uint64_t linear_id(const kiln_dispatch_state_v0_t* d,
                          const kiln_workgroup_state_v0_t* w, uint64_t* total) {
  *total = (uint64_t)d->workgroup_count[0] * d->workgroup_count[1] *
           d->workgroup_count[2];
  return w->workgroup_id[0] +
         (uint64_t)d->workgroup_count[0] *
             (w->workgroup_id[1] +
              (uint64_t)d->workgroup_count[1] * w->workgroup_id[2]);
}

/* Splits n elements evenly over the workgroups; [*begin, *end) is ours. */
static int elementwise_range(const kiln_dispatch_state_v0_t* d,
                             const kiln_workgroup_state_v0_t* w,
                             uint64_t* begin, uint64_t* end) {
  if (d->binding_count != 3) return 1;
  uint64_t n = d->binding_lengths[2] / sizeof(float);
  if (d->binding_lengths[0] != n * sizeof(float) ||
      d->binding_lengths[1] != n * sizeof(float)) {
    return 2;
  }
  uint64_t total;
  uint64_t id = linear_id(d, w, &total);
  uint64_t chunk = (n + total - 1) / total;
  *begin = id * chunk < n ? id * chunk : n;
  *end = *begin + chunk < n ? *begin + chunk : n;
  return 0;
}

#if KILN_TEST_LIBRARY_VARIANT == 2

static int sub_f32(const kiln_dispatch_state_v0_t* d,
                   const kiln_workgroup_state_v0_t* w) {
  uint64_t begin, end;
  int rc = elementwise_range(d, w, &begin, &end);
  if (rc) return rc;
  const float* a = (const float*)d->binding_ptrs[0];
  const float* b = (const float*)d->binding_ptrs[1];
  float* out = (float*)d->binding_ptrs[2];
  for (uint64_t i = begin; i < end; ++i) out[i] = a[i] - b[i];
  return 0;
}

static const kiln_dispatch_fn_v0_t kPtrs[] = {sub_f32};
static const char* const kNames[] = {"sub_f32"};
static const uint32_t kBindingCounts[] = {3};
#define LIBRARY_NAME "kiln_test_library_2"

#else

static int add_f32(const kiln_dispatch_state_v0_t* d,
                   const kiln_workgroup_state_v0_t* w) {
  uint64_t begin, end;
  int rc = elementwise_range(d, w, &begin, &end);
  if (rc) return rc;
  const float* a = (const float*)d->binding_ptrs[0];
  const float* b = (const float*)d->binding_ptrs[1];
  float* out = (float*)d->binding_ptrs[2];
  for (uint64_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
  return 0;
}

static int fail(const kiln_dispatch_state_v0_t* d,
                const kiln_workgroup_state_v0_t* w) {
  (void)d;
  (void)w;
  return 7;
}

/* Writes x | y << 8 | z << 16 at the workgroup's linear index; the binding
   must hold one i32 per workgroup. */
static int workgroup_ids(const kiln_dispatch_state_v0_t* d,
                         const kiln_workgroup_state_v0_t* w) {
  uint64_t total;
  uint64_t id = linear_id(d, w, &total);
  if (d->binding_count != 1 || d->binding_lengths[0] != total * 4) return 3;
  int32_t* out = (int32_t*)d->binding_ptrs[0];
  out[id] = (int32_t)(w->workgroup_id[0] | (w->workgroup_id[1] << 8) |
                      (w->workgroup_id[2] << 16));
  return 0;
}

/* out = a + 1 over 0-d i32 tensors; one workgroup. */
static int inc_i32(const kiln_dispatch_state_v0_t* d,
                   const kiln_workgroup_state_v0_t* w) {
  (void)w;
  if (d->binding_count != 2 || d->binding_lengths[0] != 4 ||
      d->binding_lengths[1] != 4) {
    return 4;
  }
  const int32_t* a = (const int32_t*)d->binding_ptrs[0];
  int32_t* out = (int32_t*)d->binding_ptrs[1];
  *out = *a + 1;
  return 0;
}

/* out (0-d i1, one byte) = a < b over 0-d i32 tensors; one workgroup. */
static int less_i32(const kiln_dispatch_state_v0_t* d,
                    const kiln_workgroup_state_v0_t* w) {
  (void)w;
  if (d->binding_count != 3 || d->binding_lengths[0] != 4 ||
      d->binding_lengths[1] != 4 || d->binding_lengths[2] != 1) {
    return 5;
  }
  const int32_t* a = (const int32_t*)d->binding_ptrs[0];
  const int32_t* b = (const int32_t*)d->binding_ptrs[1];
  uint8_t* out = (uint8_t*)d->binding_ptrs[2];
  *out = *a < *b ? 1 : 0;
  return 0;
}

static const kiln_dispatch_fn_v0_t kPtrs[] = {add_f32, fail, workgroup_ids,
                                              inc_i32, less_i32};
static const char* const kNames[] = {"add_f32", "fail", "workgroup_ids",
                                     "inc_i32", "less_i32"};
static const uint32_t kBindingCounts[] = {3, 1, 1, 2, 3};
#define LIBRARY_NAME "kiln_test_library"

#endif

static const kiln_executable_library_header_t kHeader = {
#if KILN_TEST_LIBRARY_VARIANT == 3
    99u,
#else
    KILN_EXECUTABLE_LIBRARY_VERSION_0,
#endif
    0u,
    LIBRARY_NAME,
};

static const kiln_executable_library_v0_t kLibrary = {
    &kHeader,
    {
        (uint32_t)(sizeof(kPtrs) / sizeof(kPtrs[0])),
        0u,
        kPtrs,
        kNames,
        kBindingCounts,
    },
};

const kiln_executable_library_header_t** kiln_executable_library_query(
    uint32_t max_version, const void* environment) {
  /* Version 0 is the oldest version, so any max_version can be served. */
  (void)max_version;
  if (environment) return 0;
  return (const kiln_executable_library_header_t**)&kLibrary;
}
