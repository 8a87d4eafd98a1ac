// Work-item builtins in three dimensions.
// The output pointer is volatile: clang-14 crashes when it merges adjacent
// stores of constant-buffer values ("Cannot select ... BUILD_VECTOR").
__kernel void ids(volatile __global uint *out) {
  uint gid = get_global_id(0);
  out[gid * 8 + 0] = get_local_id(0);
  out[gid * 8 + 1] = get_local_id(1);
  out[gid * 8 + 2] = get_local_id(2);
  out[gid * 8 + 3] = get_group_id(0);
  out[gid * 8 + 4] = get_group_id(1) + get_group_id(2);
  out[gid * 8 + 5] = get_num_groups(0);
  out[gid * 8 + 6] = get_local_size(0) + get_global_size(1);
  out[gid * 8 + 7] = get_work_dim();
}
