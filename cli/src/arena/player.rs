//! One seat of a Botzone JSON game: a bot program driven turn by turn, in
//! the traditional mode (a fresh process per turn with the whole history)
//! or in keep-running mode (one process, stopped between turns), whichever
//! the bot asks for, under the time, memory and output limits.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::process::{BotProcess, Limits, ReadOutcome, Verdict, Want};

/// How long a bot that closed its output may take to exit.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// The most of a bot's `debug` kept in the log (Botzone keeps 1 KB).
const DEBUG_LIMIT: usize = 1024;

/// What one turn of one bot gave.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The verdict.
    pub verdict: Verdict,
    /// The `response` (OK turns only).
    pub response: Option<Value>,
    /// The `debug` text, cut to 1 KB.
    pub debug: Option<String>,
    /// Wall-clock time, in milliseconds.
    pub time_ms: u64,
    /// Peak memory in KB, when the process ended this turn.
    pub memory_kb: Option<u64>,
    /// Whether the process stays alive for the next turn.
    pub keep_running: bool,
    /// The start of the output, for NJ verdicts.
    pub raw: Option<String>,
}

impl Turn {
    /// This turn as an entry of Botzone's log (`{"verdict":…,"response":…}`).
    pub fn log_entry(&self) -> Value {
        let mut m = Map::new();
        m.insert("verdict".into(), Value::from(self.verdict.as_str()));
        if let Some(r) = &self.response {
            m.insert("response".into(), r.clone());
        }
        if let Some(d) = &self.debug {
            m.insert("debug".into(), Value::from(d.as_str()));
        }
        m.insert("time".into(), Value::from(self.time_ms));
        if let Some(mem) = self.memory_kb {
            m.insert("memory".into(), Value::from(mem));
        }
        m.insert("keep_running".into(), Value::from(self.keep_running));
        if let Some(raw) = &self.raw {
            m.insert("raw".into(), Value::from(raw.as_str()));
        }
        Value::Object(m)
    }
}

/// One bot's `globaldata`, shared by every game of a run that bot plays
/// (each seat it takes holds a clone): Botzone keeps it per bot across
/// matches and gives it in every full input.
#[derive(Clone, Debug, Default)]
pub struct GlobalData(Arc<Mutex<Option<String>>>);

impl GlobalData {
    /// Starting from `value`.
    pub fn new(value: Option<String>) -> GlobalData {
        GlobalData(Arc::new(Mutex::new(value)))
    }

    /// The value now.
    pub fn get(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the value.
    pub fn set(&self, value: String) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
    }
}

/// A bot program in a Botzone JSON game.
pub struct JsonPlayer {
    command: String,
    limits: Limits,
    process: Option<BotProcess>,
    requests: Vec<Value>,
    responses: Vec<Value>,
    data: Option<String>,
    globaldata: GlobalData,
    seed: Option<u64>,
}

fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// Parses a bot's output: the whole text as JSON, else its first non-empty
/// line. `None` when neither is a JSON object.
pub fn parse_output(text: &str) -> Option<Map<String, Value>> {
    let trimmed = text.trim();
    let parsed = serde_json::from_str::<Value>(trimmed).ok().or_else(|| {
        let line = trimmed.lines().find(|l| !l.trim().is_empty())?;
        serde_json::from_str::<Value>(line.trim()).ok()
    })?;
    match parsed {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

impl JsonPlayer {
    /// A seat played by `command` (`seed`: its `BOTZONE_SEED`;
    /// `globaldata`: the bot's, shared with its other seats and games).
    pub fn new(
        command: &str,
        limits: Limits,
        seed: Option<u64>,
        globaldata: GlobalData,
    ) -> JsonPlayer {
        JsonPlayer {
            command: command.to_string(),
            limits,
            process: None,
            requests: Vec::new(),
            responses: Vec::new(),
            data: None,
            globaldata,
            seed,
        }
    }

    /// The full input of a turn (traditional mode, or the first turn of
    /// keep-running mode): the history, `data` from the bot's last answer,
    /// its `globaldata`, and the limits.
    fn full_input(&self) -> String {
        let mut m = Map::new();
        m.insert("requests".into(), Value::Array(self.requests.clone()));
        m.insert("responses".into(), Value::Array(self.responses.clone()));
        if let Some(d) = &self.data {
            m.insert("data".into(), Value::from(d.as_str()));
        }
        if let Some(g) = self.globaldata.get() {
            m.insert("globaldata".into(), Value::from(g));
        }
        m.insert("time_limit".into(), json!(self.limits.time.as_secs_f64()));
        if self.limits.memory > 0 {
            m.insert("memory_limit".into(), json!(self.limits.memory >> 20));
        }
        Value::Object(m).to_string()
    }

    fn fail(&mut self, verdict: Verdict, start: Instant, raw: Option<String>) -> Turn {
        let memory_kb = self.process.take().map(|mut p| p.kill().max_rss / 1024);
        Turn {
            verdict,
            response: None,
            debug: None,
            time_ms: start.elapsed().as_millis() as u64,
            memory_kb,
            keep_running: false,
            raw,
        }
    }

    /// Plays one turn: gives the bot `request`, returns what it did.
    pub fn play(&mut self, request: Value) -> Turn {
        let first = self.requests.is_empty();
        let limit = if first {
            self.limits.time * 2
        } else {
            self.limits.time
        };
        self.requests.push(request.clone());
        let continuing = self.process.is_some();
        if let Some(p) = self.process.as_mut() {
            p.resume();
            p.send(&format!("{request}\n"));
        } else {
            match BotProcess::spawn_seeded(&self.command, &self.limits, self.seed) {
                Ok(mut p) => {
                    p.send(&format!("{}\n", self.full_input()));
                    self.process = Some(p);
                }
                Err(e) => {
                    return self.fail(Verdict::Re, Instant::now(), Some(format!("spawn: {e}")))
                }
            }
        }
        let start = Instant::now();
        let deadline = start + self.limits.wall_cap(limit);
        let p = self.process.as_mut().expect("process started above");
        let cpu_before = p.cpu_time();
        let outcome = p.read(Want::BotzoneTurn, deadline, self.limits.output);
        let (text, keep_running, memory_kb) = match outcome {
            ReadOutcome::Answer { text, keep_running } => {
                let cpu = p
                    .cpu_time()
                    .zip(cpu_before)
                    .map(|(a, b)| a.saturating_sub(b));
                p.pause();
                if self.limits.exceeded(limit, start.elapsed(), cpu) {
                    return self.fail(Verdict::Tle, start, None);
                }
                (text, keep_running, None)
            }
            ReadOutcome::Eof(text) => {
                let exit = match p.wait_until(deadline.max(Instant::now()) + EXIT_GRACE) {
                    Some(e) => e,
                    None => return self.fail(Verdict::Tle, start, None),
                };
                if exit.success()
                    && self.limits.exceeded(
                        limit,
                        start.elapsed().saturating_sub(EXIT_GRACE),
                        Some(exit.cpu),
                    )
                {
                    self.process = None;
                    return self.fail(Verdict::Tle, start, None);
                }
                if !exit.success() {
                    p.drain_stderr();
                    let verdict = if p.looks_out_of_memory(&exit, self.limits.memory) {
                        Verdict::Mle
                    } else {
                        Verdict::Re
                    };
                    let tail = p.stderr_tail();
                    let raw = if tail.trim().is_empty() {
                        match (exit.code, exit.signal) {
                            (_, Some(sig)) => Some(format!("killed by signal {sig}")),
                            (Some(code), _) => Some(format!("exit code {code}")),
                            _ => None,
                        }
                    } else {
                        Some(cut(tail.trim(), 256))
                    };
                    return self.fail(verdict, start, raw);
                }
                self.process = None;
                (text, false, Some(exit.max_rss / 1024))
            }
            ReadOutcome::Timeout => {
                // A bot that died of memory exhaustion may leave its output
                // open through a child; check before calling it a timeout.
                return self.fail(Verdict::Tle, start, None);
            }
            ReadOutcome::Overflow => return self.fail(Verdict::Ole, start, None),
        };
        let time_ms = start.elapsed().as_millis() as u64;
        let Some(mut obj) = parse_output(&text) else {
            return self.fail(Verdict::Nj, start, Some(cut(text.trim(), 256)));
        };
        let response = obj.remove("response").unwrap_or(Value::Null);
        let debug = match obj.remove("debug") {
            Some(Value::String(s)) if !continuing => Some(cut(&s, DEBUG_LIMIT)),
            _ => None,
        };
        // Keep-running turns after the first ignore data and globaldata,
        // as Botzone does.
        if !continuing {
            self.data = match obj.remove("data") {
                Some(Value::String(s)) => Some(s),
                _ => None,
            };
            if let Some(Value::String(g)) = obj.remove("globaldata") {
                self.globaldata.set(g);
            }
        }
        self.responses.push(response.clone());
        Turn {
            verdict: Verdict::Ok,
            response: Some(response),
            debug,
            time_ms,
            memory_kb,
            keep_running,
            raw: None,
        }
    }

    /// Ends the bot's process, if one is still alive.
    pub fn finish(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }
}

impl Drop for JsonPlayer {
    fn drop(&mut self) {
        self.finish();
    }
}
