//! The battle's rules: the turn and activations (C-BAT-4, C-BAT-6), movement (C-BAT-6b),
//! weapon attacks with the to-hit and injury rolls (C-BAT-8 to C-BAT-16), reactions (Dodge,
//! Block), recovery (C-BAT-7) and the end of the battle (C-BAT-22).

use crate::abilities::Shape;
use crate::battle::{
    Ability, Activation, CritInjury, ENDURANCE_CAP, Event, First, MoveKind, Pending, RecoveryAt, SIDES, Special, State,
    Strike, TieGoesTo,
};
use crate::builder::CardWeapon;
use fray_core::decision::{Decision, DecisionOption};
use fray_core::dice::Dice;
use fray_core::game::Sink;
use fray_core::grid::Pos;
use fray_core::ruleset::{Outcome, RuleError};

/// The context rules run in: the state, the dice, the journal.
pub struct Cx<'a> {
    /// The battle.
    pub s: &'a mut State,
    /// The dice.
    pub dice: &'a mut dyn Dice,
    /// The journal.
    pub out: &'a mut dyn Sink<Event>,
}

impl Cx<'_> {
    /// A journal line (built only when the journal is kept).
    pub fn log(&mut self, text: impl FnOnce() -> String) {
        if self.out.keeps() {
            self.out.push(Event { text: text(), counts: Vec::new() });
        }
    }
    /// A journal line that also carries figures for the simulator (pushed even when the journal
    /// is not kept, without its text).
    pub fn counted(&mut self, counts: &[(&str, &str, f64)], text: impl FnOnce() -> String) {
        let text = if self.out.keeps() { text() } else { String::new() };
        // A kept journal gets no empty lines: its figures only matter to the simulator, which
        // keeps none.
        if self.out.keeps() && text.is_empty() {
            return;
        }
        let counts = counts.iter().map(|(c, k, n)| (c.to_string(), k.to_string(), *n)).collect();
        self.out.push(Event { text, counts });
    }
    /// A D10.
    pub fn d10(&mut self) -> Result<u32, RuleError> {
        Ok(self.dice.roll(10)?)
    }
}

// ---------------------------------------------------------------- reading the card

/// A weapon's reach and whether it is ranged ("5+").
pub fn reach(w: &CardWeapon) -> (i32, bool) {
    let ranged = w.reach.ends_with('+');
    (w.reach.trim_end_matches('+').trim().parse().unwrap_or(1), ranged)
}

fn has_special(w: &CardWeapon, word: &str) -> bool {
    w.special.iter().any(|x| x.eq_ignore_ascii_case(word))
}

/// The number after `prefix` in a crit or special entry ("Injury+2" → 2, "Hex 2" → 2).
fn amount(entry: &str, prefix: &str) -> Option<i32> {
    let rest = entry.strip_prefix(prefix)?;
    let rest = rest.trim().trim_start_matches('+').trim_end_matches('E').trim();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() { Some(1) } else { digits.parse().ok() }
}

/// Whether the card of `u` lists the effect or ability `name` (C-GL terms), and its Endurance
/// cost as printed.
pub fn effect_cost(s: &State, u: u8, name: &str) -> Option<i32> {
    let e = s.card(u).effects.iter().find(|e| {
        e.strip_prefix(name).is_some_and(|rest| rest.is_empty() || rest.starts_with(' ') || rest.starts_with('('))
    })?;
    let cost = e.split_whitespace().find_map(|w| w.strip_suffix('E').and_then(|n| n.parse::<i32>().ok())).unwrap_or(0);
    Some(cost)
}

/// The Endurance and Mana an ability or special attack of `u`'s card costs as printed ("1E1M",
/// "2M + weapon EC"), or `None` when the card does not have it.
pub fn ability_cost(s: &State, u: u8, name: &str) -> Option<(i32, i32)> {
    let e = s.card(u).effects.iter().find(|e| {
        e.strip_prefix(name).is_some_and(|rest| rest.is_empty() || rest.starts_with(' ') || rest.starts_with('('))
    })?;
    let (mut end, mut mana, mut n) = (0, 0, String::new());
    for ch in e[name.len()..].chars() {
        match ch {
            '0'..='9' => n.push(ch),
            'E' | 'M' if !n.is_empty() => {
                let v: i32 = n.parse().unwrap_or(0);
                if ch == 'E' {
                    end += v
                } else {
                    mana += v
                }
                n.clear();
            }
            _ => n.clear(),
        }
    }
    Some((end, mana))
}

/// Whether `attacker` stands behind `target`: the direction from the target to the attacker
/// points against its facing (C-BAT-21: the three squares behind, and the area beyond them).
pub fn from_rear(s: &State, attacker: u8, target: u8) -> bool {
    let (Some(a), Some(t)) = (s.u(attacker).at, s.u(target).at) else { return false };
    let (dx, dy) = ((a.x - t.x).signum(), (a.y - t.y).signum());
    let (fx, fy) = s.u(target).facing;
    dx * i32::from(fx) + dy * i32::from(fy) < 0
}

/// Def now: the card's, less 2 while hexed (C-GL-HEX).
pub fn def_of(s: &State, u: u8) -> i32 {
    s.card(u).stats.def - if s.u(u).hex > 0 { 2 } else { 0 }
}

/// Arm now: the card's, less the injury penalty (C-BAT-13; none while persevering,
/// C-GL-PERSEVERE), plus Inspire Fortitude's aura (C-GL-INSPIRE-FORTITUDE).
pub fn arm_of(s: &State, u: u8) -> i32 {
    // C-GL-PAIN-WARP: a warped character's penalty counts the user's injuries too.
    let penalty = if s.u(u).persevering { 0 } else { s.options.injury_armour * crate::tactics::injuries_of(s, u) };
    s.card(u).stats.arm - penalty + i32::from(crate::abilities::aura(s, u, "Inspire Fortitude", false))
}

/// Att now (for ability attacks): the card's, less 2 while hexed (C-GL-HEX), plus Inspire
/// Hatred's aura (C-GL-INSPIRE-HATRED).
pub fn att_of(s: &State, u: u8) -> i32 {
    s.card(u).stats.att - if s.u(u).hex > 0 { 2 } else { 0 }
        + i32::from(crate::abilities::aura(s, u, "Inspire Hatred", false))
}

/// Whether Fear effects and Flee do nothing to `u` (C-GL-DAUNTLESS, C-GL-FEAR; Inspire Bravery's
/// aura, C-GL-INSPIRE-BRAVERY).
pub fn fearless(s: &State, u: u8) -> bool {
    effect_cost(s, u, "Dauntless").is_some() || crate::abilities::aura(s, u, "Inspire Bravery", true)
}

/// A to-hit D10 by `roller` against `target`, with Luck (C-GL-LUCK, Fray's reading: a token is
/// spent at once by the roller on a miss, or by the target on a hit that is not a natural 10,
/// and the die is rolled again; the second roll stands).
pub fn hit_die(cx: &mut Cx, roller: u8, target: u8, hits: impl Fn(i32) -> bool) -> Result<i32, RuleError> {
    let n = cx.d10()? as i32;
    let who = if !hits(n) && cx.s.u(roller).luck > 0 {
        roller
    } else if hits(n) && n != 10 && target != roller && cx.s.u(target).luck > 0 {
        target
    } else {
        return Ok(n);
    };
    cx.s.um(who).luck -= 1;
    let m = cx.d10()? as i32;
    let id = cx.s.u(who).id.clone();
    cx.log(|| format!("{id} spends a Luck token: the {n} is rolled again, {m} (C-GL-LUCK)"));
    Ok(m)
}

/// W-Att now: the card's, less 2 while hexed (C-GL-HEX).
pub fn w_att_of(s: &State, u: u8, w: &CardWeapon) -> i32 {
    w.w_att - if s.u(u).hex > 0 { 2 } else { 0 } + i32::from(crate::abilities::aura(s, u, "Inspire Hatred", false))
}

/// Spaces between two squares, a diagonal counting as one.
pub fn dist(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

// ---------------------------------------------------------------- the turn

/// Starts the battle: the roll-off for the turn order (C-BAT-2), then the first pick.
pub fn begin(cx: &mut Cx) -> Result<(), RuleError> {
    // C-GL-SWIFT-ASSAULT: the side with more of it chooses its role instead of the roll-off.
    if cx.s.options.first == First::Roll
        && let Some(side) = crate::tactics::swift_assault_side(cx.s)
    {
        cx.s.pending = Pending::Role(side);
        return Ok(());
    }
    cx.s.first = match cx.s.options.first {
        First::Red => 0,
        First::Blue => 1,
        First::Roll => {
            let best = |side: u8| {
                cx.s.units.iter().filter(|x| x.side == side).map(|x| cx.s.cards[x.card].stats.comm).max().unwrap_or(0)
            };
            let (ch, ca) = (best(0), best(1));
            let (rh, ra) = (cx.d10()? as i32, cx.d10()? as i32);
            let winner = if ra + ca > rh + ch { 1 } else { 0 };
            cx.log(|| {
                format!(
                    "Roll-off: red {rh}+{ch}={}, blue {ra}+{ca}={}; {} takes the turn order (C-BAT-2)",
                    rh + ch,
                    ra + ca,
                    SIDES[winner as usize]
                )
            });
            winner
        }
    };
    first_turn(cx)
}

/// Turn 1 begins once the turn order is settled.
pub(crate) fn first_turn(cx: &mut Cx) -> Result<(), RuleError> {
    cx.s.turn = 1;
    cx.counted(&[("match", "rounds", 1.0)], || "Turn 1 begins".into());
    cx.s.next_side = cx.s.first;
    next_pick(cx)
}

fn ready(s: &State, side: u8) -> bool {
    // C-BAT-4: a card of the phase being played (C-GL-OUT-MANEUVER, C-GL-METEOR).
    crate::tactics::side_ready(s, side)
}

/// After an activation, or at the start: the next side to pick, or the end of the turn
/// (C-BAT-4: sides alternate, a side with nobody left to activate passes).
pub(crate) fn next_pick(cx: &mut Cx) -> Result<(), RuleError> {
    if check_victory(cx) {
        return Ok(());
    }
    let side = cx.s.next_side;
    if ready(cx.s, side) {
        cx.s.pending = Pending::Activate(side);
        return Ok(());
    }
    if ready(cx.s, 1 - side) {
        cx.s.pending = Pending::Activate(1 - side);
        return Ok(());
    }
    end_turn(cx)
}

fn end_turn(cx: &mut Cx) -> Result<(), RuleError> {
    if cx.s.options.recovery == RecoveryAt::EndOfTurn {
        for u in 0..cx.s.units.len() as u8 {
            if cx.s.u(u).recover_due && cx.s.u(u).at.is_some() {
                recover(cx, u)?;
            }
        }
        if check_victory(cx) {
            return Ok(());
        }
    }
    if cx.s.turn >= cx.s.options.turns {
        score(cx);
        return Ok(());
    }
    cx.s.turn += 1;
    let turn = cx.s.turn;
    cx.counted(&[("match", "rounds", 1.0)], || format!("Turn {turn} begins"));
    for x in cx.s.units.iter_mut() {
        x.activated = false;
        x.held = false;
        x.spent = 0;
        x.recover_due = false;
    }
    crate::tactics::new_turn(cx.s);
    reinforcements(cx);
    cx.s.next_side = cx.s.first;
    next_pick(cx)
}

/// Sends `u` off the table into reserves, to come back after `wait` more turns (C-BAT-5).
pub fn to_reserves(cx: &mut Cx, u: u8, wait: u32, why: &str) {
    let id = cx.s.u(u).id.clone();
    let f = cx.s.um(u);
    f.at = None;
    f.reserve = Some(wait);
    f.flee = 0;
    f.flee_from = None;
    cx.log(|| format!("{id} leaves the table for the reserves: {why} (C-BAT-5)"));
}

/// At the start of a turn (C-BAT-5, Fray's reading): each character in reserves whose wait is
/// over comes back on the open square nearest its own side's edge (red the top row, blue the
/// bottom one) that is not within 3 of an enemy, nearest the middle on a tie; with no such square
/// it waits another turn. The others wait one turn less.
fn reinforcements(cx: &mut Cx) {
    for u in 0..cx.s.units.len() as u8 {
        let Some(wait) = cx.s.u(u).reserve else { continue };
        if wait > 0 {
            cx.s.um(u).reserve = Some(wait - 1);
            continue;
        }
        let side = cx.s.u(u).side;
        let (w, h) = (cx.s.width, cx.s.height);
        let enemies: Vec<Pos> =
            cx.s.standing().filter(|&o| cx.s.u(o).side != side).filter_map(|o| cx.s.u(o).at).collect();
        let spot = (0..h)
            .flat_map(|y| (0..w).map(move |x| Pos::new(x, y)))
            .filter(|&p| cx.s.open(p) && cx.s.at(p).is_none() && enemies.iter().all(|&e| dist(e, p) > 3))
            .min_by_key(|p| (if side == 0 { p.y } else { h - 1 - p.y }, (2 * p.x - (w - 1)).abs(), p.x));
        let id = cx.s.u(u).id.clone();
        match spot {
            Some(p) => {
                let f = cx.s.um(u);
                f.at = Some(p);
                f.reserve = None;
                f.facing = if side == 0 { (0, 1) } else { (0, -1) };
                cx.log(|| format!("{id} comes back from the reserves at {} (C-BAT-5)", p.key()));
            }
            None => cx.log(|| format!("{id} finds no square clear of enemies and stays in reserve (C-BAT-5)")),
        }
    }
}

/// A side with nobody on the table loses at once (C-BAT-22, inferred).
fn check_victory(cx: &mut Cx) -> bool {
    if cx.s.outcome.is_some() {
        return true;
    }
    // Characters in reserves still count: they come back (C-BAT-5).
    let alive = |side: u8| cx.s.units.iter().any(|x| x.side == side && (x.at.is_some() || x.reserve.is_some()));
    let (h, a) = (alive(0), alive(1));
    if h && a {
        return false;
    }
    let winner = match (h, a) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    };
    finish(cx, winner, "the other side has nobody left on the table");
    true
}

/// At the turn limit: victory points (C-BAT-22): the points of every enemy defeated,
/// Few Stood Against Many's +1 for a survivor on the table, and the objectives held.
fn score(cx: &mut Cx) {
    let mut vp = [0i32; 2];
    for (i, x) in cx.s.units.iter().enumerate() {
        if x.defeated {
            vp[1 - x.side as usize] += cx.s.cards[x.card].points as i32;
        } else if x.at.is_some() && effect_cost(cx.s, i as u8, "Few Stood Against Many").is_some() {
            vp[x.side as usize] += 1;
        }
    }
    // C-BAT-22 (a battle option): objectives held.
    crate::objectives::score(cx, &mut vp);
    cx.s.vp = vp;
    let winner = match vp[0].cmp(&vp[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    finish(cx, winner, "the last turn ended: victory points");
}

fn finish(cx: &mut Cx, winner: Option<u8>, why: &str) {
    let vp = cx.s.vp;
    let score = SIDES.iter().zip(vp).map(|(s, v)| (s.to_string(), v as i64)).collect();
    let summary = match winner {
        Some(w) => format!("{} wins: {why} (VP {}-{})", SIDES[w as usize], vp[0], vp[1]),
        None => format!("a draw: {why} (VP {}-{})", vp[0], vp[1]),
    };
    cx.log(|| format!("The battle ends: {summary}"));
    cx.s.outcome = Some(Outcome { winner: winner.map(|w| SIDES[w as usize].to_string()), score, summary });
    cx.s.pending = Pending::Over;
    cx.s.active = None;
}

pub(crate) fn activate(cx: &mut Cx, u: u8) -> Result<(), RuleError> {
    let side = cx.s.u(u).side;
    cx.s.um(u).activated = true;
    cx.s.next_side = 1 - side;
    cx.s.active = Some(Activation { unit: u, moves: 0, used: 0, acted: false, abilities: 0 });
    let id = cx.s.u(u).id.clone();
    cx.log(|| format!("{id} activates (C-BAT-6)"));
    cx.s.pending = Pending::Menu;
    crate::tactics::start_of_activation(cx, u);
    // C-BAT-6a: start-of-activation triggers: Persevere ends (C-GL-PERSEVERE), Flame Wreath.
    if cx.s.u(u).persevering {
        cx.s.um(u).persevering = false;
        let (inj, tuf) = (cx.s.u(u).injuries, cx.s.card(u).stats.tuf);
        if inj >= tuf {
            defeat(cx, u, &format!("its Persevere ends with {inj} injuries, Tuf {tuf} (C-GL-PERSEVERE)"));
            return after_attack(cx);
        }
        cx.log(|| format!("{id}'s Persevere ends (C-GL-PERSEVERE)"));
    }
    // C-GL-KISS-OF-DEATH: a friend within Comm may answer the activation.
    if !crate::reactions::kissers(cx.s, u).is_empty() {
        cx.s.pending = Pending::Kiss(u);
        return Ok(());
    }
    activation_goes_on(cx, u)
}

/// The start of an activation after Kiss of Death was offered: Flame Wreath (C-BAT-6a).
pub(crate) fn activation_goes_on(cx: &mut Cx, u: u8) -> Result<(), RuleError> {
    cx.s.pending = Pending::Menu;
    crate::abilities::flame_wreath(cx, u, "starts its activation")?;
    if cx.s.u(u).at.is_none() {
        return after_attack(cx);
    }
    Ok(())
}

fn end_activation(cx: &mut Cx) -> Result<(), RuleError> {
    let Some(a) = cx.s.active.take() else { return next_pick(cx) };
    if cx.s.u(a.unit).at.is_some() {
        match cx.s.options.recovery {
            RecoveryAt::Activation => recover(cx, a.unit)?,
            RecoveryAt::EndOfTurn => cx.s.um(a.unit).recover_due = true,
        }
    }
    next_pick(cx)
}

/// The recovery step (C-BAT-7): Endurance back (only 1 while stunned, plus the hold bonus),
/// capped at 9; a Stun token off; Poison's hit and a counter off; a Hex counter off.
pub fn recover(cx: &mut Cx, u: u8) -> Result<(), RuleError> {
    let x = cx.s.u(u).clone();
    let stat = cx.s.card(u).stats.end;
    let bonus = if x.held { cx.s.options.hold_bonus } else { 0 };
    let gain = if x.stun > 0 { 1 } else { stat } + bonus;
    let now = (x.endurance + gain).min(ENDURANCE_CAP);
    {
        let f = cx.s.um(u);
        f.endurance = now;
        f.recover_due = false;
        if f.stun > 0 {
            f.stun -= 1;
        }
    }
    let stunned = x.stun > 0;
    cx.log(|| {
        format!(
            "{} recovers to {now}E{}{} (C-BAT-7)",
            x.id,
            if stunned { ", stunned: 1E only, a Stun token off" } else { "" },
            if bonus > 0 { ", with the hold bonus" } else { "" }
        )
    });
    if x.flee > 0 && cx.s.u(u).at.is_some() {
        flee_run(cx, u);
    }
    if x.poison > 0 && cx.s.u(u).at.is_some() {
        let pow = x.spent;
        cx.s.um(u).poison -= 1;
        if crate::abilities::immune(cx.s, u, "Acid") {
            cx.log(|| format!("{} is Immune to Acid: the Poison does nothing (C-GL-IMMUNE)", x.id));
        } else {
            cx.log(|| format!("{} takes the Poison hit at Pow {pow} and loses a counter (C-GL-POISON)", x.id));
            let hurt = injury_roll(cx, u, pow, 0, "Acid")?;
            wound(cx, u, hurt, None)?;
        }
    }
    if x.hex > 0 && cx.s.u(u).at.is_some() {
        cx.s.um(u).hex -= 1;
        cx.log(|| format!("{} loses a Hex counter (C-GL-HEX)", x.id));
    }
    if cx.s.u(u).at.is_some() {
        crate::abilities::mana_at_recovery(cx, u);
    }
    if cx.s.u(u).clinging && cx.s.u(u).at.is_some() {
        defeat(cx, u, "its Cling to Life ends with its recovery (C-GL-CLING-TO-LIFE)");
    }
    // C-GL-KISS-OF-DEATH: defeated in its recovery, Immune to Slay or not.
    if cx.s.u(u).kissed && cx.s.u(u).at.is_some() {
        defeat(cx, u, "the Kiss of Death takes it in its recovery (C-GL-KISS-OF-DEATH)");
    }
    Ok(())
}

// ---------------------------------------------------------------- movement

/// Squares `u` can end a movement of `kind` on: within its spaces, counting a diagonal as one,
/// never through an enemy or a wall, ending on an empty square (C-BAT-6b).
/// Where a movement action of `kind` can end (C-BAT-6b; heights and obstacles,
/// [`crate::terrain::destinations`]).
pub fn destinations(s: &State, u: u8, kind: MoveKind) -> Vec<Pos> {
    crate::terrain::destinations(s, u, kind)
}

fn move_kinds(s: &State, u: u8) -> Vec<MoveKind> {
    let a = s.active.as_ref().expect("an activation");
    // C-GL-FLEE: a fleeing character makes no movement of its own.
    if a.moves >= s.options.moves || s.u(u).flee > 0 {
        return Vec::new();
    }
    [MoveKind::Step, MoveKind::Maneuver, MoveKind::Run]
        .into_iter()
        .filter(|k| k.cost() <= s.u(u).endurance && !destinations(s, u, *k).is_empty())
        .collect()
}

// ---------------------------------------------------------------- attacks

/// Whom `u` may attack with its weapon `w`: an enemy on the table within reach, or any distance
/// for a ranged weapon (C-BAT-8).
pub fn targets(s: &State, u: u8, w: usize, special: Special) -> Vec<u8> {
    let Some(from) = s.u(u).at else { return Vec::new() };
    let (r, ranged) = attack_reach(s, u, w, special);
    let wa = crate::abilities::weapon_attack(special);
    if (wa.melee && ranged) || (wa.ranged && !ranged) {
        return Vec::new();
    }
    s.standing()
        .filter(|&t| s.u(t).side != s.u(u).side)
        // Finishing Blow: only a character 2 injuries (or fewer) from defeat.
        .filter(|&t| special != Special::Finishing || s.card(t).stats.tuf - s.u(t).injuries <= 2)
        .filter(|&t| ranged || s.u(t).at.is_some_and(|p| dist(from, p) <= r))
        .collect()
}

/// A weapon attack's reach and whether it is ranged: Throw makes it a ranged attack at the
/// weapon's reach + 3 (C-GL-THROW).
pub fn attack_reach(s: &State, u: u8, w: usize, special: Special) -> (i32, bool) {
    let (r, ranged) = reach(&crate::tactics::strike_weapon(s, u, w as u8, special));
    if special == Special::Throw { (r + 3, true) } else { (r, ranged) }
}

/// What a weapon attack costs: the weapon's EC plus the special attack's Endurance, and its Mana.
pub(crate) fn attack_cost(s: &State, u: u8, w: usize, special: Special) -> Option<(i32, i32)> {
    let wp = &crate::tactics::strike_weapon(s, u, w as u8, special);
    let ec = wp.ec as i32;
    if special == Special::Plain {
        return Some((ec, 0));
    }
    if special == Special::Throw {
        let extra = wp.special.iter().find_map(|x| amount(x, "Throw"))?;
        return Some((ec + extra, 0));
    }
    let (e, m) = ability_cost(s, u, special.name())?;
    Some((e + ec, m))
}

/// The weapon attacks `u` may make now, plain and special: each weapon once per activation
/// unless Multiattack (C-BAT-6c), affordable, with a target.
fn weapons_ready(s: &State, u: u8) -> Vec<(usize, Special)> {
    let a = s.active.as_ref().expect("an activation");
    let card = s.card(u);
    let mut out = Vec::new();
    for w in 0..card.weapons.len() {
        let wp = &card.weapons[w];
        if a.used & (1 << w) != 0 && !has_special(wp, "Multiattack") {
            continue;
        }
        for special in std::iter::once(Special::Plain).chain(Special::ALL.iter().map(|(k, _)| *k)) {
            let Some((e, m)) = attack_cost(s, u, w, special) else { continue };
            let aims = crate::tactics::special_available(s, u, w, special, a.used)
                .unwrap_or_else(|| !targets(s, u, w, special).is_empty());
            if e <= s.u(u).endurance && m <= s.u(u).mana && aims {
                out.push((w, special));
            }
        }
    }
    out
}

/// Whom ability `k` of `u` may pick: an enemy within Comm (Frighten, Check), self or a hurt
/// friend within 4 (Heal), an enemy within an ability attack's reach; the user itself for one it
/// uses on itself or an area around it (offered while the area holds someone).
pub fn ability_targets(s: &State, u: u8, k: Ability) -> Vec<u8> {
    let Some(from) = s.u(u).at else { return Vec::new() };
    if let Some(v) = crate::tactics::targets(s, u, k) {
        return v;
    }
    let side = s.u(u).side;
    let within = |t: u8, r: i32| s.u(t).at.is_some_and(|p| dist(from, p) <= r);
    if let Some(sp) = crate::abilities::spell_of(k) {
        return match sp.shape {
            Shape::One => crate::abilities::spell_targets(s, u, sp),
            Shape::Line(_) if line_directions(s, u, k).is_empty() => Vec::new(),
            Shape::Burst(_) if crate::abilities::spell_victims(s, u, sp, None, (0, 1)).is_empty() => Vec::new(),
            _ => vec![u],
        };
    }
    if let Some(v) = crate::abilities::support_targets(s, u, k) {
        return v;
    }
    match k {
        Ability::Frighten | Ability::Check => {
            let comm = s.card(u).stats.comm;
            s.standing().filter(|&t| s.u(t).side != side && within(t, comm)).collect()
        }
        Ability::Heal => s.standing().filter(|&t| s.u(t).side == side && s.u(t).injuries > 0 && within(t, 4)).collect(),
        _ => vec![u],
    }
}

/// Whether ability `k` is used without picking anyone (on the user or around it).
fn self_only(k: Ability) -> bool {
    match crate::abilities::spell_of(k) {
        Some(sp) => matches!(sp.shape, Shape::Burst(_)),
        None => matches!(
            k,
            Ability::Berserk
                | Ability::Meditate
                | Ability::TapIntoGea
                | Ability::HeatOfBattle
                | Ability::Regenerate
                | Ability::Rally
                | Ability::EpicHeal
                | Ability::Fortune
                | Ability::Persevere
                | Ability::GatherCourage
        ),
    }
}

fn abilities_ready(s: &State, u: u8) -> Vec<Ability> {
    let a = s.active.as_ref().expect("an activation");
    Ability::ALL
        .iter()
        .map(|(k, _)| *k)
        // Once each per activation; Tap into Gea again and again (C-GL-TAP-INTO-GEA).
        .filter(|k| a.abilities & k.bit() == 0 || *k == Ability::TapIntoGea)
        .filter(|k| {
            ability_cost(s, u, k.name()).is_some_and(|(e, m)| e <= s.u(u).endurance && m <= s.u(u).mana)
                && !ability_targets(s, u, *k).is_empty()
        })
        .collect()
}

/// The squares of a straight line attack of `length` from `u` toward `dir`, stopping at a wall
/// (C-GL-LINE-ATTACK, Fray's reading: straight lines only).
pub fn line_squares(s: &State, u: u8, dir: (i8, i8), length: i32) -> Vec<Pos> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    let mut out = Vec::new();
    for i in 1..=length {
        let p = at.offset(i * i32::from(dir.0), i * i32::from(dir.1));
        if !s.open(p) {
            break;
        }
        out.push(p);
    }
    out
}

/// The directions in which line attack `k`'s line holds someone.
pub fn line_directions(s: &State, u: u8, k: Ability) -> Vec<&'static str> {
    let n = match crate::abilities::spell_of(k).map(|sp| sp.shape) {
        Some(Shape::Line(n)) => n,
        _ => return Vec::new(),
    };
    crate::battle::FACINGS
        .iter()
        .filter(|(_, d)| line_squares(s, u, *d, n).iter().any(|&p| s.at(p).is_some()))
        .map(|(n, _)| *n)
        .collect()
}

/// Uses ability attack `k` of `u` on `target` or toward `dir` (C-GL terms, C-BAT-17: each
/// character in an area with its own rolls).
fn use_spell(cx: &mut Cx, u: u8, k: Ability, target: Option<u8>, dir: (i8, i8)) -> Result<(), RuleError> {
    let sp = *crate::abilities::spell_of(k).ok_or_else(|| RuleError::malformed("not an ability attack"))?;
    let (e, m) = start_ability(cx, u, k);
    let uid = cx.s.u(u).id.clone();
    let rid = format!("C-GL-{}", slug(k.name()).to_uppercase());
    let whom = match sp.shape {
        Shape::One => target.map(|t| cx.s.u(t).id.clone()).unwrap_or_default(),
        Shape::Line(n) => format!("a line of {n} toward {}", crate::battle::facing_name(dir)),
        Shape::Burst(r) => format!("everyone within {r}"),
    };
    cx.log(|| format!("{uid} uses {} for {e}E {m}M on {whom} ({rid})", k.name()));
    let victims = crate::abilities::spell_victims(cx.s, u, &sp, target, dir);
    for t in victims {
        if cx.s.u(t).at.is_some() && cx.s.u(u).at.is_some() {
            crate::abilities::spell_hit(cx, u, t, &sp)?;
        }
    }
    after_attack(cx)
}

/// Pays for ability `k` and marks it used.
pub(crate) fn start_ability(cx: &mut Cx, u: u8, k: Ability) -> (i32, i32) {
    let (e, m) = ability_cost(cx.s, u, k.name()).unwrap_or((0, 0));
    pay(cx, u, e);
    cx.s.um(u).mana -= m;
    if let Some(a) = cx.s.active.as_mut() {
        a.abilities |= k.bit();
        a.acted = true;
    }
    cx.counted(&[("power uses", k.name(), 1.0)], String::new);
    (e, m)
}

/// Uses ability `k` of `u` on `t` (C-GL-FRIGHTEN, C-GL-HEAL, C-GL-BERSERK, C-GL-CHECK and the
/// support abilities of [`crate::abilities::use_support`]).
fn use_ability(cx: &mut Cx, u: u8, k: Ability, t: u8) -> Result<(), RuleError> {
    if crate::abilities::spell_of(k).is_some() {
        return use_spell(cx, u, k, Some(t), (0, 1));
    }
    let (e, m) = start_ability(cx, u, k);
    let (uid, tid) = (cx.s.u(u).id.clone(), cx.s.u(t).id.clone());
    match k {
        Ability::Frighten => {
            if fearless(cx.s, t) {
                cx.log(|| format!("{uid} tries to frighten {tid}, who is not afraid: no effect (C-GL-DAUNTLESS)"));
            } else {
                cx.s.um(t).stun += 1;
                cx.log(|| format!("{uid} frightens {tid} for {e}E: stunned (C-GL-FRIGHTEN)"));
            }
        }
        Ability::Heal => {
            cx.s.um(t).injuries -= 1;
            cx.log(|| format!("{uid} heals {tid} for {e}E {m}M: 1 injury recovered (C-GL-HEAL)"));
        }
        Ability::Check => {
            cx.log(|| format!("{uid} uses Check on {tid} for {m}M (C-GL-CHECK)"));
            let (ca, cd) = (cx.s.card(u).stats.comm, cx.s.card(t).stats.comm);
            if fearless(cx.s, t) {
                cx.log(|| format!("{tid} is not afraid: no effect (C-GL-DAUNTLESS)"));
            } else if contest(cx, u, ca, t, cd, "Command")? {
                give_flee(cx, t, Some(u));
            }
        }
        Ability::Berserk => {
            cx.log(|| format!("{uid} goes berserk for {e}E: 1 injury, then Mana (C-GL-BERSERK)"));
            wound(cx, u, 1, None)?;
            if cx.s.u(u).at.is_some() {
                let gain = cx.s.u(u).injuries;
                cx.s.um(u).mana += gain;
                cx.log(|| format!("{uid} gains {gain} Mana"));
            }
        }
        _ => crate::abilities::use_support(cx, u, k, t)?,
    }
    after_attack(cx)
}

/// An ability is chosen with its target, direction or terrain: enemies within 2 may Trip or
/// Distract it first (C-GL-TRIP, C-GL-DISTRACT), else it is used.
pub(crate) fn ability_chosen(
    cx: &mut Cx,
    u: u8,
    k: Ability,
    target: Option<u8>,
    dir: (i8, i8),
    choice: Option<String>,
) -> Result<(), RuleError> {
    let used = crate::battle::Used::Ability { user: u, ability: k, target, dir, choice: choice.clone() };
    if crate::reactions::interrupt(cx, used) {
        return Ok(());
    }
    run_ability(cx, u, k, target, dir, choice)
}

/// Uses ability `k` (paying for it): an ability attack, a terrain ability, or the others.
pub(crate) fn run_ability(
    cx: &mut Cx,
    u: u8,
    k: Ability,
    target: Option<u8>,
    dir: (i8, i8),
    choice: Option<String>,
) -> Result<(), RuleError> {
    if let Some(id) = choice {
        let (e, m) = start_ability(cx, u, k);
        let uid = cx.s.u(u).id.clone();
        let rid = format!("C-GL-{}", slug(k.name()).to_uppercase());
        cx.log(|| format!("{uid} uses {} for {e}E {m}M ({rid})", k.name()));
        if k == Ability::Upheaval {
            crate::terrain::upheaval(cx, u, &id)?;
        } else {
            let p = Pos::parse(&id).ok_or_else(|| RuleError::malformed(format!("{id} is not a square")))?;
            crate::terrain::wreck(cx, u, p)?;
        }
        return after_attack(cx);
    }
    match target {
        Some(t) => use_ability(cx, u, k, t),
        None => use_spell(cx, u, k, None, dir),
    }
}

/// The menu word of weapon slot `w` of `u`'s card: "attack-broad-ax", numbered when two weapons
/// share a name.
fn weapon_word(s: &State, u: u8, w: usize) -> String {
    let weapons = &s.card(u).weapons;
    let base = format!("attack-{}", slug(&weapons[w].name));
    let twins = weapons.iter().filter(|x| x.name == weapons[w].name).count();
    if twins > 1 { format!("{base}-{}", w + 1) } else { base }
}

/// The menu word of a weapon attack: "attack-blade", or the skill's for a special one
/// ("guided-strike-blade").
fn special_word(s: &State, u: u8, w: usize, special: Special) -> String {
    let plain = weapon_word(s, u, w);
    match special {
        Special::Plain => plain,
        k => format!("{}-{}", slug(k.name()), plain.trim_start_matches("attack-")),
    }
}

/// Lower-case words joined by hyphens ("Broad Ax" → "broad-ax").
pub fn slug(name: &str) -> String {
    name.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-")
}

/// Declares an attack: pays its EC (C-BAT-8), then offers the target's reactions.
fn declare(cx: &mut Cx, attacker: u8, target: u8, weapon: u8, special: Special) -> Result<(), RuleError> {
    let w = cx.s.card(attacker).weapons[weapon as usize].clone();
    let (ec, mana) = attack_cost(cx.s, attacker, weapon as usize, special).unwrap_or((w.ec as i32, 0));
    pay(cx, attacker, ec);
    cx.s.um(attacker).mana -= mana;
    let second = crate::tactics::second_slot(cx.s, attacker, weapon, special);
    if let Some(a) = cx.s.active.as_mut() {
        a.used |= 1 << weapon;
        // C-GL-SCISSOR-STRIKE: both weapons are used.
        if let Some(p) = second {
            a.used |= 1 << p;
        }
        a.acted = true;
    }
    let w = crate::tactics::strike_weapon(cx.s, attacker, weapon, special);
    let (aid, tid) = (cx.s.u(attacker).id.clone(), cx.s.u(target).id.clone());
    let how = if special == Special::Plain { String::new() } else { format!(" ({})", special.name()) };
    let power = if special == Special::Plain { w.name.clone() } else { special.name().to_string() };
    cx.counted(&[("power uses", &power, 1.0), ("power attacks", &power, 1.0)], || {
        format!("{aid} attacks {tid} with the {}{how}, paying {ec}E {mana}M (C-BAT-8)", w.name)
    });
    let k = Strike::new(attacker, target, weapon, special);
    // C-GL-TRIP: a special weapon attack may be tripped by an enemy within 2.
    if special != Special::Plain && crate::reactions::interrupt(cx, crate::battle::Used::Attack(k.clone())) {
        return Ok(());
    }
    declared(cx, k)
}

/// A declared weapon attack goes on (no Trip stopped it): Thunder Strike's blast, immunity, then
/// the reactions before the roll.
pub(crate) fn declared(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    let (attacker, target, weapon, special) = (k.attacker, k.target, k.weapon, k.special);
    // C-GL-THUNDER-STRIKE: a radius 1 blast on the target, the user spared.
    if special == Special::Thunder {
        return thunder(cx, attacker, target, weapon);
    }
    // C-GL-CHECKMATE: friends within melee reach of the target may pay their EC first.
    if special == Special::Checkmate && crate::tactics::checkmate_helpers(cx.s, &k).len() >= 2 {
        cx.s.pending = Pending::Checkmate(k);
        return Ok(());
    }
    open_attack(cx, k)
}

/// An attack declared and paid for (or free): immunity to its type voids it (C-GL-IMMUNE),
/// else the reactions before the roll are offered.
pub(crate) fn open_attack(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    let kind = attack_kind(cx.s, k.attacker, k.weapon, k.special);
    if crate::abilities::immune(cx.s, k.target, &kind) {
        let tid = cx.s.u(k.target).id.clone();
        cx.log(|| format!("{tid} is Immune to {kind}: the attack does nothing (C-GL-IMMUNE)"));
        return after_attack(cx);
    }
    crate::reactions::backing_or_roll(cx, k)
}

/// The reactions before the roll that are open against `k` (C-BAT-9): (who, which, E, M). Dodge,
/// Parry (against a melee attack) and Decoy by the target; Look Out by a friend with the target
/// within its Comm; Deflect (against a ranged attack) by the target or such a friend. Each once
/// per attack, affordable, never by a hexed character nor against No Reactions.
pub fn before_roll_reactions(s: &State, k: &Strike) -> Vec<(u8, &'static str, i32, i32)> {
    if !attack_allows_reactions(s, k) {
        return Vec::new();
    }
    let ranged = attack_reach(s, k.attacker, k.weapon as usize, k.special).1;
    let Some(at) = s.u(k.target).at else { return Vec::new() };
    let side = s.u(k.target).side;
    let mut out = Vec::new();
    for r in s.standing().filter(|&r| s.u(r).side == side && s.u(r).hex == 0 && r != k.attacker) {
        let own = r == k.target;
        let near = s.u(r).at.is_some_and(|p| dist(p, at) <= s.card(r).stats.comm);
        for name in crate::battle::BEFORE_ROLL_REACTIONS {
            let open = match name {
                "Dodge" | "Decoy" => own,
                "Parry" => own && !ranged,
                "Look Out" => !own && near,
                // C-GL-CASTLE, C-GL-GOT-YOUR-BACK, C-GL-SIDESTEP: see crate::reactions.
                "Castle" | "Got your Back" | "Sidestep" => crate::reactions::swap_open(s, k, r, name),
                _ => ranged && (own || near),
            };
            if !open || k.reacted & Strike::bit(name) != 0 {
                continue;
            }
            if let Some((e, m)) = ability_cost(s, r, name).filter(|&(e, m)| e <= s.u(r).endurance && m <= s.u(r).mana) {
                out.push((r, name, e, m));
            }
        }
    }
    out
}

/// The option id of reaction `name` by `r` against an attack on `target`.
pub(crate) fn reaction_word(s: &State, r: u8, target: u8, name: &str) -> String {
    if r == target { slug(name) } else { format!("{}-{}", slug(name), s.u(r).id) }
}

/// Offers the reactions before the roll, or rolls.
pub(crate) fn offer_before_roll(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    if cx.s.u(k.target).at.is_none() || cx.s.u(k.attacker).at.is_none() {
        return after_attack(cx);
    }
    if before_roll_reactions(cx.s, &k).is_empty() {
        return roll_to_hit(cx, k);
    }
    cx.s.pending = Pending::BeforeRoll(k);
    Ok(())
}

/// The damage type of a weapon attack: the special attack's, else the weapon's (C-GL-DAMAGE-TYPES).
pub fn attack_kind(s: &State, u: u8, w: u8, special: Special) -> String {
    crate::abilities::weapon_attack(special)
        .kind
        .map_or_else(|| s.card(u).weapons[w as usize].kind.clone(), str::to_string)
}

/// A Thunder Strike (C-GL-THUNDER-STRIKE, C-GL-BLAST-ATTACK): everyone within 1 of the target but
/// the user is attacked with the weapon at Att +1 and Pow +2, Electric, each with its own rolls;
/// a hit drains 1E. No reactions are offered against a blast (simplified, as for other areas).
fn thunder(cx: &mut Cx, u: u8, target: u8, weapon: u8) -> Result<(), RuleError> {
    let Some(centre) = cx.s.u(target).at else { return after_attack(cx) };
    let w = cx.s.card(u).weapons[weapon as usize].clone();
    let victims: Vec<u8> =
        cx.s.standing().filter(|&t| t != u && cx.s.u(t).at.is_some_and(|p| dist(p, centre) <= 1)).collect();
    let uid = cx.s.u(u).id.clone();
    cx.log(|| format!("{uid}'s Thunder Strike bursts around {}: radius 1 (C-GL-THUNDER-STRIKE)", centre.key()));
    for t in victims {
        if cx.s.u(t).at.is_none() || cx.s.u(u).at.is_none() {
            continue;
        }
        if let Some(crits) = weapon_area_hit(cx, u, t, &w, 1, 2, "Electric")?
            && cx.s.u(t).at.is_some()
        {
            let tid = cx.s.u(t).id.clone();
            let f = cx.s.um(t);
            f.endurance = (f.endurance - 1).max(0);
            cx.log(|| format!("{tid} is drained of 1E (C-GL-THUNDER-STRIKE)"));
            crit_riders(cx, u, t, &crits);
        }
    }
    after_attack(cx)
}

/// One character caught by a weapon attack on an area (Thunder Strike's blast, Hyper Cutter's
/// line): immunity to `kind`, the to-hit roll at W-Att + `att`, the injury roll at W-Pow + `pow`
/// with the weapon's crit Pow+X and Injury+X. The crit entries when it hit, `None` on a miss.
pub(crate) fn weapon_area_hit(
    cx: &mut Cx,
    u: u8,
    t: u8,
    w: &CardWeapon,
    att: i32,
    pow: i32,
    kind: &str,
) -> Result<Option<Vec<String>>, RuleError> {
    let tid = cx.s.u(t).id.clone();
    if crate::abilities::immune(cx.s, t, kind) {
        cx.log(|| format!("{tid} is Immune to {kind} (C-GL-IMMUNE)"));
        return Ok(None);
    }
    let att = w_att_of(cx.s, u, w) + att;
    let need = def_of(cx.s, t) + cx.s.options.hit_threshold;
    let n = hit_die(cx, u, t, |n| n == 10 || n + att >= need)?;
    let (hit, crit) = (n == 10 || n + att >= need, n == 10 || (n == 9 && has_special(w, "Sharp")));
    let crit = crit && hit;
    cx.log(|| {
        format!(
            "Against {tid}: {n} + W-Att {att} = {} against {need}: {} (C-BAT-10)",
            n + att,
            if crit {
                "a crit"
            } else if hit {
                "a hit"
            } else {
                "a miss"
            }
        )
    });
    if !hit {
        return Ok(None);
    }
    let crits: Vec<String> = if crit { w.crit.clone() } else { Vec::new() };
    let pow = w.w_pow + pow + crits.iter().filter_map(|c| amount(c, "Pow+")).sum::<i32>();
    let mut hurt = injury_roll(cx, t, pow, 0, kind)?;
    let extra: i32 = crits.iter().filter_map(|c| amount(c, "Injury+")).sum();
    if extra > 0 && (hurt > 0 || cx.s.options.crit_injury == CritInjury::Always) {
        hurt += extra;
    }
    wound(cx, t, hurt, Some(u))?;
    Ok(Some(crits))
}

/// A crit's Stun, Hex and Slay entries on `t` (C-BAT-14).
pub(crate) fn crit_riders(cx: &mut Cx, _u: u8, t: u8, crits: &[String]) {
    let tid = cx.s.u(t).id.clone();
    for c in crits {
        if cx.s.u(t).at.is_none() {
            break;
        }
        if c == "Stun" {
            cx.s.um(t).stun += 1;
            cx.log(|| format!("{tid} is stunned by the crit (C-GL-STUN)"));
        } else if let Some(n) = amount(c, "Hex") {
            cx.s.um(t).hex += n;
            cx.log(|| format!("{tid} gains {n} Hex counters from the crit (C-GL-HEX)"));
        } else if c == "Slay" {
            crate::abilities::slay(cx, t, "slain by a crit (C-GL-SLAY)");
        }
    }
}

/// Whether the target may react: not hexed (C-GL-HEX), not against No Reactions (the weapon's,
/// or a special attack's such as Finishing Blow, Sudden Strike and Snipe).
fn can_react(s: &State, k: &Strike) -> bool {
    attack_allows_reactions(s, k) && s.u(k.target).hex == 0
}

/// Whether anyone may react to the attack at all (C-GL-NO-REACTIONS).
pub(crate) fn attack_allows_reactions(s: &State, k: &Strike) -> bool {
    !crate::abilities::weapon_attack(k.special).no_reactions
        && !has_special(&s.card(k.attacker).weapons[k.weapon as usize], "No Reactions")
}

/// The to-hit roll (C-BAT-10): D10 + W-Att − the ranged penalty against Def + H; a natural 10
/// always hits and crits, a 9 crits with Sharp when it hits.
pub(crate) fn roll_to_hit(cx: &mut Cx, mut k: Strike) -> Result<(), RuleError> {
    // C-GL-PLAN-AHEAD: the attacker's side may use its set-aside die instead of rolling.
    if crate::tactics::planned_die_open(cx.s, &k) {
        cx.s.pending = Pending::PlannedDie(k);
        return Ok(());
    }
    let s = &*cx.s;
    let w = crate::tactics::strike_weapon(s, k.attacker, k.weapon, k.special);
    let (r, ranged) = attack_reach(s, k.attacker, k.weapon as usize, k.special);
    let d = match (s.u(k.attacker).at, s.u(k.target).at) {
        (Some(a), Some(b)) => dist(a, b),
        _ => 0,
    };
    let penalty = if ranged && d > r { (d - r) * s.options.ranged_penalty } else { 0 };
    // C-BAT-COVER: partial cover costs a ranged attack Att, unless it is a Snipe
    // (C-GL-SNIPE) or the weapon ignores partial cover (Unicorn enchantment).
    let covered = ranged && crate::terrain::partial_cover(s, k.attacker, k.target);
    let ignores = k.special == Special::Snipe || has_special(&w, "Ignore Partial Cover");
    let cover = if covered && !ignores { s.options.partial_cover } else { 0 };
    // C-BAT-HEIGHT: attacking from higher ground.
    let high = crate::terrain::high_ground(s, k.attacker, k.target);
    let camouflage = crate::terrain::camouflaged(s, k.attacker, k.target);
    let skill = crate::abilities::weapon_attack(k.special).att;
    // C-GL-TACTICAL-STRIKE: the friends' backing; C-GL-BARRAGE: Att −1 for each hit of the chain so far.
    let att = w_att_of(s, k.attacker, &w) - penalty - cover + high + skill + k.att_bonus - k.extra.chain;
    let def = def_of(s, k.target) + k.def_bonus;
    let need = def + s.options.hit_threshold;
    let unstable = has_special(&w, "Unstable");
    let n = match k.extra.planned.take() {
        Some(n) => n,
        None => hit_die(cx, k.attacker, k.target, |n| n == 10 || (n + att >= need && !(n == 1 && unstable)))?,
    };
    let aid = cx.s.u(k.attacker).id.clone();
    let h = cx.s.options.hit_threshold;
    if n == 1 && has_special(&w, "Unstable") {
        cx.log(|| format!("{aid} rolls a natural 1 with an Unstable weapon and hits itself (C-GL-UNSTABLE)"));
        k.target = k.attacker;
        k.roll = Some(1);
        return land(cx, k);
    }
    let hit = n == 10 || n + att >= need;
    k.crit = n == 10 || (n == 9 && hit && has_special(&w, "Sharp"));
    let backstab = hit && !k.crit && k.special == Special::Backstab && from_rear(cx.s, k.attacker, k.target);
    k.crit |= backstab;
    if backstab {
        cx.log(|| "Backstab: a hit on the rear is a crit (C-GL-BACKSTAB)".to_string());
    }
    k.roll = Some(n as u32);
    cx.log(|| {
        format!(
            "{aid} rolls {n} + W-Att {att}{}{}{}{}{} = {} against Def {def} + {} = {need}: {} (C-BAT-10)",
            if k.extra.chain > 0 { format!(" (Barrage -{}, C-GL-BARRAGE)", k.extra.chain) } else { String::new() },
            if penalty > 0 { format!(" (ranged -{penalty})") } else { String::new() },
            if cover > 0 { format!(" (partial cover -{cover}, C-BAT-COVER)") } else { String::new() },
            if covered && ignores { " (partial cover ignored)".to_string() } else { String::new() },
            if high > 0 { format!(" (higher ground +{high}, C-BAT-HEIGHT)") } else { String::new() },
            n + att,
            h,
            if k.crit {
                "a crit"
            } else if hit {
                "a hit"
            } else {
                "a miss"
            }
        )
    });
    if !hit {
        // C-GL-RETALIATE: a miss causes no injury either.
        if retaliation(cx.s, &k).is_some() {
            cx.s.pending = Pending::Retaliate(k);
            return Ok(());
        }
        return after_attack(cx);
    }
    // C-GL-TOTAL-COVER: a Decoy (C-GL-DECOY), or camouflage from 4 or more spaces away
    // (C-GL-CAMOUFLAGE), makes a hit fail on a D10 of 1 to 6.
    let cover = if k.decoy {
        Some(("'s Decoy:", "C-GL-DECOY"))
    } else if camouflage {
        Some((" is camouflaged 4 or more spaces away:", "C-GL-CAMOUFLAGE"))
    } else {
        None
    };
    if let Some((why, rule)) = cover {
        let n = cx.d10()?;
        let tid = cx.s.u(k.target).id.clone();
        cx.log(|| {
            format!(
                "{tid}{why} the cover roll is {n}{} ({rule}, C-GL-TOTAL-COVER)",
                if n <= 6 { ", the attack fails" } else { ", the hit stands" }
            )
        });
        if n <= 6 {
            return after_attack(cx);
        }
    }
    let power = if k.special == Special::Plain { w.name.clone() } else { k.special.name().to_string() };
    cx.counted(&[("power hits", &power, 1.0)], String::new);
    offer_on_hit(cx, k)
}

/// The on-hit reactions `k`'s target can use now (C-BAT-11): each once per attack, affordable,
/// Power Channel only against Magic or an element, Majesty not against the fearless.
pub fn on_hit_reactions(s: &State, k: &Strike) -> Vec<(&'static str, i32, i32)> {
    if !can_react(s, k) {
        return Vec::new();
    }
    let t = s.u(k.target);
    let kind = attack_kind(s, k.attacker, k.weapon, k.special);
    crate::battle::ON_HIT_REACTIONS
        .iter()
        .filter(|r| k.reacted & Strike::bit(r) == 0)
        .filter(|r| **r != "Power Channel" || kind == "Magic" || crate::abilities::ELEMENTS.contains(&kind.as_str()))
        .filter(|r| **r != "Majesty" || !fearless(s, k.attacker))
        .filter_map(|r| {
            let (e, m) = ability_cost(s, k.target, r)?;
            (e <= t.endurance && m <= t.mana).then_some((*r, e, m))
        })
        .collect()
}

/// Offers the target its on-hit reactions, or lands the hit.
pub(crate) fn offer_on_hit(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    if !on_hit_reactions(cx.s, &k).is_empty() {
        cx.s.pending = Pending::OnHit(k);
        return Ok(());
    }
    land(cx, k)
}

/// The injury roll (C-BAT-12): D10 + Pow − Arm; nothing for a margin of 0 or less, else
/// 1 + (margin − 1) / K injuries.
pub fn injury_roll(cx: &mut Cx, target: u8, pow: i32, arm_bonus: i32, kind: &str) -> Result<i32, RuleError> {
    // C-GL-RESIST-ELEMENTS-2: Arm +2 against the elements it names.
    let arm = arm_of(cx.s, target) + arm_bonus + crate::abilities::resist(cx.s, target, kind);
    let n = cx.d10()? as i32;
    let margin = n + pow - arm;
    let k = cx.s.options.injury_step;
    let hurt = if margin <= 0 { 0 } else { 1 + (margin - 1) / k };
    let tid = cx.s.u(target).id.clone();
    cx.log(|| {
        format!(
            "Injury roll {n} + Pow {pow} - Arm {arm} = margin {margin}: {hurt} injur{} to {tid} (C-BAT-12)",
            if hurt == 1 { "y" } else { "ies" }
        )
    });
    Ok(hurt)
}

/// Adds injuries and checks defeat (C-BAT-15).
pub fn wound(cx: &mut Cx, u: u8, hurt: i32, by: Option<u8>) -> Result<(), RuleError> {
    if hurt <= 0 || cx.s.u(u).at.is_none() {
        return Ok(());
    }
    cx.s.um(u).injuries += hurt;
    // C-GL-PAIN-WARP: injuries to a Pain Warp's user count for its target too.
    if crate::tactics::warp_after_injury(cx, u) {
        return Ok(());
    }
    let (id, inj, tuf) = (cx.s.u(u).id.clone(), cx.s.u(u).injuries, cx.s.card(u).stats.tuf);
    let by_id = by.map(|b| cx.s.u(b).id.clone()).unwrap_or_default();
    let mut counts = vec![("damage taken", id.as_str(), hurt as f64)];
    if by.is_some() {
        counts.push(("damage dealt", by_id.as_str(), hurt as f64));
        if inj >= tuf {
            counts.push(("take outs", by_id.as_str(), 1.0));
        }
    }
    cx.counted(&counts, String::new);
    if inj >= tuf && cx.s.u(u).persevering {
        cx.log(|| format!("{id} has {inj} of {tuf} injuries but perseveres (C-GL-PERSEVERE)"));
        return Ok(());
    }
    if inj >= tuf && cx.s.u(u).clinging {
        cx.log(|| format!("{id} has {inj} of {tuf} injuries but clings to life (C-GL-CLING-TO-LIFE)"));
        return Ok(());
    }
    // C-GL-CLING-TO-LIFE (Fray's reading: used whenever it can be paid and the character may react).
    if inj >= tuf && cx.s.u(u).hex == 0 && cx.s.u(u).mana >= 1 && effect_cost(cx.s, u, "Cling to Life").is_some() {
        let f = cx.s.um(u);
        f.mana -= 1;
        f.clinging = true;
        cx.log(|| format!("{id} would be defeated ({inj} of {tuf}) but clings to life for 1M until its next recovery ends (C-GL-CLING-TO-LIFE)"));
        return Ok(());
    }
    if inj >= tuf {
        defeat(cx, u, &format!("{inj} injuries, Tuf {tuf}"));
        return Ok(());
    }
    cx.log(|| format!("{id} has {inj} of {tuf} injuries"));
    crate::abilities::voodoo(cx, u, by)?;
    if cx.s.u(u).at.is_none() {
        return Ok(());
    }
    // Skittish: each injuring, a D10 of 4 or more makes it flee (C-GL-SKITTISH).
    if effect_cost(cx.s, u, "Skittish").is_some() {
        let n = cx.d10()?;
        cx.log(|| format!("{id} is Skittish and rolls {n} (C-GL-SKITTISH)"));
        if n >= 4 {
            give_flee(cx, u, by);
        }
    }
    Ok(())
}

/// `n` Poison counters on `u` (C-GL-POISON), unless it is Immune to Acid (Poison is Acid).
pub fn give_poison(cx: &mut Cx, u: u8, n: i32) {
    let id = cx.s.u(u).id.clone();
    if crate::abilities::immune(cx.s, u, "Acid") {
        cx.log(|| format!("{id} is Immune to Acid: no Poison (C-GL-IMMUNE)"));
        return;
    }
    cx.s.um(u).poison += n;
    cx.log(|| format!("{id} gains {n} Poison counter(s) (C-GL-POISON)"));
}

/// A character gains a flee token from `from` (C-GL-FLEE), unless Dauntless (C-GL-DAUNTLESS).
pub fn give_flee(cx: &mut Cx, u: u8, from: Option<u8>) {
    let id = cx.s.u(u).id.clone();
    if fearless(cx.s, u) {
        cx.log(|| format!("{id} is not afraid: no Flee (C-GL-DAUNTLESS)"));
        return;
    }
    let f = cx.s.um(u);
    f.flee += 1;
    f.flee_from = from;
    let n = f.flee;
    cx.log(|| format!("{id} flees ({n} flee token(s)) (C-GL-FLEE)"));
}

/// A contest (C-BAT-18): each side rolls D10 + its stat, the higher total wins; a tie goes as
/// the table option says. Whether the initiator won.
pub fn contest(cx: &mut Cx, a: u8, a_stat: i32, d: u8, d_stat: i32, what: &str) -> Result<bool, RuleError> {
    let (ra, rd) = (cx.d10()? as i32, cx.d10()? as i32);
    let (ta, td) = (ra + a_stat, rd + d_stat);
    let won = ta > td || (ta == td && cx.s.options.contest_ties == TieGoesTo::Initiator);
    let (aid, did) = (cx.s.u(a).id.clone(), cx.s.u(d).id.clone());
    cx.log(|| {
        format!(
            "{what} contest: {aid} {ra}+{a_stat}={ta} against {did} {rd}+{d_stat}={td}: {} wins (C-BAT-18)",
            if won { &aid } else { &did }
        )
    });
    Ok(won)
}

/// The forced run of a fleeing character at its recovery (C-GL-FLEE): up to 3E, as far from
/// the cause as a run reaches (toward the nearest edge without one), then a token off.
fn flee_run(cx: &mut Cx, u: u8) {
    let Some(at) = cx.s.u(u).at else { return };
    let from = cx.s.u(u).flee_from.and_then(|f| cx.s.u(f).at);
    let (w, h) = (cx.s.width, cx.s.height);
    let away = |p: Pos| match from {
        Some(f) => dist(p, f),
        None => -(p.x.min(p.y).min(w - 1 - p.x).min(h - 1 - p.y)),
    };
    // As far as it gets, then as straight away as it can (the longest line from the cause).
    let line = |p: Pos| from.map_or(0, |f| (p.x - f.x).pow(2) + (p.y - f.y).pow(2));
    let best = destinations(cx.s, u, MoveKind::Run)
        .into_iter()
        .max_by_key(|&p| (away(p), line(p), std::cmp::Reverse((p.y, p.x))));
    let pay_e = cx.s.u(u).endurance.min(3);
    pay(cx, u, pay_e);
    let id = cx.s.u(u).id.clone();
    let f = cx.s.um(u);
    f.flee -= 1;
    let left = f.flee.max(0) as u32;
    // C-GL-FLEE (Fray's reading): a run that ends on the edge with spaces to spare, or a runner
    // already on the edge with nowhere further to go, runs off the board into next turn's
    // reinforcements, kept off one more turn per token left.
    let on_edge = |p: Pos| p.x == 0 || p.y == 0 || p.x == w - 1 || p.y == h - 1;
    let spaces = 2 * cx.s.card(u).stats.mv;
    let end = best.filter(|&p| away(p) > away(at)).unwrap_or(at);
    if cx.s.options.flee_off_board && on_edge(end) && dist(at, end) < spaces {
        cx.s.um(u).at = Some(end);
        to_reserves(cx, u, left, &format!("it runs off the board from {} for {pay_e}E (C-GL-FLEE)", end.key()));
        return;
    }
    let f = cx.s.um(u);
    if let Some(p) = best.filter(|&p| away(p) > away(at)) {
        f.facing = ((p.x - at.x).signum() as i8, (p.y - at.y).signum() as i8);
        f.at = Some(p);
        cx.log(|| {
            format!(
                "{id} runs in fear from {} to {} for {pay_e}E and drops a flee token (C-GL-FLEE)",
                at.key(),
                p.key()
            )
        });
    } else {
        cx.log(|| format!("{id} has nowhere further to run, spends {pay_e}E and drops a flee token (C-GL-FLEE)"));
    }
}

/// Defeats `u` and takes it off the table (C-BAT-15).
pub fn defeat(cx: &mut Cx, u: u8, why: &str) {
    let id = cx.s.u(u).id.clone();
    let f = cx.s.um(u);
    f.defeated = true;
    f.at = None;
    cx.counted(&[("taken out", &id, 1.0)], || format!("{id} is defeated: {why} (C-BAT-15)"));
}

/// A hit lands: the injury roll with the crit's Pow+X and Injury+X, then On Injury, On Hit and
/// the crit's riders (C-BAT-12 to C-BAT-15), with the special attack's own effects.
pub(crate) fn land(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    let w = crate::tactics::strike_weapon(cx.s, k.attacker, k.weapon, k.special);
    let wa = crate::abilities::weapon_attack(k.special);
    let kind = attack_kind(cx.s, k.attacker, k.weapon, k.special);
    let crits: Vec<String> = if k.crit { w.crit.clone() } else { Vec::new() };
    let pow_bonus: i32 =
        crits.iter().filter_map(|c| amount(c, "Pow+")).sum::<i32>() + if k.crit { wa.crit_pow } else { 0 };
    let extra: i32 = crits.iter().filter_map(|c| amount(c, "Injury+")).sum();
    let tid = cx.s.u(k.target).id.clone();
    // C-GL-RIP-AROUND: the hit turns the target (Fray: its back to the attacker) and drains 2E
    // before the attack goes on.
    if k.special == Special::RipAround
        && let (Some(a), Some(t)) = (cx.s.u(k.attacker).at, cx.s.u(k.target).at)
    {
        let f = cx.s.um(k.target);
        f.facing = ((t.x - a.x).signum() as i8, (t.y - a.y).signum() as i8);
        f.endurance = (f.endurance - 2).max(0);
        let face = crate::battle::facing_name(f.facing);
        cx.log(|| format!("{tid} is spun round to face {face} and drained of 2E (C-GL-RIP-AROUND)"));
    }
    // C-GL-SMITE: W-Pow + Comm.
    let smite = if k.special == Special::Smite { cx.s.card(k.attacker).stats.comm } else { 0 };
    // C-GL-MAGE-ARMOR: Arm counts as the set value for this hit.
    let arm_bonus = match k.arm_set {
        Some(v) => v - arm_of(cx.s, k.target) - crate::abilities::resist(cx.s, k.target, &kind),
        None => k.arm_bonus,
    };
    let pow = w.w_pow + pow_bonus + wa.pow + smite + k.pow_bonus;
    let mut hurt = injury_roll(cx, k.target, pow, arm_bonus, &kind)?;
    if extra > 0 && (hurt > 0 || cx.s.options.crit_injury == CritInjury::Always) {
        hurt += extra;
        cx.log(|| format!("The crit adds {extra} injur{} (Injury+{extra})", if extra == 1 { "y" } else { "ies" }));
    }
    if k.cap_one && hurt > 1 {
        hurt = 1;
        cx.log(|| format!("{tid}'s Adamant Form holds it to 1 injury (C-GL-ADAMANT-FORM)"));
    }
    // C-GL-SMITE: never defeats: one short of defeat, and stunned.
    if k.special == Special::Smite {
        let left = cx.s.card(k.target).stats.tuf - cx.s.u(k.target).injuries;
        if hurt >= left {
            hurt = (left - 1).max(0);
            cx.s.um(k.target).stun += 1;
            cx.log(|| format!("The Smite cannot defeat: {tid} is left one injury short and stunned (C-GL-SMITE)"));
        }
    }
    // C-GL-SHRUG: exactly one injury may be shrugged off.
    if hurt == 1
        && can_react(cx.s, &k)
        && effect_cost(cx.s, k.target, "Shrug").is_some_and(|c| c <= cx.s.u(k.target).endurance)
    {
        cx.s.pending = Pending::Shrug(k, hurt);
        return Ok(());
    }
    land_injuries(cx, k, hurt)
}

/// The rest of a landed hit once its injuries are known: the injuries, On Injury, On Hit, the
/// special attack's own effects, the crit's riders, then Shrieking Armor and Retaliate.
fn land_injuries(cx: &mut Cx, k: Strike, hurt: i32) -> Result<(), RuleError> {
    let w = crate::tactics::strike_weapon(cx.s, k.attacker, k.weapon, k.special);
    // C-GL-BARRAGE, C-GL-BUCK-SHOT: a hit may earn a follow-up once the attack is over.
    crate::tactics::note_hit(cx.s, &k);
    let crits: Vec<String> = if k.crit { w.crit.clone() } else { Vec::new() };
    let tid = cx.s.u(k.target).id.clone();
    wound(cx, k.target, hurt, Some(k.attacker))?;
    let standing = cx.s.u(k.target).at.is_some();
    // On Injury (C-BAT-14): needs at least one injury.
    if hurt > 0 {
        for sp in &w.special {
            if let Some(rest) = sp.strip_prefix("On Injury: ") {
                on_effect(cx, &k, rest, standing);
            }
        }
        if effect_cost(cx.s, k.attacker, "Vicious").is_some() {
            cx.s.um(k.attacker).mana += 1;
            let aid = cx.s.u(k.attacker).id.clone();
            cx.log(|| format!("{aid} gains 1 Mana for injuring (C-GL-VICIOUS)"));
        }
    }
    // On Hit, even with no injury (C-BAT-14).
    for sp in &w.special {
        if let Some(rest) = sp.strip_prefix("On Hit: ") {
            on_effect(cx, &k, rest, standing);
        }
    }
    // The special attack's own On Hit: Finishing Blow slays (unless Immune to Slay).
    if k.special == Special::Finishing
        && standing
        && crate::abilities::slay(cx, k.target, "a Finishing Blow slays (C-GL-FINISHING-BLOW)")
    {
        return after_attack(cx);
    }
    // C-GL-CHECKMATE: with two friends paid, On Hit Slay.
    if k.extra.helpers.len() >= 2
        && cx.s.u(k.target).at.is_some()
        && crate::abilities::slay(cx, k.target, "the Checkmate slays (C-GL-CHECKMATE)")
    {
        return after_attack(cx);
    }
    match k.special {
        Special::Gouge if standing => {
            let n = if k.crit { 3 } else { 1 };
            cx.s.um(k.target).hex += n;
            cx.log(|| format!("{tid} gains {n} Hex counter(s) from Gouge (C-GL-GOUGE)"));
        }
        Special::Chilling if standing => {
            let n = cx.s.card(k.attacker).stats.spow;
            let f = cx.s.um(k.target);
            f.endurance = (f.endurance - n).max(0);
            cx.log(|| format!("{tid} is chilled: drained of {n}E, the user's S-Pow (C-GL-CHILLING-STRIKE)"));
        }
        _ => {}
    }
    // Crit riders.
    if cx.s.u(k.target).at.is_some() {
        crit_riders(cx, k.attacker, k.target, &crits);
    }
    // C-GL-SHRIEKING-ARMOR: a melee hit on it.
    if k.target != k.attacker && !attack_reach(cx.s, k.attacker, k.weapon as usize, k.special).1 {
        crate::abilities::shrieking_armor(cx, k.target, k.attacker)?;
    }
    if hurt == 0 && retaliation(cx.s, &k).is_some() {
        cx.s.pending = Pending::Retaliate(k);
        return Ok(());
    }
    after_attack(cx)
}

/// The weapon slot `k`'s target may Retaliate with (C-GL-RETALIATE): the attack caused no injury,
/// it is not itself a free strike, both stand, the target may react and pay, and one of its melee
/// weapons reaches the attacker.
pub fn retaliation(s: &State, k: &Strike) -> Option<usize> {
    if k.free || k.target == k.attacker || !can_react(s, k) {
        return None;
    }
    let (a, t) = (s.u(k.attacker).at?, s.u(k.target).at?);
    effect_cost(s, k.target, "Retaliate").filter(|&c| c <= s.u(k.target).endurance)?;
    (0..s.card(k.target).weapons.len()).find(|&w| {
        let (r, ranged) = reach(&s.card(k.target).weapons[w]);
        !ranged && dist(a, t) <= r
    })
}

/// An On Hit or On Injury entry of a weapon.
fn on_effect(cx: &mut Cx, k: &Strike, what: &str, standing: bool) {
    let tid = cx.s.u(k.target).id.clone();
    let aid = cx.s.u(k.attacker).id.clone();
    if let Some(n) = amount(what, "Hex") {
        if standing {
            cx.s.um(k.target).hex += n;
            cx.log(|| format!("{tid} gains {n} Hex counter (C-GL-HEX)"));
        }
    } else if let Some(n) = amount(what, "Poison") {
        if standing {
            give_poison(cx, k.target, n);
        }
    } else if what.starts_with("Flee") {
        if standing {
            give_flee(cx, k.target, Some(k.attacker));
        }
    } else if what == "Stun" {
        if standing {
            cx.s.um(k.target).stun += 1;
            cx.log(|| format!("{tid} is stunned (C-GL-STUN)"));
        }
    } else if what.starts_with("Drain") {
        let n = amount(what, "Drain").unwrap_or(1);
        let f = cx.s.um(k.target);
        if what.contains("Mana") {
            f.mana = (f.mana - n).max(0);
        } else {
            f.endurance = (f.endurance - n).max(0);
        }
        cx.log(|| format!("{tid} is drained: {what} (C-GL-DRAIN)"));
    } else if what.starts_with("Recover") {
        let f = cx.s.um(k.attacker);
        f.injuries = (f.injuries - 1).max(0);
        cx.log(|| format!("{aid} recovers 1 injury (C-GL-VAMPIRIC)"));
    } else {
        cx.log(|| format!("{what}: not played yet (docs/rulings/collision.md)"));
    }
}

pub(crate) fn after_attack(cx: &mut Cx) -> Result<(), RuleError> {
    if check_victory(cx) {
        return Ok(());
    }
    // C-BAT-16: a follow-up the last hit earned (C-GL-BARRAGE, C-GL-BUCK-SHOT).
    if crate::tactics::follow_up(cx) {
        return Ok(());
    }
    match &cx.s.active {
        Some(a) if cx.s.u(a.unit).at.is_some() => {
            cx.s.pending = Pending::Menu;
            Ok(())
        }
        _ => end_activation(cx),
    }
}

// ---------------------------------------------------------------- decisions

/// The pending decision, with every option.
pub fn decision(s: &State) -> Option<Decision> {
    let ask = |seat: u8, unit: Option<String>, kind: &str, prompt: String, options: Vec<DecisionOption>| {
        Some(Decision { seat: SIDES[seat as usize].into(), unit, kind: kind.into(), prompt, options })
    };
    if crate::tactics::is_mine(&s.pending) {
        return crate::tactics::decision(s);
    }
    match &s.pending {
        Pending::Over => None,
        Pending::Backing(_) | Pending::Interrupt(_) | Pending::CounterAttack(_) | Pending::Kiss(_) => {
            crate::reactions::question(s)
        }
        Pending::Activate(side) => {
            // C-BAT-4: the cards of the phase being played, and a Meteor card due (C-GL-METEOR).
            let options = s
                .standing()
                .filter(|&u| s.u(u).side == *side && !s.u(u).activated && crate::tactics::in_phase(s, u))
                .map(|u| DecisionOption::new(s.u(u).id.clone(), format!("activate {}", s.card(u).name)))
                .chain(crate::tactics::meteor_option(s, *side))
                .collect();
            ask(*side, None, "activate", format!("Turn {}: which character activates?", s.turn), options)
        }
        Pending::Menu => {
            let a = s.active.as_ref()?;
            let u = a.unit;
            let x = s.u(u);
            let mut options = Vec::new();
            for k in move_kinds(s, u) {
                options.push(DecisionOption::new(k.word(), format!("{} ({}E)", k.word(), k.cost())));
            }
            for (w, special) in weapons_ready(s, u) {
                let wp = &s.card(u).weapons[w];
                let (e, m) = attack_cost(s, u, w, special).unwrap_or_default();
                let id = special_word(s, u, w, special);
                let what = if special == Special::Plain { "attack".to_string() } else { special.name().to_string() };
                options.push(DecisionOption::new(id, format!("{what} with the {} ({e}E {m}M)", wp.name)));
            }
            for k in abilities_ready(s, u) {
                let (e, m) = ability_cost(s, u, k.name()).unwrap_or_default();
                options.push(DecisionOption::new(slug(k.name()), format!("{} ({e}E {m}M)", k.name())));
            }
            if !a.acted && a.moves == 0 {
                options.push(DecisionOption::new("hold", "hold: do nothing, recover more Endurance"));
            }
            options.push(DecisionOption::new("end", "end the activation"));
            ask(x.side, Some(x.id.clone()), "action", format!("{} has {}E: what now?", x.id, x.endurance), options)
        }
        Pending::Square(kind) => {
            let u = s.active.as_ref()?.unit;
            let options = destinations(s, u, *kind).into_iter().map(|p| DecisionOption::square(p, p.key())).collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "square", format!("{} to where?", kind.word()), options)
        }
        Pending::Direction(k) => {
            let u = s.active.as_ref()?.unit;
            let options = line_directions(s, u, *k)
                .into_iter()
                .map(|d| DecisionOption::new(d, format!("{} toward {d}", k.name())))
                .collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "direction", format!("{} which way?", k.name()), options)
        }
        Pending::Terrain(k) => {
            let u = s.active.as_ref()?.unit;
            let options = match k {
                Ability::Upheaval => crate::terrain::upheaval_pieces(s, u)
                    .into_iter()
                    .map(|(id, what)| DecisionOption::new(id, what))
                    .collect(),
                _ => crate::terrain::wreck_squares(s, u)
                    .into_iter()
                    .map(|p| DecisionOption::square(p, p.key()))
                    .collect(),
            };
            ask(s.u(u).side, Some(s.u(u).id.clone()), "square", format!("{} where?", k.name()), options)
        }
        Pending::AbilityTarget(k) => {
            let u = s.active.as_ref()?.unit;
            let options = ability_targets(s, u, *k)
                .into_iter()
                .map(|t| DecisionOption::new(s.u(t).id.clone(), format!("{} {}", k.name(), s.card(t).name)))
                .collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "target", format!("{} whom?", k.name()), options)
        }
        Pending::Target(w, special) => {
            let u = s.active.as_ref()?.unit;
            let options = targets(s, u, *w as usize, *special)
                .into_iter()
                .map(|t| DecisionOption::new(s.u(t).id.clone(), format!("attack {}", s.card(t).name)))
                .collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "target", "attack whom?".into(), options)
        }
        Pending::BeforeRoll(k) => {
            let t = s.u(k.target);
            let mut options = Vec::new();
            for (word, r, name, e, m, aim) in crate::reactions::before_roll_options(s, k) {
                let what = match name {
                    "Dodge" => "Def +2 against this attack".to_string(),
                    "Parry" => "an Att contest; a win cancels this melee attack".to_string(),
                    "Decoy" => "total cover: a hit fails on a D10 of 1 to 6".to_string(),
                    "Look Out" => "Def +2 and Arm +1 against this attack".to_string(),
                    "Castle" | "Got your Back" | "Sidestep" => crate::reactions::swap_text(s, k, r, name, aim),
                    _ => "an S-Pow contest; a win cancels this ranged attack".to_string(),
                };
                let by = if r == k.target { String::new() } else { format!(" by {}", s.u(r).id) };
                options.push(DecisionOption::new(word, format!("{name}{by}: {what} ({e}E {m}M)")));
            }
            options.push(DecisionOption::new("pass", "no reaction"));
            ask(t.side, Some(t.id.clone()), "reaction", format!("{} is attacked: react?", t.id), options)
        }
        Pending::Shrug(k, _) => {
            let t = s.u(k.target);
            let c = effect_cost(s, k.target, "Shrug").unwrap_or(1);
            let options = vec![
                DecisionOption::new("shrug", format!("Shrug: ignore this one injury ({c}E)")),
                DecisionOption::new("pass", "take the injury"),
            ];
            ask(t.side, Some(t.id.clone()), "reaction", format!("{} takes exactly 1 injury: react?", t.id), options)
        }
        Pending::Retaliate(k) => {
            let t = s.u(k.target);
            let c = effect_cost(s, k.target, "Retaliate").unwrap_or(1);
            let w = retaliation(s, k).map(|w| s.card(k.target).weapons[w].name.clone()).unwrap_or_default();
            let options = vec![
                DecisionOption::new(
                    "retaliate",
                    format!("Retaliate: turn and strike {} with the {w}, no EC ({c}E)", s.u(k.attacker).id),
                ),
                DecisionOption::new("pass", "no reaction"),
            ];
            ask(t.side, Some(t.id.clone()), "reaction", format!("{} was not injured: react?", t.id), options)
        }
        Pending::OnHit(k) => {
            let t = s.u(k.target);
            let mut options = Vec::new();
            for (name, e, m) in on_hit_reactions(s, k) {
                let what = match name {
                    "Block 2" => "Arm +2 against this hit",
                    "Block 4" => "Arm +4 against this hit",
                    "Mage Armor" => "Arm counts as 8 against this hit",
                    "Power Channel" => "Arm +4 against this hit and 1 Mana",
                    "Adamant Form" => "this hit deals 1 injury at most",
                    "Contort" => "cancel this hit",
                    "Shadow Hop" => "ignore this hit and go to the reserves",
                    _ => "the attacker rolls again",
                };
                options.push(DecisionOption::new(slug(name), format!("{name}: {what} ({e}E {m}M)")));
            }
            options.push(DecisionOption::new("pass", "no reaction"));
            ask(t.side, Some(t.id.clone()), "reaction", format!("{} is hit: react?", t.id), options)
        }
        Pending::ExtraMove(..)
        | Pending::PlannedDie(_)
        | Pending::Barrage(..)
        | Pending::BuckShot(..)
        | Pending::Checkmate(_)
        | Pending::WeaponLine(..)
        | Pending::MeteorSquare
        | Pending::OutManeuver(_)
        | Pending::Role(_) => crate::tactics::decision(s),
    }
}

/// Answers the pending decision with option `id` (which [`decision`] offered).
pub fn answer(cx: &mut Cx, id: &str) -> Result<(), RuleError> {
    let d = decision(cx.s).ok_or_else(|| RuleError::malformed("the battle is over"))?;
    if !d.allows(id) {
        return Err(fray_core::answer::not_an_option(id, &d.kind, d.options.iter().map(|o| o.id.as_str())));
    }
    if crate::tactics::is_mine(&cx.s.pending) {
        return crate::tactics::answer(cx, id);
    }
    match cx.s.pending.clone() {
        Pending::Over => Err(RuleError::malformed("the battle is over")),
        Pending::Activate(side) => {
            // C-GL-METEOR's card; C-GL-OUT-MANEUVER before the activation.
            if crate::tactics::on_activate(cx, side, id)? {
                return Ok(());
            }
            let u = cx.s.find(id).ok_or_else(|| RuleError::malformed(format!("no character {id}")))?;
            activate(cx, u)
        }
        Pending::Menu => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            match id {
                "end" => end_activation(cx),
                "hold" => {
                    cx.s.um(u).held = true;
                    let uid = cx.s.u(u).id.clone();
                    cx.log(|| format!("{uid} holds (C-BAT-6d)"));
                    end_activation(cx)
                }
                "step" => {
                    cx.s.pending = Pending::Square(MoveKind::Step);
                    Ok(())
                }
                "maneuver" => {
                    cx.s.pending = Pending::Square(MoveKind::Maneuver);
                    Ok(())
                }
                "run" => {
                    cx.s.pending = Pending::Square(MoveKind::Run);
                    Ok(())
                }
                _ => {
                    if let Some((k, _)) = Ability::ALL.iter().find(|(_, n)| slug(n) == id) {
                        if crate::tactics::owns(*k) {
                            return crate::tactics::start(cx, u, *k);
                        }
                        if matches!(k, Ability::Wreck | Ability::Upheaval) {
                            cx.s.pending = Pending::Terrain(*k);
                            return Ok(());
                        }
                        if matches!(crate::abilities::spell_of(*k).map(|sp| sp.shape), Some(Shape::Line(_))) {
                            cx.s.pending = Pending::Direction(*k);
                            return Ok(());
                        }
                        if self_only(*k) {
                            let target = crate::abilities::spell_of(*k).is_none().then_some(u);
                            return ability_chosen(cx, u, *k, target, (0, 1), None);
                        }
                        cx.s.pending = Pending::AbilityTarget(*k);
                        return Ok(());
                    }
                    let found = weapons_ready(cx.s, u).into_iter().find(|&(w, k)| special_word(cx.s, u, w, k) == id);
                    let (w, special) = found.ok_or_else(|| RuleError::malformed(format!("{id}: no such attack")))?;
                    // C-GL-HYPER-CUTTER: a line, so a direction rather than a target.
                    if special == Special::HyperCutter {
                        cx.s.pending = Pending::WeaponLine(w as u8, special);
                        return Ok(());
                    }
                    cx.s.pending = Pending::Target(w as u8, special);
                    Ok(())
                }
            }
        }
        Pending::Square(kind) => {
            let p = Pos::parse(id).ok_or_else(|| RuleError::malformed(format!("{id} is not a square")))?;
            let a = cx.s.active.as_mut().ok_or_else(|| RuleError::malformed("no activation"))?;
            a.moves += 1;
            a.acted = true;
            let u = a.unit;
            pay(cx, u, kind.cost());
            // C-GL-CHALLENGE, C-GL-COUNTER-ATTACK: the move goes square by square.
            crate::reactions::start_walk(cx, u, kind, p)
        }
        Pending::Target(w, special) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let t = cx.s.find(id).ok_or_else(|| RuleError::malformed(format!("no character {id}")))?;
            declare(cx, u, t, w, special)
        }
        Pending::Direction(k) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let dir = crate::battle::FACINGS.iter().find(|(n, _)| *n == id).map(|(_, d)| *d).unwrap_or((0, 1));
            ability_chosen(cx, u, k, None, dir, None)
        }
        Pending::Terrain(k) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            if k != Ability::Upheaval && Pos::parse(id).is_none() {
                return Err(RuleError::malformed(format!("{id} is not a square")));
            }
            ability_chosen(cx, u, k, None, (0, 1), Some(id.to_string()))
        }
        Pending::AbilityTarget(k) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let t = cx.s.find(id).ok_or_else(|| RuleError::malformed(format!("no character {id}")))?;
            ability_chosen(cx, u, k, Some(t), (0, 1), None)
        }
        Pending::Backing(_) | Pending::Interrupt(_) | Pending::CounterAttack(_) | Pending::Kiss(_) => {
            crate::reactions::answer(cx, id)
        }
        Pending::BeforeRoll(mut k) => {
            if id == "pass" {
                return roll_to_hit(cx, k);
            }
            let (_, r, name, e, m, aim) = crate::reactions::before_roll_options(cx.s, &k)
                .into_iter()
                .find(|o| o.0 == id)
                .ok_or_else(|| RuleError::malformed(format!("{id}: no such reaction")))?;
            pay(cx, r, e);
            cx.s.um(r).mana -= m;
            k.reacted |= Strike::bit(name);
            // C-GL-DISTRACT: an enemy within 2 may negate the reaction.
            if crate::reactions::interrupt(cx, crate::battle::Used::BeforeRoll(k.clone(), r, name, aim)) {
                return Ok(());
            }
            before_roll_reaction(cx, k, r, name, aim)
        }
        Pending::Shrug(k, hurt) => {
            let mut hurt = hurt;
            if id == "shrug" {
                let c = effect_cost(cx.s, k.target, "Shrug").unwrap_or(1);
                pay(cx, k.target, c);
                hurt = 0;
                let tid = cx.s.u(k.target).id.clone();
                cx.log(|| format!("{tid} shrugs off the injury, {c}E (C-GL-SHRUG)"));
            }
            land_injuries(cx, k, hurt)
        }
        Pending::Retaliate(k) => {
            let Some(w) = retaliation(cx.s, &k).filter(|_| id == "retaliate") else { return after_attack(cx) };
            let c = effect_cost(cx.s, k.target, "Retaliate").unwrap_or(1);
            pay(cx, k.target, c);
            let (t, a) = (k.target, k.attacker);
            if let (Some(p), Some(q)) = (cx.s.u(t).at, cx.s.u(a).at) {
                cx.s.um(t).facing = ((q.x - p.x).signum() as i8, (q.y - p.y).signum() as i8);
            }
            let (tid, aid) = (cx.s.u(t).id.clone(), cx.s.u(a).id.clone());
            let wn = cx.s.card(t).weapons[w].name.clone();
            cx.log(|| {
                format!("{tid} turns and retaliates against {aid} with the {wn}, {c}E and no EC (C-GL-RETALIATE)")
            });
            let mut strike = Strike::new(t, a, w as u8, Special::Plain);
            strike.free = true;
            open_attack(cx, strike)
        }
        Pending::OnHit(mut k) => {
            if id == "pass" {
                return land(cx, k);
            }
            let (name, e, m) = on_hit_reactions(cx.s, &k)
                .into_iter()
                .find(|(n, _, _)| slug(n) == id)
                .ok_or_else(|| RuleError::malformed(format!("{id}: no such reaction")))?;
            pay(cx, k.target, e);
            cx.s.um(k.target).mana -= m;
            k.reacted |= Strike::bit(name);
            // C-GL-DISTRACT: an enemy within 2 may negate the reaction.
            if crate::reactions::interrupt(cx, crate::battle::Used::OnHit(k.clone(), name)) {
                return Ok(());
            }
            on_hit_reaction(cx, k, name)
        }
        Pending::ExtraMove(..)
        | Pending::PlannedDie(_)
        | Pending::Barrage(..)
        | Pending::BuckShot(..)
        | Pending::Checkmate(_)
        | Pending::WeaponLine(..)
        | Pending::MeteorSquare
        | Pending::OutManeuver(_)
        | Pending::Role(_) => crate::tactics::answer(cx, id),
    }
}

/// An on-hit reaction takes effect (C-BAT-11), then the others are offered again.
pub(crate) fn on_hit_reaction(cx: &mut Cx, mut k: Strike, name: &'static str) -> Result<(), RuleError> {
    let (e, _) = ability_cost(cx.s, k.target, name).unwrap_or_default();
    let tid = cx.s.u(k.target).id.clone();
    let rid = format!("C-GL-{}", slug(name).to_uppercase());
    match name {
        "Block 2" | "Block 4" => {
            let bonus = if name == "Block 2" { 2 } else { 4 };
            k.arm_bonus += bonus;
            cx.log(|| format!("{tid} blocks: Arm +{bonus} against this hit, {e}E ({rid})"));
        }
        "Mage Armor" => {
            k.arm_set = Some(
                8 - cx.s.options.injury_armour * cx.s.u(k.target).injuries * i32::from(cx.s.options.mage_armor_penalty),
            );
            cx.log(|| {
                format!("{tid} raises Mage Armor: Arm counts as {} for this hit ({rid})", k.arm_set.unwrap_or(8))
            });
        }
        "Power Channel" => {
            k.arm_bonus += 4;
            let cap = cx.s.card(k.target).stats.mana;
            let f = cx.s.um(k.target);
            f.mana = (f.mana + 1).min(cap.max(f.mana));
            cx.log(|| format!("{tid} channels the power: Arm +4 for this hit and 1 Mana ({rid})"));
        }
        "Adamant Form" => {
            k.cap_one = true;
            cx.log(|| format!("{tid} takes Adamant Form: 1 injury at most from this hit ({rid})"));
        }
        "Contort" => {
            cx.log(|| format!("{tid} contorts: the hit is cancelled ({rid})"));
            return after_attack(cx);
        }
        "Shadow Hop" => {
            cx.log(|| format!("{tid} hops into the shadows: the hit is ignored ({rid})"));
            to_reserves(cx, k.target, 0, "Shadow Hop (C-GL-SHADOW-HOP)");
            return after_attack(cx);
        }
        _ => {
            cx.log(|| format!("{tid}'s Majesty: the attacker must roll again ({rid})"));
            return roll_to_hit(cx, k);
        }
    }
    offer_on_hit(cx, k)
}

/// A before-roll reaction takes effect (C-BAT-9), then the others are offered again.
pub(crate) fn before_roll_reaction(
    cx: &mut Cx,
    mut k: Strike,
    r: u8,
    name: &'static str,
    aim: crate::battle::Aim,
) -> Result<(), RuleError> {
    let (e, m) = ability_cost(cx.s, r, name).unwrap_or_default();
    let rid = cx.s.u(r).id.clone();
    let tag = format!("C-GL-{}", slug(name).to_uppercase());
    match name {
        "Dodge" => {
            k.def_bonus += 2;
            cx.log(|| format!("{rid} dodges: Def +2 against this attack, {e}E ({tag})"));
        }
        "Look Out" => {
            k.def_bonus += 2;
            k.arm_bonus += 1;
            cx.log(|| format!("{rid} calls a warning: Def +2 and Arm +1 against this attack, {m}M ({tag})"));
        }
        "Decoy" => {
            k.decoy = true;
            cx.log(|| format!("{rid} sets a decoy: total cover against this attack, {m}M ({tag})"));
        }
        "Castle" | "Got your Back" | "Sidestep" => return crate::reactions::swap(cx, k, r, name, aim),
        _ => {
            // Parry (Att) and Deflect (S-Pow): a contest the reacting character starts.
            let (stat, what) = if name == "Parry" { ("Att", "parries") } else { ("S-Pow", "deflects") };
            let st = |u: u8| if name == "Parry" { att_of(cx.s, u) } else { cx.s.card(u).stats.spow };
            let (rs, as_) = (st(r), st(k.attacker));
            cx.log(|| {
                format!(
                    "{rid} tries to {} the attack, {e}E {m}M ({tag})",
                    if name == "Parry" { "parry" } else { "deflect" }
                )
            });
            if contest(cx, r, rs, k.attacker, as_, stat)? {
                cx.log(|| format!("{rid} {what}: the attack is cancelled ({tag})"));
                return after_attack(cx);
            }
        }
    }
    offer_before_roll(cx, k)
}

pub(crate) fn pay(cx: &mut Cx, u: u8, e: i32) {
    let f = cx.s.um(u);
    f.endurance -= e;
    f.spent += e;
}
