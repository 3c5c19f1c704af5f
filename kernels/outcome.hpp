// Outcome<T>: a value, or the one-line reason there is none (for stderr or the UI). The
// steps from command-line options to a run all answer this way.
#pragma once

#include <optional>
#include <string>

namespace threadmap {

template <class T>
struct Outcome {
    std::optional<T> value;
    std::string error;  // set when value is empty
};

}  // namespace threadmap
