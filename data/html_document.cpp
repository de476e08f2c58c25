#include "data/html_document.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_set>

#include "data/utf8.h"

namespace atento::data {

namespace {

bool in_list(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string_view name_of(const xmlNode* node) {
  return node->name ? reinterpret_cast<const char*>(node->name) : "";
}

std::string_view content_of(const xmlNode* node) {
  return node->content ? reinterpret_cast<const char*>(node->content) : "";
}

/// Elements that end a block of running text and start another (HTML's block-level and
/// table, list, form-structure and document elements; <br> and <hr> too).
bool is_block(std::string_view name) {
  return in_list(
      name, {"address",  "article", "aside",    "blockquote", "body",       "br",       "caption",
             "center",   "col",     "colgroup", "dd",         "details",    "dialog",   "dir",
             "div",      "dl",      "dt",       "fieldset",   "figcaption", "figure",   "footer",
             "form",     "frame",   "frameset", "h1",         "h2",         "h3",       "h4",
             "h5",       "h6",      "head",     "header",     "hgroup",     "hr",       "html",
             "iframe",   "legend",  "li",       "main",       "menu",       "nav",      "noframes",
             "noscript", "ol",      "optgroup", "option",     "p",          "pre",      "section",
             "select",   "summary", "table",    "tbody",      "td",         "template", "tfoot",
             "th",       "thead",   "title",    "tr",         "ul"});
}

/// Elements kept whole, never translated: code, scripts, styles, form text, formulas, images.
bool is_kept_whole(std::string_view name) {
  return in_list(name, {"script", "style", "code", "kbd", "samp", "pre", "textarea", "svg", "math",
                        "template", "xmp", "plaintext"});
}

/// The value of `node`'s attribute `name` in ASCII lower case ("" when it has none).
std::string attribute_of(const xmlNode* node, const char* name) {
  std::string value;
  xmlChar* raw = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (raw != nullptr) value = reinterpret_cast<const char*>(raw);
  xmlFree(raw);
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return value;
}

/// An element its author marked as not to be translated: HTML's translate="no" (names, brands,
/// code in running text), or the class "notranslate" that Google Translate and browsers honour.
bool marked_no_translate(const xmlNode* node) {
  if (attribute_of(node, "translate") == "no") return true;
  std::istringstream classes(attribute_of(node, "class"));
  for (std::string name; classes >> name;) {
    if (name == "notranslate") return true;
  }
  return false;
}

/// Elements whose text libxml2 reads raw (no entities): written back raw.
bool is_raw_text(std::string_view name) { return in_list(name, {"script", "style"}); }

/// HTML's void elements: no content, no end tag.
bool is_void(std::string_view name) {
  return in_list(name,
                 {"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
                  "input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"});
}

/// A void element that libxml2's HTML parser (HTML 4's elements) does not know as one (`<source>`,
/// `<track>`, `<wbr>`, `<embed>`...): it reads what follows such a tag as its content, unless
/// the tag closes itself (`<source />`, which HTML5 reads as `<source>`).
bool is_void_unknown_to_libxml2(std::string_view name) {
  if (!is_void(name)) return false;
  const htmlElemDesc* known =
      htmlTagLookup(reinterpret_cast<const xmlChar*>(std::string(name).c_str()));
  return known == nullptr || !known->empty;
}

/// `text` with &, <, > (and, in an attribute value, ") written as character references; in
/// text, a no-break space as &nbsp; (as it was most likely written).
std::string escape_html(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"' && attribute) {
      out += "&quot;";
    } else if (!attribute && text.compare(i, 2, "\xC2\xA0") == 0) {
      out += "&nbsp;";
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

std::string escape_attribute(std::string_view value) { return escape_html(value, true); }

std::string start_tag(const xmlNode* node) {
  std::string tag = "<" + std::string(name_of(node));
  for (const xmlAttr* attr = node->properties; attr != nullptr; attr = attr->next) {
    tag += " ";
    tag += attr->name ? reinterpret_cast<const char*>(attr->name) : "";
    if (attr->children == nullptr) continue;  // a boolean attribute: <input disabled>
    std::string value;
    for (const xmlNode* part = attr->children; part != nullptr; part = part->next) {
      if (part->type == XML_ENTITY_REF_NODE) {
        value += "&" + std::string(name_of(part)) + ";";
      } else {
        value += escape_attribute(content_of(part));
      }
    }
    tag += "=\"" + value + "\"";
  }
  // Closed in the tag, so that libxml2 reads the document we write as it read this one.
  return tag + (is_void_unknown_to_libxml2(name_of(node)) ? " />" : ">");
}

std::string end_tag(const xmlNode* node) {
  return is_void(name_of(node)) ? "" : "</" + std::string(name_of(node)) + ">";
}

std::string doctype(const xmlDtd* dtd) {
  std::string out = "<!DOCTYPE " + std::string(dtd->name ? (const char*)dtd->name : "html");
  if (dtd->ExternalID) {
    out += " PUBLIC \"" + std::string((const char*)dtd->ExternalID) + "\"";
    if (dtd->SystemID) out += " \"" + std::string((const char*)dtd->SystemID) + "\"";
  } else if (dtd->SystemID) {
    out += " SYSTEM \"" + std::string((const char*)dtd->SystemID) + "\"";
  }
  return out + ">";
}

/// Markup that is not an element: a comment, a processing instruction, an entity reference, a
/// doctype; "" for anything else.
std::string other_markup(const xmlNode* node) {
  switch (node->type) {
    case XML_COMMENT_NODE:
      return "<!--" + std::string(content_of(node)) + "-->";
    case XML_PI_NODE:
      return "<?" + std::string(name_of(node)) + " " + std::string(content_of(node)) + ">";
    case XML_ENTITY_REF_NODE:
      return "&" + std::string(name_of(node)) + ";";
    case XML_DTD_NODE:
      return doctype(reinterpret_cast<const xmlDtd*>(node));
    default:
      return "";
  }
}

bool is_text(const xmlNode* node) {
  return node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE;
}

/// One step of a walk over a tree: a node entered, or left after its children.
struct Step {
  xmlNode* node;
  bool leaving;
};

/// Pushes `node`'s children, first on top, after its own leaving step.
void push_children(std::vector<Step>& stack, xmlNode* node) {
  stack.push_back({node, true});
  for (xmlNode* child = node->last; child != nullptr; child = child->prev) {
    stack.push_back({child, false});
  }
}

/// Markup of a subtree kept whole (an element of is_kept_whole), walked without recursion.
std::string whole_markup(xmlNode* root) {
  std::string out;
  std::vector<Step> stack{{root, false}};
  std::vector<bool> raw;  // per open element: its text is raw
  while (!stack.empty()) {
    Step step = stack.back();
    stack.pop_back();
    xmlNode* node = step.node;
    if (node->type == XML_ELEMENT_NODE) {
      if (step.leaving) {
        out += end_tag(node);
        raw.pop_back();
        continue;
      }
      out += start_tag(node);
      raw.push_back(is_raw_text(name_of(node)));
      push_children(stack, node);
    } else if (is_text(node)) {
      out += !raw.empty() && raw.back() ? std::string(content_of(node))
                                        : escape_html_text(content_of(node));
    } else {
      out += other_markup(node);
    }
  }
  return out;
}

/// Calls `visit(element, depth)` for every element of `doc` (depth 1: a root) in document
/// order, without recursion (libxml2 nests up to 256 deep).
template <typename Visit>
void for_each_element(xmlDoc* doc, Visit visit) {
  std::vector<std::pair<xmlNode*, size_t>> stack;  // node, elements from the root to it
  for (xmlNode* node = doc->last; node != nullptr; node = node->prev) stack.push_back({node, 1});
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (node->type != XML_ELEMENT_NODE) continue;
    visit(node, depth);
    for (xmlNode* child = node->last; child != nullptr; child = child->prev)
      stack.push_back({child, depth + 1});
  }
}

/// Inline elements that hold a block element somewhere below: they are markup between blocks.
/// Not void ones: what libxml2 puts inside those follows them (is_void_unknown_to_libxml2).
std::unordered_set<const xmlNode*> holders_of_blocks(xmlDoc* doc) {
  std::unordered_set<const xmlNode*> holders;
  for_each_element(doc, [&](const xmlNode* node, size_t) {
    if (!is_block(name_of(node))) return;
    for (const xmlNode* up = node->parent; up != nullptr && up->type == XML_ELEMENT_NODE;
         up = up->parent) {
      if (!is_void(name_of(up)) && !holders.insert(up).second) break;
    }
  });
  return holders;
}

/// Moves the attributes of `from` that `to` lacks to `to`.
void move_missing_attributes(xmlNode* from, xmlNode* to) {
  for (xmlAttr* attr = from->properties; attr != nullptr;) {
    xmlAttr* next = attr->next;
    if (xmlHasProp(to, attr->name) == nullptr) {  // xmlAddChild puts an attribute in properties
      xmlUnlinkNode(reinterpret_cast<xmlNode*>(attr));
      xmlAddChild(to, reinterpret_cast<xmlNode*>(attr));
    }
    attr = next;
  }
}

/// Moves the children of `from` to the end of `to`'s.
void move_children(xmlNode* from, xmlNode* to) {
  for (xmlNode* child = from->children; child != nullptr;) {
    xmlNode* next = child->next;
    xmlUnlinkNode(child);
    xmlAddChild(to, child);  // may merge text into a text node before it
    child = next;
  }
}

/// Puts the children of `node` in its place.
void replace_by_children(xmlNode* node) {
  for (xmlNode* child = node->children; child != nullptr;) {
    xmlNode* next = child->next;
    xmlAddPrevSibling(node, child);  // unlinks it first; may merge text into a text node
    child = next;
  }
  xmlUnlinkNode(node);
  xmlFreeNode(node);
}

/// The <body> of the root element `root`, made (last) when it has none.
xmlNode* body_of(xmlNode* root) {
  for (xmlNode* child = root->children; child != nullptr; child = child->next) {
    if (child->type == XML_ELEMENT_NODE && name_of(child) == "body") return child;
  }
  return xmlAddChild(root, xmlNewDocNode(root->doc, nullptr, BAD_CAST "body", nullptr));
}

/// Reads each <html> element in the root <html> as HTML5 reads what follows an </html>: its
/// content goes to the end of the first <body>, the attributes of its <html> and <body> tags to
/// the first <html> and <body> where those lack them, and its <head> tag is dropped. libxml2
/// instead nests a second <html> in the first, after the <body>: written back as it stood, a
/// fragment came out as a whole document, and reading it again put that content one level
/// deeper, inside the first <body>.
void unwrap_nested_html(xmlDoc* doc) {
  std::vector<xmlNode*> nested;  // where libxml2 puts them: children of the root
  for_each_element(doc, [&](xmlNode* node, size_t depth) {
    if (depth == 2 && name_of(node) == "html") nested.push_back(node);
  });
  for (xmlNode* node : nested) {  // in document order
    xmlNode* root = node->parent;
    xmlNode* body = body_of(root);
    move_missing_attributes(node, root);
    std::vector<xmlNode*> tags;  // its <head> and <body>
    for (xmlNode* child = node->children; child != nullptr; child = child->next) {
      if (child->type == XML_ELEMENT_NODE && in_list(name_of(child), {"head", "body"})) {
        tags.push_back(child);
      }
    }
    for (xmlNode* tag : tags) {
      if (name_of(tag) == "body") move_missing_attributes(tag, body);
      replace_by_children(tag);
    }
    move_children(node, body);
    xmlUnlinkNode(node);
    xmlFreeNode(node);
  }
}

/// The most elements nested in one another in `doc`.
size_t element_depth(xmlDoc* doc) {
  size_t deepest = 0;
  for_each_element(doc, [&](const xmlNode*, size_t depth) { deepest = std::max(deepest, depth); });
  return deepest;
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\n\r\f") == std::string_view::npos;
}

/// Builds a document from a walk over the tree.
class Builder {
 public:
  explicit Builder(std::unordered_set<const xmlNode*> holders) : holders_(std::move(holders)) {
    document_.markup.emplace_back();
  }

  /// Walks `roots` (and what lies below them) in order.
  void walk(const std::vector<xmlNode*>& roots) {
    std::vector<Step> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, false});
    while (!stack.empty()) {
      Step step = stack.back();
      stack.pop_back();
      if (step.leaving) {
        leave(step.node);
      } else if (enter(step.node)) {
        push_children(stack, step.node);
      }
    }
  }

  HtmlDocument finish() {
    end_block();
    return std::move(document_);
  }

 private:
  /// Handles a node entered; true when its children are to be walked.
  bool enter(xmlNode* node) {
    if (is_text(node)) {
      block_.text += content_of(node);
      return false;
    }
    if (node->type != XML_ELEMENT_NODE) {
      const std::string markup = other_markup(node);
      if (node->type == XML_DTD_NODE) {
        end_block();
        document_.markup.back() += markup;
      } else if (!markup.empty()) {
        add_point(markup);
      }
      return false;
    }
    const std::string_view name = name_of(node);
    const bool kept = is_kept_whole(name) || marked_no_translate(node);
    if (name == "pre" || (kept && (holders_.count(node) || is_block(name)))) {
      end_block();
      document_.markup.back() += whole_markup(node);
      return false;
    }
    if (kept) {
      add_point(whole_markup(node));
      return false;
    }
    if (is_block(name) || holders_.count(node)) {
      end_block();
      document_.markup.back() += start_tag(node);
      return true;
    }
    if (is_void(name)) {
      // What libxml2 read as the content of a void element it does not know is what follows it.
      add_point(start_tag(node));
      return true;
    }
    InlineSpan span;
    span.begin = span.end = block_.text.size();
    span.open = start_tag(node);
    span.close = end_tag(node);
    span.parent = open_.empty() ? -1 : open_.back();
    open_.push_back(static_cast<int>(block_.spans.size()));
    block_.spans.push_back(std::move(span));
    return true;
  }

  void leave(xmlNode* node) {
    const std::string_view name = name_of(node);
    if (is_block(name) || holders_.count(node)) {
      end_block();
      document_.markup.back() += end_tag(node);
      return;
    }
    if (is_void(name)) return;  // a point, with no span open
    // An inline element: the innermost open span (inline elements hold no blocks, so no block
    // ended while it was open).
    block_.spans[static_cast<size_t>(open_.back())].end = block_.text.size();
    open_.pop_back();
  }

  /// Markup at one place of the running text.
  void add_point(const std::string& markup) {
    InlineSpan span;
    span.begin = span.end = block_.text.size();
    span.open = markup;
    span.parent = open_.empty() ? -1 : open_.back();
    block_.spans.push_back(std::move(span));
  }

  /// Ends the running block: a block when it holds text, markup otherwise.
  void end_block() {
    if (is_blank(block_.text)) {
      document_.markup.back() += block_markup(block_);
    } else {
      document_.blocks.push_back(std::move(block_));
      document_.markup.emplace_back();
    }
    block_ = TextBlock();
    open_.clear();
  }

  std::unordered_set<const xmlNode*> holders_;
  HtmlDocument document_;
  TextBlock block_;
  std::vector<int> open_;  ///< the inline spans open in block_, innermost last
};

/// `html` with each character that XML 1.0 does not allow (C0 controls other than tab, line
/// feed and carriage return; U+FFFE, U+FFFF) made a space. libxml2 leaves them out silently,
/// which joins the words around them and, inside a <script>, can make "</scrip\x1dt" an end
/// tag when our output is read again; a space keeps both apart.
std::string disallowed_as_spaces(std::string_view html) {
  std::string out(html);
  for (size_t i = 0; i < out.size(); ++i) {
    const auto byte = static_cast<unsigned char>(out[i]);
    if (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') {
      out[i] = ' ';
    } else if (byte == 0xEF && i + 2 < out.size() && out[i + 1] == '\xBF' &&
               (out[i + 2] == '\xBE' || out[i + 2] == '\xBF')) {
      out.replace(i, 3, " ");
    }
  }
  return out;
}

/// A whole document names its document elements or a doctype; anything else is a fragment.
bool looks_whole(std::string_view html) {
  std::string lower(html.substr(0, std::min<size_t>(html.size(), 1 << 16)));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* mark : {"<!doctype", "<html", "<head", "<body"}) {
    if (lower.find(mark) != std::string::npos) return true;
  }
  return false;
}

struct DocFree {
  void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};
struct ContextFree {
  void operator()(htmlParserCtxt* context) const { htmlFreeParserCtxt(context); }
};

/// The nodes to walk: the document's own, or the fragment's (what the <body> wrapped around
/// it holds, and anything libxml2 put beside that body).
std::vector<xmlNode*> roots_of(xmlDoc* doc, bool whole) {
  std::vector<xmlNode*> roots;
  for (xmlNode* node = doc->children; node != nullptr; node = node->next) {
    if (whole || node->type != XML_ELEMENT_NODE || name_of(node) != "html") {
      roots.push_back(node);
      continue;
    }
    for (xmlNode* child = node->children; child != nullptr; child = child->next) {
      if (child->type == XML_ELEMENT_NODE && name_of(child) == "body") {
        for (xmlNode* inner = child->children; inner != nullptr; inner = inner->next) {
          roots.push_back(inner);
        }
      } else {
        roots.push_back(child);
      }
    }
  }
  return roots;
}

}  // namespace

std::string escape_html_text(std::string_view text) { return escape_html(text, false); }

HtmlDocument parse_html(std::string_view html) {
  if (html.find('\0') != std::string_view::npos) {
    throw HtmlError("the HTML holds a NUL byte at byte " + std::to_string(html.find('\0')));
  }
  if (!is_valid_utf8(html)) {
    throw HtmlError("the HTML is not valid UTF-8 (byte " +
                    std::to_string(first_invalid_utf8(html)) + ")");
  }
  static std::once_flag initialised;
  std::call_once(initialised, [] { xmlInitParser(); });
  const bool whole = looks_whole(html);
  // A fragment is read inside a <body> of its own, so that libxml2 wraps no <p> around its
  // first text and leaves it as written.
  const std::string input = (whole ? "" : "<html><body>") + disallowed_as_spaces(html);
  if (input.size() > static_cast<size_t>(INT32_MAX)) throw HtmlError("the HTML is over 2 GB");
  std::unique_ptr<htmlParserCtxt, ContextFree> context(htmlNewParserCtxt());
  if (!context) throw HtmlError("cannot start libxml2's HTML parser (out of memory)");
  const int options = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                      HTML_PARSE_NOWARNING | HTML_PARSE_NODEFDTD | HTML_PARSE_IGNORE_ENC;
  std::unique_ptr<xmlDoc, DocFree> doc(htmlCtxtReadMemory(
      context.get(), input.data(), static_cast<int>(input.size()), nullptr, "UTF-8", options));
  // libxml2 stops (and turns its SAX off) on what it will not read: nesting deeper than 256
  // elements, a text node over 10,000,000 bytes; recovered errors leave it on.
  const auto too_deep = [] {
    return HtmlError("the HTML nests elements more than " + std::to_string(kMaxHtmlDepth) +
                     " deep");
  };
  if (!doc || context->disableSAX) {
    const char* why = context->lastError.message;
    std::string message = why ? why : "unknown error";
    if (message.rfind("Excessive depth", 0) == 0) throw too_deep();  // names an option of its own
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw HtmlError("libxml2 cannot read the HTML: " + message);
  }
  unwrap_nested_html(doc.get());
  if (element_depth(doc.get()) > kMaxHtmlDepth) throw too_deep();
  Builder builder(holders_of_blocks(doc.get()));
  builder.walk(roots_of(doc.get(), whole));
  HtmlDocument document = builder.finish();
  document.whole_document = whole;
  return document;
}

std::string block_markup(const TextBlock& block) {
  const std::string& text = block.text;
  std::string out;
  std::vector<size_t> open;  // spans open, innermost last
  size_t cursor = 0;
  auto close_innermost = [&] {
    const InlineSpan& span = block.spans[open.back()];
    out += escape_html_text(std::string_view(text).substr(cursor, span.end - cursor));
    out += span.close;
    cursor = span.end;
    open.pop_back();
  };
  for (size_t i = 0; i < block.spans.size(); ++i) {
    const InlineSpan& span = block.spans[i];
    if (span.parent >= static_cast<int>(i) || span.begin > span.end || span.end > text.size()) {
      throw std::invalid_argument("block_markup: span " + std::to_string(i) + " out of place");
    }
    while (!open.empty() && static_cast<int>(open.back()) != span.parent) close_innermost();
    if (open.empty() != (span.parent < 0) || span.begin < cursor ||
        (!open.empty() && span.end > block.spans[open.back()].end)) {
      throw std::invalid_argument("block_markup: span " + std::to_string(i) + " badly nested");
    }
    out += escape_html_text(std::string_view(text).substr(cursor, span.begin - cursor));
    out += span.open;
    cursor = span.begin;
    open.push_back(i);
  }
  while (!open.empty()) close_innermost();
  out += escape_html_text(std::string_view(text).substr(cursor));
  return out;
}

std::string render_html(const HtmlDocument& document, const std::vector<std::string>& blocks) {
  if (blocks.size() != document.blocks.size() ||
      document.markup.size() != document.blocks.size() + 1) {
    throw std::invalid_argument("render_html: one text per block expected");
  }
  std::string out = document.markup[0];
  for (size_t i = 0; i < blocks.size(); ++i) out += blocks[i] + document.markup[i + 1];
  return out;
}

std::string render_html(const HtmlDocument& document) {
  std::vector<std::string> blocks;
  for (const TextBlock& block : document.blocks) blocks.push_back(block_markup(block));
  return render_html(document, blocks);
}

}  // namespace atento::data
