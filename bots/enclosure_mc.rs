//! `enclosure_mc`: a planning bot for Enclosure (NOI 2013 圈地为王) on the
//! NOI line protocol.
//!
//! `[START] m` -> `[POS] x y` (three vertices in from a corner along the
//! diagonal: room for loops on every side, and the other corners' starts
//! well away); every `[STATUS] ...` ->
//! `[ACTION] D P` by a [`Pilot`]: with the pen up it cuts a pen-down opponent's
//! trail it can reach before that opponent can close (with one opponent left it
//! walks to that opponent's trail whenever its pen is down, in time or not: the
//! opponent must close at once or be cut; it gives that up once the opponent
//! has closed three chased trails alive), else walks to and starts the
//! rectangle loop (or, where a region crosses the rectangle's border, the
//! outline of a piece of the unowned land inside it) that takes the most
//! `ΣS²` (counting an opponent it closes
//! round, which dies: one walled in by land with its pen down cannot get
//! out) among those that stay safe when played out on the simulator (after
//! every move, the shortest way to close is shorter than every opponent's
//! distance to the trail and to that way), a
//! loop longer than the nearest opponent's distance to it weighed down by how
//! much longer (an opponent could reach it before it closes; an opponent that
//! has not stepped nearer for three turns in a row does not count), with no loop
//! worth less than eight cells in one region in the first 40 turns, nor less
//! than six before the last 25 turns (with
//! none to draw it steps to where it reaches first the most vertices next
//! to unowned land, or with
//! one opponent left walking to within a move of it, ready to cut any trail
//! it starts); with the pen down it follows its loop while that still holds
//! after the next move, switching to a loop that takes more whenever one
//! goes on from its trail (round a rectangle, or back to the trail by a way
//! of any shape) and no opponent can reach any vertex of the trail or of
//! the way before it closes, and otherwise closes by the way that takes the
//! most land among those no opponent can cut in time (the shortest way when
//! none is safe). In the last 10 turns, while all three opponents are alive,
//! it plans and draws loops as if no opponent could reach them: a death
//! keeps the land taken, and two more deaths would have to follow before
//! anybody were the sole survivor. It rebuilds
//! trails and land from the STATUS lines and says on stderr when the
//! judge's STATUS differs from its prediction. Nothing but protocol lines
//! goes to stdout; every line is flushed. It is deterministic and answers
//! in milliseconds, so `BOTZONE_TIME_LIMIT`, `BOTZONE_SEED` and
//! `BOTZONE_ITERATIONS` change nothing.
//!
//! ```text
//! $ printf '[START] 0\n' | cargo run --release --bin enclosure_mc
//! [POS] 3 3
//! ```

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use botzone::games::enclosure::line_protocol::{
    action_line, Message, ProtocolError, Status, TokenReader, Tracker,
};
use botzone::games::enclosure::plan::{Params, Pilot};
use botzone::games::enclosure::{Command, PLAYERS};

fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

fn main() -> ExitCode {
    let stdin = io::stdin();
    let mut reader = TokenReader::new(stdin.lock());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut pilot = Pilot::new(Params::STRONG);
    let mut me: Option<usize> = None;
    let mut tracker: Option<Tracker> = None;
    loop {
        let message = reader.read_message();
        let result = match message {
            Ok(None) => return ExitCode::SUCCESS,
            Ok(Some(Message::Start(m))) => {
                me = Some(m);
                let (x, y) = start(m);
                eprintln!("enclosure_mc: player {m} starts at ({x}, {y})");
                send(&mut out, &format!("[POS] {x} {y}"))
            }
            Ok(Some(Message::Status(status))) => {
                let command = turn(me, &mut tracker, &status, &mut pilot);
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
    pilot: &mut Pilot,
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
    let (command, intent) = pilot.command(t.state(), me);
    eprintln!(
        "enclosure_mc: turn {}: {command} ({intent:?})",
        t.state().turn() + 1
    );
    command
}

/// The start vertex of player `m`: three vertices in from corner `m`
/// (clockwise from the top left) along the diagonal, so that four copies
/// spread out. Away from the border the first loops can be drawn on every
/// side, away from whoever starts near: beside three copies of this planner
/// started on random vertices, a seat started there scored 43% more than one
/// started in the corner (docs/strength.md).
fn start(m: usize) -> (u8, u8) {
    const STARTS: [(u8, u8); PLAYERS] = [(3, 3), (7, 3), (7, 7), (3, 7)];
    STARTS[m % PLAYERS]
}
