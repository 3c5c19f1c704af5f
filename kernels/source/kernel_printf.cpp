#include "kernels/source/kernel_printf.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace threadmap {
namespace {

// A field wider than any output threadmap keeps is cut to it (the text is capped anyway).
constexpr int kMaxField = 1 << 16;

template <typename T>
void append(std::string& out, const std::string& spec, T value) {
    const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
    if (n <= 0) return;
    const size_t at = out.size();
    out.resize(at + size_t(n) + 1);
    std::snprintf(out.data() + at, size_t(n) + 1, spec.c_str(), value);
    out.resize(at + size_t(n));
}

int clamp_field(int v) { return v < -kMaxField ? -kMaxField : v > kMaxField ? kMaxField : v; }

// A conversion's flags, width and precision ("%-8.3"), a `*` taking its value from `next`.
template <class Next>
std::string conversion_spec(const char*& p, Next next) {
    std::string spec = "%";
    while (*p && std::strchr("-+ #0", *p)) spec += *p++;
    if (*p == '*') {
        spec += std::to_string(clamp_field(next(int{})));
        ++p;
    } else {
        int width = 0;
        while (std::isdigit(static_cast<unsigned char>(*p))) width = std::min(width * 10 + (*p++ - '0'), kMaxField);
        if (width > 0) spec += std::to_string(width);
    }
    if (*p != '.') return spec;
    ++p;
    int precision = 0;
    if (*p == '*') {
        precision = clamp_field(next(int{}));
        ++p;
    } else {
        while (std::isdigit(static_cast<unsigned char>(*p)))
            precision = std::min(precision * 10 + (*p++ - '0'), kMaxField);
    }
    if (precision >= 0) spec += "." + std::to_string(precision);  // negative: as if none
    return spec;
}

// One conversion's argument, taken from `next` at its C type, appended; false when
// `conversion` is none of printf's.
template <class Next>
bool append_conversion(std::string& out, const std::string& spec, const std::string& length, char conversion, Next next,
                       bool (*readable)(const void*)) {
    const auto is = [&](const char* l) { return length == l; };
    switch (conversion) {
        case 'd':
        case 'i': {
            long long v = is("l") || is("z") || is("t") ? next(long{}) : is("ll") || is("j") ? next(0LL) : next(int{});
            if (is("hh")) v = static_cast<signed char>(v);
            if (is("h")) v = static_cast<short>(v);
            append(out, spec + "ll" + conversion, v);
            return true;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            unsigned long long v = is("l") || is("z") || is("t") ? next(0UL)
                                   : is("ll") || is("j")         ? next(0ULL)
                                                                 : next(0U);
            if (is("hh")) v = static_cast<unsigned char>(v);
            if (is("h")) v = static_cast<unsigned short>(v);
            append(out, spec + "ll" + conversion, v);
            return true;
        }
        case 'c':
            append(out, spec + 'c', next(int{}));
            return true;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A':
            if (is("L"))
                append(out, spec + 'L' + conversion, next(0.0L));
            else
                append(out, spec + conversion, next(double{}));
            return true;
        case 's': {
            const char* s = next(static_cast<const char*>(nullptr));
            append(out, spec + 's', !s ? "(null)" : readable(s) ? s : "(not text)");
            return true;
        }
        case 'p':
            append(out, spec + 'p', next(static_cast<void*>(nullptr)));
            return true;
        case 'n':
            (void)next(static_cast<void*>(nullptr));  // what was printed so far is not written anywhere
            return true;
        default:
            return false;
    }
}

}  // namespace

std::string format_printf(const char* format, va_list args, bool (*readable)(const void*)) {
    if (!format || !readable(format)) return "(not text)";
    // The next argument at the C type of `tag`: every va_arg of this format stays here.
    const auto next = [&](auto tag) { return va_arg(args, decltype(tag)); };
    std::string out;
    for (const char* p = format; *p;) {
        if (*p != '%') {
            out += *p++;
            continue;
        }
        const char* start = p++;
        if (*p == '%') {
            out += '%';
            ++p;
            continue;
        }
        const std::string spec = conversion_spec(p, next);
        std::string length;
        while (*p && std::strchr("hljztL", *p)) length += *p++;
        const char conversion = *p ? *p++ : '\0';
        if (!append_conversion(out, spec, length, conversion, next, readable)) {
            out += start;  // not a conversion: printed as written, and the arguments stop here
            return out;
        }
    }
    return out;
}

}  // namespace threadmap
