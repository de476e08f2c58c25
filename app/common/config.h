#pragma once
// One JSON configuration shared by atento-train, atento-translate and atento-eval.
// Precedence (lowest to highest, as marian's config_parser writes it down):
//   1. defaults in the struct initialisers below and in data/options.h, model/options.h
//   2. the JSON file given with --config (or the model directory's config.json)
//   3. --set section.key=value overrides, in command-line order
//   4. one validate() over the result
// Unknown sections/keys and wrong types are errors naming the key.

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/options.h"
#include "model/options.h"

namespace atento {

/// A bad configuration or command line: exit code 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Layout version of a model directory, written into its config.json as "format_version".
/// A directory of another version is refused with a clear error; one without the key predates
/// versioning and has this same layout.
inline constexpr int64_t kModelFormatVersion = 1;
inline constexpr const char* kFormatVersionKey = "format_version";

enum class OptimizerKind { kAdam, kAdamW, kRmsprop };
enum class LrSchedule { kConstant, kInverseSqrt, kLinear };
enum class BestMetric { kAccuracy, kLoss, kBleu };
/// Arithmetic of the forward pass: fp32, bf16 autocast (matmuls in bfloat16, loss and
/// softmax in fp32), int8 (decoding only: dense layers with int8 weights, model/int8_linear.h),
/// or auto: bf16 where the CPU multiplies bfloat16 natively; elsewhere fp32, except that
/// decoding picks int8 where Atento's int8 kernel runs (app/common/precision.h).
enum class Precision { kFp32, kBf16, kInt8, kAuto };

/// True for the device names the configuration accepts: cpu, cuda, cuda:N.
bool is_device_name(const std::string& name);

/// The names train.precision and translate.precision accept: fp32, bf16, int8, auto.
std::vector<std::string> precision_names();

struct TrainOptions {
  /// adam | adamw | rmsprop (Keras defaults for the book: lr 1e-3, rho 0.9, eps 1e-7).
  OptimizerKind optimizer = OptimizerKind::kAdam;
  /// Peak learning rate.
  double lr = 7e-4;
  /// Adam β1, β2 (RMSprop ignores them).
  double beta1 = 0.9;
  double beta2 = 0.98;
  /// RMSprop's decay of the squared-gradient average (Keras: rho).
  double rho = 0.9;
  /// Numerical epsilon of the optimiser.
  double eps = 1e-9;
  /// Decoupled weight decay (adamw) or L2 (adam, rmsprop).
  double weight_decay = 0.0;
  /// Decay the vectors too (biases, normalisation gains and shifts); false = only the matrices
  /// (projections, embeddings), as GPT-2 and BERT train.
  bool decay_vectors = true;
  /// constant | inverse_sqrt (linear warm-up, then lr·sqrt(warmup/step)) | linear (linear
  /// warm-up, then a straight line down to 0 at max_steps and/or at the end of
  /// time_budget_minutes, whichever line is lower). See app/train/schedule.h.
  LrSchedule schedule = LrSchedule::kInverseSqrt;
  /// Steps of linear warm-up (every schedule; 0 = none).
  int64_t warmup_steps = 1000;
  /// Label smoothing of the cross-entropy (0 = none).
  double label_smoothing = 0.1;
  /// Global gradient-norm clipping (0 = none).
  double clip_norm = 1.0;
  /// Weight averaging: validation and the saved model use an exponential moving average of
  /// the weights with this decay (e.g. 0.999 ≈ the last ~1,000 steps); 0 = off.
  double ema_decay = 0.0;
  /// Sentences per batch; 0 = batch by `batch_tokens`.
  int64_t batch_size = 0;
  /// Token budget per batch (padded), when batch_size is 0.
  int64_t batch_tokens = 4096;
  /// Sort sentences into batches of similar lengths (inside windows of the shuffled corpus), so
  /// that little padding is computed; false = batches of random sentences, as the book's.
  bool bucket_by_length = true;
  /// Batches whose gradients are summed before one optimiser step.
  int64_t accumulate = 1;
  /// Stop after this many epochs (0 = no limit).
  int64_t max_epochs = 20;
  /// Stop at this optimiser step (0 = no limit). Absolute: a resumed run continues up to it.
  int64_t max_steps = 0;
  /// Stop after this much training wall-clock time, summed over resumed runs (0 = no limit).
  double time_budget_minutes = 0.0;
  /// Validate every this many steps (0 = only at epoch ends).
  int64_t eval_every_steps = 500;
  /// Validate on the first N validation pairs only (0 = all).
  int64_t valid_subset = 0;
  /// next_word_accuracy | loss | bleu: which validation figure picks the best checkpoint
  /// (bleu: greedy BLEU on the bleu_sentences below).
  BestMetric best_metric = BestMetric::kAccuracy;
  /// At every validation of a translation model, the first this many distinct English
  /// sources of the validation split are translated greedily and their corpus BLEU logged
  /// (every Spanish side of a source is one of its references); 0 = no BLEU at validation.
  int64_t bleu_sentences = 300;
  /// Stop after this many validations without improvement (0 = never).
  int64_t patience = 5;
  /// Checkpoints kept on disk, the newest ones (each validation writes one): more than 1 for
  /// checkpoint averaging (atento-average).
  int64_t keep_checkpoints = 1;
  /// Log a training line every this many steps.
  int64_t log_every_steps = 100;
  /// Intra-op threads (0 = all cores or $OMP_NUM_THREADS; LibTorch's own default can be 1).
  int64_t threads = 0;
  /// Seed of initialisation, dropout and batch order.
  uint64_t seed = 1337;
  /// Where to train: cpu | cuda | cuda:N (a run-time choice; a resume may change it).
  std::string device = "cpu";
  /// Fine-tuning: a trained model directory (or release) whose weights and tokenizers a new
  /// run starts from, with a fresh optimizer and schedule; its architecture must match.
  std::string init_from;
  /// fp32 | bf16 (autocast) | auto (int8 is for decoding only).
  Precision precision = Precision::kFp32;
  /// Training steps as CUDA graphs, one per padded batch shape (app/train/step_graphs.h); off
  /// in a data-parallel group, with accumulate > 1 and with the adaptive softmax. Without CUDA
  /// the steps run their graph form eagerly (a check of its arithmetic, not a speed-up).
  bool cuda_graphs = false;
};

struct TranslateOptions {
  /// Beam width (1 = greedy).
  int64_t beam = 4;
  /// Length normalisation: score / length^alpha.
  double length_penalty = 0.6;
  /// Hypotheses printed per sentence (rank<TAB>score<TAB>text when > 1).
  int64_t n_best = 1;
  /// Longest output: min(model max length, ratio × source length + extra).
  double max_len_ratio = 1.5;
  int64_t max_len_extra = 5;
  /// Hypothesis rows per decoding batch: sentences × beam (beam 4 with 64 decodes 16 sentences
  /// at a time), which bounds the decoder's memory whatever the beam.
  int64_t batch_size = 64;
  /// Reuse the decoder's keys and values between steps (false = recompute the prefix).
  bool use_cache = true;
  /// Translate each sentence of a line (or request string) on its own and join the
  /// translations with the original spacing (false: the whole line is one source, split only
  /// where it is longer than the model's source length). See data/segmentation.h.
  bool split_sentences = true;
  /// With split_sentences, a sentence longer than this many source tokens is translated clause
  /// by clause (split at its commas, semicolons, colons and dashes, each clause read as a
  /// sentence): the corpus' sentences are short (96.7% of spa-eng's English in at most 16 tokens
  /// of base.json's vocabulary), and a model trained on them drops and garbles words in longer
  /// ones. 0: only a sentence longer than the source length is split.
  int64_t long_sentence_tokens = 16;
  /// Intra-op threads (0 = all cores or $OMP_NUM_THREADS).
  int64_t threads = 0;
  /// Where to translate and evaluate: cpu | cuda | cuda:N, whatever the model was trained on.
  std::string device = "cpu";
  /// fp32 | bf16 (autocast) | int8 (int8 weights, CPU) | auto.
  Precision precision = Precision::kFp32;
  /// atento-translate's greedy decoding as CUDA graphs, one per padded batch shape
  /// (app/translate/greedy_graphs.h), in whole batches instead of continuous batching. Without
  /// CUDA the steps run their graph form eagerly (a check of its arithmetic, not a speed-up).
  bool cuda_graphs = false;
};

/// The pair filter (atento-filter): a classifier of sentence pairs, fine-tuned from a trained
/// translation model. Empty `pretrained`: atento-train trains a translation model.
struct FilterOptions {
  /// Model directory of the trained translation model whose encoder, embeddings and
  /// tokenizers the classifier starts from; set: atento-train trains a filter.
  std::string pretrained;
  /// Start from random weights instead (same architecture and tokenizers): the ablation.
  bool random_init = false;
  /// Share of synthetic negatives among the training, validation and test examples.
  double noise_fraction = 0.5;
  /// Pairs with a score at or above this count as translations (accuracy, F1, --threshold).
  double threshold = 0.5;
  /// Pairs per scoring batch in atento-filter.
  int64_t batch_size = 128;
};

/// Collective backend of a data-parallel run (app/distributed/process_group.h).
enum class Backend { kAuto, kGloo, kNccl };

/// Data-parallel training: the group itself comes from RANK, WORLD_SIZE, MASTER_ADDR and
/// MASTER_PORT (or atento-train --nproc); these settings only shape how it talks.
struct DistributedOptions {
  /// auto (Gloo on the CPU, NCCL on CUDA), gloo or nccl.
  Backend backend = Backend::kAuto;
  /// Seconds a rank waits for its peers (rendezvous and every collective) before it gives up
  /// with an error: a dead or hung rank stops the others within this bound.
  double timeout_s = 300.0;
};

struct Config {
  data::CorpusOptions data;
  data::TokenizerOptions tokenizer;
  model::ModelOptions model;
  TrainOptions train;
  TranslateOptions translate;
  FilterOptions filter;
  DistributedOptions distributed;
};

/// The largest configuration file read (the shipped ones hold about 2 KB).
inline constexpr std::uint64_t kMaxConfigBytes = 1 << 20;

/// Defaults ← JSON file `path` ← `overrides` ("section.key=value") → validate().
Config load_config(const std::string& path, const std::vector<std::string>& overrides);

/// Defaults ← `doc` (from `source`, named in errors) ← overrides → validate().
Config config_from_json(const nlohmann::json& doc, const std::string& source,
                        const std::vector<std::string>& overrides);

/// Every field, as the JSON the trainer writes into the model directory.
nlohmann::json config_to_json(const Config& config);

/// Checks ranges and cross-field rules; throws ConfigError naming the key.
void validate(const Config& config);

/// Throws ConfigError unless every override names a key of `section` (run-time overrides
/// of a trained model may change search settings, never the architecture).
void require_section(const std::vector<std::string>& overrides, const std::string& section);

}  // namespace atento
