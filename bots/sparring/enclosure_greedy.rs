//! `enclosure_greedy`: a deterministic sparring bot for Enclosure, designed
//! apart from `enclosure_mc` (no search, no breadth-first maps, Manhattan
//! distances only).
//!
//! - Start: the vertex of a 3x3 grid of candidates (2, 5, 8 on each axis)
//!   given by the player number, so copies spread out.
//! - Pen up: if a pen-down opponent's trail is within 2 moves, steps onto
//!   it (a cut). Else tries every rectangle with its own vertex as a
//!   corner (four orientations, sides 1 to 6), keeps those whose border
//!   crosses no region's interior and every opponent is at least
//!   `perimeter + 1` moves (Manhattan) from every border vertex, and starts
//!   the one that takes the most unowned cells. With none, steps to the
//!   neighbour farthest from the nearest opponent.
//! - Pen down: follows the rectangle; when an opponent gets as near to the
//!   trail as the moves left, heads straight back to where the pen went
//!   down.
//!
//! It never plays a command that kills it by itself. `BOTZONE_SEED`,
//! `BOTZONE_ITERATIONS` and `BOTZONE_TIME_LIMIT` do not matter to it: it
//! answers at once.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use botzone::games::enclosure::line_protocol::{
    action_line, Message, ProtocolError, TokenReader, Tracker,
};
use botzone::games::enclosure::{xy, Command, Commands, Dir, Pen, PenState, State, PLAYERS};

fn manhattan(a: u8, b: u8) -> i32 {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    (i32::from(ax) - i32::from(bx)).abs() + (i32::from(ay) - i32::from(by)).abs()
}

/// The greedy player's memory: the loop it is drawing.
struct Greedy {
    me: usize,
    plan: Vec<u8>,
}

impl Greedy {
    /// The nearest any live opponent is (Manhattan, plus trap turns) to
    /// any vertex of `vs`.
    fn threat(&self, st: &State, vs: &[u8]) -> i32 {
        let mut m = i32::MAX;
        for p in 0..PLAYERS {
            let pl = st.player(p);
            if p == self.me || !pl.is_alive() {
                continue;
            }
            for &v in vs {
                m = m.min(manhattan(pl.vertex(), v) + i32::from(pl.stuck()));
            }
        }
        m
    }

    fn command(&mut self, st: &State) -> Command {
        let mut legal = Commands::new();
        st.legal_commands(self.me, &mut legal);
        let c = self.choose(st);
        if legal.contains(&c) {
            return c;
        }
        self.plan.clear();
        legal
            .iter()
            .copied()
            .find(|l| l.pen != Pen::Skill)
            .unwrap_or(Command::STAY)
    }

    fn choose(&mut self, st: &State) -> Command {
        let pl = st.player(self.me);
        if !pl.is_alive() || pl.stuck() > 0 || st.is_over() {
            return Command::STAY;
        }
        let here = pl.vertex();
        if pl.state() == PenState::Down {
            let trail = st.trail(self.me);
            let on_plan = self.plan.len() > trail.len() && self.plan[..trail.len()] == *trail;
            if on_plan {
                let left = (self.plan.len() - trail.len()) as i32;
                if self.threat(st, &self.plan) > left {
                    return step(here, self.plan[trail.len()], Pen::Keep);
                }
            }
            self.plan.clear();
            return self.home(st);
        }
        self.plan.clear();
        // A cut within reach.
        for p in 0..PLAYERS {
            let o = st.player(p);
            if p == self.me || o.state() != PenState::Down {
                continue;
            }
            for &v in st.trail(p) {
                if manhattan(here, v) <= 2 {
                    if let Some(c) = self.towards(st, here, v) {
                        return c;
                    }
                }
            }
        }
        if let Some(plan) = self.best_rectangle(st, here) {
            let c = step(here, plan[1], Pen::Down);
            self.plan = plan;
            return c;
        }
        self.flee(st, here)
    }

    /// Pen down, off the plan: the legal move that gets nearest to the
    /// first trail vertex (closing on any trail vertex when it can).
    fn home(&self, st: &State) -> Command {
        let pl = st.player(self.me);
        let start = st.trail(self.me)[0];
        let mut legal = Commands::new();
        st.legal_commands(self.me, &mut legal);
        let mut best = (i32::MAX, Command::STAY);
        for &c in legal.iter() {
            let Some(to) = State::neighbour(pl.vertex(), c.dir) else {
                continue;
            };
            let d = if pl.on_trail(to) {
                -1
            } else {
                manhattan(to, start)
            };
            if d < best.0 {
                best = (d, c);
            }
        }
        best.1
    }

    /// A pen-up step towards `target` that does not kill.
    fn towards(&self, st: &State, here: u8, target: u8) -> Option<Command> {
        Dir::MOVES
            .into_iter()
            .filter_map(|d| State::neighbour(here, d).map(|n| (d, n)))
            .filter(|&(d, _)| !st.kills_itself(self.me, Command::new(d, Pen::Keep)))
            .min_by_key(|&(_, n)| manhattan(n, target))
            .filter(|&(_, n)| manhattan(n, target) < manhattan(here, target))
            .map(|(d, _)| Command::new(d, Pen::Keep))
    }

    /// Pen up with nothing to draw: the step farthest from the nearest
    /// opponent.
    fn flee(&self, st: &State, here: u8) -> Command {
        let mut best = (self.threat(st, &[here]), Command::STAY);
        for d in Dir::MOVES {
            let c = Command::new(d, Pen::Keep);
            if let Some(n) = State::neighbour(here, d) {
                if !st.kills_itself(self.me, c) && self.threat(st, &[n]) > best.0 {
                    best = (self.threat(st, &[n]), c);
                }
            }
        }
        best.1
    }

    /// The biggest safe rectangle with `here` as a corner, as the loop of
    /// vertices from `here` round to `here`.
    fn best_rectangle(&self, st: &State, here: u8) -> Option<Vec<u8>> {
        let (hx, hy) = xy(here);
        let left = (100 - st.turn().min(100)) as i32;
        let mut best: Option<(usize, Vec<u8>)> = None;
        for (sx, sy) in [(1i32, 1i32), (1, -1), (-1, 1), (-1, -1)] {
            for w in 1..=6i32 {
                for h in 1..=6i32 {
                    let (fx, fy) = (i32::from(hx) + sx * w, i32::from(hy) + sy * h);
                    if !(0..=10).contains(&fx) || !(0..=10).contains(&fy) || 2 * (w + h) > left {
                        continue;
                    }
                    // Corners in walking order: along x first.
                    let corners = [
                        (i32::from(hx), i32::from(hy)),
                        (fx, i32::from(hy)),
                        (fx, fy),
                        (i32::from(hx), fy),
                        (i32::from(hx), i32::from(hy)),
                    ];
                    let mut path = vec![here];
                    for k in 0..4 {
                        let (mut x, mut y) = corners[k];
                        let (tx, ty) = corners[k + 1];
                        while (x, y) != (tx, ty) {
                            x += (tx - x).signum();
                            y += (ty - y).signum();
                            path.push(botzone::games::enclosure::vertex(x as u8, y as u8));
                        }
                    }
                    let walkable = path
                        .windows(2)
                        .all(|e| st.interior_owner(e[0], e[1]).is_none());
                    let perimeter = (path.len() - 1) as i32;
                    if !walkable || self.threat(st, &path) <= perimeter {
                        continue;
                    }
                    let (x0, x1) = (i32::from(hx).min(fx), i32::from(hx).max(fx));
                    let (y0, y1) = (i32::from(hy).min(fy), i32::from(hy).max(fy));
                    let mut free = 0;
                    for j in y0..y1 {
                        for i in x0..x1 {
                            if st.owner(i as u8, j as u8).is_none() {
                                free += 1;
                            }
                        }
                    }
                    if free > 0 && best.as_ref().map_or(true, |(f, _)| free > *f) {
                        best = Some((free, path));
                    }
                }
            }
        }
        best.map(|(_, p)| p)
    }
}

fn step(here: u8, next: u8, pen: Pen) -> Command {
    let (hx, hy) = xy(here);
    let (nx, ny) = xy(next);
    Dir::from_delta(i32::from(nx) - i32::from(hx), i32::from(ny) - i32::from(hy))
        .map_or(Command::STAY, |d| Command::new(d, pen))
}

fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

fn main() -> ExitCode {
    let stdin = io::stdin();
    let mut reader = TokenReader::new(stdin.lock());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut bot: Option<Greedy> = None;
    let mut tracker: Option<Tracker> = None;
    loop {
        let result = match reader.read_message() {
            Ok(None) => return ExitCode::SUCCESS,
            Ok(Some(Message::Start(m))) => {
                bot = Some(Greedy {
                    me: m,
                    plan: Vec::new(),
                });
                let grid = [2u8, 5, 8];
                let k = (m * 2 + 1) % 9;
                send(&mut out, &format!("[POS] {} {}", grid[k % 3], grid[k / 3]))
            }
            Ok(Some(Message::Status(status))) => {
                match &mut tracker {
                    None => tracker = Some(Tracker::new(&status)),
                    Some(t) => {
                        for d in t.observe(&status) {
                            eprintln!("enclosure_greedy: STATUS differs: {d}");
                        }
                    }
                }
                let command = match (&mut bot, &tracker) {
                    (Some(b), Some(t)) => b.command(t.state()),
                    _ => {
                        eprintln!("enclosure_greedy: [STATUS] before [START]");
                        Command::STAY
                    }
                };
                send(&mut out, &action_line(command))
            }
            Err(e @ (ProtocolError::Io(_) | ProtocolError::Truncated(_))) => {
                eprintln!("enclosure_greedy: {e}");
                return ExitCode::FAILURE;
            }
            Err(
                e @ ProtocolError::Unexpected {
                    expected: "[START] or [STATUS]",
                    ..
                },
            ) => {
                eprintln!("enclosure_greedy: bad input: {e}");
                Ok(())
            }
            Err(e) => {
                eprintln!("enclosure_greedy: bad input: {e}");
                send(&mut out, &action_line(Command::STAY))
            }
        };
        if let Err(e) = result {
            eprintln!("enclosure_greedy: writing: {e}");
            return ExitCode::FAILURE;
        }
    }
}
