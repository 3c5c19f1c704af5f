// Inspector text; see inspector_text.hpp.
#include "app/window_state/inspector_text.hpp"

namespace threadmap {

namespace {

std::string dim(const Dim3& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

std::string n2s(uint64_t v) { return std::to_string(v); }

// "i = threadIdx.x + blockIdx.x * blockDim.x = 4 + 3 * 32 = 100"
std::string grid_formula(const char* name, char axis, uint32_t t, uint32_t b, uint32_t bd) {
    return std::string(name) + " = threadIdx." + axis + " + blockIdx." + axis + " * blockDim." + axis + " = " + n2s(t) +
           " + " + n2s(b) + " * " + n2s(bd) + " = " + n2s(uint64_t(t) + uint64_t(b) * bd);
}

}  // namespace

namespace {

// A cell past the array's end: its out-of-bounds accesses to element `e` of `array` (of `n`).
void add_past_fields(CellDescription& d, const CellSample& s, uint64_t e, const std::string& array, uint64_t n,
                     bool reads) {
    d.fields.push_back(
        {reads ? "out-of-bounds reads" : "out-of-bounds writes",
         n2s(s.touches) + (s.touches == 1 ? " access" : " accesses") + ", the thread with the smallest id shown"});
    d.formulas.push_back("element " + n2s(e) + " of " + array + ", which has " + n2s(n) +
                         ": on a GPU the access touches other data or faults; the kernel model skips it and "
                         "lists it in the Findings tab");
}

// Who the cell's thread is: its indices, linear id, warp and lane, and where its block would run.
void add_thread_fields(CellDescription& d, const MapPicture& picture, const CellSample& s) {
    const LaunchConfig& launch = picture.launch.launch;
    d.fields.push_back({"blockIdx", dim(s.block)});
    d.fields.push_back({"threadIdx", dim(s.thread)});
    const uint64_t t_lin = thread_linear(s.thread, launch.block);
    const ThreadContext ctx{s.thread, s.block, launch.block, launch.grid};
    d.fields.push_back({"linear thread id", n2s(global_linear(ctx)) + " (block " +
                                                n2s(block_linear(s.block, launch.grid)) + " × " +
                                                n2s(launch.threads_per_block()) + " + " + n2s(t_lin) + ")"});
    d.fields.push_back({"warp, lane", "warp " + n2s(t_lin / 32) + " of its block, lane " + n2s(t_lin % 32)});
    if (picture.occupancy && picture.occupancy->waves.slots > 0) {  // one possible order: see kBlockOrderNote
        const BlockPlace at = place_block(block_linear(s.block, launch.grid), picture.occupancy->waves.slots,
                                          uint64_t(picture.occupancy->gpu.sms));
        d.fields.push_back({"SM, wave (one possible order)",
                            "SM " + n2s(at.sm) + " of " + n2s(uint64_t(picture.occupancy->gpu.sms)) + ", wave " +
                                n2s(at.wave + 1) + " of " + n2s(picture.occupancy->waves.waves)});
    }
}

// What the findings say about the cell's thread: its side of a divergent barrier (as the map
// marked it: map_picture's mark_diverged), and an undefined value it took through a shuffle
// (mark_undefined_shuffles; the finding names the first such lane of each call, the others get
// its gist).
void add_finding_fields(CellDescription& d, const MapPicture& picture, std::optional<uint64_t> element,
                        const CellSample& s) {
    if (const auto& dv = picture.findings.diverged; dv && element && *element < picture.findings.found.size()) {
        const uint8_t found = picture.findings.found[*element];
        const std::string line = "line " + n2s(uint64_t(dv->line));
        const char* label = "when the launch ended (divergent)";
        if (found & kFoundBarrierWaiting)
            d.fields.push_back({label, "this thread waited at " + line});
        else if (found & kFoundBarrierElsewhere)
            d.fields.push_back({label, "this thread waited at another barrier or warp call, not at " + line});
        else if (found & kFoundBarrierExited)
            d.fields.push_back({label, "this thread had exited without reaching " + line});
    }
    if (element && *element < picture.findings.found.size() &&
        (picture.findings.found[*element] & kFoundUndefinedShuffle)) {
        std::string text =
            "this thread took a value through a warp shuffle from a lane that took no part: the value is undefined";
        for (const Finding& f : picture.findings.list)
            if (is_undefined_shuffle(f) && f.threads[0].block == s.block && f.threads[0].thread == s.thread) {
                text = f.message;
                break;
            }
        d.fields.push_back({"undefined value (shuffle)", text});
    }
}

// The memory view's figure for the element, once computed (the Memory tab or a memory colour
// mode asked for it).
void add_memory_field(CellDescription& d, const MapPicture& picture, std::optional<uint64_t> element, bool reads) {
    if (element && *element < picture.memory.costs.size() && picture.memory.costs[*element] > 0) {
        const uint64_t cost = picture.memory.costs[*element], lanes = picture.memory.lanes[*element];
        const bool shared = picture.launch.model && picture.launch.model->shared();
        const bool constant = picture.launch.model && picture.launch.model->constant();
        // Shared: the request's bank conflict ways (its wavefronts, for accesses of 4 bytes or
        // fewer); constant: its distinct addresses.
        const uint64_t ideal = shared || constant ? 1 : ideal_sectors(uint32_t(lanes), picture.memory.access_bytes);
        const bool ways = shared && picture.memory.access_bytes >= 8;
        const std::string unit = ways       ? (cost == 1 ? "-way (no bank conflict)" : "-way bank conflict")
                                 : shared   ? (cost == 1 ? " wavefront" : " wavefronts")
                                 : constant ? (cost == 1 ? " address (a broadcast)" : " distinct addresses")
                                            : (cost == 1 ? " sector" : " sectors");
        d.fields.push_back({reads ? "its costliest load request" : "its store request",
                            n2s(cost) + unit + " for " + n2s(lanes) + (lanes == 1 ? " active lane" : " active lanes") +
                                (cost > ideal ? "; " + n2s(ideal) + " would do" : "") + " (modeled)"});
    }
}

// The kernel's index arithmetic with the thread's numbers in (a model kernel's is in the Code tab,
// line by line).
void add_formulas(CellDescription& d, const MapPicture& picture, const CellSample& s, std::optional<uint64_t> element,
                  uint64_t gx, uint64_t gy) {
    const Workload& workload = picture.launch.workload;
    const LaunchConfig& launch = picture.launch.launch;
    switch (placement_of(workload)) {
        case ThreadPlacement::ByKernel:  // its index arithmetic is in the Code tab, line by line
            d.formulas.push_back(picture.launch.model->spec->name + ": " + picture.launch.model->spec->summary);
            break;
        case ThreadPlacement::Linear: {
            d.formulas.push_back(grid_formula("pos", 'x', s.thread.x, s.block.x, launch.block.x));
            if (!element) {
                d.formulas.push_back("pos >= n: " + n2s(gx) + " >= " + n2s(workload.n) +
                                     ", so the guard skips this thread");
            } else if (*element != gx) {  // a grid-stride loop's later step
                const uint64_t stride = uint64_t(launch.block.x) * launch.grid.x;
                d.formulas.push_back("stride = blockDim.x * gridDim.x = " + n2s(launch.block.x) + " * " +
                                     n2s(launch.grid.x) + " = " + n2s(stride));
                d.formulas.push_back("element " + n2s(*element) + " = " + n2s(gx) + " + " +
                                     n2s((*element - gx) / stride) + " * " + n2s(stride) + ": this thread's step " +
                                     n2s((*element - gx) / stride + 1));
            } else {
                d.formulas.push_back("pos < n: " + n2s(gx) + " < " + n2s(workload.n) + ", so a[" + n2s(gx) + "] += 1");
            }
            break;
        }
        case ThreadPlacement::XRow:
        case ThreadPlacement::XColumn: {
            const bool x_row = placement_of(workload) == ThreadPlacement::XRow;
            d.formulas.push_back(x_row ? grid_formula("i", 'x', s.thread.x, s.block.x, launch.block.x)
                                       : grid_formula("i", 'y', s.thread.y, s.block.y, launch.block.y));
            d.formulas.push_back(x_row ? grid_formula("j", 'y', s.thread.y, s.block.y, launch.block.y)
                                       : grid_formula("j", 'x', s.thread.x, s.block.x, launch.block.x));
            const uint64_t i = x_row ? gx : gy, j = x_row ? gy : gx;
            if (element)
                d.formulas.push_back("i < " + n2s(workload.rows) + " and j < " + n2s(workload.cols) + ", so C[" +
                                     n2s(i) + ", " + n2s(j) + "] = sum over k < " + n2s(workload.inner) + " of A[" +
                                     n2s(i) + ", k] * B[k, " + n2s(j) + "]");
            else
                d.formulas.push_back("(i, j) = (" + n2s(i) + ", " + n2s(j) + ") is outside C (" + n2s(workload.rows) +
                                     "x" + n2s(workload.cols) + "): the guard skips this thread");
            break;
        }
    }
}

// "C[3, 7]", "a[600]: past the end of a (out of bounds)", or an idle thread.
std::string cell_heading(const MapPicture& picture, const CellSample& s, std::optional<uint64_t> element,
                         uint64_t past_index) {
    const Workload& workload = picture.launch.workload;
    const std::string array = picture.launch.mapped_array();
    const auto index_text = [&](uint64_t e) {
        return is_2d(workload) ? array + "[" + n2s(e / workload.cols) + ", " + n2s(e % workload.cols) + "]"
                               : array + "[" + n2s(e) + "]";
    };
    if (element) return index_text(*element);
    if (s.kind == CellSample::Past)  // row-major past the end: "C[200, 5]" is element 40005
        return index_text(element_count(workload) + past_index) + ": past the end of " + array + " (out of bounds)";
    return "idle thread: past the end of the data";
}

// The launch the cell belongs to: its shape, and the shared copy and phase a model map shows.
void add_launch_fields(CellDescription& d, const MapPicture& picture) {
    const ResolvedLaunch& l = picture.launch;
    if (l.model && l.model->shared()) d.fields.push_back({"__shared__: the copy of block", dim(l.model->shared_block)});
    if (l.model && l.model->phase != ModelKernel::kAllPhases)
        d.fields.push_back(
            {"phase (accesses between barriers)", n2s(l.model->phase) + " of 0.." + n2s(picture.phases - 1)});
    d.fields.push_back({"blockDim (threads per block)", dim(l.launch.block)});
    d.fields.push_back({"gridDim (blocks in the grid)", dim(l.launch.grid)});
}

}  // namespace

CellDescription describe_cell(MapPicture& picture, int column, int row) {
    CellDescription d;
    const MapLayout& layout = picture.layout;
    if (column < 0 || row < 0 || uint32_t(column) >= layout.width || uint32_t(row) >= layout.height) return d;
    const Outcome<const ThreadMap*> map = host_map(picture);  // from the GPU on first ask
    if (!map.value) {
        d.heading = map.error;
        return d;
    }
    const CellSample s = sample_cell(layout, **map.value, uint32_t(column), uint32_t(row));
    if (s.kind == CellSample::Empty) return d;
    const Workload& workload = picture.launch.workload;
    const LaunchConfig& launch = picture.launch.launch;
    const auto element = layout.element_at(uint32_t(column), uint32_t(row));
    const uint64_t n = element_count(workload), past = layout.past_index(uint32_t(column), uint32_t(row));
    d.heading = cell_heading(picture, s, element, past);
    add_launch_fields(d, picture);
    // A model kernel's map is of its writers or, asked for, its readers.
    const bool reads = picture.launch.model && picture.launch.model->reads;
    if (s.kind == CellSample::Element && s.touches == 0) {
        d.fields.push_back({reads ? "read by" : "written by",
                            picture.launch.model ? (reads ? "no thread reads it" : "no thread writes it")
                                                 : "no thread: the grid does not reach it"});
        return d;
    }
    add_thread_fields(d, picture, s);
    const uint64_t gx = uint64_t(s.block.x) * launch.block.x + s.thread.x,
                   gy = uint64_t(s.block.y) * launch.block.y + s.thread.y;
    d.fields.push_back({"global index, cuda.grid", is_2d(workload) ? "(" + n2s(gx) + ", " + n2s(gy) + ")" : n2s(gx)});
    if (s.kind == CellSample::Past) {
        add_past_fields(d, s, n + past, picture.launch.mapped_array(), n, reads);
        return d;
    }
    add_finding_fields(d, picture, element, s);
    if (s.kind == CellSample::Element)
        d.fields.push_back(
            {!picture.launch.model ? "touches"
             : reads               ? "read by"
                                   : "written by",
             s.touches == 1 ? "1 thread" : n2s(s.touches) + " threads (the one with the smallest id shown)"});
    add_memory_field(d, picture, element, reads);

    add_formulas(d, picture, s, element, gx, gy);
    return d;
}

std::string toucher_text(const ElementToucher& t, const LaunchConfig& launch) {
    const uint64_t tpb = launch.threads_per_block();
    std::string s = "thread " + dim(unlinearize(t.thread % tpb, launch.block)) + " of block " +
                    dim(unlinearize(t.thread / tpb, launch.grid)) + ": ";
    if (t.ops & ElementToucher::kAtomic) return s + "atomic at line " + std::to_string(t.write_line);
    if (t.ops & ElementToucher::kRead) s += "read at line " + std::to_string(t.read_line);
    if ((t.ops & ElementToucher::kRead) && (t.ops & ElementToucher::kWrite)) s += ", ";
    if (t.ops & ElementToucher::kWrite) s += "wrote at line " + std::to_string(t.write_line);
    return s;
}

Outcome<uint64_t> parse_element(const std::string& text, const std::vector<uint64_t>& shape) {
    std::vector<uint64_t> index;
    std::string digits;
    const auto take = [&]() -> bool {
        if (digits.empty()) return true;
        if (digits.size() > 18) return false;
        index.push_back(std::stoull(digits));
        digits.clear();
        return true;
    };
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits += c;
        } else if (c == ',' || c == ' ' || c == '[' || c == ']' || c == '\t') {
            if (!take()) return {std::nullopt, "'" + text + "': a number too large"};
        } else {
            return {std::nullopt, "'" + text + "': give the element's index, e.g. " +
                                      (shape.size() == 2 ? std::string("63, 47 (row, column)") : std::string("47"))};
        }
    }
    if (!take()) return {std::nullopt, "'" + text + "': a number too large"};
    if (index.size() != shape.size())
        return {std::nullopt, "the array has " + std::to_string(shape.size()) +
                                  (shape.size() == 1 ? " dimension: give one index" : " dimensions: give row, column")};
    uint64_t linear = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (index[d] >= shape[d])
            return {std::nullopt, "index " + std::to_string(index[d]) + " is past the array's " +
                                      std::to_string(shape[d]) + (d == 0 && shape.size() == 2 ? " rows" : "") +
                                      (d == 1 ? " columns" : "")};
        linear = linear * shape[d] + index[d];
    }
    return {linear, {}};
}

}  // namespace threadmap
