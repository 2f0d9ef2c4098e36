//! The tactics abilities: those that bend the usual order of a battle, each built on a general
//! capability of the one-question flow so other abilities can reuse it.
//!
//! - moves outside the movement actions, asked character by character ([`Pending::ExtraMove`]):
//!   Haste moves the user and each friend within Comm, Pounce moves the user with Leaping Move;
//! - a die set aside and offered before each of the side's to-hit rolls (Plan Ahead);
//! - attack chains, asked once an attack that hit is over ([`State::follow`]): Barrage's free
//!   attacks until a miss, Buck Shot's second shot;
//! - several attackers at once: Checkmate's friends pay their weapons' EC, one question each;
//! - two weapons as one (Scissor Strike) and a weapon swung along a line (Hyper Cutter);
//! - a lasting link between two characters' injuries (Pain Warp);
//! - activation cards and phases: Meteor's card joins the pool next turn, Out-Maneuver moves an
//!   enemy's card from phase 1 to phase 3 (acting out of the usual order);
//! - the attacker and defender roles (Swift Assault).
//!
//! The rulings for each are in docs/rulings/collision.md ("Tactics abilities").

use crate::abilities::{Pow, Shape, Spell};
use crate::battle::{Ability, MeteorToken, MoveKind, Pending, SIDES, Special, State, Strike};
use crate::builder::CardWeapon;
use crate::rules::{self, Cx, ability_cost, dist, effect_cost, reach, slug};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Meteor's blast (C-GL-METEOR): radius 3 on the token, Att +3, S-Pow +3, Fire, a crit Pow +4.
pub const METEOR: Spell = Spell {
    shape: Shape::Burst(3),
    crit_pow: 4,
    ..crate::abilities::spell(Ability::Meteor, 0, 3, Pow::SPow(3), "Fire")
};

/// The length of Hyper Cutter's line (C-GL-HYPER-CUTTER).
const HYPER_CUTTER_LINE: i32 = 3;

/// Whether ability `k` starts here rather than in [`crate::rules`].
pub fn owns(k: Ability) -> bool {
    matches!(k, Ability::Haste | Ability::Pounce | Ability::PlanAhead | Ability::Meteor | Ability::BuckShot)
}

/// Whom the menu's ability `k` of `u` is used on, for the abilities started here: the user
/// itself when it can be used, nobody otherwise. Buck Shot is never in the menu.
pub fn targets(s: &State, u: u8, k: Ability) -> Option<Vec<u8>> {
    if !owns(k) {
        return None;
    }
    let me = |ok: bool| if ok { vec![u] } else { Vec::new() };
    Some(match k {
        Ability::Haste => me(!haste_movers(s, u).is_empty()),
        // C-GL-FLEE: a fleeing character makes no movement of its own.
        Ability::Pounce => me(s.u(u).flee == 0),
        Ability::PlanAhead | Ability::Meteor => vec![u],
        _ => Vec::new(),
    })
}

/// Starts ability `k` of `u` from the menu.
pub fn start(cx: &mut Cx, u: u8, k: Ability) -> Result<(), RuleError> {
    let uid = cx.s.u(u).id.clone();
    match k {
        Ability::Haste => {
            let movers = haste_movers(cx.s, u);
            let (e, m) = rules::start_ability(cx, u, k);
            let ids: Vec<String> = movers.iter().map(|&x| cx.s.u(x).id.clone()).collect();
            cx.log(|| {
                format!("{uid} uses Haste for {e}E {m}M: {} may each move up to Move (C-GL-HASTE)", ids.join(", "))
            });
            cx.s.pending = Pending::ExtraMove(movers, k);
            Ok(())
        }
        Ability::Pounce => {
            let (e, m) = rules::start_ability(cx, u, k);
            cx.s.um(u).pouncing = true;
            cx.log(|| format!("{uid} pounces for {e}E {m}M: a move up to Move with Leaping Move (C-GL-POUNCE)"));
            cx.s.pending = Pending::ExtraMove(vec![u], k);
            Ok(())
        }
        Ability::PlanAhead => {
            let (e, _) = rules::start_ability(cx, u, k);
            let n = cx.d10()? as i32;
            let side = cx.s.u(u).side;
            cx.s.planned[side as usize] = Some(n);
            cx.log(|| {
                format!(
                    "{uid} plans ahead for {e}E: a {n} is set aside for {}'s characters this turn (C-GL-PLAN-AHEAD)",
                    SIDES[side as usize]
                )
            });
            rules::after_attack(cx)
        }
        Ability::Meteor => {
            cx.s.pending = Pending::MeteorSquare;
            Ok(())
        }
        _ => rules::after_attack(cx),
    }
}

// ---------------------------------------------------------------- moves outside the actions

/// Haste's movers (C-GL-HASTE): the user and each friend on the table within its Comm, in
/// table order, leaving out the fleeing (C-GL-FLEE: no movement of their own).
fn haste_movers(s: &State, u: u8) -> Vec<u8> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    let (side, comm) = (s.u(u).side, s.card(u).stats.comm);
    let mut out: Vec<u8> = std::iter::once(u)
        .chain(
            s.standing().filter(|&t| t != u && s.u(t).side == side && s.u(t).at.is_some_and(|p| dist(p, at) <= comm)),
        )
        .filter(|&t| s.u(t).flee == 0)
        .collect();
    out.dedup();
    out
}

/// Where `m` may end a move of up to its Move (Haste, Pounce): a maneuver's squares, paid
/// nothing (Pounce's Leaping Move is on while the question is open).
pub fn extra_squares(s: &State, m: u8) -> Vec<Pos> {
    rules::destinations(s, m, MoveKind::Maneuver)
}

fn extra_move(cx: &mut Cx, mut queue: Vec<u8>, k: Ability, id: &str) -> Result<(), RuleError> {
    let m = queue.remove(0);
    let mid = cx.s.u(m).id.clone();
    let rid = format!("C-GL-{}", slug(k.name()).to_uppercase());
    if id == "stay" {
        cx.log(|| format!("{mid} stays where it is ({rid})"));
    } else {
        let p = Pos::parse(id).ok_or_else(|| RuleError::malformed(format!("{id} is not a square")))?;
        let from = cx.s.u(m).at;
        let f = cx.s.um(m);
        f.at = Some(p);
        // C-BAT-21 (Fray's reading): a mover ends facing the way it went.
        if let Some(q) = from.filter(|&q| q != p) {
            f.facing = ((p.x - q.x).signum() as i8, (p.y - q.y).signum() as i8);
        }
        let from_key = from.map(|q| q.key()).unwrap_or_default();
        cx.log(|| format!("{mid} moves from {from_key} to {} with {} for no Endurance ({rid})", p.key(), k.name()));
        // C-BAT-20: a drop of 2 levels or more is a fall.
        crate::terrain::fall(cx, m, from)?;
        crate::abilities::flame_wreath(cx, m, "moves")?;
    }
    cx.s.um(m).pouncing = false;
    queue.retain(|&x| cx.s.u(x).at.is_some());
    if queue.is_empty() || cx.s.outcome.is_some() {
        return rules::after_attack(cx);
    }
    cx.s.pending = Pending::ExtraMove(queue, k);
    Ok(())
}

// ---------------------------------------------------------------- Plan Ahead

/// Whether the attacker's side should be asked about its Plan Ahead die before this to-hit
/// roll (C-GL-PLAN-AHEAD).
pub fn planned_die_open(s: &State, k: &Strike) -> bool {
    !k.extra.planned_asked && s.planned[s.u(k.attacker).side as usize].is_some()
}

// ---------------------------------------------------------------- attack chains

/// Notes a hit that earns a follow-up once the attack is over (C-BAT-16): a Barrage hit earns
/// the next free attack (C-GL-BARRAGE); a ranged hit by a character with Buck Shot, not yet
/// used this activation, earns the offer of a second shot (C-GL-BUCK-SHOT). Only the active
/// character's own attacks count.
pub fn note_hit(s: &mut State, k: &Strike) {
    let Some(a) = s.active.as_ref() else { return };
    if a.unit != k.attacker || k.target == k.attacker || k.free {
        return;
    }
    if k.special == Special::Barrage {
        s.follow = Some((k.attacker, k.weapon, k.target, k.extra.chain + 1));
        return;
    }
    let ranged = rules::attack_reach(s, k.attacker, k.weapon as usize, k.special).1;
    if ranged && !k.extra.buck && a.abilities & Ability::BuckShot.bit() == 0 {
        s.follow = Some((k.attacker, k.weapon, k.target, 0));
    }
}

/// Asks the follow-up a hit earned, if any is still possible. Whether a question is now open.
pub fn follow_up(cx: &mut Cx) -> bool {
    let Some((a, w, t, hits)) = cx.s.follow.take() else { return false };
    if cx.s.u(a).at.is_none() || cx.s.active.as_ref().is_none_or(|x| x.unit != a) {
        return false;
    }
    let aid = cx.s.u(a).id.clone();
    if hits > 0 {
        if rules::targets(cx.s, a, w as usize, Special::Barrage).is_empty() {
            cx.log(|| format!("{aid}'s Barrage ends: no enemy left to attack (C-GL-BARRAGE)"));
            return false;
        }
        cx.s.pending = Pending::Barrage(a, w, hits);
        return true;
    }
    let affordable =
        ability_cost(cx.s, a, "Buck Shot").is_some_and(|(e, m)| e <= cx.s.u(a).endurance && m <= cx.s.u(a).mana);
    if affordable && cx.s.u(t).at.is_some() {
        cx.s.pending = Pending::BuckShot(a, w, t);
        return true;
    }
    false
}

// ---------------------------------------------------------------- Checkmate

/// Checkmate's helpers (C-GL-CHECKMATE): friends of the attacker on the table, not yet paid,
/// with a melee weapon that reaches the target and whose EC they can pay (the cheapest such).
pub fn checkmate_helpers(s: &State, k: &Strike) -> Vec<(u8, i32)> {
    let Some(at) = s.u(k.target).at else { return Vec::new() };
    let side = s.u(k.attacker).side;
    s.standing()
        .filter(|&f| f != k.attacker && s.u(f).side == side && !k.extra.helpers.contains(&f))
        .filter_map(|f| {
            let d = s.u(f).at.map_or(i32::MAX, |p| dist(p, at));
            let ec = s
                .card(f)
                .weapons
                .iter()
                .filter(|w| {
                    let (r, ranged) = reach(w);
                    !ranged && d <= r
                })
                .map(|w| w.ec as i32)
                .min()?;
            (ec <= s.u(f).endurance).then_some((f, ec))
        })
        .collect()
}

// ---------------------------------------------------------------- two weapons, a weapon line

/// Scissor Strike's second weapon (C-GL-SCISSOR-STRIKE): the first melee weapon after slot `w`,
/// itself melee. Listing only the first of the pair offers each pair once.
pub fn scissor_partner(s: &State, u: u8, w: usize) -> Option<usize> {
    let weapons = &s.card(u).weapons;
    if reach(&weapons[w]).1 {
        return None;
    }
    (w + 1..weapons.len()).find(|&p| !reach(&weapons[p]).1)
}

/// The weapon an attack strikes with: the slot's, or for a Scissor Strike both melee weapons as
/// one (C-GL-SCISSOR-STRIKE): the higher EC and W-Att, the sum of W-Pow, the shorter reach (the
/// target must be in reach of both), both weapons' crits and specials; the type is the first's.
pub fn strike_weapon(s: &State, u: u8, w: u8, special: Special) -> CardWeapon {
    let card = s.card(u);
    let mut out = card.weapons[w as usize].clone();
    if special != Special::Scissor {
        return out;
    }
    let Some(p) = scissor_partner(s, u, w as usize) else { return out };
    let o = &card.weapons[p];
    out.name = format!("{} and {}", out.name, o.name);
    out.ec = out.ec.max(o.ec);
    out.w_att = out.w_att.max(o.w_att);
    out.w_pow += o.w_pow;
    out.reach = reach(&card.weapons[w as usize]).0.min(reach(o).0).to_string();
    out.crit.extend(o.crit.iter().cloned());
    for sp in &o.special {
        if !out.special.contains(sp) {
            out.special.push(sp.clone());
        }
    }
    out
}

/// The other weapon slot an attack uses up (Scissor Strike's second weapon).
pub fn second_slot(s: &State, u: u8, w: u8, special: Special) -> Option<usize> {
    (special == Special::Scissor).then(|| scissor_partner(s, u, w as usize)).flatten()
}

/// Whether special attack `special` with weapon slot `w` can be made now, for the attacks whose
/// test is not "an enemy within the weapon's reach"; `None` for the others. Scissor Strike needs
/// its second melee weapon unused (or Multiattack) and a target in reach of both; Hyper Cutter a
/// melee weapon and an enemy on a line of 3.
pub fn special_available(s: &State, u: u8, w: usize, special: Special, used: u8) -> Option<bool> {
    match special {
        Special::Scissor => Some(scissor_partner(s, u, w).is_some_and(|p| {
            let multi = s.card(u).weapons[p].special.iter().any(|x| x.eq_ignore_ascii_case("Multiattack"));
            (used & (1 << p) == 0 || multi) && !rules::targets(s, u, w, special).is_empty()
        })),
        Special::HyperCutter => Some(!reach(&s.card(u).weapons[w]).1 && !weapon_line_directions(s, u).is_empty()),
        _ => None,
    }
}

/// The directions in which Hyper Cutter's straight line of 3 holds an enemy (C-GL-LINE-ATTACK,
/// Fray's reading: straight lines only).
pub fn weapon_line_directions(s: &State, u: u8) -> Vec<&'static str> {
    let side = s.u(u).side;
    crate::battle::FACINGS
        .iter()
        .filter(|(_, d)| {
            rules::line_squares(s, u, *d, HYPER_CUTTER_LINE)
                .iter()
                .any(|&p| s.at(p).is_some_and(|t| s.u(t).side != side))
        })
        .map(|(n, _)| *n)
        .collect()
}

/// Hyper Cutter (C-GL-HYPER-CUTTER, C-GL-LINE-ATTACK): the weapon strikes everyone on a
/// straight line of 3 from the user, friends too, at Att +1 as a Magic attack, each with its own
/// rolls; the weapon's crits apply, its On Hit entries do not (as for Thunder Strike's blast).
fn hyper_cutter(cx: &mut Cx, u: u8, w: u8, dir: (i8, i8)) -> Result<(), RuleError> {
    let (e, m) = rules::attack_cost(cx.s, u, w as usize, Special::HyperCutter).unwrap_or_default();
    rules::pay(cx, u, e);
    cx.s.um(u).mana -= m;
    if let Some(a) = cx.s.active.as_mut() {
        a.used |= 1 << w;
        a.acted = true;
    }
    let weapon = cx.s.card(u).weapons[w as usize].clone();
    let uid = cx.s.u(u).id.clone();
    let face = crate::battle::facing_name(dir);
    cx.counted(&[("power uses", "Hyper Cutter", 1.0), ("power attacks", "Hyper Cutter", 1.0)], || {
        format!(
            "{uid} swings the {} in a Hyper Cutter toward {face}, a line of {HYPER_CUTTER_LINE}, paying {e}E {m}M (C-GL-HYPER-CUTTER)",
            weapon.name
        )
    });
    let victims: Vec<u8> =
        rules::line_squares(cx.s, u, dir, HYPER_CUTTER_LINE).into_iter().filter_map(|p| cx.s.at(p)).collect();
    for t in victims {
        if cx.s.u(t).at.is_none() || cx.s.u(u).at.is_none() {
            continue;
        }
        if let Some(crits) = rules::weapon_area_hit(cx, u, t, &weapon, 1, 0, "Magic")?
            && cx.s.u(t).at.is_some()
        {
            rules::crit_riders(cx, u, t, &crits);
        }
    }
    rules::after_attack(cx)
}

// ---------------------------------------------------------------- Pain Warp

/// The injuries `u` counts now: its own, and while Pain Warped the user's too (on top of its own
/// by default, or the higher of the two with `pain-warp=match`) (C-GL-PAIN-WARP).
pub fn injuries_of(s: &State, u: u8) -> i32 {
    let own = s.u(u).injuries;
    match s.u(u).warped_by.filter(|&w| s.u(w).at.is_some()) {
        Some(w) if s.options.pain_warp_add => own + s.u(w).injuries,
        Some(w) => own.max(s.u(w).injuries),
        None => own,
    }
}

/// Pain Warp's hit (C-GL-PAIN-WARP): `t` counts `u`'s injuries until its next activation, and
/// is slain if that many would defeat it.
pub fn pain_warp(cx: &mut Cx, u: u8, t: u8) {
    cx.s.um(t).warped_by = Some(u);
    let (uid, tid) = (cx.s.u(u).id.clone(), cx.s.u(t).id.clone());
    let (n, tuf) = (injuries_of(cx.s, t), cx.s.card(t).stats.tuf);
    cx.log(|| {
        format!("{tid} now counts {uid}'s injuries too: {n} of Tuf {tuf} until its next activation (C-GL-PAIN-WARP)")
    });
    warp_check(cx, t);
}

fn warp_check(cx: &mut Cx, t: u8) {
    let (n, tuf) = (injuries_of(cx.s, t), cx.s.card(t).stats.tuf);
    if cx.s.u(t).at.is_some() && cx.s.u(t).warped_by.is_some() && n >= tuf {
        crate::abilities::slay(
            cx,
            t,
            &format!("Pain Warp: {n} injuries counted, Tuf {tuf} (C-GL-PAIN-WARP, C-GL-SLAY)"),
        );
    }
}

/// After `u` takes injuries: each character Pain Warped by `u` counts them too and may be slain;
/// `u` itself, if Pain Warped and not yet defeated by its own injuries, may be slain. Whether
/// `u` was slain.
pub fn warp_after_injury(cx: &mut Cx, u: u8) -> bool {
    let linked: Vec<u8> = cx.s.standing().filter(|&t| cx.s.u(t).warped_by == Some(u)).collect();
    for t in linked {
        warp_check(cx, t);
    }
    if cx.s.u(u).warped_by.is_some() && cx.s.u(u).injuries < cx.s.card(u).stats.tuf {
        warp_check(cx, u);
    }
    cx.s.u(u).at.is_none()
}

// ---------------------------------------------------------------- activation cards and phases

/// The phase being played: the lowest phase holding an activation card still to come (a
/// character on the table not yet activated, or a Meteor card due, which is in phase 1)
/// (C-BAT-4, Fray's reading).
pub fn current_phase(s: &State) -> u8 {
    let meteor = (0..2).any(|side| meteor_due(s, side));
    s.standing().filter(|&u| !s.u(u).activated).map(|u| s.u(u).phase).chain(meteor.then_some(1)).min().unwrap_or(1)
}

/// Whether `u`'s activation card is in the phase being played.
pub fn in_phase(s: &State, u: u8) -> bool {
    s.u(u).phase == current_phase(s)
}

/// Whether `side`'s Meteor card is in this turn's pool (C-GL-METEOR).
pub fn meteor_due(s: &State, side: u8) -> bool {
    s.meteor[side as usize].as_ref().is_some_and(|m| m.due <= s.turn)
}

/// The Meteor card among `side`'s activation choices, while its phase (1) is played.
pub fn meteor_option(s: &State, side: u8) -> Option<DecisionOption> {
    let m = s.meteor[side as usize].as_ref().filter(|_| meteor_due(s, side) && current_phase(s) == 1)?;
    Some(DecisionOption::new("meteor", format!("the Meteor card: the blast falls on {}", m.at.key())))
}

/// Whether `side` has an activation card to play in the phase being played.
pub fn side_ready(s: &State, side: u8) -> bool {
    let phase = current_phase(s);
    s.units.iter().any(|x| x.side == side && x.at.is_some() && !x.activated && x.phase == phase)
        || (phase == 1 && meteor_due(s, side))
}

/// A new turn: every card back in phase 1, Plan Ahead's dice gone (C-GL-PLAN-AHEAD: "this
/// turn").
pub fn new_turn(s: &mut State) {
    for x in s.units.iter_mut() {
        x.phase = 1;
    }
    s.planned = [None, None];
}

/// The start of `u`'s activation: a Pain Warp on it ends (C-GL-PAIN-WARP).
pub fn start_of_activation(cx: &mut Cx, u: u8) {
    if cx.s.um(u).warped_by.take().is_some() {
        let id = cx.s.u(u).id.clone();
        cx.log(|| format!("{id} no longer counts another's injuries (C-GL-PAIN-WARP)"));
    }
}

/// Meteor's card comes up (C-GL-METEOR): the blast falls on the token, everyone within 3 of it
/// (friends and the caster too) attacked with the caster's Att and S-Pow, each with its own
/// rolls; then the card and token leave. It is `side`'s pick for this activation.
fn meteor_falls(cx: &mut Cx, side: u8) -> Result<(), RuleError> {
    let Some(m) = cx.s.meteor[side as usize].take() else { return rules::next_pick(cx) };
    cx.s.next_side = 1 - side;
    let cid = cx.s.u(m.caster).id.clone();
    cx.counted(&[("power uses", "Meteor", 1.0)], || {
        format!(
            "{}'s Meteor card comes up: {cid}'s meteor falls on {}, radius 3 (C-GL-METEOR, C-GL-BLAST-ATTACK)",
            SIDES[side as usize],
            m.at.key()
        )
    });
    let victims: Vec<u8> = cx.s.standing().filter(|&t| cx.s.u(t).at.is_some_and(|p| dist(p, m.at) <= 3)).collect();
    for t in victims {
        if cx.s.u(t).at.is_some() {
            crate::abilities::spell_hit(cx, m.caster, t, &METEOR)?;
        }
    }
    rules::next_pick(cx)
}

/// The enemies of `x` who may Out-Maneuver it as it activates (C-GL-OUT-MANEUVER): on the
/// table, not hexed, with the skill and its cost, `x` within their Comm, `x`'s card in phase 1
/// or 2.
pub fn out_maneuverers(s: &State, x: u8) -> Vec<u8> {
    let Some(at) = s.u(x).at else { return Vec::new() };
    if s.u(x).phase > 2 {
        return Vec::new();
    }
    let side = s.u(x).side;
    s.standing()
        .filter(|&r| s.u(r).side != side && s.u(r).hex == 0)
        .filter(|&r| s.u(r).at.is_some_and(|p| dist(p, at) <= s.card(r).stats.comm))
        .filter(|&r| ability_cost(s, r, "Out-Maneuver").is_some_and(|(e, m)| e <= s.u(r).endurance && m <= s.u(r).mana))
        .collect()
}

/// Swift Assault (C-GL-SWIFT-ASSAULT): the side with more characters that have it, if any.
pub fn swift_assault_side(s: &State) -> Option<u8> {
    let count = |side: u8| {
        (0..s.units.len() as u8)
            .filter(|&u| s.u(u).side == side && effect_cost(s, u, "Swift Assault").is_some())
            .count()
    };
    match count(0).cmp(&count(1)) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

// ---------------------------------------------------------------- the questions

/// Whether the pending question is one of this module's.
pub fn is_mine(p: &Pending) -> bool {
    matches!(
        p,
        Pending::ExtraMove(..)
            | Pending::PlannedDie(_)
            | Pending::Barrage(..)
            | Pending::BuckShot(..)
            | Pending::Checkmate(_)
            | Pending::WeaponLine(..)
            | Pending::MeteorSquare
            | Pending::OutManeuver(_)
            | Pending::Role(_)
    )
}

/// The pending question of this module, with every option.
pub fn decision(s: &State) -> Option<Decision> {
    let ask = |seat: u8, unit: Option<String>, kind: &str, prompt: String, options: Vec<DecisionOption>| {
        Some(Decision { seat: SIDES[seat as usize].into(), unit, kind: kind.into(), prompt, options })
    };
    let active = s.active.as_ref().map(|a| a.unit);
    match &s.pending {
        Pending::ExtraMove(queue, k) => {
            let m = *queue.first()?;
            let mut options: Vec<DecisionOption> =
                extra_squares(s, m).into_iter().map(|p| DecisionOption::square(p, p.key())).collect();
            options.push(DecisionOption::new("stay", "stay where it is"));
            let prompt = format!("{}: where does {} move (up to Move, no Endurance)?", k.name(), s.u(m).id);
            ask(s.u(m).side, Some(s.u(m).id.clone()), "square", prompt, options)
        }
        Pending::PlannedDie(k) => {
            let side = s.u(k.attacker).side;
            let n = s.planned[side as usize]?;
            let options = vec![
                DecisionOption::new("use-planned", format!("use the {n} set aside by Plan Ahead instead of rolling")),
                DecisionOption::new("roll", "roll the D10"),
            ];
            let prompt = format!("{} attacks {}: use the planned die?", s.u(k.attacker).id, s.u(k.target).id);
            ask(side, Some(s.u(k.attacker).id.clone()), "planned-die", prompt, options)
        }
        Pending::Barrage(a, w, hits) => {
            let options = rules::targets(s, *a, *w as usize, Special::Barrage)
                .into_iter()
                .map(|t| {
                    DecisionOption::new(s.u(t).id.clone(), format!("free attack on {} at Att -{hits}", s.card(t).name))
                })
                .collect();
            ask(
                s.u(*a).side,
                Some(s.u(*a).id.clone()),
                "target",
                "Barrage: the next free attack on whom?".into(),
                options,
            )
        }
        Pending::BuckShot(a, _, t) => {
            let (e, m) = ability_cost(s, *a, "Buck Shot").unwrap_or_default();
            let options = vec![
                DecisionOption::new("buck-shot", format!("Buck Shot: shoot {} again, no EC ({e}E {m}M)", s.u(*t).id)),
                DecisionOption::new("pass", "no second shot"),
            ];
            ask(s.u(*a).side, Some(s.u(*a).id.clone()), "follow-up", "The shot hit: Buck Shot?".into(), options)
        }
        Pending::Checkmate(k) => {
            let mut options: Vec<DecisionOption> = checkmate_helpers(s, k)
                .into_iter()
                .map(|(f, ec)| {
                    DecisionOption::new(
                        format!("pay-{}", s.u(f).id),
                        format!("{} pays {ec}E, its weapon's EC", s.u(f).id),
                    )
                })
                .collect();
            options
                .push(DecisionOption::new("done", format!("go on ({} paid; two arm the Slay)", k.extra.helpers.len())));
            let prompt = "Checkmate: which friends within melee reach pay their EC?".to_string();
            ask(s.u(k.attacker).side, Some(s.u(k.attacker).id.clone()), "helpers", prompt, options)
        }
        Pending::WeaponLine(_, special) => {
            let u = active?;
            let options = weapon_line_directions(s, u)
                .into_iter()
                .map(|d| DecisionOption::new(d, format!("{} toward {d}", special.name())))
                .collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "direction", format!("{} which way?", special.name()), options)
        }
        Pending::MeteorSquare => {
            let u = active?;
            let options = (0..s.height)
                .flat_map(|y| (0..s.width).map(move |x| Pos::new(x, y)))
                .filter(|&p| s.open(p))
                .map(|p| DecisionOption::square(p, p.key()))
                .collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "square", "Meteor: the token on which tile?".into(), options)
        }
        Pending::OutManeuver(x) => {
            let side = 1 - s.u(*x).side;
            let mut options: Vec<DecisionOption> = out_maneuverers(s, *x)
                .into_iter()
                .map(|r| {
                    DecisionOption::new(
                        format!("out-maneuver-{}", s.u(r).id),
                        format!("{} out-maneuvers {}: its card goes to phase 3", s.u(r).id, s.u(*x).id),
                    )
                })
                .collect();
            options.push(DecisionOption::new("pass", "no reaction"));
            let prompt = format!("{} activates: react?", s.u(*x).id);
            // The reacting side is asked (the activating character is the other side's).
            ask(side, None, "reaction", prompt, options)
        }
        Pending::Role(side) => {
            let options = vec![
                DecisionOption::new("attacker", "be the attacker: take the turn order (act first each turn)"),
                DecisionOption::new("defender", "be the defender: the other side takes the turn order"),
            ];
            ask(*side, None, "role", "Swift Assault: attacker or defender?".into(), options)
        }
        _ => None,
    }
}

/// Answers this module's pending question with option `id` (already checked against the offer).
pub fn answer(cx: &mut Cx, id: &str) -> Result<(), RuleError> {
    match cx.s.pending.clone() {
        Pending::ExtraMove(queue, k) => extra_move(cx, queue, k, id),
        Pending::PlannedDie(mut k) => {
            k.extra.planned_asked = true;
            if id == "use-planned" {
                let side = cx.s.u(k.attacker).side as usize;
                k.extra.planned = cx.s.planned[side].take();
                let aid = cx.s.u(k.attacker).id.clone();
                let n = k.extra.planned.unwrap_or(0);
                cx.log(|| format!("{aid} uses the planned {n} instead of rolling (C-GL-PLAN-AHEAD)"));
            }
            rules::roll_to_hit(cx, k)
        }
        Pending::Barrage(a, w, hits) => {
            let t = cx.s.find(id).ok_or_else(|| RuleError::malformed(format!("no character {id}")))?;
            let (aid, tid) = (cx.s.u(a).id.clone(), cx.s.u(t).id.clone());
            cx.counted(&[("power attacks", "Barrage", 1.0)], || {
                format!(
                    "{aid}'s Barrage goes on after {hits} hit(s): a free attack on {tid} at Att -{hits} (C-GL-BARRAGE)"
                )
            });
            let mut k = Strike::new(a, t, w, Special::Barrage);
            k.extra.chain = hits;
            rules::open_attack(cx, k)
        }
        Pending::BuckShot(a, w, t) => {
            if id != "buck-shot" {
                return rules::after_attack(cx);
            }
            let (e, m) = rules::start_ability(cx, a, Ability::BuckShot);
            let (aid, tid) = (cx.s.u(a).id.clone(), cx.s.u(t).id.clone());
            cx.log(|| format!("{aid} fires a Buck Shot at {tid} for {e}E {m}M, no EC (C-GL-BUCK-SHOT)"));
            let mut k = Strike::new(a, t, w, Special::Plain);
            k.extra.buck = true;
            rules::open_attack(cx, k)
        }
        Pending::Checkmate(mut k) => {
            if id == "done" || checkmate_helpers(cx.s, &k).is_empty() {
                let n = k.extra.helpers.len();
                let aid = cx.s.u(k.attacker).id.clone();
                cx.log(|| {
                    if n >= 2 {
                        format!("{aid}'s Checkmate: {n} friends paid, a hit slays (C-GL-CHECKMATE)")
                    } else {
                        format!("{aid}'s Checkmate: {n} friend(s) paid, no Slay on this hit (C-GL-CHECKMATE)")
                    }
                });
                return rules::open_attack(cx, k);
            }
            let (f, ec) = checkmate_helpers(cx.s, &k)
                .into_iter()
                .find(|&(f, _)| format!("pay-{}", cx.s.u(f).id) == id)
                .ok_or_else(|| RuleError::malformed(format!("{id}: no such helper")))?;
            rules::pay(cx, f, ec);
            k.extra.helpers.push(f);
            let fid = cx.s.u(f).id.clone();
            cx.log(|| format!("{fid} pays {ec}E for the Checkmate (C-GL-CHECKMATE)"));
            if checkmate_helpers(cx.s, &k).is_empty() {
                cx.s.pending = Pending::Checkmate(k);
                return answer(cx, "done");
            }
            cx.s.pending = Pending::Checkmate(k);
            Ok(())
        }
        Pending::WeaponLine(w, _) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let dir = crate::battle::FACINGS.iter().find(|(n, _)| *n == id).map(|(_, d)| *d).unwrap_or((0, 1));
            hyper_cutter(cx, u, w, dir)
        }
        Pending::MeteorSquare => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let p = Pos::parse(id).ok_or_else(|| RuleError::malformed(format!("{id} is not a square")))?;
            let (e, m) = rules::start_ability(cx, u, Ability::Meteor);
            let side = cx.s.u(u).side;
            let due = cx.s.turn + 1;
            let replaced = cx.s.meteor[side as usize].replace(MeteorToken { at: p, caster: u, due }).is_some();
            let uid = cx.s.u(u).id.clone();
            cx.log(|| {
                format!(
                    "{uid} calls a Meteor for {e}E {m}M: a token on {}{}; its card joins {}'s pool on turn {due} (C-GL-METEOR)",
                    p.key(),
                    if replaced { ", replacing the old token" } else { "" },
                    SIDES[side as usize]
                )
            });
            rules::after_attack(cx)
        }
        Pending::OutManeuver(x) => {
            if id == "pass" {
                return rules::activate(cx, x);
            }
            let r = out_maneuverers(cx.s, x)
                .into_iter()
                .find(|&r| format!("out-maneuver-{}", cx.s.u(r).id) == id)
                .ok_or_else(|| RuleError::malformed(format!("{id}: no such reaction")))?;
            let (e, m) = ability_cost(cx.s, r, "Out-Maneuver").unwrap_or_default();
            rules::pay(cx, r, e);
            cx.s.um(r).mana -= m;
            cx.s.um(x).phase = 3;
            cx.s.next_side = cx.s.u(x).side;
            let (rid, xid) = (cx.s.u(r).id.clone(), cx.s.u(x).id.clone());
            cx.log(|| {
                format!("{rid} out-maneuvers {xid} for {e}E {m}M: its activation card goes to phase 3 (C-GL-OUT-MANEUVER, C-BAT-4)")
            });
            rules::next_pick(cx)
        }
        Pending::Role(side) => {
            cx.s.first = if id == "attacker" { side } else { 1 - side };
            let first = SIDES[cx.s.first as usize];
            cx.log(|| {
                format!("{} has more Swift Assault characters and chooses to be the {id}: {first} takes the turn order (C-GL-SWIFT-ASSAULT, C-BAT-2)", SIDES[side as usize])
            });
            rules::first_turn(cx)
        }
        _ => Err(RuleError::malformed("not a tactics question")),
    }
}

/// Answers the Activate question's Meteor card, or asks the enemy about Out-Maneuver before `u`
/// activates. Whether the answer was handled here.
pub fn on_activate(cx: &mut Cx, side: u8, id: &str) -> Result<bool, RuleError> {
    if id == "meteor" {
        meteor_falls(cx, side)?;
        return Ok(true);
    }
    if let Some(u) = cx.s.find(id)
        && !out_maneuverers(cx.s, u).is_empty()
    {
        cx.s.pending = Pending::OutManeuver(u);
        return Ok(true);
    }
    Ok(false)
}
