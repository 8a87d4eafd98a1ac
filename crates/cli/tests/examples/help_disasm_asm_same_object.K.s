# risa disasm: AMDHSA code object v4, gfx900 (gcn1.4), e_flags 0x12c
# reassemble: risa asm --format elf FILE -o OUT
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 4
.globl vadd
.type vadd,@function
.protected vadd
.size vadd, 180

.text
vadd:
    s_load_dword s0, s[4:5], 0x4
    s_load_dword s1, s[6:7], 0x24
    s_load_dword s2, s[6:7], 0x18
    v_mov_b32 v2, s8
    s_waitcnt lgkmcnt(0)
    s_and_b32 s3, s0, 0xffff
    v_add_co_u32 v0, vcc, s1, v0
    v_addc_co_u32 v1, s[0:1], 0, 0, vcc vop3
    v_mad_u64_u32 v[0:1], s[0:1], s3, v2, v[0:1]
    v_cmp_gt_i32 vcc, s2, v0
    s_and_saveexec_b64 s[0:1], vcc
    s_cbranch_execz .L176_0
    s_load_dwordx4 s[0:3], s[6:7], 0x0
    s_load_dwordx2 s[4:5], s[6:7], 0x10
    v_mov_b32 v1, 0
    v_mov_b32 v2, v0
    v_ashrrev_i64 v[0:1], 30, v[1:2]
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s1
    v_add_co_u32 v2, vcc, s0, v0
    v_addc_co_u32 v3, vcc, v3, v1, vcc
    global_load_dword v4, v[2:3], off
    v_mov_b32 v3, s3
    v_add_co_u32 v2, vcc, s2, v0
    v_addc_co_u32 v3, vcc, v3, v1, vcc
    global_load_dword v2, v[2:3], off
    v_mov_b32 v3, s5
    v_add_co_u32 v0, vcc, s4, v0
    v_addc_co_u32 v1, vcc, v3, v1, vcc
    s_waitcnt vmcnt(0)
    v_add_f32 v2, v4, v2
    global_store_dword v[0:1], v2, off
.L176_0:
    s_endpgm

.rodata
.amdhsa_kernel vadd
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 88
    .amdhsa_user_sgpr_count 8
    .amdhsa_user_sgpr_private_segment_buffer 1
    .amdhsa_user_sgpr_dispatch_ptr 1
    .amdhsa_user_sgpr_queue_ptr 0
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_user_sgpr_dispatch_id 0
    .amdhsa_user_sgpr_flat_scratch_init 0
    .amdhsa_user_sgpr_private_segment_size 0
    .amdhsa_system_sgpr_private_segment_wavefront_offset 0
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_sgpr_workgroup_id_y 0
    .amdhsa_system_sgpr_workgroup_id_z 0
    .amdhsa_system_sgpr_workgroup_info 0
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 12
    .amdhsa_reserve_vcc 0
    .amdhsa_reserve_flat_scratch 0
    .amdhsa_reserve_xnack_mask 1
    .amdhsa_float_round_mode_32 0
    .amdhsa_float_round_mode_16_64 0
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
    .amdhsa_dx10_clamp 1
    .amdhsa_ieee_mode 1
    .amdhsa_fp16_overflow 0
    .amdhsa_exception_fp_ieee_invalid_op 0
    .amdhsa_exception_fp_denorm_src 0
    .amdhsa_exception_fp_ieee_div_zero 0
    .amdhsa_exception_fp_ieee_overflow 0
    .amdhsa_exception_fp_ieee_underflow 0
    .amdhsa_exception_fp_ieee_inexact 0
    .amdhsa_exception_int_div_zero 0
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space: global
        .is_const: true
        .offset: 0
        .size: 8
        .type_name: float*
        .value_kind: global_buffer
      - .address_space: global
        .is_const: true
        .offset: 8
        .size: 8
        .type_name: float*
        .value_kind: global_buffer
      - .address_space: global
        .offset: 16
        .size: 8
        .type_name: float*
        .value_kind: global_buffer
      - .offset: 24
        .size: 4
        .type_name: int
        .value_kind: by_value
      - .offset: 32
        .size: 8
        .value_kind: hidden_global_offset_x
      - .offset: 40
        .size: 8
        .value_kind: hidden_global_offset_y
      - .offset: 48
        .size: 8
        .value_kind: hidden_global_offset_z
      - .address_space: global
        .offset: 56
        .size: 8
        .value_kind: hidden_none
      - .address_space: global
        .offset: 64
        .size: 8
        .value_kind: hidden_none
      - .address_space: global
        .offset: 72
        .size: 8
        .value_kind: hidden_none
      - .address_space: global
        .offset: 80
        .size: 8
        .value_kind: hidden_multigrid_sync_arg
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 88
    .language: OpenCL C
    .language_version:
      - 1
      - 2
    .max_flat_workgroup_size: 256
    .name: vadd
    .private_segment_fixed_size: 0
    .sgpr_count: 11
    .sgpr_spill_count: 0
    .symbol: vadd.kd
    .vgpr_count: 5
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx900
amdhsa.version:
  - 1
  - 1
...
.end_amdgpu_metadata

# note: sections not reproduced (risa writes .text, the allocated data sections and the metadata note; loaders need no more): .comment, .note.GNU-stack, .llvm_addrsig
