//! Bonuses and Penalties (D-BON-*, D-PEN-*) handed out when a fight starts: the Weight of the
//! World's picks (D-CW-1), the Default Bonus traded away (D-CW-2) and higher stakes (D-CMP-5),
//! from `content/dojo/stakes.toml`.

pub use crate::content::stake_file::{FILE, StakeDef, StakeKind, StakeSpec, read};
use crate::content::{Choice, Die, Effect, Num, Obstacle, Target, Token};
pub use crate::effects::blocks;
use crate::effects::{gain, heal};
use crate::frames::{Frame, Run, Stage};
use crate::state::{ActionKey, Ctx, Event, State, Weight};
use fray_core::ruleset::RuleError;

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
            Some(d) if d.id == "handcuffed" && handcuff_partner(s, u, sp.partner.as_deref()).is_none() => {
                errors.push(format!(
                    "{at}: field `partner`: {} needs a partner within 2 spaces (D-PEN-6){}",
                    d.name,
                    sp.partner.as_ref().map(|p| format!(": {p:?} is not one")).unwrap_or_default()
                ))
            }
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

/// The Bonuses and Penalties that last the rest of the round they are given in (D-BON-2, D-BON-4,
/// D-PEN-2..D-PEN-4, D-PEN-8, D-PEN-9), and those that wait for the holder's next roll (D-BON-3,
/// D-PEN-7): these go on the state's list.
const LASTING: [&str; 9] = [
    "defensive",
    "freedom",
    "dazed",
    "defenseless",
    "enraged",
    "power-down",
    "spotlight",
    "found-an-opening",
    "missed-opportunity",
];

fn quiet(u: u8, ops: Vec<Effect>) -> Run {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, ops);
    run.quiet = true;
    run
}

/// Hands out `specs` as the fight starts, in their order (checked already). Those that ask for
/// picks (Talk Big, Tactics) are asked in the same order before round 1 starts.
pub fn apply(cx: &mut Ctx, specs: &[StakeSpec]) {
    let mut asks: Vec<Frame> = Vec::new();
    for sp in specs {
        let (Some(u), Some(id)) = (cx.s.find(&sp.unit), sp.id()) else { continue };
        if LASTING.contains(&id) {
            // "The rest of this round": the round under way, or round 1 before the fight starts.
            let who = cx.s.who(u);
            // The next roll's (Found An Opening, Missed Opportunity) wait for it, however long.
            let waits = matches!(id, "found-an-opening" | "missed-opportunity");
            let until = if waits { u32::MAX } else { cx.s.round.max(1) };
            cx.emit(Event::Staked { who, stake: id.to_string(), until });
        }
        match id {
            // D-BON-1
            "counter" => gain(cx, u, Token::Control, 2, "Counter"),
            // D-BON-5
            "power-up" => {
                for t in [Token::Iron, Token::Power, Token::Speed] {
                    gain(cx, u, t, 2, "Power Up");
                }
            }
            // D-BON-6: Challenge an enemy in sight, then pull it up to 4 spaces.
            "talk-big" => asks.push(Frame::Run(Box::new(quiet(
                u,
                vec![
                    Effect::Challenge { target: Target::EnemySeen },
                    Effect::Pull { n: Num::N(4), target: Target::Same },
                ],
            )))),
            // D-BON-7: four obstacles, each of any kind, on empty squares anywhere.
            "tactics" => {
                for _ in 0..4 {
                    let choices = [Obstacle::Wall, Obstacle::Rubble, Obstacle::Trap, Obstacle::Fog, Obstacle::Edge]
                        .into_iter()
                        .map(|o| Choice {
                            name: format!("{o:?}"),
                            effects: vec![Effect::Place {
                                obstacle: o,
                                adjacent: false,
                                under: false,
                                touching: None,
                                around: false,
                                within: Some(99),
                            }],
                        })
                        .collect();
                    let mut run = quiet(u, Vec::new());
                    run.choice = Some((choices, 1, Vec::new(), Vec::new()));
                    run.stage = Stage::Choose;
                    asks.push(Frame::Run(Box::new(run)));
                }
            }
            // D-BON-8
            "vigor" => {
                let n = 2 * cx.s.options.heal();
                heal(cx, u, n);
            }
            // D-BON-9: a unit holds one Shield; the bigger one stays (D-HP-6).
            "willpower" if cx.s.u(u).shield < 4 => {
                let who = cx.s.who(u);
                cx.emit(Event::Shielded { who, points: 4 });
            }
            // D-PEN-1, D-PEN-5
            "burned" => gain(cx, u, Token::Burning, 4, "Burned"),
            "exhausted" => gain(cx, u, Token::Weakness, 4, "Exhausted"),
            // D-PEN-3: the Shield held breaks (and none works this round, see `shields_off`).
            "defenseless" if cx.s.u(u).shield > 0 => {
                let who = cx.s.who(u);
                cx.emit(Event::Shielded { who, points: 0 });
            }
            // D-PEN-8: every Basic token goes (and no Power or Iron comes this round, `blocks`).
            // D-PEN-9: every Copy of the unit is destroyed (the Fog part lasts the round).
            "spotlight" => {
                for p in crate::copies::of(cx.s, u) {
                    crate::copies::destroy(cx, p);
                }
            }
            "power-down" => {
                for t in [Token::Iron, Token::Power, Token::Speed] {
                    let n = cx.s.u(u).has(t);
                    if n > 0 {
                        let who = cx.s.who(u);
                        cx.emit(Event::Tokens { who, token: t, delta: -n, why: "Power Down" });
                    }
                }
            }
            // D-PEN-6: the partner is pulled 1 space, then the two stay side by side.
            "handcuffed" => {
                let Some(p) = handcuff_partner(cx.s, u, sp.partner.as_deref()) else { continue };
                let (who, mate) = (cx.s.who(u), cx.s.u(p).id.to_string());
                cx.emit(Event::Staked { who, stake: format!("{HANDCUFFED}{mate}"), until: u32::MAX });
                let mut run = quiet(u, vec![Effect::Pull { n: Num::N(1), target: Target::Same }]);
                run.current = Some(p);
                asks.push(Frame::Run(Box::new(run)));
            }
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
    for f in asks.into_iter().rev() {
        cx.push(f);
    }
}

/// The Bonuses a unit may pick during a fight (Eye of the Style): every Bonus Fray plays but the
/// Default (D-CW-3).
pub fn pickable_bonuses(s: &State) -> Vec<&StakeDef> {
    s.content
        .stakes
        .iter()
        .filter(|d| d.kind == StakeKind::Bonus && d.id != "default" && d.unplayed.is_none())
        .collect()
}

/// `u` takes the Bonus `id` now (Eye of the Style, L2941), as if handed out by the stakes: one
/// that lasts "the round" lasts the rest of the round under way.
pub fn take_bonus(cx: &mut Ctx, u: u8, id: &str) -> Result<(), RuleError> {
    if !pickable_bonuses(cx.s).iter().any(|d| d.id == id) {
        return Err(RuleError::malformed(format!("no Bonus {id}")));
    }
    let spec = StakeSpec { unit: cx.s.u(u).id.to_string(), bonus: Some(id.to_string()), penalty: None, partner: None };
    apply(cx, &[spec]);
    Ok(())
}

/// D-PEN-3: a Defenseless unit has no Armor this round.
pub fn armor_off(s: &State, u: u8) -> bool {
    s.lasting(u, "defenseless")
}

/// D-BON-2: a Defensive unit has Armor this round.
pub fn armor_on(s: &State, u: u8) -> bool {
    s.lasting(u, "defensive")
}

/// D-PEN-3: a Defenseless unit's Shields take nothing this round.
pub fn shields_off(s: &State, u: u8) -> bool {
    s.lasting(u, "defenseless")
}

/// D-PEN-9: enemies ignore Fog when they look at a unit in the Spotlight this round.
pub fn spotlit(s: &State, u: u8) -> bool {
    s.lasting(u, "spotlight")
}

/// D-PEN-4: an Enraged unit damaged by another takes that one's Challenge, in place of its own.
pub fn on_hurt(cx: &mut Ctx, t: u8, by: Option<u8>, dealt: i32) {
    let Some(b) = by else { return };
    if dealt > 0 && b != t && cx.s.lasting(t, "enraged") && cx.s.u(t).active() && cx.s.u(t).challenge != Some(b) {
        let (who, by) = (cx.s.who(t), cx.s.who(b));
        cx.emit(Event::Challenge { who, by: Some(by) });
    }
}

/// After `u` rolled its Action Dice (and its Stun tokens took their due): Missed Opportunity takes
/// the highest number away (D-PEN-7), Found An Opening adds its number (D-BON-3); each once.
pub fn after_roll(cx: &mut Ctx, u: u8) -> Result<(), RuleError> {
    let who = cx.s.who(u);
    if cx.s.lasting(u, "missed-opportunity") {
        if let Some(high) = cx.s.u(u).pool.highest() {
            cx.emit(Event::Spent { who: who.clone(), number: high });
        }
        cx.emit(Event::StakeDone { who: who.clone(), stake: "missed-opportunity".into() });
    }
    if cx.s.lasting(u, "found-an-opening") {
        opening(cx, u)?;
    }
    Ok(())
}

/// D-BON-3: Found An Opening's number joins `u`'s pool, and the Bonus is used up.
pub fn opening(cx: &mut Ctx, u: u8) -> Result<(), RuleError> {
    let who = cx.s.who(u);
    let n = match cx.s.options.opening {
        Die::Roll(d) => cx.roll(d)? as i32,
        Die::Fixed(n) => n,
    };
    cx.emit(Event::Rolled { who: who.clone(), numbers: vec![n] });
    cx.emit(Event::StakeDone { who, stake: "found-an-opening".into() });
    Ok(())
}

/// As any turn starts (after the roll): each unit holding Freedom gains 2 Speed (D-BON-4, "each
/// turn", anyone's).
pub fn turn_start(cx: &mut Ctx) {
    for v in 0..cx.s.units.len() as u8 {
        if cx.s.lasting(v, "freedom") && cx.s.u(v).active() {
            gain(cx, v, Token::Speed, 2, "Freedom");
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

// ---------------------------------------------------------------- Handcuffed (D-PEN-6)

/// The start of the stake a Handcuffed unit holds, followed by its partner's id.
const HANDCUFFED: &str = "handcuffed:";

/// The partner a Handcuffed `u` takes: the unit `named`, or else the nearest other unit (the
/// first in the file among the nearest), within 2 spaces (D-G-11: a diagonal counts 1).
pub fn handcuff_partner(s: &State, u: u8, named: Option<&str>) -> Option<u8> {
    let at = s.u(u).at?;
    let near = |v: u8| v != u && s.u(v).at.is_some_and(|p| crate::effects::dist(at, p) <= 2);
    match named {
        Some(id) => s.find(id).filter(|&v| near(v)),
        None => (0..s.units.len() as u8)
            .filter(|&v| near(v))
            .min_by_key(|&v| s.u(v).at.map_or(99, |p| crate::effects::dist(at, p))),
    }
}

/// `u`'s Handcuffed partner, while both are on the map (D-PEN-6, D-G-29: the cuffs hold all
/// fight).
pub fn partner(s: &State, u: u8) -> Option<u8> {
    s.stakes
        .iter()
        .find_map(|(v, k, _)| {
            let w = s.find(k.strip_prefix(HANDCUFFED)?)?;
            if *v == u {
                Some(w)
            } else if w == u {
                Some(*v)
            } else {
                None
            }
        })
        .filter(|&p| s.u(p).at.is_some() && s.u(u).at.is_some())
}

/// Whether `u` may move or teleport to `q`: a Handcuffed unit only next to its partner.
pub fn cuffed_ok(s: &State, u: u8, q: fray_core::grid::Pos) -> bool {
    match partner(s, u).and_then(|p| s.u(p).at) {
        Some(p) => crate::effects::dist(p, q) == 1,
        None => true,
    }
}

/// Whether `u` may Throw `t`: never its partner.
pub fn may_throw(s: &State, u: u8, t: u8) -> bool {
    partner(s, u) != Some(t)
}

/// After `moved` was pushed or pulled, the squares its partner is pulled through until it stands
/// next to `moved` again: each step to an empty space closer to it (the first such around, a
/// Trap-free one first), Rubble ending the pull (D-OBS-4). Empty when they are side by side.
pub fn drag_path(s: &State, moved: u8) -> (Option<u8>, Vec<fray_core::grid::Pos>) {
    let Some(p) = partner(s, moved) else { return (None, Vec::new()) };
    let (Some(to), Some(mut at)) = (s.u(moved).at, s.u(p).at) else { return (None, Vec::new()) };
    let mut path = Vec::new();
    while crate::effects::dist(at, to) > 1 && path.len() < 40 {
        let d = crate::effects::dist(at, to);
        let next = at
            .neighbours()
            .into_iter()
            .filter(|&q| s.empty(q) && !path.contains(&q) && s.obstacle(q) != Some(crate::content::Obstacle::Edge))
            .filter(|&q| crate::effects::dist(q, to) < d)
            .min_by_key(|&q| (s.obstacle(q) == Some(crate::content::Obstacle::Trap), crate::effects::dist(q, to)));
        let Some(q) = next else { break };
        path.push(q);
        at = q;
        if s.obstacle(q) == Some(crate::content::Obstacle::Rubble) {
            break;
        }
    }
    (Some(p), path)
}
