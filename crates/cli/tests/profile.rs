//! `risa run --profile`, `--profile-html` and `--timeline` end to end: the
//! text profile adds up to `--stats`, the timeline is trace-event JSON, and
//! the HTML report renders in headless Chromium with no console message.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
mod common;
use common::{repo, risa, tmpdir};

/// `risa run` of the bundled vadd example over 1000 items plus `extra`.
fn run_vadd(extra: &[&str]) -> (i32, String, String) {
    run_vadd_object("examples/gcn/vadd-gfx900.o", extra)
}

/// `risa run` of the Cayman vadd fixture over 1000 items (README's command) plus `extra`.
fn run_cayman_vadd(extra: &[&str]) -> (i32, String, String) {
    run_vadd_object("tests/fixtures/cayman/vadd.o", extra)
}

/// `risa run` of the vadd object `path` (in the repository) over 1000 items plus `extra`.
fn run_vadd_object(path: &str, extra: &[&str]) -> (i32, String, String) {
    let obj = repo().join(path);
    let mut args = vec![
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "1000",
        "--arg",
        "buf:f32:0..1000",
        "--arg",
        "buf:f32:1000..2000",
        "--arg",
        "buf:zeros:4000",
        "--arg",
        "i32:1000",
    ];
    args.extend_from_slice(extra);
    risa(&args)
}

/// The `--stats` line `name` (e.g. `valu`) as a number.
fn stat(stderr: &str, name: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix(name))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {stderr}"))
}

#[test]
fn text_profile_adds_up_to_stats() {
    let (code, out, err) = run_vadd(&["--profile", "--stats", "--profile-top", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("# risa profile: vadd on gfx900, grid 1000x1x1"),
        "{out}"
    );
    let listing = out.split("Annotated listing").nth(1).unwrap();
    let sum: u64 = listing
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|p| p.ends_with('%'))
        })
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, stat(&err, "instructions:"));
    for cat in ["salu", "smem", "valu", "vmem"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(cat) && l.contains('%'))
            .unwrap();
        let n: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(n, stat(&err, cat), "{cat}");
    }
    let hot = out.split("Hottest instructions").nth(1).unwrap();
    assert_eq!(hot.lines().skip(2).take_while(|l| !l.is_empty()).count(), 3);
}

#[test]
fn timeline_is_trace_event_json() {
    let scratch = tmpdir("timeline");
    let d = scratch.path();
    let f = d.join("t.json");
    let (code, _, err) = run_vadd(&["--timeline", f.to_str().unwrap(), "--stats"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("timeline written to"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(j["otherData"]["kernel"], "vadd");
    let ev = j["traceEvents"].as_array().unwrap();
    let issued: u64 = ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] != "barrier")
        .map(|e| e["dur"].as_u64().unwrap())
        .sum();
    assert_eq!(issued, stat(&err, "instructions:"));
    let names = ev.iter().filter(|e| e["name"] == "thread_name").count() as u64;
    assert_eq!(names, stat(&err, "waves:"));
}

/// The Cayman `--stats` line `instructions: A CF, B ALU groups (..), C fetches, ..`:
/// (A, B, C).
fn cayman_issued(stderr: &str) -> (u64, u64, u64) {
    let l = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("instructions:"))
        .unwrap_or_else(|| panic!("no instructions line in {stderr}"));
    let n: Vec<u64> = l
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[3])
}

#[test]
fn cayman_timeline_is_trace_event_json() {
    // 256 work-items in groups of 128: two waves per group sharing LDS and
    // meeting at a GROUP_BARRIER
    let scratch = tmpdir("cayman-timeline");
    let d = scratch.path();
    let f = d.join("t.json");
    let obj = repo().join("tests/fixtures/cayman/lds_arg.o");
    let (code, _, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "256",
        "--block",
        "128",
        "--arg",
        "buf:i32:0..256",
        "--arg",
        "buf:zeros:1024",
        "--arg",
        "local:512",
        "--timeline",
        f.to_str().unwrap(),
        "--stats",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("timeline written to"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(j["otherData"]["kernel"], "lds_arg");
    assert_eq!(j["otherData"]["chip"], "cayman");
    let ev = j["traceEvents"].as_array().unwrap();
    let sum = |cats: &[&str]| -> u64 {
        ev.iter()
            .filter(|e| e["ph"] == "X" && cats.iter().any(|c| e["cat"] == *c))
            .map(|e| e["dur"].as_u64().unwrap())
            .sum()
    };
    let (cf, groups, fetches) = cayman_issued(&err);
    let waves = stat(&err, "waves:");
    // --stats counts wave-instructions, as the slices do
    assert_eq!(sum(&["cf", "rat/exp"]), cf, "{err}");
    assert_eq!(sum(&["alu", "lds", "GROUP_BARRIER"]), groups, "{err}");
    assert_eq!(sum(&["fetch"]), fetches, "{err}");
    assert!(sum(&["GROUP_BARRIER"]) > 0);
    let names = ev.iter().filter(|e| e["name"] == "thread_name").count() as u64;
    assert_eq!(names, waves);
    let starts = ev.iter().filter(|e| e["name"] == "wave start").count() as u64;
    let ends = ev.iter().filter(|e| e["name"] == "wave end").count() as u64;
    assert_eq!((starts, ends), (waves, waves));
    // every slice names the instruction it starts with
    assert!(ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] != "barrier")
        .all(|e| e["args"]["first_pc"].is_string()));
}

#[test]
fn profiling_options_refuse_what_they_cannot_do() {
    let scratch = tmpdir("profile-refuse");
    let d = scratch.path();
    let (code, _, err) = run_vadd(&["--profile", "--trace", d.join("t").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot be combined with --trace"), "{err}");
    let (code, _, err) = run_vadd(&["--profile-html", "/nonexistent-dir/p.html"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cannot write /nonexistent-dir/p.html"),
        "{err}"
    );
}

/// The Chromium binary on PATH, if any.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Opens `page` in headless Chromium and screenshots it to `png`; returns
/// the console messages the page logged.
fn render(chrome: &Path, page: &Path, png: &Path, profile_dir: &Path) -> Vec<String> {
    let mut child = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1200,1600",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile_dir.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = reader.join().unwrap();
    log.lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect()
}

/// The screenshot's pixels as RGB triples.
fn pixels(png: &Path) -> Vec<[u8; 3]> {
    let dec = png::Decoder::new(std::fs::File::open(png).unwrap());
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    assert!(step >= 3, "{:?}", info.color_type);
    buf[..info.buffer_size()]
        .chunks(step)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

#[test]
fn html_report_renders_in_chromium() {
    let Some(chrome) = chromium() else {
        eprintln!("skipped: chromium is not installed (apt-get install chromium)");
        return;
    };
    let scratch = tmpdir("profile-html");
    let d = scratch.path();
    let page = d.join("vadd.html");
    let (code, _, err) = run_vadd(&["--profile-html", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The control: a page that logs an error is caught, so a clean run of
    // the report means something.
    let bad = d.join("control.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><html><body><script>console.error('risa control')</script></body></html>",
    )
    .unwrap();
    let msgs = render(&chrome, &bad, &d.join("control.png"), &d.join("chrome"));
    assert!(msgs.iter().any(|m| m.contains("risa control")), "{msgs:?}");

    let shot = d.join("vadd.png");
    let msgs = render(&chrome, &page, &shot, &d.join("chrome"));
    assert!(msgs.is_empty(), "console messages: {msgs:?}");
    let px = pixels(&shot);
    let count = |c: [u8; 3]| px.iter().filter(|p| **p == c).count();
    let white = count([255, 255, 255]);
    assert!(white < px.len() * 95 / 100, "the page is (nearly) blank");
    // The heat bars (CSS) and the valu bar of the mix chart (SVG) are drawn.
    assert!(count([0xd6, 0x27, 0x28]) > 1000, "no heat bars");
    assert!(count([0x59, 0xa1, 0x4f]) > 1000, "no valu bar in the chart");
}

/// The listed counts (second column of the rows with a percentage) of the
/// text profile's section after `heading`.
fn listed_waves(out: &str, heading: &str) -> Vec<u64> {
    out.split(heading)
        .nth(1)
        .unwrap()
        .lines()
        .skip(1) // the rest of the heading's line
        .take_while(|l| !l.is_empty())
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|p| p.ends_with('%'))
        })
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .collect()
}

#[test]
fn cayman_text_profile_adds_up_to_stats() {
    let scratch = tmpdir("cayman-profile");
    let page = scratch.path().join("vadd.html");
    let (code, out, err) = run_cayman_vadd(&[
        "--profile",
        "--stats",
        "--profile-top",
        "3",
        "--profile-html",
        page.to_str().unwrap(),
        "--print",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("# risa profile: vadd on cayman, grid 1000x1x1, work-group 64x1x1"),
        "{out}"
    );
    // --stats: "instructions: 128 CF, 160 ALU groups (224 ALU slots), 32 fetches, 16 RAT, ..."
    let line = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("instructions:"))
        .unwrap_or_else(|| panic!("no instructions line in {err}"));
    let num = |what: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words
            .iter()
            .position(|w| w.trim_end_matches(',') == what)
            .unwrap();
        words[i - 1].parse().unwrap()
    };
    let (cf, groups, fetches, rat) = (num("CF"), num("ALU"), num("fetches"), num("RAT"));
    let listing = listed_waves(&out, "Annotated listing");
    assert_eq!(listing.iter().sum::<u64>(), cf + groups + fetches, "{out}");
    assert_eq!(listed_waves(&out, "Hottest instructions").len(), 3);
    // the mix: cf + rat/exp = CF instructions, alu = ALU groups, fetch = fetches
    let mix = |class: &str| -> u64 {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(class))
            .map_or(0, |l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
    };
    assert_eq!(mix("cf") + mix("rat/exp"), cf);
    assert_eq!(mix("rat/exp"), rat);
    assert_eq!(mix("alu") + mix("lds"), groups);
    assert_eq!(mix("fetch"), fetches);
    // each line is the disassembler's: CF 00 and the first VFETCH
    assert!(out.contains("0x0000  00 ALU_PUSH_BEFORE"), "{out}");
    assert!(out.contains("VFETCH"), "{out}");
    // the HTML page of the same run lists the same total
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(&format!(
        "<p>{} wave-instructions issued",
        cf + groups + fetches
    )));
}
