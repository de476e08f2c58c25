#include "app/train/trainer.h"

#include <malloc.h>
#include <torch/torch.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>

#include "app/common/cuda_graph.h"
#include "app/common/directory_lock.h"
#include "app/common/event_log.h"
#include "app/common/files.h"
#include "app/common/overrides.h"
#include "app/common/precision.h"
#include "app/common/progress.h"
#include "app/common/runtime.h"
#include "app/common/stop_signals.h"
#include "app/common/stopwatch.h"
#include "app/distributed/data_parallel.h"
#include "app/distributed/gradient_reducer.h"
#include "app/model_dir/model_dir.h"
#include "app/model_dir/weights_file.h"
#include "app/train/capturable_optimizer.h"
#include "app/train/checkpoint_dir.h"
#include "app/train/gradient_clipping.h"
#include "app/train/optimizer.h"
#include "app/train/schedule.h"
#include "app/train/split_files.h"
#include "app/train/step_graphs.h"
#include "app/train/stop_reason.h"
#include "app/train/validation_decision.h"
#include "data/random.h"
#include "data/subword_sampling.h"
#include "data/text_io.h"
#include "data/tokenizer.h"
#include "data/word_lexicon.h"
#include "model/checkpoint.h"
#include "model/moving_average.h"

namespace atento {
namespace {

using nlohmann::json;

/// Every setting that shapes the trained model must match `saved`, the configuration of `dir`
/// (a directory resumed, or the model train.init_from starts from); `remedy` says what to do.
void check_same_architecture(const Config& saved, const Config& requested, const std::string& dir,
                             const std::string& remedy) {
  json a = config_to_json(saved), b = config_to_json(requested);
  for (const char* section : {"model", "tokenizer"}) {
    for (const auto& item : a[section].items()) {
      const std::string& key = item.key();
      // Vocabulary sizes come from the tokenizers; verbosity shapes nothing.
      if (std::string(section) == "model" && (key == "src_vocab" || key == "tgt_vocab")) continue;
      if (std::string(section) == "tokenizer" && key == "verbose") continue;
      if (b[section][key] != item.value()) {
        throw ConfigError(dir + " was made with another architecture: " + section + "." + key +
                          " is " + item.value().dump() + " there and " + b[section][key].dump() +
                          " here (" + remedy + ")");
      }
    }
  }
}

data::BatchOptions batching(const TrainOptions& t) {
  data::BatchOptions options;
  options.batch_size = t.batch_size;
  options.batch_tokens = t.batch_tokens;
  options.bucket_by_length = t.bucket_by_length;
  return options;
}

/// The tokenizers of `dir`; when it has none yet, train.init_from's (copied: the vocabulary
/// is kept), else trained on the training split.
data::Vocabularies load_or_train_vocabularies(const Config& config, const std::string& dir,
                                              const data::Split& split, ProgressDisplay& display) {
  if (!data::vocabularies_exist(dir, config.tokenizer) && !config.train.init_from.empty()) {
    const auto from = data::tokenizer_files(config.train.init_from, config.tokenizer);
    const auto to = data::tokenizer_files(dir, config.tokenizer);
    for (size_t i = 0; i < from.size(); ++i) {
      data::write_file_atomically(to[i], data::read_whole_file(from[i], "tokenizer"));
    }
  }
  if (data::vocabularies_exist(dir, config.tokenizer)) {
    return data::load_vocabularies(dir, config.tokenizer);
  }
  display.message("training tokenizers on " + std::to_string(split.train.size()) + " pairs");
  return data::train_vocabularies(split.train, config.tokenizer, dir);
}

/// Writes the word lexicon of `dir` (data/word_lexicon.h: atento-translate aligns HTML tags
/// with it), learned from the training split, when the directory has none yet.
void write_word_lexicon(const std::string& dir, const std::vector<data::Pair>& train,
                        ProgressDisplay& display) {
  const std::string path = join_path(dir, data::kWordLexiconFile);
  if (file_exists(path)) return;
  display.message("learning the word lexicon on " + std::to_string(train.size()) + " pairs");
  data::WordLexicon::train(train).save(path);
}

}  // namespace

Trainer::Trainer(Config config, std::string dir, RankEnvironment env)
    : TrainingLoop(std::move(config), std::move(dir)), env_(std::move(env)) {}

Trainer::~Trainer() = default;

int Trainer::run() {
  int64_t threads = set_up();
  // Every rank reads the directory (one machine, or a file system all ranks share); the
  // broadcast then makes rank 0's weights everyone's.
  bool resumed = load_checkpoint();
  broadcast_weights(group_, *model_);
  if (average_) broadcast_weights(group_, *average_);
  announce(resumed, threads);
  set_up_step_graphs();
  start_clock_and_batches();
  return run_loop();
}

// --- setup ------------------------------------------------------------------------------

int64_t Trainer::set_up() {
  display_ = std::make_unique<ProgressDisplay>(::isatty(STDERR_FILENO), env_.rank != 0);
  device_ = resolve_device(config_.train.device, "train.device");
  int64_t threads = config_.train.threads;
  if (env_.distributed()) {
    // One GPU per local rank; the cores shared among the local ranks.
    if (device_.is_cuda() && !device_.has_index()) {
      device_ = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(env_.local_rank));
    }
    if (threads == 0) threads = std::max<int64_t>(1, set_threads(0) / env_.local_world_size);
  }
  threads = set_threads(threads);
  join_group();
  // Rank 0 writes the split, the tokenizers and config.json; the others then read them.
  if (group_.is_main()) prepare_data();
  group_.barrier();
  if (!group_.is_main()) prepare_data();
  build_model();
  return threads;
}

void Trainer::join_group() {
  const auto timeout =
      std::chrono::milliseconds(static_cast<int64_t>(1000.0 * config_.distributed.timeout_s));
  group_ = ProcessGroup::join(env_, config_.distributed.backend, device_, timeout);
}

void Trainer::prepare_data() {
  auto split = prepare_split(config_.data, dir_,
                             [this](const std::string& line) { display_->message(line); });
  auto vocab = load_or_train_vocabularies(config_, dir_, split, *display_);
  config_.model.src_vocab = vocab.src().vocab_size();
  config_.model.tgt_vocab = vocab.tgt().vocab_size();
  if (config_.tokenizer.kind == data::TokenizerKind::kWords) {
    // Keras sizes the book's embeddings by max_tokens, not by the words found (the English
    // side has ~12k): keep that, so parameter counts match the book's 19,960,216.
    config_.model.src_vocab = std::max(config_.model.src_vocab, config_.tokenizer.vocab_size);
    config_.model.tgt_vocab = std::max(config_.model.tgt_vocab, config_.tokenizer.vocab_size);
  }
  validate(config_);
  if (group_.is_main()) {
    data::write_file_atomically(join_path(dir_, model_files::kConfig),
                                config_to_json(config_).dump(2) + "\n");
    write_word_lexicon(dir_, split.train, *display_);
  }
  train_ = encode_pairs(vocab, split.train);
  valid_ = encode_pairs(vocab, split.valid);
  if (config_.train.bleu_sentences > 0) {
    bleu_.emplace(split.valid, config_.train.bleu_sentences, group_.rank(), group_.size());
  }
  if (config_.tokenizer.sample_alpha > 0) train_text_ = std::move(split.train);
  vocab_ = std::move(vocab);
}

void Trainer::build_model() {
  const auto& t = config_.train;
  torch::manual_seed(t.seed);
  model_ = model::Seq2Seq(config_.model);
  model_->to(device_);
  optimizer_ = make_optimizer(t, model_->parameters());
  if (group_.distributed())
    reducer_ = std::make_unique<GradientReducer>(group_, model_->parameters());
  if (t.ema_decay > 0) {
    average_ = model::Seq2Seq(config_.model);
    average_->to(device_);
    average_->eval();
    for (auto& parameter : average_->parameters()) parameter.set_requires_grad(false);
  }
  if (!t.init_from.empty()) {
    // Fine-tuning: the trained weights; a checkpoint of this run, when resumed, replaces them.
    load_weights_file(*model_, open_model_dir(t.init_from, ModelKind::kTranslation, {}).weights);
  }
  if (average_) model::copy_weights(*average_, *model_);
}

bool Trainer::load_checkpoint() {
  auto loaded =
      load_latest_checkpoint(dir_, *model_, *optimizer_, average_ ? average_.get() : nullptr);
  if (!loaded) return false;
  if (loaded->average_missing) {
    // Averaging switched on for a run that had none: start the average here.
    model::copy_weights(*average_, *model_);
    display_->message("note: " + loaded->dir +
                      " has no weight average; it starts from these weights");
  }
  if (loaded->state.world_size != group_.size()) {
    display_->message("note: " + loaded->dir + " was written by " +
                      std::to_string(loaded->state.world_size) + " rank(s), resumed by " +
                      std::to_string(group_.size()) +
                      ": the global batch (train.batch_tokens) and so the maths stay the same; "
                      "only dropout draws differ");
  }
  state_ = loaded->state;
  state_.world_size = group_.size();
  return true;
}

void Trainer::announce(bool resumed, int64_t threads) {
  state_.world_size = group_.size();
  int64_t params = model::count_parameters(*model_);
  if (!group_.is_main()) return;
  log_ = std::make_unique<JsonlLog>(join_path(dir_, model_files::kLog));
  if (log_)
    log_->write({{"event", resumed ? "resume" : "start"},
                 {"params", params},
                 {"step", state_.step},
                 {"threads", threads},
                 {"device", config_.train.device},
                 {"precision", precision_name(resolve_precision(config_.train.precision, device_))},
                 {"world_size", group_.size()},
                 {"train_pairs", train_.size()},
                 {"valid_pairs", valid_.size()},
                 {"init_from", config_.train.init_from},
                 {"config", config_to_json(config_)}});
  display_->message(config_to_json(config_).dump());
  std::ostringstream intro;
  intro << (resumed ? "resuming " : "training ") << dir_ << ": " << params << " parameters, "
        << train_.size() << " training / " << valid_.size() << " validation pairs, " << threads
        << " thread(s)" << (group_.distributed() ? " per rank" : "") << ", " << config_.train.device
        << ", " << precision_name(resolve_precision(config_.train.precision, device_));
  if (group_.distributed()) intro << ", " << group_.size() << " ranks";
  if (resumed) intro << ", from step " << state_.step;
  if (!resumed && !config_.train.init_from.empty()) {
    intro << ", starting from " << config_.train.init_from << "'s weights";
  }
  display_->message(intro.str());
}

void Trainer::start_clock_and_batches() {
  start_clock();
  start_epoch();
  window_ = DeviceTotals{};
  shown_ = TeacherForcedTotals{};
  losses_nonfinite_ = torch::zeros({}, torch::TensorOptions(torch::kBool).device(device_));
  checked_step_ = state_.step;
  window_start_tokens_ = state_.target_tokens;
  window_start_time_ = elapsed();
  model_->train();
}

void Trainer::set_up_step_graphs() {
  const auto& t = config_.train;
  if (!t.cuda_graphs) return;
  std::string off;
  if (group_.distributed()) off = "a data-parallel group";
  if (t.accumulate > 1) off = "train.accumulate > 1";
  if (!config_.model.adaptive_cutoffs.empty()) {
    off = "the adaptive softmax (the rows of its clusters depend on the batch's words)";
  }
  if (!off.empty()) {
    display_->message("train.cuda_graphs: off for this run: " + off);
    return;
  }
  capturable_ = std::make_unique<CapturableOptimizerStep>(*optimizer_, t, device_);
  graphs_ = std::make_unique<StepGraphs>([this](StepBuffers& buffers) { static_step(buffers); },
                                         device_, /*capture=*/true, config_.tokenizer.src_len,
                                         config_.tokenizer.tgt_len - 1);
  if (!device_.is_cuda() || !cuda_graphs_built()) {
    display_->message("train.cuda_graphs: no CUDA graphs on " + config_.train.device +
                      (cuda_graphs_built() ? "" : " (LibTorch without CUDA)") +
                      ": the steps run their graph form eagerly (padded, the same "
                      "arithmetic; a check, slower)");
  }
}

void Trainer::segment_epoch() {
  const double alpha = config_.tokenizer.sample_alpha;
  if (alpha <= 0) return;
  const Stopwatch watch;
  train_ = data::sample_examples(*vocab_, train_text_, alpha,
                                 data::mix_seed(config_.train.seed, state_.epoch));
  const double seconds = watch.seconds();
  std::ostringstream line;
  line << "epoch " << state_.epoch + 1 << ": " << train_.size()
       << " training pairs segmented by sampling (alpha " << alpha << ") in " << std::fixed
       << std::setprecision(1) << seconds << " s";
  display_->message(line.str());
}

// --- the loop ---------------------------------------------------------------------------

int64_t Trainer::batches_in_epoch() const { return static_cast<int64_t>(batches_.size()); }

void Trainer::start_epoch() {
  const auto& t = config_.train;
  segment_epoch();
  batches_ = data::make_batches(train_, batching(t), t.seed, state_.epoch,
                                /*shuffle=*/true);
}

std::pair<std::string, int> Trainer::agreed_stop(const StopSignals& signals) {
  clock_s_ = elapsed();
  std::string reason = stop_reason(config_.train, state_, clock_s_);
  int signal = signals.received();
  if (!group_.distributed()) return {reason, reason.empty() ? signal : 0};
  // Only the clock and signals differ between ranks (the rest derives from shared state):
  // any rank's stop is everyone's, and so is the largest clock (the learning rate of a
  // time-budgeted schedule must be the same on every rank).
  auto flags = torch::tensor({double(signal), reason.empty() ? 0.0 : 1.0, clock_s_}, torch::kDouble)
                   .to(group_.device());  // [3]
  group_.all_reduce_max(flags);
  auto host = flags.cpu();
  signal = static_cast<int>(host[0].item<double>());
  clock_s_ = host[2].item<double>();
  if (host[1].item<double>() > 0 && reason.empty()) reason = "time_budget";
  return {reason, reason.empty() ? signal : 0};
}

void Trainer::train_step() {
  const auto& t = config_.train;
  // Re-seeding from the step makes dropout a function of (seed, step): exact resume. Each
  // rank draws its own masks (rank 0's are those of one process).
  torch::manual_seed(t.seed + 1000003ULL * (state_.step + 1) + 7919ULL * group_.rank());
  learning_rate_ = learning_rate(t, state_.step, clock_s_);
  int64_t step_tokens = 0;
  auto step_loss = graphs_ ? graphed_step(step_tokens) : eager_step(step_tokens);
  state_.step++;
  if (average_) {
    model::update_average(*average_, *model_, model::average_decay(t.ema_decay, state_.step));
  }
  state_.target_tokens += step_tokens;
  double now = elapsed();
  state_.elapsed_s = now;
  report_step(now, step_loss);
  if (t.eval_every_steps > 0 && state_.step % t.eval_every_steps == 0) validate_now();
}

torch::Tensor Trainer::eager_step(int64_t& step_tokens) {
  const auto& t = config_.train;
  set_learning_rate(*optimizer_, learning_rate_);
  // Undefined gradients (PyTorch's set_to_none) spare a zero-fill of every parameter
  // gradient per step; backward then writes instead of accumulating.
  for (auto& parameter : model_->parameters()) parameter.mutable_grad() = torch::Tensor();
  auto step_loss = accumulate_gradients(window_, step_tokens);
  synchronise(step_loss);
  check_step_loss(step_loss);  // before the update, on the CPU
  if (t.clip_norm > 0) clip_gradients(model_->parameters(), t.clip_norm);
  optimizer_->step();
  return step_loss;
}

torch::Tensor Trainer::graphed_step(int64_t& step_tokens) {
  const auto batch = data::collate(train_, batches_[state_.batch_in_epoch++]);
  step_tokens = batch.target_tokens;
  capturable_->set_learning_rate(learning_rate_);
  const StepBuffers& out =
      graphs_->run(batch, static_cast<double>(std::max<int64_t>(step_tokens, 1)));
  capturable_->count_step();
  // Copies: the buffers belong to the graph, which the next step overwrites.
  BatchObjective objective;
  objective.nll_sum = out.nll_sum.clone();
  objective.correct = out.correct.clone();
  objective.judged = objective.tokens = step_tokens;
  window_.add(objective);
  auto step_loss = out.step_loss.clone();
  check_step_loss(step_loss);  // after the update: the graph holds both
  return step_loss;
}

void Trainer::static_step(StepBuffers& buffers) {
  const auto& t = config_.train;
  for (auto& parameter : model_->parameters()) parameter.mutable_grad() = torch::Tensor();
  BatchObjective objective;
  {
    AutocastGuard autocast(t.precision, device_);  // the forward pass; backward outside
    objective = teacher_forced_static(model_, buffers.batch, t.label_smoothing);
  }
  auto loss = objective.loss / buffers.loss_divisor;  // [] float
  loss.backward();
  torch::NoGradGuard no_grad;
  buffers.step_loss.copy_(loss);
  buffers.nll_sum.copy_(objective.nll_sum);
  buffers.correct.copy_(objective.correct);
  if (t.clip_norm > 0) clip_gradients(model_->parameters(), t.clip_norm);
  capturable_->queue_step();
}

void Trainer::check_step_loss(const torch::Tensor& step_loss) {
  // On the CPU reading the loss costs nothing: every step is checked. On CUDA the check is
  // queued on the device and read at log steps and before any checkpoint is written
  // (check_losses_finite), so a step never waits for the device.
  if (!device_.is_cuda()) {
    last_step_loss_ = step_loss.item<double>();
    if (!std::isfinite(last_step_loss_)) throw_non_finite(state_.step + 1, state_.step + 1);
  } else {
    losses_nonfinite_.logical_or_(step_loss.isfinite().logical_not());
  }
}

void Trainer::throw_non_finite(int64_t first_step, int64_t last_step) const {
  auto last = latest_checkpoint(dir_);
  const std::string steps =
      first_step == last_step
          ? "at step " + std::to_string(last_step)
          : "between steps " + std::to_string(first_step) + " and " + std::to_string(last_step);
  throw std::runtime_error("non-finite loss " + steps +
                           " (try a lower train.lr or train.clip_norm); the last good "
                           "checkpoint is kept" +
                           (last ? " (" + *last + ")" : ""));
}

void Trainer::check_losses_finite() {
  if (!device_.is_cuda()) return;  // checked every step
  if (losses_nonfinite_.item<bool>()) throw_non_finite(checked_step_ + 1, state_.step);
  checked_step_ = state_.step;
}

torch::Tensor Trainer::accumulate_gradients(DeviceTotals& totals, int64_t& step_tokens) {
  const auto& t = config_.train;
  std::vector<data::Batch> group;
  for (int64_t k = 0; k < t.accumulate && state_.batch_in_epoch < int64_t(batches_.size()); ++k) {
    const auto& indices = batches_[state_.batch_in_epoch++];
    step_tokens += data::target_tokens(train_, indices);  // the global batch's
    auto mine = data::shard(indices, group_.rank(), group_.size());
    if (!mine.empty()) group.push_back(data::collate(train_, mine));
  }
  // The step's loss in double on the device: the same additions as the host's sum of each
  // batch's loss.item<double>() (0.0 + x is x).
  auto step_loss = torch::zeros({}, torch::TensorOptions(torch::kDouble).device(device_));
  for (const auto& batch : group) {
    // An output layer whose full argmax is costly (the adaptive softmax runs every tail on
    // every position, ~10% of a step) skips training accuracy; validation always counts it.
    BatchObjective objective;
    {
      AutocastGuard autocast(t.precision, device_);  // the forward pass; backward outside
      objective = teacher_forced(model_, batch, t.label_smoothing, device_,
                                 /*count_correct=*/model_->output().argmax_is_cheap());
    }
    auto loss = objective.loss / static_cast<double>(std::max<int64_t>(step_tokens, 1));
    if (reducer_ && &batch == &group.back()) reducer_->arm();  // sums start during backward
    loss.backward();
    step_loss += loss.detach().to(torch::kDouble);
    totals.add(objective);
  }
  return step_loss;
}

void Trainer::synchronise(torch::Tensor& step_loss) {
  if (!group_.distributed()) return;
  auto loss = step_loss.reshape({1});  // [1]
  reducer_->finish(loss);
  step_loss = loss.reshape({});
}

void Trainer::report_step(double now, const torch::Tensor& step_loss) {
  const auto& t = config_.train;
  const bool log_step = state_.step % t.log_every_steps == 0;
  // On CUDA the figures are read at log steps only (between them the display shows the last
  // ones read); on the CPU reading is free and happens every step.
  if (group_.distributed()) {
    if (log_step) shown_ = all_reduce_totals(group_, window_.read());  // every rank's window
  } else if (log_step || !device_.is_cuda()) {
    shown_ = window_.read();
  }
  if (log_step && device_.is_cuda()) {
    check_losses_finite();
    last_step_loss_ = step_loss.item<double>();
  }
  ProgressLine line;
  line.epoch = state_.epoch;
  line.step = state_.step;
  line.loss = shown_.loss();
  line.accuracy = shown_.accuracy();
  line.tokens_per_s =
      (state_.target_tokens - window_start_tokens_) / std::max(1e-9, now - window_start_time_);
  line.elapsed_s = now;
  line.fraction_done = fraction_done(t, state_, now, batches_.size());
  display_->update(line, t.log_every_steps);
  if (!log_step) return;
  if (log_)
    log_->write({{"event", "train"},
                 {"step", state_.step},
                 {"epoch", state_.epoch},
                 {"elapsed_s", now},
                 {"loss", shown_.loss()},
                 {"train_loss", last_step_loss_},
                 {"accuracy", shown_.accuracy()},
                 {"lr", learning_rate_},
                 {"tokens_per_s", line.tokens_per_s},
                 {"target_tokens", state_.target_tokens}});
  window_ = DeviceTotals{};
  window_start_tokens_ = state_.target_tokens;
  window_start_time_ = now;
}

ValidationFigures Trainer::evaluate_validation() {
  const auto& t = config_.train;
  std::vector<data::Example> subset;
  const auto* examples = &valid_;
  if (t.valid_subset > 0 && t.valid_subset < static_cast<int64_t>(valid_.size())) {
    subset.assign(valid_.begin(), valid_.begin() + t.valid_subset);
    examples = &subset;
  }
  if (group_.distributed()) {
    // Each rank judges a contiguous slice; the sums are the whole split's.
    std::vector<int64_t> all(examples->size());
    std::iota(all.begin(), all.end(), 0);
    std::vector<data::Example> mine;
    for (int64_t i : data::shard(all, group_.rank(), group_.size())) mine.push_back((*examples)[i]);
    subset = std::move(mine);
    examples = &subset;
  }
  int64_t budget = std::max<int64_t>(t.batch_tokens, 64 * config_.tokenizer.tgt_len);
  auto totals = all_reduce_totals(
      group_, evaluate_teacher_forced(judged(), *examples, budget, device_, t.precision));
  if (!std::isfinite(totals.loss())) {
    // Diverged weights must never replace the last good checkpoint.
    throw std::runtime_error("non-finite loss on the validation split at step " +
                             std::to_string(state_.step) +
                             " (try a lower train.lr or train.clip_norm); the last good "
                             "checkpoint is kept");
  }
  return validation_figures(totals);
}

ValidationFigures Trainer::validation_figures(const TeacherForcedTotals& totals) {
  ValidationFigures figures;
  figures.loss = totals.loss();
  figures.accuracy = totals.accuracy();
  figures.fields = {{"loss", totals.loss()},
                    {"next_word_accuracy", totals.accuracy()},
                    {"target_tokens", totals.tokens}};
  char line[200];
  std::snprintf(line, sizeof line, "epoch %lld | loss %.4f | next-word accuracy %.2f%%",
                static_cast<long long>(state_.epoch + 1), totals.loss(), 100.0 * totals.accuracy());
  figures.line = line;
  if (bleu_) {
    const BleuStats stats =
        all_reduce_bleu_stats(group_, bleu_->stats(judged(), config_, *vocab_, device_));
    figures.bleu = bleu_from_stats(stats).score;
    figures.fields["bleu"] = figures.bleu;
    figures.fields["bleu_sentences"] = bleu_->sentences();
    std::snprintf(line, sizeof line, " | greedy BLEU %.2f", figures.bleu);
    figures.line += line;
  }
  return figures;
}

CheckpointParts Trainer::checkpoint_parts() const {
  return {model_.get(), optimizer_.get(), average_ ? average_.get() : nullptr};
}

// --- the job ----------------------------------------------------------------------------

namespace {

/// On the CPU each step allocates and frees the same large buffers (logits are N×V floats);
/// glibc would hand them back to the kernel and page-fault them in again every step, so they
/// are kept in the heap. On CUDA those buffers live on the device and the host heap is left as
/// glibc sets it (one suspect fewer for crashes inside the CUDA libraries).
/// $ATENTO_MALLOPT=on|off overrides the choice (a diagnostic: scripts/gpu_check.sh).
void tune_heap(const Config& config) {
  const char* forced = std::getenv("ATENTO_MALLOPT");
  bool keep = config.train.device == "cpu";
  if (forced != nullptr && std::string(forced) == "on") keep = true;
  if (forced != nullptr && std::string(forced) == "off") keep = false;
  if (!keep) return;
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

}  // namespace

TrainingJob open_training_job(const TrainArgs& args) {
  TrainingJob job;
  job.config = load_config(args.config, with_device_override(args.overrides, "train", args.device));
  tune_heap(job.config);
  job.dir = args.out;
  job.env = rank_environment();
  // Rank 0 owns the directory: it creates it and holds its lock for the whole group.
  if (job.env.rank == 0) {
    ensure_writable_dir(job.dir);
    job.lock.emplace(job.dir);
  }
  auto saved_path = join_path(job.dir, model_files::kConfig);
  if (file_exists(saved_path)) job.saved = load_config(saved_path, {});
  return job;
}

int run_translation_training(TrainingJob& job) {
  if (job.saved) {
    check_same_architecture(*job.saved, job.config, job.dir,
                            "train into another --out, or use the same settings");
  } else if (!job.config.train.init_from.empty()) {
    const std::string& from = job.config.train.init_from;
    check_same_architecture(open_model_dir(from, ModelKind::kTranslation, {}).config, job.config,
                            from, "train.init_from keeps its model: use its model and tokenizer "
                                  "settings");
  }
  return Trainer(std::move(job.config), job.dir, job.env).run();
}

}  // namespace atento
