//! Using abilities (DS-ROLL-3, DS-ROLL-4, DS-CRIT-1, DS-GAP-5, DS-SURGE-1): one power roll for
//! every target, each target's own edges and banes, damage to every target before any tier
//! effect, potency, surges, and the critical hit's extra action. Also the free strike
//! (DS-FS-1, DS-GAP-13).

use crate::events::{Ctx, Event};
use crate::frames::{ForcedFrame, Frame};
use crate::model::{AbilityDef, Characteristic, ConditionKind, Distance, EffectDef, Usage, parse_potency};
use crate::options::Text;
use crate::rolls::Mods;
use crate::state::{Cx, State, Terrain, Until};
use fray_core::decision::DecisionOption;
use fray_core::engine::Flow;
use fray_core::ruleset::RuleError;
use fray_core::sight::Sight;
use std::sync::Arc;

pub use crate::frames::AbilityFrame;

/// The standard free strikes of heroes (DS-GAP-13): melee 1 or ranged 5, Might or Agility,
/// 2 / 5 / 7 + the characteristic (ranged 2 / 4 / 6).
pub fn hero_free_strike(ranged: bool) -> AbilityDef {
    let tier = |d| crate::model::TierDef { damage: d, plus_characteristic: true, ..Default::default() };
    AbilityDef {
        id: if ranged { "ranged-free-strike" } else { "melee-free-strike" }.into(),
        name: if ranged { "Ranged Free Strike" } else { "Melee Free Strike" }.into(),
        keywords: vec![if ranged { "ranged" } else { "melee" }.into(), "strike".into(), "weapon".into()],
        usage: Usage::Main,
        distance: if ranged { Distance::Ranged { range: 5 } } else { Distance::Melee { reach: 1 } },
        targets: 1,
        target: crate::model::TargetKind::Creatures,
        objects: false,
        roll: vec![Characteristic::Might, Characteristic::Agility],
        tier1: tier(2),
        tier2: tier(if ranged { 4 } else { 5 }),
        tier3: tier(if ranged { 6 } else { 7 }),
        effect: vec![],
        cost: None,
        malice: None,
        text: "The strike anyone can make.".into(),
    }
}

/// Edges and banes for `user`'s roll against `target` (DS-EB, DS-COND-*, DS-SURP-1, DS-CONC-1,
/// DS-HIDE-3, DS-INVIS-1, DS-GAP-6, DS-GAP-7, DS-GAP-9, DS-GAP-12).
pub fn mods(s: &State, user: Cx, target: Cx, a: &AbilityDef, all_targets: &[Cx]) -> Mods {
    use ConditionKind::*;
    let mut m = Mods::default();
    let strike = a.is_strike();
    if s.c(target).surprised {
        m.edge("target surprised");
    }
    if s.has(target, Restrained) {
        m.edge("target restrained");
    }
    if a.is_melee() && s.has(target, Prone) {
        m.edge("melee against a prone target");
    }
    if s.source_of(target, Frightened) == Some(user) {
        m.edge("target frightened of the roller");
    }
    if hiding_edge(s, user, target) {
        m.edge("roller hidden from the target (or given away this turn)");
    }
    if s.c(target).aided_by.is_some_and(|a| a != user && !s.enemies(a, user)) {
        m.edge("an ally aided the attack");
    }
    if a.is_melee() && flanked(s, user, target) {
        m.edge("flanking");
    }
    if strike && s.captain_bonus(user).is_some_and(|w| w.edge) {
        m.edge("a minion with its captain");
    }
    if s.source_of(user, Frightened) == Some(target) {
        m.bane("roller frightened of the target");
    }
    if let Some(g) = s.source_of(user, Grabbed)
        && !all_targets.contains(&g)
    {
        m.bane("grabbed, and not targeting the grabber");
    }
    if strike && s.has(user, Prone) {
        m.bane("striking while prone");
    }
    if s.has(user, Restrained) {
        m.bane("roller restrained");
    }
    if s.has(user, Weakened) {
        m.bane("roller weakened");
    }
    if strike && concealed(s, target) {
        m.bane("target concealed");
    }
    if a.deals_damage() && has_cover(s, user, target) {
        m.bane("target in cover");
    }
    if strike && a.is_ranged() && s.active().any(|e| s.enemies(user, e) && s.distance(user, e) == Some(1)) {
        m.bane("ranged strike with an enemy adjacent");
    }
    if s.c(target).defending {
        m.bane("target defending");
        m.bane("target defending");
    }
    if let Some(t) = s.source_of(user, Taunted)
        && !all_targets.contains(&t)
        && line_of_effect(s, user, t) != Sight::Blocked
    {
        m.bane("taunted by another");
        m.bane("taunted by another");
    }
    m
}

/// Flanking (DS-GAP-9): an ally adjacent on the opposite side, able to take triggered actions.
pub fn flanked(s: &State, user: Cx, target: Cx) -> bool {
    let (Some(tp), Some(up)) = (s.c(target).pos, s.c(user).pos) else { return false };
    if s.distance(user, target) != Some(1) {
        return false;
    }
    let sz = s.c(target).size.squares;
    let rel = |p: fray_core::grid::Pos| {
        let ax = |a: i32, t0: i32| {
            if a < t0 {
                -1
            } else if a > t0 + sz - 1 {
                1
            } else {
                0
            }
        };
        (ax(p.x, tp.x), ax(p.y, tp.y))
    };
    let me = rel(up);
    s.active().any(|a| {
        a != user
            && a != target
            && !s.enemies(user, a)
            && s.distance(a, target) == Some(1)
            && !s.has(a, ConditionKind::Dazed)
            && !s.c(a).surprised
            && rel(s.c(a).pos.unwrap()) == (-me.0, -me.1)
    })
}

/// Concealed: in fog, or invisible (DS-CONC-1, DS-INVIS-1).
pub fn concealed(s: &State, c: Cx) -> bool {
    s.c(c).invisible || s.c(c).pos.is_some_and(|p| s.terrain_at(p) == Terrain::Fog)
}

/// Line of effect between two creatures (DS-GAP-6): walls block.
pub fn line_of_effect(s: &State, a: Cx, b: Cx) -> Sight {
    SIGHTS.with(|m| match m.try_borrow_mut() {
        Ok(mut known) if std::ptr::eq(known.state, s) && (a as usize) < known.n && (b as usize) < known.n => {
            let i = a as usize * known.n + b as usize;
            if let Some(v) = known.sights[i] {
                return v;
            }
            let v = judge_line_of_effect(s, a, b, Some(known.generation));
            known.sights[i] = Some(v);
            v
        }
        _ => judge_line_of_effect(s, a, b, None),
    })
}

/// Whether the line of effect from `a` to `b` is clear (DS-GAP-6): [`line_of_effect`] is
/// [`Sight::Clear`], with no cover judged where it is not clear.
pub fn clear_line_of_effect(s: &State, a: Cx, b: Cx) -> bool {
    SIGHTS.with(|m| match m.try_borrow_mut() {
        Ok(mut known) if std::ptr::eq(known.state, s) && (a as usize) < known.n && (b as usize) < known.n => {
            let i = a as usize * known.n + b as usize;
            if let Some(v) = known.sights[i] {
                return v == Sight::Clear;
            }
            let clear = judge_clear(s, a, b, Some(known.generation));
            if clear {
                known.sights[i] = Some(Sight::Clear);
            }
            clear
        }
        _ => judge_clear(s, a, b, None),
    })
}

/// Runs `f` with a judge of [`clear_line_of_effect`] on `s`, the thread's [`SightBook`] found
/// once for all the lines `f` asks (none kept per state: for lines a menu asks once).
pub fn with_clear_lines<R>(s: &State, f: impl FnOnce(&mut dyn FnMut(Cx, Cx) -> bool) -> R) -> R {
    let guard = SIGHTS.with(|m| m.try_borrow().ok().filter(|m| std::ptr::eq(m.state, s)).map(|m| m.generation));
    BOOK.with(|book| match book.try_borrow_mut() {
        Ok(mut book) => {
            let page = book.page(s, guard);
            f(&mut |a, b| {
                let (x, y) = (s.c(a), s.c(b));
                match (x.pos, y.pos) {
                    (Some(p), Some(q)) => page.clear(s, (p, x.size.squares, q, y.size.squares)),
                    _ => false,
                }
            })
        }
        Err(_) => f(&mut |a, b| clear_line_of_effect(s, a, b)),
    })
}

/// [`clear_line_of_effect`], not remembered per state.
fn judge_clear(s: &State, a: Cx, b: Cx, guard: Option<u64>) -> bool {
    let (x, y) = (s.c(a), s.c(b));
    let (Some(p), Some(q)) = (x.pos, y.pos) else { return false };
    let key = (p, x.size.squares, q, y.size.squares);
    BOOK.with(|book| match book.try_borrow_mut() {
        Ok(mut book) => book.clear(s, key, guard),
        Err(_) => fray_core::sight::sight(key.0, key.1, key.2, key.3, |sq| s.is_wall(sq)) == Sight::Clear,
    })
}

/// `guard`: the generation of the [`remember_sights`] guard holding `s`, if one does.
fn judge_line_of_effect(s: &State, a: Cx, b: Cx, guard: Option<u64>) -> Sight {
    let (x, y) = (s.c(a), s.c(b));
    match (x.pos, y.pos) {
        (Some(p), Some(q)) => sight_in(s, (p, x.size.squares, q, y.size.squares), guard),
        _ => Sight::Blocked,
    }
}

/// `fray_core::sight::sight` from footprint (`p`, `ps`) to (`q`, `qs`) with the walls of `s`
/// blocking (`State::is_wall`), kept in the thread's [`SightBook`].
pub fn sight_between(s: &State, p: fray_core::grid::Pos, ps: i32, q: fray_core::grid::Pos, qs: i32) -> Sight {
    let guard = SIGHTS.with(|m| m.try_borrow().ok().filter(|m| std::ptr::eq(m.state, s)).map(|m| m.generation));
    sight_in(s, (p, ps, q, qs), guard)
}

/// Runs `f` with a judge of [`sight_between`] on `s` (footprint and size of each end), the
/// thread's [`SightBook`] found once for all the lines `f` asks.
pub fn with_sights<R>(s: &State, f: impl FnOnce(&mut dyn FnMut(SightKey) -> Sight) -> R) -> R {
    let guard = SIGHTS.with(|m| m.try_borrow().ok().filter(|m| std::ptr::eq(m.state, s)).map(|m| m.generation));
    BOOK.with(|book| match book.try_borrow_mut() {
        Ok(mut book) => {
            let page = book.page(s, guard);
            f(&mut |key| page.sight(s, key))
        }
        Err(_) => f(&mut |(p, ps, q, qs)| fray_core::sight::sight(p, ps, q, qs, |sq| s.is_wall(sq))),
    })
}

fn sight_in(s: &State, key: SightKey, guard: Option<u64>) -> Sight {
    BOOK.with(|book| match book.try_borrow_mut() {
        Ok(mut book) => book.sight(s, key, guard),
        Err(_) => {
            let (p, ps, q, qs) = key;
            fray_core::sight::sight(p, ps, q, qs, |sq| s.is_wall(sq))
        }
    })
}

/// What blocks lines of effect (`State::is_wall`) reads besides the map: each object's square,
/// the squares it fills across, whether it is toppled.
fn object_key(o: &crate::state::MapObject) -> (fray_core::grid::Pos, i32, bool, usize) {
    (o.at, if o.oblong { 1 } else { o.size.squares }, o.toppled, o.destroyed())
}

/// Lines of effect judged before, between footprints (square and size of each), on one map:
/// the arena's terrain (the arena held, so its address names it; another arena with the same
/// terrain is the same map), the raised walls and the objects. Asked about another map, it
/// turns to that map's page (a fresh one if none is kept), so it never answers for a map it was
/// not told.
struct SightBook {
    /// A page per map, the one asked last first; at most [`SIGHT_MAPS`].
    pages: Vec<SightPage>,
    /// The state held by a [`remember_sights`] guard (and the guard's generation) whose map
    /// the first page was found to be.
    verified: Option<(*const State, u64)>,
}

/// The lines of effect judged on one map.
struct SightPage {
    arena: Arc<crate::state::Arena>,
    walls: Vec<fray_core::grid::Pos>,
    objects: Vec<(fray_core::grid::Pos, i32, bool, usize)>,
    /// `State::is_wall` of each square of the map, row by row (read once per map).
    blocking: Vec<bool>,
    /// Every square for which `State::is_wall` holds: the map's, then raised walls off it.
    listed: Vec<fray_core::grid::Pos>,
    /// A direct-mapped table: each footprint pair has one slot, the last judged there kept.
    slots: Vec<Option<(SightKey, Sight)>>,
    /// Footprint pairs found not clear with their cover left unjudged ([`SightPage::clear`]),
    /// direct-mapped as `slots`.
    unclear: Vec<Option<SightKey>>,
}

/// Two footprints, square and size of each.
pub type SightKey = (fray_core::grid::Pos, i32, fray_core::grid::Pos, i32);

/// Slots in a [`SightPage`].
const SIGHT_SLOTS: usize = 1 << 12;

/// Maps a [`SightBook`] keeps pages for (walls raised in a match make new maps; the next match
/// starts on the first map again).
const SIGHT_MAPS: usize = 8;

impl SightPage {
    /// Whether this page is the map of `s`: the same arena (or one with the same terrain, which
    /// is held from then on), raised walls and objects.
    fn is_map_of(&mut self, s: &State) -> bool {
        if !Arc::ptr_eq(&self.arena, &s.arena) {
            if self.arena.terrain != s.arena.terrain {
                return false;
            }
            self.arena = s.arena.clone();
        }
        self.walls == s.walls
            && self.objects.len() == s.objects.len()
            && self.objects.iter().zip(&s.objects).all(|(k, o)| *k == object_key(o))
    }

    fn new(s: &State) -> Self {
        let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
        let blocking: Vec<bool> =
            (0..h).flat_map(|y| (0..w).map(move |x| s.is_wall(fray_core::grid::Pos::new(x, y)))).collect();
        let mut listed = Vec::new();
        let on_map = |p: fray_core::grid::Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
        for (i, _) in blocking.iter().enumerate().filter(|(_, b)| **b) {
            listed.push(fray_core::grid::Pos::new(i as i32 % w, i as i32 / w));
        }
        for &p in &s.walls {
            if !on_map(p) && !listed.contains(&p) {
                listed.push(p);
            }
        }
        SightPage {
            arena: s.arena.clone(),
            walls: s.walls.clone(),
            objects: s.objects.iter().map(object_key).collect(),
            blocking,
            listed,
            slots: vec![None; SIGHT_SLOTS],
            unclear: vec![None; SIGHT_SLOTS],
        }
    }

    /// Whether no blocking square stands in the box around both footprints (outside them):
    /// then the sight is clear, as `sight_listed` finds it with no walls gathered.
    fn open_box(&self, key: SightKey) -> bool {
        let (p, ps, q, qs) = key;
        let (x0, x1) = (p.x.min(q.x) - 1, (p.x + ps).max(q.x + qs));
        let (y0, y1) = (p.y.min(q.y) - 1, (p.y + ps).max(q.y + qs));
        let inside = |b: fray_core::grid::Pos, at: fray_core::grid::Pos, size: i32| {
            b.x >= at.x && b.y >= at.y && b.x < at.x + size && b.y < at.y + size
        };
        !self
            .listed
            .iter()
            .any(|&b| (x0..=x1).contains(&b.x) && (y0..=y1).contains(&b.y) && !inside(b, p, ps) && !inside(b, q, qs))
    }

    /// The slot of a footprint pair in `slots` and `unclear`.
    fn slot_of(key: SightKey) -> usize {
        let (p, ps, q, qs) = key;
        let h = [p.x, p.y, ps, q.x, q.y, qs]
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &v| (h ^ v as u32 as u64).wrapping_mul(0x0000_0100_0000_01b3));
        (h ^ (h >> 29)) as usize % SIGHT_SLOTS
    }

    /// `State::is_wall` of `s` (whose map this page is) at `sq`.
    fn blocks(&self, s: &State, sq: fray_core::grid::Pos) -> bool {
        let (w, h) = (s.arena.terrain.width(), s.arena.terrain.height());
        // Off the map only raised walls can stand (`is_wall`).
        if sq.x >= 0 && sq.y >= 0 && sq.x < w && sq.y < h {
            self.blocking[(sq.y * w + sq.x) as usize]
        } else {
            s.is_wall(sq)
        }
    }

    fn sight(&mut self, s: &State, key: SightKey) -> Sight {
        let (p, ps, q, qs) = key;
        if self.open_box(key) {
            debug_assert_eq!(fray_core::sight::sight(p, ps, q, qs, |sq| s.is_wall(sq)), Sight::Clear);
            return Sight::Clear;
        }
        let k = Self::slot_of(key);
        match self.slots[k] {
            Some((known, v)) if known == key => v,
            _ => {
                let v = fray_core::sight::sight_listed(p, ps, q, qs, |sq| self.blocks(s, sq), &self.listed);
                debug_assert_eq!(v, fray_core::sight::sight(p, ps, q, qs, |sq| s.is_wall(sq)));
                self.slots[k] = Some((key, v));
                v
            }
        }
    }

    /// Whether [`SightPage::sight`] is [`Sight::Clear`], with no cover judged where it is not.
    fn clear(&mut self, s: &State, key: SightKey) -> bool {
        let (p, ps, q, qs) = key;
        if self.open_box(key) {
            return true;
        }
        let k = Self::slot_of(key);
        if let Some((known, v)) = self.slots[k]
            && known == key
        {
            return v == Sight::Clear;
        }
        if self.unclear[k] == Some(key) {
            return false;
        }
        let clear = fray_core::sight::clear_listed(p, ps, q, qs, |sq| self.blocks(s, sq), &self.listed);
        debug_assert_eq!(clear, fray_core::sight::sight(p, ps, q, qs, |sq| s.is_wall(sq)) == Sight::Clear);
        if clear {
            self.slots[k] = Some((key, Sight::Clear));
        } else {
            self.unclear[k] = Some(key);
        }
        clear
    }
}

impl SightBook {
    /// `guard`: the generation of a [`remember_sights`] guard that holds `s` borrowed: once
    /// its page is found it stays the page of `s` while that guard lives.
    fn sight(&mut self, s: &State, key: SightKey, guard: Option<u64>) -> Sight {
        self.page(s, guard).sight(s, key)
    }

    /// [`SightBook::sight`] is [`Sight::Clear`], with no cover judged where it is not.
    fn clear(&mut self, s: &State, key: SightKey, guard: Option<u64>) -> bool {
        self.page(s, guard).clear(s, key)
    }

    /// The page of the map of `s`, put first.
    fn page(&mut self, s: &State, guard: Option<u64>) -> &mut SightPage {
        let held = guard.map(|g| (s as *const State, g));
        if held.is_some() && self.verified == held && !self.pages.is_empty() {
            return &mut self.pages[0];
        }
        self.verified = held;
        if !self.pages.first_mut().is_some_and(|page| page.is_map_of(s)) {
            match self.pages.iter_mut().position(|page| page.is_map_of(s)) {
                Some(k) => {
                    let page = self.pages.remove(k);
                    self.pages.insert(0, page);
                }
                None => {
                    self.pages.truncate(SIGHT_MAPS - 1);
                    self.pages.insert(0, SightPage::new(s));
                }
            }
        }
        &mut self.pages[0]
    }
}

/// Lines of effect judged while one state is borrowed (a menu being built), by shooter and
/// target; `state` is null while no menu is being built (the table is kept for the next).
struct Sights {
    state: *const State,
    /// Counts the outermost guards made: names the one that holds `state`.
    generation: u64,
    n: usize,
    sights: Vec<Option<Sight>>,
}

thread_local! {
    /// SIGHTS: a per-call memo, set by the outermost [`remember_sights`] and emptied when its
    /// guard is dropped; keyed by the state's address, which cannot change while it is borrowed.
    static SIGHTS: std::cell::RefCell<Sights> =
        const { std::cell::RefCell::new(Sights { state: std::ptr::null(), generation: 0, n: 0, sights: Vec::new() }) };
    /// BOOK: lines of effect judged before, kept from call to call for the map they were judged
    /// on (a [`SightBook`]: a line of effect depends only on the two footprints and the map).
    static BOOK: std::cell::RefCell<SightBook> = const {
        std::cell::RefCell::new(SightBook { pages: Vec::new(), verified: None })
    };
}

/// While the guard lives, [`line_of_effect`] in `s` is judged once per pair of creatures.
pub struct SightMemo<'a> {
    outer: bool,
    _state: std::marker::PhantomData<&'a State>,
}

/// Remembers lines of effect in `s` until the guard is dropped (`s` stays borrowed meanwhile).
pub fn remember_sights(s: &State) -> SightMemo<'_> {
    let outer = SIGHTS.with(|m| {
        let Ok(mut m) = m.try_borrow_mut() else { return false };
        if !m.state.is_null() {
            return false;
        }
        let n = s.creatures.len();
        m.state = s;
        m.generation += 1;
        m.n = n;
        m.sights.clear();
        m.sights.resize(n * n, None);
        true
    });
    SightMemo { outer, _state: std::marker::PhantomData }
}

impl Drop for SightMemo<'_> {
    fn drop(&mut self) {
        if self.outer {
            SIGHTS.with(|m| {
                if let Ok(mut m) = m.try_borrow_mut() {
                    m.state = std::ptr::null();
                }
            });
        }
    }
}

/// Whether `h` is hidden from the enemy `x` now (DS-HIDE-3, DS-DELTA-8): glossary, a hidden
/// creature is hidden from every enemy; published, from each enemy it hid from, not from
/// those that still saw it.
pub fn hidden_from(s: &State, h: Cx, x: Cx) -> bool {
    s.hidden_from(h, x)
}

/// Whether `x` can't single `h` out with an ability (DS-HIDE-3, DS-DELTA-8: only area
/// abilities reach a hidden creature). Glossary: the shelter lasts until the end of the turn in
/// which `h` gave itself away; published: it ends as soon as `h` is no longer hidden from `x`.
pub fn sheltered_from(s: &State, h: Cx, x: Cx) -> bool {
    match s.options.hidden {
        Text::Glossary => (s.c(h).hidden || s.c(h).revealing) && s.enemies(h, x),
        Text::Published => hidden_from(s, h, x),
    }
}

/// Whether hiding gives `h`'s ability roll against `t` an edge (DS-HIDE-3, DS-DELTA-8): while
/// hidden, and until the end of the turn in which it stops being hidden. Glossary: against
/// anyone; published: only against the enemies it is (or was) hidden from.
pub fn hiding_edge(s: &State, h: Cx, t: Cx) -> bool {
    let c = s.c(h);
    (c.hidden || c.revealing)
        && match s.options.hidden {
            Text::Glossary => true,
            Text::Published => s.enemies(h, t) && !c.seen_by.contains(&t),
        }
}

/// The enemies `c` has cover or concealment from, who can't see it clearly: those it can hide
/// from (DS-HIDE-1, DS-DELTA-8).
pub fn unobserved_by(s: &State, c: Cx) -> Vec<Cx> {
    let concealed = concealed(s, c);
    s.active().filter(|&e| s.enemies(c, e) && (concealed || !clear_line_of_effect(s, e, c))).collect()
}

/// Cover (DS-GAP-6): at least half the target hidden behind something solid.
pub fn has_cover(s: &State, a: Cx, b: Cx) -> bool {
    line_of_effect(s, a, b) == Sight::Cover
}

/// Starts an ability.
/// `area` is the squares of a cube or line placed by a square (empty otherwise), for the
/// objects inside it (DS-GAP-20).
pub fn begin(
    cx: &mut Ctx,
    user: Cx,
    ability: Arc<AbilityDef>,
    targets: Vec<Cx>,
    area: Vec<fray_core::grid::Pos>,
    main_action: bool,
) {
    cx.emit(Event::AbilityUsed {
        creature: cx.s.who(user),
        ability: ability.name.clone(),
        targets: targets.iter().map(|&t| cx.s.who(t)).collect(),
    });
    cx.push(Frame::Ability(Box::new(AbilityFrame {
        user,
        ability,
        targets,
        area,
        rolled: None,
        tiers: vec![],
        asking_surges: false,
        surges: 0,
        main_action,
        asking_potency: false,
        potency_asked: false,
        potency_up: vec![],
        asking_tier: false,
    })));
}

/// Advances an ability.
pub fn step(cx: &mut Ctx, mut a: Box<AbilityFrame>) -> Result<Flow, RuleError> {
    if a.asking_surges || a.asking_potency || a.asking_tier {
        cx.push(Frame::Ability(a));
        return Ok(Flow::Wait);
    }

    if !a.ability.roll.is_empty() && a.rolled.is_none() {
        let user = cx.s.c(a.user);
        let bonus = a.ability.roll.iter().map(|&c| user.char(c)).max().unwrap_or(0);
        // DS-GAP-19: a squad makes one roll for its minions' signature ability each turn.
        let squad = squad_signature(cx.s, a.user, &a.ability, a.main_action);
        let round = cx.s.round;
        let shared = squad.and_then(|q| {
            let sq = &cx.s.squads[q];
            let fresh = sq.rolled_for.contains(&a.user); // its second use, on an extra action
            sq.roll.as_ref().filter(|(r, id, _)| *r == round && **id == *a.ability.id && !fresh).map(|p| p.2)
        });
        let r = match (shared, squad) {
            (Some(r), _) => {
                cx.emit(Event::Note {
                    text: format!("{} uses its squad's roll: {} in all", cx.s.c(a.user).id, r.natural + r.bonus),
                });
                r
            }
            (None, Some(q)) => {
                let r = crate::rolls::roll(cx, a.user, bonus)?;
                let ability = a.ability.id.clone();
                cx.emit(Event::SquadRoll { squad: q, ability, dice: r.dice, bonus: r.bonus });
                r
            }
            (None, None) => crate::rolls::roll(cx, a.user, bonus)?,
        };
        for &t in &a.targets {
            let m = mods(cx.s, a.user, t, &a.ability, &a.targets);
            let tier = r.tier(&m);
            cx.emit(Event::Tier {
                target: cx.s.who(t),
                tier,
                why: if cx.keeps() { m.describe() } else { String::new() },
            });
            a.tiers.push(tier);
            spend_aid(cx, a.user, t);
        }
        a.rolled = Some(r);
        let hero = cx.s.c(a.user).hero;
        // DS-GAP-1: any power roll may be taken at a lower tier; with the table option on, the
        // roller is asked once the roll is made, before surges.
        if cx.s.options.offer_lower_tier && a.tiers.iter().any(|&t| t > 0) {
            a.asking_tier = true;
            cx.push(Frame::Ability(a));
            return Ok(Flow::Wait);
        }
        if hero && cx.s.c(a.user).surges > 0 && a.ability.deals_damage() && !a.targets.is_empty() {
            a.asking_surges = true;
            cx.push(Frame::Ability(a));
            return Ok(Flow::Wait);
        }
    }
    // DS-SURGE-2: two surges raise the potency against one target by 1.
    if a.rolled.is_some()
        && !a.potency_asked
        && cx.s.c(a.user).hero
        && cx.s.c(a.user).surges >= 2
        && !potency_targets(&a).is_empty()
    {
        a.asking_potency = true;
        cx.push(Frame::Ability(a));
        return Ok(Flow::Wait);
    }
    resolve(cx, *a)?;
    Ok(Flow::Continue)
}

/// DS-GAP-19: the squad whose one roll `user`'s ability shares, if it is a minion's signature
/// ability (in Fray: a squad minion's strike with a power roll used as its main action).
pub fn squad_signature(s: &State, user: Cx, a: &AbilityDef, main_action: bool) -> Option<usize> {
    let q = s.squad_of(user)?;
    (main_action && a.usage == crate::model::Usage::Main && a.is_strike() && !a.roll.is_empty()).then_some(q)
}

/// Targets whose tier carries a potency effect.
fn potency_targets(a: &AbilityFrame) -> Vec<Cx> {
    a.targets
        .iter()
        .enumerate()
        .filter(|(i, _)| a.ability.tier(a.tiers[*i]).effects.iter().any(|e| e.potency.is_some()))
        .map(|(_, &t)| t)
        .collect()
}

/// Damage to every target, then effects (DS-ROLL-4), then the crit's extra action.
fn resolve(cx: &mut Ctx, a: AbilityFrame) -> Result<(), RuleError> {
    let base = cx.s.flow.len();
    let user = a.user;
    // DS-SLAM-3: a target this ability kills is still force-moved by it; its body stays on the
    // map until that movement is over.
    if moves_targets(&a.ability) {
        cx.push(Frame::Bodies { cs: a.targets.clone() });
    }
    let bonus = a.rolled.map(|r| r.bonus).unwrap_or(0);
    // DS-GAP-5: what took hold, to refund an ability whose only effect every target resisted.
    let mut landed = false;
    // DS-GAP-19: targets a squadmate's share of the squad's roll already struck this turn.
    let mut joined: Vec<Cx> = Vec::new();
    if a.rolled.is_some() {
        // DS-GAP-17: Malicious Strike's extra damage goes to the first target the strike
        // damages (docs/rulings/drawsteel.md "Malice").
        let mut malicious = if a.ability.is_strike() { cx.s.c(user).malicious } else { 0 };
        // DS-GAP-19: a minion's "With Captain" damage, on each target of its strikes.
        let captain = if a.ability.is_strike() { cx.s.captain_bonus(user).map_or(0, |w| w.damage) } else { 0 };
        let area = a.ability.distance.is_area().then(|| a.targets.clone());
        let squad = squad_signature(cx.s, user, &a.ability, a.main_action);
        for (i, &t) in a.targets.iter().enumerate() {
            // DS-GAP-19: a creature the squad's roll has already struck takes this ability once;
            // a second and a third minion striking it add their free strike values instead.
            if let Some(q) = squad {
                let n = cx.s.squads[q].struck(t);
                let (target, by) = (cx.s.who(t), cx.s.who(user));
                cx.emit(Event::SquadStruck { squad: q, target, minions: n.saturating_add(1), by });
                if n > 0 {
                    joined.push(t);
                    let extra = cx.s.c(user).free_strike.unwrap_or(0) + captain;
                    if n >= 3 {
                        let text = format!(
                            "at most three of a squad's minions strike one creature together: {} adds nothing",
                            cx.s.c(user).id
                        );
                        cx.emit(Event::Note { text });
                    } else if extra > 0 && a.ability.tier(a.tiers[i]).damage > 0 {
                        landed = true;
                        let kind = a.ability.tier(a.tiers[i]).damage_type.as_deref();
                        let hit = crate::damage::Hit { kind, area: None, targets: &[], unreduced: false };
                        crate::damage::deal_in(
                            cx,
                            t,
                            extra,
                            Some(user),
                            "another minion joins the squad's strike",
                            hit,
                        );
                    }
                    continue;
                }
            }
            let tier = a.ability.tier(a.tiers[i]);
            let mut dmg = tier.damage + if tier.plus_characteristic && tier.damage > 0 { bonus } else { 0 };
            if i == 0 && a.surges > 0 && dmg > 0 {
                dmg += a.surges * cx.s.c(user).highest(); // DS-SURGE-1
                crate::heroic::surged(cx, user); // DS-GAP-15: the shadow's insight
            }
            if malicious > 0 && dmg > 0 {
                dmg += malicious;
                malicious = 0;
                malicious_used(cx, user);
            }
            if dmg > 0 {
                dmg += captain;
                landed = true;
            }
            let hit = crate::damage::Hit {
                kind: tier.damage_type.as_deref(),
                area: area.as_deref(),
                targets: &a.targets,
                unreduced: false,
            };
            crate::damage::deal_in(cx, t, dmg, Some(user), &a.ability.name, hit);
        }
        // DS-GAP-20: objects in the area take the damage too, when the ability names them.
        if a.ability.objects
            && let Some(r) = a.rolled
        {
            crate::objects::hit_in_area(cx, user, &a.ability, &a.area, r.tier(&Mods::default()), bonus);
        }
    }
    // DS-GAP-17: Brutal Effectiveness raises the potency of the next ability that has one,
    // against every target.
    let brutal = cx.s.c(user).brutal && has_potency(&a.ability);
    if brutal {
        cx.emit(Event::MaliceUsed { creature: cx.s.who(user), feature: "brutal-effectiveness".into() });
    }
    // Pushes, pulls and slides wait until every effect is applied; the user then orders them
    // (DS-GAP-10).
    let mut moves = Vec::new();
    if a.rolled.is_some() {
        for (i, &t) in a.targets.iter().enumerate() {
            if joined.contains(&t) {
                continue;
            }
            let effects = a.ability.tier(a.tiers[i]).effects.clone();
            let boost = i32::from(a.potency_up.contains(&t)) + i32::from(brutal);
            for e in &effects {
                landed |= apply_effect_boosted(cx, user, t, e, &a.ability, boost, &mut moves);
            }
        }
    }
    for &t in a.targets.iter().filter(|t| !joined.contains(t)) {
        for e in a.ability.effect.clone().iter() {
            landed |= apply_effect_boosted(cx, user, t, e, &a.ability, 0, &mut moves);
        }
    }
    // DS-GAP-5: an ability whose only effect is a potency effect that every target resisted
    // costs nothing: its Heroic Resource comes back.
    let potency_only = a.rolled.is_some()
        && a.ability.effect.iter().all(|e| e.potency.is_some())
        && a.tiers.iter().all(|&t| {
            let tier = a.ability.tier(t);
            tier.damage == 0 && !tier.effects.is_empty() && tier.effects.iter().all(|e| e.potency.is_some())
        });
    if let Some(n) = a.ability.cost
        && potency_only
        && !landed
        && !a.targets.is_empty()
    {
        let total = cx.s.c(user).resource + n;
        let why = format!("{n} back: every target resisted {}", a.ability.name);
        cx.emit(Event::Resource { creature: cx.s.who(user), total, why, damaged: false, winded: false, second: false });
    }
    crate::forced::queue(cx, moves);
    // DS-AREA-5: a wall ability raises its squares now.
    if let Distance::Wall { size, within } = a.ability.distance {
        cx.s.flow.insert(base, Frame::Wall { c: user, left: size, within, placed: Vec::new() });
    }
    // DS-HIDE-4: using an ability reveals the user once it has resolved.
    reveal(cx, user);
    // DS-COND-BLEED: a main action; otherwise a Might or Agility roll.
    let physical = a.ability.roll.iter().any(|c| matches!(c, Characteristic::Might | Characteristic::Agility));
    let deed = if a.main_action {
        crate::damage::Deed::Main
    } else if physical && a.rolled.is_some() {
        crate::damage::Deed::MightOrAgility
    } else {
        crate::damage::Deed::Maneuver
    };
    crate::damage::bleed(cx, user, deed)?;
    // DS-CRIT-1, DS-DELTA-2: a natural 19-20 grants an extra action, taken at once.
    if let Some(r) = a.rolled {
        let counts = match cx.s.options.critical {
            Text::Published => a.main_action,
            Text::Glossary => a.ability.is_strike() || a.main_action,
        };
        if r.natural_crit() && counts && cx.s.c(user).active() {
            cx.emit(Event::ExtraAction { creature: cx.s.who(user) });
            cx.s.flow.insert(base, Frame::Extra { c: user });
        }
    }
    Ok(())
}

/// Whether any of an ability's tiers has a potency effect.
fn has_potency(a: &AbilityDef) -> bool {
    [&a.tier1, &a.tier2, &a.tier3]
        .iter()
        .flat_map(|t| t.effects.iter())
        .chain(a.effect.iter())
        .any(|e| e.potency.is_some())
}

/// Malicious Strike's extra damage has been dealt (DS-GAP-17).
fn malicious_used(cx: &mut Ctx, user: Cx) {
    cx.emit(Event::MaliceUsed { creature: cx.s.who(user), feature: "malicious-strike".into() });
}

/// Whether any of an ability's effects pushes, pulls or slides.
fn moves_targets(a: &AbilityDef) -> bool {
    [&a.tier1, &a.tier2, &a.tier3]
        .iter()
        .flat_map(|t| t.effects.iter())
        .chain(a.effect.iter())
        .any(|e| e.push.is_some() || e.pull.is_some() || e.slide.is_some())
}

/// DS-HIDE-3, DS-HIDE-4: acting gives a hidden creature away, but its benefits last until the
/// end of the turn in which that happens.
pub fn reveal(cx: &mut Ctx, c: Cx) {
    if cx.s.c(c).hidden {
        cx.emit(Event::Revealing { creature: cx.s.who(c) });
    }
}

/// Applies one effect: potency first (DS-GAP-5), then conditions, Stamina; a push, pull or
/// slide is added to `moves`, to start once every effect is applied.
pub fn apply_effect(cx: &mut Ctx, user: Cx, t: Cx, e: &EffectDef, ability: &AbilityDef, moves: &mut Vec<ForcedFrame>) {
    apply_effect_boosted(cx, user, t, e, ability, 0, moves);
}

/// Applies one effect with the potency raised by `boost` (surges, DS-SURGE-2). Returns whether
/// it took hold (not resisted, the target still there).
pub fn apply_effect_boosted(
    cx: &mut Ctx,
    user: Cx,
    t: Cx,
    e: &EffectDef,
    ability: &AbilityDef,
    boost: i32,
    moves: &mut Vec<ForcedFrame>,
) -> bool {
    // A target the ability killed is only force-moved, its body still on the map (DS-SLAM-3).
    let body = cx.s.c(t).dead && cx.s.c(t).pos.is_some();
    if !cx.s.c(t).active() && !body {
        return false;
    }
    if let Some((ch, v)) = e.potency.as_deref().and_then(parse_potency).map(|(ch, v)| (ch, v + boost)) {
        let score = cx.s.c(t).char(ch);
        if score >= v {
            cx.emit(Event::Note {
                text: format!("{} resists ({} {score} is not below {v})", cx.s.c(t).id, ch.letter()),
            });
            return false;
        }
    }
    if body {
        force_move(cx, user, t, e, ability, moves);
        return true;
    }
    if let Some(name) = &e.condition {
        let kind = ConditionKind::parse(name).expect("checked on load");
        let until = match e.until.as_deref() {
            Some("save-ends") => Until::SaveEnds,
            Some("encounter") => Until::Encounter,
            _ => crate::conditions::eot(cx, t),
        };
        // Who gave it is kept for every condition: frightened, taunted and grabbed need it
        // (DS-COND-*), and the giver may end any of them as a free maneuver (DS-GAP-22).
        let source = Some(user);
        crate::conditions::give_condition(cx, t, kind, source, until);
    }
    if let Some(range) = e.teleport {
        cx.push(Frame::Teleport { by: user, target: t, range });
    }
    if let Some(n) = e.temporary_stamina {
        // DS-GAP-20: temporary Stamina does not stack; the higher pool wins. DS-GAP-19: minions
        // get none.
        if n > cx.s.c(t).temp_stamina && !cx.s.c(t).minion {
            cx.emit(Event::TempStamina { creature: cx.s.who(t), value: n });
        }
    }
    if let Some(n) = e.heal {
        crate::damage::heal(cx, t, n, "ability");
    }
    if e.recovery {
        let x = cx.s.c(t);
        if !x.hero {
            // DS-GAP-20: a Director creature has no Recoveries; told to spend one, it regains
            // a third of its maximum Stamina.
            let v = x.recovery_value();
            crate::damage::heal(cx, t, v, "a Recovery's worth");
        } else if x.recoveries > 0 {
            crate::damage::spend_recovery(cx, t, "ability");
        } else {
            cx.emit(Event::Note { text: format!("{} has no Recoveries left to spend", x.id) });
        }
    }
    if e.judge {
        // DS-GAP-15: the censor's Judgment; a new one ends its last, and ends another's.
        cx.emit(Event::Judged { by: cx.s.who(user), target: cx.s.who(t) });
    }
    if e.mark {
        // DS-GAP-15: the tactician's Mark, likewise.
        cx.emit(Event::Marked { by: cx.s.who(user), target: cx.s.who(t) });
    }
    force_move(cx, user, t, e, ability, moves);
    true
}

/// An effect's push, pull or slide.
fn force_move(cx: &mut Ctx, user: Cx, t: Cx, e: &EffectDef, ability: &AbilityDef, moves: &mut Vec<ForcedFrame>) {
    // DS-GAP-10: a bigger creature moving a smaller one with a melee weapon ability moves it 1
    // square farther.
    let bigger = cx.s.c(user).size.rank() > cx.s.c(t).size.rank();
    let bonus = i32::from(bigger && ability.is_melee() && ability.has("weapon"));
    for (n, kind) in [
        (e.push, fray_core::engine::Forced::Push),
        (e.pull, fray_core::engine::Forced::Pull),
        (e.slide, fray_core::engine::Forced::Slide),
    ] {
        if let Some(n) = n {
            moves.extend(crate::forced::prepare(cx, user, t, kind, n + bonus, e.vertical));
        }
    }
}

/// The decision an ability waits on.
pub fn question(s: &State, a: &AbilityFrame) -> Option<(Cx, &'static str, String, Vec<DecisionOption>)> {
    if a.asking_tier {
        let top = a.tiers.iter().copied().max().unwrap_or(0);
        let mut options = vec![DecisionOption::new("keep", format!("keep the roll (tier {} at best)", top + 1))];
        for t in 1..=top {
            options.push(DecisionOption::new(
                format!("tier-{t}"),
                format!("take tier {t}: no target gets more than tier {t}"),
            ));
        }
        let prompt = format!("{}: {} — keep the tier rolled, or take a lower one?", s.c(a.user).id, a.ability.name);
        return Some((a.user, "lower-tier", prompt, options));
    }
    if a.asking_potency {
        let mut options: Vec<DecisionOption> = potency_targets(a)
            .into_iter()
            .map(|t| {
                DecisionOption::new(s.c(t).id.to_string(), format!("spend 2 surges: potency +1 against {}", s.c(t).id))
            })
            .collect();
        options.push(DecisionOption::new("none", "keep the surges"));
        return Some((a.user, "surge-potency", format!("{}: raise a potency with 2 surges?", s.c(a.user).id), options));
    }
    if !a.asking_surges {
        return None;
    }
    let have = s.c(a.user).surges.min(3);
    let per = s.c(a.user).highest();
    let options = (0..=have)
        .map(|n| {
            DecisionOption::new(n.to_string(), format!("spend {n}: +{} damage to {}", n * per, s.c(a.targets[0]).id))
        })
        .collect();
    Some((a.user, "surges", format!("{}: spend surges on {}?", s.c(a.user).id, s.c(a.targets[0]).id), options))
}

/// The option ids [`question`] offers, in its order, each handed to `put` with its place: no
/// labels or prompt worded.
pub fn question_ids(s: &State, a: &AbilityFrame, mut put: impl FnMut(&str, usize)) {
    const TIERS: [&str; 3] = ["tier-1", "tier-2", "tier-3"];
    const COUNTS: [&str; 4] = ["0", "1", "2", "3"];
    let mut n = 0;
    let mut one = |id: &str| {
        put(id, n);
        n += 1;
    };
    if a.asking_tier {
        one("keep");
        for t in 1..=a.tiers.iter().copied().max().unwrap_or(0) {
            match TIERS.get(t - 1) {
                Some(id) => one(id),
                None => one(&format!("tier-{t}")),
            }
        }
    } else if a.asking_potency {
        for t in potency_targets(a) {
            one(&s.c(t).id);
        }
        one("none");
    } else if a.asking_surges {
        for k in 0..=s.c(a.user).surges.min(3) {
            match usize::try_from(k).ok().and_then(|k| COUNTS.get(k)) {
                Some(id) => one(id),
                None => one(&k.to_string()),
            }
        }
    }
}

/// Answers the ability's pending decision: the tier, the surges, the potency surge.
pub fn answer(cx: &mut Ctx, mut a: Box<AbilityFrame>, option: &str) -> Result<(), RuleError> {
    if a.asking_tier {
        // DS-GAP-1: the roller takes a lower tier against every target; a natural 19-20 still
        // grants its extra action (resolve reads the dice, not the tier).
        let cap = match option {
            "keep" => None,
            _ => Some(
                option
                    .strip_prefix("tier-")
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| RuleError::malformed("answer keep or tier-N"))?
                    - 1,
            ),
        };
        a.asking_tier = false;
        if let Some(cap) = cap {
            cx.emit(Event::Note {
                text: format!("{} takes tier {} for {}", cx.s.c(a.user).id, cap + 1, a.ability.name),
            });
            for i in 0..a.targets.len() {
                if a.tiers[i] > cap {
                    a.tiers[i] = cap;
                    cx.emit(Event::Tier { target: cx.s.who(a.targets[i]), tier: cap, why: "taken lower".into() });
                }
            }
        }
        // The surges come next, as they would straight after the roll.
        let hero = cx.s.c(a.user).hero;
        if hero && cx.s.c(a.user).surges > 0 && a.ability.deals_damage() && !a.targets.is_empty() {
            a.asking_surges = true;
        }
        cx.push(Frame::Ability(a));
        return Ok(());
    }
    if a.asking_potency {
        a.asking_potency = false;
        a.potency_asked = true;
        if option != "none" {
            let t = cx.s.find(option).ok_or_else(|| RuleError::malformed(format!("no creature {option:?}")))?;
            a.potency_up.push(t);
            let total = cx.s.c(a.user).surges - 2;
            cx.emit(Event::Surges {
                creature: cx.s.who(a.user),
                total,
                why: format!("spent 2 to raise the potency against {}", cx.s.c(t).id),
            });
        }
        cx.push(Frame::Ability(a));
        return Ok(());
    }
    let n: i32 = option.parse().map_err(|_| RuleError::malformed("answer with a number of surges"))?;
    a.asking_surges = false;
    a.surges = n;
    if n > 0 {
        let total = cx.s.c(a.user).surges - n;
        cx.emit(Event::Surges { creature: cx.s.who(a.user), total, why: format!("spent {n}") });
    }
    cx.push(Frame::Ability(a));
    Ok(())
}

/// Aid Attack's edge is used by the first ally's roll against the aided creature.
fn spend_aid(cx: &mut Ctx, user: Cx, target: Cx) {
    if cx.s.c(target).aided_by.is_some_and(|a| a != user && !cx.s.enemies(a, user)) {
        cx.emit(Event::Aid { target: cx.s.who(target), by: None });
    }
}

/// An opportunity attack (DS-OA-1): a melee free strike resolved at once, as an interrupt,
/// before the mover leaves its square. A hero's roll is made and applied on the spot (no
/// surges are offered for it; see rulings).
pub fn opportunity_attack(cx: &mut Ctx, user: Cx, target: Cx) -> Result<(), RuleError> {
    if cx.s.c(user).free_strike.is_some() {
        return free_strike(cx, user, target, false);
    }
    let a = Arc::new(hero_free_strike(false));
    cx.emit(Event::AbilityUsed { creature: cx.s.who(user), ability: a.name.clone(), targets: vec![cx.s.who(target)] });
    let bonus = a.roll.iter().map(|&c| cx.s.c(user).char(c)).max().unwrap_or(0);
    let r = crate::rolls::roll(cx, user, bonus)?;
    let m = mods(cx.s, user, target, &a, &[target]);
    let tier = r.tier(&m);
    cx.emit(Event::Tier { target: cx.s.who(target), tier, why: if cx.keeps() { m.describe() } else { String::new() } });
    spend_aid(cx, user, target);
    let frame = AbilityFrame {
        user,
        ability: a,
        targets: vec![target],
        area: Vec::new(),
        rolled: Some(r),
        tiers: vec![tier],
        asking_surges: false,
        surges: 0,
        main_action: false,
        asking_potency: false,
        potency_asked: true,
        potency_up: vec![],
        asking_tier: false,
    };
    resolve(cx, frame)
}

/// A free strike (DS-FS-1, DS-GAP-13): heroes roll the standard strike; Director creatures deal
/// their flat free strike damage without rolling.
pub fn free_strike(cx: &mut Ctx, user: Cx, target: Cx, main_action: bool) -> Result<(), RuleError> {
    match cx.s.c(user).free_strike {
        Some(d) => {
            cx.emit(Event::AbilityUsed {
                creature: cx.s.who(user),
                ability: "Free Strike".into(),
                targets: vec![cx.s.who(target)],
            });
            // DS-GAP-17: a free strike is a strike, so Malicious Strike adds to it.
            let malicious = cx.s.c(user).malicious;
            if malicious > 0 && d > 0 {
                malicious_used(cx, user);
            }
            let captain = cx.s.captain_bonus(user).map_or(0, |w| w.damage);
            let d = if d > 0 { d + malicious + captain } else { d };
            crate::damage::deal(cx, target, d, Some(user), "free strike");
            reveal(cx, user);
            let deed = if main_action { crate::damage::Deed::Main } else { crate::damage::Deed::Triggered };
            crate::damage::bleed(cx, user, deed)
        }
        None => {
            let ranged = cx.s.distance(user, target).is_some_and(|d| d > 1);
            begin(cx, user, Arc::new(hero_free_strike(ranged)), vec![target], Vec::new(), main_action);
            Ok(())
        }
    }
}
