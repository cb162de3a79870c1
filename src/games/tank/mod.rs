//! Tank (Botzone, 2018 rules): two sides of two tanks each on a 9×9 field
//! with bricks, steel and one base per side; both sides move at once.
//!
//! The rules are those of the Botzone wiki's Tank page and its C++ sample
//! (`DoAction`, `Revert`, `GetGameResult`), including the rule added on
//! 2018-10-18 that a tank may not shoot two turns in a row. [`Field`] keeps
//! the whole position in fixed arrays; [`Field::try_apply`] plays a legal
//! joint turn, [`Field::apply_unchecked`] any, and [`Field::undo`] takes it
//! back from a log in fixed storage, so none touches the heap. Everything
//! the game knows is in this folder: the judge's field generator
//! ([`bricks_from_seed`], and [`Map`], the judge's `initdata`), the bot
//! side of the protocol ([`protocol`]), the judge ([`judge`], a
//! [`crate::games::botzone::BotzoneGame`]) and a static evaluation for
//! search ([`eval`]).
//!
//! Coordinates are `(x, y)` with `(0, 0)` at the top left, `x` to the right
//! and `y` down. Blue (side 0) has its base at (4, 0), red (side 1) at (4, 8).
//!
//! ```
//! use botzone::games::tank::{Field, TankAction, Outcome, bricks_from_seed};
//! let mut field = Field::new(bricks_from_seed(1));
//! // Blue: tank 0 shoots down, tank 1 stays; red: tank 0 moves up, tank 1 stays.
//! let turn = [
//!     [TankAction::DownShoot, TankAction::Stay],
//!     [TankAction::Up, TankAction::Stay],
//! ];
//! field.try_apply(turn).unwrap();
//! assert_eq!(field.turn(), 1);
//! assert_eq!(field.outcome(), Outcome::Ongoing);
//! assert!(field.undo());
//! assert_eq!(field, Field::new(bricks_from_seed(1)));
//! ```

use std::fmt;

use crate::fixed::FixedList;
use crate::games::{Game, PeerArg, Rules, Scoring};
use crate::rng::Rng;

pub mod eval;
pub mod judge;
mod map;
pub mod protocol;
pub mod render;

pub use map::{bricks_from_seed, Map};

/// Width of the field in cells.
pub const WIDTH: usize = 9;
/// Height of the field in cells.
pub const HEIGHT: usize = 9;
/// Number of cells; a cell's index is `y * WIDTH + x`.
pub const CELLS: usize = WIDTH * HEIGHT;
/// Number of sides (players).
pub const SIDES: usize = 2;
/// Tanks per side.
pub const TANKS_PER_SIDE: usize = 2;
/// Side 0, blue, whose base is at the top.
pub const BLUE: usize = 0;
/// Side 1, red, whose base is at the bottom.
pub const RED: usize = 1;
/// The judge's turn limit (`maxTurn` of its initdata): the game is drawn
/// when this many turns have been played and neither side has lost.
pub const MAX_TURNS: u32 = 100;
/// The largest turn limit a [`Field`] accepts: the undo log holds one
/// record per turn, so its capacity bounds the game length.
pub const TURN_CAPACITY: usize = 255;

/// Cell contents, or-ed together (several tanks may share a cell).
pub mod item {
    /// Nothing.
    pub const NONE: u8 = 0;
    /// A brick: destroyed by one shot.
    pub const BRICK: u8 = 1;
    /// Steel: never destroyed, stops shots.
    pub const STEEL: u8 = 2;
    /// A base.
    pub const BASE: u8 = 4;
    /// Blue tank 0.
    pub const BLUE0: u8 = 8;
    /// Blue tank 1.
    pub const BLUE1: u8 = 16;
    /// Red tank 0.
    pub const RED0: u8 = 32;
    /// Red tank 1.
    pub const RED1: u8 = 64;
    /// Any tank.
    pub const TANKS: u8 = BLUE0 | BLUE1 | RED0 | RED1;

    /// The item bit of `tank` of `side`.
    #[inline]
    pub const fn tank(side: usize, tank: usize) -> u8 {
        8 << (side * 2 + tank)
    }
}

/// The cell of the base of each side, as `(x, y)`.
pub const BASE_POS: [(usize, usize); SIDES] = [(4, 0), (4, 8)];
/// The steel cell in front of each base, as `(x, y)`.
pub const STEEL_POS: [(usize, usize); SIDES] = [(4, 1), (4, 7)];
/// Where the tanks start, `[side][tank]` as `(x, y)`: blue left 0 right 1,
/// red left 1 right 0.
pub const TANK_START: [[(usize, usize); TANKS_PER_SIDE]; SIDES] =
    [[(2, 0), (6, 0)], [(6, 8), (2, 8)]];

/// The cell index of `(x, y)`.
#[inline]
pub const fn cell(x: usize, y: usize) -> usize {
    y * WIDTH + x
}
/// Cells are numbered on a board with a one-cell border, `PW` cells wide
/// (padded index `(y + 1) * PW + x + 1`), so that every set of cells fits
/// one `u128` bitboard and rays stop at the border without bounds checks.
const PW: usize = WIDTH + 2;
/// Padded indices are below this (bits 121..128 count as border).
const IDX: usize = 127;
/// The padded index of a destroyed tank (a border corner).
const DEAD: u8 = 0;
/// Padded index steps up, right, down, left (the order of action codes).
const DELTA: [usize; 4] = [PW.wrapping_neg(), 1, PW, 1usize.wrapping_neg()];
/// The step of each action by [`TankAction::index`] (masked by 15): zero
/// unless a move.
static MOVE_DELTA: [usize; 16] = [
    0, DELTA[0], 1, PW, DELTA[3], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
/// [`TankAction::ALL`] padded to 16 entries (index masked by 15).
static ACTION16: [TankAction; 16] = {
    let mut t = [TankAction::Stay; 16];
    let mut k = 0;
    while k < 9 {
        t[k] = TankAction::ALL[k];
        k += 1;
    }
    t
};
/// The border cells (and the unused bits above the board).
const BORDER: u128 = {
    let mut m = 0u128;
    let mut p = 0;
    while p < 128 {
        let (r, c) = (p / PW, p % PW);
        if p >= PW * PW || r == 0 || r == PW - 1 || c == 0 || c == PW - 1 {
            m |= 1 << p;
        }
        p += 1;
    }
    m
};
/// The padded indices of the bases.
const BASE_P: [usize; SIDES] = [
    pad(cell(BASE_POS[0].0, BASE_POS[0].1)),
    pad(cell(BASE_POS[1].0, BASE_POS[1].1)),
];
/// The steel cells.
const STEEL_MASK: u128 =
    1 << pad(cell(STEEL_POS[0].0, STEEL_POS[0].1)) | 1 << pad(cell(STEEL_POS[1].0, STEEL_POS[1].1));
/// What never changes: border and steel.
const FIXED: u128 = BORDER | STEEL_MASK;
/// The base cells' bitboards.
const BIT_BASES: [u128; SIDES] = [1 << BASE_P[BLUE], 1 << BASE_P[RED]];
/// `RAYS[dir * 128 + p]`: the padded cells strictly beyond `p` in
/// direction `dir` (0 up, 1 right, 2 down, 3 left) up to the end of the
/// board word; the border stops every ray. Up and down stay in the column,
/// right and left may run past the border (the border cell comes first).
static RAYS: [u128; 512] = {
    let mut t = [0u128; 512];
    let mut p = 0;
    while p < 128 {
        let mut q = 0;
        while q < 128 {
            let bit = 1u128 << q;
            let same_column = q % PW == p % PW;
            if q < p && same_column {
                t[p] |= bit;
            }
            if q > p {
                t[128 + p] |= bit;
            }
            if q > p && same_column {
                t[256 + p] |= bit;
            }
            if q < p {
                t[384 + p] |= bit;
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// `BIT[p]`: the bitboard of padded cell `p` alone (a load is cheaper than
/// a variable 128-bit shift).
static BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut p = 0;
    while p < 128 {
        t[p] = 1 << p;
        p += 1;
    }
    t
};

/// `CHOICES[m | s << 4]` for the free neighbours `m` (bit `d`: the cell in
/// direction `d` is empty) and `s` (1: the tank may shoot): the number of
/// valid actions in bits 0..4, then the [`TankAction::index`] of the `k`-th
/// valid action (in index order) in bits `4 + 4k..8 + 4k`.
static CHOICES: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut m = 0;
    while m < 32 {
        // Stay, the moves to free cells, the shots when allowed.
        let valid = 1 | ((m & 15) << 1) | (((m >> 4) & 1) * 0b1_1110_0000);
        let mut n = 0u64;
        let mut b = 0;
        while b < 9 {
            if valid >> b & 1 == 1 {
                t[m] |= (b as u64) << (4 + 4 * n);
                n += 1;
            }
            b += 1;
        }
        t[m] |= n;
        m += 1;
    }
    t
};

/// Multiplier of the neighbour gather in `valid_mask_in`.
const GATHER: u64 = 1 << 22 | 1 << 11 | 1 << 2 | 1 << 15;

/// The padded index of an unpadded cell index.
#[inline]
const fn pad(c: usize) -> usize {
    (c / WIDTH + 1) * PW + c % WIDTH + 1
}

/// The unpadded cell index of a padded index inside the board.
#[inline]
const fn unpad(p: usize) -> usize {
    (p / PW - 1) * WIDTH + p % PW - 1
}

/// One tank's action, with the judge's codes (`code()`): -1 stay, 0..3 move
/// up, right, down, left, 4..7 shoot up, right, down, left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i8)]
pub enum TankAction {
    /// Stay where it is (always valid).
    #[default]
    Stay = -1,
    /// Move up one cell (into a cell empty when the turn starts).
    Up = 0,
    /// Move right one cell.
    Right = 1,
    /// Move down one cell.
    Down = 2,
    /// Move left one cell.
    Left = 3,
    /// Shoot up (not if this tank shot last turn).
    UpShoot = 4,
    /// Shoot right.
    RightShoot = 5,
    /// Shoot down.
    DownShoot = 6,
    /// Shoot left.
    LeftShoot = 7,
}

impl TankAction {
    /// Every action, in code order.
    pub const ALL: [TankAction; 9] = [
        TankAction::Stay,
        TankAction::Up,
        TankAction::Right,
        TankAction::Down,
        TankAction::Left,
        TankAction::UpShoot,
        TankAction::RightShoot,
        TankAction::DownShoot,
        TankAction::LeftShoot,
    ];
    /// The number of actions.
    pub const COUNT: usize = 9;

    /// The judge's code, -1..=7.
    #[inline]
    pub const fn code(self) -> i8 {
        self as i8
    }

    /// A dense index, 0..9 (`code() + 1`).
    #[inline]
    pub const fn index(self) -> usize {
        (self as i8 + 1) as usize
    }

    /// The action of a judge's code, or `None` outside -1..=7.
    #[inline]
    pub fn from_code(code: i64) -> Option<TankAction> {
        if (-1..=7).contains(&code) {
            Some(Self::ALL[(code + 1) as usize])
        } else {
            None
        }
    }

    /// Whether it is a move.
    #[inline]
    pub const fn is_move(self) -> bool {
        matches!(self as i8, 0..=3)
    }

    /// Whether it is a shot.
    #[inline]
    pub const fn is_shoot(self) -> bool {
        self as i8 >= 4
    }

    /// Its direction (0 up, 1 right, 2 down, 3 left), `None` for stay.
    #[inline]
    pub const fn direction(self) -> Option<usize> {
        if self as i8 >= 0 {
            Some((self as i8 % 4) as usize)
        } else {
            None
        }
    }
}

/// The error of a code outside -1..=7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidCode(pub i64);

impl fmt::Display for InvalidCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a tank action (expected -1..=7)", self.0)
    }
}

impl std::error::Error for InvalidCode {}

impl TryFrom<i64> for TankAction {
    type Error = InvalidCode;
    fn try_from(code: i64) -> Result<Self, InvalidCode> {
        TankAction::from_code(code).ok_or(InvalidCode(code))
    }
}

/// One side's action in a turn: its tank 0's and tank 1's actions (a
/// destroyed tank's entry is ignored; [`Field::legal_side_actions`] gives it
/// [`TankAction::Stay`]). This is [`Game::Action`] for [`Field`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideAction(pub [TankAction; TANKS_PER_SIDE]);

/// The legal actions of one tank (at most the nine actions).
pub type TankActions = FixedList<TankAction, 9>;
/// The legal actions of one side: every pair of its tanks' legal actions
/// (at most 9 × 9 = 81).
pub type SideActions = FixedList<SideAction, 81>;

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Not finished (the judge's -2).
    Ongoing,
    /// Drawn (-1): both sides lost at once, or the turn limit passed.
    Draw,
    /// Won by this side (0 blue, 1 red).
    Win(usize),
}

impl Outcome {
    /// The judge's code: -2 not finished, -1 draw, 0 blue won, 1 red won.
    pub fn code(self) -> i32 {
        match self {
            Outcome::Ongoing => -2,
            Outcome::Draw => -1,
            Outcome::Win(side) => side as i32,
        }
    }

    /// Botzone's scores `[blue, red]`: 2 for a win, 0 for a loss, 1 each
    /// for a draw (and, by convention, while the game goes on).
    pub fn scores(self) -> [f64; SIDES] {
        match self {
            Outcome::Win(0) => [2.0, 0.0],
            Outcome::Win(_) => [0.0, 2.0],
            _ => [1.0, 1.0],
        }
    }
}

/// Why [`Field::try_apply`] refused a joint turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over (after this many turns): no turn can follow.
    GameOver {
        /// Turns played.
        turn: u32,
    },
    /// The joint turn does not hold one action per side.
    Sides {
        /// The actions given.
        found: usize,
    },
    /// A live tank's action is not valid here.
    Invalid(InvalidAction),
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::GameOver { turn } => {
                write!(f, "the game ended after {turn} turns: no turn can follow")
            }
            TurnError::Sides { found } => {
                write!(f, "a turn takes {SIDES} side actions; found {found}")
            }
            TurnError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TurnError {}

impl From<InvalidAction> for TurnError {
    fn from(e: InvalidAction) -> Self {
        TurnError::Invalid(e)
    }
}

/// An action the rules reject, found by [`Field::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidAction {
    /// The side (0 blue, 1 red).
    pub side: usize,
    /// The tank (0 or 1).
    pub tank: usize,
    /// What it tried.
    pub action: TankAction,
}

impl fmt::Display for InvalidAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = if self.side == BLUE { "blue" } else { "red" };
        let why = if self.action.is_shoot() {
            "it shot last turn"
        } else {
            "the target cell is off the board or not empty"
        };
        write!(
            f,
            "{side} tank {} cannot {:?} ({}): {why}",
            self.tank,
            self.action,
            self.action.code()
        )
    }
}

impl std::error::Error for InvalidAction {}

/// The three ints of the judge's `field`: bit `j` of int `i` is the brick at
/// `x = (27 i + j) % 9`, `y = (27 i + j) / 9`.
pub type Bricks = [u32; 3];
/// Everything a turn changes except the turn number: what [`Field::undo`]
/// restores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Core {
    /// Bit `p` (padded index): a wall stands there: a brick, steel, a
    /// live base or the border (everything but tanks).
    walls: u128,
    /// `walls` and the live tanks' cells: every non-empty cell.
    occ: u128,
    /// Padded tank cells, `DEAD` once destroyed.
    pos: [u8; 4],
    /// Bit `i`: tank `i` is alive.
    alive: u8,
    /// Bit `side`: that side's base stands.
    bases: u8,
    /// Bit `i`: tank `i` shot last turn (so it may not shoot now).
    shot: u8,
}

/// A Tank position with its undo log: everything the judge tracks.
///
/// Tanks are numbered `side * 2 + tank` (blue 0, blue 1, red 0, red 1)
/// wherever one index is used. Equality compares the position and the
/// history that undo can take back.
///
/// Inside, the field is bitboards: the bricks as one `u128` over a board
/// with a border, the four tanks as cells, the bases as two bits; a turn
/// is a few register operations and its undo record is the previous core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    core: Core,
    /// The judge's turn number: 1 before any move (turns played + 1).
    turn: u16,
    /// The turn limit.
    max_turns: u16,
    log: FixedList<Core, TURN_CAPACITY>,
}

impl Field {
    /// The start of a game on `bricks` with the judge's turn limit.
    pub fn new(bricks: Bricks) -> Field {
        Field::with_max_turns(bricks, MAX_TURNS)
    }

    /// The start of a game on `bricks`, drawn after `max_turns` turns
    /// (at most [`TURN_CAPACITY`]; larger values are clamped). Bits above
    /// 27 in each int are ignored, and the bases, steel and tanks replace
    /// any brick on their cells, as in the judge.
    pub fn with_max_turns(bricks: Bricks, max_turns: u32) -> Field {
        let mut brick_bits = 0u128;
        for (i, &word) in bricks.iter().enumerate() {
            for j in 0..27 {
                if word >> j & 1 == 1 {
                    brick_bits |= 1 << pad(27 * i + j);
                }
            }
        }
        let mut pos = [DEAD; 4];
        for side in 0..SIDES {
            for tank in 0..TANKS_PER_SIDE {
                let (x, y) = TANK_START[side][tank];
                pos[side * 2 + tank] = pad(cell(x, y)) as u8;
                brick_bits &= !(1 << pad(cell(x, y)));
            }
            brick_bits &= !(1 << BASE_P[side]);
        }
        brick_bits &= !STEEL_MASK;
        let mut field = Field {
            core: Core {
                walls: brick_bits | FIXED | BIT[BASE_P[BLUE]] | BIT[BASE_P[RED]],
                occ: 0,
                pos,
                alive: 0b1111,
                bases: 0b11,
                shot: 0,
            },
            turn: 1,
            max_turns: max_turns.min(TURN_CAPACITY as u32) as u16,
            log: FixedList::new(),
        };
        field.core.occ = Field::compute_occupancy(field.core.walls, &field.core.pos);
        field
    }

    /// Turns played: 0 at the start, +1 per applied turn (what
    /// [`Field::undo`] can take back). The judge numbers the turn being
    /// played `turn() + 1`.
    #[inline]
    pub fn turn(&self) -> u32 {
        u32::from(self.turn) - 1
    }

    /// The turn limit: the game is drawn once this many turns have been
    /// played.
    #[inline]
    pub fn max_turns(&self) -> u32 {
        u32::from(self.max_turns)
    }

    /// The items at `(x, y)` (see [`item`]).
    ///
    /// # Panics
    /// When `(x, y)` is off the board.
    #[inline]
    pub fn at(&self, x: usize, y: usize) -> u8 {
        assert!(x < WIDTH && y < HEIGHT, "({x}, {y}) is off the board");
        self.items(pad(cell(x, y)))
    }

    /// The items of cell index `c` (`y * WIDTH + x`).
    ///
    /// # Panics
    /// When `c >= CELLS`.
    #[inline]
    pub fn at_cell(&self, c: usize) -> u8 {
        assert!(c < CELLS, "cell {c} is off the board");
        self.items(pad(c))
    }

    /// The items at padded index `p`.
    #[inline]
    fn items(&self, p: usize) -> u8 {
        let core = &self.core;
        let mut v = (self.bricks() >> p) as u8 & 1;
        v |= ((STEEL_MASK >> p) as u8 & 1) << 1;
        for (side, &b) in BASE_P.iter().enumerate() {
            if b == p && core.bases >> side & 1 == 1 {
                v |= item::BASE;
            }
        }
        v | self.tanks_at(p) << 3
    }

    /// Bit `i` set for each live tank `i` at padded index `p`.
    #[inline]
    fn tanks_at(&self, p: usize) -> u8 {
        let core = &self.core;
        let mut m = 0u8;
        for (i, &q) in core.pos.iter().enumerate() {
            m |= u8::from(q as usize == p) << i;
        }
        m & core.alive
    }

    /// Every non-empty cell (and the border) as a padded bitboard.
    #[inline]
    fn occupancy(&self) -> u128 {
        self.core.occ
    }

    /// `walls` and the tanks at `pos`, recomputed.
    #[inline]
    fn compute_occupancy(walls: u128, pos: &[u8; 4]) -> u128 {
        // A destroyed tank sits on border cell 0, already set.
        walls
            | BIT[pos[0] as usize & IDX]
            | BIT[pos[1] as usize & IDX]
            | BIT[pos[2] as usize & IDX]
            | BIT[pos[3] as usize & IDX]
    }

    /// The bricks as a padded bitboard.
    #[inline]
    fn bricks(&self) -> u128 {
        self.core.walls & !(FIXED | BIT_BASES[BLUE] | BIT_BASES[RED])
    }

    /// The bricks still standing, bit `cell(x, y)` set for each.
    pub fn brick_bits(&self) -> u128 {
        let mut out = 0u128;
        for c in 0..CELLS {
            if self.bricks() >> pad(c) & 1 == 1 {
                out |= 1 << c;
            }
        }
        out
    }

    /// Whether `tank` of `side` is alive.
    #[inline]
    pub fn tank_alive(&self, side: usize, tank: usize) -> bool {
        self.core.alive >> (side * 2 + tank) & 1 == 1
    }

    /// Where `tank` of `side` is, `None` once destroyed.
    #[inline]
    pub fn tank_position(&self, side: usize, tank: usize) -> Option<(usize, usize)> {
        self.tank_cell(side * 2 + tank)
            .map(|c| (c % WIDTH, c / WIDTH))
    }

    /// The cell index of tank `i` (`side * 2 + tank`), `None` once destroyed.
    #[inline]
    pub fn tank_cell(&self, i: usize) -> Option<usize> {
        let p = self.core.pos[i];
        (p != DEAD).then(|| unpad(p as usize))
    }

    /// Whether `tank` of `side` shot last turn (and so may not shoot now).
    #[inline]
    pub fn shot_last_turn(&self, side: usize, tank: usize) -> bool {
        self.core.shot >> (side * 2 + tank) & 1 == 1
    }

    /// Whether the base of `side` stands.
    #[inline]
    pub fn base_alive(&self, side: usize) -> bool {
        self.core.bases >> side & 1 == 1
    }

    /// Whether `side` has lost (both tanks or its base destroyed).
    #[inline]
    fn failed(&self, side: usize) -> bool {
        (self.core.alive >> (side * 2)) & 3 == 0 || self.core.bases >> side & 1 == 0
    }

    /// The result, as the sample's `GetGameResult`.
    #[inline]
    pub fn outcome(&self) -> Outcome {
        let blue = self.failed(BLUE);
        let red = self.failed(RED);
        if blue == red {
            if blue || self.turn > self.max_turns {
                Outcome::Draw
            } else {
                Outcome::Ongoing
            }
        } else if blue {
            Outcome::Win(RED)
        } else {
            Outcome::Win(BLUE)
        }
    }

    /// Whether the game has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        // Every side keeps a tank and its base, and turns remain.
        let alive = self.core.alive;
        let tanks_ok = alive & 0b11 != 0 && alive & 0b1100 != 0;
        !(tanks_ok && self.core.bases == 0b11 && self.turn <= self.max_turns)
    }

    /// Whether `action` is valid for `tank` of `side` now, as the sample's
    /// `ActionIsValid`: no shot right after a shot, no move off the board or
    /// into a cell that is not empty. A destroyed tank's action is ignored
    /// by the judge, so anything is valid for it.
    #[inline]
    pub fn is_valid(&self, side: usize, tank: usize, action: TankAction) -> bool {
        let i = side * 2 + tank;
        self.core.pos[i] == DEAD || self.valid_mask(i) >> action.index() & 1 == 1
    }

    /// The valid actions of tank `i` (`side * 2 + tank`) as a bit set over
    /// [`TankAction::index`]; only stay for a destroyed tank.
    #[inline]
    pub fn valid_mask(&self, i: usize) -> u16 {
        self.valid_mask_in(i, self.occupancy())
    }

    #[inline]
    fn valid_mask_in(&self, i: usize, occ: u128) -> u16 {
        let c = self.choice_index(i, occ) as u32;
        (1 | ((c & 15) << 1) | ((c >> 4) * 0b1_1110_0000)) as u16
    }

    /// The index into [`CHOICES`] of tank `i` on occupancy `occ`: bit `d`
    /// set when the tank may move in direction `d`, bit 4 when it may shoot
    /// (all clear for a destroyed tank).
    #[inline(always)]
    fn choice_index(&self, i: usize, occ: u128) -> usize {
        // One shift brings the 23 cells from `p - PW` to `p + PW` into a
        // word: up is bit 0, left bit 10, right bit 12, down bit 22. A
        // destroyed tank (cell 0) gets its moves masked off.
        let core = &self.core;
        let p = core.pos[i] as usize;
        let live = u64::from(core.alive >> i & 1);
        let w = !((occ >> (p.wrapping_sub(PW) & IDX)) as u64) & 0x40_1401 & live.wrapping_neg();
        // Gather bits 0 (up), 12 (right), 22 (down), 10 (left) into bits
        // 22..26 with one multiplication (no two partial products collide).
        let moves = (w.wrapping_mul(GATHER) >> 22 & 0xf) as usize;
        let can_shoot = usize::from((core.shot | !core.alive) >> i & 1 == 0);
        moves | can_shoot << 4
    }

    /// Replaces `out` with the valid actions of `tank` of `side` (only
    /// [`TankAction::Stay`] for a destroyed tank).
    pub fn legal_tank_actions(&self, side: usize, tank: usize, out: &mut TankActions) {
        out.clear();
        let mut mask = self.valid_mask(side * 2 + tank);
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            out.push(TankAction::ALL[k]);
            mask &= mask - 1;
        }
    }

    /// Replaces `out` with every pair of valid actions of the tanks of
    /// `side` (tank 0's action varies slowest).
    pub fn legal_side_actions(&self, side: usize, out: &mut SideActions) {
        out.clear();
        let occ = self.occupancy();
        let m0 = self.valid_mask_in(side * 2, occ);
        let m1 = self.valid_mask_in(side * 2 + 1, occ);
        let mut a = m0;
        while a != 0 {
            let i = a.trailing_zeros() as usize;
            a &= a - 1;
            let mut b = m1;
            while b != 0 {
                let j = b.trailing_zeros() as usize;
                b &= b - 1;
                out.push(SideAction([ACTION16[i & 15], ACTION16[j & 15]]));
            }
        }
    }

    /// Checks a joint turn `actions[side][tank]` against the rules, naming
    /// the first live tank (blue 0, blue 1, red 0, red 1) whose action is
    /// invalid.
    ///
    /// # Errors
    /// [`InvalidAction`] for the first invalid action of a live tank.
    pub fn check(&self, actions: [[TankAction; 2]; 2]) -> Result<(), InvalidAction> {
        for (side, pair) in actions.iter().enumerate() {
            for (tank, &action) in pair.iter().enumerate() {
                if !self.is_valid(side, tank, action) {
                    return Err(InvalidAction { side, tank, action });
                }
            }
        }
        Ok(())
    }

    /// Plays a joint turn after checking it; on error the field is unchanged.
    ///
    /// # Errors
    /// [`TurnError::GameOver`] when the game is over; else the first
    /// invalid action of a live tank, as [`Field::check`].
    pub fn try_apply(&mut self, actions: [[TankAction; 2]; 2]) -> Result<(), TurnError> {
        if self.is_over() || self.log.is_full() {
            return Err(TurnError::GameOver { turn: self.turn() });
        }
        self.check(actions)?;
        self.apply_unchecked(actions);
        Ok(())
    }

    /// The first occupied padded cell from `p` in direction `dir` (a border
    /// cell when nothing is in the way), on occupancy `occ`.
    #[inline]
    fn ray(p: usize, dir: usize, occ: u128) -> usize {
        // The border guarantees a set bit on every ray. Right and down
        // look for the lowest bit beyond `p`, up and left for the highest
        // below it: both are computed and one is picked without a branch
        // (a random direction would defeat branch prediction).
        let b = occ & RAYS[(dir & 3) << 7 | (p & IDX)];
        let low = b.trailing_zeros() as usize;
        let high = IDX - b.leading_zeros() as usize;
        let forward = (dir.wrapping_sub(1) < 2) as usize;
        let m = forward.wrapping_neg();
        (low & m) | (high & !m)
    }

    /// Plays a joint turn `actions[side][tank]`, as the sample's `DoAction`:
    /// all moves first, then every shot from the new positions (the mutual
    /// shot rule: two lone tanks shooting at each other both survive), then
    /// everything hit is destroyed (steel excepted).
    ///
    /// The actions must be valid ([`Field::check`]); an invalid one gives a
    /// state the judge would never reach, but nothing unsafe.
    ///
    /// # Panics
    /// When the undo log is full ([`TURN_CAPACITY`] turns applied).
    #[inline]
    pub fn apply_unchecked(&mut self, actions: [[TankAction; 2]; 2]) {
        self.apply_indices([
            actions[0][0].index(),
            actions[0][1].index(),
            actions[1][0].index(),
            actions[1][1].index(),
        ]);
    }

    /// [`Field::apply_unchecked`] with each tank's [`TankAction::index`]
    /// (0 stay, 1..5 moves, 5..9 shots, direction `(k - 1) % 4`).
    #[inline(always)]
    fn apply_indices(&mut self, acts: [usize; 4]) {
        self.log.push(self.core);
        let core = &mut self.core;
        // 1. Moves: a tank that stays, shoots or is dead moves by zero.
        let mut shooters = 0u8;
        for (i, &a) in acts.iter().enumerate() {
            let live = core.alive >> i & 1;
            let delta = MOVE_DELTA[a & 15] & (live as usize).wrapping_neg();
            core.pos[i] = ((core.pos[i] as usize).wrapping_add(delta) & IDX) as u8;
            shooters |= (u8::from(a >= 5) & live) << i;
        }
        // 2. Shots, all from the positions after the moves.
        let occ = Field::compute_occupancy(core.walls, &core.pos);
        let tanks_at = |p: usize| {
            let mut m = 0u8;
            for (i, &q) in core.pos.iter().enumerate() {
                m |= u8::from(q as usize == p) << i;
            }
            m & core.alive
        };
        // Live tanks stand where `occ` has a bit and `walls` has none.
        let tank_cells = occ & !core.walls;
        let mut hit = 0u128;
        let mut left = shooters;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let dir = acts[i].wrapping_sub(1) & 3;
            let from = core.pos[i] as usize & IDX;
            let c = Field::ray(from, dir, occ) & IDX;
            let at = BIT[c];
            // Most shots end on a wall: only a tank's cell needs the
            // mutual-shot test.
            if at & tank_cells != 0 {
                let there = tanks_at(c);
                if !multiple(there) && !multiple(tanks_at(from)) {
                    let theirs = acts[there.trailing_zeros() as usize & 3];
                    if theirs >= 5 && theirs.wrapping_sub(1) & 3 == (dir + 2) & 3 {
                        continue; // mutual shot: both survive
                    }
                }
            }
            hit |= at;
        }
        // 3. Destruction (border and steel cells are never destroyed).
        let tanks_hit = hit & tank_cells;
        let cleared = hit & !FIXED;
        core.walls &= !cleared;
        // Every hit cell is emptied (steel and border aside).
        core.occ = occ & !cleared;
        let blue_base = u8::from(hit & BIT_BASES[BLUE] != 0);
        let red_base = u8::from(hit & BIT_BASES[RED] != 0);
        core.bases &= !(blue_base | red_base << 1);
        if tanks_hit != 0 {
            for i in 0..4 {
                let at = BIT[core.pos[i] as usize & IDX];
                let killed = u8::from(hit & at != 0) & (core.alive >> i);
                core.alive &= !(killed << i);
                core.pos[i] &= killed.wrapping_sub(1);
            }
        }
        core.shot = shooters;
        self.turn += 1;
    }

    /// Takes back the last turn, as the sample's `Revert`. Returns `false`
    /// (and changes nothing) at the start of the game.
    #[inline]
    pub fn undo(&mut self) -> bool {
        match self.log.pop() {
            Some(core) => {
                self.core = core;
                self.turn -= 1;
                true
            }
            None => false,
        }
    }

    /// A uniformly random valid action for every live tank (stay for the
    /// destroyed ones), as `actions[side][tank]`: the C++ sample's
    /// benchmark draws the same distribution by rejection.
    #[inline]
    pub fn random_turn(&self, rng: &mut Rng) -> [[TankAction; 2]; 2] {
        // One 64-bit draw serves the four tanks: each pick multiplies the
        // remaining fraction by the number of choices and keeps the integer
        // part (the pick) and the fractional part (for the next tank). At
        // most 13 of the 64 bits are used up, so every pick is uniform up to
        // a relative error below 2^-47.
        let k = self.random_indices(rng);
        [
            [ACTION16[k[0] & 15], ACTION16[k[1] & 15]],
            [ACTION16[k[2] & 15], ACTION16[k[3] & 15]],
        ]
    }

    /// [`Field::random_turn`] as [`TankAction::index`] values per tank.
    #[inline(always)]
    fn random_indices(&self, rng: &mut Rng) -> [usize; 4] {
        let mut r = rng.next_u64();
        let occ = self.occupancy();
        let mut out = [0usize; 4];
        for (i, k) in out.iter_mut().enumerate() {
            let choices = CHOICES[self.choice_index(i, occ) & 31];
            let prod = u128::from(r) * u128::from(choices & 15);
            r = prod as u64;
            let pick = (prod >> 64) as u32 & 15;
            *k = (choices >> (4 + 4 * pick)) as usize & 15;
        }
        out
    }

    /// Plays uniformly random valid turns until the game ends; returns the
    /// number of turns played (undo them to get back).
    ///
    /// # Panics
    /// When the undo log fills up first (a turn limit above what was left).
    pub fn random_playout(&mut self, rng: &mut Rng) -> u32 {
        let mut turns = 0;
        while !self.is_over() {
            let k = self.random_indices(rng);
            self.apply_indices(k);
            turns += 1;
        }
        turns
    }

    /// A 64-bit hash of the position (bricks, tanks, bases, who shot last
    /// turn, turn number), for transposition tables.
    #[inline]
    pub fn key(&self) -> u64 {
        self.hash(u64::from(self.turn))
    }

    /// A 64-bit hash of the position without the turn number (bricks,
    /// tanks, bases, who shot last turn): equal when the same position
    /// comes back later in a match.
    #[inline]
    pub fn position_key(&self) -> u64 {
        self.hash(0)
    }

    /// The hash of [`Field::key`] with `turn` in place of the turn number.
    #[inline]
    fn hash(&self, turn: u64) -> u64 {
        let core = &self.core;
        let lo = core.walls as u64;
        let hi = (core.walls >> 64) as u64;
        let tanks = u64::from(u32::from_le_bytes(core.pos));
        let flags = u64::from(core.alive)
            | u64::from(core.bases) << 4
            | u64::from(core.shot) << 8
            | turn << 12;
        let mut h = mix(lo ^ 0x9e37_79b9_7f4a_7c15);
        h = mix(h ^ hi);
        h = mix(h ^ (tanks | flags << 32));
        h
    }

    /// The first non-empty cell seen from cell `from` in direction `dir`
    /// (0 up .. 3 left), `None` when the ray leaves the board.
    #[inline]
    pub fn first_hit(&self, from: usize, dir: usize) -> Option<usize> {
        let c = Field::ray(pad(from), dir, self.occupancy());
        (BORDER >> c & 1 == 0).then(|| unpad(c))
    }
}
/// The neighbour of cell `c` in direction `dir` (0 up, 1 right, 2 down,
/// 3 left), `None` off the board.
#[inline]
pub fn step(c: usize, dir: usize) -> Option<usize> {
    let (x, y) = ((c % WIDTH) as i32 + DX[dir], (c / WIDTH) as i32 + DY[dir]);
    (x >= 0 && x < WIDTH as i32 && y >= 0 && y < HEIGHT as i32)
        .then(|| cell(x as usize, y as usize))
}

/// Direction steps up, right, down, left.
const DX: [i32; 4] = [0, 1, 0, -1];
const DY: [i32; 4] = [-1, 0, 1, 0];

#[inline]
fn multiple(items: u8) -> bool {
    items & items.wrapping_sub(1) != 0
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl fmt::Display for Field {
    /// The field as the sample's `DebugPrint` draws it: `.` empty, `#`
    /// brick, `%` steel, `*` base, `b`/`B` blue tank 0/1, `r`/`R` red tank
    /// 0/1, `@` several tanks; then the bases, tanks, turn and result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let ch = match self.at(x, y) {
                    item::NONE => '.',
                    item::BRICK => '#',
                    item::STEEL => '%',
                    item::BASE => '*',
                    item::BLUE0 => 'b',
                    item::BLUE1 => 'B',
                    item::RED0 => 'r',
                    item::RED1 => 'R',
                    _ => '@',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        let word = |b: bool| if b { "alive" } else { "destroyed" };
        for (side, name) in ["blue", "red"].iter().enumerate() {
            writeln!(
                f,
                "{name}: base {}, tank 0 {}, tank 1 {}",
                word(self.base_alive(side)),
                word(self.tank_alive(side, 0)),
                word(self.tank_alive(side, 1))
            )?;
        }
        let result = match self.outcome() {
            Outcome::Ongoing => "not finished",
            Outcome::Draw => "draw",
            Outcome::Win(BLUE) => "blue won",
            Outcome::Win(_) => "red won",
        };
        writeln!(f, "turn {}: {result}", self.turn)
    }
}

impl Game for Field {
    type Action = SideAction;
    type Actions = SideActions;

    fn player_count(&self) -> usize {
        SIDES
    }

    fn is_over(&self) -> bool {
        Field::is_over(self)
    }

    fn is_active(&self, player: usize) -> bool {
        !self.is_over() && self.core.alive >> (player * 2) & 3 != 0
    }

    fn legal_actions(&self, player: usize, out: &mut SideActions) {
        self.legal_side_actions(player, out);
    }

    #[inline]
    fn apply_unchecked(&mut self, joint: &[SideAction]) {
        Field::apply_unchecked(self, [joint[0].0, joint[1].0]);
    }

    fn undo(&mut self) -> bool {
        Field::undo(self)
    }

    fn scores(&self, out: &mut [f64]) {
        out[..SIDES].copy_from_slice(&self.outcome().scores());
    }
}

impl Rules for Field {
    const NAME: &'static str = "tank";
    const SEATS: usize = SIDES;
    const MAX_TURNS: u32 = MAX_TURNS;
    const SCORING: Scoring = Scoring::WinDrawLoss {
        win: 2.0,
        draw: 1.0,
        loss: 0.0,
    };
    const LEGEND: &'static str = ". empty, # brick, % steel, * base (blue's at the top, red's at \
        the bottom), b B blue tanks 0 and 1, r R red tanks 0 and 1, @ several tanks;\nactions \
        [tank 0, tank 1] of blue then red: -1 stay, 0-3 move up/right/down/left, 4-7 shoot \
        up/right/down/left";

    type Setup = Map;
    type Error = TurnError;

    fn setup_from_seed(seed: u32) -> Map {
        Map::generate(seed)
    }
    fn start(map: &Map) -> Field {
        Field::with_max_turns(
            map.bricks,
            map.max_turns.clamp(0, TURN_CAPACITY as i32) as u32,
        )
    }
    fn turn(&self) -> u32 {
        Field::turn(self)
    }
    /// Checks each live tank's action ([`Field::check`]; a destroyed
    /// tank's action is ignored, as the judge ignores it).
    fn try_apply(&mut self, joint: &[SideAction]) -> Result<(), TurnError> {
        match joint {
            [blue, red] => Field::try_apply(self, [blue.0, red.0]),
            _ => Err(TurnError::Sides { found: joint.len() }),
        }
    }
    fn random_playout(&mut self, rng: &mut Rng) -> u32 {
        Field::random_playout(self, rng)
    }
    fn check_invariants(&self) -> Result<(), String> {
        Field::check_invariants(self)
    }
    fn bench_peer_args(map: &Map) -> Option<Vec<PeerArg>> {
        // `tank_bench BRICK0 BRICK1 BRICK2 PLAYOUTS`
        Some(
            map.bricks
                .iter()
                .map(|b| PeerArg::Text(b.to_string()))
                .collect(),
        )
    }
}

impl Field {
    /// Checks the position's consistency: the occupancy against a full
    /// recomputation, the undo log against the turn counter, live tanks on
    /// empty cells of the board and destroyed ones off it, the bases'
    /// flags against their cells, steel and the border standing, and the
    /// end of the game where the outcome puts it.
    ///
    /// # Errors
    /// The first broken invariant, described.
    pub fn check_invariants(&self) -> Result<(), String> {
        let core = &self.core;
        if core.occ != Field::compute_occupancy(core.walls, &core.pos) {
            return Err("the occupancy differs from its recomputation".into());
        }
        if self.log.len() as u32 != self.turn() {
            return Err(format!(
                "{} turns played, {} in the undo log",
                self.turn(),
                self.log.len()
            ));
        }
        if core.walls & FIXED != FIXED {
            return Err("steel or the border was destroyed".into());
        }
        for i in 0..4 {
            let alive = core.alive >> i & 1 == 1;
            let p = core.pos[i] as usize;
            if alive != (p != usize::from(DEAD)) {
                return Err(format!("tank {i}: alive {alive}, cell {p}"));
            }
            if alive && (BORDER >> p & 1 == 1 || core.walls >> p & 1 == 1) {
                return Err(format!("tank {i} stands on a wall or the border ({p})"));
            }
        }
        for (side, &base) in BIT_BASES.iter().enumerate() {
            let standing = core.walls & base != 0;
            if standing != self.base_alive(side) {
                return Err(format!("side {side}'s base flag disagrees with its cell"));
            }
        }
        if self.is_over() != (self.outcome() != Outcome::Ongoing) {
            return Err(format!(
                "turn {}: is_over() says {}, the outcome {:?}",
                self.turn(),
                self.is_over(),
                self.outcome()
            ));
        }
        Ok(())
    }
}
