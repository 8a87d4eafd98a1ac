//! Whole code objects round trip: `risa disasm K.o > K.s; risa asm --format
//! elf K.s -o K2.o` gives the same `.text`, `.rodata` (kernel descriptors and
//! data), metadata note, symbols and relocations, for every clang object in
//! tests/fixtures/gcn (code object v4) and tests/fixtures/gcn-v5 (v5), in
//! both dialects; and a few kernels run with the same results from both.
//! Cayman: the same for tests/fixtures/cayman (`.text`, `.AMDGPU.config`,
//! symbols, relocations).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{risa, tmpdir};

fn root() -> PathBuf {
    common::repo().join("tests/fixtures")
}

fn objects(dirs: &[&str]) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in dirs {
        let mut sub: Vec<PathBuf> = std::fs::read_dir(root().join(d))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        sub.sort();
        for p in sub {
            if p.is_dir() {
                let mut f: Vec<PathBuf> = std::fs::read_dir(&p)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .filter(|x| x.extension().is_some_and(|e| e == "o"))
                    .collect();
                f.sort();
                v.extend(f);
            } else if p.extension().is_some_and(|e| e == "o") {
                v.push(p);
            }
        }
    }
    v
}

/// Everything compared: sections by name, symbols, relocations, header.
fn differences(a: &[u8], b: &[u8], sections: &[&str]) -> Vec<String> {
    let x = risa_elf::Elf::parse(a).unwrap();
    let y = risa_elf::Elf::parse(b).unwrap();
    let mut d = Vec::new();
    for s in sections {
        let p = x.section_by_name(s).map(|s| (s.data, s.size));
        let q = y.section_by_name(s).map(|s| (s.data, s.size));
        if p != q {
            let at = match (p, q) {
                (Some(p), Some(q)) => p.0.iter().zip(q.0).position(|(a, b)| a != b),
                _ => None,
            };
            d.push(format!("{s} differs (first byte {at:?})"));
        }
    }
    let secname = |e: &risa_elf::Elf<'_>, i: u16| {
        e.sections
            .get(i as usize)
            .map_or(String::new(), |s| s.name.clone())
    };
    let syms = |e: &risa_elf::Elf<'_>| {
        let mut v: Vec<String> = e
            .symbols
            .iter()
            .filter(|s| s.sym_type != 3 && !s.name.is_empty())
            .map(|s| {
                format!(
                    "{} {:#x} size {} type {} bind {} vis {} in {}",
                    s.name,
                    s.value,
                    s.size,
                    s.sym_type,
                    s.bind,
                    s.other & 3,
                    secname(e, s.shndx)
                )
            })
            .collect();
        v.sort();
        v
    };
    let (sx, sy) = (syms(&x), syms(&y));
    if sx != sy {
        let only_x: Vec<_> = sx.iter().filter(|s| !sy.contains(s)).collect();
        let only_y: Vec<_> = sy.iter().filter(|s| !sx.contains(s)).collect();
        d.push(format!(
            "symbols: original {only_x:?}, reassembled {only_y:?}"
        ));
    }
    let relocs = |e: &risa_elf::Elf<'_>| {
        let mut v = Vec::new();
        for s in &e.sections {
            for r in e.relocations_for(s.index) {
                let sym = r
                    .symbol
                    .checked_sub(1)
                    .and_then(|i| e.symbols.get(i))
                    .map_or(String::new(), |t| {
                        if t.sym_type == 3 {
                            secname(e, t.shndx)
                        } else {
                            t.name.clone()
                        }
                    });
                v.push(format!(
                    "{}+{:#x} type {} {sym}{:+}",
                    s.name, r.offset, r.kind, r.addend
                ));
            }
        }
        v.sort();
        v
    };
    let (rx, ry) = (relocs(&x), relocs(&y));
    if rx != ry {
        d.push(format!("relocations: original {rx:?}, reassembled {ry:?}"));
    }
    if (x.flags, x.abi_version, x.osabi, x.machine, x.is64)
        != (y.flags, y.abi_version, y.osabi, y.machine, y.is64)
    {
        d.push(format!(
            "header: e_flags {:#x}/{:#x}, abi version {}/{}",
            x.flags, y.flags, x.abi_version, y.abi_version
        ));
    }
    d
}

/// disasm → asm for one object; `Err` names what went wrong.
fn round_trip(
    obj: &Path,
    dir: &Path,
    disasm: &[&str],
    asm: &[&str],
    sections: &[&str],
) -> Result<PathBuf, String> {
    let stem = obj
        .strip_prefix(root())
        .unwrap()
        .display()
        .to_string()
        .replace('/', "_");
    let tag = disasm.join("").replace('-', "");
    let s = dir.join(format!("{stem}.{tag}.s"));
    let o2 = dir.join(format!("{stem}.{tag}.o"));
    let o = obj.to_str().unwrap();
    let mut a = vec!["disasm"];
    a.extend_from_slice(disasm);
    a.push(o);
    let (code, text, err) = risa(&a);
    if code != 0 {
        return Err(format!("disasm failed: {err}"));
    }
    std::fs::write(&s, &text).unwrap();
    let mut a = vec!["asm"];
    a.extend_from_slice(asm);
    a.extend_from_slice(&[
        "--format",
        "elf",
        s.to_str().unwrap(),
        "-o",
        o2.to_str().unwrap(),
    ]);
    let (code, _, err) = risa(&a);
    if code != 0 {
        let first: Vec<&str> = err.lines().take(4).collect();
        return Err(format!("asm failed: {}", first.join(" | ")));
    }
    let d = differences(
        &std::fs::read(obj).unwrap(),
        &std::fs::read(&o2).unwrap(),
        sections,
    );
    if d.is_empty() {
        Ok(o2)
    } else {
        Err(d.join("; "))
    }
}

fn report(what: &str, n: usize, bad: &[String]) {
    eprintln!("{what}: {} of {n} identical", n - bad.len());
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn every_gcn_object_round_trips_in_both_dialects() {
    let scratch = tmpdir("gcn");
    let dir = scratch.path();
    let objs = objects(&["gcn", "gcn-v5"]);
    assert!(objs.len() >= 350, "only {} objects", objs.len());
    let mut bad = Vec::new();
    let mut n = 0;
    for o in &objs {
        for (dis, asm) in [
            (&[][..], &[][..]),
            (&["--syntax", "llvm"][..], &["--syntax", "llvm"][..]),
        ] {
            n += 1;
            if let Err(e) = round_trip(o, dir, dis, asm, &[".text", ".rodata", ".note"]) {
                bad.push(format!("{} {dis:?}: {e}", o.display()));
            }
        }
    }
    report("GCN objects × dialects", n, &bad);
}

#[test]
fn every_cayman_object_round_trips() {
    let scratch = tmpdir("cayman");
    let dir = scratch.path();
    let objs = objects(&["cayman"]);
    assert!(objs.len() >= 30, "only {} objects", objs.len());
    let mut bad = Vec::new();
    for o in &objs {
        if let Err(e) = round_trip(
            o,
            dir,
            &[],
            &["--arch", "cayman"],
            &[".text", ".AMDGPU.config", ".bss", ".data", ".rodata"],
        ) {
            bad.push(format!("{}: {e}", o.display()));
        }
    }
    report("Cayman objects", objs.len(), &bad);
}

/// Odd objects: random bytes written into sections of fixtures (GCN: the
/// descriptors and data of `.rodata`, the metadata note; Cayman: `.text`,
/// which makes invalid programs, and `.AMDGPU.config`) still round trip.
#[test]
fn objects_with_random_bytes_round_trip() {
    let scratch = tmpdir("mut");
    let dir = scratch.path();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let cases: [(&str, &str, &[&str]); 6] = [
        ("gcn/gfx900/vadd.o", ".rodata", &[]),
        (
            "gcn-v5/tahiti/libm_float.o",
            ".rodata",
            &["--syntax", "llvm"],
        ),
        ("gcn/hawaii/func_call.o", ".note", &[]),
        ("gcn-v5/fiji/multi_kernel.o", ".note", &["--syntax", "llvm"]),
        ("cayman/sin_cos.o", ".text", &["--arch", "cayman"]),
        (
            "cayman/lds_reduce.o",
            ".AMDGPU.config",
            &["--arch", "cayman"],
        ),
    ];
    let mut bad = Vec::new();
    let mut n = 0;
    let mut checks_off = 0;
    for (rel, sec, asm) in cases {
        let orig = std::fs::read(root().join(rel)).unwrap();
        let (off, size) = {
            let e = risa_elf::Elf::parse(&orig).unwrap();
            let s = e.section_by_name(sec).unwrap();
            (s.offset as usize, s.size as usize)
        };
        let dis: &[&str] = if asm.first() == Some(&"--syntax") {
            asm
        } else {
            &[]
        };
        for k in 0..12 {
            let mut m = orig.clone();
            for _ in 0..1 + rnd() % 3 {
                let at = off + (rnd() as usize) % size;
                if sec == ".note" {
                    m[at] ^= 1 << (rnd() % 8);
                } else {
                    m[at] = rnd() as u8;
                }
            }
            let p = dir.join(format!("{}-{k}.o", rel.replace('/', "_")));
            std::fs::write(&p, &m).unwrap();
            n += 1;
            let secs: &[&str] = if rel.starts_with("cayman") {
                &[".text", ".AMDGPU.config", ".bss"]
            } else {
                &[".text", ".rodata", ".note"]
            };
            // round_trip names files after the path under tests/fixtures
            let r = {
                let s = dir.join(format!("m{k}.s"));
                let o2 = dir.join(format!("m{k}.2.o"));
                let mut a = vec!["disasm"];
                a.extend_from_slice(dis);
                a.push(p.to_str().unwrap());
                let (code, text, err) = risa(&a);
                if code != 0 {
                    Err(format!("disasm: {err}"))
                } else {
                    checks_off += usize::from(text.contains(".vliw_checks off"));
                    std::fs::write(&s, text).unwrap();
                    let mut a = vec!["asm"];
                    a.extend_from_slice(asm);
                    a.extend_from_slice(&["--format", "elf", s.to_str().unwrap(), "-o"]);
                    a.push(o2.to_str().unwrap());
                    let (code, _, err) = risa(&a);
                    if code != 0 {
                        Err(format!("asm: {}", err.lines().next().unwrap_or("")))
                    } else {
                        let d = differences(&m, &std::fs::read(&o2).unwrap(), secs);
                        if d.is_empty() {
                            Ok(())
                        } else {
                            Err(d.join("; "))
                        }
                    }
                }
            };
            if let Err(e) = r {
                bad.push(format!("{rel} {sec} #{k}: {e}"));
            }
        }
    }
    eprintln!("{checks_off} invalid Cayman programs written with .vliw_checks off");
    assert!(checks_off > 0);
    report("objects with random bytes", n, &bad);
}

/// clang-14's sin_cos has two ALU clauses of 130 slots, whose 7-bit COUNT
/// wrapped to 2: the disassembly warns (stderr and comments), and the round
/// trip above still gives the same bytes.
#[test]
fn wrapped_alu_clause_counts_are_reported() {
    let o = root().join("cayman/sin_cos.o");
    let (code, text, err) = risa(&["disasm", o.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("COUNT wrapped").count(), 2, "{err}");
    assert_eq!(text.matches("; warning:").count(), 2, "{text}");
}

/// The oracle: risa's LLVM-dialect text of every fixture, assembled by
/// llvm-mc, gives clang's object again: the v4 objects with llvm-mc 14 (which
/// knows no `.amdhsa_code_object_version`), the v5 ones with llvm-mc 19.
/// Skipped for a version whose llvm-mc is not installed.
#[test]
fn llvm_mc_assembles_the_llvm_dialect_to_the_same_objects() {
    let scratch = tmpdir("mc");
    let dir = scratch.path();
    for (fixtures, mcs, what) in [
        (
            "gcn",
            &["llvm-mc-14", "llvm-mc"][..],
            "v4 objects through llvm-mc 14",
        ),
        (
            "gcn-v5",
            &["llvm-mc-19"][..],
            "v5 objects through llvm-mc 19",
        ),
    ] {
        let mc = mcs.iter().find(|m| {
            Command::new(m).arg("--version").output().is_ok_and(|o| {
                let v = String::from_utf8_lossy(&o.stdout).to_string();
                o.status.success()
                    && v.contains(if fixtures == "gcn" {
                        "version 14"
                    } else {
                        "version 19"
                    })
            })
        });
        let Some(mc) = mc else {
            eprintln!("{what}: llvm-mc not found, skipped");
            continue;
        };
        let objs = objects(&[fixtures]);
        let mut bad = Vec::new();
        for o in &objs {
            let cpu = o.parent().unwrap().file_name().unwrap().to_str().unwrap();
            let (code, text, err) = risa(&["disasm", "--syntax", "llvm", o.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
            let s = dir.join("k.s");
            let o2 = dir.join("k.o");
            std::fs::write(&s, text).unwrap();
            let r = Command::new(mc)
                .args([
                    "-triple=amdgcn-amd-amdhsa",
                    &format!("-mcpu={cpu}"),
                    "-filetype=obj",
                ])
                .arg(&s)
                .arg("-o")
                .arg(&o2)
                .output()
                .unwrap();
            if !r.status.success() {
                let e = String::from_utf8_lossy(&r.stderr);
                bad.push(format!(
                    "{}: llvm-mc: {}",
                    o.display(),
                    e.lines().next().unwrap_or("")
                ));
                continue;
            }
            let d = differences(
                &std::fs::read(o).unwrap(),
                &std::fs::read(&o2).unwrap(),
                &[".text", ".rodata", ".note"],
            );
            if !d.is_empty() {
                bad.push(format!("{}: {}", o.display(), d.join("; ")));
            }
        }
        report(what, objs.len(), &bad);
    }
}

/// The original and the reassembled object run with the same arguments
/// give the same buffers.
#[test]
fn reassembled_objects_run_like_the_originals() {
    let scratch = tmpdir("run");
    let dir = scratch.path();
    let f32s = |v: &[f32]| -> String {
        let s: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
        format!("buf:f32:{}", s.join(","))
    };
    let a: Vec<f32> = (0..64).map(|i| (i as f32) * 0.37 - 9.0).collect();
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "gcn/gfx900/vadd.o",
            vec![f32s(&a), f32s(&a), "buf:zeros:256".into(), "i32:64".into()],
        ),
        (
            "gcn-v5/tahiti/vadd.o",
            vec![f32s(&a), f32s(&a), "buf:zeros:256".into(), "i32:64".into()],
        ),
        (
            "gcn/gfx900/libm_float.o",
            vec![f32s(&a), "buf:zeros:768".into()],
        ),
        (
            "gcn/fiji/libm_float.o",
            vec![f32s(&a), "buf:zeros:768".into()],
        ),
        (
            "gcn/gfx900/func_call.o",
            vec![
                "buf:i32:0..64".into(),
                "buf:i32:100..116".into(),
                "buf:zeros:256".into(),
                "buf:zeros:256".into(),
            ],
        ),
        (
            "gcn-v5/gfx900/func_call.o",
            vec![
                "buf:i32:0..64".into(),
                "buf:i32:100..116".into(),
                "buf:zeros:256".into(),
                "buf:zeros:256".into(),
            ],
        ),
        (
            "gcn/hawaii/lds_reduce.o",
            vec![f32s(&a), "buf:zeros:4".into()],
        ),
        ("cayman/vadd.o", {
            vec![f32s(&a), f32s(&a), "buf:zeros:256".into(), "i32:64".into()]
        }),
        (
            "cayman/libm_float.o",
            vec![f32s(&a), "buf:zeros:768".into()],
        ),
    ];
    for (rel, args) in &cases {
        let obj = root().join(rel);
        let (dis, asm): (&[&str], &[&str]) = if rel.starts_with("cayman") {
            (&[], &["--arch", "cayman"])
        } else {
            (&[], &[])
        };
        let o2 =
            round_trip(&obj, dir, dis, asm, &[".text"]).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let mut outs = Vec::new();
        for (k, o) in [obj.as_path(), o2.as_path()].iter().enumerate() {
            let out = dir.join(format!("{}-{k}", rel.replace('/', "_")));
            let mut cmd: Vec<String> = vec![
                "run".into(),
                o.display().to_string(),
                "--grid".into(),
                "64".into(),
                "--block".into(),
                "64".into(),
            ];
            for a in args {
                cmd.push("--arg".into());
                cmd.push(a.clone());
            }
            cmd.push("--out".into());
            cmd.push(out.display().to_string());
            let cmd: Vec<&str> = cmd.iter().map(String::as_str).collect();
            let (code, _, err) = risa(&cmd);
            assert_eq!(code, 0, "{rel} (object {k}): {err}");
            let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
                .unwrap()
                .map(|e| {
                    let p = e.unwrap().path();
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect();
            files.sort();
            assert!(!files.is_empty(), "{rel}: no outputs");
            outs.push(files);
        }
        assert_eq!(outs[0], outs[1], "{rel}: outputs differ");
    }
}
