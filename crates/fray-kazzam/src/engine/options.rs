//! Table options: the rulings players could reasonably disagree on, as named switches
//! (docs/rulings/kazzam.md explains each). Scenario files set them under `options`.

use serde::{Deserialize, Serialize};

/// Which version of Dominated the table plays (K-ST-Dominated, rules §6.2 #7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DominatedRule {
    /// The "less fuzzy" version: Dazed, and the dominator picks and targets its one At-Will action.
    #[default]
    Alternate,
    /// The good-faith version: the victim's own player follows a spoken command.
    GoodFaith,
}

/// When the match ends once a team reaches the target (K-END-1, K-END-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MatchEnd {
    /// The rest of the round is played.
    #[default]
    FinishRound,
    /// The match ends at once (the losing side concedes).
    Immediate,
}

/// What a Critical Hit doubles (K-ROLL-1, rules §6.2 #1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CritDoubles {
    /// Only the power's damage line; implement and other bonuses are added once.
    #[default]
    DamageLine,
    /// The damage line and every bonus added to it.
    AllDamage,
}

/// How a Creep settles what its AI leaves open, chosen before play (K-CAI-17, L2392-2401).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CreepTies {
    /// Creep's Best Judgement: the square nearest its priority target (then row, then column).
    #[default]
    BestJudgement,
    /// Help the Team, run for red: the square nearest blue's athletes.
    HelpRed,
    /// Help the Team, run for blue: the square nearest red's athletes.
    HelpBlue,
}

/// Table options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct TableOptions {
    /// Dominated version.
    pub dominated: DominatedRule,
    /// End of match.
    pub match_end: MatchEnd,
    /// Points that trigger the end (K-END-1).
    pub target_score: i32,
    /// Rounds after which an unfinished match ends anyway (a Fray time limit; 0 = none).
    pub round_limit: u32,
    /// What a Critical Hit doubles.
    pub crit_doubles: CritDoubles,
    /// Whether Low Cover counts for intervening cover (K-COV-10: only if the GM says so).
    pub low_cover_intervenes: bool,
    /// Whether the built-in arena puts Creep groups on its two field neutral orbs (creeps.rs;
    /// K-ORB-2: on by default).
    pub creeps: bool,
    /// How Creeps break ties the AI leaves open (K-CAI-17).
    pub creep_ties: CreepTies,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            dominated: DominatedRule::Alternate,
            match_end: MatchEnd::FinishRound,
            target_score: 10,
            round_limit: 30,
            crit_doubles: CritDoubles::DamageLine,
            low_cover_intervenes: false,
            creeps: true,
            creep_ties: CreepTies::BestJudgement,
        }
    }
}

impl TableOptions {
    /// The defaults changed by `KEY=VALUE` pairs (`fray play --option`): a value reads as TOML
    /// (`true`, `12`, `"x"`) or else as a bare word (`good-faith`). An unknown key or a value of
    /// the wrong kind is an error naming the pair and what the option takes.
    pub fn from_pairs(pairs: &[String]) -> Result<TableOptions, String> {
        let mut table = toml::Table::new();
        for pair in pairs {
            let (key, value) = fray_core::table::option_pair(pair).map_err(|e| format!("{e}, e.g. creeps=false"))?;
            let value = fray_core::table::option_value(value);
            if table.insert(key.to_string(), value).is_some() {
                return Err(format!("--option {key}: given twice"));
            }
        }
        let options: TableOptions = table.clone().try_into().map_err(|e: toml::de::Error| {
            // Name the pair at fault: the first that fails on its own.
            let culprit = table.iter().find(|(k, v)| {
                let one: toml::Table = [((*k).clone(), (*v).clone())].into_iter().collect();
                one.try_into::<TableOptions>().is_err()
            });
            match culprit {
                Some((k, v)) => format!("--option {k}={v}: {}", e.message()),
                None => format!("--option: {}", e.message()),
            }
        })?;
        match options.out_of_range().first() {
            Some(e) => Err(format!("--option {e}")),
            None => Ok(options),
        }
    }

    /// The numbers outside their ranges (issue 14): a target of 1 to 999 points (K-END-1), a
    /// round limit of 0 (none) to 999.
    pub fn out_of_range(&self) -> Vec<String> {
        let mut errors = Vec::new();
        errors.extend(fray_core::scenario::out_of_range("target-score", self.target_score as i64, 1..=999));
        errors.extend(fray_core::scenario::out_of_range("round-limit", self.round_limit as i64, 0..=999));
        errors
    }
}
