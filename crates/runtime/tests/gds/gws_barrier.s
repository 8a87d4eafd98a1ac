# n work-groups meet at GWS barrier 0. Group 0 sets the barrier to n - 1 and
# releases the others from semaphore 1 (ds_gws_sema_br); every lane adds 1 to
# GDS dword 0 before the barrier and reads it after: out[work-item] = 64 n.
.gpu GFX900
.kernel gws
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg out, "uint*", 8, , globalbuf, u32, global, default
        .arg n, "uint", 4, , value, u32
.text
gws:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_load_dword s6, s[0:1], 0x8
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, 0x40
    s_sub_u32 s7, s6, 1
    v_mov_b32 v1, s7
    s_cmp_eq_u32 s2, 0
    s_cbranch_scc0 wait
    ds_gws_init v1 offset:0 gds
    ds_gws_sema_br v1 offset:1 gds
    s_branch go
wait:
    ds_gws_sema_p offset:1 gds
go:
    v_mov_b32 v2, 0
    v_mov_b32 v3, 1
    ds_add_u32 v2, v3 gds
    s_waitcnt lgkmcnt(0)
    ds_gws_barrier v1 gds
    ds_read_b32 v4, v2 gds
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s3, s2, 6
    v_add_u32 v5, s3, v0
    v_lshlrev_b32 v5, 2, v5
    v_mov_b32 v6, s5
    v_add_co_u32 v5, vcc, s4, v5
    v_addc_co_u32 v6, vcc, v6, 0, vcc
    global_store_dword v[5:6], v4, off
    s_endpgm
