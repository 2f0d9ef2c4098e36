//! Kazzam scenario files (the shared SCENARIOS.md contract): the fields Kazzam adds are
//! `[[unit]]` stats given outright (see [`crate::engine::setup::UnitSpec`]), `[[orb]]` orbs on the
//! ground, `[[power]]` powers defined inline (the same form as content files), the map legend
//! in [`crate::engine::arena::Arena::parse`], and `roll_initiative`.

use crate::Kazzam;
use crate::content::Content;
use crate::content::powers::PowerDef;
use crate::engine::options::TableOptions;
use crate::engine::setup::{self, MapSpec, OrbSpec, Setup, UnitSpec};
use crate::rules::actions::Command;
use fray_core::dice::ScriptedDice;
use fray_core::scenario::{DiceSpec, Loaded, Step, line_of};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    system: String,
    title: String,
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    options: TableOptions,
    #[serde(default)]
    seed: Option<u64>,
    map: MapSpec,
    #[serde(default)]
    unit: Vec<Spanned<UnitSpec>>,
    #[serde(default)]
    orb: Vec<OrbSpec>,
    #[serde(default)]
    power: Vec<Spanned<PowerDef>>,
    #[serde(default)]
    creep: Vec<toml::Value>,
    #[serde(default)]
    roll_initiative: bool,
    #[serde(default)]
    dice: DiceSpec,
    #[serde(default)]
    step: Vec<Step<Command>>,
    #[serde(default)]
    expect: toml::Table,
}

/// Reads a scenario against `content` (its powers, classes and stat blocks); errors name the
/// file, the line and the field.
pub fn load(content: &Arc<Content>, path: &str, text: &str) -> Result<Loaded<Kazzam>, String> {
    let f: File = toml::from_str(text).map_err(|e| format!("{path}: {e}"))?;
    if f.system != "kazzam" {
        return Err(format!("{path}: system is {:?}, expected \"kazzam\"", f.system));
    }
    // Issue 14: the file's own powers and stat blocks held to content's ranges, the rest to the
    // catch-all here and to each field's range where the units and the map are read.
    let mut beyond = fray_core::scenario::numbers_beyond(text, &["seed", "expect", "power", "creep"]);
    beyond.extend(fray_core::scenario::numbers_outside_of(text, &["power", "creep"], crate::content::NUMBER_RANGES));
    if !beyond.is_empty() {
        return Err(fray_core::scenario::capped(beyond.iter().map(|e| format!("{path}: {e}")).collect()).join("\n"));
    }
    // Stat blocks of the file's own (`[[creep]]`, the creeps file's form).
    let owned;
    let content = if f.creep.is_empty() {
        content
    } else {
        let mut t = toml::Table::new();
        t.insert("creep".into(), toml::Value::Array(f.creep.clone()));
        let text = toml::to_string(&t).map_err(|e| format!("{path}: [[creep]]: {e}"))?;
        owned = Arc::new(content.with_creeps(path, &text)?);
        &owned
    };
    let mut powers = content.powers().clone();
    for p in f.power {
        let line = line_of(text, p.span().start);
        powers.add(p.into_inner()).map_err(|e| format!("{path}:{line}: {e}"))?;
    }
    let units = f
        .unit
        .into_iter()
        .map(|u| (line_of(text, u.span().start), u.into_inner()))
        .map(|(l, u)| (u, Some(l)))
        .collect();
    let setup = Setup { map: f.map, units, orbs: f.orb, powers, options: f.options, content: content.clone() };
    let mut state = setup::build(setup)
        .map_err(|es| fray_core::scenario::capped(es.iter().map(|e| format!("{path}: {e}")).collect()).join("\n"))?;
    let unused_dice_ok = f.dice.unused.is_some();
    let mut dice = ScriptedDice::new(f.dice.rolls, f.seed);
    let setup_journal =
        setup::start(&mut state, &mut dice, f.roll_initiative).map_err(|e| format!("{path}: setting up: {e}"))?;
    Ok(Loaded {
        title: f.title,
        rules: f.rules,
        state,
        setup_journal,
        dice,
        unused_dice_ok,
        steps: f.step,
        expect: f.expect,
    })
}
