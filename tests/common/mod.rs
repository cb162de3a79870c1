//! Shared test helpers: a counting global allocator (per thread, so tests
//! running in parallel do not disturb each other), fixture paths, the
//! package's binaries and scratch directories.
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

/// `tests/fixtures/<rel>`.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// The path of a binary of this package built for the tests.
pub fn bin(name: &str) -> PathBuf {
    // Cargo sets CARGO_BIN_EXE_<name> for integration tests.
    match name {
        "botzone" => PathBuf::from(env!("CARGO_BIN_EXE_botzone")),
        other => {
            let mut p = PathBuf::from(env!("CARGO_BIN_EXE_botzone"));
            p.set_file_name(other);
            p
        }
    }
}

/// A fresh, empty scratch directory for one test (in the system's
/// temporary directory, named after this test process and `name`).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("botzone-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
