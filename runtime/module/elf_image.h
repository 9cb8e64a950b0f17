//===- elf_image.h - Checks of a library's ELF image ---------------*- C++ -*-===//
//
// Run on every library image before the dynamic loader maps it, or instead
// of loading it (a module loaded without its libraries). Not a public
// header.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_ELF_IMAGE_H_
#define KILN_RUNTIME_MODULE_ELF_IMAGE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kiln/module_generated.h"
#include "kiln/status.h"

namespace kiln {

/// Checks that `data` looks like an x86-64 ELF shared object whose program
/// headers and segments lie inside it (dlopen would otherwise map past the
/// end of the image and fault), and that loading it runs none of its code
/// and maps no writable code: no initializers or finalizers, IFUNC
/// relocations, DT_NEEDED (or filter) entries, text relocations,
/// writable+executable segments or executable stack. Every table the
/// dynamic loader reads through the dynamic section (strings, symbols, hash
/// tables, relocations) lies whole in a loaded segment, with the indices it
/// holds inside the tables they index, and relocations write only inside
/// writable segments: the loader itself trusts all of it.
Status CheckElfImage(const uint8_t* data, size_t size);

/// The end of the address range the library in `data` maps (its loadable
/// segments' highest end; the image is linked at address 0), once it passes
/// CheckElfImage.
StatusOr<uint64_t> LibraryImageEnd(const uint8_t* data, size_t size);

/// Checks every library of the verified module as an ELF image without
/// loading it, except those in `loaded` (ascending), which
/// LoadedLibrary::Load checked.
Status CheckLibraryImages(const fb::Module& module,
                          const std::vector<uint32_t>& loaded = {});

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_ELF_IMAGE_H_
