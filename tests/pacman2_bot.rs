//! `pacman_mc` tested as a program: the input samples of
//! `input-samples/pacman2/` piped into the real binary, in traditional and
//! keep-running mode, every answer checked for legality against the state
//! the requests describe; bad input; and (release builds) the rollout count
//! of a first turn.
//!
//! The samples are judge maps with legal random play. They are made by
//! this file: `BOTZONE_WRITE_SAMPLES=1 cargo test --test pacman2_bot
//! write_samples` rewrites them; otherwise `samples_are_consistent` checks
//! them.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use botzone::games::pacman2::{Action, Map, Pacman2, PLAYERS};
use botzone::rng::Rng;
use serde_json::{json, Value as J};

fn sample(name: &str) -> PathBuf {
    common::input_sample("pacman2", name)
}

const FIRST_TURN: &str = "first-turn.json";
const MID_GAME: &str = "mid-game.json";
const KEEP_RUNNING: &str = "keep-running.txt";

/// A judge-style game: the map of `seed`, `turns` turns of legal random
/// play (or until the end). Returns the first request for `id`, the later
/// requests (live players' actions), and `id`'s own actions.
fn play(seed: u32, id: usize, turns: usize, rng_seed: u64) -> (J, Vec<J>, Vec<J>) {
    let map = Map::generate(seed);
    let first: J = serde_json::from_str(&map.to_json_with_id(Some(id))).unwrap();
    let mut game = Pacman2::new(&map);
    let mut rng = Rng::new(rng_seed);
    let mut requests = vec![];
    let mut mine = vec![];
    while requests.len() < turns && !game.is_over() && game.is_alive(id) {
        let mut joint = [Action::Stay; PLAYERS];
        let mut req = serde_json::Map::new();
        for (p, slot) in joint.iter_mut().enumerate() {
            if game.is_alive(p) {
                *slot = game.random_action(p, &mut rng);
                req.insert(p.to_string(), json!({"action": slot.code()}));
            }
        }
        mine.push(json!({"action": joint[id].code(), "tauntText": ""}));
        game.apply_unchecked(&joint);
        requests.push(J::Object(req));
    }
    (first, requests, mine)
}

fn sample_texts() -> Vec<(&'static str, String)> {
    // First turn: the judge map of seed 1, player 0.
    let (first, _, _) = play(1, 0, 0, 0);
    let first_turn = json!({"requests": [first], "responses": []}).to_string();
    // Mid-game: the map of seed 2, player 2, 30 turns of history.
    let (first, later, mine) = play(2, 2, 30, 2);
    let mut requests = vec![first];
    requests.extend(later);
    let responses: Vec<J> = mine[..requests.len() - 1].to_vec();
    let mid_game = json!({"requests": requests, "responses": responses}).to_string();
    // Keep-running: the first input (map of seed 3, player 1), then one bare
    // request per line for the following turns.
    let (first, later, _) = play(3, 1, 12, 3);
    let mut keep = json!({"requests": [first], "responses": []}).to_string();
    keep.push('\n');
    for r in &later {
        keep.push_str(&r.to_string());
        keep.push('\n');
    }
    vec![
        (FIRST_TURN, first_turn + "\n"),
        (MID_GAME, mid_game + "\n"),
        (KEEP_RUNNING, keep),
    ]
}

#[test]
fn write_samples() {
    if std::env::var("BOTZONE_WRITE_SAMPLES").is_err() {
        return;
    }
    std::fs::create_dir_all(sample("")).unwrap();
    for (name, text) in sample_texts() {
        std::fs::write(sample(name), text).unwrap();
    }
}

#[test]
fn samples_are_consistent() {
    for (name, text) in sample_texts() {
        let have = std::fs::read_to_string(sample(name)).unwrap_or_default();
        assert_eq!(
            have, text,
            "{name} differs: BOTZONE_WRITE_SAMPLES=1 rewrites it"
        );
    }
}

fn run_bot(input: &str, time_limit: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pacman_mc"));
    cmd.env_remove("BOTZONE_TIME_LIMIT")
        .env("BOTZONE_SEED", "12345");
    if let Some(t) = time_limit {
        cmd.env("BOTZONE_TIME_LIMIT", t);
    }
    common::run_program(cmd, input.as_bytes(), std::time::Duration::from_secs(120))
}

/// The answers on stdout (marker lines dropped).
fn answers(out: &Output) -> Vec<J> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with(">>>BOTZONE"))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

/// The state a full input describes, and the player's id.
fn state_of(requests: &[J]) -> (Pacman2, usize) {
    let first = botzone::json::Value::parse(&requests[0].to_string()).unwrap();
    let mut game = Pacman2::new(&Map::from_json(&first).unwrap());
    let id = requests[0]["id"].as_u64().unwrap() as usize;
    for r in &requests[1..] {
        follow(&mut game, r);
    }
    (game, id)
}

fn follow(game: &mut Pacman2, request: &J) {
    let r = botzone::json::Value::parse(&request.to_string()).unwrap();
    let joint = game.joint_from_request(&r, "request").unwrap();
    game.apply_unchecked(&joint);
}

const SCHEDULING_SLACK_MS: u64 = 100;

fn check_answer(game: &Pacman2, id: usize, answer: &J, budget_ms: u64) {
    let response = &answer["response"];
    let code = response["action"].as_i64().expect("an integer action");
    assert!(
        game.is_valid(id, Action::from_code(code)),
        "illegal action {code} for player {id} at turn {}:\n{game}",
        game.turn()
    );
    assert!(response["tauntText"].is_string());
    let debug = answer["debug"].as_str().expect("debug");
    let rollouts: u64 = debug
        .split_whitespace()
        .find_map(|w| w.strip_prefix("rollouts="))
        .expect("rollouts= in debug")
        .parse()
        .unwrap();
    assert!(rollouts > 0, "{debug}");
    let ms: u64 = debug
        .split_whitespace()
        .find_map(|w| w.strip_prefix("ms="))
        .expect("ms= in debug")
        .parse()
        .unwrap();
    // The bot stops within microseconds of its deadline (the limit minus
    // a margin); the slack only absorbs the test machine descheduling the
    // process while other tests run.
    assert!(
        ms <= budget_ms + SCHEDULING_SLACK_MS,
        "{debug}: over the {budget_ms} ms limit"
    );
}

#[test]
fn first_turn_sample_traditional() {
    let text = common::read_input_sample("pacman2", FIRST_TURN);
    let out = run_bot(&text, Some("0.2"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let input: J = serde_json::from_str(&text).unwrap();
    let (game, id) = state_of(input["requests"].as_array().unwrap());
    let a = answers(&out);
    assert_eq!(a.len(), 1);
    check_answer(&game, id, &a[0], 200);
}

#[test]
fn mid_game_sample_rebuilds_the_history() {
    let text = common::read_input_sample("pacman2", MID_GAME);
    let out = run_bot(&text, Some("0.2"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let input: J = serde_json::from_str(&text).unwrap();
    let (game, id) = state_of(input["requests"].as_array().unwrap());
    assert_eq!(game.turn(), 30);
    let a = answers(&out);
    assert_eq!(a.len(), 1);
    check_answer(&game, id, &a[0], 200);
    assert!(a[0]["debug"].as_str().unwrap().contains("turn=30"));
}

#[test]
fn keep_running_sample_answers_every_turn() {
    let text = common::read_input_sample("pacman2", KEEP_RUNNING);
    let out = run_bot(&text, Some("0.1"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let a = answers(&out);
    assert_eq!(a.len(), lines.len(), "one answer per request:\n{stdout}");
    assert_eq!(
        stdout.matches(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<").count(),
        lines.len(),
        "a marker after every answer"
    );
    let first: J = serde_json::from_str(lines[0]).unwrap();
    let (mut game, id) = state_of(first["requests"].as_array().unwrap());
    check_answer(&game, id, &a[0], 100);
    for (line, answer) in lines[1..].iter().zip(&a[1..]) {
        follow(&mut game, &serde_json::from_str(line).unwrap());
        check_answer(&game, id, answer, 100);
    }
}

#[test]
fn multi_line_input_is_accepted() {
    let text = common::read_input_sample("pacman2", FIRST_TURN);
    let v: J = serde_json::from_str(&text).unwrap();
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    let out = run_bot(&pretty, Some("0.1"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(answers(&out).len(), 1);
}

#[test]
fn bad_input_gives_an_error_and_a_legal_fallback() {
    let first = common::read_input_sample("pacman2", FIRST_TURN);
    let v: J = serde_json::from_str(&first).unwrap();
    let map_req = v["requests"][0].clone();
    let cases = [
        ("{\"requests\":[", "not JSON"),
        ("hello\n", "not JSON"),
        (
            &*json!({"requests": [map_req.clone(), {"0": {"action": "up"}}], "responses": [{"action": 0}]}).to_string(),
            "requests[1].0.action",
        ),
        (
            &*json!({"requests": [{"id": 0, "width": 3}], "responses": []}).to_string(),
            "requests[0]",
        ),
        (
            &*json!({"requests": [{"0": {"action": 1}}], "responses": []}).to_string(),
            "requests[0].id",
        ),
    ];
    for (input, want) in cases {
        let out = run_bot(input, Some("0.1"));
        // The error on stderr, the fallback on stdout, exit code 0.
        assert_eq!(out.status.code(), Some(0), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(want),
            "{input}: stderr {err:?} should name {want:?}"
        );
        let a = answers(&out);
        assert_eq!(
            a.last().map(|a| a["response"]["action"].clone()),
            Some(json!(-1)),
            "{input}"
        );
    }
    // A bad later request in keep-running mode costs its turn only: the
    // earlier answer stands, then the fallback, then the next turn.
    let input = format!(
        "{}\n{{\"0\":{{\"action\":\"x\"}}}}\n{{\"0\":{{\"action\":-1}},\"1\":{{\"action\":-1}},\"2\":{{\"action\":-1}},\"3\":{{\"action\":-1}}}}\n",
        first.trim()
    );
    let out = run_bot(&input, Some("0.1"));
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("request.0.action: expected an integer"),
        "{err}"
    );
    assert_eq!(answers(&out).len(), 3);
    // A request without a live player's entry: the judge's word that the
    // player died, with a warning; the turn is played.
    let input = format!("{}\n{{\"0\":{{\"action\":-1}}}}\n", first.trim());
    let out = run_bot(&input, Some("0.1"));
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no entry for player 1, who is alive"), "{err}");
    assert!(!err.contains("bot error"), "{err}");
    assert_eq!(answers(&out).len(), 2);
}

/// The numbers after `key=` in an answer's debug text, one per player.
fn debug_list(answer: &J, key: &str) -> Vec<f64> {
    let debug = answer["debug"].as_str().expect("debug");
    let prefix = format!("{key}=");
    debug
        .split_whitespace()
        .find_map(|w| w.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("{prefix} in {debug}"))
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect()
}

/// Each player's odds of playing as the rollout policy, from `types=` in
/// the debug text.
fn types_of(answer: &J) -> Vec<f64> {
    debug_list(answer, "types")
}

/// Traditional mode: the opponent model travels in `data`. The first turn
/// saves the search's expectation of every other player; the next turn,
/// given that data, weighs the actions they played against it and moves
/// their odds away from the prior; bad data is reported on stderr and the
/// model starts afresh, with a legal answer all the same.
#[test]
fn traditional_mode_keeps_the_opponent_model_in_data() {
    let run = |input: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pacman_mc"));
        cmd.env_remove("BOTZONE_TIME_LIMIT")
            .env("BOTZONE_SEED", "12345")
            .env("BOTZONE_ITERATIONS", "2000");
        common::run_program(cmd, input.as_bytes(), std::time::Duration::from_secs(120))
    };
    let first = common::read_input_sample("pacman2", FIRST_TURN);
    let out = run(&first);
    assert!(out.status.success());
    let a = answers(&out);
    let data = a[0]["data"].as_str().expect("data on the first turn");
    assert!(data.starts_with("types1 "), "{data}");
    let prior = types_of(&a[0]);
    assert!(prior.iter().all(|&t| t == prior[0]), "{prior:?}");

    let v: J = serde_json::from_str(&first).unwrap();
    let map_req = v["requests"][0].clone();
    let id = map_req["id"].as_u64().unwrap() as usize;
    let stay = json!({"action": -1});
    let turn = json!({"0": stay, "1": stay, "2": stay, "3": stay});
    let input = |data: &str| {
        json!({
            "requests": [map_req.clone(), turn.clone()],
            "responses": [a[0]["response"].clone()],
            "data": data,
        })
        .to_string()
    };
    let (game, _) = state_of(&[map_req.clone(), turn.clone()]);

    let out = run(&input(data));
    assert!(out.status.success());
    let b = answers(&out);
    check_answer(&game, id, &b[0], 60_000);
    let seen = types_of(&b[0]);
    for p in (0..PLAYERS).filter(|&p| p != id) {
        assert_ne!(seen[p], prior[p], "player {p}: {seen:?}");
    }
    assert_eq!(seen[id], prior[id]);
    assert!(b[0]["data"].as_str().unwrap().starts_with("types1 "));

    for bad in ["types1 1 2", "hello"] {
        let out = run(&input(bad));
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("data: "), "{bad}: {err}");
        let c = answers(&out);
        check_answer(&game, id, &c[0], 60_000);
        assert_eq!(types_of(&c[0]), prior, "{bad}");
    }
}

/// The shots each player took at players who could step out of the path
/// travel in `data` too: given counts of 20 such shots in 20 chances for
/// one player and none in 20 for another, the bot reports their rates
/// (and the prior for the two not seen) and passes the counts on.
#[test]
fn traditional_mode_keeps_the_dodge_counts_in_data() {
    let first = common::read_input_sample("pacman2", FIRST_TURN);
    let v: J = serde_json::from_str(&first).unwrap();
    let map_req = v["requests"][0].clone();
    let id = map_req["id"].as_u64().unwrap() as usize;
    let stay = json!({"action": -1});
    let turn = json!({"0": stay, "1": stay, "2": stay, "3": stay});
    let (fires, holds) = ((id + 1) % PLAYERS, (id + 2) % PLAYERS);
    let mut counts = [[0u32; 2]; PLAYERS];
    (counts[fires], counts[holds]) = ([20, 20], [20, 0]);
    let words: Vec<String> = counts.iter().map(|[c, s]| format!("{c} {s}")).collect();
    let data = format!("types1 0 - 0 - 0 - 0 - dodge {}", words.join(" "));
    let input = json!({
        "requests": [map_req.clone(), turn.clone()],
        "responses": [{"action": -1}],
        "data": data,
    })
    .to_string();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pacman_mc"));
    cmd.env_remove("BOTZONE_TIME_LIMIT")
        .env("BOTZONE_SEED", "12345")
        .env("BOTZONE_ITERATIONS", "2000");
    let out = common::run_program(cmd, input.as_bytes(), std::time::Duration::from_secs(120));
    assert!(out.status.success());
    let a = answers(&out);
    let (game, _) = state_of(&[map_req, turn]);
    check_answer(&game, id, &a[0], 60_000);
    // Each player's rate of shots at players who can step out of the path.
    let rates = debug_list(&a[0], "dodge");
    assert!(rates[fires] > 0.8, "{rates:?}");
    assert!(rates[holds] < 0.1, "{rates:?}");
    let others: Vec<usize> = (0..PLAYERS).filter(|&p| p != fires && p != holds).collect();
    assert!(
        others.iter().all(|&p| rates[p] == rates[others[0]]),
        "{rates:?}"
    );
    assert!(rates[others[0]] > rates[holds] && rates[others[0]] < rates[fires]);
    let passed = a[0]["data"].as_str().expect("data");
    let tail = passed
        .split(" dodge ")
        .nth(1)
        .expect("dodge counts in data");
    let passed: Vec<u32> = tail.split(' ').map(|w| w.parse().unwrap()).collect();
    assert_eq!(passed[2 * fires..2 * fires + 2], [20, 20], "{tail}");
    assert_eq!(passed[2 * holds..2 * holds + 2], [20, 0], "{tail}");
}

/// The first turn of a match gets 2 s on Botzone: the bot answers legally
/// within it, having run rollouts, and prints how many (a figure, not an
/// assertion: how many fit depends on the machine; release builds only).
#[test]
fn first_turn_answers_within_its_two_seconds() {
    if cfg!(debug_assertions) {
        eprintln!("skipped in debug builds (run cargo test --release)");
        return;
    }
    let text = common::read_input_sample("pacman2", FIRST_TURN);
    let out = run_bot(&text, None);
    assert!(out.status.success());
    let a = answers(&out);
    let input: J = serde_json::from_str(&text).unwrap();
    let (game, id) = state_of(input["requests"].as_array().unwrap());
    check_answer(&game, id, &a[0], 2000);
    let debug = a[0]["debug"].as_str().unwrap();
    let rollouts: u64 = debug
        .split_whitespace()
        .find_map(|w| w.strip_prefix("rollouts="))
        .unwrap()
        .parse()
        .unwrap();
    eprintln!("first turn: {debug}");
    assert!(rollouts > 0, "{debug}");
}

/// The bot's rollouts: `GreedyPolicy` gives every live player a valid
/// action, and depth-limited rollouts with the leaf evaluation allocate
/// nothing once the policy's tables are built.
#[test]
fn greedy_rollouts_are_valid_and_allocation_free() {
    use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
    for seed in 1..=6 {
        let mut game = Pacman2::new(&Map::generate(seed));
        let policy = GreedyPolicy::new(&game);
        let mut rng = Rng::new(u64::from(seed));
        let (sum, allocations) = common::count_allocations(|| {
            let mut sum = 0.0;
            for _ in 0..200 {
                let mut turns = 0;
                while turns < 20 && !game.is_over() {
                    let joint = policy.joint(&game, &mut rng);
                    for (p, &a) in joint.iter().enumerate() {
                        assert!(!game.is_alive(p) || game.is_valid(p, a), "{a:?}");
                    }
                    game.apply_unchecked(&joint);
                    turns += 1;
                }
                sum += evaluate(&game, 0);
                game.undo_to(0);
            }
            sum
        });
        assert_eq!(allocations, 0);
        assert!(sum > 0.0);
        assert_eq!(game.turn(), 0);
    }
}
