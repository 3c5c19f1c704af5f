// Code coverage of a build's CUDA architectures; see cuda_arch.hpp.
#include "kernels/cuda/cuda_arch.hpp"

#include <algorithm>
#include <charconv>

namespace threadmap {

std::vector<CudaArch> parse_cuda_architectures(std::string_view list) {
    std::vector<CudaArch> archs;
    size_t at = 0;
    while (at < list.size()) {
        const size_t end = std::min(list.find_first_of(" ;", at), list.size());
        const std::string_view entry = list.substr(at, end - at);
        at = end + 1;
        int number = 0;
        const auto [rest, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), number);
        if (ec != std::errc() || number < 10) continue;
        const std::string_view suffix(rest, size_t(entry.data() + entry.size() - rest));
        CudaArch a{number / 10, number % 10, suffix != "-virtual", suffix != "-real"};
        if (!suffix.empty() && suffix != "-real" && suffix != "-virtual") continue;  // e.g. 90a: not ours
        archs.push_back(a);
    }
    return archs;
}

Outcome<void> missing_code_for(int major, int minor, const std::vector<CudaArch>& archs) {
    std::string built, ptx_from;
    for (const CudaArch& a : archs) {
        if (a.sass && a.major == major && a.minor <= minor) return done();
        if (a.ptx && (a.major < major || (a.major == major && a.minor <= minor))) return done();
        built += (built.empty() ? "" : " ") + std::to_string(a.major) + "." + std::to_string(a.minor);
        if (a.ptx && ptx_from.empty()) ptx_from = std::to_string(a.major) + "." + std::to_string(a.minor);
    }
    return failed("no code for compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                  " in this build (built for " + (built.empty() ? "no GPU" : built) +
                  "; machine code within a major version" + (ptx_from.empty() ? "" : ", PTX from " + ptx_from + " up") +
                  ")");
}

}  // namespace threadmap
