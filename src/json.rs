//! JSON (being written).
