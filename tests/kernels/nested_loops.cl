// Two nested loops (small matrix multiply).
__kernel void nested_loops(__global const float *a, __global const float *b, __global float *c, int n) {
  int row = get_global_id(1), col = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
