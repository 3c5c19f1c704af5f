// The pieces of a line of CUDA C++ that the Editor colours: keywords, CUDA's own words (the
// qualifiers, the built-in indices, __syncthreads and the atomics), numbers, strings and
// characters, comments and preprocessor lines. Plain text (names, operators) is not listed.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace threadmap {

enum class SyntaxKind { Keyword, Cuda, Number, String, Comment, Preprocessor };

struct SyntaxSpan {
    size_t begin = 0, end = 0;  // byte offsets into the line, end exclusive
    SyntaxKind kind = SyntaxKind::Keyword;
};

// `in_comment`: whether the line starts inside a /* comment; on return, whether the next does.
std::vector<SyntaxSpan> syntax_spans(std::string_view line, bool& in_comment);

}  // namespace threadmap
