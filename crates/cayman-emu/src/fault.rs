//! Fault reports and execution statistics.

use core::fmt;

/// Where in the program a fault happened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// CF instruction index (64-bit slot from the kernel start).
    pub cf: Option<u32>,
    /// Start slot of the clause the CF instruction runs.
    pub clause: Option<u32>,
    /// ALU group (counted from 0 within the clause) or fetch index.
    pub group: Option<u32>,
    /// ALU slot (0..3 = x..w).
    pub slot: Option<u8>,
    /// Thread (lane 0..63 within the wave).
    pub lane: Option<u32>,
    /// Work-group id.
    pub workgroup: [u32; 3],
    /// Wave index within the work-group.
    pub wave: u32,
}

/// Why execution stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub message: String,
    /// Where.
    pub at: Location,
}

impl Fault {
    /// A fault with only a message (location filled in by the caller).
    pub fn new(message: impl Into<String>) -> Fault {
        Fault {
            message: message.into(),
            at: Location::default(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.at;
        write!(
            f,
            "fault in work-group ({},{},{}) wave {}",
            a.workgroup[0], a.workgroup[1], a.workgroup[2], a.wave
        )?;
        if let Some(c) = a.cf {
            write!(f, ", CF {c}")?;
        }
        if let Some(c) = a.clause {
            write!(f, " (clause @{c})")?;
        }
        if let Some(g) = a.group {
            write!(f, ", group {g}")?;
        }
        if let Some(s) = a.slot {
            write!(f, ", slot {}", ['x', 'y', 'z', 'w'][s as usize & 3])?;
        }
        if let Some(l) = a.lane {
            write!(f, ", thread {l}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Fault {}

/// Counters of one dispatch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Work-groups run.
    pub workgroups: u64,
    /// Waves run.
    pub waves: u64,
    /// CF instructions executed (per wave).
    pub cf_instructions: u64,
    /// ALU instruction groups executed (per wave): the wave-instruction count.
    pub alu_groups: u64,
    /// ALU instructions (slots) executed (per wave).
    pub alu_instructions: u64,
    /// Fetch instructions executed (per wave).
    pub fetches: u64,
    /// RAT (global memory) operations executed (per wave).
    pub rat_ops: u64,
    /// LDS operations executed (per wave).
    pub lds_ops: u64,
    /// Barriers passed (per wave).
    pub barriers: u64,
    /// The append/consume counters at the end of the dispatch (set by
    /// [`crate::run`]; [`Stats::add`] leaves them alone).
    pub append_consume: [u32; crate::sync::APPEND_COUNTERS],
}

impl Stats {
    /// Add another set of counters.
    pub fn add(&mut self, o: &Stats) {
        self.workgroups += o.workgroups;
        self.waves += o.waves;
        self.cf_instructions += o.cf_instructions;
        self.alu_groups += o.alu_groups;
        self.alu_instructions += o.alu_instructions;
        self.fetches += o.fetches;
        self.rat_ops += o.rat_ops;
        self.lds_ops += o.lds_ops;
        self.barriers += o.barriers;
    }
}
