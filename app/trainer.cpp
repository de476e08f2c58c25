#include "app/trainer.h"

#include <malloc.h>
#include <torch/torch.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli.h"
#include "app/config.h"
#include "app/files.h"
#include "app/model_dir.h"
#include "app/progress.h"
#include "app/schedule.h"
#include "app/weights_file.h"
#include "app/teacher_forcing.h"
#include "data/batch.h"
#include "data/corpus.h"
#include "data/text_io.h"
#include "data/tokenizer.h"
#include "model/average.h"
#include "model/checkpoint.h"
#include "model/seq2seq.h"

namespace atento {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::atomic<int> g_stop_signal{0};

extern "C" void on_stop_signal(int signal) { g_stop_signal.store(signal); }

/// SIGINT/SIGTERM ask the loop to save a checkpoint and exit; restored on destruction.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal.store(0);
    previous_int_ = std::signal(SIGINT, on_stop_signal);
    previous_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  int received() const { return g_stop_signal.load(); }

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

/// Training progress that a checkpoint must carry for an exact resume. The data order is a
/// function of (seed, epoch) and the dropout generator is re-seeded from (seed, step), so
/// these counters are the whole random state.
struct TrainState {
  int64_t step = 0;            ///< optimiser steps done
  int64_t epoch = 0;           ///< current epoch (0-based)
  int64_t batch_in_epoch = 0;  ///< batches of `epoch` already consumed
  double elapsed_s = 0.0;      ///< training wall-clock time over all runs
  int64_t target_tokens = 0;   ///< target tokens trained on
  double best_value = NAN;     ///< best validation figure by train.best_metric
  int64_t best_step = -1;
  int64_t evals_since_best = 0;
  int64_t last_eval_step = -1;
};

json to_json(const TrainState& s) {
  return {{"step", s.step},
          {"epoch", s.epoch},
          {"batch_in_epoch", s.batch_in_epoch},
          {"elapsed_s", s.elapsed_s},
          {"target_tokens", s.target_tokens},
          {"best_value", std::isnan(s.best_value) ? json(nullptr) : json(s.best_value)},
          {"best_step", s.best_step},
          {"evals_since_best", s.evals_since_best},
          {"last_eval_step", s.last_eval_step}};
}

TrainState state_from_json(const json& j, const std::string& source) {
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
    return s;
  } catch (const json::exception& e) {
    throw std::runtime_error(source + ": corrupt training state: " + e.what());
  }
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& t,
                                                        std::vector<torch::Tensor> params) {
  switch (t.optimizer) {
    case OptimizerKind::kAdam:
      return std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(t.lr)
                                                              .betas({t.beta1, t.beta2})
                                                              .eps(t.eps)
                                                              .weight_decay(t.weight_decay));
    case OptimizerKind::kAdamW:
      return std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(t.lr)
                                                               .betas({t.beta1, t.beta2})
                                                               .eps(t.eps)
                                                               .weight_decay(t.weight_decay));
    case OptimizerKind::kRmsprop:
      return std::make_unique<torch::optim::RMSprop>(
          params,
          torch::optim::RMSpropOptions(t.lr).alpha(t.rho).eps(t.eps).weight_decay(t.weight_decay));
  }
  throw std::logic_error("unknown optimizer");
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

/// Every setting that shapes the trained model must match when a directory is resumed.
void check_resumable(const Config& saved, const Config& requested, const std::string& dir) {
  json a = config_to_json(saved), b = config_to_json(requested);
  for (const char* section : {"model", "tokenizer"}) {
    for (const auto& item : a[section].items()) {
      const std::string& key = item.key();
      if (std::string(section) == "model" && (key == "src_vocab" || key == "tgt_vocab")) continue;
      if (b[section][key] != item.value()) {
        throw ConfigError(dir + " was made with another architecture: " + section + "." + key +
                          " is " + item.value().dump() + " there and " + b[section][key].dump() +
                          " here (train into another --out, or use the same settings)");
      }
    }
  }
}

/// Reads the corpus and splits it, or reads the split a previous run wrote into `dir`.
data::Split prepare_split(const Config& config, const std::string& dir, ProgressDisplay& out) {
  const auto& d = config.data;
  auto train_path = join_path(dir, model_files::kTrain);
  auto valid_path = join_path(dir, model_files::kValid);
  auto test_path = join_path(dir, model_files::kTest);
  data::CorpusOptions reread = d;
  reread.strict = true;  // the split was written by us: any bad line there is corruption
  if (file_exists(train_path) && file_exists(valid_path)) {
    data::Split split;
    split.train = data::read_pairs(train_path, reread);
    split.valid = data::read_pairs(valid_path, reread);
    // test_fraction 0 leaves an empty test.tsv, which read_pairs rightly refuses.
    if (file_exists(test_path) && fs::file_size(test_path) > 0) {
      split.test = data::read_pairs(test_path, reread);
    }
    return split;
  }
  auto report_problems = [&](const data::ReadReport& report, const std::string& path) {
    for (const auto& problem : report.problems) out.message("warning: " + problem);
    if (report.skipped > 0) {
      out.message("warning: " + path + ": skipped " + std::to_string(report.skipped) +
                  " bad line(s) of " + std::to_string(report.lines) +
                  " (set data.strict to make them errors)");
    }
  };
  data::Split split;
  if (!d.train_file.empty()) {
    if (d.valid_file.empty()) throw ConfigError("data.valid_file: required with data.train_file");
    data::ReadReport report;
    split.train = data::read_pairs(d.train_file, d, &report);
    report_problems(report, d.train_file);
    split.valid = data::read_pairs(d.valid_file, d, &report);
    report_problems(report, d.valid_file);
    if (!d.test_file.empty()) {
      split.test = data::read_pairs(d.test_file, d, &report);
      report_problems(report, d.test_file);
    }
  } else {
    if (d.corpus.empty()) throw ConfigError("data.corpus: no corpus given (a TSV of pairs)");
    data::ReadReport report;
    auto pairs = data::read_pairs(d.corpus, d, &report);
    report_problems(report, d.corpus);
    split = data::split_pairs(std::move(pairs), d.valid_fraction, d.test_fraction, d.seed);
  }
  if (split.train.empty()) throw std::runtime_error("the training split is empty");
  if (split.valid.empty()) {
    throw ConfigError("data.valid_fraction: the validation split is empty (corpus too small?)");
  }
  data::write_pairs(train_path, split.train);
  data::write_pairs(valid_path, split.valid);
  data::write_pairs(test_path, split.test);
  return split;
}

/// One training run over a model directory.
class Trainer {
 public:
  Trainer(Config config, std::string dir) : config_(std::move(config)), dir_(std::move(dir)) {}
  int run();

 private:
  void save_checkpoint();
  bool load_checkpoint();
  void validate_now();
  /// The model validation judges and model.pt keeps: the weight average when there is one.
  model::Seq2Seq& judged() { return average_ ? average_ : model_; }
  std::string stop_reason(double elapsed) const;
  double fraction_done(double elapsed, int64_t batches_in_epoch) const;

  Config config_;
  std::string dir_;
  torch::Device device_ = torch::kCPU;
  model::Seq2Seq model_{nullptr};
  model::Seq2Seq average_{nullptr};  ///< moving average of model_ (train.ema_decay > 0)
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::vector<data::Example> train_, valid_;
  TrainState state_;
  std::unique_ptr<JsonlLog> log_;
  std::unique_ptr<ProgressDisplay> display_;
};

void Trainer::save_checkpoint() {
  auto root = join_path(dir_, model_files::kCheckpoints);
  auto name = "step-" + std::to_string(state_.step);
  auto dir = join_path(root, name);
  // A checkpoint is a directory written completely before the `latest` pointer moves to it,
  // so a crash at any moment leaves the previous one loadable.
  fs::create_directories(dir);
  save_weights(*model_, join_path(dir, model_files::kBestWeights));
  save_optimizer(*optimizer_, join_path(dir, "optimizer.pt"));
  if (average_) save_weights(*average_, join_path(dir, model_files::kAverageWeights));
  data::write_file_atomically(join_path(dir, "state.json"), to_json(state_).dump(2) + "\n");
  auto previous = latest_checkpoint(dir_);
  data::write_file_atomically(join_path(root, model_files::kLatest), name + "\n");
  if (previous && fs::path(*previous).filename() != name) fs::remove_all(*previous);
}

bool Trainer::load_checkpoint() {
  auto dir = latest_checkpoint(dir_);
  if (!dir) return false;
  model::load_weights(*model_, join_path(*dir, model_files::kBestWeights));
  model::load_optimizer(*optimizer_, join_path(*dir, "optimizer.pt"));
  if (average_) {
    auto average = join_path(*dir, model_files::kAverageWeights);
    if (file_exists(average)) {
      model::load_weights(*average_, average);
    } else {
      // Averaging switched on for a run that had none: start the average here.
      model::copy_weights(*average_, *model_);
      display_->message("note: " + *dir + " has no weight average; it starts from these weights");
    }
  }
  auto state_path = join_path(*dir, "state.json");
  json state;
  try {
    state = json::parse(data::read_whole_file(state_path, "training state"));
  } catch (const json::parse_error& e) {
    throw std::runtime_error(state_path + ": corrupt training state: " + e.what());
  }
  state_ = state_from_json(state, state_path);
  return true;
}

void Trainer::validate_now() {
  const auto& t = config_.train;
  std::vector<data::Example> subset;
  const auto* examples = &valid_;
  if (t.valid_subset > 0 && t.valid_subset < static_cast<int64_t>(valid_.size())) {
    subset.assign(valid_.begin(), valid_.begin() + t.valid_subset);
    examples = &subset;
  }
  int64_t budget = std::max<int64_t>(t.batch_tokens, 64 * config_.tokenizer.tgt_len);
  auto totals = evaluate_teacher_forced(judged(), *examples, budget, device_);
  if (!std::isfinite(totals.loss())) {
    // Diverged weights must never replace the last good checkpoint.
    throw std::runtime_error("non-finite loss on the validation split at step " +
                             std::to_string(state_.step) +
                             " (try a lower train.lr or train.clip_norm); the last good "
                             "checkpoint is kept");
  }
  double value = t.best_metric == BestMetric::kAccuracy ? totals.accuracy() : totals.loss();
  bool better = std::isnan(state_.best_value) ||
                (t.best_metric == BestMetric::kAccuracy ? value > state_.best_value
                                                        : value < state_.best_value);
  state_.last_eval_step = state_.step;
  if (better) {
    state_.best_value = value;
    state_.best_step = state_.step;
    state_.evals_since_best = 0;
    save_weights(*judged(), join_path(dir_, model_files::kBestWeights));
    data::write_file_atomically(join_path(dir_, model_files::kBestInfo),
                                json{{"step", state_.step},
                                     {"loss", totals.loss()},
                                     {"next_word_accuracy", totals.accuracy()}}
                                        .dump(2) +
                                    "\n");
  } else {
    state_.evals_since_best++;
  }
  log_->write({{"event", "valid"},
               {"step", state_.step},
               {"epoch", state_.epoch},
               {"elapsed_s", state_.elapsed_s},
               {"loss", totals.loss()},
               {"next_word_accuracy", totals.accuracy()},
               {"target_tokens", totals.tokens},
               {"best", better}});
  char line[200];
  std::snprintf(line, sizeof line,
                "valid | step %lld | epoch %lld | loss %.4f | next-word accuracy %.2f%%%s | %s",
                static_cast<long long>(state_.step), static_cast<long long>(state_.epoch + 1),
                totals.loss(), 100.0 * totals.accuracy(), better ? " (best)" : "",
                format_duration(state_.elapsed_s).c_str());
  display_->message(line);
  save_checkpoint();
}

std::string Trainer::stop_reason(double elapsed) const {
  const auto& t = config_.train;
  if (t.max_steps > 0 && state_.step >= t.max_steps) return "max_steps";
  if (t.max_epochs > 0 && state_.epoch >= t.max_epochs) return "max_epochs";
  if (t.time_budget_minutes > 0 && elapsed >= t.time_budget_minutes * 60.0) return "time_budget";
  if (t.patience > 0 && state_.evals_since_best >= t.patience) return "early_stopping";
  return "";
}

double Trainer::fraction_done(double elapsed, int64_t batches_in_epoch) const {
  const auto& t = config_.train;
  double fraction = -1.0;
  if (t.max_steps > 0) fraction = std::max(fraction, double(state_.step) / t.max_steps);
  if (t.time_budget_minutes > 0) {
    fraction = std::max(fraction, elapsed / (t.time_budget_minutes * 60.0));
  }
  if (t.max_epochs > 0 && batches_in_epoch > 0) {
    double epochs = state_.epoch + double(state_.batch_in_epoch) / batches_in_epoch;
    fraction = std::max(fraction, epochs / t.max_epochs);
  }
  return std::min(fraction, 1.0);
}

int Trainer::run() {
  const auto& t = config_.train;
  display_ = std::make_unique<ProgressDisplay>(::isatty(STDERR_FILENO));
  device_ = resolve_device(config_.model.device);
  int64_t threads = set_threads(t.threads);

  auto split = prepare_split(config_, dir_, *display_);
  std::unique_ptr<data::Vocabularies> vocab;
  if (data::vocabularies_exist(dir_, config_.tokenizer)) {
    vocab = std::make_unique<data::Vocabularies>(data::load_vocabularies(dir_, config_.tokenizer));
  } else {
    display_->message("training tokenizers on " + std::to_string(split.train.size()) + " pairs");
    vocab = std::make_unique<data::Vocabularies>(
        data::train_vocabularies(split.train, config_.tokenizer, dir_));
  }
  config_.model.src_vocab = vocab->src().vocab_size();
  config_.model.tgt_vocab = vocab->tgt().vocab_size();
  if (config_.tokenizer.kind == data::TokenizerKind::kWords) {
    // Keras sizes the book's embeddings by max_tokens, not by the words found (the English
    // side has ~12k): keep that, so parameter counts match the book's 19,960,216.
    config_.model.src_vocab = std::max(config_.model.src_vocab, config_.tokenizer.vocab_size);
    config_.model.tgt_vocab = std::max(config_.model.tgt_vocab, config_.tokenizer.vocab_size);
  }
  validate(config_);
  data::write_file_atomically(join_path(dir_, model_files::kConfig),
                              config_to_json(config_).dump(2) + "\n");
  train_ = encode_pairs(*vocab, split.train);
  valid_ = encode_pairs(*vocab, split.valid);

  torch::manual_seed(t.seed);
  model_ = model::Seq2Seq(config_.model);
  model_->to(device_);
  optimizer_ = make_optimizer(t, model_->parameters());
  if (t.ema_decay > 0) {
    average_ = model::Seq2Seq(config_.model);
    average_->to(device_);
    average_->eval();
    for (auto& parameter : average_->parameters()) parameter.set_requires_grad(false);
    model::copy_weights(*average_, *model_);
  }
  bool resumed = load_checkpoint();
  log_ = std::make_unique<JsonlLog>(join_path(dir_, model_files::kLog));
  int64_t params = model::count_parameters(*model_);
  log_->write({{"event", resumed ? "resume" : "start"},
               {"params", params},
               {"step", state_.step},
               {"threads", threads},
               {"device", config_.model.device},
               {"train_pairs", train_.size()},
               {"valid_pairs", valid_.size()},
               {"config", config_to_json(config_)}});
  display_->message(config_to_json(config_).dump());
  std::ostringstream intro;
  intro << (resumed ? "resuming " : "training ") << dir_ << ": " << params << " parameters, "
        << train_.size() << " training / " << valid_.size() << " validation pairs, " << threads
        << " thread(s), " << config_.model.device;
  if (resumed) intro << ", from step " << state_.step;
  display_->message(intro.str());

  data::BatchOptions batching;
  batching.batch_size = t.batch_size;
  batching.batch_tokens = t.batch_tokens;
  StopSignals signals;
  auto started = std::chrono::steady_clock::now();
  double elapsed_before = state_.elapsed_s;
  auto elapsed = [&] {
    return elapsed_before +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  auto batches = data::make_batches(train_, batching, t.seed, state_.epoch, /*shuffle=*/true);
  TeacherForcedTotals window;
  int64_t window_start_tokens = state_.target_tokens;
  double window_start_time = elapsed();
  std::string reason;
  model_->train();
  while ((reason = stop_reason(elapsed())).empty()) {
    if (int signal = signals.received()) {
      state_.elapsed_s = elapsed();
      save_checkpoint();
      log_->write({{"event", "interrupted"}, {"step", state_.step}, {"signal", signal}});
      display_->message("interrupted: checkpoint saved at step " + std::to_string(state_.step) +
                        " in " + dir_ + " (re-run the same command to resume)");
      return 128 + signal;
    }
    if (state_.batch_in_epoch >= static_cast<int64_t>(batches.size())) {
      state_.elapsed_s = elapsed();
      if (state_.last_eval_step != state_.step) validate_now();
      state_.epoch++;
      state_.batch_in_epoch = 0;
      batches = data::make_batches(train_, batching, t.seed, state_.epoch, /*shuffle=*/true);
      continue;
    }
    // Re-seeding from the step makes dropout a function of (seed, step): exact resume.
    torch::manual_seed(t.seed + 1000003ULL * (state_.step + 1));
    set_learning_rate(*optimizer_, learning_rate(t, state_.step));
    // Undefined gradients (PyTorch's set_to_none) spare a zero-fill of every parameter
    // gradient per step; backward then writes instead of accumulating.
    for (auto& parameter : model_->parameters()) parameter.mutable_grad() = torch::Tensor();
    std::vector<data::Batch> group;
    int64_t step_tokens = 0;
    for (int64_t k = 0; k < t.accumulate && state_.batch_in_epoch < int64_t(batches.size()); ++k) {
      group.push_back(data::collate(train_, batches[state_.batch_in_epoch++]));
      step_tokens += group.back().target_tokens;
    }
    TeacherForcedTotals step_totals;
    double step_loss = 0.0;
    for (const auto& batch : group) {
      // An output layer whose full argmax is costly (the adaptive softmax runs every tail on
      // every position, ~10% of a step) skips training accuracy; validation always counts it.
      auto objective = teacher_forced(model_, batch, t.label_smoothing, device_,
                                      /*count_correct=*/model_->output().argmax_is_cheap());
      auto loss = objective.loss / static_cast<double>(std::max<int64_t>(step_tokens, 1));
      loss.backward();
      step_loss += loss.item<double>();
      step_totals += objective.totals;
    }
    if (!std::isfinite(step_loss)) {
      auto last = latest_checkpoint(dir_);
      throw std::runtime_error(
          "non-finite loss at step " + std::to_string(state_.step + 1) +
          " (try a lower train.lr or train.clip_norm); the last good checkpoint is kept" +
          (last ? " (" + *last + ")" : ""));
    }
    if (t.clip_norm > 0) torch::nn::utils::clip_grad_norm_(model_->parameters(), t.clip_norm);
    optimizer_->step();
    state_.step++;
    if (average_) {
      model::update_average(*average_, *model_, model::average_decay(t.ema_decay, state_.step));
    }
    state_.target_tokens += step_totals.tokens;
    window += step_totals;
    double now = elapsed();
    state_.elapsed_s = now;
    ProgressLine line;
    line.epoch = state_.epoch;
    line.step = state_.step;
    line.loss = window.loss();
    line.accuracy = window.accuracy();
    line.tokens_per_s =
        (state_.target_tokens - window_start_tokens) / std::max(1e-9, now - window_start_time);
    line.elapsed_s = now;
    line.fraction_done = fraction_done(now, batches.size());
    display_->update(line, t.log_every_steps);
    if (state_.step % t.log_every_steps == 0) {
      log_->write({{"event", "train"},
                   {"step", state_.step},
                   {"epoch", state_.epoch},
                   {"elapsed_s", now},
                   {"loss", window.loss()},
                   {"train_loss", step_loss},
                   {"accuracy", window.accuracy()},
                   {"lr", learning_rate(t, state_.step - 1)},
                   {"tokens_per_s", line.tokens_per_s},
                   {"target_tokens", state_.target_tokens}});
      window = TeacherForcedTotals{};
      window_start_tokens = state_.target_tokens;
      window_start_time = now;
    }
    if (t.eval_every_steps > 0 && state_.step % t.eval_every_steps == 0) validate_now();
  }
  state_.elapsed_s = elapsed();
  if (state_.last_eval_step != state_.step) validate_now();
  log_->write(
      {{"event", "end"},
       {"step", state_.step},
       {"epoch", state_.epoch},
       {"elapsed_s", state_.elapsed_s},
       {"reason", reason},
       {"best_step", state_.best_step},
       {"best_value", std::isnan(state_.best_value) ? json(nullptr) : json(state_.best_value)}});
  display_->message("done (" + reason + ") after " + std::to_string(state_.step) +
                    " steps; best model (step " + std::to_string(state_.best_step) + ") in " +
                    join_path(dir_, model_files::kBestWeights));
  return kExitOk;
}

}  // namespace

int run_training(const TrainArgs& args) {
  // Each step allocates and frees the same large buffers (logits are N×V floats); glibc would
  // hand them back to the kernel and page-fault them in again every step. Keep them in the heap.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  Config config = load_config(args.config, args.overrides);
  ensure_writable_dir(args.out);
  auto saved_path = join_path(args.out, model_files::kConfig);
  if (file_exists(saved_path)) {
    Config saved = load_config(saved_path, {});
    check_resumable(saved, config, args.out);
  }
  return Trainer(std::move(config), args.out).run();
}

}  // namespace atento
