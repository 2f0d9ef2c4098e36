//! What a power roll is, as data (DS-ROLL, DS-EB, DS-GAP-1..3): the three tier bands, edges and
//! banes and their net effect, a rolled 2d10 and the tier it gives, tests' difficulties and
//! outcomes (DS-TEST). Rolling them, with the journal, is [`crate::rolls`].

use fray_core::tiers::Tiers;

/// The tier bands: 11 or less, 12-16, 17 or more (DS-ROLL-1).
pub fn tiers() -> Tiers {
    Tiers::new(&[12, 17])
}

/// Edges and banes on one roll against one target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// Edges, with the reasons.
    pub edges: Vec<&'static str>,
    /// Banes, with the reasons (a double bane counts twice).
    pub banes: Vec<&'static str>,
}

impl Mods {
    /// Adds an edge.
    pub fn edge(&mut self, why: &'static str) {
        self.edges.push(why);
    }
    /// Adds a bane.
    pub fn bane(&mut self, why: &'static str) {
        self.banes.push(why);
    }
    /// The net effect: a bonus to the total and a tier shift (DS-EB-1..4, DS-GAP-3): each side
    /// caps at two; an edge and a bane cancel; a double and a single leave a single.
    pub fn net(&self) -> (i32, i32) {
        let (e, b) = (self.edges.len().min(2), self.banes.len().min(2));
        match (e, b) {
            (1, 0) | (2, 1) => (2, 0),
            (2, 0) => (0, 1),
            (0, 1) | (1, 2) => (-2, 0),
            (0, 2) => (0, -1),
            _ => (0, 0),
        }
    }
    /// A person's reading.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.edges.is_empty() {
            parts.push(format!("edges: {}", self.edges.join(", ")));
        }
        if !self.banes.is_empty() {
            parts.push(format!("banes: {}", self.banes.join(", ")));
        }
        parts.join("; ")
    }
}

/// A rolled power roll before per-target edges and banes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// The two dice.
    pub dice: [i32; 2],
    /// Their sum.
    pub natural: i32,
    /// Characteristic and other bonuses added.
    pub bonus: i32,
}

impl Rolled {
    /// Whether it is a natural 19 or 20 (DS-ROLL-2).
    pub fn natural_crit(&self) -> bool {
        self.natural >= 19
    }
    /// The tier against a target with these edges and banes (DS-GAP-2: a natural 19-20 is
    /// always tier 3).
    pub fn tier(&self, mods: &Mods) -> usize {
        if self.natural_crit() {
            return 2;
        }
        let (bonus, shift) = mods.net();
        let t = tiers();
        t.shift(t.tier_of(self.natural + self.bonus + bonus), shift)
    }
}

/// Test difficulty (DS-TEST-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Easy.
    Easy,
    /// Medium.
    Medium,
    /// Hard.
    Hard,
}

impl Difficulty {
    /// Parses easy, medium or hard.
    pub fn parse(s: &str) -> Option<Difficulty> {
        match s.trim().to_lowercase().as_str() {
            "easy" => Some(Difficulty::Easy),
            "medium" => Some(Difficulty::Medium),
            "hard" => Some(Difficulty::Hard),
            _ => None,
        }
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// A test as asked for: enough to make it again when a hero token rerolls it (DS-DELTA-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TestKind {
    /// The characteristic rolled.
    pub characteristic: crate::model::Characteristic,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// Whether a skill applies (+2, DS-SKILL-1).
    pub skill: bool,
}

/// A test's outcome in words (DS-TEST-2..5): natural 19-20 always succeeds with a reward.
pub fn test_outcome(d: Difficulty, tier: usize, natural_crit: bool) -> &'static str {
    if natural_crit {
        return "success with a reward";
    }
    match (d, tier) {
        (Difficulty::Easy, 0) => "success with a consequence",
        (Difficulty::Easy, 1) => "success",
        (Difficulty::Easy, _) => "success with a reward",
        (Difficulty::Medium, 0) => "failure",
        (Difficulty::Medium, 1) => "success with a consequence",
        (Difficulty::Medium, _) => "success",
        (Difficulty::Hard, 0) => "failure with a consequence",
        (Difficulty::Hard, 1) => "failure",
        (Difficulty::Hard, _) => "success",
    }
}
