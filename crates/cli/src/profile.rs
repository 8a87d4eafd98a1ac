//! `risa run --profile`, `--profile-html FILE` and `--timeline FILE`: attach a
//! [`risa_profile::Profiler`] to a GCN launch (or a
//! [`risa_cayman_emu::ProfileSink`] to a Cayman one) and write what it
//! gathered.

use risa_profile::{html, report, timeline, Limits, Profiler};
use risa_runtime::gpu::Isa;
use risa_runtime::LaunchConfig;
use std::path::PathBuf;
use std::sync::Arc;

/// The profiling options of `risa run`.
#[derive(clap::Args, Default)]
pub(crate) struct ProfileArgs {
    /// Print a profile after the run: per-instruction counts (waves that
    /// issued it, active lanes under EXEC / the active mask; Cayman: per CF
    /// instruction, ALU group and fetch instruction) on the disassembly,
    /// hottest first, and the instruction mix by class (see docs/profile.md)
    #[arg(long)]
    pub(crate) profile: bool,
    /// Write the profile as one self-contained HTML page (annotated code,
    /// instruction-mix charts as inline SVG; opens offline)
    #[arg(long, value_name = "FILE")]
    pub(crate) profile_html: Option<PathBuf>,
    /// Hottest instructions listed before the annotated code
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub(crate) profile_top: usize,
    /// Write a Chrome trace-event / Perfetto timeline of the dispatch: one
    /// track per wave, one process per work-group, runs of instruction
    /// classes in issue order (Cayman: CF instructions, ALU groups and
    /// fetches); time unit = one issued instruction
    #[arg(long, value_name = "FILE.json")]
    pub(crate) timeline: Option<PathBuf>,
}

/// A profiled launch in progress.
pub(crate) struct Session<'a> {
    args: &'a ProfileArgs,
    source: Source,
    title: String,
    kernel: String,
    chip: String,
}

/// Sets `cfg` up to profile the launch of `kernel` when any profiling
/// option is given (None otherwise).
pub(crate) fn attach<'a>(
    args: &'a ProfileArgs,
    tracing: bool,
    isa: Isa,
    kernel: &str,
    cfg: &mut LaunchConfig,
) -> Result<Option<Session<'a>>, String> {
    if !args.profile && args.profile_html.is_none() && args.timeline.is_none() {
        return Ok(None);
    }
    if tracing {
        // A traced wave runs its own loop, which observers do not see.
        return Err(
            "--profile, --profile-html and --timeline cannot be combined with --trace".into(),
        );
    }
    let source = if isa == Isa::Cayman {
        let sink = risa_cayman_emu::ProfileSink::new();
        cfg.cayman_profile = Some(sink.clone());
        let tl = args
            .timeline
            .as_ref()
            .map(|_| risa_profile::cayman::Timeline::new(Limits::default()));
        if let Some(t) = &tl {
            cfg.add_cayman_observer(t.factory());
        }
        Source::Cayman(sink, tl)
    } else {
        let profiler = Profiler::new(
            risa_gcn::Dialect::Clrx,
            args.timeline.as_ref().map(|_| Limits::default()),
        );
        let p = profiler.clone();
        cfg.add_observer(Arc::new(move || p.recorder()));
        Source::Gcn(profiler)
    };
    let grid = cfg.grid.map(|g| g.to_string()).join("x");
    let block = cfg.block.map(|g| g.to_string()).join("x");
    Ok(Some(Session {
        args,
        source,
        title: format!("{kernel} on {isa}, grid {grid}, work-group {block}"),
        kernel: kernel.to_string(),
        chip: isa.to_string(),
    }))
}

impl Session<'_> {
    /// Prints and writes what was asked for, once the launch is over (also
    /// after a fault: the profile then covers what ran).
    pub(crate) fn finish(self) -> Result<(), String> {
        let prof = match &self.source {
            Source::Gcn(p) => p.finish(),
            Source::Cayman(sink, tl) => match sink.take() {
                Some(c) => risa_profile::cayman::profile(&c, tl.as_ref()),
                None => risa_profile::Profile {
                    listing: None,
                    counts: Vec::new(),
                    timeline: None,
                },
            },
        };
        if self.args.profile {
            print!(
                "{}",
                report::text(&prof, &self.title, self.args.profile_top)
            );
        }
        if let Some(path) = &self.args.profile_html {
            let page = html::page(&prof, &self.title, self.args.profile_top);
            std::fs::write(path, page)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("risa run: profile written to {}", path.display());
        }
        if let (Some(path), Some(t)) = (&self.args.timeline, &prof.timeline) {
            let empty = risa_profile::Listing {
                lines: Vec::new(),
                classes: &[],
            };
            let listing = prof.listing.as_deref().unwrap_or(&empty);
            let about = [("kernel", self.kernel.clone()), ("chip", self.chip.clone())];
            let f = std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            let mut w = std::io::BufWriter::new(f);
            timeline::write_json(t, listing, &about, &mut w)
                .and_then(|()| std::io::Write::flush(&mut w))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            let dropped: u64 = t.groups.iter().map(|g| g.dropped).sum();
            eprintln!(
                "risa run: timeline written to {} ({} work-groups{}{})",
                path.display(),
                t.groups.len(),
                if t.skipped_groups > 0 {
                    format!(", {} more not recorded", t.skipped_groups)
                } else {
                    String::new()
                },
                if dropped > 0 {
                    format!(", {dropped} events dropped")
                } else {
                    String::new()
                }
            );
        }
        Ok(())
    }
}

/// Where a launch's counts come from.
enum Source {
    /// The GCN observers' profiler.
    Gcn(Profiler),
    /// The Cayman emulator's counts, and the timeline when one was asked for.
    Cayman(
        Arc<risa_cayman_emu::ProfileSink>,
        Option<risa_profile::cayman::Timeline>,
    ),
}
