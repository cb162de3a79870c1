//! Placeholder: filled in by the pacman2 work.
