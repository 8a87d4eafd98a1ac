// Loop with an early break and a continue.
__kernel void loop_break(__global const int *a, __global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; k++) {
    int v = a[k];
    if (v == i) break;
    if (v & 1) continue;
    s += v;
  }
  out[i] = s;
}
