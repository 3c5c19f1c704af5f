// libFuzzer: a replay script is accepted whole or refused as FILE:LINE: what was expected.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/window/replay.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto r = Replay::parse(std::string(reinterpret_cast<const char*>(data), size), "fuzz.replay");
    if (!r.value && r.error.rfind("fuzz.replay:", 0) != 0) __builtin_trap();
    return 0;
}
