//! The enemy file (`content/dojo/enemies.toml`) as data: the enemy chapter's forces, the
//! Stooges' Reinforcements, the Boss Archetypes and the one-Boss Styles and Forms, read and
//! checked against the rest of the content. How enemies play is [`crate::enemies`].

use crate::content::{ActionDef, Content, Kind};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The enemy file's name among the content files.
pub const FILE: &str = "dojo/enemies.toml";

/// The forces `fray play dojo --away NAME` knows by name, each with its side file's text (an
/// enemy alone, or several, go in a side file of one's own). The crate's tests check the list
/// against the content's forces.
pub const FORCE_SIDES: &[(&str, &str)] = &[
    ("angel", "enemies = [\"angel\"]\n"),
    ("cavalry", "enemies = [\"cavalry\"]\n"),
    ("cyborg", "enemies = [\"cyborg\"]\n"),
    ("demon", "enemies = [\"demon\"]\n"),
    ("flametongue", "enemies = [\"flametongue\"]\n"),
    ("gunkata", "enemies = [\"gunkata\"]\n"),
    ("phantom", "enemies = [\"phantom\"]\n"),
    ("punk", "enemies = [\"punk\"]\n"),
    ("teacher", "enemies = [\"teacher\"]\n"),
    ("trickster", "enemies = [\"trickster\"]\n"),
    ("underdog", "enemies = [\"underdog\"]\n"),
    ("wardancer", "enemies = [\"wardancer\"]\n"),
    ("winterblossom", "enemies = [\"winterblossom\"]\n"),
    ("unique", "enemies = [\"unique\"]\n"),
    ("backers", "enemies = [\"backers\"]\n"),
];

/// One enemy as the chapter lists it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Stooges, Warrior or Boss.
    pub kind: Kind,
    /// The stat block's first line in the book.
    pub line: u32,
    /// Its Stances, `style+form` (a Forbidden Stance `forbidden+form+form`).
    pub stances: Vec<String>,
    /// A Warrior's or Boss's Fused Archetype (or a Super Stooges group's).
    #[serde(default)]
    pub archetype: Option<String>,
    /// A Stooge group's Build.
    #[serde(default)]
    pub build: Option<String>,
    /// Health bars (a Boss 2 to 5, Super Stooges 2).
    #[serde(default)]
    pub bars: Option<u8>,
    /// Where Fray and the printed block part ways.
    #[serde(default)]
    pub note: Option<String>,
    /// Control Form's pick (`far` or `near`), as the unit file's `control`.
    #[serde(default)]
    pub control: Option<String>,
    /// A Vehicle's shape as the Director draws it (D-RNG-5): offsets `[dx, dy]` from its square.
    #[serde(default)]
    pub shape: Vec<[i32; 2]>,
}

/// A force: one Archetype's faction.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Force {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The chapter's first line in the book.
    pub line: u32,
    /// Its enemies.
    pub enemy: Vec<EnemyDef>,
}

/// The enemy file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyFile {
    /// The Stooges' Reinforcements (D-EN-8).
    pub reinforcements: ActionDef,
    /// The forces.
    pub force: Vec<Force>,
    /// The Boss Archetypes (§2.4).
    #[serde(default)]
    pub boss_archetype: Vec<crate::content::boss_file::BossArchetype>,
    /// The Styles that exist for one Boss only (§2.5).
    #[serde(default)]
    pub style: Vec<crate::content::Style>,
    /// The Forms that exist for one Boss only (§2.5: Dragon's Ego's dice and abilities).
    #[serde(default)]
    pub form: Vec<crate::content::Form>,
}

impl EnemyFile {
    /// Every enemy of every force.
    pub fn enemies(&self) -> impl Iterator<Item = &EnemyDef> {
        self.force.iter().flat_map(|f| f.enemy.iter())
    }
    /// The enemies a name stands for: a force's (all five) or one enemy.
    pub fn named(&self, name: &str) -> Option<Vec<&EnemyDef>> {
        let n = name.trim();
        if let Some(f) = self.force.iter().find(|f| f.id == n) {
            return Some(f.enemy.iter().collect());
        }
        self.enemies().find(|e| e.id == n).map(|e| vec![e])
    }
}

/// Reads an enemy file's text; errors name the file, line and field.
pub fn read(text: &str) -> Result<EnemyFile, String> {
    toml::from_str(text).map_err(|e| format!("{FILE}: {}", e.to_string().trim_end()))
}

/// Every problem with the enemy file against `content`: unknown Styles, Forms, Archetypes or
/// Builds, and enemies the creation rules refuse.
pub fn check(file: &EnemyFile, content: &Content) -> Vec<String> {
    let mut errors = Vec::new();
    let mut seen = BTreeMap::new();
    for e in file.enemies() {
        let at = format!("{FILE}: enemy {} (L{})", e.id, e.line);
        if seen.insert(e.id.clone(), ()).is_some() || file.force.iter().any(|f| f.id == e.id) {
            errors.push(format!("{at}: the id is taken"));
        }
        for s in &e.stances {
            let parts: Vec<&str> = s.split('+').collect();
            let ok = match parts.as_slice() {
                [st, f] => content.style(st).is_some() && content.form(f).is_some(),
                ["forbidden", a, b] => content.form(a).is_some() && content.form(b).is_some() && a != b,
                _ => false,
            };
            if !ok {
                errors.push(format!("{at}: field `stances`: {s:?} is not a Style and a Form"));
            }
        }
        if let Some(a) = &e.archetype
            && !content.archetypes.iter().any(|x| x.id == *a)
        {
            errors.push(format!("{at}: field `archetype`: no Archetype {a:?}"));
        }
        if let Some(b) = &e.build
            && !content.builds.iter().any(|x| x.id == *b)
        {
            errors.push(format!("{at}: field `build`: no Build {b:?}"));
        }
        // D-RNG-5: only a Vehicle draws its shape, offsets 0 to 8.
        let archetypes: Vec<String> = e.archetype.iter().cloned().collect();
        if let Err(why) = crate::big::offsets_for(&archetypes, &e.shape) {
            errors.push(format!("{at}: field `shape`: {why}"));
        }
    }
    errors
}
