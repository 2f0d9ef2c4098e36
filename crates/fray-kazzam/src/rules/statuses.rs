//! Statuses (K-ST-*): what each one is, how long it lasts, and the questions the other rule
//! areas ask about a unit's statuses ("can it take Opportunities?", "is it Immobilized?").
//!
//! Implied statuses are derived here, never stored twice: Dazed implies Distracted, Grabbed
//! and Restrained imply Immobilized, Incapacitated implies Stunned (K-ST-Incapacitated).

pub mod give;

use crate::engine::records::statuses::bit;
pub use crate::engine::records::statuses::mask;
pub use crate::engine::records::statuses::{Duration, Lingers, Status, StatusKind};
pub use crate::engine::records::statuses::{Until, parse_until};
use crate::engine::state::{State, UnitIdx};

/// The kinds that imply `kind` (the reverse of [`implies`]).
#[inline]
fn implied_by(kind: StatusKind) -> u32 {
    match kind {
        StatusKind::Distracted => bit(StatusKind::Dazed),
        StatusKind::Immobilized => bit(StatusKind::Grabbed) | bit(StatusKind::Restrained),
        StatusKind::Stunned => bit(StatusKind::Incapacitated),
        StatusKind::Hovering => bit(StatusKind::Flying),
        _ => 0,
    }
}

/// Statuses one status implies without being stored.
fn implies(kind: StatusKind) -> &'static [StatusKind] {
    match kind {
        StatusKind::Dazed => &[StatusKind::Distracted],
        StatusKind::Grabbed | StatusKind::Restrained => &[StatusKind::Immobilized],
        StatusKind::Incapacitated => &[StatusKind::Stunned],
        StatusKind::Flying => &[StatusKind::Hovering],
        _ => &[],
    }
}

impl State {
    /// Whether unit `u` has status `kind`, directly or implied by another.
    #[inline]
    pub fn has(&self, u: UnitIdx, kind: StatusKind) -> bool {
        let un = self.unit(u);
        // Most questions are answered by the status bits alone; `kind` is mostly a constant, so
        // once inlined this is a test of one bit.
        let derived =
            matches!(kind, StatusKind::Hovering | StatusKind::Dazed | StatusKind::Distracted | StatusKind::Revealed);
        if !derived && un.status_mask & implied_by(kind) == 0 {
            debug_assert_eq!(un.status_mask, mask(&un.statuses), "status mask out of step");
            return un.status_mask & bit(kind) != 0;
        }
        self.has_derived(u, kind)
    }

    /// [`State::has`] where another status, a feature or a creature nearby may decide.
    fn has_derived(&self, u: UnitIdx, kind: StatusKind) -> bool {
        let un = self.unit(u);
        debug_assert_eq!(un.status_mask, mask(&un.statuses), "status mask out of step");
        if kind == StatusKind::Hovering && un.status_mask & bit(StatusKind::Prone) != 0 {
            return false; // K-ST-Hovering: a Prone creature cannot be Hovering
        }
        if kind == StatusKind::Hovering && crate::rules::query::hovering(self, u) {
            return true; // Self-Lift
        }
        un.status_mask & bit(kind) != 0
            || (un.status_mask & implied_by(kind) != 0
                && un.statuses.iter().any(|s| {
                    implies(s.kind).contains(&kind)
                        && !(kind == StatusKind::Immobilized
                            && (crate::rules::query::loose(self, s) || crate::rules::query::lightweight(self, s)))
                }))
            || (matches!(kind, StatusKind::Dazed | StatusKind::Distracted)
                && crate::rules::query::controlled_daze(self, u))
            || (kind == StatusKind::Revealed && crate::rules::query::glowfly_reveals(self, u)) // Glowfly Swarm
    }

    /// The total of a numbered status, counting each source once (K-ST-Resist, K-ST-Vulnerable:
    /// cumulative across sources, not within one).
    pub fn amount(&self, u: UnitIdx, kind: StatusKind) -> i32 {
        let un = self.unit(u);
        // The status bits answer for a kind it bears none of (most asked: Reach, Resist).
        if un.status_mask & bit(kind) == 0 {
            debug_assert_eq!(un.status_mask, mask(&un.statuses), "status mask out of step");
            return 0;
        }
        let mut seen: Vec<(Option<UnitIdx>, Option<u16>)> = Vec::new();
        let mut total = 0;
        for s in self.unit(u).statuses.iter().filter(|s| s.kind == kind) {
            let key = (s.source, s.origin);
            if s.origin.is_some() && seen.contains(&key) {
                continue;
            }
            seen.push(key);
            total += s.amount;
        }
        total
    }

    /// Whether `u` may take Opportunities at all (K-OPP-10).
    pub fn can_take_opportunities(&self, u: UnitIdx) -> bool {
        use StatusKind::*;
        // As `has` for each, in one look at the status bits (Dazed implies Distracted,
        // Incapacitated implies Stunned).
        let kinds =
            [Blinded, Disarmed, Distracted, Dominated, Grabbed, Prone, Restrained, Stunned, Dazed, Incapacitated];
        self.unit(u).status_mask & kinds.iter().fold(0, |m, &k| m | bit(k)) == 0
            && !crate::rules::query::controlled_daze(self, u)
    }

    /// Whether `u` may use Miss Triggers (K-CAI-18 and the status entries).
    pub fn can_use_miss_triggers(&self, u: UnitIdx) -> bool {
        use StatusKind::*;
        // As `has` for each, in one look at the status bits (see `can_take_opportunities`).
        let kinds = [Blinded, Distracted, Dominated, Grabbed, Prone, Restrained, Stunned, Dazed, Incapacitated];
        self.unit(u).status_mask & kinds.iter().fold(0, |m, &k| m | bit(k)) == 0
            && !crate::rules::query::controlled_daze(self, u)
    }

    /// Whether `u` counts as Bloodied: HP at or below half its maximum, rounded down (K-DEF-4).
    pub fn is_bloodied(&self, u: UnitIdx) -> bool {
        let unit = self.unit(u);
        unit.hp <= unit.max_hp / 2
    }

    /// Whether `target` is Hidden from `viewer`: Hidden creatures are hidden from the other
    /// sides, never from themselves or their own side (K-CONC-3), and Revealed creatures cannot
    /// be Hidden (K-ST-Revealed).
    pub fn hidden_from(&self, target: UnitIdx, viewer: UnitIdx) -> bool {
        target != viewer
            && self.unit(target).side != self.unit(viewer).side
            && self.has(target, StatusKind::Hidden)
            && !self.has(target, StatusKind::Revealed)
            && !crate::rules::query::locked(self, viewer, target) // Scryer
    }
}

/// A person's description of a duration.
pub fn describe_duration(state: &State, d: &Duration) -> String {
    match d {
        Duration::Indefinite => "until removed".into(),
        Duration::EndOfTurn { unit, turn } => {
            let u = state.unit(*unit);
            if *turn <= u.turns_started {
                format!("end of {}'s turn", u.id)
            } else {
                format!("end of {}'s next turn", u.id)
            }
        }
        Duration::StartOfTurn { unit, .. } => {
            format!("start of {}'s next turn", state.unit(*unit).id)
        }
        Duration::SaveEnds => "save ends".into(),
        Duration::SaveSustains => "save sustains".into(),
        Duration::EscapeEnds => "escape ends".into(),
        Duration::Other(Lingers::UntilAttack) => "until it attacks".into(),
        Duration::Other(Lingers::Chant { jinxer, .. }) => format!("while {} chants", state.unit(*jinxer).id),
        // Kazzam lays neither (its matches have rounds but no encounter to end).
        Duration::EndOfRound { .. } => "end of the round".into(),
        Duration::EndOfEncounter => "end of the match".into(),
    }
}

/// Reach (K-ST-Reach), with the features and charms that lengthen it.
impl State {
    /// The reach of `u` (K-ST-Reach; 1 by default; Long-arm 2).
    pub fn reach(&self, u: UnitIdx) -> i32 {
        self.amount(u, StatusKind::Reach)
            .max(crate::rules::query::long_arm_reach(self, u))
            .max(crate::rules::query::creature_reach(self, u))
            + crate::rules::query::reach_bonus(self, u) // Enlarging Charm
    }
}
