#include "app/translate/input_lines.h"

#include "data/utf8.h"

namespace atento {

EncodedInput encode_input(const data::Vocabularies& vocab, const std::vector<std::string>& lines,
                          const std::string& input_name, size_t first_line, Segmenter* segmenter,
                          std::ostream& warnings) {
  EncodedInput in;
  in.lines.resize(lines.size());
  in.first.resize(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    in.first[i] = in.sources.size();
    const std::string where = input_name + ":" + std::to_string(first_line + i) + ": ";
    if (lines[i].find_first_not_of(" \t") == std::string::npos) continue;  // empty in, empty out
    if (lines[i].size() > kMaxLineBytes) {
      warnings << "warning: " << where << lines[i].size() << " bytes, more than the "
               << kMaxLineBytes << " a line may hold; its output line is left empty\n";
      continue;
    }
    if (!data::is_valid_utf8(lines[i])) {
      warnings << "warning: " << where << "invalid UTF-8; its output line is left empty\n";
      continue;
    }
    if (lines[i].find('\0') != std::string::npos) {  // as atento-serve refuses one in a request
      warnings << "warning: " << where << "a NUL byte; its output line is left empty\n";
      continue;
    }
    in.lines[i] = segment_text(vocab, lines[i], segmenter);
    if (in.lines[i].sources.empty()) {
      if (in.lines[i].trail.empty()) {  // not a line of numbers, symbols, addresses…: copied
        warnings << "warning: " << where << "no source token; its output line is left empty\n";
      }
      continue;
    }
    const std::string cut = cut_warning(in.lines[i].cut, vocab.options().src_len);
    if (!cut.empty()) warnings << "warning: " << where << cut << "\n";
    for (auto& ids : in.lines[i].sources) in.sources.push_back(ids);
  }
  return in;
}

}  // namespace atento
