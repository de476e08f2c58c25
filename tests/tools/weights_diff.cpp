// Test tool: the largest absolute difference between two weights files of the same model
// (either format: pickle or .safetensors). Prints "max_abs_diff <x>"; exit 0, or 2 when the
// files hold different names or shapes. `atento_weights_diff --sums FILE` prints
// "<name> <sum of the values, in double>" per tensor instead (e2e_release.sh compares them with
// NumPy's).
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "app/model_dir/weights_file.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: atento_weights_diff A.pt B.pt | --sums FILE\n");
    return 2;
  }
  try {
    if (std::string(argv[1]) == "--sums") {
      for (const auto& [name, tensor] : atento::read_weights_file(argv[2])) {
        std::printf("%s %.17g\n", name.c_str(), tensor.to(torch::kDouble).sum().item<double>());
      }
      return 0;
    }
    auto a = atento::read_weights_file(argv[1]);
    auto b = atento::read_weights_file(argv[2]);
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
