vadd:  ; .text+0x0, 224 bytes
        .config_reg 0x288d4, 0x102  ; SQ_PGM_RESOURCES_LS: NUM_GPRS [7:0], STACK_SIZE [15:8]
        .config_reg 0x2880c, 0x0  ; DB_SHADER_CONTROL
        .config_reg 0x288e8, 0x0  ; SQ_LDS_ALLOC: static LDS dwords
00 ALU_PUSH_BEFORE: ADDR(12) CNT(8) KCACHE0(CB0:0-31) BARRIER
       0  x: MULLO_INT ____, KC0[1].z, R1.x
          y: MULLO_INT R0.y, KC0[1].z, R1.x
          z: MULLO_INT ____, KC0[1].z, R1.x
          w: MULLO_INT ____, KC0[1].z, R1.x
       1  w: ADD_INT R0.w, PV.y, R0.x
       2  w: ADD_INT R0.w, PV.w, KC0[3].z
       3  w: SETGE_INT R1.w, PV.w, KC0[3].x
       4  x: PRED_SETE_INT ____, PV.w, 0.0f UPDATE_EXEC_MASK
01 JUMP: ADDR(7) POP_CNT(1) BARRIER
02 ALU: ADDR(20) CNT(4) KCACHE0(CB0:0-31) BARRIER
       5  w: LSHL_INT R0.w, R0.w, (0x00000002, 3e-45).x
       6  x: ADD_INT R0.x, KC0[2].y, PV.w
       7  x: ADD_INT R1.x, KC0[2].z, R0.w
03 TC: ADDR(8) CNT(2) BARRIER
       8  VFETCH R1.x___, R1.x, fc1 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT
       9  VFETCH R0.x___, R0.x, fc1 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT
04 ALU: ADDR(24) CNT(4) KCACHE0(CB0:0-31) BARRIER
      10  x: ADD R0.x, R0.x, R1.x
          w: ADD_INT R0.w, KC0[2].w, R0.w
      11  x: LSHR_INT R1.x, PV.w, (0x00000002, 3e-45).x
05 MEM_RAT_CACHELESS STORE_DWORD: WRITE_IND RAT(0) [R1], R0.x___ BARRIER
06 POP: ADDR(7) POP_CNT(1) BARRIER
07 END: BARRIER

; not reproduced (risa writes .text, .AMDGPU.config and the allocated data sections; loaders need no more): .comment, .note.GNU-stack, .llvm_addrsig
; the rest of the object: sections, symbols, relocations
.elf_symbol vadd$local, .text, 0x0, 0, notype, local
