//! The Botzone games: their JSON protocol and their judges, once for all.
//!
//! A [`BotzoneGame`] says how its judge reads `initdata`, what the first
//! requests are, and how one turn of the players' answers is judged (the
//! requests or scores that follow, and the display). On top of that, this
//! module holds the judge protocol itself, written once:
//!
//! - [`Referee`]: a game followed by its judge, turn by turn (what the
//!   arena's replays show);
//! - [`judge`]: one call of Botzone's judge protocol,
//!   `{"log":[…],"initdata":…}` in, `{"command":…,"content":…,"display":…}`
//!   out, replaying the whole log from the start as the official judges do
//!   (what `botzone judge` runs and the arena referees with).
//!
//! ```
//! use botzone::games::botzone::judge;
//! use botzone::games::tank::Field;
//! use botzone::json::Value;
//!
//! let first = judge::<Field>(&Value::parse(r#"{"log":[],"initdata":{"seed":1}}"#).unwrap()).unwrap();
//! assert_eq!(first["command"].as_str(), Some("request"));
//! assert_eq!(first["content"]["1"]["mySide"].as_i64(), Some(1));
//! assert_eq!(first["initdata"]["maxTurn"].as_i64(), Some(100));
//! ```

use std::fmt;

use crate::games::Rules;
use crate::json::{Map, Value};

/// A game on Botzone's JSON protocol, with its judge.
///
/// The judge side is what the official judge program does; the bot side
/// (requests read, answers written) is each game's `protocol` module, of
/// which [`BotzoneGame::answer`] is the one piece generic code needs.
pub trait BotzoneGame: Rules {
    /// What the judge remembers between turns besides the game (`()` when
    /// it needs nothing).
    type JudgeMemory: Clone + Default + fmt::Debug;

    /// The setup the judge plays for its `initdata` (an object; `seed` is
    /// the judge's seed, from `initdata` or the clock).
    ///
    /// # Errors
    /// When `initdata` holds a setup the judge cannot play, described.
    fn setup_from_initdata(initdata: &Value, seed: u32) -> Result<Self::Setup, String>;
    /// The `initdata` the judge settles on for `setup` (what it answers on
    /// the first call, what the logs keep and what `botzone map` prints).
    fn initdata(setup: &Self::Setup) -> Value;
    /// The first request of `player`.
    fn first_request(setup: &Self::Setup, player: usize) -> Value;
    /// The `display` of the first call.
    fn first_display(setup: &Self::Setup) -> Value;
    /// Judges one turn: reads each player's entry of `answers` (a log
    /// entry: `{"0":{"verdict":…,"response":…},…}`), plays the turn, and
    /// says what follows. `last`: whether this entry ends the log (the only
    /// turn whose requests and display the judge's answer carries).
    fn judge_turn(&mut self, memory: &mut Self::JudgeMemory, answers: &Value, last: bool)
        -> Judged;
    /// The answer a bot sends for `action` as `player` (bot side).
    fn answer(&self, player: usize, action: Self::Action) -> Value;
    /// The action the judge plays for `player`'s `answer`, as it reads
    /// answers (`None` when it refuses it: Tank's judge then ends the game;
    /// Pacman2's judge never refuses, it plays anything unreadable as an
    /// invalid action, which kills).
    fn read_answer(&self, player: usize, answer: &Value) -> Option<Self::Action>;
}

/// What the judge says after one turn ([`BotzoneGame::judge_turn`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Whether the turn ended the game (`"finish"`, else `"request"`).
    pub finished: bool,
    /// The answer's `content`: each live player's next request, or each
    /// player's score once finished (may be empty for a turn that is not
    /// the log's last).
    pub content: Map,
    /// The answer's `display`.
    pub display: Value,
    /// The players' answers as the judge read them, on one line (replays
    /// show it).
    pub summary: String,
}

/// Why the judge could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeError(String);

impl JudgeError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        JudgeError(message.into())
    }
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JudgeError {}

/// A Botzone game followed by its judge, one turn of answers at a time.
#[derive(Clone, Debug)]
pub struct Referee<G: BotzoneGame> {
    setup: G::Setup,
    game: G,
    memory: G::JudgeMemory,
    finished: bool,
}

impl<G: BotzoneGame> Referee<G> {
    /// The judge at the start of a game on `setup`.
    pub fn new(setup: G::Setup) -> Self {
        Referee {
            game: G::start(&setup),
            setup,
            memory: G::JudgeMemory::default(),
            finished: false,
        }
    }

    /// The judge of a game on `initdata` (an object, a string holding one,
    /// or anything else for none): its `seed` when an integer, else the
    /// clock's seconds (the official judges' `time(0)`).
    ///
    /// # Errors
    /// When `initdata` holds a setup the judge cannot play.
    pub fn from_initdata(initdata: &Value) -> Result<Self, JudgeError> {
        let initdata = initdata_object(initdata);
        let seed = seed_of(&initdata);
        let setup = G::setup_from_initdata(&initdata, seed)
            .map_err(|e| JudgeError::new(format!("initdata: {e}")))?;
        Ok(Referee::new(setup))
    }

    /// The judge's answer to its first call: every player's first request,
    /// the display, and the `initdata` it settled on.
    pub fn first_call(&self) -> Value {
        let mut content = Map::new();
        for p in 0..G::SEATS {
            content.insert(p.to_string(), G::first_request(&self.setup, p));
        }
        let mut out = Map::new();
        out.insert("command", Value::from("request"));
        out.insert("content", Value::Object(content));
        out.insert("display", G::first_display(&self.setup));
        out.insert("initdata", G::initdata(&self.setup));
        Value::Object(out)
    }

    /// Judges one turn of the players' `answers` (a bot entry of the log);
    /// `last`: whether it ends the log.
    pub fn judge(&mut self, answers: &Value, last: bool) -> Judged {
        let judged = self.game.judge_turn(&mut self.memory, answers, last);
        self.finished = judged.finished;
        judged
    }

    /// Whether the judge has finished the game.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The game as the judge has played it so far.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The setup.
    pub fn setup(&self) -> &G::Setup {
        &self.setup
    }
}

/// One call of Botzone's judge protocol for `G`: `input` is
/// `{"log":[…],"initdata":…}`, the answer `{"command":"request"|"finish",
/// "content":{…},"display":…}` (plus `initdata` on the first call), with
/// object keys in order as the official judges (jsoncpp) write them. The
/// whole log is replayed from the start, as the official judges do.
///
/// # Errors
/// When `initdata` holds a setup the judge cannot play, or the log ends
/// with the judge's own turn (nothing to judge).
pub fn judge<G: BotzoneGame>(input: &Value) -> Result<Value, JudgeError> {
    let initdata = input.get("initdata").cloned().unwrap_or(Value::Null);
    let mut referee = Referee::<G>::from_initdata(&initdata)?;
    let log = input.get("log").and_then(Value::as_array).unwrap_or(&[]);
    let mut out = if log.is_empty() {
        referee.first_call()
    } else {
        judge_log(&mut referee, log)?
    };
    out.sort_keys();
    Ok(out)
}

fn judge_log<G: BotzoneGame>(referee: &mut Referee<G>, log: &[Value]) -> Result<Value, JudgeError> {
    // Bot entries are at odd places: judge, bots, judge, bots, ...
    for i in (1..log.len()).step_by(2) {
        let last = i == log.len() - 1;
        let judged = referee.judge(&log[i], last);
        if judged.finished || last {
            let mut out = Map::new();
            let command = if judged.finished { "finish" } else { "request" };
            out.insert("command", Value::from(command));
            out.insert("content", Value::Object(judged.content));
            out.insert("display", judged.display);
            return Ok(Value::Object(out));
        }
    }
    Err(JudgeError::new(
        "the log ends with the judge's turn: nothing to judge",
    ))
}

/// `initdata` as an object: itself, the object a string holds, or `{}`.
fn initdata_object(initdata: &Value) -> Value {
    match initdata {
        Value::String(s) => Value::parse(s)
            .ok()
            .filter(|v| v.as_object().is_some())
            .unwrap_or_else(|| Value::Object(Map::new())),
        Value::Object(_) => initdata.clone(),
        _ => Value::Object(Map::new()),
    }
}

/// The judge's seed: `initdata.seed` when an integer (jsoncpp's `asInt`,
/// kept as its 32 bits), else the clock's seconds.
pub fn seed_of(initdata: &Value) -> u32 {
    match initdata.get("seed").and_then(json_int) {
        Some(s) => s as u32,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as u32),
    }
}

/// jsoncpp's `isInt()` then `asInt()`, as the judges read numbers:
/// integers (and integral reals) in the 32-bit signed range.
pub fn json_int(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return (i64::from(i32::MIN)..=i64::from(i32::MAX))
            .contains(&i)
            .then_some(i);
    }
    if v.as_u64().is_some() {
        return None; // above i64::MAX
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && f >= f64::from(i32::MIN) && f <= f64::from(i32::MAX)).then_some(f as i64)
}

/// A player's answer in a log entry: its `response`, else its `content`
/// (null or missing: none); a string is read as the JSON it holds.
pub fn answer_of(entry: &Value) -> Option<Value> {
    let answer = match entry.get("response") {
        Some(v) if !v.is_null() => v,
        _ => entry.get("content")?,
    };
    match answer {
        Value::String(s) => Value::parse(s).ok(),
        other => Some(other.clone()),
    }
}

/// The verdict of a player's log entry (`""` when it has none).
pub fn verdict_of(entry: &Value) -> &str {
    entry.get("verdict").and_then(Value::as_str).unwrap_or("")
}
