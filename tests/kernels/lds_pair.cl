// Pairs of neighbouring LDS elements: clang merges the two reads into one
// ds_read2_b32 (ds_read2_b64 for longs) whose destination may reuse the
// address VGPR, e.g. ds_read2_b32 v[3:4], v3 offset1:1.
__kernel void lds_pair(__global const int *in, __global int *out, __global const long *lin,
                       __global long *lout) {
    __local int tile[65];
    __local long ltile[65];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    tile[lid] = in[gid];
    ltile[lid] = lin[gid];
    if (lid == 0) {
        tile[64] = in[gid + 64];
        ltile[64] = lin[gid + 64];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = tile[lid] * 3 - tile[lid + 1];
    lout[gid] = ltile[lid] * 5 - ltile[lid + 1];
}
