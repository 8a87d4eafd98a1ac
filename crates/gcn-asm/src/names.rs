//! Mnemonic look-up: LLVM and CLRX spellings to table rows, per generation.

use risa_gcn::table::{OpId, OPS};
use risa_gcn::{Gen, ALL_GENS};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Row of a mnemonic in every generation (`NONE` where it does not exist).
type PerGen = [OpId; 4];

/// Marks "no row in this generation".
pub const NONE: OpId = OpId::MAX;

fn table() -> &'static HashMap<&'static str, PerGen> {
    static T: OnceLock<HashMap<&'static str, PerGen>> = OnceLock::new();
    T.get_or_init(|| {
        let mut m: HashMap<&'static str, PerGen> = HashMap::with_capacity(OPS.len() * 2);
        for (i, o) in OPS.iter().enumerate() {
            for name in [o.name, o.clrx] {
                let e = m.entry(name).or_insert([NONE; 4]);
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
    /// Unknown everywhere.
    Unknown,
}

/// Looks `name` (lower case, no encoding suffix) up for `gen`.
pub fn find(name: &str, gen: Gen) -> Found {
    match table().get(name) {
        Some(p) if p[gen as usize] != NONE => Found::Op(p[gen as usize]),
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
