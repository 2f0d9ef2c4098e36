//! Brews (Brewer, L1395-1529): Potions delivered by an implement attack (Toss Potion, Unstable
//! Concoction, Hurl Flask), whose Effect line becomes the attack's Effect. The Potion is chosen
//! after the target, before the roll; an Encounter Potion is spent as it is chosen and raises the
//! attack's damage line by 1. Potion Effects that no primitive covers are hooks written here:
//! clearing every status, Hardening's Immobilized-then-Slowed, and the Target-link Potions that
//! name yourself or a teammate.
//!
//! Elixirs: made by Give Elixir (or Quick Refill) into the hand of the Brewer or an adjacent
//! ally, one hand each (K-ORB-6); drunk by the carrier as a Free Action on its turn, or passed
//! to an adjacent ally as a Free Action; lost when the carrier is Taken Out. A Potion made as an
//! Elixir gives its drinker the Potion's Effect line.

pub use crate::content::hooks::{BREWER_EFFECT as HOOKS, BREWER_POWER as POWER_HOOKS};
use crate::content::powers::{Frequency, PowerDef};
use crate::engine::events::Event;
pub use crate::engine::frames::classes::BrewFrame;
use crate::engine::kit::{Ctx, Frame};
pub use crate::engine::records::brewer::Delivery;
pub use crate::engine::records::brewer::Elixir;
use crate::engine::state::{State, UnitIdx};
use crate::rules::forced::{ForcedFrame, ForcedKind};
use crate::rules::modifiers::{Attackers, Modifier, ModifierKind};
pub use crate::rules::query::{
    brew_edge_bonus as edge_bonus, brew_line_bonus as line_bonus, brew_range as range, brews_locked as locked,
    reaction_elixirs,
};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

/// Whether a power is an Elixir proper (not a Potion made as one).
pub fn is_elixir(def: &PowerDef) -> bool {
    matches!(def.group.as_deref(), Some("elixir" | "encounter-elixir"))
}

/// Whether a power is a Potion (delivered, never used on its own).
pub fn is_potion(def: &PowerDef) -> bool {
    matches!(def.group.as_deref(), Some("potion" | "encounter-potion"))
}

/// The Potions `u` may put into `power` now, besides those already `picked`.
pub fn available(s: &State, u: UnitIdx, power: u16, picked: &[u16]) -> Vec<u16> {
    let Some(d) = s.powers.get(power).delivers.as_ref() else { return Vec::new() };
    let un = s.unit(u);
    un.powers
        .iter()
        .copied()
        .filter(|&p| {
            let def = s.powers.get(p);
            is_potion(def)
                && !def.reference_only
                && !picked.contains(&p)
                && !(def.frequency == Frequency::Encounter && (d.at_will_only || un.spent.contains(&p)))
        })
        .collect()
}

/// What `u` can make with Give Elixir now: its Elixirs (Encounter ones unspent) and its Potions.
pub fn makeable(s: &State, u: UnitIdx) -> Vec<u16> {
    let un = s.unit(u);
    un.powers
        .iter()
        .copied()
        .filter(|&p| {
            let def = s.powers.get(p);
            (is_potion(def) || is_elixir(def))
                && !def.reference_only
                // Frenzy Brew needs a tormentor other than its drinker (see rulings).
                && !def.effect.iter().any(|e| e.status.as_deref() == Some("frenzied"))
                && !(def.frequency == Frequency::Encounter && un.spent.contains(&p))
        })
        .collect()
}

/// Whether `u` may use `power` without knowing it: drinking or passing the Elixir it carries.
pub fn carried_power(s: &State, u: UnitIdx, power: u16) -> bool {
    let hook = s.powers.get(power).hook.as_deref();
    (matches!(hook, Some("drink-elixir" | "pass-elixir")) && !s.unit(u).brewer.elixirs.is_empty())
        || (hook == Some("recover-brews") && locked(s, u)) // Kill Switch
}

/// The Elixir actions to add to `u`'s menu (it does not know them as powers).
pub fn menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let mut out = Vec::new();
    for id in ["drink-elixir", "pass-elixir", "recover-brews"] {
        let Some(p) = crate::engine::memo::find_power(s, id) else { continue };
        if s.unit(u).powers.contains(&p) || crate::rules::actions::check_power_use(s, u, p, false).is_err() {
            continue;
        }
        let usable = if id == "drink-elixir" || id == "recover-brews" {
            crate::rules::control::check_power(s, u, s.powers.get(p), &[u]).is_ok()
        } else {
            !crate::rules::actions::legal_targets(s, u, p).is_empty()
        };
        if usable {
            out.push(DecisionOption::new(format!("power:{id}"), s.powers.get(p).name.clone()));
        }
    }
    out
}

/// Refuses an Elixir handed to a creature with no free hand, and passing one to yourself.
pub fn check_target(s: &State, u: UnitIdx, power: u16, t: UnitIdx) -> Result<(), RuleError> {
    match s.powers.get(power).hook.as_deref() {
        Some("pass-elixir") if t == u => {
            Err(crate::engine::kit::refuse("K-ORB-8", "an Elixir is passed to an adjacent ally, not to yourself"))
        }
        Some("give-elixir" | "pass-elixir") if crate::rules::orbs::free_hands(s, t) <= 0 => {
            Err(crate::engine::kit::refuse(
                "K-ORB-6",
                format_args!("{} has no free hand for an Elixir (stow the implement or put an orb down)", s.unit(t).id),
            ))
        }
        _ => Ok(()),
    }
}

/// Uses a Give Elixir, drink or pass power on `t`.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, t: UnitIdx) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name, targets: vec![cx.s.who(t)] });
    match cx.s.powers.get(power).hook.as_deref() {
        Some("give-elixir") => cx.push(Frame::Brew(BrewFrame::Make { user: u, to: t })),
        Some("drink-elixir") if cx.s.unit(u).brewer.elixirs.len() == 1 => drink(cx, u, 0)?,
        Some("drink-elixir") => cx.push(Frame::Brew(BrewFrame::Drink { unit: u })),
        Some("pass-elixir") if cx.s.unit(u).brewer.elixirs.len() == 1 => pass(cx, u, t, 0),
        Some("pass-elixir") => cx.push(Frame::Brew(BrewFrame::Pass { unit: u, to: t })),
        Some("recover-brews") => unlock(cx, u),
        _ => {}
    }
    Ok(())
}

/// `u` drinks one carried flask of `power` (a Reaction: no action spent).
pub fn drink_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let i = cx.s.unit(u).brewer.elixirs.iter().position(|e| e.power == power);
    let i = i.ok_or_else(|| RuleError::malformed(format!("{} carries no such Elixir", cx.s.unit(u).id)))?;
    drink(cx, u, i)
}

fn drink(cx: &mut Ctx, u: UnitIdx, i: usize) -> Result<(), RuleError> {
    let e = cx.s.unit(u).brewer.elixirs[i];
    let def = cx.s.powers.get(e.power).clone();
    cx.emit(Event::ElixirLost { unit: cx.s.who(u), index: i, name: def.name.clone(), why: "drunk".into() });
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
    // An Elixir works on its drinker; a Potion made as one is still its maker's Potion.
    let user = if is_potion(&def) { e.maker } else { u };
    let line = def.effect_at(cx.s.unit(e.maker).level).to_vec();
    crate::rules::attack::apply_effects(cx, user, u, e.power, &line)
}

fn pass(cx: &mut Ctx, u: UnitIdx, to: UnitIdx, i: usize) {
    let e = cx.s.unit(u).brewer.elixirs[i];
    let name = cx.s.powers.get(e.power).name.clone();
    cx.emit(Event::ElixirLost { unit: cx.s.who(u), index: i, name: name.clone(), why: "passed on".into() });
    let why = format!("from {}", cx.s.unit(u).id);
    cx.emit(Event::ElixirGained { unit: cx.s.who(to), elixir: e, name, why });
}

/// K-DUN-3, L1397: a creature Taken Out leaves its Elixirs behind; Fray treats them as lost.
pub fn drop_all(cx: &mut Ctx, u: UnitIdx) {
    for i in (0..cx.s.unit(u).brewer.elixirs.len()).rev() {
        let name = cx.s.powers.get(cx.s.unit(u).brewer.elixirs[i].power).name.clone();
        cx.emit(Event::ElixirLost { unit: cx.s.who(u), index: i, name, why: "dropped as it was Taken Out".into() });
    }
}

/// Refuses a delivery power without enough Potions, any Potion or Elixir used on its own, and
/// Give Elixir with nothing to make.
pub fn check_use(s: &State, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let def = s.powers.get(power);
    let brewing =
        def.delivers.is_some() || matches!(def.hook.as_deref(), Some("give-elixir" | "drink-elixir" | "pass-elixir"));
    if brewing && locked(s, u) {
        return Err(crate::engine::kit::refuse(
            "kill-switch",
            format_args!(
                "{}'s stash blew: no Potion or Elixir until it spends an Attack Action to recover",
                s.unit(u).id
            ),
        ));
    }
    if is_elixir(def) {
        return Err(crate::engine::kit::refuse(
            "K-CHAR-3",
            format_args!("{} is an Elixir: make it with Give Elixir, then drink it", def.name),
        ));
    }
    if def.hook.as_deref() == Some("give-elixir") && makeable(s, u).is_empty() {
        return Err(crate::engine::kit::refuse(
            "K-CHAR-3",
            format_args!("{} has no Elixir or Potion to make", s.unit(u).id),
        ));
    }
    if is_potion(def) {
        return Err(crate::engine::kit::refuse(
            "K-CHAR-3",
            format_args!("{} is a Potion: it is delivered by Toss Potion or the implement power", def.name),
        ));
    }
    if let Some(d) = &def.delivers
        && available(s, u, power, &[]).len() < d.potions as usize
    {
        return Err(crate::engine::kit::refuse(
            "K-CHAR-3",
            format_args!("{} needs {} Potion(s) {} can use", def.name, d.potions, s.unit(u).id),
        ));
    }
    Ok(())
}

/// Called once the attack frame of a delivery power is on the stack: asks for the Potion.
pub fn begin(cx: &mut Ctx, user: UnitIdx, power: u16) {
    if cx.s.powers.get(power).delivers.is_some() {
        cx.push(Frame::Brew(BrewFrame::Choose { user, power, picked: Vec::new() }));
    }
}

/// The unit that answers a brew decision, the question, and its options.
pub fn question(s: &State, f: &BrewFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match f {
        BrewFrame::Choose { user, power, picked } => (
            *user,
            "potion",
            format!("{}: {} — which Potion?", s.unit(*user).id, s.powers.get(*power).name),
            available(s, *user, *power, picked)
                .into_iter()
                .map(|p| DecisionOption::new(s.powers.get(p).id.clone(), s.powers.get(p).name.clone()))
                .collect(),
        ),
        BrewFrame::Make { user, to } => (
            *user,
            "potion",
            format!("{}: Give Elixir — make which, for {}?", s.unit(*user).id, s.unit(*to).id),
            makeable(s, *user)
                .into_iter()
                .map(|p| DecisionOption::new(s.powers.get(p).id.clone(), s.powers.get(p).name.clone()))
                .collect(),
        ),
        BrewFrame::Drink { unit } | BrewFrame::Pass { unit, .. } => (
            *unit,
            "elixir",
            format!("{}: which Elixir?", s.unit(*unit).id),
            s.unit(*unit)
                .brewer
                .elixirs
                .iter()
                .enumerate()
                .map(|(i, e)| DecisionOption::new((i + 1).to_string(), s.powers.get(e.power).name.clone()))
                .collect(),
        ),
        BrewFrame::Rounds { user, .. } => (
            *user,
            "rounds",
            format!("{}: Draught of Bonded Futures — in how many rounds?", s.unit(*user).id),
            (1..=3).map(|n| DecisionOption::new(n.to_string(), format!("{n} round(s) from now"))).collect(),
        ),
        BrewFrame::Bond { unit, target } => (
            *unit,
            "square",
            format!("{}: teleport next to {}", s.unit(*unit).id, s.unit(*target).id),
            bond_squares(s, *unit, *target),
        ),
        BrewFrame::Name { user, power, .. } => (
            *user,
            "target",
            format!("{}: {} — name yourself or a teammate", s.unit(*user).id, s.powers.get(*power).name),
            teammates(s, *user)
                .into_iter()
                .map(|t| DecisionOption::new(s.unit(t).id.to_string(), format!("name {}", s.unit(t).id)))
                .collect(),
        ),
    }
}

fn teammates(s: &State, user: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map().filter(|&t| t == user || !s.enemies(user, t)).collect()
}

/// Answers a brew decision (the option was checked against [`question`]).
pub fn answer(cx: &mut Ctx, f: BrewFrame, option: &str) -> Result<(), RuleError> {
    match f {
        BrewFrame::Choose { user, power, mut picked } => {
            let p = cx.s.powers.find(option).ok_or_else(|| RuleError::malformed(format!("no Potion {option:?}")))?;
            let def = cx.s.powers.get(p).clone();
            let targets = match cx.s.flow.last() {
                Some(Frame::Attack(a)) => a.targets.iter().map(|&t| cx.s.who(t)).collect(),
                _ => Vec::new(),
            };
            cx.emit(Event::PowerUsed { unit: cx.s.who(user), power: def.name.clone(), targets });
            if def.frequency == Frequency::Encounter {
                cx.emit(Event::EncounterSpent { unit: cx.s.who(user), power: p, name: def.name.clone() });
            }
            if cx.s.powers.get(power).delivers.as_ref().is_some_and(|d| d.blade) {
                return coat(cx, user, p);
            }
            if let Some(Frame::Attack(a)) = cx.s.flow.last_mut() {
                a.brew.push(p);
            }
            picked.push(p);
            let need = cx.s.powers.get(power).delivers.as_ref().map_or(1, |d| d.potions as usize);
            if picked.len() < need {
                cx.push(Frame::Brew(BrewFrame::Choose { user, power, picked }));
            }
            Ok(())
        }
        BrewFrame::Make { user, to } => {
            let p = cx.s.powers.find(option).ok_or_else(|| RuleError::malformed(format!("no Elixir {option:?}")))?;
            let def = cx.s.powers.get(p).clone();
            if def.frequency == Frequency::Encounter {
                cx.emit(Event::EncounterSpent { unit: cx.s.who(user), power: p, name: def.name.clone() });
            }
            let why = format!("made by {}", cx.s.unit(user).id);
            cx.emit(Event::ElixirGained {
                unit: cx.s.who(to),
                elixir: Elixir { power: p, maker: user },
                name: def.name,
                why,
            });
            Ok(())
        }
        BrewFrame::Drink { unit } => {
            let i: usize = option.parse().map_err(|_| RuleError::malformed("answer with the Elixir's number"))?;
            drink(cx, unit, i - 1)
        }
        BrewFrame::Pass { unit, to } => {
            let i: usize = option.parse().map_err(|_| RuleError::malformed("answer with the Elixir's number"))?;
            pass(cx, unit, to, i - 1);
            Ok(())
        }
        BrewFrame::Rounds { user, target, named, power } => {
            let n: u32 = option.parse().map_err(|_| RuleError::malformed("answer 1, 2 or 3"))?;
            let name = cx.s.powers.get(power).name.clone();
            let modifier = Modifier {
                kind: ModifierKind::BondedFutures,
                attackers: Attackers::Unit(named),
                against: Some(target),
                first: false,
                during: None,
                duration: Duration::Indefinite,
                source: user,
                power,
                amount: (cx.s.round + n) as i32,
            };
            cx.emit(Event::ModifierAdded { name, modifier });
            Ok(())
        }
        BrewFrame::Bond { unit, .. } => crate::rules::forced::answer_teleport_self(cx, unit, option),
        BrewFrame::Name { user, target, power, hook } => {
            let named = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            cx.emit(Event::Note { text: format!("{} names {}", cx.s.unit(user).id, cx.s.unit(named).id) });
            linked(cx, &hook, user, target, named, power);
            Ok(())
        }
    }
}

/// Potent Edge (L1433-1441): Potion `p` goes onto `user`'s blade (once, however often it is
/// applied) and the attack below carries every Potion there; an attack aimed at the user itself
/// only coats the blade and is not made.
fn coat(cx: &mut Ctx, user: UnitIdx, p: u16) -> Result<(), RuleError> {
    let mut blade = cx.s.unit(user).brewer.blade.clone();
    if !blade.contains(&p) {
        blade.push(p);
    }
    set_blade(cx, user, blade.clone());
    let coat_only = matches!(cx.s.flow.last(), Some(Frame::Attack(a)) if a.targets == [user]);
    if coat_only {
        cx.s.flow.pop();
        cx.emit(Event::Note { text: format!("{} coats the blade and holds the strike", cx.s.unit(user).id) });
    } else if let Some(Frame::Attack(a)) = cx.s.flow.last_mut() {
        a.brew = blade;
    }
    Ok(())
}

fn set_blade(cx: &mut Ctx, user: UnitIdx, potions: Vec<u16>) {
    let names = potions.iter().map(|&p| cx.s.powers.get(p).name.clone()).collect();
    cx.emit(Event::Blade { unit: cx.s.who(user), potions, names });
}

/// The Potions of a blade attack were applied: the blade is wiped clean.
pub fn blade_used(cx: &mut Ctx, user: UnitIdx, def: &PowerDef) {
    if def.delivers.as_ref().is_some_and(|d| d.blade) && !cx.s.unit(user).brewer.blade.is_empty() {
        set_blade(cx, user, Vec::new());
    }
}

/// Everyone within the splash radius of `target` (Hurl Flask: 1, 2 from level 5), the target
/// excepted, nearest first.
fn splashed(s: &State, def: &PowerDef, user: UnitIdx, target: UnitIdx) -> Vec<UnitIdx> {
    let Some(r) = def.delivers.as_ref().and_then(|d| d.splash) else { return Vec::new() };
    let r = if s.unit(user).level >= 5 { r + 1 } else { r };
    let mut out: Vec<UnitIdx> =
        s.units_on_map().filter(|&t| t != target && s.distance(t, target).is_some_and(|d| d <= r)).collect();
    out.sort_by_key(|&t| (s.distance(t, target), t));
    out
}

/// On a hit, before the damage: the Potions' Specials (Nullification: the target's Ward -2),
/// and, when the hit deals damage, a splash of 1 damage around the target (Hurl Flask). Returns
/// who stands in the splash, for the Potions' spread.
pub fn on_hit(
    cx: &mut Ctx,
    def: &PowerDef,
    user: UnitIdx,
    target: UnitIdx,
    brew: &[u16],
    damage: bool,
) -> Result<Vec<UnitIdx>, RuleError> {
    if brew.is_empty() {
        return Ok(Vec::new());
    }
    for &p in brew {
        let special = cx.s.powers.get(p).on_hit.clone();
        crate::rules::attack::apply_effects(cx, user, target, p, &special)?;
    }
    let around = splashed(cx.s, def, user, target);
    if damage {
        for &t in &around {
            let hit =
                Some(crate::rules::damage::FromAttack { attack_or_opportunity: true, pierce: false, melee: false });
            crate::rules::damage::deal(cx, t, 1, Some(user), &format!("{} (splash)", def.name), hit);
        }
    }
    Ok(around)
}

/// Applies the Potions' Effect lines to `target` and to those `around` it, each Potion as its own
/// power.
pub fn deliver(
    cx: &mut Ctx,
    user: UnitIdx,
    target: UnitIdx,
    brew: &[u16],
    around: &[UnitIdx],
) -> Result<(), RuleError> {
    let level = cx.s.unit(user).level;
    for t in std::iter::once(target).chain(around.iter().copied()) {
        for &p in brew {
            if !cx.s.unit(t).on_map() {
                break;
            }
            let line = cx.s.powers.get(p).effect_at(level).to_vec();
            crate::rules::attack::apply_effects(cx, user, t, p, &line)?;
        }
    }
    Ok(())
}

/// Unstable Concoction missed: the Potions go to the user (and from level 5 to the target too).
pub fn missed(cx: &mut Ctx, def: &PowerDef, user: UnitIdx, target: UnitIdx, brew: &[u16]) -> Result<(), RuleError> {
    if !def.delivers.as_ref().is_some_and(|d| d.miss_on_you) || brew.is_empty() {
        return Ok(());
    }
    cx.emit(Event::Note { text: format!("{} misses: the Potions splash back", def.name) });
    if cx.s.unit(user).level >= 5 && cx.s.unit(target).on_map() {
        deliver(cx, user, target, brew, &[])?;
    }
    deliver(cx, user, user, brew, &[])
}

/// Effect hooks of Potions, Elixirs and charms (`amount`: the primitive's number).
pub fn effect_hook(
    cx: &mut Ctx,
    hook: &str,
    amount: Option<i32>,
    user: UnitIdx,
    target: UnitIdx,
    power: u16,
) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    match hook {
        "luck" => crate::classes::charmer::gain_luck(cx, target, amount.unwrap_or(1)),
        "takeoff-blast" => crate::classes::charmer::takeoff_blast(cx, target, amount.unwrap_or(2), power),
        "takeoff-lift" => crate::classes::charmer::takeoff_lift(cx, target, power),
        "enlarge" => crate::classes::charmer::enlarge(cx, user, target, power),
        "wild-rage" => crate::classes::charmer::wild_rage(cx, target, power)?,
        "status-exchange" => crate::classes::charmer::exchange(cx, user, target, power),
        "nullify" => {
            // Every status on the target goes.
            let flying = cx.s.has(target, StatusKind::Flying);
            for st in cx.s.unit(target).statuses.clone() {
                cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: name.clone() });
            }
            if flying {
                crate::rules::movement::settle_on_legal_square(cx, target, "lands beside the creature below");
            }
        }
        "hardening" => {
            // Immobilized through its next turn; Slowed through the turn after, when the
            // Immobilized ends (see rulings).
            let n = cx.s.unit(target).turns_started;
            for (kind, turn) in [(StatusKind::Immobilized, n + 1), (StatusKind::Slowed, n + 2)] {
                let status = Status {
                    kind,
                    amount: 0,
                    source: Some(user),
                    origin: Some(power),
                    duration: Duration::EndOfTurn { unit: target, turn },
                };
                crate::rules::statuses::give::give_status(cx, target, status, &name);
            }
        }
        "extra-move" => cx.emit(Event::BonusMove { unit: cx.s.who(target) }),
        "salamander" => {
            // Salamander Elixir (L1527): the drinker's square and those around it, with it
            // wherever it goes, through the end of its next turn.
            if let Some(at) = cx.s.unit(target).pos {
                let until = cx.s.unit(target).turns_started + 1;
                let zone = crate::rules::zones::PowerZone {
                    bit: 0,
                    owner: target,
                    power,
                    centre: at,
                    size: 3,
                    kind: crate::content::powers::ZoneKind::Aura,
                    amount: amount.unwrap_or(2),
                    ends_after_turn: Some(until),
                };
                crate::rules::zones::lay(cx, zone);
            }
        }
        "lightning" => {
            cx.emit(Event::BonusAttack { unit: cx.s.who(target) });
            cx.emit(Event::BonusMove { unit: cx.s.who(target) });
        }
        "target-attack" | "target-protect" | "fascination" | "bonded-futures" if teammates(cx.s, user).len() == 1 => {
            linked(cx, hook, user, target, user, power)
        }
        "target-attack" | "target-protect" | "fascination" | "bonded-futures" => {
            cx.push(Frame::Brew(BrewFrame::Name { user, target, power, hook: hook.to_string() }))
        }
        _ => {} // the hooks attack.rs plays itself
    }
    Ok(())
}

/// A Target-link Potion, once the named creature is known.
fn linked(cx: &mut Ctx, hook: &str, user: UnitIdx, target: UnitIdx, named: UnitIdx, power: u16) {
    let name = cx.s.powers.get(power).name.clone();
    if !cx.s.unit(target).on_map() {
        return;
    }
    let modifier = |kind, attackers, against, first, duration| Modifier {
        kind,
        attackers,
        against: Some(against),
        first,
        during: None,
        duration,
        source: user,
        power,
        amount: 0,
    };
    match hook {
        "target-attack" => {
            // The named creature's first attack on the target before the end of your next turn.
            let d = Duration::EndOfTurn { unit: user, turn: cx.s.unit(user).turns_started + 1 };
            let m = modifier(ModifierKind::Advantage, Attackers::Unit(named), target, true, d);
            cx.emit(Event::ModifierAdded { name, modifier: m });
        }
        "target-protect" => {
            let d = Duration::EndOfTurn { unit: target, turn: cx.s.unit(target).turns_started + 1 };
            let m = modifier(ModifierKind::Disadvantage, Attackers::Unit(target), named, false, d);
            cx.emit(Event::ModifierAdded { name, modifier: m });
        }
        "bonded-futures" => cx.push(Frame::Brew(BrewFrame::Rounds { user, target, named, power })),
        // Slide 4 towards the named creature: every square brings it closer (see rulings).
        "fascination" if named != target => {
            let mut f = ForcedFrame::new(cx.s, user, target, ForcedKind::Pull, 4);
            f.origin = cx.s.unit(named).pos.unwrap_or(f.origin);
            cx.push(Frame::Forced(f));
        }
        _ => {}
    }
}

/// Corrosive Potion: each failed save against its Ongoing damage raises the amount by 1.
pub fn failed_save(cx: &mut Ctx, unit: UnitIdx, st: Status) {
    let grows = st.origin.is_some_and(|p| {
        cx.s.powers.get(p).effect.iter().any(|e| e.grows && e.status.as_deref() == Some(st.kind.name()))
    });
    if grows {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "the save failed".into() });
        let name = st.origin.map(|p| cx.s.powers.get(p).name.clone()).unwrap_or_default();
        cx.emit(Event::StatusGained {
            unit: cx.s.who(unit),
            status: Status { amount: st.amount + 1, ..st },
            label: name,
        });
    }
}

/// Generosity Tonic, as `unit`'s turn ends: it hands the tonic's amount of HP to each creature
/// within 2 squares, one after another while it stays on the map; with nobody there, the tonic
/// waits for its next turn and the amount goes up by 1.
pub fn generosity(cx: &mut Ctx, unit: UnitIdx) {
    let n = cx.s.unit(unit).turns_started;
    for i in (0..cx.s.modifiers.len()).rev() {
        // A Take Out along the way may have ended modifiers (found by random play).
        let Some(m) = cx.s.modifiers.get(i).cloned() else { continue };
        if m.kind != ModifierKind::Generosity || m.attackers != Attackers::Unit(unit) || m.during != Some((unit, n)) {
            continue;
        }
        let name = cx.s.powers.get(m.power).name.clone();
        cx.emit(Event::ModifierEnded { index: i, why: "its turn ends".into() });
        if !cx.s.unit(unit).on_map() {
            continue;
        }
        let mut near: Vec<UnitIdx> =
            cx.s.units_on_map().filter(|&o| o != unit && cx.s.distance(unit, o).is_some_and(|d| d <= 2)).collect();
        near.sort_by_key(|&o| (cx.s.distance(unit, o), o));
        if near.is_empty() {
            let later = Modifier {
                amount: m.amount + 1,
                during: Some((unit, n + 1)),
                duration: Duration::EndOfTurn { unit, turn: n + 1 },
                ..m
            };
            cx.emit(Event::ModifierAdded { name, modifier: later });
            continue;
        }
        for o in near {
            if !cx.s.unit(unit).on_map() {
                break;
            }
            crate::rules::damage::deal_unreduced(
                cx,
                unit,
                m.amount,
                Some(m.source),
                &format!("{name}: HP handed over"),
            );
            crate::rules::damage::heal(cx, o, m.amount, &name);
        }
    }
}

/// Squares next to `target` that `unit` could teleport to; "stay" when there are none.
fn bond_squares(s: &State, unit: UnitIdx, target: UnitIdx) -> Vec<DecisionOption> {
    let (u, t) = (s.unit(unit), s.unit(target));
    let mut out: Vec<DecisionOption> = match (u.pos, t.pos) {
        (Some(_), Some(tp)) => s
            .arena
            .terrain
            .squares()
            .filter(|&q| {
                fray_core::geometry::distance(q, u.size, tp, t.size) == 1
                    && Some(q) != u.pos
                    && crate::rules::movement::can_stand(s, unit, q, u.size)
            })
            .map(|q| DecisionOption::square(q, format!("teleport to {q}")))
            .collect(),
        _ => Vec::new(),
    };
    if out.is_empty() {
        out.push(DecisionOption::new("stay", "no room next to it: stay"));
    }
    out
}

/// Draught of Bonded Futures, as `unit`'s turn starts: a bond due this round brings it next to
/// its target (its own choice of square), if both are on the map.
pub fn turn_starts(cx: &mut Ctx, unit: UnitIdx) {
    let round = cx.s.round as i32;
    for i in (0..cx.s.modifiers.len()).rev() {
        let m = cx.s.modifiers[i].clone();
        if m.kind != ModifierKind::BondedFutures || m.attackers != Attackers::Unit(unit) || m.amount != round {
            continue;
        }
        cx.emit(Event::ModifierEnded { index: i, why: "the bond comes due".into() });
        if let Some(target) = m.against.filter(|&t| cx.s.unit(t).on_map() && t != unit) {
            cx.push(Frame::Brew(BrewFrame::Bond { unit, target }));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Kill Switch (L1509-1513; rulings kill-switch)
// ---------------------------------------------------------------------------------------

/// The brews Kill Switch spills: every Potion and Elixir `u` knows, the Encounter ones only
/// while unspent.
fn stash(s: &State, u: UnitIdx) -> Vec<u16> {
    let un = s.unit(u);
    un.powers
        .iter()
        .copied()
        .filter(|&p| {
            let def = s.powers.get(p);
            (is_potion(def) || is_elixir(def))
                && !def.reference_only
                && !(def.frequency == Frequency::Encounter && un.spent.contains(&p))
        })
        .collect()
}

/// Kill Switch: 2 damage to everything within 2 of the Brewer, then each spilled brew's Effect
/// line on each of them; then the Brewer's brews are locked.
pub fn kill_switch(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    let targets = crate::rules::actions::burst_targets(cx.s, u, power);
    let brews = stash(cx.s, u);
    let level = cx.s.unit(u).level;
    for &t in &targets {
        if cx.s.unit(t).on_map() {
            crate::rules::damage::deal(cx, t, 2, Some(u), &name, None);
        }
        for &p in &brews {
            if !cx.s.unit(t).on_map() {
                break;
            }
            let line = cx.s.powers.get(p).effect_at(level).to_vec();
            crate::rules::attack::apply_effects(cx, u, t, p, &line)?;
        }
    }
    let lock = Modifier {
        kind: ModifierKind::BrewsLocked,
        amount: 0,
        attackers: Attackers::Unit(u),
        against: None,
        first: false,
        during: None,
        duration: Duration::Indefinite,
        source: u,
        power,
    };
    cx.emit(Event::ModifierAdded { name, modifier: lock });
    Ok(())
}

/// Recover (Kill Switch): the Attack Action is spent, the brews are usable again.
fn unlock(cx: &mut Ctx, u: UnitIdx) {
    let found =
        cx.s.modifiers.iter().position(|m| m.kind == ModifierKind::BrewsLocked && m.attackers == Attackers::Unit(u));
    if let Some(i) = found {
        cx.emit(Event::ModifierEnded { index: i, why: "the Brewer gathered itself".into() });
    }
}

/// What the Brewer adds to the core rules: its power hooks, every Effect hook nobody else plays
/// (brews), brews delivered on a miss.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets[0]));
    r.effect_default(|cx, e| effect_hook(cx, e.hook, e.amount, e.user, e.target, e.power));
    r.on_missed(40, "delivers", |cx, m| missed(cx, m.def, m.attacker, m.target, m.brew));
    r.check_target(10, |s, u, power, t, _| check_target(s, u, power, t));
    r.menu(10, menu); // drinking or passing a carried Elixir
    r.lends(carried_power);
    r.on_turn(crate::engine::hooks::Trigger::TurnStarted, 20, "bonded-futures", turn_starts);
    r.on_turn(crate::engine::hooks::Trigger::TurnEnding, 10, "generosity-tonic", generosity);
    r.brews(crate::engine::hooks::Brews {
        check_use,
        begin,
        on_hit,
        deliver,
        blade_used,
        drop_all,
        failed_save,
        drink_power,
        kill_switch,
    });
}
