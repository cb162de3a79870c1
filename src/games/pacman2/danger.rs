//! Mortal dangers of one turn's action, for a search's root: being eaten
//! by a stronger player that can force it (a dead end with the stronger
//! player at its mouth), and being killed by beams.
//!
//! A stronger player *forces* a catch when it has a move that eats the
//! weaker one whatever the weaker one does, now or in a position from
//! which it forces a catch again, within [`CATCH_TURNS`] turns. That is a
//! pursuit on the walls alone (other players, fruit and beams left out),
//! solved once per field for every pair of cells ([`Dangers::new`]); moving
//! onto the cell of a stronger player is a stay (the judge's 恐吓).
//!
//! A beam takes `SKILL_COST * 1.5` strength from every player in its path,
//! and a player left with none dies: an action is *lethal* when the beams
//! of the players able to shoot would leave nothing.
//!
//! [`Dangers::safe_actions`] keeps the actions that risk neither, or when
//! there are none, the ones that at least are not lethal, or that at least
//! escape every forced catch. Monte Carlo samples the opponents' replies,
//! and an opponent that always finds the move that kills (a rules bot
//! shooting down a line, a hunter closing a dead end) punishes the rare
//! rollouts in which it did not; the filter makes those actions
//! unavailable instead.
//!
//! ```
//! use botzone::games::pacman2::danger::Dangers;
//! use botzone::games::pacman2::policy::GreedyPolicy;
//! use botzone::games::pacman2::{Action, Map, Pacman2};
//!
//! let game = Pacman2::new(&Map::generate(1));
//! let policy = GreedyPolicy::new(&game);
//! let dangers = Dangers::new(&policy);
//! // Every player starts with strength 1: nobody is stronger, nobody can shoot.
//! let safe = dangers.safe_actions(&policy, &game, 0);
//! assert!(Action::ALL.iter().all(|&a| !game.is_valid(0, a) || safe.contains(a)));
//! ```

use super::policy::{GreedyPolicy, NONE};
use super::{Action, Pacman2, MAX_CELLS, PLAYERS};

/// Turns within which a forced catch is looked for (this turn included).
pub const CATCH_TURNS: usize = 8;

/// A set of [`Action`]s (bit `i` for `Action::ALL[i]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionSet(u16);

impl ActionSet {
    /// Whether `action` is in the set.
    pub fn contains(self, action: Action) -> bool {
        self.0 & (1 << index(action)) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn insert(&mut self, action: Action) {
        self.0 |= 1 << index(action);
    }
}

fn index(action: Action) -> usize {
    (action.code() + 1) as usize
}

/// The forced catches of one field (see the module documentation).
#[derive(Clone, Debug)]
pub struct Dangers {
    /// `caught[v]`: the cells from which a weaker player is eaten, within
    /// `CATCH_TURNS - 1` turns, by a stronger one that stands on `v` and
    /// plays the pursuit well.
    caught: [u128; MAX_CELLS],
}

impl Dangers {
    /// Solves the pursuit on the field of `policy` (a few milliseconds;
    /// walls never change, so once per game is enough).
    pub fn new(policy: &GreedyPolicy) -> Dangers {
        Dangers {
            caught: solve(policy, CATCH_TURNS),
        }
    }

    /// The valid actions of live player `me` that no stronger player can
    /// punish with a forced catch and that no beam can kill; when none is
    /// both, those that are not lethal, else those that escape every
    /// forced catch, else every valid action.
    pub fn safe_actions(&self, policy: &GreedyPolicy, game: &Pacman2, me: usize) -> ActionSet {
        let next = policy.neighbours();
        let width = game.width();
        let cell_of = |p: usize| {
            let pl = game.player(p);
            pl.row * width + pl.col
        };
        let here = cell_of(me);
        let mine = game.player(me);
        let constants = game.constants();
        let damage = constants.skill_cost * 3 / 2;
        let boost = constants.large_fruit_enhancement;
        // Strength on the collisions of the turn `t` turns from now (the
        // boost runs out at the end of the turn its count reaches 0).
        let strength_at = |s: i32, left: i32, t: i32| {
            if left > 0 && left <= t {
                s - boost
            } else {
                s
            }
        };
        let mut pursuers = 0u128;
        let mut pursuer_cells = [0usize; PLAYERS];
        let mut count = 0;
        let mut stronger_cells = 0u128;
        let mut shooters = [0usize; PLAYERS];
        let mut shooter_count = 0;
        for q in (0..PLAYERS).filter(|&q| q != me && game.is_alive(q)) {
            let them = game.player(q);
            let c = cell_of(q);
            if them.strength > mine.strength {
                stronger_cells |= 1u128 << c;
            }
            let always_stronger = (0..=CATCH_TURNS as i32).all(|t| {
                strength_at(them.strength, them.power_up_left, t)
                    > strength_at(mine.strength, mine.power_up_left, t)
            });
            if always_stronger && pursuers >> c & 1 == 0 {
                pursuers |= 1u128 << c;
                pursuer_cells[count] = c;
                count += 1;
            }
            if them.strength > constants.skill_cost {
                shooters[shooter_count] = c;
                shooter_count += 1;
            }
        }
        let mut both = ActionSet::default();
        let mut not_lethal = ActionSet::default();
        let mut not_caught = ActionSet::default();
        let mut valid = ActionSet::default();
        for action in Action::ALL {
            if !game.is_valid(me, action) {
                continue;
            }
            valid.insert(action);
            let mut to = here;
            if action.is_move() {
                let n = next[here][action.code() as usize];
                if n != NONE && stronger_cells >> n & 1 == 0 {
                    to = n as usize;
                }
            }
            let mode = std::env::var("PACMAN_DANGER").unwrap_or_default();
            let imm = !mode.contains("noimm");
            let caught = !mode.contains("nocatch")
                && pursuer_cells[..count].iter().any(|&v| {
                    targets(next, v).any(|w| (imm && w == to) || self.caught[w] >> to & 1 == 1)
                });
            let beams = shooters[..shooter_count]
                .iter()
                .filter(|&&c| policy.beam_paths(c) >> to & 1 == 1)
                .count() as i32;
            let cost = if action.is_shot() {
                constants.skill_cost
            } else {
                0
            };
            let lethal =
                !mode.contains("nobeam") && beams > 0 && mine.strength - cost - damage * beams <= 0;
            if !lethal {
                not_lethal.insert(action);
            }
            if !caught {
                not_caught.insert(action);
            }
            if !lethal && !caught {
                both.insert(action);
            }
        }
        [both, not_lethal, not_caught]
            .into_iter()
            .find(|set| !set.is_empty())
            .unwrap_or(valid)
    }
}

/// The cells a player on `cell` can be on after one turn: `cell` itself
/// and its neighbours through no wall.
fn targets(next: &[[u8; 4]; MAX_CELLS], cell: usize) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(cell).chain(
        next[cell]
            .iter()
            .filter(|&&n| n != NONE)
            .map(|&n| n as usize),
    )
}

/// `result[v]`: the cells from which a weaker player is eaten within
/// `turns - 1` turns by a stronger one standing on `v`.
fn solve(policy: &GreedyPolicy, turns: usize) -> [u128; MAX_CELLS] {
    let cells = policy.cells();
    let next = policy.neighbours();
    // `lost[v]` with `k` turns left: the weaker player's cells from which
    // the stronger one on `v` eats it within `k` turns.
    let mut lost = [0u128; MAX_CELLS];
    for _ in 1..turns {
        let mut now = [0u128; MAX_CELLS];
        for (v, slot) in now.iter_mut().enumerate().take(cells) {
            let mut found = 0u128;
            for to in targets(next, v) {
                // Eaten right away on `to`, or next from a lost cell.
                let doomed = lost[to] | 1u128 << to;
                // Lost when every answer ends in `doomed`: staying (so the
                // cell itself is in it) and every move, a move onto `v`
                // being a stay.
                let mut rest = doomed & !found & !(1u128 << v);
                while rest != 0 {
                    let u = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let trapped = next[u]
                        .iter()
                        .all(|&n| n == NONE || n as usize == v || doomed >> n & 1 == 1);
                    if trapped {
                        found |= 1u128 << u;
                    }
                }
            }
            *slot = found;
        }
        lost = now;
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pacman2::Map;

    /// Whether the pursuer on `v` eats the evader on `u` within `turns`
    /// turns whatever the evader does, by brute force: the pursuer commits
    /// to a move, then every answer is tried.
    fn forced(next: &[[u8; 4]; MAX_CELLS], u: usize, v: usize, turns: usize) -> bool {
        turns > 0
            && targets(next, v).any(|w| {
                targets(next, u).all(|t| {
                    let t = if t == v { u } else { t };
                    t == w || forced(next, t, w, turns - 1)
                })
            })
    }

    /// The tables hold exactly the forced catches, on the walls of a few
    /// fields, for short horizons the brute force can check.
    #[test]
    fn the_tables_are_the_forced_catches_of_a_brute_force_pursuit() {
        let mut found = 0;
        for seed in [1, 5, 9, 13] {
            let game = Pacman2::new(&Map::generate(seed));
            let policy = GreedyPolicy::new(&game);
            let next = policy.neighbours();
            for turns in 2..=3 {
                let table = solve(&policy, turns);
                for v in 0..policy.cells() {
                    for u in (0..policy.cells()).filter(|&u| u != v) {
                        let brute = forced(next, u, v, turns - 1);
                        assert_eq!(table[v] >> u & 1 == 1, brute, "field {seed}, {u} from {v}");
                        found += usize::from(brute);
                    }
                }
            }
        }
        assert!(found > 0, "no forced catch at all");
    }

    /// A dead end with the stronger player at its mouth is a catch, and
    /// longer horizons only find more.
    #[test]
    fn a_dead_end_with_the_pursuer_at_its_mouth_is_caught() {
        let mut dead_ends = 0;
        for seed in 1..=20 {
            let game = Pacman2::new(&Map::generate(seed));
            let policy = GreedyPolicy::new(&game);
            let dangers = Dangers::new(&policy);
            let short = solve(&policy, 3);
            let next = policy.neighbours();
            for u in 0..policy.cells() {
                let exits: Vec<usize> = targets(next, u).skip(1).collect();
                if let [mouth] = exits[..] {
                    assert!(
                        dangers.caught[mouth] >> u & 1 == 1,
                        "field {seed}, cell {u}"
                    );
                    dead_ends += 1;
                }
            }
            for v in 0..policy.cells() {
                assert_eq!(short[v] & !dangers.caught[v], 0, "field {seed}, cell {v}");
            }
        }
        assert!(dead_ends > 0, "no dead end in 20 fields");
    }
}
