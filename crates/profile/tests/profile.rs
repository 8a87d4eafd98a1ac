//! Profiles of clang-built kernels checked against the emulator's own
//! counters: every wave-instruction `--stats` counts is on exactly one line of
//! the profile, and the timeline's slices cover exactly those instructions.

use risa_gcn::Dialect;
use risa_gcn_emu::program::{Cat, CAT_COUNT};
use risa_profile::report::{self, Summary};
use risa_profile::timeline::{self, What};
use risa_profile::{html, Class, Limits, Profile, Profiler};
use risa_runtime::args::ArgValue;
use risa_runtime::gcn::GcnObject;
use risa_runtime::{LaunchConfig, RunResult};
use serde_json::Value;
use std::sync::Arc;

fn u32s(v: impl Iterator<Item = u32>) -> Vec<u8> {
    v.flat_map(|x| x.to_le_bytes()).collect()
}

/// A kernel of the fixtures with its arguments and launch shape.
struct Case {
    chip: &'static str,
    name: &'static str,
    args: Vec<ArgValue>,
    grid: u32,
    block: u32,
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for chip in ["tahiti", "fiji", "gfx900"] {
        v.push(Case {
            chip,
            name: "vadd",
            args: vec![
                ArgValue::Buffer(u32s((0..1000).map(|i| (i as f32).to_bits()))),
                ArgValue::Buffer(u32s((0..1000).map(|i| (i as f32 * 2.0).to_bits()))),
                ArgValue::Buffer(vec![0; 4000]),
                ArgValue::I32(1000),
            ],
            grid: 1000,
            block: 64,
        });
        // Four waves per group meeting at barriers, loops with EXEC masks.
        v.push(Case {
            chip,
            name: "lds_scan",
            args: vec![
                ArgValue::Buffer(u32s(0..1024)),
                ArgValue::Buffer(vec![0; 4096]),
                ArgValue::Buffer(vec![0; 16]),
                ArgValue::Local(1024),
            ],
            grid: 1024,
            block: 256,
        });
        v.push(Case {
            chip,
            name: "alu_loop",
            args: vec![ArgValue::Buffer(vec![0; 4 * 256]), ArgValue::I32(37)],
            grid: 256,
            block: 64,
        });
    }
    v
}

/// Runs `c` with a profiler attached (on `threads` threads).
fn profile(c: &Case, timeline: Option<Limits>, threads: usize) -> (Profile, RunResult) {
    let path = format!(
        "{}/../../tests/fixtures/gcn/{}/{}.o",
        env!("CARGO_MANIFEST_DIR"),
        c.chip,
        c.name
    );
    let bytes = std::fs::read(&path).unwrap();
    let obj = GcnObject::load(&bytes).unwrap();
    let k = obj.kernel(None).unwrap();
    let mut cfg = LaunchConfig::new([c.grid, 1, 1], 1);
    cfg.block = [c.block, 1, 1];
    cfg.threads = threads;
    let p = Profiler::new(Dialect::Clrx, timeline);
    let r = p.clone();
    cfg.observe = Some(Arc::new(move || r.recorder()));
    let res = risa_runtime::gcn::launch(&obj, k, &c.args, &cfg).unwrap();
    (p.finish(), res)
}

#[test]
fn counts_add_up_to_the_stats() {
    for c in cases() {
        for threads in [1, 3] {
            let (p, res) = profile(&c, None, threads);
            let s = Summary::new(&p);
            let at = format!("{} on {} ({threads} threads)", c.name, c.chip);
            assert_eq!(s.total, res.stats.total(), "{at}");
            let by_cat: Vec<u64> = s.by_class.iter().map(|(_, k)| k.waves).collect();
            assert_eq!(by_cat, res.stats.instructions.to_vec(), "{at}");
            // s_endpgm issues once per wave, with every lane of the wave's
            // part of the grid active.
            let l = p.listing.as_ref().unwrap();
            let end: Vec<usize> = (0..l.lines.len())
                .filter(|&i| l.lines[i].text == "s_endpgm" && p.counts[i].waves > 0)
                .collect();
            let waves: u64 = end.iter().map(|&i| p.counts[i].waves).sum();
            assert_eq!(waves, res.stats.waves, "{at}");
            // Lanes never exceed 64 per issue.
            for c in &p.counts {
                assert!(c.lanes <= 64 * c.waves, "{at}");
            }
        }
    }
}

#[test]
fn lanes_follow_exec() {
    // vadd over 1000 items: 15 full waves and one of 40 lanes; every
    // instruction before the bounds check runs once per wave with all of
    // the wave's lanes (the dispatch turns off lanes past the grid).
    let c = &cases()[0];
    let (p, _) = profile(c, None, 1);
    let l = p.listing.as_ref().unwrap();
    assert_eq!(l.lines[0].offset, 0);
    assert_eq!(p.counts[0].waves, 16);
    assert_eq!(p.counts[0].lanes, 1000);
}

#[test]
fn text_report_lists_every_executed_instruction_once() {
    let c = &cases()[4]; // lds_scan on fiji
    let (p, res) = profile(c, None, 2);
    let t = report::text(&p, "lds_scan", 5);
    let listing = t.split("Annotated listing").nth(1).unwrap();
    let mut sum = 0u64;
    for line in listing.lines().skip(2) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.first().is_some_and(|x| x.ends_with('%')) {
            sum += f[1].parse::<u64>().unwrap();
        }
    }
    assert_eq!(sum, res.stats.total());
    // The hottest table is sorted, most first.
    let hot = t.split("Hottest instructions").nth(1).unwrap();
    let counts: Vec<u64> = hot
        .lines()
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 5);
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    // The instruction mix names each category --stats counted.
    for (k, n) in res.stats.instructions.iter().enumerate() {
        if *n > 0 {
            let name = Cat::NAMES[k];
            assert!(
                t.lines()
                    .any(|l| l.starts_with(name) && l.contains(&n.to_string())),
                "{name} {n} missing"
            );
        }
    }
}

/// The trace-event file of `t` parsed back.
fn timeline_json(p: &Profile) -> Value {
    let mut out = Vec::new();
    let about = [("kernel", "k".to_string())];
    timeline::write_json(
        p.timeline.as_ref().unwrap(),
        p.listing.as_ref().unwrap(),
        &about,
        &mut out,
    )
    .unwrap();
    serde_json::from_slice(&out).expect("the timeline is JSON")
}

#[test]
fn timeline_slices_cover_every_instruction() {
    for c in cases() {
        let (p, res) = profile(&c, Some(Limits::default()), 2);
        let at = format!("{} on {}", c.name, c.chip);
        let j = timeline_json(&p);
        let ev = j["traceEvents"].as_array().unwrap();
        let mut per_cat = [0u64; CAT_COUNT];
        let mut issued = 0u64;
        let mut tracks: std::collections::BTreeMap<(u64, u64), Vec<(u64, u64)>> =
            Default::default();
        let mut starts = 0;
        let mut ends = 0;
        for e in ev {
            let ph = e["ph"].as_str().unwrap();
            let pid = e["pid"].as_u64().unwrap();
            let tid = e["tid"].as_u64().unwrap();
            assert!(pid >= 1, "{at}: pid 0 is the idle task in Perfetto");
            match ph {
                "M" => assert!(e["args"].is_object()),
                "X" => {
                    let ts = e["ts"].as_u64().unwrap();
                    let dur = e["dur"].as_u64().unwrap();
                    assert!(dur > 0, "{at}: {e}");
                    tracks.entry((pid, tid)).or_default().push((ts, dur));
                    let cat = e["cat"].as_str().unwrap();
                    if cat != "barrier" {
                        issued += dur;
                        assert_eq!(e["args"]["instructions"].as_u64(), Some(dur));
                    }
                    if let Some(k) = Cat::NAMES.iter().position(|n| *n == cat) {
                        per_cat[k] += dur;
                    }
                }
                "i" => match e["name"].as_str().unwrap() {
                    "wave start" => starts += 1,
                    "wave end" => ends += 1,
                    n => panic!("{at}: unexpected instant {n}"),
                },
                _ => panic!("{at}: unexpected phase {ph}"),
            }
        }
        assert_eq!(issued, res.stats.total(), "{at}");
        assert_eq!(starts, res.stats.waves, "{at}");
        assert_eq!(ends, res.stats.waves, "{at}");
        // Slices of one wave never overlap (the viewers need them nested).
        for ((pid, tid), mut s) in tracks {
            s.sort();
            for w in s.windows(2) {
                assert!(w[0].0 + w[0].1 <= w[1].0, "{at}: overlap on {pid}/{tid}");
            }
        }
        // Waits and barriers have slices of their own; every other slice
        // adds to its category.
        for (n, all) in per_cat.iter().zip(&res.stats.instructions) {
            assert!(n <= all, "{at}");
        }
    }
}

#[test]
fn barrier_waits_end_when_the_last_wave_arrives() {
    let c = &cases()[7]; // lds_scan on gfx900: 4 waves per group
    let (p, _) = profile(c, Some(Limits::default()), 1);
    let t = p.timeline.as_ref().unwrap();
    let g = &t.groups[0];
    assert_eq!(g.waves, 4);
    let l = p.listing.as_ref().unwrap();
    // The k-th s_barrier of each wave, and the wave's k-th release.
    let mut arrive = vec![Vec::new(); 4];
    let mut resume = vec![Vec::new(); 4];
    for e in &g.events {
        let w = e.wave as usize;
        match e.what {
            What::Run {
                class: Class::Barrier,
                first,
                ..
            } => {
                assert_eq!(l.lines[first as usize].text, "s_barrier");
                arrive[w].push(e.ts + 1);
            }
            What::BarrierWait { dur } => resume[w].push((e.ts, e.ts + dur)),
            _ => {}
        }
    }
    let rounds = arrive[0].len();
    assert!(rounds > 5);
    let last: Vec<u64> = (0..rounds)
        .map(|k| arrive.iter().map(|a| a[k]).max().unwrap())
        .collect();
    for (w, a) in arrive.iter().enumerate() {
        assert_eq!(a.len(), rounds);
        for (k, (&at, &release)) in a.iter().zip(&last).enumerate() {
            // A wave that arrived early waits until the last arrival.
            if at < release {
                assert!(resume[w].contains(&(at, release)), "round {k} wave {w}");
            }
        }
    }
}

#[test]
fn timeline_limits_are_kept_and_noted() {
    let c = &cases()[2]; // alu_loop on tahiti: 4 groups
    let limits = Limits {
        groups: 2,
        events: 7,
    };
    let (p, _) = profile(c, Some(limits), 2);
    let t = p.timeline.as_ref().unwrap();
    assert_eq!(t.groups.iter().map(|g| g.id).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(t.skipped_groups, 2);
    assert!(t
        .groups
        .iter()
        .all(|g| g.events.len() == 7 && g.dropped > 0));
    let j = timeline_json(&p);
    assert_eq!(j["otherData"]["groups_not_recorded"], 2);
    assert!(j["otherData"]["events_dropped"].as_u64().unwrap() > 0);
}

/// Checks that the tags of `page` nest (void elements aside) and returns the
/// names of the elements opened, in order.
fn balanced(page: &str) -> Vec<String> {
    const VOID: [&str; 4] = ["meta", "link", "br", "!DOCTYPE"];
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = page;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("unclosed tag");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if tag.starts_with('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.as_str()), "</{name}>");
            continue;
        }
        if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            stack.push(name.clone());
        }
        seen.push(name);
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    seen
}

/// The waves of the HTML page's annotated listing, summed.
fn listed_total(page: &str) -> u64 {
    let listing = page.split("Annotated listing").nth(1).unwrap();
    listing
        .split("<tr><td>")
        .skip(1)
        .map(|row| {
            let cells: Vec<&str> = row.split("<td>").collect();
            cells[1].split('<').next().unwrap().parse::<u64>().unwrap()
        })
        .sum()
}

#[test]
fn html_is_balanced_self_contained_and_adds_up() {
    let c = &cases()[7];
    let (p, res) = profile(c, None, 2);
    let page = html::page(&p, "lds_scan <gfx900> & co", 10);
    let tags = balanced(&page);
    assert_eq!(tags.iter().filter(|t| *t == "svg").count(), 2);
    // Nothing to fetch: no script, no external reference (the SVG namespace
    // is a name, not a request).
    assert!(!tags
        .iter()
        .any(|t| t == "script" || t == "img" || t == "iframe"));
    let stripped = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(
        !stripped.contains("http:") && !stripped.contains("https:") && !stripped.contains("url(")
    );
    assert!(page.contains("lds_scan &lt;gfx900&gt; &amp; co"));
    // The listing's rows add up to the stats.
    let sum = listed_total(&page);
    assert_eq!(sum, res.stats.total());
}

#[test]
fn an_empty_profile_says_so() {
    let p = Profiler::new(Dialect::Llvm, None).finish();
    assert!(report::text(&p, "x", 5).contains("no instruction was issued"));
    balanced(&html::page(&p, "x", 5));
}

/// A Cayman profile of `lds_reduce` (8 work-groups on 2 threads) with the
/// dispatch's stats.
fn cayman_lds_reduce() -> (Profile, risa_cayman_emu::Stats) {
    use risa_cayman_emu::{Dispatch, Pool, ProfileSink};
    use risa_runtime::cayman::{load, run, Arg};
    let obj = std::fs::read(format!(
        "{}/../../tests/fixtures/cayman/lds_reduce.o",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let k = load(&obj).unwrap().remove(0);
    let n = 64 * 8;
    let mut bytes = u32s((0..n).map(|i| ((i % 13) as f32).to_bits()));
    bytes.resize(4 * n as usize + 32, 0);
    let pool = Pool::from_bytes(&bytes);
    let sink = ProfileSink::new();
    let mut d = Dispatch::linear(n, 64);
    d.threads = 2;
    d.profile = Some(sink.clone());
    let st = run(&k, &d, &[Arg::Ptr(0), Arg::Ptr(4 * n)], &pool).unwrap();
    (
        risa_profile::cayman::profile(&sink.take().unwrap(), None),
        st,
    )
}

#[test]
fn cayman_mix_adds_up_to_the_stats() {
    let (p, st) = cayman_lds_reduce();
    let s = Summary::new(&p);
    let class = |name: &str| s.by_class.iter().find(|(k, _)| *k == name).unwrap().1.waves;
    assert_eq!(s.total, st.cf_instructions + st.alu_groups + st.fetches);
    assert_eq!(class("cf") + class("rat/exp"), st.cf_instructions);
    assert_eq!(class("rat/exp"), st.rat_ops);
    assert_eq!(class("alu") + class("lds"), st.alu_groups);
    assert_eq!(class("fetch"), st.fetches);
    assert!(class("lds") > 0);
    // the listing is in address order and every line has its text
    let l = p.listing.as_ref().unwrap();
    assert!(l.lines.windows(2).all(|w| w[0].offset < w[1].offset));
    assert!(l.lines.iter().all(|l| !l.text.is_empty()));
    // the first line is CF instruction 00 as the disassembler prints it
    assert!(l.lines[0].text.starts_with("00 "), "{}", l.lines[0].text);
    let t = report::text(&p, "lds_reduce on cayman", 5);
    assert!(t.lines().any(|l| l.starts_with("lds ")), "{t}");
}

#[test]
fn cayman_html_is_balanced_and_adds_up() {
    let (p, st) = cayman_lds_reduce();
    let page = html::page(&p, "lds_reduce on cayman", 10);
    let tags = balanced(&page);
    assert_eq!(tags.iter().filter(|t| *t == "svg").count(), 2);
    assert!(!tags.iter().any(|t| t == "script"));
    let sum = listed_total(&page);
    assert_eq!(sum, st.cf_instructions + st.alu_groups + st.fetches);
}
