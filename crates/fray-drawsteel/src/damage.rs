//! Stamina (DS-HP-*): damage through temporary Stamina, winded, dying and death for heroes,
//! death at 0 for Director creatures; Recoveries (DS-REC-1); bleeding (DS-COND-BLEED).

use crate::events::{Ctx, Event};
use crate::frames::Frame;
use crate::options::Text;
use crate::state::{Cx, Terrain};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Deals untyped damage (DS-HP-1): temporary Stamina first.
pub fn deal(cx: &mut Ctx, c: Cx, amount: i32, source: Option<Cx>, why: &str) {
    deal_in(cx, c, amount, source, why, Hit::default())
}

/// What else is known of a blow: its damage type, and the targets of the ability dealing it.
#[derive(Clone, Copy, Default)]
pub struct Hit<'a> {
    /// The damage type (DS-GAP-20), none for untyped.
    pub kind: Option<&'a str>,
    /// The targets of the area ability dealing it, if it is one (a squad's minions die only
    /// inside it, DS-GAP-19).
    pub area: Option<&'a [Cx]>,
    /// Every target of the ability, in order: a squad's immunity or weakness counts once for
    /// all its minions among them (DS-GAP-19).
    pub targets: &'a [Cx],
    /// Damage nothing reduces: no immunity applies (nor weakness), as a conduit's angered
    /// gods' (DS-GAP-15).
    pub unreduced: bool,
}

/// DS-GAP-20: the damage after weakness, then immunity (only the highest of each that applies;
/// `damage` applies to every kind, a typed one only to its type), never below 0. A squad's
/// minions count theirs once per ability (DS-GAP-19): only for the first of them it targets.
pub fn adjusted(s: &crate::state::State, c: Cx, amount: i32, hit: &Hit) -> (i32, String) {
    let x = s.c(c);
    if x.immunities.is_empty() && x.weaknesses.is_empty() {
        return (amount, String::new());
    }
    if let Some(q) = s.squad_of(c)
        && hit.targets.iter().take_while(|&&t| t != c).any(|&t| s.squad_of(t) == Some(q))
    {
        return (amount, String::new());
    }
    let applies = |k: &str| k == "damage" || hit.kind == Some(k);
    let best = |list: &[(std::sync::Arc<str>, i32)]| list.iter().filter(|(k, _)| applies(k)).map(|p| p.1).max();
    let (weak, immune) = (best(&x.weaknesses), best(&x.immunities));
    let after = (amount + weak.unwrap_or(0) - immune.unwrap_or(0)).max(0);
    let mut why = Vec::new();
    if let Some(w) = weak {
        why.push(format!("weakness {w}"));
    }
    match immune {
        Some(crate::model::ALL_DAMAGE) => why.push("immune".to_string()),
        Some(i) => why.push(format!("immunity {i}")),
        None => {}
    }
    (after, why.join(", "))
}

/// Deals damage of a kind (see [`Hit`]).
pub fn deal_in(cx: &mut Ctx, c: Cx, amount: i32, source: Option<Cx>, why: &str, hit: Hit) {
    let x = cx.s.c(c);
    if !x.active() || amount <= 0 {
        return;
    }
    let (amount, note) = if hit.unreduced { (amount, String::new()) } else { adjusted(cx.s, c, amount, &hit) };
    let why = if note.is_empty() { why.to_string() } else { format!("{why} ({note}: {amount})") };
    let why = why.as_str();
    if amount <= 0 {
        cx.emit(Event::Note { text: format!("{} takes no damage from {why}", x.id) });
        return;
    }
    let area = hit.area;
    if let Some(q) = cx.s.squad_of(c) {
        squad_damage(cx, q, c, amount, source, why, area);
        crate::heroic::damaged(cx, c, hit.kind);
        crate::heroic::blow(cx, c, source);
        return;
    }
    let temp_lost = amount.min(x.temp_stamina);
    let stamina = x.stamina - (amount - temp_lost);
    cx.emit(Event::Damaged {
        creature: cx.s.who(c),
        amount,
        temp_lost,
        stamina,
        source: source.map(|s| cx.s.who(s)),
        why: why.into(),
    });
    crate::heroic::blow(cx, c, source);
    if let Some(by) = source
        && stamina <= 0
    {
        let (x, o) = (cx.s.c(c), &cx.s.options);
        // DS-GAP-20: the heroes' table choice to knock out rather than kill, and the Director's
        // to knock out a hero its creature's blow would kill.
        let heroes_spare = o.knock_out && cx.s.c(by).hero && !x.hero;
        let director_spares =
            o.knock_out_heroes && !cx.s.c(by).hero && x.hero && !x.dead && stamina <= -x.winded_value();
        if heroes_spare || director_spares {
            cx.emit(Event::KnockedOut { creature: cx.s.who(c), by: cx.s.who(by) });
            return;
        }
    }
    check_death(cx, c);
    fury(cx, c);
    crate::heroic::damaged(cx, c, hit.kind);
}

/// DS-GAP-15: a fury gains 1 ferocity the first time it takes damage each round, and 1d3 the
/// first time it is winded or dying in the encounter.
fn fury(cx: &mut Ctx, c: Cx) {
    let x = cx.s.c(c);
    if x.class.is_none_or(|(n, _, _)| n != "fury") || x.dead {
        return;
    }
    if !x.resource_triggers.0 {
        let total = x.resource + 1;
        let why = "ferocity: +1, first damage this round".to_string();
        cx.emit(Event::Resource { creature: cx.s.who(c), total, why, damaged: true, winded: false, second: false });
    }
    let x = cx.s.c(c);
    if !x.resource_triggers.1 && (x.winded() || x.dying()) {
        // A scripted die list that has run out counts as 1 here rather than failing the damage.
        let n = cx.dice.roll(3).map_or(1, |d| d as i32);
        let total = x.resource + n;
        let why = format!("ferocity: +{n}, winded or dying for the first time");
        cx.emit(Event::Resource { creature: cx.s.who(c), total, why, damaged: false, winded: true, second: false });
    }
}

/// DS-GAP-19: damage to a minion comes off its squad's pool; each minion's worth the pool has
/// lost kills one minion: the one struck first, then those nearest it, and for an area only
/// minions the area caught (the pool keeps the loss; later damage kills the ones left over).
fn squad_damage(cx: &mut Ctx, q: usize, c: Cx, amount: i32, source: Option<Cx>, why: &str, area: Option<&[Cx]>) {
    // An area takes at most one minion's Stamina off the pool for each minion it caught (the
    // published example: three 5-Stamina minions caught by 6 damage each cost the pool 15).
    let amount = if area.is_some() { amount.min(cx.s.squads[q].each) } else { amount };
    let pool = (cx.s.squads[q].pool - amount).max(0);
    cx.emit(Event::SquadDamaged {
        creature: cx.s.who(c),
        squad: q,
        amount,
        pool,
        source: source.map(|s| cx.s.who(s)),
        why: why.into(),
    });
    let sq = &cx.s.squads[q];
    let alive: Vec<Cx> = sq.members.iter().copied().filter(|&m| cx.s.c(m).active()).collect();
    let excess = alive.len().saturating_sub(sq.keeps());
    let mut order: Vec<Cx> = alive.into_iter().filter(|&m| area.is_none_or(|a| a.contains(&m))).collect();
    order.sort_by_key(|&m| (m != c, cx.s.distance(c, m).unwrap_or(i32::MAX), m));
    for m in order.into_iter().take(excess) {
        let body_stays = cx.s.flow.iter().any(|f| matches!(f, Frame::Bodies { cs } if cs.contains(&m)));
        cx.emit(Event::Died { creature: cx.s.who(m), body_stays });
    }
}

/// Stamina loss nothing prevents (bleeding).
pub fn lose(cx: &mut Ctx, c: Cx, amount: i32, why: &str) {
    if !cx.s.c(c).active() {
        return;
    }
    if let Some(q) = cx.s.squad_of(c) {
        squad_damage(cx, q, c, amount, None, why, None);
        return;
    }
    let stamina = cx.s.c(c).stamina - amount;
    cx.emit(Event::StaminaLost { creature: cx.s.who(c), amount, stamina, why: why.into() });
    check_death(cx, c);
}

fn check_death(cx: &mut Ctx, c: Cx) {
    let x = cx.s.c(c);
    // DS-HP-NPC: Director creatures die at 0; DS-HP-DEATH: heroes at minus their winded value.
    if (!x.hero && x.stamina <= 0) || (x.hero && x.stamina <= -x.winded_value()) {
        // DS-SLAM-3: the body of a target its ability still has to force-move stays for now.
        let body_stays = cx.s.flow.iter().any(|f| matches!(f, Frame::Bodies { cs } if cs.contains(&c)));
        let hero = x.hero;
        cx.emit(Event::Died { creature: cx.s.who(c), body_stays });
        if hero {
            crate::heroic::hero_died(cx, c); // DS-GAP-15: the troubadour's drama
        }
    } else if x.hero && x.stamina <= 0 {
        cx.emit(Event::Note { text: format!("{} is dying (and bleeding until it is not)", x.id) });
    }
}

/// Regains Stamina up to the maximum.
pub fn heal(cx: &mut Ctx, c: Cx, amount: i32, why: &str) {
    let x = cx.s.c(c);
    if x.minion {
        return; // DS-GAP-19: minions cannot be healed
    }
    let stamina = (x.stamina + amount).min(x.max_stamina).max(x.stamina);
    if stamina != x.stamina {
        cx.emit(Event::Healed { creature: cx.s.who(c), amount: stamina - x.stamina, stamina, why: why.into() });
    }
}

/// Spends a Recovery: regain the recovery value (DS-REC-1).
pub fn spend_recovery(cx: &mut Ctx, c: Cx, why: &str) {
    let left = cx.s.c(c).recoveries - 1;
    cx.emit(Event::RecoverySpent { creature: cx.s.who(c), left });
    let v = cx.s.c(c).recovery_value();
    heal(cx, c, v, why);
}

/// What a bleeding creature just did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deed {
    /// A main action.
    Main,
    /// A maneuver.
    Maneuver,
    /// A triggered action.
    Triggered,
    /// A Might or Agility test or roll.
    MightOrAgility,
}

/// Bleeding (DS-COND-BLEED, DS-DELTA-1): after the deed, lose 1d6 Stamina (+ level by the
/// published rule, which no longer counts maneuvers).
pub fn bleed(cx: &mut Ctx, c: Cx, deed: Deed) -> Result<(), RuleError> {
    if !cx.s.has(c, crate::model::ConditionKind::Bleeding) || !cx.s.c(c).active() {
        return Ok(());
    }
    let published = cx.s.options.bleeding == Text::Published;
    if published && deed == Deed::Maneuver {
        return Ok(());
    }
    let d = cx.dice.roll(6)? as i32;
    let amount = if published { d + cx.s.c(c).level } else { d };
    lose(cx, c, amount, "bleeding");
    Ok(())
}

/// Entering a square: damaging terrain hurts as if walked into (DS-FM-6).
pub fn entered(cx: &mut Ctx, c: Cx, q: Pos) {
    if cx.s.terrain_at(q) == Terrain::Damaging {
        let d = cx.s.arena.terrain_damage;
        deal(cx, c, d, None, "damaging terrain");
    }
}
