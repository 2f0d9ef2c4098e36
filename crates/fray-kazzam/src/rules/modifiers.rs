//! Lingering attack modifiers (K-ADV): what a power leaves behind on the attacks of others —
//! "your allies' attacks against it have Advantage until the end of its next turn", "its first
//! attack roll next turn has Advantage", "attacks against it have Disadvantage". Powers lay them
//! down with the `modifier` Effect primitive; attack rolls read them through [`roll_flags`], and a
//! modifier good for the first roll only is used up by it. Beyond the roll, a modifier may add
//! damage to a hit ([`extra_damage`], used up by the first hit when `first`), add to a creature's
//! speed ([`speed_bonus`]), make the targets of someone's attacks count as Guarded
//! ([`targets_guarded`]), or make someone's attacks hit as a 6 but deal no damage
//! ([`auto_six`], [`deals_no_damage`]).

use crate::engine::events::Event;
use crate::engine::kit::Ctx;
pub use crate::engine::records::modifiers::Modifier;
pub use crate::engine::records::modifiers::{Attackers, ModifierKind};
pub use crate::engine::records::modifiers::{ModifierDef, Party};
use crate::engine::state::{State, UnitIdx};
pub use crate::rules::query::reach_bonus;
use crate::rules::statuses::Duration;

impl Modifier {
    /// Whether it changes an attack roll of `attacker` against `target`, now.
    pub fn applies(&self, s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
        let who = match self.attackers {
            Attackers::Unit(u) => u == attacker,
            Attackers::AlliesOf(u) => u != attacker && !s.enemies(u, attacker),
            Attackers::Any => true,
        };
        let during = self.during.is_none_or(|(u, n)| s.current() == Some(u) && s.unit(u).turns_started == n);
        who && self.against.is_none_or(|t| t == target) && during
    }
}

/// Turns a modifier as written into one on the field, for `user`'s power on `target`.
pub fn lay(
    s: &State,
    def: &ModifierDef,
    user: UnitIdx,
    target: UnitIdx,
    power_target: UnitIdx,
    power: u16,
) -> Modifier {
    let unit = |p: Party| match p {
        Party::You => Some(user),
        Party::Target => Some(target),
        Party::PowerTarget => Some(power_target),
        Party::Allies | Party::Anyone => None,
    };
    let attackers = match def.attacker {
        Party::You => Attackers::Unit(user),
        Party::Target => Attackers::Unit(target),
        Party::PowerTarget => Attackers::Unit(power_target),
        Party::Allies => Attackers::AlliesOf(user),
        Party::Anyone => Attackers::Any,
    };
    let during = def.during.and_then(unit).map(|u| {
        // Its next turn: the one after the current one if it is acting now.
        (u, s.unit(u).turns_started + 1)
    });
    let duration = match (&def.until, during) {
        (None, Some((u, n))) => Duration::EndOfTurn { unit: u, turn: n },
        (until, _) => crate::rules::query::duration_for(s, user, target, *until),
    };
    Modifier {
        kind: def.kind,
        amount: def.amount,
        attackers,
        against: unit(def.against),
        first: def.first,
        during,
        duration,
        source: user,
        power,
    }
}

/// Advantage and Disadvantage that modifiers give `attacker` against `target` now, with the
/// indices of the first-roll-only ones that the roll uses up.
pub fn roll_flags(s: &State, attacker: UnitIdx, target: UnitIdx) -> (bool, bool, Vec<usize>) {
    let (mut adv, mut dis, mut used) = (false, false, Vec::new());
    for (i, m) in s.modifiers.iter().enumerate() {
        if m.applies(s, attacker, target) {
            match m.kind {
                ModifierKind::Advantage => adv = true,
                ModifierKind::Disadvantage => dis = true,
                _ => continue,
            }
            if m.first {
                used.push(i);
            }
        }
    }
    (adv, dis, used)
}

/// Vulnerable that counts only against `attacker`'s attacks on `target` (Victimize).
pub fn vulnerable_to(s: &State, attacker: UnitIdx, target: UnitIdx) -> i32 {
    s.modifiers
        .iter()
        .filter(|m| m.kind == ModifierKind::Vulnerable && m.applies(s, attacker, target))
        .map(|m| m.amount)
        .sum()
}

/// Extra damage `taker`'s Opportunity on `target` deals (Inhale, Exhale).
pub fn opportunity_bonus(s: &State, taker: UnitIdx, target: UnitIdx) -> i32 {
    s.modifiers
        .iter()
        .filter(|m| m.kind == ModifierKind::OpportunityDamage && m.applies(s, taker, target))
        .map(|m| m.amount)
        .sum()
}

/// Whether an attack by `attacker` at `targets` leaves out the maker of a You're Mine on it.
pub fn spurned(s: &State, attacker: UnitIdx, targets: &[UnitIdx]) -> bool {
    s.modifiers.iter().any(|m| {
        m.kind == ModifierKind::Spurned && m.attackers == Attackers::Unit(attacker) && !targets.contains(&m.source)
    })
}

/// Modifiers that end when their maker is Taken Out (You're Mine).
pub fn maker_taken_out(cx: &mut Ctx, unit: UnitIdx) {
    for i in (0..cx.s.modifiers.len()).rev() {
        if cx.s.modifiers[i].source == unit && cx.s.modifiers[i].kind == ModifierKind::Spurned {
            cx.emit(Event::ModifierEnded { index: i, why: "its maker was Taken Out".into() });
        }
    }
}

/// How much bigger `u`'s next Special Ward is (Ward Boost).
pub fn ward_boost(s: &State, u: UnitIdx) -> i32 {
    s.modifiers
        .iter()
        .filter(|m| m.kind == ModifierKind::WardBoost && m.attackers == Attackers::Unit(u))
        .map(|m| m.amount)
        .sum()
}

/// The Special Ward has been handed out: Ward Boost is used up.
pub fn ward_boost_used(cx: &mut Ctx, u: UnitIdx) {
    for i in (0..cx.s.modifiers.len()).rev() {
        if cx.s.modifiers[i].kind == ModifierKind::WardBoost && cx.s.modifiers[i].attackers == Attackers::Unit(u) {
            cx.emit(Event::ModifierEnded { index: i, why: "the Special Ward was handed out".into() });
        }
    }
}

/// The Let's End This modifier that applies to `attacker`'s attack on `target`, if any.
pub fn execution(s: &State, attacker: UnitIdx, target: UnitIdx) -> Option<usize> {
    s.modifiers.iter().position(|m| m.kind == ModifierKind::Execution && m.applies(s, attacker, target))
}

/// Uses up first-roll-only modifiers (indices from [`roll_flags`]).
pub fn use_up(cx: &mut Ctx, used: Vec<usize>) {
    for i in used.into_iter().rev() {
        cx.emit(Event::ModifierEnded { index: i, why: "used on an attack roll".into() });
    }
}

/// Ends the modifiers whose duration matches (end or start of a turn), and any whose one turn
/// is over.
pub fn expire(cx: &mut Ctx, mut f: impl FnMut(&Duration) -> bool, why: &str) {
    for i in (0..cx.s.modifiers.len()).rev() {
        if f(&cx.s.modifiers[i].duration) {
            cx.emit(Event::ModifierEnded { index: i, why: why.into() });
        }
    }
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::ModifiersExpired, 0); // Enlarging Charm
}

/// Extra damage modifiers add to a hit of `attacker` on `target`; first-hit-only ones are used
/// up (Assault Charm: "its first successful attack deals 2 more").
pub fn extra_damage(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) -> i32 {
    let mut total = 0;
    let mut used = Vec::new();
    for (i, m) in cx.s.modifiers.iter().enumerate() {
        if m.kind == ModifierKind::ExtraDamage && m.applies(cx.s, attacker, target) {
            total += m.amount;
            if m.first {
                used.push(i);
            }
        }
        // Wraith Charm: only against a creature it passed through this turn.
        if m.kind == ModifierKind::Wraith
            && m.applies(cx.s, attacker, target)
            && crate::rules::query::passed_through(cx.s, attacker, target)
        {
            total += m.amount;
        }
        // Outflank: only while its maker stands next to the target.
        if m.kind == ModifierKind::Outflank
            && m.applies(cx.s, attacker, target)
            && cx.s.distance(m.source, target) == Some(1)
        {
            total += m.amount;
            used.push(i);
        }
    }
    for i in used.into_iter().rev() {
        cx.emit(Event::ModifierEnded { index: i, why: "its extra damage was dealt".into() });
    }
    total
}

/// Speed that modifiers add to `unit` now (Surefoot Charm).
pub fn speed_bonus(s: &State, unit: UnitIdx) -> i32 {
    s.modifiers.iter().filter(|m| m.kind == ModifierKind::Speed && m.applies(s, unit, unit)).map(|m| m.amount).sum()
}

/// Whether `target` counts as Guarded against `attacker`'s attack because of a modifier
/// (Stoneskin).
pub fn targets_guarded(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| m.kind == ModifierKind::TargetsGuarded && m.applies(s, attacker, target))
}

/// Whether `attacker`'s attack on `target` rolls no die and counts as a 6 (Dispersion).
pub fn auto_six(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| m.kind == ModifierKind::HitAsSix && m.applies(s, attacker, target))
}

/// Whether `attacker`'s attacks deal no damage (Dispersion).
pub fn deals_no_damage(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    auto_six(s, attacker, target)
}

/// How far `u` can see, if a modifier limits it (Close Focus Charm).
pub fn sight_limit(s: &State, u: UnitIdx) -> Option<i32> {
    s.modifiers.iter().filter(|m| m.kind == ModifierKind::SightLimit && m.applies(s, u, u)).map(|m| m.amount).min()
}

/// Whether `attacker`'s melee attack on `target` has Advantage from a modifier.
pub fn melee_advantage(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| m.kind == ModifierKind::MeleeAdvantage && m.applies(s, attacker, target))
}

/// Whether `u` takes Opportunities against its allies instead of its enemies (Lesser Confusion).
pub fn confused(s: &State, u: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| m.kind == ModifierKind::Confused && m.applies(s, u, u))
}

/// Modifiers that last to the end of a turn or end with their maker.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_taken_out(10, "you-re-mine", |cx, unit, _, _| maker_taken_out(cx, unit));
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 50, "K-ADV", |cx, unit| {
        let turn = cx.s.unit(unit).turns_started;
        expire(
            cx,
            |d| matches!(d, Duration::EndOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
            "end of turn",
        );
    });
}

/// Whether a charm of `charmer` that hit `target` gives the Charmer's Role Boost away instead of
/// using it: a rival Charmer's (a non-player athlete) on an ally, as every rival Charmer's stat
/// block prints (L2831, L4099). Player Charmers use their boost themselves (see rulings).
pub fn gifts(s: &State, charmer: UnitIdx, target: UnitIdx) -> bool {
    !s.unit(charmer).pc && target != charmer && !s.enemies(charmer, target)
}

/// Gives `charmer`'s Role Boost to the ally it charmed with `power`, for the ally's next attack
/// roll (kept until the end of the ally's next turn at most).
pub fn gift(cx: &mut Ctx, charmer: UnitIdx, ally: UnitIdx, power: u16) {
    let until = Some(crate::rules::statuses::Until::EndOfTargetsNextTurn);
    let m = Modifier {
        kind: ModifierKind::GiftedBoost,
        amount: 0,
        attackers: Attackers::Unit(ally),
        against: None,
        first: true,
        during: None,
        duration: crate::rules::query::duration_for(cx.s, charmer, ally, until),
        source: charmer,
        power,
    };
    let name = format!("{}'s Role Boost, given to {}", cx.s.unit(charmer).id, cx.s.unit(ally).id);
    cx.emit(Event::ModifierAdded { name, modifier: m });
}

/// The first attack roll of `attacker` uses up a Role Boost given to it; returns its giver.
pub fn take_gift(cx: &mut Ctx, attacker: UnitIdx) -> Option<UnitIdx> {
    let i =
        cx.s.modifiers
            .iter()
            .position(|m| m.kind == ModifierKind::GiftedBoost && m.attackers == Attackers::Unit(attacker))?;
    let giver = cx.s.modifiers[i].source;
    cx.emit(Event::ModifierEnded { index: i, why: "its attack roll carried it".into() });
    Some(giver)
}
