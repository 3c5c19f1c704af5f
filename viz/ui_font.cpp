// UI font loading; see ui_font.hpp.
#include "ui_font.hpp"

#include <imgui.h>
#include <unistd.h>

namespace threadmap {

namespace {
ImFont* g_mono = nullptr;  // one window per process
}

ImFont* load_ui_font(ImGuiIO& io, float size_px) {
    io.Fonts->Clear();
    ImFont* font = nullptr;
    if (access(kUiFontPath, R_OK) == 0) font = io.Fonts->AddFontFromFileTTF(kUiFontPath, size_px);
    if (font == nullptr) {
        ImFontConfig config;
        config.SizePixels = size_px;
        font = io.Fonts->AddFontDefault(&config);
    }
    io.FontDefault = font;
    g_mono = access(kMonoFontPath, R_OK) == 0 ? io.Fonts->AddFontFromFileTTF(kMonoFontPath, size_px) : nullptr;
    if (g_mono == nullptr) g_mono = font;
    return font;
}

ImFont* mono_font() { return g_mono; }

}  // namespace threadmap
