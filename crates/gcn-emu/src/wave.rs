//! The state of one wavefront: scalar and vector registers, EXEC/VCC/SCC/M0,
//! MODE, program counter and status.
//!
//! SGPRs and the special scalar registers share one 128-entry file indexed by
//! their operand code (VCC at 106, M0 at 124, EXEC at 126), so an operand code
//! below 128 is simply an index.

use crate::mem::active_lanes;
use crate::program::Src;

/// Operand code of VCC_LO.
pub const VCC: usize = 106;
/// Operand code of M0.
pub const M0: usize = 124;
/// Operand code of EXEC_LO.
pub const EXEC: usize = 126;
/// VGPR slots allocated per wave: 256 plus room for the widest operand starting at v255.
pub const VGPR_SLOTS: usize = 256 + 16;

/// One lane value per lane of a 64-wide wave.
pub type Lanes = [u32; 64];

/// Whether a wave runs, waits or has finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Ready to execute.
    Running,
    /// Waiting at `s_barrier` for the other waves of its group.
    Barrier,
    /// Executed `s_endpgm`.
    Done,
    /// Parked on a GDS resource (GWS barrier/semaphore, ordered-count turn);
    /// the PC is on that instruction, which runs again when the state changes.
    Sync,
}

/// A wavefront.
#[derive(Clone)]
pub struct Wave {
    /// SGPRs and special scalar registers, by operand code.
    pub s: [u32; 128],
    /// VGPRs: `v[r][lane]`.
    pub v: Vec<Lanes>,
    /// The scalar condition code.
    pub scc: bool,
    /// Index (in the program's op list) of the next instruction.
    pub pc: u32,
    /// The MODE register (round and denormal modes in bits 7:0, DX10_CLAMP 8, IEEE 9).
    pub mode: u32,
    /// Running, at a barrier, or done.
    pub status: Status,
    /// Index of the wave in its work-group.
    pub id: u32,
    /// Instructions executed.
    pub count: u64,
    /// While parked on a GWS resource: 1 + the barrier or release generation
    /// it waits to change (0 when not parked; see `gds.rs`).
    pub sync_ticket: u64,
}

impl Wave {
    /// A wave with all registers zero.
    pub fn new(id: u32) -> Wave {
        Wave {
            s: [0; 128],
            v: vec![[0; 64]; VGPR_SLOTS],
            scc: false,
            pc: 0,
            mode: 0,
            status: Status::Running,
            id,
            count: 0,
            sync_ticket: 0,
        }
    }

    /// Clears registers for reuse as a new wave.
    pub fn reset(&mut self, id: u32) {
        self.reset_partial(id, VGPR_SLOTS);
    }

    /// Clears the SGPRs, the first `vgprs` VGPRs and the state, for reuse as a
    /// new wave of a kernel that uses `vgprs` VGPRs (the others are not read by
    /// a valid program; clearing only these keeps short kernels fast).
    pub fn reset_partial(&mut self, id: u32, vgprs: usize) {
        self.s = [0; 128];
        for r in self.v.iter_mut().take(vgprs) {
            *r = [0; 64];
        }
        self.scc = false;
        self.pc = 0;
        self.mode = 0;
        self.status = Status::Running;
        self.id = id;
        self.count = 0;
        self.sync_ticket = 0;
    }

    /// The 64-bit scalar register pair at code `i`.
    #[inline(always)]
    pub fn s64(&self, i: usize) -> u64 {
        u64::from(self.s[i & 127]) | u64::from(self.s[(i + 1) & 127]) << 32
    }

    /// Writes the 64-bit scalar register pair at code `i`.
    #[inline(always)]
    pub fn set_s64(&mut self, i: usize, v: u64) {
        self.s[i & 127] = v as u32;
        self.s[(i + 1) & 127] = (v >> 32) as u32;
    }

    /// EXEC.
    #[inline(always)]
    pub fn exec(&self) -> u64 {
        self.s64(EXEC)
    }

    /// VCC.
    #[inline(always)]
    pub fn vcc(&self) -> u64 {
        self.s64(VCC)
    }

    /// A scalar source as 32 bits.
    #[inline(always)]
    pub fn sread32(&self, s: Src) -> u32 {
        match s {
            Src::S(i) => self.s[i as usize & 127],
            Src::K(k) => k as u32,
            Src::V(r) => self.v[r as usize][0],
            Src::Scc => self.scc as u32,
            Src::Vccz => (self.vcc() == 0) as u32,
            Src::Execz => (self.exec() == 0) as u32,
            Src::None => 0,
        }
    }

    /// A scalar source as 64 bits.
    #[inline(always)]
    pub fn sread64(&self, s: Src) -> u64 {
        match s {
            Src::S(i) => self.s64(i as usize),
            Src::K(k) => k,
            Src::V(r) => {
                u64::from(self.v[r as usize][0]) | u64::from(self.v[r as usize + 1][0]) << 32
            }
            Src::Scc => self.scc as u64,
            Src::Vccz => (self.vcc() == 0) as u64,
            Src::Execz => (self.exec() == 0) as u64,
            Src::None => 0,
        }
    }

    /// A source as 32 bits per lane.
    #[inline(always)]
    pub fn lanes32(&self, s: Src, out: &mut Lanes) {
        match s {
            Src::V(r) => *out = self.v[r as usize],
            _ => *out = [self.sread32(s); 64],
        }
    }

    /// A source as 64 bits per lane.
    #[inline(always)]
    pub fn lanes64(&self, s: Src, out: &mut [u64; 64]) {
        match s {
            Src::V(r) => {
                let lo = &self.v[r as usize];
                let hi = &self.v[r as usize + 1];
                for l in 0..64 {
                    out[l] = u64::from(lo[l]) | u64::from(hi[l]) << 32;
                }
            }
            _ => *out = [self.sread64(s); 64],
        }
    }

    /// Writes `vals` to VGPR `r` in the lanes of `exec`.
    #[inline(always)]
    pub fn vwrite32(&mut self, r: usize, vals: &Lanes, exec: u64) {
        let d = &mut self.v[r];
        if exec == u64::MAX {
            *d = *vals;
        } else {
            for l in active_lanes(exec) {
                d[l] = vals[l];
            }
        }
    }

    /// Writes 64-bit `vals` to VGPRs `r`, `r+1` in the lanes of `exec`.
    #[inline(always)]
    pub fn vwrite64(&mut self, r: usize, vals: &[u64; 64], exec: u64) {
        let (lo, hi) = self.v.split_at_mut(r + 1);
        let lo = &mut lo[r];
        let hi = &mut hi[0];
        for l in active_lanes(exec) {
            lo[l] = vals[l] as u32;
            hi[l] = (vals[l] >> 32) as u32;
        }
    }

    /// Whether f32 input denormals are flushed (MODE.FP_DENORM bits 5:4, bit 4 clear).
    #[inline(always)]
    pub fn flush_in32(&self) -> bool {
        self.mode & 0x10 == 0
    }
    /// Whether f32 output denormals are flushed (bit 5 clear).
    #[inline(always)]
    pub fn flush_out32(&self) -> bool {
        self.mode & 0x20 == 0
    }
    /// Whether f64/f16 input denormals are flushed (bit 6 clear).
    #[inline(always)]
    pub fn flush_in64(&self) -> bool {
        self.mode & 0x40 == 0
    }
    /// Whether f64/f16 output denormals are flushed (bit 7 clear).
    #[inline(always)]
    pub fn flush_out64(&self) -> bool {
        self.mode & 0x80 == 0
    }
    /// MODE.DX10_CLAMP: clamping maps NaN to 0.
    #[inline(always)]
    pub fn dx10_clamp(&self) -> bool {
        self.mode & 0x100 != 0
    }
}
