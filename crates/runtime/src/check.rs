//! Run-time checks of a launch (`risa run --check=`, `RISA_CHECK`): a
//! [`risa_check::run::Session`] set up from the kernel's descriptor and
//! hooked into the launch's observers.

use crate::gpu::Module;
use crate::LaunchConfig;
use risa_check::run::{Options, Session};
use std::sync::{Arc, Once};

/// Why the checks do not run on Cayman code, printed once per process.
pub const CAYMAN_NOTE: &str = "the run-time checks are GCN-only: Cayman (TeraScale 3) has no \
s_waitcnt (a clause's fetch results are ready when the clause ends), no software wait states, \
and risa's Cayman emulator has no observer hook yet for uninit/races; the kernel runs unchecked";

/// Sets `cfg` up to run `opts`' checks on kernel `kernel` of `m`; returns the
/// session whose report holds the findings after the launch. Cayman code:
/// `None` (the checks do not apply; [`CAYMAN_NOTE`] says why).
pub fn attach(
    m: &Module,
    kernel: usize,
    opts: Options,
    cfg: &mut LaunchConfig,
) -> Option<Arc<Session>> {
    let desc = m.gcn_descriptor(kernel)?;
    if opts.global_races {
        // One observer must see every work-group's accesses.
        cfg.threads = 1;
    }
    let s = Arc::new(Session::new(opts, crate::gcn_launch::wave_inputs(desc)));
    cfg.add_observer(s.factory());
    Some(s)
}

/// [`attach`] as the `RISA_CHECK` environment variable asks (a `--check=`
/// list); prints a bad value or the Cayman note on stderr once per process.
pub fn attach_from_env(m: &Module, kernel: usize, cfg: &mut LaunchConfig) -> Option<Arc<Session>> {
    let v = std::env::var("RISA_CHECK").ok().filter(|v| !v.is_empty())?;
    static BAD: Once = Once::new();
    let opts = match Options::parse(&v) {
        Ok(o) => o,
        Err(e) => {
            BAD.call_once(|| eprintln!("risa: RISA_CHECK: {e}; no checks run"));
            return None;
        }
    };
    let s = attach(m, kernel, opts, cfg);
    if s.is_none() {
        cayman_note();
    }
    s
}

/// Prints [`CAYMAN_NOTE`] on stderr, once per process.
pub fn cayman_note() {
    static NOTE: Once = Once::new();
    NOTE.call_once(|| eprintln!("risa: {CAYMAN_NOTE}"));
}
