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

/// Mnemonic table: open addressing keyed by the name's length and its first
/// and last eight bytes. For names of at most 16 bytes those words are the
/// whole name, so a hit is decided by three integer compares instead of a
/// byte comparison; the general `HashMap` spent about 127 Ir per statement
/// here, mostly in probing and `memcmp`. A slot takes 32 bytes and the
/// table is at most half full (256 KB for the ~3,000 names): with 48-byte
/// slots a quarter full (768 KB) the look-up was 5 % of `risa asm`'s time
/// for 2 % of its instructions, mostly waiting for the slot from memory.
struct NameTable {
    slots: Box<[Slot]>,
    /// The names, by [`Slot::name`].
    names: Box<[&'static str]>,
    /// `slots.len() - 1` (a power of two minus one).
    mask: usize,
    /// Right shift that keeps the hash's top bits as the slot index.
    shift: u32,
}

#[derive(Clone, Copy)]
struct Slot {
    head: u64,
    tail: u64,
    rows: PerGen,
    /// Name length; `u16::MAX` marks an empty slot.
    len: u16,
    /// The name's index in [`NameTable::names`] (read for names of more
    /// than 16 bytes only).
    name: u16,
}

// (The size the table's comment counts with.)
const _: () = assert!(std::mem::size_of::<Slot>() == 32);

/// The words a name is keyed by; together with the length they determine
/// names of up to 16 bytes.
#[inline]
fn words(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4])) as u64;
    if n >= 8 {
        (u64_at(0), u64_at(n - 8))
    } else if n >= 4 {
        (u32_at(0) | u32_at(n - 4) << 32, 0)
    } else {
        (b.iter().rev().fold(0, |w, &c| w << 8 | c as u64), 0)
    }
}

impl NameTable {
    fn new(entries: Vec<(&'static str, PerGen)>) -> NameTable {
        // At most half full, so probe runs stay short.
        let size = (entries.len() * 2).next_power_of_two().max(16);
        let empty = Slot {
            head: 0,
            tail: 0,
            rows: [NONE; GEN_COUNT],
            len: u16::MAX,
            name: 0,
        };
        let mut t = NameTable {
            slots: vec![empty; size].into_boxed_slice(),
            names: entries.iter().map(|&(name, _)| name).collect(),
            mask: size - 1,
            shift: 64 - size.trailing_zeros(),
        };
        assert!(t.names.len() < usize::from(u16::MAX));
        for (k, (name, rows)) in entries.into_iter().enumerate() {
            let (head, tail) = words(name.as_bytes());
            let mut i = t.index(name.len(), head, tail);
            while t.slots[i].len != u16::MAX {
                i = (i + 1) & t.mask;
            }
            t.slots[i] = Slot {
                head,
                tail,
                rows,
                len: name.len() as u16,
                name: k as u16,
            };
        }
        t
    }

    #[inline]
    fn index(&self, len: usize, head: u64, tail: u64) -> usize {
        let h = (head ^ tail.rotate_left(29) ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> self.shift) as usize
    }

    // (Always inline: into `find_op`, once per statement.)
    #[inline(always)]
    fn get(&self, name: &str) -> Option<&PerGen> {
        let b = name.as_bytes();
        let (head, tail) = words(b);
        let mut i = self.index(b.len(), head, tail);
        loop {
            let s = &self.slots[i];
            if s.len == u16::MAX {
                return None;
            }
            if usize::from(s.len) == b.len()
                && s.head == head
                && s.tail == tail
                && (b.len() <= 16 || self.names[usize::from(s.name)].as_bytes()[8..] == b[8..])
            {
                return Some(&s.rows);
            }
            i = (i + 1) & self.mask;
        }
    }
}

fn table() -> &'static NameTable {
    static T: OnceLock<NameTable> = OnceLock::new();
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
        NameTable::new(m.into_iter().collect())
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
    match find_op(name, target) {
        Some(op) => Found::Op(op),
        None => find_other(name, target),
    }
}

/// The row of `name` on `target` if it has one: [`find`]'s common case,
/// inlined where the statement is assembled (a [`Found`], which may hold
/// a `Vec`, is returned through memory).
#[inline(always)]
pub fn find_op(name: &str, target: Target) -> Option<OpId> {
    let op = table().get(name)?[target.gen as usize];
    (op != NONE && target.features.contains(OPS[op as usize].feat)).then_some(op)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `encode::assemble` looks a mnemonic up as written before it
    /// lower-cases it: a name with a capital must find nothing.
    #[test]
    fn table_names_are_lower_case() {
        for o in OPS.iter() {
            for name in [o.name, o.clrx] {
                assert!(!name.bytes().any(|b| b.is_ascii_uppercase()), "{name}");
            }
        }
    }
}
