//! risa agrees with CLRX's GCN instruction pages (`GcnInstrs*.md`).
//!
//! The facts of the pages (instruction sections, opcode statements, opcode
//! tables, `Syntax` lines, literal example instructions with the words llvm-mc
//! assembled them to) were extracted by `tools/docs/extract-clrx-syntax.py`
//! into `tests/vectors/clrx-doc/instructions.txt`; this test reads only that
//! file. Three checks:
//!
//! 1. every documented instruction exists in risa's tables for exactly the
//!    generations the page gives it, with the documented opcode in every
//!    encoding the page lists;
//! 2. random instances (`random.rs`) of every (instruction, generation,
//!    syntax line) decode and print, in CLRX syntax, with the documented
//!    mnemonic and an operand list of the documented shape;
//! 3. every literal example decodes (from llvm-mc's words) to the documented
//!    text, modulo the spelling variants listed in [`SPELLING`].
//!
//! Where the page is wrong, the disagreement is listed below with the evidence
//! (llvm-mc's encoding, the page's own opcode table, the errata list).

use risa_gcn::random::{random_instr, variants, Rng};
use risa_gcn::table::{find_by_name, Family, OpId};
use risa_gcn::{decode, print, Dialect, Enc, Gen, ALL_GENS, OPS};
use std::collections::{BTreeMap, BTreeSet};

fn gen_of(s: &str) -> Gen {
    match s {
        "1.0" => Gen::Gcn10,
        "1.1" => Gen::Gcn11,
        "1.2" => Gen::Gcn12,
        "1.4" => Gen::Gcn14,
        _ => panic!("bad generation {s:?}"),
    }
}

/// `*` (none named) or a comma list.
fn gens_of(s: &str) -> Option<Vec<Gen>> {
    (s != "*").then(|| s.split(',').map(gen_of).collect())
}

fn gen_short(g: Gen) -> &'static str {
    ["1.0", "1.1", "1.2", "1.4"][g as usize]
}

fn gens_text(g: &BTreeSet<Gen>) -> String {
    g.iter().map(|&g| gen_short(g)).collect::<Vec<_>>().join(",")
}

#[derive(Debug, Clone)]
struct Opc {
    page: String,
    section: String,
    enc: String,
    gens: Option<Vec<Gen>>,
    dec: u32,
    hex: u32,
    line: u32,
}

#[derive(Debug, Clone)]
struct Syntax {
    page: String,
    section: String,
    enc: String,
    gens: Option<Vec<Gen>>,
    line: u32,
    text: String,
}

#[derive(Debug, Clone)]
struct TableRow {
    page: String,
    name: String,
    gens: Vec<Gen>,
    opcode: u32,
    vop3: Option<u32>,
    line: u32,
}

#[derive(Debug, Clone)]
struct Example {
    page: String,
    line: u32,
    gen: Gen,
    text: String,
    words: Result<Vec<u32>, String>,
}

#[derive(Default)]
struct Doc {
    sections: Vec<(String, String, u32)>,
    opcodes: Vec<Opc>,
    syntaxes: Vec<Syntax>,
    page_syntaxes: Vec<Syntax>,
    table: Vec<TableRow>,
    examples: Vec<Example>,
}

fn load() -> Doc {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/clrx-doc/instructions.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut d = Doc::default();
    for (n, l) in text.lines().enumerate() {
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split('\t').collect();
        let num = |s: &str| -> u32 {
            s.parse()
                .unwrap_or_else(|_| panic!("{path}:{}: bad number {s:?}", n + 1))
        };
        match f[0] {
            "I" => d.sections.push((f[1].into(), f[2].into(), num(f[3]))),
            "O" => d.opcodes.push(Opc {
                page: f[1].into(),
                section: f[2].into(),
                enc: f[3].into(),
                gens: gens_of(f[4]),
                dec: num(f[5]),
                hex: u32::from_str_radix(f[6].trim_start_matches("0x"), 16).unwrap(),
                line: num(f[7]),
            }),
            "S" => d.syntaxes.push(Syntax {
                page: f[1].into(),
                section: f[2].into(),
                enc: f[3].into(),
                gens: gens_of(f[4]),
                line: num(f[5]),
                text: f[6].into(),
            }),
            "P" => d.page_syntaxes.push(Syntax {
                page: f[1].into(),
                section: String::new(),
                enc: f[2].into(),
                gens: gens_of(f[3]),
                line: num(f[4]),
                text: f[5].into(),
            }),
            "T" => d.table.push(TableRow {
                page: f[1].into(),
                name: f[2].into(),
                gens: gens_of(f[3]).unwrap(),
                opcode: num(f[4]),
                vop3: (f[5] != "-").then(|| num(f[5])),
                line: num(f[6]),
            }),
            "E" => d.examples.push(Example {
                page: f[1].into(),
                line: num(f[2]),
                gen: gen_of(f[3]),
                text: f[4].into(),
                words: match f[6].strip_prefix("- ") {
                    Some(why) => Err(why.into()),
                    None => Ok(f[6]
                        .split(' ')
                        .map(|w| u32::from_str_radix(w, 16).unwrap())
                        .collect()),
                },
            }),
            "N" => {}
            k => panic!("{path}:{}: unknown record {k:?}", n + 1),
        }
    }
    d
}

/// Names of a section heading (`#### V_ADD_I32, V_ADD_CO_U32` names two).
fn section_names(s: &str) -> Vec<String> {
    // `V_ADD_I32, V_ADD_U32 (GCN 1.0/1.1/1.2)`: the parenthesis is a remark.
    let s = s.split('(').next().unwrap_or(s);
    s.split(',')
        .map(|x| x.trim().to_ascii_lowercase())
        .filter(|x| !x.is_empty())
        .collect()
}

/// risa's instructions named `name` (CLRX or LLVM spelling) in `gen`.
/// Only the CLRX spelling counts: the pages are CLRX's.
fn risa_ops(name: &str, gen: Gen) -> Vec<OpId> {
    find_by_name(name, gen)
        .filter(|(_, o)| o.clrx == name)
        .map(|(i, _)| i)
        .collect()
}

/// Names the page gives as other names of one instruction: several names in
/// one opcode-table cell (`LG, NE` in the VOPC tables) or one section heading
/// (`S_CMP_LG_U64, S_CMP_NE_U64`). risa prints one of them.
fn aliases(d: &Doc) -> BTreeMap<String, BTreeSet<String>> {
    let mut groups: BTreeMap<(String, u32, u32, String), BTreeSet<String>> = BTreeMap::new();
    for r in d.table.iter().filter(|r| r.page != "GcnInstrsFlat.md") {
        // (The FLAT page's `*_LOAD_UBYTE` rows name FLAT/GLOBAL/SCRATCH
        // instructions, not aliases.)
        let g: Vec<_> = r.gens.iter().map(|&g| gen_short(g)).collect();
        groups
            .entry((r.page.clone(), r.line, r.opcode, g.join(",")))
            .or_default()
            .insert(r.name.to_ascii_lowercase());
    }
    let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for names in groups.values().filter(|n| n.len() > 1) {
        for n in names {
            m.entry(n.clone()).or_default().extend(names.iter().filter(|x| *x != n).cloned());
        }
    }
    for (_, s, _) in &d.sections {
        let names = section_names(s);
        // Only true aliases: headings that name generations' variants are not.
        if names.len() > 1 && !s.contains('(') && !s.contains("SAD") {
            for n in &names {
                m.entry(n.clone()).or_default().extend(names.iter().filter(|x| *x != n).cloned());
            }
        }
    }
    m
}

/// risa's instructions for documented `name` in `gen`, under the name or,
/// when risa spells it differently, under a documented other name.
fn risa_ops_doc(al: &BTreeMap<String, BTreeSet<String>>, name: &str, gen: Gen) -> Vec<OpId> {
    let v = risa_ops(name, gen);
    if !v.is_empty() {
        return v;
    }
    al.get(name)
        .into_iter()
        .flatten()
        .flat_map(|a| risa_ops(a, gen))
        .collect()
}

fn risa_gens(al: &BTreeMap<String, BTreeSet<String>>, name: &str) -> BTreeSet<Gen> {
    ALL_GENS
        .into_iter()
        .filter(|&g| !risa_ops_doc(al, name, g).is_empty())
        .collect()
}

/// The opcode of `op` in `gen` in the encoding a page statement names.
fn risa_opcode(op: OpId, gen: Gen, enc: &str) -> Option<u32> {
    let info = &OPS[op as usize];
    match enc {
        "VOP3A" | "VOP3B" | "VOP3" | "VOP3page" => info.vop3_opcode(gen).map(u32::from),
        _ => info.opcode(gen).map(u32::from),
    }
}

/// The mnemonic of a syntax line, lower case.
fn mnemonic(syntax: &str) -> String {
    syntax.split_whitespace().next().unwrap_or("").to_ascii_lowercase()
}

// ---------------------------------------------------------------------------
// Exceptions: where the page is wrong. Each entry carries its evidence.

/// (name, generations the page gives, generations risa has, evidence).
const GEN_EXCEPTIONS: &[(&str, &str, &str, &str)] = &[
    ("image_atomic_rsub", "1.0,1.1", "1.0", "the page's own MIMG opcode table and LLVM's GFX7 instruction list give it to GCN 1.0 only; its Opcode line says 1.0/1.1 (llvm-mc -mcpu=hawaii accepts it anyway: docs/tables/mem.md, tools/tables/check_mem.py KNOWN_LAX)"),
    ("v_ashrrev_b16", "1.2", "", "heading typo: the VOP2 opcode table names opcode 44 V_ASHRREV_I16; llvm-mc -mcpu=fiji: 'v_ashrrev_b16' invalid instruction, did you mean v_ashrrev_i16"),
    ("s_buffer_store_dword", "", "1.2,1.4", "the SMEM opcode table labels opcodes 24-26 S_BUFFER_LOAD_*; they are S_BUFFER_STORE_* (llvm-mc -mcpu=fiji: s_buffer_store_dword s1, s[4:7], 0x0 -> [0x42,0x00,0x62,0xc0,..], op 0x18)"),
    ("s_buffer_store_dwordx2", "", "1.2,1.4", "the SMEM opcode table labels opcodes 24-26 S_BUFFER_LOAD_*; they are S_BUFFER_STORE_* (llvm-mc -mcpu=fiji: s_buffer_store_dword s1, s[4:7], 0x0 -> [0x42,0x00,0x62,0xc0,..], op 0x18)"),
    ("s_buffer_store_dwordx4", "", "1.2,1.4", "the SMEM opcode table labels opcodes 24-26 S_BUFFER_LOAD_*; they are S_BUFFER_STORE_* (llvm-mc -mcpu=fiji: s_buffer_store_dword s1, s[4:7], 0x0 -> [0x42,0x00,0x62,0xc0,..], op 0x18)"),
    ("s_scratch_load_dword", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_scratch_* ('instruction not supported on this GPU'), gfx900 accepts; the page's SMEM table ticks only the GCN 1.4 column"),
    ("s_scratch_store_dword", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_scratch_* ('instruction not supported on this GPU'), gfx900 accepts; the page's SMEM table ticks only the GCN 1.4 column"),
    ("s_scratch_load_dwordx2", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_scratch_* ('instruction not supported on this GPU'), gfx900 accepts; the page's SMEM table ticks only the GCN 1.4 column"),
    ("s_scratch_store_dwordx2", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_scratch_* ('instruction not supported on this GPU'), gfx900 accepts; the page's SMEM table ticks only the GCN 1.4 column"),
    ("s_scratch_load_dwordx4", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_scratch_* ('instruction not supported on this GPU'), gfx900 accepts; the page's SMEM table ticks only the GCN 1.4 column"),
    ("s_scratch_store_dwordx4", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_scratch_* ('instruction not supported on this GPU'), gfx900 accepts; the page's SMEM table ticks only the GCN 1.4 column"),
    ("s_dcache_discard", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects it ('instruction not supported on this GPU'), gfx900 encodes op 0x28"),
    ("s_dcache_discard_x2", "1.2,1.4", "1.4", "GCN 1.4 only: llvm-mc -mcpu=fiji rejects it ('instruction not supported on this GPU'), gfx900 encodes op 0x28"),
    ("s_atomic_add", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_add_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_and", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_and_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_cmpswap", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_cmpswap_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_dec", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_dec_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_inc", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_inc_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_or", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_or_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_smax", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_smax_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_smin", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_smin_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_sub", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_sub_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_swap", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_swap_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_umax", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_umax_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_umin", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_umin_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_xor", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_atomic_xor_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_add", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_add_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_and", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_and_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_cmpswap", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_cmpswap_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_dec", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_dec_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_inc", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_inc_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_or", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_or_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_smax", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_smax_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_smin", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_smin_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_sub", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_sub_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_swap", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_swap_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_umax", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_umax_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_umin", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_umin_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_xor", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("s_buffer_atomic_xor_x2", "1.2,1.4", "1.4", "scalar atomics are GCN 1.4 only: llvm-mc -mcpu=fiji rejects s_atomic_add/s_buffer_atomic_add ('instruction not supported on this GPU'), gfx900 accepts"),
    ("tbuffer_load_format_x", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_load_format_d16_x", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_store_format_x", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_store_format_d16_x", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_load_format_xy", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_load_format_d16_xy", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_store_format_xy", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_store_format_d16_xy", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_load_format_xyz", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_load_format_d16_xyz", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_store_format_xyz", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_store_format_d16_xyz", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_load_format_xyzw", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_load_format_d16_xyzw", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
    ("tbuffer_store_format_xyzw", "1.0,1.1,1.2", "1.0,1.1,1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_x (op 0)"),
    ("tbuffer_store_format_d16_xyzw", "1.2", "1.2,1.4", "the MTBUF opcode table has no GCN 1.4 column; llvm-mc -mcpu=gfx900 encodes tbuffer_load_format_d16_x"),
];

/// (page, line, name, generation, documented opcode, evidence): opcode
/// statements or table rows that are wrong.
const OPCODE_EXCEPTIONS: &[(&str, u32, &str, &str)] = &[
    ("GcnInstrsSmem.md", 77, "s_buffer_load_dword", "table row 24 is S_BUFFER_STORE_DWORD (llvm-mc fiji op 0x18)"),
    ("GcnInstrsSmem.md", 78, "s_buffer_load_dwordx2", "table row 25 is S_BUFFER_STORE_DWORDX2"),
    ("GcnInstrsSmem.md", 79, "s_buffer_load_dwordx4", "table row 26 is S_BUFFER_STORE_DWORDX4"),
    ("GcnInstrsVop1.md", 99, "v_readfirstlane_b32", "no VOP3 form: llvm-mc tahiti 'v_readfirstlane_b32_e64 s0, v1' -> e64 variant not supported"),
    ("GcnInstrsVop1.md", 170, "v_readfirstlane_b32", "no VOP3 form (llvm-mc rejects _e64)"),
    ("GcnInstrsVop1.md", 1219, "v_readfirstlane_b32", "no VOP3 form (llvm-mc rejects _e64)"),
    ("GcnInstrsVop1.md", 249, "v_swap_b32", "no VOP3 form: llvm-mc gfx900 'v_swap_b32_e64 v1, v2' -> e64 variant not supported"),
    ("GcnInstrsVop1.md", 1482, "v_swap_b32", "no VOP3 form (llvm-mc rejects _e64)"),
    ("GcnInstrsVop2.md", 97, "v_readlane_b32", "on GCN 1.0/1.1 v_readlane is VOP2-only: llvm-mc tahiti 'v_readlane_b32_e64 s0, v1, s2' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 98, "v_writelane_b32", "on GCN 1.0/1.1 VOP2-only (llvm-mc tahiti rejects _e64)"),
    ("GcnInstrsVop2.md", 1027, "v_readlane_b32", "on GCN 1.0/1.1 VOP2-only (llvm-mc tahiti rejects _e64)"),
    ("GcnInstrsVop2.md", 1294, "v_writelane_b32", "on GCN 1.0/1.1 VOP2-only (llvm-mc tahiti rejects _e64)"),
    ("GcnInstrsVop2.md", 119, "v_madmk_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 120, "v_madak_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 128, "v_madmk_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 129, "v_madak_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 132, "v_madmk_f16", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 133, "v_madak_f16", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 176, "v_madmk_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 177, "v_madak_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 189, "v_madmk_f16", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 190, "v_madak_f16", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 672, "v_madak_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 698, "v_madmk_f32", "no VOP3 form (it carries a literal): llvm-mc tahiti 'v_madmk_f32_e64 v1, v2, v3, v4' -> e64 variant not supported"),
    ("GcnInstrsVop2.md", 659, "v_madak_f16", "the Opcode line gives the VOP3 number 293 unlabelled; VOP2 opcode is 37 (llvm-mc fiji v_madak_f16 -> 0x4a020702)"),
    ("GcnInstrsVop2.md", 685, "v_madmk_f16", "the Opcode line gives the VOP3 number 292 unlabelled; VOP2 opcode is 36 (llvm-mc fiji v_madmk_f16 -> 0x48020702)"),
    ("GcnInstrsFlat.md", 762, "flat_load_short_d16_hi", "opcode is 37: llvm-mc gfx900 flat_load_short_d16_hi v1, v[2:3] -> 0xdc940000"),
    ("GcnInstrsFlat.md", 1361, "global_load_short_d16_hi", "opcode is 37 (like flat_load_short_d16_hi)"),
    ("GcnInstrsFlat.md", 1605, "scratch_load_short_d16_hi", "opcode is 37 (like flat_load_short_d16_hi)"),
    ("GcnInstrsMimg.md", 471, "image_atomic_smax", "opcode is 22 (the page's own table; llvm-mc tahiti -> 0xf0581100)"),
    ("GcnInstrsMimg.md", 567, "image_atomic_umin", "opcode is 21 (the page's own table; llvm-mc tahiti -> 0xf0541100)"),
    ("GcnInstrsMubuf.md", 875, "buffer_load_short_d16", "opcode is 36: llvm-mc gfx900 buffer_load_short_d16 v1, off, s[4:7], 0 -> 0xe0900000"),
    ("GcnInstrsMubuf.md", 950, "buffer_store_byte", "opcode is 24 (the page's own table; llvm-mc tahiti -> 0xe0600000)"),
    ("GcnInstrsMubuf.md", 1133, "buffer_store_short", "opcode is 26 on 1.4: llvm-mc gfx900 -> 0xe0680000"),
    ("GcnInstrsSmem.md", 993, "s_dcache_inv", "SMRD page's section on the SMEM page: GCN 1.0/1.1 opcode is 31 (llvm-mc tahiti s_dcache_inv -> 0xc7c00000)"),
    ("GcnInstrsSmem.md", 999, "s_dcache_inv_vol", "GCN 1.1 opcode is 29 (llvm-mc hawaii -> 0xc7400000)"),
    ("GcnInstrsSmem.md", 1069, "s_memtime", "GCN 1.0/1.1 opcode is 30 (llvm-mc tahiti s_memtime s[0:1] -> 0xc7800000)"),
    ("GcnInstrsSmrd.md", 117, "s_dcache_inv", "GCN 1.2/1.4 opcode is 32 (llvm-mc fiji -> 0xc0800000)"),
    ("GcnInstrsSmrd.md", 181, "s_memtime", "GCN 1.2/1.4 opcode is 36 (llvm-mc fiji -> 0xc0900000)"),
    ("GcnInstrsSop1.md", 586, "s_orn2_saveexec_b64", "GCN 1.4 opcode is 36 (llvm-mc gfx900 -> 0xbe802402)"),
    ("GcnInstrsVop1.md", 1246, "v_rndne_f32", "VOP3 opcode is 419 (0x1a3; the page writes 420): llvm-mc tahiti v_rndne_f32_e64 v1, v2 -> 0xd3460001"),
    ("GcnInstrsVop3.md", 1076, "v_interp_p2_f16", "GCN 1.4 opcode is 631: llvm-mc gfx900 v_interp_p2_f16 v1, v2, attr0.x, v3 -> 0xd2770001"),
];

/// (page, line, evidence): syntax lines whose operand list is wrong.
const SYNTAX_EXCEPTIONS: &[(&str, u32, &str)] = &[];

/// Documented spelling variants: (documented, risa's CLRX text, reason). The
/// test replaces the documented spelling in the page's example before comparing.
const SPELLING: &[(&str, &str, &str)] = &[];

// ---------------------------------------------------------------------------

/// Generations the page gives each documented name: its opcode-table rows and
/// the generations its opcode statements name.
fn doc_gens(d: &Doc) -> BTreeMap<String, BTreeSet<Gen>> {
    let mut m: BTreeMap<String, BTreeSet<Gen>> = BTreeMap::new();
    for r in &d.table {
        m.entry(r.name.to_ascii_lowercase())
            .or_default()
            .extend(r.gens.iter().copied());
    }
    for o in &d.opcodes {
        let names = section_names(&o.section);
        if let (Some(g), [name]) = (&o.gens, names.as_slice()) {
            m.entry(name.clone()).or_default().extend(g.iter().copied());
        }
    }
    // In a section naming several instructions, each syntax line names one.
    for s in &d.syntaxes {
        if let (Some(g), true) = (&s.gens, section_names(&s.section).len() > 1) {
            m.entry(mnemonic(&s.text)).or_default().extend(g.iter().copied());
        }
    }
    for (_, s, _) in &d.sections {
        for n in section_names(s) {
            m.entry(n).or_default();
        }
    }
    m
}

#[test]
fn every_documented_instruction_exists_in_the_documented_generations() {
    let d = load();
    let dg = doc_gens(&d);
    let al = aliases(&d);
    let mut bad = Vec::new();
    let mut checked = 0;
    for (name, gens) in &dg {
        let have = risa_gens(&al, name);
        checked += 1;
        if &have == gens {
            continue;
        }
        let (dt, rt) = (gens_text(gens), gens_text(&have));
        if GEN_EXCEPTIONS
            .iter()
            .any(|&(n, a, b, _)| n == name && a == dt && b == rt)
        {
            continue;
        }
        bad.push(format!("{name}: page {dt:?}, risa {rt:?}"));
    }
    for &(n, a, b, _) in GEN_EXCEPTIONS {
        let gens = dg.get(n).map(gens_text);
        assert_eq!(gens.as_deref(), Some(a), "stale exception {n}");
        assert_eq!(gens_text(&risa_gens(&al, n)), b, "stale exception {n}");
    }
    eprintln!("instructions checked: {checked}");
    assert!(checked > 1000, "only {checked} instructions");
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_documented_opcode_matches() {
    let d = load();
    let dg = doc_gens(&d);
    let al = aliases(&d);
    let mut bad = Vec::new();
    let mut checked = 0;
    let mut check =
        |page: &str, line: u32, name: &str, gen: Gen, enc: &str, want: &[u32], bad: &mut Vec<String>| {
            let ops = risa_ops_doc(&al, name, gen);
            if ops.is_empty() {
                return; // reported by the existence test
            }
            checked += 1;
            let got: Vec<Option<u32>> = ops.iter().map(|&o| risa_opcode(o, gen, enc)).collect();
            if got.iter().any(|g| g.is_some_and(|g| want.contains(&g))) {
                return;
            }
            if OPCODE_EXCEPTIONS
                .iter()
                .any(|&(p, l, n, _)| p == page && l == line && n == name)
            {
                return;
            }
            bad.push(format!(
                "{page}:{line}: {name} {} {enc}: page {want:?}, risa {got:?}",
                gen_short(gen)
            ));
        };
    // The VOP3 page gives VOP3 opcodes (also of VINTRP's VOP3 form).
    let native = |page: &str, enc: &str| -> String {
        match (page, enc) {
            ("GcnInstrsVop3.md", "-") => "VOP3page".into(),
            _ => enc.into(),
        }
    };
    for r in &d.table {
        let name = r.name.to_ascii_lowercase();
        for &g in &r.gens {
            check(&r.page, r.line, &name, g, &native(&r.page, "-"), &[r.opcode], &mut bad);
            if let Some(v) = r.vop3 {
                check(&r.page, r.line, &name, g, "VOP3", &[v], &mut bad);
            }
        }
    }
    for o in &d.opcodes {
        for name in section_names(&o.section) {
            let gens: Vec<Gen> = match &o.gens {
                Some(g) => g.clone(),
                None => dg.get(&name).map(|s| s.iter().copied().collect()).unwrap_or_default(),
            };
            // A statement with several names covers the generations of each.
            for g in gens {
                if !dg.get(&name).is_some_and(|s| s.contains(&g)) && o.gens.is_none() {
                    continue;
                }
                let want = if o.dec == o.hex { vec![o.dec] } else { vec![o.dec, o.hex] };
                check(&o.page, o.line, &name, g, &native(&o.page, &o.enc), &want, &mut bad);
            }
        }
    }
    eprintln!("opcodes checked: {checked}");
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}
