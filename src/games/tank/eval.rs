//! A static evaluation of Tank positions for search, and the minimax
//! player that the `tank_minimax` bot runs.
//!
//! [`TankEval`] scores a position for one side as the difference of two
//! sides' terms: tanks alive, how many turns each tank needs to destroy the
//! enemy base (walking, and shooting its way through bricks; this covers the
//! distance to the base and the bricks in between; the quickest tank's
//! time also as a race bonus that grows steeply as the time falls, so an
//! attack a few turns from landing weighs much more, and a lead in that
//! race as a fixed bonus), clear lines of fire at the enemy base and at
//! enemy tanks (worth more when the shooter may shoot now and the target
//! may not answer), and the bases' exposure (the same lines seen from the
//! other side). The attack-time maps depend on the bricks (and on the
//! guards below) and are cached.
//!
//! The value is pessimistic for the side it is for: an enemy tank standing
//! in a line of the enemy base (a guard) slows that side's attack through
//! the line beyond it ([`Weights::guard`]), while that side's own guards are
//! ignored (they may leave or fall). Without this, an attacker held off by a
//! guard right beside the base counted as an attack a turn or two from
//! landing, and the search settled into such locks, valued about a tank
//! ahead, for the rest of the game.
//!
//! [`TankMinimax`] couples it with [`crate::search::alphabeta`].

use super::{item, Field, SideAction, TankAction, BASE_POS, CELLS, SIDES, WIDTH};
use crate::search::alphabeta::{AlphaBeta, Evaluator, Limits, SearchResult, PRUNE};
use crate::time::Deadline;

/// Unreachable in the attack-time maps.
const FAR: u8 = 60;
/// Cached attack-time map pairs (direct-mapped by the bricks' hash; a
/// power of two). A search meets many brick layouts, and a miss costs two
/// maps: 2^15 slots (about 6 MB) keep most of them.
const CACHE_SLOTS: usize = 1 << 15;
const _: () = assert!(CACHE_SLOTS.is_power_of_two());
/// Leaf values kept by [`TankEval`]'s [`Evaluator::evaluate`]
/// (direct-mapped by position key; a power of two): 2^14 slots (256 KB)
/// sit in the L2 cache, and more were slower.
const LEAF_SLOTS: usize = 1 << 14;
const _: () = assert!(LEAF_SLOTS.is_power_of_two());

/// Weights of the evaluation, in the search's value units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per live tank.
    pub tank: i32,
    /// Per turn the quickest tank needs to destroy the enemy base.
    pub attack_time: i32,
    /// Per turn the other tank needs.
    pub second_attack_time: i32,
    /// A clear line to the enemy base from a tank that may shoot now.
    pub base_line_ready: i32,
    /// The same from a tank that shot last turn.
    pub base_line_cooling: i32,
    /// A clear line to an enemy tank that may not shoot back this turn.
    pub tank_line_free: i32,
    /// A tank that may shoot now.
    pub loaded: i32,
    /// The race bonus: a side whose quickest tank needs `t` turns to
    /// destroy the enemy base gets `race * exp(-t / race_turns)` on top of
    /// `attack_time` per turn, so that an attack a few turns from landing
    /// (ours or theirs) weighs much more than one across the map.
    pub race: i32,
    /// The race bonus's scale, in turns.
    pub race_turns: f64,
    /// The race lead: when one side's quickest tank needs fewer turns to
    /// destroy the enemy base than the other side's quickest, and at most
    /// [`Weights::lead_turns`], that side gets `lead` (the other loses it).
    /// The race bonus alone counts an attack that lands a turn after the
    /// enemy's as a near tie (its bonuses for 4 and 5 turns differ by
    /// 122), though the side that is a turn late loses its base first.
    pub lead: i32,
    /// The longest attack time for which [`Weights::lead`] counts.
    pub lead_turns: u8,
    /// Turns added to the attack through a line of the enemy base beyond
    /// an enemy tank standing in it (a guard), in the value for the
    /// attacking side only (0: tanks are ignored, as in
    /// [`TankEval::attack_times`]).
    pub guard: u8,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            tank: 500,
            attack_time: 12,
            second_attack_time: 4,
            base_line_ready: 400,
            base_line_cooling: 150,
            tank_line_free: 120,
            loaded: 8,
            race: 1500,
            race_turns: 5.0,
            lead: 400,
            lead_turns: 8,
            guard: 8,
        }
    }
}

#[derive(Clone, Copy)]
struct CacheSlot {
    bricks: u128,
    bases: u8,
    /// The guards the maps were made with (see [`guards`]).
    guards: [u128; SIDES],
    /// `time[side][cell]`: turns a tank at `cell` needs to destroy the base
    /// of `side` (walls as they stand, other tanks ignored).
    time: [[u8; CELLS]; SIDES],
}

/// The Tank evaluation (see the module documentation). Build one per bot;
/// it owns its cache (allocated once, in [`TankEval::new`]).
pub struct TankEval {
    /// The weights.
    pub weights: Weights,
    /// Whether [`Evaluator::order`] drops shots that are dominated by
    /// staying (see `wasted_shot`); on by default.
    pub prune: bool,
    cache: Vec<Option<CacheSlot>>,
    /// Values of positions a search met at its horizon, by position key
    /// and side (`Field::key` with the lowest bit set, so that key 0 marks
    /// an empty slot, and the next bit flipped for side 1): the same
    /// position is reached by many orders of the same moves.
    leaves: Vec<(u64, i32)>,
    /// The race bonus by attack time.
    race: [i32; FAR as usize + 1],
    /// The weights that `race` and `leaves` were made with (`None` before
    /// the first use): the weights are public, and what was made with
    /// others is stale.
    made_with: Option<Weights>,
}

impl Default for TankEval {
    fn default() -> Self {
        TankEval::new()
    }
}

impl TankEval {
    /// An evaluation with the default weights.
    pub fn new() -> Self {
        TankEval {
            weights: Weights::default(),
            prune: true,
            cache: vec![None; CACHE_SLOTS],
            leaves: vec![(0, 0); LEAF_SLOTS],
            race: [0; FAR as usize + 1],
            made_with: None,
        }
    }

    /// Turns a tank at each cell needs to destroy the base of `side` on this
    /// field's walls, tanks ignored (see [`TankEval`]); [`u8`] 60 for
    /// never.
    pub fn attack_times(&mut self, field: &Field) -> [[u8; CELLS]; SIDES] {
        let i = self.slot_index(field, [0; SIDES], 0);
        *self.maps(i)
    }

    /// The attack-time maps that [`TankEval::value`] for `side` uses: the
    /// enemy base's with the enemy's guards ([`Weights::guard`] turns more
    /// through a guarded line from the guard on), `side`'s own base's with
    /// tanks ignored.
    pub fn attack_times_for(&mut self, field: &Field, side: usize) -> [[u8; CELLS]; SIDES] {
        self.sync_weights();
        let i = self.guarded_slot(field, side);
        *self.maps(i)
    }

    /// The cache slot of the maps that the value for `side` uses.
    fn guarded_slot(&mut self, field: &Field, side: usize) -> usize {
        let guard = self.weights.guard;
        let mut guarding = [0; SIDES];
        if guard > 0 {
            guarding[1 - side] = guards(field, 1 - side);
        }
        self.slot_index(field, guarding, guard)
    }

    /// The maps in cache slot `i`, filled by [`TankEval::slot_index`].
    fn maps(&self, i: usize) -> &[[u8; CELLS]; SIDES] {
        &self.cache[i].as_ref().expect("filled by slot_index").time
    }

    /// The cache slot holding `field`'s attack-time maps with `guards`
    /// ([`guards`] for each base, or none) adding `extra` turns (filled
    /// first when they are not there).
    fn slot_index(&mut self, field: &Field, guards: [u128; SIDES], extra: u8) -> usize {
        let bricks = field.core.walls;
        let bases = field.core.bases;
        let g = guards[0] ^ guards[1].rotate_left(64);
        let h = (bricks as u64
            ^ (bricks >> 64) as u64
            ^ u64::from(bases)
            ^ g as u64
            ^ (g >> 64) as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let i = (h >> (64 - CACHE_SLOTS.trailing_zeros())) as usize;
        let hit = matches!(&self.cache[i],
            Some(s) if s.bricks == bricks && s.bases == bases && s.guards == guards);
        if !hit {
            let time = [
                attack_map(field, 0, guards[0], extra),
                attack_map(field, 1, guards[1], extra),
            ];
            self.cache[i] = Some(CacheSlot {
                bricks,
                bases,
                guards,
                time,
            });
        }
        i
    }

    /// The value of `field` for `side` (higher is better), not counting
    /// whether the game is over. Not zero-sum: the enemy's guards slow
    /// `side`'s attack, `side`'s own guards do not slow the enemy's (see
    /// [`TankEval`]).
    pub fn value(&mut self, field: &Field, side: usize) -> i32 {
        self.sync_weights();
        self.value_synced(field, side)
    }

    /// [`TankEval::value`] once [`TankEval::sync_weights`] has run.
    fn value_synced(&mut self, field: &Field, side: usize) -> i32 {
        let w = self.weights;
        let slot = self.guarded_slot(field, side);
        let times = self.maps(slot);
        let race = &self.race;
        let occ = field.occupancy();
        let mut total = 0;
        // Each side's quickest attack time, for the race lead.
        let mut quickest = [FAR; SIDES];
        for (s, side_quickest) in quickest.iter_mut().enumerate() {
            let enemy = 1 - s;
            let enemy_base = super::BASE_P[enemy];
            let mut v = 0;
            let mut best = FAR;
            let mut other = FAR;
            for t in 0..2 {
                let i = s * 2 + t;
                let Some(c) = field.tank_cell(i) else {
                    continue;
                };
                v += w.tank;
                let ready = !field.shot_last_turn(s, t);
                if ready {
                    v += w.loaded;
                }
                let at = times[enemy][c];
                if at < best {
                    other = best;
                    best = at;
                } else if at < other {
                    other = at;
                }
                // Lines of fire: the first thing each ray meets.
                let p = super::pad(c);
                for dir in 0..4 {
                    let h = Field::ray(p, dir, occ);
                    if h == enemy_base {
                        v += if ready {
                            w.base_line_ready
                        } else {
                            w.base_line_cooling
                        };
                        continue;
                    }
                    if !ready {
                        continue;
                    }
                    let tanks = field.tanks_at(h);
                    let enemy_bits = (tanks >> (enemy * 2)) & 3;
                    let own_bits = (tanks >> (s * 2)) & 3;
                    if enemy_bits != 0 && own_bits == 0 {
                        // Can the target answer along the same line?
                        let answer = (0..2)
                            .any(|u| enemy_bits >> u & 1 == 1 && !field.shot_last_turn(enemy, u));
                        if !answer {
                            v += w.tank_line_free;
                        }
                    }
                }
            }
            *side_quickest = best;
            v += race[usize::from(best)];
            v -= w.attack_time * i32::from(best);
            v -= w.second_attack_time * i32::from(other);
            total += if s == side { v } else { -v };
        }
        let (mine, theirs) = (quickest[side], quickest[1 - side]);
        if mine < theirs && mine <= w.lead_turns {
            total += w.lead;
        } else if theirs < mine && theirs <= w.lead_turns {
            total -= w.lead;
        }
        total
    }

    /// When the weights changed: fills the race bonus table again (see
    /// [`Weights::race`]; the bonus is 0 for a base out of reach) and
    /// forgets the remembered leaf values and attack-time maps.
    fn sync_weights(&mut self) {
        if self.made_with == Some(self.weights) {
            return;
        }
        let (k, turns) = (self.weights.race, self.weights.race_turns);
        for (t, r) in self.race.iter_mut().enumerate().take(FAR as usize) {
            *r = (f64::from(k) * (-(t as f64) / turns).exp()).round() as i32;
        }
        self.leaves.fill((0, 0));
        // Maps made with guards used the old `guard`.
        self.cache.fill(None);
        self.made_with = Some(self.weights);
    }

    /// Move-ordering score of one tank's action for `side`'s tank `t`:
    /// shots at the enemy base, then at enemy tanks, then moves that bring
    /// the tank closer to destroying the base (on the maps that the value
    /// for `side` uses), then shots at bricks.
    /// `slot` is [`TankEval::guarded_slot`] of `field` for `side`.
    fn action_score(
        &mut self,
        field: &Field,
        side: usize,
        slot: usize,
        t: usize,
        a: TankAction,
    ) -> i32 {
        let Some(c) = field.tank_cell(side * 2 + t) else {
            return 0;
        };
        let enemy = 1 - side;
        match a {
            TankAction::Stay => 0,
            a if a.is_shoot() => {
                let dir = a.code() as usize & 3;
                if self.prune && wasted_shot(field, side, t, c, dir) {
                    return PRUNE;
                }
                match field.first_hit(c, dir) {
                    None => -20,
                    Some(h) => {
                        let items = field.at_cell(h);
                        let (bx, by) = BASE_POS[enemy];
                        if items & item::BASE != 0 {
                            if h == by * WIDTH + bx {
                                10_000
                            } else {
                                -10_000
                            }
                        } else if items & item::TANKS != 0 {
                            let enemy_bits = (items >> (3 + enemy * 2)) & 3;
                            if enemy_bits != 0 {
                                5_000
                            } else {
                                -5_000
                            }
                        } else if items & item::BRICK != 0 {
                            40
                        } else {
                            -20
                        }
                    }
                }
            }
            a => {
                let dir = a.code() as usize;
                let times = &self.maps(slot)[enemy];
                match super::step(c, dir) {
                    Some(n) => 10 * (i32::from(times[c]) - i32::from(times[n])),
                    None => -100,
                }
            }
        }
    }
}

/// Whether `side`'s tank `t` at cell `c` shooting in `dir` is dominated by
/// staying: shots resolve after every move, so a shot matters only through
/// what its ray can meet. It is wasted when the ray (as the field stands)
/// ends on steel or the border, or on this side's own base, and no enemy
/// tank stands on or next to any cell of the ray (so none can step into it
/// this turn), and the partner tank is not in the ray (the partner may step
/// out of it, letting the shot through). Staying then gives the same field
/// and keeps the tank loaded.
fn wasted_shot(field: &Field, side: usize, t: usize, c: usize, dir: usize) -> bool {
    let enemy = 1 - side;
    let enemy_near = |cell: usize| {
        let near = |x: usize| field.at_cell(x) >> (3 + enemy * 2) & 3 != 0;
        near(cell) || (0..4).any(|d| super::step(cell, d).is_some_and(near))
    };
    let partner = field.tank_cell(side * 2 + (1 - t));
    let mut cell = c;
    while let Some(n) = super::step(cell, dir) {
        cell = n;
        if Some(cell) == partner || enemy_near(cell) {
            return false;
        }
        let items = field.at_cell(cell);
        if items & item::STEEL != 0 {
            return true;
        }
        if items & item::BASE != 0 {
            let (bx, by) = BASE_POS[side];
            return cell == by * WIDTH + bx;
        }
        if items & (item::BRICK | item::TANKS) != 0 {
            return false;
        }
    }
    true
}

/// The padded cells in the four lines of each base, out to steel or the
/// border (bricks do not end them, and no line reaches the other base):
/// they never change.
const BASE_LINES: [u128; SIDES] = {
    let mut lines = [0u128; SIDES];
    let mut side = 0;
    while side < SIDES {
        let mut d = 0;
        while d < 4 {
            let mut p = super::BASE_P[side].wrapping_add(super::DELTA[d]);
            while super::FIXED >> p & 1 == 0 {
                lines[side] |= 1 << p;
                p = p.wrapping_add(super::DELTA[d]);
            }
            d += 1;
        }
        side += 1;
    }
    lines
};

/// The padded cells of `side`'s live tanks that stand in a line of its own
/// base: its guards.
fn guards(field: &Field, side: usize) -> u128 {
    let mut tanks = 0u128;
    for t in 0..2 {
        if let Some(c) = field.tank_cell(side * 2 + t) {
            tanks |= 1 << super::pad(c);
        }
    }
    tanks & BASE_LINES[side]
}

/// Turns a tank at each cell needs to destroy the base of `side`: from a
/// cell in line with the base, one shot per brick in between plus one for
/// the base, a turn of cooling between shots (`2k + 1` turns for `k`
/// bricks), and `extra` more from the cell of a tank in `guards` and beyond
/// it; elsewhere, one turn per move into an empty cell and two into a
/// brick (shoot, then move) on the way to such a cell. Steel and bases
/// block; other tanks are ignored.
fn attack_map(field: &Field, side: usize, guards: u128, extra: u8) -> [u8; CELLS] {
    let mut time = [FAR; CELLS];
    if !field.base_alive(side) {
        return time;
    }
    // Padded bitboards (see `super::pad`): where a tank may stand or shoot
    // its way into, and the bricks among those cells.
    let bases = field.core.walls & (super::BIT_BASES[0] | super::BIT_BASES[1]);
    let passable = !(super::FIXED | bases);
    let bricks = field.core.walls & passable;
    // Seeds: cells in line with the base, `2k + 1` turns for `k` bricks
    // between (each cell of the base's lines has one such time).
    let mut seeds = [0u128; FAR as usize];
    let mut last_seed = 0;
    let base = super::BASE_P[side];
    for delta in super::DELTA {
        let mut k = 0usize;
        let mut guarded = 0;
        let mut p = base.wrapping_add(delta);
        while passable >> p & 1 == 1 {
            if guards >> p & 1 == 1 {
                guarded = usize::from(extra);
            }
            let t = (2 * k + 1 + guarded).min(usize::from(FAR) - 1);
            seeds[t] |= 1 << p;
            last_seed = last_seed.max(t);
            k += (bricks >> p & 1) as usize;
            p = p.wrapping_add(delta);
        }
    }
    // Shortest ways, one wavefront per turn: a cell takes time `t` when a
    // neighbour took `t - 1` and is empty (one move into it) or took
    // `t - 2` and is a brick (shoot, then move).
    let near = |s: u128| (s << 1 | s >> 1 | s << super::PW | s >> super::PW) & passable;
    let mut layers = [0u128; FAR as usize];
    let mut done = 0u128;
    for t in 1..usize::from(FAR) {
        let mut reached = seeds[t];
        reached |= near(layers[t - 1] & !bricks);
        if t >= 2 {
            reached |= near(layers[t - 2] & bricks);
        }
        let fresh = reached & !done;
        layers[t] = fresh;
        done |= fresh;
        if fresh == 0 && layers[t - 1] == 0 && t >= last_seed {
            break;
        }
    }
    for (t, &layer) in layers.iter().enumerate() {
        let mut bits = layer;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            time[super::unpad(p)] = t as u8;
        }
    }
    time
}

impl Evaluator<Field> for TankEval {
    /// [`TankEval::value`], remembered by position and side.
    fn evaluate(&mut self, game: &Field, me: usize) -> i32 {
        self.sync_weights();
        let key = (game.key() | 1) ^ (me as u64) << 1;
        let i = (key >> (64 - LEAF_SLOTS.trailing_zeros())) as usize;
        if self.leaves[i].0 == key {
            return self.leaves[i].1;
        }
        let v = self.value_synced(game, me);
        self.leaves[i] = (key, v);
        v
    }

    fn key(&mut self, game: &Field) -> u64 {
        game.key()
    }

    fn order(&mut self, game: &Field, player: usize, actions: &[SideAction], scores: &mut [i32]) {
        let slot = self.guarded_slot(game, player);
        let mut per_tank = [[0i32; TankAction::COUNT]; 2];
        for (t, row) in per_tank.iter_mut().enumerate() {
            let mask = game.valid_mask(player * 2 + t);
            for (k, s) in row.iter_mut().enumerate() {
                if mask >> k & 1 == 1 {
                    *s = self.action_score(game, player, slot, t, TankAction::ALL[k]);
                }
            }
        }
        for (a, s) in actions.iter().zip(scores.iter_mut()) {
            let (s0, s1) = (per_tank[0][a.0[0].index()], per_tank[1][a.0[1].index()]);
            *s = if s0 == PRUNE || s1 == PRUNE {
                PRUNE
            } else {
                s0 + s1
            };
        }
    }
}

/// The `tank_minimax` player: alpha-beta over joint actions with
/// [`TankEval`], a preallocated transposition table and a deadline.
pub struct TankMinimax {
    search: AlphaBeta<Field>,
    eval: TankEval,
    /// Bounds on each search besides the deadline.
    pub limits: Limits,
}

impl TankMinimax {
    /// A player with a transposition table of `2^table_bits` entries and
    /// [`Limits::from_env`] (a node budget from `BOTZONE_ITERATIONS`).
    pub fn new(table_bits: u32) -> Self {
        TankMinimax {
            search: AlphaBeta::new(table_bits),
            eval: TankEval::new(),
            limits: Limits::from_env(),
        }
    }

    /// Tells the next [`TankMinimax::choose`] that the opponent is
    /// expected to play `reply` this turn: it then answers `reply` instead
    /// of the worst reply at the root ([`AlphaBeta::expect_reply`]).
    pub fn expect_reply(&mut self, reply: Option<SideAction>) {
        self.search.expect_reply(reply);
    }

    /// The action for `side` on `field` (left as it was), found before
    /// `deadline`. Always valid: it comes from the legal actions, and a
    /// destroyed tank gets [`TankAction::Stay`].
    pub fn choose(
        &mut self,
        field: &mut Field,
        side: usize,
        deadline: &Deadline,
    ) -> SearchResult<SideAction> {
        let mut result = self
            .search
            .search(field, side, &mut self.eval, deadline, self.limits);
        // Belt and braces: never answer an invalid action.
        for t in 0..2 {
            if !field.tank_alive(side, t) || !field.is_valid(side, t, result.best.0[t]) {
                result.best.0[t] = TankAction::Stay;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tank::{bricks_from_seed, SideActions};

    /// The remembered leaf values are the evaluation's, for both sides,
    /// before and after the weights change.
    #[test]
    fn evaluate_remembers_the_value_of_each_position() {
        let mut eval = TankEval::new();
        let mut fresh = TankEval::new();
        let mut field = Field::new(bricks_from_seed(3));
        let stay = SideAction::default();
        let mut pairs = SideActions::new();
        let mut positions = 0;
        for turn in 0..30 {
            if field.is_over() {
                break;
            }
            // Legal pairs, a different one every turn.
            let mut joint = [stay; 2];
            for (side, slot) in joint.iter_mut().enumerate() {
                field.legal_side_actions(side, &mut pairs);
                *slot = pairs[(turn * 7) % pairs.len()];
            }
            for _ in 0..2 {
                for side in 0..SIDES {
                    let v = eval.evaluate(&field, side);
                    assert_eq!(v, fresh.value(&field, side), "turn {turn}, side {side}");
                    positions += 1;
                }
            }
            field.apply_unchecked([joint[0].0, joint[1].0]);
        }
        assert!(positions > 40, "{positions} positions");
        // The last position again, remembered, with other weights.
        let before = eval.evaluate(&field, 0);
        eval.weights.attack_time += 100;
        fresh.weights.attack_time += 100;
        let after = eval.evaluate(&field, 0);
        assert_eq!(after, fresh.value(&field, 0));
        assert_ne!(before, after, "the attack times should differ here");
    }
}
