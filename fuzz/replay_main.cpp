// A libFuzzer target without libFuzzer: the driver CI links each fuzz_*.cpp with (any compiler,
// here under the sanitizers). It feeds LLVMFuzzerTestOneInput every seed file named on the
// command line (folders: every file in them), then a fixed number of mutations of them made
// from a fixed seed, so a run walks the same inputs each time: a crash or a trapped invariant
// ends the process (the sanitizers and __builtin_trap say where), and the input that did it is
// left in the file --crash-file names. The long coverage-guided runs are
// scripts/fuzz.sh's (clang, libFuzzer).
//
// Usage: fuzz_NAME_replay [--mutations N] [--seed S] [--crash-file FILE] SEED_FILE_OR_DIR...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::string;

std::vector<Bytes> read_seeds(const std::vector<std::string>& paths) {
    std::vector<std::filesystem::path> files;
    for (const std::string& p : paths) {
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
        } else {
            files.emplace_back(p);
        }
    }
    std::sort(files.begin(), files.end());  // the same order on every machine
    std::vector<Bytes> seeds;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "fuzz replay: cannot read %s\n", f.c_str());
            std::exit(2);
        }
        seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return seeds;
}

// Bytes that parsers of text and JSON care about.
constexpr char kInteresting[] = "{}[]\":,\n\\ -+.0123456789eE\xff\x00";

// One of libFuzzer's simple mutations: flip a bit, replace, insert or erase bytes, duplicate a
// run, truncate, or splice in part of another seed.
Bytes mutate(Bytes b, const std::vector<Bytes>& seeds, std::mt19937_64& rng) {
    const auto pick = [&rng](size_t n) { return n == 0 ? size_t(0) : size_t(rng() % n); };
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        const size_t at = pick(b.size() + 1);
        switch (rng() % 7) {
            case 0:
                if (!b.empty()) b[pick(b.size())] ^= char(1u << (rng() % 8));
                break;
            case 1:
                if (!b.empty()) b[pick(b.size())] = kInteresting[pick(sizeof kInteresting - 1)];
                break;
            case 2:
                b.insert(at, 1, kInteresting[pick(sizeof kInteresting - 1)]);
                break;
            case 3:
                if (at < b.size()) b.erase(at, 1 + pick(std::min<size_t>(16, b.size() - at)));
                break;
            case 4:
                if (at < b.size()) b.insert(at, b.substr(at, 1 + pick(std::min<size_t>(64, b.size() - at))));
                break;
            case 5:
                b.resize(at);
                break;
            default: {
                const Bytes& other = seeds[pick(seeds.size())];
                const size_t from = pick(other.size() + 1);
                b.insert(at, other.substr(from, pick(other.size() - from + 1)));
                break;
            }
        }
    }
    return b;
}

std::string g_crash_file;

// The input is written out before it runs (a few microseconds: a small file), so that when it
// ends the process the sanitizer's report and the file that did it are both there.
void run(const Bytes& input) {
    if (!g_crash_file.empty()) {
        if (FILE* f = std::fopen(g_crash_file.c_str(), "wb")) {
            std::fwrite(input.data(), 1, input.size(), f);
            std::fclose(f);
        }
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t mutations = 1000, seed = 1;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--mutations" || a == "--seed" || a == "--crash-file") && i + 1 < argc) {
            const std::string v = argv[++i];
            if (a == "--crash-file")
                g_crash_file = v;
            else
                (a == "--seed" ? seed : mutations) = std::strtoull(v.c_str(), nullptr, 10);
        } else {
            paths.push_back(a);
        }
    }
    const std::vector<Bytes> seeds = read_seeds(paths);
    if (seeds.empty()) {
        std::fprintf(stderr, "fuzz replay: no seed files (give files or folders)\n");
        return 2;
    }
    for (const Bytes& s : seeds) run(s);
    std::mt19937_64 rng(seed);
    for (uint64_t m = 0; m < mutations; ++m) run(mutate(seeds[m % seeds.size()], seeds, rng));
    if (!g_crash_file.empty()) std::remove(g_crash_file.c_str());  // nothing failed: nothing to keep
    std::printf("fuzz replay: %zu seeds and %llu mutations, no failure\n", seeds.size(),
                static_cast<unsigned long long>(mutations));
    return 0;
}
