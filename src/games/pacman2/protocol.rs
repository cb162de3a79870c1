//! Pacman2 on Botzone's protocol: what a bot reads and answers.
//!
//! - First request: the map as the judge's `initdata` (see
//!   [`Map::from_json`]) plus `"id"`, the bot's player number 0..=3.
//! - Each later request: `{"0":{"action":a},"1":null,...}`, the action of
//!   every player alive at the start of the turn before (-10: an answer the
//!   judge could not accept, which killed that player) and `null` for every
//!   dead player.
//! - The answer: `{"action":a,"tauntText":"..."}` with `a` in `-1..=7`
//!   ([`answer`]).
//!
//! [`Tracker`] follows a match in both of Botzone's modes: rebuilt from the
//! whole history ([`Tracker::from_input`], traditional mode, and the first
//! turn of keep-running mode) or one request at a time
//! ([`Tracker::follow`], keep-running mode).
//!
//! ```
//! use botzone::games::pacman2::protocol::{answer, Tracker};
//! use botzone::games::pacman2::{Action, Map};
//! use botzone::protocol::Input;
//!
//! let first = Map::generate(1).to_json_with_id(Some(2));
//! let text = format!(r#"{{"requests":[{first}],"responses":[]}}"#);
//! let input = Input::parse(&text).unwrap();
//! let mut tracker = Tracker::from_input(&input).unwrap();
//! assert_eq!(tracker.me(), 2);
//! assert_eq!(tracker.game().turn(), 0);
//! // Keep-running mode: the next request reports the turn.
//! let next = r#"{"0":{"action":-1},"1":{"action":-1},"2":{"action":-1},"3":{"action":-1}}"#;
//! tracker.follow(&next.parse().unwrap(), "request").unwrap();
//! assert_eq!(tracker.game().turn(), 1);
//! assert_eq!(answer(Action::Stay, "hi").to_string(), r#"{"action":-1,"tauntText":"hi"}"#);
//! ```

use super::{Action, Map, Pacman2, PLAYERS};
use crate::json::{self, Value};
use crate::protocol::{warn, BotError, Input};

/// Whether `request` starts a match (holds a map) rather than reporting a
/// turn.
pub fn is_start(request: &Value) -> bool {
    request.get("static").is_some() || request.get("width").is_some()
}

/// Reads a first request: the map and the bot's player number (`"id"`).
/// `path` names the request in messages.
///
/// # Errors
/// When `id` is missing or not 0..=3, or the map cannot be read.
pub fn read_start(request: &Value, path: &str) -> Result<(Map, usize), BotError> {
    let id = match request.get("id") {
        None => return Err(BotError::missing(&format!("{path}.id"))),
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
    Ok((map, id))
}

/// The answer `{"action":a,"tauntText":taunt}` (Botzone shows at most 40
/// bytes of the taunt).
pub fn answer(action: Action, taunt: &str) -> Value {
    json::object([
        ("action", Value::from(i64::from(action.code()))),
        ("tauntText", Value::from(taunt)),
    ])
}

/// A match as the bot sees it: the game so far and the bot's player number.
#[derive(Clone, Debug)]
pub struct Tracker {
    game: Pacman2,
    me: usize,
}

impl Tracker {
    /// A match from its first request.
    ///
    /// # Errors
    /// As [`read_start`].
    pub fn start(request: &Value, path: &str) -> Result<Tracker, BotError> {
        let (map, me) = read_start(request, path)?;
        Ok(Tracker {
            game: Pacman2::new(&map),
            me,
        })
    }

    /// The match rebuilt from a whole input: the first request, then every
    /// later one (Botzone's traditional mode, and the first input of
    /// keep-running mode). The bot's own responses are not needed: each
    /// request reports every player's action.
    ///
    /// # Errors
    /// As [`Tracker::start`] and [`Tracker::follow`], naming
    /// `requests[i]`.
    pub fn from_input(input: &Input) -> Result<Tracker, BotError> {
        let first = input.requests.first().unwrap_or(&Value::Null);
        let mut tracker = Tracker::start(first, "requests[0]")?;
        for (i, request) in input.requests.iter().enumerate().skip(1) {
            tracker.follow(request, &format!("requests[{i}]"))?;
        }
        Ok(tracker)
    }

    /// Applies a later request (keep-running mode), or starts again when
    /// the request is a first one ([`is_start`]). Where the request
    /// contradicts the game (see [`Pacman2::read_request`]) the judge's word
    /// is taken and [`warn`] says what happened; a request after the end of
    /// the game is ignored with a warning.
    ///
    /// # Errors
    /// When the request cannot be read (see [`Pacman2::read_request`]).
    pub fn follow(&mut self, request: &Value, path: &str) -> Result<(), BotError> {
        if is_start(request) {
            *self = Tracker::start(request, path)?;
            return Ok(());
        }
        if self.game.is_over() {
            if request.as_object().is_none() {
                return Err(BotError::mistyped(path, "an object", request));
            }
            warn(format_args!(
                "{path}: the game ended at turn {} in this bot's game, yet the judge sent \
                 another turn: ignored",
                self.game.turn()
            ));
            return Ok(());
        }
        let read = self
            .game
            .read_request(request, path)
            .map_err(|e| BotError::new(e.to_string()))?;
        for warning in read.warnings {
            warn(warning);
        }
        self.game.apply_unchecked(&read.joint);
        Ok(())
    }

    /// The game so far.
    pub fn game(&self) -> &Pacman2 {
        &self.game
    }

    /// The game, for a search that plays and undoes turns on it (leave it
    /// as it was found).
    pub fn game_mut(&mut self) -> &mut Pacman2 {
        &mut self.game
    }

    /// The bot's player number.
    pub fn me(&self) -> usize {
        self.me
    }
}
