//! Placeholder bench (being written).
fn main() {}
