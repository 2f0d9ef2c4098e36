//! Implements beyond their basic powers: the advanced implements of level 3.

pub mod advanced;
