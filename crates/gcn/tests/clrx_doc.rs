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
use risa_gcn::table::{find_by_name, OpId};
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
    g.iter()
        .map(|&g| gen_short(g))
        .collect::<Vec<_>>()
        .join(",")
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
            m.entry(n.clone())
                .or_default()
                .extend(names.iter().filter(|x| *x != n).cloned());
        }
    }
    for (_, s, _) in &d.sections {
        let names = section_names(s);
        // Only true aliases: headings that name generations' variants are not.
        if names.len() > 1 && !s.contains('(') && !s.contains("SAD") {
            for n in &names {
                m.entry(n.clone())
                    .or_default()
                    .extend(names.iter().filter(|x| *x != n).cloned());
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
    syntax
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

// ---------------------------------------------------------------------------
// Exceptions: where the page is wrong. Each entry carries its evidence.

/// (name, generations the page gives, generations risa has, evidence).
const GEN_EXCEPTIONS: &[(&str, &str, &str, &str)] = &[
    ("image_atomic_rsub", "1.0,1.1", "1.0", "the page's own MIMG opcode table and LLVM's GFX7 instruction list give it to GCN 1.0 only; its Opcode line says 1.0/1.1 (llvm-mc -mcpu=hawaii accepts it anyway: docs/tables/mem.md, tools/tables/check_mem.py KNOWN_LAX)"),
    ("buffer_store_byte_d16", "1.4", "", "the MUBUF opcode table names opcode 25 BUFFER_STORE_BYTE_D16, its own section BUFFER_STORE_BYTE_D16_HI; clrxasm 0.1.9 rejects buffer_store_byte_d16 ('Unknown instruction') and clrxdisasm prints opcode 25 as buffer_store_byte_d16_hi, as llvm-mc does"),
    ("buffer_store_short_d16", "1.4", "", "the MUBUF opcode table names opcode 27 BUFFER_STORE_SHORT_D16; clrxasm 0.1.9 rejects buffer_store_short_d16 and clrxdisasm prints opcode 27 as buffer_store_short_d16_hi, as llvm-mc does"),
    ("v_interp_p2_f16_legacy", "1.4", "", "the VOP3 opcode table's name; clrxasm 0.1.9 rejects it ('Unknown instruction') and takes v_interp_p2_legacy_f16, LLVM's name, which clrxdisasm prints for opcode 0x276 on GFX900"),
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
const SYNTAX_EXCEPTIONS: &[(&str, u32, &str)] = &[
    ("GcnInstrsDs.md", 919, "DS_MAX_F32 returns nothing: llvm-mc tahiti 'ds_max_f32 v1, v2' assembles; the VDST belongs to DS_MAX_RTN_F32"),
    ("GcnInstrsDs.md", 932, "DS_MAX_F64 returns nothing (VDST belongs to DS_MAX_RTN_F64)"),
    ("GcnInstrsDs.md", 1177, "DS_MIN_F32 returns nothing: llvm-mc tahiti 'ds_min_f32 v175, v254 offset:9881' -> [0x99,0x26,0x48,0xd8,..]"),
    ("GcnInstrsDs.md", 1190, "DS_MIN_F64 returns nothing (VDST belongs to DS_MIN_RTN_F64)"),
    ("GcnInstrsDs.md", 1441, "DS_NOP has no operand: llvm-mc hawaii 'ds_nop' -> [0x00,0x00,0x50,0xd8,..]"),
    ("GcnInstrsFlat.md", 355, "FLAT_ATOMIC_FCMPSWAP_X2 syntax copied from MUBUF (SRSRC, SOFFSET); FLAT has VDST, VADDR(2), VDATA(4)"),
    ("GcnInstrsFlat.md", 681, "typo 'VDST(, VADDR(2)' (VDST(2) meant)"),
    ("GcnInstrsFlat.md", 1280, "typo 'VDST(' in the operand list"),
    ("GcnInstrsFlat.md", 1524, "typo 'VDST(' in the operand list"),
    ("GcnInstrsSmem.md", 252, "S_ATOMIC_DEC_X2 SDATA is 2 registers: llvm-mc gfx900 rejects s0, takes s[0:1] (docs/tables/scalar.md)"),
    ("GcnInstrsSmem.md", 620, "S_BUFFER_ATOMIC_DEC_X2 SDATA is 2 registers (as S_ATOMIC_DEC_X2)"),
    ("GcnInstrsSmem.md", 1092, "S_SCRATCH_LOAD_DWORDX2 SDATA is 2 registers: llvm-mc gfx900 rejects s0 (docs/tables/scalar.md)"),
    ("GcnInstrsSmem.md", 1102, "S_SCRATCH_LOAD_DWORDX4 SDATA is 4 registers"),
    ("GcnInstrsSop1.md", 190, "S_BCNT1_I32_B64 reads a 64-bit SSRC0 (the _B64 suffix; llvm-mc takes s[6:7])"),
    ("GcnInstrsSop1.md", 487, "S_MOVRELD_B64 writes SDST(2)"),
    ("GcnInstrsSop1.md", 573, "typo 'SDST(2), SDST(2)': the source is SSRC0(2) (llvm-mc: s_or_saveexec_b64 s[30:31], 0xde13f28e)"),
    ("GcnInstrsSop2.md", 228, "S_BFE_I64 writes SDST(2) and reads SSRC0(2)"),
    ("GcnInstrsSop2.md", 354, "S_CSELECT_B32 is 32-bit: SDST, SSRC0, SSRC1 (the (2) counts belong to S_CSELECT_B64)"),
    ("GcnInstrsSopc.md", 246, "S_SET_GPR_IDX_ON SSRC0(0) is a typo for SSRC0 (one SGPR)"),
    ("GcnInstrsVop1.md", 597, "V_CVT_NORM_I16_F16 reads a 16-bit SRC0, not 2 registers"),
    ("GcnInstrsVop1.md", 611, "V_CVT_NORM_U16_F16 reads a 16-bit SRC0, not 2 registers"),
    ("GcnInstrsVop1.md", 1070, "V_MOVRELD_B32 SRC0 is any source: llvm-mc tahiti 'v_movreld_b32 v45, 16' -> [0x90,0x84,0x5a,0x7e]"),
    ("GcnInstrsVop2.md", 1295, "V_WRITELANE_B32 SRC0 is a scalar or constant: llvm-mc tahiti 'v_writelane_b32 v13, 32, s57' -> [0xa0,0x72,0x1a,0x04]"),
    ("GcnInstrsVop3.md", 2118, "V_WRITELANE_B32 SRC0 is a scalar or constant (as above)"),
    ("GcnInstrsVop3.md", 372, "V_ASHR_I32 is 32-bit: VDST, SRC0, SRC1 (the (2) counts belong to V_ASHR_I64)"),
    ("GcnInstrsVop3.md", 382, "V_ASHRREV_I32 is 32-bit (the (2) counts belong to V_ASHRREV_I64)"),
    ("GcnInstrsVop3.md", 1035, "V_INTERP_P1LL_F16 has no VSRC1 (that is V_INTERP_P1LV_F16): llvm-mc fiji 'v_interp_p1ll_f16 v155, -v73, attr14.x mul:4' -> [0x9b,0x00,0x74,0xd2,..]"),
    ("GcnInstrsVop3.md", 300, "the VOP3 page's V_ADD_I32 (GCN 1.4, no carry) section shares the name of the VOP2 V_ADD_I32 (GCN 1.0/1.1, carry VCC)"),
    ("GcnInstrsVop3.md", 2074, "the VOP3 page's V_SUB_I32 (GCN 1.4) section shares the name of the VOP2 V_SUB_I32 (GCN 1.0/1.1, carry VCC)"),
    ("GcnInstrsVopc.md", 209, "VOP3 SDST of a compare is 2 registers (the page's VOP3 syntax says SDST(2))"),
    ("GcnInstrsVopc.md", 233, "VOP3 SDST of a compare is 2 registers"),
    ("GcnInstrsVopc.md", 258, "VOP3 SDST of a compare is 2 registers"),
    ("GcnInstrsVopc.md", 282, "VOP3 SDST of a compare is 2 registers"),
    ("GcnInstrsVopc.md", 306, "VOP3 SDST of a compare is 2 registers"),
    ("GcnInstrsVopc.md", 330, "VOP3 SDST of a compare is 2 registers"),
    ("GcnInstrsVopc.md", 305, "V_CMP_CLASS_F64's class mask SRC1 is 32-bit: llvm-mc tahiti 'v_cmp_class_f64 vcc, 13, v3' -> [0x8d,0x06,0x50,0x7d]"),
    ("GcnInstrsMubuf.md", 983, "BUFFER_STORE_DWORDX3 section's syntax line names BUFFER_STORE_DWORDX2 with VDATA(3)"),
    ("GcnInstrsMubuf.md", 996, "BUFFER_STORE_DWORDX4 section's syntax line names BUFFER_STORE_DWORDX2 with VDATA(4)"),
    ("GcnInstrsMtbuf.md", 117, "TBUFFER_LOAD_FORMAT_XYZ on GCN 1.4 takes VDATA(3) (copied from the D16 line): llvm-mc gfx900 rejects v[1:2] ('invalid operand') and takes v[1:3]"),
    ("GcnInstrsVopc.md", 329, "V_CMPX_CLASS_F64's class mask SRC1 is 32-bit"),
];

/// Documented spelling variants: (documented, risa's CLRX text, reason). The
/// test replaces the documented spelling in the page's example before comparing.
const SPELLING: &[(&str, &str, &str)] = &[
    (
        "_sel:byte_",
        "_sel:byte",
        "GcnSdwaDpp.md's SDWA selector table: BYTE_1 = BYTE1 = B1",
    ),
    ("_sel:b0", "_sel:byte0", "GcnSdwaDpp.md: B0 = BYTE0"),
    ("_sel:b1", "_sel:byte1", "GcnSdwaDpp.md: B1 = BYTE1"),
    ("_sel:b2", "_sel:byte2", "GcnSdwaDpp.md: B2 = BYTE2"),
    ("_sel:b3", "_sel:byte3", "GcnSdwaDpp.md: B3 = BYTE3"),
    (
        "_sel:word_",
        "_sel:word",
        "GcnSdwaDpp.md: WORD_1 = WORD1 = W1",
    ),
    ("_sel:w0", "_sel:word0", "GcnSdwaDpp.md: W0 = WORD0"),
    ("_sel:w1", "_sel:word1", "GcnSdwaDpp.md: W1 = WORD1"),
    (
        "bound_ctrl:0",
        "bound_ctrl",
        "GcnSdwaDpp.md: `bound_ctrl` or `bound_ctrl:0` set the same flag",
    ),
    (
        "row_mask:0b1100",
        "row_mask:0xc",
        "the same number written in binary",
    ),
    (
        "bank_mask:0b0101",
        "bank_mask:0x5",
        "the same number written in binary",
    ),
];

/// Modifiers risa prints with their default value where the page's example
/// leaves them out (the words are llvm-mc's, which fills in its defaults):
/// DPP masks default to 0xf; llvm-mc's SDWA default dst_unused is PRESERVE
/// (its encoding of example GcnSdwaDpp.md:60 has DST_UNUSED=2), a wave
/// shift's count is always 1 (GcnSdwaDpp.md's DPP table: `wave_shl:1`).
const DEFAULTS: &[&str] = &["row_mask:0xf", "bank_mask:0xf", "dst_unused:preserve"];
const WAVE_SHIFTS: &[&str] = &["wave_shl", "wave_shr", "wave_rol", "wave_ror"];

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
            m.entry(mnemonic(&s.text))
                .or_default()
                .extend(g.iter().copied());
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
    let mut check = |page: &str,
                     line: u32,
                     name: &str,
                     gen: Gen,
                     enc: &str,
                     want: &[u32],
                     bad: &mut Vec<String>| {
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
            check(
                &r.page,
                r.line,
                &name,
                g,
                &native(&r.page, "-"),
                &[r.opcode],
                &mut bad,
            );
            if let Some(v) = r.vop3 {
                check(&r.page, r.line, &name, g, "VOP3", &[v], &mut bad);
            }
        }
    }
    for o in &d.opcodes {
        for name in section_names(&o.section) {
            let gens: Vec<Gen> = match &o.gens {
                Some(g) => g.clone(),
                None => dg
                    .get(&name)
                    .map(|s| s.iter().copied().collect())
                    .unwrap_or_default(),
            };
            // A statement with several names covers the generations of each.
            for g in gens {
                if !dg.get(&name).is_some_and(|s| s.contains(&g)) && o.gens.is_none() {
                    continue;
                }
                let want = if o.dec == o.hex {
                    vec![o.dec]
                } else {
                    vec![o.dec, o.hex]
                };
                check(
                    &o.page,
                    o.line,
                    &name,
                    g,
                    &native(&o.page, &o.enc),
                    &want,
                    &mut bad,
                );
            }
        }
    }
    eprintln!("opcodes checked: {checked}");
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}

// ---------------------------------------------------------------------------
// Syntax lines.

/// What a documented operand may print as.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A VGPR or VGPR range; allowed register counts.
    Vgpr(Vec<u32>),
    /// A scalar register or range (SGPR, TTMP, special); allowed counts.
    Sreg(Vec<u32>),
    /// Any source: register of the counts, constant, literal, modifiers.
    Src(Vec<u32>),
    /// `vcc`.
    Vcc,
    /// A number, label or expression (also hwreg/sendmsg/waitcnt/attr text).
    Imm,
}

/// One documented operand: its kind and whether `off` may replace it.
#[derive(Debug, Clone)]
struct DocOpnd {
    name: String,
    kind: Kind,
    off: bool,
}

/// Register counts of `NAME(2)`, `(1:4)`, `(4,8)`; 1 when none is given.
fn counts(spec: Option<&str>) -> Result<Vec<u32>, String> {
    let num = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| format!("bad count {spec:?}"))
    };
    Ok(match spec {
        None => vec![1],
        Some(s) if s.contains(':') => {
            let (a, b) = s.split_once(':').unwrap();
            (num(a)?..=num(b)?).collect()
        }
        Some(s) => s.split(',').map(num).collect::<Result<_, _>>()?,
    })
}

/// Splits at top-level commas (not inside brackets or parentheses).
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The mandatory operands and the optional modifier names of a syntax line.
fn parse_syntax(text: &str) -> Result<(Vec<DocOpnd>, Vec<String>), String> {
    let rest = text.split_once(' ').map(|x| x.1).unwrap_or("");
    // Optional `[...]` items: modifiers.
    let mut mods = Vec::new();
    let mut plain = String::new();
    let mut depth = 0;
    let mut item = String::new();
    for c in rest.chars() {
        match c {
            '[' if depth == 0 && !plain.trim_end().ends_with(':') => {
                depth = 1;
                item.clear();
            }
            ']' if depth == 1 => {
                depth = 0;
                mods.push(item.split(':').next().unwrap().trim().to_ascii_lowercase());
            }
            _ if depth == 1 => item.push(c),
            _ => plain.push(c),
        }
    }
    let mut ops = Vec::new();
    for raw in split_top(&plain) {
        // `SGPROFFSET OFFSET:OFFSET`: the second word is a modifier.
        let mut words = raw.split_whitespace();
        let first = words.next().ok_or("empty operand")?;
        for w in words {
            mods.push(w.split(':').next().unwrap().to_ascii_lowercase());
        }
        let (body, off) = match first.strip_suffix("|OFF") {
            Some(b) => (b, true),
            None => (first, false),
        };
        let (name, spec) = match body.split_once('(') {
            Some((n, s)) => (n, Some(s.trim_end_matches(')'))),
            None => (body, None),
        };
        let base: String = name.trim_end_matches(|c: char| c.is_ascii_digit()).into();
        let kind = match base.as_str() {
            "VDST" | "VDATA" | "VADDR" | "VSRC" | "ADDR" | "DST" => Kind::Vgpr(counts(spec)?),
            "SDST" | "SDATA" | "SBASE" | "SRSRC" | "SSAMP" | "SADDR" => Kind::Sreg(counts(spec)?),
            "SSRC" | "SRC" | "SOFFSET" | "SGPROFFSET" => Kind::Src(counts(spec)?),
            "VCC" => Kind::Vcc,
            "SIMM"
            | "IMM"
            | "RELADDR"
            | "OFFSET"
            | "FLOATLIT"
            | "FLOAT16LIT"
            | "PARAMTYPE"
            | "HWREG"
            | "SENDMSG"
            | "ATTR.ATTRCHAN"
            | "ATTR{ATTR_NUM}.{ATTRCHAN}" => Kind::Imm,
            _ if first.starts_with("VMCNT") => Kind::Imm,
            _ => return Err(format!("unknown operand {first:?}")),
        };
        ops.push(DocOpnd {
            name: name.into(),
            kind,
            off,
        });
    }
    Ok((ops, mods))
}

/// Register count of a printed register operand (`v[3:4]` → 2), after
/// stripping source modifiers; None when it is no register.
fn reg_count(t: &str) -> Option<(char, u32)> {
    let mut t = t.trim_start_matches('-');
    for p in ["abs(", "neg(", "sext(", "|"] {
        t = t.strip_prefix(p).unwrap_or(t);
    }
    let t = t.trim_end_matches([')', '|']);
    let special2 = ["vcc", "exec", "flat_scratch", "tba", "tma", "xnack_mask"];
    if special2.contains(&t) {
        return Some(('s', 2));
    }
    let special1 = [
        "vcc_lo",
        "vcc_hi",
        "exec_lo",
        "exec_hi",
        "m0",
        "scc",
        "vccz",
        "execz",
        "src_scc",
        "flat_scratch_lo",
        "flat_scratch_hi",
        "tba_lo",
        "tba_hi",
        "tma_lo",
        "tma_hi",
        "xnack_mask_lo",
        "xnack_mask_hi",
        "lds_direct",
    ];
    if special1.contains(&t) {
        return Some(('s', 1));
    }
    let (class, rest) = if let Some(r) = t.strip_prefix("ttmp") {
        ('s', r)
    } else if let Some(r) = t.strip_prefix('s') {
        ('s', r)
    } else if let Some(r) = t.strip_prefix('v') {
        ('v', r)
    } else {
        return None;
    };
    if let Some(r) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = r.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        return Some((class, b - a + 1));
    }
    rest.parse::<u32>().ok().map(|_| (class, 1))
}

/// Checks one printed operand against its documentation.
fn operand_ok(d: &DocOpnd, t: &str) -> bool {
    if d.off && t == "off" {
        return true;
    }
    match &d.kind {
        Kind::Vgpr(c) => matches!(reg_count(t), Some(('v', n)) if c.contains(&n)),
        Kind::Sreg(c) => matches!(reg_count(t), Some(('s', n)) if c.contains(&n)),
        Kind::Src(c) => match reg_count(t) {
            Some((_, n)) => c.contains(&n),
            None => !t.is_empty(), // constant or literal
        },
        Kind::Vcc => t == "vcc",
        Kind::Imm => !t.is_empty(),
    }
}

/// The encodings a syntax line describes.
fn encs_for(page: &str, enc: &str, all: &[Enc]) -> Vec<Enc> {
    let pick = |want: &[Enc]| all.iter().copied().filter(|e| want.contains(e)).collect();
    match enc {
        "VOP2" | "VOP1" | "VOPC" => pick(&[
            Enc::Vop2,
            Enc::Vop1,
            Enc::Vopc,
            Enc::Vop2Sdwa,
            Enc::Vop1Sdwa,
            Enc::VopcSdwa,
            Enc::Vop2Dpp,
            Enc::Vop1Dpp,
            Enc::VopcDpp,
        ]),
        "VOP3A" | "VOP3B" | "VOP3" => pick(&[Enc::Vop3, Enc::Vop3b]),
        // Unqualified lines of the VOP1/VOP2/VOPC/VINTRP pages describe the
        // native encoding; those of other pages the only one.
        _ if page == "GcnInstrsVintrp.md" => pick(&[Enc::Vintrp]),
        _ => all.to_vec(),
    }
}

/// Modifiers every page's encodings allow besides those on the syntax line
/// (the pages list them once per encoding, not per instruction).
const ENC_MODIFIERS: &[&str] = &[
    "offset",
    "offset0",
    "offset1",
    "gds",
    "glc",
    "slc",
    "tfe",
    "lds",
    "offen",
    "idxen",
    "addr64",
    "format",
    "dmask",
    "unorm",
    "da",
    "r128",
    "lwe",
    "a16",
    "d16",
    "clamp",
    "mul",
    "div",
    "vop3",
    // clrxdisasm 0.1.9 prints `sdwa` for an SDWA instruction whose selects
    // all have their defaults (`v_add_f32 v2, v1, v2 sdwa` for [020404f9
    // 06060601]); the pages do not show it.
    "sdwa",
    // clrxdisasm 0.1.9 names the GCN 1.4 FLAT/GLOBAL/SCRATCH offset
    // `inst_offset:` (`global_atomic_smin v199, v91, v78, ttmp[4:5]
    // inst_offset:1228 lds glc` for [dd11a4cc c7704e5b]); the pages write `offset:`.
    "inst_offset",
    // The pages write modifiers of a source as `-x`/`abs(x)`, which clrxasm
    // 0.1.9 reads as an expression on a constant; it takes the bits of a
    // constant from `abs:`/`neg:` masks (`v_cmp_gt_f64 s[0:1], 36, s[64:65]
    // abs:1` -> [d0640100 000080a4], clrxdisasm: `abs(36)`), the pages do not
    // show them.
    "abs",
    "neg",
    "op_sel",
    "op_sel_hi",
    "neg_lo",
    "neg_hi",
    "dst_sel",
    "dst_unused",
    "src0_sel",
    "src1_sel",
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "wave_shl",
    "wave_shr",
    "wave_rol",
    "wave_ror",
    "row_mirror",
    "row_half_mirror",
    "row_bcast",
    // clrxdisasm 0.1.9 writes the row broadcasts `row_bcast15`/`row_bcast31`
    // (`v_max_i32 v30, v66, v26 row_bcast31 bound_ctrl bank_mask:8
    // row_mask:9` for [1a3c34fa 98094342]), and the wave shifts without `:1`;
    // the pages write `row_bcast:15` and `wave_shl:1`. The printer follows
    // clrxdisasm (clrxasm and risa take both).
    "row_bcast15",
    "row_bcast31",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
    "high",
    "nv",
];

#[test]
fn random_instances_print_with_the_documented_syntax() {
    let d = load();
    let dg = doc_gens(&d);
    let al = aliases(&d);
    let mut rng = Rng::new(0xc1a5_d0c5);
    let mut bad = Vec::new();
    let mut per_gen = [0usize; 4];
    let mut lines_checked = 0;
    for s in &d.syntaxes {
        let name = mnemonic(&s.text);
        if SYNTAX_EXCEPTIONS
            .iter()
            .any(|&(p, l, _)| p == s.page && l == s.line)
        {
            continue;
        }
        let (ops, mods) = match parse_syntax(&s.text) {
            Ok(x) => x,
            Err(e) => {
                bad.push(format!("{}:{}: {e}", s.page, s.line));
                continue;
            }
        };
        // An unqualified line covers the generations of its section's opcode
        // statements when they all name some, else all the page gives it.
        let stmt: Vec<&Opc> = d
            .opcodes
            .iter()
            .filter(|o| o.page == s.page && o.section == s.section)
            .collect();
        let gens: Vec<Gen> = match &s.gens {
            Some(g) => g.clone(),
            None if !stmt.is_empty() && stmt.iter().all(|o| o.gens.is_some()) => {
                let set: BTreeSet<Gen> =
                    stmt.iter().flat_map(|o| o.gens.clone().unwrap()).collect();
                set.into_iter().collect()
            }
            None => dg
                .get(&name)
                .map(|g| g.iter().copied().collect())
                .unwrap_or_default(),
        };
        // ...except the generations another line of the section is qualified with.
        let gens: Vec<Gen> = if s.gens.is_none() {
            let other: BTreeSet<Gen> = d
                .syntaxes
                .iter()
                .filter(|o| o.page == s.page && o.section == s.section && o.enc == s.enc)
                .filter(|o| mnemonic(&o.text) == name)
                .flat_map(|o| o.gens.clone().unwrap_or_default())
                .collect();
            gens.into_iter().filter(|g| !other.contains(g)).collect()
        } else {
            gens
        };
        lines_checked += 1;
        for gen in gens {
            let ids = risa_ops_doc(&al, &name, gen);
            if ids.is_empty() {
                continue; // the existence test reports it
            }
            for &id in &ids {
                let info = &OPS[id as usize];
                for enc in encs_for(&s.page, &s.enc, &variants(info, gen)) {
                    for _ in 0..8 {
                        let Some(i) = random_instr(&mut rng, gen, id, enc) else {
                            continue;
                        };
                        let (w, n) = i.words();
                        let mut words = w[..n].to_vec();
                        words.extend(i.lit);
                        let i2 = match decode(gen, &words) {
                            Ok(x) => x,
                            Err(e) => {
                                bad.push(format!("{name} {gen} {enc:?} {words:08x?}: {e}"));
                                continue;
                            }
                        };
                        per_gen[gen as usize] += 1;
                        let text = print(&i2, Dialect::Clrx);
                        if let Err(e) = check_text(&text, &name, &al, &ops, &mods) {
                            bad.push(format!(
                                "{}:{}: {gen} {enc:?} {words:08x?}: {text:?}: {e}",
                                s.page, s.line
                            ));
                        }
                    }
                }
            }
        }
    }
    eprintln!("syntax lines checked: {lines_checked}, instances per generation: {per_gen:?}");
    bad.sort();
    bad.dedup_by(|a, b| a.split(':').take(2).eq(b.split(':').take(2)));
    assert!(
        bad.is_empty(),
        "{} lines differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Whether `text` (risa's CLRX output) fits the documented syntax.
fn check_text(
    text: &str,
    name: &str,
    al: &BTreeMap<String, BTreeSet<String>>,
    ops: &[DocOpnd],
    mods: &[String],
) -> Result<(), String> {
    let (mn, rest) = text.split_once(' ').unwrap_or((text, ""));
    if mn != name && !al.get(name).is_some_and(|a| a.contains(mn)) {
        return Err(format!("mnemonic {mn:?}"));
    }
    // Operands: top-level comma list; the last one ends at the first space
    // outside brackets, the rest are modifiers.
    let mut parts = split_top(rest);
    let mut modtext = String::new();
    if let Some(last) = parts.pop() {
        let (mut depth, mut cut) = (0i32, last.len());
        for (k, c) in last.char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ' ' if depth == 0 => {
                    cut = k;
                    break;
                }
                _ => {}
            }
        }
        if ops.is_empty() {
            modtext = last.clone();
        } else {
            parts.push(last[..cut].to_string());
            modtext = last[cut..].trim().to_string();
        }
    }
    // s_waitcnt prints its counters separated by spaces.
    let waitcnt = ops.first().is_some_and(|o| o.name.starts_with("VMCNT"));
    if waitcnt {
        return Ok(());
    }
    // A FLAT atomic without GLC has no VDST (documented on GcnInstrsFlat.md).
    let mut ops: Vec<DocOpnd> = ops.to_vec();
    let atomic_noglc = (name.contains("_atomic_"))
        && !modtext.split_whitespace().any(|m| m == "glc")
        && ops.first().is_some_and(|o| o.name == "VDST");
    if atomic_noglc && parts.len() + 1 == ops.len() {
        ops.remove(0);
    }
    // MUBUF/MTBUF: "VADDR is optional if no IDXEN, OFFEN and ADDR64"
    // (GcnInstrsMubuf.md, instruction syntax), and risa leaves it out then.
    let buffer = name.starts_with("buffer_") || name.starts_with("tbuffer_");
    let no_addr_mode = !modtext
        .split_whitespace()
        .any(|m| matches!(m, "offen" | "idxen" | "addr64"));
    if buffer && no_addr_mode && parts.len() + 1 == ops.len() {
        ops.retain(|o| o.name != "VADDR");
    }
    if parts.len() != ops.len() {
        return Err(format!(
            "{} operands, documented {}",
            parts.len(),
            ops.len()
        ));
    }
    for (k, (o, t)) in ops.iter().zip(&parts).enumerate() {
        let mut o = o.clone();
        // VARIANT: the MIMG VADDR width is not encoded in the instruction (it
        // depends on the image dimension): the disassembler prints one width
        // (LLVM's choice), which may be below the page's minimum.
        if let (true, Kind::Vgpr(c)) = (o.name == "VADDR" && name.starts_with("image_"), &o.kind) {
            o.kind = Kind::Vgpr((1..=*c.iter().max().unwrap()).collect());
        }
        // VARIANT: GCN 1.4 SDWA VOPC may write any SGPR pair instead of VCC
        // (llvm-mc gfx900: v_cmp_class_f16_sdwa s[30:31], v108, sext(v1)
        // src0_sel:BYTE_3 src1_sel:BYTE_0 -> [0xf9,0x02,0x28,0x7c,0x6c,0x9e,0x03,0x08]).
        let sdwa = modtext.contains("_sel:") || modtext.contains("sdwa");
        if o.kind == Kind::Vcc && k == 0 && sdwa {
            o.kind = Kind::Sreg(vec![2]);
            if t == "vcc" {
                continue;
            }
        }
        let o = &o;
        if !operand_ok(o, t) {
            return Err(format!("operand {t:?} is not {} ({:?})", o.name, o.kind));
        }
    }
    for m in modtext.split_whitespace() {
        let key = m.split(':').next().unwrap();
        if !mods.iter().any(|x| x == key) && !ENC_MODIFIERS.contains(&key) {
            return Err(format!("modifier {m:?} not documented"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Literal examples.

/// Examples llvm-mc cannot assemble, with the reason (checked: the error is
/// stored in the data file).
const EXAMPLE_UNASSEMBLED: &[(&str, u32, &str)] = &[(
    "GcnOperands.md",
    106,
    "CLRX's lit() (force a literal) has no llvm-mc 14 spelling",
)];

/// Normal form of an instruction text for comparison: lower case, no space
/// after commas, the `# comment` of the VOPC samples cut, the words sorted
/// after the operand list (the pages: "modifiers can be supplied in any order").
fn normal(t: &str) -> Vec<String> {
    let mut t = t.to_ascii_lowercase().replace(", ", ",");
    if let Some(k) = t.find(" #") {
        t.truncate(k);
    }
    let mut w: Vec<String> = t.split_whitespace().map(String::from).collect();
    if w.len() > 2 {
        w[2..].sort();
    }
    w
}

/// Rewrites a documented example into the spelling risa's CLRX printer uses.
fn respell(doc: &str) -> Vec<String> {
    normal(doc)
        .into_iter()
        .map(|mut w| {
            for &(from, to, _) in SPELLING {
                w = w.replace(from, to);
            }
            if WAVE_SHIFTS.contains(&w.as_str()) {
                w.push_str(":1");
            }
            w
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect::<Vec<_>>()
}

#[test]
fn every_literal_example_decodes_to_the_documented_text() {
    let d = load();
    let mut bad = Vec::new();
    let mut per_gen = [0usize; 4];
    for e in &d.examples {
        let words = match &e.words {
            Ok(w) => w,
            Err(why) => {
                if !EXAMPLE_UNASSEMBLED
                    .iter()
                    .any(|&(p, l, _)| p == e.page && l == e.line)
                {
                    bad.push(format!(
                        "{}:{}: llvm-mc rejected {:?}: {why}",
                        e.page, e.line, e.text
                    ));
                }
                continue;
            }
        };
        per_gen[e.gen as usize] += 1;
        let got = match decode(e.gen, words) {
            Ok(i) => print(&i, Dialect::Clrx),
            Err(err) => {
                bad.push(format!(
                    "{}:{}: {} {words:08x?}: {err}",
                    e.page, e.line, e.gen
                ));
                continue;
            }
        };
        let mut want = respell(&e.text);
        if want.len() > 2 {
            want[2..].sort();
        }
        let mut got: Vec<String> = normal(&got)
            .into_iter()
            // VARIANT: the printer writes DPP masks in decimal, like
            // clrxdisasm 0.1.9; the pages write them in hex.
            .map(|w| match w.split_once(':') {
                Some((k @ ("row_mask" | "bank_mask"), v)) if !v.starts_with("0x") => {
                    format!("{k}:{:#x}", v.parse::<u32>().unwrap_or(0))
                }
                // VARIANT: clrxdisasm's DPP spellings (see ENC_MODIFIERS).
                None if w.starts_with("wave_") => format!("{w}:1"),
                None if w.starts_with("row_bcast") => w.replacen("row_bcast", "row_bcast:", 1),
                _ => w,
            })
            .filter(|w| !DEFAULTS.contains(&w.as_str()) || want.contains(w))
            .collect();
        if got.len() > 2 {
            got[2..].sort();
        }
        if got != want {
            bad.push(format!(
                "{}:{}: {} {words:08x?}: want {want:?}, got {got:?}",
                e.page, e.line, e.gen
            ));
        }
    }
    eprintln!("examples checked per generation: {per_gen:?}");
    assert!(per_gen.iter().sum::<usize>() > 80);
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}
