//! The games on a line protocol (the NOI's): one text line per message and
//! per answer, a start message that each player answers with its start,
//! then every turn a status line to each player in the game and one action
//! line back. The referee is the game itself, written once here.
//!
//! ```
//! use botzone::games::enclosure::State;
//! use botzone::games::line::referee_script;
//!
//! // Four starts, then one turn of four commands.
//! let script = "[POS] 1 1\n[POS] 9 1\n[POS] 1 9\n[POS] 9 9\n\
//!               [ACTION] r 1\n[ACTION] s 0\n[ACTION] s 0\n[ACTION] s 0\n";
//! let mut out = Vec::new();
//! referee_script::<State>(script.as_bytes(), &mut out).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.starts_with("[STATUS] 1 1 0 0 0 9 1 0 0 0"));
//! assert!(out.ends_with("[SCORE] 4 3 2 1\n"));
//! ```

use std::io::{self, BufRead, Write};

use crate::games::Rules;
use crate::json::Value;
use crate::rng::Rng;

/// A game on a line protocol. The referee's side is here; the bot's side
/// (reading the messages, rebuilding the game) is each game's protocol
/// module.
pub trait LineGame: Rules {
    /// What a player answers to its start message (Enclosure: a vertex).
    type Start: Copy + std::fmt::Debug;

    /// The message that starts `player`'s game (`[START] m`).
    fn start_message(player: usize) -> String;
    /// A player's answer to its start message (`[POS] x y`), if readable.
    fn read_start(line: &str) -> Option<Self::Start>;
    /// The answer line for `start` (bot side).
    fn start_line(start: Self::Start) -> String;
    /// A uniformly random start (what the arena's random players answer).
    fn random_start(rng: &mut Rng) -> Self::Start;
    /// The setup the players' starts make (`None`: a player who answered
    /// nothing readable, and starts out of the game).
    fn setup_from_starts(starts: &[Option<Self::Start>]) -> Self::Setup;
    /// The setup as the arena's logs keep it (their `initdata`).
    fn initdata(setup: &Self::Setup) -> Value;
    /// The setup a log's `initdata` holds (what [`LineGame::initdata`]
    /// wrote; missing parts count as unreadable starts).
    fn setup_from_initdata(initdata: &Value) -> Self::Setup;
    /// The line every player in the game gets before a turn (`[STATUS] …`).
    fn status(&self) -> String;
    /// A player's answer for a turn (`[ACTION] D P`), if readable.
    fn read_action(line: &str) -> Option<Self::Action>;
    /// The answer line for `action` (bot side).
    fn action_line(action: Self::Action) -> String;
    /// `action` in short, for replays (`r 1`).
    fn action_text(action: Self::Action) -> String;
    /// The action played for an answer that cannot be read (it puts the
    /// player out of the game).
    const UNREADABLE: Self::Action;
    /// The referee's last line (`[SCORE] s0 s1 s2 s3`).
    fn score_line(&self) -> String;
}

/// Referees a scripted game: the players' start answers, one line each,
/// then their action answers, one line per player (in seat order, dead
/// players' lines included and ignored) per turn. Writes the status after
/// the starts and after every turn, then the score line. A script that
/// ends before a turn stops the game there; inside a turn, the missing
/// lines are unreadable answers. Unreadable lines are unreadable answers.
///
/// # Errors
/// Reading the script or writing the output fails.
pub fn referee_script<G: LineGame>(input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    let mut lines = input.lines();
    let mut starts = vec![None; G::SEATS];
    for start in starts.iter_mut() {
        let Some(line) = lines.next().transpose()? else {
            break;
        };
        *start = G::read_start(&line);
    }
    let mut game = G::start(&G::setup_from_starts(&starts));
    writeln!(out, "{}", game.status())?;
    let mut joint = vec![G::UNREADABLE; G::SEATS];
    'turns: while !game.is_over() {
        for (p, action) in joint.iter_mut().enumerate() {
            *action = match lines.next().transpose()? {
                Some(line) => G::read_action(&line).unwrap_or(G::UNREADABLE),
                None if p == 0 => break 'turns,
                None => G::UNREADABLE,
            };
        }
        game.apply_unchecked(&joint);
        writeln!(out, "{}", game.status())?;
    }
    writeln!(out, "{}", game.score_line())?;
    out.flush()
}
