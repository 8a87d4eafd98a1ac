//! The command line's own surface: `--version`, help texts that keep the
//! worked examples, typo suggestions, shell completions and exit codes
//! (0 ok, 1 error in the input, 2 bad usage; 3, a guest fault, is checked in
//! `run.rs`).

mod common;
use common::risa;

#[test]
fn version_names_the_package_version() {
    for flag in ["--version", "-V"] {
        let (code, out, _) = risa(&[flag]);
        assert_eq!(code, 0);
        assert_eq!(out.trim(), format!("risa {}", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn help_texts_keep_the_worked_examples() {
    // The example lines the hand-written usage texts carried.
    let top = [
        "risa asm --arch gfx900 -o kernel.bin --listing kernel.s",
        "risa asm --syntax llvm --format elf -o k.o k.s        # clang -S output",
        "risa disasm --arch gfx900 examples/gcn/vadd-gfx900.o",
        "risa disasm K.o > K.s && risa asm --format elf K.s -o K2.o   # same object",
        "echo 'bf810000' | risa disasm --arch fiji --lines -",
    ];
    for args in [&["--help"][..], &["help"], &["-h"]] {
        let (code, out, _) = risa(args);
        assert_eq!(code, 0);
        for ex in top {
            assert!(out.contains(ex), "risa {args:?} lost {ex:?}:\n{out}");
        }
        assert!(out.contains("EXIT STATUS"), "{out}");
    }
    let run = [
        "risa run examples/gcn/vadd-gfx900.o --grid 1000 --arg buf:f32:0..1000 \\",
        "--arg buf:f32:1000..2000 --arg buf:zeros:4000 --arg i32:1000 --print 2 --stats",
        "risa run k.o --grid 1024 --arg buf:a.bin --arg buf:zeros:4096 --out out/",
    ];
    let (code, out, _) = risa(&["run", "--help"]);
    assert_eq!(code, 0);
    for ex in run {
        assert!(out.contains(ex), "risa run --help lost {ex:?}:\n{out}");
    }
    // Cayman's assembler options are described under `risa asm --help`.
    let (code, out, _) = risa(&["asm", "--arch", "cayman", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("docs/cayman-syntax.md"), "{out}");
    let (code, out, _) = risa(&["help", "disasm"]);
    assert_eq!(code, 0);
    assert!(out.contains("--lines"), "{out}");
}

#[test]
fn typos_get_a_suggestion_and_exit_2() {
    let (code, _, err) = risa(&["disasmm", "x.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("'disasm'"), "{err}");
    let (code, _, err) = risa(&["asm", "--lsting", "x.s"]);
    assert_eq!(code, 2);
    assert!(err.contains("'--listing'"), "{err}");
    let (code, _, err) = risa(&["disasm", "--syntax", "llmv", "x.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("llvm"), "{err}");
    let (code, _, err) = risa(&["asm", "--format", "elf64", "x.s"]);
    assert_eq!(code, 2);
    assert!(err.contains("raw, bin, elf"), "{err}");
}

#[test]
fn no_arguments_prints_help_and_exits_2() {
    let (code, _, err) = risa(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage: risa <COMMAND>"), "{err}");
    let (code, _, err) = risa(&["disasm"]);
    assert_eq!(code, 2);
    assert!(err.contains("<FILE|->"), "{err}");
}

#[test]
fn errors_in_the_input_exit_1() {
    let (code, _, err) = risa(&["disasm", "--arch", "fiji", "/nonexistent/x.bin"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/x.bin"), "{err}");
    let (code, _, err) = risa(&["disasm", "--arch", "gfx9999", "/dev/null"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown architecture"), "{err}");
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F _risa"),
        ("zsh", "#compdef risa"),
        ("fish", "complete -c risa"),
    ] {
        let (code, out, err) = risa(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains(marker), "{shell}: no {marker:?}");
        for word in ["disasm", "syntax", "max-instructions"] {
            assert!(out.contains(word), "{shell} completion lacks {word}");
        }
    }
    let (code, _, _) = risa(&["completions", "tcsh"]);
    assert_eq!(code, 2);
}
