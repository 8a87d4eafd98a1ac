//! The operand fast paths (`vN`/`sN`, `v[N:M]`/`s[N:M]` read without the
//! general parser) give exactly what the general path gives: the same words
//! for good ranges, the same messages for bad ones. The general path is
//! forced by spelling the same range with spaces inside the brackets.

use risa_gcn::Gen;

fn words_and_errors(src: &str) -> (Vec<u32>, Vec<String>) {
    let a = risa_gcn_asm::assemble_in(
        Some(risa_gcn::Processor::of_gen(Gen::Gcn14)),
        "t.s",
        src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    let msgs = a
        .output
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    (a.code(), msgs)
}

#[test]
fn bracketed_ranges_match_the_general_path() {
    let cases = [
        (
            "v_add_f64 v[0:1], v[2:3], v[4:5]",
            "v_add_f64 v[ 0 : 1 ], v[ 2 : 3 ], v[ 4 : 5 ]",
        ),
        (
            "s_mov_b64 s[2:3], s[4:5]",
            "s_mov_b64 s[ 2 : 3 ], s[ 4 : 5 ]",
        ),
        (
            "s_load_dwordx4 s[4:7], s[0:1], 0x0",
            "s_load_dwordx4 s[ 4 : 7 ], s[ 0 : 1 ], 0x0",
        ),
        ("v_mov_b32 v0, v[7:7]", "v_mov_b32 v0, v[ 7 : 7 ]"),
        // Bad ranges: misaligned, out of range, reversed, too long.
        (
            "s_mov_b64 s[1:2], s[4:5]",
            "s_mov_b64 s[ 1 : 2 ], s[ 4 : 5 ]",
        ),
        (
            "v_add_f64 v[255:256], v[2:3], v[4:5]",
            "v_add_f64 v[ 255 : 256 ], v[ 2 : 3 ], v[ 4 : 5 ]",
        ),
        (
            "s_mov_b64 s[102:103], s[4:5]",
            "s_mov_b64 s[ 102 : 103 ], s[ 4 : 5 ]",
        ),
        (
            "v_add_f64 v[3:2], v[2:3], v[4:5]",
            "v_add_f64 v[ 3 : 2 ], v[ 2 : 3 ], v[ 4 : 5 ]",
        ),
        ("v_mov_b32 v0, v[0:40]", "v_mov_b32 v0, v[ 0 : 40 ]"),
        ("v_mov_b32 v0, v[01:01]", "v_mov_b32 v0, v[ 01 : 01 ]"),
    ];
    for (fast, general) in cases {
        let (wf, ef) = words_and_errors(fast);
        let (wg, eg) = words_and_errors(general);
        assert_eq!(wf, wg, "{fast}");
        assert_eq!(ef, eg, "{fast}");
    }
    // The good ones assemble; the bad ones are errors.
    assert!(words_and_errors(cases[0].0).1.is_empty());
    assert!(!words_and_errors(cases[4].0).1.is_empty());
    assert!(!words_and_errors(cases[5].0).1.is_empty());
}
