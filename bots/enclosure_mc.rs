//! `enclosure_mc`: a Monte Carlo bot for Enclosure (NOI 2013 圈地为王) on
//! the NOI line protocol.
//!
//! `[START] m` -> `[POS] x y` (the start vertex by Monte Carlo over a grid
//! of vertices against random opponents); every `[STATUS] ...` ->
//! `[ACTION] D P` (flat Monte Carlo over its non-suicidal commands with
//! depth-limited rollouts). It rebuilds trails and land from the STATUS
//! lines and says on stderr when the judge's STATUS differs from its
//! prediction. Nothing but protocol lines goes to stdout; every line is
//! flushed. `BOTZONE_TIME_LIMIT` (seconds) overrides the 1 s per step;
//! `BOTZONE_SEED` fixes the random choices.
//!
//! ```text
//! $ printf '[START] 0\n' | cargo run --release --bin enclosure_mc
//! [POS] 4 6
//! ```

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use botzone::games::enclosure::line_protocol::{
    action_line, Message, ProtocolError, Status, TokenReader, Tracker,
};
use botzone::games::enclosure::search::{choose_command, choose_start};
use botzone::games::enclosure::Command;
use botzone::rng::Rng;
use botzone::time::{turn_limit, Deadline};

/// The NOI limit per step, in seconds.
const STEP_LIMIT: f64 = 1.0;

fn deadline() -> Deadline {
    Deadline::for_turn(turn_limit(Some(STEP_LIMIT), false))
}

fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

fn main() -> ExitCode {
    let stdin = io::stdin();
    let mut reader = TokenReader::new(stdin.lock());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut rng = Rng::from_env();
    let mut me: Option<usize> = None;
    let mut tracker: Option<Tracker> = None;
    loop {
        let message = reader.read_message();
        let clock = deadline();
        let result = match message {
            Ok(None) => return ExitCode::SUCCESS,
            Ok(Some(Message::Start(m))) => {
                me = Some(m);
                let choice = choose_start(m, &clock, &mut rng);
                let (x, y) = choice.best;
                eprintln!(
                    "enclosure_mc: player {m} starts at ({x}, {y}) after {} rollouts",
                    choice.rollouts
                );
                send(&mut out, &format!("[POS] {x} {y}"))
            }
            Ok(Some(Message::Status(status))) => {
                let command = turn(me, &mut tracker, &status, &clock, &mut rng);
                send(&mut out, &action_line(command))
            }
            Err(ProtocolError::Io(e)) => {
                eprintln!("enclosure_mc: {e}");
                return ExitCode::FAILURE;
            }
            Err(e @ ProtocolError::Truncated(_)) => {
                eprintln!("enclosure_mc: {e}");
                return ExitCode::FAILURE;
            }
            Err(
                e @ ProtocolError::Unexpected {
                    expected: "[START] or [STATUS]",
                    ..
                },
            ) => {
                // A stray token outside a message gets no answer.
                eprintln!("enclosure_mc: bad input: {e}");
                Ok(())
            }
            Err(e) => {
                // A bad STATUS still gets a harmless answer.
                eprintln!("enclosure_mc: bad input: {e}");
                send(&mut out, &action_line(Command::STAY))
            }
        };
        if let Err(e) = result {
            eprintln!("enclosure_mc: writing: {e}");
            return ExitCode::FAILURE;
        }
    }
}

/// Updates the rebuilt game with `status` and chooses a command.
fn turn(
    me: Option<usize>,
    tracker: &mut Option<Tracker>,
    status: &Status,
    clock: &Deadline,
    rng: &mut Rng,
) -> Command {
    let Some(me) = me else {
        eprintln!("enclosure_mc: [STATUS] before [START]");
        return Command::STAY;
    };
    match tracker {
        None => *tracker = Some(Tracker::new(status)),
        Some(t) => {
            let diff = t.observe(status);
            if !diff.is_empty() {
                eprintln!(
                    "enclosure_mc: turn {}: STATUS differs from the prediction:",
                    t.state().turn()
                );
                for d in diff {
                    eprintln!("  {d}");
                }
            }
        }
    }
    let Some(t) = tracker.as_ref() else {
        return Command::STAY;
    };
    let choice = choose_command(t.state(), me, clock, rng);
    eprintln!(
        "enclosure_mc: turn {}: {} ({} rollouts, mean {:.1})",
        t.state().turn() + 1,
        choice.best,
        choice.rollouts,
        choice.mean
    );
    choice.best
}
