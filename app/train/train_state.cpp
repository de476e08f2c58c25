#include "app/train/train_state.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "data/text_io.h"

namespace atento {

using nlohmann::json;

json number_or_null(double value) { return std::isnan(value) ? json(nullptr) : json(value); }

json train_state_to_json(const TrainState& s) {
  return {{"step", s.step},
          {"epoch", s.epoch},
          {"batch_in_epoch", s.batch_in_epoch},
          {"elapsed_s", s.elapsed_s},
          {"target_tokens", s.target_tokens},
          {"examples", s.examples},
          {"best_value", number_or_null(s.best_value)},
          {"best_step", s.best_step},
          {"evals_since_best", s.evals_since_best},
          {"last_eval_step", s.last_eval_step},
          {"world_size", s.world_size}};
}

namespace {

/// A counter of state.json: a JSON integer in [minimum, INT64_MAX] (a float, a string or a
/// value out of range is corrupt: converting it would be undefined behaviour).
int64_t counter(const json& j, const char* key, int64_t minimum) {
  const json& value = j.at(key);
  const bool fits =
      value.is_number_integer() && (value.is_number_unsigned() ? value.get<uint64_t>() <= INT64_MAX
                                                               : value.get<int64_t>() >= minimum);
  if (!fits || value.get<int64_t>() < minimum) {
    throw std::runtime_error(std::string("\"") + key + "\" must be an integer of at least " +
                             std::to_string(minimum) + ", got " + value.dump());
  }
  return value.get<int64_t>();
}

/// A finite number of state.json; `nullable`: null reads as NaN.
double figure(const json& j, const char* key, bool nullable) {
  const json& value = j.at(key);
  if (nullable && value.is_null()) return NAN;
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    throw std::runtime_error(std::string("\"") + key + "\" must be a finite number" +
                             (nullable ? " or null" : "") + ", got " + value.dump());
  }
  return value.get<double>();
}

}  // namespace

TrainState train_state_from_json(const json& j, const std::string& source) {
  try {
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    TrainState s;
    s.step = counter(j, "step", 0);
    s.epoch = counter(j, "epoch", 0);
    s.batch_in_epoch = counter(j, "batch_in_epoch", 0);
    s.elapsed_s = figure(j, "elapsed_s", false);
    s.target_tokens = counter(j, "target_tokens", 0);
    // Absent in states written before the pair filter counted its pairs here.
    s.examples = j.contains("examples") ? counter(j, "examples", 0) : 0;
    s.best_value = figure(j, "best_value", true);
    s.best_step = counter(j, "best_step", -1);
    s.evals_since_best = counter(j, "evals_since_best", 0);
    s.last_eval_step = counter(j, "last_eval_step", -1);
    // Absent in states written before data-parallel training: one process.
    s.world_size = j.contains("world_size") ? counter(j, "world_size", 1) : 1;
    return s;
  } catch (const std::exception& e) {
    throw std::runtime_error(source + ": corrupt training state: " + e.what());
  }
}

TrainState read_train_state(const std::string& path) {
  json doc;
  try {
    doc = json::parse(data::read_whole_file(path, "training state", kMaxStateBytes));
  } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e400
    throw std::runtime_error(path + ": corrupt training state: " + e.what());
  }
  return train_state_from_json(doc, path);
}

}  // namespace atento
