//! `botzone report RESULTS.jsonl --html`: a match's report page (the table
//! `botzone match` prints, each bot's score distribution, every game with
//! a link to its replay page, written beside the report).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use botzone::games::registry::GameKind;
use clap::Args;
use serde_json::Value;

use super::{escape, page};
use crate::arena::results::{read_results, GameResult, Standings};
use crate::CliError;

/// Colours of the bots in the report (by `--bot` number).
const COLORS: [&str; 8] = [
    "#d7263d", "#2e933c", "#1b6ac9", "#e08e0b", "#7b3fa0", "#0f9a9a", "#8a5a2b", "#555555",
];

/// Arguments of `botzone report`.
#[derive(Args)]
pub struct ReportArgs {
    /// The results of `botzone match` (its --out: one JSON line per game).
    results: PathBuf,
    /// Write the report as one self-contained HTML page, with a replay page
    /// for every game whose log is there (without it: print the table).
    #[arg(long)]
    html: bool,
    /// Where the page goes (default: the results' path with .html); the
    /// replay pages go beside it.
    #[arg(short = 'o', long, requires = "html")]
    out: Option<PathBuf>,
    /// The game, when no game's log can be read to tell it.
    #[arg(long, value_parser = crate::game_kind(None))]
    game: Option<GameKind>,
}

/// One game of the run with its log, when it could be read.
struct Played {
    result: GameResult,
    log: Option<Value>,
    /// Why the log could not be read (shown on the page).
    missing: Option<String>,
    /// The replay page's file name, once written.
    replay: Option<String>,
}

/// The log of a result: its path as written, else relative to the results'
/// folder.
fn log_path(results: &Path, log: &str) -> PathBuf {
    let p = PathBuf::from(log);
    if p.exists() || p.is_absolute() {
        return p;
    }
    results.parent().map_or_else(|| p.clone(), |d| d.join(&p))
}

/// A run's results with their logs, read back.
struct Run {
    kind: GameKind,
    played: Vec<Played>,
    names: Vec<String>,
    standings: Standings,
}

/// Reads the results and the logs they name.
fn load(results_path: &Path, game: Option<GameKind>) -> Result<Run, CliError> {
    let results = read_results(results_path)
        .map_err(|e| format!("cannot read {}: {e}", results_path.display()))?;
    if results.is_empty() {
        return Err(format!("{}: no results in it", results_path.display()).into());
    }
    let mut played: Vec<Played> = results
        .into_iter()
        .map(|result| {
            let (log, missing) = match &result.log {
                None => (None, Some("no log saved".to_string())),
                Some(l) => match super::replay::read_log(&log_path(results_path, l)) {
                    Ok(doc) => (Some(doc), None),
                    Err(e) => (None, Some(e.to_string())),
                },
            };
            Played {
                result,
                log,
                missing,
                replay: None,
            }
        })
        .collect();
    played.sort_by_key(|p| p.result.game);
    let from_log = played.iter().find_map(|p| {
        p.log
            .as_ref()
            .and_then(|l| l.get("game"))
            .and_then(Value::as_str)
            .and_then(|g| g.parse::<GameKind>().ok())
    });
    let kind = from_log.or(game).ok_or_else(|| {
        format!(
            "{}: no game log can be read to tell the game: say which with --game",
            results_path.display()
        )
    })?;
    // The bots' commands, by --bot number, from the results (files of
    // older versions have none) or else from the logs.
    let bot_count = played
        .iter()
        .flat_map(|p| p.result.seats.iter().copied())
        .max()
        .map_or(0, |m| m + 1)
        .max(
            played
                .iter()
                .map(|p| p.result.bots.len())
                .max()
                .unwrap_or(0),
        );
    let mut names: Vec<String> = (0..bot_count).map(|b| format!("bot #{}", b + 1)).collect();
    for p in &played {
        let Some(bots) = p
            .log
            .as_ref()
            .and_then(|l| l.get("bots"))
            .and_then(Value::as_array)
        else {
            continue;
        };
        for (seat, &bot) in p.result.seats.iter().enumerate() {
            if let Some(name) = bots.get(seat).and_then(Value::as_str) {
                names[bot] = name.to_string();
            }
        }
    }
    for p in &played {
        for (bot, name) in p.result.bots.iter().enumerate() {
            names[bot].clone_from(name);
        }
    }
    let mut standings = Standings::new(names.clone(), kind.seats(), kind.scoring());
    for p in &played {
        standings.add(&p.result);
    }
    Ok(Run {
        kind,
        played,
        names,
        standings,
    })
}

/// The whole report, and the replay pages `(file name, html)` to write
/// beside it.
fn build(
    results_path: &Path,
    game: Option<GameKind>,
) -> Result<(String, Vec<(String, String)>), CliError> {
    let Run {
        kind,
        mut played,
        names,
        standings,
    } = load(results_path, game)?;
    // The replay pages.
    let mut pages = Vec::new();
    for p in &mut played {
        let Some(log) = &p.log else { continue };
        let stem = p
            .result
            .log
            .as_deref()
            .and_then(|l| Path::new(l).file_stem())
            .map_or_else(
                || format!("game-{:05}", p.result.game),
                |s| s.to_string_lossy().into_owned(),
            );
        let file = format!("{stem}.html");
        let title = format!(
            "{} replay: game {} (seed {})",
            kind.name(),
            p.result.game,
            p.result.seed
        );
        match super::replay::replay_page(log, kind, &title) {
            Ok(html) => {
                pages.push((file.clone(), html));
                p.replay = Some(file);
            }
            Err(e) => p.missing = Some(format!("cannot replay: {e}")),
        }
    }
    let title = format!("{} match: {} games", kind.name(), played.len());
    let mut body = format!("<h1>{}</h1>\n", escape(&title));
    let _ = write!(
        body,
        "<p class=\"note\">{}</p>\n<h2>Standings</h2>\n<pre id=\"standings\">{}</pre>\n",
        escape(&results_path.display().to_string()),
        escape(&standings.table())
    );
    body.push_str("<h2>Scores</h2>\n");
    body.push_str(&distribution(&standings));
    body.push_str(&games_table(&played, &names));
    Ok((page(&title, REPORT_STYLE, &body, &[]), pages))
}

const REPORT_STYLE: &str = "h2{font-size:16px;margin:14px 0 4px}\n\
pre{background:#fff;border:1px solid #ccc;padding:6px;overflow-x:auto}\n\
#distribution{width:100%;max-width:720px;background:#fff;border:1px solid #ccc}\n";

/// Each bot's scores as dots on one axis, with the mean marked: an SVG.
fn distribution(standings: &Standings) -> String {
    let all: Vec<f64> = standings
        .bots
        .iter()
        .flat_map(|b| b.scores.iter().copied())
        .collect();
    let mut lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let mut hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        lo = 0.0;
    }
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        hi = lo + 1.0;
    }
    let (w, row, left, right) = (720.0, 40.0, 70.0, 20.0);
    let h = row * standings.bots.len() as f64 + 30.0;
    let x = |v: f64| left + (w - left - right) * (v - lo) / (hi - lo);
    let mut svg = format!(
        "<svg id=\"distribution\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"each bot's scores\">\n"
    );
    for (i, b) in standings.bots.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let y = row * i as f64 + row / 2.0;
        let _ = writeln!(
            svg,
            "<g class=\"bot\" data-bot=\"{}\" data-count=\"{}\" data-mean=\"{:.4}\">\
             <text x=\"4\" y=\"{:.1}\" font-size=\"12\">#{}</text>\
             <line x1=\"{left}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>",
            i + 1,
            b.scores.len(),
            b.mean(),
            y + 4.0,
            i + 1,
            w - right
        );
        // Equal scores stack a little apart so that their count shows.
        let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
        for &s in &b.scores {
            let k = seen.entry(s.to_bits()).or_default();
            let step = (*k % 9).div_ceil(2) as f64 * 3.0;
            let dy = if *k % 2 == 1 { step } else { -step };
            *k += 1;
            let _ = write!(
                svg,
                "<circle class=\"score\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{color}\" fill-opacity=\"0.5\"><title>{s}</title></circle>",
                x(s),
                y + dy
            );
        }
        if !b.scores.is_empty() {
            let m = x(b.mean());
            let _ = write!(
                svg,
                "<line class=\"mean\" x1=\"{m:.1}\" x2=\"{m:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-width=\"2\"><title>mean {:.2}</title></line>",
                y - 13.0,
                y + 13.0,
                b.mean()
            );
        }
        svg.push_str("</g>\n");
    }
    let base = h - 14.0;
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555\">{}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555\" text-anchor=\"end\">{}</text>",
        base + 10.0,
        lo,
        w - right,
        base + 10.0,
        hi
    );
    svg.push_str("</svg>\n<p class=\"note\">Each dot is one game's score, the bar the mean.</p>\n");
    svg
}

/// Every game: seed, who sat where, scores, verdicts, turns, its replay.
fn games_table(played: &[Played], names: &[String]) -> String {
    let mut t = String::from(
        "<h2>Games</h2>\n<table id=\"games\"><thead><tr><th>game</th><th>seed</th>\
         <th>seats (bot: score, verdict)</th><th>turns</th><th>replay</th></tr></thead><tbody>\n",
    );
    for p in played {
        let r = &p.result;
        let seats: Vec<String> = r
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &bot)| {
                let v = r.verdicts.get(seat).map_or("", String::as_str);
                let verdict = if v == "OK" || v.is_empty() {
                    String::new()
                } else {
                    format!(" <span class=\"bad\">{}</span>", escape(v))
                };
                format!(
                    "<span title=\"{}\">#{}</span>: {}{verdict}",
                    escape(names.get(bot).map_or("", String::as_str)),
                    bot + 1,
                    r.scores.get(seat).copied().unwrap_or(f64::NAN)
                )
            })
            .collect();
        let replay = match (&p.replay, &p.missing) {
            (Some(file), _) => format!("<a class=\"replay\" href=\"{0}\">{0}</a>", escape(file)),
            (None, Some(why)) => format!("<span class=\"note\">{}</span>", escape(why)),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            t,
            "<tr data-game=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td>{replay}</td></tr>",
            r.game,
            r.game,
            r.seed,
            seats.join(" | "),
            r.turns
        );
    }
    t.push_str("</tbody></table>\n");
    t
}

/// `botzone report RESULTS [--html [-o FILE]]`.
///
/// # Errors
/// When the results cannot be read, or a page cannot be written.
pub fn run(args: ReportArgs) -> Result<(), CliError> {
    if !args.html {
        let run = load(&args.results, args.game)?;
        print!("{}", run.standings.table());
        return Ok(());
    }
    let (html, pages) = build(&args.results, args.game)?;
    let out = args
        .out
        .unwrap_or_else(|| args.results.with_extension("html"));
    let dir = out.parent().map_or_else(PathBuf::new, Path::to_path_buf);
    if !dir.as_os_str().is_empty() {
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    for (file, page) in &pages {
        let path = dir.join(file);
        std::fs::write(&path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    std::fs::write(&out, &html).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "report: {} ({} KB), {} replay pages beside it",
        out.display(),
        html.len().div_ceil(1024),
        pages.len()
    );
    Ok(())
}
