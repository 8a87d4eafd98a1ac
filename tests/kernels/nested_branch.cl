// Nested if/else with several conditions.
__kernel void nested_branch(__global const int *a, __global int *out) {
  int i = get_global_id(0);
  int x = a[i], r;
  if (x > 0) {
    if (x > 100) r = x * 2;
    else if (x & 1) r = x + 7;
    else r = x - 3;
  } else {
    if (x < -100) r = -x;
    else r = 0;
  }
  out[i] = r;
}
