//! The referee's side of the NOI line protocol ([`LineGame`]): `[START] m`
//! and its `[POS] x y` answer, then every turn the `[STATUS]` line to each
//! live player and its `[ACTION] D P` answer, and the `[SCORE]` line at the
//! end. (The bot's side is [`super::line_protocol`].)

use super::line_protocol::{action_line, parse_action, parse_pos, Status};
use super::{Command, Starts, State, PLAYERS};
use crate::games::line::LineGame;
use crate::json::{self, Value};
use crate::rng::Rng;

/// Where a start that is no vertex puts a player: off the board, dead.
const NO_START: (i32, i32) = (-1, -1);

impl LineGame for State {
    type Start = (u8, u8);

    fn start_message(player: usize) -> String {
        format!("[START] {player}")
    }

    fn read_start(line: &str) -> Option<(u8, u8)> {
        parse_pos(line)
    }

    fn start_line((x, y): (u8, u8)) -> String {
        format!("[POS] {x} {y}")
    }

    fn random_start(rng: &mut Rng) -> (u8, u8) {
        super::random_vertex(rng)
    }

    fn setup_from_starts(starts: &[Option<(u8, u8)>]) -> Starts {
        let mut out = [NO_START; PLAYERS];
        for (slot, start) in out.iter_mut().zip(starts) {
            if let Some((x, y)) = *start {
                *slot = (i32::from(x), i32::from(y));
            }
        }
        out
    }

    /// `{"positions":[[x,y],…]}` (`[-1,-1]` for a player without a start).
    fn initdata(starts: &Starts) -> Value {
        let positions = starts
            .iter()
            .map(|&(x, y)| Value::Array(vec![Value::from(x), Value::from(y)]))
            .collect();
        json::object([("positions", Value::Array(positions))])
    }

    fn setup_from_initdata(initdata: &Value) -> Starts {
        let mut out = [NO_START; PLAYERS];
        for (p, slot) in out.iter_mut().enumerate() {
            let xy = initdata.get("positions").and_then(|v| v.get_index(p));
            let coordinate = |i: usize| {
                xy.and_then(|v| v.get_index(i))
                    .and_then(crate::games::botzone::json_int)
            };
            if let (Some(x), Some(y)) = (coordinate(0), coordinate(1)) {
                *slot = (x as i32, y as i32);
            }
        }
        out
    }

    fn status(&self) -> String {
        Status::of(self).to_string()
    }

    fn read_action(line: &str) -> Option<Command> {
        parse_action(line)
    }

    fn action_line(command: Command) -> String {
        action_line(command)
    }

    fn action_text(command: Command) -> String {
        command.to_string()
    }

    const UNREADABLE: Command = Command::INVALID;

    fn score_line(&self) -> String {
        let s = self.scores_i32();
        format!("[SCORE] {} {} {} {}", s[0], s[1], s[2], s[3])
    }
}
