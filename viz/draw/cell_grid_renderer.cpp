// Cell grid renderer; see cell_grid_renderer.hpp. Sets every piece of GL state it relies on.
#include "viz/draw/cell_grid_renderer.hpp"

#include <algorithm>
#include <string>
#include <glm/gtc/type_ptr.hpp>

namespace threadmap {

namespace {

glm::vec4 to_vec4(Rgba8 c) { return glm::vec4(c.r, c.g, c.b, c.a) / 255.0f; }

constexpr uint64_t kMaxSpareBytes = uint64_t(32) << 20;  // past 128M of colours, the exact size

}  // namespace

CellGridRenderer::Variant::Variant(const char* defines)
    : program(make_program("cell_grid.vert", "cell_grid.frag", defines)) {
    const GLuint p = program.get();
    projection = glGetUniformLocation(p, "u_projection");
    rect = glGetUniformLocation(p, "u_rect");
    pixels_per_cell = glGetUniformLocation(p, "u_pixels_per_cell");
    background = glGetUniformLocation(p, "u_background");
    cells = glGetUniformLocation(p, "u_cells");
    cells_width = glGetUniformLocation(p, "u_cells_width");
    cell_borders = glGetUniformLocation(p, "u_cell_borders");
    block = glGetUniformLocation(p, "u_block");
    edge_width = glGetUniformLocation(p, "u_edge_width");
    solid = glGetUniformLocation(p, "u_solid");
    highlight = glGetUniformLocation(p, "u_highlight");
    highlight_color = glGetUniformLocation(p, "u_highlight_color");
}

CellGridRenderer::CellGridRenderer()
    : plain_(""),
      detail_("#define CELL_DETAIL 1\n"),
      operand_("#define OPERAND 1\n"),
      vao_(make_vertex_array()),
      cells_(make_buffer()),
      texture_(make_texture()) {}

int CellGridRenderer::max_texture_side() {
    GLint side = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &side);
    return side;
}

uint64_t CellGridRenderer::max_cells() {
    GLint cells = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &cells);
    return uint64_t(cells);
}

GLuint CellGridRenderer::prepare_cells(uint32_t width, uint32_t height) {
    GL_CHECK(glBindBuffer(GL_TEXTURE_BUFFER, cells_.get()));
    const uint64_t bytes = uint64_t(width) * height * sizeof(Rgba8);
    // The storage is kept while the map fits it (and is not under a quarter of it), and grows
    // with a quarter to spare: new storage costs a 16M-cell map 33-38 ms of its frame under
    // llvmpipe (the driver's allocation), against 10 ms to write the colours into kept storage,
    // and another launch of the same array differs only by its idle threads' cells.
    if (bytes > capacity_ || bytes < capacity_ / 4) {
        const uint64_t spare = bytes / 4 <= kMaxSpareBytes ? bytes / 4 : 0;
        capacity_ = 0;  // until the new storage exists: a failed allocation is retried, never mapped
        GL_CHECK(glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(bytes + spare), nullptr, GL_DYNAMIC_DRAW));
        GL_CHECK(glBindTexture(GL_TEXTURE_BUFFER, texture_.get()));
        GL_CHECK(glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, cells_.get()));
        glBindTexture(GL_TEXTURE_BUFFER, 0);
        capacity_ = bytes + spare;
        ++storage_generation_;
    }
    width_ = width;
    height_ = height;
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    return cells_.get();
}

void CellGridRenderer::reserve_cells(uint64_t cells) {
    if (cells * sizeof(Rgba8) <= capacity_ || cells > max_cells()) return;
    const uint32_t width = width_, height = height_;
    prepare_cells(uint32_t(cells), 1);  // the storage only: what it holds is still width_ × height_
    width_ = width;
    height_ = height;
}

std::vector<Rgba8> CellGridRenderer::read_cells() const {
    std::vector<Rgba8> out(size_t(width_) * height_);
    glBindBuffer(GL_TEXTURE_BUFFER, cells_.get());
    GL_CHECK(glGetBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(out.size() * sizeof(Rgba8)), out.data()));
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    return out;
}

Rgba8* CellGridRenderer::map_cells(uint32_t width, uint32_t height) {
    const GLsizeiptr bytes = GLsizeiptr(uint64_t(width) * height * sizeof(Rgba8));
    prepare_cells(width, height);
    GL_CHECK(glBindBuffer(GL_TEXTURE_BUFFER, cells_.get()));
    void* p = glMapBufferRange(GL_TEXTURE_BUFFER, 0, bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (p == nullptr) note_gl_failure("could not map the map's colour buffer (" + std::to_string(bytes) + " bytes)");
    return static_cast<Rgba8*>(p);
}

void CellGridRenderer::unmap_cells() {
    glBindBuffer(GL_TEXTURE_BUFFER, cells_.get());
    if (!glUnmapBuffer(GL_TEXTURE_BUFFER)) note_gl_failure("the map's colour buffer was lost while written");
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

const CellGridRenderer::Variant& CellGridRenderer::use(const Variant& v, const View& view, const ViewRect& r,
                                                       Rgba8 background) const {
    glUseProgram(v.program.get());
    glUniform1i(v.cells, 0);
    glUniform1i(v.cells_width, GLint(width_));
    glUniformMatrix4fv(v.projection, 1, GL_FALSE, glm::value_ptr(projection(view, r)));
    glUniform1f(v.pixels_per_cell, float(view.zoom));
    glUniform4fv(v.background, 1, glm::value_ptr(to_vec4(background)));
    return v;
}

void CellGridRenderer::draw_scene(const MapLayout& layout, const View& view, const SceneTarget& t,
                                  std::optional<glm::ivec2> hovered) const {
    const ViewRect& r = t.viewport;
    const GLint x = GLint(r.x), y = GLint(t.framebuffer_height - r.y - r.h);
    glViewport(x, y, GLsizei(r.w), GLsizei(r.h));
    glEnable(GL_SCISSOR_TEST);
    glScissor(x, y, GLsizei(r.w), GLsizei(r.h));
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_STENCIL_TEST);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    const glm::vec4 bg = to_vec4(t.background);
    glClearColor(bg.r, bg.g, bg.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindVertexArray(vao_.get());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, texture_.get());

    const auto draw_rect = [&](const Variant& v, const WorldRect& w) {
        glUniform4f(v.rect, float(w.x0), float(w.y0), float(w.x1), float(w.y1));
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    };
    // Outlines only where they can be seen: cell borders from 6 pixels a cell, block
    // outlines from 8 pixels a block; otherwise the plain variant.
    // Outlines that follow who touched each cell (the cells' edge bits): from 4 pixels a cell,
    // 1 pixel wide, 2 from 8.
    const bool borders = view.zoom >= 6;
    const GLint block_w = layout.block_w * view.zoom >= 8 ? GLint(layout.block_w) : 0;
    const GLint block_h = layout.block_h * view.zoom >= 8 ? GLint(layout.block_h) : 0;
    const float edge_width = !layout.outline_by_toucher || view.zoom < 4 ? 0.0f : view.zoom < 8 ? 1.0f : 2.0f;
    if (borders || block_w || block_h || edge_width > 0) {
        const Variant& v = use(detail_, view, r, t.background);
        glUniform1i(v.cell_borders, borders);
        glUniform2i(v.block, block_w, block_h);
        glUniform1f(v.edge_width, edge_width);
        draw_rect(v, {0, 0, double(std::min(layout.width, width_)), double(std::min(layout.height, height_))});
    } else {
        draw_rect(use(plain_, view, r, t.background),
                  {0, 0, double(std::min(layout.width, width_)), double(std::min(layout.height, height_))});
    }
    if (is_matrix(layout.workload.kernel)) {  // a matmul's operands A and B beside C
        const OperandRects o = operand_rects(layout);
        const Variant& v = use(operand_, view, r, t.background);
        glUniform4f(v.solid, 0.36f, 0.38f, 0.42f, 1);
        glUniform4f(v.highlight_color, 1.0f, 0.85f, 0.25f, 1);
        glUniform2i(v.highlight, -1, hovered ? hovered->y : -1);  // A: row i
        draw_rect(v, o.a);
        glUniform2i(v.highlight, hovered ? hovered->x : -1, -1);  // B: column j
        draw_rect(v, o.b);
    }
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace threadmap
