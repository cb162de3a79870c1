//! The games, and what every game offers.
//!
//! A game is one folder (`games/<game>/`) that holds everything it knows:
//! its rules (a fixed-array state with apply and undo, legal actions into a
//! fixed-capacity list, scores), its setup from a seed (the judge's map
//! generator), its protocol (requests, answers, its judge or referee), its
//! random playout and its rendering. Three traits say what a game offers,
//! so that search, the arena, the benchmarks and the tests are written once:
//!
//! - [`Game`]: the search view (apply a joint turn unchecked, undo, legal
//!   actions, scores);
//! - [`Rules`]: the whole game (setup, checked [`Rules::try_apply`], turn
//!   counter, random playout, rendering, invariants);
//! - [`botzone::BotzoneGame`] for the Botzone games (JSON requests and
//!   answers, the judge), [`line::LineGame`] for the NOI line protocol.
//!
//! [`registry::GameKind`] is the one list of games. (It lives in a module of
//! its own, which no game refers to, so that a bundled bot carries only the
//! game it plays.)
//!
//! Every game speaks the same vocabulary: `MAX_TURNS` (a `u32`), `turn()`
//! (turns played, a `u32`, 0 at the start), `try_apply` (checked; the state
//! is untouched on error) and `apply_unchecked` (for search), `undo`,
//! `random_playout` (returns the turns played), action enums with `ALL`,
//! `COUNT`, `index()` and `TryFrom`.
//!
//! ```
//! use botzone::games::pacman2::Pacman2;
//! use botzone::games::{Game, Rules};
//! use botzone::rng::Rng;
//!
//! // Any game, the same way: a judge's setup, a random game, back to the start.
//! fn playout_and_back<G: Rules>(seed: u32) -> u32 {
//!     let mut game = G::from_seed(seed);
//!     let start = game.clone();
//!     let turns = game.random_playout(&mut Rng::new(1));
//!     assert!(game.is_over() && game.turn() == turns);
//!     game.undo_turns(turns);
//!     assert!(game == start);
//!     turns
//! }
//! assert!(playout_and_back::<Pacman2>(1) > 0);
//! ```

use std::fmt::{self, Debug};
use std::ops::Deref;

use crate::rng::Rng;

pub mod botzone;
pub mod enclosure;
pub mod line;
pub mod pacman2;
pub mod registry;
pub mod render;
pub mod tank;

/// A simultaneous-move game with undo, as search sees it.
///
/// A turn is a joint action: one action per player (players who take no
/// part this turn, such as dead ones, get any action; the game ignores it).
/// Implementations never allocate in `legal_actions`, `apply_unchecked`,
/// `undo`, `undo_turns` or `scores`.
pub trait Game: Clone {
    /// One player's action in one turn.
    type Action: Copy + Eq + Default + Debug;
    /// A fixed-capacity list of actions (a [`crate::fixed::FixedList`]).
    type Actions: Default + Deref<Target = [Self::Action]>;

    /// The number of seats.
    fn player_count(&self) -> usize;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// Whether `player` takes part in the next turn (alive, game not over).
    fn is_active(&self, player: usize) -> bool;
    /// Replaces `out` with the legal actions of `player` this turn (at
    /// least one for an active player).
    fn legal_actions(&self, player: usize, out: &mut Self::Actions);
    /// Plays one joint turn (`joint[p]` is player `p`'s action) without
    /// checking it: the fast path for search. Actions should come from
    /// `legal_actions`; for anything else the game may define what happens
    /// (Pacman2 kills the player, as its judge does) or leave the state
    /// unspecified (but memory-safe). [`Rules::try_apply`] is the checked
    /// way.
    fn apply_unchecked(&mut self, joint: &[Self::Action]);
    /// Takes back the last applied turn. Returns `false` when there is
    /// nothing to take back.
    fn undo(&mut self) -> bool;
    /// Takes back the last `turns` applied turns (all there are when fewer
    /// were applied). Undoes them one by one unless the game has a faster
    /// way back (Pacman2 restores its stack at once).
    fn undo_turns(&mut self, turns: u32) {
        for _ in 0..turns {
            if !self.undo() {
                break;
            }
        }
    }
    /// Writes every player's score so far (the final score once the game is
    /// over) into `out[..player_count()]`, in the platform's units.
    fn scores(&self, out: &mut [f64]);
}

/// How a game's scores rank the players, for standings tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scoring {
    /// Higher is better; each game ranks its seats (Pacman2, Enclosure).
    Ranked,
    /// Two seats, fixed points for a win, a draw and a loss (Tank: 2, 1, 0).
    WinDrawLoss {
        /// Points for a win.
        win: f64,
        /// Points for a draw.
        draw: f64,
        /// Points for a loss.
        loss: f64,
    },
}

/// A game's whole rules: setup, checked turns, turn counter, random playout,
/// rendering and invariants, on top of the search view [`Game`].
///
/// The `Display` rendering is ASCII (the wiki samples' `DebugPrint`), its
/// symbols explained by [`Rules::LEGEND`]. Equality compares positions
/// (and, where a game keeps it, the history undo can take back).
pub trait Rules: Game + PartialEq + Debug + fmt::Display {
    /// The game's name in commands, logs and files (`pacman2`, `tank`,
    /// `enclosure`).
    const NAME: &'static str;
    /// Seats in a game (what [`Game::player_count`] returns).
    const SEATS: usize;
    /// A game ends after this many turns at the latest.
    const MAX_TURNS: u32;
    /// How the scores rank the players.
    const SCORING: Scoring;
    /// What the symbols of the `Display` rendering mean (one paragraph).
    const LEGEND: &'static str;

    /// Everything a game starts from: Pacman2's map, Tank's field, the
    /// start vertices of Enclosure.
    type Setup: Clone + Debug;
    /// Why [`Rules::try_apply`] refused a joint turn.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The setup the game's judge draws for `seed` (Pacman2, Tank: bit for
    /// bit; Enclosure, whose players choose their start: four random
    /// vertices from `seed`).
    fn setup_from_seed(seed: u32) -> Self::Setup;
    /// The start of a game on `setup`.
    fn start(setup: &Self::Setup) -> Self;
    /// The start of the game the judge plays for `seed`.
    fn from_seed(seed: u32) -> Self {
        Self::start(&Self::setup_from_seed(seed))
    }
    /// Turns played: 0 at the start, one more per applied turn.
    fn turn(&self) -> u32;
    /// Plays one joint turn after checking it: the game must go on and
    /// every active player's action must be one of its legal actions.
    ///
    /// # Errors
    /// The first reason the turn cannot be played; the state is then
    /// exactly as it was.
    fn try_apply(&mut self, joint: &[Self::Action]) -> Result<(), Self::Error>;
    /// Plays uniformly random legal actions for every active player until
    /// the game ends (as the wiki samples' benchmarks do); returns the turns
    /// played (take them back with [`Game::undo_turns`]). Allocates nothing.
    fn random_playout(&mut self, rng: &mut Rng) -> u32;
    /// Checks what must hold in every position: incremental values against
    /// a full recomputation, and the game's own rules of consistency.
    ///
    /// # Errors
    /// The first broken invariant, described.
    fn check_invariants(&self) -> Result<(), String>;
    /// How the wiki sample's benchmark program (`../shared/reference`)
    /// takes this setup on its command line, before the playout count;
    /// `None` when the game has no such peer.
    fn bench_peer_args(setup: &Self::Setup) -> Option<Vec<PeerArg>> {
        let _ = setup;
        None
    }
}

/// One command-line argument of a peer benchmark program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerArg {
    /// Given as it is.
    Text(String),
    /// The path of a file that holds this text (made for the run).
    File(String),
}
