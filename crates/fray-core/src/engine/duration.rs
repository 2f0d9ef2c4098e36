//! How long a status lasts, typed: [`Lasts`] as content writes it (parsed once, when the
//! content loads) and [`Duration`] once laid on a unit (whose turn, which of its turns).
//! Rules compare durations, never strings.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Whose turn a written duration counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Whose {
    /// The unit the status is laid on ("end of its next turn").
    Target,
    /// The unit laying it ("end of your next turn").
    User,
}

/// A duration as content writes it, before it is laid on anyone: relative to the unit it is
/// laid on (the target) and the one laying it (the user).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lasts {
    /// Until the end of that unit's next turn ("eot": the current one if it is that unit's).
    EndOfNextTurn(Whose),
    /// Until the start of that unit's next turn.
    StartOfNextTurn(Whose),
    /// A saving throw at the end of each of the target's turns ends it on a success.
    SaveEnds,
    /// A saving throw at the end of each of the target's turns ends it on a failure.
    SaveSustains,
    /// Ended by an escape (as a grab is).
    EscapeEnds,
    /// Until the current round ends.
    EndOfRound,
    /// Until the encounter ends.
    EndOfEncounter,
    /// Until something removes it.
    Indefinite,
}

impl Lasts {
    /// Every duration, in the order [`Lasts::id`] lists them for error messages.
    pub const ALL: [Lasts; 10] = [
        Lasts::EndOfNextTurn(Whose::Target),
        Lasts::EndOfNextTurn(Whose::User),
        Lasts::StartOfNextTurn(Whose::Target),
        Lasts::StartOfNextTurn(Whose::User),
        Lasts::SaveEnds,
        Lasts::SaveSustains,
        Lasts::EscapeEnds,
        Lasts::EndOfRound,
        Lasts::EndOfEncounter,
        Lasts::Indefinite,
    ];

    /// Reads a duration as content files write it: kebab-case or with spaces, any case
    /// ("save ends", "end-of-your-next-turn"), and the short forms "eot" (end of the target's
    /// next turn) and "encounter".
    pub fn parse(text: &str) -> Option<Lasts> {
        use Whose::*;
        Some(match text.trim().to_lowercase().replace([' ', '_'], "-").as_str() {
            "eot" | "end-of-next-turn" | "end-of-target's-next-turn" | "end-of-their-next-turn" => {
                Lasts::EndOfNextTurn(Target)
            }
            "end-of-your-next-turn" => Lasts::EndOfNextTurn(User),
            "start-of-next-turn" | "start-of-their-next-turn" | "start-of-target's-next-turn" => {
                Lasts::StartOfNextTurn(Target)
            }
            "start-of-your-next-turn" => Lasts::StartOfNextTurn(User),
            "save-ends" => Lasts::SaveEnds,
            "save-sustains" => Lasts::SaveSustains,
            "escape-ends" => Lasts::EscapeEnds,
            "end-of-round" => Lasts::EndOfRound,
            "encounter" | "end-of-encounter" => Lasts::EndOfEncounter,
            "indefinite" | "until-removed" => Lasts::Indefinite,
            _ => return None,
        })
    }

    /// Its canonical spelling (what [`Lasts::parse`] reads back).
    pub fn id(self) -> &'static str {
        match self {
            Lasts::EndOfNextTurn(Whose::Target) => "end-of-next-turn",
            Lasts::EndOfNextTurn(Whose::User) => "end-of-your-next-turn",
            Lasts::StartOfNextTurn(Whose::Target) => "start-of-next-turn",
            Lasts::StartOfNextTurn(Whose::User) => "start-of-your-next-turn",
            Lasts::SaveEnds => "save-ends",
            Lasts::SaveSustains => "save-sustains",
            Lasts::EscapeEnds => "escape-ends",
            Lasts::EndOfRound => "end-of-round",
            Lasts::EndOfEncounter => "end-of-encounter",
            Lasts::Indefinite => "indefinite",
        }
    }

    /// The duration laid on `target` by `user`. `next_turn(unit)` is the number of the turn of
    /// `unit` that "its next turn" means (systems differ on a status laid during the unit's own
    /// turn); `round` is the current round.
    pub fn lay<Ix: Copy, X>(self, target: Ix, user: Ix, next_turn: impl Fn(Ix) -> u32, round: u32) -> Duration<Ix, X> {
        let whose = |w: Whose| match w {
            Whose::Target => target,
            Whose::User => user,
        };
        match self {
            Lasts::EndOfNextTurn(w) => Duration::EndOfTurn { unit: whose(w), turn: next_turn(whose(w)) },
            Lasts::StartOfNextTurn(w) => Duration::StartOfTurn { unit: whose(w), turn: next_turn(whose(w)) },
            Lasts::SaveEnds => Duration::SaveEnds,
            Lasts::SaveSustains => Duration::SaveSustains,
            Lasts::EscapeEnds => Duration::EscapeEnds,
            Lasts::EndOfRound => Duration::EndOfRound { round },
            Lasts::EndOfEncounter => Duration::EndOfEncounter,
            Lasts::Indefinite => Duration::Indefinite,
        }
    }
}

impl fmt::Display for Lasts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Lasts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Lasts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Lasts::parse(&text).ok_or_else(|| {
            let known: Vec<&str> = Lasts::ALL.iter().map(|l| l.id()).collect();
            serde::de::Error::custom(format!(
                "unknown duration {text:?}; write one of: eot, encounter, {}",
                known.join(", ")
            ))
        })
    }
}

/// No system-specific duration: the default of [`Duration`]'s `X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NoDuration {}

/// How long a status laid on a unit lasts. `Ix` is the system's unit index; `X` holds the
/// durations only one system has (a chant that lasts while its chanter keeps it up), as
/// [`Duration::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Duration<Ix = u8, X = NoDuration> {
    /// Until something removes it.
    Indefinite,
    /// Until the end of `unit`'s turn number `turn` (its own count of turns).
    EndOfTurn {
        /// Whose turn.
        unit: Ix,
        /// Which of its turns.
        turn: u32,
    },
    /// Until the start of `unit`'s turn number `turn`.
    StartOfTurn {
        /// Whose turn.
        unit: Ix,
        /// Which of its turns.
        turn: u32,
    },
    /// A saving throw at the end of each of its holder's turns ends it on a success.
    SaveEnds,
    /// A saving throw at the end of each of its holder's turns ends it on a failure.
    SaveSustains,
    /// Ended by an escape.
    EscapeEnds,
    /// Until round `round` ends.
    EndOfRound {
        /// Which round.
        round: u32,
    },
    /// Until the encounter ends.
    EndOfEncounter,
    /// A duration only one system has.
    #[serde(untagged)]
    Other(X),
}

impl<Ix: PartialEq + Copy, X> Duration<Ix, X> {
    /// Whether it runs out when `unit` ends its turn number `turn` (or a later one).
    pub fn ends_at_end_of_turn(&self, unit: Ix, turn: u32) -> bool {
        matches!(*self, Duration::EndOfTurn { unit: u, turn: t } if u == unit && t <= turn)
    }
    /// Whether it runs out when `unit` starts its turn number `turn` (or a later one).
    pub fn ends_at_start_of_turn(&self, unit: Ix, turn: u32) -> bool {
        matches!(*self, Duration::StartOfTurn { unit: u, turn: t } if u == unit && t <= turn)
    }
    /// Whether it runs out when round `round` (or a later one) ends.
    pub fn ends_at_end_of_round(&self, round: u32) -> bool {
        matches!(*self, Duration::EndOfRound { round: r } if r <= round)
    }
    /// Whether its holder rolls saving throws against it (save ends, save sustains).
    pub fn is_saved_against(&self) -> bool {
        matches!(self, Duration::SaveEnds | Duration::SaveSustains)
    }
    /// The unit whose turn it counts, if any.
    pub fn unit(&self) -> Option<Ix> {
        match *self {
            Duration::EndOfTurn { unit, .. } | Duration::StartOfTurn { unit, .. } => Some(unit),
            _ => None,
        }
    }
}
