//! Runs the parser fuzz property (`risa_gcn_asm::fuzz::check`) over a few
//! hundred thousand generated inputs: printed random instructions of every
//! form, then mutated (bytes replaced, inserted, deleted, lines spliced,
//! truncated), plus pseudo-op snippets. No input may panic or hang.

use risa_gcn::random::{all_forms, random_instr, Rng};
use risa_gcn::{print, Dialect, ALL_GENS};
use risa_gcn_asm::fuzz::check;

const ALPHABET: &[u8] = b" ,:;[]()|-+*/&^~!<>=.\\\"'#\n\tvs0123456789abcdefxXe_%@\xc3\xa9\xff";
const SNIPPETS: &[&str] = &[
    ".rept 100000\ns_nop 0\n.endr",
    ".macro m a\n m \\a\n.endm\nm 1",
    ".if 1\n.else\n.endif",
    "x = %v[0:3]\nv_mov_b32 x, 0",
    ".gpu gfx900",
    "s_branch 1f\n1:",
    ".fill 0x7fffffff, 4, 0",
    "v_add_f32 v0, v1, v2 dst_sel:WORD_1 quad_perm:[0,1,2,3]",
    "s_waitcnt vmcnt(100) & lgkmcnt(0)",
    "exp mrt0 v0, v0, v1, v1 compr done vm",
    ".amdgpu_metadata\n---\na:\n  - .b: 'x'\n    .c: 1\n...\n.end_amdgpu_metadata",
    ".kernel k\n.config\n.dims xy\n.arg a, \"int\", 4, , value, i32\n.text\nk: s_endpgm",
    ".rodata\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.end_amdhsa_kernel\n.text\nk:",
    "s_add_u32 s0, s0, t@rel32@lo+4\n.rodata\nt: .int 1",
];

fn mutate(rng: &mut Rng, s: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let n = s.len() as u32;
        let pick = |rng: &mut Rng| ALPHABET[rng.below(ALPHABET.len() as u32) as usize];
        match rng.below(5) {
            0 if n > 0 => {
                let i = rng.below(n) as usize;
                s[i] = pick(rng);
            }
            1 => {
                let i = rng.below(n + 1) as usize;
                let c = pick(rng);
                s.insert(i, c);
            }
            2 if n > 0 => {
                let i = rng.below(n) as usize;
                s.remove(i);
            }
            3 if n > 0 => {
                let i = rng.below(n) as usize;
                s.truncate(i);
            }
            _ => {
                let k = SNIPPETS[rng.below(SNIPPETS.len() as u32) as usize];
                let i = rng.below(n + 1) as usize;
                s.splice(i..i, k.bytes());
            }
        }
    }
}

#[test]
fn parser_survives_generated_and_mutated_inputs() {
    let mut rng = Rng::new(0xf022);
    let mut count = 0u32;
    for gen in ALL_GENS {
        let forms = all_forms(gen);
        for round in 0..56 {
            for (k, &(op, enc)) in forms.iter().enumerate() {
                if (k + round) % 2 == 1 {
                    continue;
                }
                let Some(i) = random_instr(&mut rng, gen, op, enc) else {
                    continue;
                };
                let d = if rng.below(2) == 0 {
                    Dialect::Llvm
                } else {
                    Dialect::Clrx
                };
                let text = print(&i, d);
                let mut input = vec![gen as u8];
                input.extend_from_slice(text.as_bytes());
                check(&input);
                mutate(&mut rng, &mut input);
                check(&input);
                count += 2;
            }
        }
    }
    assert!(count > 300_000, "only {count} inputs");
}
