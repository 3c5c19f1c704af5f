#include "kernels/source/source_hooks.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdarg>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>
#include <dlfcn.h>

#include "kernels/source/kernel_printf.hpp"
#include "kernels/model/model_thread.hpp"

// The running thread's indices, read by compiled kernels (prelude.cuh's threadIdx, …).
extern "C" {
struct ThreadmapContext {
    threadmap::Dim3 threadIdx, blockIdx, blockDim, gridDim;
};
ThreadmapContext __threadmap_context;  // NOLINT: the name the prelude declares
// The running thread's place in its loops, which compiled kernels keep (prelude.cuh).
__threadmap_loop_nest* __threadmap_loops = nullptr;  // NOLINT: the name the prelude declares
}

namespace threadmap::source_hooks {
namespace {

constexpr uintptr_t kSlotBits = 35;  // 32 GiB per slot: 16 GiB either side of its address
constexpr uintptr_t kSlotBytes = uintptr_t(1) << kSlotBits;

// The reserved range, every slot of it: never mapped readable, so an access the compiler did
// not rewrite faults instead of touching memory, and no other memory (the JIT's data, a
// __device__ variable) can lie at an address that names an array.
uintptr_t reserved_base() {
    static const uintptr_t base = [] {
        void* p = mmap(nullptr, kSlotBytes * kSlots, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        return p == MAP_FAILED ? uintptr_t(0) : uintptr_t(p);
    }();
    return base;
}

// One run at a time per process (the kernel model is single-threaded).
ModelThread* g_thread = nullptr;
const AddressMap* g_map = nullptr;
std::string g_access_error;
RunReport g_unread_report;
RunReport* g_report = &g_unread_report;
}  // namespace
}  // namespace threadmap::source_hooks

// Where compiled code writes the line of an instruction that may fault without a hook (an
// integer division, a trap; source_compiler.cpp): the run's report, so that a crash names it.
extern "C" {
int* __threadmap_line = &threadmap::source_hooks::g_unread_report.line;  // NOLINT: the compiler's name
}

namespace threadmap::source_hooks {
namespace {

void set_context(ModelThread& t) {
    __threadmap_context = {t.threadIdx, t.blockIdx, t.blockDim, t.gridDim};
    __threadmap_loops = &t.loops;
}

// A call at which the running thread waits for others of its block (a barrier, a warp call):
// they run meanwhile, so afterwards it is made the running thread again, its indices current.
template <class Call>
auto waiting(int line, Call call) {
    g_report->line = line;
    ModelThread* me = g_thread;
    const auto result = call(*me);
    g_thread = me;
    set_context(*me);
    return result;
}

// One element of an array.
struct Element {
    size_t array;
    uint64_t index;
};

// An access of several elements of an array: `width` from `index` as one access (a float2 or
// float4 read through a cast: 2 or 4; a double in a buffer of chars: 8), or `scalars` one
// after another (a copy of a struct of several, a float3: as many accesses, as a GPU makes).
struct Elements {
    size_t array;
    uint64_t index;
    uint32_t bytes;  // of one element
    uint32_t width = 1;
    uint32_t scalars = 1;
};

// Where an access that is not one element of an array is: plain memory, or an array.
enum class Where : uint8_t { Plain, Array };

bool in_reserved(uintptr_t address) {
    const uintptr_t base = reserved_base();
    return address >= base && address < base + kSlotBytes * kSlots;
}

enum class Refusal { OtherKernel, Misaligned, NotElements, TooLarge };

// A memcpy or memset between arrays goes through a buffer of this many bytes at most (more
// than any array's block of __shared__ memory; a global array is copied by the host, not here).
constexpr uint64_t kMaxCopyBytes = uint64_t(1) << 16;

// Keeps the run's first refused access (out of line: locate runs on every access, this once).
[[gnu::cold, gnu::noinline]] void refuse(int line, uint64_t size, int64_t offset, int64_t element, Refusal why) {
    if (!g_access_error.empty()) return;
    const std::string where = "line " + std::to_string(line) + ": a " + std::to_string(size) +
                              "-byte access at byte offset " + std::to_string(offset) + " of an array of " +
                              std::to_string(element) + "-byte elements";
    switch (why) {
        case Refusal::OtherKernel:
            g_access_error = "line " + std::to_string(line) + ": an access to a __shared__ array of another kernel";
            return;
        case Refusal::Misaligned:
            g_access_error = where + ": an access of " + std::to_string(size) +
                             " bytes (a float4, a double in a buffer of chars) must lie at a multiple of " +
                             std::to_string(size) + " bytes (on a GPU: a misaligned address error)";
            return;
        case Refusal::TooLarge:
            g_access_error = "line " + std::to_string(line) + ": a memcpy or memset of " + std::to_string(size) +
                             " bytes into an array: threadmap copies at most " + std::to_string(kMaxCopyBytes) +
                             " bytes at once in a kernel; copy it in a loop, one element per thread or per step";
            return;
        case Refusal::NotElements:
            g_access_error =
                where +
                ": threadmap's arrays are read and written in whole elements, so declare or bind an array with the "
                "type the kernel reads it as, or a narrower one (a buffer of chars read as floats and doubles)";
            return;
    }
}

// Which array element `size` bytes at `address` are, if they are one (the common access:
// kept short); else `where` says whether the access is in an array (wider, or refused).
std::optional<Element> locate(uintptr_t address, uint64_t size, int line, Where& where) {
    g_report->line = line;
    const uintptr_t base = reserved_base();
    // Below base wraps to a huge offset. Checked here, with the base loaded once: through
    // in_reserved the JIT's tiled matmul took 541-546 ms against 409-410 (source-bench).
    where = Where::Plain;
    if (address - base >= kSlotBytes * kSlots) return std::nullopt;
    where = Where::Array;
    const size_t slot = (address - base) >> kSlotBits;
    const size_t array = g_map->array[slot];
    const int64_t offset = int64_t(address - slot_address(slot));
    const int64_t element = g_map->element_bytes[slot];  // 1, 2, 4 or 8: shifts, not divisions (every access)
    // An index before the start wraps to a huge one: the model reports it out of bounds.
    if (array != AddressMap::kNone && int64_t(size) == element && (offset & (element - 1)) == 0)
        return Element{array, uint64_t(offset >> std::countr_zero(uint64_t(element)))};
    return std::nullopt;
}

// The elements of an access in an array that is not one element (out of line: rare), or none:
// one that is not whole elements (or not one, for `one_element`: an atomic), or a misaligned
// vector, is kept (the first) as the run's access error.
[[gnu::cold, gnu::noinline]] std::optional<Elements> locate_elements(uintptr_t address, uint64_t size, int line,
                                                                     bool one_element = false) {
    const size_t slot = (address - reserved_base()) >> kSlotBits;
    const size_t array = g_map->array[slot];
    const int64_t offset = int64_t(address - slot_address(slot));
    const int64_t element = g_map->element_bytes[slot];
    if (array == AddressMap::kNone) {
        refuse(line, size, offset, element, Refusal::OtherKernel);
        return std::nullopt;
    }
    const int64_t elements = int64_t(size) / element;
    const bool whole = int64_t(size) % element == 0 && offset % element == 0;
    // A power of two elements up to 16 bytes: one access (a float4; a double or a float in a
    // dynamic shared buffer of chars carved into several types).
    const bool vector = whole && elements > 1 && std::has_single_bit(uint64_t(elements)) && size <= 16;
    // Misaligned first: a GPU faults on it whatever the access (a __half2 atomic at an odd half).
    if (vector && offset % int64_t(size) != 0) {
        refuse(line, size, offset, element, Refusal::Misaligned);
        return std::nullopt;
    }
    if (!whole || one_element) {
        refuse(line, size, offset, element, Refusal::NotElements);
        return std::nullopt;
    }
    return Elements{array, uint64_t(offset / element), uint32_t(element), vector ? uint32_t(elements) : 1,
                    vector ? 1 : uint32_t(elements)};
}

// A %s argument or a format: an array's address is not text (reading it would fault).
bool readable(const void* p) { return !in_reserved(uintptr_t(p)); }

// The bytes of `size` at `address` in an array that are not one element (each element's bits
// little-endian: its low bytes); zeros when refused.
[[gnu::cold, gnu::noinline]] void load_elements(uintptr_t address, unsigned char* out, uint64_t size, int line) {
    const auto e = locate_elements(address, size, line);
    if (!e) {
        std::memset(out, 0, size);
        return;
    }
    if (e->width > 1) {
        uint64_t bits[16];
        g_thread->load_vector_bits(e->array, e->index, e->width, bits, line);
        for (uint32_t k = 0; k < e->width; ++k) std::memcpy(out + k * e->bytes, &bits[k], e->bytes);
        return;
    }
    for (uint32_t k = 0; k < e->scalars; ++k) {
        const uint64_t bits = g_thread->load_bits(e->array, e->index + k, line);
        std::memcpy(out + k * e->bytes, &bits, e->bytes);
    }
}

[[gnu::cold, gnu::noinline]] void store_elements(uintptr_t address, const unsigned char* in, uint64_t size, int line) {
    const auto e = locate_elements(address, size, line);
    if (!e) return;
    uint64_t bits[16] = {};
    if (e->width > 1) {
        for (uint32_t k = 0; k < e->width; ++k) std::memcpy(&bits[k], in + k * e->bytes, e->bytes);
        g_thread->store_vector_bits(e->array, e->index, e->width, bits, line);
        return;
    }
    for (uint32_t k = 0; k < e->scalars; ++k) {
        std::memcpy(&bits[0], in + k * e->bytes, e->bytes);
        g_thread->store_bits(e->array, e->index + k, bits[0], line);
    }
}

// An atomic on plain memory, a Word wide: the old value comes back.
template <class Word>
uint64_t plain_atomic(void* address, AtomicOp op, bool is_float, uint64_t operand, uint64_t compare) {
    Word old = 0;
    std::memcpy(&old, address, sizeof(Word));
    const Word result = atomic_result<Word>(op, is_float, old, Word(operand), Word(compare));
    std::memcpy(address, &result, sizeof(Word));
    return old;
}

}  // namespace

uintptr_t slot_address(size_t slot) { return reserved_base() + slot * kSlotBytes + kSlotBytes / 2; }

void run_thread(ModelThread& t, const AddressMap& map, SourceEntry entry, void* const* args) {
    g_thread = &t;
    g_map = &map;
    set_context(t);
    entry(args);
}

std::string take_access_error() { return std::exchange(g_access_error, {}); }

void report_to(RunReport* report) {
    g_report = report;
    __threadmap_line = &report->line;
}

void print(int line, const std::string& text) {
    RunReport& r = *g_report;
    r.line = line;
    ++r.calls;
    if (r.kept_calls + 1 != r.calls) return;  // the text is full: counted only
    if (text.size() > sizeof r.text - r.bytes) return;
    std::memcpy(r.text + r.bytes, text.data(), text.size());
    r.bytes += text.size();
    ++r.kept_calls;
}

KernelPrint printed_of(const RunReport& report) {
    return {std::string(report.text, std::min<uint64_t>(report.bytes, sizeof report.text)), report.calls,
            report.kept_calls};
}

}  // namespace threadmap::source_hooks

using threadmap::source_hooks::g_thread;
using threadmap::source_hooks::in_reserved;
using threadmap::source_hooks::kMaxCopyBytes;
using threadmap::source_hooks::load_elements;
using threadmap::source_hooks::locate;
using threadmap::source_hooks::locate_elements;
using threadmap::source_hooks::plain_atomic;
using threadmap::source_hooks::Refusal;
using threadmap::source_hooks::refuse;
using threadmap::source_hooks::store_elements;
using threadmap::source_hooks::Where;

// The calls compiled code makes. `line` is the learner's source line of the access.
extern "C" {

uint32_t __threadmap_load4(const void* address, int line) {
    Where where;
    if (auto e = locate(uintptr_t(address), 4, line, where))
        return uint32_t(g_thread->load_bits(e->array, e->index, line));
    uint32_t bits = 0;
    if (where == Where::Array)  // a char4, a short2, or refused
        load_elements(uintptr_t(address), reinterpret_cast<unsigned char*>(&bits), 4, line);
    else
        std::memcpy(&bits, address, 4);
    return bits;
}

void __threadmap_store4(void* address, uint32_t bits, int line) {
    Where where;
    if (auto e = locate(uintptr_t(address), 4, line, where))
        return g_thread->store_bits(e->array, e->index, bits, line);
    if (where == Where::Array)
        store_elements(uintptr_t(address), reinterpret_cast<const unsigned char*>(&bits), 4, line);
    else
        std::memcpy(address, &bits, 4);
}

// Accesses of other sizes (a double, a char, a float4, a struct copy): elements of an array
// (one, a vector access, or one after another), plain memory, or refused in an array.
void __threadmap_load(const void* address, void* out, uint64_t size, int line) {
    Where where;
    if (size == 4) {
        const uint32_t bits = __threadmap_load4(address, line);
        std::memcpy(out, &bits, 4);
    } else if (auto e = locate(uintptr_t(address), size, line, where)) {
        const uint64_t bits = g_thread->load_bits(e->array, e->index, line);
        std::memcpy(out, &bits, size);
    } else if (where == Where::Array) {
        load_elements(uintptr_t(address), static_cast<unsigned char*>(out), size, line);
    } else {
        std::memcpy(out, address, size);
    }
}

void __threadmap_store(void* address, const void* in, uint64_t size, int line) {
    Where where;
    if (size == 4) {
        uint32_t bits = 0;
        std::memcpy(&bits, in, 4);
        __threadmap_store4(address, bits, line);
    } else if (auto e = locate(uintptr_t(address), size, line, where)) {
        uint64_t bits = 0;
        std::memcpy(&bits, in, size);
        g_thread->store_bits(e->array, e->index, bits, line);
    } else if (where == Where::Array) {
        store_elements(uintptr_t(address), static_cast<const unsigned char*>(in), size, line);
    } else {
        std::memcpy(address, in, size);
    }
}

// memcpy/memmove/memset the compiler emitted (a struct copy, a float4 copied whole, zeroing):
// plain memory, or elements of an array, as loads and stores.
void __threadmap_memcpy(void* to, const void* from, uint64_t size, int line) {
    const bool from_array = in_reserved(uintptr_t(from)), to_array = in_reserved(uintptr_t(to));
    if (!to_array && !from_array) {
        std::memmove(to, from, size);
    } else if (!to_array) {
        __threadmap_load(from, to, size, line);
    } else if (!from_array) {
        __threadmap_store(to, from, size, line);
    } else if (size > kMaxCopyBytes) {
        refuse(line, size, 0, 1, Refusal::TooLarge);
    } else {
        std::vector<unsigned char> bytes(size);
        __threadmap_load(from, bytes.data(), size, line);
        __threadmap_store(to, bytes.data(), size, line);
    }
}

void __threadmap_memset(void* to, int byte, uint64_t size, int line) {
    if (!in_reserved(uintptr_t(to))) {
        std::memset(to, byte, size);
    } else if (size > kMaxCopyBytes) {
        refuse(line, size, 0, 1, Refusal::TooLarge);
    } else {
        const std::vector<unsigned char> bytes(size, static_cast<unsigned char>(byte));
        __threadmap_store(to, bytes.data(), size, line);
    }
}

// An atomic on a 2-, 4- or 8-byte word: the old value comes back.
uint64_t __threadmap_atomic(void* address, int op, int is_float, int bytes, uint64_t operand, uint64_t compare,
                            int line) {
    Where where;
    const threadmap::AtomicOp o = threadmap::AtomicOp(op);
    if (auto e = locate(uintptr_t(address), uint64_t(bytes), line, where))
        return g_thread->atomic_bits(e->array, e->index, o, is_float != 0, operand, compare, line);
    if (where == Where::Array) {  // not one element: refused
        locate_elements(uintptr_t(address), uint64_t(bytes), line, true);
        return 0;
    }
    // Plain memory (a __device__ struct): the model runs one thread at a time.
    if (bytes == 8) return plain_atomic<uint64_t>(address, o, is_float != 0, operand, compare);
    if (bytes == 2) return plain_atomic<uint16_t>(address, o, is_float != 0, operand, compare);  // a __half
    return plain_atomic<uint32_t>(address, o, is_float != 0, operand, compare);
}

// CUDA's printf: the text goes to the run's report, whole calls while they fit.
int __threadmap_printf(int line, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const std::string text = threadmap::format_printf(format, args, threadmap::source_hooks::readable);
    va_end(args);
    threadmap::source_hooks::print(line, text);
    return int(text.size());
}

// CUDA's device assert: a failed one prints CUDA's line and stops the kernel (here its
// process, which reports the signal and the printed lines).
[[noreturn]] void __threadmap_assert(int line, const char* expression) {
    const auto& c = __threadmap_context;
    const auto dim = [](const threadmap::Dim3& d) {
        return "[" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + "]";
    };
    threadmap::source_hooks::print(line, "line " + std::to_string(line) + ": block: " + dim(c.blockIdx) + ", thread: " +
                                             dim(c.threadIdx) + " Assertion `" + expression + "` failed.\n");
    __builtin_trap();
}

int __threadmap_syncthreads_count(int predicate, int line) {
    return threadmap::source_hooks::waiting(
        line, [&](threadmap::ModelThread& me) { return int(me.syncthreads_count(line, predicate != 0)); });
}

void __threadmap_syncthreads(int line) { __threadmap_syncthreads_count(0, line); }

unsigned long long __threadmap_warp(int op, unsigned mask, unsigned long long value, unsigned arg, int width,
                                    int line) {
    return threadmap::source_hooks::waiting(line, [&](threadmap::ModelThread& me) {
        return me.warp({threadmap::WarpOp(op), mask, value, arg, uint32_t(width), line, 0});
    });
}

}  // extern "C"

namespace threadmap::source_hooks {

std::vector<Symbol> symbols() {
    std::vector<Symbol> s = {
        {"__threadmap_context", &__threadmap_context},
        {"__threadmap_load4", reinterpret_cast<void*>(&__threadmap_load4)},
        {"__threadmap_store4", reinterpret_cast<void*>(&__threadmap_store4)},
        {"__threadmap_load", reinterpret_cast<void*>(&__threadmap_load)},
        {"__threadmap_store", reinterpret_cast<void*>(&__threadmap_store)},
        {"__threadmap_memcpy", reinterpret_cast<void*>(&__threadmap_memcpy)},
        {"__threadmap_memset", reinterpret_cast<void*>(&__threadmap_memset)},
        {"__threadmap_atomic", reinterpret_cast<void*>(&__threadmap_atomic)},
        {"__threadmap_syncthreads", reinterpret_cast<void*>(&__threadmap_syncthreads)},
        {"__threadmap_syncthreads_count", reinterpret_cast<void*>(&__threadmap_syncthreads_count)},
        {"__threadmap_warp", reinterpret_cast<void*>(&__threadmap_warp)},
        {"__threadmap_loops", &__threadmap_loops},
        {"__threadmap_line", &__threadmap_line},
        {"__threadmap_printf", reinterpret_cast<void*>(&__threadmap_printf)},
        {"__threadmap_assert", reinterpret_cast<void*>(&__threadmap_assert)},
    };
    // What optimised code may call on its own: the C library's memory functions (for copies
    // between a kernel's local arrays), libm (the prelude's math), and C++'s unwinder (a
    // cancelled run leaves a thread's body by an exception).
    for (const char* name : {"memcpy",        "memmove",  "memset", "sqrtf",  "sqrt",  "expf",   "exp",
                             "exp2f",         "exp2",     "logf",   "log",    "log2f", "log2",   "log10f",
                             "log10",         "sinf",     "sin",    "cosf",   "cos",   "tanf",   "tan",
                             "tanhf",         "tanh",     "powf",   "pow",    "fminf", "fmaxf",  "floorf",
                             "floor",         "ceilf",    "ceil",   "roundf", "round", "truncf", "trunc",
                             "fabsf",         "fabs",     "asinf",  "asin",   "acosf", "acos",   "atanf",
                             "atan",          "sinhf",    "sinh",   "coshf",  "cosh",  "expm1f", "expm1",
                             "log1pf",        "log1p",    "cbrtf",  "cbrt",   "erff",  "erf",    "fmin",
                             "fmax",          "atan2f",   "atan2",  "fmodf",  "fmod",  "hypotf", "hypot",
                             "copysignf",     "copysign", "fmaf",   "fma",    "rintf", "rint",   "__gxx_personality_v0",
                             "_Unwind_Resume"}) {
        if (void* address = dlsym(RTLD_DEFAULT, name)) s.push_back({name, address});
    }
    return s;
}

}  // namespace threadmap::source_hooks
