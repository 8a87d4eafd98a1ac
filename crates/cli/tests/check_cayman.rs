//! The Cayman checks through the CLI: no finding on clang's Cayman objects
//! (`risa check` on every fixture, `risa run --check=all` on the PoCL cases
//! and the LDS kernels), and mutants of those objects found at the right PC:
//! - `nogroupbarrier`: one GROUP_BARRIER becomes a NOP (same size);
//! - `nobarrierbit`: one CF instruction loses its BARRIER bit;
//! - `uninit`: one RAT export's INDEX_GPR becomes R120, which nothing writes.
//!
//! A mutant counts as "changed" when its outputs differ from the original's
//! (or it faults); a changed `nogroupbarrier` mutant must give a race or an
//! uninit LDS read after the removed barrier, an `uninit` mutant an uninit
//! finding at the export. A sequential emulator's outputs never change for a
//! missing BARRIER bit: those mutants are counted as found at run time (on
//! the path the run takes) and flagged by `risa check` (every CF
//! instruction in address order); what the run finds, the static rule must
//! flag at the same PC.
//! `RISA_MUTANTS=print` prints the table (docs/checks.md quotes it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::pocl::{cases, run_args, Case};
use common::{repo, tmpdir};

/// The PoCL cases with a Cayman object, and the LDS kernels with risa's own
/// inputs.
fn cayman_cases() -> Vec<(Case, PathBuf)> {
    let fx = repo().join("tests/fixtures/cayman");
    let mut v: Vec<Case> = cases()
        .into_iter()
        .filter(|c| fx.join(format!("{}.o", c.source)).exists())
        .collect();
    let own = |name: &str, block: &str, specs: &[&str]| Case {
        name: name.into(),
        source: name.into(),
        kernel: name.into(),
        grid: "512".into(),
        block: block.into(),
        offset: "-".into(),
        specs: specs.iter().map(|s| s.to_string()).collect(),
    };
    v.push(own("lds_reduce", "64", &["buf:f32:0..512", "zeros:64"]));
    v.push(own(
        "lds_arg",
        "256",
        &["buf:i32:0..512", "zeros:2048", "local:1024"],
    ));
    v.push(own("lds_atomics", "256", &["buf:i32:0..512", "zeros:64"]));
    v.into_iter()
        .map(|c| {
            let p = fx.join(format!("{}.o", c.source));
            (c, p)
        })
        .collect()
}

/// Runs a case on `obj` with extra arguments: (success, stderr, outputs).
fn run(c: &Case, obj: &Path, out: &Path, extra: &[&str]) -> (bool, String, Vec<Vec<u8>>) {
    let _ = std::fs::remove_dir_all(out);
    let mut args = run_args(c, obj, out);
    args.extend(extra.iter().map(|s| s.to_string()));
    let o = Command::new(env!("CARGO_BIN_EXE_risa"))
        .args(&args)
        .output()
        .unwrap();
    let outs = (0..c.specs.len())
        .map(|i| std::fs::read(out.join(format!("arg{i}.bin"))).unwrap_or_default())
        .collect();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        outs,
    )
}

/// (PC, kind, message) of every finding line of a report (`file:0xPC: kind: ...`).
fn findings(stderr: &str) -> Vec<(u64, String, String)> {
    stderr
        .lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(":0x")?;
            let (pc, rest) = rest.split_once(": ")?;
            let (kind, msg) = rest.split_once(": ")?;
            Some((u64::from_str_radix(pc, 16).ok()?, kind.into(), msg.into()))
        })
        .collect()
}

/// The other access's PC a race message names (`at 0x..`).
fn named_pc(msg: &str) -> Option<u64> {
    let rest = msg.split_once(" at 0x")?.1;
    let hex: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    u64::from_str_radix(&hex, 16).ok()
}

#[test]
fn cayman_fixtures_have_no_static_findings() {
    let dir = repo().join("tests/fixtures/cayman");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "o") {
            let (code, out, err) = common::risa(&["check", p.to_str().unwrap(), "--check-error"]);
            assert_eq!(code, 0, "{}: {out}{err}", p.display());
            assert!(out.is_empty(), "{}: {out}", p.display());
            n += 1;
        }
    }
    assert!(n >= 40, "only {n} Cayman fixtures");
}

#[test]
fn cayman_cases_run_checked_without_findings() {
    let scratch = tmpdir("cayman-clean");
    let tmp = scratch.path();
    for (c, obj) in cayman_cases() {
        let (ok, err, plain) = run(&c, &obj, &tmp.join("a"), &[]);
        assert!(ok, "{}: {err}", c.name);
        let (ok, err, checked) = run(&c, &obj, &tmp.join("b"), &["--check=all", "--check-error"]);
        assert!(ok, "{}: {err}", c.name);
        assert!(findings(&err).is_empty(), "{}: {err}", c.name);
        assert_eq!(plain, checked, "{}: outputs differ when checked", c.name);
    }
}

/// Where each mutable thing is in a Cayman object: the file offset of the
/// kernel's code, its GROUP_BARRIERs (byte offsets of their ALU words in
/// the code), CF instructions with BARRIER, RAT exports.
struct Sites {
    code_at: usize,
    group_barriers: Vec<u64>,
    barrier_bits: Vec<u64>,
    rat_exports: Vec<u64>,
    /// Byte ranges of the ALU clauses of each loop (LOOP_START to END_LOOP).
    loops: Vec<(u64, u64)>,
}

fn sites(bytes: &[u8], kernel: &str) -> Sites {
    use risa_cayman_emu::program::CfKind;
    let ks = risa_runtime::cayman::load(bytes).unwrap();
    let k = ks.iter().find(|k| k.name == kernel).unwrap();
    let code = &k.text[k.offset as usize..];
    let text_at = bytes
        .windows(k.text.len())
        .position(|w| w == &k.text[..])
        .unwrap();
    let p = &k.program;
    let mut s = Sites {
        code_at: text_at + k.offset as usize,
        group_barriers: Vec::new(),
        barrier_bits: Vec::new(),
        rat_exports: Vec::new(),
        loops: Vec::new(),
    };
    let clause_range = |c: usize| -> Option<(u64, u64)> {
        let cl = p.alu.get(c)?.as_ref().ok()?;
        let last = cl.groups.last()?;
        let start = 8 * u64::from(p.alu_addr[c]);
        Some((
            start,
            start + 8 * u64::from(last.at + u32::from(last.len) + 2),
        ))
    };
    for (i, op) in p.cf.iter().enumerate() {
        if matches!(op.kind, CfKind::LoopStart(_)) {
            let end = (op.addr as usize).min(p.cf.len());
            let r = p.cf[i..end]
                .iter()
                .filter_map(|o| match o.kind {
                    CfKind::Alu { clause, .. } => clause_range(clause as usize),
                    _ => None,
                })
                .fold(None, |acc: Option<(u64, u64)>, (a, b)| {
                    Some(acc.map_or((a, b), |(x, y)| (x.min(a), y.max(b))))
                });
            s.loops.extend(r);
        }
    }
    for (c, cl) in p.alu.iter().enumerate() {
        let Ok(cl) = cl else { continue };
        for g in &cl.groups {
            for k in 0..g.len as usize {
                if cl.instrs[g.first as usize + k].name == "GROUP_BARRIER" {
                    s.group_barriers
                        .push(8 * u64::from(p.alu_addr[c] + g.at + k as u32));
                }
            }
        }
    }
    for (i, op) in p.cf.iter().enumerate() {
        if op.barrier && i > 0 {
            s.barrier_bits.push(8 * i as u64);
        }
        if matches!(op.kind, CfKind::Rat { ty, .. } if ty & 1 != 0) {
            s.rat_exports.push(8 * i as u64);
        }
    }
    assert!(code.len() > 8);
    s
}

fn word(b: &mut [u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn set_word(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn cayman_mutants_are_found() {
    let scratch = tmpdir("cayman-mutants");
    let tmp = scratch.path();
    // kind -> (mutants, changed, found among changed; nobarrierbit: found
    // at run time), flagged by risa check
    let mut table: BTreeMap<&str, [u32; 4]> = BTreeMap::new();
    let mut missed = Vec::new();
    for (c, obj) in cayman_cases() {
        let orig = std::fs::read(&obj).unwrap();
        let (_, _, want) = run(&c, &obj, &tmp.join("orig"), &[]);
        let s = sites(&orig, &c.kernel);
        let mut mutants: Vec<(&str, u64, Vec<u8>)> = Vec::new();
        for &pc in &s.group_barriers {
            let mut b = orig.clone();
            // ALU_WORD1_OP2 ALU_INST [17:7]: GROUP_BARRIER (84) -> NOP (26)
            let at = s.code_at + pc as usize + 4;
            let w = word(&mut b, at);
            set_word(&mut b, at, (w & !(0x7ff << 7)) | (26 << 7));
            mutants.push(("nogroupbarrier", pc, b));
        }
        for &pc in &s.barrier_bits {
            let mut b = orig.clone();
            let at = s.code_at + pc as usize + 4;
            let w = word(&mut b, at);
            set_word(&mut b, at, w & !(1 << 31));
            mutants.push(("nobarrierbit", pc, b));
        }
        for &pc in &s.rat_exports {
            let mut b = orig.clone();
            // CF_ALLOC_EXPORT_WORD0_RAT INDEX_GPR [29:23]
            let at = s.code_at + pc as usize;
            let w = word(&mut b, at);
            set_word(&mut b, at, (w & !(0x7f << 23)) | (120 << 23));
            mutants.push(("uninit", pc, b));
        }
        for (n, (kind, pc, bytes)) in mutants.into_iter().enumerate() {
            let m = tmp.join(format!("{}-{n}.o", c.name));
            std::fs::write(&m, &bytes).unwrap();
            let (ok, err, got) = run(&c, &m, &tmp.join("mut"), &["--check=all"]);
            let changed = !ok || got != want;
            let f = findings(&err);
            let found = match kind {
                // the two accesses had the removed barrier between them: in
                // layout order, or through the back edge of a loop holding all three
                "nogroupbarrier" => f.iter().any(|(p, k, msg)| {
                    k == "races"
                        && named_pc(msg).is_some_and(|o| {
                            let (lo, hi) = (o.min(*p), o.max(*p));
                            (lo < pc && pc < hi)
                                || s.loops
                                    .iter()
                                    .any(|&(a, b)| a <= lo.min(pc) && hi.max(pc) <= b)
                        })
                }),
                "uninit" => f.iter().any(|(p, k, _)| *p == pc && k == "uninit"),
                _ => f.iter().any(|(p, k, _)| *p == pc && k == "waitcnt"),
            };
            let e = table.entry(kind).or_default();
            e[0] += 1;
            if kind == "nobarrierbit" {
                // what the run reports the static rule (program order, every
                // path) reports too; the run only sees the path it takes
                let (_, out, _) = common::risa(&["check", m.to_str().unwrap()]);
                let flagged = findings(&out)
                    .iter()
                    .any(|(p, k, _)| *p == pc && k == "waitcnt");
                assert!(
                    !found || flagged,
                    "{} {kind} at {pc:#x}: {err}{out}",
                    c.name
                );
                e[2] += u32::from(found);
                e[3] += u32::from(flagged);
                continue;
            }
            if changed {
                e[1] += 1;
                if found {
                    e[2] += 1;
                } else {
                    missed.push(format!("{} {kind} at {pc:#x}: {err}", c.name));
                }
            }
        }
    }
    if std::env::var("RISA_MUTANTS").is_ok_and(|v| v == "print") {
        println!("| kind | mutants | changed | found | flagged |");
        for (k, [n, ch, fo, fl]) in &table {
            println!("| {k} | {n} | {ch} | {fo} | {fl} |");
        }
    }
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
    assert!(
        table.get("nogroupbarrier").is_some_and(|e| e[1] > 0),
        "{table:?}"
    );
    assert!(table.get("uninit").is_some_and(|e| e[1] > 0), "{table:?}");
}
