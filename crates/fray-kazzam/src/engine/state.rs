//! The match state. Architecture invariant: only [`crate::engine::events`]'s `apply` changes the
//! game-visible fields (hit points, squares, statuses, orbs, scores, tokens, actions); rule
//! code reads the state and emits events. The resolution stack (`flow`) is the engine's
//! own bookkeeping of half-resolved actions and is changed only by [`crate::engine::flow`].

use crate::content::powers::Powers;
use crate::engine::arena::{Arena, Side};
use crate::engine::frames::Frame;
use crate::engine::options::TableOptions;
use crate::engine::records::statuses::Status;
use fray_core::grid::Pos;
use fray_core::ruleset::Outcome;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub use crate::engine::ids::{OrbIdx, UnitIdx, UnitKind};
pub use crate::engine::records::implement::Implement;

/// Actions spent this turn (K-ACT-1, K-ACT-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actions {
    /// The Attack Action is spent (or traded for a Move Action).
    pub attack: bool,
    /// Move Actions spent (a second one is the traded Attack Action).
    pub moves: u8,
    /// The Role Action is spent.
    pub role: bool,
    /// Actions of any kind taken this turn (Dazed allows one, K-ST-Dazed).
    pub taken: u8,
    /// Free Actions taken this turn.
    pub free: u8,
    /// Squares it has moved itself this turn (walking, shifting, crawling, charging).
    pub moved: i32,
    /// Extra Move Actions gained this turn (Sleipnir Elixir), spent before the usual ones.
    pub bonus_moves: u8,
    /// Extra Attack Actions gained this turn (Lightning Elixir), spent after the usual one.
    pub bonus_attacks: u8,
    /// Attack Actions do not end the turn this turn (Lightning Elixir).
    pub keep_turn: bool,
}

/// A rival team's trait (§5; played by `rules::team_traits`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TeamTrait {
    /// Driannis (L2751).
    TeamEffort,
    /// Bagwung (L3090).
    Agile,
    /// Kishanta (L3497).
    Untouchable,
    /// Mormissa (L3791).
    GetOutOfJailFree,
}

impl TeamTrait {
    /// Reads a trait's name (`team-effort`, `Team Effort`).
    pub fn parse(s: &str) -> Option<TeamTrait> {
        Some(match s.trim().to_lowercase().replace([' ', '_'], "-").as_str() {
            "team-effort" => TeamTrait::TeamEffort,
            "agile" => TeamTrait::Agile,
            "untouchable" => TeamTrait::Untouchable,
            "get-out-of-jail-free" => TeamTrait::GetOutOfJailFree,
            _ => return None,
        })
    }
    /// Its name as the book prints it.
    pub fn name(self) -> &'static str {
        match self {
            TeamTrait::TeamEffort => "Team Effort",
            TeamTrait::Agile => "Agile",
            TeamTrait::Untouchable => "Untouchable",
            TeamTrait::GetOutOfJailFree => "Get Out of Jail Free",
        }
    }
}

/// One unit on the field.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Id used in commands and views.
    pub id: Arc<str>,
    /// Role (K-CHAR-1), for its Role Boost (K-ROLL-5).
    pub role: Option<Arc<str>>,
    /// Role specialization (K-CHAR-2).
    pub specialization: Option<Arc<str>>,
    /// Level, 1-6 (K-PROG); 1 unless given.
    pub level: u8,
    /// Display name.
    pub name: Arc<str>,
    /// Side.
    pub side: Side,
    /// What it is.
    pub kind: UnitKind,
    /// Whether it is a player character: only PCs earn Miss Tokens (K-MISS-5) and tied PCs
    /// act after the opposition (K-INIT-2).
    pub pc: bool,
    /// Top-left square, or `None` while Taken Out (K-DUN-1).
    pub pos: Option<Pos>,
    /// Footprint size.
    pub size: i32,
    /// Hit points.
    pub hp: i32,
    /// Maximum hit points (falls by 1 when Taken Out in the Dungeon, K-DUN-5).
    pub max_hp: i32,
    /// Speed in squares (K-FMT-2).
    pub speed: i32,
    /// Implement.
    pub implement: Implement,
    /// Its advanced implement, if Fray plays it (K-AIMP).
    pub advanced: Option<crate::engine::records::advanced::Advanced>,
    /// Whether the implement is stowed (K-IMP-10).
    pub stowed: bool,
    /// Ward points (K-ST-Ward).
    pub ward: i32,
    /// Ward it started the match with, restored when Taken Out (K-DUN-3).
    pub start_ward: i32,
    /// It ended its last turn on the Throne and has not left it since (K-SCO-10).
    pub throne: bool,
    /// Its team's trait, for a rival team of §5 (rules/team_traits.rs).
    pub team_trait: Option<TeamTrait>,
    /// The part of `ward` that is a Wardmaster's Special Ward, lost first.
    pub special_ward: i32,
    /// The Wardmaster whose Special Ward it holds.
    pub special_from: Option<UnitIdx>,
    /// Statuses.
    pub statuses: Vec<Status>,
    /// A bit per kind in `statuses` ([`crate::rules::statuses::mask`]), kept with it wherever it
    /// changes: [`State::has`] reads it.
    pub status_mask: u32,
    /// Miss Tokens (K-MISS).
    pub miss_tokens: i32,
    /// Strikes taken (K-STK).
    pub strikes: i32,
    /// Opponents Taken Out (K-SCO-11).
    pub kills: i32,
    /// Orbs dunked (K-SCO-11).
    pub orbs_scored: i32,
    /// Points scored (K-SCO-11).
    pub points: i32,
    /// Powers it has.
    pub powers: Vec<u16>,
    /// Class features it has in force (K-CHAR-2), resolved at setup.
    pub features: Vec<crate::engine::records::features::Feature>,
    /// Blade Enchantments and Self-Charms learned, in force or not (Change Spell swaps them).
    pub learned: Vec<crate::engine::records::features::Feature>,
    /// Numbers its features keep (Whirling spent, Focus Tokens).
    pub counters: Vec<crate::engine::records::features::Counter>,
    /// Encounter powers spent.
    pub spent: Vec<u16>,
    /// Actions spent this turn.
    pub actions: Actions,
    /// Turns it has started this match.
    pub turns_started: u32,
    /// Initiative roll (K-INIT-1).
    pub initiative: i32,
    /// Whether it is Taken Out and waiting to start its next turn in the Dungeon (K-DUN-2).
    pub taken_out: bool,
    /// The exit whose button it hit, if it will leave the Dungeon next turn (K-DUN-7).
    pub button: Option<Pos>,
    /// Whether it held the Dungeon's neutral orb when it hit the button (K-DUN-9).
    pub button_with_orb: bool,
    /// Zones (bit per zone id) that already affected it this round (K-ZONE-2).
    pub zone_hits: u64,
    /// Enemies it hit with a wand implement attack this turn: they cannot take Opportunities
    /// against it until its turn ends (K-OPP-11).
    pub wand_hits: Vec<UnitIdx>,
    /// Creatures its attacks hit during its current turn (Rapid Fire).
    pub hits_this_turn: Vec<UnitIdx>,
    /// Reversal of Fortune is waiting for its next roll.
    pub reversal: bool,
    /// Forced to end its turn (staff or sword Attack Action, K-ACT-5).
    pub turn_over: bool,
    /// It is making an attack another creature granted it (K-ACT-4, K-ACT-8).
    pub granted_by: Option<UnitIdx>,
    /// The granted attack it is making gets no Role Boost ("with no Role Boost").
    pub grant_no_boost: bool,
    /// It has no Move Action on its next turn (Borrowed Time).
    pub forfeit_move: bool,
    /// It may spend a Move Action another creature's power gives it (Tactics).
    pub granted_move: bool,
    /// What a Frenzied or Panicked roll obliges it to do this turn.
    pub compulsion: Option<crate::engine::records::control::Compulsion>,
    /// Waiting powers armed until their duration runs out (Patient powers, Retribution).
    pub armed: Vec<crate::engine::records::triggers::Armed>,
    /// Its triggered class features (Revenge Fire, Defensive Fire, Reposition).
    pub triggered_features: Vec<Arc<str>>,
    /// Triggered features used and not ready again until the duration runs out.
    pub cooldowns: Vec<crate::engine::records::triggers::Cooldown>,
    /// For things put on the map by a power (summons, traps, automata, walls): who owns it
    /// and what it is ([`crate::rules::summons`]).
    pub placed: Option<crate::engine::records::summons::Placed>,
    /// What it carries of the Brewer's (Elixirs, a coated blade).
    pub brewer: crate::engine::records::brewer::Carried,
    /// What the Charmer's charms left on it (Luck Tokens, Enlarged).
    pub charmed: crate::engine::records::charmer::Charmed,
    /// The square its current (or last) turn began on (a Blitzer's Striker Condition).
    pub turn_start: Option<Pos>,
}

impl Unit {
    /// Whether it is on the map.
    pub fn on_map(&self) -> bool {
        self.pos.is_some()
    }
    /// Its implement range (K-IMP-2, K-IMP-5, K-IMP-7); reach for swords and the unarmed.
    pub fn implement_range(&self, reach: i32) -> i32 {
        match self.implement {
            Implement::Wand => 5,
            Implement::Staff => 6,
            Implement::Sword | Implement::None => reach,
        }
    }
}

/// Where an orb is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum OrbLoc {
    /// On a pedestal (index into the arena's pedestals).
    Pedestal {
        /// Which pedestal.
        pedestal: u8,
    },
    /// On the ground.
    Ground {
        /// Which square.
        at: Pos,
    },
    /// Carried.
    Held {
        /// By whom.
        by: UnitIdx,
    },
}

/// An orb (K-ORB).
#[derive(Clone, Debug)]
pub struct Orb {
    /// Id used in commands.
    pub id: Arc<str>,
    /// Its colour: a team's or neutral (K-ORB-11: dunked orbs take the dunker's colour).
    pub color: Side,
    /// Where it is.
    pub loc: OrbLoc,
    /// Whether it started in the Dungeon (K-DUN-9, K-DUN-12).
    pub dungeon_orb: bool,
}

/// The whole state of a Kazzam match: its facts ([`Facts`], read through `Deref`), which only
/// `events::apply` changes (issue 12: the compiler holds every other module to reading them), and
/// the resolution under way, which the rules drive: the frame stack and two re-entrancy marks.
#[derive(Clone, Debug)]
pub struct State {
    facts: Facts,
    /// Half-resolved actions, innermost last.
    pub flow: Vec<Frame>,
    /// Resolution bookkeeping: a curse's Effect is being applied (its damage sets off no curse).
    pub curse_firing: bool,
    /// Resolution bookkeeping for the Empath's copies ([`crate::classes::diviner::empathy`]).
    pub empathy: crate::engine::records::empathy::Empathy,
    /// Names these facts: see [`Stamp`].
    stamp: Stamp,
}

/// A name for a state's facts as they stand: a fresh one, never given before in this process,
/// whenever they may change ([`State::facts_mut`]), kept by clones (whose facts are the same).
/// Two states with one stamp have the same facts, so memos of what the facts alone decide may
/// be keyed by it (`rules::movement`'s walkers and route search).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Stamp(u64);

impl Stamp {
    fn fresh() -> Stamp {
        // A counter, not a cache: it holds no content or state, only how many stamps were given.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Stamp(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl std::fmt::Debug for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stamp") // the same for equal facts, whatever number they were given
    }
}

impl std::ops::Deref for State {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl State {
    /// A state at rest: these facts, nothing under way.
    pub fn new(facts: Facts) -> Self {
        State { facts, flow: Vec::new(), curse_firing: false, empathy: Default::default(), stamp: Stamp::fresh() }
    }
    /// The facts, to change: only `events::apply` holds the [`crate::engine::events::Key`]. The
    /// state takes a fresh [`Stamp`].
    pub fn facts_mut(&mut self, _: &crate::engine::events::Key) -> &mut Facts {
        self.stamp = Stamp::fresh();
        &mut self.facts
    }
    /// The name of the facts as they stand ([`Stamp`]).
    pub fn stamp(&self) -> Stamp {
        self.stamp
    }
}

/// What is true of a match between events: units, orbs, score, round and turn order, what powers
/// left behind. Everyone reads it; `events::apply` alone writes it.
#[derive(Clone, Debug)]
pub struct Facts {
    /// The field (shared; Change Terrain gives a state its own copy, `events::apply`).
    pub arena: Arc<Arena>,
    /// Every power in play (shared).
    pub powers: Arc<Powers>,
    /// Table options and rulings switches (shared).
    pub options: Arc<TableOptions>,
    /// The content the match was built from (shared): Creep stat blocks, feature ids and groups.
    pub content: Arc<crate::content::Content>,
    /// Units, each shared between clones until one changes it ([`State::unit_mut`]): a clone
    /// copies pointers, not records.
    pub units: Vec<Arc<Unit>>,
    /// Orbs.
    pub orbs: Vec<Orb>,
    /// Points, red then blue.
    pub score: [i32; 2],
    /// Current round, from 1.
    pub round: u32,
    /// Turn order for the round (K-INIT-1).
    pub order: Vec<UnitIdx>,
    /// Index into `order` of the unit whose turn it is.
    pub turn_index: usize,
    /// Curses left by powers, waiting for what sets them off.
    pub curses: Vec<crate::engine::records::curses::Curse>,
    /// Lingering attack modifiers left by powers (K-ADV).
    pub modifiers: Vec<crate::engine::records::modifiers::Modifier>,
    /// Zones left by powers (K-ZONE-1), oldest first.
    pub zones: Vec<crate::engine::records::zones::PowerZone>,
    /// A team reached the target score (K-END-1).
    pub end_triggered: bool,
    /// How the match ended.
    pub outcome: Option<Outcome>,
    /// The Porter's warps, floor traps and Bend Space marks ([`crate::classes::porter`]).
    pub porter: crate::engine::records::porter::Porter,
    /// Creep groups, their Enemies Lists and the Creep phase ([`crate::rules::creeps`]).
    pub creeps: crate::engine::records::creeps::Creeps,
    /// Creatures removed from existence ([`crate::classes::porter::removal`]).
    pub removal: crate::engine::records::removal::Removal,
    /// The hook table the match was set up with (`crate::engine::hooks::Table`: what classes,
    /// roles and implements add to the core rules), shared by every clone.
    pub hooks: HookTable,
}

/// The hook table, opaque here: the data layer does not name the rules' context, which the
/// table's functions take. `crate::engine::hooks::table` reads it. Tables live for the whole
/// program, one per set of classes (`crate::engine::plugins::table_for`), so a state holds a
/// plain reference: cloning a state or walking a table touches no reference count.
#[derive(Clone, Copy)]
pub struct HookTable(pub &'static (dyn std::any::Any + Send + Sync));

impl std::fmt::Debug for HookTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HookTable")
    }
}

impl Facts {
    /// The stat block of grouped Creep `u` (K-CTYPE), if it is one.
    pub fn creep_def(&self, u: UnitIdx) -> Option<&crate::content::creeps::CreepDef> {
        if self.unit(u).kind != UnitKind::Creep {
            return None;
        }
        let d = self.creeps.groups.iter().flat_map(|g| g.members.iter()).find(|m| m.0 == u)?.1;
        self.content.creeps().get(d as usize)
    }
    /// The unit at `u`.
    pub fn unit(&self, u: UnitIdx) -> &Unit {
        &self.units[u as usize]
    }
    /// The unit at `u`, to change (copied first if a clone shares it).
    pub fn unit_mut(&mut self, u: UnitIdx) -> &mut Unit {
        Arc::make_mut(&mut self.units[u as usize])
    }
    /// Finds a unit by id.
    pub fn find_unit(&self, id: &str) -> Option<UnitIdx> {
        self.units.iter().position(|u| &*u.id == id).map(|i| i as UnitIdx)
    }
    /// Finds an orb by id.
    pub fn find_orb(&self, id: &str) -> Option<OrbIdx> {
        self.orbs.iter().position(|o| &*o.id == id).map(|i| i as OrbIdx)
    }
    /// The unit whose turn it is.
    pub fn current(&self) -> Option<UnitIdx> {
        self.order.get(self.turn_index).copied()
    }
    /// Every unit index.
    pub fn unit_indices(&self) -> impl Iterator<Item = UnitIdx> + '_ {
        (0..self.units.len()).map(|i| i as UnitIdx)
    }
    /// Units on the map.
    pub fn units_on_map(&self) -> impl Iterator<Item = UnitIdx> + '_ {
        self.unit_indices().filter(|&u| self.unit(u).on_map())
    }
    /// Whether `a` treats `b` as an enemy: any creature of another side (K-CREAT-3 lets a
    /// player name others enemies; Fray asks only where a power lets you choose).
    pub fn enemies(&self, a: UnitIdx, b: UnitIdx) -> bool {
        a != b && self.unit(a).side != self.unit(b).side
    }
    /// Orbs carried by `u`.
    pub fn held_orbs(&self, u: UnitIdx) -> impl Iterator<Item = OrbIdx> + '_ {
        (0..self.orbs.len() as OrbIdx).filter(move |&o| self.orbs[o as usize].loc == OrbLoc::Held { by: u })
    }
    /// Distance between two units on the map.
    pub fn distance(&self, a: UnitIdx, b: UnitIdx) -> Option<i32> {
        let (ua, ub) = (self.unit(a), self.unit(b));
        Some(fray_core::geometry::distance(ua.pos?, ua.size, ub.pos?, ub.size))
    }
}
