//! Tank: the simulator against the Botzone judge's own fields and games,
//! undo round trips, and no heap allocation on the hot paths.

mod common;

use std::path::Path;

use botzone::games::tank::{
    bricks_from_seed, cell, item, step, Field, Outcome, SideAction, SideActions, TankAction,
    TankActions, TurnError, CELLS,
};
use botzone::games::Game;
use botzone::rng::Rng;
use serde_json::Value;

fn read_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn bricks_of(v: &Value) -> [u32; 3] {
    let a = v.as_array().expect("field array");
    assert_eq!(a.len(), 3);
    [0, 1, 2].map(|i| a[i].as_u64().expect("brick int") as u32)
}

/// Checks every seed of a `tank_fields.jsonl`; returns how many.
fn check_fields(path: &Path) -> usize {
    let lines = read_lines(path);
    for line in &lines {
        let seed = line["seed"].as_u64().expect("seed") as u32;
        let ours = bricks_from_seed(seed);
        assert_eq!(ours, bricks_of(&line["field"]), "field of seed {seed}");
        assert_eq!(line["maxTurn"].as_u64(), Some(100), "seed {seed}");
    }
    lines.len()
}

/// Compares a field with a trace `state`.
fn assert_state(f: &Field, state: &Value, at: &str) {
    assert_eq!(
        u64::from(f.turn()) + 1,
        state["turn"].as_u64().unwrap(),
        "{at}: the judge's turn number"
    );
    let rows = state["field"].as_array().unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, v) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(
                u64::from(f.at(x, y)),
                v.as_u64().unwrap(),
                "{at}: cell ({x}, {y})\n{f}"
            );
        }
    }
    for side in 0..2 {
        assert_eq!(
            f.base_alive(side),
            state["base_alive"][side].as_bool().unwrap(),
            "{at}: base {side}"
        );
        for tank in 0..2 {
            let t = &state["tanks"][side * 2 + tank];
            assert_eq!(
                f.tank_alive(side, tank),
                t[0].as_bool().unwrap(),
                "{at}: tank alive"
            );
            let (x, y) = f
                .tank_position(side, tank)
                .map_or((-1, -1), |(x, y)| (x as i64, y as i64));
            assert_eq!(
                (x, y),
                (t[1].as_i64().unwrap(), t[2].as_i64().unwrap()),
                "{at}: tank"
            );
        }
    }
    assert_eq!(
        f.outcome().code() as i64,
        state["result"].as_i64().unwrap(),
        "{at}: result"
    );
}

/// Plays a trace file forward and back; returns (games, turns).
fn check_trace(path: &Path) -> (usize, usize) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let lines = read_lines(path);
    let (mut games, mut turns) = (0, 0);
    let mut i = 0;
    while i < lines.len() {
        let head = &lines[i];
        assert_eq!(
            head["game"],
            "tank",
            "{name}: line {} is not a game header",
            i + 1
        );
        let mut field = Field::new(bricks_of(&head["field"]));
        let mut history = vec![field.clone()];
        i += 1;
        while i < lines.len() && lines[i].get("actions").is_some() {
            let at = format!("{name} line {}", i + 1);
            assert!(!field.is_over(), "{at}: the game was already over");
            let a: Vec<TankAction> = lines[i]["actions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| TankAction::try_from(v.as_i64().unwrap()).unwrap())
                .collect();
            let joint = [[a[0], a[1]], [a[2], a[3]]];
            field.check(joint).unwrap_or_else(|e| panic!("{at}: {e}"));
            // Apply through the Game trait half the time.
            if turns % 2 == 0 {
                field.apply_unchecked(joint);
            } else {
                Game::apply_unchecked(&mut field, &[SideAction(joint[0]), SideAction(joint[1])]);
            }
            assert_state(&field, &lines[i]["state"], &at);
            history.push(field.clone());
            turns += 1;
            i += 1;
        }
        assert!(
            field.is_over(),
            "{name}: game {games} ended before its result"
        );
        history.pop();
        while let Some(before) = history.pop() {
            assert!(field.undo());
            assert_eq!(field, before, "{name}: undo of game {games}");
        }
        assert!(!field.undo());
        games += 1;
    }
    (games, turns)
}

#[test]
fn fields_match_the_judge_for_seeds_1_to_200() {
    assert_eq!(
        check_fields(&common::fixture("tank/tank_fields.jsonl")),
        200
    );
}

macro_rules! trace_tests {
    ($($name:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            let (games, turns) = check_trace(&common::fixture(concat!("tank/tank_traces/", $file)));
            assert_eq!(games, 30);
            assert!(turns > 0);
        }
    )*};
}

trace_tests! {
    trace_field1 => "field1.jsonl",
    trace_field2 => "field2.jsonl",
    trace_field3 => "field3.jsonl",
    trace_field4 => "field4.jsonl",
    trace_field5 => "field5.jsonl",
    trace_field6 => "field6.jsonl",
    trace_field7 => "field7.jsonl",
    trace_field8 => "field8.jsonl",
    trace_field9 => "field9.jsonl",
    trace_field10 => "field10.jsonl",
}

/// `BOTZONE_GOLDEN_DIR=/path` checks that directory's `tank_fields.jsonl`
/// and `tank_traces/*.jsonl` too, and says how much it checked.
#[test]
fn golden_dir_from_the_environment() {
    let Ok(dir) = std::env::var("BOTZONE_GOLDEN_DIR") else {
        eprintln!("BOTZONE_GOLDEN_DIR not set: nothing extra checked");
        return;
    };
    let dir = Path::new(&dir);
    let fields_path = dir.join("tank_fields.jsonl");
    let fields = if fields_path.exists() {
        check_fields(&fields_path)
    } else {
        0
    };
    let (mut files, mut games, mut turns) = (0, 0, 0);
    if let Ok(entries) = std::fs::read_dir(dir.join("tank_traces")) {
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        paths.sort();
        for p in paths {
            let (g, t) = check_trace(&p);
            files += 1;
            games += g;
            turns += t;
        }
    }
    eprintln!(
        "BOTZONE_GOLDEN_DIR {}: {fields} tank fields, {files} trace files, {games} games, {turns} turns checked",
        dir.display()
    );
    assert!(
        fields + files > 0,
        "{} holds no Tank golden data",
        dir.display()
    );
}

fn random_turn(f: &Field, rng: &mut Rng, buf: &mut TankActions) -> [[TankAction; 2]; 2] {
    let mut joint = [[TankAction::Stay; 2]; 2];
    for (side, pair) in joint.iter_mut().enumerate() {
        for (tank, a) in pair.iter_mut().enumerate() {
            f.legal_tank_actions(side, tank, buf);
            *a = buf[rng.index(buf.len())];
        }
    }
    joint
}

#[test]
fn legal_actions_are_exactly_the_valid_ones() {
    let mut rng = Rng::new(7);
    let mut tank_buf = TankActions::new();
    let mut side_buf = SideActions::new();
    for seed in 1..=20 {
        let mut f = Field::new(bricks_from_seed(seed));
        while !f.is_over() {
            for side in 0..2 {
                for tank in 0..2 {
                    f.legal_tank_actions(side, tank, &mut tank_buf);
                    for a in TankAction::ALL {
                        let listed = tank_buf.contains(&a);
                        if f.tank_alive(side, tank) {
                            assert_eq!(listed, f.is_valid(side, tank, a), "{a:?}\n{f}");
                        } else {
                            assert_eq!(&*tank_buf, &[TankAction::Stay]);
                        }
                    }
                }
                f.legal_side_actions(side, &mut side_buf);
                let n0 = f.valid_mask(side * 2).count_ones();
                let n1 = f.valid_mask(side * 2 + 1).count_ones();
                assert_eq!(side_buf.len() as u32, n0 * n1);
            }
            let joint = random_turn(&f, &mut rng, &mut tank_buf);
            f.try_apply(joint).unwrap();
        }
    }
}

#[test]
fn invalid_actions_are_rejected_and_leave_the_field_unchanged() {
    let mut f = Field::new(bricks_from_seed(1));
    let start = f.clone();
    // Blue tank 0 at (2,0) cannot move up (off the board).
    let err = f
        .try_apply([[TankAction::Up, TankAction::Stay], [TankAction::Stay; 2]])
        .unwrap_err();
    let TurnError::Invalid(err) = err else {
        panic!("{err}")
    };
    assert_eq!((err.side, err.tank), (0, 0));
    assert_eq!(f, start);
    // Shooting twice in a row.
    f.try_apply([
        [TankAction::DownShoot, TankAction::Stay],
        [TankAction::Stay; 2],
    ])
    .unwrap();
    let err = f
        .try_apply([
            [TankAction::DownShoot, TankAction::Stay],
            [TankAction::Stay; 2],
        ])
        .unwrap_err();
    let TurnError::Invalid(err) = err else {
        panic!("{err}")
    };
    assert_eq!(
        (err.side, err.tank, err.action),
        (0, 0, TankAction::DownShoot)
    );
    assert!(err.to_string().contains("shot last turn"));
}

#[test]
fn mutual_shots_spare_lone_tanks_but_not_stacked_ones() {
    // An empty field: only bases, steel and tanks.
    let mut f = Field::new([0; 3]);
    use TankAction::*;
    // Blue 0 (2,0) and red 1 (2,8) face each other down column 2.
    f.try_apply([[DownShoot, Stay], [Stay, UpShoot]]).unwrap();
    assert!(f.tank_alive(0, 0) && f.tank_alive(1, 1), "mutual shot\n{f}");
    // Now red 1 shoots while blue 0 cannot (it shot last turn): blue 0 dies.
    f.try_apply([[Stay, Stay], [Stay, Stay]]).unwrap();
    f.try_apply([[Down, Stay], [Stay, UpShoot]]).unwrap();
    assert!(!f.tank_alive(0, 0), "{f}");
    assert_eq!(f.tank_position(0, 0), None);
    assert_eq!(f.outcome(), Outcome::Ongoing);
    // Undo brings it back where it stood.
    assert!(f.undo());
    assert_eq!(f.tank_position(0, 0), Some((2, 0)));
    assert_eq!(f.at(2, 0), item::BLUE0);
}

#[test]
fn a_shot_base_loses_and_scores_are_botzones() {
    use TankAction::*;
    let mut f = Field::new([0; 3]);
    // Red 1 (2,8) moves right to (3,8), next to the red base at (4,8);
    // then blue 0 walks... simpler: red 0 (6,8) shoots left into the red base.
    f.try_apply([[Stay; 2], [LeftShoot, Stay]]).unwrap();
    assert!(!f.base_alive(1));
    assert_eq!(f.outcome(), Outcome::Win(0));
    let mut scores = [0.0; 2];
    f.scores(&mut scores);
    assert_eq!(scores, [2.0, 0.0]);
    assert!(f.is_over());
    assert!(!Game::is_active(&f, 0));
    assert!(f.undo());
    assert_eq!(f, Field::new([0; 3]));
    f.scores(&mut scores);
    assert_eq!(scores, [1.0, 1.0]);
}

#[test]
fn turn_limit_draws() {
    let mut f = Field::with_max_turns([0; 3], 3);
    for _ in 0..3 {
        assert!(!f.is_over());
        f.try_apply([[TankAction::Stay; 2]; 2]).unwrap();
    }
    assert_eq!(f.outcome(), Outcome::Draw);
    assert_eq!(Field::new([0; 3]).max_turns(), 100);
}

#[test]
fn rendering_shows_the_legend() {
    let f = Field::new(bricks_from_seed(1));
    let text = f.to_string();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0].len(), 9);
    assert_eq!(&rows[0][2..3], "b");
    assert_eq!(&rows[0][4..5], "*");
    assert_eq!(&rows[1][4..5], "%");
    assert_eq!(&rows[8][2..3], "R");
    assert_eq!(&rows[8][6..7], "r");
    assert!(text.contains("turn 1: not finished"), "{text}");
}

#[test]
fn random_games_undo_exactly_and_keys_follow_the_position() {
    let mut rng = Rng::new(42);
    let mut buf = TankActions::new();
    for seed in 1..=30 {
        let mut f = Field::new(bricks_from_seed(seed));
        let mut history = vec![f.clone()];
        let mut keys = vec![f.key()];
        while !f.is_over() {
            let joint = random_turn(&f, &mut rng, &mut buf);
            f.apply_unchecked(joint);
            // Brick bits agree with the cells.
            let bits = (0..CELLS)
                .filter(|&c| f.at_cell(c) & item::BRICK != 0)
                .fold(0u128, |b, c| b | 1 << c);
            assert_eq!(bits, f.brick_bits());
            history.push(f.clone());
            keys.push(f.key());
        }
        history.pop();
        keys.pop();
        while let Some(before) = history.pop() {
            f.undo();
            assert_eq!(f, before);
            assert_eq!(f.key(), keys.pop().unwrap());
        }
    }
}

#[test]
fn no_heap_allocation_in_legal_actions_apply_undo_or_a_rollout() {
    let mut f = Field::new(bricks_from_seed(3));
    let mut rng = Rng::new(1);
    let mut tank_buf = TankActions::new();
    let mut side_buf = SideActions::new();
    let (turns, allocations) = common::count_allocations(|| {
        let mut total = 0u64;
        for _ in 0..200 {
            let mut n = 0;
            while !Game::is_over(&f) {
                for side in 0..2 {
                    Game::legal_actions(&f, side, &mut side_buf);
                }
                let joint = random_turn(&f, &mut rng, &mut tank_buf);
                Game::apply_unchecked(&mut f, &[SideAction(joint[0]), SideAction(joint[1])]);
                n += 1;
            }
            let mut scores = [0.0; 2];
            f.scores(&mut scores);
            for _ in 0..n {
                assert!(Game::undo(&mut f));
            }
            total += n;
        }
        total
    });
    assert!(turns > 0);
    assert_eq!(
        allocations, 0,
        "{turns} turns allocated {allocations} times"
    );
}

/// Validity from the public cell view only (an independent reading of the
/// rules, not the bitboards): moves into an empty on-board cell, shots when
/// the tank did not shoot last turn.
fn naive_valid(f: &Field, side: usize, tank: usize, a: TankAction) -> bool {
    let Some((x, y)) = f.tank_position(side, tank) else {
        return true;
    };
    if a.is_shoot() {
        return !f.shot_last_turn(side, tank);
    }
    match a.direction() {
        None => true,
        Some(d) => step(cell(x, y), d).is_some_and(|c| f.at_cell(c) == item::NONE),
    }
}

#[test]
fn random_playouts_match_random_turns_and_stay_valid() {
    for seed in 1..=12u32 {
        let mut fast = Field::new(bricks_from_seed(seed));
        let mut slow = fast.clone();
        let mut rng_fast = Rng::new(u64::from(seed));
        let mut rng_slow = Rng::new(u64::from(seed));
        for _ in 0..20 {
            let turns = fast.random_playout(&mut rng_fast);
            let mut played = 0;
            while !slow.is_over() {
                let joint = slow.random_turn(&mut rng_slow);
                for (side, pair) in joint.iter().enumerate() {
                    for (tank, &a) in pair.iter().enumerate() {
                        assert!(naive_valid(&slow, side, tank, a), "{a:?}\n{slow}");
                        if !slow.tank_alive(side, tank) {
                            assert_eq!(a, TankAction::Stay);
                        }
                    }
                }
                slow.try_apply(joint).unwrap();
                played += 1;
            }
            assert_eq!(turns, played);
            assert_eq!(fast, slow);
            for _ in 0..turns {
                assert!(fast.undo() && slow.undo());
            }
            assert_eq!(fast, Field::new(bricks_from_seed(seed)));
        }
    }
}

#[test]
fn random_turn_is_uniform_over_the_valid_actions() {
    // A position with moves blocked and shots forbidden for some tanks.
    let mut f = Field::new(bricks_from_seed(3));
    let mut rng = Rng::new(5);
    // Play until some tank may not shoot (it shot last turn).
    for _ in 0..30 {
        let j = f.random_turn(&mut rng);
        f.apply_unchecked(j);
        if f.is_over()
            || (0..4).any(|i| f.shot_last_turn(i / 2, i % 2) && f.tank_alive(i / 2, i % 2))
        {
            break;
        }
    }
    assert!(!f.is_over(), "{f}");
    const DRAWS: usize = 90_000;
    let mut counts = [[0usize; 9]; 4];
    for _ in 0..DRAWS {
        let j = f.random_turn(&mut rng);
        for i in 0..4 {
            counts[i][j[i / 2][i % 2].index()] += 1;
        }
    }
    for (i, row) in counts.iter().enumerate() {
        let (side, tank) = (i / 2, i % 2);
        let valid: Vec<bool> = TankAction::ALL
            .iter()
            .map(|&a| {
                f.tank_alive(side, tank) && naive_valid(&f, side, tank, a) || a == TankAction::Stay
            })
            .collect();
        let n = valid.iter().filter(|&&v| v).count() as f64;
        let p = 1.0 / n;
        let sigma = (DRAWS as f64 * p * (1.0 - p)).sqrt();
        for (k, &c) in row.iter().enumerate() {
            if valid[k] {
                let dev = (c as f64 - DRAWS as f64 * p).abs();
                assert!(
                    dev <= 5.0 * sigma + 1.0,
                    "tank {i} action {k}: {c} of {DRAWS}, expected {}\n{f}",
                    DRAWS as f64 * p
                );
            } else {
                assert_eq!(c, 0, "tank {i} drew invalid action {k}\n{f}");
            }
        }
    }
}
