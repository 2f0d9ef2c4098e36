//! The journal: every change to a match is an [`Event`], and [`apply`] is the only code that
//! changes the game-visible state. Events read as sentences (`Display`) for the log, and
//! serialize for the browser and saved journals.

use crate::engine::arena::Side;
pub use crate::engine::frames::rules::How;
pub use crate::engine::frames::rules::RollMode;
use crate::engine::records::statuses::{Status, StatusKind};
use crate::engine::state::{Facts, OrbIdx, OrbLoc, State, UnitIdx};
use fray_core::grid::Pos;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A unit named in an event: the kit's, indexed by [`UnitIdx`].
pub type Who = fray_core::engine::Who<UnitIdx>;

impl State {
    /// The [`Who`] for unit `u`.
    pub fn who(&self, u: UnitIdx) -> Who {
        Who { idx: u, id: self.unit(u).id.clone() }
    }
}

/// An action slot (K-ACT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// The Attack Action.
    Attack,
    /// A Move Action (the second one is the traded Attack Action, K-ACT-2).
    Move,
    /// The Role Action.
    Role,
}

/// How an attack roll came out (K-ROLL-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hit {
    /// 6: Effect and twice the damage line.
    Critical,
    /// 4-5: damage and Effect.
    Solid,
    /// 3: damage or Effect.
    Glancing,
    /// 1-2.
    Miss,
}

impl Hit {
    /// The result a final roll reads as.
    pub fn from_roll(r: i32) -> Hit {
        match r {
            6.. => Hit::Critical,
            4 | 5 => Hit::Solid,
            3 => Hit::Glancing,
            _ => Hit::Miss,
        }
    }
}

/// Everything that can happen in a match. (Fields are named for what they hold; each variant's
/// comment says what it records.)
#[allow(missing_docs)]
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A round began.
    RoundStarted { round: u32 },
    /// A unit rolled initiative (K-INIT-1).
    InitiativeRolled { unit: Who, roll: i32 },
    /// The turn order was set (K-INIT-1, K-INIT-2).
    TurnOrder { order: Vec<Who> },
    /// A unit's turn began (Start Phase, K-TURN-1).
    TurnStarted { unit: Who, turn: u32 },
    /// A unit's turn ended.
    TurnEnded { unit: Who },
    /// An action was spent.
    ActionSpent { unit: Who, slot: Slot },
    /// A Free Action or power was used without spending an action slot.
    FreeAction { unit: Who, what: String },
    /// A power was used.
    PowerUsed { unit: Who, power: String, targets: Vec<Who> },
    /// An Encounter power was spent (K-ACT-9).
    EncounterSpent { unit: Who, power: u16, name: String },
    /// A spent Encounter power was recharged (K-ACT-13, K-DUN-3).
    EncounterRecharged { unit: Who, power: u16, name: String },
    /// A unit changed squares.
    Moved { unit: Who, from: Pos, to: Pos, how: How },
    /// A unit was put on the map (leaving the Dungeon, respawning).
    Placed { unit: Who, at: Pos, why: String },
    /// A unit was taken off the map (K-DUN-1).
    Removed { unit: Who },
    /// An attack die was rolled.
    AttackRolled { attacker: Who, target: Who, dice: Vec<i32>, natural: i32, mode: RollMode },
    /// Miss Tokens were spent on a roll (K-MISS-2, K-MISS-3).
    TokensSpent { unit: Who, count: i32, roll: i32, left: i32 },
    /// Fierce or Guarded changed a roll (K-ROLL-6).
    RollAdjusted { target: Who, from: i32, to: i32, why: String },
    /// The attack's result.
    AttackResult { attacker: Who, target: Who, roll: i32, hit: Hit },
    /// On a Glancing Hit the attacker chose damage or the Effect (K-ROLL-1).
    GlancingChoice { attacker: Who, choice: String },
    /// Damage was dealt.
    Damaged { unit: Who, amount: i32, ward_lost: i32, hp: i32, source: Option<Who>, why: String },
    /// HP was regained.
    Healed { unit: Who, amount: i32, hp: i32, why: String },
    /// A Ward changed (K-ST-Ward).
    WardSet { unit: Who, ward: i32, why: String },
    /// A learned feature went in force in place of another (Change Spell; `out` may be empty).
    FeatureSwapped { unit: Who, out: String, into: String },
    /// A feature's counter changed (Whirling spent or ready, Focus Tokens).
    FeatureCounter { unit: Who, feature: String, value: i32, about: Option<Who> },
    /// A Wardmaster gave Special Ward, which sits on top of the unit's other Ward.
    SpecialWard { unit: Who, from: Who, amount: i32 },
    /// A status began.
    StatusGained { unit: Who, status: Status, label: String },
    /// A status ended.
    StatusEnded { unit: Who, status: Status, why: String },
    /// A Miss Token was gained (K-MISS-1).
    MissToken { unit: Who, total: i32 },
    /// A Strike was taken (K-STK).
    Strike { unit: Who, total: i32, why: String },
    /// An Opportunity was taken (K-OPP-3).
    Opportunity { by: Who, against: Who, why: String },
    /// A unit was Taken Out (K-DUN-1).
    TakenOut { unit: Who, by: Option<Who>, in_dungeon: bool },
    /// A creature now carries an Elixir (brews.rs).
    ElixirGained { unit: Who, elixir: crate::engine::records::brewer::Elixir, name: String, why: String },
    /// A creature no longer carries one of its Elixirs.
    ElixirLost { unit: Who, index: usize, name: String, why: String },
    /// A creature's Luck Tokens changed (Luck Charm).
    LuckTokens { unit: Who, total: i32, why: String },
    /// The Potions on a creature's blade are now these (Potent Edge).
    Blade { unit: Who, potions: Vec<u16>, names: Vec<String> },
    /// A creature gains an extra Move Action this turn (Sleipnir Elixir).
    BonusMove { unit: Who },
    /// A creature gains an extra Attack Action this turn, and its Attack Actions no longer end
    /// the turn (Lightning Elixir).
    BonusAttack { unit: Who },
    /// A Taken Out unit's maximum HP and HP were set (K-DUN-4, K-DUN-5).
    Restored { unit: Who, max_hp: i32, hp: i32 },
    /// A team scored (K-SCO).
    Scored { side: Side, points: i32, by: Option<Who>, why: String },
    /// An orb moved.
    OrbMoved { orb: String, idx: OrbIdx, to: OrbLoc, why: String },
    /// A dunked orb took its new team's colour (K-ORB-11, K-SCO-4).
    OrbRecoloured { orb: String, idx: OrbIdx, color: Side },
    /// A unit hit a Dungeon exit's button (K-DUN-6).
    ButtonHit { unit: Who, exit: Pos, with_orb: bool },
    /// A pressed button was cancelled or used (K-DUN-7, K-DUN-8).
    ButtonCleared { unit: Who },
    /// A unit ended its turn on the Throne (`held`), or its sitting there was used (K-SCO-10).
    Throne { unit: Who, held: bool },
    /// A saving throw (K-SAVE-1).
    Save { unit: Who, what: String, roll: i32, success: bool },
    /// The implement was stowed or taken back (K-IMP-10).
    Stowed { unit: Who, stowed: bool },
    /// The unit's turn must end once this action resolves (K-ACT-5).
    TurnCutShort { unit: Who, why: String },
    /// A zone or damaging terrain affected a unit this round (K-ZONE-2).
    ZoneHit { unit: Who, zone: u32 },
    /// A power left a zone on the map (K-ZONE-1).
    ZoneCreated { owner: Who, name: String, zone: crate::engine::records::zones::PowerZone },
    /// A power's zone ended.
    ZoneEnded { bit: u32, name: String },
    /// A zone that travels with its owner moved (Salamander Elixir).
    ZoneMoved { bit: u32, centre: fray_core::grid::Pos },
    /// A power left a lingering attack modifier (K-ADV).
    ModifierAdded { name: String, modifier: crate::engine::records::modifiers::Modifier },
    /// A power laid a curse.
    CurseLaid { name: String, target: Who, curse: crate::engine::records::curses::Curse },
    /// A curse fired or ran out.
    CurseEnded { index: usize, why: String },
    /// A lingering attack modifier ended.
    ModifierEnded { index: usize, why: String },
    /// A unit's once-per-round zone record was cleared (K-ZONE-3).
    ZonesReset { unit: Who },
    /// A wand hit that denies the target Opportunities against the wielder this turn (K-OPP-11).
    WandHit { unit: Who, target: Who },
    /// An attack of `unit` on its own turn hit `target` (Rapid Fire's "not hit this turn").
    HitThisTurn { unit: Who, target: Who },
    /// A Frenzied or Panicked roll set what the unit must do this turn (or that ended).
    Compelled { unit: Who, why: String, compulsion: Option<crate::engine::records::control::Compulsion> },
    /// A unit begins (Some) or finishes (None) an attack another granted it (K-ACT-4).
    Granted { unit: Who, by: Option<Who> },
    /// The granted attack a unit is making gets no Role Boost.
    GrantTerms { unit: Who, no_role_boost: bool },
    /// A power gives a unit a Move Action of its own (`by`), or that Move Action is over.
    MoveGranted { unit: Who, by: Option<Who> },
    /// A unit will have no Move Action on its next turn (`armed`), or loses it now.
    MoveForfeit { unit: Who, armed: bool },
    /// A waiting power was armed (K-ACT-7).
    TriggerArmed { unit: Who, armed: crate::engine::records::triggers::Armed },
    /// A waiting power's record ended.
    TriggerDisarmed { unit: Who, armed: crate::engine::records::triggers::Armed, why: String },
    /// A waiting power was used against a creature.
    TriggerUsed { unit: Who, power: u16, against: Who },
    /// A triggered feature was used (`Some`: not ready again until then) or is ready again (`None`).
    FeatureCooldown { unit: Who, feature: Arc<str>, until: Option<crate::engine::records::statuses::Duration> },
    /// Reversal of Fortune is armed or used.
    Reversal { unit: Who, armed: bool },
    /// Hidden creatures were revealed (K-CONC-5).
    Note { text: String },
    /// A square's terrain changed (Change Terrain).
    TerrainChanged { at: Pos, terrain: crate::engine::arena::Terrain, why: String },
    /// A pedestal was made (Major Terrain).
    PedestalAdded { pedestal: crate::engine::arena::Pedestal },
    /// A pedestal was taken away; its orbs stay on its square, on the ground (Major Terrain).
    PedestalRemoved { index: usize, id: String },
    /// A power put something new on the map: a summon, trap, automaton or wall
    /// ([`crate::rules::summons`]); `apply` adds it to the state's units.
    Spawned { unit: Who, spawn: Box<crate::engine::records::summons::Spawn> },
    /// Something a power put on the map left it for good (destroyed, spent, faded).
    Vanished { unit: Who, why: String },
    /// A trap triggered or was refreshed: its charges, whether it triggers free for now (Wand
    /// Trap), and the turn it last triggered in.
    TrapChanged { unit: Who, state: crate::engine::records::summons::TrapState },
    /// A team reached the target score (K-END-1).
    EndTriggered { side: Side },
    /// The Strike penalty at the end (K-END-3).
    StrikePenalty { side: Side, strikes: i32, penalty: i32 },
    /// The match ended.
    MatchOver { summary: String, winner: Option<Side>, red: i32, blue: i32 },
    /// A unit loses Ward, its Special Ward first: peeled for damage (Ward Bash), stripped by a
    /// power (Ward-Stripping Hex).
    WardLost { unit: Who, amount: i32, why: String },
    /// A Porter's warp, floor trap or Bend Space mark came or went ([`crate::classes::porter`]).
    Porter { change: crate::engine::records::porter::Change, text: String },
    /// A Tamer's creature's record changed: where its Tamer's turn found it, when it last
    /// obeyed ([`crate::classes::tamer`]).
    Beast { unit: Who, beast: crate::engine::records::summons::Beast },
    /// A unit loses HP without taking damage (a Motivator's boost above maximum HP wearing off).
    HpLost { unit: Who, amount: i32, hp: i32, why: String },
    /// A unit's footprint changed: top-left square `pos`, `size`, and whether the size is an
    /// Enlarging Charm's (charms.rs).
    Resized { unit: Who, pos: Option<Pos>, size: i32, enlarged: bool, why: String },
    /// A Pest latches onto a host (and takes its square) or lets go (`None`; pest.rs).
    Attached { unit: Who, host: Option<Who> },
    /// A Creep group's record changed: its Enemies List, nudges, the Creep phase ([`crate::rules::creeps`]).
    Creeps { change: crate::engine::records::creeps::Change, text: String },
    /// A creature left existence, moved outside it or came back ([`crate::classes::porter::removal`]).
    Existence { change: crate::engine::records::removal::Change, text: String },
}

fn unit_mut<'a>(s: &'a mut Facts, w: &Who) -> &'a mut crate::engine::state::Unit {
    s.unit_mut(w.idx)
}

/// The right to change a state's [`Facts`]: only this module makes one (issue 12).
pub struct Key(());

/// Applies an event to the state: the only place game-visible state changes.
pub fn apply(state: &mut State, e: &Event) {
    let s = state.facts_mut(&Key(()));
    match e {
        Event::RoundStarted { round } => {
            s.round = *round;
            s.turn_index = 0;
        }
        Event::InitiativeRolled { unit, roll } => unit_mut(s, unit).initiative = *roll,
        Event::TurnOrder { order } => s.order = order.iter().map(|w| w.idx).collect(),
        Event::TurnStarted { unit, turn } => {
            let u = unit_mut(s, unit);
            u.turns_started = *turn;
            u.actions = Default::default();
            u.turn_over = false;
            u.wand_hits.clear();
            u.hits_this_turn.clear();
            u.turn_start = u.pos; // Blitzer
        }
        Event::TurnEnded { unit } => {
            if crate::engine::appliers::leaves_order(s, unit.idx) {
                s.order.remove(s.turn_index); // it vanished during its own turn
            } else {
                s.turn_index += 1;
            }
            let u = unit_mut(s, unit);
            u.wand_hits.clear(); // K-OPP-11 lasts for the rest of the turn only
            u.hits_this_turn.clear();
            u.compulsion = None;
        }
        Event::ActionSpent { unit, slot } => {
            let u = unit_mut(s, unit);
            u.actions.taken += 1;
            match slot {
                Slot::Attack if u.actions.attack && u.actions.bonus_attacks > 0 => u.actions.bonus_attacks -= 1,
                Slot::Attack => u.actions.attack = true,
                Slot::Move if u.actions.bonus_moves > 0 => u.actions.bonus_moves -= 1, // Sleipnir Elixir
                Slot::Move => {
                    if u.actions.moves >= 1 {
                        u.actions.attack = true; // K-ACT-2: the second Move Action is the traded Attack Action
                    }
                    u.actions.moves += 1;
                }
                Slot::Role => u.actions.role = true,
            }
        }
        Event::FreeAction { unit, .. } => unit_mut(s, unit).actions.free += 1,
        Event::PowerUsed { .. } | Event::Opportunity { .. } => {}
        Event::EncounterSpent { unit, power, .. } => unit_mut(s, unit).spent.push(*power),
        Event::EncounterRecharged { unit, power, .. } => unit_mut(s, unit).spent.retain(|p| p != power),
        Event::Moved { unit, to, how, .. } => {
            let own_turn = s.current() == Some(unit.idx);
            crate::engine::appliers::torn_off(s, unit.idx); // a Pest moved itself lets go
            let u = unit_mut(s, unit);
            u.pos = Some(*to);
            u.throne = false; // it left the Throne, if it sat there (K-SCO-10)
            if own_turn && matches!(how, How::Walk | How::Shift | How::Crawl | How::Charge) {
                u.actions.moved += 1;
            }
            crate::engine::appliers::carry(s, unit.idx); // its Pest rides along
        }
        Event::Placed { unit, at, .. } => {
            let own_turn = s.current() == Some(unit.idx);
            crate::engine::appliers::torn_off(s, unit.idx);
            let u = unit_mut(s, unit);
            if own_turn && u.turn_start.is_none() {
                u.turn_start = Some(*at); // came out of the Dungeon this turn (Blitzer)
            }
            u.pos = Some(*at);
            u.taken_out = false;
            u.throne = false;
            crate::engine::appliers::carry(s, unit.idx);
        }
        Event::Removed { unit } => {
            let u = unit_mut(s, unit);
            u.pos = None;
            u.throne = false;
        }
        Event::Resized { unit, pos, size, enlarged, .. } => {
            let u = unit_mut(s, unit);
            (u.pos, u.size, u.charmed.enlarged) = (*pos, *size, *enlarged);
            crate::engine::appliers::carry(s, unit.idx);
        }
        Event::Attached { unit, host } => {
            crate::engine::appliers::apply_attached(s, unit.idx, host.as_ref().map(|h| h.idx))
        }
        Event::AttackRolled { .. }
        | Event::RollAdjusted { .. }
        | Event::AttackResult { .. }
        | Event::GlancingChoice { .. }
        | Event::Save { .. }
        | Event::Note { .. } => {}
        Event::TokensSpent { unit, left, .. } => unit_mut(s, unit).miss_tokens = *left,
        Event::Damaged { unit, ward_lost, hp, .. } => {
            let u = unit_mut(s, unit);
            u.ward -= ward_lost;
            u.special_ward = (u.special_ward - ward_lost).max(0); // Special Ward goes first
            u.hp = *hp;
        }
        Event::Healed { unit, hp, .. } => unit_mut(s, unit).hp = *hp,
        Event::WardSet { unit, ward, .. } => {
            let u = unit_mut(s, unit);
            u.ward = *ward;
            u.special_ward = u.special_ward.min(*ward);
        }
        Event::FeatureSwapped { unit, out, into } => {
            let parse = |id| crate::engine::records::features::Feature::parse(id, &s.content);
            let (out, into) = (parse(out), parse(into));
            let u = unit_mut(s, unit);
            match (out.and_then(|o| u.features.iter().position(|&f| f == o)), into) {
                (Some(i), Some(n)) => u.features[i] = n,
                (None, Some(n)) => u.features.push(n),
                _ => {}
            }
        }
        Event::FeatureCounter { unit, feature, value, about } => {
            if let Some(f) = crate::engine::records::features::Feature::parse(feature, &s.content) {
                let about = about.as_ref().map(|a| a.idx);
                let u = unit_mut(s, unit);
                // One counter per feature, or per feature and creature where the feature keeps
                // one per creature (Electrified); a 0 is no counter.
                let per = f.counts_per_creature();
                u.counters.retain(|c| c.feature != f || (per && c.about != about));
                if *value != 0 {
                    u.counters.push(crate::engine::records::features::Counter { feature: f, value: *value, about });
                }
            }
        }
        Event::SpecialWard { unit, from, amount } => {
            let from = from.idx;
            let u = unit_mut(s, unit);
            u.ward += amount;
            u.special_ward += amount;
            u.special_from = Some(from);
        }
        Event::StatusGained { unit, status, .. } => {
            let u = unit_mut(s, unit);
            u.statuses.push(*status);
            u.status_mask = crate::engine::records::statuses::mask(&u.statuses);
        }
        Event::StatusEnded { unit, status, .. } => {
            let u = unit_mut(s, unit);
            if let Some(i) = u.statuses.iter().position(|x| x == status) {
                u.statuses.remove(i);
            }
            u.status_mask = crate::engine::records::statuses::mask(&u.statuses);
        }
        Event::MissToken { unit, total } => unit_mut(s, unit).miss_tokens = *total,
        Event::Strike { unit, total, .. } => unit_mut(s, unit).strikes = *total,
        Event::ElixirGained { unit, elixir, .. } => unit_mut(s, unit).brewer.elixirs.push(*elixir),
        Event::ElixirLost { unit, index, .. } => {
            unit_mut(s, unit).brewer.elixirs.remove(*index);
        }
        Event::BonusMove { unit } => unit_mut(s, unit).actions.bonus_moves += 1,
        Event::LuckTokens { unit, total, .. } => unit_mut(s, unit).charmed.luck_tokens = *total,
        Event::WardLost { unit, amount, .. } => {
            let u = unit_mut(s, unit);
            u.ward = (u.ward - amount).max(0);
            u.special_ward = (u.special_ward - amount).max(0);
        }
        Event::Blade { unit, potions, .. } => unit_mut(s, unit).brewer.blade = potions.clone(),
        Event::BonusAttack { unit } => {
            let u = unit_mut(s, unit);
            u.actions.bonus_attacks += 1;
            u.actions.keep_turn = true;
        }
        Event::TakenOut { unit, .. } => {
            // A Scryer's lock on it ends.
            let idx = unit.idx;
            let lock = |c: &crate::engine::records::features::Counter| {
                c.feature == crate::engine::records::features::Feature::Scryer && c.about == Some(idx)
            };
            for x in s.units.iter_mut().filter(|x| x.counters.iter().any(lock)) {
                Arc::make_mut(x).counters.retain(|c| !lock(c));
            }
            let u = unit_mut(s, unit);
            u.special_ward = 0;
            u.taken_out = true;
            u.pos = None;
        }
        Event::Restored { unit, max_hp, hp } => {
            let u = unit_mut(s, unit);
            u.max_hp = *max_hp;
            u.hp = *hp;
        }
        Event::Scored { side, points, by, why } => {
            if let Some(t) = side.team() {
                s.score[t] += points;
            }
            if let Some(b) = by {
                let u = unit_mut(s, b);
                u.points += points;
                if why.starts_with("took out") {
                    u.kills += 1;
                } else if why.starts_with("dunked") {
                    u.orbs_scored += 1;
                }
            }
        }
        Event::OrbMoved { idx, to, .. } => s.orbs[*idx as usize].loc = *to,
        Event::OrbRecoloured { idx, color, .. } => s.orbs[*idx as usize].color = *color,
        Event::ButtonHit { unit, exit, with_orb } => {
            let u = unit_mut(s, unit);
            u.button = Some(*exit);
            u.button_with_orb = *with_orb;
        }
        Event::Throne { unit, held } => unit_mut(s, unit).throne = *held,
        Event::ButtonCleared { unit } => {
            let u = unit_mut(s, unit);
            u.button = None;
            u.button_with_orb = false;
        }
        Event::Stowed { unit, stowed } => unit_mut(s, unit).stowed = *stowed,
        Event::TurnCutShort { unit, .. } => unit_mut(s, unit).turn_over = true,
        Event::TerrainChanged { at, terrain, .. } => {
            // The arena is shared between copies of the state: this one gets its own.
            if let Some(t) = std::sync::Arc::make_mut(&mut s.arena).terrain.get_mut(*at) {
                *t = *terrain;
            }
        }
        Event::PedestalAdded { pedestal } => {
            let a = std::sync::Arc::make_mut(&mut s.arena);
            if let Some(t) = a.terrain.get_mut(pedestal.at) {
                *t = crate::engine::arena::Terrain::Pedestal;
            }
            a.pedestals.push(pedestal.clone());
        }
        Event::PedestalRemoved { index, .. } => {
            let a = std::sync::Arc::make_mut(&mut s.arena);
            let at = a.pedestals.remove(*index).at;
            if let Some(t) = a.terrain.get_mut(at) {
                *t = crate::engine::arena::Terrain::Open;
            }
            // Orbs on it drop where it stood; later pedestals move down one place.
            for o in &mut s.orbs {
                if let OrbLoc::Pedestal { pedestal } = o.loc {
                    let p = pedestal as usize;
                    if p == *index {
                        o.loc = OrbLoc::Ground { at };
                    } else if p > *index {
                        o.loc = OrbLoc::Pedestal { pedestal: pedestal - 1 };
                    }
                }
            }
            // So do the pedestals Creep groups guard; a group whose pedestal is gone has none.
            for g in &mut s.creeps.groups {
                g.pedestal = match g.pedestal {
                    Some(p) if p as usize == *index => None,
                    Some(p) if p as usize > *index => Some(p - 1),
                    other => other,
                };
            }
        }
        Event::ZoneHit { unit, zone } => unit_mut(s, unit).zone_hits |= 1 << zone,
        Event::ZonesReset { unit } => unit_mut(s, unit).zone_hits = 0,
        Event::ZoneCreated { zone, .. } => s.zones.push(zone.clone()),
        Event::ZoneEnded { bit, .. } => s.zones.retain(|z| z.bit != *bit),
        Event::ZoneMoved { bit, centre } => {
            if let Some(z) = s.zones.iter_mut().find(|z| z.bit == *bit) {
                z.centre = *centre;
            }
        }
        Event::ModifierAdded { modifier, .. } => s.modifiers.push(modifier.clone()),
        Event::CurseLaid { curse, .. } => s.curses.push(curse.clone()),
        Event::CurseEnded { index, .. } => {
            s.curses.remove(*index);
        }
        Event::ModifierEnded { index, .. } => {
            s.modifiers.remove(*index);
        }
        Event::WandHit { unit, target } => unit_mut(s, unit).wand_hits.push(target.idx),
        Event::HitThisTurn { unit, target } => unit_mut(s, unit).hits_this_turn.push(target.idx),
        Event::Reversal { unit, armed } => unit_mut(s, unit).reversal = *armed,
        Event::Granted { unit, by } => {
            let u = unit_mut(s, unit);
            u.granted_by = by.as_ref().map(|b| b.idx);
            if by.is_none() {
                u.grant_no_boost = false;
            }
        }
        Event::GrantTerms { unit, no_role_boost } => unit_mut(s, unit).grant_no_boost = *no_role_boost,
        Event::MoveGranted { unit, by } => unit_mut(s, unit).granted_move = by.is_some(),
        Event::MoveForfeit { unit, armed } => {
            let u = unit_mut(s, unit);
            u.forfeit_move = *armed;
            if !*armed {
                u.actions.moves += 1;
            }
        }
        Event::TriggerArmed { unit, armed } => unit_mut(s, unit).armed.push(armed.clone()),
        Event::TriggerDisarmed { unit, armed, .. } => unit_mut(s, unit).armed.retain(|a| a != armed),
        Event::FeatureCooldown { unit, feature, until } => {
            let u = unit_mut(s, unit);
            u.cooldowns.retain(|c| c.feature != *feature);
            if let Some(d) = until {
                u.cooldowns.push(crate::engine::records::triggers::Cooldown { feature: feature.clone(), until: *d });
            }
        }
        Event::TriggerUsed { unit, power, against } => {
            if let Some(a) = unit_mut(s, unit).armed.iter_mut().find(|a| a.power == *power) {
                a.used_on.push(against.idx);
            }
        }
        Event::Compelled { unit, compulsion, .. } => unit_mut(s, unit).compulsion = *compulsion,
        Event::Spawned { unit, spawn } => crate::engine::appliers::apply_spawn(s, unit, spawn),
        Event::Vanished { unit, .. } => crate::engine::appliers::apply_vanish(s, unit),
        Event::Porter { change, .. } => crate::engine::appliers::apply_porter(s, change),
        Event::Creeps { change, .. } => crate::engine::appliers::apply_creeps(s, change),
        Event::Existence { change, .. } => crate::engine::appliers::apply_removal(s, change),
        Event::TrapChanged { unit, state } => {
            if let Some(p) = unit_mut(s, unit).placed.as_mut() {
                p.charges = state.charges;
                p.free = state.free;
                p.fired = state.fired;
                p.bonus = state.bonus;
                p.resisted = state.resisted;
                p.loaded = state.loaded;
                p.rider = state.rider;
            }
        }
        Event::EndTriggered { .. } => s.end_triggered = true,
        Event::Beast { unit, beast } => {
            let u = unit_mut(s, unit);
            u.turns_started = beast.turn; // its Tamer's turns are its own
            if let Some(p) = u.placed.as_mut() {
                p.beast = *beast;
            }
        }
        Event::HpLost { unit, hp, .. } => unit_mut(s, unit).hp = *hp,
        Event::StrikePenalty { side, penalty, .. } => {
            if let Some(t) = side.team() {
                s.score[t] -= penalty;
            }
        }
        Event::MatchOver { summary, winner, red, blue } => {
            let mut score = std::collections::BTreeMap::new();
            score.insert("red".to_string(), *red as i64);
            score.insert("blue".to_string(), *blue as i64);
            s.outcome = Some(fray_core::Outcome {
                winner: winner.map(|w| w.name().to_string()),
                score,
                summary: summary.clone(),
            });
        }
    }
}

fn status_label(status: &Status) -> String {
    if status.kind.has_amount() { format!("{} {}", status.kind, status.amount) } else { status.kind.to_string() }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::RoundStarted { round } => write!(f, "— round {round} —"),
            Event::InitiativeRolled { unit, roll } => {
                write!(f, "{unit} rolls {roll} for initiative")
            }
            Event::TurnOrder { order } => {
                write!(f, "turn order: {}", order.iter().map(|w| w.id.to_string()).collect::<Vec<_>>().join(", "))
            }
            Event::TurnStarted { unit, .. } => write!(f, "{unit}'s turn"),
            Event::TurnEnded { unit } => write!(f, "{unit} ends the turn"),
            Event::ActionSpent { unit, slot } => write!(
                f,
                "{unit} spends a{} {} action",
                if *slot == Slot::Attack { "n" } else { "" },
                match slot {
                    Slot::Attack => "attack",
                    Slot::Move => "move",
                    Slot::Role => "role",
                }
            ),
            Event::FreeAction { unit, what } => write!(f, "{unit} {what} (free action)"),
            Event::PowerUsed { unit, power, targets } => {
                if targets.is_empty() {
                    write!(f, "{unit} uses {power}")
                } else {
                    write!(
                        f,
                        "{unit} uses {power} on {}",
                        targets.iter().map(|w| w.id.to_string()).collect::<Vec<_>>().join(", ")
                    )
                }
            }
            Event::EncounterSpent { unit, name, .. } => {
                write!(f, "{unit}'s {name} is spent for this match")
            }
            Event::EncounterRecharged { unit, name, .. } => write!(f, "{unit} recharges {name}"),
            Event::Moved { unit, from, to, how } => write!(
                f,
                "{unit} {} {from} → {to}",
                match how {
                    How::Walk => "moves",
                    How::Shift => "shifts",
                    How::Crawl => "crawls",
                    How::Dragged => "is dragged",
                    How::Push => "is pushed",
                    How::Pull => "is pulled",
                    How::Slide => "is slid",
                    How::Throw => "is thrown",
                    How::Teleport => "teleports",
                    How::Portal => "steps through a portal",
                    How::Charge => "charges",
                }
            ),
            Event::Placed { unit, at, why } => write!(f, "{unit} {why} at {at}"),
            Event::Removed { unit } => write!(f, "{unit} leaves the map"),
            Event::AttackRolled { attacker, target, dice, natural, mode } => match mode {
                RollMode::Normal => write!(f, "{attacker} rolls {natural} against {target}"),
                RollMode::Advantage => {
                    write!(f, "{attacker} rolls {dice:?} with Advantage against {target}: {natural}")
                }
                RollMode::Disadvantage => {
                    write!(f, "{attacker} rolls {dice:?} with Disadvantage against {target}: {natural}")
                }
            },
            Event::TokensSpent { unit, count, roll, left } => {
                write!(
                    f,
                    "{unit} spends {count} Miss Token{} — the roll counts as {roll} ({left} left)",
                    if *count == 1 { "" } else { "s" }
                )
            }
            Event::RollAdjusted { target, from, to, why } => {
                write!(f, "{why} turns the {from} against {target} into a {to}")
            }
            Event::AttackResult { attacker, target, roll, hit } => write!(
                f,
                "{attacker} → {target}: {roll}, {}",
                match hit {
                    Hit::Critical => "Critical Hit",
                    Hit::Solid => "Solid Hit",
                    Hit::Glancing => "Glancing Hit",
                    Hit::Miss => "Miss",
                }
            ),
            Event::GlancingChoice { attacker, choice } => {
                write!(f, "{attacker} takes the {choice} on the Glancing Hit")
            }
            Event::Damaged { unit, amount, ward_lost, hp, source, why } => {
                write!(f, "{unit} takes {amount} damage")?;
                if let Some(s) = source {
                    write!(f, " from {s}")?;
                }
                if !why.is_empty() {
                    write!(f, " ({why})")?;
                }
                if *ward_lost > 0 {
                    write!(f, ", {ward_lost} absorbed by Ward")?;
                }
                write!(f, " — {hp} HP left")
            }
            Event::Healed { unit, amount, hp, why } => write!(f, "{unit} regains {amount} HP ({why}) — {hp} HP"),
            Event::WardSet { unit, ward, why } => write!(f, "{unit}'s Ward is now {ward} ({why})"),
            Event::SpecialWard { unit, from, amount } => write!(f, "{from} gives {unit} {amount} Special Ward"),
            Event::FeatureCounter { unit, feature, value, .. } => write!(f, "{unit}'s {feature}: {value}"),
            Event::FeatureSwapped { unit, out, into } if out.is_empty() => write!(f, "{unit} puts {into} in force"),
            Event::FeatureSwapped { unit, out, into } => write!(f, "{unit} puts {into} in force in place of {out}"),
            Event::StatusGained { unit, status, label } => write!(f, "{unit} is {} ({label})", status_label(status)),
            Event::StatusEnded { unit, status, why } => {
                write!(f, "{unit} is no longer {} ({why})", status_label(status))
            }
            Event::MissToken { unit, total } => write!(f, "{unit} takes a Miss Token ({total})"),
            Event::Strike { unit, total, why } => {
                write!(f, "Strike on {unit}: {why} ({total} in all)")
            }
            Event::Opportunity { by, against, why } => {
                write!(f, "{by} takes an Opportunity on {against} ({why})")
            }
            Event::ElixirGained { unit, name, why, .. } => write!(f, "{unit} now carries {name} ({why})"),
            Event::ElixirLost { unit, name, why, .. } => write!(f, "{unit} no longer carries {name} ({why})"),
            Event::BonusMove { unit } => write!(f, "{unit} gains an extra Move Action this turn"),
            Event::LuckTokens { unit, total, why } => write!(f, "{unit} has {total} Luck Token(s) ({why})"),
            Event::WardLost { unit, amount, why } => write!(f, "{unit} loses {amount} Ward ({why})"),
            Event::Blade { unit, names, .. } if names.is_empty() => write!(f, "{unit}'s blade is wiped clean"),
            Event::Blade { unit, names, .. } => write!(f, "{unit}'s blade is coated with {}", names.join(", ")),
            Event::BonusAttack { unit } => {
                write!(f, "{unit} gains an extra Attack Action this turn; its attacks no longer end the turn")
            }
            Event::TakenOut { unit, by, in_dungeon } => {
                write!(f, "{unit} is Taken Out")?;
                if let Some(b) = by {
                    write!(f, " by {b}")?;
                }
                if *in_dungeon {
                    write!(f, " inside the Dungeon")?;
                }
                Ok(())
            }
            Event::Restored { unit, max_hp, hp } => {
                write!(f, "{unit} is restored to {hp} HP (maximum {max_hp})")
            }
            Event::Scored { side, points, by, why } => {
                write!(f, "{} scores {points} ({why}", side.name())?;
                if let Some(b) = by {
                    write!(f, ", {b}")?;
                }
                write!(f, ")")
            }
            Event::OrbMoved { orb, why, .. } => write!(f, "orb {orb}: {why}"),
            Event::OrbRecoloured { orb, color, .. } => {
                write!(f, "orb {orb} turns {}", color.name())
            }
            Event::ButtonHit { unit, exit, .. } => {
                write!(f, "{unit} hits the button of the exit at {exit}")
            }
            Event::ButtonCleared { unit } => write!(f, "{unit}'s button press is used up"),
            Event::Throne { unit, held: true } => write!(f, "{unit} ends its turn sitting on the Throne"),
            Event::Throne { unit, held: false } => write!(f, "{unit} rises from the Throne"),
            Event::Save { unit, what, roll, success } => {
                write!(f, "{unit} saves against {what}: {roll}, {}", if *success { "success" } else { "failure" })
            }
            Event::Stowed { unit, stowed } => {
                write!(f, "{unit} {} the implement", if *stowed { "stows" } else { "takes back" })
            }
            Event::TurnCutShort { unit, why } => write!(f, "{unit}'s turn will end: {why}"),
            Event::ZoneHit { .. } | Event::ZonesReset { .. } | Event::WandHit { .. } => Ok(()),
            Event::HitThisTurn { .. } => Ok(()),
            Event::ZoneCreated { owner, name, zone } => write!(
                f,
                "{owner}'s {name} makes a {0}x{0} zone centred on {1}{2}",
                zone.size,
                zone.centre,
                if zone.ends_after_turn.is_some() {
                    ", until the end of its next turn"
                } else {
                    " for the rest of the match"
                }
            ),
            Event::ZoneEnded { name, .. } => write!(f, "{name}'s zone ends"),
            Event::ZoneMoved { centre, .. } => write!(f, "the zone moves along, now centred on {centre}"),
            Event::ModifierAdded { name, modifier } => {
                use crate::engine::records::modifiers::ModifierKind as K;
                let n = modifier.amount;
                let (what, on) = match modifier.kind {
                    K::Advantage => ("Advantage".to_string(), "attack roll"),
                    K::Disadvantage => ("Disadvantage".to_string(), "attack roll"),
                    K::GiftedBoost => ("a Charmer's Role Boost".to_string(), "attack roll"),
                    K::ExtraDamage => (format!("{n} extra damage"), "hit"),
                    K::Speed => (format!("{n} more speed"), ""),
                    K::TargetsGuarded => ("targets count as Guarded".to_string(), "attack"),
                    K::HitAsSix => ("attacks hit as a 6 but deal no damage".to_string(), ""),
                    K::SavesSucceed => ("every saving throw succeeds".to_string(), ""),
                    K::SightLimit => (format!("sees no further than {n} squares"), ""),
                    K::MeleeAdvantage => ("Advantage".to_string(), "melee attack"),
                    K::BondedFutures => (format!("a teleport at the start of its turn in round {n}"), ""),
                    K::Generosity => (format!("{n} HP to each creature within 2 as its turn ends"), ""),
                    K::Vulnerable => (format!("Vulnerable {n}"), "attack"),
                    K::OpportunityDamage => (format!("+{n} damage"), "Opportunity"),
                    K::Execution => ("a 6 forces a save or a Take Out".to_string(), "attack roll"),
                    K::Spurned => ("Disadvantage unless its maker is a target".to_string(), ""),
                    K::WardBoost => (format!("the next Special Ward is {n} bigger"), ""),
                    K::Undying => ("cannot be Taken Out".to_string(), ""),
                    K::Confused => ("Opportunities against allies, none against enemies".to_string(), ""),
                    K::TeamAdvantage => (format!("Advantage on every roll of its team in round {n}"), ""),
                    K::EnemyDisadvantage => (format!("Disadvantage on every roll of the other team in round {n}"), ""),
                    K::DrawABead if n >= 2 => ("attacks ignore Cover, Concealment and Hidden".to_string(), ""),
                    K::DrawABead => ("attacks ignore Concealment and Low Cover".to_string(), ""),
                    K::Cloak => (format!("Concealed from enemies more than {n} squares away"), ""),
                    K::Outflank => (
                        format!("{n} extra damage, or a Miss Token on a miss, while its maker is beside it"),
                        "ally's attack",
                    ),
                    K::SaveAdvantage => ("Advantage".to_string(), "saving throw or escape roll"),
                    K::HideUsed => ("no Hide on the next turn".to_string(), ""),
                    K::SpreadFire => ("no attacks on it this turn unless it is the last enemy".to_string(), ""),
                    K::Attacked => ("attacked this turn".to_string(), ""),
                    K::ImplementRange => (format!("implement range {n} this turn"), ""),
                    K::Focus => ("Advantage (and 1 more damage if basic)".to_string(), "implement attack"),
                    K::BrewsLocked => {
                        ("no Potions or Elixirs until an Attack Action is spent to recover".to_string(), "")
                    }
                    K::Wraith => (format!("{n} more damage to creatures passed through this turn"), ""),
                    K::PassedThrough => ("passed through this turn".to_string(), ""),
                    K::Takeoff => ("may take off with any Move Action".to_string(), ""),
                    K::Reach => (format!("{n} more reach"), ""),
                    K::Enlarged => (format!("2x2 and {n} extra damage"), "Basic Physical Attack hit"),
                    K::Forbidden => ("no attacks on it".to_string(), ""),
                };
                let when = match (on, modifier.first) {
                    ("", _) => String::new(),
                    (on, true) => format!(" on the first {on}"),
                    (on, false) => format!(" on every {on}"),
                };
                write!(f, "{name}: {what}{when}")
            }
            Event::ModifierEnded { why, .. } => write!(f, "an attack modifier ends ({why})"),
            Event::CurseLaid { name, target, .. } => write!(f, "{name} hangs over {target}"),
            Event::CurseEnded { why, .. } => write!(f, "a curse is over ({why})"),
            Event::Reversal { unit, armed } => {
                if *armed {
                    write!(f, "{unit} readies Reversal of Fortune")
                } else {
                    write!(f, "Reversal of Fortune turns {unit}'s roll")
                }
            }
            Event::Note { text } => f.write_str(text),
            Event::TerrainChanged { at, terrain, why } => write!(f, "{at} becomes {terrain:?} ({why})"),
            Event::PedestalAdded { pedestal } => write!(f, "pedestal {} is made at {}", pedestal.id, pedestal.at),
            Event::PedestalRemoved { id, .. } => write!(f, "pedestal {id} is taken away"),
            Event::Granted { unit, by: Some(by) } => write!(f, "{unit} makes an attack granted by {by}"),
            Event::Granted { .. } => Ok(()),
            Event::GrantTerms { unit, no_role_boost: true } => write!(f, "{unit}'s granted attack gets no Role Boost"),
            Event::GrantTerms { .. } => Ok(()),
            Event::MoveGranted { unit, by: Some(by) } => write!(f, "{by} lets {unit} spend a Move Action now"),
            Event::MoveGranted { .. } => Ok(()),
            Event::MoveForfeit { unit, armed: true } => write!(f, "{unit} will have no Move Action on its next turn"),
            Event::MoveForfeit { unit, armed: false } => write!(f, "{unit} has no Move Action this turn"),
            Event::TriggerArmed { unit, .. } => write!(f, "{unit} waits, ready to act when its trigger comes"),
            Event::TriggerDisarmed { unit, why, .. } => write!(f, "{unit} is no longer waiting ({why})"),
            Event::TriggerUsed { unit, against, .. } => write!(f, "{unit} acts on its trigger against {against}"),
            Event::FeatureCooldown { unit, feature, until: Some(_) } => {
                let name = crate::engine::records::triggers::feature_name(feature);
                write!(f, "{unit}'s {name} is not ready again until its next turn is over")
            }
            Event::FeatureCooldown { unit, feature, until: None } => {
                write!(f, "{unit}'s {} is ready again", crate::engine::records::triggers::feature_name(feature))
            }
            Event::Compelled { unit, why, compulsion } => match compulsion {
                Some(crate::engine::records::control::Compulsion::Controlled { .. }) => {
                    write!(f, "{unit} ({why}) acts as if Dominated")
                }
                Some(crate::engine::records::control::Compulsion::Attack { .. }) => {
                    write!(f, "{unit} ({why}) must attack its tormentor")
                }
                Some(crate::engine::records::control::Compulsion::Flee { .. }) => {
                    write!(f, "{unit} ({why}) must run away")
                }
                Some(crate::engine::records::control::Compulsion::Restricted { .. }) => {
                    write!(f, "{unit} ({why}) takes a restricted turn")
                }
                None => Ok(()),
            },
            Event::Spawned { unit, spawn } => {
                write!(f, "{unit} ({}) appears at {}", spawn.name, spawn.at)?;
                if spawn.kind == crate::engine::state::UnitKind::Trap {
                    write!(f, " with {} charge{}", spawn.charges, if spawn.charges == 1 { "" } else { "s" })?;
                }
                Ok(())
            }
            Event::Vanished { unit, why } => write!(f, "{unit} {why} and leaves the map"),
            Event::TrapChanged { unit, state } => {
                write!(f, "{unit} has {} charge(s) left", state.charges)?;
                if state.bonus > 0 {
                    write!(f, " and deals {} extra damage", state.bonus)?;
                }
                Ok(())
            }
            Event::EndTriggered { side } => write!(f, "{} reaches the target score: the match is ending", side.name()),
            Event::StrikePenalty { side, strikes, penalty } => {
                write!(
                    f,
                    "{} loses {penalty} point{} for {strikes} Strikes",
                    side.name(),
                    if *penalty == 1 { "" } else { "s" }
                )
            }
            Event::MatchOver { summary, .. } => write!(f, "match over: {summary}"),
            Event::Porter { text, .. } | Event::Creeps { text, .. } => f.write_str(text),
            Event::Beast { unit, beast } => match beast.start {
                Some(at) => write!(f, "{unit} answers to its Tamer (its turn {}, begun at {at})", beast.turn),
                None => write!(f, "{unit} answers to its Tamer (its turn {})", beast.turn),
            },
            Event::HpLost { unit, amount, hp, why } => write!(f, "{unit} loses {amount} HP ({why}) — {hp} HP"),
            Event::Resized { unit, pos, size, why, .. } => {
                write!(f, "{unit} {why}: now {size}x{size}")?;
                pos.map_or(Ok(()), |p| write!(f, " at ({}, {})", p.x, p.y))
            }
            Event::Attached { unit, host: Some(h) } => write!(f, "{unit} latches onto {h}"),
            Event::Attached { unit, host: None } => write!(f, "{unit} lets go of its host"),
            Event::Existence { text, .. } => f.write_str(text),
        }
    }
}

impl State {
    /// Whether unit `u` has a status of this kind from this source.
    pub fn status_from(&self, u: UnitIdx, kind: StatusKind, source: UnitIdx) -> Option<Status> {
        self.unit(u).statuses.iter().find(|s| s.kind == kind && s.source == Some(source)).copied()
    }
}
