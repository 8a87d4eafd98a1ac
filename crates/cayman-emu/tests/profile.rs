//! Profile counts (`Dispatch::profile`) against the dispatch's own `Stats`:
//! per class they must add up to the `--stats` totals, on several worker
//! threads, for loops, LDS and a faulting dispatch.

use risa_cayman_emu::profile::{Count, Profile};
use risa_cayman_emu::program::CfKind;
use risa_cayman_emu::*;
use risa_runtime::cayman::{load, run, Arg};

fn kernel(file: &str) -> Kernel {
    let p = format!(
        "{}/../../tests/fixtures/cayman/{file}.o",
        env!("CARGO_MANIFEST_DIR")
    );
    load(&std::fs::read(&p).expect("fixture"))
        .expect("load")
        .remove(0)
}

fn sum(c: &[Count]) -> Count {
    c.iter().fold(Count::default(), |a, b| Count {
        waves: a.waves + b.waves,
        lanes: a.lanes + b.lanes,
    })
}

/// Checks `p` against `st`: CF, ALU group, fetch, RAT and LDS totals, and
/// no count with more than 64 lanes per execution.
fn check(p: &Profile, st: &Stats) {
    let cf = p.program.cf.len();
    let alu_end = p.layout.fetch.first().copied().unwrap_or(p.layout.len);
    assert_eq!(sum(&p.counts[..cf]).waves, st.cf_instructions, "CF");
    assert_eq!(
        sum(&p.counts[cf..alu_end]).waves,
        st.alu_groups,
        "ALU groups"
    );
    assert_eq!(sum(&p.counts[alu_end..]).waves, st.fetches, "fetches");
    let rat: u64 = p
        .program
        .cf
        .iter()
        .zip(&p.counts)
        .filter(|(op, _)| matches!(op.kind, CfKind::Rat { .. }))
        .map(|(_, c)| c.waves)
        .sum();
    assert_eq!(rat, st.rat_ops, "RAT");
    // ALU slots and LDS ops: each group's count times its slots
    let (mut slots, mut lds) = (0, 0);
    for (c, clause) in p.program.alu.iter().enumerate() {
        let Ok(clause) = clause else { continue };
        for (g, group) in clause.groups.iter().enumerate() {
            let n = p.counts[p.layout.alu[c] + g].waves;
            let instrs = &clause.instrs[group.first as usize..][..group.len as usize];
            slots += n * group.len as u64;
            lds += n * instrs.iter().filter(|i| i.lds.is_some()).count() as u64;
        }
    }
    assert_eq!(slots, st.alu_instructions, "ALU slots");
    assert_eq!(lds, st.lds_ops, "LDS ops");
    for c in &p.counts {
        assert!(c.lanes <= 64 * c.waves, "{c:?}");
    }
}

/// Runs `k` with and without a profile: same results, counts matching the stats.
fn profiled(k: &Kernel, d: &Dispatch, args: &[Arg], bytes: &[u8]) -> (Profile, Stats) {
    let plain = Pool::from_bytes(bytes);
    let st0 = run(k, d, args, &plain).expect("unprofiled run");
    let pool = Pool::from_bytes(bytes);
    let sink = ProfileSink::new();
    let mut d = d.clone();
    d.profile = Some(sink.clone());
    let st = run(k, &d, args, &pool).expect("profiled run");
    assert_eq!(st, st0, "profiling changed the stats");
    assert_eq!(
        pool.to_bytes(),
        plain.to_bytes(),
        "profiling changed the results"
    );
    let p = sink.take().expect("a profile");
    check(&p, &st);
    (p, st)
}

#[test]
fn while_loop_counts_add_up_to_the_stats_on_two_threads() {
    let k = kernel("while_loop");
    let n = 1024u32;
    let mut bytes: Vec<u8> = (0..n).flat_map(|i| (i * 7919 + 27).to_le_bytes()).collect();
    bytes.resize(8 * n as usize, 0);
    // work-groups of 40: each wave has 24 lanes that are no work-item
    let mut d = Dispatch::linear(n - 24, 40);
    d.threads = 2;
    let (p, st) = profiled(&k, &d, &[Arg::Ptr(0), Arg::Ptr(4 * n)], &bytes);
    assert_eq!(st.workgroups, 25);
    // the first CF instruction runs once per wave with each of its 40
    // work-items active
    assert_eq!(
        p.counts[0],
        Count {
            waves: 25,
            lanes: 25 * 40
        }
    );
    // a loop: some ALU group ran more often than once per wave
    assert!(p.counts.iter().any(|c| c.waves > 25));
}

#[test]
fn lds_reduce_counts_its_lds_ops() {
    let k = kernel("lds_reduce");
    let n = 64 * 8;
    let mut bytes: Vec<u8> = (0..n)
        .flat_map(|i| ((i % 13) as f32).to_le_bytes())
        .collect();
    bytes.resize(4 * n + 32, 0);
    let mut d = Dispatch::linear(n as u32, 64);
    d.threads = 2;
    let (_, st) = profiled(&k, &d, &[Arg::Ptr(0), Arg::Ptr(4 * n as u32)], &bytes);
    assert!(st.lds_ops > 0 && st.barriers > 0);
}

#[test]
fn a_faulting_dispatch_still_reports_what_ran() {
    let k = kernel("vadd");
    let pool = Pool::new(64);
    let sink = ProfileSink::new();
    let mut d = Dispatch::linear(64, 64);
    d.profile = Some(sink.clone());
    // the output pointer lies past the pool: the RAT store faults
    let args = [Arg::Ptr(0), Arg::Ptr(0), Arg::Ptr(1 << 20), Arg::U32(64)];
    assert!(run(&k, &d, &args, &pool).is_err());
    let p = sink.take().expect("a profile after the fault");
    let cf = p.program.cf.len();
    let ran = sum(&p.counts[..cf]).waves;
    assert!(ran > 0 && ran < cf as u64, "{ran} CF instructions ran");
}
