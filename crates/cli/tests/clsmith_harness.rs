//! tools/clsmith/campaign.py end to end on one small CLSmith kernel (seed 105, basic
//! mode, gfx900 with clang-19): the row says `match` with this `risa`, and says
//! `mismatch` when the checksums risa writes are corrupted (a wrapper flips a byte of
//! the result buffer), so the comparison can fail; says `reads-uninit` when only the
//! build with every automatic variable filled with a pattern escapes the corruption (the
//! result depends on how uninitialised bytes are filled); and says `pocl-outvoted` when the
//! second opinion (an `oclgrind` on the PATH, here a stand-in that prints PoCL's
//! checksums with the same byte flipped) agrees with the corrupted risa. Skips, saying
//! so, without the oracles (CLSmith and cl_launcher from ../shared/oracles/build.sh,
//! PoCL, clang-19).

use std::path::PathBuf;
use std::process::Command;
mod common;

fn oracles() -> PathBuf {
    std::env::var_os("ORACLES").map_or_else(
        || PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/risa-oracles"),
        PathBuf::from,
    )
}

fn have(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The outcome column of the single row campaign.py prints with this risa binary,
/// with `path_first` (if any) searched first for programs.
fn outcome(risa: &str, path_first: Option<&std::path::Path>) -> String {
    let root = common::repo();
    let mut cmd = Command::new("python3");
    if let Some(dir) = path_first {
        let path = std::env::var("PATH").unwrap_or_default();
        cmd.env("PATH", format!("{}:{path}", dir.display()));
    }
    let o = cmd
        .arg(root.join("tools/clsmith/campaign.py"))
        .args([
            "--seeds",
            "105..106",
            "--modes",
            "basic",
            "--targets",
            "gfx900:clang19",
            "--risa",
            risa,
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "campaign.py failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 1, "one kernel x one target, got:\n{out}");
    let cols: Vec<&str> = rows[0].split('\t').collect();
    assert_eq!(&cols[..4], ["105", "basic", "gfx900", "clang19"], "{out}");
    cols[4].to_string()
}

#[test]
fn campaign_matches_pocl_and_catches_a_corrupted_checksum() {
    let pocl = Command::new("clinfo")
        .arg("-l")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("Portable Computing Language"));
    if !oracles().join("bin/CLSmith").exists()
        || !oracles().join("bin/cl_launcher").exists()
        || !pocl
        || !have("clang-19", "--version")
        || !have("python3", "--version")
    {
        eprintln!("skipped: CLSmith/cl_launcher, PoCL (clinfo), clang-19 or python3 missing");
        return;
    }
    let risa = env!("CARGO_BIN_EXE_risa");
    assert_eq!(outcome(risa, None), "match");
    // risa, then one flipped byte in the result buffer it wrote (--out DIR/arg0.bin)
    let scratch = common::tmpdir("clsmith");
    let dir = scratch.path();
    let wrapper = dir.join("corrupt-risa.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n\"{risa}\" \"$@\" || exit $?\n\
             out=$(for a in \"$@\"; do [ \"$prev\" = --out ] && echo \"$a\"; prev=$a; done)\n\
             printf '\\377' | dd of=\"$out/arg0.bin\" bs=1 seek=3 conv=notrunc 2>/dev/null\n"
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&wrapper)
        .status()
        .unwrap();
    let got = outcome(wrapper.to_str().unwrap(), None);
    assert_eq!(got, "mismatch");
    // a risa whose result changes when the kernel is rebuilt with every automatic
    // variable filled with a pattern (the campaign names that object `*-uninit.o`)
    let picky = dir.join("picky-risa.sh");
    std::fs::write(
        &picky,
        format!(
            "#!/bin/sh\ncase \"$2\" in *-uninit.o) exec \"{risa}\" \"$@\" ;; esac\n\
             exec \"{}\" \"$@\"\n",
            wrapper.display()
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&picky)
        .status()
        .unwrap();
    assert_eq!(outcome(picky.to_str().unwrap(), None), "reads-uninit");
    // an `oclgrind` that drops its own options, runs cl_launcher on PoCL and sets byte
    // 3 of item 0's checksum to 0xff, as the wrapper did to risa's
    let fake = dir.join("bin");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(
        fake.join("oclgrind"),
        "#!/usr/bin/python3\nimport subprocess, sys\n\
         a = sys.argv[1:]\nwhile a[0].startswith('--'):\n    a = a[2:]\n\
         v = subprocess.run(a, capture_output=True, text=True).stdout.strip().split(',')\n\
         v[0] = hex(int(v[0], 16) | 0xff << 24)\nprint(','.join(v))\n",
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(fake.join("oclgrind"))
        .status()
        .unwrap();
    let got = outcome(wrapper.to_str().unwrap(), Some(&fake));
    assert_eq!(got, "pocl-outvoted");
}
