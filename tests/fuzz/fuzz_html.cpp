// libFuzzer target: HTML documents. Any bytes are parsed (parse_html may only throw HtmlError);
// a parsed document is written back, read again (it must parse), and each block's inline spans
// are placed over a made-up translation by an alignment drawn from the input (the placement
// must always be properly nested: block_markup accepts it).
#include <cstdint>
#include <string>

#include "app/translate/tag_placement.h"
#include "data/html_document.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const std::string input(reinterpret_cast<const char*>(data), size);
  data::HtmlDocument document;
  try {
    document = data::parse_html(input);
  } catch (const data::HtmlError&) {
    return 0;
  }
  const std::string html = data::render_html(document);
  data::parse_html(html);  // what we write, we read
  for (const data::TextBlock& block : document.blocks) {
    // The translation: the block's words reversed; word t aligned to a word picked by the bytes.
    WordAlignment alignment;
    alignment.source_words = data::text_words(block.text);
    std::string target;
    for (auto w = alignment.source_words.rbegin(); w != alignment.source_words.rend(); ++w) {
      if (!target.empty()) target += ' ';
      target.append(block.text, w->begin, w->size());
    }
    alignment.target_words = data::text_words(target);
    for (size_t t = 0; t < alignment.target_words.size(); ++t) {
      alignment.links.emplace_back();
      if (!alignment.source_words.empty() && data[t % size] % 3 != 0) {
        alignment.links.back().push_back(data[(t * 7) % size] % alignment.source_words.size());
      }
    }
    data::block_markup({target, place_spans(block.spans, alignment, block.text, target)});
  }
  return 0;
}
