//! What must hold after every choice of every random match (the conformance harness's
//! invariants for Kazzam), shared by the random-play and arena tests so the long sweep checks the
//! same things on every arena and between the rival teams.

use fray_core::geometry::overlaps;
use fray_kazzam::engine::state::{OrbLoc, State};
use fray_kazzam::rules::statuses::StatusKind;

/// The first broken invariant of `s`, if any.
pub fn invariants(s: &State) -> Result<(), String> {
    for (i, a) in s.units.iter().enumerate() {
        // A Motivator's Role Boost may heal its allies past their maximum.
        let motivated = s.units.iter().any(|m| m.side == a.side && m.specialization.as_deref() == Some("motivator"));
        if a.hp > a.max_hp && !motivated {
            return Err(format!("{} has {} HP above its maximum {}", a.id, a.hp, a.max_hp));
        }
        // A Creep Taken Out is gone for good (K-SCO-5): nothing puts it back.
        if a.kind == fray_kazzam::engine::state::UnitKind::Creep && a.taken_out && a.pos.is_some() {
            return Err(format!("{} was Taken Out and is on the map again at {:?}", a.id, a.pos));
        }
        if a.max_hp < 1 {
            return Err(format!("{} has maximum HP {} below 1 (K-DUN-5)", a.id, a.max_hp));
        }
        // Ugnatio's Preservation Charm keeps a creature up at 0 HP or less for a while.
        if a.on_map()
            && a.hp < 1
            && !fray_kazzam::classes::charmer::undying(s, i as fray_kazzam::engine::state::UnitIdx)
        {
            return Err(format!("{} is on the map at {} HP", a.id, a.hp));
        }
        for b in &s.units[i + 1..] {
            if let (Some(pa), Some(pb)) = (a.pos, b.pos) {
                let flying_a = a.statuses.iter().any(|x| x.kind == StatusKind::Flying);
                let flying_b = b.statuses.iter().any(|x| x.kind == StatusKind::Flying);
                // A move paused by an Interrupt may be passing through an ally's square.
                let moving = s.flow.iter().any(|f| {
                    matches!(f, fray_kazzam::engine::flow::Frame::Move(m) if m.unit as usize == i || s.units[m.unit as usize].id == b.id)
                });
                let both_occupy = fray_kazzam::rules::summons::occupies(a) && fray_kazzam::rules::summons::occupies(b);
                // A Vortex Warp's centre may hold several of its Porter's enemies (an enlarged
                // one covering it among them).
                let vortex = fray_core::grid::footprint(pa, a.size)
                    .filter(|&q| overlaps(q, 1, pb, b.size))
                    .all(|q| fray_kazzam::classes::porter::shared_square_allowed(s, q, flying_a));
                // A Mob shares squares with anyone (K-CTYPE-8).
                let mob = fray_kazzam::rules::opportunity::is_mob(s, i as fray_kazzam::engine::state::UnitIdx)
                    || s.find_unit(&b.id).is_some_and(|j| fray_kazzam::rules::opportunity::is_mob(s, j));
                if overlaps(pa, a.size, pb, b.size) && flying_a == flying_b && both_occupy && !moving && !vortex && !mob
                {
                    return Err(format!(
                        "{} and {} share a square at {pa} (sides {:?}/{:?}, kinds {:?}/{:?}, statuses {:?} / {:?})",
                        a.id,
                        b.id,
                        a.side,
                        b.side,
                        a.kind,
                        b.kind,
                        a.statuses.iter().map(|x| x.kind).collect::<Vec<_>>(),
                        b.statuses.iter().map(|x| x.kind).collect::<Vec<_>>()
                    ));
                }
            }
        }
        // The Pest: a riding Pest shares its host's square, and its host is on the map.
        if fray_kazzam::classes::tinker::pest::riding(a) {
            let h = s.unit(fray_kazzam::classes::tinker::pest::host(a).unwrap());
            if !h.on_map() || h.pos != a.pos {
                return Err(format!("{} rides {}, who is at {:?}, from {:?}", a.id, h.id, h.pos, a.pos));
            }
            let riders = s.units.iter().filter(|o| {
                fray_kazzam::classes::tinker::pest::riding(o)
                    && fray_kazzam::classes::tinker::pest::host(o) == fray_kazzam::classes::tinker::pest::host(a)
            });
            if riders.count() > 1 {
                return Err(format!("{} carries more than one Pest", h.id));
            }
            continue; // its square is its host's
        }
        // K-ST-Phasing: a Phasing creature may stop inside a wall while it can still walk out.
        if let Some(p) = a.pos
            && !s.arena.at(p).enterable()
            && !s.flow.iter().any(|f| matches!(f, fray_kazzam::engine::flow::Frame::Move(m) if m.unit as usize == i))
            && !a.statuses.iter().any(|x| x.kind == StatusKind::Phasing)
        {
            return Err(format!("{} stands in {:?} terrain at {p}", a.id, s.arena.at(p)));
        }
    }
    for o in &s.orbs {
        if let OrbLoc::Held { by } = o.loc
            && !s.unit(by).on_map()
        {
            return Err(format!("orb {} is held by {}, who is off the map (K-ORB-10)", o.id, s.unit(by).id));
        }
    }
    // Removal from Existence: a removed creature has no square on the map and is not Taken Out;
    // the square it will come back to is ground it could stand on.
    for (i, r) in s.removal.removed.iter().enumerate() {
        let u = s.unit(r.unit);
        if u.pos.is_some() {
            return Err(format!("{} is removed from existence yet on the map at {:?}", u.id, u.pos));
        }
        if u.taken_out || s.removal.removed[..i].iter().any(|o| o.unit == r.unit) {
            return Err(format!("{} is removed from existence yet Taken Out, or removed twice", u.id));
        }
        if !fray_core::grid::footprint(r.at, u.size).all(|q| s.arena.at(q).enterable()) {
            return Err(format!("{} would come back at {}, where it cannot stand", u.id, r.at));
        }
    }
    for u in s.unit_indices() {
        if s.held_orbs(u).count() > 2 {
            return Err(format!("{} carries more than two orbs (K-ORB-6)", s.unit(u).id));
        }
    }
    Ok(())
}
