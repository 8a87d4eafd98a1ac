//! Parallel assembly of a source file: worker threads encode the file's
//! instruction statements ahead of the assembler, which reads the file as
//! usual (sequentially: labels, symbols, pseudo-ops, macros, conditionals,
//! sections, fixups) and takes what the workers made instead of encoding
//! when that is certainly what it would get.
//!
//! A worker reads its block of the file (whole lines) with an assembler of
//! its own, as if the block were a source (pseudo-ops other than
//! `.gpu`/`.arch` are ignored), and encodes every instruction statement of
//! the block's lines. It keeps an encoding only when it depended on the
//! statement's text alone: no symbol, `.`, local label, section or offset
//! was read ([`Assembler::context_reads`]) and nothing is left for later (a
//! fixup).
//!
//! Most lines are *plain*: blank, a comment, or instruction statements
//! whose encodings were kept, read by the worker's assembler in its ordinary
//! state (no label, assignment, pseudo-op, macro call, block comment or
//! joined line on them, and not inside a macro body or a false conditional:
//! [`Assembler::irregular_count`] did not change). The worker gathers the
//! block's runs of plain lines with their code, diagnostics and register
//! counts. When the assembler is about to read the first line of a run
//! ([`Backend::before_file_line`]) in the ordinary state (not in a block
//! comment, a macro or repetition body or expansion, a false conditional;
//! no macro defined, `.altmacro` off), for the run's chip, in a section
//! that takes code, without a listing, it takes the whole run in one step
//! ([`Assembler::take_plain_lines`]): appends its code, reports its
//! diagnostics at their lines and columns, and goes on after its last line
//! (it passes over the run's text in the file rather than reading it again).
//! The worker cannot know the state its block starts in; the assembler
//! can, and a run read in the same state means the same.
//!
//! Other lines are read by the assembler. For their instruction statements
//! (and those of runs it cannot take whole) it takes a kept encoding of a
//! statement of the same file line with the same line text, at the same
//! place in the line, for the same chip (a block may start inside a
//! comment, a macro body or a false conditional: then the text, the
//! position or the state differs, and the statement is encoded as usual);
//! diagnostics of the encoding are reported at the same columns. So the
//! output and the diagnostics are those of the sequential assembler, byte
//! for byte.
//!
//! When the assembler reaches a block no worker has started, it takes the
//! block over (encodes its statements itself, and the workers skip it):
//! the assembler's own time goes into encoding rather than waiting, and no
//! block is encoded twice. While a worker encodes the block the assembler
//! needs, the assembler encodes the next block waiting for a worker, as a
//! worker would (`Prepared::help`): on two cores the assembler's thread
//! and one worker share the encoding, and a descheduled worker does not
//! leave the assembler idle.
//!
//! Memory stays bounded: a fixed number of blocks is read ahead of the
//! assembler (`AHEAD` per encoding thread), each released once the
//! assembler is past it.

use std::io::Read;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};

use risa_asm_core::{Assembler, Backend, LineDiag, Options, Severity, Statement};
use risa_gcn::{Dialect, Processor};

use crate::backend::arch_of;
use crate::encode::{self, Encoded};
use crate::{backend_for, Assembled};

/// The size of a block (whole lines are added up to the next line end).
pub const BLOCK: usize = 128 << 10;

/// Blocks read ahead of the assembler, per encoding thread (the workers,
/// and the assembler's when it takes over). With 2 the blocks the assembler
/// encoded while a worker was slow filled the window, and it waited for the
/// worker (fiji, 2 M lines, `-j 2`: 132 waits of 1 ms; with 4: 8-24).
const AHEAD: usize = 4;

/// A block of the source file given to a worker.
struct Block {
    idx: usize,
    /// The number of the block's first line in the file (1-based).
    first_line: u32,
    /// The number of lines the block holds.
    lines: u32,
    text: String,
}

/// An encoding a worker made (one with a fixup is not kept): what
/// [`Encoded`] holds then, in less room.
#[derive(Clone, Copy)]
struct Made {
    words: [u32; 3],
    len: u8,
    op: risa_gcn::table::OpId,
    vgprs: u32,
    sgprs: u32,
}

impl Made {
    fn of(e: &Encoded) -> Made {
        Made {
            words: e.words,
            len: e.len as u8,
            op: e.op,
            vgprs: e.vgprs,
            sgprs: e.sgprs,
        }
    }

    fn encoded(self) -> Encoded {
        Encoded {
            words: self.words,
            len: usize::from(self.len),
            pending: None,
            op: self.op,
            vgprs: self.vgprs,
            sgprs: self.sgprs,
        }
    }
}

/// One statement a worker encoded.
struct Entry {
    /// The file line.
    line: u32,
    /// The line's text in [`Encodings::text`].
    text: (u32, u32),
    /// Offsets and lengths of the statement's name, operands and whole text
    /// in the line.
    name: (u32, u32),
    args: (u32, u32),
    stmt: (u32, u32),
    chip: &'static Processor,
    encoded: Option<Made>,
    /// The encoding's diagnostics (severity, column, message), if any.
    diags: Option<Box<[(Severity, u32, String)]>>,
}

/// Who encodes a block, for the blocks in flight (slot `idx % slots`):
/// `idx << 2 | state`, state [`QUEUED`], [`STARTED`] (by a worker) or
/// [`TAKEN`] (by the assembler), and the block's lines.
struct Slot {
    claim: AtomicU64,
    first_line: AtomicU32,
    end_line: AtomicU32,
}

const QUEUED: u64 = 0;
const STARTED: u64 = 1;
const TAKEN: u64 = 2;

/// The claim slots of the blocks in flight (as many as blocks can be).
struct Slots(Vec<Slot>);

impl Slots {
    fn new(n: usize) -> Self {
        Slots(
            (0..n)
                .map(|_| Slot {
                    claim: AtomicU64::new(u64::MAX),
                    first_line: AtomicU32::new(0),
                    end_line: AtomicU32::new(0),
                })
                .collect(),
        )
    }

    fn slot(&self, idx: usize) -> &Slot {
        &self.0[idx % self.0.len()]
    }

    /// Block `idx` was read (its lines: `first_line..end_line`).
    fn queued(&self, idx: usize, first_line: u32, end_line: u32) {
        let s = self.slot(idx);
        s.first_line.store(first_line, Ordering::Relaxed);
        s.end_line.store(end_line, Ordering::Relaxed);
        s.claim.store((idx as u64) << 2 | QUEUED, Ordering::Release);
    }

    /// Claims queued block `idx` for `who`; false if it is not queued.
    fn claim(&self, idx: usize, who: u64) -> bool {
        let q = (idx as u64) << 2;
        self.slot(idx)
            .claim
            .compare_exchange(q | QUEUED, q | who, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }

    /// The lines of block `idx` if it was read.
    fn lines(&self, idx: usize) -> Option<(u32, u32)> {
        let s = self.slot(idx);
        (s.claim.load(Ordering::Acquire) >> 2 == idx as u64).then(|| {
            (
                s.first_line.load(Ordering::Relaxed),
                s.end_line.load(Ordering::Relaxed),
            )
        })
    }
}

/// The encodings of one block.
struct Encodings {
    idx: usize,
    first_line: u32,
    end_line: u32,
    entries: Vec<Entry>,
    /// The block's text.
    text: String,
    /// The block's runs of plain lines, in order, and their output.
    runs: Vec<Run>,
    bytes: Vec<u8>,
    diags: Vec<LineDiag>,
}

impl Encodings {
    /// Block `idx` (lines `first_line..end_line`) with nothing encoded.
    fn empty(idx: usize, first_line: u32, end_line: u32) -> Self {
        Encodings {
            idx,
            first_line,
            end_line,
            entries: Vec::new(),
            text: String::new(),
            runs: Vec::new(),
            bytes: Vec::new(),
            diags: Vec::new(),
        }
    }
}

/// A run of plain lines of a block (each blank, a comment, or instruction
/// statements whose encodings depended on their text alone, read in the
/// worker's ordinary state): what the assembler that reaches its first line
/// in the ordinary state for the same chip takes in one step, the same as
/// its statements one by one.
struct Run {
    chip: &'static Processor,
    /// The file lines `first..first + lines`, `text` bytes of the block's.
    first: u32,
    lines: u32,
    text: usize,
    /// Its code and diagnostics in the block's [`Encodings::bytes`] and
    /// [`Encodings::diags`].
    bytes: std::ops::Range<usize>,
    diags: std::ops::Range<usize>,
    /// The highest register counts of its statements.
    vgprs: u32,
    sgprs: u32,
    /// Its instruction statements.
    statements: u64,
}

/// What the worker saw of the line it reads: whether it is plain so far,
/// and its output.
#[derive(Default)]
struct LineSeen {
    /// The line in the block (1-based).
    line: u32,
    /// [`Assembler::irregular_count`] before it.
    irregular: u64,
    /// Where it starts in the block ([`Assembler::file_offset`]).
    text_at: usize,
    /// A statement on it was not encoded, or not kept.
    bad: bool,
    bytes_at: usize,
    diags_at: usize,
    vgprs: u32,
    sgprs: u32,
    statements: u64,
}

/// Offset and length of `part` (a slice of `line`) in `line`.
fn span(line: &str, part: &str) -> (u32, u32) {
    let off = (part.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    (off as u32, part.len() as u32)
}

/// A worker's back end: encodes instruction statements of the file's lines.
struct Worker {
    chip: Option<&'static Processor>,
    clrx: bool,
    first_line: u32,
    entries: Vec<Entry>,
    runs: Vec<Run>,
    bytes: Vec<u8>,
    diags: Vec<LineDiag>,
    seen: LineSeen,
}

impl Backend for Worker {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        let Some(chip) = self.chip else {
            self.seen.bad = true;
            return;
        };
        let Some((line_no, at, line)) = asm.file_line_at() else {
            // (A line the assembler rebuilt, which is not plain: its
            // statements are left to the assembler.)
            self.seen.bad |= asm.file_line().is_some();
            return;
        };
        let (name, args, stmt) = (
            span(line, st.name),
            span(line, st.args),
            span(line, st.text),
        );
        let text = (at as u32, line.len() as u32);
        let reads = asm.context_reads();
        let n_diags = asm.diagnostics().len();
        let e = encode::assemble(asm, chip.target(), st, 0, self.clrx);
        let mut keep =
            asm.context_reads() == reads && e.as_ref().is_none_or(|e| e.pending.is_none());
        let mut diags = Vec::new();
        for d in &asm.diagnostics()[n_diags..] {
            keep &= d.notes.is_empty();
            diags.push((d.severity, d.col, d.message.clone()));
        }
        if !keep {
            self.seen.bad = true;
            return;
        }
        let file_line = line_no + self.first_line - 1;
        let seen = &mut self.seen;
        seen.statements += 1;
        if let Some(e) = &e {
            self.bytes.extend_from_slice(e.bytes().as_slice());
            seen.vgprs = seen.vgprs.max(e.vgprs);
            seen.sgprs = seen.sgprs.max(e.sgprs);
        }
        if !diags.is_empty() {
            // (Looked up again: encoding borrowed the assembler.)
            let source_line = asm.file_line().map_or("", |(_, l)| l);
            for (severity, col, message) in &diags {
                self.diags.push(LineDiag {
                    line: file_line,
                    col: *col,
                    severity: *severity,
                    message: message.clone(),
                    source_line: source_line.to_string(),
                });
            }
        }
        self.entries.push(Entry {
            line: file_line,
            text,
            name,
            args,
            stmt,
            chip,
            encoded: e.as_ref().map(Made::of),
            diags: (!diags.is_empty()).then(|| diags.into_boxed_slice()),
        });
    }

    fn directive(&mut self, _asm: &mut Assembler, name: &str, st: &Statement<'_>) -> bool {
        // The chip as the assembler sets it; every other pseudo-op is left
        // to the assembler (its effects on encodings are the context reads).
        if name == ".gpu" || name == ".arch" {
            self.chip = arch_of(st.args.trim()).ok();
        }
        true
    }

    fn before_file_line(&mut self, asm: &mut Assembler, line: u32) {
        // The lines since the last call (one, but for joined lines) are
        // plain when nothing irregular was read and every statement kept.
        // (Called for every line: `seen` is updated in place.)
        let irregular = asm.irregular_count();
        let text_at = asm.file_offset();
        let seen = &mut self.seen;
        let lines = line.saturating_sub(seen.line);
        match self.chip {
            Some(chip) if !seen.bad && irregular == seen.irregular && lines > 0 => {
                let first = seen.line + self.first_line - 1;
                let text = text_at.saturating_sub(seen.text_at);
                match self.runs.last_mut() {
                    Some(r) if r.first + r.lines == first => {
                        r.lines += lines;
                        r.text += text;
                        r.bytes.end = self.bytes.len();
                        r.diags.end = self.diags.len();
                        r.vgprs = r.vgprs.max(seen.vgprs);
                        r.sgprs = r.sgprs.max(seen.sgprs);
                        r.statements += seen.statements;
                    }
                    _ => self.runs.push(Run {
                        chip,
                        first,
                        lines,
                        text,
                        bytes: seen.bytes_at..self.bytes.len(),
                        diags: seen.diags_at..self.diags.len(),
                        vgprs: seen.vgprs,
                        sgprs: seen.sgprs,
                        statements: seen.statements,
                    }),
                }
            }
            _ => {
                self.bytes.truncate(seen.bytes_at);
                self.diags.truncate(seen.diags_at);
            }
        }
        *seen = LineSeen {
            line,
            irregular,
            text_at,
            bytes_at: self.bytes.len(),
            diags_at: self.diags.len(),
            ..LineSeen::default()
        };
    }
}

/// Encodes the instruction statements of `b` (for `chip` at its start).
fn encode_block(
    b: Block,
    chip: Option<&'static Processor>,
    clrx: bool,
    opts: &Options,
) -> Encodings {
    let opts = Options {
        max_lines: u64::MAX,
        max_diagnostics: usize::MAX,
        ..opts.clone()
    };
    let mut w = Worker {
        chip,
        clrx,
        first_line: b.first_line,
        // (Sized for the common block, one instruction a line: growing them
        // cost more than filling them.)
        entries: Vec::with_capacity(b.lines as usize),
        runs: Vec::new(),
        bytes: Vec::with_capacity(b.text.len() / 4),
        diags: Vec::new(),
        seen: LineSeen {
            line: 1,
            ..LineSeen::default()
        },
    };
    let mut asm = Assembler::new(opts);
    // (Called before every line: it ends the line before.)
    asm.call_before_file_line(1);
    asm.run("", &b.text, &mut w);
    // (The statements of plain lines have entries too: the assembler takes
    // them one by one when it cannot take their run whole.)
    Encodings {
        idx: b.idx,
        first_line: b.first_line,
        end_line: b.first_line + b.lines,
        entries: w.entries,
        text: b.text,
        runs: w.runs,
        bytes: w.bytes,
        diags: w.diags,
    }
}

/// What the assembler takes worker encodings from (kept by the back end).
pub(crate) struct Prepared {
    results: Receiver<Encodings>,
    /// One token per block released: lets the reader read another.
    tokens: SyncSender<()>,
    slots: Arc<Slots>,
    /// Whether the assembler takes blocks no worker has started, and
    /// encodes later blocks itself while it waits for a worker's.
    take_over: bool,
    /// The blocks read for the workers (the assembler helps with them).
    blocks: Arc<Mutex<Receiver<Block>>>,
    /// What the workers encode with.
    start: Start,
    /// Blocks that arrived before their turn.
    waiting: Vec<Encodings>,
    cur: Option<Encodings>,
    next_idx: usize,
    /// Entries of `cur` before this one are behind the assembler.
    at: usize,
    /// Runs of `cur` before this one are behind the assembler.
    run_at: usize,
    done: bool,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("next_idx", &self.next_idx)
            .finish()
    }
}

/// A statement's encoding made by a worker.
pub(crate) struct Hit {
    pub encoded: Option<Encoded>,
    pub diags: Vec<(Severity, u32, String)>,
}

impl Prepared {
    /// The next block in file order (None: there is none): the workers'
    /// encodings, or none when no worker had started it (then it is the
    /// assembler's: the workers skip it).
    fn next_block(&mut self) -> Option<Encodings> {
        let want = self.next_idx;
        loop {
            while let Ok(e) = self.results.try_recv() {
                self.waiting.push(e);
            }
            if let Some(k) = self.waiting.iter().position(|e| e.idx == want) {
                self.next_idx += 1;
                return Some(self.waiting.swap_remove(k));
            }
            if let Some((first_line, end_line)) = self.slots.lines(want) {
                if self.take_over && self.slots.claim(want, TAKEN) {
                    self.next_idx += 1;
                    return Some(Encodings::empty(want, first_line, end_line));
                }
            }
            if self.take_over && self.help() {
                continue;
            }
            // (Looks again at the claim now and then: the block may be
            // read, and not yet started, while waiting.)
            match self
                .results
                .recv_timeout(std::time::Duration::from_millis(1))
            {
                Ok(e) => self.waiting.push(e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// While a worker encodes the block the assembler needs, the assembler
    /// encodes the next block waiting for a worker, as a worker would (so
    /// it does not wait idle, nor for a worker that was descheduled): false
    /// when there is none. (The block it needs, if it were waiting, has
    /// been taken over just before; if it was read since, it is encoded
    /// here, as a worker would.)
    fn help(&mut self) -> bool {
        let b = match self.blocks.try_lock() {
            Ok(r) => r.try_recv(),
            // (A worker holds it while it waits for a block: none is read.)
            Err(_) => return false,
        };
        let Ok(b) = b else { return false };
        if self.slots.claim(b.idx, STARTED) {
            let e = self.start.encode(b);
            self.waiting.push(e);
        }
        true
    }

    /// Moves to the block holding file line `line_no` (releasing those
    /// before it): false after the last.
    fn seek(&mut self, line_no: u32) -> bool {
        if self.done {
            return false;
        }
        while self.cur.as_ref().is_none_or(|c| line_no >= c.end_line) {
            if self.cur.take().is_some() {
                let _ = self.tokens.send(());
            }
            match self.next_block() {
                Some(b) => self.cur = Some(b),
                None => {
                    self.done = true;
                    return false;
                }
            }
            self.at = 0;
            self.run_at = 0;
        }
        true
    }

    /// Before file line `line`: when a run of plain lines made for `chip`
    /// starts there (and no listing is kept), the assembler takes the whole
    /// run ([`Assembler::take_plain_lines`]): then its register counts and
    /// number of statements. Asks to be called again at the next run.
    pub(crate) fn before_line(
        &mut self,
        asm: &mut Assembler,
        line: u32,
        chip: Option<&'static Processor>,
        listing: bool,
    ) -> Option<(u32, u32, u64)> {
        if !self.seek(line) {
            asm.call_before_file_line(u32::MAX);
            return None;
        }
        let cur = self.cur.as_ref()?;
        while cur.runs.get(self.run_at).is_some_and(|r| r.first < line) {
            self.run_at += 1;
        }
        let next = |k: usize| cur.runs.get(k).map_or(cur.end_line, |r| r.first);
        let Some(r) = cur.runs.get(self.run_at).filter(|r| r.first == line) else {
            asm.call_before_file_line(next(self.run_at));
            return None;
        };
        asm.call_before_file_line(next(self.run_at + 1));
        if listing || !chip.is_some_and(|c| std::ptr::eq(c, r.chip)) {
            return None;
        }
        let taken = asm.take_plain_lines(
            line,
            r.lines,
            r.text,
            &cur.bytes[r.bytes.clone()],
            &cur.diags[r.diags.clone()],
        );
        let counts = (r.vgprs, r.sgprs, r.statements);
        self.run_at += 1;
        taken.then_some(counts)
    }

    /// The worker's encoding of statement `st` of the current line, if
    /// there is one made in the same place for `chip`.
    pub(crate) fn take(
        &mut self,
        asm: &Assembler,
        st: &Statement<'_>,
        chip: &'static Processor,
    ) -> Option<Hit> {
        let (line_no, line) = asm.file_line()?;
        if !self.seek(line_no) {
            return None;
        }
        let cur = self.cur.as_mut()?;
        if line_no < cur.first_line {
            return None;
        }
        while cur.entries.get(self.at).is_some_and(|e| e.line < line_no) {
            self.at += 1;
        }
        let (name, args, stmt) = (
            span(line, st.name),
            span(line, st.args),
            span(line, st.text),
        );
        let mut k = self.at;
        while let Some(e) = cur.entries.get_mut(k) {
            if e.line != line_no {
                break;
            }
            let (o, n) = (e.text.0 as usize, e.text.1 as usize);
            if e.name == name
                && e.args == args
                && e.stmt == stmt
                && std::ptr::eq(e.chip, chip)
                && cur.text.get(o..o + n) == Some(line)
            {
                self.at = k + 1;
                return Some(Hit {
                    encoded: e.encoded.map(Made::encoded),
                    diags: e.diags.take().map(Vec::from).unwrap_or_default(),
                });
            }
            k += 1;
        }
        None
    }
}

/// Reads `file` in blocks of whole lines (about `block` bytes, never
/// ending inside a continued line) for the workers, one per token.
fn read_blocks(
    mut file: std::fs::File,
    block: usize,
    tokens: Receiver<()>,
    work: SyncSender<Block>,
    slots: &Slots,
) {
    let mut carry: Vec<u8> = Vec::new();
    let mut first_line = 1u32;
    let mut eof = false;
    for idx in 0.. {
        if tokens.recv().is_err() {
            return;
        }
        // Fill up to `block` bytes, then cut after the last line end (read
        // on while there is none).
        let mut want = block;
        let cut = loop {
            while !eof && carry.len() < want {
                // (Straight into `carry`: fewer than `need` bytes is the end.)
                let need = want - carry.len();
                // (Room first: into a full vector `read_to_end` reads a few
                // bytes at a time as it grows it.)
                carry.reserve(need);
                match (&mut file).take(need as u64).read_to_end(&mut carry) {
                    Ok(n) => eof = n < need,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    // (The assembler reads the file on its own and reports
                    // the error where it meets it; the workers only stop
                    // encoding ahead, so nothing is lost or made up.)
                    Err(_) => eof = true,
                }
            }
            if eof {
                break carry.len();
            }
            match last_line_end(&carry) {
                Some(cut) => break cut,
                None => want = carry.len() + block,
            }
        };
        if carry.is_empty() {
            return;
        }
        let rest = carry.split_off(cut);
        let bytes = std::mem::replace(&mut carry, rest);
        let lines = memchr::memchr_iter(b'\n', &bytes).count() as u32;
        let Ok(text) = String::from_utf8(bytes) else {
            // The assembler reports it; nothing more to encode.
            return;
        };
        let b = Block {
            idx,
            first_line,
            lines: lines + u32::from(!text.ends_with('\n')),
            text,
        };
        first_line += lines;
        slots.queued(idx, b.first_line, b.first_line + b.lines);
        if work.send(b).is_err() {
            return;
        }
    }
}

/// Where the text after the last line end that does not continue a line
/// (`\` before it) starts.
fn last_line_end(b: &[u8]) -> Option<usize> {
    let mut end = b.len();
    while let Some(p) = memchr::memrchr(b'\n', &b[..end]) {
        let mut e = p;
        while e > 0 && b[e - 1] == b'\r' {
            e -= 1;
        }
        if e == 0 || b[e - 1] != b'\\' {
            return Some(p + 1);
        }
        end = p;
    }
    None
}

/// How blocks are encoded: the chip and options the file starts with.
#[derive(Clone)]
struct Start {
    chip: Option<&'static Processor>,
    clrx: bool,
    opts: Arc<Options>,
}

impl Start {
    /// [`encode_block`]; should encoding panic, the block comes back empty:
    /// the assembler encodes it, as it would without workers, instead of
    /// waiting.
    fn encode(&self, b: Block) -> Encodings {
        let (idx, first_line, end_line) = (b.idx, b.first_line, b.first_line + b.lines);
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            encode_block(b, self.chip, self.clrx, &self.opts)
        }))
        .unwrap_or_else(|_| Encodings::empty(idx, first_line, end_line))
    }
}

/// Workers take blocks and send their encodings.
fn work(blocks: &Mutex<Receiver<Block>>, slots: &Slots, out: Sender<Encodings>, start: &Start) {
    loop {
        let b = match blocks.lock() {
            Ok(r) => r.recv(),
            Err(_) => return,
        };
        let Ok(b) = b else { return };
        if !slots.claim(b.idx, STARTED) {
            // The assembler took it.
            continue;
        }
        if out.send(start.encode(b)).is_err() {
            return;
        }
    }
}

/// How [`assemble_file_in`] shares the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threads {
    /// Worker threads encoding ahead (0: the file is assembled sequentially).
    pub workers: usize,
    /// The size of a block of the file (whole lines are added up to the
    /// next line end).
    pub block: usize,
    /// Whether the assembler takes over the blocks no worker has started
    /// (tests also check the workers alone, whose encodings are hardly used
    /// on small sources otherwise).
    pub take_over: bool,
}

impl Threads {
    /// `workers` workers, blocks of [`BLOCK`] bytes, taking over.
    pub fn new(workers: usize) -> Self {
        Threads {
            workers,
            block: BLOCK,
            take_over: true,
        }
    }
}

/// [`crate::assemble_reader_in`] of the file at `path`, with worker
/// threads encoding ahead (see the module documentation). The result is
/// the sequential assembler's. A path that is not a regular file (a pipe)
/// is assembled sequentially: it cannot be read twice.
pub fn assemble_file_in(
    chip: Option<&'static Processor>,
    path: &std::path::Path,
    opts: Options,
    listing: bool,
    dialect: Dialect,
    threads: Threads,
) -> std::io::Result<Assembled> {
    let Threads {
        workers,
        block,
        take_over,
    } = threads;
    let name = path.display().to_string();
    let main = std::fs::File::open(path)?;
    // Only a regular file can be read twice (a pipe, `<(...)`, would be
    // shared between the two readers).
    let regular = main.metadata().is_ok_and(|m| m.is_file());
    let reader = std::io::BufReader::with_capacity(1 << 16, main);
    let mut backend = backend_for(chip, listing, dialect);
    if workers == 0 || !regular {
        let output = Assembler::new(opts).assemble_file(&name, reader, &mut backend);
        return Ok(Assembled { output, backend });
    }
    let side = std::fs::File::open(path)?;
    let start = Start {
        chip,
        clrx: dialect == Dialect::Clrx,
        opts: Arc::new(opts.clone()),
    };
    // (The assembler's thread encodes blocks too when it takes over.)
    let encoders = workers + usize::from(take_over);
    let in_flight = AHEAD * encoders + 1;
    let (token_tx, token_rx) = sync_channel(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    // (A block's slot is reused only after its token came back.)
    let slots = Arc::new(Slots::new(in_flight + 1));
    let (work_tx, work_rx) = sync_channel(encoders);
    let (out_tx, out_rx) = channel();
    // (Owned by the workers and the assembler: when all are done, the
    // reader's sends fail.)
    let work_rx = Arc::new(Mutex::new(work_rx));
    let output = std::thread::scope(|s| {
        let reader_slots = slots.clone();
        s.spawn(move || read_blocks(side, block.max(1), token_rx, work_tx, &reader_slots));
        for _ in 0..workers {
            let (out, work_rx, start) = (out_tx.clone(), work_rx.clone(), start.clone());
            let slots = slots.clone();
            s.spawn(move || work(&work_rx, &slots, out, &start));
        }
        drop(out_tx);
        backend.prepared = Some(Box::new(Prepared {
            results: out_rx,
            tokens: token_tx,
            slots,
            take_over,
            blocks: work_rx,
            start,
            waiting: Vec::new(),
            cur: None,
            next_idx: 0,
            at: 0,
            run_at: 0,
            done: false,
        }));
        let mut asm = Assembler::new(opts);
        asm.call_before_file_line(1);
        let output = asm.assemble_file(&name, reader, &mut backend);
        // (Lets the reader and the workers end.)
        backend.prepared = None;
        output
    });
    Ok(Assembled { output, backend })
}
