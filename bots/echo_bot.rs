//! Placeholder example bot.
fn main() {}
