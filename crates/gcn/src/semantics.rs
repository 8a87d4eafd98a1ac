//! What each table row computes, as the emulator needs it: the row's
//! semantic id ([`Sem`]), or why it has none; whether its result follows the
//! rounding mode; and on which generations its 16-bit result keeps the high
//! half of its destination. Compare, memory and image rows also carry what
//! they do as data ([`Compare`], [`ScalarMem`], [`ImageMem`] with
//! [`Sampling`], [`LdsOp`], [`VectorMem`]), which `build.rs` reads from the
//! row's NAME and checks against its operands and flags: a row of those
//! families that it cannot read fails the build with its file and line.
//!
//! The facts are row attributes in `tables/*.tbl` (`sem=`, `nosem=`, `round`,
//! `keephi=`; see `tables/README.md`, "Semantics"), turned by `build.rs` into
//! the [`Sem`] enum and one [`RowSem`] per row. This crate only names the
//! semantics; the emulator (`risa-gcn-emu`) owns the functions, keyed by
//! [`Sem`], and its tests walk every row of every generation.

use crate::gen::Gen;
use crate::table::{OpId, Ty};

/// Whether a row has semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Semantics {
    /// The row runs the operation [`Sem`] (its NAME, or `sem=ID` when it
    /// computes what another row computes).
    Runs(Sem),
    /// The row has no semantics on purpose (`nosem=REASON`: e.g. `export`,
    /// `interpolation`, `sampler` — graphics work a compute emulator leaves
    /// out); executing it faults as unsupported.
    Unsupported(&'static str),
}

/// The semantic facts of one table row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSem {
    /// What the row computes, or why nothing.
    pub sem: Semantics,
    /// The result follows MODE.FP_ROUND (flag `round`): the emulator has a
    /// rounding-mode form of the row's semantics.
    pub round: bool,
    /// Bit `g` set: on generation `g` the row's 16-bit result leaves VDST\[31:16\]
    /// as it was instead of zeroing it (`keephi=14`).
    pub keep_high: u8,
    /// A VOPC row's comparison (every VOPC row with semantics has one; the
    /// build fails on a compare row it cannot read).
    pub compare: Option<Compare>,
    /// A scalar memory row's access (every SMRD/SMEM row with semantics has
    /// one; the build fails on a row it cannot read).
    pub scalar_mem: Option<ScalarMem>,
    /// An image (MIMG) row's access (every MIMG row with semantics has one;
    /// the build fails on a row it cannot read).
    pub image: Option<ImageMem>,
    /// A DS row's operation (every DS row with semantics has one; the build
    /// fails on a row it cannot read).
    pub lds: Option<LdsOp>,
    /// A MUBUF, MTBUF, FLAT, GLOBAL or SCRATCH row's access (every such row
    /// with semantics has one; the build fails on a row it cannot read).
    pub vector_mem: Option<VectorMem>,
}

/// What an image (MIMG) row does, from its NAME and flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageMem {
    /// `image_load[_mip][_pck[_sgn]]`.
    Load(ImageAccess),
    /// `image_store[_mip][_pck]`.
    Store(ImageAccess),
    /// `image_atomic_OP`.
    Atomic(Atomic),
    /// `image_get_resinfo`.
    ResInfo,
    /// A row flagged `sampler` or `gather4` (`image_sample*`,
    /// `image_gather4*`, `image_get_lod`), with the address components its
    /// suffixes add.
    Sample(Sampling),
}

/// Which half of a VGPR a 16-bit memory access uses (`_d16`, `_d16_hi`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// The whole register (no `_d16` suffix).
    Whole,
    /// `_d16`: the low 16 bits; a load keeps the high half.
    Low,
    /// `_d16_hi`: the high 16 bits; a load keeps the low half.
    High,
}

/// What a load or store moves per lane, from the row's NAME (`_TYPE` of a
/// DS row, `_dword[xN]`/`_[u|s]byte`/`_[u|s]short` of a vector memory row)
/// and checked against the width of its data operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elements {
    /// Bytes per element: 1, 2 or 4.
    pub bytes: u8,
    /// Elements per lane (1 to 4; more than 1 only for 4-byte elements).
    pub count: u8,
    /// A load of 1 or 2 bytes sign-extends (`i8`, `sbyte`, ...).
    pub signed: bool,
    /// The register half a 1- or 2-byte element goes to or comes from.
    pub half: Half,
}

/// The read-modify-write of a DS atomic row (`ds_OP[_rtn]_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LdsAtomic {
    /// One of the atomics that memory rows share (`min_i32` is
    /// [`Atomic::SMin`], `wrxchg` [`Atomic::Swap`], `add_f32`
    /// [`Atomic::FAdd`] ...).
    Mem(Atomic),
    /// `mskor`: (old & !DATA0) | DATA1.
    MaskOr,
    /// `cmpst_b*`: DATA1 if old == DATA0.
    CmpStore,
    /// `cmpst_f*`: DATA1 if old == DATA0 as floats.
    FCmpStore,
    /// `wrap`: old - DATA0 if old >= DATA0, else old + DATA1.
    Wrap,
}

/// A global wave sync row (`ds_gws_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gws {
    /// `ds_gws_init`.
    Init,
    /// `ds_gws_sema_v`.
    SemaV,
    /// `ds_gws_sema_br`.
    SemaBr,
    /// `ds_gws_sema_p`.
    SemaP,
    /// `ds_gws_sema_release_all`.
    SemaReleaseAll,
    /// `ds_gws_barrier`.
    Barrier,
}

/// What a DS row does, from its NAME, checked against its signature and
/// flags (`off2`, `gds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LdsOp {
    /// `ds_read_TYPE[_d16[_hi]]`.
    Read(Elements),
    /// `ds_write_TYPE[_d16_hi]`.
    Write(Elements),
    /// `ds_read2[st64]_bN`: two elements at OFFSET0 and OFFSET1.
    Read2 {
        /// 8-byte elements (`_b64`).
        wide: bool,
        /// Offsets in units of 64 elements (`st64`).
        st64: bool,
    },
    /// `ds_write2[st64]_bN`.
    Write2 {
        /// 8-byte elements (`_b64`).
        wide: bool,
        /// Offsets in units of 64 elements (`st64`).
        st64: bool,
    },
    /// `ds_OP[_rtn]_TYPE`.
    Atomic {
        /// The read-modify-write.
        op: LdsAtomic,
        /// 64-bit (`_b64`, `_u64`, `_i64`, `_f64`).
        wide: bool,
        /// Returns the old value (`_rtn`).
        ret: bool,
    },
    /// `ds_wrxchg2[st64]_rtn_bN`: two exchanges at OFFSET0 and OFFSET1.
    Exchange2 {
        /// 8-byte elements.
        wide: bool,
        /// Offsets in units of 64 elements.
        st64: bool,
    },
    /// `ds_OP_src2_TYPE`: the atomic with its data read from LDS.
    Src2 {
        /// The read-modify-write.
        op: Atomic,
        /// 64-bit.
        wide: bool,
    },
    /// `ds_condxchg32_rtn_bN`: `dwords` conditional dword exchanges.
    CondExchange {
        /// 2 (`_b64`) or 4 (`_b128`).
        dwords: u8,
    },
    /// `ds_append`: adds the active lane count.
    Append,
    /// `ds_consume`: subtracts the active lane count.
    Consume,
    /// `ds_read_addtid_b32`: at M0 + OFFSET + lane × 4.
    ReadAddTid,
    /// `ds_write_addtid_b32`.
    WriteAddTid,
    /// `ds_swizzle_b32`: lanes exchange data, no memory.
    Swizzle,
    /// `ds_permute_b32`: push to lane ADDR / 4.
    Permute,
    /// `ds_bpermute_b32`: pull from lane ADDR / 4.
    BPermute,
    /// `ds_nop`.
    Nop,
    /// `ds_gws_*`.
    Gws(Gws),
    /// `ds_ordered_count`.
    OrderedCount,
}

/// What a vector memory row (MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH) does, from
/// its NAME, checked against its flags (`store`, `atomic`, `lds`, `noargs`)
/// and the width of its data operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorMem {
    /// `*_load_TYPE[_d16[_hi]]`.
    Load(Elements),
    /// `*_store_TYPE[_d16_hi]`.
    Store(Elements),
    /// `*_atomic_OP[_x2]`.
    Atomic {
        /// The read-modify-write.
        op: Atomic,
        /// The `_x2` (64-bit) form.
        wide: bool,
    },
    /// `buffer_load/store_format[_d16[_hi]]_xN` and `tbuffer_*`: components
    /// converted through a data and number format (the V#'s; the
    /// instruction's for MTBUF).
    Format {
        /// A store.
        store: bool,
        /// Components (`x` 1 to `xyzw` 4).
        components: u8,
        /// 16-bit components (`_d16`), or one in the high half (`_d16_hi`).
        half: Half,
    },
    /// `buffer_store_lds_dword`: a dword per lane from LDS to the buffer.
    StoreFromLds,
    /// Cache control with no operands (`buffer_wbinvl1*`, flagged `noargs`).
    CacheControl,
}

/// The suffixes of a sampling row (`image_sample*`, `image_gather4*`,
/// `image_get_lod`), from its NAME: which address components it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampling {
    /// `image_gather4*` (flagged `gather4`): four texels of one component.
    pub gather: bool,
    /// `image_get_lod`: returns the level of detail instead of texels.
    pub get_lod: bool,
    /// `_o`: texel offsets.
    pub offsets: bool,
    /// `_b`: LOD bias.
    pub bias: bool,
    /// `_c`: depth compare reference.
    pub compare: bool,
    /// `_d` or `_cd`: user derivatives.
    pub derivatives: bool,
    /// `_cl`: LOD clamp.
    pub lod_clamp: bool,
    /// `_l`: explicit LOD.
    pub lod: bool,
    /// `_lz`: LOD zero.
    pub lod_zero: bool,
}

impl Sampling {
    /// No suffix: `image_sample` (every field false).
    pub const NONE: Sampling = Sampling {
        gather: false,
        get_lod: false,
        offsets: false,
        bias: false,
        compare: false,
        derivatives: false,
        lod_clamp: false,
        lod: false,
        lod_zero: false,
    };
}

/// The suffixes of an image load or store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageAccess {
    /// `_mip`: the last address component is the mip level.
    pub mip: bool,
    /// `_pck`: raw components, no number-format conversion.
    pub pck: bool,
    /// `_sgn` (loads): raw components sign-extended.
    pub sgn: bool,
}

/// The read-modify-write of an atomic memory row (`*_atomic_OP`, `_x2` the
/// 64-bit form), as the row's NAME spells OP. The emulator computes it
/// (`risa_gcn_emu::AtomicOp` is this type, `AtomicApply` its arithmetic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Atomic {
    /// `swap`: new = data.
    Swap,
    /// `cmpswap`: new = data if old == comparand.
    CmpSwap,
    /// `add`.
    Add,
    /// `sub`: old - data.
    Sub,
    /// `rsub`: data - old (GCN 1.0).
    RSub,
    /// `smin`.
    SMin,
    /// `umin`.
    UMin,
    /// `smax`.
    SMax,
    /// `umax`.
    UMax,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `inc`: old >= data ? 0 : old + 1.
    Inc,
    /// `dec`: old == 0 || old > data ? data : old - 1.
    Dec,
    /// `fcmpswap`: float compare-and-swap.
    FCmpSwap,
    /// `fmin`.
    FMin,
    /// `fmax`.
    FMax,
    /// `add_f32`: float add.
    FAdd,
}

/// What a scalar memory row (SMRD, SMEM) does, from its NAME; the data
/// width is its D operand's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarMem {
    /// `s_load_dword*`: from SBASE + offset.
    Load,
    /// `s_buffer_load_dword*`: through the buffer resource in SBASE.
    BufferLoad,
    /// `s_store_dword*`.
    Store,
    /// `s_buffer_store_dword*`.
    BufferStore,
    /// `s_scratch_load_dword*` (GCN 1.4).
    ScratchLoad,
    /// `s_scratch_store_dword*` (GCN 1.4).
    ScratchStore,
    /// `s_memtime`, `s_memrealtime`: a 64-bit counter.
    Time,
    /// Cache control with no result (`s_dcache_*`, `s_atc_probe*`).
    CacheControl,
    /// `s_atomic_*`, `s_buffer_atomic_*`.
    Atomic {
        /// The read-modify-write.
        op: Atomic,
        /// The `_x2` (64-bit) form.
        wide: bool,
        /// Through a buffer resource (`s_buffer_atomic_*`).
        buffer: bool,
    },
}

/// What a VOPC compare computes, from its row: the condition its NAME spells
/// (`v_cmp_COND_TYPE`), the type of operand A, and the `cmpx` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compare {
    /// The relations of A to B for which the compare is true: bit 0 less,
    /// bit 1 equal, bit 2 greater, bit 3 unordered (a NaN operand). This is
    /// the condition code of the low four opcode bits (`lt` = 1, `le` = 3,
    /// integer `ne` = 5, `tru` = 15); 0 for `v_cmp_class`.
    pub when: u8,
    /// The operand type (`F16`, `F32`, `F64`, `I16` ... `U64`).
    pub ty: Ty,
    /// `v_cmp_class`: B is a mask of float classes A is tested against.
    pub class: bool,
    /// The compare also writes EXEC (`v_cmpx`).
    pub exec: bool,
}

impl RowSem {
    /// The semantic id, if the row has semantics.
    #[inline]
    pub fn id(&self) -> Option<Sem> {
        match self.sem {
            Semantics::Runs(s) => Some(s),
            Semantics::Unsupported(_) => None,
        }
    }

    /// Whether the row's 16-bit result keeps the high half of VDST on `gen`.
    #[inline]
    pub fn keeps_high_half(&self, gen: Gen) -> bool {
        self.keep_high >> gen as u8 & 1 != 0
    }
}

impl Sem {
    /// The id as the table spells it (the row name it comes from).
    #[inline]
    pub fn name(self) -> &'static str {
        SEM_NAMES[self as usize]
    }
}

/// The semantics of row `op` (an index into [`OPS`](crate::OPS)).
#[inline]
pub fn row_sem(op: OpId) -> &'static RowSem {
    &ROW_SEMS[op as usize]
}

include!(concat!(env!("OUT_DIR"), "/semantics.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OPS;

    #[test]
    fn one_entry_per_row_and_ids_name_themselves() {
        assert_eq!(ROW_SEMS.len(), OPS.len());
        for (i, s) in Sem::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
            assert!(!s.name().is_empty());
        }
        // A row without `sem=` names itself.
        let (i, _) = OPS
            .iter()
            .enumerate()
            .find(|(_, o)| o.name == "v_add_f32")
            .unwrap();
        assert_eq!(row_sem(i as OpId).id().map(Sem::name), Some("v_add_f32"));
    }

    /// The condition the build reads from a compare's name is the one its
    /// opcode encodes (the low four bits of a float compare, three of an
    /// integer one, on every generation), and only VOPC rows have one.
    #[test]
    fn compare_conditions_agree_with_the_opcodes() {
        let mut seen = 0;
        for (i, o) in OPS.iter().enumerate() {
            let rs = row_sem(i as OpId);
            let Some(c) = rs.compare else {
                assert!(
                    o.family != crate::table::Family::Vopc || rs.id().is_none(),
                    "{} has no compare",
                    o.name
                );
                continue;
            };
            assert_eq!(o.family, crate::table::Family::Vopc, "{}", o.name);
            let x = o.name.starts_with("v_cmpx") || o.name.starts_with("v_cmpsx");
            assert_eq!(c.exec, x, "{}", o.name);
            if c.class {
                continue;
            }
            let bits = if matches!(c.ty, Ty::F16 | Ty::F32 | Ty::F64) {
                15
            } else {
                7
            };
            for opc in o.opc.iter().filter(|&&v| v != u16::MAX) {
                assert_eq!(opc & bits, u16::from(c.when), "{}", o.name);
            }
            seen += 1;
        }
        assert!(seen > 200, "{seen} compares");
    }

    /// Every scalar memory row with semantics has its access, and only they;
    /// the widths of atomics agree with their data operand.
    #[test]
    fn scalar_memory_rows_have_their_access() {
        use crate::table::{Family, Role};
        let mut seen = 0;
        for (i, o) in OPS.iter().enumerate() {
            let rs = row_sem(i as OpId);
            let scalar = matches!(o.family, Family::Smrd | Family::Smem);
            assert_eq!(
                rs.scalar_mem.is_some(),
                scalar && rs.id().is_some(),
                "{}",
                o.name
            );
            if let Some(ScalarMem::Atomic { op, wide, .. }) = rs.scalar_mem {
                // data (and comparand for cmpswap) in D
                let d = o.operand(Role::D).unwrap().ty.dwords();
                let per = if wide { 2 } else { 1 };
                let n = if op == Atomic::CmpSwap { 2 * per } else { per };
                assert_eq!(d, n, "{}", o.name);
            }
            seen += usize::from(scalar);
        }
        assert!(seen > 80, "{seen} scalar memory rows");
    }

    /// Every image row with semantics has its access, and only they; the
    /// sampling ones are exactly those flagged `sampler` or `gather4`.
    #[test]
    fn image_rows_have_their_access() {
        use crate::table::{flag, Family};
        let mut seen = 0;
        for (i, o) in OPS.iter().enumerate() {
            let rs = row_sem(i as OpId);
            let image = o.family == Family::Mimg;
            assert_eq!(rs.image.is_some(), image && rs.id().is_some(), "{}", o.name);
            if let Some(m) = rs.image {
                let sampler = o.has(flag::SAMPLER) || o.has(flag::GATHER4);
                assert_eq!(matches!(m, ImageMem::Sample(_)), sampler, "{}", o.name);
                seen += 1;
            }
        }
        assert!(seen > 60, "{seen} image rows");
    }

    /// The elements of a load or store, in short.
    fn e(bytes: u8, count: u8, signed: bool, half: Half) -> Elements {
        Elements {
            bytes,
            count,
            signed,
            half,
        }
    }

    /// The semantics of the first row named `name`.
    fn row(name: &str) -> &'static RowSem {
        let i = OPS.iter().position(|o| o.name == name).unwrap();
        row_sem(i as OpId)
    }

    /// Every DS row with semantics has its operation, and only they; a few
    /// rows read by hand from the CLRX pages (GcnInstrsDs.md) come out as
    /// the build derives them.
    #[test]
    fn lds_rows_have_their_operation() {
        use crate::table::Family;
        let mut seen = 0;
        for (i, o) in OPS.iter().enumerate() {
            let rs = row_sem(i as OpId);
            let ds = o.family == Family::Ds;
            assert_eq!(rs.lds.is_some(), ds && rs.id().is_some(), "{}", o.name);
            seen += usize::from(ds);
        }
        assert!(seen > 150, "{seen} DS rows");
        let cases = [
            ("ds_read_b96", LdsOp::Read(e(4, 3, false, Half::Whole))),
            ("ds_read_i8_d16_hi", LdsOp::Read(e(1, 1, true, Half::High))),
            ("ds_write_b16", LdsOp::Write(e(2, 1, false, Half::Whole))),
            (
                "ds_read2st64_b64",
                LdsOp::Read2 {
                    wide: true,
                    st64: true,
                },
            ),
            (
                "ds_min_rtn_i64",
                LdsOp::Atomic {
                    op: LdsAtomic::Mem(Atomic::SMin),
                    wide: true,
                    ret: true,
                },
            ),
            (
                "ds_cmpst_f32",
                LdsOp::Atomic {
                    op: LdsAtomic::FCmpStore,
                    wide: false,
                    ret: false,
                },
            ),
            (
                "ds_wrxchg_rtn_b32",
                LdsOp::Atomic {
                    op: LdsAtomic::Mem(Atomic::Swap),
                    wide: false,
                    ret: true,
                },
            ),
            (
                "ds_write_src2_b64",
                LdsOp::Src2 {
                    op: Atomic::Swap,
                    wide: true,
                },
            ),
            ("ds_condxchg32_rtn_b128", LdsOp::CondExchange { dwords: 4 }),
            ("ds_gws_sema_br", LdsOp::Gws(Gws::SemaBr)),
            ("ds_bpermute_b32", LdsOp::BPermute),
        ];
        for (name, want) in cases {
            assert_eq!(row(name).lds, Some(want), "{name}");
        }
    }

    /// Every MUBUF/MTBUF/FLAT/GLOBAL/SCRATCH row with semantics has its
    /// access, and only they; an atomic's data operand holds its value (and
    /// comparand); a few rows come out as read by hand.
    #[test]
    fn vector_memory_rows_have_their_access() {
        use crate::table::{Family, Role};
        let mut seen = 0;
        for (i, o) in OPS.iter().enumerate() {
            let rs = row_sem(i as OpId);
            let vmem = matches!(
                o.family,
                Family::Mubuf | Family::Mtbuf | Family::Flat | Family::Global | Family::Scratch
            );
            assert_eq!(
                rs.vector_mem.is_some(),
                vmem && rs.id().is_some(),
                "{}",
                o.name
            );
            if let Some(VectorMem::Atomic { op, wide }) = rs.vector_mem {
                let v = o.operand(Role::V).unwrap().ty.dwords();
                let per = if wide { 2 } else { 1 };
                let cmp = matches!(op, Atomic::CmpSwap | Atomic::FCmpSwap);
                assert_eq!(v, if cmp { 2 * per } else { per }, "{}", o.name);
            }
            seen += usize::from(vmem);
        }
        assert!(seen > 210, "{seen} vector memory rows");
        let cases = [
            (
                "buffer_load_sshort",
                VectorMem::Load(e(2, 1, true, Half::Whole)),
            ),
            (
                "global_store_byte_d16_hi",
                VectorMem::Store(e(1, 1, false, Half::High)),
            ),
            (
                "scratch_load_dwordx3",
                VectorMem::Load(e(4, 3, false, Half::Whole)),
            ),
            (
                "flat_atomic_fcmpswap_x2",
                VectorMem::Atomic {
                    op: Atomic::FCmpSwap,
                    wide: true,
                },
            ),
            (
                "tbuffer_store_format_d16_xyz",
                VectorMem::Format {
                    store: true,
                    components: 3,
                    half: Half::Low,
                },
            ),
            (
                "buffer_load_format_d16_hi_x",
                VectorMem::Format {
                    store: false,
                    components: 1,
                    half: Half::High,
                },
            ),
            ("buffer_store_lds_dword", VectorMem::StoreFromLds),
            ("buffer_wbinvl1", VectorMem::CacheControl),
        ];
        for (name, want) in cases {
            assert_eq!(row(name).vector_mem, Some(want), "{name}");
        }
    }

    /// A sampling row's suffixes are those of its name.
    #[test]
    fn sampling_rows_have_their_suffixes() {
        let s = |name| match row(name).image {
            Some(ImageMem::Sample(s)) => s,
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(s("image_sample"), Sampling::NONE);
        assert_eq!(
            s("image_sample_c_cd_cl_o"),
            Sampling {
                compare: true,
                derivatives: true,
                lod_clamp: true,
                offsets: true,
                ..Sampling::NONE
            }
        );
        assert_eq!(
            s("image_gather4_b_cl"),
            Sampling {
                gather: true,
                bias: true,
                lod_clamp: true,
                ..Sampling::NONE
            }
        );
        assert_eq!(
            s("image_get_lod"),
            Sampling {
                get_lod: true,
                ..Sampling::NONE
            }
        );
        // GCN 1.4's graphics-only 4x1 gathers are marked, so they have none.
        assert_eq!(row("image_gather4h").image, None);
    }
}
