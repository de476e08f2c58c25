#pragma once
// Files compiled into the program at build time (cmake/AtentoEmbed.cmake writes their
// definition from app/serve/page/): the web page atento-serve serves, with no file beside the
// binary and no network.

#include <cstddef>

namespace atento {

/// One embedded file: its name in its folder and its bytes.
struct EmbeddedFile {
  const char* name;
  const unsigned char* data;
  size_t size;
};

/// Every file of app/serve/page/, sorted by name.
extern const EmbeddedFile kEmbeddedFiles[];
extern const size_t kEmbeddedFileCount;

}  // namespace atento
