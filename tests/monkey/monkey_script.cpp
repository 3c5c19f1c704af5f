// Writes a random replay script for the monkey test (scripts/monkey.sh): clicks, drags,
// wheel turns, keys (shortcuts included), text typed into the launch fields, lesson and
// colour switches, tab switches, resizes down to 1×1 — the same script for the same seed.
// Usage: threadmap_monkey_script SEED FRAMES WIDTH HEIGHT > FILE.replay
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// splitmix64: the same numbers on every platform and standard library (std's distributions
// are not specified bit for bit).
struct Random {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % uint64_t(n)); }
    template <typename T>
    const T& pick(const std::vector<T>& v) {
        return v[size_t(below(int(v.size())))];
    }
};

// Widgets the window names (remember_rect); a click on one that is not drawn this frame
// (`click?`) does nothing.
const std::vector<std::string> kWidgets = {
    "tab:Map", "tab:Timing", "kernel", "fix-grid", "cancel-map", "color:block", "color:thread", "color:warp",
    "color:lane", "color:coverage", "blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x", "gridDim.y", "gridDim.z",
    "n (elements)", "rows of C", "cols of C", "inner (k)", "blocks-per-row", "blocks-per-row-auto", "timing-source",
    "timing-run", "timing-sweep", "timing-save", "export-map", "export-window",
    // The kernel model's tabs: a finding's click may switch the array and block.
    "tab:Findings", "tab:Memory", "tab:Occupancy", "tab:Editor", "tab:Code", "finding:0", "finding:1", "finding:3",
    "findings:sweep", "array", "code:edit", "memory:sectors", "occupancy:sm"};

const std::vector<std::string> kFields = {"blockDim.x", "blockDim.y", "blockDim.z",    "gridDim.x",
                                          "gridDim.y",  "gridDim.z",  "n (elements)",  "rows of C",
                                          "cols of C",  "inner (k)",  "blocks-per-row"};

// What a learner (or a cat on the keyboard) types: small and huge numbers, nonsense.
const std::vector<std::string> kTexts = {"1",    "7",    "32",    "33",         "64",          "256",  "1000",
                                         "1024", "1025", "65535", "65536",      "1000000",     "0",    "-1",
                                         "abc",  "1e9",  "12x",   "4294967295", "99999999999", "2048", "8192"};

const std::vector<std::string> kKeys = {"enter",      "backspace",  "tab",    "escape",       "space",
                                        "ctrl+equal", "ctrl+minus", "ctrl+s", "ctrl+shift+s", "a",
                                        "z",          "equal",      "minus",  "ctrl+a",       "shift+tab"};

const std::vector<std::pair<int, int>> kSizes = {{1, 1},     {40, 30},    {320, 240},  {640, 360},
                                                 {800, 600}, {1280, 720}, {1600, 900}, {1920, 1080}};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: threadmap_monkey_script SEED FRAMES WIDTH HEIGHT\n");
        return 2;
    }
    Random r{std::strtoull(argv[1], nullptr, 10)};
    const int frames = std::atoi(argv[2]);
    int width = std::atoi(argv[3]), height = std::atoi(argv[4]);
    if (frames < 1 || width < 1 || height < 1) {
        std::fprintf(stderr, "threadmap_monkey_script: FRAMES, WIDTH and HEIGHT must be positive\n");
        return 2;
    }
    const auto x = [&] { return r.below(width); };
    const auto y = [&] { return r.below(height); };
    std::printf("# monkey script: seed %s, %d frames, window %dx%d\n", argv[1], frames, width, height);
    for (int f = 1; f < frames; f += 1 + r.below(8)) {
        const int roll = r.below(100);
        if (roll < 25) {
            std::printf("%d click %d %d\n", f, x(), y());
        } else if (roll < 40) {
            std::printf("%d click? %s\n", f, r.pick(kWidgets).c_str());
        } else if (roll < 52) {  // a field: click it, type, then Enter (or not)
            std::printf("%d click? %s\n", f, r.pick(kFields).c_str());
            std::printf("%d key ctrl+a\n", f + 1);
            std::printf("%d type %s\n", f + 2, r.pick(kTexts).c_str());
            if (r.below(2)) std::printf("%d key enter\n", f + 3);
            f += 3;
        } else if (roll < 64) {
            std::printf("%d drag %d %d %d %d\n", f, x(), y(), x(), y());
            f += 2;
        } else if (roll < 76) {
            std::printf("%d scroll %d %d %d\n", f, x(), y(), r.below(11) - 5);
        } else if (roll < 86) {
            std::printf("%d key %s\n", f, r.pick(kKeys).c_str());
            f += 1;
        } else if (roll < 94) {
            std::printf("%d move %d %d\n", f, x(), y());
        } else if (roll < 98) {  // the lesson list (Lessons tab, then a row) or the kernel combo
            std::printf("%d click %d %d\n", f, width - 1 - r.below(width / 4 + 1), y());
        } else {
            const auto& size = r.pick(kSizes);
            std::printf("%d resize %d %d\n", f, size.first, size.second);
            width = size.first;
            height = size.second;
            f += 2;
        }
    }
    std::printf("%d quit\n", frames);
    return 0;
}
