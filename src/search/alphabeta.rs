//! Iterative-deepening alpha-beta over joint actions, for two-player
//! simultaneous-move games ([`Game`] with `player_count() == 2`).
//!
//! Both players choose at once, which alpha-beta cannot model exactly; this
//! search takes the conservative (max-min) view: at every turn our player
//! commits to an action first and the opponent answers knowing it. The
//! value of a position for us is
//! `max over our actions a of min over their actions b of value(apply(a, b))`,
//! a lower bound on what we can guarantee. One unit of depth is one whole
//! turn (our action and the reply).
//!
//! - An [`Evaluator`] gives the static value of positions, their hash key,
//!   and optionally scores actions for move ordering.
//! - The transposition table is allocated once, in [`AlphaBeta::new`];
//!   so is the per-ply storage. A search allocates nothing (as long as no
//!   position has more legal actions than [`ACTION_CAPACITY`]).
//! - The deadline is checked every few hundred nodes; the answer is the best
//!   action of the deepest finished iteration, or of the unfinished one when
//!   it has already found something better.
//! - Move ordering: the transposition table's action first, then our
//!   last action that cut off at the same ply (our killer), then the
//!   evaluator's scores, ties broken by the history of cutoffs of the
//!   action at the same place in the legal order; for the opponent, first
//!   the reply that last held the same action of ours lowest at the same
//!   ply (a counter-move), then the last reply that refuted any of our
//!   actions there (a killer), then the scores and history likewise.
//! - Principal variation search: every action but the first at a node
//!   (ours, and the opponent's replies alike) is first searched with a
//!   null window, which only tells whether it beats the best so far, and
//!   searched again for its value only when it does. With good ordering
//!   most do not: the same values and best actions as a plain alpha-beta
//!   search, about a third fewer nodes at depth 4.
//!
//! ```
//! use botzone::games::tank::{bricks_from_seed, eval::TankEval, Field};
//! use botzone::search::alphabeta::{AlphaBeta, Limits};
//! use botzone::time::Deadline;
//! use std::time::Duration;
//!
//! let mut field = Field::new(bricks_from_seed(1));
//! let mut search = AlphaBeta::new(16);
//! let mut eval = TankEval::new();
//! let limits = Limits { max_depth: 1, ..Limits::default() };
//! let deadline = Deadline::after(Duration::from_secs(10));
//! let result = search.search(&mut field, 0, &mut eval, &deadline, limits);
//! assert_eq!(result.depth, 1);
//! assert!(field.check([result.best.0, [Default::default(); 2]]).is_ok());
//! ```

use crate::games::Game;
use crate::time::Deadline;

/// The value of a won game (minus the plies it takes, so that quicker wins
/// score higher). Evaluations must stay well inside `±WIN / 2`.
pub const WIN: i32 = 1_000_000;

/// The legal actions per player per position that the preallocated storage
/// holds without growing (81 covers Tank's 9 × 9 pairs).
pub const ACTION_CAPACITY: usize = 128;

/// The deepest search, in turns.
pub const MAX_DEPTH: u32 = 64;

/// The ordering score ([`Evaluator::order`]) of an action the search skips.
pub const PRUNE: i32 = i32::MIN;

/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 256;

const INF: i32 = i32::MAX / 2;

/// What the search needs to know about a game beyond its rules.
pub trait Evaluator<G: Game> {
    /// The value of a position that is not over, for `me` (higher is
    /// better), inside `±WIN / 2`.
    fn evaluate(&mut self, game: &G, me: usize) -> i32;

    /// A hash key of the position for the transposition table. Positions
    /// with the same key are taken to be the same.
    fn key(&mut self, game: &G) -> u64;

    /// The value of a finished game for `me`. The default is the score
    /// difference from [`Game::scores`], scaled so that any positive
    /// difference is worth [`WIN`].
    fn terminal(&mut self, game: &G, me: usize) -> i32 {
        let mut scores = [0.0f64; 2];
        game.scores(&mut scores);
        let diff = scores[me] - scores[1 - me];
        if diff > 0.0 {
            WIN
        } else if diff < 0.0 {
            -WIN
        } else {
            0
        }
    }

    /// Move-ordering scores for `actions` of `player` (higher is tried
    /// first), written into `scores[..actions.len()]`. The default leaves
    /// them all zero (the game's own order).
    ///
    /// A score of [`PRUNE`] drops the action from the search: for actions
    /// the evaluator knows to be dominated (never better than another legal
    /// action, whatever the opponent does). The search keeps at least one
    /// action (the best-scored) when all are dropped.
    fn order(&mut self, game: &G, player: usize, actions: &[G::Action], scores: &mut [i32]) {
        let _ = (game, player, actions);
        scores.fill(0);
    }
}

/// Bounds on a search besides the deadline.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The deepest iteration, in turns (at most [`MAX_DEPTH`]).
    pub max_depth: u32,
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: MAX_DEPTH,
            max_nodes: None,
        }
    }
}

impl Limits {
    /// The default limits, with `max_nodes` from `BOTZONE_ITERATIONS` when
    /// set ([`crate::time::iteration_budget`]): what a bot uses so that a
    /// fixed budget makes its answers reproducible.
    pub fn from_env() -> Self {
        Limits {
            max_nodes: crate::time::iteration_budget(),
            ..Limits::default()
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult<A> {
    /// The action to play.
    pub best: A,
    /// Its max-min value for the searching player.
    pub value: i32,
    /// The deepest iteration finished (0 when even depth 1 was cut short;
    /// `best` is then the best ordered action found so far).
    pub depth: u32,
    /// Positions visited, all iterations together.
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<A> {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    best: A,
}

/// Per-ply storage: both players' actions with their ordering keys (see
/// `generate`) and their places in the game's order of legal actions.
struct Ply<A> {
    ours: Vec<(i64, u16, A)>,
    theirs: Vec<(i64, u16, A)>,
    /// By the place of our action: the place and action of the reply that
    /// last held it lowest (place `u16::MAX`: none yet).
    counter: Vec<(u16, A)>,
    /// Our last action that held the opponent at this ply (a beta cutoff).
    our_killer: Option<A>,
    killer: Option<A>,
}

/// The place tried `k`-th (`k` in `0..n + 2`) in a list of `n` actions
/// tried `front` first (distinct places; `None`: no such action), then the
/// rest in the list's order; `None` for a `k` that tries nothing.
fn nth_in_order(k: usize, front: [Option<usize>; 2]) -> Option<usize> {
    match k {
        0 | 1 => front[k],
        k if front.contains(&Some(k - 2)) => None,
        k => Some(k - 2),
    }
}

/// An alpha-beta searcher with its transposition table: build it once,
/// then call [`AlphaBeta::search`] every turn.
pub struct AlphaBeta<G: Game> {
    table: Vec<Option<Entry<G::Action>>>,
    /// By ours (0) or theirs (1), then by the place of an action in the
    /// legal actions: the cutoffs it made in this search, each weighted by
    /// the depth squared (the history heuristic).
    history: [[u32; ACTION_CAPACITY]; 2],
    plies: Vec<Ply<G::Action>>,
    scratch_actions: G::Actions,
    scratch_scores: Vec<i32>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Deadline>,
    stopped: bool,
    /// The opponent's reply at the root for the next search, when known
    /// ([`AlphaBeta::expect_reply`]).
    expected: Option<G::Action>,
}

impl<G: Game> AlphaBeta<G> {
    /// A searcher with a transposition table of `2^table_bits` entries
    /// (allocated here, once; 20 bits is a few tens of MB).
    ///
    /// # Panics
    /// When `table_bits > 30`.
    pub fn new(table_bits: u32) -> Self {
        assert!(table_bits <= 30, "transposition table too large");
        let plies = (0..=MAX_DEPTH as usize + 1)
            .map(|_| Ply {
                ours: Vec::with_capacity(ACTION_CAPACITY),
                theirs: Vec::with_capacity(ACTION_CAPACITY),
                counter: vec![(u16::MAX, G::Action::default()); ACTION_CAPACITY],
                our_killer: None,
                killer: None,
            })
            .collect();
        AlphaBeta {
            table: vec![None; 1 << table_bits],
            history: [[0; ACTION_CAPACITY]; 2],
            plies,
            scratch_actions: G::Actions::default(),
            scratch_scores: vec![0; ACTION_CAPACITY],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            expected: None,
        }
    }

    /// Tells the next [`AlphaBeta::search`] that the opponent will answer
    /// `reply` this turn (see [`crate::search::repeat`]): the root then
    /// values each of our actions against that reply alone, when it is
    /// legal, and the turns below stay max-min. The root's value is then
    /// not stored. `None` (and every search after the next) searches
    /// max-min from the root.
    pub fn expect_reply(&mut self, reply: Option<G::Action>) {
        self.expected = reply;
    }

    /// Forgets every stored position (a new game).
    pub fn clear(&mut self) {
        self.table.fill(None);
    }

    /// Searches `game` for player `me` (0 or 1) until the deadline or the
    /// limits, and returns the best action found. `game` is left as it was
    /// (every applied turn is undone).
    ///
    /// # Panics
    /// When the game does not have two players.
    pub fn search<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        me: usize,
        eval: &mut E,
        deadline: &Deadline,
        limits: Limits,
    ) -> SearchResult<G::Action> {
        assert_eq!(game.player_count(), 2, "alpha-beta needs two players");
        self.nodes = 0;
        self.stopped = false;
        self.deadline = Some(*deadline);
        self.node_limit = limits.max_nodes.unwrap_or(u64::MAX);
        let expected = self.expected.take();
        self.history = [[0; ACTION_CAPACITY]; 2];
        for ply in &mut self.plies {
            ply.killer = None;
            ply.our_killer = None;
            ply.counter.fill((u16::MAX, G::Action::default()));
        }
        // A fallback answer before any iteration: the best-ordered action.
        self.generate(game, me, 0, true, eval, None);
        let mut result = SearchResult {
            best: self.plies[0].ours[0].2,
            value: 0,
            depth: 0,
            nodes: 0,
        };
        if game.is_over() {
            return result;
        }
        let max_depth = limits.max_depth.clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let (value, best, finished) = self.root(game, me, depth, eval, result.best, expected);
            if let Some(best) = best {
                result.best = best;
                result.value = value;
            }
            if !finished {
                break;
            }
            result.depth = depth;
            // A proven result cannot change with more depth.
            if value.abs() >= WIN / 2 || deadline.passed() {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration at the root: (value, best action if any root action
    /// was fully searched, whether the iteration finished). With an
    /// `expected` reply among the opponent's legal actions, each of our
    /// actions is valued against it alone.
    #[allow(clippy::too_many_arguments)]
    fn root<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        me: usize,
        depth: u32,
        eval: &mut E,
        first: G::Action,
        expected: Option<G::Action>,
    ) -> (i32, Option<G::Action>, bool) {
        self.generate(game, me, 0, true, eval, Some(first));
        self.generate(game, 1 - me, 0, false, eval, None);
        // The opponent's legal actions, pruned or not, are left in the
        // scratch list by the last `generate`.
        let expected = expected.filter(|b| self.scratch_actions.contains(b));
        let mut alpha = -INF;
        let mut best = None;
        let key = eval.key(game);
        for i in 0..self.plies[0].ours.len() {
            let (_, place, a) = self.plies[0].ours[i];
            let worst = match expected {
                Some(b) => {
                    let mut joint = [a, a];
                    joint[1 - me] = b;
                    game.apply_unchecked(&joint);
                    let mut v = INF;
                    if best.is_some() {
                        v = self.node(game, me, depth - 1, 1, alpha, alpha + 1, eval);
                    }
                    if v > alpha && !self.stopped {
                        v = self.node(game, me, depth - 1, 1, alpha, INF, eval);
                    }
                    game.undo();
                    v
                }
                None if best.is_some() => {
                    self.scout_reply(game, me, (a, place), depth, 0, alpha, INF, eval)
                }
                None => self.reply(game, me, (a, place), depth, 0, alpha, INF, eval),
            };
            if self.stopped {
                return (alpha, best, false);
            }
            if worst > alpha || best.is_none() {
                alpha = alpha.max(worst);
                best = Some(a);
            }
        }
        if let (Some(b), None) = (best, expected) {
            self.store(key, depth, alpha, Bound::Exact, b);
        }
        (alpha, best, true)
    }

    /// The opponent's best reply to our action `a` (at place `a_place` in
    /// our legal actions) at `ply` (a min node): returns at most `alpha` as
    /// soon as a reply holds us to `alpha`.
    ///
    /// Replies are tried in this order: the one that last held our action
    /// at the same place lowest at this ply (the counter-move), the last
    /// reply that refuted any of our actions at this ply (the killer), then
    /// the rest in the evaluator's order.
    #[allow(clippy::too_many_arguments)]
    fn reply<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        me: usize,
        (a, a_place): (G::Action, u16),
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        eval: &mut E,
    ) -> i32 {
        let mut worst = INF;
        let n = self.plies[ply].theirs.len();
        let theirs = &self.plies[ply].theirs;
        let counter = self.plies[ply].counter[usize::from(a_place) % ACTION_CAPACITY];
        let counter_move = theirs
            .iter()
            .position(|&(_, p, b)| p == counter.0 && b == counter.1);
        let killer = self.plies[ply]
            .killer
            .and_then(|kb| theirs.iter().position(|&(_, _, b)| b == kb))
            .filter(|&k| Some(k) != counter_move);
        let mut joint = [a, a];
        let mut lowest = None;
        for k in 0..n + 2 {
            let Some(i) = nth_in_order(k, [counter_move, killer]) else {
                continue;
            };
            let (_, place, b) = self.plies[ply].theirs[i];
            joint[me] = a;
            joint[1 - me] = b;
            game.apply_unchecked(&joint);
            let lowest_so_far = beta.min(worst);
            let v = if worst < INF && lowest_so_far > alpha + 1 {
                self.scout_node(game, me, depth - 1, ply + 1, alpha, lowest_so_far, eval)
            } else {
                self.node(game, me, depth - 1, ply + 1, alpha, lowest_so_far, eval)
            };
            game.undo();
            if self.stopped {
                return worst;
            }
            if v < worst {
                worst = v;
                lowest = Some((place, b));
                if worst <= alpha {
                    self.plies[ply].killer = Some(b);
                    self.credit_cutoff(1, place, depth);
                    break;
                }
            }
        }
        if let Some((place, b)) = lowest {
            self.plies[ply].counter[usize::from(a_place) % ACTION_CAPACITY] = (place, b);
        }
        worst
    }

    /// A position `ply` turns below the root with `depth` turns to go (a
    /// max node for `me`).
    #[allow(clippy::too_many_arguments)]
    fn node<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        me: usize,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        eval: &mut E,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes % CLOCK_INTERVAL == 0 {
            let late = self.deadline.is_some_and(|d| d.passed());
            if late || self.nodes >= self.node_limit {
                self.stopped = true;
                return 0;
            }
        }
        if game.is_over() {
            let v = eval.terminal(game, me);
            return v - v.signum() * ply as i32;
        }
        if depth == 0 {
            return eval.evaluate(game, me);
        }
        let key = eval.key(game);
        let mut tt_best = None;
        if let Some(e) = self.table[key as usize & (self.table.len() - 1)] {
            if e.key == key {
                tt_best = Some(e.best);
                if u32::from(e.depth) >= depth {
                    match e.bound {
                        Bound::Exact => return e.value,
                        Bound::Lower if e.value >= beta => return e.value,
                        Bound::Upper if e.value <= alpha => return e.value,
                        _ => {}
                    }
                }
            }
        }
        self.generate(game, me, ply, true, eval, tt_best);
        self.generate(game, 1 - me, ply, false, eval, None);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_action = self.plies[ply].ours[0].2;
        let n = self.plies[ply].ours.len();
        // The first in order (the table's action), then our last action
        // that held the opponent at this ply (our killer), then the rest.
        let killer = self.plies[ply]
            .our_killer
            .and_then(|ka| self.plies[ply].ours.iter().position(|&(_, _, a)| a == ka))
            .filter(|&k| k != 0);
        for k in 0..n + 2 {
            let Some(i) = nth_in_order(k, [Some(0), killer]) else {
                continue;
            };
            let (_, place, a) = self.plies[ply].ours[i];
            let worst = if best > -INF && beta > alpha + 1 {
                self.scout_reply(game, me, (a, place), depth, ply, alpha, beta, eval)
            } else {
                self.reply(game, me, (a, place), depth, ply, alpha, beta, eval)
            };
            if self.stopped {
                return 0;
            }
            if worst > best {
                best = worst;
                best_action = a;
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        self.plies[ply].our_killer = Some(a);
                        self.credit_cutoff(0, place, depth);
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(key, depth, best, bound, best_action);
        best
    }

    /// [`AlphaBeta::reply`] for an action of ours that is not the first
    /// searched at its node (principal variation search): first with a
    /// null window at `alpha`, which only tells whether the action does
    /// better than `alpha`; then, when it does and stays below `beta`,
    /// again with the whole window for its value.
    #[allow(clippy::too_many_arguments)]
    fn scout_reply<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        me: usize,
        a: (G::Action, u16),
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        eval: &mut E,
    ) -> i32 {
        let v = self.reply(game, me, a, depth, ply, alpha, alpha + 1, eval);
        if v > alpha && v < beta && !self.stopped {
            self.reply(game, me, a, depth, ply, alpha, beta, eval)
        } else {
            v
        }
    }

    /// [`AlphaBeta::node`] after a reply of the opponent's that is not the
    /// first tried (principal variation search, the other way round):
    /// first with a null window at `lowest`, the value of the lowest reply
    /// so far, which only tells whether this reply holds us lower; then,
    /// when it does and stays above `alpha`, again with the window
    /// `(alpha, lowest)` for its value.
    #[allow(clippy::too_many_arguments)]
    fn scout_node<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        me: usize,
        depth: u32,
        ply: usize,
        alpha: i32,
        lowest: i32,
        eval: &mut E,
    ) -> i32 {
        let v = self.node(game, me, depth, ply, lowest - 1, lowest, eval);
        if v < lowest && v > alpha && !self.stopped {
            self.node(game, me, depth, ply, alpha, lowest, eval)
        } else {
            v
        }
    }

    /// Counts a cutoff by the action at `place` in the legal actions of
    /// ours (`who` 0) or theirs (1) in the history, weighted by the depth
    /// squared; saturates instead of overflowing.
    fn credit_cutoff(&mut self, who: usize, place: u16, depth: u32) {
        let h = &mut self.history[who][usize::from(place) % ACTION_CAPACITY];
        *h = h.saturating_add(depth * depth);
    }

    fn store(&mut self, key: u64, depth: u32, value: i32, bound: Bound, best: G::Action) {
        let mask = self.table.len() - 1;
        let slot = &mut self.table[key as usize & mask];
        // Depth-preferred, but always replace another position's entry.
        if let Some(e) = slot {
            if e.key == key && u32::from(e.depth) > depth {
                return;
            }
        }
        *slot = Some(Entry {
            key,
            value,
            depth: depth.min(255) as u8,
            bound,
            best,
        });
    }

    /// Fills `plies[ply].ours` (or `.theirs`) with `player`'s legal actions
    /// sorted by the evaluator's ordering scores, `first` in front.
    fn generate<E: Evaluator<G>>(
        &mut self,
        game: &G,
        player: usize,
        ply: usize,
        ours: bool,
        eval: &mut E,
        first: Option<G::Action>,
    ) {
        let mut actions = std::mem::take(&mut self.scratch_actions);
        if game.is_active(player) {
            game.legal_actions(player, &mut actions);
        }
        let list = if ours {
            &mut self.plies[ply].ours
        } else {
            &mut self.plies[ply].theirs
        };
        list.clear();
        if actions.is_empty() {
            list.push((0, 0, G::Action::default()));
        } else {
            if self.scratch_scores.len() < actions.len() {
                self.scratch_scores.resize(actions.len(), 0);
            }
            let scores = &mut self.scratch_scores[..actions.len()];
            eval.order(game, player, &actions, scores);
            // Each entry's key is its score, then its history (how often
            // the action at that place cut off this search, weighted by
            // depth squared), then its place in the game's order (earlier
            // first), so that an unstable sort (which allocates nothing)
            // gives one order.
            for (k, (&a, &s)) in actions.iter().zip(scores.iter()).enumerate() {
                let s = if Some(a) == first { i32::MAX } else { s };
                if s == PRUNE {
                    continue;
                }
                let h = self.history[usize::from(!ours)][k % ACTION_CAPACITY].min(0xff_ffff);
                list.push((
                    (i64::from(s) << 32) + (i64::from(h) << 8) - k as i64,
                    k as u16,
                    a,
                ));
            }
            if list.is_empty() {
                // Everything was pruned: keep the first action.
                list.push((i64::from(PRUNE) << 32, 0, actions[0]));
            }
            list.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        }
        self.scratch_actions = actions;
    }
}
