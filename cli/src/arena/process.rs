//! Bot processes under Botzone's limits: spawning `sh -c CMD` in its own
//! process group with a memory limit, feeding it input, reading its
//! output against a deadline and an output limit, stopping it between turns
//! (keep-running mode) and killing the whole group when it is done with.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The line a keep-running bot prints after each of its answers.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// How much of a bot's stderr is kept (its tail), for diagnostics.
const STDERR_TAIL: usize = 4096;

/// Botzone's verdict on one turn of one bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Answered in time.
    Ok,
    /// Time limit exceeded.
    Tle,
    /// Memory limit exceeded.
    Mle,
    /// Runtime error: crashed, or exited non-zero.
    Re,
    /// The output was not JSON (or, for line protocols, not a command).
    Nj,
    /// Output limit exceeded.
    Ole,
}

impl Verdict {
    /// Every verdict, in table order.
    pub const ALL: [Verdict; 6] = [
        Verdict::Ok,
        Verdict::Tle,
        Verdict::Mle,
        Verdict::Re,
        Verdict::Nj,
        Verdict::Ole,
    ];

    /// Botzone's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "OK",
            Verdict::Tle => "TLE",
            Verdict::Mle => "MLE",
            Verdict::Re => "RE",
            Verdict::Nj => "NJ",
            Verdict::Ole => "OLE",
        }
    }

    /// The verdict with Botzone's name `s`.
    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// The limits every bot process runs under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Time per turn (the first turn of a game gets twice this).
    pub time: Duration,
    /// Memory limit in bytes: the private writable memory a process may
    /// commit (`setrlimit(RLIMIT_DATA)`: heap and anonymous mappings); 0 for
    /// none. Not the address space (`RLIMIT_AS`): Node.js reserves
    /// gigabytes of address space it never touches (V8's code range, the
    /// guard regions of WebAssembly memories) and cannot start under 256 MB
    /// of it, while what it commits stays well under the limit.
    pub memory: u64,
    /// The most a bot may print in one turn, in bytes.
    pub output: usize,
    /// Count CPU time against the limit (with a wall-clock backstop of
    /// [`Limits::wall_cap`]) instead of wall-clock time. CPU time keeps the
    /// verdicts fair on a loaded machine.
    pub cpu_clock: bool,
}

impl Limits {
    /// How long a turn with time limit `limit` may last on the wall clock:
    /// the limit itself, or with CPU-time accounting `3 * limit + 0.5 s`
    /// (a bot that blocks or sleeps still times out).
    pub fn wall_cap(&self, limit: Duration) -> Duration {
        if self.cpu_clock {
            limit * 3 + Duration::from_millis(500)
        } else {
            limit
        }
    }

    /// Whether a turn that took `wall` on the clock and `cpu` of processor
    /// time is over `limit`.
    pub fn exceeded(&self, limit: Duration, wall: Duration, cpu: Option<Duration>) -> bool {
        match (self.cpu_clock, cpu) {
            (true, Some(cpu)) => cpu > limit || wall > self.wall_cap(limit),
            _ => wall > self.wall_cap(limit),
        }
    }
}

/// The CPU time (user + system, with reaped children) of process `pid` so
/// far, from `/proc/<pid>/stat`.
pub fn cpu_time(pid: i32) -> Option<Duration> {
    let stat = ProcStat::read(pid)?;
    // utime is field 14, stime 15, cutime 16, cstime 17.
    let ticks = stat.field(14)? + stat.field(15)? + stat.field(16)? + stat.field(17)?;
    Some(ticks_to_duration(ticks))
}

/// The numeric fields of `/proc/PID/stat` after the command name.
struct ProcStat(Vec<u64>);

impl ProcStat {
    fn read(pid: i32) -> Option<ProcStat> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // Fields after the command name (which may hold spaces) in parentheses;
        // field 3 (the state, a letter) reads as `u64::MAX`.
        let rest = stat.rsplit_once(')')?.1;
        Some(ProcStat(
            rest.split_whitespace()
                .map(|f| f.parse().unwrap_or(u64::MAX))
                .collect(),
        ))
    }

    /// Field `i` as `proc(5)` numbers them (from 1).
    fn field(&self, i: usize) -> Option<u64> {
        self.0.get(i.checked_sub(3)?).copied()
    }
}

/// Clock ticks as a duration.
fn ticks_to_duration(ticks: u64) -> Duration {
    // SAFETY: sysconf only reads a system constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_micros(ticks * 1_000_000 / hz)
}

// ---------------------------------------------------------------------------
// Cleanup on Ctrl-C: every live process group is recorded in a fixed table of
// atomics so that a signal handler can kill them without locking.
//
// A bot is started and then recorded, and a signal may land in between. So
// the thread that starts a bot blocks the terminating signals until the bot
// is recorded (the handler never runs on it meanwhile), and counts itself in
// `SPAWNING`; the handler, running on another thread, first sets
// `TERMINATING` (no new bot starts after that) and then waits for `SPAWNING`
// to reach zero before it kills what is recorded.

const REGISTRY_SLOTS: usize = 1024;
#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_SLOT: AtomicI32 = AtomicI32::new(0);
static REGISTRY: [AtomicI32; REGISTRY_SLOTS] = [EMPTY_SLOT; REGISTRY_SLOTS];
/// Threads between the start of a bot and its record in `REGISTRY`.
static SPAWNING: AtomicI32 = AtomicI32::new(0);
/// Set by the handler: the arena is stopping and starts no more bots.
static TERMINATING: AtomicBool = AtomicBool::new(false);
/// The signals that stop the arena (and its bots).
const TERMINATING_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
/// How long the handler waits for bots being started to be recorded.
const SPAWN_WAIT: Duration = Duration::from_secs(5);

fn register(pgid: i32) {
    for slot in REGISTRY.iter() {
        if slot
            .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

fn unregister(pgid: i32) {
    for slot in REGISTRY.iter() {
        if slot
            .compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Starts a process with `spawn` and records its process group (its pid:
/// the child makes its own group) so that the cleanup handler kills it,
/// with no moment at which a terminating signal can end the arena while the
/// process runs unrecorded.
///
/// # Errors
/// What `spawn` returns, and `Interrupted` once the arena is stopping.
fn spawn_registered(
    spawn: impl FnOnce() -> std::io::Result<std::process::Child>,
) -> std::io::Result<std::process::Child> {
    // SAFETY: sigset_t is plain data that sigemptyset and sigaddset fill in;
    // pthread_sigmask only changes this thread's mask, restored below. The
    // child's mask is emptied by std before exec.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in TERMINATING_SIGNALS {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
    }
    SPAWNING.fetch_add(1, Ordering::SeqCst);
    let result = if TERMINATING.load(Ordering::SeqCst) {
        Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "the arena is stopping",
        ))
    } else {
        spawn().map(|child| {
            register(child.id() as i32);
            child
        })
    };
    SPAWNING.fetch_sub(1, Ordering::SeqCst);
    // SAFETY: restores the mask saved above; a signal left pending for this
    // thread meanwhile (no other thread took it) is delivered now, with the
    // new process recorded.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
    }
    result
}

extern "C" fn on_terminate(signal: libc::c_int) {
    TERMINATING.store(true, Ordering::SeqCst);
    // Bots being started are recorded within moments (their threads block
    // this signal, so they cannot be the one waiting here); the wait is
    // bounded should a start need something this thread holds (a lock of
    // the allocator, say): no process is forked then, so none is missed.
    let step = libc::timespec {
        tv_sec: 0,
        tv_nsec: 1_000_000,
    };
    let mut waited = Duration::ZERO;
    while SPAWNING.load(Ordering::SeqCst) > 0 && waited < SPAWN_WAIT {
        // SAFETY: nanosleep(2) is async-signal-safe.
        unsafe {
            libc::nanosleep(&step, std::ptr::null_mut());
        }
        waited += Duration::from_millis(1);
    }
    for slot in REGISTRY.iter() {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: kill(2) is async-signal-safe and takes plain integers.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
    // SAFETY: _exit(2) is async-signal-safe; it ends the arena at once, as
    // the default action of the signal would have.
    unsafe { libc::_exit(128 + signal) }
}

/// Makes Ctrl-C and SIGTERM kill every bot the arena started before the
/// arena exits (bots run in their own process groups, so the terminal's
/// signal does not reach them).
pub fn install_cleanup_handler() {
    for sig in TERMINATING_SIGNALS {
        // SAFETY: installs a handler that only calls async-signal-safe
        // functions (atomic loads and stores, nanosleep, kill, _exit).
        unsafe {
            libc::signal(sig, on_terminate as *const () as libc::sighandler_t);
        }
    }
}

// ---------------------------------------------------------------------------

/// How a process ended.
#[derive(Clone, Copy, Debug)]
pub struct Exit {
    /// Exit code, when it exited.
    pub code: Option<i32>,
    /// Terminating signal, when killed by one.
    pub signal: Option<i32>,
    /// Peak resident set size in bytes.
    pub max_rss: u64,
    /// CPU time used over the process's life (user + system).
    pub cpu: Duration,
}

impl Exit {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// What one read from a bot produced.
#[derive(Debug)]
pub enum ReadOutcome {
    /// A complete answer. `keep_running`: it ended with the keep-running
    /// marker (the process waits for its next request).
    Answer {
        /// The text of the answer (without the marker line).
        text: String,
        /// Whether the marker followed it.
        keep_running: bool,
    },
    /// The process closed its output (it exited): everything it printed.
    Eof(String),
    /// The deadline passed.
    Timeout,
    /// It printed more than the output limit.
    Overflow,
}

/// What a read waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// One line (line protocols).
    Line,
    /// A Botzone answer: up to the keep-running marker or the end of output.
    BotzoneTurn,
}

/// A running bot program.
pub struct BotProcess {
    pid: i32,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    eof: bool,
    buffer: Vec<u8>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Set when the bot's stderr reaches its end (the reader has it all).
    stderr_done: Arc<AtomicBool>,
    stopped: bool,
    exit: Option<Exit>,
}

impl BotProcess {
    /// Starts `sh -c command` in a new process group with the memory limit.
    ///
    /// # Errors
    /// When the shell cannot be started.
    pub fn spawn(command: &str, limits: &Limits) -> std::io::Result<BotProcess> {
        BotProcess::spawn_seeded(command, limits, None)
    }

    /// Like [`BotProcess::spawn`], with `BOTZONE_SEED` set when `seed` is
    /// given (bots built on the SDK draw their random choices from it). The
    /// time limit is always in `BOTZONE_TIME_LIMIT`, for bots whose protocol
    /// does not carry it (the NOI line protocol).
    ///
    /// # Errors
    /// When the shell cannot be started.
    pub fn spawn_seeded(
        command: &str,
        limits: &Limits,
        seed: Option<u64>,
    ) -> std::io::Result<BotProcess> {
        let memory = limits.memory;
        let mut cmd = Command::new("sh");
        cmd.env(
            botzone::time::TIME_LIMIT_VAR,
            format!("{}", limits.time.as_secs_f64()),
        );
        if let Some(seed) = seed {
            cmd.env("BOTZONE_SEED", seed.to_string());
        }
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: the closure runs in the child between fork and exec and
        // only makes async-signal-safe system calls: its own process group
        // (so that the arena can stop, continue and kill the bot with all
        // its children), the memory limit Botzone applies (on what the
        // process commits, see `Limits::memory`), no core dumps.
        unsafe {
            cmd.pre_exec(move || {
                libc::setpgid(0, 0);
                if memory > 0 {
                    let lim = libc::rlimit {
                        rlim_cur: memory as libc::rlim_t,
                        rlim_max: memory as libc::rlim_t,
                    };
                    libc::setrlimit(libc::RLIMIT_DATA, &lim);
                }
                let core = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::setrlimit(libc::RLIMIT_CORE, &core);
                // No PR_SET_PDEATHSIG: it fires when the spawning *thread*
                // ends, and seats may be played from short-lived threads.
                Ok(())
            });
        }
        let mut child = spawn_registered(|| cmd.spawn())?;
        let pid = child.id() as i32;

        let mut stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        // `child` is dropped without waiting: the process is reaped with
        // wait4 below, which also gives its peak memory.
        drop(child);

        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            for chunk in in_rx {
                if stdin.write_all(&chunk).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        // Bounded: a flooding bot blocks on its pipe instead of filling ours.
        let (out_tx, out_rx) = mpsc::sync_channel::<Vec<u8>>(16);
        thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if out_tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let tail = Arc::new(Mutex::new(Vec::new()));
        let tail2 = Arc::clone(&tail);
        let stderr_done = Arc::new(AtomicBool::new(false));
        let done2 = Arc::clone(&stderr_done);
        thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 14];
            loop {
                match stderr.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut t = tail2.lock().unwrap_or_else(|e| e.into_inner());
                        t.extend_from_slice(&buf[..n]);
                        if t.len() > STDERR_TAIL {
                            let cut = t.len() - STDERR_TAIL;
                            t.drain(..cut);
                        }
                    }
                }
            }
            done2.store(true, Ordering::Release);
        });
        Ok(BotProcess {
            pid,
            input: Some(in_tx),
            output: out_rx,
            eof: false,
            buffer: Vec::new(),
            stderr: tail,
            stderr_done,
            stopped: false,
            exit: None,
        })
    }

    /// The CPU time the bot used so far (while it runs).
    pub fn cpu_time(&self) -> Option<Duration> {
        if self.exit.is_some() {
            return None;
        }
        cpu_time(self.pid)
    }

    /// Sends `text` to the bot's stdin (without waiting for it to be read).
    pub fn send(&mut self, text: &str) {
        if let Some(tx) = &self.input {
            let _ = tx.send(text.as_bytes().to_vec());
        }
    }

    /// Closes the bot's stdin.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Continues a stopped bot (SIGCONT to its group).
    pub fn resume(&mut self) {
        if self.stopped && self.exit.is_none() {
            // SAFETY: plain kill(2) on our own child's process group.
            unsafe {
                libc::kill(-self.pid, libc::SIGCONT);
            }
            self.stopped = false;
        }
    }

    /// Stops the bot between its turns (SIGSTOP to its group).
    pub fn pause(&mut self) {
        if !self.stopped && self.exit.is_none() {
            // SAFETY: plain kill(2) on our own child's process group.
            unsafe {
                libc::kill(-self.pid, libc::SIGSTOP);
            }
            self.stopped = true;
        }
    }

    /// Waits, up to [`STDERR_DRAIN`], for the stderr reader to reach the
    /// end of the bot's stderr, so that [`BotProcess::stderr_tail`] then
    /// holds all it wrote: the reader drains the pipe on a thread of its
    /// own, slowly on a busy machine. For a bot that has ended; it returns
    /// at once when the reader is done, and only a child of the bot that
    /// keeps the pipe open holds it the whole time.
    pub fn drain_stderr(&self) {
        let until = Instant::now() + STDERR_DRAIN;
        while !self.stderr_done.load(Ordering::Acquire) && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The tail of what the bot wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&t).into_owned()
    }

    fn take_line(&mut self) -> Option<String> {
        let pos = self.buffer.iter().position(|&b| b == b'\n')?;
        let line: Vec<u8> = self.buffer.drain(..=pos).collect();
        let mut s = String::from_utf8_lossy(&line).into_owned();
        while s.ends_with('\n') || s.ends_with('\r') {
            s.pop();
        }
        Some(s)
    }

    /// Finds the keep-running marker on a line of its own; returns the text
    /// before it and drops the marker line from the buffer.
    fn take_until_marker(&mut self) -> Option<String> {
        let marker = KEEP_RUNNING_MARKER.as_bytes();
        let mut start = 0;
        while start < self.buffer.len() {
            let end = match self.buffer[start..].iter().position(|&b| b == b'\n') {
                Some(p) => start + p,
                None => return None,
            };
            let mut line = &self.buffer[start..end];
            while let [rest @ .., b'\r' | b' ' | b'\t'] = line {
                line = rest;
            }
            while let [b' ' | b'\t', rest @ ..] = line {
                line = rest;
            }
            if line == marker {
                let text = String::from_utf8_lossy(&self.buffer[..start]).into_owned();
                self.buffer.drain(..=end);
                return Some(text);
            }
            start = end + 1;
        }
        None
    }

    /// Reads the bot's next answer, waiting at most until `deadline`, and
    /// giving up when the bot prints more than `limit` bytes.
    pub fn read(&mut self, want: Want, deadline: Instant, limit: usize) -> ReadOutcome {
        loop {
            match want {
                Want::Line => {
                    if let Some(line) = self.take_line() {
                        return ReadOutcome::Answer {
                            text: line,
                            keep_running: true,
                        };
                    }
                }
                Want::BotzoneTurn => {
                    if let Some(text) = self.take_until_marker() {
                        return ReadOutcome::Answer {
                            text,
                            keep_running: true,
                        };
                    }
                }
            }
            if self.buffer.len() > limit {
                return ReadOutcome::Overflow;
            }
            if self.eof {
                let text = String::from_utf8_lossy(&self.buffer).into_owned();
                self.buffer.clear();
                return ReadOutcome::Eof(text);
            }
            let now = Instant::now();
            if now >= deadline {
                return ReadOutcome::Timeout;
            }
            match self.output.recv_timeout(deadline - now) {
                Ok(chunk) => self.buffer.extend_from_slice(&chunk),
                Err(RecvTimeoutError::Timeout) => return ReadOutcome::Timeout,
                Err(RecvTimeoutError::Disconnected) => self.eof = true,
            }
        }
    }

    fn wait4(&mut self, options: libc::c_int) -> Option<Exit> {
        if let Some(e) = self.exit {
            return Some(e);
        }
        if options & libc::WNOHANG != 0 {
            // Look without reaping: while the process is an unreaped zombie
            // its pid (and group id) cannot be reused, so its group can
            // still be killed safely.
            // SAFETY: a zeroed siginfo is a valid value of this C struct.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: waitid on our own child with a valid out-pointer.
            let r = unsafe {
                libc::waitid(
                    libc::P_PID,
                    self.pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            // SAFETY: si_pid is set by waitid (0 when nothing has exited).
            if r == 0 && unsafe { info.si_pid() } == 0 {
                return None;
            }
        }
        // The shell (or the bot it became) has ended or is being killed:
        // anything left in its group goes too, before the pid is released.
        // SAFETY: plain kill(2) on our own, not yet reaped, child's group.
        unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
        }
        let mut status: libc::c_int = 0;
        // SAFETY: a zeroed rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 on our own child with valid out-pointers; the child
        // has exited (or was just killed), so this does not block for long.
        let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
        if r == self.pid {
            let exit = Exit {
                code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
                signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
                max_rss: (usage.ru_maxrss.max(0) as u64) * 1024,
                cpu: Duration::from_secs(
                    usage.ru_utime.tv_sec.max(0) as u64 + usage.ru_stime.tv_sec.max(0) as u64,
                ) + Duration::from_micros(
                    usage.ru_utime.tv_usec.max(0) as u64 + usage.ru_stime.tv_usec.max(0) as u64,
                ),
            };
            self.exit = Some(exit);
            unregister(self.pid);
            Some(exit)
        } else if r < 0 {
            // Not our child any more (should not happen): treat as gone.
            let exit = Exit {
                code: None,
                signal: None,
                max_rss: 0,
                cpu: Duration::ZERO,
            };
            self.exit = Some(exit);
            unregister(self.pid);
            Some(exit)
        } else {
            None
        }
    }

    /// Waits for the process to exit, at most until `deadline`.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<Exit> {
        loop {
            if let Some(e) = self.wait4(libc::WNOHANG) {
                return Some(e);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            thread::sleep((deadline - now).min(Duration::from_millis(2)));
        }
    }

    /// Kills the whole process group and reaps the process.
    pub fn kill(&mut self) -> Exit {
        if let Some(e) = self.exit {
            return e;
        }
        // SAFETY: plain kill(2) on our own child's process group.
        unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
        }
        self.input = None;
        self.wait4(0).unwrap_or(Exit {
            code: None,
            signal: Some(libc::SIGKILL),
            max_rss: 0,
            cpu: Duration::ZERO,
        })
    }

    /// Whether an abnormal end looks like running out of memory: the
    /// runtime said so on stderr, or the peak resident size reached 90% of
    /// the limit. It waits for the end of stderr first
    /// ([`BotProcess::drain_stderr`]) when it has to read it.
    pub fn looks_out_of_memory(&self, exit: &Exit, limit: u64) -> bool {
        if limit == 0 {
            return false;
        }
        if exit.max_rss >= limit / 10 * 9 {
            return true;
        }
        self.drain_stderr();
        let tail = self.stderr_tail();
        const MARKERS: [&str; 9] = [
            "MemoryError",
            "allocation failed",
            "heap out of memory",
            "bad_alloc",
            "memory allocation of",
            "out of memory",
            "Out of memory",
            "Cannot allocate memory",
            "OutOfMemoryError",
        ];
        MARKERS.iter().any(|m| tail.contains(m))
    }
}

/// The CPU time used so far by the live processes of process group `pgid`
/// (the shell and the bot it started); `None` when `/proc` cannot be read.
fn group_cpu_time(pgid: i32) -> Option<Duration> {
    let mut ticks = 0u64;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(stat) = name
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(ProcStat::read)
        else {
            continue;
        };
        // pgrp is field 5, utime 14, stime 15.
        if stat.field(5) == Some(pgid as u64) {
            ticks += stat.field(14).unwrap_or(0) + stat.field(15).unwrap_or(0);
        }
    }
    Some(ticks_to_duration(ticks))
}

/// How long [`BotProcess::drain_stderr`] waits for the end of a bot's
/// stderr.
const STDERR_DRAIN: Duration = Duration::from_secs(2);

/// How long [`wait_for_start`] watches a bot whose CPU time still grows.
const START_CAP: Duration = Duration::from_secs(3);
/// How often [`wait_for_start`] looks at that CPU time.
const START_LOOK: Duration = Duration::from_millis(200);

/// Waits `wait` for `p` to end, then on while it still computes (its CPU
/// time grew since the last look, as an interpreter's start does on a busy
/// machine, where it can take longer than `wait`), up to [`START_CAP`] in
/// all. `None` when it still runs then, or stopped computing first (it
/// waits for its input).
fn wait_for_start(p: &mut BotProcess, wait: Duration) -> Option<Exit> {
    let start = Instant::now();
    if let Some(exit) = p.wait_until(start + wait) {
        return Some(exit);
    }
    let mut cpu = group_cpu_time(p.pid);
    while start.elapsed() < START_CAP {
        if let Some(exit) = p.wait_until(Instant::now() + START_LOOK) {
            return Some(exit);
        }
        let now = group_cpu_time(p.pid);
        if now.is_none() || now == cpu {
            return None;
        }
        cpu = now;
    }
    None
}

/// Whether `command` starts: it is run under `limits` with its input open
/// but empty, so a bot waits for its first request; one still running
/// after `wait` (it is then stopped), or one that ends well, has started.
/// A bot whose processes still compute after `wait` is given up to 3 s in
/// all to end or to stop computing (a slow start on a busy machine).
/// It cannot start when, before any input, the shell cannot find or run it
/// (exit code 127 or 126), it stops naming a file that does not exist
/// (`python3 missing.py`, `node missing.js`), or it runs out of memory
/// under the limit.
///
/// # Errors
/// Why it cannot start: how it ended and the telling line of its stderr.
pub fn check_start(command: &str, limits: &Limits, wait: Duration) -> Result<(), String> {
    let mut p = BotProcess::spawn(command, limits).map_err(|e| format!("sh: {e}"))?;
    let Some(exit) = wait_for_start(&mut p, wait) else {
        p.kill();
        return Ok(());
    };
    if exit.success() {
        return Ok(());
    }
    p.drain_stderr();
    let stderr = p.stderr_tail();
    const MISSING_FILE: [&str; 3] = [
        "No such file",
        "Cannot find module",
        "Unable to access jarfile",
    ];
    const MEMORY: [&str; 4] = [
        " OOM ",
        "out of memory",
        "Out of memory",
        "Cannot allocate memory",
    ];
    // The line that says most: one naming the trouble, else the last.
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let telling = lines
        .iter()
        .find(|l| MISSING_FILE.iter().chain(&MEMORY).any(|m| l.contains(m)))
        .or(lines.last());
    let said = telling.map_or(String::new(), |l| format!(": {l}"));
    let how = match (exit.code, exit.signal) {
        (Some(code), _) => format!("exit code {code}"),
        (_, Some(signal)) => format!("killed by signal {signal}"),
        _ => "ended".to_string(),
    };
    match exit.code {
        Some(127) => Err(format!("the shell found no such command ({how}){said}")),
        Some(126) => Err(format!("the shell cannot execute it ({how}){said}")),
        _ if MISSING_FILE.iter().any(|m| stderr.contains(m)) => {
            Err(format!("a file it names does not exist ({how}){said}"))
        }
        _ if p.looks_out_of_memory(&exit, limits.memory)
            || MEMORY.iter().any(|m| stderr.contains(m)) =>
        {
            Err(format!(
                "it runs out of memory before reading any input, under the limit of {} MB \
             (--memory-limit) ({how}){said}",
                limits.memory >> 20
            ))
        }
        _ => Ok(()),
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            time: Duration::from_millis(500),
            memory: 256 << 20,
            output: 1 << 16,
            cpu_clock: false,
        }
    }

    /// A terminating signal that lands while a bot is being started (its
    /// process exists, not yet recorded) still kills it. The scenario runs
    /// in a copy of this test binary, since the handler ends the process.
    #[test]
    fn cleanup_kills_a_bot_being_started() {
        const CHILD: &str = "BOTZONE_TEST_CLEANUP_CHILD";
        if std::env::var_os(CHILD).is_some() {
            install_cleanup_handler();
            let (tx, rx) = mpsc::channel();
            thread::spawn(move || {
                spawn_registered(|| {
                    // Not on the copy's pipes, which the test reads to
                    // their end.
                    let child = Command::new("sleep")
                        .arg("60")
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .process_group(0)
                        .spawn()?;
                    tx.send(child.id()).unwrap();
                    // The signal arrives now, before the record.
                    thread::sleep(Duration::from_millis(300));
                    Ok(child)
                })
            });
            let pid = rx.recv().unwrap();
            println!("bot pid {pid}");
            std::io::stdout().flush().unwrap();
            // SAFETY: sends a signal to this process.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGTERM);
            }
            thread::sleep(Duration::from_secs(20));
            panic!("the cleanup handler did not end the process");
        }
        let name = module_path!().split_once("::").unwrap().1.to_string()
            + "::cleanup_kills_a_bot_being_started";
        let out = Command::new(std::env::current_exe().unwrap())
            .args([name.as_str(), "--exact", "--nocapture"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let pid: i32 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("bot pid "))
            .unwrap_or_else(|| panic!("no pid in {stdout}"))
            .parse()
            .unwrap();
        assert_eq!(out.status.code(), Some(128 + libc::SIGTERM), "{stdout}");
        // Killed: gone, or a zombie until whoever adopted it reaps it.
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                !stat
                    .rsplit(')')
                    .next()
                    .unwrap()
                    .trim_start()
                    .starts_with('Z')
            })
        };
        let t = Instant::now();
        while alive() && t.elapsed() < Duration::from_secs(5) {
            thread::sleep(Duration::from_millis(20));
        }
        if alive() {
            // SAFETY: ends the stray bot this test started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            panic!("the bot being started outlived the arena");
        }
    }

    #[test]
    fn reads_a_line_and_exit() {
        let mut p = BotProcess::spawn("read x; echo \"got $x\"", &limits()).unwrap();
        p.send("hello\n");
        let d = Instant::now() + Duration::from_secs(5);
        match p.read(Want::BotzoneTurn, d, 1000) {
            ReadOutcome::Eof(t) => assert_eq!(t, "got hello\n"),
            other => panic!("{other:?}"),
        }
        let e = p.wait_until(d).unwrap();
        assert!(e.success());
    }

    #[test]
    fn keep_running_marker_and_stop() {
        let script = format!(
            "while read x; do echo \"{{\\\"response\\\":$x}}\"; echo '{KEEP_RUNNING_MARKER}'; done"
        );
        let mut p = BotProcess::spawn(&script, &limits()).unwrap();
        for i in 0..3 {
            p.resume();
            p.send(&format!("{i}\n"));
            let d = Instant::now() + Duration::from_secs(5);
            match p.read(Want::BotzoneTurn, d, 1000) {
                ReadOutcome::Answer { text, keep_running } => {
                    assert!(keep_running);
                    assert_eq!(text.trim(), format!("{{\"response\":{i}}}"));
                }
                other => panic!("{other:?}"),
            }
            p.pause();
        }
        let e = p.kill();
        assert_eq!(e.signal, Some(libc::SIGKILL));
    }

    #[test]
    fn timeout_and_overflow() {
        let mut p = BotProcess::spawn("sleep 10", &limits()).unwrap();
        let t = Instant::now();
        let d = t + Duration::from_millis(100);
        assert!(matches!(
            p.read(Want::BotzoneTurn, d, 1000),
            ReadOutcome::Timeout
        ));
        p.kill();
        assert!(t.elapsed() < Duration::from_secs(2));
        let mut p = BotProcess::spawn("yes", &limits()).unwrap();
        let d = Instant::now() + Duration::from_secs(5);
        assert!(matches!(
            p.read(Want::BotzoneTurn, d, 100_000),
            ReadOutcome::Overflow
        ));
    }

    #[test]
    fn node_starts_under_the_memory_limit() {
        // V8 reserves far more address space than 256 MB; only what it
        // commits counts.
        assert!(
            Command::new("node").arg("--version").output().is_ok(),
            "this test needs Node.js (`node`; .ci/run installs it)"
        );
        let mut p = BotProcess::spawn("node -e \"console.log('started')\"", &limits()).unwrap();
        let d = Instant::now() + Duration::from_secs(20);
        match p.read(Want::BotzoneTurn, d, 1000) {
            ReadOutcome::Eof(text) => assert_eq!(text.trim(), "started", "{}", p.stderr_tail()),
            other => panic!("{other:?}: {}", p.stderr_tail()),
        }
        assert!(p.wait_until(d).unwrap().success(), "{}", p.stderr_tail());
    }

    #[test]
    fn memory_limit_applies() {
        let mut p = BotProcess::spawn(
            "python3 -c 'x = bytearray(400 << 20); print(len(x))'",
            &limits(),
        )
        .unwrap();
        let d = Instant::now() + Duration::from_secs(10);
        let _ = p.read(Want::BotzoneTurn, d, 1000);
        let e = p.wait_until(d).unwrap();
        assert!(!e.success());
        assert!(p.looks_out_of_memory(&e, 256 << 20), "{}", p.stderr_tail());
    }
}
