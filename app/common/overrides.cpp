#include "app/common/overrides.h"

#include <utility>

namespace atento {
namespace {

void add(std::vector<std::string>& overrides, const char* key, const std::string& value) {
  overrides.push_back(std::string("translate.") + key + "=" + value);
}

}  // namespace

std::vector<std::string> with_flag_overrides(std::vector<std::string> overrides,
                                             const TranslateFlags& flags) {
  if (flags.beam > 0) add(overrides, "beam", std::to_string(flags.beam));
  if (flags.n_best > 0) add(overrides, "n_best", std::to_string(flags.n_best));
  if (flags.batch_size > 0) add(overrides, "batch_size", std::to_string(flags.batch_size));
  if (flags.no_cache) add(overrides, "use_cache", "false");
  if (flags.no_split) add(overrides, "split_sentences", "false");
  if (flags.threads >= 0) add(overrides, "threads", std::to_string(flags.threads));
  overrides = with_device_override(std::move(overrides), "translate", flags.device);
  if (!flags.precision.empty()) add(overrides, "precision", flags.precision);
  // --n-best K without --beam widens the beam to K.
  if (flags.n_best > 0 && flags.beam == 0) add(overrides, "beam", std::to_string(flags.n_best));
  return overrides;
}

std::vector<std::string> with_device_override(std::vector<std::string> overrides,
                                              const std::string& section,
                                              const std::string& device) {
  if (!device.empty()) overrides.push_back(section + ".device=" + device);
  return overrides;
}

}  // namespace atento
