// float -> half in the four rounding modes (vstore_half_rte/rtz/rtp/rtn) and
// their vector forms, from a spread of values incl. ties, denormals and overflow.
__kernel void vstore_half_rt(__global const float *in, __global half *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  vstore_half_rte(x, 0, out + 8 * i);
  vstore_half_rtz(x, 1, out + 8 * i);
  vstore_half_rtp(x, 2, out + 8 * i);
  vstore_half_rtn(x, 3, out + 8 * i);
  float2 p = (float2)(x, -x * 3.0f);
  vstore_half2_rtz(p, 2, out + 8 * i);
  vstore_half2_rtn(p * 0.5f, 3, out + 8 * i);
}
