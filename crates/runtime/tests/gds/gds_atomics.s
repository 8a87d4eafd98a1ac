# GDS atomics from every lane of every work-group, inside the M0 window
# (base 16, 64 bytes): out[work-item] = the old value of GDS dword 16 that
# ds_add_rtn_u32 returned, OR'ed with a read at window address 64 (outside:
# must read 0, and the write there must not reach GDS byte 80).
.gpu GFX900
.kernel atomics
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg out, "uint*", 8, , globalbuf, u32, global, default
.text
atomics:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, 0x100040
    v_mov_b32 v1, 0
    v_mov_b32 v2, 1
    ds_add_rtn_u32 v3, v1, v2 gds
    v_mov_b32 v8, 60
    ds_write_b32 v8, v2 offset:4 gds
    ds_read_b32 v9, v8 offset:4 gds
    s_waitcnt lgkmcnt(0)
    v_or_b32 v3, v3, v9
    s_lshl_b32 s3, s2, 6
    v_add_u32 v5, s3, v0
    v_lshlrev_b32 v5, 2, v5
    v_mov_b32 v6, s5
    v_add_co_u32 v5, vcc, s4, v5
    v_addc_co_u32 v6, vcc, v6, 0, vcc
    global_store_dword v[5:6], v3, off
    s_endpgm
