//! Kazzam's content as a value: the classes, roles, Creep stat blocks and powers the content
//! files hold, parsed and checked once. A [`crate::Kazzam`] holds one, and so does every match
//! state it starts, so one process may play several content sets side by side. Nothing here
//! reads files: [`Content::builtin`] parses the compiled-in texts, and a program that lets people
//! edit content (the `fray` binary, `FRAY_CONTENT_DIR`) reads the files itself and hands their
//! texts to [`Content::from_files`].

pub mod builder;
pub mod builtin;
pub mod classes;
pub mod creeps;
pub mod hooks;
pub mod maps;
pub mod powers;
pub mod reference;
pub mod roles;
pub mod teams;

use crate::content::classes::ClassFile;
use crate::content::creeps::CreepDef;
use crate::content::powers::{PowerFile, Powers};
use crate::content::roles::RolesFile;

/// Everything the content files hold.
#[derive(Clone, Debug)]
pub struct Content {
    /// Each file's place in the content layout (`content/kazzam/roles.toml`) and its text.
    files: Vec<(String, String)>,
    classes: Vec<ClassFile>,
    roles: RolesFile,
    creeps: Vec<CreepDef>,
    builtin_powers: Powers,
    powers: Powers,
    feature_ids: Vec<String>,
    feature_groups: Vec<String>,
}

/// The compiled-in content files, by their place in the content layout, in the order they load:
/// the class files, the power files, the roles, the Creep stat blocks. A folder given instead
/// (`FRAY_CONTENT_DIR`) holds the same files under the same names, less the leading `content/`.
pub fn builtin_files() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = crate::content::classes::BUILTIN.to_vec();
    out.extend_from_slice(crate::content::powers::BUILTIN);
    out.push((crate::content::roles::FILE, crate::content::roles::TEXT));
    out.push((crate::content::creeps::FILE, crate::content::creeps::TEXT));
    out
}

/// What a content file is, read from its place under `kazzam/`.
enum Kind {
    Class,
    Powers,
    Roles,
    Creeps,
}

/// A file's place in the content layout (`content/kazzam/...`), from a name that ends in it
/// (`content/kazzam/roles.toml`, `/tmp/copy/kazzam/roles.toml`), and what kind of file it is.
fn place(name: &str) -> Option<(String, Kind)> {
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    let k = parts.iter().rposition(|p| *p == "kazzam")?;
    let tail = &parts[k + 1..];
    let kind = match tail {
        ["classes", f] if f.ends_with(".toml") => Kind::Class,
        ["powers", f] if f.ends_with(".toml") => Kind::Powers,
        ["roles.toml"] => Kind::Roles,
        ["creeps.toml"] => Kind::Creeps,
        _ => return None,
    };
    Some((format!("content/kazzam/{}", tail.join("/")), kind))
}

/// The line (from 1) of the `id = "..."` line of the `[[header]]` table whose id is `id`.
pub(crate) fn line_of_id(text: &str, header: &str, id: &str) -> Option<usize> {
    let mut table = "";
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('[') {
            table = l;
            continue;
        }
        if table == header
            && let Some((k, v)) = l.split_once('=')
            && k.trim() == "id"
            && v.trim().trim_matches(['"', '\'']) == id
        {
            return Some(i + 1);
        }
    }
    None
}

/// `file` and the line of the `[[header]]` table whose id is `id`, for an error about it.
pub(crate) fn file_line(file: &str, text: &str, header: &str, id: &str) -> String {
    match line_of_id(text, header, id) {
        Some(l) => format!("{file}, line {l}"),
        None => file.to_string(),
    }
}

/// The range of each number a Kazzam content, team or scenario file may hold (issue 14), by
/// field name wherever the field is (`fray_core::scenario::numbers_outside`); a field not listed
/// is held to ±9999. The bounds follow the limits of play (docs/scenarios/kazzam.md, "Limits"):
/// a map is at most 100 squares across, so no distance, radius or forced movement is longer than
/// 99 (99 reads "anywhere on the map"); hit points, damage, healing, Ward and status amounts stay
/// within 99 either way; levels are 1-6 (K-PROG-7); a d20 face is 1-20. A unit's own fields are
/// checked more narrowly where a scenario or team reads them.
pub const NUMBER_RANGES: &[fray_core::scenario::FieldRange] = &[
    // A Creep is a unit: size 1-4 like every unit; its attacks per action are a handful.
    ("creep.size", 1..=4),
    ("creep.attacks", 1..=9),
    // Damage and what reduces or restores it.
    ("damage", 0..=99),
    ("damage-if-grabbed-by-you", 0..=99),
    ("unreduced-damage", 0..=99),
    ("stand-up-damage", 0..=99),
    ("bloodied-amount", 0..=99),
    ("heal", 0..=99),
    ("retaliate", 0..=99),
    ("turn_ward", 0..=99),
    // Ward and status amounts may be taken away (a Resist -1, a Ward -2).
    ("amount", -99..=99),
    ("ward", -99..=99),
    ("hp_bonus", -99..=99),
    // Squares: forced movement, shifts, teleports, ranges, radii, areas, speeds.
    ("push", 0..=99),
    ("pull", 0..=99),
    ("slide", 0..=99),
    ("throw", 0..=99),
    ("teleport", 0..=99),
    ("teleport-self", 0..=99),
    ("shift", 0..=99),
    ("shift-self", 0..=99),
    ("forced_reduction", 0..=99),
    ("far_resist", 0..=99),
    ("range", 0..=99),
    ("within", 0..=99),
    ("radius", 0..=99),
    ("size", 1..=99),
    ("speed", 0..=99),
    // Levels (K-PROG-7) and level-ups (from 2).
    ("level", 1..=6),
    ("from", 2..=6),
    // Counts.
    ("max_targets", 1..=99),
    ("picks", 1..=99),
    ("min", 0..=99),
    ("max", 0..=99),
    ("potions", 0..=99),
    ("splash", 0..=99),
    ("miss-tokens", 0..=99),
    ("miss_tokens", 0..=99),
    // A d20 face.
    ("min-roll", 1..=20),
];

impl Content {
    /// The compiled-in content.
    ///
    /// # Panics
    /// If the compiled-in files do not load (the test suite loads them on every run).
    pub fn builtin() -> Content {
        let files = builtin_files().into_iter().map(|(n, t)| (n.to_string(), t.to_string()));
        Content::from_files(files)
            .unwrap_or_else(|e| panic!("the compiled-in Kazzam content does not load:\n{}", e.join("\n")))
    }

    /// Content from files given as (name, text): each name ends in its place in the content
    /// layout (`.../kazzam/classes/hexer.toml`, `.../kazzam/powers/basic.toml`,
    /// `.../kazzam/roles.toml`, `.../kazzam/creeps.toml`) and is how errors name the file. Power
    /// files load in the order given, then the Creeps' actions, then each class's powers and the
    /// role powers. Every problem is returned, each naming its file, line and field.
    pub fn from_files(files: impl IntoIterator<Item = (String, String)>) -> Result<Content, Vec<String>> {
        let mut errors = Vec::new();
        let mut placed = Vec::new();
        let (mut roles, mut creeps) = (None, None);
        let (mut power_files, mut class_files) = (Vec::new(), Vec::new());
        for (name, text) in files {
            let Some((layout, kind)) = place(&name) else {
                errors.push(format!(
                    "{name}: not a Kazzam content file (kazzam/classes/*.toml, kazzam/powers/*.toml, kazzam/roles.toml or kazzam/creeps.toml)"
                ));
                continue;
            };
            // Issue 14: every number within its field's range.
            errors.extend(
                fray_core::scenario::numbers_outside(&text, &[], NUMBER_RANGES)
                    .into_iter()
                    .map(|e| format!("{name}: {e}")),
            );
            let i = placed.len();
            match kind {
                Kind::Class => class_files.push(i),
                Kind::Powers => power_files.push(i),
                Kind::Roles if roles.is_some() => errors.push(format!("{name}: a second roles file")),
                Kind::Roles => roles = Some(i),
                Kind::Creeps if creeps.is_some() => errors.push(format!("{name}: a second Creep stat-block file")),
                Kind::Creeps => creeps = Some(i),
            }
            placed.push((name, layout, text));
        }
        for (what, found) in [("content/kazzam/roles.toml", roles), ("content/kazzam/creeps.toml", creeps)] {
            if found.is_none() {
                errors.push(format!("{what}: missing"));
            }
        }
        let creeps = match creeps.map(|i| crate::content::creeps::parse(&placed[i].0, &placed[i].2)) {
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                errors.push(e);
                Vec::new()
            }
            None => Vec::new(),
        };
        let roles = match roles.map(|i| crate::content::roles::parse(&placed[i].0, &placed[i].2)) {
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                errors.push(e);
                RolesFile::default()
            }
            None => RolesFile::default(),
        };
        let mut builtin_powers = Powers::default();
        for &i in &power_files {
            let (name, _, text) = &placed[i];
            match toml::from_str::<PowerFile>(text) {
                Ok(f) => {
                    for def in f.power {
                        let id = def.id.clone();
                        if let Err(e) = builtin_powers.add(def) {
                            errors.push(format!("{}: {e}", file_line(name, text, "[[power]]", &id)));
                        }
                    }
                }
                Err(e) => errors.push(format!("{name}: {e}")),
            }
        }
        if let Err(e) = crate::content::creeps::add_powers(&mut builtin_powers, &creeps) {
            errors.push(e);
        }
        let mut classes = Vec::new();
        for &i in &class_files {
            let (name, _, text) = &placed[i];
            // A class file still empty is skipped.
            if text.trim().is_empty() || !text.contains("[class]") {
                continue;
            }
            match crate::content::classes::parse(name, text) {
                Ok(c) => classes.push(c),
                Err(e) => errors.push(e),
            }
        }
        let mut powers = builtin_powers.clone();
        for def in classes.iter().flat_map(|c| c.power.iter()).chain(roles.power.iter()) {
            if let Err(e) = powers.add(def.clone()) {
                errors.push(e);
            }
        }
        // A stat block's version of a power (§5) names a class power that exists.
        for d in powers.all().iter().filter(|d| d.variant_of.is_some()) {
            let of = d.variant_of.as_deref().unwrap_or_default();
            if !classes.iter().any(|c| c.power.iter().any(|p| p.id == of)) {
                errors.push(format!("power {:?}, field variant_of: {of:?} is not a class power", d.id));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let features = classes.iter().flat_map(|c| c.feature.iter());
        Ok(Content {
            files: placed.into_iter().map(|(_, layout, text)| (layout, text)).collect(),
            feature_ids: features.clone().map(|f| f.id.clone()).collect(),
            feature_groups: features.map(|f| f.group.clone().unwrap_or_default()).collect(),
            classes,
            roles,
            creeps,
            builtin_powers,
            powers,
        })
    }

    /// Every file, by its place in the content layout, with its text, in load order (what the
    /// fingerprint hashes: the same texts give the same fingerprint wherever they were read).
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|(n, t)| (n.as_str(), t.as_str()))
    }
    /// The classes (K-CHAR-1), in file order.
    pub fn classes(&self) -> &[ClassFile] {
        &self.classes
    }
    /// The roles, specializations and role powers.
    pub fn roles(&self) -> &RolesFile {
        &self.roles
    }
    /// The Creep stat blocks.
    pub fn creeps(&self) -> &[CreepDef] {
        &self.creeps
    }
    /// The stat block called `id`, with its index in [`Content::creeps`].
    pub fn creep(&self, id: &str) -> Option<(u16, &CreepDef)> {
        self.creeps.iter().position(|c| c.id == id).map(|i| (i as u16, &self.creeps[i]))
    }
    /// This content with more stat blocks (a scenario's own `[[creep]]`, e.g. a Stooge or a
    /// Packmaster, which no map of the book prints), given as a creeps file's text.
    pub fn with_creeps(&self, file: &str, text: &str) -> Result<Content, String> {
        let extra = crate::content::creeps::parse(file, text)?;
        let mut c = self.clone();
        if let Some(d) = extra.iter().find(|d| c.creeps.iter().any(|x| x.id == d.id)) {
            return Err(format!("{file}: creep {:?} is a stat block already", d.id));
        }
        crate::content::creeps::add_powers(&mut c.powers, &extra)?;
        crate::content::creeps::add_powers(&mut c.builtin_powers, &extra)?;
        c.files.push((file.to_string(), text.to_string()));
        c.creeps.extend(extra);
        Ok(c)
    }
    /// The power files' powers and the Creeps' actions: what the default match plays with.
    pub fn builtin_powers(&self) -> &Powers {
        &self.builtin_powers
    }
    /// Those and every class and role power (K-CHAR-1..3): what a match or a scenario can give a
    /// unit by id. Powers still `reference_only` are refused in play.
    pub fn powers(&self) -> &Powers {
        &self.powers
    }
    /// Every feature id in the class files, in file order.
    pub fn features(&self) -> &[String] {
        &self.feature_ids
    }
    /// The pick group of a feature id ("" if none).
    pub fn feature_group(&self, id: &str) -> &str {
        self.feature_ids.iter().position(|x| x == id).map_or("", |i| self.feature_groups[i].as_str())
    }
}
