// What a compiled kernel calls (the prelude's __syncthreads() and atomics, and the loads and
// stores the compiler rewrote), and where those calls go: the running ModelThread. A pointer
// parameter is passed as an address in a reserved, inaccessible range, one slot per bound
// array, so that an access through it (or past its end, or before its start) names the array
// and the element; a __shared__ array's address names one of the kernel's shared arrays.
// Addresses of neither kind (a local array, a __device__ variable) are plain memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "source_kernel.hpp"

namespace threadmap {

class ModelThread;

namespace source_hooks {

// Address slots: one per pointer parameter, then one per __shared__ array of the compiled
// code (the compiler puts each shared array at its slot's address, so that an index past its
// end stays its own and is reported, rather than landing in the next array).
inline constexpr size_t kMaxBoundArrays = 16;
inline constexpr size_t kMaxSharedArrays = 16;
inline constexpr size_t kSlots = kMaxBoundArrays + kMaxSharedArrays;
inline constexpr size_t shared_slot(size_t shared_index) { return kMaxBoundArrays + shared_index; }

// The address of a slot's element 0 (a slot's range is 16 GiB either side of it).
uintptr_t slot_address(size_t slot);

// Which array of the spec each slot is, for one bound kernel.
struct AddressMap {
    static constexpr size_t kNone = SIZE_MAX;
    size_t array[kSlots];
    AddressMap() {
        for (size_t& a : array) a = kNone;
    }
};

// Runs one thread of the kernel: `t` is the model's thread, `args` the kernel's arguments.
void run_thread(ModelThread& t, const AddressMap& map, SourceEntry entry, void* const* args);

// The first access of the last run the model could not take (a 2-byte store into a float
// array, say), or empty; cleared by reading.
std::string take_access_error();

// From now on, every access writes its source line here (the child process's last line, for
// a crash report).
void report_lines_to(int* line);

struct Symbol {
    const char* name;
    void* address;
};
// The host functions and data compiled kernels may link against.
std::vector<Symbol> symbols();

}  // namespace source_hooks
}  // namespace threadmap
