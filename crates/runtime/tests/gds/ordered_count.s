# Every wave adds 1 to its ds_ordered_count turn counter (index 1: GDS dword 1
# of the M0 window, wave_release and wave_done set): wave k in dispatch order
# gets k; out[work-item] = that value.
.gpu GFX900
.kernel ord
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg out, "uint*", 8, , globalbuf, u32, global, default
.text
ord:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 m0, 0x40
    v_mov_b32 v3, 1
    ds_ordered_count v4, v3 offset:772 gds
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s3, s2, 7
    v_add_u32 v5, s3, v0
    v_lshlrev_b32 v5, 2, v5
    v_mov_b32 v6, s5
    v_add_co_u32 v5, vcc, s4, v5
    v_addc_co_u32 v6, vcc, v6, 0, vcc
    global_store_dword v[5:6], v4, off
    s_endpgm
