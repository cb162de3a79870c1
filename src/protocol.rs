//! Botzone's bot protocol: the full JSON input, simplified interaction,
//! the output, and keep-running mode (长时运行).
//!
//! A bot implements [`Bot`] and hands itself to [`run`], which reads stdin,
//! starts the turn's [`Deadline`] once the request has been read, calls the
//! bot, prints the answer and, in keep-running mode, the marker line, and
//! carries on with each later request until the end of input.
//!
//! ```
//! use botzone::json::{self, Value};
//! use botzone::protocol::{self, Bot, BotError, Input, Output};
//! use botzone::time::Deadline;
//!
//! /// Answers every request with its number.
//! struct Counter(i64);
//!
//! impl Bot for Counter {
//!     fn on_input(&mut self, input: &Input, _: &Deadline) -> Result<Output, BotError> {
//!         self.0 = input.requests.len() as i64;
//!         Ok(Output::new(Value::from(self.0)))
//!     }
//!     fn on_request(&mut self, _: &Value, _: &Deadline) -> Result<Output, BotError> {
//!         self.0 += 1;
//!         Ok(Output::new(Value::from(self.0)))
//!     }
//!     fn fallback(&self) -> Option<Value> {
//!         Some(Value::from(0))
//!     }
//! }
//!
//! let stdin = "{\"requests\":[\"a\"],\"responses\":[]}\n\"b\"\n";
//! let mut out = Vec::new();
//! let mut err = Vec::new();
//! let code = protocol::run_with(&mut Counter(0), stdin.as_bytes(), &mut out, &mut err);
//! assert_eq!(code, protocol::EXIT_OK);
//! let out = String::from_utf8(out).unwrap();
//! assert_eq!(
//!     out,
//!     "{\"response\":1}\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n{\"response\":2}\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n"
//! );
//! ```

use std::cell::RefCell;
use std::fmt;
use std::io::{self, BufRead, Write};
#[cfg(not(panic = "abort"))]
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use crate::json::{self, Value};
use crate::time::{turn_limit, Deadline};

/// The line a keep-running bot prints after every answer.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Botzone keeps at most this many bytes of `debug`.
pub const MAX_DEBUG_BYTES: usize = 1024;

/// Exit status of [`run_with`] when every request got an answer: the
/// bot's own, or its fallback after bad input (the error on stderr).
/// Botzone does not document what it does with a non-zero exit after an
/// answer, so the protocol never risks one.
pub const EXIT_OK: u8 = 0;
/// Exit status of [`run_with`] when bad input could not be answered at all
/// (the bot has no [`Bot::fallback`]).
pub const EXIT_BAD_INPUT: u8 = 1;
/// Exit status of [`run_with`] when stdin or stdout failed.
pub const EXIT_IO: u8 = 2;

/// The first input of a process: the whole history of the match so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    /// Every request so far; the last one is this turn's.
    pub requests: Vec<Value>,
    /// This bot's earlier responses (one fewer than `requests`).
    pub responses: Vec<Value>,
    /// What the bot saved in `data` last turn.
    pub data: Option<String>,
    /// What the bot saved in `globaldata` in earlier matches.
    pub globaldata: Option<String>,
    /// The time limit per turn in seconds, when the platform gave one.
    pub time_limit: Option<f64>,
    /// The memory limit in MB, when the platform gave one.
    pub memory_limit: Option<f64>,
    /// Whether this came as simplified interaction (then requests and
    /// responses are the raw lines, as JSON when they parse, else strings).
    pub simplified: bool,
}

impl Input {
    /// Decodes a full JSON input.
    ///
    /// # Errors
    /// A [`BotError`] naming the field when the document is not an object
    /// with `requests` (a non-empty array), `responses` (an array, one
    /// shorter), and optional `data`/`globaldata` (strings) and
    /// `time_limit`/`memory_limit` (numbers or numeric strings).
    pub fn from_json(doc: &Value) -> Result<Input, BotError> {
        let root = At::root(doc, "input");
        root.object()?;
        let requests = root.key("requests")?.array()?.to_vec();
        if requests.is_empty() {
            return Err(BotError::new(
                "requests: expected at least one request, found none",
            ));
        }
        let responses = match doc.get("responses") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) => root.key("responses")?.array()?.to_vec(),
        };
        if responses.len() + 1 != requests.len() {
            return Err(BotError::new(format!(
                "responses: expected {} (one fewer than the {} requests), found {}",
                requests.len() - 1,
                requests.len(),
                responses.len()
            )));
        }
        Ok(Input {
            requests,
            responses,
            data: root.optional_string("data")?,
            globaldata: root.optional_string("globaldata")?,
            time_limit: root.optional_number("time_limit")?,
            memory_limit: root.optional_number("memory_limit")?,
            simplified: false,
        })
    }

    /// Parses a full JSON input from text.
    ///
    /// # Errors
    /// Invalid JSON, or a document of the wrong shape (see [`Input::from_json`]).
    pub fn parse(text: &str) -> Result<Input, BotError> {
        let doc = Value::parse(text).map_err(BotError::json)?;
        Input::from_json(&doc)
    }

    /// This turn's request (the last one).
    pub fn request(&self) -> &Value {
        self.requests.last().unwrap_or(&Value::Null)
    }

    /// Whether this is the first turn of the match.
    pub fn is_first_turn(&self) -> bool {
        self.requests.len() == 1
    }
}

/// A bot's answer for one turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// The answer the judge reads.
    pub response: Value,
    /// Kept in the match log (at most 1 KB; longer text is cut).
    pub debug: Option<String>,
    /// Given back next turn (traditional mode only).
    pub data: Option<String>,
    /// Given back in later matches.
    pub globaldata: Option<String>,
}

impl Output {
    /// An answer with no debug, data or globaldata.
    pub fn new(response: Value) -> Self {
        Output {
            response,
            ..Output::default()
        }
    }

    /// The same answer with `debug` set.
    pub fn with_debug(mut self, debug: impl Into<String>) -> Self {
        self.debug = Some(debug.into());
        self
    }

    /// The same answer with `data` set.
    pub fn with_data(mut self, data: impl Into<String>) -> Self {
        self.data = Some(data.into());
        self
    }

    /// The same answer with `globaldata` set.
    pub fn with_globaldata(mut self, globaldata: impl Into<String>) -> Self {
        self.globaldata = Some(globaldata.into());
        self
    }

    /// The one-line JSON output (without the newline).
    pub fn to_json_line(&self) -> String {
        let mut map = json::Map::new();
        map.insert("response", self.response.clone());
        if let Some(debug) = &self.debug {
            map.insert("debug", Value::from(truncate(debug, MAX_DEBUG_BYTES)));
        }
        if let Some(data) = &self.data {
            map.insert("data", Value::from(data.as_str()));
        }
        if let Some(globaldata) = &self.globaldata {
            map.insert("globaldata", Value::from(globaldata.as_str()));
        }
        Value::Object(map).to_string()
    }

    /// The simplified-interaction output: the response on one line, then
    /// debug, data and globaldata lines as far as any is set (without the
    /// last newline).
    pub fn to_simplified(&self) -> String {
        let mut lines = vec![match &self.response {
            Value::String(s) => one_line(s),
            other => other.to_string(),
        }];
        let rest = [&self.debug, &self.data, &self.globaldata];
        if let Some(last) = rest.iter().rposition(|x| x.is_some()) {
            for (i, item) in rest[..=last].iter().enumerate() {
                let text = item.as_deref().unwrap_or("");
                let text = if i == 0 {
                    truncate(text, MAX_DEBUG_BYTES)
                } else {
                    text
                };
                lines.push(one_line(text));
            }
        }
        lines.join("\n")
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// What went wrong with a bot's input: a message that names the offending
/// part, e.g. `requests[3].action: expected an integer, found a string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotError {
    message: String,
}

impl BotError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        BotError {
            message: message.into(),
        }
    }

    /// The input is not JSON.
    pub fn json(e: json::Error) -> Self {
        BotError::new(format!("input is not JSON: {e}"))
    }

    /// `path` holds something other than what was expected.
    pub fn mistyped(path: &str, expected: &str, found: &Value) -> Self {
        BotError::new(format!(
            "{path}: expected {expected}, found {}",
            found.kind()
        ))
    }

    /// `path` is missing.
    pub fn missing(path: &str) -> Self {
        BotError::new(format!("{path}: missing"))
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BotError {}

/// A place in a request, for decoding with errors that name it.
///
/// ```
/// use botzone::json::Value;
/// use botzone::protocol::At;
///
/// let req: Value = r#"{"0":{"action":"up"}}"#.parse().unwrap();
/// let at = At::root(&req, "requests[2]");
/// let err = at.key("0").and_then(|p| p.key("action")).and_then(|a| a.int_in(-1, 7));
/// assert_eq!(
///     err.unwrap_err().to_string(),
///     "requests[2].0.action: expected an integer, found a string"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct At<'a> {
    value: &'a Value,
    path: String,
}

impl<'a> At<'a> {
    /// The top of a value, named `name` in messages.
    pub fn root(value: &'a Value, name: &str) -> Self {
        At {
            value,
            path: name.to_owned(),
        }
    }

    /// The value here.
    pub fn value(&self) -> &'a Value {
        self.value
    }

    /// The path of this place, as messages show it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The member `key`, which must exist (here must be an object).
    ///
    /// # Errors
    /// When this is not an object or has no such member.
    pub fn key(&self, key: &str) -> Result<At<'a>, BotError> {
        let map = self.object()?;
        let path = format!("{}.{key}", self.path);
        match map.get(key) {
            Some(value) => Ok(At { value, path }),
            None => Err(BotError::missing(&path)),
        }
    }

    /// The member `key` if present and not null.
    ///
    /// # Errors
    /// When this is not an object.
    pub fn maybe_key(&self, key: &str) -> Result<Option<At<'a>>, BotError> {
        let map = self.object()?;
        Ok(match map.get(key) {
            None | Some(Value::Null) => None,
            Some(value) => Some(At {
                value,
                path: format!("{}.{key}", self.path),
            }),
        })
    }

    /// Element `i`, which must exist (here must be an array).
    ///
    /// # Errors
    /// When this is not an array or is shorter.
    pub fn index(&self, i: usize) -> Result<At<'a>, BotError> {
        let items = self.array()?;
        let path = format!("{}[{i}]", self.path);
        match items.get(i) {
            Some(value) => Ok(At { value, path }),
            None => Err(BotError::new(format!(
                "{path}: missing (the array has {} elements)",
                items.len()
            ))),
        }
    }

    /// The elements, each with its path.
    ///
    /// # Errors
    /// When this is not an array.
    pub fn elements(&self) -> Result<Vec<At<'a>>, BotError> {
        Ok(self
            .array()?
            .iter()
            .enumerate()
            .map(|(i, value)| At {
                value,
                path: format!("{}[{i}]", self.path),
            })
            .collect())
    }

    /// The object here.
    ///
    /// # Errors
    /// When this is not an object.
    pub fn object(&self) -> Result<&'a json::Map, BotError> {
        self.value
            .as_object()
            .ok_or_else(|| BotError::mistyped(&self.path, "an object", self.value))
    }

    /// The array here.
    ///
    /// # Errors
    /// When this is not an array.
    pub fn array(&self) -> Result<&'a [Value], BotError> {
        self.value
            .as_array()
            .ok_or_else(|| BotError::mistyped(&self.path, "an array", self.value))
    }

    /// The string here.
    ///
    /// # Errors
    /// When this is not a string.
    pub fn str(&self) -> Result<&'a str, BotError> {
        self.value
            .as_str()
            .ok_or_else(|| BotError::mistyped(&self.path, "a string", self.value))
    }

    /// The integer here.
    ///
    /// # Errors
    /// When this is not an integer that fits `i64`.
    pub fn i64(&self) -> Result<i64, BotError> {
        self.value
            .as_i64()
            .ok_or_else(|| BotError::mistyped(&self.path, "an integer", self.value))
    }

    /// The integer here, which must lie in `lo..=hi`.
    ///
    /// # Errors
    /// When this is not an integer or is out of range.
    pub fn int_in(&self, lo: i64, hi: i64) -> Result<i64, BotError> {
        let n = self.i64()?;
        if n < lo || n > hi {
            return Err(BotError::new(format!(
                "{}: expected an integer in {lo}..={hi}, found {n}",
                self.path
            )));
        }
        Ok(n)
    }

    /// A number, or a string holding one (Botzone sends limits either way).
    ///
    /// # Errors
    /// When this is neither.
    pub fn number(&self) -> Result<f64, BotError> {
        match self.value {
            Value::Number(n) => Ok(n.as_f64()),
            Value::String(s) => s.trim().parse::<f64>().map_err(|_| {
                BotError::new(format!("{}: expected a number, found {s:?}", self.path))
            }),
            other => Err(BotError::mistyped(&self.path, "a number", other)),
        }
    }

    fn optional_string(&self, key: &str) -> Result<Option<String>, BotError> {
        self.maybe_key(key)?
            .map(|at| at.str().map(str::to_owned))
            .transpose()
    }

    fn optional_number(&self, key: &str) -> Result<Option<f64>, BotError> {
        self.maybe_key(key)?.map(|at| at.number()).transpose()
    }
}

/// A bot that speaks Botzone's protocol through [`run`].
pub trait Bot {
    /// The first input this process reads: the whole history of the match
    /// (in keep-running mode only the first turn's). Rebuild the state from
    /// `input.requests` and `input.responses` and answer the last request
    /// before `deadline`.
    ///
    /// # Errors
    /// A [`BotError`] naming what in the input was wrong.
    fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError>;

    /// A later request in keep-running mode (only that turn's request).
    ///
    /// # Errors
    /// A [`BotError`] naming what in the request was wrong.
    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError>;

    /// A legal answer to give when the input was bad, if there is one
    /// (after the error has gone to stderr).
    fn fallback(&self) -> Option<Value>;

    /// Whether to stay running between turns (print the keep-running
    /// marker). `true` by default.
    fn keep_running(&self) -> bool {
        true
    }
}

/// Runs `bot` on stdin and stdout: see [`run_with`].
pub fn run<B: Bot>(bot: &mut B) -> ExitCode {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let stderr = io::stderr();
    let code = run_with(bot, stdin.lock(), stdout.lock(), stderr.lock());
    ExitCode::from(code)
}

/// The protocol loop over any reader and writers.
///
/// Reads the first input (one line of JSON, the same JSON over several
/// lines, or simplified interaction), answers it, then, if the bot keeps
/// running, prints the marker, flushes, and answers each later request (one
/// line each, as Botzone sends them) the same way until the end of input.
///
/// Bad input never costs more than its own turn: the error goes to
/// `errors` as `bot error: ...` (naming the offending part), the bot's
/// [`Bot::fallback`] answer to `output` (with the keep-running marker when
/// the bot keeps running), and the loop goes on with the next request. A
/// panic inside the bot is caught and treated the same way, its message
/// keeping the file and line where it happened. What the bot reports with
/// [`warn`] goes to `errors` as `bot warning: ...`.
///
/// Returns [`EXIT_OK`] at the end of input when every request was answered
/// (by the bot or by its fallback), [`EXIT_BAD_INPUT`] when bad input could
/// not be answered (no fallback), and [`EXIT_IO`] when reading or writing
/// failed.
pub fn run_with<B: Bot, R: BufRead, W: Write, E: Write>(
    bot: &mut B,
    mut input: R,
    mut output: W,
    mut errors: E,
) -> u8 {
    let _warnings = WarningQueue::start();
    let mut session = Session {
        reader: Reader::new(&mut input),
        output: &mut output,
        errors: &mut errors,
        unanswered: false,
    };
    session.run(bot)
}

/// Reports something the bot noticed and could live with, such as a request
/// that contradicts the bot's own simulation where the judge's word was
/// taken: `bot warning: MESSAGE` on stderr (inside [`run_with`], on its
/// error writer, after the bot's call returns).
///
/// ```
/// botzone::protocol::warn("request.2: player 2 is dead here, yet has an action: ignored");
/// ```
pub fn warn(message: impl fmt::Display) {
    let text = message.to_string();
    let unqueued = WARNINGS.with(|queue| match queue.borrow_mut().as_mut() {
        Some(queue) => {
            queue.push(text);
            None
        }
        None => Some(text),
    });
    if let Some(text) = unqueued {
        eprintln!("bot warning: {text}");
    }
}

thread_local! {
    /// The warnings of the running call, while [`run_with`] runs.
    static WARNINGS: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
    /// Where the last panic on this thread happened (`file:line:column`).
    static PANIC_PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Queues [`warn`]'s messages while a session runs (restoring the state
/// before it when dropped, so that sessions may nest).
struct WarningQueue(Option<Vec<String>>);

impl WarningQueue {
    fn start() -> Self {
        WarningQueue(WARNINGS.with(|q| q.borrow_mut().replace(Vec::new())))
    }

    /// The warnings queued so far.
    fn take() -> Vec<String> {
        WARNINGS.with(|q| {
            q.borrow_mut()
                .as_mut()
                .map(std::mem::take)
                .unwrap_or_default()
        })
    }
}

impl Drop for WarningQueue {
    fn drop(&mut self) {
        let outer = self.0.take();
        WARNINGS.with(|q| *q.borrow_mut() = outer);
    }
}

struct Session<'r, R: BufRead, W: Write, E: Write> {
    reader: Reader<'r, R>,
    output: &'r mut W,
    errors: &'r mut E,
    /// Whether some bad input got no answer (the bot has no fallback).
    unanswered: bool,
}

impl<R: BufRead, W: Write, E: Write> Session<'_, R, W, E> {
    fn run<B: Bot>(&mut self, bot: &mut B) -> u8 {
        let mut simplified = false;
        let mut time_limit = None;
        let first = match self.reader.first_input() {
            Ok(Some(first)) => {
                simplified = first.simplified;
                time_limit = first.time_limit;
                // The runtime's start-up (Node.js and the module's
                // compilation for a JS bundle) ran on the judge's clock.
                let limit = turn_limit(first.time_limit, first.is_first_turn());
                let deadline = Deadline::for_turn(
                    limit
                        .saturating_sub(crate::time::startup_spent())
                        .max(limit / 4),
                );
                self.answer(bot, simplified, |bot| bot.on_input(&first, &deadline))
            }
            Ok(None) => Err(BotError::new("empty input: expected a Botzone request").into()),
            Err(e) => Err(e),
        };
        if let Err(e) = self.settle(bot, first) {
            return self.io_error(&e);
        }
        loop {
            if !bot.keep_running() {
                return self.exit_code();
            }
            let step = match self.reader.next_request(simplified) {
                Ok(Some(request)) => {
                    let deadline = Deadline::for_turn(turn_limit(time_limit, false));
                    self.answer(bot, simplified, |bot| bot.on_request(&request, &deadline))
                }
                Ok(None) => return self.exit_code(),
                Err(e) => Err(e),
            };
            if let Err(e) = self.settle(bot, step) {
                return self.io_error(&e);
            }
        }
    }

    fn exit_code(&self) -> u8 {
        if self.unanswered {
            EXIT_BAD_INPUT
        } else {
            EXIT_OK
        }
    }

    /// Writes the warnings of the turn, and after bad input the error and
    /// the fallback answer. Only an I/O error is left.
    fn settle<B: Bot>(&mut self, bot: &B, step: Result<(), ReadError>) -> io::Result<()> {
        for warning in WarningQueue::take() {
            let _ = writeln!(self.errors, "bot warning: {warning}");
        }
        match step {
            Ok(()) => Ok(()),
            Err(ReadError::Io(e)) => Err(e),
            Err(ReadError::Bad(e)) => self.fail(bot, &e),
        }
    }

    /// Calls the bot (catching a panic) and prints its answer.
    fn answer<B: Bot>(
        &mut self,
        bot: &mut B,
        simplified: bool,
        call: impl FnOnce(&mut B) -> Result<Output, BotError>,
    ) -> Result<(), ReadError> {
        #[cfg(panic = "abort")]
        abort::prepare(bot);
        let output = catch_panic(|| call(bot))?;
        let text = if simplified {
            output.to_simplified()
        } else {
            output.to_json_line()
        };
        writeln!(self.output, "{text}")?;
        if bot.keep_running() {
            writeln!(self.output, "{KEEP_RUNNING_MARKER}")?;
        }
        self.output.flush()?;
        Ok(())
    }

    /// Reports `e` and gives the fallback answer (then the keep-running
    /// marker, when the bot keeps running).
    fn fail<B: Bot>(&mut self, bot: &B, e: &BotError) -> io::Result<()> {
        let _ = writeln!(self.errors, "bot error: {e}");
        let _ = self.errors.flush();
        match catch_panic(|| Ok(bot.fallback())) {
            Ok(Some(response)) => {
                writeln!(self.output, "{}", Output::new(response).to_json_line())?;
                if bot.keep_running() {
                    writeln!(self.output, "{KEEP_RUNNING_MARKER}")?;
                }
                self.output.flush()
            }
            Ok(None) => {
                self.unanswered = true;
                Ok(())
            }
            Err(e) => {
                let _ = writeln!(self.errors, "bot error: the fallback failed: {e}");
                self.unanswered = true;
                Ok(())
            }
        }
    }

    fn io_error(&mut self, e: &io::Error) -> u8 {
        let _ = writeln!(self.errors, "bot error: I/O: {e}");
        EXIT_IO
    }
}

/// Runs `f`, turning a panic into a [`BotError`] that keeps the panic's
/// message and place (`internal error in the bot: panicked at
/// src/x.rs:12:5: message`). The default panic message is replaced while
/// `f` runs, so nothing but our message reaches stderr.
///
/// Where panics abort (`panic = "abort"`, as on WebAssembly) nothing can be
/// caught: see [`abort`] for what happens there instead.
#[cfg(panic = "abort")]
fn catch_panic<T>(f: impl FnOnce() -> Result<T, BotError>) -> Result<T, BotError> {
    abort::install_hook();
    f()
}

/// Runs `f`, turning a panic into a [`BotError`] that keeps the panic's
/// message and place (`internal error in the bot: panicked at
/// src/x.rs:12:5: message`). The default panic message is replaced while
/// `f` runs, so nothing but our message reaches stderr.
#[cfg(not(panic = "abort"))]
fn catch_panic<T>(f: impl FnOnce() -> Result<T, BotError>) -> Result<T, BotError> {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        PANIC_PLACE.with(|p| *p.borrow_mut() = place);
    }));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(previous);
    match result {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".to_owned());
            let place = PANIC_PLACE.with(|p| p.borrow_mut().take());
            Err(BotError::new(match place {
                Some(place) => format!("internal error in the bot: panicked at {place}: {what}"),
                None => format!("internal error in the bot: {what}"),
            }))
        }
    }
}

/// Panics where they abort the process (`panic = "abort"`: a bot compiled
/// to WebAssembly, where Rust cannot unwind).
///
/// The bot's state is lost with the process, but the turn is not: before
/// each call of the bot its fallback answer is prepared, and the panic hook
/// writes the error (with the panic's place) to stderr and that answer to
/// stdout, without the keep-running marker, and ends the process with exit
/// code 0. Botzone then starts the bot afresh on its next turn with the
/// full history (what it does for any bot that answers and exits), so a
/// panic costs one turn's answer, never the game. With no fallback the
/// process ends with [`EXIT_BAD_INPUT`].
#[cfg(panic = "abort")]
mod abort {
    use std::cell::RefCell;
    use std::io::Write;
    use std::sync::Once;

    use super::{Bot, Output, EXIT_BAD_INPUT, EXIT_OK};

    thread_local! {
        /// The fallback answer of the running call, as its output line.
        static ANSWER: RefCell<Option<String>> = const { RefCell::new(None) };
    }

    /// Prepares the answer the panic hook gives if `bot`'s next call panics.
    pub(super) fn prepare<B: Bot>(bot: &B) {
        let line = bot
            .fallback()
            .map(|response| Output::new(response).to_json_line());
        ANSWER.with(|a| *a.borrow_mut() = line);
    }

    /// Installs the hook (once).
    pub(super) fn install_hook() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            std::panic::set_hook(Box::new(|info| {
                let what = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown cause".to_owned());
                let place = info
                    .location()
                    .map(|l| format!("panicked at {}:{}:{}: ", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                let mut errors = std::io::stderr();
                let _ = writeln!(
                    errors,
                    "bot error: internal error in the bot: {place}{what}"
                );
                let answer = ANSWER.with(|a| a.borrow_mut().take());
                let code = match answer {
                    Some(line) => {
                        let mut out = std::io::stdout();
                        let _ = writeln!(out, "{line}");
                        let _ = out.flush();
                        EXIT_OK
                    }
                    None => EXIT_BAD_INPUT,
                };
                std::process::exit(i32::from(code));
            }));
        });
    }
}

enum ReadError {
    Io(io::Error),
    Bad(BotError),
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

impl From<BotError> for ReadError {
    fn from(e: BotError) -> Self {
        ReadError::Bad(e)
    }
}

/// Reads the protocol's documents line by line.
struct Reader<'r, R: BufRead> {
    input: &'r mut R,
    line: Vec<u8>,
}

impl<'r, R: BufRead> Reader<'r, R> {
    fn new(input: &'r mut R) -> Self {
        Reader {
            input,
            line: Vec::new(),
        }
    }

    /// The next line without its end, or `None` at the end of input.
    fn read_line(&mut self) -> io::Result<Option<&[u8]>> {
        self.line.clear();
        if self.input.read_until(b'\n', &mut self.line)? == 0 {
            return Ok(None);
        }
        while let Some(b'\n' | b'\r') = self.line.last() {
            self.line.pop();
        }
        Ok(Some(&self.line))
    }

    /// The next line that is not blank.
    fn next_nonblank(&mut self) -> io::Result<Option<Vec<u8>>> {
        loop {
            match self.read_line()? {
                None => return Ok(None),
                Some(l) if l.iter().all(u8::is_ascii_whitespace) => continue,
                Some(l) => return Ok(Some(l.to_vec())),
            }
        }
    }

    /// One JSON document starting with `first`, taking further lines while
    /// the text so far is an unfinished document.
    fn document(&mut self, first: Vec<u8>) -> Result<Value, ReadError> {
        let mut text = first;
        loop {
            match Value::from_slice(&text) {
                Ok(v) => return Ok(v),
                Err(e) if e.is_eof() => {
                    let Some(line) = self.read_line()? else {
                        return Err(ReadError::Bad(BotError::new(format!(
                            "input is not JSON: truncated: {e}"
                        ))));
                    };
                    text.push(b'\n');
                    text.extend_from_slice(line);
                }
                Err(e) => return Err(ReadError::Bad(BotError::json(e))),
            }
        }
    }

    fn first_input(&mut self) -> Result<Option<Input>, ReadError> {
        let Some(first) = self.next_nonblank()? else {
            return Ok(None);
        };
        if let Some(n) = simplified_count(&first) {
            return self.simplified(n).map(Some);
        }
        let doc = self.document(first)?;
        Input::from_json(&doc).map(Some).map_err(ReadError::Bad)
    }

    /// Simplified interaction after its first line `n`.
    fn simplified(&mut self, n: usize) -> Result<Input, ReadError> {
        if n == 0 {
            return Err(ReadError::Bad(BotError::new(
                "simplified input: the first line must be a turn count of at least 1",
            )));
        }
        let mut input = Input {
            simplified: true,
            ..Input::default()
        };
        for i in 0..2 * n - 1 {
            let Some(line) = self.read_line()? else {
                let what = if i % 2 == 0 { "request" } else { "response" };
                return Err(ReadError::Bad(BotError::new(format!(
                    "simplified input: {what} {} of {n} missing (line {})",
                    i / 2 + 1,
                    i + 2
                ))));
            };
            let message = simplified_message(line)?;
            if i % 2 == 0 {
                input.requests.push(message);
            } else {
                input.responses.push(message);
            }
        }
        input.data = self
            .read_line()?
            .map(|l| String::from_utf8_lossy(l).into_owned());
        input.globaldata = self
            .read_line()?
            .map(|l| String::from_utf8_lossy(l).into_owned());
        Ok(input)
    }

    /// A later request: one line (Botzone sends each on one line; a bad
    /// one is never joined with the next).
    fn next_request(&mut self, simplified: bool) -> Result<Option<Value>, ReadError> {
        let Some(line) = self.next_nonblank()? else {
            return Ok(None);
        };
        if simplified {
            return simplified_message(&line).map(Some);
        }
        match Value::from_slice(&line) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_eof() => Err(ReadError::Bad(BotError::new(format!(
                "request is not JSON: truncated at the end of its line: {e}"
            )))),
            Err(e) => Err(ReadError::Bad(BotError::new(format!(
                "request is not JSON: {e}"
            )))),
        }
    }
}

/// The turn count of simplified interaction, if `line` is one.
fn simplified_count(line: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(line).ok()?.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A simplified-interaction message: JSON when it parses, else the text.
fn simplified_message(line: &[u8]) -> Result<Value, ReadError> {
    let text = std::str::from_utf8(line).map_err(|e| {
        ReadError::Bad(BotError::new(format!(
            "simplified input: invalid UTF-8 at byte {}",
            e.valid_up_to()
        )))
    })?;
    Ok(Value::parse(text).unwrap_or_else(|_| Value::from(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo {
        turn: usize,
        keep: bool,
    }

    impl Bot for Echo {
        fn on_input(&mut self, input: &Input, _: &Deadline) -> Result<Output, BotError> {
            self.turn = input.requests.len();
            if input.request()["boom"].as_bool() == Some(true) {
                panic!("boom");
            }
            Ok(Output::new(input.request().clone()).with_debug(format!("t{}", self.turn)))
        }
        fn on_request(&mut self, request: &Value, _: &Deadline) -> Result<Output, BotError> {
            self.turn += 1;
            At::root(request, "request").object()?;
            Ok(Output::new(request.clone()))
        }
        fn fallback(&self) -> Option<Value> {
            Some(Value::from("fallback"))
        }
        fn keep_running(&self) -> bool {
            self.keep
        }
    }

    fn run_text(stdin: &[u8], keep: bool) -> (u8, String, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let code = run_with(&mut Echo { turn: 0, keep }, stdin, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn multi_line_input() {
        let (code, out, _) = run_text(
            b"\n{\"requests\":\n [ {\"a\":1} ],\n \"responses\": []}\n",
            false,
        );
        assert_eq!(code, EXIT_OK);
        assert_eq!(out, "{\"response\":{\"a\":1},\"debug\":\"t1\"}\n");
    }

    #[test]
    fn shape_errors_name_the_field() {
        let cases: [(&str, &str); 6] = [
            ("[1]", "input: expected an object, found an array"),
            ("{}", "input.requests: missing"),
            (
                "{\"requests\":[1,2],\"responses\":[]}",
                "responses: expected 1",
            ),
            (
                "{\"requests\":[1],\"responses\":[],\"data\":3}",
                "input.data: expected a string, found a number",
            ),
            (
                "{\"requests\":[1],\"time_limit\":\"x\"}",
                "input.time_limit: expected a number",
            ),
            ("{\"requests\":[1],\"responses\":[]", "truncated"),
        ];
        for (text, want) in cases {
            let (code, out, err) = run_text(text.as_bytes(), false);
            assert_eq!(code, EXIT_OK, "{text}");
            assert!(err.contains(want), "{text}: {err}");
            assert_eq!(out, "{\"response\":\"fallback\"}\n");
        }
    }

    #[test]
    fn limits_as_strings() {
        let input = Input::parse(
            r#"{"requests":[1],"responses":[],"time_limit":"1.5","memory_limit":256}"#,
        )
        .unwrap();
        assert_eq!(input.time_limit, Some(1.5));
        assert_eq!(input.memory_limit, Some(256.0));
    }

    #[test]
    fn keep_running_goes_on_after_a_bad_request() {
        let (code, out, err) = run_text(
            b"{\"requests\":[{}],\"responses\":[]}\n{\"b\":2}\n[3]\n{\"c\":\n{\"d\":4}\n",
            true,
        );
        assert_eq!(code, EXIT_OK);
        let m = KEEP_RUNNING_MARKER;
        assert_eq!(
            out,
            format!(
                "{{\"response\":{{}},\"debug\":\"t1\"}}\n{m}\n{{\"response\":{{\"b\":2}}}}\n{m}\n\
                 {{\"response\":\"fallback\"}}\n{m}\n{{\"response\":\"fallback\"}}\n{m}\n\
                 {{\"response\":{{\"d\":4}}}}\n{m}\n"
            )
        );
        assert_eq!(
            err,
            "bot error: request: expected an object, found an array\n\
             bot error: request is not JSON: truncated at the end of its line: \
             invalid JSON at byte 5: the text ends where a value was expected\n"
        );
    }

    #[test]
    fn bad_first_input_in_keep_running_mode_goes_on() {
        let (code, out, err) = run_text(b"[1]\n{\"x\":1}\n", true);
        assert_eq!(code, EXIT_OK);
        let m = KEEP_RUNNING_MARKER;
        assert_eq!(
            out,
            format!("{{\"response\":\"fallback\"}}\n{m}\n{{\"response\":{{\"x\":1}}}}\n{m}\n")
        );
        assert!(err.contains("input: expected an object"), "{err}");
    }

    #[test]
    fn panics_become_errors_with_their_place() {
        let (code, out, err) =
            run_text(b"{\"requests\":[{\"boom\":true}],\"responses\":[]}", false);
        assert_eq!(code, EXIT_OK);
        assert!(
            err.starts_with("bot error: internal error in the bot: panicked at src/protocol.rs:"),
            "{err}"
        );
        assert!(err.trim_end().ends_with(": boom"), "{err}");
        assert_eq!(out, "{\"response\":\"fallback\"}\n");
    }

    /// Without a fallback, bad input gets no answer: the only case of a
    /// non-zero exit besides I/O errors.
    #[test]
    fn no_fallback_no_answer() {
        struct Silent;
        impl Bot for Silent {
            fn on_input(&mut self, _: &Input, _: &Deadline) -> Result<Output, BotError> {
                Ok(Output::new(Value::from(1)))
            }
            fn on_request(&mut self, _: &Value, _: &Deadline) -> Result<Output, BotError> {
                Err(BotError::new("no"))
            }
            fn fallback(&self) -> Option<Value> {
                None
            }
        }
        let mut out = Vec::new();
        let mut err = Vec::new();
        let input: &[u8] = b"{\"requests\":[1]}\n2\n";
        let code = run_with(&mut Silent, input, &mut out, &mut err);
        assert_eq!(code, EXIT_BAD_INPUT);
        let m = KEEP_RUNNING_MARKER;
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{{\"response\":1}}\n{m}\n")
        );
        assert_eq!(String::from_utf8(err).unwrap(), "bot error: no\n");
    }

    #[test]
    fn warnings_go_to_the_error_writer() {
        struct Warner;
        impl Bot for Warner {
            fn on_input(&mut self, _: &Input, _: &Deadline) -> Result<Output, BotError> {
                warn("first");
                Ok(Output::new(Value::from(1)))
            }
            fn on_request(&mut self, _: &Value, _: &Deadline) -> Result<Output, BotError> {
                warn("second");
                Err(BotError::new("bad"))
            }
            fn fallback(&self) -> Option<Value> {
                Some(Value::from(0))
            }
        }
        let mut out = Vec::new();
        let mut err = Vec::new();
        let input: &[u8] = b"{\"requests\":[1]}\n2\n";
        assert_eq!(run_with(&mut Warner, input, &mut out, &mut err), EXIT_OK);
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "bot warning: first\nbot warning: second\nbot error: bad\n"
        );
    }

    #[test]
    fn simplified_interaction() {
        let (code, out, _) = run_text(b"2\n{\"x\":1}\nmy answer\nhello\nsaved\n", false);
        assert_eq!(code, EXIT_OK);
        assert_eq!(out, "hello\nt2\n");
        let input = {
            let mut r: &[u8] = b"2\n{\"x\":1}\nmy answer\nhello\nsaved\nglobal\n";
            let mut reader = Reader::new(&mut r);
            match reader.first_input() {
                Ok(Some(i)) => i,
                _ => panic!("no input"),
            }
        };
        assert_eq!(
            input.requests,
            vec![Value::parse("{\"x\":1}").unwrap(), Value::from("hello")]
        );
        assert_eq!(input.responses, vec![Value::from("my answer")]);
        assert_eq!(input.data.as_deref(), Some("saved"));
        assert_eq!(input.globaldata.as_deref(), Some("global"));
    }

    #[test]
    fn output_forms() {
        let o = Output::new(Value::from("a\nb"))
            .with_data("d")
            .with_debug("x".repeat(2000));
        assert_eq!(o.to_simplified(), format!("a b\n{}\nd", "x".repeat(1024)));
        let line = o.to_json_line();
        assert!(line.starts_with("{\"response\":\"a\\nb\",\"debug\":\"xx"));
        assert!(line.ends_with("\",\"data\":\"d\"}"));
    }
}
