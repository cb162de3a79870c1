//! Replay pages and match reports in a real headless Chromium (Debian's
//! `chromium`, which `.ci/run` installs): `botzone replay LOG --html` and
//! `botzone report RESULTS --html`, opened as a person would open them.
//!
//! What a test sees is the DOM after the page's scripts ran
//! (`--dump-dom`): the turn shown (`<body data-turn>`), the board's
//! elements with their `data-*` attributes, and the errors the page met
//! (its guard script counts uncaught errors, `console.error` calls and
//! requests its Content-Security-Policy blocked on `<html data-errors>`).
//! Chromium's own console log (`--enable-logging=stderr`) is checked too.
//! Controls are driven through the page's `#…&test=` actions (clicks on
//! its buttons, key presses, the slider). Screenshots, one per game, go to
//! `target/replay-screenshots/` for a person to look at.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use botzone::games::botzone::{answer_of, BotzoneGame, Referee};
use botzone::games::enclosure::State;
use botzone::games::line::LineGame;
use botzone::games::pacman2::Pacman2;
use botzone::games::tank::Field;
use botzone::games::Rules;
use botzone::json::Value;

/// The Chromium to drive: `$BOTZONE_CHROMIUM`, else `chromium` (Debian),
/// `chromium-browser` or `google-chrome` on the PATH.
///
/// # Panics
/// When there is none: these tests never pass without a browser.
fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("BOTZONE_CHROMIUM") {
        let p = PathBuf::from(p);
        assert!(p.is_file(), "BOTZONE_CHROMIUM={} is no file", p.display());
        return p;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "no Chromium found: the replay pages are tested in a real headless browser. \
         Install Debian's package (`apt-get install -y chromium`, as .ci/run does) or set \
         BOTZONE_CHROMIUM to a Chromium or Chrome binary"
    );
}

/// What Chromium showed of a page: the DOM after load, and its log.
struct Loaded {
    dom: String,
    log: String,
}

/// Chromium's flags for a headless run of a local page.
fn headless(profile: &Path) -> Command {
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

/// Opens `page` at `fragment` (`turn=5`, `end&test=next`, …) and returns
/// the DOM once the scripts ran (and `budget_ms` of virtual time passed).
fn open(page: &Path, fragment: &str, budget_ms: u32) -> Loaded {
    let url = format!("file://{}#{fragment}", page.display());
    let mut cmd = headless(&profile_dir());
    cmd.arg(format!("--virtual-time-budget={budget_ms}"))
        .arg("--dump-dom")
        .arg(&url);
    let (ok, stdout, log) = run(cmd);
    let dom = without_scripts(&stdout);
    assert!(
        ok && dom.contains("</html>"),
        "chromium failed on {url}:\n{log}"
    );
    Loaded { dom, log }
}

/// A fresh Chromium profile folder (one per run: the tests run Chromium
/// in parallel).
fn profile_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    common::scratch(&format!(
        "chromium-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Runs Chromium (the last argument before it being its `--user-data-dir`,
/// removed after) with a deadline of 60 s: whether it succeeded, its
/// stdout and its stderr.
fn run(mut cmd: Command) -> (bool, String, String) {
    let profile = cmd
        .get_args()
        .find_map(|a| {
            a.to_str()?
                .strip_prefix("--user-data-dir=")
                .map(PathBuf::from)
        })
        .expect("a profile");
    let out_file = profile.with_extension("out");
    let err_file = profile.with_extension("err");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_file).unwrap())
        .stderr(std::fs::File::create(&err_file).unwrap())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = std::fs::read_to_string(&out_file).unwrap_or_default();
    let mut stderr = std::fs::read_to_string(&err_file).unwrap_or_default();
    for f in [&out_file, &err_file] {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_dir_all(&profile);
    if status.is_none() {
        stderr.push_str("\n(killed: no answer in 60 s)");
    }
    (status.is_some_and(|s| s.success()), stdout, stderr)
}

/// The DOM without the text of its scripts (which name the elements they
/// draw), so that searches find only what the page shows.
fn without_scripts(dom: &str) -> String {
    let mut out = String::with_capacity(dom.len());
    let mut rest = dom;
    while let Some(at) = rest.find("<script") {
        out.push_str(&rest[..at]);
        match rest[at..].find("</script>") {
            Some(end) => rest = &rest[at + end + "</script>".len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Fails unless the page loaded cleanly: no error it caught itself
/// (uncaught errors, `console.error`, requests its policy blocked), no
/// console message in Chromium's log, and its player ready.
fn assert_clean(l: &Loaded, what: &str) {
    assert!(
        !l.dom.contains("data-errors="),
        "{what}: the page met errors:\n{}",
        section(&l.dom, "id=\"errors\"")
    );
    let console: Vec<&str> = l.log.lines().filter(|s| s.contains("CONSOLE")).collect();
    assert!(console.is_empty(), "{what}: console messages: {console:#?}");
}

/// Some of the DOM around `marker`, for messages.
fn section<'a>(dom: &'a str, marker: &str) -> &'a str {
    let at = dom.find(marker).unwrap_or(0);
    &dom[at..(at + 600).min(dom.len())]
}

/// The value of `attr` in the first tag that matches all of `has`.
fn attrs<'a>(dom: &'a str, has: &[&str]) -> Vec<&'a str> {
    dom.split('<')
        .filter(|tag| has.iter().all(|h| tag.contains(h)))
        .map(|tag| tag.split('>').next().unwrap_or(""))
        .collect()
}

/// The text of the cell of class `class` in seat `seat`'s row of the
/// seats' table.
fn seat_cell(dom: &str, seat: usize, class: &str) -> String {
    let row = &dom[dom
        .find(&format!("<tr data-seat=\"{seat}\""))
        .expect("the seat's row")..];
    let row = &row[..row.find("</tr>").unwrap()];
    let at = row
        .find(&format!("<td class=\"{class}\""))
        .unwrap_or_else(|| panic!("no {class} cell in {row}"));
    let cell = &row[at..];
    let text = &cell[cell.find('>').unwrap() + 1..cell.find("</td>").unwrap()];
    text.replace("&amp;", "&")
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The turn the page shows.
fn shown_turn(dom: &str) -> u32 {
    let body = attrs(dom, &["body "]);
    let body = body.first().expect("a <body>");
    assert_eq!(
        attr(body, "data-ready"),
        Some("1"),
        "the player did not finish: {body}"
    );
    attr(body, "data-turn").expect("data-turn").parse().unwrap()
}

fn botzone() -> PathBuf {
    common::bin("botzone")
}

/// Writes the replay page of a fixture log and checks what the file
/// holds: one self-contained page.
fn replay_page(fixture: &str, dir: &Path, extra: &[&str]) -> PathBuf {
    let log = common::fixture(&format!("replay/{fixture}.json"));
    let out = dir.join(format!("{fixture}.html"));
    let o = Command::new(botzone())
        .arg("replay")
        .arg(&log)
        .arg("--html")
        .arg("-o")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "botzone replay --html {fixture}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = std::fs::read_to_string(&out).unwrap();
    assert_self_contained(&html, fixture);
    out
}

/// No way for a page to reach the network: no URL but the SVG namespace,
/// no `src=`/`href=` to anything but a local file, and the policy.
fn assert_self_contained(html: &str, what: &str) {
    let rest = html.replace("http://www.w3.org/2000/svg", "");
    for needle in [
        "http:", "https:", "src=", "@import", "url(", "//cdn", "<link", "<iframe",
    ] {
        assert!(!rest.contains(needle), "{what}: the page holds {needle:?}");
    }
    assert!(
        html.contains("Content-Security-Policy")
            && html.contains("default-src 'none'; script-src 'unsafe-inline'"),
        "{what}: no policy that forbids the network"
    );
}

/// A log's entries, with the library's JSON.
fn log_doc(fixture: &str) -> Value {
    let text = std::fs::read_to_string(common::fixture(&format!("replay/{fixture}.json"))).unwrap();
    Value::parse(text.trim()).unwrap()
}

/// The Botzone game `G` after its judge judged `turns` turns of answers
/// of the log (and how many it judged: fewer when the game ended first).
fn judged<G: botzone::games::botzone::BotzoneGame>(doc: &Value, turns: u32) -> (G, u32) {
    let mut referee = Referee::<G>::from_initdata(doc.get("initdata").unwrap()).unwrap();
    let mut judged = 0;
    for entry in doc["log"].as_array().unwrap().iter().skip(1).step_by(2) {
        if judged == turns || referee.is_finished() || referee.game().is_over() {
            break;
        }
        referee.judge(entry, false);
        judged += 1;
    }
    (referee.game().clone(), judged)
}

/// How many turns of answers the judge judges in the whole log.
fn turns_of_log<G: botzone::games::botzone::BotzoneGame>(doc: &Value) -> u32 {
    judged::<G>(doc, u32::MAX).1
}

/// Enclosure after `turns` turns of the log, as its referee plays it.
fn refereed(doc: &Value, turns: u32) -> State {
    let mut game = State::start(&State::setup_from_initdata(doc.get("initdata").unwrap()));
    let log = doc["log"].as_array().unwrap();
    for entry in log.iter().skip(1).step_by(2).skip(1).take(turns as usize) {
        let joint: Vec<_> = (0..4)
            .map(|p| {
                entry
                    .get(&p.to_string())
                    .and_then(|e| e.get("response"))
                    .and_then(Value::as_str)
                    .and_then(State::read_action)
                    .unwrap_or(State::UNREADABLE)
            })
            .collect();
        game.apply_unchecked(&joint);
    }
    game
}

/// A screenshot of the page for a person (target/replay-screenshots/).
fn screenshot(page: &Path, fragment: &str, name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe
        .ancestors()
        .nth(3)
        .expect("target/<profile>/deps/<test>");
    let dir = target.join("replay-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.png"));
    let mut cmd = headless(&profile_dir());
    cmd.args(["--virtual-time-budget=1000", "--window-size=1000,620"])
        .arg(format!("--screenshot={}", file.display()))
        .arg(format!("file://{}#{fragment}", page.display()));
    let (ok, _, log) = run(cmd);
    assert!(ok, "chromium's screenshot failed:\n{log}");
    let png = std::fs::read(&file).expect("the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{}: not a picture",
        file.display()
    );
    file
}

#[test]
fn pacman2_page_shows_the_judges_state_at_every_turn_asked() {
    let dir = common::scratch("html-pacman2");
    let page = replay_page("pacman2", &dir, &[]);
    let size = std::fs::metadata(&page).unwrap().len();
    let doc = log_doc("pacman2");
    let last = turns_of_log::<Pacman2>(&doc);
    assert_eq!(last, 100, "the fixture is a whole 100-turn game");
    assert!(size < 300 * 1024, "a 100-turn replay is {size} bytes");
    let log = doc["log"].as_array().unwrap();
    let first = &log[0]["output"]["content"]["0"]["static"];
    let generators = first
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .filter(|s| s.as_i64().unwrap() & 16 != 0)
        .count();
    assert!(generators > 0, "the fixture's map has generators");
    // The seats' answers in the turn that led to `turn` (action codes).
    let codes = |turn: u32| -> Vec<Option<i64>> {
        (0..4)
            .map(|p| {
                (turn > 0)
                    .then(|| {
                        log[2 * turn as usize - 1][p.to_string().as_str()]["response"]["action"]
                            .as_i64()
                    })
                    .flatten()
            })
            .collect()
    };
    let words = [
        "move ↑",
        "move →",
        "move ↓",
        "move ←",
        "shoot ↑",
        "shoot →",
        "shoot ↓",
        "shoot ←",
    ];
    // Turns 18 and 63 have beams in the fixture; 23 and the end have none.
    for (fragment, turn) in [
        ("turn=0", 0),
        ("turn=18", 18),
        ("turn=23", 23),
        ("turn=63", 63),
        ("end", last),
    ] {
        let l = open(&page, fragment, 500);
        assert_clean(&l, fragment);
        assert_eq!(shown_turn(&l.dom), turn, "#{fragment}");
        let (game, _) = judged::<Pacman2>(&doc, turn);
        assert_eq!(game.turn(), turn);
        let players = attrs(&l.dom, &["g class=\"player\""]);
        assert_eq!(players.len(), 4, "#{fragment}: {players:?}");
        for tag in players {
            let p: usize = attr(tag, "data-seat").unwrap().parse().unwrap();
            let pl = game.player(p);
            let shown = (
                attr(tag, "data-row").unwrap().parse::<usize>().unwrap(),
                attr(tag, "data-col").unwrap().parse::<usize>().unwrap(),
                attr(tag, "data-strength").unwrap().parse::<i32>().unwrap(),
                attr(tag, "data-alive").unwrap() == "1",
            );
            assert_eq!(
                shown,
                (pl.row, pl.col, pl.strength, !pl.dead),
                "#{fragment} player {p}"
            );
        }
        let fruit = attrs(&l.dom, &["class=\"fruit small\""]).len();
        assert_eq!(
            fruit as i32,
            game.small_fruit_count(),
            "#{fragment}: small fruit"
        );
        let gens = attrs(&l.dom, &["class=\"generator\""]).len();
        assert_eq!(gens, generators, "#{fragment}: generators");
        // The seats' table: each live seat's action of the turn, its
        // verdict and strength, as the judge has them.
        let (before, _) = judged::<Pacman2>(&doc, turn.saturating_sub(1));
        let mut valid_shots = 0;
        for (p, code) in codes(turn).into_iter().enumerate() {
            let pl = game.player(p);
            let dagger = if pl.dead { " †" } else { "" };
            assert_eq!(
                seat_cell(&l.dom, p, "value num"),
                format!("{}{dagger}", pl.strength),
                "#{fragment} seat {p}'s strength"
            );
            let shown = seat_cell(&l.dom, p, "action");
            match code {
                Some(c @ 0..=7) if turn > 0 && before.is_alive(p) => {
                    assert!(
                        shown.starts_with(words[c as usize]),
                        "#{fragment} seat {p}: code {c} shown as {shown:?}"
                    );
                    if c >= 4 && !shown.contains("invalid") {
                        valid_shots += 1;
                    }
                }
                _ if turn == 0 => assert_eq!(shown, "", "#{fragment} seat {p}"),
                _ => {}
            }
            if turn > 0 {
                let verdict = log[2 * turn as usize - 1][p.to_string().as_str()]["verdict"]
                    .as_str()
                    .unwrap_or("");
                assert_eq!(
                    seat_cell(&l.dom, p, "verdict"),
                    verdict,
                    "#{fragment} seat {p}"
                );
            }
        }
        // The beams of the turn: drawn exactly when a live seat shot.
        let beams = attrs(&l.dom, &["class=\"beam\""]).len();
        assert_eq!(
            beams > 0,
            valid_shots > 0,
            "#{fragment}: {beams} beam cells, {valid_shots} shots"
        );
        if turn == 18 || turn == 63 {
            assert!(valid_shots > 0, "#{fragment}: the fixture shoots here");
        }
        // The chart: one line per seat, one point per turn.
        let lines = attrs(&l.dom, &["polyline ", "points="]);
        assert_eq!(lines.len(), 4, "#{fragment}: chart lines");
        for line in lines {
            let points = attr(line, "points").unwrap().split(' ').count();
            assert_eq!(points as u32, last + 1, "#{fragment}: chart points");
        }
    }
    screenshot(&page, "turn=30", "pacman2");
}

#[test]
fn tank_page_shows_the_judges_field() {
    let dir = common::scratch("html-tank");
    let page = replay_page("tank", &dir, &[]);
    let doc = log_doc("tank");
    let last = turns_of_log::<Field>(&doc);
    for (fragment, turn) in [("turn=1", 1), ("turn=2", 2), ("turn=7", 7), ("end", last)] {
        let l = open(&page, fragment, 500);
        assert_clean(&l, fragment);
        assert_eq!(shown_turn(&l.dom), turn, "#{fragment}");
        let (field, _) = judged::<Field>(&doc, turn);
        for tag in attrs(&l.dom, &["g class=\"tank\""]) {
            let i: usize = attr(tag, "data-tank").unwrap().parse().unwrap();
            let shown = match attr(tag, "data-alive") {
                Some("1") => Some((
                    attr(tag, "data-x").unwrap().parse::<usize>().unwrap(),
                    attr(tag, "data-y").unwrap().parse::<usize>().unwrap(),
                )),
                _ => None,
            };
            assert_eq!(
                shown,
                field.tank_position(i / 2, i % 2),
                "#{fragment} tank {i}"
            );
        }
        let bricks = attrs(&l.dom, &["g class=\"brick\""]).len();
        assert_eq!(
            bricks as u32,
            field.brick_bits().count_ones(),
            "#{fragment}: bricks"
        );
        for tag in attrs(&l.dom, &["g class=\"base\""]) {
            let side: usize = attr(tag, "data-side").unwrap().parse().unwrap();
            let up = attr(tag, "data-alive").unwrap() == "1";
            assert_eq!(up, field.base_alive(side), "#{fragment}: base {side}");
        }
        assert_eq!(
            attrs(&l.dom, &["g class=\"base\""]).len(),
            2,
            "#{fragment}: bases"
        );
        let steel: Vec<(usize, usize)> = attrs(&l.dom, &["class=\"steel\""])
            .into_iter()
            .map(|t| {
                let n = |k| attr(t, k).unwrap().parse::<usize>().unwrap();
                (n("data-x"), n("data-y"))
            })
            .collect();
        assert_eq!(steel, botzone::games::tank::STEEL_POS, "#{fragment}: steel");
        // The shots of the turn: every live tank whose answer shoots.
        if turn > 0 {
            let (before, _) = judged::<Field>(&doc, turn - 1);
            let entry = &doc["log"].as_array().unwrap()[2 * turn as usize - 1];
            let mut shooters = 0;
            for side in 0..2 {
                let answer = answer_of(entry.get(&side.to_string()).unwrap()).unwrap();
                let played = before.read_answer(side, &answer).expect("a legal answer");
                shooters += (0..2)
                    .filter(|&t| before.tank_alive(side, t) && played.0[t].is_shoot())
                    .count();
            }
            let shots = attrs(&l.dom, &["line class=\"shot\""]).len();
            assert_eq!(shots, shooters, "#{fragment}: shots");
        }
    }
    screenshot(&page, "turn=6", "tank");
}

#[test]
fn enclosure_page_shows_the_referees_land_and_players() {
    let dir = common::scratch("html-enclosure");
    let page = replay_page("enclosure", &dir, &[]);
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 300 * 1024, "a 100-turn replay is {size} bytes");
    let doc = log_doc("enclosure");
    let (mut traps_seen, mut trails_seen) = (0, 0);
    for (fragment, turn) in [("turn=5", 5), ("turn=50", 50), ("end", 100)] {
        let l = open(&page, fragment, 500);
        assert_clean(&l, fragment);
        assert_eq!(shown_turn(&l.dom), turn, "#{fragment}");
        let game = refereed(&doc, turn);
        assert_eq!(game.turn(), turn);
        for tag in attrs(&l.dom, &["g class=\"player\""]) {
            let p: usize = attr(tag, "data-seat").unwrap().parse().unwrap();
            let pl = game.player(p);
            let (x, y) = pl.position();
            let shown = (
                attr(tag, "data-x").unwrap().parse::<u8>().unwrap(),
                attr(tag, "data-y").unwrap().parse::<u8>().unwrap(),
                attr(tag, "data-state").unwrap().parse::<i8>().unwrap(),
            );
            assert_eq!(shown, (x, y, pl.state().as_i8()), "#{fragment} player {p}");
        }
        for p in 0..4u8 {
            let owned = attrs(&l.dom, &["class=\"land\"", &format!("data-owner=\"{p}\"")]).len();
            let want = (0..10u8)
                .flat_map(|i| (0..10u8).map(move |j| (i, j)))
                .filter(|&(i, j)| game.owner(i, j) == Some(usize::from(p)))
                .count();
            assert_eq!(owned, want, "#{fragment}: player {p}'s land");
        }
        // Traps where the referee has them, with their counters.
        let mut shown: Vec<(u8, u8, u8)> = attrs(&l.dom, &["g class=\"trap\""])
            .into_iter()
            .map(|t| {
                let n = |k| attr(t, k).unwrap().parse::<u8>().unwrap();
                (n("data-x"), n("data-y"), n("data-count"))
            })
            .collect();
        shown.sort_unstable();
        let mut want: Vec<_> = game.traps().collect();
        want.sort_unstable();
        assert_eq!(shown, want, "#{fragment}: traps");
        traps_seen += want.len();
        // Each pen-down trail, as long as the referee's; scores in the table.
        for p in 0..4 {
            let len = attrs(&l.dom, &["class=\"trail\"", &format!("data-seat=\"{p}\"")])
                .first()
                .map_or(0, |t| {
                    attr(t, "data-length").unwrap().parse::<usize>().unwrap()
                });
            assert_eq!(len, game.trail(p).len(), "#{fragment}: player {p}'s trail");
            trails_seen += len;
            let value = seat_cell(&l.dom, p, "value num");
            let score = value.trim_end_matches(" †");
            assert_eq!(
                score,
                game.score(p).to_string(),
                "#{fragment}: player {p}'s score"
            );
        }
    }
    assert!(
        traps_seen > 0 && trails_seen > 0,
        "the fixture shows traps and trails"
    );
    screenshot(&page, "turn=60", "enclosure");
}

#[test]
fn the_controls_move_the_turn() {
    let dir = common::scratch("html-controls");
    let page = replay_page("tank", &dir, &[]);
    let last = turns_of_log::<Field>(&log_doc("tank"));
    let cases: &[(&str, u32)] = &[
        ("turn=3&test=next,next,prev", 4),
        (
            "turn=3&test=key:ArrowRight,key:ArrowRight,key:ArrowRight,key:ArrowLeft",
            5,
        ),
        ("turn=5&test=first", 0),
        ("turn=2&test=last,prev", last - 1),
        ("turn=0&test=slider:9", 9),
        ("turn=0&test=key:End", last),
        ("end&test=next", last),
        ("turn=0&test=prev", 0),
    ];
    for &(fragment, want) in cases {
        let l = open(&page, fragment, 300);
        assert_clean(&l, fragment);
        assert_eq!(shown_turn(&l.dom), want, "#{fragment}");
        let label = section(&l.dom, "id=\"turn-label\"");
        assert!(
            label.contains(&format!(">turn {want} / {last}<")),
            "#{fragment}: {label}"
        );
    }
    // Play runs on by itself (virtual time passes), space pauses.
    let l = open(&page, "turn=0&test=speed:16,play", 400);
    assert_clean(&l, "play");
    let t = shown_turn(&l.dom);
    assert!(t >= 3, "after 0.4 s at 16 turns/s the page shows turn {t}");
    // The speed sets the pace: in 1.5 s, one turn at 1 turn/s, many at 16.
    let l = open(&page, "turn=0&test=speed:1,play", 1500);
    assert_eq!(shown_turn(&l.dom), 1, "1.5 s at 1 turn/s");
    let l = open(&page, "turn=0&test=speed:16,play", 1500);
    let t = shown_turn(&l.dom);
    assert!(t >= 12.min(last), "1.5 s at 16 turns/s shows turn {t}");
    // The play button pauses what it started.
    let l = open(&page, "turn=0&test=speed:16,play,play", 2000);
    assert_eq!(
        shown_turn(&l.dom),
        0,
        "the button played then paused at once"
    );
    assert!(l.dom.contains("data-playing=\"0\""), "paused");
    let l = open(&page, "turn=0&test=speed:16,key:Space,key:Space", 2000);
    assert_eq!(shown_turn(&l.dom), 0, "space played then paused at once");
    let l = open(&page, "turn=0&test=speed:16,key:Space", 3000);
    assert_eq!(shown_turn(&l.dom), last, "played to the end");
}

#[test]
fn a_botzone_log_from_the_site_replays_with_its_verdicts() {
    let dir = common::scratch("html-botzone-log");
    let log = common::fixture("replay/botzone-tank.json");
    // It names no game: the page needs --game.
    let o = Command::new(botzone())
        .args(["replay", "--html"])
        .arg(&log)
        .arg("-o")
        .arg(dir.join("x.html"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--game"));
    let page = replay_page("botzone-tank", &dir, &["--game", "tank"]);
    let l = open(&page, "end", 300);
    assert_clean(&l, "botzone log");
    let doc = log_doc("botzone-tank");
    assert_eq!(shown_turn(&l.dom), turns_of_log::<Field>(&doc));
    // The last turn's runtime error shows as a verdict.
    let verdicts = attrs(&l.dom, &["td class=\"verdict bad\""]);
    assert_eq!(verdicts.len(), 1, "{}", section(&l.dom, "seats-body"));
    assert!(section(&l.dom, "class=\"verdict bad\"").starts_with("class=\"verdict bad\">RE<"));
}

#[test]
fn the_page_reports_errors_and_blocks_the_network() {
    // The checks above can fail: a page that throws, logs an error and
    // asks for a remote image shows all three.
    let dir = common::scratch("html-broken");
    let page = replay_page("tank", &dir, &[]);
    let html = std::fs::read_to_string(&page).unwrap();
    let broken = html.replace(
        "</body>",
        "<img src=\"http://127.0.0.1:9/x.png\"><script>console.error('boom');noSuchFunction();</script></body>",
    );
    let bad = dir.join("broken.html");
    std::fs::write(&bad, broken).unwrap();
    let l = open(&bad, "turn=1", 500);
    let errors = section(&l.dom, "id=\"errors\"");
    assert!(l.dom.contains("data-errors=\"3\""), "{errors}");
    assert!(errors.contains("console.error: boom"), "{errors}");
    assert!(errors.contains("noSuchFunction"), "{errors}");
    assert!(errors.contains("blocked by the page's policy"), "{errors}");
    assert!(
        l.log.contains("CONSOLE"),
        "chromium logs the console: {}",
        l.log
    );
}

#[test]
fn report_page_links_every_games_replay() {
    let dir = common::scratch("html-report");
    let out = dir.join("run.jsonl");
    let o = Command::new(botzone())
        .args([
            "match",
            "enclosure",
            "--games",
            "4",
            "--jobs",
            "1",
            "-q",
            "--time-limit",
            "0.2",
        ])
        .args([
            "--bot", "@random", "--bot", "@random", "--bot", "@random", "--bot", "@random",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o_match = o;
    let report = dir.join("report/index.html");
    std::fs::create_dir_all(report.parent().unwrap()).unwrap();
    let o = Command::new(botzone())
        .arg("report")
        .arg(&out)
        .arg("--html")
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    assert_self_contained(&html.replace("href=\"game-", "x"), "report");
    let l = open(&report, "", 200);
    assert_clean(&l, "report");
    // The standings exactly as `botzone match` printed them.
    let table = &l.dom[l.dom.find("id=\"standings\"").expect("the standings")..];
    let table = &table[..table.find("</").unwrap_or(table.len())];
    let printed = String::from_utf8_lossy(&o_match.stdout).into_owned();
    let rows: Vec<&str> = printed
        .lines()
        .filter(|l| l.starts_with("bot ") || l.starts_with('#'))
        .collect();
    assert_eq!(rows.len(), 5, "{printed}");
    for row in rows {
        assert!(table.contains(row), "{row:?} is not in {table}");
    }
    for col in ["mean score ±95%", "#1", "#4", "TLE", "@random"] {
        assert!(table.contains(col), "{col}: {table}");
    }
    // Each bot's scores in the chart: four bots, four games each.
    let bots = attrs(&l.dom, &["g class=\"bot\""]);
    assert_eq!(bots.len(), 4);
    assert!(
        bots.iter().all(|b| attr(b, "data-count") == Some("4")),
        "{bots:?}"
    );
    assert_eq!(attrs(&l.dom, &["circle class=\"score\""]).len(), 16);
    // A link per game to its replay page, written beside the report.
    let links = attrs(&l.dom, &["a class=\"replay\""]);
    assert_eq!(links.len(), 4);
    for link in links {
        let file = report.parent().unwrap().join(attr(link, "href").unwrap());
        let page = std::fs::read_to_string(&file).expect("the linked replay page");
        assert_self_contained(&page, "linked replay");
    }
    let first = report.parent().unwrap().join("game-00000-seed-1.html");
    let l = open(&first, "end", 300);
    assert_clean(&l, "linked replay");
    assert!(shown_turn(&l.dom) > 0);
}

/// A log cut short, a file that is not JSON, a log that names no game and
/// a results file with no results: each is a clear error on stderr with a
/// non-zero exit code, never a panic and never a page.
#[test]
fn bad_logs_are_clear_errors() {
    let dir = common::scratch("bad-logs");
    let whole = std::fs::read_to_string(common::fixture("replay/pacman2.json")).unwrap();
    let cases = [
        ("truncated", &whole[..whole.len() / 2], "not JSON"),
        ("not-json", "this is no log\n", "not JSON"),
        ("no-game", r#"{"log":[{"foo":1}],"initdata":"x"}"#, "--game"),
        ("empty", "", "not JSON"),
    ];
    for (name, text, says) in cases {
        let log = dir.join(format!("{name}.json"));
        std::fs::write(&log, text).unwrap();
        for command in ["replay", "report"] {
            let out = dir.join(format!("{name}-{command}.html"));
            let o = Command::new(botzone())
                .arg(command)
                .arg(&log)
                .arg("--html")
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{command} {name}: {err}");
            assert!(err.contains("error:"), "{command} {name}: {err}");
            assert!(!err.contains("panicked"), "{command} {name}: {err}");
            if command == "replay" {
                assert!(err.contains(says), "{command} {name}: {err}");
            }
            assert!(!out.exists(), "{command} {name} wrote {}", out.display());
        }
    }
}

#[test]
fn report_page_of_a_two_player_game_shows_wins_draws_losses() {
    let dir = common::scratch("html-report-tank");
    let out = dir.join("run.jsonl");
    let bot = common::bin("tank_rules");
    let o = Command::new(botzone())
        .args(["match", "tank", "--games", "2", "--jobs", "1", "-q"])
        .args(["--time-limit", "0.5", "--bot"])
        .arg(&bot)
        .arg("--bot")
        .arg(&bot)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8_lossy(&o.stdout).into_owned();
    let report = dir.join("index.html");
    let r = Command::new(botzone())
        .arg("report")
        .arg(&out)
        .arg("--html")
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let l = open(&report, "", 200);
    assert_clean(&l, "tank report");
    let table = &l.dom[l.dom.find("id=\"standings\"").expect("the standings")..];
    let table = &table[..table.find("</").unwrap_or(table.len())];
    let rows: Vec<&str> = printed
        .lines()
        .filter(|l| l.starts_with("bot ") || l.starts_with('#'))
        .collect();
    assert_eq!(rows.len(), 3, "{printed}");
    assert!(rows[0].contains("win  draw  loss"), "{}", rows[0]);
    for row in rows {
        assert!(table.contains(row), "{row:?} is not in {table}");
    }
    assert_eq!(attrs(&l.dom, &["a class=\"replay\""]).len(), 2);
}
