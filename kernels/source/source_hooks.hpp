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

#include "kernels/model/model_emulator.hpp"
#include "kernels/source/source_kernel.hpp"

namespace threadmap {

class ModelThread;

namespace source_hooks {

// Address slots: one per pointer parameter, then one per __shared__ array and one per
// __constant__ or __device__ variable of the compiled code (the compiler puts each at its slot's address, so that an
// index past its end stays its own and is reported, rather than landing in the next array).
inline constexpr size_t kMaxBoundArrays = 16;
inline constexpr size_t kMaxSharedArrays = 16;
inline constexpr size_t kMaxVariables = 16;
inline constexpr size_t kSlots = kMaxBoundArrays + kMaxSharedArrays + kMaxVariables;
inline constexpr size_t shared_slot(size_t shared_index) { return kMaxBoundArrays + shared_index; }
inline constexpr size_t variable_slot(size_t variable_index) {
    return kMaxBoundArrays + kMaxSharedArrays + variable_index;
}

// The address of a slot's element 0 (a slot's range is 16 GiB either side of it).
uintptr_t slot_address(size_t slot);

// Which array of the spec each slot is, for one bound kernel, and its elements' size.
struct AddressMap {
    static constexpr size_t kNone = SIZE_MAX;
    size_t array[kSlots];
    uint32_t element_bytes[kSlots];
    AddressMap() {
        for (size_t& a : array) a = kNone;
        for (uint32_t& b : element_bytes) b = 4;
    }
};

// Runs one thread of the kernel: `t` is the model's thread, `args` the kernel's arguments.
void run_thread(ModelThread& t, const AddressMap& map, SourceEntry entry, void* const* args);

// The first access of the last run the model could not take (a 2-byte store into a float
// array, say), or empty; cleared by reading.
std::string take_access_error();

// What a run leaves where its parent can read it, however it ends (the child process's
// memory shared with threadmap): the last source line reached, for a crash report, and what
// the kernel printed.
struct RunReport {
    int line = 0;
    uint64_t calls = 0;       // printf calls
    uint64_t kept_calls = 0;  // whole calls whose text is in `text`, in order
    uint64_t bytes = 0;       // of `text`
    char text[KernelPrint::kMaxBytes];
};
// From now on, runs report there (before: to a report of this process no one reads).
void report_to(RunReport* report);
// Adds a call's text to the run's report (printf's, a failed assert's), whole while it fits.
void print(int line, const std::string& text);
KernelPrint printed_of(const RunReport& report);

struct Symbol {
    const char* name;
    void* address;
};
// The host functions and data compiled kernels may link against.
std::vector<Symbol> symbols();

}  // namespace source_hooks
}  // namespace threadmap
