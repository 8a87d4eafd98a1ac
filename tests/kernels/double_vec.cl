// double2 loads and stores, swapped halves (data movement only; see double_arith.cl).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void double_vec(__global const double2 *a, __global double2 *out) {
  int i = get_global_id(0);
  out[i] = a[i].yx;
}
