#include "app/translate/input_lines.h"

#include "data/utf8.h"

namespace atento {

EncodedInput encode_input(const data::Vocabularies& vocab, const std::vector<std::string>& lines,
                          const std::string& input_name, std::ostream& warnings) {
  EncodedInput in;
  in.sources.resize(lines.size());
  in.skip.assign(lines.size(), true);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = input_name + ":" + std::to_string(i + 1) + ": ";
    if (lines[i].find_first_not_of(" \t") == std::string::npos) continue;  // empty in, empty out
    if (!data::is_valid_utf8(lines[i])) {
      warnings << "warning: " << where << "invalid UTF-8; its output line is left empty\n";
      continue;
    }
    bool truncated = false;
    in.sources[i] = vocab.encode_source(lines[i], &truncated);
    if (in.sources[i].empty()) {
      warnings << "warning: " << where << "no source token; its output line is left empty\n";
      continue;
    }
    if (truncated) {
      warnings << "warning: " << where << "longer than the model's " << vocab.options().src_len
               << " source tokens; cut\n";
    }
    in.skip[i] = false;
    in.active.push_back(i);
  }
  return in;
}

}  // namespace atento
