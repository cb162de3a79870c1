//! `pacman_mc`: a Pacman2 bot for Botzone. Monte Carlo with decoupled
//! first turns: in each rollout every live player picks its first action by
//! UCB1 over its own statistics (valued from its side), so that the
//! opponents answer as well as they can rather than as a policy guesses,
//! and its second action the same way, from statistics kept per first
//! action of its own (open loop, `FlatMc::open_loop`); then at most 20
//! turns in all in which every player follows
//! `pacman2::policy::GreedyPolicy` (eat fruit, walk to the nearest one it
//! reaches first, step onto weaker players, shoot only with someone in the
//! beam's path, keep away from stronger players and their beams, with
//! random noise), and is valued by `pacman2::policy::evaluate`: Botzone's
//! score for this bot (rank points plus strength share) on the strengths
//! reached, large-fruit boosts that run out before the end taken off. It
//! spends the turn's budget minus a safety margin
//! (`botzone::time::Deadline`), and says how many rollouts it ran in
//! `debug` (`rollouts=123456 ...`).
//!
//! Keep-running by default: the state is kept between turns and only each
//! turn's request is applied. Traditional mode (the whole history every
//! turn) works too: the state is rebuilt from the requests.
//!
//! ```text
//! cargo run --release --bin pacman_mc < input-samples/pacman2/first-turn.json
//! ```
//!
//! Environment: `BOTZONE_TIME_LIMIT` (seconds per turn), `BOTZONE_SEED`
//! (reproducible random choices), `BOTZONE_ITERATIONS` (a fixed number of
//! rollouts per turn instead of the clock).

use std::process::ExitCode;

use botzone::games::pacman2::policy::{evaluate, GreedyPolicy, PolicyAgreement, TypeModel};
use botzone::games::pacman2::{Action, Map, Pacman2, PLAYERS};
use botzone::json::{self, Value};
use botzone::protocol::{self, Bot, BotError, Input, Output};
use botzone::rng::Rng;
use botzone::search::flat_mc::{FlatMc, Limits};
use botzone::time::Deadline;

struct PacmanMc {
    game: Option<Pacman2>,
    me: usize,
    rng: Rng,
    /// How well the rollout policy predicted each player so far.
    agreement: PolicyAgreement,
    /// Policy or searcher, per player (`PACMAN_TYPE_PRIOR`).
    types: Option<TypeModel>,
}

/// `PACMAN_TYPE_PRIOR`: the type model's prior share of the policy.
fn type_prior() -> Option<f64> {
    std::env::var("PACMAN_TYPE_PRIOR")
        .ok()
        .and_then(|v| v.parse().ok())
}

impl PacmanMc {
    fn new() -> Self {
        PacmanMc {
            game: None,
            me: 0,
            rng: Rng::from_env(),
            agreement: PolicyAgreement::default(),
            types: type_prior().map(TypeModel::new),
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
        self.game = Some(Pacman2::new(&map));
        self.me = id;
        self.agreement = PolicyAgreement::default();
        self.types = type_prior().map(TypeModel::new);
        Ok(())
    }

    /// Applies one later request (the players' actions of the last turn).
    fn follow(&mut self, request: &Value, path: &str) -> Result<(), BotError> {
        let game = self.game.as_mut().ok_or_else(|| {
            BotError::new(format!("{path}: a turn's actions came before the map"))
        })?;
        let joint = game
            .joint_from_request(request, path)
            .map_err(|e| BotError::new(e.to_string()))?;
        self.agreement.observe(game, &joint);
        if let Some(t) = self.types.as_mut() {
            t.observe(game, &joint);
        }
        game.apply_unchecked(&joint);
        Ok(())
    }

    /// Whether a request starts a game (holds a map) rather than reporting
    /// a turn.
    fn is_map(request: &Value) -> bool {
        request.get("static").is_some() || request.get("width").is_some()
    }

    fn think(&mut self, deadline: &Deadline) -> Output {
        let me = self.me;
        let Some(game) = self.game.as_mut() else {
            return answer(Action::Stay, "rollouts=0 no game".into());
        };
        if !game.is_active(me) {
            let why = if game.is_over() { "game over" } else { "dead" };
            return answer(Action::Stay, format!("rollouts=0 {why}"));
        }
        let mut mix = [0.0; PLAYERS];
        let floor: f64 = std::env::var("PACMAN_AGREE_FLOOR")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2.0);
        let slope: f64 = std::env::var("PACMAN_AGREE_SLOPE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2.8);
        let prior: f64 = std::env::var("PACMAN_AGREE_PRIOR")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.5);
        let constant: Option<f64> = std::env::var("PACMAN_POLICY_MIX")
            .ok()
            .and_then(|v| v.parse().ok());
        let most: f64 = std::env::var("PACMAN_TYPE_MAX")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.6);
        for (p, m) in mix.iter_mut().enumerate() {
            let a = self.agreement.agreement(p, prior, 5.0);
            *m = constant.unwrap_or(((a - floor) * slope).clamp(0.0, 1.0));
            if let Some(t) = self.types.as_ref() {
                *m = most * t.policy_probability(p);
            }
        }
        let rates: Vec<String> = (0..PLAYERS)
            .map(|p| match self.types.as_ref() {
                Some(t) => format!("{:.2}", t.policy_probability(p)),
                None => format!("{:.2}", self.agreement.agreement(p, 0.5, 5.0)),
            })
            .collect();
        if let Ok(path) = std::env::var("PACMAN_TRACE_FILE") {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = writeln!(f, "{} {} {}", me, game.turn(), rates.join(","));
            }
        }
        let result = search(game, me, deadline, &mut self.rng, DEPTH, mix);
        if let Some(t) = self.types.as_mut() {
            for (p, arms) in result.players.iter().enumerate() {
                if p != me {
                    t.expect(p, arms);
                }
            }
        }
        let mut best = result.best;
        if !game.is_valid(me, best) {
            best = Action::Stay; // never happens; staying is always valid
        }
        let mean = result.best_mean();
        answer(
            best,
            format!(
                "rollouts={} turn={} action={} mean={:.2} ms={} agree={}",
                result.rollouts,
                game.turn(),
                best.code(),
                mean,
                deadline.elapsed().as_millis(),
                rates.join(",")
            ),
        )
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

/// Monte Carlo with decoupled first turns: every live player picks its
/// first [`DECOUPLED_TURNS`] actions by UCB1 over its own statistics,
/// valued by [`evaluate`] from its side, so that the opponents' first
/// moves are their best answers rather than the policy's; then at most
/// `depth` turns in all of [`GreedyPolicy`] for everyone. The answer is
/// `me`'s most tried action; `game` is left as it was. Stops at the
/// deadline or after `BOTZONE_ITERATIONS` rollouts.
fn search(
    game: &mut Pacman2,
    me: usize,
    deadline: &Deadline,
    rng: &mut Rng,
    depth: u32,
    mix: [f64; PLAYERS],
) -> botzone::search::flat_mc::SearchResult<Action> {
    let shots_only = std::env::var("PACMAN_HEDGE_SHOTS").is_ok_and(|v| v == "1");
    let mut policy = GreedyPolicy::new(game).hedge_shots_only(shots_only);
    let mut mc = FlatMc::new(Limits::from_env())
        .depth(depth)
        .decoupled(EXPLORATION)
        .open_loop(DECOUPLED_TURNS)
        .evaluator(evaluate);
    for (p, &m) in mix.iter().enumerate() {
        mc = mc.policy_mix_of(p, m);
    }
    mc.search(game, me, deadline, rng, &mut policy)
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
        for (i, request) in input.requests.iter().enumerate() {
            let path = format!("requests[{i}]");
            if i == 0 {
                self.start(request, &path)?;
            } else {
                self.follow(request, &path)?;
            }
        }
        Ok(self.think(deadline))
    }

    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError> {
        if Self::is_map(request) {
            self.start(request, "request")?;
        } else {
            self.follow(request, "request")?;
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
