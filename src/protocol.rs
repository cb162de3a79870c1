//! Protocol (being written).
