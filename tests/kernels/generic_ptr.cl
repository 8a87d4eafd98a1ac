// risa-cl-std: CL2.0
// Generic (flat) pointers into __local and private memory. On GCN 1.1/1.2 the
// address-space casts read the aperture bases from the HSA queue (amd_queue_t);
// on GCN 1.4 from src_shared_base / src_private_base. The helpers are not
// inlined so their pointer parameters stay generic.

__attribute__((noinline))
int weighted_sum(const int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i] * (i + 1);
    return s;
}

__attribute__((noinline))
void add_to(int *p, int n, int k) {
    for (int i = 0; i < n; i++)
        p[i] += k;
}

kernel void generic_ptr(global int *out, global const int *in, local int *tmp) {
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    int priv[8];
    for (int i = 0; i < 8; i++)
        priv[i] = in[gid] + i * in[(gid + i) % get_global_size(0)];
    tmp[lid] = in[gid] * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    add_to(priv, 8, lid);                          // private through a generic pointer
    int a = weighted_sum(priv, 8);
    int b = weighted_sum(tmp + (lid & ~3), 4);     // __local through a generic pointer
    barrier(CLK_LOCAL_MEM_FENCE);
    int *p = (gid & 1) ? (int *)&priv[gid & 7] : (int *)&tmp[lid]; // either space, per lane
    *p += 5;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[3 * gid] = a;
    out[3 * gid + 1] = b;
    out[3 * gid + 2] = (gid & 1) ? priv[gid & 7] : tmp[lid];
}
