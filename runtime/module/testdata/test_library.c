/*===- test_library.c - Hand-written executable library for tests ------===//
//
// Implements the ABI of kiln/executable_library.h the way kiln-compile's
// output does. KILN_TEST_LIBRARY_VARIANT selects what it exports:
//   1: add_f32 (3 bindings: out = a + b), fail (1 binding, returns 7),
//      workgroup_ids (1 binding: i32 per workgroup, its encoded id),
//      inc_i32 (2 bindings, 0-d i32: out = a + 1),
//      less_i32 (3 bindings, 0-d i32, i32 -> i1: out = a < b)
//      (the last two drive loops and branches in control-flow tests),
//      copy_rows_2x4_f32 (2 bindings, 2x4xf32: out = a, one row per
//      workgroup over a 2x1x1 grid, unchecked as kiln-compile's kernels),
//      double_rows_f32 (2 bindings, ?x?xf32: out = 2 * a, one row per
//      workgroup, its extents from the dispatch constants),
//      affine_f32 (2 bindings, ?xf32, and 2 index constants m and c:
//      out = m * a + c, one workgroup)
//   2: sub_f32 (3 bindings: out = a - b)
//   3: like 1, but its header claims ABI version 99
//   4: like 2, plus a constructor (DT_INIT_ARRAY), which the runtime refuses
// Every kernel but copy_rows_2x4_f32 bounds itself by the dispatch state,
// so their descriptors take any workgroup count and any extents
// (kiln-compile's kernels never do; copy_rows_2x4_f32 is described exactly).
// Linked without start files or libc: a kiln library runs no code at load
// and depends on no other library.
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

/* Element types numbered as in schema/module.fbs. */
enum { kF32 = 0, kI1 = 4, kI32 = 7 };

static const int64_t kAnyExtent[] = {KILN_DIMENSION_ANY};
/* out = f(a, b) over f32 vectors of any length. */
static const kiln_binding_descriptor_v1_t kF32Binary[] = {
    {kF32, KILN_BINDING_ACCESS_READ, 1, 0, kAnyExtent},
    {kF32, KILN_BINDING_ACCESS_READ, 1, 0, kAnyExtent},
    {kF32, KILN_BINDING_ACCESS_WRITE, 1, 0, kAnyExtent},
};

#if KILN_TEST_LIBRARY_VARIANT == 2 || KILN_TEST_LIBRARY_VARIANT == 4

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
static const kiln_export_descriptor_v1_t kDescriptors[] = {
    {{0, 0, 0}, 3, kF32Binary, 0},
};
#define LIBRARY_NAME "kiln_test_library_2"

#if KILN_TEST_LIBRARY_VARIANT == 4
// Traps: a test process that ever runs it dies, so the test fails.
__attribute__((constructor)) static void at_load(void) { __builtin_trap(); }
#endif

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

/* out[row] = a[row] for the workgroup's row of a 2x4xf32; like compiled
   code, it trusts the grid and the shapes it was built for. */
static int copy_rows_2x4_f32(const kiln_dispatch_state_v0_t* d,
                             const kiln_workgroup_state_v0_t* w) {
  const float* a = (const float*)d->binding_ptrs[0];
  float* out = (float*)d->binding_ptrs[1];
  for (int i = 0; i < 4; ++i) {
    out[w->workgroup_id[0] * 4 + i] = a[w->workgroup_id[0] * 4 + i];
  }
  return 0;
}

/* out = 2 * a over ?x? f32 matrices, one row per workgroup (the grid's x
   is the row count, from the dispatch constants: a's rows and columns, then
   out's); returns 8 unless the constants agree with each other and with
   the binding lengths. */
static int double_rows_f32(const kiln_dispatch_state_v0_t* d,
                           const kiln_workgroup_state_v0_t* w) {
  if (d->binding_count != 2 || d->constant_count != 4 || !d->constants) {
    return 8;
  }
  const int64_t* c = d->constants;
  const uint64_t rows = (uint64_t)c[0], cols = (uint64_t)c[1];
  if (c[0] < 0 || c[1] < 0 || c[2] != c[0] || c[3] != c[1] ||
      d->binding_lengths[0] != rows * cols * sizeof(float) ||
      d->binding_lengths[1] != rows * cols * sizeof(float) ||
      d->workgroup_count[0] != rows || w->workgroup_id[0] >= rows) {
    return 8;
  }
  const float* a = (const float*)d->binding_ptrs[0];
  float* out = (float*)d->binding_ptrs[1];
  const uint64_t row = w->workgroup_id[0];
  for (uint64_t i = 0; i < cols; ++i) {
    out[row * cols + i] = 2 * a[row * cols + i];
  }
  return 0;
}

/* out = m * a + c over ?xf32, m and c the index constants after the two
   extents; returns 8 unless there are 4 constants and the extents agree
   with each other and with the binding lengths. */
static int affine_f32(const kiln_dispatch_state_v0_t* d,
                      const kiln_workgroup_state_v0_t* w) {
  (void)w;
  if (d->binding_count != 2 || d->constant_count != 4 || !d->constants) {
    return 8;
  }
  const int64_t* c = d->constants;
  const uint64_t n = (uint64_t)c[0];
  if (c[0] < 0 || c[1] != c[0] ||
      d->binding_lengths[0] != n * sizeof(float) ||
      d->binding_lengths[1] != n * sizeof(float)) {
    return 8;
  }
  const float* a = (const float*)d->binding_ptrs[0];
  float* out = (float*)d->binding_ptrs[1];
  for (uint64_t i = 0; i < n; ++i) {
    out[i] = (float)c[2] * a[i] + (float)c[3];
  }
  return 0;
}

static const kiln_dispatch_fn_v0_t kPtrs[] = {
    add_f32,           fail,            workgroup_ids, inc_i32, less_i32,
    copy_rows_2x4_f32, double_rows_f32, affine_f32};
static const char* const kNames[] = {
    "add_f32",  "fail",          "workgroup_ids",   "inc_i32",
    "less_i32", "copy_rows_2x4_f32", "double_rows_f32", "affine_f32"};
static const int64_t kShape2x4[] = {2, 4};
static const kiln_binding_descriptor_v1_t kCopyRows[] = {
    {kF32, KILN_BINDING_ACCESS_READ, 2, 0, kShape2x4},
    {kF32, KILN_BINDING_ACCESS_WRITE, 2, 0, kShape2x4},
};
static const int64_t kAnyExtents2[] = {KILN_DIMENSION_ANY, KILN_DIMENSION_ANY};
static const kiln_binding_descriptor_v1_t kAnyF32Matrices[] = {
    {kF32, KILN_BINDING_ACCESS_READ, 2, 0, kAnyExtents2},
    {kF32, KILN_BINDING_ACCESS_WRITE, 2, 0, kAnyExtents2},
};
static const kiln_binding_descriptor_v1_t kAnyF32Unary[] = {
    {kF32, KILN_BINDING_ACCESS_READ, 1, 0, kAnyExtent},
    {kF32, KILN_BINDING_ACCESS_WRITE, 1, 0, kAnyExtent},
};
static const kiln_binding_descriptor_v1_t kAnyF32Output[] = {
    {kF32, KILN_BINDING_ACCESS_WRITE, 1, 0, kAnyExtent},
};
static const kiln_binding_descriptor_v1_t kAnyI32Output[] = {
    {kI32, KILN_BINDING_ACCESS_WRITE, 1, 0, kAnyExtent},
};
static const kiln_binding_descriptor_v1_t kScalarI32Unary[] = {
    {kI32, KILN_BINDING_ACCESS_READ, 0, 0, 0},
    {kI32, KILN_BINDING_ACCESS_WRITE, 0, 0, 0},
};
static const kiln_binding_descriptor_v1_t kScalarI32Compare[] = {
    {kI32, KILN_BINDING_ACCESS_READ, 0, 0, 0},
    {kI32, KILN_BINDING_ACCESS_READ, 0, 0, 0},
    {kI1, KILN_BINDING_ACCESS_WRITE, 0, 0, 0},
};
static const kiln_export_descriptor_v1_t kDescriptors[] = {
    {{0, 0, 0}, 3, kF32Binary, 0},        {{0, 0, 0}, 1, kAnyF32Output, 0},
    {{0, 0, 0}, 1, kAnyI32Output, 0},     {{1, 1, 1}, 2, kScalarI32Unary, 0},
    {{1, 1, 1}, 3, kScalarI32Compare, 0}, {{2, 1, 1}, 2, kCopyRows, 0},
    {{0, 1, 1}, 2, kAnyF32Matrices, 0},   {{1, 1, 1}, 2, kAnyF32Unary, 2, 0},
};
#define LIBRARY_NAME "kiln_test_library"

#endif

static const kiln_executable_library_header_t kHeader = {
#if KILN_TEST_LIBRARY_VARIANT == 3
    99u,
#else
    KILN_EXECUTABLE_LIBRARY_VERSION_LATEST,
#endif
    0u,
    LIBRARY_NAME,
};

static const kiln_executable_library_v1_t kLibrary = {
    &kHeader,
    {
        (uint32_t)(sizeof(kPtrs) / sizeof(kPtrs[0])),
        0u,
        kPtrs,
        kNames,
        kDescriptors,
    },
};

const kiln_executable_library_header_t** kiln_executable_library_query(
    uint32_t max_version, const void* environment) {
  /* The latest version is the oldest served. */
  if (max_version < KILN_EXECUTABLE_LIBRARY_VERSION_LATEST || environment) {
    return 0;
  }
  return (const kiln_executable_library_header_t**)&kLibrary;
}
