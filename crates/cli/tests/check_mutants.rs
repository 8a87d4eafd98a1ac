//! Mutants prove the run-time checkers find what they claim: each PoCL
//! corpus kernel (every GCN chip, both toolchains) is disassembled with
//! `risa disasm --hex`, one thing is changed in the text, and the object is
//! reassembled with `risa asm`:
//! - `nowait`: one `s_waitcnt` becomes `s_nop 0` (same size: PCs stay);
//! - `weak`: one `s_waitcnt` waits for one more outstanding op per counter;
//! - `early`: the instruction after an `s_waitcnt` moves above it (a read
//!   before the wait: expected at the wait's old PC);
//! - `nobarrier`: one `s_barrier` becomes `s_nop 0`.
//!
//! Each mutant runs under `--check=waitcnt,races`. Whenever its outputs
//! differ from the original's, a finding of the right kind must name the
//! right PC: for `nowait`/`weak` a waitcnt finding after the changed wait
//! and before the next `s_waitcnt`; for `early` one at the moved
//! instruction; for `nobarrier` a race whose two accesses lie on both sides
//! of the removed barrier.
//!
//! `cargo test` runs every 25th mutant; `RISA_MUTANTS=all` runs all of them
//! and prints the figures per generation and kind (docs/checks.md quotes
//! them; tools/check-mutants.sh runs it).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

mod common;
use common::pocl::{cases, objects, run_args};
use common::tmpdir;

/// The listing lines that are instructions of `kernel` (from its label to
/// the next global symbol's): (line index, PC, text).
fn instructions(listing: &str, kernel: &str) -> Vec<(usize, u64, String)> {
    let head = format!("{kernel}:");
    let mut inside = false;
    listing
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            if !l.starts_with([' ', '.', '#']) && l.ends_with(':') {
                inside = *l == head;
            }
            inside
        })
        .filter_map(|(n, l)| {
            let (code, hex) = l.split_once("# ")?;
            let pc = u64::from_str_radix(hex.split(':').next()?.trim(), 16).ok()?;
            let code = code.trim();
            (!code.is_empty() && !code.starts_with('.')).then(|| (n, pc, code.to_string()))
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum How {
    NoWait,
    Weak,
    Early,
    NoBarrier,
}

struct Mutant {
    how: How,
    lines: Vec<String>,
    /// PC range a finding must fall in (half-open), or for races: the
    /// removed barrier's PC.
    want: (u64, u64),
    /// The kernel's loops as (first PC, backward branch PC).
    loops: Vec<(u64, u64)>,
}

/// The loops of a listing: each backward branch (PC) and its target (PC of
/// the instruction after the label).
fn loops(listing: &str, ins: &[(usize, u64, String)]) -> Vec<(u64, u64)> {
    let lines: Vec<&str> = listing.lines().collect();
    let mut label_pc = std::collections::HashMap::new();
    for (n, pc, _) in ins {
        let mut k = *n;
        while k > 0 && lines[k - 1].ends_with(':') && lines[k - 1].starts_with('.') {
            label_pc.insert(lines[k - 1].trim_end_matches(':').to_string(), *pc);
            k -= 1;
        }
    }
    ins.iter()
        .filter(|(_, _, t)| t.starts_with("s_branch") || t.starts_with("s_cbranch"))
        .filter_map(|(_, pc, t)| {
            let target = label_pc.get(t.split_whitespace().last()?)?;
            (target <= pc).then_some((*target, *pc))
        })
        .collect()
}

/// `s_waitcnt` text with every counter one weaker; None when none can be.
fn weaken(code: &str, vm_max: u32) -> Option<String> {
    let mut out = code.to_string();
    let mut changed = false;
    for (name, max) in [("vmcnt", vm_max), ("lgkmcnt", 15)] {
        let Some(at) = out.find(&format!("{name}(")) else {
            continue;
        };
        let start = at + name.len() + 1;
        let end = start + out[start..].find(')')?;
        let n: u32 = out[start..end].parse().ok()?;
        if n < max {
            out.replace_range(start..end, &(n + 1).to_string());
            changed = true;
        }
    }
    changed.then_some(out)
}

fn mutants(listing: &str, kernel: &str, vm_max: u32) -> Vec<Mutant> {
    let lines: Vec<String> = listing.lines().map(String::from).collect();
    let ins = instructions(listing, kernel);
    let lp = loops(listing, &ins);
    let mut v = Vec::new();
    let with = |n: usize, text: &str| {
        let mut l = lines.clone();
        l[n] = format!("    {text}");
        l
    };
    for (k, (n, pc, code)) in ins.iter().enumerate() {
        let next_wait = ins[k + 1..]
            .iter()
            .find(|i| i.2.starts_with("s_waitcnt"))
            .map_or(u64::MAX, |i| i.1);
        if code.starts_with("s_waitcnt") {
            v.push(Mutant {
                how: How::NoWait,
                lines: with(*n, "s_nop 0"),
                want: (*pc + 1, next_wait),
                loops: Vec::new(),
            });
            if let Some(w) = weaken(code, vm_max) {
                v.push(Mutant {
                    how: How::Weak,
                    lines: with(*n, &w),
                    want: (*pc + 1, next_wait),
                    loops: Vec::new(),
                });
            }
            if let Some((m, _, next)) = ins.get(k + 1) {
                let plain = !next.starts_with("s_waitcnt")
                    && !next.starts_with("s_barrier")
                    && !next.starts_with("s_endpgm")
                    && !next.starts_with("s_cbranch")
                    && !next.starts_with("s_branch")
                    && *m == n + 1;
                if plain {
                    let mut l = lines.clone();
                    l.swap(*n, *m);
                    v.push(Mutant {
                        how: How::Early,
                        lines: l,
                        want: (*pc, *pc + 1),
                        loops: Vec::new(),
                    });
                }
            }
        }
        if code.starts_with("s_barrier") {
            v.push(Mutant {
                how: How::NoBarrier,
                lines: with(*n, "s_nop 0"),
                want: (*pc, *pc),
                loops: lp.clone(),
            });
        }
    }
    v
}

/// (PC, kind, message) of every finding in `risa run`'s stderr.
fn findings(stderr: &str) -> Vec<(u64, String, String)> {
    stderr
        .lines()
        .filter_map(|l| {
            let rest = l.split_once(".o:0x")?.1;
            let (pc, rest) = rest.split_once(": ")?;
            let (kind, msg) = rest.split_once(": ")?;
            Some((u64::from_str_radix(pc, 16).ok()?, kind.into(), msg.into()))
        })
        .collect()
}

/// The PCs (`at 0x..`) a message names.
fn named_pcs(msg: &str) -> Vec<u64> {
    msg.split("at 0x")
        .skip(1)
        .filter_map(|s| {
            let h: String = s.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
            u64::from_str_radix(&h, 16).ok()
        })
        .collect()
}

fn found(m: &Mutant, f: &[(u64, String, String)]) -> bool {
    f.iter().any(|(pc, kind, msg)| match m.how {
        How::NoBarrier => {
            // The two accesses had the removed barrier between them: in
            // layout order, or through the back edge of a loop holding all three.
            let b = m.want.0;
            let pc = *pc;
            kind == "races"
                && named_pcs(msg).iter().any(|&o| {
                    let (lo, hi) = (o.min(pc), o.max(pc));
                    (lo < b && b < hi)
                        || m.loops
                            .iter()
                            .any(|&(s, e)| s <= lo.min(b) && hi.max(b) <= e)
                })
        }
        _ => kind == "waitcnt" && *pc >= m.want.0 && *pc < m.want.1,
    })
}

fn outputs(dir: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[derive(Default)]
struct Tally {
    total: u64,
    changed: u64,
    found: u64,
}

#[test]
fn mutants_whose_outputs_change_are_found_at_the_right_pc() {
    let all = std::env::var("RISA_MUTANTS").is_ok_and(|v| v == "all");
    let scratch = tmpdir("mutants");
    let tmp = scratch.path();
    let risa = env!("CARGO_BIN_EXE_risa");
    let mut tally: BTreeMap<(String, How), Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut seen_objects = std::collections::HashSet::new();
    let mut index = 0u64;
    for c in cases() {
        for (label, obj) in objects(&c.source) {
            if label == "cayman" || !seen_objects.insert((label.clone(), c.kernel.clone())) {
                continue;
            }
            let chip = label.rsplit('/').next().unwrap().to_string();
            let gen = match chip.as_str() {
                "tahiti" => "gcn1.0",
                "hawaii" => "gcn1.1",
                "fiji" => "gcn1.2",
                _ => "gcn1.4",
            };
            let vm_max = if gen == "gcn1.4" { 63 } else { 15 };
            let o = Command::new(risa)
                .args(["disasm", "--hex", obj.to_str().unwrap()])
                .output()
                .unwrap();
            let listing = String::from_utf8(o.stdout).unwrap();
            let base_out = tmp.join("base");
            let _ = std::fs::remove_dir_all(&base_out);
            let st = Command::new(risa)
                .args(run_args(&c, &obj, &base_out))
                .output()
                .unwrap();
            assert!(st.status.success(), "{} on {label}", c.name);
            let want = outputs(&base_out);
            if all {
                eprintln!("{} on {label}", c.name);
            }
            for m in mutants(&listing, &c.kernel, vm_max) {
                index += 1;
                if !all && !index.is_multiple_of(25) {
                    continue;
                }
                let t = tally.entry((gen.to_string(), m.how)).or_default();
                t.total += 1;
                let s = tmp.join("m.s");
                let mo = tmp.join("m.o");
                std::fs::write(&s, m.lines.join("\n") + "\n").unwrap();
                let a = Command::new(risa)
                    .args(["asm", "--format", "elf", "-o"])
                    .arg(&mo)
                    .arg(&s)
                    .output()
                    .unwrap();
                assert!(
                    a.status.success(),
                    "{} {label} {:?}: {}",
                    c.name,
                    m.how,
                    String::from_utf8_lossy(&a.stderr)
                );
                let out = tmp.join("m-out");
                let _ = std::fs::remove_dir_all(&out);
                let mut args = run_args(&c, &mo, &out);
                // A mutant may spin forever (a flag read too early): a
                // budget fault counts as a changed output.
                args.extend([
                    "--check=waitcnt,races".into(),
                    "--max-instructions".into(),
                    "2000000".into(),
                ]);
                let r = Command::new(risa).args(&args).output().unwrap();
                let got = outputs(&out);
                if got == want && r.status.success() {
                    continue;
                }
                t.changed += 1;
                let stderr = String::from_utf8_lossy(&r.stderr);
                if found(&m, &findings(&stderr)) {
                    t.found += 1;
                } else {
                    misses.push(format!(
                        "{} on {label}: {:?} at {:#x}..{:#x} not found; stderr:\n{}",
                        c.name,
                        m.how,
                        m.want.0,
                        m.want.1,
                        stderr.lines().take(8).collect::<Vec<_>>().join("\n")
                    ));
                }
            }
        }
    }
    let (mut total, mut changed, mut hit) = (0, 0, 0);
    println!("generation kind       mutants changed found");
    for ((g, h), t) in &tally {
        println!(
            "{g:<10} {:<10} {:>7} {:>7} {:>5}",
            format!("{h:?}"),
            t.total,
            t.changed,
            t.found
        );
        total += t.total;
        changed += t.changed;
        hit += t.found;
    }
    println!("all                   {total:>7} {changed:>7} {hit:>5}");
    for m in &misses {
        println!("MISS {m}");
    }
    // At least 99 % of the mutants whose outputs change are found.
    assert!(
        hit * 100 >= changed * 99,
        "{} of {changed} changed mutants not found:\n{}",
        changed - hit,
        misses.join("\n")
    );
    assert!(total > 0);
}

#[test]
fn run_check_prints_findings_once_per_pc_and_check_error_exits_4() {
    let scratch = tmpdir("check-cli");
    let tmp = scratch.path();
    let c = cases().into_iter().find(|c| c.name == "lds_scan").unwrap();
    let (_, obj) = objects(&c.source)
        .into_iter()
        .find(|(l, _)| l == "gcn/gfx900")
        .unwrap();
    let risa = env!("CARGO_BIN_EXE_risa");
    let o = Command::new(risa)
        .args(["disasm", "--hex", obj.to_str().unwrap()])
        .output()
        .unwrap();
    let listing = String::from_utf8(o.stdout).unwrap();
    let m = mutants(&listing, &c.kernel, 63)
        .into_iter()
        .find(|m| m.how == How::NoWait && m.want.0 == 0x81)
        .expect("the s_waitcnt vmcnt(0) before the first ds_write");
    let (s, mo) = (tmp.join("m.s"), tmp.join("m.o"));
    std::fs::write(&s, m.lines.join("\n") + "\n").unwrap();
    let a = Command::new(risa)
        .args(["asm", "--format", "elf", "-o"])
        .args([&mo, &s])
        .status()
        .unwrap();
    assert!(a.success());
    let mut args = run_args(&c, &mo, &tmp.join("out"));
    args.extend(["--check=waitcnt".into(), "--check-error".into()]);
    let r = Command::new(risa).args(&args).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(4), "{err}");
    // One line per (PC, kind), with the count and the instruction below it.
    let first = err.lines().next().unwrap();
    assert!(
        first.ends_with(
            "m.o:0x84: waitcnt: wave 0 reads v5 while `global_load_dword v5, v[3:4], off` \
             at 0x6c that writes it is outstanding [16 times]"
        ),
        "{err}"
    );
    assert_eq!(err.lines().nth(1), Some("    ds_write_b32 v4, v5"));
    assert_eq!(err.matches(":0x84: waitcnt").count(), 1);
    // The unmutated object: no finding, exit 0.
    let mut args = run_args(&c, &obj, &tmp.join("out2"));
    args.extend(["--check=all".into(), "--check-error".into()]);
    let r = Command::new(risa).args(&args).output().unwrap();
    assert_eq!(r.status.code(), Some(0));
    assert!(
        r.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
}
