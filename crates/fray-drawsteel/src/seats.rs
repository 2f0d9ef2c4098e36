//! What each seat may see (docs/rulings/drawsteel.md, "Seat views"). The one secret Fray's
//! Draw Steel keeps is where a hidden creature is (DS-HIDE-1, DS-HIDE-3, DS-DELTA-8): a
//! creature hidden from every enemy on the battlefield is [`State::unseen_by`] their side.
//!
//! - The referee sees everything: the view and the journal as they are.
//! - A seat sees its own side's creatures and every creature it is not unseen by as they are;
//!   an unseen enemy is listed (the seat knows it hid) with no square and no height, marked
//!   `unseen`. The lines that would place it on a square are dropped from the seat's log:
//!   every move it made while unseen, for good, and while it is unseen, its earlier moves too
//!   (they end where it hid). A map object it knocked over falls with no name attached.
//! - A spectator sees what both seats know: a creature unseen by either side is unseen.
//! - Only the seat that is asked sees a decision's options; the others see whose decision it
//!   is and what kind, with a prompt that names no square.

use crate::events::Event;
use crate::state::{Cx, Side, State};
use fray_core::decision::Decision;
use fray_core::game::Viewer;
use fray_core::view::View;
use serde_json::json;

/// The side a viewer plays, if it plays one.
pub fn side_of(viewer: Viewer) -> Option<Side> {
    match viewer {
        Viewer::Seat(seat) => Some(Side::from_index(seat.index())),
        Viewer::Spectator | Viewer::Referee => None,
    }
}

/// Whether `viewer` may not know where `c` is.
pub fn unseen(s: &State, c: Cx, viewer: Viewer) -> bool {
    match viewer {
        Viewer::Referee => false,
        Viewer::Seat(_) => side_of(viewer).is_some_and(|side| s.unseen_by(c, side)),
        Viewer::Spectator => s.unseen(c),
    }
}

/// The view as `viewer` may see it.
pub fn view(s: &State, viewer: Viewer) -> View {
    let mut v = crate::view::build(s);
    if viewer == Viewer::Referee {
        return v;
    }
    for c in s.all().filter(|&c| unseen(s, c, viewer)) {
        if let Some(u) = v.units.get_mut(&*s.c(c).id) {
            u.at = None;
            u.extra.insert("z".into(), serde_json::Value::Null);
            u.extra.insert("unseen".into(), json!(true));
        }
    }
    if let Some(d) = v.decision.take() {
        v.decision = Some(decision_for(s, d, viewer));
    }
    v
}

/// A decision as `viewer` may see it: whole for the seat asked, else who decides and what kind.
fn decision_for(s: &State, d: Decision, viewer: Viewer) -> Decision {
    if side_of(viewer).is_some_and(|side| side.name() == d.seat) {
        return d;
    }
    let unit = d.unit.filter(|id| s.find(id).is_none_or(|c| !unseen(s, c, viewer)));
    let prompt = format!("the {} decide", d.seat);
    Decision { seat: d.seat, unit, kind: d.kind, prompt, options: Vec::new() }
}

/// A journal entry as `viewer` may read it, or `None` if it must not read it at all.
pub fn redact(s: &State, e: &Event, viewer: Viewer) -> Option<Event> {
    if viewer == Viewer::Referee {
        return Some(e.clone());
    }
    match e {
        Event::Moved { creature, unseen: then, .. } => {
            let hidden = (*then && side_of(viewer) != Some(s.c(creature.idx).side)) || unseen(s, creature.idx, viewer);
            (!hidden).then(|| e.clone())
        }
        Event::ObjectToppled { name, by, unseen: then, .. }
            if (*then && side_of(viewer) != Some(s.c(by.idx).side)) || unseen(s, by.idx, viewer) =>
        {
            Some(Event::Note { text: format!("the {name} is knocked over") })
        }
        _ => Some(e.clone()),
    }
}
