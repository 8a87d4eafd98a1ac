// Local-memory atomics: a per-group histogram.
__kernel void lds_atomics(__global const uint *in, __global uint *hist) {
  __local uint bins[16];
  int lid = get_local_id(0);
  if (lid < 16) bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_inc(&bins[v & 15]);
  atomic_add(&bins[(v >> 4) & 15], 2u);
  atomic_max(&bins[(v >> 8) & 15], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) atomic_add(&hist[lid], bins[lid]);
}
