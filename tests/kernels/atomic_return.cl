// Global and local atomics whose returned old values are used.
__kernel void atomic_return(__global uint *counter, __global uint *slots, __global uint *lslots) {
  __local uint lc;
  if (get_local_id(0) == 0) lc = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint i = get_global_id(0);
  slots[i] = atomic_add(&counter[0], 1u);
  uint l = atomic_inc(&lc);
  lslots[i] = l + 1000u * get_group_id(0);
  atomic_max(&counter[1], atomic_xchg(&counter[2], i));
}
