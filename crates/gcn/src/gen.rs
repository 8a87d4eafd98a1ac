//! GCN generations and the names users type for them.

use crate::processor::{Feature, Features, Processor};
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

/// Number of generations: the opcode columns of the tables.
pub const GEN_COUNT: usize = 4;

/// Every generation, oldest first.
pub const ALL_GENS: [Gen; GEN_COUNT] = [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14];

/// What a generation is, beside its opcode column and field layouts
/// (`layout.rs`): its features and where its register file puts things.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenInfo {
    /// Canonical name (`gcn1.2`).
    pub name: &'static str,
    /// The `-mcpu` name of the reference chip, as the fixtures' folders are named.
    pub llvm_cpu: &'static str,
    /// Features every chip of the generation has.
    pub features: Features,
    /// SGPRs addressable by number (s0 .. s(N-1)).
    pub sgprs: u32,
    /// First trap temporary (`ttmp0`) operand code and the count.
    pub ttmp: (u32, u32),
    /// Operand code of `flat_scratch_lo` (the pair), if the generation has it.
    pub flat_scratch: Option<u32>,
    /// Operand code of `xnack_mask_lo` (the pair), if the generation has it.
    pub xnack_mask: Option<u32>,
    /// Whether `tba`/`tma` (codes 108-111) are readable by name.
    pub trap_base_regs: bool,
    /// `s_waitcnt`'s SIMM16: the bits it defines and the largest `vmcnt`
    /// (GCN 1.4 adds VM_CNT\[5:4\] at bits 15:14).
    pub waitcnt_mask: u32,
    /// See `waitcnt_mask`.
    pub vmcnt_max: u32,
}

use Feature::*;

const GCN11: Features = Features::of(&[CiInsts, FlatAddressSpace]);
const GCN12: Features = GCN11.with(&[Gcn3Encoding, Sdwa, Dpp, Inv2PiInlineImm]);

/// Per generation, in [`Gen`] order.
const GENS: [GenInfo; GEN_COUNT] = [
    GenInfo {
        name: "gcn1.0",
        llvm_cpu: "tahiti",
        features: Features::NONE,
        sgprs: 104,
        ttmp: (112, 12),
        flat_scratch: None,
        xnack_mask: None,
        trap_base_regs: true,
        waitcnt_mask: 0x0f7f,
        vmcnt_max: 15,
    },
    GenInfo {
        name: "gcn1.1",
        llvm_cpu: "hawaii",
        features: GCN11,
        sgprs: 104,
        ttmp: (112, 12),
        flat_scratch: Some(104),
        xnack_mask: None,
        trap_base_regs: true,
        waitcnt_mask: 0x0f7f,
        vmcnt_max: 15,
    },
    GenInfo {
        name: "gcn1.2",
        llvm_cpu: "fiji",
        features: GCN12.with(&[UnpackedD16Vmem]),
        sgprs: 102,
        ttmp: (112, 12),
        flat_scratch: Some(102),
        xnack_mask: Some(104),
        trap_base_regs: true,
        waitcnt_mask: 0x0f7f,
        vmcnt_max: 15,
    },
    GenInfo {
        name: "gcn1.4",
        llvm_cpu: "gfx900",
        features: GCN12.with(&[Gfx9Insts, R128A16, FlatGlobalInsts, ApertureRegs]),
        sgprs: 102,
        ttmp: (108, 16),
        flat_scratch: Some(102),
        xnack_mask: Some(104),
        trap_base_regs: false,
        waitcnt_mask: 0xcf7f,
        vmcnt_max: 63,
    },
];

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
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The generation's data.
    #[inline]
    pub const fn info(self) -> &'static GenInfo {
        &GENS[self as usize]
    }

    /// The features every chip of the generation has.
    #[inline]
    pub const fn features(self) -> Features {
        self.info().features
    }

    /// Whether every chip of the generation has feature `f`.
    ///
    /// ```
    /// use risa_gcn::{Feature, Gen};
    /// assert!(Gen::Gcn12.has(Feature::Sdwa) && !Gen::Gcn11.has(Feature::Sdwa));
    /// ```
    #[inline]
    pub const fn has(self, f: Feature) -> bool {
        self.info().features.has(f)
    }

    /// The LLVM processor name used with `llvm-mc -mcpu`.
    pub const fn llvm_cpu(self) -> &'static str {
        self.info().llvm_cpu
    }
}

impl fmt::Display for Gen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
