//! `botzone bench-js`: a bot's JavaScript bundle under Node.js against its
//! native binary, on the same input with the same time limit, side by side
//! in one run.
//!
//! Each round runs the native binary, then `node BUNDLE.js`, on the input
//! (one process each, as Botzone runs a bot in traditional mode), and reads
//! the work each did from the `debug` member of its answer: the number
//! after `rollouts`, `playouts`, `nodes` or `iterations` (`rollouts=N`,
//! `nodes N`), and the thinking time the bot reports (`ms=N`, `N ms`).
//! Work per second of thinking compares the two builds' speed; the rounds
//! alternate so that a busy machine slows both alike. A last pair of runs
//! with `BOTZONE_ITERATIONS=1` measures the start-up: the wall time of a
//! process that does almost no work (Node.js's start-up and the module's
//! compilation for the bundle).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Args;

use crate::CliError;

/// Arguments of `botzone bench-js`.
#[derive(Args)]
pub struct BenchJsArgs {
    /// The bot: a binary of this workspace (its native build is looked for
    /// next to this `botzone` executable).
    bot: String,
    /// The request to answer (a Botzone input, e.g.
    /// input-samples/pacman2/mid-game.json).
    #[arg(long)]
    input: PathBuf,
    /// The JavaScript bundle to run (default: built now, as `botzone bundle
    /// BOT --target js` does).
    #[arg(long)]
    js: Option<PathBuf>,
    /// The native binary to run (default: BOT next to this executable).
    #[arg(long)]
    binary: Option<PathBuf>,
    /// Time limit of the turn for both, in seconds (`BOTZONE_TIME_LIMIT`).
    #[arg(long, default_value_t = 1.0)]
    time_limit: f64,
    /// Alternating rounds.
    #[arg(long, default_value_t = 3)]
    rounds: u32,
}

/// One run's figures.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Work done (rollouts, nodes, ...).
    work: u64,
    /// Thinking time the bot reported.
    thinking: Duration,
    /// Wall time of the whole process.
    wall: Duration,
}

/// Runs `botzone bench-js`.
pub fn run(args: BenchJsArgs) -> Result<(), CliError> {
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        return Err("--time-limit must be a positive number of seconds".into());
    }
    if args.rounds == 0 {
        return Err("--rounds must be at least 1".into());
    }
    let input = std::fs::read(&args.input)
        .map_err(|e| format!("cannot read {}: {e}", args.input.display()))?;
    let binary = match &args.binary {
        Some(b) => b.clone(),
        None => {
            let exe = std::env::current_exe()?;
            let dir = exe.parent().ok_or("no directory for this executable")?;
            dir.join(format!("{}{}", args.bot, std::env::consts::EXE_SUFFIX))
        }
    };
    if !binary.is_file() {
        return Err(format!(
            "no native binary {} (build it: cargo build --release --bin {}; or give --binary)",
            binary.display(),
            args.bot
        )
        .into());
    }
    let _dir;
    let js = match &args.js {
        Some(js) => js.clone(),
        None => {
            eprintln!("building the JavaScript bundle of {} ...", args.bot);
            let dir = tempfile::tempdir()?;
            let file = dir.path().join(format!("{}.bundle.js", args.bot));
            std::fs::write(&file, crate::bundle::js_text(&args.bot)?)?;
            _dir = dir;
            file
        }
    };
    let js_size = std::fs::metadata(&js)
        .map_err(|e| format!("cannot read {}: {e}", js.display()))?
        .len();
    let limit = format!("{}", args.time_limit);
    let native = |iterations: Option<&str>| {
        let mut c = Command::new(&binary);
        env(&mut c, &limit, iterations);
        c
    };
    let node = |iterations: Option<&str>| {
        let mut c = Command::new("node");
        c.arg(&js);
        env(&mut c, &limit, iterations);
        c
    };
    println!(
        "{}: native {} vs node {} ({} bytes), {} s a turn, {} rounds on {}",
        args.bot,
        binary.display(),
        js.display(),
        js_size,
        args.time_limit,
        args.rounds,
        args.input.display()
    );
    println!("round  native work/s   node work/s   ratio");
    let (mut native_rate, mut node_rate, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=args.rounds {
        let a = measure(native(None), &input)?;
        let b = measure(node(None), &input)?;
        let (ra, rb) = (rate(&a), rate(&b));
        println!("{round:>5}  {:>13.0}  {:>12.0}  {:>6.3}", ra, rb, rb / ra);
        native_rate.push(ra);
        node_rate.push(rb);
        ratios.push(rb / ra);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(&native_rate), mean(&node_rate));
    ratios.sort_by(f64::total_cmp);
    let median = if ratios.len() % 2 == 1 {
        ratios[ratios.len() / 2]
    } else {
        (ratios[ratios.len() / 2 - 1] + ratios[ratios.len() / 2]) / 2.0
    };
    println!(
        "mean   {ma:>13.0}  {mb:>12.0}  {:>6.3}  (node / native, work per second of thinking)",
        mb / ma
    );
    println!("median ratio of the rounds: {median:.3} (each round's runs are neighbours in time)");
    let a = measure(native(Some("1")), &input)?;
    let b = measure(node(Some("1")), &input)?;
    println!(
        "start-up (a run with BOTZONE_ITERATIONS=1, wall time): native {:.0} ms, node {:.0} ms",
        a.wall.as_secs_f64() * 1e3,
        b.wall.as_secs_f64() * 1e3
    );
    Ok(())
}

/// The environment of a measured run.
fn env(command: &mut Command, limit: &str, iterations: Option<&str>) {
    command.env(botzone::time::TIME_LIMIT_VAR, limit);
    command.env_remove(botzone::time::ITERATIONS_VAR);
    command.env_remove(botzone::time::STARTUP_VAR);
    if let Some(n) = iterations {
        command.env(botzone::time::ITERATIONS_VAR, n);
    }
}

/// Work per second of thinking.
fn rate(run: &Run) -> f64 {
    run.work as f64 / run.thinking.as_secs_f64().max(1e-6)
}

/// Runs one process on `input` and reads its figures.
fn measure(mut command: Command, input: &[u8]) -> Result<Run, CliError> {
    let shown = format!("{command:?}");
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {shown}: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // The bot may answer and exit before reading everything.
        let _ = stdin.write_all(input);
    }
    let out = child.wait_with_output()?;
    let wall = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or("");
    let debug = serde_json::from_str::<serde_json::Value>(first)
        .ok()
        .and_then(|v| v.get("debug").and_then(|d| d.as_str()).map(str::to_owned))
        .ok_or_else(|| {
            format!(
                "{shown} gave no answer with a `debug` member: {first:?}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
    let (work, thinking) = figures(&debug).ok_or_else(|| {
        format!("{shown}: no work count (rollouts, playouts, nodes, iterations) and time (ms) in its debug: {debug:?}")
    })?;
    Ok(Run {
        work,
        thinking: thinking.unwrap_or(wall),
        wall,
    })
}

/// The work count and the thinking time in a bot's `debug` text.
fn figures(debug: &str) -> Option<(u64, Option<Duration>)> {
    let tokens: Vec<&str> = debug
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|t| !t.is_empty())
        .collect();
    let number = |t: &str| t.parse::<u64>().ok();
    let mut work = None;
    let mut ms = None;
    for (i, token) in tokens.iter().enumerate() {
        let (key, value) = match token.split_once('=') {
            Some((k, v)) => (k, number(v)),
            None => (*token, tokens.get(i + 1).and_then(|t| number(t))),
        };
        if work.is_none() && ["rollouts", "playouts", "nodes", "iterations"].contains(&key) {
            work = value;
        }
        if ms.is_none() && key == "ms" {
            ms = value;
        }
        if ms.is_none() && *token == "ms" && i > 0 {
            ms = number(tokens[i - 1]);
        }
    }
    Some((work?, ms.map(Duration::from_millis)))
}

#[cfg(test)]
mod tests {
    use super::figures;
    use std::time::Duration;

    #[test]
    fn figures_of_the_sample_bots() {
        assert_eq!(
            figures("rollouts=147296 turn=30 action=0 mean=82.21 ms=756"),
            Some((147296, Some(Duration::from_millis(756))))
        );
        assert_eq!(
            figures("depth 5, nodes 1564416, value 724, 395 ms"),
            Some((1564416, Some(Duration::from_millis(395))))
        );
        assert_eq!(figures("playouts=10"), Some((10, None)));
        assert_eq!(figures("thinking hard"), None);
    }
}
