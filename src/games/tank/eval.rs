//! Placeholder: evaluation (being written).
