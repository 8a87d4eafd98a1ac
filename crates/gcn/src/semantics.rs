//! What each table row computes, as the emulator needs it: the row's
//! semantic id ([`Sem`]), or why it has none; whether its result follows the
//! rounding mode; and on which generations its 16-bit result keeps the high
//! half of its destination.
//!
//! The facts are row attributes in `tables/*.tbl` (`sem=`, `nosem=`, `round`,
//! `keephi=`; see `tables/README.md`, "Semantics"), turned by `build.rs` into
//! the [`Sem`] enum and one [`RowSem`] per row. This crate only names the
//! semantics; the emulator (`risa-gcn-emu`) owns the functions, keyed by
//! [`Sem`], and its tests walk every row of every generation.

use crate::gen::Gen;
use crate::table::OpId;

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
    /// Bit `g` set: on generation `g` the row's 16-bit result leaves VDST[31:16]
    /// as it was instead of zeroing it (`keephi=14`).
    pub keep_high: u8,
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
}
