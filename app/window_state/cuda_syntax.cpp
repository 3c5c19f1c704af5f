// CUDA C++ syntax spans; see cuda_syntax.hpp.
#include "app/window_state/cuda_syntax.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace threadmap {

namespace {

constexpr std::array<std::string_view, 48> kKeywords = {
    "auto",    "bool",     "break",    "case",    "char",     "const",     "constexpr", "continue",
    "default", "do",       "double",   "else",    "enum",     "extern",    "false",     "float",
    "for",     "if",       "inline",   "int",     "long",     "namespace", "nullptr",   "return",
    "short",   "signed",   "sizeof",   "static",  "struct",   "switch",    "template",  "true",
    "typedef", "typename", "unsigned", "using",   "void",     "volatile",  "while",     "size_t",
    "uint8_t", "int8_t",   "uint16_t", "int16_t", "uint32_t", "int32_t",   "uint64_t",  "int64_t"};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// CUDA's own words: its qualifiers and built-in variables, and every __name and atomicName.
bool cuda_word(std::string_view w) {
    static constexpr std::array<std::string_view, 7> kBuiltins = {
        "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "cooperative_groups"};
    return w.substr(0, 2) == "__" || w.substr(0, 6) == "atomic" ||
           std::find(kBuiltins.begin(), kBuiltins.end(), w) != kBuiltins.end();
}

// The end of a quoted string or character starting at `from` (its quote), escapes skipped.
size_t quoted_end(std::string_view line, size_t from) {
    const char quote = line[from];
    size_t i = from + 1;
    while (i < line.size() && line[i] != quote) i += line[i] == '\\' ? 2 : 1;
    return std::min(i + 1, line.size());
}

}  // namespace

std::vector<SyntaxSpan> syntax_spans(std::string_view line, bool& in_comment) {
    std::vector<SyntaxSpan> out;
    size_t i = 0;
    if (in_comment) {
        const size_t close = line.find("*/");
        in_comment = close == std::string_view::npos;
        i = in_comment ? line.size() : close + 2;
        out.push_back({0, i, SyntaxKind::Comment});
    }
    const size_t first = line.find_first_not_of(" \t");
    if (!in_comment && i == 0 && first != std::string_view::npos && line[first] == '#')
        return {{first, line.size(), SyntaxKind::Preprocessor}};
    while (i < line.size()) {
        const char c = line[i];
        if (line.substr(i, 2) == "//") {
            out.push_back({i, line.size(), SyntaxKind::Comment});
            break;
        }
        if (line.substr(i, 2) == "/*") {
            const size_t close = line.find("*/", i + 2);
            in_comment = close == std::string_view::npos;
            const size_t end = in_comment ? line.size() : close + 2;
            out.push_back({i, end, SyntaxKind::Comment});
            i = end;
        } else if (c == '"' || c == '\'') {
            const size_t end = quoted_end(line, i);
            out.push_back({i, end, SyntaxKind::String});
            i = end;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
            size_t end = i + 1;  // digits, a point, an exponent's sign, suffixes (1.5e-3f, 0x1Fu)
            while (end < line.size() &&
                   (ident_char(line[end]) || line[end] == '.' ||
                    ((line[end] == '-' || line[end] == '+') && (line[end - 1] == 'e' || line[end - 1] == 'E'))))
                ++end;
            out.push_back({i, end, SyntaxKind::Number});
            i = end;
        } else if (ident_char(c)) {
            size_t end = i;
            while (end < line.size() && ident_char(line[end])) ++end;
            const std::string_view word = line.substr(i, end - i);
            if (cuda_word(word))
                out.push_back({i, end, SyntaxKind::Cuda});
            else if (std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end())
                out.push_back({i, end, SyntaxKind::Keyword});
            i = end;
        } else {
            ++i;
        }
    }
    return out;
}

}  // namespace threadmap
