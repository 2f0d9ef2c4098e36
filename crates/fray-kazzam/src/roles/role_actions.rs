//! Role Actions played in Rust (K-ROLE, rulebook L1823-2215): the ones whose clauses no effect
//! primitive carries. Draw a Bead, Cloak, Outflank, Restore's Advantage and Spread Fire leave
//! [`Modifier`]s that attack rolls, cover and saves read; Hide gives Hidden with its own limits;
//! Outflank, Restore, Bust Some Heads!, Replace Traps, Swipe and Battlefield Repositioning ask
//! their questions through a [`RoleFrame`]. The Terrain Artist's Change Terrain, Boost Square and
//! Major Terrain change the arena itself (K-TER: squares, pedestals) through events.

pub use crate::content::hooks::ROLE_ACTIONS_POWER as HOOKS;
use crate::engine::arena::Terrain;
use crate::engine::events::{Event, How};
pub use crate::engine::frames::roles::RoleFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{Implement, OrbIdx, OrbLoc, State, UnitIdx, UnitKind};
pub use crate::rules::cover::bead_clears_cover;
use crate::rules::modifiers::{Attackers, Modifier, ModifierKind};
pub use crate::rules::query::concealed_at_distance;
pub use crate::rules::query::{attack_forbidden, bead_ignores_concealment, boost_damage, free_step, sees_hidden};
use crate::rules::query::{boost_under, find_modifier as find};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// How far the Specialist's and Leader's "within 5 squares" reaches.
const NEAR: i32 = 5;

fn hook(s: &State, power: u16) -> Option<&str> {
    s.powers.get(power).hook.as_deref()
}

/// The end of `u`'s current turn ("this turn").
fn this_turn(s: &State, u: UnitIdx) -> Duration {
    let who = s.current().unwrap_or(u);
    Duration::EndOfTurn { unit: who, turn: s.unit(who).turns_started }
}

fn lay(cx: &mut Ctx, power: u16, m: Modifier) {
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::ModifierAdded { name, modifier: m });
}

fn record(
    kind: ModifierKind,
    user: UnitIdx,
    against: Option<UnitIdx>,
    amount: i32,
    duration: Duration,
    power: u16,
) -> Modifier {
    Modifier {
        kind,
        amount,
        attackers: Attackers::Unit(user),
        against,
        first: false,
        during: None,
        duration,
        source: user,
        power,
    }
}

// ------------------------------------------------------------------ Draw a Bead, Cloak, Gas

// ------------------------------------------------------------------ Hide

/// Why `u` may not Hide now, if it may not (L2057-2061).
fn hide_refusal(s: &State, u: UnitIdx) -> Option<String> {
    let n = s.unit(u).turns_started;
    if s.modifiers
        .iter()
        .any(|m| m.kind == ModifierKind::HideUsed && m.attackers == Attackers::Unit(u) && m.amount + 1 == n as i32)
    {
        return Some(format!("{} hid on its last turn: not two turns in a row", s.unit(u).id));
    }
    if s.current() != Some(u) {
        return Some("Hide is used at the end of your own turn".into());
    }
    s.unit(u).pos?;
    if crate::rules::map_rules::on_throne(s, u) {
        return Some(format!("{} is on the Throne, where nobody can be Hidden (K-CONC-9)", s.unit(u).id));
    }
    for e in s.units_on_map().filter(|&e| s.enemies(u, e) && sees(s.unit(e).kind)) {
        let (ep, es) = (s.unit(e).pos.unwrap(), s.unit(e).size);
        let blocked = crate::rules::cover::shot(s, ep, es, u) == fray_core::sight::Sight::Blocked;
        if !blocked && !crate::rules::cover::has_cover(s, ep, es, u) && !crate::rules::cover::concealed_from(s, u, e) {
            return Some(format!("{} has neither Cover nor Concealment from {}", s.unit(u).id, s.unit(e).id));
        }
    }
    None
}

/// Creatures that look about: not traps, walls or conjured creatures.
fn sees(k: UnitKind) -> bool {
    !matches!(k, UnitKind::Trap | UnitKind::Wall | UnitKind::Conjured)
}

/// Whether a unit whose turn was cut short may still Hide as it ends (L2059: usable even when
/// no further action would be).
pub fn hide_offer(s: &State, u: UnitIdx) -> Option<u16> {
    let p = s.powers.find("specialist-hide")?;
    (s.unit(u).powers.contains(&p) && crate::rules::actions::check_power_use(s, u, p, false).is_ok()).then_some(p)
}

/// A creature that attacked stops being Hidden by Hide (L2061: "or until you attack").
pub fn attacked(cx: &mut Ctx, u: UnitIdx) {
    let Some(p) = cx.s.powers.find("specialist-hide") else { return };
    for st in cx.s.unit(u).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Hidden && s.origin == Some(p))
    {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "it attacked".into() });
    }
}

// ------------------------------------------------------------------ Spread Fire

/// Attacks by a Blaster are written down for the rest of the turn (Spread Fire may not
/// target what it attacked this turn).
pub fn note_attack(cx: &mut Ctx, attacker: UnitIdx, targets: &[UnitIdx], power: u16) {
    let Some(sf) = cx.s.powers.find("spread-fire") else { return };
    if !cx.s.unit(attacker).powers.contains(&sf) || !cx.s.powers.get(power).is_attack() {
        return;
    }
    for &t in targets {
        if find(cx.s, ModifierKind::Attacked, attacker, t).is_none() {
            let d = this_turn(cx.s, attacker);
            lay(cx, sf, record(ModifierKind::Attacked, attacker, Some(t), 0, d, sf));
        }
    }
}

// ------------------------------------------------------------------ Restore's Advantage

/// Whether `u`'s next saving throw or escape roll has Advantage; using it up.
pub fn save_advantage(cx: &mut Ctx, u: UnitIdx) -> bool {
    let Some(i) =
        cx.s.modifiers.iter().position(|m| m.kind == ModifierKind::SaveAdvantage && m.attackers == Attackers::Unit(u))
    else {
        return false;
    };
    cx.emit(Event::ModifierEnded { index: i, why: "used on a saving throw".into() });
    true
}

// ------------------------------------------------------------------ Outflank

/// A miss by an ally on an Outflanked target: one more Miss Token (player characters only).
pub fn outflank_missed(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) {
    let Some(i) = cx.s.modifiers.iter().position(|m| {
        m.kind == ModifierKind::Outflank
            && m.applies(cx.s, attacker, target)
            && cx.s.distance(m.source, target) == Some(1)
    }) else {
        return;
    };
    cx.emit(Event::ModifierEnded { index: i, why: "the ally missed".into() });
    if cx.s.unit(attacker).pc {
        let total = cx.s.unit(attacker).miss_tokens + 1;
        cx.emit(Event::MissToken { unit: cx.s.who(attacker), total });
    }
}

/// Squares next to `t` (other than `u`'s own) that `u` can reach by shifting up to 2 squares,
/// with the path to each.
fn outflank_squares(s: &State, u: UnitIdx, t: UnitIdx) -> Vec<(Pos, Vec<Pos>)> {
    let un = s.unit(u);
    let (Some(p), Some(tp)) = (un.pos, s.unit(t).pos) else { return Vec::new() };
    if s.has(u, StatusKind::Immobilized) {
        return Vec::new();
    }
    let (size, ts) = (un.size, s.unit(t).size);
    let footing = crate::rules::movement::Footing::of(s, u);
    let step = |a: Pos, b: Pos| footing.step_cost(a, b) == Some(1);
    let mut out: Vec<(Pos, Vec<Pos>)> = Vec::new();
    let consider = |q: Pos, path: Vec<Pos>, out: &mut Vec<(Pos, Vec<Pos>)>| {
        if q != p && distance(q, size, tp, ts) == 1 && footing.can_stand(q, size) && !out.iter().any(|(o, _)| *o == q) {
            out.push((q, path));
        }
    };
    for a in p.neighbours() {
        if !step(p, a) {
            continue;
        }
        consider(a, vec![a], &mut out);
    }
    for a in p.neighbours() {
        if !step(p, a) {
            continue;
        }
        for b in a.neighbours() {
            if b != p && step(a, b) {
                consider(b, vec![a, b], &mut out);
            }
        }
    }
    out.sort_by_key(|(q, _)| (q.y, q.x));
    out
}

// ------------------------------------------------------------------ Bust Some Heads!

/// Allies `u` could slide next to enemy `e`: within 5 of `u`, movable, and with a path.
fn bust_allies(s: &State, u: UnitIdx, e: UnitIdx) -> impl Iterator<Item = UnitIdx> + '_ {
    s.units_on_map()
        .filter(move |&a| {
            a != u && !s.enemies(u, a) && crate::rules::summons::movable(s.unit(a)) && sees(s.unit(a).kind)
        })
        .filter(move |&a| s.distance(u, a).is_some_and(|d| d <= NEAR))
        .filter(move |&a| bust_reaches(s, a, e))
}

/// Whether ally `a` has a slide to a square next to `e` ([`bust_squares`] is not empty); the
/// search stops at the first such square.
fn bust_reaches(s: &State, a: UnitIdx, e: UnitIdx) -> bool {
    let Some(ep) = s.unit(e).pos else { return false };
    let (es, size) = (s.unit(e).size, s.unit(a).size);
    slide_search(s, a, u32::MAX, |q| distance(q, size, ep, es) == 1).1
}

/// Where ally `a` may be slid to end next to `e`, each with its path (empty: it stays). A slide
/// of any length over squares it could stand on, clear of danger (see rulings).
fn bust_squares(s: &State, a: UnitIdx, e: UnitIdx) -> Vec<(Pos, Vec<Pos>)> {
    let Some(ep) = s.unit(e).pos else { return Vec::new() };
    let es = s.unit(e).size;
    let size = s.unit(a).size;
    slide_paths(s, a, u32::MAX, |q| distance(q, size, ep, es) == 1)
}

/// Squares `unit` may be slid to within `budget` squares of movement (Difficult Terrain costs
/// 2), over squares it could stand on and clear of danger, ending where `goal` allows; with the
/// cheapest path to each (empty for its own square).
fn slide_paths(s: &State, unit: UnitIdx, budget: u32, goal: impl Fn(Pos) -> bool) -> Vec<(Pos, Vec<Pos>)> {
    let Some(start) = s.unit(unit).pos else { return Vec::new() };
    if s.has(unit, StatusKind::Immobilized) || !crate::rules::summons::movable(s.unit(unit)) {
        return Vec::new();
    }
    let (cost, _) = slide_search(s, unit, budget, |_| false);
    let mut out = Vec::new();
    for (&q, _) in cost.iter().filter(|(q, _)| goal(**q)) {
        let mut path = Vec::new();
        let mut at = q;
        while at != start {
            path.push(at);
            at = cost[&at].1;
        }
        path.reverse();
        out.push((q, path));
    }
    out.sort_by_key(|(q, _)| (q.y, q.x));
    out
}

/// The squares `unit` may slide to within `budget` (see [`slide_paths`]), each with its cost
/// and the square it is reached from; and whether a square where `stop` holds was reached,
/// which ends the search at once (a square is only ever entered within the budget, so it is
/// reachable whatever the search would find later).
fn slide_search(
    s: &State,
    unit: UnitIdx,
    budget: u32,
    stop: impl Fn(Pos) -> bool,
) -> (std::collections::HashMap<Pos, (u32, Pos)>, bool) {
    let Some(start) = s.unit(unit).pos else { return Default::default() };
    let mut cost: std::collections::HashMap<Pos, (u32, Pos)> = std::collections::HashMap::from([(start, (0, start))]);
    if s.has(unit, StatusKind::Immobilized) || !crate::rules::summons::movable(s.unit(unit)) {
        return (cost, false);
    }
    if stop(start) {
        return (cost, true);
    }
    let size = s.unit(unit).size;
    let footing = crate::rules::movement::Footing::of(s, unit);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        let c0 = cost[&p].0;
        for q in p.neighbours() {
            let Some(step) = footing.step_cost(p, q) else { continue };
            let c = c0.saturating_add(step);
            if c > budget
                || cost.get(&q).is_some_and(|&(old, _)| old <= c)
                || !footing.can_stand(q, size)
                || crate::rules::zones::dangerous(s, unit, q)
            {
                continue;
            }
            cost.insert(q, (c, p));
            if stop(q) {
                return (cost, true);
            }
            queue.push_back(q);
        }
    }
    (cost, false)
}

/// The enemies of `u` in a Battlefield Repositioning zone centred on `centre`, nearest the centre
/// first: any part inside, in sight of the centre, movable.
fn reposition_targets(s: &State, u: UnitIdx, power: u16, centre: Pos) -> Vec<UnitIdx> {
    let crate::content::powers::Targeting::Area { size, .. } = s.powers.get(power).target else { return Vec::new() };
    let zone = zone_at(power, u, centre, size);
    let mut ts: Vec<UnitIdx> = s
        .units_on_map()
        .filter(|&t| s.enemies(u, t) && crate::rules::summons::movable(s.unit(t)))
        .filter(|&t| zone.touches(s.unit(t).pos.unwrap(), s.unit(t).size))
        .filter(|&t| crate::rules::cover::shot(s, centre, 1, t) != fray_core::sight::Sight::Blocked)
        .collect();
    ts.sort_by_key(|&t| (distance(centre, 1, s.unit(t).pos.unwrap(), s.unit(t).size), t));
    ts
}

fn zone_at(power: u16, owner: UnitIdx, centre: Pos, size: i32) -> crate::rules::zones::PowerZone {
    crate::rules::zones::PowerZone {
        bit: 0,
        owner,
        power,
        centre,
        size,
        kind: crate::content::powers::ZoneKind::Conceal,
        amount: 0,
        ends_after_turn: None,
    }
}

/// Where Battlefield Repositioning may slide `e`: up to 5 squares, onto another square wholly in
/// the zone.
fn reposition_squares(s: &State, e: UnitIdx, power: u16, centre: Pos) -> Vec<(Pos, Vec<Pos>)> {
    let crate::content::powers::Targeting::Area { size, .. } = s.powers.get(power).target else { return Vec::new() };
    let zone = zone_at(power, e, centre, size);
    let (start, es) = (s.unit(e).pos, s.unit(e).size);
    slide_paths(s, e, 5, |q| Some(q) != start && zone.holds(q, es))
}

// ------------------------------------------------------------------ Replace Traps

fn own_traps(s: &State, u: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| s.unit(t).kind == UnitKind::Trap && s.unit(t).placed.as_ref().is_some_and(|p| p.owner == Some(u)))
        .collect()
}

/// New spots for trap `trap`: within 5 of `u`, open ground with no creature and no other trap.
fn trap_spots(s: &State, u: UnitIdx, trap: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| {
            let d = distance(p, size, q, 1);
            d <= NEAR && s.arena.at(q).enterable() && s.arena.at(q) != Terrain::Portal && Some(q) != s.unit(trap).pos
        })
        .filter(|&q| {
            s.units_on_map().filter(|&o| o != trap).all(|o| distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) > 0)
        })
        .collect()
}

// ------------------------------------------------------------------ Swipe

/// What Swipe could take: (option id, label).
fn swipe_options(s: &State, u: UnitIdx) -> Vec<(String, String)> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    let hands = crate::rules::orbs::free_hands(s, u) > 0;
    let own = |o: OrbIdx| s.orbs[o as usize].color == s.unit(u).side;
    let mut out = Vec::new();
    for t in s.units_on_map() {
        if t == u
            || s.distance(u, t) != Some(1)
            || s.hidden_from(t, u)
            || !crate::rules::summons::takes_actions(s.unit(t))
        {
            continue;
        }
        for o in s.held_orbs(t) {
            if hands || own(o) {
                let id = &s.orbs[o as usize].id;
                out.push((format!("orb:{id}"), format!("take orb {id} from {}", s.unit(t).id)));
            }
        }
        if s.unit(t).implement != Implement::None && !s.unit(t).stowed {
            out.push((format!("implement:{}", s.unit(t).id), format!("take {}'s implement", s.unit(t).id)));
        }
    }
    for o in 0..s.orbs.len() as OrbIdx {
        if let OrbLoc::Pedestal { pedestal } = s.orbs[o as usize].loc
            && distance(p, size, s.arena.pedestals[pedestal as usize].at, 1) == 1
            && (hands || own(o))
        {
            let id = &s.orbs[o as usize].id;
            out.push((
                format!("orb:{id}"),
                format!("take orb {id} from pedestal {}", s.arena.pedestals[pedestal as usize].id),
            ));
        }
    }
    out
}

/// Squares next to `u` where an orb may be dropped.
fn drop_squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(p, size, q, 1) == 1 && s.arena.at(q).enterable() && s.arena.at(q) != Terrain::Pedestal)
        .collect()
}

// ------------------------------------------------------------------ Change Terrain

/// What Change Terrain may make at level `level` (L2091-2103): Regular Terrain, Low Cover, Pit,
/// Slick; from level 4 Gas and Water too.
pub fn terrain_list(level: u8) -> Vec<(&'static str, Terrain)> {
    let mut v = vec![
        ("open", Terrain::Open),
        ("low-cover", Terrain::LowCover),
        ("pit", Terrain::Pit),
        ("slick", Terrain::Slick),
    ];
    if level >= 4 {
        v.extend([("gas", Terrain::Gas), ("water", Terrain::Water)]);
    }
    v
}

/// Whether Change Terrain may work on square `q`: ordinary ground, not walls, pedestals or the
/// map's own features (portals, exits, the Dungeon, the edge).
pub fn changeable(s: &State, q: Pos) -> bool {
    matches!(
        s.arena.at(q),
        Terrain::Open
            | Terrain::Difficult
            | Terrain::Damaging
            | Terrain::Water
            | Terrain::LowCover
            | Terrain::Pit
            | Terrain::Slick
            | Terrain::Gas
            | Terrain::Boost(_)
    ) && !s.arena.in_dungeon(q)
        && !crate::rules::summons::wall_at(s, q)
}

/// Squares within 5 of `u` that Change Terrain can change, with what each may become.
fn terrain_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    let list = terrain_list(s.unit(u).level);
    let mut out = Vec::new();
    for q in s.arena.terrain.squares().filter(|&q| distance(p, size, q, 1) <= NEAR && changeable(s, q)) {
        for (id, t) in &list {
            // Low Cover cannot go where a creature stands (it is Difficult to cross, see rulings).
            if *t != s.arena.at(q) && (*t != Terrain::LowCover || s.unit_at(q).is_none()) {
                out.push(DecisionOption::new(format!("{},{}:{id}", q.x, q.y), format!("make {q} {id}")));
            }
        }
    }
    out
}

// ------------------------------------------------------------------ Boost Square

/// Squares within 5 of `u` that may become a Boost Square of `u`'s strength: ordinary ground
/// ([`changeable`]) not already one.
fn boost_squares(s: &State, u: UnitIdx) -> Vec<Pos> {
    let Some(p) = s.unit(u).pos else { return Vec::new() };
    let size = s.unit(u).size;
    let strength = if s.unit(u).level >= 4 { 2 } else { 1 };
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(p, size, q, 1) <= NEAR && changeable(s, q) && s.arena.at(q) != Terrain::Boost(strength))
        .collect()
}

/// End Phase: a creature ending its turn on a Boost Square gains its Ward.
pub fn end_of_turn(cx: &mut Ctx, u: UnitIdx) {
    let n = boost_under(cx.s, u);
    if n > 0 && crate::rules::summons::takes_actions(cx.s.unit(u)) {
        let ward = cx.s.unit(u).ward + n;
        cx.emit(Event::WardSet { unit: cx.s.who(u), ward, why: "ended its turn on a Boost Square".into() });
        crate::engine::hooks::ward_gained(cx, u, n, "a Boost Square"); // Empath
    }
}

// ------------------------------------------------------------------ Major Terrain

/// Whether the arena square `q` belongs to the Dungeon or borders it (its walls are the map's).
fn by_dungeon(s: &State, q: Pos) -> bool {
    s.arena.in_dungeon(q) || q.neighbours().iter().any(|&n| s.arena.in_dungeon(n))
}

fn within(s: &State, u: UnitIdx, q: Pos) -> bool {
    let un = s.unit(u);
    un.pos.is_some_and(|p| distance(p, un.size, q, 1) <= NEAR)
}

/// The other team's pedestals within 5 of `u` (indices).
fn enemy_pedestals(s: &State, u: UnitIdx) -> Vec<usize> {
    let side = s.unit(u).side;
    (0..s.arena.pedestals.len())
        .filter(|&i| {
            let p = &s.arena.pedestals[i];
            p.side != side && p.side != crate::engine::arena::Side::Neutral && within(s, u, p.at)
        })
        .collect()
}

/// Squares within 5 of `u` for a work of Major Terrain: a new pedestal (ordinary ground, with
/// nothing on it), a new wall square (ordinary ground with no orb; a creature may stand there), or
/// a wall square to take away (Blocking terrain away from the Dungeon, or a wall unit).
fn major_squares(s: &State, u: UnitIdx, work: &str) -> Vec<Pos> {
    let orb_on = |q: Pos| s.orbs.iter().any(|o| o.loc == OrbLoc::Ground { at: q });
    let anything_on = |q: Pos| s.units_on_map().any(|o| distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) == 0);
    let wall_unit = |q: Pos| crate::rules::summons::wall_at(s, q);
    s.arena
        .terrain
        .squares()
        .filter(|&q| within(s, u, q))
        .filter(|&q| match work {
            "pedestal" => changeable(s, q) && !orb_on(q) && !anything_on(q),
            "wall" => {
                changeable(s, q)
                    && !orb_on(q)
                    && !wall_unit(q)
                    && s.units_on_map().filter(|&o| distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) == 0).count()
                        <= 1
                    && s.units_on_map().all(|o| {
                        let on = distance(s.unit(o).pos.unwrap(), s.unit(o).size, q, 1) == 0;
                        !on || (crate::rules::summons::occupies(s.unit(o))
                            && s.unit(o).size == 1
                            && !shove_from(s, o, q).is_empty())
                    })
            }
            "remove-wall" => (s.arena.at(q) == Terrain::Blocking && !by_dungeon(s, q)) || wall_unit(q),
            _ => false,
        })
        .collect()
}

/// Squares next to `q` where creature `o` could stand once a wall fills `q`.
fn shove_from(s: &State, o: UnitIdx, q: Pos) -> Vec<Pos> {
    q.neighbours()
        .into_iter()
        .filter(|&n| crate::rules::movement::can_stand(s, o, n, 1) && !crate::rules::summons::wall_at(s, n))
        .collect()
}

/// Raises one Major Terrain wall square at `q` (nobody stands there now), then asks for the next.
fn raise_wall(cx: &mut Ctx, user: UnitIdx, q: Pos, left: u8) {
    let sp = crate::rules::summons::Spawn {
        name: "Major Terrain wall".into(),
        kind: UnitKind::Wall,
        at: q,
        hp: 2,
        speed: 0,
        owner: Some(cx.s.who(user)),
        what: "major-terrain".into(),
        charges: 0,
        turn_before: None,
        group: None,
        until_turn: None,
    };
    crate::rules::summons::spawn(cx, sp);
    if left > 1 && !major_squares(cx.s, user, "wall").is_empty() {
        cx.push(Frame::Role(RoleFrame::MajorSquare { user, work: "wall", left: left - 1 }));
    }
}

/// Which works of Major Terrain `u` can do now: (option id, label).
fn major_options(s: &State, u: UnitIdx) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !major_squares(s, u, "pedestal").is_empty() {
        out.push(("pedestal".into(), "make a pedestal for your team".into()));
    }
    if !enemy_pedestals(s, u).is_empty() {
        out.push(("remove-pedestal".into(), "take away one of the other team's pedestals".into()));
    }
    if !major_squares(s, u, "wall").is_empty() {
        out.push(("wall".into(), "raise 2 squares of wall (2 HP each)".into()));
    }
    if !major_squares(s, u, "remove-wall").is_empty() {
        out.push(("remove-wall".into(), "take away 2 squares of wall".into()));
    }
    out
}

/// A fresh id for a new pedestal of `side`: the next free `<side>-<n>`, clear of orb ids too.
fn pedestal_id(s: &State, side: crate::engine::arena::Side) -> String {
    (1..)
        .map(|n| format!("{}-{n}", side.name()))
        .find(|id| !s.arena.pedestals.iter().any(|p| &p.id == id) && s.find_orb(id).is_none())
        .unwrap()
}

/// Carries out one step of a Major Terrain work.
fn major_work(cx: &mut Ctx, user: UnitIdx, work: &'static str, left: u8, option: &str) -> Result<(), RuleError> {
    if work == "remove-pedestal" {
        let i =
            cx.s.arena
                .pedestals
                .iter()
                .position(|p| p.id == option)
                .ok_or_else(|| RuleError::malformed(format!("no pedestal {option:?}")))?;
        cx.emit(Event::PedestalRemoved { index: i, id: option.to_string() });
        return Ok(());
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    match work {
        "pedestal" => {
            let side = cx.s.unit(user).side;
            let p = crate::engine::arena::Pedestal { id: pedestal_id(cx.s, side), at: q, side };
            cx.emit(Event::PedestalAdded { pedestal: p });
        }
        "remove-wall" => {
            let wall =
                cx.s.units_on_map().find(|&w| cx.s.unit(w).kind == UnitKind::Wall && cx.s.unit(w).pos == Some(q));
            match wall {
                Some(w) => cx.emit(Event::Vanished { unit: cx.s.who(w), why: "is taken away by Major Terrain".into() }),
                None => cx.emit(Event::TerrainChanged { at: q, terrain: Terrain::Open, why: "Major Terrain".into() }),
            }
            if left > 1 && !major_squares(cx.s, user, work).is_empty() {
                cx.push(Frame::Role(RoleFrame::MajorSquare { user, work, left: left - 1 }));
            }
        }
        _ => match cx.s.unit_at(q) {
            // Whoever stands there steps aside first, then the wall rises.
            Some(o) => cx.push(Frame::Role(RoleFrame::WallShove { unit: o, user, at: q, left })),
            None => raise_wall(cx, user, q, left),
        },
    }
    Ok(())
}

// ------------------------------------------------------------------ checks

/// Whether a power of this module can be used now (before targets are named).
pub fn check_use(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Result<(), RuleError> {
    match def.hook.as_deref() {
        Some("specialist-hide") => match hide_refusal(s, u) {
            Some(why) => Err(crate::engine::kit::refuse("specialist-hide", why)),
            None => Ok(()),
        },
        Some("replace-traps") if own_traps(s, u).iter().all(|&t| trap_spots(s, u, t).is_empty()) => {
            Err(crate::engine::kit::refuse(
                "replace-traps",
                format_args!("{} has no trap on the map that could be moved", s.unit(u).id),
            ))
        }
        Some("specialist-swipe") if swipe_options(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "specialist-swipe",
            "there is nothing next to you to take (an orb or an implement)",
        )),
        Some("change-terrain") if terrain_options(s, u).is_empty() => {
            Err(crate::engine::kit::refuse("change-terrain", "there is no square within 5 whose terrain can change"))
        }
        Some("major-terrain") if major_options(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "major-terrain",
            "nothing within 5 squares that Major Terrain could make or take away",
        )),
        Some("boost-square") if boost_squares(s, u).is_empty() => Err(crate::engine::kit::refuse(
            "boost-square",
            "there is no square within 5 that can become a Boost Square",
        )),
        _ => Ok(()),
    }
}

/// Checks one target of any power against this module's rules: Spread Fire's ban on attacking
/// its targets, and the target conditions of this module's powers.
pub fn check_target(s: &State, u: UnitIdx, power: u16, t: UnitIdx, creative: bool) -> Result<(), RuleError> {
    let def = s.powers.get(power);
    if !creative
        && def.is_attack()
        && crate::rules::query::find_modifier(s, crate::rules::modifiers::ModifierKind::Forbidden, u, t).is_some()
    {
        return Err(crate::engine::kit::refuse(
            "K-CAI-18",
            format_args!(
                "{} cannot attack {} until the end of its next turn (its Miss Trigger)",
                s.unit(u).id,
                s.unit(t).id
            ),
        ));
    }
    if !creative && def.is_attack() && attack_forbidden(s, u, t) {
        return Err(crate::engine::kit::refuse(
            "spread-fire",
            format_args!("{} hit {} with Spread Fire this turn and may not attack it", s.unit(u).id, s.unit(t).id),
        ));
    }
    if creative {
        return Ok(());
    }
    match hook(s, power) {
        Some("spread-fire") if find(s, ModifierKind::Attacked, u, t).is_some() => Err(crate::engine::kit::refuse(
            "spread-fire",
            format_args!("{} has already attacked {} this turn", s.unit(u).id, s.unit(t).id),
        )),
        Some("outflank") if s.distance(u, t) != Some(1) => Err(crate::engine::kit::refuse(
            "outflank",
            format_args!("Outflank picks an enemy next to you; {} is not", s.unit(t).id),
        )),
        Some("outflank") if outflank_squares(s, u, t).is_empty() => Err(crate::engine::kit::refuse(
            "outflank",
            format_args!("{} cannot shift to another square next to {}", s.unit(u).id, s.unit(t).id),
        )),
        Some("bust-some-heads") if bust_allies(s, u, t).next().is_none() => Err(crate::engine::kit::refuse(
            "bust-some-heads",
            format_args!("no ally within 5 squares can be slid next to {}", s.unit(t).id),
        )),
        _ => Ok(()),
    }
}

// ------------------------------------------------------------------ use

/// Uses one of this module's powers (the action is already spent); `square` is an area's centre.
pub fn use_power(
    cx: &mut Ctx,
    u: UnitIdx,
    power: u16,
    targets: &[UnitIdx],
    square: Option<Pos>,
) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power).clone();
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(u),
        power: def.name.clone(),
        targets: targets.iter().filter(|&&t| t != u).map(|&t| cx.s.who(t)).collect(),
    });
    let level = cx.s.unit(u).level;
    let next = Duration::EndOfTurn { unit: u, turn: cx.s.unit(u).turns_started + 1 };
    match def.hook.as_deref() {
        Some("draw-a-bead") => {
            let d = this_turn(cx.s, u);
            let amount = if level >= 4 { 2 } else { 1 };
            lay(cx, power, record(ModifierKind::DrawABead, u, Some(targets[0]), amount, d, power));
        }
        Some("spread-fire") => {
            for &t in targets {
                crate::rules::damage::deal(cx, t, 1, Some(u), "Spread Fire", None);
                let d = this_turn(cx.s, u);
                lay(cx, power, record(ModifierKind::SpreadFire, u, Some(t), 0, d, power));
            }
        }
        Some("specialist-cloak") => {
            let m = Modifier {
                attackers: Attackers::Any,
                ..record(ModifierKind::Cloak, u, Some(u), if level >= 4 { 1 } else { 3 }, next, power)
            };
            lay(cx, power, m);
        }
        Some("specialist-hide") => {
            let n = cx.s.unit(u).turns_started as i32;
            lay(cx, power, record(ModifierKind::HideUsed, u, None, n, next, power));
            let st =
                Status { kind: StatusKind::Hidden, amount: 0, source: Some(u), origin: Some(power), duration: next };
            crate::rules::statuses::give::give_status(cx, u, st, "Hide");
            if !cx.s.unit(u).turn_over {
                cx.emit(Event::TurnCutShort { unit: cx.s.who(u), why: "Hide is the last thing in a turn".into() });
            }
        }
        Some("outflank") => cx.push(Frame::Role(RoleFrame::OutflankSquare { user: u, target: targets[0], power })),
        Some("leader-restore") => {
            let picks = if level >= 4 { 2 } else { 1 };
            cx.push(Frame::Role(RoleFrame::Restore { user: u, target: targets[0], power, picks, taken: Vec::new() }))
        }
        Some("bust-some-heads") => cx.push(Frame::Role(RoleFrame::BustAlly { user: u, enemy: targets[0], power })),
        Some("replace-traps") => cx.push(Frame::Role(RoleFrame::ReplacePick { user: u, moved: Vec::new() })),
        Some("specialist-swipe") => cx.push(Frame::Role(RoleFrame::Swipe { user: u })),
        Some("change-terrain") => cx.push(Frame::Role(RoleFrame::Terrain { user: u })),
        Some("boost-square") => cx.push(Frame::Role(RoleFrame::Boost { user: u })),
        Some("major-terrain") => cx.push(Frame::Role(RoleFrame::Major { user: u })),
        Some("battlefield-repositioning") => {
            let centre = square.ok_or_else(|| RuleError::malformed("the area needs its centre: square = [x, y]"))?;
            let left = reposition_targets(cx.s, u, power, centre);
            cx.push(Frame::Role(RoleFrame::Reposition { user: u, power, centre, left }));
        }
        _ => unreachable!("not a role action hook"),
    }
    Ok(())
}

/// Advances a frame: it waits while it has options, and lapses when nothing is left to choose.
pub fn step(cx: &mut Ctx, f: RoleFrame) -> Result<Flow, RuleError> {
    if question(cx.s, &f).3.is_empty() {
        if let RoleFrame::HideAtEnd { unit } = f {
            cx.push(Frame::EndTurn { unit, fail: Vec::new() });
        }
        return Ok(Flow::Continue);
    }
    cx.push(Frame::Role(f));
    Ok(Flow::Wait)
}

/// The decision a frame waits on: (unit, kind, prompt, options).
pub fn question(s: &State, f: &RoleFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match f {
        &RoleFrame::OutflankSquare { user, target, .. } => (
            user,
            "square",
            format!("{}: Outflank — shift to which square next to {}?", s.unit(user).id, s.unit(target).id),
            if s.unit(target).on_map() {
                outflank_squares(s, user, target)
                    .into_iter()
                    .map(|(q, _)| DecisionOption::square(q, format!("shift to {q}")))
                    .collect()
            } else {
                Vec::new()
            },
        ),
        RoleFrame::Restore { target, taken, picks, .. } => {
            let t = *target;
            let mut opts = Vec::new();
            let free = |k: &str| !taken.iter().any(|x| x == k);
            if s.unit(t).on_map() {
                if free("stand") && s.unit(t).statuses.iter().any(|st| st.kind == StatusKind::Prone) {
                    opts.push(DecisionOption::new("stand", "stand up from Prone"));
                }
                if free("escape") && s.unit(t).statuses.iter().any(|st| st.kind == StatusKind::Grabbed) {
                    opts.push(DecisionOption::new("escape", "try to escape the Grab"));
                }
                if free("save") {
                    // Prone and a Grab have their own boons (standing up, escaping).
                    let mut kinds: Vec<StatusKind> = Vec::new();
                    for st in &s.unit(t).statuses {
                        if st.kind.is_negative()
                            && !matches!(st.kind, StatusKind::Grabbed | StatusKind::Prone)
                            && !kinds.contains(&st.kind)
                        {
                            kinds.push(st.kind);
                        }
                    }
                    for k in kinds {
                        opts.push(DecisionOption::new(
                            format!("save:{}", k.name()),
                            format!("a saving throw against {k}"),
                        ));
                    }
                }
                if free("advantage") {
                    opts.push(DecisionOption::new("advantage", "Advantage on your next saving throw or escape roll"));
                }
                if free("guarded") {
                    opts.push(DecisionOption::new("guarded", "Guarded until the end of your next turn"));
                }
            }
            (t, "restore", format!("{}: Restore — choose one ({picks} to pick)", s.unit(t).id), opts)
        }
        &RoleFrame::BustAlly { user, enemy, .. } => (
            user,
            "target",
            format!("{}: Bust Some Heads! — which ally goes next to {}?", s.unit(user).id, s.unit(enemy).id),
            if s.unit(enemy).on_map() {
                bust_allies(s, user, enemy).map(|a| crate::rules::actions::unit_option(s, a)).collect()
            } else {
                Vec::new()
            },
        ),
        &RoleFrame::BustSquare { user, enemy, ally, .. } => (
            user,
            "square",
            format!("{}: slide {} to which square next to {}?", s.unit(user).id, s.unit(ally).id, s.unit(enemy).id),
            if s.unit(enemy).on_map() && s.unit(ally).on_map() {
                bust_squares(s, ally, enemy)
                    .into_iter()
                    .map(|(q, path)| {
                        if path.is_empty() {
                            DecisionOption::new("stay", "it stays where it is")
                        } else {
                            DecisionOption::square(q, format!("slide it to {q}"))
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            },
        ),
        RoleFrame::ReplacePick { user, moved } => {
            let u = *user;
            let mut opts: Vec<DecisionOption> = own_traps(s, u)
                .into_iter()
                .filter(|t| !moved.contains(t) && !trap_spots(s, u, *t).is_empty())
                .map(|t| crate::rules::actions::unit_option(s, t))
                .collect();
            if !opts.is_empty() {
                opts.push(DecisionOption::new("done", "move no more traps"));
            }
            (u, "target", format!("{}: Replace Traps — which trap next?", s.unit(u).id), opts)
        }
        &RoleFrame::ReplaceSquare { user, trap, .. } => (
            user,
            "square",
            format!("{}: where does {} go?", s.unit(user).id, s.unit(trap).id),
            if s.unit(trap).on_map() {
                trap_spots(s, user, trap)
                    .into_iter()
                    .map(|q| DecisionOption::square(q, format!("set it at {q}")))
                    .collect()
            } else {
                Vec::new()
            },
        ),
        &RoleFrame::Swipe { user } => (
            user,
            "swipe",
            format!("{}: Swipe — take what?", s.unit(user).id),
            swipe_options(s, user).into_iter().map(|(id, l)| DecisionOption::new(id, l)).collect(),
        ),
        &RoleFrame::SwipeDrop { user, orb } => (
            user,
            "square",
            format!("{}: drop your team's orb {} where?", s.unit(user).id, s.orbs[orb as usize].id),
            drop_squares(s, user).into_iter().map(|q| DecisionOption::square(q, format!("drop it at {q}"))).collect(),
        ),
        &RoleFrame::HideAtEnd { unit } => (
            unit,
            "feature",
            format!("{}: your turn is ending — Hide?", s.unit(unit).id),
            if hide_offer(s, unit).is_some() {
                vec![DecisionOption::new("hide", "Hide (Role Action)"), DecisionOption::new("no", "end the turn")]
            } else {
                Vec::new()
            },
        ),
        &RoleFrame::Terrain { user } => (
            user,
            "terrain",
            format!("{}: Change Terrain — which square becomes what?", s.unit(user).id),
            terrain_options(s, user),
        ),
        &RoleFrame::Major { user } => (
            user,
            "major",
            format!("{}: Major Terrain — what do you do?", s.unit(user).id),
            major_options(s, user).into_iter().map(|(id, l)| DecisionOption::new(id, l)).collect(),
        ),
        &RoleFrame::MajorSquare { user, work, left, .. } => {
            let opts: Vec<DecisionOption> = match work {
                "remove-pedestal" => enemy_pedestals(s, user)
                    .into_iter()
                    .map(|i| {
                        let p = &s.arena.pedestals[i];
                        DecisionOption::new(p.id.clone(), format!("pedestal {} at {}", p.id, p.at))
                    })
                    .collect(),
                _ => major_squares(s, user, work)
                    .into_iter()
                    .map(|q| DecisionOption::square(q, format!("{work} at {q}")))
                    .collect(),
            };
            let kind = if work == "remove-pedestal" { "pedestal" } else { "square" };
            (user, kind, format!("{}: Major Terrain — {work} ({left} left)", s.unit(user).id), opts)
        }
        RoleFrame::Reposition { user, power, centre, left } => {
            let (u, mut opts) = (*user, Vec::new());
            let next = left.iter().copied().find(|&e| s.unit(e).on_map());
            if let Some(e) = next {
                opts.push(DecisionOption::new("stay", "leave it where it is"));
                opts.extend(
                    reposition_squares(s, e, *power, *centre)
                        .into_iter()
                        .map(|(q, _)| DecisionOption::square(q, format!("slide it to {q}"))),
                );
            }
            let who = next.map_or(String::new(), |e| s.unit(e).id.to_string());
            (u, "square", format!("{}: Battlefield Repositioning — slide {who} where?", s.unit(u).id), opts)
        }
        &RoleFrame::WallShove { unit, at, .. } => (
            unit,
            "square",
            format!("{}: a wall rises under you — step to which square next to it?", s.unit(unit).id),
            if s.unit(unit).pos == Some(at) {
                shove_from(s, unit, at).into_iter().map(|q| DecisionOption::square(q, format!("step to {q}"))).collect()
            } else {
                Vec::new()
            },
        ),
        &RoleFrame::Boost { user } => (
            user,
            "square",
            format!("{}: Boost Square — which square?", s.unit(user).id),
            boost_squares(s, user).into_iter().map(|q| DecisionOption::square(q, format!("boost {q}"))).collect(),
        ),
    }
}

/// Answers a frame's decision.
pub fn answer(cx: &mut Ctx, f: RoleFrame, option: &str) -> Result<(), RuleError> {
    let square = || Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"));
    match f {
        RoleFrame::OutflankSquare { user, target, power } => {
            let q = square()?;
            let path = outflank_squares(cx.s, user, target)
                .into_iter()
                .find(|(o, _)| *o == q)
                .map(|(_, p)| p)
                .ok_or_else(|| RuleError::malformed(format!("{q} is not a square Outflank can shift to")))?;
            let amount = if cx.s.unit(user).level >= 4 { 2 } else { 1 };
            // One Outflank at a time: a new one replaces the Leader's old one (see rulings).
            for i in (0..cx.s.modifiers.len()).rev() {
                let m = &cx.s.modifiers[i];
                if m.kind == ModifierKind::Outflank && m.source == user {
                    cx.emit(Event::ModifierEnded { index: i, why: "Outflank used again".into() });
                }
            }
            let m = Modifier {
                attackers: Attackers::AlliesOf(user),
                first: true,
                ..record(ModifierKind::Outflank, user, Some(target), amount, Duration::Indefinite, power)
            };
            lay(cx, power, m);
            cx.push(Frame::Move(crate::rules::movement::MoveFrame::new(user, path, How::Shift)));
        }
        RoleFrame::Restore { user, target, power, picks, mut taken } => {
            let kind = option.split(':').next().unwrap_or(option).to_string();
            if picks > 1 {
                let mut t2 = taken.clone();
                t2.push(kind.clone());
                cx.push(Frame::Role(RoleFrame::Restore { user, target, power, picks: picks - 1, taken: t2 }));
            }
            taken.push(kind);
            restore(cx, user, target, power, option)?;
        }
        RoleFrame::BustAlly { user, enemy, power } => {
            let a = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            cx.push(Frame::Role(RoleFrame::BustSquare { user, enemy, ally: a, power }));
        }
        RoleFrame::BustSquare { user, enemy, ally, power } => {
            let options = bust_squares(cx.s, ally, enemy);
            let path = if option == "stay" {
                Vec::new()
            } else {
                let q = square()?;
                options
                    .into_iter()
                    .find(|(o, _)| *o == q)
                    .map(|(_, p)| p)
                    .ok_or_else(|| RuleError::malformed("no such square"))?
            };
            slide_along(cx, user, ally, path)?;
            crate::rules::damage::deal(cx, enemy, 2, Some(user), "Bust Some Heads!", None);
            if cx.s.unit(enemy).on_map() && cx.s.unit(ally).on_map() {
                let def = crate::rules::modifiers::ModifierDef {
                    kind: ModifierKind::Advantage,
                    amount: 0,
                    attacker: crate::rules::modifiers::Party::Target,
                    against: crate::rules::modifiers::Party::PowerTarget,
                    first: true,
                    during: Some(crate::rules::modifiers::Party::Target),
                    until: None,
                };
                let m = crate::rules::modifiers::lay(cx.s, &def, user, ally, enemy, power);
                lay(cx, power, m);
            }
        }
        RoleFrame::ReplacePick { user, moved } => {
            if option != "done" {
                let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                cx.push(Frame::Role(RoleFrame::ReplaceSquare { user, trap: t, moved }));
            }
        }
        RoleFrame::ReplaceSquare { user, trap, mut moved } => {
            let q = square()?;
            cx.emit(Event::Placed { unit: cx.s.who(trap), at: q, why: "is moved by Replace Traps".into() });
            moved.push(trap);
            cx.push(Frame::Role(RoleFrame::ReplacePick { user, moved }));
        }
        RoleFrame::Swipe { user } => swipe(cx, user, option)?,
        RoleFrame::SwipeDrop { user, orb } => {
            let q = square()?;
            let id = cx.s.orbs[orb as usize].id.to_string();
            cx.emit(Event::OrbMoved {
                orb: id,
                idx: orb,
                to: OrbLoc::Ground { at: q },
                why: format!("dropped at once by {} at {q}", cx.s.unit(user).id),
            });
        }
        RoleFrame::HideAtEnd { unit } => {
            cx.push(Frame::EndTurn { unit, fail: Vec::new() });
            if option == "hide"
                && let Some(p) = hide_offer(cx.s, unit)
            {
                crate::rules::actions::spend_role(cx, unit);
                use_power(cx, unit, p, &[unit], None)?;
            }
        }
        RoleFrame::Terrain { user } => {
            let (sq, what) = option.split_once(':').ok_or_else(|| RuleError::malformed("answer x,y:terrain"))?;
            let q = Pos::parse(sq).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
            let t = terrain_list(cx.s.unit(user).level)
                .into_iter()
                .find(|(id, _)| *id == what)
                .map(|(_, t)| t)
                .ok_or_else(|| RuleError::malformed(format!("unknown terrain {what:?}")))?;
            cx.emit(Event::TerrainChanged { at: q, terrain: t, why: "Change Terrain".into() });
        }
        RoleFrame::Major { user } => {
            let work = ["pedestal", "remove-pedestal", "wall", "remove-wall"]
                .into_iter()
                .find(|w| *w == option)
                .ok_or_else(|| RuleError::malformed("no such option"))?;
            let left = if work.ends_with("wall") { 2 } else { 1 };
            cx.push(Frame::Role(RoleFrame::MajorSquare { user, work, left }));
        }
        RoleFrame::MajorSquare { user, work, left } => major_work(cx, user, work, left, option)?,
        RoleFrame::Reposition { user, power, centre, mut left } => {
            left.retain(|&e| cx.s.unit(e).on_map());
            if left.is_empty() {
                return Ok(());
            }
            let e = left.remove(0);
            if !left.is_empty() {
                cx.push(Frame::Role(RoleFrame::Reposition { user, power, centre, left }));
            }
            if option != "stay" {
                let q = square()?;
                let path = reposition_squares(cx.s, e, power, centre)
                    .into_iter()
                    .find(|(o, _)| *o == q)
                    .map(|(_, p)| p)
                    .ok_or_else(|| RuleError::malformed("no such square"))?;
                slide_along(cx, user, e, path)?;
            }
        }
        RoleFrame::WallShove { unit, user, at, left } => {
            let q = square()?;
            cx.emit(Event::Moved { unit: cx.s.who(unit), from: at, to: q, how: How::Slide });
            raise_wall(cx, user, at, left);
            crate::rules::zones::entered(cx, unit, at, q, None)?;
        }
        RoleFrame::Boost { user } => {
            let q = square()?;
            let strength = if cx.s.unit(user).level >= 4 { 2 } else { 1 };
            cx.emit(Event::TerrainChanged { at: q, terrain: Terrain::Boost(strength), why: "Boost Square".into() });
        }
    }
    Ok(())
}

/// Slides `unit` along `path`, square by square (what it enters acts on it); a trap that
/// Immobilizes it stops the slide there.
fn slide_along(cx: &mut Ctx, mover: UnitIdx, unit: UnitIdx, path: Vec<Pos>) -> Result<(), RuleError> {
    for q in path {
        let Some(p) = cx.s.unit(unit).pos else { break };
        cx.emit(Event::Moved { unit: cx.s.who(unit), from: p, to: q, how: How::Slide });
        crate::rules::zones::entered(cx, unit, p, q, Some(mover))?;
        if cx.s.has(unit, StatusKind::Immobilized) {
            break;
        }
    }
    Ok(())
}

/// Applies one Restore pick to `t`.
fn restore(cx: &mut Ctx, user: UnitIdx, t: UnitIdx, power: u16, option: &str) -> Result<(), RuleError> {
    cx.emit(Event::Note { text: format!("{} chooses {option} (Restore)", cx.s.unit(t).id) });
    match option {
        "stand" => crate::rules::actions::stand_up(cx, t),
        "escape" => crate::rules::actions::escape_attempt(cx, t, StatusKind::Grabbed)?,
        "advantage" => {
            let m = record(ModifierKind::SaveAdvantage, t, None, 0, Duration::Indefinite, power);
            lay(cx, power, Modifier { source: user, first: true, ..m });
        }
        "guarded" => {
            let next = Duration::EndOfTurn { unit: t, turn: cx.s.unit(t).turns_started + 1 };
            let st = Status {
                kind: StatusKind::Guarded,
                amount: 0,
                source: Some(user),
                origin: Some(power),
                duration: next,
            };
            crate::rules::statuses::give::give_status(cx, t, st, "Restore");
        }
        other => {
            let name = other.strip_prefix("save:").ok_or_else(|| RuleError::malformed("no such option"))?;
            let k = StatusKind::parse(name).ok_or_else(|| RuleError::malformed(format!("unknown status {name:?}")))?;
            if crate::rules::turn::saving_throw(cx, t, &format!("{k} (Restore)"))?
                && let Some(st) = cx.s.unit(t).statuses.iter().find(|s| s.kind == k).copied()
            {
                cx.emit(Event::StatusEnded { unit: cx.s.who(t), status: st, why: "saved (Restore)".into() });
            }
        }
    }
    Ok(())
}

/// Swipe takes an orb or an implement.
fn swipe(cx: &mut Ctx, user: UnitIdx, option: &str) -> Result<(), RuleError> {
    if let Some(id) = option.strip_prefix("implement:") {
        let t = cx.s.find_unit(id).ok_or_else(|| RuleError::malformed(format!("no unit {id:?}")))?;
        let next = Duration::EndOfTurn { unit: t, turn: cx.s.unit(t).turns_started + 1 };
        let st = Status { kind: StatusKind::Disarmed, amount: 0, source: Some(user), origin: None, duration: next };
        crate::rules::statuses::give::give_status(cx, t, st, "Swipe");
        return Ok(());
    }
    let id = option.strip_prefix("orb:").ok_or_else(|| RuleError::malformed("no such option"))?;
    let o = cx.s.find_orb(id).ok_or_else(|| RuleError::malformed(format!("no orb {id:?}")))?;
    cx.emit(Event::OrbMoved {
        orb: id.to_string(),
        idx: o,
        to: OrbLoc::Held { by: user },
        why: format!("swiped by {}", cx.s.unit(user).id),
    });
    if cx.s.orbs[o as usize].color == cx.s.unit(user).side {
        cx.push(Frame::Role(RoleFrame::SwipeDrop { user, orb: o }));
    }
    Ok(())
}

/// The Role Actions' power hooks and use checks, Outflank on a miss, Hide ending on an attack.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(HOOKS, |cx, a| use_power(cx, a.unit, a.power, a.targets, a.square));
    r.check_use(30, check_use);
    r.check_target(20, check_target);
    r.on_attack_declared(10, "spread-fire", note_attack);
    r.on_attacked(10, "specialist-hide", attacked);
    r.on_turn(crate::engine::hooks::Trigger::TurnEnding, 20, "boost-square", end_of_turn);
    r.on_missed(30, "outflank", |cx, m| {
        outflank_missed(cx, m.attacker, m.target);
        Ok(())
    });
    r.role_actions(crate::engine::hooks::RoleActions { hide_offer, save_advantage });
}
