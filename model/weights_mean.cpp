#include "model/weights_mean.h"

#include <map>
#include <stdexcept>

namespace atento::model {
namespace {

// Throws unless `next` (read from `path`) holds exactly the names and shapes of `first`.
void check_same_layout(const NamedTensors& first, const std::string& first_path,
                       const NamedTensors& next, const std::string& path) {
  for (const auto& [name, tensor] : next) {
    auto it = first.find(name);
    if (it == first.end()) {
      throw std::runtime_error(path + ": parameter '" + name + "' is not in " + first_path +
                               " (checkpoints of different models?)");
    }
    if (it->second.sizes() != tensor.sizes()) {
      throw std::runtime_error(path + ": parameter '" + name + "' has shape " +
                               shape_string(tensor) + ", " + first_path + " has " +
                               shape_string(it->second));
    }
  }
  for (const auto& [name, tensor] : first) {
    if (!next.count(name)) {
      throw std::runtime_error(path + ": parameter '" + name + "' of " + first_path +
                               " is missing");
    }
  }
}

}  // namespace

NamedTensors average_weights_files(const std::vector<std::string>& paths) {
  if (paths.empty()) throw std::invalid_argument("no weights files to average");
  NamedTensors sum = read_weights(paths.front());
  std::map<std::string, torch::ScalarType> types;
  for (auto& [name, tensor] : sum) {
    types.emplace(name, tensor.scalar_type());
    if (tensor.is_floating_point()) tensor = tensor.to(torch::kFloat64);
  }
  for (size_t i = 1; i < paths.size(); ++i) {
    const NamedTensors next = read_weights(paths[i]);
    check_same_layout(sum, paths.front(), next, paths[i]);
    for (auto& [name, tensor] : sum) {
      const torch::Tensor& other = next.at(name);
      if (tensor.is_floating_point()) {
        tensor.add_(other.to(torch::kFloat64));
      } else {
        tensor = other;
      }
    }
  }
  const double count = static_cast<double>(paths.size());
  for (auto& [name, tensor] : sum) {
    if (tensor.is_floating_point()) tensor = tensor.div(count).to(types.at(name));
  }
  return sum;
}

}  // namespace atento::model
