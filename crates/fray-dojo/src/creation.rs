//! Hero creation (D-HC-1..D-HC-7): the rules a hero's sheet must keep, checked by
//! `fray build dojo FILE` on top of what any fight needs, every problem at once with its file,
//! line and field. A fight (a scenario, a test) may bend them; `fray build` holds a hero to all.

use crate::content::{Content, norm};
use crate::setup::UnitSpec;
use crate::state::Kind;
use std::collections::BTreeSet;
use toml::Spanned;

/// Every creation problem of the heroes in an encounter file.
pub fn check(path: &str, text: &str, content: &Content, units: &[Spanned<UnitSpec>]) -> Vec<String> {
    let mut errors = Vec::new();
    for spanned in units {
        let u = spanned.get_ref();
        if u.kind != Kind::Hero {
            continue;
        }
        let line = fray_core::scenario::line_of(text, spanned.span().start);
        let at = |field: &str| format!("{path}:{line}: hero {}: field `{field}`", u.id);
        let archetype_of = |style: &str| content.style(style).map(|i| content.styles[i].archetype.clone());
        // The hero's Forms and Styles, as named in `stances` (style+form) or, Frantic, listed.
        let (forms, styles): (Vec<String>, Vec<String>) = if u.frantic.is_empty() {
            u.stances
                .iter()
                .map(|s| match s.split_once('+') {
                    Some((st, f)) => (f.to_string(), st.to_string()),
                    None => (s.clone(), String::new()),
                })
                .unzip()
        } else {
            (u.forms.clone(), u.styles.clone())
        };
        if u.frantic.is_empty() {
            // D-HC-1, D-HC-2: three Stances, each a Style and a Form.
            if u.stances.len() != 3 {
                errors.push(format!("{}: a hero has 3 Stances, this one {} (D-HC-1)", at("stances"), u.stances.len()));
            }
            for s in u.stances.iter().filter(|s| !s.contains('+')) {
                errors.push(format!("{}: {s:?} has no Style: write STYLE+FORM (D-HC-2, D-STN-1)", at("stances")));
            }
            let used: BTreeSet<String> =
                styles.iter().filter(|s| !s.is_empty()).filter_map(|s| archetype_of(s)).collect();
            match u.archetypes.len() {
                0 => errors.push(format!(
                    "{}: a hero is Focused (one Archetype), Fused (two) or Frantic (`frantic`) (D-HC-1)",
                    at("archetypes")
                )),
                // D-HC-3: all three Styles of the one Archetype.
                1 => {
                    if used.iter().any(|a| *a != u.archetypes[0]) {
                        errors.push(format!(
                            "{}: a Focused hero's Styles all come from {} (D-HC-3)",
                            at("stances"),
                            u.archetypes[0]
                        ));
                    }
                }
                // D-HC-4: at least one Style of each, none of any other.
                2 => {
                    for a in &u.archetypes {
                        if !used.contains(a) {
                            errors.push(format!("{}: a Fused hero needs a Style of {a} (D-HC-4)", at("stances")));
                        }
                    }
                    if used.iter().any(|a| !u.archetypes.contains(a)) {
                        errors.push(format!(
                            "{}: a Fused hero's Styles come from its two Archetypes only (D-HC-4)",
                            at("stances")
                        ));
                    }
                }
                n => errors.push(format!("{}: {n} Archetypes; one or two (D-HC-1)", at("archetypes"))),
            }
        } else {
            // D-HC-5: three Forms, three Styles of three Archetypes, three Frantic abilities of
            // which two or more match those Styles' Archetypes (D-G-26: the hero chapter's
            // stricter reading, which meets the Styles chapter's too).
            if u.forms.len() != 3 || u.forms.iter().map(|f| content.form(f)).collect::<BTreeSet<_>>().len() != 3 {
                errors.push(format!("{}: a Frantic hero has 3 different Forms (D-HC-5)", at("forms")));
            }
            let of: BTreeSet<String> = u.styles.iter().filter_map(|s| archetype_of(s)).collect();
            if u.styles.len() != 3 || of.len() != 3 {
                errors.push(format!("{}: 3 Styles of 3 different Archetypes (D-HC-5)", at("styles")));
            }
            let picked: BTreeSet<&String> = u.frantic.iter().collect();
            if u.frantic.len() != 3 || picked.len() != 3 {
                errors.push(format!("{}: 3 different Frantic abilities (D-HC-5)", at("frantic")));
            }
            if u.frantic.iter().filter(|a| of.contains(*a)).count() < 2 {
                errors.push(format!(
                    "{}: at least 2 Frantic abilities of the Styles' Archetypes (D-HC-5)",
                    at("frantic")
                ));
            }
        }
        // D-HC-1, D-HC-7: a Build.
        if u.build.is_none() {
            errors.push(format!("{}: a hero has a Build (D-HC-1, D-HC-7)", at("build")));
        }
        // D-HC-6: four Skills: three of Forms (two or more of the hero's own, one may be any
        // other Form's), and one two-word Skill of its own. D-G-24: a Form's Skill goes by the
        // Form's own name for it (the sheets' misprints, such as Unbreakable, are not one).
        // D-STN-4: a Forbidden Stance (`forbidden+A+B`) gives one Skill, of either of its Forms:
        // its two Forms make one group, of which one Skill counts as the hero's own.
        let mut own: BTreeSet<Vec<String>> = BTreeSet::new();
        for f in &forms {
            let group: Vec<String> =
                f.split('+').filter_map(|f| content.form(f)).map(|i| norm(&content.forms[i].skill)).collect();
            if !group.is_empty() {
                own.insert(group);
            }
        }
        let any: Vec<String> = content.forms.iter().map(|f| norm(&f.skill)).collect();
        let skills: Vec<String> = u.skills.iter().map(|s| norm(s)).collect();
        let from_forms = skills.iter().filter(|s| any.contains(s)).count();
        let from_own: usize = own.iter().map(|g| skills.iter().filter(|s| g.contains(s)).count().min(1)).sum();
        let custom: Vec<&String> = u.skills.iter().filter(|s| !any.contains(&norm(s))).collect();
        let distinct: BTreeSet<&String> = skills.iter().collect();
        if u.skills.len() != 4 || distinct.len() != 4 {
            errors.push(format!("{}: a hero has 4 different Skills (D-HC-1)", at("skills")));
        } else if from_forms != 3 || from_own < 2 {
            errors.push(format!(
                "{}: 3 Skills of Forms, at least 2 of them of the hero's own Forms (D-HC-6)",
                at("skills")
            ));
        } else if custom.iter().any(|s| s.split_whitespace().count() != 2) {
            errors.push(format!("{}: the hero's own Skill is two words (D-HC-6)", at("skills")));
        }
        if own.iter().any(|g| g.len() > 1 && g.iter().all(|k| skills.contains(k))) {
            errors.push(format!(
                "{}: a Forbidden Stance gives one Skill, of either of its Forms, not both (D-STN-4)",
                at("skills")
            ));
        }
    }
    errors
}

/// The creation problems of the encounter file `text` (none when it does not read: the fight's
/// own checks report that).
pub fn check_text(game: &crate::Dojo, path: &str, text: &str) -> Vec<String> {
    match (game.content(), crate::setup::read_encounter(path, text)) {
        (Ok(content), Ok(e)) => {
            let mut errors = check(path, text, &content, &e.unit);
            if e.niche_protection {
                errors.extend(niche(path, text, &content, &e.unit));
            }
            errors
        }
        _ => Vec::new(),
    }
}

/// Niche Protection (D-HC-8, D-OPT-3, L3431-3435), when the file asks for it: no hero takes a
/// Style an earlier hero has, and no Focused or Fused hero an Archetype an earlier one has (a
/// Frantic hero's three abilities are not Archetypes it holds).
pub fn niche(path: &str, text: &str, content: &Content, units: &[Spanned<UnitSpec>]) -> Vec<String> {
    let mut errors = Vec::new();
    let mut styles: Vec<(String, String)> = Vec::new();
    let mut archetypes: Vec<(String, String)> = Vec::new();
    for spanned in units {
        let u = spanned.get_ref();
        if u.kind != Kind::Hero {
            continue;
        }
        let line = fray_core::scenario::line_of(text, spanned.span().start);
        let field = if u.frantic.is_empty() { "stances" } else { "styles" };
        let mine: BTreeSet<String> = if u.frantic.is_empty() {
            u.stances.iter().filter_map(|s| s.split_once('+').map(|(st, _)| st.to_string())).collect()
        } else {
            u.styles.iter().cloned().collect()
        };
        for st in mine.iter().filter_map(|s| content.style(s).map(|i| content.styles[i].id.clone())) {
            match styles.iter().find(|(s, _)| *s == st) {
                Some((_, who)) => errors.push(format!(
                    "{path}:{line}: hero {}: field `{field}`: the {st} Style is {who}'s (Niche Protection, D-HC-8)",
                    u.id
                )),
                None => styles.push((st, u.id.clone())),
            }
        }
        for a in &u.archetypes {
            match archetypes.iter().find(|(x, _)| x == a) {
                Some((_, who)) => errors.push(format!(
                    "{path}:{line}: hero {}: field `archetypes`: {a} is {who}'s Archetype (Niche Protection, D-HC-8)",
                    u.id
                )),
                None => archetypes.push((a.clone(), u.id.clone())),
            }
        }
    }
    errors
}
