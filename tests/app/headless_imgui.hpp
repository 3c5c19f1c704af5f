// An ImGui context with no window and no GL, for drawing panels in tests: display size,
// delta time and a built font atlas (the window's UI font), as ImGui's example_null sets them up.
#pragma once

#include <imgui.h>

#include "viz/draw/ui_font.hpp"

struct HeadlessImGuiContext {
    // `scale`: the UI scale (Ctrl+=), its fonts and sizes scaled as the window's are.
    explicit HeadlessImGuiContext(float width = 1600, float height = 900, float scale = 1) {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(width, height);
        io.DeltaTime = 1.0f / 60;
        // The window's fonts, so that panels lay out at the widths a learner sees (a label a
        // narrow column cuts is cut here too); the mono and heading fonts then belong to this
        // context.
        threadmap::load_ui_font(io, threadmap::kBaseFontPx * scale);
        ImGui::GetStyle().ScaleAllSizes(scale);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas; no GL needed
    }
    ~HeadlessImGuiContext() { ImGui::DestroyContext(); }
    HeadlessImGuiContext(const HeadlessImGuiContext&) = delete;
    HeadlessImGuiContext& operator=(const HeadlessImGuiContext&) = delete;
};
