// Integer arithmetic: mul, div, rem, shifts, bit ops.
__kernel void int_arith(__global const int *a, __global const int *b, __global int *out) {
  int i = get_global_id(0);
  int x = a[i], y = b[i] | 1;
  out[i * 8 + 0] = x * y;
  out[i * 8 + 1] = x / y;
  out[i * 8 + 2] = x % y;
  out[i * 8 + 3] = x << (y & 31);
  out[i * 8 + 4] = x >> (y & 31);
  out[i * 8 + 5] = (x & y) ^ (x | ~y);
  out[i * 8 + 6] = max(x, y) - min(x, y);
  out[i * 8 + 7] = abs(x) + clz(y) + popcount(x);
}
