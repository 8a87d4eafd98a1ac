//! The Cayman checkers on hand-written programs: each rule's bug is found
//! at its PC with its kind, and the corrected program gives no finding.

use risa_cayman_emu::program::Class;
use risa_cayman_emu::{Dispatch, Kernel, Pool};
use risa_check::cayman::{lint, rules, Session};
use risa_check::run::Options;
use risa_check::{Kind, Report};
use risa_runtime::cayman::{load, run};
use std::sync::Arc;

fn kernel(src: &str) -> Kernel {
    let out = risa_cayman_asm::assemble("t.s", src, Default::default());
    assert!(!out.has_errors(), "{}", out.diagnostics());
    load(&out.object().unwrap()).unwrap().remove(0)
}

/// Runs `src` on `grid` work-items in groups of `block` with every check.
fn checked(src: &str, grid: u32, block: u32) -> Report {
    let k = kernel(src);
    let s = Arc::new(Session::new(
        Options::parse("all").unwrap(),
        k.text.get(k.offset as usize..).unwrap(),
    ));
    let pool = Pool::new(64 * 1024);
    let mut d = Dispatch::linear(grid, block);
    d.max_instructions = 100_000;
    d.observe = Some(s.factory());
    run(&k, &d, &[], &pool).unwrap_or_else(|f| panic!("{f}"));
    s.report()
}

/// (PC, kind) of every finding.
fn places(r: &Report) -> Vec<(u64, Kind)> {
    r.findings().map(|(f, _)| (f.pc, f.kind)).collect()
}

fn static_places(src: &str) -> Vec<(u64, Kind)> {
    let k = kernel(src);
    places(&lint(k.text.get(k.offset as usize..).unwrap(), &Kind::ALL))
}

/// Stores R3.x at dword lid (R0.x) of the pool: the common tail.
const STORE: &str = "
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R0], R3.x___ BARRIER
        END:
";

#[test]
fn uninit_gpr_read_as_an_address() {
    // R7.x is never written: the RAT store's index reads it
    let bad = "k:\n ALU: BARRIER\n 0 x: MOV R3.x, R0.x\n MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R7], R3.x___ BARRIER\n END:\n";
    let r = checked(bad, 64, 64);
    assert_eq!(places(&r), [(8, Kind::Uninit)], "{}", r.render("t"));
    assert!(
        r.render("t").contains("reads R7.x in lane 0"),
        "{}",
        r.render("t")
    );
    let good = format!("k:\n ALU: BARRIER\n 0 x: MOV R3.x, R0.x\n{STORE}");
    assert!(checked(&good, 64, 64).is_empty());
}

#[test]
fn uninit_flows_through_copies_to_a_predicate() {
    // R9.y is copied (no finding) and the copy decides a branch (finding
    // at the PRED_SET's group)
    let src = |r: &str| {
        format!(
            "k:\n ALU: BARRIER\n 0 x: MOV R3.x, R0.x\n 1 y: MOV R4.y, {r}\n ALU_PUSH_BEFORE: BARRIER\n 0 x: PRED_SETNE_INT ____, R4.y, 0.0f UPDATE_EXEC_MASK UPDATE_PRED\n POP: ADDR(p) POP_CNT(1) BARRIER\n p:{STORE}"
        )
    };
    let r = checked(&src("R9.y"), 64, 64);
    let p = places(&r);
    assert_eq!(p.len(), 1, "{}", r.render("t"));
    assert_eq!(p[0].1, Kind::Uninit);
    assert!(
        r.render("t").contains("PRED_SETNE_INT reads R4.y"),
        "{}",
        r.render("t")
    );
    assert!(checked(&src("R0.y"), 64, 64).is_empty());
}

#[test]
fn pv_rules() {
    // PV at the start of a clause, PV of an empty slot, PV of a MOVA_INT
    for (body, kind) in [
        (" 0 x: MOV R3.x, PV.x\n", Kind::Uninit),
        (" 0 x: MOV R3.x, R0.x\n 1 y: MOV R4.y, PV.y\n", Kind::Uninit),
        (
            " 0 x: MOVA_INT ____, R0.x\n 1 x: MOV R3.x, PV.x\n",
            Kind::Hazard,
        ),
    ] {
        let src = format!("k:\n ALU: BARRIER\n{body}{STORE}");
        let want: Vec<Kind> = vec![kind];
        let got: Vec<Kind> = static_places(&src).into_iter().map(|p| p.1).collect();
        assert_eq!(got, want, "{body}");
        let r = checked(&src, 64, 64);
        assert!(
            places(&r).iter().any(|p| p.1 == kind),
            "{body}: {}",
            r.render("t")
        );
    }
    // PV of the slot the previous group wrote: fine
    let ok = format!("k:\n ALU: BARRIER\n 0 x: MOV R3.x, R0.x\n 1 x: MOV R3.x, PV.x\n{STORE}");
    assert!(static_places(&ok).is_empty());
    assert!(checked(&ok, 64, 64).is_empty());
}

#[test]
fn ar_needs_a_mova_in_an_earlier_group() {
    // risa's assembler refuses AR without a MOVA* (4.6.1): take a correct
    // clause and turn its MOVA_INT into a NOP, as a binary from elsewhere
    // could have it
    let good = format!(
        "k:\n ALU: BARRIER\n 0 x: MOVA_INT ____, 0.0f\n 1 x: MOV R3.x, R0[AR.x].x\n{STORE}"
    );
    assert!(static_places(&good).is_empty());
    assert!(checked(&good, 64, 64).is_empty());
    let mut cl = kernel(&good).program.alu[0].clone().unwrap();
    assert!(rules::clause_rules(&cl).iter().all(|g| g.is_empty()));
    cl.instrs[0].class = Class::Nop;
    let f = rules::clause_rules(&cl);
    assert!(f[0].is_empty());
    assert_eq!(f[1].len(), 1);
    assert_eq!(f[1][0].0, Kind::Hazard);
    assert!(f[1][0].1.contains("guide 4.6.1"), "{}", f[1][0].1);
    // a MOVA* in the group that uses AR (the assembler refuses it too)
    let mut cl = kernel(&good).program.alu[0].clone().unwrap();
    cl.instrs[1].class = Class::Mova;
    let f = rules::clause_rules(&cl);
    assert!(
        f[1].iter()
            .any(|(k, m)| *k == Kind::Hazard && m.contains("4.8.3")),
        "{f:?}"
    );
}

#[test]
fn lds_output_queue_left_full() {
    let src = |pop: &str| {
        format!(
            "k:\n .lds_size 256\n ALU: BARRIER\n 0 x: LSHL_INT R2.x, R0.x, (2)\n 1 x: LDS_WRITE R2.x, R0.x\n 2 x: LDS_READ_RET R2.x\n{pop} 3 x: MOV R3.x, R0.x\n{STORE}"
        )
    };
    let bad = static_places(&src(""));
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].1, Kind::Waitcnt);
    assert!(static_places(&src(" 3 y: MOV R4.y, OQAP\n")).is_empty());
}

#[test]
fn lds_race_without_group_barrier() {
    // two waves: each writes LDS[lid], then reads LDS[127 - lid] (the other
    // wave's dword): a race unless a GROUP_BARRIER lies between
    let src = |barrier: &str| {
        format!(
            "k:\n .lds_size 512\n ALU: BARRIER\n 0 x: LSHL_INT R2.x, R0.x, (2)\n 1 x: LDS_WRITE R2.x, R0.x\n{barrier} 3 z: SUB_INT R2.z, (508), R2.x\n 4 x: LDS_READ_RET R2.z\n 5 x: MOV R3.x, OQAP\n{STORE}"
        )
    };
    // wave 1's write meets wave 0's read, wave 1's read wave 0's write
    // (wave 0 also reads wave 1's dword before wave 1 wrote it: uninit)
    let r = checked(&src(""), 128, 128);
    let races: Vec<u64> = places(&r)
        .into_iter()
        .filter(|p| p.1 == Kind::Race)
        .map(|p| p.0)
        .collect();
    assert_eq!(races, [0x30, 0x48], "{}", r.render("t"));
    assert!(
        r.render("t").contains("with no GROUP_BARRIER between"),
        "{}",
        r.render("t")
    );
    assert!(checked(&src(" 2 x: GROUP_BARRIER ____\n"), 128, 128).is_empty());
}

#[test]
fn uninit_lds_read() {
    let src = |write: &str| {
        format!(
            "k:\n .lds_size 256\n ALU: BARRIER\n 0 x: LSHL_INT R2.x, R0.x, (2)\n{write} 2 x: LDS_READ_RET R2.x\n 3 x: MOV R3.x, OQAP\n{STORE}"
        )
    };
    let r = checked(&src(""), 64, 64);
    assert_eq!(
        places(&r).iter().map(|p| p.1).collect::<Vec<_>>(),
        [Kind::Uninit]
    );
    assert!(
        r.render("t").contains("reads LDS dword 0x0"),
        "{}",
        r.render("t")
    );
    assert!(checked(&src(" 1 x: LDS_WRITE R2.x, R0.x\n"), 64, 64).is_empty());
}

#[test]
fn clause_without_barrier_reading_a_fetch() {
    // the TC clause writes R3.x; the ALU clause after it reads R3.x: without
    // its BARRIER bit the two may run at once (guide 3.2)
    let src = |b: &str| {
        format!(
            "k:\n ALU: BARRIER\n 0 x: LSHL_INT R2.x, R0.x, (2)\n TC: BARRIER\n VFETCH R3.x___, R2.x, fc1 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT\n ALU: {b}\n 0 x: ADD_INT R3.x, R3.x, 1\n{STORE}"
        )
    };
    let bad = static_places(&src(""));
    assert_eq!(bad, [(16, Kind::Waitcnt)]);
    let r = checked(&src(""), 64, 64);
    assert_eq!(places(&r), [(16, Kind::Waitcnt)], "{}", r.render("t"));
    assert!(static_places(&src("BARRIER")).is_empty());
    assert!(checked(&src("BARRIER"), 64, 64).is_empty());
}
