//! The Tamer's creatures as the core rules see them: who commands them, whose roll their attacks
//! are, what they change in attacks, Opportunities and forced movement. Read-only questions on
//! the data layer, so the rules ask them without importing the Tamer's class file (issue 12);
//! what the Tamer *does* lives in `classes::tamer` and reaches the rules through the hook table
//! (`hooks::Taming`).

use crate::content::hooks::TAMER_POWER as HOOKS;
use crate::content::powers::PowerDef;
use crate::engine::records::summons::Beast;
use crate::engine::state::{Implement, State, UnitIdx, UnitKind};
use crate::rules::query::{conjured, owner, what};
use crate::rules::statuses::{Status, StatusKind};
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Whether a power is one of this module's.
pub fn hooked(def: &PowerDef) -> bool {
    def.hook.as_deref().is_some_and(|h| HOOKS.contains(&h))
}

/// The Tamer's record of a summoned creature (territory, commands obeyed), or a blank one.
pub fn beast(s: &State, u: UnitIdx) -> Beast {
    s.unit(u).placed.as_ref().map(|p| p.beast).unwrap_or_default()
}

/// The Tamer's summoned creatures on the map.
pub fn creatures(s: &State, tamer: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map().filter(|&u| s.unit(u).kind == UnitKind::Summon && owner(s, u) == Some(tamer)).collect()
}

/// The summoner whose roll an attack made through `u` is (the Tamer of a summoned creature).
pub fn roller(s: &State, u: UnitIdx) -> UnitIdx {
    if s.unit(u).kind == UnitKind::Summon { owner(s, u).unwrap_or(u) } else { u }
}

/// A Tamer power names no target of its own: the creature aims (decision kind `target`).
pub fn check_verb(def: &PowerDef, targets: &[UnitIdx], creative: bool) -> Result<(), RuleError> {
    if creative {
        return Err(crate::engine::kit::refuse(
            "K-CREAT-1",
            format_args!("{} works through a creature: no Creative Use", def.name),
        ));
    }
    if !targets.is_empty() {
        return Err(RuleError::malformed(format!(
            "{} names no target: the creature's target is chosen after it is used",
            def.name
        )));
    }
    Ok(())
}

/// Extra damage on a hit through a summoned creature: the Staff Tamer's +1 on single-target
/// attacks (L1673). `None` when the attacker is no summoned creature.
pub fn implement_bonus(s: &State, attacker: UnitIdx, def: &PowerDef) -> Option<i32> {
    if s.unit(attacker).kind != UnitKind::Summon {
        return None;
    }
    let tamer = owner(s, attacker)?;
    let single = !matches!(
        def.target,
        crate::content::powers::Targeting::Burst { .. }
            | crate::content::powers::Targeting::Area { .. }
            | crate::content::powers::Targeting::None
    );
    Some(i32::from(single && s.unit(tamer).implement == Implement::Staff))
}

/// A status given to a summoned creature: Frenzied and Panicked become Dazed (L1666).
pub fn convert(s: &State, target: UnitIdx, mut st: Status) -> Status {
    if s.unit(target).kind == UnitKind::Summon && matches!(st.kind, StatusKind::Frenzied | StatusKind::Panicked) {
        st.kind = StatusKind::Dazed;
        st.amount = 0;
    }
    st
}

/// Whether unit `o` bars `mover` from its square like an enemy: a Darkfly Swarm, to its
/// Tamer's enemies (L1709).
pub fn bars(s: &State, mover: UnitIdx, o: UnitIdx) -> bool {
    s.unit(o).kind == UnitKind::Conjured && what(s, o) == "darkfly-swarm" && s.enemies(mover, o)
}

/// The squares from which `u` may take Opportunities besides its own: its Fleeting Mantises'
/// (L1705).
pub fn vantages(s: &State, u: UnitIdx) -> Vec<Pos> {
    if s.unit(u).kind == UnitKind::Conjured {
        return Vec::new();
    }
    conjured(s, "fleeting-mantis").filter(|&m| owner(s, m) == Some(u)).filter_map(|m| s.unit(m).pos).collect()
}

/// Beast Charm names one of its user's own summoned creatures (L1689).
pub fn check_beast_charm(s: &State, u: UnitIdx, def: &PowerDef, t: UnitIdx) -> Result<(), RuleError> {
    if def.effect.iter().any(|e| e.hook.as_deref() == Some("beast-charm"))
        && !(s.unit(t).kind == UnitKind::Summon && owner(s, t) == Some(u))
    {
        return Err(crate::engine::kit::refuse(
            "K-DEF-5",
            format_args!(
                "{} names one of {}'s own summoned creatures; {} is not one",
                def.name,
                s.unit(u).id,
                s.unit(t).id
            ),
        ));
    }
    Ok(())
}

/// Whether any part of a creature of `size` at `q` lies in beast `b`'s territory.
pub fn inside(s: &State, b: UnitIdx, q: Pos, size: i32) -> bool {
    beast(s, b).territory.is_some_and(|c| distance(c, 1, q, size) <= 2)
}

/// Sudden Eviction (L1793): a Giraffape's throw lands outside its territory whenever one of the
/// landing squares is.
pub fn eviction(s: &State, mover: UnitIdx, target: UnitIdx, throw: bool, mut out: Vec<Pos>) -> Vec<Pos> {
    if evicting(s, mover, target, throw, &out) {
        let size = s.unit(target).size;
        out.retain(|&q| !inside(s, mover, q, size));
    }
    out
}

/// Whether a Giraffape's throw must land outside its territory (L1793): one of `squares` is
/// outside it. Then the thrower may not stop short either (docs/rulings/kazzam.md).
pub fn evicting(s: &State, mover: UnitIdx, target: UnitIdx, throw: bool, squares: &[Pos]) -> bool {
    throw && s.unit(mover).kind == UnitKind::Summon && what(s, mover) == "giraffape" && {
        let size = s.unit(target).size;
        squares.iter().any(|&q| !inside(s, mover, q, size))
    }
}

/// A creature's own Opportunity range (the Spitting Tree's 6, L1733).
pub fn creature_opportunity_range(s: &State, u: UnitIdx) -> i32 {
    if s.unit(u).kind == UnitKind::Summon && what(s, u) == "spitting-tree" { 6 } else { 0 }
}
