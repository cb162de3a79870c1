//! Tank (Botzone, 2018 rules): two sides of two tanks each on a 9×9 field
//! with bricks, steel and one base per side; both sides move at once.
//!
//! The rules are those of the Botzone wiki's Tank page and its C++ sample
//! (`DoAction`, `Revert`, `GetGameResult`), including the rule added on
//! 2018-10-18 that a tank may not shoot two turns in a row. [`Field`] keeps
//! the whole position in fixed arrays; [`Field::apply_unchecked`] plays a
//! joint turn and [`Field::undo`] takes it back from a log in fixed storage,
//! so neither touches the heap. The judge's field generator is
//! [`bricks_from_seed`]; [`eval`] holds a static evaluation for search.
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
//! assert_eq!(field.turn(), 2);
//! assert_eq!(field.outcome(), Outcome::Ongoing);
//! assert!(field.undo());
//! assert_eq!(field, Field::new(bricks_from_seed(1)));
//! ```

use std::fmt;

use crate::fixed::FixedList;
use crate::games::Game;
use crate::rng::Rng;

pub mod eval;
mod map;

pub use map::bricks_from_seed;

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
/// when this turn has been played and neither side has lost.
pub const MAX_TURN: u32 = 100;
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

/// Marks a destroyed tank's position.
const DEAD: u8 = u8::MAX;

/// Direction steps up, right, down, left (the order of action codes).
const DX: [i32; 4] = [0, 1, 0, -1];
const DY: [i32; 4] = [-1, 0, 1, 0];

/// `STEP[cell][dir]`: the neighbouring cell in direction `dir`, or `DEAD`
/// off the board.
const STEP: [[u8; 4]; CELLS] = {
    let mut t = [[DEAD; 4]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let x = (c % WIDTH) as i32;
        let y = (c / WIDTH) as i32;
        let mut d = 0;
        while d < 4 {
            let nx = x + DX[d];
            let ny = y + DY[d];
            if nx >= 0 && nx < WIDTH as i32 && ny >= 0 && ny < HEIGHT as i32 {
                t[c][d] = (ny as usize * WIDTH + nx as usize) as u8;
            }
            d += 1;
        }
        c += 1;
    }
    t
};

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

/// What [`Field::undo`] needs to take one turn back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TurnRecord {
    /// Tank cells before the turn.
    pre_pos: [u8; 4],
    /// Tank cells after the moves, before the shots.
    mid_pos: [u8; 4],
    /// Cells hit by shots (distinct) and what they held.
    hit_cells: [u8; 4],
    hit_items: [u8; 4],
    hits: u8,
    alive: u8,
    bases: u8,
    shot: u8,
}

/// A Tank position with its undo log: everything the judge tracks.
///
/// Tanks are numbered `side * 2 + tank` (blue 0, blue 1, red 0, red 1)
/// wherever one index is used. Equality compares the position and the
/// history that undo can take back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    cells: [u8; CELLS],
    /// Tank cells, `DEAD` once destroyed.
    pos: [u8; 4],
    /// Bit `i`: tank `i` is alive.
    alive: u8,
    /// Bit `side`: that side's base stands.
    bases: u8,
    /// Bit `i`: tank `i` shot last turn (so it may not shoot now).
    shot: u8,
    /// Bit `cell`: a brick stands there (kept for hashing and evaluation).
    bricks: u128,
    turn: u16,
    max_turn: u16,
    log: FixedList<TurnRecord, TURN_CAPACITY>,
}

impl Field {
    /// The start of a game on `bricks` with the judge's turn limit.
    pub fn new(bricks: Bricks) -> Field {
        Field::with_max_turn(bricks, MAX_TURN)
    }

    /// The start of a game on `bricks`, drawn after `max_turn` turns
    /// (at most [`TURN_CAPACITY`]; larger values are clamped).
    pub fn with_max_turn(bricks: Bricks, max_turn: u32) -> Field {
        let mut cells = [item::NONE; CELLS];
        for (i, &word) in bricks.iter().enumerate() {
            for j in 0..27 {
                if word >> j & 1 == 1 {
                    cells[27 * i + j] = item::BRICK;
                }
            }
        }
        let mut pos = [DEAD; 4];
        for side in 0..SIDES {
            for tank in 0..TANKS_PER_SIDE {
                let (x, y) = TANK_START[side][tank];
                cells[cell(x, y)] = item::tank(side, tank);
                pos[side * 2 + tank] = cell(x, y) as u8;
            }
            let (bx, by) = BASE_POS[side];
            cells[cell(bx, by)] = item::BASE;
            let (sx, sy) = STEEL_POS[side];
            cells[cell(sx, sy)] = item::STEEL;
        }
        let mut brick_bits = 0u128;
        for (c, &v) in cells.iter().enumerate() {
            if v == item::BRICK {
                brick_bits |= 1 << c;
            }
        }
        Field {
            cells,
            pos,
            alive: 0b1111,
            bases: 0b11,
            shot: 0,
            bricks: brick_bits,
            turn: 1,
            max_turn: max_turn.min(TURN_CAPACITY as u32) as u16,
            log: FixedList::new(),
        }
    }

    /// The turn number: 1 before any move, +1 per applied turn.
    #[inline]
    pub fn turn(&self) -> u32 {
        u32::from(self.turn)
    }

    /// The turn limit.
    #[inline]
    pub fn max_turn(&self) -> u32 {
        u32::from(self.max_turn)
    }

    /// Turns applied since the start (what [`Field::undo`] can take back).
    #[inline]
    pub fn history_len(&self) -> usize {
        self.log.len()
    }

    /// The items at `(x, y)` (see [`item`]).
    ///
    /// # Panics
    /// When `(x, y)` is off the board.
    #[inline]
    pub fn at(&self, x: usize, y: usize) -> u8 {
        assert!(x < WIDTH && y < HEIGHT, "({x}, {y}) is off the board");
        self.cells[cell(x, y)]
    }

    /// All cells, indexed by [`cell`].
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The bricks still standing, bit `cell(x, y)` set for each.
    #[inline]
    pub fn brick_bits(&self) -> u128 {
        self.bricks
    }

    /// Whether `tank` of `side` is alive.
    #[inline]
    pub fn tank_alive(&self, side: usize, tank: usize) -> bool {
        self.alive >> (side * 2 + tank) & 1 == 1
    }

    /// Where `tank` of `side` is, `None` once destroyed.
    #[inline]
    pub fn tank_position(&self, side: usize, tank: usize) -> Option<(usize, usize)> {
        let p = self.pos[side * 2 + tank];
        (p != DEAD).then(|| (p as usize % WIDTH, p as usize / WIDTH))
    }

    /// The cell index of tank `i` (`side * 2 + tank`), `None` once destroyed.
    #[inline]
    pub fn tank_cell(&self, i: usize) -> Option<usize> {
        let p = self.pos[i];
        (p != DEAD).then_some(p as usize)
    }

    /// Whether `tank` of `side` shot last turn (and so may not shoot now).
    #[inline]
    pub fn shot_last_turn(&self, side: usize, tank: usize) -> bool {
        self.shot >> (side * 2 + tank) & 1 == 1
    }

    /// Whether the base of `side` stands.
    #[inline]
    pub fn base_alive(&self, side: usize) -> bool {
        self.bases >> side & 1 == 1
    }

    /// Whether `side` has lost (both tanks or its base destroyed).
    #[inline]
    fn failed(&self, side: usize) -> bool {
        (self.alive >> (side * 2)) & 3 == 0 || self.bases >> side & 1 == 0
    }

    /// The result, as the sample's `GetGameResult`.
    #[inline]
    pub fn outcome(&self) -> Outcome {
        let blue = self.failed(BLUE);
        let red = self.failed(RED);
        if blue == red {
            if blue || self.turn > self.max_turn {
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
        self.outcome() != Outcome::Ongoing
    }

    /// Whether `action` is valid for `tank` of `side` now, as the sample's
    /// `ActionIsValid`: no shot right after a shot, no move off the board or
    /// into a cell that is not empty. A destroyed tank's action is ignored
    /// by the judge, so anything is valid for it.
    #[inline]
    pub fn is_valid(&self, side: usize, tank: usize, action: TankAction) -> bool {
        let i = side * 2 + tank;
        let p = self.pos[i];
        if p == DEAD {
            return true;
        }
        match action {
            TankAction::Stay => true,
            a if a.is_shoot() => self.shot >> i & 1 == 0,
            a => {
                let to = STEP[p as usize][a as usize];
                to != DEAD && self.cells[to as usize] == item::NONE
            }
        }
    }

    /// The valid actions of tank `i` (`side * 2 + tank`) as a bit set over
    /// [`TankAction::index`]; only stay for a destroyed tank.
    #[inline]
    pub fn valid_mask(&self, i: usize) -> u16 {
        let p = self.pos[i];
        if p == DEAD {
            return 1;
        }
        let mut mask = 1u16;
        let step = &STEP[p as usize];
        for (d, &to) in step.iter().enumerate() {
            if to != DEAD && self.cells[to as usize] == item::NONE {
                mask |= 2 << d;
            }
        }
        if self.shot >> i & 1 == 0 {
            mask |= 0b1_1110_0000;
        }
        mask
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
        let m0 = self.valid_mask(side * 2);
        let m1 = self.valid_mask(side * 2 + 1);
        let mut a = m0;
        while a != 0 {
            let i = a.trailing_zeros() as usize;
            a &= a - 1;
            let mut b = m1;
            while b != 0 {
                let j = b.trailing_zeros() as usize;
                b &= b - 1;
                out.push(SideAction([TankAction::ALL[i], TankAction::ALL[j]]));
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
    /// [`InvalidAction`] as [`Field::check`]. Also when the game is already
    /// over or the undo log is full, reported as the first tank's action.
    pub fn try_apply(&mut self, actions: [[TankAction; 2]; 2]) -> Result<(), InvalidAction> {
        self.check(actions)?;
        if self.is_over() || self.log.is_full() {
            return Err(InvalidAction {
                side: BLUE,
                tank: 0,
                action: actions[0][0],
            });
        }
        self.apply_unchecked(actions);
        Ok(())
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
        let acts = [actions[0][0], actions[0][1], actions[1][0], actions[1][1]];
        let mut rec = TurnRecord {
            pre_pos: self.pos,
            alive: self.alive,
            bases: self.bases,
            shot: self.shot,
            ..TurnRecord::default()
        };
        // 1. Moves.
        for (i, &a) in acts.iter().enumerate() {
            if a.is_move() && self.pos[i] != DEAD {
                let from = self.pos[i] as usize;
                let to = STEP[from][a as usize];
                if to == DEAD {
                    continue;
                }
                let bit = 8u8 << i;
                self.cells[from] &= !bit;
                self.cells[to as usize] |= bit;
                self.pos[i] = to;
            }
        }
        rec.mid_pos = self.pos;
        // 2. Shots, all from the positions after the moves.
        let mut shot = 0u8;
        for (i, &a) in acts.iter().enumerate() {
            if !a.is_shoot() || self.pos[i] == DEAD {
                continue;
            }
            shot |= 1 << i;
            let dir = (a as usize) & 3;
            let from = self.pos[i] as usize;
            let lone_here = !multiple(self.cells[from]);
            let mut c = from;
            loop {
                let next = STEP[c][dir];
                if next == DEAD {
                    break;
                }
                c = next as usize;
                let items = self.cells[c];
                if items == item::NONE {
                    continue;
                }
                if items & item::TANKS != 0 && lone_here && !multiple(items) {
                    let j = (items.trailing_zeros() - 3) as usize;
                    let theirs = acts[j];
                    if theirs.is_shoot() && (theirs as usize) & 3 == (dir + 2) & 3 {
                        break; // mutual shot: both survive
                    }
                }
                let n = rec.hits as usize;
                if !rec.hit_cells[..n].contains(&(c as u8)) {
                    rec.hit_cells[n] = c as u8;
                    rec.hits += 1;
                }
                break;
            }
        }
        // 3. Destruction.
        for k in 0..rec.hits as usize {
            let c = rec.hit_cells[k] as usize;
            let items = self.cells[c];
            rec.hit_items[k] = items;
            if items & item::BRICK != 0 {
                self.bricks &= !(1u128 << c);
            }
            if items & item::BASE != 0 {
                self.bases &= if c == cell(BASE_POS[BLUE].0, BASE_POS[BLUE].1) {
                    !1
                } else {
                    !2
                };
            }
            let mut tanks = items & item::TANKS;
            while tanks != 0 {
                let j = (tanks.trailing_zeros() - 3) as usize;
                tanks &= tanks - 1;
                self.alive &= !(1 << j);
                self.pos[j] = DEAD;
            }
            self.cells[c] = items & item::STEEL;
        }
        self.shot = shot;
        self.turn += 1;
        self.log.push(rec);
    }

    /// Takes back the last turn, as the sample's `Revert`. Returns `false`
    /// (and changes nothing) at the start of the game.
    #[inline]
    pub fn undo(&mut self) -> bool {
        let Some(rec) = self.log.pop() else {
            return false;
        };
        for k in (0..rec.hits as usize).rev() {
            let c = rec.hit_cells[k] as usize;
            let items = rec.hit_items[k];
            self.cells[c] = items;
            if items & item::BRICK != 0 {
                self.bricks |= 1u128 << c;
            }
        }
        for i in 0..4 {
            let (pre, mid) = (rec.pre_pos[i], rec.mid_pos[i]);
            if pre != mid {
                let bit = 8u8 << i;
                self.cells[mid as usize] &= !bit;
                self.cells[pre as usize] |= bit;
            }
        }
        self.pos = rec.pre_pos;
        self.alive = rec.alive;
        self.bases = rec.bases;
        self.shot = rec.shot;
        self.turn -= 1;
        true
    }

    /// A uniformly random valid action for every live tank (stay for the
    /// destroyed ones), as `actions[side][tank]`: the C++ sample's
    /// benchmark draws the same distribution by rejection.
    #[inline]
    pub fn random_turn(&self, rng: &mut Rng) -> [[TankAction; 2]; 2] {
        let mut out = [[TankAction::Stay; 2]; 2];
        for i in 0..4 {
            if self.pos[i] == DEAD {
                continue;
            }
            let mut mask = self.valid_mask(i);
            let mut k = rng.below(mask.count_ones());
            while k > 0 {
                mask &= mask - 1;
                k -= 1;
            }
            out[i >> 1][i & 1] = TankAction::ALL[mask.trailing_zeros() as usize];
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
            let joint = self.random_turn(rng);
            self.apply_unchecked(joint);
            turns += 1;
        }
        turns
    }

    /// A 64-bit hash of the position (bricks, tanks, bases, who shot last
    /// turn, turn number), for transposition tables.
    #[inline]
    pub fn key(&self) -> u64 {
        let lo = self.bricks as u64;
        let hi = (self.bricks >> 64) as u64;
        let tanks = u64::from(u32::from_le_bytes(self.pos));
        let flags = u64::from(self.alive)
            | u64::from(self.bases) << 4
            | u64::from(self.shot) << 8
            | u64::from(self.turn) << 12;
        let mut h = mix(lo ^ 0x9e37_79b9_7f4a_7c15);
        h = mix(h ^ hi);
        h = mix(h ^ (tanks | flags << 32));
        h
    }

    /// The first non-empty cell seen from `from` in direction `dir`
    /// (0 up .. 3 left), `None` when the ray leaves the board.
    #[inline]
    pub fn first_hit(&self, from: usize, dir: usize) -> Option<usize> {
        let mut c = from;
        loop {
            let next = STEP[c][dir];
            if next == DEAD {
                return None;
            }
            c = next as usize;
            if self.cells[c] != item::NONE {
                return Some(c);
            }
        }
    }
}

/// The neighbour of `cell` in direction `dir` (0 up, 1 right, 2 down,
/// 3 left), `None` off the board.
#[inline]
pub fn step(cell: usize, dir: usize) -> Option<usize> {
    let s = STEP[cell][dir];
    (s != DEAD).then_some(s as usize)
}

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
                let ch = match self.cells[cell(x, y)] {
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
        !self.is_over() && self.alive >> (player * 2) & 3 != 0
    }

    fn legal_actions(&self, player: usize, out: &mut SideActions) {
        self.legal_side_actions(player, out);
    }

    fn apply(&mut self, joint: &[SideAction]) {
        self.apply_unchecked([joint[0].0, joint[1].0]);
    }

    fn undo(&mut self) -> bool {
        Field::undo(self)
    }

    fn scores(&self, out: &mut [f64]) {
        out[..SIDES].copy_from_slice(&self.outcome().scores());
    }
}
