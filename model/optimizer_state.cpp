// The optimizer state file: per-parameter step counts and moments as named tensors
// ("<kind>.p<i>.<field>"), written and read like a weights file (model/checkpoint.cpp), so
// that reading one never runs LibTorch's TorchScript importer.

#include "model/optimizer_state.h"

#include <ATen/core/Dict.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/rmsprop.h>
#include <torch/serialize.h>

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "model/checkpoint.h"

namespace atento::model {
namespace {

using torch::optim::OptimizerParamState;
using StateMap =
    std::remove_reference_t<decltype(std::declval<torch::optim::Optimizer&>().state())>;
using StateKey = StateMap::key_type;

// LibTorch 1.x: the address printed (c10::guts::to_string); 2.x: the address.
template <class Key>
Key key_of(void* impl) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream printed;
    printed << impl;
    return printed.str();
  } else {
    return impl;
  }
}

StateKey state_key(const torch::Tensor& parameter) {
  return key_of<StateKey>(parameter.unsafeGetTensorImpl());
}

std::string kind_of(const torch::optim::Optimizer& optimizer) {
  if (dynamic_cast<const torch::optim::AdamW*>(&optimizer)) return "adamw";
  if (dynamic_cast<const torch::optim::Adam*>(&optimizer)) return "adam";
  if (dynamic_cast<const torch::optim::RMSprop*>(&optimizer)) return "rmsprop";
  throw std::invalid_argument("optimizer state: only Adam, AdamW and RMSprop are supported");
}

// Calls visit(name, field) for the step (int64_t&) and each tensor field (Tensor&) of a state.
template <class Visit>
void visit_state(const std::string& kind, OptimizerParamState& state, Visit&& visit) {
  if (kind == "rmsprop") {
    auto& s = static_cast<torch::optim::RMSpropParamState&>(state);
    visit("step", s.step());
    visit("square_avg", s.square_avg());
    visit("momentum_buffer", s.momentum_buffer());
    visit("grad_avg", s.grad_avg());
  } else if (kind == "adamw") {
    auto& s = static_cast<torch::optim::AdamWParamState&>(state);
    visit("step", s.step());
    visit("exp_avg", s.exp_avg());
    visit("exp_avg_sq", s.exp_avg_sq());
    visit("max_exp_avg_sq", s.max_exp_avg_sq());
  } else {
    auto& s = static_cast<torch::optim::AdamParamState&>(state);
    visit("step", s.step());
    visit("exp_avg", s.exp_avg());
    visit("exp_avg_sq", s.exp_avg_sq());
    visit("max_exp_avg_sq", s.max_exp_avg_sq());
  }
}

std::unique_ptr<OptimizerParamState> new_state(const std::string& kind) {
  if (kind == "rmsprop") return std::make_unique<torch::optim::RMSpropParamState>();
  if (kind == "adamw") return std::make_unique<torch::optim::AdamWParamState>();
  return std::make_unique<torch::optim::AdamParamState>();
}

std::vector<torch::Tensor> parameters(const torch::optim::Optimizer& optimizer) {
  std::vector<torch::Tensor> all;
  for (const auto& group : optimizer.param_groups()) {
    all.insert(all.end(), group.params().begin(), group.params().end());
  }
  return all;
}

// One parameter's state from `stored` (entries "<prefix><field>"); counts the entries used.
std::unique_ptr<OptimizerParamState> read_state(const std::string& kind, const std::string& prefix,
                                                const torch::Tensor& parameter,
                                                const NamedTensors& stored, size_t* used) {
  auto state = new_state(kind);
  visit_state(kind, *state, [&](const char* field, auto& value) {
    const auto found = stored.find(prefix + field);
    if (found == stored.end()) return;
    ++*used;
    const torch::Tensor& tensor = found->second;
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, int64_t>) {
      if (tensor.numel() != 1 || !at::isIntegralType(tensor.scalar_type(), false) ||
          tensor.item<int64_t>() < 0) {
        throw std::runtime_error(prefix + field + " is not a step count");
      }
      value = tensor.item<int64_t>();
    } else {
      if (!tensor.sizes().equals(parameter.sizes()) || !tensor.is_floating_point()) {
        throw std::runtime_error(prefix + field + " does not match its parameter's shape");
      }
      value = tensor.to(parameter.options()).contiguous();
    }
  });
  return state;
}

}  // namespace

OptimizerParamState* find_optimizer_state(torch::optim::Optimizer& optimizer,
                                          const torch::Tensor& parameter) {
  const auto found = optimizer.state().find(state_key(parameter));
  return found == optimizer.state().end() ? nullptr : found->second.get();
}

OptimizerParamState& put_optimizer_state(torch::optim::Optimizer& optimizer,
                                         const torch::Tensor& parameter,
                                         std::unique_ptr<OptimizerParamState> state) {
  auto& slot = optimizer.state()[state_key(parameter)];
  slot = std::move(state);
  return *slot;
}

std::string serialize_optimizer(const torch::optim::Optimizer& optimizer) {
  const std::string kind = kind_of(optimizer);
  c10::Dict<std::string, torch::Tensor> out;
  out.insert(kind, torch::zeros({0}));  // the kind, checked on loading
  const auto all = parameters(optimizer);
  for (size_t i = 0; i < all.size(); ++i) {
    const auto found = optimizer.state().find(state_key(all[i]));
    if (found == optimizer.state().end()) continue;
    const std::string prefix = kind + ".p" + std::to_string(i) + ".";
    visit_state(kind, *found->second, [&](const char* field, auto& value) {
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, int64_t>) {
        out.insert(prefix + field, torch::tensor(value, torch::kLong));
      } else if (value.defined()) {
        out.insert(prefix + field, value.detach().to(torch::kCPU));
      }
    });
  }
  const std::vector<char> bytes = torch::pickle_save(c10::IValue(out));
  return std::string(bytes.begin(), bytes.end());
}

void load_optimizer(torch::optim::Optimizer& optimizer, const std::string& path) {
  const std::string kind = kind_of(optimizer);
  try {
    const NamedTensors stored = read_weights(path);
    if (stored.count(kind) == 0) throw std::runtime_error("it holds no " + kind + " state");
    const auto all = parameters(optimizer);
    StateMap states;
    size_t used = 1;
    for (size_t i = 0; i < all.size(); ++i) {
      const std::string prefix = kind + ".p" + std::to_string(i) + ".";
      if (stored.count(prefix + "step") == 0) continue;
      states[state_key(all[i])] = read_state(kind, prefix, all[i], stored, &used);
    }
    if (used != stored.size()) {
      throw std::runtime_error(std::to_string(stored.size() - used) +
                               " entries match no parameter of this optimizer");
    }
    optimizer.state() = std::move(states);  // nothing changes unless all of it was read
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot load optimizer state '" + path + "': " + e.what());
  }
}

}  // namespace atento::model
