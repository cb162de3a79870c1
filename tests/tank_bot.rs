//! Tank: the `tank_minimax` binary on the input samples (keep-running and
//! traditional mode), bad input, the alpha-beta search against a plain
//! max-min (and, with the opponent's reply expected, against the best
//! answer to it), the bot expecting a reply the opponent repeated, and
//! whole games of the bot's search against random play.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use botzone::games::tank::eval::{TankEval, TankMinimax};
use botzone::games::tank::{bricks_from_seed, Field, SideAction, SideActions, TankAction};
use botzone::games::Game;
use botzone::rng::Rng;
use botzone::search::alphabeta::{AlphaBeta, Evaluator, Limits, WIN};
use botzone::time::Deadline;
use serde_json::Value;

fn bot() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tank_minimax"))
}

fn sample(name: &str) -> String {
    common::read_input_sample("tank", name)
}

/// Runs the bot on `stdin`; returns (exit ok, stdout lines, stderr).
fn run(stdin: &str) -> (bool, Vec<String>, String) {
    run_with(stdin, &[])
}

/// [`run`] with repeated replies never expected (`TANK_EXPECT=0`).
fn run_max_min(stdin: &str) -> (bool, Vec<String>, String) {
    run_with(stdin, &[("TANK_EXPECT", "0")])
}

fn run_with(stdin: &str, env: &[(&str, &str)]) -> (bool, Vec<String>, String) {
    let mut command = Command::new(bot());
    command.env("BOTZONE_TIME_LIMIT", "0.05");
    command.envs(env.iter().copied());
    let out = common::run_program(
        command,
        stdin.as_bytes(),
        std::time::Duration::from_secs(60),
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        out.status.success(),
        stdout.lines().map(str::to_owned).collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn bricks_of(v: &Value) -> [u32; 3] {
    [0, 1, 2].map(|i| v["field"][i].as_u64().unwrap() as u32)
}

fn pair_of(v: &Value) -> [TankAction; 2] {
    [0, 1].map(|i| TankAction::from_code(v[i].as_i64().unwrap()).unwrap())
}

/// Parses an answer line and checks it is a legal pair for `side`.
fn legal_answer(line: &str, field: &Field, side: usize) -> [TankAction; 2] {
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let debug = v["debug"].as_str().expect("debug");
    assert!(
        debug.contains("depth") && debug.contains("nodes"),
        "{debug}"
    );
    let pair = pair_of(&v["response"]);
    for (t, &a) in pair.iter().enumerate() {
        assert!(
            field.is_valid(side, t, a),
            "{a:?} invalid for tank {t}\n{field}"
        );
        if !field.tank_alive(side, t) {
            assert_eq!(a, TankAction::Stay);
        }
    }
    pair
}

/// Rebuilds the field of a full input; returns it with our side.
fn replay(input: &Value) -> (Field, usize) {
    let requests = input["requests"].as_array().unwrap();
    let side = requests[0]["mySide"].as_u64().unwrap() as usize;
    let mut field = Field::new(bricks_of(&requests[0]));
    for (i, req) in requests.iter().enumerate().skip(1) {
        let mut joint = [[TankAction::Stay; 2]; 2];
        joint[side] = pair_of(&input["responses"][i - 1]);
        joint[1 - side] = pair_of(req);
        field.try_apply(joint).unwrap();
    }
    (field, side)
}

#[test]
fn answers_each_full_input_sample_legally() {
    for name in [
        "first_turn_blue.json",
        "first_turn_red.json",
        "midgame_history_red.json",
    ] {
        let text = sample(name);
        let (ok, lines, err) = run(&text);
        assert!(ok, "{name}: {err}");
        assert_eq!(lines.len(), 2, "{name}: {lines:?}");
        assert_eq!(lines[1], ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
        let (field, side) = replay(&serde_json::from_str(&text).unwrap());
        legal_answer(&lines[0], &field, side);
    }
}

#[test]
fn keep_running_sequence_is_answered_legally_every_turn() {
    let text = sample("keep_running_blue.txt");
    let (ok, lines, err) = run(&text);
    assert!(ok, "{err}");
    let inputs: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (mut field, side) = replay(&inputs[0]);
    assert_eq!(lines.len(), 2 * inputs.len());
    for (k, input) in inputs.iter().enumerate() {
        if k > 0 {
            let ours =
                pair_of(&serde_json::from_str::<Value>(&lines[2 * (k - 1)]).unwrap()["response"]);
            let mut joint = [[TankAction::Stay; 2]; 2];
            joint[side] = ours;
            joint[1 - side] = pair_of(input);
            field.try_apply(joint).unwrap();
        }
        legal_answer(&lines[2 * k], &field, side);
        assert_eq!(lines[2 * k + 1], ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
    }
}

#[test]
fn traditional_mode_replays_the_whole_history_each_turn() {
    // A fresh process per turn with the full history, against random play.
    let mut rng = Rng::new(5);
    let bricks = bricks_from_seed(9);
    let mut field = Field::new(bricks);
    let side = 1;
    let mut requests = vec![serde_json::json!({"field": bricks, "mySide": side})];
    let mut responses: Vec<Value> = Vec::new();
    for _ in 0..6 {
        if field.is_over() {
            break;
        }
        let input = serde_json::json!({"requests": requests, "responses": responses});
        let (ok, lines, err) = run(&input.to_string());
        assert!(ok, "{err}");
        let ours = legal_answer(&lines[0], &field, side);
        let theirs = field.random_turn(&mut rng)[1 - side];
        let mut joint = [[TankAction::Stay; 2]; 2];
        joint[side] = ours;
        joint[1 - side] = theirs;
        field.try_apply(joint).unwrap();
        responses.push(serde_json::json!([ours[0].code(), ours[1].code()]));
        requests.push(serde_json::json!([theirs[0].code(), theirs[1].code()]));
    }
}

#[test]
fn bad_input_is_a_clear_error_with_a_legal_fallback() {
    let cases = [
        (
            "{\"requests\":[{\"field\":[1,2],\"mySide\":0}],\"responses\":[]}",
            "requests[0].field: expected 3 integers",
        ),
        (
            "{\"requests\":[{\"field\":[1,2,3],\"mySide\":2}],\"responses\":[]}",
            "requests[0].mySide",
        ),
        (
            "{\"requests\":[{\"field\":[0,0,0],\"mySide\":0},[9,0]],\"responses\":[[-1,-1]]}",
            "requests[1][0]",
        ),
        (
            "{\"requests\":[{\"field\":[0,0,0],\"mySide\":0}],\"responses\":[]",
            "JSON",
        ),
    ];
    for (input, needle) in cases {
        // The error on stderr, the fallback on stdout, exit code 0.
        let (ok, lines, err) = run(input);
        assert!(ok, "{input}: exit code");
        assert!(
            err.contains(needle),
            "{input}: stderr {err:?} does not name {needle}"
        );
        assert_eq!(
            lines.first().map(String::as_str),
            Some("{\"response\":[-1,-1]}"),
            "{input}"
        );
    }
}

#[test]
fn requests_that_contradict_the_field_are_the_judges_word_and_a_warning() {
    let cases = [
        // Red tank 0 at (6,8) cannot move down, off the board: the judge
        // went on, so it stayed.
        ("{\"requests\":[{\"field\":[0,0,0],\"mySide\":0},[2,-1]],\"responses\":[[-1,-1]]}", "requests[1][0]"),
        // Our own earlier answer shot twice in a row: played as staying.
        (
            "{\"requests\":[{\"field\":[0,0,0],\"mySide\":0},[-1,-1],[-1,-1]],\"responses\":[[6,-1],[6,-1]]}",
            "responses[1]",
        ),
    ];
    for (input, needle) in cases {
        // A warning on stderr and a searched, valid answer.
        let (ok, lines, err) = run(input);
        assert!(ok, "{input}: exit code");
        assert!(
            err.contains("bot warning") && err.contains(needle),
            "{input}: stderr {err:?} does not warn about {needle}"
        );
        let answer = lines.first().expect("an answer");
        assert!(
            answer.contains("\"debug\":\"depth"),
            "{input}: not a searched answer: {answer}"
        );
    }
}

/// Max-min to `depth` turns with the same evaluation: [`plain_alpha_beta`]
/// with the whole window.
fn maxmin(f: &mut Field, me: usize, depth: u32, ply: i32, eval: &mut TankEval) -> i32 {
    plain_alpha_beta(f, me, depth, ply, i32::MIN + 1, i32::MAX, eval)
}

/// The field of judge map `seed` after `3 * seed` random turns, unless the
/// game is over by then.
fn random_position(seed: u32, rng: &mut Rng) -> Option<Field> {
    let mut f = Field::new(bricks_from_seed(seed));
    for _ in 0..(seed * 3) {
        let j = f.random_turn(rng);
        f.apply_unchecked(j);
    }
    (!f.is_over()).then_some(f)
}

#[test]
fn alpha_beta_agrees_with_plain_max_min() {
    let mut rng = Rng::new(11);
    let far = Deadline::after(Duration::from_secs(600));
    for seed in 1..=6u32 {
        let Some(mut f) = random_position(seed, &mut rng) else {
            continue;
        };
        let before = f.clone();
        for me in 0..2 {
            let mut eval = TankEval::new();
            let mut search = AlphaBeta::new(12);
            let limits = Limits {
                max_depth: 1,
                ..Limits::default()
            };
            let r = search.search(&mut f, me, &mut eval, &far, limits);
            assert_eq!(f, before, "search left the field changed");
            assert_eq!(r.depth, 1);
            assert_eq!(
                r.value,
                maxmin(&mut f, me, 1, 0, &mut eval),
                "seed {seed} side {me}"
            );
        }
    }
    // Depth 2 on a position with one tank a side (9 x 9 actions a turn).
    let mut f = Field::new([0; 3]);
    use TankAction::*;
    // Blue 1 shoots red 0 and red 1 shoots blue 0 (neither target fires).
    f.try_apply([[Stay, DownShoot], [Stay, UpShoot]]).unwrap();
    assert!(!f.tank_alive(0, 0) && !f.tank_alive(1, 0) && !f.is_over());
    let mut eval = TankEval::new();
    let mut search = AlphaBeta::new(14);
    let limits = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    let r = search.search(&mut f, 0, &mut eval, &far, limits);
    assert_eq!(r.depth, 2);
    assert_eq!(r.value, maxmin(&mut f, 0, 2, 0, &mut eval));
}

/// Max-min by the plainest alpha-beta: no table, no move ordering, no
/// null windows, each turn our pair and then every reply in the legal
/// order. Inside `(alpha, beta)` its value is exact (the whole window
/// gives the max-min value itself).
fn plain_alpha_beta(
    f: &mut Field,
    me: usize,
    depth: u32,
    ply: i32,
    mut alpha: i32,
    beta: i32,
    eval: &mut TankEval,
) -> i32 {
    if f.is_over() {
        let v = eval.terminal(f, me);
        return v - v.signum() * ply;
    }
    if depth == 0 {
        return eval.evaluate(f, me);
    }
    let (mut ours, mut theirs) = (SideActions::new(), SideActions::new());
    f.legal_side_actions(me, &mut ours);
    f.legal_side_actions(1 - me, &mut theirs);
    let mut best = i32::MIN;
    for &a in ours.iter() {
        let mut worst = i32::MAX;
        for &b in theirs.iter() {
            let mut joint = [a, a];
            joint[1 - me] = b;
            Game::apply_unchecked(f, &joint);
            let v = plain_alpha_beta(f, me, depth - 1, ply + 1, alpha, beta.min(worst), eval);
            f.undo();
            worst = worst.min(v);
            if worst <= alpha {
                break;
            }
        }
        best = best.max(worst);
        alpha = alpha.max(best);
        if best >= beta {
            break;
        }
    }
    best
}

#[test]
fn alpha_beta_agrees_with_plain_max_min_deeper_on_positions_of_play() {
    // Both sides' two tanks, two and three turns deep: the null-window
    // searches and their re-searches (principal variation search) and the
    // table must give the value a plain search gives.
    let mut rng = Rng::new(19);
    let far = Deadline::after(Duration::from_secs(600));
    let mut checked = 0;
    for seed in 1..=5u32 {
        let Some(mut f) = random_position(seed, &mut rng) else {
            continue;
        };
        for (me, depth) in [(0, 2), (1, 2), (0, 3), (1, 3)] {
            let mut eval = TankEval::new();
            let mut search = AlphaBeta::new(16);
            let limits = Limits {
                max_depth: depth,
                ..Limits::default()
            };
            let r = search.search(&mut f, me, &mut eval, &far, limits);
            assert_eq!(r.depth, depth);
            let want = maxmin(&mut f, me, depth, 0, &mut eval);
            assert_eq!(r.value, want, "seed {seed}, side {me}, depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} searches");
}

/// Max-min with the opponent's reply this turn known: the best of our
/// actions against `reply`, max-min below.
fn against(f: &mut Field, me: usize, depth: u32, reply: SideAction, eval: &mut TankEval) -> i32 {
    let mut ours = SideActions::new();
    f.legal_side_actions(me, &mut ours);
    let mut best = i32::MIN;
    for &a in ours.iter() {
        let mut joint = [a, a];
        joint[1 - me] = reply;
        Game::apply_unchecked(f, &joint);
        best = best.max(maxmin(f, me, depth - 1, 1, eval));
        f.undo();
    }
    best
}

#[test]
fn an_expected_reply_is_answered_at_the_root_and_only_for_one_search() {
    let mut rng = Rng::new(13);
    let far = Deadline::after(Duration::from_secs(600));
    let (mut checked, mut above) = (0, 0);
    for seed in 1..=10u32 {
        let Some(mut f) = random_position(seed, &mut rng) else {
            continue;
        };
        for me in 0..2 {
            let mut theirs = SideActions::new();
            f.legal_side_actions(1 - me, &mut theirs);
            let reply = theirs[rng.index(theirs.len())];
            let mut eval = TankEval::new();
            let mut search = AlphaBeta::new(12);
            let limits = Limits {
                max_depth: 2,
                ..Limits::default()
            };
            search.expect_reply(Some(reply));
            let r = search.search(&mut f, me, &mut eval, &far, limits);
            let want = against(&mut f, me, 2, reply, &mut eval);
            assert_eq!(r.value, want, "seed {seed} side {me}");
            let worst = maxmin(&mut f, me, 2, 0, &mut eval);
            assert!(want >= worst, "knowing the reply is worth no less");
            above += usize::from(want > worst);
            // The next search is max-min again.
            let r = search.search(&mut f, me, &mut eval, &far, limits);
            assert_eq!(r.value, worst, "seed {seed} side {me}: the reply was kept");
            checked += 1;
        }
    }
    assert!(
        checked >= 8 && above > 0,
        "{checked} positions, {above} above max-min"
    );
}

#[test]
fn the_player_answers_an_expected_reply_for_one_turn() {
    use TankAction::*;
    // On an empty field each blue tank faces a red tank down its column,
    // all four loaded: max-min, a shot is cancelled by the shot back. If
    // red is expected to stay, both shots land and blue wins.
    let far = Deadline::after(Duration::from_secs(600));
    let mut player = TankMinimax::new(12);
    player.limits = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    let mut f = Field::new([0; 3]);
    player.expect_reply(Some(SideAction([Stay, Stay])));
    let r = player.choose(&mut f, 0, &far);
    assert_eq!(r.best.0, [DownShoot, DownShoot]);
    assert!(r.value >= WIN / 2, "value {}", r.value);
    // Not expected any more: max-min again.
    let r = player.choose(&mut f, 0, &far);
    assert!(r.value.abs() < 1000, "max-min value {}", r.value);
}

/// A traditional-mode input in which both sides shuffle one tank left and
/// right (blue's tank 0 on row 0, red's tank 1 on row 8, on an empty
/// field), so that each position comes back every two turns: `turns`
/// turns played, the opponent (red) moving first right, then left.
fn shuffle_input(turns: usize) -> String {
    let mut requests = vec!["{\"field\":[0,0,0],\"mySide\":0}".to_string()];
    let mut responses = Vec::new();
    for t in 0..turns {
        let (ours, theirs) = if t % 2 == 0 {
            ("[1,-1]", "[-1,1]")
        } else {
            ("[3,-1]", "[-1,3]")
        };
        responses.push(ours.to_string());
        requests.push(theirs.to_string());
    }
    format!(
        "{{\"requests\":[{}],\"responses\":[{}]}}",
        requests.join(","),
        responses.join(",")
    )
}

#[test]
fn the_bot_expects_a_reply_the_opponent_repeated_in_the_same_position() {
    // After 4 turns the start position has been met at turns 1 and 3 (red
    // moved right both times): expected again.
    let (ok, lines, err) = run(&shuffle_input(4));
    assert!(ok, "exit code; stderr {err}");
    let answer = lines.first().expect("an answer");
    assert!(
        answer.contains("\"debug\":\"expecting [-1, 1], depth"),
        "not expecting red's repeated pair: {answer}"
    );
    // Met once before only: nothing expected.
    let (ok, lines, _) = run(&shuffle_input(2));
    assert!(ok && lines[0].contains("\"debug\":\"depth"), "{}", lines[0]);
    // Turned off.
    let (ok, lines, _) = run_max_min(&shuffle_input(4));
    assert!(ok && lines[0].contains("\"debug\":\"depth"), "{}", lines[0]);
}

#[test]
fn search_takes_an_immediate_win() {
    use TankAction::*;
    // Blue tank 1 walks from (6,0) down column 6, then to (5,8), next to the
    // red base at (4,8): shooting left wins whatever red does.
    let mut f = Field::new([0; 3]);
    for a in [Down, Down, Down, Down, Down, Down, Down, Left, Down] {
        f.try_apply([[Stay, a], [Stay, Stay]]).unwrap();
    }
    assert_eq!(f.tank_position(0, 1), Some((5, 8)));
    let mut player = TankMinimax::new(14);
    let d = Deadline::after(Duration::from_secs(30));
    player.limits = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    let r = player.choose(&mut f, 0, &d);
    assert!(r.value >= botzone::search::alphabeta::WIN / 2, "{r:?}\n{f}");
    assert_eq!(r.best.0[1], LeftShoot);
}

#[test]
fn minimax_plays_whole_games_against_random_without_an_invalid_action() {
    let mut rng = Rng::new(2024);
    let mut player = TankMinimax::new(16);
    player.limits = Limits {
        max_depth: 8,
        max_nodes: Some(3_000),
    };
    let far = Deadline::after(Duration::from_secs(600));
    let mut results = Vec::new();
    for game in 0..4u32 {
        let me = (game % 2) as usize;
        let mut f = Field::new(bricks_from_seed(100 + game));
        while !f.is_over() {
            let r = player.choose(&mut f, me, &far);
            let SideAction(ours) = r.best;
            let mut joint = f.random_turn(&mut rng);
            joint[me] = ours;
            f.check(joint)
                .unwrap_or_else(|e| panic!("game {game}: {e}\n{f}"));
            f.try_apply(joint).unwrap();
        }
        results.push((me, f.outcome()));
    }
    eprintln!("minimax vs random: {results:?}");
}
