//! Every GCN chip risa knows, as data: its names, ELF machine number,
//! generation and feature set. This is the one place that knows which chip
//! is what; everything else asks it.
//!
//! The model is LLVM's (`GCNProcessors.td`, `AMDGPU.td`): a processor is a
//! generation (which selects the opcode column and field layouts of the
//! tables) plus named features that add or swap instructions and rules. Rows
//! of the instruction tables name the features they need (`feat=dl-insts`),
//! so gfx906 is GCN 1.4 plus `dl-insts`, the `dot*` sets and `fma-mix-insts`
//! (whose `v_fma_mix*` take the opcodes of gfx900's `v_mad_mix*`).
//!
//! ```
//! use risa_gcn::processor::{Feature, Processor};
//! use risa_gcn::Gen;
//! let p = Processor::parse("Vega20").unwrap();
//! assert_eq!((p.name, p.mach, p.gen), ("gfx906", 0x2f, Gen::Gcn14));
//! assert!(p.features.has(Feature::DlInsts));
//! assert!(!Processor::parse("gfx900").unwrap().features.has(Feature::DlInsts));
//! assert_eq!(Processor::by_mach(0x22).unwrap().gen, Gen::Gcn11); // gfx700
//! ```

use crate::gen::{Gen, GEN_COUNT};
use crate::operand::bytes_eq;
use std::fmt;

/// A named property of a chip that changes what it executes or how.
///
/// The names are LLVM's subtarget feature names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Feature {
    /// `v_mad_mix_f32`, `v_mad_mixlo_f16`, `v_mad_mixhi_f16` (unfused).
    MadMixInsts,
    /// `v_fma_mix_f32`, `v_fma_mixlo_f16`, `v_fma_mixhi_f16` (fused).
    FmaMixInsts,
    /// Deep-learning instructions: `v_fmac_f32`, `v_xnor_b32`.
    DlInsts,
    /// `v_dot4_i32_i8`, `v_dot8_i32_i4`.
    Dot1Insts,
    /// `v_dot2_i32_i16`, `v_dot2_u32_u16`.
    Dot2Insts,
    /// `v_dot2_f32_f16`, `v_dot4_u32_u8`, `v_dot8_u32_u4`.
    Dot7Insts,
    /// The chip can run with XNACK (page-fault replay) enabled.
    XnackSupport,
    /// The chip can run with SRAM ECC enabled.
    SrameccSupport,
    /// Double precision at half the single-precision rate (else a quarter or less).
    HalfRate64Ops,
    // Generation features: every chip of a generation has them ([`Gen::features`]).
    /// GCN 1.1+: SMRD's 32-bit literal offset and the other CI additions.
    CiInsts,
    /// GCN 1.1+: FLAT instructions and the `flat_scratch` registers.
    FlatAddressSpace,
    /// GCN 1.2+: the VI encodings (SMEM, the new opcode map, 16-bit instructions).
    Gcn3Encoding,
    /// GCN 1.2+: the SDWA sub-encoding of VOP1/VOP2/VOPC.
    Sdwa,
    /// GCN 1.2+: the DPP sub-encoding of VOP1/VOP2/VOPC.
    Dpp,
    /// GCN 1.2+: 1/(2*pi) as inline constant 248.
    Inv2PiInlineImm,
    /// GCN 1.2 only: `_d16` memory data takes one VGPR per 16-bit half (GCN 1.4 packs two).
    UnpackedD16Vmem,
    /// GCN 1.4: VOP3 `op_sel`, 6-bit `vmcnt`, the GFX9 instruction additions.
    Gfx9Insts,
    /// GCN 1.4: MIMG bit 15 is A16 (16-bit addresses) instead of R128.
    R128A16,
    /// GCN 1.4: GLOBAL and SCRATCH segments of FLAT, with an SGPR base (`saddr`).
    FlatGlobalInsts,
    /// GCN 1.4: `src_shared_base`/`src_private_base`... report the apertures.
    ApertureRegs,
}

impl Feature {
    /// Every feature, in bit order.
    pub const ALL: [Feature; 20] = [
        Feature::MadMixInsts,
        Feature::FmaMixInsts,
        Feature::DlInsts,
        Feature::Dot1Insts,
        Feature::Dot2Insts,
        Feature::Dot7Insts,
        Feature::XnackSupport,
        Feature::SrameccSupport,
        Feature::HalfRate64Ops,
        Feature::CiInsts,
        Feature::FlatAddressSpace,
        Feature::Gcn3Encoding,
        Feature::Sdwa,
        Feature::Dpp,
        Feature::Inv2PiInlineImm,
        Feature::UnpackedD16Vmem,
        Feature::Gfx9Insts,
        Feature::R128A16,
        Feature::FlatGlobalInsts,
        Feature::ApertureRegs,
    ];

    /// LLVM's name of the feature (`dl-insts`).
    pub const fn name(self) -> &'static str {
        match self {
            Feature::MadMixInsts => "mad-mix-insts",
            Feature::FmaMixInsts => "fma-mix-insts",
            Feature::DlInsts => "dl-insts",
            Feature::Dot1Insts => "dot1-insts",
            Feature::Dot2Insts => "dot2-insts",
            Feature::Dot7Insts => "dot7-insts",
            Feature::XnackSupport => "xnack-support",
            Feature::SrameccSupport => "sramecc-support",
            Feature::HalfRate64Ops => "half-rate-64-ops",
            Feature::CiInsts => "ci-insts",
            Feature::FlatAddressSpace => "flat-address-space",
            Feature::Gcn3Encoding => "gcn3-encoding",
            Feature::Sdwa => "sdwa",
            Feature::Dpp => "dpp",
            Feature::Inv2PiInlineImm => "inv-2pi-inline-imm",
            Feature::UnpackedD16Vmem => "unpacked-d16-vmem",
            Feature::Gfx9Insts => "gfx9-insts",
            Feature::R128A16 => "r128-a16",
            Feature::FlatGlobalInsts => "flat-global-insts",
            Feature::ApertureRegs => "aperture-regs",
        }
    }

    /// The feature named `name`, usable in constants (the tables name features
    /// as text; an unknown name fails the build).
    pub const fn named(name: &str) -> Feature {
        let mut k = 0;
        while k < Feature::ALL.len() {
            if bytes_eq(Feature::ALL[k].name().as_bytes(), name.as_bytes()) {
                return Feature::ALL[k];
            }
            k += 1;
        }
        panic!("unknown feature name in an instruction table")
    }
}

/// A set of [`Feature`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Features(u32);

impl Features {
    /// No features.
    pub const NONE: Features = Features(0);

    /// The set of `list`.
    pub const fn of(list: &[Feature]) -> Features {
        let mut bits = 0;
        let mut k = 0;
        while k < list.len() {
            bits |= 1 << list[k] as u32;
            k += 1;
        }
        Features(bits)
    }

    /// The set of the features named in `names` (for tables; panics at
    /// compile time on an unknown name).
    pub const fn named(names: &[&str]) -> Features {
        let mut bits = 0;
        let mut k = 0;
        while k < names.len() {
            bits |= 1 << Feature::named(names[k]) as u32;
            k += 1;
        }
        Features(bits)
    }

    /// The set plus `list`.
    pub const fn with(self, list: &[Feature]) -> Features {
        Features(self.0 | Features::of(list).0)
    }

    /// Whether `f` is in the set.
    #[inline]
    pub const fn has(self, f: Feature) -> bool {
        self.0 & (1 << f as u32) != 0
    }

    /// Whether every feature of `other` is in the set.
    #[inline]
    pub const fn contains(self, other: Features) -> bool {
        other.0 & !self.0 == 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The features in the set.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |f| self.has(*f))
    }
}

impl fmt::Display for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, feat) in self.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            f.write_str(feat.name())?;
        }
        Ok(())
    }
}

/// What code is decoded, assembled and run for: a generation and the chip's
/// features. Every [`Processor`] gives one; a bare [`Gen`] converts to the
/// target of its reference chip (tahiti, hawaii, fiji, gfx900).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    /// The generation: opcode column and field layouts.
    pub gen: Gen,
    /// The chip's features.
    pub features: Features,
}

impl Target {
    /// Whether the target has feature `f`.
    #[inline]
    pub const fn has(self, f: Feature) -> bool {
        self.features.has(f)
    }
}

impl From<Gen> for Target {
    #[inline]
    fn from(gen: Gen) -> Target {
        REFERENCE_TARGETS[gen as usize]
    }
}

/// The target of each generation's reference chip, computed once (a bare
/// [`Gen`] is converted on every decode).
const REFERENCE_TARGETS: [Target; GEN_COUNT] = {
    let mut t = [PROCESSOR_DATA[0].target(); GEN_COUNT];
    let mut g = 0;
    while g < GEN_COUNT {
        t[g] = PROCESSOR_DATA[REFERENCE[g]].target();
        g += 1;
    }
    t
};

impl From<&Processor> for Target {
    #[inline]
    fn from(p: &Processor) -> Target {
        p.target()
    }
}

/// One chip (LLVM processor), as data.
///
/// `features` is the whole set: the generation's ([`Gen::features`]) and
/// the chip's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Processor {
    /// LLVM's processor name (`gfx906`), used in `.amdgcn_target` and `-mcpu`.
    pub name: &'static str,
    /// Other names users type for it: code names, CLRX device names,
    /// generation names when this is the generation's reference chip.
    pub aliases: &'static [&'static str],
    /// `EF_AMDGPU_MACH_*` in the ELF header's `e_flags` (low byte).
    pub mach: u32,
    /// The generation.
    pub gen: Gen,
    /// The features.
    pub features: Features,
    /// Products built on the chip, for humans.
    pub products: &'static str,
}

use Feature::*;

/// Every GCN 1.0-1.4 processor, oldest first. `REFERENCE` names each
/// generation's reference chip (what a bare generation name selects).
pub static PROCESSORS: &[Processor] = &PROCESSOR_DATA;

const PROCESSOR_DATA: [Processor; 20] = [
    Processor {
        name: "gfx600",
        aliases: &["tahiti", "gcn1.0", "gfx6", "si", "dummy"],
        mach: 0x20,
        gen: Gen::Gcn10,
        features: Gen::Gcn10.features().with(&[HalfRate64Ops]),
        products: "Radeon HD 7970/7950, R9 280X, FirePro W9000",
    },
    Processor {
        name: "gfx601",
        aliases: &["pitcairn", "capeverde", "verde"],
        mach: 0x21,
        gen: Gen::Gcn10,
        features: Gen::Gcn10.features(),
        products: "Radeon HD 7870/7850 (Pitcairn), HD 7770 (Cape Verde)",
    },
    Processor {
        name: "gfx602",
        aliases: &["oland", "hainan"],
        mach: 0x3a,
        gen: Gen::Gcn10,
        features: Gen::Gcn10.features(),
        products: "Radeon R7 240/250, HD 8500M-8800M",
    },
    Processor {
        name: "gfx701",
        aliases: &["hawaii", "gcn1.1", "gfx7", "ci"],
        mach: 0x23,
        gen: Gen::Gcn11,
        features: Gen::Gcn11.features().with(&[HalfRate64Ops]),
        products: "Radeon R9 290X/290/390X, FirePro W9100",
    },
    Processor {
        name: "gfx700",
        aliases: &["kaveri", "spectre", "spooky"],
        mach: 0x22,
        gen: Gen::Gcn11,
        features: Gen::Gcn11.features(),
        products: "A10-7850K APU (Kaveri)",
    },
    Processor {
        name: "gfx702",
        aliases: &[],
        mach: 0x24,
        gen: Gen::Gcn11,
        features: Gen::Gcn11.features(),
        products: "Radeon R9 290 and R9 390 variants",
    },
    Processor {
        name: "gfx703",
        aliases: &["kabini", "mullins", "kalindi"],
        mach: 0x25,
        gen: Gen::Gcn11,
        features: Gen::Gcn11.features(),
        products: "Athlon 5350 / A4-6210 APUs (Kabini, Mullins)",
    },
    Processor {
        name: "gfx704",
        aliases: &["bonaire"],
        mach: 0x26,
        gen: Gen::Gcn11,
        features: Gen::Gcn11.features(),
        products: "Radeon HD 7790, R7 260X",
    },
    Processor {
        name: "gfx705",
        aliases: &[],
        mach: 0x3b,
        gen: Gen::Gcn11,
        features: Gen::Gcn11.features(),
        products: "APU (no product named in LLVM's list)",
    },
    Processor {
        name: "gfx803",
        aliases: &[
            "fiji",
            "polaris10",
            "polaris11",
            "polaris",
            "ellesmere",
            "baffin",
            "gfx804",
            "polaris12",
            "polaris20",
            "polaris21",
            "polaris22",
            "goose",
            "horse",
            "gcn1.2",
            "gfx8",
            "vi",
        ],
        mach: 0x2a,
        gen: Gen::Gcn12,
        features: Gen::Gcn12.features(),
        products: "Radeon R9 Fury/Nano, RX 470/480/570/580/550",
    },
    Processor {
        name: "gfx801",
        aliases: &["carrizo"],
        mach: 0x28,
        gen: Gen::Gcn12,
        features: Gen::Gcn12.features().with(&[XnackSupport]),
        products: "A10-8700P APU (Carrizo)",
    },
    Processor {
        name: "gfx802",
        aliases: &["tonga", "iceland", "topaz"],
        mach: 0x29,
        gen: Gen::Gcn12,
        features: Gen::Gcn12.features(),
        products: "Radeon R9 285/380, R7 M260",
    },
    Processor {
        name: "gfx805",
        aliases: &["tongapro"],
        mach: 0x3c,
        gen: Gen::Gcn12,
        features: Gen::Gcn12.features(),
        products: "FirePro S7150",
    },
    Processor {
        name: "gfx810",
        aliases: &["stoney"],
        mach: 0x2b,
        gen: Gen::Gcn12,
        features: Gen::Gcn12.features().with(&[XnackSupport]),
        products: "A9-9420 APU (Stoney Ridge)",
    },
    Processor {
        name: "gfx900",
        aliases: &["vega10", "vega", "gfx901", "gcn1.4", "gfx9"],
        mach: 0x2c,
        gen: Gen::Gcn14,
        features: Gen::Gcn14.features().with(&[XnackSupport, MadMixInsts]),
        products: "Radeon RX Vega 56/64, Instinct MI25",
    },
    Processor {
        name: "gfx902",
        aliases: &["raven", "gfx903"],
        mach: 0x2d,
        gen: Gen::Gcn14,
        features: Gen::Gcn14.features().with(&[XnackSupport, MadMixInsts]),
        products: "Ryzen 2000-series APU graphics (Raven Ridge)",
    },
    Processor {
        name: "gfx904",
        aliases: &["vega12", "vega11", "gfx905"],
        mach: 0x2e,
        gen: Gen::Gcn14,
        features: Gen::Gcn14.features().with(&[XnackSupport, FmaMixInsts]),
        products: "Vega 12 (no product named in LLVM's list)",
    },
    Processor {
        name: "gfx906",
        aliases: &["vega20", "gfx907", "gcn1.4.1"],
        mach: 0x2f,
        gen: Gen::Gcn14,
        features: Gen::Gcn14.features().with(&[
            XnackSupport,
            SrameccSupport,
            HalfRate64Ops,
            FmaMixInsts,
            DlInsts,
            Dot1Insts,
            Dot2Insts,
            Dot7Insts,
        ]),
        products: "Radeon VII, Instinct MI50/MI60",
    },
    Processor {
        name: "gfx909",
        aliases: &["raven2"],
        mach: 0x31,
        gen: Gen::Gcn14,
        features: Gen::Gcn14.features().with(&[XnackSupport, MadMixInsts]),
        products: "Raven 2 APUs",
    },
    Processor {
        name: "gfx90c",
        aliases: &["renoir"],
        mach: 0x32,
        gen: Gen::Gcn14,
        features: Gen::Gcn14.features().with(&[XnackSupport, MadMixInsts]),
        products: "Ryzen 4000/5000-series APU graphics (Renoir, Cezanne)",
    },
];

// The reference chips must lead their generation in PROCESSORS.
const _: () = {
    let gens = [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14];
    let mut g = 0;
    while g < gens.len() {
        let p = &PROCESSOR_DATA[REFERENCE[g]];
        assert!(p.gen as usize == gens[g] as usize);
        g += 1;
    }
};

/// Index in [`PROCESSORS`] of each generation's reference chip.
const REFERENCE: [usize; GEN_COUNT] = [0, 3, 9, 14];

impl Processor {
    /// The chip named `name` (case-insensitive): an LLVM processor name, a
    /// code name, a CLRX device name or a generation name.
    ///
    /// ```
    /// use risa_gcn::processor::Processor;
    /// assert_eq!(Processor::parse("Tahiti").unwrap().name, "gfx600");
    /// assert_eq!(Processor::parse("gcn1.2").unwrap().name, "gfx803");
    /// assert!(Processor::parse("cayman").is_none());
    /// ```
    pub fn parse(name: &str) -> Option<&'static Processor> {
        let l = name.trim().to_ascii_lowercase();
        PROCESSORS
            .iter()
            .find(|p| p.name == l || p.aliases.contains(&l.as_str()))
    }

    /// The chip with ELF machine number `mach` (`e_flags & 0xff`).
    pub fn by_mach(mach: u32) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| p.mach == mach)
    }

    /// The reference chip of `gen`: tahiti, hawaii, fiji, gfx900.
    #[inline]
    pub fn of_gen(gen: Gen) -> &'static Processor {
        &PROCESSORS[REFERENCE[gen as usize]]
    }

    /// What code for this chip is decoded and run as.
    #[inline]
    pub const fn target(&self) -> Target {
        Target {
            gen: self.gen,
            features: self.features,
        }
    }

    /// Every name [`Processor::parse`] accepts, for messages and `--help`.
    pub fn names() -> impl Iterator<Item = &'static str> {
        PROCESSORS
            .iter()
            .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
    }

    /// What an unknown-architecture message lists: the LLVM processor names
    /// and a reminder that code and generation names work too.
    pub fn names_hint() -> String {
        let chips: Vec<&str> = PROCESSORS.iter().map(|p| p.name).collect();
        format!(
            "{}, or a code name (tahiti, hawaii, fiji, polaris10, vega20, ...) or generation (gcn1.0, gcn1.1, gcn1.2, gcn1.4, gcn1.4.1)",
            chips.join(", ")
        )
    }

    /// The chips that have every feature of `needs` (for messages like
    /// "v_fmac_f32 needs dl-insts: gfx906").
    pub fn with_features(needs: Features) -> impl Iterator<Item = &'static Processor> {
        PROCESSORS
            .iter()
            .filter(move |p| p.features.contains(needs))
    }
}

impl fmt::Display for Processor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut all: Vec<&str> = Processor::names().collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a name names two chips");
    }

    #[test]
    fn machs_are_unique_and_lowercase_names() {
        for (k, p) in PROCESSORS.iter().enumerate() {
            assert!(PROCESSORS[k + 1..].iter().all(|q| q.mach != p.mach));
            assert_eq!(p.name, p.name.to_ascii_lowercase());
            assert!(p.aliases.iter().all(|a| *a == a.to_ascii_lowercase()));
        }
    }

    #[test]
    fn reference_chips() {
        let r: Vec<&str> = crate::ALL_GENS
            .iter()
            .map(|g| Processor::of_gen(*g).name)
            .collect();
        assert_eq!(r, ["gfx600", "gfx701", "gfx803", "gfx900"]);
    }
}
