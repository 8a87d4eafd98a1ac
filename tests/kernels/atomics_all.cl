// Every 32-bit atomic builtin on global and local memory, int and uint. Only
// order-independent results are kept: the final memory values, and sums of the
// values returned (each add/sub/inc/dec return is distinct, their sum is fixed).
__kernel void atomics_all(__global int *gi, __global uint *gu, __global uint *ret,
                          __global int *lout) {
  __local int li[12];
  uint lid = get_local_id(0);
  int v = (int)(get_global_id(0) * 2654435761u >> 7) - (1 << 23);
  if (lid < 12) li[lid] = lid == 4 ? -1 : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&gi[0], v);
  atomic_sub(&gi[1], v);
  atomic_min(&gi[2], v);
  atomic_max(&gi[3], v);
  atomic_and(&gi[4], v | 0x10000001);
  atomic_or(&gi[5], v & 0x0f0f0f0f);
  atomic_xor(&gi[6], v);
  atomic_min(&gu[0], (uint)v);
  atomic_max(&gu[1], (uint)v);
  uint r = atomic_inc(&gu[2]);
  atomic_add(&ret[0], r);                    // sum of 0..n-1
  r = atomic_dec(&gu[3]);
  atomic_add(&ret[1], r);
  r = atomic_add(&gu[4], 3);
  atomic_add(&ret[2], r);
  atomic_cmpxchg(&gu[5], (uint)get_global_id(0), (uint)get_global_id(0) + 1); // counts up
  atomic_xchg(&gu[6], 7u);
  atomic_add(&li[0], v);
  atomic_sub(&li[1], v);
  atomic_min(&li[2], v);
  atomic_max(&li[3], v);
  atomic_and(&li[4], v | 0x10000001);
  atomic_or(&li[5], v & 0x0f0f0f0f);
  atomic_xor(&li[6], v);
  atomic_inc(&li[7]);
  atomic_dec(&li[8]);
  atomic_xchg(&li[9], 5);
  for (;;) { // a lock-free chain through cmpxchg: every item adds once
    int old = li[10];
    if (atomic_cmpxchg(&li[10], old, old + 1) == old) break;
  }
  int s = atomic_add(&li[11], 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&ret[3], (uint)s);
  if (lid < 12) lout[12 * get_group_id(0) + lid] = li[lid];
}
