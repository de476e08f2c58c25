#pragma once
// Command-line flags of atento-translate and atento-eval as translate.* overrides, so that
// they are checked and applied like any --set.

#include <cstdint>
#include <string>
#include <vector>

namespace atento {

/// Search flags as parsed; each unset value is no override.
struct TranslateFlags {
  int64_t beam = 0;        ///< --beam; 0 = unset
  int64_t n_best = 0;      ///< --n-best; 0 = unset (with no --beam it also sets the beam)
  int64_t batch_size = 0;  ///< --batch-size; 0 = unset
  bool no_cache = false;   ///< --no-cache
  int64_t threads = -1;    ///< --threads; -1 = unset
  std::string device;      ///< --device; empty = unset
  bool no_split = false;   ///< --no-split
  std::string precision;   ///< --precision; empty = unset
};

/// `overrides` (the --set list), then one "translate.key=value" per flag given, in the order
/// beam, n_best, batch_size, use_cache, split_sentences, threads, device, precision; --n-best K
/// without --beam adds translate.beam=K last.
std::vector<std::string> with_flag_overrides(std::vector<std::string> overrides,
                                             const TranslateFlags& flags);

/// `overrides`, then "<section>.device=<device>" when `device` (--device) is not empty:
/// the flag wins over --set.
std::vector<std::string> with_device_override(std::vector<std::string> overrides,
                                              const std::string& section,
                                              const std::string& device);

}  // namespace atento
