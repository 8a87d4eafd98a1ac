//! The timeline of a dispatch (`risa run --timeline`): what each wave issued,
//! in order, as Chrome trace events that ui.perfetto.dev and chrome://tracing
//! open.
//!
//! The time axis is a model, not a measurement: every wave issues one
//! instruction per time unit (shown as 1 µs), the waves of a work-group run
//! side by side, and `s_barrier` holds each wave until the last one of its
//! group arrives (the wait shows as a `barrier wait` slice). Memory has no
//! latency in a functional emulator, so `s_waitcnt` takes its one unit like
//! any instruction; it is a slice of its own so the waits can be seen. Every
//! work-group starts at time 0 and is one process of the trace (its waves
//! are its threads).
//!
//! Cayman dispatches ([`crate::cayman::Timeline`]) issue one CF instruction,
//! ALU group or fetch per unit, under the instruction-mix classes of a
//! Cayman profile; a group holding GROUP_BARRIER is a slice of its own.
//!
//! Consecutive instructions of one class are merged into one slice, and only
//! the first [`Limits::groups`] work-groups (by linear id) are recorded, each
//! with at most [`Limits::events`] events; what was left out is counted in
//! the file's metadata.

use crate::listing::{Class, Listing};
use serde_json::{json, Value};
use std::io::{self, Write};

/// How much of a dispatch a timeline keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Work-groups recorded (those with the lowest linear ids).
    pub groups: u64,
    /// Events per work-group; the rest of the group is dropped.
    pub events: usize,
}

impl Default for Limits {
    /// 64 work-groups of at most 4,000 events: at most 256,000 events, a
    /// file of about 40 MB at worst (the viewers take files of that size).
    fn default() -> Limits {
        Limits {
            groups: 64,
            events: 4_000,
        }
    }
}

/// What happened on a wave's track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// `n` consecutive instructions of `class` from op index `first`.
    Run {
        /// Their class.
        class: Class,
        /// The op index of the first.
        first: u32,
        /// How many (the slice's duration).
        n: u64,
    },
    /// Waiting at a barrier for the group's other waves (`dur` units).
    BarrierWait {
        /// How long.
        dur: u64,
    },
    /// The wave began.
    Start,
    /// The wave parked on a GDS resource (`ds_gws_*`, ordered count).
    Parked,
    /// The wave ended.
    End,
}

/// One event of one wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// The wave (its index in the work-group).
    pub wave: u32,
    /// Time in issue units.
    pub ts: u64,
    /// What.
    pub what: What,
}

/// The recorded events of one work-group.
#[derive(Debug, Clone)]
pub struct Group {
    /// Linear work-group id (dispatch order).
    pub id: u64,
    /// Waves in the group.
    pub waves: u32,
    /// Events in the order they were recorded.
    pub events: Vec<Event>,
    /// Events left out once [`Limits::events`] was reached.
    pub dropped: u64,
}

/// A dispatch's timeline.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// Recorded work-groups, by id.
    pub groups: Vec<Group>,
    /// Work-groups run but not recorded.
    pub skipped_groups: u64,
    /// The limits it was recorded under.
    pub limits: Option<Limits>,
}

/// A wave's place on its track.
#[derive(Debug, Clone, Default)]
struct Track {
    clock: u64,
    run: Option<(Class, u32, u64, u64)>, // class, first op, start, n
    started: bool,
    barriers: usize,
    arrived: Option<u64>,
}

/// Records the work-groups one worker thread runs (part of the
/// [`crate::Recorder`]).
#[derive(Debug)]
pub(crate) struct Tracker {
    limits: Limits,
    on: bool,
    group: Group,
    tracks: Vec<Track>,
    /// Per barrier of the group: the latest arrival, when all are released.
    releases: Vec<u64>,
    pub(crate) skipped: u64,
}

impl Tracker {
    pub(crate) fn new(limits: Limits) -> Tracker {
        Tracker {
            limits,
            on: false,
            group: Group {
                id: 0,
                waves: 0,
                events: Vec::new(),
                dropped: 0,
            },
            tracks: Vec::new(),
            releases: Vec::new(),
            skipped: 0,
        }
    }

    /// A work-group of `waves` waves begins.
    pub(crate) fn start(&mut self, id: u64, waves: usize) {
        self.on = id < self.limits.groups;
        if !self.on {
            self.skipped += 1;
            return;
        }
        self.group = Group {
            id,
            waves: waves as u32,
            events: Vec::new(),
            dropped: 0,
        };
        self.tracks.clear();
        self.tracks.resize(waves, Track::default());
        self.releases.clear();
    }

    /// The group is over: its events when it was recorded.
    pub(crate) fn end(&mut self) -> Option<Group> {
        if !self.on {
            return None;
        }
        self.on = false;
        for w in 0..self.tracks.len() {
            self.flush(w);
        }
        Some(std::mem::replace(
            &mut self.group,
            Group {
                id: 0,
                waves: 0,
                events: Vec::new(),
                dropped: 0,
            },
        ))
    }

    fn push(&mut self, wave: usize, ts: u64, what: What) {
        if self.group.events.len() < self.limits.events {
            self.group.events.push(Event {
                wave: wave as u32,
                ts,
                what,
            });
        } else {
            self.group.dropped += 1;
        }
    }

    /// Ends the wave's open run of instructions.
    fn flush(&mut self, wave: usize) {
        if let Some((class, first, start, n)) = self.tracks[wave].run.take() {
            self.push(wave, start, What::Run { class, first, n });
        }
    }

    /// Wave `wave` issued op `idx` of `class`.
    #[inline]
    pub(crate) fn issue(&mut self, wave: usize, idx: usize, class: Class) {
        if !self.on || wave >= self.tracks.len() {
            return;
        }
        let t = &mut self.tracks[wave];
        let clock = t.clock;
        t.clock += 1;
        let own_event = matches!(
            class,
            Class::Wait | Class::Barrier | Class::Mix(crate::cayman::GROUP_BARRIER)
        );
        if let Some((c, _, _, n)) = &mut t.run {
            if *c == class && !own_event {
                *n += 1;
                return;
            }
        }
        self.flush(wave);
        if own_event {
            let first = idx as u32;
            self.push(wave, clock, What::Run { class, first, n: 1 });
        } else {
            self.tracks[wave].run = Some((class, idx as u32, clock, 1));
        }
    }

    /// The wave reached `s_barrier` and waits.
    pub(crate) fn barrier(&mut self, wave: usize) {
        if !self.on || wave >= self.tracks.len() {
            return;
        }
        self.flush(wave);
        let t = &mut self.tracks[wave];
        t.arrived = Some(t.clock);
        let k = t.barriers;
        t.barriers += 1;
        if self.releases.len() <= k {
            self.releases.resize(k + 1, 0);
        }
        self.releases[k] = self.releases[k].max(t.clock);
    }

    /// The wave starts or resumes: after a barrier it continues when the
    /// last wave of its group arrived (every live wave has arrived by the
    /// time any is released).
    pub(crate) fn resume(&mut self, wave: usize) {
        if !self.on || wave >= self.tracks.len() {
            return;
        }
        let t = &mut self.tracks[wave];
        if !t.started {
            t.started = true;
            self.push(wave, 0, What::Start);
            return;
        }
        if let Some(at) = t.arrived.take() {
            let release = self.releases[t.barriers - 1];
            t.clock = release;
            if release > at {
                self.push(wave, at, What::BarrierWait { dur: release - at });
            }
        }
    }

    /// The wave stopped: it parked on a GDS resource ([`What::Parked`]) or
    /// ended ([`What::End`]).
    pub(crate) fn stop(&mut self, wave: usize, what: What) {
        if !self.on || wave >= self.tracks.len() {
            return;
        }
        self.flush(wave);
        let ts = self.tracks[wave].clock;
        self.push(wave, ts, what);
    }
}

/// Process id of a work-group in the trace (Perfetto treats pid 0 as the
/// kernel's idle task, so ids start at 1).
fn pid(group: u64) -> u64 {
    group + 1
}

/// `s` as a JSON string literal.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

/// Writes the trace event of `e` in group `g`. Written field by field, not
/// through `serde_json::Value`s: a capped timeline still has hundreds of
/// thousands of events, and building a map per event cost more than the
/// whole emulation.
fn write_event(
    out: &mut dyn Write,
    g: u64,
    e: &Event,
    listing: &Listing,
    texts: &[String],
) -> io::Result<()> {
    let (pid, tid, ts) = (pid(g), e.wave, e.ts);
    let head = |out: &mut dyn Write, ph: &str, name: &str, cat: &str| {
        write!(
            out,
            "{{\"ph\":\"{ph}\",\"name\":{},\"cat\":\"{cat}\",\"pid\":{pid},\"tid\":{tid},\"ts\":{ts}",
            quoted(name)
        )
    };
    match e.what {
        What::Run { class, first, n } => {
            let line = listing.lines.get(first as usize);
            let name = match (class, line) {
                (Class::Cat(_) | Class::Mix(_), _) | (_, None) => class.name(),
                (_, Some(l)) => l.text.as_str(),
            };
            head(out, "X", name, class.name())?;
            write!(out, ",\"dur\":{n},\"args\":{{\"instructions\":{n}")?;
            if let (Some(l), Some(text)) = (line, texts.get(first as usize)) {
                write!(out, ",\"first_pc\":\"{:#06x}\",\"first\":{text}", l.offset)?;
            }
            write!(out, "}}}}")
        }
        What::BarrierWait { dur } => {
            head(out, "X", "barrier wait", "barrier")?;
            write!(out, ",\"dur\":{dur}}}")
        }
        What::Start | What::Parked | What::End => {
            let name = match e.what {
                What::Start => "wave start",
                What::Parked => "parked (GDS)",
                _ => "wave end",
            };
            head(out, "i", name, "wave")?;
            write!(out, ",\"s\":\"t\"}}")
        }
    }
}

/// Writes `t` as a Chrome trace-event JSON object; `about` (kernel, chip,
/// grid, ...) goes into its `otherData`.
pub fn write_json(
    t: &Timeline,
    listing: &Listing,
    about: &[(&str, String)],
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut other = serde_json::Map::new();
    for (k, v) in about {
        other.insert(k.to_string(), json!(v));
    }
    other.insert(
        "time_unit".into(),
        json!("1 us = one instruction issued by the wave (a model: waves of a group issue side by side, barriers wait for the last wave)"),
    );
    other.insert("groups_recorded".into(), json!(t.groups.len()));
    other.insert("groups_not_recorded".into(), json!(t.skipped_groups));
    let dropped: u64 = t.groups.iter().map(|g| g.dropped).sum();
    other.insert("events_dropped".into(), json!(dropped));
    if let Some(l) = t.limits {
        other.insert("limit_groups".into(), json!(l.groups));
        other.insert("limit_events_per_group".into(), json!(l.events));
    }
    write!(out, "{{\"displayTimeUnit\":\"ns\",\"otherData\":")?;
    serde_json::to_writer(&mut *out, &Value::Object(other))?;
    write!(out, ",\"traceEvents\":[")?;
    let texts: Vec<String> = listing.lines.iter().map(|l| quoted(&l.text)).collect();
    let mut sep = "";
    for g in &t.groups {
        let p = pid(g.id);
        let mut name = format!("work-group {}", g.id);
        if g.dropped > 0 {
            name.push_str(&format!(" ({} events dropped)", g.dropped));
        }
        write!(
            out,
            "{sep}{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{p},\"tid\":0,\"args\":{{\"name\":{}}}}}",
            quoted(&name)
        )?;
        sep = ",\n";
        write!(
            out,
            "{sep}{{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{p},\"tid\":0,\"args\":{{\"sort_index\":{}}}}}",
            g.id
        )?;
        for w in 0..g.waves {
            write!(
                out,
                "{sep}{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{p},\"tid\":{w},\"args\":{{\"name\":\"wave {w}\"}}}}"
            )?;
        }
        for e in &g.events {
            out.write_all(sep.as_bytes())?;
            write_event(out, g.id, e, listing, &texts)?;
        }
    }
    writeln!(out, "]}}")
}
