//! Looking rules up: entries (a rule, a status, a power, a creature) found by id, name or alias,
//! forgiving about case, punctuation and small typos.

use serde::{Deserialize, Serialize};

/// One thing a player can look up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Rule id ("DS-COND-SLOW", "K-ST-Prone") or content id.
    pub id: String,
    /// Name as players say it.
    pub name: String,
    /// What it is: condition, status, action, power, creature, rule...
    pub kind: String,
    /// Other words people type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// The explanation, in the project's own words.
    pub text: String,
}

fn norm(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Edit distance between two short strings (insertions, deletions, substitutions).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate nearest `word` within two edits, if any (for "did you mean" hints).
pub fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let w = norm(word);
    candidates
        .iter()
        .map(|c| (edit_distance(&w, &norm(c)), *c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Entries matching `term`: exact matches on id, name or alias first; otherwise names that
/// contain it; otherwise names within a small edit distance (a typo or two).
pub fn search<'a>(entries: &'a [Entry], term: &str) -> Vec<&'a Entry> {
    let t = norm(term);
    if t.is_empty() {
        return Vec::new();
    }
    let keys =
        |e: &'a Entry| std::iter::once(&e.id).chain(std::iter::once(&e.name)).chain(e.aliases.iter()).map(|k| norm(k));
    let exact: Vec<&Entry> = entries.iter().filter(|e| keys(e).any(|k| k == t)).collect();
    if !exact.is_empty() {
        return exact;
    }
    let partial: Vec<&Entry> = entries.iter().filter(|e| keys(e).any(|k| k.contains(&t))).collect();
    if !partial.is_empty() {
        return partial;
    }
    let allowed = if t.len() <= 4 { 1 } else { 2 };
    let mut close: Vec<(usize, &Entry)> = entries
        .iter()
        .filter_map(|e| keys(e).map(|k| edit_distance(&k, &t)).min().filter(|&d| d <= allowed).map(|d| (d, e)))
        .collect();
    close.sort_by_key(|(d, _)| *d);
    close.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(id: &str, name: &str) -> Entry {
        Entry { id: id.into(), name: name.into(), kind: "condition".into(), aliases: vec![], text: String::new() }
    }

    #[test]
    fn finds_by_id_name_substring_and_typo() {
        let all = vec![e("DS-COND-SLOW", "Slowed"), e("DS-COND-PRONE-1", "Prone"), e("DS-FM-1", "Push")];
        assert_eq!(search(&all, "ds-cond-slow")[0].name, "Slowed");
        assert_eq!(search(&all, "PRONE")[0].name, "Prone");
        assert_eq!(search(&all, "slow")[0].name, "Slowed");
        assert_eq!(search(&all, "slwoed")[0].name, "Slowed");
        assert!(search(&all, "teleportation").is_empty());
    }
}
