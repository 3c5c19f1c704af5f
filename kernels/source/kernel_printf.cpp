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

}  // namespace

std::string format_printf(const char* format, va_list args, bool (*readable)(const void*)) {
    if (!format || !readable(format)) return "(not text)";
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
        std::string spec = "%";
        while (*p && std::strchr("-+ #0", *p)) spec += *p++;
        if (*p == '*') {
            spec += std::to_string(clamp_field(va_arg(args, int)));
            ++p;
        } else {
            int width = 0;
            while (std::isdigit(static_cast<unsigned char>(*p))) width = std::min(width * 10 + (*p++ - '0'), kMaxField);
            if (width > 0) spec += std::to_string(width);
        }
        if (*p == '.') {
            ++p;
            int precision = 0;
            if (*p == '*') {
                precision = clamp_field(va_arg(args, int));
                ++p;
            } else {
                while (std::isdigit(static_cast<unsigned char>(*p)))
                    precision = std::min(precision * 10 + (*p++ - '0'), kMaxField);
            }
            if (precision >= 0) spec += "." + std::to_string(precision);  // negative: as if none
        }
        std::string length;
        while (*p && std::strchr("hljztL", *p)) length += *p++;
        const char conversion = *p ? *p++ : '\0';
        const auto is = [&](const char* l) { return length == l; };
        switch (conversion) {
            case 'd':
            case 'i': {
                long long v = is("l") || is("z") || is("t") ? va_arg(args, long)
                              : is("ll") || is("j")         ? va_arg(args, long long)
                                                            : va_arg(args, int);
                if (is("hh")) v = static_cast<signed char>(v);
                if (is("h")) v = static_cast<short>(v);
                append(out, spec + "ll" + conversion, v);
                break;
            }
            case 'u':
            case 'o':
            case 'x':
            case 'X': {
                unsigned long long v = is("l") || is("z") || is("t") ? va_arg(args, unsigned long)
                                       : is("ll") || is("j")         ? va_arg(args, unsigned long long)
                                                                     : va_arg(args, unsigned int);
                if (is("hh")) v = static_cast<unsigned char>(v);
                if (is("h")) v = static_cast<unsigned short>(v);
                append(out, spec + "ll" + conversion, v);
                break;
            }
            case 'c':
                append(out, spec + 'c', va_arg(args, int));
                break;
            case 'f':
            case 'F':
            case 'e':
            case 'E':
            case 'g':
            case 'G':
            case 'a':
            case 'A':
                if (is("L"))
                    append(out, spec + 'L' + conversion, va_arg(args, long double));
                else
                    append(out, spec + conversion, va_arg(args, double));
                break;
            case 's': {
                const char* s = va_arg(args, const char*);
                append(out, spec + 's', !s ? "(null)" : readable(s) ? s : "(not text)");
                break;
            }
            case 'p':
                append(out, spec + 'p', va_arg(args, void*));
                break;
            case 'n':
                (void)va_arg(args, void*);  // what was printed so far is not written anywhere
                break;
            default:  // not a conversion: printed as written, and the arguments stop here
                out += start;
                return out;
        }
    }
    return out;
}

}  // namespace threadmap
