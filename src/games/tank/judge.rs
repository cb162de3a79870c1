//! The Tank (2018) judge. Its source is not public; this follows the judge
//! protocol as the Tank2 judge (written "upgraded from zhouhy", the Tank
//! judge's author) shows it, with the 2018 field: `initdata` `field`,
//! `maxTurn`, `seed`; first requests `{"field":…,"mySide":s}`; later each
//! side gets the other's last actions (-1 for a destroyed tank or an invalid
//! action); an invalid answer loses at once (both: draw); win 2, draw 1,
//! loss 0. Checked against every recorded call of the official judge.

use super::{Field, Map, Outcome, SideAction, TankAction, SIDES, TANKS_PER_SIDE};
use crate::games::botzone::{answer_of, json_int, verdict_of, BotzoneGame, Judged};
use crate::json::{self, Map as Object, Value};

/// The field the judge plays for `initdata`: its `field` (three
/// integers) when given, else the field of `seed`; `maxTurn` when an
/// integer, else 100. The map keeps `seed`.
///
/// # Errors
/// When `field` is given but is not three integers.
pub fn map_from_initdata(initdata: &Value, seed: u32) -> Result<Map, String> {
    let max_turns = initdata
        .get("maxTurn")
        .and_then(json_int)
        .map_or(super::MAX_TURNS as i32, |v| v as i32);
    let bricks = match initdata.get("field").and_then(Value::as_array) {
        Some(items) if !items.is_empty() => {
            let mut bricks = [0u32; 3];
            for (i, slot) in bricks.iter_mut().enumerate() {
                *slot = items
                    .get(i)
                    .and_then(json_int)
                    .ok_or_else(|| format!("field[{i}]: expected an integer"))?
                    as u32;
            }
            bricks
        }
        _ => super::bricks_from_seed(seed),
    };
    Ok(Map {
        bricks,
        max_turns,
        seed: Some(seed),
    })
}

/// A side's pair of action codes in an answer `[a0, a1]` (integers as the
/// judge reads them), if it is one.
fn codes_of(answer: &Value) -> Option<[i64; TANKS_PER_SIDE]> {
    let a = answer.as_array()?;
    Some([a.first().and_then(json_int)?, a.get(1).and_then(json_int)?])
}

/// A pair of codes read against `field` for `side`: the pair played (a
/// destroyed tank stays), the pair the other side is shown (-1 for a
/// destroyed tank or an invalid action), and whether the judge accepts it
/// (every live tank's action valid).
fn read_pair(field: &Field, side: usize, codes: [i64; 2]) -> ([TankAction; 2], [i64; 2], bool) {
    let mut played = [TankAction::Stay; TANKS_PER_SIDE];
    let mut shown = codes;
    let mut ok = true;
    for tank in 0..TANKS_PER_SIDE {
        let alive = field.tank_alive(side, tank);
        let valid = match TankAction::from_code(codes[tank]) {
            Some(a) => {
                played[tank] = if alive { a } else { TankAction::Stay };
                !alive || field.is_valid(side, tank, a)
            }
            None => !alive,
        };
        if !alive || !valid {
            shown[tank] = -1;
        }
        ok &= valid;
    }
    (played, shown, ok)
}

/// What the Tank judge remembers between turns: nothing.
pub type JudgeMemory = ();

impl BotzoneGame for Field {
    type JudgeMemory = JudgeMemory;

    fn setup_from_initdata(initdata: &Value, seed: u32) -> Result<Map, String> {
        map_from_initdata(initdata, seed)
    }

    fn initdata(map: &Map) -> Value {
        Value::parse(&map.to_json()).unwrap_or_default()
    }

    fn first_request(map: &Map, player: usize) -> Value {
        json::object([
            ("field", bricks_value(map)),
            ("mySide", Value::from(player)),
        ])
    }

    fn first_display(map: &Map) -> Value {
        bricks_value(map)
    }

    fn judge_turn(&mut self, _: &mut (), answers: &Value, last: bool) -> Judged {
        let mut invalid = [false; SIDES];
        let mut joint = [[TankAction::Stay; TANKS_PER_SIDE]; SIDES];
        let mut content = Object::new();
        let mut display = Object::new();
        let mut lose_reason: Vec<Value> = Vec::new();
        let mut set_reason = |side: usize, why: String| {
            while lose_reason.len() <= side {
                lose_reason.push(Value::Null);
            }
            lose_reason[side] = Value::from(why);
        };
        let mut summary = Vec::new();
        for (side, pair) in joint.iter_mut().enumerate() {
            let entry = answers
                .get(&side.to_string())
                .cloned()
                .unwrap_or(Value::Null);
            if let Some(codes) = answer_of(&entry).as_ref().and_then(codes_of) {
                summary.push(format!("[{}, {}]", codes[0], codes[1]));
                let (played, shown, ok) = read_pair(self, side, codes);
                *pair = played;
                if last {
                    display.insert(side.to_string(), codes_value(codes));
                    content.insert((1 - side).to_string(), codes_value(shown));
                }
                if ok {
                    continue;
                }
            } else {
                summary.push("none".into());
            }
            invalid[side] = true;
            set_reason(
                side,
                format!("INVALID_INPUT_VERDICT_{}", verdict_of(&entry)),
            );
        }
        let mut summary = format!("actions {}", summary.join(" "));
        let winner = if invalid[0] || invalid[1] {
            let sides: Vec<usize> = (0..SIDES).filter(|&s| invalid[s]).collect();
            summary += &format!(" — invalid answer from side {sides:?}: game over");
            Some(match invalid {
                [true, true] => None,
                [true, false] => Some(1),
                _ => Some(0),
            })
        } else {
            self.apply_unchecked(joint);
            match self.outcome() {
                Outcome::Ongoing => None,
                result => {
                    for side in 0..SIDES {
                        let tanks = self.tank_alive(side, 0) || self.tank_alive(side, 1);
                        let why = match (tanks, self.base_alive(side)) {
                            (false, false) => "BASE_TANK_ALL_DESTROYED",
                            (false, true) => "TANK_ALL_DESTROYED",
                            (true, false) => "BASE_DESTROYED",
                            (true, true) => continue,
                        };
                        set_reason(side, why.to_string());
                    }
                    Some(match result {
                        Outcome::Win(s) => Some(s),
                        _ => None,
                    })
                }
            }
        };
        if !lose_reason.is_empty() {
            display.insert("loseReason", Value::Array(lose_reason));
        }
        let finished = winner.is_some();
        if let Some(winner) = winner {
            let scores = match winner {
                None => [1, 1],
                Some(0) => [2, 0],
                Some(_) => [0, 2],
            };
            content = json::object([("0", Value::from(scores[0])), ("1", Value::from(scores[1]))])
                .as_object()
                .cloned()
                .unwrap_or_default();
        }
        Judged {
            finished,
            content,
            display: Value::Object(display),
            summary,
        }
    }

    fn answer(&self, _side: usize, action: SideAction) -> Value {
        super::protocol::answer(action.0)
    }

    fn read_answer(&self, side: usize, answer: &Value) -> Option<SideAction> {
        let (played, _, ok) = read_pair(self, side, codes_of(answer)?);
        ok.then_some(SideAction(played))
    }
}

fn bricks_value(map: &Map) -> Value {
    Value::Array(
        map.bricks
            .iter()
            .map(|&b| Value::from(i64::from(b)))
            .collect(),
    )
}

fn codes_value(codes: [i64; 2]) -> Value {
    Value::Array(codes.iter().map(|&c| Value::from(c)).collect())
}
