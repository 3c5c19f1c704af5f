// Scripted input; see replay.hpp.
#include "replay.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "image_export.hpp"

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
    return -1;
}

std::optional<std::pair<float, float>> position(const AppState& state, const std::vector<std::string>& args) {
    if (args.size() >= 2) return std::make_pair(std::stof(args[0]), std::stof(args[1]));
    if (args.size() == 1) {
        const auto it = state.widget_rects.find(args[0]);
        if (it == state.widget_rects.end()) return std::nullopt;
        const ViewRect& r = it->second;
        return std::make_pair(float(r.x + r.w / 2), float(r.y + r.h / 2));
    }
    return std::nullopt;
}

}  // namespace

Outcome<Replay> Replay::load(const std::string& path) {
    std::ifstream f(path);
    if (!f) return {std::nullopt, "cannot read replay file " + path};
    Replay r;
    std::string line;
    for (int n = 1; std::getline(f, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream in(line);
        ReplayStep s;
        if (!(in >> s.frame >> s.command) || s.frame < 1)
            return {std::nullopt, path + ":" + std::to_string(n) + ": expected 'FRAME COMMAND ARGS'"};
        std::getline(in >> std::ws, s.rest);
        std::istringstream words(s.rest);
        for (std::string w; words >> w;) s.args.push_back(w);
        if (s.command == "wait" && (s.args.size() != 1 || s.args[0] != "idle"))
            return {std::nullopt, path + ":" + std::to_string(n) + ": expected 'wait idle'"};
        r.steps_.push_back(s);
    }
    return {std::move(r), {}};
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

void Replay::inject(const AppState& state) {
    ImGuiIO& io = ImGui::GetIO();
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
    for (const auto& s : steps_) {
        if (s.frame != frame) continue;
        if (s.command == "move" || s.command == "click" || s.command == "scroll") {
            if (auto p = position(state, s.args)) mouse_ = p;
            if (s.command == "click") press = true;
            if (s.command == "scroll" && s.args.size() >= 3) io.MouseWheel += std::stof(s.args[2]);
        } else if (s.command == "key" && !s.args.empty()) {
            std::string name = s.args[0];
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
        } else if (s.command == "type") {
            io.AddInputCharactersUTF8(s.rest.c_str());
        }
    }
    if (mouse_) {  // held until the script moves it; the button is down for one frame per click
        io.MousePos = ImVec2(mouse_->first, mouse_->second);
        io.MouseDown[0] = press;
    }
}

std::string Replay::after_render(AppState& state, int fb_w, int fb_h) {
    if (holding_) {
        if (std::chrono::steady_clock::now() - *wait_started_ < kWaitCap) return {};
        return "replay: 'wait idle' at script frame " + std::to_string(frame_) + " still busy after " +
               std::to_string(kWaitCap.count()) + " s";
    }
    const int frame = frame_++;
    for (const auto& s : steps_) {
        if (s.frame != frame) continue;
        if (s.command == "screenshot" && !s.args.empty()) {
            const auto written = write_png(read_framebuffer(fb_w, fb_h), s.args[0]);
            if (!written.done()) return written.error;
        } else if (s.command == "state" && !s.args.empty()) {
            nlohmann::json j;
            j["map_rect"] = {state.map_rect.x, state.map_rect.y, state.map_rect.w, state.map_rect.h};
            j["legend_rect"] = {state.legend_rect.x, state.legend_rect.y, state.legend_rect.w, state.legend_rect.h};
            j["view"] = {{"center", {state.view.center.x, state.view.center.y}}, {"zoom", state.view.zoom}};
            j["launch_error"] = state.launch_error;
            j["color_mode"] = state.settings.color_mode;
            j["ui_scale"] = state.settings.ui_scale;
            if (state.picture) {
                const auto& p = *state.picture;
                j["layout"] = {{"width", p.layout.width},
                               {"height", p.layout.height},
                               {"blocks_per_row", p.layout.blocks_per_row}};
                j["launch"] = {{"grid", {p.launch.launch.grid.x, p.launch.launch.grid.y, p.launch.launch.grid.z}},
                               {"block", {p.launch.launch.block.x, p.launch.launch.block.y, p.launch.launch.block.z}}};
                j["kernel"] = std::string(kernel_name(p.launch.workload.kernel));
            }
            for (const auto& [name, r] : state.widget_rects) j["widgets"][name] = {r.x, r.y, r.w, r.h};
            // The Timing view's report, origins included.
            j["timing"] = state.timing.current ? to_json(*state.timing.current) : nlohmann::json();
            std::ofstream(s.args[0]) << j.dump(1) << "\n";
        } else if (s.command == "quit") {
            state.requests.quit = true;
        }
    }
    return {};
}

}  // namespace threadmap
