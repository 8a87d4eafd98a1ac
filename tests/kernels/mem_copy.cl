// Memory-bound benchmark kernel: streaming loads and stores.
__kernel void mem_copy(__global const float4 *a, __global const float4 *b, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = a[i] + b[i];
}
