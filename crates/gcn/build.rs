//! Turns the instruction tables in `tables/*.tbl` into static Rust arrays.
//!
//! The tables are the one source of truth for every GCN instruction; this
//! script only checks their syntax and lays them out for fast lookup. A typo in
//! a table (unknown flag, type or role) fails the build with the file and line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// (file name, family enum variant, opcode bits, for the lookup arrays).
const FAMILIES: &[(&str, &str, u32)] = &[
    ("sop2", "Sop2", 7),
    ("sopk", "Sopk", 5),
    ("sop1", "Sop1", 8),
    ("sopc", "Sopc", 7),
    ("sopp", "Sopp", 7),
    ("smrd", "Smrd", 5),
    ("smem", "Smem", 8),
    ("vop2", "Vop2", 6),
    ("vop1", "Vop1", 8),
    ("vopc", "Vopc", 8),
    ("vop3", "Vop3", 10),
    ("vop3p", "Vop3p", 7),
    ("vintrp", "Vintrp", 2),
    ("ds", "Ds", 8),
    ("mubuf", "Mubuf", 7),
    ("mtbuf", "Mtbuf", 4),
    ("mimg", "Mimg", 7),
    ("exp", "Exp", 0),
    ("flat", "Flat", 7),
    ("global", "Global", 7),
    ("scratch", "Scratch", 7),
];

/// Where the VOP3 (`_e64`) opcodes of VOP2/VOP1/VOPC instructions start, per generation.
const VOP3_BASE: &[(&str, [u16; 4])] = &[
    ("Vop2", [0x100, 0x100, 0x100, 0x100]),
    ("Vop1", [0x180, 0x180, 0x140, 0x140]),
    ("Vopc", [0, 0, 0, 0]),
    ("Vintrp", [u16::MAX, u16::MAX, 0x270, 0x270]),
];

const FLAGS: &[&str] = &[
    "nollvm", "nooffset", "store", "atomic", "imm:D", "tied", "novop3", "nosdwa", "nodpp", "cmpx",
    "vop3b", "noomod", "mix", "off2", "gds", "nogds", "lds", "noargs", "sampler", "gather4",
    "noret", "sread", "nollvm64", "clrxb64",
];

/// Generation columns as `keephi=` names them (the row attributes that
/// describe the emulator's semantics, `sem=ID`, `nosem=REASON`, `round` and
/// `keephi=GENS`, are in `tables/README.md`, "Semantics").
const GEN_NAMES: [&str; 4] = ["10", "11", "12", "14"];

const TYPES: &[(&str, &str)] = &[
    ("b16", "B16"),
    ("b32", "B32"),
    ("b64", "B64"),
    ("b96", "B96"),
    ("b128", "B128"),
    ("b160", "B160"),
    ("b256", "B256"),
    ("b512", "B512"),
    ("i16", "I16"),
    ("i32", "I32"),
    ("i64", "I64"),
    ("u16", "U16"),
    ("u32", "U32"),
    ("u64", "U64"),
    ("f16", "F16"),
    ("f32", "F32"),
    ("f64", "F64"),
    ("v2f16", "V2F16"),
    ("v2i16", "V2I16"),
    ("v2u16", "V2U16"),
    ("d16x1", "D16x1"),
    ("d16x2", "D16x2"),
    ("d16x3", "D16x3"),
    ("d16x4", "D16x4"),
    ("label", "Label"),
    ("hwreg", "Hwreg"),
    ("sendmsg", "Sendmsg"),
    ("waitcnt", "Waitcnt"),
    ("imm16", "Imm16"),
    ("simm16", "Simm16"),
    ("gpridx", "Gpridx"),
    ("attr", "Attr"),
    ("param", "Param"),
];

/// Bit 15 of a lookup entry: the row needs chip features (check them).
const GATED: u16 = 0x8000;

const ROLES: &[&str] = &["D", "SD", "A", "B", "C", "SC", "L", "K", "O", "V", "P", "T"];

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    println!("cargo:rerun-if-changed=tables");
    let mut out = String::new();
    let mut ops = String::new();
    // lookup[family][gen] = (opcode -> op index + 1)
    let mut lookups: BTreeMap<(&str, usize), Vec<u16>> = BTreeMap::new();
    let mut index: u32 = 0;
    let mut errors = Vec::new();
    // Whether each row needs features; rows that do may share an opcode, the
    // later ones listed in `alts` as (family, gen, opcode, row).
    let mut gated: Vec<bool> = Vec::new();
    let mut alts = String::new();
    // Semantics per row (parallel to OPS) and the semantic ids in first-use order.
    let mut row_sems = String::new();
    let mut sem_ids: Vec<String> = Vec::new();
    let mut rounded_ids: Vec<String> = Vec::new();
    for &(file, fam, bits) in FAMILIES {
        let path = dir.join(format!("{file}.tbl"));
        println!("cargo:rerun-if-changed={}", path.display());
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (ln, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = format!("{}:{}", path.display(), ln + 1);
            let toks: Vec<&str> = line.split_whitespace().collect();
            if toks.len() < 5 {
                errors.push(format!("{at}: expected NAME G10 G11 G12 G14"));
                continue;
            }
            let name = toks[0];
            let mut opc = [u16::MAX; 4];
            for g in 0..4 {
                let t = toks[1 + g];
                if t != "-" {
                    let v = t
                        .strip_prefix("0x")
                        .map(|h| u32::from_str_radix(h, 16))
                        .unwrap_or_else(|| t.parse::<u32>());
                    match v {
                        Ok(v) if bits == 0 || v < (1 << bits) => opc[g] = v as u16,
                        _ => errors.push(format!("{at}: bad opcode {t:?}")),
                    }
                }
            }
            let mut sig = String::new();
            let mut flags = Vec::new();
            let mut clrx = name.to_string();
            let mut feat: Vec<&str> = Vec::new();
            let mut sem: Option<&str> = None;
            let mut nosem: Option<&str> = None;
            let mut round = false;
            let mut keephi = 0u8;
            for t in &toks[5..] {
                if let Some(c) = t.strip_prefix("sem=") {
                    if !is_ident(c) {
                        errors.push(format!("{at}: sem={c:?} is not a lower-case identifier"));
                    }
                    sem = Some(c);
                } else if let Some(r) = t.strip_prefix("nosem=") {
                    if r.is_empty() {
                        errors.push(format!("{at}: nosem= needs a reason"));
                    }
                    nosem = Some(r);
                } else if *t == "round" {
                    round = true;
                } else if let Some(gs) = t.strip_prefix("keephi=") {
                    for g in gs.split(',') {
                        match GEN_NAMES.iter().position(|n| *n == g) {
                            Some(k) => keephi |= 1 << k,
                            None => errors.push(format!(
                                "{at}: keephi: unknown generation {g:?} (one of {GEN_NAMES:?})"
                            )),
                        }
                    }
                } else if let Some(c) = t.strip_prefix("clrx=") {
                    clrx = c.to_string();
                } else if let Some(f) = t.strip_prefix("feat=") {
                    feat.extend(f.split(','));
                } else if FLAGS.contains(t) {
                    flags.push(format!("flag::{}", t.replace(':', "_").to_uppercase()));
                } else if let Some((role, ty)) = t.split_once(':') {
                    let (sgpr, vgpr, ty) = match (ty.strip_prefix("s:"), ty.strip_prefix("v:")) {
                        (Some(rest), _) => (true, false, rest),
                        (_, Some(rest)) => (false, true, rest),
                        _ => (false, false, ty),
                    };
                    let Some(&(_, tyv)) = TYPES.iter().find(|(n, _)| *n == ty) else {
                        errors.push(format!("{at}: unknown type {ty:?}"));
                        continue;
                    };
                    if !ROLES.contains(&role) {
                        errors.push(format!("{at}: unknown role {role:?}"));
                        continue;
                    }
                    write!(
                        sig,
                        "Opnd{{role:Role::{role},ty:Ty::{tyv},sgpr:{sgpr},vgpr:{vgpr}}},"
                    )
                    .unwrap();
                } else {
                    errors.push(format!("{at}: unknown flag {t:?}"));
                }
            }
            // Facts that follow from the signature are derived here, once, so
            // the decoder tests a bit instead of scanning operands.
            if sig.contains("role:Role::SD,") && !flags.iter().any(|f| f == "flag::VOP3B") {
                flags.push("flag::VOP3B".into());
            }
            if sig.contains("role:Role::L,") {
                flags.push("flag::LIT".into());
            }
            if sig.contains("ty:Ty::Label,") {
                flags.push("flag::BRANCH".into());
            }
            let novop3 = flags.iter().any(|f| f == "flag::NOVOP3");
            let flags = if flags.is_empty() {
                "0".to_string()
            } else {
                flags.join("|")
            };
            writeln!(
                ops,
                "OpInfo{{name:{name:?},clrx:{clrx:?},family:Family::{fam},opc:{opc:?},sig:&[{sig}],flags:{flags},feat:Features::named(&{feat:?})}},"
            )
            .unwrap();
            if sem.is_some() && nosem.is_some() {
                errors.push(format!("{at}: a row has sem= or nosem=, not both"));
            }
            if round && nosem.is_some() {
                errors.push(format!("{at}: a nosem= row has no rounding-mode form"));
            }
            let semantics = match nosem {
                Some(reason) => format!("Semantics::Unsupported({reason:?})"),
                None => {
                    let id = sem.unwrap_or(name);
                    if !is_ident(id) {
                        errors.push(format!("{at}: {id:?} cannot name semantics (add sem=ID)"));
                    }
                    if !sem_ids.iter().any(|s| s == id) {
                        sem_ids.push(id.to_string());
                    }
                    if round && !rounded_ids.iter().any(|s| s == id) {
                        rounded_ids.push(id.to_string());
                    }
                    format!("Semantics::Runs(Sem::{id})")
                }
            };
            // A compare row's comparison, from the row: the condition its
            // NAME spells, the type of operand A, and the `cmpx` flag.
            let compare = if fam == "Vopc" && nosem.is_none() {
                match vopc_compare(name, &sig, &flags) {
                    Ok(c) => format!("Some({c})"),
                    Err(e) => {
                        errors.push(format!("{at}: {e}"));
                        "None".into()
                    }
                }
            } else {
                "None".into()
            };
            // A scalar memory row's access, from its NAME.
            let scalar_mem = if matches!(fam, "Smrd" | "Smem") && nosem.is_none() {
                match scalar_mem(name, &flags) {
                    Ok(m) => format!("Some(ScalarMem::{m})"),
                    Err(e) => {
                        errors.push(format!("{at}: {e}"));
                        "None".into()
                    }
                }
            } else {
                "None".into()
            };
            // An image row's access, from its NAME and flags.
            let image = if fam == "Mimg" && nosem.is_none() {
                match image_mem(name, &flags) {
                    Ok(m) => format!("Some(ImageMem::{m})"),
                    Err(e) => {
                        errors.push(format!("{at}: {e}"));
                        "None".into()
                    }
                }
            } else {
                "None".into()
            };
            let (lds, vector_mem) = memory_sems(fam, name, &sig, &flags, nosem.is_none())
                .unwrap_or_else(|e| {
                    errors.push(format!("{at}: {e}"));
                    ("None".into(), "None".into())
                });
            writeln!(
                row_sems,
                "RowSem{{sem:{semantics},round:{round},keep_high:{keephi},compare:{compare},scalar_mem:{scalar_mem},image:{image},lds:{lds},vector_mem:{vector_mem}}},"
            )
            .unwrap();
            gated.push(!feat.is_empty());
            // The lookup entry: row + 1, with GATED set when the row needs features.
            let entry = (index + 1) as u16 | if feat.is_empty() { 0 } else { GATED };
            for g in 0..4 {
                if opc[g] == u16::MAX {
                    continue;
                }
                // VOP1/VOP2/VOPC instructions also live in the VOP3 opcode space.
                if let Some(&(_, base)) = VOP3_BASE.iter().find(|(f, _)| *f == fam) {
                    if !novop3 && base[g] != u16::MAX {
                        let lk = lookups
                            .entry(("Vop3", g))
                            .or_insert_with(|| vec![0; 1 << 10]);
                        let code = base[g] + opc[g];
                        let slot = &mut lk[code as usize];
                        if *slot == 0 {
                            *slot = entry;
                        } else if gated[(*slot & !GATED) as usize - 1] && !feat.is_empty() {
                            writeln!(alts, "(Family::Vop3,{g},{code},{index}),").unwrap();
                        } else {
                            errors.push(format!(
                                "{at}: VOP3 opcode {code:#x} of generation {g} is also op #{} (rows may share an opcode only when both need features)",
                                *slot - 1
                            ));
                        }
                    }
                }
                let lk = lookups
                    .entry((fam, g))
                    .or_insert_with(|| vec![0; 1 << bits]);
                let slot = &mut lk[opc[g] as usize];
                if *slot == 0 {
                    *slot = entry;
                } else if gated[(*slot & !GATED) as usize - 1] && !feat.is_empty() {
                    writeln!(alts, "(Family::{fam},{g},{},{index}),", opc[g]).unwrap();
                } else {
                    errors.push(format!(
                        "{at}: opcode {:#x} of generation {g} is also op #{} (rows may share an opcode only when both need features)",
                        opc[g],
                        *slot - 1
                    ));
                }
            }
            index += 1;
        }
    }
    if !errors.is_empty() {
        for e in &errors {
            println!("cargo:warning={e}");
        }
        panic!(
            "{} errors in the instruction tables:\n{}",
            errors.len(),
            errors.join("\n")
        );
    }
    writeln!(out, "/// The instruction families: one table file each.").unwrap();
    writeln!(
        out,
        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]\n#[repr(u8)]\npub enum Family {{"
    )
    .unwrap();
    for &(file, fam, _) in FAMILIES {
        writeln!(out, "    /// Rows of `tables/{file}.tbl`.\n    {fam},").unwrap();
    }
    writeln!(out, "}}").unwrap();
    writeln!(
        out,
        "/// Table file name per family.\npub(crate) static FAMILY_FILES: [&str; {}] = {:?};",
        FAMILIES.len(),
        FAMILIES.iter().map(|f| f.0).collect::<Vec<_>>()
    )
    .unwrap();
    writeln!(
        out,
        "/// Opcode width in bits per family.\npub(crate) static FAMILY_OPBITS: [u32; {}] = {:?};",
        FAMILIES.len(),
        FAMILIES.iter().map(|f| f.2).collect::<Vec<_>>()
    )
    .unwrap();
    for &(fam, base) in VOP3_BASE {
        writeln!(out, "/// First VOP3 opcode of {fam} instructions, per generation.\npub(crate) const VOP3_BASE_{}: [u16; GEN_COUNT] = {base:?};", fam.to_uppercase()).unwrap();
    }
    writeln!(out, "/// Every instruction of every table, in table order.").unwrap();
    writeln!(out, "pub static OPS: [OpInfo; {index}] = [\n{ops}];").unwrap();
    writeln!(
        out,
        "/// Per family and generation: opcode -> index into OPS plus one (0: none),\n/// bit 15 set when the row needs chip features."
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) static LOOKUP: [[&[u16]; GEN_COUNT]; {}] = [",
        FAMILIES.len()
    )
    .unwrap();
    for &(_, fam, _) in FAMILIES {
        out.push('[');
        for g in 0..4 {
            match lookups.get(&(fam, g)) {
                Some(v) => write!(out, "&{v:?},").unwrap(),
                None => out.push_str("&[],"),
            }
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
    writeln!(
        out,
        "/// Feature-gated rows that share (family, generation, opcode) with an earlier row.\npub(crate) static ALTS: &[(Family, u8, u16, OpId)] = &[{alts}];"
    )
    .unwrap();
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("tables.rs");
    std::fs::write(dest, out).unwrap();
    let mut sems = semantics_rs(&sem_ids, &rounded_ids, &row_sems, index);
    let atomics: String = ATOMICS
        .iter()
        .map(|(n, v)| format!("({n:?}, Atomic::{v}),"))
        .collect();
    writeln!(
        sems,
        "/// The atomic operations as memory row names spell them (`*_atomic_OP[_x2]`).\npub const ATOMIC_NAMES: [(&str, Atomic); {}] = [{atomics}];",
        ATOMICS.len()
    )
    .unwrap();
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("semantics.rs");
    std::fs::write(dest, sems).unwrap();
}

/// Float compare conditions as VOPC names spell them, in code order: code
/// bit 0 = true when A < B, 1 when A == B, 2 when A > B, 3 when unordered
/// (the low four opcode bits of the float compares).
const FLOAT_CONDS: [&str; 16] = [
    "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt",
    "tru",
];

/// Integer compare conditions in code order; the codes mean what the float
/// ones do (`ne` = less or greater, `t` = always).
const INT_CONDS: [&str; 8] = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"];

/// The `Compare` of VOPC row `name` (`v_cmp[s|x|sx]_COND_TYPE`, or
/// `v_cmp[x]_class_TYPE`) as Rust source: COND from the name, the type from
/// operand A (which the name's TYPE must repeat), EXEC written when the row
/// is flagged `cmpx` (which the name's `x` must repeat).
fn vopc_compare(name: &str, sig: &str, flags: &str) -> Result<String, String> {
    let shape = "a compare row is named v_cmp[s|x|sx]_COND_TYPE";
    let rest = name.strip_prefix("v_cmp").ok_or(shape)?;
    let (x, rest) = match rest.split_once('_') {
        Some(("", r)) | Some(("s", r)) => (false, r),
        Some(("x", r)) | Some(("sx", r)) => (true, r),
        _ => return Err(shape.into()),
    };
    let (cond, ty) = rest.split_once('_').ok_or(shape)?;
    let exec = flags.split('|').any(|f| f == "flag::CMPX");
    if exec != x {
        return Err(format!(
            "the name says {} but the row is {}flagged `cmpx`",
            if x { "v_cmpx" } else { "v_cmp" },
            if exec { "" } else { "not " }
        ));
    }
    let Some(&(_, tyv)) = TYPES.iter().find(|(n, _)| *n == ty) else {
        return Err(format!("unknown compare type {ty:?}"));
    };
    let a = sig.split("},").next().unwrap_or("");
    if !a.starts_with("Opnd{role:Role::A,") || !a.contains(&format!("ty:Ty::{tyv},")) {
        return Err(format!("operand A must be of the name's type {ty}"));
    }
    let float = ty.starts_with('f');
    if !float && !matches!(ty, "i16" | "u16" | "i32" | "u32" | "i64" | "u64") {
        return Err(format!(
            "compare type {ty} is neither a float nor an integer"
        ));
    }
    let (when, class) = if cond == "class" {
        if !float {
            return Err("v_cmp_class compares a float".into());
        }
        (0, true)
    } else {
        let conds: &[&str] = if float { &FLOAT_CONDS } else { &INT_CONDS };
        let code = conds
            .iter()
            .position(|n| *n == cond)
            .ok_or_else(|| format!("unknown {ty} compare condition {cond:?}"))?;
        (code, false)
    };
    Ok(format!(
        "Compare{{when:{when},ty:Ty::{tyv},class:{class},exec:{exec}}}"
    ))
}

/// Atomic operations as memory row names spell them (`*_atomic_OP[_x2]`),
/// with their `risa_gcn::semantics::Atomic` variant.
const ATOMICS: &[(&str, &str)] = &[
    ("swap", "Swap"),
    ("cmpswap", "CmpSwap"),
    ("add", "Add"),
    ("sub", "Sub"),
    ("rsub", "RSub"),
    ("smin", "SMin"),
    ("umin", "UMin"),
    ("smax", "SMax"),
    ("umax", "UMax"),
    ("and", "And"),
    ("or", "Or"),
    ("xor", "Xor"),
    ("inc", "Inc"),
    ("dec", "Dec"),
    ("fcmpswap", "FCmpSwap"),
    ("fmin", "FMin"),
    ("fmax", "FMax"),
    ("add_f32", "FAdd"),
];

/// The `ScalarMem` variant of SMRD/SMEM row `name`, as Rust source; the
/// row's `atomic` and `store` flags must agree with it.
fn scalar_mem(name: &str, flags: &str) -> Result<String, String> {
    let v = scalar_access(name)?;
    let flag = |f: &str| flags.split('|').any(|x| x == f);
    if v.starts_with("Atomic") != flag("flag::ATOMIC") {
        return Err("an s_*atomic_* row, and only one, is flagged `atomic`".into());
    }
    if v.ends_with("Store") != flag("flag::STORE") {
        return Err("a scalar store row, and only one, is flagged `store`".into());
    }
    Ok(v)
}

/// [`scalar_mem`] before the flag checks.
fn scalar_access(name: &str) -> Result<String, String> {
    let atomic = name
        .strip_prefix("s_atomic_")
        .map(|r| (r, false))
        .or_else(|| name.strip_prefix("s_buffer_atomic_").map(|r| (r, true)));
    if let Some((rest, buffer)) = atomic {
        let (base, wide) = match rest.strip_suffix("_x2") {
            Some(b) => (b, true),
            None => (rest, false),
        };
        let Some(&(_, op)) = ATOMICS.iter().find(|(n, _)| *n == base) else {
            return Err(format!("unknown atomic operation {base:?}"));
        };
        return Ok(format!(
            "Atomic{{op:Atomic::{op},wide:{wide},buffer:{buffer}}}"
        ));
    }
    const ACCESSES: [(&str, &str); 6] = [
        ("s_load_dword", "Load"),
        ("s_buffer_load_dword", "BufferLoad"),
        ("s_store_dword", "Store"),
        ("s_buffer_store_dword", "BufferStore"),
        ("s_scratch_load_dword", "ScratchLoad"),
        ("s_scratch_store_dword", "ScratchStore"),
    ];
    for (prefix, v) in ACCESSES {
        if let Some(n) = name.strip_prefix(prefix) {
            if matches!(n, "" | "x2" | "x4" | "x8" | "x16") {
                return Ok(v.into());
            }
        }
    }
    if matches!(name, "s_memtime" | "s_memrealtime") {
        return Ok("Time".into());
    }
    if name.starts_with("s_dcache_") || name.starts_with("s_atc_probe") {
        return Ok("CacheControl".into());
    }
    Err("a scalar memory row's name names no access this build knows (s_load_dword*, s_atomic_OP, ...)".into())
}

/// The `ImageMem` variant of MIMG row `name`, as Rust source; the row's
/// `atomic` and `store` flags must agree with it.
fn image_mem(name: &str, flags: &str) -> Result<String, String> {
    let flag = |f: &str| flags.split('|').any(|x| x == f);
    if flag("flag::SAMPLER") || flag("flag::GATHER4") {
        return Ok(format!("Sample({})", sampling(name, flags)?));
    }
    let rest = name
        .strip_prefix("image_")
        .ok_or("an image row is named image_*")?;
    let v = if let Some(a) = rest.strip_prefix("atomic_") {
        let Some(&(_, op)) = ATOMICS.iter().find(|(n, _)| *n == a) else {
            return Err(format!("unknown atomic operation {a:?}"));
        };
        format!("Atomic(Atomic::{op})")
    } else if rest == "get_resinfo" {
        "ResInfo".into()
    } else {
        let (kind, t) = if let Some(t) = rest.strip_prefix("load") {
            ("Load", t)
        } else if let Some(t) = rest.strip_prefix("store") {
            ("Store", t)
        } else {
            return Err("an image row without `sampler` is image_load*, image_store*, image_atomic_OP or image_get_resinfo".into());
        };
        let (mip, t) = match t.strip_prefix("_mip") {
            Some(r) => (true, r),
            None => (false, t),
        };
        let (pck, sgn) = match t {
            "" => (false, false),
            "_pck" => (true, false),
            "_pck_sgn" if kind == "Load" => (true, true),
            _ => {
                return Err(format!(
                    "unknown image {} suffix {t:?}",
                    kind.to_lowercase()
                ))
            }
        };
        format!("{kind}(ImageAccess{{mip:{mip},pck:{pck},sgn:{sgn}}})")
    };
    if v.starts_with("Atomic") != flag("flag::ATOMIC") {
        return Err("an image_atomic_* row, and only one, is flagged `atomic`".into());
    }
    if v.starts_with("Store") != flag("flag::STORE") {
        return Err("an image_store* row, and only one, is flagged `store`".into());
    }
    Ok(v)
}

/// The `lds` and `vector_mem` fields of a row's `RowSem` (Rust source,
/// `None` outside their families or for a `nosem=` row).
fn memory_sems(
    fam: &str,
    name: &str,
    sig: &str,
    flags: &str,
    runs: bool,
) -> Result<(String, String), String> {
    let none = || "None".to_string();
    if !runs {
        return Ok((none(), none()));
    }
    Ok(match fam {
        "Ds" => (
            format!("Some(LdsOp::{})", lds_op(name, sig, flags)?),
            none(),
        ),
        "Mubuf" | "Mtbuf" | "Flat" | "Global" | "Scratch" => (
            none(),
            format!("Some(VectorMem::{})", vector_mem(fam, name, sig, flags)?),
        ),
        _ => (none(), none()),
    })
}

/// The type of the `role` operand in signature `sig` (Rust source as `main`
/// writes it: `B64`, `D16x2` ...), if the row has one.
fn operand_ty<'s>(sig: &'s str, role: &str) -> Option<&'s str> {
    let key = format!("role:Role::{role},ty:Ty::");
    sig.split(key.as_str()).nth(1)?.split(',').next()
}

/// The width in bits of the `role` operand (`V2F16` 32, `D16xN` none).
fn operand_bits(sig: &str, role: &str) -> Option<u32> {
    let ty = operand_ty(sig, role)?;
    if ty.starts_with("V2") {
        return Some(32);
    }
    ty.trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .ok()
}

/// Whether `flags` (`flag::A|flag::B`) holds `f` (`flag::STORE`).
fn has_flag(flags: &str, f: &str) -> bool {
    flags.split('|').any(|x| x == f)
}

/// Checks that the `role` operand of a load or store of `e` (Rust source of
/// an `Elements`, with its byte size and signedness) is as wide as the
/// elements: `count` dwords, or a 16- or 32-bit register for bytes and
/// shorts, an `i` type exactly when a load sign-extends.
fn check_elements(
    sig: &str,
    role: &str,
    bytes: u32,
    count: u32,
    signed: bool,
    load: bool,
) -> Result<(), String> {
    let bits = operand_bits(sig, role);
    let ok = if bytes == 4 {
        bits == Some(32 * count)
    } else {
        matches!(bits, Some(16 | 32))
    };
    if !ok {
        return Err(format!(
            "operand {role} must hold {} (it is {:?})",
            if bytes == 4 {
                format!("{count} dwords")
            } else {
                "a 16- or 32-bit value".into()
            },
            operand_ty(sig, role)
        ));
    }
    if load && signed != operand_ty(sig, role).is_some_and(|t| t.starts_with('I')) {
        return Err(format!(
            "operand {role} of a {} load must be of an {} type",
            if signed {
                "sign-extending"
            } else {
                "zero-extending"
            },
            if signed { "i" } else { "u or b" }
        ));
    }
    Ok(())
}

/// A load's or store's element TYPE as a name spells it (`b8` `u8` `i8`
/// `b16` `u16` `i16` `b32` `b64` `b96` `b128` for DS; `ubyte` `byte`
/// `sbyte` `ushort` `short` `sshort` `dword` `dwordx2..4` for vector
/// memory): (bytes, count, signed).
fn element_type(t: &str) -> Option<(u32, u32, bool)> {
    Some(match t {
        "b8" | "u8" | "ubyte" | "byte" => (1, 1, false),
        "i8" | "sbyte" => (1, 1, true),
        "b16" | "u16" | "ushort" | "short" => (2, 1, false),
        "i16" | "sshort" => (2, 1, true),
        "b32" | "dword" => (4, 1, false),
        "b64" | "dwordx2" => (4, 2, false),
        "b96" | "dwordx3" => (4, 3, false),
        "b128" | "dwordx4" => (4, 4, false),
        _ => return None,
    })
}

/// `t` without its `_d16` / `_d16_hi` suffix, and the `Half` it names.
fn strip_half(t: &str) -> (&str, &'static str) {
    if let Some(b) = t.strip_suffix("_d16_hi") {
        (b, "High")
    } else if let Some(b) = t.strip_suffix("_d16") {
        (b, "Low")
    } else {
        (t, "Whole")
    }
}

/// The `Elements` of element type `t` with `half`, checked against the
/// `role` operand, as Rust source.
fn elements(t: &str, half: &str, sig: &str, role: &str, load: bool) -> Result<String, String> {
    let (bytes, count, signed) =
        element_type(t).ok_or_else(|| format!("unknown element type {t:?}"))?;
    if half != "Whole" && bytes == 4 {
        return Err("only bytes and shorts have _d16 forms".into());
    }
    check_elements(sig, role, bytes, count, signed, load)?;
    Ok(format!(
        "Elements{{bytes:{bytes},count:{count},signed:{signed},half:Half::{half}}}"
    ))
}

/// The memory atomic a DS name spells as OP and TYPE (`min` + `i32` is
/// `SMin`, `add` + `f32` `FAdd`, `wrxchg` `Swap`).
fn lds_mem_atomic(op: &str, ty: &str) -> Result<&'static str, String> {
    let kind = ty.chars().next().unwrap_or(' ');
    Ok(match (op, kind) {
        ("min", 'i') => "SMin",
        ("max", 'i') => "SMax",
        ("min", 'u') => "UMin",
        ("max", 'u') => "UMax",
        ("min", 'f') => "FMin",
        ("max", 'f') => "FMax",
        ("add", 'f') => "FAdd",
        ("wrxchg" | "write", _) => "Swap",
        ("add" | "sub" | "rsub" | "inc" | "dec" | "and" | "or" | "xor", 'u' | 'b') => ATOMICS
            .iter()
            .find(|(n, _)| *n == op)
            .map(|a| a.1)
            .ok_or_else(|| format!("{op:?} is not in ATOMICS"))?,
        _ => return Err(format!("unknown DS atomic {op:?} on {ty}")),
    })
}

/// The `LdsOp` of DS row `name`, as Rust source; the row's operands and its
/// `off2` and `gds` flags must agree with it.
fn lds_op(name: &str, sig: &str, flags: &str) -> Result<String, String> {
    let v = lds_access(name, sig)?;
    let pair = v.starts_with("Read2") || v.starts_with("Write2") || v.starts_with("Exchange2");
    if pair != has_flag(flags, "flag::OFF2") {
        return Err(
            "a ds_read2*, ds_write2* or ds_wrxchg2* row, and only one, is flagged `off2`".into(),
        );
    }
    let gws = v.starts_with("Gws") || v == "OrderedCount";
    if gws != has_flag(flags, "flag::GDS") {
        return Err("a ds_gws_* or ds_ordered_count row, and only one, is flagged `gds`".into());
    }
    Ok(v)
}

/// [`lds_op`] before the flag checks.
fn lds_access(name: &str, sig: &str) -> Result<String, String> {
    let rest = name.strip_prefix("ds_").ok_or("a DS row is named ds_*")?;
    let fixed = match rest {
        "nop" => "Nop",
        "append" => "Append",
        "consume" => "Consume",
        "read_addtid_b32" => "ReadAddTid",
        "write_addtid_b32" => "WriteAddTid",
        "swizzle_b32" => "Swizzle",
        "permute_b32" => "Permute",
        "bpermute_b32" => "BPermute",
        "ordered_count" => "OrderedCount",
        "gws_init" => "Gws(Gws::Init)",
        "gws_sema_v" => "Gws(Gws::SemaV)",
        "gws_sema_br" => "Gws(Gws::SemaBr)",
        "gws_sema_p" => "Gws(Gws::SemaP)",
        "gws_sema_release_all" => "Gws(Gws::SemaReleaseAll)",
        "gws_barrier" => "Gws(Gws::Barrier)",
        _ => "",
    };
    if !fixed.is_empty() {
        return Ok(fixed.into());
    }
    let (t, half) = strip_half(rest);
    let (op, ty) = t.rsplit_once('_').ok_or("a DS row is named ds_OP_TYPE")?;
    let wide = ty.ends_with("64");
    let pair_ty = || match ty {
        "b32" | "b64" => Ok(()),
        _ => Err(format!("a paired DS access moves b32 or b64, not {ty}")),
    };
    let bits = |role: &str| operand_bits(sig, role);
    let elem = if wide { 64 } else { 32 };
    match op {
        "read" => return Ok(format!("Read({})", elements(ty, half, sig, "D", true)?)),
        "write" => return Ok(format!("Write({})", elements(ty, half, sig, "B", false)?)),
        _ => {}
    }
    if half != "Whole" {
        return Err("only ds_read_* and ds_write_* have _d16 forms".into());
    }
    let pair = match op {
        "read2" | "read2st64" => Some(("Read2", "D", 2 * elem)),
        "write2" | "write2st64" => Some(("Write2", "B", elem)),
        "wrxchg2_rtn" | "wrxchg2st64_rtn" => Some(("Exchange2", "D", 2 * elem)),
        _ => None,
    };
    if let Some((v, role, n)) = pair {
        pair_ty()?;
        if bits(role) != Some(n) {
            return Err(format!("operand {role} of {v} on {ty} must have {n} bits"));
        }
        let st64 = op.contains("st64");
        return Ok(format!("{v}{{wide:{wide},st64:{st64}}}"));
    }
    if op == "condxchg32_rtn" {
        let dwords = match ty {
            "b64" => 2,
            "b128" => 4,
            _ => return Err(format!("ds_condxchg32_rtn moves b64 or b128, not {ty}")),
        };
        if bits("D") != Some(32 * dwords) || bits("B") != Some(32 * dwords) {
            return Err(format!(
                "operands D and B of ds_condxchg32_rtn_{ty} must have {} bits",
                32 * dwords
            ));
        }
        return Ok(format!("CondExchange{{dwords:{dwords}}}"));
    }
    if let Some(base) = op.strip_suffix("_src2") {
        if bits("B").is_some() || bits("D").is_some() {
            return Err(
                "a ds_OP_src2 row reads its data from LDS: it has no D or B operand".into(),
            );
        }
        let a = lds_mem_atomic(base, ty)?;
        return Ok(format!("Src2{{op:Atomic::{a},wide:{wide}}}"));
    }
    let (op, ret) = match op.strip_suffix("_rtn") {
        Some(o) => (o, true),
        None => (op, false),
    };
    let at = match op {
        "mskor" => "MaskOr".to_string(),
        "cmpst" if ty.starts_with('f') => "FCmpStore".into(),
        "cmpst" => "CmpStore".into(),
        "wrap" => "Wrap".into(),
        _ => format!("Mem(Atomic::{})", lds_mem_atomic(op, ty)?),
    };
    if bits("B") != Some(elem) {
        return Err(format!(
            "operand B of a DS atomic on {ty} must have {elem} bits"
        ));
    }
    if ret != bits("D").is_some() {
        return Err("a DS atomic has a D operand exactly when it is named _rtn".into());
    }
    if ret && bits("D") != Some(elem) {
        return Err(format!(
            "operand D of a DS atomic on {ty} must have {elem} bits"
        ));
    }
    Ok(format!(
        "Atomic{{op:LdsAtomic::{at},wide:{wide},ret:{ret}}}"
    ))
}

/// Name prefixes of the vector memory families.
const VECTOR_MEM_PREFIXES: [(&str, &str); 5] = [
    ("Mubuf", "buffer_"),
    ("Mtbuf", "tbuffer_"),
    ("Flat", "flat_"),
    ("Global", "global_"),
    ("Scratch", "scratch_"),
];

/// The `VectorMem` of MUBUF/MTBUF/FLAT/GLOBAL/SCRATCH row `name`, as Rust
/// source; the row's data operand and its `store`, `atomic`, `noargs` and
/// (MUBUF) `lds` flags must agree with it.
fn vector_mem(fam: &str, name: &str, sig: &str, flags: &str) -> Result<String, String> {
    let &(_, prefix) = VECTOR_MEM_PREFIXES
        .iter()
        .find(|(f, _)| *f == fam)
        .ok_or("not a vector memory family")?;
    let rest = name
        .strip_prefix(prefix)
        .ok_or_else(|| format!("a {fam} row is named {prefix}*"))?;
    let v = vector_access(fam, rest, sig)?;
    let store = v.starts_with("Store") || v.contains("store:true");
    if store != has_flag(flags, "flag::STORE") {
        return Err("a store row, and only one, is flagged `store`".into());
    }
    if v.starts_with("Atomic") != has_flag(flags, "flag::ATOMIC") {
        return Err("a *_atomic_* row, and only one, is flagged `atomic`".into());
    }
    if (v == "CacheControl") != has_flag(flags, "flag::NOARGS") {
        return Err(
            "a cache control row (buffer_wbinvl1*), and only one, is flagged `noargs`".into(),
        );
    }
    // GcnMemHandling.md: the loads of one dword or less, and
    // buffer_store_lds_dword, move data between a buffer and LDS.
    let one = |e: &str| e.contains("count:1,") && e.contains("half:Half::Whole");
    let lds = fam == "Mubuf"
        && (v == "StoreFromLds"
            || (v.starts_with("Load(") && one(&v))
            || v.starts_with("Format{store:false,components:1,half:Half::Whole"));
    if lds != has_flag(flags, "flag::LDS") {
        return Err("a buffer load of one dword or less (buffer_load_format_x, _ubyte ... _dword) or buffer_store_lds_dword, and only one, is flagged `lds`".into());
    }
    Ok(v)
}

/// [`vector_mem`] before the flag checks: `rest` is the name after its
/// family's prefix.
fn vector_access(fam: &str, rest: &str, sig: &str) -> Result<String, String> {
    let buffer = matches!(fam, "Mubuf" | "Mtbuf");
    if fam == "Mubuf" && rest.starts_with("wbinvl1") {
        return Ok("CacheControl".into());
    }
    if fam == "Mubuf" && rest == "store_lds_dword" {
        return Ok("StoreFromLds".into());
    }
    // Where the data is: VDATA, except a FLAT-like load's VDST.
    let data = |load: bool| if load && !buffer { "D" } else { "V" };
    if let Some(a) = rest.strip_prefix("atomic_") {
        let (base, wide) = match a.strip_suffix("_x2") {
            Some(b) => (b, true),
            None => (a, false),
        };
        let Some(&(_, op)) = ATOMICS.iter().find(|(n, _)| *n == base) else {
            return Err(format!("unknown atomic operation {base:?}"));
        };
        let per = if wide { 64 } else { 32 };
        let n = if base.contains("cmpswap") {
            2 * per
        } else {
            per
        };
        if operand_bits(sig, "V") != Some(n) {
            return Err(format!("operand V of atomic_{a} must have {n} bits"));
        }
        return Ok(format!("Atomic{{op:Atomic::{op},wide:{wide}}}"));
    }
    let (store, t) = if let Some(t) = rest.strip_prefix("load_") {
        (false, t)
    } else if let Some(t) = rest.strip_prefix("store_") {
        (true, t)
    } else {
        return Err(format!(
            "a {fam} row is named *_load_*, *_store_*, *_atomic_OP[_x2]{}",
            if fam == "Mubuf" {
                ", buffer_wbinvl1* or buffer_store_lds_dword"
            } else {
                ""
            }
        ));
    };
    if let Some(f) = t.strip_prefix("format") {
        if !buffer {
            return Err("only buffer rows convert through a format".into());
        }
        let (f, comps) = f
            .rsplit_once('_')
            .ok_or("a format access is named *_format[_d16[_hi]]_x|xy|xyz|xyzw")?;
        let components = match comps {
            "x" => 1,
            "xy" => 2,
            "xyz" => 3,
            "xyzw" => 4,
            _ => return Err(format!("unknown format components {comps:?}")),
        };
        let half = match f {
            "" => "Whole",
            "_d16" => "Low",
            "_d16_hi" if components == 1 => "High",
            _ => return Err(format!("unknown format suffix {f:?}")),
        };
        let ty = operand_ty(sig, "V");
        let ok = if half == "Whole" {
            operand_bits(sig, "V") == Some(32 * components)
        } else {
            ty == Some(format!("D16x{components}").as_str())
        };
        if !ok {
            return Err(format!(
                "operand V of a {comps} format access is of type {ty:?}"
            ));
        }
        return Ok(format!(
            "Format{{store:{store},components:{components},half:Half::{half}}}"
        ));
    }
    if fam == "Mtbuf" {
        return Err("a tbuffer row is named tbuffer_load/store_format_*".into());
    }
    let (t, half) = strip_half(t);
    let e = elements(t, half, sig, data(!store), !store)?;
    Ok(format!("{}({e})", if store { "Store" } else { "Load" }))
}

/// The `Sampling` of a MIMG row flagged `sampler` or `gather4`, as Rust
/// source: `image_sample[SUFFIXES]`, `image_gather4[SUFFIXES]` (flagged
/// `gather4`) or `image_get_lod`, SUFFIXES from `_o _b _c _d _cd _cl _l _lz`.
fn sampling(name: &str, flags: &str) -> Result<String, String> {
    let gather4 = has_flag(flags, "flag::GATHER4");
    if !has_flag(flags, "flag::SAMPLER") {
        return Err("a sampling row is flagged `sampler`".into());
    }
    if name == "image_get_lod" {
        if gather4 {
            return Err("image_get_lod is not flagged `gather4`".into());
        }
        return Ok("Sampling{get_lod:true,..Sampling::NONE}".into());
    }
    let (gather, rest) = if let Some(r) = name.strip_prefix("image_sample") {
        (false, r)
    } else if let Some(r) = name.strip_prefix("image_gather4") {
        (true, r)
    } else {
        return Err("a sampling row is image_sample*, image_gather4* or image_get_lod".into());
    };
    if gather != gather4 {
        return Err("an image_gather4* row, and only one, is flagged `gather4`".into());
    }
    let mut fields = vec![format!("gather:{gather}")];
    for part in rest.split('_').filter(|p| !p.is_empty()) {
        let f = match part {
            "o" => "offsets",
            "b" => "bias",
            "c" => "compare",
            "d" | "cd" => "derivatives",
            "cl" => "lod_clamp",
            "l" => "lod",
            "lz" => "lod_zero",
            _ => {
                return Err(format!(
                "unknown sampling suffix _{part} (mark a row the emulator leaves out nosem=REASON)"
            ))
            }
        };
        let f = format!("{f}:true");
        if fields.contains(&f) {
            return Err(format!("sampling suffix _{part} twice"));
        }
        fields.push(f);
    }
    Ok(format!("Sampling{{{},..Sampling::NONE}}", fields.join(",")))
}

/// Whether `s` can be a semantic id (and so a Rust enum variant).
fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The generated `semantics.rs`: the [`Sem`] enum (one variant per semantic
/// id the rows name), the ids that must have a rounding-mode form, and
/// `ROW_SEMS` (one entry per row of `OPS`).
fn semantics_rs(ids: &[String], rounded: &[String], rows: &str, n: u32) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "/// The semantics a table row names (`sem=ID`, or the row's NAME): one\n\
         /// variant per operation; rows that compute the same share one.\n\
         #[allow(non_camel_case_types, missing_docs)]\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         #[repr(u16)]\npub enum Sem {{"
    )
    .unwrap();
    for id in ids {
        writeln!(out, "    {id},").unwrap();
    }
    writeln!(out, "}}").unwrap();
    writeln!(
        out,
        "impl Sem {{\n    /// Number of semantic ids.\n    pub const COUNT: usize = {};\n    \
         /// Every semantic id, in [`Sem`] order.\n    pub const ALL: [Sem; {}] = [{}];\n}}",
        ids.len(),
        ids.len(),
        sem_list(ids)
    )
    .unwrap();
    writeln!(
        out,
        "/// Names of the semantic ids, in [`Sem`] order.\nstatic SEM_NAMES: [&str; {}] = {ids:?};",
        ids.len()
    )
    .unwrap();
    writeln!(
        out,
        "/// The semantic ids of rows flagged `round`: their result follows\n\
         /// MODE.FP_ROUND, so the emulator must give each a rounding-mode form.\n\
         pub const ROUNDED: &[Sem] = &[{}];",
        sem_list(rounded)
    )
    .unwrap();
    writeln!(
        out,
        "/// The semantics of every row, in [`OPS`](crate::OPS) order.\nstatic ROW_SEMS: [RowSem; {n}] = [\n{rows}];"
    )
    .unwrap();
    out
}

/// `Sem::a,Sem::b,...` for the ids `ids`.
fn sem_list(ids: &[String]) -> String {
    ids.iter()
        .map(|i| format!("Sem::{i}"))
        .collect::<Vec<_>>()
        .join(",")
}
