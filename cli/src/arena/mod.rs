//! The local arena: `botzone match`, `botzone judge`, `botzone replay`.
//!
//! - [`process`]: bot processes under Botzone's limits (time, memory,
//!   output), keep-running with SIGSTOP/SIGCONT, process-group kills.
//! - [`player`]: one seat of a Botzone JSON game (fresh process per turn or
//!   keep-running), with verdicts.
//! - [`referee`]: the judge protocol (the library's judges, judge
//!   programs).
//! - [`botzone_game`]: one game of a Botzone game through a referee.
//! - [`line_game`]: one game of a line-protocol game, refereed here.
//! - [`results`]: the JSONL results and the standings table.
//! - [`replay`]: `botzone replay`.
//! - [`compare`]: `botzone compare` (paired differences of results).

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use botzone::games::botzone::BotzoneGame;
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, Protocol, Visitor};
use clap::Args;
use serde_json::{json, Value};

use crate::{game_kind, games_of, CliError};

pub mod botzone_game;
pub mod compare;
pub mod line_game;
pub mod player;
pub mod process;
pub mod referee;
pub mod replay;
pub mod results;

use player::GlobalData;
use process::Limits;
use results::{GameResult, Standings};

/// Arguments of `botzone match`.
#[derive(Args)]
pub struct MatchArgs {
    /// The game.
    #[arg(value_parser = game_kind(None))]
    game: GameKind,
    /// A bot's command line, run with `sh -c` (once per seat: see the
    /// game's number of players). `@random` plays random legal actions, in
    /// the games on a line protocol.
    #[arg(long = "bot", value_name = "CMD", required = true)]
    bots: Vec<String>,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The first map's seed; each group of as many games as seats plays one
    /// map (seeds S, S+1, …) with the seats rotated.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give every game a map of its own (seeds S, S+1, …): the seats still
    /// rotate from one game to the next, so that N games cover N maps
    /// instead of N / seats.
    #[arg(long)]
    map_per_game: bool,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Time per turn in seconds (the first turn of a game gets twice this).
    #[arg(long, default_value_t = 1.0)]
    time_limit: f64,
    /// Memory limit per bot process in MB (memory it commits: heap and
    /// data, `RLIMIT_DATA`); 0 for none.
    #[arg(long, default_value_t = 256)]
    memory_limit: u64,
    /// The most a bot may print in one turn, in KB.
    #[arg(long, default_value_t = 1024)]
    output_limit: usize,
    /// Run the bots of one turn at the same time (Botzone games) instead of
    /// one after another: faster with bots that take little CPU (such as
    /// the wiki's samples), less fair to bots that search for a fixed time.
    #[arg(long)]
    parallel_seats: bool,
    /// Count wall-clock time against the time limit instead of CPU time
    /// (by default a turn's CPU time counts, with a wall-clock backstop of
    /// 3 x limit + 0.5 s, so that a busy machine gives no false TLE).
    #[arg(long)]
    wall_clock: bool,
    /// Stream results here, one JSON line per finished game.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run in --out: play only the games not there yet.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Referee with this judge program instead of the built-in judge
    /// (Botzone's judge protocol, run once per turn).
    #[arg(long, value_name = "CMD")]
    judge: Option<String>,
    /// Where each game's log goes (default: <out>.logs, or arena-logs).
    #[arg(long)]
    log_dir: Option<PathBuf>,
    /// Save no game logs.
    #[arg(long)]
    no_logs: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Arguments of `botzone judge`.
#[derive(Args)]
pub struct JudgeArgs {
    /// The game (one with a Botzone judge).
    #[arg(value_parser = game_kind(Some(Protocol::Botzone)))]
    game: GameKind,
}

/// Arguments of `botzone replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// A game log saved by `botzone match`.
    log: PathBuf,
    /// Seconds between turns (0: print every turn at once).
    #[arg(long, default_value_t = 0.0)]
    delay: f64,
    /// Write one self-contained HTML page that plays the game (board,
    /// controls, chart) instead of printing it.
    #[arg(long)]
    html: bool,
    /// Where the page goes (with --html; default: the log's path with .html).
    #[arg(short = 'o', long, requires = "html")]
    out: Option<PathBuf>,
    /// The game, for a log that names none (one downloaded from Botzone).
    #[arg(long, value_parser = crate::game_kind(None))]
    game: Option<GameKind>,
}

/// Game `index` of a run: its map's seed and which bot sits in each seat.
/// The seats rotate from one game to the next; each map is played with
/// every rotation (`seat_count` games in a row), or only once with
/// `map_per_game`.
pub fn schedule(
    index: usize,
    first_seed: u64,
    seat_count: usize,
    map_per_game: bool,
) -> (u64, Vec<usize>) {
    let games_per_map = if map_per_game { 1 } else { seat_count };
    let seed = first_seed + (index / games_per_map) as u64;
    let rotation = index % seat_count;
    let seats = (0..seat_count)
        .map(|s| (s + rotation) % seat_count)
        .collect();
    (seed, seats)
}

struct Setup {
    game: GameKind,
    bots: Vec<String>,
    /// Each bot's `globaldata` (in `--bot` order).
    globaldata: Vec<GlobalData>,
    limits: Limits,
    judge: Option<String>,
    log_dir: Option<PathBuf>,
    first_seed: u64,
    map_per_game: bool,
    parallel_seats: bool,
}

/// One game, with its seed and seating, for the game's protocol.
struct PlayOne<'a> {
    setup: &'a Setup,
    seed: u64,
    seating: &'a [usize],
    commands: &'a [String],
}

impl Visitor for PlayOne<'_> {
    type Output = Result<botzone_game::Played, String>;

    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        let setup = self.setup;
        let mut referee: Box<dyn referee::Referee> = match &setup.judge {
            Some(cmd) => Box::new(referee::External {
                command: cmd.clone(),
                timeout: Duration::from_secs(10),
            }),
            None => Box::new(referee::Builtin::<G>::new()),
        };
        let globaldata: Vec<GlobalData> = self
            .seating
            .iter()
            .map(|&b| setup.globaldata[b].clone())
            .collect();
        botzone_game::play(
            referee.as_mut(),
            self.commands,
            &globaldata,
            setup.limits,
            json!({ "seed": self.seed }),
            setup.parallel_seats,
        )
    }

    fn line<G: LineGame>(self) -> Self::Output {
        line_game::play::<G>(self.commands, self.setup.limits, self.seed)
    }
}

/// Plays game `index` and saves its log.
fn play_game(setup: &Setup, index: usize) -> Result<GameResult, String> {
    let n = setup.game.seats();
    let (seed, seating) = schedule(index, setup.first_seed, n, setup.map_per_game);
    let commands: Vec<String> = seating.iter().map(|&b| setup.bots[b].clone()).collect();
    let played = setup.game.visit(PlayOne {
        setup,
        seed,
        seating: &seating,
        commands: &commands,
    })?;
    let mut log_path = None;
    if let Some(dir) = &setup.log_dir {
        let path = dir.join(format!("game-{index:05}-seed-{seed}.json"));
        let doc = json!({
            "game": setup.game.name(),
            "seed": seed,
            "bots": commands,
            "scores": played.scores,
            "verdicts": played.verdicts.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
            "initdata": played.initdata,
            "log": played.log,
        });
        std::fs::write(&path, format!("{doc}\n"))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        log_path = Some(path.display().to_string());
    }
    Ok(GameResult {
        game: index,
        seed,
        seats: seating,
        scores: played.scores,
        verdicts: played
            .verdicts
            .iter()
            .map(|v| v.as_str().to_string())
            .collect(),
        turns: played.turns,
        log: log_path,
        bots: setup.bots.clone(),
    })
}

/// Runs `botzone match`.
pub fn run_match(args: MatchArgs) -> Result<(), CliError> {
    let n = args.game.seats();
    if args.bots.len() != n {
        return Err(format!(
            "{} has {n} seats: give --bot exactly {n} times (repeat a command to play copies of a bot)",
            args.game.name()
        )
        .into());
    }
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        return Err("--time-limit must be a positive number of seconds".into());
    }
    if args.judge.is_some() && args.game.protocol() != Protocol::Botzone {
        return Err(format!(
            "{} has no judge protocol: --judge works with {}",
            args.game.name(),
            games_of(Protocol::Botzone)
        )
        .into());
    }
    let limits = Limits {
        time: Duration::from_secs_f64(args.time_limit),
        memory: args.memory_limit << 20,
        output: args.output_limit << 10,
        cpu_clock: !args.wall_clock,
    };
    let mut standings = Standings::new(args.bots.clone(), n, args.game.scoring());
    let mut done: HashSet<usize> = HashSet::new();
    if let Some(out) = &args.out {
        if out.exists() && !args.resume {
            return Err(format!(
                "{} exists: pass --resume to continue that run, or remove it",
                out.display()
            )
            .into());
        }
        for r in results::read_results(out)? {
            let (seed, seating) = schedule(r.game, args.seed, n, args.map_per_game);
            if !r.bots.is_empty() && r.bots != args.bots {
                return Err(format!(
                    "{} holds game {} played by other bots ({}): resume with the same --bot commands, in the same order",
                    out.display(),
                    r.game,
                    r.bots.join(" | ")
                )
                .into());
            }
            if r.seed != seed || r.seats != seating || r.scores.len() != n {
                return Err(format!(
                    "{} holds game {} with another seed or seating: it was made with other options",
                    out.display(),
                    r.game
                )
                .into());
            }
            if r.game < args.games && done.insert(r.game) {
                standings.add(&r);
            }
        }
    }
    check_bots(&args.bots, &limits, args.game.protocol() == Protocol::Line)?;
    let log_dir = run_folder(&args)?;
    let globaldata_file = log_dir.as_ref().map(|d| d.join(GLOBALDATA_FILE));
    let globaldata = load_globaldata(globaldata_file.as_deref(), args.bots.len())?;
    let mut out_file = match &args.out {
        Some(out) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out)
                .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
            // A torn last line from an interrupted run: end it, so that the
            // next result starts on a line of its own.
            let existing = std::fs::read(out)?;
            if existing.last().is_some_and(|&b| b != b'\n') {
                f.write_all(b"\n")?;
            }
            Some(f)
        }
        None => None,
    };

    let pending: Vec<usize> = (0..args.games).filter(|g| !done.contains(g)).collect();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
        .min(pending.len().max(1));
    if !args.quiet {
        eprintln!(
            "botzone match: {} games of {}; results {}; logs {}",
            args.games,
            args.game.name(),
            args.out
                .as_ref()
                .map_or("not saved (no --out)".into(), |o| format!(
                    "to {}",
                    o.display()
                )),
            log_dir
                .as_ref()
                .map_or("not saved (--no-logs)".into(), |d| format!(
                    "in {}",
                    d.display()
                )),
        );
    }
    let setup = Arc::new(Setup {
        game: args.game,
        bots: args.bots.clone(),
        globaldata: globaldata.clone(),
        limits,
        judge: args.judge.clone(),
        log_dir,
        first_seed: args.seed,
        map_per_game: args.map_per_game,
        parallel_seats: args.parallel_seats,
    });
    process::install_cleanup_handler();

    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(args.games as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} | {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(done.len() as u64);
        bar.set_message(standings.summary());
        bar
    };

    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let pending = Arc::new(pending);
    let (tx, rx) = mpsc::channel::<Result<GameResult, String>>();
    let mut workers = Vec::new();
    for _ in 0..jobs {
        let (setup, next, stop, pending, tx) = (
            Arc::clone(&setup),
            Arc::clone(&next),
            Arc::clone(&stop),
            Arc::clone(&pending),
            tx.clone(),
        );
        workers.push(std::thread::spawn(move || loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some(&index) = pending.get(i) else { break };
            let r = play_game(&setup, index);
            if tx.send(r).is_err() {
                break;
            }
        }));
    }
    drop(tx);
    let mut error = None;
    for r in rx {
        match r {
            Ok(result) => {
                if let Some(f) = out_file.as_mut() {
                    // One write per line, so that an interruption leaves at
                    // worst a torn last line (which --resume skips).
                    let line = serde_json::to_string(&result)? + "\n";
                    f.write_all(line.as_bytes())?;
                    f.flush()?;
                }
                standings.add(&result);
                if let Some(path) = &globaldata_file {
                    save_globaldata(path, &args.bots, &globaldata)?;
                }
                bar.inc(1);
                bar.set_message(standings.summary());
            }
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                error.get_or_insert(e);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    bar.finish_and_clear();
    if let Some(e) = error {
        return Err(e.into());
    }
    println!(
        "{} games of {}, seeds {}.., {} s per turn",
        standings.games,
        args.game.name(),
        args.seed,
        args.time_limit
    );
    print!("{}", standings.table());
    match &args.out {
        Some(out) => println!(
            "results: {} (one line per game; seats[s] is the --bot number, from 0, of \
             the bot in seat s, scores[s] that seat's score)",
            out.display()
        ),
        None => println!("results: not saved (--out FILE keeps one line per game)"),
    }
    match &setup.log_dir {
        Some(dir) => println!(
            "logs: {}/ (one file per game: botzone replay {}/game-NNNNN-seed-S.json)",
            dir.display(),
            dir.display()
        ),
        None => println!("logs: not saved (--no-logs)"),
    }
    Ok(())
}

/// How long [`check_bots`] lets a bot wait for its first request before it
/// counts as started.
const START_CHECK: Duration = Duration::from_millis(500);

/// Starts every bot command once before the first game, all at once, and
/// stops the run with an error naming the bot when one cannot start
/// ([`process::check_start`]: the shell's "not found" or "cannot execute",
/// a missing script, no memory to start in). A bot that waits for its
/// first request passes, whatever it would do with it. `random_seats`:
/// `@random` is the arena's own random player, not a command.
///
/// # Errors
/// The first bot that cannot start, with what it printed on stderr.
fn check_bots(bots: &[String], limits: &Limits, random_seats: bool) -> Result<(), CliError> {
    let failures: Vec<String> = std::thread::scope(|scope| {
        let checks: Vec<_> = bots
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                !(random_seats && c.trim() == line_game::RANDOM_PLAYER)
                    && bots[..*i].iter().all(|o| o != *c)
            })
            .map(|(i, command)| {
                scope.spawn(move || {
                    process::check_start(command, limits, START_CHECK)
                        .err()
                        .map(|why| format!("--bot #{} `{command}` cannot start: {why}", i + 1))
                })
            })
            .collect();
        checks
            .into_iter()
            .filter_map(|h| h.join().unwrap_or(None))
            .collect()
    });
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} (no game was played)", failures.join("\n")).into())
    }
}

/// The run's log folder, created: `--log-dir`, else `<out>.logs`, else a
/// new `arena-logs/run-NNN`. A run's logs never mix with another's: a
/// given folder that holds files is refused unless `--resume` continues
/// that run in it.
fn run_folder(args: &MatchArgs) -> Result<Option<PathBuf>, CliError> {
    if args.no_logs {
        return Ok(None);
    }
    let given = args.log_dir.clone().or_else(|| {
        args.out.as_ref().map(|out| {
            let mut s = out.clone().into_os_string();
            s.push(".logs");
            PathBuf::from(s)
        })
    });
    if let Some(dir) = given {
        let holds_files = std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some());
        if holds_files && !args.resume {
            return Err(format!(
                "{} holds the logs of an earlier run: remove it, choose another --out or \
                 --log-dir, or pass --resume to continue that run",
                dir.display()
            )
            .into());
        }
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        return Ok(Some(dir));
    }
    let base = PathBuf::from("arena-logs");
    std::fs::create_dir_all(&base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    for n in 1.. {
        let dir = base.join(format!("run-{n:03}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(Some(dir)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display()).into()),
        }
    }
    unreachable!("some run number is free")
}

/// The file in a run's folder that keeps each bot's `globaldata` between
/// games and across `--resume`.
const GLOBALDATA_FILE: &str = "globaldata.json";

/// The bots' `globaldata` saved by an earlier part of the run, if any.
fn load_globaldata(
    path: Option<&std::path::Path>,
    bots: usize,
) -> Result<Vec<GlobalData>, CliError> {
    let mut values = vec![None; bots];
    if let Some(path) = path.filter(|p| p.exists()) {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let doc: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
        let saved = doc
            .get("globaldata")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{}: no globaldata array", path.display()))?;
        for (slot, v) in values.iter_mut().zip(saved) {
            *slot = v.as_str().map(str::to_owned);
        }
    }
    Ok(values.into_iter().map(GlobalData::new).collect())
}

/// Saves the bots' `globaldata` (written aside, then renamed, so that an
/// interruption leaves the old or the new file whole).
fn save_globaldata(
    path: &std::path::Path,
    bots: &[String],
    values: &[GlobalData],
) -> Result<(), CliError> {
    let values: Vec<Option<String>> = values.iter().map(GlobalData::get).collect();
    if values.iter().all(Option::is_none) && !path.exists() {
        return Ok(()); // no bot keeps any
    }
    let doc = json!({
        "bots": bots,
        "globaldata": values,
    });
    let aside = path.with_extension("json.part");
    std::fs::write(&aside, format!("{doc}\n"))
        .map_err(|e| format!("cannot write {}: {e}", aside.display()))?;
    std::fs::rename(&aside, path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// Runs `botzone judge`: one judge-protocol input on stdin, one answer line
/// on stdout.
pub fn run_judge(args: JudgeArgs) -> Result<(), CliError> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
    let input: Value = serde_json::from_str(text.trim())
        .or_else(|_| serde_json::from_str(text.lines().next().unwrap_or("").trim()))
        .map_err(|e| format!("the input is not JSON: {e}"))?;
    let output = args.game.visit(referee::JudgeOnce(&input))?;
    println!("{output}");
    Ok(())
}

/// Runs `botzone replay`.
pub fn run_replay(args: ReplayArgs) -> Result<(), CliError> {
    if args.html {
        crate::html::replay::run(&args.log, args.out.as_deref(), args.game)
    } else {
        replay::run(&args.log, args.delay, args.game)
    }
}
