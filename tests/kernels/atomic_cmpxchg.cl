// Increment, exchange and compare-and-swap without using the results.
__kernel void atomic_cmpxchg_k(__global int *lock, __global int *vals) {
  int i = get_global_id(0);
  atomic_inc(&lock[0]);
  atomic_xchg(&vals[i & 7], i);
  atomic_cmpxchg(&lock[1], 0, i);
}
