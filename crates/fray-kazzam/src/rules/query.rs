//! Read-only questions the core rules ask of the state that rule areas, classes and roles
//! answer: reach, hovering, concealment, who controls a creature, walls. They read the data
//! layer only (no events, no frames), so the base rule modules that ask them (`statuses`,
//! `cover`) import no class, role or other rule module (issue 12). The modules that own the
//! rules re-export each question at its old path.

use crate::content::powers::ZoneKind;
use crate::engine::arena::Terrain;
use crate::engine::options::DominatedRule;
use crate::engine::records::control::Compulsion;
use crate::engine::records::features::Feature;
use crate::engine::records::modifiers::ModifierKind;
use crate::engine::records::roles::Boost;
use crate::engine::records::statuses::{Duration, Status, StatusKind};
use crate::engine::records::tamer::{CREATURES, Creature};
use crate::engine::state::{State, UnitIdx, UnitKind};
use fray_core::geometry::distance;
use fray_core::grid::Pos;

/// Whether a feature keeps `u` Hovering (Self-Lift; an ally's Lift Specialist within 5).
pub fn hovering(s: &State, u: UnitIdx) -> bool {
    s.has_feature(u, Feature::SelfLift)
        || lifted(s, u) // Involuntary Lift
        || (s.unit(u).on_map()
            && s.units_on_map().any(|w| {
                w != u
                    && !s.enemies(w, u)
                    && s.has_feature(w, Feature::LiftSpecialist)
                    && s.distance(w, u).is_some_and(|d| d <= 5)
            }))
}

/// Whether `u` is Locked On to `t` (Scryer), or shares the lock of an Improved Scryer teammate.
pub fn locked(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    let own = |w: UnitIdx| {
        let wn = s.unit(w);
        !wn.counters.is_empty() && s.has_feature(w, Feature::Scryer) && s.counter(w, Feature::Scryer) == (1, Some(t))
    };
    own(u)
        || s.unit_indices().any(|w| {
            w != u
                && s.counter(w, Feature::ImprovedScryer) == (1, Some(u))
                && s.has_feature(w, Feature::ImprovedScryer)
                && !s.enemies(w, u)
                && own(w)
        })
}

/// Reach as features change it: Long-arm gives Reach 2.
pub fn long_arm_reach(s: &State, u: UnitIdx) -> i32 {
    if s.has_feature(u, Feature::LongArm) { 2 } else { 1 }
}

/// Whether `u` is held up by an Involuntary Lift (it is Hovering while so).
pub fn lifted(s: &State, u: UnitIdx) -> bool {
    s.unit(u)
        .statuses
        .iter()
        .any(|st| st.kind == StatusKind::Grabbed && st.origin.is_some_and(|p| s.powers.get(p).id == "involuntary-lift"))
}

/// Whether a Glowfly Swarm is next to `u`: it is Revealed (L1701).
pub fn glowfly_reveals(s: &State, u: UnitIdx) -> bool {
    s.unit(u).kind != UnitKind::Conjured && conjured(s, "glowfly-swarm").any(|g| s.distance(g, u) == Some(1))
}

/// Whether a status is a Vine Worms Grab, which lets its victim move (L1697).
pub fn loose(s: &State, st: &Status) -> bool {
    st.kind == StatusKind::Grabbed && st.origin.is_some_and(|p| s.powers.get(p).id == "vine-worms")
}

/// A creature's own reach (the Giraffape's 3).
pub fn creature_reach(s: &State, u: UnitIdx) -> i32 {
    if s.unit(u).kind != UnitKind::Summon {
        return 0;
    }
    creature_named(what(s, u)).map_or(0, |c| c.reach)
}

/// Whether `u` stands in a Darkfly Swarm's square of its own side: it is Concealed (L1709).
pub fn darkfly_conceals(s: &State, u: UnitIdx) -> bool {
    let Some(p) = s.unit(u).pos else { return false };
    let size = s.unit(u).size;
    conjured(s, "darkfly-swarm").any(|d| !s.enemies(d, u) && distance(p, size, s.unit(d).pos.unwrap(), 1) == 0)
}

/// The conjured creatures of `kind` on the map.
pub fn conjured<'a>(s: &'a State, kind: &'static str) -> impl Iterator<Item = UnitIdx> + 'a {
    s.units_on_map().filter(move |&c| s.unit(c).kind == UnitKind::Conjured && what(s, c) == kind)
}

/// What a placed unit is (its power or creature id), or "".
pub fn what(s: &State, u: UnitIdx) -> &str {
    s.unit(u).placed.as_ref().map_or("", |p| &p.what)
}

/// The Tamer's creature with this id.
pub fn creature_named(what: &str) -> Option<&'static Creature> {
    CREATURES.iter().find(|c| c.id == what)
}

/// The side that chooses `u`'s actions, if not its own: its dominator under the alternate
/// Dominated rule, or its controller after a 1 on the Frenzied/Panicked table.
pub fn controller(s: &State, u: UnitIdx) -> Option<UnitIdx> {
    if let Some(Compulsion::Controlled { by, .. }) = s.unit(u).compulsion {
        return Some(by);
    }
    if s.options.dominated == DominatedRule::Alternate {
        return s.unit(u).statuses.iter().find(|st| st.kind == StatusKind::Dominated).and_then(|st| st.source);
    }
    None
}

/// Whether `u` counts as Dazed because someone else controls its one action.
pub fn controlled_daze(s: &State, u: UnitIdx) -> bool {
    controller(s, u).is_some()
}

/// Reach that modifiers add to `u` now (Enlarging Charm).
pub fn reach_bonus(s: &State, u: UnitIdx) -> i32 {
    s.modifiers.iter().filter(|m| m.kind == ModifierKind::Reach && m.applies(s, u, u)).map(|m| m.amount).sum()
}

/// Whether `target` is Concealed from `viewer` only because `viewer` is far enough away: a
/// Cloak (more than 3 squares; from level 4, not adjacent), or Gas it stands wholly in (more
/// than 3 squares).
pub fn concealed_at_distance(s: &State, target: UnitIdx, viewer: UnitIdx) -> bool {
    if s.has(target, StatusKind::Revealed) || !s.enemies(target, viewer) {
        return false;
    }
    let Some(d) = s.distance(target, viewer) else { return false };
    let tu = s.unit(target);
    let in_gas = tu.pos.is_some_and(|p| fray_core::grid::footprint(p, tu.size).all(|q| s.arena.at(q) == Terrain::Gas));
    (in_gas && d > 3)
        || s.modifiers.iter().any(|m| m.kind == ModifierKind::Cloak && m.against == Some(target) && d > m.amount)
}

/// Whether a wall stands on square `q` (it blocks sight and gives Full Cover, K-COV-5).
pub fn wall_at(s: &State, q: Pos) -> bool {
    s.units.iter().any(|u| u.kind == UnitKind::Wall && u.pos == Some(q))
}

/// The squares walls stand on, for questions asked of many squares at once (a shot's lines):
/// `wall_squares(s).contains(&q)` is [`wall_at`].
pub fn wall_squares(s: &State) -> Vec<Pos> {
    s.units.iter().filter(|u| u.kind == UnitKind::Wall).filter_map(|u| u.pos).collect()
}

/// Whether a power's zone Conceals the creature (Sight Ward: wholly inside).
pub fn concealed_by_zone(s: &State, t: UnitIdx) -> bool {
    let u = s.unit(t);
    u.pos.is_some_and(|p| {
        s.zones.iter().any(|z| {
            (z.kind == ZoneKind::Conceal || z.kind == ZoneKind::Cloak && t != z.owner && !s.enemies(z.owner, t))
                && z.holds(p, u.size)
        })
    })
}

/// Whether a Curtain of Shadows stands between a footprint at `a` and one at `b`: one is
/// inside it and the other is not.
pub fn curtain_between(s: &State, a: Pos, asize: i32, b: Pos, bsize: i32) -> bool {
    s.zones.iter().any(|z| z.kind == ZoneKind::Curtain && z.touches(a, asize) != z.touches(b, bsize))
}

/// Implement range `u` has from Focus, if Focused this turn.
pub fn focus_range(s: &State, u: UnitIdx) -> Option<i32> {
    s.modifiers.iter().filter(|m| m.kind == ModifierKind::ImplementRange && m.applies(s, u, u)).map(|m| m.amount).max()
}

/// The Focus modifier `attacker`'s implement attack `def` uses up, if any (its index).
pub fn focus(s: &State, attacker: UnitIdx, def: &crate::content::powers::PowerDef) -> Option<usize> {
    if !def.uses_implement() {
        return None;
    }
    s.modifiers.iter().position(|m| m.kind == ModifierKind::Focus && m.applies(s, attacker, attacker))
}

/// Whether an Effect primitive is Rapid Fire's repeat.
pub fn repeats(e: &crate::content::powers::Effect) -> bool {
    e.hook.as_deref() == Some("repeat-attack")
}

/// How far the target may be before the chant ends (L744: over 10 squares ends it).
pub const CHANT_RANGE: i32 = 10;

/// The duration an effect `user` lays on `target` gets instead of "end of the target's next
/// turn": a chant, when `user` is a Jinxer and `target` an enemy within 10 squares.
pub fn chant_duration(s: &State, user: UnitIdx, target: UnitIdx) -> Option<Duration> {
    (s.enemies(user, target)
        && s.has_feature(user, Feature::Jinxer)
        && s.distance(user, target).is_some_and(|d| d <= CHANT_RANGE))
    .then_some(Duration::Other(crate::engine::records::statuses::Lingers::Chant { jinxer: user, target }))
}

/// Whether status `st` was given by a primitive carrying effect hook `hook`.
pub fn from_hook(s: &State, st: &Status, hook: &str) -> bool {
    st.origin.is_some_and(|p| {
        s.powers
            .get(p)
            .effect
            .iter()
            .any(|e| e.hook.as_deref() == Some(hook) && e.status.as_deref() == Some(st.kind.name()))
    })
}

/// Empathic Wave: the Regenerate `unit` gains as its turn starts from a Diviner ally within 5
/// squares whose wave is still running (the strongest one, if several).
pub fn wave_regenerate(s: &State, unit: UnitIdx) -> i32 {
    s.units_on_map()
        .filter(|&w| w != unit && !s.enemies(w, unit) && s.distance(w, unit).is_some_and(|d| d <= 5))
        .flat_map(|w| {
            s.unit(w)
                .statuses
                .iter()
                .filter(move |st| st.source == Some(w) && from_hook(s, st, "empathic-wave"))
                .map(|st| st.amount)
                .collect::<Vec<_>>()
        })
        .max()
        .unwrap_or(0)
}

/// Regenerate from features: Regenerative gives 1 (it adds to Regenerate from powers).
pub fn regenerate(s: &State, u: UnitIdx) -> i32 {
    i32::from(s.has_feature(u, Feature::Regenerative))
}

/// Whether `u` is removed from existence now.
pub fn is_removed(s: &State, u: UnitIdx) -> bool {
    s.removal.removed.iter().any(|r| r.unit == u)
}

/// Coin of Fortune: (Advantage, Disadvantage) on every roll `u` makes this round.
pub fn fortune(s: &State, u: UnitIdx) -> (bool, bool) {
    let side = s.unit(u).side;
    let mut out = (false, false);
    for m in s.modifiers.iter().filter(|m| m.amount == s.round as i32) {
        let maker = s.unit(m.source).side;
        match m.kind {
            ModifierKind::TeamAdvantage if side == maker => out.0 = true,
            ModifierKind::EnemyDisadvantage if side != maker && side.team().is_some() => out.1 = true,
            _ => {}
        }
    }
    out
}

/// The Role Boost `u` gets, if Fray plays it.
pub fn boost_of(s: &State, u: UnitIdx) -> Option<Boost> {
    let x = s.unit(u);
    match (x.role.as_deref(), x.specialization.as_deref()) {
        // From level 4 the slide is 4 squares and may run into other characters (defctl.rs).
        (Some("controller"), _) => Some(Boost::Controller),
        (Some("defender"), Some("juggernaut")) => Some(Boost::Juggernaut),
        (Some("defender"), Some("smasher")) => Some(Boost::Smasher),
        // Motivator: the heal may pass maximum HP; Tactician: the healed ally may shift 1.
        (Some("leader"), Some("rescuer" | "vanguard" | "motivator" | "tactician")) => Some(Boost::Leader),
        (Some("defender"), Some("punisher")) => Some(Boost::Punisher),
        (Some("defender"), Some("pursuer")) => Some(Boost::Pursuer),
        (Some("specialist"), Some("runner")) => Some(Boost::Runner),
        (Some("specialist"), Some("trapper")) => Some(Boost::Trapper),
        (Some("specialist"), Some("terrain-artist")) => Some(Boost::TerrainArtist),
        (Some("striker"), _) => Some(Boost::Striker(Default::default())),
        (Some("specialist"), Some("hunter")) => Some(Boost::Hunter),
        _ => None,
    }
}

/// The gadgets Bag of Tricks holds (L1354-1362), as power ids.
pub const GADGETS: &[&str] = &[
    "bag-of-tricks-explosive-attachment",
    "bag-of-tricks-curtain-of-shadows",
    "bag-of-tricks-tether",
    "bag-of-tricks-talisman-of-distraction",
];

/// The Bag of Tricks tether (a Grab that holds at any distance).
pub const TETHER: &str = "bag-of-tricks-tether";

/// Whether `p`, spent by `u`, is a gadget drawn from its Bag of Tricks (not a power of its own):
/// a Take Out does not recharge it (L1364).
pub fn used_from_bag(s: &State, u: UnitIdx, p: u16) -> bool {
    GADGETS.contains(&s.powers.get(p).id.as_str()) && !s.unit(u).powers.contains(&p)
}

/// Whether a Grabbed status is a Tether's (it holds at any distance and is not dragged along).
pub fn is_tether(s: &State, st: &Status) -> bool {
    st.kind == StatusKind::Grabbed && st.origin.is_some_and(|p| s.powers.get(p).id == TETHER)
}

/// Whether `tinker` has a Role Boost a trap can carry (K-ROLE-5): any Fray plays, except the
/// Runner's, which only moves the Runner itself (see rulings).
pub fn loads_boost(s: &State, tinker: UnitIdx) -> bool {
    boost_of(s, tinker).is_some_and(|b| b != Boost::Runner)
}
