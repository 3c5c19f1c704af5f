// Outcome<T>: a value, or why there is none — the kind of failure and a one-line reason (for
// stderr or the UI). Every step from command-line options to a run answers this way; a
// failure passes up unchanged (`return failure_of(other);`), so a cancelled run is known as
// cancelled by its kind wherever it ends, never by comparing its text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace threadmap {

enum class Failure : uint8_t {
    BadInput,     // the learner's or the script's input: a flag, a number, a file, a kernel's text
    Unsupported,  // valid, but not something this build or this path does (no GPU, no JIT, …)
    Cancelled,    // stopped on request (a newer launch, the Cancel button, the window closing)
    Device,       // the GPU or its driver refused or failed
    Internal,     // a broken invariant of threadmap's own
};

template <class T>
struct Outcome {
    std::optional<T> value;
    std::string error;  // set when value is empty
    Failure kind = Failure::BadInput;
    bool cancelled() const { return !value && kind == Failure::Cancelled; }
};

// Done, or the reason it was not (a file that could not be written).
template <>
struct Outcome<void> {
    std::string error;  // empty: done
    Failure kind = Failure::BadInput;
    bool done() const { return error.empty(); }
    bool cancelled() const { return !done() && kind == Failure::Cancelled; }
};

// A failure for an Outcome of any type: `return failed(why, Failure::Device);`.
struct Fail {
    Failure kind;
    std::string error;
    template <class T>
    operator Outcome<T>() const {
        return {std::nullopt, error, kind};
    }
    operator Outcome<void>() const { return {error, kind}; }
};

inline Outcome<void> done() { return {}; }
inline Fail failed(std::string why, Failure kind = Failure::BadInput) { return {kind, std::move(why)}; }
// A run stopped by its cancel flag.
inline Fail cancellation() { return {Failure::Cancelled, "cancelled"}; }

// Another outcome's failure, passed up with its kind.
template <class U>
Fail failure_of(const Outcome<U>& other) {
    return {other.kind, other.error};
}

}  // namespace threadmap
