//! Objects' Stamina (DS-GAP-20): a map object made of glass, wood, stone or metal has Stamina
//! in each square it fills (1, 3, 6 or 9); poison and psychic damage do nothing to it; a square
//! brought to 0 is destroyed and becomes open ground.

use crate::events::{Ctx, Event};
use crate::model::{AbilityDef, Distance};
use crate::state::Cx;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::sight::Sight;

/// DS-GAP-20: the damage types no object takes.
pub fn immune(kind: Option<&str>) -> bool {
    kind.is_some_and(|k| k.eq_ignore_ascii_case("poison") || k.eq_ignore_ascii_case("psychic"))
}

/// An ability whose targets include objects (`objects = true`) deals its tier's damage to each
/// square of a standing object with a material inside its area: a burst or aura (in line of
/// effect from the user), or the squares `placed` of a cube or line. Objects impose no edges or
/// banes, so `tier` is the roll's own tier (docs/rulings/drawsteel.md, "Object Stamina").
pub fn hit_in_area(cx: &mut Ctx, user: Cx, ability: &AbilityDef, placed: &[Pos], tier: usize, bonus: i32) {
    let n = match ability.distance {
        Distance::Burst { size } | Distance::Aura { size } => Some(size),
        Distance::Cube { .. } | Distance::Line { .. } => None,
        _ => return,
    };
    let Some(p) = cx.s.c(user).pos else { return };
    let size = cx.s.c(user).size.squares;
    let t = ability.tier(tier);
    let dmg = t.damage + if t.plus_characteristic && t.damage > 0 { bonus } else { 0 };
    if dmg <= 0 {
        return;
    }
    let kind = t.damage_type.as_deref();
    let mut hits = Vec::new();
    for (i, o) in cx.s.objects.iter().enumerate() {
        if o.toppled || o.material.is_none() {
            continue;
        }
        let caught: Vec<_> = o
            .squares()
            .filter(|&q| match n {
                Some(n) => {
                    let d = distance(p, size, q, 1);
                    d > 0 && d <= n && crate::abilities::sight_between(cx.s, p, size, q, 1) != Sight::Blocked
                }
                None => placed.contains(&q),
            })
            .collect();
        if !caught.is_empty() {
            hits.push((i, o.name.clone(), caught));
        }
    }
    for (i, name, squares) in hits {
        if immune(kind) {
            let text = format!("the {name} takes no {} damage: objects are immune to it", kind.unwrap_or(""));
            cx.emit(Event::Note { text });
            continue;
        }
        for q in squares {
            let left = cx.s.objects[i].stamina_at(q).unwrap_or(0);
            let stamina = (left - dmg).max(0);
            cx.emit(Event::ObjectDamaged { object: i, name: name.clone(), square: q, damage: dmg, stamina });
        }
    }
}
