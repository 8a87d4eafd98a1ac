# c[i] = 2 * a[i] for i < n, written by hand in CLRX syntax
.gpu GFX900
.kernel dbl
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg a, "float*", 8, , globalbuf, f32, global, default
        .arg n, "uint", 4, , value, u32
.text
dbl:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_load_dword s6, s[0:1], 0x8
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s3, s2, 6
    v_add_u32 v1, s3, v0
    v_cmp_gt_u32 vcc, s6, v1
    s_and_saveexec_b64 s[8:9], vcc
    s_cbranch_execz end
    v_lshlrev_b32 v2, 2, v1
    v_mov_b32 v3, s5
    v_add_co_u32 v2, vcc, s4, v2
    v_addc_co_u32 v3, vcc, v3, 0, vcc
    global_load_dword v4, v[2:3], off
    s_waitcnt vmcnt(0)
    v_add_f32 v4, v4, v4
    global_store_dword v[2:3], v4, off
end:
    s_endpgm
