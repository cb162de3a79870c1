//! Rollout helpers for Pacman2 searches: a cheap greedy policy with noise
//! ([`GreedyPolicy`]) and a leaf evaluation close to Botzone's final score
//! ([`evaluate`]), for depth-limited Monte Carlo.
//!
//! The policy looks one step ahead for every live player: it likes eating
//! fruit (large fruit most), stepping toward the nearest free fruit it
//! reaches before every other player (or the nearest free fruit when it
//! reaches none first; up to ten steps away), stepping onto a weaker
//! player, and shooting a beam with somebody in its path (above all at a
//! player who cannot step out of the path this turn, at one who can only
//! half as much); it dislikes shooting into an empty line, standing next
//! to a stronger player, and standing in the beam path of a player strong
//! enough to shoot. Each action's preference gets random noise and the
//! best one is played, so rollouts stay varied.
//!
//! How readily each player shoots in rollouts is its own
//! ([`GreedyPolicy::with_shot_weights`]): bots built on rules fire whenever
//! somebody is in line ([`SHOT_HIT`]), bots that search fire less
//! ([`SEARCHER_SHOT_HIT`]), and a rollout that expects every player to fire
//! like the former misjudges a field of the latter. A shot at a player who
//! can step out of the path has its own weight per player
//! ([`GreedyPolicy::with_dodge_weights`]), set from how often that player
//! was seen to take such shots ([`TypeModel::dodge_rate`],
//! [`GreedyPolicy::dodge_weight`]): bots built on rules take a third to a
//! half of them, the strong public bots one in ten or fewer.
//!
//! Tables are made once per game ([`GreedyPolicy::new`]: they depend only
//! on the walls and the skill's cost; a copy with other shot weights is a
//! `clone`) and nothing allocates afterwards; each turn the policy reads
//! the players straight from the simulator's state.
//!
//! ```
//! use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
//! use botzone::games::pacman2::{Map, Pacman2};
//! use botzone::rng::Rng;
//!
//! let mut game = Pacman2::new(&Map::generate(1));
//! let policy = GreedyPolicy::new(&game);
//! let mut rng = Rng::new(1);
//! for _ in 0..20 {
//!     if game.is_over() {
//!         break;
//!     }
//!     let joint = policy.joint(&game, &mut rng);
//!     for p in 0..4 {
//!         assert!(!game.is_alive(p) || game.is_valid(p, joint[p]));
//!     }
//!     game.apply_unchecked(&joint);
//! }
//! let value = evaluate(&game, 0);
//! assert!((10.0..=140.0).contains(&value));
//! ```

use super::{Action, Pacman2, MAX_CELLS, PLAYERS};
use crate::rng::Rng;
use crate::search::flat_mc::Policy;

/// Preference weights (noise is 0..128 on top).
const W_SMALL: i32 = 70;
const W_LARGE: i32 = 140;
const W_LARGE_AGAIN: i32 = 30;
const W_PREY: i32 = 110;
const W_BLOCKED: i32 = -60;
const W_DANGER: i32 = -180;
const W_BEAM_THREAT: i32 = -40;
/// The preference for a shot per player in its path, by default: how bots
/// built on rules shoot (whenever somebody is in line, as `pacman_rules`
/// does), and what [`GreedyPolicy::action`] always uses. A player who can
/// step out of the path this turn counts half of it, one who cannot (its
/// every move stays in the path) counts it plus [`W_SURE_SHOT`].
pub const SHOT_HIT: i32 = 60;
/// The preference for a shot per player in its path for a player that
/// searches: about half of [`SHOT_HIT`], so that a rollout's players shoot
/// when a shot is worth it rather than at whoever stands in line.
pub const SEARCHER_SHOT_HIT: i32 = 30;
const W_SHOT_MISS: i32 = -200;
/// The preference added to a shot for each player in its path who cannot
/// step out of it this turn, so the beam hits whatever that player does.
/// The policy fires such shots most of the time and the others less readily,
/// so a search played against it fears a line it cannot leave more than
/// one it can.
pub const W_SURE_SHOT: i32 = 150;
const W_TOWARD_FRUIT: i32 = 45;

/// How often the policy fires at a player who can step out of the path,
/// by its weight for such a shot ([`GreedyPolicy::with_dodge_weights`]):
/// (rate, weight) pairs measured over the policy's own play on judge maps
/// (the test `dodge_weights_give_their_rates` checks them). Bots built
/// on rules fire at such players at 0.3 to 0.5 of their chances, the
/// strong public bots at 0.01 to 0.10.
pub const DODGE_RATES: [(f64, i32); 9] = [
    (0.004, -200),
    (0.015, -120),
    (0.026, -80),
    (0.065, -40),
    (0.18, 0),
    (0.34, 30),
    (0.56, 60),
    (0.75, 90),
    (0.93, 150),
];

/// The largest dodge weight, either way, that
/// [`GreedyPolicy::with_dodge_weights`] keeps.
pub const DODGE_WEIGHT_BOUND: i32 = 1 << 20;

/// How far (in steps) the policy looks for the nearest fruit.
const REACH: usize = 10;

/// The greedy rollout policy with its per-field tables.
#[derive(Clone, Debug)]
pub struct GreedyPolicy {
    /// The moves out of each cell without a wall in the way, in the order
    /// of the directions (up, right, down, left): the direction, the cell
    /// it leads to and that cell's bit; `move_count` of them are set.
    moves: [[Move; 4]; MAX_CELLS],
    move_count: [u8; MAX_CELLS],
    /// The cell itself and its reachable neighbours.
    near: [u128; MAX_CELLS],
    /// Cells a beam shot from this cell passes, per direction.
    beam: [[u128; 4]; MAX_CELLS],
    /// Union of the four beam paths.
    beam_any: [u128; MAX_CELLS],
    /// `reach[c][k]`: the cells at most `k + 1` steps from `c`; the last
    /// row ([`NOWHERE`]) is empty, the reach of a dead player.
    reach: [[u128; REACH]; MAX_CELLS + 1],
    skill_cost: i32,
    /// Each player's preference for a shot per player in its path, in
    /// [`GreedyPolicy::joint`].
    shot_hit: [i32; PLAYERS],
    /// Twice each player's preference for a shot per player in its path
    /// who can step out of it, in [`GreedyPolicy::joint`].
    dodge_hit2: [i32; PLAYERS],
}

impl GreedyPolicy {
    /// Tables for the field of `game` (walls never change).
    pub fn new(game: &Pacman2) -> GreedyPolicy {
        let (w, h) = (game.width(), game.height());
        let mut p = GreedyPolicy {
            moves: [[Move::default(); 4]; MAX_CELLS],
            move_count: [0; MAX_CELLS],
            near: [0; MAX_CELLS],
            beam: [[0; 4]; MAX_CELLS],
            beam_any: [0; MAX_CELLS],
            reach: [[0; REACH]; MAX_CELLS + 1],
            skill_cost: game.constants().skill_cost,
            shot_hit: [SHOT_HIT; PLAYERS],
            dodge_hit2: [SHOT_HIT; PLAYERS],
        };
        const DR: [isize; 4] = [-1, 0, 1, 0];
        const DC: [isize; 4] = [0, 1, 0, -1];
        let step = |r: usize, c: usize, d: usize| {
            (
                (r as isize + DR[d] + h as isize) as usize % h,
                (c as isize + DC[d] + w as isize) as usize % w,
            )
        };
        for r in 0..h {
            for c in 0..w {
                let i = r * w + c;
                p.near[i] = 1u128 << i;
                for d in 0..4 {
                    if game.static_at(r, c) & (1 << d) == 0 {
                        let (nr, nc) = step(r, c, d);
                        let k = usize::from(p.move_count[i]);
                        let n = nr * w + nc;
                        p.moves[i][k] = Move {
                            dir: d as u8,
                            to: n as u8,
                            bit: 1u128 << n,
                        };
                        p.move_count[i] += 1;
                        p.near[i] |= 1u128 << n;
                    }
                    // The judge's beam: advance while the current cell has
                    // no wall that way, stop when back at the start.
                    let (mut br, mut bc) = (r, c);
                    let mut path = 0u128;
                    while game.static_at(br, bc) & (1 << d) == 0 {
                        (br, bc) = step(br, bc, d);
                        if (br, bc) == (r, c) {
                            break;
                        }
                        path |= 1u128 << (br * w + bc);
                    }
                    p.beam[i][d] = path;
                    p.beam_any[i] |= path;
                }
            }
        }
        let cells = w * h;
        for i in 0..cells {
            let mut ball = p.near[i];
            p.reach[i][0] = ball;
            for k in 1..REACH {
                let mut grown = ball;
                let mut rest = ball;
                while rest != 0 {
                    let c = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    grown |= p.near[c];
                }
                ball = grown;
                p.reach[i][k] = ball;
            }
        }
        p
    }

    /// Steps from `cell` (whose bit is `here`) to the nearest cell of
    /// `targets` (`REACH + 1` when none is within [`REACH`]); 0 when `cell`
    /// is one.
    #[inline]
    fn distance(&self, cell: usize, here: u128, targets: u128) -> usize {
        if targets & here != 0 {
            return 0;
        }
        let reach = &self.reach[cell];
        for (k, ball) in reach.iter().enumerate() {
            if ball & targets != 0 {
                return k + 1;
            }
        }
        REACH + 1
    }

    /// The nearest cells of `targets` that live player `p` reaches
    /// (within [`REACH`] steps) strictly before every other live player,
    /// with the steps to them (as [`GreedyPolicy::distance`] gives them);
    /// `None` when there are none. (Stepping toward the nearest of all
    /// such cells is stepping toward one of these.)
    #[inline]
    fn reached_first(&self, v: &View, p: usize, targets: u128) -> Option<(u128, usize)> {
        let cell = v.cell[p] as usize;
        let reach = &self.reach[cell];
        for (k, &ball) in reach.iter().enumerate() {
            if ball & targets == 0 {
                continue;
            }
            let mut theirs = 0u128;
            for &row in &v.rivals[p] {
                theirs |= self.reach[usize::from(row)][k];
            }
            let first = ball & targets & !theirs;
            if first != 0 {
                // The first ball holds the player's own cell, 0 steps away.
                let steps = if first & v.bit[p] != 0 { 0 } else { k + 1 };
                return Some((first, steps));
            }
        }
        None
    }

    /// The policy with each player's preference for a shot, per player in
    /// its path, in [`GreedyPolicy::joint`] (the rollouts); [`SHOT_HIT`]
    /// for every player by default. A player who can step out of the path
    /// counts half of it (until [`GreedyPolicy::with_dodge_weights`] says
    /// otherwise). [`GreedyPolicy::action`], which predicts one player's
    /// move (as a bot built on rules would make it), keeps [`SHOT_HIT`].
    pub fn with_shot_weights(mut self, weights: [i32; PLAYERS]) -> Self {
        self.shot_hit = weights;
        self.dodge_hit2 = weights;
        self
    }

    /// The policy with each player's preference for a shot, per player in
    /// its path who can step out of it this turn, in
    /// [`GreedyPolicy::joint`]; half its shot weight by default (and after
    /// [`GreedyPolicy::with_shot_weights`]). [`GreedyPolicy::dodge_weight`]
    /// gives the weight at which the policy fires such shots at a given
    /// rate. Weights are kept within ±[`DODGE_WEIGHT_BOUND`] (far beyond
    /// any that changes a choice), so that no sum overflows.
    pub fn with_dodge_weights(mut self, weights: [i32; PLAYERS]) -> Self {
        for (d, w) in self.dodge_hit2.iter_mut().zip(weights) {
            *d = 2 * w.clamp(-DODGE_WEIGHT_BOUND, DODGE_WEIGHT_BOUND);
        }
        self
    }

    /// Shot weights for [`GreedyPolicy::with_shot_weights`] from the odds
    /// that each player plays as this policy does (a bot built on rules;
    /// [`TypeModel::policy_probability`]): [`SHOT_HIT`] for odds of 1,
    /// [`SEARCHER_SHOT_HIT`] for 0, in proportion between; `me`, who
    /// searches, gets [`SEARCHER_SHOT_HIT`].
    pub fn shot_weights(me: usize, odds: [f64; PLAYERS]) -> [i32; PLAYERS] {
        let mut out = [SEARCHER_SHOT_HIT; PLAYERS];
        for (p, w) in out.iter_mut().enumerate() {
            if p != me {
                let q = odds[p].clamp(0.0, 1.0);
                *w += (f64::from(SHOT_HIT - SEARCHER_SHOT_HIT) * q).round() as i32;
            }
        }
        out
    }

    /// The weight for [`GreedyPolicy::with_dodge_weights`] at which the
    /// policy fires at a player who can step out of the path (when no
    /// player in any of its lines is trapped) at about `rate` of its
    /// chances: interpolated in [`DODGE_RATES`], clamped to its ends.
    pub fn dodge_weight(rate: f64) -> i32 {
        let rate = if rate.is_nan() { 0.0 } else { rate };
        let (first, last) = (DODGE_RATES[0], DODGE_RATES[DODGE_RATES.len() - 1]);
        if rate <= first.0 {
            return first.1;
        }
        for pair in DODGE_RATES.windows(2) {
            let ((r0, w0), (r1, w1)) = (pair[0], pair[1]);
            if rate <= r1 {
                let t = (rate - r0) / (r1 - r0);
                return w0 + (f64::from(w1 - w0) * t).round() as i32;
            }
        }
        last.1
    }

    /// An action for every player (live players get a valid one; dead
    /// players' entries are [`Action::Stay`], ignored by `apply`).
    pub fn joint(&self, game: &Pacman2, rng: &mut Rng) -> [Action; PLAYERS] {
        let view = View::of(self, game);
        let mut joint = [Action::Stay; PLAYERS];
        for (p, slot) in joint.iter_mut().enumerate() {
            if view.alive & (1 << p) != 0 {
                *slot = self.pick(game, &view, p, rng, self.shot_hit[p], self.dodge_hit2[p]);
            }
        }
        joint
    }

    /// An action for live player `p` of `game`, with [`SHOT_HIT`] as its
    /// preference for shots.
    pub fn action(&self, game: &Pacman2, p: usize, rng: &mut Rng) -> Action {
        let view = View::of(self, game);
        self.pick(game, &view, p, rng, SHOT_HIT, SHOT_HIT)
    }

    /// The policy's action for `p`, with `shot_hit` as its preference for a
    /// shot per player in its path who cannot step out of it (plus
    /// [`W_SURE_SHOT`]) and `dodge_hit2` twice its preference per player
    /// who can.
    ///
    /// The players' bit sets are gathered with masks rather than branches,
    /// the walls are skipped by a list of each cell's moves, and the best
    /// action is kept by a `max`: which way such branches would go changes
    /// from call to call, and mispredicted branches cost more than the work
    /// they save.
    fn pick(
        &self,
        game: &Pacman2,
        v: &View,
        p: usize,
        rng: &mut Rng,
        shot_hit: i32,
        dodge_hit2: i32,
    ) -> Action {
        let me = v.cell[p] as usize;
        let s = v.strength[p];
        // Where stronger players are or can step to, where beams of players
        // able to shoot pass, who is weaker or stronger.
        let mut danger = 0u128;
        let mut beams = 0u128;
        let mut others = 0u128;
        let mut weaker = 0u128;
        let mut stronger = 0u128;
        for q in 0..PLAYERS {
            // `p` itself is neither stronger nor weaker than itself.
            let not_me = mask(q != p);
            let is_stronger = mask(v.strength[q] > s);
            others |= v.bit[q] & not_me;
            danger |= v.near[q] & is_stronger;
            stronger |= v.bit[q] & is_stronger;
            weaker |= v.bit[q] & mask(v.strength[q] < s);
            beams |= v.beams[q] & not_me;
        }
        let mut noise = rng.next_u64();
        // The best action so far as one key, `total * 16 + 15 - index` (its
        // index in `Action::ALL`): the highest total wins and, between equal
        // totals, the action considered first. Keeping the larger key is a
        // `max`, not a branch: with the noise, which way it goes is random.
        let mut best = i32::MIN;
        // Each action considered takes the next 7 bits of noise.
        let mut consider = |index: usize, score: i32, noise: &mut u64| {
            let total = score + (*noise & 127) as i32;
            *noise >>= 7;
            best = best.max(total * 16 + 15 - index as i32);
        };
        // Staying.
        let here = v.bit[p];
        let stay = W_DANGER * has(danger, here) + W_BEAM_THREAT * has(beams, here);
        consider(0, stay, &mut noise);
        // Moves: toward the nearest fruit no other player stands on, among
        // those this player reaches first if there are any.
        let small = game.small_fruit_cells();
        let large = game.large_fruit_cells();
        let free = (small | large) & !others;
        let (fruit, fruit_here) = match self.reached_first(v, p, free) {
            Some(found) => found,
            None => (free, self.distance(me, v.bit[p], free)),
        };
        let w_large = if v.boosted & (1 << p) != 0 {
            W_LARGE_AGAIN
        } else {
            W_LARGE
        };
        let count = usize::from(self.move_count[me]);
        for m in &self.moves[me][..count] {
            let (d, n, nb) = (m.dir, m.to, m.bit);
            let mut score = 0;
            if stronger & nb != 0 {
                score += W_BLOCKED;
            } else if weaker & nb != 0 {
                score += W_PREY;
            }
            if danger & nb != 0 {
                score += W_DANGER;
            }
            if beams & nb != 0 {
                score += W_BEAM_THREAT;
            }
            if others & nb == 0 {
                if small & nb != 0 {
                    score += W_SMALL;
                } else if large & nb != 0 {
                    score += w_large;
                } else if (2..=REACH).contains(&fruit_here)
                    && self.reach[n as usize][fruit_here - 2] & fruit != 0
                {
                    // `n` holds no fruit, so it is nearer to one than this
                    // cell exactly when one is within `fruit_here - 1`
                    // steps of it (the balls grow with the steps).
                    score += W_TOWARD_FRUIT;
                }
            }
            consider(1 + usize::from(d), score, &mut noise);
        }
        // Shots.
        if s > self.skill_cost {
            for d in 0..4 {
                let path = self.beam[me][d];
                let hits = (path & others).count_ones() as i32;
                let score = if hits > 0 {
                    let sure = v.trapped_in(p, path);
                    dodge_hit2 * (hits - sure) / 2 + (shot_hit + W_SURE_SHOT) * sure
                } else {
                    W_SHOT_MISS
                };
                consider(5 + d, score, &mut noise);
            }
        }
        Action::ALL[(15 - (best & 15)) as usize]
    }
}

/// A move out of a cell ([`GreedyPolicy`]'s list per cell).
#[derive(Clone, Copy, Debug, Default)]
struct Move {
    /// The direction (0 up, 1 right, 2 down, 3 left).
    dir: u8,
    /// The cell it leads to.
    to: u8,
    /// That cell's bit, so that the policy's many tests against it need
    /// no `u128` shift.
    bit: u128,
}

/// All ones when `c`, else zero: a bit set selected without a branch.
#[inline]
fn mask(c: bool) -> u128 {
    u128::from(c).wrapping_neg()
}

/// 1 when `set` and `bit` share a cell, else 0.
#[inline]
fn has(set: u128, bit: u128) -> i32 {
    i32::from(set & bit != 0)
}

/// [`GreedyPolicy`] for the generic searches: a whole turn at once
/// ([`GreedyPolicy::joint`], one look at the players), the searching
/// player's pick included (the search then replaces it).
impl Policy<Pacman2> for GreedyPolicy {
    #[inline]
    fn action(&mut self, game: &Pacman2, player: usize, rng: &mut Rng) -> Action {
        GreedyPolicy::action(self, game, player, rng)
    }

    #[inline]
    fn fill_joint(&mut self, game: &Pacman2, rng: &mut Rng, joint: &mut [Action]) {
        joint[..PLAYERS].copy_from_slice(&self.joint(game, rng));
    }

    #[inline]
    fn fill_others(&mut self, game: &Pacman2, _me: usize, rng: &mut Rng, joint: &mut [Action]) {
        joint[..PLAYERS].copy_from_slice(&self.joint(game, rng));
    }
}

/// The row of [`GreedyPolicy`]'s reach table that is empty.
const NOWHERE: usize = MAX_CELLS;

/// What the policy needs of the players, read once per turn (a dead
/// player's bit sets are empty).
struct View {
    /// For each player, the rows of the reach table of the other players
    /// ([`NOWHERE`] for a dead one), so that their reach is a union of
    /// loads with no test of who is alive.
    rivals: [[u8; PLAYERS - 1]; PLAYERS],
    cell: [u8; PLAYERS],
    strength: [i32; PLAYERS],
    alive: u8,
    /// Bit `p` set while player `p`'s large-fruit boost lasts.
    boosted: u8,
    /// The player's cell.
    bit: [u128; PLAYERS],
    /// The player's cell and the cells it can step to.
    near: [u128; PLAYERS],
    /// The cells its beams pass, when it is strong enough to shoot.
    beams: [u128; PLAYERS],
}

impl View {
    /// How many players other than `p` cannot step out of `path`: their
    /// cell and every cell they can move to lie in it (a dead player's
    /// `near` is empty).
    #[inline]
    fn trapped_in(&self, p: usize, path: u128) -> i32 {
        let mut sure = 0;
        for (q, &near) in self.near.iter().enumerate() {
            sure += i32::from(q != p && near != 0 && near & !path == 0);
        }
        sure
    }

    fn of(policy: &GreedyPolicy, game: &Pacman2) -> View {
        let cur = &game.cur;
        let mut v = View {
            rivals: [[0; PLAYERS - 1]; PLAYERS],
            cell: cur.cell,
            strength: cur.strength,
            alive: cur.alive,
            boosted: cur.boosted,
            bit: [0; PLAYERS],
            near: [0; PLAYERS],
            beams: [0; PLAYERS],
        };
        // Each player's row of the reach table.
        let mut row = [NOWHERE as u8; PLAYERS];
        for (p, r) in row.iter_mut().enumerate() {
            let c = cur.cell[p] as usize;
            let alive = cur.alive & (1 << p) != 0;
            let live = mask(alive);
            v.bit[p] = super::bit(cur.cell[p]) & live;
            v.near[p] = policy.near[c] & live;
            v.beams[p] = policy.beam_any[c] & live & mask(cur.strength[p] > policy.skill_cost);
            if alive {
                *r = cur.cell[p];
            }
        }
        for (p, rivals) in v.rivals.iter_mut().enumerate() {
            for (i, slot) in rivals.iter_mut().enumerate() {
                // The others in order: skip `p` itself.
                *slot = row[i + usize::from(i >= p)];
            }
        }
        v
    }
}

/// An estimate of player `me`'s final Botzone score from `game`: the exact
/// score once the game is over; otherwise Botzone's formula (rank points
/// plus strength share) on the strengths the players would keep, i.e. with
/// a large fruit's boost taken off when it runs out before turn 100.
pub fn evaluate(game: &Pacman2, me: usize) -> f64 {
    if game.is_over() {
        return game.final_scores()[me];
    }
    let left = (super::MAX_TURNS - game.turn()) as i32;
    let boost = game.constants().large_fruit_enhancement;
    let mut s = [0i64; PLAYERS];
    for (p, slot) in s.iter_mut().enumerate() {
        let pl = game.player(p);
        let mut x = pl.strength;
        if pl.power_up_left > 0 && pl.power_up_left <= left {
            x -= boost;
        }
        *slot = i64::from(x.max(0));
    }
    let total = s.iter().sum::<i64>().max(1);
    let rank = 1 + s.iter().filter(|&&x| x < s[me]).count() as i64;
    (rank * 1000 + 10000 * s[me] / total) as f64 / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pacman2::Map;

    /// The policy's choices, pinned: 12 judge maps played 60 turns by the
    /// policy (three players with their own shot weights), every live
    /// player's `action` asked as well, folded into one FNV-1a hash. The
    /// first, branchy version of `pick` (commit `ca933fa`) gave
    /// `0xa937_4500_d589_42a9`, and so did every faster version after it;
    /// the value below is that of the shots weighed by whether their
    /// targets can step out of the path ([`W_SURE_SHOT`], 2026-11-30). A
    /// change meant only to make the policy faster must keep it, and a
    /// change to what it plays must say so here.
    #[test]
    fn the_policys_choices_are_pinned() {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut fold = |x: u64| {
            hash ^= x;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        };
        for seed in 1..=12u32 {
            let mut game = Pacman2::new(&Map::generate(seed));
            let policy = GreedyPolicy::new(&game).with_shot_weights([30, 60, 45, SHOT_HIT]);
            let mut rng = Rng::new(u64::from(seed));
            let mut asked = Rng::new(u64::from(seed) + 100);
            for _ in 0..60 {
                if game.is_over() {
                    break;
                }
                for p in (0..PLAYERS).filter(|&p| game.is_alive(p)) {
                    fold(policy.action(&game, p, &mut asked).code() as u64);
                }
                let joint = policy.joint(&game, &mut rng);
                for a in joint {
                    fold(a.code() as u64);
                }
                game.apply_unchecked(&joint);
            }
            fold(u64::from(game.turn()));
        }
        assert_eq!(hash, 0x974c_85d4_48a6_e6e6, "{hash:#018x}");
    }

    /// The shot weights: searchers (and `me`) at [`SEARCHER_SHOT_HIT`],
    /// players surely built on rules at [`SHOT_HIT`], in proportion between.
    #[test]
    fn shot_weights_follow_the_odds_of_playing_as_the_policy() {
        let w = GreedyPolicy::shot_weights(2, [0.0, 1.0, 1.0, 0.5]);
        let mid = (SHOT_HIT + SEARCHER_SHOT_HIT) / 2;
        assert_eq!(w, [SEARCHER_SHOT_HIT, SHOT_HIT, SEARCHER_SHOT_HIT, mid]);
        let clamped = GreedyPolicy::shot_weights(0, [1.0, 7.0, -1.0, f64::NAN]);
        assert_eq!(
            clamped[..3],
            [SEARCHER_SHOT_HIT, SHOT_HIT, SEARCHER_SHOT_HIT]
        );
        assert!((SEARCHER_SHOT_HIT..=SHOT_HIT).contains(&clamped[3]));
    }

    /// A player's shot weight moves only that player's picks in
    /// [`GreedyPolicy::joint`]: with the same random stream the others play
    /// the same actions, it shoots less often with a weight of 0 (and never
    /// more), and [`GreedyPolicy::action`] is the same whatever the weights.
    #[test]
    fn a_players_shot_weight_moves_only_its_own_shots() {
        let (mut shots_default, mut shots_none) = (0, 0);
        for seed in 1..=8 {
            let mut game = Pacman2::new(&Map::generate(seed));
            let base = GreedyPolicy::new(&game);
            let shy = base
                .clone()
                .with_shot_weights([SHOT_HIT, 0, SHOT_HIT, SHOT_HIT]);
            let mut play = Rng::new(u64::from(seed));
            for _ in 0..40 {
                if game.is_over() {
                    break;
                }
                for draw in 0..16 {
                    let (a, b) = (
                        base.joint(&game, &mut Rng::new(draw)),
                        shy.joint(&game, &mut Rng::new(draw)),
                    );
                    for p in [0, 2, 3] {
                        assert_eq!(a[p], b[p], "map {seed}, player {p}");
                    }
                    assert!(!b[1].is_shot() || a[1].is_shot(), "map {seed}");
                    shots_default += usize::from(a[1].is_shot());
                    shots_none += usize::from(b[1].is_shot());
                    if game.is_alive(1) {
                        assert_eq!(
                            base.action(&game, 1, &mut Rng::new(draw)),
                            shy.action(&game, 1, &mut Rng::new(draw))
                        );
                    }
                }
                let joint = base.joint(&game, &mut play);
                game.apply_unchecked(&joint);
            }
        }
        assert!(
            shots_none < shots_default,
            "{shots_none} shots with weight 0, {shots_default} with the default"
        );
    }

    /// A shot at a player who cannot step out of its path (its cell and
    /// every cell it can move to are in the path) is fired most of the
    /// time; one at players who all can step out, far less often. Counted
    /// over the policy's own play on judge maps, every live player that can
    /// shoot asked 32 times per turn. (With every player in the path
    /// counted alike, as before [`W_SURE_SHOT`], the rates were 0.59 and
    /// 0.56; with it, 0.80 and 0.34.)
    #[test]
    fn shots_at_players_who_cannot_dodge_are_fired_most_often() {
        // (lines with a sure target, shots along them), the same for
        // lines whose every target can step out.
        let (mut sure, mut sure_shots, mut dodge, mut dodge_shots) = (0, 0, 0, 0);
        for seed in 1..=12 {
            let mut game = Pacman2::new(&Map::generate(seed));
            let policy = GreedyPolicy::new(&game);
            let mut play = Rng::new(u64::from(seed));
            for _ in 0..60 {
                if game.is_over() {
                    break;
                }
                let st = &game.cur;
                for p in (0..PLAYERS).filter(|&p| game.is_alive(p)) {
                    if st.strength[p] <= policy.skill_cost {
                        continue;
                    }
                    let me = usize::from(st.cell[p]);
                    for d in 0..4 {
                        let path = policy.beam[me][d];
                        let (mut in_path, mut trapped) = (0, 0);
                        for q in (0..PLAYERS).filter(|&q| q != p && game.is_alive(q)) {
                            let cell = st.cell[q];
                            in_path += usize::from(path & super::super::bit(cell) != 0);
                            trapped += usize::from(policy.near[usize::from(cell)] & !path == 0);
                        }
                        if in_path == 0 {
                            continue;
                        }
                        let shot = Action::ALL[5 + d];
                        let fired = (0..32)
                            .filter(|&draw| policy.joint(&game, &mut Rng::new(draw))[p] == shot)
                            .count();
                        if trapped > 0 {
                            (sure, sure_shots) = (sure + 32, sure_shots + fired);
                        } else {
                            (dodge, dodge_shots) = (dodge + 32, dodge_shots + fired);
                        }
                    }
                }
                let joint = policy.joint(&game, &mut play);
                game.apply_unchecked(&joint);
            }
        }
        assert!(
            sure >= 320 && dodge >= 320,
            "{sure} sure and {dodge} dodgeable asks"
        );
        let (sure_rate, dodge_rate) = (
            sure_shots as f64 / sure as f64,
            dodge_shots as f64 / dodge as f64,
        );
        assert!(sure_rate > 0.7, "sure shots fired at {sure_rate}");
        assert!(dodge_rate < 0.45, "dodgeable shots fired at {dodge_rate}");
    }

    /// The fruit a player reaches first are those within [`REACH`] steps
    /// of it that every other live player is farther from, and of these the
    /// nearest are kept; on fields a few turns into games of policy play.
    #[test]
    fn fruit_reached_first_is_the_nearest_fruit_every_other_player_is_farther_from() {
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for seed in 1..=12 {
            let mut game = Pacman2::new(&Map::generate(seed));
            let policy = GreedyPolicy::new(&game);
            for _ in 0..(seed as usize % 5) * 3 {
                let joint = policy.joint(&game, &mut rng);
                game.apply_unchecked(&joint);
            }
            let view = View::of(&policy, &game);
            let fruit = game.small_fruit_cells() | game.large_fruit_cells();
            for p in (0..PLAYERS).filter(|&p| view.alive & (1 << p) != 0) {
                let found = policy.reached_first(&view, p, fruit);
                let first = found.map_or(0, |(cells, _)| cells);
                if let Some((cells, steps)) = found {
                    let me = view.cell[p] as usize;
                    assert_eq!(
                        steps,
                        policy.distance(me, 1u128 << me, cells),
                        "map {seed}, player {p}"
                    );
                }
                // The distance of every fruit `p` reaches first.
                let mut reached = [None; MAX_CELLS];
                let mut nearest = usize::MAX;
                let mut rest = fruit;
                while rest != 0 {
                    let f = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let dist = |q: usize| {
                        let cell = view.cell[q] as usize;
                        policy.distance(cell, 1u128 << cell, 1u128 << f)
                    };
                    let mine = dist(p);
                    let beaten = (0..PLAYERS)
                        .filter(|&q| q != p && view.alive & (1 << q) != 0)
                        .any(|q| dist(q) <= mine);
                    if (1..=REACH).contains(&mine) && !beaten {
                        reached[f] = Some(mine);
                        nearest = nearest.min(mine);
                    }
                    checked += 1;
                }
                if let Some((_, steps)) = found {
                    assert_eq!(steps, nearest, "map {seed}, player {p}");
                }
                for (f, &dist) in reached.iter().enumerate() {
                    let kept = dist == Some(nearest);
                    assert_eq!(
                        first >> f & 1 == 1,
                        kept,
                        "map {seed}, player {p}, cell {f}"
                    );
                }
            }
        }
        assert!(checked > 100, "only {checked} fruit checked");
    }

    /// A type model that watched the policy, with these dodge weights,
    /// play itself on judge maps 1 to `maps` (up to 100 turns each).
    fn watch_policy_play(maps: u32, dodge_weights: [i32; PLAYERS]) -> TypeModel {
        let mut model = TypeModel::new(0.5);
        for seed in 1..=maps {
            let mut game = Pacman2::new(&Map::generate(seed));
            let policy = GreedyPolicy::new(&game).with_dodge_weights(dodge_weights);
            let mut rng = Rng::new(u64::from(seed));
            for _ in 0..100 {
                if game.is_over() {
                    break;
                }
                let joint = policy.joint(&game, &mut rng);
                model.observe(&game, &joint);
                game.apply_unchecked(&joint);
            }
        }
        model
    }

    /// [`TypeModel::observe_with`] the tables of a policy built at the
    /// game's start, with other weights, counts and weighs every turn as
    /// [`TypeModel::observe`] does with tables built for the turn.
    #[test]
    fn observing_with_the_games_first_tables_is_observing() {
        use crate::search::flat_mc::Arm;
        let mut chances = 0;
        for seed in 1..=6 {
            let mut game = Pacman2::new(&Map::generate(seed));
            let tables = GreedyPolicy::new(&game)
                .with_shot_weights([7, -3, 120, 0])
                .with_dodge_weights([-200, 150, 0, 40]);
            let (mut fresh, mut kept) = (TypeModel::new(0.3), TypeModel::new(0.3));
            let mut rng = Rng::new(u64::from(seed));
            for turn in 0..100 {
                if game.is_over() {
                    break;
                }
                let joint = tables.joint(&game, &mut rng);
                // Expectations that differ from turn to turn, some of them
                // on the actions played.
                for (p, &played) in joint.iter().enumerate() {
                    let arms: Vec<Arm<Action>> = [played, Action::Stay]
                        .iter()
                        .enumerate()
                        .map(|(i, &action)| Arm {
                            action,
                            visits: (turn + p + i) as u64 % 5,
                            total: 0.0,
                        })
                        .collect();
                    fresh.expect(p, &arms);
                    kept.expect(p, &arms);
                }
                fresh.observe(&game, &joint);
                kept.observe_with(&tables, &game, &joint);
                assert_eq!(fresh.encode(), kept.encode(), "map {seed}, turn {turn}");
                game.apply_unchecked(&joint);
            }
            chances += kept.dodge_chances.iter().sum::<u32>();
        }
        assert!(chances > 20, "only {chances} chances to shoot counted");
    }

    /// [`DODGE_RATES`] holds: the policy with one dodge weight for every
    /// player, playing itself on 60 judge maps, fires at players who can
    /// step out of the path at about the rate the table gives for that
    /// weight, as [`TypeModel`] counts the chances and the shots (one draw
    /// per chance, some 500 to 1,400 chances per weight; the table itself
    /// was measured with 32 draws per chance).
    #[test]
    fn dodge_weights_give_their_rates() {
        for &(rate, weight) in &DODGE_RATES[..] {
            let model = watch_policy_play(60, [weight; PLAYERS]);
            let chances: u32 = model.dodge_chances.iter().sum();
            let shots: u32 = model.dodge_shots.iter().sum();
            let seen = f64::from(shots) / f64::from(chances);
            assert!(chances > 400, "weight {weight}: {chances} chances");
            assert!(
                (seen - rate).abs() < 0.06,
                "weight {weight}: fired at {seen:.3} of {chances} chances, the table says {rate}"
            );
        }
    }

    /// A player's dodge rate starts at [`DODGE_PRIOR`] and follows the
    /// shots it takes: in the same games, a player that fires at every
    /// such chance and two that never do (weights at the ends of `i32`
    /// overflow nothing); the counts travel in [`TypeModel::encode`].
    #[test]
    fn dodge_rate_follows_the_shots_a_player_takes() {
        let fresh = TypeModel::new(0.5);
        assert!((0..PLAYERS).all(|p| fresh.dodge_rate(p) == DODGE_PRIOR));
        assert_eq!(fresh.dodge_rate(PLAYERS), DODGE_PRIOR);
        let model = watch_policy_play(30, [i32::MAX, -1000, 0, i32::MIN]);
        assert!(model.dodge_chances[0] >= 50 && model.dodge_chances[1] >= 50);
        assert!(model.dodge_rate(0) > 0.9, "{}", model.dodge_rate(0));
        assert!(model.dodge_rate(1) < 0.05, "{}", model.dodge_rate(1));
        assert!(model.dodge_rate(3) < 0.05, "{}", model.dodge_rate(3));
        let back = TypeModel::decode(&model.encode()).unwrap();
        for p in 0..PLAYERS {
            assert_eq!(back.dodge_rate(p), model.dodge_rate(p));
        }
    }

    /// Data from a bot before the dodge counts (no `dodge` words) reads
    /// with every rate at the prior; counts that do not add up are errors.
    #[test]
    fn decode_reads_old_data_and_rejects_bad_counts() {
        let old = TypeModel::decode("types1 0.5 - 0 - 0 - 0 -").unwrap();
        assert!((0..PLAYERS).all(|p| old.dodge_rate(p) == DODGE_PRIOR));
        let base = "types1 0 - 0 - 0 - 0 - dodge";
        let good = TypeModel::decode(&format!("{base} 6 2 0 0 0 0 0 0")).unwrap();
        assert_eq!(good.dodge_rate(0), (2.0 + DODGE_PRIOR * 4.0) / 10.0);
        for (counts, says) in [
            ("3 4 0 0 0 0 0 0", "4 dodge shots in 3 chances"),
            ("3 1 0 0", "player 2's dodge chances: missing"),
            (
                "1 1 1 -1 0 0 0 0",
                "player 1's dodge shots: expected a count",
            ),
            ("1 1 1 1 1 1 1 1 2", "unexpected \"2\""),
        ] {
            let err = TypeModel::decode(&format!("{base} {counts}")).unwrap_err();
            assert!(err.contains(says), "{counts}: {err}");
        }
    }

    /// [`GreedyPolicy::dodge_weight`] gives the table's weights at its
    /// rates, never falls as the rate grows, and keeps to the table's ends.
    #[test]
    fn dodge_weight_interpolates_the_table() {
        for &(rate, weight) in &DODGE_RATES {
            assert_eq!(GreedyPolicy::dodge_weight(rate), weight);
        }
        let (first, last) = (DODGE_RATES[0].1, DODGE_RATES[DODGE_RATES.len() - 1].1);
        let mut before = first;
        for k in 0..=100 {
            let w = GreedyPolicy::dodge_weight(f64::from(k) / 100.0);
            assert!(w >= before && (first..=last).contains(&w), "rate {k}%: {w}");
            before = w;
        }
        assert_eq!(GreedyPolicy::dodge_weight(-1.0), first);
        assert_eq!(GreedyPolicy::dodge_weight(f64::NAN), first);
        assert_eq!(GreedyPolicy::dodge_weight(2.0), last);
    }
}

/// An opponent model kept across turns: is each player one that plays as
/// the rollout policy does ([`GreedyPolicy`]: bots built on rules), or one
/// that plays the best answers a search finds? Each turn the action a
/// player played is weighed under both explanations: the policy's
/// probability of it, and the share of the search's first-turn visits for
/// that player ([`crate::search::flat_mc::SearchResult::players`], recorded
/// with [`TypeModel::expect`]). The log-likelihood ratios add up to the
/// odds that the player is a policy player, which a search can use as that
/// player's share of policy moves
/// ([`crate::search::flat_mc::FlatMc::policy_mix_of`]).
///
/// It also counts, per player, the turns on which the player could shoot
/// at somebody able to step out of the path (and at nobody trapped in it),
/// and the turns it did: [`TypeModel::dodge_rate`], for
/// [`GreedyPolicy::dodge_weight`].
///
/// ```
/// use botzone::games::pacman2::policy::{GreedyPolicy, TypeModel};
/// use botzone::games::pacman2::{Action, Map, Pacman2};
/// use botzone::rng::Rng;
/// use botzone::search::flat_mc::Arm;
///
/// let mut game = Pacman2::new(&Map::generate(1));
/// let policy = GreedyPolicy::new(&game);
/// let (mut walkers, mut stayers) = (TypeModel::new(0.5), TypeModel::new(0.5));
/// let mut rng = Rng::new(1);
/// let mut stay = Arm::new(Action::Stay);
/// stay.visits = 100;
/// for _ in 0..10 {
///     // The search expects every player to stay where it is.
///     for p in 0..4 {
///         walkers.expect(p, &[stay]);
///         stayers.expect(p, &[stay]);
///     }
///     let joint = policy.joint(&game, &mut rng);
///     walkers.observe(&game, &joint); // they walk as the policy does
///     stayers.observe(&game, &[Action::Stay; 4]); // they do as expected
///     game.apply_unchecked(&joint);
/// }
/// assert!(walkers.policy_probability(0) > 0.9);
/// assert!(stayers.policy_probability(0) < 0.1);
/// // The model travels in Botzone's `data` field between turns.
/// let text = walkers.encode();
/// assert_eq!(TypeModel::decode(&text).unwrap().encode(), text);
/// ```
#[derive(Clone, Debug)]
pub struct TypeModel {
    log_odds: [f64; PLAYERS],
    /// The search's share of visits per action (by [`Action::index`]), for the
    /// turn about to be observed.
    expected: [[f64; Action::COUNT]; PLAYERS],
    has_expected: [bool; PLAYERS],
    rng: Rng,
    /// Per player, the turns it could shoot with somebody in one of its
    /// lines and nobody trapped in any (its chances at a player who can
    /// step out of the path), and the turns it took one.
    dodge_chances: [u32; PLAYERS],
    dodge_shots: [u32; PLAYERS],
}

/// Policy actions drawn per player and turn by [`TypeModel::observe`].
const TYPE_SAMPLES: u32 = 32;

/// Share of a uniform choice among the legal actions mixed into both
/// explanations, so that no action is impossible under either.
const TYPE_UNIFORM: f64 = 0.15;

/// The log-odds stay within this bound, so that a player that changes its
/// ways is seen to within a few turns.
const TYPE_BOUND: f64 = 6.0;

/// The first word of [`TypeModel::encode`].
const TYPE_TAG: &str = "types1";

/// The word before the shot counts in [`TypeModel::encode`].
const DODGE_TAG: &str = "dodge";

/// The rate at which a player not yet seen is taken to fire at a player
/// who can step out of the path ([`TypeModel::dodge_rate`]).
pub const DODGE_PRIOR: f64 = 0.15;
/// How many chances [`DODGE_PRIOR`] weighs in [`TypeModel::dodge_rate`].
pub const DODGE_PRIOR_CHANCES: f64 = 4.0;

impl TypeModel {
    /// A model in which every player plays as the policy does with
    /// probability `prior` before any turn is seen.
    pub fn new(prior: f64) -> Self {
        let prior = prior.clamp(1e-3, 1.0 - 1e-3);
        TypeModel {
            log_odds: [(prior / (1.0 - prior)).ln(); PLAYERS],
            expected: [[0.0; Action::COUNT]; PLAYERS],
            has_expected: [false; PLAYERS],
            // Its own fixed stream: the model does not move the search's.
            rng: Rng::new(0x7e5d),
            dodge_chances: [0; PLAYERS],
            dodge_shots: [0; PLAYERS],
        }
    }

    /// Records what the search expects player `p` to play this turn: its
    /// first-turn arms (visits per action). The next
    /// [`TypeModel::observe`] weighs the action `p` played against them.
    pub fn expect(&mut self, p: usize, arms: &[crate::search::flat_mc::Arm<Action>]) {
        if p >= PLAYERS {
            return;
        }
        let total: u64 = arms.iter().map(|a| a.visits).sum();
        self.expected[p] = [0.0; Action::COUNT];
        self.has_expected[p] = total > 0;
        if total == 0 {
            return;
        }
        for a in arms {
            if let Some(e) = self.expected[p].get_mut(a.action.index()) {
                *e = a.visits as f64 / total as f64;
            }
        }
    }

    /// Records one turn: `joint` is about to be played in `game`. Players
    /// without an expectation for it ([`TypeModel::expect`]) are left as
    /// they were; every expectation is used once. Builds the policy's
    /// tables for `game` (tens of microseconds on Botzone's maps), so it is
    /// meant for once a turn, not for rollouts; a bot that keeps the tables
    /// of its game calls [`TypeModel::observe_with`] instead.
    pub fn observe(&mut self, game: &Pacman2, joint: &[Action; PLAYERS]) {
        self.observe_with(&GreedyPolicy::new(game), game, joint);
    }

    /// [`TypeModel::observe`] with the tables of `policy`, a
    /// [`GreedyPolicy`] built for a position of the same game (the tables
    /// depend only on the walls and the skill's cost, which never change
    /// during a game; the policy's shot weights are not used), so that
    /// they are built once a game rather than once a turn.
    pub fn observe_with(
        &mut self,
        policy: &GreedyPolicy,
        game: &Pacman2,
        joint: &[Action; PLAYERS],
    ) {
        let expected = std::mem::replace(&mut self.has_expected, [false; PLAYERS]);
        if game.is_over() {
            return;
        }
        self.count_dodge_shots(policy, game, joint);
        if !expected.contains(&true) {
            return;
        }
        let mut legal = super::Actions::default();
        for (p, &played) in joint.iter().enumerate() {
            if !expected[p] || !game.is_active(p) {
                continue;
            }
            crate::games::Game::legal_actions(game, p, &mut legal);
            let uniform = TYPE_UNIFORM / legal.len().max(1) as f64;
            let same = (0..TYPE_SAMPLES)
                .filter(|_| policy.action(game, p, &mut self.rng) == played)
                .count();
            let by_policy = (1.0 - TYPE_UNIFORM) * same as f64 / f64::from(TYPE_SAMPLES) + uniform;
            let share = self.expected[p].get(played.index()).copied().unwrap_or(0.0);
            let by_search = (1.0 - TYPE_UNIFORM) * share + uniform;
            self.log_odds[p] =
                (self.log_odds[p] + (by_policy / by_search).ln()).clamp(-TYPE_BOUND, TYPE_BOUND);
        }
    }

    /// Counts the turn for [`TypeModel::dodge_rate`]: each live player
    /// strong enough to shoot, with somebody in one of its lines and
    /// nobody in any of them unable to step out, had a chance; it took it
    /// when it shot along such a line.
    fn count_dodge_shots(
        &mut self,
        policy: &GreedyPolicy,
        game: &Pacman2,
        joint: &[Action; PLAYERS],
    ) {
        let view = View::of(policy, game);
        for (p, &played) in joint.iter().enumerate() {
            if view.alive & (1 << p) == 0 || view.strength[p] <= policy.skill_cost {
                continue;
            }
            let me = usize::from(view.cell[p]);
            let others = (0..PLAYERS)
                .filter(|&q| q != p)
                .fold(0, |cells, q| cells | view.bit[q]);
            // Per direction: nobody in the path, somebody who can step out
            // of it (and nobody who cannot), or somebody who cannot, as
            // `pick` tells them apart.
            let lines = policy.beam[me].map(|path| {
                if path & others == 0 {
                    0
                } else if view.trapped_in(p, path) == 0 {
                    1
                } else {
                    2
                }
            });
            if lines.contains(&2) || !lines.contains(&1) {
                continue;
            }
            self.dodge_chances[p] += 1;
            // The shots are the last four actions, one per direction.
            if played.is_shot() && lines[played.index() - 5] == 1 {
                self.dodge_shots[p] += 1;
            }
        }
    }

    /// Player `p`'s chances to fire at a player who can step out of the
    /// path (with nobody trapped in any of its lines) and the shots it took
    /// at one, so far ((0, 0) for a player number out of range).
    pub fn dodge_counts(&self, p: usize) -> (u32, u32) {
        match (self.dodge_chances.get(p), self.dodge_shots.get(p)) {
            (Some(&chances), Some(&shots)) => (chances, shots),
            _ => (0, 0),
        }
    }

    /// The rate at which player `p` fires at a player who can step out of
    /// the path, when nobody in its lines is trapped: its shots over its
    /// chances so far, with [`DODGE_PRIOR`] counted as
    /// [`DODGE_PRIOR_CHANCES`] chances (so [`DODGE_PRIOR`] for a player
    /// number out of range).
    pub fn dodge_rate(&self, p: usize) -> f64 {
        let (chances, shots) = self.dodge_counts(p);
        (f64::from(shots) + DODGE_PRIOR * DODGE_PRIOR_CHANCES)
            / (f64::from(chances) + DODGE_PRIOR_CHANCES)
    }

    /// The probability that player `p` plays as the policy does (0 for a
    /// player number out of range).
    pub fn policy_probability(&self, p: usize) -> f64 {
        self.log_odds
            .get(p)
            .map_or(0.0, |&l| 1.0 / (1.0 + (-l).exp()))
    }

    /// The model as one line of text, for Botzone's `data` field (which a
    /// bot started afresh every turn gets back the next turn).
    pub fn encode(&self) -> String {
        let mut out = String::from(TYPE_TAG);
        for p in 0..PLAYERS {
            out.push_str(&format!(" {:.4}", self.log_odds[p]));
            if self.has_expected[p] {
                for e in &self.expected[p] {
                    out.push_str(&format!(" {e:.4}"));
                }
            } else {
                out.push_str(" -");
            }
        }
        out.push_str(&format!(" {DODGE_TAG}"));
        for p in 0..PLAYERS {
            out.push_str(&format!(
                " {} {}",
                self.dodge_chances[p], self.dodge_shots[p]
            ));
        }
        out
    }

    /// Reads [`TypeModel::encode`]'s text back; an error says what was
    /// wrong with it.
    pub fn decode(text: &str) -> Result<TypeModel, String> {
        fn number(word: Option<&str>, what: impl Fn() -> String) -> Result<f64, String> {
            let word = word.ok_or_else(|| format!("{}: missing", what()))?;
            match word.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!("{}: expected a number, found {word:?}", what())),
            }
        }
        let mut words = text.split_whitespace().peekable();
        if words.next() != Some(TYPE_TAG) {
            return Err(format!("expected data starting with {TYPE_TAG:?}"));
        }
        fn count(word: Option<&str>, what: impl Fn() -> String) -> Result<u32, String> {
            let word = word.ok_or_else(|| format!("{}: missing", what()))?;
            word.parse::<u32>()
                .map_err(|_| format!("{}: expected a count, found {word:?}", what()))
        }
        let mut model = TypeModel::new(0.5);
        for p in 0..PLAYERS {
            model.log_odds[p] = number(words.next(), || format!("player {p}'s log-odds"))?
                .clamp(-TYPE_BOUND, TYPE_BOUND);
            if words.peek() == Some(&"-") {
                words.next();
                continue;
            }
            model.has_expected[p] = true;
            for k in 0..Action::COUNT {
                model.expected[p][k] =
                    number(words.next(), || format!("player {p}'s expectation {k}"))?
                        .clamp(0.0, 1.0);
            }
        }
        // The shot counts (absent from the data of bots before them).
        if words.peek() == Some(&DODGE_TAG) {
            words.next();
            for p in 0..PLAYERS {
                let chances = count(words.next(), || format!("player {p}'s dodge chances"))?;
                let shots = count(words.next(), || format!("player {p}'s dodge shots"))?;
                if shots > chances {
                    return Err(format!(
                        "player {p}: {shots} dodge shots in {chances} chances"
                    ));
                }
                (model.dodge_chances[p], model.dodge_shots[p]) = (chances, shots);
            }
        }
        match words.next() {
            None => Ok(model),
            Some(extra) => Err(format!("unexpected {extra:?} after the model")),
        }
    }
}
