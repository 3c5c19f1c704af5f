// The open kernel model's emulator; see model_emulator.hpp.
// Index of this file (search for "[SECTION]"):
//  - Names of findings, spec lookups, sizes
//  - Per-element state: ThreadSlot, Hazard, Phases, Storage
//  - Text helpers
//  - The ModelEmulator class
//  - Findings: report, read and write checks, out of bounds
//  - The access path
//  - Barriers and warp calls
//  - What findings say
//  - Warp collectives and deadlocks
//  - The watched element
//  - Running blocks: shared memory, threads, fibers
//  - Setup
//  - Joining ranges run apart (absorb) and the result (finish)
//  - ModelThread: what a body calls
//  - Launch checks
//  - Spreading blocks over threads, run_model

#include "kernels/model/model_emulator.hpp"

#include <algorithm>
#include <boost/context/detail/fcontext.hpp>
#include <cmath>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <new>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <unordered_set>

#include "kernels/core/executor.hpp"
#include "kernels/core/device_limits.hpp"
#include "kernels/core/emulator_caps.hpp"
#include "kernels/model/fiber_stacks.hpp"
#include "kernels/model/model_thread.hpp"
#include "kernels/core/saturating.hpp"
#include "kernels/core/validation.hpp"
#include "kernels/model/warp_requests.hpp"
#include "kernels/core/zeroed_buffer.hpp"

namespace threadmap {

// Boost.Context's own context switch, under its fiber class: a thread's context is a pointer,
// dropped when the thread is abandoned (never unwound), and a switch is one call. Through the
// fiber class each switch also moved and tested the fiber objects on both sides: reduce-sequential,
// a barrier for every two accesses, took 307.4 instructions per access against 301.7.
namespace fctx = boost::context::detail;
using namespace shadow;

// [SECTION] Names of findings, spec lookups, sizes
const char* finding_kind_name(FindingKind kind) {
    switch (kind) {
        case FindingKind::OutOfBounds:
            return "out_of_bounds";
        case FindingKind::WriteWriteRace:
            return "write_write_race";
        case FindingKind::ReadWriteHazard:
            return "read_write_hazard";
        case FindingKind::UninitializedRead:
            return "uninitialized_read";
        case FindingKind::DivergentBarrier:
            return "divergent_barrier";
    }
    return "?";
}

const char* finding_kind_title(FindingKind kind) {
    switch (kind) {
        case FindingKind::OutOfBounds:
            return "Out of bounds";
        case FindingKind::WriteWriteRace:
            return "Race";
        case FindingKind::ReadWriteHazard:
            return "Read-write hazard";
        case FindingKind::UninitializedRead:
            return "Uninitialised read";
        case FindingKind::DivergentBarrier:
            return "Divergent barrier";
    }
    return "?";
}

Params KernelSpec::default_params() const {
    Params values;
    for (const ParamSpec& p : params)
        values.push_back(p.default_from < values.size() ? values[p.default_from] : p.default_value);
    return values;
}

size_t KernelSpec::param_index(const std::string& param) const {
    for (size_t i = 0; i < params.size(); ++i)
        if (params[i].name == param) return i;
    return params.size();
}

std::vector<std::string> KernelSpec::param_names() const {
    std::vector<std::string> names;
    for (const ParamSpec& p : params) names.push_back(p.name);
    return names;
}

size_t KernelSpec::array_index(const std::string& array) const {
    for (size_t i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == array) return i;
    return arrays.size();
}

size_t KernelSpec::mapped_array() const {
    for (size_t a = 0; a < arrays.size(); ++a)
        if (arrays[a].space == MemorySpace::Global &&
            (arrays[a].role == ArrayRole::Output || arrays[a].role == ArrayRole::InOut))
            return a;
    return 0;
}

uint64_t global_elements(const KernelSpec& spec, const Params& params, const LaunchConfig& launch, uint64_t arrays) {
    uint64_t elements = 0;
    for (size_t k = 0; k < spec.arrays.size(); ++k)
        if (const ArraySpec& a = spec.arrays[k]; a.space != MemorySpace::Shared && k < 64 && (arrays >> k & 1)) {
            uint64_t n = 1;
            for (uint64_t side : a.shape(params, launch)) n = saturating_mul(n, side);
            elements = saturating_add(elements, n);
        }
    return elements;
}

uint64_t shared_bytes_per_block(const KernelSpec& spec, const Params& params, const Dim3& block, bool dynamic_only) {
    // Every extern __shared__ array starts at the one block of dynamic memory the launch gives.
    uint64_t fixed = 0, dynamic = spec.launch_dynamic_shared_bytes;
    for (const auto& a : spec.arrays) {
        if (a.space != MemorySpace::Shared) continue;
        uint64_t n = 1;
        for (uint64_t side : a.shape(params, {Dim3{}, block})) n = saturating_mul(n, side);
        const uint64_t element = value_bytes(a.type), bytes = saturating_mul(n, element);
        if (a.dynamic)
            dynamic = std::max(dynamic, a.dynamic_bytes ? a.dynamic_bytes : bytes);
        else  // each at a multiple of its size
            fixed = saturating_add(saturating_add(fixed, element - 1) / element * element, bytes);
    }
    return dynamic_only ? dynamic : saturating_add(fixed, dynamic);
}

namespace {

// [SECTION] Per-element state: the shadow state (shadow_state.hpp), Counted, Storage
constexpr uint32_t kNone = ElementRecord::kNone;
static_assert(kNoThread == kNone);

// What the ranges joined into a run did to an element (Storage::joined): their HazardFlags,
// OR-ed, and these two.
enum JoinedFlag : uint8_t {
    kJoinedTouched = 64,
    kJoinedWritten = 128,
};
static_assert(int(kHazardFlags) < int(kJoinedTouched));

// What was reported on an element (its Hazard's flags, or Storage::joined), as the map's ElementFinding bits.
uint8_t found_bits(uint8_t flags) {
    return uint8_t((flags & kReportedRace ? kFoundRace : 0) | (flags & kReportedHazard ? kFoundHazard : 0) |
                   (flags & kReportedUninit ? kFoundUninit : 0));
}

// Per element: its value (4 or 8 bytes), its ordering state (16, and 12 with barriers) and,
// when the launch keeps records, its record (20, the result's: moved there whole) and who was
// counted last (8).
static_assert(sizeof(Hazard) + sizeof(Phases) + sizeof(ElementRecord) + sizeof(Counted) + 8 == 64,
              "check_model_arrays says up to 64 bytes per element");

struct Storage {
    std::vector<uint64_t> shape;
    uint64_t size = 0;
    uint32_t words = 1;          // per element: 2 for 8-byte elements (value_type.hpp)
    uint32_t bytes = 4;          // per element (value_bytes)
    std::vector<uint32_t> bits;  // size × words
    // A worker's values as it started (only for a spec with atomic_results_unused): the sums
    // absorb adds are its values less these.
    std::vector<uint32_t> start;
    std::vector<ElementRecord> records;  // per element, where kept (ModelLaunch::keep_records)
    ZeroedBuffer<Counted> counted;       // likewise
    ZeroedBuffer<Hazard> hazards;        // per element (with record_elements)
    ZeroedBuffer<Phases> phases;         // likewise, for kernels that run as fibers, and __shared__ arrays
    std::vector<uint32_t> settled;       // a __shared__ array's, with hazards (InlineArray::settled)
    // Per element, once later ranges were joined to this run (absorb): what they did to it
    // (JoinedFlag). Their ordering states stay theirs: only the blocks that run on after a range
    // that does not join need them here (take_state).
    ZeroedBuffer<uint8_t> joined;
    // Per chunk of elements (kTouchedChunkShift), whether this run's accesses touched the
    // ordering state there, and whether the ranges joined to it did (where `joined` says what).
    std::vector<uint8_t> touched, joined_touched;
    std::vector<PastRecord> past;  // out-of-bounds accesses just past the end (ArrayResult::past)
    uint64_t past_elsewhere = 0;
    bool shared = false;
    // An input with no ordering state (ModelLaunch::inputs_tracked): no hazards, phases or
    // joined; a write to it ends the run (InputWritten).
    bool untracked = false;
    bool keeps_records = false;  // records and counted are kept
    // A race, hazard or uninitialised read was reported on an element (its Hazard flags say
    // which): without, every found bit is 0 and finish need not read the ordering state.
    bool flagged = false;
    uint64_t get(uint64_t i) const { return element_bits(bits, words, i); }
    void put(uint64_t i, uint64_t v) { put_element_bits(bits, words, i, v); }
    // Element i's ordering state, read only where its chunk was touched (zero elsewhere).
    Hazard state(uint64_t i) const { return touched[i >> kTouchedChunkShift] ? hazards[i] : Hazard{}; }
    // Whether chunk c is as the launch left it to this run: neither its accesses nor those of a
    // range joined to it touched it (its states zero, its records fresh, `joined` zero).
    bool fresh_chunk(uint64_t c) const { return !touched[c] && (joined_touched.empty() || !joined_touched[c]); }
    // What was reported on element i here and in the ranges joined to this run (HazardFlags).
    uint8_t reported(uint64_t i) const {
        const bool theirs = !joined_touched.empty() && joined_touched[i >> kTouchedChunkShift];
        return uint8_t(state(i).flags() | (theirs ? joined[i] : 0));
    }
};

// [SECTION] Text helpers
std::string dim_text(const Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

Dim3 unlinear(uint64_t i, const Dim3& d) {
    return {uint32_t(i % d.x), uint32_t(i / d.x % d.y), uint32_t(i / (uint64_t(d.x) * d.y))};
}

// A warp call's mask as CUDA code writes it: 0x0000ffff.
std::string mask_text(uint32_t mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

std::string index_text(const std::vector<uint64_t>& index) {
    std::string s;
    for (uint64_t i : index) s += "[" + std::to_string(i) + "]";
    return s;
}

enum class FiberState : uint8_t { Running, AtBarrier, AtWarp, Exited };

}  // namespace

// [SECTION] The ModelEmulator class
// Cache-line aligned: the ranges of a spread launch run in emulators made one after another,
// and one's last members, written on every access, shared a line with the next one's first,
// read on every thread (increment over 16M elements spread over two cores took 1.0 s of CPU
// instead of 0.5).
class alignas(64) ModelEmulator {
    friend class ModelThread;  // its inlined path looks up a block's touchers (first_in_block)

  public:
    explicit ModelEmulator(const ModelLaunch& model_launch)
        : spec_(*model_launch.spec),
          params_(model_launch.params),
          launch_(model_launch.launch),
          tpb_(uint32_t(model_launch.launch.threads_per_block())),
          record_reads_(model_launch.record_reads),
          record_elements_(model_launch.record_elements),
          inputs_tracked_(model_launch.inputs_tracked),
          keep_records_(model_launch.record_elements ? model_launch.keep_records : 0),
          record_requests_(model_launch.record_requests),
          keep_requests_(model_launch.keep_requests),
          cost_array_(model_launch.cost_array),
          requests_array_(model_launch.requests_array),
          keep_op_(model_launch.keep_op),
          global_element_bytes_(model_launch.global_element_bytes),
          max_accesses_(model_launch.max_accesses),
          shared_block_(model_launch.shared_block),
          watch_array_(model_launch.record_elements ? model_launch.watch_array : SIZE_MAX),
          watch_element_(model_launch.watch_element),
          phase_filter_(model_launch.phase) {}
    // The threads' fibers wait for a next block that does not come: abandoned, not unwound
    // (their contexts are dropped; their stacks go back with the arena).
    ~ModelEmulator() = default;
    ModelEmulator(const ModelEmulator&) = delete;
    ModelEmulator& operator=(const ModelEmulator&) = delete;

    // The arrays, the inputs, the block's threads and their fibers. A `worker` (a range to be
    // absorbed) also keeps its starting values for the sums absorb makes. It starts from the
    // inputs, not from the first run's values after its sampled blocks: where those blocks wrote
    // an element, absorb refuses a range that touched it, and the sums add what a range added.
    void setup(const std::atomic<bool>* cancel, bool worker = false);
    // setup's parts: array `a`'s values (its inputs filled) and the state the launch records for
    // it; and the inlined path's table (shadow::InlineAccesses), when the launch allows it (true).
    Storage make_storage(size_t a, bool worker) const;
    bool set_up_inline_path();
    // Blocks [first, end) in order, until a divergent barrier ends the launch.
    void run_blocks(uint64_t first, uint64_t end);
    // Joins the run of the blocks right after this one's (and the ranges joined to it), made by
    // `later` from the same inputs; false, changing nothing, when `later` touched an element
    // they wrote or wrote one they touched (a one-thread run could have gone otherwise), unless
    // all only added into it with integer atomicAdd (KernelSpec::atomic_results_unused).
    // Its passes over the elements are cut into `parts`, each on a thread of its own.
    bool absorb(ModelEmulator& later, unsigned parts);
    // absorb's parts, over the `part`-th of `parts` slices of each array: whether `later`
    // joins, its elements' values, records and flags joined to these (Storage::joined); and
    // whether an element joins by adding.
    bool joins(const ModelEmulator& later, unsigned part, unsigned parts) const;
    void join_elements(const ModelEmulator& later, unsigned part, unsigned parts);
    void join_element(size_t a, Storage& mine, const Storage& theirs, uint64_t i, uint64_t mask, bool sums) const;
    static void take_chunk(Storage& mine, const Storage& theirs, uint64_t first, uint64_t end);
    bool sums_join(size_t a, uint8_t earlier, uint8_t theirs) const;
    // The ordering state `later` (a range absorbed before) left, taken as this run's: the blocks
    // after a range that did not join run on here, and must meet the state serial blocks would.
    void take_state(const ModelEmulator& later);
    bool ended_early() const { return result_.ended_early; }
    // An atomic wrote a global array (a histogram's bins, a total): blocks that share results
    // so, whose ranges absorb would refuse to join.
    bool shared_by_atomics() const { return global_atomics_; }
    uint64_t accesses() const { return inline_.accesses; }
    ModelResult finish();

    // One load, store or atomic. Inlined into each of ModelThread's callers, whose constant
    // read/write/atomic flags fold its branches away. `request_width`: the elements from i that
    // this lane's access covers in the memory view (a vector access: 2 to 16, given with its
    // first element; 0 with the others, which it covers). `integer_add`: the atomic is an
    // integer atomicAdd (kNotSummed).
    [[gnu::always_inline]] inline uint64_t access(ModelThread& t, size_t a, uint64_t i, int line, bool read, bool write,
                                                  bool atomic, uint64_t new_bits, uint32_t request_width = 1,
                                                  bool integer_add = false);
    [[gnu::always_inline]] inline uint64_t access_element(ModelThread& t, Storage& s, size_t a, uint64_t i, int line,
                                                          bool read, bool write, bool atomic, uint64_t new_bits,
                                                          bool integer_add);
    // __syncthreads() (and __syncthreads_count: returns how many of the block's threads gave a
    // true `predicate`).
    uint32_t barrier(ModelThread& t, int line, bool predicate = false);
    uint64_t warp(ModelThread& t, const WarpCall& call);
    void keep_shared();  // shared_block_'s shared arrays, as it leaves them
    void abandon_fibers();
    bool should_stop() {
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) return true;
        return capped_ = launch_accesses() > max_accesses_;
    }
    // The count of a spread run's accesses over all its workers, which this worker adds its own
    // to: the access cap is the launch's, not each range's (a 1024³ tiled matmul's two ranges,
    // each under it, ran to their ends before the sum was refused). nullptr: its own.
    void count_accesses_in(std::atomic<uint64_t>* launch_accesses) {
        launch_accesses_ = launch_accesses;
        reported_accesses_ = inline_.accesses;
        launch_seen_ = 0;
    }
    // Whether the run stopped at the access cap (not at a divergent barrier, not cancelled).
    bool capped() const { return capped_; }
    // Thrown from access() when should_stop(): a thread's body stops where it is.
    struct StopRun {};
    // Thrown from access() when the kernel writes an input that keeps no ordering state (Storage::
    // untracked): run_model_here runs the launch again with every input tracked.
    struct InputWritten {};
    uint64_t size(size_t a) const { return arrays_[a].size; }
    uint64_t peek(size_t a, uint64_t i) const { return arrays_[a].get(i); }
    uint32_t element_bytes(size_t a) const { return arrays_[a].bytes; }

  private:
    void run_block(uint64_t block);
    void run_block_as_fibers();
    fctx::fcontext_t thread_fiber(uint32_t i);
    static void thread_main(fctx::transfer_t from);  // a thread's fiber, entered first from hand_over
    // The first thread from `from` on that is running (tpb_, the scheduler, if none or stopped).
    uint32_t next_running(uint32_t from) const;
    // Switches from `from` (a thread, or tpb_) to `to`; returns when something hands back.
    void hand_over(uint32_t from, uint32_t to);
    void report_divergent_barrier(const std::vector<uint32_t>& waiting, const std::vector<uint32_t>& exited, int line);
    // Completes every warp collective whose lanes all wait (false: none could); a call that
    // leaves its own lane out of its mask ends the launch.
    bool complete_warp_calls();
    void note_undefined_values(uint32_t first, uint32_t lanes, const WarpCall& c, const UndefinedSource& bad);
    // No thread can go on: name where a warp's lanes wait and end the launch.
    void warp_deadlock();
    // Two threads of the block, one's access at `stamp` (a sync epoch) and the other's now:
    // ordered by a barrier or a __syncwarp() between them.
    bool ordered_in_block(uint32_t earlier, uint32_t now, uint32_t stamp) const {
        return stamp < barrier_epoch_ || warp_order_.ordered(earlier - block_base_, now - block_base_, stamp);
    }
    // What a finding says orders two threads of the block ("__syncthreads()", or with
    // __syncwarp() too for threads of one warp of a kernel that uses warp functions).
    std::string sync_advice(uint32_t a, uint32_t b) const;
    // "missing __syncthreads() between line 10 and line 14", for threads a and b of one block.
    std::string missing_sync(uint32_t first, uint32_t second, int first_line, int second_line) const;
    std::string race_text(uint32_t first, uint32_t second, const std::string& element, int first_line, int line) const;
    std::string lane_text(uint32_t fiber) const;
    void reset_shared();
    // The running block, as the shadow state's rules see it.
    BlockOrder order() const { return {block_base_, tpb_, epoch_, barrier_epoch_, spec_.uses_warp_ops}; }
    bool in_block(uint32_t id) const { return order().in_block(id); }
    // The running phase's accesses count in the records (ModelLaunch::phase).
    bool phase_recorded() const { return phase_filter_ == ModelLaunch::kAllPhases || phase_ == phase_filter_; }
    FindingThread who(uint32_t id) const {
        return {unlinear(id / tpb_, launch_.grid), unlinear(id % tpb_, launch_.block)};
    }
    std::string thread_text(uint32_t id) const {
        const FindingThread w = who(id);
        return "thread " + dim_text(w.thread) + " of block " + dim_text(w.block);
    }
    std::vector<uint64_t> index_of(size_t a, uint64_t i) const;
    // Counts a finding; lists it (making its text, which costs) while the list has room. Out
    // of line: the access path stays small.
    template <class Describe>
    [[gnu::noinline, gnu::cold]] void report(FindingKind kind, std::initializer_list<uint32_t> ids, size_t array,
                                             uint64_t element, int line, Describe describe);
    [[gnu::noinline, gnu::cold]] void out_of_bounds(size_t a, uint64_t i, uint32_t id, int line, bool write,
                                                    bool atomic);
    // Keeps where each thread of the running block is as the launch ends at a divergent
    // barrier or warp call (ModelResult::diverged); side(fiber) says.
    template <class Side>
    void note_diverged(int line, Side side) {
        DivergedBlock d{block_base_ / tpb_, line, std::vector<BarrierSide>(tpb_)};
        for (uint32_t f = 0; f < tpb_; ++f) d.sides[f] = side(f);
        result_.diverged = std::move(d);
    }
    // The checks, out of line: the access path calls them only when a quick look at the
    // element's ordering state says a finding is possible (read_may_conflict, …), which in a
    // correct kernel is rare.
    [[gnu::noinline]] void check_read(size_t a, uint64_t i, Hazard& h, const Phases& p, uint32_t id, int line);
    [[gnu::noinline]] void check_write(size_t a, uint64_t i, Hazard& h, const Phases& p, uint32_t id, int line,
                                       bool atomic);
    // Element i's record after a recorded access by `id` (shadow::record_access; with barriers,
    // the block's earlier touchers are looked up in block_touchers_).
    [[gnu::always_inline]] void record(Storage& s, size_t a, uint64_t i, uint32_t id, bool write) {
        record_access(s.records[i], s.counted[i], id, write, as_fibers_, order(),
                      [&](uint32_t counted) { return first_in_block(a, i, counted, id, write); });
    }
    // Whether `id` is new among the running block's touchers of the element, whose last
    // counted one was `counted`, of the same block (out of line: only kernels with barriers).
    [[gnu::noinline]] bool first_in_block(size_t a, uint64_t i, uint32_t counted, uint32_t id, bool write) {
        const auto key = [&](uint32_t t) { return (i << 17) | (uint64_t(t - block_base_) << 7) | (a << 1) | write; };
        block_touchers_.insert(key(counted));
        return block_touchers_.insert(key(id)).second;
    }
    const KernelSpec& spec_;
    const Params& params_;
    LaunchConfig launch_;
    uint32_t tpb_;
    std::vector<Storage> arrays_;
    std::vector<uint64_t> array_sizes_;       // each array's size, as ModelThread::array_size reads it
    std::vector<ModelThread> threads_;        // the running block's
    std::vector<uint32_t> waiting_, exited_;  // at a barrier: the threads waiting there, and those that ended
    uint32_t phase_ = 0;                      // barriers the running block has passed
    // Sync epochs of the running block: one more after each barrier and each __syncwarp();
    // accesses are stamped with epoch_ (Hazard).
    uint32_t epoch_ = 0, barrier_epoch_ = 0;
    bool as_fibers_ = false;       // the block's threads run as fibers (barriers or warp functions)
    bool global_atomics_ = false;  // shared_by_atomics()
    Phases no_phases_{};           // every element's epochs without fibers: always 0
    uint32_t block_base_ = 0;      // the running block's first thread id
    bool record_reads_ = true;
    bool record_elements_ = true;
    bool inputs_tracked_ = false;  // ModelLaunch::inputs_tracked
    uint64_t keep_records_ = 0;    // with record_elements: ModelLaunch::keep_records
    bool record_shared_ = false;   // the running block is shared_block_: its shared arrays' records are kept
    bool record_requests_ = false;
    size_t keep_requests_ = SIZE_MAX;
    size_t cost_array_ = SIZE_MAX;
    size_t requests_array_ = SIZE_MAX;
    AccessOp keep_op_ = AccessOp::Store;
    uint32_t global_element_bytes_ = 0;
    uint64_t max_accesses_ = kMaxModelAccesses;
    uint64_t shared_block_ = UINT64_MAX;
    size_t watch_array_ = SIZE_MAX;  // ModelLaunch::watch_array (SIZE_MAX without record_elements)
    uint64_t watch_element_ = 0;
    // The running block's threads that touched the watched element (per block: ids are new in each).
    std::unordered_set<uint32_t> watch_block_touchers_;
    [[gnu::noinline, gnu::cold]] void watch(uint32_t id, int line, bool read, bool write, bool atomic);
    uint32_t phase_filter_ = ModelLaunch::kAllPhases;  // record only this phase's accesses
    const std::atomic<bool>* cancel_ = nullptr;
    bool stopped_ = false;                              // cancelled or over the access cap, within a block
    std::atomic<uint64_t>* launch_accesses_ = nullptr;  // count_accesses_in
    uint64_t reported_accesses_ = 0;                    // of inline_.accesses, added to it
    uint64_t launch_seen_ = 0;                          // what it held after this worker's last add
    bool capped_ = false;                               // should_stop found the launch past its cap
    // The launch's accesses as this worker knows them: with count_accesses_in, the others' as of
    // its last add to the count, which it makes every 65,536 of its own (one atomic add, not one
    // per block of a launch of small blocks).
    uint64_t launch_accesses() {
        if (!launch_accesses_) return inline_.accesses;
        const uint64_t unreported = inline_.accesses - reported_accesses_;
        if (unreported <= kStopCheckMask) return launch_seen_ + unreported;
        launch_seen_ = launch_accesses_->fetch_add(unreported, std::memory_order_relaxed) + unreported;
        reported_accesses_ = inline_.accesses;
        return launch_seen_;
    }
    std::vector<ArrayResult> shared_kept_;  // shared_block_'s shared arrays
    ModelResult result_;
    // Fibers (kernels with barriers): the block's threads, and where each waits.
    StackArenaHandle stacks_;
    // [i]: thread i's continuation while it waits or has not started; [tpb_]: the block's
    // scheduler's while a thread runs. A thread that stops hands over straight to the next
    // that can run (hand_over), so a round of a barrier costs one switch per thread, not two.
    std::vector<fctx::fcontext_t> fibers_;  // null: none (not made yet, or running)
    uint32_t handed_by_ = 0;                // who switched last: a thread, or tpb_ for the scheduler
    uint32_t handed_to_ = 0;                // and to whom (a new fiber learns its thread from it)
    // What a thread's body threw other than StopRun, caught on its stack: rethrown on the
    // scheduler's once the block stops (run_block_as_fibers).
    std::exception_ptr fiber_error_;
    std::vector<FiberState> state_;
    std::vector<int> barrier_line_;
    // The threads at a barrier now, counted as they arrive, so that a phase ends without a look at
    // each thread: how many, whether all at one line (that of the last), and how many gave a true
    // predicate (__syncthreads_count/and/or).
    struct Arrivals {
        uint32_t threads = 0, votes = 0;
        int line = 0;
        bool one_line = true;
    } arrivals_;
    uint32_t barrier_count_ = 0;        // of the barrier the block passed last: those true
    std::vector<WarpCall> warp_calls_;  // per thread of the block: its waiting warp call
    WarpOrder warp_order_;              // kernels with warp functions
    // With barriers: (element, thread in block, array, write) of the running block's threads
    // counted on elements more than one of them touched (record).
    std::unordered_set<uint64_t> block_touchers_;
    std::unique_ptr<WarpRequests> requests_;  // when the launch records requests
    // Per array, the threads that read and wrote it (counted from each ModelThread's masks
    // when its block ends): threads that follow one another with the same masks, as most do,
    // are added at once (add_touching), before anything reads the counts.
    std::vector<std::array<uint64_t, 2>> threads_touching_;  // per array: writing, reading
    struct TouchingRun {
        uint64_t read = 0, written = 0;  // the masks
        uint64_t threads = 0;            // how many threads had them, not yet counted
    } touching_run_;
    // The arrays thread t read and wrote, among the threads touching each; its masks cleared.
    void count_touching(ModelThread& t) {
        if (t.arrays_read_ != touching_run_.read || t.arrays_written_ != touching_run_.written) {
            add_touching();
            touching_run_.read = t.arrays_read_;
            touching_run_.written = t.arrays_written_;
        }
        ++touching_run_.threads;
        t.arrays_read_ = t.arrays_written_ = 0;
    }
    void add_touching();
    bool run_threads_in_turn(const Dim3& block_idx);
    // What ModelThread's inlined loads and stores need (setup says whether they may take it); its
    // block order is order(), set again wherever the running block or its epochs change. Last:
    // its 2.5 KB would part the members the emulator's own access path reads.
    InlineAccesses inline_;
};

// [SECTION] Findings: report, read and write checks, out of bounds
std::vector<uint64_t> ModelEmulator::index_of(size_t a, uint64_t i) const {
    const auto& shape = arrays_[a].shape;
    std::vector<uint64_t> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = i % shape[d];
        i /= shape[d];
    }
    return index;
}

template <class Describe>
void ModelEmulator::report(FindingKind kind, std::initializer_list<uint32_t> ids, size_t array, uint64_t element,
                           int line, Describe describe) {
    ++result_.counts[size_t(kind)];
    if (result_.findings.size() >= ModelResult::kMaxListedFindings) return;
    Finding f;
    f.kind = kind;
    for (uint32_t id : ids) f.threads.push_back(who(id));
    if (array < arrays_.size()) {
        f.array = spec_.arrays[array].name;
        f.index = element < arrays_[array].size ? index_of(array, element) : std::vector<uint64_t>{element};
    }
    f.line = line;
    f.message = describe();
    result_.findings.push_back(std::move(f));
}

void ModelEmulator::check_read(size_t a, uint64_t i, Hazard& h, const Phases& p, uint32_t id, int line) {
    const auto element = [&] { return spec_.arrays[a].name + index_text(index_of(a, i)); };
    if (arrays_[a].shared && !(h.flags() & (kWritten | kReportedUninit))) {
        h.add_flags(kReportedUninit);
        arrays_[a].flagged = true;
        report(FindingKind::UninitializedRead, {id}, a, i, line, [&] {
            return thread_text(id) + " reads " + element() + " (shared) at line " + std::to_string(line) +
                   " before any thread of its block wrote it: shared memory starts undefined.";
        });
    }
    if (h.last_writer != kNone && h.last_writer != id && in_block(h.last_writer) &&
        !ordered_in_block(h.last_writer, id, p.write) && !(h.flags() & kReportedHazard)) {
        h.add_flags(kReportedHazard);
        arrays_[a].flagged = true;
        // The writer read the element at this line before writing it: a read-modify-write of one
        // element by several threads (histogram-racy's bins[k]++), which no barrier mends.
        const bool read_modify_write = h.last_reader == h.last_writer && h.read_line == line && h.write_line == line;
        report(FindingKind::ReadWriteHazard, {h.last_writer, id}, a, i, line, [&] {
            return thread_text(id) + " reads " + element() + " at line " + std::to_string(line) + ", which " +
                   thread_text(h.last_writer) + " writes at line " + std::to_string(h.write_line) + ": " +
                   (read_modify_write ? std::string("both read and write it there: accumulate with an atomic "
                                                    "(atomicAdd), or give each thread its own element")
                                      : missing_sync(h.last_writer, id, h.write_line, line)) +
                   "; the read may see the old value or the new one.";
        });
    }
}

void ModelEmulator::check_write(size_t a, uint64_t i, Hazard& h, const Phases& p, uint32_t id, int line, bool atomic) {
    const auto element = [&] { return spec_.arrays[a].name + index_text(index_of(a, i)); };
    const bool other_writer = h.last_writer != kNone && h.last_writer != id;
    const bool unordered = other_writer && (!in_block(h.last_writer) || !ordered_in_block(h.last_writer, id, p.write));
    const bool both_atomic = atomic && (h.flags() & kAtomicWrite);
    if (unordered && !both_atomic && !(h.flags() & kReportedRace)) {
        h.add_flags(kReportedRace);
        arrays_[a].flagged = true;
        report(FindingKind::WriteWriteRace, {h.last_writer, id}, a, i, line,
               [&] { return race_text(h.last_writer, id, element(), h.write_line, line); });
    }
    const struct {
        uint32_t thread, phase;
        uint16_t line;
    } readers[] = {{h.last_reader, p.read, h.read_line}, {order().other_reader(h), p.other_read, h.other_read_line}};
    // Named members, not a structured binding: Clang 14 (the fuzz build) and 15 cannot capture one
    // in a lambda.
    for (const auto& r : readers) {
        if (r.thread == kNone || r.thread == id || !in_block(r.thread) || ordered_in_block(r.thread, id, r.phase) ||
            (h.flags() & kReportedHazard))
            continue;
        h.add_flags(kReportedHazard);
        arrays_[a].flagged = true;
        report(FindingKind::ReadWriteHazard, {r.thread, id}, a, i, line, [&] {
            return thread_text(id) + " writes " + element() + " at line " + std::to_string(line) + ", which " +
                   thread_text(r.thread) + " reads at line " + std::to_string(r.line) + ": " +
                   missing_sync(r.thread, id, r.line, line) + "; the read may see the old value or the new one.";
        });
    }
}

void ModelEmulator::out_of_bounds(size_t a, uint64_t i, uint32_t id, int line, bool write, bool atomic) {
    Storage& s = arrays_[a];
    if (record_elements_ && (!s.shared || record_shared_) && phase_recorded()) {
        if (i >= s.size && i - s.size < past_window(s.size)) {
            const uint64_t k = i - s.size;
            if (k >= s.past.size()) s.past.resize(k + 1);
            PastRecord& r = s.past[k];
            if (write) r.first_writer = std::min(r.first_writer, id), ++r.writes;
            if (!write || atomic) r.first_reader = std::min(r.first_reader, id), ++r.reads;
        } else {
            ++s.past_elsewhere;
        }
    }
    const char* what = atomic ? "does an atomic on" : write ? "writes" : "reads";
    report(FindingKind::OutOfBounds, {id}, a, i, line, [&] {
        const std::string& name = spec_.arrays[a].name;
        // A learner's kernel can index before the start (a[i - 1] at i = 0): a negative index.
        const bool before = i > uint64_t(INT64_MAX);
        return thread_text(id) + " " + what + " " + name + "[" +
               (before ? std::to_string(int64_t(i)) : std::to_string(i)) + "] at line " + std::to_string(line) +
               (before ? ", before the start of " : ", past the end of ") + name + " (" +
               std::to_string(arrays_[a].size) +
               " elements): on a GPU that touches other data or faults; here it is skipped.";
    });
}

// [SECTION] The access path
uint64_t ModelEmulator::access(ModelThread& t, size_t a, uint64_t i, int line, bool read, bool write, bool atomic,
                               uint64_t new_bits, uint32_t request_width, bool integer_add) {
    // Now and then: a cancelled launch, or one past its access cap, stops here, within its
    // block (a single thread's loop can be billions of accesses long).
    if ((++inline_.accesses & kStopCheckMask) == 0 && should_stop()) throw StopRun{};
    Storage& s = arrays_[a];
    const uint32_t id = t.global_id_;
    if (requests_ && !atomic && request_width &&  // a lane partly out of bounds is inactive in the request
        (requests_array_ == SIZE_MAX || a == requests_array_))
        requests_->record(t.fiber_, t.loops.context() ^ (uint64_t(phase_) * 0x9e3779b97f4a7c15ull), a, i, line,
                          write ? AccessOp::Store : AccessOp::Load, request_width,
                          i < s.size && (request_width == 1 || s.size - i >= request_width));
    if (i >= s.size) {
        out_of_bounds(a, i, id, line, write, atomic);
        return 0;
    }
    if (!record_elements_) {
        const uint64_t old = s.get(i);
        if (write) s.put(i, new_bits);
        return old;
    }
    return access_element(t, s, a, i, line, read, write, atomic, new_bits, integer_add);
}

// access's part for an element in bounds, when elements are recorded: its ordering state
// checked and updated, its record, its value.
uint64_t ModelEmulator::access_element(ModelThread& t, Storage& s, size_t a, uint64_t i, int line, bool read,
                                       bool write, bool atomic, uint64_t new_bits, bool integer_add) {
    const uint32_t id = t.global_id_;
    if (write && s.untracked) throw InputWritten{};
    s.touched[i >> kTouchedChunkShift] = 1;
    read = read && record_reads_;
    const bool recorded = (!s.shared || record_shared_) && phase_recorded();
    if (recorded) {
        if (read) t.arrays_read_ |= uint64_t(1) << a;
        if (write) t.arrays_written_ |= uint64_t(1) << a;
        if (a == watch_array_ && i == watch_element_) [[unlikely]]
            watch(id, line, read, write, atomic);
    }
    if (read && recorded && s.keeps_records) record(s, a, i, id, false);
    if (s.untracked) return s.get(i);  // reads alone: no ordering state to check or keep
    Hazard& h = s.hazards[i];
    h.add_flags(atomic && integer_add ? 0 : kNotSummed);
    // Without fibers every epoch is 0: the shared scratch stays 0 and stands for each element's.
    Phases& p = as_fibers_ ? s.phases[i] : no_phases_;
    // An atomic's read is ordered with other atomics: only its write is checked (against
    // plain reads and writes), and it is not remembered as a reader.
    if (read && !atomic) {
        if (order().read_may_conflict(s.shared, h, p, id)) check_read(a, i, h, p, id, line);
        order().remember_reader(s.shared, h, p, id, line16(line));
    }
    const uint64_t old = s.get(i);
    if (write) {
        global_atomics_ = global_atomics_ || (atomic && !s.shared);
        if (order().write_may_conflict(h, p, id, atomic)) check_write(a, i, h, p, id, line, atomic);
        if (recorded && s.keeps_records) record(s, a, i, id, true);
        order().remember_writer(h, p, id, line16(line), atomic);
        s.put(i, new_bits);
    }
    return old;
}

// [SECTION] Barriers and warp calls
uint32_t ModelEmulator::barrier(ModelThread& t, int line, bool predicate) {
    if (fibers_.empty())
        throw std::logic_error("kernel " + spec_.name + " calls __syncthreads() but its spec says it has no barriers");
    state_[t.fiber_] = FiberState::AtBarrier;
    barrier_line_[t.fiber_] = line;
    arrivals_.one_line &= arrivals_.threads == 0 || line == arrivals_.line;
    arrivals_.line = line;
    ++arrivals_.threads;
    arrivals_.votes += predicate;
    hand_over(t.fiber_, next_running(t.fiber_ + 1));  // back when the block passes
    return barrier_count_;
}

uint64_t ModelEmulator::warp(ModelThread& t, const WarpCall& call) {
    if (!spec_.uses_warp_ops)  // its threads may be fibers for barriers, but warp calls are not looked for
        throw std::logic_error("kernel " + spec_.name + " calls " + warp_op_name(call.op) +
                               " but its spec says it has no warp functions");
    state_[t.fiber_] = FiberState::AtWarp;
    warp_calls_[t.fiber_] = call;
    hand_over(t.fiber_, next_running(t.fiber_ + 1));  // back when the collective completes
    return warp_calls_[t.fiber_].result;
}

// [SECTION] What findings say
std::string ModelEmulator::sync_advice(uint32_t a, uint32_t b) const {
    const bool one_warp = (a - block_base_) / kWarpLanes == (b - block_base_) / kWarpLanes;
    return spec_.uses_warp_ops && one_warp ? "__syncthreads() or __syncwarp()" : "__syncthreads()";
}

std::string ModelEmulator::missing_sync(uint32_t first, uint32_t second, int first_line, int second_line) const {
    const std::string sync = sync_advice(first, second);
    if (first_line == second_line)  // one statement in two threads, or in a loop's two passes
        return "one statement with no " + sync + " inside it: read into a variable, " + sync +
               ", then write (a loop's passes: " + sync + " between them)";
    return "missing " + sync + " between line " + std::to_string(first_line) + " and line " +
           std::to_string(second_line);
}

// A race in a learner's words: what the model can see of its cause. Two threads that wrote one
// element at one line computed the same index there; when they differ in one coordinate only,
// that is the question to ask of the index (increment on a 2-D block: threadIdx.y).
std::string ModelEmulator::race_text(uint32_t first, uint32_t second, const std::string& element, int first_line,
                                     int line) const {
    const FindingThread a = who(first), b = who(second);
    const bool one_block = in_block(first);
    const std::string who_text =
        one_block ? "threads " + dim_text(a.thread) + " and " + dim_text(b.thread) + " of block " + dim_text(b.block)
                  : thread_text(first) + " and " + thread_text(second);
    const std::string where = first_line == line
                                  ? " at line " + std::to_string(line)
                                  : " (lines " + std::to_string(first_line) + " and " + std::to_string(line) + ")";
    std::string text = who_text + " both write " + element + where;
    if (first_line != line)
        return text +
               (one_block ? ": " + missing_sync(first, second, first_line, line) : ", and blocks are never ordered") +
               "; which value remains is undefined.";
    std::vector<std::string> differ;
    const auto compare = [&](const char* name, const Dim3& x, const Dim3& y) {
        if (x.x != y.x) differ.push_back(std::string(name) + ".x");
        if (x.y != y.y) differ.push_back(std::string(name) + ".y");
        if (x.z != y.z) differ.push_back(std::string(name) + ".z");
    };
    compare("threadIdx", a.thread, b.thread);
    compare("blockIdx", a.block, b.block);
    // One coordinate apart, other than x (two threads of one row of a block may meet through
    // their data, as a histogram's do): the index does not tell that coordinate apart.
    if (differ.size() == 1 && differ[0] != "threadIdx.x")
        return text + ", and differ only in " + differ[0] + ": the index gives both the same element. Make it use " +
               differ[0] + ", or let one of them write; which value remains is undefined.";
    return text + ": the index there is the same for both" + (one_block ? "" : ", and blocks are never ordered") +
           ". Give each thread its own element, or accumulate with an atomic (atomicAdd); which value remains is "
           "undefined.";
}

std::string ModelEmulator::lane_text(uint32_t fiber) const {
    return "lane " + std::to_string(fiber % kWarpLanes) + " of warp " + std::to_string(fiber / kWarpLanes);
}

// [SECTION] Warp collectives and deadlocks
// A completed warp call whose lanes took values from lanes that took no part: the first such
// lane is a finding, every one is marked for the map (ModelResult::undefined_shuffles).
void ModelEmulator::note_undefined_values(uint32_t first, uint32_t lanes, const WarpCall& c,
                                          const UndefinedSource& bad) {
    if (bad.lane != kWarpLanes) {
        const uint32_t id = block_base_ + first + bad.lane;
        const WarpCall& b = warp_calls_[first + bad.lane];
        report(FindingKind::UninitializedRead, {id}, arrays_.size(), 0, b.line, [&] {
            const std::string why = first + bad.source >= tpb_ ? "is past the block's last thread (the block has " +
                                                                     std::to_string(tpb_) + " threads)"
                                    : !(c.mask >> bad.source & 1) ? "is not in the mask"
                                                                  : "has exited";
            return thread_text(id) + " (" + lane_text(first + bad.lane) + ") takes a value from lane " +
                   std::to_string(bad.source) + " through " + warp_op_name(b.op) + " at line " +
                   std::to_string(b.line) + ", but that lane " + why +
                   ": the value is undefined (here it keeps its own).";
        });
    }
    for (uint32_t m = 0; m < lanes; ++m)
        if (bad.lanes >> m & 1 && result_.undefined_shuffles.size() < ModelResult::kMaxUndefinedShuffles)
            result_.undefined_shuffles.push_back(block_base_ + first + m);
}

bool ModelEmulator::complete_warp_calls() {
    bool progressed = false;
    for (uint32_t first = 0; first < tpb_; first += kWarpLanes) {
        const uint32_t lanes = std::min(kWarpLanes, tpb_ - first);
        uint32_t looked_at = 0;  // lanes waiting at a call whose group is not ready this round
        for (uint32_t l = 0; l < lanes; ++l) {
            if (state_[first + l] != FiberState::AtWarp || (looked_at >> l & 1)) continue;
            const WarpCall& c = warp_calls_[first + l];
            if (!(c.mask >> l & 1)) {
                const uint32_t id = block_base_ + first + l;
                report(FindingKind::DivergentBarrier, {id}, arrays_.size(), 0, c.line, [&] {
                    return thread_text(id) + " (" + lane_text(first + l) + ") calls " + warp_op_name(c.op) +
                           " at line " + std::to_string(c.line) + " with mask " + mask_text(c.mask) +
                           ", which leaves out its own lane; CUDA leaves this undefined, so the launch ends here.";
                });
                note_diverged(c.line, [&](uint32_t f) {
                    return f == first + l ? BarrierSide::Waiting : BarrierSide::NotInvolved;
                });
                result_.ended_early = true;
                return false;
            }
            // Every non-exited lane the mask names must wait at the same kind of call with the
            // same mask; lanes past the block's last thread do not exist.
            uint32_t members = 0;
            bool ready = true;
            for (uint32_t m = 0; m < lanes && ready; ++m) {
                if (!(c.mask >> m & 1) || state_[first + m] == FiberState::Exited) continue;
                const WarpCall& o = warp_calls_[first + m];
                ready = state_[first + m] == FiberState::AtWarp && o.mask == c.mask && o.op == c.op;
                members |= 1u << m;
            }
            if (!ready) {  // the lanes waiting with it would find the same
                for (uint32_t m = l; m < lanes; ++m)
                    if (state_[first + m] == FiberState::AtWarp && warp_calls_[first + m].mask == c.mask &&
                        warp_calls_[first + m].op == c.op)
                        looked_at |= 1u << m;
                continue;
            }
            const UndefinedSource bad = complete_warp_call(&warp_calls_[first], members);
            note_undefined_values(first, lanes, c, bad);
            if (c.op == WarpOp::Sync) {
                warp_order_.sync(first, members, ++epoch_);
                inline_.order = order();
            }
            for (uint32_t m = 0; m < lanes; ++m)
                if (members >> m & 1) state_[first + m] = FiberState::Running;
            progressed = true;
        }
    }
    return progressed;
}

void ModelEmulator::warp_deadlock() {
    const auto at = std::find(state_.begin(), state_.end(), FiberState::AtWarp);
    const uint32_t f = uint32_t(at - state_.begin()), first = f / kWarpLanes * kWarpLanes;
    const uint32_t lanes = std::min(kWarpLanes, tpb_ - first);
    const WarpCall& c = warp_calls_[f];
    // Where a lane is: at a barrier, or at a warp call (with its mask).
    const auto where = [&](uint32_t m) {
        return state_[m] == FiberState::AtBarrier
                   ? "wait at __syncthreads() on line " + std::to_string(barrier_line_[m])
                   : "wait at " + std::string(warp_op_name(warp_calls_[m].op)) + " on line " +
                         std::to_string(warp_calls_[m].line) + " with mask " + mask_text(warp_calls_[m].mask);
    };
    std::vector<uint32_t> waiting, blocking;
    for (uint32_t m = 0; m < lanes; ++m) {
        if (state_[first + m] == FiberState::AtWarp && warp_calls_[first + m].mask == c.mask &&
            warp_calls_[first + m].op == c.op)
            waiting.push_back(first + m);
        else if (c.mask >> m & 1 && state_[first + m] != FiberState::Exited && blocking.empty())
            blocking.push_back(first + m);
    }
    // The other lanes where the first blocking one is.
    for (uint32_t m = 0; m < lanes; ++m)
        if (first + m != blocking.front() && c.mask >> m & 1 && state_[first + m] != FiberState::Exited &&
            std::find(waiting.begin(), waiting.end(), first + m) == waiting.end() &&
            where(first + m) == where(blocking.front()))
            blocking.push_back(first + m);
    const auto names = [&](const std::vector<uint32_t>& fibers) {
        std::string s;
        for (size_t k = 0; k < std::min<size_t>(fibers.size(), 3); ++k)
            s += (k ? ", " : "") + std::to_string(fibers[k] % kWarpLanes);
        if (fibers.size() > 3) s += " and " + std::to_string(fibers.size() - 3) + " more";
        return s;
    };
    // A call whose lanes all waited would have completed: some lane its mask names is elsewhere.
    report(FindingKind::DivergentBarrier, {block_base_ + waiting.front(), block_base_ + blocking.front()},
           arrays_.size(), 0, c.line, [&] {
               return "divergent warp call at line " + std::to_string(c.line) + " in block " +
                      dim_text(threads_[0].blockIdx) + ": lanes " + names(waiting) + " of warp " +
                      std::to_string(first / kWarpLanes) + " " + where(waiting.front()) + ", lanes " + names(blocking) +
                      " that its mask names " + where(blocking.front()) +
                      "; CUDA leaves this undefined (a hang or wrong results), so the launch ends here.";
           });
    note_diverged(c.line, [&](uint32_t f) {
        if (f < first || f >= first + lanes) return BarrierSide::NotInvolved;
        if (std::find(waiting.begin(), waiting.end(), f) != waiting.end()) return BarrierSide::Waiting;
        if (state_[f] == FiberState::Exited) return BarrierSide::Exited;
        return c.mask >> (f - first) & 1 ? BarrierSide::Elsewhere : BarrierSide::NotInvolved;
    });
    result_.ended_early = true;
}

// [SECTION] The watched element
void ModelEmulator::watch(uint32_t id, int line, bool read, bool write, bool atomic) {
    if (!read && !write) return;  // a load not recorded (record_reads off)
    WatchedElement& w = *result_.watched;
    ++w.accesses;
    if (watch_block_touchers_.insert(id).second) {
        ++w.threads;
        if (w.listed.size() < WatchedElement::kListed) w.listed.push_back({id});
    }
    for (ElementToucher& t : w.listed) {
        if (t.thread != id) continue;
        if (read && !(t.ops & ElementToucher::kRead)) t.read_line = line;
        if (write && !(t.ops & ElementToucher::kWrite)) t.write_line = line;
        t.ops |= (read ? ElementToucher::kRead : 0) | (write ? ElementToucher::kWrite : 0) |
                 (atomic ? ElementToucher::kAtomic : 0);
    }
}

// [SECTION] Running blocks: shared memory, threads, fibers
void ModelEmulator::reset_shared() {
    for (size_t a = 0; a < arrays_.size(); ++a) {
        Storage& s = arrays_[a];
        if (!s.shared) continue;
        std::fill(s.bits.begin(), s.bits.end(), 0u);
        std::fill(s.records.begin(), s.records.end(), ElementRecord{});
        std::fill(s.counted.begin(), s.counted.end(), Counted{});
        std::fill(s.hazards.begin(), s.hazards.end(), Hazard{});
        std::fill(s.phases.begin(), s.phases.end(), Phases{});
        std::fill(s.settled.begin(), s.settled.end(), 0u);
        s.past.clear();
        s.past_elsewhere = 0;
    }
}

// Each thread counted over every array of the kernel, as before, cost increment 121.4 instructions
// per access against 114.9 (`scripts/bench-instructions.sh`).
void ModelEmulator::add_touching() {
    const TouchingRun& run = touching_run_;
    for (size_t a = 0; a < threads_touching_.size(); ++a) {
        threads_touching_[a][0] += ((run.written >> a) & 1) * run.threads;
        threads_touching_[a][1] += ((run.read >> a) & 1) * run.threads;
    }
    touching_run_.threads = 0;
}

// Without barriers or warp functions each thread runs to its end before the next starts, so one
// ModelThread serves them all in turn (it stays in cache; a block's 1,024 would not), its
// threadIdx stepped as x runs fastest rather than divided out of the index. False when stopped.
bool ModelEmulator::run_threads_in_turn(const Dim3& block_idx) {
    ModelThread& t = threads_[0];
    t.blockIdx = block_idx;
    t.threadIdx = {0, 0, 0};
    const Dim3& dim = launch_.block;
    try {
        for (uint32_t i = 0; i < tpb_; ++i) {
            t.global_id_ = block_base_ + i;
            t.fiber_ = i;
            t.loops.depth = 0;
            spec_.body(t);
            if (record_elements_) count_touching(t);
            if (requests_ && ((i + 1) % kWarpLanes == 0 || i + 1 == tpb_)) requests_->close_warp(i / kWarpLanes);
            if (++t.threadIdx.x == dim.x) {
                t.threadIdx.x = 0;
                if (++t.threadIdx.y == dim.y) t.threadIdx.y = 0, ++t.threadIdx.z;
            }
        }
    } catch (const StopRun&) {
        stopped_ = true;
        return false;
    }
    return true;
}

void ModelEmulator::run_block(uint64_t block) {
    reset_shared();
    block_touchers_.clear();
    watch_block_touchers_.clear();
    phase_ = epoch_ = barrier_epoch_ = 0;
    if (spec_.uses_warp_ops) warp_order_.reset(tpb_);
    record_shared_ = record_elements_ && block == shared_block_;
    if (requests_) requests_->begin_block(block, block == shared_block_);
    block_base_ = uint32_t(block * tpb_);
    inline_.order = order();
    inline_.record_shared = record_shared_;
    inline_.record_phase = phase_recorded();
    const Dim3 block_idx = unlinear(block, launch_.grid);
    if (!as_fibers_) {
        if (!run_threads_in_turn(block_idx)) return;
    } else {
        for (uint32_t i = 0; i < tpb_; ++i) {
            ModelThread& t = threads_[i];
            t.blockIdx = block_idx;
            t.global_id_ = block_base_ + i;
            t.loops.depth = 0;
        }
        run_block_as_fibers();
        if (requests_) requests_->close_block();
        if (record_elements_)
            for (ModelThread& t : threads_) count_touching(t);
    }
    result_.phases = std::max(result_.phases, phase_ + 1);
    if (record_shared_) keep_shared();
}

void ModelEmulator::keep_shared() {
    shared_kept_.assign(arrays_.size(), ArrayResult{});
    for (size_t a = 0; a < arrays_.size(); ++a) {
        const Storage& s = arrays_[a];
        if (!s.shared) continue;
        ArrayResult& r = shared_kept_[a];
        r.shape = s.shape;
        r.bits = s.bits;
        r.records = s.records;
        r.found.reserve(s.hazards.size());
        for (const Hazard& h : s.hazards) r.found.push_back(found_bits(h.flags()));
        r.past = s.past;
        r.past_elsewhere = s.past_elsewhere;
    }
}

// The block's threads as fibers: each runs until it reaches a barrier or ends; when every
// thread is at the same barrier they all go on (the next phase). Threads that ended while
// others wait, or threads waiting at different barriers, make a divergent barrier: CUDA leaves
// that undefined (a hang, or a wrong result), so the launch ends here with a finding.
void ModelEmulator::run_block_as_fibers() {
    arrivals_ = {};
    for (uint32_t i = 0; i < tpb_; ++i) {
        state_[i] = FiberState::Running;
        if (!fibers_[i]) fibers_[i] = thread_fiber(i);  // made once, and again after an abandoned block
    }
    for (;;) {
        // The running threads in order, each handing over to the next; the last back here.
        if (const uint32_t first = next_running(0); first < tpb_) hand_over(tpb_, first);
        if (stopped_) {
            abandon_fibers();
            if (fiber_error_) std::rethrow_exception(std::exchange(fiber_error_, nullptr));
            return;
        }
        if (spec_.uses_warp_ops) {
            if (complete_warp_calls()) continue;
            if (!result_.ended_early && std::find(state_.begin(), state_.end(), FiberState::AtWarp) != state_.end())
                warp_deadlock();
        }
        if (result_.ended_early) {
            abandon_fibers();
            return;
        }
        if (arrivals_.threads == tpb_ && arrivals_.one_line) {  // every thread at one barrier: the next phase
            ++phase_;
            barrier_epoch_ = ++epoch_;
            inline_.order = order();
            inline_.record_phase = phase_recorded();
            barrier_count_ = arrivals_.votes;
            std::fill(state_.begin(), state_.end(), FiberState::Running);
            arrivals_ = {};
            continue;
        }
        // Every thread ended (the block is done), or some wait where others do not.
        std::vector<uint32_t>& waiting = waiting_;
        std::vector<uint32_t>& exited = exited_;
        waiting.clear();
        exited.clear();
        for (uint32_t i = 0; i < tpb_; ++i) (state_[i] == FiberState::AtBarrier ? waiting : exited).push_back(i);
        if (waiting.empty()) return;
        report_divergent_barrier(waiting, exited, barrier_line_[waiting.front()]);
        abandon_fibers();
        return;
    }
}

// Thread i's fiber runs its body block after block: an ended thread hands over and waits for
// the next block where it stopped. One fiber per thread and block cost a fiber's making (and a
// switch into it) and its ending (a switch to free it) every time. It never ends: the waiting
// fibers are abandoned with the emulator (abandon_fibers).
fctx::fcontext_t ModelEmulator::thread_fiber(uint32_t i) {
    const boost::context::stack_context stack = stacks_->stack(i);
    return fctx::make_fcontext(stack.sp, stack.size, &ModelEmulator::thread_main);
}

void ModelEmulator::thread_main(fctx::transfer_t from) {
    ModelEmulator& e = *static_cast<ModelEmulator*>(from.data);
    const uint32_t i = e.handed_to_;
    e.fibers_[e.handed_by_] = from.fctx;
    for (;;) {
        try {
            e.spec_.body(e.threads_[i]);
        } catch (const StopRun&) {  // caught on its own stack: nothing crosses a fiber
            e.stopped_ = true;
        } catch (...) {  // nor does anything else: the scheduler rethrows it
            e.fiber_error_ = std::current_exception();
            e.stopped_ = true;
        }
        e.state_[i] = FiberState::Exited;
        e.hand_over(i, e.next_running(i + 1));  // back when the next block starts
    }
}

// The block's threads did not all reach the barrier on `line` (the first waiting thread's):
// some exited, or wait at another barrier. Names a few threads on each side, notes where each
// thread is, and ends the launch.
void ModelEmulator::report_divergent_barrier(const std::vector<uint32_t>& waiting, const std::vector<uint32_t>& exited,
                                             int line) {
    const uint32_t base = threads_[0].global_id_;
    const auto names = [&](const std::vector<uint32_t>& ids) {
        std::string s;
        for (size_t k = 0; k < std::min<size_t>(ids.size(), 3); ++k)
            s += (k ? ", " : "") + dim_text(threads_[ids[k]].threadIdx);
        if (ids.size() > 3) s += " and " + std::to_string(ids.size() - 3) + " more";
        return s;
    };
    std::vector<uint32_t> others;
    std::string what;
    if (!exited.empty()) {
        others = exited;
        what = "exited";
    } else {
        for (uint32_t i : waiting)
            if (barrier_line_[i] != line) others.push_back(i);
        what = "wait at the barrier on line " + std::to_string(barrier_line_[others.front()]);
    }
    std::vector<uint32_t> at_line;
    for (uint32_t i : waiting)
        if (barrier_line_[i] == line) at_line.push_back(i);
    report(
        FindingKind::DivergentBarrier, {base + at_line.front(), base + others.front()}, arrays_.size(), 0, line, [&] {
            return "divergent barrier at line " + std::to_string(line) + " in block " + dim_text(threads_[0].blockIdx) +
                   ": threads " + names(at_line) + " reached it, threads " + names(others) + " " + what +
                   "; CUDA leaves this undefined (a hang or wrong results), so the launch ends here.";
        });
    note_diverged(line, [&](uint32_t f) {
        return state_[f] == FiberState::Exited ? BarrierSide::Exited
               : barrier_line_[f] == line      ? BarrierSide::Waiting
                                               : BarrierSide::Elsewhere;
    });
    result_.ended_early = true;
}

uint32_t ModelEmulator::next_running(uint32_t from) const {
    if (stopped_) return tpb_;
    while (from < tpb_ && state_[from] != FiberState::Running) ++from;
    return from;
}

void ModelEmulator::hand_over(uint32_t from, uint32_t to) {
    handed_by_ = from;
    handed_to_ = to;
    const fctx::transfer_t back = fctx::jump_fcontext(std::exchange(fibers_[to], nullptr), this);
    fibers_[handed_by_] = back.fctx;  // whoever handed back to `from` waits now
}

// The waiting threads are abandoned, not unwound: their contexts are dropped (unwinding would
// throw on their stacks, which AddressSanitizer cannot follow), a body holds nothing a destructor
// must free (its arrays are handles), and the stacks go with the arena.
void ModelEmulator::abandon_fibers() { std::fill(fibers_.begin(), fibers_.end(), nullptr); }

// [SECTION] Setup
Storage ModelEmulator::make_storage(size_t a, bool worker) const {
    const ArraySpec& spec = spec_.arrays[a];
    Storage s;
    s.shared = spec.space == MemorySpace::Shared;
    s.shape = spec.shape(params_, launch_);
    s.size = 1;
    for (uint64_t side : s.shape) s.size *= side;
    s.words = value_words(spec.type);
    s.bytes = value_bytes(spec.type);
    reserve_huge(s.bits, s.size * s.words);
    s.bits.assign(s.size * s.words, 0u);
    if (!s.shared && (spec.role == ArrayRole::Input || spec.role == ArrayRole::InOut))
        spec_.fill_input(params_, a, s.bits);
    if (worker && spec_.atomic_results_unused && !s.shared) s.start = s.bits;  // what absorb's sums add to
    s.touched.assign((s.size >> kTouchedChunkShift) + 1, 0);
    s.untracked = record_elements_ && !s.shared && spec.role == ArrayRole::Input && !inputs_tracked_;
    const bool ordered = record_elements_ && !s.untracked;
    if (ordered) s.hazards = ZeroedBuffer<Hazard>(s.size, true);
    // A __shared__ array's, always (a block's few): its inlined loads need not look for them.
    if (ordered && (spec_.runs_as_fibers() || s.shared)) s.phases = ZeroedBuffer<Phases>(s.size, true);
    if (ordered && s.shared) s.settled.assign(s.size, 0u);
    s.keeps_records = a < 64 && (keep_records_ >> a & 1);
    if (s.keeps_records) {
        reserve_huge(s.records, s.size);
        s.records.assign(s.size, ElementRecord{});
        s.counted = ZeroedBuffer<Counted>(s.size, true);
    }
    return s;
}

bool ModelEmulator::set_up_inline_path() {
    // The inlined path records what it takes as this path would (access, access_element): a
    // 4-byte array's value, shadow state and, where kept, its records; without per-element state
    // (the memory view's run), its value only. An array whose accesses are grouped into warp
    // requests, or that has the watched element, is left to this path.
    static_assert(sizeof(InlineAccesses::arrays) / sizeof(InlineArray) == kMaxModelArrays);
    inline_.global_atomics = &global_atomics_;
    inline_.order = order();
    inline_.fibers = as_fibers_;
    bool inlined = false;
    for (size_t a = 0; record_reads_ && a < arrays_.size(); ++a) {
        Storage& s = arrays_[a];
        const bool requested = requests_ && (requests_array_ == SIZE_MAX || a == requests_array_);
        if (s.bytes != 4 || a == watch_array_ || requested) continue;
        // A plain array's path (inlined into the body) has no records, and records every access.
        const bool plain = record_elements_ && !as_fibers_ && !s.shared && !s.keeps_records &&
                           phase_filter_ == ModelLaunch::kAllPhases;
        inline_.arrays[a] = {.size = s.size,
                             .bits = s.bits.data(),
                             .hazards = record_elements_ && !s.untracked ? s.hazards.data() : nullptr,
                             .plain = plain && !s.untracked,
                             .input = s.untracked,
                             .shared = s.shared,
                             .phases = s.phases.empty() ? nullptr : s.phases.data(),
                             .touched = s.touched.data(),
                             .records = s.keeps_records ? s.records.data() : nullptr,
                             .counted = s.keeps_records ? s.counted.data() : nullptr,
                             .settled = s.settled.empty() ? nullptr : s.settled.data()};
        inlined = true;
    }
    return inlined;
}

void ModelEmulator::setup(const std::atomic<bool>* cancel, bool worker) {
    cancel_ = cancel;
    if (watch_array_ != SIZE_MAX) result_.watched.emplace();
    for (size_t a = 0; a < spec_.arrays.size(); ++a) {
        arrays_.push_back(make_storage(a, worker));
        array_sizes_.push_back(arrays_.back().size);
    }
    if (record_requests_) {
        std::vector<uint64_t> sizes;
        for (const Storage& st : arrays_) sizes.push_back(st.size);
        requests_ = std::make_unique<WarpRequests>(spec_, sizes, tpb_, keep_requests_, keep_op_, global_element_bytes_,
                                                   cost_array_, !spec_.runs_as_fibers());
    }
    if (record_elements_) threads_touching_.assign(arrays_.size(), {0, 0});
    // Hazard keeps a reader's index in its block in 10 bits (check_model_launch refuses more).
    if (tpb_ > 1024) throw std::logic_error("a block of " + std::to_string(tpb_) + " threads reached the model");
    as_fibers_ = spec_.runs_as_fibers();
    const bool inlined = set_up_inline_path();
    // Fibers: one ModelThread per thread of the block, each with its threadIdx for good. In turn:
    // one serves every thread (run_threads_in_turn).
    threads_.assign(as_fibers_ ? tpb_ : 1, ModelThread{});
    for (uint32_t i = 0; i < threads_.size(); ++i) {
        threads_[i].emulator_ = this;
        threads_[i].inline_ = inlined ? &inline_ : nullptr;
        threads_[i].params_ = params_.data();
        threads_[i].array_sizes_ = array_sizes_.data();
        threads_[i].fiber_ = i;
        threads_[i].threadIdx = unlinear(i, launch_.block);
        threads_[i].blockDim = launch_.block;
        threads_[i].gridDim = launch_.grid;
    }
    if (as_fibers_) {
        stacks_ = take_stack_arena(tpb_);
        fibers_.resize(tpb_ + 1);
        state_.resize(tpb_);
        barrier_line_.resize(tpb_);
        warp_calls_.resize(tpb_);
    }
}

void ModelEmulator::run_blocks(uint64_t first, uint64_t end) {
    for (uint64_t b = first; b < end && !result_.ended_early; ++b) {
        if (should_stop() || stopped_) {
            result_.ended_early = true;
            break;
        }
        run_block(b);
    }
}

namespace {
// [SECTION] Joining ranges run apart (absorb) and the result (finish)
bool touched(const Hazard& h) { return h.last_writer != kNone || h.last_reader != kNone; }

// What a later range did to an element it touched (`written`: it wrote it), as Storage::joined keeps it.
uint8_t joined_flags(const Hazard& t, bool written) {
    return uint8_t(t.flags() | kJoinedTouched | (written ? kJoinedWritten : 0));
}

// f(first, end) for each chunk [first, end) of a part that a range touched (`touched`, its
// Storage::touched), until f returns false (then so does for_chunks_of_part): the chunks are
// dealt to the parts in turn, so that each part has its share of the elements a range touched,
// wherever they lie.
template <class F>
bool for_chunks_of_part(uint64_t size, const std::vector<uint8_t>& touched, unsigned part, unsigned parts, const F& f) {
    constexpr uint64_t kChunk = uint64_t(1) << kTouchedChunkShift;
    for (uint64_t first = part * kChunk; first < size; first += parts * kChunk)
        if (touched[first >> kTouchedChunkShift] && !f(first, std::min(size, first + kChunk))) return false;
    return true;
}

// f(i) for each element index i of those chunks, until f returns false.
template <class F>
bool for_part(uint64_t size, const std::vector<uint8_t>& touched, unsigned part, unsigned parts, const F& f) {
    return for_chunks_of_part(size, touched, part, parts, [&f](uint64_t first, uint64_t end) {
        for (uint64_t i = first; i < end; ++i)
            if (!f(i)) return false;
        return true;
    });
}

// Threads joined however the scope ends: one that cannot be started throws, and the threads
// started before it must not be left joinable (std::terminate).
struct JoinedThreads {
    std::vector<std::thread> threads;
    ~JoinedThreads() {
        for (std::thread& t : threads)
            if (t.joinable()) t.join();
    }
};

// f(part) for each part, each on a thread of its own (part 0 on the caller's): absorb's passes
// over every element of every array, which would otherwise keep the other cores waiting.
template <class F>
void in_parts(unsigned parts, const F& f) {
    JoinedThreads started;
    for (unsigned p = 1; p < parts; ++p) started.threads.emplace_back(f, p);
    f(0);
}

// Adds a later range's out-of-bounds records to these.
void join_past(Storage& mine, const Storage& theirs) {
    if (theirs.past.size() > mine.past.size()) mine.past.resize(theirs.past.size());
    for (size_t k = 0; k < theirs.past.size(); ++k) {
        PastRecord& m = mine.past[k];
        const PastRecord& t = theirs.past[k];
        m.first_writer = std::min(m.first_writer, t.first_writer);
        m.writes += t.writes;
        m.first_reader = std::min(m.first_reader, t.first_reader);
        m.reads += t.reads;
    }
    mine.past_elsewhere += theirs.past_elsewhere;
}
}  // namespace

// Serially, `later`'s blocks would have found the state of this run and of the ranges joined
// to it where `later` found a fresh one. Where it touched an element none of them wrote, and
// wrote none they touched, that state makes no difference (the checks look at writers, and at
// readers only of the running block); so its records add to these and its values are the ones
// it wrote. Where all only added into an integer element with atomicAdd, and the body never
// looks at what an atomic returns, the order of the adds makes no difference either: the
// element holds the joined value plus what `later` added. `earlier`: the HazardFlags of the
// element here and of the ranges joined before, OR-ed.
bool ModelEmulator::sums_join(size_t a, uint8_t earlier, uint8_t theirs) const {
    // CUDA's integer atomicAdd takes 4- and 8-byte integers.
    return spec_.atomic_results_unused && !value_is_float(spec_.arrays[a].type) && arrays_[a].bytes >= 4 &&
           !((earlier | theirs) & kNotSummed);
}

bool ModelEmulator::joins(const ModelEmulator& later, unsigned part, unsigned parts) const {
    for (size_t a = 0; a < arrays_.size(); ++a) {
        if (arrays_[a].shared || arrays_[a].untracked) continue;  // an input's reads always join
        const Storage& mine = arrays_[a];
        const Storage& theirs = later.arrays_[a];
        const bool all_join =
            for_chunks_of_part(mine.size, theirs.touched, part, parts, [&](uint64_t first, uint64_t end) {
                if (mine.fresh_chunk(first >> kTouchedChunkShift)) return true;  // nothing there theirs could meet
                for (uint64_t i = first; i < end; ++i) {
                    const Hazard &t = theirs.hazards[i], m = mine.state(i);
                    if (!touched(t)) continue;
                    const uint8_t joined = mine.joined.empty() ? 0 : mine.joined[i];
                    const bool written = m.last_writer != kNone || (joined & kJoinedWritten);
                    const bool earlier = touched(m) || (joined & kJoinedTouched);
                    if ((written || (t.last_writer != kNone && earlier)) &&
                        !sums_join(a, m.flags() | joined, t.flags()))
                        return false;
                }
                return true;
            });
        if (!all_join) return false;
    }
    return true;
}

// A later range's record of an element added to this run's.
static void join_record(ElementRecord& r, const ElementRecord& theirs) {
    r.first_writer = std::min(r.first_writer, theirs.first_writer);
    r.writers += theirs.writers;
    r.stores += theirs.stores;
    r.first_reader = std::min(r.first_reader, theirs.first_reader);
    r.readers += theirs.readers;
}

void ModelEmulator::join_elements(const ModelEmulator& later, unsigned part, unsigned parts) {
    for (size_t a = 0; a < arrays_.size(); ++a) {
        if (arrays_[a].shared) continue;
        Storage& mine = arrays_[a];
        const Storage& theirs = later.arrays_[a];
        const uint32_t bits = 8 * mine.bytes;
        const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
        const bool sums = sums_join(a, 0, 0);  // this array's elements may join by adding
        for_chunks_of_part(mine.size, theirs.touched, part, parts, [&](uint64_t first, uint64_t end) {
            if (mine.untracked) {  // read only: the values stand, the records add up
                if (mine.keeps_records)
                    for (uint64_t i = first; i < end; ++i) join_record(mine.records[i], theirs.records[i]);
                return true;
            }
            if (mine.fresh_chunk(first >> kTouchedChunkShift)) {
                take_chunk(mine, theirs, first, end);
                return true;
            }
            for (uint64_t i = first; i < end; ++i) join_element(a, mine, theirs, i, mask, sums);
            return true;
        });
    }
}

// A later range's element joined to this run's, where its chunk was touched here or by a range
// joined before (absorb's rules above).
void ModelEmulator::join_element(size_t a, Storage& mine, const Storage& theirs, uint64_t i, uint64_t mask,
                                 bool sums) const {
    const Hazard& t = theirs.hazards[i];
    if (!touched(t)) return;
    if (mine.keeps_records) join_record(mine.records[i], theirs.records[i]);
    const uint8_t joined = mine.joined[i];
    const Hazard m = mine.state(i);
    if (sums && (touched(m) || (joined & kJoinedTouched)) && sums_join(a, m.flags() | joined, t.flags()))
        mine.put(i, (mine.get(i) + theirs.get(i) - element_bits(theirs.start, theirs.words, i)) & mask);
    else if (t.last_writer != kNone)
        mine.put(i, theirs.get(i));
    mine.joined[i] = uint8_t(joined | joined_flags(t, t.last_writer != kNone));
}

// A chunk neither this run nor a range joined before touched: what the later range did there is
// what the launch did (its records, the values it wrote), with nothing to join: increment's
// ranges meet in one chunk at most. Through pointers read once (a store into one array would
// otherwise have the others' looked up again) and a constant count of words per element: 18
// instructions per element where the element-by-element join took 70 (`check --kernel increment
// --n 1048576`, cachegrind).
void ModelEmulator::take_chunk(Storage& mine, const Storage& theirs, uint64_t first, uint64_t end) {
    const auto take = [&]<uint32_t kWords>() {
        const Hazard* states = theirs.hazards.data();
        const ElementRecord* records = mine.keeps_records ? theirs.records.data() : nullptr;
        ElementRecord* kept = mine.records.data();
        uint8_t* joined = mine.joined.data();
        const uint32_t* values = theirs.bits.data();
        uint32_t* taken = mine.bits.data();
        for (uint64_t i = first; i < end; ++i) {
            const Hazard& t = states[i];
            if (!touched(t)) continue;
            if (records) kept[i] = records[i];
            const bool written = t.last_writer != kNone;
            if (written)
                for (uint32_t w = 0; w < kWords; ++w) taken[i * kWords + w] = values[i * kWords + w];
            joined[i] = joined_flags(t, written);
        }
    };
    if (mine.words == 1)
        take.template operator()<1>();
    else
        take.template operator()<2>();
}

void ModelEmulator::take_state(const ModelEmulator& later) {
    for (size_t a = 0; a < arrays_.size(); ++a) {
        // An input has no state, and who was counted last on its elements matters only within a
        // block: the blocks that run on here are others.
        if (arrays_[a].shared || arrays_[a].untracked) continue;
        Storage& mine = arrays_[a];
        const Storage& theirs = later.arrays_[a];
        for_part(theirs.size, theirs.touched, 0, 1, [&](uint64_t i) {
            const Hazard& t = theirs.hazards[i];
            if (!touched(t)) return true;
            mine.touched[i >> kTouchedChunkShift] = 1;
            if (mine.keeps_records) mine.counted[i] = theirs.counted[i];
            const uint8_t flags = mine.hazards[i].flags();
            mine.hazards[i] = t;
            mine.hazards[i].add_flags(flags);
            if (!mine.phases.empty()) mine.phases[i] = theirs.phases[i];
            return true;
        });
    }
}

bool ModelEmulator::absorb(ModelEmulator& later, unsigned parts) {
    add_touching();
    later.add_touching();
    std::atomic<bool> joined{true};
    in_parts(parts, [&](unsigned part) {
        if (!joins(later, part, parts)) joined = false;
    });
    if (!joined) return false;
    for (Storage& s : arrays_)
        if (!s.shared && s.joined.empty()) {
            if (!s.untracked) s.joined = ZeroedBuffer<uint8_t>(s.size);
            s.joined_touched.assign(s.touched.size(), 0);
        }
    in_parts(parts, [&](unsigned part) { join_elements(later, part, parts); });
    for (size_t a = 0; a < arrays_.size(); ++a) {
        if (!arrays_[a].shared)
            for (size_t c = 0; c < arrays_[a].touched.size(); ++c)
                arrays_[a].joined_touched[c] |= later.arrays_[a].touched[c];
        threads_touching_[a][0] += later.threads_touching_[a][0];
        threads_touching_[a][1] += later.threads_touching_[a][1];
        if (!arrays_[a].shared) join_past(arrays_[a], later.arrays_[a]);
        arrays_[a].flagged = arrays_[a].flagged || later.arrays_[a].flagged;
    }
    for (Finding& f : later.result_.findings) {
        if (result_.findings.size() >= ModelResult::kMaxListedFindings) break;
        result_.findings.push_back(std::move(f));
    }
    for (size_t k = 0; k < kFindingKinds; ++k) result_.counts[k] += later.result_.counts[k];
    inline_.accesses += later.inline_.accesses;
    result_.phases = std::max(result_.phases, later.result_.phases);
    result_.ended_early = later.result_.ended_early;
    if (later.result_.diverged) result_.diverged = std::move(later.result_.diverged);
    for (uint32_t id : later.result_.undefined_shuffles)
        if (result_.undefined_shuffles.size() < ModelResult::kMaxUndefinedShuffles)
            result_.undefined_shuffles.push_back(id);
    ++result_.block_ranges;
    stopped_ = stopped_ || later.stopped_;
    if (!later.shared_kept_.empty()) shared_kept_ = std::move(later.shared_kept_);
    return true;
}

ModelResult ModelEmulator::finish() {
    add_touching();
    for (size_t a = 0; a < arrays_.size(); ++a) {
        ArrayResult r;
        if (!arrays_[a].shared) {
            r.shape = arrays_[a].shape;
            r.bits = std::move(arrays_[a].bits);
            // The records are the result's as they are; the found bits come from the ordering
            // state, which then goes.
            r.records = std::move(arrays_[a].records);
            const Storage& s = arrays_[a];
            const uint64_t found = record_elements_ ? s.size : 0;  // an input's: all zero
            reserve_huge(r.found, found);
            r.found.resize(found);
            if (s.flagged)
                for (size_t i = 0; i < s.hazards.size(); ++i) r.found[i] = found_bits(s.reported(i));
            arrays_[a].hazards = {};
            arrays_[a].joined = {};
            arrays_[a].phases = {};
            arrays_[a].counted = {};
            r.past = std::move(arrays_[a].past);
            r.past_elsewhere = arrays_[a].past_elsewhere;
        } else if (a < shared_kept_.size()) {
            r = std::move(shared_kept_[a]);
        }
        if (record_elements_) {
            r.threads_writing = threads_touching_[a][0];
            r.threads_reading = threads_touching_[a][1];
        }
        result_.arrays.push_back(std::move(r));
    }
    if (requests_) result_.memory = requests_->finish();
    result_.accesses = inline_.accesses;
    return std::move(result_);
}

// [SECTION] ModelThread: what a body calls
void ModelThread::syncthreads(int line) { emulator_->barrier(*this, line); }
uint32_t ModelThread::syncthreads_count(int line, bool predicate) { return emulator_->barrier(*this, line, predicate); }
uint64_t ModelThread::warp(const WarpCall& call) { return emulator_->warp(*this, call); }

bool ModelThread::first_in_block(size_t array, uint64_t index, uint32_t counted, bool write) {
    return emulator_->first_in_block(array, index, counted, global_id_, write);
}

uint64_t ModelThread::emulator_load(size_t array, uint64_t index, int line) {
    return emulator_->access(*this, array, index, line, true, false, false, 0);
}

void ModelThread::emulator_store(size_t array, uint64_t index, uint64_t bits, int line) {
    emulator_->access(*this, array, index, line, false, true, false, bits);
}

void ModelThread::load_vector_bits(size_t array, uint64_t index, uint32_t width, uint64_t* bits, int line) {
    for (uint32_t k = 0; k < width; ++k)
        bits[k] = emulator_->access(*this, array, index + k, line, true, false, false, 0, k == 0 ? width : 0);
}

void ModelThread::store_vector_bits(size_t array, uint64_t index, uint32_t width, const uint64_t* bits, int line) {
    for (uint32_t k = 0; k < width; ++k)
        emulator_->access(*this, array, index + k, line, false, true, false, bits[k], k == 0 ? width : 0);
}

uint64_t ModelThread::emulator_atomic(size_t array, uint64_t index, AtomicOp op, bool is_float, uint64_t operand,
                                      uint64_t compare, int line) {
    // The new value needs the old one: read it without recording, then record one atomic access.
    uint64_t next = operand;
    if (index < emulator_->size(array)) {
        const uint64_t old = emulator_->peek(array, index);
        const uint32_t bytes = emulator_->element_bytes(array);
        next = bytes == 8 ? atomic_result<uint64_t>(op, is_float, old, operand, compare)
               : bytes == 2
                   ? atomic_result<uint16_t>(op, is_float, uint16_t(old), uint16_t(operand), uint16_t(compare))
                   : atomic_result<uint32_t>(op, is_float, uint32_t(old), uint32_t(operand), uint32_t(compare));
    }
    return emulator_->access(*this, array, index, line, true, true, true, next, 1, op == AtomicOp::Add && !is_float);
}

// [SECTION] Launch checks
Outcome<void> check_model_arrays(const ModelLaunch& model_launch) {
    const KernelSpec& spec = *model_launch.spec;
    if (model_launch.params.size() != spec.params.size())
        return failed("kernel " + spec.name + ": wrong parameter count");
    for (size_t i = 0; i < spec.params.size(); ++i) {
        const ParamSpec& p = spec.params[i];
        if (model_launch.params[i] < p.min || model_launch.params[i] > p.max)
            return failed("--" + p.name + " must be from " + std::to_string(p.min) + " to " + std::to_string(p.max) +
                          ", not " + std::to_string(model_launch.params[i]));
    }
    if (spec.arrays.size() > kMaxModelArrays)
        return failed("kernel " + spec.name + " has " + std::to_string(spec.arrays.size()) +
                      " arrays; the kernel model takes " + std::to_string(kMaxModelArrays));
    const uint64_t elements = global_elements(spec, model_launch.params, model_launch.launch);
    if (elements > kMaxModelElements)
        return failed("the arrays have " + std::to_string(elements) +
                      " elements in all; the kernel model records at most " + std::to_string(kMaxModelElements) +
                      " (up to 64 bytes each)");
    return done();
}

Outcome<void> check_model_launch(const ModelLaunch& model_launch) {
    const KernelSpec& spec = *model_launch.spec;
    // The arrays first: a grid that covers them is as large as they are, so an invalid grid
    // derived from arrays too large for the model would hide the real problem.
    if (const Outcome<void> problem = check_model_arrays(model_launch); !problem.done()) return problem;
    if (const auto e = validate_launch(model_launch.launch, cc90_profile())) return failed(describe(*e));
    const uint64_t threads = model_launch.launch.blocks() * model_launch.launch.threads_per_block();
    if (threads > EmulatorCaps{}.max_threads)
        return failed("the launch has " + std::to_string(threads) + " threads; the emulator runs at most " +
                      std::to_string(EmulatorCaps{}.max_threads));
    const uint64_t shared = shared_bytes_per_block(spec, model_launch.params, model_launch.launch.block);
    if (shared > kSharedBytesPerBlock) {
        // Static arrays too large fail to compile; a launch's dynamic ones fail to launch.
        // (A sum past 2^64 stops there: such a launch is refused, whatever its parts.)
        const uint64_t dynamic = shared_bytes_per_block(spec, model_launch.params, model_launch.launch.block, true);
        const uint64_t fixed = shared > dynamic ? shared - dynamic : 0;
        const std::string uses = "kernel " + spec.name + " uses " + std::to_string(shared) +
                                 " bytes of __shared__ memory per block with blockDim " +
                                 to_string(model_launch.launch.block);
        if (fixed > kSharedBytesPerBlock) {
            char hex[64];
            std::snprintf(hex, sizeof hex, "0x%llx bytes, 0x%llx max", (unsigned long long)fixed,
                          (unsigned long long)kSharedBytesPerBlock);
            return failed(uses + "; CUDA allows " + std::to_string(kSharedBytesPerBlock) +
                          " (ptxas: uses too much shared data (" + hex + "))");
        }
        return failed(uses + " (" + std::to_string(dynamic) + " of them dynamic, given at launch); CUDA allows " +
                      std::to_string(kSharedBytesPerBlock) +
                      " unless the program raises the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize, so the "
                      "launch fails (cudaErrorInvalidValue: invalid argument)");
    }
    return done();
}

namespace {

// [SECTION] Spreading blocks over threads, run_model
// The elements of the global arrays whose records the launch keeps.
uint64_t recorded_elements(const ModelLaunch& model_launch) {
    return model_launch.record_elements ? global_elements(*model_launch.spec, model_launch.params, model_launch.launch,
                                                          model_launch.keep_records)
                                        : 0;
}

// What each worker after the first holds: a copy of the global arrays' values, records and
// ordering states.
uint64_t copy_bytes(const ModelLaunch& model_launch) {
    return global_elements(*model_launch.spec, model_launch.params, model_launch.launch) *
               (sizeof(Hazard) + (model_launch.spec->runs_as_fibers() ? sizeof(Phases) : 0) + 4 +
                (model_launch.spec->atomic_results_unused ? 4 : 0) +  // Storage::start
                1) +  // the first run's Storage::joined (counted per worker: at most that)
           recorded_elements(model_launch) * (sizeof(ElementRecord) + sizeof(Counted));
}

// The threads a launch's blocks may be spread over (1: not spread); the copies stay within a memory budget.
unsigned model_workers(const ModelLaunch& model_launch) {
    if (model_launch.spec->one_thread_at_a_time || !model_launch.record_elements || !model_launch.record_reads ||
        model_launch.record_requests || model_launch.watch_array != SIZE_MAX)
        return 1;
    const uint64_t blocks = model_launch.launch.blocks();
    uint64_t workers = model_launch.workers;
    if (workers == 0) {
        // Starting threads and joining their records costs about a millisecond: not for small launches.
        if (blocks * model_launch.launch.threads_per_block() < (uint64_t(1) << 12)) return 1;
        workers = std::clamp<uint64_t>(std::thread::hardware_concurrency(), 1, 8);
    }
    constexpr uint64_t kCopyBudgetBytes = uint64_t(1) << 30;
    while (workers > 1 && (workers - 1) * copy_bytes(model_launch) > kCopyBudgetBytes) --workers;
    return unsigned(std::min(workers, blocks));
}

// A copy this small is made beside the first blocks that say whether spreading pays, and thrown
// away when it does not: a few milliseconds of first touches on this project's VM, which a
// tiled-matmul lesson's picture (60 ms) waited for after those blocks. A larger one waits to be
// needed (increment over 16M elements: 64 MB of values, which it seldom is).
constexpr uint64_t kCopyMadeBesideBytes = uint64_t(16) << 20;

// Spreading pays when the launch makes enough accesses per global element. With per-element
// records, a range's records (20 bytes each, not zero) are filled for every element of the
// arrays that keep them and joined:
// that costs what a few dozen accesses do (increment over 16M elements, two accesses each, at
// the records level: 0.86 s spread over two cores against 0.56 s on one, model-bench levels).
// Without, a range's state costs only where it touched (zero pages until then), and the join,
// spread too, walks its elements once more: increment at the findings level took 0.34 s
// end to end spread against 0.42 s on one (`map --kernel increment --n 16777216 --format json`).
constexpr uint64_t kSpreadAccessesPerElementWithRecords = 32;

// Whether spreading pays, from the first `sampled` blocks of the first range (run by `first`):
// they say how many accesses the launch will make (the blocks of a launch run one body).
bool spreading_pays(const ModelLaunch& model_launch, const ModelEmulator& first, uint64_t sampled) {
    const double expected = double(first.accesses()) * double(model_launch.launch.blocks()) / double(sampled);
    const double elements = double(global_elements(*model_launch.spec, model_launch.params, model_launch.launch));
    // Blocks that add into shared global results with atomics (a histogram's bins) make every
    // later range touch what an earlier one wrote: the ranges would run again on one thread
    // after the joined ones (occupancy-shared-memory's histogram: 286 ms spread, 212 ms not).
    // Unless the adds join by adding (KernelSpec::atomic_results_unused).
    return expected >=
               elements + double(kSpreadAccessesPerElementWithRecords - 1) * double(recorded_elements(model_launch)) &&
           !(first.shared_by_atomics() && !model_launch.spec->atomic_results_unused);
}

// The blocks within the kernel's covering grid `cover` among the first `end` of the launch
// (linear index, x fastest, then y, then z).
uint64_t covered_blocks_before(const LaunchConfig& launch, const Dim3& cover, uint64_t end) {
    const Dim3& grid = launch.grid;
    const uint64_t cx = std::min(cover.x, grid.x), cy = std::min(cover.y, grid.y), cz = std::min(cover.z, grid.z);
    const uint64_t x = end % grid.x, y = end / grid.x % grid.y, z = end / grid.x / grid.y;
    uint64_t covered = std::min(z, cz) * cy * cx;
    if (z < cz) covered += std::min(y, cy) * cx + (y < cy ? std::min(x, cx) : 0);
    return covered;
}

// What a block within the kernel's covering grid weighs against one outside it, from the first
// `sampled` blocks of the launch (run by `first`): 1 + the accesses a covered thread made there,
// a thread outside costing about one access (its body's call and guard). A grid larger than its
// data has its work in its covered blocks (the tutorial's matmul covers its 200×200 C with 16×16
// blocks of 32×32 threads: its work is in 49 of them, all in the first half, some 400 accesses a
// thread), and equal counts of blocks would leave a core with none of it; a light kernel's
// uncovered blocks (increment: two accesses a covered thread) still cost a third of a covered one.
uint64_t covered_block_weight(const ModelLaunch& model_launch, const ModelEmulator& first, uint64_t sampled) {
    if (!model_launch.spec->covering_grid) return 1;
    const Dim3 cover = model_launch.spec->covering_grid(model_launch.params, model_launch.launch.block);
    const uint64_t covered = covered_blocks_before(model_launch.launch, cover, sampled);
    if (covered == 0) return 1;
    constexpr uint64_t kMostWeight = uint64_t(1) << 20;  // blocks × weight × ranges stays far within 64 bits
    return 1 + std::min(kMostWeight, first.accesses() / (covered * model_launch.launch.threads_per_block()));
}

}  // namespace

std::vector<uint64_t> model_range_starts(const ModelLaunch& model_launch, unsigned ranges, uint64_t covered_weight) {
    const uint64_t blocks = model_launch.launch.blocks();
    std::vector<uint64_t> starts(ranges + 1, blocks);
    for (unsigned r = 0; r < ranges; ++r) starts[r] = blocks * r / ranges;
    if (covered_weight <= 1 || ranges == 1 || !model_launch.spec->covering_grid) return starts;
    const Dim3 cover = model_launch.spec->covering_grid(model_launch.params, model_launch.launch.block);
    const uint64_t covered = covered_blocks_before(model_launch.launch, cover, blocks);
    if (covered == blocks || covered == 0) return starts;
    const auto weight_before = [&](uint64_t b) {
        const uint64_t c = covered_blocks_before(model_launch.launch, cover, b);
        return c * covered_weight + (b - c);
    };
    const uint64_t total = weight_before(blocks);
    for (unsigned r = 1; r < ranges; ++r) {
        uint64_t low = starts[r - 1], high = blocks;  // the first block whose weight before reaches r/ranges
        while (low < high) {
            const uint64_t mid = low + (high - low) / 2;
            if (weight_before(mid) * ranges >= total * r)
                high = mid;
            else
                low = mid + 1;
        }
        starts[r] = std::min(blocks, std::max(low, starts[r - 1] + 1));
    }
    return starts;
}

namespace {

// The ranges' starts weighed by the first `sampled` blocks (run by `first`), which stay in the
// first range.
std::vector<uint64_t> weighed_starts(const ModelLaunch& model_launch, unsigned workers, const ModelEmulator& first,
                                     uint64_t sampled) {
    std::vector<uint64_t> starts =
        model_range_starts(model_launch, workers, covered_block_weight(model_launch, first, sampled));
    for (unsigned w = 1; w < workers; ++w) starts[w] = std::max(starts[w], w == 1 ? sampled : starts[w - 1]);
    return starts;
}

// Whether a spread run's other workers run their ranges, told once. An atomic waited on, not a
// std::promise: a promise's shared state is polymorphic, and UBSan's check of its dynamic type
// opens a pipe, which the sandboxed run of a learner's kernel may not (the sanitizer build's
// kernel host died of SIGSYS).
class SpreadDecision {
  public:
    // Tells the workers no as it goes, unless they were told: made after their threads, it goes
    // before they are joined when a throw unwinds, so that they end.
    struct NoUnlessTold {
        SpreadDecision& decision;
        ~NoUnlessTold() { decision.tell(false); }
    };
    void tell(bool spread) {
        int untold = kUntold;
        if (state_.compare_exchange_strong(untold, spread ? 1 : 0)) state_.notify_all();
    }
    bool wait() const {
        state_.wait(kUntold);
        return state_.load() == 1;
    }

  private:
    static constexpr int kUntold = -1;
    std::atomic<int> state_{kUntold};
};

// Whether a spread launch is within its access cap, by what a one-thread run would have made: the
// ranges in order, up to the first that ended the launch (a divergent barrier) where one did.
// Unknown: a range before that one stopped at the cap counted with the ranges after it, which a
// one-thread run never reaches — it says which comes first.
enum class CapVerdict { Within, Over, Unknown };
CapVerdict cap_verdict(const std::vector<std::unique_ptr<ModelEmulator>>& runs, unsigned used, uint64_t max) {
    const auto ended_launch = [](const auto& run) { return run->ended_early() && !run->capped(); };
    uint64_t made = 0;
    if (std::none_of(runs.begin(), runs.begin() + used, ended_launch)) {
        for (unsigned w = 0; w < used; ++w) made += runs[w]->accesses();
        return made > max ? CapVerdict::Over : CapVerdict::Within;
    }
    for (unsigned w = 0;; ++w) {
        made += runs[w]->accesses();
        if (made > max) return CapVerdict::Over;
        if (runs[w]->capped()) return CapVerdict::Unknown;
        if (ended_launch(runs[w])) return CapVerdict::Within;
    }
}

// A launch stopped at its access cap (ModelLaunch::max_accesses), as run_model says so.
Outcome<ModelResult> past_access_cap(const ModelLaunch& model_launch) {
    return {std::nullopt, "the launch makes more than " + std::to_string(model_launch.max_accesses) +
                              " loads and stores; the kernel model stops there (at about 10 ns each): choose a "
                              "smaller shape or grid"};
}

// The launch's result from the `used` ranges' runs (within the cap), absorbed into the first's
// in order up to a range that ended the launch; from the first range that cannot join on, the
// blocks run on the first's thread, one after another.
Outcome<ModelResult> joined(const ModelLaunch& model_launch, std::vector<std::unique_ptr<ModelEmulator>>& runs,
                            const std::vector<uint64_t>& starts, unsigned used) {
    for (unsigned w = 0; w < used; ++w) runs[w]->count_accesses_in(nullptr);  // absorb adds up their own
    for (unsigned w = 1; w < used && !runs[0]->ended_early(); ++w) {
        if (runs[0]->absorb(*runs[w], used)) continue;
        for (unsigned v = 1; v < w; ++v) runs[0]->take_state(*runs[v]);
        runs[0]->run_blocks(starts[w], model_launch.launch.blocks());
        break;
    }
    if (runs[0]->accesses() > model_launch.max_accesses) return past_access_cap(model_launch);
    return {runs[0]->finish(), {}};
}

Outcome<ModelResult> run_blocks_spread(const ModelLaunch& model_launch, const std::atomic<bool>* cancel) {
    const unsigned workers = model_workers(model_launch);
    const uint64_t blocks = model_launch.launch.blocks();
    std::vector<std::unique_ptr<ModelEmulator>> runs;
    std::atomic<uint64_t> launch_accesses{0};
    for (unsigned w = 0; w < workers; ++w) {
        runs.push_back(std::make_unique<ModelEmulator>(model_launch));
        runs.back()->count_accesses_in(&launch_accesses);
    }
    // Equal counts of blocks, until the first blocks say what a covered one weighs.
    std::vector<uint64_t> starts = model_range_starts(model_launch, workers, 1);
    // The other workers set up (their copies of the arrays, their fibers' stacks), beside the first
    // blocks of the first range where their copies are small, which say whether spreading pays
    // (unless the launch says how many workers); they run their ranges once told it does.
    std::vector<std::exception_ptr> errors(workers);
    SpreadDecision spread;
    JoinedThreads started;
    const SpreadDecision::NoUnlessTold no_unless_told{spread};
    const bool beside = copy_bytes(model_launch) <= kCopyMadeBesideBytes;
    for (unsigned w = 1; w < workers; ++w)
        started.threads.emplace_back([&, w] {
            try {
                if (!beside && !spread.wait()) return;
                runs[w]->setup(cancel, true);
                if (spread.wait()) runs[w]->run_blocks(starts[w], starts[w + 1]);
            } catch (...) {
                errors[w] = std::current_exception();
            }
        });
    runs[0]->setup(cancel);
    uint64_t sampled = 0;
    if (workers > 1 && model_launch.workers == 0) {
        sampled = std::max<uint64_t>(1, starts[1] / 32);
        runs[0]->run_blocks(0, sampled);
    }
    const bool spreads = workers > 1 && (sampled == 0 || spreading_pays(model_launch, *runs[0], sampled));
    if (spreads && sampled > 0) starts = weighed_starts(model_launch, workers, *runs[0], sampled);  // read once told
    spread.tell(spreads);
    try {
        runs[0]->run_blocks(sampled, spreads ? starts[1] : blocks);
    } catch (...) {
        errors[0] = std::current_exception();
    }
    for (std::thread& t : started.threads) t.join();
    const unsigned used = spreads ? workers : 1;
    for (unsigned w = 0; w < used; ++w)  // an unused worker's failure is no loss
        if (errors[w]) std::rethrow_exception(errors[w]);
    switch (cap_verdict(runs, used, model_launch.max_accesses)) {
        case CapVerdict::Over:
            return past_access_cap(model_launch);
        case CapVerdict::Unknown: {
            ModelLaunch alone = model_launch;
            alone.workers = 1;
            return run_blocks_spread(alone, cancel);
        }
        case CapVerdict::Within:
            break;
    }
    return joined(model_launch, runs, starts, used);
}

}  // namespace

Outcome<ModelResult> run_model(const ModelLaunch& model_launch, const std::atomic<bool>* cancel) {
    if (model_launch.spec->run_apart) {
        if (const Outcome<void> problem = check_model_launch(model_launch); !problem.done())
            return {std::nullopt, problem.error};
        return model_launch.spec->run_apart(model_launch, cancel);
    }
    return run_model_here(model_launch, cancel);
}

Outcome<ModelResult> run_model_here(const ModelLaunch& model_launch, const std::atomic<bool>* cancel) {
    if (const Outcome<void> problem = check_model_launch(model_launch); !problem.done())
        return {std::nullopt, problem.error};
    // What the fibers throw is caught on their stacks and rethrown here, on the caller's: it
    // ends as a failure of its kind, never as an exception out of the kernel model.
    Outcome<ModelResult> run{std::nullopt, {}};
    try {
        try {
            run = run_blocks_spread(model_launch, cancel);
        } catch (const ModelEmulator::InputWritten&) {
            ModelLaunch tracked = model_launch;
            tracked.inputs_tracked = true;
            run = run_blocks_spread(tracked, cancel);
        }
    } catch (const std::bad_alloc&) {
        return failed("kernel " + model_launch.spec->name +
                          " ran out of memory: its arrays and the kernel model's "
                          "records (up to 64 bytes per element) do not fit",
                      Failure::Unsupported);
    } catch (const std::exception& e) {
        return failed("kernel " + model_launch.spec->name + " stopped: " + e.what(), Failure::Internal);
    }
    if (cancel && cancel->load()) return cancellation();
    if (!run.value) return run;
    ModelResult& result = *run.value;
    // Listed by kind (out of bounds, races, hazards, uninitialised reads, divergent barriers),
    // each kind in the order the threads ran.
    std::stable_sort(result.findings.begin(), result.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.kind < b.kind; });
    return run;
}

}  // namespace threadmap
