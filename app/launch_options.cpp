// Launch options; see launch_options.hpp.
#include "launch_options.hpp"

#include <CLI/CLI.hpp>

#include "lessons.hpp"

namespace threadmap {

void add_launch_options(CLI::App& cmd, LaunchOptions& o) {
    // An empty value would read as "not given" below; refuse it where it is typed.
    const CLI::Validator non_empty(
        [](std::string& v) { return v.empty() ? std::string("an empty value") : std::string(); }, "VALUE");
    cmd.add_option("--preset", o.preset, "A lesson: " + lesson_names())->check(non_empty);
    cmd.add_option("--kernel", o.kernel, kernel_names(" | ", " | "))->check(non_empty);
    cmd.add_option("--n", o.n, "Array length, for increment kernels")->check(non_empty);
    cmd.add_option("--rows", o.rows, "Rows of C, for matmul kernels")->check(non_empty);
    cmd.add_option("--cols", o.cols, "Columns of C, for matmul kernels")->check(non_empty);
    cmd.add_option("--inner", o.inner, "Inner dimension of A·B (default: --cols)")->check(non_empty);
    cmd.add_option("--block", o.block, "blockDim X[,Y[,Z]] (default 256, or 16,16 for matmul)")->check(non_empty);
    cmd.add_option("--grid", o.grid, "gridDim X[,Y[,Z]] (default: ceiling division of the shape)")->check(non_empty);
    cmd.add_option("--backend", o.backend,
                   "cpu | cuda | auto (default auto: a CUDA device when there is one); bench also takes model")
        ->check(CLI::IsMember({"cpu", "cuda", "auto", "model"}));
}

Outcome<uint64_t> parse_count(const std::string& text, const std::string& option) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return {std::nullopt, option + " expects a whole number, got '" + text + "'"};
    uint64_t value = 0;
    for (char c : text) {
        const uint64_t digit = uint64_t(c - '0');
        if (value > (UINT64_MAX - digit) / 10) return {std::nullopt, option + " value '" + text + "' is too large"};
        value = value * 10 + digit;
    }
    return {value, {}};
}

Outcome<PixelSize> parse_size(const std::string& text, const std::string& option, int min_width, int min_height,
                              int max_side) {
    const size_t x = text.find('x');
    const auto w = parse_count(x == std::string::npos ? "" : text.substr(0, x), option);
    const auto h = parse_count(x == std::string::npos ? "" : text.substr(x + 1), option);
    if (!w.value || !h.value || *w.value < uint64_t(min_width) || *h.value < uint64_t(min_height) ||
        *w.value > uint64_t(max_side) || *h.value > uint64_t(max_side))
        return {std::nullopt, option + " expects WIDTHxHEIGHT between " + std::to_string(min_width) + "x" +
                                  std::to_string(min_height) + " and " + std::to_string(max_side) + "x" +
                                  std::to_string(max_side) + ", got '" + text + "'"};
    return {PixelSize{int(*w.value), int(*h.value)}, {}};
}

Outcome<Dim3> parse_dim3(const std::string& text, const std::string& option) {
    uint32_t parts[3] = {1, 1, 1};
    size_t start = 0;
    for (int i = 0;; ++i) {
        const size_t comma = text.find(',', start);
        const std::string piece = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (i == 3) return {std::nullopt, option + " takes at most three numbers X,Y,Z, got '" + text + "'"};
        const auto v = parse_count(piece, option);
        if (!v.value) return {std::nullopt, v.error};
        if (*v.value > UINT32_MAX)  // CUDA's dim3 holds unsigned int
            return {std::nullopt, option + " component " + piece + " does not fit in a dim3 (at most 4294967295)"};
        parts[i] = uint32_t(*v.value);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return {Dim3{parts[0], parts[1], parts[2]}, {}};
}

Dim3 default_block(KernelKind kind) { return is_matrix(kind) ? Dim3{16, 16, 1} : Dim3{256, 1, 1}; }

ResolveResult resolve_launch(const LaunchOptions& o) {
    ResolveResult r;
    std::string& err = r.error;
    const bool explicit_kernel = !o.kernel.empty();
    const Lesson* lesson = nullptr;
    if (!o.preset.empty()) {
        lesson = find_lesson(o.preset);
        if (!lesson) {
            err = "unknown preset '" + o.preset + "'; the lessons are: " + lesson_names();
            return r;
        }
    } else if (!explicit_kernel) {
        lesson = find_lesson(kDefaultLesson);
    }

    ResolvedLaunch out;
    std::optional<Dim3> block, grid;
    if (lesson) {
        out.preset = lesson->name;
        out.workload = lesson->workload;
        block = lesson->block;
        grid = lesson->grid;
    }
    if (explicit_kernel) {
        const auto kind = parse_kernel(o.kernel);
        if (!kind) {
            err = "unknown kernel '" + o.kernel + "'; choose " + kernel_names();
            return r;
        }
        if (lesson && is_matrix(*kind) != is_matrix(lesson->workload.kernel)) {
            err = "--kernel " + o.kernel + " needs a different shape than preset " + lesson->name +
                  "; give the shape without --preset";
            return r;
        }
        out.workload.kernel = *kind;
    }
    Workload& w = out.workload;
    const auto take = [&](const std::string& text, const char* option, uint64_t& field) {
        if (text.empty()) return true;
        const auto v = parse_count(text, option);
        if (!v.value) err = v.error;
        if (v.value) field = *v.value;
        return v.value.has_value();
    };
    if (is_matrix(w.kernel)) {
        if (!o.n.empty()) {
            err = "--n is for the increment kernels; matmul takes --rows, --cols and --inner";
            return r;
        }
        if (!take(o.rows, "--rows", w.rows) || !take(o.cols, "--cols", w.cols) || !take(o.inner, "--inner", w.inner))
            return r;
        if (!o.rows.empty() || !o.cols.empty() || !o.inner.empty()) {
            if (o.inner.empty() && !lesson) w.inner = w.cols;
            // A shape given here gets exactly matching operands; a preset's odd A and B
            // (seed-matmul's C smaller than A·B) hold only for the preset's own shape.
            w = matmul_workload(w.kernel, w.rows, w.cols, w.inner);
        }
        if (w.rows == 0 && o.rows.empty()) {
            err = "matmul needs --rows and --cols (and optionally --inner)";
            return r;
        }
    } else {
        if (!o.rows.empty() || !o.cols.empty() || !o.inner.empty()) {
            err = "--rows, --cols and --inner are for matmul; the increment kernels take --n";
            return r;
        }
        if (!take(o.n, "--n", w.n)) return r;
        if (w.n == 0 && o.n.empty()) {
            err = "--kernel " + std::string(kernel_name(w.kernel)) + " needs --n";
            return r;
        }
    }
    if (auto problem = check_shape(w)) {
        err = *problem;
        return r;
    }
    if (!o.block.empty()) {
        const auto parsed = parse_dim3(o.block, "--block");
        if (!parsed.value) return err = parsed.error, r;
        block = parsed.value;
        if (o.grid.empty()) grid.reset();  // a new block gets the grid that covers the shape
    }
    if (!o.grid.empty()) {
        const auto parsed = parse_dim3(o.grid, "--grid");
        if (!parsed.value) return err = parsed.error, r;
        grid = parsed.value;
    }
    out.launch.block = block.value_or(default_block(w.kernel));
    out.launch.grid = grid.value_or(covering_grid(w, out.launch.block));
    r.value = out;
    return r;
}

}  // namespace threadmap
