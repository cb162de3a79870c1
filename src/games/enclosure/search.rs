//! Monte Carlo for Enclosure: a rollout policy that draws loops, flat
//! Monte Carlo over one player's commands ([`crate::search::flat_mc`] with
//! depth-limited rollouts, the skill left out and a value that counts
//! winning first), and over its start vertex, stopped by a [`Deadline`].
//!
//! No allocation in rollouts: the searches work on one cloned [`State`]
//! with apply and undo.

use super::{Command, Commands, Dir, Pen, PenState, State, PLAYERS, SIDE};
use crate::rng::Rng;
use crate::search::flat_mc::{FlatMc, Limits, Policy};
use crate::time::{iteration_budget, Deadline};

/// Turns a rollout plays past the command being evaluated.
pub const ROLLOUT_DEPTH: usize = 100;

/// A rollout command for player `p`: never suicidal by the rules, never a
/// skill; pen up it wanders and now and then puts the pen down; pen down it
/// closes a loop when it can and heads back to its trail once the trail is
/// long.
pub fn policy(st: &State, p: usize, rng: &mut Rng) -> Command {
    let mut legal = Commands::new();
    st.legal_commands(p, &mut legal);
    if legal.len() == 1 {
        return legal[0];
    }
    let pl = st.player(p);
    let mut pick = Commands::new();
    match pl.state() {
        PenState::Down => {
            let trail = st.trail(p);
            let start = trail[0];
            let mut best = i32::MAX;
            let mut closing = Commands::new();
            let mut homeward = Commands::new();
            for &c in legal.iter() {
                if c.dir == Dir::Stay {
                    continue;
                }
                let Some(to) = State::neighbour(pl.vertex(), c.dir) else {
                    continue;
                };
                pick.push(c);
                if pl.on_trail(to) {
                    closing.push(c);
                }
                let d = super::manhattan(to, start);
                if d < best {
                    best = d;
                    homeward.clear();
                }
                if d == best {
                    homeward.push(c);
                }
            }
            if !closing.is_empty() && rng.below(10) < 9 {
                return closing[rng.index(closing.len())];
            }
            let long = trail.len() >= 4 + rng.index(8);
            if long && !homeward.is_empty() && rng.below(10) < 8 {
                return homeward[rng.index(homeward.len())];
            }
        }
        _ => {
            let down = rng.below(4) == 0;
            let want = if down { Pen::Down } else { Pen::Keep };
            for &c in legal.iter() {
                if c.pen == want && c.dir != Dir::Stay {
                    pick.push(c);
                }
            }
        }
    }
    if pick.is_empty() {
        for &c in legal.iter() {
            if c.pen != Pen::Skill {
                pick.push(c);
            }
        }
    }
    if pick.is_empty() {
        return Command::STAY;
    }
    pick[rng.index(pick.len())]
}

/// Plays [`policy`] for everyone for up to `depth` turns (or to the end);
/// returns the number of turns played (undo them to get back).
pub fn rollout(st: &mut State, depth: usize, rng: &mut Rng) -> usize {
    let mut n = 0;
    while n < depth && !st.is_over() {
        let mut joint = [Command::STAY; PLAYERS];
        for (p, c) in joint.iter_mut().enumerate() {
            *c = policy(st, p, rng);
        }
        st.apply_unchecked(&joint);
        n += 1;
    }
    n
}

/// What a rollout's end is worth to `me`: 1 when its score beats every
/// other player's, plus its score / 200 000 (at most about 0.5) to prefer
/// bigger wins and smaller losses. Winning counts more than the score:
/// measured against three [`policy`] players, this won 35 games of 40 where
/// the plain score won 21 (30 ms a move, 40 games).
pub fn value(st: &State, me: usize) -> f64 {
    let s = st.scores_i32();
    let mut best_other = i32::MIN;
    for (p, &v) in s.iter().enumerate() {
        if p != me && v > best_other {
            best_other = v;
        }
    }
    let win = if s[me] > best_other { 1.0 } else { 0.0 };
    win + f64::from(s[me]) / 200_000.0
}

/// The result of a search.
#[derive(Clone, Copy, Debug)]
pub struct Choice<T> {
    /// The chosen option.
    pub best: T,
    /// Its mean value.
    pub mean: f64,
    /// Rollouts played in all.
    pub rollouts: u64,
}

/// Flat Monte Carlo over player `me`'s commands (no skill): each rollout
/// plays one candidate (in turn) against [`policy`] commands of the
/// others, then [`rollout`]s up to [`ROLLOUT_DEPTH`] turns; the best mean
/// [`value`] wins. Answers at once when only one command is legal; always
/// answers a legal command. Stops at the deadline (looked at before every
/// rollout), or after `BOTZONE_ITERATIONS` rollouts when that is set
/// ([`iteration_budget`]).
pub fn choose_command(
    st: &State,
    me: usize,
    deadline: &Deadline,
    rng: &mut Rng,
) -> Choice<Command> {
    let mut sim = st.clone();
    let limits = Limits {
        check_every: 1,
        ..Limits::from_env()
    };
    let result = FlatMc::new(limits)
        .depth(ROLLOUT_DEPTH as u32 + 1)
        .candidates(|c: Command| c.pen != Pen::Skill)
        .evaluator(value)
        .search(&mut sim, me, deadline, rng, &mut RolloutPolicy);
    Choice {
        // A player out of the game gets the default command: `s 0`.
        best: result.best,
        mean: result.best_mean(),
        rollouts: result.rollouts,
    }
}

/// Flat Monte Carlo over start vertices for player `me`: candidates on a
/// grid (every other vertex), the other players at random vertices, then a
/// rollout of `2 * ROLLOUT_DEPTH` turns. Stops like [`choose_command`].
pub fn choose_start(me: usize, deadline: &Deadline, rng: &mut Rng) -> Choice<(u8, u8)> {
    let mut cands = [(0u8, 0u8); 36];
    let mut k = 0;
    for y in (0..SIDE as u8).step_by(2) {
        for x in (0..SIDE as u8).step_by(2) {
            cands[k] = (x, y);
            k += 1;
        }
    }
    let mut sum = [0f64; 36];
    let mut count = [0u64; 36];
    let mut rollouts = 0u64;
    let budget = iteration_budget().unwrap_or(u64::MAX);
    'search: loop {
        for i in 0..cands.len() {
            if deadline.passed() || rollouts >= budget {
                break 'search;
            }
            let mut pos = [(0i32, 0i32); PLAYERS];
            for (p, q) in pos.iter_mut().enumerate() {
                *q = if p == me {
                    (i32::from(cands[i].0), i32::from(cands[i].1))
                } else {
                    let (x, y) = super::random_vertex(rng);
                    (i32::from(x), i32::from(y))
                };
            }
            let mut st = State::new(pos);
            rollout(&mut st, 2 * ROLLOUT_DEPTH, rng);
            sum[i] += value(&st, me);
            count[i] += 1;
            rollouts += 1;
        }
    }
    best_of(&cands, &sum, &count, 2 * 6 + 2, rollouts)
}

/// The candidate with the best mean value (the first on ties; `fallback`
/// when none was tried).
fn best_of<T: Copy>(
    cands: &[T],
    sum: &[f64],
    count: &[u64],
    fallback: usize,
    rollouts: u64,
) -> Choice<T> {
    let mut best = fallback;
    let mut best_mean = f64::NEG_INFINITY;
    for i in 0..cands.len() {
        if count[i] > 0 && sum[i] / count[i] as f64 > best_mean {
            best_mean = sum[i] / count[i] as f64;
            best = i;
        }
    }
    Choice {
        best: cands[best],
        mean: if best_mean.is_finite() {
            best_mean
        } else {
            0.0
        },
        rollouts,
    }
}

/// [`policy`] as a [`Policy`], for the generic searches
/// (`search::flat_mc`, `search::duct`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RolloutPolicy;

impl Policy<State> for RolloutPolicy {
    fn action(&mut self, game: &State, player: usize, rng: &mut Rng) -> Command {
        policy(game, player, rng)
    }
}
