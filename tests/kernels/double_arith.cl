// Double-precision data movement. LLVM 14's r600 back end has no f64
// arithmetic (it emits unsupported libcalls), so this kernel only loads,
// selects and stores doubles: 64-bit fetches and two-dword RAT stores.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void double_arith(__global const double *a, __global const double *b, __global double *out,
                           __global const int *sel) {
  int i = get_global_id(0);
  out[i] = sel[i] ? a[i] : b[i + 1];
}
