//! The Wandslinger's shots (rulebook L748-836) that need more than the Effect vocabulary:
//! Focus (a steadier first shot and a longer range for the turn), Running Shot (a walk with one
//! shot anywhere along it), Recovery Shot (heal, a save, then the shot), Rapid Fire (the same
//! attack again at an enemy not hit yet this turn), Forking Bolt (damage forking from enemy to
//! enemy), Favored Target (a free shot at the marked target as each of your turns starts, laid
//! through [`crate::rules::curses`]) and Trick Shot's dropped object. The decisions they ask are
//! [`WandFrame`]s.

pub use crate::content::hooks::{WANDSLINGER_EFFECT as EFFECT_HOOKS, WANDSLINGER_POWER as POWER_HOOKS};
use crate::engine::events::Event;
pub use crate::engine::frames::classes::WandFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{OrbIdx, State, UnitIdx};
use crate::rules::attack::{self, AttackFrame};
use crate::rules::modifiers::{Attackers, Modifier, ModifierKind};
pub use crate::rules::query::{focus, focus_range, repeats};
use crate::rules::statuses::Duration;
use crate::rules::statuses::StatusKind;
use fray_core::decision::DecisionOption;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// How far Forking Bolt forks, in squares.
pub const FORK_REACH: i32 = 4;

/// Implement range while Focused (wandslinger-focus).
pub const FOCUS_RANGE: i32 = 10;

/// Statuses `u` could end with a save: those that end on a save (save ends).
fn saveable(s: &State, u: UnitIdx) -> Vec<usize> {
    (0..s.unit(u).statuses.len()).filter(|&i| s.unit(u).statuses[i].duration == Duration::SaveEnds).collect()
}

fn held(s: &State, u: UnitIdx) -> Vec<OrbIdx> {
    s.held_orbs(u).collect()
}

/// Uses a power this module plays.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    match def.hook.as_deref() {
        Some("focus") => {
            // wandslinger-focus: range 10 for the rest of the turn; the first implement attack
            // after it has Advantage (and 1 more damage if basic, `focused_damage`).
            cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
            let turn = cx.s.unit(u).turns_started;
            for (kind, amount, first) in
                [(ModifierKind::ImplementRange, FOCUS_RANGE, false), (ModifierKind::Focus, 1, true)]
            {
                let modifier = Modifier {
                    kind,
                    amount,
                    attackers: Attackers::Unit(u),
                    against: None,
                    first,
                    during: Some((u, turn)),
                    duration: Duration::EndOfTurn { unit: u, turn },
                    source: u,
                    power,
                };
                cx.emit(Event::ModifierAdded { name: def.name.clone(), modifier });
            }
            Ok(())
        }
        Some("recovery-shot") => {
            // wandslinger-recovery-shot: in order, 2 HP if Bloodied, one save, the shot.
            if cx.s.is_bloodied(u) {
                crate::rules::damage::heal(cx, u, 2, &def.name);
            }
            let frame = AttackFrame {
                via_action: true,
                ..AttackFrame::new(u, power, targets.to_vec(), cx.s.unit(u).pos.unwrap())
            };
            attack::begin(cx, frame)?;
            match saveable(cx.s, u).as_slice() {
                [] => cx.emit(Event::Note { text: format!("{} has no status a save could end", cx.s.unit(u).id) }),
                [i] => save_against(cx, u, *i)?,
                _ => cx.push(Frame::Wand(WandFrame::Recover { unit: u })),
            }
            Ok(())
        }
        Some("running-shot") => {
            // running-shot: a walk up to its speed, with one basic implement attack anywhere
            // along it (between two squares, before or after).
            cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: def.name.clone(), targets: vec![] });
            let left = crate::rules::movement::speed(cx.s, u, crate::rules::movement::Mode::Walk);
            cx.push(Frame::Wand(WandFrame::Run { unit: u, left, shot: false }));
            Ok(())
        }
        _ => Err(RuleError::malformed(format!("{} is not a Wandslinger hook", def.name))),
    }
}

fn save_against(cx: &mut Ctx, u: UnitIdx, i: usize) -> Result<(), RuleError> {
    let st = cx.s.unit(u).statuses[i];
    if crate::rules::turn::saving_throw(cx, u, &format!("{} (Recovery Shot)", st.kind))? {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "saved (Recovery Shot)".into() });
    }
    Ok(())
}

/// Effect hooks: Trick Shot's dropped object.
pub fn effect_hook(cx: &mut Ctx, hook: &str, user: UnitIdx, target: UnitIdx) -> Result<(), RuleError> {
    // `repeat-attack` and `fork` act later, in [`after_hit`].
    if hook == "drop-object" && cx.s.unit(target).on_map() && !crate::roles::specialists::keeps_hold(cx, target)? {
        let flasks = cx.s.unit(target).brewer.elixirs.len();
        match (held(cx.s, target).as_slice(), flasks) {
            ([], 0) => cx.emit(Event::Note { text: format!("{} carries nothing to drop", cx.s.unit(target).id) }),
            ([o], 0) => drop_orb(cx, target, *o),
            ([], 1) => drop_flask(cx, target, 0),
            _ => cx.push(Frame::Wand(WandFrame::Drop { user, target })),
        }
    }
    Ok(())
}

/// L784: any carried object may be dropped, an Elixir flask too; Fray keeps no flasks on the
/// ground, so it is lost (docs/rulings/kazzam.md).
fn drop_flask(cx: &mut Ctx, target: UnitIdx, i: usize) {
    let name = cx.s.powers.get(cx.s.unit(target).brewer.elixirs[i].power).name.clone();
    cx.emit(Event::ElixirLost { unit: cx.s.who(target), index: i, name, why: "dropped (Trick Shot)".into() });
}

fn drop_orb(cx: &mut Ctx, target: UnitIdx, o: OrbIdx) {
    let at = cx.s.unit(target).pos.unwrap();
    crate::rules::orbs::drop(cx, target, o, at);
}

/// Whether `hook` acts once the hit's Effect is over ([`after_hit`]).
pub fn after_hit_hook(hook: &str) -> bool {
    AFTER_HIT.contains(&hook)
}

/// The Effect hooks played once the hit's Effect is over ([`after_hit`]).
const AFTER_HIT: &[&str] = &["repeat-attack", "fork"];

/// Once `user`'s hit with `power` on `target` (which stood at `at`) has applied its Effect:
/// Rapid Fire asks where the repeat goes, Forking Bolt where the bolt forks.
pub fn after_hit(cx: &mut Ctx, hook: &str, user: UnitIdx, target: UnitIdx, at: Option<Pos>, power: u16) {
    if !cx.s.unit(user).on_map() {
        return;
    }
    match (hook, at) {
        ("repeat-attack", _) => cx.push(Frame::Wand(WandFrame::Repeat { user, power })),
        ("fork", Some(at)) => cx.push(Frame::Wand(WandFrame::Fork {
            user,
            power,
            chosen: vec![target],
            branches: vec![(at, 2)],
            left: 2,
        })),
        _ => {}
    }
}

/// Enemies Rapid Fire's repeat may aim at: in reach of the power, not hit by `user` this turn.
fn repeat_targets(s: &State, user: UnitIdx, power: u16) -> Vec<UnitIdx> {
    let un = s.unit(user);
    if !un.on_map() || un.stowed || s.has(user, StatusKind::Disarmed) || s.has(user, StatusKind::Stunned) {
        return Vec::new();
    }
    crate::rules::actions::legal_targets(s, user, power)
        .into_iter()
        .filter(|&t| s.enemies(user, t) && !un.hits_this_turn.contains(&t))
        .collect()
}

/// Enemies the current fork of a Forking Bolt may reach.
fn fork_targets(s: &State, user: UnitIdx, chosen: &[UnitIdx], from: Pos) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| s.enemies(user, t) && !chosen.contains(&t))
        .filter(|&t| {
            let tu = s.unit(t);
            fray_core::geometry::distance(from, 1, tu.pos.unwrap(), tu.size) <= FORK_REACH
        })
        .collect()
}

/// Running Shot's targets: a basic implement attack's, if the shot is still to come.
fn run_targets(s: &State, u: UnitIdx) -> Vec<UnitIdx> {
    let Some(bia) = s.powers.find("basic-implement-attack") else { return Vec::new() };
    if s.unit(u).stowed || s.has(u, StatusKind::Disarmed) || !s.unit(u).on_map() {
        return Vec::new(); // Taken Out on the way (found by random play)
    }
    crate::rules::actions::legal_targets(s, u, bia)
}

/// The decision a [`WandFrame`] asks.
pub fn question(s: &State, f: &WandFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match f {
        WandFrame::Recover { unit } => {
            let options = saveable(s, *unit)
                .into_iter()
                .enumerate()
                .map(|(n, i)| DecisionOption::new((n + 1).to_string(), s.unit(*unit).statuses[i].kind.to_string()))
                .collect();
            (*unit, "status", format!("{}: Recovery Shot — save against which status?", s.unit(*unit).id), options)
        }
        WandFrame::Repeat { user, power } => {
            let mut options: Vec<DecisionOption> = repeat_targets(s, *user, *power)
                .into_iter()
                .map(|t| crate::rules::actions::unit_option(s, t))
                .collect();
            options.push(DecisionOption::new("decline", "no repeat"));
            let name = &s.powers.get(*power).name;
            (
                *user,
                "target",
                format!("{}: {name} — repeat it at an enemy not hit this turn?", s.unit(*user).id),
                options,
            )
        }
        WandFrame::Fork { user, power, chosen, branches, .. } => {
            let options = branches
                .first()
                .map(|&(from, _)| fork_targets(s, *user, chosen, from))
                .unwrap_or_default()
                .into_iter()
                .map(|t| crate::rules::actions::unit_option(s, t))
                .collect();
            let name = &s.powers.get(*power).name;
            (*user, "target", format!("{}: {name} — which enemy does the bolt fork to?", s.unit(*user).id), options)
        }
        WandFrame::Run { unit, left, shot } => {
            let mut options: Vec<DecisionOption> = crate::rules::actions::walk_ends(s, *unit, *left)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("run to {q}")))
                .collect();
            if !shot {
                for t in run_targets(s, *unit) {
                    options.push(DecisionOption::new(
                        format!("shoot:{}", s.unit(t).id),
                        format!("stop and shoot {}", s.unit(t).name),
                    ));
                }
            }
            options.push(DecisionOption::new("stop", "stop here"));
            (*unit, "square", format!("{}: Running Shot — {left} square(s) left", s.unit(*unit).id), options)
        }
        WandFrame::Drop { user, target } => {
            let mut options: Vec<DecisionOption> = held(s, *target)
                .into_iter()
                .map(|o| {
                    let id = s.orbs[o as usize].id.to_string();
                    DecisionOption::new(id.clone(), format!("orb {id}"))
                })
                .collect();
            options.extend(s.unit(*target).brewer.elixirs.iter().enumerate().map(|(i, e)| {
                DecisionOption::new(format!("elixir:{}", i + 1), format!("flask of {}", s.powers.get(e.power).name))
            }));
            (
                *user,
                "orb",
                format!("{}: Trick Shot — what does {} drop?", s.unit(*user).id, s.unit(*target).id),
                options,
            )
        }
    }
}

/// Answers a [`WandFrame`].
pub fn answer(cx: &mut Ctx, f: WandFrame, option: &str) -> Result<(), RuleError> {
    match f {
        WandFrame::Recover { unit } => {
            let n: usize = option.parse().map_err(|_| RuleError::malformed("answer with the status's number"))?;
            let i =
                *saveable(cx.s, unit).get(n.wrapping_sub(1)).ok_or_else(|| RuleError::malformed("no such status"))?;
            save_against(cx, unit, i)
        }
        WandFrame::Drop { target, .. } => {
            if let Some(n) = option.strip_prefix("elixir:") {
                let i = n.parse::<usize>().ok().and_then(|n| n.checked_sub(1));
                let i = i.filter(|&i| i < cx.s.unit(target).brewer.elixirs.len());
                let i = i.ok_or_else(|| RuleError::malformed(format!("no flask {option:?}")))?;
                drop_flask(cx, target, i);
                return Ok(());
            }
            let o = cx.s.find_orb(option).ok_or_else(|| RuleError::malformed(format!("no orb {option:?}")))?;
            drop_orb(cx, target, o);
            Ok(())
        }
        WandFrame::Repeat { user, power } => {
            if option == "decline" {
                return Ok(());
            }
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            // The same attack again, without the Role Boost, and not repeating in turn.
            let origin = cx.s.unit(user).pos.unwrap();
            let frame = AttackFrame { no_boost: true, repeat: true, ..AttackFrame::new(user, power, vec![t], origin) };
            attack::begin(cx, frame)
        }
        WandFrame::Fork { user, power, mut chosen, mut branches, left } => {
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            let (_, dmg) = branches[0];
            let at = cx.s.unit(t).pos.unwrap();
            chosen.push(t);
            if dmg > 1 {
                branches.push((at, dmg - 1)); // its own two forks, 1 damage apiece
            }
            if left > 1 {
                cx.push(Frame::Wand(WandFrame::Fork { user, power, chosen, branches, left: left - 1 }));
            } else {
                branches.remove(0);
                cx.push(Frame::Wand(WandFrame::Fork { user, power, chosen, branches, left: 2 }));
            }
            let name = cx.s.powers.get(power).name.clone();
            crate::rules::damage::deal(cx, t, dmg, Some(user), &format!("{name} forks"), None);
            Ok(())
        }
        WandFrame::Run { unit, left, shot } => {
            if option == "stop" {
                return Ok(());
            }
            if let Some(id) = option.strip_prefix("shoot:") {
                let t = cx.s.find_unit(id).ok_or_else(|| RuleError::malformed(format!("no unit {id:?}")))?;
                cx.push(Frame::Wand(WandFrame::Run { unit, left, shot: true }));
                let bia = cx.s.powers.find("basic-implement-attack").expect("built-in");
                let origin = cx.s.unit(unit).pos.unwrap();
                let frame = AttackFrame { via_action: true, ..AttackFrame::new(unit, bia, vec![t], origin) };
                return attack::begin(cx, frame);
            }
            let to = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
            let reach = crate::rules::movement::reach(cx.s, unit, crate::rules::movement::Mode::Walk)
                .ok_or_else(|| RuleError::malformed("not on the map"))?;
            let (Some(path), Some(cost)) = (reach.path_to(to), reach.cost(to)) else {
                return Err(RuleError::malformed(format!("{to} cannot be reached")));
            };
            cx.push(Frame::Wand(WandFrame::Run { unit, left: left - cost as i32, shot }));
            cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(unit, path, crate::engine::events::How::Walk)));
            Ok(())
        }
    }
}

/// Advances a [`WandFrame`]: it waits for its answer unless nothing is left to choose (a
/// finished fork moves on to the next one).
pub fn step(cx: &mut Ctx, mut f: WandFrame) -> Result<Flow, RuleError> {
    if let WandFrame::Fork { user, chosen, branches, left, .. } = &mut f {
        while let Some(&(from, _)) = branches.first() {
            if *left > 0 && cx.s.unit(*user).on_map() && !fork_targets(cx.s, *user, chosen, from).is_empty() {
                break;
            }
            branches.remove(0);
            *left = 2;
        }
        if branches.is_empty() {
            return Ok(Flow::Continue);
        }
    }
    let unit = match &f {
        WandFrame::Recover { unit } | WandFrame::Run { unit, .. } => *unit,
        WandFrame::Drop { user, .. } | WandFrame::Repeat { user, .. } | WandFrame::Fork { user, .. } => *user,
    };
    let (_, _, _, options) = question(cx.s, &f);
    let nothing = options.iter().all(|o| o.id == "decline" || o.id == "stop");
    if !cx.s.unit(unit).on_map() || nothing {
        return Ok(Flow::Continue);
    }
    cx.push(Frame::Wand(f));
    Ok(Flow::Wait)
}

/// What the Wandslinger adds to the core rules: its power and Effect hooks.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets));
    r.effect_hooks(EFFECT_HOOKS, |cx, e| effect_hook(cx, e.hook, e.user, e.target));
    r.after_hit_hooks(AFTER_HIT, |cx, h| after_hit(cx, h.hook, h.user, h.target, h.at, h.power));
}
