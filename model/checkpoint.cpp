#include "model/checkpoint.h"

#include <ATen/core/Dict.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/import_read.h>
#include <torch/serialize.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "model/pickle_bounds.h"
#include "model/zip_bounds.h"

namespace atento::model {
namespace {

void check_readable(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot open checkpoint '" + path + "': " + std::strerror(errno));
  }
}

// What a weights file may hold: dotted parameter names of bounded length, real tensors of
// bounded rank and size. A file from an untrusted directory that holds anything else is refused
// by name before any of it reaches a model.
constexpr size_t kMaxNameLength = 512;
constexpr int64_t kMaxRank = 8;
constexpr int64_t kMaxElements = int64_t{1} << 33;  // 32 GiB of floats

/// Whether the bytes a tensor's sizes, strides and offset reach lie within its storage.
/// LibTorch's unpickler takes all four from the file unchecked: a weights file whose tensor
/// claims more elements than its record holds made the first read of it fail (SEGV, found by
/// fuzz_weights).
bool within_storage(const torch::Tensor& tensor) {
  if (tensor.numel() == 0) return true;
  int64_t last = tensor.storage_offset();
  if (last < 0 || !tensor.has_storage() || tensor.storage().data() == nullptr) return false;
  for (int64_t d = 0; d < tensor.dim(); ++d) {
    int64_t reach = 0;
    if (tensor.stride(d) < 0 ||
        __builtin_mul_overflow(tensor.size(d) - 1, tensor.stride(d), &reach) ||
        __builtin_add_overflow(last, reach, &last)) {
      return false;
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(last + 1, static_cast<int64_t>(tensor.element_size()), &bytes)) {
    return false;
  }
  return bytes <= static_cast<int64_t>(tensor.storage().nbytes());
}

std::string weights_problem(const std::string& name, const torch::Tensor& tensor) {
  if (name.empty() || name.size() > kMaxNameLength) return "a parameter name of bad length";
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!(std::isalnum(c) || c == '_' || c == '.')) {
      return "a parameter name holds byte " + std::to_string(c) + " at position " +
             std::to_string(i) + " (expected letters, digits, '_' and '.')";
    }
  }
  if (!tensor.defined()) return "parameter '" + name + "' is not a tensor";
  const auto type = tensor.scalar_type();
  if (!(at::isFloatingType(type) || at::isIntegralType(type, /*includeBool=*/true))) {
    return "parameter '" + name + "' has element type " + std::string(c10::toString(type));
  }
  if (tensor.layout() != torch::kStrided || tensor.is_quantized()) {
    return "parameter '" + name + "' is not a dense tensor";
  }
  if (tensor.dim() > kMaxRank || tensor.numel() > kMaxElements) {
    return "parameter '" + name + "' has shape " + shape_string(tensor);
  }
  if (!within_storage(tensor)) {
    return "parameter '" + name + "' reaches past its stored bytes (shape " + shape_string(tensor) +
           ")";
  }
  return {};
}

}  // namespace

std::string shape_string(const torch::Tensor& tensor) {
  std::ostringstream out;
  out << tensor.sizes();
  return out.str();
}

NamedTensors named_state(const torch::nn::Module& module) {
  std::map<std::string, torch::Tensor> state;
  for (const auto& item : module.named_parameters()) {
    state.emplace(item.key(), item.value());
  }
  for (const auto& item : module.named_buffers()) {
    state.emplace(item.key(), item.value());
  }
  return state;
}

std::string serialize_weights(const torch::nn::Module& module) {
  return serialize_weights(named_state(module));
}

std::string serialize_weights(const NamedTensors& weights) {
  c10::Dict<std::string, torch::Tensor> dict;
  for (const auto& [name, tensor] : weights) dict.insert(name, tensor.detach().to(torch::kCPU));
  const std::vector<char> bytes = torch::pickle_save(c10::IValue(dict));
  return std::string(bytes.begin(), bytes.end());
}

NamedTensors read_weights(const std::string& path) {
  NamedTensors stored;
  check_readable(path);
  try {
    // What torch::pickle_load does, but over the file itself: each tensor's bytes are read
    // straight into its storage, with no copy of the whole file in memory (measured: the
    // base model's 39 MB file put 75 MB more on the peak RSS of atento-translate).
    const std::string zip_problem = zip_bounds_problem(path);
    if (!zip_problem.empty()) throw std::runtime_error(zip_problem);
    caffe2::serialize::PyTorchStreamReader reader(path);
    {
      const auto [pickle, pickle_size] = reader.getRecord("data.pkl");
      const std::string problem =
          pickle_bounds_problem(static_cast<const uint8_t*>(pickle.get()), pickle_size);
      if (!problem.empty()) throw std::runtime_error("data.pkl: " + problem);
    }
    const auto value = torch::jit::readArchiveAndTensors(
        "data", /*pickle_prefix=*/"", /*tensor_prefix=*/"", /*type_resolver=*/c10::nullopt,
        /*obj_loader=*/c10::nullopt, /*device=*/c10::nullopt, reader);
    if (!value.isGenericDict()) {
      throw std::runtime_error("not a dictionary of named tensors");
    }
    for (const auto& entry : value.toGenericDict()) {
      if (!entry.key().isString() || !entry.value().isTensor()) {
        throw std::runtime_error("an entry is not a name and a tensor");
      }
      const std::string& name = entry.key().toStringRef();
      const std::string problem = weights_problem(name, entry.value().toTensor());
      if (!problem.empty()) throw std::runtime_error(problem);
      stored.emplace(name, entry.value().toTensor());
    }
  } catch (const c10::Error& e) {
    throw std::runtime_error("checkpoint '" + path +
                             "' is not a weights file: " + e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw std::runtime_error("checkpoint '" + path + "' is not a weights file: " + e.what());
  }
  return stored;
}

void assign_weights(torch::nn::Module& module, NamedTensors stored, const std::string& path) {
  auto expected = named_state(module);
  // Compare everything before copying anything: a mismatch leaves the model untouched.
  for (const auto& [name, tensor] : expected) {
    const auto found = stored.find(name);
    if (found == stored.end()) {
      throw std::runtime_error("checkpoint '" + path + "' lacks parameter '" + name + "' (shape " +
                               shape_string(tensor) +
                               "): it was written for a different architecture");
    }
    if (!found->second.sizes().equals(tensor.sizes())) {
      throw std::runtime_error("checkpoint '" + path + "': parameter '" + name + "' has shape " +
                               shape_string(found->second) + " in the checkpoint but " +
                               shape_string(tensor) +
                               " in the model (different architecture or vocabulary size)");
    }
  }
  for (const auto& [name, tensor] : stored) {
    if (expected.count(name) == 0) {
      throw std::runtime_error("checkpoint '" + path + "' holds parameter '" + name + "' (shape " +
                               shape_string(tensor) +
                               ") that the model lacks: it was written for a different "
                               "architecture");
    }
  }
  torch::NoGradGuard no_grad;
  for (auto& [name, tensor] : expected) {
    auto& loaded = stored.at(name);
    if (loaded.scalar_type() == tensor.scalar_type() && loaded.device() == tensor.device() &&
        loaded.is_contiguous()) {
      // Adopt the loaded storage: the model's initial values are freed, not copied over, so
      // only one copy of the weights is ever resident.
      tensor.set_data(loaded);
    } else {
      tensor.copy_(loaded);
    }
    loaded = torch::Tensor();
  }
}

void load_weights(torch::nn::Module& module, const std::string& path) {
  assign_weights(module, read_weights(path), path);
}

}  // namespace atento::model
