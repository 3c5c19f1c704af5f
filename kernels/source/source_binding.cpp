#include "kernels/source/source_binding.hpp"

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "kernels/model/model_emulator.hpp"
#include "kernels/model/bfloat16_bits.hpp"
#include "kernels/model/half_bits.hpp"
#include "kernels/model/model_thread.hpp"

namespace threadmap {
namespace {

Outcome<uint64_t> parse_extent(const std::string& text, const std::string& binding) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return {std::nullopt, "--bind " + binding + ": '" + text + "' is not a size (a whole number, 1 or more)"};
    const uint64_t v = text.size() > 10 ? UINT64_MAX : std::stoull(text);
    if (v == 0) return {std::nullopt, "--bind " + binding + ": an array needs at least one element"};
    if (v > kMaxModelElements)
        return {std::nullopt, "--bind " + binding + ": " + text + " elements; the kernel model records at most " +
                                  std::to_string(kMaxModelElements) + " in all"};
    return {v, {}};
}

Outcome<SourceFill> parse_fill(const std::string& text, SourceBinding& b, const std::string& binding) {
    uint64_t& seed = b.seed;
    if (text.empty() || text == "zeros") return {SourceFill::Zeros, {}};
    // The values written out: numbers (or true/false) separated by commas.
    if (text.find_first_of("0123456789") == 0 || text[0] == '-' || text[0] == '+' || text[0] == '.' ||
        text.rfind("true", 0) == 0 || text.rfind("false", 0) == 0) {
        size_t at = 0;
        for (;;) {
            const size_t comma = text.find(',', at);
            b.values.push_back(text.substr(at, comma - at));
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
        return {SourceFill::Values, {}};
    }
    if (text == "ones") return {SourceFill::Ones, {}};
    if (text == "index") return {SourceFill::Index, {}};
    if (text == "random") return {SourceFill::Random, {}};
    if (text.rfind("random:", 0) == 0) {
        const std::string digits = text.substr(7);
        if (!digits.empty() && digits.size() <= 19 && digits.find_first_not_of("0123456789") == std::string::npos) {
            seed = std::stoull(digits);
            return {SourceFill::Random, {}};
        }
    }
    return {std::nullopt, "--bind " + binding + ": '" + text +
                              "' is not a starting value (zeros, ones, index, random, random:SEED, or the values, "
                              "1,2,3)"};
}

// splitmix64: the same values for a seed on every machine.
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A number as the bits of a float type, rounded to it as C++ (and CUDA's __half and
// __nv_bfloat16) round.
uint64_t float_bits(ValueType type, double v) {
    if (type == ValueType::Float64) return std::bit_cast<uint64_t>(v);
    if (type == ValueType::Float16) return __threadmap_half_from_double(v);
    if (type == ValueType::BFloat16) return __threadmap_bf16_from_double(v);
    return std::bit_cast<uint32_t>(float(v));
}

// Element i's starting value as the bits of `type` (zero-extended to 64): a number converted
// as C++ converts it to the type (an index past 255 wraps in an unsigned char array).
uint64_t start_bits(const SourceBinding& b, ValueType type, uint64_t i) {
    const uint64_t r = mix(b.seed * 0x100000001b3ull + i);
    if (value_is_float(type)) {
        const double v = b.fill == SourceFill::Ones     ? 1.0
                         : b.fill == SourceFill::Index  ? double(i)
                         : b.fill == SourceFill::Random ? double(r >> 40) / double(1 << 24)
                                                        : 0.0;
        return float_bits(type, v);
    }
    const uint64_t v = b.fill == SourceFill::Ones     ? 1
                       : b.fill == SourceFill::Index  ? i
                       : b.fill == SourceFill::Random ? r % (type == ValueType::Bool ? 2 : 100)
                                                      : 0;
    if (type == ValueType::Bool) return v % 2;  // a bool holds 0 or 1: index alternates
    const uint32_t bytes = value_bytes(type);
    return bytes == 8 ? v : v & ((uint64_t(1) << (8 * bytes)) - 1);
}

// A binding's type may differ from the declared one only in sign (int for an unsigned*); a
// float type is itself (half and bfloat16 are both 2 bytes).
bool same_kind(ValueType bound, ValueType declared) {
    if (value_is_float(bound) || value_is_float(declared)) return bound == declared;
    return value_bytes(bound) == value_bytes(declared) && (bound == ValueType::Bool) == (declared == ValueType::Bool);
}

// What an array holds before the launch: its binding, and the bits of its values when they
// are written out.
struct ArrayStart {
    SourceBinding binding;
    std::vector<uint64_t> written;
    uint64_t bits(ValueType type, uint64_t i) const {
        return binding.fill == SourceFill::Values ? written[i] : start_bits(binding, type, i);
    }
};

void fill(const ArrayStart& start, ValueType type, std::vector<uint32_t>& bits) {
    const uint32_t words = value_words(type);
    for (uint64_t i = 0; i < bits.size() / words; ++i) put_element_bits(bits, words, i, start.bits(type, i));
}

// A number as the bits of `type` (zero-extended to 64), or why not: `what` says whose it is
// ("--bind n=x: 'n' is a int"), the message what it takes.
Outcome<uint64_t> number_bits(ValueType type, const std::string& text, const std::string& what) {
    if (text.empty()) return {std::nullopt, what + ": give a value"};
    errno = 0;
    char* end = nullptr;
    if (type == ValueType::Bool) {
        if (text == "true" || text == "1") return {1, {}};
        if (text == "false" || text == "0") return {0, {}};
        return {std::nullopt, what + ": true or false"};
    }
    if (value_is_float(type)) {
        const double v = std::strtod(text.c_str(), &end);
        if (*end != '\0' || errno == ERANGE || !std::isfinite(v))
            return {std::nullopt, what + ": give a finite number"};
        const uint64_t b = float_bits(type, v);
        const bool overflows = type == ValueType::Float16    ? (b & 0x7c00) == 0x7c00
                               : type == ValueType::BFloat16 ? (b & 0x7f80) == 0x7f80
                               : type == ValueType::Float32  ? !std::isfinite(std::bit_cast<float>(uint32_t(b)))
                                                             : false;
        if (overflows)  // it would be infinity
            return {std::nullopt, what + ": give a number a " + value_type_name(type) + " holds (at most " +
                                      (type == ValueType::Float16    ? "65504"
                                       : type == ValueType::BFloat16 ? "3.39e38"
                                                                     : "3.4e38") +
                                      " in size)"};
        return {b, {}};
    }
    const uint32_t bits = 8 * value_bytes(type);
    const uint64_t mask = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
    if (value_is_signed(type)) {
        const long long v = std::strtoll(text.c_str(), &end, 10);
        const long long hi = (long long)(mask >> 1), lo = -hi - 1;
        if (*end != '\0' || errno == ERANGE || v < lo || v > hi)
            return {std::nullopt,
                    what + ": give a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
        return {uint64_t(v) & mask, {}};
    }
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text[0] == '-' || *end != '\0' || errno == ERANGE || v > mask)
        return {std::nullopt, what + ": give a whole number in [0, " + std::to_string(mask) + "]"};
    return {uint64_t(v), {}};
}

// A number for a scalar parameter, as the entry reads it (the low bytes of a 64-bit slot).
Outcome<uint64_t> parse_value(const SourceParam& p, const std::string& text) {
    return number_bits(p.scalar, text, "--bind " + p.name + "=" + text + ": '" + p.name + "' is a " + p.type_text);
}

// An array binding's values written out (SourceFill::Values), as bits of `type`: one per element.
Outcome<std::vector<uint64_t>> written_values(const SourceBinding& b, ValueType type, uint64_t elements) {
    if (b.values.size() != elements)
        return {std::nullopt, "--bind " + b.name + ": " + std::to_string(b.values.size()) + " values for " +
                                  std::to_string(elements) + " elements: give one per element"};
    std::vector<uint64_t> bits;
    for (size_t i = 0; i < b.values.size(); ++i) {
        auto v = number_bits(type, b.values[i],
                             "--bind " + b.name + ": value " + std::to_string(i + 1) + " '" + b.values[i] +
                                 "' of an array of " + value_type_name(type));
        if (!v.value) return failure_of(v);
        bits.push_back(*v.value);
    }
    return {bits, {}};
}

// The default grid: one thread per element of the largest array, x along a row (a reduction's
// input, a matmul's largest operand; a learner's own --grid says otherwise).
Dim3 covering(const std::vector<uint64_t>& shape, const Dim3& block) {
    if (shape.size() == 2) return {blocks_to_cover(shape[1], block.x), blocks_to_cover(shape[0], block.y), 1};
    return {blocks_to_cover(shape[0], block.volume()), 1, 1};
}

}  // namespace

Outcome<SourceBinding> parse_binding(const std::string& text) {
    const size_t eq = text.find('=');
    SourceBinding b;
    if (eq == std::string::npos || eq == 0)
        return {std::nullopt, "--bind '" + text + "': write NAME=VALUE, or NAME=float[N] for an array"};
    b.name = text.substr(0, eq);
    std::string rest = text.substr(eq + 1);
    const size_t bracket = rest.find('[');
    if (bracket == std::string::npos) {
        b.value = rest;
        return {b, {}};
    }
    b.array = true;
    const std::string type = rest.substr(0, bracket);
    if (!type.empty()) {
        b.type = value_type_named(type);
        if (!b.type)
            return {std::nullopt,
                    "--bind " + b.name + ": '" + type +
                        "' is not an element type threadmap's arrays hold (float, double, half, bfloat16, int, "
                        "uint, int64, uint64, short, ushort, char, uchar, bool)"};
    }
    size_t at = bracket;
    while (at < rest.size() && rest[at] == '[') {
        const size_t close = rest.find(']', at);
        if (close == std::string::npos) return {std::nullopt, "--bind " + b.name + ": a '[' without its ']'"};
        auto extent = parse_extent(rest.substr(at + 1, close - at - 1), b.name);
        if (!extent.value) return failure_of(extent);
        b.shape.push_back(*extent.value);
        at = close + 1;
    }
    if (b.shape.size() > 2)
        return {std::nullopt, "--bind " + b.name + ": an array has one or two sizes ([n] or [rows][cols])"};
    std::string fill_text;
    if (at < rest.size()) {
        if (rest[at] != ':')
            return {std::nullopt, "--bind " + b.name + ": after the sizes write :zeros, :ones, :index or :random"};
        fill_text = rest.substr(at + 1);
    }
    auto f = parse_fill(fill_text, b, b.name);
    if (!f.value) return failure_of(f);
    b.fill = *f.value;
    return {b, {}};
}

std::string binding_text(const SourceBinding& b) {
    if (!b.array) return b.name + "=" + b.value;
    std::string s = b.name + "=" + (b.type ? value_type_name(*b.type) : "");
    for (uint64_t e : b.shape) s += "[" + std::to_string(e) + "]";
    static const char* const kFills[] = {"zeros", "ones", "index", "random", ""};
    s += std::string(":") + kFills[int(b.fill)];
    for (size_t i = 0; i < b.values.size(); ++i) s += (i ? "," : "") + b.values[i];
    if (b.fill == SourceFill::Random && b.seed != 1) s += ":" + std::to_string(b.seed);
    return s;
}

namespace {

uint64_t elements_of(const SourceBinding& b) {
    uint64_t n = 1;
    for (uint64_t e : b.shape) n *= e;
    return n;
}

// Every binding names a parameter of the kernel or a variable of its file.
Outcome<void> check_names(const SourceKernel& kernel, const CompiledSource& source,
                          const std::vector<SourceBinding>& bindings) {
    for (const SourceBinding& b : bindings) {
        bool known = false;
        for (const SourceParam& p : kernel.params) known |= p.name == b.name;
        for (const SourceVariable& c : source.variables) known |= c.name == b.name;
        if (!known)
            return failed("--bind " + b.name + ": " + kernel.name + " has no parameter '" + b.name +
                          "' (and the file no __constant__ or __device__ variable of that name)");
    }
    return done();
}

// A pointer parameter bound to an array: the spec's next global array, at the next slot.
Outcome<void> bind_array(const SourceParam& p, const SourceBinding& b, BoundKernel& k,
                         std::vector<ArrayStart>& starts) {
    if (b.type && !same_kind(*b.type, p.element))
        return failed("--bind " + p.name + ": '" + p.name + "' is a " + p.type_text + ", not an array of " +
                      value_type_name(*b.type));
    const size_t slot = starts.size();
    if (slot == source_hooks::kMaxBoundArrays)
        return failed("a kernel here binds at most " + std::to_string(source_hooks::kMaxBoundArrays) + " arrays");
    ArraySpec a;
    a.name = p.name;
    a.type = p.element;
    a.role = p.is_const ? ArrayRole::Input : ArrayRole::InOut;
    a.shape = [shape = b.shape](const Params&, const LaunchConfig&) { return shape; };
    k.addresses.array[slot] = k.spec.arrays.size();
    k.addresses.element_bytes[slot] = value_bytes(p.element);
    ArrayStart start{b, {}};
    if (b.fill == SourceFill::Values) {
        auto written = written_values(b, p.element, elements_of(b));
        if (!written.value) return failed(written.error);
        start.written = std::move(*written.value);
    }
    starts.push_back(std::move(start));
    k.spec.arrays.push_back(std::move(a));
    k.pointer_slots.push_back(slot);
    k.values.push_back(slot);  // the slot's address where the code runs (bind_kernel)
    return done();
}

// The kernel's parameters in order, each a number or an array (`starts`: what each array holds
// at first). Returns the largest array's binding (what the default grid covers), or null.
Outcome<const SourceBinding*> bind_params(const SourceKernel& kernel, const std::vector<SourceBinding>& bindings,
                                          BoundKernel& k, std::vector<ArrayStart>& starts) {
    std::string missing;
    const SourceBinding* largest = nullptr;
    for (const SourceParam& p : kernel.params) {
        const SourceBinding* b = nullptr;
        for (const SourceBinding& c : bindings)
            if (c.name == p.name) {
                if (b) return {std::nullopt, "--bind " + p.name + " is given twice"};
                b = &c;
            }
        if (!b) {
            missing += std::string(missing.empty() ? "" : " ") + "--bind " + p.name +
                       (p.pointer ? std::string("=") + value_type_name(p.element) + "[N]" : "=VALUE");
            k.bindings.push_back({});
            k.pointer_slots.push_back(source_hooks::AddressMap::kNone);
            k.values.push_back(0);
            continue;
        }
        k.bindings.push_back(*b);
        if (p.pointer != b->array)
            return {std::nullopt, "--bind " + p.name + ": '" + p.name + "' is " +
                                      (p.pointer ? "a pointer: bind it to an array, e.g. " + p.name + "=" +
                                                       value_type_name(p.element) + "[500]"
                                                 : "a " + p.type_text + ": bind it to a number")};
        if (p.pointer) {
            if (Outcome<void> bound = bind_array(p, *b, k, starts); !bound.done()) return failure_of(bound);
            if (!largest || elements_of(*b) > elements_of(*largest)) largest = b;
            continue;
        }
        auto v = parse_value(p, b->value);
        if (!v.value) return failure_of(v);
        k.pointer_slots.push_back(source_hooks::AddressMap::kNone);
        k.values.push_back(*v.value);
    }
    if (!missing.empty()) return {std::nullopt, kernel.name + " needs every parameter bound: " + missing};
    return {largest, {}};
}

// What a __constant__ or __device__ variable holds at first: its binding's values (`b`), or its
// declaration's.
Outcome<ArrayStart> variable_start(const SourceVariable& c, const SourceBinding* b) {
    if (!b) {
        SourceBinding declared;  // its declaration's values, one per element
        declared.name = c.name;
        declared.array = true;
        declared.shape = {c.elements};
        declared.fill = SourceFill::Values;
        ArrayStart start{declared, {}};
        const uint32_t bytes = value_bytes(c.element);
        for (uint64_t i = 0; i < c.elements; ++i) {
            uint64_t v = 0;
            std::memcpy(&v, c.initial.data() + i * bytes, bytes);  // little-endian: the low bytes
            start.written.push_back(v);
        }
        return {std::move(start), {}};
    }
    const std::string as_array = std::string(value_type_name(c.element)) + "[" + std::to_string(c.elements) + "]";
    if (!b->array || elements_of(*b) != c.elements || (b->type && !same_kind(*b->type, c.element)))
        return {std::nullopt, "--bind " + c.name + ": '" + c.name + "' is " +
                                  (c.constant ? "__constant__ " : "__device__ ") + value_type_name(c.element) + " of " +
                                  std::to_string(c.elements) + (c.elements == 1 ? " element" : " elements") +
                                  ": bind it as " + c.name + "=" + as_array + ":V,V,… (or :ones, :index, :random)"};
    ArrayStart start{*b, {}};
    if (b->fill == SourceFill::Values) {
        auto written = written_values(*b, c.element, c.elements);
        if (!written.value) return failure_of(written);
        start.written = std::move(*written.value);
    }
    return {std::move(start), {}};
}

// The variables the kernel uses (__constant__, __device__), each one array of the spec.
Outcome<void> bind_variables(const SourceKernel& kernel, const std::vector<SourceBinding>& bindings, BoundKernel& k,
                             std::vector<ArrayStart>& starts) {
    for (size_t index : kernel.variables) {
        const SourceVariable& c = k.source->variables[index];
        const SourceBinding* b = nullptr;
        for (const SourceBinding& x : bindings)
            if (x.name == c.name) b = &x;
        Outcome<ArrayStart> start = variable_start(c, b);
        if (!start.value) return failed(start.error);
        ArraySpec a;
        a.name = c.name;
        a.space = c.constant ? MemorySpace::Constant : MemorySpace::Global;
        a.type = c.element;
        a.role = c.constant ? ArrayRole::Input : ArrayRole::InOut;
        a.shape = [n = c.elements](const Params&, const LaunchConfig&) { return std::vector<uint64_t>{n}; };
        k.addresses.array[c.slot] = k.spec.arrays.size();
        k.addresses.element_bytes[c.slot] = value_bytes(c.element);
        starts.push_back(std::move(*start.value));
        k.spec.arrays.push_back(std::move(a));
    }
    return done();
}

// The kernel's __shared__ arrays, each one array of the spec per block; an extern one takes
// the launch's dynamic shared memory.
Outcome<void> add_shared_arrays(const SourceKernel& kernel, uint64_t dynamic_shared_bytes, BoundKernel& k) {
    std::string dynamic_name;
    for (const SourceSharedArray& s : kernel.shared) {
        // CUDA starts every extern __shared__ array at the same address; the model keeps one
        // array per name, so a second one would show a wrong picture (writes through one not
        // seen through the other): refused.
        if (s.dynamic && !dynamic_name.empty())
            return failed(kernel.name + " declares extern __shared__ " + dynamic_name + "[] and " + s.name +
                          "[]: in CUDA both start at the same address of the launch's dynamic shared memory; "
                          "threadmap models one extern __shared__ array: declare one and index into it (or point "
                          "into it: float* " +
                          s.name + " = &" + dynamic_name + "[OFFSET];)");
        if (s.dynamic) dynamic_name = s.name;
        std::vector<uint64_t> shape = s.shape;
        const uint32_t element = value_bytes(s.element);
        if (s.dynamic) {
            if (dynamic_shared_bytes < element)
                return failed(kernel.name + " declares extern __shared__ " + s.name +
                              "[]: give the launch's dynamic shared memory in bytes (--dynamic-shared, the third "
                              "value of <<<grid, block, bytes>>>)" +
                              (dynamic_shared_bytes ? ", at least one " + std::string(value_type_name(s.element)) +
                                                          " (" + std::to_string(element) + " bytes)"
                                                    : ""));
            shape = {dynamic_shared_bytes / element};
        }
        ArraySpec a;
        a.name = s.name;
        a.space = MemorySpace::Shared;
        a.type = s.element;
        a.role = ArrayRole::Scratch;
        a.shape = [shape](const Params&, const LaunchConfig&) { return shape; };
        a.dynamic = s.dynamic;
        if (s.dynamic) a.dynamic_bytes = dynamic_shared_bytes;
        k.addresses.array[s.slot] = k.spec.arrays.size();
        k.addresses.element_bytes[s.slot] = element;
        k.spec.arrays.push_back(std::move(a));
    }
    return done();
}

}  // namespace

Outcome<std::shared_ptr<BoundKernel>> bind_parameters(std::shared_ptr<const CompiledSource> source,
                                                      const SourceKernel& kernel,
                                                      const std::vector<SourceBinding>& bindings,
                                                      uint64_t dynamic_shared_bytes) {
    auto bound = std::make_shared<BoundKernel>();
    BoundKernel& k = *bound;
    k.source = std::move(source);
    k.kernel = &kernel;
    k.spec.name = kernel.name;
    k.spec.summary = "your kernel " + kernel.name + " (" + k.source->file_name + ")";
    k.spec.cuda_source = k.source->text;
    k.spec.uses_barriers = kernel.uses_barriers;
    k.spec.uses_warp_ops = kernel.uses_warp_ops;
    k.spec.one_thread_at_a_time = true;  // source_hooks keeps the running thread in globals
    k.spec.uses_atomics = kernel.uses_atomics;
    k.spec.launch_dynamic_shared_bytes = dynamic_shared_bytes;

    if (Outcome<void> named = check_names(kernel, *k.source, bindings); !named.done()) return failure_of(named);
    std::vector<ArrayStart> starts;  // per global array of the spec: what it holds at first
    Outcome<const SourceBinding*> largest = bind_params(kernel, bindings, k, starts);
    if (!largest.value) return failure_of(largest);
    if (Outcome<void> variables = bind_variables(kernel, bindings, k, starts); !variables.done())
        return failure_of(variables);
    if (Outcome<void> shared = add_shared_arrays(kernel, dynamic_shared_bytes, k); !shared.done())
        return failure_of(shared);

    const std::vector<uint64_t> cover = *largest.value ? (*largest.value)->shape : std::vector<uint64_t>{1};
    k.spec.default_block = cover.size() == 2 ? Dim3{16, 16, 1} : Dim3{256, 1, 1};
    k.spec.covering_grid = [cover](const Params&, const Dim3& block) { return covering(cover, block); };
    std::vector<ValueType> types;
    for (const ArraySpec& a : k.spec.arrays) types.push_back(a.type);
    k.spec.fill_input = [starts, types](const Params&, size_t index, std::vector<uint32_t>& bits) {
        if (index < starts.size()) fill(starts[index], types[index], bits);
    };
    return {std::move(bound), {}};
}

}  // namespace threadmap
