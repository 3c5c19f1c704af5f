// libFuzzer: a lesson file is parsed whole or refused with std::runtime_error, nothing else.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "app/launch/lessons.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Outcome<Lesson> l = parse_lesson(std::string(reinterpret_cast<const char*>(data), size));
    if (!l.value && l.error.empty()) __builtin_trap();  // a failure says why
    return 0;
}
