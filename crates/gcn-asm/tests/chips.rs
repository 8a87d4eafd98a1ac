//! Chips within a generation: what one chip's features add is assembled on
//! it, refused on the others with a message naming the chips that have it,
//! and decoded only for them. The positive vectors are
//! `tests/vectors/gcn/gfx906.txt` (llvm-mc -mcpu=gfx906 made them); where
//! llvm-mc is installed, every refusal here is checked to be llvm-mc's too.

use risa_asm_core::Options;
use risa_gcn::{decode, Processor, OPS};
use std::io::Write;
use std::process::{Command, Stdio};

fn chip(name: &str) -> &'static Processor {
    Processor::parse(name).unwrap()
}

/// (words, LLVM text) of the gfx906 vectors.
fn gfx906_vectors() -> Vec<(Vec<u32>, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/gcn/gfx906.txt"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split('\t');
            let words = f
                .next()
                .unwrap()
                .split(' ')
                .map(|w| u32::from_str_radix(w, 16).unwrap())
                .collect();
            (words, f.next().unwrap().to_string())
        })
        .collect()
}

/// Assembles LLVM-syntax `src` (the vectors' text) for `chip`.
fn assemble(chip: &'static Processor, src: &str) -> risa_gcn_asm::Assembled {
    let opts = Options {
        semicolon_comments: true,
        ..Options::default()
    };
    risa_gcn_asm::assemble_for(Some(chip), "t.s", src, opts, false)
}

/// Lines llvm-mc rejects for `cpu` (None when llvm-mc is not installed).
fn llvm_rejects(cpu: &str, lines: &[&str]) -> Option<Vec<bool>> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", &format!("-mcpu={cpu}"), "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let src: String = lines.iter().map(|l| format!("{l}\n")).collect();
    child.stdin.take()?.write_all(src.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let mut bad = vec![false; lines.len()];
    for l in err.lines() {
        if let Some(n) = l
            .strip_prefix("<stdin>:")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<usize>().ok())
        {
            if l.contains("error") {
                bad[n - 1] = true;
            }
        }
    }
    Some(bad)
}

#[test]
fn gfx906_vectors_assemble_on_gfx906() {
    let v = gfx906_vectors();
    assert!(v.len() > 600);
    let src: String = v.iter().map(|(_, t)| format!("{t}\n")).collect();
    let a = assemble(chip("gfx906"), &src);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    let want: Vec<u32> = v.iter().flat_map(|(w, _)| w.iter().copied()).collect();
    assert_eq!(a.code(), want);
}

#[test]
fn gfx906_instructions_are_refused_on_other_gcn14_chips_naming_the_chips() {
    // One line per gated mnemonic (the first vector of each).
    let mut seen = std::collections::HashSet::new();
    let lines: Vec<String> = gfx906_vectors()
        .into_iter()
        .map(|(_, t)| t)
        .filter(|t| seen.insert(t.split(' ').next().unwrap().to_string()))
        .collect();
    assert!(lines.len() >= 15, "{lines:?}");
    for other in ["gfx900", "gfx902", "gfx909", "gfx90c"] {
        for l in &lines {
            let a = assemble(chip(other), l);
            let d = a.diagnostics();
            assert!(a.output.has_errors(), "{other}: {l} accepted");
            assert!(
                d.contains("needs") && d.contains("gfx906"),
                "{other}: {l}: message does not name the chips: {d}"
            );
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        match llvm_rejects(other, &refs) {
            Some(bad) => assert!(bad.iter().all(|b| *b), "llvm-mc {other} accepts some"),
            None => eprintln!("llvm-mc not installed: live check skipped"),
        }
    }
}

#[test]
fn mad_mix_and_fma_mix_share_opcodes_and_follow_the_chip() {
    // gfx900 has v_mad_mix*, gfx904 and gfx906 v_fma_mix* at the same opcodes.
    for (name, has_mad) in [
        ("gfx900", true),
        ("gfx902", true),
        ("gfx904", false),
        ("gfx906", false),
        ("gfx909", true),
        ("gfx90c", true),
    ] {
        let c = chip(name);
        for (mad, fma) in [
            ("v_mad_mix_f32", "v_fma_mix_f32"),
            ("v_mad_mixlo_f16", "v_fma_mixlo_f16"),
            ("v_mad_mixhi_f16", "v_fma_mixhi_f16"),
        ] {
            let (ok, bad) = if has_mad { (mad, fma) } else { (fma, mad) };
            let a = assemble(c, &format!("{ok} v1, v2, v3, v4"));
            assert!(!a.output.has_errors(), "{name}: {}", a.diagnostics());
            let words = a.code();
            assert_eq!(OPS[decode(c, &words).unwrap().op as usize].name, ok);
            let a = assemble(c, &format!("{bad} v1, v2, v3, v4"));
            assert!(a.output.has_errors(), "{name}: {bad} accepted");
            if let Some(r) = llvm_rejects(
                name,
                &[
                    &format!("{ok} v1, v2, v3, v4"),
                    &format!("{bad} v1, v2, v3, v4"),
                ],
            ) {
                assert_eq!(r, [false, true], "llvm-mc {name} disagrees on {ok}/{bad}");
            }
        }
    }
}

#[test]
fn gfx906_words_do_not_decode_as_gfx906_instructions_elsewhere() {
    let gfx900 = chip("gfx900");
    for (words, text) in gfx906_vectors() {
        let name = text.split(' ').next().unwrap();
        let gated = |i: risa_gcn::Instr| !OPS[i.op as usize].feat.is_empty();
        match decode(gfx900, &words) {
            // v_fma_mix words are v_mad_mix on gfx900; the others are unknown.
            Ok(i) if gated(i) => assert!(
                name.starts_with("v_fma_mix") && OPS[i.op as usize].name.starts_with("v_mad_mix"),
                "{text} decodes on gfx900 as {}",
                OPS[i.op as usize].name
            ),
            _ => {}
        }
    }
}
