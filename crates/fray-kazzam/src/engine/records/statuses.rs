//! Status records (K-ST-*); the rules about them are in [`crate::rules::statuses`].

use crate::engine::ids::UnitIdx;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Every status of the Kazzam glossary (L432-514), plus Concealed (L380).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StatusKind {
    /// K-ST-Blinded.
    Blinded,
    /// K-CONC-1: Concealed (not in the glossary, from L380).
    Concealed,
    /// K-ST-Dazed.
    Dazed,
    /// K-ST-Disarmed.
    Disarmed,
    /// K-ST-Distracted.
    Distracted,
    /// K-ST-Dominated (source = the dominator).
    Dominated,
    /// K-ST-Fierce.
    Fierce,
    /// K-ST-Flying.
    Flying,
    /// K-ST-Frenzied (source = the cause of the frenzy).
    Frenzied,
    /// K-ST-Grabbed (source = the grabber).
    Grabbed,
    /// K-ST-Guarded.
    Guarded,
    /// K-ST-Hidden.
    Hidden,
    /// K-ST-Hovering.
    Hovering,
    /// K-ST-Immobilized.
    Immobilized,
    /// K-ST-Incapacitated.
    Incapacitated,
    /// K-ST-Marked (source = the marker).
    Marked,
    /// K-ST-Nimble.
    Nimble,
    /// K-ST-Ongoing (amount = damage at the start of each turn).
    Ongoing,
    /// K-ST-Panicked (source = the cause of the panic).
    Panicked,
    /// K-ST-Phasing.
    Phasing,
    /// K-ST-Prone.
    Prone,
    /// K-ST-Reach (amount = reach).
    Reach,
    /// K-ST-Regenerate (amount = HP per turn).
    Regenerate,
    /// K-ST-Revealed.
    Revealed,
    /// K-ST-Resist-All.
    ResistAll,
    /// K-ST-Resist (amount).
    Resist,
    /// K-ST-Restrained.
    Restrained,
    /// K-ST-Retaliate (amount).
    Retaliate,
    /// K-ST-Slowed.
    Slowed,
    /// K-ST-Stunned.
    Stunned,
    /// K-ST-Vulnerable (amount).
    Vulnerable,
    /// K-ST-Weakened.
    Weakened,
}

impl StatusKind {
    /// Every status, in glossary order.
    pub const ALL: [StatusKind; 32] = [
        StatusKind::Blinded,
        StatusKind::Concealed,
        StatusKind::Dazed,
        StatusKind::Disarmed,
        StatusKind::Distracted,
        StatusKind::Dominated,
        StatusKind::Fierce,
        StatusKind::Flying,
        StatusKind::Frenzied,
        StatusKind::Grabbed,
        StatusKind::Guarded,
        StatusKind::Hidden,
        StatusKind::Hovering,
        StatusKind::Immobilized,
        StatusKind::Incapacitated,
        StatusKind::Marked,
        StatusKind::Nimble,
        StatusKind::Ongoing,
        StatusKind::Panicked,
        StatusKind::Phasing,
        StatusKind::Prone,
        StatusKind::Reach,
        StatusKind::Regenerate,
        StatusKind::Revealed,
        StatusKind::ResistAll,
        StatusKind::Resist,
        StatusKind::Restrained,
        StatusKind::Retaliate,
        StatusKind::Slowed,
        StatusKind::Stunned,
        StatusKind::Vulnerable,
        StatusKind::Weakened,
    ];

    /// Lowercase name, as views and scenario files write it.
    pub fn name(self) -> &'static str {
        match self {
            StatusKind::Blinded => "blinded",
            StatusKind::Concealed => "concealed",
            StatusKind::Dazed => "dazed",
            StatusKind::Disarmed => "disarmed",
            StatusKind::Distracted => "distracted",
            StatusKind::Dominated => "dominated",
            StatusKind::Fierce => "fierce",
            StatusKind::Flying => "flying",
            StatusKind::Frenzied => "frenzied",
            StatusKind::Grabbed => "grabbed",
            StatusKind::Guarded => "guarded",
            StatusKind::Hidden => "hidden",
            StatusKind::Hovering => "hovering",
            StatusKind::Immobilized => "immobilized",
            StatusKind::Incapacitated => "incapacitated",
            StatusKind::Marked => "marked",
            StatusKind::Nimble => "nimble",
            StatusKind::Ongoing => "ongoing",
            StatusKind::Panicked => "panicked",
            StatusKind::Phasing => "phasing",
            StatusKind::Prone => "prone",
            StatusKind::Reach => "reach",
            StatusKind::Regenerate => "regenerate",
            StatusKind::Revealed => "revealed",
            StatusKind::ResistAll => "resist-all",
            StatusKind::Resist => "resist",
            StatusKind::Restrained => "restrained",
            StatusKind::Retaliate => "retaliate",
            StatusKind::Slowed => "slowed",
            StatusKind::Stunned => "stunned",
            StatusKind::Vulnerable => "vulnerable",
            StatusKind::Weakened => "weakened",
        }
    }

    /// Parses a name, forgiving case, spaces and underscores.
    pub fn parse(s: &str) -> Option<StatusKind> {
        let norm: String = s.trim().to_lowercase().replace([' ', '_'], "-");
        let norm = norm.strip_prefix("ongoing-damage").map(|_| "ongoing").unwrap_or(&norm).to_string();
        StatusKind::ALL.into_iter().find(|k| k.name() == norm)
    }

    /// Whether the status carries a number (Ongoing 2, Resist 1...).
    pub fn has_amount(self) -> bool {
        matches!(
            self,
            StatusKind::Ongoing
                | StatusKind::Reach
                | StatusKind::Regenerate
                | StatusKind::Resist
                | StatusKind::Retaliate
                | StatusKind::Vulnerable
        )
    }

    /// Whether the status is one a creature would rather not have: these are what a
    /// roll-to-safety zone or a Creep's "recover" step cares about.
    pub fn is_negative(self) -> bool {
        !matches!(
            self,
            StatusKind::Concealed
                | StatusKind::Fierce
                | StatusKind::Flying
                | StatusKind::Guarded
                | StatusKind::Hidden
                | StatusKind::Hovering
                | StatusKind::Nimble
                | StatusKind::Phasing
                | StatusKind::Reach
                | StatusKind::Regenerate
                | StatusKind::ResistAll
                | StatusKind::Resist
                | StatusKind::Retaliate
        )
    }
}

impl fmt::Display for StatusKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How long a status lasts: the kit's typed durations (a unit's turn end or start, save ends,
/// save sustains, escape ends, until removed), with Kazzam's own two as [`Lingers`].
pub type Duration = fray_core::engine::Duration<UnitIdx, Lingers>;

/// Kazzam's durations beyond the kit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Lingers {
    /// Until the unit's next attack has fully resolved (K-CONC-4).
    UntilAttack,
    /// While `jinxer` chants a jinx at `target` (Jinxer, L744; see `classes::hexer`).
    Chant {
        /// The chanting Hexer.
        jinxer: UnitIdx,
        /// The creature it chants at.
        target: UnitIdx,
    },
}

/// One status on one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Which status.
    pub kind: StatusKind,
    /// Its number, for numbered statuses; 0 otherwise.
    pub amount: i32,
    /// The unit that applied or maintains it (grabber, marker, dominator...).
    pub source: Option<UnitIdx>,
    /// The power (index into the power list) that applied it: instances from the same
    /// source do not stack (K-ST-Ongoing, K-ST-Resist, K-ST-Vulnerable).
    pub origin: Option<u16>,
    /// How long it lasts.
    pub duration: Duration,
}

impl Status {
    /// A status with no number, source or origin.
    pub fn simple(kind: StatusKind, duration: Duration) -> Self {
        Status { kind, amount: 0, source: None, origin: None, duration }
    }
}

/// How a power's `until` names a duration, relative to the target and the user. Content writes
/// it as a name (`"save-ends"`); it is read into this type when the content loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Until {
    /// End of the target's next turn (the default, as for Creep statuses K-CRP-5).
    EndOfTargetsNextTurn,
    /// End of the user's next turn.
    EndOfUsersNextTurn,
    /// Start of the target's next turn.
    StartOfTargetsNextTurn,
    /// Start of the user's next turn.
    StartOfUsersNextTurn,
    /// Save ends.
    SaveEnds,
    /// Save sustains.
    SaveSustains,
    /// Escape ends.
    EscapeEnds,
    /// Until removed.
    Indefinite,
    /// Until the creature's next attack has fully resolved (K-CONC-4).
    UntilYouAttack,
}

impl Until {
    /// The names content may write, for error messages.
    pub const NAMES: &'static str = "end-of-next-turn, end-of-your-next-turn, start-of-next-turn, \
        start-of-your-next-turn, save-ends, save-sustains, escape-ends, until-you-attack or indefinite";

    /// The name content writes for it.
    pub fn name(self) -> &'static str {
        match self {
            Until::EndOfTargetsNextTurn => "end-of-next-turn",
            Until::EndOfUsersNextTurn => "end-of-your-next-turn",
            Until::StartOfTargetsNextTurn => "start-of-next-turn",
            Until::StartOfUsersNextTurn => "start-of-your-next-turn",
            Until::SaveEnds => "save-ends",
            Until::SaveSustains => "save-sustains",
            Until::EscapeEnds => "escape-ends",
            Until::Indefinite => "indefinite",
            Until::UntilYouAttack => "until-you-attack",
        }
    }
}

impl TryFrom<String> for Until {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        parse_until(&s).ok_or_else(|| format!("unknown duration {s:?}; use {}", Until::NAMES))
    }
}

impl From<Until> for String {
    fn from(u: Until) -> String {
        u.name().to_string()
    }
}

/// Parses a power's `until`.
pub fn parse_until(s: &str) -> Option<Until> {
    Some(match s.trim().to_lowercase().replace([' ', '_'], "-").as_str() {
        "end-of-next-turn" | "end-of-target's-next-turn" | "end-of-their-next-turn" => Until::EndOfTargetsNextTurn,
        "end-of-your-next-turn" => Until::EndOfUsersNextTurn,
        "start-of-next-turn" | "start-of-their-next-turn" => Until::StartOfTargetsNextTurn,
        "start-of-your-next-turn" => Until::StartOfUsersNextTurn,
        "save-ends" => Until::SaveEnds,
        "save-sustains" => Until::SaveSustains,
        "escape-ends" => Until::EscapeEnds,
        "indefinite" | "until-removed" => Until::Indefinite,
        "until-you-attack" | "until-it-attacks" => Until::UntilYouAttack,
        _ => return None,
    })
}

/// A bit per status kind in `statuses` (a unit's [`crate::engine::state::Unit::status_mask`]).
pub fn mask(statuses: &[Status]) -> u32 {
    statuses.iter().fold(0, |m, s| m | bit(s.kind))
}

pub(crate) fn bit(kind: StatusKind) -> u32 {
    1 << kind as u32
}
