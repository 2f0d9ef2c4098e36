//! The state of a fight: the map, the units (health bars, Shields, tokens, Stances, pools), the
//! initiative meter, the frames under way; the journal's events and `apply`, the only code that
//! changes a fact.

pub use crate::content::{ActionKey, Kind};
use crate::content::{Content, Die, Obstacle, TOKENS, Token};
use crate::frames::Frame;
use fray_core::dice::Pool;
use fray_core::engine::{Apply, Stack, Who};
use fray_core::grid::{Grid, Pos};
use fray_core::ruleset::Outcome;
use fray_core::turns::Meter;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Every side a fight may have; a side's index is its seat. A fight has the first two, and a
/// three-way battle (D-CMP-4) the rivals too: the second enemy team, Team B beside the enemies'
/// Team A.
pub const SIDES: [&str; 3] = ["heroes", "enemies", "rivals"];

/// A unit named in an event.
pub type W = Who<u8>;

/// Cinematic weight (D-CW-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weight {
    /// 6 HP a bar, heal 2.
    Featherweight,
    /// 9 HP a bar, heal 2 (D-G-01: table option).
    Lightweight,
    /// 12 HP a bar, heal 3.
    Middleweight,
    /// 14 HP a bar, heal 4.
    Heavyweight,
    /// 16 HP a bar, heal 4.
    WeightOfTheWorld,
}

impl Weight {
    /// HP per health bar.
    pub fn hp(self) -> i32 {
        match self {
            Weight::Featherweight => 6,
            Weight::Lightweight => 9,
            Weight::Middleweight => 12,
            Weight::Heavyweight => 14,
            Weight::WeightOfTheWorld => 16,
        }
    }
    /// Whether the heroes start with the Default Bonus (D-CW-2).
    pub fn default_bonus(self) -> bool {
        matches!(self, Weight::Lightweight | Weight::Middleweight | Weight::Heavyweight)
    }
}

/// Table options (docs/rulings/dojo.md names each).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The fight's weight class.
    pub weight: Weight,
    /// Lightweight's Heal Value (D-G-01): 2 by the rules chapter, 3 by the enemy chapter's table.
    pub lightweight_heal: i32,
    /// The range of a Stance with no Style (Fray has no Styles yet).
    pub formless_range: (i32, i32),
    /// The Boss's extra die per Stance (D-EN-12; size lost, §3.4).
    pub boss_die: u32,
    /// Wild Form's bonus die (§3.4).
    pub wild_die: u32,
    /// The die an Inspired token rolls (D-TOK-9; size lost, §3.4).
    pub inspired_die: u32,
    /// Per Form id, its Action Dice if not the reconstruction's.
    pub dice: Vec<(String, Vec<Die>)>,
    /// Rounds after which the fight stops as a draw (0: none).
    pub round_limit: u32,
    /// Whether the heroes take the Default Bonus of +2 HP a bar (D-CW-2).
    pub default_bonus: bool,
    /// Found An Opening's number (D-BON-3; lost with the icons): a die to roll or a fixed number.
    pub opening: Die,
    /// World of Cardboard (D-OPT-1): a push or pull into a Wall breaks it and ends there.
    pub world_of_cardboard: bool,
    /// Where a chosen force starts (D-TERR-3, D-SKL-5): at the far end of the map (false), or
    /// around the heroes in an Ambush (true: two failed Troubles or a lost Contest).
    pub ambush: bool,
    /// Stooges stand on the map one figure a member (D-EN-4, D-EN-6, D-EN-7; the `stooges`
    /// module); off, a group is one figure.
    pub stooge_figures: bool,
    /// Three-way battles (D-CMP-4, D-G-FAVOR): whether the helper holds the Favor token naming
    /// the side it helped (true, Fray's reading) or the unit helped holds one naming the
    /// helper's side.
    pub favor_to_helper: bool,
    /// Heroic Power Up (D-OPT-2): a unit handing on its Heroic Spirit may give a Bonus in place
    /// of its two lowest numbers.
    #[serde(default)]
    pub heroic_power_up: bool,
    /// Endless Stooges (D-OPT-4): a Stooge hurt leaves play, and fresh ones come in as the
    /// group's turns start in place of Reinforcements (it plays the Stooges as figures).
    #[serde(default)]
    pub endless_stooges: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            weight: Weight::Middleweight,
            lightweight_heal: 2,
            formless_range: (1, 2),
            boss_die: 6,
            wild_die: 6,
            inspired_die: 6,
            dice: Vec::new(),
            round_limit: 30,
            default_bonus: true,
            opening: Die::Roll(6),
            world_of_cardboard: false,
            ambush: false,
            stooge_figures: false,
            favor_to_helper: true,
            heroic_power_up: false,
            endless_stooges: false,
        }
    }
}

impl Options {
    /// The Heal Value (D-CW-1, D-CW-4).
    pub fn heal(&self) -> i32 {
        match self.weight {
            Weight::Featherweight => 2,
            Weight::Lightweight => self.lightweight_heal,
            Weight::Middleweight => 3,
            Weight::Heavyweight | Weight::WeightOfTheWorld => 4,
        }
    }
}

/// How a unit holds an Archetype (D-HC-3, D-HC-4): Focused, or Fused (also every Warrior and
/// Boss, D-EN-2, D-EN-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// One Archetype.
    Focused,
    /// Two Archetypes (a hero), or an enemy's.
    Fused,
    /// One of a Frantic hero's three Frantic abilities, not in use (D-HC-5, D-HC-9).
    Frantic,
    /// The Frantic ability picked for this turn (until the next pick).
    FranticNow,
    /// The Frantic ability picked before the one in use (it may be picked again, D-HC-9).
    FranticLast,
}

impl Variant {
    /// Whether it is one of a Frantic hero's abilities.
    pub fn frantic(self) -> bool {
        matches!(self, Variant::Frantic | Variant::FranticNow | Variant::FranticLast)
    }
}

/// A Stance: a Form and, once Styles are used, a Style (D-STN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stance {
    /// The Form (index into the content's Forms).
    pub form: usize,
    /// The Style (index into the content's Styles), if any.
    pub style: Option<usize>,
    /// A Forbidden Stance's second Form (D-STN-4): both Forms' abilities and Unique Actions,
    /// the dice of the Forbidden chart for each.
    pub form2: Option<usize>,
    /// Control's pick (L1115): the shortest range becomes 1 instead of the longest growing by 3.
    pub near: bool,
}

/// A fighter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Id.
    pub id: Arc<str>,
    /// Name.
    pub name: String,
    /// Side (index into [`SIDES`]).
    pub side: u8,
    /// Hero, Warrior or Boss.
    pub kind: Kind,
    /// Square; `None` once removed from play.
    pub at: Option<Pos>,
    /// HP of a full bar.
    pub bar_max: i32,
    /// Health bars at the start.
    pub bars: u8,
    /// Bars broken (D-HP-1).
    pub broken: u8,
    /// HP on the current bar.
    pub hp: i32,
    /// The Shield's points (D-HP-6), 0 for none.
    pub shield: i32,
    /// Tokens held, by [`Token::index`] (Challenge is [`Unit::challenge`]).
    pub tokens: [i32; 12],
    /// Whose Challenge it holds (D-TOK-4).
    pub challenge: Option<u8>,
    /// Its Stances.
    pub stances: Vec<Stance>,
    /// Its Archetypes (index into the content's) and how it holds them.
    pub archetypes: Vec<(usize, Variant)>,
    /// Its Build's id (D-BLD-*), if any.
    pub build: Option<String>,
    /// The Stance it is in (index into `stances`).
    pub stance: Option<usize>,
    /// The Stance of its last turn (D-EN-13).
    pub last_stance: Option<usize>,
    /// The Action Pool (D-TURN-2).
    pub pool: Pool,
    /// Taken Out (D-OUT-1).
    pub out: bool,
    /// Zen (L1469): the further Shields held, not at work, first held first to work.
    pub spares: Vec<i32>,
}

impl Unit {
    /// Whether it is a Frantic hero: no fixed Stances, a Form and a Style picked each turn
    /// (D-HC-5, D-HC-9).
    pub fn frantic(&self) -> bool {
        self.archetypes.iter().any(|(_, v)| v.frantic())
    }
    /// Tokens of kind `t` held.
    pub fn has(&self, t: Token) -> i32 {
        self.tokens[t.index()]
    }
    /// Basic tokens held.
    pub fn basic(&self) -> i32 {
        self.has(Token::Iron) + self.has(Token::Power) + self.has(Token::Speed)
    }
    /// Whether it still fights: not Taken Out.
    pub fn active(&self) -> bool {
        !self.out && self.at.is_some()
    }
}

/// Per-turn records (D-ACT-10): cleared when any turn starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnMarks {
    /// Uses of limited actions this turn, by (unit, action).
    pub uses: Vec<(u8, ActionKey, u8)>,
    /// Units that took an action this turn, once for each.
    pub acted: Vec<u8>,
    /// Who damaged whom this turn (by, target; by is 255 for Traps and Burning).
    pub damaged: Vec<(u8, u8)>,
    /// Pushes waiting for the end of the turn (Fury): (pusher, target, spaces).
    pub later: Vec<(u8, u8, i32)>,
    /// Units that spent Control tokens this turn (D-TOK-7: once a turn).
    pub control: Vec<u8>,
    /// Units whose Fused Flametongue gave its Burning this turn.
    pub flame: Vec<u8>,
    /// Immortals healed by a hit this turn (Boss Archetypes).
    pub drained: Vec<u8>,
    /// Units that changed square this turn, by any means (Watch Your Step).
    pub moved: Vec<u8>,
    /// Units whose next Action this turn is aimed (Take Aim).
    pub aimed: Vec<u8>,
    /// Amplify: units whose next Action is amplified (1), or whose amplified Action is under
    /// way (2).
    pub amplified: Vec<(u8, u8)>,
    /// Units that spent a Training token this turn (D-TOK-10: one a turn).
    pub trained: Vec<u8>,
    /// Units that used Watch Closely this turn.
    pub watching: Vec<u8>,
    /// Three-way battles (D-CMP-4): units that gained a Favor token this turn (one a turn).
    pub favor_gained: Vec<u8>,
    /// Whether a Favor token was spent this turn (one a turn, whoever calls it first).
    pub favor_spent: bool,
    /// Attackers a Favor token turned away this turn, and the side they may not attack.
    pub turned_away: Vec<(u8, u8)>,
    /// Elder units that took their free Unique Action this turn (L2672: once a turn).
    pub elder: Vec<u8>,
    /// Traps that have dealt their damage this turn (D-OBS-5: each once a turn).
    pub traps: Vec<Pos>,
}

/// The whole fight.
#[derive(Clone, Debug)]
pub struct State {
    /// The content.
    pub content: Arc<Content>,
    /// The table options.
    pub options: Arc<Options>,
    /// The obstacles, by square.
    pub map: Grid<Option<Obstacle>>,
    /// The fighters.
    pub units: Vec<Unit>,
    /// The initiative meter (D-INIT-*): unit i is meter unit i.
    pub meter: Meter,
    /// The round, from 1.
    pub round: u32,
    /// The unit whose turn it is.
    pub turn: Option<u8>,
    /// The per-turn records.
    pub marks: TurnMarks,
    /// Whether this round's end has offered the comebacks (D-OUT-4).
    pub returns_asked: bool,
    /// The frames under way, top last.
    pub flow: Vec<Frame>,
    /// Units Taken Out, in the order they fell (D-LS-2: the last to fall makes the Last Stand).
    pub fallen: Vec<u8>,
    /// How the fight ended.
    pub outcome: Option<Outcome>,
    /// Bonuses and Penalties still at work (D-BON-*, D-PEN-*): (unit, id, the last round).
    pub stakes: Vec<(u8, String, u32)>,
    /// The Copies on the map (D-OBS-1): each square and its Original (see the copies module).
    pub copies: Vec<(Pos, u8)>,
    /// Units taking an action as if standing on one of their Copies: (unit, its own square, the
    /// Copy's square). Its own square stays full meanwhile.
    pub standing_in: Vec<(u8, Pos, Pos)>,
    /// The song each Song unit sang last (Sing Along gives its tokens).
    pub songs: Vec<(u8, Token)>,
    /// The Stooges of each group standing on the map besides the one on its unit's square
    /// (`stooge-figures`, D-EN-4): each square and its group.
    pub members: Vec<(Pos, u8)>,
    /// Three-way battles (D-CMP-4): the Favor tokens held, each (holder, the side it names).
    pub favors: Vec<(u8, u8)>,
    /// Big units (D-RNG-5, D-G-22; [`crate::big`]): each unit filling more than one square,
    /// whether it is a Vehicle (its squares may be stood on), and the offsets it fills from its
    /// square.
    pub shapes: Vec<(u8, bool, crate::big::Shape)>,
}

impl State {
    /// Unit `u`.
    pub fn u(&self, u: u8) -> &Unit {
        &self.units[u as usize]
    }
    /// Unit `u` named for an event.
    pub fn who(&self, u: u8) -> W {
        Who::new(u, self.units[u as usize].id.clone())
    }
    /// Whether `u` holds the Bonus or Penalty `id` still at work this round (D-BON-*, D-PEN-*).
    pub fn lasting(&self, u: u8, id: &str) -> bool {
        self.stakes.iter().any(|(v, k, until)| *v == u && k == id && self.round <= *until)
    }
    /// The unit called `id`.
    pub fn find(&self, id: &str) -> Option<u8> {
        self.units.iter().position(|x| &*x.id == id).map(|i| i as u8)
    }
    /// The unit standing on `p`.
    /// D-RNG-5: a square of a big unit is its square too; a unit riding a Vehicle stands on the
    /// square before the Vehicle does.
    pub fn unit_at(&self, p: Pos) -> Option<u8> {
        if self.shapes.is_empty() {
            return self.units.iter().position(|x| x.at == Some(p)).map(|i| i as u8);
        }
        let on = (0..self.units.len() as u8).find(|&i| self.u(i).at == Some(p) && !crate::big::vehicle(self, i));
        on.or_else(|| crate::big::covering(self, p))
    }
    /// The obstacle on `p`.
    pub fn obstacle(&self, p: Pos) -> Option<Obstacle> {
        self.map.get(p).copied().flatten()
    }
    /// Whether `p` is on the map and nothing fills it (D-OBS-0: a unit or a Wall fills it).
    pub fn empty(&self, p: Pos) -> bool {
        self.map.contains(p)
            && self.obstacle(p) != Some(Obstacle::Wall)
            && self.filled(p).is_none()
            && !self.copies.iter().any(|c| c.0 == p)
            && !self.members.iter().any(|c| c.0 == p)
            && !self.standing_in.iter().any(|c| c.1 == p)
    }
    /// The unit filling `p`: any unit on it, a Giant's block over it, but not a Vehicle, whose
    /// squares others may stand on (D-RNG-5).
    pub fn filled(&self, p: Pos) -> Option<u8> {
        if self.shapes.is_empty() {
            return self.unit_at(p);
        }
        let on = (0..self.units.len() as u8).find(|&i| self.u(i).at == Some(p) && !crate::big::vehicle(self, i));
        on.or_else(|| crate::big::filling(self, p))
    }
    /// The Form of `u`'s current Stance.
    pub fn form(&self, u: u8) -> Option<&crate::content::Form> {
        let x = self.u(u);
        x.stance.map(|s| &self.content.forms[x.stances[s].form])
    }
    /// The Style of `u`'s current Stance, if it has one.
    pub fn style(&self, u: u8) -> Option<&crate::content::Style> {
        let x = self.u(u);
        x.stance.and_then(|s| x.stances[s].style).map(|i| &self.content.styles[i])
    }
    /// The second Form of `u`'s current Stance, in a Forbidden Stance (D-STN-4).
    pub fn form2(&self, u: u8) -> Option<&crate::content::Form> {
        let x = self.u(u);
        x.stance.and_then(|s| x.stances[s].form2).map(|f| &self.content.forms[f])
    }
    /// The dice `stance`'s Forms roll: the Form's (or the table's), or in a Forbidden Stance the
    /// Forbidden chart's for each of its two Forms (D-STN-4).
    pub fn form_dice(&self, stance: Stance) -> Vec<Die> {
        let own = |f: usize| {
            let form = &self.content.forms[f];
            self.options
                .dice
                .iter()
                .find(|(id, _)| *id == form.id)
                .map_or_else(|| form.dice.clone(), |(_, d)| d.clone())
        };
        match stance.form2 {
            Some(f2) => {
                let mut d = self.content.forms[stance.form].forbidden.clone();
                d.extend(self.content.forms[f2].forbidden.iter().copied());
                d
            }
            None => own(stance.form),
        }
    }
    /// The id of `u`'s Stance `i`: its Form's id, or `style+form` (`forbidden+form+form`).
    pub fn stance_id(&self, u: u8, i: usize) -> String {
        let st = self.u(u).stances[i];
        let mut form = self.content.forms[st.form].id.clone();
        if let Some(f2) = st.form2 {
            form = format!("{form}+{}", self.content.forms[f2].id);
        }
        match st.style {
            Some(s) => format!("{}+{form}", self.content.styles[s].id),
            None => form.clone(),
        }
    }
    /// The name of `u`'s Stance `i` (D-STN-1): the Style's name and the Form's.
    pub fn stance_name(&self, u: u8, i: usize) -> String {
        let st = self.u(u).stances[i];
        let mut form = self.content.forms[st.form].name.clone();
        if let Some(f2) = st.form2 {
            form = format!("{form} {}", self.content.forms[f2].name);
        }
        match st.style {
            Some(s) => format!("{} {form}", self.content.styles[s].name),
            None => form.clone(),
        }
    }
    /// How many sides the fight has: 2, or 3 in a three-way battle (D-CMP-4).
    pub fn sides(&self) -> usize {
        self.meter.sides
    }
    /// Whether the fight is a three-way battle (D-CMP-4).
    pub fn three_way(&self) -> bool {
        self.meter.sides > 2
    }
    /// Whether `u`'s Stance has trait `t`.
    pub fn has_trait(&self, u: u8, t: crate::content::Trait) -> bool {
        // D-PEN-2: a Dazed unit's Stance has no abilities this round.
        !self.lasting(u, "dazed") && (self.form(u).is_some_and(|f| f.has(t)) || self.form2(u).is_some_and(|f| f.has(t)))
            || self.style(u).is_some_and(|s| s.traits.contains(&t))
    }
}

/// A journal entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A round begins (D-INIT-1).
    RoundStarted {
        /// Its number.
        round: u32,
    },
    /// A unit fills its side's slot (D-INIT-2).
    TurnStarted {
        /// Who.
        who: W,
    },
    /// It takes a Stance for the turn (D-TURN-1).
    StanceTaken {
        /// Who.
        who: W,
        /// The Stance's index among its Stances.
        stance: usize,
        /// Its name.
        name: String,
    },
    /// Numbers join its pool (D-TURN-2).
    Rolled {
        /// Who.
        who: W,
        /// The numbers.
        numbers: Vec<i32>,
    },
    /// A number leaves its pool.
    Spent {
        /// Who.
        who: W,
        /// The number.
        number: i32,
    },
    /// Its pool empties.
    PoolEmptied {
        /// Who.
        who: W,
    },
    /// It takes an action.
    Acted {
        /// Who.
        who: W,
        /// Which.
        action: ActionKey,
        /// Its name.
        name: String,
        /// The number it spent, if any.
        number: Option<i32>,
    },
    /// Its tokens of a kind change.
    Tokens {
        /// Who.
        who: W,
        /// Kind.
        token: Token,
        /// By how many.
        delta: i32,
        /// Why, for a person.
        why: &'static str,
    },
    /// It holds someone's Challenge, or none.
    Challenge {
        /// Who.
        who: W,
        /// Whose Challenge, or none.
        by: Option<W>,
    },
    /// A hit lands (D-HP-*): the unit's Shield, HP and broken bars after it.
    Hurt {
        /// Who.
        who: W,
        /// Whose hit it was, if anyone's.
        #[serde(skip_serializing_if = "Option::is_none")]
        by: Option<W>,
        /// Damage that reached it (after Armor).
        damage: i32,
        /// Shield after.
        shield: i32,
        /// HP after.
        hp: i32,
        /// Bars broken after.
        broken: u8,
    },
    /// It heals to `hp`.
    Healed {
        /// Who.
        who: W,
        /// HP after.
        hp: i32,
    },
    /// Its Shield is now `points`.
    Shielded {
        /// Who.
        who: W,
        /// Points.
        points: i32,
    },
    /// A Zen unit holds a further Shield, not at work (L1469).
    ShieldHeld {
        /// Who.
        who: W,
        /// Points.
        points: i32,
    },
    /// A Zen unit's first held Shield goes to work, its Shield at work having broken.
    ShieldToWork {
        /// Who.
        who: W,
    },
    /// It moves to a square.
    Moved {
        /// Who.
        who: W,
        /// Where.
        to: Pos,
        /// How ("step", "push", "teleport"...).
        how: &'static str,
    },
    /// It is Taken Out (D-OUT-1), or back in the fight.
    Out {
        /// Who.
        who: W,
        /// Out (true) or back (false).
        out: bool,
    },
    /// A square's obstacle changes.
    Obstacle {
        /// Where.
        at: Pos,
        /// What is there now.
        now: Option<Obstacle>,
    },
    /// A later push is waiting (Fury).
    PushLater {
        /// Who pushes.
        by: W,
        /// Whom.
        target: W,
        /// Spaces.
        n: i32,
    },
    /// The later pushes are done.
    LaterDone,
    /// A Trap deals its damage (or Phoenix's heal) to `who` (D-OBS-5: each Trap once a turn).
    Trapped {
        /// Who.
        who: W,
        /// The Trap's square.
        at: Pos,
    },
    /// An Elder unit takes its free Unique Action of the turn (L2672).
    FreeAction {
        /// Who.
        who: W,
    },
    /// A limited action is used once more this turn.
    Used {
        /// Who.
        who: W,
        /// Which.
        action: ActionKey,
    },
    /// A Fused Flametongue's first burn of the turn.
    Flared {
        /// Whose.
        who: W,
    },
    /// A Bonus or Penalty goes to work on a unit (D-BON-*, D-PEN-*), until the end of round
    /// `until`.
    Staked {
        /// Who holds it.
        who: W,
        /// Its id.
        stake: String,
        /// The last round it works in.
        until: u32,
    },
    /// A Bonus or Penalty has done its work before its time (Missed Opportunity).
    StakeDone {
        /// Who held it.
        who: W,
        /// Its id.
        stake: String,
    },
    /// The Immortal's first damaging hit of the turn heals it (Boss Archetypes).
    Drained {
        /// Whose.
        who: W,
    },
    /// A number in the pool is raised (Wardancer).
    Raised {
        /// Whose pool.
        who: W,
        /// The number before.
        from: i32,
        /// The number after.
        to: i32,
    },
    /// The end of a round's comebacks were offered (D-OUT-4).
    ReturnsAsked,
    /// A unit over an Edge leaves play (D-OBS-2, D-OUT-1).
    Removed {
        /// Who.
        who: W,
    },
    /// An action is cancelled with a Control token (D-TOK-7).
    Negated {
        /// Whose action.
        who: W,
        /// Who cancelled it.
        by: W,
    },
    /// An action is taken over with two Control tokens (D-TOK-7, D-CLAR-6).
    Redirected {
        /// Whose action.
        who: W,
        /// Who takes it over.
        by: W,
    },
    /// An Untouchable Counters an action with a Control token: its hits land on its user too.
    Countered {
        /// Whose action.
        who: W,
        /// Who Counters it.
        by: W,
    },
    /// An out unit hands its numbers to an ally (D-OUT-6).
    Spirit {
        /// The out unit.
        from: W,
        /// Who takes the extra turn.
        to: W,
    },
    /// Heroic Power Up (D-OPT-2): the taker of a Heroic Spirit also gets a Bonus.
    PoweredUp {
        /// The taker.
        who: W,
        /// The Bonus's id.
        bonus: String,
    },
    /// The turn ends.
    TurnEnded {
        /// Whose.
        who: W,
    },
    /// The losing side's most important member makes the Last Stand, and the winners answer it
    /// (D-LS-2, D-LS-3).
    LastStand {
        /// Who makes it.
        who: W,
        /// The winning side, who answer it.
        answered_by: String,
    },
    /// Take Aim: the unit's next Action this turn is aimed (`on`), or the aim is spent.
    Aimed {
        /// Who.
        who: W,
        /// Aimed, or spent.
        on: bool,
    },
    /// Amplify: the unit's next Action is amplified (`stage` 1), its amplified Action is under way
    /// (2), or that Action is over (0).
    Amplified {
        /// Who.
        who: W,
        /// Where the amplification stands.
        stage: u8,
    },
    /// The unit spends a Training token on its next Action (D-TOK-10), or used Watch Closely
    /// (`watch`).
    Trained {
        /// Who.
        who: W,
        /// Watch Closely rather than a token spent.
        watch: bool,
    },
    /// A Frantic hero picks its Frantic ability for the turn (D-HC-9).
    FranticPicked {
        /// Who.
        who: W,
        /// The Archetype (index into the content's).
        archetype: usize,
        /// Its name.
        name: String,
    },
    /// The fight is over (D-LS-4): the unit heals to full and drops every token.
    Restored {
        /// Who.
        who: W,
    },
    /// A Copy of `of` is put on a square, over any obstacle there (D-OBS-0, D-OBS-1).
    CopyPlaced {
        /// Its Original.
        of: W,
        /// Where.
        at: Pos,
    },
    /// A Copy moves.
    CopyMoved {
        /// Its Original.
        of: W,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
    },
    /// A Copy is destroyed.
    CopyGone {
        /// Its Original.
        of: W,
        /// Where it stood.
        at: Pos,
    },
    /// The unit takes an action as if it stood on its Copy's square (D-OBS-1, L9585).
    FromCopy {
        /// Who.
        who: W,
        /// The Copy's square.
        at: Pos,
    },
    /// The action taken from a Copy is over: the unit is back on its own square, unless the
    /// action moved it (`back` none).
    BackFromCopy {
        /// Who.
        who: W,
        /// Its own square, if it goes back there.
        back: Option<Pos>,
    },
    /// A Stooge of `of`'s group is put on a square (`stooge-figures`).
    MemberPlaced {
        /// The group.
        of: W,
        /// Where.
        at: Pos,
    },
    /// A Stooge of `of`'s group (not the one on its unit's square) moves.
    MemberMoved {
        /// The group.
        of: W,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
    },
    /// A Stooge of `of`'s group leaves the fight (over an Edge, or the group is down).
    MemberLost {
        /// The group.
        of: W,
        /// Where it stood.
        at: Pos,
    },
    /// The Stooge on `at` takes its group's lead: the group's unit stands there now, and the
    /// Stooge that stood on the unit's square is one of the others.
    Lead {
        /// The group.
        who: W,
        /// The Stooge's square.
        at: Pos,
    },
    /// A unit in Song Form picks its song (its kind of token).
    Sang {
        /// Who.
        who: W,
        /// The song.
        token: Token,
    },
    /// Three-way battles (D-CMP-4): a unit that helped one of another side gains a Favor token
    /// naming a side.
    FavorGained {
        /// The holder.
        who: W,
        /// The side the token names.
        team: String,
        /// The unit helped.
        helped: W,
    },
    /// A Favor token is spent: the attacker may not attack the spender's side this turn.
    FavorSpent {
        /// The holder who spends it.
        who: W,
        /// The side the token names.
        team: String,
        /// The attacker turned away.
        attacker: W,
    },
    /// The fight is over.
    Ended {
        /// The winning side, or none for a draw.
        winner: Option<String>,
        /// Why.
        why: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::RoundStarted { round } => write!(f, "round {round} begins"),
            Event::TurnStarted { who } => write!(f, "{who} takes a turn"),
            Event::StanceTaken { who, name, .. } => write!(f, "{who} takes {name} Stance"),
            Event::Rolled { who, numbers } => write!(f, "{who} puts {numbers:?} in the pool"),
            Event::Spent { who, number } => write!(f, "{who} spends a {number}"),
            Event::PoolEmptied { who } => write!(f, "{who}'s pool empties"),
            Event::Acted { who, name, number, .. } => match number {
                Some(n) => write!(f, "{who} uses {name} with a {n}"),
                None => write!(f, "{who} uses {name}"),
            },
            Event::Tokens { who, token, delta, why } => {
                if *delta >= 0 {
                    write!(f, "{who} gains {delta} {token} ({why})")
                } else {
                    write!(f, "{who} loses {} {token} ({why})", -delta)
                }
            }
            Event::Challenge { who, by } => match by {
                Some(b) => write!(f, "{who} holds {b}'s Challenge"),
                None => write!(f, "{who} drops its Challenge"),
            },
            Event::Hurt { who, by, damage, shield, hp, broken } => {
                let from = by.as_ref().map(|b| format!(" from {b}")).unwrap_or_default();
                write!(f, "{who} takes {damage} damage{from} (shield {shield}, HP {hp}, bars broken {broken})")
            }
            Event::Healed { who, hp } => write!(f, "{who} heals to {hp} HP"),
            Event::Shielded { who, points } => write!(f, "{who}'s Shield is {points}"),
            Event::ShieldHeld { who, points } => write!(f, "{who} holds a {points}-point Shield in reserve"),
            Event::ShieldToWork { who } => write!(f, "{who}'s held Shield goes to work"),
            Event::Moved { who, to, how } => write!(f, "{who} moves to {} ({how})", to.key()),
            Event::Out { who, out: true } => write!(f, "{who} is Taken Out"),
            Event::Out { who, out: false } => write!(f, "{who} is back in the fight"),
            Event::Obstacle { at, now } => match now {
                Some(o) => write!(f, "{o:?} at {}", at.key()),
                None => write!(f, "the obstacle at {} is gone", at.key()),
            },
            Event::PushLater { by, target, n } => write!(f, "{by} will push {target} {n} when the turn ends"),
            Event::LaterDone => write!(f, "the end-of-turn pushes are done"),
            Event::Used { who, .. } => write!(f, "{who} marks a use this turn"),
            Event::FreeAction { who } => write!(f, "{who} takes its free Unique Action of the turn (Elder)"),
            Event::Trapped { who, at } => write!(f, "{who} is caught by the Trap on {}", at.key()),
            Event::Spirit { from, to } => write!(f, "{from} hands its numbers to {to} (Heroic Spirit)"),
            Event::PoweredUp { who, bonus } => write!(f, "{who} is handed the Bonus {bonus} too (Heroic Power Up)"),
            Event::Negated { who, by } => write!(f, "{by} cancels {who}'s action with a Control token"),
            Event::Redirected { who, by } => write!(f, "{by} takes {who}'s action over with two Control tokens"),
            Event::Countered { who, by } => write!(f, "{by} Counters {who}'s action with a Control token"),
            Event::Flared { who } => write!(f, "{who}'s flames catch (Flametongue)"),
            Event::Drained { who } => write!(f, "{who} drains life (the Immortal)"),
            Event::Staked { who, stake, until } => write!(f, "{who} holds {stake} through round {until}"),
            Event::StakeDone { who, stake } => write!(f, "{who}'s {stake} is done"),
            Event::Removed { who } => write!(f, "{who} goes over the Edge and leaves play"),
            Event::ReturnsAsked => write!(f, "the round ends: units out of play may come back"),
            Event::Raised { who, from, to } => write!(f, "{who} raises a {from} to {to}"),
            Event::TurnEnded { who } => write!(f, "{who}'s turn ends"),
            Event::LastStand { who, answered_by } => {
                write!(f, "{who} makes the Last Stand; the {answered_by} take the story from there")
            }
            Event::Restored { who } => write!(f, "{who} heals to full and drops every token"),
            Event::FranticPicked { who, name, .. } => write!(f, "{who} takes the Frantic {name} ability this turn"),
            Event::Aimed { who, on: true } => write!(f, "{who} takes aim: its next Action is 1 stronger and 1 dearer"),
            Event::Aimed { who, on: false } => write!(f, "{who}'s aim is spent"),
            Event::Trained { who, watch: false } => write!(f, "{who} spends a Training token on its next Action"),
            Event::Trained { who, watch: true } => write!(f, "{who} watches closely"),
            Event::Amplified { who, stage: 1 } => write!(f, "{who}'s next Action is amplified"),
            Event::Amplified { who, stage: 2 } => write!(f, "{who} takes an amplified Action"),
            Event::Amplified { who, .. } => write!(f, "{who}'s amplified Action is over"),
            Event::Sang { who, token } => write!(f, "{who} sings a song of {token}"),
            Event::CopyPlaced { of, at } => write!(f, "a Copy of {of} appears at {}", at.key()),
            Event::CopyMoved { of, to, .. } => write!(f, "a Copy of {of} moves to {}", to.key()),
            Event::CopyGone { of, at } => write!(f, "the Copy of {of} at {} is destroyed", at.key()),
            Event::FromCopy { who, at } => write!(f, "{who} acts from its Copy at {}", at.key()),
            Event::MemberPlaced { of, at } => write!(f, "a Stooge of {of} comes in at {}", at.key()),
            Event::MemberMoved { of, to, .. } => write!(f, "a Stooge of {of} moves to {}", to.key()),
            Event::MemberLost { of, at } => write!(f, "the Stooge of {of} at {} is gone", at.key()),
            Event::Lead { who, at } => write!(f, "the Stooge of {who} at {} takes the lead", at.key()),
            Event::BackFromCopy { who, back: Some(p) } => write!(f, "{who} is back at {}", p.key()),
            Event::BackFromCopy { who, back: None } => write!(f, "{who} stays where the action took it"),
            Event::FavorGained { who, team, helped } => {
                write!(f, "{who} gains a Favor token naming the {team} (helped {helped})")
            }
            Event::FavorSpent { who, team, attacker } => {
                write!(f, "{who} spends a Favor token naming the {team}: {attacker} may not attack its side this turn")
            }
            Event::Ended { winner, why } => match winner {
                Some(w) => write!(f, "the {w} win: {why}"),
                None => write!(f, "the fight stops: {why}"),
            },
        }
    }
}

impl Apply<Event> for State {
    fn apply(&mut self, e: &Event) {
        match e {
            Event::RoundStarted { round } => {
                self.round = *round;
                self.returns_asked = false;
                self.meter.new_round();
            }
            Event::TurnStarted { who } => {
                self.meter.fill(who.idx as usize);
                self.turn = Some(who.idx);
                self.marks = TurnMarks::default();
            }
            Event::StanceTaken { who, stance, .. } => {
                let u = &mut self.units[who.idx as usize];
                u.stance = Some(*stance);
            }
            Event::Rolled { who, numbers } => {
                let u = &mut self.units[who.idx as usize];
                for &n in numbers {
                    u.pool.add(n);
                }
            }
            Event::Spent { who, number } => {
                self.units[who.idx as usize].pool.spend(*number);
            }
            Event::PoolEmptied { who } => self.units[who.idx as usize].pool.clear(),
            // D-EN-8: Reinforcements is a fresh Stooge's action, none of the group's own.
            // The fresh Stooge's action: no member's, unless the Stooges stand as figures.
            Event::Acted { action: ActionKey::Reinforcements, .. } if !self.options.stooge_figures => {}
            Event::Acted { who, .. } => self.marks.acted.push(who.idx),
            Event::Tokens { who, token, delta, .. } => {
                let t = &mut self.units[who.idx as usize].tokens[token.index()];
                *t = (*t + delta).max(0);
                // A Favor token lost another way (shed, taken) goes from the newest held.
                if *token == Token::Favor {
                    let mut keep = *t as usize;
                    self.favors.retain(|f| {
                        if f.0 != who.idx {
                            return true;
                        }
                        let kept = keep > 0;
                        keep = keep.saturating_sub(1);
                        kept
                    });
                }
            }
            Event::Challenge { who, by } => self.units[who.idx as usize].challenge = by.as_ref().map(|b| b.idx),
            Event::Hurt { who, by, shield, hp, broken, damage } => {
                let u = &mut self.units[who.idx as usize];
                u.shield = *shield;
                u.hp = *hp;
                u.broken = *broken;
                let b = by.as_ref().map_or(u8::MAX, |b| b.idx);
                if *damage > 0 && !self.marks.damaged.contains(&(b, who.idx)) {
                    self.marks.damaged.push((b, who.idx));
                }
            }
            Event::Healed { who, hp } => {
                let x = &mut self.units[who.idx as usize];
                x.hp = *hp;
                // D-G-28: a Bleeding unit at 0 HP healed any way gets its last bar back.
                if *hp > 0 && x.broken >= x.bars {
                    x.broken = x.bars.saturating_sub(1);
                }
            }
            Event::Shielded { who, points } => self.units[who.idx as usize].shield = *points,
            Event::ShieldHeld { who, points } => self.units[who.idx as usize].spares.push(*points),
            Event::ShieldToWork { who } => {
                let x = &mut self.units[who.idx as usize];
                if !x.spares.is_empty() {
                    x.shield = x.spares.remove(0);
                }
            }
            Event::Moved { who, to, .. } => {
                self.units[who.idx as usize].at = Some(*to);
                if !self.marks.moved.contains(&who.idx) {
                    self.marks.moved.push(who.idx);
                }
            }
            Event::Out { who, out } => {
                self.units[who.idx as usize].out = *out;
                self.fallen.retain(|&v| v != who.idx);
                if *out {
                    self.fallen.push(who.idx);
                }
            }
            Event::LastStand { .. } => {}
            Event::FranticPicked { who, archetype, .. } => {
                for (a, v) in self.units[who.idx as usize].archetypes.iter_mut() {
                    *v = if *a == *archetype {
                        Variant::FranticNow
                    } else if *v == Variant::FranticNow {
                        Variant::FranticLast
                    } else {
                        Variant::Frantic
                    };
                }
            }
            Event::Aimed { who, on } => {
                self.marks.aimed.retain(|&v| v != who.idx);
                if *on {
                    self.marks.aimed.push(who.idx);
                }
            }
            Event::Trained { who, watch } => {
                if *watch {
                    self.marks.watching.push(who.idx);
                } else {
                    self.marks.trained.push(who.idx);
                }
            }
            Event::Amplified { who, stage } => {
                self.marks.amplified.retain(|a| a.0 != who.idx);
                if *stage > 0 {
                    self.marks.amplified.push((who.idx, *stage));
                }
            }
            Event::Restored { who } => {
                let u = &mut self.units[who.idx as usize];
                u.hp = u.bar_max;
                u.broken = 0;
                u.tokens = [0; 12];
                u.challenge = None;
                u.shield = 0;
                u.pool.clear();
                u.out = u.at.is_none();
                self.favors.retain(|f| f.0 != who.idx);
            }
            Event::Obstacle { at, now } => {
                if let Some(c) = self.map.get_mut(*at) {
                    *c = *now;
                }
            }
            Event::PushLater { by, target, n } => self.marks.later.push((by.idx, target.idx, *n)),
            Event::LaterDone => self.marks.later.clear(),
            Event::FreeAction { who } => self.marks.elder.push(who.idx),
            Event::Trapped { at, .. } => self.marks.traps.push(*at),
            Event::Used { who, action } => {
                match self.marks.uses.iter_mut().find(|(u, a, _)| *u == who.idx && a == action) {
                    Some(x) => x.2 += 1,
                    None => self.marks.uses.push((who.idx, *action, 1)),
                }
            }
            Event::Spirit { .. } | Event::PoweredUp { .. } => {}
            Event::Negated { by, .. } | Event::Countered { by, .. } | Event::Redirected { by, .. } => {
                self.marks.control.push(by.idx)
            }
            Event::Flared { who } => self.marks.flame.push(who.idx),
            Event::Drained { who } => self.marks.drained.push(who.idx),
            Event::Staked { who, stake, until } => self.stakes.push((who.idx, stake.clone(), *until)),
            Event::StakeDone { who, stake } => self.stakes.retain(|(v, k, _)| !(*v == who.idx && k == stake)),
            Event::Removed { who } => self.units[who.idx as usize].at = None,
            Event::ReturnsAsked => self.returns_asked = true,
            Event::Raised { who, from, to } => {
                let pool = &mut self.units[who.idx as usize].pool;
                if pool.spend(*from) {
                    pool.add(*to);
                }
            }
            Event::TurnEnded { who } => {
                let u = &mut self.units[who.idx as usize];
                u.last_stance = u.stance;
                self.turn = None;
            }
            Event::CopyPlaced { of, at } => {
                if let Some(c) = self.map.get_mut(*at) {
                    *c = None;
                }
                self.copies.retain(|c| c.0 != *at);
                self.copies.push((*at, of.idx));
            }
            Event::Sang { who, token } => {
                self.songs.retain(|s| s.0 != who.idx);
                self.songs.push((who.idx, *token));
            }
            Event::CopyMoved { from, to, .. } => {
                if let Some(c) = self.copies.iter_mut().find(|c| c.0 == *from) {
                    c.0 = *to;
                }
            }
            Event::CopyGone { at, .. } => self.copies.retain(|c| c.0 != *at),
            Event::MemberPlaced { of, at } => self.members.push((*at, of.idx)),
            Event::MemberMoved { of, from, to } => {
                if let Some(c) = self.members.iter_mut().find(|c| c.0 == *from && c.1 == of.idx) {
                    c.0 = *to;
                }
            }
            Event::MemberLost { of, at } => {
                if let Some(i) = self.members.iter().position(|c| c.0 == *at && c.1 == of.idx) {
                    self.members.remove(i);
                }
            }
            Event::Lead { who, at } => {
                let u = &mut self.units[who.idx as usize];
                if let Some(c) = self.members.iter_mut().find(|c| c.0 == *at && c.1 == who.idx)
                    && let Some(own) = u.at
                {
                    c.0 = own;
                    u.at = Some(*at);
                }
            }
            Event::FromCopy { who, at } => {
                let u = &mut self.units[who.idx as usize];
                if let Some(own) = u.at {
                    self.standing_in.push((who.idx, own, *at));
                    u.at = Some(*at);
                }
            }
            Event::BackFromCopy { who, back } => {
                self.standing_in.retain(|c| c.0 != who.idx);
                if let Some(p) = back {
                    self.units[who.idx as usize].at = Some(*p);
                }
            }
            Event::FavorGained { who, team, helped } => {
                let side = SIDES.iter().position(|s| s == team).unwrap_or(0) as u8;
                self.favors.push((who.idx, side));
                self.units[who.idx as usize].tokens[Token::Favor.index()] += 1;
                // One a turn for whoever the rules count it to (the holder, as Fray reads it).
                self.marks.favor_gained.push(who.idx);
                let _ = helped;
            }
            Event::FavorSpent { who, team, attacker } => {
                let side = SIDES.iter().position(|s| s == team).unwrap_or(0) as u8;
                if let Some(i) = self.favors.iter().position(|f| *f == (who.idx, side)) {
                    self.favors.remove(i);
                }
                let t = &mut self.units[who.idx as usize].tokens[Token::Favor.index()];
                *t = (*t - 1).max(0);
                self.marks.favor_spent = true;
                let turned = self.units[who.idx as usize].side;
                self.marks.turned_away.push((attacker.idx, turned));
            }
            Event::Ended { winner, why } => {
                self.outcome =
                    Some(Outcome { winner: winner.clone(), score: Default::default(), summary: why.clone() });
            }
        }
    }
}

impl Stack for State {
    type Frame = Frame;
    fn frames(&self) -> &[Frame] {
        &self.flow
    }
    fn frames_mut(&mut self) -> &mut Vec<Frame> {
        &mut self.flow
    }
}

/// Which of `u`'s Archetypes is `id`, and how it holds it; none while `u` is out (D-OUT-3).
pub fn has_archetype(s: &State, u: u8, id: &str) -> Option<Variant> {
    let x = s.u(u);
    if !x.active() {
        return None;
    }
    let (_, v) = x.archetypes.iter().find(|(a, _)| s.content.archetypes[*a].id == id)?;
    match v {
        // D-HC-9: the Frantic ability picked this turn, where its text is the Focused one's as
        // Fray plays it (docs/rulings/dojo.md); the others are not played yet.
        Variant::FranticNow if FRANTIC_AS_FOCUSED.contains(&id) => Some(Variant::Focused),
        // The six whose Frantic text differs are played as their own (`FranticNow`).
        Variant::FranticNow => Some(Variant::FranticNow),
        v if v.frantic() => None,
        v => Some(*v),
    }
}

/// The Archetypes whose Frantic ability, for its turn, is what Fray plays of the Focused one.
pub const FRANTIC_AS_FOCUSED: [&str; 7] = ["cyborg", "demon", "punk", "teacher", "trickster", "underdog", "wardancer"];

/// The rules' context.
pub type Ctx<'a> = fray_core::engine::Ctx<'a, State, Event>;

/// Token counts as a person reads them ("iron 2, speed 1").
pub fn token_list(u: &Unit) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    for t in TOKENS {
        if t != Token::Challenge && u.has(t) > 0 {
            m.insert(t.id().into(), u.has(t).into());
        }
    }
    m
}
