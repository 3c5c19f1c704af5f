// Launch → emulation → layout → colours; see map_picture.hpp.
#include "app/window_state/map_picture.hpp"

#include <algorithm>
#include <memory>
#include <cassert>
#include <chrono>
#include <future>

#include "kernels/model/model_array_stats.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/launch/model_launch.hpp"
#include "app/reports/lesson_text.hpp"
#include "kernels/core/number_text.hpp"
#include "kernels/core/zeroed_buffer.hpp"
#include "viz/layout/map_labels.hpp"

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

// The findings of a model run, as the Findings tab lists them (the run stays whole: a lesson's
// comparison of another array takes its own from it).
PictureFindings picture_findings(const std::string& output, size_t array, const ModelResult& run) {
    PictureFindings f;
    f.output = output;
    f.found = run.arrays[array].found;
    f.counts = run.counts;
    const size_t listed = std::min(run.findings.size(), PictureFindings::kMaxListed);
    f.list.assign(run.findings.begin(), run.findings.begin() + ptrdiff_t(listed));
    f.printed = run.printed;
    return f;
}

PictureFindings check_findings(const ResolvedLaunch& resolved, bool any_size, const std::atomic<bool>* cancel) {
    PictureFindings f;
    ModelLaunch model_launch = model_launch_for(resolved);
    model_launch.keep_records = 0;  // the map is the emulator's: the findings and their cells only
    f.output = resolved.mapped_array();
    const uint64_t work = thread_steps(resolved);
    const uint64_t elements = global_elements(*model_launch.spec, model_launch.params, model_launch.launch);
    if (!any_size && (work > kFindingsWork || elements > kFindingsElements)) {
        f.not_checked = "This launch is too large to check while the window waits (" + grouped(work) +
                        " thread-steps and " + grouped(elements) + " elements; the window checks up to " +
                        grouped(kFindingsWork) + " and " + grouped(kFindingsElements) + "). threadmap check runs it.";
        return f;
    }
    auto run = run_model(model_launch, cancel);
    if (!run.value) {
        f.not_checked = run.cancelled() ? "" : run.error;
        return f;
    }
    return picture_findings(f.output, model_launch.spec->array_index(f.output), *run.value);
}

// A model kernel's map of its mapped array (who wrote or read each element), its counts and
// its findings, from the kernel model's run of its launch.
Outcome<LaunchResult> model_map(const ResolvedLaunch& resolved, const ModelResult& run, PictureFindings& findings,
                                uint32_t& phases) {
    LaunchResult out;
    out.workload = resolved.workload;
    out.launch = resolved.launch;
    out.workers = 1;
    const std::vector<ElementRecord>& records = run.arrays[resolved.model->array].records;
    if (records.size() != element_count(resolved.workload))  // a shared array's block never ran
        return {std::nullopt, "block " + to_string(resolved.model->shared_block) +
                                  " did not run: the launch ended at a divergent barrier before it"};
    out.map = ThreadMap(resolved.launch, records.size());
    const bool reads = resolved.model->reads;
    out.stats = model_array_stats(run, resolved.model->array, reads, resolved.launch, resolved.model->shared());
    for (size_t e = 0; e < records.size(); ++e) {
        const uint32_t threads = reads ? records[e].readers : records[e].writers;
        out.map.touches[e] = threads;
        if (threads > 0) out.map.first_toucher[e] = reads ? records[e].first_reader : records[e].first_writer;
    }
    const std::vector<PastRecord>& past = run.arrays[resolved.model->array].past;
    size_t drawn = past.size();  // up to the last cell the mapped access touched
    while (drawn > 0 && (reads ? past[drawn - 1].reads : past[drawn - 1].writes) == 0) --drawn;
    for (size_t k = 0; k < drawn; ++k) {
        out.map.past_touches.push_back(reads ? past[k].reads : past[k].writes);
        out.map.past_first_toucher.push_back(reads ? past[k].first_reader : past[k].first_writer);
    }
    findings = picture_findings(resolved.mapped_array(), resolved.model->array, run);
    findings.past_elsewhere = run.arrays[resolved.model->array].past_elsewhere;
    if ((findings.diverged = run.diverged) && findings.found.size() == records.size())
        mark_diverged(*findings.diverged, out.map, findings.found);
    if (findings.found.size() == records.size())
        mark_undefined_shuffles(run.undefined_shuffles, out.map, findings.found);
    phases = run.phases;
    return {std::move(out), {}};
}

// The memory view of the launch, or why there is none; nullopt when cancelled.
std::optional<PictureMemory> compute_memory(const ResolvedLaunch& resolved, bool every_site,
                                            const std::atomic<bool>* cancel) {
    PictureMemory out;
    out.computed = true;
    out.every_site = every_site;
    ModelLaunch model_launch = model_launch_for(resolved);
    out.spec = model_launch.spec;
    const uint64_t work = thread_steps(resolved);
    if (work > kMemoryViewWork) {
        out.not_computed = "too large for the window's memory view (" + std::to_string(work) +
                           " thread-steps; it computes up to " + std::to_string(kMemoryViewWork) +
                           "): threadmap memory counts it";
        return out;
    }
    model_launch.record_requests = true;
    model_launch.record_elements = false;
    const size_t array = model_launch.spec->array_index(resolved.mapped_array());
    if (model_launch.spec->arrays[array].space != MemorySpace::Shared)
        model_launch.shared_block = UINT64_MAX;  // else the mapped block's bank conflicts, per element
    const AccessOp op = resolved.model && resolved.model->reads ? AccessOp::Load : AccessOp::Store;
    model_launch.cost_array = array;  // the map colours this array's elements only
    if (!every_site) model_launch.requests_array = array;
    if (element_count(resolved.workload) <= kWarpInspectorElements) {
        model_launch.keep_requests = array;
        model_launch.keep_op = op;
    }
    auto run = run_model(model_launch, cancel);
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
    out.totals = memory_totals(mapped, model_launch.spec->arrays[array].space, op);
    out.access_bytes = out.place.element_bytes;
    for (const MemorySite& s : mapped)
        if (s.op == op) out.access_bytes = std::max(out.access_bytes, s.access_bytes);
    return out;
}

}  // namespace

uint64_t thread_steps(const ResolvedLaunch& resolved) {
    const uint64_t threads = resolved.launch.blocks() * resolved.launch.threads_per_block();
    if (resolved.model) {  // its loop: the inner dimension where it has one; every element at least once
        const KernelSpec& spec = *resolved.model->spec;
        const size_t inner = spec.param_index("inner");
        const uint64_t steps = threads * (inner < spec.params.size() ? resolved.model->params[inner] : 1);
        return std::max(steps, global_elements(spec, resolved.model->params, resolved.launch));
    }
    return threads * (is_matrix(resolved.workload.kernel) ? std::max<uint64_t>(resolved.workload.inner, 1) : 1);
}

void compute_picture_memory(MapPicture& picture, bool every_site, const std::atomic<bool>* cancel) {
    if (memory_ready(picture.memory, every_site)) return;
    if (auto m = compute_memory(picture.launch, every_site, cancel)) picture.memory = std::move(*m);
}

namespace {

// Only what is on the picture: no idle swatch without idle threads (a model kernel's map has
// none), no "nobody wrote" where every element was written, no "more than one" or finding kind
// the launch does not have.
void drop_absent_categories(Legend& g, const MapPicture& picture) {
    const LaunchStats& stats = picture.result.stats;
    const auto& found = picture.findings.counts;
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
        return s.ghost && (picture.launch.model || stats.threads_idle == 0);
    });
}

// Findings mode: what was checked, what is not drawn, and a divergent barrier's sides.
void add_findings_notes(Legend& g, const MapPicture& picture) {
    g.note = picture.color.findings_checked         ? "The emulator's model of CUDA's rules, not a GPU's observation."
             : picture.findings.not_checked.empty() ? "Not checked."
                                                    : "Not checked: " + picture.findings.not_checked;
    uint64_t undrawn = picture.findings.past_elsewhere;
    const auto& past = picture.result.map.past_touches;
    for (uint64_t k = picture.layout.past_cells; k < past.size(); ++k) undrawn += past[k];
    if (undrawn > 0)
        g.note += "\n" + std::to_string(undrawn) +
                  " out-of-bounds accesses lie\nbefore the start or far past\nthe "
                  "end, not drawn: the\nFindings tab lists them.";
    const auto& found = picture.findings.found;
    if (picture.color.findings_checked &&
        std::any_of(found.begin(), found.end(), [](uint8_t f) { return f & kFoundUndefinedShuffle; }))
        g.note +=
            "\nThe uninitialised colour also\nmarks the cells of threads that\ntook an undefined value through\na "
            "shuffle (the inspector says).";
    if (const auto& d = picture.findings.diverged; d && picture.color.findings_checked) {
        // Where the launch ended: the cells of that block's threads, by where each thread was.
        const std::string block = to_string(unlinearize(d->block, picture.launch.launch.grid));
        const Palette palette = picture.color.palette;
        g.note += "\nThe launch ended at a divergent\nbarrier in block " + block + ".";
        g.swatches.push_back(
            {finding_color(kFoundBarrierWaiting, palette), "diverged: waited at line " + std::to_string(d->line)});
        g.swatches.push_back({finding_color(kFoundBarrierElsewhere, palette), "diverged: waited elsewhere"});
        g.swatches.push_back({finding_color(kFoundBarrierExited, palette), "diverged: had exited"});
    }
}

// The memory modes: the array's totals under the legend, or why it has none.
// The mapped array's mean per request on the ramp, and what would do where it differs: a learner
// who changes the launch sees the mark move where the cells' colour barely does (4 sectors
// against 5).
void mark_mean(Legend& g, ColorMode mode, double mean, double ideal) {
    if (decimals(mean) == decimals(ideal)) {
        g.marks.push_back({memory_ramp_at(mode, mean), "all: " + decimals(mean) + ", as would do"});
        return;
    }
    g.marks.push_back({memory_ramp_at(mode, mean), "all: " + decimals(mean)});
    g.marks.push_back({memory_ramp_at(mode, ideal), "would do: " + decimals(ideal)});
}

void add_memory_note(Legend& g, const MapPicture& picture) {
    const PictureMemory& m = picture.memory;
    const bool shared = picture.launch.model && picture.launch.model->shared();
    if (picture.launch.model && picture.launch.model->constant() && picture.color.mode != ColorMode::Lanes) {
        g.note = picture.launch.mapped_array() +
                 " is __constant__: its reads\ncost their distinct addresses\n(the Memory tab), not sectors\nor "
                 "banks: colour it by lanes.";
        return;
    }
    if (picture.color.mode == ColorMode::Banks && !shared) {
        g.note = "Bank conflicts are __shared__\nmemory's: map a shared array\n(the Array list, or --array).";
        return;
    }
    if (picture.color.mode == ColorMode::Sectors && shared) {
        g.note = "Sectors are global memory's;\n" + picture.launch.mapped_array() +
                 " is __shared__: colour it\nby bank conflicts (banks).";
        return;
    }
    const char* what = picture.color.reads ? "loads" : "stores";
    if (!m.not_computed.empty() || m.totals.requests == 0) {
        g.note = m.not_computed.empty() ? std::string("No ") + what + " of this array."
                                        : "Not computed: " + m.not_computed + ".";
        return;
    }
    const MemoryTotals& t = m.totals;
    const double n = double(t.requests);
    g.note = std::string("All its ") + what + ": ";
    if (picture.color.mode == ColorMode::Sectors) {
        g.note += decimals(double(t.sectors) / n) + " sectors\nper request (" + decimals(double(t.ideal_sectors) / n) +
                  " would do).";
        mark_mean(g, ColorMode::Sectors, double(t.sectors) / n, double(t.ideal_sectors) / n);
    } else if (picture.color.mode == ColorMode::Banks)
        g.note += decimals(double(t.wavefronts) / n) + " wavefronts\nper request (" +
                  decimals(double(t.ideal_wavefronts) / n) + " would do), at\nworst " +
                  std::to_string(t.conflict_ways_max) + "-way.";
    else {
        g.note += decimals(double(t.active_lanes) / n) + " of 32\nlanes active.";
        mark_mean(g, ColorMode::Lanes, double(t.active_lanes) / n, 32);
    }
    g.note += "\nModeled as Nsight Compute counts.";
    if (shared) g.note += "\nColours: block " + to_string(picture.launch.model->shared_block) + "'s requests.";
}

}  // namespace

std::string picture_sentence(const MapPicture& picture, const std::string& role) {
    std::string note = picture_legend(picture).note;
    std::replace(note.begin(), note.end(), '\n', ' ');
    return picture.launch.kernel_name() + "'s " + picture.launch.array_caption() + ", " + role + ". " + note;
}

Legend picture_legend(const MapPicture& picture) {
    Legend g = make_legend(picture.color);
    drop_absent_categories(g, picture);
    if (picture.layout.past_cells > 0) {  // but may have cells past its end, hatched
        const bool own_colour = picture.color.mode == ColorMode::Findings || picture.color.mode == ColorMode::Coverage;
        g.swatches.push_back(
            {own_colour ? finding_color(kFoundOutOfBounds, picture.color.palette) : Rgba8{150, 150, 150, 255},
             own_colour ? "out of bounds, past the end" : "hatched: out of bounds", true});
    }
    if (picture.color.mode == ColorMode::Findings)
        add_findings_notes(g, picture);
    else if (is_memory_mode(picture.color.mode))
        add_memory_note(g, picture);
    // How to read the rulers, where x runs down the rows (the tutorial's matmul).
    const std::string axis = map_labels(picture.layout, picture.launch.array_caption()).axis_note;
    if (!axis.empty()) g.note += (g.note.empty() ? "" : "\n") + axis;
    return g;
}

namespace {

// The memory view computed beside the map and its findings (two model runs on two cores), for
// a built-in kernel: a learner's runs in the kernel host one request at a time. `cancel`, the
// caller's, reaches it whenever the picture's side looks (join).
class MemoryBeside {
  public:
    MemoryBeside(const ResolvedLaunch& resolved, bool wanted, bool every_site, const std::atomic<bool>* cancel)
        : cancel_(cancel) {
        if (wanted && !(resolved.model && model_launch_for(resolved).spec->run_apart))
            run_ = std::async(std::launch::async,
                              [&resolved, every_site, this] { return compute_memory(resolved, every_site, &stop_); });
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

// The launch of a lesson's comparison picture (PictureOptions::compare), or none where it does
// not apply.
std::optional<ResolvedLaunch> compared_launch(const ResolvedLaunch& resolved, const PictureOptions& o) {
    if (!o.compare.any() || !resolved.model) return std::nullopt;
    const ModelKernel& k = *resolved.model;
    const KernelSpec* other = o.compare.kernel.empty() ? k.spec : find_builtin_kernel(o.compare.kernel);
    if (!other || other->param_names() != k.spec->param_names()) return std::nullopt;
    const ArraySpec& mapped = k.spec->arrays[k.array];
    const size_t array = other->array_index(o.compare.array.empty() ? mapped.name : o.compare.array);
    if (array == other->arrays.size() || other->arrays[array].space != mapped.space) return std::nullopt;
    if (other == k.spec && array == k.array) return std::nullopt;  // the same picture
    ResolvedLaunch c = resolved;
    c.preset.clear();
    c.lesson.clear();
    c.model->spec = other;
    c.model->array = array;
    c.model->owner.reset();
    c.model->expected = nullptr;
    c.workload = model_workload(*c.model, c.launch);
    if (element_count(c.workload) > kMaxCompareCells) return std::nullopt;
    return c;
}

PictureOptions compare_options(const PictureOptions& o) {
    PictureOptions co = o;
    co.compare = {};
    return co;
}

std::atomic<uint64_t> pictures_made{0};  // MapPicture::serial

MapPicture new_picture(const ResolvedLaunch& resolved, const PictureOptions& o) {
    MapPicture picture;
    picture.serial = ++pictures_made;
    picture.launch = resolved;
    // A model kernel runs on the CPU in the kernel model, whatever the backend.
    picture.executor = o.backend && !resolved.model ? o.backend->executor : cpu_backend("").executor;
    return picture;
}

// The run's map in the picture, laid out (again, when it has cells past the array's end).
void take_run(MapPicture& picture, LaunchResult run, const MapLayout& layout, const PictureOptions& o) {
    picture.result = std::move(run);
    picture.layout = layout;
    if (!picture.result.map.past_touches.empty()) relayout(picture, o);  // with the cells past the end
}

// A comparison of another array of the same kernel: its map and findings from the map's own
// run (the launch the model runs is the same: model_launch_for depends on the kernel, its
// parameters, phase and block, not on the array), its memory view computed here when wanted.
std::shared_ptr<MapPicture> compare_from_run(const ResolvedLaunch& c, const PictureOptions& o, const ModelResult& run,
                                             const std::atomic<bool>* cancel) {
    const PictureOptions co = compare_options(o);
    auto layout = make_layout(c.workload, c.launch, co.rows, co.max_side, co.max_cells);
    if (!layout.value) return nullptr;
    MapPicture picture = new_picture(c, co);
    auto map = model_map(c, run, picture.findings, picture.phases);
    if (!map.value) return nullptr;
    take_run(picture, std::move(*map.value), *layout.value, co);
    if (co.memory || is_memory_mode(co.mode)) {
        compute_picture_memory(picture, co.memory, cancel);
        if (!picture.memory.computed) return nullptr;
    }
    recolor(picture, co.mode, co.palette, co.gpu);
    return std::make_shared<MapPicture>(std::move(picture));
}

}  // namespace

PictureResult build_picture(const ResolvedLaunch& resolved, const PictureOptions& o, MapPicture* previous,
                            const std::atomic<bool>* cancel) {
    auto layout = make_layout(resolved.workload, resolved.launch, o.rows, o.max_side, o.max_cells);
    if (!layout.value) return failure_of(layout);
    const bool memory_wanted = o.memory || is_memory_mode(o.mode);
    MemoryBeside memory(resolved, memory_wanted, o.memory, cancel);
    // A lesson's comparison: of the same kernel, from the map's run; of another, its own run
    // beside the map on another core.
    const std::optional<ResolvedLaunch> compared = compared_launch(resolved, o);
    const bool same_run = compared && compared->model->spec == resolved.model->spec;
    std::future<std::shared_ptr<MapPicture>> compare;
    if (compared && !same_run)
        compare = std::async(std::launch::async, [&] {
            auto built = build_picture(*compared, compare_options(o), nullptr, cancel);
            return built.value ? std::make_shared<MapPicture>(std::move(*built.value)) : nullptr;
        });
    MapPicture picture = new_picture(resolved, o);
    // The colours go where the replaced picture's went (64 MB for a 16M-cell map: fresh pages
    // each time cost this kind of machine more than colouring them does).
    if (previous) picture.prepared_colors = std::move(previous->prepared_colors);
    std::optional<ModelResult> model_run;
    Outcome<LaunchResult> run{std::nullopt, {}};
    if (resolved.model) {
        ModelLaunch model_launch = model_launch_for(resolved);
        if (same_run) model_launch.keep_records |= uint64_t(1) << compared->model->array;
        // Beside its memory view or another kernel's picture the cores are taken: on one worker,
        // it makes no second emulator (its set-up, its fiber stacks, the join) to share them with.
        if (memory.running() || compare.valid()) model_launch.workers = 1;
        auto r = run_model(model_launch, cancel);
        if (!r.value) return failure_of(r);
        model_run = std::move(*r.value);
        run = model_map(resolved, *model_run, picture.findings, picture.phases);
    } else {
        run = picture.executor->run(resolved.workload, resolved.launch, previous ? &previous->result : nullptr, cancel);
    }
    if (!run.value) return failure_of(run);
    take_run(picture, std::move(*run.value), *layout.value, o);
    // The findings while the memory view runs beside them (after it, a seed matmul's blockDim
    // change waited for the two runs one after the other); a findings run spread over the
    // cores (run_model_here) shares them with it.
    if (o.check_findings && !resolved.model) picture.findings = check_findings(resolved, o.findings_any_size, cancel);
    if (memory.running()) {
        if (auto m = memory.join()) picture.memory = std::move(*m);
    } else if (memory_wanted) {
        compute_picture_memory(picture, o.memory, cancel);
    }
    if (memory_wanted && !picture.memory.computed) return cancellation();
    if (same_run) picture.compare = compare_from_run(*compared, o, *model_run, cancel);
    if (compare.valid()) picture.compare = compare.get();
    recolor(picture, o.mode, o.palette, o.gpu);
    return PictureResult{std::move(picture), {}};
}

bool relayout(MapPicture& picture, const PictureOptions& o) {
    auto layout = make_layout(picture.launch.workload, picture.launch.launch, o.rows, o.max_side, o.max_cells,
                              picture.result.map.past_touches.size());
    if (!layout.value) return false;
    picture.layout = *layout.value;
    picture.prepared_colors.clear();
    if (picture.compare) relayout(*picture.compare, o);
    return true;
}

void recolor(MapPicture& picture, ColorMode mode, Palette palette, const std::optional<OccupancyGpu>& gpu) {
    picture.occupancy.reset();
    picture.occupancy_error = "no GPU chosen";
    if (gpu) {
        const ModelLaunch model_launch = model_launch_for(picture.launch);
        const auto resources = launch_resources(model_launch, gpu->sm, std::nullopt, std::nullopt);
        if (resources.value) {
            picture.occupancy = occupancy_report(model_launch, *gpu, *resources.value);
            picture.occupancy_error =
                picture.occupancy->occupancy.active_blocks_per_sm == 0
                    ? "this launch cannot run on " + gpu->name + ": " + picture.occupancy->occupancy.cannot_launch
                    : "";
        } else {
            picture.occupancy_error = resources.error;
        }
    }
    if (is_memory_mode(mode)) compute_picture_memory(picture, false);
    picture.color = {mode, palette, picture.launch.launch.grid, picture.launch.launch.block};
    picture.color.reads = picture.launch.model && picture.launch.model->reads;
    picture.color.findings_checked = picture.findings.found.size() == element_count(picture.launch.workload);
    if (picture.occupancy) {
        picture.color.wave_slots = picture.occupancy->waves.slots;
        picture.color.sms = uint64_t(picture.occupancy->gpu.sms);
    }
    picture.prepared_colors.clear();
    if (picture.compare) recolor(*picture.compare, mode, palette, gpu);
}

const uint8_t* element_figures(const MapPicture& picture) {
    if (!uses_element_figures(picture.color.mode)) return nullptr;
    // Sectors are a global array's, bank conflicts a shared one's: the other is left dark (both,
    // for a __constant__ array).
    const bool shared = picture.launch.model && picture.launch.model->shared();
    const bool constant = picture.launch.model && picture.launch.model->constant();
    if ((picture.color.mode == ColorMode::Sectors && (shared || constant)) ||
        (picture.color.mode == ColorMode::Banks && !shared))
        return nullptr;
    const auto& v = picture.color.mode == ColorMode::Lanes ? picture.memory.lanes
                    : is_memory_mode(picture.color.mode)   ? picture.memory.costs
                                                           : picture.findings.found;
    return v.size() == element_count(picture.launch.workload) ? v.data() : nullptr;
}

std::function<Rgba8(uint32_t x, uint32_t y)> cell_colors(const MapPicture& picture) {
    if (picture.result.map.size() == 0) return {};
    // The sampler (its tables: up to 12 MB for a large grid) is made at the first cell asked
    // for: a frame whose view is too far out to colour cells one by one asks for none.
    return [&picture, costs = element_figures(picture),
            sampler = std::make_shared<std::unique_ptr<const CellSampler>>()](uint32_t x, uint32_t y) {
        if (!*sampler) *sampler = std::make_unique<const CellSampler>(picture.layout, picture.result.map);
        CellSample s = (**sampler)(x, y);
        if (costs && s.kind == CellSample::Element) s.cost = costs[picture.layout.element_index(x, y)];
        return colorize(s, picture.color);
    };
}

void prepare_colors(MapPicture& picture) {
    if (picture.result.device_map || uint64_t(picture.layout.width) * picture.layout.height <= kPaintInFrameCells)
        return;
    const size_t cells = size_t(picture.layout.width) * picture.layout.height;
    reserve_huge(picture.prepared_colors, cells);
    picture.prepared_colors.resize(cells);
    colorize_layout(picture.layout, picture.result.map, picture.color, picture.prepared_colors.data(),
                    element_figures(picture));
}

MapPicture spare_buffers(uint64_t elements, uint64_t colour_cells) {
    MapPicture spare;
    ThreadMap& map = spare.result.map;
    map = ThreadMap({}, elements);
    map.first_toucher.fault_in();
    map.touches.fault_in();
    if (colour_cells > kPaintInFrameCells) {
        reserve_huge(spare.prepared_colors, colour_cells);
        spare.prepared_colors.resize(colour_cells);  // written, so faulted in; cleared: not prepared
        spare.prepared_colors.clear();
    }
    return spare;
}

Outcome<const ThreadMap*> host_map(MapPicture& picture) {
    if (const Outcome<void> fetched = picture.executor->fetch_map(picture.result); !fetched.done())
        return failure_of(fetched);
    return {&picture.result.map, {}};
}

std::string paint_picture(MapPicture& picture, CellGridRenderer& renderer, CudaGlPainter& painter) {
    assert(picture.executor && "a picture is made by build_picture, which records its executor");
    // The memory modes' figures are on the host: the GPU paints the other modes.
    const bool on_gpu = picture.result.device_map != nullptr;
    const std::string why_not = !on_gpu ? ""
                                : uses_element_figures(picture.color.mode)
                                    ? "the memory view and findings are computed on the host"
                                    : painter.paint(renderer, picture.layout, picture.result, picture.color);
    if (on_gpu && why_not.empty()) return "colours painted on the GPU (CUDA-OpenGL interop)";
    const bool prepared = picture.prepared_colors.size() == size_t(picture.layout.width) * picture.layout.height;
    const Outcome<const ThreadMap*> map = prepared ? Outcome<const ThreadMap*>{nullptr, {}} : host_map(picture);
    if (!map.value) return map.error;  // nothing painted: the status line says why
    Rgba8* cells = renderer.map_cells(picture.layout.width, picture.layout.height);
    if (cells == nullptr) return "";  // GL kept why: the frame or figure that shows it says so
    if (prepared)
        std::copy(picture.prepared_colors.begin(), picture.prepared_colors.end(), cells);
    else
        colorize_layout(picture.layout, **map.value, picture.color, cells, element_figures(picture));
    renderer.unmap_cells();
    // In the GL buffer now; the room stays for the next map this picture's buffers are lent to.
    picture.prepared_colors.clear();
    return on_gpu ? "colours painted on the host (" + why_not + ")" : "";
}

}  // namespace threadmap
