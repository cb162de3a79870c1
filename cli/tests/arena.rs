//! The arena with real processes: `botzone match`, `botzone judge`,
//! `botzone replay`, against the test bots in tests/fixtures/arena (shell
//! and Python scripts: well-behaved ones in both Botzone modes, and ones
//! that crash, hang, flood, print garbage or allocate too much).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn bot(name: &str) -> String {
    let path = common::fixture(&format!("arena/{name}"));
    let path = path.display();
    if name.ends_with(".py") {
        format!("python3 {path}")
    } else {
        format!("sh {path}")
    }
}

fn botzone() -> PathBuf {
    common::bin("botzone")
}

/// `botzone match GAME --quiet --out OUT --bot …`, to be completed and run.
fn quiet_match(game: &str, bots: &[String], out: &Path) -> Command {
    let mut cmd = Command::new(botzone());
    cmd.arg("match")
        .arg(game)
        .arg("--quiet")
        .arg("--out")
        .arg(out);
    for b in bots {
        cmd.arg("--bot").arg(b);
    }
    cmd
}

fn run_match(game: &str, bots: &[String], extra: &[&str], out: &Path) -> Output {
    let output = quiet_match(game, bots, out)
        .args(extra)
        .output()
        .expect("botzone runs");
    assert!(
        output.status.success(),
        "botzone match failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn results(out: &Path) -> Vec<Value> {
    let mut v: Vec<Value> = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    v.sort_by_key(|r| r["game"].as_u64());
    v
}

/// The results without the log paths (which differ between runs).
fn outcomes(out: &Path) -> Vec<Value> {
    results(out)
        .into_iter()
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("log");
            r
        })
        .collect()
}

fn verdicts(r: &Value) -> Vec<String> {
    r["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Processes still running whose command line contains `needle`.
fn running(needle: &str) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'));
            if cmdline.contains(needle) && !zombie {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn misbehaving_bots_get_their_verdicts_and_the_match_finishes() {
    let dir = common::scratch("misbehaving");
    let out = dir.join("r.jsonl");
    let bots = [
        bot("crash.py"),
        bot("hang.sh"),
        bot("flood.sh"),
        bot("garbage.sh"),
    ];
    let start = Instant::now();
    run_match(
        "pacman2",
        &bots,
        &["--games", "1", "--time-limit", "0.2"],
        &out,
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    let r = &results(&out)[0];
    assert_eq!(verdicts(r), ["RE", "TLE", "OLE", "NJ"]);
    // Pacman2: an invalid answer is the judge's invalid action (death).
    assert_eq!(r["turns"], 1);
    // Every process the arena started is gone.
    assert_eq!(running("sleep 60"), 0);
    assert_eq!(running("yes {\"response\""), 0);
    // The log records the verdicts as Botzone does.
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(r["log"].as_str().unwrap()).unwrap())
            .unwrap();
    assert_eq!(log["log"][1]["1"]["verdict"], "TLE");
    let judge = &log["log"][2]["output"];
    assert_eq!(judge["command"], "finish");
    assert_eq!(judge["display"]["2"]["reason"], "INVALID_INPUT_VERDICT_OLE");
}

#[test]
fn memory_hog_gets_mle() {
    let dir = common::scratch("memory");
    let out = dir.join("r.jsonl");
    let bots = [bot("memory.py"), bot("tank_stay.sh")];
    run_match("tank", &bots, &["--games", "1", "--time-limit", "1"], &out);
    let r = &results(&out)[0];
    assert_eq!(verdicts(r), ["MLE", "OK"]);
    // Tank: a bad answer loses at once.
    assert_eq!(r["scores"], serde_json::json!([0.0, 2.0]));
    assert_eq!(r["turns"], 1);
}

#[test]
fn tank_invalid_answer_loses() {
    let dir = common::scratch("tank-bad");
    let out = dir.join("r.jsonl");
    let bots = [bot("garbage.sh"), bot("tank_stay.sh")];
    run_match("tank", &bots, &["--games", "2", "--time-limit", "1"], &out);
    let rs = results(&out);
    assert_eq!(rs[0]["scores"], serde_json::json!([0.0, 2.0]));
    assert_eq!(verdicts(&rs[0]), ["NJ", "OK"]);
    // Seats rotate: in game 1 the garbage bot is red.
    assert_eq!(rs[1]["seats"], serde_json::json!([1, 0]));
    assert_eq!(rs[1]["scores"], serde_json::json!([2.0, 0.0]));
}

#[test]
fn keep_running_and_fresh_process_bots_both_work() {
    let dir = common::scratch("modes");
    let out = dir.join("r.jsonl");
    let bots = [
        bot("stay.sh"),
        bot("pacman_keep.py"),
        bot("stay.sh"),
        bot("pacman_keep.py"),
    ];
    run_match(
        "pacman2",
        &bots,
        &["--games", "1", "--time-limit", "1"],
        &out,
    );
    let r = &results(&out)[0];
    assert_eq!(verdicts(r), ["OK", "OK", "OK", "OK"]);
    assert_eq!(r["turns"], 100);
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(r["log"].as_str().unwrap()).unwrap())
            .unwrap();
    let turns = log["log"].as_array().unwrap();
    let last_bots = &turns[turns.len() - 2];
    assert_eq!(last_bots["0"]["keep_running"], false);
    assert_eq!(last_bots["0"]["debug"], "fresh");
    assert_eq!(last_bots["1"]["keep_running"], true);
    // The walkers moved (their answers reached the judge).
    assert!(r["scores"][1].as_f64().unwrap() > r["scores"][0].as_f64().unwrap());

    let out = dir.join("tank.jsonl");
    let bots = [bot("tank_keep.py"), bot("tank_stay.sh")];
    run_match("tank", &bots, &["--games", "2", "--time-limit", "1"], &out);
    for r in results(&out) {
        assert_eq!(verdicts(&r), ["OK", "OK"]);
        assert_eq!(r["turns"], 100);
    }
}

/// Also: the bots of a turn in parallel give the same games.
#[test]
fn builtin_referee_and_judge_program_agree() {
    let dir = common::scratch("judge");
    let judge = |game: &str| format!("{} judge {game}", botzone().display());
    for (game, bots) in [
        (
            "pacman2",
            vec![
                bot("pacman_keep.py"),
                bot("stay.sh"),
                bot("pacman_keep.py"),
                bot("garbage.sh"),
            ],
        ),
        ("tank", vec![bot("tank_keep.py"), bot("tank_stay.sh")]),
    ] {
        let a = dir.join(format!("{game}-builtin.jsonl"));
        let b = dir.join(format!("{game}-external.jsonl"));
        let games = "2";
        run_match(
            game,
            &bots,
            &["--games", games, "--time-limit", "1", "--seed", "3"],
            &a,
        );
        let j = judge(game);
        run_match(
            game,
            &bots,
            &[
                "--games",
                games,
                "--time-limit",
                "1",
                "--seed",
                "3",
                "--judge",
                &j,
                "--parallel-seats",
            ],
            &b,
        );
        assert_eq!(outcomes(&a), outcomes(&b), "{game}");
    }
}

#[test]
fn judge_answers_the_first_turn_with_the_judges_map() {
    for (game, golden) in [
        ("pacman2", "arena/pacman2_maps_1_3.jsonl"),
        ("tank", "arena/tank_fields_1_3.jsonl"),
    ] {
        let lines = std::fs::read_to_string(common::fixture(golden)).unwrap();
        for (i, line) in lines.lines().enumerate() {
            let expected: Value = serde_json::from_str(line).unwrap();
            let seed = i + 1;
            let mut child = Command::new(botzone())
                .args(["judge", game])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            writeln!(
                child.stdin.take().unwrap(),
                "{{\"log\":[],\"initdata\":{{\"seed\":{seed}}}}}"
            )
            .unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success());
            let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(answer["command"], "request");
            assert_eq!(answer["initdata"], expected, "{game} seed {seed}");
            let first = &answer["content"]["1"];
            match game {
                "pacman2" => assert_eq!(first["id"], 1),
                _ => {
                    assert_eq!(first["mySide"], 1);
                    assert_eq!(first["field"], expected["field"]);
                }
            }
        }
    }
}

#[test]
fn judge_finishes_a_tank_game_with_an_invalid_move() {
    // Blue tank 0 at (2,0) moving up leaves the board: blue loses.
    let input = r#"{"log":[{"output":{"command":"request"},"verdict":"OK"},{"0":{"verdict":"OK","response":[0,-1]},"1":{"verdict":"OK","response":[-1,-1]}}],"initdata":{"seed":1}}"#;
    let mut child = Command::new(botzone())
        .args(["judge", "tank"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(child.stdin.take().unwrap(), "{input}").unwrap();
    let out = child.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["command"], "finish");
    assert_eq!(answer["content"], serde_json::json!({"0": 0, "1": 2}));
    assert_eq!(
        answer["display"]["loseReason"][0],
        "INVALID_INPUT_VERDICT_OK"
    );
}

fn table(stdout: &[u8]) -> String {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Seeds and seats of a run, in game order.
fn seeds_and_seats(out: &Path) -> Vec<(u64, Vec<u64>)> {
    results(out)
        .iter()
        .map(|r| {
            let seats = r["seats"].as_array().unwrap();
            let seats = seats.iter().map(|s| s.as_u64().unwrap()).collect();
            (r["seed"].as_u64().unwrap(), seats)
        })
        .collect()
}

#[test]
fn seats_rotate_on_each_map_or_across_maps() {
    let dir = common::scratch("schedule");
    let bots = [bot("tank_stay.sh"), bot("tank_stay.sh")];
    let args = ["--games", "4", "--seed", "7", "--jobs", "2", "--no-logs"];
    let per_map = dir.join("per-map.jsonl");
    run_match("tank", &bots, &args, &per_map);
    let expected = [(7, [0, 1]), (7, [1, 0]), (8, [0, 1]), (8, [1, 0])];
    let expected: Vec<(u64, Vec<u64>)> = expected.iter().map(|(s, p)| (*s, p.to_vec())).collect();
    assert_eq!(seeds_and_seats(&per_map), expected);

    let per_game = dir.join("per-game.jsonl");
    let options = [&args[..], &["--map-per-game"]].concat();
    run_match("tank", &bots, &options, &per_game);
    let expected = [(7, [0, 1]), (8, [1, 0]), (9, [0, 1]), (10, [1, 0])];
    let expected: Vec<(u64, Vec<u64>)> = expected.iter().map(|(s, p)| (*s, p.to_vec())).collect();
    assert_eq!(seeds_and_seats(&per_game), expected);

    // A run cannot be resumed with the other schedule.
    let mixed = quiet_match("tank", &bots, &per_game)
        .arg("--resume")
        .args(args)
        .output()
        .unwrap();
    assert!(!mixed.status.success());
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert!(stderr.contains("other options"), "{stderr}");
}

#[test]
fn interrupted_run_resumes_to_the_same_table() {
    let dir = common::scratch("resume");
    let bots = [bot("tank_keep.py"), bot("tank_stay.sh")];
    let args = ["--games", "4", "--time-limit", "1", "--jobs", "1"];
    let full = dir.join("full.jsonl");
    let reference = run_match("tank", &bots, &args, &full);

    // Interrupt a run after its first game, then resume it.
    let part = dir.join("part.jsonl");
    let mut child = quiet_match("tank", &bots, &part)
        .args(args)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&part).map_or(0, |s| s.lines().count()) < 1 {
        assert!(Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = Command::new("kill")
        .arg("-INT")
        .arg(child.id().to_string())
        .status();
    let _ = child.wait();
    let kept = results(&part).len();
    assert!((1..4).contains(&kept), "{kept} games kept");
    let resumed = run_match("tank", &bots, &[&args[..], &["--resume"]].concat(), &part);
    assert_eq!(results(&part).len(), 4);
    assert_eq!(table(&resumed.stdout), table(&reference.stdout));
    assert_eq!(outcomes(&part), outcomes(&full));
    // Without --resume an existing results file is refused.
    let again = quiet_match("tank", &bots, &part)
        .args(args)
        .output()
        .unwrap();
    assert!(!again.status.success());
}

#[test]
fn a_yardstick_pools_seats_and_its_results_name_the_bots() {
    let dir = common::scratch("yardstick");
    let out = dir.join("r.jsonl");
    let (new, old) = (bot("enclosure_walker.py"), "@random".to_string());
    let bots = [new.clone(), old.clone(), new.clone(), old.clone()];
    let args = [
        "--games",
        "4",
        "--time-limit",
        "1",
        "--no-logs",
        "--map-per-game",
    ];
    let played = run_match("enclosure", &bots, &args, &out);
    for r in results(&out) {
        assert_eq!(r["bots"], serde_json::json!(bots), "{r}");
    }
    // The pooled part: one row per command in two seats.
    let printed = String::from_utf8_lossy(&played.stdout).into_owned();
    let pooled = &printed[printed.find("pooled").expect(&printed)..];
    let row = |bots: &str, command: &str| {
        pooled
            .lines()
            .find(|l| l.starts_with(bots))
            .unwrap_or_else(|| panic!("no {bots} row in {pooled}"))
            .ends_with(command)
    };
    assert!(row("#1,#3 ", &new) && row("#2,#4 ", &old), "{pooled}");

    // Without logs, `botzone report` still knows the commands: the same table.
    let report = Command::new(botzone())
        .args(["report", "--game", "enclosure"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(report.status.success());
    assert_eq!(table(&report.stdout), table(&played.stdout));
    assert!(String::from_utf8_lossy(&report.stdout).contains("pooled"));

    // `botzone compare`: the two commands of the run, game by game...
    let compare = |files: &[&Path]| {
        let output = Command::new(botzone())
            .arg("compare")
            .args(files)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let within = compare(&[&out]);
    assert!(within.contains("4 games of"), "{within}");
    assert!(
        within.contains("#1,#3") && within.contains("#2,#4"),
        "{within}"
    );
    // ... and the first command against another run of the same games with
    // another command in its seats (the same bot, spelt otherwise).
    let again = dir.join("again.jsonl");
    let renamed = format!("BOTZONE_SEED=1 {new}");
    let bots2 = [renamed.clone(), old.clone(), renamed, old.clone()];
    run_match("enclosure", &bots2, &args, &again);
    let pooled_new = |file: &Path| -> Vec<((u64, String), f64)> {
        let mut v: Vec<_> = results(file)
            .iter()
            .map(|r| {
                let seats = r["seats"].as_array().unwrap();
                let scores = r["scores"].as_array().unwrap();
                let mine: Vec<f64> = (0..seats.len())
                    .filter(|&s| seats[s].as_u64().unwrap() % 2 == 0)
                    .map(|s| scores[s].as_f64().unwrap())
                    .collect();
                let key = (r["seed"].as_u64().unwrap(), r["seats"].to_string());
                (key, mine.iter().sum::<f64>() / mine.len() as f64)
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let (a, b) = (pooled_new(&out), pooled_new(&again));
    assert_eq!(
        a.iter().map(|x| &x.0).collect::<Vec<_>>(),
        b.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    let better = a.iter().zip(&b).filter(|(x, y)| x.1 > y.1).count();
    let worse = a.iter().zip(&b).filter(|(x, y)| x.1 < y.1).count();
    let between = compare(&[&out, &again]);
    assert!(between.contains("4 games in both"), "{between}");
    let counts = format!(
        "{better} better, {worse} worse, {} equal",
        4 - better - worse
    );
    assert!(between.contains(&counts), "{counts} in {between}");

    // Resuming the run with other bots is refused.
    let other = [bot("enclosure_walker.py"), old.clone(), old.clone(), old];
    let refused = quiet_match("enclosure", &other, &out)
        .arg("--resume")
        .args(args)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("played by other bots"), "{stderr}");
}

#[test]
fn enclosure_line_protocol_players_and_deaths() {
    let dir = common::scratch("enclosure");
    let out = dir.join("r.jsonl");
    let bots = [
        bot("enclosure_walker.py"),
        bot("enclosure_walker.py"),
        bot("enclosure_bad.sh"),
        bot("crash.py"),
    ];
    run_match(
        "enclosure",
        &bots,
        &["--games", "1", "--time-limit", "1"],
        &out,
    );
    let r = &results(&out)[0];
    assert_eq!(verdicts(r), ["OK", "OK", "NJ", "RE"]);
    assert!(r["turns"].as_u64().unwrap() >= 1);
    let replay = Command::new(botzone())
        .args(["replay", r["log"].as_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success());
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(text.contains("== enclosure turn 1:"), "{text}");
}

#[test]
fn replay_shows_every_turn() {
    let dir = common::scratch("replay");
    let out = dir.join("r.jsonl");
    let bots = [bot("tank_keep.py"), bot("tank_stay.sh")];
    run_match("tank", &bots, &["--games", "1", "--time-limit", "1"], &out);
    let r = &results(&out)[0];
    let replay = Command::new(botzone())
        .args(["replay", r["log"].as_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success());
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(text.contains("== tank turn 100:"), "{text}");
    assert!(text.contains("..b#*#B.."), "{text}");
}

/// The `debug` of each turn of the bot in `seat`, from a game's log.
fn debugs(result: &Value, seat: usize) -> Vec<String> {
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(result["log"].as_str().unwrap()).unwrap())
            .unwrap();
    log["log"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .step_by(2)
        .filter_map(|entry| entry[seat.to_string()]["debug"].as_str().map(str::to_owned))
        .collect()
}

/// Traditional mode: `data` comes back from the bot's last answer in every
/// turn's input; `globaldata` is kept per bot (by its `--bot` number)
/// across the games of a run, and across `--resume`.
#[test]
fn data_and_globaldata_are_handed_back_as_botzone_does() {
    let dir = common::scratch("globaldata");
    let out = dir.join("r.jsonl");
    let bots = [bot("tank_counter.py"), bot("tank_stay.sh")];
    let args = ["--time-limit", "1", "--jobs", "1"];
    run_match(
        "tank",
        &bots,
        &[&args[..], &["--games", "2"]].concat(),
        &out,
    );
    run_match(
        "tank",
        &bots,
        &[&args[..], &["--games", "4", "--resume"]].concat(),
        &out,
    );
    let results = results(&out);
    assert_eq!(results.len(), 4);
    for (g, r) in results.iter().enumerate() {
        // The counter sits in seat 0, then seat 1 (seats rotate).
        let seat = r["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b == 0)
            .unwrap();
        let expected: Vec<String> = (1..=3)
            .map(|t| format!("turn={t} requests={t} game={}", g + 1))
            .collect();
        assert_eq!(debugs(r, seat), expected, "game {g}");
    }
}

/// A bot that printed a legal answer and then exited non-zero is RE: the
/// arena is strict, because Botzone does not document what it does (the
/// SDK's bots exit 0 whenever they answered).
#[test]
fn an_answer_then_a_non_zero_exit_is_re() {
    let dir = common::scratch("exit-code");
    let out = dir.join("r.jsonl");
    let bots = [bot("answer_then_fail.sh"), bot("tank_stay.sh")];
    run_match("tank", &bots, &["--games", "1", "--time-limit", "1"], &out);
    let r = &results(&out)[0];
    assert_eq!(verdicts(r), ["RE", "OK"]);
    assert_eq!(r["scores"], serde_json::json!([0.0, 2.0]));
}

fn match_command(game: &str, bots: &[String], extra: &[&str], cwd: &Path) -> Output {
    let mut cmd = Command::new(botzone());
    cmd.current_dir(cwd).arg("match").arg(game);
    for b in bots {
        cmd.arg("--bot").arg(b);
    }
    cmd.args(extra).output().unwrap()
}

/// A `--bot` that cannot start (a typo: the shell finds no such command,
/// or the interpreter no such script) stops the run before its first game
/// with an error naming the bot; bots that exit at the end of their input,
/// fail on an empty one or keep waiting still pass the check.
#[test]
fn a_bot_that_cannot_start_stops_the_run_before_its_first_game() {
    let dir = common::scratch("cannot-start");
    for (typo, why) in [
        (
            "./no_such_bot",
            "the shell found no such command (exit code 127)",
        ),
        ("python3 no_such_bot.py", "a file it names does not exist"),
    ] {
        let bots = [bot("tank_stay.sh"), typo.to_string()];
        let out = match_command(
            "tank",
            &bots,
            &["--games", "2", "--out", "r.jsonl", "--quiet"],
            &dir,
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{typo}: {stderr}");
        assert!(
            stderr.contains(&format!("--bot #2 `{typo}` cannot start: {why}")),
            "{stderr}"
        );
        assert!(stderr.contains("no game was played"), "{stderr}");
        assert!(!dir.join("r.jsonl").exists());
    }
    // The misbehaving bots of the other tests all pass the check: a crash
    // on empty input, a hang, a flood, garbage (and copies are checked once).
    let bots = [
        bot("crash.py"),
        bot("hang.sh"),
        bot("flood.sh"),
        bot("hang.sh"),
    ];
    let out = match_command(
        "pacman2",
        &bots,
        &[
            "--games",
            "1",
            "--time-limit",
            "0.2",
            "--no-logs",
            "--quiet",
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every run writes its logs into a folder of its own and says where the
/// results and the logs went; an earlier run's folder is never mixed into.
#[test]
fn each_run_keeps_its_logs_in_a_folder_of_its_own() {
    let dir = common::scratch("log-folders");
    let bots = [bot("tank_counter.py"), bot("tank_stay.sh")];
    let games = ["--games", "1", "--time-limit", "1", "--quiet"];
    // Without --out: a new numbered folder per run.
    for n in 1..=2 {
        let out = match_command("tank", &bots, &games, &dir);
        assert!(out.status.success());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let folder = format!("arena-logs/run-{n:03}");
        assert!(stdout.contains(&format!("logs: {folder}/")), "{stdout}");
        assert!(stdout.contains("results: not saved"), "{stdout}");
        let files: Vec<_> = std::fs::read_dir(dir.join(&folder))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("game-"))
            .collect();
        assert_eq!(files, ["game-00000-seed-1.json"], "{folder}");
    }
    // With --out: <out>.logs, named with the results file.
    let with_out = [&games[..], &["--out", "r.jsonl"]].concat();
    let out = match_command("tank", &bots, &with_out, &dir);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("results: r.jsonl"), "{stdout}");
    assert!(stdout.contains("logs: r.jsonl.logs/"), "{stdout}");
    let r = &results(&dir.join("r.jsonl"))[0];
    assert!(r["log"].as_str().unwrap().starts_with("r.jsonl.logs/"));
    // A new run with the same --out after the results file went, while
    // the logs stayed: refused rather than mixed.
    std::fs::remove_file(dir.join("r.jsonl")).unwrap();
    let out = match_command("tank", &bots, &with_out, &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("r.jsonl.logs holds the logs of an earlier run"),
        "{stderr}"
    );
}

#[test]
fn replay_explains_its_symbols() {
    let dir = common::scratch("legend");
    let out = dir.join("r.jsonl");
    let bots = [bot("tank_counter.py"), bot("tank_stay.sh")];
    run_match("tank", &bots, &["--games", "1", "--time-limit", "1"], &out);
    let r = &results(&out)[0];
    let replay = Command::new(botzone())
        .args(["replay", r["log"].as_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success());
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(
        text.starts_with("legend: . empty, # brick, % steel, * base"),
        "{text}"
    );
    assert!(text.contains("b B blue tanks 0 and 1"), "{text}");
    assert!(
        text.contains("-1 stay, 0-3 move up/right/down/left"),
        "{text}"
    );
}
