/*===- module_format.h - Constants of the kiln module format -----*- C -*-===//
//
// Shared by the compiler (which writes modules) and the runtime (which reads
// them). Depends on nothing; usable from C and C++.
//
//===----------------------------------------------------------------------===*/

#ifndef KILN_MODULE_FORMAT_H_
#define KILN_MODULE_FORMAT_H_

/* Module.version written by the compiler and the only one the runtime
   accepts. Bump on every incompatible change of schema/module.fbs. */
#define KILN_MODULE_VERSION 7

/* FlatBuffer file identifier of a module (schema/module.fbs). */
#define KILN_MODULE_IDENTIFIER "KILN"

/* Library.format of a native ELF shared object for x86-64. */
#define KILN_LIBRARY_FORMAT_ELF_X86_64 "elf-x86_64"

/* The export_ordinal of a Library.lines row for code outside every
   export. */
#define KILN_LIBRARY_LINE_OUTSIDE_EXPORTS 0xFFFFFFFFu

/* Set in a Library.lines row's source when the rest indexes
   Module.input_files: a line of an input file the module names but does
   not embed. */
#define KILN_LIBRARY_LINE_INPUT_FILE 0x80000000u

/* TensorType.shape entry of a dimension fixed only at run time. */
#define KILN_DYNAMIC_DIMENSION (-1)

/* DispatchOp.result_buffers entry of a result written into new storage. */
#define KILN_NEW_BUFFER 0xFFFFFFFFu

/* SourceFile.previous of a text no other text came before. */
#define KILN_NO_SOURCE 0xFFFFFFFFu

/* The largest embedded text Tracy shows: its client sends a source text to
   the viewer only when it is smaller than its 256 KiB frame less 16 bytes
   (TargetFrameSize - 16 in TracyProfiler.cpp). */
#define KILN_TRACY_MAX_SOURCE_BYTES 262127u

#endif /* KILN_MODULE_FORMAT_H_ */
