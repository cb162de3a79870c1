//! `pacman_mc`: a Pacman2 bot for Botzone. Monte Carlo with decoupled
//! first turns: in each rollout every live player picks its first action by
//! UCB1 over its own statistics (valued from its side), so that the
//! opponents answer as well as they can rather than as a policy guesses,
//! and its second action the same way, from statistics kept per first
//! action of its own (open loop, `FlatMc::open_loop`); then at most 20
//! turns in all in which every player follows
//! `pacman2::policy::GreedyPolicy` (eat fruit, walk to the nearest one it
//! reaches first, step onto weaker players, shoot only with someone in the
//! beam's path, above all at a player who cannot step out of it, keep away
//! from stronger players and their beams, with
//! random noise), and is valued by `pacman2::policy::evaluate`: Botzone's
//! score for this bot (rank points plus strength share) on the strengths
//! reached, large-fruit boosts that run out before the end taken off. It
//! spends the turn's budget minus a safety margin
//! (`botzone::time::Deadline`), and says how many rollouts it ran in
//! `debug` (`rollouts=123456 ...`).
//!
//! It models the opponents across turns (`pacman2::policy::TypeModel`):
//! each turn it weighs every player's action under the rollout policy
//! against its own search's expectation of that player, and in that
//! player's share of the rollouts (up to [`TYPE_MOST`]) plays the policy's
//! first action for it instead of its UCB1 choice. Bots built on rules are
//! told from bots that search within a few turns; `debug` shows each
//! player's odds of playing as the policy (`types=0.01,0.97,...`). The
//! same odds set how readily each player shoots in the rollouts: a bot
//! built on rules fires whenever somebody is in line, a bot that searches
//! (this one too) about half as readily
//! (`pacman2::policy::GreedyPolicy::shot_weights`). At a player who can
//! step out of the path, each player fires in the rollouts as often as it
//! was seen to when it had such a shot (`TypeModel::dodge_rate`, through
//! `GreedyPolicy::dodge_weight`): bots built on rules take a third to a
//! half of those shots, the strong public bots one in ten or fewer;
//! `debug` shows the rates (`dodge=0.15,0.04,...`).
//!
//! Keep-running by default: the state is kept between turns and only each
//! turn's request is applied. Traditional mode (the whole history every
//! turn) works too: the state is rebuilt from the requests, and the
//! opponent model travels in Botzone's `data` field.
//!
//! ```text
//! cargo run --release --bin pacman_mc < input-samples/pacman2/first-turn.json
//! ```
//!
//! Environment: `BOTZONE_TIME_LIMIT` (seconds per turn), `BOTZONE_SEED`
//! (reproducible random choices), `BOTZONE_ITERATIONS` (a fixed number of
//! rollouts per turn instead of the clock).

use std::process::ExitCode;

use botzone::games::pacman2::policy::{evaluate, GreedyPolicy, TypeModel};
use botzone::games::pacman2::{Action, Map, Pacman2, PLAYERS};
use botzone::json::{self, Value};
use botzone::protocol::{self, Bot, BotError, Input, Output};
use botzone::rng::Rng;
use botzone::search::flat_mc::{FlatMc, Limits};
use botzone::time::Deadline;

struct PacmanMc {
    /// The game under way, once its first request has come.
    game: Option<Game>,
    me: usize,
    rng: Rng,
    /// Which players play as the rollout policy does.
    types: TypeModel,
}

/// A game under way: its state and the rollout policy's tables for its
/// field.
struct Game {
    state: Pacman2,
    /// Built once a game (the walls never change), shared by the search
    /// and the opponent model.
    tables: Box<GreedyPolicy>,
}

impl PacmanMc {
    fn new() -> Self {
        PacmanMc {
            game: None,
            me: 0,
            rng: Rng::from_env(),
            types: TypeModel::new(TYPE_PRIOR),
        }
    }

    /// Starts a game from a first request (the map plus `"id"`).
    fn start(&mut self, request: &Value, path: &str) -> Result<(), BotError> {
        let id = match request.get("id") {
            None => return Err(BotError::new(format!("{path}.id: missing"))),
            Some(v) => match v.as_i64() {
                Some(id) if (0..PLAYERS as i64).contains(&id) => id as usize,
                _ => {
                    return Err(BotError::new(format!(
                        "{path}.id: expected a player number 0..=3, found {v}"
                    )))
                }
            },
        };
        let map = Map::from_json(request).map_err(|e| BotError::new(format!("{path}: {e}")))?;
        let state = Pacman2::new(&map);
        let tables = Box::new(GreedyPolicy::new(&state));
        self.game = Some(Game { state, tables });
        self.me = id;
        self.types = TypeModel::new(TYPE_PRIOR);
        Ok(())
    }

    /// Applies one later request (the players' actions of the last turn),
    /// shown to the opponent model first when `observe`.
    fn follow(&mut self, request: &Value, path: &str, observe: bool) -> Result<(), BotError> {
        let Game { state, tables } = self.game.as_mut().ok_or_else(|| {
            BotError::new(format!("{path}: a turn's actions came before the map"))
        })?;
        let joint = state
            .joint_from_request(request, path)
            .map_err(|e| BotError::new(e.to_string()))?;
        if observe {
            self.types.observe_with(tables, state, &joint);
        }
        state.apply_unchecked(&joint);
        Ok(())
    }

    /// Whether a request starts a game (holds a map) rather than reporting
    /// a turn.
    fn is_map(request: &Value) -> bool {
        request.get("static").is_some() || request.get("width").is_some()
    }

    fn think(&mut self, deadline: &Deadline) -> Output {
        let me = self.me;
        let Some(Game {
            state: game,
            tables,
        }) = self.game.as_mut()
        else {
            return answer(Action::Stay, "rollouts=0 no game".into());
        };
        if !game.is_active(me) {
            let why = if game.is_over() { "game over" } else { "dead" };
            return answer(Action::Stay, format!("rollouts=0 {why}"));
        }
        let mut odds = [0.0; PLAYERS];
        for (p, q) in odds.iter_mut().enumerate() {
            *q = self.types.policy_probability(p);
        }
        let mut dodge = [0.0; PLAYERS];
        for (p, r) in dodge.iter_mut().enumerate() {
            *r = self.types.dodge_rate(p);
        }
        let mut policy = rollout_policy(tables, me, odds, dodge);
        let result = search(game, me, deadline, &mut self.rng, DEPTH, odds, &mut policy);
        for (p, arms) in result.players.iter().enumerate() {
            if p != me {
                self.types.expect(p, arms);
            }
        }
        // `expect` records what the search saw; the odds stay as searched.
        let types: Vec<String> = odds.iter().map(|q| format!("{q:.2}")).collect();
        let dodge: Vec<String> = dodge.iter().map(|r| format!("{r:.2}")).collect();
        let mut best = result.best;
        if !game.is_valid(me, best) {
            best = Action::Stay; // never happens; staying is always valid
        }
        let mean = result.best_mean();
        answer(
            best,
            format!(
                "rollouts={} turn={} action={} mean={:.2} ms={} types={} dodge={}",
                result.rollouts,
                game.turn(),
                best.code(),
                mean,
                deadline.elapsed().as_millis(),
                types.join(","),
                dodge.join(",")
            ),
        )
        .with_data(self.types.encode())
    }
}

/// Turns a rollout plays before it is valued by [`evaluate`].
const DEPTH: u32 = 20;

/// The UCB1 exploration constant of the decoupled turns, in
/// [`evaluate`]'s units (a rank is worth 10, the whole strength share 100).
const EXPLORATION: f64 = 40.0;

/// Turns of every rollout in which each player chooses by its own UCB1
/// statistics (open loop), before the policy takes over.
const DECOUPLED_TURNS: u32 = 2;

/// The odds, before a player is seen, that it plays as the rollout policy
/// does ([`TypeModel`]).
const TYPE_PRIOR: f64 = 0.2;

/// The share of the rollouts in which a player surely playing as the
/// policy does plays the policy's first action
/// ([`FlatMc::policy_mix_of`]); a player with odds `q` gets `q` times it.
const TYPE_MOST: f64 = 0.8;

/// The rollout policy: the game's `tables` with each player's shot
/// weights. Every player shoots as readily as its `odds` of playing as the
/// policy does say ([`GreedyPolicy::shot_weights`]: bots built on rules
/// fire whenever somebody is in line, bots that search, `me` among them,
/// less), except at a player who can step out of the path, where it fires
/// at the rate `dodge[p]` it was seen to ([`TypeModel::dodge_rate`],
/// [`GreedyPolicy::dodge_weight`]).
fn rollout_policy(
    tables: &GreedyPolicy,
    me: usize,
    odds: [f64; PLAYERS],
    dodge: [f64; PLAYERS],
) -> GreedyPolicy {
    tables
        .clone()
        .with_shot_weights(GreedyPolicy::shot_weights(me, odds))
        .with_dodge_weights(dodge.map(GreedyPolicy::dodge_weight))
}

/// Monte Carlo with decoupled first turns: every live player picks its
/// first [`DECOUPLED_TURNS`] actions by UCB1 over its own statistics,
/// valued by [`evaluate`] from its side, so that the opponents' first
/// moves are their best answers rather than the policy's; then at most
/// `depth` turns in all of `policy` ([`rollout_policy`]) for everyone.
/// `odds[p]` is the odds that player `p` plays as the policy does
/// ([`TypeModel`]): it plays the policy's first action instead in a share
/// `TYPE_MOST * odds[p]` of the rollouts. The answer is `me`'s most tried
/// action; `game` is left as it was. Stops at the deadline or after
/// `BOTZONE_ITERATIONS` rollouts.
fn search(
    game: &mut Pacman2,
    me: usize,
    deadline: &Deadline,
    rng: &mut Rng,
    depth: u32,
    odds: [f64; PLAYERS],
    policy: &mut GreedyPolicy,
) -> botzone::search::flat_mc::SearchResult<Action> {
    let mut mc = FlatMc::new(Limits::from_env())
        .depth(depth)
        .decoupled(EXPLORATION)
        .open_loop(DECOUPLED_TURNS)
        .evaluator(evaluate);
    for (p, &q) in odds.iter().enumerate() {
        mc = mc.policy_mix_of(p, TYPE_MOST * q);
    }
    mc.search(game, me, deadline, rng, policy)
}

fn answer(action: Action, debug: String) -> Output {
    Output::new(json::object([
        ("action", Value::from(i64::from(action.code()))),
        ("tauntText", Value::from("")),
    ]))
    .with_debug(debug)
}

impl Bot for PacmanMc {
    fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError> {
        self.game = None;
        // The opponent model as the last turn left it (`data`): it weighs
        // only the last request's actions, the one turn it has an
        // expectation for.
        let mut saved = match input.data.as_deref().filter(|d| !d.is_empty()) {
            None => None,
            Some(text) => match TypeModel::decode(text) {
                Ok(model) => Some(model),
                Err(e) => {
                    eprintln!("pacman_mc: data: {e}; the opponent model starts afresh");
                    None
                }
            },
        };
        let last = input.requests.len().saturating_sub(1);
        for (i, request) in input.requests.iter().enumerate() {
            let path = format!("requests[{i}]");
            if i == 0 {
                self.start(request, &path)?;
            } else {
                // With the model from `data`, only the last turn is new to
                // it; without, it counts every turn's shots afresh.
                let observe = i == last || saved.is_none();
                if i == last {
                    if let Some(model) = saved.take() {
                        self.types = model;
                    }
                }
                self.follow(request, &path, observe)?;
            }
        }
        Ok(self.think(deadline))
    }

    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError> {
        if Self::is_map(request) {
            self.start(request, "request")?;
        } else {
            self.follow(request, "request", true)?;
        }
        Ok(self.think(deadline))
    }

    fn fallback(&self) -> Option<Value> {
        // Staying is valid for every live player on every field.
        Some(json::object([
            ("action", Value::from(-1i64)),
            ("tauntText", Value::from("")),
        ]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut PacmanMc::new())
}
