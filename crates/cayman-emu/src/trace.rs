//! Execution traces (`risa run --trace FILE`): one line per executed CF
//! instruction, ALU group and fetch-clause instruction of every wave, with
//! the registers it wrote.
//!
//! ```text
//! g(0,0,0) w0 cf 0: ALU_PUSH_BEFORE: ADDR(8) CNT(1) KCACHE0(CB0:0-15)
//! g(0,0,0) w0   alu 8: x: PRED_SETGT_INT ____, R0.x, 0.0f UPDATE_EXEC_MASK UPDATE_PRED  pred=0x…
//! g(0,0,0) w0 cf 0 => active=0x00000000ffffffff
//! g(0,0,0) w0 cf 2: TC: ADDR(6) CNT(1)
//! g(0,0,0) w0   tc 6: VFETCH R1.x___, R1.x, fc1 …  R1.x[0]=0x00000007 (32 lanes)
//! ```
//!
//! A CF line is written before the instruction runs (so a fault report
//! follows the line of the instruction that faulted); a `=>` line after it
//! lists what it changed: the active mask and a jump (`-> cf N`). ALU group
//! and fetch lines are written after they ran, followed by each GPR element
//! they changed as `Rr.c[l]=value (n lanes)` — the first lane that changed
//! and how many did — and changes of AR, the predicate, the CF index
//! registers and the active mask the group computed for the clause's end.
//! The instruction text is the disassembler's (`risa_cayman::print`).
//!
//! Tracing costs nothing when off: the wave checks for a tracer once per CF
//! instruction, and ALU clauses run a separately compiled loop when traced.

use crate::program::{CfKind, Program};
use risa_cayman::codec::{decode_alu, decode_cf, decode_fetch, AluForm};
use risa_cayman::print::{literal_need, print_alu, print_cf, print_fetch, print_lds_direct};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where trace lines go: shared by every wave of a dispatch.
pub struct TraceSink(Mutex<Box<dyn Write + Send>>);

impl TraceSink {
    /// A sink writing to `w` (wrap files in a `BufWriter`).
    pub fn new(w: impl Write + Send + 'static) -> Arc<TraceSink> {
        Arc::new(TraceSink(Mutex::new(Box::new(w))))
    }
    /// Writes one line (errors are ignored: a trace must not change the run).
    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(s.as_bytes());
        let _ = w.write_all(b"\n");
    }
    /// Flushes the writer.
    pub fn flush(&self) {
        let _ = self.0.lock().unwrap_or_else(|e| e.into_inner()).flush();
    }
}

impl std::fmt::Debug for TraceSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TraceSink")
    }
}

/// The text of every instruction of a program, by the indices the wave
/// executes them under.
#[derive(Debug, Default)]
pub struct Listing {
    /// CF instruction text by CF index.
    pub cf: Vec<String>,
    /// ALU group text by clause and group ("x: … | y: …") with the group's slot address.
    pub alu: Vec<Vec<(u32, String)>>,
    /// Fetch/GDS instruction text by clause and instruction, with its slot address.
    pub fetch: Vec<Vec<(u32, String)>>,
}

impl Listing {
    /// The listing of `prog`, lowered from `code`.
    pub fn new(code: &[u8], prog: &Program) -> Listing {
        let w: Vec<u32> = code
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let word = |i: usize| w.get(i).copied().unwrap_or(0);
        let mut l = Listing::default();
        for k in 0..prog.cf.len() {
            let (w0, w1) = (word(2 * k), word(2 * k + 1));
            let mut s = String::new();
            match decode_cf(w0, w1) {
                Ok(i) => print_cf(&mut s, &i),
                Err(_) => {
                    let _ = write!(s, ".int {w0:#010x}, {w1:#010x}");
                }
            }
            l.cf.push(s);
        }
        for (c, cl) in prog.alu.iter().enumerate() {
            let base = prog.alu_addr.get(c).copied().unwrap_or(0);
            let mut groups = Vec::new();
            if let Ok(cl) = cl {
                for g in &cl.groups {
                    let at = base + g.at;
                    let first = 2 * at as usize;
                    let insts: Vec<_> = (0..g.len as usize)
                        .filter_map(|k| {
                            decode_alu(word(first + 2 * k), word(first + 2 * k + 1)).ok()
                        })
                        .collect();
                    let need = insts
                        .iter()
                        .flat_map(|i| (0..i.src_slots()).filter_map(|k| literal_need(&i.src(k))))
                        .max()
                        .map_or(0, |c| if c >= 2 { 4 } else { 2 });
                    let lp = first + 2 * g.len as usize;
                    let lits: Vec<u32> = (0..need).map(|k| word(lp + k)).collect();
                    let mut s = String::new();
                    for (n, i) in insts.iter().enumerate() {
                        if n > 0 {
                            s.push_str(" | ");
                        }
                        let _ = write!(s, "{}: ", ['x', 'y', 'z', 'w'][i.dst_chan() as usize & 3]);
                        print_alu(&mut s, i, &lits);
                    }
                    if insts.iter().any(|i| {
                        (0..i.src_slots()).any(|k| matches!(i.src(k).sel, 223 | 224))
                            && i.form != AluForm::Lds
                    }) && lits.len() >= 2
                    {
                        s.push_str(" | ");
                        print_lds_direct(&mut s, lits[0], lits[1]);
                    }
                    groups.push((at, s));
                }
            }
            l.alu.push(groups);
        }
        let gds: Vec<bool> = {
            let mut v = vec![false; prog.fetch.len()];
            for op in &prog.cf {
                if let CfKind::Gds(i) = op.kind {
                    if let Some(b) = v.get_mut(i as usize) {
                        *b = true;
                    }
                }
            }
            v
        };
        for (c, cl) in prog.fetch.iter().enumerate() {
            let base = prog.fetch_addr.get(c).copied().unwrap_or(0);
            let mut v = Vec::new();
            for k in 0..cl.len() {
                let at = base + 2 * k as u32;
                let p = 2 * at as usize;
                let ws = [word(p), word(p + 1), word(p + 2), word(p + 3)];
                let mut s = String::new();
                match decode_fetch(ws, gds[c]) {
                    Ok(i) => print_fetch(&mut s, &i),
                    Err(_) => {
                        let _ = write!(s, ".int {:#010x}, {:#010x}, {:#010x}", ws[0], ws[1], ws[2]);
                    }
                }
                v.push((at, s));
            }
            l.fetch.push(v);
        }
        l
    }
}

/// What a traced wave needs: the sink and the program's text.
#[derive(Debug)]
pub struct Tracer {
    /// Where lines go.
    pub sink: Arc<TraceSink>,
    /// Instruction text.
    pub listing: Listing,
}

impl Tracer {
    /// A tracer for the program lowered from `code`.
    pub fn new(sink: Arc<TraceSink>, code: &[u8], prog: &Program) -> Arc<Tracer> {
        Arc::new(Tracer {
            sink,
            listing: Listing::new(code, prog),
        })
    }
}
