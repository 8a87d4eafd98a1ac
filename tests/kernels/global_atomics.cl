// Global atomics whose results are unused (LLVM 14's r600 back end selects
// only the no-return RAT atomics).
__kernel void global_atomics(__global int *counters, __global uint *ucounters) {
  int i = get_global_id(0);
  atomic_add(&counters[0], i);
  atomic_min(&counters[2], i);
  atomic_max(&counters[3], i);
  atomic_and(&counters[4], ~i);
  atomic_or(&counters[5], i);
  atomic_xor(&counters[6], i);
  atomic_min(&ucounters[0], (uint)i);
  atomic_max(&ucounters[1], (uint)i);
}
