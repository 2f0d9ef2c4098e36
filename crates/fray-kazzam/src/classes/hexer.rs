//! Jinxer (Hexer level 5, L744; rulings `jinxer`): the Hexer's effects that would end as an
//! enemy's next turn ends last instead while the Hexer chants a jinx at that enemy.
//!
//! A chanted effect carries [`Lingers::Chant`](crate::rules::statuses::Lingers::Chant) (statuses, modifiers, curses and zone statuses
//! alike, all made through `attack::duration_for`). A chant is one Jinxer and one target; it
//! exists while at least one effect carries it, or while the Jinxer's Jinxer counter names the
//! target (set when it gives the target a save-ends status). It ends, with everything it carries, when the
//! target is more than 10 squares away (or either leaves the map), when the Jinxer is hit by an
//! attack whose roll is 4 or more, or when the Jinxer spends an Attack Action; the target then
//! gets one free save against each of the Jinxer's save-ends statuses, which it could not save
//! against while the chant lasted.

use crate::classes::features::Feature;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::state::{State, UnitIdx};
pub use crate::rules::query::{CHANT_RANGE, chant_duration};
use crate::rules::statuses::{Duration, Status};
use fray_core::ruleset::RuleError;

/// Every chant going on, as (Jinxer, target) pairs, each once.
pub fn chants(s: &State) -> Vec<(UnitIdx, UnitIdx)> {
    // Plain loops in the order of the durations read (statuses, modifiers, curses, the
    // Jinxers' counters): this runs after every step of play.
    let mut out = Vec::new();
    let mut note = |d: Duration| {
        if let Duration::Other(crate::rules::statuses::Lingers::Chant { jinxer, target }) = d
            && !out.contains(&(jinxer, target))
        {
            out.push((jinxer, target));
        }
    };
    for u in &s.units {
        for st in &u.statuses {
            note(st.duration);
        }
    }
    for m in &s.modifiers {
        note(m.duration);
    }
    for c in &s.curses {
        note(c.duration);
    }
    for (j, u) in s.units.iter().enumerate() {
        for c in &u.counters {
            if c.feature == Feature::Jinxer
                && c.value != 0
                && let Some(target) = c.about
            {
                note(Duration::Other(crate::rules::statuses::Lingers::Chant { jinxer: j as UnitIdx, target }));
            }
        }
    }
    out
}

/// Whether `jinxer` chants at `target`.
pub fn chanting(s: &State, jinxer: UnitIdx, target: UnitIdx) -> bool {
    chants(s).contains(&(jinxer, target))
}

/// Whether `unit` may not save against `st` now: a save-ends status from a Jinxer chanting at it.
pub fn save_held(s: &State, unit: UnitIdx, st: &Status) -> bool {
    st.duration == Duration::SaveEnds && st.source.is_some_and(|j| chanting(s, j, unit))
}

/// Takes out of `saves` what `unit` may not save against during a chant, saying so.
pub fn hold_saves(cx: &mut Ctx, unit: UnitIdx, saves: &mut Vec<Status>) {
    let (held, kept): (Vec<Status>, Vec<Status>) = saves.iter().partition(|st| save_held(cx.s, unit, st));
    *saves = kept;
    for st in held {
        let j = st.source.expect("held saves have a source");
        cx.emit(Event::Note {
            text: format!(
                "{} cannot save against {} while {} chants (Jinxer)",
                cx.s.unit(unit).id,
                st.kind,
                cx.s.unit(j).id
            ),
        });
    }
}

/// Ends `jinxer`'s chant at `target`: what it carried ends, then the target makes one free save
/// against each save-ends status `jinxer` gave it.
pub fn end_chant(cx: &mut Ctx, jinxer: UnitIdx, target: UnitIdx, why: &str) -> Result<(), RuleError> {
    let chant = Duration::Other(crate::rules::statuses::Lingers::Chant { jinxer, target });
    cx.emit(Event::Note { text: format!("{}'s jinx on {} ends: {why}", cx.s.unit(jinxer).id, cx.s.unit(target).id) });
    let why = format!("jinx ended: {why}");
    crate::rules::turn::end_statuses(cx, |d| *d == chant, &why);
    crate::rules::modifiers::expire(cx, |d| *d == chant, &why);
    crate::rules::curses::expire(cx, |d| *d == chant, &why);
    crate::classes::features::set_counter(cx, jinxer, Feature::Jinxer, 0, Some(target));
    if !cx.s.unit(target).on_map() {
        return Ok(());
    }
    let held: Vec<Status> =
        cx.s.unit(target)
            .statuses
            .iter()
            .filter(|st| st.duration == Duration::SaveEnds && st.source == Some(jinxer))
            .copied()
            .collect();
    for st in held {
        if !cx.s.unit(target).statuses.contains(&st) {
            continue;
        }
        let success = crate::rules::turn::saving_throw(cx, target, &format!("{} (free save, jinx ended)", st.kind))?;
        crate::rules::turn::settle_save(cx, target, st, success);
    }
    Ok(())
}

/// Ends every chant of `jinxer`.
fn end_all(cx: &mut Ctx, jinxer: UnitIdx, why: &str) -> Result<(), RuleError> {
    for (j, t) in chants(cx.s) {
        if j == jinxer {
            end_chant(cx, j, t, why)?;
        }
    }
    Ok(())
}

/// `u` spent an Attack Action (trading it down for a Move Action is not spending it): its
/// chants end before the new action does anything.
pub fn attack_action(cx: &mut Ctx, u: UnitIdx) -> Result<(), RuleError> {
    end_all(cx, u, "its chanter spent another Attack Action")
}

/// An attack roll of `value` against `target` was resolved: a hit rolling 4+ breaks its chants.
pub fn struck(cx: &mut Ctx, target: UnitIdx, value: i32, hit: bool) -> Result<(), RuleError> {
    if hit && value >= 4 {
        end_all(cx, target, "its chanter was hit by a roll of 4+")?;
    }
    Ok(())
}

/// Between steps of play: chants whose target is over 10 squares away, or whose Jinxer or
/// target is off the map, end.
pub fn check(cx: &mut Ctx) -> Result<(), RuleError> {
    for (j, t) in chants(cx.s) {
        match cx.s.distance(j, t) {
            Some(d) if d <= CHANT_RANGE => {}
            Some(_) => end_chant(cx, j, t, "its target is over 10 squares away")?,
            None => end_chant(cx, j, t, "one of them left the map")?,
        }
    }
    Ok(())
}

/// `target` just gained `st`: a save-ends status from a Jinxer starts (or joins) its chant.
pub fn status_given(cx: &mut Ctx, target: UnitIdx, st: &Status) {
    if st.duration != Duration::SaveEnds {
        return;
    }
    if let Some(j) = st.source
        && chant_duration(cx.s, j, target).is_some()
        && cx.s.counter_about(j, Feature::Jinxer, target) == 0
    {
        crate::classes::features::set_counter(cx, j, Feature::Jinxer, 1, Some(target));
    }
}

/// The Jinxer's chants: ended by its Attack Action or a hit of 4+ on it, laid with a save-ends
/// status, holding its target's saves.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_attack_action_spent(10, "jinxer", attack_action);
    r.on_roll_read(30, "jinxer", |cx, r| struck(cx, r.target, r.value, r.hit));
    r.on_status_given(10, "jinxer", status_given);
    r.on_saves_due(10, "jinxer", hold_saves);
    r.on_step_done(10, "jinxer", check);
}
