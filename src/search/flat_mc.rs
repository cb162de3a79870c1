//! Flat Monte Carlo for one player of any [`Game`]: try each of its
//! candidate actions in turn (round robin), let every other player and
//! every later turn follow a [`Policy`] (uniformly random by default) to the
//! end of the game or to a depth, value the position reached with an
//! [`Evaluator`] (the game's own scores by default), undo back, and repeat
//! until the deadline. The action with the best mean value wins.
//!
//! [`search`] is the plain search; [`FlatMc`] adds what bots tune: a depth
//! cap ([`FlatMc::depth`]), a candidate filter ([`FlatMc::candidates`]),
//! an evaluator ([`FlatMc::evaluator`]) and a decoupled first turn
//! ([`FlatMc::decoupled`]), in which the other players' first actions are
//! their own best answers rather than the policy's, optionally followed by
//! more such turns ([`FlatMc::open_loop`]).
//!
//! Storage is allocated once per search; the rollouts themselves allocate
//! nothing (the game's apply and undo do not, and the policy's action list
//! is a fixed list).
//!
//! ```
//! use botzone::games::pacman2::{Map, Pacman2};
//! use botzone::rng::Rng;
//! use botzone::search::flat_mc::{search, FlatMc, Limits, UniformPolicy};
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
//!
//! // Rollouts of at most 10 turns, valued by player 0's strength, over the
//! // moves only.
//! let result = FlatMc::new(limits)
//!     .depth(10)
//!     .candidates(|a: botzone::games::pacman2::Action| a.is_move())
//!     .evaluator(|g: &Pacman2, me: usize| f64::from(g.player(me).strength))
//!     .search(&mut game, 0, &deadline, &mut rng, &mut UniformPolicy::default());
//! assert!(result.best.is_move() && result.turns <= 200 * 10);
//!
//! // Every player's first action by its own UCB1 statistics (valued from
//! // its side by the evaluator); the answer is the most tried action.
//! let result = FlatMc::new(limits)
//!     .depth(10)
//!     .decoupled(2.0)
//!     .evaluator(|g: &Pacman2, p: usize| f64::from(g.player(p).strength))
//!     .search(&mut game, 0, &deadline, &mut rng, &mut UniformPolicy::default());
//! let most = result.arms.iter().map(|a| a.visits).max();
//! assert_eq!(result.arms.iter().find(|a| a.action == result.best).map(|a| a.visits), most);
//!
//! // The same for the first three turns of every rollout (each player's
//! // later choices by statistics kept per its own earlier actions).
//! let result = FlatMc::new(limits)
//!     .depth(10)
//!     .decoupled(2.0)
//!     .open_loop(3)
//!     .evaluator(|g: &Pacman2, p: usize| f64::from(g.player(p).strength))
//!     .search(&mut game, 0, &deadline, &mut rng, &mut UniformPolicy::default());
//! assert_eq!(result.arms.iter().map(|a| a.visits).sum::<u64>(), 200);
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

    /// Fills `joint` for every player but `me`, whose slot the search sets
    /// afterwards: [`Policy::action`] for every other active player, the
    /// default action for the inactive ones. A policy that computes a whole
    /// turn at once may fill `me`'s slot too.
    #[inline]
    fn fill_others(&mut self, game: &G, me: usize, rng: &mut Rng, joint: &mut [G::Action]) {
        for (p, slot) in joint.iter_mut().enumerate() {
            if p == me {
                continue;
            }
            *slot = if game.is_active(p) {
                self.action(game, p, rng)
            } else {
                G::Action::default()
            };
        }
    }
}

/// What the position a rollout reached is worth to the searching player.
/// Closures `FnMut(&G, usize) -> f64` are evaluators.
pub trait Evaluator<G: Game> {
    /// The value of `game` for player `me` (higher is better); `scores`
    /// has room for every player's score.
    fn value(&mut self, game: &G, me: usize, scores: &mut [f64]) -> f64;
}

/// The default evaluator: the player's score by the game's own
/// [`Game::scores`] (its final score once the game is over).
#[derive(Clone, Copy, Debug, Default)]
pub struct GameScore;

impl<G: Game> Evaluator<G> for GameScore {
    #[inline]
    fn value(&mut self, game: &G, me: usize, scores: &mut [f64]) -> f64 {
        game.scores(scores);
        scores[me]
    }
}

impl<G: Game, F: FnMut(&G, usize) -> f64> Evaluator<G> for F {
    #[inline]
    fn value(&mut self, game: &G, me: usize, _: &mut [f64]) -> f64 {
        self(game, me)
    }
}

/// Which of the searching player's legal actions are tried. Closures
/// `FnMut(A) -> bool` are filters.
pub trait Candidates<A> {
    /// Whether `action` is tried.
    fn keep(&mut self, action: A) -> bool;
}

/// The default filter: every legal action is tried.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllLegal;

impl<A> Candidates<A> for AllLegal {
    #[inline]
    fn keep(&mut self, _: A) -> bool {
        true
    }
}

impl<A, F: FnMut(A) -> bool> Candidates<A> for F {
    #[inline]
    fn keep(&mut self, action: A) -> bool {
        self(action)
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

/// Flat Monte Carlo with its settings: [`Limits`], a depth cap, a candidate
/// filter and an evaluator (see the module's example).
#[derive(Clone, Copy, Debug)]
pub struct FlatMc<F = AllLegal, E = GameScore> {
    limits: Limits,
    depth: Option<u32>,
    decoupled: Option<f64>,
    open_loop: u32,
    policy_mix: [f64; MIX_PLAYERS],
    candidates: F,
    evaluator: E,
}

impl FlatMc {
    /// Flat Monte Carlo within `limits`: every legal action tried, each
    /// rollout played to the end of the game and valued by the game's
    /// scores.
    pub fn new(limits: Limits) -> Self {
        FlatMc {
            limits,
            depth: None,
            decoupled: None,
            open_loop: 1,
            policy_mix: [0.0; MIX_PLAYERS],
            candidates: AllLegal,
            evaluator: GameScore,
        }
    }
}

impl<F, E> FlatMc<F, E> {
    /// Rollouts play at most `turns` turns in all (the candidate's turn
    /// included) before they are valued (at least 1).
    pub fn depth(mut self, turns: u32) -> Self {
        self.depth = Some(turns.max(1));
        self
    }

    /// Decouples the first turn: every active player, not only the
    /// searching one, picks its first action by UCB1 over its own
    /// statistics (its legal actions, valued by the evaluator from its
    /// side), with `exploration` as the constant in the evaluator's units;
    /// the policy plays the later turns. The other players' first actions
    /// are then their best answers to the field, not the policy's guesses,
    /// and the searching player's actions are tried in proportion to their
    /// promise instead of in turn. The answer is the most tried action
    /// (the best mean among the most tried). Without it (the default),
    /// the searching player's candidates are tried round robin against the
    /// policy's first actions for the others, and the best mean wins.
    pub fn decoupled(mut self, exploration: f64) -> Self {
        self.decoupled = Some(exploration.max(0.0));
        self
    }

    /// With [`FlatMc::decoupled`], plays the first `turns` turns of every
    /// rollout decoupled, not only the first (1, the default, is the first
    /// turn alone). Each player keeps its own tree of statistics over its
    /// own actions (open loop: a node stands for the player's earlier
    /// actions in the rollout, whatever the others did), grown by one node
    /// when an arm has been tried 30 times, up to a fixed size allocated
    /// once per search; a turn chooses by UCB1 among the arms legal in the
    /// position reached, and the policy plays for a player past the end of
    /// its tree. The candidate filter ([`FlatMc::candidates`]) applies to
    /// the searching player's first turn only. Without `decoupled` this
    /// setting does nothing.
    pub fn open_loop(mut self, turns: u32) -> Self {
        self.open_loop = turns.max(1);
        self
    }

    /// With [`FlatMc::decoupled`], each other player plays the policy's
    /// first action instead of its UCB1 choice in a share `mix` (0 to 1)
    /// of the rollouts (those rollouts are not credited to its statistics):
    /// a hedge against opponents that play as the policy does (a greedy
    /// shot at a player in line) rather than as best answers. 0 (the
    /// default) is off. [`FlatMc::policy_mix_of`] sets one player's share.
    pub fn policy_mix(mut self, mix: f64) -> Self {
        self.policy_mix = [mix.clamp(0.0, 1.0); MIX_PLAYERS];
        self
    }

    /// [`FlatMc::policy_mix`] for `player` alone (players from
    /// [`MIX_PLAYERS`] on are never mixed): for an opponent model that
    /// tells the players who play like the policy from those who do not.
    pub fn policy_mix_of(mut self, player: usize, mix: f64) -> Self {
        if let Some(m) = self.policy_mix.get_mut(player) {
            *m = mix.clamp(0.0, 1.0);
        }
        self
    }

    /// Tries only the legal actions `filter` keeps (all of them when it
    /// keeps none).
    pub fn candidates<F2>(self, filter: F2) -> FlatMc<F2, E> {
        FlatMc {
            limits: self.limits,
            depth: self.depth,
            decoupled: self.decoupled,
            open_loop: self.open_loop,
            policy_mix: self.policy_mix,
            candidates: filter,
            evaluator: self.evaluator,
        }
    }

    /// Values the positions rollouts reach with `evaluator`.
    pub fn evaluator<E2>(self, evaluator: E2) -> FlatMc<F, E2> {
        FlatMc {
            limits: self.limits,
            depth: self.depth,
            decoupled: self.decoupled,
            open_loop: self.open_loop,
            policy_mix: self.policy_mix,
            candidates: self.candidates,
            evaluator,
        }
    }

    /// Searches for `me` in `game` until `deadline` (or the limits). `game`
    /// is left exactly as it was.
    ///
    /// When the filter keeps none of the legal actions, the first legal
    /// action is the answer (no rollout is run); so it is when only one
    /// candidate remains.
    pub fn search<G, P>(
        &mut self,
        game: &mut G,
        me: usize,
        deadline: &Deadline,
        rng: &mut Rng,
        policy: &mut P,
    ) -> SearchResult<G::Action>
    where
        G: Game,
        P: Policy<G>,
        F: Candidates<G::Action>,
        E: Evaluator<G>,
    {
        let mut legal = G::Actions::default();
        if game.is_active(me) {
            game.legal_actions(me, &mut legal);
        }
        let mut arms: Vec<Arm<G::Action>> = legal
            .iter()
            .filter(|&&action| self.candidates.keep(action))
            .map(|&action| Arm::new(action))
            .collect();
        if arms.is_empty() {
            arms.extend(legal.first().map(|&action| Arm::new(action)));
        }
        let mut result = SearchResult {
            best: arms.first().map(|a| a.action).unwrap_or_default(),
            rollouts: 0,
            turns: 0,
            arms: Vec::new(),
            players: Vec::new(),
        };
        if arms.len() <= 1 {
            result.arms = arms;
            return result;
        }
        if let Some(exploration) = self.decoupled {
            (result.rollouts, result.turns) = self.decoupled_rollouts(
                game,
                me,
                deadline,
                rng,
                policy,
                exploration,
                &mut arms,
                &mut result.players,
            );
            let mut best = 0;
            for (i, a) in arms.iter().enumerate() {
                let b = &arms[best];
                if a.visits > b.visits || (a.visits == b.visits && a.mean() > b.mean()) {
                    best = i;
                }
            }
            result.best = arms[best].action;
            result.arms = arms;
            return result;
        }
        let players = game.player_count();
        let mut joint = vec![G::Action::default(); players];
        let mut scores = vec![0.0; players];
        let check_every = u64::from(self.limits.check_every.max(1));
        let max = self.limits.max_rollouts.unwrap_or(u64::MAX);
        let max_depth = self.depth.unwrap_or(u32::MAX);
        let mut arm = 0;
        while result.rollouts < max {
            if result.rollouts % check_every == 0 && deadline.passed() {
                break;
            }
            // First turn: this arm for me, the policy for the others.
            policy.fill_others(game, me, rng, &mut joint);
            joint[me] = arms[arm].action;
            game.apply_unchecked(&joint);
            let mut depth = 1u32;
            while depth < max_depth && !game.is_over() {
                policy.fill_joint(game, rng, &mut joint);
                game.apply_unchecked(&joint);
                depth += 1;
            }
            let value = self.evaluator.value(game, me, &mut scores);
            arms[arm].visits += 1;
            arms[arm].total += value;
            game.undo_turns(depth);
            result.turns += u64::from(depth);
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
}

impl<F, E> FlatMc<F, E> {
    /// The rollouts of [`FlatMc::decoupled`]: `arms` are the searching
    /// player's candidates; every other active player gets arms over its
    /// legal actions. With [`FlatMc::open_loop`], the first turns after
    /// the first are chosen the same way, from statistics each player keeps
    /// for its own earlier actions in the rollout (a tree per player).
    /// Returns the rollouts and turns played.
    #[allow(clippy::too_many_arguments)]
    fn decoupled_rollouts<G, P>(
        &mut self,
        game: &mut G,
        me: usize,
        deadline: &Deadline,
        rng: &mut Rng,
        policy: &mut P,
        exploration: f64,
        arms: &mut [Arm<G::Action>],
        roots: &mut Vec<Vec<Arm<G::Action>>>,
    ) -> (u64, u64)
    where
        G: Game,
        P: Policy<G>,
        E: Evaluator<G>,
    {
        let players = game.player_count();
        let plies = self.open_loop as usize;
        let mut legal = G::Actions::default();
        // Every player's tree: node 0 is the first turn; `me` keeps its
        // own candidates there, copied back at the end.
        let mut trees: Vec<OpenLoopTree<G::Action>> = (0..players)
            .map(|p| {
                let mut tree =
                    OpenLoopTree::with_capacity(if plies > 1 { OPEN_LOOP_ARMS } else { 0 });
                if p == me {
                    tree.push_node(arms.iter().map(|a| a.action));
                } else if game.is_active(p) {
                    game.legal_actions(p, &mut legal);
                    tree.push_node(legal.iter().copied());
                } else {
                    tree.push_node(std::iter::empty());
                }
                tree
            })
            .collect();
        // `path[p * plies + t]`: the arm player `p` chose at turn `t`.
        let mut path = vec![NONE; players * plies];
        let mut joint = vec![G::Action::default(); players];
        let mut scores = vec![0.0; players];
        let check_every = u64::from(self.limits.check_every.max(1));
        let max = self.limits.max_rollouts.unwrap_or(u64::MAX);
        let max_depth = self.depth.unwrap_or(u32::MAX);
        let (mut rollouts, mut turns) = (0u64, 0u64);
        while rollouts < max {
            if rollouts % check_every == 0 && deadline.passed() {
                break;
            }
            path.fill(NONE);
            // The first turn: every player's UCB1 choice at its root
            // (unvisited arms first, in order); the inactive play the
            // default action.
            for (p, tree) in trees.iter().enumerate() {
                joint[p] = G::Action::default();
                if let Some(arm) = tree.select(0, exploration, |_| true) {
                    path[p * plies] = arm;
                    joint[p] = tree.arms[arm as usize].arm.action;
                }
            }
            for (p, &mix) in self.policy_mix.iter().enumerate().take(players) {
                if mix > 0.0 && p != me && game.is_active(p) && rng.unit() < mix {
                    joint[p] = policy.action(game, p, rng);
                    path[p * plies] = NONE;
                }
            }
            game.apply_unchecked(&joint);
            let mut depth = 1u32;
            // The open-loop turns: a player whose last choice has a node
            // chooses there among the arms legal now; the others follow the
            // policy.
            while (depth as usize) < plies && depth < max_depth && !game.is_over() {
                policy.fill_joint(game, rng, &mut joint);
                let t = depth as usize;
                for (p, tree) in trees.iter_mut().enumerate() {
                    let last = path[p * plies + t - 1];
                    if last == NONE || !game.is_active(p) {
                        continue;
                    }
                    let TreeArm { arm, child } = tree.arms[last as usize];
                    if child == NONE && arm.visits < OPEN_LOOP_EXPAND {
                        continue;
                    }
                    game.legal_actions(p, &mut legal);
                    let node = if child != NONE {
                        child
                    } else {
                        match tree.try_push_node(legal.iter().copied()) {
                            Some(node) => {
                                tree.arms[last as usize].child = node;
                                node
                            }
                            None => continue,
                        }
                    };
                    if let Some(arm) = tree.select(node, exploration, |a| legal.contains(&a)) {
                        path[p * plies + t] = arm;
                        joint[p] = tree.arms[arm as usize].arm.action;
                    }
                }
                game.apply_unchecked(&joint);
                depth += 1;
            }
            while depth < max_depth && !game.is_over() {
                policy.fill_joint(game, rng, &mut joint);
                game.apply_unchecked(&joint);
                depth += 1;
            }
            for (p, tree) in trees.iter_mut().enumerate() {
                if path[p * plies] == NONE {
                    continue;
                }
                let value = self.evaluator.value(game, p, &mut scores);
                for &arm in path[p * plies..(p + 1) * plies]
                    .iter()
                    .take_while(|&&a| a != NONE)
                {
                    tree.credit(arm, value);
                }
            }
            game.undo_turns(depth);
            turns += u64::from(depth);
            rollouts += 1;
        }
        for (arm, tree_arm) in arms.iter_mut().zip(&trees[me].arms) {
            *arm = tree_arm.arm;
        }
        *roots = trees
            .iter()
            .map(|tree| {
                let (first, end) = tree.nodes[0];
                tree.arms[first as usize..end as usize]
                    .iter()
                    .map(|a| a.arm)
                    .collect()
            })
            .collect();
        (rollouts, turns)
    }
}

/// Players that [`FlatMc::policy_mix`] can mix (the first eight).
pub const MIX_PLAYERS: usize = 8;

/// No node, or no arm.
const NONE: u32 = u32::MAX;

/// Most arms a player's open-loop tree holds (it stops growing when full).
const OPEN_LOOP_ARMS: usize = 1 << 12;

/// An arm of an open-loop tree gets a node for the turn after it once it
/// has been tried this many times: below that, its few rollouts would
/// spread over the next turn's arms and try each about once, a worse guess
/// than the policy's.
const OPEN_LOOP_EXPAND: u64 = 30;

/// One arm of a player's open-loop tree: the statistics of an action at
/// the end of the player's own earlier actions, and the node of the turn
/// after it.
#[derive(Clone, Copy)]
struct TreeArm<A> {
    arm: Arm<A>,
    child: u32,
}

/// A player's open-loop tree: nodes are runs of arms (`nodes[n]` is the
/// range of node `n`'s arms; its visits are theirs).
struct OpenLoopTree<A> {
    arms: Vec<TreeArm<A>>,
    nodes: Vec<(u32, u32)>,
}

impl<A: Copy> OpenLoopTree<A> {
    fn with_capacity(arms: usize) -> Self {
        OpenLoopTree {
            arms: Vec::with_capacity(arms),
            nodes: Vec::with_capacity(arms),
        }
    }

    /// Adds a node with one arm per action (the root: no capacity check).
    fn push_node(&mut self, actions: impl Iterator<Item = A>) -> u32 {
        let first = self.arms.len() as u32;
        self.arms.extend(actions.map(|action| TreeArm {
            arm: Arm::new(action),
            child: NONE,
        }));
        self.nodes.push((first, self.arms.len() as u32));
        (self.nodes.len() - 1) as u32
    }

    /// Adds a node when there is room for it (nothing is allocated).
    fn try_push_node(&mut self, actions: impl ExactSizeIterator<Item = A>) -> Option<u32> {
        let room = self.arms.len() + actions.len() <= self.arms.capacity()
            && self.nodes.len() < self.nodes.capacity();
        room.then(|| self.push_node(actions))
    }

    /// UCB1 among the arms of `node` that `allowed` keeps (unvisited arms
    /// first, in order).
    fn select(&self, node: u32, exploration: f64, allowed: impl Fn(A) -> bool) -> Option<u32> {
        let (first, end) = self.nodes[node as usize];
        let arms = &self.arms[first as usize..end as usize];
        let visits: u64 = arms.iter().map(|a| a.arm.visits).sum();
        let log_n = ((visits + 1) as f64).ln();
        let mut best = None;
        let mut best_ucb = f64::NEG_INFINITY;
        for (i, a) in (first..).zip(arms.iter().map(|a| &a.arm)) {
            if !allowed(a.action) {
                continue;
            }
            let ucb = if a.visits == 0 {
                f64::INFINITY
            } else {
                let n = a.visits as f64;
                a.total / n + exploration * (log_n / n).sqrt()
            };
            if ucb > best_ucb {
                best_ucb = ucb;
                best = Some(i);
            }
        }
        best
    }

    /// Counts one visit of `arm` with `value`.
    fn credit(&mut self, arm: u32, value: f64) {
        let a = &mut self.arms[arm as usize].arm;
        a.visits += 1;
        a.total += value;
    }
}

/// What one first action of the searching player earned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arm<A> {
    /// The action.
    pub action: A,
    /// Rollouts that started with it.
    pub visits: u64,
    /// Sum of the values of those rollouts.
    pub total: f64,
}

impl<A> Arm<A> {
    /// An arm not tried yet.
    pub fn new(action: A) -> Self {
        Arm {
            action,
            visits: 0,
            total: 0.0,
        }
    }

    /// Mean value (0 before any visit).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<A> {
    /// The action with the best mean value (the first candidate when no
    /// rollout finished, or `A::default()` when the player has no legal
    /// action).
    pub best: A,
    /// Rollouts run.
    pub rollouts: u64,
    /// Turns applied in them.
    pub turns: u64,
    /// Every candidate first action with its statistics, in legal-action
    /// order.
    pub arms: Vec<Arm<A>>,
    /// With [`FlatMc::decoupled`], every player's first-turn arms (the
    /// searching player's are [`SearchResult::arms`]): what the search
    /// expects each player to do. Empty otherwise.
    pub players: Vec<Vec<Arm<A>>>,
}

impl<A: Copy + PartialEq> SearchResult<A> {
    /// The mean value of the best action (0 when it was never tried).
    pub fn best_mean(&self) -> f64 {
        self.arms
            .iter()
            .find(|a| a.action == self.best)
            .map_or(0.0, Arm::mean)
    }
}

/// Flat Monte Carlo for `me` in `game` until `deadline` (or
/// `limits.max_rollouts`): every legal action tried, rollouts to the end of
/// the game, valued by the game's scores ([`FlatMc::new`]). `game` is left
/// exactly as it was.
pub fn search<G: Game, P: Policy<G>>(
    game: &mut G,
    me: usize,
    deadline: &Deadline,
    rng: &mut Rng,
    policy: &mut P,
    limits: Limits,
) -> SearchResult<G::Action> {
    FlatMc::new(limits).search(game, me, deadline, rng, policy)
}
