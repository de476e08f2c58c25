// libFuzzer target: what a model directory's checkpoints/ brings: the `latest` pointer and a
// checkpoint's state.json. Any bytes are both files; a pointer may only name a step-<n>
// directory inside checkpoints/, a state may only be read whole and valid, else
// std::runtime_error.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "app/model_dir/checkpoint_pointer.h"
#include "app/train/train_state.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

void check_pointer(const uint8_t* data, size_t size) {
  using namespace atento;
  const std::string model = fuzz::scratch_dir() + "/model";
  std::filesystem::create_directories(model + "/checkpoints/step-12");
  fuzz::write_scratch("model/checkpoints/latest", data, size);
  try {
    const auto found = latest_checkpoint(model);
    if (found && *found != model + "/checkpoints/step-12") std::abort();  // outside: a defect
  } catch (const std::runtime_error&) {
  }
}

void check_state(const uint8_t* data, size_t size) {
  using namespace atento;
  const std::string path = fuzz::write_scratch("state.json", data, size);
  try {
    const TrainState state = read_train_state(path);
    if (state.step < 0 || state.epoch < 0 || state.best_step < -1) std::abort();
    const TrainState again = train_state_from_json(train_state_to_json(state), "round trip");
    if (again.step != state.step || again.target_tokens != state.target_tokens) std::abort();
  } catch (const std::runtime_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check_pointer(data, size);
  check_state(data, size);
  return 0;
}
