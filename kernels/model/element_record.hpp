// Who touched one element of a global array (20 bytes): the kernel model keeps one per element
// when a launch records them (ModelLaunch::keep_records), in its emulator's access path and in
// the path a body's accesses take inline (shadow_state.hpp).
#pragma once

#include <cstdint>

namespace threadmap {

// Thread ids are global linear ids: blockIdx (x fastest) · threads per block + threadIdx (x
// fastest). Atomics count as a read and a write. writers/readers count the distinct threads
// that wrote/read it.
struct ElementRecord {
    static constexpr uint32_t kNone = ~uint32_t(0);
    uint32_t first_writer = kNone;  // the smallest id that wrote it
    uint32_t writers = 0;
    uint32_t stores = 0;  // every store: a thread that stores twice counts twice
    uint32_t first_reader = kNone;
    uint32_t readers = 0;
};

}  // namespace threadmap
