// int4 / uchar4 vectors, shuffles and conversions.
__kernel void vec_int(__global const int4 *a, __global const uchar4 *b, __global int4 *out) {
  int i = get_global_id(0);
  int4 x = a[i];
  int4 y = convert_int4(b[i]);
  out[i] = x.wzyx + y * 3 - (x >> 2);
}
