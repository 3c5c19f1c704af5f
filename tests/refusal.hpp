// Why an outcome failed, or "" when it did not: CHECK(refusal(parse(text)).find("why") != npos)
// says both that it failed and that its message names the problem.
#pragma once

#include <string>

#include "kernels/core/outcome.hpp"

template <class T>
std::string refusal(const threadmap::Outcome<T>& outcome) {
    return outcome.value ? "" : outcome.error;
}

inline std::string refusal(const threadmap::Outcome<void>& outcome) { return outcome.error; }
