// Packed half and short math: VOP3P (v_pk_*) on GCN 1.4, SDWA/scalarized elsewhere.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half2_math(__global const half2 *a, __global const half2 *b, __global half2 *out,
                         __global short2 *si) {
  int i = get_global_id(0);
  int n = get_global_size(0);
  half2 x = a[i], y = b[i];
  out[i] = x * y + x;
  out[i + n] = fmax(x, y) - y.yx;
  short2 s = si[i];
  si[i] = s * (short2)(3, -2) + (short2)(s.y, s.x);
}
