// CPU emulator; see cpu_emulator.hpp.
//
// Sections: 1. memory access policies  2. running a range of blocks  3. the parallel driver
//
// Blocks are split into contiguous ranges, one per worker. Each worker visits its blocks and
// threads in increasing global linear id, so the first time a worker writes an element, that
// thread is the worker's smallest toucher. Workers write the map without locks; each also
// marks the elements it wrote in a private bitmap. If two bitmaps share a bit, two workers
// wrote one element and their unsynchronised updates may have raced: the launch is re-run on
// one worker, which is exact by construction.
#include "kernels/emulator/cpu_emulator.hpp"

#include "kernels/core/emulator_caps.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cassert>
#include <thread>
#include <type_traits>
#include <vector>

#include "kernels/core/array_views.hpp"
#include "kernels/builtin/kernel_bodies.hpp"

namespace threadmap {

namespace {

// ---- 1. memory access policies ------------------------------------------------------------

// Relaxed atomics compile to plain moves; they keep the (detected, discarded) racing run of
// a conflicting launch free of undefined behaviour.
template <class T>
T relaxed_load(T& x) {
    return std::atomic_ref<T>(x).load(std::memory_order_relaxed);
}
template <class T>
void relaxed_store(T& x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_relaxed);
}

struct WorkerTally {
    uint64_t active = 0;    // threads that wrote at least one element
    uint64_t distinct = 0;  // elements written (by this worker) at least once
    uint64_t multi = 0;     // elements written by more than one thread
};

// The output array's access: every store records the writing thread in the map. Without values
// (the writers level) loads read zeros and stores keep only who wrote: the body's arithmetic is
// then dead code the compiler drops, which leaves a matmul's map the cost of its stores.
template <bool kTrackOwnership, bool kValues>
class RecordingAccess {
  public:
    RecordingAccess(uint32_t* first, uint32_t* touches, uint64_t* owned)
        : first_(first), touches_(touches), owned_(owned) {}

    void begin_thread(uint64_t global_id) {
        gid_ = uint32_t(global_id);
        last_ = kNone;
    }
    void end_thread() { tally.active += last_ != kNone; }

    template <class T>
    T load(T* base, uint64_t i) {
        if constexpr (kValues) return relaxed_load(base[i]);
        return T{};
    }
    template <class T>
    void store(T* base, uint64_t i, T value) {
        record(i);
        if constexpr (kValues) relaxed_store(base[i], value);
    }

    WorkerTally tally;

  private:
    static constexpr uint64_t kNone = ~uint64_t(0);

    void record(uint64_t e) {
        // A thread storing to one element again counts once (the tutorial's matmul stores
        // C[i,j] in every k-step); none of our kernels comes back to an element it left.
        if (e == last_) return;
        last_ = e;
        if constexpr (kTrackOwnership) owned_[e >> 6] |= uint64_t(1) << (e & 63);
        const uint32_t seen = relaxed_load(touches_[e]);
        if (seen == 0) {
            relaxed_store(first_[e], gid_);
            ++tally.distinct;
        } else if (seen == 1) {
            ++tally.multi;
        }
        relaxed_store(touches_[e], seen + 1);
    }

    uint32_t* first_;
    uint32_t* touches_;
    uint64_t* owned_;
    uint32_t gid_ = 0;
    uint64_t last_ = kNone;
};

// Inputs are only read, by everyone: plain loads (zeros without values).
template <bool kValues>
struct ReadOnlyAccess {
    template <class T>
    T load(const T* base, uint64_t i) const {
        if constexpr (kValues) return base[i];
        return T{};
    }
};

// ---- 2. running a range of blocks ---------------------------------------------------------

// A cancelled run stops at its next block (a block is at most 1,024 threads).
template <class Access, class Body>
void run_blocks(const LaunchConfig& launch, uint64_t first_block, uint64_t end_block, Access& access, const Body& body,
                const std::atomic<bool>* cancel) {
    ThreadContext c;
    c.blockDim = launch.block;
    c.gridDim = launch.grid;
    const uint64_t tpb = launch.threads_per_block();
    for (uint64_t b = first_block; b < end_block; ++b) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return;
        c.blockIdx = unlinearize(b, launch.grid);
        uint64_t gid = b * tpb;
        for (uint32_t z = 0; z < launch.block.z; ++z)
            for (uint32_t y = 0; y < launch.block.y; ++y)
                for (uint32_t x = 0; x < launch.block.x; ++x) {
                    c.threadIdx = {x, y, z};
                    access.begin_thread(gid++);
                    body(c);
                    access.end_thread();
                }
    }
}

template <bool kTrackOwnership, bool kValues>
WorkerTally run_worker(const Workload& workload, const LaunchConfig& launch, KernelData& d, ThreadMap& map,
                       uint64_t* owned, uint64_t first_block, uint64_t end_block, const std::atomic<bool>* cancel) {
    using Out = RecordingAccess<kTrackOwnership, kValues>;
    using In = ReadOnlyAccess<kValues>;
    Out out(map.first_toucher.data(), map.touches.data(), owned);
    In in;
    const auto run = [&](const auto& body) { run_blocks(launch, first_block, end_block, out, body, cancel); };

    [[maybe_unused]] const bool ran = visit_fast_body(workload.kernel, [&](auto body) {
        if constexpr (decltype(body)::kernel.family == FastFamily::Matrix) {
            const MatrixView<const float, In> A(d.a.data(), workload.a_rows, workload.inner, &in);
            const MatrixView<const float, In> B(d.b.data(), workload.inner, workload.b_cols, &in);
            const MatrixView<float, Out> C(d.out.data(), workload.rows, workload.cols, &out);
            run([&](const ThreadContext& c) { body(c, A, B, C); });
        } else {
            const ArrayView<float, Out> a(d.out.data(), map.size(), &out);
            run([&](const ThreadContext& c) { body(c, a); });
        }
    });
    assert(ran && "the fast emulator runs kernels with a fast body: the model draws the others");
    return out.tally;
}

// ---- 3. the parallel driver ---------------------------------------------------------------

// Runs [0, blocks) on `workers` threads; returns false when two workers wrote one element.
template <bool kValues>
bool run_parallel(const Workload& workload, const LaunchConfig& launch, KernelData& d, ThreadMap& map, unsigned workers,
                  std::vector<WorkerTally>& tallies, const std::atomic<bool>* cancel) {
    const uint64_t words = (map.size() + 63) / 64;
    ZeroedBuffer<uint64_t> owned(words * workers);
    const uint64_t blocks = launch.blocks();
    tallies.assign(workers, {});
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 0; i < workers; ++i) {
            pool.emplace_back([&, i] {
                tallies[i] = run_worker<true, kValues>(workload, launch, d, map, owned.data() + i * words,
                                                       blocks * i / workers, blocks * (i + 1) / workers, cancel);
            });
        }
    }
    for (uint64_t k = 0; k < words; ++k) {
        uint64_t seen = 0;
        for (unsigned i = 0; i < workers; ++i) {
            const uint64_t bits = owned[i * words + k];
            if (seen & bits) return false;
            seen |= bits;
        }
    }
    return true;
}

void clear_map(ThreadMap& map, const LaunchConfig& launch, uint64_t elements) {
    if (map.size() != elements) {
        map = ThreadMap(launch, elements);
        return;
    }
    map.launch = launch;  // first_toucher needs no clearing: it is read only where touches > 0
    std::memset(map.touches.data(), 0, elements * sizeof(uint32_t));
}

// The data the body starts from: none without values; with them the output's starting values
// and the inputs, which depend on the workload only, so a result of the same workload keeps
// them, unless its buffers were moved out (a map refilled from another keeps that one's
// workload, and a matmul then read A and B through null pointers: a crash the monkey test found).
void prepare_data(const Workload& workload, LaunchResult& result, OutputValues values) {
    if (values == OutputValues::Skipped) {
        result.data = {};
        return;
    }
    reset_output(workload, result.data.out);
    const bool inputs_there =
        !is_matrix(workload.kernel) || (result.data.a.size() == workload.a_rows * workload.inner &&
                                        result.data.b.size() == workload.inner * workload.b_cols);
    if (!(result.workload == workload) || !inputs_there) make_inputs(workload, result.data);
}

// Runs the launch on `workers` threads, or on one when two of them wrote one element (then
// `workers` says 1); the workers' tallies.
template <bool kValues>
std::vector<WorkerTally> run_launch(const Workload& workload, const LaunchConfig& launch, LaunchResult& result,
                                    unsigned& workers, const std::atomic<bool>* cancel) {
    std::vector<WorkerTally> tallies;
    if (workers > 1 && !run_parallel<kValues>(workload, launch, result.data, result.map, workers, tallies, cancel) &&
        !(cancel && cancel->load())) {
        clear_map(result.map, launch, result.map.size());
        if constexpr (kValues) reset_output(workload, result.data.out);
        workers = 1;
    }
    if (workers == 1)
        tallies = {
            run_worker<false, kValues>(workload, launch, result.data, result.map, nullptr, 0, launch.blocks(), cancel)};
    return tallies;
}

}  // namespace

LaunchResult emulate(const Workload& workload, const LaunchConfig& launch, unsigned workers, OutputValues values) {
    LaunchResult result;
    emulate_into(workload, launch, result, workers, nullptr, values);
    return result;
}

bool emulate_into(const Workload& workload, const LaunchConfig& launch, LaunchResult& result, unsigned workers,
                  const std::atomic<bool>* cancel, OutputValues values) {
    assert(launch.blocks() > 0 && launch.threads_per_block() > 0 && "validate the launch before emulating");
    assert(check_shape(workload).done() && check_shape_caps(workload).done() &&
           check_launch_caps(workload, launch).done() && "check the shape and the emulator's caps before emulating");
    clear_map(result.map, launch, element_count(workload));
    prepare_data(workload, result, values);
    result.workload = workload;
    result.launch = launch;
    result.device_map.reset();

    if (workers == 0) workers = std::max(1u, std::thread::hardware_concurrency());
    workers = unsigned(std::min<uint64_t>({workers, launch.blocks(), 16}));
    const std::vector<WorkerTally> tallies = values == OutputValues::Computed
                                                 ? run_launch<true>(workload, launch, result, workers, cancel)
                                                 : run_launch<false>(workload, launch, result, workers, cancel);
    if (cancel && cancel->load()) return false;  // what was computed is partial: the caller throws it away
    result.workers = workers;

    result.stats = shape_stats(launch);
    result.stats.elements = result.map.size();
    uint64_t distinct = 0;
    for (const auto& t : tallies) {
        result.stats.threads_active += t.active;
        distinct += t.distinct;
        result.stats.elements_multi += t.multi;
    }
    result.stats.threads_idle = result.stats.threads_launched - result.stats.threads_active;
    result.stats.elements_untouched = result.stats.elements - distinct;
    return true;
}

}  // namespace threadmap
