// Tests that every captured stage of every dispatch of every sample is a
// reproducer: recompiled on its own and run on the inputs the dispatch saw
// inside the program, it writes the same bytes; and that each export's
// recorded line in each stage text is its entry function.
//
// RUN: %python %kiln_tests_dir/capture/roundtrip.py %kiln_source_dir/samples -o %t --bin-dir=%kiln_bin_dir | FileCheck %s
// CHECK: conv: {{[1-9][0-9]*}} dispatch stages reproduced exactly
// CHECK: mlp: {{[1-9][0-9]*}} dispatch stages reproduced exactly
