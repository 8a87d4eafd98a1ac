//! GCN generations and the names users type for them.

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

/// Accepted architecture names and the generation each selects.
const ALIASES: &[(&str, Gen)] = &[
    ("gcn1.0", Gen::Gcn10),
    ("tahiti", Gen::Gcn10),
    ("pitcairn", Gen::Gcn10),
    ("capeverde", Gen::Gcn10),
    ("oland", Gen::Gcn10),
    ("hainan", Gen::Gcn10),
    ("gfx6", Gen::Gcn10),
    ("gfx600", Gen::Gcn10),
    ("gfx601", Gen::Gcn10),
    ("si", Gen::Gcn10),
    ("gcn1.1", Gen::Gcn11),
    ("hawaii", Gen::Gcn11),
    ("bonaire", Gen::Gcn11),
    ("kaveri", Gen::Gcn11),
    ("kabini", Gen::Gcn11),
    ("gfx7", Gen::Gcn11),
    ("gfx700", Gen::Gcn11),
    ("gfx701", Gen::Gcn11),
    ("gfx702", Gen::Gcn11),
    ("gfx703", Gen::Gcn11),
    ("gfx704", Gen::Gcn11),
    ("ci", Gen::Gcn11),
    ("gcn1.2", Gen::Gcn12),
    ("tonga", Gen::Gcn12),
    ("fiji", Gen::Gcn12),
    ("iceland", Gen::Gcn12),
    ("carrizo", Gen::Gcn12),
    ("polaris", Gen::Gcn12),
    ("polaris10", Gen::Gcn12),
    ("polaris11", Gen::Gcn12),
    ("ellesmere", Gen::Gcn12),
    ("baffin", Gen::Gcn12),
    ("gfx8", Gen::Gcn12),
    ("gfx801", Gen::Gcn12),
    ("gfx802", Gen::Gcn12),
    ("gfx803", Gen::Gcn12),
    ("vi", Gen::Gcn12),
    ("gcn1.4", Gen::Gcn14),
    ("vega", Gen::Gcn14),
    ("vega10", Gen::Gcn14),
    ("gfx900", Gen::Gcn14),
    ("gfx9", Gen::Gcn14),
];

impl Gen {
    /// Parses an architecture name (case-insensitive): `gcn1.2`, `fiji`, `gfx8`, `vi`, ...
    ///
    /// ```
    /// use risa_gcn::Gen;
    /// assert_eq!(Gen::parse("Tahiti"), Some(Gen::Gcn10));
    /// assert_eq!(Gen::parse("gfx900"), Some(Gen::Gcn14));
    /// assert_eq!(Gen::parse("cayman"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Gen> {
        let lower = name.to_ascii_lowercase();
        ALIASES.iter().find(|(n, _)| *n == lower).map(|&(_, g)| g)
    }

    /// Every accepted architecture name, for error messages and `--help`.
    pub fn names() -> impl Iterator<Item = &'static str> {
        ALIASES.iter().map(|(n, _)| *n)
    }

    /// The canonical name (`gcn1.0` ...).
    pub fn name(self) -> &'static str {
        ["gcn1.0", "gcn1.1", "gcn1.2", "gcn1.4"][self as usize]
    }

    /// The LLVM processor name used with `llvm-mc -mcpu`.
    pub fn llvm_cpu(self) -> &'static str {
        ["tahiti", "hawaii", "fiji", "gfx900"][self as usize]
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
