//! Zones and damaging terrain (K-ZONE, K-TER-2): a zone affects a given creature at most once
//! per round (K-ZONE-2), reset at the end of that creature's turn (K-ZONE-3).

use crate::content::powers::ZoneKind;
use crate::engine::arena::Terrain;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
pub use crate::engine::records::zones::PowerZone;
use crate::engine::state::{State, UnitIdx};
use crate::rules::damage;
pub use crate::rules::query::{barred, revealed_to, zone_vulnerable};
pub use crate::rules::query::{concealed_by_zone, curtain_between};
use crate::rules::statuses::StatusKind;
use fray_core::geometry::distance;
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;

/// Zone id of the map's damaging terrain.
pub const TERRAIN_ZONE: u32 = 0;
/// Zone id of pits (forced into a pit: 1 damage, K-TER-8).
pub const PIT_ZONE: u32 = 1;
/// Zone id of slick ground (entering: save or fall Prone, K-TER-8).
pub const SLICK_ZONE: u32 = 2;

fn on_terrain(s: &State, at: Pos, size: i32, t: Terrain) -> bool {
    footprint(at, size).any(|q| s.arena.at(q) == t)
}

/// Whether moving the footprint from `from` to `to` enters a square of terrain `t`
/// (K-LARGE-2: squares already under it are not entered).
pub fn enters(s: &State, unit: UnitIdx, from: Pos, to: Pos, t: Terrain) -> bool {
    let size = s.unit(unit).size;
    footprint(to, size).any(|q| s.arena.at(q) == t && distance(from, size, q, 1) > 0)
}

fn hit(
    cx: &mut Ctx,
    unit: UnitIdx,
    zone: u32,
    amount: i32,
    why: &str,
    credit: Option<UnitIdx>,
) -> Result<(), RuleError> {
    if cx.s.unit(unit).zone_hits & (1 << zone) != 0 {
        return Ok(()); // K-ZONE-2: once per round
    }
    cx.emit(Event::ZoneHit { unit: cx.s.who(unit), zone });
    // Trapper: a save against terrain (the map's, or Damaging Terrain a power laid).
    let terrain = zone == TERRAIN_ZONE
        || zone == PIT_ZONE
        || cx.s.zones.iter().any(|z| z.bit == zone && matches!(z.kind, ZoneKind::Damaging | ZoneKind::EntryDamage));
    let what = if zone == PIT_ZONE { "the pit" } else { "damaging terrain" };
    if terrain && (crate::engine::hooks::specialists(cx.s).evades)(cx, unit, what)? {
        return Ok(());
    }
    damage::deal(cx, unit, amount, credit, why, None);
    Ok(())
}

/// A unit moved from `from` to `to` (moved by `by`: itself, another creature, or nobody):
/// damaging terrain it entered hurts (K-TER-2); a pit it was forced into does 1 damage
/// (K-TER-8). Hovering creatures ignore damaging terrain. The map's own terrain credits
/// nobody (K-SCO-2) unless the creature walked in itself: a creature that Takes itself Out that
/// way takes a Strike (K-STK-3, see rulings).
pub fn entered(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos, by: Option<UnitIdx>) -> Result<(), RuleError> {
    entered_as(cx, unit, from, to, by, false)
}

/// [`entered`], for a mover that may ignore Damaging Terrain (a Misty Charge).
pub fn entered_as(
    cx: &mut Ctx,
    unit: UnitIdx,
    from: Pos,
    to: Pos,
    by: Option<UnitIdx>,
    misty: bool,
) -> Result<(), RuleError> {
    if !cx.s.unit(unit).on_map() {
        return Ok(());
    }
    // Asked (of the state before any hit) only where the terrain makes it matter.
    let hovering = std::cell::OnceCell::new();
    let hovering = |s: &State| *hovering.get_or_init(|| s.has(unit, StatusKind::Hovering));
    let own = by == Some(unit);
    // K-ST-Hovering: Damaging Terrain (and pits) do not touch it; special terrain still does.
    if !misty && enters(cx.s, unit, from, to, Terrain::Damaging) && !hovering(cx.s) {
        let amount = cx.s.arena.terrain_damage;
        hit(cx, unit, TERRAIN_ZONE, amount, "damaging terrain", own.then_some(unit))?;
    }
    if !own && enters(cx.s, unit, from, to, Terrain::Pit) && !hovering(cx.s) {
        hit(cx, unit, PIT_ZONE, 1, "forced into a pit", None)?;
    }
    // Slick ground: a save or a fall (which ends a move under way, K-MOVE-10).
    carry_auras(cx, unit, to);
    if cx.s.arena.throne.is_some() {
        crate::rules::map_rules::entered(cx, unit); // nobody on the Throne is Hidden (K-CONC-9)
    }
    entered_power_zones(cx, unit, from, to)?;
    crate::rules::creeps::swarm::entered(cx, unit, from, to); // K-CTYPE-8: into a Mob
    if cx.s.unit(unit).on_map()
        && enters(cx.s, unit, from, to, Terrain::Slick)
        && cx.s.unit(unit).zone_hits & (1 << SLICK_ZONE) == 0
        && !cx.s.has(unit, StatusKind::Prone)
    {
        cx.emit(Event::ZoneHit { unit: cx.s.who(unit), zone: SLICK_ZONE });
        if !crate::rules::saves::saving_throw(cx, unit, "slick ground")? {
            let prone =
                crate::rules::statuses::Status::simple(StatusKind::Prone, crate::rules::statuses::Duration::Indefinite);
            crate::rules::statuses::give::give_status(cx, unit, prone, "slipped on slick ground");
        }
    }
    // Traps and walls, Bura's Traveling Fire, Line-of-Sight Curse, Scouting Warp, Floor Portal,
    // Vortex Warp, a Kerpoof's territory.
    crate::engine::hooks::square_entered(cx, &crate::engine::hooks::Entered { unit, from, to, by })
}

/// Starting a turn in damaging terrain hurts (K-TER-2, K-ZONE-5).
pub fn start_turn_in_terrain(cx: &mut Ctx, unit: UnitIdx) -> Result<(), RuleError> {
    let Some(at) = cx.s.unit(unit).pos else {
        return Ok(());
    };
    if on_terrain(cx.s, at, cx.s.unit(unit).size, Terrain::Damaging) && !cx.s.has(unit, StatusKind::Hovering) {
        let amount = cx.s.arena.terrain_damage;
        hit(cx, unit, TERRAIN_ZONE, amount, "starts its turn in damaging terrain", None)?;
    }
    // Damaging Terrain a power laid (K-ZONE-5).
    let size = cx.s.unit(unit).size;
    let hurts = |s: &State, zone: &PowerZone| {
        zone.kind == ZoneKind::Damaging || zone.kind == ZoneKind::Aura && aura_hurts(s, zone, unit)
    };
    // Nothing changes until a zone hurts: with none hurting on this square now, the walk
    // below (over a copy, as hits may change the zones) would do nothing.
    let any = cx.s.zones.iter().any(|zone| hurts(cx.s, zone) && zone.touches(at, size));
    for zone in if any { cx.s.zones.clone() } else { Default::default() } {
        if hurts(cx.s, &zone)
            && zone.touches(at, size)
            && cx.s.unit(unit).on_map()
            && !cx.s.has(unit, StatusKind::Hovering)
        {
            let name = format!("starts its turn in {}", cx.s.powers.get(zone.power).name);
            hit(cx, unit, zone.bit, zone.amount, &name, Some(zone.owner))?;
        }
    }
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::StartTerrain, unit); // Bura's Traveling Fire
    Ok(())
}

/// Whether a square is dangerous to be forced into: damaging terrain or a pit (K-ZONE-6).
pub fn dangerous(s: &State, unit: UnitIdx, at: Pos) -> bool {
    let size = s.unit(unit).size;
    let zone = s.zones.iter().any(|z| {
        (matches!(z.kind, ZoneKind::Damaging | ZoneKind::EntryDamage)
            || z.kind == ZoneKind::Aura && aura_hurts(s, z, unit))
            && z.touches(at, size)
    });
    !s.has(unit, StatusKind::Hovering)
        && (on_terrain(s, at, size, Terrain::Damaging) || on_terrain(s, at, size, Terrain::Pit) || zone)
}

// ---------------------------------------------------------------- zones left by powers

impl PowerZone {
    /// Its top-left square.
    pub fn corner(&self) -> Pos {
        Pos::new(self.centre.x - self.size / 2, self.centre.y - self.size / 2)
    }
    /// Whether square `p` is inside.
    pub fn contains(&self, p: Pos) -> bool {
        let c = self.corner();
        (c.x..c.x + self.size).contains(&p.x) && (c.y..c.y + self.size).contains(&p.y)
    }
    /// Whether any part of a footprint is inside (K-ZONE-8).
    pub fn touches(&self, at: Pos, size: i32) -> bool {
        footprint(at, size).any(|q| self.contains(q))
    }
    /// Whether a whole footprint is inside.
    pub fn holds(&self, at: Pos, size: i32) -> bool {
        footprint(at, size).all(|q| self.contains(q))
    }
}

/// The squares of a `size` by `size` area centred on `centre`.
pub fn area_squares(centre: Pos, size: i32) -> impl Iterator<Item = Pos> {
    let h = size / 2;
    (centre.y - h..=centre.y + h).flat_map(move |y| (centre.x - h..=centre.x + h).map(move |x| Pos::new(x, y)))
}

/// Squares a power's area may be centred on: on the arena, within `range` of the user.
pub fn area_centres(s: &State, u: UnitIdx, range: i32) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    let (w, h) = s.arena.size();
    (0..h)
        .flat_map(|y| (0..w).map(move |x| Pos::new(x, y)))
        .filter(|&q| s.arena.at(q) != Terrain::Edge && distance(p, size, q, 1) <= range)
        .collect()
}

/// The creatures an area power of `u` centred on `centre` affects, nearest the centre first:
/// any part of them inside (K-ZONE-8), a line from the centre to them (K-COV-2), and of the
/// kind the power affects.
pub fn area_targets(s: &State, u: UnitIdx, power: u16, centre: Pos) -> Vec<UnitIdx> {
    let def = s.powers.get(power);
    let crate::content::powers::Targeting::Area { size, .. } = def.target else { return Vec::new() };
    let size = size + crate::rules::query::area_growth(s, u, def); // Empowering Staff: 3x3 to 4x4
    if def.effect.is_empty() && def.from_level.is_empty() && def.damage.is_none() {
        return Vec::new(); // a zone and nothing else: nobody is a target
    }
    let zone =
        PowerZone { bit: 0, owner: u, power, centre, size, kind: ZoneKind::Conceal, amount: 0, ends_after_turn: None };
    let affects = def.affects();
    let mut ts: Vec<UnitIdx> = s
        .units_on_map()
        .filter(|&t| zone.touches(s.unit(t).pos.unwrap(), s.unit(t).size))
        .filter(|&t| affects.includes(s, u, t))
        .filter(|&t| s.unit(t).kind != crate::engine::state::UnitKind::Conjured) // K-DEF-5: never a target
        .filter(|&t| crate::rules::cover::shot(s, centre, 1, t) != fray_core::sight::Sight::Blocked)
        .filter(|&t| !def.is_attack() || !crate::rules::query::attack_forbidden(s, u, t)) // Spread Fire
        .collect();
    ts.sort_by_key(|&t| (distance(centre, 1, s.unit(t).pos.unwrap(), s.unit(t).size), t));
    ts
}

/// Lays down the zone `power` leaves, centred on `centre`: Damaging Terrain hurts those it
/// appears on (K-ZONE-5), a revealing zone reveals those inside.
pub fn create(cx: &mut Ctx, owner: UnitIdx, power: u16, centre: Pos) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    let (Some(z), crate::content::powers::Targeting::Area { size, .. }) = (&def.zone, def.target) else {
        return Ok(());
    };
    let size = size + crate::rules::query::area_growth(cx.s, owner, &def); // Empowering Staff
    let used: u64 = cx.s.zones.iter().fold(0, |m, z| m | 1 << z.bit);
    let Some(bit) = (FIRST_POWER_ZONE..64).find(|b| used & (1 << b) == 0) else {
        cx.emit(Event::Note { text: "too many zones on the map: the oldest must end first".into() });
        return Ok(());
    };
    let ends_after_turn = match z.until {
        Some(crate::content::powers::ZoneLasts::Encounter) => None,
        _ => Some(cx.s.unit(owner).turns_started + 1),
    };
    let zone = PowerZone { bit, owner, power, centre, size, kind: z.kind, amount: z.amount, ends_after_turn };
    cx.emit(Event::ZoneCreated { owner: cx.s.who(owner), name: def.name.clone(), zone: zone.clone() });
    let inside: Vec<UnitIdx> =
        cx.s.units_on_map().filter(|&t| zone.touches(cx.s.unit(t).pos.unwrap(), cx.s.unit(t).size)).collect();
    for t in inside {
        match zone.kind {
            ZoneKind::Damaging if !cx.s.has(t, StatusKind::Hovering) => {
                hit(cx, t, bit, zone.amount, &def.name, Some(owner))?;
            }
            ZoneKind::Reveal => reveal(cx, t, &zone, &def.name),
            _ => {}
        }
    }
    Ok(())
}

/// Lays `zone` (its `bit` is given here), a zone an Effect hook makes: Curtain of Shadows,
/// Salamander Elixir. Nothing happens to those it appears on.
pub fn lay(cx: &mut Ctx, mut zone: PowerZone) {
    let used: u64 = cx.s.zones.iter().fold(0, |m, z| m | 1 << z.bit);
    let Some(bit) = (FIRST_POWER_ZONE..64).find(|b| used & (1 << b) == 0) else {
        cx.emit(Event::Note { text: "too many zones on the map: the oldest must end first".into() });
        return;
    };
    zone.bit = bit;
    let name = cx.s.powers.get(zone.power).name.clone();
    cx.emit(Event::ZoneCreated { owner: cx.s.who(zone.owner), name, zone });
}

/// Whether a travelling damaging zone hurts `unit`: not its owner, and only while the owner is on
/// the map.
fn aura_hurts(s: &State, zone: &PowerZone, unit: UnitIdx) -> bool {
    unit != zone.owner && s.unit(zone.owner).on_map()
}

/// `unit` stepped onto `to`: the zones travelling with it move along (Salamander Elixir).
fn carry_auras(cx: &mut Ctx, unit: UnitIdx, to: Pos) {
    let moving: Vec<u32> =
        cx.s.zones.iter().filter(|z| z.kind == ZoneKind::Aura && z.owner == unit).map(|z| z.bit).collect();
    for bit in moving {
        cx.emit(Event::ZoneMoved { bit, centre: to });
    }
}

/// The first zone-hit bit power zones use; lower ones are the map's terrain.
pub const FIRST_POWER_ZONE: u32 = 3;

fn reveal(cx: &mut Ctx, t: UnitIdx, zone: &PowerZone, name: &str) {
    if cx.s.unit(t).zone_hits & (1 << zone.bit) != 0 {
        return; // K-ZONE-2
    }
    cx.emit(Event::ZoneHit { unit: cx.s.who(t), zone: zone.bit });
    let duration = crate::rules::query::duration_for(
        cx.s,
        zone.owner,
        t,
        Some(crate::rules::statuses::Until::EndOfTargetsNextTurn),
    );
    let status = crate::rules::statuses::Status {
        kind: StatusKind::Revealed,
        amount: 0,
        source: Some(zone.owner),
        origin: Some(zone.power),
        duration,
    };
    crate::rules::statuses::give::give_status(cx, t, status, name);
}

/// Power zones a creature moving from `from` to `to` comes into (K-ZONE-2: once per round each).
fn entered_power_zones(cx: &mut Ctx, unit: UnitIdx, from: Pos, to: Pos) -> Result<(), RuleError> {
    let size = cx.s.unit(unit).size;
    for zone in cx.s.zones.clone() {
        if !cx.s.unit(unit).on_map() {
            return Ok(());
        }
        let name = cx.s.powers.get(zone.power).name.clone();
        let came_in = zone.touches(to, size) && !zone.touches(from, size);
        match zone.kind {
            ZoneKind::EntryDamage if came_in => hit(cx, unit, zone.bit, zone.amount, &name, Some(zone.owner))?,
            ZoneKind::Reveal if came_in => reveal(cx, unit, &zone, &name),
            ZoneKind::Aura if came_in && aura_hurts(cx.s, &zone, unit) => {
                hit(cx, unit, zone.bit, zone.amount, &name, Some(zone.owner))?
            }
            // Damaging Terrain: entering any of its squares (K-TER-2), Hovering spared.
            ZoneKind::Damaging
                if !cx.s.has(unit, StatusKind::Hovering)
                    && footprint(to, size).any(|q| zone.contains(q) && distance(from, size, q, 1) > 0) =>
            {
                hit(cx, unit, zone.bit, zone.amount, &name, Some(zone.owner))?
            }
            _ => {}
        }
    }
    Ok(())
}

/// Zones that end as `unit`'s turn ends.
pub fn expire(cx: &mut Ctx, unit: UnitIdx) {
    let turn = cx.s.unit(unit).turns_started;
    let ending: Vec<u32> =
        cx.s.zones
            .iter()
            .filter(|z| z.owner == unit && z.ends_after_turn.is_some_and(|t| t <= turn))
            .map(|z| z.bit)
            .collect();
    for bit in ending {
        let name = cx.s.zones.iter().find(|z| z.bit == bit).map(|z| cx.s.powers.get(z.power).name.clone());
        cx.emit(Event::ZoneEnded { bit, name: name.unwrap_or_default() });
    }
}

/// Zones that last to the end of their owner's turn.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_turn(crate::engine::hooks::Trigger::EndOfTurn, 20, "K-ZONE-1", expire);
    r.zones(crate::engine::hooks::Zones { entered_as });
}
