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
            writeln!(
                row_sems,
                "RowSem{{sem:{semantics},round:{round},keep_high:{keephi},compare:{compare},scalar_mem:{scalar_mem},image:{image}}},"
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
        return Ok("Sample".into());
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
