// 64-bit integer arithmetic.
__kernel void int64(__global const long *a, __global const long *b, __global long *out) {
  int i = get_global_id(0);
  long x = a[i], y = b[i];
  out[i * 3 + 0] = x + y;
  out[i * 3 + 1] = x * y;
  out[i * 3 + 2] = (x >> 7) ^ (y << 3);
}
