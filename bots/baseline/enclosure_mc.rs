// enclosure_mc: one-file bundle of bots/enclosure_mc.rs made by `botzone bundle` (botzone 0.1.0).
// Library modules: fixed, games, games::enclosure, games::enclosure::line_protocol, games::enclosure::search, rng, search (namespace), search::flat_mc, time.
// Build: rustc -O --edition 2021 <this file>
#![allow(dead_code, unused, clippy::all)]
#![forbid(unsafe_code)]
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

// The botzone library: the modules the bot reaches.
#[allow(dead_code, unused_imports, unused_macros)]
mod botzone {
    pub mod fixed {
        use std::fmt;
        use std::ops::{Deref, DerefMut};
        #[derive(Clone, Copy)]
        pub struct FixedList<T: Copy + Default, const N: usize> {
            items: [T; N],
            len: usize,
        }
        impl<T: Copy + Default, const N: usize> FixedList<T, N> {
            pub const CAPACITY: usize = N;
            #[inline]
            pub fn new() -> Self {
                FixedList {
                    items: [T::default(); N],
                    len: 0,
                }
            }
            #[inline]
            pub fn push(&mut self, item: T) {
                self.items[self.len] = item;
                self.len += 1;
            }
            #[inline]
            pub fn try_push(&mut self, item: T) -> Result<(), T> {
                if self.len == N {
                    return Err(item);
                }
                self.push(item);
                Ok(())
            }
            #[inline]
            pub fn pop(&mut self) -> Option<T> {
                if self.len == 0 {
                    None
                } else {
                    self.len -= 1;
                    Some(self.items[self.len])
                }
            }
            #[inline]
            pub fn clear(&mut self) {
                self.len = 0;
            }
            #[inline]
            pub fn truncate(&mut self, len: usize) {
                if len < self.len {
                    self.len = len;
                }
            }
            #[inline]
            pub fn swap_remove(&mut self, i: usize) -> T {
                assert!(i < self.len, "swap_remove index out of bounds");
                let item = self.items[i];
                self.len -= 1;
                self.items[i] = self.items[self.len];
                item
            }
            #[inline]
            pub fn is_full(&self) -> bool {
                self.len == N
            }
        }
        impl<T: Copy + Default, const N: usize> Default for FixedList<T, N> {
            fn default() -> Self {
                Self::new()
            }
        }
        impl<T: Copy + Default, const N: usize> Deref for FixedList<T, N> {
            type Target = [T];
            #[inline]
            fn deref(&self) -> &[T] {
                &self.items[..self.len]
            }
        }
        impl<T: Copy + Default, const N: usize> DerefMut for FixedList<T, N> {
            #[inline]
            fn deref_mut(&mut self) -> &mut [T] {
                &mut self.items[..self.len]
            }
        }
        impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for FixedList<T, N> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }
        impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for FixedList<T, N> {
            fn eq(&self, other: &Self) -> bool {
                **self == **other
            }
        }
        impl<T: Copy + Default + Eq, const N: usize> Eq for FixedList<T, N> {}
        impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a FixedList<T, N> {
            type Item = &'a T;
            type IntoIter = std::slice::Iter<'a, T>;
            fn into_iter(self) -> Self::IntoIter {
                self.iter()
            }
        }
    }
    pub mod games {
        use std::fmt::Debug;
        use std::ops::Deref;
        pub mod enclosure {
            #![allow(clippy::needless_range_loop)]
            use crate::botzone::fixed::FixedList;
            use crate::botzone::games::Game;
            use crate::botzone::rng::Rng;
            use std::fmt;
            pub mod line_protocol {
                use super::{vertex, Command, Dir, Pen, PenState, State, PLAYERS, SIDE};
                use std::fmt;
                use std::io::{self, BufRead};
                #[derive(Debug)]
                pub enum ProtocolError {
                    Io(io::Error),
                    Truncated(&'static str),
                    Unexpected {
                        expected: &'static str,
                        found: String,
                    },
                }
                impl fmt::Display for ProtocolError {
                    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        match self {
                            ProtocolError::Io(e) => write!(f, "reading input: {e}"),
                            ProtocolError::Truncated(what) => {
                                write!(f, "input ended inside {what}")
                            }
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
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct PlayerStatus {
                    pub x: u8,
                    pub y: u8,
                    pub state: PenState,
                    pub stuck: u8,
                    pub decline: i32,
                }
                #[derive(Clone, Debug, Default, PartialEq, Eq)]
                pub struct Status {
                    pub players: [PlayerStatus; PLAYERS],
                    pub traps: Vec<(u8, u8, u8)>,
                }
                impl Status {
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
                    pub fn differences(&self, other: &Status) -> Vec<String> {
                        let mut out = Vec::new();
                        for p in 0..PLAYERS {
                            let (a, b) = (self.players[p], other.players[p]);
                            if a != b {
                                out.push(format!(
										"player {p}: predicted {} {} {} {} {}, STATUS says {} {} {} {} {}",
										a.x, a.y, a.state.as_i8(), a.stuck, a.decline, b.x, b.y, b
										.state.as_i8(), b.stuck, b.decline
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
                #[derive(Clone, Debug, PartialEq, Eq)]
                pub enum Message {
                    Start(usize),
                    Status(Status),
                }
                pub struct TokenReader<R: BufRead> {
                    reader: R,
                    line: String,
                    pos: usize,
                }
                impl<R: BufRead> TokenReader<R> {
                    pub fn new(reader: R) -> Self {
                        TokenReader {
                            reader,
                            line: String::new(),
                            pos: 0,
                        }
                    }
                    pub fn next_token(&mut self) -> io::Result<Option<String>> {
                        loop {
                            let rest = &self.line[self.pos..];
                            let trimmed = rest.trim_start();
                            if !trimmed.is_empty() {
                                let start = self.line.len() - trimmed.len();
                                let len =
                                    trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
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
                    fn ranged(
                        &mut self,
                        what: &'static str,
                        lo: i64,
                        hi: i64,
                    ) -> Result<i64, ProtocolError> {
                        let tok = self.next_token()?.ok_or(ProtocolError::Truncated(what))?;
                        match tok.parse::<i64>() {
                            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
                            _ => Err(ProtocolError::Unexpected {
                                expected: what,
                                found: tok,
                            }),
                        }
                    }
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
                pub fn parse_action(line: &str) -> Option<Command> {
                    let mut it = line.split_whitespace();
                    if it.next()? != "[ACTION]" {
                        return None;
                    }
                    let d = it.next()?;
                    let p = it.next()?;
                    if it.next().is_some() {
                        return None;
                    }
                    let mut chars = d.chars();
                    let dir = Dir::from_char(chars.next()?)?;
                    if chars.next().is_some() {
                        return None;
                    }
                    let pen = match p {
                        "0" => Pen::Keep,
                        "1" => Pen::Down,
                        "-1" => Pen::Skill,
                        _ => return None,
                    };
                    Some(Command::new(dir, pen))
                }
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
                pub fn action_line(c: Command) -> String {
                    format!("[ACTION] {c}")
                }
                #[derive(Clone, Debug)]
                pub struct Tracker {
                    state: State,
                }
                impl Tracker {
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
                    pub fn state(&self) -> &State {
                        &self.state
                    }
                    pub fn observe(&mut self, next: &Status) -> Vec<String> {
                        self.state.forget_history();
                        let mut cands: [[Option<Command>; 3]; PLAYERS] =
                            [[Some(Command::STAY); 3]; PLAYERS];
                        let mut counts = [1usize; PLAYERS];
                        for p in 0..PLAYERS {
                            let (c, n) = infer(&self.state, p, &next.players[p]);
                            cands[p] = c;
                            counts[p] = n;
                        }
                        let total: usize = counts.iter().product();
                        let mut first_try: Option<Vec<String>> = None;
                        for combo in 0..total {
                            let mut orders = [None; PLAYERS];
                            let mut k = combo;
                            for p in 0..PLAYERS {
                                orders[p] = cands[p][k % counts[p]];
                                k /= counts[p];
                            }
                            self.state.step(&orders);
                            let got = Status::of(&self.state);
                            if got == *next {
                                return Vec::new();
                            }
                            if first_try.is_none() {
                                first_try = Some(got.differences(next));
                            }
                            self.state.undo();
                        }
                        let mut orders = [None; PLAYERS];
                        for p in 0..PLAYERS {
                            orders[p] = cands[p][0];
                        }
                        self.state.step(&orders);
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
                fn infer(
                    state: &State,
                    p: usize,
                    next: &PlayerStatus,
                ) -> ([Option<Command>; 3], usize) {
                    let pl = state.player(p);
                    let stay = Some(Command::STAY);
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
                    let primary = Some(Command::new(dir, pen));
                    if next.state != PenState::Dead {
                        return ([primary; 3], 1);
                    }
                    let pen_up_keep = pl.state() == PenState::Up && pen == Pen::Keep;
                    let down = Some(Command::new(dir, Pen::Down));
                    match (dir, pen_up_keep) {
                        (Dir::Stay, true) => ([primary, None, down], 3),
                        (Dir::Stay, false) => ([primary, None, None], 2),
                        (_, true) => ([primary, down, down], 2),
                        (_, false) => ([primary; 3], 1),
                    }
                }
                pub fn status_vertex(p: &PlayerStatus) -> u8 {
                    vertex(p.x, p.y)
                }
            }
            pub mod search {
                use super::{Command, Commands, Dir, Pen, PenState, State, PLAYERS, SIDE};
                use crate::botzone::rng::Rng;
                use crate::botzone::time::{iteration_budget, Deadline};
                pub const ROLLOUT_DEPTH: usize = 100;
                fn manhattan(a: u8, b: u8) -> i32 {
                    let (ax, ay) = super::xy(a);
                    let (bx, by) = super::xy(b);
                    (i32::from(ax) - i32::from(bx)).abs() + (i32::from(ay) - i32::from(by)).abs()
                }
                pub fn policy(st: &State, p: usize, rng: &mut Rng) -> Command {
                    let mut legal = Commands::new();
                    st.legal_commands(p, &mut legal);
                    if legal.len() == 1 {
                        return legal[0];
                    }
                    let pl = st.player(p);
                    let mut pick = Commands::new();
                    match pl.state() {
                        PenState::Down => {
                            let trail = st.trail(p);
                            let start = trail[0];
                            let mut best = i32::MAX;
                            let mut closing = Commands::new();
                            let mut homeward = Commands::new();
                            for &c in legal.iter() {
                                if c.dir == Dir::Stay {
                                    continue;
                                }
                                let Some(to) = State::neighbour(pl.vertex(), c.dir) else {
                                    continue;
                                };
                                pick.push(c);
                                if pl.on_trail(to) {
                                    closing.push(c);
                                }
                                let d = manhattan(to, start);
                                if d < best {
                                    best = d;
                                    homeward.clear();
                                }
                                if d == best {
                                    homeward.push(c);
                                }
                            }
                            if !closing.is_empty() && rng.below(10) < 9 {
                                return closing[rng.index(closing.len())];
                            }
                            let long = trail.len() >= 4 + rng.index(8);
                            if long && !homeward.is_empty() && rng.below(10) < 8 {
                                return homeward[rng.index(homeward.len())];
                            }
                        }
                        _ => {
                            let down = rng.below(4) == 0;
                            let want = if down { Pen::Down } else { Pen::Keep };
                            for &c in legal.iter() {
                                if c.pen == want && c.dir != Dir::Stay {
                                    pick.push(c);
                                }
                            }
                        }
                    }
                    if pick.is_empty() {
                        for &c in legal.iter() {
                            if c.pen != Pen::Skill {
                                pick.push(c);
                            }
                        }
                    }
                    if pick.is_empty() {
                        return Command::STAY;
                    }
                    pick[rng.index(pick.len())]
                }
                pub fn rollout(st: &mut State, depth: usize, rng: &mut Rng) -> usize {
                    let mut n = 0;
                    while n < depth && !st.is_over() {
                        let mut orders = [None; PLAYERS];
                        for (p, o) in orders.iter_mut().enumerate() {
                            *o = Some(policy(st, p, rng));
                        }
                        st.step(&orders);
                        n += 1;
                    }
                    n
                }
                pub fn value(st: &State, me: usize) -> f64 {
                    let s = st.scores_i32();
                    let mut best_other = i32::MIN;
                    for (p, &v) in s.iter().enumerate() {
                        if p != me && v > best_other {
                            best_other = v;
                        }
                    }
                    let win = if s[me] > best_other { 1.0 } else { 0.0 };
                    win + f64::from(s[me]) / 200_000.0
                }
                #[derive(Clone, Copy, Debug)]
                pub struct Choice<T> {
                    pub best: T,
                    pub mean: f64,
                    pub rollouts: u64,
                }
                pub fn choose_command(
                    st: &State,
                    me: usize,
                    deadline: &Deadline,
                    rng: &mut Rng,
                ) -> Choice<Command> {
                    let mut legal = Commands::new();
                    st.legal_commands(me, &mut legal);
                    let mut cands = Commands::new();
                    for &c in legal.iter() {
                        if c.pen != Pen::Skill {
                            cands.push(c);
                        }
                    }
                    if cands.is_empty() {
                        cands.push(legal.first().copied().unwrap_or(Command::STAY));
                    }
                    if cands.len() == 1 || st.is_over() {
                        return Choice {
                            best: cands[0],
                            mean: 0.0,
                            rollouts: 0,
                        };
                    }
                    let mut sim = st.clone();
                    let mut sum = [0f64; 16];
                    let mut count = [0u64; 16];
                    let mut rollouts = 0u64;
                    let budget = iteration_budget().unwrap_or(u64::MAX);
                    'search: loop {
                        for i in 0..cands.len() {
                            if deadline.passed() || rollouts >= budget {
                                break 'search;
                            }
                            let mut orders = [None; PLAYERS];
                            for (p, o) in orders.iter_mut().enumerate() {
                                *o = Some(if p == me {
                                    cands[i]
                                } else {
                                    policy(&sim, p, rng)
                                });
                            }
                            sim.step(&orders);
                            let n = rollout(&mut sim, ROLLOUT_DEPTH, rng);
                            sum[i] += value(&sim, me);
                            count[i] += 1;
                            for _ in 0..=n {
                                sim.undo();
                            }
                            rollouts += 1;
                        }
                    }
                    best_of(&cands, &sum, &count, 0, rollouts)
                }
                pub fn choose_start(
                    me: usize,
                    deadline: &Deadline,
                    rng: &mut Rng,
                ) -> Choice<(u8, u8)> {
                    let mut cands = [(0u8, 0u8); 36];
                    let mut k = 0;
                    for y in (0..SIDE as u8).step_by(2) {
                        for x in (0..SIDE as u8).step_by(2) {
                            cands[k] = (x, y);
                            k += 1;
                        }
                    }
                    let mut sum = [0f64; 36];
                    let mut count = [0u64; 36];
                    let mut rollouts = 0u64;
                    let budget = iteration_budget().unwrap_or(u64::MAX);
                    'search: loop {
                        for i in 0..cands.len() {
                            if deadline.passed() || rollouts >= budget {
                                break 'search;
                            }
                            let mut pos = [(0i32, 0i32); PLAYERS];
                            for (p, q) in pos.iter_mut().enumerate() {
                                *q = if p == me {
                                    (i32::from(cands[i].0), i32::from(cands[i].1))
                                } else {
                                    (rng.below(11) as i32, rng.below(11) as i32)
                                };
                            }
                            let mut st = State::new(pos);
                            rollout(&mut st, 2 * ROLLOUT_DEPTH, rng);
                            sum[i] += value(&st, me);
                            count[i] += 1;
                            rollouts += 1;
                        }
                    }
                    best_of(&cands, &sum, &count, 2 * 6 + 2, rollouts)
                }
                fn best_of<T: Copy>(
                    cands: &[T],
                    sum: &[f64],
                    count: &[u64],
                    fallback: usize,
                    rollouts: u64,
                ) -> Choice<T> {
                    let mut best = fallback;
                    let mut best_mean = f64::NEG_INFINITY;
                    for i in 0..cands.len() {
                        if count[i] > 0 && sum[i] / count[i] as f64 > best_mean {
                            best_mean = sum[i] / count[i] as f64;
                            best = i;
                        }
                    }
                    Choice {
                        best: cands[best],
                        mean: if best_mean.is_finite() {
                            best_mean
                        } else {
                            0.0
                        },
                        rollouts,
                    }
                }
                #[derive(Clone, Copy, Debug, Default)]
                pub struct RolloutPolicy;
                impl crate::botzone::search::flat_mc::Policy<State> for RolloutPolicy {
                    fn action(&mut self, game: &State, player: usize, rng: &mut Rng) -> Command {
                        policy(game, player, rng)
                    }
                }
            }
            pub const SIDE: usize = 11;
            pub const VERTICES: usize = SIDE * SIDE;
            pub const CELL_SIDE: usize = 10;
            pub const CELLS: usize = CELL_SIDE * CELL_SIDE;
            pub const PLAYERS: usize = 4;
            pub const MAX_TURNS: u16 = 100;
            pub const TRAP_HOLD: u8 = 5;
            pub const SKILL_COST: i32 = 10;
            const NOBODY: u8 = PLAYERS as u8;
            const TRAIL_BUF: usize = 320;
            const HISTORY: usize = MAX_TURNS as usize + 1;
            pub type Commands = FixedList<Command, 14>;
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub enum Dir {
                Up,
                Down,
                Left,
                Right,
                #[default]
                Stay,
            }
            impl Dir {
                pub const ALL: [Dir; 5] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right, Dir::Stay];
                pub const MOVES: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];
                pub fn as_char(self) -> char {
                    match self {
                        Dir::Up => 'u',
                        Dir::Down => 'd',
                        Dir::Left => 'l',
                        Dir::Right => 'r',
                        Dir::Stay => 's',
                    }
                }
                pub fn from_char(c: char) -> Option<Dir> {
                    Some(match c {
                        'u' => Dir::Up,
                        'd' => Dir::Down,
                        'l' => Dir::Left,
                        'r' => Dir::Right,
                        's' => Dir::Stay,
                        _ => return None,
                    })
                }
                pub fn opposite(self) -> Dir {
                    match self {
                        Dir::Up => Dir::Down,
                        Dir::Down => Dir::Up,
                        Dir::Left => Dir::Right,
                        Dir::Right => Dir::Left,
                        Dir::Stay => Dir::Stay,
                    }
                }
                pub fn delta(self) -> (i32, i32) {
                    match self {
                        Dir::Up => (0, -1),
                        Dir::Down => (0, 1),
                        Dir::Left => (-1, 0),
                        Dir::Right => (1, 0),
                        Dir::Stay => (0, 0),
                    }
                }
                pub fn from_delta(dx: i32, dy: i32) -> Option<Dir> {
                    Some(match (dx, dy) {
                        (0, -1) => Dir::Up,
                        (0, 1) => Dir::Down,
                        (-1, 0) => Dir::Left,
                        (1, 0) => Dir::Right,
                        (0, 0) => Dir::Stay,
                        _ => return None,
                    })
                }
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub enum Pen {
                #[default]
                Keep,
                Down,
                Skill,
            }
            impl Pen {
                pub fn as_i8(self) -> i8 {
                    match self {
                        Pen::Keep => 0,
                        Pen::Down => 1,
                        Pen::Skill => -1,
                    }
                }
                pub fn from_i8(p: i8) -> Option<Pen> {
                    Some(match p {
                        0 => Pen::Keep,
                        1 => Pen::Down,
                        -1 => Pen::Skill,
                        _ => return None,
                    })
                }
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct Command {
                pub dir: Dir,
                pub pen: Pen,
            }
            impl Command {
                pub const STAY: Command = Command {
                    dir: Dir::Stay,
                    pen: Pen::Keep,
                };
                pub const fn new(dir: Dir, pen: Pen) -> Self {
                    Command { dir, pen }
                }
            }
            impl fmt::Display for Command {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(f, "{} {}", self.dir.as_char(), self.pen.as_i8())
                }
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub enum PenState {
                #[default]
                Up,
                Down,
                Dead,
            }
            impl PenState {
                pub fn as_i8(self) -> i8 {
                    match self {
                        PenState::Up => 0,
                        PenState::Down => 1,
                        PenState::Dead => -1,
                    }
                }
                pub fn from_i8(s: i8) -> Option<PenState> {
                    Some(match s {
                        0 => PenState::Up,
                        1 => PenState::Down,
                        -1 => PenState::Dead,
                        _ => return None,
                    })
                }
            }
            #[inline]
            pub fn vertex(x: u8, y: u8) -> u8 {
                y * SIDE as u8 + x
            }
            #[inline]
            pub fn xy(v: u8) -> (u8, u8) {
                (v % SIDE as u8, v / SIDE as u8)
            }
            #[inline]
            fn bit(v: u8) -> u128 {
                1u128 << v
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct Player {
                pos: u8,
                state: PenState,
                stuck: u8,
                decline: i32,
                last_dir: Dir,
                trail_start: u16,
                trail_end: u16,
                trail_set: u128,
            }
            impl Player {
                pub fn position(&self) -> (u8, u8) {
                    xy(self.pos)
                }
                pub fn vertex(&self) -> u8 {
                    self.pos
                }
                pub fn state(&self) -> PenState {
                    self.state
                }
                pub fn is_alive(&self) -> bool {
                    self.state != PenState::Dead
                }
                pub fn stuck(&self) -> u8 {
                    self.stuck
                }
                pub fn decline(&self) -> i32 {
                    self.decline
                }
                pub fn last_dir(&self) -> Dir {
                    self.last_dir
                }
                pub fn on_trail(&self, v: u8) -> bool {
                    self.trail_set & bit(v) != 0
                }
                pub fn trail_set(&self) -> u128 {
                    self.trail_set
                }
                pub fn trail_len(&self) -> usize {
                    usize::from(self.trail_end - self.trail_start)
                }
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            struct Snapshot {
                players: [Player; PLAYERS],
                trap1: u128,
                trap2: u128,
                land_len: u8,
                region_count: u8,
                unowned: u8,
                over: bool,
            }
            #[derive(Clone, Copy, Default)]
            struct Loop {
                player: u8,
                rows: [u16; CELL_SIDE],
                count: u32,
                on_cycle: u128,
            }
            #[derive(Clone)]
            pub struct State {
                players: [Player; PLAYERS],
                trails: [[u8; TRAIL_BUF]; PLAYERS],
                owner: [u8; CELLS],
                region: [u8; CELLS],
                region_owner: [u8; CELLS],
                region_area: [u8; CELLS],
                region_count: u8,
                land_log: [u8; CELLS],
                land_len: u8,
                unowned: u8,
                trap1: u128,
                trap2: u128,
                turn: u16,
                over: bool,
                history: FixedList<Snapshot, HISTORY>,
            }
            impl fmt::Debug for State {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(f, "State(turn {})\n{}", self.turn, self)
                }
            }
            impl PartialEq for State {
                fn eq(&self, other: &Self) -> bool {
                    let trails_eq = (0..PLAYERS).all(|p| self.trail(p) == other.trail(p));
                    let players_eq = self.players.iter().zip(other.players.iter()).all(|(a, b)| {
                        a.pos == b.pos
                            && a.state == b.state
                            && a.stuck == b.stuck
                            && a.decline == b.decline
                            && a.last_dir == b.last_dir
                            && a.trail_set == b.trail_set
                    });
                    let regions = usize::from(self.region_count);
                    trails_eq
                        && players_eq
                        && self.owner == other.owner
                        && self.region == other.region
                        && self.region_count == other.region_count
                        && self.region_owner[..regions] == other.region_owner[..regions]
                        && self.region_area[..regions] == other.region_area[..regions]
                        && self.unowned == other.unowned
                        && self.trap1 == other.trap1
                        && self.trap2 == other.trap2
                        && self.turn == other.turn
                        && self.over == other.over
                }
            }
            fn on_board(x: i32, y: i32) -> bool {
                (0..SIDE as i32).contains(&x) && (0..SIDE as i32).contains(&y)
            }
            impl State {
                pub fn new(positions: [(i32, i32); PLAYERS]) -> Self {
                    let mut s = State {
                        players: [Player::default(); PLAYERS],
                        trails: [[0; TRAIL_BUF]; PLAYERS],
                        owner: [NOBODY; CELLS],
                        region: [0; CELLS],
                        region_owner: [0; CELLS],
                        region_area: [0; CELLS],
                        region_count: 0,
                        land_log: [0; CELLS],
                        land_len: 0,
                        unowned: CELLS as u8,
                        trap1: 0,
                        trap2: 0,
                        turn: 0,
                        over: false,
                        history: FixedList::new(),
                    };
                    for (p, &(x, y)) in positions.iter().enumerate() {
                        if on_board(x, y) {
                            s.players[p].pos = vertex(x as u8, y as u8);
                        } else {
                            s.players[p].state = PenState::Dead;
                        }
                    }
                    s.check_end();
                    s
                }
                pub fn with_dead(positions: [(u8, u8); PLAYERS], dead: [bool; PLAYERS]) -> Self {
                    let mut pos = [(0i32, 0i32); PLAYERS];
                    for p in 0..PLAYERS {
                        pos[p] = if dead[p] {
                            (-1, -1)
                        } else {
                            (i32::from(positions[p].0), i32::from(positions[p].1))
                        };
                    }
                    let mut s = State::new(pos);
                    for p in 0..PLAYERS {
                        if dead[p] {
                            s.players[p].pos =
                                vertex(positions[p].0.min(10), positions[p].1.min(10));
                        }
                    }
                    s
                }
                pub fn player(&self, p: usize) -> &Player {
                    &self.players[p]
                }
                pub fn trail(&self, p: usize) -> &[u8] {
                    let pl = &self.players[p];
                    &self.trails[p][usize::from(pl.trail_start)..usize::from(pl.trail_end)]
                }
                pub fn turn(&self) -> u16 {
                    self.turn
                }
                pub fn is_over(&self) -> bool {
                    self.over
                }
                pub fn alive_count(&self) -> usize {
                    self.players.iter().filter(|p| p.is_alive()).count()
                }
                pub fn owner(&self, i: u8, j: u8) -> Option<usize> {
                    let o = self.owner[usize::from(j) * CELL_SIDE + usize::from(i)];
                    (o != NOBODY).then_some(usize::from(o))
                }
                pub fn region(&self, i: u8, j: u8) -> Option<usize> {
                    let c = usize::from(j) * CELL_SIDE + usize::from(i);
                    (self.owner[c] != NOBODY).then_some(usize::from(self.region[c]))
                }
                pub fn regions(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
                    (0..usize::from(self.region_count)).map(|r| {
                        (
                            usize::from(self.region_owner[r]),
                            u32::from(self.region_area[r]),
                        )
                    })
                }
                pub fn unowned(&self) -> usize {
                    usize::from(self.unowned)
                }
                pub fn trap(&self, x: u8, y: u8) -> u8 {
                    let b = bit(vertex(x, y));
                    if self.trap2 & b != 0 {
                        2
                    } else if self.trap1 & b != 0 {
                        1
                    } else {
                        0
                    }
                }
                pub fn traps(&self) -> impl Iterator<Item = (u8, u8, u8)> + '_ {
                    let all = self.trap1 | self.trap2;
                    (0..VERTICES as u8)
                        .filter(move |&v| all & bit(v) != 0)
                        .map(move |v| {
                            let (x, y) = xy(v);
                            (x, y, if self.trap2 & bit(v) != 0 { 2 } else { 1 })
                        })
                }
                pub fn score(&self, p: usize) -> i32 {
                    let mut sq = 0i32;
                    for r in 0..usize::from(self.region_count) {
                        if usize::from(self.region_owner[r]) == p {
                            let a = i32::from(self.region_area[r]);
                            sq += a * a;
                        }
                    }
                    10 * sq + (PLAYERS - p) as i32 + self.players[p].decline
                }
                pub fn scores_i32(&self) -> [i32; PLAYERS] {
                    let mut sq = [0i32; PLAYERS];
                    for r in 0..usize::from(self.region_count) {
                        let a = i32::from(self.region_area[r]);
                        sq[usize::from(self.region_owner[r])] += a * a;
                    }
                    let mut out = [0; PLAYERS];
                    for p in 0..PLAYERS {
                        out[p] = 10 * sq[p] + (PLAYERS - p) as i32 + self.players[p].decline;
                    }
                    out
                }
                pub fn interior_owner(&self, a: u8, b: u8) -> Option<usize> {
                    let (ax, ay) = xy(a);
                    let (bx, by) = xy(b);
                    let (c1, c2) = if ax == bx {
                        let (x, y) = (usize::from(ax), usize::from(ay.min(by)));
                        if x == 0 || x >= CELL_SIDE {
                            return None;
                        }
                        (y * CELL_SIDE + x - 1, y * CELL_SIDE + x)
                    } else {
                        let (x, y) = (usize::from(ax.min(bx)), usize::from(ay));
                        if y == 0 || y >= CELL_SIDE {
                            return None;
                        }
                        ((y - 1) * CELL_SIDE + x, y * CELL_SIDE + x)
                    };
                    let o = self.owner[c1];
                    (o != NOBODY && o == self.owner[c2] && self.region[c1] == self.region[c2])
                        .then_some(usize::from(o))
                }
                #[inline]
                pub fn neighbour(v: u8, dir: Dir) -> Option<u8> {
                    let (x, y) = xy(v);
                    let (dx, dy) = dir.delta();
                    let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
                    on_board(nx, ny).then(|| vertex(nx as u8, ny as u8))
                }
                pub fn kills_itself(&self, p: usize, c: Command) -> bool {
                    let pl = &self.players[p];
                    if !pl.is_alive() || pl.stuck > 0 {
                        return false;
                    }
                    let pen_down = match pl.state {
                        PenState::Up => {
                            if c.pen == Pen::Skill && c.dir == Dir::Stay {
                                return true;
                            }
                            c.pen == Pen::Down
                        }
                        _ => {
                            if c.pen != Pen::Keep
                                || (c.dir != Dir::Stay && c.dir == pl.last_dir.opposite())
                            {
                                return true;
                            }
                            true
                        }
                    };
                    if c.dir == Dir::Stay {
                        return false;
                    }
                    match State::neighbour(pl.pos, c.dir) {
                        None => true,
                        Some(to) => match self.interior_owner(pl.pos, to) {
                            Some(o) => pen_down || o != p,
                            None => false,
                        },
                    }
                }
                pub fn legal_commands(&self, p: usize, out: &mut Commands) {
                    out.clear();
                    let pl = &self.players[p];
                    if self.over || !pl.is_alive() || pl.stuck > 0 {
                        out.push(Command::STAY);
                        return;
                    }
                    let pens: &[Pen] = if pl.state == PenState::Up {
                        &[Pen::Keep, Pen::Down, Pen::Skill]
                    } else {
                        &[Pen::Keep]
                    };
                    for &pen in pens {
                        for dir in Dir::ALL {
                            let c = Command::new(dir, pen);
                            if !self.kills_itself(p, c) {
                                out.push(c);
                            }
                        }
                    }
                }
                fn snapshot(&self) -> Snapshot {
                    Snapshot {
                        players: self.players,
                        trap1: self.trap1,
                        trap2: self.trap2,
                        land_len: self.land_len,
                        region_count: self.region_count,
                        unowned: self.unowned,
                        over: self.over,
                    }
                }
                fn kill(&mut self, p: usize) {
                    let pl = &mut self.players[p];
                    pl.state = PenState::Dead;
                    pl.trail_start = pl.trail_end;
                    pl.trail_set = 0;
                    pl.last_dir = Dir::Stay;
                }
                fn push_trail(&mut self, p: usize, v: u8) {
                    let pl = &mut self.players[p];
                    let end = usize::from(pl.trail_end);
                    if end < TRAIL_BUF {
                        self.trails[p][end] = v;
                        pl.trail_end += 1;
                    }
                    pl.trail_set |= bit(v);
                }
                fn start_trail(&mut self, p: usize) {
                    let pl = &mut self.players[p];
                    pl.state = PenState::Down;
                    pl.trail_start = pl.trail_end;
                    pl.trail_set = 0;
                    pl.last_dir = Dir::Stay;
                    let v = pl.pos;
                    self.push_trail(p, v);
                }
                fn clear_trail(&mut self, p: usize) {
                    let pl = &mut self.players[p];
                    pl.trail_start = pl.trail_end;
                    pl.trail_set = 0;
                    pl.last_dir = Dir::Stay;
                }
                fn take_cells(&mut self, p: usize, mut rows: [u16; CELL_SIDE]) {
                    let mut stack = [0u8; CELLS];
                    for j in 0..CELL_SIDE {
                        while rows[j] != 0 {
                            let i = rows[j].trailing_zeros() as usize;
                            rows[j] &= !(1 << i);
                            let r = self.region_count;
                            self.region_count += 1;
                            self.region_owner[usize::from(r)] = p as u8;
                            let mut area = 0u8;
                            let mut top = 0;
                            stack[top] = (j * CELL_SIDE + i) as u8;
                            top += 1;
                            while top > 0 {
                                top -= 1;
                                let c = stack[top];
                                self.owner[usize::from(c)] = p as u8;
                                self.region[usize::from(c)] = r;
                                self.land_log[usize::from(self.land_len)] = c;
                                self.land_len += 1;
                                self.unowned -= 1;
                                area += 1;
                                let (ci, cj) =
                                    (usize::from(c) % CELL_SIDE, usize::from(c) / CELL_SIDE);
                                let mut visit =
                                    |ni: usize, nj: usize, rows: &mut [u16; CELL_SIDE]| {
                                        if rows[nj] & (1 << ni) != 0 {
                                            rows[nj] &= !(1 << ni);
                                            stack[top] = (nj * CELL_SIDE + ni) as u8;
                                            top += 1;
                                        }
                                    };
                                if ci > 0 {
                                    visit(ci - 1, cj, &mut rows);
                                }
                                if ci + 1 < CELL_SIDE {
                                    visit(ci + 1, cj, &mut rows);
                                }
                                if cj > 0 {
                                    visit(ci, cj - 1, &mut rows);
                                }
                                if cj + 1 < CELL_SIDE {
                                    visit(ci, cj + 1, &mut rows);
                                }
                            }
                            self.region_area[usize::from(r)] = area;
                        }
                    }
                }
                fn unowned_rows(&self) -> [u16; CELL_SIDE] {
                    let mut rows = [0u16; CELL_SIDE];
                    for (j, row) in rows.iter_mut().enumerate() {
                        for i in 0..CELL_SIDE {
                            if self.owner[j * CELL_SIDE + i] == NOBODY {
                                *row |= 1 << i;
                            }
                        }
                    }
                    rows
                }
                fn make_loop(&self, p: usize, k: usize) -> Loop {
                    let trail = self.trail(p);
                    let cycle = &trail[k..];
                    let mut lp = Loop {
                        player: p as u8,
                        ..Loop::default()
                    };
                    for (n, &a) in cycle.iter().enumerate() {
                        let b = cycle[(n + 1) % cycle.len()];
                        lp.on_cycle |= bit(a);
                        let (ax, ay) = xy(a);
                        let (bx, by) = xy(b);
                        if ax == bx && ay != by {
                            let y = usize::from(ay.min(by));
                            lp.rows[y] ^= (1u16 << ax) - 1;
                        }
                    }
                    lp.count = lp.rows.iter().map(|r| r.count_ones()).sum();
                    lp
                }
                fn strictly_inside(lp: &Loop, v: u8) -> bool {
                    if lp.on_cycle & bit(v) != 0 {
                        return false;
                    }
                    let (x, y) = xy(v);
                    if x == 0
                        || y == 0
                        || usize::from(x) >= CELL_SIDE
                        || usize::from(y) >= CELL_SIDE
                    {
                        return false;
                    }
                    lp.rows[usize::from(y)] & (1 << x) != 0
                }
                pub fn step(&mut self, orders: &[Option<Command>; PLAYERS]) {
                    let snap = self.snapshot();
                    if self.history.try_push(snap).is_err() || self.over {
                        return;
                    }
                    let mut cmd = [Command::STAY; PLAYERS];
                    for p in 0..PLAYERS {
                        let pl = self.players[p];
                        if !pl.is_alive() || pl.stuck > 0 {
                            continue;
                        }
                        match orders[p] {
                            None => self.kill(p),
                            Some(c) => {
                                let bad = match pl.state {
                                    PenState::Up => c.pen == Pen::Skill && c.dir == Dir::Stay,
                                    _ => {
                                        c.pen != Pen::Keep
                                            || (c.dir != Dir::Stay
                                                && c.dir == pl.last_dir.opposite())
                                    }
                                };
                                if bad {
                                    self.kill(p);
                                } else {
                                    cmd[p] = c;
                                }
                            }
                        }
                    }
                    let mut target = [0u8; PLAYERS];
                    for p in 0..PLAYERS {
                        let pl = self.players[p];
                        if !pl.is_alive() || cmd[p].dir == Dir::Stay {
                            continue;
                        }
                        match State::neighbour(pl.pos, cmd[p].dir) {
                            None => self.kill(p),
                            Some(to) => {
                                let pen_down =
                                    pl.state == PenState::Down || cmd[p].pen == Pen::Down;
                                match self.interior_owner(pl.pos, to) {
                                    Some(o) if pen_down || o != p => self.kill(p),
                                    _ => target[p] = to,
                                }
                            }
                        }
                    }
                    let mut from = [0u8; PLAYERS];
                    let mut closed = [usize::MAX; PLAYERS];
                    for p in 0..PLAYERS {
                        from[p] = self.players[p].pos;
                        if !self.players[p].is_alive() {
                            continue;
                        }
                        if self.players[p].state == PenState::Up && cmd[p].pen == Pen::Down {
                            self.start_trail(p);
                        }
                        let dir = cmd[p].dir;
                        if dir == Dir::Stay {
                            continue;
                        }
                        let to = target[p];
                        self.players[p].pos = to;
                        if self.players[p].state == PenState::Down {
                            self.players[p].last_dir = dir;
                            if self.players[p].on_trail(to) {
                                closed[p] =
                                    self.trail(p).iter().position(|&v| v == to).unwrap_or(0);
                            } else {
                                self.push_trail(p, to);
                            }
                        }
                    }
                    self.trap1 = self.trap2;
                    self.trap2 = 0;
                    for p in 0..PLAYERS {
                        if !self.players[p].is_alive() || cmd[p].pen != Pen::Skill {
                            continue;
                        }
                        self.players[p].decline -= SKILL_COST;
                        let (across_a, across_b) = match cmd[p].dir {
                            Dir::Up | Dir::Down => (Dir::Left, Dir::Right),
                            _ => (Dir::Up, Dir::Down),
                        };
                        let v = from[p];
                        let mut drop = bit(v);
                        for d in [across_a, across_b] {
                            if let Some(n) = State::neighbour(v, d) {
                                drop |= bit(n);
                            }
                        }
                        self.trap2 |= drop;
                        self.trap1 &= !drop;
                    }
                    let traps = self.trap1 | self.trap2;
                    let mut sprung = 0u128;
                    for pl in self.players.iter_mut() {
                        if pl.is_alive() && traps & bit(pl.pos) != 0 {
                            pl.stuck = TRAP_HOLD;
                            sprung |= bit(pl.pos);
                        }
                    }
                    self.trap1 &= !sprung;
                    self.trap2 &= !sprung;
                    let mut loops: FixedList<Loop, PLAYERS> = FixedList::new();
                    for p in 0..PLAYERS {
                        if closed[p] != usize::MAX {
                            loops.push(self.make_loop(p, closed[p]));
                        }
                    }
                    if !loops.is_empty() {
                        loops.sort_unstable_by_key(|l| (l.count, l.player));
                        for lp in loops.iter() {
                            let p = usize::from(lp.player);
                            let free = self.unowned_rows();
                            let mut rows = lp.rows;
                            for (r, f) in rows.iter_mut().zip(free.iter()) {
                                *r &= *f;
                            }
                            self.take_cells(p, rows);
                            for q in 0..PLAYERS {
                                if q != p
                                    && self.players[q].is_alive()
                                    && State::strictly_inside(lp, self.players[q].pos)
                                {
                                    self.kill(q);
                                }
                            }
                            if self.players[p].is_alive() {
                                self.players[p].state = PenState::Up;
                            }
                            self.clear_trail(p);
                        }
                    }
                    let mut occupied = [0u128; PLAYERS];
                    for r in 0..PLAYERS {
                        if self.players[r].is_alive() && closed[r] == usize::MAX {
                            occupied[r] = bit(self.players[r].pos);
                        }
                    }
                    let mut dies = [false; PLAYERS];
                    for q in 0..PLAYERS {
                        let pl = &self.players[q];
                        if pl.state != PenState::Down {
                            continue;
                        }
                        for (r, occ) in occupied.iter().enumerate() {
                            if r != q && pl.trail_set & occ != 0 {
                                dies[q] = true;
                            }
                        }
                    }
                    for (q, &d) in dies.iter().enumerate() {
                        if d {
                            self.kill(q);
                        }
                    }
                    for pl in self.players.iter_mut() {
                        if pl.stuck > 0 {
                            pl.stuck -= 1;
                        }
                    }
                    self.turn += 1;
                    self.check_end();
                }
                fn check_end(&mut self) {
                    let alive = self.alive_count();
                    if alive <= 1 || self.turn >= MAX_TURNS || self.unowned == 0 {
                        self.over = true;
                        if alive == 1 && self.unowned > 0 {
                            let p = self.players.iter().position(|p| p.is_alive()).unwrap_or(0);
                            let rows = self.unowned_rows();
                            self.take_cells(p, rows);
                        }
                    }
                }
                pub fn undo(&mut self) -> bool {
                    let Some(snap) = self.history.pop() else {
                        return false;
                    };
                    while self.land_len > snap.land_len {
                        self.land_len -= 1;
                        let c = usize::from(self.land_log[usize::from(self.land_len)]);
                        self.owner[c] = NOBODY;
                        self.region[c] = 0;
                    }
                    let played = !snap.over;
                    self.players = snap.players;
                    self.trap1 = snap.trap1;
                    self.trap2 = snap.trap2;
                    self.region_count = snap.region_count;
                    self.unowned = snap.unowned;
                    self.over = snap.over;
                    if played {
                        self.turn -= 1;
                    }
                    true
                }
                pub fn forget_history(&mut self) {
                    self.history.clear();
                }
                pub fn history_len(&self) -> usize {
                    self.history.len()
                }
                pub fn random_command(&self, p: usize, rng: &mut Rng) -> Command {
                    let mut cs = Commands::new();
                    self.legal_commands(p, &mut cs);
                    cs[rng.index(cs.len())]
                }
                pub fn random_playout(&mut self, rng: &mut Rng) -> usize {
                    let mut turns = 0;
                    while !self.over {
                        let mut orders = [None; PLAYERS];
                        for (p, o) in orders.iter_mut().enumerate() {
                            *o = Some(self.random_command(p, rng));
                        }
                        self.step(&orders);
                        turns += 1;
                    }
                    turns
                }
                pub fn force_visible(
                    &mut self,
                    players: &[(u8, u8, PenState, u8, i32); PLAYERS],
                    traps: &[(u8, u8, u8)],
                ) {
                    for (p, &(x, y, st, stuck, decline)) in players.iter().enumerate() {
                        let v = vertex(x.min(10), y.min(10));
                        let was = self.players[p].state;
                        let moved = self.players[p].pos != v;
                        self.players[p].pos = v;
                        self.players[p].stuck = stuck;
                        self.players[p].decline = decline;
                        match st {
                            PenState::Dead => self.kill(p),
                            PenState::Up => {
                                self.players[p].state = PenState::Up;
                                self.clear_trail(p);
                            }
                            PenState::Down => {
                                if was != PenState::Down || moved && !self.players[p].on_trail(v) {
                                    self.start_trail(p);
                                }
                            }
                        }
                    }
                    self.trap1 = 0;
                    self.trap2 = 0;
                    for &(x, y, c) in traps {
                        if usize::from(x) < SIDE && usize::from(y) < SIDE {
                            if c >= 2 {
                                self.trap2 |= bit(vertex(x, y));
                            } else {
                                self.trap1 |= bit(vertex(x, y));
                            }
                        }
                    }
                    self.history.clear();
                    self.over = false;
                    self.check_end();
                }
            }
            impl fmt::Display for State {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    for y in 0..SIDE as u8 {
                        let mut line = String::new();
                        for x in 0..SIDE as u8 {
                            let v = vertex(x, y);
                            let mut ch = '.';
                            if self.trap2 & bit(v) != 0 {
                                ch = '*';
                            } else if self.trap1 & bit(v) != 0 {
                                ch = '^';
                            }
                            if self.players.iter().any(|pl| pl.on_trail(v)) {
                                ch = '+';
                            }
                            for (p, pl) in self.players.iter().enumerate() {
                                if pl.pos == v {
                                    ch = if pl.is_alive() {
                                        (b'0' + p as u8) as char
                                    } else {
                                        'x'
                                    };
                                }
                            }
                            line.push(ch);
                            if usize::from(x) < CELL_SIDE {
                                line.push(' ');
                            }
                        }
                        writeln!(f, "{line}")?;
                        if usize::from(y) < CELL_SIDE {
                            let mut cells = String::new();
                            for i in 0..CELL_SIDE as u8 {
                                cells.push(' ');
                                cells.push(match self.owner(i, y) {
                                    Some(o) => (b'A' + o as u8) as char,
                                    None => ' ',
                                });
                            }
                            writeln!(f, "{}", cells.trim_end())?;
                        }
                    }
                    write!(f, "turn {}", self.turn)?;
                    for p in 0..PLAYERS {
                        let pl = &self.players[p];
                        write!(
                            f,
                            " | {p}: state {} stuck {} score {}",
                            pl.state.as_i8(),
                            pl.stuck,
                            self.score(p)
                        )?;
                    }
                    Ok(())
                }
            }
            impl Game for State {
                type Action = Command;
                type Actions = Commands;
                fn player_count(&self) -> usize {
                    PLAYERS
                }
                fn is_over(&self) -> bool {
                    self.over
                }
                fn is_active(&self, player: usize) -> bool {
                    !self.over && self.players[player].is_alive()
                }
                fn legal_actions(&self, player: usize, out: &mut Commands) {
                    self.legal_commands(player, out);
                }
                fn apply(&mut self, joint: &[Command]) {
                    let mut orders = [Some(Command::STAY); PLAYERS];
                    for (o, &c) in orders.iter_mut().zip(joint.iter()) {
                        *o = Some(c);
                    }
                    self.step(&orders);
                }
                fn undo(&mut self) -> bool {
                    State::undo(self)
                }
                fn scores(&self, out: &mut [f64]) {
                    let s = self.scores_i32();
                    for (o, v) in out.iter_mut().zip(s.iter()) {
                        *o = f64::from(*v);
                    }
                }
            }
        }
        pub trait Game: Clone {
            type Action: Copy + Eq + Default + Debug;
            type Actions: Default + Deref<Target = [Self::Action]>;
            fn player_count(&self) -> usize;
            fn is_over(&self) -> bool;
            fn is_active(&self, player: usize) -> bool;
            fn legal_actions(&self, player: usize, out: &mut Self::Actions);
            fn apply(&mut self, joint: &[Self::Action]);
            fn undo(&mut self) -> bool;
            fn scores(&self, out: &mut [f64]);
        }
    }
    pub mod rng {
        use std::time::{SystemTime, UNIX_EPOCH};
        pub const SEED_VAR: &str = "BOTZONE_SEED";
        #[derive(Clone, Debug)]
        pub struct Rng {
            s: [u64; 4],
        }
        fn splitmix64(x: &mut u64) -> u64 {
            *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        impl Rng {
            pub fn new(seed: u64) -> Self {
                let mut x = seed;
                let s = [
                    splitmix64(&mut x),
                    splitmix64(&mut x),
                    splitmix64(&mut x),
                    splitmix64(&mut x),
                ];
                Rng { s }
            }
            pub fn from_env() -> Self {
                match seed_from_env() {
                    Some(seed) => Rng::new(seed),
                    None => {
                        let nanos = SystemTime::now()
                            .duration_since(UNIX_EPOCH)
                            .map(|d| d.as_nanos() as u64)
                            .unwrap_or(0);
                        Rng::new(nanos ^ (u64::from(std::process::id()) << 32))
                    }
                }
            }
            #[inline]
            pub fn next_u64(&mut self) -> u64 {
                let s = &mut self.s;
                let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
                let t = s[1] << 17;
                s[2] ^= s[0];
                s[3] ^= s[1];
                s[1] ^= s[2];
                s[0] ^= s[3];
                s[2] ^= t;
                s[3] = s[3].rotate_left(45);
                result
            }
            #[inline]
            pub fn next_u32(&mut self) -> u32 {
                (self.next_u64() >> 32) as u32
            }
            #[inline]
            pub fn below(&mut self, n: u32) -> u32 {
                debug_assert!(n > 0, "Rng::below(0)");
                ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32
            }
            #[inline]
            pub fn index(&mut self, len: usize) -> usize {
                self.below(len as u32) as usize
            }
            #[inline]
            pub fn unit(&mut self) -> f64 {
                (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
            }
            #[inline]
            pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
                if items.is_empty() {
                    None
                } else {
                    Some(&items[self.index(items.len())])
                }
            }
        }
        pub fn seed_from_env() -> Option<u64> {
            std::env::var(SEED_VAR).ok()?.trim().parse().ok()
        }
    }
    pub mod search {
        pub mod flat_mc {
            use crate::botzone::games::Game;
            use crate::botzone::rng::Rng;
            use crate::botzone::time::Deadline;
            pub trait Policy<G: Game> {
                fn action(&mut self, game: &G, player: usize, rng: &mut Rng) -> G::Action;
                #[inline]
                fn fill_joint(&mut self, game: &G, rng: &mut Rng, joint: &mut [G::Action]) {
                    for (p, slot) in joint.iter_mut().enumerate() {
                        *slot = if game.is_active(p) {
                            self.action(game, p, rng)
                        } else {
                            G::Action::default()
                        };
                    }
                }
            }
            pub struct UniformPolicy<G: Game> {
                buffer: G::Actions,
            }
            impl<G: Game> Default for UniformPolicy<G> {
                fn default() -> Self {
                    UniformPolicy {
                        buffer: G::Actions::default(),
                    }
                }
            }
            impl<G: Game> Policy<G> for UniformPolicy<G> {
                #[inline]
                fn action(&mut self, game: &G, player: usize, rng: &mut Rng) -> G::Action {
                    game.legal_actions(player, &mut self.buffer);
                    rng.choose(&self.buffer).copied().unwrap_or_default()
                }
            }
            #[derive(Clone, Copy, Debug)]
            pub struct Limits {
                pub max_rollouts: Option<u64>,
                pub check_every: u32,
            }
            impl Limits {
                pub fn from_env() -> Self {
                    Limits {
                        max_rollouts: crate::botzone::time::iteration_budget(),
                        ..Limits::default()
                    }
                }
            }
            impl Default for Limits {
                fn default() -> Self {
                    Limits {
                        max_rollouts: None,
                        check_every: 16,
                    }
                }
            }
            #[derive(Clone, Copy, Debug, PartialEq)]
            pub struct Arm<A> {
                pub action: A,
                pub visits: u64,
                pub total: f64,
            }
            impl<A> Arm<A> {
                pub fn mean(&self) -> f64 {
                    if self.visits == 0 {
                        0.0
                    } else {
                        self.total / self.visits as f64
                    }
                }
            }
            #[derive(Clone, Debug)]
            pub struct SearchResult<A> {
                pub best: A,
                pub rollouts: u64,
                pub turns: u64,
                pub arms: Vec<Arm<A>>,
            }
            pub fn search<G: Game, P: Policy<G>>(
                game: &mut G,
                me: usize,
                deadline: &Deadline,
                rng: &mut Rng,
                policy: &mut P,
                limits: Limits,
            ) -> SearchResult<G::Action> {
                let mut legal = G::Actions::default();
                if game.is_active(me) {
                    game.legal_actions(me, &mut legal);
                }
                let mut arms: Vec<Arm<G::Action>> = legal
                    .iter()
                    .map(|&action| Arm {
                        action,
                        visits: 0,
                        total: 0.0,
                    })
                    .collect();
                let mut result = SearchResult {
                    best: arms.first().map(|a| a.action).unwrap_or_default(),
                    rollouts: 0,
                    turns: 0,
                    arms: Vec::new(),
                };
                if arms.len() <= 1 {
                    result.arms = arms;
                    return result;
                }
                let players = game.player_count();
                let mut joint = vec![G::Action::default(); players];
                let mut scores = vec![0.0; players];
                let check_every = u64::from(limits.check_every.max(1));
                let max = limits.max_rollouts.unwrap_or(u64::MAX);
                let mut arm = 0;
                while result.rollouts < max {
                    if result.rollouts % check_every == 0 && deadline.passed() {
                        break;
                    }
                    for (p, slot) in joint.iter_mut().enumerate() {
                        *slot = if p == me {
                            arms[arm].action
                        } else if game.is_active(p) {
                            policy.action(game, p, rng)
                        } else {
                            G::Action::default()
                        };
                    }
                    game.apply(&joint);
                    let mut depth = 1u64;
                    while !game.is_over() {
                        policy.fill_joint(game, rng, &mut joint);
                        game.apply(&joint);
                        depth += 1;
                    }
                    game.scores(&mut scores);
                    arms[arm].visits += 1;
                    arms[arm].total += scores[me];
                    for _ in 0..depth {
                        game.undo();
                    }
                    result.turns += depth;
                    result.rollouts += 1;
                    arm += 1;
                    if arm == arms.len() {
                        arm = 0;
                    }
                }
                let mut best = 0;
                for (i, a) in arms.iter().enumerate() {
                    if a.visits > 0 && (arms[best].visits == 0 || a.mean() > arms[best].mean()) {
                        best = i;
                    }
                }
                result.best = arms[best].action;
                result.arms = arms;
                result
            }
        }
    }
    pub mod time {
        use std::time::{Duration, Instant};
        pub const TIME_LIMIT_VAR: &str = "BOTZONE_TIME_LIMIT";
        pub const ITERATIONS_VAR: &str = "BOTZONE_ITERATIONS";
        pub fn iteration_budget() -> Option<u64> {
            std::env::var(ITERATIONS_VAR)
                .ok()?
                .trim()
                .parse()
                .ok()
                .filter(|&n| n > 0)
        }
        pub const DEFAULT_LIMIT: Duration = Duration::from_secs(1);
        pub fn turn_limit(input_limit: Option<f64>, first_turn: bool) -> Duration {
            if let Some(env) = env_limit() {
                return env;
            }
            let base = input_limit
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64)
                .unwrap_or(DEFAULT_LIMIT);
            if first_turn {
                base * 2
            } else {
                base
            }
        }
        pub fn env_limit() -> Option<Duration> {
            let s = std::env::var(TIME_LIMIT_VAR).ok()?;
            let secs: f64 = s.trim().parse().ok()?;
            if secs.is_finite() && secs > 0.0 && secs < 1e9 {
                Some(Duration::from_secs_f64(secs))
            } else {
                None
            }
        }
        #[derive(Clone, Copy, Debug)]
        pub struct Deadline {
            start: Instant,
            budget: Duration,
        }
        impl Deadline {
            pub fn after(budget: Duration) -> Self {
                Deadline {
                    start: Instant::now(),
                    budget,
                }
            }
            pub fn for_turn(limit: Duration) -> Self {
                let margin = limit.mul_f64(0.15) + Duration::from_millis(30);
                let budget = limit.saturating_sub(margin).max(limit / 4);
                Deadline::after(budget)
            }
            pub fn start(&self) -> Instant {
                self.start
            }
            pub fn budget(&self) -> Duration {
                self.budget
            }
            pub fn elapsed(&self) -> Duration {
                self.start.elapsed()
            }
            pub fn remaining(&self) -> Duration {
                self.budget.saturating_sub(self.start.elapsed())
            }
            #[inline]
            pub fn passed(&self) -> bool {
                self.start.elapsed() >= self.budget
            }
        }
    }
}
