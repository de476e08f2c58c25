#pragma once
// An HTML document (or fragment) as what a translator needs: its blocks of running text (a
// paragraph, a list item, a cell, a title…), each with the inline markup inside it (<b>, <a
// href>, <span>…) as spans over the text, and the markup between the blocks kept as it is.
// Parsed with libxml2's HTML parser (the maintained, packaged parser that browsers' error
// recovery was modelled on), not a parser of our own: malformed markup comes back repaired,
// every element closed and properly nested. Written back with text escaped and entities
// decoded to the characters they stand for (their meaning kept); the contents of <script>,
// <style>, <code>, <kbd>, <samp>, <pre>, <textarea>, <svg>, <math> and <template>, of any
// element marked translate="no" or with the class "notranslate", comments and attributes are
// never part of a block's text.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace atento::data {

/// Elements nested deeper than this are refused (libxml2 reads up to 256 below <html>). What
/// parse_html accepts, render_html writes no deeper, so that it always reads again.
inline constexpr size_t kMaxHtmlDepth = 256;

/// HTML that cannot be read: invalid UTF-8, a NUL byte, elements nested deeper than
/// kMaxHtmlDepth, a text node over libxml2's limit of 10,000,000 bytes.
class HtmlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Markup inside a block's text: an inline element around bytes [begin, end) of the text
/// (`<b>` … `</b>`), or, with begin == end, markup that stands at one place (an image, a
/// comment, a <code> or <script> element kept whole, an empty element).
struct InlineSpan {
  size_t begin = 0;
  size_t end = 0;
  std::string open;   ///< markup before the text it covers (or the whole thing)
  std::string close;  ///< markup after it ("" for a void element or kept-whole markup)
  /// The span it lies in (an index into the block's spans, always smaller), -1 for none.
  int parent = -1;
};

/// A block of running text with its inline markup.
struct TextBlock {
  std::string text;  ///< the text, entities decoded, white space as in the document
  /// In the order opened (a parent before its children); children lie within their parent's
  /// bytes and do not overlap one another.
  std::vector<InlineSpan> spans;
};

/// A document as markup and blocks, alternating: markup[0] blocks[0] markup[1] … markup[n].
struct HtmlDocument {
  std::vector<std::string> markup;  ///< blocks.size() + 1 strings
  std::vector<TextBlock> blocks;    ///< only blocks with text other than white space
  /// A whole document (it names <html>, <head>, <body> or a doctype): written back whole,
  /// with the elements libxml2 implies; otherwise a fragment, written back as a fragment.
  bool whole_document = false;
};

/// Parses `html` (UTF-8). Throws HtmlError for what it cannot read.
HtmlDocument parse_html(std::string_view html);

/// A block as markup: its text escaped, its spans' markup around the bytes they cover. Throws
/// std::invalid_argument when the spans are out of order, out of the text or badly nested.
std::string block_markup(const TextBlock& block);

/// The document with blocks[i] written as `blocks[i]` (markup, e.g. block_markup of a
/// translated block). Throws std::invalid_argument unless there is one per block.
std::string render_html(const HtmlDocument& document, const std::vector<std::string>& blocks);

/// The document written back as it was parsed (every block through block_markup).
std::string render_html(const HtmlDocument& document);

/// Text escaped for HTML: & < > (and U+00A0 as &nbsp;, visible when reading the markup).
std::string escape_html_text(std::string_view text);

}  // namespace atento::data
