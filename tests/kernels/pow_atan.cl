// pow, atan2 and tanh: long library expansions with branches.
__kernel void pow_atan(__global const float *a, __global const float *b, __global float *out) {
  int i = get_global_id(0);
  out[i * 3 + 0] = pow(fabs(a[i]), b[i]);
  out[i * 3 + 1] = atan2(a[i], b[i]);
  out[i * 3 + 2] = tanh(a[i]);
}
