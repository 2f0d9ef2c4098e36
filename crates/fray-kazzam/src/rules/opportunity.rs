//! Opportunities (K-OPP): who grants them, who may take them, and what taking one does.
//! An Opportunity is an Interrupt (K-OPP-3): callers take them before the triggering square
//! is left or the triggering attack is rolled.

use crate::engine::events::{Event, How};
use crate::engine::kit::Ctx;
use crate::engine::state::{Implement, State, UnitIdx, UnitKind};
use crate::rules::damage::{self, FromAttack};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::Pos;

/// Whether `taker` may take an Opportunity `granter` grants (K-OPP-4, K-OPP-10, K-OPP-11,
/// K-CONC-2, K-ST-Dominated).
pub fn may_take(s: &State, taker: UnitIdx, granter: UnitIdx) -> bool {
    may_take_at(s, taker, granter, None)
}

/// [`may_take`], with the granter taken as standing `at` that square (an attack from its Source
/// Warp, `warp_origin`) for the range.
pub fn may_take_at(s: &State, taker: UnitIdx, granter: UnitIdx, at: Option<Pos>) -> bool {
    let (t, g) = (s.unit(taker), s.unit(granter));
    t.on_map()
        && g.on_map()
        && if crate::rules::modifiers::confused(s, taker) {
            taker != granter && !s.enemies(taker, granter) // Lesser Confusion
        } else {
            s.enemies(taker, granter)
        }
        && s.can_take_opportunities(taker)
        && crate::rules::query::takes_opportunities(t)
        && !(t.stowed && t.kind == UnitKind::Athlete) // a stowed implement allows no attacks (K-IMP-10)
        && !s.hidden_from(granter, taker) // K-CONC-2: Hidden creatures grant none to those they hide from
        && !s.has(granter, StatusKind::Dominated) // Dominated creatures grant none
        && !g.wand_hits.contains(&taker) // K-OPP-11
        && in_range(s, taker, granter, at) // K-OPP-4, Defender's Sword
        && !crate::rules::query::consumed(s, taker, granter) // Consuming Focus
        && !is_mob(s, taker)
        && !is_mob(s, granter) // K-CTYPE-8: a Mob neither takes nor grants Opportunities
        && crate::rules::query::counts_as_enemy(s, taker, granter) // a Creep: its list only (rulings)
}

/// Whether `u` is a Mob Creep (K-CTYPE-8).
pub fn is_mob(s: &State, u: UnitIdx) -> bool {
    s.creep_def(u).is_some_and(|d| d.mob)
}

/// Squares besides its own from which `u` takes Opportunities: a Tamer's Fleeting Mantises'
/// (L1705) and a Porter's Source Warps' (`warp_origin`).
fn vantages(s: &State, u: UnitIdx) -> Vec<Pos> {
    let mut out = crate::rules::beasts::vantages(s, u);
    out.extend(crate::rules::query::warp_vantages(s, u));
    out
}

/// Whether `granter` (taken as standing `at` that square, if given) is within `taker`'s
/// Opportunity range (K-OPP-4), from its square or one of its [`vantages`].
fn in_range(s: &State, taker: UnitIdx, granter: UnitIdx, at: Option<Pos>) -> bool {
    let range = crate::rules::query::opportunity_range(s, taker)
        .max(1)
        .max(crate::rules::beasts::creature_opportunity_range(s, taker))
        + crate::rules::query::opportunity_reach_bonus(s, taker);
    let g = s.unit(granter);
    let gsize = if at.is_some() { 1 } else { g.size };
    let (tu, gpos) = (s.unit(taker), at.or(g.pos));
    tu.pos.zip(gpos).is_some_and(|(tp, gp)| distance(tp, tu.size, gp, gsize) <= range)
        || gpos.is_some_and(|gp| vantages(s, taker).iter().any(|&v| distance(v, 1, gp, gsize) <= range))
}

/// Whether `a` and `b` were both mesmerised in the Creep phase under way (the Mesmer Jelly).
fn mesmerized_together(s: &State, a: UnitIdx, b: UnitIdx) -> bool {
    let m = &s.creeps.mesmerized;
    !m.is_empty()
        && s.creeps.acted_round == s.round
        && [a, b].iter().all(|u| m.iter().any(|&(x, r)| x == *u && r == s.round))
}

/// Who gets an Opportunity when `mover` leaves `from` for `to` (K-OPP-1, K-OPP-5..7,
/// K-OPP-9). `already` took one during this same move.
pub fn for_leaving(s: &State, mover: UnitIdx, from: Pos, to: Pos, how: How, already: &[UnitIdx]) -> Vec<UnitIdx> {
    let walking = matches!(how, How::Walk | How::Crawl | How::Charge);
    let shifting = how == How::Shift;
    if !(walking || shifting) || s.has(mover, StatusKind::Nimble) {
        return Vec::new(); // K-OPP-5: Nimble movement, forced movement and teleports grant none
    }
    if how == How::Charge && s.creep_def(mover).is_some_and(|d| d.heedless) {
        return Vec::new(); // Heedless Rush (the Minotaur, L2595)
    }
    let size = s.unit(mover).size;
    let flying = s.has(mover, StatusKind::Flying);
    // Squares besides their own count only with Fleeting Mantises or Source Warps about.
    let any_vantages =
        !s.porter.warps.is_empty() || crate::rules::query::conjured(s, "fleeting-mantis").next().is_some();
    let mut out = Vec::new();
    // The squares' test first, `may_take` only for those it passes (both must hold).
    for t in s.units_on_map() {
        let tu = s.unit(t);
        if walking && !any_vantages {
            // Closing in from beyond its side grants nothing (K-OPP-1, K-OPP-7): the common
            // case, answered before anything else is asked.
            let (tp, tsize) = (tu.pos.unwrap(), tu.size);
            let before = distance(from, size, tp, tsize);
            if before != 1 && distance(to, size, tp, tsize) < before {
                continue;
            }
        }
        if already.contains(&t) || s.has(t, StatusKind::Flying) != flying {
            continue; // K-OPP-9: flyers and walkers grant each other no movement Opportunities
        }
        if mesmerized_together(s, mover, t) {
            continue; // Mesmerize (L2546): none of them takes the others' Opportunities
        }
        // Defender's Sword: its reach counts 1 greater for Opportunities (K-AIMP); asked only
        // when the squares leave it to decide.
        let reach = std::cell::OnceCell::new();
        let reach = || *reach.get_or_init(|| s.reach(t) + crate::rules::query::opportunity_reach_bonus(s, t));
        // Its own square, a Tamer's Fleeting Mantises' squares (L1705), a Porter's Source Warps'.
        let grants_at = |(tp, tsize): (Pos, i32)| {
            let before = distance(from, size, tp, tsize);
            let after = distance(to, size, tp, tsize);
            grants_from(s, mover, t, walking, before, after, reach)
        };
        let grants = grants_at((tu.pos.unwrap(), tu.size))
            || any_vantages && vantages(s, t).into_iter().any(|v| grants_at((v, 1)));
        if grants && may_take(s, t, mover) {
            out.push(t);
        }
    }
    out
}

/// Whether leaving a square `before` away from `t` for one `after` away grants it an
/// Opportunity (K-OPP-1, K-OPP-6, K-OPP-7); `reach` is asked only if needed.
fn grants_from(
    s: &State,
    mover: UnitIdx,
    t: UnitIdx,
    walking: bool,
    before: i32,
    after: i32,
    reach: impl Fn() -> i32,
) -> bool {
    let tu = s.unit(t);
    if walking {
        // K-OPP-1: leaving a square next to it; K-OPP-7: leaving its reach without closing in.
        before == 1 || (after >= before && before <= reach())
    } else {
        // K-OPP-6: shifting out of a melee marker's reach grants it one unless the shift closes in.
        after >= before
            && (tu.implement == Implement::Sword || tu.implement == Implement::None)
            && s.status_from(mover, StatusKind::Marked, t).is_some()
            && before <= reach()
    }
}

/// Opportunity damage `taker` deals to `target`: 2, +1 for a sword unless the target also
/// has one (K-OPP-3, K-OPP-4, K-IMP-7).
pub fn damage_of(s: &State, taker: UnitIdx, target: UnitIdx) -> i32 {
    // K-CTYPE-5, K-OPP-12: a Stooge's Opportunity deals 1 (Scabs read alike).
    if s.creep_def(taker).is_some_and(|d| {
        matches!(d.kind, crate::content::creeps::CreepType::Stooge | crate::content::creeps::CreepType::Scab)
    }) {
        return 1;
    }
    let mut d = 2;
    // The sword's +1: not against a sword or a Parrying Wand (a Duelling Sword is no help here).
    let parried =
        crate::rules::query::has_advanced(s, target, crate::engine::records::advanced::Advanced::ParryingWand);
    if s.unit(taker).implement == Implement::Sword && s.unit(target).implement != Implement::Sword && !parried {
        d += 1;
    }
    // Defender's Sword: an Opportunity only its extra square of reach allows deals 1 less.
    let beyond = s.distance(taker, target).is_some_and(|dist| dist > s.reach(taker))
        && !crate::rules::query::warp_vantages(s, taker)
            .iter()
            .any(|&v| crate::rules::query::warp_distance(s, v, target).is_some_and(|dist| dist <= s.reach(taker)));
    if beyond && crate::rules::query::opportunity_reach_bonus(s, taker) > 0 {
        d -= 1;
    }
    // The Huntress: 1 more on a Bloodied enemy.
    let prey = s.creep_def(taker).is_some_and(|c| c.hunts_bloodied) && s.is_bloodied(target);
    d + i32::from(prey)
        + crate::rules::modifiers::opportunity_bonus(s, taker, target)
        + crate::rules::query::opportunity_bonus(s, taker)
}

/// `taker` takes an Opportunity on `target` (a Runner first rolls its save, queued).
pub fn take(cx: &mut Ctx, taker: UnitIdx, target: UnitIdx, why: &str) {
    cx.emit(Event::Opportunity { by: cx.s.who(taker), against: cx.s.who(target), why: why.into() });
    if (crate::engine::hooks::specialists(cx.s).dodge)(cx, taker, target, why) {
        return;
    }
    strike(cx, taker, target);
}

/// What an Opportunity `taker` takes on `target` does.
pub fn strike(cx: &mut Ctx, taker: UnitIdx, target: UnitIdx) {
    if (crate::engine::hooks::taming(cx.s).opportunity)(cx, taker, target) {
        return; // the Spitting Tree's and the Giraffape's own Opportunities
    }
    let amount = damage_of(cx.s, taker, target);
    damage::deal(
        cx,
        target,
        amount,
        Some(taker),
        "Opportunity",
        Some(FromAttack {
            attack_or_opportunity: true,
            pierce: false,
            melee: matches!(cx.s.unit(taker).implement, Implement::Sword | Implement::None),
        }),
    );
}

/// Opportunities an attack grants before it is rolled (K-OPP-2, K-OPP-6, K-OPP-8): a staff
/// implement attack or an attack made while Prone grants one to each adjacent enemy; an attack
/// roll that leaves out the attacker's marker grants the marker one. An attack made `from` a
/// Source Warp is judged as though the attacker stood there (`warp_origin`).
pub fn for_attack(
    s: &State,
    attacker: UnitIdx,
    implement_attack: bool,
    rolls: bool,
    targets: &[UnitIdx],
    from: Option<Pos>,
) -> Vec<(UnitIdx, &'static str)> {
    let mut out = Vec::new();
    // A Nimble Staff's implement attacks grant none (K-AIMP).
    let staff = implement_attack
        && s.unit(attacker).implement == Implement::Staff
        && !crate::rules::query::has_advanced(s, attacker, crate::engine::records::advanced::Advanced::NimbleStaff);
    let prone = s.has(attacker, StatusKind::Prone);
    // K-ST-Panicked: the compelled attack grants its target (the source) no Opportunity.
    let spared = match s.unit(attacker).compulsion {
        Some(crate::engine::records::control::Compulsion::Attack { source, panic: true, .. }) => Some(source),
        _ => None,
    };
    for t in s.units_on_map() {
        if spared == Some(t) {
            continue;
        }
        let au = s.unit(attacker);
        // Adjacency matters only to a staff attack or a Prone attacker: asked only then.
        let adjacent = (staff || prone)
            && match from {
                Some(at) => crate::rules::query::warp_distance(s, at, t) == Some(1), // the warp's square
                None => {
                    s.distance(t, attacker) == Some(1)
                        || au.pos.is_some_and(|ap| vantages(s, t).iter().any(|&v| distance(v, 1, ap, au.size) == 1))
                }
            };
        let why = if adjacent && staff {
            "a staff implement attack beside it"
        } else if adjacent && prone {
            "attacking while Prone"
        } else if rolls && !targets.contains(&t) && s.status_from(attacker, StatusKind::Marked, t).is_some() {
            "attacking without including its marker"
        } else {
            continue;
        };
        // Whether it may take one at all: asked last, of those the attack would grant one.
        if may_take_at(s, t, attacker, from) {
            out.push((t, why));
        }
    }
    out
}
