//! The stakes file (`content/dojo/stakes.toml`) as data: the Bonuses and Penalties, and a
//! side's or a scenario's pick of one for a unit. How they play is [`crate::stakes`].

use serde::Deserialize;

/// The stakes file's name among the content files.
pub const FILE: &str = "dojo/stakes.toml";

/// A Bonus or a Penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StakeKind {
    /// Helps its holder.
    Bonus,
    /// Hinders its holder.
    Penalty,
}

/// One Bonus or Penalty.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StakeDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Bonus or Penalty.
    pub kind: StakeKind,
    /// The checklist id.
    pub rule: String,
    /// What it does, in our words.
    pub text: String,
    /// What of it is not played yet (such a stake is refused).
    #[serde(default)]
    pub unplayed: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StakesFile {
    stake: Vec<StakeDef>,
}

/// Reads the stakes file's text; errors name the file, line and field.
pub fn read(text: &str) -> Result<Vec<StakeDef>, String> {
    toml::from_str::<StakesFile>(text).map(|f| f.stake).map_err(|e| format!("{FILE}: {}", e.to_string().trim_end()))
}

/// A stake a fight hands out: a Bonus or a Penalty for one unit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StakeSpec {
    /// Who gets it.
    pub unit: String,
    /// A Bonus's id.
    #[serde(default)]
    pub bonus: Option<String>,
    /// A Penalty's id.
    #[serde(default)]
    pub penalty: Option<String>,
    /// Handcuffed (D-PEN-6): the partner's id, a unit within 2 spaces (the nearest if none is
    /// named).
    #[serde(default)]
    pub partner: Option<String>,
}

impl StakeSpec {
    /// The Bonus or Penalty it names.
    pub fn id(&self) -> Option<&str> {
        self.bonus.as_deref().or(self.penalty.as_deref())
    }
}
