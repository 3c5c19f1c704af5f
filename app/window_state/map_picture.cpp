// Launch → emulation → layout → colours; see map_picture.hpp.
#include "app/window_state/map_picture.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <future>

#include "kernels/model/model_array_stats.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/launch/model_launch.hpp"
#include "app/reports/number_text.hpp"

namespace threadmap {

namespace {

// Adds to each cell whose first toucher is a thread of the diverged block where that thread was.
void mark_diverged(const DivergedBlock& d, const ThreadMap& map, std::vector<uint8_t>& found) {
    const uint64_t tpb = d.sides.size();
    for (uint64_t e = 0; e < found.size(); ++e) {
        if (map.touches[e] == 0 || map.first_toucher[e] / tpb != d.block) continue;
        switch (d.sides[map.first_toucher[e] % tpb]) {
            case BarrierSide::Waiting:
                found[e] |= kFoundBarrierWaiting;
                break;
            case BarrierSide::Elsewhere:
                found[e] |= kFoundBarrierElsewhere;
                break;
            case BarrierSide::Exited:
                found[e] |= kFoundBarrierExited;
                break;
            case BarrierSide::NotInvolved:
                break;
        }
    }
}

// Marks each cell whose first toucher took an undefined value through a shuffle
// (ModelResult::undefined_shuffles).
void mark_undefined_shuffles(std::vector<uint32_t> ids, const ThreadMap& map, std::vector<uint8_t>& found) {
    if (ids.empty()) return;
    std::sort(ids.begin(), ids.end());
    for (uint64_t e = 0; e < found.size(); ++e)
        if (map.touches[e] > 0 && std::binary_search(ids.begin(), ids.end(), map.first_toucher[e]))
            found[e] |= kFoundUndefinedShuffle;
}

// The findings of a model run, as the Findings tab lists them.
PictureFindings picture_findings(const std::string& output, size_t array, ModelResult& run) {
    PictureFindings f;
    f.output = output;
    f.found = std::move(run.arrays[array].found);
    f.counts = run.counts;
    auto& list = run.findings;
    if (list.size() > PictureFindings::kMaxListed) list.resize(PictureFindings::kMaxListed);
    f.list = std::move(list);
    f.printed = std::move(run.printed);
    return f;
}

PictureFindings check_findings(const ResolvedLaunch& r, const std::atomic<bool>* cancel) {
    PictureFindings f;
    ModelLaunch m = model_launch_for(r);
    m.keep_records = false;  // the map is the emulator's: the findings and their cells only
    f.output = r.mapped_array();
    const uint64_t work = thread_steps(r);
    const uint64_t elements = global_elements(*m.spec, m.params, m.launch);
    if (work > kFindingsWork || elements > kFindingsElements) {
        f.not_checked = "This launch is too large to check while the window waits (" + std::to_string(work) +
                        " thread-steps and " + std::to_string(elements) + " elements; the window checks up to " +
                        std::to_string(kFindingsWork) + " and " + std::to_string(kFindingsElements) +
                        "). threadmap check runs it.";
        return f;
    }
    auto run = run_model(m, cancel);
    if (!run.value) {
        f.not_checked = run.cancelled() ? "" : run.error;
        return f;
    }
    return picture_findings(f.output, m.spec->array_index(f.output), *run.value);
}

// A model kernel's launch: the kernel model runs it once for the map (who wrote each element
// of the mapped array), the counts and the findings.
Outcome<LaunchResult> run_model_map(const ResolvedLaunch& r, PictureFindings& findings, uint32_t& phases,
                                    const std::atomic<bool>* cancel) {
    auto run = run_model(model_launch_for(r), cancel);
    if (!run.value) return failure_of(run);
    LaunchResult out;
    out.workload = r.workload;
    out.launch = r.launch;
    out.workers = 1;
    const std::vector<ElementRecord>& records = run.value->arrays[r.model->array].records;
    if (records.size() != element_count(r.workload))  // a shared array's block never ran
        return {std::nullopt, "block " + to_string(r.model->shared_block) +
                                  " did not run: the launch ended at a divergent barrier before it"};
    out.map = ThreadMap(r.launch, records.size());
    const bool reads = r.model->reads;
    out.stats = model_array_stats(*run.value, r.model->array, reads, r.launch, r.model->shared());
    for (size_t e = 0; e < records.size(); ++e) {
        const uint32_t threads = reads ? records[e].readers : records[e].writers;
        out.map.touches[e] = threads;
        if (threads > 0) out.map.first_toucher[e] = reads ? records[e].first_reader : records[e].first_writer;
    }
    const std::vector<PastRecord>& past = run.value->arrays[r.model->array].past;
    size_t drawn = past.size();  // up to the last cell the mapped access touched
    while (drawn > 0 && (reads ? past[drawn - 1].reads : past[drawn - 1].writes) == 0) --drawn;
    for (size_t k = 0; k < drawn; ++k) {
        out.map.past_touches.push_back(reads ? past[k].reads : past[k].writes);
        out.map.past_first_toucher.push_back(reads ? past[k].first_reader : past[k].first_writer);
    }
    findings = picture_findings(r.mapped_array(), r.model->array, *run.value);
    findings.past_elsewhere = run.value->arrays[r.model->array].past_elsewhere;
    if ((findings.diverged = std::move(run.value->diverged)) && findings.found.size() == records.size())
        mark_diverged(*findings.diverged, out.map, findings.found);
    if (findings.found.size() == records.size())
        mark_undefined_shuffles(std::move(run.value->undefined_shuffles), out.map, findings.found);
    phases = run.value->phases;
    return {std::move(out), {}};
}

// The memory view of the launch, or why there is none; nullopt when cancelled.
std::optional<PictureMemory> compute_memory(const ResolvedLaunch& r, const std::atomic<bool>* cancel) {
    PictureMemory out;
    out.computed = true;
    ModelLaunch m = model_launch_for(r);
    out.spec = m.spec;
    const uint64_t work = thread_steps(r);
    if (work > kMemoryViewWork) {
        out.not_computed = "too large for the window's memory view (" + std::to_string(work) +
                           " thread-steps; it computes up to " + std::to_string(kMemoryViewWork) +
                           "): threadmap memory counts it";
        return out;
    }
    m.record_requests = true;
    m.record_elements = false;
    const size_t array = m.spec->array_index(r.mapped_array());
    if (m.spec->arrays[array].space != MemorySpace::Shared)
        m.shared_block = UINT64_MAX;  // else the mapped block's bank conflicts, per element
    const AccessOp op = r.model && r.model->reads ? AccessOp::Load : AccessOp::Store;
    if (element_count(r.workload) <= kWarpInspectorElements) {
        m.keep_requests = array;
        m.keep_op = op;
    }
    auto run = run_model(m, cancel);
    if (!run.value) {
        if (run.cancelled()) return std::nullopt;
        out.not_computed = run.error;
        return out;
    }
    out.sites = run.value->memory->sites;
    out.requests = std::move(run.value->memory->kept_requests);
    out.request_of = std::move(run.value->memory->kept_request_of);
    out.requests_capped = run.value->memory->kept_capped;
    out.place = run.value->memory->places[array];
    const std::vector<ElementCost>& costs = run.value->memory->costs[array];
    out.costs.reserve(costs.size());
    out.lanes.reserve(costs.size());
    for (const ElementCost& c : costs) {
        out.costs.push_back(op == AccessOp::Load ? c.load_cost : c.store_cost);
        out.lanes.push_back(op == AccessOp::Load ? c.load_lanes : c.store_lanes);
    }
    std::vector<MemorySite> mapped;
    std::copy_if(out.sites.begin(), out.sites.end(), std::back_inserter(mapped),
                 [&](const MemorySite& s) { return s.array == array; });
    out.totals = memory_totals(mapped, m.spec->arrays[array].space, op);
    out.access_bytes = out.place.element_bytes;
    for (const MemorySite& s : mapped)
        if (s.op == op) out.access_bytes = std::max(out.access_bytes, s.access_bytes);
    return out;
}

}  // namespace

uint64_t thread_steps(const ResolvedLaunch& r) {
    const uint64_t threads = r.launch.blocks() * r.launch.threads_per_block();
    if (r.model) {  // its loop: the inner dimension where it has one; every element at least once
        const KernelSpec& spec = *r.model->spec;
        const size_t inner = spec.param_index("inner");
        const uint64_t steps = threads * (inner < spec.params.size() ? r.model->params[inner] : 1);
        return std::max(steps, global_elements(spec, r.model->params, r.launch));
    }
    return threads * (is_matrix(r.workload.kernel) ? std::max<uint64_t>(r.workload.inner, 1) : 1);
}

void compute_picture_memory(MapPicture& p, const std::atomic<bool>* cancel) {
    if (p.memory.computed) return;
    if (auto m = compute_memory(p.launch, cancel)) p.memory = std::move(*m);
}

namespace {

// Only what is on the picture: no idle swatch without idle threads (a model kernel's map has
// none), no "nobody wrote" where every element was written, no "more than one" or finding kind
// the launch does not have.
void drop_absent_categories(Legend& g, const MapPicture& p) {
    const LaunchStats& stats = p.result.stats;
    const auto& found = p.findings.counts;
    std::erase_if(g.swatches, [&](const LegendSwatch& s) {
        switch (s.category) {
            case LegendCategory::Untouched:
                return stats.elements_untouched == 0;
            case LegendCategory::Multi:
                return stats.elements_multi == 0;
            case LegendCategory::Race:
                return found[size_t(FindingKind::WriteWriteRace)] == 0;
            case LegendCategory::Hazard:
                return found[size_t(FindingKind::ReadWriteHazard)] == 0;
            case LegendCategory::Uninitialized:
                return found[size_t(FindingKind::UninitializedRead)] == 0;
            case LegendCategory::Always:
                break;
        }
        return s.ghost && (p.launch.model || stats.threads_idle == 0);
    });
}

// Findings mode: what was checked, what is not drawn, and a divergent barrier's sides.
void add_findings_notes(Legend& g, const MapPicture& p) {
    g.note = p.color.findings_checked         ? "The emulator's model of CUDA's rules, not a GPU's observation."
             : p.findings.not_checked.empty() ? "Not checked."
                                              : "Not checked: " + p.findings.not_checked;
    uint64_t undrawn = p.findings.past_elsewhere;
    const auto& past = p.result.map.past_touches;
    for (uint64_t k = p.layout.past_cells; k < past.size(); ++k) undrawn += past[k];
    if (undrawn > 0)
        g.note += "\n" + std::to_string(undrawn) +
                  " out-of-bounds accesses lie\nbefore the start or far past\nthe "
                  "end, not drawn: the\nFindings tab lists them.";
    const auto& found = p.findings.found;
    if (p.color.findings_checked &&
        std::any_of(found.begin(), found.end(), [](uint8_t f) { return f & kFoundUndefinedShuffle; }))
        g.note +=
            "\nThe uninitialised colour also\nmarks the cells of threads that\ntook an undefined value through\na "
            "shuffle (the inspector says).";
    if (const auto& d = p.findings.diverged; d && p.color.findings_checked) {
        // Where the launch ended: the cells of that block's threads, by where each thread was.
        const std::string block = to_string(unlinearize(d->block, p.launch.launch.grid));
        const Palette palette = p.color.palette;
        g.note += "\nThe launch ended at a divergent\nbarrier in block " + block + ".";
        g.swatches.push_back(
            {finding_color(kFoundBarrierWaiting, palette), "diverged: waited at line " + std::to_string(d->line)});
        g.swatches.push_back({finding_color(kFoundBarrierElsewhere, palette), "diverged: waited elsewhere"});
        g.swatches.push_back({finding_color(kFoundBarrierExited, palette), "diverged: had exited"});
    }
}

// The memory modes: the array's totals under the legend, or why it has none.
void add_memory_note(Legend& g, const MapPicture& p) {
    const PictureMemory& m = p.memory;
    const bool shared = p.launch.model && p.launch.model->shared();
    if (p.launch.model && p.launch.model->constant() && p.color.mode != ColorMode::Lanes) {
        g.note = p.launch.mapped_array() +
                 " is __constant__: its reads\ncost their distinct addresses\n(the Memory tab), not sectors\nor "
                 "banks: colour it by lanes.";
        return;
    }
    if (p.color.mode == ColorMode::Banks && !shared) {
        g.note = "Bank conflicts are __shared__\nmemory's: map a shared array\n(the Array list, or --array).";
        return;
    }
    if (p.color.mode == ColorMode::Sectors && shared) {
        g.note = "Sectors are global memory's;\n" + p.launch.mapped_array() +
                 " is __shared__: colour it\nby bank conflicts (banks).";
        return;
    }
    const char* what = p.color.reads ? "loads" : "stores";
    if (!m.not_computed.empty() || m.totals.requests == 0) {
        g.note = m.not_computed.empty() ? std::string("No ") + what + " of this array."
                                        : "Not computed: " + m.not_computed + ".";
        return;
    }
    const MemoryTotals& t = m.totals;
    const double n = double(t.requests);
    g.note = std::string("All its ") + what + ": ";
    if (p.color.mode == ColorMode::Sectors)
        g.note += decimals(double(t.sectors) / n) + " sectors\nper request (" + decimals(double(t.ideal_sectors) / n) +
                  " would do).";
    else if (p.color.mode == ColorMode::Banks)
        g.note += decimals(double(t.wavefronts) / n) + " wavefronts\nper request (" +
                  decimals(double(t.ideal_wavefronts) / n) + " would do), at\nworst " +
                  std::to_string(t.conflict_ways_max) + "-way.";
    else
        g.note += decimals(double(t.active_lanes) / n) + " of 32\nlanes active.";
    g.note += "\nModeled as Nsight Compute counts.";
    if (shared) g.note += "\nColours: block " + to_string(p.launch.model->shared_block) + "'s requests.";
}

}  // namespace

std::string picture_sentence(const MapPicture& picture, const std::string& role) {
    std::string note = picture_legend(picture).note;
    std::replace(note.begin(), note.end(), '\n', ' ');
    return picture.launch.kernel_name() + "'s " + picture.launch.array_caption() + ", " + role + ". " + note;
}

Legend picture_legend(const MapPicture& p) {
    Legend g = make_legend(p.color);
    drop_absent_categories(g, p);
    if (p.layout.past_cells > 0) {  // but may have cells past its end, hatched
        const bool own_colour = p.color.mode == ColorMode::Findings || p.color.mode == ColorMode::Coverage;
        g.swatches.push_back(
            {own_colour ? finding_color(kFoundOutOfBounds, p.color.palette) : Rgba8{150, 150, 150, 255},
             own_colour ? "out of bounds, past the end" : "hatched: out of bounds", true});
    }
    if (p.color.mode == ColorMode::Findings)
        add_findings_notes(g, p);
    else if (is_memory_mode(p.color.mode))
        add_memory_note(g, p);
    return g;
}

namespace {

// The memory view computed beside the map and its findings (two model runs on two cores), for
// a built-in kernel: a learner's runs in the kernel host one request at a time. `cancel`, the
// caller's, reaches it whenever the picture's side looks (join).
class MemoryBeside {
  public:
    MemoryBeside(const ResolvedLaunch& r, bool wanted, const std::atomic<bool>* cancel) : cancel_(cancel) {
        if (wanted && !(r.model && model_launch_for(r).spec->run_apart))
            run_ = std::async(std::launch::async, [&r, this] { return compute_memory(r, &stop_); });
    }
    ~MemoryBeside() {  // the picture was given up: so is its memory view
        stop_ = true;
    }
    bool running() const { return run_.valid(); }
    // Waits for it, passing a cancel on; nullopt when cancelled.
    std::optional<PictureMemory> join() {
        using namespace std::chrono_literals;
        while (run_.wait_for(2ms) != std::future_status::ready)
            if (cancel_ && cancel_->load()) stop_ = true;
        return run_.get();
    }

  private:
    const std::atomic<bool>* cancel_;
    std::atomic<bool> stop_{false};
    std::future<std::optional<PictureMemory>> run_;
};

}  // namespace

namespace {

std::shared_ptr<MapPicture> build_compare(const ResolvedLaunch& r, const PictureOptions& o,
                                          const std::atomic<bool>* cancel) {
    if (!o.compare.any() || !r.model) return nullptr;
    const ModelKernel& k = *r.model;
    const KernelSpec* other = o.compare.kernel.empty() ? k.spec : find_builtin_kernel(o.compare.kernel);
    if (!other || other->param_names() != k.spec->param_names()) return nullptr;
    const ArraySpec& mapped = k.spec->arrays[k.array];
    const size_t array = other->array_index(o.compare.array.empty() ? mapped.name : o.compare.array);
    if (array == other->arrays.size() || other->arrays[array].space != mapped.space) return nullptr;
    if (other == k.spec && array == k.array) return nullptr;  // the same picture
    ResolvedLaunch c = r;
    c.preset.clear();
    c.model->spec = other;
    c.model->array = array;
    c.model->owner.reset();
    c.model->expected = nullptr;
    c.workload = model_workload(*c.model, c.launch);
    if (element_count(c.workload) > kMaxCompareCells) return nullptr;
    PictureOptions co = o;
    co.compare = {};
    auto built = build_picture(c, co, nullptr, cancel);
    return built.value ? std::make_shared<MapPicture>(std::move(*built.value)) : nullptr;
}

}  // namespace

PictureResult build_picture(const ResolvedLaunch& r, const PictureOptions& o, MapPicture* previous,
                            const std::atomic<bool>* cancel) {
    auto layout = make_layout(r.workload, r.launch, o.rows, o.max_side, o.max_cells);
    if (!layout.value) return failure_of(layout);
    const bool memory_wanted = o.memory || is_memory_mode(o.mode);
    MemoryBeside memory(r, memory_wanted, cancel);
    // A lesson's comparison, computed beside the map (its own model run) on another core.
    std::future<std::shared_ptr<MapPicture>> compare;
    if (o.compare.any()) compare = std::async(std::launch::async, [&] { return build_compare(r, o, cancel); });
    static std::atomic<uint64_t> pictures{0};
    MapPicture p;
    p.serial = ++pictures;
    p.launch = r;
    // A model kernel runs on the CPU in the kernel model, whatever the backend.
    p.executor = o.backend && !r.model ? o.backend->executor : cpu_backend("").executor;
    Outcome<LaunchResult> run =
        r.model ? run_model_map(r, p.findings, p.phases, cancel)
                : p.executor->run(r.workload, r.launch, previous ? &previous->result : nullptr, cancel);
    if (!run.value) return failure_of(run);
    p.result = std::move(*run.value);
    p.layout = *layout.value;
    if (!p.result.map.past_touches.empty()) relayout(p, o);  // with the cells past the end
    if (memory.running()) {
        if (auto m = memory.join()) p.memory = std::move(*m);
    } else if (memory_wanted) {
        compute_picture_memory(p, cancel);
    }
    if (memory_wanted && !p.memory.computed) return cancellation();
    if (o.check_findings && !r.model) p.findings = check_findings(r, cancel);
    if (compare.valid()) p.compare = compare.get();
    recolor(p, o.mode, o.palette, o.gpu);
    return PictureResult{std::move(p), {}};
}

bool relayout(MapPicture& p, const PictureOptions& o) {
    auto layout = make_layout(p.launch.workload, p.launch.launch, o.rows, o.max_side, o.max_cells,
                              p.result.map.past_touches.size());
    if (!layout.value) return false;
    p.layout = *layout.value;
    p.prepared_colors.clear();
    if (p.compare) relayout(*p.compare, o);
    return true;
}

void recolor(MapPicture& p, ColorMode mode, Palette palette, const std::optional<OccupancyGpu>& gpu) {
    p.occupancy.reset();
    p.occupancy_error = "no GPU chosen";
    if (gpu) {
        const ModelLaunch m = model_launch_for(p.launch);
        const auto resources = launch_resources(m, gpu->sm, std::nullopt, std::nullopt);
        if (resources.value) {
            p.occupancy = occupancy_report(m, *gpu, *resources.value);
            p.occupancy_error =
                p.occupancy->occupancy.active_blocks_per_sm == 0
                    ? "this launch cannot run on " + gpu->name + ": " + p.occupancy->occupancy.cannot_launch
                    : "";
        } else {
            p.occupancy_error = resources.error;
        }
    }
    if (is_memory_mode(mode)) compute_picture_memory(p);
    p.color = {mode, palette, p.launch.launch.grid, p.launch.launch.block};
    p.color.reads = p.launch.model && p.launch.model->reads;
    p.color.findings_checked = p.findings.found.size() == element_count(p.launch.workload);
    if (p.occupancy) {
        p.color.wave_slots = p.occupancy->waves.slots;
        p.color.sms = uint64_t(p.occupancy->gpu.sms);
    }
    p.prepared_colors.clear();
    if (p.compare) recolor(*p.compare, mode, palette, gpu);
}

const uint8_t* element_figures(const MapPicture& p) {
    if (!uses_element_figures(p.color.mode)) return nullptr;
    // Sectors are a global array's, bank conflicts a shared one's: the other is left dark (both,
    // for a __constant__ array).
    const bool shared = p.launch.model && p.launch.model->shared();
    const bool constant = p.launch.model && p.launch.model->constant();
    if ((p.color.mode == ColorMode::Sectors && (shared || constant)) || (p.color.mode == ColorMode::Banks && !shared))
        return nullptr;
    const auto& v = p.color.mode == ColorMode::Lanes ? p.memory.lanes
                    : is_memory_mode(p.color.mode)   ? p.memory.costs
                                                     : p.findings.found;
    return v.size() == element_count(p.launch.workload) ? v.data() : nullptr;
}

void prepare_colors(MapPicture& p) {
    if (p.result.device_map || uint64_t(p.layout.width) * p.layout.height <= kPaintInFrameCells) return;
    p.prepared_colors.resize(size_t(p.layout.width) * p.layout.height);
    colorize_layout(p.layout, p.result.map, p.color, p.prepared_colors.data(), element_figures(p));
}

const ThreadMap& host_map(MapPicture& p) {
    p.executor->fetch_map(p.result);
    return p.result.map;
}

std::string paint_picture(MapPicture& p, CellGridRenderer& renderer, CudaGlPainter& painter) {
    assert(p.executor && "a picture is made by build_picture, which records its executor");
    // The memory modes' figures are on the host: the GPU paints the other modes.
    const bool on_gpu = p.result.device_map != nullptr;
    const std::string why_not = !on_gpu ? ""
                                : uses_element_figures(p.color.mode)
                                    ? "the memory view and findings are computed on the host"
                                    : painter.paint(renderer, p.layout, p.result, p.color);
    if (on_gpu && why_not.empty()) return "colours painted on the GPU (CUDA-OpenGL interop)";
    Rgba8* cells = renderer.map_cells(p.layout.width, p.layout.height);
    if (p.prepared_colors.size() == size_t(p.layout.width) * p.layout.height)
        std::copy(p.prepared_colors.begin(), p.prepared_colors.end(), cells);
    else
        colorize_layout(p.layout, host_map(p), p.color, cells, element_figures(p));
    renderer.unmap_cells();
    p.prepared_colors = {};  // in the GL buffer now: the memory goes back
    return on_gpu ? "colours painted on the host (" + why_not + ")" : "";
}

}  // namespace threadmap
