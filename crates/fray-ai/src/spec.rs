//! Naming a bot on the command line: `random`, `greedy`, `mcts`, `mcts:2000` (iterations a
//! decision), `mcts:250ms` (time a decision).

use crate::mcts::MctsSettings;
use std::fmt;
use std::str::FromStr;

/// Which bot plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniformly random legal play.
    Random,
    /// One whole choice ahead by the system's evaluation.
    Greedy,
    /// Monte Carlo tree search with these settings.
    Mcts(MctsSettings),
}

impl FromStr for BotSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, budget) = match s.split_once(':') {
            Some((n, b)) => (n, Some(b)),
            None => (s, None),
        };
        let bad = || {
            format!(
                "{s:?} names no bot: write random, greedy, mcts, mcts:ITERATIONS or mcts:MILLISECONDSms, \
                 optionally followed by ,rollout=N ,c=X ,trees=N"
            )
        };
        match (name.trim(), budget) {
            ("random", None) => Ok(BotSpec::Random),
            ("greedy", None) => Ok(BotSpec::Greedy),
            ("mcts", None) => Ok(BotSpec::Mcts(MctsSettings::default())),
            ("mcts", Some(b)) => {
                // mcts:BUDGET[,rollout=N][,c=X][,trees=N]
                let mut parts = b.split(',');
                let b = parts.next().unwrap_or_default().trim();
                let mut settings = MctsSettings::default();
                for part in parts {
                    let (k, v) = part.split_once('=').ok_or_else(bad)?;
                    let v = v.trim();
                    match k.trim() {
                        "rollout" => settings.rollout = v.parse().ok().filter(|n| *n <= 1000).ok_or_else(bad)?,
                        "c" => {
                            settings.exploration =
                                v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0).ok_or_else(bad)?
                        }
                        "trees" => settings.trees = v.parse().ok().filter(|n| (1..=256).contains(n)).ok_or_else(bad)?,
                        _ => return Err(bad()),
                    }
                }
                if let Some(ms) = b.strip_suffix("ms") {
                    let ms: u64 = ms.trim().parse().map_err(|_| bad())?;
                    if ms == 0 || ms > 600_000 {
                        return Err(format!("{s:?}: the time a decision must be from 1 to 600000 ms"));
                    }
                    settings.millis = Some(ms);
                } else {
                    let n: u32 = b.parse().map_err(|_| bad())?;
                    if n == 0 || n > 10_000_000 {
                        return Err(format!("{s:?}: the iterations a decision must be from 1 to 10000000"));
                    }
                    settings.iterations = n;
                }
                Ok(BotSpec::Mcts(settings))
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts(s) => {
                match s.millis {
                    Some(ms) => write!(f, "mcts:{ms}ms")?,
                    None => write!(f, "mcts:{}", s.iterations)?,
                }
                let d = MctsSettings::default();
                if s.rollout != d.rollout {
                    write!(f, ",rollout={}", s.rollout)?;
                }
                if s.exploration != d.exploration {
                    write!(f, ",c={}", s.exploration)?;
                }
                if s.trees != d.trees {
                    write!(f, ",trees={}", s.trees)?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_are_named_as_the_command_line_writes_them() {
        assert_eq!("random".parse::<BotSpec>(), Ok(BotSpec::Random));
        assert_eq!("greedy".parse::<BotSpec>(), Ok(BotSpec::Greedy));
        let BotSpec::Mcts(m) = "mcts:2000".parse::<BotSpec>().unwrap() else { panic!("not mcts") };
        assert_eq!((m.iterations, m.millis), (2000, None));
        let BotSpec::Mcts(m) = "mcts:250ms".parse::<BotSpec>().unwrap() else { panic!("not mcts") };
        assert_eq!(m.millis, Some(250));
        for bad in ["", "smart", "mcts:", "mcts:0", "mcts:-4", "greedy:3", "mcts:fast"] {
            let e = bad.parse::<BotSpec>().unwrap_err();
            assert!(e.contains("bot") || e.contains("from 1"), "{bad}: {e}");
        }
        assert_eq!("mcts:2000".parse::<BotSpec>().unwrap().to_string(), "mcts:2000");
    }
}
