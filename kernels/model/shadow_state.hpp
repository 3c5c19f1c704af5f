// The kernel model's shadow state: what it keeps per element of an array to find races and
// hazards (16 bytes, and 12 more with barriers), and the rules that read and update it on each
// plain load and store. One definition for the emulator's access path (model_emulator.cpp) and
// for the inlined one a body's plain loads and stores take (model_thread.hpp), which must give
// the same state and the same findings.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/model/element_record.hpp"

namespace threadmap::shadow {

inline constexpr uint32_t kNoThread = ~uint32_t(0);

// A thread id in memory that starts zeroed (ZeroedBuffer: the kernel hands out zero pages,
// 2 MiB at a time, for nothing until touched): the id is kept complemented, so zero bytes read
// as kNoThread. Trivial, so that zero bytes are a valid one.
class ThreadSlot {
  public:
    operator uint32_t() const { return ~stored_; }
    ThreadSlot& operator=(uint32_t id) {
        stored_ = ~id;
        return *this;
    }

  private:
    uint32_t stored_;
};

enum HazardFlag : uint8_t {
    kAtomicWrite = 1,   // the last write was an atomic
    kWritten = 2,       // shared memory: written in this block
    kReportedRace = 4,  // each kind once per element (per block for shared memory)
    kReportedHazard = 8,
    kReportedUninit = 16,
    // Touched other than by an integer atomicAdd (a plain read or write, another atomic): without
    // it, ranges run apart that both added into the element may join by adding (absorb).
    kNotSummed = 32,
    kHazardFlags = 63,  // all of them: the low bits of Hazard::other_and_flags
};

// The ordering state of one element, for races and hazards (16 bytes, four to a cache line;
// zero bytes: untouched).
struct Hazard {
    ThreadSlot last_writer;
    ThreadSlot last_reader;
    uint16_t write_line;
    uint16_t read_line;
    uint16_t other_read_line;
    // Above the HazardFlags: the index in its block of the other reader, a reader since the last
    // barrier other than last_reader (BlockOrder::other_reader). It is always of last_reader's
    // block, so 10 bits hold it (blocks have at most 1,024 threads); none when it is
    // last_reader's own index.
    uint16_t other_and_flags;

    uint8_t flags() const { return uint8_t(other_and_flags & kHazardFlags); }
    void add_flags(uint8_t f) { other_and_flags = uint16_t(other_and_flags | f); }
    void set_flags(uint8_t f) { other_and_flags = uint16_t((other_and_flags & ~kHazardFlags) | f); }
    uint32_t other_index() const { return other_and_flags >> 6; }
    void set_other_index(uint32_t i) { other_and_flags = uint16_t((i << 6) | flags()); }
};
static_assert(sizeof(Hazard) == 16 && std::is_trivial_v<Hazard>);
static_assert((1024 - 1) << 6 <= UINT16_MAX - kHazardFlags);

// The last thread counted among an element's writers and readers (recorded accesses only,
// atomics included): a thread's repeated accesses count once. Kept with the records.
struct Counted {
    ThreadSlot writer, reader;
};

// The sync epochs (BlockOrder::epoch) of an element's accesses named in its Hazard: two
// accesses of one block are unordered when no barrier came between them (both at or after
// barrier_epoch) and no __syncwarp() of their warp did (WarpOrder). Each reader has its own:
// the other reader may have read before a __syncwarp() that orders it with a writer the last
// reader is not ordered with. Kept (12 bytes) for kernels with barriers or warp functions, and
// for a __shared__ array always (a block's few elements; without barriers they stay 0); a global
// array of another kernel has none: every epoch is 0.
struct Phases {
    uint32_t write, read, other_read;
};
static_assert(std::is_trivial_v<Phases>);

// The source line an access names, as the Hazard keeps it.
inline uint16_t line16(int line) { return uint16_t(line < 65535 ? line : 65535); }

// The running block, as the rules see it: its first thread id, its size, and its sync epochs
// (one more after each barrier and each __syncwarp(): accesses are stamped with `epoch`).
struct BlockOrder {
    uint32_t base = 0, threads = 1;
    uint32_t epoch = 0, barrier_epoch = 0;
    bool warp_ops = false;  // the kernel uses warp functions

    // Whether thread `id` is in the running block (kNoThread is not: ids stay below 2^30).
    bool in_block(uint32_t id) const { return id - base < threads; }
    // The element's other reader (Hazard::other_and_flags) when its last reader is of the running
    // block, else kNoThread: the checks look only at readers of the running block, and another
    // block's last reader already makes a write worth checking.
    [[gnu::always_inline]] uint32_t other_reader(const Hazard& h) const {
        if (!in_block(h.last_reader)) return kNoThread;
        const uint32_t i = h.other_index();
        return i == h.last_reader - base ? kNoThread : base + i;
    }
    // Whether a plain read by `id` may be a finding not yet reported on the element (the
    // emulator's check_read says): an uninitialised read of shared memory, or another thread's
    // write not ordered before it. A kind already reported is not looked for again, so that in a
    // launch with a finding on every element (a missing barrier, a tile half written) only the
    // first access of each takes the emulator's path.
    [[gnu::always_inline]] bool read_may_conflict(bool shared, const Hazard& h, const Phases& p, uint32_t id) const {
        return (shared && !(h.flags() & (kWritten | kReportedUninit))) ||
               (h.last_writer != kNoThread && h.last_writer != id && p.write >= barrier_epoch &&
                !(h.flags() & kReportedHazard));
    }
    // Whether a write by `id` may be a finding not yet reported (check_write). An atomic after
    // another thread's atomic is no race: only readers can conflict with it.
    [[gnu::always_inline]] bool write_may_conflict(const Hazard& h, const Phases& p, uint32_t id, bool atomic) const {
        const auto other = [id](uint32_t t) { return t != kNoThread && t != id; };
        return (other(h.last_writer) && !(atomic && (h.flags() & kAtomicWrite)) && !(h.flags() & kReportedRace)) ||
               (p.read >= barrier_epoch && (other(h.last_reader) || other(other_reader(h))) &&
                !(h.flags() & kReportedHazard));
    }
    // With warp functions, a __syncwarp() may order a warp's readers with a later writer of
    // that warp but not with another warp's: of the two readers kept, keep one of another warp
    // than `id` when there is one, so that a writer of either warp still meets one unordered.
    // `other`, the element's other reader, and `id` are of the running block.
    bool keep_last_reader(const Hazard& h, uint32_t other, uint32_t id) const {
        const auto warp = [this](uint32_t t) { return (t - base) / 32; };
        return other == kNoThread || warp(other) == warp(id) || warp(h.last_reader) != warp(id);
    }
    // The element's ordering state after a plain read by `id`: it is the last reader, and the
    // reader before it stays as the other one while both are of the running block and unordered.
    // The other reader is looked up only where it stays: most reads of a tile replace it by the last.
    // Of a __shared__ array (`shared`), two distinct readers of the running block since its last
    // barrier are kept as they are: any later writer differs from one of them, which is all a
    // write's check asks, so a third reader would change nothing it finds. A tile's elements are
    // read by a row of threads each phase (matmul-tiled: 16 readers of each element of As), and
    // most reads then store nothing; a global array's elements are mostly read by one thread each,
    // where the look is not worth its compares (increment's check, with it: 300.4 M instructions at
    // 1M elements, without: 299.4 M).
    // kMayUseWarpOps false: a path only kernels without warp functions take (ModelThread's
    // Path::Shared), where the compiler drops keep_last_reader. With warp functions the readers'
    // warps matter (keep_last_reader), and the last two are kept.
    template <bool kMayUseWarpOps = true>
    [[gnu::always_inline]] void remember_reader(bool shared, Hazard& h, Phases& p, uint32_t id, uint16_t line) const {
        if (shared && !(kMayUseWarpOps && warp_ops) && p.read >= barrier_epoch && p.other_read >= barrier_epoch &&
            in_block(h.last_reader) && h.other_index() != h.last_reader - base)
            return;
        uint32_t other;
        if (p.read < barrier_epoch || !in_block(h.last_reader)) {
            other = kNoThread;
        } else if (h.last_reader != id && (!(kMayUseWarpOps && warp_ops) || keep_last_reader(h, other_reader(h), id))) {
            other = h.last_reader;
            p.other_read = p.read;
            h.other_read_line = h.read_line;
        } else {
            other = other_reader(h);
        }
        h.last_reader = id;
        h.set_other_index((other == kNoThread ? id : other) - base);
        p.read = epoch;
        h.read_line = line;
    }
    // Whether a read of the element by any thread of the running block would, from now until the
    // block's next barrier, find nothing and leave the element's state as it is (a __shared__
    // array's, in a kernel without warp functions): two distinct readers since the block's last
    // barrier are kept, which remember_reader then keeps as they are, and the element was written
    // in the block, or its read before any write reported (no uninitialised read left to find). A
    // write since that barrier, before or after the two reads, met one of them unordered (one
    // differs from the writer), or will: a hazard is reported on the element, after which its
    // reads find nothing more (one hazard per element a block). So they stay settled
    // (InlineArray::settled), and missing-barrier's reads of tiles its next step overwrites settle
    // too (`check --preset missing-barrier`: 898 → 829 M instructions, with the element written
    // before the barrier asked as well). Its first look fails for an element read once a phase (a
    // transpose's tile): no other reader.
    [[gnu::always_inline]] bool reads_settled(const Hazard& h, const Phases& p) const {
        return p.other_read >= barrier_epoch && h.other_index() != h.last_reader - base && p.read >= barrier_epoch &&
               in_block(h.last_reader) && (h.flags() & (kWritten | kReportedUninit));
    }
    [[gnu::always_inline]] void remember_writer(Hazard& h, Phases& p, uint32_t id, uint16_t line, bool atomic) const {
        h.last_writer = id;
        p.write = epoch;
        h.write_line = line;
        h.set_flags(uint8_t((h.flags() & ~kAtomicWrite) | kWritten | (atomic ? kAtomicWrite : 0)));
    }
};

// An element's record after a recorded read or write by `id` (the emulator's access path and the
// inlined one): every store counted, the smallest id kept, and `id` counted among the readers or
// writers unless it already is. Without barriers a thread runs to completion, so its accesses to
// an element follow one another: one that is not the last counted is new. With barriers
// (`fibers`) the block's threads take turns between them, so where the last counted is of the
// running block, `first_in_block(counted)` says whether `id` is new among the block's touchers.
template <class FirstInBlock>
[[gnu::always_inline]] inline void record_access(ElementRecord& r, Counted& c, uint32_t id, bool write, bool fibers,
                                                 const BlockOrder& order, const FirstInBlock& first_in_block) {
    ThreadSlot& counted = write ? c.writer : c.reader;
    if (counted != id) {
        (write ? r.writers : r.readers) += !fibers || !order.in_block(counted) || first_in_block(uint32_t(counted));
        counted = id;
    }
    if (write) {
        r.first_writer = std::min(r.first_writer, id);
        ++r.stores;
    } else {
        r.first_reader = std::min(r.first_reader, id);
    }
}

// The ordering state is marked touched per chunk of 65,536 elements (InlineArray::touched, the
// emulator's Storage::touched): joining ranges run apart and reading out the findings skip the
// chunks a run never touched, whose state is all zero. Reading it there would cost its pages:
// zero pages shared by the kernel where it maps them, and on kernels that do not (this project's
// VM, 2026-12-06) fresh memory, 256 MB of it for a 16M-element launch run in two ranges.
inline constexpr unsigned kTouchedChunkShift = 16;

// What a body's plain loads and stores of an array need to be recorded without a call into the
// emulator (ModelThread::load_bits): its 4-byte values and shadow state (a __shared__ array's:
// the running block's copy). `size` is 0 for an array whose accesses take the emulator's path
// (2- or 8-byte elements, a watched array, an array whose accesses are grouped into warp requests).
struct InlineArray {
    uint64_t size = 0;
    uint32_t* bits = nullptr;
    // Null in a run without per-element state (the memory view's): an access in bounds only
    // reads or writes the value (ModelThread::load_bits, store_bits); and for an input (below).
    Hazard* hazards = nullptr;
    // A global array of a kernel without barriers: every epoch 0, every access recorded (one
    // flag, looked at on every access, for the two below).
    bool plain = false;
    // An input with no shadow state (ModelLaunch::inputs_tracked): a load is counted and
    // recorded, a store goes to the emulator (which ends the run).
    bool input = false;
    bool shared = false;
    // With barriers or warp functions, and for a __shared__ array always (its epochs stay 0
    // without); else null: every epoch is 0.
    Phases* phases = nullptr;
    uint8_t* touched = nullptr;  // per chunk (kTouchedChunkShift): set by every access of it
    // Per element, where the run keeps records (never for a plain array): its record, and who
    // was counted last among its writers and readers.
    ElementRecord* records = nullptr;
    Counted* counted = nullptr;
    // A __shared__ array's, with shadow state: per element, the running block's sync epoch + 1 at
    // which its reads were found settled (BlockOrder::reads_settled; 0: not), where the block's
    // accesses are not recorded (ModelThread::load_shared_bits). The next barrier moves the epoch
    // on; the next block's copy starts at 0 (its epochs start again).
    uint32_t* settled = nullptr;

    // Element i's epochs: `none` (zeros) without barriers.
    Phases& epochs(uint64_t i, Phases& none) const { return phases ? phases[i] : none; }
};

// Every 65,536th access goes the emulator's way, where a cancelled launch, or one past its
// access cap, stops (a mask on the count of accesses).
inline constexpr uint64_t kStopCheckMask = (uint64_t(1) << 16) - 1;

// The emulator's side of the inlined path (ModelEmulator::set_up_inline_path): the arrays whose
// plain accesses in bounds a body records itself, in its own code, where no finding can come of
// them, and what the rules need to know of the running block.
struct InlineAccesses {
    InlineArray arrays[64];  // indexed like the spec's arrays (kMaxModelArrays)
    // The run's count of loads, stores and atomics (ModelResult::accesses once it ends), here where
    // a body's inlined path counts one without looking up where it is.
    uint64_t accesses = 0;
    bool* global_atomics = nullptr;  // set by an atomic on a global array (ModelEmulator::shared_by_atomics)
    BlockOrder order;                // the running block's, as its epochs are now
    // The running block's __shared__ arrays are the ones recorded (ModelLaunch::shared_block):
    // the threads that touch them count among its threads touching them.
    bool record_shared = false;
    // The running phase is one the run records (ModelLaunch::phase): its accesses count in the
    // records and among the threads touching an array.
    bool record_phase = true;
    // The block's threads run as fibers: a thread counted on an element may not be the last
    // of the block that touched it (record_access).
    bool fibers = false;
};

}  // namespace threadmap::shadow
