//! The book's four rival teams (§5, L2729-4175) as team files, one per team and level, compiled
//! in: `fray play kazzam --away kishanta` (level 1) or `--away kishanta-3`. Each file's `[team]`
//! table names its team trait (Team Effort, Agile, Untouchable, Get Out of Jail Free), which the
//! match plays (rules/team_traits.rs).

/// The built-in team files, by name (`kishanta` is level 1, `kishanta-3` level 3).
pub const BUILTIN: &[(&str, &str)] = &[
    ("driannis", include_str!("../../../../content/kazzam/teams/driannis.toml")),
    ("driannis-2", include_str!("../../../../content/kazzam/teams/driannis-2.toml")),
    ("driannis-3", include_str!("../../../../content/kazzam/teams/driannis-3.toml")),
    ("driannis-4", include_str!("../../../../content/kazzam/teams/driannis-4.toml")),
    ("driannis-5", include_str!("../../../../content/kazzam/teams/driannis-5.toml")),
    ("bagwung", include_str!("../../../../content/kazzam/teams/bagwung.toml")),
    ("bagwung-2", include_str!("../../../../content/kazzam/teams/bagwung-2.toml")),
    ("bagwung-3", include_str!("../../../../content/kazzam/teams/bagwung-3.toml")),
    ("bagwung-4", include_str!("../../../../content/kazzam/teams/bagwung-4.toml")),
    ("bagwung-5", include_str!("../../../../content/kazzam/teams/bagwung-5.toml")),
    ("kishanta", include_str!("../../../../content/kazzam/teams/kishanta.toml")),
    ("kishanta-2", include_str!("../../../../content/kazzam/teams/kishanta-2.toml")),
    ("kishanta-3", include_str!("../../../../content/kazzam/teams/kishanta-3.toml")),
    ("kishanta-4", include_str!("../../../../content/kazzam/teams/kishanta-4.toml")),
    ("kishanta-5", include_str!("../../../../content/kazzam/teams/kishanta-5.toml")),
    ("mormissa", include_str!("../../../../content/kazzam/teams/mormissa.toml")),
    ("mormissa-2", include_str!("../../../../content/kazzam/teams/mormissa-2.toml")),
    ("mormissa-3", include_str!("../../../../content/kazzam/teams/mormissa-3.toml")),
    ("mormissa-4", include_str!("../../../../content/kazzam/teams/mormissa-4.toml")),
    ("mormissa-5", include_str!("../../../../content/kazzam/teams/mormissa-5.toml")),
];

/// The text of the built-in team `name` (`kishanta`, `kishanta-3`, `Kishanta`).
pub fn builtin(name: &str) -> Option<&'static str> {
    let name = name.trim().trim_end_matches(".toml").to_lowercase().replace([' ', '_'], "-");
    let name = name.strip_suffix("-1").unwrap_or(&name);
    BUILTIN.iter().find(|(id, _)| *id == name).map(|(_, t)| *t)
}
