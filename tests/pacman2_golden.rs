//! Pacman2 against the Botzone judge: every map of `pacman2_maps.jsonl`
//! drawn from its seed, and every trace replayed turn by turn, compared
//! field by field, then undone back to the start and compared again.
//!
//! With `BOTZONE_GOLDEN_DIR` set to a directory of the same layout
//! (`pacman2_maps.jsonl`, `pacman2_traces/*.jsonl`), `golden_dir_from_env`
//! checks everything in it too and prints how many maps and turns it checked.

mod common;

use std::path::Path;

use botzone::games::pacman2::{Action, Map, Pacman2, MAX_SIDE};
use botzone::json::Value;
use serde_json::Value as J;

fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// Checks every map line against the generator; returns the number of maps.
fn check_maps(path: &Path) -> usize {
    let mut n = 0;
    for (i, line) in read_lines(path).iter().enumerate() {
        let want: J = serde_json::from_str(line).unwrap();
        let seed = want["seed"].as_u64().unwrap() as u32;
        let map = Map::generate(seed);
        let got: J = serde_json::from_str(&map.to_json()).unwrap();
        assert_eq!(got, want, "{}:{}: seed {seed}", path.display(), i + 1);
        // Same fields in the same order, as text.
        assert_eq!(
            map.to_json(),
            serde_json::to_string(&want).unwrap(),
            "seed {seed}: field order"
        );
        // And it reads back.
        let parsed = Map::from_json(&Value::parse(line).unwrap()).unwrap();
        assert_eq!(parsed, map, "seed {seed}: from_json");
        n += 1;
    }
    n
}

/// The judge's recorded state of one turn.
#[derive(Debug, PartialEq)]
struct Snapshot {
    turn: usize,
    alive: usize,
    generator_turn_left: i32,
    small_fruit_count: i32,
    content: Vec<Vec<u8>>,
    players: Vec<[i64; 5]>,
}

fn snapshot_of(g: &Pacman2) -> Snapshot {
    let content = g.content_grid();
    Snapshot {
        turn: g.turn() as usize,
        alive: g.alive_count(),
        generator_turn_left: g.generator_turn_left(),
        small_fruit_count: g.small_fruit_count(),
        content: (0..g.height())
            .map(|r| content[r][..g.width()].to_vec())
            .collect(),
        players: g
            .players()
            .iter()
            .map(|p| {
                [
                    p.row as i64,
                    p.col as i64,
                    i64::from(p.strength),
                    i64::from(p.power_up_left),
                    i64::from(p.dead),
                ]
            })
            .collect(),
    }
}

fn snapshot_from(state: &J) -> Snapshot {
    let ints = |v: &J| v.as_i64().unwrap();
    Snapshot {
        turn: ints(&state["turn"]) as usize,
        alive: ints(&state["alive"]) as usize,
        generator_turn_left: ints(&state["generator_turn_left"]) as i32,
        small_fruit_count: ints(&state["small_fruit_count"]) as i32,
        content: state["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|c| ints(c) as u8)
                    .collect()
            })
            .collect(),
        players: state["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let a = p.as_array().unwrap();
                [
                    ints(&a[0]),
                    ints(&a[1]),
                    ints(&a[2]),
                    ints(&a[3]),
                    ints(&a[4]),
                ]
            })
            .collect(),
    }
}

/// Replays one trace file; returns the number of turns checked.
fn check_trace(path: &Path) -> usize {
    let lines = read_lines(path);
    let header: J = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(header["game"], "pacman2", "{}: header", path.display());
    let init = Value::parse(&header["init"].to_string()).unwrap();
    let map = Map::from_json(&init).unwrap_or_else(|e| panic!("{}: init: {e}", path.display()));
    let mut game = Pacman2::new(&map);
    let start = snapshot_of(&game);
    assert!(map.width <= MAX_SIDE && map.height <= MAX_SIDE);

    let mut turns = 0;
    let mut seen: Vec<Snapshot> = vec![];
    let mut current_game = None;
    let finish = |game: &mut Pacman2, seen: &mut Vec<Snapshot>, what: &str| {
        // Undo back to the start, checking every state on the way.
        while let Some(want) = seen.pop() {
            assert_eq!(
                snapshot_of(game),
                want,
                "{what}: undo to turn {}",
                want.turn + 1
            );
            assert!(game.undo(), "{what}: undo");
        }
        assert_eq!(snapshot_of(game), start, "{what}: back at the start");
        assert!(!game.undo());
    };
    for (i, line) in lines.iter().enumerate().skip(1) {
        let where_ = format!("{}:{}", path.display(), i + 1);
        let rec: J = serde_json::from_str(line).unwrap();
        let index = rec["game_index"].as_i64().unwrap_or(0);
        if current_game != Some(index) {
            finish(&mut game, &mut seen, &where_);
            current_game = Some(index);
        }
        let joint: Vec<Action> = rec["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| Action::from_code(a.as_i64().unwrap()))
            .collect();
        assert!(
            !game.is_over(),
            "{where_}: the judge played on a finished game"
        );
        game.apply_unchecked(&joint);
        assert_eq!(
            !game.is_over(),
            rec["continues"].as_bool().unwrap(),
            "{where_}: the game goes on"
        );
        let want = snapshot_from(&rec["state"]);
        assert_eq!(snapshot_of(&game), want, "{where_}: state after {joint:?}");
        seen.push(want);
        turns += 1;
    }
    finish(&mut game, &mut seen, &format!("{}: end", path.display()));
    turns
}

fn trace(name: &str) -> usize {
    let n = check_trace(&common::fixture(&format!(
        "pacman2/pacman2_traces/{name}.jsonl"
    )));
    assert!(n > 0);
    n
}

#[test]
fn maps_from_seeds_match_the_judge() {
    assert_eq!(
        check_maps(&common::fixture("pacman2/pacman2_maps.jsonl")),
        200
    );
}

macro_rules! trace_tests {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(#[test] fn $test() { trace($name); })*
    };
}

trace_tests! {
    trace_map1 => "map1", trace_map2 => "map2", trace_map3 => "map3",
    trace_map4 => "map4", trace_map5 => "map5", trace_map6 => "map6",
    trace_map7 => "map7", trace_map8 => "map8", trace_map9 => "map9",
    trace_map10 => "map10",
    crafted_shot_hits_invalid_player => "crafted_shot_hits_invalid_player",
}

#[test]
fn every_fixture_trace_has_a_test() {
    let dir = common::fixture("pacman2/pacman2_traces");
    let n = std::fs::read_dir(dir).unwrap().count();
    assert_eq!(n, 11, "add a trace_tests! entry for each new trace");
}

#[test]
fn golden_dir_from_env() {
    let Ok(dir) = std::env::var("BOTZONE_GOLDEN_DIR") else {
        eprintln!("BOTZONE_GOLDEN_DIR not set: nothing extra to check");
        return;
    };
    let dir = Path::new(&dir);
    let maps_path = dir.join("pacman2_maps.jsonl");
    let maps = if maps_path.exists() {
        check_maps(&maps_path)
    } else {
        0
    };
    let mut files = 0;
    let mut turns = 0;
    let traces = dir.join("pacman2_traces");
    if traces.is_dir() {
        let mut paths: Vec<_> = std::fs::read_dir(&traces)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        paths.sort();
        for p in paths {
            turns += check_trace(&p);
            files += 1;
        }
    }
    println!(
        "BOTZONE_GOLDEN_DIR {}: checked {maps} pacman2 maps and {turns} turns in {files} trace files",
        dir.display()
    );
    eprintln!(
        "BOTZONE_GOLDEN_DIR {}: checked {maps} pacman2 maps and {turns} turns in {files} trace files",
        dir.display()
    );
}
