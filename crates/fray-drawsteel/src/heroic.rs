//! Heroic Resource triggers of the classes beyond the fury's (DS-GAP-15, issue 19): what each
//! class gains when something happens in the fight, besides its gain at the start of each
//! turn. The fury's own triggers are in [`crate::damage`]. Each "first time each round" gain
//! uses the hero's round flag, each "first time in the encounter" gain its encounter flag.

use crate::events::{Ctx, Event};
use crate::state::Cx;

/// Gives `c` `n` of its resource; `round`/`encounter`: the gain uses up that flag.
fn gain(cx: &mut Ctx, c: Cx, n: i32, why: String, round: bool, encounter: bool) {
    let total = cx.s.c(c).resource + n;
    cx.emit(Event::Resource { creature: cx.s.who(c), total, why, damaged: round, winded: encounter, second: false });
}

/// Gives `c` 1 of its resource, using up its second once-a-round flag.
fn gain_second(cx: &mut Ctx, c: Cx, why: String) {
    let total = cx.s.c(c).resource + 1;
    cx.emit(Event::Resource { creature: cx.s.who(c), total, why, damaged: false, winded: false, second: true });
}

/// Heroes of `class` still in the fight.
fn of_class(cx: &Ctx, class: &str) -> Vec<Cx> {
    let s = &*cx.s;
    s.active().filter(|&h| s.c(h).hero && s.c(h).class.is_some_and(|k| k.0 == class)).collect()
}

/// `c` has just taken `kind` damage.
/// - Elementalist: 1 essence the first time each round it, or a creature within 10 squares of
///   it, takes damage of a type other than holy (untyped damage does not count).
/// - Troubadour: 2 drama the first time in the encounter any hero becomes winded.
pub fn damaged(cx: &mut Ctx, c: Cx, kind: Option<&str>) {
    if kind.is_some_and(|k| k != "holy") {
        for e in of_class(cx, "elementalist") {
            let near = e == c || cx.s.distance(e, c).is_some_and(|d| d <= 10);
            if near && !cx.s.c(e).resource_triggers.0 {
                let why = format!("essence: +1, {} took {} damage", cx.s.c(c).id, kind.unwrap_or(""));
                gain(cx, e, 1, why, true, false);
            }
        }
    }
    let x = cx.s.c(c);
    if x.hero && x.winded() {
        for t in of_class(cx, "troubadour") {
            if !cx.s.c(t).resource_triggers.1 {
                let why = format!("drama: +2, {} is the first hero winded", cx.s.c(c).id);
                gain(cx, t, 2, why, false, true);
            }
        }
    }
}

/// Shadow: 1 insight the first time each round it deals damage that a surge added to.
pub fn surged(cx: &mut Ctx, c: Cx) {
    let x = cx.s.c(c);
    if x.class.is_some_and(|k| k.0 == "shadow") && !x.resource_triggers.0 {
        gain(cx, c, 1, "insight: +1, damage with a surge".into(), true, false);
    }
}

/// Talent: 1 clarity the first time each round any creature is force moved.
pub fn force_moved(cx: &mut Ctx, c: Cx) {
    for t in of_class(cx, "talent") {
        if !cx.s.c(t).resource_triggers.0 {
            let why = format!("clarity: +1, {} was force moved", cx.s.c(c).id);
            gain(cx, t, 1, why, true, false);
        }
    }
}

/// Troubadour: 3 drama whenever a creature it has line of effect to (or itself) rolls a
/// natural 19 or 20.
pub fn natural_crit(cx: &mut Ctx, c: Cx) {
    for t in of_class(cx, "troubadour") {
        if t == c || crate::abilities::line_of_effect(cx.s, t, c) != fray_core::sight::Sight::Blocked {
            let why = format!("drama: +3, {} rolled a natural 19 or 20", cx.s.c(c).id);
            gain(cx, t, 3, why, false, false);
        }
    }
}

/// Troubadour: 10 drama when it or another hero dies (a dead troubadour gains it too).
pub fn hero_died(cx: &mut Ctx, c: Cx) {
    let s = &*cx.s;
    let list: Vec<Cx> = s
        .all()
        .filter(|&h| s.c(h).hero && s.c(h).class.is_some_and(|k| k.0 == "troubadour"))
        .filter(|&h| h == c || s.c(h).active())
        .collect();
    for t in list {
        let why = format!("drama: +10, {} died", cx.s.c(c).id);
        gain(cx, t, 10, why, false, false);
    }
}

/// Null: 1 discipline the first time each round an enemy spends Malice (the Director buys a
/// Malice feature for one of its creatures: DS-GAP-17). The Null Field's trigger is not played.
pub fn malice_spent(cx: &mut Ctx, by: Cx) {
    for n in of_class(cx, "null") {
        if cx.s.enemies(n, by) && !cx.s.c(n).resource_triggers.0 {
            let why = format!("discipline: +1, Malice spent for {}", cx.s.c(by).id);
            gain(cx, n, 1, why, true, false);
        }
    }
}

/// Tactician: 1 focus the first time each round an ally within 10 squares uses a heroic
/// ability (in Fray: an ability that costs Heroic Resource). The tactician's own abilities do
/// not count (an ally is another creature). Its mark's trigger is in [`blow`].
pub fn heroic_ability_used(cx: &mut Ctx, by: Cx) {
    for t in of_class(cx, "tactician") {
        let near = cx.s.distance(t, by).is_some_and(|d| d <= 10);
        if t != by && near && !cx.s.enemies(t, by) && !cx.s.c(t).resource_triggers.0 {
            let why = format!("focus: +1, {} used a heroic ability", cx.s.c(by).id);
            gain(cx, t, 1, why, true, false);
        }
    }
}

/// `source` has just dealt damage to `c` (after immunity, at least 1).
/// - Censor: 1 wrath the first time each round a creature it has judged damages it, and 1 the
///   first time each round it damages a creature it has judged (two separate flags).
/// - Tactician: 1 focus the first time each round it or an ally damages a creature it has
///   marked, unless it is dying (its mark has ended).
pub fn blow(cx: &mut Ctx, c: Cx, source: Option<Cx>) {
    let Some(by) = source else { return };
    for h in of_class(cx, "censor") {
        let (target, dealer) = (cx.s.c(c), cx.s.c(by));
        if c == h && dealer.judged_by == Some(h) && !cx.s.c(h).resource_triggers.0 {
            let why = format!("wrath: +1, {} whom it judged damaged it", dealer.id);
            gain(cx, h, 1, why, true, false);
        } else if by == h && target.judged_by == Some(h) && !cx.s.c(h).resource_triggers.2 {
            let why = format!("wrath: +1, it damaged {} whom it judged", target.id);
            gain_second(cx, h, why);
        }
    }
    for t in of_class(cx, "tactician") {
        let x = cx.s.c(t);
        let ours = by == t || !cx.s.enemies(t, by);
        if cx.s.c(c).marked_by == Some(t) && ours && !x.dying() && !x.resource_triggers.2 {
            let why = format!("focus: +1, {} damaged {} whom it marked", cx.s.c(by).id, cx.s.c(c).id);
            gain_second(cx, t, why);
        }
    }
}
