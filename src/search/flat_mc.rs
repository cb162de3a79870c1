//! Flat Monte Carlo for one player of any [`Game`]: try each of its legal
//! actions in turn (round robin), let every other player and every later
//! turn follow a [`Policy`] (uniformly random by default) to the end of the
//! game, value the end by the game's own scores, undo back, and repeat until
//! the deadline. The action with the best mean score wins.
//!
//! Storage is allocated once per [`search`] call; the rollouts themselves
//! allocate nothing (the game's apply and undo do not, and the policy's
//! action list is a fixed list).
//!
//! ```
//! use botzone::games::pacman2::{Map, Pacman2};
//! use botzone::rng::Rng;
//! use botzone::search::flat_mc::{search, Limits, UniformPolicy};
//! use botzone::time::Deadline;
//! use std::time::Duration;
//!
//! let mut game = Pacman2::new(&Map::generate(1));
//! let mut rng = Rng::new(7);
//! let deadline = Deadline::after(Duration::from_secs(5));
//! let limits = Limits { max_rollouts: Some(200), ..Limits::default() };
//! let result = search(&mut game, 0, &deadline, &mut rng, &mut UniformPolicy::default(), limits);
//! assert_eq!(result.rollouts, 200);
//! assert_eq!(game.turn(), 0); // back where it started
//! assert!(game.is_valid(0, result.best));
//! ```

use crate::games::Game;
use crate::rng::Rng;
use crate::time::Deadline;

/// How players choose their actions inside a rollout.
pub trait Policy<G: Game> {
    /// An action for `player`, who is active in `game`.
    fn action(&mut self, game: &G, player: usize, rng: &mut Rng) -> G::Action;

    /// Fills `joint` with one turn: [`Policy::action`] for every active
    /// player, the default action for the others.
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

/// Uniformly random legal actions (through [`Game::legal_actions`]).
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

/// Bounds of a search besides the deadline.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop after this many rollouts (for reproducible tests).
    pub max_rollouts: Option<u64>,
    /// Look at the clock every this many rollouts (at least 1).
    pub check_every: u32,
}

impl Limits {
    /// The default limits, with `max_rollouts` from `BOTZONE_ITERATIONS`
    /// when set ([`crate::time::iteration_budget`]): what a bot uses so that
    /// a fixed budget and `BOTZONE_SEED` make its answers reproducible.
    pub fn from_env() -> Self {
        Limits {
            max_rollouts: crate::time::iteration_budget(),
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

/// What one first action of the searching player earned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arm<A> {
    /// The action.
    pub action: A,
    /// Rollouts that started with it.
    pub visits: u64,
    /// Sum of the player's final scores over those rollouts.
    pub total: f64,
}

impl<A> Arm<A> {
    /// Mean final score (0 before any visit).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// The outcome of a [`search`].
#[derive(Clone, Debug)]
pub struct SearchResult<A> {
    /// The action with the best mean score (the first legal action when
    /// no rollout finished, or `A::default()` when the player has none).
    pub best: A,
    /// Rollouts run.
    pub rollouts: u64,
    /// Turns applied in them.
    pub turns: u64,
    /// Every legal first action with its statistics, in legal-action order.
    pub arms: Vec<Arm<A>>,
}

/// Flat Monte Carlo for `me` in `game` until `deadline` (or
/// `limits.max_rollouts`). `game` is left exactly as it was.
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
        // First turn: this arm for me, the policy for the others.
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
