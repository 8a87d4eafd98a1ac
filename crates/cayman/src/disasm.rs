//! Program walker: follows the CF program, prints each clause under the CF
//! instruction that starts it, and everything no instruction claims as data.

use crate::codec::*;
use crate::fields::*;
use crate::ops;
use crate::print::*;
use core::fmt::{self, Write};

/// Disassembler options.
#[derive(Clone, Copy, Debug, Default)]
pub struct DisasmOptions {
    /// Append each instruction's dwords in hex.
    pub hex: bool,
}

/// What a listing line describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A CF instruction.
    Cf,
    /// An ALU instruction.
    Alu,
    /// The literal dwords after an ALU group (printed only when not all referenced).
    Literals,
    /// A fetch or GDS instruction.
    Fetch,
    /// Words no instruction decodes or claims.
    Data,
    /// A comment line (no words).
    Comment,
    /// A placement directive (`.at OFFSET`, no words): the data lines that
    /// follow lie at that byte offset of the program.
    Directive,
}

/// One line of a listing.
#[derive(Clone, Debug)]
pub struct Item {
    /// Dword offset of the first word from the program start.
    pub dword: usize,
    /// Number of dwords the line covers.
    pub ndwords: usize,
    /// Kind.
    pub kind: ItemKind,
    /// Line text (without hex words), indentation included.
    pub text: String,
}

/// A disassembled CF program.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// Lines in print order.
    pub items: Vec<Item>,
    /// What looks wrong in the program (the bytes are printed as they are).
    pub warnings: Vec<String>,
}

struct Walker<'a> {
    words: &'a [u32],
    claimed: Vec<bool>,
    items: Vec<Item>,
    counter: usize,
}

impl Walker<'_> {
    fn push(&mut self, dword: usize, ndwords: usize, kind: ItemKind, text: String) {
        for k in dword..(dword + ndwords).min(self.claimed.len()) {
            self.claimed[k] = true;
        }
        self.items.push(Item {
            dword,
            ndwords,
            kind,
            text,
        });
    }

    fn data(&mut self, dword: usize, n: usize, why: &dyn fmt::Display) {
        self.data_prefixed(dword, n, why, "        ");
    }

    fn data_prefixed(&mut self, dword: usize, n: usize, why: &dyn fmt::Display, prefix: &str) {
        let mut t = String::from(prefix);
        t.push_str(".int");
        for (k, w) in self.words[dword..dword + n].iter().enumerate() {
            let _ = write!(t, "{} 0x{w:08x}", if k == 0 { "" } else { "," });
        }
        let _ = write!(t, "  ; {why}");
        self.push(dword, n, ItemKind::Data, t);
    }

    fn alu_clause(&mut self, addr: usize, count: usize) {
        let start = addr * 2;
        let end = ((addr + count) * 2).min(self.words.len() & !1);
        if start >= end {
            self.items.push(Item {
                dword: start,
                ndwords: 0,
                kind: ItemKind::Comment,
                text: "        ; clause lies outside the code".into(),
            });
            return;
        }
        let mut p = start;
        while p < end {
            // one instruction group
            let mut group: [Option<(usize, AluInst)>; 8] = [None; 8];
            let mut n = 0;
            let mut need: Option<u32> = None;
            let mut lds_direct = false;
            // literal channels some operand prints inline
            let mut refmask = 0u32;
            loop {
                if p >= end {
                    break;
                }
                match decode_alu(self.words[p], self.words[p + 1]) {
                    Ok(i) => {
                        for k in 0..i.src_slots().min(i.nsrc().max(3)) {
                            let s = i.src(k);
                            if let Some(c) = literal_need(&s) {
                                need = Some(need.map_or(c, |x| x.max(c)));
                                lds_direct |= s.sel != SRC_LITERAL;
                                if s.sel == SRC_LITERAL {
                                    refmask |= 1 << c;
                                }
                            }
                        }
                        let last = i.last();
                        if n < group.len() {
                            group[n] = Some((p, i));
                            n += 1;
                        }
                        p += 2;
                        if last || n == group.len() {
                            break;
                        }
                    }
                    Err(e) => {
                        // flush what we have, then print the word as data
                        if n > 0 {
                            break;
                        }
                        self.data(p, 2, &e);
                        p += 2;
                        continue;
                    }
                }
            }
            if n == 0 {
                continue;
            }
            let nlit = match need {
                None => 0,
                Some(c) => ((c as usize / 2) + 1) * 2,
            };
            let lit_end = (p + nlit).min(end);
            let lits: [u32; 4] = {
                let mut l = [0u32; 4];
                for (k, v) in self.words[p..lit_end].iter().enumerate() {
                    l[k] = *v;
                }
                l
            };
            let avail = lit_end - p;
            for (k, g) in group[..n].iter().enumerate() {
                let (at, i) = g.expect("filled");
                let mut t = String::with_capacity(80);
                if k == 0 {
                    let _ = write!(t, "    {:4}  ", self.counter);
                } else {
                    t.push_str("          ");
                }
                t.push(['x', 'y', 'z', 'w'][i.dst_chan() as usize]);
                t.push_str(": ");
                print_alu(&mut t, &i, &lits[..avail]);
                if k + 1 == n && !i.last() {
                    // the group was cut (clause end, undecodable word, 8 instructions)
                    t.push_str(" NOT_LAST");
                }
                self.push(at, 2, ItemKind::Alu, t);
            }
            self.counter += 1;
            // the clause may end before the literal dwords the group needs
            let truncated = avail < nlit;
            if avail > 0 || truncated {
                // literal dwords: printed inline; list them only if some are not
                // referenced or the clause cuts them off (then exactly those present)
                let mut t = String::from("          ");
                if lds_direct && avail >= 2 {
                    print_lds_direct(&mut t, lits[0], lits[1]);
                    for v in &lits[2..avail] {
                        let _ = write!(t, " 0x{v:08x}");
                    }
                    self.push(p, avail, ItemKind::Literals, t);
                } else if truncated || (0..avail).any(|c| refmask & (1 << c) == 0 && lits[c] != 0) {
                    t.push_str("LITERALS");
                    for v in &lits[..avail] {
                        let _ = write!(t, " 0x{v:08x}");
                    }
                    self.push(p, avail, ItemKind::Literals, t);
                } else {
                    for k in p..lit_end {
                        self.claimed[k] = true;
                    }
                    // keep the words visible to callers that walk items
                    self.items.push(Item {
                        dword: p,
                        ndwords: avail,
                        kind: ItemKind::Literals,
                        text: String::new(),
                    });
                }
            }
            p = lit_end;
        }
    }

    fn fetch_clause(&mut self, addr: usize, count: usize, gds: bool) {
        let start = addr * 2;
        for k in 0..count {
            let p = start + k * 4;
            if p + 4 > self.words.len() {
                self.items.push(Item {
                    dword: p,
                    ndwords: 0,
                    kind: ItemKind::Comment,
                    text: "        ; clause runs past the end of the code".into(),
                });
                return;
            }
            let w = [
                self.words[p],
                self.words[p + 1],
                self.words[p + 2],
                self.words[p + 3],
            ];
            match decode_fetch(w, gds) {
                Ok(i) => {
                    let mut t = String::new();
                    let _ = write!(t, "    {:4}  ", self.counter);
                    print_fetch(&mut t, &i);
                    self.push(p, 4, ItemKind::Fetch, t);
                }
                Err(e) => self.data(p, 4, &e),
            }
            self.counter += 1;
        }
    }
}

/// Walk a raw CF program at offset 0 and build its listing.
pub fn listing(code: &[u8]) -> (Listing, usize) {
    let words: Vec<u32> = code
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut w = Walker {
        words: &words,
        claimed: vec![false; words.len()],
        items: Vec::new(),
        counter: 0,
    };
    let nslots = words.len() / 2;
    let mut limit = nslots;
    let mut slot = 0;
    // ALU clauses: (CF slot, ADDR, slots counted)
    let mut alu_clauses: Vec<(usize, usize, usize)> = Vec::new();
    while slot < limit {
        let (w0, w1) = (words[slot * 2], words[slot * 2 + 1]);
        match decode_cf(w0, w1) {
            Ok(i) => {
                let mut t = format!("{slot:02} ");
                print_cf(&mut t, &i);
                w.push(slot * 2, 2, ItemKind::Cf, t);
                match i.form {
                    CfForm::Alu => {
                        let addr = CF_ALU_WORD0::ADDR.get(w0) as usize;
                        let cnt = CF_ALU_WORD1::COUNT.get(w1) as usize + 1;
                        if addr > slot {
                            limit = limit.min(addr);
                        }
                        alu_clauses.push((slot, addr, cnt));
                        w.alu_clause(addr, cnt);
                    }
                    CfForm::Cf if i.op.flags & (ops::F_TC | ops::F_GDS) != 0 => {
                        let addr = CF_WORD0::ADDR.get(w0) as usize;
                        let cnt = CF_WORD1::COUNT.get(w1) as usize + 1;
                        if addr > slot {
                            limit = limit.min(addr);
                        }
                        w.fetch_clause(addr, cnt, i.op.flags & ops::F_GDS != 0);
                    }
                    _ => {}
                }
            }
            // an undecodable CF slot keeps its index, so the assembler puts it back there
            Err(e) => w.data_prefixed(slot * 2, 2, &e, &format!("{slot:02} ")),
        }
        slot += 1;
    }
    // An ALU clause followed by ALU instructions no CF instruction reaches:
    // a clause longer than COUNT holds (7 bits, 128 slots), whose count
    // wrapped (clang-14 emits these). The words stay data, so the bytes
    // come back; the hardware runs only the counted slots.
    let mut warnings = Vec::new();
    for &(cf, addr, cnt) in &alu_clauses {
        let mut k = addr + cnt;
        while 2 * k + 1 < words.len()
            && !w.claimed[2 * k]
            && !w.claimed[2 * k + 1]
            && decode_alu(words[2 * k], words[2 * k + 1]).is_ok()
        {
            k += 1;
        }
        let extra = k - (addr + cnt);
        if extra > 0 {
            warnings.push(format!(
                "CF {cf:02}: the ALU clause at ADDR({addr}) counts {cnt} slots (COUNT is 7 bits, \
                 at most 128), but {extra} more ALU slots follow that no CF instruction reaches \
                 (@{:04x}..@{:04x}): a longer clause whose COUNT wrapped? They are printed as \
                 data so the bytes reassemble; the hardware runs only the counted slots",
                (addr + cnt) * 8,
                k * 8
            ));
        }
    }
    // unclaimed words: data, in address order; each run starts with `.at`
    let mut k = 0;
    let mut next_run = usize::MAX;
    while k < words.len() {
        if w.claimed[k] {
            k += 1;
            continue;
        }
        let s = k;
        if s != next_run {
            w.items.push(Item {
                dword: s,
                ndwords: 0,
                kind: ItemKind::Directive,
                text: format!("        .at 0x{:x}", s * 4),
            });
        }
        while k < words.len() && !w.claimed[k] && k - s < 4 {
            k += 1;
        }
        w.data(s, k - s, &"not reached from the CF program");
        next_run = k;
    }
    let tail = code.len() % 4;
    (
        Listing {
            items: w.items,
            warnings,
        },
        tail,
    )
}

/// Disassemble a raw CF program that starts at offset 0.
pub fn disassemble(code: &[u8], opts: &DisasmOptions) -> String {
    let (l, tail) = listing(code);
    let words: Vec<u32> = code
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = String::new();
    for wn in &l.warnings {
        let _ = writeln!(out, "        ; warning: {wn}");
    }
    render(&mut out, &l, &words, opts);
    if tail != 0 {
        out.push_str("        .byte");
        for (k, b) in code[code.len() - tail..].iter().enumerate() {
            let _ = write!(out, "{} 0x{b:02x}", if k == 0 { "" } else { "," });
        }
        out.push_str("  ; trailing bytes\n");
    }
    out
}

fn render(out: &mut String, l: &Listing, words: &[u32], opts: &DisasmOptions) {
    for it in &l.items {
        if it.text.is_empty() {
            continue;
        }
        out.push_str(&it.text);
        if opts.hex && it.ndwords > 0 {
            let pad = 64usize.saturating_sub(it.text.len());
            for _ in 0..pad {
                out.push(' ');
            }
            let _ = write!(out, " ; @{:04x}:", it.dword * 4);
            for w in &words[it.dword..(it.dword + it.ndwords).min(words.len())] {
                let _ = write!(out, " {w:08x}");
            }
        }
        out.push('\n');
    }
}

/// Error of [`disassemble_object`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// What went wrong.
    pub message: String,
}

/// One kernel of an r600 ELF object: its name and code.
#[derive(Clone, Debug)]
pub struct Kernel<'a> {
    /// Symbol name.
    pub name: String,
    /// Offset in `.text`.
    pub offset: u64,
    /// Code bytes.
    pub code: &'a [u8],
}

/// The kernels of an r600 ELF object (each GLOBAL FUNC symbol in `.text`).
pub fn kernels(elf_bytes: &[u8]) -> Result<Vec<Kernel<'_>>, Error> {
    let elf = risa_elf::Elf::parse(elf_bytes).map_err(|e| Error {
        message: format!("not a readable ELF file: {e}"),
    })?;
    if elf.is64 || elf.machine != risa_elf::EM_AMDGPU {
        return Err(Error {
            message: format!(
                "not an r600 (Cayman) object: {}-bit ELF, machine 0x{:x} (expected 32-bit EM_AMDGPU 0xe0)",
                if elf.is64 { 64 } else { 32 },
                elf.machine
            ),
        });
    }
    let text = elf.section_by_name(".text").ok_or_else(|| Error {
        message: "object has no .text section".into(),
    })?;
    let tidx = elf
        .sections
        .iter()
        .position(|s| s.name == ".text")
        .unwrap_or(usize::MAX);
    let mut syms: Vec<&risa_elf::Symbol> = elf
        .symbols
        .iter()
        .filter(|s| {
            s.shndx as usize == tidx && s.sym_type == risa_elf::STT_FUNC && !s.name.is_empty()
        })
        .collect();
    syms.sort_by_key(|s| s.value);
    let mut out = Vec::new();
    let len = text.data.len() as u64;
    for (k, s) in syms.iter().enumerate() {
        let start = s.value.min(len);
        let next = syms.get(k + 1).map_or(len, |n| n.value.min(len));
        let end = if s.size > 0 {
            (start + s.size).min(len)
        } else {
            next
        };
        out.push(Kernel {
            name: s.name.clone(),
            offset: start,
            code: &text.data[start as usize..end.max(start) as usize],
        });
    }
    if out.is_empty() {
        out.push(Kernel {
            name: ".text".into(),
            offset: 0,
            code: text.data,
        });
    }
    Ok(out)
}

/// `.text` bytes outside every kernel (e.g. constant tables): printed as
/// data at their offset unless they are all zero (alignment padding).
fn gap(out: &mut String, text: &[u8], from: usize, to: usize) {
    let to = to.min(text.len());
    if from >= to || text[from..to].iter().all(|&b| b == 0) {
        return;
    }
    let _ = writeln!(
        out,
        "        .org 0x{from:x}  ; .text data outside the kernels"
    );
    let body = &text[from..to];
    for line in body.chunks(16) {
        let words = line.chunks_exact(4);
        let tail = words.remainder();
        let mut t = String::new();
        for (k, w) in words.enumerate() {
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let _ = write!(t, "{} 0x{v:08x}", if k == 0 { "" } else { "," });
        }
        if !t.is_empty() {
            let _ = writeln!(out, "        .int{t}");
        }
        if !tail.is_empty() {
            out.push_str("        .byte");
            for (k, b) in tail.iter().enumerate() {
                let _ = write!(out, "{} 0x{b:02x}", if k == 0 { "" } else { "," });
            }
            out.push('\n');
        }
    }
}

/// Name of a register clang writes into `.AMDGPU.config` for compute kernels.
fn config_reg_name(r: u32) -> Option<&'static str> {
    Some(match r {
        0x288d4 => "SQ_PGM_RESOURCES_LS: NUM_GPRS [7:0], STACK_SIZE [15:8]",
        0x2880c => "DB_SHADER_CONTROL",
        0x288e8 => "SQ_LDS_ALLOC: static LDS dwords",
        _ => return None,
    })
}

/// Disassemble every kernel of an r600 ELF object (with `.config_reg`
/// lines for its `.AMDGPU.config` share and `.org` between kernels).
pub fn disassemble_object(elf_bytes: &[u8], opts: &DisasmOptions) -> Result<String, Error> {
    disassemble_object_warn(elf_bytes, opts).map(|(t, _)| t)
}

/// [`disassemble_object`], and the warnings (also in the text as comments):
/// programs that look wrong (an ALU clause whose COUNT wrapped), object
/// contents the source does not reproduce. The text ends with `.elf_*`
/// lines for the sections, symbols and relocations besides `.text`,
/// `.AMDGPU.config` and the kernel symbols, so `risa asm --arch cayman
/// --format elf` writes the same object.
pub fn disassemble_object_warn(
    elf_bytes: &[u8],
    opts: &DisasmOptions,
) -> Result<(String, Vec<String>), Error> {
    let mut warnings = Vec::new();
    let mut out = String::new();
    let mut end = 0;
    let ks = kernels(elf_bytes)?;
    let text: &[u8] = risa_elf::Elf::parse(elf_bytes)
        .ok()
        .and_then(|e| e.section_by_name(".text").map(|s| s.data))
        .unwrap_or(&[]);
    // .AMDGPU.config: (register, value) pairs, split evenly among the kernels
    let config: Vec<(u32, u32)> = risa_elf::Elf::parse(elf_bytes)
        .ok()
        .and_then(|e| e.section_by_name(".AMDGPU.config").map(|s| s.data.to_vec()))
        .unwrap_or_default()
        .chunks_exact(8)
        .map(|c| {
            (
                u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
            )
        })
        .collect();
    let per = if !ks.is_empty() && config.len().is_multiple_of(ks.len()) {
        config.len() / ks.len()
    } else {
        0
    };
    for (k, kern) in ks.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        if kern.offset > end {
            gap(&mut out, text, end as usize, kern.offset as usize);
        }
        if kern.offset != end {
            // kernels are aligned in .text: say where the next one starts
            let _ = writeln!(out, "        .org 0x{:x}", kern.offset);
        }
        end = kern.offset + kern.code.len() as u64;
        let _ = writeln!(
            out,
            "{}:  ; .text+0x{:x}, {} bytes",
            kern.name,
            kern.offset,
            kern.code.len()
        );
        for wn in listing(kern.code).0.warnings {
            warnings.push(format!("{}: {wn}", kern.name));
        }
        for (r, v) in config.iter().skip(k * per).take(per) {
            let _ = writeln!(
                out,
                "        .config_reg 0x{r:x}, 0x{v:x}{}",
                config_reg_name(*r).map_or(String::new(), |n| format!("  ; {n}"))
            );
        }
        out.push_str(&disassemble(kern.code, opts));
    }
    if (end as usize) < text.len() {
        out.push('\n');
        gap(&mut out, text, end as usize, text.len());
    }
    if let Ok(e) = risa_elf::Elf::parse(elf_bytes) {
        // (the program warnings are already comments above their kernels)
        let mut more = Vec::new();
        elf_extras(&mut out, &e, &ks, &mut more);
        warnings.extend(more);
    }
    Ok((out, warnings))
}

/// The `.elf_*` lines (see `risa_cayman_asm::extras`) for what the object
/// holds besides `.text`, `.AMDGPU.config` and the kernel symbols.
fn elf_extras(
    out: &mut String,
    e: &risa_elf::Elf<'_>,
    ks: &[Kernel<'_>],
    warnings: &mut Vec<String>,
) {
    const TYPES: [&str; 5] = ["notype", "object", "func", "section", "file"];
    const BINDS: [&str; 3] = ["local", "global", "weak"];
    const VIS: [&str; 4] = ["default", "internal", "hidden", "protected"];
    let mut lines = Vec::new();
    let mut dropped = Vec::new();
    let text_idx = e.section_by_name(".text").map_or(usize::MAX, |s| s.index);
    for s in &e.sections {
        let known = s.index == 0
            || s.index == text_idx
            || s.name == ".AMDGPU.config"
            || matches!(s.sh_type, 2 | 3 | 4 | 9);
        if known {
            continue;
        }
        let alloc = s.flags & 2 != 0;
        if !alloc || !(s.sh_type == 1 || s.sh_type == risa_elf::SHT_NOBITS) {
            dropped.push(s.name.clone());
            continue;
        }
        let mut f = String::new();
        if s.flags & 1 != 0 {
            f.push('w');
        }
        f.push('a');
        if s.flags & risa_elf::SHF_EXECINSTR != 0 {
            f.push('x');
        }
        if s.sh_type == risa_elf::SHT_NOBITS {
            lines.push(format!(
                ".elf_section {}, \"{f}\", @nobits, {}, {}",
                s.name, s.align, s.size
            ));
        } else {
            lines.push(format!(
                ".elf_section {}, \"{f}\", @progbits, {}",
                s.name, s.align
            ));
            for c in s.data.chunks(16) {
                let b: Vec<String> = c.iter().map(|x| format!("0x{x:02x}")).collect();
                lines.push(format!(".elf_bytes {}", b.join(", ")));
            }
        }
    }
    let sec_name = |i: u16| -> Option<String> {
        match i {
            0xfff1 => Some("abs".into()),
            i => e.sections.get(i as usize).map(|s| s.name.clone()),
        }
    };
    let sym_name = |s: &risa_elf::Symbol| -> String {
        if s.sym_type == 3 && s.name.is_empty() {
            sec_name(s.shndx).unwrap_or_default()
        } else {
            s.name.clone()
        }
    };
    for s in &e.symbols {
        let kernel = s.sym_type == risa_elf::STT_FUNC
            && s.shndx as usize == text_idx
            && ks.iter().any(|k| k.name == s.name && k.offset == s.value);
        if kernel {
            if s.bind != 1 || s.other != 0 {
                warnings.push(format!(
                    "kernel symbol {}: written as GLOBAL DEFAULT (binding {}, st_other {})",
                    s.name, s.bind, s.other
                ));
            }
            continue;
        }
        let name = sym_name(s);
        let Some(sec) = sec_name(s.shndx).filter(|_| s.shndx != 0) else {
            warnings.push(format!("symbol {name:?}: undefined, not written"));
            continue;
        };
        let word = |names: &[&str], v: u8| -> String {
            names
                .get(v as usize)
                .map_or(v.to_string(), |n| n.to_string())
        };
        let vis = if s.other == 0 {
            String::new()
        } else {
            format!(", {}", word(&VIS, s.other))
        };
        lines.push(format!(
            ".elf_symbol {name}, {sec}, 0x{:x}, {}, {}, {}{vis}",
            s.value,
            s.size,
            word(&TYPES, s.sym_type),
            word(&BINDS, s.bind)
        ));
    }
    let mut targets: Vec<u32> = e
        .sections
        .iter()
        .filter(|s| s.sh_type == 4 || s.sh_type == 9)
        .map(|s| s.info)
        .collect();
    targets.sort_unstable();
    targets.dedup();
    for t in targets {
        let Some(target) = e.sections.get(t as usize) else {
            continue;
        };
        for r in e.relocations_for(target.index) {
            let Some(sym) = r.symbol.checked_sub(1).and_then(|i| e.symbols.get(i)) else {
                warnings.push(format!(
                    "{}+0x{:x}: relocation without a symbol, not written",
                    target.name, r.offset
                ));
                continue;
            };
            if r.addend != 0 {
                warnings.push(format!(
                    "{}+0x{:x}: the addend {} of a RELA entry is not written (REL only)",
                    target.name, r.offset, r.addend
                ));
            }
            lines.push(format!(
                ".elf_reloc {}, 0x{:x}, {}, {}",
                target.name,
                r.offset,
                r.kind,
                sym_name(sym)
            ));
        }
    }
    if !lines.is_empty() || !dropped.is_empty() || !warnings.is_empty() {
        out.push('\n');
    }
    if !dropped.is_empty() {
        let _ = writeln!(
            out,
            "; not reproduced (risa writes .text, .AMDGPU.config and the allocated data sections; loaders need no more): {}",
            dropped.join(", ")
        );
    }
    if !lines.is_empty() {
        out.push_str("; the rest of the object: sections, symbols, relocations\n");
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    for wn in warnings.iter() {
        let _ = writeln!(out, "; warning: {wn}");
    }
}
