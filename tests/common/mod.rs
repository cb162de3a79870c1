//! Shared test helpers, for the tests of both packages (`cli/tests` include
//! this file by path): a counting global allocator (per thread, so tests
//! running in parallel do not disturb each other), fixture and
//! input-sample paths, the workspace's binaries and scratch directories.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: defers every call to the system allocator; the counter is a
// const-initialised thread-local `Cell` without a destructor, so touching it
// never allocates or re-enters the allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Heap allocations (alloc, alloc_zeroed, realloc) made by this thread so far.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

/// Runs `f` and returns its result with the number of heap allocations it
/// made on this thread.
pub fn count_allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = allocations();
    let out = f();
    (out, allocations() - before)
}

/// The workspace root: the library's package directory, which holds
/// `tests/fixtures/`, `input-samples/` and `bots/` (the tests of `cli/`
/// share this file and these folders).
pub fn root() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if dir.join("tests/fixtures").is_dir() {
        dir
    } else {
        dir.parent()
            .expect("cli/ sits in the workspace")
            .to_path_buf()
    }
}

/// `tests/fixtures/<rel>`.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("tests/fixtures").join(rel)
}

/// `input-samples/<game>/<name>`: the README's sample inputs of a game
/// (`game` is the folder, e.g. `pacman2`, `tank` or `echo`).
pub fn input_sample(game: &str, name: &str) -> PathBuf {
    root().join("input-samples").join(game).join(name)
}

/// The text of [`input_sample`]`(game, name)`.
///
/// # Panics
/// When the file cannot be read, naming it.
pub fn read_input_sample(game: &str, name: &str) -> String {
    let path = input_sample(game, name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A binary of the workspace (a bot of the library's package, or the
/// `botzone` command of `cli/`), from the target directory these tests were
/// built in. `cargo test --release` at the root builds every binary of both
/// packages before any test runs.
///
/// # Panics
/// When the binary has not been built, naming the command that builds it.
pub fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/<test> -> target/<profile>/<name>
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("tests run from target/<profile>/deps");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is not built: run `cargo build{} --workspace --bins` (or `cargo test{}` at the \
         workspace root, which builds every binary)",
        path.display(),
        if cfg!(debug_assertions) {
            ""
        } else {
            " --release"
        },
        if cfg!(debug_assertions) {
            ""
        } else {
            " --release"
        },
    );
    path
}

/// A fresh, empty scratch directory for one test (in the system's
/// temporary directory, named after this test process and `name`).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("botzone-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `command` on `stdin` and returns its output (stdout and stderr read
/// to the end): the one way the tests run a program. The input is written
/// from a thread, so a program may answer, or exit, before reading it all.
/// A program still running after `timeout` is killed and the test fails,
/// naming it.
pub fn run_program(
    mut command: std::process::Command,
    stdin: &[u8],
    timeout: std::time::Duration,
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    let shown = format!("{command:?}");
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
    let mut pipe = child.stdin.take().expect("piped stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // A closed pipe is the program's business, not the test's failure.
        let _ = pipe.write_all(&input);
    });
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let started = Instant::now();
            while !done.load(Ordering::Relaxed) {
                if started.elapsed() > timeout {
                    let _ = std::process::Command::new("kill")
                        .args(["-9", &pid.to_string()])
                        .status();
                    return true;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            false
        })
    };
    let out = child.wait_with_output().expect("wait for the program");
    done.store(true, Ordering::Relaxed);
    let _ = writer.join();
    assert!(
        !watchdog.join().expect("watchdog"),
        "{shown} did not finish within {timeout:?}"
    );
    out
}
