//! The battle's rules: the turn and activations (C-BAT-4, C-BAT-6), movement (C-BAT-6b),
//! weapon attacks with the to-hit and injury rolls (C-BAT-8 to C-BAT-16), reactions (Dodge,
//! Block), recovery (C-BAT-7) and the end of the battle (C-BAT-22).

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
    fn log(&mut self, text: impl FnOnce() -> String) {
        if self.out.keeps() {
            self.out.push(Event { text: text(), counts: Vec::new() });
        }
    }
    /// A journal line that also carries figures for the simulator (pushed even when the journal
    /// is not kept, without its text).
    fn counted(&mut self, counts: &[(&str, &str, f64)], text: impl FnOnce() -> String) {
        let text = if self.out.keeps() { text() } else { String::new() };
        // A kept journal gets no empty lines: its figures only matter to the simulator, which
        // keeps none.
        if self.out.keeps() && text.is_empty() {
            return;
        }
        let counts = counts.iter().map(|(c, k, n)| (c.to_string(), k.to_string(), *n)).collect();
        self.out.push(Event { text, counts });
    }
    fn d10(&mut self) -> Result<u32, RuleError> {
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

/// Arm now: the card's, less the injury penalty (C-BAT-13).
pub fn arm_of(s: &State, u: u8) -> i32 {
    s.card(u).stats.arm - s.options.injury_armour * s.u(u).injuries
}

/// W-Att now: the card's, less 2 while hexed (C-GL-HEX).
pub fn w_att_of(s: &State, u: u8, w: &CardWeapon) -> i32 {
    w.w_att - if s.u(u).hex > 0 { 2 } else { 0 }
}

fn dist(a: Pos, b: Pos) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

// ---------------------------------------------------------------- the turn

/// Starts the battle: the roll-off for the turn order (C-BAT-2), then the first pick.
pub fn begin(cx: &mut Cx) -> Result<(), RuleError> {
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
    cx.s.turn = 1;
    cx.counted(&[("match", "rounds", 1.0)], || "Turn 1 begins".into());
    cx.s.next_side = cx.s.first;
    next_pick(cx)
}

fn ready(s: &State, side: u8) -> bool {
    s.units.iter().any(|x| x.side == side && x.at.is_some() && !x.activated)
}

/// After an activation, or at the start: the next side to pick, or the end of the turn
/// (C-BAT-4: sides alternate, a side with nobody left to activate passes).
fn next_pick(cx: &mut Cx) -> Result<(), RuleError> {
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
    cx.s.next_side = cx.s.first;
    next_pick(cx)
}

/// A side with nobody on the table loses at once (C-BAT-22, inferred).
fn check_victory(cx: &mut Cx) -> bool {
    if cx.s.outcome.is_some() {
        return true;
    }
    let alive = |side: u8| cx.s.units.iter().any(|x| x.side == side && x.at.is_some());
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

/// At the turn limit: victory points (C-BAT-22): the points of every enemy defeated, and
/// Few Stood Against Many's +1 for a survivor on the table.
fn score(cx: &mut Cx) {
    let mut vp = [0i32; 2];
    for (i, x) in cx.s.units.iter().enumerate() {
        if x.defeated {
            vp[1 - x.side as usize] += cx.s.cards[x.card].points as i32;
        } else if x.at.is_some() && effect_cost(cx.s, i as u8, "Few Stood Against Many").is_some() {
            vp[x.side as usize] += 1;
        }
    }
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

fn activate(cx: &mut Cx, u: u8) -> Result<(), RuleError> {
    let side = cx.s.u(u).side;
    cx.s.um(u).activated = true;
    cx.s.next_side = 1 - side;
    cx.s.active = Some(Activation { unit: u, moves: 0, used: 0, acted: false, abilities: 0 });
    let id = cx.s.u(u).id.clone();
    cx.log(|| format!("{id} activates (C-BAT-6)"));
    cx.s.pending = Pending::Menu;
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
        cx.log(|| format!("{} takes the Poison hit at Pow {pow} and loses a counter (C-GL-POISON)", x.id));
        let hurt = injury_roll(cx, u, pow, 0)?;
        wound(cx, u, hurt, None)?;
    }
    if x.hex > 0 {
        cx.s.um(u).hex -= 1;
        cx.log(|| format!("{} loses a Hex counter (C-GL-HEX)", x.id));
    }
    Ok(())
}

// ---------------------------------------------------------------- movement

/// Squares `u` can end a movement of `kind` on: within its spaces, counting a diagonal as one,
/// never through an enemy or a wall, ending on an empty square (C-BAT-6b).
pub fn destinations(s: &State, u: u8, kind: MoveKind) -> Vec<Pos> {
    let Some(from) = s.u(u).at else { return Vec::new() };
    let side = s.u(u).side;
    let range = kind.spaces(s.card(u).stats.mv);
    let w = s.width as usize;
    let mut seen = vec![false; w * s.height as usize];
    seen[from.y as usize * w + from.x as usize] = true;
    let mut frontier = vec![from];
    let mut out = Vec::new();
    for _ in 0..range {
        let mut next = Vec::new();
        for p in frontier {
            for q in p.neighbours() {
                if !s.open(q) || seen[q.y as usize * w + q.x as usize] {
                    continue;
                }
                let who = s.at(q);
                if who.is_some_and(|o| s.u(o).side != side) {
                    continue;
                }
                seen[q.y as usize * w + q.x as usize] = true;
                if who.is_none() {
                    out.push(q);
                }
                next.push(q);
            }
        }
        frontier = next;
    }
    out.sort_unstable_by_key(|p| (p.y, p.x));
    out
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
    let (r, ranged) = reach(&s.card(u).weapons[w]);
    s.standing()
        .filter(|&t| s.u(t).side != s.u(u).side)
        // Finishing Blow: only a character 2 injuries (or fewer) from defeat.
        .filter(|&t| special != Special::Finishing || s.card(t).stats.tuf - s.u(t).injuries <= 2)
        .filter(|&t| ranged || s.u(t).at.is_some_and(|p| dist(from, p) <= r))
        .collect()
}

/// What a weapon attack costs: the weapon's EC plus the special attack's Endurance, and its Mana.
fn attack_cost(s: &State, u: u8, w: usize, special: Special) -> Option<(i32, i32)> {
    let ec = s.card(u).weapons[w].ec as i32;
    if special == Special::Plain {
        return Some((ec, 0));
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
            if e <= s.u(u).endurance && m <= s.u(u).mana && !targets(s, u, w, special).is_empty() {
                out.push((w, special));
            }
        }
    }
    out
}

/// Whom ability `k` of `u` may pick: an enemy within Comm (Frighten), self or a hurt friend
/// within 4 (Heal).
pub fn ability_targets(s: &State, u: u8, k: Ability) -> Vec<u8> {
    let Some(from) = s.u(u).at else { return Vec::new() };
    let side = s.u(u).side;
    let within = |t: u8, r: i32| s.u(t).at.is_some_and(|p| dist(from, p) <= r);
    match k {
        Ability::Frighten => {
            let comm = s.card(u).stats.comm;
            s.standing().filter(|&t| s.u(t).side != side && within(t, comm)).collect()
        }
        Ability::Heal => s.standing().filter(|&t| s.u(t).side == side && s.u(t).injuries > 0 && within(t, 4)).collect(),
        Ability::Berserk => vec![u],
        // Area attacks: offered while someone else stands in the area.
        Ability::CausticBurst => {
            let any = s.standing().any(|t| t != u && within(t, 2));
            if any { vec![u] } else { Vec::new() }
        }
        Ability::FireBreathing => {
            if line_directions(s, u).is_empty() {
                Vec::new()
            } else {
                vec![u]
            }
        }
        Ability::Check => {
            let comm = s.card(u).stats.comm;
            s.standing().filter(|&t| s.u(t).side != side && within(t, comm)).collect()
        }
    }
}

fn abilities_ready(s: &State, u: u8) -> Vec<Ability> {
    let a = s.active.as_ref().expect("an activation");
    Ability::ALL
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| a.abilities & k.bit() == 0)
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

/// The directions in which Fire Breathing's line holds someone.
pub fn line_directions(s: &State, u: u8) -> Vec<&'static str> {
    crate::battle::FACINGS
        .iter()
        .filter(|(_, d)| line_squares(s, u, *d, 3).iter().any(|&p| s.at(p).is_some()))
        .map(|(n, _)| *n)
        .collect()
}

/// One target of an area attack (C-GL-BLAST-ATTACK, C-GL-BURST-ATTACK, C-GL-LINE-ATTACK): its own
/// to-hit roll at the user's Att + `att`, its own injury roll at `pow` (+ `crit_pow` on a crit),
/// and `crit_poison` Poison counters on a crit.
fn area_hit(cx: &mut Cx, u: u8, t: u8, att: i32, pow: i32, crit_pow: i32, crit_poison: i32) -> Result<(), RuleError> {
    let a = cx.s.card(u).stats.att - if cx.s.u(u).hex > 0 { 2 } else { 0 } + att;
    let need = def_of(cx.s, t) + cx.s.options.hit_threshold;
    let n = cx.d10()? as i32;
    let hit = n == 10 || n + a >= need;
    let crit = n == 10;
    let tid = cx.s.u(t).id.clone();
    cx.log(|| {
        format!(
            "Against {tid}: {n} + Att {a} = {} against {need}: {} (C-BAT-10)",
            n + a,
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
        return Ok(());
    }
    let hurt = injury_roll(cx, t, pow + if crit { crit_pow } else { 0 }, 0)?;
    wound(cx, t, hurt, Some(u))?;
    if crit && crit_poison > 0 && cx.s.u(t).at.is_some() {
        cx.s.um(t).poison += crit_poison;
        cx.log(|| format!("{tid} gains {crit_poison} Poison counters from the crit (C-GL-POISON)"));
    }
    Ok(())
}

/// Uses area ability `k` of `u` (toward `dir` for a line).
fn use_area(cx: &mut Cx, u: u8, k: Ability, dir: (i8, i8)) -> Result<(), RuleError> {
    let (e, m) = ability_cost(cx.s, u, k.name()).unwrap_or((0, 0));
    pay(cx, u, e);
    cx.s.um(u).mana -= m;
    if let Some(a) = cx.s.active.as_mut() {
        a.abilities |= k.bit();
        a.acted = true;
    }
    let uid = cx.s.u(u).id.clone();
    cx.counted(&[("power uses", k.name(), 1.0)], String::new);
    let spow = cx.s.card(u).stats.spow;
    let from = cx.s.u(u).at;
    match k {
        Ability::CausticBurst => {
            cx.log(|| format!("{uid} looses a Caustic Burst for {e}E {m}M: everyone within 2 (C-GL-CAUSTIC-BURST)"));
            let hit: Vec<u8> =
                cx.s.standing()
                    .filter(|&t| t != u && from.zip(cx.s.u(t).at).is_some_and(|(a, b)| dist(a, b) <= 2))
                    .collect();
            for t in hit {
                area_hit(cx, u, t, 2, spow + 2, 0, 2)?;
            }
        }
        _ => {
            cx.log(|| {
                format!(
                    "{uid} breathes fire for {e}E {m}M toward {} (C-GL-FIRE-BREATHING)",
                    crate::battle::facing_name(dir)
                )
            });
            let hit: Vec<u8> = line_squares(cx.s, u, dir, 3).into_iter().filter_map(|p| cx.s.at(p)).collect();
            for t in hit {
                area_hit(cx, u, t, 1, 4, 2, 0)?;
            }
        }
    }
    after_attack(cx)
}

/// Uses ability `k` of `u` on `t` (C-GL-FRIGHTEN, C-GL-HEAL, C-GL-BERSERK).
fn use_ability(cx: &mut Cx, u: u8, k: Ability, t: u8) -> Result<(), RuleError> {
    let (e, m) = ability_cost(cx.s, u, k.name()).unwrap_or((0, 0));
    pay(cx, u, e);
    cx.s.um(u).mana -= m;
    if let Some(a) = cx.s.active.as_mut() {
        a.abilities |= k.bit();
        a.acted = true;
    }
    let (uid, tid) = (cx.s.u(u).id.clone(), cx.s.u(t).id.clone());
    cx.counted(&[("power uses", k.name(), 1.0)], String::new);
    match k {
        Ability::Frighten => {
            if effect_cost(cx.s, t, "Dauntless").is_some() {
                cx.log(|| format!("{uid} tries to frighten {tid}, who is Dauntless: no effect (C-GL-DAUNTLESS)"));
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
            if effect_cost(cx.s, t, "Dauntless").is_some() {
                cx.log(|| format!("{tid} is Dauntless: no effect (C-GL-DAUNTLESS)"));
            } else if contest(cx, u, ca, t, cd, "Command")? {
                give_flee(cx, t, Some(u));
            }
        }
        Ability::CausticBurst | Ability::FireBreathing => return use_area(cx, u, k, (0, 1)),
        Ability::Berserk => {
            cx.log(|| format!("{uid} goes berserk for {e}E: 1 injury, then Mana (C-GL-BERSERK)"));
            wound(cx, u, 1, None)?;
            if cx.s.u(u).at.is_some() {
                let gain = cx.s.u(u).injuries;
                cx.s.um(u).mana += gain;
                cx.log(|| format!("{uid} gains {gain} Mana"));
            }
        }
    }
    after_attack(cx)
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
    if let Some(a) = cx.s.active.as_mut() {
        a.used |= 1 << weapon;
        a.acted = true;
    }
    let (aid, tid) = (cx.s.u(attacker).id.clone(), cx.s.u(target).id.clone());
    let how = if special == Special::Plain { String::new() } else { format!(" ({})", special.name()) };
    let power = if special == Special::Plain { w.name.clone() } else { special.name().to_string() };
    cx.counted(&[("power uses", &power, 1.0), ("power attacks", &power, 1.0)], || {
        format!("{aid} attacks {tid} with the {}{how}, paying {ec}E {mana}M (C-BAT-8)", w.name)
    });
    let strike = Strike { attacker, target, weapon, def_bonus: 0, arm_bonus: 0, special, roll: None, crit: false };
    if can_react(cx.s, &strike) && effect_cost(cx.s, target, "Dodge").is_some_and(|c| c <= cx.s.u(target).endurance) {
        cx.s.pending = Pending::BeforeRoll(strike);
        return Ok(());
    }
    roll_to_hit(cx, strike)
}

/// Whether the target may react: not hexed (C-GL-HEX), not against No Reactions.
fn can_react(s: &State, k: &Strike) -> bool {
    k.special != Special::Finishing
        && s.u(k.target).hex == 0
        && !has_special(&s.card(k.attacker).weapons[k.weapon as usize], "No Reactions")
}

/// The to-hit roll (C-BAT-10): D10 + W-Att − the ranged penalty against Def + H; a natural 10
/// always hits and crits, a 9 crits with Sharp when it hits.
fn roll_to_hit(cx: &mut Cx, mut k: Strike) -> Result<(), RuleError> {
    let s = &*cx.s;
    let w = s.card(k.attacker).weapons[k.weapon as usize].clone();
    let (r, ranged) = reach(&w);
    let d = match (s.u(k.attacker).at, s.u(k.target).at) {
        (Some(a), Some(b)) => dist(a, b),
        _ => 0,
    };
    let penalty = if ranged && d > r { (d - r) * s.options.ranged_penalty } else { 0 };
    let skill = match k.special {
        Special::Guided => 2,
        Special::Butcher => -2,
        Special::Finishing => 1,
        _ => 0,
    };
    let att = w_att_of(s, k.attacker, &w) - penalty + skill;
    let def = def_of(s, k.target) + k.def_bonus;
    let need = def + s.options.hit_threshold;
    let n = cx.d10()? as i32;
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
            "{aid} rolls {n} + W-Att {att}{} = {} against Def {def} + {} = {need}: {} (C-BAT-10)",
            if penalty > 0 { format!(" (ranged -{penalty})") } else { String::new() },
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
        return after_attack(cx);
    }
    let power = if k.special == Special::Plain { w.name.clone() } else { k.special.name().to_string() };
    cx.counted(&[("power hits", &power, 1.0)], String::new);
    let block = ["Block 4", "Block 2"]
        .iter()
        .any(|b| effect_cost(cx.s, k.target, b).is_some_and(|c| c <= cx.s.u(k.target).endurance));
    if can_react(cx.s, &k) && block {
        cx.s.pending = Pending::OnHit(k);
        return Ok(());
    }
    land(cx, k)
}

/// The injury roll (C-BAT-12): D10 + Pow − Arm; nothing for a margin of 0 or less, else
/// 1 + (margin − 1) / K injuries.
fn injury_roll(cx: &mut Cx, target: u8, pow: i32, arm_bonus: i32) -> Result<i32, RuleError> {
    let arm = arm_of(cx.s, target) + arm_bonus;
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
fn wound(cx: &mut Cx, u: u8, hurt: i32, by: Option<u8>) -> Result<(), RuleError> {
    if hurt <= 0 || cx.s.u(u).at.is_none() {
        return Ok(());
    }
    cx.s.um(u).injuries += hurt;
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
    if inj >= tuf {
        defeat(cx, u, &format!("{inj} injuries, Tuf {tuf}"));
        return Ok(());
    }
    cx.log(|| format!("{id} has {inj} of {tuf} injuries"));
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

/// A character gains a flee token from `from` (C-GL-FLEE), unless Dauntless (C-GL-DAUNTLESS).
fn give_flee(cx: &mut Cx, u: u8, from: Option<u8>) {
    let id = cx.s.u(u).id.clone();
    if effect_cost(cx.s, u, "Dauntless").is_some() {
        cx.log(|| format!("{id} is Dauntless: no Flee (C-GL-DAUNTLESS)"));
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
fn contest(cx: &mut Cx, a: u8, a_stat: i32, d: u8, d_stat: i32, what: &str) -> Result<bool, RuleError> {
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

fn defeat(cx: &mut Cx, u: u8, why: &str) {
    let id = cx.s.u(u).id.clone();
    let f = cx.s.um(u);
    f.defeated = true;
    f.at = None;
    cx.counted(&[("taken out", &id, 1.0)], || format!("{id} is defeated: {why} (C-BAT-15)"));
}

/// A hit lands: the injury roll with the crit's Pow+X and Injury+X, then On Injury, On Hit and
/// the crit's riders (C-BAT-12 to C-BAT-15).
fn land(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    let w = cx.s.card(k.attacker).weapons[k.weapon as usize].clone();
    let crits: Vec<String> = if k.crit { w.crit.clone() } else { Vec::new() };
    let pow_bonus: i32 = crits.iter().filter_map(|c| amount(c, "Pow+")).sum();
    let extra: i32 = crits.iter().filter_map(|c| amount(c, "Injury+")).sum();
    let skill_pow = match k.special {
        Special::Butcher => 4,
        Special::Gouge => 2,
        _ => 0,
    };
    let mut hurt = injury_roll(cx, k.target, w.w_pow + pow_bonus + skill_pow, k.arm_bonus)?;
    if extra > 0 && (hurt > 0 || cx.s.options.crit_injury == CritInjury::Always) {
        hurt += extra;
        cx.log(|| format!("The crit adds {extra} injur{} (Injury+{extra})", if extra == 1 { "y" } else { "ies" }));
    }
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
    // The special attack's own On Hit.
    match k.special {
        Special::Gouge if standing => {
            let n = if k.crit { 3 } else { 1 };
            cx.s.um(k.target).hex += n;
            cx.log(|| format!("{tid} gains {n} Hex counter(s) from Gouge (C-GL-GOUGE)"));
        }
        Special::Finishing if standing => {
            defeat(cx, k.target, "a Finishing Blow slays (C-GL-FINISHING-BLOW)");
            return after_attack(cx);
        }
        _ => {}
    }
    // Crit riders.
    for c in &crits {
        if !standing {
            break;
        }
        if c == "Stun" {
            cx.s.um(k.target).stun += 1;
            cx.log(|| format!("{tid} is stunned by the crit (C-GL-STUN)"));
        } else if let Some(n) = amount(c, "Hex") {
            cx.s.um(k.target).hex += n;
            cx.log(|| format!("{tid} gains {n} Hex counters from the crit (C-GL-HEX)"));
        } else if c == "Slay" {
            defeat(cx, k.target, "slain by a crit (C-GL-SLAY)");
            break;
        }
    }
    after_attack(cx)
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
            cx.s.um(k.target).poison += n;
            cx.log(|| format!("{tid} gains {n} Poison counter (C-GL-POISON)"));
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

fn after_attack(cx: &mut Cx) -> Result<(), RuleError> {
    if check_victory(cx) {
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
    match &s.pending {
        Pending::Over => None,
        Pending::Activate(side) => {
            let options = s
                .standing()
                .filter(|&u| s.u(u).side == *side && !s.u(u).activated)
                .map(|u| DecisionOption::new(s.u(u).id.clone(), format!("activate {}", s.card(u).name)))
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
            let options = line_directions(s, u)
                .into_iter()
                .map(|d| DecisionOption::new(d, format!("{} toward {d}", k.name())))
                .collect();
            ask(s.u(u).side, Some(s.u(u).id.clone()), "direction", format!("{} which way?", k.name()), options)
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
            let options = vec![
                DecisionOption::new(
                    "dodge",
                    format!("Dodge: Def +2 against this attack ({}E)", effect_cost(s, k.target, "Dodge")?),
                ),
                DecisionOption::new("pass", "no reaction"),
            ];
            ask(t.side, Some(t.id.clone()), "reaction", format!("{} is attacked: react?", t.id), options)
        }
        Pending::OnHit(k) => {
            let t = s.u(k.target);
            let mut options = Vec::new();
            for (name, bonus) in [("Block 2", 2), ("Block 4", 4)] {
                if let Some(c) = effect_cost(s, k.target, name).filter(|&c| c <= t.endurance) {
                    options
                        .push(DecisionOption::new(slug(name), format!("{name}: Arm +{bonus} against this hit ({c}E)")));
                }
            }
            options.push(DecisionOption::new("pass", "no reaction"));
            ask(t.side, Some(t.id.clone()), "reaction", format!("{} is hit: react?", t.id), options)
        }
    }
}

/// Answers the pending decision with option `id` (which [`decision`] offered).
pub fn answer(cx: &mut Cx, id: &str) -> Result<(), RuleError> {
    let d = decision(cx.s).ok_or_else(|| RuleError::malformed("the battle is over"))?;
    if !d.allows(id) {
        return Err(fray_core::answer::not_an_option(id, &d.kind, d.options.iter().map(|o| o.id.as_str())));
    }
    match cx.s.pending.clone() {
        Pending::Over => Err(RuleError::malformed("the battle is over")),
        Pending::Activate(_) => {
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
                        match k {
                            Ability::Berserk => return use_ability(cx, u, *k, u),
                            Ability::CausticBurst => return use_area(cx, u, *k, (0, 1)),
                            Ability::FireBreathing => {
                                cx.s.pending = Pending::Direction(*k);
                                return Ok(());
                            }
                            _ => {}
                        }
                        cx.s.pending = Pending::AbilityTarget(*k);
                        return Ok(());
                    }
                    let found = weapons_ready(cx.s, u).into_iter().find(|&(w, k)| special_word(cx.s, u, w, k) == id);
                    let (w, special) = found.ok_or_else(|| RuleError::malformed(format!("{id}: no such attack")))?;
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
            let from = cx.s.u(u).at;
            let f = cx.s.um(u);
            f.at = Some(p);
            // C-BAT-21 (Fray's reading): a mover ends facing the way it went.
            if let Some(q) = from
                && q != p
            {
                f.facing = ((p.x - q.x).signum() as i8, (p.y - q.y).signum() as i8);
            }
            f.endurance -= kind.cost();
            f.spent += kind.cost();
            let (uid, e) = (f.id.clone(), f.endurance);
            cx.log(|| {
                format!(
                    "{uid} {}s from {} to {} for {}E, {e}E left (C-BAT-6b)",
                    kind.word(),
                    from.map(|q| q.key()).unwrap_or_default(),
                    p.key(),
                    kind.cost()
                )
            });
            cx.s.pending = Pending::Menu;
            Ok(())
        }
        Pending::Target(w, special) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let t = cx.s.find(id).ok_or_else(|| RuleError::malformed(format!("no character {id}")))?;
            declare(cx, u, t, w, special)
        }
        Pending::Direction(k) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let dir = crate::battle::FACINGS.iter().find(|(n, _)| *n == id).map(|(_, d)| *d).unwrap_or((0, 1));
            use_area(cx, u, k, dir)
        }
        Pending::AbilityTarget(k) => {
            let u = cx.s.active.as_ref().map(|a| a.unit).ok_or_else(|| RuleError::malformed("no activation"))?;
            let t = cx.s.find(id).ok_or_else(|| RuleError::malformed(format!("no character {id}")))?;
            use_ability(cx, u, k, t)
        }
        Pending::BeforeRoll(mut k) => {
            if id == "dodge" {
                let c = effect_cost(cx.s, k.target, "Dodge").unwrap_or(2);
                pay(cx, k.target, c);
                k.def_bonus += 2;
                let tid = cx.s.u(k.target).id.clone();
                cx.log(|| format!("{tid} dodges: Def +2 against this attack, {c}E (C-GL-DODGE)"));
            }
            roll_to_hit(cx, k)
        }
        Pending::OnHit(mut k) => {
            if let Some(bonus) = match id {
                "block-2" => Some(2),
                "block-4" => Some(4),
                _ => None,
            } {
                let name = format!("Block {bonus}");
                let c = effect_cost(cx.s, k.target, &name).unwrap_or(1);
                pay(cx, k.target, c);
                k.arm_bonus += bonus;
                let tid = cx.s.u(k.target).id.clone();
                cx.log(|| format!("{tid} blocks: Arm +{bonus} against this hit, {c}E (C-GL-BLOCK-{bonus})"));
            }
            land(cx, k)
        }
    }
}

fn pay(cx: &mut Cx, u: u8, e: i32) {
    let f = cx.s.um(u);
    f.endurance -= e;
    f.spent += e;
}
