// Kernel parameters read with a dynamic index (a by-value struct and vector):
// the r600 back end fetches them from the parameter buffer as vertex buffer 3
// (VTX_READ_32 ..., #3), as libclc does for get_work_dim() in some builds;
// Mesa binds that buffer as constant buffer 0 and vertex buffer 3.
typedef struct { int v[8]; } eight;
__kernel void param_index(__global int *out, eight e, int4 q) {
    int i = get_global_id(0);
    out[2 * i] = e.v[i & 7];
    out[2 * i + 1] = ((int *)&q)[i & 3] + (int)get_work_dim();
}
