#version 330 core
// Cells of the thread map (u_kind 0: colours from the texture, one texel per cell) or of a
// matmul operand (u_kind 1: one colour, a highlighted row and column). Cell borders appear
// when a cell is at least 6 pixels wide, block outlines when a block is at least 8.
uniform sampler2D u_cells;
uniform int u_kind;
uniform float u_pixels_per_cell;
uniform ivec2 u_block;        // outline every u_block.x cells across, u_block.y down (0: none)
uniform vec4 u_background;
uniform vec4 u_solid;
uniform ivec2 u_highlight;    // (column, row) to highlight in an operand; -1: none
uniform vec4 u_highlight_color;
in vec2 v_cell;
out vec4 frag_color;

void main() {
    ivec2 cell = ivec2(floor(v_cell));
    vec4 c;
    if (u_kind == 0) {
        c = texelFetch(u_cells, cell, 0);
        if (c.a < 0.25) {              // no element, no thread
            frag_color = u_background;
            return;
        }
        if (c.a < 0.75) {              // ghost: an idle thread, faded and hatched
            c.rgb = mix(c.rgb, u_background.rgb, 0.45);
            if (mod(floor((gl_FragCoord.x + gl_FragCoord.y) / 3.0), 3.0) == 0.0) c.rgb *= 0.6;
        }
    } else {
        c = u_solid;
        if (cell.y == u_highlight.y || cell.x == u_highlight.x) c = u_highlight_color;
    }
    vec2 edge = fract(v_cell) * u_pixels_per_cell;  // pixels from the cell's top-left edges
    if (u_pixels_per_cell >= 6.0 && (edge.x < 1.0 || edge.y < 1.0)) c.rgb *= 0.72;
    if (u_kind == 0) {
        bool block_x = u_block.x > 0 && float(u_block.x) * u_pixels_per_cell >= 8.0 &&
                       cell.x % u_block.x == 0 && edge.x < 2.0;
        bool block_y = u_block.y > 0 && float(u_block.y) * u_pixels_per_cell >= 8.0 &&
                       cell.y % u_block.y == 0 && edge.y < 2.0;
        if (block_x || block_y) c.rgb = vec3(0.05);
    }
    frag_color = vec4(c.rgb, 1.0);
}
