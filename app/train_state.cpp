#include "app/train_state.h"

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
          {"best_value", number_or_null(s.best_value)},
          {"best_step", s.best_step},
          {"evals_since_best", s.evals_since_best},
          {"last_eval_step", s.last_eval_step},
          {"world_size", s.world_size}};
}

TrainState train_state_from_json(const json& j, const std::string& source) {
  try {
    TrainState s;
    s.step = j.at("step");
    s.epoch = j.at("epoch");
    s.batch_in_epoch = j.at("batch_in_epoch");
    s.elapsed_s = j.at("elapsed_s");
    s.target_tokens = j.at("target_tokens");
    s.best_value = j.at("best_value").is_null() ? NAN : j.at("best_value").get<double>();
    s.best_step = j.at("best_step");
    s.evals_since_best = j.at("evals_since_best");
    s.last_eval_step = j.at("last_eval_step");
    s.world_size = j.value("world_size", int64_t{1});
    if (s.world_size < 1) throw std::runtime_error(source + ": world_size must be positive");
    return s;
  } catch (const json::exception& e) {
    throw std::runtime_error(source + ": corrupt training state: " + e.what());
  }
}

TrainState read_train_state(const std::string& path) {
  json doc;
  try {
    doc = json::parse(data::read_whole_file(path, "training state"));
  } catch (const json::parse_error& e) {
    throw std::runtime_error(path + ": corrupt training state: " + e.what());
  }
  return train_state_from_json(doc, path);
}

}  // namespace atento
