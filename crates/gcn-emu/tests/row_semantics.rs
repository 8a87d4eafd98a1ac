//! Every row of the GCN instruction table has semantics in every generation
//! that has the row, or says in the table why not.
//!
//! A row names its semantics (`risa_gcn::semantics`: its NAME or `sem=ID`),
//! or carries `nosem=REASON` (exports, interpolation, image instructions that
//! need a sampler: graphics work a compute emulator leaves out). Here every
//! row of every generation is held against the emulator: a row that names
//! semantics must have a handler, a `nosem=` row must not (a mark left on a
//! row that now runs is stale). Forgetting a handler for a new or renamed row
//! fails here; a handler for an id no row names, two handlers for one id, or
//! a row flagged `round` without its rounding-mode form fail the build
//! (`src/sem/mod.rs`).

use risa_gcn::semantics::{row_sem, Semantics};
use risa_gcn::table::OpId;
use risa_gcn::{ALL_GENS, OPS};

#[test]
fn every_row_has_semantics_or_a_reason_in_every_generation() {
    let mut bad = Vec::new();
    let mut counts = Vec::new();
    for gen in ALL_GENS {
        let (mut runs, mut without) = (0, 0);
        for (i, o) in OPS.iter().enumerate() {
            if o.opcode(gen).is_none() {
                continue;
            }
            let id = i as OpId;
            let rs = row_sem(id);
            match (rs.sem, risa_gcn_emu::resolves(id, gen)) {
                (Semantics::Runs(_), true) => runs += 1,
                (Semantics::Runs(s), false) => bad.push(format!(
                    "{gen}: {} names semantics {} but the emulator has no handler (add one, or mark the row nosem=REASON)",
                    o.name,
                    s.name()
                )),
                (Semantics::Unsupported(_), false) => without += 1,
                (Semantics::Unsupported(why), true) => bad.push(format!(
                    "{gen}: {} is marked nosem={why} but the emulator runs it: delete the mark",
                    o.name
                )),
            }
        }
        counts.push((gen, runs, without));
    }
    assert!(bad.is_empty(), "{} rows:\n{}", bad.len(), bad.join("\n"));
    // The walk saw every generation's rows (GCN 1.0 has the fewest: 746
    // with semantics, 69 marked nosem=).
    for (gen, runs, without) in counts {
        eprintln!("{gen}: {runs} rows with semantics, {without} marked nosem=");
        assert!(runs > 700, "{gen}: only {runs} rows run");
        assert!(without < 100, "{gen}: {without} rows without semantics");
    }
}

#[test]
fn coverage_agrees_with_the_table() {
    for gen in ALL_GENS {
        let rows = OPS
            .iter()
            .enumerate()
            .filter(|(_, o)| o.opcode(gen).is_some());
        for ((i, o), (name, ok)) in rows.zip(risa_gcn_emu::coverage(gen)) {
            assert_eq!(o.name, name);
            assert_eq!(ok, row_sem(i as OpId).id().is_some(), "{gen}: {name}");
        }
    }
}

/// Every DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH and sampling (MIMG flagged
/// `sampler`) row of every generation runs from the operation the build
/// derived from the row (`RowSem::lds`, `vector_mem`, `image`), or is marked
/// `nosem=REASON` in the table; the marked ones are listed with their reason.
#[test]
fn memory_rows_run_from_their_row_data_or_say_why_not() {
    use risa_gcn::semantics::ImageMem;
    use risa_gcn::table::{flag, Family};
    let mut bad = Vec::new();
    let mut unsupported = std::collections::BTreeSet::new();
    for gen in ALL_GENS {
        let mut runs = 0;
        for (i, o) in OPS.iter().enumerate() {
            let sampling = o.family == Family::Mimg && o.has(flag::SAMPLER);
            let memory = matches!(
                o.family,
                Family::Ds
                    | Family::Mubuf
                    | Family::Mtbuf
                    | Family::Flat
                    | Family::Global
                    | Family::Scratch
            );
            if o.opcode(gen).is_none() || !(memory || sampling) {
                continue;
            }
            let id = i as OpId;
            let rs = row_sem(id);
            let data = match o.family {
                Family::Ds => rs.lds.is_some(),
                Family::Mimg => matches!(rs.image, Some(ImageMem::Sample(_))),
                _ => rs.vector_mem.is_some(),
            };
            match rs.sem {
                Semantics::Runs(_) if data && risa_gcn_emu::resolves(id, gen) => runs += 1,
                Semantics::Runs(_) => bad.push(format!(
                    "{gen}: {} (row data derived: {data}) does not run",
                    o.name
                )),
                Semantics::Unsupported(why) => {
                    assert!(!why.is_empty() && !data, "{}", o.name);
                    unsupported.insert(format!("{} (nosem={why})", o.name));
                }
            }
        }
        eprintln!("{gen}: {runs} DS, vector memory and sampling rows run");
        assert!(runs > 200, "{gen}: only {runs} rows run");
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let unsupported: Vec<_> = unsupported.into_iter().collect();
    eprintln!("deliberately unsupported: {}", unsupported.join(", "));
    assert_eq!(
        unsupported,
        [
            "image_gather4h (nosem=graphics)",
            "image_gather4h_pck (nosem=graphics)",
            "image_gather8h_pck (nosem=graphics)",
        ]
    );
}
