//! Placeholder bot (being written).
fn main() {}
