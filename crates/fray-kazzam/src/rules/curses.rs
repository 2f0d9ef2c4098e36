//! Curses: what a power leaves hanging over a creature, to happen by itself when something
//! comes to pass — "if the target misses with its next attack, it takes 3 damage" (Misfortune),
//! "whoever Takes it Out before the end of its next turn gains a Miss Token" (Speak Doom),
//! "whenever you take damage, the target takes 1" (Empathic Imposition), "at the start of its
//! next turn it drops Prone or takes 3" (Foreseen Attack). No one decides anything when they
//! fire (unlike Interrupts and Reactions, `triggers`); their Effect line just applies.
//!
//! A power lays one with the `curse` Effect primitive; the record on the field names the power
//! and the place of the primitive in its Effect line, so the State stays cheap to clone.

pub use crate::content::powers::CurseDef;
use crate::content::powers::Effect;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
pub use crate::engine::records::curses::Curse;
pub use crate::engine::records::curses::CurseOn;
use crate::engine::state::{State, UnitIdx};
use crate::rules::statuses::Duration;
use fray_core::ruleset::RuleError;

/// Every primitive a power may lay a curse from, in order: its Effect line for `level`, then a
/// charm's Effect 1, doubled Effect 1 and Effect 2.
fn primitives(s: &State, power: u16, level: u8) -> Vec<&Effect> {
    let def = s.powers.get(power);
    let mut out: Vec<&Effect> = def.effect_at(level).iter().collect();
    if let Some(c) = &def.charm {
        out.extend(c.effect_1.iter().chain(&c.doubled).chain(&c.effect_2));
    }
    out
}

/// The place of primitive `e` among the ones `power`, used by `user`, may lay a curse from.
pub fn index_of(s: &State, power: u16, user: UnitIdx, e: &Effect) -> usize {
    primitives(s, power, s.unit(user).level).iter().position(|x| *x == e).unwrap_or(0)
}

/// The Effect line of a curse on the field.
pub fn effect_line(s: &State, c: &Curse) -> Vec<Effect> {
    effect_of(s, c)
}

fn effect_of(s: &State, c: &Curse) -> Vec<Effect> {
    primitives(s, c.power, s.unit(c.maker).level)
        .get(c.index as usize)
        .and_then(|e| e.curse.as_ref())
        .map(|d| d.effect.clone())
        .unwrap_or_default()
}

/// Lays the curse of primitive `index` of `power`'s Effect line.
pub fn lay(cx: &mut Ctx, def: &CurseDef, maker: UnitIdx, target: UnitIdx, power: u16, index: usize) {
    // A turn-start curse waits through the end of the target's next turn, and fires as it starts.
    let duration = crate::rules::query::duration_for(cx.s, maker, target, def.until);
    let curse = Curse { on: def.on, maker, target, power, index: index as u8, duration, at: None, value: 0, via: None };
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::CurseLaid { name, target: cx.s.who(target), curse: curse.clone() });
    if def.on == CurseOn::TargetDamaged {
        pain(cx, &curse); // "including now": the hit that laid it
    }
}

/// Applies a curse's Effect line from inside damage being dealt, where no error can be passed
/// up. Nothing there should be refused, so a refusal is a bug: it fails a debug build (the
/// tests) and is written in the journal in a release build, never dropped silently.
pub(crate) fn fire(
    cx: &mut Ctx,
    maker: UnitIdx,
    target: UnitIdx,
    power_target: UnitIdx,
    power: u16,
    effect: &[Effect],
) {
    if let Err(e) = crate::rules::attack::apply_nested(cx, maker, target, power_target, power, effect) {
        let text =
            format!("{}'s Effect on {} could not be applied: {e}", cx.s.powers.get(power).name, cx.s.unit(target).id);
        if cfg!(debug_assertions) {
            panic!("{text}");
        }
        cx.emit(Event::Note { text });
    }
}

/// Revealed Pain: the curse's Effect on every athlete opposing its maker within 5 squares of
/// its target. Damage it deals sets off no further curse.
fn pain(cx: &mut Ctx, c: &Curse) {
    let Some(_) = cx.s.unit(c.target).pos else { return };
    let effect = effect_of(cx.s, c);
    let victims: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&v| {
                v != c.target
                    && cx.s.unit(v).kind == crate::engine::state::UnitKind::Athlete
                    && cx.s.enemies(c.maker, v)
                    && cx.s.distance(v, c.target).is_some_and(|d| d <= 5)
            })
            .collect();
    let was = cx.s.curse_firing;
    cx.s.curse_firing = true;
    for v in victims {
        fire(cx, c.maker, v, c.target, c.power, &effect);
    }
    cx.s.curse_firing = was;
}

/// Saving throws against "save ends" curses hanging over `unit` (Revealed Pain, Linked Doom),
/// in its Saving Throw Phase.
pub fn saves(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let mut i = 0;
    while i < cx.s.curses.len() {
        let c = &cx.s.curses[i];
        if c.duration == Duration::SaveEnds && c.target == unit {
            let name = cx.s.powers.get(c.power).name.clone();
            if crate::rules::saves::saving_throw(cx, unit, &name)? {
                end(cx, i, "saved");
                continue;
            }
        }
        i += 1;
    }
    Ok(())
}

/// `unit` has just become Bloodied or dropped to 0 HP (Linked Doom): the curses it made on
/// that apply to their targets.
pub fn maker_bloodied(cx: &mut Ctx, unit: UnitIdx) {
    if cx.s.curse_firing {
        return;
    }
    let firing: Vec<Curse> =
        cx.s.curses.iter().filter(|c| c.on == CurseOn::MakerBloodied && c.maker == unit).cloned().collect();
    for c in firing {
        if cx.s.unit(c.target).on_map() {
            let effect = effect_of(cx.s, &c);
            cx.s.curse_firing = true;
            fire(cx, c.maker, c.target, c.target, c.power, &effect);
            cx.s.curse_firing = false;
        }
    }
}

fn end(cx: &mut Ctx, i: usize, why: &str) {
    cx.emit(Event::CurseEnded { index: i, why: why.into() });
}

/// Ends curses whose wait is over (at the end or start of a turn).
pub fn expire(cx: &mut Ctx, mut f: impl FnMut(&Duration) -> bool, why: &str) {
    for i in (0..cx.s.curses.len()).rev() {
        if f(&cx.s.curses[i].duration) {
            end(cx, i, why);
        }
    }
}

/// `attacker`'s attack roll has been read as a hit or a miss (Misfortune).
pub fn attack_resolved(cx: &mut Ctx, attacker: UnitIdx, missed: bool) -> Result<(), RuleError> {
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::NextAttackMisses && c.target == attacker) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, if missed { "the attack missed" } else { "the attack hit" });
        if missed && cx.s.unit(attacker).on_map() {
            crate::rules::attack::apply_nested(cx, c.maker, attacker, attacker, c.power, &effect)?;
        }
    }
    Ok(())
}

/// `unit` has just been Taken Out by `by` (Speak Doom).
pub fn taken_out(cx: &mut Ctx, unit: UnitIdx, by: Option<UnitIdx>) {
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::TakenOut && c.target == unit) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, "its target was Taken Out");
        if let Some(taker) = by {
            // Nothing here asks a question or rolls: a Miss Token, Ward, a status.
            fire(cx, c.maker, taker, unit, c.power, &effect);
        }
    }
}

/// `unit` took damage (Empathic Imposition). Damage a curse deals sets off no further curse, so
/// two makers cursing each other cannot loop.
pub fn damaged(cx: &mut Ctx, unit: UnitIdx) {
    if cx.s.curse_firing {
        return;
    }
    let pains: Vec<Curse> =
        cx.s.curses.iter().filter(|c| c.on == CurseOn::TargetDamaged && c.target == unit).cloned().collect();
    for c in pains {
        pain(cx, &c); // Revealed Pain
    }
    let firing: Vec<Curse> =
        cx.s.curses.iter().filter(|c| c.on == CurseOn::MakerDamaged && c.maker == unit).cloned().collect();
    for c in firing {
        if cx.s.unit(c.target).on_map() {
            let effect = effect_of(cx.s, &c);
            cx.s.curse_firing = true;
            fire(cx, c.maker, c.target, c.target, c.power, &effect);
            cx.s.curse_firing = false;
        }
    }
}

/// `unit`'s turn has started (Foreseen Attack): fires before its other start-of-turn effects.
pub fn turn_started(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::TurnStarts && c.target == unit) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, "its turn started");
        if cx.s.unit(unit).on_map() {
            crate::rules::attack::apply_nested(cx, c.maker, unit, unit, c.power, &effect)?;
        }
    }
    Ok(())
}

/// `unit` is about to start a move under its own power (Voko's Lariat): on its own turn only.
/// Returns whether a curse fired.
pub fn moving(cx: &mut Ctx, unit: UnitIdx, how: crate::engine::events::How) -> Result<bool, RuleError> {
    use crate::engine::events::How;
    if cx.s.current() != Some(unit) || !matches!(how, How::Walk | How::Shift | How::Crawl | How::Charge) {
        return Ok(false);
    }
    let mut fired = false;
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::Moves && c.target == unit) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, "it tried to move");
        fired = true;
        if cx.s.unit(unit).on_map() {
            crate::rules::attack::apply_nested(cx, c.maker, unit, unit, c.power, &effect)?;
        }
    }
    Ok(fired)
}

/// `attacker`'s attack hit `target`: curses waiting for the next enemy to hit it strike back.
pub fn target_hit(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) -> Result<(), RuleError> {
    if !cx.s.enemies(target, attacker) {
        return Ok(());
    }
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::TargetHit && c.target == target) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, "an enemy hit its target");
        if cx.s.unit(attacker).on_map() {
            crate::rules::attack::apply_nested(cx, c.maker, attacker, attacker, c.power, &effect)?;
        }
    }
    Ok(())
}

/// `unit`'s turn is ending: its curses that wait for the end of this turn fire (Explosive
/// Attachment), before durations run out.
pub fn maker_turn_ends(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let turn = cx.s.unit(unit).turns_started;
    let due = |c: &Curse| {
        c.on == CurseOn::MakerTurnEnds
            && c.maker == unit
            && matches!(c.duration, Duration::EndOfTurn { unit: w, turn: t } if w == unit && t <= turn)
    };
    while let Some(i) = cx.s.curses.iter().position(due) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, "its time came");
        if let Some(at) = c.at {
            if let Some(f) = crate::engine::hooks::table(cx.s).left_behind() {
                f(cx, &c, at, &effect); // Explosive Attachment
            }
        } else if cx.s.unit(c.target).on_map() {
            crate::rules::attack::apply_nested(cx, c.maker, c.target, c.target, c.power, &effect)?;
        }
    }
    Ok(())
}

/// Whether the curse is laid as its power is used rather than by a hit (Favored Target).
pub fn laid_on_use(def: &CurseDef) -> bool {
    def.on == CurseOn::MakerTurnStarts
}

/// `unit`'s turn has started: its own curses that fire on its turns do (Favored Target). They
/// stay laid.
pub fn maker_turn_started(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let firing: Vec<Curse> =
        cx.s.curses.iter().filter(|c| c.on == CurseOn::MakerTurnStarts && c.maker == unit).cloned().collect();
    for c in firing {
        if cx.s.unit(unit).on_map() && cx.s.unit(c.target).on_map() {
            let effect = effect_of(cx.s, &c);
            crate::rules::attack::apply_nested(cx, c.maker, c.target, c.target, c.power, &effect)?;
        }
    }
    Ok(())
}

/// Whether the curse primitive fires even on a target its own hit Took Out (Speak Doom:
/// "including by this attack").
pub fn fires_on_taken_out(def: &CurseDef) -> bool {
    def.on == CurseOn::TakenOut
}

/// `attacker` begins an attack on `targets` (Creature Aegis): a curse waiting for an attack on a
/// summoned creature or a Creep fires, once.
pub fn attack_begins(cx: &mut Ctx, attacker: UnitIdx, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let beasts = targets.iter().any(|&t| {
        matches!(cx.s.unit(t).kind, crate::engine::state::UnitKind::Summon | crate::engine::state::UnitKind::Creep)
    });
    if !beasts {
        return Ok(());
    }
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::AttacksSummonOrCreep && c.target == attacker) {
        let c = cx.s.curses[i].clone();
        let effect = effect_of(cx.s, &c);
        end(cx, i, "it attacked a summoned creature or a Creep");
        if cx.s.unit(attacker).on_map() {
            crate::rules::attack::apply_nested(cx, c.maker, attacker, attacker, c.power, &effect)?;
        }
    }
    Ok(())
}

/// Curses that wait for a hit on their target or for an attack's roll.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_hit(20, "preservation-charm", |cx, h| target_hit(cx, h.attacker, h.target));
    r.on_taken_out(50, "speak-doom", |cx, unit, _, by| taken_out(cx, unit, by));
    r.on_roll_read(40, "misfortune", |cx, r| attack_resolved(cx, r.attacker, !r.hit));
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 60, "curses", |cx, unit| {
        let turn = cx.s.unit(unit).turns_started;
        expire(
            cx,
            |d| matches!(d, Duration::EndOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
            "end of turn",
        );
    });
    r.curses(crate::engine::hooks::Curses { damaged, maker_bloodied, moving });
}
