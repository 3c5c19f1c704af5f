// libFuzzer: a lesson file is parsed whole or refused with std::runtime_error, nothing else.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "app/launch/lessons.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const Lesson l = parse_lesson(std::string(reinterpret_cast<const char*>(data), size));
        if (l.name.empty() && l.title.empty() && l.explanation.empty()) return 0;
    } catch (const std::runtime_error&) {
    }
    return 0;
}
