//! Bonuses and Penalties (D-BON-*, D-PEN-*) handed out when a fight starts: the Weight of the
//! World's picks (D-CW-1), the Default Bonus traded away (D-CW-2) and higher stakes (D-CMP-5),
//! from `content/dojo/stakes.toml`.

use crate::content::{Obstacle, Token};
use crate::rules;
use crate::state::{Ctx, Event, State, Weight};
use serde::Deserialize;

/// The stakes file's name among the content files.
pub const FILE: &str = "dojo/stakes.toml";

/// A Bonus or a Penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StakeKind {
    /// Helps its holder.
    Bonus,
    /// Hinders its holder.
    Penalty,
}

/// One Bonus or Penalty.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StakeDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Bonus or Penalty.
    pub kind: StakeKind,
    /// The checklist id.
    pub rule: String,
    /// What it does, in our words.
    pub text: String,
    /// What of it is not played yet (such a stake is refused).
    #[serde(default)]
    pub unplayed: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StakesFile {
    stake: Vec<StakeDef>,
}

/// Reads the stakes file's text; errors name the file, line and field.
pub fn read(text: &str) -> Result<Vec<StakeDef>, String> {
    toml::from_str::<StakesFile>(text).map(|f| f.stake).map_err(|e| format!("{FILE}: {}", e.to_string().trim_end()))
}

/// A stake a fight hands out: a Bonus or a Penalty for one unit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StakeSpec {
    /// Who gets it.
    pub unit: String,
    /// A Bonus's id.
    #[serde(default)]
    pub bonus: Option<String>,
    /// A Penalty's id.
    #[serde(default)]
    pub penalty: Option<String>,
}

impl StakeSpec {
    fn id(&self) -> Option<&str> {
        self.bonus.as_deref().or(self.penalty.as_deref())
    }
}

/// The picks each side has before stakes must balance (D-CW-1, D-CW-2): at the Weight of the
/// World one a hero and one for the Director; at Light, Middle and Heavy weight one for the
/// heroes when they play without their Default Bonus; none otherwise.
pub fn free_picks(s: &State) -> [usize; 2] {
    let heroes = s.units.iter().filter(|x| x.side == 0).count();
    match s.options.weight {
        Weight::WeightOfTheWorld => [heroes, 1],
        w if w.default_bonus() && !s.options.default_bonus => [1, 0],
        _ => [0, 0],
    }
}

/// Every problem with `specs` in the fight `s`, each naming `path` and the stake's place.
pub fn check(path: &str, s: &State, specs: &[StakeSpec]) -> Vec<String> {
    let mut errors = Vec::new();
    let defs = &s.content.stakes;
    // A side's edge: its Bonuses and the other side's Penalties.
    let mut edge = [0usize; 2];
    for (i, sp) in specs.iter().enumerate() {
        let at = format!("{path}: stake {} ({})", i + 1, sp.unit);
        let Some(u) = s.find(&sp.unit) else {
            errors.push(format!("{at}: field `unit`: no unit {:?}", sp.unit));
            continue;
        };
        let (want, id) = match (&sp.bonus, &sp.penalty) {
            (Some(b), None) => (StakeKind::Bonus, b),
            (None, Some(p)) => (StakeKind::Penalty, p),
            _ => {
                errors.push(format!("{at}: give one of `bonus` or `penalty`"));
                continue;
            }
        };
        let field = if want == StakeKind::Bonus { "bonus" } else { "penalty" };
        match defs.iter().find(|d| d.id == *id) {
            None => errors.push(format!("{at}: field `{field}`: no {field} {id:?}")),
            Some(d) if d.kind != want => errors.push(format!("{at}: field `{field}`: {} is no {field}", d.name)),
            // D-CW-3: the Default Bonus is never a pick.
            Some(d) if d.id == "default" => {
                errors.push(format!("{at}: field `bonus`: the Default Bonus cannot be picked (D-CW-3)"))
            }
            Some(d) if d.unplayed.is_some() => errors.push(format!(
                "{at}: field `{field}`: {} is not played yet ({})",
                d.name,
                d.unplayed.as_deref().unwrap_or_default()
            )),
            Some(_) => {
                let side = s.u(u).side as usize;
                let helped = if want == StakeKind::Bonus { side } else { 1 - side.min(1) };
                edge[helped.min(1)] += 1;
            }
        }
    }
    // D-CMP-5: past each side's free picks, stakes come in balanced pairs.
    let free = free_picks(s);
    let extra = [edge[0].saturating_sub(free[0]), edge[1].saturating_sub(free[1])];
    if errors.is_empty() && extra[0] != extra[1] {
        errors.push(format!(
            "{path}: stakes: the heroes' side has {} extra and the enemies' {}; higher stakes must balance (D-CMP-5; free picks: {} and {}, D-CW-1, D-CW-2)",
            extra[0], extra[1], free[0], free[1]
        ));
    }
    errors
}

/// Hands out `specs` as the fight starts, in their order (checked already).
pub fn apply(cx: &mut Ctx, specs: &[StakeSpec]) {
    for sp in specs {
        let (Some(u), Some(id)) = (cx.s.find(&sp.unit), sp.id()) else { continue };
        match id {
            // D-BON-1
            "counter" => rules::gain(cx, u, Token::Control, 2, "Counter"),
            // D-BON-5
            "power-up" => {
                for t in [Token::Iron, Token::Power, Token::Speed] {
                    rules::gain(cx, u, t, 2, "Power Up");
                }
            }
            // D-BON-8
            "vigor" => {
                let n = 2 * cx.s.options.heal();
                rules::heal(cx, u, n);
            }
            // D-BON-9: a unit holds one Shield; the bigger one stays (D-HP-6).
            "willpower" if cx.s.u(u).shield < 4 => {
                let who = cx.s.who(u);
                cx.emit(Event::Shielded { who, points: 4 });
            }
            // D-PEN-1, D-PEN-5
            "burned" => rules::gain(cx, u, Token::Burning, 4, "Burned"),
            "exhausted" => rules::gain(cx, u, Token::Weakness, 4, "Exhausted"),
            // D-PEN-10: a Trap under the unit and on every empty square around it.
            "trapped" => {
                let Some(at) = cx.s.u(u).at else { continue };
                let mut squares = vec![at];
                squares.extend(at.neighbours().into_iter().filter(|&q| cx.s.empty(q)));
                for q in squares {
                    cx.emit(Event::Obstacle { at: q, now: Some(Obstacle::Trap) });
                }
            }
            _ => {}
        }
    }
}

/// The look-up's entries for the Bonuses and Penalties.
pub fn entries(content: &crate::content::Content) -> Vec<fray_core::lookup::Entry> {
    content
        .stakes
        .iter()
        .map(|d| fray_core::lookup::Entry {
            id: d.rule.clone(),
            name: d.name.clone(),
            kind: if d.kind == StakeKind::Bonus { "bonus" } else { "penalty" }.into(),
            aliases: vec![d.id.clone()],
            text: match &d.unplayed {
                Some(u) => format!("{} Not played yet: {u}.", d.text),
                None => d.text.clone(),
            },
        })
        .collect()
}
