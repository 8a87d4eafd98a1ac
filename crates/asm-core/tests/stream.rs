//! A source read as a stream (`Assembler::assemble_reader`, pieces of about
//! 1 MB of whole lines) assembles exactly as the same source given whole:
//! continuation lines, block comments, macros and repetitions, forward
//! references and local labels across the pieces' boundaries.

use risa_asm_core::{Assembler, NoIsa, Options, Output};
use std::io::Cursor;

fn whole(src: &str) -> Output {
    Assembler::new(Options::default()).assemble("s.s", src, &mut NoIsa)
}

fn streamed(src: &str) -> Output {
    let reader = Box::new(Cursor::new(src.as_bytes().to_vec()));
    Assembler::new(Options::default()).assemble_reader("s.s", reader, &mut NoIsa)
}

/// About 3.5 MB of source: every construct repeated past several piece
/// boundaries, each at shifting offsets.
fn big_source() -> String {
    let mut s = String::from(".macro pair a, b\n.byte \\a, \\b\n.endm\n.int later\n");
    for i in 0..120_000u32 {
        match i % 6 {
            0 => s.push_str(&format!(".byte {}, \\\n  {}\n", i & 0xff, (i >> 8) & 0xff)),
            1 => s.push_str(&format!(
                "/* a comment\n that spans {i} lines */ .short {i}\n"
            )),
            2 => s.push_str(&format!("pair {}, {}\n", i & 0x7f, (i * 7) & 0x7f)),
            3 => s.push_str(&format!(".rept 2\n.byte {}\n.endr\n", i & 0xff)),
            4 => s.push_str(&format!("1: .int 1f - 1b + {i} # comment {i}\n1:\n")),
            _ => s.push_str(&format!("l{i}: .int l{i} - fwd{i}\nfwd{i}:\n")),
        }
    }
    s.push_str("later = 0x1234\n");
    s
}

#[test]
fn a_streamed_source_assembles_as_the_whole_one() {
    let src = big_source();
    assert!(src.len() > 3 << 20, "{} bytes", src.len());
    let (a, b) = (whole(&src), streamed(&src));
    assert!(!a.has_errors(), "{:?}", a.diagnostics.first());
    assert_eq!(a.diagnostics.len(), b.diagnostics.len());
    assert_eq!(
        a.section(".text").unwrap().data,
        b.section(".text").unwrap().data
    );
}

#[test]
fn diagnostics_name_the_line_in_a_streamed_source() {
    let mut src = ".byte 1\n".repeat(200_000);
    src.push_str(".byte 1, nosuchsym\n");
    let d = streamed(&src).diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (d[0].line, d[0].source_line.as_str()),
        (200_001, ".byte 1, nosuchsym")
    );
}

#[test]
fn bytes_that_are_not_utf8_are_an_error_at_their_line() {
    let mut src = b".byte 1\n.byte 2\n.byte 3 # \xff\n".to_vec();
    src.extend_from_slice(b".byte 4\n");
    let reader = Box::new(Cursor::new(src));
    let out = Assembler::new(Options::default()).assemble_reader("s.s", reader, &mut NoIsa);
    let d: Vec<_> = out.errors().collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].line, d[0].col), (3, 11));
    assert!(d[0].message.contains("not UTF-8"), "{}", d[0].message);
}

/// A source whose reading fails part way (a disk error, a network file
/// system going away) is an error, not a source that ends there: the text
/// read so far would otherwise pass for the whole program.
#[test]
fn a_read_error_is_reported_not_taken_for_the_end() {
    /// Gives `ok` bytes, then fails.
    struct Failing {
        ok: Cursor<Vec<u8>>,
    }
    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            match self.ok.read(buf)? {
                0 => Err(std::io::Error::other("device gone")),
                n => Ok(n),
            }
        }
    }
    let ok = Cursor::new(".byte 1\n.byte 2\n".as_bytes().to_vec());
    let reader = Box::new(std::io::BufReader::new(Failing { ok }));
    let out = Assembler::new(Options::default()).assemble_reader("s.s", reader, &mut NoIsa);
    let d: Vec<_> = out.errors().collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.contains("reading the source") && d[0].message.contains("device gone"),
        "{}",
        d[0].message
    );
}
