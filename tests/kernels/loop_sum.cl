// A data-dependent loop.
__kernel void loop_sum(__global const int *a, __global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; k++) s += a[i + k] * k;
  out[i] = s;
}
