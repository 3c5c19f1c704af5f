#version 330 core
// One quad per draw, made from gl_VertexID: the world rectangle u_rect (cells), projected.
uniform mat4 u_projection;
uniform vec4 u_rect;  // x0, y0, x1, y1 in world cells
out vec2 v_cell;      // position in cells from the rectangle's top-left corner

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 world = mix(u_rect.xy, u_rect.zw, corner);
    v_cell = world - u_rect.xy;
    gl_Position = u_projection * vec4(world, 0.0, 1.0);
}
