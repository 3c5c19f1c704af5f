// UI font loading; see ui_font.hpp.
#include "ui_font.hpp"

#include <imgui.h>
#include <unistd.h>

namespace threadmap {

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
    return font;
}

}  // namespace threadmap
