// Half-precision math (cl_khr_fp16): loads, arithmetic, conversions, stores.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_arith(__global const half *a, __global const half *b, __global half *out,
                         __global float *outf) {
  int i = get_global_id(0);
  half x = a[i], y = b[i];
  out[i * 4 + 0] = x + y;
  out[i * 4 + 1] = x * y;
  out[i * 4 + 2] = x - y * (half)0.5f;
  out[i * 4 + 3] = fmax(x, y);
  outf[i] = (float)(x * y) + vload_half(i, (__global const half *)b);
}
