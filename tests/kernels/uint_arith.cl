// Unsigned arithmetic: division, remainder, rotate, mul_hi, mad24.
__kernel void uint_arith(__global const uint *a, __global const uint *b, __global uint *out) {
  uint i = get_global_id(0);
  uint x = a[i], y = b[i] | 1u;
  out[i * 6 + 0] = x / y;
  out[i * 6 + 1] = x % y;
  out[i * 6 + 2] = rotate(x, y);
  out[i * 6 + 3] = mul_hi(x, y);
  out[i * 6 + 4] = mad24(x, y, 7u);
  out[i * 6 + 5] = (x >> 3) + (y << 5) + (x > y ? x - y : y - x);
}
