//! An athlete's implement; the rules are in [`crate::rules::attack`] and
//! [`crate::implements::advanced`].

use serde::{Deserialize, Serialize};

/// An athlete's implement (K-IMP-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Implement {
    /// Range 5; no Opportunities from hit enemies; does not end the turn (K-IMP-2..4).
    Wand,
    /// Range 6; +1 damage at range 3+; grants Opportunities; ends the turn (K-IMP-5, K-IMP-6).
    Staff,
    /// Reach; +1 damage unless the target has a sword; Charge; ends the turn (K-IMP-7, K-IMP-8).
    Sword,
    /// No implement (creeps, summons).
    None,
}

impl Implement {
    /// Parses `wand`, `staff`, `sword` or `none`.
    pub fn parse(s: &str) -> Option<Implement> {
        match s.trim().to_lowercase().as_str() {
            "wand" => Some(Implement::Wand),
            "staff" => Some(Implement::Staff),
            "sword" => Some(Implement::Sword),
            "none" => Some(Implement::None),
            _ => None,
        }
    }
    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Implement::Wand => "wand",
            Implement::Staff => "staff",
            Implement::Sword => "sword",
            Implement::None => "none",
        }
    }
}
