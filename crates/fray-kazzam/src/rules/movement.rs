//! Movement (K-MOVE): walking, shifting, crawling, standing, dragging a grabbed creature,
//! portals, and where a unit may stand. Leaving squares grants Opportunities
//! ([`crate::rules::opportunity`]); entering damaging terrain hurts ([`crate::rules::zones`]).

use crate::engine::events::{Event, How};
pub use crate::engine::frames::rules::Mode;
pub use crate::engine::frames::rules::MoveFrame;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::state::{State, UnitIdx};
use crate::rules::arena::Terrain;
use crate::rules::statuses::StatusKind;
use fray_core::geometry::{Frontier, Reach, ReachScratch, distance};
use fray_core::grid::{Pos, footprint};
use fray_core::ruleset::RuleError;

/// What movement needs to know about one mover: its own traits and where the other creatures
/// stand, gathered once per mover and state ([`body`]).
#[derive(Clone)]
struct Body {
    size: i32,
    phasing: bool,
    hovering: bool,
    /// Difficult Terrain costs it nothing extra (Terrain Artist).
    easy: bool,
    /// Other creatures: top-left square, size, and whether they block passing (enemies on the
    /// same level, K-ST-Flying).
    others: Vec<(Pos, i32, bool)>,
    /// Enemy Lockdown Controllers' footprints: squares near them are Difficult (defctl.rs).
    lockdown: Vec<(Pos, i32)>,
    /// `others` by square, for searches over many squares: [`ANY`] where another creature
    /// stands, [`BLOCKS`] where it bars passing.
    occ: Vec<u8>,
}

/// One mover in one state: its [`Body`], read with the state's terrain.
#[derive(Clone)]
struct Walker<'a> {
    s: &'a State,
    b: std::rc::Rc<Body>,
    /// A Misty Charge: Difficult Terrain costs nothing extra.
    misty: bool,
}

/// In [`Body::occ`] and [`terrain_codes`]: the terrain may be entered ([`Terrain::enterable`]).
const T_OPEN: u8 = 1;
/// In [`Body::occ`] and [`terrain_codes`]: the terrain is Difficult ([`Terrain::is_difficult`]).
const T_DIFFICULT: u8 = 2;
/// In [`Body::occ`] and [`terrain_codes`]: a pit.
const T_PIT: u8 = 4;
/// In [`Body::occ`] and [`terrain_codes`]: off the arena ([`Terrain::Edge`]).
const T_EDGE: u8 = 8;
/// In [`Body::occ`]: another creature stands on the square.
const ANY: u8 = 16;
/// In [`Body::occ`]: a creature that bars passing stands on the square.
const BLOCKS: u8 = 32;
/// In [`Body::occ`]: the square lies in an enemy Lockdown zone ([`Body::lockdown`]).
const LOCK: u8 = 64;
/// In [`Body::occ`] and [`terrain_codes`]: a portal square ([`Terrain::Portal`]).
const T_PORTAL: u8 = 128;

impl Body {
    fn gather(s: &State, unit: UnitIdx) -> Self {
        let mut b = Body::gather_plain(s, unit);
        b.index(s);
        b
    }

    /// [`Body::gather`] without laying the others out by square (for a question or two).
    fn gather_plain(s: &State, unit: UnitIdx) -> Self {
        Body::gather_on(s, unit, None)
    }

    /// [`Body::gather_plain`], with `on` (a square and size): only the others on that
    /// footprint, all that questions about entering or standing on it read.
    fn gather_on(s: &State, unit: UnitIdx, on: Option<(Pos, i32)>) -> Self {
        let flying = s.has(unit, StatusKind::Flying);
        let side = s.unit(unit).side;
        let mob = s.creep_def(unit).is_some_and(|d| d.mob);
        // Room for every unit at once: growing the list step by step cost more than filling it
        // (a footprint's few others are gathered without it).
        let mut others = Vec::with_capacity(if on.is_none() { s.units.len() } else { 0 });
        // Enemy Lockdown Controllers, found in the same pass (as query::lockdown_zones).
        let mut lockdown = Vec::new();
        for (o, ou) in s.units.iter().enumerate() {
            let o = o as UnitIdx;
            let Some(q) = ou.pos else { continue }; // on the map
            if o == unit {
                continue;
            }
            let enemy = ou.side != side; // s.enemies(unit, o)
            if enemy && crate::rules::query::is_role(s, o, "controller", Some("lockdown")) {
                lockdown.push((q, ou.size));
            }
            // K-CTYPE-8: a Mob shares squares with every creature, and every creature with it.
            if mob || s.creep_def(o).is_some_and(|d| d.mob) {
                continue;
            }
            if on.is_none_or(|(p, size)| distance(p, size, q, ou.size) == 0)
                && s.has(o, StatusKind::Flying) == flying // flyers share squares with walkers
                // Traps and conjured creatures block nobody, but a Darkfly Swarm bars its enemies.
                && (crate::rules::query::occupies(ou) || crate::rules::beasts::bars(s, unit, o))
            {
                others.push((q, ou.size, enemy || crate::rules::query::blocks_all(ou)));
            }
        }
        Body {
            size: s.unit(unit).size,
            phasing: s.has(unit, StatusKind::Phasing),
            hovering: s.has(unit, StatusKind::Hovering),
            easy: crate::rules::query::ignores_difficult(s, unit),
            others,
            lockdown,
            occ: Vec::new(),
        }
    }

    /// Lays `others` out by square, with the terrain's kinds and the Lockdown zones, so that
    /// `occupied` and a one-square step are look-ups.
    fn index(&mut self, s: &State) {
        let t = &s.arena.terrain;
        let (w, h) = (t.width(), t.height());
        let mut occ = terrain_codes(s).to_vec();
        debug_assert_eq!(occ.len(), (w.max(0) * h.max(0)) as usize);
        for &(p, sz, enemy) in &self.others {
            for q in footprint(p, sz) {
                if q.x >= 0 && q.y >= 0 && q.x < w && q.y < h {
                    occ[(q.y * w + q.x) as usize] |= if enemy { ANY | BLOCKS } else { ANY };
                }
            }
        }
        if !self.lockdown.is_empty() {
            for (i, q) in t.squares().enumerate() {
                if crate::rules::query::in_lockdown(&self.lockdown, q) {
                    occ[i] |= LOCK;
                }
            }
        }
        self.occ = occ;
    }
}

thread_local! {
    /// The bodies gathered in the state stamped so ([`crate::engine::state::Stamp`]), by mover:
    /// forgotten when asked in a state with other facts.
    #[allow(clippy::type_complexity)]
    static BODIES: std::cell::RefCell<(Option<crate::engine::state::Stamp>, Vec<(UnitIdx, std::rc::Rc<Body>)>)> =
        const { std::cell::RefCell::new((None, Vec::new())) };
}

/// `unit`'s [`Body`] in `s`, gathered once per state (a menu, the square menu after it, the
/// route and its check, each step: all ask the same facts).
fn body(s: &State, unit: UnitIdx) -> std::rc::Rc<Body> {
    if let Some(b) = known_body(s, unit) {
        return b;
    }
    let b = std::rc::Rc::new(Body::gather(s, unit));
    let stamp = s.stamp();
    BODIES.with(|m| {
        let mut m = m.borrow_mut();
        if m.0 != Some(stamp) {
            m.0 = Some(stamp);
            m.1.clear();
        }
        m.1.push((unit, b.clone()));
    });
    b
}

/// `unit`'s [`Body`] in `s`, if already gathered.
fn known_body(s: &State, unit: UnitIdx) -> Option<std::rc::Rc<Body>> {
    BODIES.with(|m| {
        let m = m.borrow();
        if m.0 != Some(s.stamp()) {
            return None;
        }
        m.1.iter().find(|(u, _)| *u == unit).map(|(_, b)| b.clone())
    })
}

impl<'a> Walker<'a> {
    /// A walker for a question or two in a state about to change (a step under way): the body
    /// gathered in this state if there is one, else one gathered without the others laid out
    /// by square, and not kept.
    fn light(s: &'a State, unit: UnitIdx) -> Self {
        let b = known_body(s, unit).unwrap_or_else(|| std::rc::Rc::new(Body::gather_plain(s, unit)));
        Walker { s, b, misty: false }
    }

    /// [`Walker::light`] for questions about entering or standing on the mover's footprint at
    /// `to` only: without a gathered body, only the others there are gathered.
    fn light_at(s: &'a State, unit: UnitIdx, to: Pos) -> Self {
        Walker::light_around(s, unit, (to, s.unit(unit).size))
    }

    /// [`Walker::light`] for questions about entering or standing on squares of `area` (a
    /// square and a size) only: without a gathered body, only the others there are gathered.
    fn light_around(s: &'a State, unit: UnitIdx, area: (Pos, i32)) -> Self {
        let b = known_body(s, unit).unwrap_or_else(|| std::rc::Rc::new(Body::gather_on(s, unit, Some(area))));
        Walker { s, b, misty: false }
    }

    fn new(s: &'a State, unit: UnitIdx) -> Self {
        Walker { s, b: body(s, unit), misty: false }
    }

    /// The walker for a move in `mode`: a Misty Charge passes through every creature and
    /// ignores Difficult Terrain (misty-charge).
    fn for_mode(s: &'a State, unit: UnitIdx, mode: Mode) -> Self {
        let mut w = Walker::new(s, unit);
        if matches!(mode, Mode::Charge(_)) && crate::rules::query::misty_charge(s, unit) {
            w.misty = true;
            let mut b = (*w.b).clone();
            for o in &mut b.others {
                o.2 = false;
            }
            b.index(s);
            w.b = std::rc::Rc::new(b);
        }
        w
    }

    #[inline]
    fn occupied(&self, q: Pos, enemies_only: bool) -> bool {
        let t = &self.s.arena.terrain;
        if !self.b.occ.is_empty() && t.contains(q) {
            return self.b.occ[t.index(q)] & if enemies_only { BLOCKS } else { ANY } != 0;
        }
        self.b.others.iter().any(|&(p, sz, enemy)| (enemy || !enemies_only) && distance(p, sz, q, 1) == 0)
    }

    /// Where a move may stop: where it can stand, or — for a Phasing creature that will still
    /// have a Move Action to get out — inside walls (K-ST-Phasing: only the turn may not end
    /// there).
    #[inline]
    fn can_stop(&self, p: Pos, may_pause_in_walls: bool) -> bool {
        self.can_stand(p)
            || (may_pause_in_walls
                && self.b.phasing
                && footprint(p, self.b.size).all(|q| self.s.arena.at(q) != Terrain::Edge && !self.occupied(q, false)))
    }

    fn can_stand(&self, p: Pos) -> bool {
        self.can_stand_sized(p, self.b.size)
    }

    /// Whether the mover, of footprint `size`, may stand at `p` (square menus ask it of every
    /// square: a one-square footprint laid out by square is answered inline).
    #[inline]
    fn can_stand_sized(&self, p: Pos, size: i32) -> bool {
        if size == 1 && !self.b.occ.is_empty() {
            // As `free` in `can_stand_any`.
            let c = self.code(p);
            return c & T_OPEN != 0 && c & (T_PORTAL | ANY) == 0 && !crate::rules::portals::is_tunnel(self.s, p);
        }
        self.can_stand_any(p, size)
    }

    /// [`Walker::can_stand_sized`] for any footprint.
    fn can_stand_any(&self, p: Pos, size: i32) -> bool {
        if !self.b.occ.is_empty() {
            // As `free` below, read from the look-up.
            let free = |q: Pos| {
                let c = self.code(q);
                c & T_OPEN != 0 && c & (T_PORTAL | ANY) == 0 && !crate::rules::portals::is_tunnel(self.s, q)
            };
            return if size == 1 { free(p) } else { footprint(p, size).all(free) };
        }
        let free = |q: Pos| {
            let t = self.s.arena.at(q);
            t.enterable()
                && t != Terrain::Portal
                && !crate::rules::portals::is_tunnel(self.s, q)
                && !self.occupied(q, false)
        };
        // One square, asked without walking a footprint (square menus ask it of every square).
        if size == 1 { free(p) } else { footprint(p, size).all(free) }
    }

    /// Allies' squares may be passed through, enemies' not, walls only when Phasing.
    #[inline]
    fn can_pass(&self, q: Pos) -> bool {
        let t = self.s.arena.at(q);
        if t == Terrain::Edge || (!t.enterable() && !self.b.phasing) {
            return false;
        }
        self.b.phasing || !self.occupied(q, true)
    }

    #[inline]
    fn step_cost(&self, from: Pos, to: Pos) -> Option<u32> {
        if self.b.size == 1 { self.step_cost_1(from, to) } else { self.step_cost_n(from, to) }
    }

    /// [`Walker::step_cost`] for a creature larger than one square.
    fn step_cost_n(&self, from: Pos, to: Pos) -> Option<u32> {
        if !self.b.occ.is_empty() {
            return self.step_cost_n_indexed(from, to);
        }
        let arena = &self.s.arena;
        let last = self.b.size - 1;
        let mut difficult = false;
        // Walls under the footprint, and whether they all lie on one of its edge rows or
        // columns (left, right, top, bottom).
        let mut walls = false;
        let mut strip = [true; 4];
        for q in footprint(to, self.b.size) {
            let t = arena.at(q);
            // can_pass, with the square looked up once
            let pass =
                t != Terrain::Edge && (t.enterable() || self.b.phasing) && (self.b.phasing || !self.occupied(q, true));
            if !pass {
                // A wall under a large creature may be a gap it squeezes through (below).
                if t.enterable() || t == Terrain::Edge {
                    return None;
                }
                walls = true;
                strip[0] &= q.x == to.x;
                strip[1] &= q.x == to.x + last;
                strip[2] &= q.y == to.y;
                strip[3] &= q.y == to.y + last;
            }
            // A square the footprint already covers is not entered again.
            let entered = q.x < from.x || q.y < from.y || q.x > from.x + last || q.y > from.y + last;
            if entered && (t.is_difficult() || crate::rules::query::in_lockdown(&self.b.lockdown, q)) {
                difficult = true;
            }
        }
        if walls {
            // K-LARGE-7: a gap one square too narrow can be squeezed through, as Difficult
            // Terrain: the walls may cover only one edge row or column of the footprint.
            if !strip.iter().any(|&b| b) {
                return None;
            }
            difficult = true;
        }
        // (Squeezing between two walls that meet at a corner is a one-square creature's
        // question: step_cost_1.)
        let mut cost = if difficult && !self.b.hovering && !self.b.easy && !self.misty { 2 } else { 1 };
        if !self.b.hovering && footprint(from, self.b.size).any(|q| self.s.arena.at(q) == Terrain::Pit) {
            cost += 1;
        }
        Some(cost)
    }
}

impl Walker<'_> {
    /// [`Walker::step_cost_n`] read from [`Body::occ`] (the same answers, from the look-ups).
    fn step_cost_n_indexed(&self, from: Pos, to: Pos) -> Option<u32> {
        let phasing = self.b.phasing;
        let last = self.b.size - 1;
        let mut difficult = false;
        let mut walls = false;
        let mut strip = [true; 4];
        for q in footprint(to, self.b.size) {
            let c = self.code(q);
            let (open, edge) = (c & T_OPEN != 0, c & T_EDGE != 0);
            let pass = !edge && (open || phasing) && (phasing || c & BLOCKS == 0);
            if !pass {
                if open || edge {
                    return None;
                }
                walls = true;
                strip[0] &= q.x == to.x;
                strip[1] &= q.x == to.x + last;
                strip[2] &= q.y == to.y;
                strip[3] &= q.y == to.y + last;
            }
            let entered = q.x < from.x || q.y < from.y || q.x > from.x + last || q.y > from.y + last;
            if entered && c & (T_DIFFICULT | LOCK) != 0 {
                difficult = true;
            }
        }
        if walls {
            // K-LARGE-7 (as step_cost_n)
            if !strip.iter().any(|&b| b) {
                return None;
            }
            difficult = true;
        }
        let mut cost = if difficult && !self.b.hovering && !self.b.easy && !self.misty { 2 } else { 1 };
        if !self.b.hovering && footprint(from, self.b.size).any(|q| self.code(q) & T_PIT != 0) {
            cost += 1;
        }
        Some(cost)
    }

    /// The kinds of `q` in [`Body::occ`] (which must be laid out): [`T_EDGE`] off the grid.
    #[inline(always)]
    fn code(&self, q: Pos) -> u8 {
        let t = &self.s.arena.terrain;
        if t.contains(q) { self.b.occ[t.index(q)] } else { T_EDGE }
    }

    /// [`Walker::step_cost_1`] read from [`Body::occ`] (the same answers, from the look-ups).
    #[inline(always)]
    fn step_cost_1_indexed(&self, from: Pos, to: Pos) -> Option<u32> {
        let phasing = self.b.phasing;
        let c = self.code(to);
        // can_pass
        if c & T_EDGE != 0 || (!phasing && (c & T_OPEN == 0 || c & BLOCKS != 0)) {
            return None;
        }
        let difficult = from != to && c & (T_DIFFICULT | LOCK) != 0;
        // No squeezing between two walls that meet at a corner.
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dx != 0
            && dy != 0
            && !phasing
            && self.code(from.offset(dx, 0)) & T_OPEN == 0
            && self.code(from.offset(0, dy)) & T_OPEN == 0
        {
            return None;
        }
        let mut cost = if difficult && !self.b.hovering && !self.b.easy && !self.misty { 2 } else { 1 };
        if !self.b.hovering && self.code(from) & T_PIT != 0 {
            cost += 1;
        }
        Some(cost)
    }

    /// [`Walker::step_cost`] for a one-square creature, each square looked up once.
    #[inline]
    fn step_cost_1(&self, from: Pos, to: Pos) -> Option<u32> {
        if !self.b.occ.is_empty() {
            return self.step_cost_1_indexed(from, to);
        }
        let arena = &self.s.arena;
        let t = arena.at(to);
        // can_pass
        if t == Terrain::Edge || (!t.enterable() && !self.b.phasing) || (!self.b.phasing && self.occupied(to, true)) {
            return None;
        }
        let difficult = from != to && (t.is_difficult() || crate::rules::query::in_lockdown(&self.b.lockdown, to));
        // No squeezing between two walls that meet at a corner.
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dx != 0 && dy != 0 && !self.b.phasing {
            let a = arena.at(from.offset(dx, 0));
            let b = arena.at(from.offset(0, dy));
            if !a.enterable() && !b.enterable() {
                return None;
            }
        }
        let mut cost = if difficult && !self.b.hovering && !self.b.easy && !self.misty { 2 } else { 1 };
        if !self.b.hovering && arena.at(from) == Terrain::Pit {
            cost += 1;
        }
        Some(cost)
    }
}

/// Whether `unit` (of footprint `size`) may end a move with its top-left square at `p`:
/// open terrain, not a portal, nobody else there (flyers and walkers may share, K-ST-Flying).
pub fn can_stand(s: &State, unit: UnitIdx, p: Pos, size: i32) -> bool {
    Walker::light(s, unit).can_stand_sized(p, size)
}

/// One mover's footing, gathered once: for searches that ask `step_cost` and `can_stand` of
/// many squares while the state stands still (slides, shifts, forced movement). Questions about
/// the squares around the mover only (a menu's: may it step or shift at all?) are answered from
/// the creatures there alone; the rest gather them all, once.
pub struct Footing<'a> {
    s: &'a State,
    unit: UnitIdx,
    /// The mover's footprint grown by a square on every side, if it is on the map.
    around: Option<(Pos, i32)>,
    /// Gathered for the squares in `around` only ([`Body::gather_on`]).
    near: std::cell::OnceCell<Walker<'a>>,
    /// Gathered for every square ([`Walker::new`]).
    all: std::cell::OnceCell<Walker<'a>>,
}

impl<'a> Footing<'a> {
    /// The footing of `unit` in `s` as it stands.
    pub fn of(s: &'a State, unit: UnitIdx) -> Self {
        let u = s.unit(unit);
        let around = u.pos.map(|p| (p.offset(-1, -1), u.size + 2));
        Footing { s, unit, around, near: std::cell::OnceCell::new(), all: std::cell::OnceCell::new() }
    }

    /// The walker for every square.
    fn all(&self) -> &Walker<'a> {
        self.all.get_or_init(|| Walker::new(self.s, self.unit))
    }

    /// The walker for a footprint of `size` at `p`: the one gathered around the mover if the
    /// footprint lies there (or the whole one, if already gathered).
    fn for_footprint(&self, p: Pos, size: i32) -> &Walker<'a> {
        if let Some(w) = self.all.get() {
            return w;
        }
        match self.around {
            Some((c, n)) if p.x >= c.x && p.y >= c.y && p.x + size <= c.x + n && p.y + size <= c.y + n => {
                self.near.get_or_init(|| Walker::light_around(self.s, self.unit, (c, n)))
            }
            _ => self.all(),
        }
    }

    /// As [`step_cost`].
    pub fn step_cost(&self, from: Pos, to: Pos) -> Option<u32> {
        // Only the squares entered are asked who stands there.
        self.for_footprint(to, self.s.unit(self.unit).size).step_cost(from, to)
    }

    /// As [`can_stand`].
    pub fn can_stand(&self, p: Pos, size: i32) -> bool {
        self.for_footprint(p, size).can_stand_sized(p, size)
    }
}

/// Cost of stepping the footprint from `from` to `to` (1 or 2; `None` if not allowed).
/// Difficult Terrain counts once however many new squares are on it, and squares already
/// under the footprint are not entered again (K-TER-3, K-LARGE-1, K-LARGE-2); Flying and
/// Hovering ignore it (K-ST-Hovering); leaving a pit costs 1 more (K-TER-8).
pub fn step_cost(s: &State, unit: UnitIdx, from: Pos, to: Pos) -> Option<u32> {
    Walker::light(s, unit).step_cost(from, to)
}

/// The unit's speed for a move: halved, rounded down, while Slowed, crawling or dragging a
/// grabbed creature (K-ST-Slowed, K-MOVE-8, K-MOVE-9; rounding is a ruling).
pub fn speed(s: &State, unit: UnitIdx, mode: Mode) -> i32 {
    let (base, halved) = speed_parts(s, unit);
    if halved || mode == Mode::Crawl { base / 2 } else { base }
}

thread_local! {
    /// [`speed_parts`] of movers in the state stamped so: forgotten when asked in a state with
    /// other facts.
    #[allow(clippy::type_complexity)]
    static SPEEDS: std::cell::RefCell<(Option<crate::engine::state::Stamp>, Vec<(UnitIdx, i32, bool)>)> =
        const { std::cell::RefCell::new((None, Vec::new())) };
}

/// The unit's speed before halving, and whether it is halved whatever the mode (Slowed, or
/// dragging someone): worked out once per state (a menu asks for every charge it weighs).
fn speed_parts(s: &State, unit: UnitIdx) -> (i32, bool) {
    let stamp = s.stamp();
    let known = SPEEDS.with(|m| {
        let m = m.borrow();
        if m.0 != Some(stamp) {
            return None;
        }
        m.1.iter().find(|&&(u, _, _)| u == unit).map(|&(_, base, halved)| (base, halved))
    });
    if let Some(parts) = known {
        return parts;
    }
    let base = s.unit(unit).speed + crate::rules::query::speed_bonus(s, unit) // Motile Ward
        + crate::rules::modifiers::speed_bonus(s, unit) // Surefoot Charm
        - if s.has(unit, StatusKind::Grabbed) { crate::rules::query::squid_drag(s, unit) } else { 0 }; // Lightweight
    let base = base.max(0);
    let dragging = grabbed_by(s, unit).any(|v| !crate::rules::portals::lift_grab(s, v, unit)); // a Lift drags nothing
    let halved = s.has(unit, StatusKind::Slowed) || dragging;
    SPEEDS.with(|m| {
        let mut m = m.borrow_mut();
        if m.0 != Some(stamp) {
            m.0 = Some(stamp);
            m.1.clear();
        }
        m.1.push((unit, base, halved));
    });
    (base, halved)
}

/// Units `unit` holds in a Grab (a Tether's hold is not dragged along, gadgets.rs).
pub fn grabbed_by(s: &State, unit: UnitIdx) -> impl Iterator<Item = UnitIdx> + '_ {
    // A Tether's hold (gadgets.rs) and Vine Worms' grab (L1697) drag no one.
    s.units_on_map().filter(move |&v| {
        s.status_from(v, StatusKind::Grabbed, unit)
            .is_some_and(|st| !crate::rules::query::is_tether(s, &st) && !crate::rules::query::loose(s, &st))
    })
}

/// What a whole route search was asked: in the state stamped so, for this mover, in this mode.
type SearchKey = (crate::engine::state::Stamp, UnitIdx, Mode);

thread_local! {
    /// Route-search buffers, reused from one search to the next on this thread, with the key of
    /// the whole search they hold ([`whole_search`]), if they hold one.
    static SCRATCH: std::cell::RefCell<(ReachScratch, Option<SearchKey>)> =
        std::cell::RefCell::new((ReachScratch::new(), None));
}

/// Runs `f` with this thread's route-search buffers (fresh ones if a search is already using
/// them further up the stack).
fn with_scratch<R>(f: impl FnOnce(&mut ReachScratch) -> R) -> R {
    SCRATCH.with(|c| match c.try_borrow_mut() {
        Ok(mut sc) => {
            sc.1 = None; // f's search leaves them holding no whole search
            f(&mut sc.0)
        }
        Err(_) => f(&mut ReachScratch::new()),
    })
}

/// Runs `f` on the whole route search of `unit` moving in `mode` under its own power (walker
/// `w`, [`Walker::for_mode`]), searched once per state: the square menu's search serves the
/// route to the square chosen from it.
fn whole_search<R>(s: &State, unit: UnitIdx, mode: Mode, w: &Walker, f: impl FnOnce(&Reach) -> R) -> Option<R> {
    let start = s.unit(unit).pos?;
    let key = (s.stamp(), unit, mode);
    let search = |sc: &mut ReachScratch| {
        let budget = speed(s, unit, mode).max(0) as u32;
        let (width, height) = (s.arena.terrain.width(), s.arena.terrain.height());
        let boosts = has_boosts(s);
        let sc = sc.min_step(min_step(boosts));
        match plain_steps(s, unit, mode, w, boosts) {
            Some(pl) => sc.search_steps(width, height, start, budget, |p, q| pl.step(p, q)),
            None => sc.search_pruned(width, height, start, budget, edges(s, unit, mode, w, boosts)),
        };
    };
    Some(SCRATCH.with(|c| match c.try_borrow_mut() {
        Ok(mut sc) => {
            if sc.1 != Some(key) {
                sc.1 = None;
                search(&mut sc.0);
                sc.1 = Some(key);
            }
            f(sc.0.reach())
        }
        Err(_) => {
            let mut sc = ReachScratch::new();
            search(&mut sc);
            f(sc.reach())
        }
    }))
}

/// The route [`whole_search`] found to `dest` (not the start), if it was searched in this
/// state: `None` if not searched, `Some(None)` if `dest` was not reached.
fn searched_route(s: &State, unit: UnitIdx, mode: Mode, dest: Pos) -> Option<Option<Vec<Pos>>> {
    let key = (s.stamp(), unit, mode);
    SCRATCH.with(|c| {
        let sc = c.try_borrow().ok()?;
        (sc.1 == Some(key) && s.unit(unit).pos != Some(dest)).then(|| sc.0.reach().path_to(dest))
    })
}

/// How `unit` steps under its own power moving in `mode` ([`edges`] and the first steps of
/// [`any_destination_on`]): what is asked once a search.
struct Steps<'a> {
    s: &'a State,
    unit: UnitIdx,
    mode: Mode,
    w: &'a Walker<'a>,
    size: i32,
    /// Whether the arena has a Boost Square at all ([`has_boosts`]).
    boosts: bool,
    /// Whether any Irena's Cloak is about.
    cloaks: bool,
    /// Whether any square may be a portal end ([`has_portals`]).
    portals: bool,
}

impl<'a> Steps<'a> {
    fn new(s: &'a State, unit: UnitIdx, mode: Mode, w: &'a Walker<'a>, boosts: bool) -> Self {
        let cloaks = s.zones.iter().any(|z| z.kind == crate::content::powers::ZoneKind::Cloak);
        Steps { s, unit, mode, w, size: s.unit(unit).size, boosts, cloaks, portals: has_portals(s) }
    }

    /// Whether a one-square mover stepping onto `q` goes through a portal instead.
    #[inline]
    fn enters_portal(&self, q: Pos) -> bool {
        self.size == 1 && self.portals && crate::rules::portals::is_portal(self.s, q)
    }

    /// Whether a step from `p` onto `q` may be taken, and its cost before [`Steps::spent`]
    /// (a portal's far side is reached for this cost).
    #[inline]
    fn judge(&self, p: Pos, q: Pos) -> Option<u32> {
        let (s, size) = (self.s, self.size);
        let c = self.w.step_cost(p, q)?;
        if self.cloaks && crate::rules::query::barred(s, self.unit, q) {
            return None; // Irena's Cloak
        }
        if let Mode::Charge(t) = self.mode {
            // K-MOVE-11: every square nearer the target; no Difficult Terrain.
            let tp = s.unit(t).pos.unwrap();
            let ts = s.unit(t).size;
            if c > 1 || distance(q, size, tp, ts) >= distance(p, size, tp, ts) {
                return None;
            }
        }
        Some(c)
    }

    /// The movement a judged step from `p` onto `q` (not through a portal) uses up.
    #[inline]
    fn spent(&self, mut c: u32, p: Pos, q: Pos) -> u32 {
        if self.mode == Mode::Crawl {
            c = c.max(1);
        }
        if self.boosts && crate::rules::query::free_step(self.s, self.size, p, q) {
            c = 0; // Boost Square
        }
        c
    }
}

/// The steps `unit` may take from a square moving in `mode` under its own power, with what
/// each costs: the edges of its route search.
/// `boosts`: whether the arena has a Boost Square at all ([`has_boosts`], asked once a search).
fn edges<'a>(
    s: &'a State,
    unit: UnitIdx,
    mode: Mode,
    w: &'a Walker<'a>,
    boosts: bool,
) -> impl FnMut(Pos, &Frontier, &mut Vec<(Pos, u32)>) + 'a {
    let side = s.unit(unit).side;
    let steps = Steps::new(s, unit, mode, w, boosts);
    // A one-square mover laid out by square, with no portal or Irena's Cloak about: each step
    // read from the look-up, as `judge` and `spent` would judge it.
    let plain = steps.size == 1 && !w.b.occ.is_empty() && !steps.cloaks && !steps.portals;
    move |p, frontier, out| {
        if plain {
            // K-MOVE-11: a Charge's every square nearer its target.
            let charge = match mode {
                Mode::Charge(t) => {
                    let (tp, ts) = (s.unit(t).pos.unwrap(), s.unit(t).size);
                    Some((tp, ts, distance(p, 1, tp, ts)))
                }
                _ => None,
            };
            for q in p.neighbours() {
                if !frontier.may_improve(q) {
                    continue;
                }
                let Some(c) = w.step_cost_1_indexed(p, q) else {
                    continue;
                };
                if let Some((tp, ts, here)) = charge
                    && (c > 1 || distance(q, 1, tp, ts) >= here)
                {
                    continue;
                }
                out.push((q, steps.spent(c, p, q)));
            }
            return;
        }
        for q in p.neighbours() {
            // A step the search would ignore (it cannot make `q` cheaper) is not judged; a portal
            // leads elsewhere, so it is judged still.
            if !frontier.may_improve(q) && !steps.enters_portal(q) {
                continue;
            }
            let Some(c) = steps.judge(p, q) else {
                continue;
            };
            if steps.enters_portal(q) {
                // K-TER-4: entering a portal puts you beside its other end (Short Tunnel too;
                // a Charge through a tunnel goes on nearer its target from the far side).
                if let Some(other) = crate::rules::portals::portal_exit(s, q, side) {
                    for r in other.neighbours() {
                        let charge_ok = match mode {
                            Mode::Charge(t) if crate::rules::portals::is_tunnel(s, q) => {
                                let (tp, ts) = (s.unit(t).pos.unwrap(), s.unit(t).size);
                                distance(r, 1, tp, ts) < distance(other, 1, tp, ts)
                            }
                            _ => true,
                        };
                        if w.can_pass(r) && !crate::rules::portals::is_portal(s, r) && charge_ok {
                            out.push((r, c));
                        }
                    }
                }
                continue;
            }
            out.push((q, steps.spent(c, p, q)));
        }
    }
}

/// [`edges`] step by step, for the `_steps` searches ([`Plain::step`]), where every step goes to
/// a neighbour: with no portal about (a portal leads elsewhere); `None` otherwise.
fn plain_steps<'a>(s: &'a State, unit: UnitIdx, mode: Mode, w: &'a Walker<'a>, boosts: bool) -> Option<Plain<'a>> {
    let steps = Steps::new(s, unit, mode, w, boosts);
    if steps.portals {
        return None;
    }
    // As `edges`: a one-square mover laid out by square, with no Irena's Cloak about, reads
    // each step from the look-up.
    let indexed = steps.size == 1 && !w.b.occ.is_empty() && !steps.cloaks;
    let target = match mode {
        Mode::Charge(t) => Some((s.unit(t).pos.unwrap(), s.unit(t).size)),
        _ => None,
    };
    Some(Plain { w, steps, indexed, target })
}

/// What [`plain_steps`] gathered.
struct Plain<'a> {
    w: &'a Walker<'a>,
    steps: Steps<'a>,
    /// Each step read from the look-up ([`edges`]' `plain` case).
    indexed: bool,
    /// A Charge's target: its square and size.
    target: Option<(Pos, i32)>,
}

impl Plain<'_> {
    /// The cost of the step from `p` onto its neighbour `q`, as [`edges`] judges it.
    #[inline(always)]
    fn step(&self, p: Pos, q: Pos) -> Option<u32> {
        if !self.indexed {
            let c = self.steps.judge(p, q)?;
            return Some(self.steps.spent(c, p, q));
        }
        let c = self.w.step_cost_1_indexed(p, q)?;
        // K-MOVE-11: a Charge's every square nearer its target.
        if let Some((tp, ts)) = self.target
            && (c > 1 || distance(q, 1, tp, ts) >= distance(p, 1, tp, ts))
        {
            return None;
        }
        Some(self.steps.spent(c, p, q))
    }
}

/// Squares `unit` can reach moving under its own power, with their routes.
pub fn reach(s: &State, unit: UnitIdx, mode: Mode) -> Option<Reach> {
    whole_search(s, unit, mode, &Walker::for_mode(s, unit, mode), Reach::clone)
}

thread_local! {
    /// The arena [`has_boosts`] last scanned, with its answers (Boost Squares, portal squares).
    /// Holding the arena keeps it shared, so a change to its terrain (copy on write,
    /// `Arc::make_mut`) makes a new one: while the pointer is the same, the terrain is too.
    #[allow(clippy::type_complexity)]
    static BOOSTS: std::cell::RefCell<Option<ArenaKinds>> = const { std::cell::RefCell::new(None) };
}

/// What [`BOOSTS`] keeps of one arena.
struct ArenaKinds {
    arena: std::sync::Arc<crate::engine::arena::Arena>,
    boosts: bool,
    portals: bool,
    /// Every square's kinds ([`T_OPEN`], [`T_DIFFICULT`], [`T_PIT`], [`T_EDGE`]), row by row.
    codes: std::rc::Rc<[u8]>,
}

/// The [`ArenaKinds`] of `s`'s arena, scanned once per arena.
fn arena_kinds<R>(s: &State, f: impl FnOnce(&ArenaKinds) -> R) -> R {
    BOOSTS.with(|m| {
        let mut m = m.borrow_mut();
        if let Some(k) = m.as_ref()
            && std::sync::Arc::ptr_eq(&k.arena, &s.arena)
        {
            return f(k);
        }
        let cells = s.arena.terrain.cells();
        let boosts = cells.iter().any(|t| matches!(t, Terrain::Boost(_)));
        let portals = cells.contains(&Terrain::Portal);
        let codes = cells
            .iter()
            .map(|&t| {
                let mut c = 0;
                if t.enterable() {
                    c |= T_OPEN;
                }
                if t.is_difficult() {
                    c |= T_DIFFICULT;
                }
                if t == Terrain::Pit {
                    c |= T_PIT;
                }
                if t == Terrain::Edge {
                    c |= T_EDGE;
                }
                if t == Terrain::Portal {
                    c |= T_PORTAL;
                }
                c
            })
            .collect();
        f(m.insert(ArenaKinds { arena: s.arena.clone(), boosts, portals, codes }))
    })
}

/// Whether the arena has a Boost Square at all, and a portal square (every search asks:
/// scanned once per arena).
fn terrain_kinds(s: &State) -> (bool, bool) {
    arena_kinds(s, |k| (k.boosts, k.portals))
}

/// Every square's kinds in `s`'s arena ([`ArenaKinds::codes`]).
fn terrain_codes(s: &State) -> std::rc::Rc<[u8]> {
    arena_kinds(s, |k| k.codes.clone())
}

/// Whether the arena has a Boost Square at all ([`terrain_kinds`]).
fn has_boosts(s: &State) -> bool {
    terrain_kinds(s).0
}

/// Whether any square may be a portal end: the arena has a portal square, or a Short Tunnel
/// is open ([`crate::rules::portals::is_portal`] is false everywhere otherwise).
fn has_portals(s: &State) -> bool {
    terrain_kinds(s).1 || !s.porter.tunnels.is_empty()
}

/// The least a step under one's own power costs: 1, or 0 where the arena has Boost Squares
/// (`boosts`, [`has_boosts`]).
fn min_step(boosts: bool) -> u32 {
    u32::from(!boosts)
}

/// [`reach`] and [`destinations`] from one route search (the Creep AI wants both).
pub fn reach_and_destinations(s: &State, unit: UnitIdx, mode: Mode) -> Option<(Reach, Vec<Pos>)> {
    // Where it may stop is judged as a walker, even after a Misty Charge (as `destinations`).
    let stop = Walker::new(s, unit);
    let pause = may_pause_in_walls(s, unit);
    whole_search(s, unit, mode, &Walker::for_mode(s, unit, mode), |reach| {
        (reach.clone(), reach.squares().filter(|&p| stop.can_stop(p, pause)).collect())
    })
}

/// Legal destinations for a move.
pub fn destinations(s: &State, unit: UnitIdx, mode: Mode) -> Vec<Pos> {
    // A Misty Charge still stops only where a walker may.
    let stop = Walker::new(s, unit);
    let pause = may_pause_in_walls(s, unit);
    whole_search(s, unit, mode, &Walker::for_mode(s, unit, mode), |reach| {
        reach.squares().filter(|&p| stop.can_stop(p, pause)).collect()
    })
    .unwrap_or_default()
}

/// Whether a move has some legal destination for which `accept` holds (the search stops at
/// the first): [`destinations`]`.into_iter().any(accept)`.
pub fn any_destination(s: &State, unit: UnitIdx, mode: Mode, accept: impl FnMut(Pos) -> bool) -> bool {
    any_destination_on(&Footing::of(s, unit), s, unit, mode, accept)
}

/// [`any_destination`] with the mover's footing already gathered (`footing` is `unit`'s in `s`):
/// a menu asks about walking, crawling and charging each enemy on one footing.
pub fn any_destination_on(
    footing: &Footing,
    s: &State,
    unit: UnitIdx,
    mode: Mode,
    mut accept: impl FnMut(Pos) -> bool,
) -> bool {
    let Some(start) = s.unit(unit).pos else { return false };
    let budget = speed(s, unit, mode).max(0) as u32;
    let pause = may_pause_in_walls(s, unit);
    let (width, height) = (s.arena.terrain.width(), s.arena.terrain.height());
    let boosts = has_boosts(s);
    // Most moves can stop one step away: a square the search's first steps reach within the
    // budget (as `edges` judges them, portals left to the search) answers without a search,
    // asking only who stands around the mover.
    if !matches!(mode, Mode::Charge(_)) && min_step(boosts) <= budget && s.arena.terrain.contains(start) {
        let size = s.unit(unit).size;
        let w = footing.for_footprint(start.offset(-1, -1), size + 2);
        let stop = w;
        let steps = Steps::new(s, unit, mode, w, boosts);
        for q in start.neighbours() {
            if !s.arena.terrain.contains(q) || steps.enters_portal(q) {
                continue;
            }
            if steps.judge(start, q).is_some_and(|c| steps.spent(c, start, q) <= budget)
                && stop.can_stop(q, pause)
                && accept(q)
            {
                return true;
            }
        }
    }
    // Only a Misty Charge walks otherwise than the plain walker (Walker::for_mode).
    let misty_walker;
    let w = if matches!(mode, Mode::Charge(_)) && crate::rules::query::misty_charge(s, unit) {
        misty_walker = Walker::for_mode(s, unit, mode);
        &misty_walker
    } else {
        footing.all()
    };
    let stop = footing.all();
    with_scratch(|sc| {
        let sc = sc.min_step(min_step(boosts));
        let accept = |p| stop.can_stop(p, pause) && accept(p);
        match plain_steps(s, unit, mode, w, boosts) {
            Some(pl) => sc.find_steps(width, height, start, budget, |p, q| pl.step(p, q), accept),
            None => sc.find_pruned(width, height, start, budget, edges(s, unit, mode, w, boosts), accept),
        }
        .is_some()
    })
}

/// Whether a Charge of `unit` at `t` may end beside `t`: [`any_destination_on`] in
/// `Mode::Charge(t)` accepting the squares 1 from `t` (`footing` is `unit`'s in `s`).
pub fn can_charge_beside(footing: &Footing, s: &State, unit: UnitIdx, t: UnitIdx) -> bool {
    if let Some(answer) = charge_walk(footing, s, unit, t) {
        return answer;
    }
    let (size, tp, ts) = (s.unit(unit).size, s.unit(t).pos, s.unit(t).size);
    let Some(tp) = tp else { return false };
    any_destination_on(footing, s, unit, Mode::Charge(t), |q| distance(q, size, tp, ts) == 1)
}

/// [`can_charge_beside`] without the cost search, where it gives the same answer (`None` where
/// not). Every step of a Charge brings the mover exactly one square nearer its target (K-MOVE-11),
/// so a route to a square beside it has `d - 1` steps from distance `d`, each costing at most 1:
/// within the budget whenever `d - 1` is. With no portal about (a portal leads elsewhere), only
/// which squares are reached matters, and a depth-first walk over the squares ever nearer the
/// target, each judged as the search's steps are ([`Steps::judge`]), finds them.
fn charge_walk(footing: &Footing, s: &State, unit: UnitIdx, t: UnitIdx) -> Option<bool> {
    /// Squares the walk may hold waiting at once (more: the search answers instead).
    const STACK: usize = 64;
    let start = s.unit(unit).pos?;
    let (tp, ts) = (s.unit(t).pos?, s.unit(t).size);
    let size = s.unit(unit).size;
    let mode = Mode::Charge(t);
    let d = distance(start, size, tp, ts);
    let budget = speed(s, unit, mode).max(0);
    if d < 2 || d - 1 > budget || !s.arena.terrain.contains(start) || has_portals(s) {
        return None;
    }
    // Every square the walk reaches is nearer the target than `d`: it lies in this box.
    let (x0, y0) = (tp.x - (size - 1) - (d - 1), tp.y - (size - 1) - (d - 1));
    let side = ts + size - 1 + 2 * (d - 1);
    if side > 32 {
        return None;
    }
    let mut seen = [0u32; 32];
    let pause = may_pause_in_walls(s, unit);
    // Only a Misty Charge walks otherwise than the plain walker (Walker::for_mode).
    let misty_walker;
    let w = if crate::rules::query::misty_charge(s, unit) {
        misty_walker = Walker::for_mode(s, unit, mode);
        &misty_walker
    } else {
        footing.all()
    };
    let stop = footing.all();
    let steps = Steps::new(s, unit, mode, w, has_boosts(s));
    let grid = &s.arena.terrain;
    let mut stack = [(start, d); STACK];
    let mut n = 1;
    while n > 0 {
        n -= 1;
        let (p, dp) = stack[n];
        for q in p.neighbours() {
            let dq = distance(q, size, tp, ts);
            // `judge` refuses a step that does not bring the mover nearer.
            if dq >= dp || !grid.contains(q) {
                continue;
            }
            let (bx, by) = ((q.x - x0) as usize, (q.y - y0) as usize);
            if seen[by] & (1 << bx) != 0 || steps.judge(p, q).is_none() {
                continue;
            }
            seen[by] |= 1 << bx;
            if dq == 1 {
                if stop.can_stop(q, pause) {
                    return Some(true);
                }
                continue; // nearer still is never beside it
            }
            if n == STACK {
                return None;
            }
            stack[n] = (q, dq);
            n += 1;
        }
    }
    Some(false)
}

/// Whether a Phasing creature moving now would still have a Move Action afterwards to leave a
/// wall: its first Move Action, with the Attack Action left to trade (K-ACT-2), and nothing
/// cutting its turn short.
fn may_pause_in_walls(s: &State, unit: UnitIdx) -> bool {
    let u = s.unit(unit);
    s.has(unit, StatusKind::Phasing)
        && u.actions.moves == 0
        && !u.actions.attack
        && !u.turn_over
        && !s.has(unit, StatusKind::Dazed)
        && u.compulsion.is_none()
}

/// Whether the unit stands somewhere it could not normally be (a Phasing creature inside a
/// wall).
pub fn inside_wall(s: &State, unit: UnitIdx) -> bool {
    let u = s.unit(unit);
    u.pos.is_some_and(|p| footprint(p, u.size).any(|q| !s.arena.at(q).enterable()))
}

/// Checks an explicit route square by square; returns how each step is taken.
pub fn check_path(s: &State, unit: UnitIdx, path: &[Pos], mode: Mode) -> Result<(), RuleError> {
    let Some(mut at) = s.unit(unit).pos else {
        return Err(crate::engine::kit::refuse("K-DUN-1", format_args!("{} is not on the map", s.unit(unit).id)));
    };
    if path.is_empty() {
        return Err(RuleError::malformed("a move needs at least one square"));
    }
    let size = s.unit(unit).size;
    let side = s.unit(unit).side;
    let mut spent = 0u32;
    let budget = speed(s, unit, mode).max(0) as u32;
    // The mover's footing, gathered once for the whole route (the state stands still).
    let w = Walker::light(s, unit);
    for (i, &q) in path.iter().enumerate() {
        // A step through a portal lands beside its other end (K-TER-4). Two portals may lead
        // there (a Short Tunnel's two ends side by side), and a square next to the mover may be
        // reached through one more cheaply than by stepping: the cheapest way is taken, as the
        // route search does.
        let adjacent = distance(at, 1, q, 1) == 1;
        let via = at
            .neighbours()
            .into_iter()
            .filter(|&pt| {
                crate::rules::portals::is_portal(s, pt)
                    && crate::rules::portals::portal_exit(s, pt, side).is_some_and(|o| distance(o, 1, q, 1) == 1)
            })
            .filter(|&pt| w.step_cost(at, pt).is_some() && w.can_pass(q))
            .min_by_key(|&pt| w.step_cost(at, pt).unwrap_or(u32::MAX));
        if via.is_none() && size == 1 && crate::rules::portals::is_tunnel(s, q) {
            return Err(crate::engine::kit::refuse(
                "K-TER-4",
                format_args!("{q} is a portal: stepping into it comes out beside its other end; name that square"),
            ));
        }
        if !adjacent && via.is_none() {
            return Err(crate::engine::kit::refuse(
                "K-MOVE-1",
                format_args!("step {} of the route, {q}, is not next to {at}", i + 1),
            ));
        }
        let direct = if adjacent { w.step_cost(at, q) } else { None };
        let through = via.and_then(|pt| w.step_cost(at, pt));
        let portal = match (direct, through) {
            (Some(d), Some(t)) if t < d => via,
            (None, Some(_)) => via,
            _ => None,
        };
        let cost = if portal.is_some() { through } else { direct };
        let Some(c) = cost else {
            let why = if s.arena.at(q).enterable() { "an enemy stands there" } else { "the terrain blocks it" };
            return Err(crate::engine::kit::refuse(
                "K-TER-1",
                format_args!("{} cannot enter {q}: {why}", s.unit(unit).id),
            ));
        };
        // A Charge through a Short Tunnel: into the portal nearer the target, then out nearer it
        // than the far end is.
        if let (Mode::Charge(t), Some(pt)) = (mode, portal.filter(|&pt| crate::rules::portals::is_tunnel(s, pt))) {
            let (tp, ts) = (s.unit(t).pos.unwrap(), s.unit(t).size);
            let other = crate::rules::portals::tunnel_exit(s, pt).expect("a paired portal");
            if c > 1
                || distance(pt, 1, tp, ts) >= distance(at, size, tp, ts)
                || distance(q, 1, tp, ts) >= distance(other, 1, tp, ts)
            {
                return Err(crate::engine::kit::refuse(
                    "K-MOVE-11",
                    "a Charge through a tunnel must enter it nearer the target and come out nearer still",
                ));
            }
            spent += c;
            at = q;
            continue;
        }
        if let Mode::Charge(t) = mode {
            let tp = s.unit(t).pos.unwrap();
            let ts = s.unit(t).size;
            if c > 1 {
                return Err(crate::engine::kit::refuse("K-MOVE-11", "a Charge may not cross Difficult Terrain"));
            }
            if distance(q, size, tp, ts) >= distance(at, size, tp, ts) {
                return Err(crate::engine::kit::refuse(
                    "K-MOVE-11",
                    format_args!("every square of a Charge must bring you nearer the target; {q} does not"),
                ));
            }
        }
        if portal.is_some() || !crate::rules::query::free_step(s, size, at, q) {
            spent += c; // a Boost Square costs nothing
        }
        at = q;
    }
    if spent > budget {
        let rule = if s.has(unit, StatusKind::Slowed) {
            "K-ST-Slowed"
        } else if mode == Mode::Crawl {
            "K-MOVE-9"
        } else {
            "K-MOVE-1"
        };
        return Err(crate::engine::kit::refuse(
            rule,
            format_args!("that route costs {spent} squares of movement but {} has {budget}", s.unit(unit).id),
        ));
    }
    if !w.can_stop(at, may_pause_in_walls(s, unit)) {
        return Err(crate::engine::kit::refuse(
            "K-TER-4",
            format_args!(
                "{} cannot end its move at {at}: the square is occupied or not a place to stand",
                s.unit(unit).id
            ),
        ));
    }
    Ok(())
}

/// The route the engine takes to a chosen destination: the cheapest one.
pub fn route_to(s: &State, unit: UnitIdx, dest: Pos, mode: Mode) -> Option<Vec<Pos>> {
    let start = s.unit(unit).pos?;
    // The square menu searched this state already: its route (a search stopped at `dest` takes
    // the same steps until then).
    if let Some(route) = searched_route(s, unit, mode, dest) {
        return route;
    }
    let budget = speed(s, unit, mode).max(0) as u32;
    let w = Walker::for_mode(s, unit, mode);
    let (width, height) = (s.arena.terrain.width(), s.arena.terrain.height());
    let boosts = has_boosts(s);
    with_scratch(|sc| {
        let sc = sc.min_step(min_step(boosts));
        match plain_steps(s, unit, mode, &w, boosts) {
            Some(pl) => sc.route_steps(width, height, start, budget, |p, q| pl.step(p, q), dest),
            None => sc.route_pruned(width, height, start, budget, edges(s, unit, mode, &w, boosts), dest),
        }
    })
}

/// Puts a unit that cannot legally stay where it is (a flyer come down on someone) on the
/// nearest square where it can stand.
pub fn settle_on_legal_square(cx: &mut Ctx, unit: UnitIdx, why: &str) {
    let Some(p) = cx.s.unit(unit).pos else { return };
    if can_stand(cx.s, unit, p, cx.s.unit(unit).size) {
        return;
    }
    if let Some(q) = nearest_free(cx.s, unit, p) {
        cx.emit(Event::Placed { unit: cx.s.who(unit), at: q, why: why.into() });
    }
}

/// The nearest square to `near` where `unit` can stand.
pub fn nearest_free(s: &State, unit: UnitIdx, near: Pos) -> Option<Pos> {
    let size = s.unit(unit).size;
    let footing = Footing::of(s, unit); // gathered once for every square
    s.arena
        .terrain
        .squares()
        .filter(|&p| distance(p, size, near, 1) > 0 && footing.can_stand(p, size))
        .min_by_key(|&p| (distance(p, size, near, 1), p.y, p.x))
}

impl MoveFrame {
    /// A move along `path`.
    pub fn new(unit: UnitIdx, path: Vec<Pos>, how: How) -> Self {
        MoveFrame { unit, path, next: 0, how, provoked: Vec::new(), asked: false, spent: 0, limit: None }
    }
}

/// Advances a move by one square.
pub fn step(cx: &mut Ctx, mut m: MoveFrame) -> Result<Flow, RuleError> {
    let Some(from) = cx.s.unit(m.unit).pos else {
        return Ok(Flow::Continue);
    };
    if m.next >= m.path.len() {
        stop_short(cx, &m); // cut short by an Interrupt
        return Ok(Flow::Continue);
    }
    let to = m.path[m.next];
    if m.next == 0 && !m.asked {
        // Voko's Lariat: the first try to move may end Prone, and then the move does not start.
        if (crate::engine::hooks::curses(cx.s).moving)(cx, m.unit, m.how)?
            && cx.s.has(m.unit, StatusKind::Prone)
            && m.how != How::Crawl
        {
            if m.how == How::Charge
                && let Some(j) = cx.s.flow.iter().rposition(|f| matches!(f, Frame::Attack(a) if a.attacker == m.unit))
            {
                cx.s.flow.remove(j);
                cx.emit(Event::Note { text: format!("{}'s Charge is lost: no strike", cx.s.unit(m.unit).id) });
            }
            stop_short(cx, &m);
            return Ok(Flow::Continue);
        }
    }
    let base = cx.s.flow.len();
    let misty = m.how == How::Charge && crate::rules::query::misty_charge(cx.s, m.unit); // Misty Charge
    // Interrupts first: Opportunities for leaving this square, then triggered powers.
    let takers = if misty {
        Vec::new()
    } else {
        crate::rules::opportunity::for_leaving(cx.s, m.unit, from, to, m.how, &m.provoked)
    };
    for t in takers {
        m.provoked.push(t);
        crate::engine::hooks::provoked(cx, m.unit, t)?; // Path of Blades: once for the whole walk
        let why = if m.how == How::Shift {
            "shifting out of its marker's reach"
        } else {
            "leaving a square without shifting"
        };
        (crate::engine::hooks::triggered(cx.s).opportunity)(cx, t, m.unit, why);
        if !cx.s.unit(m.unit).on_map() {
            return Ok(Flow::Continue);
        }
    }
    if !m.asked {
        m.asked = true;
        (crate::engine::hooks::triggered(cx.s).moving)(cx, m.unit, m.how);
    }
    if cx.s.flow.len() > base {
        cx.s.flow.insert(base, Frame::Move(m)); // resumes once the Interrupts have resolved
        return Ok(Flow::Continue);
    }
    let stopped = cx.s.has(m.unit, StatusKind::Immobilized) && m.how != How::Dragged
        || cx.s.has(m.unit, StatusKind::Prone) && !matches!(m.how, How::Crawl | How::Dragged);
    // A square that an Interrupt or Reaction has since filled (a creature moved into the way)
    // can no longer be entered: the move stops short there (portal jumps are costed as 1).
    // The mover's footing for this step (entering and standing on `to`), gathered once.
    let plain = Walker::light_at(cx.s, m.unit, to);
    let step = if distance(from, 1, to, 1) > 1 {
        // A portal's far side, if it can still be entered.
        let walker = if misty { Walker::for_mode(cx.s, m.unit, Mode::Charge(m.unit)) } else { plain.clone() };
        walker.step_cost(from, to).map(|_| 1)
    } else if misty {
        Walker::for_mode(cx.s, m.unit, Mode::Charge(m.unit)).step_cost(from, to)
    } else {
        plain.step_cost(from, to)
    };
    // Irena's Cloak: no entering it of its own accord.
    let own = matches!(m.how, How::Walk | How::Shift | How::Crawl | How::Charge);
    let step = step.filter(|_| !(own && crate::rules::query::barred(cx.s, m.unit, to)));
    // Nor can the last square be taken if it has since become one the mover may not stop on
    // (an ally who took to the air under a flyer, K-ST-Flying): the move stops short.
    let last = m.next + 1 == m.path.len();
    let unstoppable = last && footprint(to, plain.b.size).any(|q| plain.occupied(q, false));
    let blocked = step.is_none() || unstoppable;
    let walking = matches!(m.how, How::Walk | How::Crawl | How::Charge);
    let size = cx.s.unit(m.unit).size;
    let free = walking && distance(from, 1, to, 1) == 1 && crate::rules::query::free_step(cx.s, size, from, to);
    let cost = if free { 0 } else { step.unwrap_or(1) }; // Boost Square
    if !cx.s.unit(m.unit).on_map() || stopped || blocked || m.limit.is_some_and(|l| m.spent + cost > l) {
        stop_short(cx, &m);
        return Ok(Flow::Continue);
    }
    m.spent += cost;
    let was_flying = cx.s.has(m.unit, StatusKind::Flying);
    let mark = cx.s.flow.len();
    let how = if distance(from, 1, to, 1) > 1 { How::Portal } else { m.how };
    cx.emit(Event::Moved { unit: cx.s.who(m.unit), from, to, how });
    // K-MOVE-8: a grabbed creature is dragged along into the square left behind.
    for v in grabbed_by(cx.s, m.unit).collect::<Vec<_>>() {
        let vp = cx.s.unit(v).pos.unwrap();
        if distance(vp, cx.s.unit(v).size, to, cx.s.unit(m.unit).size) > 1
            && !crate::rules::portals::lift_grab(cx.s, v, m.unit) // Involuntary Lift: held at a distance
            && can_stand(cx.s, v, from, cx.s.unit(v).size)
        {
            cx.emit(Event::Moved { unit: cx.s.who(v), from: vp, to: from, how: How::Dragged });
            (crate::engine::hooks::zones(cx.s).entered_as)(cx, v, vp, from, Some(m.unit), false)?;
        }
    }
    if own {
        (crate::engine::hooks::charms(cx.s).moved_through)(cx, m.unit); // Wraith Charm
    }
    let queued = cx.s.flow.len();
    (crate::engine::hooks::zones(cx.s).entered_as)(cx, m.unit, from, to, Some(m.unit), misty)?;
    // A trap that pushes or pulls the walker (Advanced Trap) ends its walk there.
    let forced = cx.s.flow[queued..].iter().any(|f| matches!(f, Frame::Forced(x) if x.target == m.unit));
    m.next += 1;
    m.asked = false;
    // K-MOVE-10: knocked Prone mid-move ends the move; so does being knocked out of the air
    // (K-ST-Flying: the flyer falls instead of going Prone, and the rest of a flight path is
    // no walk).
    let fell = was_flying && !cx.s.has(m.unit, StatusKind::Flying);
    if cx.s.unit(m.unit).on_map()
        && m.next < m.path.len()
        && !forced
        && !fell
        && !(cx.s.has(m.unit, StatusKind::Prone) && m.how != How::Crawl)
    {
        cx.push(Frame::Move(m));
        (crate::engine::hooks::warps(cx.s).lift)(cx, mark); // a warp entered on the way is answered first
    } else if m.next < m.path.len() {
        stop_short(cx, &m);
    } else {
        (crate::engine::hooks::triggered(cx.s).move_ended)(cx, m.unit, m.how);
    }
    Ok(Flow::Continue)
}

/// A move ends before its last square: a mover left on a square it may not stop on (an ally's)
/// takes the nearest free one (rulings K-MOVE-10); then Reactions to the move's end.
fn stop_short(cx: &mut Ctx, m: &MoveFrame) {
    if cx.s.unit(m.unit).on_map() {
        settle_on_legal_square(cx, m.unit, "stops short and steps to the nearest free square");
        (crate::engine::hooks::triggered(cx.s).move_ended)(cx, m.unit, m.how);
    }
}

/// Squares a power's shift may take next: adjacent, not Difficult Terrain, where the unit can
/// stand; nothing while Immobilized (K-MOVE-2, K-MOVE-7, K-ST-Immobilized). Always "stop".
pub fn power_shift_options(s: &State, unit: UnitIdx) -> Vec<fray_core::decision::DecisionOption> {
    let u = s.unit(unit);
    let mut out = Vec::new();
    if let Some(p) = u.pos
        && !s.has(unit, crate::rules::statuses::StatusKind::Immobilized)
    {
        let w = Walker::new(s, unit); // gathered once for every neighbour
        for q in p.neighbours() {
            if w.step_cost(p, q) == Some(1) && w.can_stand_sized(q, u.size) {
                out.push(fray_core::decision::DecisionOption::square(q, format!("shift to {q}")));
            }
        }
    }
    out.push(fray_core::decision::DecisionOption::new("stop", "stop here"));
    out
}

/// One square of a power's shift; the rest is asked again once it has resolved.
pub fn answer_power_shift(cx: &mut Ctx, unit: UnitIdx, left: i32, option: &str) -> Result<(), RuleError> {
    if option == "stop" {
        return Ok(());
    }
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y or stop"))?;
    if left > 1 {
        cx.push(Frame::ShiftSelf { unit, left: left - 1 });
    }
    cx.push(Frame::Move(MoveFrame::new(unit, vec![q], How::Shift)));
    Ok(())
}
