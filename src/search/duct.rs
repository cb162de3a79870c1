//! Decoupled UCT for simultaneous moves, over any [`Game`] with any number
//! of players: every tree node keeps, for each active player, its own UCB1
//! statistics over that player's legal actions; a turn of the tree picks
//! each player's action from its own statistics, and the joint action
//! leads to the child. Below the tree a [`Policy`] plays to the end of the
//! game. A player's reward is its rank among the final scores, in `[0, 1]`
//! (1 for the best score, ties share).
//!
//! Storage (nodes and statistics) is allocated once per [`search`] call with
//! a fixed capacity ([`Config::max_nodes`]); when it is full the tree stops
//! growing and the search goes on with rollouts. Iterations allocate
//! nothing.
//!
//! ```
//! use botzone::games::enclosure::State;
//! use botzone::rng::Rng;
//! use botzone::search::duct::{search, Config};
//! use botzone::search::flat_mc::UniformPolicy;
//! use botzone::time::Deadline;
//! use std::time::Duration;
//!
//! let mut game = State::new([(2, 2), (8, 2), (2, 8), (8, 8)]);
//! let mut rng = Rng::new(7);
//! let deadline = Deadline::after(Duration::from_secs(5));
//! let config = Config { max_iterations: Some(300), ..Config::default() };
//! let result = search(&mut game, 0, &deadline, &mut rng, &mut UniformPolicy::default(), config);
//! assert_eq!(result.rollouts, 300);
//! assert_eq!(game.turn(), 0); // back where it started
//! assert!(!game.kills_itself(0, result.best));
//! ```

use super::flat_mc::{Arm, Policy, SearchResult};
use crate::games::Game;
use crate::rng::Rng;
use crate::time::Deadline;

/// Most players a game may have here (a joint action's key packs 8 bits
/// per player into a `u64`).
pub const MAX_PLAYERS: usize = 8;

/// Search settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The UCB1 exploration constant (rewards are in `[0, 1]`).
    pub exploration: f64,
    /// The most tree nodes (the tree stops growing when full).
    pub max_nodes: usize,
    /// Stop after this many iterations (for reproducible tests).
    pub max_iterations: Option<u64>,
    /// Look at the clock every this many iterations (at least 1).
    pub check_every: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            exploration: 0.7,
            max_nodes: 1 << 14,
            max_iterations: None,
            check_every: 16,
        }
    }
}

#[derive(Clone, Copy)]
struct Stat<A> {
    action: A,
    visits: u32,
    total: f64,
}

#[derive(Clone, Copy)]
struct Node {
    /// First statistic of player 0 (players follow one another).
    stats: u32,
    visits: u32,
    first_child: u32,
}

#[derive(Clone, Copy)]
struct Edge {
    key: u64,
    node: u32,
    next: u32,
}

const NONE: u32 = u32::MAX;

/// The tree's storage.
struct Tree<A> {
    nodes: Vec<Node>,
    /// `counts[node * players + p]`: player `p`'s number of actions.
    counts: Vec<u8>,
    stats: Vec<Stat<A>>,
    edges: Vec<Edge>,
    players: usize,
}

impl<A: Copy + Default> Tree<A> {
    fn with_capacity(max_nodes: usize, players: usize, stats: usize) -> Self {
        Tree {
            nodes: Vec::with_capacity(max_nodes),
            counts: Vec::with_capacity(max_nodes * players),
            stats: Vec::with_capacity(stats),
            edges: Vec::with_capacity(max_nodes),
            players,
        }
    }

    /// Adds a node for the position of `game`, if there is room.
    fn add<G: Game<Action = A>>(&mut self, game: &G, buffer: &mut G::Actions) -> Option<u32> {
        if self.nodes.len() == self.nodes.capacity() {
            return None;
        }
        let start = self.stats.len();
        let mut counts = [0u8; MAX_PLAYERS];
        for (p, count) in counts.iter_mut().enumerate().take(self.players) {
            if game.is_active(p) {
                game.legal_actions(p, buffer);
            } else {
                *buffer = G::Actions::default();
            }
            let n = buffer.len().min(255);
            if self.stats.len() + n.max(1) > self.stats.capacity() {
                self.stats.truncate(start);
                return None;
            }
            if n == 0 {
                self.stats.push(Stat {
                    action: A::default(),
                    visits: 0,
                    total: 0.0,
                });
                *count = 1;
            } else {
                for &action in buffer.iter().take(n) {
                    self.stats.push(Stat {
                        action,
                        visits: 0,
                        total: 0.0,
                    });
                }
                *count = n as u8;
            }
        }
        self.counts.extend_from_slice(&counts[..self.players]);
        self.nodes.push(Node {
            stats: start as u32,
            visits: 0,
            first_child: NONE,
        });
        Some((self.nodes.len() - 1) as u32)
    }

    /// The statistics of player `p` at `node`: (first index, count).
    fn arms(&self, node: u32, p: usize) -> (usize, usize) {
        let base = node as usize * self.players;
        let mut first = self.nodes[node as usize].stats as usize;
        for q in 0..p {
            first += usize::from(self.counts[base + q]);
        }
        (first, usize::from(self.counts[base + p]))
    }

    fn child(&self, node: u32, key: u64) -> Option<u32> {
        let mut e = self.nodes[node as usize].first_child;
        while e != NONE {
            let edge = self.edges[e as usize];
            if edge.key == key {
                return Some(edge.node);
            }
            e = edge.next;
        }
        None
    }

    fn link(&mut self, node: u32, key: u64, child: u32) -> bool {
        if self.edges.len() == self.edges.capacity() {
            return false;
        }
        let next = self.nodes[node as usize].first_child;
        self.edges.push(Edge {
            key,
            node: child,
            next,
        });
        self.nodes[node as usize].first_child = (self.edges.len() - 1) as u32;
        true
    }
}

/// Each player's reward from the final scores: the share of the other
/// players it beats (ties count half), in `[0, 1]`.
fn ranks(scores: &[f64], out: &mut [f64]) {
    let n = scores.len();
    for p in 0..n {
        let mut r = 0.0;
        for q in 0..n {
            if q != p {
                if scores[p] > scores[q] {
                    r += 1.0;
                } else if scores[p] == scores[q] {
                    r += 0.5;
                }
            }
        }
        out[p] = if n > 1 { r / (n - 1) as f64 } else { 1.0 };
    }
}

/// Decoupled UCT for `me` in `game` until `deadline` (or
/// `config.max_iterations`). `game` is left exactly as it was. The answer
/// is `me`'s most visited first action; `arms` holds every first action of
/// `me` with its visits and summed rewards (ranks in `[0, 1]`).
///
/// # Panics
/// When the game has more than [`MAX_PLAYERS`] players.
pub fn search<G: Game, P: Policy<G>>(
    game: &mut G,
    me: usize,
    deadline: &Deadline,
    rng: &mut Rng,
    policy: &mut P,
    config: Config,
) -> SearchResult<G::Action> {
    let players = game.player_count();
    assert!(
        players <= MAX_PLAYERS,
        "duct: at most {MAX_PLAYERS} players"
    );
    let max_nodes = config.max_nodes.max(1);
    let mut tree: Tree<G::Action> =
        Tree::with_capacity(max_nodes, players, max_nodes * players * 6);
    let mut buffer = G::Actions::default();
    let mut result = SearchResult {
        best: G::Action::default(),
        rollouts: 0,
        turns: 0,
        arms: Vec::new(),
        players: Vec::new(),
    };
    let Some(root) = tree.add(&*game, &mut buffer) else {
        return result;
    };
    let (first, count) = tree.arms(root, me);
    result.best = tree.stats[first].action;
    if !game.is_active(me) || count <= 1 || game.is_over() {
        result.arms = arm_list(&tree, root, me);
        return result;
    }
    let mut joint = vec![G::Action::default(); players];
    let mut scores = vec![0.0; players];
    let mut rewards = vec![0.0; players];
    // (node, chosen arm per player) along the tree part of an iteration.
    let mut path: Vec<(u32, [u8; MAX_PLAYERS])> = Vec::with_capacity(1024);
    let check_every = u64::from(config.check_every.max(1));
    let max = config.max_iterations.unwrap_or(u64::MAX);
    while result.rollouts < max {
        if result.rollouts % check_every == 0 && deadline.passed() {
            break;
        }
        path.clear();
        let mut node = root;
        let mut depth = 0u64;
        let mut in_tree = true;
        while !game.is_over() {
            if in_tree && path.len() < path.capacity() {
                let mut chosen = [0u8; MAX_PLAYERS];
                let mut key = 0u64;
                let visits = tree.nodes[node as usize].visits;
                let log_n = f64::from(visits.max(1)).ln();
                for p in 0..players {
                    let (first, count) = tree.arms(node, p);
                    let mut best = 0;
                    let mut best_ucb = f64::NEG_INFINITY;
                    for i in 0..count {
                        let s = &tree.stats[first + i];
                        // Unvisited arms first, in random order.
                        let ucb = if s.visits == 0 {
                            1e9 + rng.unit()
                        } else {
                            let n = f64::from(s.visits);
                            s.total / n + config.exploration * (log_n / n).sqrt()
                        };
                        if ucb > best_ucb {
                            best_ucb = ucb;
                            best = i;
                        }
                    }
                    chosen[p] = best as u8;
                    key |= (best as u64) << (8 * p);
                    joint[p] = if game.is_active(p) {
                        tree.stats[first + best].action
                    } else {
                        G::Action::default()
                    };
                }
                path.push((node, chosen));
                game.apply_unchecked(&joint);
                depth += 1;
                match tree.child(node, key) {
                    Some(child) => node = child,
                    None => {
                        // Expand one node per iteration, then roll out.
                        if let Some(child) = tree.add(&*game, &mut buffer) {
                            if !tree.link(node, key, child) {
                                tree.nodes.pop();
                            }
                        }
                        in_tree = false;
                    }
                }
            } else {
                policy.fill_joint(game, rng, &mut joint);
                game.apply_unchecked(&joint);
                depth += 1;
            }
        }
        game.scores(&mut scores);
        ranks(&scores, &mut rewards);
        for &(n, chosen) in path.iter() {
            tree.nodes[n as usize].visits += 1;
            for p in 0..players {
                let (first, _) = tree.arms(n, p);
                let s = &mut tree.stats[first + usize::from(chosen[p])];
                s.visits += 1;
                s.total += rewards[p];
            }
        }
        for _ in 0..depth {
            game.undo();
        }
        result.turns += depth;
        result.rollouts += 1;
    }
    let arms = arm_list(&tree, root, me);
    let mut best = 0;
    for (i, a) in arms.iter().enumerate() {
        if a.visits > arms[best].visits {
            best = i;
        }
    }
    result.best = arms[best].action;
    result.arms = arms;
    result
}

fn arm_list<A: Copy + Default>(tree: &Tree<A>, node: u32, p: usize) -> Vec<Arm<A>> {
    let (first, count) = tree.arms(node, p);
    tree.stats[first..first + count]
        .iter()
        .map(|s| Arm {
            action: s.action,
            visits: u64::from(s.visits),
            total: s.total,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::ranks;

    #[test]
    fn rank_rewards() {
        let mut out = [0.0; 4];
        ranks(&[10.0, 5.0, 5.0, 1.0], &mut out);
        assert_eq!(out, [1.0, 0.5, 0.5, 0.0]);
    }
}
