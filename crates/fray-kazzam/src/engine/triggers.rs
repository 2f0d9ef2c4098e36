//! Triggered powers (K-ACT-7): Interrupts resolve before what sets them off, Reactions after.
//! The rule areas call in here at their trigger points (a square about to be left, a roll about
//! to hit, an Opportunity granted, a move or a turn ended); each unit with a usable triggered
//! power is offered it as a decision ([`TriggerFrame::Offer`], its own seat: use it or not),
//! pushed above the interrupted frame or after the event. A unit is offered one decision per
//! trigger, so it uses at most one power on it.
//!
//! Powers that "wait" (the Hexer's Patient powers, Retribution) leave an [`Armed`] record on
//! their user with a duration; it ends like a status would and shows in the view.

pub use crate::content::hooks::TRIGGERS_POWER as HOOKS;
use crate::content::powers::Frequency;
use crate::engine::events::{Event, How};
pub use crate::engine::frames::rules::Trigger;
pub use crate::engine::frames::rules::TriggerFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
pub use crate::engine::records::triggers::feature_name;
pub use crate::engine::records::triggers::{Armed, Cooldown};
use crate::engine::state::{State, UnitIdx};
use crate::rules::attack::{AttackFrame, Stage};
use crate::rules::statuses::{Duration, Status, StatusKind, describe_duration};
use fray_core::decision::DecisionOption;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Triggered class features this module plays (Wandslinger and Hexer, level 5).
pub const FEATURES: &[&str] = &["revenge-fire", "defensive-fire", "wandslinger-reposition", "hexer-sentinel"];

impl Trigger {
    fn interrupt(self) -> bool {
        !matches!(
            self,
            Trigger::MoveEnded { .. }
                | Trigger::TurnEnded { .. }
                | Trigger::SaveFailed { .. }
                | Trigger::Punish { .. }
                | Trigger::WasHit { .. }
                | Trigger::TookDamage { .. }
        )
    }
}

fn hook(s: &State, p: u16) -> Option<&str> {
    s.powers.get(p).hook.as_deref()
}

/// Whether `u` can use triggered powers at all: on the map, neither Stunned nor Dominated
/// (rulings K-ST-Stunned).
fn can_trigger(s: &State, u: UnitIdx) -> bool {
    s.unit(u).on_map() && !s.has(u, StatusKind::Stunned) && !s.has(u, StatusKind::Dominated)
}

/// `u`'s unspent, playable powers with hook `h`.
fn ready(s: &State, u: UnitIdx, h: &str) -> Vec<u16> {
    let un = s.unit(u);
    un.powers
        .iter()
        .copied()
        .filter(|&p| {
            let d = s.powers.get(p);
            d.hook.as_deref() == Some(h)
                && !d.reference_only
                && !(d.frequency == Frequency::Encounter && un.spent.contains(&p))
        })
        .collect()
}

/// Whether `owner` could make a Basic Implement Attack against `target` right now.
fn can_shoot(s: &State, owner: UnitIdx, target: UnitIdx) -> bool {
    let basic = crate::engine::memo::find_power(s, "basic-implement-attack").expect("built-in");
    let u = s.unit(owner);
    !u.stowed
        && !s.has(owner, StatusKind::Disarmed)
        && s.enemies(owner, target)
        && crate::rules::actions::check_target(s, owner, basic, target, false).is_ok()
}

/// Target Lock: `owner` may shoot the enemy it is Locked On to wherever it is.
fn lock_shot(s: &State, owner: UnitIdx, target: UnitIdx) -> bool {
    let u = s.unit(owner);
    !u.stowed
        && !s.has(owner, StatusKind::Disarmed)
        && s.enemies(owner, target)
        && crate::rules::query::locked(s, owner, target)
}

/// The options `owner` has on `trigger` (without declining): option id and label.
fn options(s: &State, owner: UnitIdx, trigger: Trigger) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = powers_for(s, owner, trigger)
        .into_iter()
        .map(|(p, arg, label)| {
            let id = &s.powers.get(p).id;
            (arg.map_or_else(|| id.clone(), |a| format!("{id}:{}", s.powers.get(a).id)), label)
        })
        .collect();
    out.extend(feature_options(s, owner, trigger));
    out
}

/// Whether [`options`] has any: both its parts are empty for a unit that cannot trigger, and no
/// option id is written.
#[inline(always)]
fn has_options(s: &State, owner: UnitIdx, trigger: Trigger) -> bool {
    may_have_options(s, owner, trigger) && has_options_asked(s, owner, trigger)
}

/// What [`powers_for_triggering`] asks first, asked before the rest (and inline: every unit on
/// the map is asked on every step): only armed powers answer a move or an attack (no feature
/// does); a turn ends beside few, a move ends 2 to 4 squares from few.
#[inline(always)]
fn may_have_options(s: &State, owner: UnitIdx, trigger: Trigger) -> bool {
    let near = |other: UnitIdx, d: std::ops::RangeInclusive<i32>| {
        s.enemies(owner, other) && s.distance(owner, other).is_some_and(|x| d.contains(&x))
    };
    match trigger {
        Trigger::Moving { .. } | Trigger::Attacking { .. } => !s.unit(owner).armed.is_empty(),
        Trigger::MoveEnded { mover } => near(mover, 2..=4),
        Trigger::TurnEnded { unit } => near(unit, 1..=1),
        _ => true,
    }
}

/// [`has_options`] once [`may_have_options`] holds.
fn has_options_asked(s: &State, owner: UnitIdx, trigger: Trigger) -> bool {
    // Only a hit, or one about to land, offers features (feature_options_triggering).
    let features = matches!(trigger, Trigger::WouldBeHit { .. } | Trigger::WasHit { .. });
    can_trigger(s, owner)
        && (!powers_for_triggering(s, owner, trigger, false).is_empty()
            || features && !feature_options_triggering(s, owner, trigger).is_empty())
}

/// Whether `u` has triggered feature `id` ready: it has it and has not used it since its last
/// turn ended.
fn feature_ready(s: &State, u: UnitIdx, id: &str) -> bool {
    let un = s.unit(u);
    un.triggered_features.iter().any(|f| &**f == id) && !un.cooldowns.iter().any(|c| &*c.feature == id)
}

/// The Wandslinger's level-5 features on `trigger`.
fn feature_options(s: &State, owner: UnitIdx, trigger: Trigger) -> Vec<(String, String)> {
    if !can_trigger(s, owner) {
        return Vec::new();
    }
    feature_options_triggering(s, owner, trigger)
}

/// [`feature_options`] of an owner known to be able to trigger ([`can_trigger`]).
fn feature_options_triggering(s: &State, owner: UnitIdx, trigger: Trigger) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let in_range = |a: UnitIdx| s.distance(owner, a).is_some_and(|d| d <= s.implement_range(owner));
    match trigger {
        Trigger::WouldBeHit { attacker }
            if feature_ready(s, owner, "defensive-fire") && in_range(attacker) && can_shoot(s, owner, attacker) =>
        {
            out.push(("defensive-fire".into(), format!("Defensive Fire: roll against {} first", s.unit(attacker).id)));
        }
        Trigger::WasHit { attacker } => {
            if feature_ready(s, owner, "revenge-fire") && in_range(attacker) && can_shoot(s, owner, attacker) {
                out.push((
                    "revenge-fire".into(),
                    format!("Revenge Fire: a Basic Implement Attack at {}", s.unit(attacker).id),
                ));
            }
            if feature_ready(s, owner, "wandslinger-reposition") && s.enemies(owner, attacker) {
                out.push(("wandslinger-reposition".into(), "Reposition: a Move Action now".into()));
            }
        }
        _ => {}
    }
    out
}

/// `attacker`'s attack hit `target`: its Reactions to being hit (Revenge Fire, Reposition),
/// placed at `below` in the flow so that what the hit queued (forced movement, choices)
/// resolves first.
pub fn was_hit(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, below: usize) {
    let trigger = Trigger::WasHit { attacker };
    if cx.s.unit(target).on_map() && cx.s.enemies(target, attacker) && has_options(cx.s, target, trigger) {
        let at = below.min(cx.s.flow.len());
        cx.s.flow.insert(at, Frame::Trigger(TriggerFrame::Offer { owner: target, trigger }));
    }
}

/// Attack powers `owner` could punish `target` with (Punisher): any roll with an Effect line,
/// range ignored, the rest of targeting kept (sight, Hidden, implement in hand).
fn punish_attacks(s: &State, owner: UnitIdx, target: UnitIdx) -> Vec<u16> {
    use crate::content::powers::{ActionKind, Targeting};
    let u = s.unit(owner);
    let revealed = s.has(target, StatusKind::Revealed);
    let line =
        revealed || crate::rules::cover::shot(s, u.pos.unwrap(), u.size, target) != fray_core::sight::Sight::Blocked;
    if !line || s.hidden_from(target, owner) {
        return Vec::new();
    }
    u.powers
        .iter()
        .copied()
        .filter(|&p| {
            let d = s.powers.get(p);
            d.action == ActionKind::Attack
                && d.rolls()
                && !d.effect_at(u.level).is_empty()
                && d.hook.is_none()
                && !d.reference_only
                && !(d.frequency == Frequency::Encounter && u.spent.contains(&p))
                && matches!(
                    d.target,
                    Targeting::Implement | Targeting::Melee | Targeting::Ranged { .. } | Targeting::Creature { .. }
                )
                && !(d.uses_implement() && (u.stowed || s.has(owner, StatusKind::Disarmed)))
                && !(d.is_melee(u.implement == crate::engine::state::Implement::Sword)
                    && s.has(owner, StatusKind::Flying) != s.has(target, StatusKind::Flying))
                && d.requires.as_deref().is_none_or(|r| crate::engine::state::Implement::parse(r) == Some(u.implement))
        })
        .collect()
}

/// Sentinel (Hexer level 5): the at-will attacks a Patient power may use in place of its basic
/// attack against `target`.
fn sentinel_attacks(s: &State, owner: UnitIdx, target: UnitIdx) -> Vec<u16> {
    use crate::content::powers::{ActionKind, Targeting};
    let u = s.unit(owner);
    if !u.triggered_features.iter().any(|f| &**f == "hexer-sentinel") || !s.enemies(owner, target) {
        return Vec::new();
    }
    u.powers
        .iter()
        .copied()
        .filter(|&p| {
            let d = s.powers.get(p);
            d.action == ActionKind::Attack
                && d.frequency == Frequency::AtWill
                && d.rolls()
                && d.basic.is_none()
                && !d.id.starts_with("basic-")
                && d.hook.is_none()
                && !d.reference_only
                && !d.grants_attacks()
                && matches!(d.target, Targeting::Implement | Targeting::Melee | Targeting::Ranged { .. })
                && !(d.uses_implement() && (u.stowed || s.has(owner, StatusKind::Disarmed)))
                && crate::rules::actions::check_target(s, owner, p, target, false).is_ok()
        })
        .collect()
}

/// The triggered powers `owner` could use on `trigger`, with the attack power a Punisher would
/// make, and a label.
fn powers_for(s: &State, owner: UnitIdx, trigger: Trigger) -> Vec<(u16, Option<u16>, String)> {
    if !can_trigger(s, owner) {
        return Vec::new();
    }
    powers_for_triggering(s, owner, trigger, true)
}

/// [`powers_for`] an owner known to be able to trigger ([`can_trigger`]).
fn powers_for_triggering(s: &State, owner: UnitIdx, trigger: Trigger, labels: bool) -> Vec<(u16, Option<u16>, String)> {
    let name = |p: u16| s.powers.get(p).name.as_str();
    // A label is written only if asked for (whether there are any needs none).
    let lab = |a: std::fmt::Arguments<'_>| if labels { std::fmt::format(a) } else { String::new() };
    let mut out = Vec::new();
    match trigger {
        Trigger::WouldBeHit { .. } => {
            for p in ready(s, owner, "contingency-jump") {
                out.push((p, None, lab(format_args!("use {}: teleport 2 squares and the attack misses", name(p)))));
            }
        }
        Trigger::Moving { mover } | Trigger::Attacking { attacker: mover } => {
            let moving = matches!(trigger, Trigger::Moving { .. });
            for a in &s.unit(owner).armed {
                let watches = match hook(s, a.power) {
                    Some("patient-shot" | "patient-surprise") => moving,
                    Some("patient-porcupine") => moving && !a.used_on.contains(&mover),
                    Some("patient-gaze") => a.target == Some(mover),
                    Some("target-lock") => !moving && a.target == Some(mover),
                    _ => false,
                };
                // Target Lock: the lock stands in for range and line of sight (a class power's).
                let lock = hook(s, a.power) == Some("target-lock") && lock_shot(s, owner, mover);
                if watches && (can_shoot(s, owner, mover) || lock) && !out.iter().any(|(p, _, _)| *p == a.power) {
                    out.push((
                        a.power,
                        None,
                        lab(format_args!(
                            "use {}: a Basic Implement Attack against {} now",
                            name(a.power),
                            s.unit(mover).id
                        )),
                    ));
                }
                let patient = hook(s, a.power).is_some_and(|h| h.starts_with("patient"));
                if watches && patient && !out.iter().any(|(p, x, _)| *p == a.power && x.is_some()) {
                    for w in sentinel_attacks(s, owner, mover) {
                        let label = lab(format_args!(
                            "use {} with {} against {} (Sentinel)",
                            name(a.power),
                            name(w),
                            s.unit(mover).id
                        ));
                        out.push((a.power, Some(w), label));
                    }
                }
            }
        }
        Trigger::Opportunity { granter, .. } if crate::rules::opportunity::may_take(s, owner, granter) => {
            for p in ready(s, owner, "i-dont-think-so") {
                out.push((p, None, lab(format_args!("use {}: {} also loses the action", name(p), s.unit(granter).id))));
            }
        }
        Trigger::MoveEnded { mover } => {
            if s.enemies(owner, mover) && s.distance(owner, mover).is_some_and(|d| (2..=4).contains(&d)) {
                for p in ready(s, owner, "pursue-reaction") {
                    if !pursue_squares(s, owner, mover).is_empty() {
                        out.push((p, None, lab(format_args!("use {}: move next to {}", name(p), s.unit(mover).id))));
                    }
                }
            }
        }
        Trigger::SaveFailed { unit, .. } => {
            let sees = owner == unit
                || s.unit(unit).on_map()
                    && crate::rules::cover::shot(s, s.unit(owner).pos.unwrap(), s.unit(owner).size, unit)
                        != fray_core::sight::Sight::Blocked;
            if !s.enemies(owner, unit) && sees {
                for p in ready(s, owner, "keep-walking") {
                    out.push((p, None, lab(format_args!("use {}: {} rolls the save again", name(p), s.unit(unit).id))));
                }
            }
        }
        Trigger::Punish { granter } => {
            let marked = s.status_from(granter, StatusKind::Marked, owner).is_some();
            if marked && s.unit(granter).on_map() && s.distance(owner, granter).is_some_and(|d| d <= 5) {
                for p in ready(s, owner, "punish-reaction") {
                    for a in punish_attacks(s, owner, granter) {
                        let label = lab(format_args!(
                            "use {}: {} against {}, its Effect line only",
                            name(p),
                            name(a),
                            s.unit(granter).id
                        ));
                        out.push((p, Some(a), label));
                    }
                }
            }
        }
        Trigger::WasHit { .. } | Trigger::Opportunity { .. } => {} // features only; an Opportunity it cannot take
        Trigger::TookDamage { .. } => {
            for p in crate::rules::query::reaction_elixirs(s, owner) {
                out.push((p, None, lab(format_args!("drink {} now", name(p)))));
            }
            for p in ready(s, owner, "kill-switch") {
                out.push((
                    p,
                    None,
                    lab(format_args!("use {}: 2 damage and your brews on everything within 2", name(p))),
                ));
            }
        }
        Trigger::TurnEnded { unit } => {
            if s.enemies(owner, unit) && s.distance(owner, unit) == Some(1) {
                for p in ready(s, owner, "push-reaction") {
                    out.push((p, None, lab(format_args!("use {}: push {} 3 squares", name(p), s.unit(unit).id))));
                }
            }
        }
    }
    out
}

/// Pushes an offer for every unit with an option on `trigger`, the lowest-numbered unit's on
/// top; returns whether any was pushed.
pub fn offer(cx: &mut Ctx, trigger: Trigger) -> bool {
    let owners: Vec<UnitIdx> = cx.s.units_on_map().filter(|&o| has_options(cx.s, o, trigger)).collect();
    for &owner in owners.iter().rev() {
        cx.push(Frame::Trigger(TriggerFrame::Offer { owner, trigger }));
    }
    !owners.is_empty()
}

/// An Opportunity `taker` gets on `granter`: taken at once, or — when the taker could answer it
/// with I Don't Think So — offered as a decision (returns true; it is pushed).
pub fn opportunity(cx: &mut Ctx, taker: UnitIdx, granter: UnitIdx, why: &'static str) -> bool {
    let trigger = Trigger::Opportunity { granter, why };
    // On a Creep whose list it is not on, taking one costs joining it: a choice (rulings, K-CAI-1).
    if !has_options(cx.s, taker, trigger) && !crate::rules::creeps::would_join(cx.s, taker, granter) {
        take(cx, taker, granter, why);
        return false;
    }
    cx.push(Frame::Trigger(TriggerFrame::Offer { owner: taker, trigger }));
    true
}

/// Takes an Opportunity, then offers the taker's Reaction to it (Punisher's Defender Reaction:
/// right after the Opportunity damage, see rulings).
fn take(cx: &mut Ctx, taker: UnitIdx, granter: UnitIdx, why: &str) {
    crate::rules::opportunity::take(cx, taker, granter, why);
    let trigger = Trigger::Punish { granter };
    if has_options(cx.s, taker, trigger) {
        let offer = Frame::Trigger(TriggerFrame::Offer { owner: taker, trigger });
        if crate::rules::query::dodge_pending(cx.s) {
            let below = cx.s.flow.len() - 1; // after a Runner's save against it
            cx.s.flow.insert(below, offer);
        } else {
            cx.push(offer);
        }
    }
}

/// `unit` failed its save against `status` in its Saving Throw Phase: the first unit that could
/// answer with Keep Walking is asked, and the phase waits (returns true).
pub fn save_failed(cx: &mut Ctx, unit: UnitIdx, status: Status, left: &[Status], fail: &[StatusKind]) -> bool {
    let trigger = Trigger::SaveFailed { unit, status };
    let Some(owner) = cx.s.units_on_map().find(|&o| has_options(cx.s, o, trigger)) else { return false };
    cx.push(Frame::Trigger(TriggerFrame::Resume { unit, left: left.to_vec(), fail: fail.to_vec() }));
    cx.push(Frame::Trigger(TriggerFrame::Offer { owner, trigger }));
    true
}

/// `unit` lost HP to damage: its Reactions to that (Phoenix Elixir), offered at once.
pub fn took_damage(cx: &mut Ctx, unit: UnitIdx) {
    let trigger = Trigger::TookDamage { unit };
    if cx.s.unit(unit).on_map() && has_options(cx.s, unit, trigger) {
        cx.push(Frame::Trigger(TriggerFrame::Offer { owner: unit, trigger }));
    }
}

/// An attack roll of `value` is about to hit `target`: offers its Interrupts.
pub fn would_be_hit(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) -> bool {
    let trigger = Trigger::WouldBeHit { attacker };
    if attacker == target || !has_options(cx.s, target, trigger) {
        return false;
    }
    cx.push(Frame::Trigger(TriggerFrame::Offer { owner: target, trigger }));
    true
}

/// A move under the mover's own power: those that can answer it.
fn own_move(how: How) -> bool {
    matches!(how, How::Walk | How::Shift | How::Crawl | How::Charge)
}

/// `mover` is about to leave a square: Patient powers watching it.
pub fn moving(cx: &mut Ctx, mover: UnitIdx, how: How) -> bool {
    own_move(how) && offer(cx, Trigger::Moving { mover })
}

/// `mover` finished a move: Reactions to it (Pursuer).
pub fn move_ended(cx: &mut Ctx, mover: UnitIdx, how: How) {
    if own_move(how) && cx.s.unit(mover).on_map() {
        offer(cx, Trigger::MoveEnded { mover });
    }
}

/// `attacker` is about to roll: Patient Gaze watching it.
pub fn attacking(cx: &mut Ctx, attacker: UnitIdx) -> bool {
    offer(cx, Trigger::Attacking { attacker })
}

/// `attacker` attacks `targets`: Retribution grants its user an Opportunity when a protected
/// ally is among them and the user is not (the first such enemy in its sight; every one from
/// level 4). `already` took an Opportunity on this attack: one per action (rulings K-OPP-2).
pub fn retribution(cx: &mut Ctx, attacker: UnitIdx, targets: &[UnitIdx], already: &[UnitIdx]) {
    for w in cx.s.units_on_map().collect::<Vec<_>>() {
        let Some(a) =
            cx.s.unit(w)
                .armed
                .iter()
                .find(|a| {
                    hook(cx.s, a.power) == Some("retribution")
                        && a.target.is_some_and(|t| targets.contains(&t))
                        && (a.used_on.is_empty() || cx.s.unit(w).level >= 4)
                })
                .cloned()
        else {
            continue;
        };
        let wp = cx.s.unit(w).pos.unwrap();
        let sees = !cx.s.hidden_from(attacker, w)
            && !cx.s.has(w, StatusKind::Blinded)
            && crate::rules::cover::shot(cx.s, wp, cx.s.unit(w).size, attacker) != fray_core::sight::Sight::Blocked;
        if targets.contains(&w) || !cx.s.enemies(w, attacker) || !sees {
            continue;
        }
        cx.emit(Event::TriggerUsed { unit: cx.s.who(w), power: a.power, against: cx.s.who(attacker) });
        if !already.contains(&w) && crate::rules::opportunity::may_take(cx.s, w, attacker) {
            opportunity(cx, w, attacker, "attacking the ally under its Retribution");
            if !cx.s.unit(attacker).on_map() {
                return;
            }
        }
    }
}

/// The Juggernaut's Defender Reaction, used by itself on the first damage it can lessen:
/// 1 less damage (rulings). Returns the damage left.
pub fn resist_reaction(cx: &mut Ctx, target: UnitIdx, total: i32) -> i32 {
    if total <= 0 || !can_trigger(cx.s, target) {
        return total;
    }
    let Some(p) = ready(cx.s, target, "resist-reaction").first().copied() else { return total };
    let name = cx.s.powers.get(p).name.clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(target), power: format!("{name} (Resist 1)"), targets: vec![] });
    cx.emit(Event::EncounterSpent { unit: cx.s.who(target), power: p, name });
    total - 1
}

/// Start of `unit`'s turn: its Defender Reaction is ready again (§2.11); records lasting until
/// now end.
pub fn start_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    let spent: Vec<u16> = cx.s.unit(unit).spent.clone();
    for p in spent {
        if cx.s.powers.get(p).group.as_deref() == Some("defender-reaction") {
            let name = cx.s.powers.get(p).name.clone();
            cx.emit(Event::EncounterRecharged { unit: cx.s.who(unit), power: p, name });
        }
    }
    let turn = cx.s.unit(unit).turns_started;
    end_armed(
        cx,
        |d| matches!(d, Duration::StartOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
        "its user's turn started",
    );
}

/// End of `unit`'s turn: records lasting until then end; features used before it are ready.
pub fn end_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    let turn = cx.s.unit(unit).turns_started;
    let ready: Vec<std::sync::Arc<str>> =
        cx.s.unit(unit)
            .cooldowns
            .iter()
            .filter(|c| matches!(c.until, Duration::EndOfTurn { turn: t, .. } if t <= turn))
            .map(|c| c.feature.clone())
            .collect();
    for feature in ready {
        cx.emit(Event::FeatureCooldown { unit: cx.s.who(unit), feature, until: None });
    }
    end_armed(cx, |d| matches!(d, Duration::EndOfTurn { unit: w, turn: t } if *w == unit && *t <= turn), "end of turn");
}

/// After `unit`'s turn has ended: Reactions to it (Smasher), before the next turn starts.
pub fn turn_ended(cx: &mut Ctx, unit: UnitIdx) {
    if cx.s.unit(unit).on_map() {
        offer(cx, Trigger::TurnEnded { unit });
    }
}

fn end_armed(cx: &mut Ctx, f: impl Fn(&Duration) -> bool, why: &str) {
    let mut ended = Vec::new();
    for u in cx.s.unit_indices() {
        for a in &cx.s.unit(u).armed {
            if f(&a.duration) {
                ended.push((u, a.clone()));
            }
        }
    }
    for (u, a) in ended {
        cx.emit(Event::TriggerDisarmed { unit: cx.s.who(u), armed: a, why: why.into() });
    }
}

/// What a waiting power's target must be: Patient Gaze watches an enemy.
pub fn check_use(s: &State, u: UnitIdx, power: u16, targets: &[UnitIdx], creative: bool) -> Result<(), RuleError> {
    let def = s.powers.get(power);
    let Some(&t) = targets.first() else { return Ok(()) };
    match def.hook.as_deref() {
        Some("patient-gaze") if !creative && !s.enemies(u, t) => Err(crate::engine::kit::refuse(
            "patient-gaze",
            format_args!("{} watches an enemy; {} is not one", def.name, s.unit(t).id),
        )),
        Some("target-lock") if !(creative || s.enemies(u, t) && crate::rules::query::locked(s, u, t)) => {
            Err(crate::engine::kit::refuse(
                "target-lock",
                format_args!("{} is aimed at the enemy you are Locked On to; {} is not", def.name, s.unit(t).id),
            ))
        }
        _ => Ok(()),
    }
}

/// Uses one of this module's powers as an action: arms a waiting power.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    let target = match def.target {
        crate::content::powers::Targeting::None | crate::content::powers::Targeting::Myself => None,
        _ => targets.first().copied(),
    };
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(u),
        power: def.name.clone(),
        targets: target.iter().map(|&t| cx.s.who(t)).collect(),
    });
    let next = cx.s.unit(u).turns_started + 1;
    let duration = match def.hook.as_deref() {
        Some("retribution") => Duration::EndOfTurn { unit: u, turn: next },
        _ => Duration::StartOfTurn { unit: u, turn: next },
    };
    // Using it again replaces the old record.
    for old in cx.s.unit(u).armed.iter().filter(|a| a.power == power).cloned().collect::<Vec<_>>() {
        cx.emit(Event::TriggerDisarmed { unit: cx.s.who(u), armed: old, why: "used again".into() });
    }
    cx.emit(Event::TriggerArmed { unit: cx.s.who(u), armed: Armed { power, target, duration, used_on: Vec::new() } });
    // K-ACT-5: a staff or sword user spending its Attack Action on an implement power ends its turn.
    let imp = cx.s.unit(u).implement;
    if def.action == crate::content::powers::ActionKind::Attack
        && def.hook.as_deref().is_some_and(|h| h.starts_with("patient") || h == "target-lock")
        && matches!(imp, crate::engine::state::Implement::Staff | crate::engine::state::Implement::Sword)
        && cx.s.current() == Some(u)
        && cx.s.unit(u).granted_by.is_none()
    {
        cx.emit(Event::TurnCutShort {
            unit: cx.s.who(u),
            why: format!("a {} implement power ends the turn", imp.name()),
        });
    }
    Ok(())
}

/// Advances a trigger frame: waits while it has options; an offer nobody can use any more lapses
/// (an Opportunity is still taken if it may be).
pub fn step(cx: &mut Ctx, f: TriggerFrame) -> Result<Flow, RuleError> {
    if let TriggerFrame::Resume { unit, left, fail } = f {
        return crate::rules::turn::save_phase(cx, unit, left, fail);
    }
    if !question(cx.s, &f).3.is_empty() {
        cx.push(Frame::Trigger(f));
        return Ok(Flow::Wait);
    }
    match f {
        TriggerFrame::Offer { owner, trigger: Trigger::Opportunity { granter, why } }
            if crate::rules::opportunity::may_take(cx.s, owner, granter) =>
        {
            take(cx, owner, granter, why)
        }
        TriggerFrame::Offer { trigger: Trigger::SaveFailed { unit, status }, .. } => {
            crate::rules::turn::settle_save(cx, unit, status, false)
        }
        _ => {}
    }
    Ok(Flow::Continue)
}

/// The decision a trigger frame waits on: (unit, kind, prompt, options); no options means it
/// lapses.
pub fn question(s: &State, f: &TriggerFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        TriggerFrame::Offer { owner, trigger } => {
            let mut opts: Vec<DecisionOption> =
                options(s, owner, trigger).into_iter().map(|(id, label)| DecisionOption::new(id, label)).collect();
            let who = &s.unit(owner).id;
            let (prompt, no) = match trigger {
                Trigger::WouldBeHit { attacker } => {
                    (format!("{who}: {} is about to hit you", s.unit(attacker).id), "take the hit")
                }
                Trigger::Moving { mover } => {
                    (format!("{who}: {} is moving within your range", s.unit(mover).id), "let it move")
                }
                Trigger::Attacking { attacker } => {
                    (format!("{who}: {} is about to attack", s.unit(attacker).id), "let it attack")
                }
                Trigger::Opportunity { granter, .. } => {
                    (format!("{who}: {} grants you an Opportunity", s.unit(granter).id), "take the Opportunity only")
                }
                Trigger::MoveEnded { mover } => (format!("{who}: {} ended its move", s.unit(mover).id), "stay"),
                Trigger::TurnEnded { unit } => {
                    (format!("{who}: {} ended its turn next to you", s.unit(unit).id), "let it be")
                }
                Trigger::SaveFailed { unit, status } => {
                    (format!("{who}: {} failed its save against {}", s.unit(unit).id, status.kind), "let it fail")
                }
                Trigger::Punish { granter } => {
                    (format!("{who}: {}, Marked by you, granted you an Opportunity", s.unit(granter).id), "let it be")
                }
                Trigger::WasHit { attacker } => (format!("{who}: {} hit you", s.unit(attacker).id), "let it be"),
                Trigger::TookDamage { .. } => (format!("{who}: you took damage"), "let it be"),
            };
            let costly = match trigger {
                Trigger::Opportunity { granter, .. } => {
                    crate::rules::opportunity::may_take(s, owner, granter)
                        && crate::rules::creeps::would_join(s, owner, granter)
                }
                _ => false,
            };
            if !opts.is_empty() || costly {
                opts.push(DecisionOption::new("no", no));
            }
            if costly {
                opts.push(DecisionOption::new("pass", "let it pass (taking it puts you on its group's Enemies List)"));
            }
            let kind = if trigger.interrupt() { "interrupt" } else { "reaction" };
            (owner, kind, prompt, opts)
        }
        TriggerFrame::Surprise { owner, target } => {
            let mut opts: Vec<DecisionOption> = s
                .held_orbs(target)
                .map(|o| {
                    let id = &s.orbs[o as usize].id;
                    DecisionOption::new(format!("drop:{id}"), format!("{} drops orb {id}", s.unit(target).id))
                })
                .collect();
            if !opts.is_empty() {
                opts.push(DecisionOption::new(
                    "disarm",
                    format!("{} is Disarmed until its turn ends", s.unit(target).id),
                ));
            }
            (
                owner,
                "surprise",
                format!("{}: Salorn's Patient Surprise hit — what does the enemy lose?", s.unit(owner).id),
                opts,
            )
        }
        TriggerFrame::Resume { unit, .. } => (unit, "resume", String::new(), Vec::new()),
        TriggerFrame::Reposition { owner } => {
            let mut opts: Vec<DecisionOption> =
                walk_squares(s, owner).into_iter().map(|p| DecisionOption::square(p, format!("move to {p}"))).collect();
            opts.push(DecisionOption::new("stay", "stay put"));
            (owner, "square", format!("{}: Reposition — where to?", s.unit(owner).id), opts)
        }
        TriggerFrame::Pursue { owner, toward } => {
            let mut opts: Vec<DecisionOption> = pursue_squares(s, owner, toward)
                .into_iter()
                .map(|p| DecisionOption::square(p, format!("move to {p}")))
                .collect();
            opts.push(DecisionOption::new("stay", "stay put"));
            (owner, "square", format!("{}: move next to {}", s.unit(owner).id, s.unit(toward).id), opts)
        }
    }
}

/// Squares `owner` can walk to now.
fn walk_squares(s: &State, owner: UnitIdx) -> Vec<Pos> {
    if s.has(owner, StatusKind::Immobilized) || s.has(owner, StatusKind::Prone) {
        return Vec::new();
    }
    crate::rules::movement::destinations(s, owner, crate::rules::movement::Mode::Walk)
}

/// Squares next to `toward` that `owner` can walk to now.
fn pursue_squares(s: &State, owner: UnitIdx, toward: UnitIdx) -> Vec<Pos> {
    if s.has(owner, StatusKind::Immobilized) || s.has(owner, StatusKind::Prone) {
        return Vec::new();
    }
    let (tp, ts) = (s.unit(toward).pos.unwrap(), s.unit(toward).size);
    let size = s.unit(owner).size;
    crate::rules::movement::destinations(s, owner, crate::rules::movement::Mode::Walk)
        .into_iter()
        .filter(|&p| fray_core::geometry::distance(p, size, tp, ts) == 1)
        .collect()
}

/// The topmost frame index in the flow that is `u`'s move or attack.
fn interrupted(s: &State, u: UnitIdx) -> Option<usize> {
    s.flow.iter().rposition(|f| match f {
        Frame::Move(m) => m.unit == u,
        Frame::Attack(a) => a.attacker == u,
        _ => false,
    })
}

/// Answers a trigger decision.
pub fn answer(cx: &mut Ctx, f: TriggerFrame, option: &str) -> Result<(), RuleError> {
    match f {
        TriggerFrame::Offer { owner, trigger } => {
            if option == "pass" {
                if let Trigger::Opportunity { granter, .. } = trigger {
                    let text = format!("{} lets {}'s Opportunity pass", cx.s.unit(owner).id, cx.s.unit(granter).id);
                    cx.emit(crate::engine::events::Event::Note { text });
                }
                return Ok(());
            }
            if option == "no" {
                match trigger {
                    Trigger::Opportunity { granter, why }
                        if crate::rules::opportunity::may_take(cx.s, owner, granter) =>
                    {
                        take(cx, owner, granter, why)
                    }
                    Trigger::SaveFailed { unit, status } => crate::rules::turn::settle_save(cx, unit, status, false),
                    _ => {}
                }
                return Ok(());
            }
            if FEATURES.contains(&option) {
                return use_feature(cx, owner, trigger, option);
            }
            if let Trigger::TookDamage { unit } = trigger
                && let Some(p) = crate::rules::query::reaction_elixirs(cx.s, unit)
                    .into_iter()
                    .find(|&p| cx.s.powers.get(p).id == option)
            {
                return (crate::engine::hooks::brews(cx.s).drink_power)(cx, unit, p); // Phoenix Elixir
            }
            let (id, arg) = option.split_once(':').map_or((option, None), |(a, b)| (a, Some(b)));
            let find = |id: &str| cx.s.powers.find(id).ok_or_else(|| RuleError::malformed(format!("no power {id:?}")));
            let p = find(id)?;
            let arg = arg.map(find).transpose()?;
            use_triggered(cx, owner, trigger, p, arg)
        }
        TriggerFrame::Surprise { target, .. } => {
            if let Some(id) = option.strip_prefix("drop:") {
                let o = cx.s.find_orb(id).ok_or_else(|| RuleError::malformed(format!("no orb {id:?}")))?;
                if (crate::engine::hooks::specialists(cx.s).keeps_hold)(cx, target)? {
                    return Ok(()); // a Runner's save
                }
                let at = cx.s.unit(target).pos.unwrap();
                crate::rules::orbs::drop(cx, target, o, at);
            } else {
                disarm_for_turn(cx, target);
            }
            Ok(())
        }
        TriggerFrame::Resume { .. } => Err(RuleError::malformed("nothing to answer")),
        TriggerFrame::Reposition { owner } => {
            if option == "stay" {
                return Ok(());
            }
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stay"))?;
            let path =
                crate::rules::movement::route_to(cx.s, owner, q, crate::rules::movement::Mode::Walk).unwrap_or(vec![q]);
            cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(owner, path, How::Walk)));
            Ok(())
        }
        TriggerFrame::Pursue { owner, .. } => {
            if option == "stay" {
                return Ok(());
            }
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stay"))?;
            let path =
                crate::rules::movement::route_to(cx.s, owner, q, crate::rules::movement::Mode::Walk).unwrap_or(vec![q]);
            cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(owner, path, How::Walk)));
            Ok(())
        }
    }
}

fn use_triggered(cx: &mut Ctx, owner: UnitIdx, trigger: Trigger, p: u16, arg: Option<u16>) -> Result<(), RuleError> {
    let def = cx.s.powers.get(p).clone();
    let about = match trigger {
        Trigger::WouldBeHit { attacker } | Trigger::Attacking { attacker } => attacker,
        Trigger::Moving { mover } | Trigger::MoveEnded { mover } => mover,
        Trigger::Opportunity { granter, .. } | Trigger::Punish { granter } => granter,
        Trigger::TurnEnded { unit } | Trigger::SaveFailed { unit, .. } => unit,
        Trigger::WasHit { attacker } => attacker,
        Trigger::TookDamage { unit } => unit,
    };
    cx.emit(Event::PowerUsed { unit: cx.s.who(owner), power: def.name.clone(), targets: vec![cx.s.who(about)] });
    if def.frequency == Frequency::Encounter && !def.hook.as_deref().is_some_and(|h| h.starts_with("patient")) {
        cx.emit(Event::EncounterSpent { unit: cx.s.who(owner), power: p, name: def.name.clone() });
    }
    match def.hook.as_deref() {
        Some("contingency-jump") => {
            if let Some(Frame::Attack(a)) = interrupted(cx.s, about).map(|i| &mut cx.s.flow[i]) {
                a.evaded = true;
            }
            cx.push(Frame::TeleportSelf { unit: owner, range: 2 });
        }
        Some(h @ ("patient-shot" | "patient-surprise" | "patient-porcupine" | "patient-gaze" | "target-lock")) => {
            let record = cx.s.unit(owner).armed.iter().find(|a| a.power == p).cloned().expect("offered");
            if h == "patient-porcupine" {
                cx.emit(Event::TriggerUsed { unit: cx.s.who(owner), power: p, against: cx.s.who(about) });
            } else {
                cx.emit(Event::TriggerDisarmed { unit: cx.s.who(owner), armed: record, why: "used".into() });
            }
            let basic = cx.s.powers.find("basic-implement-attack").expect("built-in");
            let with = arg.unwrap_or(basic); // Sentinel: an at-will in its place
            let mut frame = AttackFrame::new(owner, with, vec![about], cx.s.unit(owner).pos.unwrap());
            frame.granted_advantage = h == "patient-shot";
            frame.rider = matches!(h, "patient-surprise" | "patient-gaze" | "target-lock").then_some(p);
            frame.stage = Stage::Provoke;
            crate::rules::attack::begin(cx, frame)?;
        }
        Some("i-dont-think-so") => {
            let Trigger::Opportunity { why, .. } = trigger else { unreachable!("offered on Opportunities") };
            let before = cx.s.flow.len();
            crate::rules::opportunity::take(cx, owner, about, why);
            if cx.s.unit(about).on_map() {
                stop_action(cx, about);
            }
            if cx.s.flow.len() == before && has_options(cx.s, owner, Trigger::Punish { granter: about }) {
                cx.push(Frame::Trigger(TriggerFrame::Offer { owner, trigger: Trigger::Punish { granter: about } }));
            }
        }
        Some("pursue-reaction") => cx.push(Frame::Trigger(TriggerFrame::Pursue { owner, toward: about })),
        Some("punish-reaction") => {
            let a = arg.ok_or_else(|| RuleError::malformed("name the attack: <reaction>:<attack power>"))?;
            let adef = cx.s.powers.get(a).clone();
            if adef.frequency == Frequency::Encounter {
                cx.emit(Event::EncounterSpent { unit: cx.s.who(owner), power: a, name: adef.name.clone() });
            }
            let mut frame = AttackFrame::new(owner, a, vec![about], cx.s.unit(owner).pos.unwrap());
            frame.effect_only = true;
            crate::rules::attack::begin(cx, frame)?;
        }
        Some("keep-walking") => {
            let Trigger::SaveFailed { unit, status } = trigger else { unreachable!("offered on failed saves") };
            let success = crate::rules::turn::saving_throw(cx, unit, &format!("{} (rolled again)", status.kind))?;
            crate::rules::turn::settle_save(cx, unit, status, success);
        }
        Some("push-reaction") => {
            let effect = def.effect.clone();
            crate::rules::attack::apply_effects(cx, owner, about, p, &effect)?;
        }
        Some("kill-switch") => (crate::engine::hooks::brews(cx.s).kill_switch)(cx, owner, p)?,
        other => return Err(RuleError::malformed(format!("{other:?} is not a triggered power"))),
    }
    Ok(())
}

/// Uses a Wandslinger level-5 feature; it is not ready again until `owner`'s next turn is over.
fn use_feature(cx: &mut Ctx, owner: UnitIdx, trigger: Trigger, id: &str) -> Result<(), RuleError> {
    let (Trigger::WouldBeHit { attacker } | Trigger::WasHit { attacker }) = trigger else {
        return Err(RuleError::malformed(format!("{id} answers being hit")));
    };
    let name = feature_name(id);
    cx.emit(Event::PowerUsed { unit: cx.s.who(owner), power: name.into(), targets: vec![cx.s.who(attacker)] });
    let until = Duration::EndOfTurn { unit: owner, turn: cx.s.unit(owner).turns_started + 1 };
    cx.emit(Event::FeatureCooldown { unit: cx.s.who(owner), feature: id.into(), until: Some(until) });
    let basic = cx.s.powers.find("basic-implement-attack").expect("built-in");
    match id {
        "revenge-fire" => {
            let mut frame = AttackFrame::new(owner, basic, vec![attacker], cx.s.unit(owner).pos.unwrap());
            frame.no_boost = true;
            crate::rules::attack::begin(cx, frame)?;
        }
        "defensive-fire" => {
            let value = crate::rules::attack::lone_roll(cx, owner, attacker, basic)?;
            if crate::engine::events::Hit::from_roll(value) == crate::engine::events::Hit::Miss {
                return Ok(());
            }
            let Some(i) = interrupted(cx.s, attacker) else { return Ok(()) };
            let Frame::Attack(a) = &cx.s.flow[i] else { return Ok(()) };
            let (power, Stage::Interrupted { value: old }) = (a.power, a.stage) else { return Ok(()) };
            let again = crate::rules::attack::lone_roll(cx, attacker, owner, power)?;
            let worse = old.min(again);
            cx.emit(Event::Note {
                text: format!("{} rolls its attack again and keeps the worse result: {worse}", cx.s.unit(attacker).id),
            });
            if let Frame::Attack(a) = &mut cx.s.flow[i] {
                a.stage = Stage::Interrupted { value: worse };
            }
        }
        _ => {
            cx.push(Frame::Trigger(TriggerFrame::Reposition { owner }));
            if cx.s.distance(owner, attacker) == Some(1) {
                let push = crate::rules::forced::ForcedFrame::new(
                    cx.s,
                    owner,
                    attacker,
                    crate::rules::forced::ForcedKind::Push,
                    1,
                );
                cx.push(Frame::Forced(push));
            }
        }
    }
    Ok(())
}

/// I Don't Think So: `u` loses the action that granted the Opportunity — a move stops where it
/// is (a Charge loses its strike too), an attack is not resolved.
fn stop_action(cx: &mut Ctx, u: UnitIdx) {
    let Some(i) = interrupted(cx.s, u) else { return };
    let who = cx.s.unit(u).id.clone();
    match &mut cx.s.flow[i] {
        Frame::Move(m) => {
            m.path.truncate(m.next);
            let charge = m.how == How::Charge;
            cx.emit(Event::Note { text: format!("{who}'s move stops here") });
            if charge
                && let Some(j) = cx.s.flow[..i].iter().rposition(|f| matches!(f, Frame::Attack(a) if a.attacker == u))
            {
                cx.s.flow.remove(j);
                cx.emit(Event::Note { text: format!("{who}'s Charge is lost: no strike") });
            }
        }
        Frame::Attack(_) => {
            cx.s.flow.remove(i);
            cx.emit(Event::Note { text: format!("{who}'s attack is lost: it is not resolved") });
        }
        _ => {}
    }
}

/// Disarmed until the end of `target`'s turn: this one if it is its turn, else its next.
fn disarm_for_turn(cx: &mut Ctx, target: UnitIdx) {
    let t = cx.s.unit(target).turns_started + u32::from(cx.s.current() != Some(target));
    let status = Status::simple(StatusKind::Disarmed, Duration::EndOfTurn { unit: target, turn: t });
    crate::rules::statuses::give::give_status(cx, target, status, "Salorn's Patient Surprise");
}

/// A Patient power's rider on its interrupting attack's hit.
pub fn rider(cx: &mut Ctx, user: UnitIdx, target: UnitIdx, power: u16) {
    if !cx.s.unit(target).on_map() {
        return;
    }
    match hook(cx.s, power) {
        Some("patient-surprise") => {
            if cx.s.held_orbs(target).next().is_some() {
                cx.push(Frame::Trigger(TriggerFrame::Surprise { owner: user, target }));
            } else {
                disarm_for_turn(cx, target);
            }
        }
        Some(h @ ("patient-gaze" | "target-lock")) => {
            let who = cx.s.unit(target).id.clone();
            let name = if h == "target-lock" { "Target Lock" } else { "Patient Gaze" };
            let half = (cx.s.unit(target).speed / 2).max(0) as u32;
            let Some(i) = interrupted(cx.s, target) else { return };
            match &mut cx.s.flow[i] {
                Frame::Attack(a) => {
                    a.disadvantage = true;
                    cx.emit(Event::Note { text: format!("{who} makes this attack at Disadvantage ({name})") });
                }
                Frame::Move(m) => {
                    m.limit = Some(m.limit.map_or(half, |l| l.min(half)));
                    cx.emit(Event::Note { text: format!("{who} is Slowed for the rest of this move (Patient Gaze)") });
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The armed records of `u` for the view: power id, target, how long.
pub fn view(s: &State, u: UnitIdx) -> serde_json::Value {
    serde_json::Value::Array(
        s.unit(u)
            .armed
            .iter()
            .map(|a| {
                serde_json::json!({
                    "power": s.powers.get(a.power).id,
                    "target": a.target.map(|t| s.unit(t).id.to_string()),
                    "until": describe_duration(s, &a.duration),
                    "used_on": a.used_on.iter().map(|&t| s.unit(t).id.to_string()).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// The triggered powers' hooks (their use as a decision's answer), and their offer when a
/// creature is hit.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets));
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 80, "K-ACT-7", end_of_turn);
    r.on_turn(crate::engine::hooks::Trigger::TurnEnded, 50, "K-ACT-7", turn_ended);
    r.on_hit(10, "K-ACT-7", |cx, h| {
        was_hit(cx, h.attacker, h.target, h.below);
        Ok(())
    });
    r.triggered(crate::engine::hooks::Triggered {
        check_use,
        opportunity,
        retribution,
        attacking,
        would_be_hit,
        rider,
        resist_reaction,
        took_damage,
        moving,
        move_ended,
        start_of_turn,
        save_failed,
    });
}
