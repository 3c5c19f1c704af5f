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

// Done, or the reason it was not (a file that could not be written).
template <>
struct Outcome<void> {
    std::string error;  // empty: done
    bool done() const { return error.empty(); }
};
inline Outcome<void> done() { return {}; }
inline Outcome<void> failed(std::string why) { return {std::move(why)}; }

}  // namespace threadmap
