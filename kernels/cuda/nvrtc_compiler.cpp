// NVRTC through dlopen; see nvrtc_compiler.hpp.
#include "kernels/cuda/nvrtc_compiler.hpp"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <type_traits>
#include <vector>

namespace threadmap {

namespace {

// NVRTC's C API, declared here so that building needs no CUDA header (nvrtc.h, CUDA 11-13:
// the functions and their types are unchanged).
using Result = int;  // nvrtcResult; 0 is NVRTC_SUCCESS
using Program = struct NvrtcProgram*;

struct Nvrtc {
    std::string unavailable;
    std::string version;
    std::vector<std::string> include_dirs;  // the toolkit's headers beside the library (cuda_fp16.h, …)
    Result (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
    Result (*compile)(Program, int, const char* const*) = nullptr;
    Result (*log_size)(Program, std::size_t*) = nullptr;
    Result (*log)(Program, char*) = nullptr;
    Result (*ptx_size)(Program, std::size_t*) = nullptr;
    Result (*destroy)(Program*) = nullptr;
    const char* (*error)(Result) = nullptr;
};

// Where libnvrtc may be: the loader's path, then the CUDA toolkit threadmap was built with,
// then CUDA_HOME and the usual install.
std::vector<std::string> candidates() {
    std::vector<std::string> out = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    std::vector<std::string> dirs;
#ifdef THREADMAP_CUDA_LIB_DIR
    dirs.push_back(THREADMAP_CUDA_LIB_DIR);
#endif
    if (const char* home = std::getenv("CUDA_HOME"); home && *home) dirs.push_back(std::string(home) + "/lib64");
    dirs.push_back("/usr/local/cuda/lib64");
    for (const std::string& d : dirs)
        for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) out.push_back(d + "/" + name);
    return out;
}

const Nvrtc& nvrtc() {
    static const Nvrtc loaded = [] {
        Nvrtc n;
        void* lib = nullptr;
        for (const std::string& c : candidates())
            if ((lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
        if (!lib) {
            n.unavailable = "NVRTC (libnvrtc.so, part of the CUDA toolkit) was not found; set CUDA_HOME to the toolkit";
            return n;
        }
        const auto get = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
            if (!fn && n.unavailable.empty()) n.unavailable = std::string("libnvrtc has no ") + name;
        };
        Result (*version)(int*, int*) = nullptr;
        get(version, "nvrtcVersion");
        get(n.create, "nvrtcCreateProgram");
        get(n.compile, "nvrtcCompileProgram");
        get(n.log_size, "nvrtcGetProgramLogSize");
        get(n.log, "nvrtcGetProgramLog");
        get(n.ptx_size, "nvrtcGetPTXSize");
        get(n.destroy, "nvrtcDestroyProgram");
        get(n.error, "nvrtcGetErrorString");
        // NVRTC searches no directory of its own: a kernel's #include <cuda_fp16.h> needs the
        // toolkit's include directory, which lies beside the library's (lib64/../include).
        if (Dl_info info{};
            n.unavailable.empty() && dladdr(reinterpret_cast<void*>(n.create), &info) && info.dli_fname) {
            std::error_code e;
            const auto library = std::filesystem::canonical(info.dli_fname, e);
            const auto include = library.parent_path().parent_path() / "include";
            if (!e && std::filesystem::exists(include / "cuda_fp16.h", e)) {
                n.include_dirs.push_back(include.string());
                // CUDA 13 keeps libcu++ (cooperative groups include <cuda/std/…>) in include/cccl.
                if (std::filesystem::is_directory(include / "cccl", e))
                    n.include_dirs.push_back((include / "cccl").string());
            }
        }
        int major = 0, minor = 0;
        if (n.unavailable.empty() && version(&major, &minor) == 0)
            n.version = std::to_string(major) + "." + std::to_string(minor);
        return n;
    }();
    return loaded;
}

}  // namespace

NvrtcCompile nvrtc_compile(const std::string& source, const std::string& file_name, const std::string& arch) {
    static std::mutex one_at_a_time;  // NVRTC's programs are independent, but its first call loads 100 MB
    std::lock_guard<std::mutex> lock(one_at_a_time);
    NvrtcCompile out;
    const Nvrtc& n = nvrtc();
    out.unavailable = n.unavailable;
    out.version = n.version;
    out.arch = arch;
    if (!n.unavailable.empty()) return out;
    const auto t0 = std::chrono::steady_clock::now();
    Program program = nullptr;
    if (const Result r = n.create(&program, source.c_str(), file_name.c_str(), 0, nullptr, nullptr); r != 0) {
        out.log = std::string("NVRTC could not create the program: ") + n.error(r);
        return out;
    }
    std::vector<std::string> words = {"--gpu-architecture=" + arch};
    for (const std::string& d : n.include_dirs) words.push_back("--include-path=" + d);
    std::vector<const char*> options;
    for (const std::string& w : words) options.push_back(w.c_str());
    const Result compiled = n.compile(program, int(options.size()), options.data());
    std::size_t size = 0;
    if (n.log_size(program, &size) == 0 && size > 1) {
        out.log.resize(size);
        n.log(program, out.log.data());
        while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
    }
    out.compiled = compiled == 0 && n.ptx_size(program, &out.ptx_bytes) == 0;
    if (compiled != 0 && out.log.empty()) out.log = n.error(compiled);
    n.destroy(&program);
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace threadmap
