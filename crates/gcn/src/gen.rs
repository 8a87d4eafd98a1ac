//! GCN generations and the names users type for them.

use crate::processor::Processor;
use std::fmt;

/// A GCN generation. The discriminant indexes the opcode columns of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gen {
    /// GCN 1.0: Southern Islands (tahiti, pitcairn, cape verde), LLVM's gfx6.
    Gcn10 = 0,
    /// GCN 1.1: Sea Islands (hawaii, bonaire), gfx7.
    Gcn11 = 1,
    /// GCN 1.2: Volcanic Islands (tonga, fiji, polaris), gfx8.
    Gcn12 = 2,
    /// GCN 1.4: Vega (gfx900), gfx9.
    Gcn14 = 3,
}

/// Every generation, oldest first.
pub const ALL_GENS: [Gen; 4] = [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14];

impl Gen {
    /// The generation of a chip or generation name (case-insensitive):
    /// `gcn1.2`, `fiji`, `gfx8`, `vi`, ... (see [`Processor::parse`], which
    /// also gives the chip's features).
    ///
    /// ```
    /// use risa_gcn::Gen;
    /// assert_eq!(Gen::parse("Tahiti"), Some(Gen::Gcn10));
    /// assert_eq!(Gen::parse("gfx900"), Some(Gen::Gcn14));
    /// assert_eq!(Gen::parse("cayman"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Gen> {
        Processor::parse(name).map(|p| p.gen)
    }

    /// Every accepted chip and generation name, for error messages and `--help`.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Processor::names()
    }

    /// The canonical name (`gcn1.0` ...).
    pub fn name(self) -> &'static str {
        ["gcn1.0", "gcn1.1", "gcn1.2", "gcn1.4"][self as usize]
    }

    /// The LLVM processor name used with `llvm-mc -mcpu`.
    pub fn llvm_cpu(self) -> &'static str {
        Processor::of_gen(self).name
    }

    /// GCN 1.2 and later (gfx8+): SMEM, SDWA/DPP, 16-bit ops, new opcode map.
    #[inline]
    pub const fn is_gfx8_plus(self) -> bool {
        matches!(self, Gen::Gcn12 | Gen::Gcn14)
    }
}

impl fmt::Display for Gen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
