// Memory panel; see memory_panel.hpp.
#include "app/panels/memory_panel.hpp"

#include <imgui.h>

#include <cctype>
#include <cstdio>
#include <sstream>

#include "app/reports/memory_report.hpp"
#include "kernels/core/number_text.hpp"
#include "app/panels/panel_widgets.hpp"
#include "app/panels/warp_overlay.hpp"

namespace threadmap {

namespace {

std::vector<std::string> source_lines(const std::string& source) {
    std::vector<std::string> lines;
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) {
        const size_t first = line.find_first_not_of(' ');
        lines.push_back(first == std::string::npos ? "" : line.substr(first));
    }
    return lines;
}

// "Global stores: 28.57 sectors per request (3.57 would do): 8.0x the sectors." and the like.
void totals_line(const PictureMemory& m, MemorySpace space, AccessOp op) {
    const MemoryTotals t = memory_totals(m.sites, space, op);
    if (t.requests == 0) return;
    const double n = double(t.requests);
    std::string line = std::string(memory_space_name(space)) + " " + access_op_name(op) + "s: ";
    line[0] = char(std::toupper(line[0]));
    if (space == MemorySpace::Constant) {
        line += decimals(double(t.constant_addresses) / n) +
                " distinct addresses per request (1 would do: the constant cache serves one address at a time); at "
                "worst " +
                std::to_string(t.constant_addresses_max) + " in one";
    } else if (space == MemorySpace::Global) {
        line += decimals(double(t.sectors) / n) + " sectors per request (" + decimals(double(t.ideal_sectors) / n) +
                " would do)";
        if (t.ideal_sectors && t.sectors > t.ideal_sectors)
            line += ": " + decimals(double(t.sectors) / double(t.ideal_sectors), 1) + "x the bytes";
    } else {
        line += decimals(double(t.wavefronts) / n) + " wavefronts per request (" +
                decimals(double(t.ideal_wavefronts) / n) + " would do); the worst a " +
                std::to_string(t.conflict_ways_max) + "-way bank conflict";
    }
    line += "; " + decimals(double(t.active_lanes) / n, 1) + " of 32 lanes active.";
    text_wrapped("%s", line.c_str());
}

// The tab's lead: the global or shared access furthest from its ideal (sectors, or wavefronts
// for shared memory), in large type, with what would do.
void lead_figure(AppState& state, const PictureMemory& m) {
    struct Lead {
        double ratio = 0;
        std::string figure, meaning;
    } lead;
    for (MemorySpace space : {MemorySpace::Global, MemorySpace::Shared})
        for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
            const MemoryTotals t = memory_totals(m.sites, space, op);
            const bool global = space == MemorySpace::Global;
            const uint64_t amount = global ? t.sectors : t.wavefronts,
                           ideal = global ? t.ideal_sectors : t.ideal_wavefronts;
            if (t.requests == 0 || ideal == 0) continue;
            const double n = double(t.requests), ratio = double(amount) / double(ideal);
            if (!lead.figure.empty() && ratio <= lead.ratio) continue;
            const std::string what = std::string(memory_space_name(space)) + " " + access_op_name(op);
            lead = {ratio,
                    decimals(double(amount) / n) + (global ? " sectors per " : " wavefronts per ") + what + " request",
                    decimals(double(ideal) / n) + " would do" +
                        (ratio > 1.001 ? ": " + decimals(ratio, 1) + "x the " + (global ? "bytes" : "time") +
                                             (global ? ""
                                                     : " (a " + std::to_string(t.conflict_ways_max) +
                                                           "-way bank conflict at worst)")
                                       : ": as good as it gets") +
                        "."};
        }
    if (!lead.figure.empty()) headline(state, lead.figure, lead.meaning, "memory-lead");
}

void site_table(AppState& state, const PictureMemory& m) {
    const std::vector<std::string> code = source_lines(m.spec->cuda_source);
    // No horizontal scrolling (a projector's 1280 pixels once hid the last columns): short
    // headers, the figures' columns as wide as they need, the code wrapped in what is left.
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("memory-sites", 10, flags)) return;
    // The code takes most of what is left, the access and its cost the rest, all three wrapping.
    for (const char* h :
         {"Line", "Code", "Access", "Array", "Requests", "Cost", "Per req.", "Ideal", "Excess", "Lanes"}) {
        const std::string name = h;
        const float weight = name == "Code" ? 2.5f : name == "Access" || name == "Cost" ? 1.2f : 0.0f;
        ImGui::TableSetupColumn(h, weight > 0 ? ImGuiTableColumnFlags_WidthStretch : 0, weight);
    }
    ImGui::TableHeadersRow();
    remember_rect(state, "memory:table");
    for (const MemorySite& s : m.sites) {
        const auto [amount, ideal, unit] = site_cost(s);
        const double n = double(s.requests);
        ImGui::TableNextRow();
        // Figures on one line (their columns fit them); the access and its cost wrap.
        const auto cell = [](const std::string& text, bool wraps = false) {
            ImGui::TableNextColumn();
            if (wraps)
                text_wrapped("%s", text.c_str());
            else
                ImGui::TextUnformatted(text.c_str());
        };
        // The row is a button: the map shows the line's elements and one of its warps.
        ImGui::TableNextColumn();
        const std::string id = std::to_string(s.line) + "##" + std::to_string(&s - m.sites.data());
        const bool shown = state.memory_line && state.memory_line->line == s.line;
        if (ImGui::Selectable(id.c_str(), shown, ImGuiSelectableFlags_SpanAllColumns) && !select_memory_line(state, s))
            state.message = "line " + std::to_string(s.line) + " is counted, not drawn: the map shows " +
                            state.picture->launch.mapped_array() + "'s " +
                            (state.picture->launch.model && state.picture->launch.model->reads ? "loads" : "stores");
        remember_rect(state, "memory:line:" + std::to_string(s.line) + ":" + m.spec->arrays[s.array].name + ":" +
                                 access_op_name(s.op));
        ImGui::TableNextColumn();
        text_wrapped("%s", s.line >= 1 && size_t(s.line) <= code.size() ? code[size_t(s.line) - 1].c_str() : "");
        // "shared load, 16 B": the bytes each lane's access covers (a float4 through a cast: 16).
        cell(std::string(memory_space_name(s.space)) + " " + access_op_name(s.op) + ", " +
                 std::to_string(s.access_bytes) + " B",
             true);
        cell(m.spec->arrays[s.array].name);
        cell(std::to_string(s.requests));
        cell(std::to_string(amount) + " " + unit, true);
        cell(decimals(double(amount) / n));
        cell(decimals(double(ideal) / n));
        cell(ideal ? decimals(100.0 * (double(amount) - double(ideal)) / double(ideal), 0) + "%" : "-");
        cell(decimals(double(s.active_lanes) / n, 1));
    }
    ImGui::EndTable();
}

}  // namespace

void draw_memory_panel(AppState& state) {
    state.memory_view_open = true;
    if (!state.picture) return;
    const MapPicture& picture = state.picture.value();
    const PictureMemory& m = picture.memory;
    if (!memory_ready(m, true)) {  // not computed, or only the mapped array's sites (a memory colour mode's)
        if (!state.picture_job && !state.pending.any_update()) state.pending.recolor = true;  // count them now
        ImGui::TextUnformatted("Counting the warp requests of this launch...");
        return;
    }
    const LaunchConfig& launch = picture.launch.launch;
    ImGui::Text("%s on gridDim %s, blockDim %s", m.spec ? m.spec->name.c_str() : "?", to_string(launch.grid).c_str(),
                to_string(launch.block).c_str());
    if (!m.not_computed.empty()) {
        text_wrapped("Not computed: %s.", m.not_computed.c_str());
        return;
    }
    lead_figure(state, m);
    for (MemorySpace space : {MemorySpace::Global, MemorySpace::Shared, MemorySpace::Constant})
        for (AccessOp op : {AccessOp::Load, AccessOp::Store}) totals_line(m, space, op);
    // Sectors are a global array's cost, bank conflicts a __shared__ one's (a __constant__
    // one's, distinct addresses, are in the table).
    const bool shared = picture.launch.model && picture.launch.model->shared();
    const bool constant = picture.launch.model && picture.launch.model->constant();
    if (shared)
        colour_map_button(state, "Colour the map by bank conflicts", "banks", "memory");
    else if (!constant)
        colour_map_button(state, "Colour the map by sectors", "sectors", "memory");
    if (!constant) ImGui::SameLine();
    colour_map_button(state, "Colour the map by active lanes", "lanes", "memory");
    ImGui::Spacing();
    site_table(state, m);
    ImGui::Spacing();
    // The model, folded so that the figures and the table lead.
    disabled_note("Modeled, not measured: the emulator counts what Nsight Compute counts.");
    if (ImGui::CollapsingHeader("How is this computed?")) disabled_note(std::string("It is ") + kMemoryModelNote + ".");
    remember_rect(state, "memory:how");
}

}  // namespace threadmap
