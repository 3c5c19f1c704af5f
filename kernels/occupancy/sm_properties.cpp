// The per-compute-capability table; see sm_properties.hpp.
#include "kernels/occupancy/sm_properties.hpp"

namespace threadmap {

namespace {

constexpr const char* kGuide =
    "CUDA C++ Programming Guide, \"Technical Specifications per Compute Capability\" (threads and "
    "shared memory per SM, shared memory per block with opt-in)";

SmProperties row(int major, int minor, int threads, uint64_t shared_kb, uint64_t optin_kb,
                 const char* source = kGuide) {
    SmProperties p;
    p.major = major;
    p.minor = minor;
    p.max_threads_per_sm = threads;
    p.shared_per_sm = shared_kb * 1024;
    p.shared_per_block_optin = optin_kb * 1024;
    p.reserved_shared_per_block = major >= 8 ? 1024 : 0;  // cudaDeviceProp::reservedSharedMemPerBlock
    p.source = source;
    return p;
}

}  // namespace

const std::vector<SmProperties>& sm_property_table() {
    static const std::vector<SmProperties> table = {
        row(7, 5, 1024, 64, 64),    // Turing: T4, RTX 20xx
        row(8, 0, 2048, 164, 163),  // A100
        row(8, 6, 1536, 100, 99),   // RTX 30xx, A40
        row(8, 9, 1536, 100, 99,    // RTX 40xx, L4, L40
            "CUDA C++ Programming Guide, \"Technical Specifications per Compute Capability\"; deviceQuery on an "
            "RTX 4090: 1536 threads per SM (pytorch/pytorch pull request 87115)"),
        row(9, 0, 2048, 228, 227),   // H100, H200
        row(10, 0, 2048, 228, 227),  // B200, GB200
        row(12, 0, 1536, 100, 99,    // RTX 50xx
            "deviceQuery on an RTX 5090: 102400 bytes shared memory and 1536 threads per SM (aikitoria/"
            "open-gpu-kernel-modules issue 1), 101376 bytes per block with opt-in (pytorch/pytorch issue 161376)"),
    };
    return table;
}

const SmProperties* find_sm_properties(int major, int minor) {
    for (const SmProperties& p : sm_property_table())
        if (p.major == major && p.minor == minor) return &p;
    return nullptr;
}

const SmProperties* find_sm_properties(const std::string& text) {
    const size_t dot = text.find('.');
    if (dot == 0 || dot == std::string::npos || dot + 1 == text.size() || text.size() > 5) return nullptr;
    int major = 0, minor = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (i == dot) continue;
        if (text[i] < '0' || text[i] > '9') return nullptr;
        int& part = i < dot ? major : minor;
        part = part * 10 + (text[i] - '0');
    }
    return find_sm_properties(major, minor);
}

std::string sm_property_names() {
    std::string names;
    for (const SmProperties& p : sm_property_table()) names += (names.empty() ? "" : ", ") + p.name();
    return names;
}

}  // namespace threadmap
