// Scripted input; see replay.hpp.
#include "app/window/replay.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/window_state/finding_target.hpp"
#include "viz/draw/image_export.hpp"
#include "viz/layout/window_layout.hpp"
#include "app/window_state/inspector_text.hpp"
#include "app/launch/input_file.hpp"
#include "app/reports/memory_report.hpp"
#include "app/launch/model_launch.hpp"
#include "app/panels/warp_overlay.hpp"

namespace threadmap {

namespace {

int key_code(const std::string& name) {
    if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') return GLFW_KEY_A + (name[0] - 'a');
    if (name == "enter") return GLFW_KEY_ENTER;
    if (name == "backspace") return GLFW_KEY_BACKSPACE;
    if (name == "tab") return GLFW_KEY_TAB;
    if (name == "escape") return GLFW_KEY_ESCAPE;
    if (name == "space") return GLFW_KEY_SPACE;
    if (name == "equal") return GLFW_KEY_EQUAL;
    if (name == "minus") return GLFW_KEY_MINUS;
    if (name == "left") return GLFW_KEY_LEFT;
    if (name == "right") return GLFW_KEY_RIGHT;
    if (name == "f11") return GLFW_KEY_F11;
    return -1;
}

// A word that reads as a number that is not finite ("nan", "inf", "-Infinity").
bool is_non_finite(const std::string& word) {
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    return !word.empty() && end == word.c_str() + word.size() && !std::isfinite(v);
}

bool is_number(const std::string& word) {
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    return !word.empty() && end == word.c_str() + word.size() && std::fabs(v) <= 1e6;  // pixels, notches
}

// Where a move, click or scroll goes: X Y, or the centre of the widget named by the rest of
// the line (names may have spaces: "n (elements)").
std::optional<std::pair<float, float>> position(const AppState& state, const ReplayStep& s) {
    const auto& args = s.args;
    if (args.size() >= 3 && args[0] == "cell") {  // the centre of a map cell, where the view puts it now
        const glm::dvec2 at =
            world_to_screen(state.view, state.map_rect,
                            {std::strtod(args[1].c_str(), nullptr) + 0.5, std::strtod(args[2].c_str(), nullptr) + 0.5});
        return std::make_pair(float(at.x), float(at.y));
    }
    if (args.size() >= 2 && is_number(args[0]) && is_number(args[1]))
        return std::make_pair(std::strtof(args[0].c_str(), nullptr), std::strtof(args[1].c_str(), nullptr));
    if (!args.empty()) {
        const auto it = state.widget_rects.find(s.rest);
        if (it == state.widget_rects.end()) return std::nullopt;
        const ViewRect& r = it->second;
        return std::make_pair(float(r.x + r.w / 2), float(r.y + r.h / 2));
    }
    return std::nullopt;
}

bool is_key(std::string name) {
    for (const char* mod : {"ctrl+", "shift+"})
        if (name.rfind(mod, 0) == 0) name = name.substr(std::string(mod).size());
    return key_code(name) >= 0;
}

// What is wrong with a step's arguments, or "" when nothing is.
std::string check_step(const ReplayStep& s) {
    const size_t n = s.args.size();
    if (s.command != "type")
        for (const std::string& a : s.args)
            if (is_non_finite(a)) return "expected finite numbers, not '" + a + "'";
    if (s.optional && s.command != "move" && s.command != "click") return "only 'move?' and 'click?' may be optional";
    if (s.optional && (n == 0 || is_number(s.args[0]))) return "expected '" + s.command + "? WIDGET'";
    const auto numbers = [&s](size_t from) {
        for (size_t i = from; i < s.args.size(); ++i)
            if (!is_number(s.args[i])) return false;
        return true;
    };
    if (s.command == "move" || s.command == "click") {
        // X Y, or a widget's name ("n (elements)"); "click x 5" is neither.
        const bool coordinates = (n == 2 && numbers(0)) || (n == 3 && s.args[0] == "cell" && numbers(1));
        const bool half_coordinates = n == 2 && (is_number(s.args[0]) || is_number(s.args[1]));
        if (coordinates || (n >= 1 && !numbers(0) && !half_coordinates)) return {};
        return "expected '" + s.command + " X Y' (numbers) or '" + s.command + " WIDGET'";
    }
    if (s.command == "scroll")
        return (n == 3 && numbers(0)) || (n == 4 && s.args[0] == "cell" && numbers(1))
                   ? ""
                   : "expected 'scroll X Y DY' or 'scroll cell X Y DY' (numbers)";
    if (s.command == "drag") return n == 4 && numbers(0) ? "" : "expected 'drag X1 Y1 X2 Y2' (numbers)";
    if (s.command == "resize") {
        const auto side = [](const std::string& w) {
            char* end = nullptr;
            const long v = std::strtol(w.c_str(), &end, 10);
            return end == w.c_str() + w.size() && v >= 1 && v <= Replay::kMaxReplayWindowSide;
        };
        return n == 2 && side(s.args[0]) && side(s.args[1])
                   ? ""
                   : "expected 'resize WIDTH HEIGHT' (whole numbers from 1 to " +
                         std::to_string(Replay::kMaxReplayWindowSide) + ")";
    }
    if (s.command == "key")
        return n == 1 && is_key(s.args[0]) ? ""
                                           : "expected 'key [ctrl+][shift+]NAME' with NAME a-z, enter, backspace, tab, "
                                             "escape, space, equal, minus, left, right or f11";
    if (s.command == "type") return s.rest.empty() ? "expected 'type TEXT'" : "";
    if (s.command == "drop") return s.rest.empty() ? "expected 'drop FILE'" : "";
    if (s.command == "screenshot" || s.command == "state") return n == 1 ? "" : "expected '" + s.command + " FILE'";
    if (s.command == "wait") return n == 1 && s.args[0] == "idle" ? "" : "expected 'wait idle'";
    if (s.command == "quit") return n == 0 ? "" : "expected 'quit' alone";
    return "unknown command '" + s.command +
           "' (move, click, drag, scroll, key, type, drop, resize, screenshot, state, wait, quit)";
}

}  // namespace

Outcome<Replay> Replay::load(const std::string& path) {
    const auto text = read_input_file(path, kMaxReplayBytes, "replay script");
    if (!text.value) return failure_of(text);
    return parse(*text.value, path);
}

Outcome<Replay> Replay::parse(const std::string& text, const std::string& name) {
    Replay r;
    r.name_ = name;
    int last_frame = 0;
    std::istringstream lines(text);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        const auto at = [&](const std::string& why) {
            return Outcome<Replay>{std::nullopt, name + ":" + std::to_string(n) + ": " + why};
        };
        std::istringstream in(line);
        ReplayStep s;
        std::string frame;
        if (!(in >> frame >> s.command)) return at("expected 'FRAME COMMAND ARGS'");
        char* end = nullptr;
        const long value = std::strtol(frame.c_str(), &end, 10);
        if (end != frame.c_str() + frame.size() || value < 1 || value > 10'000'000)
            return at("the frame must be a whole number from 1 to 10000000, not '" + frame + "'");
        s.frame = int(value);
        if (s.frame < last_frame)
            return at("frames go forward: frame " + frame + " comes after frame " + std::to_string(last_frame));
        last_frame = s.frame;
        s.line = n;
        if (!s.command.empty() && s.command.back() == '?') {
            s.optional = true;
            s.command.pop_back();
        }
        std::getline(in >> std::ws, s.rest);
        std::istringstream words(s.rest);
        for (std::string w; words >> w;) s.args.push_back(w);
        if (const std::string why = check_step(s); !why.empty()) return at(why);
        r.steps_.push_back(s);
    }
    return {std::move(r), {}};
}

void Replay::end_after(int frames, const std::string& screenshot) {
    for (const auto& s : steps_)
        if (s.command == "quit") return;
    int last = 0;
    for (const auto& s : steps_) last = std::max(last, s.frame);
    const int end = last + std::max(frames, 1);
    if (!screenshot.empty()) steps_.push_back({end, "screenshot", {screenshot}, screenshot});
    steps_.push_back({end, "quit", {}, ""});
}

Replay Replay::screenshot_then_quit(const std::string& path, int frame) {
    Replay r;
    r.steps_.push_back({frame, "screenshot", {path}, path});
    r.steps_.push_back({frame, "quit", {}, ""});
    return r;
}

Replay Replay::quit_after(int frame) {
    Replay r;
    r.steps_.push_back({frame, "quit", {}, ""});
    return r;
}

bool Replay::held(const AppState& state) {
    for (const auto& s : steps_)
        if (s.frame == frame_ && s.command == "wait" && state.busy()) return true;
    return false;
}

// A key (with ctrl+ or shift+ before it) held down for this frame, released at the next.
void Replay::press_key(std::string name, int frame) {
    ImGuiIO& io = ImGui::GetIO();
    for (const char* mod : {"ctrl+", "shift+"}) {
        if (name.rfind(mod, 0) != 0) continue;
        (mod[0] == 'c' ? io.KeyCtrl : io.KeyShift) = true;
        name = name.substr(std::string(mod).size());
    }
    if (const int k = key_code(name); k >= 0) {
        io.KeysDown[k] = true;
        held_keys_.push_back(k);
    }
    release_keys_at_ = frame + 1;
}

void Replay::inject(AppState& state) {
    ImGuiIO& io = ImGui::GetIO();
    // The script's input is the window's wherever the display's focus went: a window opening
    // beside it (another test's on a shared X server, or the user's) takes the focus, and ImGui
    // clears every key held in the frame that learns of it (ImGui::NewFrame, AppFocusLost) — a
    // script's ctrl+a was lost so, and its typed folder went elsewhere.
    io.AppFocusLost = false;
    holding_ = held(state);
    if (holding_) {
        if (!wait_started_) wait_started_ = std::chrono::steady_clock::now();
        if (mouse_) io.MousePos = ImVec2(mouse_->first, mouse_->second), io.MouseDown[0] = false;
        return;
    }
    wait_started_.reset();
    const int frame = frame_;
    if (frame == release_keys_at_) {
        for (int k : held_keys_) io.KeysDown[k] = false;
        held_keys_.clear();
        io.KeyCtrl = io.KeyShift = false;
    }
    bool press = false;
    if (drag_to_) {  // the second frame of a drag: moved there with the button still down
        mouse_ = drag_to_;
        press = true;
        drag_to_.reset();
    }
    for (const auto& s : steps_) {
        if (s.frame != frame) continue;
        if (s.command == "drag") {
            mouse_ = std::make_pair(std::strtof(s.args[0].c_str(), nullptr), std::strtof(s.args[1].c_str(), nullptr));
            drag_to_ = std::make_pair(std::strtof(s.args[2].c_str(), nullptr), std::strtof(s.args[3].c_str(), nullptr));
            press = true;
        } else if (s.command == "resize") {
            state.requests.resize = {std::atoi(s.args[0].c_str()), std::atoi(s.args[1].c_str())};
        } else if (s.command == "move" || s.command == "click" || s.command == "scroll") {
            const auto p = position(state, s);
            if (p) {
                mouse_ = p;
            } else if (s.optional) {
                continue;  // `click?` on a widget not drawn this frame: nothing
            } else if (error_.empty()) {
                error_ = name_ + ":" + std::to_string(s.line) + ": no widget '" + s.rest + "' on screen at frame " +
                         std::to_string(frame);
            }
            if (s.command == "click") press = true;
            if (s.command == "scroll") io.MouseWheel += std::strtof(s.args.back().c_str(), nullptr);
        } else if (s.command == "key" && !s.args.empty()) {
            press_key(s.args[0], frame);
        } else if (s.command == "type") {
            io.AddInputCharactersUTF8(s.rest.c_str());
        } else if (s.command == "drop") {  // as a file dropped on the window
            state.requests.open_files.push_back(s.rest);
        }
    }
    if (mouse_) {  // held until the script moves it; the button is down for one frame per click
        io.MousePos = ImVec2(mouse_->first, mouse_->second);
        io.MouseDown[0] = press;
    }
}

namespace {

// The picture on screen: its layout, launch, findings, occupancy, memory view and the warp
// inspector's request.
void add_picture_state(AppState& state, nlohmann::json& j) {
    const auto& p = *state.picture;
    j["layout"] = {{"width", p.layout.width},
                   {"height", p.layout.height},
                   {"blocks_per_row", p.layout.blocks_per_row},
                   {"threads_per_row", p.layout.threads_per_row},
                   {"past_cells", p.layout.past_cells}};
    j["launch"] = {{"grid", {p.launch.launch.grid.x, p.launch.launch.grid.y, p.launch.launch.grid.z}},
                   {"block", {p.launch.launch.block.x, p.launch.launch.block.y, p.launch.launch.block.z}}};
    j["kernel"] = p.launch.kernel_name();
    if (const auto& m = p.launch.model) {  // the array on the map (and the block whose copy)
        j["array"] = m->spec->arrays[m->array].name;
        if (m->shared()) j["shared_block"] = {m->shared_block.x, m->shared_block.y, m->shared_block.z};
    }
    uint64_t findings = 0;
    for (uint64_t c : p.findings.counts) findings += c;
    j["findings"] = findings;
    if (p.occupancy) j["occupancy"] = occupancy_json(*p.occupancy);
    if (p.compare && state.compare_rect.w > 0) {  // the lesson's comparison, drawn beside the map
        const ViewRect& r = state.compare_rect;
        j["compare"] = {{"kernel", p.compare->launch.kernel_name()},
                        {"map_rect", {r.x, r.y, r.w, r.h}},
                        {"view",
                         {{"center", {state.compare_view.center.x, state.compare_view.center.y}},
                          {"zoom", state.compare_view.zoom}}}};
        if (p.compare->memory.computed && p.compare->memory.not_computed.empty()) {
            j["compare"]["memory"] = memory_json(model_launch_for(p.compare->launch), p.compare->memory.sites);
            j["compare"]["memory"]["every_site"] = p.compare->memory.every_site;
        }
    }
    if (p.memory.computed && p.memory.not_computed.empty()) {
        j["memory"] = memory_json(model_launch_for(p.launch), p.memory.sites);
        j["memory"]["every_site"] = p.memory.every_site;  // else the mapped array's sites only
    }
    if (const KeptRequest* k = inspected_request(state)) {  // the warp inspector's
        const WarpRequest& r = k->request;
        const RequestSectors counted = request_sectors(r, p.memory.place.element_bytes);
        nlohmann::json elements = nlohmann::json::array();
        for (uint32_t mask = r.mask; mask; mask &= mask - 1) elements.push_back(r.index[std::countr_zero(mask)]);
        j["request"] = {{"elements", elements}, {"sectors", counted.sectors}, {"ideal_sectors", counted.ideal},
                        {"line", k->line},      {"execution", k->execution},  {"warp", k->warp}};
        if (p.launch.model && p.launch.model->shared()) {  // its banks
            j["request"]["wavefronts"] = request_wavefronts(r, p.memory.place).wavefronts;
            j["request"]["banks"] = bank_words(r, p.memory.place);
        }
    }
}

// Where the map, its legend and the picture are on screen, and the picture's share of the window.
void add_geometry(const AppState& state, nlohmann::json& j) {
    j["map_rect"] = {state.map_rect.x, state.map_rect.y, state.map_rect.w, state.map_rect.h};
    j["legend_rect"] = {state.legend_rect.x, state.legend_rect.y, state.legend_rect.w, state.legend_rect.h};
    j["labels_over_cells"] = nlohmann::json::array();
    for (const ViewRect& l : state.labels_over_cells) j["labels_over_cells"].push_back({l.x, l.y, l.w, l.h});
    const Margins& m = state.fit_margins;
    j["fit_margins"] = {m.left, m.top, m.right, m.bottom};
    j["look_for_in_margin"] = state.look_for_in_margin;  // in the map's margin, not the card
    if (state.picture) {                                 // the picture's share of the window: what the layout is for
        const ViewRect picture = screen_rect(state.view, state.map_rect, scene_bounds(state.picture->layout));
        const ImVec2 window = ImGui::GetIO().DisplaySize;
        j["picture_rect"] = {picture.x, picture.y, picture.w, picture.h};
        j["covered"] = covered_fraction(picture, {0, 0, window.x, window.y});
    }
    j["view"] = {{"center", {state.view.center.x, state.view.center.y}}, {"zoom", state.view.zoom}};
}

// The Editor: its text and messages, and the links between its lines and the map's cells.
void add_editor_state(AppState& state, nlohmann::json& j) {
    j["editor"] = {{"text", state.editor.text},
                   {"messages", state.editor.messages},
                   {"warnings", state.editor.warnings},
                   {"warning_lines", state.editor.warning_lines},
                   {"error_line", state.editor.error_line},
                   {"running", state.editor.running},
                   {"binds", state.editor.binds}};
    if (map_shows_editor_kernel(state)) {  // the links between its lines and the map's cells
        const auto cell = state.inspected_cell();
        j["editor"]["hovered_line"] = state.editor_hovered_line;
        j["editor"]["lines_of_cell"] = cell ? finding_lines_at(*state.picture, *cell) : std::vector<int>();
        j["editor"]["cells_of_line"] = finding_cells_of_line(*state.picture, state.editor_hovered_line).size();
    }
    if (state.picture && state.picture->findings.printed.calls > 0)  // what the map's run printed
        j["editor"]["printed"] = state.picture->findings.printed.text;
    if (const auto& g = state.editor.gpu)  // "Compile for a GPU too"
        j["editor"]["gpu"] = {{"available", g->unavailable.empty()},
                              {"compiled", g->compiled},
                              {"milliseconds", g->milliseconds},
                              {"log", g->log}};
}

// What a `state FILE` step writes: where things are on screen and what the panels say.
nlohmann::json state_json(AppState& state) {
    nlohmann::json j;
    add_geometry(state, j);
    j["launch_error"] = state.launch_error;
    // A map on the worker thread, or asked for and started by the next frame's update (a compile
    // that lands in this frame's panels asks for it after this frame's update ran).
    j["computing"] = state.picture_job.has_value() || state.pending.apply;
    j["compiling"] = state.editor.compile_job.valid();  // the Editor's Run, in the kernel host
    add_editor_state(state, j);
    j["message"] = state.message;
    if (state.pinned_cell) j["pinned_cell"] = {state.pinned_cell->x, state.pinned_cell->y};
    if (const auto cell = state.inspected_cell(); cell && state.picture) {  // what the inspector says
        const CellDescription d = describe_cell(*state.picture, cell->x, cell->y);
        j["inspector"]["heading"] = d.heading;
        for (const auto& [label, value] : d.fields) j["inspector"]["fields"][label] = value;
    }
    if (const auto& w = state.touchers.result; w && state.picture) {  // the pinned element's threads
        j["touchers"] = {{"threads", w->threads}, {"accesses", w->accesses}, {"listed", nlohmann::json::array()}};
        for (const ElementToucher& t : w->listed)
            j["touchers"]["listed"].push_back(toucher_text(t, state.picture->launch.launch));
    }
    j["go_to_error"] = state.go_to_error;
    j["color_mode"] = state.settings.color_mode;
    j["ui_scale"] = state.settings.ui_scale;
    j["kernel_seconds"] = state.settings.kernel_seconds;
    j["launch_sweep_expect"] = state.launch_sweep.expect;
    if (const auto& sweep = state.launch_sweep.result) {  // "Where does it break?"
        nlohmann::json differ = nlohmann::json::array();
        for (const SweptLaunch& w : sweep->launches)
            if (!w.agrees()) differ.push_back(w.why);
        j["launch_sweep"] = {{"launches", sweep->launches.size()}, {"differ", differ}, {"expected", sweep->expected}};
    }
    if (state.picture) add_picture_state(state, j);
    for (const auto& [name, r] : state.widget_rects) j["widgets"][name] = {r.x, r.y, r.w, r.h};
    // The Timing view's report, origins included.
    j["timing"] = state.timing.current ? to_json(*state.timing.current) : nlohmann::json();
    return j;
}

}  // namespace

Outcome<void> Replay::after_render(AppState& state, int fb_w, int fb_h) {
    if (!error_.empty()) return failed(error_);
    if (holding_) {
        if (std::chrono::steady_clock::now() - *wait_started_ < kWaitCap) return done();
        return failed("replay: 'wait idle' at script frame " + std::to_string(frame_) + " still busy after " +
                      std::to_string(kWaitCap.count()) + " s");
    }
    const int frame = frame_++;
    for (const auto& s : steps_) {
        if (s.frame != frame) continue;
        if (s.command == "screenshot" && !s.args.empty()) {
            const auto written = write_png(read_framebuffer(fb_w, fb_h), s.args[0]);
            if (!written.done()) return written;
        } else if (s.command == "state" && !s.args.empty()) {
            const nlohmann::json j = state_json(state);
            const auto written = write_file(s.args[0], j.dump(1) + "\n");
            if (!written.done()) return failed("replay: " + written.error);
        } else if (s.command == "quit") {
            state.requests.quit = true;
        }
    }
    return done();
}

}  // namespace threadmap
