//! Statuses that spread (Bura's Traveling Fire, L710): a status given by an Effect primitive
//! with the `spreads` hook passes, the same status from the same source, to any creature that
//! starts its turn next to a creature bearing it or moves into a square next to one.

use crate::engine::kit::Ctx;
use crate::engine::state::{State, UnitIdx};
use crate::rules::statuses::Status;

/// Whether `st` is a spreading status: its power gives it with the `spreads` hook.
fn spreading(s: &State, st: &Status) -> bool {
    st.origin.is_some_and(|p| {
        s.powers
            .get(p)
            .effect
            .iter()
            .any(|e| e.hook.as_deref() == Some("spreads") && e.status.as_deref() == Some(st.kind.name()))
    })
}

thread_local! {
    /// The power list [`spreaders`] last scanned, with the powers in it that give a spreading
    /// status. Holding the list keeps it alive, so while the pointer is the same, so is the list.
    #[allow(clippy::type_complexity)]
    static SPREADERS: std::cell::RefCell<Option<(std::sync::Arc<crate::content::powers::Powers>, std::rc::Rc<[u16]>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The powers of `s` with an Effect the `spreads` hook gives (only their statuses may be
/// [`spreading`]), scanned once per power list.
fn spreaders(s: &State) -> std::rc::Rc<[u16]> {
    SPREADERS.with(|m| {
        let mut m = m.borrow_mut();
        if let Some((powers, found)) = m.as_ref()
            && std::sync::Arc::ptr_eq(powers, &s.powers)
        {
            return found.clone();
        }
        let found: std::rc::Rc<[u16]> = s
            .powers
            .all()
            .iter()
            .enumerate()
            .filter(|(_, d)| d.effect.iter().any(|e| e.hook.as_deref() == Some("spreads")))
            .map(|(p, _)| p as u16)
            .collect();
        *m = Some((s.powers.clone(), found.clone()));
        found
    })
}

/// The spreading status `unit` would catch from a creature next to it, if it bears none from
/// that power already.
fn catchable(s: &State, unit: UnitIdx) -> Option<Status> {
    // Only a status from a power in `spreaders` may spread: with none about, nothing does, and
    // a creature bearing none gives nothing (the same answer, asked of fewer).
    let from = spreaders(s);
    if from.is_empty() {
        return None;
    }
    let may_spread = |o: UnitIdx| s.unit(o).statuses.iter().any(|st| st.origin.is_some_and(|p| from.contains(&p)));
    // Spreading depends only on a status's power and kind, so "one it bears already"
    // is one with the same power and kind.
    let bears = |st: &Status| s.unit(unit).statuses.iter().any(|m| m.origin == st.origin && m.kind == st.kind);
    s.units_on_map()
        .filter(|&o| o != unit && may_spread(o) && s.distance(o, unit) == Some(1))
        .flat_map(|o| s.unit(o).statuses.iter())
        .find(|st| spreading(s, st) && !bears(st))
        .copied()
}

fn catch(cx: &mut Ctx, unit: UnitIdx) {
    // Only creatures catch it: no trap, wall or conjured thing.
    let creature = matches!(
        cx.s.unit(unit).kind,
        crate::engine::state::UnitKind::Athlete
            | crate::engine::state::UnitKind::Creep
            | crate::engine::state::UnitKind::Summon
            | crate::engine::state::UnitKind::Automaton
    );
    if !cx.s.unit(unit).on_map() || !creature {
        return;
    }
    if let Some(st) = catchable(cx.s, unit) {
        let name = format!("{} spreads", cx.s.powers.get(st.origin.unwrap()).name);
        crate::rules::statuses::give::give_status(cx, unit, st, &name);
    }
}

/// `unit` has started its turn (after its own Ongoing damage, so a fire caught now bites once).
pub fn turn_started(cx: &mut Ctx, unit: UnitIdx) {
    catch(cx, unit);
}

/// `unit` has entered a square (walking, shifting, forced or teleported).
pub fn entered(cx: &mut Ctx, unit: UnitIdx) {
    catch(cx, unit);
}

/// Bura's Traveling Fire: spreading as a square is entered and as a turn starts.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_square_entered(20, "traveling-fire", |cx, e| {
        entered(cx, e.unit);
        Ok(())
    });
    r.on_turn(crate::engine::hooks::Trigger::StartTerrain, 10, "traveling-fire", turn_started);
}
