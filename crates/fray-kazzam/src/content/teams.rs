//! The book's four rival teams (§5, L2729-4175) as team files, one per team and level, compiled
//! in: `fray play kazzam --away kishanta` (level 1) or `--away kishanta-3`. Each file's `[team]`
//! table names its team trait (Team Effort, Agile, Untouchable, Get Out of Jail Free), which the
//! match plays (rules/team_traits.rs).

/// The built-in team files, by name (`kishanta` is level 1, `kishanta-3` level 3).
pub const BUILTIN: &[(&str, &str)] = &[];

/// The text of the built-in team `name` (`kishanta`, `kishanta-3`, `Kishanta`).
pub fn builtin(name: &str) -> Option<&'static str> {
    let name = name.trim().trim_end_matches(".toml").to_lowercase().replace([' ', '_'], "-");
    let name = name.strip_suffix("-1").unwrap_or(&name);
    BUILTIN.iter().find(|(id, _)| *id == name).map(|(_, t)| *t)
}
