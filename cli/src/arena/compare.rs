//! `botzone compare`: paired differences of match results, so that a
//! change to a bot is judged on the same maps and seats.
//!
//! - One results file: per game, one bot's score minus another's (each
//!   command's seats pooled, as the match table's `pooled` rows pool them).
//! - Two results files of the same games (the same `--seed`, `--games` and
//!   seating): per game, one bot's score in the first minus in the second,
//!   games matched by their seed and seats. A run of the bot before a
//!   change and a run after it, against the same opponents, compare this
//!   way; the difference's interval is much narrower than the two runs'
//!   own intervals, because each map's luck cancels out.
//!
//! The interval is the normal approximation (1.96 standard errors of the
//! mean difference), like the match table's.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use super::results::{mean_ci, pooled_score, read_results, GameResult};
use crate::CliError;

/// `botzone compare RESULTS [OTHER]`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// A results file written by `botzone match --out`.
    results: PathBuf,
    /// A second results file of the same games: compares `--bot` in
    /// RESULTS with `--bot` in OTHER, game by game (matched by seed and
    /// seats).
    other: Option<PathBuf>,
    /// The bot compared, by its number in the match's table (`#1` is the
    /// first `--bot`); every seat of its command counts, their mean per
    /// game.
    #[arg(long, default_value_t = 1)]
    bot: usize,
    /// With one results file, the bot it is compared with (default: the
    /// first bot with another command).
    #[arg(long, conflicts_with = "other")]
    against: Option<usize>,
}

/// One side of a comparison: a command's seats in one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// Where the results came from.
    pub file: String,
    /// The numbers in the match table (from 1) of the bots with its
    /// command.
    pub bots: Vec<usize>,
    /// Its command line (empty when the file does not name its bots).
    pub command: String,
    /// Per paired game, the mean score of its seats.
    pub scores: Vec<f64>,
}

/// A paired comparison: `a.scores[i] - b.scores[i]` per game.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The first side.
    pub a: Side,
    /// The second side.
    pub b: Side,
    /// Games of the first file with no partner in the second, and the
    /// other way round (two-file comparisons only).
    pub unmatched: (usize, usize),
}

impl Comparison {
    /// Per game, the first side's score minus the second's.
    pub fn differences(&self) -> Vec<f64> {
        self.a
            .scores
            .iter()
            .zip(&self.b.scores)
            .map(|(x, y)| x - y)
            .collect()
    }

    /// The report `botzone compare` prints.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let d = self.differences();
        let same_file = self.a.file == self.b.file;
        let _ = if same_file {
            writeln!(out, "{} games of {}, paired by game", d.len(), self.a.file)
        } else {
            writeln!(
                out,
                "{} games in both {} and {}, paired by seed and seats",
                d.len(),
                self.a.file,
                self.b.file
            )
        };
        let label = |s: &Side| {
            let bots: Vec<String> = s.bots.iter().map(|b| format!("#{b}")).collect();
            if same_file {
                bots.join(",")
            } else {
                format!("{} {}", s.file, bots.join(","))
            }
        };
        let (la, lb) = (label(&self.a), label(&self.b));
        let width = la.len().max(lb.len()).max("difference".len());
        // Three decimals for points and ranks, one for large scores.
        let large = [&self.a.scores, &self.b.scores]
            .iter()
            .any(|xs| xs.iter().any(|x| x.abs() >= 100.0));
        let decimals = if large { 1 } else { 3 };
        let interval = |(m, ci): (f64, f64), sign: bool| {
            let m = if sign {
                format!("{m:+.decimals$}")
            } else {
                format!("{m:.decimals$}")
            };
            if ci.is_nan() {
                format!("{m} ± -")
            } else {
                format!("{m} ± {ci:.decimals$}")
            }
        };
        let (m, ci) = mean_ci(&d);
        let column = [
            interval(mean_ci(&self.a.scores), false),
            interval(mean_ci(&self.b.scores), false),
            interval((m, ci), true),
        ];
        let w = column.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        for (label, side, value) in [(&la, &self.a, &column[0]), (&lb, &self.b, &column[1])] {
            let _ = writeln!(out, "  {label:<width$}  {value:>w$}  {}", side.command);
        }
        let (better, worse) = (
            d.iter().filter(|&&x| x > 0.0).count(),
            d.iter().filter(|&&x| x < 0.0).count(),
        );
        let _ = writeln!(
            out,
            "  {:<width$}  {:>w$}  a game: {better} better, {worse} worse, {} equal{}",
            "difference",
            column[2],
            d.len() - better - worse,
            if !ci.is_nan() && m.abs() > ci {
                " (the interval excludes 0)"
            } else {
                ""
            }
        );
        if !same_file && (self.unmatched.0 > 0 || self.unmatched.1 > 0) {
            let _ = writeln!(
                out,
                "unmatched: {} games only in {}, {} only in {}",
                self.unmatched.0, self.a.file, self.unmatched.1, self.b.file
            );
        }
        out
    }
}

/// The `--bot` indices (from 0) with the same command as `bot` (from 0):
/// all of them when the results name their bots, else `bot` alone.
fn group(games: &[GameResult], bot: usize) -> (Vec<usize>, String) {
    let names = games
        .iter()
        .find(|g| !g.bots.is_empty())
        .map(|g| g.bots.clone())
        .unwrap_or_default();
    match names.get(bot) {
        Some(command) => (
            (0..names.len()).filter(|&i| &names[i] == command).collect(),
            command.clone(),
        ),
        None => (vec![bot], String::new()),
    }
}

/// The number of bots a run had: its named commands, or the highest seat
/// index seen.
fn bot_count(games: &[GameResult]) -> usize {
    games
        .iter()
        .map(|g| g.bots.len().max(g.seats.iter().max().map_or(0, |m| m + 1)))
        .max()
        .unwrap_or(0)
}

fn check_bot(games: &[GameResult], bot: usize, file: &str) -> Result<usize, String> {
    let n = bot_count(games);
    if bot == 0 || bot > n {
        return Err(format!(
            "{file}: no bot #{bot} (its games have {n} bots, numbered from #1)"
        ));
    }
    Ok(bot - 1)
}

/// One file: per game, the seats of `bot` against the seats of `against`
/// (bot numbers from 1; `against` defaults to the first bot with another
/// command).
pub fn within(
    games: &[GameResult],
    file: &str,
    bot: usize,
    against: Option<usize>,
) -> Result<Comparison, String> {
    if games.is_empty() {
        return Err(format!("{file}: no finished games"));
    }
    let a = check_bot(games, bot, file)?;
    let (a_bots, a_command) = group(games, a);
    let b = match against {
        Some(b) => check_bot(games, b, file)?,
        None => (0..bot_count(games))
            .find(|i| !a_bots.contains(i))
            .ok_or_else(|| {
                format!("{file}: one command in every seat; name the other bot with --against")
            })?,
    };
    let (b_bots, b_command) = group(games, b);
    if a_bots.iter().any(|i| b_bots.contains(i)) {
        return Err(format!(
            "{file}: bots #{bot} and #{} run the same command: nothing to compare",
            b + 1
        ));
    }
    let mut side_a = Side {
        file: file.to_string(),
        bots: a_bots.iter().map(|i| i + 1).collect(),
        command: a_command,
        scores: Vec::new(),
    };
    let mut side_b = Side {
        file: file.to_string(),
        bots: b_bots.iter().map(|i| i + 1).collect(),
        command: b_command,
        scores: Vec::new(),
    };
    for g in games {
        if let (Some(x), Some(y)) = (pooled_score(g, &a_bots), pooled_score(g, &b_bots)) {
            side_a.scores.push(x);
            side_b.scores.push(y);
        }
    }
    Ok(Comparison {
        a: side_a,
        b: side_b,
        unmatched: (0, 0),
    })
}

/// Two files: per game (matched by seed and seats), `bot`'s seats in the
/// first minus its seats in the second (bot number from 1).
pub fn between(
    first: (&[GameResult], &str),
    second: (&[GameResult], &str),
    bot: usize,
) -> Result<Comparison, String> {
    let mut sides = Vec::new();
    let mut keyed = Vec::new();
    for (games, file) in [first, second] {
        if games.is_empty() {
            return Err(format!("{file}: no finished games"));
        }
        let i = check_bot(games, bot, file)?;
        let (bots, command) = group(games, i);
        let mut by_key: BTreeMap<(u64, Vec<usize>), f64> = BTreeMap::new();
        for g in games {
            if let Some(s) = pooled_score(g, &bots) {
                // A rerun of one game (say after --resume) keeps the first.
                by_key.entry((g.seed, g.seats.clone())).or_insert(s);
            }
        }
        keyed.push(by_key);
        sides.push(Side {
            file: file.to_string(),
            bots: bots.iter().map(|i| i + 1).collect(),
            command,
            scores: Vec::new(),
        });
    }
    let (ka, kb) = (&keyed[0], &keyed[1]);
    let mut only_a = 0;
    for (key, &x) in ka {
        match kb.get(key) {
            Some(&y) => {
                sides[0].scores.push(x);
                sides[1].scores.push(y);
            }
            None => only_a += 1,
        }
    }
    let only_b = kb.keys().filter(|k| !ka.contains_key(*k)).count();
    if sides[0].scores.is_empty() {
        return Err(format!(
            "no game of {} has a partner in {} (the same seed and seats): \
             were both run with the same --seed, --games and --map-per-game?",
            first.1, second.1
        ));
    }
    let b = sides.pop().expect("two sides");
    let a = sides.pop().expect("two sides");
    Ok(Comparison {
        a,
        b,
        unmatched: (only_a, only_b),
    })
}

fn load(path: &Path) -> Result<Vec<GameResult>, CliError> {
    if !path.exists() {
        return Err(format!("{}: no such results file", path.display()).into());
    }
    read_results(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// `botzone compare`.
pub fn run_compare(args: CompareArgs) -> Result<(), CliError> {
    let games = load(&args.results)?;
    let name = args.results.display().to_string();
    let comparison = match &args.other {
        None => within(&games, &name, args.bot, args.against)?,
        Some(other) => {
            let other_games = load(other)?;
            let other_name = other.display().to_string();
            between((&games, &name), (&other_games, &other_name), args.bot)?
        }
    };
    print!("{}", comparison.render());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(
        game: usize,
        seed: u64,
        seats: Vec<usize>,
        scores: Vec<f64>,
        bots: &[&str],
    ) -> GameResult {
        GameResult {
            game,
            seed,
            verdicts: vec!["OK".into(); seats.len()],
            seats,
            scores,
            turns: 10,
            log: None,
            bots: bots.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn mean_and_interval() {
        let (m, ci) = mean_ci(&[1.0, 2.0, 3.0]);
        assert_eq!(m, 2.0);
        assert!((ci - 1.96 / 3f64.sqrt()).abs() < 1e-12);
        assert!(mean_ci(&[5.0]).1.is_nan());
    }

    #[test]
    fn one_file_pools_each_commands_seats_per_game() {
        let bots = ["new", "old", "new", "old"];
        let games = [
            game(0, 1, vec![0, 1, 2, 3], vec![10.0, 4.0, 6.0, 2.0], &bots),
            game(1, 2, vec![1, 2, 3, 0], vec![9.0, 3.0, 1.0, 1.0], &bots),
        ];
        let c = within(&games, "run.jsonl", 1, None).unwrap();
        assert_eq!(c.a.scores, vec![8.0, 2.0]);
        assert_eq!(c.b.scores, vec![3.0, 5.0]);
        assert_eq!(
            (c.a.bots.clone(), c.b.bots.clone()),
            (vec![1, 3], vec![2, 4])
        );
        assert_eq!(c.differences(), vec![5.0, -3.0]);
        let text = c.render();
        assert!(
            text.contains("2 games of run.jsonl, paired by game"),
            "{text}"
        );
        assert!(text.contains("#1,#3"), "{text}");
        assert!(text.contains("1 better, 1 worse, 0 equal"), "{text}");
        assert!(!text.contains("excludes 0"), "{text}");
        // Self-play compares nothing.
        let same = [game(0, 1, vec![0, 1], vec![1.0, 1.0], &["x", "x"])];
        assert!(within(&same, "s", 1, None)
            .unwrap_err()
            .contains("--against"));
        assert!(within(&same, "s", 3, None)
            .unwrap_err()
            .contains("no bot #3"));
    }

    #[test]
    fn two_files_pair_games_by_seed_and_seats() {
        let a = [
            game(0, 7, vec![0, 1], vec![2.0, 0.0], &["new", "base"]),
            game(1, 8, vec![1, 0], vec![1.0, 1.0], &["new", "base"]),
            game(2, 9, vec![0, 1], vec![2.0, 0.0], &["new", "base"]),
        ];
        // The same games in another order, one missing, one extra.
        let b = [
            game(1, 8, vec![1, 0], vec![2.0, 0.0], &["old", "base"]),
            game(0, 7, vec![0, 1], vec![1.0, 1.0], &["old", "base"]),
            game(3, 10, vec![1, 0], vec![1.0, 1.0], &["old", "base"]),
        ];
        let c = between((&a, "a"), (&b, "b"), 1).unwrap();
        // Seed 7: 2 - 1; seed 8 (bot 0 in seat 1): 1 - 0.
        assert_eq!(c.differences(), vec![1.0, 1.0]);
        assert_eq!(c.unmatched, (1, 1));
        assert_eq!((c.a.command.as_str(), c.b.command.as_str()), ("new", "old"));
        let text = c.render();
        assert!(text.contains("2 games in both a and b"), "{text}");
        assert!(
            text.contains("unmatched: 1 games only in a, 1 only in b"),
            "{text}"
        );
        // Games with other seats have no partner.
        let c2 = [game(0, 7, vec![1, 0], vec![1.0, 1.0], &["old", "base"])];
        assert!(between((&a, "a"), (&c2, "c"), 1)
            .unwrap_err()
            .contains("partner"));
    }

    #[test]
    fn a_clear_difference_is_flagged() {
        let a: Vec<GameResult> = (0..20)
            .map(|i| game(i, i as u64, vec![0, 1], vec![2.0, 0.0], &["new", "base"]))
            .collect();
        let b: Vec<GameResult> = (0..20)
            .map(|i| {
                let s = if i % 2 == 0 { 1.0 } else { 0.0 };
                game(i, i as u64, vec![0, 1], vec![s, 2.0 - s], &["old", "base"])
            })
            .collect();
        let text = between((&a, "a"), (&b, "b"), 1).unwrap().render();
        assert!(text.contains("+1.500"), "{text}");
        assert!(text.contains("20 better, 0 worse"), "{text}");
        assert!(text.contains("the interval excludes 0"), "{text}");
    }
}
