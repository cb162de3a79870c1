//! Placeholder: filled in by the tank work.
