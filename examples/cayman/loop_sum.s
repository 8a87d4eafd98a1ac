; loop_sum (tests/kernels/loop_sum.cl) written by hand: jump targets are
; labels, clauses sit under the CF instruction that runs them, and the
; assembler computes clause addresses and counts, literal slots and LAST
; bits. It assembles to exactly the bytes clang-14 produces:
;   risa asm --arch cayman examples/cayman/loop_sum.s -o loop_sum.o --format elf
;
;   for (int k = 0; k < n; k++) s += a[i + k] * k;  out[i] = s;
;
; KC0[1].z = local size x, KC0[2].y = a, KC0[2].z = out, KC0[2].w = n,
; KC0[3].y = global offset x; R0.x = local id, R1.x = group id.

        .config_reg 0x288d4, 0x203      ; 3 GPRs, stack size 2
        .config_reg 0x2880c, 0
        .config_reg 0x288e8, 0          ; no LDS

        .global loop_sum
loop_sum:
    ALU_PUSH_BEFORE: KCACHE0(CB0:0-31) BARRIER
        0 x: MULLO_INT ____, KC0[1].z, R1.x        ; MULLO_INT fills all four slots
          y: MULLO_INT R0.y, KC0[1].z, R1.x
          z: MULLO_INT ____, KC0[1].z, R1.x
          w: MULLO_INT ____, KC0[1].z, R1.x
        1 w: ADD_INT R0.w, PV.y, R0.x
        2 x: MOV R0.x, (0)                         ; s = 0
          z: ADD_INT R0.z, PV.w, KC0[3].y          ; i
          w: SETGT_INT R0.w, 1, KC0[2].w           ; n < 1 ?
        3 x: PRED_SETE_INT ____, PV.w, 0.0f UPDATE_EXEC_MASK
    JUMP: ADDR(store) POP_CNT(1) BARRIER
    ALU: KCACHE0(CB0:0-31) BARRIER
        4 w: MOV R0.w, (0)                         ; k = 0
        5 x: MOV R0.x, PV.w
          z: LSHL_INT R1.z, R0.z, (2)
          w: MOV R1.w, KC0[2].y
        6 x: ADD_INT R1.x, PV.w, PV.z              ; &a[i]
          w: MOV R1.w, KC0[2].w
    LOOP_START_DX10: ADDR(done) BARRIER
loop:
    ALU: BARRIER
        7 w: ADD_INT R2.w, R1.x, (4)
    TC: BARRIER
        8 VFETCH R1.x___, R1.x, fc1 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT
    ALU_PUSH_BEFORE: BARRIER
        9 x: MULLO_INT ____, R1.x, R0.w            ; a[i + k] * k
          y: MULLO_INT R0.y, R1.x, R0.w
          z: MULLO_INT ____, R1.x, R0.w
          w: MULLO_INT ____, R1.x, R0.w
       10 x: MOV R1.x, R2.w
          w: ADD_INT R0.w, R0.w, 1 VEC_120
       11 x: ADD_INT R0.x, R0.y, R0.x
          w: SETE_INT R2.w, R1.w, PV.w             ; k == n ?
       12 x: PRED_SETNE_INT ____, PV.w, 0.0f UPDATE_EXEC_MASK
    JUMP: ADDR(next) POP_CNT(1) BARRIER
    LOOP_BREAK: ADDR(next) BARRIER
    POP: ADDR(next) POP_CNT(1) BARRIER
next:
    LOOP_END: ADDR(loop) BARRIER
done:
    POP: ADDR(store) POP_CNT(1) BARRIER
store:
    ALU: KCACHE0(CB0:0-31) BARRIER
       13 y: MOV R0.y, KC0[2].z
          w: LSHL_INT R0.w, R0.z, (2)
       14 w: ADD_INT R0.w, PV.y, PV.w
       15 x: LSHR_INT R1.x, PV.w, (2)
    MEM_RAT_CACHELESS STORE_DWORD: WRITE_IND RAT(0) [R1], R0.x___ BARRIER
    END: BARRIER
