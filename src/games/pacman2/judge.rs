//! The Pacman2 judge (`cPacman2Judge`), as the official judge program
//! answers Botzone's judge protocol: the map from `initdata`, every
//! player's first request, then each turn the live players' actions (a
//! timeout forgiven once, anything else unreadable played as -10, which
//! kills), the turn's events in the display, and Botzone's scores at the
//! end. Checked against every recorded call of the official judge.

use super::{has, Action, Map, Pacman2, LARGE_FRUIT, PLAYERS, SMALL_FRUIT};
use crate::games::botzone::{answer_of, json_int, verdict_of, BotzoneGame, Judged};
use crate::json::{self, Map as Object, Value};

/// What the judge remembers between turns besides the game.
#[derive(Clone, Debug, Default)]
pub struct JudgeMemory {
    /// Players whose one timeout has been forgiven (played as staying).
    tolerated: [bool; PLAYERS],
    /// The judge's action array: the last action shown for each player (a
    /// dead player's stays as it was).
    last: [i64; PLAYERS],
}

/// `change` bits of the display's trace (`SerializeCurrentTurnChange`).
const ATE_SMALL: i64 = 1;
const ATE_LARGE: i64 = 2;
const POWER_UP_DROP: i64 = 4;
const DIE: i64 = 8;
const ERROR: i64 = 16;

/// Botzone shows at most this many bytes of a taunt.
const TAUNT_BYTES: usize = 40;

/// The map the judge plays for `initdata`: a `static` + `content` field
/// given there (its size drawn from `seed` as the judge draws it, a given
/// `width` or `height` in `6..12` replacing the drawn one), else the
/// judge's map of `seed` (of a given size in `6..12`); constants from
/// `initdata` when integers. The map keeps `seed`.
///
/// # Errors
/// When a given field cannot be read ([`Map::from_json`]).
pub fn map_from_initdata(initdata: &Value, seed: u32) -> Result<Map, super::InputError> {
    let is_array = |key: &str| initdata.get(key).and_then(Value::as_array).is_some();
    let mut map = if is_array("static") && is_array("content") {
        let mut given = initdata.as_object().cloned().unwrap_or_default();
        let drawn = Map::generate(seed);
        // The judge draws the size even when a field is given; a given
        // size in [6, 12) replaces the drawn one.
        for (key, value) in [("width", drawn.width), ("height", drawn.height)] {
            let ok = given
                .get(key)
                .and_then(json_int)
                .is_some_and(|v| (6..12).contains(&v));
            if !ok {
                given.insert(key, Value::from(value));
            }
        }
        Map::from_json(&Value::Object(given))?
    } else {
        let side = |key: &str| {
            initdata
                .get(key)
                .and_then(json_int)
                .and_then(|v| usize::try_from(v).ok())
        };
        Map::generate_sized(seed, side("width"), side("height"))
    };
    map.seed = Some(seed);
    let k = &mut map.constants;
    for (key, slot) in [
        ("GENERATOR_INTERVAL", &mut k.generator_interval),
        ("SKILL_COST", &mut k.skill_cost),
        ("LARGE_FRUIT_DURATION", &mut k.large_fruit_duration),
        ("LARGE_FRUIT_ENHANCEMENT", &mut k.large_fruit_enhancement),
    ] {
        if let Some(v) = initdata.get(key).and_then(json_int) {
            *slot = v as i32;
        }
    }
    Ok(map)
}

/// Whether the generators fill cell `(r, c)` of `game` in the coming turn:
/// their wave is due and the cell, next to a generator, holds no fruit.
fn fills(game: &Pacman2, r: usize, c: usize) -> bool {
    let cell = (r * game.width() + c) as u8;
    game.generator_turn_left() == 1
        && has(&game.board.spawn, cell)
        && game.content_at(r, c) & (SMALL_FRUIT | LARGE_FRUIT) == 0
}

/// The judge's `SerializeCurrentTurnChange` for the turn from `before` to
/// `after`: each player's action as shown (`last`, which keeps a dead
/// player's last action), strength change and events. `codes` are the
/// actions as given.
fn trace(
    before: &Pacman2,
    after: &Pacman2,
    codes: &[i64; PLAYERS],
    last: &mut [i64; PLAYERS],
) -> Value {
    let duration = before.constants().large_fruit_duration;
    let mut actions = Vec::new();
    let mut deltas = Vec::new();
    let mut changes = Vec::new();
    for p in 0..PLAYERS {
        let b = before.player(p);
        let a = after.player(p);
        let mut change = 0;
        if !b.dead {
            let action = Action::from_code(codes[p]);
            let error = codes[p] != -1 && !before.is_valid(p, action);
            let mut code = codes[p];
            if !error && action.is_move() && (a.row, a.col) == (b.row, b.col) {
                code = -1; // scared into staying by a stronger player
            }
            last[p] = code;
            if error {
                change = ERROR;
            } else {
                // Alive when fruit is eaten: alive after the turn, or killed
                // only by the end of a large fruit's boost.
                let expired = a.dead && b.power_up_left == 1 && a.power_up_left == 0;
                if !a.dead || expired {
                    let (r, c) = (a.row, a.col);
                    let had_small =
                        before.content_at(r, c) & SMALL_FRUIT != 0 || fills(before, r, c);
                    let has_small = after.content_at(r, c) & SMALL_FRUIT != 0;
                    let had_large = before.content_at(r, c) & LARGE_FRUIT != 0;
                    let has_large = after.content_at(r, c) & LARGE_FRUIT != 0;
                    let mut boost = b.power_up_left;
                    if had_small && !has_small {
                        change |= ATE_SMALL;
                    } else if had_large && !has_large {
                        change |= ATE_LARGE;
                        boost += duration;
                    }
                    if boost > 0 {
                        change |= POWER_UP_DROP;
                    }
                }
                if a.dead {
                    change |= DIE;
                }
            }
        }
        actions.push(Value::from(last[p]));
        deltas.push(Value::from(i64::from(a.strength - b.strength)));
        changes.push(Value::from(change));
    }
    json::object([
        ("actions", Value::Array(actions)),
        ("strengthDelta", Value::Array(deltas)),
        ("change", Value::Array(changes)),
    ])
}

/// The first `TAUNT_BYTES` bytes of a taunt, cut at a character boundary.
fn shown_taunt(t: &str) -> &str {
    let mut end = t.len().min(TAUNT_BYTES);
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    &t[..end]
}

impl BotzoneGame for Pacman2 {
    type JudgeMemory = JudgeMemory;

    fn setup_from_initdata(initdata: &Value, seed: u32) -> Result<Map, String> {
        map_from_initdata(initdata, seed).map_err(|e| e.to_string())
    }

    fn initdata(map: &Map) -> Value {
        // The map's own writer gives the judge's fields; as a value.
        Value::parse(&map.to_json()).unwrap_or_default()
    }

    fn first_request(map: &Map, player: usize) -> Value {
        Value::parse(&map.to_json_with_id(Some(player))).unwrap_or_default()
    }

    fn first_display(map: &Map) -> Value {
        Self::initdata(map)
    }

    #[allow(clippy::needless_range_loop)] // players index several arrays
    fn judge_turn(&mut self, memory: &mut JudgeMemory, answers: &Value, last: bool) -> Judged {
        let mut codes = [0i64; PLAYERS];
        // What the live players did (the display shows only these); the
        // players' requests add a `null` for each dead player, as the
        // official judge sends them.
        let mut request = Object::new();
        let mut dead = Vec::new();
        let mut shown = Vec::new();
        for p in 0..PLAYERS {
            let id = p.to_string();
            if !self.is_alive(p) {
                dead.push(id);
                shown.push("-".to_string());
                continue;
            }
            let entry = answers.get(&id).cloned().unwrap_or(Value::Null);
            let content = answer_of(&entry).filter(|c| c.as_object().is_some());
            let action = content
                .as_ref()
                .and_then(|c| c.get("action"))
                .and_then(json_int);
            let mut shown_entry = Object::new();
            if let Some(code) = action {
                codes[p] = code;
                shown_entry.insert("action", Value::from(code));
                if let Some(t) = content
                    .as_ref()
                    .and_then(|c| c.get("tauntText"))
                    .and_then(Value::as_str)
                {
                    shown_entry.insert("tauntText", Value::from(shown_taunt(t)));
                }
            } else if entry.get("error").and_then(Value::as_str) == Some("Timeout")
                && !memory.tolerated[p]
            {
                memory.tolerated[p] = true;
                codes[p] = -1;
                shown_entry.insert("action", Value::from(-1));
            } else {
                codes[p] = -10;
                shown_entry.insert("action", Value::from(-10));
                shown_entry.insert(
                    "reason",
                    Value::from(format!("INVALID_INPUT_VERDICT_{}", verdict_of(&entry))),
                );
            }
            shown.push(codes[p].to_string());
            request.insert(id, Value::Object(shown_entry));
        }
        let before = self.clone();
        let joint = codes.map(Action::from_code);
        self.apply_unchecked(&joint);
        let summary = format!("actions {}", shown.join(" "));
        let trace = trace(&before, self, &codes, &mut memory.last);
        if self.is_over() {
            let mut result = Object::new();
            for (p, s) in self.final_scores().iter().enumerate() {
                result.insert(p.to_string(), Value::from(*s));
            }
            let mut display = request;
            display.insert("result", Value::Object(result.clone()));
            display.insert("trace", trace);
            return Judged {
                finished: true,
                content: result,
                display: Value::Object(display),
                summary,
            };
        }
        let mut content = Object::new();
        let mut display = Value::Object(Object::new());
        if last {
            let mut shown = request.clone();
            shown.insert("trace", trace);
            display = Value::Object(shown);
            for entry in request.values_mut() {
                if let Value::Object(m) = entry {
                    m.remove("tauntText");
                }
            }
            for id in dead {
                request.insert(id, Value::Null);
            }
            for p in 0..PLAYERS {
                if self.is_alive(p) {
                    content.insert(p.to_string(), Value::Object(request.clone()));
                }
            }
        }
        Judged {
            finished: false,
            content,
            display,
            summary,
        }
    }

    fn answer(&self, _player: usize, action: Action) -> Value {
        super::protocol::answer(action, "")
    }

    fn read_answer(&self, _player: usize, answer: &Value) -> Option<Action> {
        let code = answer.get("action").and_then(json_int).unwrap_or(-10);
        Some(Action::from_code(code))
    }
}
