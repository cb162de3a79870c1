//! Pacman2 (吃豆人2), Botzone's four-player simultaneous game, exactly as the
//! judge plays it. Everything the game knows is in this folder:
//!
//! - [`Map`]: the judge's `initdata` (size, the four constants, `static` and
//!   `content`), parsed from JSON ([`Map::from_json`]), written back
//!   ([`Map::to_json`]) or drawn from a seed like the judge
//!   ([`Map::generate`], `mapgen.rs`).
//! - [`Pacman2`]: the state. [`Pacman2::try_apply`] plays one legal joint
//!   turn and [`Pacman2::apply_unchecked`] any joint turn exactly as the
//!   judge's `NextTurn` (invalid actions kill, and, the one rule where the
//!   judge and the wiki's sample differ, a beam also hits a player who died
//!   this turn from an invalid action while a live player shares the cell);
//!   [`Pacman2::undo`] takes a turn back like `PopState`, from a backtrack
//!   stack in fixed storage. Legal actions go into a fixed-capacity list;
//!   nothing in apply, undo, legal actions or a random playout allocates.
//! - Botzone's scores ([`Pacman2::final_scores`]) and an ASCII rendering
//!   (`Display`, like the sample's `DebugPrint`).
//! - [`protocol`]: the bot side of Botzone's protocol (requests, answers, a
//!   tracker); `judge.rs`: the judge ([`crate::games::botzone::BotzoneGame`],
//!   with the turn events of its display); [`policy`]: rollout helpers.
//!
//! Internally the field is a row-major cell index (`row * width + col`,
//! at most 121 cells), fruit are 128-bit boards, and every cell's wrapped
//! neighbours and beam paths are precomputed.
//!
//! ```
//! use botzone::games::pacman2::{Action, Map, Pacman2};
//!
//! let map = Map::generate(1);
//! let mut game = Pacman2::new(&map);
//! game.try_apply(&[Action::Stay; 4]).unwrap();
//! assert_eq!(game.turn(), 1);
//! // A shot needs more strength than the skill costs: not legal now (the
//! // judge would play it, and the player would die: `apply_unchecked`).
//! assert!(game.try_apply(&[Action::LeftShoot; 4]).is_err());
//! assert_eq!(game.turn(), 1);
//! game.undo();
//! assert_eq!(game.turn(), 0);
//! ```

use std::fmt;

use crate::fixed::FixedList;
use crate::games::{Game, PeerArg, Rules, Scoring};
use crate::json::Value;
use crate::rng::Rng;

pub mod judge;
mod mapgen;
pub mod policy;
pub mod protocol;
pub mod render;

/// Seats in a game.
pub const PLAYERS: usize = 4;
/// The longest side of a field: the judge draws sides in `[6, 12)` and
/// accepts no larger one from `initdata`.
pub const MAX_SIDE: usize = 11;
/// Cells of the largest field (11 x 11 = 121 fit a 128-bit board).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// A game ends after this many turns at the latest.
pub const MAX_TURNS: u32 = 100;
/// The backtrack stack's depth: one entry per turn of the longest game.
const HISTORY: usize = MAX_TURNS as usize;

/// Wall on the north side of a cell (`static` bit).
pub const WALL_NORTH: u8 = 1;
/// Wall on the east side.
pub const WALL_EAST: u8 = 2;
/// Wall on the south side.
pub const WALL_SOUTH: u8 = 4;
/// Wall on the west side.
pub const WALL_WEST: u8 = 8;
/// A fruit generator (`static` bit).
pub const GENERATOR: u8 = 16;
/// A small fruit (`content` bit; players are `1 << id`).
pub const SMALL_FRUIT: u8 = 16;
/// A large fruit (`content` bit).
pub const LARGE_FRUIT: u8 = 32;

/// Row and column steps of the eight directions the judge uses (up, right,
/// down, left, then the diagonals the generators fill).
const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];
const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];

/// One player's action in one turn, as the judge codes it: -1 stay, 0..=3
/// move up, right, down, left, 4..=7 shoot up, right, down, left. Any other
/// code (the judge sends -10 for an invalid answer) is invalid and kills
/// the player, as do moves into a wall and shots without the strength.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i8)]
pub enum Action {
    /// Stay where you are (always legal).
    #[default]
    Stay = -1,
    /// Move up (row - 1).
    Up = 0,
    /// Move right (column + 1).
    Right = 1,
    /// Move down (row + 1).
    Down = 2,
    /// Move left (column - 1).
    Left = 3,
    /// Shoot a beam upwards.
    UpShoot = 4,
    /// Shoot a beam to the right.
    RightShoot = 5,
    /// Shoot a beam downwards.
    DownShoot = 6,
    /// Shoot a beam to the left.
    LeftShoot = 7,
    /// What the judge sends for an answer it could not accept (code -10),
    /// and what any code outside `-1..=7` reads as.
    Invalid = -10,
}

impl Action {
    /// The nine actions a player may choose, in the judge's order.
    pub const ALL: [Action; 9] = [
        Action::Stay,
        Action::Up,
        Action::Right,
        Action::Down,
        Action::Left,
        Action::UpShoot,
        Action::RightShoot,
        Action::DownShoot,
        Action::LeftShoot,
    ];

    /// The number of actions a player may choose ([`Action::ALL`]).
    pub const COUNT: usize = 9;

    /// A dense index: `code() + 1` (0..9, the place in [`Action::ALL`]) for
    /// the nine actions, [`Action::COUNT`] for [`Action::Invalid`], which is
    /// not one of them.
    #[inline]
    pub const fn index(self) -> usize {
        let code = self as i8;
        if code >= -1 && code <= 7 {
            (code + 1) as usize
        } else {
            Action::COUNT
        }
    }

    /// The action of a wire code; codes outside `-1..=7` become
    /// [`Action::Invalid`] (which the judge treats as death, like any
    /// invalid answer).
    pub fn from_code(code: i64) -> Action {
        if (-1..=7).contains(&code) {
            Action::ALL[(code + 1) as usize]
        } else {
            Action::Invalid
        }
    }

    /// The wire code (-1..=7, or -10 for an invalid action).
    pub fn code(self) -> i8 {
        self as i8
    }

    /// Whether this moves one cell.
    pub fn is_move(self) -> bool {
        (0..4).contains(&self.code())
    }

    /// Whether this shoots a beam.
    pub fn is_shot(self) -> bool {
        (4..8).contains(&self.code())
    }
}

/// A wire code outside `-1..=7` (what [`Action`]'s `TryFrom<i64>` refuses;
/// [`Action::from_code`] reads it as [`Action::Invalid`] instead, as the
/// judge does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidCode(pub i64);

impl fmt::Display for InvalidCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a Pacman2 action (expected -1..=7)", self.0)
    }
}

impl std::error::Error for InvalidCode {}

impl TryFrom<i64> for Action {
    type Error = InvalidCode;
    fn try_from(code: i64) -> Result<Action, InvalidCode> {
        match Action::from_code(code) {
            Action::Invalid => Err(InvalidCode(code)),
            action => Ok(action),
        }
    }
}

/// Legal actions of one player: at most the nine actions there are.
pub type Actions = FixedList<Action, 9>;

/// The game's constants, from `initdata` (the judge always uses 20, 10, 10
/// and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constants {
    /// Turns between two fruit waves of the generators.
    pub generator_interval: i32,
    /// Turns a large fruit's boost lasts.
    pub large_fruit_duration: i32,
    /// Strength a large fruit's boost gives.
    pub large_fruit_enhancement: i32,
    /// Strength a shot costs (a hit moves `1.5` times this).
    pub skill_cost: i32,
}

impl Default for Constants {
    fn default() -> Self {
        Constants {
            generator_interval: 20,
            large_fruit_duration: 10,
            large_fruit_enhancement: 10,
            skill_cost: 4,
        }
    }
}

/// A field as the judge sends it in `initdata`: size, constants, walls and
/// generators (`static`), players and fruit (`content`), `[row][col]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The seed the judge drew it from, when known.
    pub seed: Option<u32>,
    /// Columns (1..=11).
    pub width: usize,
    /// Rows (1..=11).
    pub height: usize,
    /// The game's constants.
    pub constants: Constants,
    /// Walls ([`WALL_NORTH`]...) and [`GENERATOR`], `[row][col]`.
    pub statics: [[u8; MAX_SIDE]; MAX_SIDE],
    /// Players (`1 << id`), [`SMALL_FRUIT`] and [`LARGE_FRUIT`], `[row][col]`.
    pub content: [[u8; MAX_SIDE]; MAX_SIDE],
}

/// Why a [`Map`] or a request could not be read; the message names the
/// offending part (e.g. `static[2][3]: expected an integer in 0..=31`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(String);

impl InputError {
    fn new(msg: impl Into<String>) -> Self {
        InputError(msg.into())
    }
    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

fn int_field(
    v: &Value,
    name: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, InputError> {
    match v.get(name) {
        None => Err(InputError::new(format!("{name}: missing"))),
        Some(x) => match x.as_i64() {
            Some(n) if range.contains(&n) => Ok(n),
            _ => Err(InputError::new(format!(
                "{name}: expected an integer in {}..={}, found {}",
                range.start(),
                range.end(),
                x
            ))),
        },
    }
}

fn grid_field(
    v: &Value,
    name: &str,
    width: usize,
    height: usize,
    max: u8,
) -> Result<[[u8; MAX_SIDE]; MAX_SIDE], InputError> {
    let rows = match v.get(name) {
        None => return Err(InputError::new(format!("{name}: missing"))),
        Some(x) => x.as_array().ok_or_else(|| {
            InputError::new(format!(
                "{name}: expected an array of {height} rows, found {}",
                x.kind()
            ))
        })?,
    };
    if rows.len() != height {
        return Err(InputError::new(format!(
            "{name}: expected {height} rows (the height), found {}",
            rows.len()
        )));
    }
    let mut out = [[0u8; MAX_SIDE]; MAX_SIDE];
    for (r, row) in rows.iter().enumerate() {
        let cols = row.as_array().ok_or_else(|| {
            InputError::new(format!(
                "{name}[{r}]: expected an array, found {}",
                row.kind()
            ))
        })?;
        if cols.len() != width {
            return Err(InputError::new(format!(
                "{name}[{r}]: expected {width} cells (the width), found {}",
                cols.len()
            )));
        }
        for (c, cell) in cols.iter().enumerate() {
            match cell.as_i64() {
                Some(n) if (0..=i64::from(max)).contains(&n) => out[r][c] = n as u8,
                _ => {
                    return Err(InputError::new(format!(
                        "{name}[{r}][{c}]: expected an integer in 0..={max}, found {cell}"
                    )))
                }
            }
        }
    }
    Ok(out)
}

impl Map {
    /// The map the judge draws for `seed` (`{"initdata":{"seed":N}}`),
    /// bit for bit (glibc's `rand()`, see `crate::crand`).
    pub fn generate(seed: u32) -> Map {
        mapgen::generate(seed)
    }

    /// The map the judge draws for `{"initdata":{"seed":N,"width":W,"height":H}}`:
    /// both sides are drawn as for [`Map::generate`], then a given side in
    /// `6..12` replaces the drawn one (a side outside that range is ignored,
    /// as the judge ignores it).
    pub fn generate_sized(seed: u32, width: Option<usize>, height: Option<usize>) -> Map {
        mapgen::generate_sized(seed, width, height)
    }

    /// Reads a map from the judge's `initdata` (or a first request, which
    /// adds `"id"`): `width`, `height`, the four constants (20, 10, 10, 4
    /// when missing), `static` and `content`; `seed` is optional.
    ///
    /// # Errors
    /// A missing or malformed field, a side outside `1..=11`, or a content
    /// grid that does not hold each of the four players exactly once.
    pub fn from_json(v: &Value) -> Result<Map, InputError> {
        if v.as_object().is_none() {
            return Err(InputError::new(format!(
                "expected an object, found {}",
                v.kind()
            )));
        }
        let width = int_field(v, "width", 1..=MAX_SIDE as i64)? as usize;
        let height = int_field(v, "height", 1..=MAX_SIDE as i64)? as usize;
        let defaults = Constants::default();
        let constant = |name: &str, default: i32| -> Result<i32, InputError> {
            if v.get(name).is_none() {
                Ok(default)
            } else {
                Ok(int_field(v, name, 0..=1_000_000)? as i32)
            }
        };
        let constants = Constants {
            generator_interval: constant("GENERATOR_INTERVAL", defaults.generator_interval)?,
            large_fruit_duration: constant("LARGE_FRUIT_DURATION", defaults.large_fruit_duration)?,
            large_fruit_enhancement: constant(
                "LARGE_FRUIT_ENHANCEMENT",
                defaults.large_fruit_enhancement,
            )?,
            skill_cost: constant("SKILL_COST", defaults.skill_cost)?,
        };
        if constants.generator_interval < 1 {
            return Err(InputError::new("GENERATOR_INTERVAL: expected at least 1"));
        }
        let seed = match v.get("seed") {
            None | Some(Value::Null) => None,
            Some(s) => Some(
                s.as_i64()
                    .filter(|n| (0..=i64::from(u32::MAX)).contains(n))
                    .ok_or_else(|| {
                        InputError::new(format!("seed: expected an unsigned integer, found {s}"))
                    })? as u32,
            ),
        };
        let statics = grid_field(v, "static", width, height, 31)?;
        let content = grid_field(v, "content", width, height, 63)?;
        let map = Map {
            seed,
            width,
            height,
            constants,
            statics,
            content,
        };
        map.check_players()?;
        Ok(map)
    }

    fn check_players(&self) -> Result<(), InputError> {
        for p in 0..PLAYERS {
            let mut seen = 0;
            for r in 0..self.height {
                for c in 0..self.width {
                    if self.content[r][c] & (1 << p) != 0 {
                        seen += 1;
                    }
                }
            }
            if seen != 1 {
                return Err(InputError::new(format!(
                    "content: player {p} must be on exactly one cell, found on {seen}"
                )));
            }
        }
        Ok(())
    }

    /// The judge's `initdata` as one compact JSON line, fields in the
    /// judge's order (`GENERATOR_INTERVAL`, `LARGE_FRUIT_DURATION`,
    /// `LARGE_FRUIT_ENHANCEMENT`, `SKILL_COST`, `content`, `height`, `seed`
    /// when known, `static`, `width`).
    pub fn to_json(&self) -> String {
        self.to_json_with_id(None)
    }

    /// Like [`Map::to_json`], with the player's `"id"` added first: the
    /// first request a bot receives.
    #[allow(clippy::needless_range_loop)] // rows and columns of a grid
    pub fn to_json_with_id(&self, id: Option<usize>) -> String {
        use std::fmt::Write as _;
        let grid = |out: &mut String, g: &[[u8; MAX_SIDE]; MAX_SIDE]| {
            out.push('[');
            for r in 0..self.height {
                if r > 0 {
                    out.push(',');
                }
                out.push('[');
                for c in 0..self.width {
                    if c > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{}", g[r][c]);
                }
                out.push(']');
            }
            out.push(']');
        };
        let k = &self.constants;
        let mut out = String::with_capacity(1024);
        out.push('{');
        if let Some(id) = id {
            let _ = write!(out, "\"id\":{id},");
        }
        let _ = write!(
            out,
            "\"GENERATOR_INTERVAL\":{},\"LARGE_FRUIT_DURATION\":{},\"LARGE_FRUIT_ENHANCEMENT\":{},\"SKILL_COST\":{},\"content\":",
            k.generator_interval, k.large_fruit_duration, k.large_fruit_enhancement, k.skill_cost
        );
        grid(&mut out, &self.content);
        let _ = write!(out, ",\"height\":{}", self.height);
        if let Some(seed) = self.seed {
            let _ = write!(out, ",\"seed\":{seed}");
        }
        out.push_str(",\"static\":");
        grid(&mut out, &self.statics);
        let _ = write!(out, ",\"width\":{}}}", self.width);
        out
    }
}

/// One player as the judge keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Row of the cell (kept where the player died).
    pub row: usize,
    /// Column of the cell.
    pub col: usize,
    /// Strength, including a large fruit's boost (0 once dead, except a
    /// player killed by an invalid action and then hit by a beam that turn,
    /// who keeps the negative strength, as on the judge).
    pub strength: i32,
    /// Turns of large-fruit boost left.
    pub power_up_left: i32,
    /// Whether the player is dead.
    pub dead: bool,
}

/// Everything a turn changes (80 bytes), copied onto the backtrack stack
/// before each turn: restoring a copy is both simpler and faster than
/// replaying the sample's per-turn deltas backwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Dynamic {
    /// Cells with a small fruit.
    small: Cells,
    /// Cells with a large fruit.
    large: Cells,
    strength: [i32; PLAYERS],
    power_up_left: [i32; PLAYERS],
    generator_turn_left: i32,
    small_fruit_count: i32,
    cell: [u8; PLAYERS],
    /// Bit `p` set while player `p` is alive.
    alive: u8,
    /// Bit `p` set while player `p`'s large-fruit boost lasts
    /// (`power_up_left[p] > 0`).
    boosted: u8,
}

/// The unchanging part of a field, with precomputed tables (indexed by
/// cell, `row * width + col`).
#[derive(Clone)]
struct Board {
    width: u8,
    height: u8,
    constants: Constants,
    /// The strength a beam hit moves: `SKILL_COST * 1.5` (exact when the
    /// cost is even; odd costs take the judge's floating-point path).
    hit: i32,
    statics: [u8; 128],
    /// Where each action code + 1 (stay, four moves, four shots) leads,
    /// wrapping around the edges; staying and shooting stay put.
    dest: [[u8; 16]; 128],
    /// Bit `code + 1` set for the stay and move codes valid on this cell.
    valid: [u16; 128],
    /// Stay, the moves without a wall, then the four shots, each as
    /// `code + 1` in byte 0 and the cell it leads to in byte 2; byte 3 of
    /// the first holds the number of stays and moves. A random valid action
    /// is `roll[cell][below(stays and moves + 4 if strong)]`.
    roll: [[u32; 16]; 128],
    /// Where code + 1 leads from this cell, for a weak and a strong
    /// player (`[cell][strong][code + 1]`), `0xff` for an invalid action.
    step: [[[u8; 16]; 2]; 128],
    /// Cells a beam from this cell passes, per direction.
    beam: [[Cells; 4]; 128],
    /// Cells the generators fill (no generator cell).
    spawn: Cells,
    /// Each cell's own bit.
    bits: [Cells; 128],
}

/// A Pacman2 game: the field, the players, and the turns played so far
/// (which [`Pacman2::undo`] takes back).
#[derive(Clone)]
pub struct Pacman2 {
    board: Board,
    cur: Dynamic,
    /// Turns played: `history[..turn]` holds the state before each.
    turn: usize,
    history: [Dynamic; HISTORY],
}

impl fmt::Debug for Pacman2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pacman2 {{ turn: {}, players: {:?} }}",
            self.turn(),
            self.players()
        )
    }
}

impl PartialEq for Pacman2 {
    /// Same field, same current state and same history.
    fn eq(&self, other: &Self) -> bool {
        let n = self.turn;
        self.turn == other.turn
            && self.board.width == other.board.width
            && self.board.height == other.board.height
            && self.board.statics == other.board.statics
            && self.board.constants == other.board.constants
            && self.cur == other.cur
            && self.history[..n] == other.history[..n]
    }
}

#[inline(always)]
fn bit(cell: u8) -> u128 {
    1u128 << (cell & 127)
}

/// A set of cells as two 64-bit words (cell `i` is bit `i % 64` of word
/// `i / 64`): one shift per test, where a `u128` needs several.
type Cells = [u64; 2];

#[inline(always)]
fn words(x: u128) -> Cells {
    [x as u64, (x >> 64) as u64]
}

#[inline(always)]
fn has(c: &Cells, cell: u8) -> bool {
    (c[(cell >> 6) as usize & 1] >> (cell & 63)) & 1 != 0
}

#[inline(always)]
fn set(c: &mut Cells, cell: u8) {
    c[(cell >> 6) as usize & 1] |= 1 << (cell & 63);
}

/// `0x80` in each byte of `x` that is zero (exact per byte: no borrow
/// crosses lanes).
#[inline(always)]
fn zero_lanes(x: u32) -> u32 {
    !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x) & 0x8080_8080
}

/// Bit `p` for each byte lane `p` of `x` whose top bit is set.
#[inline(always)]
fn lane_bits(x: u32) -> u8 {
    ((((x >> 7) & 0x0101_0101).wrapping_mul(0x0102_0408)) >> 24) as u8 & 15
}

/// `0xff` in byte lane `p` for each bit `p` of `bits` (bits 0..4).
#[inline(always)]
fn byte_masks(bits: u8) -> u32 {
    ((u32::from(bits & 15).wrapping_mul(0x0020_4081)) & 0x0101_0101).wrapping_mul(0xff)
}

/// The players' cells as four byte lanes, a dead player's lane replaced
/// by `0x80 | p` (no cell, and distinct), so equal lanes are live players
/// on one cell.
#[inline(always)]
fn lanes(cell: [u8; PLAYERS], alive: u8) -> u32 {
    let m = byte_masks(alive);
    (u32::from_le_bytes(cell) & m) | (0x8382_8180 & !m)
}

/// `0x80` in the lanes equal to another lane.
#[inline(always)]
fn shared_lanes(c: u32) -> u32 {
    let e1 = zero_lanes(c ^ c.rotate_right(8));
    let e2 = zero_lanes(c ^ c.rotate_right(16));
    e1 | e1.rotate_left(8) | e2
}

impl Pacman2 {
    /// The start of a game on `map` (every player with strength 1).
    pub fn new(map: &Map) -> Pacman2 {
        let (w, h) = (map.width, map.height);
        let mut board = Board {
            width: w as u8,
            height: h as u8,
            constants: map.constants,
            hit: map.constants.skill_cost * 3 / 2,
            statics: [0; 128],
            dest: [[0; 16]; 128],
            valid: [0; 128],
            roll: [[0; 16]; 128],
            beam: [[[0; 2]; 4]; 128],
            spawn: [0; 2],
            bits: [[0; 2]; 128],
            step: [[[0xff; 16]; 2]; 128],
        };
        let idx = |r: usize, c: usize| (r * w + c) as u8;
        let wrap = |r: usize, c: usize, d: usize| {
            let nr = (r as i32 + DY[d] + h as i32) as usize % h;
            let nc = (c as i32 + DX[d] + w as i32) as usize % w;
            (nr, nc)
        };
        let mut spawn = 0u128;
        let mut generators = 0u128;
        for r in 0..h {
            for c in 0..w {
                let i = idx(r, c) as usize;
                let s = map.statics[r][c];
                board.statics[i] = s;
                board.bits[i] = words(bit(i as u8));
                board.dest[i] = [i as u8; 16];
                board.valid[i] = 1;
                board.roll[i][0] = u32::from(i as u8) << 16;
                let mut n = 0;
                for d in 0..4 {
                    let (nr, nc) = wrap(r, c, d);
                    if s & (1 << d) == 0 {
                        board.dest[i][d + 1] = idx(nr, nc);
                        board.valid[i] |= 1 << (d + 1);
                        n += 1;
                        board.roll[i][n] = (d as u32 + 1) | u32::from(idx(nr, nc)) << 16;
                    }
                }
                for k in 0..4 {
                    board.roll[i][n + 1 + k] = (5 + k as u32) | u32::from(i as u8) << 16;
                }
                board.roll[i][0] |= (1 + n as u32) << 24;
                for strong in 0..2 {
                    let ok = u32::from(board.valid[i]) | if strong == 1 { 0x1e0 } else { 0 };
                    for c in 0..9 {
                        if ok & (1 << c) != 0 {
                            board.step[i][strong][c] = board.dest[i][c];
                        }
                    }
                }
                if s & GENERATOR != 0 {
                    generators |= bit(i as u8);
                    for d in 0..8 {
                        let (nr, nc) = wrap(r, c, d);
                        spawn |= bit(idx(nr, nc));
                    }
                }
                // The judge's beam: step while no wall blocks, stop on
                // coming back to the shooter's cell.
                for d in 0..4 {
                    let (mut rr, mut cc) = (r, c);
                    let mut mask = 0u128;
                    while map.statics[rr][cc] & (1 << d) == 0 {
                        (rr, cc) = wrap(rr, cc, d);
                        if rr == r && cc == c {
                            break;
                        }
                        mask |= bit(idx(rr, cc));
                    }
                    board.beam[i][d] = words(mask);
                }
            }
        }
        board.spawn = words(spawn & !generators);

        let mut cur = Dynamic {
            generator_turn_left: map.constants.generator_interval,
            ..Dynamic::default()
        };
        for r in 0..h {
            for c in 0..w {
                let i = idx(r, c);
                let content = map.content[r][c];
                if content & SMALL_FRUIT != 0 {
                    set(&mut cur.small, i);
                    cur.small_fruit_count += 1;
                }
                if content & LARGE_FRUIT != 0 {
                    set(&mut cur.large, i);
                }
                for p in 0..PLAYERS {
                    if content & (1 << p) != 0 {
                        cur.cell[p] = i;
                        cur.strength[p] = 1;
                        cur.power_up_left[p] = 0;
                        cur.alive |= 1 << p;
                    }
                }
            }
        }
        Pacman2 {
            board,
            cur,
            turn: 0,
            history: [Dynamic::default(); HISTORY],
        }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.board.width as usize
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.board.height as usize
    }

    /// The game's constants.
    pub fn constants(&self) -> Constants {
        self.board.constants
    }

    /// Turns played (the judge's `turnID`).
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn as u32
    }

    /// Players alive.
    pub fn alive_count(&self) -> usize {
        self.cur.alive.count_ones() as usize
    }

    /// Turns until the generators' next wave.
    pub fn generator_turn_left(&self) -> i32 {
        self.cur.generator_turn_left
    }

    /// The judge's small-fruit counter (not lowered when a lone survivor
    /// takes the fruit left at the end).
    pub fn small_fruit_count(&self) -> i32 {
        self.cur.small_fruit_count
    }

    /// Player `p` (0..4).
    ///
    /// # Panics
    /// When `p >= 4`.
    pub fn player(&self, p: usize) -> Player {
        let cell = self.cur.cell[p] as usize;
        let w = self.width();
        Player {
            row: cell / w,
            col: cell % w,
            strength: self.cur.strength[p],
            power_up_left: self.cur.power_up_left[p],
            dead: self.cur.alive & (1 << p) == 0,
        }
    }

    /// All four players.
    pub fn players(&self) -> [Player; PLAYERS] {
        [
            self.player(0),
            self.player(1),
            self.player(2),
            self.player(3),
        ]
    }

    /// The cells holding a small fruit, as a bit set (cell `row * width +
    /// col` is bit `row * width + col`).
    #[inline]
    pub fn small_fruit_cells(&self) -> u128 {
        u128::from(self.cur.small[0]) | (u128::from(self.cur.small[1]) << 64)
    }

    /// The cells holding a large fruit, as a bit set (see
    /// [`Pacman2::small_fruit_cells`]).
    #[inline]
    pub fn large_fruit_cells(&self) -> u128 {
        u128::from(self.cur.large[0]) | (u128::from(self.cur.large[1]) << 64)
    }

    /// The `static` value of a cell (walls and generator bits).
    pub fn static_at(&self, row: usize, col: usize) -> u8 {
        self.board.statics[row * self.width() + col]
    }

    /// The `content` value of a cell as the judge keeps it: live players'
    /// bits and fruit.
    pub fn content_at(&self, row: usize, col: usize) -> u8 {
        let i = (row * self.width() + col) as u8;
        let mut v = 0;
        if has(&self.cur.small, i) {
            v |= SMALL_FRUIT;
        }
        if has(&self.cur.large, i) {
            v |= LARGE_FRUIT;
        }
        for p in 0..PLAYERS {
            if self.cur.alive & (1 << p) != 0 && self.cur.cell[p] == i {
                v |= 1 << p;
            }
        }
        v
    }

    /// The field as it stands now, as a [`Map`] (no seed): starting a new
    /// game from it would lose the turn count, strengths and boosts.
    pub fn content_grid(&self) -> [[u8; MAX_SIDE]; MAX_SIDE] {
        let mut g = [[0u8; MAX_SIDE]; MAX_SIDE];
        for (r, row) in g.iter_mut().enumerate().take(self.height()) {
            for (c, v) in row.iter_mut().enumerate().take(self.width()) {
                *v = self.content_at(r, c);
            }
        }
        g
    }

    /// Whether player `p` is alive.
    #[inline]
    pub fn is_alive(&self, p: usize) -> bool {
        self.cur.alive & (1 << p) != 0
    }

    /// Whether player `p` takes part in the next turn (alive, game not
    /// over).
    #[inline]
    pub fn is_active(&self, p: usize) -> bool {
        !self.is_over() && self.is_alive(p)
    }

    /// Whether the game has ended: at most one player alive, or turn 100.
    #[inline]
    pub fn is_over(&self) -> bool {
        let a = self.cur.alive;
        a & a.wrapping_sub(1) == 0 || self.turn >= HISTORY
    }

    /// Whether `action` is valid for player `p` now (the judge's
    /// `ActionValid`: stay; a move without a wall; a shot with strength
    /// above the cost). Dead players have no valid action.
    #[inline]
    pub fn is_valid(&self, p: usize, action: Action) -> bool {
        if !self.is_alive(p) {
            return false;
        }
        let a = action.code();
        if a == -1 {
            true
        } else if a >= 4 {
            a < 8 && self.cur.strength[p] > self.board.constants.skill_cost
        } else {
            a >= 0 && self.board.statics[self.cur.cell[p] as usize & 127] & (1 << a) == 0
        }
    }

    /// Replaces `out` with player `p`'s valid actions, in the judge's order
    /// (stay, moves, shots); empty for a dead player.
    pub fn legal_actions(&self, p: usize, out: &mut Actions) {
        out.clear();
        if !self.is_alive(p) {
            return;
        }
        for a in Action::ALL {
            if self.is_valid(p, a) {
                out.push(a);
            }
        }
    }

    /// A uniformly random valid action of live player `p`.
    #[inline]
    pub fn random_action(&self, p: usize, rng: &mut Rng) -> Action {
        let (row, n) = self.roll_row(p);
        Action::ALL[(row[rng.below(n) as usize & 15] & 0xff) as usize % Action::COUNT]
    }

    /// Player `p`'s row of the roll table and how many of its entries are
    /// valid now (stay and moves, plus the shots when strong enough).
    #[inline(always)]
    fn roll_row(&self, p: usize) -> (&[u32; 16], u32) {
        let row = &self.board.roll[self.cur.cell[p] as usize & 127];
        let strong = u32::from(self.cur.strength[p] > self.board.constants.skill_cost);
        (row, (row[0] >> 24) + 4 * strong)
    }

    /// [`Pacman2::random_action`] from the random fraction `r / 2^64`, for
    /// any player (a dead player's pick is dropped by the caller): `code +
    /// 1` in byte 0, the cell it leads to in byte 2 (byte 3 may hold the
    /// row's count); and what is left of `r` for the next pick.
    #[inline(always)]
    fn pick(&self, p: usize, r: u64) -> (u32, u64) {
        let (row, n) = self.roll_row(p);
        let m = u128::from(r) * u128::from(n);
        (row[(m >> 64) as usize & 15], m as u64)
    }

    /// Plays one joint turn exactly as the judge's `NextTurn` (`joint[p]`
    /// for each player; dead players' entries are ignored). Invalid actions
    /// are part of the game, as on the judge: the player dies.
    ///
    /// # Panics
    /// When `joint` has fewer than four entries, or (in debug builds) when
    /// the game is already over; in release builds, applying to a finished
    /// game does nothing once 100 turns are on the stack.
    #[inline]
    #[allow(clippy::needless_range_loop)] // players index several arrays
    pub fn apply_unchecked(&mut self, joint: &[Action]) {
        let joint = [joint[0], joint[1], joint[2], joint[3]];
        debug_assert!(!self.is_over(), "apply on a finished game");
        let b = &self.board;
        let d = &self.cur;
        let cost = b.constants.skill_cost;
        // Validation, four byte lanes at once: `cw` holds action code + 1
        // (0 = stay) per player; dead players' codes become 0, which is
        // always valid.
        let jw = u32::from_le_bytes([
            joint[0] as i8 as u8,
            joint[1] as i8 as u8,
            joint[2] as i8 as u8,
            joint[3] as i8 as u8,
        ]);
        let cw = (((jw & 0x7f7f_7f7f) + 0x0101_0101) ^ (jw & 0x8080_8080)) & byte_masks(d.alive);
        // Codes past 8 (lanes of 9 or more) are invalid.
        let big = (((cw & 0x7f7f_7f7f) + 0x7777_7777) | cw) & 0x8080_8080;
        // Where each action leads (0xff: invalid here).
        let mut tw = 0;
        for p in 0..PLAYERS {
            let c = (cw >> (8 * p)) as usize & 15;
            let strong = usize::from(d.strength[p] > cost);
            tw |= u32::from(b.step[d.cell[p] as usize & 127][strong][c]) << (8 * p);
        }
        let invalid = lane_bits(big | zero_lanes(!tw));
        self.advance(cw, tw, invalid);
    }

    /// Plays one joint turn after checking it: the game goes on, `joint`
    /// has an action for each of the four players, and each live player's
    /// action is valid ([`Pacman2::is_valid`]). The state is untouched on
    /// error. (The judge plays invalid actions too, killing the player:
    /// that is [`Pacman2::apply_unchecked`].)
    ///
    /// # Errors
    /// [`TurnError`]: the game is over, the joint has the wrong length, or
    /// the first live player whose action is not valid.
    pub fn try_apply(&mut self, joint: &[Action]) -> Result<(), TurnError> {
        if self.is_over() {
            return Err(TurnError::GameOver { turn: self.turn() });
        }
        if joint.len() != PLAYERS {
            return Err(TurnError::Players { found: joint.len() });
        }
        for (player, &action) in joint.iter().enumerate() {
            if self.is_alive(player) && !self.is_valid(player, action) {
                return Err(TurnError::Invalid { player, action });
            }
        }
        self.apply_unchecked(joint);
        Ok(())
    }

    /// The rest of [`Pacman2::apply_unchecked`] once the actions are read: `cw` holds
    /// code + 1 per byte lane (0 for dead players), `tw` where each valid
    /// action leads (a dead player's own cell), `invalid` the players whose
    /// action is invalid.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // players index several arrays
    fn advance(&mut self, cw: u32, tw: u32, invalid: u8) -> bool {
        let depth = self.turn;
        if depth >= HISTORY {
            return false;
        }
        self.history[depth] = self.cur;
        let b = &self.board;
        let d = &mut self.cur;
        let cost = b.constants.skill_cost;
        let alive0 = d.alive;
        // Shots: codes 5 and above (invalid ones are dropped below).
        let mut shots = lane_bits(((cw & 0x7f7f_7f7f) + 0x7b7b_7b7b) | cw);
        let code = cw.to_le_bytes().map(u32::from);
        // A player going to (or staying on) a cell where another live
        // player stands before anyone moves: a move there may be scared
        // into staying (staying players only meet there after a tie).
        let c0 = lanes(d.cell, alive0);
        let t = lanes(tw.to_le_bytes(), alive0);
        let bump = zero_lanes(t ^ c0.rotate_right(8))
            | zero_lanes(t ^ c0.rotate_right(16))
            | zero_lanes(t ^ c0.rotate_right(24));
        let mut act = code;
        let mut errored = 0u8;
        let cells = if (u32::from(invalid) | bump) == 0 {
            // 1. Moves, none scared.
            tw
        } else {
            // The judge's order: players are checked one by one, the
            // invalid ones leave the field as they are met.
            let mut occ = [0u8; 128];
            for p in 0..PLAYERS {
                occ[d.cell[p] as usize & 127] |= alive0 & (1 << p);
            }
            for p in 0..PLAYERS {
                let cell = d.cell[p] as usize & 127;
                if invalid & (1 << p) != 0 {
                    d.strength[p] = 0;
                    d.alive &= !(1 << p);
                    errored |= 1 << p;
                    occ[cell] &= !(1 << p);
                    act[p] = 0;
                    continue;
                }
                let c = code[p];
                let target = b.dest[cell][c as usize & 15];
                let is_move = c.wrapping_sub(1) < 4;
                let others = occ[target as usize & 127] & 0u8.wrapping_sub(u8::from(is_move));
                let mut scared = false;
                for i in 0..PLAYERS {
                    scared |= (others & (1 << i) != 0) & (d.strength[i] > d.strength[p]);
                }
                act[p] = if scared { 0 } else { c };
            }
            shots &= !errored;
            // 1. Moves (dead players and non-moves stay put).
            let mut cells = 0;
            for p in 0..PLAYERS {
                let to = b.dest[d.cell[p] as usize & 127][act[p] as usize & 15];
                cells |= u32::from(to) << (8 * p);
            }
            cells
        };
        d.cell = cells.to_le_bytes();
        // The cells from here on, read from a register.
        let cell = move |p: usize| (cells >> (8 * (p & 3))) as u8;

        // 2. Fights: on a shared cell the strongest eat the others.
        let alive = d.alive;
        let shared = shared_lanes(lanes(cells.to_le_bytes(), alive)) != 0;
        if shared {
            let mut occ = [0u8; 128];
            for p in 0..PLAYERS {
                occ[cell(p) as usize & 127] |= alive & (1 << p);
            }
            let mut done = 0u8;
            for p in 0..PLAYERS {
                if alive & (1 << p) == 0 || done & (1 << p) != 0 {
                    continue;
                }
                let group = occ[cell(p) as usize & 127];
                done |= group;
                if group & group.wrapping_sub(1) == 0 {
                    continue;
                }
                let mut best = i32::MIN;
                for q in 0..PLAYERS {
                    if group & (1 << q) != 0 {
                        best = best.max(d.strength[q]);
                    }
                }
                let mut looted = 0;
                let mut winners = 0;
                for q in 0..PLAYERS {
                    if group & (1 << q) == 0 {
                        continue;
                    }
                    if d.strength[q] == best {
                        winners += 1;
                    } else {
                        let drop = d.strength[q] / 2;
                        d.strength[q] -= drop;
                        looted += drop;
                        d.alive &= !(1 << q);
                    }
                }
                let inc = looted / winners;
                for q in 0..PLAYERS {
                    if group & (1 << q) != 0 && d.strength[q] == best {
                        d.strength[q] += inc;
                    }
                }
            }
        }

        // 2.5 Beams. Live players are hit, and (the judge, unlike the
        // sample) players who died this turn from an invalid action, when a
        // live player shares their cell.
        let shooters = shots & d.alive;
        if shooters != 0 {
            let mut targets = d.alive;
            if errored != 0 {
                for q in 0..PLAYERS {
                    let mut shared = false;
                    for p in 0..PLAYERS {
                        shared |= (d.alive & (1 << p) != 0) & (cell(p) == cell(q));
                    }
                    targets |= u8::from((errored & (1 << q) != 0) & shared) << q;
                }
            }
            if b.hit * 2 == cost * 3 {
                // Where the targets stand: a beam that misses all of them
                // (the usual case) needs no per-player test.
                let mut spots: Cells = [0; 2];
                for q in 0..PLAYERS {
                    let on = 0u64.wrapping_sub(u64::from(targets & (1 << q) != 0));
                    let m = &b.bits[cell(q) as usize & 127];
                    spots[0] |= m[0] & on;
                    spots[1] |= m[1] & on;
                }
                let mut rest = shooters;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize & 3;
                    rest &= rest - 1;
                    let beam =
                        &b.beam[cell(p) as usize & 127][(act[p] as usize).wrapping_sub(5) & 3];
                    d.strength[p] -= cost;
                    if (beam[0] & spots[0]) | (beam[1] & spots[1]) != 0 {
                        for q in 0..PLAYERS {
                            let hit = (targets & (1 << q) != 0) & has(beam, cell(q));
                            d.strength[q] -= i32::from(hit) * b.hit;
                            d.strength[p] += i32::from(hit) * b.hit;
                        }
                    }
                }
            } else {
                // An odd cost: the judge moves `cost * 1.5` through doubles,
                // truncating each time.
                let half = f64::from(cost) * 1.5;
                for p in 0..PLAYERS {
                    if shooters & (1 << p) == 0 {
                        continue;
                    }
                    d.strength[p] -= cost;
                    let beam = &b.beam[cell(p) as usize & 127][(act[p] as usize - 5) & 3];
                    for q in 0..PLAYERS {
                        if targets & (1 << q) != 0 && has(beam, cell(q)) {
                            d.strength[q] = (f64::from(d.strength[q]) - half) as i32;
                            d.strength[p] = (f64::from(d.strength[p]) + half) as i32;
                        }
                    }
                }
            }
            // Deaths (dead players keep their strength: 0, or below after
            // an invalid action and a hit).
            for p in 0..PLAYERS {
                let die = (d.alive & (1 << p) != 0) & (d.strength[p] <= 0);
                d.alive &= !(u8::from(die) << p);
                d.strength[p] = if die { 0 } else { d.strength[p] };
            }
        }

        // 3. The generators' wave.
        d.generator_turn_left -= 1;
        if d.generator_turn_left == 0 {
            d.generator_turn_left = b.constants.generator_interval;
            for w in 0..2 {
                let new = b.spawn[w] & !(d.small[w] | d.large[w]);
                d.small[w] |= new;
                d.small_fruit_count += new.count_ones() as i32;
            }
        }

        // 4. Eating, only alone on a cell; 5. boosts wear off; deaths.
        let alive = d.alive;
        // Without a shared cell after the moves, every live player is
        // alone (fights and beams only remove players).
        let alone = if shared {
            alive & !lane_bits(shared_lanes(lanes(cells.to_le_bytes(), alive)))
        } else {
            alive
        };
        // Lone players on a fruit (alone players stand on distinct cells,
        // so the tests do not interfere): most turns nobody eats.
        let fruit = [d.small[0] | d.large[0], d.small[1] | d.large[1]];
        let mut here = 0u8;
        for p in 0..PLAYERS {
            let cell = u32::from(cell(p));
            here |= (((fruit[(cell >> 6) as usize & 1] >> (cell & 63)) & 1) as u8) << p;
        }
        let enh = b.constants.large_fruit_enhancement;
        let mut rest = here & alone;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize & 3;
            rest &= rest - 1;
            let cell = cell(p);
            let word = (cell >> 6) as usize & 1;
            let m = 1u64 << (cell & 63);
            // A small fruit goes first; a large one is eaten only where no
            // small one was.
            if d.small[word] & m != 0 {
                d.small[word] ^= m;
                d.small_fruit_count -= 1;
                d.strength[p] += 1;
            } else {
                d.large[word] ^= m;
                if d.power_up_left[p] == 0 {
                    d.strength[p] += enh;
                }
                d.power_up_left[p] += b.constants.large_fruit_duration;
                d.boosted |= u8::from(d.power_up_left[p] > 0) << p;
            }
        }
        // Boosts wear off. A live player's strength is positive, so only
        // a player whose boost ends here can die.
        let boosted = d.boosted & alive;
        if boosted != 0 {
            // All four at once: how many are boosted is hard to predict.
            let mut ends = 0u8;
            for p in 0..PLAYERS {
                let on = (boosted >> p) & 1;
                d.power_up_left[p] -= i32::from(on);
                ends |= u8::from((on != 0) & (d.power_up_left[p] == 0)) << p;
            }
            d.boosted &= !ends;
            while ends != 0 {
                let p = ends.trailing_zeros() as usize & 3;
                ends &= ends - 1;
                d.strength[p] -= enh;
                if d.strength[p] <= 0 {
                    d.alive &= !(1 << p);
                    d.strength[p] = 0;
                }
            }
        }

        self.turn = depth + 1;
        if d.alive & d.alive.wrapping_sub(1) == 0 {
            for p in 0..PLAYERS {
                if d.alive & (1 << p) != 0 {
                    d.strength[p] += d.small_fruit_count;
                }
            }
            return false;
        }
        depth + 1 < HISTORY
    }

    /// Takes back the last turn (the judge's `PopState`). Returns `false`
    /// at the start.
    #[inline]
    pub fn undo(&mut self) -> bool {
        if self.turn == 0 {
            return false;
        }
        // The count lives outside the copied state, so that popping turn
        // after turn does not wait for each copy.
        self.turn -= 1;
        self.cur = self.history[self.turn];
        true
    }

    /// Takes back turns until `turn` turns are left (no effect when fewer
    /// have been played).
    #[inline]
    pub fn undo_to(&mut self, turn: u32) {
        let turn = turn as usize;
        if turn < self.turn {
            self.cur = self.history[turn];
            self.turn = turn;
        }
    }

    /// Plays random valid actions for every live player until the game
    /// ends; returns the number of turns played (undo them with
    /// [`Pacman2::undo_to`]). Each player's action is uniform over its
    /// valid actions, like [`Pacman2::random_action`]'s, and is drawn
    /// together with where it leads, so the turn skips
    /// [`Pacman2::apply_unchecked`]'s validation.
    #[inline]
    pub fn random_playout(&mut self, rng: &mut Rng) -> u32 {
        let start = self.turn();
        if self.is_over() {
            return 0;
        }
        loop {
            // One 64-bit draw for the four players: each pick multiplies
            // what is left of it by its count (the joint pick is uniform up
            // to 9^4 / 2^64).
            let mut r = rng.next_u64();
            let mut e = [0; PLAYERS];
            for (p, e) in e.iter_mut().enumerate() {
                (*e, r) = self.pick(p, r);
            }
            // Bytes [code 0, code 1, cell 0, cell 1] and the same for
            // players 2 and 3.
            // (Shifting drops byte 3 of players 1 and 3; masks drop it
            // for players 0 and 2.)
            let (x, y) = (
                (e[0] & 0x00ff_00ff) | e[1] << 8,
                (e[2] & 0x00ff_00ff) | e[3] << 8,
            );
            let cw = (x & 0xffff) | y << 16;
            let tw = x >> 16 | (y & 0xffff_0000);
            // Dead players stay put.
            let m = byte_masks(self.cur.alive);
            let cw = cw & m;
            let tw = (tw & m) | (u32::from_le_bytes(self.cur.cell) & !m);
            if !self.advance(cw, tw, 0) {
                break;
            }
        }
        self.turn() - start
    }

    /// Botzone's score of every player for the current strengths (the final
    /// score once the game is over): `(rank*1000 + 10000*strength/total)/100`
    /// with integer division inside, where rank is 1 for the weakest (equal
    /// strengths share a rank) and `total` the sum of strengths (1 if 0).
    pub fn final_scores(&self) -> [f64; PLAYERS] {
        let s = self.cur.strength;
        let mut total: i64 = s.iter().map(|&x| i64::from(x)).sum();
        if total == 0 {
            total = 1;
        }
        let mut out = [0.0; PLAYERS];
        for p in 0..PLAYERS {
            let rank = 1 + s.iter().filter(|&&x| x < s[p]).count() as i64;
            out[p] = (rank * 1000 + 10000 * i64::from(s[p]) / total) as f64 / 100.0;
        }
        out
    }
}

/// A later request of the judge, read against the state before its turn
/// ([`Pacman2::read_request`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRequest {
    /// Every player's action of the turn: the request's for live players,
    /// [`Action::Stay`] for dead ones.
    pub joint: [Action; PLAYERS],
    /// Where the request contradicted this state and the judge's word was
    /// taken, one message each, naming the place in the request (empty
    /// when the request and the state agree).
    pub warnings: Vec<String>,
}

impl Pacman2 {
    /// Reads one later request of the judge, `{"0":{"action":a},...}`, into
    /// the joint action of the turn it reports.
    ///
    /// The judge is the authority on who is alive. It sends an entry with an
    /// action for each player alive at the start of the turn and `null` for
    /// each dead player (codes outside `-1..=7`, like its -10 for an invalid
    /// answer, become [`Action::Invalid`]). When the request contradicts
    /// this state, the judge's word is taken and [`TurnRequest::warnings`]
    /// says what happened:
    /// - `null` or no entry for a player alive here: the judge holds that
    ///   player dead, so the player plays [`Action::Invalid`] (which kills
    ///   it, as the judge kills a player for an invalid answer);
    /// - an action for a player dead here: ignored (this state cannot bring
    ///   a player back).
    ///
    /// Unknown keys are ignored. `path` names the request in messages
    /// (e.g. `requests[3]`).
    ///
    /// # Errors
    /// When the request is not an object, a live player's entry is neither
    /// `null` nor an object with an integer `action`, or the game is over
    /// here (no turn can follow).
    pub fn read_request(&self, request: &Value, path: &str) -> Result<TurnRequest, InputError> {
        if request.as_object().is_none() {
            return Err(InputError::new(format!(
                "{path}: expected an object of the players' actions, found {}",
                request.kind()
            )));
        }
        if self.is_over() {
            return Err(InputError::new(format!(
                "{path}: the game ended at turn {}, no turn can follow",
                self.turn()
            )));
        }
        let mut read = TurnRequest {
            joint: [Action::Stay; PLAYERS],
            warnings: Vec::new(),
        };
        for p in 0..PLAYERS {
            let key = ["0", "1", "2", "3"][p];
            let entry = request.get(key).filter(|e| !e.is_null());
            if !self.is_alive(p) {
                if entry.is_some() {
                    read.warnings.push(format!(
                        "{path}.{key}: an action for player {p}, who is dead in this bot's \
                         game: ignored"
                    ));
                }
                continue;
            }
            let Some(entry) = entry else {
                let what = if request.get(key).is_some() {
                    "null"
                } else {
                    "no entry"
                };
                read.warnings.push(format!(
                    "{path}.{key}: {what} for player {p}, who is alive in this bot's game: \
                     the judge holds player {p} dead, so it is played as an invalid action \
                     (death)"
                ));
                read.joint[p] = Action::Invalid;
                continue;
            };
            if entry.as_object().is_none() {
                return Err(InputError::new(format!(
                    "{path}.{key}: expected an object with the action of player {p}, found {}",
                    entry.kind()
                )));
            }
            let code = entry
                .get("action")
                .ok_or_else(|| InputError::new(format!("{path}.{key}.action: missing")))?;
            let code = code.as_i64().ok_or_else(|| {
                InputError::new(format!(
                    "{path}.{key}.action: expected an integer, found {}",
                    code.kind()
                ))
            })?;
            read.joint[p] = Action::from_code(code);
        }
        Ok(read)
    }

    /// [`Pacman2::read_request`]'s joint action; its warnings go to stderr
    /// (`bot warning: ...`). A bot on [`crate::protocol`] may prefer
    /// [`protocol::Tracker`], which reports them through
    /// [`crate::protocol::warn`].
    ///
    /// # Errors
    /// As [`Pacman2::read_request`].
    pub fn joint_from_request(
        &self,
        request: &Value,
        path: &str,
    ) -> Result<[Action; PLAYERS], InputError> {
        let read = self.read_request(request, path)?;
        for warning in &read.warnings {
            eprintln!("bot warning: {warning}");
        }
        Ok(read.joint)
    }
}

/// The uniformly random valid action of [`Pacman2::random_action`] as a
/// [`Policy`](crate::search::flat_mc::Policy) for flat Monte Carlo: the
/// same distribution as the generic uniform policy, without building a list.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;

impl crate::search::flat_mc::Policy<Pacman2> for RandomPolicy {
    #[inline]
    fn action(&mut self, game: &Pacman2, player: usize, rng: &mut Rng) -> Action {
        game.random_action(player, rng)
    }
}

impl Game for Pacman2 {
    type Action = Action;
    type Actions = Actions;

    fn player_count(&self) -> usize {
        PLAYERS
    }
    fn is_over(&self) -> bool {
        Pacman2::is_over(self)
    }
    fn is_active(&self, player: usize) -> bool {
        Pacman2::is_active(self, player)
    }
    fn legal_actions(&self, player: usize, out: &mut Actions) {
        Pacman2::legal_actions(self, player, out)
    }
    #[inline]
    fn apply_unchecked(&mut self, joint: &[Action]) {
        Pacman2::apply_unchecked(self, joint);
    }
    fn undo(&mut self) -> bool {
        Pacman2::undo(self)
    }
    #[inline]
    fn undo_turns(&mut self, turns: u32) {
        self.undo_to(self.turn().saturating_sub(turns));
    }
    fn scores(&self, out: &mut [f64]) {
        out[..PLAYERS].copy_from_slice(&self.final_scores());
    }
}

impl Rules for Pacman2 {
    const NAME: &'static str = "pacman2";
    const SEATS: usize = PLAYERS;
    const MAX_TURNS: u32 = MAX_TURNS;
    const SCORING: Scoring = Scoring::Ranked;
    const LEGEND: &'static str = "0-3 a player, * several players on one cell, G a fruit \
        generator, o a large fruit, . a small fruit, --- and | walls (the field wraps around \
        its edges);\nactions -1 stay, 0-3 move up/right/down/left, 4-7 shoot \
        up/right/down/left, -10 an invalid answer (death)";

    type Setup = Map;
    type Error = TurnError;

    fn setup_from_seed(seed: u32) -> Map {
        Map::generate(seed)
    }
    fn start(map: &Map) -> Pacman2 {
        Pacman2::new(map)
    }
    fn turn(&self) -> u32 {
        Pacman2::turn(self)
    }
    fn try_apply(&mut self, joint: &[Action]) -> Result<(), TurnError> {
        Pacman2::try_apply(self, joint)
    }
    fn random_playout(&mut self, rng: &mut Rng) -> u32 {
        Pacman2::random_playout(self, rng)
    }
    fn check_invariants(&self) -> Result<(), String> {
        Pacman2::check_invariants(self)
    }
    fn bench_peer_args(map: &Map) -> Option<Vec<PeerArg>> {
        // `pacman2_bench MAP.json PLAYOUTS`
        Some(vec![PeerArg::File(map.to_json())])
    }
}

/// Why [`Pacman2::try_apply`] refused a joint turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game ended (at this turn): no turn can follow.
    GameOver {
        /// Turns played.
        turn: u32,
    },
    /// The joint turn does not hold one action per player.
    Players {
        /// The actions given.
        found: usize,
    },
    /// A live player's action is not valid here.
    Invalid {
        /// The player.
        player: usize,
        /// The action.
        action: Action,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TurnError::GameOver { turn } => {
                write!(f, "the game ended at turn {turn}: no turn can follow")
            }
            TurnError::Players { found } => {
                write!(
                    f,
                    "a turn takes {PLAYERS} actions, one per player; found {found}"
                )
            }
            TurnError::Invalid { player, action } => write!(
                f,
                "player {player} cannot play {} ({action:?}) here: a wall, or a shot \
                 without the strength",
                action.code()
            ),
        }
    }
}

impl std::error::Error for TurnError {}

impl Pacman2 {
    /// Checks the state's consistency: the small-fruit counter equals the
    /// small fruit on the field, fruit only on the field's cells, live
    /// players with a positive strength on a cell of the field, boosts that
    /// match their flags, the generators' countdown in range, and the end
    /// of the game where the rules put it.
    ///
    /// # Errors
    /// The first broken invariant, described.
    pub fn check_invariants(&self) -> Result<(), String> {
        let d = &self.cur;
        let cells = self.width() * self.height();
        let on_field = |c: &Cells| {
            (0..2).all(|w| {
                let valid = if cells >= 64 * (w + 1) {
                    u64::MAX
                } else if cells <= 64 * w {
                    0
                } else {
                    (1u64 << (cells - 64 * w)) - 1
                };
                c[w] & !valid == 0
            })
        };
        let smalls = d.small[0].count_ones() + d.small[1].count_ones();
        if d.small_fruit_count != smalls as i32 {
            return Err(format!(
                "the small-fruit counter says {}, the field holds {smalls}",
                d.small_fruit_count
            ));
        }
        if !on_field(&d.small) || !on_field(&d.large) {
            return Err("fruit outside the field".into());
        }
        for p in 0..PLAYERS {
            let alive = d.alive & (1 << p) != 0;
            if usize::from(d.cell[p]) >= cells {
                return Err(format!(
                    "player {p} stands on cell {}, off the field",
                    d.cell[p]
                ));
            }
            if d.power_up_left[p] < 0 {
                return Err(format!(
                    "player {p} has a boost of {} turns",
                    d.power_up_left[p]
                ));
            }
            if alive && d.strength[p] <= 0 {
                return Err(format!(
                    "player {p} is alive with strength {}",
                    d.strength[p]
                ));
            }
            if alive && (d.boosted & (1 << p) != 0) != (d.power_up_left[p] > 0) {
                return Err(format!(
                    "player {p}'s boost flag disagrees with its {} turns of boost",
                    d.power_up_left[p]
                ));
            }
        }
        let interval = self.board.constants.generator_interval;
        if !(1..=interval).contains(&d.generator_turn_left) {
            return Err(format!(
                "the generators' countdown is {}, outside 1..={interval}",
                d.generator_turn_left
            ));
        }
        let played = self.turn();
        let over = self.alive_count() <= 1 || played >= MAX_TURNS;
        if self.is_over() != over || played > MAX_TURNS {
            return Err(format!(
                "turn {played} with {} alive: is_over() says {}",
                self.alive_count(),
                self.is_over()
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Pacman2 {
    /// The sample's `DebugPrint` in ASCII: turn, players, then the field
    /// with walls (`---`, `|`), players (`0`..`3`, `*` for several),
    /// generators `G`, large fruit `o` and small fruit `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.width(), self.height());
        writeln!(
            f,
            "turn {} alive {} | generator G, player 0-3, several *, large fruit o, small fruit .",
            self.turn(),
            self.alive_count()
        )?;
        for (p, pl) in self.players().iter().enumerate() {
            writeln!(
                f,
                "[player {p} ({}, {}) | strength {} | boost left {} | {}]",
                pl.row,
                pl.col,
                pl.strength,
                pl.power_up_left,
                if pl.dead { "dead" } else { "alive" }
            )?;
        }
        write!(f, "  ")?;
        for c in 0..w {
            write!(f, "{c:>3} ")?;
        }
        writeln!(f)?;
        for r in 0..h {
            write!(f, "  ")?;
            for c in 0..w {
                let n = self.static_at(r, c) & WALL_NORTH != 0;
                write!(f, " {}", if n { "---" } else { "   " })?;
            }
            write!(f, "\n{r:>2}")?;
            for c in 0..w {
                let s = self.static_at(r, c);
                let content = self.content_at(r, c);
                let ch = match content & 15 {
                    0 if s & GENERATOR != 0 => 'G',
                    0 if content & LARGE_FRUIT != 0 => 'o',
                    0 if content & SMALL_FRUIT != 0 => '.',
                    0 => ' ',
                    m if m.count_ones() > 1 => '*',
                    m => (b'0' + m.trailing_zeros() as u8) as char,
                };
                write!(f, "{} {} ", if s & WALL_WEST != 0 { '|' } else { ' ' }, ch)?;
            }
            let e = self.static_at(r, w - 1) & WALL_EAST != 0;
            writeln!(f, "{}", if e { '|' } else { ' ' })?;
        }
        write!(f, "  ")?;
        for c in 0..w {
            let s = self.static_at(h - 1, c) & WALL_SOUTH != 0;
            write!(f, " {}", if s { "---" } else { "   " })?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_codes() {
        assert_eq!(Action::from_code(-10), Action::Invalid);
        assert_eq!(Action::from_code(8), Action::Invalid);
        assert_eq!(Action::from_code(7), Action::LeftShoot);
        assert!(Action::Right.is_move() && Action::UpShoot.is_shot());
    }

    #[test]
    fn render_and_undo_round_trip() {
        let map = Map::generate(3);
        let mut g = Pacman2::new(&map);
        let start = g.clone();
        let mut rng = Rng::new(5);
        let n = g.random_playout(&mut rng);
        assert!(n > 0 && g.is_over());
        let text = g.to_string();
        assert!(text.starts_with("turn "));
        g.undo_to(0);
        assert!(g == start);
        assert!(!g.undo());
    }
}
