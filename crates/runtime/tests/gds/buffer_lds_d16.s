# One wave: buffer_load_dword with LDS=1 copies in[lane] to LDS[4 lane]
# (M0 = 0), ds_read_b32 reads it back; buffer_load_format_d16_xy reads the
# first two bytes of in[lane] as 8_8_8_8 unorm halves packed in one VGPR.
# out[lane] = the LDS copy, out[64 + lane] = the packed halves.
.gpu GFX900
.kernel lds_d16
    .config
        .dims x
        .localsize 256
        .use_kernarg_segment_ptr
        .arg in, "uint*", 8, , globalbuf, u32, global, default
        .arg out, "uint*", 8, , globalbuf, u32, global, default
.text
lds_d16:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s4
    s_and_b32 s9, s5, 0xffff
    s_movk_i32 s10, 0x100
    s_mov_b32 s11, 0x50000
    s_mov_b32 m0, 0
    v_lshlrev_b32 v1, 2, v0
    buffer_load_dword v2, v1, s[8:11], 0 offen lds
    s_waitcnt vmcnt(0)
    ds_read_b32 v3, v1
    buffer_load_format_d16_xy v4, v1, s[8:11], 0 offen
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mov_b32 v6, s7
    v_add_co_u32 v5, vcc, s6, v1
    v_addc_co_u32 v6, vcc, v6, 0, vcc
    global_store_dword v[5:6], v3, off
    global_store_dword v[5:6], v4, off offset:256
    s_endpgm
