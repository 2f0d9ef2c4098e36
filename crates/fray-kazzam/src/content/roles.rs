//! Roles and specializations (K-ROLE, K-CHAR-1/2, K-PROG-2/4/6): the five roles, their twenty
//! specializations, and the role powers, read from `content/kazzam/roles.toml`. Like the class
//! powers, most role powers are look-up and building data; the engine plays only what its effect
//! primitives carry (see the rulings).

use serde::Deserialize;

use crate::content::powers::PowerDef;

/// A role.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleDef {
    /// Id (`controller`...).
    pub id: String,
    /// Name.
    pub name: String,
    /// Where the rulebook prints it.
    #[serde(default)]
    pub source: Option<String>,
    /// What it does, in Fray's words.
    pub text: String,
    /// Its Role Boost at levels 1-3.
    pub boost: String,
    /// Its Role Boost from level 4.
    pub boost_level4: String,
}

/// A specialization of a role.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecializationDef {
    /// Id (`crowd-control`...).
    pub id: String,
    /// The role it belongs to.
    pub role: String,
    /// Name.
    pub name: String,
    /// Where the rulebook prints it.
    #[serde(default)]
    pub source: Option<String>,
    /// What it grants, in Fray's words.
    pub text: String,
}

/// The roles file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RolesFile {
    /// Roles.
    #[serde(default)]
    pub role: Vec<RoleDef>,
    /// Specializations.
    #[serde(default)]
    pub specialization: Vec<SpecializationDef>,
    /// Role powers (at-wills, Defender Reactions, Specialist encounters, level 2/6 encounters).
    #[serde(default)]
    pub power: Vec<PowerDef>,
}

/// The group of the role encounter powers chosen at levels 2 and 6 (K-PROG-2, K-PROG-6).
pub const ENCOUNTER_GROUP: &str = "role-encounter";

impl RolesFile {
    /// The role with this id.
    pub fn role(&self, id: &str) -> Option<&RoleDef> {
        self.role.iter().find(|r| r.id == id)
    }
    /// The specialization with this id.
    pub fn specialization(&self, id: &str) -> Option<&SpecializationDef> {
        self.specialization.iter().find(|s| s.id == id)
    }
    /// The power with this id.
    pub fn power(&self, id: &str) -> Option<&PowerDef> {
        self.power.iter().find(|p| p.id == id)
    }
    /// The powers an athlete of this role and specialization has without choosing: the role's
    /// and the specialization's at-wills, reactions and Specialist encounter powers.
    pub fn granted<'a>(&'a self, role: &'a str, spec: &'a str) -> impl Iterator<Item = &'a PowerDef> + 'a {
        self.power.iter().filter(move |p| {
            p.group.as_deref() != Some(ENCOUNTER_GROUP)
                && p.role.as_deref() == Some(role)
                && p.specialization.as_deref().is_none_or(|s| s == spec)
        })
    }
}

/// Reads a roles file; errors name the file, line and field.
pub fn parse(file: &str, text: &str) -> Result<RolesFile, String> {
    let f: RolesFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    for (i, s) in f.specialization.iter().enumerate() {
        if f.role(&s.role).is_none() {
            return Err(format!(
                "{}: specialization[{i}] ({}).role: {:?} is not a role in this file",
                crate::content::file_line(file, text, "[[specialization]]", &s.id),
                s.id,
                s.role
            ));
        }
    }
    let mut probe = crate::content::powers::Powers::default();
    for (i, p) in f.power.iter().enumerate() {
        let at = || crate::content::file_line(file, text, "[[power]]", &p.id);
        let Some(role) = p.role.as_deref() else {
            return Err(format!("{}: power[{i}] ({}).role: every role power names its role", at(), p.id));
        };
        if f.role(role).is_none() {
            return Err(format!("{}: power[{i}] ({}).role: {role:?} is not a role in this file", at(), p.id));
        }
        if let Some(s) = p.specialization.as_deref()
            && f.specialization(s).is_none_or(|s| s.role != role)
        {
            return Err(format!(
                "{}: power[{i}] ({}).specialization: {s:?} is not a specialization of {role}",
                at(),
                p.id
            ));
        }
        probe.add(p.clone()).map_err(|e| format!("{}: {e}", at()))?;
    }
    Ok(f)
}

/// Where the roles file lives under the content folder.
pub const FILE: &str = "content/kazzam/roles.toml";
/// The compiled-in roles file.
pub const TEXT: &str = include_str!("../../../../content/kazzam/roles.toml");
