// Numbers as messages, reports and panels write them: printf's %g for a limit or a field
// (2, 0.5, 1e-06), fixed decimals for a figure ("28.57").
#pragma once

#include <cstdio>
#include <string>

namespace threadmap {

inline std::string number_text(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

inline std::string decimals(double value, int digits = 2) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

}  // namespace threadmap
