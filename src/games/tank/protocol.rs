//! Tank on Botzone's protocol: what a bot reads and answers.
//!
//! - First request: `{"field":[b0,b1,b2],"mySide":s}`: the bricks (see
//!   [`Bricks`]) and the bot's side, 0 blue (base at the top) or 1 red.
//! - Each later request: `[a0,a1]`, the opponent's two actions of the turn
//!   before (-1 for a destroyed tank).
//! - The answer: `[a0,a1]`, the bot's own two actions ([`answer`]), codes
//!   as [`TankAction::code`]: -1 stay, 0..=3 move up, right, down, left,
//!   4..=7 shoot up, right, down, left.
//!
//! The bot's own actions are not in the requests: in traditional mode they
//! are the input's `responses`, in keep-running mode the bot remembers its
//! last answer. [`Tracker`] does both: [`Tracker::from_input`] rebuilds the
//! field from a whole input, [`Tracker::follow`] applies one later request
//! with the answer last given through [`Tracker::answer`].
//!
//! ```
//! use botzone::games::tank::protocol::Tracker;
//! use botzone::games::tank::{TankAction, BLUE};
//! use botzone::protocol::Input;
//!
//! let input = Input::parse(
//!     r#"{"requests":[{"field":[4543785,21757588,77944080],"mySide":0}],"responses":[]}"#,
//! )
//! .unwrap();
//! let mut tracker = Tracker::from_input(&input).unwrap();
//! assert_eq!(tracker.side(), BLUE);
//! // Our answer for this turn, remembered for the next request.
//! let response = tracker.answer([TankAction::Down, TankAction::Stay]);
//! assert_eq!(response.to_string(), "[2,-1]");
//! // Keep-running mode: the next request holds the opponent's actions.
//! tracker.follow(&"[-1,-1]".parse().unwrap(), "request").unwrap();
//! assert_eq!(tracker.field().turn(), 1);
//! ```

use super::{Bricks, Field, SideAction, TankAction, BLUE, SIDES, TANKS_PER_SIDE};
use crate::json::Value;
use crate::protocol::{warn, At, BotError, Input};

/// A pair of actions read against a field ([`read_pair`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairRead {
    /// The two tanks' actions as they are played: what the request says,
    /// [`TankAction::Stay`] for a destroyed tank.
    pub pair: [TankAction; TANKS_PER_SIDE],
    /// Where the pair contradicted the field and the judge's word was
    /// taken, one message each (empty when they agree).
    pub warnings: Vec<String>,
}

/// Whether `request` starts a match (`{"field":…}`) rather than reporting
/// a turn (`[a0,a1]`).
pub fn is_start(request: &Value) -> bool {
    request.as_object().is_some()
}

/// Reads a first request `{"field":[b0,b1,b2],"mySide":s}`. `path` names
/// the request in messages.
///
/// # Errors
/// When `field` is not three integers in `0..2^27` or `mySide` not 0 or 1.
pub fn read_start(request: &Value, path: &str) -> Result<(Bricks, usize), BotError> {
    let at = At::root(request, path);
    let field = at.key("field")?;
    let items = field.array()?;
    if items.len() != 3 {
        return Err(BotError::new(format!(
            "{}: expected 3 integers, found {} elements",
            field.path(),
            items.len()
        )));
    }
    let mut bricks = [0u32; 3];
    for (i, b) in bricks.iter_mut().enumerate() {
        *b = field.index(i)?.int_in(0, (1 << 27) - 1)? as u32;
    }
    let side = at.key("mySide")?.int_in(0, SIDES as i64 - 1)? as usize;
    Ok((bricks, side))
}

fn side_name(side: usize) -> &'static str {
    if side == BLUE {
        "blue"
    } else {
        "red"
    }
}

/// Reads a pair of actions `[a0,a1]` of `side` (the opponent's in a later
/// request, or the bot's own in `responses`) against `field`, the field
/// before the turn. The judge is the authority: the game went on, so it
/// accepted both actions. Where the field disagrees, its word is taken and
/// [`PairRead::warnings`] says what happened:
/// - an action other than -1 for a tank destroyed here: ignored (this field
///   cannot bring a tank back);
/// - an action the rules reject here for a live tank: played as
///   [`TankAction::Stay`] (this field cannot play it).
///
/// # Errors
/// When the value is not an array of two integers in `-1..=7`.
pub fn read_pair(
    field: &Field,
    side: usize,
    value: &Value,
    path: &str,
) -> Result<PairRead, BotError> {
    let at = At::root(value, path);
    let items = at.array()?;
    if items.len() != TANKS_PER_SIDE {
        return Err(BotError::new(format!(
            "{path}: expected 2 actions, found {}",
            items.len()
        )));
    }
    let mut read = PairRead {
        pair: [TankAction::Stay; TANKS_PER_SIDE],
        warnings: Vec::new(),
    };
    for (t, slot) in read.pair.iter_mut().enumerate() {
        let code = at.index(t)?.int_in(-1, 7)?;
        let action = TankAction::from_code(code).unwrap_or(TankAction::Stay);
        let name = side_name(side);
        if !field.tank_alive(side, t) {
            if action != TankAction::Stay {
                read.warnings.push(format!(
                    "{path}[{t}]: action {code} for {name} tank {t}, which is destroyed in \
                     this bot's field: ignored"
                ));
            }
        } else if !field.is_valid(side, t, action) {
            read.warnings.push(format!(
                "{path}[{t}]: {name} tank {t} cannot play {code} on turn {} in this bot's \
                 field, yet the judge went on: played as staying",
                field.turn() + 1
            ));
        } else {
            *slot = action;
        }
    }
    Ok(read)
}

/// The answer `[a0,a1]`.
pub fn answer(pair: [TankAction; TANKS_PER_SIDE]) -> Value {
    Value::Array(
        pair.iter()
            .map(|a| Value::from(i64::from(a.code())))
            .collect(),
    )
}

/// A match as the bot sees it: the field, the bot's side, its last
/// answer (to pair with the opponent's actions in the next request), and
/// what the opponent played in each position so far.
#[derive(Clone, Debug)]
pub struct Tracker {
    field: Field,
    side: usize,
    last_answer: [TankAction; TANKS_PER_SIDE],
    opponent_moves: Vec<(u64, SideAction)>,
}

impl Tracker {
    /// A match from its first request.
    ///
    /// # Errors
    /// As [`read_start`].
    pub fn start(request: &Value, path: &str) -> Result<Tracker, BotError> {
        let (bricks, side) = read_start(request, path)?;
        Ok(Tracker {
            field: Field::new(bricks),
            side,
            last_answer: [TankAction::Stay; TANKS_PER_SIDE],
            opponent_moves: Vec::new(),
        })
    }

    /// The match rebuilt from a whole input (Botzone's traditional mode,
    /// and the first input of keep-running mode): the first request, then
    /// each turn from the bot's response and the opponent's request.
    ///
    /// # Errors
    /// As [`Tracker::start`] and [`Tracker::follow`], naming `requests[i]`
    /// or `responses[i]`.
    pub fn from_input(input: &Input) -> Result<Tracker, BotError> {
        let first = input.requests.first().unwrap_or(&Value::Null);
        let mut tracker = Tracker::start(first, "requests[0]")?;
        for (i, request) in input.requests.iter().enumerate().skip(1) {
            let response = input.responses.get(i - 1).unwrap_or(&Value::Null);
            let ours = tracker.read_own(response, &format!("responses[{}]", i - 1))?;
            tracker.play(ours, request, &format!("requests[{i}]"))?;
        }
        Ok(tracker)
    }

    /// Applies a later request (keep-running mode) with the answer last
    /// given through [`Tracker::answer`], or starts again when the request
    /// is a first one ([`is_start`]). Where the request contradicts the
    /// field (see [`read_pair`]) the judge's word is taken and [`warn`] says
    /// what happened; a request after the end of the game is ignored with a
    /// warning.
    ///
    /// # Errors
    /// When the request cannot be read.
    pub fn follow(&mut self, request: &Value, path: &str) -> Result<(), BotError> {
        if is_start(request) {
            *self = Tracker::start(request, path)?;
            return Ok(());
        }
        self.play(self.last_answer, request, path)
    }

    /// Records `pair` as this turn's answer (for the next [`Tracker::follow`])
    /// and gives it as the JSON response.
    pub fn answer(&mut self, pair: [TankAction; TANKS_PER_SIDE]) -> Value {
        self.last_answer = pair;
        answer(pair)
    }

    /// The bot's own actions of a turn from its recorded response.
    fn read_own(&self, response: &Value, path: &str) -> Result<[TankAction; 2], BotError> {
        let read = read_pair(&self.field, self.side, response, path)?;
        for warning in read.warnings {
            warn(warning);
        }
        Ok(read.pair)
    }

    /// Plays one turn: our `ours` and the opponent's `request`.
    fn play(
        &mut self,
        ours: [TankAction; TANKS_PER_SIDE],
        request: &Value,
        path: &str,
    ) -> Result<(), BotError> {
        let theirs = read_pair(&self.field, 1 - self.side, request, path)?;
        if self.field.is_over() {
            warn(format_args!(
                "{path}: the game ended on turn {} in this bot's field, yet the judge sent \
                 another turn: ignored",
                self.field.turn() + 1
            ));
            return Ok(());
        }
        for warning in theirs.warnings {
            warn(warning);
        }
        let mut joint = [[TankAction::Stay; TANKS_PER_SIDE]; SIDES];
        for (t, &action) in ours.iter().enumerate() {
            if !self.field.tank_alive(self.side, t) {
                continue;
            }
            if self.field.is_valid(self.side, t, action) {
                joint[self.side][t] = action;
            } else {
                warn(format_args!(
                    "{path}: this bot's last answer for its tank {t}, {}, is not valid on turn \
                     {}, yet the judge went on: played as staying",
                    action.code(),
                    self.field.turn() + 1
                ));
            }
        }
        joint[1 - self.side] = theirs.pair;
        self.opponent_moves
            .push((self.field.position_key(), SideAction(theirs.pair)));
        // Every action was checked against this field above.
        self.field.apply_unchecked(joint);
        Ok(())
    }

    /// The field so far.
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The field, for a search that plays and undoes turns on it (leave it
    /// as it was found).
    pub fn field_mut(&mut self) -> &mut Field {
        &mut self.field
    }

    /// The bot's side ([`BLUE`] or red).
    pub fn side(&self) -> usize {
        self.side
    }

    /// Each turn played so far, oldest first: the position before it
    /// ([`Field::position_key`]) and the opponent's pair as played there
    /// (for [`crate::search::repeat::repeated_reply`]).
    pub fn opponent_moves(&self) -> &[(u64, SideAction)] {
        &self.opponent_moves
    }

    /// The answer last given through [`Tracker::answer`].
    pub fn last_answer(&self) -> [TankAction; TANKS_PER_SIDE] {
        self.last_answer
    }
}
