// Pulling kernel source out of what a model wrote: a tool call's JSON arguments or a chat answer
// with fenced code blocks.
#pragma once

#include <string>

namespace nki::agent {

// The best code block in free text, or "" when there is none. Fenced blocks tagged python/py (or
// untagged) are preferred over other languages; among those, blocks that define a function win,
// then blocks that mention nki; ties go to the last block (models put the final version last).
// An unterminated final fence (a reply cut off by max_tokens) still counts. Without any fence,
// text that plainly is a Python kernel (a `def` using `nl.`) is taken from its first
// import/decorator/def line.
std::string extract_code_from_text(const std::string& text);

struct ArgumentsCode {
  std::string code;   // empty when error is set
  std::string error;  // one line, shown to the model as the tool result
};

// The "code" string of a tool call's arguments. Tolerates a fenced block inside the string.
ArgumentsCode extract_code_from_arguments(const std::string& arguments_json);

}  // namespace nki::agent
