//! Advanced implements (K-AIMP, rulebook L2217-2257): the level-3 upgrade of an athlete's wand,
//! staff or sword. Each one Fray plays is a small change to a number somewhere else — range,
//! implement bonuses, Opportunity reach and damage, Miss Tokens, what grants Opportunities — and
//! those rule areas ask here. The others stay look-up only (content/kazzam/implements.toml).

use crate::state::{Implement, State, UnitIdx};

/// An advanced implement Fray plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advanced {
    /// Defender's Sword: Opportunities reach one square further, at 1 less damage there.
    DefendersSword,
    /// Duelling Sword: the sword's +1 even against a sword carrier.
    DuellingSword,
    /// Corkscrew Staff: a Miss Token to start with, and one more each time it is Taken Out.
    CorkscrewStaff,
    /// Nimble Staff: its implement attacks grant no Opportunities.
    NimbleStaff,
    /// Sniper's Staff: implement range +2.
    SnipersStaff,
    /// Spiked Staff: Basic Physical Attack +1 damage.
    SpikedStaff,
    /// Distracting Wand: the wand's protection from Opportunities without needing a hit.
    DistractingWand,
    /// Parrying Wand: sword users get no +1 against its carrier.
    ParryingWand,
    /// Piercing Wand: implement Effects go through a Ward that soaked everything, and emptying a
    /// Ward costs 1 more.
    PiercingWand,
}

/// Ids of the advanced implements Fray plays.
pub const PLAYED: &[(&str, Advanced)] = &[
    ("defenders-sword", Advanced::DefendersSword),
    ("duelling-sword", Advanced::DuellingSword),
    ("corkscrew-staff", Advanced::CorkscrewStaff),
    ("nimble-staff", Advanced::NimbleStaff),
    ("snipers-staff", Advanced::SnipersStaff),
    ("spiked-staff", Advanced::SpikedStaff),
    ("distracting-wand", Advanced::DistractingWand),
    ("parrying-wand", Advanced::ParryingWand),
    ("piercing-wand", Advanced::PiercingWand),
];

impl Advanced {
    /// The one called `id`, if Fray plays it.
    pub fn parse(id: &str) -> Option<Advanced> {
        PLAYED.iter().find(|(i, _)| *i == id).map(|(_, a)| *a)
    }
    /// Its id.
    pub fn id(self) -> &'static str {
        PLAYED.iter().find(|(_, a)| *a == self).map(|(i, _)| *i).unwrap_or("")
    }
    /// The implement it upgrades.
    pub fn implement(self) -> Implement {
        match self {
            Advanced::DefendersSword | Advanced::DuellingSword => Implement::Sword,
            Advanced::CorkscrewStaff | Advanced::NimbleStaff | Advanced::SnipersStaff | Advanced::SpikedStaff => {
                Implement::Staff
            }
            Advanced::DistractingWand | Advanced::ParryingWand | Advanced::PiercingWand => Implement::Wand,
        }
    }
}

/// Whether `u` has advanced implement `a`, in hand (the implement it upgrades, not stowed).
pub fn has(s: &State, u: UnitIdx, a: Advanced) -> bool {
    let un = s.unit(u);
    un.advanced == Some(a) && un.implement == a.implement()
}

/// Extra implement range (Sniper's Staff).
pub fn range_bonus(s: &State, u: UnitIdx) -> i32 {
    if has(s, u, Advanced::SnipersStaff) { 2 } else { 0 }
}

/// Whether a sword's +1 applies to `attacker`'s implement attack on `target` (K-IMP-7):
/// not against a sword carrier unless Duelling; never against a Parrying Wand unless Duelling.
pub fn sword_bonus_applies(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    let duelling = has(s, attacker, Advanced::DuellingSword);
    let blocked = s.unit(target).implement == Implement::Sword || has(s, target, Advanced::ParryingWand);
    duelling || !blocked
}

/// Extra reach for taking Opportunities (Defender's Sword).
pub fn opportunity_reach_bonus(s: &State, u: UnitIdx) -> i32 {
    if has(s, u, Advanced::DefendersSword) { 1 } else { 0 }
}

/// Extra damage on a Basic Physical Attack (Spiked Staff), unless Disarmed.
pub fn physical_bonus(s: &State, u: UnitIdx, def: &crate::powers::PowerDef) -> i32 {
    let spiked = has(s, u, Advanced::SpikedStaff) && !s.has(u, crate::statuses::StatusKind::Disarmed);
    if spiked && def.id == "basic-physical-attack" { 1 } else { 0 }
}
