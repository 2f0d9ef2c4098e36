//! The Love Beast's Pain of Eros (L2472): a target the blow would Take Out first takes one
//! last turn Dominated by the beast, then goes down. Its other actions and its Aura of Desire
//! are played in `rules/creeps.rs`.

use crate::engine::events::Event;
use crate::engine::frames::{Blow, Frame};
use crate::engine::kit::Ctx;
use crate::engine::state::UnitIdx;
use crate::rules::statuses::{Duration, Status, StatusKind};

/// The blow of `amount` from `beast` would Take Out `t`: instead it waits, and `t` takes a last
/// turn now, Dominated by the beast (under the `dominated` table option: by default the
/// creepmaster's seat picks its one action; with `good-faith` its own player does). True if so;
/// false if the blow should land as usual (it would not fell `t`, or `t` takes no turns).
pub fn pain_of_eros(cx: &mut Ctx, beast: UnitIdx, t: UnitIdx, amount: i32, why: &str) -> bool {
    let u = cx.s.unit(t);
    if u.kind != crate::engine::state::UnitKind::Athlete
        || u.hp <= 0
        || !crate::rules::damage::would_take_out(cx.s, t, amount)
    {
        return false;
    }
    let text = format!(
        "{why} would fell {}: first it takes a last turn, Dominated by {} (Pain of Eros)",
        cx.s.unit(t).id,
        cx.s.unit(beast).id
    );
    cx.emit(Event::Note { text });
    let mut st = Status::simple(StatusKind::Dominated, Duration::Indefinite);
    st.source = Some(beast);
    crate::rules::statuses::give::give_status(cx, t, st, "Pain of Eros");
    let blow = Blow { by: beast, amount, why: why.to_string() };
    cx.push(Frame::FinalAction { unit: t, acted: false, stings: Vec::new(), blow: Some(blow) });
    true
}

/// The last turn is over: the held blow lands, and `unit` is Taken Out whatever it did in
/// the meantime (the blow had already felled it; rulings, Pain of Eros).
pub fn last_turn_over(cx: &mut Ctx, unit: UnitIdx, b: Blow) {
    if !cx.s.unit(unit).on_map() {
        return;
    }
    let ctx = crate::rules::damage::FromAttack { attack_or_opportunity: true, pierce: false, melee: false };
    crate::rules::damage::deal(cx, unit, b.amount, Some(b.by), &b.why, Some(ctx));
    if cx.s.unit(unit).on_map() {
        cx.emit(Event::Note { text: format!("{}'s last turn is over: it goes down", cx.s.unit(unit).id) });
        crate::rules::damage::take_out(cx, unit, Some(b.by));
    }
}
