//! Whole-program disassembly: labels for branch targets and symbols, data
//! words for what does not decode, optional hex.

use crate::decode::{decode, DecodeError, Instr, LenDecoder};
use crate::gen::Gen;
use crate::layout::Enc;
use crate::print::{Dialect, Printer};
use crate::processor::Target;
use crate::table::OpId;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Options of [`disassemble`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Syntax flavour.
    pub dialect: Dialect,
    /// Show each instruction's offset and words in a comment.
    pub hex: bool,
}

/// The branch target of a SOPP/SOPK branch (byte address), if `i` is one.
#[inline]
pub fn branch_target(i: &Instr, pc: u64) -> Option<u64> {
    if !crate::table::op_has(i.op, crate::table::flag::BRANCH) {
        return None;
    }
    Some(branch_address(
        pc,
        i.field(crate::layout::Field::Simm16) as u16 as i16,
    ))
}

/// How far back a branch can go, in bytes: a branch at `pc` goes to
/// `pc - BRANCH_REACH` or later (its offset is a signed 16-bit count of dwords).
pub const BRANCH_REACH: u64 = 4 * 32768 - 4;

/// The byte address a branch at `pc` with SIMM16 offset `off` (dwords) goes to.
#[inline]
fn branch_address(pc: u64, off: i16) -> u64 {
    (pc as i64 + 4 + i64::from(off) * 4) as u64
}

/// Decodes `code` (little-endian) as one stream starting at byte address `base`.
///
/// Every dword is accounted for: instructions, or `.int` data for words that
/// do not decode (a trailing partial dword is left out).
pub fn decode_all(
    gen: impl Into<Target>,
    code: &[u8],
    base: u64,
) -> Vec<(u64, Result<Instr, DecodeError>)> {
    let mut out = Vec::with_capacity(code.len() / 4);
    Carry::new(gen.into(), base).feed(code, true, Known::default(), |pc, r, _, _, _| {
        out.push((pc, *r))
    });
    out
}

/// An instruction as a [`Stretch`] keeps it for the listing, in 16 bytes:
/// the listing reads back what the scan wrote hundreds of kilobytes of
/// instructions earlier (the labels of a chunk are known only once the
/// code a branch can reach past it is scanned), and at 32 bytes (address
/// and `Result<Instr, DecodeError>`) those stores and loads missed the
/// last-level cache 2.4 times as often (cachegrind). Its address is where
/// the one before it ends ([`Known`]); words that do not decode are kept
/// as their count only, and decoded again when listed.
#[derive(Debug, Clone, Copy)]
pub struct Kept {
    raw: u64,
    lit: u32,
    op: OpId,
    enc: Enc,
    /// The dwords accounted for (bits 0-1), [`Kept::LIT`], [`Kept::ERR`].
    meta: u8,
}

impl Kept {
    /// The instruction has a literal (`lit`).
    const LIT: u8 = 4;
    /// The words do not decode: only the count is kept.
    const ERR: u8 = 8;
    /// The check of the listing passes the instruction whatever its text
    /// (see [`Stretch::trust`]).
    const TRUSTED: u8 = 16;

    #[inline(always)]
    fn new(r: &Result<Instr, DecodeError>) -> Kept {
        match r {
            Ok(i) => Kept {
                raw: i.raw,
                lit: i.lit.unwrap_or(0),
                op: i.op,
                enc: i.enc,
                meta: i.len | (u8::from(i.lit.is_some()) * Kept::LIT),
            },
            Err(_) => Kept {
                raw: 0,
                lit: 0,
                op: 0,
                enc: Enc::Sop2,
                meta: step_of(r) as u8 | Kept::ERR,
            },
        }
    }

    /// The dwords this accounts for.
    #[inline(always)]
    fn step(&self) -> usize {
        usize::from(self.meta & 3)
    }

    /// The instruction (of `gen`), unless the words do not decode.
    #[inline(always)]
    fn instr(&self, gen: Gen) -> Option<Instr> {
        (self.meta & Kept::ERR == 0).then_some(Instr {
            op: self.op,
            enc: self.enc,
            gen,
            len: self.meta & 3,
            raw: self.raw,
            lit: (self.meta & Kept::LIT != 0).then_some(self.lit),
        })
    }
}

/// The instructions a [`Stretch`] decoded ([`Stretch::decoded`]), from
/// the one at a byte address on, in address order: a listing fed them
/// with its code ([`Lister::feed_decoded`]) does not decode those again.
/// The default holds none.
#[derive(Debug, Clone, Copy, Default)]
pub struct Known<'k> {
    kept: &'k [Kept],
    /// The byte address of the first of `kept`.
    pc: u64,
}

impl<'k> Known<'k> {
    /// The decoding at byte address `pc` if this holds it (asked in
    /// address order: what lies before `pc` is dropped).
    #[inline(always)]
    fn take(&mut self, pc: u64) -> Option<&'k Kept> {
        // (The common case: past the first few instructions of a chunk,
        // the next one known is the next one listed.)
        if self.pc != pc {
            self.skip_before(pc);
            if self.pc != pc {
                return None;
            }
        }
        let [k, rest @ ..] = self.kept else {
            return None;
        };
        self.kept = rest;
        self.pc += 4 * k.step() as u64;
        Some(k)
    }

    /// Drops the decodings before byte address `pc`.
    #[inline(never)]
    fn skip_before(&mut self, pc: u64) {
        while self.pc < pc {
            let [k, rest @ ..] = self.kept else {
                return;
            };
            self.kept = rest;
            self.pc += 4 * k.step() as u64;
        }
    }
}

/// The line-comment marker of a dialect: `#` in CLRX's language (where
/// `//` is division), `;` in LLVM's AMDGPU assembly (`risa asm --syntax llvm`).
pub fn comment(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Clrx => "#",
        Dialect::Llvm => ";",
    }
}

/// Disassembles `code` at `base` with `symbols` (address → name) as labels.
///
/// ```
/// use risa_gcn::{listing, Gen};
/// let code = [0x00, 0x00, 0x82, 0xbf, 0x00, 0x00, 0x81, 0xbf]; // s_branch +0; s_endpgm
/// let text = listing::disassemble(Gen::Gcn12, &code, 0, &Default::default(), listing::Options::default());
/// assert!(text.contains("s_branch .L4_0"));
/// assert!(text.contains(".L4_0:\n    s_endpgm"));
/// ```
pub fn disassemble(
    gen: impl Into<Target>,
    code: &[u8],
    base: u64,
    symbols: &BTreeMap<u64, String>,
    opts: Options,
) -> String {
    let none = BTreeMap::new();
    disassemble_checked(gen, code, base, symbols, &none, opts, &|_, _| true)
}

/// The text of a branch target label: CLRX's `.L<address>_0`, LLVM's `.L<hex>`.
fn label_name(dialect: Dialect, t: u64) -> String {
    match dialect {
        Dialect::Clrx => format!(".L{t}_0"),
        Dialect::Llvm => format!(".L{t:x}"),
    }
}

/// [`disassemble`], where `exact(instr, text)` says whether `text` (the
/// instruction printed without labels, branch offsets as numbers) assembles
/// back to the instruction's words; when it does not, the words are printed
/// as `.int` data with the text in a comment, so that the listing always
/// assembles back to `code` (the assembler, which this crate does not depend
/// on, supplies the check: `risa_gcn_asm::disasm`).
///
/// Words that are printed as data rather than as an instruction:
/// * words that do not decode, and instructions cut short by the end of the code;
/// * instructions with reserved bits set (bits no field covers: the text
///   cannot carry them), the instruction and the bits in the comment;
/// * instructions `exact` rejects.
///
/// Branch targets that are not the start of a printed instruction (past
/// either end of the code, or inside an instruction or data) are defined
/// at the end as `label = . + delta`, so every label the text uses is defined.
///
/// `relocs` maps the byte address of a literal dword to the text that
/// replaces the literal operand (`sym@rel32@lo+4`), so the relocation is
/// written again when the text is assembled into a code object.
///
/// This is [`disassemble_pieces`] with `code` as the one piece.
pub fn disassemble_checked(
    gen: impl Into<Target>,
    code: &[u8],
    base: u64,
    symbols: &BTreeMap<u64, String>,
    relocs: &BTreeMap<u64, String>,
    opts: Options,
    exact: &dyn Fn(&Instr, &str) -> bool,
) -> String {
    // The code is all here: decoded once, for the labels and the text
    // (the same text as `disassemble_pieces` of it as one piece).
    let target = gen.into();
    let all = Stretch::scan(target, base, code, code.len());
    let mut labels = symbols.clone();
    for &(_, t) in &all.branches {
        add_label(&mut labels, opts.dialect, t);
    }
    let mut out = String::with_capacity(code.len() * 12);
    let mut lister = Lister::new(target, base, opts, &labels, relocs, exact);
    lister.feed_decoded(code, all.decoded(), &mut out);
    lister.finish(&mut out);
    out
}

/// [`disassemble_checked`] of code given piece by piece: `pass(f)` calls
/// `f` with the code from the start, in pieces of any size, and is called
/// twice ([`Labels`], then [`Lister`]); the text goes to `write` a piece
/// at a time. A listing of any size then takes memory for one piece (and
/// its text) and the labels. An error of `pass` or `write` ends it.
#[allow(clippy::too_many_arguments)]
pub fn disassemble_pieces<E>(
    gen: impl Into<Target>,
    base: u64,
    symbols: &BTreeMap<u64, String>,
    relocs: &BTreeMap<u64, String>,
    opts: Options,
    exact: &dyn Fn(&Instr, &str) -> bool,
    mut pass: impl FnMut(&mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), E>,
    mut write: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let target = gen.into();
    let mut scan = Labels::new(target, base, opts.dialect, symbols.clone());
    pass(&mut |piece| {
        scan.feed(piece);
        Ok(())
    })?;
    let labels = scan.finish();
    let mut lister = Lister::new(target, base, opts, &labels, relocs, exact);
    let mut text = String::new();
    pass(&mut |piece| {
        // (About 12 bytes of text per byte of code: no regrowing.)
        text.reserve(piece.len() * 12);
        lister.feed(piece, &mut text);
        write(&text)?;
        text.clear();
        Ok(())
    })?;
    lister.finish(&mut text);
    write(&text)
}

/// Whole dwords of a byte stream that arrives in pieces: the bytes of an
/// unfinished dword, and the dword that may be the first of an
/// instruction's two, wait for the next piece.
struct Carry {
    target: Target,
    /// Byte address of the next dword to decode.
    pc: u64,
    /// Bytes received but not decoded yet (fewer than 8).
    bytes: Vec<u8>,
    /// The dwords of a piece (kept to reuse the allocation).
    words: Vec<u32>,
}

impl Carry {
    fn new(target: Target, base: u64) -> Self {
        Carry {
            target,
            pc: base,
            bytes: Vec::new(),
            words: Vec::new(),
        }
    }

    /// Decodes what `piece` completes; `f(pc, result, words, trusted,
    /// next)` for each instruction or undecodable dword. With `last`,
    /// everything left is decoded (a partial dword stays in `bytes`). An
    /// instruction `known` holds (the decoding of the same code) is taken
    /// from there; `trusted` is its mark ([`Stretch::trust`]) and `next`
    /// the one `known` holds after it, if any.
    fn feed(
        &mut self,
        piece: &[u8],
        last: bool,
        mut known: Known<'_>,
        mut f: impl FnMut(u64, &Result<Instr, DecodeError>, &[u32], bool, Option<&Kept>),
    ) {
        // The carried bytes and the start of `piece` as whole dwords.
        let mut rest = piece;
        let mut words = std::mem::take(&mut self.words);
        words.clear();
        let mut partial = Vec::new();
        if !self.bytes.is_empty() {
            let need = (4 - self.bytes.len() % 4) % 4;
            let take = need.min(rest.len());
            self.bytes.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            let whole = self.bytes.len() / 4 * 4;
            words.extend(
                self.bytes[..whole]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
            // (Bytes of an unfinished dword only when `piece` is used up.)
            partial.extend_from_slice(&self.bytes[whole..]);
            self.bytes.clear();
        }
        words.extend(
            rest.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        let tail = &rest[rest.len() - rest.len() % 4..];
        let mut k = 0;
        // An instruction takes at most two dwords: one dword left may need
        // the next piece's first.
        let end = if last {
            words.len()
        } else {
            words.len().saturating_sub(1)
        };
        let gen = self.target.gen;
        while k < end {
            let taken = known
                .take(self.pc)
                // (Decoded from the same words: the same dwords are left,
                // but a misfed one must not index past them.)
                .filter(|kept| kept.step() <= words.len() - k);
            let trusted = taken.is_some_and(|kept| kept.meta & Kept::TRUSTED != 0);
            let (r, step) = match taken.and_then(|kept| kept.instr(gen)) {
                Some(i) => (Ok(i), usize::from(i.len)),
                None => decode_at(self.target, &words, k),
            };
            debug_assert_eq!((r, step), decode_at(self.target, &words, k));
            f(
                self.pc,
                &r,
                &words[k..k + step],
                trusted,
                known.kept.first(),
            );
            self.pc += 4 * step as u64;
            k += step;
        }
        for w in &words[k..] {
            self.bytes.extend_from_slice(&w.to_le_bytes());
        }
        self.bytes.extend_from_slice(&partial);
        self.bytes.extend_from_slice(tail);
        self.words = words;
    }
}

/// Decodes the instruction at dword `k` of `words` (a stream's dwords, to
/// its end or at least one past `k`): the result and the dwords it
/// accounts for (an instruction's length; one for a word that does not
/// decode; the words left for an instruction cut short by the end).
#[inline]
fn decode_at(target: Target, words: &[u32], k: usize) -> (Result<Instr, DecodeError>, usize) {
    let r = decode(target, &words[k..(k + 2).min(words.len())]);
    let step = step_of(&r);
    (r, step)
}

/// The dwords a result of [`decode_at`] accounts for.
#[inline]
fn step_of(r: &Result<Instr, DecodeError>) -> usize {
    match r {
        Ok(i) => i.len as usize,
        // Only at the end: the words that are left.
        Err(DecodeError::Truncated { have, .. }) => (*have).max(1) as usize,
        Err(_) => 1,
    }
}

/// [`decode_at`] for the first pass, which needs only lengths and branch
/// targets ([`LenDecoder`]): the dwords the instruction at dword `k` (byte
/// address `pc`) accounts for and where it branches to, if it is a branch.
#[inline]
fn step_at(lens: &LenDecoder, words: &[u32], k: usize, pc: u64) -> (usize, Option<u64>) {
    match lens.decode_len(&words[k..(k + 2).min(words.len())]) {
        Ok((len, off)) => (len as usize, off.map(|o| branch_address(pc, o))),
        // Only at the end: the words that are left.
        Err(DecodeError::Truncated { have, .. }) => (have.max(1) as usize, None),
        Err(_) => (1, None),
    }
}

/// The first pass of a listing: the labels (the given symbols and every
/// branch target), from the code given piece by piece.
pub struct Labels {
    carry: Carry,
    dialect: Dialect,
    labels: BTreeMap<u64, String>,
}

impl Labels {
    /// A scan of code starting at byte address `base`, with `symbols` as labels.
    pub fn new(
        target: impl Into<Target>,
        base: u64,
        dialect: Dialect,
        symbols: BTreeMap<u64, String>,
    ) -> Self {
        Labels {
            carry: Carry::new(target.into(), base),
            dialect,
            labels: symbols,
        }
    }

    /// The next piece of the code (any length).
    pub fn feed(&mut self, piece: &[u8]) {
        self.scan(piece, false);
    }

    fn scan(&mut self, piece: &[u8], last: bool) {
        let (labels, dialect) = (&mut self.labels, self.dialect);
        self.carry
            .feed(piece, last, Known::default(), |pc, r, _, _, _| {
                if let Some(t) = r.as_ref().ok().and_then(|i| branch_target(i, pc)) {
                    add_label(labels, dialect, t);
                }
            });
    }

    /// The same scan (not fed yet) made of [`Stretch`]es scanned apart.
    pub fn in_stretches(self) -> Stretches {
        Stretches {
            target: self.carry.target,
            dialect: self.dialect,
            labels: self.labels,
            splits: Vec::new(),
            next: self.carry.pc,
            prev: None,
        }
    }

    /// The labels, by byte address.
    pub fn finish(mut self) -> BTreeMap<u64, String> {
        self.scan(&[], true);
        self.labels
    }
}

/// Adds the label of a branch target (a symbol of the same address keeps its name).
fn add_label(labels: &mut BTreeMap<u64, String>, dialect: Dialect, t: u64) {
    labels.entry(t).or_insert_with(|| label_name(dialect, t));
}

/// A place where a listing can be cut into chunks listed independently
/// (see [`Lister::at`]): the start of an instruction (or data word) that
/// the first pass found, and the start of the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Byte address of the instruction the chunk starts with.
    pub pc: u64,
    /// Byte address of the instruction before it (the labels after it
    /// and up to `pc` belong to the chunk).
    pub prev: u64,
}

/// The first pass of a listing over one stretch of the code, on its own
/// (stretches are scanned in parallel, then joined in order by
/// [`Stretches`]).
///
/// Where the stretch's first instruction starts is known only once the
/// stretch before it is decoded: at its first dword, or at its second
/// when a two-dword instruction crosses the border. The scan guesses the
/// first dword; decoding is a function of where it starts, so a decoding
/// from the true start agrees with the guess from the first address both
/// start an instruction at (after a few instructions at most, in practice),
/// and [`Stretches::join`] decodes only the instructions before it again.
pub struct Stretch {
    /// The generation decoded.
    gen: Gen,
    /// Byte address of the stretch's first dword.
    from: u64,
    /// Bytes of whole dwords in the stretch.
    len: u64,
    /// The stretch's dwords and the one after it (to the end of the code;
    /// dropped once joined).
    words: Vec<u32>,
    /// Address and target of every branch the guess decoded, in order
    /// (once joined, of the true decoding: see [`Stretches::join`]).
    branches: Vec<(u64, u64)>,
    /// The guess's instructions, where it starts them (from where it
    /// meets the true decoding on, the listing's: see [`Stretch::decoded`]).
    decoded: Vec<Kept>,
    /// Bit `k`: the guess starts an instruction at dword `k`.
    starts: Vec<u64>,
    /// The address of the guess's last instruction, and of the one after
    /// it (at or past the end of the stretch).
    last: u64,
    end: u64,
}

impl Stretch {
    /// Scans the stretch of code at byte address `from` of which `code`
    /// holds the bytes followed by the next dword of the code, if any
    /// (`len` bytes belong to the stretch; a partial dword at the end of
    /// the code is left out).
    ///
    /// The instructions are decoded in full and kept ([`Stretch::decoded`]):
    /// the listing of the chunk takes them rather than decoding again.
    pub fn scan(target: impl Into<Target>, from: u64, code: &[u8], len: usize) -> Stretch {
        Self::scan_reusing(target, from, code, len, Vec::new())
    }

    /// [`Stretch::scan`] that keeps the instructions in `spare` (cleared
    /// first), the buffer of a stretch listed before
    /// ([`Stretch::into_decoded`]): a listing that took a new one for
    /// every stretch spent 7 % of its time (perf) in the kernel's page
    /// faults for the fresh pages.
    pub fn scan_reusing(
        target: impl Into<Target>,
        from: u64,
        code: &[u8],
        len: usize,
        mut spare: Vec<Kept>,
    ) -> Stretch {
        let target = target.into();
        let words: Vec<u32> = code
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let n = (len / 4).min(words.len());
        let mut branches = Vec::new();
        let mut decoded = {
            spare.clear();
            // (Instructions average more than one dword.)
            spare.reserve(n / 3 * 2 + 1);
            spare
        };
        let mut starts = vec![0u64; n.div_ceil(64)];
        let (mut k, mut last) = (0, 0);
        while k < n {
            let pc = from + 4 * k as u64;
            let r = crate::decode::decode_inline(target, &words[k..(k + 2).min(words.len())]);
            let step = step_of(&r);
            if let Some(t) = r.as_ref().ok().and_then(|i| branch_target(i, pc)) {
                branches.push((pc, t));
            }
            decoded.push(Kept::new(&r));
            starts[k / 64] |= 1 << (k % 64);
            last = pc;
            k += step;
        }
        Stretch {
            gen: target.gen,
            from,
            len: 4 * n as u64,
            words,
            branches,
            decoded,
            starts,
            last,
            end: from + 4 * k as u64,
        }
    }

    /// The instructions the scan decoded, for [`Lister::feed_decoded`]:
    /// from the first one the true decoding starts too, the instructions
    /// of the chunk that starts in this stretch (its [`Split`]).
    pub fn decoded(&self) -> Known<'_> {
        Known {
            kept: &self.decoded,
            pc: self.from,
        }
    }

    /// Marks the instructions `trusted` passes as exact whatever their
    /// text: their listing does not call its check (`exact`) for them.
    /// `trusted` must say of an instruction only what `exact` would (the
    /// check of [`disassemble_checked`] of the same listing). In a pass of
    /// its own, where the table lookups such a check makes for
    /// instructions in any order overlap one another, rather than one per
    /// line among the printing's.
    pub fn trust(&mut self, trusted: impl Fn(&Instr) -> bool) {
        let gen = self.gen;
        for k in &mut self.decoded {
            if k.instr(gen).is_some_and(|i| trusted(&i)) {
                k.meta |= Kept::TRUSTED;
            }
        }
    }

    /// The buffer of the instructions, for [`Stretch::scan_reusing`].
    pub fn into_decoded(self) -> Vec<Kept> {
        self.decoded
    }

    /// Whether the guessed decoding starts an instruction at `pc` (in the stretch).
    fn starts_at(&self, pc: u64) -> bool {
        let k = pc.wrapping_sub(self.from) / 4;
        pc >= self.from
            && (k as usize) < 64 * self.starts.len()
            && self.starts[k as usize / 64] >> (k % 64) & 1 != 0
    }
}

/// The labels and [`Split`]s of a listing from its [`Stretch`]es, joined
/// in address order: the parallel form of [`Labels`].
pub struct Stretches {
    target: Target,
    dialect: Dialect,
    labels: BTreeMap<u64, String>,
    splits: Vec<Split>,
    /// Where the first instruction at or after the next stretch starts,
    /// and the address of the one before it (none at the start).
    next: u64,
    prev: Option<u64>,
}

impl Stretches {
    /// Adds the next stretch (the one that starts where the last one
    /// ended; stretches of 8 bytes or more), and a [`Split`] at its first
    /// instruction, which it returns (none for the first stretch, and for
    /// one with no instruction start of its own).
    ///
    /// The stretch is left with the branches of the true decoding (those
    /// of the chunk that starts there: [`Stretches::chunk_labels`]) and
    /// without its words, which only the join needs.
    pub fn join(&mut self, s: &mut Stretch) -> Option<Split> {
        let mut pc = self.next;
        let stop = s.from + s.len;
        let mut split = None;
        if let (Some(prev), true) = (self.prev, pc < stop) {
            split = Some(Split { pc, prev });
            self.splits.push(Split { pc, prev });
        }
        // The true decoding, up to where it meets the guess.
        let lens = LenDecoder::new(self.target);
        let mut before = Vec::new();
        while pc < stop && !s.starts_at(pc) {
            let k = ((pc - s.from) / 4) as usize;
            let (step, branch) = step_at(&lens, &s.words, k, pc);
            if let Some(t) = branch {
                add_label(&mut self.labels, self.dialect, t);
                before.push((pc, t));
            }
            self.prev = Some(pc);
            pc += 4 * step as u64;
        }
        let met = s.branches.partition_point(|&(a, _)| a < pc);
        if pc < stop {
            for &(_, t) in &s.branches[met..] {
                add_label(&mut self.labels, self.dialect, t);
            }
            (self.next, self.prev) = (s.end, Some(s.last));
        } else {
            self.next = pc;
        }
        // (Where the decodings never meet, the guess has no branch at or
        // past `pc`: all the true ones are `before`.)
        s.branches.splice(..met, before);
        s.words = Vec::new();
        split
    }

    /// The labels the listing of the chunk from `from` to `to` (the next
    /// chunk's start), whose stretch `s` is joined, takes: its own (after
    /// `from.prev`, or all before it for the first chunk, up to the last
    /// instruction, `to.prev`) and its branches' targets. Once the
    /// stretches are joined to [`BRANCH_REACH`] past `to.pc`, no label of
    /// its own is still to come; a [`Lister`] of the chunk given these
    /// lists it as it would with all the labels, while further stretches
    /// are joined.
    pub fn chunk_labels(
        &self,
        s: &Stretch,
        from: Option<Split>,
        to: Split,
    ) -> BTreeMap<u64, String> {
        use std::ops::Bound::{Excluded, Included, Unbounded};
        let lo = from.map_or(Unbounded, |f| Excluded(f.prev));
        let mut own: BTreeMap<u64, String> = self
            .labels
            .range((lo, Included(to.prev)))
            .map(|(&a, l)| (a, l.clone()))
            .collect();
        for &(_, t) in &s.branches {
            if let std::collections::btree_map::Entry::Vacant(e) = own.entry(t) {
                e.insert(self.labels[&t].clone());
            }
        }
        own
    }

    /// The labels found so far: those at addresses below
    /// [`Stretches::reached`] `-` [`BRANCH_REACH`] are all there are.
    pub fn labels(&self) -> &BTreeMap<u64, String> {
        &self.labels
    }

    /// The address up to which the joined stretches are decoded: every
    /// branch before it has its label.
    pub fn reached(&self) -> u64 {
        self.next
    }

    /// The labels and the splits, in address order.
    pub fn finish(self) -> (BTreeMap<u64, String>, Vec<Split>) {
        (self.labels, self.splits)
    }
}

/// The second pass of a listing: the text of code given piece by piece,
/// appended to a `String` the caller writes out and clears (so a listing
/// of any size takes memory for one piece and the labels). See
/// [`disassemble_checked`] for what is printed how.
pub struct Lister<'a> {
    carry: Carry,
    opts: Options,
    labels: &'a BTreeMap<u64, String>,
    relocs: &'a BTreeMap<u64, String>,
    exact: &'a dyn Fn(&Instr, &str) -> bool,
    /// The labels at or after the next instruction, in address order (the
    /// code is listed in address order: no search per instruction).
    ahead: std::iter::Peekable<std::collections::btree_map::Range<'a, u64, String>>,
    /// Labels passed over because no instruction starts there.
    unplaced: Vec<(u64, &'a str)>,
    text: String,
    plain_text: String,
}

impl<'a> Lister<'a> {
    /// A listing of code at byte address `base` with `labels` from
    /// [`Labels`]; `relocs` and `exact` as for [`disassemble_checked`].
    pub fn new(
        target: impl Into<Target>,
        base: u64,
        opts: Options,
        labels: &'a BTreeMap<u64, String>,
        relocs: &'a BTreeMap<u64, String>,
        exact: &'a dyn Fn(&Instr, &str) -> bool,
    ) -> Self {
        Lister {
            carry: Carry::new(target.into(), base),
            opts,
            labels,
            relocs,
            exact,
            ahead: labels.range(..).peekable(),
            unplaced: Vec::new(),
            text: String::new(),
            plain_text: String::new(),
        }
    }

    /// A listing of the chunk of code from `split` on: the same text as the
    /// whole listing's from there, when given the chunk's bytes and the
    /// dword after them with [`Lister::feed`] (the last chunk: its bytes,
    /// then [`Lister::finish`], after [`Lister::unplaced_before`] with the
    /// other chunks' [`Lister::into_unplaced`]).
    pub fn at(
        target: impl Into<Target>,
        split: Split,
        opts: Options,
        labels: &'a BTreeMap<u64, String>,
        relocs: &'a BTreeMap<u64, String>,
        exact: &'a dyn Fn(&Instr, &str) -> bool,
    ) -> Self {
        use std::ops::Bound::{Excluded, Unbounded};
        Lister {
            ahead: labels.range((Excluded(split.prev), Unbounded)).peekable(),
            ..Lister::new(target, split.pc, opts, labels, relocs, exact)
        }
    }

    /// [`Lister::new`] at address 0 for the first chunk of a listing
    /// (`split` none), [`Lister::at`] for a later one.
    pub fn for_chunk(
        target: impl Into<Target>,
        split: Option<Split>,
        opts: Options,
        labels: &'a BTreeMap<u64, String>,
        relocs: &'a BTreeMap<u64, String>,
        exact: &'a dyn Fn(&Instr, &str) -> bool,
    ) -> Self {
        match split {
            None => Lister::new(target, 0, opts, labels, relocs, exact),
            Some(split) => Lister::at(target, split, opts, labels, relocs, exact),
        }
    }

    /// The labels this chunk passed over because no instruction starts
    /// there (the end of the listing defines them).
    pub fn into_unplaced(self) -> Vec<(u64, &'a str)> {
        self.unplaced
    }

    /// Puts the labels that earlier chunks passed over (in address order)
    /// before this chunk's.
    pub fn unplaced_before(&mut self, mut earlier: Vec<(u64, &'a str)>) {
        earlier.append(&mut self.unplaced);
        self.unplaced = earlier;
    }

    /// Appends the text of the next piece of the code to `out` (an
    /// instruction that continues in the next piece waits for it).
    pub fn feed(&mut self, piece: &[u8], out: &mut String) {
        self.list(piece, false, Known::default(), out);
    }

    /// [`Lister::feed`] of a piece of code some of whose instructions are
    /// decoded already (`known`, the decoding of this code, as
    /// [`Stretch::decoded`] gives it): those are not decoded again.
    pub fn feed_decoded(&mut self, piece: &[u8], known: Known<'_>, out: &mut String) {
        self.list(piece, false, known, out);
    }

    fn list(&mut self, piece: &[u8], last: bool, known: Known<'_>, out: &mut String) {
        let Lister {
            carry,
            opts,
            labels,
            relocs,
            exact,
            ahead,
            unplaced,
            text,
            plain_text,
        } = self;
        let dialect = opts.dialect;
        let lookup = |a: u64| labels.get(&a).map(|s| s.as_str());
        let mut lines = Lines {
            opts: *opts,
            relocs,
            exact: *exact,
            // (Most instructions have no label: one test each.)
            next_label: ahead.peek().map_or(u64::MAX, |(&a, _)| a),
            ahead,
            unplaced,
            text,
            plain_text,
            printer: Printer::with_labels(dialect, &lookup),
            plain: Printer::new(dialect),
            gen: carry.target.gen,
        };
        let (mut known, mut piece) = (known, piece);
        // The instructions the scan kept, listed from them; the rest (words
        // that do not decode, the end of the piece) by the general loop.
        if carry.bytes.is_empty() {
            let n = lines.known(&mut known, piece, carry.pc, out);
            carry.pc += n as u64;
            piece = &piece[n..];
        }
        carry.feed(piece, last, known, |pc, r, words, trusted, next| {
            lines.line(out, pc, r, words, trusted, next)
        });
    }

    /// Appends the end of the listing: what is left of the code, trailing
    /// bytes that are not a whole dword, and the labels not at an
    /// instruction.
    pub fn finish(mut self, out: &mut String) {
        self.list(&[], true, Known::default(), out);
        let cmt = comment(self.opts.dialect);
        let tail = std::mem::take(&mut self.carry.bytes);
        let end = self.carry.pc + tail.len() as u64;
        let mut s = String::new();
        if !tail.is_empty() {
            s.push_str("    .byte ");
            let bytes: Vec<String> = tail.iter().map(|b| format!("{b:#04x}")).collect();
            s.push_str(&bytes.join(", "));
            let _ = writeln!(s, "    {cmt} trailing bytes that are not a whole dword");
        }
        // Labels not at a printed instruction: defined relative to the end.
        let rest = self.ahead.map(|(&a, l)| (a, l.as_str()));
        for (a, l) in self.unplaced.into_iter().chain(rest) {
            if a == end {
                let _ = writeln!(s, "{l}:");
                continue;
            }
            let d = a as i64 - end as i64;
            let _ = writeln!(
                s,
                "{l} = . {} {}",
                if d < 0 { '-' } else { '+' },
                d.unsigned_abs()
            );
        }
        out.push_str(&s);
    }
}

/// What [`Lister::list`] keeps from line to line while it lists a piece.
struct Lines<'l, 'a> {
    opts: Options,
    relocs: &'l BTreeMap<u64, String>,
    exact: &'a dyn Fn(&Instr, &str) -> bool,
    ahead: &'l mut std::iter::Peekable<std::collections::btree_map::Range<'a, u64, String>>,
    /// The address of the next label (`u64::MAX`: none).
    next_label: u64,
    unplaced: &'l mut Vec<(u64, &'a str)>,
    text: &'l mut String,
    plain_text: &'l mut String,
    /// Names branch targets by the listing's labels.
    printer: Printer<'l>,
    /// Names none: what a branch's words say without labels.
    plain: Printer<'static>,
    gen: Gen,
}

impl Lines<'_, '_> {
    /// Lines with no relocation and no hex comment.
    #[inline(always)]
    fn plain_lines(&self) -> bool {
        self.relocs.is_empty() && !self.opts.hex
    }

    /// The lines of the instructions `known` holds from byte address `pc`
    /// on, at the start of `piece`, up to the first it holds as words that
    /// do not decode or that no dword follows in the piece (as the general
    /// loop needs): the bytes listed. A trusted instruction with no label
    /// on a plain line (no relocation, no hex comment) is its text: most
    /// lines are such lines, written here without [`Lines::line`]'s work.
    #[inline(always)]
    fn known(&mut self, known: &mut Known<'_>, piece: &[u8], pc: u64, out: &mut String) -> usize {
        if known.pc != pc {
            return 0;
        }
        let (gen, dialect) = (self.gen, self.opts.dialect);
        let plain_lines = self.plain_lines();
        let words = piece.len() / 4;
        let (mut k, mut at) = (0, pc);
        let mut kept = known.kept;
        while let [first, rest @ ..] = kept {
            let step = first.step();
            if k + step >= words {
                break;
            }
            let Some(i) = first.instr(gen) else { break };
            let trusted = first.meta & Kept::TRUSTED != 0;
            let start = out.len();
            let fast = trusted && plain_lines && at < self.next_label && {
                if let Some(n) = rest.first() {
                    crate::print::prefetch_rows(n.op, n.enc, gen, dialect);
                }
                out.push_str("    ");
                self.printer.pc = at;
                self.printer.write_checked(&i, out)
            };
            if fast {
                out.push('\n');
            } else {
                // (Not expressible: the general line writes it as data.)
                out.truncate(start);
                let word = |j: usize| {
                    let b = &piece[4 * (k + j)..4 * (k + j) + 4];
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
                };
                let w = [word(0), if step > 1 { word(1) } else { 0 }];
                self.line(out, at, &Ok(i), &w[..step], trusted, rest.first());
            }
            kept = rest;
            k += step;
            at += 4 * step as u64;
        }
        known.kept = kept;
        known.pc = at;
        4 * k
    }

    /// Writes the line of the instruction (or undecodable words) `r` at
    /// byte address `pc`, with the labels before it; `words` are its words,
    /// `trusted` its mark ([`Stretch::trust`]), `next` the instruction
    /// after it if known (to prefetch its rows).
    fn line(
        &mut self,
        out: &mut String,
        pc: u64,
        r: &Result<Instr, DecodeError>,
        words: &[u32],
        trusted: bool,
        next: Option<&Kept>,
    ) {
        let plain_lines = self.plain_lines();
        let Lines {
            opts,
            relocs,
            exact,
            ahead,
            next_label,
            unplaced,
            text,
            plain_text,
            printer,
            plain,
            gen,
        } = self;
        let (gen, dialect, exact) = (*gen, opts.dialect, *exact);
        let cmt = comment(dialect);
        // (The rows the next line's printing reads load while this one
        // prints: the rows of instructions in any order miss the
        // first-level cache, and the printing waited for them.)
        if let Some(n) = next {
            crate::print::prefetch_rows(n.op, n.enc, gen, dialect);
        }
        // (Each line goes straight to `out`.)
        let line = &mut *out;
        if pc >= *next_label {
            while let Some((&a, l)) = ahead.next_if(|(&a, _)| a <= pc) {
                if a == pc {
                    line.push_str(l);
                    line.push_str(":\n");
                } else {
                    unplaced.push((a, l));
                }
            }
            *next_label = ahead.peek().map_or(u64::MAX, |(&a, _)| a);
        }
        line.push_str("    ");
        let line_start = line.len();
        match r {
            Ok(i) => {
                // The text goes straight into the line (the common
                // case); a line printed as data moves it behind `.int`.
                printer.pc = pc;
                let expressible = printer.write_checked(i, line);
                // (The common case, with nothing to add: a trusted
                // instruction has no reserved bits, as its text
                // assembles back to its words.)
                if expressible && trusted && plain_lines {
                    line.push('\n');
                    return;
                }
                let (w, n) = i.words();
                let reserved = i.reserved_bits();
                let lit_at = pc + 4 * (n as u64).saturating_sub(1);
                let reloc = if n > 1 { relocs.get(&lit_at) } else { None };
                // A relocated literal is written as its symbol: only the
                // rest of the text must be expressible (the linked value
                // may equal an inline constant, which the dialect could
                // not write as a literal).
                let expressible = match (reloc, i.lit) {
                    (Some(_), Some(_)) => {
                        let mut j = *i;
                        j.lit = Some(0x1234_5678);
                        plain_text.clear();
                        printer.write_checked(&j, plain_text)
                    }
                    _ => expressible,
                };
                // A relocated literal is written as its symbol: the text
                // stands for the words once the relocation is applied.
                let raw = !expressible
                    || reloc.is_none()
                        && (reserved != 0
                            || !trusted && {
                                // Only a branch prints differently without labels.
                                if branch_target(i, pc).is_some() {
                                    plain.pc = pc;
                                    plain_text.clear();
                                    plain.write(i, plain_text);
                                    !exact(i, plain_text)
                                } else {
                                    !exact(i, &line[line_start..])
                                }
                            });
                if raw {
                    text.clear();
                    text.push_str(&line[line_start..]);
                    line.truncate(line_start);
                    push_int(line, &w[..n]);
                    pad(line, line_start, 48);
                    let _ = write!(line, "{cmt} ");
                    if opts.hex {
                        let _ = write!(line, "{pc:06x}: ");
                    }
                    line.push_str(text);
                    if reserved != 0 {
                        let _ = write!(line, " (reserved bits set: {reserved:#x})");
                    } else {
                        line.push_str(" (this text does not assemble to these words)");
                    }
                } else {
                    if let Some(r) = reloc {
                        relocate_literal(line, line_start, w[n - 1], r);
                    }
                    if opts.hex {
                        pad(line, line_start, 48);
                        let _ = write!(line, "{cmt} {pc:06x}:");
                        for x in &w[..n] {
                            let _ = write!(line, " {x:08x}");
                        }
                    }
                }
            }
            Err(e) => {
                push_int(line, words);
                pad(line, line_start, 48);
                let _ = write!(line, "{cmt} {pc:06x}: {e}");
            }
        }
        line.push('\n');
    }
}

/// Replaces the literal operand (the one that spells the value `lit`) of the
/// instruction text from `start` with `reloc`; if no operand spells it, the
/// relocation is noted in a comment instead.
fn relocate_literal(out: &mut String, start: usize, lit: u32, reloc: &str) {
    let line = out[start..].to_string();
    let Some(sp) = line.find(' ') else { return };
    let spells = |t: &str| {
        let t = t.trim();
        let t = t
            .strip_prefix("lit(")
            .and_then(|x| x.strip_suffix(')'))
            .unwrap_or(t);
        let v = match t.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => t.parse::<i64>().ok().map(|v| v as u64),
        };
        v.is_some_and(|v| v as u32 == lit && v >> 32 == 0)
    };
    let mut pos = sp + 1;
    for op in line[sp + 1..].split(", ") {
        let tok = op.split(' ').next().unwrap_or(op);
        if spells(tok) {
            out.replace_range(start + pos..start + pos + tok.len(), reloc);
            return;
        }
        pos += op.len() + 2;
    }
}

/// `.int 0x..., 0x...`.
fn push_int(out: &mut String, w: &[u32]) {
    out.push_str(".int ");
    for (k, x) in w.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{x:#010x}");
    }
}

/// Points out reserved bits the instruction text does not show.
fn note_reserved(out: &mut String, i: &Instr, lead: &str) {
    let r = i.reserved_bits();
    if r != 0 {
        let _ = write!(out, "{lead}reserved bits set: {r:#x}");
    }
}

fn pad(out: &mut String, start: usize, col: usize) {
    let len = out.len() - start;
    if len < col {
        out.extend(std::iter::repeat_n(' ', col - len));
    } else {
        out.push(' ');
    }
}

/// Disassembles one line of hex dwords (`"7e000280 3f800000"`, `"0x..."`,
/// commas allowed): the instruction's text, or an error message.
pub fn disassemble_line(
    gen: impl Into<Target>,
    line: &str,
    dialect: Dialect,
) -> Result<String, LineError> {
    let mut words = Vec::new();
    for tok in line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        let h = tok.trim_start_matches("0x").trim_start_matches("0X");
        let w = u32::from_str_radix(h, 16).map_err(|_| LineError::NotHex(tok.to_string()))?;
        if h.len() > 8 {
            return Err(LineError::TooLong(tok.to_string()));
        }
        words.push(w);
    }
    if words.is_empty() {
        return Err(LineError::NoWords);
    }
    let i = decode(gen, &words)?;
    let mut s = String::new();
    Printer::new(dialect).write(&i, &mut s);
    if i.reserved_bits() != 0 {
        s.push_str("    ");
        note_reserved(&mut s, &i, &format!("{} ", comment(dialect)));
    }
    if (i.len as usize) < words.len() {
        let _ = write!(
            s,
            "    {} {} extra word(s) after the instruction ignored",
            comment(dialect),
            words.len() - i.len as usize
        );
    }
    Ok(s)
}

/// Why [`disassemble_line`] gave no instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// A token that is not hexadecimal.
    #[error("{0:?} is not a hex dword")]
    NotHex(String),
    /// A token of more than eight hex digits.
    #[error("{0:?} is longer than a dword")]
    TooLong(String),
    /// An empty line.
    #[error("no words on this line")]
    NoWords,
    /// Words that do not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Gen;
    use std::convert::Infallible;

    /// A listing made piece by piece (pieces of odd sizes, cutting dwords
    /// and instructions) is the listing of the whole code.
    #[test]
    fn streamed_listing_equals_whole_listing() {
        for gen in crate::ALL_GENS {
            let code: Vec<u8> = crate::random::garbage_cases(gen, 3000, 11)
                .concat()
                .into_iter()
                .chain([0xaa, 0xbb]) // a partial dword at the end
                .collect();
            let syms: BTreeMap<u64, String> = [(8, "k".to_string())].into();
            let opts = Options {
                dialect: Dialect::Clrx,
                hex: true,
            };
            let none = BTreeMap::new();
            let exact = |i: &Instr, _: &str| !i.raw.is_multiple_of(3);
            let whole = disassemble_checked(gen, &code, 0x100, &syms, &none, opts, &exact);
            for piece in [1, 3, 7, 4096, 65537] {
                let mut out = String::new();
                let pieces = |f: &mut dyn FnMut(&[u8]) -> Result<(), Infallible>| {
                    code.chunks(piece).try_for_each(f)
                };
                let append = |text: &str| {
                    out.push_str(text);
                    Ok(())
                };
                let Ok(()) =
                    disassemble_pieces(gen, 0x100, &syms, &none, opts, &exact, pieces, append);
                assert_eq!(out, whole, "{gen}, pieces of {piece}");
            }
        }
    }

    /// Stretches scanned apart and joined find the labels of the scan of
    /// the whole code, and split it at instruction starts: garbage words
    /// (two-dword instructions across every border, words that do not
    /// decode, branches anywhere), stretches of any size.
    #[test]
    fn joined_stretches_find_the_labels_of_the_whole_scan() {
        for gen in crate::ALL_GENS {
            let code: Vec<u8> = crate::random::garbage_cases(gen, 2000, 7)
                .concat()
                .into_iter()
                .chain([0xaa])
                .collect();
            let syms: BTreeMap<u64, String> = [(0x108, "k".to_string())].into();
            let mut whole = Labels::new(gen, 0x100, Dialect::Llvm, syms.clone());
            whole.feed(&code);
            let whole = whole.finish();
            let starts: Vec<u64> = decode_all(gen, &code, 0x100).iter().map(|x| x.0).collect();
            for step in [8, 12, 40, 4096] {
                let mut join = Labels::new(gen, 0x100, Dialect::Llvm, syms.clone()).in_stretches();
                for from in (0..code.len()).step_by(step) {
                    let n = step.min(code.len() - from);
                    let bytes = &code[from..(from + n + 4).min(code.len())];
                    join.join(&mut Stretch::scan(gen, 0x100 + from as u64, bytes, n));
                }
                let (labels, splits) = join.finish();
                assert_eq!(labels, whole, "{gen}, stretches of {step}");
                assert!(!splits.is_empty() || step > code.len());
                for s in splits {
                    let at = starts.partition_point(|&a| a < s.pc);
                    assert_eq!(starts[at], s.pc, "{gen}, stretches of {step}");
                    assert_eq!(starts[at - 1], s.prev, "{gen}, stretches of {step}");
                }
            }
        }
    }

    /// `branch_target` tests the flag `build.rs` derives: it marks exactly
    /// the rows with a branch offset operand.
    #[test]
    fn branch_flag_marks_the_rows_with_a_label() {
        use crate::table::{flag, Ty, OPS};
        for info in OPS {
            let label = info.sig.iter().any(|o| o.ty == Ty::Label);
            assert_eq!(info.has(flag::BRANCH), label, "{}", info.name);
        }
        assert!(OPS
            .iter()
            .any(|i| i.name == "s_cbranch_vccz" && i.has(flag::BRANCH)));
    }

    #[test]
    fn reserved_bits_are_pointed_out_not_dropped() {
        // buffer_load_dword with bit 15 set: ADDR64 on GCN 1.0, reserved on
        // GCN 1.2 (llvm-mc -mcpu=fiji --disassemble prints it as if clear).
        let gcn12 = disassemble_line(Gen::Gcn12, "e0508000 80010100", Dialect::Llvm).unwrap();
        assert!(gcn12.ends_with("; reserved bits set: 0x8000"), "{gcn12}");
        let gcn10 = disassemble_line(Gen::Gcn10, "e0308000 80010100", Dialect::Llvm).unwrap();
        assert!(
            gcn10.contains("addr64") && !gcn10.contains("reserved"),
            "{gcn10}"
        );
    }
}
