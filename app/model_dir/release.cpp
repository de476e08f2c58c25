#include "app/model_dir/release.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "app/common/files.h"
#include "app/model_dir/checksums.h"
#include "app/model_dir/model_dir.h"
#include "app/model_dir/safetensors.h"
#include "app/model_dir/weights_file.h"
#include "data/text_io.h"

namespace atento {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// The events of a training log (log.jsonl) by kind, the last of each; unreadable lines skipped.
std::map<std::string, json> last_events(const std::string& log_path) {
  std::map<std::string, json> events;
  std::ifstream in(log_path);
  std::string line;
  while (std::getline(in, line)) {
    json event = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (event.is_object() && event.contains("event") && event["event"].is_string()) {
      events[event["event"].get<std::string>()] = event;
    }
  }
  return events;
}

/// "3,000 pairs, sha256 …" for a TSV file, or "" when it is not there.
std::string describe_tsv(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return "";
  std::ifstream in(path, std::ios::binary);
  size_t lines = 0;
  std::string line;
  while (std::getline(in, line)) ++lines;
  return std::to_string(lines) + " pairs, " + std::to_string(fs::file_size(path)) +
         " bytes, sha256 `" + sha256_file(path) + "`";
}

/// A table row per key of a JSON object section: "| key | value |".
std::string section_rows(const json& section) {
  std::string rows;
  for (const auto& [key, value] : section.items()) rows += "| " + key + " | " + value.dump() + " |\n";
  return rows;
}

std::string training_lines(const std::string& model_dir) {
  const auto events = last_events(join_path(model_dir, model_files::kLog));
  std::ostringstream out;
  if (events.count("start")) {
    const json& s = events.at("start");
    out << "- Hardware: " << s.value("device", "?") << ", " << s.value("threads", 0)
        << " threads, " << s.value("world_size", 1) << " rank(s); arithmetic "
        << s.value("precision", "?") << "; " << s.value("params", 0) << " parameters.\n"
        << "- Split: " << s.value("train_pairs", 0) << " training pairs, "
        << s.value("valid_pairs", 0) << " validation pairs.\n";
  }
  if (events.count("end")) {
    const json& e = events.at("end");
    out << "- Trained " << e.value("step", 0) << " steps in " << e.value("elapsed_s", 0.0)
        << " s (stopped: " << e.value("reason", "?") << "); best weights from step "
        << e.value("best_step", 0) << ".\n";
  }
  if (out.str().empty()) out << "- No training log in " << model_dir << ".\n";
  return out.str();
}

std::string metrics_lines(const std::string& model_dir, const std::string& metrics_file) {
  std::string text;
  const std::string best = join_path(model_dir, model_files::kBestInfo);
  if (file_exists(best)) {
    text += "Validation (the best weights' figures, `best.json`):\n\n| metric | value |\n|---|---|\n" +
            section_rows(json::parse(data::read_whole_file(best, "best weights' figures")));
  }
  if (!metrics_file.empty()) {
    json metrics = json::parse(data::read_whole_file(metrics_file, "metrics"), nullptr, false);
    if (!metrics.is_object()) throw std::runtime_error(metrics_file + ": not a JSON object");
    text += "\nTest split (`atento-eval --json`, given to atento-release):\n\n"
            "| metric | value |\n|---|---|\n" + section_rows(metrics);
  } else {
    text += "\nNo test metrics were given (atento-release --metrics FILE, from atento-eval "
            "--json).\n";
  }
  return text;
}

std::string model_card(const std::string& model_dir, const Config& config,
                       const std::string& metrics_file) {
  const json doc = config_to_json(config);
  const std::string pair = config.data.source_lang + " → " + config.data.target_lang;
  std::string corpus = describe_tsv(config.data.corpus);
  std::string split = describe_tsv(join_path(model_dir, model_files::kTrain));
  std::ostringstream card;
  card << "# Atento translation model, " << pair << "\n\n"
       << "An encoder-decoder Transformer trained with Atento. Use it with any Atento program "
          "as a model directory: `atento-translate --model DIR`, `atento-eval`, "
          "`atento-serve`.\n\n"
       << "## Data\n\n"
       << "- Languages: " << pair << " (`data.source_lang`, `data.target_lang`).\n"
       << "- Corpus: `" << fs::path(config.data.corpus).filename().string() << "`"
       << (corpus.empty() ? " (not present when released)" : ": " + corpus) << ".\n"
       << "- Training split" << (split.empty() ? ": not kept." : ": " + split + ".") << "\n\n"
       << "## Recipe\n\n| model | |\n|---|---|\n" << section_rows(doc["model"])
       << "\n| tokenizer | |\n|---|---|\n" << section_rows(doc["tokenizer"])
       << "\n| train | |\n|---|---|\n" << section_rows(doc["train"]) << "\n"
       << "## Training\n\n" << training_lines(model_dir) << "\n"
       << "## Metrics\n\n" << metrics_lines(model_dir, metrics_file) << "\n"
       << "## Limitations\n\n"
       << "- A sentence is encoded in at most " << config.tokenizer.src_len
       << " source tokens; the programs translate text sentence by sentence and split longer "
          "sentences at clauses, and cut (with a warning) only a single run longer than that.\n"
       << "- It knows the corpus' domain: the Tatoeba corpus is short, everyday sentences; "
          "expect worse translations of technical, legal or literary text and of rare names.\n"
       << "- It translates " << pair << " only, one sentence at a time, without context.\n\n"
       << "## Files\n\nEvery other file's SHA-256 is in `SHA256SUMS` (`sha256sum -c "
          "SHA256SUMS`). The weights are in the safetensors format.\n";
  return card.str();
}

/// `out` may be created: it does not exist, or is an empty directory.
void check_out(const std::string& out) {
  std::error_code ec;
  if (!fs::exists(out, ec)) return;
  if (!fs::is_directory(out, ec) || !fs::is_empty(out, ec)) {
    throw std::runtime_error(out + ": exists and is not an empty directory; choose a new one");
  }
  fs::remove(out, ec);
}

/// Writes the release's files into the directory `tmp`.
void fill_release(const ReleaseArgs& args, const OpenedModelDir& opened, const std::string& tmp) {
  std::vector<std::string> names;
  auto copy = [&](const std::string& file) {
    names.push_back(fs::path(file).filename().string());
    fs::copy_file(file, join_path(tmp, names.back()));
  };
  copy(join_path(args.model_dir, model_files::kConfig));
  for (const auto& file : data::tokenizer_files(args.model_dir, opened.config.tokenizer))
    copy(file);
  const std::string lexicon = join_path(args.model_dir, data::kWordLexiconFile);
  if (file_exists(lexicon)) copy(lexicon);
  names.push_back(model_files::kReleaseWeights);
  save_weights(read_weights_file(opened.weights), join_path(tmp, names.back()));
  names.push_back(model_files::kModelCard);
  data::write_file_atomically(join_path(tmp, names.back()),
                              model_card(args.model_dir, opened.config, args.metrics_file));
  data::write_file_atomically(join_path(tmp, model_files::kChecksums), sha256sums(tmp, names));
  data::sync_directory(tmp);
}

}  // namespace

void write_release(const ReleaseArgs& args) {
  const std::string config = join_path(args.model_dir, model_files::kConfig);
  // Without a config.json, open_model_dir says why the directory is not (yet) a model's.
  if (!file_exists(config)) open_model_dir(args.model_dir, ModelKind::kTranslation, {});
  const Config probe =
      load_config(config, std::vector<std::string>{});
  const ModelKind kind =
      probe.filter.pretrained.empty() ? ModelKind::kTranslation : ModelKind::kFilter;
  const OpenedModelDir opened = open_model_dir(args.model_dir, kind, {});
  check_out(args.out);
  const std::string tmp = args.out + ".partial-" + std::to_string(::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  try {
    fill_release(args, opened, tmp);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(tmp, ec);
    throw;
  }
  fs::rename(tmp, args.out);
}

}  // namespace atento
