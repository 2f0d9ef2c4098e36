//! Which squares a forced movement may step into: a push takes its target farther from the
//! origin with every square, a pull brings it closer, a slide goes any way; and a line kept
//! straight (the published reading of a push or pull "in a straight line"): it may turn, but
//! never step back against a way it already went. Terrain, occupants and slams are the
//! system's.

use crate::geometry::distance;
use crate::grid::Pos;
use serde::{Deserialize, Serialize};

/// A forced movement that goes one square at a time, steered by whoever moves the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Forced {
    /// Each square farther from the origin.
    Push,
    /// Each square closer to the origin.
    Pull,
    /// Any way.
    Slide,
}

impl Forced {
    /// "push", "pull", "slide".
    pub fn name(self) -> &'static str {
        match self {
            Forced::Push => "push",
            Forced::Pull => "pull",
            Forced::Slide => "slide",
        }
    }
    /// "pushed", "pulled", "slid".
    pub fn past(self) -> &'static str {
        match self {
            Forced::Push => "pushed",
            Forced::Pull => "pulled",
            Forced::Slide => "slid",
        }
    }
    /// Reads "push", "pull" or "slide".
    pub fn parse(text: &str) -> Option<Forced> {
        match text.trim().to_lowercase().as_str() {
            "push" => Some(Forced::Push),
            "pull" => Some(Forced::Pull),
            "slide" => Some(Forced::Slide),
            _ => None,
        }
    }
    /// Whether a step from `here` squares away from the origin to `there` squares away keeps
    /// to the kind: farther for a push, closer for a pull, anything for a slide.
    pub fn keeps_to(self, here: i32, there: i32) -> bool {
        match self {
            Forced::Push => there > here,
            Forced::Pull => there < here,
            Forced::Slide => true,
        }
    }
    /// Whether a footprint of `size` stepping from `from` to `to` keeps to the kind, measured
    /// from the origin's footprint (`origin`, `origin_size`).
    pub fn step_ok(self, from: Pos, to: Pos, size: i32, origin: Pos, origin_size: i32) -> bool {
        self == Forced::Slide
            || self.keeps_to(distance(from, size, origin, origin_size), distance(to, size, origin, origin_size))
    }
}

/// The direction of a step from `from` to `to` (each coordinate -1, 0 or 1 for a step to a
/// neighbour).
pub fn direction(from: Pos, to: Pos) -> (i32, i32) {
    (to.x - from.x, to.y - from.y)
}

/// Whether a step in direction `dir` keeps a line straight after `steps` (the published
/// reading): the line may turn, but no step heads against a way an earlier step went — once
/// it has moved right it never moves left, once down never up. An L is straight; a zigzag is
/// not.
pub fn straight_on(steps: &[(i32, i32)], dir: (i32, i32)) -> bool {
    steps.iter().all(|s| s.0 * dir.0 >= 0 && s.1 * dir.1 >= 0)
}

/// The neighbours of `from` a footprint of `size` may be forced into next: keeping to `kind`
/// measured from the origin's footprint, and, when `straight`, keeping the line of the
/// `steps` already taken straight (a slide never has to). Terrain and occupants are left to
/// the caller.
pub fn next_steps(
    kind: Forced,
    from: Pos,
    size: i32,
    origin: Pos,
    origin_size: i32,
    steps: &[(i32, i32)],
    straight: bool,
) -> impl Iterator<Item = Pos> + '_ {
    from.neighbours().into_iter().filter(move |&to| {
        kind.step_ok(from, to, size, origin, origin_size)
            && (!straight || kind == Forced::Slide || straight_on(steps, direction(from, to)))
    })
}
