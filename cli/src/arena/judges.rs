//! The built-in judges: Pacman2 and Tank, answering Botzone's judge
//! protocol as the official judge programs do. Like them, each call replays
//! the whole log from the initial field.

use serde_json::{json, Map, Value};

use botzone::games::pacman2::{self, Action as PacAction, Pacman2, PLAYERS};

/// The judge's `initdata`, parsed when Botzone passed it as a string.
fn initdata_of(input: &Value) -> Value {
    match input.get("initdata") {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| json!({})),
        Some(v @ Value::Object(_)) => v.clone(),
        _ => json!({}),
    }
}

/// `seed` when it is an int, else the clock (as the judges' `time(0)`).
pub fn seed_of(initdata: &Value) -> u32 {
    match initdata.get("seed").and_then(json_int) {
        Some(s) => s as u32,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as u32),
    }
}

/// jsoncpp's `isInt()` then `asInt()`: integers (and integral reals) in the
/// 32-bit signed range.
pub fn json_int(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return (i32::MIN as i64..=i32::MAX as i64)
            .contains(&i)
            .then_some(i);
    }
    if let Some(u) = v.as_u64() {
        return (u <= i32::MAX as u64).then_some(u as i64);
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && f >= i32::MIN as f64 && f <= i32::MAX as f64).then_some(f as i64)
}

fn log_of(input: &Value) -> &[Value] {
    input
        .get("log")
        .and_then(Value::as_array)
        .map_or(&[], |v| v.as_slice())
}

/// A player's answer in a log entry: `response`, else `content`; a string
/// is parsed as JSON.
pub fn answer_of(raw: &Value) -> Option<Value> {
    let answer = match raw.get("response") {
        Some(v) if !v.is_null() => v,
        _ => raw.get("content")?,
    };
    match answer {
        Value::String(s) => serde_json::from_str(s).ok(),
        other => Some(other.clone()),
    }
}

fn to_lib_json(v: &Value) -> Result<botzone::json::Value, String> {
    botzone::json::Value::parse(&v.to_string()).map_err(|e| e.to_string())
}

// --------------------------------------------------------------------------
// Pacman2

/// The Pacman2 map for an `initdata`: a given `static` + `content` field,
/// else the judge's map of the seed; constants from `initdata` when ints.
pub fn pacman2_map(initdata: &Value, seed: u32) -> Result<pacman2::Map, String> {
    let has_field = initdata.get("static").is_some_and(Value::is_array)
        && initdata.get("content").is_some_and(Value::is_array);
    let mut map = if has_field {
        let mut given = initdata.clone();
        let drawn = pacman2::Map::generate(seed);
        // The judge draws the size even when a field is given; a given size
        // in [6, 12) replaces the drawn one.
        for (key, value) in [("width", drawn.width), ("height", drawn.height)] {
            let ok = given
                .get(key)
                .and_then(json_int)
                .is_some_and(|v| (6..12).contains(&v));
            if !ok {
                given[key] = json!(value);
            }
        }
        pacman2::Map::from_json(&to_lib_json(&given)?).map_err(|e| format!("initdata: {e}"))?
    } else {
        // The judge draws a field of a given size in [6, 12).
        let side = |key: &str| {
            initdata
                .get(key)
                .and_then(json_int)
                .and_then(|v| usize::try_from(v).ok())
        };
        pacman2::Map::generate_sized(seed, side("width"), side("height"))
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

const ATE_SMALL: i64 = 1;
const ATE_LARGE: i64 = 2;
const POWER_UP_DROP: i64 = 4;
const DIE: i64 = 8;
const ERROR: i64 = 16;

/// The judge's `SerializeCurrentTurnChange` for the turn from `before` to
/// `after` (`codes`: the actions as given; `last`: the judge's action array,
/// which keeps a dead player's last action).
fn pacman2_trace(
    before: &Pacman2,
    after: &Pacman2,
    codes: &[i64; PLAYERS],
    last: &mut [i64; PLAYERS],
) -> Value {
    let (h, w) = (before.height(), before.width());
    // Cells the generators fill this turn (before anybody eats).
    let generating = before.generator_turn_left() == 1;
    let spawned = |r: usize, c: usize| -> bool {
        if !generating || before.static_at(r, c) & pacman2::GENERATOR != 0 {
            return false;
        }
        if before.content_at(r, c) & (pacman2::SMALL_FRUIT | pacman2::LARGE_FRUIT) != 0 {
            return false;
        }
        const D: [(i64, i64); 8] = [
            (-1, 0),
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 1),
            (1, 1),
            (1, -1),
            (-1, -1),
        ];
        D.iter().any(|&(dr, dc)| {
            let gr = (r as i64 - dr).rem_euclid(h as i64) as usize;
            let gc = (c as i64 - dc).rem_euclid(w as i64) as usize;
            before.static_at(gr, gc) & pacman2::GENERATOR != 0
        })
    };
    let duration = before.constants().large_fruit_duration;
    let mut actions = Vec::new();
    let mut deltas = Vec::new();
    let mut changes = Vec::new();
    for p in 0..PLAYERS {
        let b = before.player(p);
        let a = after.player(p);
        let mut change = 0;
        if !b.dead {
            let action = PacAction::from_code(codes[p]);
            let error = codes[p] != -1 && !before.is_valid(p, action);
            let mut code = codes[p];
            if !error && action.is_move() && (a.row, a.col) == (b.row, b.col) {
                code = -1; // blocked by a stronger player
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
                        before.content_at(r, c) & pacman2::SMALL_FRUIT != 0 || spawned(r, c);
                    let has_small = after.content_at(r, c) & pacman2::SMALL_FRUIT != 0;
                    let had_large = before.content_at(r, c) & pacman2::LARGE_FRUIT != 0;
                    let has_large = after.content_at(r, c) & pacman2::LARGE_FRUIT != 0;
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
        actions.push(json!(last[p]));
        deltas.push(json!(a.strength - b.strength));
        changes.push(json!(change));
    }
    json!({"actions": actions, "strengthDelta": deltas, "change": changes})
}

/// The Pacman2 judge (`cPacman2Judge`): the map from `initdata` on the first
/// turn, the players' requests, scores on finish.
///
/// # Errors
/// When `initdata` holds a field that cannot be read.
pub fn pacman2(input: &Value) -> Result<Value, String> {
    let initdata = initdata_of(input);
    let seed = seed_of(&initdata);
    let map = pacman2_map(&initdata, seed)?;
    let init: Value = serde_json::from_str(&map.to_json()).map_err(|e| e.to_string())?;
    let log = log_of(input);
    if log.is_empty() {
        let mut content = Map::new();
        for p in 0..PLAYERS {
            let mut req = init.clone();
            req["id"] = json!(p);
            content.insert(p.to_string(), req);
        }
        return Ok(json!({
            "command": "request",
            "content": content,
            "display": init,
            "initdata": init,
        }));
    }
    let mut game = Pacman2::new(&map);
    let mut tolerated = [false; PLAYERS];
    let mut last = [0i64; PLAYERS];
    let mut output = Map::new();
    let mut i = 1;
    while i < log.len() {
        let is_last = i == log.len() - 1;
        let response = &log[i];
        let mut codes = [0i64; PLAYERS];
        // What the live players did (the display shows only these); the
        // players' request adds a `null` for each dead player, as the
        // official judge sends it.
        let mut request = Map::new();
        let mut dead = Vec::new();
        for p in 0..PLAYERS {
            if !game.is_alive(p) {
                dead.push(p.to_string());
                continue;
            }
            let id = p.to_string();
            let raw = response.get(&id).cloned().unwrap_or(Value::Null);
            let content = answer_of(&raw).filter(Value::is_object);
            let action = content
                .as_ref()
                .and_then(|c| c.get("action"))
                .and_then(json_int);
            let mut entry = Map::new();
            if let Some(code) = action {
                codes[p] = code;
                entry.insert("action".into(), json!(code));
                if let Some(Value::String(t)) = content.as_ref().and_then(|c| c.get("tauntText")) {
                    let mut end = t.len().min(40);
                    while !t.is_char_boundary(end) {
                        end -= 1;
                    }
                    entry.insert("tauntText".into(), json!(&t[..end]));
                }
            } else if raw.get("error").and_then(Value::as_str) == Some("Timeout") && !tolerated[p] {
                tolerated[p] = true;
                codes[p] = -1;
                entry.insert("action".into(), json!(-1));
            } else {
                codes[p] = -10;
                entry.insert("action".into(), json!(-10));
                let verdict = match raw.get("verdict") {
                    Some(Value::String(s)) => s.clone(),
                    _ => String::new(),
                };
                entry.insert(
                    "reason".into(),
                    json!(format!("INVALID_INPUT_VERDICT_{verdict}")),
                );
            }
            request.insert(id, Value::Object(entry));
        }
        let before = game.clone();
        let joint: Vec<PacAction> = codes.iter().map(|&c| PacAction::from_code(c)).collect();
        let continues = game.apply(&joint);
        if !continues {
            let scores = game.final_scores();
            let mut result = Map::new();
            for (p, s) in scores.iter().enumerate() {
                result.insert(p.to_string(), json!(s));
            }
            let mut display = request.clone();
            display.insert("result".into(), Value::Object(result.clone()));
            display.insert(
                "trace".into(),
                pacman2_trace(&before, &game, &codes, &mut last),
            );
            output.insert("command".into(), json!("finish"));
            output.insert("content".into(), Value::Object(result));
            output.insert("display".into(), Value::Object(display));
            return Ok(Value::Object(output));
        }
        let trace = pacman2_trace(&before, &game, &codes, &mut last);
        if is_last {
            let mut display = request.clone();
            display.insert("trace".into(), trace);
            for entry in request.values_mut() {
                if let Value::Object(m) = entry {
                    m.remove("tauntText");
                }
            }
            for id in dead {
                request.insert(id, Value::Null);
            }
            let mut content = Map::new();
            for p in 0..PLAYERS {
                if game.is_alive(p) {
                    content.insert(p.to_string(), Value::Object(request.clone()));
                }
            }
            output.insert("command".into(), json!("request"));
            output.insert("content".into(), Value::Object(content));
            output.insert("display".into(), Value::Object(display));
        }
        i += 2;
    }
    if output.is_empty() {
        return Err("the log ends with the judge's turn: nothing to judge".into());
    }
    Ok(Value::Object(output))
}

// --------------------------------------------------------------------------
// Tank

/// The Tank (2018) judge. Its source is not public; this follows the judge
/// protocol as the Tank2 judge (written "upgraded from zhouhy", the Tank
/// judge's author) shows it, with the 2018 field: `initdata` `field`,
/// `maxTurn`, `seed`; first requests `{"field":…,"mySide":s}`; later each
/// side gets the other's last actions (-1 for a destroyed tank or an invalid
/// action); an invalid answer loses at once (both: draw); win 2, draw 1,
/// loss 0.
///
/// # Errors
/// When `initdata.field` is not three integers.
pub fn tank(input: &Value) -> Result<Value, String> {
    use botzone::games::tank::{self as t, Field, Outcome, TankAction};
    let initdata = initdata_of(input);
    let max_turn = initdata
        .get("maxTurn")
        .and_then(json_int)
        .unwrap_or(t::MAX_TURN as i64);
    let seed = seed_of(&initdata);
    let bricks: t::Bricks = match initdata.get("field") {
        Some(Value::Array(a)) if !a.is_empty() => {
            let mut b = [0u32; 3];
            for (i, slot) in b.iter_mut().enumerate() {
                *slot = a
                    .get(i)
                    .and_then(json_int)
                    .ok_or_else(|| format!("initdata.field[{i}]: expected an integer"))?
                    as u32;
            }
            b
        }
        _ => t::bricks_from_seed(seed),
    };
    let init = json!({"field": bricks, "maxTurn": max_turn, "seed": seed});
    let log = log_of(input);
    if log.is_empty() {
        let mut content = Map::new();
        for side in 0..t::SIDES {
            content.insert(side.to_string(), json!({"field": bricks, "mySide": side}));
        }
        return Ok(json!({
            "command": "request",
            "content": content,
            "display": bricks,
            "initdata": init,
        }));
    }
    let mut field = Field::with_max_turn(bricks, max_turn.clamp(0, t::TURN_CAPACITY as i64) as u32);
    let mut output = Map::new();
    let mut content = Map::new();
    let mut display = Map::new();
    let mut lose_reason = vec![Value::Null; 0];
    let set_reason = |reasons: &mut Vec<Value>, side: usize, why: String| {
        while reasons.len() <= side {
            reasons.push(Value::Null);
        }
        reasons[side] = json!(why);
    };
    let mut i = 1;
    while i < log.len() {
        let is_last = i == log.len() - 1;
        let response = &log[i];
        let mut invalid = [false; t::SIDES];
        let mut joint = [[TankAction::Stay; 2]; 2];
        for side in 0..t::SIDES {
            let raw = response
                .get(side.to_string())
                .cloned()
                .unwrap_or(Value::Null);
            let answer = answer_of(&raw);
            let codes = answer.as_ref().and_then(Value::as_array).and_then(|a| {
                let a0 = a.first().and_then(json_int)?;
                let a1 = a.get(1).and_then(json_int)?;
                Some([a0, a1])
            });
            if let Some(codes) = codes {
                let mut ok = true;
                let mut shown = [codes[0], codes[1]];
                for tank in 0..t::TANKS_PER_SIDE {
                    let alive = field.tank_alive(side, tank);
                    let valid = match TankAction::from_code(codes[tank]) {
                        Some(a) => {
                            joint[side][tank] = if alive { a } else { TankAction::Stay };
                            !alive || field.is_valid(side, tank, a)
                        }
                        None => !alive,
                    };
                    if !alive || !valid {
                        shown[tank] = -1;
                    }
                    ok &= valid;
                }
                if is_last {
                    display.insert(side.to_string(), json!(codes));
                    content.insert((1 - side).to_string(), json!(shown));
                }
                if ok {
                    continue;
                }
            }
            invalid[side] = true;
            let verdict = match raw.get("verdict") {
                Some(Value::String(s)) => s.clone(),
                _ => String::new(),
            };
            set_reason(
                &mut lose_reason,
                side,
                format!("INVALID_INPUT_VERDICT_{verdict}"),
            );
        }
        let finish = |output: &mut Map<String, Value>, winner: Option<usize>| {
            let scores = match winner {
                None => [1, 1],
                Some(0) => [2, 0],
                Some(_) => [0, 2],
            };
            output.insert("command".into(), json!("finish"));
            output.insert("content".into(), json!({"0": scores[0], "1": scores[1]}));
        };
        if invalid[0] || invalid[1] {
            let winner = match invalid {
                [true, true] => None,
                [true, false] => Some(1),
                _ => Some(0),
            };
            finish(&mut output, winner);
            break;
        }
        field.apply_unchecked(joint);
        match field.outcome() {
            Outcome::Ongoing => {
                if is_last {
                    output.insert("command".into(), json!("request"));
                    output.insert(
                        "content".into(),
                        Value::Object(std::mem::take(&mut content)),
                    );
                }
            }
            result => {
                finish(
                    &mut output,
                    if let Outcome::Win(s) = result {
                        Some(s)
                    } else {
                        None
                    },
                );
                for side in 0..t::SIDES {
                    let tanks = field.tank_alive(side, 0) || field.tank_alive(side, 1);
                    let base = field.base_alive(side);
                    let why = match (tanks, base) {
                        (false, false) => "BASE_TANK_ALL_DESTROYED",
                        (false, true) => "TANK_ALL_DESTROYED",
                        (true, false) => "BASE_DESTROYED",
                        (true, true) => continue,
                    };
                    set_reason(&mut lose_reason, side, why.to_string());
                }
                break;
            }
        }
        i += 2;
    }
    if !lose_reason.is_empty() {
        display.insert("loseReason".into(), Value::Array(lose_reason));
    }
    if output.is_empty() {
        return Err("the log ends with the judge's turn: nothing to judge".into());
    }
    output.insert("display".into(), Value::Object(display));
    Ok(Value::Object(output))
}
