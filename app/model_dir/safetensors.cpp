#include "app/model_dir/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

namespace atento {

namespace {

using nlohmann::json;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors data is little-endian");

/// Longest header accepted (the format's own readers use 100 MB).
constexpr uint64_t kMaxHeader = 100u << 20;

struct DType {
  const char* name;
  torch::ScalarType type;
};

constexpr DType kDTypes[] = {
    {"F64", torch::kFloat64}, {"F32", torch::kFloat32}, {"F16", torch::kFloat16},
    {"BF16", torch::kBFloat16}, {"I64", torch::kInt64}, {"I32", torch::kInt32},
    {"I16", torch::kInt16},   {"I8", torch::kInt8},     {"U8", torch::kUInt8},
    {"BOOL", torch::kBool}};

const char* dtype_name(torch::ScalarType type) {
  for (const auto& d : kDTypes) {
    if (d.type == type) return d.name;
  }
  throw std::runtime_error(std::string("safetensors: no dtype for ") + c10::toString(type));
}

/// One tensor as the header places it.
struct Entry {
  std::string name;
  torch::ScalarType type;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  ///< in the data section
};

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": not a valid safetensors file: " + what);
}

uint64_t read_u64_le(const char* p) {
  uint64_t n = 0;
  std::memcpy(&n, p, sizeof n);  // little-endian host (asserted above)
  return n;
}

Entry parse_entry(const std::string& name, const json& spec, const std::string& path) {
  if (!spec.is_object() || !spec.contains("dtype") || !spec.contains("shape") ||
      !spec.contains("data_offsets") || spec.size() != 3) {
    bad(path, "tensor '" + name + "' needs exactly dtype, shape and data_offsets");
  }
  Entry e{name, torch::kFloat32, {}, 0, 0};
  const json& dtype = spec["dtype"];
  auto known = std::find_if(std::begin(kDTypes), std::end(kDTypes), [&](const DType& d) {
    return dtype.is_string() && dtype.get<std::string>() == d.name;
  });
  if (known == std::end(kDTypes)) bad(path, "tensor '" + name + "' has an unknown dtype");
  e.type = known->type;
  const json& shape = spec["shape"];
  if (!shape.is_array() || shape.size() > 8) bad(path, "tensor '" + name + "': bad shape");
  uint64_t elements = 1;
  for (const auto& d : shape) {
    if (!d.is_number_unsigned() || d.get<uint64_t>() > (1ull << 40)) {
      bad(path, "tensor '" + name + "': bad shape");
    }
    const uint64_t n = d.get<uint64_t>();
    if (n != 0 && elements > (1ull << 48) / n) bad(path, "tensor '" + name + "' is too large");
    elements *= n;
    e.shape.push_back(static_cast<int64_t>(n));
  }
  const json& offsets = spec["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
      !offsets[1].is_number_unsigned()) {
    bad(path, "tensor '" + name + "': data_offsets must be two unsigned integers");
  }
  e.begin = offsets[0].get<uint64_t>();
  e.end = offsets[1].get<uint64_t>();
  if (e.end < e.begin || e.end - e.begin != elements * c10::elementSize(e.type)) {
    bad(path, "tensor '" + name + "': data_offsets do not match its dtype and shape");
  }
  return e;
}

/// The tensors a file's header describes, checked against its `data_size` bytes of data:
/// each inside, none overlapping, no byte left over.
std::vector<Entry> parse_header(const char* header, size_t length, uint64_t data_size,
                                const std::string& path) {
  json parsed;
  try {
    parsed = json::parse(header, header + length);
  } catch (const json::exception& e) {
    bad(path, std::string("the header is not JSON (") + e.what() + ")");
  }
  if (!parsed.is_object()) bad(path, "the header is not a JSON object");
  std::vector<Entry> entries;
  for (const auto& [name, spec] : parsed.items()) {
    if (name == "__metadata__") {
      if (!spec.is_object()) bad(path, "__metadata__ is not an object");
      continue;
    }
    entries.push_back(parse_entry(name, spec, path));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
  uint64_t next = 0;
  for (const auto& e : entries) {
    if (e.begin != next) bad(path, "tensor '" + e.name + "' overlaps another or leaves a hole");
    next = e.end;
  }
  if (next != data_size) {
    bad(path, "the data section holds " + std::to_string(data_size) + " bytes, the header " +
                  "describes " + std::to_string(next) + " (truncated?)");
  }
  return entries;
}

/// The tensors of a whole file image `bytes[0, size)`; `keep` owns the image and is kept alive
/// by every tensor that shares it (null: copy every tensor).
model::NamedTensors tensors_of(const char* bytes, size_t size, std::shared_ptr<void> keep,
                               const std::string& path) {
  if (size < 8) bad(path, "shorter than its 8-byte header length");
  const uint64_t header = read_u64_le(bytes);
  if (header > kMaxHeader || header > size - 8) {
    bad(path, "header length " + std::to_string(header) + " exceeds the file or the limit");
  }
  const char* data = bytes + 8 + header;
  const uint64_t data_size = size - 8 - header;
  model::NamedTensors tensors;
  for (const auto& e : parse_header(bytes + 8, header, data_size, path)) {
    char* at = const_cast<char*>(data + e.begin);
    auto options = torch::TensorOptions().dtype(e.type);
    const bool aligned = reinterpret_cast<uintptr_t>(at) % c10::elementSize(e.type) == 0;
    if (keep && aligned) {
      tensors[e.name] = torch::from_blob(at, e.shape, [keep](void*) {}, options);
    } else {
      auto tensor = torch::empty(e.shape, options);
      if (e.end > e.begin) std::memcpy(tensor.data_ptr(), at, e.end - e.begin);
      tensors[e.name] = tensor;
    }
  }
  return tensors;
}

}  // namespace

std::string serialize_safetensors(const model::NamedTensors& weights,
                                  const std::map<std::string, std::string>& metadata) {
  json header = json::object();
  std::vector<torch::Tensor> data;
  uint64_t offset = 0;
  for (const auto& [name, tensor] : weights) {
    auto t = tensor.detach().to(torch::kCPU).contiguous();
    const uint64_t bytes = t.numel() * t.element_size();
    header[name] = {{"dtype", dtype_name(t.scalar_type())},
                    {"shape", t.sizes().vec()},
                    {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
    data.push_back(t);
  }
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  std::string out(8, '\0');
  const uint64_t length = text.size();
  std::memcpy(out.data(), &length, sizeof length);
  out += text;
  out.reserve(out.size() + offset);
  for (const auto& t : data) {
    out.append(static_cast<const char*>(t.data_ptr()), t.numel() * t.element_size());
  }
  return out;
}

model::NamedTensors parse_safetensors(const std::string& bytes, const std::string& path) {
  return tensors_of(bytes.data(), bytes.size(), nullptr, path);
}

model::NamedTensors read_safetensors(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw std::runtime_error(path + ": not a regular file");
  }
  const size_t size = static_cast<size_t>(info.st_size);
  if (size == 0) {
    ::close(fd);
    bad(path, "the file is empty");
  }
  // Private and writable: tensors may be written (copy-on-write), never the file.
  void* image = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (image == MAP_FAILED) {
    throw std::runtime_error(path + ": cannot map (" + std::strerror(errno) + ")");
  }
  std::shared_ptr<void> mapping(image, [size](void* p) { ::munmap(p, size); });
  return tensors_of(static_cast<const char*>(image), size, mapping, path);
}

}  // namespace atento
