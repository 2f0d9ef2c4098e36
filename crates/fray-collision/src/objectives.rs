//! Objectives and their victory points (C-BAT-22, a battle option): squares on the map that a
//! side holds at the end of the battle when it has more characters on the table within 1 of them
//! than the enemy. Each held objective scores `objective-vp` on top of the defeated enemies'
//! points. A scenario's `[map] objectives` names the squares; otherwise `objectives=N` has Fray
//! place N across the middle of the map. docs/rulings/collision.md ("Objectives") gives the
//! readings.

use crate::battle::{SIDES, State};
use crate::rules::{Cx, dist};
use fray_core::grid::Pos;

/// Fray's placement of `n` objectives on a `width` × `height` map (C-BAT-22, Fray's reading):
/// spread evenly along the middle, alternating between the two middle rows of an even map so
/// neither side's deployment row is nearer to all of them, each moved along its row to the
/// nearest open square when it falls on impassable terrain.
pub fn place(n: i32, width: i32, height: i32, open: impl Fn(Pos) -> bool) -> Vec<Pos> {
    let mut out = Vec::new();
    for k in 0..n {
        let y = if k % 2 == 0 { height / 2 } else { (height - 1) / 2 };
        let x = ((k + 1) * width / (n + 1)).clamp(0, width - 1);
        let spot = (0..width)
            .map(|d| [x - d, x + d])
            .flat_map(|xs| xs.into_iter())
            .map(|x| Pos::new(x, y))
            .find(|&p| p.x >= 0 && p.x < width && open(p) && !out.contains(&p));
        out.extend(spot);
    }
    out
}

/// Whether `p` is an objective square (Wreck never destroys one: C-GL-WRECK).
pub fn is_objective(s: &State, p: Pos) -> bool {
    s.objectives.contains(&p)
}

/// The side holding objective `p`, if either: more of its characters on the table within 1.
pub fn holder(s: &State, p: Pos) -> Option<u8> {
    let near =
        |side: u8| s.standing().filter(|&u| s.u(u).side == side && s.u(u).at.is_some_and(|q| dist(p, q) <= 1)).count();
    match near(0).cmp(&near(1)) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// Adds the points of the objectives held after the last turn to `vp` (C-BAT-22).
pub fn score(cx: &mut Cx, vp: &mut [i32; 2]) {
    let each = cx.s.options.objective_vp;
    for p in cx.s.objectives.clone() {
        match holder(cx.s, p) {
            Some(side) => {
                vp[side as usize] += each;
                cx.log(|| format!("{} holds the objective at {}: {each} VP (C-BAT-22)", SIDES[side as usize], p.key()));
            }
            None => cx.log(|| format!("Nobody holds the objective at {} (C-BAT-22)", p.key())),
        }
    }
}
