//! Pieces of the commands every system's players type (`move = [3, 1]`, `target = "b1"`), so
//! the games read them the same way.

use crate::grid::Pos;
use serde::{Deserialize, Serialize};

/// One target or several, in the order they are resolved.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Targets {
    /// One id.
    One(String),
    /// Several ids.
    Many(Vec<String>),
}

/// A destination square or a full route.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Route {
    /// Just the destination: the cheapest route is taken.
    To(Pos),
    /// Every square entered, in order.
    Path(Vec<Pos>),
}
