//! The Boss Archetypes (rules/dojo.md §2.4) and the content that exists for one Boss only
//! (§2.5) as data: how they join the content's lists, and which of the content is a Boss's.
//! How they play is [`crate::bosses`].

use crate::content::{Archetype, Content, Form, Style};
use serde::Deserialize;

/// A Boss Archetype as the enemy file lists it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BossArchetype {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Where the book has it.
    pub lines: String,
    /// Its ability, in our words.
    pub ability: String,
    /// The Styles one of a Boss's Stances must use (D-EN-11).
    pub styles: Vec<String>,
    /// What of it is not played yet.
    #[serde(default)]
    pub unplayed: Option<String>,
}

/// Adds the enemy file's Boss Archetypes and one-Boss Styles and Forms to the content's lists.
pub fn join(
    file: &crate::content::enemy_file::EnemyFile,
    archetypes: &mut Vec<Archetype>,
    styles: &mut Vec<Style>,
    forms: &mut Vec<Form>,
) {
    forms.extend(file.form.iter().cloned());
    for b in &file.boss_archetype {
        archetypes.push(Archetype {
            id: b.id.clone(),
            name: b.name.clone(),
            lines: b.lines.clone(),
            focused: String::new(),
            fused: b.ability.clone(),
            frantic: String::new(),
            unplayed: b.unplayed.clone(),
            boss: Some(b.styles.clone()),
        });
    }
    styles.extend(file.style.iter().cloned());
}

/// Whether the content's Archetype `a` is a Boss Archetype.
pub fn is_boss(content: &Content, a: usize) -> bool {
    content.archetypes[a].boss.is_some()
}

/// Whether the content's Style `st` exists for one Boss only (no hero may take it).
pub fn boss_style(content: &Content, st: usize) -> bool {
    let id = &content.styles[st].id;
    content.enemies.style.iter().any(|x| x.id == *id)
}

/// Whether the content's Form `f` exists for one Boss only (no hero may take it).
pub fn boss_form(content: &Content, f: usize) -> bool {
    let id = &content.forms[f].id;
    content.enemies.form.iter().any(|x| x.id == *id)
}

/// Whether the Style `st` meets the Archetype `a`'s demand on a Boss (D-EN-11): one of its own
/// Styles for a hero Archetype, one of the listed ones for a Boss Archetype.
pub fn fits(content: &Content, a: usize, st: usize) -> bool {
    let style = &content.styles[st];
    match &content.archetypes[a].boss {
        Some(list) => list.contains(&style.id),
        None => style.archetype == content.archetypes[a].id,
    }
}
