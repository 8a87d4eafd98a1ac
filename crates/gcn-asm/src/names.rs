//! Mnemonic look-up: LLVM and CLRX spellings to table rows, per generation.

use risa_gcn::table::{OpId, OPS};
use risa_gcn::{Features, Gen, Target, ALL_GENS, GEN_COUNT};
use std::sync::OnceLock;

/// The look-up tables' `HashMap`: rustc-hash's (Fx), fast on the short
/// ASCII keys (names are fixed data, so flooding resistance is not needed).
pub type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// Row of a mnemonic in every generation (`NONE` where it does not exist).
type PerGen = [OpId; GEN_COUNT];

/// Marks "no row in this generation".
pub const NONE: OpId = OpId::MAX;

fn table() -> &'static FastMap<&'static str, PerGen> {
    static T: OnceLock<FastMap<&'static str, PerGen>> = OnceLock::new();
    T.get_or_init(|| {
        let mut m: FastMap<&'static str, PerGen> = FastMap::default();
        for (i, o) in OPS.iter().enumerate() {
            for name in [o.name, o.clrx] {
                let e = m.entry(name).or_insert([NONE; GEN_COUNT]);
                for g in ALL_GENS {
                    if o.opcode(g).is_some() && e[g as usize] == NONE {
                        e[g as usize] = i as OpId;
                    }
                }
            }
        }
        m
    })
}

/// Result of looking a mnemonic up.
pub enum Found {
    /// The row of this generation.
    Op(OpId),
    /// The name exists, but only in these other generations.
    OtherGens(Vec<Gen>),
    /// The name exists in this generation, but on chips with these features.
    NeedsFeatures(Features),
    /// Unknown everywhere.
    Unknown,
}

/// CLRX's other spellings of compare mnemonics, as rewriting rules (applied
/// when a name is not in the tables): (prefix, from, to, type suffixes; empty:
/// any). CLRX accepts `v_cmp_lg_i32` for `v_cmp_ne_i32` (integer types only:
/// `v_cmp_lg_f32` is another compare), `tru` and `t` for each other, and
/// `s_cmp_ne_u64` for `s_cmp_lg_u64`.
const CLRX_RENAMES: &[(&str, &str, &str, &[&str])] = &[
    (
        "v_cmp",
        "_lg_",
        "_ne_",
        &["_i16", "_u16", "_i32", "_u32", "_i64", "_u64"],
    ),
    ("v_cmp", "_tru_", "_t_", &[]),
    ("v_cmp", "_t_", "_tru_", &[]),
    ("s_cmp", "_ne_", "_lg_", &["_u64"]),
];

/// Instructions clrxasm takes on a generation that lacks them, with the
/// opcode of another: (mnemonic prefix, generation, opcode generation).
/// CLRX's GCN 1.2 SMEM table has GCN 1.4's s_buffer_atomic_* (GCN 1.2
/// hardware has no scalar atomics; risa warns).
pub const CLRX_BORROWED: &[(&str, Gen, Gen)] = &[("s_buffer_atomic", Gen::Gcn12, Gen::Gcn14)];

/// The generation whose opcode clrxasm uses for `name` on `gen`, if it
/// takes a mnemonic `gen` lacks.
pub fn clrx_borrowed(name: &str, gen: Gen) -> Option<Gen> {
    CLRX_BORROWED
        .iter()
        .find(|(p, g, _)| *g == gen && name.starts_with(p))
        .map(|&(_, _, from)| from)
}

/// Looks `name` (lower case, no encoding suffix) up for `target`.
#[inline]
pub fn find(name: &str, target: Target) -> Found {
    // The common case first, without building a `Found` of another kind.
    if let Some(p) = table().get(name) {
        let op = p[target.gen as usize];
        if op != NONE && target.features.contains(OPS[op as usize].feat) {
            return Found::Op(op);
        }
    }
    find_other(name, target)
}

/// [`find`] when the name has no row on `target`: another generation, a
/// feature it lacks, or CLRX's other spellings.
#[cold]
fn find_other(name: &str, target: Target) -> Found {
    let found = find_exact(name, target);
    if !matches!(found, Found::Unknown) {
        return found;
    }
    for (prefix, from, to, types) in CLRX_RENAMES {
        if name.starts_with(prefix)
            && name.contains(from)
            && (types.is_empty() || types.iter().any(|t| name.ends_with(t)))
        {
            let other = name.replacen(from, to, 1);
            if let f @ (Found::Op(_) | Found::OtherGens(_)) = find_exact(&other, target) {
                return f;
            }
        }
    }
    Found::Unknown
}

fn find_exact(name: &str, target: Target) -> Found {
    let gen = target.gen;
    match table().get(name) {
        Some(p) if p[gen as usize] != NONE => {
            let op = p[gen as usize];
            let feat = OPS[op as usize].feat;
            if target.features.contains(feat) {
                Found::Op(op)
            } else {
                Found::NeedsFeatures(feat)
            }
        }
        Some(p) => Found::OtherGens(
            ALL_GENS
                .into_iter()
                .filter(|g| p[*g as usize] != NONE)
                .collect(),
        ),
        None => Found::Unknown,
    }
}

/// Comma-separated generation names, for "exists only on ..." messages.
pub fn gen_list(gens: &[Gen]) -> String {
    gens.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
}
