//! Classes as data (`content/kazzam/classes/*.toml`): each class's description, allowed
//! implements, features with their level and pick group, and powers (the power format, with
//! class, level and group). Powers whose effects the engine does not play yet are marked
//! `reference_only`: they can be looked up, but a match refuses them.

use crate::content::powers::PowerDef;
use serde::Deserialize;

/// A class.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDef {
    /// Id ("hexer").
    pub id: String,
    /// Name.
    pub name: String,
    /// Implements it may use (K-IMP-13): some of wand, staff, sword.
    pub implements: Vec<String>,
    /// What the class is, and what it picks at each level, in Fray's words.
    pub text: String,
    /// Where the rulebook prints it.
    #[serde(default)]
    pub source: Option<String>,
}

/// A class feature.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Level it is chosen at (1 or 5).
    pub level: u8,
    /// The pick it belongs to (features of one group are alternatives).
    #[serde(default)]
    pub group: Option<String>,
    /// What it does, in Fray's words.
    pub text: String,
    /// Where the rulebook prints it.
    #[serde(default)]
    pub source: Option<String>,
    /// Powers that come with it (Self-Lift's flight), by id.
    #[serde(default)]
    pub grants: Vec<String>,
}

/// One choice a character of the class makes at a level (K-PROG-1..6): between `min` and `max`
/// powers or features from the given groups, or all of them when `automatic`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    /// The level the choice comes with.
    pub level: u8,
    /// "power" or "feature".
    pub kind: String,
    /// Groups it chooses from (a power's or feature's `group`).
    pub groups: Vec<String>,
    /// At least this many.
    #[serde(default)]
    pub min: u8,
    /// At most this many.
    #[serde(default)]
    pub max: u8,
    /// Granted without choosing (for implement-specific ones, the one matching the implement).
    #[serde(default)]
    pub automatic: bool,
}

/// A class file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassFile {
    /// The class.
    pub class: ClassDef,
    /// Its features.
    #[serde(default)]
    pub feature: Vec<FeatureDef>,
    /// Its powers.
    #[serde(default)]
    pub power: Vec<PowerDef>,
    /// What a character chooses at each level.
    #[serde(default)]
    pub pick: Vec<Pick>,
}

/// The built-in class files, compiled in.
pub const BUILTIN: &[(&str, &str)] = &[
    ("content/kazzam/classes/hexer.toml", include_str!("../../../../content/kazzam/classes/hexer.toml")),
    ("content/kazzam/classes/wandslinger.toml", include_str!("../../../../content/kazzam/classes/wandslinger.toml")),
    ("content/kazzam/classes/wardmaster.toml", include_str!("../../../../content/kazzam/classes/wardmaster.toml")),
    ("content/kazzam/classes/porter.toml", include_str!("../../../../content/kazzam/classes/porter.toml")),
    (
        "content/kazzam/classes/shivering-sword.toml",
        include_str!("../../../../content/kazzam/classes/shivering-sword.toml"),
    ),
    ("content/kazzam/classes/diviner.toml", include_str!("../../../../content/kazzam/classes/diviner.toml")),
    ("content/kazzam/classes/tinker.toml", include_str!("../../../../content/kazzam/classes/tinker.toml")),
    ("content/kazzam/classes/brewer.toml", include_str!("../../../../content/kazzam/classes/brewer.toml")),
    ("content/kazzam/classes/charmer.toml", include_str!("../../../../content/kazzam/classes/charmer.toml")),
    ("content/kazzam/classes/tamer.toml", include_str!("../../../../content/kazzam/classes/tamer.toml")),
];

/// Reads one class file; errors name the file, line and field.
pub fn parse(file: &str, text: &str) -> Result<ClassFile, String> {
    let f: ClassFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    for (i, imp) in f.class.implements.iter().enumerate() {
        if crate::engine::records::implement::Implement::parse(imp).is_none() {
            let at = match text.lines().position(|l| l.trim_start().starts_with("implements")) {
                Some(l) => format!("{file}, line {}", l + 1),
                None => file.to_string(),
            };
            return Err(format!("{at}: class.implements[{i}]: {imp:?} is not wand, staff or sword"));
        }
    }
    let mut probe = crate::content::powers::Powers::default();
    for p in &f.power {
        let at = || crate::content::file_line(file, text, "[[power]]", &p.id);
        if p.class.as_deref().is_some_and(|c| c != f.class.id) {
            let class = p.class.as_deref().unwrap_or_default();
            return Err(format!(
                "{}: power {:?}, field class: {class:?} is not this file's {:?}",
                at(),
                p.id,
                f.class.id
            ));
        }
        probe.add(p.clone()).map_err(|e| format!("{}: {e}", at()))?;
    }
    Ok(f)
}

/// An advanced implement, chosen at level 3 (K-AIMP-1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvancedImplement {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// sword, staff or wand.
    pub kind: String,
    /// Where the rulebook prints it.
    #[serde(default)]
    pub source: Option<String>,
    /// Not played by the engine yet.
    #[serde(default)]
    pub reference_only: bool,
    /// What it changes, in Fray's words.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImplementsFile {
    implement: Vec<AdvancedImplement>,
}

/// The advanced implements (`content/kazzam/implements.toml`).
pub fn advanced_implements() -> Result<Vec<AdvancedImplement>, String> {
    let text = include_str!("../../../../content/kazzam/implements.toml");
    let f: ImplementsFile = toml::from_str(text).map_err(|e| format!("content/kazzam/implements.toml: {e}"))?;
    for (i, a) in f.implement.iter().enumerate() {
        if crate::engine::records::implement::Implement::parse(&a.kind)
            .is_none_or(|k| k == crate::engine::records::implement::Implement::None)
        {
            return Err(format!(
                "content/kazzam/implements.toml: implement[{i}] ({}).kind: {:?} is not sword, staff or wand",
                a.id, a.kind
            ));
        }
    }
    Ok(f.implement)
}
