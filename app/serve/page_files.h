#pragma once
// The web page of atento-serve (app/serve/page/, compiled in: embedded_files.h) by URL path:
// "/" is index.html, "/NAME" the file NAME; each with its Content-Type.

#include <string>
#include <string_view>
#include <vector>

namespace atento {

/// A file of the page as the server answers it.
struct PageFile {
  std::string path;          ///< URL path: "/" or "/page.css"
  std::string content_type;  ///< "text/html; charset=utf-8" …
  std::string_view body;     ///< the embedded bytes
};

/// Every file of the page, "/" (index.html) first.
const std::vector<PageFile>& page_files();

/// The Content-Type of a file name by its extension (.html, .css, .js, .svg, .png, .ico;
/// application/octet-stream otherwise).
std::string page_content_type(std::string_view name);

}  // namespace atento
