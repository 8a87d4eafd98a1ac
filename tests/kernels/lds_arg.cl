// A __local pointer argument: reverse a tile within a work-group.
__kernel void lds_arg(__global const int *in, __global int *out, __local int *tile) {
  int lid = get_local_id(0);
  int n = get_local_size(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - lid];
}
