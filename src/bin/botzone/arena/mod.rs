//! The local arena: `botzone match`, `botzone judge`, `botzone replay`.
//!
//! - [`process`]: bot processes under Botzone's limits (time, memory,
//!   output), keep-running with SIGSTOP/SIGCONT, process-group kills.
//! - [`player`]: one seat of a Botzone JSON game (fresh process per turn or
//!   keep-running), with verdicts.
//! - [`referee`]: the judge protocol (built-in judges, judge programs).
//! - [`botzone_game`]: one Pacman2/Tank game through a referee.
//! - [`enclosure`]: one Enclosure game over the NOI line protocol.
//! - [`results`]: the JSONL results and the standings table.
//! - [`judges`]: the built-in Pacman2 and Tank judges.
//! - [`replay`]: `botzone replay`.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use clap::Args;
use serde_json::{json, Value};

use crate::{AnyGame, CliError, JudgedGame};

pub mod botzone_game;
pub mod enclosure;
pub mod judges;
pub mod player;
pub mod process;
pub mod referee;
pub mod replay;
pub mod results;

use process::Limits;
use results::{GameResult, Standings};

/// Arguments of `botzone match`.
#[derive(Args)]
pub struct MatchArgs {
    /// The game.
    game: AnyGame,
    /// A bot's command line, run with `sh -c` (once per seat: 4 for
    /// Pacman2 and Enclosure, 2 for Tank).
    #[arg(long = "bot", value_name = "CMD", required = true)]
    bots: Vec<String>,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The first map's seed; each group of as many games as seats plays one
    /// map (seeds S, S+1, …) with the seats rotated.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Time per turn in seconds (the first turn of a game gets twice this).
    #[arg(long, default_value_t = 1.0)]
    time_limit: f64,
    /// Memory limit per bot process in MB (address space); 0 for none.
    #[arg(long, default_value_t = 256)]
    memory_limit: u64,
    /// The most a bot may print in one turn, in KB.
    #[arg(long, default_value_t = 1024)]
    output_limit: usize,
    /// Run the bots of one turn at the same time (Pacman2, Tank) instead of
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
    /// The game.
    game: JudgedGame,
}

/// Arguments of `botzone replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// A game log saved by `botzone match`.
    log: PathBuf,
    /// Seconds between turns (0: print every turn at once).
    #[arg(long, default_value_t = 0.0)]
    delay: f64,
}

/// The number of seats of a game.
pub fn seats(game: AnyGame) -> usize {
    match game {
        AnyGame::Pacman2 | AnyGame::Enclosure => 4,
        AnyGame::Tank => 2,
    }
}

/// The name used in logs.
pub fn game_name(game: AnyGame) -> &'static str {
    match game {
        AnyGame::Pacman2 => "pacman2",
        AnyGame::Tank => "tank",
        AnyGame::Enclosure => "enclosure",
    }
}

/// Game `index` of a run: its map's seed and which bot sits in each seat.
pub fn schedule(index: usize, first_seed: u64, seat_count: usize) -> (u64, Vec<usize>) {
    let seed = first_seed + (index / seat_count) as u64;
    let rotation = index % seat_count;
    let seats = (0..seat_count)
        .map(|s| (s + rotation) % seat_count)
        .collect();
    (seed, seats)
}

struct Setup {
    game: AnyGame,
    bots: Vec<String>,
    limits: Limits,
    judge: Option<String>,
    log_dir: Option<PathBuf>,
    first_seed: u64,
    parallel_seats: bool,
}

/// Plays game `index` and saves its log.
fn play_game(setup: &Setup, index: usize) -> Result<GameResult, String> {
    let n = seats(setup.game);
    let (seed, seating) = schedule(index, setup.first_seed, n);
    let commands: Vec<String> = seating.iter().map(|&b| setup.bots[b].clone()).collect();
    let played = match setup.game {
        AnyGame::Enclosure => enclosure::play(&commands, setup.limits, seed)?,
        AnyGame::Pacman2 | AnyGame::Tank => {
            let mut referee: Box<dyn referee::Referee> = match &setup.judge {
                Some(cmd) => Box::new(referee::External {
                    command: cmd.clone(),
                    timeout: Duration::from_secs(10),
                }),
                None => Box::new(referee::Builtin(match setup.game {
                    AnyGame::Tank => judges::tank,
                    _ => judges::pacman2,
                })),
            };
            botzone_game::play(
                referee.as_mut(),
                &commands,
                setup.limits,
                json!({ "seed": seed }),
                setup.parallel_seats,
            )?
        }
    };
    let mut log_path = None;
    if let Some(dir) = &setup.log_dir {
        let path = dir.join(format!("game-{index:05}-seed-{seed}.json"));
        let doc = json!({
            "game": game_name(setup.game),
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
    })
}

/// Runs `botzone match`.
pub fn run_match(args: MatchArgs) -> Result<(), CliError> {
    let n = seats(args.game);
    if args.bots.len() != n {
        return Err(format!(
            "{} has {n} seats: give --bot exactly {n} times (repeat a command to play copies of a bot)",
            game_name(args.game)
        )
        .into());
    }
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        return Err("--time-limit must be a positive number of seconds".into());
    }
    if args.judge.is_some() && args.game == AnyGame::Enclosure {
        return Err("enclosure has no judge protocol: --judge works with pacman2 and tank".into());
    }
    let limits = Limits {
        time: Duration::from_secs_f64(args.time_limit),
        memory: args.memory_limit << 20,
        output: args.output_limit << 10,
        cpu_clock: !args.wall_clock,
    };
    let mut standings = Standings::new(args.bots.clone(), n);
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
            let (seed, seating) = schedule(r.game, args.seed, n);
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
    let log_dir = if args.no_logs {
        None
    } else {
        let dir = args.log_dir.clone().unwrap_or_else(|| match &args.out {
            Some(out) => {
                let mut s = out.clone().into_os_string();
                s.push(".logs");
                PathBuf::from(s)
            }
            None => PathBuf::from("arena-logs"),
        });
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Some(dir)
    };
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
    let setup = Arc::new(Setup {
        game: args.game,
        bots: args.bots.clone(),
        limits,
        judge: args.judge.clone(),
        log_dir,
        first_seed: args.seed,
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
        game_name(args.game),
        args.seed,
        args.time_limit
    );
    print!("{}", standings.table());
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
    let output = match args.game {
        JudgedGame::Pacman2 => judges::pacman2(&input),
        JudgedGame::Tank => judges::tank(&input),
    }?;
    println!("{output}");
    Ok(())
}

/// Runs `botzone replay`.
pub fn run_replay(args: ReplayArgs) -> Result<(), CliError> {
    replay::run(&args.log, args.delay)
}
