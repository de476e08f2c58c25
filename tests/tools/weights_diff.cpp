// Test tool: the largest absolute difference between two weights files of the same model.
// Prints "max_abs_diff <x>"; exit 0, or 2 when the files hold different names or shapes.
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "model/checkpoint.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: atento_weights_diff A.pt B.pt\n");
    return 2;
  }
  try {
    auto a = atento::model::read_weights(argv[1]);
    auto b = atento::model::read_weights(argv[2]);
    double worst = 0.0;
    for (const auto& [name, tensor] : a) {
      auto other = b.find(name);
      if (other == b.end() || other->second.sizes() != tensor.sizes()) {
        std::fprintf(stderr, "error: %s differs in name or shape\n", name.c_str());
        return 2;
      }
      auto diff = (tensor.to(torch::kDouble) - other->second.to(torch::kDouble)).abs();
      if (diff.numel() > 0) worst = std::max(worst, diff.max().item<double>());
    }
    if (a.size() != b.size()) {
      std::fprintf(stderr, "error: %zu tensors against %zu\n", a.size(), b.size());
      return 2;
    }
    std::printf("max_abs_diff %.3g\n", worst);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
