// Every work-item and work-dimension builtin in 1-3 dimensions, with a global
// offset: each item writes 20 values at its linear global index.
// The output pointer is volatile: clang-14 crashes when it merges adjacent
// stores of constant-buffer values ("Cannot select ... BUILD_VECTOR").
__kernel void ids_offset(volatile __global uint *out) {
  uint x = get_global_id(0) - get_global_offset(0);
  uint y = get_global_id(1) - get_global_offset(1);
  uint z = get_global_id(2) - get_global_offset(2);
  uint lin = (z * get_global_size(1) + y) * get_global_size(0) + x;
  volatile __global uint *o = out + 20 * lin;
  for (uint d = 0; d < 3; d++) {
    o[6 * d + 0] = get_global_id(d);
    o[6 * d + 1] = get_local_id(d);
    o[6 * d + 2] = get_group_id(d);
    o[6 * d + 3] = get_global_size(d) * 1000 + get_local_size(d);
    o[6 * d + 4] = get_num_groups(d);
    o[6 * d + 5] = get_global_offset(d);
  }
  o[18] = get_work_dim();
  o[19] = lin;
}
