// What the tests of learners' kernels share: compile a text (it must compile), bind it, run it
// in the kernel model (it must run).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/kernel_host/isolated_run.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/kernel_host/source_compiler.hpp"

namespace threadmap::test {

inline std::shared_ptr<const CompiledSource> compiled(const std::string& text) {
    SourceCompile c = compile_source(text, "kernel.cu");
    INFO(c.text);
    REQUIRE(c.source);
    return c.source;
}

inline std::shared_ptr<const BoundKernel> bound(const std::shared_ptr<const CompiledSource>& s,
                                                const std::vector<std::string>& binds, size_t kernel = 0) {
    std::vector<SourceBinding> b;
    for (const std::string& t : binds) {
        auto p = parse_binding(t);
        REQUIRE_MESSAGE(p.value, p.error);
        b.push_back(*p.value);
    }
    auto k = bind_kernel(s, s->kernels.at(kernel), b);
    REQUIRE_MESSAGE(k.value, k.error);
    return *k.value;
}

inline ModelResult run(const BoundKernel& k, Dim3 grid, Dim3 block) {
    const auto r = run_model({&k.spec, {}, {grid, block}});
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}

// The memory view's site of the access at `line` that is a load or a store (`op`).
inline const MemorySite& site(const MemoryView& v, int line, AccessOp op) {
    for (const MemorySite& s : v.sites)
        if (s.line == line && s.op == op) return s;
    FAIL("no site at line " << line);
    return v.sites.front();
}

// A binding of 2-byte values (half or bfloat16 bit patterns): "a=ushort[3]:1,2,3".
inline std::string ushorts(const char* name, const std::vector<uint16_t>& v) {
    std::string t = std::string(name) + "=ushort[" + std::to_string(v.size()) + "]:";
    for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) t += ',';
        t += std::to_string(v[i]);
    }
    return t;
}

// Element i of an array of 8-byte elements (double, long long): its two 32-bit words.
inline uint64_t wide(const ArrayResult& a, size_t i) { return a.bits[2 * i] | uint64_t(a.bits[2 * i + 1]) << 32; }

}  // namespace threadmap::test
