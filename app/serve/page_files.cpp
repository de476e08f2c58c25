#include "app/serve/page_files.h"

#include <algorithm>

#include "app/serve/embedded_files.h"

namespace atento {

namespace {

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

std::vector<PageFile> load_page_files() {
  std::vector<PageFile> files;
  for (size_t i = 0; i < kEmbeddedFileCount; ++i) {
    const EmbeddedFile& file = kEmbeddedFiles[i];
    const std::string name = file.name;
    files.push_back({name == "index.html" ? "/" : "/" + name, page_content_type(name),
                     std::string_view(reinterpret_cast<const char*>(file.data), file.size)});
  }
  std::stable_partition(files.begin(), files.end(),
                        [](const PageFile& f) { return f.path == "/"; });
  return files;
}

}  // namespace

const std::vector<PageFile>& page_files() {
  static const std::vector<PageFile> files = load_page_files();
  return files;
}

std::string page_content_type(std::string_view name) {
  if (ends_with(name, ".html")) return "text/html; charset=utf-8";
  if (ends_with(name, ".css")) return "text/css; charset=utf-8";
  if (ends_with(name, ".js")) return "text/javascript; charset=utf-8";
  if (ends_with(name, ".svg")) return "image/svg+xml";
  if (ends_with(name, ".png")) return "image/png";
  if (ends_with(name, ".ico")) return "image/x-icon";
  return "application/octet-stream";
}

}  // namespace atento
