// Runs a KernelSpec over a launch on the CPU, block by block, as CUDA's rules say it runs:
// each block has its own __shared__ arrays; a kernel with barriers runs its block's threads
// as fibers (Boost.Context), so that no thread passes __syncthreads() before every thread of
// its block has reached it; kernels without barriers run each thread to completion. Every
// access is recorded: per element of each global array, who wrote and read it and how often;
// and the findings a sanitizer would report (out of bounds, races, hazards, uninitialised
// shared reads, divergent barriers) — the emulator's model of CUDA's rules, not a GPU's.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/model/element_finding.hpp"
#include "kernels/model/element_record.hpp"
#include "kernels/model/kernel_spec.hpp"
#include "kernels/model/memory_view.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// The loads, stores and atomics a launch may make in the kernel model (ModelLaunch::max_accesses):
// 3·2^30, so that a 1024³ tiled matmul (2.4 billion) runs, and under 2^32 with room for what the
// workers make past it before they stop, so that no element's 32-bit count of stores can wrap.
inline constexpr uint64_t kMaxModelAccesses = uint64_t(3) << 30;
// A kernel's arrays, global and shared (a learner's kernel binds at most 32).
inline constexpr size_t kMaxModelArrays = 64;

struct ModelLaunch {
    const KernelSpec* spec = nullptr;
    Params params;
    LaunchConfig launch;
    // false: loads are not recorded (no read records, no read-write hazards, no uninitialised
    // reads) — what recording the reads costs, for model-bench.
    bool record_reads = true;
    // false: no per-element records, races, hazards or uninitialised reads (out-of-bounds
    // accesses and divergent barriers are still found) — what the memory view alone needs.
    bool record_elements = true;
    // With record_elements: the arrays (bit a: array a) whose per-element records are kept; the
    // others' ArrayResult::records stay empty, and their findings, found bits and counts of
    // threads touching them are the same. 0, what `check` and the findings of map's JSON need:
    // 20 bytes per element instead of 48 (32 and 60 with barriers). The window and `map` keep
    // the mapped array's only: an array without records takes the inlined path where the
    // kernel allows (a kernel without barriers: the body's own code), with records the out-of-line one.
    uint64_t keep_records = kAllArrays;
    static constexpr uint64_t kAllArrays = ~uint64_t(0);
    // true: group the loads and stores into warp requests (memory_view.hpp) in `memory`.
    bool record_requests = false;
    // With record_requests: an array whose requests of `keep_op` are kept whole (the warp
    // inspector; a __shared__ array's in `shared_block`); SIZE_MAX: none.
    size_t keep_requests = SIZE_MAX;
    AccessOp keep_op = AccessOp::Store;
    // With record_requests: the one array whose per-element costs (MemoryView::costs) are kept,
    // as the window's map colours only the mapped array's; SIZE_MAX: every array's.
    size_t cost_array = SIZE_MAX;
    // With record_requests: the one array whose accesses are grouped into requests, the others'
    // left out (the window's map colours one array by them; the Memory tab's table lists every
    // array's, `threadmap memory` too); SIZE_MAX: every array's. Its requests are the same either way.
    size_t requests_array = SIZE_MAX;
    // With record_requests: the element size global arrays' sectors are counted for, when not
    // their own (0) — the built-in kernels' values are 4 bytes, but the timing model's float64
    // programs move 8.
    uint32_t global_element_bytes = 0;
    // The model stops (within 65,536 accesses, mid-block if need be: one thread's loop can be
    // billions long) once the launch has made this many loads, stores and atomics over all its
    // workers, and run_model says so: at about 10 ns each, kMaxModelAccesses is some 30 s of one
    // core's time. A cancel stops it the same way.
    uint64_t max_accesses = kMaxModelAccesses;
    // The block (linear index, x fastest) whose __shared__ arrays are recorded and kept in the
    // result like a global array's (with record_elements), and whose shared requests' costs per
    // element are kept (with record_requests); UINT64_MAX: none.
    uint64_t shared_block = UINT64_MAX;
    // With record_elements: record only the accesses a block makes between its phase-th and
    // (phase+1)-th barrier (phase 0: before the first); kAllPhases: all. Findings are unchanged.
    uint32_t phase = kAllPhases;
    static constexpr uint32_t kAllPhases = UINT32_MAX;
    // Keeps a learner's kernel (its spec and compiled code: kernels/source) alive; else empty.
    std::shared_ptr<const void> keep;
    // With record_elements: an element whose touching threads are listed (ModelResult::watched),
    // as the window's inspector lists them for the pinned cell; of a __shared__ array, in
    // shared_block's copy; with a phase, that phase's accesses. SIZE_MAX: none.
    size_t watch_array = SIZE_MAX;
    uint64_t watch_element = 0;
    // With record_elements: an array the kernel takes as an input (ArrayRole::Input: a const
    // pointer) keeps no ordering state, as no finding can come of reads alone, and its reads cost
    // a count and a record. true: it keeps one like any array — run_model runs a launch again so
    // where the kernel writes such an array after all (a learner's const_cast).
    bool inputs_tracked = false;
    // Threads the blocks are spread over, at most (0: one per core). Only launches whose
    // result cannot depend on it are spread (see run_model_here); the rest run on one.
    unsigned workers = 0;
};

// Out-of-bounds accesses just past an array's end, where the map draws them: per index
// size + k, the smallest id that wrote (or read) it there and how many accesses did. An atomic
// counts as a write and a read.
struct PastRecord {
    uint32_t first_writer = ElementRecord::kNone;
    uint32_t writes = 0;
    uint32_t first_reader = ElementRecord::kNone;
    uint32_t reads = 0;
    bool operator==(const PastRecord&) const = default;
};

// How far past its end an array's out-of-bounds accesses are kept (PastRecord): three times
// as many elements as it has (the seed's unguarded matmul writes 1.6 times C's size past it),
// at least 4,096 and at most 2^22 (64 MiB of records, made only as far as they are touched).
// Those farther or before the start are counted (ArrayResult::past_elsewhere), as findings, not drawn.
inline uint64_t past_window(uint64_t size) { return std::clamp<uint64_t>(3 * size, 4096, uint64_t(1) << 22); }

struct ArrayResult {
    // Global arrays; __shared__ ones only for ModelLaunch::shared_block (its copy, as that
    // block left it), else empty.
    std::vector<uint64_t> shape;
    std::vector<uint32_t> bits;          // the values after the launch
    std::vector<ElementRecord> records;  // per element (empty without record_elements)
    std::vector<uint8_t> found;          // per element: ElementFinding bits (empty without record_elements)
    // With record_elements: the threads that wrote (stored or made an atomic on) it, and that
    // read (loaded or made an atomic on) it; of the recorded accesses, so for a __shared__ array
    // the threads of shared_block, and with a phase only that phase's.
    uint64_t threads_writing = 0, threads_reading = 0;
    // With record_elements, the recorded out-of-bounds accesses: those within past_window() of
    // the end ([k] is index size + k, up to the last one accessed), and how many lay elsewhere.
    std::vector<PastRecord> past;
    uint64_t past_elsewhere = 0;
};

enum class FindingKind { OutOfBounds, WriteWriteRace, ReadWriteHazard, UninitializedRead, DivergentBarrier };
inline constexpr size_t kFindingKinds = 5;
const char* finding_kind_name(FindingKind kind);   // "out_of_bounds", … (the JSON names)
const char* finding_kind_title(FindingKind kind);  // "Out of bounds", … (what a learner reads)

struct FindingThread {
    Dim3 block, thread;
};

struct Finding {
    FindingKind kind = FindingKind::OutOfBounds;
    std::vector<FindingThread> threads;
    std::string array;            // empty for a divergent barrier
    std::vector<uint64_t> index;  // in the array's shape (a shared array: its per-block shape)
    int line = 0;                 // of the CUDA source
    std::string message;          // one sentence for a learner
};
// A shuffle that took a value from a lane taking no part: an uninitialised read of no array.
inline bool is_undefined_shuffle(const Finding& f) {
    return f.kind == FindingKind::UninitializedRead && f.array.empty() && !f.threads.empty();
}

// What a learner's kernel printed with printf (kernels/source), in the order the model ran its
// threads: the whole text of the first `kept_calls` calls, up to kMaxBytes.
struct KernelPrint {
    static constexpr size_t kMaxBytes = size_t(1) << 16;
    std::string text;
    uint64_t calls = 0;       // printf calls made
    uint64_t kept_calls = 0;  // of them, those whose text is kept (less: the rest did not fit)
};

// Where a launch ended at a divergent barrier or warp call: each thread of that block as the
// model found it then, for the map (the finding names two of them).
enum class BarrierSide : uint8_t {
    NotInvolved,  // another warp than a diverged warp call's
    Waiting,      // at the barrier (or warp call) the finding's line names
    Elsewhere,    // at another barrier or warp call (or, for a warp call, a lane its mask names that is not there)
    Exited,       // returned without reaching it
};
struct DivergedBlock {
    uint64_t block = 0;              // linear (x fastest)
    int line = 0;                    // of the barrier or warp call the Waiting threads wait at
    std::vector<BarrierSide> sides;  // per thread of the block, in linear order
};

// The threads that touched ModelLaunch::watch_element, in the order the model ran them: the
// first kListed, what each did there and at which line first; and how many in all.
struct ElementToucher {
    static constexpr uint8_t kRead = 1, kWrite = 2, kAtomic = 4;  // `ops` bits (an atomic: all three)
    uint32_t thread = 0;                                          // global linear id
    int read_line = 0, write_line = 0;                            // the first load's and store's (or atomic's)
    uint8_t ops = 0;
};
struct WatchedElement {
    static constexpr size_t kListed = 32;
    std::vector<ElementToucher> listed;
    uint64_t threads = 0;   // distinct threads that touched it
    uint64_t accesses = 0;  // their loads, stores and atomics there
};

struct ModelResult {
    std::vector<ArrayResult> arrays;  // indexed like spec->arrays
    // Each kind is reported once per element (per block for shared memory); the list keeps the
    // first kMaxListedFindings, `counts` counts them all.
    std::vector<Finding> findings;
    std::array<uint64_t, kFindingKinds> counts{};
    static constexpr size_t kMaxListedFindings = 1000;
    bool ended_early = false;               // a divergent barrier ended the launch
    std::optional<DivergedBlock> diverged;  // where, when it did
    // The threads (global linear ids, in the order the model ran them) that took an undefined
    // value through a shuffle from a lane that took no part; the finding names the first lane of
    // each such call, the map marks every one. At most kMaxUndefinedShuffles are kept.
    std::vector<uint32_t> undefined_shuffles;
    static constexpr size_t kMaxUndefinedShuffles = size_t(1) << 20;
    uint32_t phases = 1;    // barriers the longest-running block passed, plus one
    uint64_t accesses = 0;  // loads + stores + atomics, out-of-bounds ones included
    // The ranges of blocks that ran on threads of their own and were joined (1: the blocks ran
    // one after another; see run_model_here).
    uint32_t block_ranges = 1;
    std::optional<MemoryView> memory;       // when record_requests
    std::optional<WatchedElement> watched;  // when the launch watches an element
    KernelPrint printed;                    // a learner's kernel; the built-in ones print nothing
};

// Why the launch cannot run (run_model's checks before it runs), or nothing.
Outcome<void> check_model_launch(const ModelLaunch& launch);
// The part of those checks that does not depend on the grid: the parameters and the arrays'
// size (check them before a grid derived from the arrays).
Outcome<void> check_model_arrays(const ModelLaunch& launch);

// A failure: why the launch cannot run (an invalid launch in CUDA's words, too much shared
// memory, parameters out of range), a cancellation, Failure::Unsupported when its arrays and
// records do not fit in memory, or Failure::Internal when the run threw (no exception leaves).
// A spec with run_apart runs there (a learner's kernel: in a child process).
Outcome<ModelResult> run_model(const ModelLaunch& launch, const std::atomic<bool>* cancel = nullptr);
// In this process, whatever the spec says. Blocks are spread over several threads when the
// launch records every access (every phase's or one phase's; no requests, no watched element), its body may run on
// several threads at once, and its first blocks make at least one access per global element (many, when it keeps
// records: filling and joining an element's record costs what a few dozen accesses do): each thread runs a contiguous
// range of blocks from the same inputs, and the ranges are joined in block order. A range that wrote an element an
// earlier range touched, or touched one an earlier range wrote, could have seen another value or another order: from
// there the blocks run again on one thread after the joined ranges, so the result is always the one-thread run's,
// findings and their order included.
Outcome<ModelResult> run_model_here(const ModelLaunch& launch, const std::atomic<bool>* cancel = nullptr);
// The first block of each of the `ranges` contiguous ranges a spread launch is cut into, and the
// launch's count of blocks after the last: equal shares of the blocks' weight, a block within
// the kernel's covering grid weighing `covered_weight` blocks outside it (1: equal counts, as
// where the launch says how many workers; left to choose, run_model weighs a covered block by
// the accesses its first blocks made). Which thread runs which block depends on it, never the result.
std::vector<uint64_t> model_range_starts(const ModelLaunch& launch, unsigned ranges, uint64_t covered_weight);

// The elements of a launch's global arrays, in all (of those whose bit is set in `arrays`).
uint64_t global_elements(const KernelSpec& spec, const Params& params, const LaunchConfig& launch,
                         uint64_t arrays = ~uint64_t(0));

// The __shared__ memory (static and dynamic; dynamic_only: the extern arrays sized at
// launch) one block of a launch of `spec` uses, in bytes.
uint64_t shared_bytes_per_block(const KernelSpec& spec, const Params& params, const Dim3& block,
                                bool dynamic_only = false);
// Global elements a launch may have in all: each carries its value, its record (20 bytes) and
// its ordering state for races and hazards (16, and 12 with barriers) and who was counted last (8).
inline constexpr uint64_t kMaxModelElements = uint64_t(1) << 24;

// CUDA's default per-block limit without opting in (cudaFuncAttributeMaxDynamicSharedMemorySize).
inline constexpr uint64_t kSharedBytesPerBlock = 48 * 1024;

}  // namespace threadmap
