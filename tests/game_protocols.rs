//! Each game's Botzone protocol in the library (`games::pacman2::protocol`,
//! `games::tank::protocol`): first requests, later requests in both modes,
//! answers, and requests that contradict the bot's own game (the judge's
//! word is taken, with a warning; never an error that loses the turn).

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use botzone::games::pacman2::{self, Action, Map, Pacman2};
use botzone::games::tank::{self, bricks_from_seed, Field, TankAction, BLUE, RED};
use botzone::json::Value;
use botzone::protocol::{Input, KEEP_RUNNING_MARKER};

fn json(text: &str) -> Value {
    Value::parse(text).unwrap()
}

fn run(program: PathBuf, stdin: &str) -> Output {
    let mut command = Command::new(program);
    command
        .env("BOTZONE_ITERATIONS", "100")
        .env("BOTZONE_SEED", "1")
        .env("BOTZONE_TIME_LIMIT", "0.2");
    common::run_program(command, stdin.as_bytes(), Duration::from_secs(120))
}

// --------------------------------------------------------------------------
// Pacman2

#[test]
fn pacman2_null_for_a_live_player_is_the_judges_word_that_it_died() {
    let game = Pacman2::new(&Map::generate(3));
    let read = game
        .read_request(
            &json(r#"{"0":{"action":-1},"1":null,"2":{"action":-1}}"#),
            "request",
        )
        .unwrap();
    assert_eq!(
        read.joint,
        [Action::Stay, Action::Invalid, Action::Stay, Action::Invalid]
    );
    assert_eq!(read.warnings.len(), 2, "{:?}", read.warnings);
    assert!(
        read.warnings[0].starts_with("request.1: null for player 1, who is alive"),
        "{}",
        read.warnings[0]
    );
    assert!(
        read.warnings[1].starts_with("request.3: no entry for player 3, who is alive"),
        "{}",
        read.warnings[1]
    );
    // Playing it kills them, as the judge did.
    let mut after = game.clone();
    after.apply_unchecked(&read.joint);
    assert!(!after.is_alive(1) && !after.is_alive(3));
    assert!(after.is_alive(0) && after.is_alive(2));
    // A later request with their nulls agrees: no warning. An action for a
    // dead player is ignored, with a warning.
    let read = after
        .read_request(
            &json(r#"{"0":{"action":-1},"1":null,"2":{"action":-1},"3":{"action":2}}"#),
            "requests[2]",
        )
        .unwrap();
    assert_eq!(read.joint[3], Action::Stay);
    assert_eq!(read.warnings.len(), 1);
    assert!(
        read.warnings[0].starts_with("requests[2].3: an action for player 3, who is dead"),
        "{}",
        read.warnings[0]
    );
    // Unreadable entries are still errors that name the place.
    let err = game
        .read_request(&json(r#"{"0":{"action":"up"}}"#), "request")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "request.0.action: expected an integer, found a string"
    );
    let err = game
        .read_request(&json(r#"{"0":7}"#), "request")
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("request.0: expected an object with the action of player 0"),
        "{err}"
    );
}

/// The sample bot, given a request with `null` for a player it thinks
/// alive, in keep-running mode: it answers that turn and every later one,
/// says what happened on stderr, and exits 0.
#[test]
fn pacman_mc_plays_on_after_a_null_for_a_live_player() {
    let map = Map::generate(1);
    let first = format!(
        r#"{{"requests":[{}],"responses":[]}}"#,
        map.to_json_with_id(Some(0))
    );
    let turns = [
        r#"{"0":{"action":-1},"1":null,"2":{"action":-1},"3":{"action":-1}}"#,
        r#"{"0":{"action":-1},"1":null,"2":{"action":-1},"3":{"action":-1}}"#,
        r#"{"0":{"action":-1},"1":null,"2":{"action":-1},"3":{"action":-1}}"#,
    ];
    let stdin = format!("{first}\n{}\n", turns.join("\n"));
    let out = run(PathBuf::from(env!("CARGO_BIN_EXE_pacman_mc")), &stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("request.1: null for player 1, who is alive"),
        "{stderr}"
    );
    assert!(!stderr.contains("bot error"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let markers = stdout.lines().filter(|l| *l == KEEP_RUNNING_MARKER).count();
    assert_eq!(markers, 4, "{stdout}");
}

#[test]
fn pacman2_tracker_follows_both_modes_alike() {
    use pacman2::protocol::{answer, is_start, Tracker};
    let map = Map::generate(5);
    let first = json(&map.to_json_with_id(Some(1)));
    assert!(is_start(&first));
    let mut game = Pacman2::new(&map);
    let mut rng = botzone::rng::Rng::new(9);
    let mut requests = vec![first.clone()];
    let mut keep = Tracker::start(&first, "request").unwrap();
    while !game.is_over() && requests.len() < 30 {
        let mut entries = Vec::new();
        let mut joint = [Action::Stay; 4];
        for (p, slot) in joint.iter_mut().enumerate() {
            if game.is_alive(p) {
                *slot = game.random_action(p, &mut rng);
                entries.push(format!(r#""{p}":{{"action":{}}}"#, slot.code()));
            } else {
                entries.push(format!(r#""{p}":null"#));
            }
        }
        game.apply_unchecked(&joint);
        let request = json(&format!("{{{}}}", entries.join(",")));
        assert!(!is_start(&request));
        keep.follow(&request, "request").unwrap();
        requests.push(request);
        assert_eq!(keep.game(), &game);
    }
    let input = Input {
        responses: vec![answer(Action::Stay, ""); requests.len() - 1],
        requests,
        ..Input::default()
    };
    let traditional = Tracker::from_input(&input).unwrap();
    assert_eq!(traditional.game(), &game);
    assert_eq!(traditional.me(), 1);
    assert_eq!(
        answer(Action::UpShoot, "hi").to_string(),
        r#"{"action":4,"tauntText":"hi"}"#
    );
    let err = Tracker::start(&json(r#"{"width":3}"#), "requests[0]").unwrap_err();
    assert_eq!(err.to_string(), "requests[0].id: missing");
}

// --------------------------------------------------------------------------
// Tank

#[test]
fn tank_first_request_and_answer() {
    use tank::protocol::{answer, is_start, read_start};
    let request = json(r#"{"field":[4543785,21757588,77944080],"mySide":1}"#);
    assert!(is_start(&request));
    assert_eq!(
        read_start(&request, "requests[0]").unwrap(),
        ([4543785, 21757588, 77944080], RED)
    );
    for (text, message) in [
        (r#"{"mySide":1}"#, "requests[0].field: missing"),
        (
            r#"{"field":[1,2],"mySide":1}"#,
            "requests[0].field: expected 3 integers, found 2 elements",
        ),
        (
            r#"{"field":[1,2,134217728],"mySide":1}"#,
            "requests[0].field[2]: expected an integer in 0..=134217727, found 134217728",
        ),
        (
            r#"{"field":[1,2,3],"mySide":2}"#,
            "requests[0].mySide: expected an integer in 0..=1, found 2",
        ),
        ("[1,2]", "requests[0]: expected an object, found an array"),
    ] {
        let err = read_start(&json(text), "requests[0]").unwrap_err();
        assert_eq!(err.to_string(), message, "{text}");
    }
    assert_eq!(
        answer([TankAction::LeftShoot, TankAction::Stay]).to_string(),
        "[7,-1]"
    );
}

#[test]
fn tank_pairs_that_contradict_the_field_follow_the_judge() {
    use tank::protocol::read_pair;
    let field = Field::new(bricks_from_seed(1));
    // Blue tank 0 starts at the top edge: moving up leaves the board.
    let read = read_pair(&field, BLUE, &json("[0,-1]"), "request").unwrap();
    assert_eq!(read.pair, [TankAction::Stay, TankAction::Stay]);
    assert_eq!(read.warnings.len(), 1);
    assert!(
        read.warnings[0].starts_with("request[0]: blue tank 0 cannot play 0 on turn 1"),
        "{}",
        read.warnings[0]
    );
    let read = read_pair(&field, RED, &json("[-1,6]"), "request").unwrap();
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    assert_eq!(read.pair, [TankAction::Stay, TankAction::DownShoot]);
    for (text, message) in [
        ("[1]", "request: expected 2 actions, found 1"),
        (
            "[1,9]",
            "request[1]: expected an integer in -1..=7, found 9",
        ),
        ("{}", "request: expected an array, found an object"),
        ("[null,1]", "request[0]: expected an integer, found null"),
    ] {
        let err = read_pair(&field, BLUE, &json(text), "request").unwrap_err();
        assert_eq!(err.to_string(), message, "{text}");
    }
}

/// The recorded Tank games of the official judge: for each side, the field
/// rebuilt from the whole history equals the field followed one request at
/// a time, with the side's recorded answers, and the judge's own.
#[test]
fn tank_tracker_follows_recorded_games_in_both_modes() {
    use tank::protocol::Tracker;
    let text = std::fs::read_to_string(common::fixture("judge_logs/tank.jsonl")).unwrap();
    let calls: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut checked = 0;
    for (i, call) in calls.iter().enumerate() {
        // The last call of each game: its log holds the whole game.
        let last = calls.get(i + 1).map_or(true, |next| {
            next["input"]["log"].as_array().unwrap().is_empty()
        });
        if !last {
            continue;
        }
        let log = call["input"]["log"].as_array().unwrap();
        let initdata = &call["input"]["initdata"];
        let bricks = [0, 1, 2].map(|k| initdata["field"][k].as_u64().unwrap() as u32);
        for side in [BLUE, RED] {
            let key = side.to_string();
            let mut requests = Vec::new();
            let mut responses = Vec::new();
            let mut judge = Field::new(bricks);
            for pair in log.chunks(2) {
                let Some(answers) = pair.get(1) else { break };
                if answers[&key]["verdict"] != "OK"
                    || answers["0"]["verdict"] != "OK"
                    || answers["1"]["verdict"] != "OK"
                {
                    break;
                }
                let content = &pair[0]["output"]["content"][&key];
                requests.push(json(&content.to_string()));
                let mut joint = [[TankAction::Stay; 2]; 2];
                for s in [BLUE, RED] {
                    let r = &answers[&s.to_string()]["response"];
                    for t in 0..2 {
                        joint[s][t] = TankAction::from_code(r[t].as_i64().unwrap()).unwrap();
                    }
                }
                if judge.try_apply(joint).is_err() || judge.is_over() {
                    break; // the game ends on this turn: no request follows
                }
                responses.push(json(&answers[&key]["response"].to_string()));
            }
            requests.truncate(responses.len() + 1);
            // Keep-running: start, then answer the recorded answer and
            // follow the next request.
            let mut keep = Tracker::start(&requests[0], "request").unwrap();
            for (k, request) in requests.iter().enumerate().skip(1) {
                let recorded = &responses[k - 1];
                let pair =
                    [0, 1].map(|t| TankAction::from_code(recorded[t].as_i64().unwrap()).unwrap());
                assert_eq!(&keep.answer(pair), recorded);
                keep.follow(request, "request").unwrap();
            }
            let input = Input {
                requests: requests.clone(),
                responses: responses[..requests.len() - 1].to_vec(),
                ..Input::default()
            };
            let traditional = Tracker::from_input(&input).unwrap();
            assert_eq!(traditional.field(), keep.field());
            assert_eq!(traditional.side(), side);
            assert_eq!(
                traditional.field().turn() as usize + 1,
                requests.len(),
                "one turn per later request"
            );
            checked += requests.len();
        }
    }
    assert!(checked > 100, "{checked} requests");
}
