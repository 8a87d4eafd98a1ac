//! What a checker found, and the report that gathers findings once per
//! (PC, kind).

use std::collections::BTreeMap;
use std::fmt;

/// The class of a finding; also the name `--check=` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A read of a register or LDS location whose memory write is still
    /// outstanding (no `s_waitcnt` covers it).
    Waitcnt,
    /// Fewer wait states than the generation requires between two
    /// dependent instructions.
    Hazard,
    /// Two accesses to one location, at least one a write, with nothing
    /// ordering them.
    Race,
    /// A read of a register or LDS location never written in the dispatch.
    Uninit,
}

impl Kind {
    /// Every kind, in the order reports list them.
    pub const ALL: [Kind; 4] = [Kind::Waitcnt, Kind::Hazard, Kind::Race, Kind::Uninit];

    /// The name `--check=` and `RISA_CHECK` use.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Waitcnt => "waitcnt",
            Kind::Hazard => "hazards",
            Kind::Race => "races",
            Kind::Uninit => "uninit",
        }
    }

    /// Parses a `--check=` list (`waitcnt,hazards`, `all`).
    ///
    /// ```
    /// use risa_check::Kind;
    /// assert_eq!(Kind::parse_list("all").unwrap().len(), 4);
    /// assert_eq!(Kind::parse_list("races,waitcnt").unwrap(), vec![Kind::Waitcnt, Kind::Race]);
    /// assert!(Kind::parse_list("hazard,typo").is_err());
    /// ```
    pub fn parse_list(s: &str) -> Result<Vec<Kind>, crate::CheckError> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "all" {
                out.extend(Kind::ALL);
                continue;
            }
            let k = Kind::ALL
                .into_iter()
                .find(|k| k.name() == part || k.name().trim_end_matches('s') == part)
                .ok_or_else(|| crate::CheckError::UnknownCheck(part.to_string()))?;
            out.push(k);
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One problem at one instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What kind of problem.
    pub kind: Kind,
    /// Byte offset of the instruction in its code section.
    pub pc: u64,
    /// The instruction, disassembled.
    pub instr: String,
    /// What is wrong, naming the register or address and the instruction
    /// that causes it (e.g. the load whose result is still outstanding).
    pub message: String,
}

/// Findings gathered once per (PC, kind), with how often each happened.
#[derive(Debug, Clone, Default)]
pub struct Report {
    entries: BTreeMap<(u64, Kind), (Finding, u64)>,
}

impl Report {
    /// Records `f` (the first message at a (PC, kind) is kept).
    pub fn add(&mut self, f: Finding) {
        self.entries
            .entry((f.pc, f.kind))
            .and_modify(|e| e.1 += 1)
            .or_insert((f, 1));
    }

    /// Records `f` as having happened `n` times.
    pub fn add_times(&mut self, f: Finding, n: u64) {
        self.entries
            .entry((f.pc, f.kind))
            .and_modify(|e| e.1 += n)
            .or_insert((f, n));
    }

    /// Adds another report's findings and counts to this one.
    pub fn merge(&mut self, o: Report) {
        for (k, (f, n)) in o.entries {
            self.entries
                .entry(k)
                .and_modify(|e| e.1 += n)
                .or_insert((f, n));
        }
    }

    /// The findings in PC order, each with its count.
    pub fn findings(&self) -> impl Iterator<Item = (&Finding, u64)> {
        self.entries.values().map(|(f, n)| (f, *n))
    }

    /// No findings.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The report as `file:pc: kind: message` lines, one per (PC, kind):
    ///
    /// ```
    /// use risa_check::{Finding, Kind, Report};
    /// let mut r = Report::default();
    /// for _ in 0..3 {
    ///     r.add(Finding { kind: Kind::Waitcnt, pc: 0x24, instr: "v_add_f32 v1, v0, v2".into(),
    ///         message: "v0 read while the global_load_dword at 0x1c that writes it is outstanding".into() });
    /// }
    /// assert_eq!(r.render("k.o"),
    ///     "k.o:0x24: waitcnt: v0 read while the global_load_dword at 0x1c that writes it is outstanding \
    ///      [3 times]\n    v_add_f32 v1, v0, v2\n");
    /// ```
    pub fn render(&self, file: &str) -> String {
        let mut s = String::new();
        for (f, n) in self.findings() {
            let times = if n == 1 {
                String::new()
            } else {
                format!(" [{n} times]")
            };
            s.push_str(&format!(
                "{file}:{:#x}: {}: {}{times}\n    {}\n",
                f.pc, f.kind, f.message, f.instr
            ));
        }
        s
    }
}
