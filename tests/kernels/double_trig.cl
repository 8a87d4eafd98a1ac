// Double-precision sine and cosine, including huge arguments (Payne-Hanek
// reduction: v_trig_preop_f64 in ROCm's library).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void double_trig(__global const double *a, __global double *out) {
  int i = get_global_id(0);
  double x = a[i];
  out[i * 2 + 0] = sin(x);
  out[i * 2 + 1] = cos(x);
}
