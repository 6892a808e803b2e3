// Checks on client JSON made BEFORE nlohmann::json parses it. nlohmann's parser (and its dump)
// recurse once per nesting level, so a body of 200 KB of '[' overflows the stack of the thread
// that parses it and kills the whole server. These checks never recurse: one pass over the bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nki::serve {

// Deepest nesting of arrays and objects in `text`, counting brackets outside strings only
// (escapes respected). Stops counting once the depth exceeds `stop_above` (the answer is then
// stop_above + 1): the scan is linear and cheap even for a body that is all brackets. Does not
// validate the JSON; the parser does that afterwards, on text now known to be shallow.
int json_nesting_depth(std::string_view text, int stop_above);

// U+FDD0, a Unicode noncharacter ("reserved for a process's internal use"): what
// mark_invalid_utf8 puts in place of each ill-formed UTF-8 sequence, so that the JSON parses and
// the one string that carried the bad bytes (one item of a batch) can be refused on its own.
inline constexpr std::string_view kInvalidUtf8Marker = "\xEF\xB7\x90";

// Replaces every ill-formed UTF-8 sequence (stray continuation bytes, truncated sequences,
// overlong forms, surrogates, code points above U+10FFFF) and every U+FDD0 the client sent itself
// by kInvalidUtf8Marker. Returns how many were replaced; well-formed text is left untouched.
size_t mark_invalid_utf8(std::string& text);

// The same inside JSON string escapes: a \uD800..\uDFFF escape that is not half of a
// surrogate pair (what Python's json.dumps writes for a byte it could not decode) becomes
// \uFDD0, the marker escaped; same length, in place. nlohmann would refuse the whole body.
size_t mark_lone_surrogate_escapes(std::string& text);

// True when `s` came from a string that held ill-formed UTF-8 (it contains the marker).
inline bool has_invalid_utf8(std::string_view s) { return s.find(kInvalidUtf8Marker) != std::string_view::npos; }

}  // namespace nki::serve
