//! What every risa benchmark (`crates/*/benches/*.rs`) shares.
//!
//! Each workload is measured once, by criterion (statistics, MB/s or
//! elements/s as "thrpt", saved baselines to compare against), while a
//! [`Probe`] records, from the same iterations, the best wall time per
//! iteration and the CPU time this thread spent: the benches print their
//! established one-line figures from it (MB/s, M instructions/s, and the
//! per-CPU-second rates that stay meaningful when other processes share the
//! cores).
//!
//! Under an instruction counter (valgrind's cachegrind or callgrind, detected
//! by its preload library) or with `RISA_BENCH_ONCE=1`, criterion's repeated
//! sampling is skipped and every workload runs exactly once, so instruction
//! counts are comparable from run to run (`cg.sh LABEL BINARY`).

#![warn(missing_docs)]
use std::cell::RefCell;
use std::time::{Duration, Instant};

pub use criterion::{BenchmarkId, Criterion, Throughput};

/// The benchmark driver: criterion, or nothing when [`once`] holds (then
/// criterion is not even constructed: its set-up probes for gnuplot in a
/// child process, which valgrind would count as a second process).
pub struct Bench(Option<Criterion>);

impl Bench {
    /// Criterion's closing summary (nothing when run once).
    pub fn final_summary(&mut self) {
        if let Some(c) = &mut self.0 {
            c.final_summary();
        }
    }
}

/// CPU time this thread has run, in ns (Linux `schedstat`), if known.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Runs `f` and returns its wall time and the CPU seconds this thread
/// spent on it, if known.
fn timed(f: impl FnOnce()) -> (Duration, Option<f64>) {
    let c0 = cpu_ns();
    let t = Instant::now();
    f();
    let wall = t.elapsed();
    let cpu = cpu_ns()
        .zip(c0)
        .map(|(b, a)| b.saturating_sub(a) as f64 / 1e9);
    (wall, cpu)
}

/// The value of the environment knob `name` (a `RISA_BENCH_*` variable), or
/// `default` when unset or not a number.
pub fn knob<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Whether each workload runs once, without criterion: `RISA_BENCH_ONCE` is
/// set, or the process runs under valgrind (whose preload library is in
/// `LD_PRELOAD`), where only instruction counts matter.
pub fn once() -> bool {
    std::env::var_os("RISA_BENCH_ONCE").is_some()
        || std::env::var("LD_PRELOAD").is_ok_and(|p| p.contains("vgpreload"))
}

/// The criterion driver, configured from the command line (`cargo bench`
/// passes `--bench` and any filter). Samples are few and short: the
/// workloads are large (milliseconds each), and two cores are shared.
/// When [`once`] holds the command line is left to the bench (criterion
/// is not run, and a bench's own words such as `N nearest` are no filter).
pub fn criterion() -> Bench {
    if once() {
        return Bench(None);
    }
    Bench(Some(
        Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .without_plots()
            .configure_from_args(),
    ))
}

/// What one workload's iterations measured.
#[derive(Debug, Clone, Copy, Default)]
pub struct Probe {
    /// Iterations run (0 when criterion's filter skipped the workload).
    pub iters: u64,
    /// The best wall time of one iteration, in seconds (over criterion's
    /// samples, each the mean of its iterations).
    pub best_wall: f64,
    /// The mean wall time of one iteration over every measured iteration,
    /// in seconds (what the benches that timed a fixed loop printed).
    pub mean_wall: f64,
    /// CPU seconds of this thread per iteration, if the OS tells (and the
    /// run was long enough to register).
    pub cpu: Option<f64>,
}

impl Probe {
    /// Whether the workload ran.
    pub fn ran(&self) -> bool {
        self.iters > 0
    }

    /// `amount` per wall-clock second (best sample), in millions.
    pub fn per_s(&self, amount: f64) -> f64 {
        amount / self.best_wall / 1e6
    }

    /// `amount` per wall-clock second (mean over all iterations), in millions.
    pub fn per_s_mean(&self, amount: f64) -> f64 {
        amount / self.mean_wall / 1e6
    }

    /// `amount` per CPU-second, in millions (NaN when CPU time is unknown).
    pub fn per_cpu_s(&self, amount: f64) -> f64 {
        self.cpu.map_or(f64::NAN, |c| amount / c / 1e6)
    }
}

/// Measures `work` as benchmark `group/name` with `throughput` per iteration,
/// and returns what its iterations measured ([`once`]: one run, no criterion).
pub fn measure(
    c: &mut Bench,
    group: &str,
    name: &str,
    throughput: Throughput,
    work: impl FnMut(),
) -> Probe {
    measure_runs(c, group, name, throughput, 1, work)
}

/// [`measure`], running `work` `once_runs` times (not once) when [`once`]
/// holds: for knobs such as `RISA_BENCH_RUNS` that scripts difference.
pub fn measure_runs(
    c: &mut Bench,
    group: &str,
    name: &str,
    throughput: Throughput,
    once_runs: usize,
    mut work: impl FnMut(),
) -> Probe {
    let Some(c) = c.0.as_mut() else {
        let mut p = Probe {
            best_wall: f64::MAX,
            cpu: Some(0.0),
            ..Probe::default()
        };
        for _ in 0..once_runs.max(1) {
            let (wall, cpu) = timed(&mut work);
            let wall = wall.as_secs_f64();
            p.iters += 1;
            p.best_wall = p.best_wall.min(wall);
            p.mean_wall += wall;
            p.cpu = p.cpu.zip(cpu).map(|(t, c)| t + c);
        }
        // A run shorter than the scheduler's accounting step reads as 0 s.
        p.cpu = p.cpu.map(|t| t / p.iters as f64).filter(|&c| c > 0.0);
        p.mean_wall /= p.iters as f64;
        return p;
    };
    let probe = RefCell::new(Probe {
        best_wall: f64::MAX,
        ..Probe::default()
    });
    let cpu_total = RefCell::new(Some(0.0));
    let mut g = c.benchmark_group(group);
    g.throughput(throughput);
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let (wall, cpu) = timed(|| (0..iters).for_each(|_| work()));
            let mut p = probe.borrow_mut();
            p.iters += iters;
            p.best_wall = p.best_wall.min(wall.as_secs_f64() / iters as f64);
            p.mean_wall += wall.as_secs_f64();
            let mut total = cpu_total.borrow_mut();
            *total = total.zip(cpu).map(|(t, c)| t + c);
            wall
        })
    });
    g.finish();
    let mut p = probe.into_inner();
    p.mean_wall /= p.iters.max(1) as f64;
    p.cpu = cpu_total
        .into_inner()
        .filter(|_| p.iters > 0)
        .map(|t| t / p.iters as f64)
        .filter(|&c| c > 0.0);
    p
}
