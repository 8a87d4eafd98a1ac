// -g 64,2,1 -l 16,2,1
// A kernel in the shape CLSmith writes for its host driver cl_launcher (the
// first line holds the launch: -g global size, -l local size; the kernel is
// `entry`, writing one 64-bit checksum per work-item into `result`), written
// by hand for risa's tests: integer mixing, a private array, a local-memory
// exchange across a barrier and a 64-bit multiply-add, so the checksum
// depends on the ids, LDS and 64-bit arithmetic being right.
__kernel void entry(__global ulong *result) {
  __local uint shared[32];
  uint lid = get_local_id(0) + get_local_id(1) * get_local_size(0);
  ulong gid = get_global_id(0) + get_global_id(1) * get_global_size(0);
  uint priv[5] = {7u, 11u, 13u, 17u, 19u};
  uint h = (uint)gid * 2654435761u;
  for (int i = 0; i < 5; i++) {
    h ^= priv[(h + i) % 5] << (i + 3);
    h = rotate(h, 5u) + 0x9e3779b9u;
  }
  shared[lid] = h;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint other = shared[31 - lid];
  ulong c = (ulong)h * 0x100000001b3ul + other;
  c ^= c >> 29;
  result[gid] = c + (ulong)get_group_id(0) * 1000003ul + get_group_id(1);
}
