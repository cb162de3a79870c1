//! Enclosure (NOI 2013 圈地为王): four players walk the 11x11 vertices of a
//! 10x10 board, put their pen down, and capture the cells inside the loops
//! they close.
//!
//! The rules are `specs/enclosure.md` of the project, followed step by step:
//! [`State::apply_unchecked`] applies one turn in the spec's order (steps 0
//! to 7), [`State::try_apply`] the same after checking that no command
//! kills its player, and [`State::undo`] takes a turn back. Storage is
//! fixed: no heap allocation in apply, undo, [`State::legal_commands`] or a
//! playout. Everything the game knows is in this folder: the NOI line
//! protocol ([`line_protocol`], the bot's side; [`referee`], the
//! referee's) and a Monte Carlo search ([`search`]).
//!
//! Coordinates: vertex `(x, y)` with `0 <= x, y <= 10`, `x` to the right,
//! `y` downwards. Cell `(i, j)` is the unit square whose top-left corner is
//! vertex `(i, j)`. Internally a vertex is the index `y * 11 + x` and a cell
//! `j * 10 + i`.
//!
//! ```
//! use botzone::games::enclosure::{Command, Dir, Pen, State};
//!
//! let mut s = State::new([(0, 0), (10, 0), (0, 10), (10, 10)]);
//! // Player 0 draws the unit square with top-left corner (0, 0).
//! let walk = [(Dir::Right, Pen::Down), (Dir::Down, Pen::Keep), (Dir::Left, Pen::Keep), (Dir::Up, Pen::Keep)];
//! for (dir, pen) in walk {
//!     s.try_apply(&[Command::new(dir, pen), Command::STAY, Command::STAY, Command::STAY]).unwrap();
//! }
//! assert_eq!(s.owner(0, 0), Some(0));
//! assert_eq!(s.score(0), 10 * 1 * 1 + 4);
//! s.undo();
//! assert_eq!(s.owner(0, 0), None);
//! ```

// Per-player loops index several per-player arrays at once.
#![allow(clippy::needless_range_loop)]

use std::fmt;

use crate::fixed::FixedList;
use crate::games::{Game, Rules, Scoring};
use crate::rng::Rng;

pub mod line_protocol;
pub mod plan;
pub mod referee;
pub mod render;
pub mod search;

/// Vertices per side of the board.
pub const SIDE: usize = 11;
/// Number of vertices.
pub const VERTICES: usize = SIDE * SIDE;
/// Cells per side of the board.
pub const CELL_SIDE: usize = 10;
/// Number of cells.
pub const CELLS: usize = CELL_SIDE * CELL_SIDE;
/// Number of players.
pub const PLAYERS: usize = 4;
/// The game ends after this many turns.
pub const MAX_TURNS: u32 = 100;
/// `stuck` given by a trap (step 4).
pub const TRAP_HOLD: u8 = 5;
/// Points a skill costs.
pub const SKILL_COST: i32 = 10;
/// The owner value of a cell nobody owns.
const NOBODY: u8 = PLAYERS as u8;

/// Room in a player's trail buffer. A trail is a window of the buffer and a
/// new trail starts where the last ended, so that undo never finds an entry
/// overwritten. A turn appends at most two vertices (the pen-down vertex and
/// the move), a resynchronisation from STATUS one more: 3 * 100 turns < 320.
const TRAIL_BUF: usize = 320;

/// History depth: one snapshot per turn, and a game has at most 100 turns.
const HISTORY: usize = MAX_TURNS as usize + 1;

/// Legal commands: pen up, 4 moves with `P = 0`, `1` and `-1` each plus
/// `s 0` and `s 1` = 14, the most any position allows.
pub type Commands = FixedList<Command, 14>;

/// A direction of a command (`u d l r s`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// `u`: y - 1.
    Up,
    /// `d`: y + 1.
    Down,
    /// `l`: x - 1.
    Left,
    /// `r`: x + 1.
    Right,
    /// `s`: no move.
    #[default]
    Stay,
}

impl Dir {
    /// All five, in the order `u d l r s`.
    pub const ALL: [Dir; 5] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right, Dir::Stay];
    /// The number of directions.
    pub const COUNT: usize = 5;
    /// The four moves.
    pub const MOVES: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// A dense index, 0..5 (the place in [`Dir::ALL`]).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The protocol letter.
    pub fn as_char(self) -> char {
        match self {
            Dir::Up => 'u',
            Dir::Down => 'd',
            Dir::Left => 'l',
            Dir::Right => 'r',
            Dir::Stay => 's',
        }
    }

    /// From the protocol letter.
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

    /// The reverse move (`Stay` for `Stay`).
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
            Dir::Stay => Dir::Stay,
        }
    }

    /// `(dx, dy)`.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
            Dir::Stay => (0, 0),
        }
    }

    /// The direction of a unit step `(dx, dy)` (`Stay` for `(0, 0)`).
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

impl TryFrom<char> for Dir {
    type Error = InvalidCommand;
    /// [`Dir::from_char`].
    fn try_from(c: char) -> Result<Dir, InvalidCommand> {
        Dir::from_char(c).ok_or(InvalidCommand)
    }
}

/// Text that is no command (or no part of one): what the `TryFrom`
/// conversions of [`Dir`], [`Pen`] and [`Command`] refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidCommand;

impl fmt::Display for InvalidCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a command (expected `D P`: D one of u d l r s, P one of 0 1 -1)")
    }
}

impl std::error::Error for InvalidCommand {}

/// The pen part of a command (`P`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Pen {
    /// `0`: keep the pen as it is.
    #[default]
    Keep,
    /// `1`: put the pen down (pen up only).
    Down,
    /// `-1`: the skill (pen up, moving only).
    Skill,
}

impl Pen {
    /// All three, in the order `0 1 -1`.
    pub const ALL: [Pen; 3] = [Pen::Keep, Pen::Down, Pen::Skill];
    /// The number of pen parts.
    pub const COUNT: usize = 3;

    /// A dense index, 0..3 (the place in [`Pen::ALL`]).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The protocol number.
    pub fn as_i8(self) -> i8 {
        match self {
            Pen::Keep => 0,
            Pen::Down => 1,
            Pen::Skill => -1,
        }
    }

    /// From the protocol number.
    pub fn from_i8(p: i8) -> Option<Pen> {
        Some(match p {
            0 => Pen::Keep,
            1 => Pen::Down,
            -1 => Pen::Skill,
            _ => return None,
        })
    }
}

impl TryFrom<i8> for Pen {
    type Error = InvalidCommand;
    /// [`Pen::from_i8`].
    fn try_from(p: i8) -> Result<Pen, InvalidCommand> {
        Pen::from_i8(p).ok_or(InvalidCommand)
    }
}

/// One player's command for one turn: `[ACTION] D P`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Command {
    /// The direction.
    pub dir: Dir,
    /// The pen.
    pub pen: Pen,
}

impl Command {
    /// `s 0`: do nothing.
    pub const STAY: Command = Command {
        dir: Dir::Stay,
        pen: Pen::Keep,
    };
    /// `s -1`, a command no rule allows in any state (the skill needs a
    /// move; a drawing player takes no skill), so it kills the player who
    /// gives it (step 0): what the referee plays for an unreadable answer.
    pub const INVALID: Command = Command {
        dir: Dir::Stay,
        pen: Pen::Skill,
    };
    /// The number of commands: every direction with every pen part.
    pub const COUNT: usize = Dir::COUNT * Pen::COUNT;
    /// Every command, in [`Command::index`] order.
    pub const ALL: [Command; Command::COUNT] = {
        let mut all = [Command::STAY; Command::COUNT];
        let mut i = 0;
        while i < Command::COUNT {
            all[i] = Command::new(Dir::ALL[i / Pen::COUNT], Pen::ALL[i % Pen::COUNT]);
            i += 1;
        }
        all
    };

    /// A command.
    pub const fn new(dir: Dir, pen: Pen) -> Self {
        Command { dir, pen }
    }

    /// A dense index, 0..15 (`dir.index() * 3 + pen.index()`, the place in
    /// [`Command::ALL`]).
    #[inline]
    pub const fn index(self) -> usize {
        self.dir.index() * Pen::COUNT + self.pen.index()
    }
}

impl std::str::FromStr for Command {
    type Err = InvalidCommand;
    /// `D P` as after `[ACTION]` (e.g. `r 1`).
    fn from_str(text: &str) -> Result<Command, InvalidCommand> {
        let mut it = text.split_whitespace();
        match (it.next(), it.next(), it.next()) {
            (Some(d), Some(p), None) => Command::from_tokens(d, p).ok_or(InvalidCommand),
            _ => Err(InvalidCommand),
        }
    }
}

impl Command {
    /// The command of the tokens `D` and `P`.
    fn from_tokens(d: &str, p: &str) -> Option<Command> {
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
}

impl fmt::Display for Command {
    /// `D P`, as after `[ACTION]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.dir.as_char(), self.pen.as_i8())
    }
}

/// A player's state as STATUS shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PenState {
    /// `0`: pen up.
    #[default]
    Up,
    /// `1`: pen down, drawing a trail.
    Down,
    /// `-1`: dead.
    Dead,
}

impl PenState {
    /// The protocol number.
    pub fn as_i8(self) -> i8 {
        match self {
            PenState::Up => 0,
            PenState::Down => 1,
            PenState::Dead => -1,
        }
    }

    /// From the protocol number.
    pub fn from_i8(s: i8) -> Option<PenState> {
        Some(match s {
            0 => PenState::Up,
            1 => PenState::Down,
            -1 => PenState::Dead,
            _ => return None,
        })
    }
}

/// The vertex index of `(x, y)`.
#[inline]
pub fn vertex(x: u8, y: u8) -> u8 {
    y * SIDE as u8 + x
}

/// A vertex drawn uniformly from the board, `x` then `y` (each from
/// `0..=10`): the start of the arena's random players (`@random`).
pub fn random_vertex(rng: &mut Rng) -> (u8, u8) {
    let side = SIDE as u32;
    (rng.below(side) as u8, rng.below(side) as u8)
}

/// One [`random_vertex`] per seat, seat by seat, as [`State::new`] takes
/// its starts.
pub fn random_starts(rng: &mut Rng) -> [(i32, i32); PLAYERS] {
    [(); PLAYERS].map(|_| {
        let (x, y) = random_vertex(rng);
        (i32::from(x), i32::from(y))
    })
}

/// The `(x, y)` of a vertex index.
#[inline]
pub fn xy(v: u8) -> (u8, u8) {
    (v % SIDE as u8, v / SIDE as u8)
}

/// The Manhattan distance between two vertices.
pub(crate) fn manhattan(a: u8, b: u8) -> i32 {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    (i32::from(ax) - i32::from(bx)).abs() + (i32::from(ay) - i32::from(by)).abs()
}

#[inline]
fn bit(v: u8) -> u128 {
    1u128 << v
}

/// One player: position, state, trap time, skill cost and trail.
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
    /// The vertex `(x, y)` (where it died, for a dead player).
    pub fn position(&self) -> (u8, u8) {
        xy(self.pos)
    }
    /// The vertex index.
    pub fn vertex(&self) -> u8 {
        self.pos
    }
    /// Pen up, pen down or dead.
    pub fn state(&self) -> PenState {
        self.state
    }
    /// Whether the player is alive.
    pub fn is_alive(&self) -> bool {
        self.state != PenState::Dead
    }
    /// Turns still held by a trap.
    pub fn stuck(&self) -> u8 {
        self.stuck
    }
    /// What skills have cost so far (0, -10, -20, ...).
    pub fn decline(&self) -> i32 {
        self.decline
    }
    /// The last move with the pen down (`Stay` right after a pen-down with
    /// `s`, and while the pen is up).
    pub fn last_dir(&self) -> Dir {
        self.last_dir
    }
    /// Whether vertex `v` is on the trail.
    pub fn on_trail(&self, v: u8) -> bool {
        self.trail_set & bit(v) != 0
    }
    /// The trail's vertices as a bit set (bit `v` for vertex index `v`).
    pub fn trail_set(&self) -> u128 {
        self.trail_set
    }
    /// The trail's length in vertices (0 with the pen up).
    pub fn trail_len(&self) -> usize {
        usize::from(self.trail_end - self.trail_start)
    }
}

/// What undo restores.
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

/// A loop closed this turn (step 5).
#[derive(Clone, Copy, Default)]
struct Loop {
    player: u8,
    /// Cells inside the cycle: bit `i` of `rows[j]` for cell `(i, j)`.
    rows: [u16; CELL_SIDE],
    count: u32,
    /// The cycle's vertices.
    on_cycle: u128,
}

/// The whole game: players, land, traps, turn counter and undo history.
#[derive(Clone)]
pub struct State {
    players: [Player; PLAYERS],
    trails: [[u8; TRAIL_BUF]; PLAYERS],
    /// Owner per cell (`NOBODY` = unowned).
    owner: [u8; CELLS],
    /// Region id per owned cell.
    region: [u8; CELLS],
    region_owner: [u8; CELLS],
    region_area: [u8; CELLS],
    region_count: u8,
    /// Cells in the order they were taken (undo pops them).
    land_log: [u8; CELLS],
    land_len: u8,
    unowned: u8,
    /// Traps with counter 1 and with counter 2.
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
    /// Equal game positions (trails compared by content, history ignored).
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
    /// A new game with the players on the given vertices. A coordinate
    /// outside `0..=10` kills that player, shown at `(0, 0)` (a bad `[POS]`).
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

    /// A new game where `dead[p]` players start dead (a bad `[POS]`).
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
                s.players[p].pos = vertex(positions[p].0.min(10), positions[p].1.min(10));
            }
        }
        s
    }

    /// Player `p`.
    pub fn player(&self, p: usize) -> &Player {
        &self.players[p]
    }

    /// Player `p`'s trail, from the pen-down vertex to the current one
    /// (vertex indices; empty with the pen up).
    pub fn trail(&self, p: usize) -> &[u8] {
        let pl = &self.players[p];
        &self.trails[p][usize::from(pl.trail_start)..usize::from(pl.trail_end)]
    }

    /// Turns played.
    #[inline]
    pub fn turn(&self) -> u32 {
        u32::from(self.turn)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Players alive.
    pub fn alive_count(&self) -> usize {
        self.players.iter().filter(|p| p.is_alive()).count()
    }

    /// The owner of cell `(i, j)`.
    pub fn owner(&self, i: u8, j: u8) -> Option<usize> {
        let o = self.owner[usize::from(j) * CELL_SIDE + usize::from(i)];
        (o != NOBODY).then_some(usize::from(o))
    }

    /// The region id of cell `(i, j)` (ids count up from 0 in the order the
    /// regions were made), if owned.
    pub fn region(&self, i: u8, j: u8) -> Option<usize> {
        let c = usize::from(j) * CELL_SIDE + usize::from(i);
        (self.owner[c] != NOBODY).then_some(usize::from(self.region[c]))
    }

    /// The regions so far as `(owner, area)`, in order of creation.
    pub fn regions(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        (0..usize::from(self.region_count)).map(|r| {
            (
                usize::from(self.region_owner[r]),
                u32::from(self.region_area[r]),
            )
        })
    }

    /// Cells nobody owns.
    pub fn unowned(&self) -> usize {
        usize::from(self.unowned)
    }

    /// The trap counter on vertex `(x, y)` (0 for none).
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

    /// The vertices with a trap as a bit set (bit `v` for vertex index `v`).
    pub fn trap_set(&self) -> u128 {
        self.trap1 | self.trap2
    }

    /// The traps as `(x, y, counter)` in increasing `(y, x)` order.
    pub fn traps(&self) -> impl Iterator<Item = (u8, u8, u8)> + '_ {
        let all = self.trap_set();
        (0..VERTICES as u8)
            .filter(move |&v| all & bit(v) != 0)
            .map(move |v| {
                let (x, y) = xy(v);
                (x, y, if self.trap2 & bit(v) != 0 { 2 } else { 1 })
            })
    }

    /// Player `p`'s score: `10 * sum(area^2) + (4 - p) + decline`.
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

    /// Every player's score.
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

    /// The player whose region the edge `a`-`b` (adjacent vertices) is
    /// interior to, if any: both cells it separates are in one region.
    pub fn interior_owner(&self, a: u8, b: u8) -> Option<usize> {
        let (ax, ay) = xy(a);
        let (bx, by) = xy(b);
        let (c1, c2) = if ax == bx {
            // Vertical edge (x, y)-(x, y+1): cells (x-1, y) and (x, y).
            let (x, y) = (usize::from(ax), usize::from(ay.min(by)));
            if x == 0 || x >= CELL_SIDE {
                return None;
            }
            (y * CELL_SIDE + x - 1, y * CELL_SIDE + x)
        } else {
            // Horizontal edge (x, y)-(x+1, y): cells (x, y-1) and (x, y).
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

    /// The vertex one `dir` step from `v`, if on the board.
    #[inline]
    pub fn neighbour(v: u8, dir: Dir) -> Option<u8> {
        let (x, y) = xy(v);
        let (dx, dy) = dir.delta();
        let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
        on_board(nx, ny).then(|| vertex(nx as u8, ny as u8))
    }

    /// Whether `c` would kill player `p` by itself this turn (steps 0 and
    /// 1: a bad command, off the board, a forbidden edge). A trapped or
    /// dead player's command never kills.
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
                if c.pen != Pen::Keep || (c.dir != Dir::Stay && c.dir == pl.last_dir.opposite()) {
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

    /// Replaces `out` with player `p`'s commands that do not kill it by
    /// themselves (see [`State::kills_itself`]); `[s 0]` for a dead or
    /// trapped player or once the game is over.
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

    /// Starts a trail at the current vertex (pen down).
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

    /// Gives `p` the cells in `rows` (all unowned), one region per
    /// 4-connected component.
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
                    let (ci, cj) = (usize::from(c) % CELL_SIDE, usize::from(c) / CELL_SIDE);
                    let mut visit = |ni: usize, nj: usize, rows: &mut [u16; CELL_SIDE]| {
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

    /// The loop player `p` closes by revisiting trail entry `k`.
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
                // A vertical edge at column x toggles the cells left of it in
                // its row: a ray to the right from a cell centre crosses it.
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
        if x == 0 || y == 0 || usize::from(x) >= CELL_SIDE || usize::from(y) >= CELL_SIDE {
            return false;
        }
        lp.rows[usize::from(y)] & (1 << x) != 0
    }

    /// Plays one turn: `joint[p]` is player `p`'s command, whatever it is
    /// (a command that breaks a rule kills its player, as the referee
    /// rules; [`Command::INVALID`] stands for an unreadable answer). The
    /// commands of dead and trapped players are ignored. On a finished game
    /// this records an empty turn (so that [`State::undo`] still pairs with
    /// it) while the history has room (101 turns), and then does nothing.
    ///
    /// # Panics
    /// When `joint` has fewer than four commands.
    pub fn apply_unchecked(&mut self, joint: &[Command]) {
        let joint = [joint[0], joint[1], joint[2], joint[3]];
        let snap = self.snapshot();
        // The history holds a whole game (100 turns and one more): only a
        // caller that keeps stepping a finished game fills it, and then
        // nothing happens.
        if self.history.try_push(snap).is_err() || self.over {
            return;
        }
        let mut cmd = [Command::STAY; PLAYERS];
        // Step 0: bad commands.
        for p in 0..PLAYERS {
            let pl = self.players[p];
            if !pl.is_alive() || pl.stuck > 0 {
                continue;
            }
            let c = joint[p];
            let bad = match pl.state {
                PenState::Up => c.pen == Pen::Skill && c.dir == Dir::Stay,
                _ => c.pen != Pen::Keep || (c.dir != Dir::Stay && c.dir == pl.last_dir.opposite()),
            };
            if bad {
                self.kill(p);
            } else {
                cmd[p] = c;
            }
        }
        // Step 1: off the board, forbidden edges.
        let mut target = [0u8; PLAYERS];
        for p in 0..PLAYERS {
            let pl = self.players[p];
            if !pl.is_alive() || cmd[p].dir == Dir::Stay {
                continue;
            }
            match State::neighbour(pl.pos, cmd[p].dir) {
                None => self.kill(p),
                Some(to) => {
                    let pen_down = pl.state == PenState::Down || cmd[p].pen == Pen::Down;
                    match self.interior_owner(pl.pos, to) {
                        Some(o) if pen_down || o != p => self.kill(p),
                        _ => target[p] = to,
                    }
                }
            }
        }
        // Step 2: moves; trails grow or close.
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
                    closed[p] = self.trail(p).iter().position(|&v| v == to).unwrap_or(0);
                } else {
                    self.push_trail(p, to);
                }
            }
        }
        // Step 3: traps age, then skills drop new ones.
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
        // Step 4: traps catch.
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
        // Step 5: loops, smallest first.
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
        // Step 6: interruptions, all at once.
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
        // Step 7: trap time passes.
        for pl in self.players.iter_mut() {
            if pl.stuck > 0 {
                pl.stuck -= 1;
            }
        }
        self.turn += 1;
        self.check_end();
    }

    /// Ends the game when at most one player is alive, 100 turns have been
    /// played or no cell is unowned; a sole survivor takes the unowned cells.
    fn check_end(&mut self) {
        let alive = self.alive_count();
        if alive <= 1 || u32::from(self.turn) >= MAX_TURNS || self.unowned == 0 {
            self.over = true;
            if alive == 1 && self.unowned > 0 {
                let p = self.players.iter().position(|p| p.is_alive()).unwrap_or(0);
                let rows = self.unowned_rows();
                self.take_cells(p, rows);
            }
        }
    }

    /// Takes back the last turn. Returns `false` when there is none.
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
        // The turn counter moved only if the turn was played.
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

    /// Forgets the undo history (the position stays): what a bot that
    /// follows a game turn by turn does before searching.
    pub fn forget_history(&mut self) {
        self.history.clear();
    }

    /// Turns that [`State::undo`] can take back.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// A uniformly random command among [`State::legal_commands`].
    pub fn random_command(&self, p: usize, rng: &mut Rng) -> Command {
        let mut cs = Commands::new();
        self.legal_commands(p, &mut cs);
        cs[rng.index(cs.len())]
    }

    /// Plays uniformly random legal commands until the game ends; returns
    /// the number of turns played (undo them to get back).
    pub fn random_playout(&mut self, rng: &mut Rng) -> u32 {
        let mut turns = 0;
        while !self.over {
            let mut joint = [Command::STAY; PLAYERS];
            for (p, c) in joint.iter_mut().enumerate() {
                *c = self.random_command(p, rng);
            }
            self.apply_unchecked(&joint);
            turns += 1;
        }
        turns
    }

    /// Plays one turn after checking it: the game goes on, `joint` has a
    /// command for each of the four players, and no command kills its
    /// player by itself ([`State::kills_itself`]: the commands of
    /// [`State::legal_commands`]; a dead or trapped player's command is
    /// ignored, whatever it is). The state is untouched on error.
    ///
    /// # Errors
    /// [`TurnError`]: the game is over, the joint has the wrong length, or
    /// the first player whose command would kill it.
    pub fn try_apply(&mut self, joint: &[Command]) -> Result<(), TurnError> {
        if self.over {
            return Err(TurnError::GameOver { turn: self.turn() });
        }
        if joint.len() != PLAYERS {
            return Err(TurnError::Players { found: joint.len() });
        }
        for (player, &command) in joint.iter().enumerate() {
            if self.kills_itself(player, command) {
                return Err(TurnError::Invalid { player, command });
            }
        }
        self.apply_unchecked(joint);
        Ok(())
    }

    /// Checks the position's consistency: land, regions and the count of
    /// free cells against each other, trails against their sets and their
    /// players, traps on distinct vertices, and the end of the game where
    /// the rules put it.
    ///
    /// # Errors
    /// The first broken invariant, described.
    pub fn check_invariants(&self) -> Result<(), String> {
        let owned = self.owner.iter().filter(|&&o| o != NOBODY).count();
        if owned + usize::from(self.unowned) != CELLS || owned != usize::from(self.land_len) {
            return Err(format!(
                "{owned} owned cells, {} free, {} in the land log",
                self.unowned, self.land_len
            ));
        }
        let mut area = [0u32; CELLS];
        for c in 0..CELLS {
            let o = self.owner[c];
            if o == NOBODY {
                continue;
            }
            let r = usize::from(self.region[c]);
            if r >= usize::from(self.region_count) || self.region_owner[r] != o {
                return Err(format!(
                    "cell {c} of player {o} is in region {r} of another"
                ));
            }
            area[r] += 1;
        }
        for (r, (_, a)) in self.regions().enumerate() {
            if area[r] != a {
                return Err(format!("region {r} has area {a} but {} cells", area[r]));
            }
        }
        for p in 0..PLAYERS {
            let pl = &self.players[p];
            let trail = self.trail(p);
            let set = trail.iter().fold(0u128, |s, &v| s | bit(v));
            if set != pl.trail_set {
                return Err(format!("player {p}'s trail and its set differ"));
            }
            let drawing = pl.state == PenState::Down;
            if drawing == trail.is_empty() || (drawing && trail.last() != Some(&pl.pos)) {
                return Err(format!(
                    "player {p} (state {}) has a trail of {} vertices ending away from it",
                    pl.state.as_i8(),
                    trail.len()
                ));
            }
            if usize::from(pl.pos) >= VERTICES || pl.stuck > TRAP_HOLD {
                return Err(format!("player {p} at vertex {} held {}", pl.pos, pl.stuck));
            }
        }
        if self.trap1 & self.trap2 != 0 {
            return Err("a vertex holds two traps".into());
        }
        let ends = self.alive_count() <= 1 || self.turn() >= MAX_TURNS || self.unowned == 0;
        if self.over != ends {
            return Err(format!(
                "turn {}: over is {} where the rules say {ends}",
                self.turn(),
                self.over
            ));
        }
        Ok(())
    }

    /// Overwrites what STATUS shows (positions, states, trap time, skill
    /// cost, traps) with the given values, for a bot whose prediction
    /// differed. A player shown pen down that the simulator has pen up gets
    /// a trail of its current vertex; one shown pen up loses its trail.
    /// Clears the undo history.
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
    /// An ASCII picture: vertex rows show players (`0`-`3`, `x` dead), trap
    /// counters (`1`, `2` as `^`/`*`), trails (`+`) and `.`; cell rows show
    /// owners as `A`-`D` between the vertices.
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
    #[inline]
    fn apply_unchecked(&mut self, joint: &[Command]) {
        State::apply_unchecked(self, joint);
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

/// The start vertices `(x, y)` of players 0..3 (a coordinate outside
/// `0..=10` kills that player: a bad `[POS]`).
pub type Starts = [(i32, i32); PLAYERS];

impl Rules for State {
    const NAME: &'static str = "enclosure";
    const SEATS: usize = PLAYERS;
    const MAX_TURNS: u32 = MAX_TURNS;
    const SCORING: Scoring = Scoring::Ranked;
    const LEGEND: &'static str = "vertex rows: 0-3 a player, x a dead player, + a trail, ^ and * \
        traps (counter 1, 2), . a free vertex; cell rows: A-D the land of players 0-3;\n\
        commands D P: D the direction u/d/l/r or s to stay, P 0 keep the pen, 1 put it down, \
        -1 the skill (drop a trap); - no command";

    type Setup = Starts;
    type Error = TurnError;

    /// Four random vertices (the players choose their start: this is what
    /// the arena's random players and the benchmark start from).
    fn setup_from_seed(seed: u32) -> Starts {
        random_starts(&mut Rng::new(u64::from(seed)))
    }
    fn start(starts: &Starts) -> State {
        State::new(*starts)
    }
    fn turn(&self) -> u32 {
        State::turn(self)
    }
    fn try_apply(&mut self, joint: &[Command]) -> Result<(), TurnError> {
        State::try_apply(self, joint)
    }
    fn random_playout(&mut self, rng: &mut Rng) -> u32 {
        State::random_playout(self, rng)
    }
    fn check_invariants(&self) -> Result<(), String> {
        State::check_invariants(self)
    }
}

/// Why [`State::try_apply`] refused a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over (after this many turns): no turn can follow.
    GameOver {
        /// Turns played.
        turn: u32,
    },
    /// The joint turn does not hold one command per player.
    Players {
        /// The commands given.
        found: usize,
    },
    /// A player's command would kill it by itself (a bad command, off the
    /// board, a forbidden edge).
    Invalid {
        /// The player.
        player: usize,
        /// The command.
        command: Command,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::GameOver { turn } => {
                write!(f, "the game ended after {turn} turns: no turn can follow")
            }
            TurnError::Players { found } => {
                write!(
                    f,
                    "a turn takes {PLAYERS} commands, one per player; found {found}"
                )
            }
            TurnError::Invalid { player, command } => write!(
                f,
                "player {player}'s command `{command}` would kill it: a bad command, a move off \
                 the board or across land"
            ),
        }
    }
}

impl std::error::Error for TurnError {}
