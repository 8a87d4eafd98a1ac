//! One snippet per wait-state rule, in every generation: with one wait
//! state too few the rule must fire (at the consumer, naming the producer),
//! with enough `s_nop`s (or independent instructions) it must be quiet, and
//! in generations without the rule it must stay quiet.

use risa_check::access::access;
use risa_check::hazard::{Window, RULES};
use risa_gcn::{decode, Gen, ALL_GENS};

/// (rule, producer, consumer) in LLVM syntax.
const SNIPPETS: &[(&str, &str, &str)] = &[
    (
        "setreg-getreg",
        "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
        "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)",
    ),
    (
        "setreg-setreg",
        "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x3",
    ),
    (
        "setvskip-getreg",
        "s_setvskip s0, s1",
        "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 32)",
    ),
    (
        "setreg-vskip-vector",
        "s_setreg_b32 hwreg(HW_REG_MODE, 28, 1), s0",
        "v_mov_b32 v0, v1",
    ),
    (
        "valu-vcc-vccz",
        "v_cmp_eq_u32 vcc, v0, v1",
        "v_mov_b32 v2, src_vccz",
    ),
    (
        "valu-exec-execz",
        "v_cmpx_eq_u32 vcc, v0, v1",
        "v_mov_b32 v2, src_execz",
    ),
    (
        "valu-sgpr-lane-select",
        "v_readfirstlane_b32 s4, v0",
        "v_readlane_b32 s5, v1, s4",
    ),
    (
        "valu-vcc-div-fmas",
        "v_div_scale_f32 v0, vcc, v1, v2, v1",
        "v_div_fmas_f32 v3, v0, v1, v2",
    ),
    (
        "wide-store-data",
        "buffer_store_dwordx4 v[2:5], off, s[8:11], 0",
        "v_mov_b32 v3, 0",
    ),
    (
        "valu-sgpr-vmem",
        "v_readfirstlane_b32 s8, v0",
        "buffer_load_dword v1, off, s[8:11], 0",
    ),
    (
        "valu-sgpr-smrd",
        "v_readfirstlane_b32 s2, v0",
        "s_load_dword s4, s[2:3], 0x0",
    ),
    (
        "salu-sgpr-sbuffer",
        "s_mov_b32 s8, 0",
        "s_buffer_load_dword s4, s[8:11], 0x0",
    ),
    (
        "salu-m0-gds-msg",
        "s_mov_b32 m0, 0",
        "s_sendmsg sendmsg(MSG_INTERRUPT)",
    ),
    (
        "valu-vgpr-dpp",
        "v_add_f32 v0, v1, v2",
        "v_mov_b32_dpp v3, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    ),
    (
        "valu-exec-dpp",
        "v_cmpx_eq_u32 vcc, v0, v1",
        "v_mov_b32_dpp v3, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    ),
    (
        "setreg-trapsts-rfe",
        "s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 8), s0",
        "s_rfe_b64 s[0:1]",
    ),
    (
        "salu-m0-lds",
        "s_mov_b32 m0, 0",
        "v_interp_p1_f32 v0, v1, attr0.x",
    ),
    ("salu-m0-movrel", "s_mov_b32 m0, 0", "s_movrels_b32 s0, s8"),
    // The second load overwrites s2, which the first one reads: a replay of
    // the first would read the new s2.
    (
        "xnack-soft-clause",
        "s_load_dword s4, s[2:3], 0x0",
        "s_load_dword s2, s[6:7], 0x0",
    ),
];

/// Assembles `src` for `gen` (None: it does not assemble there).
fn code(gen: Gen, src: &str) -> Option<Vec<u32>> {
    let opts = risa_asm_core::Options {
        semicolon_comments: true,
        ..Default::default()
    };
    let a = risa_gcn_asm::assemble_with(Some(gen), "t.s", src, opts, false);
    a.output.diagnostics.is_empty().then(|| a.code())
}

/// The rule names the window reports, each with (producer PC, consumer PC).
fn run(gen: Gen, words: &[u32]) -> Vec<(&'static str, u64, u64)> {
    // XNACK on: the soft-clause rule applies.
    let mut w = Window::new(true);
    let mut out = Vec::new();
    let mut pc = 0;
    while pc < words.len() {
        let i = decode(gen, &words[pc..]).unwrap();
        let a = access(&i);
        w.check(&i, &a, &mut |v| {
            out.push((v.rule.name, v.producer_pc, 4 * pc as u64))
        });
        w.push(4 * pc as u64, &i, &a);
        pc += i.len as usize;
    }
    out
}

fn nops(n: u32) -> String {
    match n {
        0 => String::new(),
        n => format!("s_nop {}\n", n - 1),
    }
}

#[test]
fn every_rule_has_a_snippet() {
    for r in RULES {
        assert!(
            SNIPPETS.iter().any(|s| s.0 == r.name),
            "no snippet for {}",
            r.name
        );
    }
}

#[test]
fn each_rule_fires_with_one_wait_state_too_few_and_not_with_enough() {
    let mut checked = 0;
    for &(name, p, c) in SNIPPETS {
        let rule = RULES.iter().find(|r| r.name == name).unwrap();
        for gen in ALL_GENS {
            let need = rule.waits(gen);
            let short = format!("{p}\n{}{c}\n", nops(need.saturating_sub(1)));
            let enough = format!("{p}\n{}{c}\n", nops(need));
            let Some(words) = code(gen, &short) else {
                assert_eq!(need, 0, "{name} does not assemble for {gen}: {short}");
                continue;
            };
            let hits: Vec<_> = run(gen, &words)
                .into_iter()
                .filter(|h| h.0 == name)
                .collect();
            if need == 0 {
                assert!(hits.is_empty(), "{name} fired on {gen}: {hits:?}");
                continue;
            }
            let consumer_pc = 4 * (words.len() as u64 - code(gen, c).unwrap().len() as u64);
            assert_eq!(hits, [(name, 0, consumer_pc)], "{gen}: {short}");
            let words = code(gen, &enough).unwrap();
            let hits: Vec<_> = run(gen, &words)
                .into_iter()
                .filter(|h| h.0 == name)
                .collect();
            assert!(hits.is_empty(), "{gen}: {enough}: {hits:?}");
            checked += 1;
        }
    }
    // Every (rule, generation) pair where the rule applies.
    let want: u32 = RULES
        .iter()
        .map(|r| r.waits.iter().filter(|&&w| w > 0).count() as u32)
        .sum();
    assert_eq!(checked, want);
}

#[test]
fn independent_instructions_count_as_wait_states() {
    let gen = Gen::Gcn12;
    let base = "v_readfirstlane_b32 s4, v0\n";
    let three = "s_mov_b32 s9, 0\nv_mov_b32 v7, 0\ns_add_u32 s10, s11, 1\n";
    let short = format!("{base}{three}v_readlane_b32 s5, v1, s4\n");
    assert_eq!(run(gen, &code(gen, &short).unwrap()).len(), 1);
    let enough = format!("{base}{three}s_nop 0\nv_readlane_b32 s5, v1, s4\n");
    assert!(run(gen, &code(gen, &enough).unwrap()).is_empty());
    // Loads of a clause that write nothing the clause reads are fine.
    let clause = "s_load_dword s4, s[2:3], 0x0\ns_load_dword s5, s[6:7], 0x0\n";
    assert!(run(gen, &code(gen, clause).unwrap()).is_empty());
    // A different lane-select register is no hazard.
    let other = "v_readfirstlane_b32 s4, v0\nv_readlane_b32 s5, v1, s6\n";
    assert!(run(gen, &code(gen, other).unwrap()).is_empty());
    // s_nop 3 is four wait states.
    let nop3 = "v_readfirstlane_b32 s4, v0\ns_nop 3\nv_readlane_b32 s5, v1, s4\n";
    assert!(run(gen, &code(gen, nop3).unwrap()).is_empty());
}
