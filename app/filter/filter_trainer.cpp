#include "app/filter/filter_trainer.h"

#include <torch/torch.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "app/common/event_log.h"
#include "app/common/files.h"
#include "app/common/precision.h"
#include "app/common/progress.h"
#include "app/common/runtime.h"
#include "app/common/stop_signals.h"
#include "app/filter/pair_filter.h"
#include "app/model_dir/model_dir.h"
#include "app/model_dir/weights_file.h"
#include "app/scoring/classification_metrics.h"
#include "app/train/checkpoint_dir.h"
#include "app/train/gradient_clipping.h"
#include "app/train/optimizer.h"
#include "app/train/schedule.h"
#include "app/train/split_files.h"
#include "app/train/stop_reason.h"
#include "app/train/validation_decision.h"
#include "data/pair_noise.h"
#include "data/random.h"
#include "data/text_io.h"
#include "model/eval_mode.h"

namespace atento {
namespace {

using nlohmann::json;

/// Every file name a tokenizer may keep in a model directory (data/tokenizer.h).
constexpr const char* kTokenizerFiles[] = {"spm.en.model", "spm.es.model", "spm.shared.model",
                                           "vocab.en.txt", "vocab.es.txt"};

void copy_tokenizers(const std::string& from, const std::string& to) {
  for (const char* name : kTokenizerFiles) {
    auto source = join_path(from, name);
    if (!file_exists(source)) continue;
    data::write_file_atomically(join_path(to, name), data::read_whole_file(source, "tokenizer"));
  }
}

/// Seeds of the three noisy splits: different from each other and from the training seed.
uint64_t noise_seed(uint64_t seed, uint64_t split) { return data::mix_seed(seed, 0xF1u + split); }

std::vector<FilterExample> encode_examples(const std::vector<data::LabelledPair>& items,
                                           const model::PairClassifierOptions& options,
                                           const data::Vocabularies& vocab) {
  std::vector<FilterExample> examples;
  examples.reserve(items.size());
  for (const auto& item : items) {
    examples.push_back(
        {encode_filter_pair(options, vocab, item.pair, options.encoder.max_len), item.positive});
  }
  return examples;
}

/// ids [B,L], keep [B,L] and labels [B] float of the examples at `indices`, on `device`.
struct FilterBatch {
  torch::Tensor ids, keep, labels;
};
FilterBatch collate(const std::vector<FilterExample>& examples, const std::vector<size_t>& indices,
                    torch::Device device) {
  std::vector<std::vector<int64_t>> rows;
  std::vector<float> labels;
  for (size_t i : indices) {
    rows.push_back(examples[i].ids);
    labels.push_back(examples[i].positive ? 1.0f : 0.0f);
  }
  auto batch = model::pad_pairs(rows);
  return {batch.ids.to(device), batch.keep.to(device), torch::tensor(labels).to(device)};
}

}  // namespace

FilterTrainer::FilterTrainer(Config config, std::string dir)
    : TrainingLoop(std::move(config), std::move(dir)) {}

FilterTrainer::~FilterTrainer() = default;

namespace {

/// A filter directory resumes only with the settings that made its data and its start.
void check_filter_resumable(const Config& saved, const Config& requested, const std::string& dir) {
  json a = config_to_json(saved)["filter"], b = config_to_json(requested)["filter"];
  for (const char* key : {"pretrained", "random_init", "noise_fraction"}) {
    if (a[key] != b[key]) {
      throw ConfigError(dir + " was made with other filter settings: filter." + key + " is " +
                        a[key].dump() + " there and " + b[key].dump() +
                        " here (train into another --out, or use the same settings)");
    }
  }
}

}  // namespace

std::vector<data::LabelledPair> filter_validation_pairs(const Config& config,
                                                        std::vector<data::Pair> valid) {
  data::PairNoiseOptions noise;
  noise.noise_fraction = config.filter.noise_fraction;
  noise.seed = noise_seed(config.train.seed, 1);
  // train.valid_subset: the first N validation pairs, before the noise, so it stays balanced.
  const auto subset = static_cast<size_t>(config.train.valid_subset);
  if (subset > 0 && subset < valid.size()) valid.resize(subset);
  return data::make_noisy_pairs(valid, noise);
}

int run_filter_training(TrainingJob& job) {
  if (job.env.distributed())
    throw ConfigError("filter training runs in one process (WORLD_SIZE 1)");
  if (job.saved) check_filter_resumable(*job.saved, job.config, job.dir);
  return FilterTrainer(std::move(job.config), job.dir).run();
}

int FilterTrainer::run() {
  display_ = std::make_unique<ProgressDisplay>(::isatty(STDERR_FILENO));
  device_ = resolve_device(config_.train.device, "train.device");
  const int64_t threads = set_threads(config_.train.threads);
  const std::string precision = precision_name(resolve_precision(config_.train.precision, device_));
  build_model();
  auto loaded = load_latest_checkpoint(dir_, *model_, *optimizer_, nullptr);
  if (loaded) state_ = loaded->state;
  log_ = std::make_unique<JsonlLog>(join_path(dir_, model_files::kLog));
  log_->write({{"event", loaded ? "resume" : "start"},
               {"task", "filter"},
               {"params", model::count_parameters(*model_)},
               {"step", state_.step},
               {"threads", threads},
               {"precision", precision},
               {"train_pairs", train_.size()},
               {"valid_pairs", valid_.size()},
               {"config", config_to_json(config_)}});
  display_->message(std::string(loaded ? "resuming" : "training") + " pair filter " + dir_ +
                    " from " + config_.filter.pretrained +
                    (config_.filter.random_init ? " (random initialisation)" : "") + ": " +
                    std::to_string(train_.size()) + " training / " + std::to_string(valid_.size()) +
                    " validation examples, " + precision);
  start_clock();
  start_epoch();
  return run_loop();
}

void FilterTrainer::prepare_data() {
  // The architecture and tokenizers are the pretrained model's; the device is this run's.
  const auto pretrained_dir = config_.filter.pretrained;
  Config pretrained = load_config(join_path(pretrained_dir, model_files::kConfig), {});
  config_.model = pretrained.model;
  config_.tokenizer = pretrained.tokenizer;
  ensure_writable_dir(dir_);
  copy_tokenizers(pretrained_dir, dir_);
  vocab_ = std::make_unique<data::Vocabularies>(data::load_vocabularies(dir_, config_.tokenizer));
  validate(config_);
  data::write_file_atomically(join_path(dir_, model_files::kConfig),
                              config_to_json(config_).dump(2) + "\n");
  auto split = prepare_split(config_.data, dir_,
                             [this](const std::string& line) { display_->message(line); });
  data::PairNoiseOptions noise;
  noise.noise_fraction = config_.filter.noise_fraction;
  const auto options = filter_options(config_, *vocab_);
  const uint64_t seed = config_.train.seed;
  noise.seed = noise_seed(seed, 0);
  train_ = encode_examples(data::make_noisy_pairs(split.train, noise), options, *vocab_);
  valid_ = encode_examples(filter_validation_pairs(config_, split.valid), options, *vocab_);
  noise.seed = noise_seed(seed, 2);
  if (!split.test.empty()) {
    data::write_labelled_pairs(join_path(dir_, filter_files::kNoisyTest),
                               data::make_noisy_pairs(split.test, noise));
  }
}

void FilterTrainer::build_model() {
  prepare_data();
  torch::manual_seed(config_.train.seed);
  model_ = model::PairClassifier(filter_options(config_, *vocab_));
  if (!config_.filter.random_init) {
    auto pretrained = load_trained_model(config_.filter.pretrained, {});
    model::initialise_from_translation(*model_, *pretrained.model);
  }
  model_->to(device_);
  optimizer_ = make_optimizer(config_.train, model_->parameters());
}

std::vector<std::vector<size_t>> FilterTrainer::epoch_batches() const {
  const auto& t = config_.train;
  const int64_t size = t.batch_size > 0
                           ? t.batch_size
                           : std::max<int64_t>(1, t.batch_tokens / model_->options.encoder.max_len);
  std::vector<size_t> order(train_.size());
  std::iota(order.begin(), order.end(), 0);
  data::SplitMix64 rng(data::mix_seed(t.seed, static_cast<uint64_t>(state_.epoch)));
  data::shuffle_in_place(order, rng);
  std::vector<std::vector<size_t>> batches;
  for (size_t i = 0; i < order.size(); i += static_cast<size_t>(size)) {
    const size_t end = std::min(order.size(), i + static_cast<size_t>(size));
    batches.emplace_back(order.begin() + static_cast<long>(i),
                         order.begin() + static_cast<long>(end));
  }
  return batches;
}

torch::Tensor FilterTrainer::forward(const torch::Tensor& ids, const torch::Tensor& keep) {
  AutocastGuard autocast(config_.train.precision, device_);  // the forward pass only
  return model_(ids, keep).to(torch::kFloat);                // [B]; the loss in fp32
}

void FilterTrainer::train_step() {
  const auto& t = config_.train;
  torch::manual_seed(t.seed + 1000003ULL * (state_.step + 1));  // dropout = f(seed, step)
  learning_rate_ = learning_rate(t, state_.step, elapsed());
  set_learning_rate(*optimizer_, learning_rate_);
  optimizer_->zero_grad();
  model_->train();
  // train.accumulate batches per step (fewer at an epoch's end); the step's loss is their mean.
  const auto left = static_cast<int64_t>(batches_.size()) - state_.batch_in_epoch;
  const int64_t count = std::min<int64_t>(std::max<int64_t>(1, t.accumulate), left);
  double loss_sum = 0.0, correct = 0.0;
  int64_t pairs = 0;
  for (int64_t k = 0; k < count; ++k) {
    auto batch = collate(train_, batches_[state_.batch_in_epoch++], device_);
    auto logits = forward(batch.ids, batch.keep);  // [B]
    auto loss = model::pair_loss(logits, batch.labels) / static_cast<double>(count);
    const double value = loss.item<double>();
    if (!std::isfinite(value)) {
      throw std::runtime_error("non-finite loss at step " + std::to_string(state_.step + 1) +
                               " (try a lower train.lr or train.clip_norm)");
    }
    loss.backward();
    loss_sum += value;
    correct += logits.gt(0).eq(batch.labels.gt(0.5)).sum().item<double>();
    pairs += batch.ids.size(0);
  }
  if (t.clip_norm > 0) clip_gradients(model_->parameters(), t.clip_norm);
  optimizer_->step();
  state_.step++;
  state_.examples += pairs;
  state_.elapsed_s = elapsed();
  report_step(loss_sum, correct / static_cast<double>(pairs), pairs);
  if (t.eval_every_steps > 0 && state_.step % t.eval_every_steps == 0) validate_now();
}

void FilterTrainer::report_step(double loss, double accuracy, int64_t pairs) {
  const auto& t = config_.train;
  ProgressLine line;
  line.epoch = state_.epoch;
  line.step = state_.step;
  line.loss = loss;
  line.accuracy = accuracy;
  line.tokens_per_s = state_.examples / std::max(1e-9, state_.elapsed_s);
  line.unit = "pairs/s";
  line.elapsed_s = state_.elapsed_s;
  line.fraction_done = fraction_done(t, state_, state_.elapsed_s, batches_.size());
  display_->update(line, t.log_every_steps);
  if (state_.step % t.log_every_steps != 0) return;
  log_->write({{"event", "train"},
               {"step", state_.step},
               {"epoch", state_.epoch},
               {"elapsed_s", state_.elapsed_s},
               {"loss", loss},
               {"accuracy", accuracy},
               {"lr", learning_rate_},
               {"pairs", state_.examples},
               {"batch_pairs", pairs}});
}

FilterFigures FilterTrainer::figures_on_validation() {
  model::EvalModeGuard eval(*model_);
  std::vector<double> scores;
  std::vector<bool> labels;
  double loss_sum = 0.0;
  std::vector<size_t> indices;
  const auto batch_size = static_cast<size_t>(config_.filter.batch_size);
  for (size_t begin = 0; begin < valid_.size(); begin += batch_size) {
    indices.clear();
    for (size_t i = begin; i < std::min(valid_.size(), begin + batch_size); ++i) {
      indices.push_back(i);
    }
    auto batch = collate(valid_, indices, device_);
    auto logits = forward(batch.ids, batch.keep);  // [B]
    loss_sum += model::pair_loss(logits, batch.labels).item<double>() * indices.size();
    auto p = torch::sigmoid(logits).to(torch::kCPU, torch::kDouble).contiguous();
    for (size_t k = 0; k < indices.size(); ++k) {
      scores.push_back(p.data_ptr<double>()[k]);
      labels.push_back(valid_[indices[k]].positive);
    }
  }
  auto m = binary_metrics(scores, labels, config_.filter.threshold);
  const double threshold = best_f1_threshold(scores, labels);
  return {loss_sum / std::max<double>(1.0, valid_.size()), m.accuracy, m.f1, m.roc_auc, threshold,
          binary_metrics(scores, labels, threshold).f1};
}

ValidationFigures FilterTrainer::evaluate_validation() {
  const FilterFigures f = figures_on_validation();
  if (!std::isfinite(f.loss)) {
    throw std::runtime_error("non-finite validation loss at step " + std::to_string(state_.step));
  }
  ValidationFigures figures;
  figures.loss = f.loss;
  figures.accuracy = f.accuracy;
  figures.fields = {{"loss", f.loss},
                    {"accuracy", f.accuracy},
                    {"f1", f.f1},
                    {"roc_auc", number_or_null(f.roc_auc)},
                    {"f1_threshold", f.f1_threshold},
                    {"f1_at_threshold", f.f1_at_threshold}};
  char line[160];
  std::snprintf(line, sizeof line, "loss %.4f | accuracy %.2f%% | F1 %.4f (%.4f at %.3f)", f.loss,
                100.0 * f.accuracy, f.f1, f.f1_at_threshold, f.f1_threshold);
  figures.line = line;
  return figures;
}

CheckpointParts FilterTrainer::checkpoint_parts() const {
  return {model_.get(), optimizer_.get(), nullptr};
}

}  // namespace atento
