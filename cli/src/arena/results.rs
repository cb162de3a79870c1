//! Results: one JSON line per finished game (so an interrupted run keeps
//! what finished and `--resume` continues it), and the standings table.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::Path;

use botzone::games::Scoring;
use serde::{Deserialize, Serialize};

use super::process::Verdict;

/// One finished game, as one line of the results file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameResult {
    /// The game's index in the run (0-based).
    pub game: usize,
    /// The map's seed.
    pub seed: u64,
    /// `seats[s]`: the index (in `--bot` order) of the bot in seat `s`.
    pub seats: Vec<usize>,
    /// Final score per seat.
    pub scores: Vec<f64>,
    /// Per seat: the first verdict that was not OK, or "OK".
    pub verdicts: Vec<String>,
    /// Turns played.
    pub turns: usize,
    /// Where the game's log was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// The run's bot commands, in `--bot` order (so that the results name
    /// their bots without the logs; empty in files of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<String>,
}

/// Reads the results already in `path` (skipping a torn last line).
///
/// # Errors
/// When the file cannot be read.
pub fn read_results(path: &Path) -> std::io::Result<Vec<GameResult>> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Ok(r) = serde_json::from_str::<GameResult>(&line) {
            out.push(r);
        }
    }
    Ok(out)
}

/// Ranks per seat: 1 for the best score, equal scores share the best rank.
pub fn ranks(scores: &[f64]) -> Vec<usize> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| *o > s).count())
        .collect()
}

/// Per-bot totals.
#[derive(Clone, Debug, Default)]
pub struct BotStats {
    /// Scores of every game played.
    pub scores: Vec<f64>,
    /// `ranks[r]`: games finished at rank r+1.
    pub ranks: Vec<usize>,
    /// Count of turns-with-verdict (per game, the first bad verdict).
    pub verdicts: BTreeMap<Verdict, usize>,
}

impl BotStats {
    /// Mean score.
    pub fn mean(&self) -> f64 {
        if self.scores.is_empty() {
            return 0.0;
        }
        self.scores.iter().sum::<f64>() / self.scores.len() as f64
    }

    /// "mean ± half-width" as the table prints it ("-" for the width of
    /// fewer than two scores).
    fn mean_with_ci(&self) -> String {
        let ci = self.ci95();
        if ci.is_nan() {
            format!("{:.2} ± -", self.mean())
        } else {
            format!("{:.2} ± {ci:.2}", self.mean())
        }
    }

    /// Half-width of the 95% confidence interval of the mean (normal
    /// approximation, sample standard deviation).
    pub fn ci95(&self) -> f64 {
        mean_ci(&self.scores).1
    }
}

/// Mean and half-width of the 95% confidence interval of the mean (normal
/// approximation, sample standard deviation): NaN for the mean of nothing
/// and for the width of fewer than two values.
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len();
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    (mean, 1.96 * (var / n as f64).sqrt())
}

/// The mean score of the seats of game `r` held by the bots in `bots`
/// (their `--bot` indices, from 0); `None` when they hold none.
pub fn pooled_score(r: &GameResult, bots: &[usize]) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for (b, s) in r.seats.iter().zip(&r.scores) {
        if bots.contains(b) {
            sum += s;
            n += 1;
        }
    }
    (n > 0).then(|| sum / n as f64)
}

/// Standings of a run.
#[derive(Clone, Debug)]
pub struct Standings {
    /// The bots' command lines, in `--bot` order.
    pub names: Vec<String>,
    /// Seats per game.
    pub seats: usize,
    /// How the game's scores rank the players.
    pub scoring: Scoring,
    /// Per bot.
    pub bots: Vec<BotStats>,
    /// Per command given to more than one `--bot` (in order of first
    /// appearance), when there are other commands too: its seats pooled,
    /// one mean score per game.
    pub pooled: Vec<Pooled>,
    /// Games counted.
    pub games: usize,
}

/// A command that sits in several seats of each game, its seats taken
/// together: what a yardstick such as `--bot NEW --bot OLD --bot NEW --bot
/// OLD` compares.
#[derive(Clone, Debug)]
pub struct Pooled {
    /// The command line.
    pub name: String,
    /// Its `--bot` indices.
    pub bots: Vec<usize>,
    /// Per game, the mean score of its seats; the 95% interval is taken
    /// over these (the seats of one game are not independent).
    pub stats: BotStats,
    /// Games in which one of its seats ranked first (alone or tied).
    pub first: usize,
}

impl Standings {
    /// Empty standings for these bots.
    pub fn new(names: Vec<String>, seats: usize, scoring: Scoring) -> Standings {
        let bots = names
            .iter()
            .map(|_| BotStats {
                ranks: vec![0; seats],
                ..BotStats::default()
            })
            .collect();
        let mut pooled: Vec<Pooled> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            match pooled.iter_mut().find(|p| &p.name == name) {
                Some(p) => p.bots.push(i),
                None => pooled.push(Pooled {
                    name: name.clone(),
                    bots: vec![i],
                    stats: BotStats::default(),
                    first: 0,
                }),
            }
        }
        // Only a comparison needs pooling: not one command in every seat.
        if pooled.len() > 1 {
            pooled.retain(|p| p.bots.len() > 1);
        } else {
            pooled.clear();
        }
        Standings {
            names,
            seats,
            scoring,
            bots,
            pooled,
            games: 0,
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        let ranks = ranks(&r.scores);
        for (seat, &bot) in r.seats.iter().enumerate() {
            let Some(stats) = self.bots.get_mut(bot) else {
                continue;
            };
            stats.scores.push(r.scores[seat]);
            if let Some(slot) = stats.ranks.get_mut(ranks[seat] - 1) {
                *slot += 1;
            }
            if let Some(v) = r.verdicts.get(seat).and_then(|v| Verdict::parse(v)) {
                if v != Verdict::Ok {
                    *stats.verdicts.entry(v).or_default() += 1;
                }
            }
        }
        for p in &mut self.pooled {
            let Some(mean) = pooled_score(r, &p.bots) else {
                continue;
            };
            p.stats.scores.push(mean);
            if (r.seats.iter().zip(&ranks)).any(|(b, &rank)| rank == 1 && p.bots.contains(b)) {
                p.first += 1;
            }
        }
    }

    /// One short line for the progress bar: each bot's mean score.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for (i, b) in self.bots.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let _ = write!(s, "#{}: {:.2}", i + 1, b.mean());
        }
        s
    }

    /// The final table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let win_draw_loss = match self.scoring {
            Scoring::WinDrawLoss { win, draw, loss } => Some((win, draw, loss)),
            Scoring::Ranked => None,
        };
        let _ = write!(
            out,
            "{:<4} {:>6} {:>17}  ",
            "bot", "games", "mean score ±95%"
        );
        if win_draw_loss.is_some() {
            let _ = write!(
                out,
                "{:>5} {:>5} {:>5} {:>7}",
                "win", "draw", "loss", "points%"
            );
        } else {
            for r in 1..=self.seats {
                let _ = write!(out, "{:>5}", format!("#{r}"));
            }
        }
        let _ = writeln!(
            out,
            "  {:>4} {:>4} {:>4} {:>4} {:>4}  command",
            "TLE", "MLE", "RE", "NJ", "OLE"
        );
        for (i, b) in self.bots.iter().enumerate() {
            let _ = write!(
                out,
                "{:<4} {:>6} {:>17}  ",
                format!("#{}", i + 1),
                b.scores.len(),
                b.mean_with_ci()
            );
            if let Some((win, draw, loss)) = win_draw_loss {
                // Each score counts as the nearest of the three.
                let nearest = |s: f64| {
                    let d = |v: f64| (s - v).abs();
                    if d(win) < d(draw) && d(win) < d(loss) {
                        0
                    } else if d(draw) <= d(loss) {
                        1
                    } else {
                        2
                    }
                };
                let count = |k| b.scores.iter().filter(|&&s| nearest(s) == k).count();
                let (wins, draws, losses) = (count(0), count(1), count(2));
                let points = if b.scores.is_empty() {
                    0.0
                } else {
                    100.0 * b.scores.iter().sum::<f64>() / (win * b.scores.len() as f64)
                };
                let _ = write!(out, "{wins:>5} {draws:>5} {losses:>5} {points:>6.1}%");
            } else {
                for r in &b.ranks {
                    let _ = write!(out, "{r:>5}");
                }
            }
            let v = |k: Verdict| b.verdicts.get(&k).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "  {:>4} {:>4} {:>4} {:>4} {:>4}  {}",
                v(Verdict::Tle),
                v(Verdict::Mle),
                v(Verdict::Re),
                v(Verdict::Nj),
                v(Verdict::Ole),
                self.names[i]
            );
        }
        if !self.pooled.is_empty() {
            let _ = writeln!(
                out,
                "pooled: a command in several seats, its mean score per game (±95% over games)"
            );
            let _ = writeln!(
                out,
                "{:<12} {:>6} {:>17}  {:>5}  command",
                "bots", "games", "mean score ±95%", "first"
            );
            for p in &self.pooled {
                let bots: Vec<String> = p.bots.iter().map(|b| format!("#{}", b + 1)).collect();
                let _ = writeln!(
                    out,
                    "{:<12} {:>6} {:>17}  {:>5}  {}",
                    bots.join(","),
                    p.stats.scores.len(),
                    p.stats.mean_with_ci(),
                    p.first,
                    p.name
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties() {
        assert_eq!(ranks(&[3.0, 5.0, 3.0, 1.0]), vec![2, 1, 2, 4]);
        assert_eq!(ranks(&[1.0, 1.0]), vec![1, 1]);
    }

    #[test]
    fn table_counts() {
        let scoring = Scoring::WinDrawLoss {
            win: 2.0,
            draw: 1.0,
            loss: 0.0,
        };
        let mut s = Standings::new(vec!["a".into(), "b".into()], 2, scoring);
        for g in 0..4 {
            s.add(&GameResult {
                game: g,
                seed: 1,
                seats: vec![g % 2, 1 - g % 2],
                scores: vec![2.0, 0.0],
                verdicts: vec!["OK".into(), "TLE".into()],
                turns: 3,
                log: None,
                bots: Vec::new(),
            });
        }
        assert_eq!(s.bots[0].scores, vec![2.0, 0.0, 2.0, 0.0]);
        assert_eq!(s.bots[1].verdicts[&Verdict::Tle], 2);
        let t = s.table();
        assert!(t.contains("50.0%"), "{t}");
        assert!(!t.contains("pooled"), "{t}");
    }

    #[test]
    fn a_command_in_several_seats_is_pooled_per_game() {
        let names = ["new", "old", "new", "old"].map(String::from).to_vec();
        let mut s = Standings::new(names, 4, Scoring::Ranked);
        let games = [
            (vec![0, 1, 2, 3], vec![10.0, 4.0, 6.0, 2.0]),
            (vec![1, 2, 3, 0], vec![9.0, 3.0, 1.0, 1.0]),
        ];
        for (g, (seats, scores)) in games.into_iter().enumerate() {
            s.add(&GameResult {
                game: g,
                seed: 1,
                seats,
                scores,
                verdicts: vec!["OK".into(); 4],
                turns: 3,
                log: None,
                bots: Vec::new(),
            });
        }
        assert_eq!(s.pooled.len(), 2);
        assert_eq!(s.pooled[0].name, "new");
        assert_eq!(s.pooled[0].bots, vec![0, 2]);
        // Game 0: seats 0 and 2 (10, 6); game 1: seats 3 and 1 (1, 3).
        assert_eq!(s.pooled[0].stats.scores, vec![8.0, 2.0]);
        assert_eq!(s.pooled[1].stats.scores, vec![3.0, 5.0]);
        assert_eq!((s.pooled[0].first, s.pooled[1].first), (1, 1));
        let t = s.table();
        assert!(t.contains("#1,#3"), "{t}");
        assert!(t.contains("5.00 ± 5.88"), "{t}");

        // Self-play (one command everywhere) compares nothing.
        let same = Standings::new(vec!["a".into(); 4], 4, Scoring::Ranked);
        assert!(same.pooled.is_empty());
    }
}
