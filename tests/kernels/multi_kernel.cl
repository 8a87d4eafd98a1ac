// Several kernels in one object.
__kernel void scale(__global float *a, float s) { a[get_global_id(0)] *= s; }
__kernel void offset(__global float *a, float o) { a[get_global_id(0)] += o; }
__kernel void square(__global float *a) {
  int i = get_global_id(0);
  a[i] = a[i] * a[i];
}
