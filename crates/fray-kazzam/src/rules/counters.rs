//! Class features' counters (tokens and marks a feature keeps on its owner: Focused Blade,
//! Capacitive Ward's charge, a Tinker's traps): how one is set, as an event.

use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::records::features::Feature;
use crate::engine::state::UnitIdx;

/// Sets `u`'s counter of feature `f` (about `about`, for a feature counted per creature) to
/// `value`, as an event; nothing happens when it already holds that value.
pub fn set_counter(cx: &mut Ctx, u: UnitIdx, f: Feature, value: i32, about: Option<UnitIdx>) {
    let now = if f.counts_per_creature() {
        let v = cx.s.unit(u).counters.iter().find(|c| c.feature == f && c.about == about).map_or(0, |c| c.value);
        (v, about)
    } else {
        cx.s.counter(u, f)
    };
    if now != (value, about) && !(value == 0 && now.0 == 0) {
        cx.emit(Event::FeatureCounter {
            unit: cx.s.who(u),
            feature: f.id(&cx.s.content).into(),
            value,
            about: about.map(|a| cx.s.who(a)),
        });
    }
}
