//! Parallel assembly (`risa_gcn_asm::parallel`) gives the sequential
//! assembler's output and diagnostics byte for byte: on the clang fixture
//! sources, random instruction listings of every generation in both
//! syntaxes, and sources with labels, forward references, macros,
//! conditionals, repetitions, comments across lines, register symbols,
//! chip switches and errors; with blocks small enough to start anywhere.

use risa_asm_core::Options;
use risa_gcn::{Dialect, Gen, Processor};
use risa_gcn_asm::parallel::{assemble_file_in, Threads};

/// Everything observable of an assembly: sections, symbols, diagnostics,
/// listing.
fn observe(a: &risa_gcn_asm::Assembled) -> String {
    let mut s = String::new();
    for sec in &a.output.sections {
        s += &format!("{} {:?} {:02x?}\n", sec.name, sec.kind, sec.data);
    }
    for sym in &a.output.symbols {
        s += &format!("{sym:?}\n");
    }
    s += &a.diagnostics();
    s += &a.listing_text();
    s += &format!("{} {}\n", a.backend.max_vgpr, a.backend.max_sgpr);
    s
}

/// (A line of a report, cut.)
fn short(l: Option<&str>) -> &str {
    let l = l.unwrap_or("");
    &l[..l.len().min(400)]
}

/// Checks parallel against sequential; returns the fewest statements a
/// parallel run without taking over took from the workers, and the fewest
/// runs of plain lines it took whole (without a listing).
fn check(
    src: &str,
    chip: Option<&'static Processor>,
    dialect: Dialect,
    blocks: &[usize],
) -> (u64, u64) {
    let scratch = tempfile::Builder::new()
        .prefix("risa-par-")
        .tempdir()
        .unwrap();
    let path = scratch.path().join("t.s");
    std::fs::write(&path, src).unwrap();
    let opts = || Options {
        semicolon_comments: dialect == Dialect::Llvm,
        slash_comments: dialect == Dialect::Llvm,
        ..Default::default()
    };
    let mut taken = (u64::MAX, u64::MAX);
    // (With a listing kept every statement is read; without, plain blocks
    // are taken whole.)
    for listing in [true, false] {
        let seq = assemble_file_in(chip, &path, opts(), listing, dialect, Threads::new(0)).unwrap();
        let want = observe(&seq);
        for &b in blocks {
            for (workers, take_over) in [(1, false), (3, false), (2, true)] {
                let threads = Threads {
                    workers,
                    block: b,
                    take_over,
                };
                let par = assemble_file_in(chip, &path, opts(), listing, dialect, threads).unwrap();
                let got = observe(&par);
                if !take_over {
                    taken.0 = taken.0.min(par.backend.encodings_taken);
                    if !listing {
                        taken.1 = taken.1.min(par.backend.blocks_taken);
                    }
                }
                if got != want {
                    let first = want.lines().zip(got.lines()).position(|(a, b)| a != b);
                    panic!(
                        "blocks of {b} bytes, {workers} workers (taking over: {take_over}, listing: {listing}): differs at line {first:?}\nsequential:\n{}\nparallel:\n{}",
                        short(want.lines().nth(first.unwrap_or(0))),
                        short(got.lines().nth(first.unwrap_or(0)))
                    );
                }
            }
        }
    }
    taken
}

#[test]
fn clang_fixture_sources() {
    let root = format!("{}/../../tests/fixtures/gcn", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for (dir, chip) in [("tahiti", "tahiti"), ("fiji", "fiji"), ("gfx900", "gfx900")] {
        let chip = risa_gcn_asm::backend::arch_of(chip).unwrap();
        let mut files: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "s"))
            .collect();
        files.sort();
        for f in files.iter().take(12) {
            let src = std::fs::read_to_string(f).unwrap();
            assert!(check(&src, Some(chip), Dialect::Llvm, &[200, 4096]).0 > 0);
            n += 1;
        }
    }
    assert!(n >= 30);
}

#[test]
fn random_listings_of_every_generation() {
    for gen in [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14] {
        let chip = Processor::of_gen(gen);
        let llvm = risa_gcn_asm::random_source(gen, 1500, 7 + gen as u64);
        // (Most statements are taken from the workers.)
        let (statements, runs) = check(&llvm, Some(chip), Dialect::Llvm, &[1, 20_000]);
        assert!(statements > 1000 && runs > 0, "{statements} {runs}");
        // The same instructions in CLRX's syntax.
        let code = risa_gcn_asm::assemble_for(
            Some(chip),
            "r.s",
            &llvm,
            Options {
                semicolon_comments: true,
                ..Default::default()
            },
            false,
        )
        .code();
        let mut clrx = String::new();
        let mut at = 0;
        while at < code.len() {
            let Ok(i) = risa_gcn::decode(gen, &code[at..]) else {
                break;
            };
            clrx += &risa_gcn::print(&i, Dialect::Clrx);
            clrx.push('\n');
            at += i.len as usize;
        }
        assert!(clrx.lines().count() > 1000);
        let (statements, runs) = check(&clrx, Some(chip), Dialect::Clrx, &[1, 20_000]);
        assert!(statements > 1000 && runs > 0, "{statements} {runs}");
    }
}

/// A source with everything that is not a plain instruction, and
/// instructions whose encoding depends on what comes before them.
const MIXED: &str = r#"
start:
    s_mov_b32 s0, 1
    v_mov_b32 v0, v1 ; v_mov_b32 v2, v3
    s_branch later
    x = 5
    s_mov_b32 s1, x
    y = %v7
    v_mov_b32 y, v1
    v_add_f32 v1, v2, v3 /* a comment
    v_mov_b32 v9, v9
    across lines */ v_mov_b32 v10, v10
    v_add_f32 v1, \
        v2, v3
.macro v_nop_twice
    v_nop
    v_nop
.endm
    v_nop_twice
.macro s_nop a
    s_nop 7
.endm
    s_nop 1
.purgem s_nop
    s_nop 1
.if 0
    v_mov_b32 v1, v2
.else
    v_mov_b32 v3, v4
.endif
.rept 3
    v_mov_b32 v5, v6
.endr
    s_mov_b32 s2, .
    s_mov_b32 s3, later - start
    v_bogus v1, v2
    v_mov_b32 v1
    v_mov_b32 v256, v1
    s_mov_b32 s0, 0x123456789
    v_cmp_class_f64 s[0:1], -9, m0 vop3
1:
    s_branch 1b
    s_branch 1f
1:
.gpu tahiti
    v_mov_b32 v1, v2
    v_add_u32 v1, vcc, v2, v3
.gpu fiji
    v_add_u32 v1, vcc, v2, v3
    V_MOV_B32 V1, V2
later:
    s_endpgm
    .L1 = . - 8
    s_branch .L1
    z = 3
.end
    v_mov_b32 v1, v2
"#;

#[test]
fn labels_macros_conditionals_symbols_and_errors() {
    let fiji = Processor::parse("fiji").unwrap();
    let mut src = String::new();
    for _ in 0..30 {
        src += MIXED.trim_end_matches(".end\n    v_mov_b32 v1, v2\n");
    }
    src += MIXED;
    assert!(check(&src, Some(fiji), Dialect::Clrx, &[1, 10, 37, 100, 1000]).0 > 300);
    assert!(check(&src, Some(fiji), Dialect::Llvm, &[1, 10, 37, 100, 1000]).0 > 300);
    // No chip: the first instruction is an error (once), none is encoded.
    assert_eq!(check(&src, None, Dialect::Clrx, &[1, 100]), (0, 0));
}

/// Plain lines (instructions, comments, blank lines, `;`, warnings) with
/// one thing that is not plain in the middle: blocks of every small size
/// start before it, on it, inside it and after it.
fn around(middle: &str) -> String {
    const PLAIN: &str = "    v_add_f32 v1, v2, v3\n    s_mov_b32 s0, 5 # five\n\n    v_nop ; s_nop 1\n    v_cmp_class_f64 s[0:1], -9, m0 vop3\n";
    format!("{}{middle}{}", PLAIN.repeat(6), PLAIN.repeat(6))
}

#[test]
fn plain_runs_next_to_everything_else() {
    let fiji = Processor::parse("fiji").unwrap();
    let plain = around("");
    let cases = [
        // A block may start inside each of these: it is not plain to the
        // assembler however it looks to the worker.
        format!("/*\n{plain}*/\n"),
        format!("    v_nop /* a\n{plain} */ v_nop\n"),
        format!(".macro m\n{plain}.endm\n    m\n.purgem m\n"),
        format!(".macro v_nop\n    s_nop 3\n.endm\n{plain}.purgem v_nop\n"),
        format!(".if 0\n{plain}    v_bogus\n.endif\n"),
        format!(".if 1\n{plain}.else\n{plain}.endif\n"),
        format!(".rept 2\n{plain}.endr\n"),
        format!(".irp r, v1, v2\n    v_mov_b32 \\r, v3\n{plain}.endr\n"),
        format!(".altmacro\n{plain}    local\n.noaltmacro\n"),
        // Labels, branches, symbols, `.`: read by the assembler.
        "lab:\n    s_branch lab\n    v_nop ; lab2: s_nop 0\n    s_branch lab2\n".into(),
        "    s_branch later\n    x = 5\n    s_mov_b32 s1, x\n    s_mov_b32 s2, .\nlater:\n".into(),
        // Errors and warnings at their columns.
        "    v_mov_b32 v1\n    v_bogus v3\n    s_mov_b32 s0, 0x123456789\n".into(),
        "    v_add_f32 v1, \\\n        v2, v3\n".into(),
        // Sections: code, data, another, nobits (non-zero data warns).
        format!(".data\n{plain}.section .foo\n{plain}.bss\n    v_nop\n.text\n"),
        format!(".struct 8\n{plain}.text\n"),
        // The chip changes: the same text encodes differently.
        format!(".gpu tahiti\n{plain}.gpu fiji\n"),
        format!(".arch gcn1.0\n{plain}.arch gcn1.2\n"),
        ".end\n    v_nop\n".into(),
    ];
    for middle in &cases {
        let src = around(middle);
        for dialect in [Dialect::Clrx, Dialect::Llvm] {
            let (_, runs) = check(&src, Some(fiji), dialect, &[1, 7, 10, 37, 64, 100, 1000]);
            assert!(runs > 0, "no run taken whole:\n{src}");
        }
    }
    // As many errors as the assembler keeps, and more.
    let mut src = String::new();
    for k in 0..10_050 {
        src += if k % 3 == 0 {
            "    v_nop\n"
        } else {
            "    v_bogus\n"
        };
    }
    let (_, runs) = check(&src, Some(fiji), Dialect::Clrx, &[1000, 100_000]);
    assert!(runs > 0);
}

/// A source of several stream pieces (1 MB each): the assembler passes
/// over the text of the runs it takes whole, inside a piece and past its
/// end, and goes on at the right line (the errors and labels between the
/// runs say where).
#[test]
fn runs_taken_across_stream_pieces() {
    let chip = Processor::of_gen(Gen::Gcn12);
    let body = risa_gcn_asm::random_source(Gen::Gcn12, 60_000, 11);
    let mut src = String::new();
    for (k, line) in body.lines().enumerate() {
        if k % 7001 == 7000 {
            src += &format!("l{k}:\n    v_bogus v{k}\n");
        }
        src += line;
        src.push('\n');
    }
    assert!(src.len() > 2 << 20, "{}", src.len());
    let (_, runs) = check(&src, Some(chip), Dialect::Llvm, &[128 << 10]);
    assert!(runs > 0);
}

#[test]
fn a_pipe_is_read_once() {
    // A named pipe cannot be read twice: assembled sequentially.
    let scratch = tempfile::Builder::new()
        .prefix("risa-par-fifo-")
        .tempdir()
        .unwrap();
    let fifo = scratch.path().join("src.s");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo unavailable");
        return;
    }
    let src = risa_gcn_asm::random_source(Gen::Gcn14, 20_000, 3);
    let writer = {
        let (fifo, src) = (fifo.clone(), src.clone());
        std::thread::spawn(move || std::fs::write(fifo, src).unwrap())
    };
    let chip = Some(Processor::of_gen(Gen::Gcn14));
    let opts = Options {
        semicolon_comments: true,
        ..Default::default()
    };
    let threads = Threads {
        workers: 2,
        block: 4096,
        take_over: false,
    };
    let par = assemble_file_in(chip, &fifo, opts.clone(), false, Dialect::Llvm, threads).unwrap();
    writer.join().unwrap();
    let seq = risa_gcn_asm::assemble_for(chip, "s.s", &src, opts, false);
    assert!(!par.output.has_errors(), "{}", par.diagnostics());
    assert_eq!(par.code(), seq.code());
    assert_eq!(par.backend.encodings_taken, 0);
}
