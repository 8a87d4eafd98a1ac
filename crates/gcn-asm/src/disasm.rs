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
use risa_gcn::layout::Enc;
use risa_gcn::listing::{self, disassemble_checked};
use risa_gcn::table::OPS;
use risa_gcn::{random, Dialect, Instr, Processor};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};

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
    write: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let check = Exactness::new(chip, opts.dialect);
    let none = BTreeMap::new();
    let exact = |i: &Instr, t: &str| check.is_exact(i, t);
    listing::disassemble_pieces(chip, 0, &none, &none, opts, &exact, pass, write)
}

/// The bytes of code per chunk of [`disassemble_parallel`]: its text (about
/// twelve times as much) is held until the chunks before it are written,
/// and its decoded instructions (about five times as much) until it is
/// listed, which waits for the stretches [`listing::BRANCH_REACH`] past
/// it: half the chunk of a listing that decodes twice, so that the text
/// and instructions held take no more memory than its text did.
const CHUNK: u64 = 1 << 15;

/// Chunks listed at a time by [`disassemble_parallel`] (per thread): the
/// text in memory at once is about `12 * CHUNK * CHUNKS_PER_THREAD *
/// threads` bytes (and the instructions of these chunks and of those
/// [`listing::BRANCH_REACH`] past them).
const CHUNKS_PER_THREAD: usize = 2;

/// [`disassemble_pieces`] of `len` bytes of raw code read with `read_at(offset,
/// buf)` (which fills `buf` from byte `offset`), listed on all cores: the
/// first pass scans stretches of about `CHUNK` bytes in parallel (decoding
/// their instructions, [`listing::Stretch`]) and joins them in order
/// ([`listing::Stretches`]), which finds the labels and where each chunk
/// starts; a chunk is listed from its stretch's instructions (not decoded
/// again) by the first thread free as soon as no branch still to scan can
/// reach it ([`listing::BRANCH_REACH`]), a few chunks per thread ahead of
/// the text written, while the next stretches are scanned, and its text
/// goes to `write` in order as soon as the chunks before it are written. The
/// text is the same as [`disassemble_pieces`]'s, byte for byte; the memory
/// taken is the labels and a few chunks' instructions and text, whatever `len`.
pub fn disassemble_parallel<E: Send>(
    chip: &'static Processor,
    opts: listing::Options,
    len: u64,
    read_at: &ReadAt<'_, E>,
    write: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    parallel_in_chunks(chip, opts, len, CHUNK, read_at, write)
}

/// [`disassemble_parallel`] with chunks of about `chunk` bytes.
fn parallel_in_chunks<E: Send>(
    chip: &'static Processor,
    opts: listing::Options,
    len: u64,
    chunk: u64,
    read_at: &ReadAt<'_, E>,
    mut write: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let none = BTreeMap::new();
    // Stretches of whole dwords (8 bytes at least, see `Stretches::join`).
    let step = chunk.max(8) / 4 * 4;
    let stretches = len.div_ceil(step) as usize;
    let check = Exactness::new(chip, opts.dialect);
    let exact = |i: &Instr, t: &str| check.is_exact(i, t);
    // The buffers of the stretches listed and of the texts written, for
    // the next ones (see `Stretch::scan_reusing`).
    let (spare_decoded, spare_texts) = (Spares::default(), Spares::default());
    let scan = |k: usize| {
        let from = k as u64 * step;
        let n = step.min(len - from);
        let bytes = (n + 4).min(len - from) as usize;
        with_code(read_at, from, bytes, |code| {
            let spare = spare_decoded.take();
            let mut s = listing::Stretch::scan_reusing(chip, from, code, n as usize, spare);
            // (What the learned bits admit now they admit when listed.)
            s.trust(|i| check.admitted(i));
            s
        })
    };
    // A chunk but the last: its bytes and the next dword (which tells a
    // one-dword instruction at its end from the first of two).
    let list = |c: Chunk| {
        let bytes = (c.to.pc + 4).min(len).saturating_sub(c.from.pc) as usize;
        with_code(read_at, c.from.pc, bytes, |code| {
            let split = (!c.first).then_some(c.from);
            let mut l = listing::Lister::for_chunk(chip, split, opts, &c.labels, &none, &exact);
            let mut text: String = spare_texts.take();
            text.reserve(code.len() * 12);
            l.feed_decoded(code, c.stretch.decoded(), &mut text);
            let u = l.into_unplaced().into_iter().map(|(a, _)| a).collect();
            spare_decoded.give(c.stretch.into_decoded());
            (text, u)
        })
    };
    let mut write_text = |mut text: String| {
        let r = write(&text);
        text.clear();
        spare_texts.give(text);
        r
    };
    let mut joined = listing::Labels::new(chip, 0, opts.dialect, BTreeMap::new()).in_stretches();
    let reach = listing::BRANCH_REACH.div_ceil(step) as usize + 1;
    let pipe = Pipeline {
        count: stretches,
        window: CHUNKS_PER_THREAD * rayon::current_num_threads().max(1),
        reach,
        scan: &scan,
        list: &list,
    };
    let (last, listed, unplaced) = pipe.run(&mut joined, &mut write_text)?;
    // The last chunk, to the end of the code (the first one if there is
    // no code), with all the labels: those earlier chunks passed over go
    // before its own.
    let (labels, _) = joined.finish();
    let start = last
        .as_ref()
        .map_or(listing::Split { pc: 0, prev: 0 }, |c| c.0);
    let mut code = vec![0u8; len.saturating_sub(start.pc) as usize];
    read_at(start.pc, &mut code)?;
    let split = (listed != 0).then_some(start);
    let mut l = listing::Lister::for_chunk(chip, split, opts, &labels, &none, &exact);
    l.unplaced_before(
        unplaced
            .into_iter()
            .map(|a| (a, labels[&a].as_str()))
            .collect(),
    );
    let mut text = String::with_capacity(code.len() * 12);
    l.feed_decoded(
        &code,
        last.as_ref().map_or(Default::default(), |c| c.1.decoded()),
        &mut text,
    );
    l.finish(&mut text);
    write(&text)
}

/// A chunk of [`parallel_in_chunks`] ready to list: the first or not,
/// where it starts and where the next one does, its stretch (joined) and
/// the labels it takes ([`listing::Stretches::chunk_labels`]: its own,
/// so that it is listed while later stretches add labels to the rest).
struct Chunk {
    first: bool,
    from: listing::Split,
    to: listing::Split,
    stretch: listing::Stretch,
    labels: BTreeMap<u64, String>,
}

/// A chunk's text and the addresses of the labels it passed over.
type ChunkText = (String, Vec<u64>);

/// The work of [`parallel_in_chunks`] but the last chunk: `count`
/// stretches to `scan`, their chunks to `list`, at most `window` chunks
/// handed out and not written, and `reach` stretches past a chunk's end
/// to join before no branch still to scan can reach it.
struct Pipeline<'p, E> {
    count: usize,
    window: usize,
    reach: usize,
    scan: &'p (dyn Fn(usize) -> Result<listing::Stretch, E> + Sync),
    list: &'p (dyn Fn(Chunk) -> Result<ChunkText, E> + Sync),
}

/// A task of a [`Pipeline`] for the pool: scan a stretch, or list a chunk
/// (by number).
enum Task {
    Scan(usize),
    List(usize, Chunk),
}

/// What the threads of a [`Pipeline`] share: the stretches that may be
/// scanned (up to `scan_to`; `scanning` is the next), the chunks ready to
/// list, the stretches scanned and chunks listed that the calling thread
/// has not taken yet (a panic as such), and whether to stop.
struct Queue<E> {
    scanning: usize,
    scan_to: usize,
    ready: VecDeque<(usize, Chunk)>,
    scanned: HashMap<usize, Scanned<E>>,
    listed: HashMap<usize, Listed<E>>,
    stop: bool,
}

/// A stretch a task scanned, and a chunk's text a task listed (a panic as
/// such, for the calling thread to resume).
type Scanned<E> = std::thread::Result<Result<listing::Stretch, E>>;
type Listed<E> = std::thread::Result<Result<ChunkText, E>>;

impl<E> Queue<E> {
    /// The next task: a chunk to list first (the text to write next
    /// waits for it, and it frees its stretch), else a stretch to scan.
    fn take(&mut self) -> Option<Task> {
        self.take_list().or_else(|| self.take_scan())
    }

    /// The next task for the thread that also joins and writes: a stretch
    /// to scan first (a scan is a fraction of a listing: the thread is
    /// back to hand out chunks sooner), else a chunk to list.
    fn take_short(&mut self) -> Option<Task> {
        self.take_scan().or_else(|| self.take_list())
    }

    /// A chunk ready to list, taken.
    fn take_list(&mut self) -> Option<Task> {
        let (c, chunk) = self.ready.pop_front()?;
        Some(Task::List(c, chunk))
    }

    /// The next stretch that may be scanned, taken.
    fn take_scan(&mut self) -> Option<Task> {
        (self.scanning < self.scan_to).then(|| {
            self.scanning += 1;
            Task::Scan(self.scanning - 1)
        })
    }

    /// The stretches scanned and the chunks listed that come next in
    /// order (stretch `scanned` and chunk `written` on), taken out.
    fn next_results(
        &mut self,
        scanned: usize,
        written: usize,
    ) -> (Vec<Scanned<E>>, Vec<Listed<E>>) {
        let mut s = Vec::new();
        while let Some(r) = self.scanned.remove(&(scanned + s.len())) {
            s.push(r);
        }
        let mut t = Vec::new();
        while let Some(r) = self.listed.remove(&(written + t.len())) {
            t.push(r);
        }
        (s, t)
    }
}

/// The calling thread's side of a [`Pipeline`]: the joined stretches
/// whose chunks are not handed out yet (each with where its chunk starts),
/// how many stretches were joined, chunks handed out and chunks written,
/// and the labels the written chunks passed over.
#[derive(Default)]
struct Order {
    pending: VecDeque<(listing::Split, listing::Stretch)>,
    scanned: usize,
    handed: usize,
    written: usize,
    unplaced: Vec<u64>,
}

impl Order {
    /// The chunks to list now: each joined stretch but the last (the next
    /// one's start ends its chunk), at most `window` chunks ahead of the
    /// next to write, out of the reach of every branch still to scan (with
    /// `all` stretches joined, none is).
    fn hand_out(
        &mut self,
        window: usize,
        all: bool,
        joined: &listing::Stretches,
    ) -> Vec<(usize, Chunk)> {
        let mut new = Vec::new();
        while self.pending.len() >= 2
            && self.handed < self.written + window
            && (all || self.pending[1].0.pc + listing::BRANCH_REACH <= joined.reached())
        {
            let Some((from, stretch)) = self.pending.pop_front() else {
                break;
            };
            let to = self.pending[0].0;
            let first = self.handed == 0;
            let labels = joined.chunk_labels(&stretch, (!first).then_some(from), to);
            let chunk = Chunk {
                first,
                from,
                to,
                stretch,
                labels,
            };
            new.push((self.handed, chunk));
            self.handed += 1;
        }
        new
    }

    /// Joins the stretches scanned next, in order.
    fn join<E>(
        &mut self,
        joined: &mut listing::Stretches,
        stretches: Vec<Scanned<E>>,
    ) -> Result<(), E> {
        for r in stretches {
            let mut s = r.unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            match joined.join(&mut s) {
                Some(split) => self.pending.push_back((split, s)),
                None if self.scanned == 0 => {
                    self.pending
                        .push_back((listing::Split { pc: 0, prev: 0 }, s));
                }
                // (A last stretch of less than 8 bytes, which has no start
                // of its own: the last chunk decodes its instructions again.)
                None => {}
            }
            self.scanned += 1;
        }
        Ok(())
    }

    /// Writes the text of the chunks listed next, in order.
    fn write<E>(
        &mut self,
        texts: Vec<Listed<E>>,
        write: &mut impl FnMut(String) -> Result<(), E>,
    ) -> Result<(), E> {
        for r in texts {
            let (text, u) = r.unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            write(text)?;
            self.unplaced.extend(u);
            self.written += 1;
        }
        Ok(())
    }
}

impl<E: Send> Pipeline<'_, E> {
    /// Scans the stretches and lists their chunks on the pool's threads,
    /// each taking the next task as soon as it is done, while this thread
    /// joins the stretches in order into `joined`, hands out each chunk as
    /// soon as no branch still to scan can reach it, and writes the
    /// chunks' text in order (so the cores stay busy while text is
    /// written). Stretches are scanned up to `reach` past the `window`
    /// chunks after the next to write, which bounds the instructions and
    /// text held. Returns the last chunk (its start and stretch; none
    /// without code), how many chunks came before it and the labels they
    /// passed over, in order; the first error (of a task or of `write`)
    /// ends it.
    #[allow(clippy::type_complexity)]
    fn run(
        &self,
        joined: &mut listing::Stretches,
        write: &mut impl FnMut(String) -> Result<(), E>,
    ) -> Result<(Option<(listing::Split, listing::Stretch)>, usize, Vec<u64>), E> {
        let queue = Mutex::new(Queue {
            scanning: 0,
            scan_to: 0,
            ready: VecDeque::new(),
            scanned: HashMap::new(),
            listed: HashMap::new(),
            stop: false,
        });
        // (Tasks to take, for the pool; tasks done, for this thread.)
        let (work, done) = (Condvar::new(), Condvar::new());
        let lock = || queue.lock().unwrap_or_else(|e| e.into_inner());
        let perform = |task| {
            // (A panic goes to this thread, which would wait for the task.)
            use std::panic::{catch_unwind, AssertUnwindSafe};
            match task {
                Task::Scan(k) => {
                    let r = catch_unwind(AssertUnwindSafe(|| (self.scan)(k)));
                    lock().scanned.insert(k, r);
                }
                Task::List(c, chunk) => {
                    let r = catch_unwind(AssertUnwindSafe(|| (self.list)(chunk)));
                    lock().listed.insert(c, r);
                }
            }
            done.notify_one();
        };
        let worker = || loop {
            let task = {
                let mut q = lock();
                loop {
                    if q.stop {
                        return;
                    }
                    if let Some(t) = q.take() {
                        break t;
                    }
                    q = work.wait(q).unwrap_or_else(|e| e.into_inner());
                }
            };
            perform(task);
        };
        // This thread takes tasks too when it would wait, with one thread
        // of the pool fewer: as many threads as cores, none of them woken
        // only to join and write (a thread more than cores took a context
        // switch or more per task). On a thread of the pool, waiting for
        // the pool could wait forever: this thread does all the tasks.
        let helpers = match rayon::current_thread_index() {
            Some(_) => 0,
            None => rayon::current_num_threads().max(1) - 1,
        };
        rayon::in_place_scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|_| worker());
            }
            /// Stops the pool's threads however this thread leaves.
            struct Stop<'q, E>(&'q Mutex<Queue<E>>, &'q Condvar);
            impl<E> Drop for Stop<'_, E> {
                fn drop(&mut self) {
                    self.0.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
                    self.1.notify_all();
                }
            }
            let _stop = Stop(&queue, &work);
            let mut order = Order::default();
            loop {
                let all = order.scanned == self.count;
                let new = order.hand_out(self.window, all, joined);
                if all && order.written == order.handed && order.pending.len() <= 1 {
                    return Ok((order.pending.pop_front(), order.handed, order.unplaced));
                }
                let (stretches, texts) = {
                    let mut q = lock();
                    let scan_to = (order.written + self.window + self.reach).min(self.count);
                    if !new.is_empty() || scan_to > q.scan_to {
                        q.ready.extend(new);
                        q.scan_to = scan_to;
                        work.notify_all();
                    }
                    loop {
                        let (s, t) = q.next_results(order.scanned, order.written);
                        if !s.is_empty() || !t.is_empty() {
                            break (s, t);
                        }
                        match q.take_short() {
                            Some(task) => {
                                drop(q);
                                perform(task);
                                q = lock();
                            }
                            None => q = done.wait(q).unwrap_or_else(|e| e.into_inner()),
                        }
                    }
                };
                order.join(joined, stretches)?;
                order.write(texts, write)?;
            }
        })
    }
}

/// Buffers done with, to be taken again rather than allocated (their
/// users clear them): there are never more of them than were in use at
/// once.
struct Spares<T>(Mutex<Vec<T>>);

impl<T> Default for Spares<T> {
    fn default() -> Self {
        Spares(Mutex::new(Vec::new()))
    }
}

impl<T: Default> Spares<T> {
    /// A buffer given back, or a new one.
    fn take(&self) -> T {
        self.lock().pop().unwrap_or_default()
    }

    fn give(&self, t: T) {
        self.lock().push(t);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<T>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `f` of the `n` bytes of code at byte `from`, read into this thread's
/// scratch buffer: the buffer is reused from chunk to chunk (zeroing a
/// new one for every chunk, in both passes, took 1 % of a listing).
fn with_code<E, T>(
    read_at: &ReadAt<'_, E>,
    from: u64,
    n: usize,
    f: impl FnOnce(&[u8]) -> T,
) -> Result<T, E> {
    thread_local!(static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) });
    // (Taken out while in use: a nested call would find it empty, not borrowed.)
    let mut buf = SCRATCH.take();
    if buf.len() < n {
        buf.resize(n, 0);
    }
    let r = read_at(from, &mut buf[..n]).map(|()| f(&buf[..n]));
    SCRATCH.set(buf);
    r
}

/// Fills a buffer with the code from a byte offset (the input of
/// [`disassemble_parallel`], shared by its threads).
pub type ReadAt<'r, E> = dyn Fn(u64, &mut [u8]) -> Result<(), E> + Sync + 'r;

/// How many assembler verdicts [`Exactness`] keeps (then it starts over):
/// a listing of any size takes bounded memory.
const VERDICTS_KEPT: usize = 1 << 16;

/// Instances of a form [`Exactness`] makes to learn which bits it uses.
const FORM_SAMPLES: usize = 32;

/// The first of the [`FORM_SAMPLES`] instances, which [`Exactness`] makes
/// alone until an instruction sets a bit none of them sets: the bits of
/// all samples are then learned (most forms met need no more, and making
/// instances is most of a short listing's time).
const FIRST_SAMPLES: usize = 8;

/// The exactness check of a listing ([`listing::Lister`]), made cheap.
///
/// The printer already refuses text it knows cannot stand for the words
/// ([`risa_gcn::Printer::write_checked`]); what it cannot know is whether
/// the assembler gives back bits the text does not show: unused fields,
/// operands of a form that has none, and the like. So an instruction
/// whose set bits are all bits that valid instances of its form set, and
/// that clears no bit they all set (`FormBits`, learned once per form
/// from [`risa_gcn::random::random_instr`]), is
/// taken as the printer says: valid instructions round-trip, which
/// tests/roundtrip.rs checks for every form, and tests/raw_roundtrip.rs
/// and tests/exactness.rs check for random words (a trusted instruction
/// that does not assemble back fails them). Any other instruction is
/// assembled ([`text_is_exact`]), once per distinct words.
pub struct Exactness {
    chip: &'static Processor,
    dialect: Dialect,
    /// Per form (instruction × [`form_slot`], a flat table: this is looked up
    /// for every instruction): the bits its first [`FIRST_SAMPLES`] valid
    /// instances set, and those of all [`FORM_SAMPLES`], once known
    /// (shared by the threads of a parallel listing). The first ones keep
    /// the generator as they left it: the rest of the samples go on from
    /// there rather than making the first ones again.
    first: Vec<OnceLock<(FormBits, random::Rng)>>,
    forms: Vec<OnceLock<FormBits>>,
    /// Per form, the bits of the samples learned so far (`any` only
    /// grows and `all` only shrinks towards all samples' bits, see
    /// [`Exactness::learn`]): the common case, an instruction they admit,
    /// is two loads and two tests.
    known: Vec<[AtomicU64; 2]>,
    /// Assembler verdicts by words.
    verdicts: Mutex<HashMap<(u64, Option<u32>), bool>>,
}

impl Exactness {
    /// A check for listings of `chip`'s code in `dialect`.
    pub fn new(chip: &'static Processor, dialect: Dialect) -> Self {
        Exactness {
            chip,
            dialect,
            first: (0..OPS.len() * FORM_SLOTS)
                .map(|_| OnceLock::new())
                .collect(),
            forms: (0..OPS.len() * FORM_SLOTS)
                .map(|_| OnceLock::new())
                .collect(),
            // (Admitting nothing: see `FormBits::admits`.)
            known: (0..OPS.len() * FORM_SLOTS)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(!0)])
                .collect(),
            verdicts: Mutex::default(),
        }
    }

    /// Whether `text` (which the printer wrote for `i` and called exact)
    /// assembles back to `i`'s words.
    #[inline]
    pub fn is_exact(&self, i: &Instr, text: &str) -> bool {
        self.admitted(i) || self.not_admitted_is_exact(i, text)
    }

    /// [`Exactness::is_exact`] for an instruction the bits known so far do
    /// not admit. Apart and out of line, so that the common case (loads
    /// and tests, for every instruction of a listing) saves no registers
    /// and sets up no frame for the rest: its one call is a tail call.
    #[cold]
    #[inline(never)]
    fn not_admitted_is_exact(&self, i: &Instr, text: &str) -> bool {
        if self.learn(i, Self::form(i)) {
            return true;
        }
        let key = (i.raw, i.lit);
        let verdicts = || self.verdicts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&ok) = verdicts().get(&key) {
            return ok;
        }
        let ok = text_is_exact(self.chip, i, text, self.dialect);
        let mut v = verdicts();
        if v.len() >= VERDICTS_KEPT {
            v.clear();
        }
        v.insert(key, ok);
        ok
    }

    /// Whether every bit `i` sets is one valid instances of its form set.
    #[inline]
    pub fn trusted(&self, i: &Instr) -> bool {
        self.admitted(i) || self.learn(i, Self::form(i))
    }

    /// The index of `i`'s form in the tables per form.
    #[inline(always)]
    fn form(i: &Instr) -> usize {
        i.op as usize * FORM_SLOTS + form_slot(i.enc)
    }

    /// Whether the bits of the samples learned so far admit `i`: then
    /// all samples do ([`Exactness::trusted`]).
    #[inline(always)]
    fn admitted(&self, i: &Instr) -> bool {
        // (What fewer samples admit, all samples admit: a verdict of the
        // bits known so far is the verdict of all samples.)
        let [any, all] = &self.known[Self::form(i)];
        let known = FormBits {
            any: any.load(Ordering::Relaxed),
            all: all.load(Ordering::Relaxed),
        };
        known.admits(i.raw)
    }

    /// [`Exactness::trusted`] for an instruction the bits known so far do
    /// not admit: learned from the samples, and the bits kept.
    #[cold]
    fn learn(&self, i: &Instr, key: usize) -> bool {
        // The samples are one stream (the generator is seeded by the
        // instruction): the first ones' bits are part of all samples' bits,
        // and the verdict is all samples' verdict.
        let (first, ref rest) = *self.first[key].get_or_init(|| {
            let mut rng = random::Rng::new(0x5eed ^ u64::from(i.op));
            let bits = self.form_bits(i, &mut rng, FormBits { any: 0, all: !0 }, FIRST_SAMPLES);
            (bits, rng)
        });
        let learnt = |bits: FormBits| {
            self.known[key][0].fetch_or(bits.any, Ordering::Relaxed);
            self.known[key][1].fetch_and(bits.all, Ordering::Relaxed);
        };
        learnt(first);
        first.admits(i.raw) || {
            let all = *self.forms[key].get_or_init(|| {
                self.form_bits(i, &mut rest.clone(), first, FORM_SAMPLES - FIRST_SAMPLES)
            });
            learnt(all);
            all.admits(i.raw)
        }
    }

    /// `bits` with those of the next `samples` instances of `i`'s form
    /// that `rng` makes (valid ones only; none when the generator has no
    /// instance of it: nothing is trusted then).
    fn form_bits(
        &self,
        i: &Instr,
        rng: &mut random::Rng,
        mut bits: FormBits,
        samples: usize,
    ) -> FormBits {
        for _ in 0..samples {
            // (VOP3b forms by their own encoding: named by their VOP3
            // encoding, the generator leaves the SDST field 0, and every
            // instruction with another SDST would be assembled.)
            if let Some(x) = random::random_instr(rng, self.chip, i.op, i.enc) {
                if x.enc == i.enc {
                    bits.any |= x.raw;
                    bits.all &= x.raw;
                }
            }
        }
        bits
    }
}

/// The encodings one instruction can have: its own, the VOP3 one (VOP3a
/// or VOP3b, never both), SDWA and DPP.
const FORM_SLOTS: usize = 4;

/// Where encoding `enc` goes among an instruction's [`FORM_SLOTS`]: the
/// tables of [`Exactness`] are per instruction and slot, not per encoding
/// (26 of them). They take a sixth of the memory (the learned bits 86 KB,
/// not 560 KB; making the three tables was a tenth of a listing's page
/// faults), and the learned bits are read for every instruction listed,
/// in a listing of random instructions mostly from beyond the first two
/// cache levels (that read is still 5-7 % of such a listing's samples).
#[inline(always)]
fn form_slot(enc: Enc) -> usize {
    // (A load, not the branches a `match` compiles to: encodings come in
    // any order.)
    const SLOT: [u8; 32] = {
        let mut t = [0; 32];
        t[Enc::Vop3 as usize] = 1;
        t[Enc::Vop3b as usize] = 1;
        t[Enc::Vop3p as usize] = 1;
        t[Enc::Vop2Sdwa as usize] = 2;
        t[Enc::Vop1Sdwa as usize] = 2;
        t[Enc::VopcSdwa as usize] = 2;
        t[Enc::Vop2Dpp as usize] = 3;
        t[Enc::Vop1Dpp as usize] = 3;
        t[Enc::VopcDpp as usize] = 3;
        t
    };
    usize::from(SLOT[enc as usize])
}

/// The bits valid instances of a form set: some of them (`any`) and all
/// of them (`all`). An instruction that clears a bit every instance sets
/// is as suspect as one that sets a bit none sets: an assembler writes
/// such a bit whatever the text says (the unused third `op_sel_hi` bit of
/// a two-source VOP3P instruction is 1 in LLVM's and risa's encodings, so
/// text cannot give it back as 0).
#[derive(Clone, Copy)]
struct FormBits {
    any: u64,
    all: u64,
}

impl FormBits {
    /// Whether `raw` sets only bits of `any` and every bit of `all` (never
    /// when no instance was made: `all` is then every bit, `any` none).
    /// Fewer instances admit less: `any` is smaller and `all` larger.
    #[inline]
    fn admits(self, raw: u64) -> bool {
        raw & !self.any == 0 && raw & self.all == self.all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    /// No instruction has two encodings in one slot of the tables of
    /// [`Exactness`] on any generation: the forms LLVM knows, and the
    /// SDWA and DPP forms of every row (which the generator makes).
    #[test]
    fn forms_of_an_instruction_take_distinct_slots() {
        use Enc::*;
        let mut rng = random::Rng::new(1);
        for chip in ["tahiti", "hawaii", "fiji", "gfx900"] {
            let chip = Processor::parse(chip).unwrap();
            let sdwa_dpp = (0..OPS.len()).flat_map(|op| {
                let encs = [Vop2Sdwa, Vop1Sdwa, VopcSdwa, Vop2Dpp, Vop1Dpp, VopcDpp];
                encs.map(|e| (op as u16, e))
            });
            let mut slots = HashMap::new();
            for (op, enc) in random::all_forms(chip).into_iter().chain(sdwa_dpp) {
                if random::random_instr(&mut rng, chip, op, enc).is_none() {
                    continue;
                }
                let other = *slots.entry((op, form_slot(enc))).or_insert(enc);
                assert_eq!(other, enc, "{}: row {op}", chip.name);
            }
        }
    }

    /// An error of the output ends the parallel listing with that error
    /// (the threads listing ahead stop too).
    #[test]
    fn parallel_listing_stops_at_a_write_error() {
        let chip = Processor::parse("fiji").unwrap();
        let code: Vec<u8> = random::garbage_cases(chip, 3000, 3).concat();
        let read_at = |at: u64, buf: &mut [u8]| -> Result<(), String> {
            buf.copy_from_slice(&code[at as usize..at as usize + buf.len()]);
            Ok(())
        };
        let mut writes = 0;
        let opts = listing::Options::default();
        let r = parallel_in_chunks(chip, opts, code.len() as u64, 64, &read_at, |_| {
            writes += 1;
            if writes == 3 {
                Err("disk full".to_string())
            } else {
                Ok(())
            }
        });
        assert_eq!(r, Err("disk full".to_string()));
        assert_eq!(writes, 3);
    }

    /// The parallel listing, cut into chunks of any size, is the
    /// sequential one byte for byte: garbage words (branches into the
    /// middle of instructions and past the ends, words that do not
    /// decode) and a partial dword at the end, in both dialects; and runs
    /// of valid instructions (most of them trusted, listed by the
    /// listing's loop of trusted lines) between garbage cases.
    #[test]
    fn parallel_listing_equals_sequential_listing() {
        for chip in ["tahiti", "gfx900"] {
            let chip = Processor::parse(chip).unwrap();
            let garbage: Vec<u8> = random::garbage_cases(chip, 1500, 5).concat();
            // (Few forms, each met again and again: the exactness check
            // learns a form's bits when it first lists one, and trusts
            // the instances scanned after.)
            let mut rng = random::Rng::new(11);
            let all = random::all_forms(chip);
            let forms: Vec<_> = (0..24)
                .map(|_| all[rng.below(all.len() as u32) as usize])
                .collect();
            let mut mixed = Vec::new();
            // (Past the reach of branches: later stretches are scanned
            // after earlier chunks are listed and their forms learned.)
            let cases = random::garbage_cases(chip, 4000, 6);
            for (k, g) in cases.into_iter().enumerate() {
                if mixed.len() > 2 * listing::BRANCH_REACH as usize {
                    break;
                }
                for _ in 0..k % 7 * 9 {
                    let (w, n) = random::random_of(&mut rng, chip.into(), &forms).words();
                    mixed.extend(w[..n].iter().flat_map(|x| x.to_le_bytes()));
                }
                mixed.extend(g);
            }
            let tail = [0x12, 0x34, 0x56];
            let garbage: Vec<u8> = garbage.into_iter().chain(tail).collect();
            listings_agree(chip, &garbage, &[4, 60, 1000, CHUNK]);
            let mixed: Vec<u8> = mixed.into_iter().chain(tail).collect();
            listings_agree(chip, &mixed, &[1000, CHUNK]);
        }
    }

    /// [`parallel_listing_equals_sequential_listing`] of one code.
    fn listings_agree(chip: &'static Processor, code: &[u8], chunks: &[u64]) {
        for dialect in [Dialect::Clrx, Dialect::Llvm] {
            let opts = listing::Options {
                dialect,
                hex: false,
            };
            let mut whole = String::new();
            let pass = |f: &mut dyn FnMut(&[u8]) -> Result<(), Infallible>| f(code);
            let Ok(()) = disassemble_pieces(chip, opts, pass, |t: &str| {
                whole.push_str(t);
                Ok(())
            });
            let read_at = |at: u64, buf: &mut [u8]| -> Result<(), Infallible> {
                buf.copy_from_slice(&code[at as usize..at as usize + buf.len()]);
                Ok(())
            };
            for &chunk in chunks {
                let mut text = String::new();
                let len = code.len() as u64;
                let Ok(()) = parallel_in_chunks(chip, opts, len, chunk, &read_at, |t| {
                    text.push_str(t);
                    Ok(())
                });
                assert!(
                    text == whole,
                    "{} {dialect:?}, chunks of {chunk}",
                    chip.name
                );
            }
            // Called on a thread of a pool of one: chunk after chunk.
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
            let mut text = String::new();
            let Ok(()) = pool.unwrap().install(|| {
                parallel_in_chunks(chip, opts, code.len() as u64, 60, &read_at, |t| {
                    text.push_str(t);
                    Ok(())
                })
            });
            assert!(text == whole, "{} {dialect:?}, in the pool", chip.name);
        }
    }
}
