//! Enclosure start vertices, paired: in every game one seat (the game number
//! mod 4) starts on each candidate vertex in turn, beside three [`Pilot`]s
//! (the planner of `enclosure_mc`, all on [`Params::STRONG`]) started on
//! random vertices, the same three for every candidate. The candidate is
//! turned by a random quarter turn per game (the board is square, so a
//! corner stays a corner). It prints one JSON line per game (`random`: the
//! four vertices drawn, the seat's own replaced by each candidate; `scores`:
//! the seat's score with each candidate) and, on stderr,
//! each candidate's mean score and its paired difference from the first
//! candidate, with 95% intervals.
//!
//! A start is chosen blind (a bot answers `[START] m` before it sees anybody
//! else), so random vertices stand for opponents of any design.
//!
//! ```text
//! cargo run --release --example enclosure_starts -- 200 6000 0,0 3,3 5,5 > starts.jsonl
//! ```
//!
//! Arguments: the number of games, the first game's seed, then the
//! candidates as `x,y` (`0..=10` each; the first is the reference).
//!
//! [`Pilot`]: botzone::games::enclosure::plan::Pilot

use botzone::games::enclosure::plan::Params;
use botzone::games::enclosure::{random_starts, CELL_SIDE, PLAYERS};
use botzone::rng::Rng;

mod enclosure_common;
use enclosure_common::{mean_and_half_width, play};

/// The largest vertex coordinate.
const SIDE: i32 = CELL_SIDE as i32;

fn fail(message: String) -> ! {
    eprintln!("enclosure_starts: {message}");
    std::process::exit(2)
}

/// A candidate `x,y` with both coordinates on the board.
fn parse_vertex(arg: &str) -> Option<(i32, i32)> {
    let (x, y) = arg.split_once(',')?;
    let (x, y): (i32, i32) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    ((0..=SIDE).contains(&x) && (0..=SIDE).contains(&y)).then_some((x, y))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        fail("usage: enclosure_starts GAMES SEED X,Y [X,Y ...]".into());
    }
    let games: u64 = args[0]
        .parse()
        .unwrap_or_else(|_| fail(format!("games: expected a number, found {:?}", args[0])));
    let seed: u64 = args[1]
        .parse()
        .unwrap_or_else(|_| fail(format!("seed: expected a number, found {:?}", args[1])));
    let candidates: Vec<(i32, i32)> = args[2..]
        .iter()
        .map(|a| {
            parse_vertex(a).unwrap_or_else(|| {
                fail(format!(
                    "expected a vertex x,y with 0 <= x, y <= {SIDE}, found {a:?}"
                ))
            })
        })
        .collect();
    let mut scores = vec![Vec::new(); candidates.len()];
    for g in 0..games {
        let mut rng = Rng::new(seed + g);
        let seat = (g % PLAYERS as u64) as usize;
        let random = random_starts(&mut rng);
        let turns = rng.below(4);
        let mut line = Vec::new();
        for (c, &(mut x, mut y)) in candidates.iter().enumerate() {
            for _ in 0..turns {
                (x, y) = (SIDE - y, x);
            }
            let mut starts = random;
            starts[seat] = (x, y);
            let score = play(starts, [Params::STRONG; PLAYERS])[seat];
            scores[c].push(f64::from(score));
            line.push(score);
        }
        println!(
            "{{\"seed\":{},\"seat\":{seat},\"random\":{:?},\"scores\":{line:?}}}",
            seed + g,
            random.map(|(x, y)| [x, y])
        );
    }
    if games == 0 {
        return;
    }
    for (c, &(x, y)) in candidates.iter().enumerate() {
        let (m, mh) = mean_and_half_width(&scores[c]);
        let diff: Vec<f64> = scores[c]
            .iter()
            .zip(&scores[0])
            .map(|(a, b)| a - b)
            .collect();
        let (d, dh) = mean_and_half_width(&diff);
        eprintln!(
            "({x}, {y}): {m:.1} ± {mh:.1} a game over {games}; minus ({}, {}): {d:+.1} ± {dh:.1}",
            candidates[0].0, candidates[0].1
        );
    }
}
