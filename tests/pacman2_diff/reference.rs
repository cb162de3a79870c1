//! The Pacman2 simulator as it stood before the lane (SWAR) fast paths
//! (commit 05b44dd), kept as a reference for the
//! randomized differential test (tests/pacman2_diff.rs). Its results
//! passed every golden test.
#![allow(dead_code, clippy::all)]

use botzone::games::pacman2::{
    Action, Actions, Constants, Map, Player, GENERATOR, MAX_SIDE, MAX_TURNS, PLAYERS,
};
use botzone::rng::Rng;
use std::fmt;

/// The turn limit, as an index into the backtrack stack.
const MAX_TURN: usize = MAX_TURNS as usize;

const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];
const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
const SMALL_FRUIT: u8 = 16;
const LARGE_FRUIT: u8 = 32;

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
    turn: u8,
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
    /// Stay, the moves without a wall, then the four shots: a random
    /// valid action is `roll[cell][below(1 + moves + 4 if strong)]`.
    roll: [[i8; 16]; 128],
    move_count: [u8; 128],
    /// Cells a beam from this cell passes, per direction.
    beam: [[Cells; 4]; 128],
    /// Cells the generators fill (no generator cell).
    spawn: Cells,
}

/// A Pacman2 game: the field, the players, and the turns played so far
/// (which [`Pacman2::undo`] takes back).
#[derive(Clone)]
pub struct Reference {
    board: Board,
    cur: Dynamic,
    history: [Dynamic; MAX_TURN],
}

impl fmt::Debug for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pacman2 {{ turn: {}, players: {:?} }}",
            self.turn(),
            self.players()
        )
    }
}

impl PartialEq for Reference {
    /// Same field, same current state and same history.
    fn eq(&self, other: &Self) -> bool {
        let n = self.cur.turn as usize;
        self.board.width == other.board.width
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

impl Reference {
    /// The start of a game on `map` (every player with strength 1).
    pub fn new(map: &Map) -> Reference {
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
            move_count: [0; 128],
            beam: [[[0; 2]; 4]; 128],
            spawn: [0; 2],
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
                board.dest[i] = [i as u8; 16];
                board.valid[i] = 1;
                board.roll[i][0] = -1;
                let mut n = 0;
                for d in 0..4 {
                    let (nr, nc) = wrap(r, c, d);
                    if s & (1 << d) == 0 {
                        board.dest[i][d + 1] = idx(nr, nc);
                        board.valid[i] |= 1 << (d + 1);
                        n += 1;
                        board.roll[i][n] = d as i8;
                    }
                }
                for k in 0..4 {
                    board.roll[i][n + 1 + k] = 4 + k as i8;
                }
                board.move_count[i] = n as u8;
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
        Reference {
            board,
            cur,
            history: [Dynamic::default(); MAX_TURN],
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
    pub fn turn(&self) -> usize {
        self.cur.turn as usize
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
        a & a.wrapping_sub(1) == 0 || self.cur.turn as usize >= MAX_TURN
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
        let cell = self.cur.cell[p] as usize & 127;
        let shots = if self.cur.strength[p] > self.board.constants.skill_cost {
            4
        } else {
            0
        };
        let n = 1 + u32::from(self.board.move_count[cell]) + shots;
        Action::from_code(i64::from(self.board.roll[cell][rng.below(n) as usize & 15]))
    }

    /// A uniformly random valid action from the random fraction `r / 2^64`
    /// for any player (a dead player's action is ignored by `apply`), and
    /// what is left of `r` for the next pick.
    #[inline(always)]
    fn pick(&self, p: usize, r: u64) -> (Action, u64) {
        let cell = self.cur.cell[p] as usize & 127;
        let strong = self.cur.strength[p] > self.board.constants.skill_cost;
        let n = 1 + u32::from(self.board.move_count[cell]) + 4 * u32::from(strong);
        let m = u128::from(r) * u128::from(n);
        let k = (m >> 64) as usize;
        (
            Action::from_code(i64::from(self.board.roll[cell][k & 15])),
            m as u64,
        )
    }

    /// Plays one joint turn exactly as the judge's `NextTurn`
    /// (`joint[p]` for each player; dead players' entries are ignored).
    /// Returns `false` when the game ended on this turn, like `NextTurn`.
    /// Invalid actions are part of the game: the player dies.
    ///
    /// # Panics
    /// When `joint` has fewer than four entries, or (in debug builds) when
    /// the game is already over; in release builds, applying to a finished
    /// game does nothing once 100 turns are on the stack.
    #[inline]
    #[allow(clippy::needless_range_loop)] // players index several arrays
    pub fn apply(&mut self, joint: &[Action]) -> bool {
        let joint = [joint[0], joint[1], joint[2], joint[3]];
        debug_assert!(!self.is_over(), "apply on a finished game");
        let depth = self.cur.turn as usize;
        if depth >= MAX_TURN {
            return false;
        }
        self.history[depth] = self.cur;
        let b = &self.board;
        let d = &mut self.cur;
        let cost = b.constants.skill_cost;

        // Who stands where: bit `p` of `occ[cell]` for each live player.
        // Local and rebuilt every turn (zeroing 128 bytes is cheap), so
        // undo has nothing to restore.
        let mut occ = [0u8; 128];
        for p in 0..PLAYERS {
            occ[d.cell[p] as usize & 127] |= d.alive & (1 << p);
        }

        // 0. Invalid actions kill; a stronger player on the target cell
        // turns a move into staying. `act` holds code + 1 (0 = stay).
        let mut act = [0usize; PLAYERS];
        let mut errored = 0u8;
        let mut shots = 0u8;
        for p in 0..PLAYERS {
            // Dead players' codes become 0 (stay), which is always valid.
            let live = d.alive & (1 << p) != 0;
            let code =
                ((i32::from(joint[p].code()) + 1) as u32) & 0u32.wrapping_sub(u32::from(live));
            let cell = d.cell[p] as usize & 127;
            let ok = u32::from(b.valid[cell]) | if d.strength[p] > cost { 0x1e0 } else { 0 };
            if code >= 9 || (ok >> code) & 1 == 0 {
                d.strength[p] = 0;
                d.alive &= !(1 << p);
                errored |= 1 << p;
                occ[cell] &= !(1 << p);
                continue;
            }
            let target = b.dest[cell][code as usize & 15];
            let is_move = code.wrapping_sub(1) < 4;
            // Only a move can be scared (branch-free: moves onto occupied
            // cells are too common to predict).
            let others = occ[target as usize & 127] & 0u8.wrapping_sub(u8::from(is_move));
            let mut scared = false;
            for i in 0..PLAYERS {
                scared |= (others & (1 << i) != 0) & (d.strength[i] > d.strength[p]);
            }
            act[p] = if scared { 0 } else { code as usize };
            shots |= u8::from(code >= 5) << p;
        }

        // 1. Moves (dead players and non-moves stay put).
        for p in 0..PLAYERS {
            let from = d.cell[p] as usize & 127;
            let to = b.dest[from][act[p] & 15];
            let me = d.alive & (1 << p);
            occ[from] &= !me;
            occ[to as usize & 127] |= me;
            d.cell[p] = to;
        }

        // 2. Fights: on a shared cell the strongest eat the others.
        let alive = d.alive;
        let mut shared = false;
        for p in 0..PLAYERS {
            let me = alive & (1 << p);
            shared |= (me != 0) & (occ[d.cell[p] as usize & 127] != me);
        }
        if shared {
            let mut done = 0u8;
            for p in 0..PLAYERS {
                if alive & (1 << p) == 0 || done & (1 << p) != 0 {
                    continue;
                }
                let group = occ[d.cell[p] as usize & 127];
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
                        occ[d.cell[q] as usize & 127] &= !(1 << q);
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
            for q in 0..PLAYERS {
                let shared = occ[d.cell[q] as usize & 127] != 0;
                targets |= u8::from((errored & (1 << q) != 0) & shared) << q;
            }
            if b.hit * 2 == cost * 3 {
                // Where the targets stand: a beam that misses all of them
                // (the usual case) needs no per-player test.
                let mut spots: Cells = [0; 2];
                for q in 0..PLAYERS {
                    let on = u64::from(targets & (1 << q) != 0);
                    let cell = d.cell[q];
                    spots[(cell >> 6) as usize & 1] |= on << (cell & 63);
                }
                let mut rest = shooters;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize & 3;
                    rest &= rest - 1;
                    let beam = &b.beam[d.cell[p] as usize & 127][act[p].wrapping_sub(5) & 3];
                    d.strength[p] -= cost;
                    if (beam[0] & spots[0]) | (beam[1] & spots[1]) != 0 {
                        for q in 0..PLAYERS {
                            let hit = (targets & (1 << q) != 0) & has(beam, d.cell[q]);
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
                    let beam = &b.beam[d.cell[p] as usize & 127][(act[p] - 5) & 3];
                    for q in 0..PLAYERS {
                        if targets & (1 << q) != 0 && has(beam, d.cell[q]) {
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
                occ[d.cell[p] as usize & 127] &= !(u8::from(die) << p);
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
        let enh = b.constants.large_fruit_enhancement;
        let duration = b.constants.large_fruit_duration;
        for p in 0..PLAYERS {
            let cell = d.cell[p];
            let alone = (alive & (1 << p) != 0) & (occ[cell as usize & 127] == 1 << p);
            let (w, sh) = ((cell >> 6) as usize & 1, cell & 63);
            // Branch-free: `spot` is this cell's bit when the player is
            // alone on it; a small fruit goes first.
            let spot = u64::from(alone) << sh;
            let small = d.small[w] & spot;
            let large = d.large[w] & spot & !d.small[w];
            d.small[w] ^= small;
            d.large[w] ^= large;
            let (small, large) = (small != 0, large != 0);
            d.small_fruit_count -= i32::from(small);
            let fresh = large & (d.power_up_left[p] == 0);
            d.strength[p] += i32::from(small) + i32::from(fresh) * enh;
            d.power_up_left[p] += i32::from(large) * duration;
        }
        let mut boosted = false;
        for p in 0..PLAYERS {
            boosted |= (alive & (1 << p) != 0) & (d.power_up_left[p] > 0);
        }
        // Without a boost running, no strength changes here, so nobody
        // dies either.
        if boosted {
            for p in 0..PLAYERS {
                let live = alive & (1 << p) != 0;
                let boosted = live & (d.power_up_left[p] > 0);
                d.power_up_left[p] -= i32::from(boosted);
                let ends = boosted & (d.power_up_left[p] == 0);
                d.strength[p] -= i32::from(ends) * enh;
                let die = live & (d.strength[p] <= 0);
                d.alive &= !(u8::from(die) << p);
                d.strength[p] = if die { 0 } else { d.strength[p] };
            }
        }

        d.turn += 1;
        if d.alive & d.alive.wrapping_sub(1) == 0 {
            for p in 0..PLAYERS {
                if d.alive & (1 << p) != 0 {
                    d.strength[p] += d.small_fruit_count;
                }
            }
            return false;
        }
        (d.turn as usize) < MAX_TURN
    }

    /// Takes back the last turn (the judge's `PopState`). Returns `false`
    /// at the start.
    #[inline]
    pub fn undo(&mut self) -> bool {
        let depth = self.cur.turn as usize;
        if depth == 0 {
            return false;
        }
        self.cur = self.history[(depth - 1) % MAX_TURN];
        true
    }

    /// Takes back turns until `turn` turns are left (no effect when fewer
    /// have been played).
    pub fn undo_to(&mut self, turn: usize) {
        if turn < self.cur.turn as usize {
            self.cur = self.history[turn];
        }
    }

    /// Plays random valid actions for every live player until the game
    /// ends; returns the number of turns played (undo them with
    /// [`Pacman2::undo_to`]).
    #[inline]
    pub fn random_rollout(&mut self, rng: &mut Rng) -> usize {
        let start = self.turn();
        if self.is_over() {
            return 0;
        }
        loop {
            // One 64-bit draw for the four players, each taking its pick
            // from what the last left (as the library does).
            let mut r = rng.next_u64();
            let mut joint = [Action::Stay; PLAYERS];
            for (p, a) in joint.iter_mut().enumerate() {
                (*a, r) = self.pick(p, r);
            }
            if !self.apply(&joint) {
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
