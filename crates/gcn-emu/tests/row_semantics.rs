//! Every row of the GCN instruction table has semantics in every generation
//! that has the row: forgetting a handler for a new or renamed row (the
//! handlers are found by name: `sem/mod.rs` and its tables) fails here, not
//! silently at run time. The rows allowed without one are those outside a
//! compute emulator, which fault as unsupported by design: exports,
//! interpolation (VINTRP, and the VOP3-encoded `v_interp_*` of GCN 1.2+),
//! and image instructions that need a sampler (rows flagged SAMPLER or
//! GATHER4 in the table).

use risa_gcn::table::{flag, OpInfo};
use risa_gcn::{Family, ALL_GENS, OPS};

/// Rows a compute emulator leaves out by design (see the module docs).
fn graphics_only(o: &OpInfo) -> bool {
    matches!(o.family, Family::Exp | Family::Vintrp)
        || o.name.starts_with("v_interp_")
        || o.has(flag::SAMPLER)
        || o.has(flag::GATHER4)
}

#[test]
fn every_row_has_semantics_in_every_generation() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for gen in ALL_GENS {
        for (name, ok) in risa_gcn_emu::coverage(gen) {
            let row = OPS
                .iter()
                .find(|o| o.name == name && o.opcode(gen).is_some());
            if row.is_some_and(graphics_only) {
                continue;
            }
            checked += 1;
            if !ok {
                missing.push(format!("{gen}: {name}"));
            }
        }
    }
    assert!(checked > 2000, "only {checked} rows checked");
    assert!(
        missing.is_empty(),
        "{} rows without semantics:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
