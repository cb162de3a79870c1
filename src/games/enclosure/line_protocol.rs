//! The NOI line protocol of Enclosure: `[START] m` -> `[POS] x y`, then
//! `[STATUS] ...` -> `[ACTION] D P` every turn.
//!
//! Bots read tokens, not lines ([`TokenReader`]): a STATUS spread over
//! several lines is fine. A bot sees no trails, land or commands; a
//! [`Tracker`] rebuilds them by inferring each player's command from two
//! STATUS lines and stepping the simulator, and reports where its
//! prediction and the judge's next STATUS differ.

use std::fmt;
use std::io::{self, BufRead};

use super::{vertex, Command, Dir, Pen, PenState, State, PLAYERS, SIDE};

/// What went wrong reading the protocol.
#[derive(Debug)]
pub enum ProtocolError {
    /// Reading stdin failed.
    Io(io::Error),
    /// Input ended in the middle of a message.
    Truncated(&'static str),
    /// A token that does not fit: what was expected, and what came.
    Unexpected {
        /// What the reader expected.
        expected: &'static str,
        /// The token found.
        found: String,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Io(e) => write!(f, "reading input: {e}"),
            ProtocolError::Truncated(what) => write!(f, "input ended inside {what}"),
            ProtocolError::Unexpected { expected, found } => {
                write!(f, "expected {expected}, found {found:?}")
            }
        }
    }
}

impl std::error::Error for ProtocolError {}

impl From<io::Error> for ProtocolError {
    fn from(e: io::Error) -> Self {
        ProtocolError::Io(e)
    }
}

/// One player as STATUS shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStatus {
    /// Vertex x.
    pub x: u8,
    /// Vertex y.
    pub y: u8,
    /// Pen up, pen down or dead.
    pub state: PenState,
    /// Turns still held by a trap.
    pub stuck: u8,
    /// What skills have cost (0, -10, ...).
    pub decline: i32,
}

/// A `[STATUS]` message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// Players 0..3.
    pub players: [PlayerStatus; PLAYERS],
    /// Traps as `(x, y, counter)` in increasing `(y, x)` order.
    pub traps: Vec<(u8, u8, u8)>,
}

impl Status {
    /// What STATUS shows of `state`.
    pub fn of(state: &State) -> Status {
        let mut st = Status::default();
        for (p, ps) in st.players.iter_mut().enumerate() {
            let pl = state.player(p);
            let (x, y) = pl.position();
            *ps = PlayerStatus {
                x,
                y,
                state: pl.state(),
                stuck: pl.stuck(),
                decline: pl.decline(),
            };
        }
        st.traps = state.traps().collect();
        st
    }

    /// The lines where `self` (predicted) and `other` (observed) differ,
    /// empty when they agree.
    pub fn differences(&self, other: &Status) -> Vec<String> {
        let mut out = Vec::new();
        for p in 0..PLAYERS {
            let (a, b) = (self.players[p], other.players[p]);
            if a != b {
                out.push(format!(
                    "player {p}: predicted {} {} {} {} {}, STATUS says {} {} {} {} {}",
                    a.x,
                    a.y,
                    a.state.as_i8(),
                    a.stuck,
                    a.decline,
                    b.x,
                    b.y,
                    b.state.as_i8(),
                    b.stuck,
                    b.decline
                ));
            }
        }
        if self.traps != other.traps {
            out.push(format!(
                "traps: predicted {:?}, STATUS says {:?}",
                self.traps, other.traps
            ));
        }
        out
    }
}

impl fmt::Display for Status {
    /// `[STATUS] x y state stuck decline (x4) nTraps (x y counter)*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[STATUS]")?;
        for p in &self.players {
            write!(
                f,
                " {} {} {} {} {}",
                p.x,
                p.y,
                p.state.as_i8(),
                p.stuck,
                p.decline
            )?;
        }
        write!(f, " {}", self.traps.len())?;
        for (x, y, c) in &self.traps {
            write!(f, " {x} {y} {c}")?;
        }
        Ok(())
    }
}

/// A message from the judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `[START] m`: our player number.
    Start(usize),
    /// `[STATUS] ...`.
    Status(Status),
}

/// Whitespace-separated tokens from a reader, across lines.
pub struct TokenReader<R: BufRead> {
    reader: R,
    line: String,
    pos: usize,
}

impl<R: BufRead> TokenReader<R> {
    /// A reader of tokens.
    pub fn new(reader: R) -> Self {
        TokenReader {
            reader,
            line: String::new(),
            pos: 0,
        }
    }

    /// The next token, or `None` at the end of input.
    ///
    /// # Errors
    /// When reading fails.
    pub fn next_token(&mut self) -> io::Result<Option<String>> {
        loop {
            let rest = &self.line[self.pos..];
            let trimmed = rest.trim_start();
            if !trimmed.is_empty() {
                let start = self.line.len() - trimmed.len();
                let len = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
                self.pos = start + len;
                return Ok(Some(self.line[start..start + len].to_string()));
            }
            self.line.clear();
            self.pos = 0;
            if self.reader.read_line(&mut self.line)? == 0 {
                return Ok(None);
            }
        }
    }

    fn int(&mut self, what: &'static str) -> Result<i64, ProtocolError> {
        let tok = self.next_token()?.ok_or(ProtocolError::Truncated(what))?;
        tok.parse().map_err(|_| ProtocolError::Unexpected {
            expected: what,
            found: tok,
        })
    }

    fn ranged(&mut self, what: &'static str, lo: i64, hi: i64) -> Result<i64, ProtocolError> {
        let tok = self.next_token()?.ok_or(ProtocolError::Truncated(what))?;
        match tok.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(ProtocolError::Unexpected {
                expected: what,
                found: tok,
            }),
        }
    }

    /// The next message, or `None` at the end of input.
    ///
    /// # Errors
    /// An unknown keyword, a number out of range or input ending inside a
    /// message.
    pub fn read_message(&mut self) -> Result<Option<Message>, ProtocolError> {
        let Some(tok) = self.next_token()? else {
            return Ok(None);
        };
        match tok.as_str() {
            "[START]" => {
                let m = self.ranged("a player number 0..3", 0, 3)?;
                Ok(Some(Message::Start(m as usize)))
            }
            "[STATUS]" => {
                let mut st = Status::default();
                for p in st.players.iter_mut() {
                    p.x = self.ranged("a coordinate 0..10", 0, 10)? as u8;
                    p.y = self.ranged("a coordinate 0..10", 0, 10)? as u8;
                    let s = self.ranged("a state -1, 0 or 1", -1, 1)?;
                    p.state = PenState::from_i8(s as i8).unwrap_or_default();
                    p.stuck = self.ranged("a trap time 0..5", 0, 5)? as u8;
                    let d = self.int("a skill cost")?;
                    p.decline = d.clamp(-100_000, 0) as i32;
                }
                let n = self.ranged("a trap count 0..121", 0, 121)?;
                for _ in 0..n {
                    let x = self.ranged("a trap x 0..10", 0, 10)? as u8;
                    let y = self.ranged("a trap y 0..10", 0, 10)? as u8;
                    let c = self.ranged("a trap counter 1..2", 1, 2)? as u8;
                    st.traps.push((x, y, c));
                }
                Ok(Some(Message::Status(st)))
            }
            _ => Err(ProtocolError::Unexpected {
                expected: "[START] or [STATUS]",
                found: tok,
            }),
        }
    }
}

/// Parses an `[ACTION] D P` line (exactly three tokens).
pub fn parse_action(line: &str) -> Option<Command> {
    let mut it = line.split_whitespace();
    if it.next()? != "[ACTION]" {
        return None;
    }
    let (d, p) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    Command::from_tokens(d, p)
}

/// Parses a `[POS] x y` line (exactly three tokens, `0 <= x, y <= 10`).
pub fn parse_pos(line: &str) -> Option<(u8, u8)> {
    let mut it = line.split_whitespace();
    if it.next()? != "[POS]" {
        return None;
    }
    let x: u8 = it.next()?.parse().ok()?;
    let y: u8 = it.next()?.parse().ok()?;
    if it.next().is_some() || usize::from(x) >= SIDE || usize::from(y) >= SIDE {
        return None;
    }
    Some((x, y))
}

/// `[ACTION] D P`.
pub fn action_line(c: Command) -> String {
    format!("[ACTION] {c}")
}

/// Rebuilds the game from the STATUS lines a bot receives.
#[derive(Clone, Debug)]
pub struct Tracker {
    state: State,
}

impl Tracker {
    /// A tracker starting from the first STATUS (the start positions).
    pub fn new(first: &Status) -> Self {
        let mut pos = [(0u8, 0u8); PLAYERS];
        let mut dead = [false; PLAYERS];
        for p in 0..PLAYERS {
            pos[p] = (first.players[p].x, first.players[p].y);
            dead[p] = first.players[p].state == PenState::Dead;
        }
        let mut state = State::with_dead(pos, dead);
        let expect = Status::of(&state);
        if expect != *first {
            state.force_visible(&visible(first), &first.traps);
        }
        Tracker { state }
    }

    /// The rebuilt game.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Steps the game to `next`: infers every player's command from the
    /// last STATUS and this one, steps the simulator and compares. Returns
    /// the differences between the prediction and `next` (empty when they
    /// agree); when they differ, the visible parts are taken from `next`.
    pub fn observe(&mut self, next: &Status) -> Vec<String> {
        self.state.forget_history();
        let mut cands = [[Command::STAY; 3]; PLAYERS];
        let mut counts = [1usize; PLAYERS];
        for p in 0..PLAYERS {
            let (c, n) = infer(&self.state, p, &next.players[p]);
            cands[p] = c;
            counts[p] = n;
        }
        let total: usize = counts.iter().product();
        let mut first_try: Option<Vec<String>> = None;
        for combo in 0..total {
            let mut joint = [Command::STAY; PLAYERS];
            let mut k = combo;
            for p in 0..PLAYERS {
                joint[p] = cands[p][k % counts[p]];
                k /= counts[p];
            }
            self.state.apply_unchecked(&joint);
            let got = Status::of(&self.state);
            if got == *next {
                return Vec::new();
            }
            if first_try.is_none() {
                first_try = Some(got.differences(next));
            }
            self.state.undo();
        }
        // No inferred commands reproduce `next`: keep the first guess and
        // take what STATUS shows.
        let mut joint = [Command::STAY; PLAYERS];
        for p in 0..PLAYERS {
            joint[p] = cands[p][0];
        }
        self.state.apply_unchecked(&joint);
        self.state.force_visible(&visible(next), &next.traps);
        first_try.unwrap_or_default()
    }
}

fn visible(st: &Status) -> [(u8, u8, PenState, u8, i32); PLAYERS] {
    let mut out = [(0, 0, PenState::Up, 0, 0); PLAYERS];
    for (o, p) in out.iter_mut().zip(st.players.iter()) {
        *o = (p.x, p.y, p.state, p.stuck, p.decline);
    }
    out
}

/// The commands player `p` may have given to go from `state` to `next`:
/// the first `count` entries, the best guess first (the others are the
/// alternatives for a player that died; [`Command::INVALID`] for a bad
/// command).
fn infer(state: &State, p: usize, next: &PlayerStatus) -> ([Command; 3], usize) {
    let pl = state.player(p);
    let stay = Command::STAY;
    if !pl.is_alive() || pl.stuck() > 0 {
        return ([stay; 3], 1);
    }
    let (x, y) = pl.position();
    let dx = i32::from(next.x) - i32::from(x);
    let dy = i32::from(next.y) - i32::from(y);
    let dir = Dir::from_delta(dx, dy).unwrap_or(Dir::Stay);
    let pen = if next.decline < pl.decline() {
        Pen::Skill
    } else if pl.state() == PenState::Up && next.state == PenState::Down {
        Pen::Down
    } else {
        Pen::Keep
    };
    let primary = Command::new(dir, pen);
    if next.state != PenState::Dead {
        return ([primary; 3], 1);
    }
    let pen_up_keep = pl.state() == PenState::Up && pen == Pen::Keep;
    let down = Command::new(dir, Pen::Down);
    let bad = Command::INVALID;
    match (dir, pen_up_keep) {
        // Died standing: in step 5 or 6 (maybe right after putting the pen
        // down), or for a bad command in steps 0 and 1.
        (Dir::Stay, true) => ([primary, bad, down], 3),
        (Dir::Stay, false) => ([primary, bad, bad], 2),
        // Died after moving: in step 5, or in step 6 with the pen put down.
        (_, true) => ([primary, down, down], 2),
        (_, false) => ([primary; 3], 1),
    }
}
/// The vertex index of a STATUS player.
pub fn status_vertex(p: &PlayerStatus) -> u8 {
    vertex(p.x, p.y)
}
