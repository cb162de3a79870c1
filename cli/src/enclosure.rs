//! `botzone` subcommands for Enclosure: the scripted referee and the
//! random-playout benchmark.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use botzone::games::enclosure::line_protocol::{parse_action, parse_pos, Status};
use botzone::games::enclosure::{State, PLAYERS};
use botzone::rng::Rng;

use crate::bench::BenchReport;
use crate::CliError;

/// Random start positions from `rng` (any vertex).
fn random_starts(rng: &mut Rng) -> [(i32, i32); PLAYERS] {
    let mut pos = [(0, 0); PLAYERS];
    for p in pos.iter_mut() {
        *p = (rng.below(11) as i32, rng.below(11) as i32);
    }
    pos
}

/// Random playouts for `budget`: each starts from random start vertices
/// (drawn from `seed`), plays uniformly random non-suicidal commands to the
/// end of the game, and is undone back to the start.
pub fn bench(seed: u32, budget: Duration) -> Result<BenchReport, CliError> {
    let mut rng = Rng::new(u64::from(seed));
    let mut report = BenchReport::default();
    let start = Instant::now();
    while start.elapsed() < budget {
        let mut state = State::new(random_starts(&mut rng));
        for _ in 0..64 {
            let turns = state.random_playout(&mut rng);
            for _ in 0..turns {
                state.undo();
            }
            report.playouts += 1;
            report.turns += turns as u64;
        }
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Plays a script (see [`referee`]) and writes the referee's lines to `out`.
///
/// # Errors
/// Reading the script or writing the output fails.
pub fn referee_script(input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    let mut lines = input.lines();
    let mut positions = [(-1i32, -1i32); PLAYERS];
    for pos in positions.iter_mut() {
        let Some(line) = lines.next().transpose()? else {
            break;
        };
        if let Some((x, y)) = parse_pos(&line) {
            *pos = (i32::from(x), i32::from(y));
        }
    }
    let mut state = State::new(positions);
    writeln!(out, "{}", Status::of(&state))?;
    'turns: while !state.is_over() {
        let mut orders = [None; PLAYERS];
        for (p, order) in orders.iter_mut().enumerate() {
            match lines.next().transpose()? {
                Some(line) => *order = parse_action(&line),
                // The script ends before this turn: stop. Inside a turn,
                // the missing lines are unreadable commands.
                None if p == 0 => break 'turns,
                None => *order = None,
            }
        }
        state.step(&orders);
        writeln!(out, "{}", Status::of(&state))?;
    }
    let s = state.scores_i32();
    writeln!(out, "[SCORE] {} {} {} {}", s[0], s[1], s[2], s[3])?;
    out.flush()
}

/// `botzone referee enclosure`: a script on stdin (four `[POS] x y` lines
/// for players 0..3, then four `[ACTION] D P` lines per turn), the STATUS
/// after the positions and after every turn, then `[SCORE] s0 s1 s2 s3`,
/// on stdout.
pub fn referee() -> Result<(), CliError> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    referee_script(stdin.lock(), stdout.lock())?;
    Ok(())
}
