//! Notes for a person at the prompt ([`fray_core::game::Game::notes`]): what an option of the
//! pending decision costs that its label does not say. A move's square names who gets an
//! Opportunity on the way (K-OPP-1, K-OPP-6, K-OPP-7); an action that ends the turn says so
//! (K-ACT-5). Read from the state only; never journaled.

use crate::engine::frames::Frame;
use crate::engine::frames::rules::{How, Mode, Pending};
use crate::engine::state::{Implement, State, UnitIdx};
use crate::rules::opportunity;
use fray_core::grid::Pos;

/// One note per option of the pending decision, in its order (empty where there is none).
pub fn notes(s: &State) -> Vec<String> {
    crate::engine::kit::quietly(|| crate::rules::cover::remembering(|| build(s)))
}

fn build(s: &State) -> Vec<String> {
    let Some(d) = crate::engine::flow::decision(s) else { return Vec::new() };
    let note = |f: &dyn Fn(&str, Option<Pos>) -> String| d.options.iter().map(|o| f(&o.id, o.square)).collect();
    match s.flow.last() {
        Some(Frame::Act { unit } | Frame::FinalAction { unit, .. }) => {
            let u = *unit;
            note(&|id, _| action_note(s, u, id))
        }
        Some(Frame::Pending { unit, pending }) => {
            let u = *unit;
            let walk = |mode: Mode, how: How| {
                move |_: &str, q: Option<Pos>| {
                    q.and_then(|q| crate::rules::movement::route_to(s, u, q, mode))
                        .map(|path| granted(s, u, &path, how))
                        .unwrap_or_default()
                }
            };
            match pending {
                Pending::Move(mode) => {
                    let how = if *mode == Mode::Crawl { How::Crawl } else { How::Walk };
                    note(&walk(*mode, how))
                }
                Pending::ChargeSquare(_, t) => note(&walk(Mode::Charge(*t), How::Charge)),
                Pending::Shift => note(&|_, q| q.map(|q| granted(s, u, &[q], How::Shift)).unwrap_or_default()),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// Who is granted an Opportunity along `path` (the squares after the unit's own), as a note.
fn granted(s: &State, u: UnitIdx, path: &[Pos], how: How) -> String {
    let Some(mut from) = s.unit(u).pos else { return String::new() };
    let mut takers: Vec<UnitIdx> = Vec::new();
    for &to in path {
        let more = opportunity::for_leaving(s, u, from, to, how, &takers);
        takers.extend(more);
        from = to;
    }
    if takers.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = takers.iter().map(|&t| &*s.unit(t).id).collect();
    if names.len() == 1 {
        format!("grants an Opportunity to {}", names[0])
    } else {
        format!("grants Opportunities to {}", names.join(", "))
    }
}

/// An action menu option: the end of the turn, or the Opportunities leaving this square grants.
fn action_note(s: &State, u: UnitIdx, id: &str) -> String {
    if id == "end-turn" {
        return "ends the turn".into();
    }
    if id == "move" {
        // K-OPP-1: walking away from an enemy next to it grants that enemy an Opportunity.
        let next: Vec<&str> = s
            .units_on_map()
            .filter(|&t| s.distance(u, t) == Some(1) && opportunity::may_take(s, t, u))
            .map(|t| &*s.unit(t).id)
            .collect();
        if !next.is_empty() {
            return format!("walking away grants an Opportunity to {}", next.join(", "));
        }
        return String::new();
    }
    // K-ACT-5, K-IMP-6, K-IMP-8: a staff or sword implement attack ends the turn.
    let power = id.strip_prefix("power:").and_then(|p| s.powers.find(p)).map(|p| s.powers.get(p));
    let un = s.unit(u);
    if power.is_some_and(|def| def.uses_implement())
        && matches!(un.implement, Implement::Staff | Implement::Sword)
        && !un.actions.keep_turn
    {
        return format!("a {} implement attack ends the turn", un.implement.name());
    }
    String::new()
}
