//! Placeholder: filled in by the enclosure work.
