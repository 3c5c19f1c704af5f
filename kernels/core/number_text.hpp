// A number as a message says it: printf's %g (2, 0.5, 1e-06), the one way time limits and
// report fields are written in text.
#pragma once

#include <cstdio>
#include <string>

namespace threadmap {

inline std::string number_text(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace threadmap
