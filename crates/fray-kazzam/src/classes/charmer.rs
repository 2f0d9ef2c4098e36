//! Charms (Charmer, L1531-1650; K-ROLL-8, K-MISS-7, K-ROLE-4): boons cast on yourself or an ally
//! within implement range and settled by a Charm Roll, a pseudo-attack roll read on the attack
//! table: 6 applies Effect 2 and Effect 1 doubled, 4-5 both effects, 3 one of them (the
//! Charmer's choice), 2 a miss and a Miss Token, 1 a miss, a Miss Token and a Strike. Implement
//! riders: a sword may also put Effect 2 on its wielder, a staff may split the two effects
//! between two targets on a 4 or better, a wand reads a 2 as a 5. An ally missing an attack
//! while charmed earns the Charmer a Miss Token.

use crate::classes::features::Feature;
pub use crate::content::powers::CharmDef;
use crate::content::powers::{Effect, PowerDef};
use crate::engine::events::{Event, Hit};
pub use crate::engine::frames::classes::CharmFrame;
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{Implement, State, UnitIdx};
pub use crate::rules::query::passed_through;
use crate::rules::statuses::Duration;
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

/// Statuses of `u` that Status Exchange may move onto `to`: not Grabbed (it is held where it
/// stands), nor one whose source is `to` itself.
fn movable(s: &State, u: UnitIdx, to: UnitIdx) -> Vec<usize> {
    s.unit(u)
        .statuses
        .iter()
        .enumerate()
        .filter(|(_, st)| st.kind != crate::rules::statuses::StatusKind::Grabbed && st.source != Some(to))
        .map(|(i, _)| i)
        .collect()
}

fn status_options(s: &State, u: UnitIdx, to: UnitIdx) -> Vec<DecisionOption> {
    let mut out: Vec<DecisionOption> = movable(s, u, to)
        .into_iter()
        .map(|i| {
            let st = &s.unit(u).statuses[i];
            DecisionOption::new(
                (i + 1).to_string(),
                format!("move {} from {} to {}", st.kind, s.unit(u).id, s.unit(to).id),
            )
        })
        .collect();
    out.push(DecisionOption::new("none", "move nothing this way"));
    out
}

/// Moves status `i` of `from` onto `to`, as it stands (its source, number and duration).
fn move_status(cx: &mut Ctx, from: UnitIdx, to: UnitIdx, st: crate::rules::statuses::Status, power: u16) {
    use crate::rules::statuses::StatusKind;
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::StatusEnded { unit: cx.s.who(from), status: st, why: format!("moved to {}", cx.s.unit(to).id) });
    if st.kind == StatusKind::Flying && !cx.s.has(from, StatusKind::Flying) {
        crate::rules::movement::settle_on_legal_square(cx, from, "lands as its Flying is taken away");
    }
    if cx.s.unit(to).on_map() {
        crate::rules::statuses::give::give_status(cx, to, st, &name);
    }
}

/// Status Exchange's Effect: the Charmer picks itself or an ally (the target excepted).
pub fn exchange(cx: &mut Ctx, user: UnitIdx, target: UnitIdx, power: u16) {
    if !exchange_partners(cx.s, user, target).is_empty() {
        cx.push(Frame::Charm(CharmFrame::Exchange { user, target, power, other: None, give: None }));
    }
}

fn exchange_partners(s: &State, user: UnitIdx, target: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map().filter(|&o| o != target && (o == user || !s.enemies(user, o))).collect()
}

fn charm(s: &State, power: u16) -> &CharmDef {
    s.powers.get(power).charm.as_ref().expect("a charm")
}

/// A wand reads a natural 2 on a Charm Roll as a 5 (L1542).
pub fn wand_reading(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, def: &PowerDef, natural: i32) -> i32 {
    if def.charm.is_some() && natural == 2 && cx.s.unit(attacker).implement == Implement::Wand {
        cx.emit(Event::RollAdjusted {
            target: cx.s.who(target),
            from: 2,
            to: 5,
            why: "a wand's Charm Roll reads a 2 as a 5".into(),
        });
        return 5;
    }
    natural
}

/// Who else may receive Effect 2 when a staff splits a charm: the Charmer or an ally in range.
fn split_receivers(s: &State, user: UnitIdx, target: UnitIdx, power: u16) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| t != target && crate::rules::actions::check_target(s, user, power, t, false).is_ok())
        .collect()
}

/// A Charm Roll that hit: applies the effects the table gives, or asks.
pub fn resolve(cx: &mut Ctx, user: UnitIdx, target: UnitIdx, power: u16, hit: Hit) -> Result<(), RuleError> {
    let c = charm(cx.s, power).clone();
    match hit {
        Hit::Glancing => cx.push(Frame::Charm(CharmFrame::Pick { user, target, power })),
        Hit::Solid | Hit::Critical => {
            let one = if hit == Hit::Critical { &c.doubled } else { &c.effect_1 };
            if hit == Hit::Critical {
                cx.emit(Event::Note { text: "Charm Roll 6: Effect 2 and Effect 1 doubled".into() });
            }
            let one = lasting_line(cx.s, user, target, one, false); // Lasting
            crate::rules::attack::apply_effects(cx, user, target, power, &one)?;
            if cx.s.unit(user).implement == Implement::Staff && !split_receivers(cx.s, user, target, power).is_empty() {
                cx.push(Frame::Charm(CharmFrame::Split { user, target, power }));
            } else {
                effect_two(cx, user, target, power)?;
            }
        }
        Hit::Miss => {}
    }
    Ok(())
}

/// Effect 2 on `target`, and the sword's offer to share it.
fn effect_two(cx: &mut Ctx, user: UnitIdx, target: UnitIdx, power: u16) -> Result<(), RuleError> {
    let two = lasting_line(cx.s, user, target, &charm(cx.s, power).effect_2, true); // Lasting
    if cx.s.unit(user).implement == Implement::Sword && target != user {
        cx.push(Frame::Charm(CharmFrame::SwordSelf { user, power }));
    }
    crate::rules::attack::apply_effects(cx, user, target, power, &two)
}

/// The unit that answers a charm decision, the question, and its options.
pub fn question(s: &State, f: &CharmFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        CharmFrame::Pick { user, power, .. } => (
            user,
            "effect",
            format!("{}: {} — Charm Roll 3, choose one effect", s.unit(user).id, s.powers.get(power).name),
            vec![DecisionOption::new("1", "Effect 1"), DecisionOption::new("2", "Effect 2")],
        ),
        CharmFrame::Split { user, target, power } => {
            let mut opts = vec![DecisionOption::new(
                s.unit(target).id.to_string(),
                format!("Effect 2 on {} too", s.unit(target).id),
            )];
            opts.extend(
                split_receivers(s, user, target, power)
                    .into_iter()
                    .map(|t| DecisionOption::new(s.unit(t).id.to_string(), format!("Effect 2 on {}", s.unit(t).id))),
            );
            (user, "target", format!("{}: staff — who receives Effect 2?", s.unit(user).id), opts)
        }
        CharmFrame::Exchange { user, target, other, give, .. } => {
            let who = s.unit(user).id.to_string();
            match (other, give) {
                (None, _) => (
                    user,
                    "target",
                    format!("{who}: Status Exchange — trade statuses with yourself or which ally?"),
                    exchange_partners(s, user, target)
                        .into_iter()
                        .map(|o| DecisionOption::new(s.unit(o).id.to_string(), format!("trade with {}", s.unit(o).id)))
                        .collect(),
                ),
                (Some(o), None) => (
                    user,
                    "status",
                    format!("{who}: which of {}'s statuses goes to {}?", s.unit(target).id, s.unit(o).id),
                    status_options(s, target, o),
                ),
                (Some(o), Some(_)) => (
                    user,
                    "status",
                    format!("{who}: which of {}'s statuses goes to {}?", s.unit(o).id, s.unit(target).id),
                    status_options(s, o, target),
                ),
            }
        }
        CharmFrame::Grow { user, target } => (
            user,
            "square",
            format!("{}: Enlarging Charm — which 2x2 footprint does {} fill?", s.unit(user).id, s.unit(target).id),
            grow_options(s, target),
        ),
        CharmFrame::SwordSelf { user, .. } => (
            user,
            "effect",
            format!("{}: sword — apply Effect 2 to yourself as well?", s.unit(user).id),
            vec![DecisionOption::new("1", "yes, on yourself too"), DecisionOption::new("2", "no")],
        ),
    }
}

/// Answers a charm decision (the option was checked against [`question`]).
pub fn answer(cx: &mut Ctx, f: CharmFrame, option: &str) -> Result<(), RuleError> {
    match f {
        CharmFrame::Pick { user, target, power } => {
            cx.emit(Event::Note { text: format!("{} chooses Effect {option}", cx.s.unit(user).id) });
            if option == "1" {
                let one = lasting_line(cx.s, user, target, &charm(cx.s, power).effect_1, false);
                crate::rules::attack::apply_effects(cx, user, target, power, &one)
            } else {
                effect_two(cx, user, target, power)
            }
        }
        CharmFrame::Split { user, power, .. } => {
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            effect_two(cx, user, t, power)
        }
        CharmFrame::Exchange { user, target, power, other: None, .. } => {
            let o = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            cx.push(Frame::Charm(CharmFrame::Exchange { user, target, power, other: Some(o), give: None }));
            Ok(())
        }
        CharmFrame::Exchange { user, target, power, other: Some(o), give: None } => {
            let give = option.parse::<usize>().ok().map(|i| i - 1);
            cx.push(Frame::Charm(CharmFrame::Exchange { user, target, power, other: Some(o), give: Some(give) }));
            Ok(())
        }
        CharmFrame::Exchange { target, power, other: Some(o), give: Some(give), .. } => {
            // Both choices are made before either status moves.
            let there = give.map(|i| cx.s.unit(target).statuses[i]);
            let back = option.parse::<usize>().ok().map(|i| cx.s.unit(o).statuses[i - 1]);
            if let Some(st) = there {
                move_status(cx, target, o, st, power);
            }
            if let Some(st) = back
                && cx.s.unit(o).statuses.contains(&st)
            {
                move_status(cx, o, target, st, power);
            }
            Ok(())
        }
        CharmFrame::Grow { target, .. } if option == "stay" => {
            cx.emit(Event::Note {
                text: format!("{} has no room left to grow and stays as it is", cx.s.unit(target).id),
            });
            Ok(())
        }
        CharmFrame::Grow { target, .. } => {
            let p = grow_spots(cx.s, target)
                .into_iter()
                .find(|p| p.key() == option)
                .ok_or_else(|| RuleError::malformed(format!("no footprint {option:?}")))?;
            grow(cx, target, p);
            Ok(())
        }
        CharmFrame::SwordSelf { user, power } => {
            if option == "1" {
                let two = charm(cx.s, power).effect_2.clone();
                crate::rules::attack::apply_effects(cx, user, user, power, &two)?;
            }
            Ok(())
        }
    }
}

/// Whether `ally` is under one of `charmer`'s charms: it carries a status or a modifier that
/// one of them laid.
pub fn charmed_by(s: &State, ally: UnitIdx, charmer: UnitIdx) -> bool {
    let is_charm = |p: u16| s.powers.get(p).charm.is_some();
    s.unit(ally).statuses.iter().any(|st| st.source == Some(charmer) && st.origin.is_some_and(is_charm))
        || s.modifiers.iter().any(|m| {
            m.source == charmer
                && is_charm(m.power)
                && (m.attackers == crate::rules::modifiers::Attackers::Unit(ally) || m.against == Some(ally))
        })
}

/// K-MISS-7: an ally that misses while charmed earns each of its Charmers a Miss Token.
pub fn ally_missed(cx: &mut Ctx, attacker: UnitIdx) {
    let charmers: Vec<UnitIdx> = cx
        .s
        .unit_indices()
        .filter(|&c| c != attacker && cx.s.unit(c).pc && !cx.s.enemies(c, attacker) && charmed_by(cx.s, attacker, c))
        .collect();
    for c in charmers {
        let total = cx.s.unit(c).miss_tokens + 1;
        cx.emit(Event::Note {
            text: format!("{} missed while charmed by {}", cx.s.unit(attacker).id, cx.s.unit(c).id),
        });
        cx.emit(Event::MissToken { unit: cx.s.who(c), total });
    }
}

/// Who may next spend a Luck Token on the roll of `attacker` against `target` (Luck Charm):
/// the attacker on its own roll, then the target if the attacker is its enemy; `after` is the
/// one just asked.
pub fn luck_chooser(s: &State, attacker: UnitIdx, target: UnitIdx, after: Option<UnitIdx>) -> Option<UnitIdx> {
    let has = |u: UnitIdx| s.unit(u).charmed.luck_tokens > 0 && s.unit(u).on_map();
    let first = (after.is_none() && has(attacker)).then_some(attacker);
    let second =
        (after != Some(target) && target != attacker && s.enemies(attacker, target) && has(target)).then_some(target);
    first.or(second)
}

/// Luck Charm's Effect 1: the target gains Luck Tokens.
pub fn gain_luck(cx: &mut Ctx, target: UnitIdx, n: i32) {
    let total = cx.s.unit(target).charmed.luck_tokens + n;
    cx.emit(Event::LuckTokens { unit: cx.s.who(target), total, why: "Luck Charm".into() });
}

/// Luck Charm's Effect 2: every saving throw `unit` makes now succeeds.
pub fn saves_succeed(s: &State, unit: UnitIdx) -> bool {
    s.modifiers
        .iter()
        .any(|m| m.kind == crate::rules::modifiers::ModifierKind::SavesSucceed && m.applies(s, unit, unit))
}

/// Wild Rage: the target saves (automatically succeeding with no ally within 5); success leaves
/// it Frenzied by its nearest enemy for its next turn, failure by its nearest ally. Ties go to
/// the first of them in the match's list of creatures (see rulings).
pub fn wild_rage(cx: &mut Ctx, target: UnitIdx, power: u16) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    let nearest = |s: &State, enemy: bool, within: i32| {
        s.units_on_map()
            .filter(|&o| o != target && s.enemies(target, o) == enemy)
            .filter_map(|o| s.distance(target, o).filter(|&d| d <= within).map(|d| (d, o)))
            .min()
            .map(|(_, o)| o)
    };
    let success = if nearest(cx.s, false, 5).is_none() {
        cx.emit(Event::Note { text: format!("{} has no ally within 5: its save succeeds", cx.s.unit(target).id) });
        true
    } else {
        crate::rules::turn::saving_throw(cx, target, &name)?
    };
    if let Some(source) = nearest(cx.s, success, i32::MAX) {
        let status = crate::rules::statuses::Status {
            kind: crate::rules::statuses::StatusKind::Frenzied,
            amount: 0,
            source: Some(source),
            origin: Some(power),
            duration: crate::rules::query::duration_for(cx.s, source, target, None),
        };
        crate::rules::statuses::give::give_status(cx, target, status, &name);
    }
    Ok(())
}

/// Forced Flight's id: Flying its target cannot end by choice.
const FORCED_FLIGHT: &str = "charmer-forced-flight";

/// Whether a status is Forced Flight's Flying.
pub fn forced_flight(s: &State, st: &crate::rules::statuses::Status) -> bool {
    st.kind == crate::rules::statuses::StatusKind::Flying
        && st.origin.is_some_and(|p| s.powers.get(p).id == FORCED_FLIGHT)
}

/// As `unit`'s turn number `turn` ends: whether Forced Flight's Flying runs out now with its
/// Attack Action unspent (the Charmer who cast it, for the landing attack).
pub fn forced_landing(s: &State, unit: UnitIdx, turn: u32) -> Option<UnitIdx> {
    let un = s.unit(unit);
    if !un.on_map() || un.actions.attack {
        return None;
    }
    un.statuses
        .iter()
        .find(|st| {
            forced_flight(s, st)
                && matches!(st.duration, crate::rules::statuses::Duration::EndOfTurn { unit: w, turn: t } if w == unit && t <= turn)
        })
        .map(|st| st.source.unwrap_or(unit))
}

/// Forced Flight (L1562): coming down, the target may make a Basic Physical Attack against an
/// adjacent enemy.
pub fn landing_attack(cx: &mut Ctx, unit: UnitIdx, by: UnitIdx) {
    if !cx.s.unit(unit).on_map() || !crate::rules::summons::takes_actions(cx.s.unit(unit)) {
        return;
    }
    let terms = crate::content::powers::GrantDef {
        no_role_boost: false,
        power: Some("basic-physical-attack".into()),
        same_target: false,
        granter_aims: false,
        enemies_only: true,
    };
    cx.push(Frame::GrantedAttack { unit, by, power_target: unit, terms });
}

/// Whether `u` cannot be Taken Out now (Ugnatio's Preservation Charm, Effect 2).
pub fn undying(s: &State, u: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| m.kind == crate::rules::modifiers::ModifierKind::Undying && m.applies(s, u, u))
}

/// As `unit`'s turn ends, after its modifiers ran out: at 0 HP or less and no longer kept up, it
/// is Taken Out now (nobody is credited, see rulings).
pub fn undying_ends(cx: &mut Ctx, unit: UnitIdx) {
    let u = cx.s.unit(unit);
    if u.on_map() && u.placed.is_none() && u.hp <= 0 && !undying(cx.s, unit) {
        cx.emit(Event::Note { text: format!("{}'s preservation runs out at {} HP", u.id, u.hp) });
        crate::rules::damage::take_out(cx, unit, None);
    }
}

// ------------------------------------------------------------------ Lasting (L1554, L1650)

/// Lasting: a charm's Effect line as it lands on an ally of a Charmer with the feature — its
/// statuses and modifiers last (save sustains) instead of their printed time; Effect 1 too from
/// level 5. Anything else in the line (Luck Tokens, a curse, Assault Charm's one-turn riders) is
/// as printed.
fn lasting_line(s: &State, user: UnitIdx, target: UnitIdx, line: &[Effect], two: bool) -> Vec<Effect> {
    let lasting = s.has_feature(user, Feature::Lasting)
        && target != user
        && !s.enemies(user, target)
        && (two || s.unit(user).level >= 5);
    let mut line = line.to_vec();
    if lasting {
        for e in &mut line {
            if e.status.is_some() {
                e.until = Some(crate::rules::statuses::Until::SaveSustains);
            }
            // A modifier bound to the ally's next turn or first attack has no time to sustain.
            if let Some(m) = e.modifier.as_mut().filter(|m| m.during.is_none() && !m.first) {
                m.until = Some(crate::rules::statuses::Until::SaveSustains);
            }
        }
    }
    line
}

/// Whether status `st` was laid by a Lasting charm: (save sustains), from a charm whose maker
/// has Lasting. These are saved for by [`lasting_saves`], one save per charm.
pub fn lasting_status(s: &State, st: &crate::rules::statuses::Status) -> bool {
    st.duration == Duration::SaveSustains
        && st.origin.is_some_and(|p| s.powers.get(p).charm.is_some())
        && st.source.is_some_and(|c| s.has_feature(c, Feature::Lasting))
}

/// Whether modifier `m` was laid on `unit` by a Lasting charm.
fn lasting_modifier(s: &State, unit: UnitIdx, m: &crate::rules::modifiers::Modifier) -> bool {
    m.duration == Duration::SaveSustains
        && s.powers.get(m.power).charm.is_some()
        && s.has_feature(m.source, Feature::Lasting)
        && (m.attackers == crate::rules::modifiers::Attackers::Unit(unit) || m.against == Some(unit))
}

/// Which part of a charm one Lasting save keeps: 0, the whole charm (the class's level 5, one
/// roll per charm, L1650); else the Effect line, 1 or 2, for a rival Charmer of level 5, whose
/// stat block makes Effect 1 (save sustains) as well without that one roll (Greta Hughes's
/// Lasting Charms, L2895): each line is kept on a save of its own.
fn lasting_part(s: &State, maker: UnitIdx, in_effect_2: bool) -> u8 {
    if s.unit(maker).pc || s.unit(maker).level < 5 {
        0
    } else if in_effect_2 {
        2
    } else {
        1
    }
}

/// The part (see [`lasting_part`]) a sustained status of `power`'s charm belongs to.
fn status_part(s: &State, maker: UnitIdx, power: u16, kind: crate::rules::statuses::StatusKind) -> u8 {
    let two = charm(s, power)
        .effect_2
        .iter()
        .any(|e| e.status.as_deref().and_then(crate::rules::statuses::StatusKind::parse) == Some(kind));
    lasting_part(s, maker, two)
}

/// The part (see [`lasting_part`]) a sustained modifier belongs to.
fn modifier_part(s: &State, m: &crate::rules::modifiers::Modifier) -> u8 {
    let two = charm(s, m.power).effect_2.iter().any(|e| e.modifier.as_ref().is_some_and(|d| d.kind == m.kind));
    lasting_part(s, m.source, two)
}

/// Saving Throw Phase: one save for each charm whose effects `unit` keeps through Lasting (one
/// for each of its Effect lines from a rival's Lasting Charms, [`lasting_part`]); a failure (or
/// a save it chose to fail, K-SAVE-2, against one of its statuses) ends all it kept up on it
/// (K-TURN-3).
pub fn lasting_saves(
    cx: &mut Ctx,
    unit: UnitIdx,
    fail: &[crate::rules::statuses::StatusKind],
) -> Result<(), RuleError> {
    let mut charms: Vec<(UnitIdx, u16, u8)> = Vec::new();
    for st in cx.s.unit(unit).statuses.iter().filter(|st| lasting_status(cx.s, st)) {
        let (maker, power) = (st.source.unwrap(), st.origin.unwrap());
        charms.push((maker, power, status_part(cx.s, maker, power, st.kind)));
    }
    for m in cx.s.modifiers.iter().filter(|m| lasting_modifier(cx.s, unit, m)) {
        charms.push((m.source, m.power, modifier_part(cx.s, m)));
    }
    let mut seen = Vec::new();
    for (maker, power, part) in charms {
        if seen.contains(&(maker, power, part)) {
            continue;
        }
        seen.push((maker, power, part));
        let mine = |st: &crate::rules::statuses::Status| {
            lasting_status(cx.s, st)
                && st.source == Some(maker)
                && st.origin == Some(power)
                && status_part(cx.s, maker, power, st.kind) == part
        };
        let statuses: Vec<crate::rules::statuses::Status> =
            cx.s.unit(unit).statuses.iter().filter(|st| mine(st)).copied().collect();
        let name = match part {
            0 => cx.s.powers.get(power).name.clone(),
            n => format!("{}, Effect {n}", cx.s.powers.get(power).name),
        };
        let kept = if statuses.iter().any(|st| fail.contains(&st.kind)) {
            cx.emit(Event::Note { text: format!("{} chooses to fail the save for {name}", cx.s.unit(unit).id) });
            false
        } else {
            crate::rules::turn::saving_throw(cx, unit, &format!("{name} (Lasting)"))?
        };
        if kept {
            continue;
        }
        for st in statuses {
            if cx.s.unit(unit).statuses.contains(&st) {
                cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "not sustained".into() });
            }
        }
        for i in (0..cx.s.modifiers.len()).rev() {
            let m = &cx.s.modifiers[i];
            if m.source == maker
                && m.power == power
                && lasting_modifier(cx.s, unit, m)
                && modifier_part(cx.s, m) == part
            {
                cx.emit(Event::ModifierEnded { index: i, why: "not sustained".into() });
            }
        }
        undying_ends(cx, unit); // Ugnatio's Preservation Charm no longer kept up
        shrink_back(cx); // Enlarging Charm no longer kept up
        if !cx.s.unit(unit).on_map() {
            break;
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ Wraith Charm (L1624)

/// `mover` has just stepped into a square under its own power: on its own turn, under a Wraith
/// Charm, every creature whose squares it now shares is recorded as passed through until the
/// turn ends.
pub fn moved_through(cx: &mut Ctx, mover: UnitIdx) {
    use crate::rules::modifiers::{Attackers, Modifier, ModifierKind};
    let s = &*cx.s;
    let Some(wraith) = s.modifiers.iter().find(|m| m.kind == ModifierKind::Wraith && m.applies(s, mover, mover)) else {
        return;
    };
    if s.current() != Some(mover) {
        return;
    }
    let power = wraith.power;
    let (p, size) = (s.unit(mover).pos.unwrap(), s.unit(mover).size);
    let under: Vec<UnitIdx> = s
        .units_on_map()
        .filter(|&o| o != mover && crate::rules::summons::occupies(s.unit(o)))
        .filter(|&o| fray_core::geometry::distance(p, size, s.unit(o).pos.unwrap(), s.unit(o).size) == 0)
        .filter(|&o| !passed_through(s, mover, o))
        .collect();
    let turn = s.unit(mover).turns_started;
    for o in under {
        let modifier = Modifier {
            kind: ModifierKind::PassedThrough,
            amount: 0,
            attackers: Attackers::Unit(mover),
            against: Some(o),
            first: false,
            during: None,
            duration: Duration::EndOfTurn { unit: mover, turn },
            source: mover,
            power,
        };
        cx.emit(Event::ModifierAdded { name: cx.s.powers.get(power).name.clone(), modifier });
    }
}

// ------------------------------------------------------------------ Takeoff Charm (L1616)

/// Effect 1: the charmed creature deals `amount` damage to every creature next to it, friend or
/// foe, credited to itself.
pub fn takeoff_blast(cx: &mut Ctx, target: UnitIdx, amount: i32, power: u16) {
    let name = cx.s.powers.get(power).name.clone();
    let around: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&o| {
                o != target && crate::rules::summons::occupies(cx.s.unit(o)) && cx.s.distance(target, o) == Some(1)
            })
            .collect();
    for o in around {
        crate::rules::damage::deal(cx, o, amount, Some(target), &name, None);
    }
}

/// Effect 2: the charmed creature takes to the air itself (so it may land when it likes, and
/// leaving its square this way grants Opportunities, K-OPP-9).
pub fn takeoff_lift(cx: &mut Ctx, target: UnitIdx, power: u16) {
    if cx.s.has(target, crate::rules::statuses::StatusKind::Flying) {
        return;
    }
    let status = crate::rules::statuses::Status {
        kind: crate::rules::statuses::StatusKind::Flying,
        amount: 0,
        source: Some(target),
        origin: Some(power),
        duration: Duration::Indefinite,
    };
    let name = cx.s.powers.get(power).name.clone();
    crate::rules::statuses::give::give_status(cx, target, status, &name);
}

/// Effect 2's lasting part: whether `u` may take off now with Takeoff Flight — under the charm,
/// not Flying, its Move Action still to come (it takes off as that Move Action begins).
fn may_take_off(s: &State, u: UnitIdx) -> bool {
    s.modifiers.iter().any(|m| m.kind == crate::rules::modifiers::ModifierKind::Takeoff && m.applies(s, u, u))
        && !s.has(u, crate::rules::statuses::StatusKind::Flying)
        && crate::rules::actions::check_slot(s, u, crate::engine::events::Slot::Move).is_ok()
}

fn is_takeoff(s: &State, power: u16) -> bool {
    s.powers.get(power).id == "takeoff-flight"
}

/// Whether `u` may use `power` without knowing it: Takeoff Flight under a Takeoff Charm.
pub fn takeoff_power(s: &State, u: UnitIdx, power: u16) -> bool {
    is_takeoff(s, power) && may_take_off(s, u)
}

/// Refuses Takeoff Flight outside a Takeoff Charm's Effect 2.
pub fn check_takeoff(s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
    if def.id == "takeoff-flight" && !may_take_off(s, u) {
        return Err(crate::engine::kit::refuse(
            "takeoff-charm",
            format_args!(
                "{} may take off only under a Takeoff Charm, on the ground, with its Move Action unused",
                s.unit(u).id
            ),
        ));
    }
    Ok(())
}

/// Takeoff Flight in the menu of a creature that does not know it.
pub fn takeoff_menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let Some(p) = crate::engine::memo::find_power(s, "takeoff-flight") else { return Vec::new() };
    if s.unit(u).powers.contains(&p)
        || crate::rules::actions::check_power_use(s, u, p, false).is_err()
        || crate::rules::control::check_power(s, u, s.powers.get(p), &[u]).is_err()
    {
        return Vec::new();
    }
    vec![DecisionOption::new("power:takeoff-flight", s.powers.get(p).name.clone())]
}

// ------------------------------------------------------------------ Enlarging Charm (L1596)

/// Effect 2's growth: a 1x1 creature on the map fills a free 2x2 footprint that holds its own
/// square (the Charmer picks when several fit); with no room, or already 2x2 or bigger, its
/// size stays and only the extra damage applies (see rulings).
pub fn enlarge(cx: &mut Ctx, user: UnitIdx, target: UnitIdx, _power: u16) {
    let u = cx.s.unit(target);
    if u.size != 1 || !u.on_map() {
        return;
    }
    let spots = grow_spots(cx.s, target);
    match spots.as_slice() {
        [] => cx.emit(Event::Note { text: format!("{} has no room to grow and stays 1x1", u.id) }),
        [p] => grow(cx, target, *p),
        _ => cx.push(Frame::Charm(CharmFrame::Grow { user, target })),
    }
}

/// The footprints offered; should the room have gone (or the creature grown) while the question
/// waited, only `stay`.
fn grow_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let out: Vec<DecisionOption> = grow_spots(s, u)
        .into_iter()
        .map(|p| DecisionOption::square(p, format!("2x2 with its top-left square at {p}")))
        .collect();
    if out.is_empty() { vec![DecisionOption::new("stay", "no room: it keeps its size")] } else { out }
}

/// The top-left squares of the 2x2 footprints holding `u`'s square where it could stand, all
/// inside or all outside the Dungeon (none unless it is 1x1 on the map).
fn grow_spots(s: &State, u: UnitIdx) -> Vec<fray_core::grid::Pos> {
    let Some(at) = s.unit(u).pos.filter(|_| s.unit(u).size == 1) else { return Vec::new() };
    [(-1, -1), (0, -1), (-1, 0), (0, 0)]
        .into_iter()
        .map(|(dx, dy)| fray_core::grid::Pos { x: at.x + dx, y: at.y + dy })
        .filter(|&p| crate::rules::movement::can_stand(s, u, p, 2))
        // Never straddling the Dungeon's edge (its exits are open squares).
        .filter(|&p| fray_core::grid::footprint(p, 2).all(|q| s.arena.in_dungeon(q) == s.arena.in_dungeon(at)))
        .collect()
}

fn grow(cx: &mut Ctx, u: UnitIdx, p: fray_core::grid::Pos) {
    cx.emit(Event::Resized { unit: cx.s.who(u), pos: Some(p), size: 2, enlarged: true, why: "grows".into() });
}

/// Back to 1x1, on the top-left square of its footprint, for every creature an Enlarging
/// Charm grew whose Effect 2 has ended (or that has left the map).
pub fn shrink_back(cx: &mut Ctx) {
    use crate::rules::modifiers::ModifierKind;
    let done: Vec<UnitIdx> =
        cx.s.unit_indices()
            .filter(|&u| cx.s.unit(u).charmed.enlarged)
            .filter(|&u| {
                !cx.s.unit(u).on_map()
                    || !cx.s.modifiers.iter().any(|m| m.kind == ModifierKind::Enlarged && m.applies(cx.s, u, u))
            })
            .collect();
    for u in done {
        let pos = cx.s.unit(u).pos;
        cx.emit(Event::Resized { unit: cx.s.who(u), pos, size: 1, enlarged: false, why: "shrinks back".into() });
    }
}

/// Effect 2's damage: `amount` more on a hit of `attacker`'s Basic Physical Attack.
pub fn enlarged_damage(s: &State, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) -> i32 {
    if def.id != "basic-physical-attack" {
        return 0;
    }
    s.modifiers
        .iter()
        .filter(|m| m.kind == crate::rules::modifiers::ModifierKind::Enlarged && m.applies(s, attacker, target))
        .map(|m| m.amount)
        .sum()
}

/// K-MISS-7 (a Charmer's ally missing on its first roll); Ugnatio's Preservation Charm at the
/// end of a turn.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.charms(crate::engine::hooks::Charms {
        lasting_saves,
        lasting_status,
        forced_landing,
        landing_attack,
        saves_succeed,
        check_takeoff,
        forced_flight,
        luck_chooser,
        wand_reading,
        resolve,
        enlarged_damage,
        moved_through,
        undying,
    });
    r.menu(50, takeoff_menu); // Takeoff Charm
    r.lends(takeoff_power);
    r.on_taken_out(20, "enlarging-charm", |cx, _, _, _| shrink_back(cx));
    r.on_turn(crate::engine::hooks::Trigger::ModifiersExpired, 10, "enlarging-charm", |cx, _| shrink_back(cx));
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 70, "preservation-charm", undying_ends);
    r.on_missed(10, "K-MISS-7", |cx, m| {
        if m.first {
            ally_missed(cx, m.attacker);
        }
        Ok(())
    });
}
