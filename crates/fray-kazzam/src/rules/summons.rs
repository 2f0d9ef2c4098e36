//! Things that appear on the map mid-match: summoned and conjured creatures, traps, automata
//! and walls with hit points (K-DEF-2, K-DEF-5, K-INIT-5, K-STK-4). Each is a [`Unit`] whose
//! `placed` field says who owns it and what it is. A new one enters [`State::units`] only
//! through [`Event::Spawned`] and leaves the map for good through [`Event::Vanished`]; unit
//! indices never change, so a gone one stays in the list off the map. Automata take a turn just
//! before their owner's; everything else acts through its owner's powers. Played so far: the
//! Tinker's Staff, Wand, Sword, Distraction and Anti-Charm Traps (Trap Roll; start-of-turn and entry
//! triggers), Reset Traps, Zapper and Tinker's Helper; the Specialist's Disarm Traps, Snap Trap and Wall; the
//! Wardmaster's Ward Wall.

pub use crate::content::hooks::SUMMONS_POWER as HOOKS;
pub use crate::engine::appliers::insert_before;
use crate::engine::events::{Event, How, Who};
pub use crate::engine::frames::rules::PlacedFrame;
use crate::engine::kit::Rolls;
use crate::engine::kit::{Ctx, Flow, Frame};
pub use crate::engine::records::summons::Placed;
pub use crate::engine::records::summons::Rider;
pub use crate::engine::records::summons::{Spawn, TrapState};
use crate::engine::state::{State, UnitIdx, UnitKind};
pub use crate::rules::query::holds_orbs;
pub use crate::rules::query::occupies;
pub use crate::rules::query::shielded;
pub use crate::rules::query::{wall_at, wall_squares};
use crate::rules::statuses::StatusKind;
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use std::sync::Arc;

impl Rider {
    const ALL: [Rider; 5] = [Rider::Slowed, Rider::Weakened, Rider::Distracted, Rider::Pull, Rider::Push];
    fn id(self) -> &'static str {
        match self {
            Rider::Slowed => "slowed",
            Rider::Weakened => "weakened",
            Rider::Distracted => "distracted",
            Rider::Pull => "pull",
            Rider::Push => "push",
        }
    }
}

pub use crate::rules::query::{blocks_all, immune, movable, rolls_five, takes_actions, takes_opportunities};

/// Squares in the Specialist's Wall (L2205).
const CHAIN_LENGTH: u8 = 8;

/// Targets powers may not take: a conjured creature cannot be attacked or targeted (K-DEF-5),
/// and nothing can swap places with what cannot be moved.
pub fn check_target(s: &State, def: &crate::content::powers::PowerDef, t: UnitIdx) -> Result<(), RuleError> {
    let u = s.unit(t);
    if u.kind == UnitKind::Conjured {
        return Err(crate::engine::kit::refuse("K-DEF-5", format_args!("{} is conjured: it cannot be targeted", u.id)));
    }
    // K-DEF-2: a trap (or wall) is nobody's ally.
    if matches!(def.target, crate::content::powers::Targeting::Ally { .. })
        && matches!(u.kind, UnitKind::Trap | UnitKind::Wall)
    {
        return Err(crate::engine::kit::refuse("K-DEF-2", format_args!("{} is nobody's ally", u.id)));
    }
    if def.hook.as_deref() == Some("swap-places") && !movable(u) {
        return Err(crate::engine::kit::refuse("K-DEF-2", format_args!("{} cannot be moved", u.id)));
    }
    Ok(())
}

/// Emits the [`Event::TrapChanged`] for `trap` after `f` changes its state.
pub(crate) fn set_trap(cx: &mut Ctx, trap: UnitIdx, f: impl FnOnce(&mut TrapState)) {
    let Some(p) = cx.s.unit(trap).placed.as_ref() else { return };
    let mut st = TrapState {
        charges: p.charges,
        free: p.free,
        fired: p.fired,
        bonus: p.bonus,
        resisted: p.resisted,
        loaded: p.loaded,
        rider: p.rider,
    };
    f(&mut st);
    cx.emit(Event::TrapChanged { unit: cx.s.who(trap), state: st });
}

/// The damage a trap deals on a trigger: its base (or its stat block's number) plus any extra.
fn trap_damage(s: &State, trap: UnitIdx, base: i32) -> i32 {
    numbers(s, trap).damage.unwrap_or(base) + bonus(s, trap)
}

/// A trap's own numbers: those of the rival's version of its power that its owner plays (§5,
/// `variant_of`), else none (the class power's numbers hold).
fn numbers(s: &State, trap: UnitIdx) -> crate::content::powers::TrapNumbers {
    let Some(p) = s.unit(trap).placed.as_ref() else { return Default::default() };
    let Some(owner) = p.owner else { return Default::default() };
    s.unit(owner)
        .powers
        .iter()
        .map(|&i| s.powers.get(i))
        .find(|d| d.variant_of.as_deref() == Some(&*p.what))
        .and_then(|d| d.trap.clone())
        .unwrap_or_default()
}

/// Whether a trap is one of a Tinker's (its owner's Improved Traps apply; not Snap Trap).
fn tinker_trap(s: &State, trap: UnitIdx, f: crate::engine::records::features::Feature) -> bool {
    let u = s.unit(trap);
    u.kind == UnitKind::Trap
        && u.placed.as_ref().is_some_and(|p| {
            !matches!(&*p.what, "snap-trap" | crate::rules::query::TRAPPER_TRAP)
                && p.owner.is_some_and(|o| s.has_feature(o, f))
        })
}

/// A trap's extra damage: Tinker's Helper's, and 1 for Improved Traps: +1 Damage (L1306).
fn bonus(s: &State, trap: UnitIdx) -> i32 {
    let helper = s.unit(trap).placed.as_ref().map_or(0, |p| p.bonus);
    helper + i32::from(tinker_trap(s, trap, crate::engine::records::features::Feature::ImprovedTrapsDamage))
}

/// Improved Traps: Resist All Once (L1307): the first damage that would reach one of the
/// Tinker's traps is ignored; returns what is left of `total`.
pub fn resist_once(cx: &mut Ctx, trap: UnitIdx, total: i32) -> i32 {
    let unused = cx.s.unit(trap).placed.as_ref().is_some_and(|p| !p.resisted);
    if total <= 0 || !unused || !tinker_trap(cx.s, trap, crate::engine::records::features::Feature::ImprovedTrapsResist)
    {
        return total;
    }
    cx.emit(Event::Note { text: format!("{} shrugs the damage off: its Resist All is used", cx.s.unit(trap).id) });
    set_trap(cx, trap, |t| t.resisted = true);
    0
}

/// Redirecting (L1392): an enemy missed `tinker`: one of its traps on the map gains a charge
/// (its choice when there are several), or the next trap it sets does.
pub fn redirect(cx: &mut Ctx, tinker: UnitIdx) {
    let traps = own_traps(cx.s, tinker);
    match traps.as_slice() {
        [] => {
            let f = crate::engine::records::features::Feature::Redirecting;
            let n = cx.s.counter(tinker, f).0 + 1;
            crate::rules::counters::set_counter(cx, tinker, f, n, None);
        }
        [t] => {
            let t = *t;
            cx.emit(Event::Note { text: format!("Redirecting: {} gains a charge", cx.s.unit(t).id) });
            set_trap(cx, t, |st| st.charges += 1);
        }
        _ => cx.push(Frame::Placed(PlacedFrame::Redirect { owner: tinker })),
    }
}

/// The Tinker's traps on the map.
fn own_traps(s: &State, owner: UnitIdx) -> Vec<UnitIdx> {
    owned(s, owner).filter(|&t| s.unit(t).kind == UnitKind::Trap).collect()
}

/// A fresh id for something `owner` puts on the map: `<owner>-<what>`, numbered if taken.
fn fresh_id(s: &State, owner: UnitIdx, what: &str) -> Arc<str> {
    let base = format!("{}-{what}", s.unit(owner).id);
    let mut id = base.clone();
    let mut n = 2;
    while s.find_unit(&id).is_some() {
        id = format!("{base}-{n}");
        n += 1;
    }
    id.into()
}

/// Emits the [`Event::Spawned`] that puts a new unit on the map; returns its index.
pub fn spawn(cx: &mut Ctx, mut sp: Spawn) -> UnitIdx {
    // Units are never removed: a match holds at most UnitIdx::MAX + 1 of them, ever.
    let idx = UnitIdx::try_from(cx.s.units.len()).expect("more units than a UnitIdx counts");
    let owner = sp.owner.as_ref().map(|o| o.idx);
    let id = owner.map_or_else(|| sp.what.as_str().into(), |o| fresh_id(cx.s, o, &sp.what));
    if sp.kind != UnitKind::Automaton {
        sp.turn_before = None;
    }
    cx.emit(Event::Spawned { unit: Who { idx, id }, spawn: Box::new(sp) });
    idx
}

/// A placed unit reaches 0 HP (instead of the athlete's Take Out): it leaves the map for good,
/// scores nothing (K-CREAT-4, K-SCO-2), ends what it maintains, and a summoned creature's
/// owner takes a Strike (K-STK-4).
pub fn destroyed(cx: &mut Ctx, unit: UnitIdx, by: Option<UnitIdx>) {
    // K-ORB-10: an orb it was made to hold stays behind in its square.
    if let Some(at) = cx.s.unit(unit).pos {
        for o in cx.s.held_orbs(unit).collect::<Vec<_>>() {
            crate::rules::orbs::drop(cx, unit, o, at);
        }
    }
    cx.emit(Event::Vanished { unit: cx.s.who(unit), why: "is destroyed".into() });
    // Anti-Charm Trap: an enemy that destroys it is stripped as if it had come near (L1336).
    if what(cx.s, unit) == "anti-charm-trap"
        && let Some(b) = by.filter(|&b| cx.s.enemies(unit, b) && cx.s.unit(b).on_map())
    {
        let owner = cx.s.unit(unit).placed.as_ref().and_then(|p| p.owner);
        let extra = bonus(cx.s, unit);
        strip_charms(cx, b, owner, extra);
    }
    for st in cx.s.unit(unit).statuses.clone() {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "destroyed".into() });
    }
    crate::rules::damage::release_maintained(cx, unit, "its source was destroyed");
    crate::engine::hooks::unit_gone(cx, unit); // a Pest riding it lets go
    let u = cx.s.unit(unit);
    if u.kind == UnitKind::Summon
        && let Some(o) = u.placed.as_ref().and_then(|p| p.owner)
    {
        let total = cx.s.unit(o).strikes + 1;
        let why = format!("summoned creature {} was Taken Out", u.id);
        cx.emit(Event::Strike { unit: cx.s.who(o), total, why });
    }
}

/// Things owned by `owner` on the map.
fn owned(s: &State, owner: UnitIdx) -> impl Iterator<Item = UnitIdx> + '_ {
    s.units_on_map().filter(move |&u| s.unit(u).placed.as_ref().is_some_and(|p| p.owner == Some(owner)))
}

fn what(s: &State, u: UnitIdx) -> &str {
    s.unit(u).placed.as_ref().map_or("", |p| &p.what)
}

/// The start of `owner`'s turn: its traps that trigger then do so (Staff Trap, L1316).
pub fn start_of_turn(cx: &mut Ctx, owner: UnitIdx) -> Result<(), RuleError> {
    for trap in owned(cx.s, owner).collect::<Vec<_>>() {
        if cx.s.unit(trap).placed.as_ref().is_some_and(|p| p.free) {
            set_trap(cx, trap, |t| t.free = false);
        }
        if what(cx.s, trap) == "sword-trap" && cx.s.unit(trap).on_map() {
            sword_trap(cx, owner, trap)?;
            continue;
        }
        if what(cx.s, trap) != "staff-trap" || !cx.s.unit(trap).on_map() {
            continue;
        }
        // Every enemy within 4 of the trap but not next to it takes 2 damage (Raqua Yalaaya's:
        // every enemy within 3, next to it too, takes 3; L2769).
        let n = numbers(cx.s, trap);
        let near = if n.next_to_it { 1 } else { 2 };
        let far = n.within.unwrap_or(4);
        let victims: Vec<UnitIdx> =
            cx.s.units_on_map()
                .filter(|&t| cx.s.enemies(trap, t) && occupies(cx.s.unit(t)))
                .filter(|&t| cx.s.distance(trap, t).is_some_and(|d| (near..=far).contains(&d)))
                .collect();
        if victims.is_empty() {
            continue;
        }
        cx.emit(Event::Note { text: format!("{}'s Staff Trap springs", cx.s.unit(owner).id) });
        for t in victims {
            if (crate::engine::hooks::specialists(cx.s).evades_trap)(cx, t, "the Staff Trap")? {
                continue;
            }
            // The owner gets the credit for a Take Out (see rulings).
            let amount = trap_damage(cx.s, trap, 2);
            crate::rules::damage::deal(cx, t, amount, Some(owner), "Staff Trap", None);
            ride(cx, trap, t);
            crate::engine::hooks::trap_sprung(cx, trap, t, false); // a loaded Role Boost
        }
        spend_charge(cx, trap);
    }
    Ok(())
}

/// Records a trigger: a charge spent (unless free), and the turn it happened in.
/// Sword Trap (L1320): it runs along a row, column or diagonal to the nearest enemy it can reach
/// that way, stops in the square before it and deals it 2 damage.
fn sword_trap(cx: &mut Ctx, owner: UnitIdx, trap: UnitIdx) -> Result<(), RuleError> {
    let from = cx.s.unit(trap).pos.unwrap();
    let mut best: Option<(i32, Pos, UnitIdx)> = None;
    for (dx, dy) in [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)] {
        let mut q = from;
        for n in 1.. {
            let next = q.offset(dx, dy);
            if !cx.s.arena.terrain.contains(next) || !cx.s.arena.at(next).enterable() || wall_at(cx.s, next) {
                break;
            }
            if let Some(v) = cx.s.unit_at(next) {
                if cx.s.enemies(trap, v) && best.is_none_or(|(d, ..)| n < d) {
                    best = Some((n, q, v));
                }
                break;
            }
            q = next;
        }
    }
    let Some((_, stop, victim)) = best else { return Ok(()) };
    cx.emit(Event::Note { text: format!("{}'s Sword Trap darts at {}", cx.s.unit(owner).id, cx.s.unit(victim).id) });
    if stop != from {
        cx.emit(Event::Moved { unit: cx.s.who(trap), from, to: stop, how: How::Slide });
    }
    if !(crate::engine::hooks::specialists(cx.s).evades_trap)(cx, victim, "the Sword Trap")? {
        let amount = trap_damage(cx.s, trap, 2);
        crate::rules::damage::deal(cx, victim, amount, Some(owner), "Sword Trap", None);
        ride(cx, trap, victim);
        crate::engine::hooks::trap_sprung(cx, trap, victim, false); // a loaded Role Boost
    }
    spend_charge(cx, trap);
    Ok(())
}

fn spend_charge(cx: &mut Ctx, trap: UnitIdx) {
    let Some(p) = cx.s.unit(trap).placed.clone() else { return };
    let left = if p.free { p.charges } else { p.charges - 1 };
    let fired = cx.s.current().map(|c| (cx.s.round, c));
    let free = p.free || &*p.what == "wand-trap";
    set_trap(cx, trap, |t| {
        t.charges = left;
        t.free = free;
        t.fired = fired;
    });
    if left <= 0 {
        cx.emit(Event::Vanished { unit: cx.s.who(trap), why: "has no charges left".into() });
    }
}

/// The end of `unit`'s turn: its conjured creatures whose time is up go.
pub fn end_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    let turn = cx.s.unit(unit).turns_started;
    let gone: Vec<UnitIdx> = owned(cx.s, unit)
        .filter(|&u| cx.s.unit(u).placed.as_ref().and_then(|p| p.until_turn).is_some_and(|t| t <= turn))
        .collect();
    for u in gone {
        cx.emit(Event::Vanished { unit: cx.s.who(u), why: "fades away".into() });
    }
}

/// Free squares within `range` of `u` where a 1x1 thing may be put.
fn free_squares(s: &State, u: UnitIdx, range: i32, for_trap: bool) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| {
            let d = distance(p, size, q, 1);
            d >= 1 && d <= range && s.arena.at(q).enterable() && s.arena.at(q) != crate::engine::arena::Terrain::Portal
        })
        .filter(|&q| {
            s.units_on_map().all(|o| {
                let ou = s.unit(o);
                let blocks = if for_trap { ou.kind == UnitKind::Trap } else { occupies(ou) };
                !blocks || distance(ou.pos.unwrap(), ou.size, q, 1) > 0
            })
        })
        .collect()
}

/// Where `u` may set the trap of power `what`: within reach on a square no other trap holds
/// (L1281), or Snap Trap's empty square within 5 (L2079).
fn trap_squares(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Vec<Pos> {
    if def.id == "snap-trap" {
        let mut out = free_squares(s, u, 5, false);
        out.retain(|&q| s.units_on_map().all(|o| distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) > 0));
        out
    } else if def.trap.as_ref().is_some_and(|n| n.adjacent) {
        free_squares(s, u, 1, true) // set next to its user (Raqua Yalaaya's Staff Trap, L2769)
    } else {
        free_squares(s, u, s.reach(u), true)
    }
}

/// A creature moved from `from` into `to` (walking, shifting, forced, teleported): traps that
/// watch for that spring (Snap Trap, Distraction Trap, Wand Trap, Anti-Charm Trap, a Trapper's
/// boost trap). A Trapper may save to avoid what one does to it.
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos) -> Result<(), RuleError> {
    if !occupies(cx.s.unit(unit)) {
        return Ok(());
    }
    let size = cx.s.unit(unit).size;
    let traps: Vec<UnitIdx> = cx.s.units_on_map().filter(|&t| cx.s.unit(t).kind == UnitKind::Trap).collect();
    for trap in traps {
        if !cx.s.unit(trap).on_map() || !cx.s.unit(unit).on_map() {
            continue;
        }
        let tp = cx.s.unit(trap).pos.unwrap();
        let Some(p) = cx.s.unit(trap).placed.clone() else { continue };
        let (d_to, d_from) = (distance(to, size, tp, 1), distance(from, size, tp, 1));
        let enemy = cx.s.enemies(trap, unit);
        // A range trap goes off when a creature comes into its range (see rulings).
        let comes_within = |r: i32| d_to <= r && d_from > r;
        let springs = match &*p.what {
            // Any creature stepping into its square (from level 4, or next to it).
            "snap-trap" => comes_within(if p.owner.is_some_and(|o| cx.s.unit(o).level >= 4) { 1 } else { 0 }),
            "distraction-trap" => enemy && comes_within(3),
            "anti-charm-trap" => enemy && comes_within(3) && charmed(cx.s, unit),
            // Once per turn, on any square entered within 4.
            "wand-trap" => enemy && d_to <= 4 && p.fired != cx.s.current().map(|c| (cx.s.round, c)),
            // Any creature entering its square or one next to it, from wherever (see rulings).
            crate::rules::query::TRAPPER_TRAP => d_to <= 1,
            _ => false,
        };
        if !springs {
            continue;
        }
        cx.emit(Event::Note { text: format!("{} springs on {}", cx.s.unit(trap).id, cx.s.unit(unit).id) });
        if (crate::engine::hooks::specialists(cx.s).evades_trap)(cx, unit, &format!("the trap {}", cx.s.unit(trap).id))?
        {
            spend_charge(cx, trap); // it went off all the same
            continue;
        }
        let turn = cx.s.unit(unit).turns_started + 1;
        let next_turn = crate::rules::statuses::Duration::EndOfTurn { unit, turn };
        match &*p.what {
            "snap-trap" => {
                let st = crate::rules::statuses::Status::simple(StatusKind::Immobilized, next_turn);
                crate::rules::statuses::give::give_status(cx, unit, st, "Snap Trap");
                // Caught while passing through an ally's square, it ends on the nearest free one.
                crate::rules::movement::settle_on_legal_square(cx, unit, "stumbles out of its ally's square");
            }
            "distraction-trap" => {
                let mut st = crate::rules::statuses::Status::simple(StatusKind::Distracted, next_turn);
                st.source = p.owner;
                crate::rules::statuses::give::give_status(cx, unit, st, "Distraction Trap");
                let mut slowed = crate::rules::statuses::Status::simple(
                    StatusKind::Slowed,
                    crate::rules::statuses::Duration::SaveEnds,
                );
                slowed.source = p.owner;
                crate::rules::statuses::give::give_status(cx, unit, slowed, "Distraction Trap");
            }
            "anti-charm-trap" => strip_charms(cx, unit, p.owner, bonus(cx.s, trap)),
            "wand-trap" => {
                let amount = trap_damage(cx.s, trap, 2);
                crate::rules::damage::deal(cx, unit, amount, p.owner.or(Some(trap)), "Wand Trap", None);
            }
            crate::rules::query::TRAPPER_TRAP => {
                let amount = crate::rules::query::trap_damage(cx.s, p.owner);
                crate::rules::damage::deal(cx, unit, amount, p.owner.or(Some(trap)), "Trapper's trap", None);
            }
            _ => {}
        }
        // A trap that deals no damage of its own deals its extra damage alone (Tinker's Helper).
        let extra = bonus(cx.s, trap);
        if matches!(&*p.what, "snap-trap" | "distraction-trap") && extra > 0 && cx.s.unit(unit).on_map() {
            crate::rules::damage::deal(cx, unit, extra, p.owner.or(Some(trap)), &p.what, None);
        }
        ride(cx, trap, unit);
        crate::engine::hooks::trap_sprung(cx, trap, unit, p.free); // a loaded Role Boost (a Wand Trap's free trigger brings none)
        spend_charge(cx, trap);
    }
    Ok(())
}

/// Whether an Anti-Charm Trap has anything to take from `u`: a Ward or a positive status.
fn charmed(s: &State, u: UnitIdx) -> bool {
    s.unit(u).ward > 0 || s.unit(u).statuses.iter().any(|st| !st.kind.is_negative())
}

/// Anti-Charm Trap (L1336): the creature loses its Ward and every positive status, taking 2
/// damage per status lost (none for the Ward).
fn strip_charms(cx: &mut Ctx, unit: UnitIdx, owner: Option<UnitIdx>, bonus: i32) {
    let mut lost = 0;
    let mut fell = false;
    for st in cx.s.unit(unit).statuses.clone().into_iter().filter(|st| !st.kind.is_negative()) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "Anti-Charm Trap".into() });
        lost += 1;
        fell |= st.kind == StatusKind::Flying;
    }
    if cx.s.unit(unit).ward > 0 {
        cx.emit(Event::WardSet { unit: cx.s.who(unit), ward: 0, why: "Anti-Charm Trap".into() });
    }
    // K-ST-Flying: losing Flying, it comes down beside whoever is below.
    if fell {
        crate::rules::movement::settle_on_legal_square(cx, unit, "falls beside the creature below");
    }
    if 2 * lost + bonus > 0 {
        crate::rules::damage::deal(cx, unit, 2 * lost + bonus, owner, "Anti-Charm Trap", None);
    }
}

/// Reset Traps (L1328): the user's traps next to it get their charges back.
fn reset_targets(s: &State, u: UnitIdx) -> Vec<UnitIdx> {
    owned(s, u).filter(|&t| s.unit(t).kind == UnitKind::Trap && s.distance(u, t) == Some(1)).collect()
}

/// Whether a wall square may go on `q`: open ground with nothing on it, no orb, off the Dungeon.
fn wall_square_ok(s: &State, q: Pos) -> bool {
    let t = s.arena.at(q);
    s.arena.terrain.contains(q)
        && t.enterable()
        && t != crate::engine::arena::Terrain::Portal
        && !t.is_low_cover()
        && !s.arena.in_dungeon(q)
        && s.units_on_map().all(|o| distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) > 0)
        && !s.orbs.iter().any(|o| o.loc == crate::engine::state::OrbLoc::Ground { at: q })
}

/// The ways a 3x1 Ward Wall can run through `centre`, every square within 5 of `u` (L880).
fn wall_lines(s: &State, u: UnitIdx, centre: Pos) -> Vec<(&'static str, [Pos; 3])> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    [("horizontal", (1, 0)), ("vertical", (0, 1))]
        .into_iter()
        .map(|(id, (dx, dy))| (id, [centre.offset(-dx, -dy), centre, centre.offset(dx, dy)]))
        .filter(|(_, sq)| sq.iter().all(|&q| distance(p, size, q, 1) <= 5 && wall_square_ok(s, q)))
        .collect()
}

/// Where the next square of the Specialist's Wall may go: open (see [`wall_square_ok`]), within
/// 10 of the Specialist, and edge to edge with a square of the chain begun with `first`.
fn chain_squares(s: &State, u: UnitIdx, first: Option<UnitIdx>) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    let chain: Vec<Pos> = match first {
        None => Vec::new(),
        Some(f) => s
            .units_on_map()
            .filter(|&o| o == f || s.unit(o).placed.as_ref().is_some_and(|q| q.group == Some(f)))
            .filter_map(|o| s.unit(o).pos)
            .collect(),
    };
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(p, size, q, 1) <= 10 && wall_square_ok(s, q))
        .filter(|&q| first.is_none() || chain.iter().any(|c| (c.x - q.x).abs() + (c.y - q.y).abs() == 1))
        .collect()
}

/// Squares a Ward Wall can be centred on.
fn wall_centres(s: &State, u: UnitIdx) -> Vec<Pos> {
    s.arena.terrain.squares().filter(|&q| !wall_lines(s, u, q).is_empty()).collect()
}

/// After damage to one square of a Ward Wall, the others share it: the wall has one pool of HP.
pub fn share_damage(cx: &mut Ctx, target: UnitIdx, amount: i32, hp: i32) {
    let Some(p) = cx.s.unit(target).placed.clone() else { return };
    if cx.s.unit(target).kind != UnitKind::Wall || &*p.what != "ward-wall" || amount == 0 {
        return;
    }
    let root = p.group.unwrap_or(target);
    let others: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&o| o != target && cx.s.unit(o).kind == UnitKind::Wall)
            .filter(|&o| o == root || cx.s.unit(o).placed.as_ref().is_some_and(|q| q.group == Some(root)))
            .collect();
    for o in others {
        cx.emit(Event::Damaged {
            unit: cx.s.who(o),
            amount,
            ward_lost: 0,
            hp,
            source: None,
            why: "the Ward Wall's squares share their HP".into(),
        });
        if hp <= 0 {
            destroyed(cx, o, None);
        }
    }
}

/// Traps and automata `u` could deal Disarm Traps damage to (within 5).
fn disarm_targets(s: &State, u: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| matches!(s.unit(t).kind, UnitKind::Trap | UnitKind::Automaton))
        .filter(|&t| s.distance(u, t).is_some_and(|d| d <= 5))
        .filter(|&t| !shielded(s, t, Some(u)))
        .collect()
}

/// Squares of the map's Damaging Terrain within 5 of `u` that Disarm Traps could clear
/// (outside the Dungeon; power-laid damaging zones are not terrain, see rulings).
fn disarm_squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| {
            s.arena.at(q) == crate::engine::arena::Terrain::Damaging
                && distance(p, size, q, 1) <= 5
                && !s.arena.in_dungeon(q)
        })
        .collect()
}

/// Disarm Traps' options: a trap or automaton to damage, or a square of Damaging Terrain to
/// clear (the first of 2, or 4 from level 4).
fn disarm_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let mut out: Vec<DecisionOption> =
        disarm_targets(s, u).into_iter().map(|t| crate::rules::actions::unit_option(s, t)).collect();
    out.extend(
        disarm_squares(s, u)
            .into_iter()
            .map(|q| DecisionOption::square(q, format!("clear the Damaging Terrain at {q}"))),
    );
    out
}

/// The Trap Roll (L1288-1295, K-ROLL-8), a pseudo-attack roll: the charges a trap of `base`
/// charges is set with (Improved Traps and Redirecting's kept charges added), or none on a 1 or 2.
fn trap_roll(cx: &mut Ctx, u: UnitIdx, base: i32) -> Result<Option<(i32, i32)>, RuleError> {
    let roll = cx.d6(Some(u))?;
    cx.emit(Event::Note { text: format!("{} makes a Trap Roll: {roll}", cx.s.unit(u).id) });
    if roll <= 2 {
        if roll == 1 {
            let total = cx.s.unit(u).strikes + 1;
            cx.emit(Event::Strike { unit: cx.s.who(u), total, why: "rolled a 1 on a Trap Roll".into() });
        }
        if cx.s.unit(u).pc {
            let total = cx.s.unit(u).miss_tokens + 1;
            cx.emit(Event::MissToken { unit: cx.s.who(u), total });
        }
        return Ok(None);
    }
    let shift = match roll {
        6 => 1,
        3 => -1,
        _ => 0,
    };
    let improved = i32::from(cx.s.has_feature(u, crate::engine::records::features::Feature::ImprovedTrapsCharge));
    Ok(Some((
        base + shift + improved + cx.s.counter(u, crate::engine::records::features::Feature::Redirecting).0,
        roll,
    )))
}

/// The trap powers `u` knows, for Advanced Trap.
fn advanced_kinds(s: &State, u: UnitIdx) -> Vec<u16> {
    s.unit(u)
        .powers
        .iter()
        .copied()
        .filter(|&p| s.powers.get(p).hook.as_deref() == Some("trap") && !s.powers.get(p).reference_only)
        .collect()
}

/// Advanced Trap's rider on a creature its trap has just sprung on (statuses until the end of the
/// creature's next turn, from the Tinker; a push or pull of 2 from the trap's square).
fn ride(cx: &mut Ctx, trap: UnitIdx, victim: UnitIdx) {
    let Some(p) = cx.s.unit(trap).placed.clone() else { return };
    let Some(rider) = p.rider else { return };
    if !cx.s.unit(victim).on_map() {
        return;
    }
    let kind = match rider {
        Rider::Slowed => StatusKind::Slowed,
        Rider::Weakened => StatusKind::Weakened,
        Rider::Distracted => StatusKind::Distracted,
        Rider::Pull | Rider::Push => {
            if movable(cx.s.unit(victim)) {
                let how = if rider == Rider::Pull {
                    crate::engine::frames::rules::ForcedKind::Pull
                } else {
                    crate::engine::frames::rules::ForcedKind::Push
                };
                let f = crate::engine::frames::rules::ForcedFrame::new(cx.s, trap, victim, how, 2);
                cx.push(Frame::Forced(f));
            }
            return;
        }
    };
    let turn = cx.s.unit(victim).turns_started + 1;
    let mut st = crate::rules::statuses::Status::simple(
        kind,
        crate::rules::statuses::Duration::EndOfTurn { unit: victim, turn },
    );
    st.source = p.owner;
    crate::rules::statuses::give::give_status(cx, victim, st, "Advanced Trap");
}

/// Whether a hooked power of this module can be used now (checked before it is offered).
pub fn check_use(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Result<(), RuleError> {
    match def.hook.as_deref() {
        Some("advanced-trap") if advanced_kinds(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "advanced-trap",
            format_args!("{} knows no trap power to set", s.unit(u).id),
        )),
        Some("advanced-trap") if free_squares(s, u, s.reach(u), true).is_empty() => Err(crate::engine::kit::refuse(
            "K-DEF-2",
            format_args!("{} has no free square within reach for a trap", s.unit(u).id),
        )),
        Some("trap") if trap_squares(s, u, def).is_empty() => Err(crate::engine::kit::refuse(
            "K-DEF-2",
            format_args!("{} has no free square within reach for a trap", s.unit(u).id),
        )),
        Some("automaton") if free_squares(s, u, 1, false).is_empty() => Err(crate::engine::kit::refuse(
            "K-INIT-5",
            format_args!("{} has no free square next to it for the automaton", s.unit(u).id),
        )),
        Some("reset-traps") if reset_targets(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "K-DEF-2",
            format_args!("{} has none of its traps next to it", s.unit(u).id),
        )),
        Some("disarm-traps") if disarm_options(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "K-DEF-2",
            "there is no trap, automaton or Damaging Terrain within 5 squares for Disarm Traps",
        )),
        _ => Ok(()),
    }
}

/// Plays a hooked power (the action is already spent).
pub fn execute_hook(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
    match def.hook.as_deref() {
        Some("trap") => {
            if let Some((charges, roll)) = trap_roll(cx, u, 2)? {
                cx.push(Frame::Placed(PlacedFrame::TrapSquare { owner: u, power, charges, roll, rider: None }));
            }
        }
        // Advanced Trap (L1344-1346): 3 charges and 4 HP, a trap kind the Tinker knows, and a rider.
        Some("advanced-trap") => {
            if let Some((charges, roll)) = trap_roll(cx, u, 3)? {
                cx.push(Frame::Placed(PlacedFrame::AdvancedKind { owner: u, charges, roll }));
            }
        }
        // A role power: no Trap Roll, one use.
        Some("snap-trap") => {
            cx.push(Frame::Placed(PlacedFrame::TrapSquare { owner: u, power, charges: 1, roll: 0, rider: None }))
        }
        Some("automaton") => cx.push(Frame::Placed(PlacedFrame::AutomatonSquare { owner: u, power })),
        Some("ward-wall") => cx.push(Frame::Placed(PlacedFrame::WallCentre { owner: u, power })),
        Some("specialist-wall") => {
            cx.push(Frame::Placed(PlacedFrame::WallChain { owner: u, power, first: None, left: CHAIN_LENGTH }))
        }
        Some("reset-traps") => {
            for t in reset_targets(cx.s, u) {
                let full = cx.s.unit(t).placed.as_ref().map_or(0, |p| p.full);
                set_trap(cx, t, |st| st.charges = st.charges.max(full));
            }
        }
        Some("disarm-traps") => cx.push(Frame::Placed(PlacedFrame::DisarmTarget { user: u })),
        _ => unreachable!("not a summons hook"),
    }
    Ok(())
}

/// Advances a frame of this module.
pub fn step(cx: &mut Ctx, f: PlacedFrame) -> Result<Flow, RuleError> {
    let (_, _, options) = question(cx.s, &f);
    if options.is_empty() {
        // Nothing left to choose (the square filled up): the frame lapses.
        if let PlacedFrame::AutomatonTurn { unit } = f {
            cx.push(Frame::EndTurn { unit, fail: Vec::new() });
        }
        return Ok(Flow::Continue);
    }
    if let PlacedFrame::AutomatonTurn { unit } = f
        && !cx.s.unit(unit).on_map()
    {
        cx.push(Frame::EndTurn { unit, fail: Vec::new() });
        return Ok(Flow::Continue);
    }
    cx.push(Frame::Placed(f));
    Ok(Flow::Wait)
}

/// The unit answering a frame, the decision kind, its prompt and its options.
pub fn question(s: &State, f: &PlacedFrame) -> (&'static str, String, Vec<DecisionOption>) {
    match *f {
        PlacedFrame::AdvancedKind { owner, .. } => (
            "trap",
            format!("{}: Advanced Trap — which trap?", s.unit(owner).id),
            advanced_kinds(s, owner)
                .into_iter()
                .map(|p| DecisionOption::new(s.powers.get(p).id.clone(), s.powers.get(p).name.clone()))
                .collect(),
        ),
        PlacedFrame::AdvancedRider { owner, .. } => (
            "rider",
            format!("{}: Advanced Trap — what does it add to each trigger?", s.unit(owner).id),
            Rider::ALL.iter().map(|r| DecisionOption::new(r.id(), r.id())).collect(),
        ),
        PlacedFrame::TrapSquare { owner, power, charges, .. } => (
            "square",
            format!("{}: where does the {} go ({charges} charges)?", s.unit(owner).id, s.powers.get(power).name),
            trap_squares(s, owner, s.powers.get(power))
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("set it at {q}")))
                .collect(),
        ),
        PlacedFrame::AutomatonSquare { owner, power } => (
            "square",
            format!("{}: where does the {} appear?", s.unit(owner).id, s.powers.get(power).name),
            free_squares(s, owner, 1, false)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("summon it at {q}")))
                .collect(),
        ),
        PlacedFrame::DisarmTarget { user } => (
            "target",
            format!(
                "{}: Disarm Traps — which trap or automaton, or which square of Damaging Terrain?",
                s.unit(user).id
            ),
            disarm_options(s, user),
        ),
        PlacedFrame::DisarmTerrain { user, left } => {
            let mut opts: Vec<DecisionOption> = disarm_squares(s, user)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("clear the Damaging Terrain at {q}")))
                .collect();
            if !opts.is_empty() {
                opts.push(DecisionOption::new("done", "clear no more"));
            }
            ("square", format!("{}: Disarm Traps — clear {left} more square(s)?", s.unit(user).id), opts)
        }
        PlacedFrame::WallCentre { owner, .. } => (
            "square",
            format!("{}: Ward Wall — its middle square?", s.unit(owner).id),
            wall_centres(s, owner)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("centre it on {q}")))
                .collect(),
        ),
        PlacedFrame::Improve { unit } => (
            "improve",
            format!("{}: which trap gets what?", s.unit(unit).id),
            helper_traps(s, unit)
                .into_iter()
                .flat_map(|t| {
                    let id = s.unit(t).id.clone();
                    [("charge", "1 extra charge"), ("damage", "1 extra damage"), ("hp", "2 extra HP")]
                        .map(|(k, l)| DecisionOption::new(format!("{id}:{k}"), format!("{id}: {l}")))
                })
                .collect(),
        ),
        PlacedFrame::WallChain { owner, first, left, .. } => (
            "square",
            format!("{}: Wall — the next square ({left} to place)", s.unit(owner).id),
            chain_squares(s, owner, first)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("raise a wall square at {q}")))
                .collect(),
        ),
        PlacedFrame::WallLine { owner, centre, .. } => (
            "orientation",
            format!("{}: Ward Wall — which way does it run through {centre}?", s.unit(owner).id),
            wall_lines(s, owner, centre)
                .into_iter()
                .map(|(id, _)| DecisionOption::new(id, format!("{id} through {centre}")))
                .collect(),
        ),
        PlacedFrame::Redirect { owner } => (
            "target",
            format!("{}: Redirecting — which trap gains a charge?", s.unit(owner).id),
            own_traps(s, owner).into_iter().map(|t| crate::rules::actions::unit_option(s, t)).collect(),
        ),
        PlacedFrame::AutomatonTurn { unit } => {
            let mut opts = vec![DecisionOption::new("stay", "stay where it is")];
            if s.unit(unit).on_map() && !s.has(unit, StatusKind::Immobilized) && !s.has(unit, StatusKind::Restrained) {
                opts.extend(
                    crate::rules::movement::destinations(s, unit, crate::rules::movement::Mode::Walk)
                        .into_iter()
                        .map(|q| DecisionOption::square(q, format!("move to {q}"))),
                );
            }
            ("square", format!("{}: where does it move?", s.unit(unit).id), opts)
        }
        PlacedFrame::PestAttach { .. } | PlacedFrame::PestShake { .. } => crate::engine::hooks::placed_question(s, f),
    }
}

/// The unit a frame's decision belongs to.
pub fn chooser(f: &PlacedFrame) -> UnitIdx {
    match *f {
        PlacedFrame::TrapSquare { owner, .. } | PlacedFrame::AutomatonSquare { owner, .. } => owner,
        PlacedFrame::DisarmTarget { user } | PlacedFrame::DisarmTerrain { user, .. } => user,
        PlacedFrame::Redirect { owner } => owner,
        PlacedFrame::AdvancedKind { owner, .. } | PlacedFrame::AdvancedRider { owner, .. } => owner,
        PlacedFrame::WallCentre { owner, .. }
        | PlacedFrame::WallLine { owner, .. }
        | PlacedFrame::WallChain { owner, .. } => owner,
        PlacedFrame::AutomatonTurn { unit } | PlacedFrame::Improve { unit } => unit,
        PlacedFrame::PestAttach { unit } => unit,
        PlacedFrame::PestShake { host } => host,
    }
}

/// Answers a frame's decision.
pub fn answer(cx: &mut Ctx, f: PlacedFrame, option: &str) -> Result<(), RuleError> {
    let square = || Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"));
    match f {
        PlacedFrame::AdvancedKind { owner, charges, roll } => {
            let power = cx.s.powers.find(option).ok_or_else(|| RuleError::malformed(format!("no trap {option:?}")))?;
            cx.push(Frame::Placed(PlacedFrame::AdvancedRider { owner, power, charges, roll }));
        }
        PlacedFrame::AdvancedRider { owner, power, charges, roll } => {
            let rider = Rider::ALL.into_iter().find(|r| r.id() == option);
            let rider =
                rider.ok_or_else(|| RuleError::malformed("answer slowed, weakened, distracted, pull or push"))?;
            cx.push(Frame::Placed(PlacedFrame::TrapSquare { owner, power, charges, roll, rider: Some(rider) }));
        }
        PlacedFrame::TrapSquare { owner, power, charges, roll, rider } => {
            let def = cx.s.powers.get(power);
            let sp = Spawn {
                name: def.name.clone(),
                kind: UnitKind::Trap,
                at: square()?,
                hp: if rider.is_some() {
                    4
                } else if def.id == "snap-trap" {
                    2
                } else {
                    def.trap.as_ref().and_then(|n| n.hp).unwrap_or(1)
                },
                speed: 0,
                owner: Some(cx.s.who(owner)),
                // A rival's own version is still the class trap its `variant_of` names (§5).
                what: def.variant_of.clone().unwrap_or_else(|| def.id.clone()),
                charges,
                turn_before: None,
                group: None,
                until_turn: None,
            };
            let hook = def.hook;
            let t = spawn(cx, sp);
            if rider.is_some() {
                set_trap(cx, t, |st| st.rider = rider);
            }
            // K-ROLE-5: a Trap Roll of 3 or more loads the Tinker's Role Boost (always: see rulings).
            if hook.as_deref() == Some("trap") && roll >= 3 && crate::rules::query::loads_boost(cx.s, owner) {
                set_trap(cx, t, |st| st.loaded = Some(roll));
                cx.emit(Event::Note {
                    text: format!("{} loads its Role Boost into {}", cx.s.unit(owner).id, cx.s.unit(t).id),
                });
            }
            // Redirecting's charges kept for the next trap are now in it.
            let f = crate::engine::records::features::Feature::Redirecting;
            if hook.as_deref() == Some("trap") && cx.s.counter(owner, f).0 > 0 {
                crate::rules::counters::set_counter(cx, owner, f, 0, None);
            }
        }
        PlacedFrame::AutomatonSquare { owner, power } => {
            let def = cx.s.powers.get(power);
            let sp = Spawn {
                name: def.name.clone(),
                kind: UnitKind::Automaton,
                at: square()?,
                hp: 4,
                speed: 6,
                owner: Some(cx.s.who(owner)),
                what: def.id.clone(),
                charges: 0,
                turn_before: Some(cx.s.who(owner)),
                group: None,
                until_turn: None,
            };
            spawn(cx, sp);
        }
        PlacedFrame::Improve { unit } => {
            let (id, what) =
                option.rsplit_once(':').ok_or_else(|| RuleError::malformed("answer <trap>:<charge|damage|hp>"))?;
            let t = cx.s.find_unit(id).ok_or_else(|| RuleError::malformed(format!("no unit {id:?}")))?;
            cx.emit(Event::Note { text: format!("{} tinkers with {}", cx.s.unit(unit).id, id) });
            match what {
                "charge" => set_trap(cx, t, |st| st.charges += 1),
                "damage" => set_trap(cx, t, |st| st.bonus += 1),
                _ => {
                    let u = cx.s.unit(t);
                    cx.emit(Event::Restored { unit: cx.s.who(t), max_hp: u.max_hp + 2, hp: u.hp + 2 });
                }
            }
        }
        PlacedFrame::WallChain { owner, power, first, left } => {
            let def = cx.s.powers.get(power).clone();
            let sp = Spawn {
                name: def.name.clone(),
                kind: UnitKind::Wall,
                at: square()?,
                hp: 2,
                speed: 0,
                owner: Some(cx.s.who(owner)),
                what: def.id.clone(),
                charges: 0,
                turn_before: None,
                group: first.map(|f| cx.s.who(f)),
                until_turn: None,
            };
            let w = spawn(cx, sp);
            if left > 1 {
                let first = Some(first.unwrap_or(w));
                cx.push(Frame::Placed(PlacedFrame::WallChain { owner, power, first, left: left - 1 }));
            }
        }
        PlacedFrame::WallCentre { owner, power } => {
            cx.push(Frame::Placed(PlacedFrame::WallLine { owner, power, centre: square()? }));
        }
        PlacedFrame::WallLine { owner, power, centre } => {
            let squares = wall_lines(cx.s, owner, centre)
                .into_iter()
                .find(|(id, _)| *id == option)
                .map(|(_, sq)| sq)
                .ok_or_else(|| RuleError::malformed("answer horizontal or vertical"))?;
            let def = cx.s.powers.get(power).clone();
            let mut first: Option<Who> = None;
            for q in squares {
                let sp = Spawn {
                    name: def.name.clone(),
                    kind: UnitKind::Wall,
                    at: q,
                    hp: 2,
                    speed: 0,
                    owner: Some(cx.s.who(owner)),
                    what: def.id.clone(),
                    charges: 0,
                    turn_before: None,
                    group: first.clone(),
                    until_turn: None,
                };
                let w = spawn(cx, sp);
                first.get_or_insert_with(|| cx.s.who(w));
            }
        }
        PlacedFrame::Redirect { .. } => {
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            cx.emit(Event::Note { text: format!("Redirecting: {option} gains a charge") });
            set_trap(cx, t, |st| st.charges += 1);
        }
        PlacedFrame::DisarmTarget { user } if Pos::parse(option).is_some() => {
            // Clearing Damaging Terrain: 2 squares, 4 from level 4 (K-PROG-4).
            let left = if cx.s.unit(user).level >= 4 { 4 } else { 2 };
            clear_damaging(cx, user, square()?, left);
        }
        PlacedFrame::DisarmTarget { user } => {
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            let amount = if cx.s.unit(user).level >= 4 { 4 } else { 2 };
            crate::rules::damage::deal(cx, t, amount, Some(user), "Disarm Traps", None);
        }
        PlacedFrame::DisarmTerrain { user, left } => {
            if option != "done" {
                clear_damaging(cx, user, square()?, left);
            }
        }
        PlacedFrame::AutomatonTurn { unit } => {
            if option != "stay" {
                let to = square()?;
                let path = crate::rules::movement::route_to(cx.s, unit, to, crate::rules::movement::Mode::Walk)
                    .ok_or_else(|| RuleError::malformed(format!("{to} cannot be reached")))?;
                // Moved by its maker's power, not walking: no Opportunities (see rulings).
                for q in path {
                    let from = cx.s.unit(unit).pos.unwrap();
                    cx.emit(Event::Moved { unit: cx.s.who(unit), from, to: q, how: How::Slide });
                }
            }
            cx.push(Frame::EndTurn { unit, fail: Vec::new() });
            automaton_acts(cx, unit);
        }
        PlacedFrame::PestAttach { .. } | PlacedFrame::PestShake { .. } => {
            crate::engine::hooks::placed_answer(cx, f, option)?
        }
    }
    Ok(())
}

/// What an automaton does once it has moved: the Zapper deals 2 damage to everything next to it
/// (L1381-1383).
fn automaton_acts(cx: &mut Ctx, unit: UnitIdx) {
    if !cx.s.unit(unit).on_map() {
        return;
    }
    if what(cx.s, unit) == "tinkers-helper" {
        // Tinker's Helper (L1373): one trap of its Tinker's next to it gets a boon.
        if !helper_traps(cx.s, unit).is_empty() {
            cx.push(Frame::Placed(PlacedFrame::Improve { unit }));
        }
        return;
    }
    crate::engine::hooks::automaton_moved(cx, unit); // The Pest (L1379): it latches on
    if what(cx.s, unit) != "zapper" {
        return;
    }
    let owner = cx.s.unit(unit).placed.as_ref().and_then(|p| p.owner);
    let hit: Vec<UnitIdx> = cx.s.units_on_map().filter(|&t| t != unit && cx.s.distance(unit, t) == Some(1)).collect();
    if hit.is_empty() {
        cx.emit(Event::Note { text: format!("{} zaps, but nothing is next to it", cx.s.unit(unit).id) });
    }
    for t in hit {
        crate::rules::damage::deal(cx, t, 2, owner.or(Some(unit)), "Zapper", None);
    }
}

/// Its owner's traps next to a Tinker's Helper.
fn helper_traps(s: &State, unit: UnitIdx) -> Vec<UnitIdx> {
    let owner = s.unit(unit).placed.as_ref().and_then(|p| p.owner);
    s.units_on_map()
        .filter(|&t| s.unit(t).kind == UnitKind::Trap && s.distance(unit, t) == Some(1))
        .filter(|&t| owner.is_some() && s.unit(t).placed.as_ref().is_some_and(|p| p.owner == owner))
        .collect()
}

/// The frame an automaton's turn runs instead of the action menu.
pub fn turn_frame(s: &State, unit: UnitIdx) -> Option<Frame> {
    (s.unit(unit).kind == UnitKind::Automaton).then_some(Frame::Placed(PlacedFrame::AutomatonTurn { unit }))
}

/// Disarm Traps makes square `q` of Damaging Terrain Regular Terrain, then offers the next of
/// the `left` squares it may clear.
fn clear_damaging(cx: &mut Ctx, user: UnitIdx, q: Pos, left: u8) {
    cx.emit(Event::TerrainChanged {
        at: q,
        terrain: crate::engine::arena::Terrain::Open,
        why: "cleared by Disarm Traps".into(),
    });
    if left > 1 {
        cx.push(Frame::Placed(PlacedFrame::DisarmTerrain { user, left: left - 1 }));
    }
}

/// The summoning powers' hooks and use checks.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(HOOKS, |cx, a| execute_hook(cx, a.unit, a.power));
    r.check_use(70, check_use);
    r.on_start_phase(10, "K-DEF-5", start_of_turn);
    r.on_square_entered(10, "K-DEF-2", |cx, e| entered(cx, e.unit, e.from, e.to)); // traps, walls
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 30, "K-DEF-5", end_of_turn);
    r.traps(crate::engine::hooks::Traps { resist_once, share_damage, destroyed });
}
