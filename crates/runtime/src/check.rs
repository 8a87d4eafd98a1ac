//! Run-time checks of a launch (`risa run --check=`, `RISA_CHECK`): a
//! [`risa_check::run::Session`] set up from a GCN kernel's descriptor, or a
//! [`risa_check::cayman::Session`] from a Cayman kernel's code, hooked into
//! the launch's observers.

use crate::gpu::Module;
use crate::LaunchConfig;
use risa_check::run::{Options, Session};
use risa_check::Report;
use std::sync::{Arc, Once};

/// The checks of one launch, GCN or Cayman.
pub enum Checks {
    /// GCN: the checkers of `risa_check::run`.
    Gcn(Arc<Session>),
    /// Cayman: the checkers of `risa_check::cayman`.
    Cayman(Arc<risa_check::cayman::Session>),
}

impl Checks {
    /// The findings so far.
    pub fn report(&self) -> Report {
        match self {
            Checks::Gcn(s) => s.report(),
            Checks::Cayman(s) => s.report(),
        }
    }
}

/// Why `races-global` does not run on Cayman code, printed once per process.
pub const CAYMAN_NOTE: &str = "races-global is GCN-only (Cayman's global memory goes through \
RAT exports and fetch clauses, which the race table does not model); the other checks run";

/// Sets `cfg` up to run `opts`' checks on kernel `kernel` of `m`; returns the
/// checks whose report holds the findings after the launch.
pub fn attach(m: &Module, kernel: usize, opts: Options, cfg: &mut LaunchConfig) -> Option<Checks> {
    if let Some(code) = m.cayman_code(kernel) {
        if opts.global_races {
            cayman_note();
        }
        let s = Arc::new(risa_check::cayman::Session::new(opts, code));
        cfg.add_cayman_observer(s.factory());
        return Some(Checks::Cayman(s));
    }
    let desc = m.gcn_descriptor(kernel)?;
    if opts.global_races {
        // One observer must see every work-group's accesses.
        cfg.threads = 1;
    }
    let s = Arc::new(Session::new(opts, crate::gcn_launch::wave_inputs(desc)));
    cfg.add_observer(s.factory());
    Some(Checks::Gcn(s))
}

/// [`attach`] as the `RISA_CHECK` environment variable asks (a `--check=`
/// list); prints a bad value on stderr once per process.
pub fn attach_from_env(m: &Module, kernel: usize, cfg: &mut LaunchConfig) -> Option<Checks> {
    let v = std::env::var("RISA_CHECK").ok().filter(|v| !v.is_empty())?;
    static BAD: Once = Once::new();
    let opts = match Options::parse(&v) {
        Ok(o) => o,
        Err(e) => {
            BAD.call_once(|| eprintln!("risa: RISA_CHECK: {e}; no checks run"));
            return None;
        }
    };
    attach(m, kernel, opts, cfg)
}

/// Prints [`CAYMAN_NOTE`] on stderr, once per process.
pub fn cayman_note() {
    static NOTE: Once = Once::new();
    NOTE.call_once(|| eprintln!("risa: {CAYMAN_NOTE}"));
}
