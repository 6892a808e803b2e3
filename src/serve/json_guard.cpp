#include "serve/json_guard.h"

namespace nki::serve {

int json_nesting_depth(std::string_view text, int stop_above) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) deepest = depth;
        if (deepest > stop_above) return deepest;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;  // unbalanced text is the parser's to refuse
        break;
      default: break;
    }
  }
  return deepest;
}

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629, Unicode table 3-7), or 0
// when it is ill-formed.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b = byte(i);
  if (b < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b == 0xE0) n = 3, lo = 0xA0;
  else if (b == 0xED) n = 3, hi = 0x9F;  // no UTF-16 surrogates
  else if (b >= 0xE1 && b <= 0xEF) n = 3;
  else if (b == 0xF0) n = 4, lo = 0x90;
  else if (b >= 0xF1 && b <= 0xF3) n = 4;
  else if (b == 0xF4) n = 4, hi = 0x8F;  // nothing above U+10FFFF
  else return 0;                           // continuation byte, C0, C1, F5..FF
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

size_t mark_invalid_utf8(std::string& text) {
  // Fast path: most bodies are ASCII or well-formed; copy only when something must change.
  size_t replaced = 0;
  std::string out;
  bool copying = false;
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_sequence_length(text, i);
    bool bad = n == 0 || std::string_view(text).substr(i, n) == kInvalidUtf8Marker;
    if (bad && !copying) {
      out.assign(text, 0, i);
      copying = true;
    }
    if (bad) {
      out += kInvalidUtf8Marker;
      ++replaced;
      i += n == 0 ? 1 : n;
    } else {
      if (copying) out.append(text, i, n);
      i += n;
    }
  }
  if (copying) text = std::move(out);
  return replaced;
}

namespace {

// The code unit of the escape "\\uXXXX" starting at text[i] (the backslash), or -1.
long escaped_unit(const std::string& text, size_t i) {
  if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u') return -1;
  long v = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    char c = text[k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

}  // namespace

size_t mark_lone_surrogate_escapes(std::string& text) {
  size_t replaced = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      continue;
    }
    if (c == '"') {
      in_string = false;
      continue;
    }
    if (c != '\\') continue;
    long unit = escaped_unit(text, i);
    if (unit < 0xD800 || unit > 0xDFFF) {
      ++i;  // skip the escaped character (\\, \", \uXXXX's 'u': its hex digits are plain)
      continue;
    }
    long next = escaped_unit(text, i + 6);
    if (unit <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF) {
      i += 11;  // a well-formed pair
      continue;
    }
    text.replace(i + 2, 4, "FDD0");
    ++replaced;
    i += 5;
  }
  return replaced;
}

}  // namespace nki::serve
