// Calls to non-inlined functions: s_getpc/s_swappc/s_setpc, the call stack in
// scratch, and arguments in registers.
__attribute__((noinline)) int mix(int a, int b, __global const int *t) {
  int s = 0;
  for (int k = 0; k < (b & 7); k++) s += t[(a + k) & 15] * (k + 1);
  return s ^ a;
}
__attribute__((noinline)) float poly(float x) { return ((x * 0.5f + 1.25f) * x - 2.0f) * x; }
__kernel void func_call(__global const int *a, __global const int *t, __global int *out,
                        __global float *outf) {
  int i = get_global_id(0);
  out[i] = mix(a[i], i, t) + mix(i, a[i], t);
  outf[i] = poly((float)a[i] * 0.01f);
}
