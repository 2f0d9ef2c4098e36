//! The Tinker's gadgets (L1328-1362): Effect hooks of its implement powers that no primitive
//! covers. Voko's Lariat ends the Marks its target has put on others (its fall on the first move
//! is a `moves` curse, curses.rs). Bag of Tricks asks which gadget comes out of the bag (each
//! once per match); each gadget is also a power entry of its own whose Effect line is the
//! gadget's: Explosive Attachment (a `maker-turn-ends` curse whose blast is the `explode` hook,
//! left behind in its square if its carrier is Taken Out first), Curtain of Shadows
//! (a zone no sight crosses, zones.rs), Tether and Talisman of Distraction (statuses; the
//! Talisman's Dazed comes as its target's turn ends while the Distracted is still on).

pub use crate::content::hooks::{TINKER_EFFECT as HOOKS, TINKER_POWER as POWER_HOOKS};
use crate::engine::events::Event;
pub use crate::engine::frames::classes::GadgetFrame;
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::query::TETHER;
pub use crate::rules::query::{GADGETS, is_tether, loads_boost, used_from_bag};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

const TALISMAN: &str = "bag-of-tricks-talisman-of-distraction";

/// How far a Tether pull drags its creature (L1360).
const TETHER_PULL: i32 = 5;

/// The creatures `u` holds with a Tether.
fn tethered(s: &State, u: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map().filter(|&v| s.unit(v).statuses.iter().any(|st| st.source == Some(u) && is_tether(s, st))).collect()
}

/// Whether `u` may use `power` without knowing it: the Tether pull, while it holds one.
pub fn tether_power(s: &State, u: UnitIdx, power: u16) -> bool {
    s.powers.get(power).hook.as_deref() == Some("tether-pull") && !tethered(s, u).is_empty()
}

/// The Tether pull for `u`'s menu (it does not know it as a power).
pub fn menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let Some(p) = crate::engine::memo::find_power(s, "tether-pull") else { return Vec::new() };
    if s.unit(u).powers.contains(&p)
        || crate::rules::actions::check_power_use(s, u, p, false).is_err()
        || crate::rules::control::check_power(s, u, s.powers.get(p), &[]).is_err()
    {
        return Vec::new(); // a compulsion may forbid it (found by random play)
    }
    vec![DecisionOption::new("power:tether-pull", s.powers.get(p).name.clone())]
}

/// Refuses the Tether pull with nothing tethered.
pub fn check_use(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Result<(), RuleError> {
    if def.hook.as_deref() == Some("tether-pull") && tethered(s, u).is_empty() {
        return Err(crate::engine::kit::refuse(
            TETHER,
            format_args!("{} holds no creature with a Tether", s.unit(u).id),
        ));
    }
    Ok(())
}

/// Pulls each creature `u` holds with a Tether up to 5 squares toward it (a Move Action).
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let targets = tethered(cx.s, u);
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(u),
        power: name,
        targets: targets.iter().map(|&t| cx.s.who(t)).collect(),
    });
    for t in targets {
        let f = crate::rules::forced::ForcedFrame::new(cx.s, u, t, crate::rules::forced::ForcedKind::Pull, TETHER_PULL);
        cx.push(Frame::Forced(f));
    }
    Ok(())
}
const EXPLOSIVE: &str = "bag-of-tricks-explosive-attachment";

/// Whom a Leader's loaded boost may heal: the Leader boost's choice, less traps and walls
/// (never allies, K-DEF-2).
fn heal_options(s: &State, tinker: UnitIdx) -> Vec<DecisionOption> {
    let mut out = crate::roles::boosts::leader_options(s, tinker);
    out.retain(|o| s.find_unit(&o.id).is_none_or(|t| !matches!(s.unit(t).kind, UnitKind::Trap | UnitKind::Wall)));
    if out.len() == 1 {
        out.clear(); // only "none" is left
    }
    out
}

/// `victim` set off `trap`: if a Role Boost is loaded in it and `victim` is an enemy, the boost
/// is spent on it, with the Tinker as its user (K-ROLE-5, L1297-1302). A Wand Trap's `free`
/// trigger brings none. Controller: a 3-square slide; Leader: 2 HP to one ally; Striker: 1
/// damage, no Striker Condition; the others their ordinary boost (the Hunter's extra damage
/// reads the Trap Roll and never reaches an athlete; the Pursuer pulls toward the Tinker).
pub fn deliver_loaded(cx: &mut Ctx, trap: UnitIdx, victim: UnitIdx, free: bool) {
    let Some(p) = cx.s.unit(trap).placed.clone() else { return };
    let (Some(roll), Some(tinker), false) = (p.loaded, p.owner, free) else { return };
    if !cx.s.enemies(trap, victim) {
        return;
    }
    let Some(b) = crate::roles::boosts::boost_of(cx.s, tinker) else { return };
    crate::rules::summons::set_trap(cx, trap, |t| t.loaded = None);
    let (tid, vid) = (cx.s.unit(tinker).id.clone(), cx.s.unit(victim).id.clone());
    cx.emit(Event::Note { text: format!("{tid}'s Role Boost loaded in {} goes off on {vid}", cx.s.unit(trap).id) });
    use crate::roles::boosts::Boost;
    let here = cx.s.unit(victim).on_map();
    match b {
        Boost::Leader => {
            if heal_options(cx.s, tinker).len() > 1 {
                cx.push(Frame::Gadget(GadgetFrame::LoadedHeal { tinker }));
            }
        }
        Boost::Juggernaut => crate::roles::boosts::apply(cx, b, tinker, victim, false),
        _ if !here => {}
        Boost::Controller => {
            if crate::rules::summons::movable(cx.s.unit(victim)) {
                let f = crate::rules::forced::ForcedFrame::new(
                    cx.s,
                    tinker,
                    victim,
                    crate::rules::forced::ForcedKind::Slide,
                    3,
                );
                cx.push(Frame::Forced(f));
            }
        }
        Boost::Striker(_) => {
            crate::rules::damage::deal(cx, victim, 1, Some(tinker), "loaded Role Boost", None);
        }
        Boost::Hunter => {
            let extra = crate::roles::striker::hunter_extra(cx.s, tinker, victim, roll);
            if extra > 0 {
                crate::rules::damage::deal(cx, victim, extra, Some(tinker), "loaded Role Boost", None);
            }
        }
        Boost::Smasher => {
            let extra = crate::roles::boosts::extra_damage(cx.s, b, tinker, victim, roll);
            if extra > 0 {
                crate::rules::damage::deal(cx, victim, extra, Some(tinker), "loaded Role Boost", None);
            }
            crate::roles::boosts::apply(cx, b, tinker, victim, extra > 0);
        }
        Boost::Runner => {}
        _ => crate::roles::boosts::apply(cx, b, tinker, victim, false),
    }
}

/// The Tinker's own traps (not a Specialist's Snap Trap or boost trap).
fn slidable_traps(s: &State, tinker: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| {
            let u = s.unit(t);
            u.kind == UnitKind::Trap
                && u.placed.as_ref().is_some_and(|p| {
                    p.owner == Some(tinker)
                        && !matches!(&*p.what, "snap-trap" | crate::roles::specialists::TRAPPER_TRAP)
                })
        })
        .filter(|&t| !slide_squares(s, t).is_empty())
        .collect()
}

/// The squares next to `trap` it may slide into: open ground no unit of any kind holds.
fn slide_squares(s: &State, trap: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(trap).pos else { return Vec::new() };
    s.arena
        .terrain
        .squares()
        .filter(|&q| {
            fray_core::geometry::distance(p, 1, q, 1) == 1
                && s.arena.at(q).enterable()
                && s.arena.at(q) != crate::engine::arena::Terrain::Portal
        })
        .filter(|&q| {
            s.units_on_map().all(|o| {
                let ou = s.unit(o);
                fray_core::geometry::distance(ou.pos.unwrap(), ou.size, q, 1) > 0
            })
        })
        .collect()
}

/// The start of `tinker`'s turn, before its traps act: it may slide one of its traps 1 square
/// (the Tinker's class text, L1281).
pub fn offer_slide(cx: &mut Ctx, tinker: UnitIdx) {
    let u = cx.s.unit(tinker);
    if u.on_map() && !u.taken_out && u.button.is_none() && !slidable_traps(cx.s, tinker).is_empty() {
        cx.push(Frame::Gadget(GadgetFrame::SlideWhich { tinker }));
    }
}

/// The squares next to `target` where Irena's Cloak may go.
fn cloak_squares(s: &State, target: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(target).pos else { return Vec::new() };
    let size = s.unit(target).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| fray_core::geometry::distance(p, size, q, 1) == 1 && s.arena.at(q).enterable())
        .collect()
}

/// The gadgets `user` has not used yet this match (powers, in the bag's order).
fn left_in_bag(s: &State, user: UnitIdx) -> Vec<u16> {
    GADGETS
        .iter()
        .filter_map(|id| s.powers.find(id))
        .filter(|&p| !s.powers.get(p).reference_only && !s.unit(user).spent.contains(&p))
        .collect()
}

/// Applies Effect hook `hook` (number `amount`) of `power`, used by `user` on `target`.
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
        "end-marks" => {
            // Voko's Lariat (L1330): every Mark the target has put on anyone ends.
            for u in cx.s.units_on_map().collect::<Vec<_>>() {
                let marks: Vec<Status> =
                    cx.s.unit(u)
                        .statuses
                        .iter()
                        .filter(|st| st.kind == StatusKind::Marked && st.source == Some(target))
                        .copied()
                        .collect();
                for st in marks {
                    cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: name.clone() });
                }
            }
        }
        "bag-of-tricks" if cx.s.unit(target).on_map() && !left_in_bag(cx.s, user).is_empty() => {
            cx.push(Frame::Gadget(GadgetFrame::Bag { user, target }));
        }
        "irenas-cloak" if !cloak_squares(cx.s, target).is_empty() => {
            cx.push(Frame::Gadget(GadgetFrame::Cloak { user, target, power }));
        }
        "explode" => {
            if let Some(at) = cx.s.unit(target).pos {
                explode(cx, user, at, amount.unwrap_or(2), &name);
            }
        }
        "curtain" => {
            // Curtain of Shadows: 3x3 around the target, until the end of the Tinker's next turn.
            if let Some(at) = cx.s.unit(target).pos {
                let until = cx.s.unit(user).turns_started + 1;
                let zone = crate::rules::zones::PowerZone {
                    bit: 0,
                    owner: user,
                    power,
                    centre: at,
                    size: 3,
                    kind: crate::content::powers::ZoneKind::Curtain,
                    amount: 0,
                    ends_after_turn: Some(until),
                };
                crate::rules::zones::lay(cx, zone);
            }
        }
        _ => {}
    }
    Ok(())
}

/// The blast: `amount` damage to every creature in square `at` or next to it, credited to `owner`.
fn explode(cx: &mut Ctx, owner: UnitIdx, at: Pos, amount: i32, name: &str) {
    cx.emit(Event::Note { text: format!("{name} goes off at {at}") });
    let hit: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&t| !matches!(cx.s.unit(t).kind, UnitKind::Trap | UnitKind::Wall | UnitKind::Conjured))
            .filter(|&t| fray_core::geometry::distance(at, 1, cx.s.unit(t).pos.unwrap(), cx.s.unit(t).size) <= 1)
            .collect();
    for t in hit {
        crate::rules::damage::deal(cx, t, amount, Some(owner), name, None);
    }
}

/// `unit` is Taken Out from square `at`: an Explosive Attachment on it stays in that square,
/// to go off there when it would have (the curse on the creature itself then ends with it).
pub fn taken_out(cx: &mut Ctx, unit: UnitIdx, at: Pos) {
    let bombs: Vec<crate::rules::curses::Curse> =
        cx.s.curses
            .iter()
            .filter(|c| c.target == unit && c.at.is_none() && cx.s.powers.get(c.power).id == EXPLOSIVE)
            .cloned()
            .collect();
    for c in bombs {
        let name = cx.s.powers.get(c.power).name.clone();
        cx.emit(Event::Note { text: format!("the explosive stays behind at {at}") });
        cx.emit(Event::CurseLaid {
            name,
            target: cx.s.who(unit),
            curse: crate::rules::curses::Curse { at: Some(at), ..c },
        });
    }
}

/// A left-behind Explosive Attachment goes off in its square.
pub fn left_behind_fires(
    cx: &mut Ctx,
    c: &crate::rules::curses::Curse,
    at: Pos,
    effect: &[crate::content::powers::Effect],
) {
    let amount = effect.iter().find(|e| e.hook.as_deref() == Some("explode")).and_then(|e| e.amount).unwrap_or(2);
    let name = cx.s.powers.get(c.power).name.clone();
    explode(cx, c.maker, at, amount, &name);
}

/// `unit`'s turn ends: a creature still Distracted by a Talisman of Distraction it did not pull
/// off this turn is Dazed too, until it does.
pub fn turn_ended(cx: &mut Ctx, unit: UnitIdx) {
    let Some(talisman) = cx.s.powers.find(TALISMAN) else { return };
    if !cx.s.unit(unit).on_map() {
        return;
    }
    let distracted =
        cx.s.unit(unit)
            .statuses
            .iter()
            .find(|st| st.kind == StatusKind::Distracted && st.origin == Some(talisman))
            .copied();
    let dazed = cx.s.unit(unit).statuses.iter().any(|st| st.kind == StatusKind::Dazed && st.origin == Some(talisman));
    if let Some(d) = distracted
        && !dazed
    {
        let st = Status {
            kind: StatusKind::Dazed,
            amount: 0,
            source: d.source,
            origin: d.origin,
            duration: Duration::Indefinite,
        };
        let name = cx.s.powers.get(talisman).name.clone();
        crate::rules::statuses::give::give_status(cx, unit, st, &name);
    }
}

/// The Tinker, the question and its options.
pub fn question(s: &State, f: &GadgetFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        GadgetFrame::Bag { user, target } => {
            let opts = left_in_bag(s, user)
                .into_iter()
                .map(|p| DecisionOption::new(s.powers.get(p).id.clone(), s.powers.get(p).name.clone()))
                .collect();
            (
                user,
                "gadget",
                format!("{}: Bag of Tricks — which gadget on {}?", s.unit(user).id, s.unit(target).id),
                opts,
            )
        }
        GadgetFrame::Cloak { user, target, .. } => {
            let opts =
                cloak_squares(s, target).into_iter().map(|q| DecisionOption::square(q, format!("cloak {q}"))).collect();
            (
                user,
                "square",
                format!("{}: Irena's Cloak — which square next to {}?", s.unit(user).id, s.unit(target).id),
                opts,
            )
        }
        GadgetFrame::SlideWhich { tinker } => {
            let mut opts: Vec<DecisionOption> =
                slidable_traps(s, tinker).into_iter().map(|t| crate::rules::actions::unit_option(s, t)).collect();
            opts.push(DecisionOption::new("none", "slide no trap"));
            (tinker, "target", format!("{}: slide one of your traps 1 square?", s.unit(tinker).id), opts)
        }
        GadgetFrame::LoadedHeal { tinker } => (
            tinker,
            "target",
            format!("{}: the Role Boost in the trap — which ally regains 2 HP?", s.unit(tinker).id),
            heal_options(s, tinker),
        ),
        GadgetFrame::SlideTo { tinker, trap } => {
            let opts = slide_squares(s, trap)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("slide to {q}")))
                .collect();
            (tinker, "square", format!("{}: slide {} to which square?", s.unit(tinker).id, s.unit(trap).id), opts)
        }
    }
}

/// Answers a gadget's question: the chosen gadget is spent for the match and its Effect line
/// applies; Irena's Cloak's square becomes a one-square zone until the end of the Tinker's next
/// turn.
pub fn answer(cx: &mut Ctx, f: GadgetFrame, option: &str) -> Result<(), RuleError> {
    match f {
        GadgetFrame::Bag { user, target } => {
            let p = cx.s.powers.find(option).ok_or_else(|| RuleError::malformed(format!("no gadget {option:?}")))?;
            let def = cx.s.powers.get(p).clone();
            cx.emit(Event::EncounterSpent { unit: cx.s.who(user), power: p, name: def.name.clone() });
            cx.emit(Event::Note { text: format!("{} pulls out the {}", cx.s.unit(user).id, def.name) });
            let line = def.effect_at(cx.s.unit(user).level).to_vec();
            crate::rules::attack::apply_nested(cx, user, target, target, p, &line)
        }
        GadgetFrame::Cloak { user, power, .. } => {
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
            let zone = crate::rules::zones::PowerZone {
                bit: 0,
                owner: user,
                power,
                centre: q,
                size: 1,
                kind: crate::content::powers::ZoneKind::Cloak,
                amount: 0,
                ends_after_turn: Some(cx.s.unit(user).turns_started + 1),
            };
            crate::rules::zones::lay(cx, zone);
            Ok(())
        }
        GadgetFrame::SlideWhich { tinker } => {
            if option != "none" {
                let trap = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                cx.push(Frame::Gadget(GadgetFrame::SlideTo { tinker, trap }));
            }
            Ok(())
        }
        GadgetFrame::LoadedHeal { tinker } => {
            if option != "none" {
                let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                let why = format!("{}'s Role Boost", cx.s.unit(tinker).id);
                crate::rules::damage::heal(cx, t, 2, &why);
            }
            Ok(())
        }
        GadgetFrame::SlideTo { trap, .. } => {
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
            let from = cx.s.unit(trap).pos.ok_or_else(|| RuleError::malformed("the trap is gone"))?;
            cx.emit(Event::Moved { unit: cx.s.who(trap), from, to: q, how: crate::engine::events::How::Slide });
            Ok(())
        }
    }
}

pub mod pest;
pub mod robes;

/// What the Tinker adds to the core rules: its power and Effect hooks, its use checks, the
/// Talisman of Distraction at the end of a turn.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power));
    r.effect_hooks(HOOKS, |cx, e| effect_hook(cx, e.hook, e.amount, e.user, e.target, e.power));
    r.check_use(10, check_use);
    r.on_trap_sprung(10, "K-ROLE-5", deliver_loaded);
    r.left_behind(left_behind_fires); // Explosive Attachment
    r.menu(20, menu); // pulling a tethered creature
    r.lends(tether_power);
    r.on_taken_out(40, "explosive-attachment", |cx, unit, at, _| taken_out(cx, unit, at));
    r.on_turn(crate::engine::hooks::Trigger::TurnStarted, 10, "tinker-trap-slide", offer_slide);
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 10, "talisman-of-distraction", turn_ended);
}
