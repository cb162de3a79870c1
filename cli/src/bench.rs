//! `botzone bench`: random playouts per second on a judge map, alone or
//! side by side with a peer program (the wiki samples' benchmarks).

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use botzone::games::botzone::BotzoneGame;
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, Visitor};
use botzone::games::{PeerArg, Rules};
use botzone::rng::Rng;
use clap::Args;

use crate::CliError;

/// Arguments of `botzone bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// The game.
    #[arg(value_parser = crate::game_kind(None))]
    game: GameKind,
    /// The seed of the judge's map (of the random starts, for a game whose
    /// players choose their start).
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// How long to measure, in seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
    /// A peer benchmark to compare with on the same map: a C++ sample's
    /// benchmark as `../shared/reference/build.sh` builds it, run as
    /// `PROGRAM MAP... PLAYOUTS` with the map as the game gives it (a map
    /// file, or the field's numbers). Both sides run in turn, each for
    /// about `--seconds`, and are compared by CPU time.
    #[arg(long, value_name = "PROGRAM")]
    versus: Option<PathBuf>,
    /// Alternating rounds of the comparison with `--versus`.
    #[arg(long, default_value_t = 3, requires = "versus")]
    rounds: u32,
}

/// What a benchmark measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchReport {
    /// Complete playouts (start to game end, then undone to the start).
    pub playouts: u64,
    /// Turns applied in those playouts.
    pub turns: u64,
    /// Wall-clock time measured.
    pub elapsed: Duration,
}

/// Runs `botzone bench`.
pub fn run(args: BenchArgs) -> Result<(), CliError> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err("--seconds must be a positive number".into());
    }
    if args.rounds == 0 {
        return Err("--rounds must be at least 1".into());
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let name = args.game.name();
    let Some(program) = &args.versus else {
        let m = measure(args.game, args.seed, budget)?;
        m.print(name);
        if args.json {
            println!("{}", m.json(name, args.seed));
        }
        return Ok(());
    };

    let peer = Peer::new(program.clone(), args.game, args.seed)?;
    let count = peer.calibrate(args.seconds)?;
    println!(
        "{name}, seed {}: this toolkit vs {} ({count} playouts a run), {} rounds",
        args.seed,
        program.display(),
        args.rounds
    );
    let mut ratios = Vec::new();
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for round in 1..=args.rounds {
        let m = measure(args.game, args.seed, budget)?;
        let rate = m.playouts_per_cpu_second();
        let peer_rate = count as f64 / peer.run(count, peer_limit(args.seconds))?;
        let ratio = rate / peer_rate;
        println!(
            "round {round}: {rate:.0} playouts/s vs {peer_rate:.0} playouts/s (CPU time): {ratio:.2}x"
        );
        ratios.push(ratio);
        ours.push(rate);
        theirs.push(peer_rate);
    }
    let ratio = median(&ratios);
    let (lo, hi) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    println!("ratio: {ratio:.2}x (median; {lo:.2}x to {hi:.2}x)");
    if args.json {
        let obj = serde_json::json!({
            "game": name,
            "seed": args.seed,
            "versus": program.display().to_string(),
            "playouts_per_cpu_second": median(&ours),
            "versus_playouts_per_cpu_second": median(&theirs),
            "ratios": ratios,
            "ratio": ratio,
        });
        println!("{obj}");
    }
    Ok(())
}

/// One measurement of this toolkit.
struct Measurement {
    report: BenchReport,
    /// CPU seconds of the measuring thread, when the system tells.
    cpu: Option<f64>,
}

/// Playouts between two looks at the clock (a playout takes microseconds).
const BATCH: u64 = 256;

/// The wiki samples' benchmark work on the judge's setup of `seed`: from
/// the start, every player in the game takes a uniformly random legal
/// action each turn until the game ends ([`Rules::random_playout`]), the
/// scores are computed, and the game is taken back to the start
/// ([`botzone::games::Game::undo_turns`]: one step for Pacman2, turn by
/// turn elsewhere, as each sample does); repeated for `budget`.
fn playouts<G: Rules>(seed: u32, budget: Duration) -> Result<BenchReport, CliError> {
    let mut game = G::from_seed(seed);
    let start = game.clone();
    let mut rng = Rng::new(u64::from(seed));
    let mut scores = vec![0.0; G::SEATS];
    let mut checksum = 0.0;
    let mut report = BenchReport::default();
    let t0 = Instant::now();
    loop {
        for _ in 0..BATCH {
            let turns = game.random_playout(&mut rng);
            game.scores(&mut scores);
            checksum += scores[0];
            game.undo_turns(turns);
            report.turns += u64::from(turns);
        }
        report.playouts += BATCH;
        if t0.elapsed() >= budget {
            break;
        }
    }
    report.elapsed = t0.elapsed();
    if game != start || !checksum.is_finite() {
        return Err(format!(
            "{} bench: the playouts did not return to the start",
            G::NAME
        )
        .into());
    }
    Ok(report)
}

/// [`playouts`] for a game kind.
struct Playouts(u32, Duration);

impl Visitor for Playouts {
    type Output = Result<BenchReport, CliError>;
    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        playouts::<G>(self.0, self.1)
    }
    fn line<G: LineGame>(self) -> Self::Output {
        playouts::<G>(self.0, self.1)
    }
}

/// How a game's peer benchmark takes the setup of a seed.
struct PeerArgs(u32);

impl PeerArgs {
    fn of<G: Rules>(seed: u32) -> Result<Vec<PeerArg>, CliError> {
        G::bench_peer_args(&G::setup_from_seed(seed)).ok_or_else(|| {
            format!(
                "bench {} --versus: no peer benchmark exists for {}",
                G::NAME,
                G::NAME
            )
            .into()
        })
    }
}

impl Visitor for PeerArgs {
    type Output = Result<Vec<PeerArg>, CliError>;
    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        PeerArgs::of::<G>(self.0)
    }
    fn line<G: LineGame>(self) -> Self::Output {
        PeerArgs::of::<G>(self.0)
    }
}

/// Runs the game's benchmark for `budget`, timing it by the wall clock and
/// by this thread's CPU time.
fn measure(game: GameKind, seed: u32, budget: Duration) -> Result<Measurement, CliError> {
    let cpu_before = cpu_time();
    let report = game.visit(Playouts(seed, budget))?;
    // CPU time of the measuring thread: on a busy machine the fair figure
    // to compare with another program's (`perf stat -e task-clock`).
    let cpu = cpu_before
        .zip(cpu_time())
        .map(|(a, b)| b.saturating_sub(a).as_secs_f64())
        .filter(|&c| c > 0.0);
    Ok(Measurement { report, cpu })
}

impl Measurement {
    fn secs(&self) -> f64 {
        self.report.elapsed.as_secs_f64().max(1e-9)
    }

    /// Playouts per CPU second (per wall-clock second where the CPU time
    /// is unknown).
    fn playouts_per_cpu_second(&self) -> f64 {
        self.report.playouts as f64 / self.cpu.unwrap_or_else(|| self.secs())
    }

    fn print(&self, name: &str) {
        let (r, secs) = (&self.report, self.secs());
        println!(
            "{name}: {} playouts, {} turns in {secs:.3} s",
            r.playouts, r.turns
        );
        println!("playouts/s: {:.0}", r.playouts as f64 / secs);
        println!("turns/s: {:.0}", r.turns as f64 / secs);
        if let Some(cpu) = self.cpu {
            println!(
                "per CPU second ({cpu:.3} s of CPU): {:.0} playouts/s, {:.0} turns/s",
                r.playouts as f64 / cpu,
                r.turns as f64 / cpu
            );
        }
    }

    fn json(&self, name: &str, seed: u32) -> serde_json::Value {
        let (r, secs) = (&self.report, self.secs());
        let mut obj = serde_json::json!({
            "game": name,
            "seed": seed,
            "seconds": secs,
            "playouts": r.playouts,
            "turns": r.turns,
            "playouts_per_second": r.playouts as f64 / secs,
            "turns_per_second": r.turns as f64 / secs,
        });
        if let Some(cpu) = self.cpu {
            obj["cpu_seconds"] = serde_json::json!(cpu);
            obj["playouts_per_cpu_second"] = serde_json::json!(r.playouts as f64 / cpu);
            obj["turns_per_cpu_second"] = serde_json::json!(r.turns as f64 / cpu);
        }
        obj
    }
}

/// A peer benchmark program and the arguments that give it the map.
struct Peer {
    program: PathBuf,
    args: Vec<String>,
    /// Keeps the peer's map files until the comparison ends.
    _files: Vec<TempFile>,
}

impl Peer {
    fn new(program: PathBuf, game: GameKind, seed: u32) -> Result<Peer, CliError> {
        let mut args = Vec::new();
        let mut files = Vec::new();
        for (i, arg) in game.visit(PeerArgs(seed))?.into_iter().enumerate() {
            match arg {
                PeerArg::Text(text) => args.push(text),
                PeerArg::File(text) => {
                    let file = TempFile::new(&format!("map{i}.json"), &text)?;
                    args.push(file.0.display().to_string());
                    files.push(file);
                }
            }
        }
        Ok(Peer {
            program,
            args,
            _files: files,
        })
    }

    /// The CPU seconds the peer takes for `count` playouts; a peer still
    /// running after `limit` is killed.
    fn run(&self, count: u64, limit: Duration) -> Result<f64, CliError> {
        let name = self.program.display();
        let before = children_cpu();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .arg(count.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {name}: {e}"))?;
        // Drained on the side, so that a talkative peer cannot block.
        let mut pipe = child.stderr.take();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(pipe) = pipe.as_mut() {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        });
        let deadline = Instant::now() + limit;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{name} ({count} playouts) still ran after {:.0} s; killed",
                    limit.as_secs_f64()
                )
                .into());
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let err = stderr.join().unwrap_or_default();
        if !status.success() {
            let first = err.lines().next().unwrap_or("");
            return Err(format!("{name} failed ({status}): {first}").into());
        }
        let cpu = children_cpu().saturating_sub(before).as_secs_f64();
        if cpu <= 0.0 {
            return Err(format!("{name}: no CPU time measured").into());
        }
        Ok(cpu)
    }

    /// A playout count that keeps the peer busy for about `seconds`.
    fn calibrate(&self, seconds: f64) -> Result<u64, CliError> {
        let mut count = 100u64;
        loop {
            let cpu = self.run(count, peer_limit(seconds))?;
            if cpu >= 0.05 || count >= 1 << 40 {
                return Ok(((count as f64 * seconds / cpu) as u64).max(1));
            }
            count *= 10;
        }
    }
}

/// How long one run of the peer may take: ten times the time asked for,
/// plus five seconds.
fn peer_limit(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds * 10.0 + 5.0)
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> std::io::Result<TempFile> {
        let path =
            std::env::temp_dir().join(format!("botzone-bench-{}-{name}", std::process::id()));
        std::fs::write(&path, text)?;
        Ok(TempFile(path))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// CPU time (user + system) of the children waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage only writes the zero-initialised struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The CPU time this thread has run so far (Linux: the first field of
/// `/proc/thread-self/schedstat`, in nanoseconds), if the kernel tells.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}
