//! Draw Steel scenario files (SCENARIOS.md + docs/scenarios/drawsteel.md): `[[unit]]` entries
//! name a stat block (`creature = "vessa"`) with overrides, `[[creature]]` tables add stat
//! blocks inline, `[map]` may carry `heights`, and `first = "heroes"` fixes who goes first.

use crate::DrawSteel;
use crate::actions::Command;
use crate::model::StatBlock;
use crate::options::Options;
use crate::setup::{self, MapSpec, UnitSpec};
use fray_core::dice::ScriptedDice;
use fray_core::scenario::{DiceSpec, Loaded, Step, line_of};
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    system: String,
    title: String,
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    seed: Option<u64>,
    map: MapSpec,
    #[serde(default)]
    creature: Vec<StatBlock>,
    #[serde(default)]
    unit: Vec<Spanned<UnitSpec>>,
    #[serde(default)]
    first: Option<String>,
    #[serde(default)]
    hero_tokens: Option<i32>,
    #[serde(default)]
    malice: Option<i32>,
    #[serde(default)]
    import: Vec<setup::ImportSpec>,
    #[serde(default)]
    dice: DiceSpec,
    #[serde(default)]
    step: Vec<Step<Command>>,
    #[serde(default)]
    expect: toml::Table,
}

/// Reads a scenario; errors name file, line and field.
pub fn load(path: &str, text: &str) -> Result<Loaded<DrawSteel>, String> {
    let f: File = toml::from_str(text).map_err(|e| format!("{path}: {e}"))?;
    if f.system != "drawsteel" {
        return Err(format!("{path}: system is {:?}, expected \"drawsteel\"", f.system));
    }
    let beyond = fray_core::scenario::numbers_beyond(text, &["seed", "expect"]);
    if !beyond.is_empty() {
        return Err(fray_core::scenario::capped(beyond.iter().map(|e| format!("{path}: {e}")).collect()).join("\n"));
    }
    let mut blocks = setup::builtin_blocks()?;
    for b in setup::imports(path, &f.import).map_err(|es| es.join("\n"))?.into_iter().chain(f.creature) {
        blocks.retain(|x| x.id != b.id);
        blocks.push(b);
    }
    let units: Vec<(UnitSpec, Option<usize>)> = f
        .unit
        .into_iter()
        .map(|u| (line_of(text, u.span().start), u.into_inner()))
        .map(|(l, u)| (u, Some(l)))
        .collect();
    let mut options = f.options;
    // DS-GAP-1: scenario files take a lower tier only where they say so (the table's default
    // asks after every ability roll; a scenario about another rule need not answer it).
    let lower_tier_set = toml::from_str::<toml::Table>(text)
        .ok()
        .is_some_and(|t| t.get("options").and_then(|o| o.get("offer-lower-tier")).is_some());
    if !lower_tier_set {
        options.offer_lower_tier = false;
    }
    if f.hero_tokens.is_some() {
        options.hero_tokens = f.hero_tokens;
    }
    if let Some(e) =
        options.hero_tokens.and_then(|t| fray_core::scenario::out_of_range("hero_tokens", t as i64, 0..=99))
    {
        return Err(format!("{path}: {e}"));
    }
    let mut state = setup::build(&f.map, &blocks, &units, options)
        .map_err(|es| fray_core::scenario::capped(es.iter().map(|e| format!("{path}: {e}")).collect()).join("\n"))?;
    if let Some(m) = f.malice {
        if let Some(e) = fray_core::scenario::out_of_range("malice", m as i64, 0..=999) {
            return Err(format!("{path}: {e}"));
        }
        // The Director's Malice before the combat starts (DS-GAP-17): its gains add to it.
        state.malice = m;
    }
    let unused_dice_ok = f.dice.unused.is_some();
    let mut dice = ScriptedDice::new(f.dice.rolls, f.seed);
    let first = match f.first.as_deref() {
        None => None,
        Some(s) => Some(crate::state::Side::parse(s).ok_or_else(|| format!("{path}: first is heroes or director"))?),
    };
    let journal = crate::start(&mut state, &mut dice, first).map_err(|e| format!("{path}: setting up: {e}"))?;
    Ok(Loaded {
        title: f.title,
        rules: f.rules,
        state,
        setup_journal: journal,
        dice,
        unused_dice_ok,
        steps: f.step,
        expect: f.expect,
    })
}
