// A while loop with an unknown trip count (Collatz steps).
__kernel void while_loop(__global const uint *a, __global uint *out) {
  int i = get_global_id(0);
  uint x = a[i] | 1u, steps = 0;
  while (x != 1u && steps < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    steps++;
  }
  out[i] = steps;
}
