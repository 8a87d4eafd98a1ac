// 64-bit atomics on global memory (cl_khr_int64_base/extended_atomics): only
// order-independent final values are kept.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(__global long *g, __global ulong *u) {
  long v = (long)(get_global_id(0) * 0x9e3779b97f4a7c15ul) >> 3;
  atom_add(&g[0], v);
  atom_sub(&g[1], v);
  atom_min(&g[2], v);
  atom_max(&g[3], v);
  atom_and(&g[4], v | 0x1000000000000001l);
  atom_or(&g[5], v & 0x0f0f0f0f0f0f0f0fl);
  atom_xor(&g[6], v);
  atom_min(&u[0], (ulong)v);
  atom_max(&u[1], (ulong)v);
  atom_inc(&u[2]);
  atom_dec(&u[3]);
  atom_cmpxchg(&u[4], get_global_id(0), get_global_id(0) + 1);
  atom_xchg(&u[5], 0x123456789abcdefful);
}
