// A number as the reports and panels print it: fixed decimals ("28.57").
#pragma once

#include <cstdio>
#include <string>

namespace threadmap {

inline std::string decimals(double value, int digits = 2) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

}  // namespace threadmap
