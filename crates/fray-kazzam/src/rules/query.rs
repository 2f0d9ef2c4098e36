//! Read-only questions the core rules ask of the state that rule areas, classes and roles
//! answer: reach, hovering, concealment, who controls a creature, walls. They read the data
//! layer only (no events, no frames), so the base rule modules that ask them (`statuses`,
//! `cover`) import no class, role or other rule module (issue 12). The modules that own the
//! rules re-export each question at its old path.

use crate::content::powers::ZoneKind;
use crate::content::powers::{PowerDef, Targeting};
use crate::engine::arena::Terrain;
use crate::engine::options::DominatedRule;
use crate::engine::records::advanced::Advanced;
use crate::engine::records::control::Compulsion;
use crate::engine::records::features::Feature;
use crate::engine::records::modifiers::{Attackers, Modifier, ModifierKind};
use crate::engine::records::roles::Boost;
use crate::engine::records::roles::Strike;
use crate::engine::records::statuses::{Duration, Status, StatusKind, Until};
use crate::engine::records::tamer::{CREATURES, Creature};
use crate::engine::state::{Implement, State, Unit, UnitIdx, UnitKind};
use fray_core::geometry::distance;
use fray_core::grid::Pos;

/// Whether a feature keeps `u` Hovering (Self-Lift; an ally's Lift Specialist within 5).
pub fn hovering(s: &State, u: UnitIdx) -> bool {
    s.has_feature(u, Feature::SelfLift)
        || lifted(s, u) // Involuntary Lift
        || (s.unit(u).on_map()
            && lift_specialists(s)
            && s.units_on_map().any(|w| {
                w != u
                    && !s.enemies(w, u)
                    && s.has_feature(w, Feature::LiftSpecialist)
                    && s.distance(w, u).is_some_and(|d| d <= 5)
            }))
}

thread_local! {
    /// [`lift_specialists`] in the facts stamped so.
    static LIFTERS: std::cell::Cell<Option<(crate::engine::state::Stamp, bool)>> = const { std::cell::Cell::new(None) };
}

/// Whether any unit on the map has Lift Specialist (asked once per state: `has(Hovering)` asks
/// it of every mover).
fn lift_specialists(s: &State) -> bool {
    let stamp = s.stamp();
    if let Some((k, any)) = LIFTERS.get()
        && k == stamp
    {
        return any;
    }
    let any = s.units_on_map().any(|w| s.unit(w).features.contains(&Feature::LiftSpecialist));
    LIFTERS.set(Some((stamp, any)));
    any
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

/// Whether `st` is a Dungeon Squid's Grab (Lightweight, L2521): its victim is not Immobilized by
/// it, walks 2 squares slower for each, and hauls the squids along (`rules/creeps/squid.rs`).
pub fn lightweight(s: &State, st: &Status) -> bool {
    st.kind == StatusKind::Grabbed && st.source.is_some_and(|g| s.creep_def(g).is_some_and(|d| d.id == "dungeon-squid"))
}

/// Lightweight: what the squids holding `u` take off its speed (2 each).
pub fn squid_drag(s: &State, u: UnitIdx) -> i32 {
    2 * s.unit(u).statuses.iter().filter(|st| lightweight(s, st)).count() as i32
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
        .filter(|&w| {
            // Only a status `w` keeps going counts: one bearing none is passed over first.
            w != unit
                && s.unit(w).statuses.iter().any(|st| st.source == Some(w))
                && !s.enemies(w, unit)
                && s.distance(w, unit).is_some_and(|d| d <= 5)
        })
        .flat_map(|w| {
            s.unit(w)
                .statuses
                .iter()
                .filter(move |st| st.source == Some(w) && from_hook(s, st, "empathic-wave"))
                .map(|st| st.amount)
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

impl State {
    /// Whether `u` has feature `f` in force (a Disarmed Shivering Sword's Blade Enchantment
    /// gives nothing, L1058).
    pub fn has_feature(&self, u: UnitIdx, f: Feature) -> bool {
        self.unit(u).features.contains(&f) && !(f.is_blade_enchantment() && self.has(u, StatusKind::Disarmed))
    }
    /// A feature's counter on `u` (Whirling used, Focus Tokens): its value and whom it is about.
    pub fn counter(&self, u: UnitIdx, f: Feature) -> (i32, Option<UnitIdx>) {
        self.unit(u).counters.iter().find(|c| c.feature == f).map_or((0, None), |c| (c.value, c.about))
    }
    /// A per-creature counter's value (Electrified: 1 once `about` was zapped this turn).
    pub fn counter_about(&self, u: UnitIdx, f: Feature, about: UnitIdx) -> i32 {
        self.unit(u).counters.iter().find(|c| c.feature == f && c.about == Some(about)).map_or(0, |c| c.value)
    }
}

/// Whether `u` has advanced implement `a`, in hand (the implement it upgrades, not stowed).
pub fn has_advanced(s: &State, u: UnitIdx, a: Advanced) -> bool {
    let un = s.unit(u);
    un.advanced == Some(a) && un.implement == a.implement()
}

/// Extra implement range (Sniper's Staff).
pub fn sniper_staff_bonus(s: &State, u: UnitIdx) -> i32 {
    if has_advanced(s, u, Advanced::SnipersStaff) { 2 } else { 0 }
}

/// The range `u` takes Opportunities at (K-OPP-4): its implement range without the Long Sword's
/// or the Throwing Sword's extra.
pub fn opportunity_range(s: &State, u: UnitIdx) -> i32 {
    sniper_staff_bonus(s, u) + s.base_implement_range(u)
}

/// Throwing Sword: `attacker`'s implement attack `def` on `target` is thrown — the target is
/// beyond its ordinary reach.
pub fn thrown(s: &State, attacker: UnitIdx, target: UnitIdx, def: &crate::content::powers::PowerDef) -> bool {
    def.uses_implement()
        && has_advanced(s, attacker, Advanced::ThrowingSword)
        && s.distance(attacker, target).is_some_and(|d| d > opportunity_range(s, attacker))
}

/// The implement range an attack through a summoned creature has: its Tamer's, measured from
/// the creature (see rulings).
pub fn creature_implement_range(s: &State, u: UnitIdx) -> Option<i32> {
    (s.unit(u).kind == UnitKind::Summon).then(|| owner(s, u).map(|o| s.implement_range(o))).flatten()
}

/// The owner of a placed unit, if it has one.
pub fn owner(s: &State, u: UnitIdx) -> Option<UnitIdx> {
    s.unit(u).placed.as_ref().and_then(|p| p.owner)
}

/// A unit's specialization, if it has one.
pub fn spec(s: &State, u: UnitIdx) -> Option<&str> {
    s.unit(u).specialization.as_deref()
}

/// Whether `def` is a ranged attack for `u`: a wand or staff implement attack, a ranged power, or
/// an area placed at range.
pub fn ranged(s: &State, u: UnitIdx, def: &PowerDef) -> bool {
    def.is_attack()
        && def.charm.is_none()
        && match def.target {
            Targeting::Implement => matches!(s.unit(u).implement, Implement::Wand | Implement::Staff),
            Targeting::Ranged { .. } | Targeting::Area { .. } => true,
            _ => false,
        }
}

/// Sniper: ranged attacks reach 2 squares farther (level 8's 4 is beyond scope).
pub fn sniper_range_bonus(s: &State, u: UnitIdx, def: &PowerDef) -> i32 {
    if spec(s, u) == Some("sniper") && s.unit(u).role.as_deref() == Some("striker") && ranged(s, u, def) {
        2
    } else {
        0
    }
}

/// Where a Blaster's extra damage may go: (how many targets, within how many squares). Melee:
/// two within reach + 1; otherwise one within the attack's range.
pub fn splash_shape(s: &State, u: UnitIdx, target: UnitIdx, def: &PowerDef) -> (u8, i32) {
    let melee = def.is_melee(s.unit(u).implement == Implement::Sword) && !thrown(s, u, target, def);
    if melee {
        return (2, s.reach(u) + 1);
    }
    let range = match def.target {
        Targeting::Implement => creature_implement_range(s, u).unwrap_or_else(|| s.implement_range(u)),
        Targeting::Ranged { range } | Targeting::Creature { range } | Targeting::Area { range, .. } => range,
        Targeting::Burst { radius } => radius,
        _ => s.reach(u),
    };
    (1, range)
}

/// Enemies of `u` other than `primary` and `taken` that could take a Blaster's extra damage.
pub fn others(s: &State, u: UnitIdx, primary: UnitIdx, range: i32, taken: &[UnitIdx]) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| t != primary && !taken.contains(&t) && s.enemies(u, t))
        .filter(|&t| {
            matches!(s.unit(t).kind, UnitKind::Athlete | UnitKind::Creep | UnitKind::Summon | UnitKind::Automaton)
        })
        .filter(|&t| s.distance(u, t).is_some_and(|d| d <= range))
        .collect()
}

/// Whether `u`'s Striker Condition holds for its attack with `def` on `target`.
pub fn condition(s: &State, u: UnitIdx, target: UnitIdx, def: &PowerDef) -> bool {
    let x = s.unit(u);
    let own_turn = s.current() == Some(u);
    match spec(s, u) {
        // At least 3 squares from where its turn began (anchor square to anchor square).
        Some("blitzer") => {
            own_turn
                && matches!((x.turn_start, x.pos), (Some(a), Some(b))
                    if fray_core::geometry::distance(a, 1, b, 1) >= 3)
        }
        // Moved 1 square or less itself this turn; off its turn it has not moved this turn.
        Some("bruiser") => !own_turn || x.actions.moved <= 1,
        Some("sniper") => s.distance(u, target).is_some_and(|d| d > 3),
        // A true choice: one more eligible enemy than the extra damage needs.
        Some("blaster") => {
            let (n, range) = splash_shape(s, u, target, def);
            others(s, u, target, range, &[]).len() > n as usize
        }
        _ => false,
    }
}

/// The Striker's extra damage on roll `roll`, condition met or not; doubled from level 4.
pub fn amount(met: bool, roll: i32, level: u8) -> i32 {
    let base = match (met, roll) {
        (true, 2..=5) => 1,
        (true, 6) => 2,
        (false, 3..=6) => 1,
        _ => 0,
    };
    if level >= 4 { base * 2 } else { base }
}

/// Reads a Striker's boost for this attack: the condition, the extra damage (none unless the
/// hit deals damage), and where a Blaster's goes. Other boosts are returned as they are.
pub fn refine(s: &State, b: Boost, u: UnitIdx, target: UnitIdx, def: &PowerDef, roll: i32, damage: bool) -> Boost {
    let Boost::Striker(_) = b else { return b };
    let met = condition(s, u, target, def);
    let extra = if damage { amount(met, roll, s.unit(u).level) } else { 0 };
    let splash = (spec(s, u) == Some("blaster")).then(|| splash_shape(s, u, target, def));
    Boost::Striker(Strike { met, extra, splash })
}

/// Whether a Glancing Hit (a 3) gives both damage and Effect: a Striker whose condition holds.
pub fn both_on_three(s: &State, u: UnitIdx, target: UnitIdx, def: &PowerDef) -> bool {
    matches!(boost_of(s, u), Some(Boost::Striker(_))) && condition(s, u, target, def)
}

/// The Hunter's extra damage on roll `roll`: against Creeps and Summoned Creatures only, 2 on
/// 2-5 and 4 on a 6 (3 and 6 from level 4).
pub fn hunter_extra(s: &State, u: UnitIdx, target: UnitIdx, roll: i32) -> i32 {
    if !matches!(s.unit(target).kind, UnitKind::Creep | UnitKind::Summon) {
        return 0;
    }
    let (low, high) = if s.unit(u).level >= 4 { (3, 6) } else { (2, 4) };
    match roll {
        2..=5 => low,
        6 => high,
        _ => 0,
    }
}

/// The extra damage boost `b` adds to a hit that deals damage, with attack roll `roll`.
pub fn extra_damage(s: &State, b: Boost, user: UnitIdx, target: UnitIdx, roll: i32) -> i32 {
    let x = s.unit(user);
    match b {
        Boost::Smasher if x.hp >= x.max_hp => 1, // at full HP: 1 more damage
        Boost::Striker(st) if st.splash.is_none() => st.extra, // a Blaster's goes elsewhere
        // The rival Blaster's stat block (Hyun Lee, L3681): with the condition met, a 5-6 also
        // deals 1 to the primary target (2 from level 4, as all its extra Striker damage).
        Boost::Striker(st) if st.met && st.extra > 0 && !x.pc && (5..=6).contains(&roll) => {
            if x.level >= 4 {
                2
            } else {
                1
            }
        }
        Boost::Hunter => hunter_extra(s, user, target, roll),
        _ => 0,
    }
}

/// The points of its own Special Ward `u` holds (never one it gave an ally, nor another
/// Wardmaster's).
pub fn own_special(s: &State, u: UnitIdx) -> i32 {
    let x = s.unit(u);
    if x.special_from == Some(u) { x.special_ward } else { 0 }
}

/// Whether the attack's hit asks the peel question: a peeling power, asked once per attack
/// (Ward Burst's choice serves every target hit), while the attacker holds its own Special Ward.
pub fn peel_offer(s: &State, a: &crate::engine::frames::AttackFrame, def: &PowerDef) -> bool {
    def.peel && !a.peel_asked && own_special(s, a.attacker) > 0
}

/// The damage the peel adds to a hit that deals damage.
pub fn peel_damage(a: &crate::engine::frames::AttackFrame, dealing: bool) -> i32 {
    if dealing { a.peel } else { 0 }
}

/// Death Ward: before `target` is Taken Out by an attack (or an Opportunity) of `by`, the curses
/// that answer it; [`death_ward_fires`] applies them once the Take Out is done.
pub fn death_wards(s: &State, target: UnitIdx, by: Option<UnitIdx>) -> Vec<crate::engine::records::curses::Curse> {
    let Some(b) = by else { return Vec::new() };
    if !s.enemies(b, target) {
        return Vec::new(); // only an attacking enemy
    }
    s.curses
        .iter()
        .filter(|c| c.on == crate::engine::records::curses::CurseOn::AttackTakesOut && c.target == target)
        .cloned()
        .collect()
}

/// Empowering Staff: how much larger `u`'s burst or area with `def` is — 1 for an attack
/// (K-ACT-10), 0 otherwise. A square area grows from 3x3 to 4x4; a burst's radius by 1.
pub fn area_growth(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> i32 {
    i32::from(has_advanced(s, u, Advanced::EmpoweringStaff) && def.is_attack())
}

/// Long Sword: `attacker` may reach `target` in melee across the air-ground line, next to it.
pub fn melee_across_air(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    has_advanced(s, attacker, Advanced::LongSword) && s.distance(attacker, target) == Some(1)
}

/// Whether `u`'s implement takes no hand (Wristwand, K-ORB-6).
pub fn handless(s: &State, u: UnitIdx) -> bool {
    has_advanced(s, u, Advanced::Wristwand)
}

/// Extra damage on a Basic Physical Attack (Spiked Staff), unless Disarmed.
pub fn physical_bonus(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> i32 {
    let spiked = has_advanced(s, u, Advanced::SpikedStaff) && !s.has(u, StatusKind::Disarmed);
    if spiked && def.id == "basic-physical-attack" { 1 } else { 0 }
}

/// Whether a sword's +1 applies to `attacker`'s implement attack on `target` (K-IMP-7):
/// not against a sword carrier unless Duelling; never against a Parrying Wand unless Duelling.
pub fn sword_bonus_applies(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    let duelling = has_advanced(s, attacker, Advanced::DuellingSword);
    let blocked = s.unit(target).implement == Implement::Sword || has_advanced(s, target, Advanced::ParryingWand);
    duelling || !blocked
}

/// Extra reach for taking Opportunities (Defender's Sword).
pub fn opportunity_reach_bonus(s: &State, u: UnitIdx) -> i32 {
    if has_advanced(s, u, Advanced::DefendersSword) { 1 } else { 0 }
}

/// Whether a unit may carry orbs: only athletes and Creeps (see rulings).
pub fn holds_orbs(u: &Unit) -> bool {
    matches!(u.kind, UnitKind::Athlete | UnitKind::Creep)
}

/// How far a Throwing Sword flies.
pub const THROW_RANGE: i32 = 5;

/// Implement range for attacks, from `range` (Long Sword: +1; Throwing Sword: out to 5).
/// Opportunities keep the range before it ([`opportunity_range`]).
pub fn sword_range(s: &State, u: UnitIdx, range: i32) -> i32 {
    if has_advanced(s, u, Advanced::LongSword) {
        range + 1
    } else if has_advanced(s, u, Advanced::ThrowingSword) {
        range.max(THROW_RANGE)
    } else {
        range
    }
}

/// Implement range (K-IMP-2, K-IMP-5, K-IMP-7, K-OPP-4), with the features and advanced implements that change it.
impl State {
    /// Implement range of `u` (K-OPP-4; Spellwarp Sniper's 10).
    pub fn implement_range(&self, u: UnitIdx) -> i32 {
        let r = sniper_staff_bonus(self, u) + self.base_implement_range(u);
        let r = sword_range(self, u, r); // Long Sword, Throwing Sword
        focus_range(self, u).map_or(r, |f| r.max(f)) // Focus
    }
    /// Implement range before advanced implements.
    pub fn base_implement_range(&self, u: UnitIdx) -> i32 {
        spellwarp_range(self, u, self.unit(u).implement_range(self.reach(u)))
    }
}

/// Implement range as features change it: Spellwarp Sniper's wand or staff reaches 10.
pub fn spellwarp_range(s: &State, u: UnitIdx, base: i32) -> i32 {
    let un = s.unit(u);
    if matches!(un.implement, Implement::Wand | Implement::Staff) && un.features.contains(&Feature::SpellwarpSniper) {
        return base.max(10);
    }
    base
}

/// Whether a unit stands in its square the way a creature does: traps and conjured creatures
/// do not (others may move through and stop on them, K-DEF-5; see rulings).
pub fn occupies(u: &Unit) -> bool {
    !matches!(u.kind, UnitKind::Trap | UnitKind::Conjured) && !crate::engine::appliers::riding(u) // a Pest rides its host
}

/// Square queries: a placed thing that occupies no square (K-DEF-5) is not found on one.
impl State {
    /// The unit standing on square `p`, if any: a creature sharing it with a Mob before the
    /// Mob (K-CTYPE-8).
    pub fn unit_at(&self, p: Pos) -> Option<UnitIdx> {
        let mut there = self.units_on_map().filter(|&u| occupies(self.unit(u))).filter(|&u| {
            let un = self.unit(u);
            fray_core::geometry::distance(un.pos.unwrap(), un.size, p, 1) == 0
        });
        let first = there.next()?;
        let mob = |u: UnitIdx| self.creep_def(u).is_some_and(|d| d.mob);
        if !mob(first) {
            return Some(first);
        }
        Some(there.find(|&u| !mob(u)).unwrap_or(first))
    }
}

/// Converts a power's `until` into a duration for `target`, applied by `user`.
pub fn duration_for(s: &State, user: UnitIdx, target: UnitIdx, until: Option<Until>) -> Duration {
    match until.unwrap_or(Until::EndOfTargetsNextTurn) {
        Until::EndOfTargetsNextTurn => {
            chant_duration(s, user, target) // Jinxer
                .unwrap_or(Duration::EndOfTurn { unit: target, turn: s.unit(target).turns_started + 1 })
        }
        Until::EndOfUsersNextTurn => Duration::EndOfTurn { unit: user, turn: s.unit(user).turns_started + 1 },
        Until::StartOfTargetsNextTurn => Duration::StartOfTurn { unit: target, turn: s.unit(target).turns_started + 1 },
        Until::StartOfUsersNextTurn => Duration::StartOfTurn { unit: user, turn: s.unit(user).turns_started + 1 },
        Until::SaveEnds => Duration::SaveEnds,
        Until::SaveSustains => Duration::SaveSustains,
        Until::EscapeEnds => Duration::EscapeEnds,
        Until::Indefinite => Duration::Indefinite,
        Until::UntilYouAttack => Duration::Other(crate::engine::records::statuses::Lingers::UntilAttack),
    }
}

/// Whether `attacker` passed through `target`'s square this turn (Wraith Charm's record).
pub fn passed_through(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| {
        m.kind == ModifierKind::PassedThrough
            && m.attackers == crate::engine::records::modifiers::Attackers::Unit(attacker)
            && m.against == Some(target)
    })
}

/// The Pest riding `h`, if any.
pub fn pest_on(s: &State, h: UnitIdx) -> Option<UnitIdx> {
    s.units_on_map().find(|&p| crate::engine::appliers::host(s.unit(p)) == Some(h))
}

/// L1379: a creature carrying a Pest has Disadvantage on its attacks, except against the Pest.
pub fn burdened(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    pest_on(s, attacker).is_some_and(|p| p != target)
}

/// L1379: whom an attack that missed `target` hits instead: the host of a riding Pest, when the
/// attacker is someone else and the host is not one of this attack's own targets (see rulings).
pub fn redirect_to(s: &State, attacker: UnitIdx, target: UnitIdx, targets: &[UnitIdx]) -> Option<UnitIdx> {
    let t = s.unit(target);
    let h = crate::engine::appliers::host(t).filter(|_| t.on_map())?;
    (h != attacker && s.unit(h).on_map() && !targets.contains(&h)).then_some(h)
}

/// The power whose warps are attack origins (source-warp, L962-968).
pub const SOURCE_WARP: &str = "source-warp";

/// The squares of `u`'s Source Warps (one, two with Warp Specialist).
pub fn source_warps(s: &State, u: UnitIdx) -> Vec<Pos> {
    s.porter.warps.iter().filter(|w| w.owner == u && s.powers.get(w.power).id == SOURCE_WARP).map(|w| w.at).collect()
}

/// Squares `u` takes Opportunities from besides its own: its Source Warps'.
pub fn warp_vantages(s: &State, u: UnitIdx) -> Vec<Pos> {
    if s.unit(u).on_map() { source_warps(s, u) } else { Vec::new() }
}

/// Reads a `<unit>@x,y` menu option: a target reached from the Source Warp at x,y.
pub fn parse_warp_option(s: &State, option: &str) -> Option<(UnitIdx, Pos)> {
    // The last `@`: a unit's id may hold one itself (fuzzing found a Creep group named so).
    let (id, at) = option.rsplit_once('@')?;
    Some((s.find_unit(id)?, Pos::parse(at)?))
}

/// Distance from a warp's square to `t`.
pub fn warp_distance(s: &State, at: Pos, t: UnitIdx) -> Option<i32> {
    let tu = s.unit(t);
    Some(distance(at, 1, tu.pos?, tu.size))
}

/// Whether `u` already got what `why` gives through an Empath's copy in this step: the effect
/// then covers it once, not twice.
pub fn empathy_copied(s: &State, u: UnitIdx, why: &str) -> bool {
    s.empathy.seen.iter().any(|(w, y, copy)| *w == u && y == why && *copy)
}

/// The range a delivery power reaches instead of its implement's, if it says one.
pub fn brew_range(def: &PowerDef) -> Option<i32> {
    def.delivers.as_ref().and_then(|d| d.range)
}

/// Elixirs that may be drunk as a Reaction to taking damage (Phoenix Elixir, L1475).
const REACTION_ELIXIRS: &[&str] = &["phoenix-elixir"];

/// The different Elixirs `u` carries that it may drink as a Reaction to taking damage.
pub fn reaction_elixirs(s: &State, u: UnitIdx) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    if brews_locked(s, u) {
        return out; // Kill Switch
    }
    for e in &s.unit(u).brewer.elixirs {
        if REACTION_ELIXIRS.contains(&s.powers.get(e.power).id.as_str()) && !out.contains(&e.power) {
            out.push(e.power);
        }
    }
    out
}

/// Potent Edge from level 5 (Improved At-Wills): 1 more damage for each Potion the attack
/// carries from the blade beyond the first.
pub fn brew_edge_bonus(s: &State, user: UnitIdx, def: &PowerDef, brew: &[u16]) -> i32 {
    if def.delivers.as_ref().is_some_and(|d| d.blade) && s.unit(user).level >= 5 {
        (brew.len() as i32 - 1).max(0)
    } else {
        0
    }
}

/// An Encounter Potion raises the attack's damage line by 1 (L1485).
pub fn brew_line_bonus(s: &State, brew: &[u16]) -> i32 {
    i32::from(brew.iter().any(|&p| s.powers.get(p).frequency == crate::content::powers::Frequency::Encounter))
}

/// Whether `u`'s Potions and Elixirs are locked after Kill Switch.
pub fn brews_locked(s: &State, u: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| {
        m.kind == ModifierKind::BrewsLocked && m.attackers == crate::engine::records::modifiers::Attackers::Unit(u)
    })
}

/// The Specialists' boost trap's `what` (its unit id is `<owner>-trapper-trap`).
pub const TRAPPER_TRAP: &str = "trapper-trap";

/// Whether `u` has specialization `spec` (K-ROLE-3).
pub fn is_specialist(s: &State, u: UnitIdx, spec: &str) -> bool {
    s.unit(u).specialization.as_deref() == Some(spec)
}

/// Whether the top frame is a Runner's pending save against an Opportunity (L2047).
pub fn dodge_pending(s: &State) -> bool {
    matches!(
        s.flow.last(),
        Some(crate::engine::frames::Frame::Spec(crate::engine::frames::roles::SpecFrame::Dodge { .. }))
    )
}

/// Terrain Artist feature (L2089): Difficult Terrain costs it no extra movement.
pub fn ignores_difficult(s: &State, unit: UnitIdx) -> bool {
    is_specialist(s, unit, "terrain-artist")
}

/// Damage the Trapper's boost trap deals: 2, 3 from its owner's level 4.
pub fn trap_damage(s: &State, owner: Option<UnitIdx>) -> i32 {
    if owner.is_some_and(|o| s.unit(o).level >= 4) { 3 } else { 2 }
}

/// How far Lockdown's Difficult Terrain spreads around the Controller (L1855).
const LOCKDOWN_REACH: i32 = 2;

/// Whether `u` has role `role` (and specialization `spec`, if given; K-ROLE-3).
pub fn is_role(s: &State, u: UnitIdx, role: &str, spec: Option<&str>) -> bool {
    let x = s.unit(u);
    x.role.as_deref() == Some(role) && spec.is_none_or(|sp| x.specialization.as_deref() == Some(sp))
}

/// The Opportunity damage `taker`'s role adds: 1 for every Defender (L1877), 1 for a Guardian
/// Controller (L1847). Level 8's +2 lies beyond Fray's levels.
pub fn opportunity_bonus(s: &State, taker: UnitIdx) -> i32 {
    i32::from(is_role(s, taker, "defender", None)) + i32::from(is_role(s, taker, "controller", Some("guardian")))
}

/// Resist that role features give `target` against damage from `source` (K-ST-Resist: each a
/// source of its own, so they add up): a Defender's 1 against an enemy it has Marked (L1877);
/// 1 for each Protector Controller standing next to it, its ally (L1865).
pub fn resist(s: &State, target: UnitIdx, source: Option<UnitIdx>) -> i32 {
    let marked = source.is_some_and(|src| {
        is_role(s, target, "defender", None)
            && s.enemies(target, src)
            && s.unit(src).on_map()
            && s.status_from(src, StatusKind::Marked, target).is_some()
    });
    let protectors = s
        .units_on_map()
        .filter(|&p| {
            p != target
                && !s.enemies(p, target)
                && is_role(s, p, "controller", Some("protector"))
                && s.distance(p, target) == Some(1)
        })
        .count() as i32;
    i32::from(marked) + protectors
}

/// Lockdown (L1855): the footprints of `mover`'s enemies whose squares within 2 count as
/// Difficult Terrain for it (movement.rs reads them with the terrain).
pub fn lockdown_zones(s: &State, mover: UnitIdx) -> Vec<(Pos, i32)> {
    s.units_on_map()
        .filter(|&c| s.enemies(mover, c) && is_role(s, c, "controller", Some("lockdown")))
        .map(|c| (s.unit(c).pos.unwrap(), s.unit(c).size))
        .collect()
}

/// Whether square `q` lies in one of the Lockdown zones `zones`.
pub fn in_lockdown(zones: &[(Pos, i32)], q: Pos) -> bool {
    zones.iter().any(|&(p, size)| distance(p, size, q, 1) <= LOCKDOWN_REACH)
}

// ------------------------------------------------------------------ Kinds of unit (K-DEF-2)

/// Whether powers can move it (push, pull, slide, throw, teleport, swap, banish): traps, walls
/// and conjured creatures stay where they were put (see rulings).
pub fn movable(u: &Unit) -> bool {
    !matches!(u.kind, UnitKind::Trap | UnitKind::Wall | UnitKind::Conjured)
}

/// Whether a unit blocks everyone's way, allies' too (walls).
pub fn blocks_all(u: &Unit) -> bool {
    u.kind == UnitKind::Wall
}

/// Whether a power can give it actions (a Move Action, an attack): only athletes, Creeps and
/// summoned creatures; automata act only as described (L1369).
pub fn takes_actions(u: &Unit) -> bool {
    matches!(u.kind, UnitKind::Athlete | UnitKind::Creep | UnitKind::Summon)
}

/// Whether a unit may take Opportunities (and flank): automata deal none (K-OPP-13); traps,
/// walls and conjured creatures never attack.
pub fn takes_opportunities(u: &Unit) -> bool {
    matches!(u.kind, UnitKind::Athlete | UnitKind::Creep | UnitKind::Summon)
}

/// Whether a status cannot be given to `u`: traps and walls take none (K-DEF-2); automata take
/// no mental status (L1371).
pub fn immune(u: &Unit, kind: StatusKind) -> bool {
    use StatusKind::*;
    match u.kind {
        UnitKind::Trap | UnitKind::Wall => true,
        UnitKind::Automaton => matches!(kind, Distracted | Dazed | Stunned | Dominated | Panicked | Frenzied),
        _ => false,
    }
}

/// Whether every attack roll against `t` counts as a 5 (the Specialist's Wall, L2205).
pub fn rolls_five(s: &State, t: UnitIdx) -> bool {
    s.unit(t).kind == UnitKind::Wall && matches!(what(s, t), "specialist-wall" | "major-terrain")
}

// ------------------------------------------------------------------ Zones, traps, recharges

/// Whether `unit` may not step with its footprint at `at` by its own choice: part of it would be
/// in an enemy's Irena's Cloak square.
pub fn barred(s: &State, unit: UnitIdx, at: Pos) -> bool {
    let size = s.unit(unit).size;
    s.zones.iter().any(|z| z.kind == ZoneKind::Cloak && s.enemies(z.owner, unit) && z.touches(at, size))
}

/// Vulnerable a creature has from zones it stands in (The Friend Zone), one per zone.
pub fn zone_vulnerable(s: &State, t: UnitIdx) -> i32 {
    let u = s.unit(t);
    let Some(p) = u.pos else { return 0 };
    s.zones
        .iter()
        .filter(|z| z.kind == ZoneKind::VulnerableEnemies && z.touches(p, u.size) && s.enemies(z.owner, t))
        .map(|z| z.amount)
        .sum()
}

/// Whether `u` may target `t` whatever the range: `t` is in `u`'s Revelation zone.
pub fn revealed_to(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    let tu = s.unit(t);
    tu.pos.is_some_and(|p| s.zones.iter().any(|z| z.kind == ZoneKind::Reveal && z.owner == u && z.touches(p, tu.size)))
}

/// Damage `amount` from `source` to `target` comes to 0: a Staff Trap can only be damaged by an
/// enemy next to it (L1316), an Imp Flamestaff only by a creature next to it (L2492; damage
/// with no creature dealing it, terrain's, none at all).
pub fn shielded(s: &State, target: UnitIdx, source: Option<UnitIdx>) -> bool {
    let t = s.unit(target);
    let far = |src: UnitIdx| s.distance(src, target) != Some(1);
    // A Shade (the Shadekeeper's trait) takes no damage at all.
    s.creeps.shades.iter().any(|x| x.0 == target)
        || t.placed.as_ref().is_some_and(|p| &*p.what == "staff-trap")
            && source.is_none_or(|src| !s.enemies(src, target) || far(src))
        || s.creep_def(target).is_some_and(|d| d.near_harm_only) && source.is_none_or(far)
}

/// Whether `who` is Marked by `marker`: a Marked status it gave, or the Imp Fighter's trait
/// (L2484), which marks each enemy on its group's list within its reach for as long as it stays
/// there.
pub fn marked_by(s: &State, who: UnitIdx, marker: UnitIdx) -> bool {
    s.status_from(who, StatusKind::Marked, marker).is_some()
        || s.creep_def(marker).is_some_and(|d| d.reach_marks)
            && s.unit(marker).on_map()
            && counts_as_enemy(s, marker, who)
            && s.distance(marker, who).is_some_and(|d| d <= s.reach(marker))
}

/// The Imp Grappler (L2490): while `target` holds an enemy Grabbed, any other enemy attacks it
/// with Disadvantage.
pub fn grapple_guarded(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    s.creep_def(target).is_some_and(|d| d.grapple_guard)
        && s.units_on_map().any(|v| v != attacker && s.status_from(v, StatusKind::Grabbed, target).is_some())
}

/// Spent Encounter powers a Taken Out unit may recharge (K-DUN-3).
pub fn recharge_options(s: &State, unit: UnitIdx) -> Vec<fray_core::decision::DecisionOption> {
    s.unit(unit)
        .spent
        .iter()
        .filter(|&&p| !used_from_bag(s, unit, p)) // never the same gadget twice
        .map(|&p| {
            fray_core::decision::DecisionOption::new(
                s.powers.get(p).id.clone(),
                format!("recharge {}", s.powers.get(p).name),
            )
        })
        .collect()
}

// ------------------------------------------------------------------ Role actions (roles::role_actions)

/// `attacker`'s modifier of this kind against `target`, if it has one.
pub fn find_modifier(s: &State, kind: ModifierKind, attacker: UnitIdx, target: UnitIdx) -> Option<&Modifier> {
    s.modifiers.iter().find(|m| m.kind == kind && m.attackers == Attackers::Unit(attacker) && m.against == Some(target))
}

/// Draw a Bead: how far `attacker`'s attacks on `target` see through (1: Concealment and Low
/// Cover; 2: every Cover and Hidden too), if it drew a bead on it this turn.
pub fn bead(s: &State, attacker: UnitIdx, target: UnitIdx) -> Option<i32> {
    find_modifier(s, ModifierKind::DrawABead, attacker, target).map(|m| m.amount)
}

/// Whether Draw a Bead lets `attacker` ignore `target`'s Concealment.
pub fn bead_ignores_concealment(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    bead(s, attacker, target).is_some()
}

/// Whether `u` may target `t` although it is Hidden: an attack after a level-4 Draw a Bead on
/// it, or a level-4 Draw a Bead itself.
pub fn sees_hidden(s: &State, u: UnitIdx, t: UnitIdx, def: &crate::content::powers::PowerDef) -> bool {
    (def.hook.as_deref() == Some("draw-a-bead") && s.unit(u).level >= 4)
        || (def.is_attack() && bead(s, u, t).is_some_and(|a| a >= 2))
}

/// The creatures that count as enemies on the map for "the last enemy on the map".
pub fn enemies_on_map(s: &State, u: UnitIdx) -> usize {
    s.units_on_map().filter(|&e| s.enemies(u, e) && takes_actions(s.unit(e))).count()
}

/// Whether Spread Fire or a Creep's Miss Trigger forbids `u` to attack `t` now.
pub fn attack_forbidden(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    (find_modifier(s, ModifierKind::SpreadFire, u, t).is_some() && enemies_on_map(s, u) > 1)
        || (!s.modifiers.is_empty() && find_modifier(s, ModifierKind::Forbidden, u, t).is_some())
}

/// The strongest Boost Square under `u`'s footprint (0: none).
pub fn boost_under(s: &State, u: UnitIdx) -> i32 {
    let un = s.unit(u);
    let Some(p) = un.pos else { return 0 };
    fray_core::grid::footprint(p, un.size)
        .map(|q| match s.arena.at(q) {
            Terrain::Boost(n) => n as i32,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Extra damage a melee attack by `attacker` deals while it stands on a Boost Square.
pub fn boost_damage(s: &State, attacker: UnitIdx, def: &crate::content::powers::PowerDef) -> i32 {
    if def.is_melee(s.unit(attacker).implement == Implement::Sword) { boost_under(s, attacker) } else { 0 }
}

/// Whether a step onto `to` costs no movement: every square newly entered is a Boost Square.
pub fn free_step(s: &State, size: i32, from: Pos, to: Pos) -> bool {
    if size == 1 {
        return to != from && matches!(s.arena.at(to), Terrain::Boost(_));
    }
    let mut new = fray_core::grid::footprint(to, size).filter(|&q| distance(from, size, q, 1) > 0).peekable();
    new.peek().is_some() && new.all(|q| matches!(s.arena.at(q), Terrain::Boost(_)))
}

// ------------------------------------------------------------------ Class features (classes::features)

/// Whether `def` is a basic implement attack, or counts as one (Quickdraw...).
pub fn is_basic_implement(def: &PowerDef) -> bool {
    def.id == "basic-implement-attack" || def.basic.as_deref() == Some("implement")
}

/// Piercing Shot: `attacker`'s basic implement attack ignores Ward and Resist.
pub fn pierces(s: &State, attacker: UnitIdx, def: &PowerDef) -> bool {
    s.has_feature(attacker, Feature::PiercingShot) && is_basic_implement(def)
}

/// Ricochet Shot: `attacker`'s basic implement attack ignores cover and line of sight.
pub fn ignores_cover(s: &State, attacker: UnitIdx, def: &PowerDef) -> bool {
    s.has_feature(attacker, Feature::RicochetShot) && is_basic_implement(def)
}

/// Seeking Shot: `attacker`'s basic implement attack ignores Concealment and Hidden; Scryer:
/// nothing of the locked target's is concealed from it.
pub fn ignores_concealment(s: &State, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) -> bool {
    (s.has_feature(attacker, Feature::SeekingShot) && is_basic_implement(def)) || locked(s, attacker, target)
}

/// Whether `u` needs no line of sight to `t` for `def`: Ricochet Shot, Scryer's lock.
pub fn sees_through(s: &State, u: UnitIdx, t: UnitIdx, def: &PowerDef) -> bool {
    ignores_cover(s, u, def) || locked(s, u, t)
}

/// Scryer: a class power of `u` always has its locked target in range.
pub fn ignores_range(s: &State, u: UnitIdx, t: UnitIdx, def: &PowerDef) -> bool {
    def.class.is_some() && locked(s, u, t)
}

/// Whether `u` and `t` may trade squares: neither would then share a square with a third
/// creature that is also on the ground, or also in the air (K-ST-Flying).
pub fn swap_fits(s: &State, u: UnitIdx, t: UnitIdx) -> bool {
    let (Some(a), Some(b)) = (s.unit(u).pos, s.unit(t).pos) else { return false };
    if crate::engine::appliers::riding(s.unit(u)) || crate::engine::appliers::riding(s.unit(t)) {
        return false; // a riding Pest goes only where its host goes (the-pest)
    }
    let clash = |who: UnitIdx, at: fray_core::grid::Pos| {
        let fly = s.has(who, StatusKind::Flying);
        s.units_on_map().any(|o| {
            o != u
                && o != t
                && !crate::engine::appliers::riding(s.unit(o)) // it rides along with its host
                && s.has(o, StatusKind::Flying) == fly
                && fray_core::geometry::distance(at, s.unit(who).size, s.unit(o).pos.unwrap(), s.unit(o).size) == 0
        })
    };
    !clash(u, b) && !clash(t, a)
}

/// The Wardmaster whose Special Ward `u` holds now, if any.
pub fn warded_by(s: &State, u: UnitIdx) -> Option<UnitIdx> {
    let un = s.unit(u);
    if un.special_ward > 0 { un.special_from } else { None }
}

/// Speed from features: Motile Ward's +2 (+3 improved) while holding that Special Ward.
pub fn speed_bonus(s: &State, u: UnitIdx) -> i32 {
    match warded_by(s, u) {
        Some(w) if s.has_feature(w, Feature::MotileWard) => {
            if s.has_feature(w, Feature::ImprovedWardmaster) {
                3
            } else {
                2
            }
        }
        _ => 0,
    }
}

/// Consuming Focus: `taker` is within 3 squares of a Shivering Sword with the charm, an ally of
/// `granter` (other than `granter`) and an enemy of `taker`, so it may not take the Opportunity.
pub fn consumed(s: &State, taker: UnitIdx, granter: UnitIdx) -> bool {
    s.units_on_map().any(|w| {
        w != granter
            && !s.enemies(w, granter)
            && s.enemies(w, taker)
            && s.has_feature(w, Feature::ConsumingFocus)
            && s.distance(w, taker).is_some_and(|d| d <= 3)
    })
}

/// Tinker Armor and Tinker Cloak: whether `target` is Guarded against this attack by `attacker`.
/// Melee attacks are the Armor's; ranged attacks (every single-target attack that is not melee;
/// bursts and areas are neither) are the Armor's from an adjacent enemy, the Cloak's otherwise.
pub fn guarded(s: &State, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) -> bool {
    let (armor, cloak) = (s.has_feature(target, Feature::TinkerArmor), s.has_feature(target, Feature::TinkerCloak));
    if !(armor || cloak) || !s.enemies(attacker, target) {
        return false;
    }
    let melee = def.is_melee(s.unit(attacker).implement == Implement::Sword);
    use crate::content::powers::Targeting as T;
    let area = !matches!(def.target, T::Melee | T::Implement | T::Ranged { .. } | T::Creature { .. } | T::Ally { .. });
    let adjacent = s.distance(attacker, target) == Some(1);
    (armor && (melee || (adjacent && !area))) || (cloak && !melee && !area && !adjacent)
}

/// The eight directions a Directional Shield can face, as steps on the grid (y grows southward).
pub const DIRECTIONS: [(&str, (i32, i32)); 8] = [
    ("n", (0, -1)),
    ("ne", (1, -1)),
    ("e", (1, 0)),
    ("se", (1, 1)),
    ("s", (0, 1)),
    ("sw", (-1, 1)),
    ("w", (-1, 0)),
    ("nw", (-1, -1)),
];

/// Directional Shield: Resist 2 against damage `source` deals `target` from the guarded half of
/// the map (centre to centre, strictly beyond the line through the target's centre square to the
/// direction), unless it is a melee attack.
pub fn shield_resist(s: &State, target: UnitIdx, source: Option<UnitIdx>, melee: bool) -> i32 {
    let Some(src) = source else { return 0 };
    let (dir, _) = s.counter(target, Feature::DirectionalShield);
    if dir == 0 || melee || src == target || !s.has_feature(target, Feature::DirectionalShield) {
        return 0;
    }
    let (tu, su) = (s.unit(target), s.unit(src));
    let (Some(tp), Some(sp)) = (tu.pos, su.pos) else { return 0 };
    let (dx, dy) = DIRECTIONS[(dir - 1) as usize].1;
    let rx = (2 * sp.x + su.size) - (2 * tp.x + tu.size);
    let ry = (2 * sp.y + su.size) - (2 * tp.y + tu.size);
    if rx * dx + ry * dy > 0 { 2 } else { 0 }
}

/// Misty Charge is in force on `u` (movement.rs and the Charge's strike ask).
pub fn misty_charge(s: &State, u: UnitIdx) -> bool {
    s.has_feature(u, Feature::MistyCharge)
}

// Creep groups' Enemies Lists (K-CAI-1): read here so that Opportunities (`rules::opportunity`)
// can ask them without importing the Creep AI.

/// The group `u` belongs to.
pub fn group_of(s: &State, u: UnitIdx) -> Option<u8> {
    s.creeps.groups.iter().position(|g| g.members.iter().any(|m| m.0 == u)).map(|g| g as u8)
}

/// Whether `u` is on group `g`'s Enemies List.
pub fn is_enemy(s: &State, g: u8, u: UnitIdx) -> bool {
    s.creeps.groups[g as usize].enemies.iter().any(|e| e.unit == u)
}

/// Who joins for `actor`: itself, and a summon's or trap's owner too (K-CAI-2).
pub fn joiners(s: &State, actor: UnitIdx) -> Vec<UnitIdx> {
    let u = s.unit(actor);
    if !joins(s, actor) {
        return Vec::new();
    }
    let mut out = vec![actor];
    if let Some(o) = u.placed.as_ref().and_then(|p| p.owner)
        && !out.contains(&o)
    {
        out.push(o);
    }
    out
}

/// Whether anyone joins for `actor` ([`joiners`] is not empty): no Creep or neutral does.
pub fn joins(s: &State, actor: UnitIdx) -> bool {
    let u = s.unit(actor);
    !(u.kind == UnitKind::Creep || u.side == crate::engine::arena::Side::Neutral)
}

/// Whether `actor` dealing damage to `target` would put someone new on a Creep group's list:
/// the cost of an Opportunity on a Creep, which makes taking one a choice (rulings, K-CAI-1).
pub fn would_join(s: &State, actor: UnitIdx, target: UnitIdx) -> bool {
    if s.creeps.groups.is_empty() || s.unit(target).kind != UnitKind::Creep {
        return false;
    }
    let Some(g) = group_of(s, target) else { return false };
    joiners(s, actor).into_iter().any(|w| !is_enemy(s, g, w))
}

/// Whether grouped Creep `creep` counts `u` as its enemy: only those on its group's list are
/// (L2272; rulings, K-CAI-1). Anything else is no grouped Creep and passes.
pub fn counts_as_enemy(s: &State, creep: UnitIdx, u: UnitIdx) -> bool {
    if s.creeps.groups.is_empty() || s.unit(creep).kind != UnitKind::Creep {
        return true;
    }
    group_of(s, creep).is_none_or(|g| is_enemy(s, g, u))
}
