//! Disassembly that always assembles back to the same bytes.
//!
//! [`risa_gcn::listing`] prints instructions from the tables; this module
//! adds the assembler's check: every instruction's text is assembled on its
//! own, and when it would not give back the instruction's words (an operand
//! code no register name stands for, a form the syntax cannot express) the
//! words are printed as `.int` with the text in a comment. `risa disasm`
//! uses it, so `risa disasm F > F.s; risa asm --format raw F.s` gives F back
//! for any bytes (tests/raw_roundtrip.rs).

use risa_asm_core::Options;
use risa_gcn::layout::{Enc, ENC_COUNT};
use risa_gcn::listing::{self, disassemble_checked};
use risa_gcn::table::OPS;
use risa_gcn::{random, Dialect, Instr, Processor};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// Whether `text` assembles (alone, at address 0, for `chip`) to exactly
/// `i`'s words.
pub fn text_is_exact(chip: &'static Processor, i: &Instr, text: &str, dialect: Dialect) -> bool {
    let opts = Options {
        semicolon_comments: dialect == Dialect::Llvm,
        allow_fs: false,
        max_diagnostics: 1,
        ..Default::default()
    };
    let a = crate::assemble_for(Some(chip), "", text, opts, false);
    if a.output.has_errors() {
        return false;
    }
    let (w, n) = i.words();
    let got = a.output.section(".text").map_or(&[][..], |s| &s.data[..]);
    got.len() == 4 * n
        && got
            .chunks_exact(4)
            .zip(&w[..n])
            .all(|(b, x)| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == *x)
}

/// [`listing::disassemble`] whose every instruction is checked with
/// [`text_is_exact`]: the result assembles back to `code` with
/// `risa asm` (`--syntax llvm` for the LLVM dialect).
pub fn disassemble(
    chip: &'static Processor,
    code: &[u8],
    base: u64,
    symbols: &BTreeMap<u64, String>,
    opts: listing::Options,
) -> String {
    disassemble_relocated(chip, code, base, symbols, &BTreeMap::new(), opts)
}

/// [`disassemble`] with relocated literals (see
/// [`listing::disassemble_checked`]), for code objects.
pub fn disassemble_relocated(
    chip: &'static Processor,
    code: &[u8],
    base: u64,
    symbols: &BTreeMap<u64, String>,
    relocs: &BTreeMap<u64, String>,
    opts: listing::Options,
) -> String {
    let check = Exactness::new(chip, opts.dialect);
    disassemble_checked(chip, code, base, symbols, relocs, opts, &|i, t| {
        check.is_exact(i, t)
    })
}

/// [`disassemble`] of raw code at address 0 given piece by piece (see
/// [`listing::disassemble_pieces`]: `pass` gives the code twice, the text
/// goes to `write`): `risa disasm` of a file of any size.
pub fn disassemble_pieces<E>(
    chip: &'static Processor,
    opts: listing::Options,
    pass: impl FnMut(&mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), E>,
    write: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let check = Exactness::new(chip, opts.dialect);
    let none = BTreeMap::new();
    let exact = |i: &Instr, t: &str| check.is_exact(i, t);
    listing::disassemble_pieces(chip, 0, &none, &none, opts, &exact, pass, write)
}

/// How many assembler verdicts [`Exactness`] keeps (then it starts over):
/// a listing of any size takes bounded memory.
const VERDICTS_KEPT: usize = 1 << 16;

/// Instances of a form [`Exactness`] makes to learn which bits it uses.
const FORM_SAMPLES: usize = 32;

/// The exactness check of a listing ([`listing::Lister`]), made cheap.
///
/// The printer already refuses text it knows cannot stand for the words
/// ([`risa_gcn::Printer::write_checked`]); what it cannot know is whether
/// the assembler gives back bits the text does not show: unused fields,
/// operands of a form that has none, and the like. So an instruction
/// whose set bits are all bits that valid instances of its form set
/// (learned once per form from [`risa_gcn::random::random_instr`]) is
/// taken as the printer says: valid instructions round-trip, which
/// tests/roundtrip.rs checks for every form, and tests/raw_roundtrip.rs
/// and tests/exactness.rs check for random words (a trusted instruction
/// that does not assemble back fails them). Any other instruction is
/// assembled ([`text_is_exact`]), once per distinct words.
pub struct Exactness {
    chip: &'static Processor,
    dialect: Dialect,
    /// Per form (instruction × encoding, a flat table: this is looked up
    /// for every instruction): the bits its valid instances set, once known.
    forms: RefCell<Vec<Option<u64>>>,
    /// Assembler verdicts by words.
    verdicts: RefCell<HashMap<(u64, Option<u32>), bool>>,
}

impl Exactness {
    /// A check for listings of `chip`'s code in `dialect`.
    pub fn new(chip: &'static Processor, dialect: Dialect) -> Self {
        Exactness {
            chip,
            dialect,
            forms: RefCell::new(vec![None; OPS.len() * ENC_COUNT]),
            verdicts: RefCell::default(),
        }
    }

    /// Whether `text` (which the printer wrote for `i` and called exact)
    /// assembles back to `i`'s words.
    pub fn is_exact(&self, i: &Instr, text: &str) -> bool {
        if self.trusted(i) {
            return true;
        }
        let key = (i.raw, i.lit);
        if let Some(&ok) = self.verdicts.borrow().get(&key) {
            return ok;
        }
        let ok = text_is_exact(self.chip, i, text, self.dialect);
        let mut v = self.verdicts.borrow_mut();
        if v.len() >= VERDICTS_KEPT {
            v.clear();
        }
        v.insert(key, ok);
        ok
    }

    /// Whether every bit `i` sets is one valid instances of its form set.
    pub fn trusted(&self, i: &Instr) -> bool {
        let key = i.op as usize * ENC_COUNT + i.enc as usize;
        let known = self.forms.borrow()[key];
        let mask = match known {
            Some(m) => m,
            None => {
                let m = self.form_bits(i);
                self.forms.borrow_mut()[key] = Some(m);
                m
            }
        };
        i.raw & !mask == 0
    }

    /// The bits that valid instances of `i`'s form set (0 when the
    /// generator has no instance of it: nothing is trusted then).
    fn form_bits(&self, i: &Instr) -> u64 {
        let mut rng = random::Rng::new(0x5eed ^ u64::from(i.op));
        let mut bits = 0;
        let mut made = 0;
        for _ in 0..FORM_SAMPLES {
            // (The generator names VOP3b forms by their VOP3 encoding.)
            let enc = if i.enc == Enc::Vop3b {
                Enc::Vop3
            } else {
                i.enc
            };
            if let Some(x) = random::random_instr(&mut rng, self.chip, i.op, enc) {
                if x.enc == i.enc {
                    bits |= x.raw;
                    made += 1;
                }
            }
        }
        if made == 0 {
            0
        } else {
            bits
        }
    }
}
