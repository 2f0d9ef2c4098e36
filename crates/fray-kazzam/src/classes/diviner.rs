//! Diviner powers that read or bend fate beyond a plain Effect line (L1167-1273): Foresight's
//! die rolled ahead for a creature's first attack roll on its turn, Coin of Fortune's round of
//! Advantage or Disadvantage, Line-of-Sight Curse's Ongoing damage that lasts while the Diviner
//! keeps a line to its target, and Empathic Wave's Regenerate that ends when the Diviner is hit
//! and reaches allies starting their turn near it. Revealed Pain and Linked Doom are curses
//! (`curses`).

pub use crate::content::hooks::DIVINER_POWER as POWER_HOOKS;
use crate::engine::arena::Terrain;
use crate::engine::events::Event;
use crate::engine::events::How;
pub use crate::engine::frames::classes::DivFrame;
use crate::engine::kit::Ctx;
use crate::engine::kit::Rolls;
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::curses::{Curse, CurseOn};
use crate::rules::modifiers::{Attackers, Modifier, ModifierKind};
pub use crate::rules::query::fortune;
use crate::rules::query::from_hook;
pub use crate::rules::query::wave_regenerate;
use crate::rules::statuses::{Duration, Status};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Seeking Hex: its damage when conjured, and how far it travels each time.
const HEX_DAMAGE: i32 = 3;
const HEX_STEPS: usize = 5;

/// Uses a power played here.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16, targets: &[UnitIdx]) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(u),
        power: def.name.clone(),
        targets: targets.iter().map(|&t| cx.s.who(t)).collect(),
    });
    match def.hook.as_deref() {
        Some("foresight") => {
            let t = targets[0];
            // A die the Diviner rolls (a Seer's foreseen result or Reversal of Fortune may stand in).
            let value = cx.d6(Some(u))?;
            // A new Foresight from the same Diviner replaces the old one on that creature.
            if let Some(i) =
                cx.s.curses.iter().position(|c| c.on == CurseOn::ForeseenRoll && c.target == t && c.maker == u)
            {
                cx.emit(Event::CurseEnded { index: i, why: "foreseen again".into() });
            }
            let curse = Curse {
                on: CurseOn::ForeseenRoll,
                maker: u,
                target: t,
                power,
                index: 0,
                duration: Duration::Indefinite,
                value,
                via: None,
                at: None,
            };
            cx.emit(Event::CurseLaid { name: def.name.clone(), target: cx.s.who(t), curse });
        }
        Some("coin-of-fortune") => {
            let roll = cx.d6(Some(u))?;
            let kind = if roll % 2 == 0 { ModifierKind::TeamAdvantage } else { ModifierKind::EnemyDisadvantage };
            cx.emit(Event::Note { text: format!("{} tosses the coin: {roll}", cx.s.unit(u).id) });
            let modifier = Modifier {
                kind,
                amount: cx.s.round as i32 + 1, // the next round
                attackers: Attackers::Unit(u),
                against: None,
                first: false,
                during: None,
                duration: Duration::Indefinite,
                source: u,
                power,
            };
            cx.emit(Event::ModifierAdded { name: def.name.clone(), modifier });
        }
        Some("seeking-hex") => {
            if hex_squares(cx.s, u).is_empty() {
                cx.emit(Event::Note { text: format!("no free square next to {}: the hex fizzles", cx.s.unit(u).id) });
            } else {
                cx.push(crate::engine::kit::Frame::Divination(DivFrame::HexSquare {
                    unit: u,
                    quarry: targets[0],
                    power,
                }));
            }
        }
        Some("empathic-bond") => crate::classes::diviner::empathy::use_bond(cx, u, targets[0], power),
        _ => {}
    }
    Ok(())
}

/// Free squares next to `u` where a Seeking Hex may appear: open to enter, no creature there.
fn hex_squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(p, size, q, 1) == 1 && s.arena.at(q).enterable() && s.arena.at(q) != Terrain::Portal)
        .filter(|&q| {
            s.units_on_map().all(|o| {
                let ou = s.unit(o);
                !crate::rules::summons::occupies(ou) || distance(ou.pos.unwrap(), ou.size, q, 1) > 0
            })
        })
        .collect()
}

/// The decision a Diviner frame waits on: (who answers, kind, prompt, options).
pub fn question(s: &State, f: &DivFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match f {
        DivFrame::HexSquare { unit, .. } => (
            *unit,
            "square",
            format!("{}: Seeking Hex — conjure it on which square next to you?", s.unit(*unit).id),
            hex_squares(s, *unit).into_iter().map(|q| DecisionOption::square(q, format!("at {q}"))).collect(),
        ),
        DivFrame::Bond { unit, ally, step, .. } => crate::classes::diviner::empathy::question(s, *unit, *ally, step),
    }
}

/// Answers a Diviner frame.
pub fn answer(cx: &mut Ctx, f: DivFrame, option: &str) -> Result<(), RuleError> {
    match f {
        DivFrame::HexSquare { unit, quarry, power } => {
            let at = Pos::parse(option)
                .filter(|q| hex_squares(cx.s, unit).contains(q))
                .ok_or_else(|| RuleError::malformed(format!("{option:?} is not a free square next to you")))?;
            let hex = crate::rules::summons::spawn(
                cx,
                crate::rules::summons::Spawn {
                    name: "Seeking Hex".into(),
                    kind: UnitKind::Conjured,
                    at,
                    hp: 1,
                    speed: HEX_STEPS as i32,
                    owner: Some(cx.s.who(unit)),
                    what: "seeking-hex".into(),
                    charges: 0,
                    turn_before: None,
                    group: None,
                    until_turn: None,
                },
            );
            seek(cx, unit, hex, quarry, power, HEX_DAMAGE);
        }
        DivFrame::Bond { unit, ally, power, step } => {
            crate::classes::diviner::empathy::answer(cx, unit, ally, power, step, option)
        }
    }
    Ok(())
}

/// Lays the record of which creature the hex `hex` of `maker` seeks, and its damage.
fn seek(cx: &mut Ctx, maker: UnitIdx, hex: UnitIdx, quarry: UnitIdx, power: u16, damage: i32) {
    let curse = Curse {
        on: CurseOn::Sought,
        maker,
        target: quarry,
        power,
        index: 0,
        duration: Duration::Indefinite,
        value: damage,
        via: Some(hex),
        at: None,
    };
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::CurseLaid { name, target: cx.s.who(quarry), curse });
}

/// `unit` was Taken Out: the Seeking Hexes hunting it keep their damage but have no quarry
/// until they next travel (the record then names the hex itself).
pub fn quarry_lost(cx: &mut Ctx, unit: UnitIdx) {
    while let Some(i) = cx.s.curses.iter().position(|c| c.on == CurseOn::Sought && c.target == unit) {
        let c = cx.s.curses[i].clone();
        cx.emit(Event::CurseEnded { index: i, why: "its quarry was Taken Out".into() });
        if let Some(hex) = c.via.filter(|&h| cx.s.unit(h).on_map()) {
            seek(cx, c.maker, hex, hex, c.power, c.value);
        }
    }
}

/// Squares a Seeking Hex may pass: open to enter and no wall there (creatures do not stop it).
fn hex_passes(s: &State, q: Pos) -> bool {
    s.arena.at(q).enterable() && !crate::rules::summons::wall_at(s, q)
}

/// The shortest way from `from` to a square next to (or under) `quarry`, the squares after
/// `from` in order; None if there is none.
fn hex_path(s: &State, from: Pos, quarry: UnitIdx) -> Option<Vec<Pos>> {
    let (qp, qs) = (s.unit(quarry).pos?, s.unit(quarry).size);
    let goal = |p: Pos| distance(p, 1, qp, qs) <= 1;
    let mut prev: std::collections::HashMap<Pos, Pos> = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    prev.insert(from, from);
    while let Some(p) = queue.pop_front() {
        if goal(p) {
            let mut path = vec![p];
            let mut at = p;
            while prev[&at] != at {
                at = prev[&at];
                path.push(at);
            }
            path.pop(); // the start
            path.reverse();
            return Some(path);
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::new(p.x + dx, p.y + dy);
                if (dx, dy) != (0, 0) && s.arena.terrain.contains(q) && !prev.contains_key(&q) && hex_passes(s, q) {
                    prev.insert(q, p);
                    queue.push_back(q);
                }
            }
        }
    }
    None
}

/// As the Diviner's turn ends, each of its Seeking Hexes travels up to 5 squares toward its
/// quarry: reaching it, the hex deals its damage and is gone; falling short, it grows by 1. A
/// quarry Taken Out or out of reach gives way to the closest creature (the Diviner included).
pub fn end_of_turn(cx: &mut Ctx, unit: UnitIdx) {
    let hexes: Vec<UnitIdx> = cx
        .s
        .units_on_map()
        .filter(|&h| cx.s.unit(h).placed.as_ref().is_some_and(|p| p.owner == Some(unit) && &*p.what == "seeking-hex"))
        .collect();
    for hex in hexes {
        travel(cx, unit, hex);
    }
}

fn travel(cx: &mut Ctx, maker: UnitIdx, hex: UnitIdx) {
    let Some(from) = cx.s.unit(hex).pos else { return };
    let record = cx.s.curses.iter().position(|c| c.on == CurseOn::Sought && c.via == Some(hex));
    let (mut quarry, power, damage) = match record {
        Some(i) => {
            let c = &cx.s.curses[i];
            (Some(c.target), c.power, c.value)
        }
        None => (None, cx.s.powers.find("seeking-hex").unwrap_or(0), HEX_DAMAGE),
    };
    let mut path = quarry.filter(|&q| cx.s.unit(q).on_map() && hunted(cx.s, q)).and_then(|q| hex_path(cx.s, from, q));
    if path.is_none() {
        // Its quarry is gone or out of reach: the closest creature by the way it travels.
        let best =
            cx.s.units_on_map()
                .filter(|&c| Some(c) != quarry && hunted(cx.s, c))
                .filter_map(|c| hex_path(cx.s, from, c).map(|p| (p.len(), c, p)))
                .min_by_key(|(n, c, _)| (*n, *c));
        let Some((_, c, p)) = best else { return };
        cx.emit(Event::Note { text: format!("the Seeking Hex turns toward {}", cx.s.unit(c).id) });
        quarry = Some(c);
        path = Some(p);
    }
    let (Some(quarry), Some(path)) = (quarry, path) else { return };
    if let Some(i) = record {
        cx.emit(Event::CurseEnded { index: i, why: "the hex moves on".into() });
    }
    let mut at = from;
    for &q in path.iter().take(HEX_STEPS) {
        cx.emit(Event::Moved { unit: cx.s.who(hex), from: at, to: q, how: How::Walk });
        at = q;
    }
    if path.len() <= HEX_STEPS {
        cx.emit(Event::Vanished { unit: cx.s.who(hex), why: format!("reaches {}", cx.s.unit(quarry).id) });
        crate::rules::damage::deal(cx, quarry, damage, Some(maker), "Seeking Hex", None);
    } else {
        seek(cx, maker, hex, quarry, power, damage + 1);
    }
}

/// Whether a Seeking Hex may turn toward `c`: a creature (no trap, wall or conjured thing).
fn hunted(s: &State, c: UnitIdx) -> bool {
    matches!(s.unit(c).kind, UnitKind::Athlete | UnitKind::Creep | UnitKind::Summon | UnitKind::Automaton)
}

/// Foresight: the die foreseen for `attacker`, read as its first attack roll on its own turn
/// (used up then).
pub fn foreseen_roll(cx: &mut Ctx, attacker: UnitIdx) -> Option<i32> {
    if cx.s.current() != Some(attacker) {
        return None;
    }
    let i = cx.s.curses.iter().position(|c| c.on == CurseOn::ForeseenRoll && c.target == attacker)?;
    let (v, maker) = (cx.s.curses[i].value, cx.s.curses[i].maker);
    cx.emit(Event::CurseEnded { index: i, why: "its attack roll is made".into() });
    cx.emit(Event::Note {
        text: format!("{}'s attack roll is the die {} foresaw: {v}", cx.s.unit(attacker).id, cx.s.unit(maker).id),
    });
    Some(v)
}

/// As a round begins: Coin of Fortune's rounds that are over end.
pub fn round_begins(cx: &mut Ctx) {
    for i in (0..cx.s.modifiers.len()).rev() {
        let m = &cx.s.modifiers[i];
        if matches!(m.kind, ModifierKind::TeamAdvantage | ModifierKind::EnemyDisadvantage)
            && m.amount < cx.s.round as i32
        {
            cx.emit(Event::ModifierEnded { index: i, why: "its round is over".into() });
        }
    }
}

/// Line-of-Sight Curse: each Ongoing status that lasts while its source keeps a line to its
/// bearer ends once the source has none (or has left the map). Checked whenever a creature
/// enters a square and as each turn starts. A Scryer's lock counts as a line.
pub fn sight_check(cx: &mut Ctx) {
    let mut ended = Vec::new();
    for u in cx.s.units_on_map() {
        for st in &cx.s.unit(u).statuses {
            if !from_hook(cx.s, st, "while-in-sight") {
                continue;
            }
            let seen = st.source.is_some_and(|src| {
                let x = cx.s.unit(src);
                x.pos.is_some_and(|p| {
                    crate::classes::features::locked(cx.s, src, u)
                        || crate::rules::cover::shot(cx.s, p, x.size, u) != fray_core::sight::Sight::Blocked
                })
            });
            if !seen {
                ended.push((u, *st));
            }
        }
    }
    for (u, st) in ended {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "out of its curser's sight".into() });
    }
}

/// `target` was hit by an attack: its Empathic Wave ends.
pub fn was_hit(cx: &mut Ctx, target: UnitIdx) {
    let waves: Vec<Status> =
        cx.s.unit(target).statuses.iter().filter(|st| from_hook(cx.s, st, "empathic-wave")).copied().collect();
    for st in waves {
        cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: "hit by an attack".into() });
    }
}

pub mod empathy;

/// What the Diviner adds to the core rules: its power hooks, Empathic Wave on a hit, Coin of
/// Fortune as a round begins.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets));
    r.attack_die(foreseen_roll); // Foresight
    r.on_taken_out(60, "seeking-hex", |cx, unit, _, _| quarry_lost(cx, unit));
    r.on_hit(40, "empathic-wave", |cx, h| {
        if h.def.rolls() {
            was_hit(cx, h.target); // hit by an attack roll
        }
        Ok(())
    });
    r.on_turn(crate::engine::hooks::Trigger::StartEffects, 30, "line-of-sight-curse", |cx, _| sight_check(cx));
    r.on_square_entered(30, "line-of-sight-curse", |cx, _| {
        sight_check(cx);
        Ok(())
    });
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 40, "seeking-hex", end_of_turn);
    r.on_round(crate::engine::hooks::Trigger::RoundBegins, 20, "coin-of-fortune", |cx| {
        round_begins(cx);
        Ok(crate::engine::hooks::Then::Go)
    });
}
