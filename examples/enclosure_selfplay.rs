//! Enclosure self-play, paired: four [`Pilot`]s (the planner of
//! `enclosure_mc`) start on random vertices, and every game is played twice,
//! once with all four on [`Params::STRONG`] and once with one seat (the game
//! number mod 4) on a variant. It prints one JSON line per game and, on
//! stderr, the variant seat's mean score in both plays and the paired
//! difference with a 95% interval.
//!
//! Against copies of itself the bot meets opponents that plan and bail out
//! as carefully as it does, and nobody dies: the land each one takes is all
//! there is to win. The baselines of the arena tables die often, so those
//! tables measure killing more than enclosing. Edit [`variant`] to compare
//! another setting.
//!
//! ```text
//! cargo run --release --example enclosure_selfplay -- 200 1000 > selfplay.jsonl
//! ```
//!
//! Arguments: the number of games (default 200) and the first game's seed
//! (default 1000).
//!
//! [`Pilot`]: botzone::games::enclosure::plan::Pilot

use botzone::games::enclosure::plan::Params;
use botzone::games::enclosure::{random_starts, PLAYERS};
use botzone::rng::Rng;

mod enclosure_common;
use enclosure_common::{mean_and_half_width, play};

/// The setting compared with [`Params::STRONG`].
fn variant() -> Params {
    Params {
        early_gain: Params::STRONG.min_gain,
        ..Params::STRONG
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64, what: &str| match args.next() {
        None => default,
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!("enclosure_selfplay: {what}: expected a number, found {a:?}");
            std::process::exit(2)
        }),
    };
    let games = number(200, "games");
    let seed = number(1000, "seed");
    let (mut strong, mut other, mut diff) = (Vec::new(), Vec::new(), Vec::new());
    for g in 0..games {
        let mut rng = Rng::new(seed + g);
        let starts = random_starts(&mut rng);
        let seat = (g % PLAYERS as u64) as usize;
        let mut params = [Params::STRONG; PLAYERS];
        let a = play(starts, params);
        params[seat] = variant();
        let b = play(starts, params);
        println!(
            "{{\"seed\":{},\"seat\":{seat},\"strong\":{a:?},\"variant\":{b:?}}}",
            seed + g
        );
        strong.push(f64::from(a[seat]));
        other.push(f64::from(b[seat]));
        diff.push(f64::from(b[seat] - a[seat]));
    }
    if games > 0 {
        let (s, sh) = mean_and_half_width(&strong);
        let (o, oh) = mean_and_half_width(&other);
        let (d, dh) = mean_and_half_width(&diff);
        let better = diff.iter().filter(|&&x| x > 0.0).count();
        let worse = diff.iter().filter(|&&x| x < 0.0).count();
        eprintln!(
            "{games} games: the seat scores {s:.1} ± {sh:.1} with STRONG, {o:.1} ± {oh:.1} \
             with the variant; variant - STRONG {d:+.1} ± {dh:.1} a game ({better} better, \
             {worse} worse)"
        );
    }
}
