#pragma once
// SHA-256 of files (OpenSSL's libcrypto), as sha256sum prints them.

#include <string>
#include <vector>

namespace atento {

/// The SHA-256 of the file `path` in lower-case hex; throws naming the file when unreadable.
std::string sha256_file(const std::string& path);

/// "<hex>  <name>\n" for each of `names` (files in `dir`): sha256sum's format, so
/// `sha256sum -c` checks it.
std::string sha256sums(const std::string& dir, const std::vector<std::string>& names);

}  // namespace atento
