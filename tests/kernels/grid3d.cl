// 3-D ids: one output per work-item, indexed by its global ids.
__kernel void grid3d(__global uint *out, uint w, uint h) {
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  uint o = get_global_offset(0);
  uint lin = ((z - get_global_offset(2)) * h + (y - get_global_offset(1))) * w + (x - o);
  out[lin] = x * 1000000u + y * 1000u + z + get_local_id(0) * 7u + get_group_id(2) * 3u;
}
